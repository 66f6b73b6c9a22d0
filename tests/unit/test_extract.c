/* extract: citation titles, descriptions and sections from the entry shapes
 * resource lists use, in both formats; heading ids; internal links. */
#include "testutil.h"
#include "extract.h"
#include "buf.h"
#include "md.h"
#include "rst.h"

static void load(struct doc *d, const char *text, bool rst)
{
	memset(d, 0, sizeof *d);
	d->shown = strdup(rst ? "t.rst" : "t.md");
	d->relpath = strdup(d->shown);
	if (rst) {
		struct rst_options o = {0};
		d->tree = rst_parse(text, strlen(text), d->shown, &o, &d->diags);
	} else
		d->tree = md_parse(text, strlen(text), d->shown, false, &d->diags);
	extract_doc(d);
}

static const struct citation *cite(const struct doc *d, const char *canonical)
{
	for (size_t i = 0; i < d->ncites; i++)
		if (d->cites[i].canonical && !strcmp(d->cites[i].canonical, canonical))
			return &d->cites[i];
	fail_msg("no citation of %s", canonical);
	return NULL;
}

/* The squeeze as it is meant: whitespace runs one space, none at either
 * end (a plain byte-by-byte reference). */
static void squeeze_reference(const char *s, char *out)
{
	size_t w = 0;
	bool sp = false;
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			sp = w > 0;
			continue;
		}
		if (sp)
			out[w++] = ' ';
		sp = false;
		out[w++] = *s;
	}
	out[w] = '\0';
}

static void same_as_reference(const char *text)
{
	char want[128];
	cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
	assert_true(cmark_node_set_literal(t, text));
	char *got = doc_node_text(t);
	squeeze_reference(text, want);
	assert_string_equal(got, want);
	free(got);
	cmark_node_free(t);
}

/* A text node's text squeezed as the reference does, for texts of every
 * length to 80 with whitespace anywhere, across and at the ends of the
 * sixteen-byte blocks extract.c looks at together. */
static void test_text_squeezed(void **state)
{
	(void)state;
	static const char alphabet[] = "ab  \t\nc  d";
	unsigned seed = 12345;
	for (int round = 0; round < 20000; round++) {
		char text[96];
		size_t n = (size_t)(round % 81);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			text[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
		}
		text[n] = '\0';
		same_as_reference(text);
	}
	/* one space, two or a tab alone, at every place of every length */
	static const char *const runs[] = {" ", "  ", "\t"};
	for (size_t n = 1; n <= 80; n++)
		for (size_t at = 0; at < n; at++)
			for (size_t k = 0; k < 3; k++) {
				char text[96];
				memset(text, 'x', n);
				size_t m = strlen(runs[k]);
				memcpy(text + at, runs[k], at + m <= n ? m : 1);
				text[n] = '\0';
				same_as_reference(text);
			}
}

static void test_markdown_shapes(void **state)
{
	(void)state;
	struct doc d;
	load(&d,
	     "# Refs\n\n## Flash Attention\n"
	     "- **Flash Attention Paper**: https://arxiv.org/abs/2205.14135\n"
	     "- [xFormers](https://github.com/facebookresearch/xformers) - Hackable transformers\n\n"
	     "## Triton\n"
	     "1. Triton docs: https://triton-lang.org/\n"
	     "- [Dao-AILab/flash-attention](https://github.com/Dao-AILab/flash-attention), "
	     "[paper](https://arxiv.org/abs/2205.14135)\n",
	     false);
	assert_int_equal(d.ncites, 5);
	const struct citation *c = cite(&d, "https://arxiv.org/abs/2205.14135");
	assert_string_equal(c->title, "Flash Attention Paper");
	assert_true(c->bare);
	assert_int_equal(c->line, 4);
	assert_string_equal(d.headings[c->heading].text, "Flash Attention");
	c = cite(&d, "https://github.com/facebookresearch/xformers");
	assert_string_equal(c->title, "xFormers");
	assert_string_equal(c->desc, "Hackable transformers");
	c = cite(&d, "https://triton-lang.org");
	assert_string_equal(c->title, "Triton docs");
	assert_string_equal(d.headings[c->heading].id, "triton");
	assert_string_equal(d.cites[4].title, "Dao-AILab/flash-attention (paper)");
	doc_free(&d);
}

