/* rst_inline: inline markup of reStructuredText following the
 * specification's recognition rules (start-string and end-string contexts,
 * quoted start-strings, escapes): emphasis, strong, literals, interpreted
 * text and roles, phrase and named references with embedded URIs,
 * anonymous references, inline targets, substitutions, footnote and citation
 * references, standalone URIs and e-mail addresses. Builds cmark inline
 * nodes; references are recorded for rst.c to resolve. Linear time: every
 * end-string search that fails is remembered, word scans are cached. */
#include "rst_int.h"
#include "ast.h"
#include "hash.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NOCP RST_NOCP

/* ---- the parser state --------------------------------------------------- */

enum kind { K_EMPH, K_STRONG, K_LITERAL, K_INTERP, K_TARGET, K_SUBST, K_N };

struct il {
	struct rst_ctx *c;
	cmark_node *parent;
	const char *s;
	size_t n;
	int line0;
	size_t fail[K_N];   /* end searches from here on are known to fail */
	size_t name_run_end; /* simplename cache */
	size_t name_run_from;
	size_t lpos;
	int lline;
	size_t seg;          /* start of the text not yet emitted */
};

static int line_of(struct il *p, size_t pos)
{
	if (pos < p->lpos) {
		p->lpos = 0;
		p->lline = p->line0;
	}
	for (; p->lpos < pos && p->lpos < p->n; p->lpos++)
		if (p->s[p->lpos] == '\n')
			p->lline++;
	return p->lline;
}

static size_t backslashes_before(const char *s, size_t i, size_t lo)
{
	size_t k = 0;
	while (i > lo + k && s[i - 1 - k] == '\\')
		k++;
	return k;
}

/* Append s[a..b) as text nodes, newlines as soft breaks; escapes processed
 * unless raw. */
static void put_text(cmark_node *parent, const char *s, size_t a, size_t b, bool raw)
{
	struct buf t = BUF_INIT;
	for (size_t i = a; i < b; i++) {
		char ch = s[i];
		if (ch == '\\' && !raw) {
			if (i + 1 < b) {
				i++;
				if (s[i] != ' ' && s[i] != '\n')
					buf_putc(&t, s[i]);
			}
			continue;
		}
		if (ch == '\n') {
			if (t.n)
				ast_append(parent, ast_text(buf_cstr(&t)));
			buf_reset(&t);
			ast_append(parent, ast_node_new(CMARK_NODE_SOFTBREAK));
			continue;
		}
		buf_putc(&t, ch);
	}
	if (t.n)
		ast_append(parent, ast_text(buf_cstr(&t)));
	buf_free(&t);
}

/* s[a..b) with escapes removed and newlines as spaces, as a new string. */
static char *unescape(const char *s, size_t a, size_t b)
{
	struct buf t = BUF_INIT;
	for (size_t i = a; i < b; i++) {
		if (s[i] == '\\' && i + 1 < b) {
			i++;
			if (s[i] != ' ' && s[i] != '\n')
				buf_putc(&t, s[i]);
			continue;
		}
		buf_putc(&t, s[i] == '\n' ? ' ' : s[i]);
	}
	return buf_detach(&t);
}

/* ---- end-string search -------------------------------------------------- */

/* Is there a valid end-string `e` (len el) at j? */
static bool end_at(struct il *p, size_t j, const char *e, size_t el, bool esc)
{
	if (j + el > p->n || memcmp(p->s + j, e, el))
		return false;
	uint32_t prev = rst_cp_before(p->s, j);
	if (prev == NOCP || rst_is_space(prev))
		return false;
	if (esc && backslashes_before(p->s, j, 0) % 2)
		return false;
	return rst_end_suffix_ok(rst_cp_at(p->s, p->n, j + el, NULL));
}

