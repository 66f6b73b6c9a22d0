/* regress: one test per crash, leak, race, timeout or blow-up found while
 * hardening (issue 9: fuzzing and hostile content), so none comes back.
 * Each test names what went wrong before the fix. */
#include "testutil.h"
#include "ast.h"
#include "buf.h"
#include "config.h"
#include "diag.h"
#include "md.h"
#include "mustache.h"
#include "rst.h"
#include "sanitize.h"
#include "source.h"
#include "url.h"
#include "utf8.h"

#include <pthread.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers ---------------------------------------------------------------- */

static size_t count_type(cmark_node *root, cmark_node_type t)
{
	size_t n = 0;
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
		if (ev == CMARK_EVENT_ENTER && cmark_node_get_type(cmark_iter_get_node(it)) == t)
			n++;
	cmark_iter_free(it);
	return n;
}

/* Deepest nesting of block quotes and lists. */
static int container_depth(cmark_node *root)
{
	int depth = 0, max = 0;
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node_type t = cmark_node_get_type(cmark_iter_get_node(it));
		if (t != CMARK_NODE_BLOCK_QUOTE && t != CMARK_NODE_LIST)
			continue;
		depth += ev == CMARK_EVENT_ENTER ? 1 : -1;
		if (depth > max)
			max = depth;
	}
	cmark_iter_free(it);
	return max;
}

static bool has_text(cmark_node *root, const char *s)
{
	bool found = false;
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		const char *lit = cmark_node_get_literal(n);
		if (ev == CMARK_EVENT_ENTER && lit && strstr(lit, s))
			found = true;
	}
	cmark_iter_free(it);
	return found;
}

static size_t count_code(const struct diags *d, const char *code)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].code && !strcmp(d->v[i].code, code))
			n++;
	return n;
}

static char *repeat(const char *s, size_t times, const char *tail)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < times; i++)
		buf_puts(&b, s);
	buf_puts(&b, tail);
	return buf_detach(&b);
}

/* ---- Markdown: parallel parses lost autolinks --------------------------------- */

/* cmark-gfm 0.29 keeps the inline special characters in a process-wide table
 * that each parser's finish resets: with -j 2, bare URLs (and ~~ and |)
 * stopped being recognised at random and citations vanished from the site. */
#define URLS_PER_DOC 300
#define PARSES_PER_THREAD 60

static size_t count_str(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Even threads parse autolinks only, odd ones autolinks and strikethrough:
 * neither may lose the other's special characters. */
static void *parse_many(void *arg)
{
	const char *text = arg;
	size_t bad = 0, strikes = count_str(text, "~~") / 2;
	for (int i = 0; i < PARSES_PER_THREAD; i++) {
		struct diags d = DIAGS_INIT;
		cmark_node *doc = md_parse(text, strlen(text), "t.md", false, &d);
		char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, ast_extensions());
		if (count_type(doc, CMARK_NODE_LINK) != URLS_PER_DOC || count_str(html, "<del>") != strikes)
			bad++;
		free(html);
		cmark_node_free(doc);
		diags_free(&d);
	}
	return (void *)bad;
}

static void test_md_parallel_autolinks(void **state)
{
	(void)state;
	if (getenv("REGRESS_QUICK")) /* valgrind runs threads one at a time anyway */
		skip();
	ast_init();
	struct buf b = BUF_INIT, st = BUF_INIT;
	for (int i = 0; i < URLS_PER_DOC; i++) {
		buf_printf(&b, "- **Item %d**: https://example.org/r/%d\n", i, i);
		buf_printf(&st, "- **Item %d** ~~old~~: https://example.org/r/%d\n", i, i);
	}
	pthread_t th[4];
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&th[i], NULL, parse_many, i % 2 ? st.p : b.p), 0);
	size_t bad = 0;
	for (int i = 0; i < 4; i++) {
		void *r;
		pthread_join(th[i], &r);
		bad += (size_t)r;
	}
	assert_int_equal(bad, 0);
	buf_free(&b);
	buf_free(&st);
}

/* ---- Markdown: 100,000-level nesting ------------------------------------------- */

