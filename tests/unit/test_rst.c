/* Unit tests of the reStructuredText reader (rst.h): inline-markup
 * recognition rules, each block construct, reference resolution, source
 * lines, warnings, and hostile input. */
#include "testutil.h"
#include "ast.h"
#include "buf.h"
#include "diag.h"
#include "rst.h"

#include <time.h>

struct parsed {
	cmark_node *doc;
	struct diags d;
	char *html;
};

static struct parsed parse_opt(const char *src, const struct rst_options *opt)
{
	struct parsed p;
	memset(&p, 0, sizeof p);
	p.doc = rst_parse(src, strlen(src), "t.rst", opt, &p.d);
	assert_non_null(p.doc);
	p.html = cmark_render_html(p.doc, CMARK_OPT_DEFAULT, ast_extensions());
	return p;
}

static struct parsed parse(const char *src) { return parse_opt(src, NULL); }

static void done(struct parsed *p)
{
	free(p->html);
	cmark_node_free(p->doc);
	diags_free(&p->d);
}

/* First node of type t in document order (NULL when none). */
static cmark_node *find(cmark_node *root, cmark_node_type t, int nth)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	cmark_node *hit = NULL;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev == CMARK_EVENT_ENTER && n != root && cmark_node_get_type(n) == t && nth-- == 0) {
			hit = n;
			break;
		}
	}
	cmark_iter_free(it);
	return hit;
}

static int count(cmark_node *root, cmark_node_type t)
{
	int k = 0;
	while (find(root, t, k))
		k++;
	return k;
}

static bool has_warning(const struct diags *d, const char *needle)
{
	for (size_t i = 0; i < d->n; i++)
		if (strstr(d->v[i].msg, needle) && d->v[i].sev == SEV_WARNING)
			return true;
	return false;
}

static void assert_html_has(const struct parsed *p, const char *needle)
{
	if (!strstr(p->html, needle)) {
		fprintf(stderr, "missing %s in:\n%s\n", needle, p->html);
		fail();
	}
}

/* ---- inline recognition rules ------------------------------------------ */

static void test_star_between_spaces_is_not_emphasis(void **state)
{
	(void)state;
	struct parsed p = parse("2 * 3 = 6 and x * y\n");
	assert_null(find(p.doc, CMARK_NODE_EMPH, 0));
	assert_int_equal(p.d.n, 0);
	assert_html_has(&p, "2 * 3 = 6 and x * y");
	done(&p);
}

static void test_end_string_must_be_followed_by_punct_or_space(void **state)
{
	(void)state;
	struct parsed p = parse("*a*b here\n");
	assert_null(find(p.doc, CMARK_NODE_EMPH, 0));
	assert_true(has_warning(&p.d, "start-string without end-string"));
	assert_html_has(&p, "*a*b here");
	done(&p);
}

static void test_start_string_needs_space_or_punct_before(void **state)
{
	(void)state;
	struct parsed p = parse("a*b* and x**y**\n");
	assert_null(find(p.doc, CMARK_NODE_EMPH, 0));
	assert_null(find(p.doc, CMARK_NODE_STRONG, 0));
	done(&p);
	p = parse("(*a*) -*b*- /*c*/\n");
	assert_int_equal(count(p.doc, CMARK_NODE_EMPH), 3);
	done(&p);
}

static void test_quoted_start_string_is_text(void **state)
{
	(void)state;
	struct parsed p = parse("Use '*' or \"*\" or (*) freely.\n");
	assert_null(find(p.doc, CMARK_NODE_EMPH, 0));
	assert_int_equal(p.d.n, 0);
	done(&p);
}

