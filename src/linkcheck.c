/* linkcheck: external link health (see linkcheck.h). Three parts: the cache
 * file (read, write atomically, look up), the checker (a libcurl multi loop
 * that schedules one job per URL under the overall and per-host limits,
 * following redirects itself and putting 429s back in the queue with a
 * not-before time), and the site pass that ties both to the resources and
 * reports findings. Calls util (buf, xalloc, diag, hash, path), url and
 * libcurl. */
#include "linkcheck.h"

#include "buf.h"
#include "cli.h"
#include "hash.h"
#include "path.h"
#include "url.h"
#include "xalloc.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <unistd.h>

#define LC_USER_AGENT "Mozilla/5.0 (compatible; ssg/" SSG_VERSION " link checker)"

/* ---- names and descriptions ------------------------------------------------ */

static const char *const result_names[] = {
	[LINK_OK] = "ok",
	[LINK_MOVED] = "moved",
	[LINK_REDIRECTED] = "redirected",
	[LINK_BROKEN] = "broken",
	[LINK_TIMEOUT] = "timeout",
	[LINK_ERROR] = "error",
	[LINK_RATE_LIMITED] = "rate-limited",
};

const char *linkcheck_result_name(enum link_result r)
{
	if ((unsigned)r < sizeof result_names / sizeof *result_names)
		return result_names[r];
	return "unknown";
}

static int result_parse(const char *s, enum link_result *r)
{
	for (size_t i = 0; i < sizeof result_names / sizeof *result_names; i++)
		if (!strcmp(s, result_names[i])) {
			*r = (enum link_result)i;
			return 0;
		}
	return -1;
}

static bool result_is_broken(enum link_result r)
{
	return r == LINK_BROKEN || r == LINK_TIMEOUT || r == LINK_ERROR;
}

char *linkcache_describe(const struct linkcache_entry *e)
{
	const char *since = e->broken_since[0] ? e->broken_since : "?";
	switch (e->result) {
	case LINK_OK: return xstrdup("ok");
	case LINK_MOVED: return xasprintf("moved to %s", e->final_url ? e->final_url : "?");
	case LINK_REDIRECTED:
		return xasprintf("redirected to %s", e->final_url ? e->final_url : "?");
	case LINK_BROKEN:
		if (e->status)
			return xasprintf("broken since %s (HTTP %d)", since, e->status);
		return xasprintf("broken since %s (%s)", since, e->detail ? e->detail : "error");
	case LINK_TIMEOUT: return xasprintf("broken since %s (timeout)", since);
	case LINK_ERROR:
		return xasprintf("broken since %s (%s)", since, e->detail ? e->detail : "error");
	case LINK_RATE_LIMITED: return xstrdup("unknown (rate-limited)");
	}
	return xstrdup("unknown");
}

/* ---- the cache ------------------------------------------------------------- */

void linkcache_entry_free(struct linkcache_entry *e)
{
	free(e->url);
	free(e->final_url);
	free(e->detail);
	memset(e, 0, sizeof *e);
}

void linkcache_free(struct linkcache *c)
{
	for (size_t i = 0; i < c->n; i++)
		linkcache_entry_free(&c->v[i]);
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}

/* Index of the first entry >= url. */
static size_t cache_lower(const struct linkcache *c, const char *url)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(c->v[mid].url, url) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct linkcache_entry *linkcache_find(const struct linkcache *c, const char *url)
{
	size_t i = cache_lower(c, url);
	return i < c->n && !strcmp(c->v[i].url, url) ? &c->v[i] : NULL;
}

static void entry_copy(struct linkcache_entry *dst, const struct linkcache_entry *src)
{
	*dst = *src;
	dst->url = xstrdup(src->url);
	dst->final_url = src->final_url ? xstrdup(src->final_url) : NULL;
	dst->detail = src->detail ? xstrdup(src->detail) : NULL;
}

void linkcache_put(struct linkcache *c, const struct linkcache_entry *e)
{
	size_t i = cache_lower(c, e->url);
	if (i < c->n && !strcmp(c->v[i].url, e->url)) {
		linkcache_entry_free(&c->v[i]);
		entry_copy(&c->v[i], e);
		return;
	}
	c->v = xgrow(c->v, &c->cap, c->n + 1, sizeof *c->v);
	memmove(&c->v[i + 1], &c->v[i], (c->n - i) * sizeof *c->v);
	c->n++;
	entry_copy(&c->v[i], e);
}

