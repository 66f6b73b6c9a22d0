/* test_buf: HTML and JSON escaping against plain references: every special
 * character (and bytes near them) at every position of strings of every
 * length up to 40, two at once, and random text; appended after what the
 * buffer holds, and still a C string. */
#include "testutil.h"

#include "buf.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_special_everywhere),
		cmocka_unit_test(test_random_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
