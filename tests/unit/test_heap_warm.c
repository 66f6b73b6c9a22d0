/* test_heap_warm: warming a thread's heap. Off until enabled, and refused
 * where GLIBC_TUNABLES says what malloc does with the thresholds it needs;
 * once on, memory malloc hands out after a warm takes no page faults (it was
 * made present in bulk and kept by the arena), also when the warm is large
 * enough to be shared with a second thread; a thread warms only what it
 * has not warmed yet; of the threads told to warm as they start, the first
 * `count` do; a block grown by a megabyte or more has its new part warmed.
 * Where the kernel has no MADV_POPULATE_WRITE, nothing is
 * warmed. Under AddressSanitizer malloc is ASan's, which takes no mallopt
 * settings: warming is refused there, and nothing is warmed. Under valgrind
 * malloc is valgrind's, which takes them and keeps nothing: the faults are
 * not counted there. */
#include "testutil.h"

#include "heap_warm.h"

#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>

#define MB ((size_t)1 << 20)

#ifdef TEST_ASAN
/* ASan's malloc: refused, and nothing warmed */
#define ENABLE_OR_RETURN()                                                                      \
	do {                                                                                     \
		assert_false(heap_warm_enable());                                                \
		assert_int_equal(heap_warm_to(16 * MB), 0);                                      \
		return;                                                                          \
	} while (0)
#else
#define ENABLE_OR_RETURN() assert_true(heap_warm_enable())
#endif

/* Whether this kernel populates memory on request. */
static bool kernel_populates(void)
{
	size_t n = 1 << 16;
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	bool ok = madvise(p, n, MADV_POPULATE_WRITE) == 0;
	munmap(p, n);
	return ok;
}

/* Whether malloc is valgrind's (its preloaded replacement). */
static bool under_valgrind(void)
{
	const char *pre = getenv("LD_PRELOAD");
	return pre && strstr(pre, "vgpreload");
}

static void test_off_until_enabled(void **state)
{
	(void)state;
	assert_false(heap_warm_enabled());
	assert_int_equal(heap_warm_to(8 * MB), 0);
	heap_warm_workers(MB, 1);
	assert_int_equal(heap_warm_worker(), 0);
	/* the user's settings of malloc stand */
	setenv("GLIBC_TUNABLES", "glibc.malloc.trim_threshold=1", 1);
	assert_false(heap_warm_enable());
	setenv("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0:glibc.malloc.hugetlb=1", 1);
	assert_false(heap_warm_enable());
	assert_false(heap_warm_enabled());
	setenv("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0", 1);
	ENABLE_OR_RETURN();
	unsetenv("GLIBC_TUNABLES");
}

static void test_warmed_memory_takes_no_faults(void **state)
{
	(void)state;
	unsetenv("GLIBC_TUNABLES");
	ENABLE_OR_RETURN();
	if (!kernel_populates()) {
		assert_int_equal(heap_warm_to(16 * MB), 0);
		return;
	}
	assert_int_equal(heap_warm_to(MB / 2), 0); /* too little to be worth it */
	assert_true(heap_warm_to(16 * MB) >= 16 * MB);
	assert_int_equal(heap_warm_to(16 * MB), 0); /* warmed already */
	assert_int_equal(heap_warm_to(8 * MB), 0);
	assert_true(heap_warm_to(24 * MB) >= 8 * MB); /* only the rest */
	assert_int_equal(heap_warm_to(24 * MB + MB / 2), 0); /* too little left */
	assert_int_equal(heap_warm_to(25 * MB), MB); /* no more than asked */
	if (under_valgrind())
		return;
	/* 12 MB in blocks, each written whole: 3,072 pages, each a fault
	 * had they not been warmed */
	char *block[12];
	long before = test_thread_faults();
	for (int i = 0; i < 12; i++) {
		block[i] = malloc(MB);
		assert_non_null(block[i]);
		memset(block[i], i + 1, MB);
	}
	long faults = test_thread_faults() - before;
	for (int i = 0; i < 12; i++)
		free(block[i]);
	assert_true(faults < 64);
}

/* On a thread of its own (an arena of its own, nothing warmed yet): 64 MB
 * warmed, which takes two threads (the pieces shared between them), then
 * 48 MB of blocks written whole: 12,288 pages, each a fault had either
 * thread's pieces not been warmed. */
static void *warm_big(void *arg)
{
	(void)arg;
	if (heap_warm_to(64 * MB) < 64 * MB)
		return (void *)-1;
	if (under_valgrind())
		return NULL;
	char *block[48];
	long before = test_thread_faults();
	for (int i = 0; i < 48; i++) {
		block[i] = malloc(MB);
		if (!block[i])
			return (void *)-1;
		memset(block[i], i + 1, MB);
	}
	long faults = test_thread_faults() - before;
	for (int i = 0; i < 48; i++)
		free(block[i]);
	return (void *)faults;
}

static void test_warmed_by_two_threads(void **state)
{
	(void)state;
	unsetenv("GLIBC_TUNABLES");
	ENABLE_OR_RETURN();
	if (!kernel_populates())
		return;
	pthread_t t;
	void *got;
	assert_int_equal(pthread_create(&t, NULL, warm_big, NULL), 0);
	assert_int_equal(pthread_join(t, &got), 0);
	assert_true((long)got >= 0);
	assert_true((long)got < 64);
}

/* Faults taken writing [p + from, p + to). */
static long faults_writing(char *p, size_t from, size_t to)
{
	long before = test_thread_faults();
	memset(p + from, 7, to - from);
	return test_thread_faults() - before;
}

/* A block grown by a megabyte or more has its new part warmed; one grown by
 * less, or warmed where warming is off, does not. */
static void test_grown(void **state)
{
	(void)state;
	unsetenv("GLIBC_TUNABLES");
	ENABLE_OR_RETURN();
	if (!kernel_populates() || under_valgrind())
		return;
	size_t n = 8 * MB;
	char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	heap_warm_grown(p, MB, n); /* 7 MB new */
	assert_true(faults_writing(p, MB, n) < 64);
	assert_true(faults_writing(p, 0, MB / 2) >= 64); /* not warmed: before `used` */
	heap_warm_grown(p, MB / 2, MB); /* grown by half a megabyte */
	assert_true(faults_writing(p, MB / 2, MB) >= 64);
	munmap(p, n);
}

static void *start(void *arg)
{
	(void)arg;
	return (void *)heap_warm_worker();
}

static void test_workers(void **state)
{
	(void)state;
	unsetenv("GLIBC_TUNABLES");
	ENABLE_OR_RETURN();
	bool populates = kernel_populates();
	heap_warm_workers(2 * MB, 2);
	size_t warmed[3], n = 0, total = 0;
	for (int i = 0; i < 3; i++) { /* one after another: each its own count */
		pthread_t t;
		void *got;
		assert_int_equal(pthread_create(&t, NULL, start, NULL), 0);
		assert_int_equal(pthread_join(t, &got), 0);
		warmed[i] = (size_t)got;
		n += warmed[i] > 0;
		total += warmed[i];
	}
	if (populates) {
		assert_int_equal(n, 2);
		assert_true(warmed[0] >= 2 * MB && warmed[1] >= 2 * MB);
		assert_int_equal(warmed[2], 0);
		assert_true(total >= 4 * MB);
	} else
		assert_int_equal(total, 0);
	assert_int_equal(heap_warm_worker(), 0); /* none left */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_off_until_enabled),
		cmocka_unit_test(test_warmed_memory_takes_no_faults),
		cmocka_unit_test(test_warmed_by_two_threads),
		cmocka_unit_test(test_workers),
		cmocka_unit_test(test_grown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