/* 100,000 '>' built 100,000 nested <blockquote> elements with no warning:
 * limits.max_nesting did not apply to Markdown. */
static void test_md_deep_quotes(void **state)
{
	(void)state;
	ast_init();
	char *text = repeat(">", 100000, " deep text\n");
	struct diags d = DIAGS_INIT;
	cmark_node *doc = md_parse(text, strlen(text), "q.md", false, &d);
	assert_true(container_depth(doc) <= MD_DEFAULT_MAX_DEPTH);
	assert_true(has_text(doc, "deep text"));
	assert_int_equal(count_code(&d, "too-deep"), 1);
	assert_int_equal(d.v[0].line, 1);
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, NULL);
	assert_non_null(strstr(html, "deep text"));
	free(html);
	cmark_node_free(doc);
	diags_free(&d);
	free(text);
}

static void test_md_deep_lists(void **state)
{
	(void)state;
	ast_init();
	char *text = repeat("- ", 100000, "deep item\n");
	struct diags d = DIAGS_INIT;
	cmark_node *doc = md_parse_depth(text, strlen(text), "l.md", false, 10, false, &d);
	assert_true(container_depth(doc) <= 10);
	assert_true(has_text(doc, "deep item"));
	assert_int_equal(count_code(&d, "too-deep"), 1);
	cmark_node_free(doc);
	diags_free(&d);
	free(text);
	/* indented nesting keeps every paragraph, in order */
	struct buf b = BUF_INIT;
	for (int i = 0; i < 50; i++) {
		for (int k = 0; k < i; k++)
			buf_puts(&b, "  ");
		buf_printf(&b, "- item%d\n", i);
	}
	struct diags d2 = DIAGS_INIT;
	doc = md_parse_depth(b.p, b.n, "l.md", false, 5, false, &d2);
	assert_true(container_depth(doc) <= 5);
	for (int i = 0; i < 50; i++) {
		char want[16];
		snprintf(want, sizeof want, "item%d", i);
		assert_true(has_text(doc, want));
	}
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, NULL);
	assert_true(strstr(html, "item48") < strstr(html, "item49"));
	free(html);
	cmark_node_free(doc);
	diags_free(&d2);
	buf_free(&b);
}

/* The nesting limit and the safety pass share one walk of the tree: raw HTML
 * and unsafe links inside lists nested too deep are still made safe once
 * those lists are flattened (the HTML nodes the walk found are moved, never
 * freed, by the flattening). */
static void test_md_deep_lists_unsafe_inside(void **state)
{
	(void)state;
	ast_init();
	struct buf b = BUF_INIT;
	for (int i = 0; i < 12; i++) {
		for (int k = 0; k < i; k++)
			buf_puts(&b, "  ");
		buf_printf(&b, "- level%d <b>bold</b> [x](javascript:alert(%d))\n", i, i);
	}
	for (int k = 0; k < 12; k++)
		buf_puts(&b, "  ");
	buf_puts(&b, "\n");
	for (int k = 0; k < 12; k++)
		buf_puts(&b, "  ");
	buf_puts(&b, "<script>alert(1)</script>\n");
	struct diags d = DIAGS_INIT;
	cmark_node *doc = md_parse_depth(b.p, b.n, "u.md", true, 4, false, &d);
	assert_true(container_depth(doc) <= 4);
	assert_int_equal(count_code(&d, "too-deep"), 1);
	assert_int_equal(count_code(&d, "unsafe-url"), 12);
	assert_int_equal(count_type(doc, CMARK_NODE_HTML_INLINE), 0);
	assert_int_equal(count_type(doc, CMARK_NODE_HTML_BLOCK), 0);
	assert_true(has_text(doc, "level11"));
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT | CMARK_OPT_UNSAFE, NULL);
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<b>"));
	assert_null(strstr(html, "javascript:"));
	assert_non_null(strstr(html, "<p class=\"raw-html\">&lt;script&gt;"));
	free(html);
	cmark_node_free(doc);
	diags_free(&d);
	buf_free(&b);
}

