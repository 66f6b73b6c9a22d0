/* Tests for sanitize: the raw-HTML allowlist (exact outputs and warning
 * counts, table-driven), the URL scheme check, warnings' path and line,
 * pathological sizes, and a set of XSS filter-evasion classics whose output
 * must carry no script, no handler and no javascript: URL. */
#include "testutil.h"
#include "buf.h"
#include "diag.h"
#include "sanitize.h"

#include <ctype.h>

struct scase {
	const char *in;
	size_t n;          /* 0: strlen(in) */
	const char *want;
	size_t warnings;
};

#define LEN(a) (sizeof(a) - 1)

static const struct scase CASES[] = {
	/* allowed elements kept, names lower-cased, values re-quoted */
	{"<a href=\"https://example.org/\">", 0, "<a href=\"https://example.org/\">", 0},
	{"</a>", 0, "</a>", 0},
	{"<br>", 0, "<br />", 0},
	{"<BR/>", 0, "<br />", 0},
	{"<details open><summary>More</summary>", 0,
	 "<details open=\"\"><summary>More</summary>", 0},
	{"<kbd>Ctrl</kbd>+<kbd>C</kbd>", 0, "<kbd>Ctrl</kbd>+<kbd>C</kbd>", 0},
	{"x<sup>1</sup><sub>2</sub>", 0, "x<sup>1</sup><sub>2</sub>", 0},
	{"<img src=\"logo.png\" alt=\"Logo\" width=100 height='50'>", 0,
	 "<img src=\"logo.png\" alt=\"Logo\" width=\"100\" height=\"50\" />", 0},
	{"<table>\n<tr><TD COLSPAN=2 align=right>x</td></tr>\n</table>", 0,
	 "<table>\n<tr><td colspan=\"2\" align=\"right\">x</td></tr>\n</table>", 0},
	{"<a title='say \"hi\"'>", 0, "<a title=\"say &quot;hi&quot;\">", 0},
	{"<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"dark.png 1x, "
	 "dark@2x.png 2x\"><img src=\"light.png\"></picture>", 0,
	 "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"dark.png 1x, "
	 "dark@2x.png 2x\" /><img src=\"light.png\" /></picture>", 0},
	{"<a name=\"top\" id=\"top\" target=\"_blank\" rel=\"opener\">", 0,
	 "<a name=\"top\" id=\"top\">", 1},
	{"<a href=\"https://a.example/\" href=\"javascript:alert(1)\">", 0,
	 "<a href=\"https://a.example/\">", 0},
	/* event handlers in every spelling, style, class */
	{"<a href=\"x\" onclick=\"alert(1)\">", 0, "<a href=\"x\">", 1},
	{"<a ONCLICK=\"alert(1)\" href=y>", 0, "<a href=\"y\">", 1},
	{"<img src=x onmouseover=alert(1)>", 0, "<img src=\"x\" />", 1},
	{"<img/onload=alert(1)>", 0, "<img />", 1},
	{"<img src=x.png/onerror=alert(1)>", 0, "<img src=\"x.png/onerror=alert(1)\" />", 0},
	{"<img src=\"x.png\"/onerror=alert(1)>", 0, "<img src=\"x.png\" />", 1},
	{"<details open ontoggle=alert(1)>", 0, "<details open=\"\">", 1},
	{"<p style=\"color:red\" class=\"c\">t</p>", 0, "<p>t</p>", 1},
	{"<body onload=alert(1)>", 0, "", 1},
	/* URLs: schemes, entities, case, whitespace */
	{"<a href=\"javascript:alert(1)\">x</a>", 0, "<a>x</a>", 1},
	{"<a href=\"JaVaScRiPt:alert(1)\">", 0, "<a>", 1},
	{"<a href=\"jav&#x09;ascript:alert(1)\">", 0, "<a>", 1},
	{"<a href=\"&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)\">", 0,
	 "<a>", 1},
	{"<a href=\"&#0000106avascript:alert(1)\">", 0, "<a>", 1},
	{"<a href=\"javascript&colon;alert(1)\">", 0, "<a>", 1},
	{"<a href=\" javascript:alert(1)\">", 0, "<a>", 1},
	{"<a href=\"vbscript:msgbox(1)\">", 0, "<a>", 1},
	{"<img src=\"data:image/svg+xml;base64,PHN2Zz4=\">", 0, "<img />", 1},
	{"<a href=\"mailto:a@b.org\">", 0, "<a href=\"mailto:a@b.org\">", 0},
	{"<img src=\"mailto:a@b.org\">", 0, "<img />", 1},
	{"<a href=\"#sec-2\">", 0, "<a href=\"#sec-2\">", 0},
	{"<a href=\"../x/y.html?a=1&amp;b=2#f\">", 0, "<a href=\"../x/y.html?a=1&amp;b=2#f\">", 0},
	{"<a href=\"HTTPS://Example.org/&#x41;\">", 0, "<a href=\"HTTPS://Example.org/A\">", 0},
	{"<source srcset=\"ok.png 1x, javascript:alert(1) 2x\">", 0, "<source />", 1},
	{"<blockquote cite=\"javascript:alert(1)\">", 0, "<blockquote>", 1},
	{"<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>", 0, "<img />", 2},
	/* dropped elements, with and without content */
	{"<div>\n<script>alert(1)</script>\n</div>", 0, "<div>\n\n</div>", 1},
	{"<SCRIPT SRC=//evil/x.js></SCRIPT>", 0, "", 1},
	{"<style>body{display:none}</style><p>x</p>", 0, "<p>x</p>", 1},
	{"<iframe src=\"https://evil.example/\"></iframe>after", 0, "after", 1},
	{"<svg onload=alert(1)><script>alert(2)</script></svg>ok", 0, "ok", 1},
	{"<script>never closed <b>x</b>", 0, "", 1},
	{"<form action=\"x\"><input name=q><button>Go</button></form>", 0, "Go", 3},
	{"</script></iframe></br></img>", 0, "", 0},
	/* nesting tricks */
	{"<scr<script>ipt>alert(1)</scr<script>ipt>", 0,
	 "&lt;scr&lt;script&gt;ipt&gt;alert(1)&lt;/scr&lt;script&gt;ipt&gt;", 0},
	{"<<script>script>alert(1)<</script>/script>", 0, "&lt;/script&gt;", 1},
	/* comments */
	{"<!-- hidden --><b>x</b>", 0, "<b>x</b>", 0},
	{"<!--><b>x</b>", 0, "<b>x</b>", 0},
	{"<!-- a --!><b>x</b>", 0, "<b>x</b>", 0},
	{"<!-- unterminated <script>alert(1)</script>", 0, "", 0},
	/* malformed and unknown markup becomes text */
	{"<a href=\"x", 0, "&lt;a href=\"x", 0},
	{"<b", 0, "&lt;b", 0},
	{"<", 0, "&lt;", 0},
	{"a < b && c > d", 0, "a &lt; b &amp;&amp; c &gt; d", 0},
	{"List<T> and <my-widget>", 0, "List&lt;T&gt; and &lt;my-widget&gt;", 0},
	{"<!DOCTYPE html><?php echo 1; ?>", 0, "&lt;!DOCTYPE html&gt;&lt;?php echo 1; ?&gt;", 0},
	{"</ b>", 0, "&lt;/ b&gt;", 0},
	/* NUL bytes */
	{"<b>\0</b>", LEN("<b>\0</b>"), "<b>\xEF\xBF\xBD</b>", 0},
	{"<scr\0ipt>alert(1)", LEN("<scr\0ipt>alert(1)"), "&lt;scr\xEF\xBF\xBDipt&gt;alert(1)", 0},
	{"<a href=\"java\0script:alert(1)\">", LEN("<a href=\"java\0script:alert(1)\">"), "<a>", 1},
	{"<a title=\"a\0b\">", LEN("<a title=\"a\0b\">"), "<a title=\"a\xEF\xBF\xBD" "b\">", 0},
	/* character references */
	{"&copy; &#169; &#xA9; &#106 &bogus &; &#0; &#x110000;", 0,
	 "&copy; &#169; &#xA9; &#106; &amp;bogus &amp;; &amp;#0; &amp;#x110000;", 0},
	{"<img alt=\"&lt;b&gt; &amp; &quot;q&quot; &eacute; &#233; x&y\">", 0,
	 "<img alt=\"&lt;b&gt; &amp; &quot;q&quot; &eacute; \xC3\xA9 x&amp;y\" />", 0},
	{"<a title=\"&#1;\">", 0, "<a title=\"&#1;\">", 0},
};

