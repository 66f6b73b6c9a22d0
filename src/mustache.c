/* mustache: compiling Mustache source into op trees and rendering them (see
 * mustache.h). Owns the parser (tags, set delimiters, standalone lines,
 * intrinsic block indentation), the template set with its lock, and the
 * renderer (context stack, partial indentation, block overrides).
 * Calls only buf, diag, value and xalloc. */
#include "mustache.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- the compiled form --------------------------------------------------- */

enum mop_kind { MOP_TEXT, MOP_VAR, MOP_RAW, MOP_SECTION, MOP_INVERTED, MOP_PARTIAL, MOP_PARENT, MOP_BLOCK };

struct mop;

struct mops {
	struct mop *v;
	size_t n, cap;
};

/* One op; every struct str points into the source of its template. */
struct mop {
	enum mop_kind kind;
	size_t pos;          /* offset of the tag in the source, for diagnostics */
	struct str text;     /* TEXT: the text; PARTIAL, PARENT, BLOCK: the name */
	struct str indent;   /* PARTIAL, PARENT: standalone indentation; BLOCK: expansion indentation */
	struct str *parts;   /* VAR, RAW, SECTION, INVERTED: the dotted name; NULL for "." */
	size_t nparts;
	struct mops body;    /* SECTION, INVERTED, BLOCK: content; PARENT: its argument blocks */
	struct mtpl *tpl;    /* PARTIAL, PARENT: the template, NULL when missing or broken */
	uint32_t hint;       /* VAR, RAW, SECTION, INVERTED: where in its map the name's
			      * first part was found last (val_getn_hint); written while
			      * threads render, never read as more than a guess */
};

enum mtpl_state { MT_OK, MT_MISSING, MT_BROKEN };

struct mtpl {
	char *name;
	char *src;           /* owned, from the loader */
	size_t len;
	enum mtpl_state state;
	struct mops ops;
};

struct mustache_set {
	mustache_load_fn load;
	void *ud;
	pthread_mutex_t lock;
	struct mtpl **v;     /* each allocated alone: pointers stay valid while v grows */
	size_t n, cap;
};

static void mops_free(struct mops *ops);

static void mop_free(struct mop *op)
{
	free(op->parts);
	mops_free(&op->body);
}

static void mops_free(struct mops *ops)
{
	for (size_t i = 0; i < ops->n; i++)
		mop_free(&ops->v[i]);
	free(ops->v);
	ops->v = NULL;
	ops->n = ops->cap = 0;
}

static struct mop *mops_add(struct mops *ops, enum mop_kind kind, size_t pos)
{
	ops->v = xgrow(ops->v, &ops->cap, ops->n + 1, sizeof *ops->v);
	struct mop *op = &ops->v[ops->n++];
	memset(op, 0, sizeof *op);
	op->kind = kind;
	op->pos = pos;
	return op;
}

static bool str_same(struct str a, struct str b)
{
	return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t';
}

/* Line and column (1-based, in bytes) of offset off in src. */
static void line_col(const char *src, size_t off, int *line, int *col)
{
	int l = 1;
	size_t bol = 0;
	for (size_t i = 0; i < off; i++)
		if (src[i] == '\n') {
			l++;
			bol = i + 1;
		}
	*line = l;
	*col = (int)(off - bol) + 1;
}

/* ---- the parser ----------------------------------------------------------
 *
 * Whitespace rules (the spec's, made explicit):
 * - A section, inverted, closing, comment, set-delimiter or partial tag alone
 *   on its line ("standalone": only spaces/tabs around it, then \n, \r\n or
 *   the end) takes the whole line with it. A standalone partial's leading
 *   whitespace indents every line of the partial.
 * - A parent pair {{<p}}...{{/p}} is standalone when the open tag is clear on
 *   its left and the close tag on its right; its leading whitespace then
 *   indents the parent and the close tag takes its line end. Text inside the
 *   pair is ignored: only its {{$block}} arguments are kept.
 * - An argument block (directly inside a parent) whose open tag ends its line
 *   takes that line end; its close tag, when only whitespace precedes it on its
 *   line, takes that whitespace.
 * - Any block whose open tag is standalone has an intrinsic indentation: the
 *   leading whitespace of the first non-blank line after it. It is removed from
 *   every line of its content here and added back (relative to the enclosing
 *   block) where the block is expanded, so an argument takes the indentation
 *   of the place it fills. A block pair on one line with only whitespace
 *   before it and nothing after uses that whitespace instead and keeps its
 *   line end. */

enum mframe_kind { MF_ROOT, MF_SECTION, MF_INVERTED, MF_PARENT, MF_BLOCK };

