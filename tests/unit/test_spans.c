/* test_spans: a file as slices. The digest of slices equals the digest of
 * their bytes in one piece, however they are cut; slices that follow each
 * other in memory are joined; and output_write_spans writes exactly the
 * bytes (more slices than one writev takes), and finds them unchanged in the
 * next build, slice boundaries anywhere. */
#include "testutil.h"

#include "digest.h"
#include "output.h"
#include "path.h"
#include "spans.h"

#include <unistd.h>

static unsigned seed = 2024;
static unsigned next_rand(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 16;
}

/* text cut into slices of 0 to max bytes, each copied to its own block so
 * that none follows another in memory; blocks holds them, for freeing */
static void cut(struct spans *s, const char *text, size_t n, size_t max, char **blocks,
		size_t *nblocks)
{
	for (size_t at = 0; at < n;) {
		size_t len = next_rand() % (max + 1);
		if (len > n - at)
			len = n - at;
		char *b = malloc(len + 16); /* never adjacent: each its own block */
		memcpy(b, text + at, len);
		blocks[(*nblocks)++] = b;
		spans_add(s, b, len);
		at += len;
	}
}

static void test_digest_any_cut(void **state)
{
	(void)state;
	char text[300];
	for (size_t i = 0; i < sizeof text; i++)
		text[i] = (char)next_rand();
	static char *blocks[4096];
	for (size_t n = 0; n <= sizeof text; n += 7) {
		unsigned long long whole[2], sliced[2];
		struct digest d;
		digest_start(&d);
		digest_feed(&d, text, n);
		digest_end(&d, whole);
		for (size_t max = 0; max < 20; max++) {
			struct spans s = SPANS_INIT;
			size_t nb = 0;
			cut(&s, text, n, max ? max : 1, blocks, &nb);
			assert_int_equal(s.bytes, n);
			spans_digest(&s, sliced);
			assert_memory_equal(sliced, whole, sizeof whole);
			/* one byte changed anywhere: another digest */
			if (n) {
				size_t at = next_rand() % s.n;
				((char *)s.v[at].p)[0] ^= 1;
				spans_digest(&s, sliced);
				assert_memory_not_equal(sliced, whole, sizeof whole);
			}
			for (size_t i = 0; i < nb; i++)
				free(blocks[i]);
			spans_free(&s);
		}
	}
}

static void test_adjacent_joined(void **state)
{
	(void)state;
	static const char a[] = "0123456789";
	static const char b[] = "abcdef";
	struct spans s = SPANS_INIT;
	spans_add(&s, a, 3);
	spans_add(&s, a + 3, 4); /* follows: joined */
	spans_add(&s, a + 3, 0); /* empty: dropped */
	assert_int_equal(s.n, 1);
	assert_int_equal(s.v[0].n, 7);
	spans_add(&s, b, 2);
	spans_add(&s, a + 8, 2); /* not after b's: its own */
	assert_int_equal(s.n, 3);
	assert_int_equal(s.bytes, 11);
	spans_free(&s);
	assert_int_equal(s.n, 0);
}

/* One build writing f.json as slices of text cut by max; the file's bytes. */
static char *build_once(const char *site, const char *text, size_t n, size_t max,
			size_t *unchanged, size_t *len)
{
	struct diags d = DIAGS_INIT;
	struct output o;
	assert_int_equal(output_begin(&o, site, &d), 0);
	struct spans s = SPANS_INIT;
	static char *blocks[8192];
	size_t nb = 0;
	cut(&s, text, n, max, blocks, &nb);
	assert_true(s.n > 64); /* more than one writev */
	assert_int_equal(output_write_spans(&o, "f.json", &s), 0);
	assert_int_equal(output_commit(&o), 0);
	*unchanged = o.unchanged;
	output_free(&o);
	for (size_t i = 0; i < nb; i++)
		free(blocks[i]);
	spans_free(&s);
	assert_int_equal(d.n, 0);
	diags_free(&d);
	char *file = path_join(site, "f.json");
	char *got = test_read_file(file, len);
	free(file);
	return got;
}

static void test_written_and_found_unchanged(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-spans-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *site = path_join(tmpl, "site");
	size_t n = 200000;
	char *text = malloc(n);
	for (size_t i = 0; i < n; i++)
		text[i] = (char)('a' + next_rand() % 26);
	size_t unchanged, len;
	char *got = build_once(site, text, n, 3000, &unchanged, &len);
	assert_int_equal(len, n);
	assert_memory_equal(got, text, n);
	free(got);
	/* the same bytes cut elsewhere: unchanged */
	got = build_once(site, text, n, 700, &unchanged, &len);
	assert_int_equal(unchanged, 1);
	free(got);
	/* one byte different, same size: written */
	text[n - 5] = '!';
	got = build_once(site, text, n, 900, &unchanged, &len);
	assert_int_equal(unchanged, 0);
	assert_int_equal(len, n);
	assert_memory_equal(got, text, n);
	free(got);
	free(text);
	assert_int_equal(output_remove_tree(tmpl), 0);
	free(site);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest_any_cut),
		cmocka_unit_test(test_adjacent_joined),
		cmocka_unit_test(test_written_and_found_unchanged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
