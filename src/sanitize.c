/* sanitize: the raw-HTML allowlist and the URL scheme check (see sanitize.h).
 * A small HTML tokenizer that follows the HTML5 tokenizer where it matters
 * for safety (tag and attribute names end at whitespace, '/' or '>'; a '/'
 * inside a tag separates attributes; values are quoted or end at whitespace
 * or '>'), and re-emits only what the tables below allow. Level 2; calls buf,
 * diag, xalloc. */
#include "sanitize.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ---- tables ------------------------------------------------------------ */

enum { EL_VOID = 1 };

struct elem {
	const char *name;
	const char *attrs; /* space-separated, besides GLOBAL_ATTRS */
	unsigned flags;
};

static const char GLOBAL_ATTRS[] = "id title lang dir align aria-label aria-hidden";

static const struct elem ELEMS[] = {
	{"a", "href name", 0},
	{"abbr", "", 0},
	{"b", "", 0},
	{"bdi", "", 0},
	{"bdo", "", 0},
	{"blockquote", "cite", 0},
	{"br", "", EL_VOID},
	{"caption", "", 0},
	{"cite", "", 0},
	{"code", "", 0},
	{"dd", "", 0},
	{"del", "cite datetime", 0},
	{"details", "open", 0},
	{"dfn", "", 0},
	{"div", "", 0},
	{"dl", "", 0},
	{"dt", "", 0},
	{"em", "", 0},
	{"figcaption", "", 0},
	{"figure", "", 0},
	{"h1", "", 0},
	{"h2", "", 0},
	{"h3", "", 0},
	{"h4", "", 0},
	{"h5", "", 0},
	{"h6", "", 0},
	{"hr", "", EL_VOID},
	{"i", "", 0},
	{"img", "src alt width height", EL_VOID},
	{"ins", "cite datetime", 0},
	{"kbd", "", 0},
	{"li", "value", 0},
	{"mark", "", 0},
	{"ol", "start type reversed", 0},
	{"p", "", 0},
	{"picture", "", 0},
	{"pre", "", 0},
	{"q", "cite", 0},
	{"rp", "", 0},
	{"rt", "", 0},
	{"ruby", "", 0},
	{"s", "", 0},
	{"samp", "", 0},
	{"small", "", 0},
	{"source", "srcset media type width height", EL_VOID},
	{"span", "", 0},
	{"strike", "", 0},
	{"strong", "", 0},
	{"sub", "", 0},
	{"summary", "", 0},
	{"sup", "", 0},
	{"table", "width border", 0},
	{"tbody", "", 0},
	{"td", "colspan rowspan valign width", 0},
	{"tfoot", "", 0},
	{"th", "colspan rowspan valign width scope", 0},
	{"thead", "", 0},
	{"time", "datetime", 0},
	{"tr", "valign", 0},
	{"tt", "", 0},
	{"u", "", 0},
	{"ul", "type", 0},
	{"var", "", 0},
	{"wbr", "", EL_VOID},
};

/* Known elements that are dropped, and with them everything up to their end tag. */
static const char DROP_CONTENT[] = "script style iframe object noscript template title textarea "
				   "xmp noembed noframes plaintext svg math";
/* Known elements whose tag alone is dropped. */
static const char DROP_TAG[] = "embed form input button select option optgroup meta link base "
			       "frame frameset applet audio video track canvas html head body "
			       "param dialog marquee label fieldset legend datalist output "
			       "keygen menu image isindex area map col colgroup center font big "
			       "blink nav section article aside header footer main address "
			       "hgroup portal slot";

/* Every HTML5 named character reference whose value is ASCII. Any other
 * named reference decodes to non-ASCII text, which can neither form a URL
 * scheme nor be markup, so it may stay undecoded in attribute values. */
