/* test_linkcheck: the link cache (parse, save atomically, look up, later
 * checks win, bad lines skipped), the status descriptions for resource pages,
 * the request URL, and linkcheck_urls against a tiny HTTP server on
 * 127.0.0.1 run in a thread of this test (404, a permanent redirect, a
 * refused connection). */
#include "testutil.h"

#include "linkcheck.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

static char *tmp_file(const char *name)
{
	char *dir = strdup("/tmp/ssg-lc-XXXXXX");
	assert_non_null(mkdtemp(dir));
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	snprintf(p, n, "%s/%s", dir, name);
	free(dir);
	return p;
}

/* Remove file and the folders tmp_file made for it. */
static void tmp_remove(char *file)
{
	unlink(file);
	char *slash;
	while ((slash = strrchr(file, '/')) && strncmp(file, "/tmp/ssg-lc-", 12) == 0 &&
	       slash > file + 11) {
		*slash = '\0';
		rmdir(file);
	}
	free(file);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_cache_load(void **state)
{
	char *file = tmp_file("links.tsv");
	write_file(file, "# header\n"
			 "https://b.org/x\t404\t-\t2024-03-01\t1700000000\tbroken\t-\n"
			 "https://a.org\t200\t-\t-\t1700000000\tok\t-\n"
			 "not a url\t200\t-\t-\t1\tok\t-\n"
			 "https://c.org\tabc\t-\t-\t1\tok\t-\n"
			 "https://d.org\t200\t-\t-\t1\tbogus\t-\n"
			 "https://a.org\t301\thttps://a.net\t-\t1700000500\tmoved\t-\n"
			 "https://a.org\t500\t-\t-\t1600000000\tbroken\t-\n"
			 "https://e.org\t200\thttps://e.org/login\t-\t5\n"
			 "https://f.org\t0\t-\t2024-01-01\t7\terror\tCould not resolve host\n");
	struct linkcache c = LINKCACHE_INIT;
	assert_int_equal(linkcheck_load_cache(file, &c), 0);
	assert_int_equal(c.n, 4); /* a, b, e, f */
	const struct linkcache_entry *a = linkcache_find(&c, "https://a.org");
	assert_non_null(a);
	assert_int_equal(a->result, LINK_MOVED);     /* the latest check wins */
	assert_int_equal(a->status, 301);
	assert_string_equal(a->final_url, "https://a.net");
	assert_string_equal(a->broken_since, "");
	const struct linkcache_entry *b = linkcache_find(&c, "https://b.org/x");
	assert_non_null(b);
	assert_int_equal(b->result, LINK_BROKEN);
	assert_string_equal(b->broken_since, "2024-03-01");
	assert_int_equal(b->checked_at, 1700000000);
	const struct linkcache_entry *e = linkcache_find(&c, "https://e.org");
	assert_non_null(e); /* five columns: the result is guessed */
	assert_int_equal(e->result, LINK_REDIRECTED);
	const struct linkcache_entry *f = linkcache_find(&c, "https://f.org");
	assert_non_null(f);
	assert_string_equal(f->detail, "Could not resolve host");
	assert_null(linkcache_find(&c, "https://c.org"));
	assert_null(linkcache_find(&c, "https://d.org"));
	assert_null(linkcache_find(&c, "https://zzz.org"));
	for (size_t i = 1; i < c.n; i++)
		assert_true(strcmp(c.v[i - 1].url, c.v[i].url) < 0);
	linkcache_free(&c);
	unlink(file);
	assert_int_equal(linkcheck_load_cache(file, &c), -1);
	assert_int_equal(c.n, 0);
	tmp_remove(file);
}

static void test_cache_roundtrip(void **state)
{
	char *file = tmp_file("sub/dir/links.tsv"); /* folders made on save */
	struct linkcache c = LINKCACHE_INIT;
	struct linkcache_entry e = {.url = "https://z.org/p", .result = LINK_ERROR, .status = 0,
				    .checked_at = 42, .detail = "bad\ttab\nline"};
	memcpy(e.broken_since, "2023-12-31", 11);
	linkcache_put(&c, &e);
	struct linkcache_entry m = {.url = "https://m.org", .result = LINK_REDIRECTED, .status = 200,
				    .final_url = "https://m.org/there", .checked_at = 43};
	linkcache_put(&c, &m);
	m.checked_at = 44; /* replaces */
	linkcache_put(&c, &m);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.v[0].url, "https://m.org");
	assert_int_equal(linkcheck_save_cache(file, &c), 0);
	struct linkcache d = LINKCACHE_INIT;
	assert_int_equal(linkcheck_load_cache(file, &d), 0);
	assert_int_equal(d.n, 2);
	const struct linkcache_entry *z = linkcache_find(&d, "https://z.org/p");
	assert_non_null(z);
	assert_int_equal(z->result, LINK_ERROR);
	assert_string_equal(z->broken_since, "2023-12-31");
	assert_string_equal(z->detail, "bad%09tab%0Aline");
	const struct linkcache_entry *mm = linkcache_find(&d, "https://m.org");
	assert_int_equal(mm->checked_at, 44);
	assert_string_equal(mm->final_url, "https://m.org/there");
	char *text = test_read_file(file, NULL);
	assert_non_null(text);
	assert_non_null(strstr(text, "https://m.org\t200\thttps://m.org/there\t-\t44\tredirected\t-\n"));
	free(text);
	linkcache_free(&c);
	linkcache_free(&d);
	tmp_remove(file);
}

