/* test_output_stream: a file written as its bytes come. The stream writes
 * exactly the bytes it is given; the next build that gives the
 * same bytes, cut elsewhere, keeps the file in place; one that differs
 * anywhere (a byte, shorter, longer) writes it anew, whole. Bytes put from
 * the file in place itself, mapped and lent, agree where they lie in it. */
#include "testutil.h"

#include "output.h"
#include "path.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned seed = 2024;
static unsigned next_rand(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 16;
}

/* from's n bytes put in pieces of up to max, cut at random. */
static void put_pieces(struct output_stream *w, const char *from, size_t n, size_t max)
{
	for (size_t at = 0; at < n;) {
		size_t piece = 1 + next_rand() % max;
		if (piece > n - at)
			piece = n - at;
		output_stream_put(w, from + at, piece);
		at += piece;
	}
}

struct built {
	size_t unchanged, files;
	ino_t ino;
};

/* One build writing f.json through a stream, in pieces of up to max bytes;
 * the file's bytes. */
static char *build_once(const char *site, const char *text, size_t n, size_t max,
			struct built *b, size_t *len)
{
	struct diags d = DIAGS_INIT;
	struct output o;
	assert_int_equal(output_begin(&o, site, &d), 0);
	struct output_stream *w = output_stream_open(&o, "f.json");
	put_pieces(w, text, n, max);
	assert_int_equal(output_stream_close(w), 0);
	assert_int_equal(output_write(&o, "other.txt", "x", 1), 0);
	assert_int_equal(output_commit(&o), 0);
	b->unchanged = o.unchanged;
	b->files = o.files;
	output_free(&o);
	assert_int_equal(d.n, 0);
	diags_free(&d);
	char *file = path_join(site, "f.json");
	struct stat st;
	assert_int_equal(stat(file, &st), 0);
	b->ino = st.st_ino;
	char *got = test_read_file(file, len);
	free(file);
	return got;
}

/* A build of text (n bytes) in pieces of up to max: the file holds text,
 * kept (the same inode) or not as said. */
static void check_build(const char *site, const char *text, size_t n, size_t max, bool kept)
{
	static ino_t last;
	struct built b;
	size_t len;
	char *got = build_once(site, text, n, max, &b, &len);
	assert_int_equal(len, n);
	assert_memory_equal(got, text, n);
	assert_int_equal(b.files, 2);
	/* other.txt is the same every time; f.json only when kept */
	if (last)
		assert_int_equal(b.unchanged, kept ? 2 : 1);
	if (kept)
		assert_int_equal(b.ino, last);
	else
		assert_true(b.ino != last);
	last = b.ino;
	free(got);
}

static void test_written_and_kept(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-stream-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *site = path_join(tmpl, "site");
	/* more than the 64 kB the stream compares at a time */
	size_t n = 200000;
	char *text = malloc(n + 10);
	for (size_t i = 0; i < n + 10; i++)
		text[i] = (char)('a' + next_rand() % 26);
	check_build(site, text, n, 3000, false);  /* no site in place */
	check_build(site, text, n, 70000, true);  /* the same bytes cut elsewhere */
	text[n - 5] = '!';
	check_build(site, text, n, 900, false);   /* a byte near the end */
	text[3] = '!';
	check_build(site, text, n, 900, false);   /* a byte near the start */
	check_build(site, text, n, 5, true);
	check_build(site, text, n - 1, 900, false); /* shorter */
	check_build(site, text, n + 10, 900, false); /* longer */
	check_build(site, text, 0, 900, false);   /* empty */
	check_build(site, text, 0, 900, true);
	free(text);
	assert_int_equal(output_remove_tree(tmpl), 0);
	free(site);
}

/* One build of f.json from pieces of from (n bytes, pieces of up to max),
 * with lent (of the file dev and ino, m bytes) lent to the stream: the
 * file's bytes, and whether it was kept. */