static const struct {
	const char *name, *val;
} ASCII_REFS[] = {
	{"AMP", "&"}, {"DiacriticalGrave", "`"}, {"GT", ">"}, {"Hat", "^"},
	{"LT", "<"}, {"NewLine", "\n"}, {"QUOT", "\""}, {"Tab", "\t"},
	{"UnderBar", "_"}, {"VerticalLine", "|"}, {"amp", "&"}, {"apos", "'"},
	{"ast", "*"}, {"bsol", "\\"}, {"colon", ":"}, {"comma", ","},
	{"commat", "@"}, {"dollar", "$"}, {"equals", "="}, {"excl", "!"},
	{"fjlig", "fj"}, {"grave", "`"}, {"gt", ">"}, {"lbrace", "{"},
	{"lbrack", "["}, {"lcub", "{"}, {"lowbar", "_"}, {"lpar", "("},
	{"lsqb", "["}, {"lt", "<"}, {"midast", "*"}, {"num", "#"},
	{"percnt", "%"}, {"period", "."}, {"plus", "+"}, {"quest", "?"},
	{"quot", "\""}, {"rbrace", "}"}, {"rbrack", "]"}, {"rcub", "}"},
	{"rpar", ")"}, {"rsqb", "]"}, {"semi", ";"}, {"sol", "/"},
	{"verbar", "|"}, {"vert", "|"},
};

/* ---- small helpers ----------------------------------------------------- */

static bool is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(unsigned char c)
{
	return is_alpha(c) || is_digit(c);
}

