/* md: Markdown through cmark-gfm, plus the raw-HTML and URL safety pass
 * (see md.h). */
#include "md.h"
#include "ast.h"
#include "buf.h"
#include "sanitize.h"
#include "utf8.h"
#include "xalloc.h"

#include <cmark-gfm-extension_api.h>

#include <stdlib.h>
#include <string.h>


cmark_node *md_parse(const char *text, size_t len, const char *path, bool escape_html,
		     struct diags *d)
{
	return md_parse_depth(text, len, path, escape_html, 0, false, d);
}

/* cmark-gfm 0.29 parses and renders a table row in time quadratic in its
 * cells: one 40,000-cell row took 12 s, a 4 MB one would take hours. In a
 * line with more than MD_MAX_TABLE_CELLS pipes every pipe is escaped ("\\|"),
 * so it shows as text and never splits cells; one warning at the first such
 * line. NULL when there is none (the text is parsed as it is). */
static char *tame_wide_rows(const char *text, size_t len, const char *path, struct diags *d)
{
	/* no line can have more pipes than the whole text: most texts have a
	 * few, found by memchr's leaps rather than a look at every byte */
	size_t pipes_in_all = 0;
	for (const char *p = memchr(text, '|', len); p && pipes_in_all <= MD_MAX_TABLE_CELLS;
	     p = memchr(p + 1, '|', len - (size_t)(p + 1 - text)))
		pipes_in_all++;
	if (pipes_in_all <= MD_MAX_TABLE_CELLS)
		return NULL;
	struct buf out = BUF_INIT;
	size_t done = 0; /* text[0..done) is in out */
	int line = 1;
	for (size_t start = 0; start < len; line++) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t pipes = 0;
		for (size_t i = start; i < end; i++)
			pipes += text[i] == '|';
		if (pipes > MD_MAX_TABLE_CELLS) {
			if (!out.p)
				diag_addc(d, SEV_WARNING, "too-wide", path, line, 0,
					  "more than %d table cells in a row: its pipes are shown as text",
					  MD_MAX_TABLE_CELLS);
			buf_put(&out, text + done, start - done);
			for (size_t i = start; i < end; i++) {
				if (text[i] == '|' && (i == start || text[i - 1] != '\\'))
					buf_putc(&out, '\\');
				buf_putc(&out, text[i]);
			}
			done = end;
		}
		start = end + 1;
	}
	if (!out.p)
		return NULL;
	buf_put(&out, text + done, len - done);
	return buf_detach(&out);
}

/* Whether the image opener at p (its "![") surely closes: "![alt](", its
 * alt text on its line and free of what could hide or add a bracket
 * (brackets, backslashes, code spans, autolinks and HTML). Most images do;
 * such an opener leaves cmark's bracket stack at its "]". */
static bool image_closes(const char *p, const char *end)
{
	const char *q = p + 2;
	while (q < end && !strchr("[]\\`<\n", *q))
		q++;
	return q + 1 < end && q[0] == ']' && q[1] == '(';
}

/* What cmark-gfm 0.29.0.gfm.6 takes in the square of when a paragraph opens
 * it many times and never closes it (each fixed upstream after this
 * release): image openers, walked for each link closed (CVE-2023-22486), and
 * the raw HTML openers "<?" and "<![CDATA[", each of which scans the rest of
 * the paragraph for its end. */
enum opener { OPEN_IMAGE, OPEN_PI, OPEN_CDATA, NOPENERS };

static const struct {
	const char *open, *close; /* raw HTML: its opener and what ends it */
	const char *what;
} html_openers[NOPENERS] = {
	[OPEN_PI] = {"<?", "?>", "\"<?\" openers"},
	[OPEN_CDATA] = {"<![CDATA[", "]]>", "\"<![CDATA[\" openers"},
};

/* Whether c opens kind k there, not escaped, and never closes (for raw
 * HTML: after its kind's last end in the run, from `after` on). */