static void test_emphasis_strong_literal(void **state)
{
	(void)state;
	struct parsed p = parse("*em* **st** ``co *de*`` ***x***\n");
	cmark_node *em = find(p.doc, CMARK_NODE_EMPH, 0);
	assert_non_null(em);
	assert_string_equal(cmark_node_get_literal(cmark_node_first_child(em)), "em");
	cmark_node *code = find(p.doc, CMARK_NODE_CODE, 0);
	assert_string_equal(cmark_node_get_literal(code), "co *de*");
	assert_int_equal(count(p.doc, CMARK_NODE_STRONG), 2);
	/* "***x***": strong whose content is "*x*" (no nesting in RST) */
	cmark_node *st = find(p.doc, CMARK_NODE_STRONG, 1);
	assert_string_equal(cmark_node_get_literal(cmark_node_first_child(st)), "*x*");
	done(&p);
}

static void test_escapes(void **state)
{
	(void)state;
	struct parsed p = parse("\\*not\\* a\\ b back\\\\slash ``lit\\``\n");
	assert_null(find(p.doc, CMARK_NODE_EMPH, 0));
	assert_html_has(&p, "*not* ab back\\slash");
	assert_string_equal(cmark_node_get_literal(find(p.doc, CMARK_NODE_CODE, 0)), "lit\\");
	done(&p);
}

static void test_roles(void **state)
{
	(void)state;
	struct parsed p = parse(":sub:`2` :sup:`3` :code:`x()` :emphasis:`e` :strong:`s` `t` "
				"`u`:title-reference: :literal:`l` :bogus:`kept`\n");
	assert_html_has(&p, "<sub>2</sub>");
	assert_html_has(&p, "<sup>3</sup>");
	assert_html_has(&p, "<code>x()</code>");
	assert_html_has(&p, "<em>e</em>");
	assert_html_has(&p, "<strong>s</strong>");
	assert_html_has(&p, "<cite>t</cite>");
	assert_html_has(&p, "<cite>u</cite>");
	assert_html_has(&p, "<code>l</code>");
	assert_html_has(&p, "kept");
	assert_true(has_warning(&p.d, "Unknown interpreted text role \"bogus\""));
	done(&p);
}

/* ---- sections ---------------------------------------------------------- */

static void test_section_levels_by_first_appearance(void **state)
{
	(void)state;
	struct parsed p = parse("=====\nTitle\n=====\n\nA\n=\n\ntext\n\nB\n-\n\nC\n=\n\nD\n-\n");
	int want[] = {1, 2, 3, 2, 3};
	const char *txt[] = {"Title", "A", "B", "C", "D"};
	for (int k = 0; k < 5; k++) {
		cmark_node *h = find(p.doc, CMARK_NODE_HEADING, k);
		assert_non_null(h);
		assert_int_equal(cmark_node_get_heading_level(h), want[k]);
		assert_string_equal(cmark_node_get_literal(cmark_node_first_child(h)), txt[k]);
	}
	assert_int_equal(ast_line(find(p.doc, CMARK_NODE_HEADING, 1)), 5);
	done(&p);
}

static void test_short_underline_and_unexpected_title(void **state)
{
	(void)state;
	struct parsed p = parse("Long title here\n=====\n");
	assert_non_null(find(p.doc, CMARK_NODE_HEADING, 0));
	assert_true(has_warning(&p.d, "underline too short"));
	done(&p);
	p = parse("Long title here\n===\n");
	assert_null(find(p.doc, CMARK_NODE_HEADING, 0));
	assert_non_null(find(p.doc, CMARK_NODE_PARAGRAPH, 0));
	done(&p);
	p = parse("* item\n\n  Title\n  =====\n");
	assert_null(find(p.doc, CMARK_NODE_HEADING, 0));
	assert_true(has_warning(&p.d, "Unexpected section title"));
	assert_html_has(&p, "Title");
	done(&p);
}

static void test_transition(void **state)
{
	(void)state;
	struct parsed p = parse("a\n\n--------\n\nb\n");
	assert_non_null(find(p.doc, CMARK_NODE_THEMATIC_BREAK, 0));
	assert_int_equal(ast_line(find(p.doc, CMARK_NODE_THEMATIC_BREAK, 0)), 3);
	done(&p);
}

/* ---- lists ------------------------------------------------------------- */

