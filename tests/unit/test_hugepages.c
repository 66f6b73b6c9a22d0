/* test_hugepages: when a build re-executes itself with malloc on huge pages.
 * The settings are added to whatever GLIBC_TUNABLES holds, but for the ones
 * it names, and never where the user has said what malloc does with huge
 * pages; a site is big from a given
 * number of entries in content/, dot files not counted, and a site without
 * content/ is not big. A build is incremental (and left on small pages) when
 * it is not forced and the last build's state, a regular file, is in its
 * output folder. What a build on small pages warms: first, eight times its
 * files.bin; before its model, six tenths of its documents.bin and no less
 * than 2 MB. (The re-execution itself: tests/integration/hugepages.sh.) */
#include "testutil.h"

#include "hugepages.h"

#include <malloc.h>
#include <unistd.h>
#include "output.h"
#include "path.h"
#include "site.h"

static void test_tunables(void **state)
{
	(void)state;
#define KEEP "glibc.malloc.trim_threshold=4294967295:glibc.malloc.top_pad=67108864"
#define OURS "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:" KEEP
	char *t = hugepages_tunables(NULL);
	assert_string_equal(t, OURS);
	free(t);
	t = hugepages_tunables("");
	assert_string_equal(t, OURS);
	free(t);
	t = hugepages_tunables("glibc.malloc.tcache_count=0");
	assert_string_equal(t, "glibc.malloc.tcache_count=0:" OURS);
	free(t);
	/* a setting the user gave is left as it is */
	t = hugepages_tunables("glibc.malloc.mmap_threshold=65536");
	assert_string_equal(t, "glibc.malloc.mmap_threshold=65536:glibc.malloc.hugetlb=1:" KEEP);
	free(t);
	/* the user's word stands, whatever it says */
	assert_null(hugepages_tunables("glibc.malloc.hugetlb=0"));
	assert_null(hugepages_tunables("glibc.malloc.arena_max=1:glibc.malloc.hugetlb=2"));
}

/* The settings an incremental build gives mallopt: the same three, but for
 * those the user named, and none when the user said what to do with huge
 * pages. */
static void test_keep_params(void **state)
{
	(void)state;
	int param[HUGEPAGES_KEEP_MAX], value[HUGEPAGES_KEEP_MAX];
	assert_int_equal(hugepages_keep_params(NULL, param, value), 3);
	assert_int_equal(param[0], M_MMAP_THRESHOLD);
	assert_int_equal(value[0], 32 << 20);
	assert_int_equal(param[1], M_TRIM_THRESHOLD);
	assert_int_equal(value[1], -1);
	assert_int_equal(param[2], M_TOP_PAD);
	assert_int_equal(value[2], 64 << 20);
	assert_int_equal(hugepages_keep_params("glibc.malloc.tcache_count=0", param, value), 3);
	assert_int_equal(hugepages_keep_params("glibc.malloc.trim_threshold=1", param, value), 2);
	assert_int_equal(param[0], M_MMAP_THRESHOLD);
	assert_int_equal(param[1], M_TOP_PAD);
	assert_int_equal(hugepages_keep_params("glibc.malloc.hugetlb=0", param, value), 0);
}

static void test_site_size(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-hugepages-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	assert_false(hugepages_site_is_big(tmpl, 1)); /* no content/ */
	test_put_file(tmpl, "content/a.md", "# A\n");
	test_put_file(tmpl, "content/b.md", "# B\n");
	test_put_file(tmpl, "content/sub/c.md", "# C\n");
	test_put_file(tmpl, "content/.hidden", "x\n");
	assert_true(hugepages_site_is_big(tmpl, 3)); /* a.md, b.md, sub */
	assert_false(hugepages_site_is_big(tmpl, 4));
	assert_int_equal(output_remove_tree(tmpl), 0);
}

static void test_incremental(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-hugepages-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	assert_false(hugepages_build_is_incremental(tmpl, false)); /* no state */
	char *out = path_join(tmpl, "public");
	test_put_file(tmpl, "public/.ssg-build/x", "a folder, not the state\n");
	assert_false(hugepages_build_is_incremental(out, false));
	assert_int_equal(output_remove_tree(out), 0);
	test_put_file(tmpl, "public/.ssg-build", "state\n");
	assert_true(hugepages_build_is_incremental(out, false));
	assert_false(hugepages_build_is_incremental(out, true)); /* --force */
	free(out);
	assert_int_equal(output_remove_tree(tmpl), 0);
}

/* What a build on small pages warms first: eight times the last build's
 * files.bin (the fingerprint's listing, as big as the site); none without. */
static void test_first_warmth(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-hugepages-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	assert_int_equal(hugepages_first_warmth(tmpl), 0);
	char listing[1001];
	memset(listing, 'x', 1000);
	listing[1000] = '\0';
	test_put_file(tmpl, ".ssg-cache/files.bin", listing);
	assert_int_equal(hugepages_first_warmth(tmpl), 8000);
	assert_int_equal(output_remove_tree(tmpl), 0);
}

/* What a build in full warms before its model: six tenths of the last
 * build's documents.bin, and no less than a small site's pages need. */
static void test_model_warmth(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-hugepages-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	assert_int_equal(site_model_warmth(tmpl), SITE_MODEL_LEAST_WARMTH);
	test_put_file(tmpl, ".ssg-cache/documents.bin", "records");
	assert_int_equal(site_model_warmth(tmpl), SITE_MODEL_LEAST_WARMTH);
	char *big = path_join(tmpl, ".ssg-cache/documents.bin");
	assert_int_equal(truncate(big, 10 << 20), 0); /* 10 MB */
	assert_int_equal(site_model_warmth(tmpl), (size_t)(10 << 20) / 10 * 6);
	free(big);
	assert_int_equal(output_remove_tree(tmpl), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tunables),
		cmocka_unit_test(test_keep_params),
		cmocka_unit_test(test_site_size),
		cmocka_unit_test(test_incremental),
		cmocka_unit_test(test_first_warmth),
		cmocka_unit_test(test_model_warmth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