static bool unclosed(enum opener k, const char *c, const char *run, const char *p,
		     const char *after)
{
	/* escaped: after an odd number of backslashes (after two, an escaped
	 * backslash, it opens) */
	size_t backslashes = 0;
	for (const char *b = c; b > run && b[-1] == '\\'; b--)
		backslashes++;
	if (backslashes % 2)
		return false;
	if (k == OPEN_IMAGE)
		return c + 1 < p && c[0] == '!' && c[1] == '[' && !image_closes(c, p);
	size_t n = strlen(html_openers[k].open);
	return c >= after && (size_t)(p - c) >= n && !memcmp(c, html_openers[k].open, n);
}

/* Where the last end of raw HTML kind k in [run, p) finishes (run: none). */
static const char *after_last_close(enum opener k, const char *run, const char *p)
{
	const char *close = html_openers[k].close, *after = run;
	size_t n = strlen(close);
	for (const char *c = run; c + n <= p; c++)
		if (!memcmp(c, close, n))
			after = c + n;
	return after;
}

/* Whether text holds c followed by rest: c found by memchr's leaps (a
 * byte-by-byte search, or glibc's generic memmem, costs as much as the
 * scan it would spare). */
static bool has_after(const char *text, size_t len, char c, const char *rest)
{
	size_t n = strlen(rest);
	const char *end = text + len;
	for (const char *p = memchr(text, c, len); p; p = memchr(p + 1, c, (size_t)(end - p - 1)))
		if ((size_t)(end - p - 1) >= n && !memcmp(p + 1, rest, n))
			return true;
	return false;
}

/* A paragraph's worth of lines (a run without blank lines) where such
 * openers would cost more than MD_MAX_OPEN_IMAGES_BY_LINKS (image openers
 * that never close, times the links) or MD_MAX_OPEN_HTML_SCAN (raw HTML
 * openers that never close, times the run's bytes): those openers are
 * escaped, shown as text, with a warning (one per document and kind). NULL
 * when there is none. */
static char *tame_unclosed(const char *text, size_t len, const char *path, struct diags *d)
{
	/* every opener holds "![" or "<?" ("<![CDATA[" the first; unclosed()
	 * looks for nothing else): a text without either has none to count,
	 * and most texts have neither */
	if (!has_after(text, len, '!', "[") && !has_after(text, len, '<', "?"))
		return NULL;
	struct buf out = BUF_INIT;
	size_t done = 0; /* text[0..done) is in out */
	const char *end = text + len;
	const char *run = text;
	int line = 1; /* the run's first */
	bool warned[NOPENERS] = {false};
	while (run < end) {
		/* the run: lines up to a blank one (or the end) */
		const char *p = run;
		int lines = 0;
		for (;;) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *le = nl ? nl : end;
			bool blank = true;
			for (const char *c = p; c < le && blank; c++)
				blank = *c == ' ' || *c == '\t' || *c == '\r';
			lines++;
			p = nl ? nl + 1 : end;
			if (blank || !nl)
				break;
		}
		const char *after[NOPENERS] = {run, run, run};
		size_t open[NOPENERS] = {0}, links = 0;
		bool tame[NOPENERS] = {false}, any = false, seen[NOPENERS] = {false};
		for (const char *c = run; c + 1 < p; c++) {
			if (c[0] == ']')
				links += c[1] == '(';
			else if (c[0] == '!')
				open[OPEN_IMAGE] += unclosed(OPEN_IMAGE, c, run, p, run);
			else if (c[0] == '<')
				for (int k = OPEN_PI; k < NOPENERS; k++)
					seen[k] |= unclosed((enum opener)k, c, run, p, run);
		}
		/* raw HTML openers (rare): counted from their kind's last end on */
		for (int k = OPEN_PI; k < NOPENERS; k++) {
			if (!seen[k])
				continue;
			after[k] = after_last_close((enum opener)k, run, p);
			for (const char *c = after[k]; c + 1 < p; c++)
				open[k] += c[0] == '<' && unclosed((enum opener)k, c, run, p, after[k]);
		}
		tame[OPEN_IMAGE] = open[OPEN_IMAGE] && links &&
				   open[OPEN_IMAGE] * links > MD_MAX_OPEN_IMAGES_BY_LINKS;
		for (int k = OPEN_PI; k < NOPENERS; k++)
			tame[k] = open[k] * (size_t)(p - run) > MD_MAX_OPEN_HTML_SCAN;
		for (int k = 0; k < NOPENERS; k++) {
			any |= tame[k];
			if (!tame[k] || warned[k])
				continue;
			warned[k] = true;
			if (k == OPEN_IMAGE)
				diag_addc(d, SEV_WARNING, "too-many-brackets", path, line, 0,
					  "%zu image openers that never close, among %zu links in one "
					  "paragraph: the openers are shown as text",
					  open[k], links);
			else
				diag_addc(d, SEV_WARNING, "too-many-brackets", path, line, 0,
					  "%zu %s that never close in one paragraph: shown as text",
					  open[k], html_openers[k].what);
		}
		if (any) {
			buf_put(&out, text + done, (size_t)(run - (text + done)));
			for (const char *c = run; c < p; c++) {
				if (tame[OPEN_IMAGE] && unclosed(OPEN_IMAGE, c, run, p, run)) {
					buf_puts(&out, "!\\"); /* then the '[' */
					continue;
				}
				if ((tame[OPEN_PI] && unclosed(OPEN_PI, c, run, p, after[OPEN_PI])) ||
				    (tame[OPEN_CDATA] && unclosed(OPEN_CDATA, c, run, p, after[OPEN_CDATA])))
					buf_putc(&out, '\\'); /* then the '<' */
				buf_putc(&out, *c);
			}
			done = (size_t)(p - text);
		}
		line += lines;
		run = p;
	}
	if (!out.p)
		return NULL;
	buf_put(&out, text + done, len - done);
	return buf_detach(&out);
}

