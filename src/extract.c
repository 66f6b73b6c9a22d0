/* extract: headings, citations and internal links out of a document tree
 * (see extract.h). The entry rules follow the shapes resource lists use:
 * "**Title**: url", "[Title](url) - description", "`Title <url>`_ - desc",
 * "1. Title: url", and a bold lead paragraph followed by an indented list
 * whose "Paper: <link>" items take their title from the lead. */
#include "extract.h"
#include "arena.h"
#include "ast.h"
#include "buf.h"
#include "path.h"
#include "url_memo.h"
#include "unique_name.h"
#include "utf8.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The text under n, in document order: text and code as they are, a space
 * for each line break and between paragraphs. Walked by the nodes' own links
 * (an entry's few inline nodes: no iterator to allocate); with skip_lists,
 * nested lists and block quotes below n are left out. */
static void text_into(cmark_node *n, struct buf *b, bool skip_lists)
{
	cmark_node *c = n;
	for (;;) {
		cmark_node_type t = cmark_node_get_type(c);
		bool skip = skip_lists && c != n &&
			    (t == CMARK_NODE_LIST || t == CMARK_NODE_BLOCK_QUOTE);
		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) {
			const char *l = cmark_node_get_literal(c);
			if (l)
				buf_puts(b, l);
		} else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
			buf_putc(b, ' ');
		else if (t == CMARK_NODE_PARAGRAPH && b->n && b->p[b->n - 1] != ' ')
			buf_putc(b, ' ');
		cmark_node *child = skip ? NULL : cmark_node_first_child(c);
		if (child) {
			c = child;
			continue;
		}
		/* the next node after c's subtree, within n */
		while (c != n && !cmark_node_next(c))
			c = cmark_node_parent(c);
		if (c == n)
			return;
		c = cmark_node_next(c);
	}
}

/* Where s (n bytes, then its NUL) first differs from its squeezed self:
 * the first tab or newline, the first space that leads it, ends it or is
 * followed by whitespace; n when it does not. Sixteen bytes at a time
 * where there are sixteen (most texts are squeezed already, and each of a
 * document's entries gives a few). */
static size_t first_change(const char *s, size_t n)
{
	if (n && s[0] == ' ')
		return 0;
	size_t i = 0;
#ifdef __SSE2__
	const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'),
		      nl = _mm_set1_epi8('\n'), nul = _mm_setzero_si128();
	/* the byte after each is read too: s[n] (the NUL) at the most */
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m128i next = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 1));
		__m128i ws = _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, nl));
		__m128i next_ws = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(next, space), _mm_cmpeq_epi8(next, tab)),
			_mm_or_si128(_mm_cmpeq_epi8(next, nl), _mm_cmpeq_epi8(next, nul)));
		__m128i bad = _mm_or_si128(ws, _mm_and_si128(_mm_cmpeq_epi8(v, space), next_ws));
		int mask = _mm_movemask_epi8(bad);
		if (mask)
			return i + (size_t)__builtin_ctz((unsigned)mask);
	}
#endif
	for (; i < n; i++) {
		char c = s[i];
		if (c == '\t' || c == '\n' ||
		    (c == ' ' && (s[i + 1] == ' ' || s[i + 1] == '\t' || s[i + 1] == '\n' || !s[i + 1])))
			return i;
	}
	return n;
}

/* Collapse whitespace runs to one space and trim, in place (s: n bytes,
 * then its NUL); the length left. */
static size_t squeeze_n(char *s, size_t n)
{
	size_t at = first_change(s, n);
	if (at >= n || !s[at])
		return n;
	const char *r = s + at;
	char *w = s + at;
	bool sp = false; /* r is whitespace: the byte before it, if any, is not */
	for (; *r; r++) {
		if (*r == ' ' || *r == '\t' || *r == '\n') {
			sp = w > s;
			continue;
		}
		if (sp)
			*w++ = ' ';
		sp = false;
		*w++ = *r;
	}
	*w = '\0';
	return (size_t)(w - s);
}