/* An open section, parent or block while parsing. */
struct mframe {
	enum mframe_kind kind;
	struct str name;     /* as written, to match the closing tag */
	char sigil;          /* '#', '^', '<' or '$' */
	size_t pos, open_end;
	struct mops ops;
	struct str strip;    /* indentation removed from each line start of text inside */
	struct str indent;   /* see struct mop */
	struct str ws;       /* whitespace before a left-clear open tag (after stripping) */
	bool ws_op;          /* that whitespace is the last op of the enclosing frame */
	bool left_clear;     /* PARENT: open tag clear on its left; BLOCK: could be a one-line pair */
	bool in_parent;      /* BLOCK that is an argument of a PARENT */
	struct str *parts;
	size_t nparts;
};

#define MDELIM_MAX 32

struct mparser {
	const char *tname;
	const char *src;
	size_t len, pos;
	char otag[MDELIM_MAX], ctag[MDELIM_MAX];
	size_t olen, clen;
	struct mframe *st;
	size_t depth;
	struct diags *d;
	bool failed;
};

/* A scanned tag: src[start, end) is the whole tag, inner its trimmed content. */
struct mtag {
	char type;           /* 'v' variable, or the sigil: & { # ^ / ! = > < $ */
	size_t start, end;
	struct str inner;
};

