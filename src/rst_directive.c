/* rst_directive: explicit markup blocks of reStructuredText: footnote and
 * citation definitions, hyperlink targets, substitution definitions,
 * comments, and directives (admonitions, images and figures, contents,
 * topic, sidebar, rubric, epigraph/highlights/pull-quote, compound,
 * container, class, title, meta, code, math, raw and include, list-table).
 * Unknown or refused directives keep their text as a literal block. */
#include "rst_int.h"
#include "ast.h"
#include "path.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct opt {
	char *name;
	struct buf val;
};

struct dir {
	char name[48];
	char *args;          /* arguments joined with spaces */
	struct opt opts[16];
	int nopts;
	struct rst_line *content;
	size_t ncontent;
	int line;
};

static const char *opt_get(const struct dir *d, const char *name)
{
	for (int k = 0; k < d->nopts; k++)
		if (!strcmp(d->opts[k].name, name))
			return buf_cstr(&d->opts[k].val);
	return NULL;
}

static void dir_free(struct dir *d)
{
	free(d->args);
	for (int k = 0; k < d->nopts; k++) {
		free(d->opts[k].name);
		buf_free(&d->opts[k].val);
	}
	free(d->content);
}

/* Directives taking arguments (their first block is the argument block). */
static bool takes_args(const char *name)
{
	static const char *const v[] = {"admonition", "image", "figure", "topic", "sidebar", "rubric",
					"container", "class", "title", "code", "code-block", "sourcecode",
					"raw", "include", "contents", "list-table", "csv-table", "table",
					"math", "highlight", "default-role", "role", "unicode", "replace",
					"date"};
	for (size_t k = 0; k < sizeof v / sizeof *v; k++)
		if (!strcmp(v[k], name))
			return true;
	return false;
}

static void parse_options(struct dir *d, const struct rst_line *B, size_t from, size_t to)
{
	struct opt *cur = NULL;
	for (size_t k = from; k < to; k++) {
		const char *p = B[k].p;
		size_t n = B[k].n;
		if (B[k].ind == 0 && n > 1 && p[0] == ':' && d->nopts < 16) {
			size_t e = 1;
			while (e < n && p[e] != ':')
				e++;
			cur = &d->opts[d->nopts++];
			cur->name = xstrndup(p + 1, e > 1 ? e - 1 : 0);
			memset(&cur->val, 0, sizeof cur->val);
			e = e < n ? e + 1 : n;
			while (e < n && p[e] == ' ')
				e++;
			buf_put(&cur->val, p + e, n - e);
		} else if (cur && n) {
			if (cur->val.n)
				buf_putc(&cur->val, ' ');
			buf_put(&cur->val, p + B[k].ind, n - B[k].ind);
		}
	}
}

/* Split the directive block B (B[0]: the first line after "::") into
 * arguments, options and content, the way docutils does. */
static void parse_dir(struct dir *d, struct rst_line *B, size_t m)
{
	size_t s = 0;
	if (m && B[0].n == 0)
		s = 1;
	struct rst_line *cont = xcalloc(m + 1, sizeof *cont);
	size_t nc = 0;
	size_t i = s;
	while (i < m && B[i].n)
		i++;
	size_t ab = s, ae = i, k = s;
	while (k < ae && !(B[k].ind == 0 && B[k].n > 1 && B[k].p[0] == ':'))
		k++;
	parse_options(d, B, k, ae);
	ae = k;
	if (takes_args(d->name)) {
		struct buf a = BUF_INIT;
		for (size_t q = ab; q < ae; q++) {
			if (a.n)
				buf_putc(&a, ' ');
			buf_put(&a, B[q].p + B[q].ind, B[q].n - B[q].ind);
		}
		d->args = buf_detach(&a);
		for (size_t q = i + 1; q < m; q++)
			cont[nc++] = B[q];
	} else {
		d->args = xstrdup("");
		for (size_t q = ab; q < ae; q++)
			cont[nc++] = B[q];
		for (size_t q = i; q < m; q++)
			cont[nc++] = B[q];
	}
	size_t lead = 0;
	while (lead < nc && cont[lead].n == 0)
		lead++;
	memmove(cont, cont + lead, (nc - lead) * sizeof *cont);
	d->content = cont;
	d->ncontent = nc - lead;
}

/* The whole explicit block as a literal block (unknown or refused). */
static void keep_literal(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t i, size_t end)
{
	struct rst_line *s = xcalloc(end - i + 1, sizeof *s);
	for (size_t k = i; k < end; k++)
		s[k - i] = L[k];
	size_t m = end - i;
	while (m && s[m - 1].n == 0)
		m--;
	rst_code_block(c, parent, s, m, NULL, L[i].no);
	free(s);
}