static char *squeeze_len(char *s, size_t n)
{
	squeeze_n(s, n);
	return s;
}

static char *squeeze_in_place(char *s)
{
	return squeeze_len(s, strlen(s));
}

/* The squeezed text of b, which it takes. */
static char *squeezed(struct buf *b)
{
	size_t n = b->n;
	return squeeze_len(buf_detach(b), n);
}

char *doc_node_text(cmark_node *n)
{
	struct buf b = BUF_INIT;
	text_into(n, &b, false);
	return squeezed(&b);
}

/* Where one document's extraction makes its strings: the ones it keeps and
 * the ones it drops alike, in an arena, none freed one by one (a document of
 * 25 entries made and freed some 300 small strings). At the end the kept
 * ones are copied into the document's block of strings (doc.h) and the arena
 * goes whole. */
struct strings {
	struct arena arena;
	struct buf text; /* texts are gathered here, then copied: its room stays */
};

static char *str_copy(struct strings *x, const char *s)
{
	return arena_strndup(&x->arena, s, strlen(s));
}

/* x->text squeezed, copied into the arena. */
static char *str_squeezed(struct strings *x)
{
	if (!x->text.p)
		return arena_strndup(&x->arena, "", 0);
	return arena_strndup(&x->arena, x->text.p, squeeze_n(x->text.p, x->text.n));
}

/* The squeezed text under n (doc_node_text's), with skip_lists as
 * text_into has it. */
static char *node_text(struct strings *x, cmark_node *n, bool skip_lists)
{
	x->text.n = 0;
	text_into(n, &x->text, skip_lists);
	return str_squeezed(x);
}

/* Trim spaces and the separators entries put between parts. */
static char *trim_seps(struct strings *x, const char *s)
{
	const char *seps = " \t:;,-.|/\xe2\x80\x93\xe2\x80\x94()";
	size_t n = strlen(s);
	size_t a = 0;
	while (a < n && strchr(seps, s[a]) && s[a])
		a++;
	while (n > a && strchr(seps, s[n - 1]) && s[n - 1])
		n--;
	/* keep a closing parenthesis or period that belongs to the text */
	if (s[n] == ')' && memchr(s + a, '(', n - a))
		n++;
	return arena_strndup(&x->arena, s + a, n - a);
}

static char *strip_quotes(char *s)
{
	size_t n = strlen(s);
	static const char *pairs[][2] = {{"\"", "\""}, {"\xe2\x80\x9c", "\xe2\x80\x9d"}, {"'", "'"}};
	for (size_t i = 0; i < 3; i++) {
		size_t lo = strlen(pairs[i][0]), lc = strlen(pairs[i][1]);
		if (n >= lo + lc + 1 && !strncmp(s, pairs[i][0], lo) &&
		    !strcmp(s + n - lc, pairs[i][1])) {
			memmove(s, s + lo, n - lo - lc);
			s[n - lo - lc] = '\0';
			break;
		}
	}
	return s;
}

/* Remove the first occurrence of needle from hay (in place). */
static void cut(char *hay, const char *needle)
{
	if (!needle || !*needle)
		return;
	char *p = strstr(hay, needle);
	if (p)
		memmove(p, p + strlen(needle), strlen(p + strlen(needle)) + 1);
}

static bool url_like(const char *label, const char *url)
{
	return !strcmp(label, url) || !strncmp(label, "http://", 7) || !strncmp(label, "https://", 8) ||
	       !strncmp(label, "www.", 4);
}


/* What extraction learns of a tree node, kept per node: how many citations
 * an entry has had, and a context paragraph's title and description (made
 * once, however many nested entries ask). */
struct node_facts {
	cmark_node *node;
	size_t links;       /* an entry's citations so far (number_entries: its number) */
	bool made;
	char *title, *desc; /* a context's; title NULL: it has no lead */
};

struct node_table {
	struct node_facts *t;
	size_t n, cap; /* cap: 0 or a power of two */
};

