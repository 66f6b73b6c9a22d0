/* rst_block: the block structure of reStructuredText: sections and
 * transitions, paragraphs and literal blocks, block quotes with attribution,
 * bullet and enumerated lists, definition, field and option lists, line
 * blocks and doctest blocks. Explicit markup goes to rst_directive.c, tables
 * to rst_table.c, inline text is deferred to rst_inline.c. Recursion only
 * through rst_body, which stops at opt.max_depth. */
#include "rst_int.h"
#include "ast.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

bool rst_is_blank(const struct rst_line *l) { return l->n == 0; }

static size_t count_spaces(const char *p, size_t n)
{
	size_t k = 0;
	while (k < n && p[k] == ' ')
		k++;
	return k;
}

struct rst_line *rst_sub(const struct rst_line *L, size_t from, size_t to, size_t first, size_t strip)
{
	size_t n = to > from ? to - from : 0;
	struct rst_line *s = xcalloc(n ? n : 1, sizeof *s);
	for (size_t k = 0; k < n; k++) {
		struct rst_line l = L[from + k];
		size_t cut = (k == 0 && first != (size_t)-1) ? first : strip;
		if (l.n == 0 || cut >= l.n) {
			l.p += l.n;
			l.n = 0;
			l.ind = 0;
		} else {
			l.p += cut;
			l.n -= cut;
			l.ind = l.ind >= cut ? l.ind - cut : count_spaces(l.p, l.n);
		}
		s[k] = l;
	}
	return s;
}

size_t rst_indented(const struct rst_line *L, size_t n, size_t i, size_t *min)
{
	size_t end = i, m = (size_t)-1;
	for (size_t j = i; j < n && (L[j].n == 0 || L[j].ind > 0); j++) {
		if (L[j].n) {
			end = j + 1;
			if (L[j].ind < m)
				m = L[j].ind;
		}
	}
	if (min)
		*min = m == (size_t)-1 ? 0 : m;
	return end;
}

void rst_body(struct rst_ctx *c, cmark_node *parent, struct rst_line *L, size_t n, int depth)
{
	if (!parent || n == 0)
		return;
	if (depth > c->opt.max_depth) {
		rst_warn(c, L[0].no, "Nesting deeper than %d levels; the rest is kept as literal text.",
			 c->opt.max_depth);
		rst_code_block(c, parent, L, n, NULL, L[0].no);
		return;
	}
	rst_blocks(c, parent, L, n, depth, false);
}

/* Body of an item whose first line starts at column `first`: the first line
 * and the following indented lines, indentation removed. Returns the end. */
static size_t item_body(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			size_t first, int depth)
{
	size_t min = 0;
	size_t end = rst_indented(L, n, i + 1, &min);
	if (end < i + 1)
		end = i + 1;
	struct rst_line *s = rst_sub(L, i, end, first, min);
	size_t k = 0, m = end - i;
	while (k < m && s[k].n == 0)
		k++;
	rst_body(c, parent, s + k, m - k, depth + 1);
	free(s);
	return end;
}

/* ---- line classification ---------------------------------------------- */