static char *html_esc(const char *s)
{
	struct buf b = BUF_INIT;
	buf_puts_html(&b, s);
	return buf_detach(&b);
}

static void titled(struct rst_ctx *c, cmark_node *box, const char *cls, const char *title, int line,
		   bool inline_markup)
{
	char *open = xasprintf("<p class=\"%s\">", cls);
	cmark_node *t = rst_inline_block(box, open, "</p>", line);
	free(open);
	if (!t)
		return;
	if (inline_markup)
		rst_defer(c, t, title, strlen(title), line);
	else
		ast_append(t, ast_text(title));
}

static void admonition(struct rst_ctx *c, cmark_node *parent, struct dir *d, int depth)
{
	bool generic = !strcmp(d->name, "admonition");
	char *title;
	struct buf open = BUF_INIT;
	if (generic) {
		title = xstrdup(d->args);
		char *id = rst_make_id(title);
		buf_puts(&open, "<div class=\"admonition admonition-");
		buf_puts_html(&open, id);
		buf_puts(&open, "\">");
		free(id);
		if (!*title)
			rst_warn(c, d->line, "Error in \"admonition\" directive: 1 argument(s) required, 0 supplied.");
	} else {
		title = xstrdup(d->name);
		title[0] = (char)(title[0] - 'a' + 'A');
		buf_printf(&open, "<div class=\"admonition %s\"><p class=\"admonition-title\">%s</p>", d->name,
			   title);
	}
	cmark_node *box = rst_custom(parent, buf_cstr(&open), "</div>", d->line);
	buf_free(&open);
	if (generic)
		titled(c, box, "admonition-title", title, d->line, true);
	if (!d->ncontent && !generic)
		rst_warn(c, d->line, "Content block expected for the \"%s\" directive; none found.", d->name);
	rst_body(c, box, d->content, d->ncontent, depth + 1);
	free(title);
}

static void simple_box(struct rst_ctx *c, cmark_node *parent, struct dir *d, int depth, const char *open,
		       const char *close, const char *title_cls)
{
	cmark_node *box = rst_custom(parent, open, close, d->line);
	if (title_cls && *d->args)
		titled(c, box, title_cls, d->args, d->line, true);
	if (title_cls && !strcmp(title_cls, "sidebar-title") && opt_get(d, "subtitle"))
		titled(c, box, "sidebar-subtitle", opt_get(d, "subtitle"), d->line, true);
	rst_body(c, box, d->content, d->ncontent, depth + 1);
}

static char *squeeze(const char *s)
{
	struct buf b = BUF_INIT;
	for (; *s; s++)
		if (*s != ' ' && *s != '\n')
			buf_putc(&b, *s);
	return buf_detach(&b);
}

/* An image node (wrapped in a link for :target:) appended to para. */
static void image_into(struct rst_ctx *c, cmark_node *para, struct dir *d)
{
	char *uri = squeeze(d->args);
	if (!*uri)
		rst_warn(c, d->line, "Error in \"%s\" directive: 1 argument(s) required, 0 supplied.", d->name);
	cmark_node *img = ast_node_new(CMARK_NODE_IMAGE);
	ast_set_line(img, d->line); /* for the unsafe-URL warning */
	cmark_node_set_url(img, uri);
	const char *alt = opt_get(d, "alt");
	ast_append(img, ast_text(alt ? alt : uri));
	const char *target = opt_get(d, "target");
	if (target && *target) {
		char *t = squeeze(target);
		size_t tn = strlen(t);
		cmark_node *link = ast_node_new(CMARK_NODE_LINK);
		ast_set_line(link, d->line);
		if (tn > 1 && t[tn - 1] == '_') {
			struct rst_ref *r = &RST_PUSH(c->refs);
			size_t x = 0, y = tn - 1;
			if (y > 1 && t[0] == '`' && t[y - 1] == '`') {
				x = 1;
				y--;
			}
			r->link = link;
			r->name = rst_normalize_name(t + x, y - x);
			r->line = d->line;
		} else
			cmark_node_set_url(link, t);
		ast_append(link, img);
		ast_append(para, link);
		free(t);
	} else
		ast_append(para, img);
	free(uri);
}

