/* test_watch: which changes end a save (watch_done), and the shorter quiet
 * watch_settle waits after one. inotify queues an event within the system
 * call that causes it, so each drain below sees exactly what came before. */
#include "testutil.h"

#include "output.h"
#include "watch.h"
#include "xalloc.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char *site_dir(void)
{
	char tmpl[] = "/tmp/ssg-watch-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	test_put_file(tmpl, "site.yml", "title: Watch\n");
	test_put_file(tmpl, "content/a.md", "# A\n");
	return xstrdup(tmpl);
}

static char *at(const char *dir, const char *rel) { return path_join(dir, rel); }

/* path opened for appending, text written, left open: a write under way. */
static int append_open(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	return fd;
}

static long long ms_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void test_done(void **state)
{
	(void)state;
	char *dir = site_dir();
	struct watch *w = watch_open(dir);
	assert_non_null(w);
	assert_false(watch_done(w));

	/* written, not yet closed: more may come */
	char *a = at(dir, "content/a.md");
	int fd = append_open(a, "more\n");
	assert_true(watch_drain(w) > 0);
	assert_false(watch_done(w));
	close(fd);
	assert_true(watch_drain(w) > 0);
	assert_true(watch_done(w));
	assert_string_equal(watch_last(w), "content/a.md");

	/* a new mode leaves it as it was, either way */
	assert_int_equal(chmod(a, 0600), 0);
	assert_true(watch_drain(w) > 0);
	assert_true(watch_done(w));

	/* a folder made: its files are still to come */
	char *sub = at(dir, "content/sub");
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_true(watch_drain(w) > 0);
	assert_false(watch_done(w));
	assert_int_equal(chmod(a, 0644), 0);
	assert_true(watch_drain(w) > 0);
	assert_false(watch_done(w));

	/* an editor's save: a file written beside, then renamed over */
	test_put_file(dir, "content/b.md.new", "# B\n");
	assert_true(watch_drain(w) > 0);
	assert_true(watch_done(w)); /* closed: b.md.new is whole */
	char *tmp = at(dir, "content/b.md.new"), *b = at(dir, "content/b.md");
	assert_int_equal(rename(tmp, b), 0);
	assert_true(watch_drain(w) > 0);
	assert_true(watch_done(w));
	assert_string_equal(watch_last(w), "content/b.md");

	/* removed: nothing more to come of it */
	char *c = at(dir, "content/c");
	assert_int_equal(mkdir(c, 0755), 0);
	assert_true(watch_drain(w) > 0);
	assert_false(watch_done(w));
	assert_int_equal(unlink(b), 0);
	assert_true(watch_drain(w) > 0);
	assert_true(watch_done(w));

	watch_close(w);
	free(a);
	free(sub);
	free(tmp);
	free(b);
	free(c);
	assert_int_equal(output_remove_tree(dir), 0);
	free(dir);
}

/* After a save seen whole the burst ends after done_ms; else after quiet_ms
 * (a lower bound poll keeps: it never returns early without an event). */
static void test_settle(void **state)
{
	(void)state;
	char *dir = site_dir();
	struct watch *w = watch_open(dir);
	assert_non_null(w);
	test_put_file(dir, "content/a.md", "# A again\n");
	assert_true(watch_drain(w) > 0);
	assert_true(watch_done(w));
	long long t0 = ms_now();
	assert_int_equal(watch_settle(w, 20000, 1, 40000), 0);
	assert_true(ms_now() - t0 < 10000); /* not the 20 s quiet */

	char *a = at(dir, "content/a.md");
	int fd = append_open(a, "x\n");
	assert_true(watch_drain(w) > 0);
	assert_false(watch_done(w));
	t0 = ms_now();
	watch_settle(w, 300, 1, 40000);
	assert_true(ms_now() - t0 >= 300);
	close(fd);

	/* a close within the burst shortens what is left of it */
	fd = append_open(a, "y\n");
	close(fd);
	t0 = ms_now();
	assert_true(watch_settle(w, 20000, 1, 40000) > 0);
	assert_true(watch_done(w));
	assert_true(ms_now() - t0 < 10000);

	watch_close(w);
	free(a);
	assert_int_equal(output_remove_tree(dir), 0);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_done),
		cmocka_unit_test(test_settle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