static void test_rst_shapes(void **state)
{
	(void)state;
	struct doc d;
	load(&d,
	     "Papers\n======\n\n"
	     "* `Triton Documentation <https://triton-lang.org/>`_ - Official docs\n\n"
	     "**Flash Attention** - Dao et al., 2022\n\n"
	     "   Seminal paper on O(N) memory attention algorithm\n\n"
	     "   * Paper: `arXiv:2205.14135 <https://arxiv.org/abs/2205.14135>`_\n"
	     "   * Key contribution: Online softmax algorithm\n\n"
	     "7. Peter Goldsborough. `\"Custom C++ and CUDA Extensions\" "
	     "<https://pytorch.org/tutorials/advanced/cpp_extension.html>`_ PyTorch Tutorial.\n",
	     true);
	assert_int_equal(d.ncites, 3);
	const struct citation *c = cite(&d, "https://triton-lang.org");
	assert_string_equal(c->title, "Triton Documentation");
	assert_string_equal(c->desc, "Official docs");
	c = cite(&d, "https://arxiv.org/abs/2205.14135");
	assert_string_equal(c->title, "Flash Attention");
	assert_string_equal(c->text, "arXiv:2205.14135");
	assert_non_null(strstr(c->desc, "Dao et al., 2022"));
	assert_non_null(strstr(c->desc, "Seminal paper"));
	assert_int_equal(c->line, 10);
	c = cite(&d, "https://pytorch.org/tutorials/advanced/cpp_extension.html");
	assert_string_equal(c->title, "Custom C++ and CUDA Extensions");
	assert_non_null(strstr(c->desc, "Peter Goldsborough"));
	doc_free(&d);
}

static void test_headings_and_internal_links(void **state)
{
	(void)state;
	struct doc d;
	load(&d,
	     "# T\n## Setup\n## Setup\n## Setup\n"
	     "See [guide](cuda_setup.md#install), [top](#t) and [x](https://x.org/).\n",
	     false);
	assert_int_equal(d.nheadings, 4);
	assert_string_equal(d.headings[1].id, "setup");
	assert_string_equal(d.headings[2].id, "setup-1");
	assert_string_equal(d.headings[3].id, "setup-2");
	assert_int_equal(d.headings[2].parent, 0);
	assert_int_equal(d.nilinks, 2);
	assert_string_equal(d.ilinks[0].url, "cuda_setup.md#install");
	assert_string_equal(d.ilinks[1].url, "#t");
	assert_int_equal(d.ncites, 1);
	doc_free(&d);
}

/* Ids: a heading whose own text reads like a numbered repeat takes its id
 * first, and the repeats go round it. Parents: the last heading of a lower
 * level, however many siblings lie between (each of levels 1 to 6). */
static void test_heading_ids_and_parents(void **state)
{
	(void)state;
	struct doc d;
	struct buf b = BUF_INIT;
	buf_puts(&b, "# T\n## Setup\n## Setup 1\n## Setup\n## Setup 1\n");
	for (int i = 0; i < 300; i++)
		buf_puts(&b, "## Many\n");
	buf_puts(&b, "### Deep\n###### Six\n#### Four\n## Last\n");
	load(&d, buf_cstr(&b), false);
	buf_free(&b);
	assert_int_equal(d.nheadings, 1 + 4 + 300 + 4);
	assert_string_equal(d.headings[1].id, "setup");
	assert_string_equal(d.headings[2].id, "setup-1");
	assert_string_equal(d.headings[3].id, "setup-2");
	assert_string_equal(d.headings[4].id, "setup-1-1");
	assert_string_equal(d.headings[5].id, "many");
	assert_string_equal(d.headings[304].id, "many-299");
	for (size_t i = 1; i < 305; i++)
		assert_int_equal(d.headings[i].parent, 0);
	assert_int_equal(d.headings[305].parent, 304); /* ### Deep: the last ## */
	assert_int_equal(d.headings[306].parent, 305); /* ###### Six */
	assert_int_equal(d.headings[307].parent, 305); /* #### Four: not Six */
	assert_int_equal(d.headings[308].parent, 0);   /* ## Last */
	assert_int_equal(d.headings[0].parent, -1);
	doc_free(&d);
}

