/* url: parsing absolute URLs into parts, canonicalisation, the scheme safety
 * check, host/path accessors and taxonomy glob patterns (see url.h). Pure
 * string code: calls only buf, utf8 and xalloc. */
#include "url.h"
#include "buf.h"
#include "utf8.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- small helpers -------------------------------------------------------- */

static bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

static int hexval(int c)
{
	if (is_digit(c))
		return c - '0';
	c = lower(c);
	return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

/* What each byte may be written as in a URL: 1 unreserved (RFC 3986:
 * letters, digits, "-._~"), 2 a sub-delimiter or one of ":@/" (written as
 * they are in a path or query), 4 '?' (as it is in a query only). A look-up,
 * not a test per class: canonical forms ask it of every byte of 200,000
 * URLs. */
enum { URL_UNRESERVED = 1, URL_SUB = 2, URL_QMARK = 4 };
static const unsigned char url_class[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 2, 0, 0, 2, 0, 2, 2, 2, 2, 2, 2, 2, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 0, 2, 0, 4,
	2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static bool is_unreserved(int c)
{
	return c >= 0 && c < 256 && (url_class[c] & URL_UNRESERVED);
}

static bool str_ieq(struct str s, const char *c)
{
	size_t n = strlen(c);
	if (s.n != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lower((unsigned char)s.p[i]) != lower((unsigned char)c[i]))
			return false;
	return true;
}

static bool str_iprefix(struct str s, const char *c)
{
	size_t n = strlen(c);
	return s.n >= n && str_ieq((struct str){s.p, n}, c);
}

/* A copy of url without surrounding whitespace/C0 controls and without any
 * tab, CR or LF inside. */
static char *url_trim(const char *url)
{
	size_t n = strlen(url);
	while (n > 0 && (unsigned char)url[n - 1] <= ' ')
		n--;
	while (n > 0 && (unsigned char)*url <= ' ')
		url++, n--;
	char *out = xmalloc(n + 1), *w = out;
	for (size_t i = 0; i < n; i++)
		if (url[i] != '\t' && url[i] != '\r' && url[i] != '\n')
			*w++ = url[i];
	*w = '\0';
	return out;
}

/* ---- splitting ------------------------------------------------------------ */

struct url_parts {
	struct str scheme, host, port, path, query;
	bool has_query;
};

static bool host_char_ok(unsigned char c)
{
	return is_unreserved(c) || c >= 0x80;
}

static bool host_ok(struct str h)
{
	if (h.n == 0)
		return false;
	if (h.p[0] == '[') {
		if (h.n < 3 || h.p[h.n - 1] != ']')
			return false;
		for (size_t i = 1; i + 1 < h.n; i++)
			if (hexval((unsigned char)h.p[i]) < 0 && h.p[i] != ':' && h.p[i] != '.')
				return false;
		return true;
	}
	for (size_t i = 0; i < h.n; i++) {
		if (h.p[i] == '%' && i + 2 < h.n && hexval((unsigned char)h.p[i + 1]) >= 0 &&
		    hexval((unsigned char)h.p[i + 2]) >= 0) {
			i += 2;
			continue;
		}
		if (!host_char_ok((unsigned char)h.p[i]))
			return false;
	}
	return true;
}

/* The host as the canonical URL writes it: printable ASCII, so the bytes of
 * an internationalised name are percent-encoded (host_norm already wrote
 * every escape in one spelling): canonicalising again changes nothing. */
static void host_put(struct buf *out, const char *h)
{
	for (size_t i = 0; h[i]; i++) {
		unsigned char c = (unsigned char)h[i];
		if (c >= 0x80)
			buf_printf(out, "%%%02X", c);
		else
			buf_putc(out, (char)c);
	}
}

/* Split the authority a[0..n) into host and port, dropping userinfo. */
static bool split_authority(const char *a, size_t n, struct url_parts *u)
{
	const char *at = NULL;
	for (size_t i = 0; i < n; i++)
		if (a[i] == '@')
			at = a + i;
	if (at) {
		n -= (size_t)(at + 1 - a);
		a = at + 1;
	}
	size_t hn = n;
	if (n > 0 && a[0] == '[') {
		const char *close = memchr(a, ']', n);
		if (!close)
			return false;
		hn = (size_t)(close + 1 - a);
		if (hn < n && a[hn] != ':')
			return false;
	} else {
		const char *colon = memchr(a, ':', n);
		if (colon)
			hn = (size_t)(colon - a);
	}
	u->host = (struct str){a, hn};
	u->port = hn < n ? (struct str){a + hn + 1, n - hn - 1} : (struct str){a + n, 0};
	return host_ok(u->host);
}

/* Split "scheme://authority/path?query#fragment". False when s is not of that
 * shape or its host is invalid. The parts borrow s. */
static bool url_split(const char *s, struct url_parts *u)
{
	memset(u, 0, sizeof *u);
	size_t i = 0;
	if (!is_alpha((unsigned char)s[0]))
		return false;
	while (is_alpha((unsigned char)s[i]) || is_digit((unsigned char)s[i]) || s[i] == '+' ||
	       s[i] == '-' || s[i] == '.')
		i++;
	if (s[i] != ':' || s[i + 1] != '/' || s[i + 2] != '/')
		return false;
	u->scheme = (struct str){s, i};
	const char *a = s + i + 3;
	size_t an = strcspn(a, "/?#");
	if (!split_authority(a, an, u))
		return false;
	const char *p = a + an;
	size_t pn = strcspn(p, "?#");
	u->path = (struct str){p, pn};
	if (p[pn] == '?') {
		u->has_query = true;
		u->query = (struct str){p + pn + 1, strcspn(p + pn + 1, "#")};
	}
	return true;
}

/* Port as a number; -1 when empty, -2 when invalid. */
static long port_value(struct str port)
{
	if (port.n == 0)
		return -1;
	long v = 0;
	for (size_t i = 0; i < port.n; i++) {
		if (!is_digit((unsigned char)port.p[i]))
			return -2;
		v = v * 10 + (port.p[i] - '0');
		if (v > 65535)
			return -2;
	}
	return v;
}

/* Lower-cased host without trailing dot and "www.". Escapes are normalised
 * first (so "a%2E" is "a." and loses its dot like it): an escaped unreserved
 * ASCII character is decoded, any other escape written with upper-case hex. */
static char *host_norm(struct str h)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < h.n; i++) {
		unsigned char c = (unsigned char)h.p[i];
		if (c == '%' && i + 2 < h.n && hexval((unsigned char)h.p[i + 1]) >= 0 &&
		    hexval((unsigned char)h.p[i + 2]) >= 0) {
			c = (unsigned char)(hexval((unsigned char)h.p[i + 1]) * 16 +
					    hexval((unsigned char)h.p[i + 2]));
			i += 2;
			if (!is_unreserved(c)) {
				buf_printf(&b, "%%%02X", c);
				continue;
			}
		}
		buf_putc(&b, (char)lower(c));
	}
	char *s = buf_detach(&b);
	/* until nothing changes, so that canonicalising twice changes nothing:
	 * "www.www.x..", "www.m.youtube.com"; the host starts `at` bytes in,
	 * moved once at the end (a host of 300,000 "www." took 5 s moved at
	 * each) */
	size_t n = strlen(s), at = 0;
	for (size_t skip = 1; skip;) {
		while (n - at > 1 && s[n - 1] == '.' && s[at] != '[')
			s[--n] = '\0';
		skip = 0;
		if (strncmp(s + at, "www.", 4) == 0 && s[at + 4])
			skip = 4;
		else if (strcmp(s + at, "m.youtube.com") == 0)
			skip = 2;
		at += skip;
	}
	if (at)
		memmove(s, s + at, n - at + 1);
	return s;
}