/* First valid end-string of kind k at or after `from`; n when none. */
static size_t find_end(struct il *p, enum kind k, size_t from, const char *e, size_t el)
{
	if (from >= p->fail[k])
		return p->n;
	bool esc = k != K_LITERAL;
	for (size_t j = from; j < p->n; j++) {
		if (p->s[j] != e[0])
			continue;
		if (k == K_EMPH && j + 1 < p->n && p->s[j + 1] == '*' && end_at(p, j + 1, "*", 1, true))
			continue; /* "**" at the end: the last one closes */
		if (end_at(p, j, e, el, esc))
			return j;
	}
	p->fail[k] = from;
	return p->n;
}

/* Length of a simplename at i (0 when none). */
static size_t simplename(const char *s, size_t n, size_t i)
{
	size_t j = i, l;
	if (!rst_is_word(rst_cp_at(s, n, j, &l)))
		return 0;
	for (;;) {
		while (rst_is_word(rst_cp_at(s, n, j, &l)))
			j += l;
		if (j + 1 < n && strchr("-._+:", s[j]) && s[j] && rst_is_word(rst_cp_at(s, n, j + 1, NULL)))
			j++;
		else
			break;
	}
	return j - i;
}

/* ---- node builders ------------------------------------------------------ */

static cmark_node *add_inline(struct il *p, cmark_node *n)
{
	return ast_append(p->parent, n) ? n : NULL;
}

static void wrap_text(struct il *p, cmark_node_type t, char *text)
{
	cmark_node *n = add_inline(p, ast_node_new(t));
	if (n)
		ast_append(n, ast_text(text));
	free(text);
}

static cmark_node *custom_text(struct il *p, const char *open, const char *close, char *text)
{
	cmark_node *n = add_inline(p, ast_custom_inline(open, close));
	if (n)
		ast_append(n, ast_text(text));
	free(text);
	return n;
}

static cmark_node *new_link(struct il *p, const char *text, const char *url, size_t pos)
{
	cmark_node *l = ast_node_new(CMARK_NODE_LINK);
	cmark_node_set_url(l, url ? url : "");
	ast_set_line(l, line_of(p, pos));
	ast_append(l, ast_text(text));
	return add_inline(p, l);
}

static void record_ref(struct il *p, cmark_node *link, const char *name, bool anon, size_t pos)
{
	if (!link)
		return;
	struct rst_ref *r = &RST_PUSH(p->c->refs);
	r->link = link;
	r->line = line_of(p, pos);
	if (anon)
		r->anon = p->c->anon_refs++;
	else
		r->name = rst_normalize_name(name, strlen(name));
}

static void put_code(struct il *p, char *text)
{
	cmark_node *n = ast_node_new(CMARK_NODE_CODE);
	cmark_node_set_literal(n, text);
	add_inline(p, n);
	free(text);
}

/* ---- constructs ---------------------------------------------------------- */

/* A valid end of interpreted text at j ("`" + optional :role: + optional
 * "_"/"__"); *role and *rl: the suffix role;, *refend the underscores, *end past it. */
static bool interp_end_at(struct il *p, size_t j, size_t *role, size_t *rl, int *refend, size_t *end)
{
	const char *s = p->s;
	if (s[j] != '`')
		return false;
	uint32_t prev = rst_cp_before(s, j);
	if (prev == NOCP || rst_is_space(prev) || backslashes_before(s, j, 0) % 2)
		return false;
	size_t k = j + 1, r = 0, rlen = 0;
	if (k < p->n && s[k] == ':') {
		size_t nl = simplename(s, p->n, k + 1);
		if (nl && k + 1 + nl < p->n && s[k + 1 + nl] == ':') {
			r = k + 1;
			rlen = nl;
		}
	}
	size_t after_role = r ? r + rlen + 1 : k;
	/* longest suffix first, like the regular expression's backtracking */
	for (int withrole = r ? 1 : 0; withrole >= 0; withrole--) {
		size_t base = withrole ? after_role : k;
		for (int u = 2; u >= 0; u--) {
			bool ok = true;
			for (int q = 0; q < u; q++)
				if (base + (size_t)q >= p->n || s[base + (size_t)q] != '_')
					ok = false;
			if (!ok || !rst_end_suffix_ok(rst_cp_at(s, p->n, base + (size_t)u, NULL)))
				continue;
			*role = withrole ? r : 0;
			*rl = withrole ? rlen : 0;
			*refend = u;
			*end = base + (size_t)u;
			return true;
		}
	}
	return false;
}

