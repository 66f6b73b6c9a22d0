/* test_words: the search index's words (src/words.c): what separates them,
 * how letters fold, the inner parts of words whose case changes, the cut
 * at WORDS_MAX, the length counted; and the records parts cut from the
 * index as its bytes come (src/search_shards.c). */
#include "testutil.h"
#include "buf.h"
#include "search_shards.h"
#include "words.h"

/* each word as "w" (a whole word, "^w" the text's first, "+w" an inner
 * part), space-separated */
static void collect(void *ctx, const char *w, size_t n, bool first, bool part)
{
	struct buf *b = ctx;
	if (b->n)
		buf_putc(b, ' ');
	if (part)
		buf_putc(b, '+');
	else if (first)
		buf_putc(b, '^');
	buf_put(b, w, n);
}

static size_t words_of(const char *text, struct buf *b)
{
	buf_reset(b);
	return words_each(text, collect, b);
}

static void test_split_and_fold(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	words_of("Flash-Attention: v2 (2023)", &b);
	assert_string_equal(b.p, "^flash attention v2 2023");
	/* accents go, case goes, letters without a decomposition stay */
	words_of("Café RÉSUMÉ Ørsted Straße Ωmega Йод", &b);
	assert_string_equal(b.p, "^cafe resume ørsted straße ωmega иод");
	/* punctuation beyond ASCII separates too; a combining mark does not */
	words_of("a\xe2\x80\x94" "b\xc2\xa0" "c e\xcc\x81t\xc3\xa9", &b); /* a—b c ét́é */
	assert_string_equal(b.p, "^a b c ete");
	/* a character outside the tables is a letter, as it is */
	words_of("東京 tokyo", &b);
	assert_string_equal(b.p, "^東京 tokyo");
	words_of("  ...  ", &b);
	assert_string_equal(b.p ? b.p : "", "");
	buf_free(&b);
}

static void test_inner_parts(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	words_of("PyTorch CUDAGraphs FlashAttentionV2 cuBLAS NVIDIA", &b);
	assert_string_equal(b.p, "^pytorch +torch cudagraphs +graphs flashattentionv2 +attentionv2 +v2 "
				 "cublas +blas nvidia");
	buf_free(&b);
}

static void test_cut_and_length(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	char long_word[200];
	memset(long_word, 'x', 120);
	strcpy(long_word + 120, " end");
	words_of(long_word, &b);
	assert_int_equal(strchr(b.p, ' ') - b.p - 1, WORDS_MAX); /* "^" then the word */
	assert_string_equal(strchr(b.p, ' '), " end");
	/* spaces around are not counted, a run of them counts once, other
	 * separators count, dropped marks do not */
	assert_int_equal(words_of("  CUDA   C  ", &b), 6);
	assert_int_equal(words_of("a-b", &b), 3);
	assert_int_equal(words_of("e\xcc\x81", &b), 1);
	assert_int_equal(words_of("", &b), 0);
	/* a run of small letters filling the word exactly, then one more
	 * (dropped), then a capital after the cut (no inner part: the word is
	 * full); and the run counted whole */
	char exact[WORDS_MAX + 8];
	memset(exact, 'q', WORDS_MAX);
	strcpy(exact + WORDS_MAX, "zK 9");
	assert_int_equal(words_of(exact, &b), WORDS_MAX + 4);
	assert_int_equal(strchr(b.p, ' ') - b.p - 1, WORDS_MAX);
	assert_string_equal(strchr(b.p, ' '), " 9");
	/* after a capital the run goes on the word as it comes, the inner
	 * part found where the small letters begin again after capitals */
	words_of("xABCdef12gh ABc", &b);
	assert_string_equal(b.p, "^xabcdef12gh +abcdef12gh +cdef12gh abc +bc");
	buf_free(&b);
}