/* ---- percent-encoding, dot segments, query -------------------------------- */

static bool allowed_raw(unsigned char c, bool query)
{
	return url_class[c] & (query ? URL_UNRESERVED | URL_SUB | URL_QMARK : URL_UNRESERVED | URL_SUB);
}

/* Append s[0..n) with percent-encoding normalised (see url.h). */
static void pct_norm(struct buf *out, const char *s, size_t n, bool query)
{
	static const char hex[] = "0123456789ABCDEF";
	buf_grow(out, 3 * n); /* the most it can take: every byte escaped */
	char *w = out->p + out->n;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '%' && i + 2 < n && hexval((unsigned char)s[i + 1]) >= 0 &&
		    hexval((unsigned char)s[i + 2]) >= 0) {
			c = (unsigned char)(hexval((unsigned char)s[i + 1]) * 16 +
					    hexval((unsigned char)s[i + 2]));
			i += 2;
			if (is_unreserved(c)) {
				*w++ = (char)c;
				continue;
			}
		} else if (c != '%' && allowed_raw(c, query)) {
			*w++ = (char)c;
			continue;
		}
		*w++ = '%';
		*w++ = hex[c >> 4];
		*w++ = hex[c & 15];
	}
	out->n = (size_t)(w - out->p);
	out->p[out->n] = '\0';
}

