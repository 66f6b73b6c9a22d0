/* html: dressing a document tree, rendering it, and resolving its markers
 * (see html.h). */
#include "html.h"
#include "ast.h"
#include "buf.h"
#include "path.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define MARK_OPEN '\x1e'
#define MARK_CLOSE '\x1f'

void html_resource_url_parts(const struct resource *r, const char *parts[3])
{
	if (r->has_page) {
		parts[0] = RESOURCE_FOLDER;
		parts[1] = r->slug;
		parts[2] = "/";
	} else {
		parts[0] = r->index_page ? r->index_page : "resources/";
		parts[1] = "#";
		parts[2] = r->slug;
	}
}

char *html_resource_url(const struct resource *r)
{
	const char *p[3];
	html_resource_url_parts(r, p);
	return xconcat(p[0], p[1], p[2], NULL);
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
	/* room for the usual id at once, not grown from nothing */
	size_t idn = strlen(h->id);
	buf_grow(&open, idn + 16);
	buf_grow(&close, idn + 72);
	int lv = h->level < 1 ? 1 : h->level > 6 ? 6 : h->level;
	buf_puts(&open, "<h");
	buf_put_uint(&open, (unsigned)lv);
	buf_puts(&open, " id=\"");
	buf_puts_html(&open, h->id);
	buf_puts(&open, "\">");
	buf_puts(&close, "<a class=\"anchor\" href=\"#");
	buf_puts_html(&close, h->id);
	buf_puts(&close, "\" aria-label=\"Link to this section\">#</a></h");
	buf_put_uint(&close, (unsigned)lv);
	buf_putc(&close, '>');
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

/* The marker of kind and i, into out (on the caller's stack: one a
 * citation, 250,000 at 10,000 documents, each copied by the node it goes
 * in). */
#define MARKER_SIZE 24 /* open, kind, up to 20 digits, close, NUL */
static const char *marker(char out[MARKER_SIZE], char kind, size_t i)
{
	char digits[20];
	size_t n = 0;
	do
		digits[n++] = (char)('0' + i % 10);
	while ((i /= 10));
	size_t at = 0;
	out[at++] = MARK_OPEN;
	out[at++] = kind;
	while (n)
		out[at++] = digits[--n];
	out[at++] = MARK_CLOSE;
	out[at] = '\0';
	return out;
}

/* A citation: a marker after the link, for the badge. */
static void mark_citation(struct citation *c, size_t i)
{
	char m[MARKER_SIZE];
	cmark_node *badge = ast_custom_inline(marker(m, 'C', i), "");
	cmark_node_insert_after(c->node, badge);
}

/* A relative link: replaced by an element whose start and end are markers. */
static void mark_ilink(struct ilink *l, size_t i)
{
	char open[MARKER_SIZE], close[MARKER_SIZE];
	cmark_node *span = ast_custom_inline(marker(open, 'L', i), marker(close, 'E', i));
	move_children(l->node, span);
	cmark_node_replace(l->node, span);
	cmark_node_free(l->node);
	l->node = NULL;
}

char *html_render_body(struct doc *d)
{
	ast_own(d->tree);
	for (size_t i = 0; i < d->ncites; i++) {
		mark_citation(&d->cites[i], i);
		d->cites[i].node = NULL;
	}
	for (size_t i = 0; i < d->nilinks; i++)
		mark_ilink(&d->ilinks[i], i);
	/* headings and code blocks, as extraction found them (no walk of the
	 * tree again; and none edited under an iterator) */
	for (size_t i = 0; i < d->nheadings; i++)
		if (d->headings[i].node) {
			dress_heading(d->headings[i].node, &d->headings[i]);
			d->headings[i].node = NULL;
		}
	for (size_t i = 0; i < d->ncode_blocks; i++)
		dress_code(d->code_blocks[i]);
	free(d->code_blocks);
	d->code_blocks = NULL;
	d->ncode_blocks = 0;
	/* the default allocator: the tree may live in a document's arena */
	return cmark_render_html_with_mem(d->tree, CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES,
					  ast_extensions(), cmark_get_default_mem_allocator());
}

/* ---- step 2 ------------------------------------------------------------------- */

static void put_badge(struct buf *b, const struct site *s, const struct citation *c, const char *root)
{
	if (c->resource < 0)
		return;
	const struct resource *r = &s->res[c->resource];
	size_t others = r->ndocs - 1;
	const char *url[3];
	html_resource_url_parts(r, url);
	buf_puts(b, " <a class=\"cites\" href=\"");
	buf_puts_html(b, root);
	for (size_t i = 0; i < 3; i++)
		buf_puts_html(b, url[i]);
	if (others) {
		buf_puts(b, "\" title=\"Cited by ");
		buf_put_uint(b, others);
		buf_puts(b, others == 1 ? " other document\">+" : " other documents\">+");
		buf_put_uint(b, others);
		buf_puts(b, "</a>");
	} else
		buf_puts(b, "\" title=\"About this resource\">&#8599;</a>");
}

static void put_link_open(struct buf *b, const struct site *s, const struct ilink *l, const char *root)
{
	if (l->missing) {
		buf_puts(b, "<span class=\"broken-link\" title=\"Missing: ");
		buf_puts_html(b, l->url);
		buf_puts(b, "\">");
		return;
	}
	buf_puts(b, "<a href=\"");
	if (l->target >= 0) {
		if (l->url[0] != '#') {
			buf_puts_html(b, root);
			buf_puts_html(b, s->docs[l->target].url);
		}
		if (l->anchor) {
			buf_putc(b, '#');
			buf_puts_html(b, l->anchor);
		}
	} else {
		/* a static file under content/: copied to the same path from the root */
		buf_puts_html(b, root);
		buf_puts_html(b, l->resolved ? l->resolved : "");
	}
	buf_puts(b, "\">");
}

char *html_finish_body(const struct site *s, size_t di, const char *body, const char *root)
{
	const struct doc *d = &s->docs[di];
	/* the badges' resources lie all over the model: asked for at once, the
	 * resources and then their slugs, so that the misses overlap */
	for (size_t i = 0; i < d->ncites; i++)
		if (d->cites[i].resource >= 0)
			model_prefetch_resource(&s->res[d->cites[i].resource]);
	for (size_t i = 0; i < d->ncites; i++)
		if (d->cites[i].resource >= 0)
			__builtin_prefetch(s->res[d->cites[i].resource].slug);
	struct buf b = BUF_INIT;
	buf_grow(&b, strlen(body) + 1024);
	const char *p = body;
	for (;;) {
		const char *m = strchr(p, MARK_OPEN);
		if (!m) {
			buf_puts(&b, p);
			break;
		}
		buf_put(&b, p, (size_t)(m - p));
		char kind = m[1];
		char *end;
		size_t i = strtoul(m + 2, &end, 10);
		if (*end != MARK_CLOSE) {
			p = m + 1; /* not ours: the input cannot hold these, but be safe */
			continue;
		}
		p = end + 1;
		if (kind == 'C' && i < d->ncites)
			put_badge(&b, s, &d->cites[i], root);
		else if (kind == 'L' && i < d->nilinks)
			put_link_open(&b, s, &d->ilinks[i], root);
		else if (kind == 'E' && i < d->nilinks)
			buf_puts(&b, d->ilinks[i].missing ? "</span>" : "</a>");
	}
	return buf_detach(&b);
}

/* ---- a body again, without the model ----------------------------------------------- */

struct relinks {
	struct {
		const char *p;
		size_t n;
		bool set;
	} *v[3];           /* per kind (C, L, E): by the marker's number */
	size_t cap[3];
};

static int kind_slot(char kind) { return kind == 'C' ? 0 : kind == 'L' ? 1 : kind == 'E' ? 2 : -1; }

static bool starts(const char *p, const char *end, const char *with)
{
	size_t n = strlen(with);
	return (size_t)(end - p) >= n && !memcmp(p, with, n);
}

/* How long the text put_badge, put_link_open or the closing tag wrote at p
 * is (they are told apart by their first bytes); -1 when p holds none. */
static long finished_length(char kind, const char *p, const char *end)
{
	if (kind == 'C') {
		if (!starts(p, end, " <a class=\"cites\" href=\""))
			return 0; /* a citation without a resource has no badge */
		for (const char *q = p; q + 4 <= end; q++)
			if (!memcmp(q, "</a>", 4))
				return q + 4 - p;
		return -1;
	}
	if (kind == 'L') {
		if (!starts(p, end, "<span class=\"broken-link\"") && !starts(p, end, "<a href=\""))
			return -1;
		const char *gt = memchr(p, '>', (size_t)(end - p));
		return gt ? gt + 1 - p : -1;
	}
	return starts(p, end, "</span>") ? 7 : starts(p, end, "</a>") ? 4 : -1;
}

/* The next marker of a body at or after p: its kind and number, and where it
 * starts and ends; false at the end. *bad when a marker is malformed. */
static bool next_marker(const char *p, const char **at, const char **after, int *slot, size_t *i,
			bool *bad)
{
	const char *m = strchr(p, MARK_OPEN);
	if (!m)
		return false;
	char *end;
	*slot = kind_slot(m[1]);
	*i = *slot < 0 ? 0 : strtoul(m + 2, &end, 10);
	if (*slot < 0 || end == m + 2 || *end != MARK_CLOSE || *i > 1000000) {
		*bad = true;
		return false;
	}
	*at = m;
	*after = end + 1;
	return true;
}

static bool relink_learn(struct relinks *r, const char *marked, const char *fin, size_t fin_len)
{
	const char *p = marked, *q = fin, *qend = fin + fin_len, *m, *after;
	int slot;
	size_t i;
	bool bad = false;
	for (;;) {
		bool more = next_marker(p, &m, &after, &slot, &i, &bad);
		if (bad)
			return false;
		size_t lit = more ? (size_t)(m - p) : strlen(p);
		if ((size_t)(qend - q) < lit || memcmp(p, q, lit))
			return false;
		q += lit;
		if (!more)
			return q == qend;
		long n = finished_length("CLE"[slot], q, qend);
		if (n < 0)
			return false;
		size_t had = r->cap[slot];
		r->v[slot] = xgrow(r->v[slot], &r->cap[slot], i + 1, sizeof *r->v[slot]);
		memset(r->v[slot] + had, 0, (r->cap[slot] - had) * sizeof *r->v[slot]);
		if (r->v[slot][i].set && (r->v[slot][i].n != (size_t)n ||
					  memcmp(r->v[slot][i].p, q, (size_t)n)))
			return false;
		r->v[slot][i].p = q;
		r->v[slot][i].n = (size_t)n;
		r->v[slot][i].set = true;
		q += n;
		p = after;
	}
}

/* new_marked with each marker made what it became in old_final. With
 * cite_map (a preview), citation i's marker becomes what old citation
 * cite_map[i] became, or nothing (no badge) for -1 or past nmap. */
static char *relink(const char *old_marked, const char *old_final, size_t old_final_len,
		    const char *new_marked, const long *cite_map, size_t nmap)
{
	struct relinks r;
	memset(&r, 0, sizeof r);
	char *out = NULL;
	if (relink_learn(&r, old_marked, old_final, old_final_len)) {
		struct buf b = BUF_INIT;
		buf_grow(&b, strlen(new_marked) + old_final_len - strlen(old_marked) + 64);
		const char *p = new_marked, *m, *after;
		int slot;
		size_t i;
		bool bad = false, ok = true;
		while (ok && next_marker(p, &m, &after, &slot, &i, &bad)) {
			buf_put(&b, p, (size_t)(m - p));
			bool mapped = slot == 0 && cite_map;
			long at = !mapped ? (long)i : i < nmap ? cite_map[i] : -1;
			bool known = at >= 0 && (size_t)at < r.cap[slot] && r.v[slot][at].set;
			ok = known || mapped;
			if (known)
				buf_put(&b, r.v[slot][at].p, r.v[slot][at].n);
			p = after;
		}
		if (ok && !bad) {
			buf_puts(&b, p);
			out = buf_detach(&b);
		} else
			buf_free(&b);
	}
	for (int k = 0; k < 3; k++)
		free(r.v[k]);
	return out;
}

char *html_relink_body(const char *old_marked, const char *old_final, size_t old_final_len,
		       const char *new_marked)
{
	return relink(old_marked, old_final, old_final_len, new_marked, NULL, 0);
}

char *html_relink_preview(const char *old_marked, const char *old_final, size_t old_final_len,
			  const char *new_marked, const long *cite_map, size_t nmap)
{
	static const long none[1] = {-1};
	return relink(old_marked, old_final, old_final_len, new_marked, cite_map ? cite_map : none,
		      cite_map ? nmap : 0);
}