static void test_bullet_list_tight_and_loose(void **state)
{
	(void)state;
	struct parsed p = parse("* a\n* b\n\n  - nested\n");
	cmark_node *l = find(p.doc, CMARK_NODE_LIST, 0);
	assert_int_equal(cmark_node_get_list_type(l), CMARK_BULLET_LIST);
	assert_true(cmark_node_get_list_tight(l));
	assert_int_equal(count(p.doc, CMARK_NODE_ITEM), 3);
	assert_html_has(&p, "<li>a</li>");
	done(&p);
	p = parse("- a\n\n  second paragraph\n- b\n");
	assert_false(cmark_node_get_list_tight(find(p.doc, CMARK_NODE_LIST, 0)));
	done(&p);
}

static void test_enumerated_lists(void **state)
{
	(void)state;
	struct parsed p = parse("3) three\n4) four\n\n(a) x\n(b) y\n\n#. auto\n#. auto\n\nii. two\niii. three\n");
	cmark_node *l = find(p.doc, CMARK_NODE_LIST, 0);
	assert_int_equal(cmark_node_get_list_type(l), CMARK_ORDERED_LIST);
	assert_int_equal(cmark_node_get_list_start(l), 3);
	assert_int_equal(cmark_node_get_list_delim(l), CMARK_PAREN_DELIM);
	assert_int_equal(cmark_node_get_list_start(find(p.doc, CMARK_NODE_LIST, 1)), 1);
	assert_int_equal(cmark_node_get_list_start(find(p.doc, CMARK_NODE_LIST, 2)), 1);
	assert_int_equal(cmark_node_get_list_start(find(p.doc, CMARK_NODE_LIST, 3)), 2);
	assert_int_equal(count(p.doc, CMARK_NODE_LIST), 4);
	done(&p);
	/* not a list: the next line is neither blank, indented nor the next item */
	p = parse("1. not a list\nbecause this continues\n");
	assert_null(find(p.doc, CMARK_NODE_LIST, 0));
	done(&p);
}

static void test_definition_field_option_lists(void **state)
{
	(void)state;
	struct parsed p = parse("term : cls\n    Definition.\n\n:Field: value\n:Other: x\n\n-a         All.\n"
				"--file=F  File.\n");
	assert_html_has(&p, "<dt>");
	assert_html_has(&p, "<span class=\"classifier\">cls</span>");
	assert_html_has(&p, "<dl class=\"field-list simple\">");
	assert_html_has(&p, "Field<span class=\"colon\">:</span>");
	assert_html_has(&p, "<dl class=\"option-list\">");
	assert_html_has(&p, "<kbd>--file=F</kbd>");
	done(&p);
}

/* ---- quotes, literal blocks, line blocks -------------------------------- */

static void test_seed_paragraph_then_indented_list_is_block_quote(void **state)
{
	(void)state;
	struct parsed p = parse("**Flash Attention** - Dao et al., 2022\n\n   Seminal paper\n\n   * Paper: x\n"
				"   * Key: y\n");
	cmark_node *para = cmark_node_first_child(p.doc);
	assert_int_equal(cmark_node_get_type(para), CMARK_NODE_PARAGRAPH);
	cmark_node *bq = cmark_node_next(para);
	assert_int_equal(cmark_node_get_type(bq), CMARK_NODE_BLOCK_QUOTE);
	assert_int_equal(cmark_node_get_type(cmark_node_last_child(bq)), CMARK_NODE_LIST);
	assert_int_equal(ast_line(bq), 3);
	done(&p);
}

static void test_attribution(void **state)
{
	(void)state;
	struct parsed p = parse("Para.\n\n    Quote.\n\n    -- Someone\n");
	assert_html_has(&p, "<p class=\"attribution\">\xE2\x80\x94Someone</p>");
	done(&p);
}

