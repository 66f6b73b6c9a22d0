/* value: the JSON-like data tree behind page views (see value.h). */
#include "value.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct val *val_new(enum val_kind k)
{
	struct val *v = xcalloc(1, sizeof *v);
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
	v->s = xstrndup(s, n);
	v->slen = n;
	return v;
}

struct val *val_str(const char *s) { return val_strn(s ? s : "", s ? strlen(s) : 0); }

struct val *val_str_own(char *s)
{
	struct val *v = val_new(VAL_STR);
	v->s = s;
	v->slen = strlen(s);
	return v;
}

struct val *val_int(long long i) { return val_str_own(xasprintf("%lld", i)); }
struct val *val_list(void) { return val_new(VAL_LIST); }
struct val *val_map(void) { return val_new(VAL_MAP); }

struct val *val_ref(const struct val *target)
{
	struct val *v = val_new(VAL_REF);
	v->target = target;
	return v;
}

const struct val *val_deref(const struct val *v)
{
	while (v && v->kind == VAL_REF)
		v = v->target;
	return v;
}

struct val *val_push(struct val *list, struct val *item)
{
	list->items = xgrow(list->items, &list->cap, list->n + 1, sizeof *list->items);
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
	map->pairs = xgrow(map->pairs, &map->cap, map->n + 1, sizeof *map->pairs);
	map->pairs[map->n].key = xstrdup(key);
	map->pairs[map->n].val = v;
	map->pairs[map->n].own_key = true;
	map->n++;
	return v;
}

struct val *val_setk(struct val *map, const char *key, struct val *v)
{
	map->pairs = xgrow(map->pairs, &map->cap, map->n + 1, sizeof *map->pairs);
	map->pairs[map->n].key = key;
	map->pairs[map->n].val = v;
	map->pairs[map->n].own_key = false;
	map->n++;
	return v;
}

void val_setk_str(struct val *map, const char *key, const char *s) { val_setk(map, key, val_str(s)); }
void val_setk_bool(struct val *map, const char *key, bool b) { val_setk(map, key, val_bool(b)); }
void val_setk_int(struct val *map, const char *key, long long i) { val_setk(map, key, val_int(i)); }

void val_set_str(struct val *map, const char *key, const char *s) { val_set(map, key, val_str(s)); }
void val_set_bool(struct val *map, const char *key, bool b) { val_set(map, key, val_bool(b)); }
void val_set_int(struct val *map, const char *key, long long i) { val_set(map, key, val_int(i)); }

const struct val *val_getn(const struct val *m, const char *key, size_t keylen)
{
	static const struct val yes = {.kind = VAL_BOOL, .b = true};
	static const struct val no = {.kind = VAL_BOOL, .b = false};
	m = val_deref(m);
	if (!m || m->kind != VAL_MAP)
		return NULL;
	for (size_t i = 0; i < m->n; i++)
		if (strncmp(m->pairs[i].key, key, keylen) == 0 && m->pairs[i].key[keylen] == '\0')
			return val_deref(m->pairs[i].val);
	/* has_<key> of a list key not set explicitly: whether the list has items */
	if (keylen > 4 && !strncmp(key, "has_", 4)) {
		const struct val *l = val_getn(m, key + 4, keylen - 4);
		if (l && l->kind == VAL_LIST)
			return l->n ? &yes : &no;
	}
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
	if (!v)
		return;
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
			buf_put_json(out, v->pairs[i].key, strlen(v->pairs[i].key));
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