static void test_fold_table(void **state)
{
	(void)state;
	assert_int_equal(words_fold('Q'), 'q');
	assert_int_equal(words_fold(0xC9), 'e');   /* É */
	assert_int_equal(words_fold(0xD8), 0xF8);  /* Ø: ø */
	assert_int_equal(words_fold(0x3A9), 0x3C9); /* Ω */
	assert_int_equal(words_fold(0x301), 0);    /* a combining acute */
	assert_int_equal(words_fold(0x6771), 0x6771);
	assert_true(words_sep(' ') && words_sep('-') && words_sep(0x2014) && words_sep(0xA0));
	assert_false(words_sep('a') || words_sep('7') || words_sep(0xE9) || words_sep(0xB5));
	/* the pairs the reader's script folds with: each character then its
	 * fold, É then e among them */
	struct buf b = BUF_INIT;
	words_fold_pairs(&b);
	assert_non_null(strstr(b.p, "\xc3\x89" "e"));
	assert_non_null(strstr(b.p, "\xc3\x98\xc3\xb8"));
	assert_null(strstr(b.p, "Q"));
	buf_free(&b);
}

/* ---- records parts ---- */

struct files {
	char name[8][32];
	struct buf body[8];
	size_t n;
};

static void keep_file(void *ctx, const char *relpath, const char *p, size_t n)
{
	struct files *f = ctx;
	assert_true(f->n < 8);
	snprintf(f->name[f->n], sizeof f->name[0], "%s", relpath);
	f->body[f->n] = (struct buf)BUF_INIT;
	buf_put(&f->body[f->n], p, n);
	f->n++;
}

static void test_records_parts(void **state)
{
	(void)state;
	/* an index of SEARCH_PER + 3 entries, fed a few bytes at a time */
	struct buf index = BUF_INIT;
	buf_putc(&index, '[');
	for (int i = 0; i < SEARCH_PER + 3; i++)
		buf_printf(&index, "%s[\"d\",\"T%d, \\\"q\\\"\",\"u%d/\",\"\"]", i ? ",\n" : "", i, i);
	buf_puts(&index, "]\n");
	struct files f = {.n = 0};
	struct shard_out out = {keep_file, &f};
	struct search_records r;
	search_records_begin(&r, &out);
	for (size_t at = 0; at < index.n; at += 7)
		search_records_put(&r, index.p + at, at + 7 < index.n ? 7 : index.n - at);
	assert_int_equal(search_records_end(&r), SEARCH_PER + 3);
	assert_int_equal(f.n, 2);
	assert_string_equal(f.name[0], "search/r0.js");
	assert_string_equal(f.name[1], "search/r1.js");
	assert_non_null(strstr(f.body[0].p, "ssgSearchPart(\"r0\",[\n[\"d\",\"T0, \\\"q\\\"\",\"u0/\",\"\"],\n"));
	char last[80];
	snprintf(last, sizeof last, "[\"d\",\"T%d, \\\"q\\\"\",\"u%d/\",\"\"]\n]);\n", SEARCH_PER - 1,
		 SEARCH_PER - 1);
	assert_string_equal(f.body[0].p + f.body[0].n - strlen(last), last);
	snprintf(last, sizeof last, "[\"d\",\"T%d, \\\"q\\\"\",\"u%d/\",\"\"]\n]);\n", SEARCH_PER + 2,
		 SEARCH_PER + 2);
	assert_non_null(strstr(f.body[1].p, "ssgSearchPart(\"r1\",[\n[\"d\",\"T512"));
	assert_string_equal(f.body[1].p + f.body[1].n - strlen(last), last);
	for (size_t i = 0; i < f.n; i++)
		buf_free(&f.body[i]);
	/* an empty index: no part */
	f.n = 0;
	search_records_begin(&r, &out);
	search_records_put(&r, "[]\n", 3);
	assert_int_equal(search_records_end(&r), 0);
	assert_int_equal(f.n, 0);
	buf_free(&index);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_and_fold),
		cmocka_unit_test(test_inner_parts),
		cmocka_unit_test(test_cut_and_length),
		cmocka_unit_test(test_fold_table),
		cmocka_unit_test(test_records_parts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