/* Split line (modified in place) at tabs into at most max fields. */
static size_t split_tabs(char *line, char **f, size_t max)
{
	size_t n = 0;
	while (n < max) {
		f[n++] = line;
		char *t = strchr(line, '\t');
		if (!t)
			break;
		*t = '\0';
		line = t + 1;
	}
	return n;
}

static bool is_date(const char *s)
{
	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return false;
	return true;
}

static int parse_ll(const char *s, long long lo, long long hi, long long *v)
{
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (errno || end == s || *end || x < lo || x > hi)
		return -1;
	*v = x;
	return 0;
}

/* The result a line without a RESULT column means. */
static enum link_result result_guess(int status, bool has_final)
{
	if (status >= 200 && status < 300)
		return has_final ? LINK_REDIRECTED : LINK_OK;
	return status ? LINK_BROKEN : LINK_ERROR;
}

static int cache_parse_line(char *line, struct linkcache_entry *e)
{
	char *f[7];
	size_t n = split_tabs(line, f, 7);
	long long status, at;
	if (n < 5 || !url_is_absolute_http(f[0]) || parse_ll(f[1], 0, 999, &status) ||
	    parse_ll(f[4], 0, (long long)1 << 40, &at))
		return -1;
	bool has_final = strcmp(f[2], "-") != 0 && f[2][0];
	enum link_result r = result_guess((int)status, has_final);
	if (n >= 6 && (result_parse(f[5], &r) || r == LINK_RATE_LIMITED))
		return -1;
	memset(e, 0, sizeof *e);
	e->url = xstrdup(f[0]);
	e->status = (int)status;
	e->result = r;
	e->final_url = has_final ? xstrdup(f[2]) : NULL;
	if (is_date(f[3]))
		memcpy(e->broken_since, f[3], 11);
	e->checked_at = at;
	e->detail = n >= 7 && strcmp(f[6], "-") && f[6][0] ? xstrdup(f[6]) : NULL;
	return 0;
}

int linkcheck_load_cache(const char *file, struct linkcache *c)
{
	/* never through a symlink (the cache may come from a pull request, and
	 * its details end up on pages): as it is saved */
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *fp = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!fp) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, fp)) >= 0) {
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!len || line[0] == '#' || strlen(line) != (size_t)len)
			continue;
		struct linkcache_entry e;
		if (cache_parse_line(line, &e))
			continue;
		const struct linkcache_entry *old = linkcache_find(c, e.url);
		if (!old || old->checked_at <= e.checked_at)
			linkcache_put(c, &e);
		linkcache_entry_free(&e);
	}
	free(line);
	fclose(fp);
	return 0;
}

/* A field with control characters (tab, newline...) percent-encoded. */
static void put_field(struct buf *b, const char *s)
{
	if (!s || !*s) {
		buf_putc(b, '-');
		return;
	}
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			buf_printf(b, "%%%02X", (unsigned char)*s);
		else
			buf_putc(b, *s);
	}
}

static void cache_format(const struct linkcache *c, struct buf *b)
{
	buf_puts(b, "# ssg check --links cache: url\tstatus\tfinal\tbroken-since\tchecked-at"
		    "\tresult\tdetail\n");
	for (size_t i = 0; i < c->n; i++) {
		const struct linkcache_entry *e = &c->v[i];
		put_field(b, e->url);
		buf_printf(b, "\t%d\t", e->status);
		put_field(b, e->final_url);
		buf_putc(b, '\t');
		put_field(b, e->broken_since);
		buf_printf(b, "\t%lld\t%s\t", e->checked_at, linkcheck_result_name(e->result));
		put_field(b, e->detail);
		buf_putc(b, '\n');
	}
}