/* One bold lead over thousands of nested "Paper:" entries: each entry takes
 * the lead's title and text (read once), bounded, so the output cannot grow
 * as the square of the input; an item whose links sit between its nested
 * items' links still stops reading its text after the bound. */
static void test_shared_context_bounded(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	buf_puts(&b, "- **Lead title** ");
	for (int i = 0; i < 3000; i++)
		buf_printf(&b, "w%d ", i);
	buf_puts(&b, "\n");
	for (int i = 0; i < 3000; i++)
		buf_printf(&b, "  - Paper: <https://x%d.org/>\n", i);
	struct doc d;
	load(&d, buf_cstr(&b), false);
	buf_free(&b);
	assert_int_equal(d.ncites, 3000);
	for (size_t i = 0; i < d.ncites; i++) {
		assert_string_equal(d.cites[i].title, "Lead title");
		assert_non_null(d.cites[i].desc);
		assert_true(strlen(d.cites[i].desc) <= 1000);
		assert_true(!strncmp(d.cites[i].desc, "w0 w1 w2 ", 9));
	}
	/* cut at a space, ending in an ellipsis */
	const char *end = d.cites[0].desc + strlen(d.cites[0].desc) - 3;
	assert_string_equal(end, "\xe2\x80\xa6");
	assert_true(end[-1] != ' ' && strchr(d.cites[0].desc, ' '));
	doc_free(&d);

	/* a short lead is kept whole */
	load(&d, "- **Short** text here\n  - Paper: <https://y.org/>\n", false);
	assert_string_equal(d.cites[0].title, "Short");
	assert_string_equal(d.cites[0].desc, "text here");
	doc_free(&d);

	/* an item's own links, each between two nested entries: past the bound
	 * they are titled by their text alone, with no description */
	struct buf a = BUF_INIT;
	buf_puts(&a, "- intro words\n\n");
	for (int i = 0; i < 40; i++)
		buf_printf(&a, "  [x%d](https://a%d.org/) about\n\n  - [y%d](https://b%d.org/) under\n\n", i, i,
			   i, i);
	load(&d, buf_cstr(&a), false);
	buf_free(&a);
	assert_int_equal(d.ncites, 80);
	assert_non_null(d.cites[0].desc);          /* x0: the item's first link */
	assert_non_null(d.cites[2 * 31].desc);     /* x31: the item's 32nd */
	assert_string_equal(d.cites[2 * 32].title, "x32");
	assert_null(d.cites[2 * 32].desc);         /* x32: the 33rd, past the bound */
	assert_non_null(d.cites[2 * 32 + 1].desc); /* y32: an entry of its own */
	doc_free(&d);
}

/* A heading's text is repeated for every citation under it (its section),
 * its id in every record of them: the text is bounded as a title, the id
 * at EXTRACT_ID_MAX (between characters, no ellipsis), the heading itself
 * left whole in the document. */