/* RFC 3986 remove_dot_segments on an absolute path, then drop trailing
 * slashes. Appends to out. */
static void path_resolve(struct buf *out, const char *p)
{
	size_t base = out->n;
	while (*p) {
		if (*p == '/')
			p++;
		size_t n = strcspn(p, "/");
		if (n == 1 && p[0] == '.') {
			/* skip */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (out->n > base && out->p[out->n - 1] != '/')
				out->n--;
			if (out->n > base)
				out->n--;
			if (out->p)
				out->p[out->n] = '\0';
		} else {
			buf_putc(out, '/');
			buf_put(out, p, n);
		}
		p += n;
	}
	while (out->n > base && out->p[out->n - 1] == '/')
		out->p[--out->n] = '\0';
}

static bool is_youtube(const char *host)
{
	return strcmp(host, "youtube.com") == 0 || strcmp(host, "youtu.be") == 0;
}

static bool is_tracking(struct str name, const char *host)
{
	static const char *const names[] = {
		"fbclid", "gclid", "dclid", "gclsrc", "msclkid", "yclid", "mc_cid", "mc_eid",
		"_hsenc", "_hsmi", "mkt_tok", "igshid", "ref_src", "ref_url",
	};
	if (str_iprefix(name, "utm_"))
		return true;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (str_ieq(name, names[i]))
			return true;
	return is_youtube(host) && (str_ieq(name, "si") || str_ieq(name, "feature"));
}

/* Append the normalised, filtered query parameters of q to out, each
 * preceded by '&' (the caller fixes the first separator). */
static void query_norm(struct buf *out, struct str q, const char *host)
{
	struct buf one = BUF_INIT;
	size_t i = 0;
	while (i < q.n) {
		const char *amp = memchr(q.p + i, '&', q.n - i);
		size_t n = amp ? (size_t)(amp - (q.p + i)) : q.n - i;
		buf_reset(&one);
		pct_norm(&one, q.p + i, n, true);
		if (one.n) {
			struct str name = {one.p, strcspn(one.p, "=")};
			if (!is_tracking(name, host)) {
				buf_putc(out, '&');
				buf_put(out, one.p, one.n);
			}
		}
		i += n + 1;
	}
	buf_free(&one);
}

/* ---- special sites -------------------------------------------------------- */

/* youtu.be/ID and youtube.com/embed/ID: host becomes youtube.com and the path
 * /watch, with "&v=ID" put in front of the query. */
