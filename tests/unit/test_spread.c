/* test_spread: page folders made in passing folders and moved into place.
 * Only <folder of pages>/<name>/<file> is spread, and only once a folder of
 * pages is named; the file lands where a plain write puts it, also when its
 * folder is made meanwhile (the file moves into it) or its folder of pages
 * does not exist yet; a passing folder holds at most SPREAD_PER page folders
 * and none is left after spread_finish, also with two threads writing at
 * once; a file may be linked into its page folder instead, and a page
 * folder given up is removed; a thread that wrote through one spread gets
 * a slot of its own in the next; a spread never initialised does nothing. */
#include "testutil.h"

#include "path.h"
#include "spread.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

struct fixture {
	char dir[64];
	int fd;
	struct spread sp;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	strcpy(f->dir, "/tmp/ssg-test-spread.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->fd = open(f->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(f->fd >= 0);
	spread_init(&f->sp, f->fd);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	spread_free(&f->sp);
	close(f->fd);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

/* Write text to rel through the spread: 1 when spread, 0 when refused. */
static int put(struct spread *sp, const char *rel, const char *text)
{
	struct spread_ticket t;
	int fd = spread_open(sp, rel, &t);
	if (fd < 0)
		return 0;
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(spread_place(sp, &t), 0);
	return 1;
}

static void assert_file(const char *dir, const char *rel, const char *text)
{
	char *p = path_join(dir, rel);
	char *got = test_read_file(p, NULL);
	assert_non_null(got);
	assert_string_equal(got, text);
	free(got);
	free(p);
}

/* How many entries of dir start with SPREAD_PREFIX. */
static int passing_folders(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += !strncmp(e->d_name, SPREAD_PREFIX, strlen(SPREAD_PREFIX));
	closedir(d);
	return n;
}

/* Finishing removes every passing folder. */
static void assert_finished(struct fixture *f)
{
	assert_int_equal(spread_finish(&f->sp), 0);
	assert_int_equal(passing_folders(f->dir), 0);
}

static void test_off_until_named(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(put(&f->sp, "a/index.html", "a"), 0);
	spread_parent(&f->sp, "");
	assert_int_equal(put(&f->sp, "a/index.html", "a"), 1);
	assert_file(f->dir, "a/index.html", "a");
	/* not <folder of pages>/<name>/<file> */
	assert_int_equal(put(&f->sp, "index.html", "i"), 0);
	assert_int_equal(put(&f->sp, "topic/cuda/index.html", "t"), 0);
	assert_int_equal(put(&f->sp, "a/", "x"), 0);
	assert_finished(f);
}

static void test_folder_of_pages(void **state)
{
	struct fixture *f = *state;
	spread_parent(&f->sp, "r");
	/* r/ is not there yet: made on the way */
	assert_int_equal(put(&f->sp, "r/one/index.html", "1"), 1);
	assert_int_equal(put(&f->sp, "r/two/index.html", "2"), 1);
	assert_file(f->dir, "r/one/index.html", "1");
	assert_file(f->dir, "r/two/index.html", "2");
	/* the site's own folder is not named: r/ is a plain page folder there */
	assert_int_equal(put(&f->sp, "r/index.html", "r"), 0);
	assert_finished(f);
}

static void test_folder_made_meanwhile(void **state)
{
	struct fixture *f = *state;
	spread_parent(&f->sp, "");
	test_put_file(f->dir, "b/other.txt", "o");
	assert_int_equal(put(&f->sp, "b/index.html", "b"), 1);
	assert_file(f->dir, "b/index.html", "b");
	assert_file(f->dir, "b/other.txt", "o");
	/* a second file of a spread folder */
	assert_int_equal(put(&f->sp, "c/index.html", "c"), 1);
	assert_int_equal(put(&f->sp, "c/more.html", "m"), 1);
	assert_file(f->dir, "c/index.html", "c");
	assert_file(f->dir, "c/more.html", "m");
	assert_finished(f);
}

static void test_a_file_in_the_way(void **state)
{
	struct fixture *f = *state;
	spread_parent(&f->sp, "");
	test_put_file(f->dir, "d", "a file where a folder must be");
	struct spread_ticket t;
	int fd = spread_open(&f->sp, "d/index.html", &t);
	assert_true(fd >= 0);
	close(fd);
	assert_int_not_equal(spread_place(&f->sp, &t), 0);
	assert_file(f->dir, "d", "a file where a folder must be");
	/* what could not be placed stays in its passing folder: finishing
	 * says so, and the build fails */
	assert_int_not_equal(spread_finish(&f->sp), 0);
}

static void test_many_in_batches(void **state)
{
	struct fixture *f = *state;
	spread_parent(&f->sp, "");
	char rel[64], text[16];
	int seen_at_once = 0;
	for (int i = 0; i < SPREAD_PER * 3 + 5; i++) {
		snprintf(rel, sizeof rel, "page-%03d/index.html", i);
		snprintf(text, sizeof text, "%d", i);
		assert_int_equal(put(&f->sp, rel, text), 1);
		int n = passing_folders(f->dir);
		if (n > seen_at_once)
			seen_at_once = n;
	}
	assert_int_equal(seen_at_once, 1); /* one thread: one passing folder at a time */
	assert_int_equal(f->sp.next, 4);   /* a new one after every SPREAD_PER */
	for (int i = 0; i < SPREAD_PER * 3 + 5; i++) {
		snprintf(rel, sizeof rel, "page-%03d/index.html", i);
		snprintf(text, sizeof text, "%d", i);
		assert_file(f->dir, rel, text);
	}
	assert_finished(f);
}

struct writer {
	struct spread *sp;
	int from;
	int failed;
};

static void *write_many(void *arg)
{
	struct writer *w = arg;
	char rel[64];
	for (int i = 0; i < 200; i++) {
		/* both threads write into the same page folders, each its own file */
		snprintf(rel, sizeof rel, "p%03d/f%d.html", i, w->from);
		struct spread_ticket t;
		int fd = spread_open(w->sp, rel, &t);
		if (fd < 0 || write(fd, rel, strlen(rel)) != (ssize_t)strlen(rel)) {
			w->failed++;
			continue;
		}
		close(fd);
		w->failed += spread_place(w->sp, &t) != 0;
	}
	return NULL;
}

static void test_two_threads(void **state)
{
	struct fixture *f = *state;
	spread_parent(&f->sp, "");
	struct writer w[2] = {{&f->sp, 0, 0}, {&f->sp, 1, 0}};
	pthread_t t[2];
	for (int k = 0; k < 2; k++)
		assert_int_equal(pthread_create(&t[k], NULL, write_many, &w[k]), 0);
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	assert_int_equal(w[0].failed + w[1].failed, 0);
	char rel[64];
	for (int i = 0; i < 200; i++)
		for (int k = 0; k < 2; k++) {
			snprintf(rel, sizeof rel, "p%03d/f%d.html", i, k);
			assert_file(f->dir, rel, rel);
		}
	assert_finished(f);
}

static void test_link_and_cancel(void **state)
{
	struct fixture *f = *state;
	spread_parent(&f->sp, "");
	test_put_file(f->dir, "elsewhere.txt", "linked");
	struct spread_ticket t;
	assert_int_equal(spread_begin(&f->sp, "e/index.html", &t), 0);
	assert_int_equal(linkat(f->fd, "elsewhere.txt", t.dfd, t.sub, 0), 0);
	assert_int_equal(spread_place(&f->sp, &t), 0);
	assert_file(f->dir, "e/index.html", "linked");
	struct stat a, b;
	char *pa = path_join(f->dir, "elsewhere.txt"), *pb = path_join(f->dir, "e/index.html");
	assert_int_equal(stat(pa, &a), 0);
	assert_int_equal(stat(pb, &b), 0);
	assert_true(a.st_ino == b.st_ino); /* the very file, linked */
	free(pa);
	free(pb);
	/* given up: the page folder goes, nothing lands in the site */
	assert_int_equal(spread_begin(&f->sp, "g/index.html", &t), 0);
	spread_cancel(&f->sp, &t);
	char *pg = path_join(f->dir, "g");
	assert_int_not_equal(access(pg, F_OK), 0);
	free(pg);
	assert_finished(f);
}

static void test_one_spread_after_another(void **state)
{
	struct fixture *f = *state;
	spread_parent(&f->sp, "");
	assert_int_equal(put(&f->sp, "h/index.html", "h"), 1);
	spread_free(&f->sp);
	/* the same thread, a new spread: a slot of its own, not the one freed
	 * (under the sanitizers that would be a use after free) */
	spread_init(&f->sp, f->fd);
	spread_parent(&f->sp, "");
	assert_int_equal(put(&f->sp, "i/index.html", "i"), 1);
	assert_non_null(f->sp.slots);
	assert_null(f->sp.slots->next);
	assert_file(f->dir, "h/index.html", "h");
	assert_file(f->dir, "i/index.html", "i");
	assert_finished(f);
}

static void test_never_initialised(void **state)
{
	(void)state;
	struct spread sp;
	memset(&sp, 0, sizeof sp);
	/* nothing is closed: descriptor 0 stays open */
	assert_int_equal(spread_finish(&sp), 0);
	struct spread_ticket t;
	assert_int_equal(spread_open(&sp, "a/index.html", &t), -1);
	spread_free(&sp);
	assert_int_not_equal(fcntl(0, F_GETFD), -1);
}

int main(void)
{
	/* descriptor 0 open, so that closing it by mistake shows */
	if (fcntl(0, F_GETFD) == -1)
		assert_int_equal(open("/dev/null", O_RDONLY), 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_off_until_named, setup, teardown),
		cmocka_unit_test_setup_teardown(test_folder_of_pages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_folder_made_meanwhile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_file_in_the_way, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_in_batches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_and_cancel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_spread_after_another, setup, teardown),
		cmocka_unit_test(test_never_initialised),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