static void test_long_heading_bounded(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	buf_puts(&b, "# T\n## ");
	for (int i = 0; i < 5000; i++)
		buf_puts(&b, "\xc3\xa9t\xc3\xa9 ");
	buf_puts(&b, "\n- [a](https://a.org/)\n## ");
	for (int i = 0; i < 5000; i++)
		buf_puts(&b, "\xc3\xa9t\xc3\xa9 ");
	buf_puts(&b, "\n");
	struct doc d;
	load(&d, buf_cstr(&b), false);
	buf_free(&b);
	assert_int_equal(d.nheadings, 3);
	const struct heading *h = &d.headings[1];
	assert_true(strlen(h->text) <= EXTRACT_TITLE_MAX);
	assert_string_equal(h->text + strlen(h->text) - 3, "\xe2\x80\xa6");
	assert_true(strlen(h->id) <= EXTRACT_ID_MAX);
	assert_true(!strncmp(h->id, "\xc3\xa9t\xc3\xa9-\xc3\xa9t\xc3\xa9-", 12));
	/* a whole character at the cut, and the repeat told apart after it */
	assert_true(((unsigned char)h->id[strlen(h->id) - 1] & 0xC0) != 0xC0);
	assert_int_equal(strlen(d.headings[2].id), strlen(h->id) + 2);
	assert_string_equal(d.headings[2].id + strlen(h->id), "-1");
	assert_int_equal(d.cites[0].heading, 1);
	doc_free(&d);
}

static void test_same_tree_both_formats(void **state)
{
	(void)state;
	struct doc m, r;
	load(&m, "# Title\n\n## Section\n\n- [A](https://a.org/x) - first\n- [B](https://b.org/) - second\n",
	     false);
	load(&r,
	     "=====\nTitle\n=====\n\nSection\n-------\n\n"
	     "* `A <https://a.org/x>`_ - first\n* `B <https://b.org/>`_ - second\n",
	     true);
	assert_int_equal(m.nheadings, r.nheadings);
	for (size_t i = 0; i < m.nheadings; i++) {
		assert_string_equal(m.headings[i].id, r.headings[i].id);
		assert_int_equal(m.headings[i].level, r.headings[i].level);
	}
	assert_int_equal(m.ncites, r.ncites);
	for (size_t i = 0; i < m.ncites; i++) {
		assert_string_equal(m.cites[i].canonical, r.cites[i].canonical);
		assert_string_equal(m.cites[i].title, r.cites[i].title);
		assert_string_equal(m.cites[i].desc, r.cites[i].desc);
	}
	doc_free(&m);
	doc_free(&r);
}

/* A paragraph of thousands of links: every link is a citation titled by its
 * text (the entry rules, which read the whole entry, stop after a bound). */
static void test_crowded_entry(void **state)
{
	(void)state;
	size_t n = 5000, cap = n * 40 + 16, len = 0;
	char *text = malloc(cap);
	len += (size_t)snprintf(text + len, cap - len, "- ");
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len, "[l%zu](https://e%zu.org/), ", i, i);
	struct doc d;
	load(&d, text, false);
	assert_int_equal(d.ncites, n);
	assert_string_equal(d.cites[0].title, "l0");
	assert_string_equal(d.cites[n - 1].title, "l4999");
	doc_free(&d);
	free(text);
}

/* The text of an entry's outer item: code spans as they are, a space for
 * each line break, whitespace runs squeezed, and the nested list of the
 * entries themselves left out of it. */
static void test_lead_item_text(void **state)
{
	(void)state;
	struct doc d;
	load(&d,
	     "# Refs\n\n"
	     "- **Attention Is All You Need**:   the `transformer`\n"
	     "  paper,\ttwice  cited\n"
	     "  - Paper: https://arxiv.org/abs/1706.03762\n"
	     "  - Code: https://github.com/tensorflow/tensor2tensor\n",
	     false);
	assert_int_equal(d.ncites, 2);
	const struct citation *c = cite(&d, "https://arxiv.org/abs/1706.03762");
	assert_string_equal(c->title, "Attention Is All You Need");
	assert_string_equal(c->desc, "the transformer paper, twice cited");
	c = cite(&d, "https://github.com/tensorflow/tensor2tensor");
	assert_string_equal(c->title, "Attention Is All You Need");
	assert_string_equal(c->desc, "the transformer paper, twice cited");
	doc_free(&d);
}