static size_t find_interp_end(struct il *p, size_t from, size_t *role, size_t *rl, int *refend, size_t *end)
{
	if (from >= p->fail[K_INTERP])
		return p->n;
	for (size_t j = from; j < p->n; j++)
		if (p->s[j] == '`' && interp_end_at(p, j, role, rl, refend, end))
			return j;
	p->fail[K_INTERP] = from;
	return p->n;
}

/* Embedded "<uri>" at the end of a phrase s[a..b): its '<' or b when none. */
static size_t embedded_at(const char *s, size_t a, size_t b)
{
	if (b - a < 3 || s[b - 1] != '>' || s[b - 2] == ' ' || s[b - 2] == '\n' || s[b - 2] == '\\')
		return b;
	size_t k = b - 1;
	while (k > a && s[k - 1] != '<' && s[k - 1] != '>')
		k--;
	if (k == a || s[k - 1] != '<')
		return b;
	size_t lt = k - 1;
	if (s[lt + 1] == ' ' || s[lt + 1] == '\n' || s[lt + 1] == '>')
		return b;
	if (lt > a && s[lt - 1] != ' ' && s[lt - 1] != '\n')
		return b;
	return lt;
}

static void phrase_ref(struct il *p, size_t a, size_t b, bool anon, size_t pos)
{
	const char *s = p->s;
	size_t lt = embedded_at(s, a, b);
	char *text, *url = NULL, *alias = NULL;
	if (lt < b) {
		struct buf t = BUF_INIT;
		for (size_t k = lt + 1; k + 1 < b; k++) {
			if (s[k] == '\\' && k + 2 < b) {
				k++;
				if (s[k] != ' ' && s[k] != '\n')
					buf_putc(&t, s[k]);
				continue;
			}
			if (s[k] != ' ' && s[k] != '\n')
				buf_putc(&t, s[k]);
		}
		size_t tn = t.n;
		bool is_alias = tn > 1 && t.p[tn - 1] == '_' && s[b - 3] != '\\';
		if (is_alias) {
			size_t x = 0, y = tn - 1;
			if (y > 1 && t.p[0] == '`' && t.p[y - 1] == '`') {
				x = 1;
				y--;
			}
			alias = xstrndup(t.p + x, y - x);
		} else
			url = xstrdup(buf_cstr(&t));
		size_t e = lt;
		while (e > a && (s[e - 1] == ' ' || s[e - 1] == '\n'))
			e--;
		text = e > a ? unescape(s, a, e) : xstrdup(buf_cstr(&t));
		buf_free(&t);
	} else
		text = unescape(s, a, b);
	cmark_node *link = new_link(p, text, url, pos);
	if (url) {
		if (!anon && *text)
			rst_add_target(p->c, text, strlen(text), RST_T_URL, url, line_of(p, pos));
	} else if (alias) {
		record_ref(p, link, alias, false, pos);
		if (!anon) {
			char *an = rst_normalize_name(alias, strlen(alias));
			rst_add_target(p->c, text, strlen(text), RST_T_INDIRECT, an, line_of(p, pos));
			free(an);
		}
	} else
		record_ref(p, link, text, anon, pos);
	free(text);
	free(url);
	free(alias);
}

static void link_to(struct il *p, char *text, const char *url, size_t pos)
{
	new_link(p, text, url, pos);
	free(text);
}