static void test_literal_block_forms(void **state)
{
	(void)state;
	struct parsed p = parse("Expanded::\n\n    a\n\nMin ::\n\n    b\n\n::\n\n    c\n\nQuoted::\n\n> q\n");
	assert_html_has(&p, "<p>Expanded:</p>");
	assert_html_has(&p, "<p>Min</p>");
	assert_int_equal(count(p.doc, CMARK_NODE_PARAGRAPH), 3);
	assert_int_equal(count(p.doc, CMARK_NODE_CODE_BLOCK), 4);
	assert_string_equal(cmark_node_get_literal(find(p.doc, CMARK_NODE_CODE_BLOCK, 2)), "c\n");
	assert_string_equal(cmark_node_get_literal(find(p.doc, CMARK_NODE_CODE_BLOCK, 3)), "> q\n");
	done(&p);
	p = parse("Nothing follows::\n");
	assert_true(has_warning(&p.d, "Literal block expected"));
	done(&p);
}

static void test_code_directive_language(void **state)
{
	(void)state;
	struct parsed p = parse(".. code-block:: python\n   :linenos:\n\n   print(1)\n\n.. sourcecode:: c\n\n   x;\n");
	cmark_node *cb = find(p.doc, CMARK_NODE_CODE_BLOCK, 0);
	assert_string_equal(cmark_node_get_fence_info(cb), "python");
	assert_string_equal(cmark_node_get_literal(cb), "print(1)\n");
	assert_string_equal(cmark_node_get_fence_info(find(p.doc, CMARK_NODE_CODE_BLOCK, 1)), "c");
	assert_html_has(&p, "class=\"language-python\"");
	done(&p);
}

static void test_line_block(void **state)
{
	(void)state;
	struct parsed p = parse("| one\n| two\n  continued\n");
	assert_html_has(&p, "<div class=\"line-block\">");
	assert_html_has(&p, "<div class=\"line\">two\ncontinued</div>");
	done(&p);
}

/* ---- references --------------------------------------------------------- */

static const char *link_url(cmark_node *doc, int nth)
{
	cmark_node *l = find(doc, CMARK_NODE_LINK, nth);
	return l ? cmark_node_get_url(l) : "(none)";
}

static void test_hyperlinks(void **state)
{
	(void)state;
	struct parsed p = parse("`A <http://a.example/>`_ `B <http://b.example/>`__ fwd_ `multi word`_ ind_ "
				"`anon`__ http://c.example/x. me@d.example A_\n\n"
				".. _fwd: http://f.example/\n.. _multi word: http://m.example/\n"
				".. _ind: fwd_\n__ http://anon.example/\n");
	assert_string_equal(link_url(p.doc, 0), "http://a.example/");
	assert_string_equal(link_url(p.doc, 1), "http://b.example/");
	assert_string_equal(link_url(p.doc, 2), "http://f.example/");
	assert_string_equal(link_url(p.doc, 3), "http://m.example/");
	assert_string_equal(link_url(p.doc, 4), "http://f.example/");
	assert_string_equal(link_url(p.doc, 5), "http://anon.example/");
	assert_string_equal(link_url(p.doc, 6), "http://c.example/x");
	assert_string_equal(link_url(p.doc, 7), "mailto:me@d.example");
	/* the embedded URI of `A <...>`_ also defines the target "a" */
	assert_string_equal(link_url(p.doc, 8), "http://a.example/");
	assert_int_equal(ast_line(find(p.doc, CMARK_NODE_LINK, 0)), 1);
	assert_int_equal(p.d.n, 0);
	done(&p);
}

static void test_section_and_internal_references(void **state)
{
	(void)state;
	struct parsed p = parse("See `My Section`_ and here_.\n\n.. _here:\n\nTarget para.\n\nMy Section\n"
				"==========\n");
	assert_string_equal(link_url(p.doc, 0), "#my-section");
	assert_string_equal(link_url(p.doc, 1), "#here");
	assert_html_has(&p, "<span id=\"here\"></span>");
	done(&p);
}

static void test_unknown_target_keeps_text(void **state)
{
	(void)state;
	struct parsed p = parse("A missing_ reference.\n");
	assert_null(find(p.doc, CMARK_NODE_LINK, 0));
	assert_true(has_warning(&p.d, "Unknown target name: \"missing\""));
	assert_html_has(&p, "A missing reference.");
	assert_int_equal(p.d.v[0].line, 1);
	assert_string_equal(p.d.v[0].path, "t.rst");
	done(&p);
}