static void rewrite_youtube(char **host, struct buf *path, struct buf *query)
{
	const char *id;
	if (strcmp(*host, "youtu.be") == 0 && path->n > 1 && !strchr(path->p + 1, '/'))
		id = path->p + 1;
	else if (strcmp(*host, "youtube.com") == 0 && path->n > 7 &&
		 strncmp(path->p, "/embed/", 7) == 0 && !strchr(path->p + 7, '/'))
		id = path->p + 7;
	else
		return;
	struct buf q = BUF_INIT;
	buf_puts(&q, "&v=");
	/* the ID becomes a query value: what would split it is escaped */
	for (const char *c = id; *c; c++) {
		if (*c == '&' || *c == '=' || *c == '+' || *c == ';')
			buf_printf(&q, "%%%02X", (unsigned char)*c);
		else
			buf_putc(&q, *c);
	}
	buf_put(&q, query->p ? query->p : "", query->n);
	buf_free(query);
	*query = q;
	buf_reset(path);
	buf_puts(path, "/watch");
	free(*host);
	*host = xstrdup("youtube.com");
}

/* arxiv.org/pdf/ID(vN)(.pdf) and /abs/IDvN -> /abs/ID. */
static void rewrite_arxiv(const char *host, struct buf *path)
{
	if (strcmp(host, "arxiv.org") != 0 || path->n <= 5 ||
	    (strncmp(path->p, "/pdf/", 5) != 0 && strncmp(path->p, "/abs/", 5) != 0))
		return;
	size_t n = path->n;
	if (n > 9 && strcmp(path->p + n - 4, ".pdf") == 0 && path->p[1] == 'p')
		n -= 4;
	/* every trailing vN, so that a second pass finds none ("1v1v2") */
	for (;;) {
		size_t v = n;
		while (v > 5 && is_digit((unsigned char)path->p[v - 1]))
			v--;
		if (!(v < n && v > 6 && path->p[v - 1] == 'v' &&
		      is_digit((unsigned char)path->p[v - 2])))
			break;
		n = v - 1;
	}
	/* "/pdf/a/.pdf" leaves "/abs/a/": trailing slashes go, as everywhere */
	while (n > 1 && path->p[n - 1] == '/')
		n--;
	memcpy(path->p + 1, "abs", 3);
	path->n = n;
	path->p[n] = '\0';
}

/* ---- public --------------------------------------------------------------- */

static char *canonical_of(const char *s)
{
	struct url_parts u;
	if (!url_split(s, &u))
		return NULL;
	bool https = str_ieq(u.scheme, "https");
	if (!https && !str_ieq(u.scheme, "http"))
		return NULL;
	long port = port_value(u.port);
	if (port == -2)
		return NULL;
	if (port == (https ? 443 : 80))
		port = -1;
	char *host = host_norm(u.host);
	struct buf path = BUF_INIT, query = BUF_INIT, rawpath = BUF_INIT;
	pct_norm(&rawpath, u.path.p, u.path.n, false);
	path_resolve(&path, buf_cstr(&rawpath));
	buf_free(&rawpath);
	query_norm(&query, u.query, host);
	rewrite_youtube(&host, &path, &query);
	rewrite_arxiv(host, &path);
	struct buf out = BUF_INIT;
	buf_puts(&out, "https://");
	host_put(&out, host);
	if (port >= 0)
		buf_printf(&out, ":%ld", port);
	buf_put(&out, path.p ? path.p : "", path.n);
	if (query.n) {
		buf_putc(&out, '?');
		buf_put(&out, query.p + 1, query.n - 1);
	}
	free(host);
	buf_free(&path);
	buf_free(&query);
	return buf_detach(&out);
}

/* The length of the host h starts with when it is as host_norm leaves it:
 * lower-case letters, digits, dots and dashes, not ending in a dot, no
 * "www." to drop, not m.youtube.com. 0 for any other (the caller checks what
 * follows it). */
static size_t plain_host_len(const char *h)
{
	const char *e = h;
	while ((*e >= 'a' && *e <= 'z') || is_digit((unsigned char)*e) || *e == '-' || *e == '.')
		e++;
	size_t n = (size_t)(e - h);
	if (!n || e[-1] == '.' || (n >= 4 && !memcmp(h, "www.", 4)) ||
	    (n == 13 && !memcmp(h, "m.youtube.com", 13)))
		return 0;
	return n;
}

