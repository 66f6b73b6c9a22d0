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
/* Free every block; a can be used again. */
void arena_release(struct arena *a);

#endif
