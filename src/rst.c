/* rst: entry point of the reStructuredText reader. Owns the text
 * normalisation (tabs, trailing blanks), the reader context, the deferred
 * inline pass, and the resolution of references, footnotes and citations
 * once the whole document is known. Calls rst_block.c for the structure. */
#include "rst_int.h"
#include "ast.h"
#include "hash.h"
#include "path.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *rst_push_slot(void **v, size_t *cap, size_t *n, size_t size)
{
	*v = xgrow(*v, cap, *n + 1, size);
	char *slot = (char *)*v + *n * size;
	memset(slot, 0, size);
	(*n)++;
	return slot;
}

void rst_warn(struct rst_ctx *c, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* one line per diagnostic, whatever the quoted text holds */
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	/* a hostile document must not flood the report */
	if (++c->nwarnings > RST_MAX_WARNINGS) {
		if (c->nwarnings == RST_MAX_WARNINGS + 1)
			diag_add(c->d, SEV_WARNING, c->path, line, 0,
				 "more than %d warnings in this document; the rest are not shown",
				 RST_MAX_WARNINGS);
		return;
	}
	diag_add(c->d, SEV_WARNING, c->path, line, 0, "%s", msg);
}

/* Append child (with its source line); NULL when cmark refused the nesting. */
cmark_node *rst_add(cmark_node *parent, cmark_node *child, int line)
{
	if (line > 0)
		ast_set_line(child, line);
	return ast_append(parent, child) ? child : NULL;
}

cmark_node *rst_block(cmark_node *parent, cmark_node_type t, int line)
{
	return rst_add(parent, ast_node_new(t), line);
}

cmark_node *rst_custom(cmark_node *parent, const char *on_enter, const char *on_exit, int line)
{
	return rst_add(parent, ast_custom_block(on_enter, on_exit), line);
}

cmark_node *rst_inline_block(cmark_node *parent, const char *on_enter, const char *on_exit, int line)
{
	cmark_node *b = rst_custom(parent, "", "", line);
	return b ? rst_add(b, ast_custom_inline(on_enter, on_exit), line) : NULL;
}

void rst_defer(struct rst_ctx *c, cmark_node *node, const char *text, size_t n, int line)
{
	if (!node)
		return;
	struct rst_pend *p = &RST_PUSH(c->pend);
	p->node = node;
	p->text = xstrndup(text, n);
	p->line = line;
}

/* The lines joined with '\n' (no final newline). */
char *rst_join(const struct rst_line *L, size_t n)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_putc(&b, '\n');
		buf_put(&b, L[i].p, L[i].n);
	}
	return buf_detach(&b);
}

/* docutils' normalisation of reference names: whitespace runs to one space,
 * trimmed, lower-cased (ASCII). */
char *rst_normalize_name(const char *s, size_t n)
{
	struct buf b = BUF_INIT;
	bool sp = false;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == ' ' || ch == '\n' || ch == '\t') {
			sp = true;
			continue;
		}
		if (sp && b.n)
			buf_putc(&b, ' ');
		sp = false;
		buf_putc(&b, (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch));
	}
	return buf_detach(&b);
}

/* docutils' make_id: lower-case, runs of other characters to '-', must start
 * with a letter; "id" when nothing is left. Non-ASCII is dropped. */
char *rst_make_id(const char *s)
{
	struct buf b = BUF_INIT;
	bool dash = false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char ch = *p;
		if (ch >= 'A' && ch <= 'Z')
			ch = (unsigned char)(ch - 'A' + 'a');
		bool alpha = ch >= 'a' && ch <= 'z';
		bool alnum = alpha || (ch >= '0' && ch <= '9');
		if (!b.n && !alpha)
			continue;
		if (!alnum) {
			dash = true;
			continue;
		}
		if (dash)
			buf_putc(&b, '-');
		dash = false;
		buf_putc(&b, (char)ch);
	}
	if (!b.n)
		buf_puts(&b, "id");
	return buf_detach(&b);
}

