/* arena: the bump allocator (see arena.h). */
#include "arena.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
	struct arena_block *next;
	size_t size;
	max_align_t data[];
};

static size_t rounded(size_t n)
{
	return (n + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
}

void *arena_alloc_slow(struct arena *a, size_t n)
{
	n = rounded(n);
	if (a->next_size < 16384)
		a->next_size = 16384;
	size_t size = n > a->next_size ? n : a->next_size;
	if (a->next_size < (1u << 20))
		a->next_size *= 2;
	struct arena_block *b = xmalloc(sizeof *b + size);
	b->next = a->blocks;
	b->size = size;
	a->blocks = b;
	a->at = (char *)b->data + n;
	a->end = (char *)b->data + size;
	return b->data;
}

bool arena_extend(struct arena *a, void *p, size_t n, size_t m)
{
	n = rounded(n);
	m = rounded(m);
	if (!a->at || m < n || (char *)p + n != a->at || (size_t)(a->end - a->at) < m - n)
		return false;
	a->at += m - n;
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
	a->at = a->end = NULL;
}