static void test_cases(void **state)
{
	(void)state;
	size_t ncases = sizeof CASES / sizeof CASES[0];
	assert_true(ncases >= 40);
	for (size_t i = 0; i < ncases; i++) {
		const struct scase *c = &CASES[i];
		size_t n = c->n ? c->n : strlen(c->in);
		struct buf out = BUF_INIT;
		struct diags d = DIAGS_INIT;
		sanitize_html(c->in, n, &out, "doc.md", 1, &d);
		if (strcmp(buf_cstr(&out), c->want) != 0 || d.n != c->warnings) {
			print_error("case %zu: %s\n  got  [%s] (%zu warnings)\n  want [%s] (%zu)\n", i,
				    c->in, buf_cstr(&out), d.n, c->want, c->warnings);
			diags_print(&d, stderr);
		}
		assert_string_equal(buf_cstr(&out), c->want);
		assert_int_equal(d.n, c->warnings);
		for (size_t k = 0; k < d.n; k++) {
			assert_int_equal(d.v[k].sev, SEV_WARNING);
			assert_string_equal(d.v[k].code, "raw-html");
		}
		buf_free(&out);
		diags_free(&d);
	}
}

static void test_appends(void **state)
{
	(void)state;
	struct buf out = BUF_INIT;
	buf_puts(&out, "<p>");
	sanitize_html("<b>", 3, &out, NULL, 0, NULL);
	sanitize_html("", 0, &out, NULL, 0, NULL);
	assert_string_equal(buf_cstr(&out), "<p><b>");
	buf_free(&out);
}