/* Interpreted text s[a..b) with a role (NULL: the default role). */
static void interpreted(struct il *p, const char *role, size_t rl, size_t a, size_t b, size_t pos)
{
	char r[64];
	if (rl >= sizeof r)
		rl = sizeof r - 1;
	for (size_t k = 0; k < rl; k++)
		r[k] = (char)(role[k] >= 'A' && role[k] <= 'Z' ? role[k] + 32 : role[k]);
	r[rl] = 0;
	char *text = unescape(p->s, a, b);
	if (!rl || !strcmp(r, "title-reference") || !strcmp(r, "title") || !strcmp(r, "t"))
		custom_text(p, "<cite>", "</cite>", text);
	else if (!strcmp(r, "emphasis"))
		wrap_text(p, CMARK_NODE_EMPH, text);
	else if (!strcmp(r, "strong"))
		wrap_text(p, CMARK_NODE_STRONG, text);
	else if (!strcmp(r, "literal") || !strcmp(r, "code") || !strcmp(r, "command") ||
		 !strcmp(r, "file") || !strcmp(r, "samp"))
		put_code(p, text);
	else if (!strcmp(r, "sub") || !strcmp(r, "subscript"))
		custom_text(p, "<sub>", "</sub>", text);
	else if (!strcmp(r, "sup") || !strcmp(r, "superscript"))
		custom_text(p, "<sup>", "</sup>", text);
	else if (!strcmp(r, "abbreviation") || !strcmp(r, "ab") || !strcmp(r, "acronym") || !strcmp(r, "ac"))
		custom_text(p, "<abbr>", "</abbr>", text);
	else if (!strcmp(r, "math"))
		custom_text(p, "<span class=\"math\">", "</span>", text);
	else if (!strcmp(r, "pep-reference") || !strcmp(r, "pep")) {
		char *url = xasprintf("https://peps.python.org/pep-%04d/", atoi(text));
		char *label = xasprintf("PEP %s", text);
		link_to(p, label, url, pos);
		free(url);
		free(text);
	} else if (!strcmp(r, "rfc-reference") || !strcmp(r, "rfc")) {
		char *url = xasprintf("https://tools.ietf.org/html/rfc%d.html", atoi(text));
		char *label = xasprintf("RFC %s", text);
		link_to(p, label, url, pos);
		free(url);
		free(text);
	} else {
		rst_warn(p->c, line_of(p, pos), "Unknown interpreted text role \"%s\".", r);
		put_text(p->parent, p->s, a, b, false);
		free(text);
	}
}

static void inline_target(struct il *p, size_t a, size_t b, size_t pos)
{
	char *text = unescape(p->s, a, b);
	char *name = rst_normalize_name(text, strlen(text));
	char *id = rst_make_id(name);
	struct buf h = BUF_INIT;
	buf_puts(&h, "<span class=\"target\" id=\"");
	buf_puts_html(&h, id);
	buf_puts(&h, "\">");
	custom_text(p, buf_cstr(&h), "</span>", text);
	rst_add_target(p->c, name, strlen(name), RST_T_ID, id, line_of(p, pos));
	buf_free(&h);
	free(name);
	free(id);
}

static const struct rst_subst *find_subst(struct rst_ctx *c, const char *name)
{
	size_t ix;
	if (hash_get(&c->subst_ix, name, &ix))
		return &c->substs.v[ix];
	char *low = xstrdup(name);
	for (char *q = low; *q; q++)
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q + 32);
	bool hit = hash_get(&c->subst_ci_ix, low, &ix);
	free(low);
	return hit ? &c->substs.v[ix] : NULL;
}