static bool is_hex(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Whitespace as the HTML tokenizer sees it. */
static bool is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

static char lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static bool ci_eq(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (lower(a[i]) != lower(b[i]))
			return false;
	return true;
}

/* Is the word w (length n) one of the space-separated words of list? */
static bool in_list(const char *list, const char *w, size_t n)
{
	const char *p = list;
	while (*p) {
		while (*p == ' ')
			p++;
		const char *e = p;
		while (*e && *e != ' ')
			e++;
		if ((size_t)(e - p) == n && n && memcmp(p, w, n) == 0)
			return true;
		p = e;
	}
	return false;
}

static const struct elem *elem_find(const char *name)
{
	for (size_t i = 0; i < sizeof ELEMS / sizeof ELEMS[0]; i++)
		if (strcmp(ELEMS[i].name, name) == 0)
			return &ELEMS[i];
	return NULL;
}

static void put_utf8(struct buf *b, uint32_t cp)
{
	char u[4];
	size_t n;
	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xC0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		u[0] = (char)(0xF0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	buf_put(b, u, n);
}

static const char REPLACEMENT[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* ---- character references ---------------------------------------------- */

enum ref_kind { REF_NONE, REF_NUM, REF_NAMED };

struct ref {
	enum ref_kind kind;
	size_t len;        /* bytes consumed, '&' and any ';' included */
	bool semi;         /* ended with ';' */
	bool valid;        /* REF_NUM: names a code point a reference may produce */
	uint32_t cp;       /* REF_NUM: the code point, already fixed up */
	const char *ascii; /* REF_NAMED: the value when it is ASCII, else NULL */
};

/* Code points a numeric reference may not produce become U+FFFD (HTML5). */
static uint32_t cp_fix(uint32_t cp)
{
	if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0xFFFD;
	return cp;
}

static struct ref ref_numeric(const char *s, size_t n)
{
	struct ref r = {REF_NONE, 0, false, false, 0, NULL};
	size_t i = 2;
	bool hex = i < n && (s[i] == 'x' || s[i] == 'X');
	if (hex)
		i++;
	size_t start = i;
	uint32_t v = 0;
	while (i < n && (hex ? is_hex((unsigned char)s[i]) : is_digit((unsigned char)s[i]))) {
		unsigned d = is_digit((unsigned char)s[i]) ? (unsigned)(s[i] - '0')
							   : (unsigned)(lower(s[i]) - 'a' + 10);
		if (v <= 0x10FFFF)
			v = v * (hex ? 16u : 10u) + d;
		i++;
	}
	if (i == start)
		return r;
	r.kind = REF_NUM;
	r.cp = cp_fix(v);
	r.valid = r.cp == v;
	r.semi = i < n && s[i] == ';';
	r.len = i + (r.semi ? 1 : 0);
	return r;
}

/* Parse a character reference at s (s[0] == '&'). Named references count only
 * with their ';' (the legacy ones without it are left as text: safe, at worst
 * shown literally). */
static struct ref ref_parse(const char *s, size_t n)
{
	struct ref r = {REF_NONE, 0, false, false, 0, NULL};
	if (n >= 2 && s[1] == '#')
		return ref_numeric(s, n);
	size_t i = 1;
	if (i >= n || !is_alpha((unsigned char)s[i]))
		return r;
	while (i < n && i <= 40 && is_alnum((unsigned char)s[i]))
		i++;
	if (i >= n || s[i] != ';' || i > 40)
		return r;
	r.kind = REF_NAMED;
	r.semi = true;
	r.len = i + 1;
	for (size_t k = 0; k < sizeof ASCII_REFS / sizeof ASCII_REFS[0]; k++) {
		size_t kn = strlen(ASCII_REFS[k].name);
		if (kn == i - 1 && memcmp(ASCII_REFS[k].name, s + 1, kn) == 0) {
			r.ascii = ASCII_REFS[k].val;
			break;
		}
	}
	return r;
}

/* ---- text --------------------------------------------------------------- */

/* Append text: '<' and '>' escaped, '&' kept only when it starts a well-formed
 * reference, NUL replaced. Quotes are left alone (text, not an attribute). */
static void text_put(struct buf *out, const char *s, size_t n)
{
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c != '<' && c != '>' && c != '&' && c != '\0')
			continue;
		buf_put(out, s + start, i - start);
		start = i + 1;
		if (c == '<') {
			buf_puts(out, "&lt;");
		} else if (c == '>') {
			buf_puts(out, "&gt;");
		} else if (c == '\0') {
			buf_puts(out, REPLACEMENT);
		} else {
			struct ref r = ref_parse(s + i, n - i);
			if (r.kind == REF_NONE || (r.kind == REF_NUM && !r.valid)) {
				buf_puts(out, "&amp;");
				continue;
			}
			buf_put(out, s + i, r.len);
			if (!r.semi)
				buf_putc(out, ';');
			i += r.len - 1;
			start = i + 1;
		}
	}
	buf_put(out, s + start, n - start);
}

/* ---- attribute values ---------------------------------------------------- */

/* Decode an attribute value twice over: `chk` gets what a browser will see
 * (references decoded; a named reference with a non-ASCII value left as
 * written, NUL kept) for checking; `emit` gets the same value re-escaped for a
 * double-quoted attribute. Whatever a browser decodes from `emit` agrees with
 * `chk` on every ASCII character, which is all a scheme check looks at. */
static void attr_decode(const char *s, size_t n, struct buf *chk, struct buf *emit)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\0') {
			buf_putc(chk, '\0');
			buf_puts(emit, REPLACEMENT);
			continue;
		}
		if (c != '&') {
			buf_putc(chk, c);
			buf_put_html(emit, &c, 1);
			continue;
		}
		struct ref r = ref_parse(s + i, n - i);
		if (r.kind == REF_NONE) {
			buf_putc(chk, '&');
			buf_puts(emit, "&amp;");
			continue;
		}
		if (r.kind == REF_NAMED && r.ascii) {
			buf_puts(chk, r.ascii);
			buf_puts_html(emit, r.ascii);
		} else if (r.kind == REF_NAMED) {
			buf_put(chk, s + i, r.len);
			buf_put(emit, s + i, r.len);
		} else if (r.cp < 0x20 || (r.cp >= 0x7F && r.cp <= 0x9F)) {
			/* controls (and the C1 range, which browsers remap) stay references */
			put_utf8(chk, r.cp >= 0x80 ? 0xFFFD : r.cp);
			buf_printf(emit, "&#%u;", (unsigned)r.cp);
		} else if (r.cp < 0x80) {
			char a = (char)r.cp;
			buf_putc(chk, a);
			buf_put_html(emit, &a, 1);
		} else {
			put_utf8(chk, r.cp);
			put_utf8(emit, r.cp);
		}
		i += r.len - 1;
	}
}