/* Whether url is canonical as written, seen in one pass: "https://", a host
 * as host_norm leaves it, a path of bytes written as they are (no escape,
 * no dot segment, no empty one, no trailing slash), no query, no fragment,
 * and none of the rewrites of special sites. Most URLs of a portal are
 * (58 % of the benchmark corpus's); the rest take the long way. */
static bool canonical_as_written(const char *url)
{
	if (strncmp(url, "https://", 8))
		return false;
	const char *h = url + 8;
	size_t hn = plain_host_len(h);
	const char *e = h + hn;
	if (!hn || (*e && *e != '/'))
		return false;
	if ((hn == 8 && !memcmp(h, "youtu.be", 8)) || (hn == 11 && !memcmp(h, "youtube.com", 11)))
		return false;
	if (!*e)
		return true; /* no path: the root, written as nothing */
	const char *seg = e + 1;
	for (const char *p = seg;; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '/' || !c) {
			size_t n = (size_t)(p - seg);
			if (!n || (n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.'))
				return false; /* empty (a trailing slash too), "." or ".." */
			if (!c)
				break;
			seg = p + 1;
		} else if (!allowed_raw(c, false))
			return false; /* an escape, a query, a fragment, a byte to escape */
	}
	if (hn == 9 && !memcmp(h, "arxiv.org", 9)) {
		/* rewrite_arxiv: /pdf/ becomes /abs/, and /abs/ loses a version */
		const char *path = e;
		size_t n = strlen(path), v = n;
		if (!strncmp(path, "/pdf/", 5))
			return false;
		if (!strncmp(path, "/abs/", 5)) {
			while (v > 5 && is_digit((unsigned char)path[v - 1]))
				v--;
			if (v < n && v > 6 && path[v - 1] == 'v' && is_digit((unsigned char)path[v - 2]))
				return false;
		}
	}
	return true;
}

char *url_canonical(const char *url)
{
	if (url && canonical_as_written(url))
		return xstrdup(url);
	return url_canonical_general(url);
}

char *url_canonical_general(const char *url)
{
	if (!url)
		return NULL;
	char *s = url_trim(url);
	char *c = canonical_of(s);
	/* canonical already: a second pass would give the same again */
	bool fixed = c && !strcmp(c, s);
	free(s);
	/* or canonical as written now (most are: a second pass is half the
	 * work again, for nothing) */
	if (fixed || (c && canonical_as_written(c)))
		return c;
	/* The rewrites (arXiv .pdf and versions, youtu.be, trailing dots) can
	 * leave something a second pass would still change ("/pdf///..pdf"
	 * ends in a dot segment): go on to the fixed point, so canonicalising a
	 * canonical URL never changes it. Two or three passes at most in practice. */
	for (int pass = 0; c && pass < 8; pass++) {
		char *again = canonical_of(c);
		bool same = again && !strcmp(again, c);
		free(c);
		c = again;
		if (same)
			break;
	}
	return c;
}

bool url_is_absolute_http(const char *url)
{
	char *c = url_canonical(url);
	free(c);
	return c != NULL;
}

/* A canonical URL writes an internationalised host percent-encoded: show it
 * as the text it is (when the escapes decode to non-ASCII UTF-8). Takes h. */
static char *host_unescape(char *h)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; h[i]; i++) {
		int hi = h[i] == '%' ? hexval((unsigned char)h[i + 1]) : -1;
		int lo = hi >= 0 ? hexval((unsigned char)h[i + 2]) : -1;
		if (lo >= 0 && hi >= 8) {
			buf_putc(&b, (char)(hi * 16 + lo));
			i += 2;
		} else
			buf_putc(&b, h[i]);
	}
	if (b.n == strlen(h) || !utf8_valid(b.p, b.n)) {
		buf_free(&b);
		return h;
	}
	free(h);
	return buf_detach(&b);
}

/* The host of most URLs as url_canonical writes them ("scheme://host" and
 * then the end, '/', '?' or '#'), read in place when it is already as
 * host_norm leaves it: lower-case letters, digits, dots and dashes, not
 * ending in a dot, no "www." to drop, not m.youtube.com. NULL for every
 * other URL, which the general path takes. */