static void substitution(struct il *p, size_t a, size_t b, int refend, size_t pos)
{
	char *name = unescape(p->s, a, b);
	char *norm = rst_normalize_name(name, strlen(name));
	struct rst_subst *sd = (struct rst_subst *)find_subst(p->c, name);
	cmark_node *target = p->parent;
	cmark_node *link = NULL;
	if (refend && sd) {
		link = ast_node_new(CMARK_NODE_LINK);
		ast_set_line(link, line_of(p, pos));
		if (!ast_append(p->parent, link))
			link = NULL;
		else {
			record_ref(p, link, name, refend == 2, pos);
			target = link;
		}
	}
	size_t cost = sd && sd->val ? strlen(sd->val) : 0;
	if (!sd) {
		rst_warn(p->c, line_of(p, pos), "Undefined substitution referenced: \"%s\".", name);
		put_text(p->parent, p->s, a - 1, b + 1 + (size_t)refend, true);
	} else if (cost > p->c->subst_left) {
		if (!p->c->subst_spent)
			rst_warn(p->c, line_of(p, pos),
				 "Substitutions expand to more than %zu bytes in this document: "
				 "\"%s\" and the ones after it are left as written.",
				 p->c->subst_left + cost, name);
		p->c->subst_spent = true;
		put_text(target, p->s, a - 1, b + 1 + (size_t)refend, true);
	} else if (sd->busy || p->c->subst_depth > 8) {
		rst_warn(p->c, line_of(p, pos), "Circular substitution definition referenced: \"%s\".", name);
		ast_append(target, ast_text(name));
	} else if (sd->kind == RST_S_IMAGE) {
		p->c->subst_left -= cost;
		cmark_node *img = ast_node_new(CMARK_NODE_IMAGE);
		ast_set_line(img, line_of(p, pos)); /* for the unsafe-URL warning */
		cmark_node_set_url(img, sd->val);
		ast_append(img, ast_text(sd->alt ? sd->alt : name));
		ast_append(target, img);
	} else {
		p->c->subst_left -= cost;
		sd->busy = true;
		p->c->subst_depth++;
		char *val = xstrdup(sd->val);
		size_t idx = (size_t)(sd - p->c->substs.v);
		rst_inline(p->c, target, val, strlen(val), line_of(p, pos));
		free(val);
		p->c->subst_depth--;
		p->c->substs.v[idx].busy = false;
	}
	free(name);
	free(norm);
}

static void footnote_ref(struct il *p, size_t a, size_t b, size_t pos)
{
	cmark_node *n = add_inline(p, ast_custom_inline("", ""));
	if (!n)
		return;
	struct rst_fn *r = &RST_PUSH(p->c->fnrefs);
	r->node = n;
	r->label = xstrndup(p->s + a, b - a);
	r->line = line_of(p, pos);
	char ch = p->s[a];
	r->citation = !((ch >= '0' && ch <= '9') || ch == '#' || ch == '*');
}

/* Label of a footnote reference "[label]_" at i; its length or 0. */
static size_t footnote_label(const char *s, size_t n, size_t i)
{
	size_t k = i + 1, l;
	if (k < n && s[k] >= '0' && s[k] <= '9') {
		while (k < n && s[k] >= '0' && s[k] <= '9')
			k++;
	} else if (k < n && s[k] == '#') {
		k++;
		k += simplename(s, n, k);
	} else if (k < n && s[k] == '*') {
		k++;
	} else if ((l = simplename(s, n, k)) > 0) {
		k += l;
	} else
		return 0;
	if (k + 1 < n && s[k] == ']' && s[k + 1] == '_' && rst_end_suffix_ok(rst_cp_at(s, n, k + 2, NULL)))
		return k - i - 1;
	return 0;
}

/* ---- standalone URIs and e-mail addresses (between markup) -------------- */

struct implicit {
	size_t run_from, run_end, best; /* URI cache */
	size_t mrun_from, mrun_end;     /* e-mail local-part cache */
};

static bool uric(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       (ch && strchr("-_.!~*'()[];/:@&=+$,%", ch));
}

static bool urilast(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       (ch && strchr("_~*/=+", ch));
}

static bool emailc(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       (ch && strchr("-_!~*'{|}/#?^`&=+$%", ch));
}

/* Largest end e in (lo, R] such that the URI may end there. */
static size_t uri_best_end(struct il *p, size_t lo, size_t R)
{
	const char *s = p->s;
	for (size_t e = R; e > lo; e--) {
		char last = s[e - 1];
		bool ok = urilast(last) || (uric(last) && e < p->n && s[e] == '>');
		if (ok && rst_end_suffix_ok(rst_cp_at(s, p->n, e, NULL)))
			return e;
	}
	return 0;
}