/* Report the first syntax error at offset off; parsing stops there. */
static void p_error(struct mparser *p, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void p_error(struct mparser *p, size_t off, const char *fmt, ...)
{
	int line, col;
	if (p->failed)
		return;
	p->failed = true;
	if (!p->d)
		return;
	line_col(p->src, off, &line, &col);
	va_list ap;
	va_start(ap, fmt);
	struct buf msg = BUF_INIT;
	char tmp[256];
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof tmp) {
		buf_grow(&msg, (size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(msg.p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	diag_add(p->d, SEV_ERROR, p->tname, line, col, "%s", n >= (int)sizeof tmp ? msg.p : tmp);
	buf_free(&msg);
}

static struct mframe *top(struct mparser *p)
{
	return &p->st[p->depth - 1];
}

/* Append text src[a, b) to the innermost frame, removing its strip
 * indentation from the start of every source line. */
static void add_text(struct mparser *p, size_t a, size_t b)
{
	struct mframe *f = top(p);
	while (a < b) {
		if (f->strip.n && (a == 0 || p->src[a - 1] == '\n'))
			for (size_t k = 0; k < f->strip.n && a < b && p->src[a] == f->strip.p[k]; k++)
				a++;
		const char *nl = f->strip.n ? memchr(p->src + a, '\n', b - a) : NULL;
		size_t e = nl ? (size_t)(nl - p->src) + 1 : b;
		if (e > a) {
			struct mop *op = mops_add(&f->ops, MOP_TEXT, a);
			op->text = (struct str){p->src + a, e - a};
		}
		a = e;
	}
}

/* The whitespace src[ls, t) at a line start, less the innermost strip. */
static struct str line_ws(struct mparser *p, size_t ls, size_t t)
{
	struct str s = top(p)->strip;
	size_t k = 0;
	while (k < s.n && ls + k < t && p->src[ls + k] == s.p[k])
		k++;
	return (struct str){p->src + ls + k, t - ls - k};
}

static bool left_clear(const struct mparser *p, size_t t, size_t *ls)
{
	size_t i = t;
	while (i > 0 && is_ws(p->src[i - 1]))
		i--;
	if ((i > 0 && p->src[i - 1] != '\n') || i < p->pos)
		return false;
	*ls = i;
	return true;
}

static bool right_clear(const struct mparser *p, size_t e, size_t *eol)
{
	while (e < p->len && is_ws(p->src[e]))
		e++;
	if (e == p->len)
		*eol = e;
	else if (p->src[e] == '\n')
		*eol = e + 1;
	else if (p->src[e] == '\r' && e + 1 < p->len && p->src[e + 1] == '\n')
		*eol = e + 2;
	else
		return false;
	return true;
}

/* Leading whitespace of the first line from `from` on that is not blank. */
static struct str first_indent(const struct mparser *p, size_t from)
{
	size_t i = from;
	while (i < p->len) {
		size_t s = i;
		while (i < p->len && is_ws(p->src[i]))
			i++;
		if (i < p->len && p->src[i] != '\n' && p->src[i] != '\r')
			return (struct str){p->src + s, i - s};
		while (i < p->len && p->src[i] != '\n')
			i++;
		if (i < p->len)
			i++;
	}
	return (struct str){p->src + from, 0};
}

/* Indentation `ind` relative to the enclosing strip `outer`. */
static struct str rel_indent(struct str ind, struct str outer)
{
	size_t k = 0;
	while (k < ind.n && k < outer.n && ind.p[k] == outer.p[k])
		k++;
	return (struct str){ind.p + k, ind.n - k};
}

static const char *find(const struct mparser *p, size_t from, const char *s, size_t n)
{
	if (from > p->len)
		return NULL;
	return memmem(p->src + from, p->len - from, s, n);
}

/* Scan the tag whose opening delimiter starts at t. */
static int scan_tag(struct mparser *p, size_t t, struct mtag *tag)
{
	size_t c = t + p->olen;
	char closer[MDELIM_MAX + 1];
	size_t cn = 0;
	tag->start = t;
	tag->type = c < p->len ? p->src[c] : 'v';
	if (strchr("&{#^/!=><$", tag->type) && tag->type != '\0')
		c++;
	else
		tag->type = 'v';
	if (tag->type == '{' || tag->type == '=')
		closer[cn++] = tag->type == '{' ? '}' : '=';
	memcpy(closer + cn, p->ctag, p->clen);
	cn += p->clen;
	const char *e = find(p, c, closer, cn);
	if (!e) {
		p_error(p, t, "unclosed tag: no '%.*s' after it", (int)cn, closer);
		return -1;
	}
	tag->inner = str_trim((struct str){p->src + c, (size_t)(e - p->src) - c});
	tag->end = (size_t)(e - p->src) + cn;
	return 0;
}

/* A partial, parent or block name: non-empty, no whitespace. */
static int check_name(struct mparser *p, const struct mtag *tag)
{
	struct str s = tag->inner;
	bool bad = s.n == 0;
	for (size_t i = 0; i < s.n; i++)
		if (is_ws(s.p[i]) || s.p[i] == '\n' || s.p[i] == '\r')
			bad = true;
	if (bad) {
		p_error(p, tag->start, "invalid tag name '%.*s'", (int)s.n, s.p);
		return -1;
	}
	if (s.p[0] == '*' && (tag->type == '>' || tag->type == '<')) {
		p_error(p, tag->start, "dynamic names are not supported: '%.*s'", (int)s.n, s.p);
		return -1;
	}
	return 0;
}

/* Split a variable or section name into dotted parts ("." has none). */
static int split_name(struct mparser *p, const struct mtag *tag, struct str **parts, size_t *n)
{
	struct str s = tag->inner;
	*parts = NULL;
	*n = 0;
	if (check_name(p, tag) < 0)
		return -1;
	if (s.n == 1 && s.p[0] == '.')
		return 0;
	size_t cnt = 1;
	for (size_t i = 0; i < s.n; i++)
		cnt += s.p[i] == '.';
	struct str *v = xmalloc(cnt * sizeof *v);
	size_t k = 0, b = 0;
	for (size_t i = 0; i <= s.n; i++) {
		if (i < s.n && s.p[i] != '.')
			continue;
		if (i == b) {
			free(v);
			p_error(p, tag->start, "invalid name '%.*s'", (int)s.n, s.p);
			return -1;
		}
		v[k++] = (struct str){s.p + b, i - b};
		b = i + 1;
	}
	*parts = v;
	*n = k;
	return 0;
}

static int set_delims(struct mparser *p, const struct mtag *tag)
{
	struct str s = tag->inner;
	size_t i = 0;
	while (i < s.n && !is_ws(s.p[i]))
		i++;
	size_t a = i;
	while (i < s.n && is_ws(s.p[i]))
		i++;
	struct str o = {s.p, a}, c = {s.p + i, s.n - i};
	bool bad = o.n == 0 || c.n == 0 || o.n >= MDELIM_MAX || c.n >= MDELIM_MAX;
	for (size_t k = 0; k < c.n && !bad; k++)
		bad = is_ws(c.p[k]) || c.p[k] == '=' || c.p[k] == '\n';
	for (size_t k = 0; k < o.n && !bad; k++)
		bad = o.p[k] == '=' || o.p[k] == '\n';
	if (bad) {
		p_error(p, tag->start, "bad set-delimiter tag '%.*s': want two delimiters without spaces or '='",
			(int)s.n, s.p);
		return -1;
	}
	memcpy(p->otag, o.p, o.n);
	p->olen = o.n;
	memcpy(p->ctag, c.p, c.n);
	p->clen = c.n;
	return 0;
}

static struct mframe *push_frame(struct mparser *p, const struct mtag *tag, enum mframe_kind kind)
{
	if (p->depth > MUSTACHE_MAX_NESTING) {
		p_error(p, tag->start, "sections nested more than %d deep", MUSTACHE_MAX_NESTING);
		return NULL;
	}
	struct mframe *f = &p->st[p->depth++];
	memset(f, 0, sizeof *f);
	f->kind = kind;
	f->name = tag->inner;
	f->sigil = tag->type;
	f->pos = tag->start;
	f->open_end = tag->end;
	f->strip = p->st[p->depth - 2].strip;
	return f;
}

/* A standalone tag removes its whole line; otherwise only the tag goes. */
static void take_line(struct mparser *p, const struct mtag *tag, bool standalone, size_t ls, size_t eol)
{
	add_text(p, p->pos, standalone ? ls : tag->start);
	p->pos = standalone ? eol : tag->end;
}

/* Text before a left-clear open tag: its indentation becomes a separate op
 * that the closing tag may take back (standalone parent or one-line block). */
static void split_ws(struct mparser *p, size_t ls, size_t t, struct str *ws, bool *ws_op)
{
	struct mops *ops = &top(p)->ops;
	add_text(p, p->pos, ls);
	*ws = line_ws(p, ls, t);
	size_t n = ops->n;
	add_text(p, ls, t);
	*ws_op = ops->n == n + 1;
	p->pos = t;
}

static void open_block(struct mparser *p, const struct mtag *tag, bool lc, size_t ls, bool rc, size_t eol)
{
	struct mframe *enc = top(p);
	bool in_parent = enc->kind == MF_PARENT;
	bool standalone = rc && (lc || in_parent);
	struct str strip = standalone ? first_indent(p, eol) : enc->strip;
	struct str ws = {NULL, 0};
	bool ws_op = false;
	if (!in_parent && lc && !rc)
		split_ws(p, ls, tag->start, &ws, &ws_op);
	else
		add_text(p, p->pos, standalone && lc ? ls : tag->start);
	p->pos = standalone ? eol : tag->end;
	struct mframe *f = push_frame(p, tag, MF_BLOCK);
	if (!f)
		return;
	f->in_parent = in_parent;
	f->left_clear = lc && !rc && !in_parent;
	f->ws = ws;
	f->ws_op = ws_op;
	if (standalone && !in_parent)
		f->indent = rel_indent(strip, enc->strip);
	f->strip = strip;
}

static void open_parent(struct mparser *p, const struct mtag *tag, bool lc, size_t ls)
{
	struct str ws = {NULL, 0};
	bool ws_op = false;
	if (lc)
		split_ws(p, ls, tag->start, &ws, &ws_op);
	else
		add_text(p, p->pos, tag->start);
	p->pos = tag->end;
	struct mframe *f = push_frame(p, tag, MF_PARENT);
	if (!f)
		return;
	f->left_clear = lc;
	f->ws = ws;
	f->ws_op = ws_op;
}

/* Close the innermost frame into an op of the enclosing one. */
static void pop_frame(struct mparser *p)
{
	struct mframe *f = top(p);
	p->depth--;
	struct mframe *enc = top(p);
	static const enum mop_kind kinds[] = {
		[MF_SECTION] = MOP_SECTION, [MF_INVERTED] = MOP_INVERTED,
		[MF_PARENT] = MOP_PARENT, [MF_BLOCK] = MOP_BLOCK,
	};
	struct mop *op = mops_add(&enc->ops, kinds[f->kind], f->pos);
	op->text = f->name;
	op->indent = f->indent;
	op->parts = f->parts;
	op->nparts = f->nparts;
	if (f->kind != MF_PARENT) {
		op->body = f->ops;
		return;
	}
	/* a parent keeps only its argument blocks; other content is ignored */
	for (size_t i = 0; i < f->ops.n; i++) {
		struct mop *c = &f->ops.v[i];
		if (c->kind == MOP_BLOCK)
			*mops_add(&op->body, MOP_BLOCK, c->pos) = *c;
		else
			mop_free(c);
	}
	free(f->ops.v);
}

/* Take back the whitespace op before the open tag of f. */
static void drop_ws(struct mparser *p, struct mframe *f)
{
	struct mframe *enc = &p->st[p->depth - 2];
	if (f->ws_op && enc->ops.n > 0)
		enc->ops.n--;
	f->indent = f->ws;
}

static void close_tag(struct mparser *p, const struct mtag *tag, bool lc, size_t ls, bool rc, size_t eol)
{
	if (p->depth == 1) {
		p_error(p, tag->start, "closing tag '/%.*s' has no opening tag", (int)tag->inner.n,
			tag->inner.p);
		return;
	}
	struct mframe *f = top(p);
	if (!str_same(f->name, tag->inner)) {
		int line, col;
		line_col(p->src, f->pos, &line, &col);
		p_error(p, tag->start, "closing tag '/%.*s' does not match '%c%.*s' opened at %d:%d",
			(int)tag->inner.n, tag->inner.p, f->sigil, (int)f->name.n, f->name.p, line, col);
		return;
	}
	bool standalone = lc && rc;
	if (f->kind == MF_PARENT) {
		add_text(p, p->pos, tag->start);
		standalone = f->left_clear && rc;
		if (standalone)
			drop_ws(p, f);
		p->pos = standalone ? eol : tag->end;
	} else if (f->kind == MF_BLOCK && f->in_parent) {
		add_text(p, p->pos, lc ? ls : tag->start);
		p->pos = tag->end;
	} else if (f->kind == MF_BLOCK && f->left_clear && rc &&
		   !memchr(p->src + f->open_end, '\n', tag->start - f->open_end)) {
		add_text(p, p->pos, tag->start);
		drop_ws(p, f);
		p->pos = tag->end;
	} else {
		take_line(p, tag, standalone, ls, eol);
	}
	pop_frame(p);
}

static void var_tag(struct mparser *p, const struct mtag *tag)
{
	struct str *parts;
	size_t n;
	add_text(p, p->pos, tag->start);
	p->pos = tag->end;
	if (split_name(p, tag, &parts, &n) < 0)
		return;
	struct mop *op = mops_add(&top(p)->ops, tag->type == 'v' ? MOP_VAR : MOP_RAW, tag->start);
	op->parts = parts;
	op->nparts = n;
}

static void handle_tag(struct mparser *p, const struct mtag *tag)
{
	size_t ls = 0, eol = 0;
	bool lc = left_clear(p, tag->start, &ls);
	bool rc = right_clear(p, tag->end, &eol);
	bool standalone = lc && rc;
	struct mframe *f;
	switch (tag->type) {
	case 'v': case '&': case '{':
		var_tag(p, tag);
		break;
	case '!':
		take_line(p, tag, standalone, ls, eol);
		break;
	case '=':
		take_line(p, tag, standalone, ls, eol);
		set_delims(p, tag);
		break;
	case '#': case '^':
		take_line(p, tag, standalone, ls, eol);
		if ((f = push_frame(p, tag, tag->type == '#' ? MF_SECTION : MF_INVERTED)))
			split_name(p, tag, &f->parts, &f->nparts);
		break;
	case '/':
		close_tag(p, tag, lc, ls, rc, eol);
		break;
	case '>': {
		if (check_name(p, tag) < 0)
			return;
		struct str ind = standalone ? line_ws(p, ls, tag->start) : (struct str){NULL, 0};
		take_line(p, tag, standalone, ls, eol);
		struct mop *op = mops_add(&top(p)->ops, MOP_PARTIAL, tag->start);
		op->text = tag->inner;
		op->indent = ind;
		break;
	}
	case '<':
		if (check_name(p, tag) == 0)
			open_parent(p, tag, lc, ls);
		break;
	case '$':
		if (check_name(p, tag) == 0)
			open_block(p, tag, lc, ls, rc, eol);
		break;
	}
}

static void parse_all(struct mparser *p)
{
	while (!p->failed && p->pos < p->len) {
		const char *t = find(p, p->pos, p->otag, p->olen);
		if (!t) {
			add_text(p, p->pos, p->len);
			p->pos = p->len;
			break;
		}
		struct mtag tag;
		if (scan_tag(p, (size_t)(t - p->src), &tag) < 0)
			break;
		handle_tag(p, &tag);
	}
	if (!p->failed && p->depth > 1) {
		struct mframe *f = top(p);
		p_error(p, f->pos, "unclosed '%c%.*s': no closing tag", f->sigil, (int)f->name.n,
			f->name.p);
	}
}

/* Parse t->src into t->ops; on a syntax error report it and mark t broken. */
static void parse_template(struct mtpl *t, struct diags *d)
{
	struct mparser p = {
		.tname = t->name, .src = t->src, .len = t->len,
		.otag = "{{", .ctag = "}}", .olen = 2, .clen = 2, .d = d,
	};
	p.st = xcalloc(MUSTACHE_MAX_NESTING + 2, sizeof *p.st);
	p.depth = 1;
	parse_all(&p);
	for (size_t i = p.depth; i-- > 1;) {
		mops_free(&p.st[i].ops);
		free(p.st[i].parts);
	}
	if (p.failed) {
		mops_free(&p.st[0].ops);
		t->state = MT_BROKEN;
	} else {
		t->ops = p.st[0].ops;
		t->state = MT_OK;
	}
	free(p.st);
}

/* ---- the set ------------------------------------------------------------- */

struct mustache_set *mustache_set_new(mustache_load_fn load, void *ud)
{
	struct mustache_set *set = xcalloc(1, sizeof *set);
	set->load = load;
	set->ud = ud;
	pthread_mutex_init(&set->lock, NULL);
	return set;
}

void mustache_set_free(struct mustache_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++) {
		struct mtpl *t = set->v[i];
		mops_free(&t->ops);
		free(t->src);
		free(t->name);
		free(t);
	}
	free(set->v);
	pthread_mutex_destroy(&set->lock);
	free(set);
}

static struct mtpl *set_find(const struct mustache_set *set, const char *name, size_t n)
{
	for (size_t i = 0; i < set->n; i++)
		if (strncmp(set->v[i]->name, name, n) == 0 && set->v[i]->name[n] == '\0')
			return set->v[i];
	return NULL;
}

/* Add `name` to the set, not yet loaded (its state is set by load_one). */
static struct mtpl *set_add(struct mustache_set *set, const char *name, size_t n)
{
	struct mtpl *t = xcalloc(1, sizeof *t);
	t->name = xstrndup(name, n);
	t->state = MT_MISSING;
	set->v = xgrow(set->v, &set->cap, set->n + 1, sizeof *set->v);
	set->v[set->n++] = t;
	return t;
}

static void load_one(struct mustache_set *set, struct mtpl *t, struct diags *d)
{
	size_t len = 0;
	char *src = set->load ? set->load(set->ud, t->name, &len) : NULL;
	if (!src)
		return;
	t->src = src;
	t->len = len;
	parse_template(t, d);
}

/* Add every partial and parent that ops names and the set lacks. */
static void add_referenced(struct mustache_set *set, const struct mops *ops)
{
	for (size_t i = 0; i < ops->n; i++) {
		const struct mop *op = &ops->v[i];
		if ((op->kind == MOP_PARTIAL || op->kind == MOP_PARENT) &&
		    !set_find(set, op->text.p, op->text.n))
			set_add(set, op->text.p, op->text.n);
		add_referenced(set, &op->body);
	}
}

/* Point every partial and parent op of t at its template; warn about the
 * missing ones. */
static void link_ops(struct mustache_set *set, const struct mtpl *t, struct mops *ops,
		     struct diags *d)
{
	for (size_t i = 0; i < ops->n; i++) {
		struct mop *op = &ops->v[i];
		if (op->kind == MOP_PARTIAL || op->kind == MOP_PARENT) {
			struct mtpl *to = set_find(set, op->text.p, op->text.n);
			op->tpl = to && to->state == MT_OK ? to : NULL;
			if (to && to->state == MT_MISSING && d) {
				int line, col;
				line_col(t->src, op->pos, &line, &col);
				diag_add(d, SEV_WARNING, t->name, line, col,
					 "no template '%.*s': it renders as nothing", (int)op->text.n,
					 op->text.p);
			}
		}
		link_ops(set, t, &op->body, d);
	}
}

/* Compile `name` and everything it needs; the caller holds the lock. */
static int compile_locked(struct mustache_set *set, const char *name, struct diags *d,
			  struct mtpl **out)
{
	struct mtpl *t = set_find(set, name, strlen(name));
	int rc = 0;
	if (!t) {
		size_t first = set->n;
		t = set_add(set, name, strlen(name));
		for (size_t i = first; i < set->n; i++) {
			load_one(set, set->v[i], d);
			add_referenced(set, &set->v[i]->ops);
		}
		for (size_t i = first; i < set->n; i++) {
			link_ops(set, set->v[i], &set->v[i]->ops, d);
			if (set->v[i]->state == MT_BROKEN)
				rc = -1;
		}
	}
	if (t->state == MT_MISSING && d)
		diag_add(d, SEV_ERROR, name, 0, 0, "no template '%s'", name);
	*out = t;
	return t->state == MT_OK ? rc : -1;
}

int mustache_compile(struct mustache_set *set, const char *name, struct diags *d)
{
	struct mtpl *t;
	pthread_mutex_lock(&set->lock);
	int rc = compile_locked(set, name, d, &t);
	pthread_mutex_unlock(&set->lock);
	return rc;
}

/* ---- rendering ----------------------------------------------------------- */

/* The argument blocks of the parents being rendered, innermost first. */
struct mscope {
	const struct mops *blocks;
	const struct mscope *next;
};

struct mrender {
	struct buf *out;
	struct diags *d;
	const struct val **ctx;  /* the context stack, innermost last */
	size_t nctx, cap;
	struct buf ind;          /* indentation of the current line starts */
	bool pending;            /* at a line start: the indentation is still to come */
	int depth;
	bool failed;
	const struct mtpl *cur;
	size_t start;            /* out->n when the render began */
	unsigned long long steps; /* ops executed, against MUSTACHE_MAX_STEPS */
	const struct val *watch;  /* mustache_render_locate's value */
	long watch_at;
	int watch_seen;           /* times it went out (escaped counts as many) */
	struct mustache_items *items; /* mustache_render_items' places */
	size_t item_base;         /* the context of the item being noted (0: none) */
	bool item_open;           /* it looked a name up outside itself: not noted */
	const struct val *item_val; /* that item; where it went itself: */
	int item_seen;            /* times */
	bool item_escaped;
	size_t item_at, item_len; /* the last time, in out */
};

/* Nested sections over lists multiply: a few hundred bytes of template can
 * ask for billions of iterations or bytes. Stop at the limits, with an error. */
static bool over_budget(struct mrender *r, const struct mop *op)
{
	if (++r->steps <= MUSTACHE_MAX_STEPS && r->out->n - r->start <= MUSTACHE_MAX_OUTPUT)
		return false;
	int line, col;
	line_col(r->cur->src, op->pos, &line, &col);
	if (r->d)
		diag_add(r->d, SEV_ERROR, r->cur->name, line, col,
			 "rendering stopped: more than %s (sections nested over long lists?)",
			 r->steps > MUSTACHE_MAX_STEPS ? "the step limit" : "the output limit");
	r->failed = true;
	return true;
}

static void ctx_push(struct mrender *r, const struct val *v)
{
	r->ctx = xgrow(r->ctx, &r->cap, r->nctx + 1, sizeof *r->ctx);
	r->ctx[r->nctx++] = v;
}

static const struct val *lookup(struct mrender *r, const struct mop *op)
{
	if (!op->parts)
		return r->nctx ? r->ctx[r->nctx - 1] : NULL;
	const struct val *v = NULL;
	size_t at = r->nctx;
	uint32_t *hint = (uint32_t *)&op->hint; /* the op is the template's, the guess anyone's */
	while (at > 0 && !(v = val_getn_hint(r->ctx[at - 1], op->parts[0].p, op->parts[0].n, hint)))
		at--;
	/* found in (or missing from) the page around the item: what it shows
	 * is not the item's alone */
	if (r->item_base && at <= r->item_base)
		r->item_open = true;
	for (size_t k = 1; k < op->nparts && v; k++)
		v = val_getn(v, op->parts[k].p, op->parts[k].n);
	return v;
}

/* Template text: indented after every newline it contains. */
static void emit_text(struct mrender *r, const char *p, size_t n)
{
	if (!n)
		return;
	if (!r->ind.n) {
		buf_put(r->out, p, n);
		r->pending = p[n - 1] == '\n';
		return;
	}
	while (n) {
		if (r->pending)
			buf_put(r->out, r->ind.p, r->ind.n);
		const char *nl = memchr(p, '\n', n);
		size_t k = nl ? (size_t)(nl - p) + 1 : n;
		buf_put(r->out, p, k);
		p += k;
		n -= k;
		r->pending = nl != NULL;
	}
}

/* Data: indented if it starts a line, never inside. */
static void emit_value(struct mrender *r, const struct val *v, bool escape)
{
	const char *s = "";
	size_t n = 0;
	if (v && v->kind == VAL_STR) {
		s = v->s;
		n = v->slen;
	} else if (v && v->kind == VAL_BOOL) {
		s = v->b ? "true" : "false";
		n = strlen(s);
	}
	if (!n)
		return;
	if (r->pending && r->ind.n)
		buf_put(r->out, r->ind.p, r->ind.n);
	r->pending = false;
	if (v == r->watch) {
		r->watch_at = (long)(r->out->n - r->start);
		r->watch_seen += escape ? 2 : 1;
	}
	size_t from = r->out->n;
	if (escape)
		buf_put_html(r->out, s, n);
	else
		buf_put(r->out, s, n);
	if (v == r->item_val && v->kind == VAL_STR) {
		r->item_seen++;
		r->item_escaped = escape;
		r->item_at = from;
		r->item_len = r->out->n - from;
	}
}

/* Indent the lines to come by ws more; returns what to restore. When the
 * output is not at a line start, the first line gets ws as it is. */
static size_t indent_push(struct mrender *r, struct str ws)
{
	size_t old = r->ind.n;
	if (!ws.n)
		return old;
	if (!r->pending)
		buf_put(r->out, ws.p, ws.n);
	buf_put(&r->ind, ws.p, ws.n);
	return old;
}

static const struct mop *find_block(const struct mscope *s, struct str name)
{
	const struct mop *found = NULL;
	for (; s; s = s->next)
		for (size_t i = 0; i < s->blocks->n; i++)
			if (str_same(s->blocks->v[i].text, name)) {
				found = &s->blocks->v[i]; /* the outermost one wins */
				break;
			}
	return found;
}

static void render_ops(struct mrender *r, const struct mops *ops, const struct mscope *scope);

static void note_item(struct mrender *r, uint32_t item, size_t from)
{
	struct mustache_items *m = r->items;
	m->v = xgrow(m->v, &m->cap, m->n + 1, sizeof *m->v);
	m->v[m->n++] = (struct mustache_item_place){item, from - r->start, r->out->n - from,
						    false, false, 0, 0};
}

/* An item already rendered: its bytes, where no indentation is due (the
 * bytes hold none but their own). */
static void emit_fragment(struct mrender *r, const struct val *f)
{
	if (r->ind.n || !r->items) {
		if (r->items)
			r->items->refused = true;
		return;
	}
	size_t from = r->out->n;
	if (!f->slen)
		return;
	buf_put(r->out, f->s, f->slen);
	r->pending = f->s[f->slen - 1] == '\n';
	if (f->item)
		note_item(r, f->item, from);
}

static void render_section(struct mrender *r, const struct mop *op, const struct mscope *scope)
{
	const struct val *v = lookup(r, op);
	if (op->kind == MOP_INVERTED) {
		if (!val_truthy(v))
			render_ops(r, &op->body, scope);
	} else if (v && v->kind == VAL_LIST) {
		for (size_t i = 0; i < v->n && !r->failed; i++) {
			const struct val *it = val_deref(v->items[i]);
			if (it && it->kind == VAL_FRAGMENT) {
				emit_fragment(r, it);
				continue;
			}
			size_t from = r->out->n, base = r->item_base;
			bool noted = it && it->item && r->items && !r->ind.n, open = r->item_open;
			const struct val *outer = r->item_val;
			int outer_seen = r->item_seen;
			if (noted) {
				r->item_base = r->nctx;
				r->item_open = false;
				r->item_val = it;
				r->item_seen = 0;
			}
			ctx_push(r, it);
			render_ops(r, &op->body, scope);
			r->nctx--;
			if (noted) {
				if (!r->item_open) {
					note_item(r, it->item, from);
					struct mustache_item_place *p = &r->items->v[r->items->n - 1];
					if (it->kind == VAL_STR && r->item_seen == 1)
						*p = (struct mustache_item_place){
							p->item, p->at, p->len, true, r->item_escaped,
							r->item_at - r->start, r->item_len};
				}
				r->item_base = base;
				r->item_open = open || r->item_open;
				r->item_val = outer;
				r->item_seen = outer_seen;
			}
		}
	} else if (val_truthy(v)) {
		ctx_push(r, v);
		render_ops(r, &op->body, scope);
		r->nctx--;
	}
}

static void render_partial(struct mrender *r, const struct mop *op, const struct mscope *scope)
{
	if (!op->tpl)
		return;
	if (r->depth >= MUSTACHE_MAX_DEPTH) {
		int line, col;
		line_col(r->cur->src, op->pos, &line, &col);
		if (r->d)
			diag_add(r->d, SEV_ERROR, r->cur->name, line, col,
				 "partials nested more than %d deep (is '%.*s' recursive?)",
				 MUSTACHE_MAX_DEPTH, (int)op->text.n, op->text.p);
		r->failed = true;
		return;
	}
	struct mscope inner = {&op->body, scope};
	const struct mtpl *prev = r->cur;
	size_t old = indent_push(r, op->indent);
	r->depth++;
	r->cur = op->tpl;
	render_ops(r, &op->tpl->ops, op->kind == MOP_PARENT ? &inner : scope);
	r->cur = prev;
	r->depth--;
	r->ind.n = old;
}

static void render_block(struct mrender *r, const struct mop *op, const struct mscope *scope)
{
	const struct mop *arg = find_block(scope, op->text);
	size_t old = indent_push(r, op->indent);
	render_ops(r, arg ? &arg->body : &op->body, scope);
	r->ind.n = old;
}

static void render_ops(struct mrender *r, const struct mops *ops, const struct mscope *scope)
{
	for (size_t i = 0; i < ops->n && !r->failed; i++) {
		const struct mop *op = &ops->v[i];
		if (over_budget(r, op))
			break;
		switch (op->kind) {
		case MOP_TEXT: emit_text(r, op->text.p, op->text.n); break;
		case MOP_VAR: emit_value(r, lookup(r, op), true); break;
		case MOP_RAW: emit_value(r, lookup(r, op), false); break;
		case MOP_SECTION:
		case MOP_INVERTED: render_section(r, op, scope); break;
		case MOP_PARTIAL:
		case MOP_PARENT: render_partial(r, op, scope); break;
		case MOP_BLOCK: render_block(r, op, scope); break;
		}
	}
}

int mustache_render(struct mustache_set *set, const char *name, const struct val *ctx,
		    struct buf *out, struct diags *d)
{
	return mustache_render_locate(set, name, ctx, out, d, NULL, NULL);
}

int mustache_render_locate(struct mustache_set *set, const char *name, const struct val *ctx,
			   struct buf *out, struct diags *d, const struct val *watch, long *at)
{
	return mustache_render_items(set, name, ctx, out, d, watch, at, NULL);
}

void mustache_items_free(struct mustache_items *items)
{
	free(items->v);
	memset(items, 0, sizeof *items);
}

int mustache_render_items(struct mustache_set *set, const char *name, const struct val *ctx,
			  struct buf *out, struct diags *d, const struct val *watch, long *at,
			  struct mustache_items *items)
{
	struct mtpl *t;
	pthread_mutex_lock(&set->lock);
	compile_locked(set, name, d, &t);
	pthread_mutex_unlock(&set->lock);
	if (t->state != MT_OK)
		return -1;
	struct mrender r = {.out = out, .d = d, .pending = true, .cur = t, .start = out->n,
			    .watch = watch, .items = items};
	if (ctx)
		ctx_push(&r, ctx);
	render_ops(&r, &t->ops, NULL);
	if (at)
		*at = watch && r.watch_seen == 1 ? r.watch_at : -1;
	free(r.ctx);
	buf_free(&r.ind);
	return r.failed ? -1 : 0;
}