static void contents(struct rst_ctx *c, cmark_node *parent, struct dir *d)
{
	const char *title = *d->args ? d->args : "Contents";
	char *id = rst_make_id(title);
	char *open = xasprintf("<nav class=\"contents%s\" id=\"%s\" role=\"doc-toc\">",
			       opt_get(d, "local") ? " local" : "", id);
	cmark_node *box = rst_custom(parent, open, "</nav>", d->line);
	free(open);
	free(id);
	if (!box)
		return;
	if (!opt_get(d, "local") || *d->args)
		titled(c, box, "topic-title", title, d->line, true);
	struct rst_toc *t = &RST_PUSH(c->contents);
	t->node = box;
	t->local = opt_get(d, "local") != NULL;
	t->depth = opt_get(d, "depth") ? atoi(opt_get(d, "depth")) : 0;
	t->level = c->section_depth;
}

static void code(struct rst_ctx *c, cmark_node *parent, struct dir *d)
{
	if (!d->ncontent) {
		rst_warn(c, d->line, "Content block expected for the \"%s\" directive; none found.", d->name);
		return;
	}
	char lang[64];
	size_t k = 0;
	for (const char *a = d->args; *a && *a != ' ' && k + 1 < sizeof lang; a++)
		lang[k++] = *a;
	lang[k] = 0;
	size_t m = d->ncontent;
	while (m && d->content[m - 1].n == 0)
		m--;
	rst_code_block(c, parent, d->content, m, lang, d->line);
}

/* A pending entry by its node, for finding a node's entries in a sorted
 * list (in their order, which is the document's). */
struct pend_at {
	cmark_node *node;
	size_t q;
};

static int cmp_pend_at(const void *a, const void *b)
{
	const struct pend_at *x = a, *y = b;
	if (x->node != y->node)
		return (uintptr_t)x->node < (uintptr_t)y->node ? -1 : 1;
	return (x->q > y->q) - (x->q < y->q);
}

/* The first of the n entries (sorted) whose node is node, or n. */
static size_t pend_first(const struct pend_at *v, size_t n, cmark_node *node)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((uintptr_t)v[mid].node < (uintptr_t)node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].node == node ? lo : n;
}

/* list-table: a bullet list of bullet lists → GFM table (inline cells). */
static void list_table(struct rst_ctx *c, cmark_node *parent, struct dir *d, const struct rst_line *L,
		       size_t i, size_t end, int depth)
{
	cmark_node *tmp = ast_node_new(CMARK_NODE_DOCUMENT);
	size_t p0 = c->pend.n;
	rst_body(c, tmp, d->content, d->ncontent, depth + 1);
	cmark_node *outer = cmark_node_first_child(tmp);
	int ncols = 0;
	bool ok = outer && cmark_node_get_type(outer) == CMARK_NODE_LIST && !cmark_node_next(outer);
	for (cmark_node *it = ok ? cmark_node_first_child(outer) : NULL; it && ok; it = cmark_node_next(it)) {
		cmark_node *inner = cmark_node_first_child(it);
		if (!inner || cmark_node_get_type(inner) != CMARK_NODE_LIST || cmark_node_next(inner)) {
			ok = false;
			break;
		}
		int nc = 0;
		for (cmark_node *cell = cmark_node_first_child(inner); cell; cell = cmark_node_next(cell))
			nc++;
		if (ncols && nc != ncols)
			ok = false;
		ncols = nc;
	}
	if (!ok || !ncols || ncols > RST_MAX_TABLE_COLUMNS) {
		if (!ok || !ncols)
			rst_warn(c, d->line, "Error parsing content block for the \"list-table\" directive: "
					     "uniform two-level bullet list expected.");
		else
			rst_warn(c, d->line, "list-table of %d columns, more than %d: kept as text.", ncols,
				 RST_MAX_TABLE_COLUMNS);
		for (size_t q = p0; q < c->pend.n; q++)
			c->pend.v[q].node = NULL; /* they point into tmp */
		cmark_node_free(tmp);
		keep_literal(c, parent, L, i, end);
		return;
	}
	/* The inline text of each cell is deferred: move the pending nodes,
	 * found by node in a sorted copy (not searched for each block) */
	struct pend_at *by_node = xcalloc(c->pend.n - p0 + 1, sizeof *by_node);
	size_t npend = 0;
	for (size_t q = p0; q < c->pend.n; q++)
		by_node[npend++] = (struct pend_at){c->pend.v[q].node, q};
	qsort(by_node, npend, sizeof *by_node, cmp_pend_at);
	int hdr = opt_get(d, "header-rows") ? atoi(opt_get(d, "header-rows")) : 0;
	cmark_node *table = rst_add(parent, ast_table_new(ncols, NULL), d->line);
	int r = 0;
	for (cmark_node *it = cmark_node_first_child(outer); it && table; it = cmark_node_next(it), r++) {
		cmark_node *row = rst_add(table, ast_table_row_new(r < hdr), ast_line(it));
		cmark_node *inner = cmark_node_first_child(it);
		for (cmark_node *cell = cmark_node_first_child(inner); cell && row; cell = cmark_node_next(cell)) {
			cmark_node *tc = rst_add(row, ast_table_cell_new(), ast_line(cell));
			/* cells take inline children only: re-point the deferred text */
			int nblocks = 0;
			for (cmark_node *b = cmark_node_first_child(cell); b; b = cmark_node_next(b))
				for (size_t k = pend_first(by_node, npend, b); k < npend && by_node[k].node == b;
				     k++) {
					struct rst_pend *pe = &c->pend.v[by_node[k].q];
					if (nblocks++) {
						char *t = xasprintf(" %s", pe->text);
						free(pe->text);
						pe->text = t;
					}
					pe->node = tc;
				}
		}
	}
	free(by_node);
	/* drop pending entries that still point into tmp */
	for (size_t q = p0; q < c->pend.n; q++) {
		for (cmark_node *x = c->pend.v[q].node; x; x = cmark_node_parent(x))
			if (x == tmp) {
				c->pend.v[q].node = NULL;
				break;
			}
	}
	cmark_node_free(tmp);
}