int linkcheck_save_cache(const char *file, const struct linkcache *c)
{
	char *dir = path_dirname(file);
	int rc = *dir ? path_mkdirs(dir) : 0;
	/* the cache's folder may come from a pull request: never a symlink to
	 * somewhere else, nor a symlink for the file itself */
	struct stat st;
	if (rc == 0 && *dir && (lstat(dir, &st) || !S_ISDIR(st.st_mode))) {
		errno = ELOOP;
		rc = -1;
	}
	if (rc == 0 && lstat(file, &st) == 0 && !S_ISREG(st.st_mode)) {
		errno = ELOOP;
		rc = -1;
	}
	free(dir);
	if (rc)
		return -1;
	struct buf b = BUF_INIT;
	cache_format(c, &b);
	char *tmp = xasprintf("%s.tmp.%ld", file, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (fd >= 0 && !fp)
		close(fd);
	rc = -1;
	if (fp) {
		bool ok = fwrite(buf_cstr(&b), 1, b.n, fp) == b.n;
		ok = !fclose(fp) && ok;
		if (ok && !rename(tmp, file))
			rc = 0;
		else {
			int err = errno ? errno : EIO;
			unlink(tmp);
			errno = err;
		}
	}
	free(tmp);
	buf_free(&b);
	return rc;
}

/* ---- the checker ------------------------------------------------------------ */

struct lc_host {
	char *name;
	int active;
};

struct lc_job {
	size_t i;            /* index into the URLs */
	char *url;           /* this hop's URL */
	size_t host;         /* index into run.hosts */
	bool get;            /* GET (HEAD was refused or failed) */
	bool got_body;       /* the GET's body started: we stopped reading */
	int hops, retries;
	double waited;       /* seconds of Retry-After waits so far */
	double not_before;   /* monotonic seconds */
	char *moved_to;      /* where the leading permanent redirects lead */
	bool temporary;      /* a temporary redirect was followed */
	char errbuf[CURL_ERROR_SIZE];
};

struct lc_run {
	const struct linkcheck_opts *o;
	const char *const *canonical;
	struct linkcache_entry *out;
	struct lc_job *jobs;
	size_t *queue;       /* waiting jobs, in order */
	size_t nqueue;
	struct lc_host *hosts;
	size_t nhosts, caphosts;
	struct hash host_idx;
	CURLM *multi;
	int active, max_total, max_per_host;
	long max_wait;
	size_t remaining, requests;
	bool rescan;
};

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t host_index(struct lc_run *r, const char *url)
{
	char *h = url_host(url);
	if (!h)
		h = xstrdup("");
	size_t i;
	if (hash_get(&r->host_idx, h, &i)) {
		free(h);
		return i;
	}
	r->hosts = xgrow(r->hosts, &r->caphosts, r->nhosts + 1, sizeof *r->hosts);
	r->hosts[r->nhosts] = (struct lc_host){h, 0};
	hash_put(&r->host_idx, h, r->nhosts);
	return r->nhosts++;
}

/* Put job j (back) in the queue for url, not before `at`. Takes url. */
static void job_queue(struct lc_run *r, struct lc_job *j, char *url, double at)
{
	if (j->url != url) {
		free(j->url);
		j->url = url;
	}
	j->host = host_index(r, url);
	j->not_before = at;
	r->queue[r->nqueue++] = (size_t)(j - r->jobs);
	r->rescan = true;
}

static void job_finish(struct lc_run *r, struct lc_job *j, enum link_result res, int status,
		       const char *final_url, const char *detail)
{
	struct linkcache_entry *e = &r->out[j->i];
	e->url = xstrdup(r->canonical[j->i]);
	e->result = res;
	e->status = status;
	e->final_url = final_url ? xstrdup(final_url) : NULL;
	e->detail = detail && *detail ? xstrdup(detail) : NULL;
	e->checked_at = (long long)(r->o->now ? r->o->now : time(NULL));
	free(j->url);
	free(j->moved_to);
	j->url = j->moved_to = NULL;
	r->remaining--;
	r->rescan = true;
}

/* Body bytes of a GET: we only want the status, so stop at the first. */
static size_t lc_write(char *p, size_t size, size_t n, void *arg)
{
	struct lc_job *j = arg;
	j->got_body = true;
	return 0;
}

static CURL *lc_easy(struct lc_run *r, struct lc_job *j)
{
	CURL *e = curl_easy_init();
	if (!e)
		return NULL;
	long total = r->o->timeout > 0 ? r->o->timeout : LINKCHECK_TIMEOUT_DEFAULT;
	long conn = total < LINKCHECK_CONNECT_TIMEOUT ? total : LINKCHECK_CONNECT_TIMEOUT;
	j->errbuf[0] = '\0';
	j->got_body = false;
	curl_easy_setopt(e, CURLOPT_URL, j->url);
	if (j->get)
		curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
	else
		curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_USERAGENT, LC_USER_AGENT);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, conn);
	curl_easy_setopt(e, CURLOPT_TIMEOUT, total);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, lc_write);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, j);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, j->errbuf);
	curl_easy_setopt(e, CURLOPT_PRIVATE, j);
	return e;
}