static void test_footnotes_and_citations(void **state)
{
	(void)state;
	struct parsed p = parse("x [#]_ y [CIT]_ z [2]_\n\n.. [#] auto\n.. [2] two\n.. [CIT] cite\n");
	assert_html_has(&p, "href=\"#footnote-1\"");
	assert_html_has(&p, "href=\"#footnote-2\"");
	assert_html_has(&p, "href=\"#cit\"");
	assert_html_has(&p, "<aside class=\"footnote brackets\" id=\"footnote-1\"");
	assert_html_has(&p, "<div class=\"citation\" id=\"cit\"");
	assert_int_equal(p.d.n, 0);
	done(&p);
}

/* Symbol footnotes are labelled as docutils labels them (the eleventh "**"),
 * but a label repeats its symbol at most RST_MAX_SYMBOL_REPEAT times: past
 * 100 footnotes their labels would grow with their number, and a document's
 * output as its square. */
static void test_symbol_footnote_labels(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	for (int i = 0; i < 150; i++)
		buf_puts(&b, "[*]_ ");
	buf_puts(&b, "\n\n");
	for (int i = 0; i < 150; i++)
		buf_printf(&b, ".. [*] n%d\n", i);
	struct parsed p = parse(buf_cstr(&b));
	buf_free(&b);
	assert_html_has(&p, "id=\"footnote-reference-11\" role=\"doc-noteref\"><span class=\"fn-bracket\">[</span>**<");
	assert_html_has(&p, "id=\"footnote-reference-100\" role=\"doc-noteref\"><span class=\"fn-bracket\">[</span>"
			    "\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3"
			    "\xe2\x99\xa3\xe2\x99\xa3<");
	assert_html_has(&p, "id=\"footnote-reference-150\" role=\"doc-noteref\"><span class=\"fn-bracket\">[</span>"
			    "\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3"
			    "\xe2\x99\xa3\xe2\x99\xa3<");
	done(&p);
}

/* A substitution used thousands of times repeats its text each time: past
 * the document's budget (RST_SUBST_BUDGET, or twice the document) the
 * references are left as written, with one warning. */
static void test_substitution_budget(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	for (int i = 0; i < 4000; i++)
		buf_puts(&b, "x |s| y\n\n");
	buf_puts(&b, ".. |s| replace:: ");
	for (int i = 0; i < 2000; i++)
		buf_puts(&b, "long ");
	buf_puts(&b, "\n");
	struct parsed p = parse(buf_cstr(&b));
	buf_free(&b);
	assert_true(has_warning(&p.d, "Substitutions expand to more than"));
	size_t warned = 0;
	for (size_t i = 0; i < p.d.n; i++)
		warned += strstr(p.d.v[i].msg, "Substitutions expand") != NULL;
	assert_int_equal(warned, 1);
	char *html = cmark_render_html(p.doc, CMARK_OPT_DEFAULT, ast_extensions());
	assert_true(strlen(html) < 3 * (1 << 20));
	assert_non_null(strstr(html, "x |s| y"));
	assert_non_null(strstr(html, "x long long"));
	free(html);
	done(&p);
}

static void test_substitutions(void **state)
{
	(void)state;
	struct parsed p = parse("A |r| and |img| and |nope|.\n\n.. |r| replace:: *rep*\n"
				".. |img| image:: pic.png\n   :alt: Pic\n");
	assert_html_has(&p, "<em>rep</em>");
	assert_html_has(&p, "<img src=\"pic.png\" alt=\"Pic\" />");
	assert_html_has(&p, "|nope|");
	assert_true(has_warning(&p.d, "Undefined substitution referenced: \"nope\""));
	done(&p);
}

/* ---- directives ---------------------------------------------------------- */