/* A standalone URI at i (segment text); its end or 0. */
static size_t try_uri(struct il *p, struct implicit *im, size_t i, size_t b, size_t *colon)
{
	const char *s = p->s;
	size_t k = i;
	if (!((s[k] | 0x20) >= 'a' && (s[k] | 0x20) <= 'z'))
		return 0;
	while (k < b && k - i < 32 &&
	       (((s[k] | 0x20) >= 'a' && (s[k] | 0x20) <= 'z') || (s[k] >= '0' && s[k] <= '9') || s[k] == '.' ||
		s[k] == '+' || s[k] == '-'))
		k++;
	if (k >= b || s[k] != ':' || !rst_known_scheme(s + i, k - i))
		return 0;
	*colon = k;
	if (!(im->run_from <= k + 1 && k + 1 < im->run_end)) {
		size_t R = k + 1;
		while (R < b && (uric(s[R]) || s[R] == '?' || s[R] == '#'))
			R++;
		im->run_from = k + 1;
		im->run_end = R;
		im->best = uri_best_end(p, k + 1, R);
	}
	return im->best > k + 1 ? im->best : 0;
}

static size_t try_email(struct il *p, struct implicit *im, size_t i, size_t b)
{
	const char *s = p->s;
	if (!(im->mrun_from <= i && i < im->mrun_end)) {
		size_t k = i;
		while (k < b && (emailc(s[k]) || s[k] == '.'))
			k++;
		im->mrun_from = i;
		im->mrun_end = k;
	}
	size_t at = im->mrun_end;
	if (at >= b || s[at] != '@' || at == i || s[i] == '.' || s[at - 1] == '.')
		return 0;
	size_t R = at + 1;
	while (R < b && (emailc(s[R]) || s[R] == '.'))
		R++;
	if (R == at + 1)
		return 0;
	size_t e = uri_best_end(p, at + 1, R);
	return e > at + 1 ? e : 0;
}

static void implicit(struct il *p, size_t a, size_t b)
{
	struct implicit im = {0, 0, 0, 0, 0};
	const char *s = p->s;
	size_t t = a;
	for (size_t i = a; i < b; i++) {
		if (s[i] == '\\') {
			i++;
			continue;
		}
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 0x80 || !emailc((char)ch) || (i > a && rst_is_ascii_alnum(s[i - 1])))
			continue;
		uint32_t prev = i == a ? NOCP : rst_cp_before(s, i);
		if (!rst_start_prefix_ok(prev) || (i > a && s[i - 1] == '\\'))
			continue;
		size_t colon = 0, e = try_uri(p, &im, i, b, &colon);
		bool mail = false;
		if (!e) {
			e = try_email(p, &im, i, b);
			mail = e > 0;
		}
		if (!e)
			continue;
		put_text(p->parent, s, t, i, false);
		char *text = unescape(s, i, e);
		char *url = mail ? xasprintf("mailto:%s", text) : xstrdup(text);
		link_to(p, text, url, i);
		free(url);
		t = e;
		i = e - 1;
	}
	put_text(p->parent, s, t, b, false);
}

/* ---- the main scan ------------------------------------------------------- */

static void flush(struct il *p, size_t upto)
{
	implicit(p, p->seg, upto);
	p->seg = upto;
}

/* Try the markup starting at i: its end (> i), or 0 when there is none
 * (*skip set to the length of a start-string that has no end-string). The
 * text before i is flushed (flush) just before the first node is added. */
