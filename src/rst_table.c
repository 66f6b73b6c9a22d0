/* rst_table: simple and grid tables of reStructuredText. A table whose cells
 * hold one paragraph each and no spans becomes a GFM table (ast_table_*);
 * any other becomes an HTML table of custom blocks with rowspan/colspan and
 * block content. Columns are counted in characters, as docutils does. */
#include "rst_int.h"
#include "ast.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct tcell {
	int row, col, rowspan, colspan;
	struct rst_line *lines; /* owned */
	size_t n;
	int line;
};

/* A table line as characters: byte offset of each column (n+1 entries). */
struct cline {
	const char *p;
	size_t *off;
	size_t nc;
	int no;
};

static void cline_init(struct cline *cl, const struct rst_line *l)
{
	cl->p = l->p;
	cl->no = l->no;
	cl->off = xmalloc((l->n + 1) * sizeof *cl->off);
	size_t k = 0, c = 0;
	while (k < l->n) {
		cl->off[c++] = k;
		k++;
		while (k < l->n && ((unsigned char)l->p[k] & 0xC0) == 0x80)
			k++;
	}
	cl->off[c] = l->n;
	cl->nc = c;
}

static char cch(const struct cline *cl, size_t col)
{
	return col < cl->nc ? cl->p[cl->off[col]] : ' ';
}

/* Cell text: columns [l, r) of lines, right-trimmed, common indent removed. */
static struct rst_line *cell_lines(const struct cline *L, size_t top, size_t bot, size_t l, size_t r,
				   size_t *n)
{
	size_t m = bot - top;
	struct rst_line *s = xcalloc(m + 1, sizeof *s);
	size_t ind = (size_t)-1;
	for (size_t k = 0; k < m; k++) {
		const struct cline *cl = &L[top + k];
		size_t a = l < cl->nc ? cl->off[l] : cl->off[cl->nc];
		size_t b = r < cl->nc ? cl->off[r] : cl->off[cl->nc];
		const char *p = cl->p + a;
		size_t len = b - a;
		while (len && p[len - 1] == ' ')
			len--;
		s[k].p = p;
		s[k].n = len;
		s[k].no = cl->no;
		size_t sp = 0;
		while (sp < len && p[sp] == ' ')
			sp++;
		s[k].ind = len ? sp : 0;
		if (len && sp < ind)
			ind = sp;
	}
	if (ind != (size_t)-1 && ind > 0)
		for (size_t k = 0; k < m; k++) {
			size_t cut = s[k].n < ind ? s[k].n : ind;
			s[k].p += cut;
			s[k].n -= cut;
			s[k].ind = s[k].n ? s[k].ind - cut : 0;
		}
	size_t a = 0;
	while (a < m && s[a].n == 0)
		a++;
	while (m > a && s[m - 1].n == 0)
		m--;
	if (a)
		memmove(s, s + a, (m - a) * sizeof *s);
	*n = m - a;
	return s;
}

/* ---- emitting --------------------------------------------------------- */

static cmark_node *only_paragraph(cmark_node *box)
{
	cmark_node *f = cmark_node_first_child(box);
	if (!f)
		return box; /* empty: fine */
	if (cmark_node_next(f) || cmark_node_get_type(f) != CMARK_NODE_PARAGRAPH)
		return NULL;
	return f;
}