/* ---- URLs ----------------------------------------------------------------- */

/* Whether u[0..n) holds a control byte (below 0x20, or 0x7F): sixteen
 * bytes at a time (a URL is checked as each link is read), the last
 * sixteen overlapping what was looked at. */
static bool holds_control(const char *u, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	if (n >= 16) {
		const __m128i ctl = _mm_set1_epi8(0x1f), del = _mm_set1_epi8(0x7f);
		for (;; i += 16) {
			if (i + 16 > n)
				i = n - 16;
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(u + i));
			__m128i m = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v),
						 _mm_cmpeq_epi8(v, del));
			if (_mm_movemask_epi8(m))
				return true;
			if (i + 16 == n)
				return false;
		}
	}
#endif
	for (; i < n; i++)
		if ((unsigned char)u[i] < 0x20 || u[i] == 0x7F)
			return true;
	return false;
}

static bool url_check(const char *u, size_t n, bool allow_mailto)
{
	while (n && (unsigned char)u[0] <= 0x20) {
		u++;
		n--;
	}
	while (n && (unsigned char)u[n - 1] <= 0x20)
		n--;
	if (holds_control(u, n))
		return false;
	size_t i = 0;
	while (i < n && u[i] != ':' && u[i] != '/' && u[i] != '?' && u[i] != '#')
		i++;
	if (i == n || u[i] != ':')
		return true; /* relative reference or #fragment */
	/* a ':' in the first segment: it must be an allowed scheme */
	if ((i == 4 && ci_eq(u, "http", 4)) || (i == 5 && ci_eq(u, "https", 5)))
		return true;
	return allow_mailto && i == 6 && ci_eq(u, "mailto", 6);
}

bool sanitize_url_ok(const char *url, size_t n)
{
	if (!url)
		return false;
	return url_check(url, n, true);
}

/* srcset: comma-separated candidates "URL [descriptor]". Every URL must pass. */
static bool srcset_ok(const char *s, size_t n)
{
	size_t i = 0;
	bool any = false;
	while (i < n) {
		while (i < n && (is_ws((unsigned char)s[i]) || s[i] == ','))
			i++;
		if (i >= n)
			break;
		size_t b = i;
		while (i < n && !is_ws((unsigned char)s[i]))
			i++;
		size_t e = i;
		bool ended = false;
		while (e > b && s[e - 1] == ',') {
			e--;
			ended = true;
		}
		if (!url_check(s + b, e - b, false))
			return false;
		any = true;
		if (ended)
			continue;
		while (i < n && s[i] != ',') /* descriptors */
			i++;
	}
	return any;
}

/* ---- the tokenizer state -------------------------------------------------- */

struct attr {
	size_t k, kn; /* name */
	size_t v, vn; /* value */
	bool has_v;
};

struct tag {
	char name[16];  /* lower-cased; "" when too long or not [a-z0-9]+ */
	bool end;       /* "</x>" */
	size_t stop;    /* index just after '>' */
	struct attr *a;
	size_t na, cap;
};

struct san {
	const char *s;
	size_t n;
	struct buf *out;
	const char *path;
	int line;
	struct diags *d;
	size_t line_pos; /* newlines counted up to here */
	int line_no;
	struct tag t;    /* reused for every tag */
	struct buf chk, emit, seen, dropped;
};

static int line_at(struct san *st, size_t pos)
{
	for (; st->line_pos < pos && st->line_pos < st->n; st->line_pos++)
		if (st->s[st->line_pos] == '\n')
			st->line_no++;
	return st->line_no;
}