/* The reader parses a source's body without cmark-gfm's UTF-8 check
 * (md_parse_depth, utf8_valid): utf8_clean's output must be text that check
 * leaves as it is. Bytes of every kind of invalid sequence (stray and
 * missing continuations, overlongs, surrogates, past U+10FFFF, cut at the
 * end), cleaned, parse to the same tree with and without the check. */
static void test_clean_text_needs_no_second_check(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"caf\xC3\xA9 \x80 stray", "lead \xC3 alone", "over \xC0\xAF long",
		"sur \xED\xA0\x80 rogate", "big \xF4\x90\x80\x80 end", "cut \xE2\x82",
		"ctl \x01\x7F bytes", "moj \xC3\xA2\xE2\x82\xAC\xE2\x84\xA2 bake",
		"- [t\xFF](https://ex.com/\xFE) - d\xC3\n\n| a\xE0 | b |\n|---|---|\n| \xF0 | x |"};
	int raw_differ = 0;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		size_t n;
		char *clean = utf8_clean(bad[i], strlen(bad[i]), &n, "c.md", NULL);
		struct diags d1 = DIAGS_INIT, d2 = DIAGS_INIT;
		cmark_node *checked = md_parse_depth(clean, n, "c.md", false, 0, false, &d1);
		cmark_node *trusted = md_parse_depth(clean, n, "c.md", false, 0, true, &d2);
		char *a = cmark_render_xml(checked, CMARK_OPT_DEFAULT);
		char *b = cmark_render_xml(trusted, CMARK_OPT_DEFAULT);
		assert_string_equal(a, b);
		free(a);
		free(b);
		cmark_node_free(checked);
		cmark_node_free(trusted);
		/* the same bytes uncleaned: the check changes them (what the
		 * test would miss if cleaning let them through) */
		checked = md_parse_depth(bad[i], strlen(bad[i]), "c.md", false, 0, false, &d1);
		trusted = md_parse_depth(bad[i], strlen(bad[i]), "c.md", false, 0, true, &d2);
		a = cmark_render_xml(checked, CMARK_OPT_DEFAULT);
		b = cmark_render_xml(trusted, CMARK_OPT_DEFAULT);
		raw_differ += strcmp(a, b) != 0;
		free(a);
		free(b);
		cmark_node_free(checked);
		cmark_node_free(trusted);
		diags_free(&d1);
		diags_free(&d2);
		free(clean);
	}
	/* all but the controls and the mojibake, which are valid UTF-8 */
	assert_int_equal(raw_differ, 7);
}

/* A 40,000-cell table row took 12 s to parse and render (cmark-gfm's tables
 * are quadratic in the cells of a row); rows past MD_MAX_TABLE_CELLS are
 * text now. Small tables stay tables. */
static void test_md_wide_table(void **state)
{
	(void)state;
	if (getenv("REGRESS_QUICK")) /* timed: meaningless under valgrind */
		skip();
	ast_init();
	struct buf b = BUF_INIT;
	for (int row = 0; row < 3; row++) {
		buf_putc(&b, '|');
		for (int i = 0; i < 40000; i++)
			buf_puts(&b, row == 1 ? "-|" : "x|");
		buf_putc(&b, '\n');
	}
	buf_puts(&b, "\n|a|b|\n|-|-|\n|1|2|\n");
	struct diags d = DIAGS_INIT;
	time_t t0 = time(NULL);
	cmark_node *doc = md_parse(b.p, b.n, "w.md", false, &d);
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, ast_extensions());
	assert_true(time(NULL) - t0 < 5);
	assert_int_equal(count_code(&d, "too-wide"), 1);
	assert_int_equal(d.v[0].line, 1);
	/* the small table is still one */
	const char *t = strstr(html, "<table>");
	assert_non_null(t);
	assert_null(strstr(t + 1, "<table>"));
	assert_non_null(strstr(html, "x|x|x"));
	free(html);
	cmark_node_free(doc);
	diags_free(&d);
	buf_free(&b);
}

/* "![[]()" 40,000 times in one paragraph took 11 s: Debian's cmark-gfm walks
 * every image opener still open for each link it closes (CVE-2023-22486).
 * Such openers are text now, with one warning; images that close (a list of
 * 3,000 badges beside as many links) stay images, unreported. */
