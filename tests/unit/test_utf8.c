/* Tests for utf8: decoding, validation, the binary sniffer, and utf8_clean()
 * (BOM, line endings, invalid bytes with line:col, mojibake repair). */
#include "testutil.h"
#include "diag.h"
#include "utf8.h"

#include <glob.h>

/* Clean a NUL-terminated literal; diagnostics go to *d. */
static char *clean(const char *s, struct diags *d)
{
	size_t n = 0;
	char *out = utf8_clean(s, strlen(s), &n, "t.md", d);
	assert_int_equal(n, strlen(out));
	return out;
}

static void expect_clean(const char *in, const char *want, size_t want_diags)
{
	struct diags d = DIAGS_INIT;
	char *out = clean(in, &d);
	if (strcmp(out, want) != 0)
		print_error("input \"%s\": got \"%s\", want \"%s\"\n", in, out, want);
	assert_string_equal(out, want);
	if (d.n != want_diags)
		print_error("input \"%s\": %zu diagnostics, want %zu\n", in, d.n, want_diags);
	assert_int_equal(d.n, want_diags);
	free(out);
	diags_free(&d);
}

/* ---- the seeds ---------------------------------------------------------- */

static void test_seed_tails_repaired(void **state)
{
	(void)state;
	/* Line 209 of seed 000 and line 445 of seed 001, byte for byte. */
	const char *s000 = "x\n**\xC3\xB0\xC5\xB8\xC5\xA1\xE2\x82\xAC All essential references"
			   " for PyTorch GPU optimization development!**";
	const char *s001 = "Stay curious and keep optimizing! \xC3\xB0\xC5\xB8\xC5\xA1\xE2\x82\xAC\n";
	struct diags d = DIAGS_INIT;
	char *out = clean(s000, &d);
	assert_string_equal(out, "x\n**\xF0\x9F\x9A\x80 All essential references"
				 " for PyTorch GPU optimization development!**");
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].sev, SEV_WARNING);
	assert_int_equal(d.v[0].line, 2);
	assert_int_equal(d.v[0].col, 3);
	assert_string_equal(d.v[0].path, "t.md");
	assert_string_equal(d.v[0].code, "mojibake");
	assert_string_equal(d.v[0].msg, "repaired mis-encoded text (mojibake) "
					 "\"\xC3\xB0\xC5\xB8\xC5\xA1\xE2\x82\xAC\" -> \"\xF0\x9F\x9A\x80\"");
	free(out);
	diags_free(&d);

	out = clean(s001, &d);
	assert_string_equal(out, "Stay curious and keep optimizing! \xF0\x9F\x9A\x80\n");
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].line, 1);
	assert_int_equal(d.v[0].col, 35);
	free(out);
	diags_free(&d);
}

/* When the shared seeds are beside the repo, clean them all: only the rocket
 * changes, and only the files that hold it warn. */
static void test_seed_files(void **state)
{
	(void)state;
	glob_t g;
	if (glob("../shared/seeds/*.txt", 0, NULL, &g) != 0) {
		skip();
		return;
	}
	size_t repaired = 0;
	for (size_t k = 0; k < g.gl_pathc; k++) {
		size_t n = 0, m = 0;
		char *raw = test_read_file(g.gl_pathv[k], &n);
		assert_non_null(raw);
		struct diags d = DIAGS_INIT;
		char *out = utf8_clean(raw, n, &m, g.gl_pathv[k], &d);
		bool had = strstr(raw, "\xC3\xB0\xC5\xB8\xC5\xA1\xE2\x82\xAC") != NULL;
		assert_null(strstr(out, "\xC3\xB0\xC5\xB8"));
		assert_int_equal(d.n, had ? 1 : 0);
		if (had) {
			repaired++;
			assert_non_null(strstr(out, "\xF0\x9F\x9A\x80"));
			assert_int_equal(m, n - 5); /* 9 bytes became 4 */
		} else {
			assert_int_equal(m, n);
			assert_memory_equal(out, raw, n);
		}
		free(raw);
		free(out);
		diags_free(&d);
	}
	assert_int_equal(repaired, 2);
	globfree(&g);
}