static void job_start(struct lc_run *r, struct lc_job *j)
{
	CURL *e = lc_easy(r, j);
	if (!e || curl_multi_add_handle(r->multi, e) != CURLM_OK) {
		if (e)
			curl_easy_cleanup(e);
		job_finish(r, j, LINK_ERROR, 0, NULL, "cannot start a transfer");
		return;
	}
	r->hosts[j->host].active++;
	r->active++;
	r->requests++;
}

/* Start what the limits allow; returns the earliest not-before time of a job
 * still waiting for its time (or a huge value). */
static double run_schedule(struct lc_run *r, double now)
{
	double next = 1e300;
	size_t keep = 0;
	for (size_t k = 0; k < r->nqueue; k++) {
		struct lc_job *j = &r->jobs[r->queue[k]];
		bool start = r->active < r->max_total && j->not_before <= now &&
			     r->hosts[j->host].active < r->max_per_host;
		if (start) {
			job_start(r, j);
			continue;
		}
		if (j->not_before > now && j->not_before < next)
			next = j->not_before;
		r->queue[keep++] = r->queue[k];
	}
	r->nqueue = keep;
	return next;
}

/* Does a failed HEAD deserve a GET? Not when the host is unreachable or slow. */
static bool head_retry(CURLcode rc)
{
	return rc != CURLE_COULDNT_RESOLVE_HOST && rc != CURLE_COULDNT_RESOLVE_PROXY &&
	       rc != CURLE_COULDNT_CONNECT && rc != CURLE_OPERATION_TIMEDOUT;
}

/* libcurl's message without its timings (" after 12 ms"), which would make
 * the findings differ from run to run. New string. */
static char *error_text(const char *msg)
{
	struct buf b = BUF_INIT;
	while (*msg) {
		const char *a = strstr(msg, " after ");
		if (!a) {
			buf_puts(&b, msg);
			break;
		}
		const char *p = a + 7, *q = p + strspn(p, "0123456789");
		size_t unit = !strncmp(q, " milliseconds", 13) ? 13 : !strncmp(q, " ms", 3) ? 3 : 0;
		buf_put(&b, msg, (size_t)(a - msg));
		if (q == p || !unit || (q[unit] && q[unit] != ' ' && q[unit] != ':'))
			buf_put(&b, a, 7);
		else
			p = q + unit;
		msg = p;
	}
	return buf_detach(&b);
}

static void job_failed(struct lc_run *r, struct lc_job *j, CURLcode rc)
{
	if (!j->get && head_retry(rc)) {
		j->get = true;
		job_queue(r, j, j->url, 0);
		return;
	}
	char *msg = error_text(j->errbuf[0] ? j->errbuf : curl_easy_strerror(rc));
	job_finish(r, j, rc == CURLE_OPERATION_TIMEDOUT ? LINK_TIMEOUT : LINK_ERROR, 0, NULL,
		   msg);
	free(msg);
}

static void job_rate_limited(struct lc_run *r, struct lc_job *j, curl_off_t after, double now)
{
	double wait = after >= 0 ? (double)after : (double)(2 << j->retries);
	if (wait < 0.1)
		wait = 0.1;
	if (j->retries >= LINKCHECK_MAX_RETRIES || j->waited + wait > (double)r->max_wait) {
		job_finish(r, j, LINK_RATE_LIMITED, 429, NULL, NULL);
		return;
	}
	j->retries++;
	j->waited += wait;
	job_queue(r, j, j->url, now + wait);
}

static void job_redirect(struct lc_run *r, struct lc_job *j, long code, const char *loc)
{
	if (++j->hops > LINKCHECK_MAX_REDIRECTS) {
		job_finish(r, j, LINK_BROKEN, 0, loc, "more than 10 redirects");
		return;
	}
	char *canon = url_canonical(loc);
	if (!canon) {
		job_finish(r, j, LINK_BROKEN, (int)code, loc, "redirects to a URL that is not http(s)");
		return;
	}
	if (strcmp(canon, r->canonical[j->i])) {
		if ((code == 301 || code == 308) && !j->temporary) {
			free(j->moved_to);
			j->moved_to = xstrdup(loc);
		} else {
			j->temporary = true;
		}
	}
	free(canon);
	job_queue(r, j, xstrdup(loc), 0);
}

