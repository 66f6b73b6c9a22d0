/* html: dressing a document tree for its page and rendering it (see html.h). */
#include "html.h"
#include "ast.h"
#include "buf.h"
#include "path.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

char *html_resource_url(const struct resource *r)
{
	if (r->has_page)
		return xasprintf("r/%s/", r->slug);
	return xasprintf("resources/#%s", r->slug);
}

/* Move every child of `from` to the end of `to`. The tree must be owned. */
static void move_children(cmark_node *from, cmark_node *to)
{
	cmark_node *c;
	while ((c = cmark_node_first_child(from))) {
		cmark_node_unlink(c);
		if (!cmark_node_append_child(to, c))
			cmark_node_free(c);
	}
}

static void dress_heading(cmark_node *n, const struct heading *h)
{
	struct buf open = BUF_INIT, close = BUF_INIT;
	int lv = h->level < 1 ? 1 : h->level > 6 ? 6 : h->level;
	buf_printf(&open, "<h%d id=\"", lv);
	buf_puts_html(&open, h->id);
	buf_puts(&open, "\">");
	buf_puts(&close, "<a class=\"anchor\" href=\"#");
	buf_puts_html(&close, h->id);
	buf_printf(&close, "\" aria-label=\"Link to this section\">#</a></h%d>", lv);
	cmark_node *c = ast_custom_block(buf_cstr(&open), buf_cstr(&close));
	move_children(n, c);
	cmark_node_replace(n, c);
	cmark_node_free(n);
	buf_free(&open);
	buf_free(&close);
}

static void dress_code(cmark_node *n)
{
	const char *info = cmark_node_get_fence_info(n);
	const char *lit = cmark_node_get_literal(n);
	struct buf lang = BUF_INIT, b = BUF_INIT;
	for (const char *p = info ? info : ""; *p && *p != ' ' && *p != '{' && *p != ','; p++)
		buf_putc(&lang, *p);
	if (lang.n) {
		buf_puts(&b, "<div class=\"code\" data-lang=\"");
		buf_put_html(&b, lang.p, lang.n);
		buf_puts(&b, "\"><div class=\"code-lang\">");
		buf_put_html(&b, lang.p, lang.n);
		buf_puts(&b, "</div><pre><code class=\"language-");
		buf_put_html(&b, lang.p, lang.n);
		buf_puts(&b, "\">");
	} else
		buf_puts(&b, "<div class=\"code\"><pre><code>");
	buf_puts_html(&b, lit ? lit : "");
	buf_puts(&b, "</code></pre></div>");
	cmark_node *c = ast_custom_block(buf_cstr(&b), "");
	cmark_node_replace(n, c);
	cmark_node_free(n);
	buf_free(&lang);
	buf_free(&b);
}

static void dress_citation(const struct site *s, size_t d, const struct citation *c,
			   const char *root)
{
	if (c->resource < 0 || !c->node)
		return;
	const struct resource *r = &s->res[c->resource];
	size_t others = r->ndocs - 1;
	char *url = html_resource_url(r);
	struct buf b = BUF_INIT;
	buf_puts(&b, " <a class=\"cites\" href=\"");
	buf_puts_html(&b, root);
	buf_puts_html(&b, url);
	if (others)
		buf_printf(&b, "\" title=\"Cited by %zu other document%s\">+%zu</a>", others,
			   others == 1 ? "" : "s", others);
	else
		buf_puts(&b, "\" title=\"About this resource\">&#8599;</a>");
	cmark_node *badge = ast_custom_inline(buf_cstr(&b), "");
	cmark_node_insert_after(c->node, badge);
	free(url);
	buf_free(&b);
	(void)d;
}

static void dress_ilink(const struct site *s, const struct ilink *l, const char *root)
{
	if (l->target >= 0) {
		const struct doc *t = &s->docs[l->target];
		char *url;
		if (l->url[0] == '#')
			url = xasprintf("#%s", l->anchor ? l->anchor : "");
		else
			url = xasprintf("%s%s%s%s", root, t->url, l->anchor ? "#" : "",
					l->anchor ? l->anchor : "");
		cmark_node_set_url(l->node, url);
		free(url);
		return;
	}
	if (!l->missing) {
		/* a static file under content/: copied to the same path from the root */
		char *url = xasprintf("%s%s", root, l->resolved ? l->resolved : "");
		cmark_node_set_url(l->node, url);
		free(url);
		return;
	}
	struct buf b = BUF_INIT;
	buf_puts(&b, "<span class=\"broken-link\" title=\"Missing: ");
	buf_puts_html(&b, l->url);
	buf_puts(&b, "\">");
	cmark_node *span = ast_custom_inline(buf_cstr(&b), "</span>");
	move_children(l->node, span);
	cmark_node_replace(l->node, span);
	cmark_node_free(l->node);
	buf_free(&b);
}

char *html_render_doc(const struct site *s, size_t di, const char *root)
{
	struct doc *d = &s->docs[di];
	cmark_node_own(d->tree);
	for (size_t i = 0; i < d->ncites; i++)
		dress_citation(s, di, &d->cites[i], root);
	for (size_t i = 0; i < d->nilinks; i++)
		dress_ilink(s, &d->ilinks[i], root);
	/* headings and code blocks, collected first: never edit under an iterator */
	cmark_node **heads = xcalloc(d->nheadings + 1, sizeof *heads);
	size_t nh = 0, ncode = 0, capcode = 0;
	cmark_node **code = NULL;
	cmark_iter *it = cmark_iter_new(d->tree);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (cmark_node_get_type(n) == CMARK_NODE_HEADING && nh < d->nheadings)
			heads[nh++] = n;
		else if (cmark_node_get_type(n) == CMARK_NODE_CODE_BLOCK) {
			code = xgrow(code, &capcode, ncode + 1, sizeof *code);
			code[ncode++] = n;
		}
	}
	cmark_iter_free(it);
	for (size_t i = 0; i < nh; i++)
		dress_heading(heads[i], &d->headings[i]);
	for (size_t i = 0; i < ncode; i++)
		dress_code(code[i]);
	free(heads);
	free(code);
	return cmark_render_html(d->tree, CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES, ast_extensions());
}