static void test_md_open_images(void **state)
{
	(void)state;
	if (getenv("REGRESS_QUICK")) /* timed: meaningless under valgrind */
		skip();
	ast_init();
	struct buf b = BUF_INIT;
	buf_puts(&b, "intro\n\n");
	for (int i = 0; i < 40000; i++)
		buf_puts(&b, "![[]()");
	/* after an escaped backslash an opener is one all the same */
	buf_puts(&b, "\n\n");
	for (int i = 0; i < 40000; i++)
		buf_puts(&b, "\\\\![[]()");
	buf_puts(&b, "\n\n");
	for (int i = 0; i < 3000; i++)
		buf_printf(&b, "- [r%d](https://r%d.org/) ![stars](https://img.example/%d.svg)\n", i, i, i);
	struct diags d = DIAGS_INIT;
	time_t t0 = time(NULL);
	cmark_node *doc = md_parse(b.p, b.n, "o.md", false, &d);
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, ast_extensions());
	assert_true(time(NULL) - t0 < 5);
	assert_int_equal(count_code(&d, "too-many-brackets"), 1); /* one per document */
	assert_int_equal(d.v[0].line, 3);
	assert_non_null(strstr(html, "![<a href=\"\"></a>"));
	assert_non_null(strstr(html, "\\![<a href=\"\"></a>"));
	size_t imgs = 0;
	for (const char *p = html; (p = strstr(p, "<img ")); p++)
		imgs++;
	assert_int_equal(imgs, 3000);
	free(html);
	cmark_node_free(doc);
	diags_free(&d);
	buf_free(&b);
}

/* The scans for openers that never close are skipped for a text holding
 * no opener of any kind: a text holding one kind alone (each of the three)
 * is still scanned and tamed, and so is a text of many pipes in one line
 * among few elsewhere. */
static void test_md_tamed_by_one_kind_alone(void **state)
{
	(void)state;
	ast_init();
	static const char *const openers[] = {"![", "<?", "<![CDATA["};
	for (size_t k = 0; k < 3; k++) {
		struct buf b = BUF_INIT;
		buf_puts(&b, "a ");
		for (int i = 0; i < 20000; i++)
			buf_puts(&b, openers[k]);
		for (int i = 0; k == 0 && i < 200; i++)
			buf_puts(&b, " [l](u)"); /* image openers cost with links */
		buf_puts(&b, "\n");
		struct diags d = DIAGS_INIT;
		cmark_node *doc = md_parse(b.p, b.n, "k.md", true, &d);
		assert_int_equal(count_code(&d, "too-many-brackets"), 1);
		cmark_node_free(doc);
		diags_free(&d);
		buf_free(&b);
	}
	struct buf b = BUF_INIT;
	buf_puts(&b, "| a | b |\n|---|---|\n| 1 | 2 |\n\n");
	for (int i = 0; i < MD_MAX_TABLE_CELLS + 10; i++)
		buf_puts(&b, "| x ");
	buf_puts(&b, "|\n");
	struct diags d = DIAGS_INIT;
	cmark_node *doc = md_parse(b.p, b.n, "w.md", true, &d);
	assert_int_equal(count_code(&d, "too-wide"), 1);
	assert_int_equal(d.v[0].line, 5);
	cmark_node_free(doc);
	diags_free(&d);
	buf_free(&b);
}

/* Raw HTML openers "<?" and "<![CDATA[" that never close each scanned the
 * rest of the paragraph ("<![CDATA[" 80,000 times: 17.5 s): past the bound
 * they are text, with a warning each kind; ones that close are kept. */