static void raw(struct rst_ctx *c, cmark_node *parent, struct dir *d, const struct rst_line *L, size_t i,
		size_t end)
{
	if (!c->opt.allow_raw) {
		rst_warn(c, d->line, "\"raw\" directive disabled (untrusted content); kept as literal text.");
		keep_literal(c, parent, L, i, end);
		return;
	}
	if (strcasecmp(d->args, "html")) {
		return; /* raw output for another writer: not ours */
	}
	struct buf b = BUF_INIT;
	for (size_t k = 0; k < d->ncontent; k++) {
		buf_put(&b, d->content[k].p, d->content[k].n);
		buf_putc(&b, '\n');
	}
	cmark_node *h = ast_node_new(CMARK_NODE_HTML_BLOCK);
	cmark_node_set_literal(h, buf_cstr(&b));
	rst_add(parent, h, d->line);
	buf_free(&b);
}

static void figure(struct rst_ctx *c, cmark_node *parent, struct dir *d, int depth)
{
	cmark_node *fig = rst_custom(parent, "<figure>", "</figure>", d->line);
	cmark_node *para = rst_block(fig, CMARK_NODE_PARAGRAPH, d->line);
	if (para)
		image_into(c, para, d);
	if (d->ncontent) {
		cmark_node *cap = rst_custom(fig, "<figcaption>", "</figcaption>", d->content[0].no);
		rst_body(c, cap, d->content, d->ncontent, depth + 1);
	}
}

static void text_box(struct rst_ctx *c, cmark_node *parent, struct dir *d, const char *cls, int depth)
{
	char *esc = html_esc(d->args);
	char *open = xasprintf("<div class=\"%s%s%s\">", cls, *esc && *cls ? " " : "", esc);
	free(esc);
	cmark_node *box = rst_custom(parent, open, "</div>", d->line);
	free(open);
	rst_body(c, box, d->content, d->ncontent, depth + 1);
}

