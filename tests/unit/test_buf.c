/* test_buf: HTML and JSON escaping against plain references: every special
 * character (and bytes near them) at every position of strings of every
 * length up to 40, two at once, and random text; appended after what the
 * buffer holds, and still a C string. Whole files read into a buffer.
 * Numbers in decimal as printf writes them. */
#include "testutil.h"

#include "buf.h"
#include "output.h"

#include <unistd.h>

static void reference_html(struct buf *b, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (p[i]) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		case '\'': buf_puts(b, "&#39;"); break;
		default: buf_put(b, p + i, 1);
		}
	}
}

static void reference_json(struct buf *b, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c == '"')
			buf_puts(b, "\\\"");
		else if (c == '\\')
			buf_puts(b, "\\\\");
		else if (c == '\n')
			buf_puts(b, "\\n");
		else if (c == '\t')
			buf_puts(b, "\\t");
		else if (c == '\r')
			buf_puts(b, "\\r");
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			buf_printf(b, "\\u%04x", c);
		else
			buf_put(b, p + i, 1);
	}
}

typedef void (*escape_fn)(struct buf *b, const char *p, size_t n);

static void expect_escaped(escape_fn fast, escape_fn reference, const char *p, size_t n)
{
	struct buf got = BUF_INIT, want = BUF_INIT;
	buf_puts(&got, "x"); /* appended after what is there */
	buf_puts(&want, "x");
	fast(&got, p, n);
	reference(&want, p, n);
	assert_int_equal(got.n, want.n);
	assert_memory_equal(got.p, want.p, got.n);
	assert_int_equal(got.p[got.n], '\0');
	buf_free(&got);
	buf_free(&want);
}

static void expect_same(const char *p, size_t n)
{
	expect_escaped(buf_put_html, reference_html, p, n);
	expect_escaped(buf_put_json, reference_json, p, n);
}

static void test_each_special_everywhere(void **state)
{
	(void)state;
	/* bytes next to the specials' values too, and high bytes (UTF-8) */
	static const char specials[] = "&<>\"'%=;!#(\xc3\xa9\x7f\\\n\t\r\x01\x1f\x80\xff";
	char s[48];
	for (size_t len = 0; len <= 40; len++)
		for (size_t k = 0; k < sizeof specials - 1; k++)
			for (size_t at = 0; at < len || (len == 0 && at == 0); at++) {
				memset(s, 'a', len);
				if (len)
					s[at] = specials[k];
				expect_same(s, len);
				/* and two of them, the second a word further */
				if (at + 9 < len) {
					s[at + 9] = specials[(k + 1) % (sizeof specials - 1)];
					expect_same(s, len);
				}
			}
}

static void test_random_text(void **state)
{
	(void)state;
	static const char alphabet[] = "abc /:.&<>\"'\n\t\xe2\x80\x94\\\x02\x7f";
	unsigned seed = 12345;
	char s[300];
	for (int round = 0; round < 2000; round++) {
		size_t len = (size_t)(round % 300);
		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			s[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
		}
		expect_same(s, len);
	}
}

/* A file read whole, after what the buffer holds: larger than any one read,
 * empty, or one whose size stat does not tell (/proc); buf_read_regular
 * refuses a symlink and a file over its limit. */
/* Numbers in decimal as printf writes them: every one below 100,000 (each
 * width the inline path takes, and past it), the edges of each width, the
 * largest. */
static void test_decimal(void **state)
{
	(void)state;
	char got[24], want[24];
	for (unsigned long long v = 0; v < 100000; v++) {
		*put_decimal(got, v) = '\0';
		snprintf(want, sizeof want, "%llu", v);
		assert_string_equal(got, want);
	}
	unsigned long long edge = 10;
	for (int k = 1; k < 20; k++, edge *= 10)
		for (unsigned long long v = edge - 1; v <= edge + 1; v++) {
			*put_decimal(got, v) = '\0';
			snprintf(want, sizeof want, "%llu", v);
			assert_string_equal(got, want);
		}
	*put_decimal(got, ~0ULL) = '\0';
	assert_string_equal(got, "18446744073709551615");
	struct buf b = BUF_INIT;
	buf_put_uint(&b, 0);
	buf_putc(&b, ' ');
	buf_put_uint(&b, 4096);
	assert_string_equal(buf_cstr(&b), "0 4096");
	buf_free(&b);
}

static void test_read_files(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-buf-XXXXXX";
	assert_non_null(mkdtemp(dir));
	size_t n = 300000;
	char *text = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		text[i] = (char)('a' + (i * 7 + i / 1000) % 26);
	text[n] = '\0';
	test_put_file(dir, "big.txt", text);
	test_put_file(dir, "empty.txt", "");
	char *big = path_join(dir, "big.txt"), *empty = path_join(dir, "empty.txt");
	char *link = path_join(dir, "link.txt");
	assert_int_equal(symlink(big, link), 0);
	for (int regular = 0; regular < 2; regular++) {
		struct buf b = BUF_INIT;
		buf_puts(&b, "head:");
		int rc = regular ? buf_read_regular(&b, big, n) : buf_read_file(&b, big);
		assert_int_equal(rc, 0);
		assert_int_equal(b.n, 5 + n);
		assert_memory_equal(b.p, "head:", 5);
		assert_memory_equal(b.p + 5, text, n);
		assert_int_equal(b.p[b.n], '\0');
		rc = regular ? buf_read_regular(&b, empty, 10) : buf_read_file(&b, empty);
		assert_int_equal(rc, 0);
		assert_int_equal(b.n, 5 + n);
		buf_free(&b);
	}
	struct buf b = BUF_INIT;
	assert_int_equal(buf_read_regular(&b, big, n - 1), -1);
	assert_int_equal(buf_read_regular(&b, link, n), -1);
	assert_int_equal(buf_read_file(&b, link), 0); /* a plain read follows it */
	assert_int_equal(b.n, n);
	buf_reset(&b);
	assert_int_equal(buf_read_file(&b, "/proc/self/status"), 0);
	assert_non_null(strstr(b.p, "Name:"));
	assert_int_equal(strlen(b.p), b.n);
	assert_int_equal(buf_read_file(&b, "/no/such/file"), -1);
	buf_free(&b);
	free(text);
	free(big);
	free(empty);
	free(link);
	assert_int_equal(output_remove_tree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_special_everywhere),
		cmocka_unit_test(test_random_text),
		cmocka_unit_test(test_read_files),
		cmocka_unit_test(test_decimal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