static size_t try_markup(struct il *p, size_t i, size_t *skip)
{
	const char *s = p->s;
	size_t n = p->n;
	char ch = s[i];
	uint32_t prev = rst_cp_before(s, i);
	if (!rst_start_prefix_ok(prev))
		return 0;
	if (ch == '*') {
		size_t sl = (i + 1 < n && s[i + 1] == '*') ? 2 : 1;
		uint32_t nx = rst_cp_at(s, n, i + sl, NULL);
		if (nx == NOCP || rst_is_space(nx) || rst_quoted(prev, nx))
			return 0;
		enum kind k = sl == 2 ? K_STRONG : K_EMPH;
		size_t e = find_end(p, k, i + sl + 1, sl == 2 ? "**" : "*", sl);
		if (e >= n) {
			rst_warn(p->c, line_of(p, i), "Inline %s start-string without end-string.",
				 sl == 2 ? "strong" : "emphasis");
			*skip = sl;
			return 0;
		}
		flush(p, i);
		wrap_text(p, sl == 2 ? CMARK_NODE_STRONG : CMARK_NODE_EMPH, unescape(s, i + sl, e));
		return e + sl;
	}
	if (ch == '`' && i + 1 < n && s[i + 1] == '`') {
		uint32_t nx = rst_cp_at(s, n, i + 2, NULL);
		if (nx == NOCP || rst_is_space(nx) || rst_quoted(prev, nx))
			return 0;
		size_t e = find_end(p, K_LITERAL, i + 3, "``", 2);
		if (e >= n) {
			rst_warn(p->c, line_of(p, i), "Inline literal start-string without end-string.");
			*skip = 2;
			return 0;
		}
		flush(p, i);
		char *lit = xstrndup(s + i + 2, e - i - 2);
		for (char *q = lit; *q; q++)
			if (*q == '\n')
				*q = ' ';
		put_code(p, lit);
		return e + 2;
	}
	if (ch == '`' || (ch == ':' && i + 1 < n)) {
		size_t role = 0, rl = 0, open = i;
		if (ch == ':') {
			rl = simplename(s, n, i + 1);
			if (!rl || i + rl + 2 >= n || s[i + rl + 1] != ':' || s[i + rl + 2] != '`' ||
			    (i + rl + 3 < n && s[i + rl + 3] == '`'))
				return 0;
			role = i + 1;
			open = i + rl + 2;
		}
		uint32_t nx = rst_cp_at(s, n, open + 1, NULL);
		if (nx == NOCP || rst_is_space(nx) || rst_quoted(prev, nx))
			return 0;
		size_t srole = 0, srl = 0, end = 0;
		int refend = 0;
		size_t e = find_interp_end(p, open + 2, &srole, &srl, &refend, &end);
		if (e >= n) {
			rst_warn(p->c, line_of(p, i), "Inline interpreted text or phrase reference start-string "
						      "without end-string.");
			*skip = (open + 1 - i);
			return 0;
		}
		flush(p, i);
		if (role && srole)
			rst_warn(p->c, line_of(p, i), "Multiple roles in interpreted text (both prefix and suffix "
						      "present; only one allowed).");
		if (!role && srole) {
			role = srole;
			rl = srl;
		}
		if (refend) {
			if (role)
				rst_warn(p->c, line_of(p, i), "Mismatch: both interpreted text role %s and "
							      "reference suffix.", srole ? "suffix" : "prefix");
			phrase_ref(p, open + 1, e, refend == 2, i);
		} else
			interpreted(p, role ? s + role : NULL, rl, open + 1, e, i);
		return end;
	}
	if (ch == '_' && i + 1 < n && s[i + 1] == '`') {
		uint32_t nx = rst_cp_at(s, n, i + 2, NULL);
		if (nx == NOCP || rst_is_space(nx) || rst_quoted(prev, nx))
			return 0;
		size_t e = find_end(p, K_TARGET, i + 3, "`", 1);
		if (e >= n) {
			rst_warn(p->c, line_of(p, i), "Inline target start-string without end-string.");
			*skip = 2;
			return 0;
		}
		flush(p, i);
		inline_target(p, i + 2, e, i);
		return e + 1;
	}
	if (ch == '|' && i + 1 < n && s[i + 1] != '|') {
		uint32_t nx = rst_cp_at(s, n, i + 1, NULL);
		if (nx == NOCP || rst_is_space(nx) || rst_quoted(prev, nx))
			return 0;
		size_t e = i + 2;
		int refend = 0;
		if (i + 2 >= p->fail[K_SUBST])
			e = n;
		for (; e < n; e++) {
			if (s[e] != '|')
				continue;
			uint32_t pv = rst_cp_before(s, e);
			if (rst_is_space(pv) || backslashes_before(s, e, 0) % 2)
				continue;
			int u;
			for (u = 2; u >= 0; u--) {
				bool ok = true;
				for (int q = 0; q < u; q++)
					if (e + 1 + (size_t)q >= n || s[e + 1 + (size_t)q] != '_')
						ok = false;
				if (ok && rst_end_suffix_ok(rst_cp_at(s, n, e + 1 + (size_t)u, NULL)))
					break;
			}
			if (u >= 0) {
				refend = u;
				break;
			}
		}
		if (e >= n) {
			if (i + 2 < p->fail[K_SUBST])
				p->fail[K_SUBST] = i + 2;
			rst_warn(p->c, line_of(p, i), "Inline substitution_reference start-string without "
						      "end-string.");
			*skip = 1;
			return 0;
		}
		flush(p, i);
		substitution(p, i + 1, e, refend, i);
		return e + 1 + (size_t)refend;
	}
	if (ch == '[') {
		size_t l = footnote_label(s, n, i);
		if (!l)
			return 0;
		flush(p, i);
		footnote_ref(p, i + 1, i + 1 + l, i);
		return i + l + 3;
	}
	if (rst_is_word(rst_cp_at(s, n, i, NULL))) {
		size_t end;
		if (p->name_run_from <= i && i < p->name_run_end)
			end = p->name_run_end;
		else {
			end = i + simplename(s, n, i);
			p->name_run_from = i;
			p->name_run_end = end;
		}
		if (end >= n || s[end] != '_')
			return 0;
		int u = (end + 1 < n && s[end + 1] == '_') ? 2 : 1;
		if (!rst_end_suffix_ok(rst_cp_at(s, n, end + (size_t)u, NULL))) {
			if (u == 1 || !rst_end_suffix_ok(rst_cp_at(s, n, end + 1, NULL)))
				return 0;
			u = 1;
		}
		flush(p, i);
		char *name = xstrndup(s + i, end - i);
		cmark_node *link = new_link(p, name, NULL, i);
		record_ref(p, link, name, u == 2, i);
		free(name);
		return end + (size_t)u;
	}
	return 0;
}