static size_t node_slot(const struct node_table *m, cmark_node *node)
{
	size_t h = ((uintptr_t)node >> 4) * 0x9E3779B97F4A7C15ULL >> 20 & (m->cap - 1);
	while (m->t[h].node && m->t[h].node != node)
		h = (h + 1) & (m->cap - 1);
	return h;
}

static struct node_facts *facts_of(struct node_table *m, cmark_node *node)
{
	if ((m->n + 1) * 4 > m->cap * 3) {
		struct node_table bigger = {NULL, m->n, m->cap ? m->cap * 2 : 16};
		bigger.t = xcalloc(bigger.cap, sizeof *bigger.t);
		for (size_t i = 0; i < m->cap; i++)
			if (m->t[i].node)
				bigger.t[node_slot(&bigger, m->t[i].node)] = m->t[i];
		free(m->t);
		*m = bigger;
	}
	size_t h = node_slot(m, node);
	if (!m->t[h].node) {
		m->t[h] = (struct node_facts){.node = node};
		m->n++;
	}
	return &m->t[h];
}

/* (the facts' strings are extraction's: see struct strings) */
static void node_table_free(struct node_table *m)
{
	free(m->t);
}

static cmark_node *ancestor(cmark_node *n, cmark_node_type t, cmark_node *stop)
{
	for (cmark_node *p = cmark_node_parent(n); p && p != stop; p = cmark_node_parent(p))
		if (cmark_node_get_type(p) == t)
			return p;
	return NULL;
}

/* The entry a link stands in: its list item, else its paragraph or block. */
static cmark_node *entry_of(cmark_node *link)
{
	cmark_node *item = ancestor(link, CMARK_NODE_ITEM, NULL);
	if (item)
		return item;
	for (cmark_node *p = cmark_node_parent(link); p; p = cmark_node_parent(p)) {
		cmark_node_type t = cmark_node_get_type(p);
		if (t == CMARK_NODE_PARAGRAPH || t == CMARK_NODE_HEADING || ast_is_table_cell(p))
			return p;
	}
	return cmark_node_parent(link);
}

/* First paragraph of an entry (the item's own text). */
static cmark_node *entry_para(cmark_node *entry)
{
	if (cmark_node_get_type(entry) != CMARK_NODE_ITEM)
		return entry;
	for (cmark_node *c = cmark_node_first_child(entry); c; c = cmark_node_next(c))
		if (cmark_node_get_type(c) == CMARK_NODE_PARAGRAPH)
			return c;
	return entry;
}

/* Bold text that opens a paragraph: "**Title**: …". */
static char *lead_of(struct strings *x, cmark_node *para)
{
	cmark_node *f = para ? cmark_node_first_child(para) : NULL;
	if (f && cmark_node_get_type(f) == CMARK_NODE_TEXT) {
		const char *l = cmark_node_get_literal(f);
		while (l && (*l == ' '))
			l++;
		if (l && !*l)
			f = cmark_node_next(f);
	}
	if (!f || cmark_node_get_type(f) != CMARK_NODE_STRONG)
		return NULL;
	char *t = trim_seps(x, node_text(x, f, false));
	return *t ? t : NULL;
}

/* The outer entry of a nested one: a lead paragraph just before the block
 * quote holding the list (RST's indented detail lists), or the parent item. */
static cmark_node *context_para(cmark_node *entry)
{
	cmark_node *list = cmark_node_parent(entry);
	if (!list || cmark_node_get_type(list) != CMARK_NODE_LIST)
		return NULL;
	cmark_node *up = cmark_node_parent(list);
	if (!up)
		return NULL;
	if (cmark_node_get_type(up) == CMARK_NODE_ITEM)
		return entry_para(up);
	if (cmark_node_get_type(up) == CMARK_NODE_BLOCK_QUOTE) {
		cmark_node *prev = cmark_node_previous(up);
		if (prev && cmark_node_get_type(prev) == CMARK_NODE_PARAGRAPH)
			return prev;
	}
	return NULL;
}

