/* testutil: what every cmocka unit test includes. */
#ifndef SSG_TESTUTIL_H
#define SSG_TESTUTIL_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/resource.h>

#include "path.h"

/* TEST_ASAN under AddressSanitizer, whose malloc and shadow memory change
 * what a test of page faults can count. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif

/* The page faults the calling thread has taken so far. */
static inline long test_thread_faults(void)
{
	struct rusage ru;
	assert_int_equal(getrusage(RUSAGE_THREAD, &ru), 0);
	return ru.ru_minflt;
}

/* Read a whole file into a heap string (NULL when it cannot be read). */
static inline char *test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *p = malloc(cap);
	size_t r;
	while ((r = fread(p + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0)
			p = realloc(p, cap *= 2);
	}
	fclose(f);
	p[n] = '\0';
	if (len)
		*len = n;
	return p;
}

/* got is NULL when want is, else the same string; both freed. */
#define assert_same_string_or_null(got, want)                                                    \
	do {                                                                                     \
		char *got_ = (got), *want_ = (want);                                             \
		if (!want_)                                                                      \
			assert_null(got_);                                                       \
		else {                                                                           \
			assert_non_null(got_);                                                   \
			assert_string_equal(got_, want_);                                        \
		}                                                                                \
		free(got_);                                                                      \
		free(want_);                                                                     \
	} while (0)

/* Write text to dir/rel, making its folders. */
static inline void test_put_file(const char *dir, const char *rel, const char *text)
{
	char *p = path_join(dir, rel);
	char *parent = path_dirname(p);
	assert_int_equal(path_mkdirs(parent), 0);
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(parent);
	free(p);
}

#endif