static void test_admonitions(void **state)
{
	(void)state;
	struct parsed p = parse(".. note:: Body <b>.\n\n.. admonition:: My *Title*\n\n   Text.\n");
	assert_html_has(&p, "<div class=\"admonition note\"><p class=\"admonition-title\">Note</p>");
	assert_html_has(&p, "Body &lt;b&gt;.");
	assert_html_has(&p, "<div class=\"admonition admonition-my-title\">");
	assert_html_has(&p, "My <em>Title</em></p>");
	done(&p);
}

static void test_raw_include_unknown(void **state)
{
	(void)state;
	const char *src = ".. raw:: html\n\n   <b>x</b>\n\n.. include:: f.rst\n\n.. frobnicate:: arg\n\n   body\n";
	struct parsed p = parse(src);
	assert_true(has_warning(&p.d, "\"raw\" directive disabled"));
	assert_true(has_warning(&p.d, "\"include\" directive disabled"));
	assert_true(has_warning(&p.d, "Unknown directive type \"frobnicate\""));
	assert_null(find(p.doc, CMARK_NODE_HTML_BLOCK, 0));
	assert_int_equal(count(p.doc, CMARK_NODE_CODE_BLOCK), 3);
	assert_html_has(&p, "body");
	done(&p);
	struct rst_options opt = {true, false, 0};
	p = parse_opt(src, &opt);
	cmark_node *h = find(p.doc, CMARK_NODE_HTML_BLOCK, 0);
	assert_non_null(h);
	assert_string_equal(cmark_node_get_literal(h), "<b>x</b>\n");
	done(&p);
}

static void test_image_figure_contents(void **state)
{
	(void)state;
	struct parsed p = parse("Top\n===\n\n.. contents::\n\nA\n-\n\n.. image:: a.png\n   :target: http://t.example/\n\n"
				".. figure:: f.png\n\n   Caption.\n");
	assert_string_equal(cmark_node_get_url(find(p.doc, CMARK_NODE_IMAGE, 0)), "a.png");
	assert_string_equal(link_url(p.doc, 1), "http://t.example/");
	assert_string_equal(link_url(p.doc, 0), "#a"); /* the table of contents */
	assert_html_has(&p, "<figure>");
	assert_html_has(&p, "<figcaption>");
	done(&p);
}

/* ---- tables -------------------------------------------------------------- */

static void test_simple_table_is_gfm(void **state)
{
	(void)state;
	struct parsed p = parse("=====  =====\nA      B\n=====  =====\n1      *2*\n3      4\n=====  =====\n");
	cmark_node *t = cmark_node_first_child(p.doc);
	assert_true(ast_is_table(t));
	assert_html_has(&p, "<th>A</th>");
	assert_html_has(&p, "<td><em>2</em></td>");
	assert_int_equal(ast_line(t), 1);
	done(&p);
}

static void test_grid_table_with_spans_falls_back(void **state)
{
	(void)state;
	struct parsed p = parse("+---+---+\n| a | b |\n+===+===+\n| wide  |\n+---+---+\n");
	assert_false(ast_is_table(cmark_node_first_child(p.doc)));
	assert_html_has(&p, "<table class=\"docutils\">");
	assert_html_has(&p, "<td colspan=\"2\">");
	assert_html_has(&p, "wide");
	done(&p);
	p = parse("+---+---+\n| a | b |\n+---+---+\n");
	assert_true(ast_is_table(cmark_node_first_child(p.doc)));
	done(&p);
}

/* A row of more than RST_MAX_TABLE_COLUMNS cells is no cmark table (whose
 * rows are quadratic in their cells): a grid table becomes an HTML table, a
 * list-table stays text with a warning. Tables of many rows stay tables, and
 * each cell keeps its own inline text. */
