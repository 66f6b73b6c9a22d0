/* buf: an owned, growable, always NUL-terminated byte buffer, and `struct str`,
 * a borrowed slice. Level 0; calls only xalloc. */
#ifndef SSG_BUF_H
#define SSG_BUF_H
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct str {
	const char *p;
	size_t n;
};

struct buf {
	char *p;     /* NUL-terminated when cap > 0; NULL when empty and never grown */
	size_t n;    /* bytes used, not counting the NUL */
	size_t cap;
};

#define BUF_INIT {NULL, 0, 0}

void buf_grow_slow(struct buf *b, size_t extra);
/* Room for extra more bytes and the NUL: inline, since every append asks
 * (a page's rendering appends thousands of times). */
static inline void buf_grow(struct buf *b, size_t extra)
{
	if (b->n + extra + 1 > b->cap)
		buf_grow_slow(b, extra);
}
static inline void buf_put(struct buf *b, const void *p, size_t n)
{
	buf_grow(b, n);
	if (n)
		memcpy(b->p + b->n, p, n);
	b->n += n;
	b->p[b->n] = '\0';
}
/* (inline: most strings put are literals, whose length is then known where
 * they are written, with no call to strlen) */
static inline void buf_puts(struct buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}
void buf_putc_slow(struct buf *b, char c);
/* Append one byte: inline, since renderers call it per character. */
static inline void buf_putc(struct buf *b, char c)
{
	if (b->n + 1 < b->cap) {
		b->p[b->n++] = c;
		b->p[b->n] = '\0';
	} else
		buf_putc_slow(b, c);
}
/* Append an unsigned number in decimal (no printf). */
void buf_put_uint(struct buf *b, unsigned long long v);
/* v in decimal at o (room for 20 bytes); returns where it ends. Inline for
 * the numbers below 10,000 (the search index's words parts print a million
 * of them); put_decimal_long for the rest. */
extern const char buf_decimal_pairs[201]; /* "00" to "99" */
char *put_decimal_long(char *o, unsigned long long v);
static inline char *put_decimal(char *o, unsigned long long v)
{
	if (v < 10) {
		*o = (char)('0' + v);
		return o + 1;
	}
	if (v < 100) {
		memcpy(o, buf_decimal_pairs + 2 * v, 2);
		return o + 2;
	}
	if (v < 1000) {
		o[0] = (char)('0' + v / 100);
		memcpy(o + 1, buf_decimal_pairs + 2 * (v % 100), 2);
		return o + 3;
	}
	if (v < 10000) {
		memcpy(o, buf_decimal_pairs + 2 * (v / 100), 2);
		memcpy(o + 2, buf_decimal_pairs + 2 * (v % 100), 2);
		return o + 4;
	}
	return put_decimal_long(o, v);
}
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append with &, <, >, ", ' escaped for HTML text and attribute values. */
void buf_put_html(struct buf *b, const char *p, size_t n);
void buf_puts_html(struct buf *b, const char *s);
/* Append as the inside of a JSON string (quotes not added). */
void buf_put_json(struct buf *b, const char *p, size_t n);
/* Append a whole file. 0, or -1 with errno set when it cannot be read. */
int buf_read_file(struct buf *b, const char *path);
/* The same for a regular file of at most max bytes, never through a symlink
 * (a file whose name content could have planted). -1 otherwise. */
int buf_read_regular(struct buf *b, const char *path, size_t max);
/* The same for the file name in the folder open as dfd. */
int buf_read_regular_at(struct buf *b, int dfd, const char *name, size_t max);
/* The rest of fd (closed after), read straight into b: room for size bytes
 * (what fstat says; 0 when it says nothing) made at once. With exact (and a
 * size), no read once size bytes came: a file in one call, not two, and
 * not what it grows by meanwhile; else to its end. Stops once more than
 * max bytes came (0: no bound). 1 then, -1 on a read error, else 0. */
int buf_read_fd(struct buf *b, int fd, size_t size, bool exact, size_t max);
void buf_reset(struct buf *b);
void buf_free(struct buf *b);
/* Hand the storage to the caller (never NULL: "" when empty) and reset b. */
char *buf_detach(struct buf *b);
/* b's contents as a C string; "" when empty. */
const char *buf_cstr(const struct buf *b);

bool str_eq(struct str s, const char *c);
struct str str_trim(struct str s);

#endif
