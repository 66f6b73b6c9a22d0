/* spans: a file's bytes as an ordered list of borrowed slices, so that a large
 * file put together from many buffers and from another file's bytes (a data
 * file whose records are mostly kept from the file in place) is digested and
 * written without first being copied into one buffer. Level 0. */
#ifndef SSG_SPANS_H
#define SSG_SPANS_H
#include <stddef.h>

#include "buf.h"

struct spans {
	struct str *v;
	size_t n, cap;
	size_t bytes; /* the sum of the slices' lengths */
};

#define SPANS_INIT {NULL, 0, 0, 0}

/* Append n bytes at p (borrowed: they must outlive s); joined with the last
 * slice when they follow it in memory. Empty slices are dropped. */
void spans_add(struct spans *s, const char *p, size_t n);
/* digest.h's digest of the slices' concatenation. */
void spans_digest(const struct spans *s, unsigned long long out[2]);
void spans_free(struct spans *s);

#endif