static void test_wide_and_long_tables(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	for (int line = 0; line < 3; line++) {
		buf_putc(&b, '+');
		for (int i = 0; i < 300; i++)
			buf_puts(&b, line == 1 ? " x |" : "---+");
		buf_putc(&b, '\n');
	}
	struct parsed p = parse(buf_cstr(&b));
	assert_false(ast_is_table(cmark_node_first_child(p.doc)));
	assert_html_has(&p, "<table class=\"docutils\">");
	done(&p);
	buf_reset(&b);
	buf_puts(&b, ".. list-table::\n\n   * - a\n");
	for (int i = 0; i < 300; i++)
		buf_puts(&b, "     - b\n");
	p = parse(buf_cstr(&b));
	assert_true(has_warning(&p.d, "list-table of 301 columns, more than 256: kept as text."));
	assert_false(ast_is_table(cmark_node_first_child(p.doc)));
	done(&p);
	buf_reset(&b);
	buf_puts(&b, ".. list-table::\n   :header-rows: 1\n\n");
	for (int i = 0; i < 5000; i++)
		buf_printf(&b, "   * - a%d *x*\n     - b%d\n", i, i);
	p = parse(buf_cstr(&b));
	assert_true(ast_is_table(cmark_node_first_child(p.doc)));
	assert_html_has(&p, "<th>a0 <em>x</em></th>");
	assert_html_has(&p, "<td>a4999 <em>x</em></td>");
	assert_html_has(&p, "<td>b4999</td>");
	done(&p);
	buf_reset(&b);
	buf_puts(&b, "=====  =====\nA      B\n=====  =====\n");
	for (int i = 0; i < 5000; i++)
		buf_printf(&b, "%-7d*%d*\n", i, i);
	buf_puts(&b, "=====  =====\n");
	p = parse(buf_cstr(&b));
	assert_true(ast_is_table(cmark_node_first_child(p.doc)));
	assert_html_has(&p, "<td>4999</td>");
	assert_html_has(&p, "<td><em>4999</em></td>");
	done(&p);
	buf_free(&b);
}

/* A list-table that is no uniform two-level list is kept as text: the
 * inline text its cells had waiting is dropped with them, never written
 * into freed nodes. */
static void test_list_table_malformed(void **state)
{
	(void)state;
	struct parsed p = parse(".. list-table::\n\n   * - a *b*\n     - c\n   * - d\n\nafter *e*\n");
	assert_true(has_warning(&p.d, "uniform two-level bullet list expected"));
	assert_html_has(&p, "<em>e</em>");
	done(&p);
}

/* ---- robustness ------------------------------------------------------------ */

static void test_deep_indentation(void **state)
{
	(void)state;
	size_t levels = 100000;
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < levels; i += 1000) {
		for (size_t k = 0; k < i; k++)
			buf_putc(&b, ' ');
		buf_puts(&b, "word\n\n");
	}
	for (size_t k = 0; k < levels; k++)
		buf_putc(&b, ' ');
	buf_puts(&b, "deepest\n");
	struct diags d = DIAGS_INIT;
	cmark_node *doc = rst_parse(b.p, b.n, "deep.rst", NULL, &d);
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, NULL);
	assert_non_null(strstr(html, "deepest"));
	assert_true(diags_count(&d, SEV_WARNING) > 0);
	free(html);
	cmark_node_free(doc);
	diags_free(&d);
	buf_free(&b);
}

static void test_deep_lists_and_quotes(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	for (int k = 0; k < 3000; k++) {
		for (int s = 0; s < k * 2; s++)
			buf_putc(&b, ' ');
		buf_puts(&b, "- item\n\n");
	}
	struct rst_options opt = {false, false, 10};
	struct diags d = DIAGS_INIT;
	cmark_node *doc = rst_parse(b.p, b.n, "deep.rst", &opt, &d);
	assert_true(has_warning(&d, "Nesting deeper than 10"));
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, NULL);
	free(html);
	cmark_node_free(doc);
	diags_free(&d);
	buf_free(&b);
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_no_quadratic_blowup(void **state)
{
	(void)state;
	const char *pieces[] = {"*a ", "`a ", "``a ", "|a ", "a_b-", "http:a:", "x@y.", "[a", ":r:`a ", "_`a "};
	for (size_t k = 0; k < sizeof pieces / sizeof *pieces; k++) {
		struct buf b = BUF_INIT;
		for (int i = 0; i < 40000; i++)
			buf_puts(&b, pieces[k]);
		buf_putc(&b, '\n');
		double t0 = seconds();
		struct diags d = DIAGS_INIT;
		cmark_node *doc = rst_parse(b.p, b.n, "long.rst", NULL, &d);
		double dt = seconds() - t0;
		if (dt > 2.0)
			fprintf(stderr, "piece \"%s\": %.2fs\n", pieces[k], dt);
		assert_true(dt < 2.0);
		cmark_node_free(doc);
		diags_free(&d);
		buf_free(&b);
	}
}