static void test_md_open_raw_html(void **state)
{
	(void)state;
	if (getenv("REGRESS_QUICK")) /* timed: meaningless under valgrind */
		skip();
	ast_init();
	struct buf b = BUF_INIT;
	buf_puts(&b, "a <?x?> <![CDATA[y]]>\n\na ");
	for (int i = 0; i < 40000; i++)
		buf_puts(&b, "<?");
	buf_puts(&b, "\n\na ");
	for (int i = 0; i < 40000; i++)
		buf_puts(&b, "<![CDATA[");
	buf_puts(&b, "\n");
	struct diags d = DIAGS_INIT;
	time_t t0 = time(NULL);
	cmark_node *doc = md_parse(b.p, b.n, "h.md", true, &d);
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, ast_extensions());
	assert_true(time(NULL) - t0 < 5);
	assert_int_equal(count_code(&d, "too-many-brackets"), 2);
	assert_int_equal(d.v[0].line, 3);
	assert_int_equal(d.v[1].line, 5);
	/* the first paragraph's closed ones are raw HTML (shown as text here,
	 * escape_html being on): one of each, not 40,000 */
	assert_non_null(strstr(html, "&lt;?x?&gt;"));
	assert_non_null(strstr(html, "&lt;?&lt;?&lt;?"));
	free(html);
	cmark_node_free(doc);
	diags_free(&d);
	buf_free(&b);
}

/* A reference definition lends its target and title to every link naming
 * it: one of 20 KB named 2,000 times made 80 MB. A target past MD_MAX_URL is
 * removed (a warning per link), a title cut to MD_MAX_LINK_TITLE. */
static void test_md_long_reference(void **state)
{
	(void)state;
	ast_init();
	struct buf b = BUF_INIT;
	for (int i = 0; i < 3; i++)
		buf_puts(&b, "- [r][u] and [s][t]\n");
	buf_puts(&b, "\n[u]: https://x.org/");
	for (int i = 0; i < 20000; i++)
		buf_putc(&b, 'p');
	buf_puts(&b, "\n[t]: https://y.org/ \"");
	for (int i = 0; i < 5000; i++)
		buf_puts(&b, "ti ");
	buf_puts(&b, "\"\n");
	struct diags d = DIAGS_INIT;
	cmark_node *doc = md_parse(b.p, b.n, "r.md", false, &d);
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, ast_extensions());
	assert_int_equal(count_code(&d, "unsafe-url"), 3);
	assert_non_null(strstr(d.v[0].msg, "longer than 8192 bytes removed"));
	assert_null(strstr(html, "pppp"));
	assert_non_null(strstr(html, "href=\"https://y.org/\""));
	assert_true(strlen(html) < 3 * (MD_MAX_LINK_TITLE + 200) + 1000);
	free(html);
	cmark_node_free(doc);
	diags_free(&d);
	buf_free(&b);
}

/* Within the limit nothing changes and nothing is reported. */
static void test_md_nesting_within_limit(void **state)
{
	(void)state;
	ast_init();
	const char *text = "> > > a\n\n- b\n  - c\n    - d\n";
	struct diags d = DIAGS_INIT;
	cmark_node *doc = md_parse(text, strlen(text), "ok.md", false, &d);
	assert_int_equal(container_depth(doc), 3);
	assert_int_equal(d.n, 0);
	cmark_node_free(doc);
	diags_free(&d);
}

/* ---- diagnostics stay one line ------------------------------------------------ */

/* "[x](jav&#10;ascript:...)" put a newline into the unsafe-url warning, which
 * broke the path:line:col: severity: message shape of the report. */
static void test_md_unsafe_url_message_one_line(void **state)
{
	(void)state;
	ast_init();
	const char *text = "[nl](jav&#10;ascript:alert(1)) [tab](jav&#x09;ascript:x)\n";
	struct diags d = DIAGS_INIT;
	cmark_node *doc = md_parse(text, strlen(text), "u.md", false, &d);
	assert_int_equal(count_code(&d, "unsafe-url"), 2);
	for (size_t i = 0; i < d.n; i++) {
		assert_null(strchr(d.v[i].msg, '\n'));
		assert_null(strchr(d.v[i].msg, '\t'));
	}
	assert_non_null(strstr(d.v[0].msg, "jav\\nascript:"));
	cmark_node_free(doc);
	diags_free(&d);
}

/* ---- reStructuredText --------------------------------------------------------- */