/* A short label such as "Paper:", "Code", "exercises", "slides". */
static bool generic_label(const char *s)
{
	int words = 1;
	size_t n = strlen(s);
	if (!n || n > 24)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] == ' ')
			words++;
	if (words > 2)
		return false;
	static const char *known[] = {"paper", "code", "slides", "video", "pdf", "repo",
				      "github", "website", "link", "exercises", "notebook",
				      "blog", "docs", "documentation", "recording", "demo"};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (!strcasecmp(s, known[i]))
			return true;
	return !strncasecmp(s, "arxiv", 5);
}

/* Text of the entry paragraph's inline children before `link`. */
static char *prefix_before(struct strings *x, cmark_node *para, cmark_node *link)
{
	cmark_node *top = link;
	while (cmark_node_parent(top) && cmark_node_parent(top) != para)
		top = cmark_node_parent(top);
	x->text.n = 0;
	if (cmark_node_parent(top) == para)
		for (cmark_node *c = cmark_node_first_child(para); c && c != top;
		     c = cmark_node_next(c))
			text_into(c, &x->text, true);
	return str_squeezed(x);
}

/* Links of one entry beyond which an entry is described by its link texts
 * alone: describing reads the entry's text, so without a bound a paragraph of
 * thousands of links would cost the square of its length. Counted over the
 * whole entry: its links need not follow each other (an item's paragraphs of
 * links between its nested items' links). */
#define EXTRACT_ENTRY_LINKS 32

static void describe_plain(struct strings *x, struct citation *c)
{
	c->bare = url_like(c->text, c->url);
	char *t = trim_seps(x, c->text);
	if (!*t)
		t = str_copy(x, c->url);
	c->title = utf8_bound(t, EXTRACT_TITLE_MAX);
	c->desc = NULL;
}

/* A context paragraph's title (its lead) and description (the rest of it,
 * and the first paragraph of the block quote after it), made the first time
 * a nested entry asks. False when it has no lead. */
static bool context_names(struct strings *x, struct node_table *contexts, cmark_node *ctx,
			  char **title, char **desc)
{
	struct node_facts *f = facts_of(contexts, ctx);
	if (!f->made) {
		f->made = true;
		f->title = lead_of(x, ctx);
		if (f->title) {
			char *ct = node_text(x, ctx, true);
			cut(ct, f->title);
			char *t1 = trim_seps(x, ct);
			cmark_node *bq = cmark_node_next(ctx);
			cmark_node *first = bq ? cmark_node_first_child(bq) : NULL;
			char *ft = first && cmark_node_get_type(first) == CMARK_NODE_PARAGRAPH
					   ? node_text(x, first, false)
					   : NULL;
			x->text.n = 0;
			buf_puts(&x->text, t1);
			if (ft) {
				if (x->text.n)
					buf_puts(&x->text, ". ");
				buf_puts(&x->text, ft);
			}
			/* as describe leaves them: each nested entry copies no more */
			f->title = utf8_bound(f->title, EXTRACT_TITLE_MAX);
			f->desc = utf8_bound(str_squeezed(x), EXTRACT_DESC_MAX);
		}
	}
	if (!f->title)
		return false;
	*title = f->title; /* not changed in place: trimmed into a copy */
	*desc = str_copy(x, f->desc);
	return true;
}