static void test_no_text_lost_in_malformed_input(void **state)
{
	(void)state;
	const char *src = "Alpha *beta\n\n====\nGamma\n\n+---+\n| delta\n\n.. [x\n\n"
			  ":epsilon:`zeta\n\n`eta <theta>`_ iota_\n\n=====  =====\nkappa  lambda\n";
	struct parsed p = parse(src);
	const char *words[] = {"Alpha", "beta", "Gamma", "delta", "epsilon", "zeta", "eta", "iota", "kappa",
			       "lambda"};
	for (size_t k = 0; k < sizeof words / sizeof *words; k++)
		assert_html_has(&p, words[k]);
	done(&p);
}

static void test_empty_and_null_options(void **state)
{
	(void)state;
	struct diags d = DIAGS_INIT;
	cmark_node *doc = rst_parse("", 0, NULL, NULL, &d);
	assert_int_equal(cmark_node_get_type(doc), CMARK_NODE_DOCUMENT);
	assert_null(cmark_node_first_child(doc));
	cmark_node_free(doc);
	doc = rst_parse("a\0b\tc\n", 6, "x", NULL, &d);
	assert_non_null(find(doc, CMARK_NODE_PARAGRAPH, 0));
	cmark_node_free(doc);
	diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_star_between_spaces_is_not_emphasis),
		cmocka_unit_test(test_end_string_must_be_followed_by_punct_or_space),
		cmocka_unit_test(test_start_string_needs_space_or_punct_before),
		cmocka_unit_test(test_quoted_start_string_is_text),
		cmocka_unit_test(test_emphasis_strong_literal),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_section_levels_by_first_appearance),
		cmocka_unit_test(test_short_underline_and_unexpected_title),
		cmocka_unit_test(test_transition),
		cmocka_unit_test(test_bullet_list_tight_and_loose),
		cmocka_unit_test(test_enumerated_lists),
		cmocka_unit_test(test_definition_field_option_lists),
		cmocka_unit_test(test_seed_paragraph_then_indented_list_is_block_quote),
		cmocka_unit_test(test_attribution),
		cmocka_unit_test(test_literal_block_forms),
		cmocka_unit_test(test_code_directive_language),
		cmocka_unit_test(test_line_block),
		cmocka_unit_test(test_hyperlinks),
		cmocka_unit_test(test_section_and_internal_references),
		cmocka_unit_test(test_unknown_target_keeps_text),
		cmocka_unit_test(test_footnotes_and_citations),
		cmocka_unit_test(test_symbol_footnote_labels),
		cmocka_unit_test(test_substitution_budget),
		cmocka_unit_test(test_substitutions),
		cmocka_unit_test(test_admonitions),
		cmocka_unit_test(test_raw_include_unknown),
		cmocka_unit_test(test_image_figure_contents),
		cmocka_unit_test(test_simple_table_is_gfm),
		cmocka_unit_test(test_grid_table_with_spans_falls_back),
		cmocka_unit_test(test_wide_and_long_tables),
		cmocka_unit_test(test_list_table_malformed),
		cmocka_unit_test(test_deep_indentation),
		cmocka_unit_test(test_deep_lists_and_quotes),
		cmocka_unit_test(test_no_quadratic_blowup),
		cmocka_unit_test(test_no_text_lost_in_malformed_input),
		cmocka_unit_test(test_empty_and_null_options),
	};
	return cmocka_run_group_tests_name("rst", tests, NULL, NULL);
}