static void limit_and_make_safe(cmark_node *doc, int max_depth, const char *path,
				bool escape_html, struct diags *d);

cmark_node *md_parse_depth(const char *text, size_t len, const char *path, bool escape_html,
			   int max_depth, bool utf8_valid, struct diags *d)
{
	int opts = CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES |
		   (utf8_valid ? 0 : CMARK_OPT_VALIDATE_UTF8);
	char *tamed = tame_wide_rows(text, len, path, d);
	char *open = tame_unclosed(tamed ? tamed : text, tamed ? strlen(tamed) : len, path, d);
	if (open) {
		free(tamed);
		tamed = open;
	}
	cmark_node *doc = tamed ? ast_parse_markdown(tamed, strlen(tamed), opts)
				: ast_parse_markdown(text, len, opts);
	free(tamed);
	limit_and_make_safe(doc, max_depth, path, escape_html, d);
	return doc;
}

/* ---- nesting limit ---------------------------------------------------------- */

static bool is_nesting(cmark_node *n)
{
	cmark_node_type t = cmark_node_get_type(n);
	return t == CMARK_NODE_BLOCK_QUOTE || t == CMARK_NODE_LIST;
}

static bool is_container(cmark_node *n)
{
	return is_nesting(n) || cmark_node_get_type(n) == CMARK_NODE_ITEM;
}

/* Replace container n by the blocks inside it that are not containers
 * (paragraphs, code, headings, tables...), in document order. */
static void flatten(cmark_node *n)
{
	cmark_node **keep = NULL;
	size_t nkeep = 0, cap = 0;
	cmark_iter *it = cmark_iter_new(n);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *c = cmark_iter_get_node(it);
		cmark_node *parent = cmark_node_parent(c);
		if (ev == CMARK_EVENT_ENTER && c != n && !is_container(c) && parent &&
		    is_container(parent)) {
			keep = xgrow(keep, &cap, nkeep + 1, sizeof *keep);
			keep[nkeep++] = c;
		}
	}
	cmark_iter_free(it);
	/* in a tight list the blocks would run into the item's own text */
	cmark_node *parent = cmark_node_parent(n);
	if (parent && cmark_node_get_type(parent) == CMARK_NODE_ITEM && cmark_node_parent(parent))
		cmark_node_set_list_tight(cmark_node_parent(parent), false);
	for (size_t i = 0; i < nkeep; i++) {
		cmark_node_unlink(keep[i]);
		if (!cmark_node_insert_before(n, keep[i]))
			cmark_node_free(keep[i]);
	}
	free(keep);
	cmark_node_free(n);
}