/* A squeeze as plain as can be: runs of space, tab and newline to one
 * space, none at either end. */
static void reference_squeeze(const char *s, char *out)
{
	size_t n = 0;
	bool gap = false;
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			gap = n > 0;
			continue;
		}
		if (gap)
			out[n++] = ' ';
		gap = false;
		out[n++] = *s;
	}
	out[n] = '\0';
}

/* A node's text, squeezed, for whitespace of every kind at every place of
 * a code span (whose spaces the parser keeps): at the start, at the end,
 * doubled, alone, and none at all. */
static const struct citation *cite_url(const struct doc *d, const char *url)
{
	for (size_t i = 0; i < d->ncites; i++)
		if (!strcmp(d->cites[i].url, url))
			return &d->cites[i];
	fail_msg("no citation of %s", url);
	return NULL;
}

/* What check's rules ask of a link's place: whether it lists a resource,
 * the entry it stands in (one number for one entry node, wherever its links
 * lie), and the images of relative sources, kept so that no tree is. */
/* Every string extraction keeps lies in the document's one block (the rest
 * went with extraction's arena): headings, anchors, citations, internal
 * links and images alike. */
static bool in_block(const struct doc *d, const char *p)
{
	return !p || (p >= d->strings && p < d->strings + d->strings_size);
}

static void test_strings_in_one_block(void **state)
{
	(void)state;
	struct doc d;
	load(&d,
	     "# Head\n\n## Head\n\n"
	     "**Lead**: context\n\n"
	     "> - Paper: <https://arxiv.org/pdf/2205.14135v2.pdf>\n\n"
	     "- [A](http://WWW.a.org/x/) - about a\n"
	     "- [code](https://b.org/) ([pdf](https://b.org/p.pdf))\n\n"
	     "See [there](other.md#x) and [here](#head).\n\n"
	     "![plot](img/plot.png)\n",
	     false);
	assert_non_null(d.strings);
	assert_int_equal(d.nheadings, 2);
	assert_string_equal(d.headings[1].id, "head-1");
	for (size_t i = 0; i < d.nheadings; i++)
		assert_true(in_block(&d, d.headings[i].text) && in_block(&d, d.headings[i].id));
	assert_int_equal(d.nanchors, 2);
	for (size_t i = 0; i < d.nanchors; i++)
		assert_true(in_block(&d, d.anchors[i]));
	assert_int_equal(d.ncites, 4);
	for (size_t i = 0; i < d.ncites; i++) {
		const struct citation *c = &d.cites[i];
		assert_true(in_block(&d, c->url) && in_block(&d, c->canonical) &&
			    in_block(&d, c->text) && in_block(&d, c->title) && in_block(&d, c->desc));
	}
	assert_string_equal(cite(&d, "https://a.org/x")->title, "A");
	assert_string_equal(cite(&d, "https://arxiv.org/abs/2205.14135")->title, "Lead");
	assert_int_equal(d.nilinks, 2);
	for (size_t i = 0; i < d.nilinks; i++)
		assert_true(in_block(&d, d.ilinks[i].url));
	assert_int_equal(d.nimages, 1);
	assert_true(in_block(&d, d.images[0].url));
	doc_free(&d);
}