static void emit(struct rst_ctx *c, cmark_node *parent, struct tcell *cells, size_t nc, int nrows, int ncols,
		 int nhead, int line, int depth)
{
	cmark_node **box = xcalloc(nc + 1, sizeof *box);
	/* the pending references each cell's body added: pend[k] to pend[k + 1] */
	size_t *pend = xcalloc(nc + 1, sizeof *pend);
	/* a row of more cells than a Markdown row may have is an HTML table:
	 * cmark-gfm's tables are quadratic in the cells of a row */
	bool simple = ncols > 0 && ncols <= RST_MAX_TABLE_COLUMNS;
	for (size_t k = 0; k < nc; k++) {
		box[k] = ast_custom_block("", "");
		ast_set_line(box[k], cells[k].line);
		pend[k] = c->pend.n;
		rst_body(c, box[k], cells[k].lines, cells[k].n, depth + 1);
		if (cells[k].rowspan != 1 || cells[k].colspan != 1 || !only_paragraph(box[k]))
			simple = false;
	}
	pend[nc] = c->pend.n;
	if (simple && (size_t)nrows * (size_t)ncols != nc)
		simple = false;
	if (simple) {
		cmark_node *table = rst_add(parent, ast_table_new(ncols, NULL), line);
		cmark_node *row = NULL;
		for (size_t k = 0; k < nc && table; k++) {
			if (cells[k].col == 0)
				row = rst_add(table, ast_table_row_new(cells[k].row < nhead || (nhead == 0 && false)),
					      cells[k].line);
			cmark_node *tc = row ? rst_add(row, ast_table_cell_new(), cells[k].line) : NULL;
			cmark_node *para = cmark_node_first_child(box[k]);
			/* its own references only: a table of 60,000 cells is not
			 * searched through for each */
			for (size_t q = pend[k]; q < pend[k + 1] && para; q++)
				if (c->pend.v[q].node == para)
					c->pend.v[q].node = tc;
		}
		for (size_t k = 0; k < nc; k++)
			cmark_node_free(box[k]);
	} else {
		cmark_node *t = rst_custom(parent, "<table class=\"docutils\">", "</table>", line);
		cmark_node *sect = NULL, *row = NULL;
		int cur = -1;
		for (size_t k = 0; k < nc; k++) {
			bool head = cells[k].row < nhead;
			if (cells[k].row != cur) {
				if (!sect || (head == false && cells[k].row == nhead))
					sect = rst_custom(t, head ? "<thead>" : "<tbody>", head ? "</thead>" : "</tbody>",
							  cells[k].line);
				row = rst_custom(sect, "<tr>", "</tr>", cells[k].line);
				cur = cells[k].row;
			}
			struct buf b = BUF_INIT;
			buf_printf(&b, "<%s", head ? "th" : "td");
			if (cells[k].colspan > 1)
				buf_printf(&b, " colspan=\"%d\"", cells[k].colspan);
			if (cells[k].rowspan > 1)
				buf_printf(&b, " rowspan=\"%d\"", cells[k].rowspan);
			buf_putc(&b, '>');
			cmark_node_set_on_enter(box[k], buf_cstr(&b));
			cmark_node_set_on_exit(box[k], head ? "</th>" : "</td>");
			buf_free(&b);
			if (!row || !ast_append(row, box[k]))
				continue;
		}
	}
	free(box);
	free(pend);
}

static void cells_free(struct tcell *cells, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(cells[k].lines);
	free(cells);
}

static int cmp_cell(const void *a, const void *b)
{
	const struct tcell *x = a, *y = b;
	return x->row != y->row ? x->row - y->row : x->col - y->col;
}

/* ---- grid tables ------------------------------------------------------- */

struct grid {
	struct cline *L;
	size_t h, w;
};

static bool scan_up(const struct grid *g, size_t top, size_t left, size_t bottom)
{
	for (size_t i = bottom - 1; i > top; i--)
		if (cch(&g->L[i], left) != '|' && cch(&g->L[i], left) != '+')
			return false;
	return true;
}

static bool scan_left(const struct grid *g, size_t top, size_t left, size_t bottom, size_t right)
{
	for (size_t i = right - 1; i > left; i--) {
		char ch = cch(&g->L[bottom], i);
		if (ch != '-' && ch != '=' && ch != '+')
			return false;
	}
	return cch(&g->L[bottom], left) == '+' && scan_up(g, top, left, bottom);
}

static bool scan_down(const struct grid *g, size_t top, size_t left, size_t right, size_t *bottom)
{
	for (size_t i = top + 1; i < g->h; i++) {
		char ch = cch(&g->L[i], right);
		if (ch == '+') {
			if (scan_left(g, top, left, i, right)) {
				*bottom = i;
				return true;
			}
		} else if (ch != '|')
			return false;
	}
	return false;
}

static bool scan_cell(const struct grid *g, size_t top, size_t left, size_t *bottom, size_t *right)
{
	for (size_t i = left + 1; i < g->w; i++) {
		char ch = cch(&g->L[top], i);
		if (ch == '+') {
			if (scan_down(g, top, left, i, bottom)) {
				*right = i;
				return true;
			}
		} else if (ch != '-' && ch != '=')
			return false;
	}
	return false;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* Sort and deduplicate v; its new length. */
static size_t uniq(size_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_size);
	size_t m = 0;
	for (size_t k = 0; k < n; k++)
		if (!m || v[m - 1] != v[k])
			v[m++] = v[k];
	return m;
}

static int index_of(const size_t *v, size_t n, size_t x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == x ? (int)lo : -1;
}

/* A min-heap of corners (top, left), like docutils' sorted corner list. */
struct heap {
	size_t *v; /* pairs */
	size_t n, cap;
};

static bool corner_less(const size_t *a, const size_t *b)
{
	return a[0] != b[0] ? a[0] < b[0] : a[1] < b[1];
}