static void test_warnings_carry_path_and_line(void **state)
{
	(void)state;
	const char *in = "<div>\n<p onclick=x>a</p>\n\n<script>alert(1)</script>\n"
			 "<a href=\"javascript:x\">b</a>\n</div>";
	struct buf out = BUF_INIT;
	struct diags d = DIAGS_INIT;
	sanitize_html(in, strlen(in), &out, "guides/intro.md", 10, &d);
	assert_int_equal(d.n, 3);
	for (size_t i = 0; i < d.n; i++) {
		assert_string_equal(d.v[i].path, "guides/intro.md");
		assert_int_equal(d.v[i].col, 0);
	}
	assert_int_equal(d.v[0].line, 11);
	assert_non_null(strstr(d.v[0].msg, "onclick"));
	assert_int_equal(d.v[1].line, 13);
	assert_non_null(strstr(d.v[1].msg, "<script>"));
	assert_int_equal(d.v[2].line, 14);
	assert_non_null(strstr(d.v[2].msg, "href"));
	/* the printed shape */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	diag_print(&d.v[1], f);
	fclose(f);
	assert_non_null(strstr(text, "guides/intro.md:13:0: warning: raw HTML <script> dropped"));
	free(text);
	buf_free(&out);
	diags_free(&d);
}

static void test_warning_names_are_tame(void **state)
{
	(void)state;
	/* attribute names reach a terminal: no control bytes, bounded length */
	const char in[] = "<b \x1b[31mevil=1 a b c d e f>";
	struct buf out = BUF_INIT;
	struct diags d = DIAGS_INIT;
	sanitize_html(in, LEN(in), &out, "x.md", 1, &d);
	assert_string_equal(buf_cstr(&out), "<b>");
	assert_int_equal(d.n, 1);
	assert_null(strchr(d.v[0].msg, '\x1b'));
	assert_non_null(strstr(d.v[0].msg, "and 3 more"));
	buf_free(&out);
	diags_free(&d);
}