static void directive(struct rst_ctx *c, cmark_node *parent, struct dir *d, const struct rst_line *L,
		      size_t i, size_t end, int depth)
{
	static const char *const adm[] = {"note", "tip", "hint", "important", "attention", "caution",
					  "warning", "danger", "error", "admonition"};
	const char *nm = d->name;
	for (size_t k = 0; k < sizeof adm / sizeof *adm; k++)
		if (!strcmp(nm, adm[k])) {
			admonition(c, parent, d, depth);
			return;
		}
	if (!strcmp(nm, "image")) {
		cmark_node *para = rst_block(parent, CMARK_NODE_PARAGRAPH, d->line);
		if (para)
			image_into(c, para, d);
	} else if (!strcmp(nm, "figure")) {
		figure(c, parent, d, depth);
	} else if (!strcmp(nm, "contents")) {
		contents(c, parent, d);
	} else if (!strcmp(nm, "topic")) {
		simple_box(c, parent, d, depth, "<aside class=\"topic\">", "</aside>", "topic-title");
	} else if (!strcmp(nm, "sidebar")) {
		simple_box(c, parent, d, depth, "<aside class=\"sidebar\">", "</aside>", "sidebar-title");
	} else if (!strcmp(nm, "rubric")) {
		cmark_node *r = rst_inline_block(parent, "<p class=\"rubric\">", "</p>", d->line);
		rst_defer(c, r, d->args, strlen(d->args), d->line);
	} else if (!strcmp(nm, "epigraph") || !strcmp(nm, "highlights") || !strcmp(nm, "pull-quote")) {
		char *open = xasprintf("<blockquote class=\"%s\">", nm);
		cmark_node *bq = rst_custom(parent, open, "</blockquote>", d->line);
		free(open);
		if (bq)
			rst_quote(c, bq, d->content, d->ncontent, depth);
	} else if (!strcmp(nm, "compound")) {
		simple_box(c, parent, d, depth, "<div class=\"compound\">", "</div>", NULL);
	} else if (!strcmp(nm, "container") || !strcmp(nm, "class")) {
		if (d->ncontent || !strcmp(nm, "container"))
			text_box(c, parent, d, !strcmp(nm, "container") ? "container" : "", depth);
	} else if (!strcmp(nm, "code") || !strcmp(nm, "code-block") || !strcmp(nm, "sourcecode")) {
		code(c, parent, d);
	} else if (!strcmp(nm, "parsed-literal")) {
		cmark_node *pre = rst_custom(parent, "<pre class=\"literal-block\">", "</pre>", d->line);
		char *t = rst_join(d->content, d->ncontent);
		rst_defer(c, pre, t, strlen(t), d->line);
		free(t);
	} else if (!strcmp(nm, "math")) {
		cmark_node *m = rst_custom(parent, "<div class=\"math\">", "</div>", d->line);
		char *t = rst_join(d->content, d->ncontent);
		if (m)
			ast_append(m, ast_text(*t ? t : d->args));
		free(t);
	} else if (!strcmp(nm, "list-table")) {
		list_table(c, parent, d, L, i, end, depth);
	} else if (!strcmp(nm, "raw")) {
		raw(c, parent, d, L, i, end);
	} else if (!strcmp(nm, "include")) {
		rst_warn(c, d->line, "\"include\" directive disabled (the reader does not read files); "
				     "kept as literal text.");
		keep_literal(c, parent, L, i, end);
	} else if (!strcmp(nm, "title") || !strcmp(nm, "meta") || !strcmp(nm, "highlight") ||
		   !strcmp(nm, "default-role") || !strcmp(nm, "role") || !strcmp(nm, "sectnum") ||
		   !strcmp(nm, "section-numbering") || !strcmp(nm, "target-notes") || !strcmp(nm, "header") ||
		   !strcmp(nm, "footer")) {
		/* document settings: nothing rendered in the body */
	} else {
		rst_warn(c, d->line, "Unknown directive type \"%s\"; kept as literal text.", nm);
		keep_literal(c, parent, L, i, end);
	}
}

/* ---- the explicit markup block -------------------------------------------- */

static size_t dir_name(const char *p, size_t n)
{
	size_t k = 0;
	while (k < n && ((p[k] | 0x20) >= 'a' && (p[k] | 0x20) <= 'z' ? 1 : (p[k] >= '0' && p[k] <= '9') ||
							     (k && strchr("-_.+:", p[k]) && p[k])))
		k++;
	while (k > 0 && p[k - 1] == ':')
		k--;
	if (k && k + 2 <= n && p[k] == ':' && p[k + 1] == ':' && (k + 2 == n || p[k + 2] == ' '))
		return k;
	return 0;
}

/* Label of "[label]" at the start; its end (index of ']') or 0. */
static size_t fn_label(const char *p, size_t n)
{
	if (n < 3 || p[0] != '[')
		return 0;
	size_t k = 1;
	while (k < n && p[k] != ']' && p[k] != ' ')
		k++;
	if (k >= n || p[k] != ']' || k == 1 || (k + 1 < n && p[k + 1] != ' '))
		return 0;
	return k;
}

static void footnote_def(struct rst_ctx *c, cmark_node *parent, struct rst_line *B, size_t m, size_t le,
			 int line, int depth)
{
	cmark_node *box = rst_custom(parent, "", "", line);
	if (!box)
		return;
	struct rst_fn *f = &RST_PUSH(c->fndefs);
	f->node = box;
	f->label = xstrndup(B[0].p + 1, le - 1);
	f->line = line;
	char ch = f->label[0];
	f->citation = !((ch >= '0' && ch <= '9') || ch == '#' || ch == '*');
	size_t cut = le + 1;
	while (cut < B[0].n && B[0].p[cut] == ' ')
		cut++;
	B[0].p += cut;
	B[0].n -= cut;
	B[0].ind = 0;
	size_t k = 0;
	while (k < m && B[k].n == 0)
		k++;
	rst_body(c, box, B + k, m - k, depth + 1);
}