/* ---- mojibake ----------------------------------------------------------- */

static void test_mojibake_repaired(void **state)
{
	(void)state;
	static const char *cases[][2] = {
		{"caf\xC3\x83\xC2\xA9", "caf\xC3\xA9"},                     /* cafÃ© -> café */
		{"don\xC3\xA2\xE2\x82\xAC\xE2\x84\xA2t", "don\xE2\x80\x99t"}, /* donâ€™t -> don’t */
		{"\xC3\x82\xC2\xA9 2024", "\xC2\xA9 2024"},                   /* Â© -> © */
		{"\xC3\x83\xC2\xBC" "ber", "\xC3\xBC" "ber"},                 /* Ã¼ber -> über */
		{"\xC3\x83\xE2\x80\xB0t\xC3\x83\xC2\xA9", "\xC3\x89t\xC3\xA9"}, /* Ã‰tÃ© -> Été */
		/* â€<U+009D>: cp1252's undefined 0x9D passed through -> ” */
		{"\xC3\xA2\xE2\x82\xAC\xC2\x9D", "\xE2\x80\x9D"},
		/* Ð¿Ñ€Ð¸Ð²ÐµÑ‚ -> привет */
		{"\xC3\x90\xC2\xBF\xC3\x91\xE2\x82\xAC\xC3\x90\xC2\xB8\xC3\x90\xC2\xB2\xC3\x90\xC2\xB5"
		 "\xC3\x91\xE2\x80\x9A",
		 "\xD0\xBF\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82"},
		/* zaÅ‚ -> zał: one non-Latin-1 pair, touching a letter */
		{"za\xC3\x85\xE2\x80\x9A", "za\xC5\x82"},
		/* æ—¥æœ¬ -> 日本 */
		{"\xC3\xA6\xE2\x80\x94\xC2\xA5\xC3\xA6\xC5\x93\xC2\xAC", "\xE6\x97\xA5\xE6\x9C\xAC"},
		/* Â<NBSP> -> NBSP */
		{"a\xC3\x82\xC2\xA0" "b", "a\xC2\xA0" "b"},
		/* ï»¿ at the very start: a mangled BOM, dropped */
		{"\xC3\xAF\xC2\xBB\xC2\xBFhi", "hi"},
		/* ðŸ‘<U+008D> -> 👍: undefined 0x8D inside a 4-byte sequence */
		{"ok \xC3\xB0\xC5\xB8\xE2\x80\x98\xC2\x8D", "ok \xF0\x9F\x91\x8D"},
		/* Â· -> · (Â before a Latin-1 symbol is the classic pair) */
		{"a \xC3\x82\xC2\xB7 b", "a \xC2\xB7 b"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
		expect_clean(cases[k][0], cases[k][1], 1);
}

static void test_real_text_untouched(void **state)
{
	(void)state;
	static const char *words[] = {
		"caf\xC3\xA9",                          /* café */
		"na\xC3\xAFve",                         /* naïve */
		"\xC3\x85ngstr\xC3\xB6m",               /* Ångström */
		"3 \xC3\x97 4",                         /* × */
		"a \xE2\x80\x93 b \xE2\x80\x94 c",      /* – — */
		"\xE2\x80\x9Cquoted\xE2\x80\x9D",       /* “quoted” */
		"l\xE2\x80\x99\xC3\xA9t\xC3\xA9",       /* l’été */
		"Stra\xC3\x9F\xE2\x80\x9D",             /* Straße” */
		"CAF\xC3\x89\xE2\x80\x99s",             /* CAFÉ’s */
		"10 \xC3\x85\xC2\xB2",                  /* 10 Å² */
		"caf\xC3\xA9\xE2\x80\x99\xE2\x80\x9D",  /* café’” */
		"S\xC3\xA3o Paulo, N\xC3\x83O",         /* São Paulo, NÃO */
		"r\xC3\xA9sum\xC3\xA9",                 /* résumé */
		"Z\xC3\xBCrich, \xC3\x98rsted, \xC3\x91" "and\xC3\xBA", /* Zürich, Ørsted, Ñandú */
		"\xC5\x81\xC3\xB3" "d\xC5\xBA, Dvo\xC5\x99\xC3\xA1k", /* Łódź, Dvořák */
		"\xC2\xBFQu\xC3\xA9? \xC2\xA1Hola!",    /* ¿Qué? ¡Hola! */
		"5 \xC2\xB5s, x\xC2\xB2, 20\xC2\xB0" "C \xC2\xB1 1, \xC2\xBD",
		"\xC2\xAB guillemets \xC2\xBB",         /* « guillemets » */
		"\xC3\x86sir, \xC3\x9E\xC3\xB3r, \xC5\x93uvre", /* Æsir, Þór, œuvre */
		"\xCE\x95\xCE\xBB\xCE\xBB\xCE\xB7\xCE\xBD\xCE\xB9\xCE\xBA\xCE\xAC", /* Ελληνικά */
		"\xD1\x80\xD1\x83\xD1\x81\xD1\x81\xD0\xBA\xD0\xB8\xD0\xB9", /* русский */
		"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",  /* 日本語 */
		"launch \xF0\x9F\x9A\x80!",             /* 🚀 */
		"a \xE2\x86\x92 b \xE2\x84\xA2 \xE2\x82\xAC" "5", /* → ™ € */
		"mid\xEF\xBB\xBFtext",                  /* U+FEFF not at the start */
		"\xC3\x83",                             /* Ã alone */
	};
	for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
		expect_clean(words[k], words[k], 0);
}

static void test_mojibake_one_warning_per_line(void **state)
{
	(void)state;
	struct diags d = DIAGS_INIT;
	char *out = clean("caf\xC3\x83\xC2\xA9 et th\xC3\x83\xC2\xA9\n\xC3\x82\xC2\xA9", &d);
	assert_string_equal(out, "caf\xC3\xA9 et th\xC3\xA9\n\xC2\xA9");
	assert_int_equal(d.n, 2);
	assert_int_equal(d.v[0].line, 1);
	assert_int_equal(d.v[0].col, 4);
	assert_non_null(strstr(d.v[0].msg, "\"\xC3\x83\xC2\xA9\" -> \"\xC3\xA9\""));
	assert_non_null(strstr(d.v[0].msg, "1 more"));
	assert_int_equal(d.v[1].line, 2);
	assert_int_equal(d.v[1].col, 1);
	free(out);
	diags_free(&d);
}

/* ---- invalid bytes, BOM, line endings ----------------------------------- */

#define FFFD "\xEF\xBF\xBD"

static void test_invalid_sequences(void **state)
{
	(void)state;
	static const char *cases[][2] = {
		{"a\xFF" "b", "a" FFFD "b"},
		{"a\x80" "b", "a" FFFD "b"},                  /* stray continuation */
		{"end\xC3", "end" FFFD},                      /* truncated at EOF */
		{"\xE2\x82 x", FFFD " x"},                    /* truncated: one U+FFFD */
		{"\xF0\x9F\x9A", FFFD},                       /* truncated 4-byte */
		{"\xC0\xAF", FFFD FFFD},                      /* overlong '/' */
		{"\xC1\xBF", FFFD FFFD},                      /* overlong */
		{"\xE0\x80\xAF", FFFD FFFD FFFD},             /* overlong 3-byte */
		{"\xF0\x80\x80\xAF", FFFD FFFD FFFD FFFD},    /* overlong 4-byte */
		{"\xED\xA0\x80", FFFD FFFD FFFD},             /* surrogate U+D800 */
		{"\xED\xBF\xBF", FFFD FFFD FFFD},             /* surrogate U+DFFF */
		{"\xF4\x90\x80\x80", FFFD FFFD FFFD FFFD},    /* above U+10FFFF */
		{"\xF5\x80", FFFD FFFD},
		{"caf\xE9", "caf" FFFD},                      /* Latin-1 é */
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		assert_false(utf8_valid(cases[k][0], strlen(cases[k][0])));
		expect_clean(cases[k][0], cases[k][1], 1);
	}
	/* Boundaries that are valid. */
	const char *ok = "\x7F \xC2\x80 \xDF\xBF \xE0\xA0\x80 \xED\x9F\xBF \xEE\x80\x80 \xEF\xBF\xBF"
			 " \xF0\x90\x80\x80 \xF4\x8F\xBF\xBF";
	assert_true(utf8_valid(ok, strlen(ok)));
	assert_true(utf8_valid("", 0));
	assert_true(utf8_valid("a\0b", 3));
}

static void test_invalid_positions(void **state)
{
	(void)state;
	struct diags d = DIAGS_INIT;
	/* CRLF, lone CR and LF all end a line; two bad bytes on line 3 warn once. */
	char *out = clean("x\r\ny\rzz\xFFq\xFE\n\n\xC3", &d);
	assert_string_equal(out, "x\ny\nzz" FFFD "q" FFFD "\n\n" FFFD);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.v[0].line, 3);
	assert_int_equal(d.v[0].col, 3);
	assert_string_equal(d.v[0].code, "invalid-utf8");
	assert_non_null(strstr(d.v[0].msg, "invalid UTF-8"));
	assert_non_null(strstr(d.v[0].msg, "0xFF"));
	assert_int_equal(d.v[1].line, 5);
	assert_int_equal(d.v[1].col, 1);
	free(out);
	diags_free(&d);

	/* The column is a byte column: é before the bad byte counts 2. */
	out = clean("\xC3\xA9\xFF", &d);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].col, 3);
	free(out);
	diags_free(&d);
}