/* 50,000 undefined substitutions gave 50,000 warnings (7 MB of report). */
static void test_rst_warning_flood_capped(void **state)
{
	(void)state;
	ast_init();
	char *text = repeat("|x| ", 50000, "\n");
	struct diags d = DIAGS_INIT;
	cmark_node *doc = rst_parse(text, strlen(text), "f.rst", NULL, &d);
	assert_non_null(doc);
	assert_true(d.n > 10);
	assert_true(d.n <= 201);
	assert_non_null(strstr(d.v[d.n - 1].msg, "the rest are not shown"));
	cmark_node_free(doc);
	diags_free(&d);
	free(text);
}

static void test_rst_deep_nesting(void **state)
{
	(void)state;
	ast_init();
	char *text = repeat("- ", 100000, "deep\n");
	struct diags d = DIAGS_INIT;
	struct rst_options o = {.max_depth = 20};
	cmark_node *doc = rst_parse(text, strlen(text), "n.rst", &o, &d);
	assert_true(container_depth(doc) <= 21);
	assert_true(d.n >= 1);
	cmark_node_free(doc);
	diags_free(&d);
	free(text);
}

/* ---- site.yml URLs that reach every page -------------------------------------- */

/* base_url: "javascript:alert(1)//" went into every href and <script src>. */
static void test_config_urls_checked(void **state)
{
	(void)state;
	static const char *bad[] = {
		"base_url: \"javascript:alert(1)//\"\n",
		"base_url: \"data:text/html,x\"\n",
		"base_url: \"//evil.example/\"\n",
		"base_url: \"/a\\\" onload=\\\"x\"\n",
		"repo: \"javascript:alert(1)\"\n",
		"repo: /local/path\n",
		"aliases:\n  https://example.org/a: \"vbscript:x\"\n",
		"aliases:\n  https://example.org/a: ../../x\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct config cfg;
		struct diags d = DIAGS_INIT;
		assert_int_equal(config_parse(&cfg, bad[i], strlen(bad[i]), "site.yml", &d), -1);
		assert_true(diags_count(&d, SEV_ERROR) >= 1);
		assert_true(d.v[0].line >= 1);
		config_free(&cfg);
		diags_free(&d);
	}
	static const char *good[] = {
		"base_url: /\n",
		"base_url: /portal/\n",
		"base_url: https://example.org/portal/\n",
		"repo: https://github.com/example/site\n",
		"aliases:\n  https://example.org/a: https://example.org/b\n",
	};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		struct config cfg;
		struct diags d = DIAGS_INIT;
		assert_int_equal(config_parse(&cfg, good[i], strlen(good[i]), "site.yml", &d), 0);
		config_free(&cfg);
		diags_free(&d);
	}
}

/* ---- Mustache: nested sections multiply ---------------------------------------- */

struct one_tpl {
	const char *src;
};

static char *load_one_tpl(void *ud, const char *name, size_t *len)
{
	const struct one_tpl *t = ud;
	if (strcmp(name, "main"))
		return NULL;
	*len = strlen(t->src);
	return strdup(t->src);
}

/* fuzz_mustache (slow unit): sections nested over a list multiply, so 500
 * bytes of template asked for 10^15 iterations and never finished. Now the
 * render stops at MUSTACHE_MAX_STEPS with an error. A few seconds; skipped
 * when REGRESS_QUICK is set (valgrind_test.sh), like the other slow ones. */