static char *plain_host(const char *url)
{
	const char *p = url;
	if (*p < 'a' || *p > 'z')
		return NULL;
	while (is_alpha((unsigned char)*p) || is_digit((unsigned char)*p) || *p == '+' ||
	       *p == '-' || *p == '.')
		p++;
	if (strncmp(p, "://", 3))
		return NULL;
	const char *h = p + 3;
	size_t n = plain_host_len(h);
	if (!n || (h[n] && h[n] != '/' && h[n] != '?' && h[n] != '#'))
		return NULL;
	return xstrndup(h, n);
}

char *url_host(const char *url)
{
	if (!url)
		return NULL;
	char *plain = plain_host(url);
	if (plain)
		return plain;
	char *s = url_trim(url);
	struct url_parts u;
	char *h = url_split(s, &u) ? host_norm(u.host) : NULL;
	free(s);
	return h ? host_unescape(h) : NULL;
}

char *url_path(const char *url)
{
	if (!url)
		return NULL;
	char *s = url_trim(url);
	struct url_parts u;
	char *p = NULL;
	if (url_split(s, &u))
		p = u.path.n ? xstrndup(u.path.p, u.path.n) : xstrdup("/");
	free(s);
	return p;
}

/* ---- url_is_safe ---------------------------------------------------------- */

/* Decode one HTML character reference at s (which starts with '&'); returns
 * the code point and stores the length consumed, or -1 when there is none. */
static long html_entity(const char *s, size_t *len)
{
	static const struct {
		const char *name;
		long cp;
	} named[] = {{"&Tab;", 9}, {"&NewLine;", 10}, {"&colon;", ':'}, {"&amp;", '&'},
		     {"&percnt;", '%'}, {"&sol;", '/'}, {"&quest;", '?'}, {"&num;", '#'}};
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
		size_t n = strlen(named[i].name);
		if (strncmp(s, named[i].name, n) == 0) {
			*len = n;
			return named[i].cp;
		}
	}
	if (s[1] != '#')
		return -1;
	size_t i = 2;
	bool hex = s[i] == 'x' || s[i] == 'X';
	i += hex;
	long v = 0;
	size_t start = i;
	for (;; i++) {
		int d = hex ? hexval((unsigned char)s[i]) : (is_digit((unsigned char)s[i]) ? s[i] - '0' : -1);
		if (d < 0)
			break;
		if (v <= 0x10FFFF)
			v = v * (hex ? 16 : 10) + d;
	}
	if (i == start)
		return -1;
	if (s[i] == ';')
		i++;
	*len = i;
	return v > 0x10FFFF || v == 0 ? 0xFFFD : v;
}

/* The next character of the scheme part at s[*i] after entity and percent
 * decoding; advances *i. Returns -1 at the end of the string. */
static long scheme_char(const char *s, size_t *i)
{
	unsigned char c = (unsigned char)s[*i];
	if (!c)
		return -1;
	size_t len = 1;
	long v = c;
	if (c == '&') {
		long e = html_entity(s + *i, &len);
		if (e < 0)
			len = 1;
		else
			v = e;
	}
	if (v == '%' && hexval((unsigned char)s[*i + len]) >= 0 &&
	    hexval((unsigned char)s[*i + len + 1]) >= 0) {
		v = hexval((unsigned char)s[*i + len]) * 16 + hexval((unsigned char)s[*i + len + 1]);
		len += 2;
	}
	*i += len;
	return v;
}

