/* value: a small JSON-like data tree (null, bool, string, list, map). Page
 * views are built as values, the Mustache engine renders them, and the JSON
 * writer serialises them (resources.json, search index). A value owns its
 * children; maps keep insertion order (deterministic output). Level 0. */
#ifndef SSG_VALUE_H
#define SSG_VALUE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "buf.h"

/* VAL_REF borrows another value (shared, read-only parts of many views, like
 * the navigation): lookups and iteration see through it; freeing a ref leaves
 * its target alone. VAL_FRAGMENT is an item of a list already rendered: its
 * bytes (borrowed) stand for it where a Mustache section iterates over the
 * list (mustache.h); anywhere else it reads as an empty map. */
enum val_kind { VAL_NULL, VAL_BOOL, VAL_STR, VAL_LIST, VAL_MAP, VAL_REF, VAL_FRAGMENT };

struct val;

struct val_pair {
	const char *key;
	struct val *val;
	bool own_key;       /* key is a heap copy freed with the map */
	uint32_t keylen;    /* strlen(key): a lookup compares lengths first */
};

struct val {
	enum val_kind kind;
	bool b;             /* VAL_BOOL */
	char *s;            /* VAL_STR, NUL-terminated; VAL_FRAGMENT's bytes (borrowed) */
	size_t slen;        /* their length */
	struct val **items; /* VAL_LIST */
	struct val_pair *pairs; /* VAL_MAP */
	size_t n, cap;      /* items or pairs */
	const struct val *target; /* VAL_REF */
	bool in_arena;      /* allocated from a val_arena: freed with it, not by val_free */
	uint32_t item;      /* a list item whose place in a rendering is noted (mustache.h's
			     * mustache_items): its number, from 1; 0 for none */
};

/* An arena for values built by the thousand and dropped together (a page's
 * view). While an arena is in use on a thread, every value that thread makes
 * comes from it, and val_free of such a value does nothing: the arena's
 * release frees them all at once. Values made outside (shared parts of views)
 * can be referenced with val_ref, never owned by an arena value. */
struct val_arena {
	struct arena mem;
	char **owned;       /* heap strings handed over with val_str_own */
	size_t nowned, capowned;
};
#define VAL_ARENA_INIT {ARENA_INIT, NULL, 0, 0}
/* Make a the thread's current arena (NULL: back to the heap); the one it
 * was. */
struct val_arena *val_arena_use(struct val_arena *a);
/* Free everything a holds; a can be used again. */
void val_arena_release(struct val_arena *a);

struct val *val_null(void);
struct val *val_bool(bool b);
struct val *val_str(const char *s);             /* copies */
struct val *val_strn(const char *s, size_t n);  /* copies */
struct val *val_str_own(char *s);               /* takes ownership of a heap string */
/* A string that outlives the value (the model's, during rendering): an arena
 * value refers to it, any other copies it. */
struct val *val_str_lasting(const char *s);
struct val *val_concat(const char *a, const char *b); /* a string of a then b */
/* A string of up to 8 parts, one after another (NULL parts are empty). */
struct val *val_concatv(const char *const *parts, size_t n);
struct val *val_int(long long i);               /* a string of the decimal number */
struct val *val_list(void);
struct val *val_map(void);
/* A borrowed reference to target, which must outlive it. */
struct val *val_ref(const struct val *target);
/* A list item already rendered as these n bytes (borrowed: they must outlive
 * the value), numbered item (0: none) like the item it stands for. */
struct val *val_fragment(const char *bytes, size_t n, uint32_t item);
/* The value itself, or what a ref points at. */
static inline const struct val *val_deref(const struct val *v)
{
	while (v && v->kind == VAL_REF)
		v = v->target;
	return v;
}

/* Append to a list; takes ownership of item. Returns item. */
struct val *val_push(struct val *list, struct val *item);
/* Set key in a map (replacing an existing one); takes ownership of v. Returns v. */
struct val *val_set(struct val *map, const char *key, struct val *v);
/* Shorthands for val_set with a fresh string / bool / int value. */
void val_set_str(struct val *map, const char *key, const char *s);
void val_set_bool(struct val *map, const char *key, bool b);
void val_set_int(struct val *map, const char *key, long long i);
/* The same with a borrowed key (a string literal, or one that outlives the
 * map) and no check for an existing key: the caller sets each key once.
 * Page views use these; they are built by the thousand. */
struct val *val_setkn_room(struct val *map, const char *key, size_t keylen, struct val *v);
/* (inline, as a page's view sets a million keys: the pair put where the map
 * has room; val_setkn_room grows it first, and under AddressSanitizer checks
 * every key is set once) */
