/* value: the JSON-like data tree behind page views (see value.h). */
#include "value.h"
#include "arena.h"
#include "digest.h"
#include "xalloc.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the arena ---------------------------------------------------------------- */

static _Thread_local struct val_arena *current;

struct val_arena *val_arena_use(struct val_arena *a)
{
	struct val_arena *was = current;
	current = a;
	return was;
}

static void *arena_get(struct val_arena *a, size_t n) { return arena_alloc(&a->mem, n); }

void val_arena_release(struct val_arena *a)
{
	arena_release(&a->mem);
	for (size_t i = 0; i < a->nowned; i++)
		free(a->owned[i]);
	free(a->owned);
	memset(a, 0, sizeof *a);
}

static char *dup_n(const char *s, size_t n)
{
	if (!current)
		return xstrndup(s, n);
	char *d = arena_get(current, n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* Room for need items of size bytes in an array of a value. */
static void *grow_items(struct val *v, void *p, size_t need, size_t size)
{
	if (!v->in_arena)
		return xgrow(p, &v->cap, need, size);
	if (need <= v->cap)
		return p;
	size_t c = v->cap ? v->cap * 2 : 8;
	while (c < need)
		c *= 2;
	void *np = arena_get(current, c * size);
	if (v->n)
		memcpy(np, p, v->n * size);
	v->cap = c;
	return np;
}

/* ---- values ------------------------------------------------------------------- */

static struct val *val_new(enum val_kind k)
{
	struct val *v;
	if (current) {
		v = arena_get(current, sizeof *v);
		memset(v, 0, sizeof *v);
		v->in_arena = true;
	} else
		v = xcalloc(1, sizeof *v);
	v->kind = k;
	return v;
}

struct val *val_null(void) { return val_new(VAL_NULL); }

struct val *val_bool(bool b)
{
	struct val *v = val_new(VAL_BOOL);
	v->b = b;
	return v;
}

struct val *val_strn(const char *s, size_t n)
{
	struct val *v = val_new(VAL_STR);
	v->s = dup_n(s, n);
	v->slen = n;
	return v;
}

struct val *val_str(const char *s) { return val_strn(s ? s : "", s ? strlen(s) : 0); }

struct val *val_str_lasting(const char *s)
{
	if (!current)
		return val_str(s);
	struct val *v = val_new(VAL_STR);
	v->s = (char *)(s ? s : "");
	v->slen = strlen(v->s);
	return v;
}

struct val *val_fragment(const char *bytes, size_t n, uint32_t item)
{
	struct val *v = val_new(VAL_FRAGMENT);
	v->s = (char *)bytes;
	v->slen = n;
	v->item = item;
	return v;
}

struct val *val_str_own(char *s)
{
	struct val *v = val_new(VAL_STR);
	v->s = s;
	v->slen = strlen(s);
	if (v->in_arena) {
		current->owned = xgrow(current->owned, &current->capowned, current->nowned + 1,
				       sizeof *current->owned);
		current->owned[current->nowned++] = s;
	}
	return v;
}

struct val *val_concatv(const char *const *parts, size_t n)
{
	size_t len[8], total = 0;
	for (size_t i = 0; i < n && i < 8; i++)
		total += len[i] = parts[i] ? strlen(parts[i]) : 0;
	struct val *v = val_new(VAL_STR);
	char *p = v->s = current ? arena_get(current, total + 1) : xmalloc(total + 1);
	for (size_t i = 0; i < n && i < 8; i++) {
		memcpy(p, parts[i] ? parts[i] : "", len[i]);
		p += len[i];
	}
	*p = '\0';
	v->slen = total;
	return v;
}

struct val *val_concat(const char *a, const char *b)
{
	const char *parts[2] = {a, b};
	return val_concatv(parts, 2);
}

struct val *val_int(long long i)
{
	char tmp[24], *e = tmp + sizeof tmp, *p = e;
	unsigned long long u = i < 0 ? 0ULL - (unsigned long long)i : (unsigned long long)i;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (i < 0)
		*--p = '-';
	return val_strn(p, (size_t)(e - p));
}
struct val *val_list(void) { return val_new(VAL_LIST); }
struct val *val_map(void) { return val_new(VAL_MAP); }

struct val *val_ref(const struct val *target)
{
	struct val *v = val_new(VAL_REF);
	v->target = target;
	return v;
}

struct val *val_push(struct val *list, struct val *item)
{
	if (list->n >= list->cap) /* (most appends find room) */
		list->items = grow_items(list, list->items, list->n + 1, sizeof *list->items);
	list->items[list->n++] = item;
	return item;
}

struct val *val_set(struct val *map, const char *key, struct val *v)
{
	for (size_t i = 0; i < map->n; i++) {
		if (strcmp(map->pairs[i].key, key) == 0) {
			val_free(map->pairs[i].val);
			map->pairs[i].val = v;
			return v;
		}
	}
	size_t n = strlen(key);
	val_setkn(map, map->in_arena ? dup_n(key, n) : xstrdup(key), n, v);
	map->pairs[map->n - 1].own_key = !map->in_arena;
	return v;
}

/* A pair's key length (kept in 32 bits: a longer key is measured again). */
static size_t pair_keylen(const struct val_pair *p)
{
	return p->keylen < UINT32_MAX ? p->keylen : strlen(p->key);
}

struct val *val_setkn_room(struct val *map, const char *key, size_t keylen, struct val *v)
{
	if (map->n >= map->cap)
		map->pairs = grow_items(map, map->pairs, map->n + 1, sizeof *map->pairs);
	/* (a key of 4 GB or more, which no view has, is found by no lookup) */
#ifdef __SANITIZE_ADDRESS__
	/* the sanitized suite holds views to the contract: a key set twice is
	 * found as its first value only, and the second is lost */
	for (size_t i = 0; i < map->n; i++)
		if (map->pairs[i].keylen == keylen && !memcmp(map->pairs[i].key, key, keylen)) {
			fprintf(stderr, "val_setkn: key \"%.*s\" set twice in one map\n", (int)keylen, key);
			abort();
		}
#endif
	map->pairs[map->n] = (struct val_pair){key, v, false, keylen > UINT32_MAX ? UINT32_MAX : (uint32_t)keylen};
	map->n++;
	return v;
}

void val_set_str(struct val *map, const char *key, const char *s) { val_set(map, key, val_str(s)); }
void val_set_bool(struct val *map, const char *key, bool b) { val_set(map, key, val_bool(b)); }
void val_set_int(struct val *map, const char *key, long long i) { val_set(map, key, val_int(i)); }

const struct val *val_has_items(const struct val *map, const char *name, size_t n)
{
	static const struct val yes = {.kind = VAL_BOOL, .b = true};
	static const struct val no = {.kind = VAL_BOOL, .b = false};
	const struct val *l = val_getn(map, name, n);
	if (l && l->kind == VAL_LIST)
		return l->n ? &yes : &no;
	return NULL;
}

const struct val *val_get(const struct val *m, const char *key)
{
	return val_getn(m, key, strlen(key));
}

bool val_truthy(const struct val *v)
{
	v = val_deref(v);
	if (!v)
		return false;
	switch (v->kind) {
	case VAL_NULL: return false;
	case VAL_BOOL: return v->b;
	case VAL_STR: return v->slen > 0;
	case VAL_LIST: return v->n > 0;
	default: return true;
	}
}

struct val *val_copy(const struct val *v)
{
	v = val_deref(v);
	if (!v)
		return val_null();
	struct val *c;
	switch (v->kind) {
	case VAL_BOOL: return val_bool(v->b);
	case VAL_STR: return val_strn(v->s, v->slen);
	case VAL_FRAGMENT: return val_fragment(v->s, v->slen, v->item);
	case VAL_LIST:
		c = val_list();
		for (size_t i = 0; i < v->n; i++)
			val_push(c, val_copy(v->items[i]));
		return c;
	case VAL_MAP:
		c = val_map();
		for (size_t i = 0; i < v->n; i++)
			val_set(c, v->pairs[i].key, val_copy(v->pairs[i].val));
		return c;
	default: return val_null();
	}
}

void val_free(struct val *v)
{
	if (!v || v->in_arena)
		return;
	if (v->kind != VAL_FRAGMENT)
		free(v->s);
	for (size_t i = 0; i < v->n; i++) {
		if (v->kind == VAL_LIST)
			val_free(v->items[i]);
		else if (v->kind == VAL_MAP) {
			if (v->pairs[i].own_key)
				free((char *)v->pairs[i].key);
			val_free(v->pairs[i].val);
		}
	}
	free(v->items);
	free(v->pairs);
	free(v);
}

/* Each value as kind, size, then content: no two values feed the same words. */
static void digest_val(struct digest *d, const struct val *v, const struct val_memo *memo,
		       size_t nmemo)
{
	if (v && v->kind == VAL_REF) {
		for (size_t i = 0; i < nmemo; i++)
			if (memo[i].v == v->target) {
				uint64_t w[3] = {VAL_REF, memo[i].digest[0], memo[i].digest[1]};
				digest_feed(d, w, sizeof w);
				return;
			}
		digest_val(d, v->target, memo, nmemo);
		return;
	}
	if (!v) {
		digest_word(d, 0xFFu);
		return;
	}
	switch (v->kind) {
	case VAL_REF: break; /* handled above */
	case VAL_NULL: digest_word(d, VAL_NULL); break;
	case VAL_FRAGMENT:
		digest_word(d, VAL_FRAGMENT | (uint64_t)v->slen << 8);
		digest_feed(d, v->s, v->slen);
		break;
	case VAL_BOOL: digest_word(d, VAL_BOOL | (uint64_t)v->b << 8); break;
	case VAL_STR:
		digest_word(d, VAL_STR | (uint64_t)v->slen << 8);
		digest_feed(d, v->s, v->slen);
		break;
	case VAL_LIST:
		digest_word(d, VAL_LIST | (uint64_t)v->n << 8);
		for (size_t i = 0; i < v->n; i++)
			digest_val(d, v->items[i], memo, nmemo);
		break;
	case VAL_MAP:
		digest_word(d, VAL_MAP | (uint64_t)v->n << 8);
		for (size_t i = 0; i < v->n; i++) {
			size_t kl = pair_keylen(&v->pairs[i]);
			if (kl < 8) {
				/* a short key in one word, its length in the top byte */
				uint64_t w = 0;
				for (size_t b = 0; b < kl; b++)
					w |= (uint64_t)(unsigned char)v->pairs[i].key[b] << (8 * b);
				digest_word(d, w | (uint64_t)(0x40 | kl) << 56);
			} else {
				digest_word(d, kl);
				digest_feed(d, v->pairs[i].key, kl);
			}
			digest_val(d, v->pairs[i].val, memo, nmemo);
		}
		break;
	}
}

void val_digest(const struct val *v, const struct val_memo *memo, size_t nmemo,
		unsigned long long out[2])
{
	struct digest d;
	digest_start(&d);
	digest_val(&d, v, memo, nmemo);
	digest_end(&d, out);
}

static void indent_to(struct buf *out, int indent, int depth)
{
	if (indent < 0)
		return;
	buf_putc(out, '\n');
	for (int i = 0; i < indent * depth; i++)
		buf_putc(out, ' ');
}

static void to_json(const struct val *v, struct buf *out, int indent, int depth)
{
	v = val_deref(v);
	switch (v->kind) {
	case VAL_REF: break; /* unreachable: dereferenced above */
	case VAL_NULL: buf_puts(out, "null"); break;
	case VAL_FRAGMENT: buf_puts(out, "{}"); break;
	case VAL_BOOL: buf_puts(out, v->b ? "true" : "false"); break;
	case VAL_STR:
		buf_putc(out, '"');
		buf_put_json(out, v->s, v->slen);
		buf_putc(out, '"');
		break;
	case VAL_LIST:
		buf_putc(out, '[');
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				buf_putc(out, ',');
			indent_to(out, indent, depth + 1);
			to_json(v->items[i], out, indent, depth + 1);
		}
		if (v->n)
			indent_to(out, indent, depth);
		buf_putc(out, ']');
		break;
	case VAL_MAP:
		buf_putc(out, '{');
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				buf_putc(out, ',');
			indent_to(out, indent, depth + 1);
			buf_putc(out, '"');
			buf_put_json(out, v->pairs[i].key, pair_keylen(&v->pairs[i]));
			buf_puts(out, indent < 0 ? "\":" : "\": ");
			to_json(v->pairs[i].val, out, indent, depth + 1);
		}
		if (v->n)
			indent_to(out, indent, depth);
		buf_putc(out, '}');
		break;
	}
}

void val_to_json(const struct val *v, struct buf *out, int indent)
{
	to_json(v, out, indent, 0);
}