static void expect_describe(const struct linkcache_entry *e, const char *want)
{
	char *s = linkcache_describe(e);
	assert_string_equal(s, want);
	free(s);
}

static void test_describe(void **state)
{
	struct linkcache_entry e = {.url = "https://x.org", .result = LINK_OK, .status = 200};
	expect_describe(&e, "ok");
	e.result = LINK_MOVED;
	e.final_url = "https://y.org";
	expect_describe(&e, "moved to https://y.org");
	e.result = LINK_REDIRECTED;
	expect_describe(&e, "redirected to https://y.org");
	e.final_url = NULL;
	e.result = LINK_BROKEN;
	e.status = 410;
	memcpy(e.broken_since, "2024-02-03", 11);
	expect_describe(&e, "broken since 2024-02-03 (HTTP 410)");
	e.result = LINK_TIMEOUT;
	expect_describe(&e, "broken since 2024-02-03 (timeout)");
	assert_string_equal(linkcheck_result_name(LINK_RATE_LIMITED), "rate-limited");
}

static void test_request_url(void **state)
{
	char *u = linkcheck_request_url("https://a.org/x", "http://www.a.org/x/#top");
	assert_string_equal(u, "http://a.org/x");
	free(u);
	u = linkcheck_request_url("https://a.org/x", "HTTPS://a.org/x");
	assert_string_equal(u, "https://a.org/x");
	free(u);
	u = linkcheck_request_url("https://a.org", NULL);
	assert_string_equal(u, "https://a.org");
	free(u);
}

/* ---- a tiny HTTP server ------------------------------------------------------ */

struct server {
	int fd, port, served;
};

static void serve_one(int c, int port)
{
	char req[2048];
	ssize_t n = recv(c, req, sizeof req - 1, 0);
	if (n <= 0)
		return;
	req[n] = '\0';
	char resp[512];
	if (strstr(req, " /gone "))
		snprintf(resp, sizeof resp, "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n");
	else if (strstr(req, " /old "))
		snprintf(resp, sizeof resp,
			 "HTTP/1.0 308 Permanent Redirect\r\nLocation: http://127.0.0.1:%d/new\r\n"
			 "Content-Length: 0\r\n\r\n",
			 port);
	else
		snprintf(resp, sizeof resp, "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n");
	ssize_t w = send(c, resp, strlen(resp), MSG_NOSIGNAL);
	(void)w;
}

static void *server_main(void *arg)
{
	struct server *s = arg;
	for (int i = 0; i < 3; i++) { /* /gone, /old, /new */
		int c = accept(s->fd, NULL, NULL);
		if (c < 0)
			break;
		serve_one(c, s->port);
		close(c);
		s->served++;
	}
	return NULL;
}

static int listen_any(int *port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof a;
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(fd, 8), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

static void test_urls(void **state)
{
	struct server s = {0};
	s.fd = listen_any(&s.port);
	int dead_fd, dead;
	dead_fd = listen_any(&dead);
	close(dead_fd); /* nobody listens there now */
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, server_main, &s), 0);
	char canon[3][128], req[3][128];
	snprintf(canon[0], 128, "https://127.0.0.1:%d/gone", s.port);
	snprintf(canon[1], 128, "https://127.0.0.1:%d/old", s.port);
	snprintf(canon[2], 128, "https://127.0.0.1:%d/x", dead);
	for (int i = 0; i < 3; i++)
		snprintf(req[i], 128, "http%s", canon[i] + 5);
	const char *cv[] = {canon[0], canon[1], canon[2]}, *rv[] = {req[0], req[1], req[2]};
	struct linkcheck_opts o = {.timeout = 5, .now = 1234};
	struct linkcache_entry out[3];
	struct linkcheck_stats st = {0};
	linkcheck_urls(cv, rv, 3, &o, out, &st);
	pthread_join(t, NULL);
	close(s.fd);
	assert_int_equal(s.served, 3);
	assert_int_equal(st.requests, 4); /* /gone, /old, /new, the refused one */
	assert_string_equal(out[0].url, canon[0]);
	assert_int_equal(out[0].result, LINK_BROKEN);
	assert_int_equal(out[0].status, 404);
	assert_int_equal(out[0].checked_at, 1234);
	assert_int_equal(out[1].result, LINK_MOVED);
	char want[128];
	snprintf(want, sizeof want, "http://127.0.0.1:%d/new", s.port);
	assert_string_equal(out[1].final_url, want);
	assert_int_equal(out[2].result, LINK_ERROR);
	assert_non_null(out[2].detail);
	assert_null(strstr(out[2].detail, " ms")); /* no timings */
	for (int i = 0; i < 3; i++)
		linkcache_entry_free(&out[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_load),     cmocka_unit_test(test_cache_roundtrip),
		cmocka_unit_test(test_describe),       cmocka_unit_test(test_request_url),
		cmocka_unit_test(test_urls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