static void test_nul_bytes(void **state)
{
	(void)state;
	struct diags d = DIAGS_INIT;
	size_t n;
	char *out = utf8_clean("a\0b\0", 4, &n, "f.md", &d);
	assert_int_equal(n, 8);
	assert_memory_equal(out, "a" FFFD "b" FFFD, 9);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].col, 2);
	assert_non_null(strstr(d.v[0].msg, "NUL"));
	free(out);
	diags_free(&d);
}

static void test_bom_and_line_endings(void **state)
{
	(void)state;
	expect_clean("\xEF\xBB\xBFhello", "hello", 0);
	expect_clean("\xEF\xBB\xBF", "", 0);
	expect_clean("a\r\nb\r\n", "a\nb\n", 0);
	expect_clean("a\rb\r", "a\nb\n", 0);
	expect_clean("a\r\r\nb", "a\n\nb", 0);
	expect_clean("\r", "\n", 0);
	/* Column after a BOM does not count the BOM. */
	struct diags d = DIAGS_INIT;
	char *out = clean("\xEF\xBB\xBF" "ab\xFF", &d);
	assert_string_equal(out, "ab" FFFD);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].line, 1);
	assert_int_equal(d.v[0].col, 3);
	free(out);
	diags_free(&d);
}

/* Plain ASCII is copied a run at a time: whatever ends a run (a line break,
 * a control character, an invalid or a multi-byte sequence) is still seen,
 * at its own line and column, however long the runs around it. */
