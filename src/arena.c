/* arena: the bump allocator (see arena.h). */
#include "arena.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

static size_t rounded(size_t n)
{
	return (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
}

void *arena_alloc(struct arena *a, size_t n)
{
	n = rounded(n);
	struct arena_block *b = a->blocks;
	if (!b || b->size - b->used < n) {
		if (a->next_size < 16384)
			a->next_size = 16384;
		size_t size = n > a->next_size ? n : a->next_size;
		if (a->next_size < (1u << 20))
			a->next_size *= 2;
		b = xmalloc(sizeof *b + size);
		b->next = a->blocks;
		b->used = 0;
		b->size = size;
		a->blocks = b;
	}
	void *p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

bool arena_extend(struct arena *a, void *p, size_t n, size_t m)
{
	struct arena_block *b = a->blocks;
	n = rounded(n);
	m = rounded(m);
	if (!b || m < n || (char *)p + n != (char *)b->data + b->used || b->size - b->used < m - n)
		return false;
	b->used += m - n;
	return true;
}

bool arena_owns(const struct arena *a, const void *p)
{
	uintptr_t at = (uintptr_t)p;
	for (const struct arena_block *b = a->blocks; b; b = b->next)
		if (at >= (uintptr_t)b->data && at < (uintptr_t)b->data + b->size)
			return true;
	return false;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void arena_release(struct arena *a)
{
	while (a->blocks) {
		struct arena_block *next = a->blocks->next;
		free(a->blocks);
		a->blocks = next;
	}
	a->next_size = 0;
}
