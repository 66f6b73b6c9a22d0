/* test_path_replace: files replaced whole. A file renamed over another takes
 * its name, the replaced one's bytes stay with whoever has it open, and no
 * other name is left behind; with nothing to replace it is a plain rename;
 * a missing source changes nothing. path_replace_at writes new bytes under
 * a new inode, leaves a file that holds them already as it is, and leaves no
 * temporary file. A descriptor closed behind the caller is closed soon. */
#include "testutil.h"

#include "output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static char *slurp(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	char *s = test_read_file(p, NULL);
	free(p);
	return s;
}

static void test_rename_over(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-path-replace-XXXXXX";
	assert_non_null(mkdtemp(dir));
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	test_put_file(dir, "cache", "old bytes");
	test_put_file(dir, "cache.tmp", "new bytes");
	char *cache = path_join(dir, "cache");
	int held = open(cache, O_RDONLY | O_CLOEXEC);
	assert_true(held >= 0);

	assert_int_equal(path_rename_over_at(dfd, "cache.tmp", dfd, "cache"), 0);
	char *now = slurp(dir, "cache");
	assert_string_equal(now, "new bytes");
	free(now);
	assert_int_equal(entries(dir), 1); /* the old file under no name */
	char was[16] = {0};
	assert_int_equal(pread(held, was, sizeof was - 1, 0), 9);
	assert_string_equal(was, "old bytes");
	close(held);

	/* nothing under the name: a rename */
	test_put_file(dir, "other.tmp", "first");
	assert_int_equal(path_rename_over_at(dfd, "other.tmp", dfd, "other"), 0);
	now = slurp(dir, "other");
	assert_string_equal(now, "first");
	free(now);
	assert_int_equal(entries(dir), 2);

	/* no source: -1, the file in place as it was */
	assert_int_equal(path_rename_over_at(dfd, "missing.tmp", dfd, "cache"), -1);
	now = slurp(dir, "cache");
	assert_string_equal(now, "new bytes");
	free(now);

	free(cache);
	close(dfd);
	assert_int_equal(output_remove_tree(dir), 0);
}

static ino_t inode_of(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	free(p);
	return st.st_ino;
}

static void test_replace_at(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-path-replace-XXXXXX";
	assert_non_null(mkdtemp(dir));
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(path_replace_at(dfd, "state", "one", 3), 0);
	ino_t first = inode_of(dir, "state");
	assert_int_equal(path_replace_at(dfd, "state", "one", 3), 0);
	assert_true(inode_of(dir, "state") == first); /* the same bytes: left */
	assert_int_equal(path_replace_at(dfd, "state", "two!", 4), 0);
	assert_true(inode_of(dir, "state") != first);
	char *now = slurp(dir, "state");
	assert_string_equal(now, "two!");
	free(now);
	assert_int_equal(entries(dir), 1);
	close(dfd);
	assert_int_equal(output_remove_tree(dir), 0);
}

static void test_close_behind(void **state)
{
	(void)state;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	path_close_behind(fd);
	/* closed within a second (no other thread here opens a file) */
	int open_still = 1;
	for (int i = 0; i < 1000 && open_still; i++) {
		open_still = fcntl(fd, F_GETFD) != -1;
		if (open_still)
			usleep(1000);
	}
	assert_false(open_still);
	assert_int_equal(errno, EBADF);
	/* and its thread gone soon after (a thread left running as the
	 * process exits is reported by valgrind as possibly leaking) */
	size_t left = entries("/proc/self/task"); /* this process's threads */
	for (int i = 0; i < 1000 && left > 1; i++) {
		usleep(1000);
		left = entries("/proc/self/task");
	}
	assert_int_equal(left, 1);
	path_close_behind(-1); /* nothing */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rename_over),
		cmocka_unit_test(test_replace_at),
		cmocka_unit_test(test_close_behind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
