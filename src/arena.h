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
	struct arena_block *blocks;
	size_t next_size;
};

#define ARENA_INIT {NULL, 0}

/* n bytes aligned for any type; never NULL (aborts when memory runs out). */
void *arena_alloc(struct arena *a, size_t n);
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
