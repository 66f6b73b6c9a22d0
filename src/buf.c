/* buf: growable byte buffers and escaping appenders (see buf.h). */
#include "buf.h"
#include "heap_warm.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

void buf_grow_slow(struct buf *b, size_t extra)
{
	size_t need = b->n + extra + 1;
	if (need <= b->cap)
		return;
	size_t c = b->cap ? b->cap : 64;
	while (c < need)
		c *= 2;
	b->p = xrealloc(b->p, c);
	if (!b->cap)
		b->p[0] = '\0'; /* a grown buffer is always a C string */
	heap_warm_grown(b->p, b->cap, c);
	b->cap = c;
}

void buf_putc_slow(struct buf *b, char c)
{
	buf_grow(b, 1);
	b->p[b->n++] = c;
	b->p[b->n] = '\0';
}

const char buf_decimal_pairs[201] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

char *put_decimal_long(char *o, unsigned long long v)
{
	/* two digits a division, from the last */
	char tmp[20], *end = tmp + sizeof tmp, *p = end;
	for (; v >= 100; v /= 100)
		memcpy(p -= 2, buf_decimal_pairs + 2 * (v % 100), 2);
	if (v >= 10)
		memcpy(p -= 2, buf_decimal_pairs + 2 * v, 2);
	else
		*--p = (char)('0' + v);
	while (p < end)
		*o++ = *p++;
	return o;
}

void buf_put_uint(struct buf *b, unsigned long long v)
{
	buf_grow(b, 20);
	b->n = (size_t)(put_decimal(b->p + b->n, v) - b->p);
	b->p[b->n] = '\0';
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}

/* The length of p's first run of bytes that an escaper leaves as they are:
 * none of marks[0..nmarks) (at most five) nor, with controls, a byte below
 * 0x20. Sixteen bytes at a time where SSE2 is there (x86-64 always), as
 * most text has none; table (the same bytes marked) for the tail. Inlined
 * into each escaper, where its arguments are constants. */
static inline size_t unescaped_run(const char *p, size_t n, const unsigned char table[256],
				   const char *marks, size_t nmarks, bool controls)
{
	size_t i = 0;
#ifdef __SSE2__
	if (n >= 16) { /* most values are shorter: no vectors set up for them */
		__m128i want[5];
		for (size_t k = 0; k < nmarks && k < 5; k++)
			want[k] = _mm_set1_epi8(marks[k]);
		const __m128i ctl = _mm_set1_epi8(0x1f);
		for (; i + 16 <= n; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			/* a control byte: unsigned v <= 0x1f, so min(v, 0x1f) == v */
			__m128i m = controls ? _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v)
					     : _mm_setzero_si128();
			for (size_t k = 0; k < nmarks && k < 5; k++)
				m = _mm_or_si128(m, _mm_cmpeq_epi8(v, want[k]));
			unsigned mask = (unsigned)_mm_movemask_epi8(m);
			if (mask)
				return i + (size_t)__builtin_ctz(mask);
		}
	}
#endif
	while (i < n && !table[(unsigned char)p[i]] && (!controls || (unsigned char)p[i] >= 0x20))
		i++;
	return i;
}

/* The characters HTML text and attributes escape: a table, as the byte loop
 * below is the renderer's innermost one. */
static const unsigned char html_special[256] = {['&'] = 1, ['<'] = 2, ['>'] = 3, ['"'] = 4,
						['\''] = 5};
static const char *const html_rep[] = {NULL, "&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
static const unsigned char html_replen[] = {0, 5, 4, 4, 6, 5};

void buf_put_html(struct buf *b, const char *p, size_t n)
{
	buf_grow(b, n);
	for (size_t at = 0;;) {
		size_t run = unescaped_run(p + at, n - at, html_special, "&<>\"'", 5, false);
		buf_put(b, p + at, run);
		at += run;
		if (at == n)
			return;
		unsigned char k = html_special[(unsigned char)p[at++]];
		buf_put(b, html_rep[k], html_replen[k]);
	}
}

void buf_puts_html(struct buf *b, const char *s)
{
	buf_put_html(b, s, strlen(s));
}

/* The bytes a JSON string escapes: controls, the quote and the backslash, and
 * < > & so that the JSON is safe inside <script> or HTML too. */
static const unsigned char json_special[256] = {['"'] = 1, ['\\'] = 1, ['<'] = 1, ['>'] = 1,
					       ['&'] = 1};

void buf_put_json(struct buf *b, const char *p, size_t n)
{
	buf_grow(b, n);
	for (size_t at = 0;;) {
		size_t run = unescaped_run(p + at, n - at, json_special, "\"\\<>&", 5, true);
		buf_put(b, p + at, run);
		at += run;
		if (at == n)
			return;
		unsigned char c = (unsigned char)p[at++];
		char tmp[8];
		const char *rep = tmp;
		if (c == '"')
			rep = "\\\"";
		else if (c == '\\')
			rep = "\\\\";
		else if (c == '\n')
			rep = "\\n";
		else if (c == '\t')
			rep = "\\t";
		else if (c == '\r')
			rep = "\\r";
		else /* other controls, and < > & so JSON is safe inside <script> or HTML too */
			snprintf(tmp, sizeof tmp, "\\u%04x", c);
		buf_puts(b, rep);
	}
}

int buf_read_fd(struct buf *b, int fd, size_t size, bool exact, size_t max)
{
	size_t start = b->n;
	int rc = 0;
	buf_grow(b, size ? size : 65536);
	while (!exact || b->n - start < size) {
		if (b->cap - b->n - 1 == 0)
			buf_grow(b, 65536);
		ssize_t r = read(fd, b->p + b->n, b->cap - b->n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			rc = r < 0 ? -1 : 0;
			break;
		}
		b->n += (size_t)r;
		b->p[b->n] = '\0';
		if (max && b->n - start > max) {
			rc = 1;
			break;
		}
	}
	close(fd);
	return rc;
}

/* The rest of fd to its end (more if the file grows meanwhile). */
static int read_rest(struct buf *b, int fd, size_t size)
{
	return buf_read_fd(b, fd, size, false, 0);
}

int buf_read_file(struct buf *b, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -1;
	bool sized = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
	return read_rest(b, fd, sized ? (size_t)st.st_size : 0);
}

int buf_read_regular(struct buf *b, const char *path, size_t max)
{
	return buf_read_regular_at(b, AT_FDCWD, path, max);
}

int buf_read_regular_at(struct buf *b, int dfd, const char *name, size_t max)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (unsigned long long)st.st_size > max) {
		close(fd);
		return -1;
	}
	return read_rest(b, fd, (size_t)st.st_size);
}

void buf_reset(struct buf *b)
{
	b->n = 0;
	if (b->p)
		b->p[0] = '\0';
}

void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}

char *buf_detach(struct buf *b)
{
	char *p = b->p ? b->p : xstrdup("");
	b->p = NULL;
	b->n = b->cap = 0;
	return p;
}

const char *buf_cstr(const struct buf *b)
{
	return b->p ? b->p : "";
}

bool str_eq(struct str s, const char *c)
{
	size_t n = strlen(c);
	return s.n == n && memcmp(s.p, c, n) == 0;
}

struct str str_trim(struct str s)
{
	while (s.n && (s.p[0] == ' ' || s.p[0] == '\t' || s.p[0] == '\n' || s.p[0] == '\r')) {
		s.p++;
		s.n--;
	}
	while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t' || s.p[s.n - 1] == '\n' ||
		       s.p[s.n - 1] == '\r'))
		s.n--;
	return s;
}