static void warn(struct san *st, size_t pos, const char *fmt, const char *a, const char *b)
{
	if (!st->d)
		return;
	int line = line_at(st, pos);
	diag_addc(st->d, SEV_WARNING, "raw-html", st->path, line, 0, fmt, a, b);
}

/* Append a hostile attribute name to a message: printable ASCII only, short. */
static void put_name_for_msg(struct buf *b, const char *s, size_t n)
{
	size_t lim = n > 24 ? 24 : n;
	for (size_t i = 0; i < lim; i++) {
		unsigned char c = (unsigned char)s[i];
		buf_putc(b, (c > 0x20 && c < 0x7F) ? lower((char)c) : '?');
	}
	if (n > lim)
		buf_puts(b, "...");
}

/* Read a tag name at s[i]: it ends at whitespace, '/' or '>'. Sets t->name
 * (lower-cased) or "" when it is not a plausible element name. */
static size_t tag_name(struct san *st, size_t i, struct tag *t)
{
	size_t b = i;
	while (i < st->n && !is_ws((unsigned char)st->s[i]) && st->s[i] != '/' && st->s[i] != '>')
		i++;
	size_t len = i - b;
	t->name[0] = '\0';
	if (len >= sizeof t->name)
		return i;
	for (size_t k = 0; k < len; k++) {
		char c = lower(st->s[b + k]);
		if (!is_alnum((unsigned char)c))
			return i;
		t->name[k] = c;
	}
	t->name[len] = '\0';
	return i;
}

static void push_attr(struct tag *t, struct attr a)
{
	t->a = xgrow(t->a, &t->cap, t->na + 1, sizeof *t->a);
	t->a[t->na++] = a;
}

/* Parse one attribute at s[j] (not whitespace, not '/', not '>'). Returns the
 * index after it, or n when the tag runs off the end of the fragment. */
static size_t attr_parse(struct san *st, size_t j, struct tag *t)
{
	const char *s = st->s;
	size_t n = st->n;
	struct attr a = {j, 0, 0, 0, false};
	j++; /* the first character may be '=' */
	while (j < n && !is_ws((unsigned char)s[j]) && s[j] != '/' && s[j] != '>' && s[j] != '=')
		j++;
	a.kn = j - a.k;
	size_t k = j;
	while (k < n && is_ws((unsigned char)s[k]))
		k++;
	if (k >= n || s[k] != '=') {
		push_attr(t, a);
		return k;
	}
	k++;
	while (k < n && is_ws((unsigned char)s[k]))
		k++;
	if (k >= n)
		return n;
	a.has_v = true;
	if (s[k] == '"' || s[k] == '\'') {
		const char *q = memchr(s + k + 1, s[k], n - k - 1);
		if (!q)
			return n;
		a.v = k + 1;
		a.vn = (size_t)(q - (s + k + 1));
		push_attr(t, a);
		return (size_t)(q - s) + 1;
	}
	a.v = k;
	while (k < n && !is_ws((unsigned char)s[k]) && s[k] != '>')
		k++;
	a.vn = k - a.v;
	push_attr(t, a);
	return k;
}

/* Parse a tag starting at s[i] == '<' (followed by a letter, or by '/' and a
 * letter). Returns false when it is not terminated by '>' in the fragment. */
static bool tag_parse(struct san *st, size_t i, struct tag *t)
{
	const char *s = st->s;
	size_t n = st->n;
	t->na = 0;
	t->end = s[i + 1] == '/';
	size_t j = tag_name(st, i + (t->end ? 2 : 1), t);
	for (;;) {
		/* a '/' separates attributes; "/>" ends like ">" (the table says what is void) */
		while (j < n && (is_ws((unsigned char)s[j]) || s[j] == '/'))
			j++;
		if (j >= n)
			return false;
		if (s[j] == '>') {
			t->stop = j + 1;
			return true;
		}
		j = attr_parse(st, j, t);
	}
}

/* ---- emitting a kept tag ---------------------------------------------------- */

