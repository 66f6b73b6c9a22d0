/* hash: string-keyed open-addressing table with linear probing (see hash.h). */
#include "hash.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Eight bytes a step (a byte a step was the hottest loop of the model):
 * each word is mixed in by a multiply, and the end avalanches the bits into
 * the low ones that pick a slot. */
unsigned long long hash_str(const char *s)
{
	size_t n = strlen(s);
	uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
	const char *p = s;
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
		h ^= h >> 29;
	}
	uint64_t w = 0;
	memcpy(&w, p, n);
	h = (h ^ w) * 0xC4CEB9FE1A85EC53ULL;
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDULL;
	return h ^ (h >> 33);
}

static void insert_slot(struct hash_slot *slots, size_t cap, const char *key, size_t val,
			unsigned long long h)
{
	size_t i = (size_t)h & (cap - 1);
	while (slots[i].key)
		i = (i + 1) & (cap - 1);
	slots[i] = (struct hash_slot){key, val, h};
}

static void resize(struct hash *t, size_t cap)
{
	struct hash_slot *s = xcalloc(cap, sizeof *s);
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].key)
			insert_slot(s, cap, t->slots[i].key, t->slots[i].val, t->slots[i].h);
	free(t->slots);
	t->slots = s;
	t->cap = cap;
}

static void grow(struct hash *t)
{
	resize(t, t->cap ? t->cap * 2 : 64);
}

void hash_prefetch(const struct hash *t, unsigned long long h)
{
	if (t->cap)
		__builtin_prefetch(&t->slots[(size_t)h & (t->cap - 1)]);
}

const struct hash_slot *hash_first_slot(const struct hash *t, unsigned long long h)
{
	if (!t->cap)
		return NULL;
	const struct hash_slot *s = &t->slots[(size_t)h & (t->cap - 1)];
	return s->key && s->h == h ? s : NULL;
}

void hash_reserve(struct hash *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 64;
	while ((n + 1) * 4 > cap * 3)
		cap *= 2;
	if (cap > t->cap)
		resize(t, cap);
}

void hash_put(struct hash *t, const char *key, size_t val)
{
	hash_put_h(t, key, hash_str(key), val);
}

void hash_put_h(struct hash *t, const char *key, unsigned long long h, size_t val)
{
	if ((t->n + 1) * 4 > t->cap * 3)
		grow(t);
	size_t i = (size_t)h & (t->cap - 1);
	while (t->slots[i].key) {
		if (t->slots[i].h == h && !strcmp(t->slots[i].key, key)) {
			t->slots[i].val = val;
			return;
		}
		i = (i + 1) & (t->cap - 1);
	}
	t->slots[i] = (struct hash_slot){key, val, h};
	t->n++;
}

bool hash_get(const struct hash *t, const char *key, size_t *val)
{
	return t->cap && hash_get_h(t, key, hash_str(key), val);
}

bool hash_get_h(const struct hash *t, const char *key, unsigned long long h, size_t *val)
{
	if (!t->cap)
		return false;
	size_t i = (size_t)h & (t->cap - 1);
	while (t->slots[i].key) {
		if (t->slots[i].h == h && !strcmp(t->slots[i].key, key)) {
			if (val)
				*val = t->slots[i].val;
			return true;
		}
		i = (i + 1) & (t->cap - 1);
	}
	return false;
}

void hash_free(struct hash *t)
{
	free(t->slots);
	t->slots = NULL;
	t->n = t->cap = 0;
}