void rst_inline(struct rst_ctx *c, cmark_node *parent, const char *s, size_t n, int line)
{
	if (!parent)
		return;
	struct il p;
	memset(&p, 0, sizeof p);
	p.c = c;
	p.parent = parent;
	p.s = s;
	p.n = n;
	p.line0 = p.lline = line;
	for (int k = 0; k < K_N; k++)
		p.fail[k] = (size_t)-1;
	for (size_t i = 0; i < n;) {
		char ch = s[i];
		if (ch == '\\') {
			i += 2;
			continue;
		}
		if (!(ch == '*' || ch == '`' || ch == '_' || ch == '|' || ch == '[' || ch == ':' ||
		      (unsigned char)ch >= 0x80 || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z') ||
		      (ch >= '0' && ch <= '9'))) {
			i++;
			continue;
		}
		if (i > 0 && rst_is_ascii_alnum(s[i - 1]) && rst_is_ascii_alnum(ch)) {
			i++; /* inside a word: no start-string can begin here */
			continue;
		}
		size_t skip = 0;
		size_t r = try_markup(&p, i, &skip);
		if (r == 0 && skip) {
			i += skip; /* no end-string: the start-string stays text */
		} else if (r == 0) {
			size_t l = 1;
			rst_cp_at(s, n, i, &l);
			i += l ? l : 1;
		} else {
			i = r;
			p.seg = r;
		}
	}
	implicit(&p, p.seg, n);
}