static bool is_punct7(unsigned char ch)
{
	return ch > 32 && ch < 127 && !((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
					 (ch >= 'A' && ch <= 'Z'));
}

static bool is_adornment(const struct rst_line *l)
{
	if (l->n == 0 || l->ind > 0 || !is_punct7((unsigned char)l->p[0]))
		return false;
	for (size_t k = 1; k < l->n; k++)
		if (l->p[k] != l->p[0])
			return false;
	return true;
}

static bool is_bullet(const struct rst_line *l, size_t *text)
{
	static const char *const uni[] = {"\xE2\x80\xA2", "\xE2\x80\xA3", "\xE2\x81\x83"};
	size_t mk = 0;
	if (l->n && (l->p[0] == '*' || l->p[0] == '+' || l->p[0] == '-'))
		mk = 1;
	for (int u = 0; !mk && u < 3; u++)
		if (l->n >= 3 && !memcmp(l->p, uni[u], 3))
			mk = 3;
	if (!mk || (l->n > mk && l->p[mk] != ' '))
		return false;
	if (text)
		*text = mk + count_spaces(l->p + mk, l->n - mk);
	return true;
}

enum seq { SEQ_ARABIC, SEQ_LALPHA, SEQ_UALPHA, SEQ_LROMAN, SEQ_UROMAN, SEQ_AUTO };
enum efmt { FMT_PERIOD, FMT_PARENS, FMT_RPAREN };

struct enumr {
	enum seq seq;
	enum efmt fmt;
	int ord;
	size_t text;
};

static int roman_value(const char *s, size_t n)
{
	static const char *const th[] = {"", "m", "mm", "mmm", "mmmm"};
	static const char *const hu[] = {"", "c", "cc", "ccc", "cd", "d", "dc", "dcc", "dccc", "cm"};
	static const char *const te[] = {"", "x", "xx", "xxx", "xl", "l", "lx", "lxx", "lxxx", "xc"};
	static const char *const on[] = {"", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"};
	if (n == 0 || n > 16)
		return 0;
	char low[17];
	for (size_t k = 0; k < n; k++)
		low[k] = (char)(s[k] | 0x20);
	low[n] = 0;
	for (int v = 1; v < 5000; v++) {
		char r[32];
		size_t len = 0;
		const char *parts[] = {th[v / 1000], hu[v / 100 % 10], te[v / 10 % 10], on[v % 10]};
		for (int p = 0; p < 4; p++) {
			size_t pl = strlen(parts[p]);
			memcpy(r + len, parts[p], pl);
			len += pl;
		}
		if (len == n && !memcmp(r, low, n))
			return v;
	}
	return 0;
}

static bool all_in(const char *s, size_t n, const char *set)
{
	for (size_t k = 0; k < n; k++)
		if (!strchr(set, s[k]))
			return false;
	return n > 0;
}

/* Parse an enumerator; `want` >= 0 forces the sequence of a running list. */
static bool parse_enum(const struct rst_line *l, int want, struct enumr *e)
{
	const char *p = l->p;
	size_t n = l->n, k = 0;
	bool paren = n && p[0] == '(';
	if (paren)
		k = 1;
	size_t s = k;
	while (k < n && k - s < 16 && ((p[k] >= '0' && p[k] <= '9') || (p[k] | 0x20) >= 'a') &&
	       (p[k] | 0x20) <= 'z' && p[k] != '.' && p[k] != ')')
		k++;
	if (k == s && k < n && p[k] == '#')
		k++;
	size_t len = k - s;
	if (len == 0 || k >= n)
		return false;
	if (paren && p[k] != ')')
		return false;
	if (!paren && p[k] != '.' && p[k] != ')')
		return false;
	e->fmt = paren ? FMT_PARENS : p[k] == '.' ? FMT_PERIOD : FMT_RPAREN;
	k++;
	if (k < n && p[k] != ' ')
		return false;
	e->text = k + count_spaces(p + k, n - k);
	const char *t = p + s;
	int seq = -1;
	if (len == 1 && t[0] == '#')
		seq = SEQ_AUTO;
	else if (want >= 0 && want != SEQ_AUTO) {
		seq = want;
	} else if (all_in(t, len, "0123456789"))
		seq = SEQ_ARABIC;
	else if (len == 1 && t[0] == 'i')
		seq = SEQ_LROMAN;
	else if (len == 1 && t[0] == 'I')
		seq = SEQ_UROMAN;
	else if (len == 1 && t[0] >= 'a' && t[0] <= 'z')
		seq = SEQ_LALPHA;
	else if (len == 1 && t[0] >= 'A' && t[0] <= 'Z')
		seq = SEQ_UALPHA;
	else if (all_in(t, len, "ivxlcdm"))
		seq = SEQ_LROMAN;
	else if (all_in(t, len, "IVXLCDM"))
		seq = SEQ_UROMAN;
	if (seq < 0)
		return false;
	e->seq = (enum seq)seq;
	switch (e->seq) {
	case SEQ_AUTO: e->ord = 1; break;
	case SEQ_ARABIC:
		if (!all_in(t, len, "0123456789") || len > 9)
			return false;
		e->ord = atoi(t);
		break;
	case SEQ_LALPHA:
	case SEQ_UALPHA:
		if (len != 1 || !(e->seq == SEQ_LALPHA ? (t[0] >= 'a' && t[0] <= 'z') : (t[0] >= 'A' && t[0] <= 'Z')))
			return false;
		e->ord = (t[0] | 0x20) - 'a' + 1;
		break;
	case SEQ_LROMAN:
	case SEQ_UROMAN:
		if (!all_in(t, len, e->seq == SEQ_LROMAN ? "ivxlcdm" : "IVXLCDM"))
			return false;
		e->ord = roman_value(t, len);
		if (!e->ord)
			return false;
		break;
	}
	return true;
}

/* The enumerator text of ordinal `ord` in a sequence and format. */
static void make_enum(enum seq seq, enum efmt fmt, int ord, struct buf *b)
{
	if (fmt == FMT_PARENS)
		buf_putc(b, '(');
	switch (seq) {
	case SEQ_AUTO: buf_putc(b, '#'); break;
	case SEQ_ARABIC: buf_printf(b, "%d", ord); break;
	case SEQ_LALPHA:
	case SEQ_UALPHA:
		if (ord >= 1 && ord <= 26)
			buf_putc(b, (char)((seq == SEQ_LALPHA ? 'a' : 'A') + ord - 1));
		else
			buf_putc(b, '?');
		break;
	case SEQ_LROMAN:
	case SEQ_UROMAN: {
		static const struct { int v; const char *s; } rn[] = {
			{1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"}, {100, "c"}, {90, "xc"},
			{50, "l"}, {40, "xl"}, {10, "x"}, {9, "ix"}, {5, "v"}, {4, "iv"}, {1, "i"}};
		for (size_t k = 0; k < sizeof rn / sizeof *rn; k++)
			while (ord >= rn[k].v && ord < 5000) {
				for (const char *q = rn[k].s; *q; q++)
					buf_putc(b, seq == SEQ_UROMAN ? (char)(*q - 32) : *q);
				ord -= rn[k].v;
			}
		break;
	}
	}
	buf_putc(b, fmt == FMT_PERIOD ? '.' : ')');
}

/* docutils' is_enumerated_list_item: the next line is blank, indented,
 * absent, or starts with the next enumerator. */
static bool enum_item_ok(const struct rst_line *L, size_t n, size_t i, const struct enumr *e)
{
	if (i + 1 >= n || L[i + 1].n == 0 || L[i + 1].ind > 0)
		return true;
	struct buf b = BUF_INIT, a = BUF_INIT;
	make_enum(e->seq, e->fmt, e->ord + 1, &b);
	make_enum(SEQ_AUTO, e->fmt, 0, &a);
	const struct rst_line *nx = &L[i + 1];
	bool ok = (nx->n >= b.n && !memcmp(nx->p, b.p, b.n)) || (nx->n >= a.n && !memcmp(nx->p, a.p, a.n));
	buf_free(&b);
	buf_free(&a);
	return ok;
}

/* A field marker ":name: "; *name_end is the closing colon, *text the body start. */
static bool is_field(const struct rst_line *l, size_t *name_end, size_t *text)
{
	const char *p = l->p;
	size_t n = l->n;
	if (n < 3 || p[0] != ':' || p[1] == ' ' || p[1] == ':')
		return false;
	for (size_t k = 1; k < n; k++) {
		if (p[k] == '\\') {
			k++;
			continue;
		}
		if (p[k] != ':')
			continue;
		if (k + 1 < n && p[k + 1] != ' ' && p[k + 1] != '`')
			continue; /* an inner colon */
		if (p[k - 1] == ' ' || k == 1)
			return false;
		if (k + 1 < n && p[k + 1] == '`')
			return false;
		*name_end = k;
		*text = k + 1 + count_spaces(p + k + 1, n - k - 1);
		return true;
	}
	return false;
}

static bool opt_arg(const char *p, size_t n, size_t *k)
{
	size_t j = *k;
	if (j < n && p[j] == '<') {
		size_t s = ++j;
		while (j < n && p[j] != '>' && p[j] != '<')
			j++;
		if (j >= n || p[j] != '>' || j == s)
			return false;
		*k = j + 1;
		return true;
	}
	if (j >= n || !((p[j] | 0x20) >= 'a' && (p[j] | 0x20) <= 'z'))
		return false;
	j++;
	while (j < n && ((p[j] | 0x20) >= 'a' && (p[j] | 0x20) <= 'z' ? 1 : (p[j] >= '0' && p[j] <= '9') ||
							     p[j] == '_' || p[j] == '-'))
		j++;
	*k = j;
	return true;
}

static bool is_alnum(char ch)
{
	return (ch >= '0' && ch <= '9') || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z');
}

/* One option at p[*k]; advances *k. */
static bool one_option(const char *p, size_t n, size_t *k)
{
	size_t j = *k;
	bool lng = false;
	if (j + 1 < n && p[j] == '-' && p[j + 1] == '-') {
		j += 2;
		lng = true;
	} else if (j < n && p[j] == '/') {
		j++;
		lng = true;
	} else if (j < n && (p[j] == '-' || p[j] == '+')) {
		j++;
	} else
		return false;
	if (j >= n || !is_alnum(p[j]))
		return false;
	j++;
	if (lng)
		while (j < n && (is_alnum(p[j]) || p[j] == '_' || p[j] == '-'))
			j++;
	size_t save = j;
	if (j < n && (p[j] == ' ' || (lng && p[j] == '='))) {
		size_t a = j + 1;
		if (opt_arg(p, n, &a))
			j = a;
	} else if (!lng && j < n && (p[j] == '<' || ((p[j] | 0x20) >= 'a' && (p[j] | 0x20) <= 'z'))) {
		size_t a = j;
		if (opt_arg(p, n, &a))
			j = a;
	}
	/* the option group must be followed by ", ", two spaces or the end */
	bool end_ok = j == n || (j + 1 < n && p[j] == ' ' && p[j + 1] == ' ') || (j + 1 < n && p[j] == ',') ||
		      (j + 1 == n && p[j] == ' ');
	if (!end_ok)
		j = save;
	*k = j;
	return true;
}

/* An option-list marker; *text is where the description starts. */
static bool is_option(const struct rst_line *l, size_t *mark_end, size_t *text)
{
	const char *p = l->p;
	size_t n = l->n, k = 0;
	if (!n || (p[0] != '-' && p[0] != '+' && p[0] != '/'))
		return false;
	for (;;) {
		if (!one_option(p, n, &k))
			return false;
		if (k + 2 < n && p[k] == ',' && p[k + 1] == ' ') {
			k += 2;
			continue;
		}
		break;
	}
	if (k == n || (k + 1 < n && p[k] == ' ' && p[k + 1] == ' ')) {
		*mark_end = k;
		*text = k + count_spaces(p + k, n - k);
		return true;
	}
	return false;
}

static bool starts(const struct rst_line *l, const char *s)
{
	size_t k = strlen(s);
	return l->n >= k && !memcmp(l->p, s, k) && (l->n == k || l->p[k] == ' ');
}

static bool starts_tight(const struct rst_line *l, const char *s)
{
	size_t k = strlen(s);
	return l->n >= k && !memcmp(l->p, s, k);
}

static bool is_grid_top(const struct rst_line *l)
{
	if (l->n < 4 || l->p[0] != '+' || l->p[1] != '-' || l->p[l->n - 1] != '+' || l->p[l->n - 2] != '-')
		return false;
	for (size_t k = 0; k < l->n; k++)
		if (l->p[k] != '+' && l->p[k] != '-')
			return false;
	return true;
}

static bool is_simple_top(const struct rst_line *l)
{
	int cols = 0;
	size_t k = 0;
	while (k < l->n) {
		if (l->p[k] != '=')
			return false;
		while (k < l->n && l->p[k] == '=')
			k++;
		cols++;
		while (k < l->n && l->p[k] == ' ')
			k++;
	}
	return cols >= 2;
}

/* True when an unindented line starts some construct other than text. */
static bool starts_construct(const struct rst_line *L, size_t n, size_t i)
{
	const struct rst_line *l = &L[i];
	size_t a, b;
	struct enumr e;
	if (is_bullet(l, NULL) || is_field(l, &a, &b) || is_option(l, &a, &b))
		return true;
	if (parse_enum(l, -1, &e) && enum_item_ok(L, n, i, &e))
		return true;
	if (starts(l, ">>>") || starts(l, "|") || starts(l, "..") || starts(l, "__"))
		return true;
	return is_grid_top(l) || is_simple_top(l) || (is_adornment(l) && l->n >= 4);
}

/* ---- paragraphs and literal blocks ------------------------------------- */

static size_t literal_block(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			    int line)
{
	size_t j = i;
	while (j < n && L[j].n == 0)
		j++;
	if (j >= n) {
		rst_warn(c, line, "Literal block expected; none found.");
		return j;
	}
	if (L[j].ind > 0) {
		size_t min = 0, end = rst_indented(L, n, j, &min);
		struct rst_line *s = rst_sub(L, j, end, (size_t)-1, min);
		rst_code_block(c, parent, s, end - j, NULL, L[j].no);
		free(s);
		return end;
	}
	if (j > i && is_punct7((unsigned char)L[j].p[0])) {
		char q = L[j].p[0];
		size_t end = j;
		while (end < n && L[end].n && L[end].ind == 0) {
			if (L[end].p[0] != q) {
				rst_warn(c, L[end].no, "Inconsistent literal block quoting.");
				break;
			}
			end++;
		}
		rst_code_block(c, parent, L + j, end - j, NULL, L[j].no);
		return end;
	}
	rst_warn(c, line, "Literal block expected; none found.");
	return j;
}

/* Paragraph of L[i..] up to a blank or indented line; handles "::". */
static size_t paragraph(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i)
{
	size_t j = i;
	while (j < n && L[j].n && L[j].ind == 0)
		j++;
	bool unexpected = j < n && L[j].n && L[j].ind > 0;
	char *text = rst_join(L + i, j - i);
	size_t tl = strlen(text);
	bool literal = tl >= 2 && text[tl - 1] == ':' && text[tl - 2] == ':';
	if (literal) {
		if (tl == 2)
			tl = 0;
		else if (text[tl - 3] == ' ' || text[tl - 3] == '\n') {
			tl -= 2;
			while (tl && (text[tl - 1] == ' ' || text[tl - 1] == '\n'))
				tl--;
		} else
			tl -= 1;
	}
	if (tl) {
		cmark_node *p = rst_block(parent, CMARK_NODE_PARAGRAPH, L[i].no);
		rst_defer(c, p, text, tl, L[i].no);
	}
	free(text);
	if (literal)
		return literal_block(c, parent, L, n, j, L[j - 1].no);
	if (unexpected)
		rst_warn(c, L[j].no, "Unexpected indentation.");
	return j;
}

/* ---- block quotes ------------------------------------------------------ */

static size_t attribution_marker(const struct rst_line *l)
{
	size_t k = 0;
	if (l->ind)
		return 0;
	if (starts_tight(l, "\xE2\x80\x94"))
		k = 3;
	else if (starts_tight(l, "---") && !starts_tight(l, "----"))
		k = 3;
	else if (starts_tight(l, "--") && !starts_tight(l, "---"))
		k = 2;
	if (!k)
		return 0;
	size_t s = k + count_spaces(l->p + k, l->n - k);
	return s < l->n ? s : 0;
}

/* docutils' split_attribution: index of the attribution line, its end and the
 * indentation of its continuation lines; false when there is none. */
static bool find_attribution(const struct rst_line *s, size_t m, size_t *at, size_t *end, size_t *ind)
{
	bool seen = false;
	size_t blank = (size_t)-2;
	for (size_t k = 0; k < m; k++) {
		if (s[k].n == 0) {
			blank = k;
			continue;
		}
		if (seen && blank + 1 == k && attribution_marker(&s[k])) {
			size_t in = (size_t)-1, e = k + 1;
			bool bad = false;
			for (; e < m && s[e].n; e++) {
				if (in == (size_t)-1)
					in = s[e].ind;
				else if (s[e].ind != in)
					bad = true;
			}
			if (!bad) {
				*at = k;
				*end = e;
				*ind = in == (size_t)-1 ? 0 : in;
				return true;
			}
		}
		seen = true;
	}
	return false;
}

static void attribution(struct rst_ctx *c, cmark_node *bq, const struct rst_line *s, size_t at, size_t end,
			size_t ind)
{
	struct buf b = BUF_INIT;
	size_t mk = attribution_marker(&s[at]);
	buf_put(&b, s[at].p + mk, s[at].n - mk);
	for (size_t k = at + 1; k < end; k++) {
		buf_putc(&b, '\n');
		size_t cut = ind < s[k].n ? ind : s[k].n;
		buf_put(&b, s[k].p + cut, s[k].n - cut);
	}
	cmark_node *a = rst_inline_block(bq, "<p class=\"attribution\">\xE2\x80\x94", "</p>", s[at].no);
	rst_defer(c, a, buf_cstr(&b), b.n, s[at].no);
	buf_free(&b);
}

void rst_quote(struct rst_ctx *c, cmark_node *bq, struct rst_line *s, size_t m, int depth)
{
	size_t at, aend, aind;
	if (!find_attribution(s, m, &at, &aend, &aind)) {
		rst_body(c, bq, s, m, depth + 1);
		return;
	}
	rst_body(c, bq, s, at, depth + 1);
	attribution(c, bq, s, at, aend, aind);
}

static size_t block_quote(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			  int depth)
{
	size_t min = 0, end = rst_indented(L, n, i, &min);
	struct rst_line *s = rst_sub(L, i, end, (size_t)-1, min);
	size_t m = end - i, off = 0;
	while (off < m) {
		while (off < m && s[off].n == 0)
			off++;
		if (off >= m)
			break;
		cmark_node *bq = rst_block(parent, CMARK_NODE_BLOCK_QUOTE, s[off].no);
		size_t at, aend, aind;
		if (find_attribution(s + off, m - off, &at, &aend, &aind)) {
			rst_body(c, bq, s + off, at, depth + 1);
			attribution(c, bq, s + off, at, aend, aind);
			off += aend;
		} else {
			rst_body(c, bq, s + off, m - off, depth + 1);
			off = m;
		}
	}
	free(s);
	return end;
}

/* ---- lists ------------------------------------------------------------- */

static bool invisible(cmark_node *n)
{
	if (cmark_node_get_type(n) != CMARK_NODE_CUSTOM_BLOCK)
		return false;
	const char *e = cmark_node_get_on_enter(n);
	return e && !strncmp(e, "<span id=", 9) && !cmark_node_first_child(n);
}

/* docutils' "compact" list rule: every item holds at most one paragraph,
 * optionally followed by one nested list that is itself compact. */
static bool list_compact(cmark_node *list)
{
	for (cmark_node *it = cmark_node_first_child(list); it; it = cmark_node_next(it)) {
		cmark_node *k[3];
		int nk = 0;
		for (cmark_node *ch = cmark_node_first_child(it); ch; ch = cmark_node_next(ch)) {
			if (invisible(ch))
				continue;
			if (nk == 3)
				return false;
			k[nk++] = ch;
		}
		if (nk >= 2 && cmark_node_get_type(k[0]) == CMARK_NODE_PARAGRAPH &&
		    cmark_node_get_type(k[nk - 1]) == CMARK_NODE_LIST)
			nk--;
		if (nk > 1)
			return false;
		for (cmark_node *ch = cmark_node_first_child(it); ch; ch = cmark_node_next(ch)) {
			cmark_node_type t = cmark_node_get_type(ch);
			if (invisible(ch) || t == CMARK_NODE_PARAGRAPH)
				continue;
			if (t != CMARK_NODE_LIST || !cmark_node_get_list_tight(ch))
				return false;
		}
	}
	return true;
}

static void list_end_warning(struct rst_ctx *c, const struct rst_line *L, size_t n, size_t j, const char *what)
{
	if (j < n && L[j].n && L[j].ind == 0)
		rst_warn(c, L[j].no, "%s ends without a blank line; unexpected unindent.", what);
}

static size_t bullet_list(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			  int depth)
{
	cmark_node *list = ast_node_new(CMARK_NODE_LIST);
	cmark_node_set_list_type(list, CMARK_BULLET_LIST);
	if (!rst_add(parent, list, L[i].no))
		return i + 1;
	char mk0[3];
	memcpy(mk0, L[i].p, L[i].p[0] & 0x80 ? 3 : 1);
	size_t mkl = L[i].p[0] & 0x80 ? 3 : 1;
	size_t j = i, last = i;
	for (;;) {
		size_t text;
		cmark_node *item = rst_block(list, CMARK_NODE_ITEM, L[j].no);
		is_bullet(&L[j], &text);
		last = item_body(c, item, L, n, j, text, depth);
		j = last;
		while (j < n && L[j].n == 0)
			j++;
		if (j >= n || L[j].ind || !is_bullet(&L[j], NULL) || memcmp(L[j].p, mk0, mkl))
			break;
	}
	list_end_warning(c, L, n, last, "Bullet list");
	cmark_node_set_list_tight(list, list_compact(list));
	return last;
}

static size_t enum_list(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			int depth, const struct enumr *e0)
{
	cmark_node *list = ast_node_new(CMARK_NODE_LIST);
	cmark_node_set_list_type(list, CMARK_ORDERED_LIST);
	cmark_node_set_list_delim(list, e0->fmt == FMT_PERIOD ? CMARK_PERIOD_DELIM : CMARK_PAREN_DELIM);
	cmark_node_set_list_start(list, e0->ord);
	if (!rst_add(parent, list, L[i].no))
		return i + 1;
	struct enumr e = *e0;
	enum seq seq = e0->seq;
	size_t j = i, last = i;
	for (;;) {
		cmark_node *item = rst_block(list, CMARK_NODE_ITEM, L[j].no);
		last = item_body(c, item, L, n, j, e.text, depth);
		j = last;
		while (j < n && L[j].n == 0)
			j++;
		struct enumr nx;
		if (j >= n || L[j].ind || !parse_enum(&L[j], seq == SEQ_AUTO ? -1 : (int)seq, &nx))
			break;
		if (nx.fmt != e.fmt || (nx.seq != SEQ_AUTO && nx.seq != seq) ||
		    (nx.seq != SEQ_AUTO && nx.ord != e.ord + 1) || !enum_item_ok(L, n, j, &nx))
			break;
		if (nx.seq == SEQ_AUTO)
			nx.ord = e.ord + 1;
		e = nx;
	}
	list_end_warning(c, L, n, last, "Enumerated list");
	cmark_node_set_list_tight(list, list_compact(list));
	return last;
}

static cmark_node *dl_item(struct rst_ctx *c, cmark_node *dl, const char *dt_open, int line, cmark_node **dd)
{
	cmark_node *dt = rst_inline_block(dl, dt_open, "</dt>", line);
	*dd = rst_custom(dl, "<dd>", "</dd>", line);
	return dt;
}

static size_t field_list(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			 int depth)
{
	cmark_node *dl = rst_custom(parent, "<dl class=\"field-list simple\">", "</dl>", L[i].no);
	size_t j = i, last = i, ne, text;
	while (j < n && L[j].ind == 0 && is_field(&L[j], &ne, &text)) {
		cmark_node *dd;
		cmark_node *dt = dl_item(c, dl, "<dt>", L[j].no, &dd);
		cmark_node *nm = rst_add(dt, ast_custom_inline("", "<span class=\"colon\">:</span>"), 0);
		rst_defer(c, nm, L[j].p + 1, ne - 1, L[j].no);
		last = item_body(c, dd, L, n, j, text, depth);
		j = last;
		while (j < n && L[j].n == 0)
			j++;
	}
	list_end_warning(c, L, n, last, "Field list");
	return last;
}

static size_t option_list(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			  int depth)
{
	cmark_node *dl = rst_custom(parent, "<dl class=\"option-list\">", "</dl>", L[i].no);
	size_t j = i, last = i, me, text;
	while (j < n && L[j].ind == 0 && is_option(&L[j], &me, &text)) {
		struct buf b = BUF_INIT;
		buf_puts(&b, "<dt><kbd>");
		buf_put_html(&b, L[j].p, me);
		buf_puts(&b, "</kbd>");
		cmark_node *dd;
		dl_item(c, dl, buf_cstr(&b), L[j].no, &dd);
		buf_free(&b);
		last = item_body(c, dd, L, n, j, text, depth);
		j = last;
		while (j < n && L[j].n == 0)
			j++;
	}
	list_end_warning(c, L, n, last, "Option list");
	return last;
}

/* "term : classifier" → term and classifier spans, each deferred. */
static void def_term(struct rst_ctx *c, cmark_node *dt, const struct rst_line *l)
{
	const char *p = l->p;
	size_t n = l->n, k = 0, s = 0;
	bool first = true;
	for (;;) {
		const char *hit = NULL;
		for (size_t q = k; q + 2 < n; q++)
			if (p[q] == ' ' && p[q + 1] == ':' && p[q + 2] == ' ' && (q == 0 || p[q - 1] != '\\')) {
				hit = p + q;
				break;
			}
		size_t e = hit ? (size_t)(hit - p) : n;
		cmark_node *sp = first ? ast_custom_inline("", "")
				       : ast_custom_inline("<span class=\"classifier-delimiter\">:</span> "
							   "<span class=\"classifier\">",
							   "</span>");
		sp = rst_add(dt, sp, 0);
		rst_defer(c, sp, p + s, e - s, l->no);
		if (!hit)
			break;
		first = false;
		s = k = e + 3;
	}
}

static size_t definition_list(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n,
			      size_t i, int depth)
{
	cmark_node *dl = rst_custom(parent, "<dl>", "</dl>", L[i].no);
	size_t j = i, last = i;
	while (j + 1 < n && L[j].n && L[j].ind == 0 && L[j + 1].n && L[j + 1].ind > 0) {
		cmark_node *dd;
		cmark_node *dt = dl_item(c, dl, "<dt>", L[j].no, &dd);
		def_term(c, dt, &L[j]);
		size_t min = 0, end = rst_indented(L, n, j + 1, &min);
		struct rst_line *s = rst_sub(L, j + 1, end, (size_t)-1, min);
		rst_body(c, dd, s, end - j - 1, depth + 1);
		free(s);
		last = j = end;
		while (j < n && L[j].n == 0)
			j++;
		if (j >= n || starts_construct(L, n, j))
			break;
	}
	list_end_warning(c, L, n, last, "Definition list");
	return last;
}

/* ---- line blocks, doctest --------------------------------------------- */

static size_t line_block(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i)
{
	cmark_node *stack[32];
	size_t inds[32];
	int top = 0;
	stack[0] = rst_custom(parent, "<div class=\"line-block\">", "</div>", L[i].no);
	inds[0] = 0;
	if (!stack[0])
		return i + 1;
	size_t j = i;
	while (j < n && L[j].n && L[j].ind == 0 && starts(&L[j], "|")) {
		size_t k = 1 + count_spaces(L[j].p + 1, L[j].n - 1);
		struct buf b = BUF_INIT;
		buf_put(&b, L[j].p + k, L[j].n - k);
		int no = L[j].no;
		j++;
		while (j < n && L[j].n && L[j].ind > 0) { /* continuation lines */
			buf_putc(&b, '\n');
			buf_put(&b, L[j].p + L[j].ind, L[j].n - L[j].ind);
			j++;
		}
		size_t ind = k > 2 && L[j - 1].n ? k - 2 : 0;
		if (b.n == 0)
			ind = inds[top];
		while (top > 0 && ind < inds[top])
			top--;
		if (ind > inds[top] && top < 31) {
			cmark_node *nb = rst_custom(stack[top], "<div class=\"line-block\">", "</div>", no);
			if (nb) {
				stack[++top] = nb;
				inds[top] = ind;
			}
		}
		if (b.n == 0) {
			rst_custom(stack[top], "<div class=\"line\"><br /></div>", "", no);
		} else {
			cmark_node *ln = rst_inline_block(stack[top], "<div class=\"line\">", "</div>", no);
			rst_defer(c, ln, b.p, b.n, no);
		}
		buf_free(&b);
	}
	list_end_warning(c, L, n, j, "Line block");
	return j;
}

static size_t doctest(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i)
{
	size_t j = i;
	while (j < n && L[j].n)
		j++;
	rst_code_block(c, parent, L + i, j - i, "pycon", L[i].no);
	return j;
}

/* ---- sections and transitions ----------------------------------------- */

static size_t width(const char *p, size_t n)
{
	size_t w = 0;
	for (size_t k = 0; k < n; k++)
		if (((unsigned char)p[k] & 0xC0) != 0x80)
			w++;
	return w;
}

/* A section title; false (and a warning) when its level is inconsistent, as
 * docutils' check_subsection decides: the caller keeps the text. */
static bool section(struct rst_ctx *c, cmark_node *parent, const char *t, size_t tn, char ch, bool over,
		    int line)
{
	int level = 0;
	for (int k = 0; k < c->nstyles; k++)
		if (c->styles[k].ch == ch && c->styles[k].over == over)
			level = k + 1;
	if (!level) {
		if (c->nstyles != c->section_depth || c->nstyles >= (int)(sizeof c->styles / sizeof *c->styles)) {
			rst_warn(c, line, "Title level inconsistent; kept as a paragraph.");
			return false;
		}
		c->styles[c->nstyles].ch = ch;
		c->styles[c->nstyles].over = over;
		level = ++c->nstyles;
	} else if (level > c->section_depth + 1) {
		rst_warn(c, line, "Title level inconsistent; kept as a paragraph.");
		return false;
	}
	c->section_depth = level;
	cmark_node *h = ast_node_new(CMARK_NODE_HEADING);
	cmark_node_set_heading_level(h, level > 6 ? 6 : level);
	if (!rst_add(parent, h, line))
		return true;
	rst_defer(c, h, t, tn, line);
	RST_PUSH(c->headings) = h;
	return true;
}

static size_t as_text_para(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t i, size_t k)
{
	cmark_node *p = rst_block(parent, CMARK_NODE_PARAGRAPH, L[i].no);
	char *t = rst_join(L + i, k);
	rst_defer(c, p, t, strlen(t), L[i].no);
	free(t);
	return i + k;
}

/* An adornment line at L[i]: over-and-underlined title or transition. */
static size_t text_line(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			int depth, bool top);

static size_t adornment_line(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n,
			     size_t i, int depth, bool top)
{
	const struct rst_line *o = &L[i];
	if (i + 1 >= n || L[i + 1].n == 0) {
		if (o->n < 4)
			return text_line(c, parent, L, n, i, depth, top);
		if (!top)
			rst_warn(c, o->no, "Unexpected section title or transition.");
		rst_block(parent, CMARK_NODE_THEMATIC_BREAK, o->no);
		return i + 1;
	}
	const struct rst_line *t = &L[i + 1];
	if (i + 2 >= n || !is_adornment(&L[i + 2]) || L[i + 2].n != o->n || L[i + 2].p[0] != o->p[0]) {
		if (o->n < 4)
			return text_line(c, parent, L, n, i, depth, top);
		rst_warn(c, o->no, "Missing matching underline for section title overline.");
		size_t k = 1;
		while (i + k < n && L[i + k].n)
			k++;
		return as_text_para(c, parent, L, i, k);
	}
	const char *tp = t->p + t->ind;
	size_t tn = t->n - t->ind;
	if (!top) {
		rst_warn(c, t->no, "Unexpected section title.");
		return as_text_para(c, parent, L, i, 3);
	}
	if (width(tp, tn) > o->n) {
		if (o->n < 4)
			return text_line(c, parent, L, n, i, depth, top);
		rst_warn(c, o->no, "Title overline too short.");
	}
	if (!section(c, parent, tp, tn, o->p[0], true, t->no))
		return as_text_para(c, parent, L, i, 3);
	return i + 3;
}

/* A text line: underlined title, definition list, or paragraph. */
static size_t text_line(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			int depth, bool top)
{
	if (i + 1 < n && is_adornment(&L[i + 1])) {
		const struct rst_line *u = &L[i + 1];
		bool ok = true;
		if (width(L[i].p, L[i].n) > u->n) {
			if (u->n < 4)
				ok = false;
			else if (top)
				rst_warn(c, u->no, "Title underline too short.");
		}
		if (ok && !top) {
			rst_warn(c, L[i].no, "Unexpected section title.");
			return as_text_para(c, parent, L, i, 2);
		}
		if (ok) {
			if (!section(c, parent, L[i].p, L[i].n, u->p[0], false, L[i].no))
				return as_text_para(c, parent, L, i, 2);
			return i + 2;
		}
	}
	if (i + 1 < n && L[i + 1].n && L[i + 1].ind > 0)
		return definition_list(c, parent, L, n, i, depth);
	return paragraph(c, parent, L, n, i);
}

static size_t anonymous_target(struct rst_ctx *c, const struct rst_line *L, size_t n, size_t i)
{
	size_t min = 0, end = rst_indented(L, n, i + 1, &min);
	if (end < i + 1)
		end = i + 1;
	struct buf b = BUF_INIT;
	for (size_t k = i; k < end; k++) {
		const char *p = L[k].p + (k == i ? 2 : 0);
		size_t m = L[k].n - (k == i ? 2 : 0);
		for (size_t q = 0; q < m; q++)
			if (p[q] != ' ')
				buf_putc(&b, p[q]);
	}
	struct rst_target *t = &RST_PUSH(c->anon);
	size_t bn = b.n;
	bool indirect = bn > 1 && b.p[bn - 1] == '_' && b.p[bn - 2] != '\\';
	t->kind = indirect ? RST_T_INDIRECT : RST_T_URL;
	if (indirect) {
		size_t s = 0, e = bn - 1;
		if (e > 1 && b.p[0] == '`' && b.p[e - 1] == '`') {
			s = 1;
			e--;
		}
		t->val = rst_normalize_name(b.p + s, e - s);
	} else
		t->val = xstrdup(buf_cstr(&b));
	t->line = L[i].no;
	buf_free(&b);
	return end;
}

/* One construct starting at the unindented line L[i]. */
static size_t body_line(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			int depth, bool top)
{
	const struct rst_line *l = &L[i];
	size_t a, b;
	struct enumr e;
	if (is_bullet(l, NULL))
		return bullet_list(c, parent, L, n, i, depth);
	if (parse_enum(l, -1, &e) && enum_item_ok(L, n, i, &e))
		return enum_list(c, parent, L, n, i, depth, &e);
	if (is_field(l, &a, &b))
		return field_list(c, parent, L, n, i, depth);
	if (is_option(l, &a, &b))
		return option_list(c, parent, L, n, i, depth);
	if (starts(l, ">>>"))
		return doctest(c, parent, L, n, i);
	if (starts(l, "|"))
		return line_block(c, parent, L, n, i);
	if (is_grid_top(l)) {
		size_t r = rst_grid_table(c, parent, L, n, i, depth);
		if (r > i)
			return r;
	}
	if (is_simple_top(l)) {
		size_t r = rst_simple_table(c, parent, L, n, i, depth);
		if (r > i)
			return r;
	}
	if (starts(l, ".."))
		return rst_explicit(c, parent, L, n, i, depth);
	if (starts(l, "__"))
		return anonymous_target(c, L, n, i);
	if (is_adornment(l))
		return adornment_line(c, parent, L, n, i, depth, top);
	return text_line(c, parent, L, n, i, depth, top);
}

void rst_blocks(struct rst_ctx *c, cmark_node *parent, struct rst_line *L, size_t n, int depth, bool top)
{
	size_t i = 0;
	while (i < n) {
		if (L[i].n == 0) {
			i++;
			continue;
		}
		size_t next = L[i].ind > 0 ? block_quote(c, parent, L, n, i, depth)
					   : body_line(c, parent, L, n, i, depth, top);
		i = next > i ? next : i + 1;
	}
}
