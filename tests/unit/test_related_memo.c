/* test_related_memo: related documents kept between builds
 * (.ssg-cache/related.bin): a round trip; nothing for another key, another
 * env or another number of documents; nothing from a file whose indices
 * point outside the documents or at the document itself, or that is cut. */
#include "testutil.h"

#include "output.h"
#include "related_memo.h"

static const char ENV[33] = "0123456789abcdef0123456789abcdef";
static const char OTHER_ENV[33] = "fedcba9876543210fedcba9876543210";

static void sample(struct related_docs *rel)
{
	memset(rel, 0, 4 * sizeof *rel);
	rel[0] = (struct related_docs){{2, 1}, 2};
	rel[1] = (struct related_docs){{0}, 1};
	rel[3] = (struct related_docs){{0, 1, 2}, 3};
}

static char *memo_file(const char *dir)
{
	char *cache = path_join(dir, ".ssg-cache");
	char *file = path_join(cache, "related.bin");
	free(cache);
	return file;
}

static void test_round_trip_and_refusals(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-related-XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct related_docs want[4], got[4];
	sample(want);
	unsigned long long key[2] = {7, 9}, other[2] = {7, 10};
	related_memo_save(dir, ENV, key, 4, want);
	assert_true(related_memo_load(dir, ENV, key, 4, got));
	assert_memory_equal(got, want, sizeof want);
	assert_false(related_memo_load(dir, ENV, other, 4, got));
	assert_int_equal(got[0].n, 0); /* nothing half filled */
	assert_false(related_memo_load(dir, OTHER_ENV, key, 4, got));
	struct related_docs five[5];
	assert_false(related_memo_load(dir, ENV, key, 5, five));
	/* an index past the documents, then the document itself: refused */
	char *file = memo_file(dir);
	size_t n = 0;
	char *bytes = test_read_file(file, &n);
	assert_non_null(bytes);
	size_t row0 = n - 4 * sizeof *want; /* the first document's: its 5 indices, then its count */
	for (int bad = 0; bad < 2; bad++) {
		char *copy = malloc(n);
		memcpy(copy, bytes, n);
		copy[row0] = bad ? 0 : 9; /* doc 0's first related: 9 (none such), or 0 (itself) */
		FILE *f = fopen(file, "wb");
		fwrite(copy, 1, n, f);
		fclose(f);
		assert_false(related_memo_load(dir, ENV, key, 4, got));
		free(copy);
	}
	/* cut short */
	FILE *f = fopen(file, "wb");
	fwrite(bytes, 1, n - 1, f);
	fclose(f);
	assert_false(related_memo_load(dir, ENV, key, 4, got));
	free(bytes);
	free(file);
	assert_int_equal(output_remove_tree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_and_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
