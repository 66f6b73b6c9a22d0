/* test_map_warm: a file's mapping made present ahead of its reading. Once
 * warmed (now, or on a thread joined before reading), reading every page of
 * a 4 MB file takes no page faults, where reading it cold takes one a
 * fault-around's worth of pages; the bytes are the file's. An
 * empty range or none is refused. Where the kernel has no
 * MADV_POPULATE_READ (Linux before 5.14), nothing is warmed and the reads
 * fault as before. Under AddressSanitizer every read also reads its shadow
 * memory, whose pages fault in as they are first read: the faults are not
 * counted there. */
#include "testutil.h"

#include "map_warm.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#ifdef TEST_ASAN
#define COUNTS_FAULTS false
#else
#define COUNTS_FAULTS true
#endif

#define SIZE ((size_t)4 << 20)

/* A SIZE-byte file of a known pattern, its pages in the page cache, and a
 * fresh private mapping of it. */
static const unsigned char *map_file(char **path)
{
	char tmpl[] = "/tmp/ssg-map-warm-XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	unsigned char *bytes = malloc(SIZE);
	for (size_t i = 0; i < SIZE; i++)
		bytes[i] = (unsigned char)(i * 7 + i / 4096);
	/* a page a write: the page cache holds it in small folios, as it
	 * holds a file appended to bit by bit (a file written at once may be
	 * held in folios so large that a fault maps megabytes) */
	for (size_t at = 0; at < SIZE; at += 4096)
		assert_int_equal(write(fd, bytes + at, 4096), 4096);
	free(bytes);
	void *m = mmap(NULL, SIZE, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(m != MAP_FAILED);
	close(fd);
	*path = strdup(tmpl);
	return m;
}

static void unmap_file(const unsigned char *m, char *path)
{
	munmap((void *)m, SIZE);
	unlink(path);
	free(path);
}

/* Every page read (one byte each), checked against the pattern: the
 * faults the reading took. */
static long read_pages(const unsigned char *m)
{
	long before = test_thread_faults();
	for (size_t i = 0; i < SIZE; i += 4096)
		assert_int_equal(m[i], (unsigned char)(i * 7 + i / 4096));
	assert_int_equal(m[SIZE - 1], (unsigned char)((SIZE - 1) * 7 + (SIZE - 1) / 4096));
	return test_thread_faults() - before;
}

static void test_cold_mapping_faults(void **state)
{
	(void)state;
	char *path;
	const unsigned char *m = map_file(&path);
	/* fault-around maps up to 16 pages a fault: 1,024 pages, 64 faults
	 * here; how many is the kernel's, that there are some is the point */
	assert_true(read_pages(m) > 0);
	unmap_file(m, path);
}

static void test_warmed_mapping_takes_no_faults(void **state)
{
	(void)state;
	char *path;
	const unsigned char *m = map_file(&path);
	/* from a start that is not a page's: the page holding it is warmed */
	bool warmed = map_warm(m + 100, SIZE - 100);
	long faults = read_pages(m);
	if (warmed && COUNTS_FAULTS)
		assert_int_equal(faults, 0);
	else
		assert_true(faults > 0);
	unmap_file(m, path);
}

static void test_warmed_on_a_thread(void **state)
{
	(void)state;
	char *path;
	const unsigned char *m = map_file(&path);
	bool kernel_warms = map_warm(m, 4096); /* one page: the kernel's answer */
	struct map_warming w;
	map_warm_start(&w, m, SIZE);
	assert_true(w.running);
	map_warm_join(&w);
	assert_false(w.running);
	map_warm_join(&w); /* twice: nothing to wait for */
	long faults = read_pages(m);
	if (kernel_warms && COUNTS_FAULTS)
		assert_int_equal(faults, 0);
	unmap_file(m, path);
}

static void test_nothing_to_warm(void **state)
{
	(void)state;
	assert_false(map_warm(NULL, 4096));
	char c = 0;
	assert_false(map_warm(&c, 0));
	struct map_warming w;
	map_warm_start(&w, NULL, 0);
	assert_false(w.running);
	map_warm_join(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cold_mapping_faults),
		cmocka_unit_test(test_warmed_mapping_takes_no_faults),
		cmocka_unit_test(test_warmed_on_a_thread),
		cmocka_unit_test(test_nothing_to_warm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