/* What one walk of a tree finds for the two passes after parsing: the
 * outermost lists and quotes nested deeper than the limit (none looked for
 * when max_depth is 0), and (when safe) the raw HTML nodes, links' and
 * images' targets made safe as they are met. One walk, where the two passes
 * each walked every node of the tree. */
struct md_walk {
	cmark_node **deep, **html;
	size_t ndeep, deep_cap, nhtml, html_cap;
};

static void safe_link(cmark_node *n, cmark_node_type t, const char *path, struct diags *d);

static void md_walk(cmark_node *doc, int max_depth, bool safe, const char *path,
		    struct diags *d, struct md_walk *w)
{
	int depth = 0;
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		if (t == CMARK_NODE_LIST || t == CMARK_NODE_BLOCK_QUOTE) { /* is_nesting */
			if (!max_depth)
				continue;
			if (ev == CMARK_EVENT_EXIT) {
				depth--;
				continue;
			}
			if (++depth == max_depth + 1) {
				w->deep = xgrow(w->deep, &w->deep_cap, w->ndeep + 1, sizeof *w->deep);
				w->deep[w->ndeep++] = n;
			}
			continue;
		}
		if (!safe || ev != CMARK_EVENT_ENTER)
			continue;
		if (t == CMARK_NODE_HTML_BLOCK || t == CMARK_NODE_HTML_INLINE) {
			w->html = xgrow(w->html, &w->html_cap, w->nhtml + 1, sizeof *w->html);
			w->html[w->nhtml++] = n;
		} else if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE)
			safe_link(n, t, path, d);
	}
	cmark_iter_free(it);
}

/* The deep nodes a walk found flattened, with one warning at the first. */
static void limit_found(struct md_walk *w, int max_depth, const char *path, struct diags *d)
{
	if (w->ndeep)
		diag_addc(d, SEV_WARNING, "too-deep", path, ast_line(w->deep[0]),
			  cmark_node_get_start_column(w->deep[0]),
			  "lists and quotes nest deeper than %d levels (limits.max_nesting): "
			  "the deeper ones are flattened", max_depth);
	/* outermost first: each collected node holds no other collected one */
	for (size_t i = 0; i < w->ndeep; i++)
		flatten(w->deep[i]);
	free(w->deep);
}

static void html_found(struct md_walk *w, const char *path, bool escape_html, struct diags *d);

void md_limit_depth(cmark_node *doc, int max_depth, const char *path, struct diags *d)
{
	if (max_depth <= 0)
		max_depth = MD_DEFAULT_MAX_DEPTH;
	struct md_walk w = {0};
	md_walk(doc, max_depth, false, path, d, &w);
	limit_found(&w, max_depth, path, d);
}

static cmark_node *safe_html_node(cmark_node *n, const char *path, bool escape_html,
				  struct diags *d)
{
	bool block = cmark_node_get_type(n) == CMARK_NODE_HTML_BLOCK;
	const char *lit = cmark_node_get_literal(n);
	lit = lit ? lit : "";
	struct buf out = BUF_INIT;
	if (escape_html) {
		if (block)
			buf_puts(&out, "<p class=\"raw-html\">");
		buf_put_html(&out, lit, strlen(lit));
		if (block)
			buf_puts(&out, "</p>");
	} else
		sanitize_html(lit, strlen(lit), &out, path, ast_line(n), d);
	cmark_node *c = block ? ast_custom_block(buf_cstr(&out), "")
			      : ast_custom_inline(buf_cstr(&out), "");
	buf_free(&out);
	return c;
}