/* The end of the chain when redirects led somewhere else; NULL otherwise. */
static const char *job_elsewhere(struct lc_run *r, struct lc_job *j)
{
	if (!j->hops)
		return NULL;
	char *canon = url_canonical(j->url);
	bool same = canon && !strcmp(canon, r->canonical[j->i]);
	free(canon);
	return same ? NULL : j->url;
}

static void job_answered(struct lc_run *r, struct lc_job *j, long code, const char *loc,
			 curl_off_t after, double now)
{
	if (!j->get && (code == 405 || code == 403 || code == 501)) {
		j->get = true;
		job_queue(r, j, j->url, 0);
	} else if (code == 429) {
		job_rate_limited(r, j, after, now);
	} else if (code >= 300 && code < 400 && loc && *loc) {
		job_redirect(r, j, code, loc);
	} else if (code >= 400 || code < 100) {
		job_finish(r, j, LINK_BROKEN, (int)code, job_elsewhere(r, j), NULL);
	} else if (j->moved_to) {
		job_finish(r, j, LINK_MOVED, (int)code, j->moved_to, NULL);
	} else if (j->temporary) {
		job_finish(r, j, LINK_REDIRECTED, (int)code, j->url, NULL);
	} else {
		job_finish(r, j, LINK_OK, (int)code, NULL, NULL);
	}
}

static void job_done(struct lc_run *r, CURL *e, CURLcode rc)
{
	char *priv = NULL;
	curl_easy_getinfo(e, CURLINFO_PRIVATE, &priv);
	struct lc_job *j = (struct lc_job *)(void *)priv;
	long code = 0;
	char *loc = NULL;
	curl_off_t after = -1;
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_getinfo(e, CURLINFO_REDIRECT_URL, &loc);
	curl_easy_getinfo(e, CURLINFO_RETRY_AFTER, &after);
	char *location = loc ? xstrdup(loc) : NULL;
	curl_multi_remove_handle(r->multi, e);
	curl_easy_cleanup(e);
	r->hosts[j->host].active--;
	r->active--;
	r->rescan = true;
	if (rc == CURLE_WRITE_ERROR && j->got_body)
		rc = CURLE_OK;
	if (rc != CURLE_OK)
		job_failed(r, j, rc);
	else
		job_answered(r, j, code, location, after, mono_now());
	free(location);
}

static void run_loop(struct lc_run *r)
{
	double next = 0;
	while (r->remaining) {
		double now = mono_now();
		if (r->rescan || now >= next) {
			r->rescan = false;
			next = run_schedule(r, now);
		}
		int running;
		curl_multi_perform(r->multi, &running);
		CURLMsg *m;
		int left;
		while ((m = curl_multi_info_read(r->multi, &left)))
			if (m->msg == CURLMSG_DONE)
				job_done(r, m->easy_handle, m->data.result);
		if (!r->remaining || r->rescan)
			continue;
		double wait = next - mono_now();
		int ms = wait > 1.0 ? 1000 : wait <= 0 ? 0 : (int)(wait * 1000) + 1;
		curl_multi_poll(r->multi, NULL, 0, ms, NULL);
	}
}

void linkcheck_urls(const char *const *canonical, const char *const *request, size_t n,
		    const struct linkcheck_opts *o, struct linkcache_entry *out,
		    struct linkcheck_stats *st)
{
	memset(out, 0, n * sizeof *out);
	if (!n)
		return;
	struct lc_run r = {
		.o = o,
		.canonical = canonical,
		.out = out,
		.jobs = xcalloc(n, sizeof *r.jobs),
		.queue = xcalloc(n, sizeof *r.queue),
		.host_idx = HASH_INIT,
		.max_total = o->max_total > 0 ? o->max_total : LINKCHECK_MAX_TOTAL,
		.max_per_host = o->max_per_host > 0 ? o->max_per_host : LINKCHECK_MAX_PER_HOST,
		.max_wait = o->max_wait > 0 ? o->max_wait : LINKCHECK_MAX_WAIT,
		.remaining = n,
	};
	curl_global_init(CURL_GLOBAL_DEFAULT);
	r.multi = curl_multi_init();
	for (size_t i = 0; i < n; i++) {
		r.jobs[i].i = i;
		job_queue(&r, &r.jobs[i], xstrdup(request[i]), 0);
	}
	if (r.multi)
		run_loop(&r);
	for (size_t i = 0; i < n; i++)
		if (!out[i].url)
			job_finish(&r, &r.jobs[i], LINK_ERROR, 0, NULL, "libcurl failed to start");
	if (r.multi)
		curl_multi_cleanup(r.multi);
	curl_global_cleanup();
	if (st)
		st->requests += r.requests;
	for (size_t i = 0; i < r.nhosts; i++)
		free(r.hosts[i].name);
	free(r.hosts);
	hash_free(&r.host_idx);
	free(r.queue);
	free(r.jobs);
}

