/* utf8: UTF-8 decoding and validation, the binary sniffer, and utf8_clean()
 * with its mojibake repair (see utf8.h for the rules). Level 0; calls buf,
 * diag, xalloc. */
#include "utf8.h"
#include "buf.h"
#include "diag.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */
#define QUOTE_MAX 48               /* bytes of a repaired run quoted in a warning */

/* Windows-1252 bytes 0x80..0x9F; the five undefined ones map to themselves. */
static const uint16_t cp1252_high[32] = {
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

static bool is_cont(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

int utf8_decode(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char b = s[0];
	*cp = 0xFFFD;
	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b < 0xC2 || b > 0xF4)
		return -1; /* stray continuation, overlong lead C0/C1, or F5..FF */
	if (b < 0xE0) {
		if (n < 2 || !is_cont(s[1]))
			return -1;
		*cp = ((uint32_t)(b & 0x1F) << 6) | (s[1] & 0x3F);
		return 2;
	}
	/* The second byte's range excludes overlongs, surrogates and > U+10FFFF. */
	unsigned char lo = 0x80, hi = 0xBF;
	if (b == 0xE0)
		lo = 0xA0;
	else if (b == 0xED)
		hi = 0x9F;
	else if (b == 0xF0)
		lo = 0x90;
	else if (b == 0xF4)
		hi = 0x8F;
	if (n < 2 || s[1] < lo || s[1] > hi)
		return -1;
	if (n < 3 || !is_cont(s[2]))
		return -2;
	if (b < 0xF0) {
		*cp = ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
		return 3;
	}
	if (n < 4 || !is_cont(s[3]))
		return -3;
	*cp = ((uint32_t)(b & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
	      ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
	return 4;
}

int utf8_encode(uint32_t cp, char out[4])
{
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

bool utf8_valid(const char *s, size_t n)
{
	size_t i = 0;
	uint32_t cp;
	while (i < n) {
		int len = utf8_decode(s + i, n - i, &cp);
		if (len < 0)
			return false;
		i += (size_t)len;
	}
	return true;
}

/* Printable ASCII or a tab: a byte that is text as it is. */
static inline bool plain_ascii(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\t';
}

/* How many of s's first n bytes are plain ASCII: sixteen at a time where
 * SSE2 is there (x86-64 always), as nearly all of a document is. */
static size_t plain_run(const char *s, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	const __m128i below = _mm_set1_epi8(0x1f), above = _mm_set1_epi8(0x7f),
		      tab = _mm_set1_epi8('\t');
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		/* signed compares: bytes from 0x80 are negative, so not plain */
		__m128i ok = _mm_and_si128(_mm_cmpgt_epi8(v, below), _mm_cmplt_epi8(v, above));
		ok = _mm_or_si128(ok, _mm_cmpeq_epi8(v, tab));
		unsigned mask = (unsigned)_mm_movemask_epi8(ok) ^ 0xFFFFu;
		if (mask)
			return i + (size_t)__builtin_ctz(mask);
	}
#endif
	while (i < n && plain_ascii((unsigned char)s[i]))
		i++;
	return i;
}

bool utf8_looks_binary(const char *s, size_t n)
{
	size_t sample = n < 8192 ? n : 8192, bad = 0, i = 0;
	uint32_t cp;
	while (i < sample) {
		i += plain_run(s + i, sample - i);
		if (i == sample)
			break;
		unsigned char c = (unsigned char)s[i];
		if (c == '\n' || c == '\r') {
			i++;
			continue;
		}
		if (c == 0)
			return true;
		int len = utf8_decode(s + i, n - i, &cp);
		if (len < 0) {
			bad += (size_t)-len;
			i += (size_t)-len;
			continue;
		}
		if (c < 0x20 && !(c >= '\t' && c <= '\r') && c != 0x1B)
			bad++;
		i += (size_t)len;
	}
	return sample > 0 && bad * 10 > sample * 3;
}

/* ---- mojibake ------------------------------------------------------------ */

/* The Windows-1252 byte of cp, or -1 when it has none. */
static int cp1252_byte(uint32_t cp)
{
	if (cp < 0x80 || (cp >= 0xA0 && cp <= 0xFF))
		return (int)cp;
	for (int i = 0; i < 32; i++)
		if (cp1252_high[i] == cp)
			return 0x80 + i;
	return -1;
}

static bool in_range(uint32_t cp, uint32_t lo, uint32_t hi)
{
	return cp >= lo && cp <= hi;
}

/* Is cp, decoded from a len-byte sequence with this lead byte, plausible text? */
static bool plausible(uint32_t cp, int len, unsigned char lead)
{
	if (len == 2) {
		if (lead == 0xC2)
			return cp >= 0xA0; /* not a C1 control */
		if (lead == 0xC3)
			return true;
		return in_range(cp, 0x100, 0x17F) || in_range(cp, 0x300, 0x36F) ||
		       in_range(cp, 0x386, 0x3CE) || in_range(cp, 0x400, 0x45F) ||
		       in_range(cp, 0x5D0, 0x5EA) || in_range(cp, 0x621, 0x64A);
	}
	if (len == 3)
		return !in_range(cp, 0xE000, 0xF8FF) && !in_range(cp, 0xFDD0, 0xFDEF) &&
		       cp != 0xFFFE && cp != 0xFFFF;
	return lead == 0xF0 && (cp & 0xFFFE) != 0xFFFE;
}

static bool strong_lead(unsigned char lead)
{
	return lead == 0xC2 || lead == 0xC3 || lead == 0xE2 || lead == 0xEF || lead == 0xF0;
}

static bool ascii_letter(const char *s, size_t n, size_t i)
{
	if (i >= n)
		return false;
	unsigned char c = (unsigned char)s[i];
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Collect the run of cp1252-representable non-ASCII characters at in[i..):
 * their cp1252 bytes go to *bytes; returns the run's end offset in `in`. */
static size_t run_collect(const char *in, size_t n, size_t i, struct buf *bytes)
{
	uint32_t cp;
	while (i < n) {
		int len = utf8_decode(in + i, n - i, &cp);
		int b = len > 0 ? cp1252_byte(cp) : -1;
		if (b < 0x80)
			break;
		buf_putc(bytes, (char)b);
		i += (size_t)len;
	}
	return i;
}

/* Should the run in[start..end), whose cp1252 image is bytes, be repaired? */
static bool run_is_mojibake(const char *in, size_t n, size_t start, size_t end,
			    const struct buf *bytes)
{
	const unsigned char *b = (const unsigned char *)bytes->p;
	if (bytes->n < 2 || b[0] < 0xC2 || b[0] > 0xF4)
		return false;
	size_t i = 0, nseq = 0;
	bool strong = false;
	int last_len = 0;
	while (i < bytes->n) {
		uint32_t cp;
		int len = utf8_decode(bytes->p + i, bytes->n - i, &cp);
		if (len < 2 || !plausible(cp, len, b[i]))
			return false;
		strong = strong || strong_lead(b[i]);
		nseq++;
		last_len = len;
		i += (size_t)len;
	}
	if (strong || nseq >= 2)
		return true;
	return last_len == 2 &&
	       ((start > 0 && ascii_letter(in, n, start - 1)) || ascii_letter(in, n, end));
}

/* ---- utf8_clean ---------------------------------------------------------- */

struct clean {
	struct buf out;
	const char *path;
	struct diags *d;
	const char *in;
	int line;
	size_t line_start; /* input offset where the current line starts */
	/* invalid bytes on the current line */
	int bad_col, bad_more;
	unsigned char bad_byte;
	/* mojibake repairs on the current line */
	int moji_col, moji_more;
	char *moji_from, *moji_to;
};

static char *quote(const char *s, size_t n)
{
	if (n <= QUOTE_MAX)
		return xstrndup(s, n);
	size_t k = QUOTE_MAX;
	while (k > 0 && is_cont((unsigned char)s[k]))
		k--;
	char *q = xmalloc(k + 4);
	memcpy(q, s, k);
	memcpy(q + k, "...", 4);
	return q;
}

static void flush_line(struct clean *c)
{
	if (c->bad_col && c->d) {
		char what[32];
		if (c->bad_byte)
			snprintf(what, sizeof what, "byte 0x%02X", c->bad_byte);
		else
			snprintf(what, sizeof what, "NUL byte");
		diag_addc(c->d, SEV_WARNING, "invalid-utf8", c->path, c->line, c->bad_col,
			  "invalid UTF-8: %s replaced with U+FFFD%s", what,
			  c->bad_more ? " (and more on this line)" : "");
	}
	if (c->moji_col && c->d) {
		char more[48] = "";
		if (c->moji_more)
			snprintf(more, sizeof more, " (and %d more on this line)", c->moji_more);
		diag_addc(c->d, SEV_WARNING, "mojibake", c->path, c->line, c->moji_col,
			  "repaired mis-encoded text (mojibake) \"%s\" -> \"%s\"%s", c->moji_from,
			  c->moji_to, more);
	}
	free(c->moji_from);
	free(c->moji_to);
	c->moji_from = c->moji_to = NULL;
	c->bad_col = c->bad_more = c->moji_col = c->moji_more = 0;
}

static void new_line(struct clean *c, size_t next)
{
	flush_line(c);
	c->line++;
	c->line_start = next;
}

static void bad_bytes(struct clean *c, size_t i)
{
	buf_puts(&c->out, REPLACEMENT);
	if (c->bad_col) {
		c->bad_more = 1;
		return;
	}
	c->bad_col = (int)(i - c->line_start + 1);
	c->bad_byte = (unsigned char)c->in[i];
}

/* Try to repair the run starting at in[i]. Returns the offset after the run
 * when it was handled (repaired or copied verbatim), 0 when there is none. */
static size_t mojibake(struct clean *c, size_t n, size_t i)
{
	struct buf bytes = BUF_INIT;
	size_t end = run_collect(c->in, n, i, &bytes);
	if (end == i) {
		buf_free(&bytes);
		return 0;
	}
	if (!run_is_mojibake(c->in, n, i, end, &bytes)) {
		buf_put(&c->out, c->in + i, end - i);
		buf_free(&bytes);
		return end;
	}
	size_t skip = 0;
	if (c->out.n == 0 && bytes.n >= 3 && memcmp(bytes.p, "\xEF\xBB\xBF", 3) == 0)
		skip = 3; /* a mangled BOM at the very start: drop it too */
	buf_put(&c->out, bytes.p + skip, bytes.n - skip);
	if (c->moji_col) {
		c->moji_more++;
	} else {
		c->moji_col = (int)(i - c->line_start + 1);
		c->moji_from = quote(c->in + i, end - i);
		c->moji_to = quote(bytes.p, bytes.n);
	}
	buf_free(&bytes);
	return end;
}

char *utf8_clean(const char *in, size_t n, size_t *out_len, const char *path, struct diags *d)
{
	struct clean c = {.out = BUF_INIT, .path = path ? path : "", .d = d, .in = in, .line = 1};
	size_t i = 0;
	if (n >= 3 && memcmp(in, "\xEF\xBB\xBF", 3) == 0)
		i = c.line_start = 3;
	buf_grow(&c.out, n + 1);
	c.out.p[0] = '\0'; /* buf_grow does not terminate a fresh buffer */
	while (i < n) {
		unsigned char ch = (unsigned char)in[i];
		if (ch == '\r' || ch == '\n') {
			buf_putc(&c.out, '\n');
			i += (ch == '\r' && i + 1 < n && in[i + 1] == '\n') ? 2 : 1;
			new_line(&c, i);
		} else if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			/* NUL and the other control characters HTML forbids (and the
			 * renderer uses as markers) are not text either */
			bad_bytes(&c, i);
			i++;
		} else if (ch < 0x80) {
			/* a run of printable ASCII goes out whole */
			size_t k = i + 1 + plain_run(in + i + 1, n - i - 1);
			buf_put(&c.out, in + i, k - i);
			i = k;
		} else {
			uint32_t cp;
			int len = utf8_decode(in + i, n - i, &cp);
			if (len < 0) {
				bad_bytes(&c, i);
				i += (size_t)-len;
				continue;
			}
			size_t next = mojibake(&c, n, i);
			if (next) {
				i = next;
				continue;
			}
			buf_put(&c.out, in + i, (size_t)len);
			i += (size_t)len;
		}
	}
	flush_line(&c);
	if (out_len)
		*out_len = c.out.n;
	return buf_detach(&c.out);
}

char *utf8_bound(char *s, size_t max)
{
	size_t n = strlen(s);
	if (n <= max)
		return s;
	size_t cut_at = max - 3; /* room for the ellipsis */
	size_t space = cut_at;
	while (space > cut_at / 2 && s[space] != ' ')
		space--;
	if (s[space] == ' ')
		cut_at = space;
	else
		while (cut_at > 0 && ((unsigned char)s[cut_at] & 0xC0) == 0x80)
			cut_at--;
	while (cut_at > 0 && s[cut_at - 1] == ' ')
		cut_at--;
	memcpy(s + cut_at, "\xe2\x80\xa6", 4);
	return s;
}
