/* arena: a bump allocator for memory that is dropped all at once (a page's
 * view, a document's tree). Blocks grow from 16 KiB to 1 MiB; a request
 * larger than a block gets one of its own. Not thread-safe: one arena, one
 * thread. Level 0. */
#ifndef SSG_ARENA_H
#define SSG_ARENA_H
#include <stdbool.h>
#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *blocks; /* the newest first: allocations come from it */
	size_t next_size;
	char *at, *end;             /* the newest block's room left */
};

#define ARENA_INIT {NULL, 0, NULL, NULL}
#define ARENA_ALIGN _Alignof(max_align_t)

/* arena_alloc's way when the newest block has no room: a new block. */
void *arena_alloc_slow(struct arena *a, size_t n);
/* n bytes aligned for any type; never NULL (aborts when memory runs out).
 * Inline: views and trees make millions of small allocations. */
static inline void *arena_alloc(struct arena *a, size_t n)
{
	n = (n + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
	if (a->at && (size_t)(a->end - a->at) >= n) {
		void *p = a->at;
		a->at += n;
		return p;
	}
	return arena_alloc_slow(a, n);
}
/* Grow p, the last allocation made from a (n bytes asked), to m bytes where
 * it lies: true when its block has the room (else nothing changes). A
 * realloc that need not copy. */
bool arena_extend(struct arena *a, void *p, size_t n, size_t m);
/* Whether p lies in one of a's blocks. */
bool arena_owns(const struct arena *a, const void *p);
/* A copy of s's first n bytes, NUL-terminated, in a. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
/* Free every block; a can be used again. */
void arena_release(struct arena *a);

#endif
