/* test_frag_memo: bytes put for a number and variant are lent back by every
 * get after, the first put winning; a number not wanted keeps nothing; the
 * variants of a number are apart; threads putting the same slot at once
 * leave one copy and leak none. */
#include "testutil.h"

#include "frag_memo.h"
#include "pool.h"

static void test_put_then_get(void **state)
{
	(void)state;
	struct frag_memo m;
	frag_memo_init(&m, 10, 2);
	size_t len = 99;
	assert_null(frag_memo_get(&m, 3, 0, &len));
	frag_memo_put(&m, 3, 0, "<li>x</li>", 10);
	assert_null(frag_memo_get(&m, 3, 0, &len)); /* not wanted: nothing kept */
	frag_memo_want(&m, 3);
	assert_true(frag_memo_wanted(&m, 3));
	assert_false(frag_memo_wanted(&m, 4));
	frag_memo_put(&m, 3, 0, "<li>x</li>", 10);
	const char *p = frag_memo_get(&m, 3, 0, &len);
	assert_non_null(p);
	assert_int_equal(len, 10);
	assert_memory_equal(p, "<li>x</li>", 10);
	/* the first put wins; the other variant is its own */
	frag_memo_put(&m, 3, 0, "<li>y</li>", 10);
	p = frag_memo_get(&m, 3, 0, &len);
	assert_memory_equal(p, "<li>x</li>", 10);
	assert_null(frag_memo_get(&m, 3, 1, &len));
	frag_memo_put(&m, 3, 1, "", 0);
	p = frag_memo_get(&m, 3, 1, &len);
	assert_non_null(p);
	assert_int_equal(len, 0);
	/* out of range: nothing, no harm */
	frag_memo_want(&m, 10);
	frag_memo_put(&m, 10, 0, "z", 1);
	frag_memo_put(&m, 3, 2, "z", 1);
	assert_null(frag_memo_get(&m, 10, 0, &len));
	assert_null(frag_memo_get(&m, 3, 2, &len));
	frag_memo_free(&m);
	frag_memo_free(&m); /* freed twice: a no-op */
}

struct race {
	struct frag_memo *m;
	bool ok[64];
};

static void put_same(void *ctx, size_t i)
{
	struct race *r = ctx;
	char bytes[32];
	int n = snprintf(bytes, sizeof bytes, "entry %zu", i % 8);
	frag_memo_put(r->m, i % 8, 0, bytes, (size_t)n);
	size_t len;
	const char *p = frag_memo_get(r->m, i % 8, 0, &len);
	r->ok[i] = p && len == (size_t)n && !memcmp(p, bytes, len);
}

static void test_threads_put_one_copy(void **state)
{
	(void)state;
	struct frag_memo m;
	frag_memo_init(&m, 8, 1);
	for (size_t i = 0; i < 8; i++)
		frag_memo_want(&m, i);
	struct race r = {&m, {false}};
	pool_run(4, 64, put_same, &r);
	for (size_t i = 0; i < 64; i++)
		assert_true(r.ok[i]);
	frag_memo_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_then_get),
		cmocka_unit_test(test_threads_put_one_copy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
