/* test_xalloc: xasprintf gives what snprintf gives, for formats of text and
 * %s alone (joined by hand) and for any other (vsnprintf): empty strings
 * and formats, a string at either end, the most strings joined by hand and
 * one more, %% and conversions beside %s. xgrow keeps an array with room as
 * it is and grows one without, doubling from 8, its elements kept. */
#include "testutil.h"

#include "xalloc.h"

#define SAME(...)                                              \
	do {                                                   \
		char want[512];                                \
		snprintf(want, sizeof want, __VA_ARGS__);      \
		char *got = xasprintf(__VA_ARGS__);            \
		assert_string_equal(got, want);                \
		free(got);                                     \
	} while (0)

static void test_plain_formats(void **state)
{
	(void)state;
	const char *words[] = {"", "a", "r/some-slug/", "content/guides/intro.md",
			       "x%sy", "\xc3\xa9t\xc3\xa9"};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
		const char *w = words[i];
		SAME("%s", w);
		SAME("%sindex.html", w);
		SAME("content/%s", w);
		SAME("%s/", w);
		SAME("[%s]", w);
		for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
			SAME("%s/%s", w, words[k]);
			SAME("%s%s", words[k], w);
		}
	}
	SAME("no conversion at all");
	SAME("%s", "");
	SAME("%s%s%s%s%s%s%s%s", "1", "22", "", "333", "4", "", "55555", "6");
	SAME("%s-%s-%s-%s-%s-%s-%s-%s-%s", "1", "2", "3", "4", "5", "6", "7", "8", "nine");
}

static void test_other_formats(void **state)
{
	(void)state;
	SAME("%%s");
	SAME("100%% of %s", "it");
	SAME("%s/%zu/", "resources/a", (size_t)12);
	SAME("resources/%c/", 'q');
	SAME("%.*s-doc%s", 3, "abcdef", ".md");
	SAME("%d items in %s", -7, "a list");
	SAME("%5s|", "ab");
}

/* A null string reads "(null)", as printf has it, joined by hand too. */
static void test_null_string(void **state)
{
	(void)state;
	const char *volatile none = NULL;
	char *got = xasprintf("a %s b", none);
	assert_string_equal(got, "a (null) b");
	free(got);
}

static void test_grow(void **state)
{
	(void)state;
	size_t cap = 0, n = 0;
	int *v = NULL;
	for (int i = 0; i < 1000; i++) {
		int *was = v;
		size_t capwas = cap;
		v = xgrow(v, &cap, n + 1, sizeof *v);
		if (capwas >= n + 1) { /* room: the same array, the same capacity */
			assert_ptr_equal(v, was);
			assert_int_equal(cap, capwas);
		} else
			assert_int_equal(cap, capwas ? capwas * 2 : 8);
		v[n++] = i;
	}
	assert_int_equal(cap, 1024);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(v[i], i);
	/* a need far past the capacity: doubled until it holds it */
	v = xgrow(v, &cap, 5000, sizeof *v);
	assert_int_equal(cap, 8192);
	assert_int_equal(v[999], 999);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_formats),
		cmocka_unit_test(test_other_formats),
		cmocka_unit_test(test_null_string),
		cmocka_unit_test(test_grow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