static void test_url_ok(void **state)
{
	(void)state;
	static const char *const good[] = {
		"https://example.org/", "HTTP://x", "mailto:a@b", "/abs/path", "rel/path.html",
		"../up", "#frag", "?q=1", "", "  https://x  ", "//cdn.example/x.png",
		"a/b:c", "https://x/?next=javascript:1",
	};
	static const char *const bad[] = {
		"javascript:alert(1)", "JAVASCRIPT:alert(1)", " \x01javascript:x", "jav\tascript:x",
		"jav\nascript:x", "vbscript:x", "data:text/html,x", "file:///etc/passwd",
		"`javascript:x", "java script:x", "ftp://x", "x:y", "http\x7f://x",
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		if (!sanitize_url_ok(good[i], strlen(good[i])))
			fail_msg("refused good URL [%s]", good[i]);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (sanitize_url_ok(bad[i], strlen(bad[i])))
			fail_msg("accepted bad URL [%s]", bad[i]);
	assert_false(sanitize_url_ok("java\0script:x", LEN("java\0script:x")));
	assert_false(sanitize_url_ok(NULL, 0));
}

static void test_huge_attribute(void **state)
{
	(void)state;
	size_t big = 1u << 20;
	struct buf in = BUF_INIT;
	buf_puts(&in, "<a title=\"");
	for (size_t i = 0; i < big; i++)
		buf_putc(&in, (i % 7) ? 'x' : '&');
	buf_puts(&in, "\">");
	struct buf out = BUF_INIT;
	sanitize_html(in.p, in.n, &out, "x.md", 1, NULL);
	assert_true(out.n > big);
	assert_memory_equal(out.p, "<a title=\"&amp;xxxxxx&amp;", 26);
	assert_string_equal(out.p + out.n - 2, "\">");
	buf_free(&out);
	buf_free(&in);
}

static void test_unterminated_flood_is_linear(void **state)
{
	(void)state;
	/* 300k unterminated tags, quotes and comments: must stay linear */
	static const char *const units[] = {"<a ", "<a \"", "<!--", "</x ", "<script>"};
	for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
		struct buf in = BUF_INIT;
		for (size_t i = 0; i < 300000; i++)
			buf_puts(&in, units[u]);
		struct buf out = BUF_INIT;
		struct diags d = DIAGS_INIT;
		sanitize_html(in.p, in.n, &out, "x.md", 1, &d);
		assert_null(memchr(buf_cstr(&out), '<', out.n));
		assert_true(d.n <= 1);
		buf_free(&out);
		buf_free(&in);
		diags_free(&d);
	}
}

/* ---- hostile fragments -------------------------------------------------- */