static bool attr_allowed(const struct elem *e, const char *name, size_t n)
{
	return in_list(GLOBAL_ATTRS, name, n) || in_list(e->attrs, name, n);
}

static bool is_url_attr(const char *name)
{
	return !strcmp(name, "href") || !strcmp(name, "src") || !strcmp(name, "cite");
}

static void note_dropped(struct san *st, size_t *count, const char *s, size_t n)
{
	if (++*count > 4)
		return;
	if (st->dropped.n)
		buf_puts(&st->dropped, ", ");
	put_name_for_msg(&st->dropped, s, n);
}

/* A URL holding a control character or NUL (other than the whitespace a
 * browser trims) is refused wherever it sits. (fuzz_sanitize: one at the end
 * was ignored, then the NUL became U+FFFD and the next pass saw the control
 * inside: the output was not a fixed point.) */
static bool has_control(const struct buf *v)
{
	for (size_t k = 0; k < v->n; k++) {
		unsigned char c = (unsigned char)v->p[k];
		if ((c < 0x20 && !is_ws(c)) || c == 0x7f)
			return true;
	}
	return false;
}

/* Emit one attribute of a kept element, or drop it. */
static void attr_emit(struct san *st, const struct elem *e, const struct attr *a,
		      size_t *ndropped, size_t tagpos)
{
	char name[24];
	const char *s = st->s;
	if (a->kn >= sizeof name) {
		note_dropped(st, ndropped, s + a->k, a->kn);
		return;
	}
	for (size_t i = 0; i < a->kn; i++)
		name[i] = lower(s[a->k + i]);
	name[a->kn] = '\0';
	if (!attr_allowed(e, name, a->kn)) {
		note_dropped(st, ndropped, s + a->k, a->kn);
		return;
	}
	if (in_list(buf_cstr(&st->seen), name, a->kn))
		return; /* a duplicate: browsers keep the first */
	buf_puts(&st->seen, name);
	buf_putc(&st->seen, ' ');
	buf_reset(&st->chk);
	buf_reset(&st->emit);
	attr_decode(s + a->v, a->vn, &st->chk, &st->emit);
	bool ok = true;
	if (is_url_attr(name))
		ok = !has_control(&st->chk) &&
		     url_check(st->chk.p ? st->chk.p : "", st->chk.n, !strcmp(name, "href"));
	else if (!strcmp(name, "srcset"))
		ok = !has_control(&st->chk) && srcset_ok(st->chk.p ? st->chk.p : "", st->chk.n);
	if (!ok) {
		warn(st, tagpos, "raw HTML <%s>: unsafe URL in %s dropped", e->name, name);
		return;
	}
	buf_printf(st->out, " %s=\"", name);
	buf_put(st->out, st->emit.p ? st->emit.p : "", st->emit.n);
	buf_putc(st->out, '"');
}

static void tag_emit(struct san *st, const struct elem *e, size_t tagpos)
{
	struct tag *t = &st->t;
	if (t->end) {
		if (!(e->flags & EL_VOID))
			buf_printf(st->out, "</%s>", e->name);
		return;
	}
	buf_reset(&st->seen);
	buf_reset(&st->dropped);
	size_t ndropped = 0;
	buf_printf(st->out, "<%s", e->name);
	for (size_t i = 0; i < t->na; i++)
		attr_emit(st, e, &t->a[i], &ndropped, tagpos);
	buf_puts(st->out, (e->flags & EL_VOID) ? " />" : ">");
	if (ndropped > 4)
		buf_printf(&st->dropped, " and %zu more", ndropped - 4);
	if (ndropped)
		warn(st, tagpos, "raw HTML <%s>: dropped attribute(s) %s", e->name,
		     buf_cstr(&st->dropped));
}

/* ---- the main loop ------------------------------------------------------------ */