static void test_ascii_runs(void **state)
{
	(void)state;
	static const struct {
		const char *mid, *out; /* what sits between the runs, what it becomes */
		size_t diags;
		int line; /* of the following run's first byte, 1-based */
	} cases[] = {
		{"\r\n", "\n", 0, 2}, {"\r", "\n", 0, 2},   {"\n", "\n", 0, 2},
		{"\t", "\t", 0, 1},     {"\x01", FFFD, 1, 1}, {"\x7f", FFFD, 1, 1},
		{"\xff", FFFD, 1, 1},   {"\xc3\xa9", "\xc3\xa9", 0, 1},
	};
	for (size_t len = 1; len < 70; len += 17)
		for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
			char run[80];
			memset(run, 'x', len);
			run[len] = '\0';
			char in[256], want[256];
			snprintf(in, sizeof in, "%s%s%s\xff", run, cases[k].mid, run);
			snprintf(want, sizeof want, "%s%s%s" FFFD, run, cases[k].out, run);
			struct diags d = DIAGS_INIT;
			char *out = clean(in, &d);
			assert_string_equal(out, want);
			if (cases[k].diags) {
				/* one diagnostic a line: at the first bad byte */
				assert_int_equal(d.n, 1);
				assert_int_equal(d.v[0].line, 1);
				assert_int_equal(d.v[0].col, (int)len + 1);
			} else {
				/* the invalid byte at the end, on its line, at the column
				 * after the second run */
				assert_int_equal(d.n, 1);
				assert_int_equal(d.v[0].line, cases[k].line);
				size_t col = cases[k].line == 1 ? 2 * len + strlen(cases[k].mid) + 1
								: len + 1;
				assert_int_equal(d.v[0].col, (int)col);
			}
			free(out);
			diags_free(&d);
		}
}

