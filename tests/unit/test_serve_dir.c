/* test_serve_dir: where `ssg serve` keeps its private site. TMPDIR when set;
 * else a tmpfs with room (memory) for a small site; not a folder that is no
 * tmpfs or does not exist, and not a tmpfs too small for the content (a
 * sparse file of more bytes than it could hold 32 times over): /tmp then. */
#include "testutil.h"

#include "output.h"
#include "serve_dir.h"

#include <fcntl.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

static void expect(const char *content, const char *tmpdir, const char *shm, const char *want)
{
	char *got = serve_dir_root(content, tmpdir, shm);
	assert_string_equal(got, want);
	free(got);
}

static void test_choice(void **state)
{
	(void)state;
	char dir[] = "/var/tmp/ssg-serve-dir-XXXXXX";
	assert_non_null(mkdtemp(dir));
	test_put_file(dir, "content/a.md", "# A\n");
	char *content = path_join(dir, "content");
	expect(content, "/somewhere/else", "/dev/shm", "/somewhere/else");
	expect(content, NULL, "/no/such/folder", "/tmp");
	struct statfs fs;
	struct statvfs vfs;
	if (statfs(dir, &fs) == 0 && fs.f_type != 0x01021994)
		expect(content, "", dir, "/tmp"); /* a folder on a disk: not memory */
	if (statfs("/dev/shm", &fs) == 0 && fs.f_type == 0x01021994 &&
	    statvfs("/dev/shm", &vfs) == 0) {
		unsigned long long room = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
		if (room > (1ULL << 30))
			expect(content, NULL, "/dev/shm", "/dev/shm");
		/* content of more bytes than memory holds 32 times over */
		char *big = path_join(content, "big.md");
		int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		assert_true(fd >= 0);
		assert_int_equal(ftruncate(fd, (off_t)(room / 32 + 1)), 0);
		close(fd);
		expect(content, NULL, "/dev/shm", "/tmp");
		free(big);
	}
	free(content);
	assert_int_equal(output_remove_tree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