static void describe(struct strings *x, struct citation *c, cmark_node *link,
		     const char *prev_title, struct node_table *contexts)
{
	cmark_node *entry = entry_of(link);
	cmark_node *para = entry_para(entry);
	char *entry_text = node_text(x, para, true);
	char *lead = lead_of(x, para);
	char *label_prefix = trim_seps(x, prefix_before(x, para, link));
	bool inside_lead = lead && ancestor(link, CMARK_NODE_STRONG, para);
	c->bare = url_like(c->text, c->url);
	/* title is only read from here on (trimmed into a copy): it may be
	 * another string itself */
	char *title = NULL, *desc = NULL;
	cmark_node *ctx = NULL;

	if (lead && !inside_lead)
		title = lead;
	else if ((!*label_prefix || generic_label(label_prefix)) &&
		 (c->bare || generic_label(c->text)) && (ctx = context_para(entry)) &&
		 context_names(x, contexts, ctx, &title, &desc))
		;
	else if (c->bare)
		title = *label_prefix ? label_prefix : c->url;
	else if (generic_label(c->text) && prev_title) {
		x->text.n = 0;
		buf_puts(&x->text, prev_title);
		buf_puts(&x->text, " (");
		buf_puts(&x->text, c->text);
		buf_putc(&x->text, ')');
		title = str_copy(x, x->text.p);
	} else
		title = strip_quotes(str_copy(x, c->text));

	if (!desc) {
		cut(entry_text, lead);
		cut(entry_text, c->text);
		if (c->bare)
			cut(entry_text, c->url);
		if (c->bare || generic_label(label_prefix))
			cut(entry_text, label_prefix);
		desc = trim_seps(x, entry_text);
	}
	char *t = trim_seps(x, title);
	if (!*t)
		t = str_copy(x, c->url);
	c->title = utf8_bound(t, EXTRACT_TITLE_MAX);
	c->desc = *desc ? utf8_bound(squeeze_in_place(desc), EXTRACT_DESC_MAX) : NULL;
}

/* Autolinked URLs carry no position: use the nearest ancestor's line. */
static int line_of(cmark_node *n)
{
	for (; n; n = cmark_node_parent(n)) {
		int l = ast_line(n);
		if (l > 0)
			return l;
	}
	return 0;
}

static bool is_relative_ref(const char *url)
{
	if (!*url || url[0] == '/' )
		return false;
	for (const char *p = url; *p && *p != '/' && *p != '?' && *p != '#'; p++)
		if (*p == ':')
			return false; /* has a scheme */
	return true;
}

static void add_ilink(struct strings *x, struct doc *doc, cmark_node *n, const char *url)
{
	doc->ilinks = xgrow(doc->ilinks, &doc->capilinks, doc->nilinks + 1, sizeof *doc->ilinks);
	struct ilink *l = &doc->ilinks[doc->nilinks++];
	memset(l, 0, sizeof *l);
	l->url = str_copy(x, url);
	l->line = line_of(n);
	l->col = cmark_node_get_start_column(n);
	l->node = n;
	l->target = -1;
}

/* What the headings so far decide for the next: the ids given, and the
 * last heading of each level (so that a heading finds its parent without
 * looking back over every heading of a long document). */
struct heading_state {
	struct unique_names ids;
	long last[7]; /* by level 1-6: the index of its last heading, -1 for none */
};

static void heading_state_init(struct heading_state *hs)
{
	unique_names_init(&hs->ids, 1);
	for (size_t i = 0; i < sizeof hs->last / sizeof *hs->last; i++)
		hs->last[i] = -1;
}

static void add_heading(struct strings *x, struct doc *doc, cmark_node *n, size_t *cap,
			struct heading_state *hs)
{
	doc->headings = xgrow(doc->headings, cap, doc->nheadings + 1, sizeof *doc->headings);
	struct heading *h = &doc->headings[doc->nheadings];
	h->text = node_text(x, n, false);
	h->node = n;
	h->level = cmark_node_get_heading_level(n);
	h->line = ast_line(n);
	/* the parent: the last heading of a lower level */
	h->parent = -1;
	for (int l = 1; l < h->level && l < 7; l++)
		if (hs->last[l] > h->parent)
			h->parent = (int)hs->last[l];
	if (h->level >= 1 && h->level < 7)
		hs->last[h->level] = (long)doc->nheadings;
	/* unique id: GitHub appends -1, -2, … to repeats; made from the whole
	 * text, then bounded with it */
	char *base = slug_github(h->text);
	if (!*base) {
		free(base);
		base = xstrdup("section");
	}
	size_t cut = strlen(base);
	if (cut > EXTRACT_ID_MAX) {
		cut = EXTRACT_ID_MAX;
		while (cut > 0 && ((unsigned char)base[cut] & 0xC0) == 0x80)
			cut--;
		base[cut] = '\0';
	}
	h->id = unique_name_take(&hs->ids, base);
	h->text = utf8_bound(h->text, EXTRACT_TITLE_MAX);
	doc->nheadings++;
}