static void target_def(struct rst_ctx *c, cmark_node *parent, struct rst_line *B, size_t m, int line)
{
	const char *p = B[0].p + 1; /* after '_' */
	size_t n = B[0].n - 1, e = 0;
	bool quoted = n && p[0] == '`';
	if (quoted) {
		e = 1;
		while (e + 1 < n && !(p[e] == '`' && p[e + 1] == ':'))
			e++;
		if (e + 1 >= n) {
			rst_warn(c, line, "Malformed hyperlink target.");
			return;
		}
	} else {
		while (e < n && !(p[e] == ':' && (e + 1 == n || p[e + 1] == ' ') && (e == 0 || p[e - 1] != '\\')))
			e++;
		if (e >= n) {
			rst_warn(c, line, "Malformed hyperlink target.");
			return;
		}
	}
	struct buf name = BUF_INIT;
	for (size_t k = quoted ? 1 : 0; k < e; k++) {
		if (p[k] == '\\' && k + 1 < e)
			k++;
		buf_putc(&name, p[k]);
	}
	size_t after = e + (quoted ? 2 : 1);
	struct buf url = BUF_INIT;
	for (size_t k = after; k < n; k++)
		if (p[k] != ' ')
			buf_putc(&url, p[k]);
	for (size_t q = 1; q < m; q++)
		for (size_t k = 0; k < B[q].n; k++)
			if (B[q].p[k] != ' ')
				buf_putc(&url, B[q].p[k]);
	bool anon = name.n == 1 && name.p[0] == '_';
	const char *u = buf_cstr(&url);
	size_t un = url.n;
	enum rst_tkind kind = RST_T_URL;
	char *val = NULL;
	if (un > 1 && u[un - 1] == '_' && u[un - 2] != '\\') {
		kind = RST_T_INDIRECT;
		size_t x = 0, y = un - 1;
		if (y > 1 && u[0] == '`' && u[y - 1] == '`') {
			x = 1;
			y--;
		}
		val = rst_normalize_name(u + x, y - x);
	} else if (un == 0) {
		kind = RST_T_ID;
	} else {
		struct buf v = BUF_INIT; /* unescape */
		for (size_t k = 0; k < un; k++) {
			if (u[k] == '\\' && k + 1 < un)
				k++;
			buf_putc(&v, u[k]);
		}
		val = buf_detach(&v);
	}
	if (anon) {
		if (kind == RST_T_ID) {
			rst_warn(c, line, "Anonymous hyperlink target without a URL.");
		} else {
			struct rst_target *t = &RST_PUSH(c->anon);
			t->kind = kind;
			t->val = xstrdup(val);
			t->line = line;
		}
	} else if (kind == RST_T_ID) {
		char *norm = rst_normalize_name(buf_cstr(&name), name.n);
		char *id = rst_make_id(norm);
		char *open = xasprintf("<span id=\"%s\"></span>", id);
		rst_custom(parent, open, "", line);
		rst_add_target(c, norm, strlen(norm), RST_T_ID, id, line);
		free(open);
		free(id);
		free(norm);
	} else {
		rst_add_target(c, buf_cstr(&name), name.n, kind, val, line);
	}
	free(val);
	buf_free(&name);
	buf_free(&url);
}

static char *unicode_text(const char *a)
{
	struct buf b = BUF_INIT;
	const char *p = a;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		const char *s = p;
		while (*p && *p != ' ')
			p++;
		size_t l = (size_t)(p - s);
		unsigned long cp = 0;
		char *end = NULL;
		if (l > 2 && (s[0] == 'U' || s[0] == 'u') && s[1] == '+')
			cp = strtoul(s + 2, &end, 16);
		else if (l > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			cp = strtoul(s + 2, &end, 16);
		else if (l > 3 && s[0] == '&' && s[1] == '#' && (s[2] == 'x' || s[2] == 'X'))
			cp = strtoul(s + 3, &end, 16);
		if (end && cp > 0 && cp < 0x110000 && !(cp >= 0xD800 && cp < 0xE000)) {
			char u[5];
			size_t ul;
			if (cp < 0x80)
				u[0] = (char)cp, ul = 1;
			else if (cp < 0x800)
				u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 63)), ul = 2;
			else if (cp < 0x10000)
				u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 63)),
				u[2] = (char)(0x80 | (cp & 63)), ul = 3;
			else
				u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 63)),
				u[2] = (char)(0x80 | ((cp >> 6) & 63)), u[3] = (char)(0x80 | (cp & 63)), ul = 4;
			buf_put(&b, u, ul);
		} else
			buf_put(&b, s, l);
	}
	return buf_detach(&b);
}