/* Skip the content of a dropped element up to and including its end tag. */
static size_t skip_content(struct san *st, size_t i, const char *name)
{
	size_t len = strlen(name);
	const char *s = st->s;
	size_t n = st->n;
	for (; i + 2 + len <= n; i++) {
		if (s[i] != '<' || s[i + 1] != '/' || !ci_eq(s + i + 2, name, len))
			continue;
		size_t j = i + 2 + len;
		if (j < n && !is_ws((unsigned char)s[j]) && s[j] != '/' && s[j] != '>')
			continue;
		const char *gt = memchr(s + j, '>', n - j);
		return gt ? (size_t)(gt - s) + 1 : n;
	}
	return n;
}

/* A comment starts at s[i] ("<!--"): return the index after it. */
static size_t skip_comment(struct san *st, size_t i)
{
	const char *s = st->s;
	size_t n = st->n;
	size_t j = i + 4;
	if (j < n && s[j] == '>')
		return j + 1;
	if (j + 1 < n && s[j] == '-' && s[j + 1] == '>')
		return j + 2;
	for (; j + 2 < n; j++) {
		if (s[j] != '-' || s[j + 1] != '-')
			continue;
		if (s[j + 2] == '>')
			return j + 3;
		if (j + 3 < n && s[j + 2] == '!' && s[j + 3] == '>')
			return j + 4;
	}
	return n;
}

/* Handle a tag at s[i] == '<'; return where to continue. */
static size_t do_tag(struct san *st, size_t i)
{
	struct tag *t = &st->t;
	if (!tag_parse(st, i, t)) {
		/* unterminated: a browser would swallow the rest; show it as text */
		text_put(st->out, st->s + i, st->n - i);
		return st->n;
	}
	const struct elem *e = t->name[0] ? elem_find(t->name) : NULL;
	if (e) {
		tag_emit(st, e, i);
		return t->stop;
	}
	size_t len = strlen(t->name);
	if (len && in_list(DROP_CONTENT, t->name, len)) {
		if (t->end)
			return t->stop;
		warn(st, i, "raw HTML <%s> dropped%s", t->name, " with its content");
		return skip_content(st, t->stop, t->name);
	}
	if (len && in_list(DROP_TAG, t->name, len)) {
		if (!t->end)
			warn(st, i, "raw HTML <%s> dropped%s", t->name, "");
		return t->stop;
	}
	text_put(st->out, st->s + i, t->stop - i);
	return t->stop;
}

static void run(struct san *st)
{
	const char *s = st->s;
	size_t n = st->n, i = 0;
	while (i < n) {
		const char *lt = memchr(s + i, '<', n - i);
		size_t j = lt ? (size_t)(lt - s) : n;
		text_put(st->out, s + i, j - i);
		if (j >= n)
			break;
		i = j;
		unsigned char c1 = i + 1 < n ? (unsigned char)s[i + 1] : 0;
		unsigned char c2 = i + 2 < n ? (unsigned char)s[i + 2] : 0;
		if (c1 == '!' && i + 3 < n && c2 == '-' && s[i + 3] == '-')
			i = skip_comment(st, i);
		else if (is_alpha(c1) || (c1 == '/' && is_alpha(c2)))
			i = do_tag(st, i);
		else {
			buf_puts(st->out, "&lt;"); /* "<" alone, "<!DOCTYPE", "<?", "</ x>" */
			i++;
		}
	}
}

void sanitize_html(const char *in, size_t n, struct buf *out, const char *path, int line,
		   struct diags *d)
{
	if (!in || !n) {
		buf_put(out, "", 0);
		return;
	}
	struct san st = {
		.s = in, .n = n, .out = out, .path = path ? path : "", .line = line, .d = d,
		.line_pos = 0, .line_no = line,
		.chk = BUF_INIT, .emit = BUF_INIT, .seen = BUF_INIT, .dropped = BUF_INIT,
	};
	run(&st);
	free(st.t.a);
	buf_free(&st.chk);
	buf_free(&st.emit);
	buf_free(&st.seen);
	buf_free(&st.dropped);
}