static void test_mustache_section_bomb(void **state)
{
	(void)state;
	if (getenv("REGRESS_QUICK"))
		skip();
	char *open = repeat("{{#l}}", 15, "");
	char *close = repeat("{{/l}}", 15, "");
	char *src = NULL;
	assert_true(asprintf(&src, "%s%s", open, close) > 0);
	struct one_tpl t = {src};
	struct mustache_set *set = mustache_set_new(load_one_tpl, &t);
	struct val *ctx = val_map();
	struct val *l = val_list();
	for (int i = 0; i < 10; i++)
		val_push(l, val_bool(true));
	val_set(ctx, "l", l);
	struct buf out = BUF_INIT;
	struct diags d = DIAGS_INIT;
	assert_int_equal(mustache_render(set, "main", ctx, &out, &d), -1);
	assert_int_equal(diags_count(&d, SEV_ERROR), 1);
	assert_non_null(strstr(d.v[0].msg, "rendering stopped"));
	/* an ordinary nested section still renders whole */
	struct one_tpl t2 = {"{{#l}}{{#l}}x{{/l}}{{/l}}"};
	struct mustache_set *set2 = mustache_set_new(load_one_tpl, &t2);
	struct buf out2 = BUF_INIT;
	assert_int_equal(mustache_render(set2, "main", ctx, &out2, NULL), 0);
	assert_int_equal(out2.n, 100);
	buf_free(&out2);
	mustache_set_free(set2);
	buf_free(&out);
	diags_free(&d);
	val_free(ctx);
	mustache_set_free(set);
	free(src);
	free(open);
	free(close);
}

/* ---- URLs ---------------------------------------------------------------------- */

/* fuzz_url crash: "http://tensor-compiler\xff\xff.org/" canonicalised with the
 * raw bytes in the host, though a canonical URL is documented as printable
 * ASCII (it names resources and goes into attributes). Hosts are now
 * percent-encoded there and shown decoded by url_host. */
static void test_url_non_ascii_host(void **state)
{
	(void)state;
	static const char *in[] = {"http://tensor-compiler\xff\xff.org/", "http://B\xc3\xbc" "cher.DE/x",
				   "http://b%C3%BC" "cher.de/x", "http://a%2fb.org/", "http://%41.org", "http://%77ww.a%2e%2E/", "http://www.www.\xfa..", "http://www.m.youtube.com/x"};
	for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
		char *c = url_canonical(in[i]);
		assert_non_null(c);
		for (const char *p = c; *p; p++)
			assert_true(*p > ' ' && *p < 127);
		char *again = url_canonical(c);
		assert_non_null(again);
		assert_string_equal(c, again);
		free(again);
		free(c);
	}
	/* fuzz_url: "https://youtu.be/ab-&si" moved "&si" out of the video ID into
	 * the query, where the next canonicalisation dropped it as tracking */
	char *y = url_canonical("https://youtu.bE/ab-&si");
	assert_string_equal(y, "https://youtube.com/watch?v=ab-%26si");
	char *y2 = url_canonical(y);
	assert_string_equal(y, y2);
	free(y);
	free(y2);
	/* fuzz_url: "arxiv.org/pdf/X/.pdf" left a trailing slash, gone next time */
	y = url_canonical("https://arxiv.org\t/pdf/2205.1413\t:/.pdf");
	assert_string_equal(y, "https://arxiv.org/abs/2205.1413:");
	y2 = url_canonical(y);
	assert_string_equal(y, y2);
	free(y);
	free(y2);
	/* fuzz_url: an escaped dot ending the host ("x%2e") stayed on the first
	 * pass and went on the second */
	y = url_canonical("http://\xff%2e/x");
	assert_string_equal(y, "https://%FF/x");
	y2 = url_canonical(y);
	assert_string_equal(y, y2);
	free(y);
	free(y2);
	/* fuzz_url: more rewrites a second pass still changed */
	static const char *twice[] = {"https://arxiv.org/pdf//.pdf", "http://arxiv.org/pdf///..pdf",
				      "https://arxiv.org/pdf/103.df/103.15v15v2.pdf"};
	for (size_t i = 0; i < sizeof twice / sizeof *twice; i++) {
		y = url_canonical(twice[i]);
		assert_non_null(y);
		y2 = url_canonical(y);
		assert_string_equal(y, y2);
		free(y);
		free(y2);
	}
	char *a = url_canonical(in[1]), *b = url_canonical(in[2]);
	assert_string_equal(a, b);
	assert_string_equal(a, "https://b%C3%BC" "cher.de/x");
	char *h = url_host(a);
	assert_string_equal(h, "b\xc3\xbc" "cher.de");
	free(h);
	free(a);
	free(b);
}

/* ---- the HTML sanitiser ------------------------------------------------------------ */

