/* rst_outline: reads a reStructuredText file, runs rst_parse and prints a
 * normalised outline of the tree for tests/rst_differential.py to compare
 * with docutils' doctree:
 *   section LEVEL TITLE      one per heading
 *   list bullet | list ordered START
 *   item TEXT                one per list item (text of its first paragraph)
 *   literal TEXT             one per literal block (newlines as \n)
 *   cell TEXT                one per table cell (GFM or HTML fallback)
 *   link URL                 the sorted set of non-fragment link URLs
 * Texts are whitespace-collapsed; images and custom inline HTML add none.
 * Usage: rst_outline FILE [--diags] */
#include "ast.h"
#include "buf.h"
#include "diag.h"
#include "rst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void text_of(cmark_node *n, struct buf *b)
{
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_TEXT:
	case CMARK_NODE_CODE:
		buf_puts(b, cmark_node_get_literal(n));
		return;
	case CMARK_NODE_SOFTBREAK:
	case CMARK_NODE_LINEBREAK:
		buf_putc(b, ' ');
		return;
	case CMARK_NODE_IMAGE:
		return;
	default:
		break;
	}
	for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
		size_t before = b->n;
		text_of(c, b);
		/* block children are separate paragraphs */
		if (b->n > before &&
		    (cmark_node_get_type(c) & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK)
			buf_putc(b, ' ');
	}
}

/* Whitespace runs to one space, trimmed. */
static void print_collapsed(const char *tag, const char *s)
{
	struct buf b = BUF_INIT;
	bool sp = false;
	for (; *s; s++) {
		if (*s == ' ' || *s == '\n' || *s == '\t') {
			sp = true;
			continue;
		}
		if (sp && b.n)
			buf_putc(&b, ' ');
		sp = false;
		buf_putc(&b, *s);
	}
	printf("%s%s%s\n", tag, b.n ? " " : "", buf_cstr(&b));
	buf_free(&b);
}

static void print_text(const char *tag, cmark_node *n)
{
	struct buf b = BUF_INIT;
	if (n)
		text_of(n, &b);
	print_collapsed(tag, buf_cstr(&b));
	buf_free(&b);
}

static bool custom_starts(cmark_node *n, const char *prefix)
{
	const char *e = cmark_node_get_on_enter(n);
	return e && !strncmp(e, prefix, strlen(prefix));
}

struct links {
	char **v;
	size_t n, cap;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(cmark_node *doc, struct links *links)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		cmark_node_type t = cmark_node_get_type(n);
		if (t == CMARK_NODE_HEADING) {
			char tag[32];
			snprintf(tag, sizeof tag, "section %d", cmark_node_get_heading_level(n));
			print_text(tag, n);
		} else if (t == CMARK_NODE_LIST) {
			if (cmark_node_get_list_type(n) == CMARK_ORDERED_LIST)
				printf("list ordered %d\n", cmark_node_get_list_start(n));
			else
				printf("list bullet\n");
		} else if (t == CMARK_NODE_ITEM) {
			cmark_node *f = cmark_node_first_child(n);
			print_text("item", f && cmark_node_get_type(f) == CMARK_NODE_PARAGRAPH ? f : NULL);
		} else if (t == CMARK_NODE_CODE_BLOCK) {
			struct buf b = BUF_INIT;
			const char *s = cmark_node_get_literal(n);
			size_t l = strlen(s);
			while (l && s[l - 1] == '\n')
				l--;
			for (size_t k = 0; k < l; k++) {
				if (s[k] == '\n')
					buf_puts(&b, "\\n");
				else
					buf_putc(&b, s[k]);
			}
			printf("literal %s\n", buf_cstr(&b));
			buf_free(&b);
		} else if (ast_is_table_cell(n) ||
			   (t == CMARK_NODE_CUSTOM_BLOCK &&
			    (custom_starts(n, "<td>") || custom_starts(n, "<td ") || custom_starts(n, "<th>") ||
			     custom_starts(n, "<th ")))) {
			print_text("cell", n);
		} else if (t == CMARK_NODE_LINK) {
			const char *u = cmark_node_get_url(n);
			if (u && *u && *u != '#') {
				links->v = realloc(links->v, (links->n + 1) * sizeof *links->v);
				links->v[links->n++] = strdup(u);
			}
		}
	}
	cmark_iter_free(it);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: rst_outline FILE [--diags]\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	struct buf in = BUF_INIT;
	char chunk[65536];
	size_t r;
	while ((r = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_put(&in, chunk, r);
	fclose(f);
	struct diags d = DIAGS_INIT;
	cmark_node *doc = rst_parse(buf_cstr(&in), in.n, argv[1], NULL, &d);
	struct links links = {NULL, 0, 0};
	walk(doc, &links);
	qsort(links.v, links.n, sizeof *links.v, cmp_str);
	for (size_t k = 0; k < links.n; k++) {
		if (!k || strcmp(links.v[k], links.v[k - 1]))
			printf("link %s\n", links.v[k]);
	}
	for (size_t k = 0; k < links.n; k++)
		free(links.v[k]);
	free(links.v);
	if (argc > 2 && !strcmp(argv[2], "--diags"))
		diags_print(&d, stderr);
	diags_free(&d);
	cmark_node_free(doc);
	buf_free(&in);
	return 0;
}
