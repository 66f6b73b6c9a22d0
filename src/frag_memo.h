/* frag_memo: bytes made once and lent many times, by number and variant
 * (a resource's entry in a list, as rendered at a page depth): the first
 * put of a slot wins, every get after it lends those bytes until
 * frag_memo_free. Only the numbers marked wanted get a slot's bytes kept
 * (an entry listed once is not worth its copy). Thread-safe without a
 * lock: each slot is published once, with a compare-and-swap. Level 0. */
#ifndef SSG_FRAG_MEMO_H
#define SSG_FRAG_MEMO_H
#include <stdbool.h>
#include <stddef.h>

struct frag_memo {
	char **slots;          /* [number * variants + variant]: a length, then bytes */
	unsigned char *wanted; /* per number: kept when put */
	size_t n, variants;
};

/* For numbers [0, n) in `variants` variants each; none wanted yet. */
void frag_memo_init(struct frag_memo *m, size_t n, size_t variants);
void frag_memo_want(struct frag_memo *m, size_t number);
bool frag_memo_wanted(const struct frag_memo *m, size_t number);
/* The bytes put for (number, variant), and their length; NULL when none. */
const char *frag_memo_get(const struct frag_memo *m, size_t number, size_t variant, size_t *len);
/* Keep a copy of bytes for (number, variant), when it is wanted and no
 * bytes were put for it before. */
void frag_memo_put(struct frag_memo *m, size_t number, size_t variant, const char *bytes,
		   size_t len);
void frag_memo_free(struct frag_memo *m);

#endif