void rst_add_target(struct rst_ctx *c, const char *name, size_t n, enum rst_tkind kind, const char *val,
		    int line)
{
	struct rst_target *t = &RST_PUSH(c->targets);
	t->name = rst_normalize_name(name, n);
	t->val = xstrdup(val);
	t->kind = kind;
	t->line = line;
	size_t ix;
	if (!hash_get(&c->target_ix, t->name, &ix))
		hash_put(&c->target_ix, t->name, c->targets.n - 1);
}

void rst_code_block(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n,
		    const char *info, int line)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		buf_put(&b, L[i].p, L[i].n);
		buf_putc(&b, '\n');
	}
	cmark_node *cb = ast_node_new(CMARK_NODE_CODE_BLOCK);
	cmark_node_set_literal(cb, buf_cstr(&b));
	if (info && *info) {
		cmark_node_set_fence_info(cb, info);
		cmark_node_set_fenced(cb, 1, 3, 0, '`');
	}
	rst_add(parent, cb, line);
	buf_free(&b);
}

static void node_text_into(cmark_node *n, struct buf *b)
{
	cmark_iter *it = cmark_iter_new(n);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *cur = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		switch (cmark_node_get_type(cur)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			buf_puts(b, cmark_node_get_literal(cur));
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			buf_putc(b, ' ');
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
}

/* Plain text of a subtree (text and code literals). */
char *rst_node_text(cmark_node *n)
{
	struct buf b = BUF_INIT;
	node_text_into(n, &b);
	return buf_detach(&b);
}

/* ---- normalisation ----------------------------------------------------- */

static struct rst_line *normalise(struct rst_ctx *c, const char *text, size_t len, size_t *nlines)
{
	struct buf b = BUF_INIT;
	buf_grow(&b, len + len / 8 + 16);
	size_t cap = 0, n = 0;
	struct { size_t off, n; } *spans = NULL;
	size_t i = 0;
	while (i < len) {
		size_t start = b.n, col = 0;
		while (i < len && text[i] != '\n') {
			char ch = text[i++];
			if (ch == '\t') {
				do
					buf_putc(&b, ' ');
				while (++col % 8);
				continue;
			}
			if (ch == '\0') {
				buf_puts(&b, "\xEF\xBF\xBD");
			} else
				buf_putc(&b, (ch == '\v' || ch == '\f' || ch == '\r') ? ' ' : ch);
			col++;
		}
		while (b.n > start && b.p[b.n - 1] == ' ')
			b.n--;
		spans = xgrow(spans, &cap, n + 1, sizeof *spans);
		spans[n].off = start;
		spans[n].n = b.n - start;
		n++;
		buf_putc(&b, '\0');
		i++; /* the newline (or the end) */
	}
	c->norm = buf_detach(&b);
	struct rst_line *L = xcalloc(n ? n : 1, sizeof *L);
	for (size_t k = 0; k < n; k++) {
		L[k].p = c->norm + spans[k].off;
		L[k].n = spans[k].n;
		L[k].no = (int)k + 1;
		size_t ind = 0;
		while (ind < L[k].n && L[k].p[ind] == ' ')
			ind++;
		L[k].ind = L[k].n ? ind : 0;
	}
	free(spans);
	*nlines = n;
	return L;
}

/* ---- resolution -------------------------------------------------------- */

static const struct rst_target *find_target(struct rst_ctx *c, const char *name)
{
	size_t ix;
	return hash_get(&c->target_ix, name, &ix) ? &c->targets.v[ix] : NULL;
}

/* URL for a reference name, following indirect targets; NULL when unknown. */
static char *resolve_name(struct rst_ctx *c, const char *name, int line)
{
	const char *cur = name;
	for (int hop = 0; hop < 32; hop++) {
		const struct rst_target *t = find_target(c, cur);
		if (!t)
			return NULL;
		if (t->kind == RST_T_URL)
			return xstrdup(t->val);
		if (t->kind == RST_T_ID)
			return xasprintf("#%s", t->val);
		cur = t->val;
	}
	rst_warn(c, line, "Indirect hyperlink target \"%s\" refers to itself (loop).", name);
	return NULL;
}

/* Replace a link that cannot be resolved by its children: no text is lost. */
static void unwrap(cmark_node *link)
{
	cmark_node *ch;
	while ((ch = cmark_node_first_child(link)) != NULL)
		cmark_node_insert_before(link, ch);
	cmark_node_free(link);
}

static void resolve_refs(struct rst_ctx *c)
{
	if ((size_t)c->anon_refs != c->anon.n && (c->anon_refs || c->anon.n))
		rst_warn(c, c->anon.n ? c->anon.v[0].line : (c->refs.n ? c->refs.v[0].line : 0),
			 "Anonymous hyperlink mismatch: %d references but %zu targets.", c->anon_refs,
			 c->anon.n);
	for (size_t i = 0; i < c->refs.n; i++) {
		struct rst_ref *r = &c->refs.v[i];
		char *url = NULL;
		if (!r->name) {
			if ((size_t)r->anon < c->anon.n) {
				const struct rst_target *t = &c->anon.v[r->anon];
				url = t->kind == RST_T_URL ? xstrdup(t->val) : resolve_name(c, t->val, r->line);
			}
		} else {
			url = resolve_name(c, r->name, r->line);
			if (!url)
				rst_warn(c, r->line, "Unknown target name: \"%s\".", r->name);
		}
		if (url)
			cmark_node_set_url(r->link, url);
		else
			unwrap(r->link);
		free(url);
	}
}

static void heading_targets(struct rst_ctx *c)
{
	for (size_t i = 0; i < c->headings.n; i++) {
		char *txt = rst_node_text(c->headings.v[i]);
		char *name = rst_normalize_name(txt, strlen(txt));
		if (*name && !find_target(c, name)) {
			char *slug = slug_github(txt);
			rst_add_target(c, name, strlen(name), RST_T_ID, slug, ast_line(c->headings.v[i]));
			free(slug);
		}
		free(name);
		free(txt);
	}
}

static const char *const fn_symbols[] = {"*", "\xE2\x80\xA0", "\xE2\x80\xA1", "\xC2\xA7", "\xC2\xB6",
					 "#", "\xE2\x99\xA0", "\xE2\x99\xA5", "\xE2\x99\xA6", "\xE2\x99\xA3"};
#define NSYM (sizeof fn_symbols / sizeof *fn_symbols)

static char *fn_display(const struct rst_fn *f)
{
	if (f->citation)
		return xstrdup(f->label);
	if (f->label[0] == '*') {
		/* docutils repeats the symbol once more every ten footnotes: the
		 * labels of n footnotes would grow as n squared (64,000 of them,
		 * 6,400 symbols each), so the repeats stop at RST_MAX_SYMBOL_REPEAT
		 * (past 100 symbol footnotes: more than any document has) */
		int k = f->number - 1;
		int reps = k / (int)NSYM + 1;
		if (reps > RST_MAX_SYMBOL_REPEAT)
			reps = RST_MAX_SYMBOL_REPEAT;
		struct buf b = BUF_INIT;
		for (int rep = 0; rep < reps; rep++)
			buf_puts(&b, fn_symbols[k % (int)NSYM]);
		return buf_detach(&b);
	}
	return xasprintf("%d", f->number);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

static void number_footnotes(struct rst_ctx *c)
{
	int next = 1, sym = 0;
	int *used = xcalloc(c->fndefs.n + 1, sizeof *used);
	size_t nused = 0;
	for (size_t i = 0; i < c->fndefs.n; i++) {
		struct rst_fn *f = &c->fndefs.v[i];
		if (!f->citation && f->label[0] >= '0' && f->label[0] <= '9')
			used[nused++] = f->number = atoi(f->label);
	}
	qsort(used, nused, sizeof *used, cmp_int);
	for (size_t i = 0; i < c->fndefs.n; i++) {
		struct rst_fn *f = &c->fndefs.v[i];
		if (f->citation) {
			f->id = rst_make_id(f->label);
		} else if (f->label[0] == '*') {
			f->number = ++sym;
			f->id = xasprintf("footnote-sym-%d", sym);
		} else {
			if (f->label[0] == '#') {
				while (bsearch(&next, used, nused, sizeof *used, cmp_int))
					next++;
				f->number = next++;
			}
			f->id = xasprintf("footnote-%d", f->number);
		}
		char *disp = fn_display(f);
		struct buf b = BUF_INIT;
		if (f->citation)
			buf_puts(&b, "<div class=\"citation\" id=\"");
		else
			buf_puts(&b, "<aside class=\"footnote brackets\" id=\"");
		buf_puts_html(&b, f->id);
		buf_puts(&b, f->citation ? "\" role=\"doc-biblioentry\">" : "\" role=\"doc-footnote\">");
		buf_puts(&b, "<span class=\"label\"><span class=\"fn-bracket\">[</span>");
		buf_puts_html(&b, disp);
		buf_puts(&b, "<span class=\"fn-bracket\">]</span></span>");
		cmark_node_set_on_enter(f->node, buf_cstr(&b));
		cmark_node_set_on_exit(f->node, f->citation ? "</div>" : "</aside>");
		buf_free(&b);
		free(disp);
	}
	free(used);
}

/* Footnote definitions by kind: labelled ones (manual numbers, "#name",
 * lower-cased citation labels) in a table, auto-numbered and symbol ones in
 * document order. */
struct fn_index {
	struct hash labels;
	char **keys;
	size_t *autos, *syms;
	size_t nauto, nsym, kauto, ksym;
};

static char *fn_key(const struct rst_fn *f)
{
	if (!f->citation)
		return xstrdup(f->label);
	char *k = xasprintf("[%s", f->label);
	for (char *q = k; *q; q++)
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q + 32);
	return k;
}

static void fn_index_build(struct rst_ctx *c, struct fn_index *x)
{
	memset(x, 0, sizeof *x);
	x->keys = xcalloc(c->fndefs.n + 1, sizeof *x->keys);
	x->autos = xcalloc(c->fndefs.n + 1, sizeof *x->autos);
	x->syms = xcalloc(c->fndefs.n + 1, sizeof *x->syms);
	for (size_t i = 0; i < c->fndefs.n; i++) {
		const struct rst_fn *f = &c->fndefs.v[i];
		size_t ix;
		if (!f->citation && !strcmp(f->label, "#"))
			x->autos[x->nauto++] = i;
		else if (!f->citation && !strcmp(f->label, "*"))
			x->syms[x->nsym++] = i;
		else {
			x->keys[i] = fn_key(f);
			if (!hash_get(&x->labels, x->keys[i], &ix))
				hash_put(&x->labels, x->keys[i], i);
		}
	}
}

static void fn_index_free(struct rst_ctx *c, struct fn_index *x)
{
	for (size_t i = 0; i < c->fndefs.n; i++)
		free(x->keys[i]);
	free(x->keys);
	free(x->autos);
	free(x->syms);
	hash_free(&x->labels);
}

static const struct rst_fn *match_fnref(struct rst_ctx *c, struct fn_index *x, const struct rst_fn *r)
{
	if (!r->citation && !strcmp(r->label, "#"))
		return x->kauto < x->nauto ? &c->fndefs.v[x->autos[x->kauto++]] : NULL;
	if (!r->citation && !strcmp(r->label, "*"))
		return x->ksym < x->nsym ? &c->fndefs.v[x->syms[x->ksym++]] : NULL;
	char *k = fn_key(r);
	size_t ix;
	bool hit = hash_get(&x->labels, k, &ix);
	free(k);
	return hit ? &c->fndefs.v[ix] : NULL;
}

static void resolve_footnotes(struct rst_ctx *c)
{
	number_footnotes(c);
	struct fn_index x;
	fn_index_build(c, &x);
	for (size_t i = 0; i < c->fnrefs.n; i++) {
		struct rst_fn *r = &c->fnrefs.v[i];
		const struct rst_fn *f = match_fnref(c, &x, r);
		struct buf b = BUF_INIT;
		if (!f) {
			rst_warn(c, r->line, r->citation ? "Unknown citation: \"%s\"." : "Unknown footnote: \"%s\".",
				 r->label);
			buf_putc(&b, '[');
			buf_puts_html(&b, r->label);
			buf_puts(&b, "]_");
			cmark_node_set_on_enter(r->node, buf_cstr(&b));
			buf_free(&b);
			continue;
		}
		char *disp = fn_display(f);
		buf_puts(&b, r->citation ? "<a class=\"citation-reference\" href=\"#"
					 : "<a class=\"footnote-reference brackets\" href=\"#");
		buf_puts_html(&b, f->id);
		buf_printf(&b, "\" id=\"%s-reference-%zu\" role=\"%s\">",
			   r->citation ? "citation" : "footnote", i + 1,
			   r->citation ? "doc-biblioref" : "doc-noteref");
		buf_puts(&b, "<span class=\"fn-bracket\">[</span>");
		buf_puts_html(&b, disp);
		buf_puts(&b, "<span class=\"fn-bracket\">]</span></a>");
		cmark_node_set_on_enter(r->node, buf_cstr(&b));
		buf_free(&b);
		free(disp);
	}
	fn_index_free(c, &x);
}

/* ---- entry ------------------------------------------------------------- */

static void run_pending(struct rst_ctx *c)
{
	for (size_t i = 0; i < c->pend.n; i++) {
		struct rst_pend *p = &c->pend.v[i];
		rst_inline(c, p->node, p->text, strlen(p->text), p->line);
	}
}

static void ctx_free(struct rst_ctx *c)
{
	for (size_t i = 0; i < c->pend.n; i++)
		free(c->pend.v[i].text);
	free(c->pend.v);
	for (size_t i = 0; i < c->targets.n; i++) {
		free(c->targets.v[i].name);
		free(c->targets.v[i].val);
	}
	free(c->targets.v);
	hash_free(&c->target_ix);
	hash_free(&c->subst_ix);
	hash_free(&c->subst_ci_ix);
	for (size_t i = 0; i < c->anon.n; i++) {
		free(c->anon.v[i].name);
		free(c->anon.v[i].val);
	}
	free(c->anon.v);
	for (size_t i = 0; i < c->refs.n; i++)
		free(c->refs.v[i].name);
	free(c->refs.v);
	for (size_t i = 0; i < c->substs.n; i++) {
		free(c->substs.v[i].name);
		free(c->substs.v[i].lower);
		free(c->substs.v[i].val);
		free(c->substs.v[i].alt);
	}
	free(c->substs.v);
	for (size_t i = 0; i < c->fndefs.n; i++) {
		free(c->fndefs.v[i].label);
		free(c->fndefs.v[i].id);
	}
	free(c->fndefs.v);
	for (size_t i = 0; i < c->fnrefs.n; i++) {
		free(c->fnrefs.v[i].label);
		free(c->fnrefs.v[i].id);
	}
	free(c->fnrefs.v);
	free(c->headings.v);
	free(c->contents.v);
	free(c->norm);
}

cmark_node *rst_parse(const char *text, size_t len, const char *path, const struct rst_options *opt,
		      struct diags *d)
{
	ast_init();
	struct rst_ctx c;
	memset(&c, 0, sizeof c);
	c.path = path ? path : "";
	c.d = d;
	if (opt)
		c.opt = *opt;
	if (c.opt.max_depth <= 0)
		c.opt.max_depth = 64;
	c.subst_left = len > RST_SUBST_BUDGET / 2 ? 2 * len : RST_SUBST_BUDGET;
	size_t n = 0;
	struct rst_line *L = normalise(&c, text ? text : "", text ? len : 0, &n);
	cmark_node *doc = ast_node_new(CMARK_NODE_DOCUMENT);
	ast_set_line(doc, 1);
	rst_blocks(&c, doc, L, n, 0, true);
	free(L);
	run_pending(&c);
	heading_targets(&c);
	resolve_refs(&c);
	resolve_footnotes(&c);
	rst_resolve_contents(&c, doc);
	ctx_free(&c);
	return doc;
}