bool url_is_safe(const char *url)
{
	static const char *const safe[] = {"http", "https", "mailto", "ftp"};
	if (!url)
		return false;
	char scheme[16];
	size_t n = 0, i = 0;
	bool toolong = false;
	for (;;) {
		long c = scheme_char(url, &i);
		if (c < 0 || c == '/' || c == '?' || c == '#')
			return true; /* no scheme: a relative reference */
		if (c <= ' ' || c == 0x7F)
			continue; /* ignored by browsers (and by us anywhere here) */
		if (c == ':')
			break;
		bool ok = is_alpha((int)c) || (n > 0 && (is_digit((int)c) || c == '+' || c == '-' ||
							c == '.'));
		if (!ok)
			return true; /* not a scheme, so a relative path */
		if (n + 1 < sizeof scheme)
			scheme[n] = (char)lower((int)c);
		else
			toolong = true; /* longer than any scheme we allow */
		n++;
	}
	if (toolong)
		return false;
	scheme[n] = '\0';
	for (size_t k = 0; k < sizeof safe / sizeof safe[0]; k++)
		if (strcmp(scheme, safe[k]) == 0)
			return true;
	return false;
}

/* ---- url_match_pattern ---------------------------------------------------- */

/* Does glob p[0..pn) match s[0..sn), or a prefix of it that ends before a
 * '/'? '*' matches any run. The classic one-star backtracking loop: the state
 * on first reaching a '/' is that of a whole match against the prefix, so a
 * consumed pattern there is a prefix match. O(sn * pn). */
static bool glob_match(const char *p, size_t pn, const char *s, size_t sn)
{
	size_t pi = 0, si = 0, star = (size_t)-1, mark = 0;
	while (si < sn) {
		if (pi == pn && s[si] == '/')
			return true;
		if (pi < pn && p[pi] == '*') {
			star = pi++;
			mark = si;
		} else if (pi < pn && p[pi] == s[si]) {
			pi++, si++;
		} else if (star != (size_t)-1) {
			pi = star + 1;
			si = ++mark;
		} else {
			return false;
		}
	}
	while (pi < pn && p[pi] == '*')
		pi++;
	return pi == pn;
}

/* host[/path] of a pattern: scheme and "www." dropped, host part lower-cased. */
static char *pattern_norm(const char *pattern)
{
	const char *p = strstr(pattern, "://");
	p = p ? p + 3 : pattern;
	if (strncasecmp(p, "www.", 4) == 0)
		p += 4;
	char *s = xstrdup(p);
	for (char *q = s; *q && *q != '/'; q++)
		*q = (char)lower((unsigned char)*q);
	return s;
}

/* url_match_key of a URL whose host plain_host reads in place, with nothing
 * after it that url_trim would take out: the path as written follows the
 * host, up to its query or fragment. NULL for any other URL. */
static char *plain_match_key(const char *url)
{
	char *host = plain_host(url);
	if (!host)
		return NULL;
	size_t hn = strlen(host);
	const char *rest = strstr(url, "://") + 3 + hn;
	for (const char *q = rest; *q; q++)
		if ((unsigned char)*q <= ' ') {
			free(host);
			return NULL;
		}
	size_t pn = strcspn(rest, "?#");
	if (pn == 1 && *rest == '/')
		pn = 0; /* the root path: the host alone */
	char *key = xrealloc(host, hn + pn + 1);
	memcpy(key + hn, rest, pn);
	key[hn + pn] = '\0';
	return key;
}

char *url_match_key(const char *url)
{
	if (!url)
		return NULL;
	/* once per resource a build: most are canonical URLs, read in place */
	char *plain = plain_match_key(url);
	if (plain)
		return plain;
	char *host = url_host(url);
	if (!host)
		return NULL;
	char *path = url_path(url);
	struct buf subject = BUF_INIT;
	buf_puts(&subject, host);
	if (path && strcmp(path, "/") != 0)
		buf_puts(&subject, path);
	free(host);
	free(path);
	return buf_detach(&subject);
}

char *url_pattern_compile(const char *pattern)
{
	return pattern ? pattern_norm(pattern) : NULL;
}

bool url_match_key_pattern(const char *key, const char *compiled)
{
	if (!key || !compiled)
		return false;
	return glob_match(compiled, strlen(compiled), key, strlen(key));
}

bool url_match_pattern(const char *canonical_url, const char *pattern)
{
	char *key = url_match_key(canonical_url);
	char *pat = key ? url_pattern_compile(pattern) : NULL;
	bool m = url_match_key_pattern(key, pat);
	free(key);
	free(pat);
	return m;
}