static inline struct val *val_setkn(struct val *map, const char *key, size_t keylen,
				    struct val *v)
{
#ifndef __SANITIZE_ADDRESS__
	if (map->n < map->cap) {
		/* (a key of 4 GB or more, which no view has, is found by no lookup) */
		map->pairs[map->n++] = (struct val_pair){
			key, v, false, keylen > UINT32_MAX ? UINT32_MAX : (uint32_t)keylen};
		return v;
	}
#endif
	return val_setkn_room(map, key, keylen, v);
}
/* (inline: a literal key's length is known where it is written) */
static inline struct val *val_setk(struct val *map, const char *key, struct val *v)
{
	return val_setkn(map, key, strlen(key), v);
}
static inline void val_setk_str(struct val *map, const char *key, const char *s)
{
	val_setk(map, key, val_str(s));
}
static inline void val_setk_lasting(struct val *map, const char *key, const char *s)
{
	val_setk(map, key, val_str_lasting(s));
}
static inline void val_setk_bool(struct val *map, const char *key, bool b)
{
	val_setk(map, key, val_bool(b));
}
static inline void val_setk_int(struct val *map, const char *key, long long i)
{
	val_setk(map, key, val_int(i));
}

/* Look a key up in a map; NULL when absent or when m is not a map. A key
 * "has_<name>" that the map does not hold, where <name> is a list, reads as
 * whether that list has items (templates wrap a list in markup only when it
 * has items). */
const struct val *val_get(const struct val *m, const char *key);
/* (a map's "has_<name>" it does not hold, <name> after the prefix) */
const struct val *val_has_items(const struct val *map, const char *name, size_t n);
/* (the lookups' parts, inline: the Mustache renderer looks a million tags
 * up a thousand pages) Whether pair p holds key; where in map m (a map) key
 * is, m->n when nowhere; what a lookup of a key m lacks gives. */
static inline bool val_pair_is(const struct val_pair *p, const char *key, size_t keylen)
{
	return p->keylen == keylen && !memcmp(p->key, key, keylen);
}
static inline size_t val_key_at(const struct val *m, const char *key, size_t keylen)
{
	size_t i = 0;
	while (i < m->n && !val_pair_is(&m->pairs[i], key, keylen))
		i++;
	return i;
}
static inline const struct val *val_key_missing(const struct val *m, const char *key,
						size_t keylen)
{
	return keylen > 4 && !memcmp(key, "has_", 4) ? val_has_items(m, key + 4, keylen - 4)
						      : NULL;
}
static inline const struct val *val_getn(const struct val *m, const char *key, size_t keylen)
{
	m = val_deref(m);
	if (!m || m->kind != VAL_MAP)
		return NULL;
	size_t i = val_key_at(m, key, keylen);
	return i < m->n ? val_deref(m->pairs[i].val) : val_key_missing(m, key, keylen);
}
/* The same with a guess: *hint is where in a map's pairs the key was found
 * last (a template's tag looks its name up in views of one shape, page after
 * page); a map's keys are unique, so the key found there is the map's
 * answer. *hint is updated where a scan finds it (relaxed: threads that
 * share it only ever lose a guess). */
static inline const struct val *val_getn_hint(const struct val *m, const char *key,
					      size_t keylen, uint32_t *hint)
{
	m = val_deref(m);
	if (!m || m->kind != VAL_MAP)
		return NULL;
	uint32_t h = __atomic_load_n(hint, __ATOMIC_RELAXED);
	if (h < m->n && val_pair_is(&m->pairs[h], key, keylen))
		return val_deref(m->pairs[h].val);
	size_t i = val_key_at(m, key, keylen);
	if (i == m->n)
		return val_key_missing(m, key, keylen);
	__atomic_store_n(hint, (uint32_t)i, __ATOMIC_RELAXED);
	return val_deref(m->pairs[i].val);
}
/* Mustache truthiness: null, false, "" (no), empty list are false. */
bool val_truthy(const struct val *v);
struct val *val_copy(const struct val *v);
void val_free(struct val *v);

/* A 128-bit digest of a value's content: equal values, equal digests.
 * A ref is digested through its target, except targets listed in memo
 * (shared parts of many views), whose digests are given. */
struct val_memo {
	const struct val *v;
	unsigned long long digest[2];
};
void val_digest(const struct val *v, const struct val_memo *memo, size_t nmemo,
		unsigned long long out[2]);

/* Serialise as JSON: compact when indent < 0, else pretty with that many spaces. */
void val_to_json(const struct val *v, struct buf *out, int indent);

#endif