static void test_empty_and_null_diags(void **state)
{
	(void)state;
	size_t n = 99;
	char *out = utf8_clean(NULL, 0, &n, NULL, NULL);
	assert_non_null(out);
	assert_int_equal(n, 0);
	assert_string_equal(out, "");
	free(out);
	out = utf8_clean("\xFF\xC3\x83\xC2\xA9", 5, NULL, NULL, NULL);
	assert_string_equal(out, FFFD "\xC3\xA9");
	free(out);
}

/* ---- decode/encode and the binary sniffer ------------------------------- */

static void test_decode_encode(void **state)
{
	(void)state;
	static const uint32_t cps[] = {0, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x2019,
				       0xFFFD, 0xFFFF, 0x10000, 0x1F680, 0x10FFFF};
	static const int lens[] = {1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4};
	for (size_t k = 0; k < sizeof cps / sizeof cps[0]; k++) {
		char b[4];
		uint32_t cp = 1;
		int len = utf8_encode(cps[k], b);
		assert_int_equal(len, lens[k]);
		assert_int_equal(utf8_decode(b, (size_t)len, &cp), len);
		assert_int_equal(cp, cps[k]);
	}
	char b[4];
	assert_int_equal(utf8_encode(0xD800, b), 3);
	assert_memory_equal(b, FFFD, 3);
	assert_int_equal(utf8_encode(0x110000, b), 3);
	uint32_t cp;
	assert_int_equal(utf8_decode("\xF0\x9F\x9A\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x1F680);
	assert_int_equal(utf8_decode("\xF0\x9F\x9A\x80", 3, &cp), -3);
	assert_int_equal(cp, 0xFFFD);
	assert_int_equal(utf8_decode("\xE2\x28\xA1", 3, &cp), -1);
}

static void test_looks_binary(void **state)
{
	(void)state;
	assert_false(utf8_looks_binary("", 0));
	assert_false(utf8_looks_binary("# Title\n\nSome *text*.\n", 22));
	assert_true(utf8_looks_binary("PK\x03\x04\0\0", 6));
	const char *latin1 = "Un caf\xE9 na\xEFve \xE0 la fran\xE7" "aise, tr\xE8s bien.\n";
	assert_false(utf8_looks_binary(latin1, strlen(latin1)));
	/* Pseudo-random bytes without NUL. */
	char junk[4096];
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof junk; i++) {
		x = x * 1103515245u + 12345u;
		junk[i] = (char)((x >> 16) | 1);
	}
	assert_true(utf8_looks_binary(junk, sizeof junk));
	/* A NUL after the first 8 KB is not looked at. */
	char *big = malloc(10000);
	memset(big, 'a', 10000);
	big[9000] = '\0';
	assert_false(utf8_looks_binary(big, 10000));
	big[100] = '\0';
	assert_true(utf8_looks_binary(big, 10000));
	free(big);
}

/* One byte of each kind at every place of plain text of every length up to
 * 40 (the scans go sixteen bytes at a time): the byte is handled where it
 * is, and the text around it goes out as it was. */
static void test_byte_at_every_place(void **state)
{
	(void)state;
	struct {
		char byte;
		const char *out; /* what utf8_clean makes of it */
		bool binary;     /* utf8_looks_binary of a short text holding it */
	} kinds[] = {
		{'\t', "\t", false}, {'\n', "\n", false}, {'\r', "\n", false}, {'~', "~", false},
		{' ', " ", false},   {'\x7f', FFFD, false}, {'\x01', FFFD, false},
		{'\x1f', FFFD, false}, {'\x80', FFFD, false}, {'\xff', FFFD, false},
		{'\0', FFFD, true},
	};
	char in[48], want[64];
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
		for (size_t len = 1; len <= 40; len++)
			for (size_t at = 0; at < len; at++) {
				memset(in, 'a', len);
				in[at] = kinds[k].byte;
				snprintf(want, sizeof want, "%.*s%s%.*s", (int)at, in, kinds[k].out,
					 (int)(len - at - 1), in + at + 1);
				struct diags d = DIAGS_INIT;
				size_t n = 0;
				char *out = utf8_clean(in, len, &n, "t.md", &d);
				assert_int_equal(n, strlen(want));
				assert_memory_equal(out, want, n);
				free(out);
				diags_free(&d);
				/* one bad byte in forty: text still, save a NUL */
				if (len == 40)
					assert_int_equal(utf8_looks_binary(in, len), kinds[k].binary);
			}
}

/* Big and pathological inputs stay linear and correct. */
static void test_large_inputs(void **state)
{
	(void)state;
	size_t reps = 200000, n = 0;
	static const char *units[] = {"\xC3\xA9", "\xC3\x83\xC2\xA9", "\xFF", "\r\n", "\xE2\x82"};
	static const char *outs[] = {"\xC3\xA9", "\xC3\xA9", FFFD, "\n", FFFD};
	static const size_t warns[] = {0, 1, 1, 0, 1};
	for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
		size_t ul = strlen(units[k]), ol = strlen(outs[k]);
		char *in = malloc(ul * reps + 1);
		for (size_t i = 0; i < reps; i++)
			memcpy(in + i * ul, units[k], ul);
		struct diags d = DIAGS_INIT;
		char *out = utf8_clean(in, ul * reps, &n, "big", &d);
		assert_int_equal(n, ol * reps);
		for (size_t i = 0; i < reps; i += 997)
			assert_memory_equal(out + i * ol, outs[k], ol);
		/* "\r\n" makes reps lines; the others stay on one line. */
		assert_int_equal(d.n, warns[k]);
		free(in);
		free(out);
		diags_free(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_tails_repaired),
		cmocka_unit_test(test_seed_files),
		cmocka_unit_test(test_mojibake_repaired),
		cmocka_unit_test(test_real_text_untouched),
		cmocka_unit_test(test_mojibake_one_warning_per_line),
		cmocka_unit_test(test_invalid_sequences),
		cmocka_unit_test(test_invalid_positions),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_bom_and_line_endings),
		cmocka_unit_test(test_ascii_runs),
		cmocka_unit_test(test_empty_and_null_diags),
		cmocka_unit_test(test_decode_encode),
		cmocka_unit_test(test_looks_binary),
		cmocka_unit_test(test_byte_at_every_place),
		cmocka_unit_test(test_large_inputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
