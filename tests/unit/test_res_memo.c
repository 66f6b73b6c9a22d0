/* test_res_memo: resources' names and classes kept between builds
 * (.ssg-cache/resources.bin): a round trip, another env, every cut and
 * flipped bytes of the file, and finding keys among many (spread as
 * digests are, bunched, all equal in their first word: each in its
 * bucket, or bisected within one). */
#include "testutil.h"

#include "res_memo.h"

#include <unistd.h>

static const char ENV[33] = "0123456789abcdef0123456789abcdef";

static void make_dir(char *dir)
{
	strcpy(dir, "/tmp/ssg-resmemo-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static char *memo_file(const char *dir)
{
	size_t n = strlen(dir) + 64;
	char *p = malloc(n);
	snprintf(p, n, "%s/.ssg-cache/resources.bin", dir);
	return p;
}

static void remove_dir(const char *dir)
{
	char *file = memo_file(dir);
	unlink(file);
	char sub[256];
	snprintf(sub, sizeof sub, "%s/.ssg-cache", dir);
	rmdir(sub);
	rmdir(dir);
	free(file);
}

/* Three records, given out of key order, with topics. */
static void save_sample(const char *dir)
{
	struct res_memo_rec v[3] = {
		{{9, 1}, 0, -1, 2, 2, 0, 2},
		{{3, 7}, 1, 0, -1, 1, 2, 0},
		{{3, 2}, 0, 0, 0, 0, 3, 1},
	};
	int32_t topics[3] = {4, 5, 1};
	res_memo_save(dir, ENV, v, 3, topics, 3);
}

/* n records whose keys come from next(k); each is found, and the keys
 * between them are not. */
static void find_among(unsigned long long (*next)(size_t k), size_t n)
{
	char dir[64];
	make_dir(dir);
	struct res_memo_rec *v = calloc(n, sizeof *v);
	for (size_t k = 0; k < n; k++) {
		v[k].key[0] = next(k);
		v[k].key[1] = 2 * k + 1;
		v[k].title_rank = (uint32_t)k;
	}
	res_memo_save(dir, ENV, v, n, NULL, 0);
	struct res_memo m;
	res_memo_load(&m, dir, ENV);
	assert_int_equal(m.n, n);
	for (size_t k = 0; k < n; k++) {
		unsigned long long key[2] = {next(k), 2 * k + 1}, off[2] = {next(k), 2 * k + 2};
		const struct res_memo_rec *r = res_memo_find(&m, key);
		assert_non_null(r);
		assert_int_equal(r->title_rank, k);
		assert_null(res_memo_find(&m, off));
	}
	unsigned long long low[2] = {0, 0}, high[2] = {~0ULL, ~0ULL};
	assert_true(!res_memo_find(&m, low) || next(0) == 0);
	assert_null(res_memo_find(&m, high));
	res_memo_free(&m);
	free(v);
	remove_dir(dir);
}

static unsigned long long spread(size_t k) { return (k + 1) * 0x9E3779B97F4A7C15ULL; }
static unsigned long long bunched(size_t k) { return k < 9000 ? k : ~0ULL - 20000 + k; }
static unsigned long long same(size_t k) { (void)k; return 42; }

static void test_find(void **state)
{
	(void)state;
	find_among(spread, 10000);
	find_among(bunched, 10000);
	find_among(same, 3000);
	find_among(spread, 1);
}

static void test_round_trip(void **state)
{
	(void)state;
	char dir[64];
	make_dir(dir);
	save_sample(dir);
	struct res_memo m;
	res_memo_load(&m, dir, ENV);
	assert_int_equal(m.n, 3);
	assert_int_equal(m.ntopics, 3);
	const struct res_memo_rec *r = res_memo_find(&m, (unsigned long long[2]){9, 1});
	assert_non_null(r);
	assert_int_equal(r->kind, 2);
	assert_int_equal(r->desc_ref, -1);
	assert_int_equal(r->title_rank, 2);
	assert_int_equal(r->ntopics, 2);
	assert_int_equal(m.topics[r->topics_at], 4);
	assert_int_equal(m.topics[r->topics_at + 1], 5);
	r = res_memo_find(&m, (unsigned long long[2]){3, 7});
	assert_non_null(r);
	assert_int_equal(r->title_ref, 1);
	assert_int_equal(r->title_rank, 0);
	assert_int_equal(m.topics[r->topics_at], 1);
	assert_non_null(res_memo_find(&m, (unsigned long long[2]){3, 2}));
	assert_null(res_memo_find(&m, (unsigned long long[2]){3, 3}));
	res_memo_free(&m);
	/* made under another ssg or site.yml: nothing */
	res_memo_load(&m, dir, "ffffffffffffffffffffffffffffffff");
	assert_int_equal(m.n, 0);
	assert_null(res_memo_find(&m, (unsigned long long[2]){9, 1}));
	res_memo_free(&m);
	remove_dir(dir);
}

/* Cut anywhere, or with a byte flipped anywhere: empty, or records that
 * stay inside the file's topics (a flipped key or field may still load,
 * the model checks the fields against the resource; see model.c). */
static void test_damaged(void **state)
{
	(void)state;
	char dir[64];
	make_dir(dir);
	save_sample(dir);
	char *file = memo_file(dir);
	size_t n = 0;
	char *good = test_read_file(file, &n);
	assert_non_null(good);
	for (size_t cut = 0; cut < n; cut++) {
		FILE *f = fopen(file, "wb");
		fwrite(good, 1, cut, f);
		fclose(f);
		struct res_memo m;
		res_memo_load(&m, dir, ENV);
		assert_int_equal(m.n, 0);
		res_memo_free(&m);
	}
	for (size_t at = 0; at < n; at++) {
		char *bad = malloc(n);
		memcpy(bad, good, n);
		bad[at] ^= 0x41;
		FILE *f = fopen(file, "wb");
		fwrite(bad, 1, n, f);
		fclose(f);
		free(bad);
		struct res_memo m;
		res_memo_load(&m, dir, ENV);
		for (size_t i = 0; i < m.n; i++) {
			assert_true(m.v[i].topics_at <= m.ntopics);
			assert_true(m.v[i].ntopics <= m.ntopics - m.v[i].topics_at);
			if (i)
				assert_true(m.v[i - 1].key[0] < m.v[i].key[0] ||
					    (m.v[i - 1].key[0] == m.v[i].key[0] &&
					     m.v[i - 1].key[1] < m.v[i].key[1]));
		}
		res_memo_free(&m);
	}
	free(good);
	free(file);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_damaged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
