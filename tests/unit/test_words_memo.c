/* test_words_memo: a slice of the search index's words as kept between
 * builds (src/words_memo.c): its bytes read back as written; every cut,
 * bit flip and lie about a count reads as nothing, never past the bytes
 * (ASan watches); the folder keeps the slices named and drops the rest. */
#include "testutil.h"
#include "buf.h"
#include "words_memo.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void sample(struct buf *b)
{
	uint64_t p1[] = {0 << WORDS_MEMO_ID_SHIFT | 7, 3 << WORDS_MEMO_ID_SHIFT | 12},
		 p2[] = {2 << WORDS_MEMO_ID_SHIFT | 5};
	words_slice_head(b, 4, 3);
	words_slice_word(b, "kernel", 6, p1, 2);
	words_slice_word(b, "attentionv2", 11, p2, 1);
	words_slice_word(b, "東京", 6, p1 + 1, 1);
}

static void test_round_trip(void **state)
{
	(void)state;
	struct words_slice sl = {.bytes = BUF_INIT};
	sample(&sl.bytes);
	assert_int_equal(sl.bytes.n % 8, 0);
	assert_true(words_slice_parse(&sl));
	assert_int_equal(sl.entries, 4);
	assert_int_equal(sl.nwords, 3);
	assert_string_equal(sl.words[0].w, "kernel");
	assert_int_equal(sl.words[0].n, 2);
	assert_int_equal(words_memo_posting(sl.words[0].p, 1), 3 << WORDS_MEMO_ID_SHIFT | 12);
	assert_string_equal(sl.words[1].w, "attentionv2");
	assert_int_equal(words_memo_posting(sl.words[1].p, 0), 2 << WORDS_MEMO_ID_SHIFT | 5);
	assert_string_equal(sl.words[2].w, "東京");
	assert_int_equal(sl.words[2].len, 6);
	words_slice_free(&sl);
}

static bool parses(const char *p, size_t n)
{
	struct words_slice sl = {.bytes = BUF_INIT};
	buf_put(&sl.bytes, p, n);
	bool ok = words_slice_parse(&sl);
	words_slice_free(&sl);
	return ok;
}

static void test_damage_reads_as_nothing(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	sample(&b);
	assert_true(parses(b.p, b.n));
	for (size_t n = 0; n < b.n; n++)
		assert_false(parses(b.p, n));
	/* a byte more */
	buf_putc(&b, 0);
	assert_false(parses(b.p, b.n));
	b.n--;
	/* every bit of the magic, the count of words and the first word's
	 * length and count (not of the entries: a larger count is a slice
	 * too, which search_shards.c tells from its own count) */
	for (size_t i = 0; i < 40; i++)
		for (int bit = 0; bit < 8 && (i < 16 || i >= 24); bit++) {
			b.p[i] ^= (char)(1 << bit);
			assert_false(parses(b.p, b.n));
			b.p[i] ^= (char)(1 << bit);
		}
	/* postings out of order, or past the entries */
	struct buf c = BUF_INIT;
	uint64_t down[] = {3 << WORDS_MEMO_ID_SHIFT, 1 << WORDS_MEMO_ID_SHIFT},
		 past[] = {4 << WORDS_MEMO_ID_SHIFT};
	words_slice_head(&c, 4, 1);
	words_slice_word(&c, "x", 1, down, 2);
	assert_false(parses(c.p, c.n));
	buf_reset(&c);
	words_slice_head(&c, 4, 1);
	words_slice_word(&c, "x", 1, past, 1);
	assert_false(parses(c.p, c.n));
	/* a count of words no bytes could hold */
	buf_reset(&c);
	words_slice_head(&c, 4, UINT64_MAX / 2);
	assert_false(parses(c.p, c.n));
	buf_free(&c);
	buf_free(&b);
}

static size_t count_files(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void test_folder_keeps_and_tidies(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-words-memo.XXXXXX";
	assert_non_null(mkdtemp(dir));
	assert_int_equal(words_memo_open(dir, false), -1); /* not made unless asked */
	int fd = words_memo_open(dir, true);
	assert_true(fd >= 0);
	struct buf b = BUF_INIT;
	sample(&b);
	unsigned long long keys[3][2] = {{1, 2}, {3, 4}, {0xffffffffffffffffULL, 0}};
	for (int i = 0; i < 3; i++)
		words_memo_write(fd, keys[i], &b);
	struct words_slice sl;
	assert_true(words_memo_read(fd, keys[2], &sl));
	assert_int_equal(sl.nwords, 3);
	words_slice_free(&sl);
	unsigned long long other[2] = {5, 6};
	assert_false(words_memo_read(fd, other, &sl));
	/* a stranger's file and a dead writer's are left, then the dead go */
	char *sub = path_join(dir, ".ssg-cache/words");
	char *stranger = path_join(sub, "notes.txt"), *dead = path_join(sub, "x.bin.999999999.tmp");
	FILE *f = fopen(stranger, "w");
	fclose(f);
	f = fopen(dead, "w");
	fclose(f);
	assert_int_equal(count_files(sub), 5);
	words_memo_tidy(fd, (const unsigned long long(*)[2])keys + 1, 1);
	assert_int_equal(count_files(sub), 2); /* {3, 4} and the stranger */
	assert_true(words_memo_read(fd, keys[1], &sl));
	words_slice_free(&sl);
	assert_false(words_memo_read(fd, keys[0], &sl));
	close(fd);
	unlink(stranger);
	char name[64];
	snprintf(name, sizeof name, "%016llx%016llx.bin", keys[1][0], keys[1][1]);
	char *kept = path_join(sub, name);
	unlink(kept);
	rmdir(sub);
	char *cache = path_join(dir, ".ssg-cache");
	rmdir(cache);
	rmdir(dir);
	free(kept);
	free(cache);
	free(stranger);
	free(dead);
	free(sub);
	buf_free(&b);
}

static void test_symlinked_folder_refused(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-words-memo.XXXXXX", away[] = "/tmp/ssg-words-away.XXXXXX";
	assert_non_null(mkdtemp(dir));
	assert_non_null(mkdtemp(away));
	char *cache = path_join(dir, ".ssg-cache"), *sub = path_join(cache, "words");
	assert_int_equal(mkdir(cache, 0755), 0);
	assert_int_equal(symlink(away, sub), 0);
	assert_int_equal(words_memo_open(dir, true), -1);
	assert_int_equal(count_files(away), 0);
	unlink(sub);
	rmdir(cache);
	rmdir(dir);
	rmdir(away);
	free(sub);
	free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damage_reads_as_nothing),
		cmocka_unit_test(test_folder_keeps_and_tidies),
		cmocka_unit_test(test_symlinked_folder_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