static void subst_def(struct rst_ctx *c, struct rst_line *B, size_t m, int line)
{
	const char *p = B[0].p;
	size_t n = B[0].n, e = 1;
	while (e < n && !(p[e] == '|' && p[e - 1] != ' ' && p[e - 1] != '\\'))
		e++;
	if (e >= n || e == 1 || e + 1 >= n || p[e + 1] != ' ') {
		rst_warn(c, line, "Malformed substitution definition.");
		return;
	}
	struct buf nm = BUF_INIT;
	bool sp = false;
	for (size_t k = 1; k < e; k++) {
		if (p[k] == ' ') {
			sp = true;
			continue;
		}
		if (sp && nm.n)
			buf_putc(&nm, ' ');
		sp = false;
		buf_putc(&nm, p[k]);
	}
	size_t k = e + 1;
	while (k < n && p[k] == ' ')
		k++;
	size_t dl = dir_name(p + k, n - k);
	if (!dl) {
		rst_warn(c, line, "Substitution definition \"%s\" empty or invalid.", buf_cstr(&nm));
		buf_free(&nm);
		return;
	}
	struct dir d;
	memset(&d, 0, sizeof d);
	snprintf(d.name, sizeof d.name, "%.*s", (int)(dl < 47 ? dl : 47), p + k);
	for (char *q = d.name; *q; q++)
		*q = (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q);
	d.line = line;
	B[0].p += k + dl + 2;
	B[0].n -= k + dl + 2;
	while (B[0].n && B[0].p[0] == ' ')
		B[0].p++, B[0].n--;
	B[0].ind = 0;
	parse_dir(&d, B, m);
	struct rst_subst s = {NULL, NULL, RST_S_REPLACE, NULL, NULL, line, false};
	if (!strcmp(d.name, "replace")) {
		struct buf t = BUF_INIT;
		buf_puts(&t, d.args);
		for (size_t q = 0; q < d.ncontent; q++) {
			if (t.n)
				buf_putc(&t, '\n');
			buf_put(&t, d.content[q].p, d.content[q].n);
		}
		s.val = buf_detach(&t);
	} else if (!strcmp(d.name, "image")) {
		s.kind = RST_S_IMAGE;
		s.val = squeeze(d.args);
		s.alt = xstrdup(opt_get(&d, "alt") ? opt_get(&d, "alt") : buf_cstr(&nm));
	} else if (!strcmp(d.name, "unicode")) {
		s.kind = RST_S_TEXT;
		s.val = unicode_text(d.args);
	} else {
		rst_warn(c, line, "Substitution definition \"%s\": directive \"%s\" not supported; its text is "
				  "used.", buf_cstr(&nm), d.name);
		s.val = xstrdup(d.args);
	}
	if (s.kind == RST_S_TEXT) { /* plain text: escape markup characters */
		struct buf t = BUF_INIT;
		for (const char *q = s.val; *q; q++) {
			if (strchr("\\*`|_[:", *q))
				buf_putc(&t, '\\');
			buf_putc(&t, *q);
		}
		free(s.val);
		s.val = buf_detach(&t);
		s.kind = RST_S_REPLACE;
	}
	s.name = buf_detach(&nm);
	s.lower = xstrdup(s.name);
	for (char *q = s.lower; *q; q++)
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q + 32);
	size_t ix;
	if (!hash_get(&c->subst_ix, s.name, &ix))
		hash_put(&c->subst_ix, s.name, c->substs.n);
	if (!hash_get(&c->subst_ci_ix, s.lower, &ix))
		hash_put(&c->subst_ci_ix, s.lower, c->substs.n);
	RST_PUSH(c->substs) = s;
	dir_free(&d);
}