static const char *const HOSTILE[] = {
	"<SCRIPT SRC=http://xss.rocks/xss.js></SCRIPT>",
	"<IMG SRC=\"javascript:alert('XSS');\">",
	"<IMG SRC=javascript:alert('XSS')>",
	"<IMG SRC=JaVaScRiPt:alert('XSS')>",
	"<IMG SRC=javascript:alert(&quot;XSS&quot;)>",
	"<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
	"<a onmouseover=\"alert(document.cookie)\">xxs link</a>",
	"<a onmouseover=alert(document.cookie)>xxs link</a>",
	"<IMG \"\"\"><SCRIPT>alert(\"XSS\")</SCRIPT>\">",
	"<IMG SRC=# onmouseover=\"alert('xxs')\">",
	"<IMG SRC=/ onerror=\"alert(String.fromCharCode(88,83,83))\"></img>",
	"<img src=x onerror=\"&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114"
	"&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116"
	"&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041\">",
	"<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;"
	"&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
	"<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72"
	"&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>",
	"<IMG SRC=\"jav\tascript:alert('XSS');\">",
	"<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">",
	"<IMG SRC=\"jav&#x0A;ascript:alert('XSS');\">",
	"<IMG SRC=\"jav&#x0D;ascript:alert('XSS');\">",
	"<IMG SRC=\" &#14;  javascript:alert('XSS');\">",
	"<SCRIPT/XSS SRC=\"http://xss.rocks/xss.js\"></SCRIPT>",
	"<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert(\"XSS\")>",
	"<<SCRIPT>alert(\"XSS\");//\\<</SCRIPT>",
	"<SCRIPT SRC=http://xss.rocks/xss.js?< B >",
	"<iframe src=http://xss.rocks/scriptlet.html <",
	"</TITLE><SCRIPT>alert(\"XSS\");</SCRIPT>",
	"<INPUT TYPE=\"IMAGE\" SRC=\"javascript:alert('XSS');\">",
	"<BODY BACKGROUND=\"javascript:alert('XSS')\">",
	"<svg/onload=alert('XSS')>",
	"<LINK REL=\"stylesheet\" HREF=\"javascript:alert('XSS');\">",
	"<META HTTP-EQUIV=\"refresh\" CONTENT=\"0;url=javascript:alert('XSS');\">",
	"<TABLE BACKGROUND=\"javascript:alert('XSS')\">",
	"<DIV STYLE=\"background-image: url(javascript:alert('XSS'))\">",
	"<OBJECT TYPE=\"text/x-scriptlet\" DATA=\"http://xss.rocks/scriptlet.html\"></OBJECT>",
	"<EMBED SRC=\"data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv\">",
	"<a href=\"&#x6A;avascript&#x3A;alert(1)\">x</a>",
	"<a href=\"java&Tab;script&colon;alert(1)\">x</a>",
	"<a href=\"java&NewLine;script:alert(1)\">x</a>",
	"<img src=\"x\" alt=\"x\" onerror&#x3D;alert(1)>",
	"<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
	"<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
	"<a href=\"https://ok.example/\" onfocus=alert(1) autofocus>",
	"<xss onpointerenter=alert(1)>hover</xss>",
	"<a href=\"vbscript:msgbox(1)\">x</a><a href=\"VBScript:x\">y</a>",
	"<img src=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">",
	"<scr<script>ipt>alert(1)</scr</script>ipt>",
	"<div><script>alert(1)</script><p onclick=alert(1)>x</p></div>",
	"<a href=\"javascript:alert(1)\" href=\"https://x\">x</a>",
	"<textarea><img src=x onerror=alert(1)></textarea>",
	"<template><script>alert(1)</script></template>",
	"<a\nhref\n=\njavascript:alert(1)\n>x</a>",
};

static const char *const TEST_ALLOWED[] = {
	"a", "abbr", "b", "bdi", "bdo", "blockquote", "br", "caption", "cite", "code", "dd",
	"del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2",
	"h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p",
	"picture", "pre", "q", "rp", "rt", "ruby", "s", "samp", "small", "source", "span",
	"strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th",
	"thead", "time", "tr", "tt", "u", "ul", "var", "wbr",
};

static bool allowed_name(const char *p, size_t n)
{
	for (size_t i = 0; i < sizeof TEST_ALLOWED / sizeof TEST_ALLOWED[0]; i++)
		if (strlen(TEST_ALLOWED[i]) == n && memcmp(TEST_ALLOWED[i], p, n) == 0)
			return true;
	return false;
}

/* Walk every tag of an output and check what a browser would make of it:
 * allowlisted lower-case names, attributes `name="value"` with no on* name,
 * no style, no quote or '<' inside a value. */