static void add_anchor(struct strings *x, struct doc *doc, const char *id, size_t n)
{
	doc->anchors = xgrow(doc->anchors, &doc->capanchors, doc->nanchors + 1, sizeof *doc->anchors);
	doc->anchors[doc->nanchors++] = arena_strndup(&x->arena, id, n);
}

/* Ids that custom nodes carry (RST targets, footnotes): #anchors too. */
static void add_custom_ids(struct strings *x, struct doc *doc, cmark_node *n)
{
	const char *e = cmark_node_get_on_enter(n);
	for (const char *p = e ? strstr(e, " id=\"") : NULL; p; p = strstr(p + 1, " id=\"")) {
		const char *start = p + 5, *end = strchr(start, '"');
		if (!end)
			break;
		add_anchor(x, doc, start, (size_t)(end - start));
	}
}

/* ---- listings: what `ssg check` asks of a citation's place in the tree --- */

/* The entry a link stands in for listings: its list item or table cell,
 * whichever is nearer, else its paragraph or heading. Two links in one entry
 * ("[paper](x) ([pdf](x))") are one listing. (Not entry_of, whose item wins
 * over a nearer table cell: a description is the whole item's text, while
 * each cell of a table in an item lists a resource of its own.) */
static cmark_node *listing_entry(cmark_node *link)
{
	for (cmark_node *p = cmark_node_parent(link); p; p = cmark_node_parent(p))
		if (cmark_node_get_type(p) == CMARK_NODE_ITEM || ast_is_table_cell(p))
			return p;
	for (cmark_node *p = cmark_node_parent(link); p; p = cmark_node_parent(p))
		if (cmark_node_get_type(p) == CMARK_NODE_PARAGRAPH ||
		    cmark_node_get_type(p) == CMARK_NODE_HEADING)
			return p;
	return cmark_node_parent(link);
}

/* Does the link list a resource, rather than mention it in running text? In
 * a list item or table cell, or a paragraph that is the entry itself: it
 * opens with a bold title ("**Title**: url") or holds the link alone. */
static bool is_listing(cmark_node *link, cmark_node *entry)
{
	if (!entry)
		return false;
	cmark_node_type t = cmark_node_get_type(entry);
	if (t == CMARK_NODE_ITEM || ast_is_table_cell(entry))
		return true;
	if (t != CMARK_NODE_PARAGRAPH)
		return false;
	cmark_node *f = cmark_node_first_child(entry);
	if (f && cmark_node_get_type(f) == CMARK_NODE_STRONG)
		return true;
	/* alone: every node from the link up to the paragraph is an only child */
	for (cmark_node *n = link; n != entry; n = cmark_node_parent(n)) {
		cmark_node *p = cmark_node_parent(n);
		if (!p || cmark_node_first_child(p) != n || cmark_node_last_child(p) != n)
			return false;
	}
	return true;
}

/* Number each citation's listing entry: citations of one entry node get one
 * number (the first such citation's, from 1). entries[i] is citation i's
 * node, or NULL (number 0). */
static void number_entries(struct doc *doc, cmark_node **entries)
{
	struct node_table seen = {0};
	for (size_t i = 0; i < doc->ncites; i++) {
		if (!entries[i])
			continue;
		struct node_facts *f = facts_of(&seen, entries[i]);
		if (!f->links)
			f->links = i + 1;
		doc->cites[i].entry = (int)f->links;
	}
	node_table_free(&seen);
}

/* An image's source names a file of the site: not absolute, not a fragment
 * or query alone, no scheme. */