static char *build_lent(const char *site, const char *from, size_t n, size_t max,
			const char *lent, size_t m, const struct stat *of, bool *kept)
{
	struct diags d = DIAGS_INIT;
	struct output o;
	assert_int_equal(output_begin(&o, site, &d), 0);
	struct output_stream *w = output_stream_open(&o, "f.json");
	output_stream_lend(w, lent, m, (unsigned long long)of->st_dev,
			   (unsigned long long)of->st_ino);
	put_pieces(w, from, n, max);
	assert_int_equal(output_stream_close(w), 0);
	assert_int_equal(output_commit(&o), 0);
	*kept = o.unchanged == 1;
	output_free(&o);
	assert_int_equal(d.n, 0);
	diags_free(&d);
	char *file = path_join(site, "f.json");
	size_t len;
	char *got = test_read_file(file, &len);
	free(file);
	assert_int_equal(len, n);
	return got;
}

/* The file in place, mapped and lent: its own bytes put back are kept
 * (pieces cut anywhere), a piece from elsewhere is still compared, and a
 * mapping of another file is not taken for it. */
static void test_lent(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-stream-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *site = path_join(tmpl, "site");
	size_t n = 300000;
	char *text = malloc(n);
	for (size_t i = 0; i < n; i++)
		text[i] = (char)('a' + next_rand() % 26);
	struct built b;
	size_t len;
	free(build_once(site, text, n, 5000, &b, &len));
	char *file = path_join(site, "f.json");
	struct stat st;
	char *map = path_map_regular_at(AT_FDCWD, file, (size_t)-1, &st);
	assert_non_null(map);
	bool kept;
	char *got = build_lent(site, map, n, 70000, map, n, &st, &kept);
	assert_true(kept);
	assert_memory_equal(got, text, n);
	free(got);
	munmap(map, n);
	/* the same bytes from the file in place, one piece of them another's */
	map = path_map_regular_at(AT_FDCWD, file, (size_t)-1, &st);
	char *mixed = malloc(n);
	memcpy(mixed, map, n);
	mixed[n / 2] = mixed[n / 2] == 'z' ? 'y' : 'z';
	struct output o;
	struct diags d = DIAGS_INIT;
	assert_int_equal(output_begin(&o, site, &d), 0);
	struct output_stream *w = output_stream_open(&o, "f.json");
	output_stream_lend(w, map, n, (unsigned long long)st.st_dev,
			   (unsigned long long)st.st_ino);
	output_stream_put(w, map, n / 2 - 10);
	output_stream_put(w, mixed + n / 2 - 10, 20);
	output_stream_put(w, map + n / 2 + 10, n - n / 2 - 10);
	assert_int_equal(output_stream_close(w), 0);
	assert_int_equal(output_commit(&o), 0);
	assert_int_equal(o.unchanged, 0);
	output_free(&o);
	diags_free(&d);
	munmap(map, n);
	got = test_read_file(file, &len);
	assert_int_equal(len, n);
	assert_memory_equal(got, mixed, n);
	free(got);
	/* another file of the same size, lent as if it were f.json */
	char *other = path_join(tmpl, "other.json");
	FILE *f = fopen(other, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	fclose(f);
	struct stat ost;
	char *omap = path_map_regular_at(AT_FDCWD, other, (size_t)-1, &ost);
	assert_non_null(omap);
	got = build_lent(site, omap, n, 9000, omap, n, &ost, &kept);
	assert_false(kept);
	assert_memory_equal(got, text, n);
	free(got);
	munmap(omap, n);
	free(other);
	free(mixed);
	free(file);
	free(text);
	assert_int_equal(output_remove_tree(tmpl), 0);
	free(site);
}

/* A path that leads out of the output folder is refused, with a diagnostic. */
static void test_unsafe_path(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-stream-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *site = path_join(tmpl, "site");
	struct diags d = DIAGS_INIT;
	struct output o;
	assert_int_equal(output_begin(&o, site, &d), 0);
	struct output_stream *w = output_stream_open(&o, "../escape.json");
	output_stream_put(w, "{}", 2);
	assert_int_equal(output_stream_close(w), -1);
	assert_true(d.n > 0);
	output_abort(&o);
	output_free(&o);
	diags_free(&d);
	char *escape = path_join(tmpl, "escape.json");
	assert_int_equal(access(escape, F_OK), -1);
	free(escape);
	assert_int_equal(output_remove_tree(tmpl), 0);
	free(site);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written_and_kept),
		cmocka_unit_test(test_unsafe_path),
		cmocka_unit_test(test_lent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