static void check_tags(const char *in, const char *out)
{
	const char *p = out;
	while ((p = strchr(p, '<')) != NULL) {
		p++;
		if (*p == '/')
			p++;
		const char *b = p;
		while (islower((unsigned char)*p) || isdigit((unsigned char)*p))
			p++;
		if (!allowed_name(b, (size_t)(p - b)))
			fail_msg("input %s: output %s: bad tag at %s", in, out, b);
		for (;;) {
			while (*p == ' ')
				p++;
			if (*p == '>' || (p[0] == '/' && p[1] == '>'))
				break;
			const char *k = p;
			while (islower((unsigned char)*p) || *p == '-')
				p++;
			if (p == k || p[0] != '=' || p[1] != '"')
				fail_msg("input %s: output %s: malformed attribute at %s", in, out, k);
			if (!strncmp(k, "on", 2) || !strncmp(k, "style", 5))
				fail_msg("input %s: output %s: attribute %.*s", in, out, (int)(p - k), k);
			p += 2;
			const char *v = p;
			while (*p && *p != '"' && *p != '<' && *p != '>')
				p++;
			if (*p != '"')
				fail_msg("input %s: output %s: bad value at %s", in, out, v);
			p++;
		}
	}
}

static void test_hostile(void **state)
{
	(void)state;
	size_t nh = sizeof HOSTILE / sizeof HOSTILE[0];
	assert_true(nh >= 30);
	for (size_t i = 0; i < nh; i++) {
		struct buf out = BUF_INIT;
		struct diags d = DIAGS_INIT;
		sanitize_html(HOSTILE[i], strlen(HOSTILE[i]), &out, "evil.md", 1, &d);
		const char *o = buf_cstr(&out);
		if (strcasestr(o, "<script") || strcasestr(o, "javascript:") ||
		    strcasestr(o, "vbscript:") || strcasestr(o, "data:"))
			fail_msg("hostile %zu: %s -> %s", i, HOSTILE[i], o);
		check_tags(HOSTILE[i], o);
		/* every hostile case but the already-escaped text ones says something */
		if (!strstr(o, "&lt;") && d.n == 0)
			fail_msg("hostile %zu: %s -> %s without a warning", i, HOSTILE[i], o);
		buf_free(&out);
		diags_free(&d);
	}
}

/* The check_tags walker itself must catch what it is there to catch. */
static void test_checker_is_not_vacuous(void **state)
{
	(void)state;
	assert_non_null(strcasestr("<a href=\"JavaScript:x\">", "javascript:"));
	assert_false(allowed_name("script", 6));
	assert_true(allowed_name("img", 3));
}

/* A URL with a control byte anywhere is refused: each length from 1 to 70
 * (the check goes sixteen bytes at a time, the last sixteen overlapping),
 * each place, each of NUL, 0x01, 0x1F and DEL; the same URL without it
 * passes, and so does one with bytes from 0x20 up and UTF-8. */
static void test_url_control_at_every_place(void **state)
{
	(void)state;
	static const unsigned char controls[] = {0x00, 0x01, 0x1F, 0x7F};
	char u[80];
	for (size_t n = 1; n <= 70; n++) {
		for (size_t i = 0; i < n; i++)
			u[i] = (char)("abcdefghij/~ \x80\xff"[i % 14]);
		u[0] = 'a'; /* no leading space trimmed */
		u[n - 1] = 'z';
		assert_true(sanitize_url_ok(u, n));
		for (size_t at = 0; at < n; at++)
			for (size_t c = 0; c < sizeof controls; c++) {
				char was = u[at];
				u[at] = (char)controls[c];
				/* a control at either end is trimmed as white space (below 0x21) */
				bool trimmed = controls[c] != 0x7F && (at == 0 || at == n - 1);
				assert_int_equal(sanitize_url_ok(u, n), trimmed);
				u[at] = was;
			}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_warnings_carry_path_and_line),
		cmocka_unit_test(test_warning_names_are_tame),
		cmocka_unit_test(test_url_ok),
		cmocka_unit_test(test_huge_attribute),
		cmocka_unit_test(test_unterminated_flood_is_linear),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_checker_is_not_vacuous),
		cmocka_unit_test(test_url_control_at_every_place),
	};
	return cmocka_run_group_tests_name("sanitize", tests, NULL, NULL);
}
