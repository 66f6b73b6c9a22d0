/* hash: an open-addressing hash table from NUL-terminated string keys to
 * size_t values. Keys are borrowed: they must outlive the table. Level 0. */
#ifndef SSG_HASH_H
#define SSG_HASH_H
#include <stdbool.h>
#include <stddef.h>

struct hash_slot {
	const char *key;
	size_t val;
	unsigned long long h;
};

struct hash {
	struct hash_slot *slots;
	size_t n, cap; /* cap is 0 or a power of two */
};

#define HASH_INIT {NULL, 0, 0}

unsigned long long hash_str(const char *s);
/* Insert or replace. */
void hash_put(struct hash *t, const char *key, size_t val);
/* True and *val set when key is present. */
bool hash_get(const struct hash *t, const char *key, size_t *val);
/* The same with the key's hash_str() known (computed where the key was
 * made, off a serial path). */
void hash_put_h(struct hash *t, const char *key, unsigned long long h, size_t val);
bool hash_get_h(const struct hash *t, const char *key, unsigned long long h, size_t *val);
/* Ask the memory for the slot a key of hash h is looked up in first; then
 * (once that slot has come) for what it holds: its key, and *val when its
 * hash is h (NULL: none). Hints only, for lookups made in batches. */
void hash_prefetch(const struct hash *t, unsigned long long h);
const struct hash_slot *hash_first_slot(const struct hash *t, unsigned long long h);
/* Room for n keys without growing. */
void hash_reserve(struct hash *t, size_t n);
void hash_free(struct hash *t);

#endif