static void test_listings_and_images(void **state)
{
	(void)state;
	struct doc d;
	load(&d,
	     "# T\n\n"
	     "Prose mentions [m](https://m.org/) in passing.\n\n"
	     "[Alone](https://alone.org/)\n\n"
	     "**Bold title**: [b](https://bold.org/)\n\n"
	     "- [A](https://a.org/) ([pdf](https://a.org/pdf))\n"
	     "  - [Nested](https://n.org/)\n\n"
	     "  [A again](https://a2.org/) after the list\n\n"
	     "| Name | Link |\n|---|---|\n| x | [T](https://t.org/) |\n\n"
	     "![plot](img/plot.png) ![remote](https://r.org/i.png) ![frag](#x) "
	     "![abs](/abs.png)\n",
	     false);
	assert_int_equal(d.ncites, 8);
	const struct citation *m = cite_url(&d, "https://m.org/"),
			      *al = cite_url(&d, "https://alone.org/"),
			      *b = cite_url(&d, "https://bold.org/"), *a = cite_url(&d, "https://a.org/"),
			      *pdf = cite_url(&d, "https://a.org/pdf"),
			      *n = cite_url(&d, "https://n.org/"), *a2 = cite_url(&d, "https://a2.org/"),
			      *t = cite_url(&d, "https://t.org/");
	assert_false(m->listing);
	assert_true(al->listing && b->listing && a->listing && pdf->listing && n->listing &&
		    a2->listing && t->listing);
	/* numbered by their first citation, from 1 */
	assert_int_equal(m->entry, 1);
	assert_int_equal(al->entry, 2);
	assert_int_equal(b->entry, 3);
	assert_int_equal(a->entry, 4);
	assert_int_equal(pdf->entry, 4); /* one item, two links */
	assert_int_equal(n->entry, 6);   /* the nested item is an entry of its own */
	assert_int_equal(a2->entry, 4);  /* the outer item again, after its sublist */
	assert_int_equal(t->entry, 8);   /* a table cell */
	assert_int_equal(d.nimages, 1);
	assert_string_equal(d.images[0].url, "img/plot.png");
	assert_int_equal(d.images[0].line, 18);
	assert_int_equal(d.images[0].col, 1);
	doc_free(&d);
}

static void test_node_text_squeezed(void **state)
{
	(void)state;
	static const char *const ws[] = {"", " ", "  ", "\t", " \t ", "\n"};
	size_t nws = sizeof ws / sizeof *ws;
	for (size_t a = 0; a < nws; a++)
		for (size_t b = 0; b < nws; b++)
			for (size_t c = 0; c < nws; c++) {
				char code[64], md[96], want[96];
				snprintf(code, sizeof code, "%sx%sy z%s", ws[a], ws[b], ws[c]);
				/* double backticks: a newline in the span stays a space */
				snprintf(md, sizeof md, "p ``%s`` q\n", code);
				struct diags dg = DIAGS_INIT;
				cmark_node *doc = md_parse(md, strlen(md), "t.md", false, &dg);
				cmark_node *para = cmark_node_first_child(doc);
				char *got = doc_node_text(para);
				cmark_node *span = cmark_node_next(cmark_node_first_child(para));
				char raw[96];
				snprintf(raw, sizeof raw, "p %s q", cmark_node_get_literal(span));
				reference_squeeze(raw, want);
				assert_string_equal(got, want);
				free(got);
				/* the span alone: its own first and last bytes */
				got = doc_node_text(span);
				reference_squeeze(cmark_node_get_literal(span), want);
				assert_string_equal(got, want);
				free(got);
				cmark_node_free(doc);
				diags_free(&dg);
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_squeezed),
		cmocka_unit_test(test_markdown_shapes),
		cmocka_unit_test(test_rst_shapes),
		cmocka_unit_test(test_headings_and_internal_links),
		cmocka_unit_test(test_heading_ids_and_parents),
		cmocka_unit_test(test_long_heading_bounded),
		cmocka_unit_test(test_same_tree_both_formats),
		cmocka_unit_test(test_crowded_entry),
		cmocka_unit_test(test_shared_context_bounded),
		cmocka_unit_test(test_lead_item_text),
		cmocka_unit_test(test_node_text_squeezed),
		cmocka_unit_test(test_listings_and_images),
		cmocka_unit_test(test_strings_in_one_block),
	};
	return cmocka_run_group_tests_name("extract", tests, NULL, NULL);
}