static void heap_swap(size_t *v, size_t i, size_t j)
{
	size_t t0 = v[2 * i], t1 = v[2 * i + 1];
	v[2 * i] = v[2 * j];
	v[2 * i + 1] = v[2 * j + 1];
	v[2 * j] = t0;
	v[2 * j + 1] = t1;
}

static void heap_push(struct heap *h, size_t top, size_t left)
{
	h->v = xgrow(h->v, &h->cap, 2 * (h->n + 1), sizeof *h->v);
	size_t i = h->n++;
	h->v[2 * i] = top;
	h->v[2 * i + 1] = left;
	while (i > 0 && corner_less(&h->v[2 * i], &h->v[2 * ((i - 1) / 2)])) {
		heap_swap(h->v, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_pop(struct heap *h, size_t *top, size_t *left)
{
	*top = h->v[0];
	*left = h->v[1];
	h->n--;
	h->v[0] = h->v[2 * h->n];
	h->v[1] = h->v[2 * h->n + 1];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && corner_less(&h->v[2 * l], &h->v[2 * m]))
			m = l;
		if (r < h->n && corner_less(&h->v[2 * r], &h->v[2 * m]))
			m = r;
		if (m == i)
			break;
		heap_swap(h->v, i, m);
		i = m;
	}
}

size_t rst_grid_table(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
		      int depth)
{
	size_t end = i;
	while (end < n && L[end].n && L[end].ind == 0 && (L[end].p[0] == '+' || L[end].p[0] == '|'))
		end++;
	struct grid g = {NULL, end - i, 0};
	if (g.h < 3)
		return i;
	g.L = xcalloc(g.h, sizeof *g.L);
	for (size_t k = 0; k < g.h; k++) {
		cline_init(&g.L[k], &L[i + k]);
		if (g.L[k].nc > g.w)
			g.w = g.L[k].nc;
	}
	size_t right_edge = g.L[0].nc - 1, bottom_edge = g.h - 1;
	size_t head_sep = 0;
	for (size_t k = 1; k < g.h; k++)
		if (cch(&g.L[k], 0) == '+' && cch(&g.L[k], 1) == '=')
			head_sep = k;
	long *done = xmalloc((g.w + 1) * sizeof *done);
	for (size_t k = 0; k <= g.w; k++)
		done[k] = -1;
	struct tcell *cells = NULL;
	size_t nc = 0, ccap = 0;
	size_t *tops = NULL, *lefts = NULL, nt = 0, nl = 0, tcap = 0, lcap = 0;
	struct heap hp = {NULL, 0, 0};
	heap_push(&hp, 0, 0);
	bool ok = true;
	while (hp.n) {
		size_t top, left, bottom, right;
		heap_pop(&hp, &top, &left);
		if (top == bottom_edge || left >= right_edge || (long)top <= done[left])
			continue;
		if (!scan_cell(&g, top, left, &bottom, &right))
			continue;
		for (size_t col = left; col < right; col++) {
			if (done[col] != (long)top - 1)
				ok = false;
			done[col] = (long)bottom - 1;
		}
		cells = xgrow(cells, &ccap, nc + 1, sizeof *cells);
		struct tcell *t = &cells[nc++];
		memset(t, 0, sizeof *t);
		t->row = (int)top;
		t->col = (int)left;
		t->rowspan = (int)bottom;
		t->colspan = (int)right;
		t->line = g.L[top + 1].no;
		t->lines = cell_lines(g.L, top + 1, bottom, left + 1, right, &t->n);
		tops = xgrow(tops, &tcap, nt + 2, sizeof *tops);
		tops[nt++] = top;
		tops[nt++] = bottom;
		lefts = xgrow(lefts, &lcap, nl + 2, sizeof *lefts);
		lefts[nl++] = left;
		lefts[nl++] = right;
		heap_push(&hp, top, right);
		heap_push(&hp, bottom, left);
	}
	for (size_t col = 0; col < right_edge && ok; col++)
		if (done[col] != (long)bottom_edge - 1)
			ok = false;
	if (ok && nc) {
		nt = uniq(tops, nt);
		nl = uniq(lefts, nl);
		int nhead = 0;
		for (size_t k = 0; k < nc; k++) {
			int r0 = index_of(tops, nt, (size_t)cells[k].row), r1 = index_of(tops, nt, (size_t)cells[k].rowspan);
			int c0 = index_of(lefts, nl, (size_t)cells[k].col), c1 = index_of(lefts, nl, (size_t)cells[k].colspan);
			if (head_sep && (size_t)cells[k].rowspan <= head_sep && r1 > nhead)
				nhead = r1;
			cells[k].row = r0;
			cells[k].col = c0;
			cells[k].rowspan = r1 - r0;
			cells[k].colspan = c1 - c0;
		}
		qsort(cells, nc, sizeof *cells, cmp_cell);
		emit(c, parent, cells, nc, (int)nt - 1, (int)nl - 1, nhead, L[i].no, depth);
	} else {
		rst_warn(c, L[i].no, "Malformed table; kept as literal text.");
		rst_code_block(c, parent, L + i, g.h, NULL, L[i].no);
	}
	cells_free(cells, nc);
	for (size_t k = 0; k < g.h; k++)
		free(g.L[k].off);
	free(g.L);
	free(done);
	free(tops);
	free(lefts);
	free(hp.v);
	return end;
}

/* ---- simple tables ----------------------------------------------------- */

static bool border(const struct rst_line *l, char ch)
{
	if (!l->n || l->ind)
		return false;
	for (size_t k = 0; k < l->n; k++)
		if (l->p[k] != ch && l->p[k] != ' ')
			return false;
	return l->p[0] == ch;
}

size_t rst_simple_table(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			int depth)
{
	size_t toplen = L[i].n, end = 0, found = 0, head_at = 0;
	for (size_t k = i + 1; k < n; k++) {
		if (border(&L[k], '=') && L[k].n >= 2) {
			if (L[k].n != toplen) {
				rst_warn(c, L[k].no, "Malformed table: bottom/header table border does not match top "
						     "border; kept as literal text.");
				rst_code_block(c, parent, L + i, k + 1 - i, NULL, L[i].no);
				return k + 1;
			}
			found++;
			if (found == 2 || k + 1 >= n || L[k + 1].n == 0) {
				end = k;
				break;
			}
			head_at = k;
		}
	}
	if (!end) {
		size_t k = i;
		while (k < n && L[k].n)
			k++;
		rst_warn(c, L[i].no, "Malformed table: no bottom table border found; kept as literal text.");
		rst_code_block(c, parent, L + i, k - i, NULL, L[i].no);
		return k;
	}
	if (found == 1)
		head_at = 0;
	struct cline top;
	cline_init(&top, &L[i]);
	size_t cs[256], ncol = 0;
	for (size_t k = 0; k < top.nc && ncol < 256; k++)
		if (cch(&top, k) == '=' && (k == 0 || cch(&top, k - 1) == ' '))
			cs[ncol++] = k;
	free(top.off);
	size_t rows = end - i - 1;
	struct cline *cl = xcalloc(rows + 1, sizeof *cl);
	for (size_t k = 0; k < rows; k++)
		cline_init(&cl[k], &L[i + 1 + k]);
	/* group lines into rows: a row starts where the first column has text */
	struct tcell *cells = NULL;
	size_t nc = 0, ccap = 0;
	int r = 0, nhead = 0;
	size_t k = 0;
	while (k < rows) {
		const struct rst_line *l = &L[i + 1 + k];
		if (l->n == 0 || border(l, '=') || border(l, '-')) {
			if (head_at && i + 1 + k == head_at)
				nhead = r;
			k++;
			continue;
		}
		size_t e = k + 1;
		while (e < rows) {
			const struct rst_line *m = &L[i + 1 + e];
			if (border(m, '=') || border(m, '-'))
				break;
			bool first_blank = true;
			for (size_t q = 0; q < (ncol > 1 ? cs[1] : cl[e].nc) && q < cl[e].nc; q++)
				if (cch(&cl[e], q) != ' ')
					first_blank = false;
			if (m->n && !first_blank)
				break;
			if (m->n == 0 && (e + 1 >= rows || border(&L[i + 2 + e], '=')))
				break;
			e++;
		}
		size_t last_row_end = e;
		while (last_row_end > k && L[i + last_row_end].n == 0)
			last_row_end--;
		for (size_t col = 0; col < ncol; col++) {
			cells = xgrow(cells, &ccap, nc + 1, sizeof *cells);
			struct tcell *t = &cells[nc++];
			memset(t, 0, sizeof *t);
			t->row = r;
			t->col = (int)col;
			t->rowspan = t->colspan = 1;
			t->line = l->no;
			size_t right = col + 1 < ncol ? cs[col + 1] : (size_t)1 << 30;
			t->lines = cell_lines(cl, k, e, cs[col], right, &t->n);
		}
		r++;
		k = e;
	}
	emit(c, parent, cells, nc, r, (int)ncol, nhead, L[i].no, depth);
	cells_free(cells, nc);
	for (size_t q = 0; q < rows; q++)
		free(cl[q].off);
	free(cl);
	return end + 1;
}