size_t rst_explicit(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
		    int depth)
{
	size_t min = 0, end = rst_indented(L, n, i + 1, &min);
	if (end < i + 1)
		end = i + 1;
	struct rst_line *B = rst_sub(L, i, end, 3, min);
	size_t m = end - i;
	int line = L[i].no;
	const char *p = B[0].p;
	size_t pn = B[0].n, le, dl;
	if (L[i].n <= 2) { /* ".." alone: a comment; an empty one ends at the blank line */
		free(B);
		if (i + 1 < n && L[i + 1].n == 0)
			return i + 1;
		return end;
	}
	if ((le = fn_label(p, pn)) > 0) {
		footnote_def(c, parent, B, m, le, line, depth);
	} else if (pn > 1 && p[0] == '_' && (p[1] != ' ')) {
		target_def(c, parent, B, m, line);
	} else if (pn > 2 && p[0] == '|' && p[1] != ' ') {
		subst_def(c, B, m, line);
	} else if ((dl = dir_name(p, pn)) > 0) {
		struct dir d;
		memset(&d, 0, sizeof d);
		snprintf(d.name, sizeof d.name, "%.*s", (int)(dl < 47 ? dl : 47), p);
		for (char *q = d.name; *q; q++)
			*q = (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q);
		d.line = line;
		B[0].p += dl + 2;
		B[0].n -= dl + 2;
		while (B[0].n && B[0].p[0] == ' ')
			B[0].p++, B[0].n--;
		B[0].ind = 0;
		parse_dir(&d, B, m);
		if (depth >= c->opt.max_depth) {
			rst_warn(c, line, "Nesting deeper than %d levels; the rest is kept as literal text.",
				 c->opt.max_depth);
			keep_literal(c, parent, L, i, end);
		} else
			directive(c, parent, &d, L, i, end, depth);
		dir_free(&d);
	}
	/* anything else is a comment: not rendered */
	free(B);
	return end;
}

/* ---- table of contents ------------------------------------------------------ */

static cmark_node *toc_item(cmark_node *list, cmark_node *h)
{
	cmark_node *item = rst_block(list, CMARK_NODE_ITEM, ast_line(h));
	cmark_node *para = rst_block(item, CMARK_NODE_PARAGRAPH, ast_line(h));
	char *txt = rst_node_text(h);
	char *slug = slug_github(txt);
	char *url = xasprintf("#%s", slug);
	cmark_node *link = ast_node_new(CMARK_NODE_LINK);
	cmark_node_set_url(link, url);
	ast_set_line(link, ast_line(h));
	ast_append(link, ast_text(txt));
	ast_append(para, link);
	free(url);
	free(slug);
	free(txt);
	return item;
}

static void build_toc(struct rst_ctx *c, const struct rst_toc *t, cmark_node *doc)
{
	int ntitle = 0;
	cmark_node *first = NULL;
	for (size_t k = 0; k < c->headings.n && ntitle < 2; k++)
		if (cmark_node_get_heading_level(c->headings.v[k]) == 1) {
			ntitle++;
			if (!first)
				first = c->headings.v[k];
		}
	int at = ast_line(t->node);
	cmark_node *lists[8] = {0};
	cmark_node *last_item[8] = {0};
	int base = 0;
	for (size_t k = 0; k < c->headings.n; k++) {
		cmark_node *x = c->headings.v[k];
		if (t->local && ast_line(x) <= at)
			continue;
		int lv = cmark_node_get_heading_level(x);
		if (t->local && lv <= t->level)
			break;
		if (!t->local && ntitle == 1 && x == first)
			continue;
		if (!base)
			base = lv;
		int rel = lv - base;
		if (rel < 0)
			break;
		if (rel > 7 || (t->depth > 0 && rel >= t->depth))
			continue;
		if (!lists[0]) {
			lists[0] = ast_node_new(CMARK_NODE_LIST);
			cmark_node_set_list_tight(lists[0], 1);
			rst_add(t->node, lists[0], ast_line(x));
		}
		int q = rel;
		while (q > 0 && !last_item[q - 1])
			q--;
		if (!lists[q]) {
			lists[q] = ast_node_new(CMARK_NODE_LIST);
			cmark_node_set_list_tight(lists[q], 1);
			rst_add(last_item[q - 1], lists[q], ast_line(x));
		}
		last_item[q] = toc_item(lists[q], x);
		for (int r = q + 1; r < 8; r++) {
			lists[r] = NULL;
			last_item[r] = NULL;
		}
	}
	(void)doc;
}

void rst_resolve_contents(struct rst_ctx *c, cmark_node *doc)
{
	for (size_t k = 0; k < c->contents.n; k++) {
		if (k == 16) {
			rst_warn(c, ast_line(c->contents.v[k].node), "More than 16 \"contents\" directives; the "
				 "rest are left empty.");
			break;
		}
		build_toc(c, &c->contents.v[k], doc);
	}
}