/* A URL as a diagnostic quotes it: at most 60 bytes (never half a UTF-8
 * character), control characters written as \\n, \\t or \\xNN, so the
 * diagnostic stays one line. */
static char *shown_url(const char *url)
{
	struct buf b = BUF_INIT;
	size_t i = 0;
	for (; url[i] && i < 60; i++) {
		unsigned char c = (unsigned char)url[i];
		if (c == '\n')
			buf_puts(&b, "\\n");
		else if (c == '\t')
			buf_puts(&b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			buf_printf(&b, "\\x%02X", c);
		else
			buf_putc(&b, (char)c);
	}
	if (url[i]) {
		while (b.n && ((unsigned char)b.p[b.n - 1] & 0xC0) == 0x80)
			b.n--;
		if (b.n && ((unsigned char)b.p[b.n - 1] & 0xC0) == 0xC0)
			b.n--;
		b.p[b.n] = 0;
		buf_puts(&b, "...");
	}
	return buf_detach(&b);
}

/* A link's or image's title cut to its bound, its target removed (with a
 * warning) when too long or unsafe. */
static void safe_link(cmark_node *n, cmark_node_type t, const char *path, struct diags *d)
{
	const char *url = cmark_node_get_url(n);
	const char *title = cmark_node_get_title(n);
	/* a reference definition gives its target and title to every link that
	 * names it: a long one, named thousands of times, would be copied into
	 * the page (and the resources) each time */
	if (title && strlen(title) > MD_MAX_LINK_TITLE) {
		char *cut = utf8_bound(xstrdup(title), MD_MAX_LINK_TITLE);
		cmark_node_set_title(n, cut);
		free(cut);
	}
	if (url && strlen(url) > MD_MAX_URL) {
		diag_addc(d, SEV_WARNING, "unsafe-url", path, ast_line(n),
			  cmark_node_get_start_column(n), "%s target longer than %d bytes removed",
			  t == CMARK_NODE_LINK ? "link" : "image", MD_MAX_URL);
		cmark_node_set_url(n, "");
	} else if (url && *url && !sanitize_url_ok(url, strlen(url))) {
		char *shown = shown_url(url);
		diag_addc(d, SEV_WARNING, "unsafe-url", path, ast_line(n),
			  cmark_node_get_start_column(n), "unsafe %s target \"%s\" removed",
			  t == CMARK_NODE_LINK ? "link" : "image", shown);
		free(shown);
		cmark_node_set_url(n, "");
	}
}

/* The raw HTML nodes a walk found replaced: after the walk, never editing
 * the tree under a live iterator. */
static void html_found(struct md_walk *w, const char *path, bool escape_html, struct diags *d)
{
	for (size_t i = 0; i < w->nhtml; i++) {
		cmark_node *c = safe_html_node(w->html[i], path, escape_html, d);
		ast_set_line(c, ast_line(w->html[i]));
		cmark_node_replace(w->html[i], c);
		cmark_node_free(w->html[i]);
	}
	free(w->html);
}

void md_make_safe(cmark_node *doc, const char *path, bool escape_html, struct diags *d)
{
	struct md_walk w = {0};
	md_walk(doc, 0, true, path, d, &w);
	html_found(&w, path, escape_html, d);
}

/* Both passes in one walk: the deep lists flattened first (flattening moves
 * the blocks it keeps, never frees an HTML node: those are not containers),
 * then the HTML nodes replaced. */
static void limit_and_make_safe(cmark_node *doc, int max_depth, const char *path,
				bool escape_html, struct diags *d)
{
	if (max_depth <= 0)
		max_depth = MD_DEFAULT_MAX_DEPTH;
	struct md_walk w = {0};
	md_walk(doc, max_depth, true, path, d, &w);
	limit_found(&w, max_depth, path, d);
	html_found(&w, path, escape_html, d);
}