/* ---- the site pass ---------------------------------------------------------- */

char *linkcheck_request_url(const char *canonical, const char *written)
{
	static const char https[] = "https://";
	bool http = written && !strncasecmp(written + strspn(written, " \t\r\n"), "http://", 7);
	if (http && !strncmp(canonical, https, sizeof https - 1))
		return xasprintf("http://%s", canonical + sizeof https - 1);
	return xstrdup(canonical);
}

static bool excluded(const struct linkcheck_opts *o, const char *url)
{
	for (size_t i = 0; i < o->nexclude; i++)
		if (url_match_pattern(url, o->exclude[i]))
			return true;
	return false;
}

static const struct citation *first_cite(const struct site *s, const struct resource *res,
					 const struct doc **doc)
{
	if (!res->nrefs)
		return NULL;
	*doc = &s->docs[res->refs[0].doc];
	return &(*doc)->cites[res->refs[0].cite];
}

/* The resources to look at this run: http(s), not excluded. */
struct lc_site {
	size_t *res;                 /* resource indices */
	size_t n;
	size_t *todo;                /* positions in res to request */
	size_t ntodo;
	char today[11];
	time_t now;
};

static void site_select(const struct site *s, const struct linkcheck_opts *o,
			const struct linkcache *old, struct linkcache *next, struct lc_site *w,
			struct linkcheck_stats *st)
{
	w->res = xcalloc(s->nres ? s->nres : 1, sizeof *w->res);
	w->todo = xcalloc(s->nres ? s->nres : 1, sizeof *w->todo);
	for (size_t i = 0; i < s->nres; i++) {
		const char *u = s->res[i].canonical;
		if (!u || !url_is_absolute_http(u))
			continue;
		st->urls++;
		if (excluded(o, u)) {
			st->excluded++;
			continue;
		}
		const struct linkcache_entry *e = linkcache_find(old, u);
		bool fresh = e && e->checked_at <= (long long)w->now &&
			     (long long)w->now - e->checked_at < (long long)o->ttl;
		if (fresh) {
			linkcache_put(next, e);
			st->cached++;
		} else {
			w->todo[w->ntodo++] = w->n;
		}
		w->res[w->n++] = i;
	}
}

/* Request what is stale; record results in next (history kept). */
static struct linkcache_entry *site_request(const struct site *s, const struct linkcheck_opts *o,
					    const struct linkcache *old, struct linkcache *next,
					    struct lc_site *w, struct linkcheck_stats *st)
{
	size_t n = w->ntodo;
	const char **canon = xcalloc(n ? n : 1, sizeof *canon);
	char **req = xcalloc(n ? n : 1, sizeof *req);
	struct linkcache_entry *out = xcalloc(n ? n : 1, sizeof *out);
	for (size_t k = 0; k < n; k++) {
		const struct resource *res = &s->res[w->res[w->todo[k]]];
		const struct doc *doc;
		const struct citation *c = first_cite(s, res, &doc);
		canon[k] = res->canonical;
		req[k] = linkcheck_request_url(res->canonical, c ? c->url : NULL);
	}
	linkcheck_urls(canon, (const char *const *)req, n, o, out, st);
	st->checked += n;
	for (size_t k = 0; k < n; k++) {
		const struct linkcache_entry *e = linkcache_find(old, canon[k]);
		if (result_is_broken(out[k].result))
			memcpy(out[k].broken_since,
			       e && result_is_broken(e->result) && e->broken_since[0] ? e->broken_since
										       : w->today,
			       11);
		if (out[k].result != LINK_RATE_LIMITED)
			linkcache_put(next, &out[k]);
		else if (e)
			linkcache_put(next, e);
		free(req[k]);
	}
	free(req);
	free(canon);
	return out;
}