/* fuzz_sanitize: URLs ending in a control character and NUL were kept (the
 * end was trimmed for the check, not in the output), and a srcset descriptor
 * could hold them; the output was not a fixed point. Now refused. */
static void test_sanitize_control_in_urls(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		size_t n;
		const char *want;
	} cases[] = {
		{"<a href=\xff\x12\0 a>t</a>", sizeof "<a href=\xff\x12\0 a>t</a>" - 1, "<a>t</a>"},
		{"<a href=\"http://x\x01\">t</a>", sizeof "<a href=\"http://x\x01\">t</a>" - 1, "<a>t</a>"},
		{"<picture><source srcset=\"a.png\x01\0, b.png 2x\"></picture>",
		 sizeof "<picture><source srcset=\"a.png\x01\0, b.png 2x\"></picture>" - 1,
		 "<picture><source /></picture>"},
		{"<a href=\" http://x/ \">t</a>", sizeof "<a href=\" http://x/ \">t</a>" - 1, "<a href=\" http://x/ \">t</a>"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct buf out = BUF_INIT, again = BUF_INIT;
		sanitize_html(cases[i].in, cases[i].n, &out, "t.md", 1, NULL);
		assert_string_equal(buf_cstr(&out), cases[i].want);
		sanitize_html(out.p, out.n, &again, "t.md", 1, NULL);
		assert_string_equal(buf_cstr(&again), buf_cstr(&out));
		buf_free(&out);
		buf_free(&again);
	}
}

/* ---- content discovery through symlinks ----------------------------------------- */

/* Two symlinks to "." made the walk visit 2^32 paths (it only stopped at 32
 * levels); a failed lstat left `st` unset. */
static void test_discover_symlink_loops(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-regress-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *sub = NULL, *f = NULL;
	assert_true(asprintf(&sub, "%s/sub", dir) > 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_true(asprintf(&f, "%s/sub/a.md", dir) > 0);
	FILE *fh = fopen(f, "w");
	assert_non_null(fh);
	fputs("# A\n", fh);
	fclose(fh);
	const char *links[][2] = {{".", "self1"}, {".", "self2"}, {"..", "sub/up1"},
				  {"..", "sub/up2"}, {"../sub", "sub/again"}};
	for (size_t i = 0; i < 5; i++) {
		char *l = NULL;
		assert_true(asprintf(&l, "%s/%s", dir, links[i][1]) > 0);
		assert_int_equal(symlink(links[i][0], l), 0);
		free(l);
	}
	struct source_list list = {0};
	struct diags d = DIAGS_INIT;
	assert_int_equal(source_discover(dir, &list, &d), 0);
	assert_int_equal(list.n, 1);
	assert_string_equal(list.v[0].relpath, "sub/a.md");
	assert_int_equal(count_code(&d, "symlink-loop"), 5);
	source_list_free(&list);
	diags_free(&d);
	char *cmd = NULL;
	assert_true(asprintf(&cmd, "rm -rf '%s'", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(sub);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_md_parallel_autolinks),
		cmocka_unit_test(test_md_deep_quotes),
		cmocka_unit_test(test_md_deep_lists),
		cmocka_unit_test(test_md_deep_lists_unsafe_inside),
		cmocka_unit_test(test_md_nesting_within_limit),
		cmocka_unit_test(test_md_wide_table),
		cmocka_unit_test(test_md_open_images),
		cmocka_unit_test(test_md_open_raw_html),
		cmocka_unit_test(test_md_tamed_by_one_kind_alone),
		cmocka_unit_test(test_md_long_reference),
		cmocka_unit_test(test_md_unsafe_url_message_one_line),
		cmocka_unit_test(test_rst_warning_flood_capped),
		cmocka_unit_test(test_rst_deep_nesting),
		cmocka_unit_test(test_config_urls_checked),
		cmocka_unit_test(test_mustache_section_bomb),
		cmocka_unit_test(test_url_non_ascii_host),
		cmocka_unit_test(test_sanitize_control_in_urls),
		cmocka_unit_test(test_discover_symlink_loops),
		cmocka_unit_test(test_clean_text_needs_no_second_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