static bool is_relative_src(const char *url)
{
	if (!*url || url[0] == '/' || url[0] == '#' || url[0] == '?')
		return false;
	for (const char *p = url; *p && *p != '/' && *p != '?' && *p != '#'; p++)
		if (*p == ':')
			return false;
	return true;
}

static void add_image(struct strings *x, struct doc *doc, cmark_node *n)
{
	const char *url = cmark_node_get_url(n);
	if (!url || !is_relative_src(url))
		return;
	doc->images = xgrow(doc->images, &doc->capimages, doc->nimages + 1, sizeof *doc->images);
	doc->images[doc->nimages++] = (struct image){str_copy(x, url), ast_line(n),
						     cmark_node_get_start_column(n)};
}

void extract_doc(struct doc *doc)
{
	size_t caph = 0, capcode = 0;
	struct heading_state hs;
	heading_state_init(&hs);
	int section = -1;
	struct strings x = {ARENA_INIT, BUF_INIT};
	const char *prev_title = NULL; /* a citation's title: not changed after */
	cmark_node *prev_entry = NULL;
	struct node_table entries = {0}, contexts = {0};
	cmark_node **listings = NULL; /* per citation: its listing entry */
	size_t caplistings = 0;
	cmark_iter *it = cmark_iter_new(doc->tree);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		if (ev != CMARK_EVENT_ENTER)
			continue;
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		if (t == CMARK_NODE_HEADING) {
			add_heading(&x, doc, n, &caph, &hs);
			section = (int)doc->nheadings - 1;
			const char *id = doc->headings[section].id;
			add_anchor(&x, doc, id, strlen(id));
		} else if (t == CMARK_NODE_CUSTOM_BLOCK || t == CMARK_NODE_CUSTOM_INLINE) {
			add_custom_ids(&x, doc, n);
		} else if (t == CMARK_NODE_CODE_BLOCK) {
			doc->code_blocks = xgrow(doc->code_blocks, &capcode, doc->ncode_blocks + 1,
						 sizeof *doc->code_blocks);
			doc->code_blocks[doc->ncode_blocks++] = n;
		} else if (t == CMARK_NODE_IMAGE) {
			add_image(&x, doc, n);
		} else if (t == CMARK_NODE_LINK) {
			const char *url = cmark_node_get_url(n);
			if (!url || !*url)
				continue;
			/* NULL: not absolute http(s) */
			char *canonical = url_canonical_memo_in(url, &x.arena);
			if (canonical) {
				doc->cites = xgrow(doc->cites, &doc->capcites, doc->ncites + 1,
						   sizeof *doc->cites);
				struct citation *c = &doc->cites[doc->ncites++];
				memset(c, 0, sizeof *c);
				c->url = str_copy(&x, url);
				c->canonical = canonical;
				c->text = node_text(&x, n, false);
				c->line = line_of(n);
				c->col = cmark_node_get_start_column(n);
				c->heading = section;
				c->node = n;
				c->resource = -1;
				listings = xgrow(listings, &caplistings, doc->ncites,
						 sizeof *listings);
				listings[doc->ncites - 1] = listing_entry(n);
				c->listing = is_listing(n, listings[doc->ncites - 1]);
				cmark_node *entry = entry_of(n);
				if (++facts_of(&entries, entry)->links > EXTRACT_ENTRY_LINKS)
					describe_plain(&x, c);
				else
					describe(&x, c, n, entry == prev_entry ? prev_title : NULL,
						 &contexts);
				if (entry != prev_entry) {
					prev_title = c->title;
					prev_entry = entry;
				}
			} else if (is_relative_ref(url) || url[0] == '#')
				add_ilink(&x, doc, n, url);
		}
	}
	cmark_iter_free(it);
	unique_names_free(&hs.ids);
	node_table_free(&entries);
	node_table_free(&contexts);
	number_entries(doc, listings);
	free(listings);
	/* the kept strings into the document's block, the arena gone whole */
	doc_compact_strings_from(doc, &x.arena);
	arena_release(&x.arena);
	buf_free(&x.text);
}