static void report_moved(const struct site *s, const struct linkcache_entry *e,
			 const struct doc *doc, const struct citation *c, struct diags *d)
{
	char *to = url_canonical(e->final_url);
	diag_addc(d, SEV_WARNING, "link-redirect", doc->shown, c->line, c->col,
		  "%s redirects permanently to %s: link the new address, or add \"%s: %s\" to "
		  "aliases: in site.yml",
		  e->url, e->final_url, e->url, to ? to : e->final_url);
	free(to);
}

static void report(const struct site *s, const struct linkcache_entry *e, const char *today,
		   const struct doc *doc, const struct citation *c, struct diags *d)
{
	const char *p = doc->shown;
	int line = c->line, col = c->col;
	bool old = e->broken_since[0] && strcmp(e->broken_since, today) < 0;
	char *since = old ? xasprintf(" (broken since %s)", e->broken_since) : xstrdup("");
	switch (e->result) {
	case LINK_OK: break;
	case LINK_MOVED: report_moved(s, e, doc, c, d); break;
	case LINK_REDIRECTED:
		diag_addc(d, SEV_NOTE, "link-redirect", p, line, col, "%s redirects temporarily to %s",
			  e->url, e->final_url ? e->final_url : "?");
		break;
	case LINK_BROKEN:
		if (e->status)
			diag_addc(d, SEV_WARNING, "link-broken", p, line, col,
				  "broken link: %s answers %d%s%s%s", e->url, e->status,
				  e->final_url ? " after redirects to " : "",
				  e->final_url ? e->final_url : "", since);
		else
			diag_addc(d, SEV_WARNING, "link-broken", p, line, col, "broken link: %s: %s%s",
				  e->url, e->detail ? e->detail : "no answer", since);
		break;
	case LINK_TIMEOUT:
		diag_addc(d, SEV_WARNING, "link-timeout", p, line, col,
			  "%s did not answer in time%s", e->url, since);
		break;
	case LINK_ERROR:
		diag_addc(d, SEV_WARNING, "link-broken", p, line, col, "broken link: %s: %s%s",
			  e->url, e->detail ? e->detail : "no answer", since);
		break;
	case LINK_RATE_LIMITED:
		diag_addc(d, SEV_NOTE, "link-rate-limited", p, line, col,
			  "%s still answers 429 Too Many Requests after waiting as asked: not "
			  "checked this time",
			  e->url);
		break;
	}
	free(since);
}

static void site_report(const struct site *s, const struct linkcache *next,
			const struct linkcache_entry *out, const struct lc_site *w, struct diags *d)
{
	size_t k = 0;
	for (size_t pos = 0; pos < w->n; pos++) {
		const struct resource *res = &s->res[w->res[pos]];
		const struct linkcache_entry *e;
		if (k < w->ntodo && w->todo[k] == pos)
			e = &out[k++];
		else
			e = linkcache_find(next, res->canonical);
		const struct doc *doc;
		const struct citation *c = first_cite(s, res, &doc);
		if (e && c)
			report(s, e, w->today, doc, c, d);
	}
}

int linkcheck_site(const struct site *s, const struct linkcheck_opts *o, struct diags *d,
		   struct linkcheck_stats *st)
{
	struct linkcheck_stats local = {0};
	if (!st)
		st = &local;
	struct lc_site w = {.now = o->now ? o->now : time(NULL)};
	struct tm tm;
	gmtime_r(&w.now, &tm);
	strftime(w.today, sizeof w.today, "%Y-%m-%d", &tm);
	struct linkcache old = LINKCACHE_INIT, next = LINKCACHE_INIT;
	if (o->cache_file && linkcheck_load_cache(o->cache_file, &old) && errno != ENOENT)
		diag_addc(d, SEV_WARNING, "link-cache", "", 0, 0, "cannot read the link cache %s: %s",
			  o->cache_file, strerror(errno));
	site_select(s, o, &old, &next, &w, st);
	struct linkcache_entry *out = site_request(s, o, &old, &next, &w, st);
	if (o->cache_file && linkcheck_save_cache(o->cache_file, &next))
		diag_addc(d, SEV_WARNING, "link-cache", "", 0, 0, "cannot write the link cache %s: %s",
			  o->cache_file, strerror(errno));
	site_report(s, &next, out, &w, d);
	for (size_t k = 0; k < w.ntodo; k++)
		linkcache_entry_free(&out[k]);
	free(out);
	free(w.res);
	free(w.todo);
	linkcache_free(&old);
	linkcache_free(&next);
	return 0;
}
