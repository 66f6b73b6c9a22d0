/* fuzz_mustache: libFuzzer target for the Mustache engine. The input holds
 * up to three templates separated by NUL bytes: "main", then the partials
 * "p" and "layout" (so partials, parents, blocks and recursion all get
 * exercised). "main" is compiled and rendered against a fixed context with
 * strings, booleans, lists and maps. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "mustache.h"
#include "value.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct parts {
	const char *p[3];
	size_t n[3];
};

static char *load(void *ud, const char *name, size_t *len)
{
	const struct parts *t = ud;
	int i = !strcmp(name, "main") ? 0 : !strcmp(name, "p") ? 1 : !strcmp(name, "layout") ? 2 : -1;
	if (i < 0 || !t->p[i])
		return NULL;
	*len = t->n[i];
	return xstrndup(t->p[i], t->n[i]);
}

static struct val *context(void)
{
	struct val *root = val_map();
	val_set_str(root, "title", "A <b>title</b> & \"quotes\"");
	val_set_bool(root, "t", true);
	val_set_bool(root, "f", false);
	val_set_int(root, "n", 42);
	struct val *list = val_list();
	for (int i = 0; i < 3; i++) {
		struct val *item = val_map();
		val_set_int(item, "i", i);
		val_set_str(item, "name", i ? "x" : "");
		struct val *inner = val_list();
		val_push(inner, val_str("a"));
		val_push(inner, val_str("b"));
		val_set(item, "inner", inner);
		val_push(list, item);
	}
	val_set(root, "list", list);
	struct val *m = val_map();
	val_set_str(m, "a", "1");
	struct val *deep = val_map();
	val_set(deep, "self", val_str("."));
	val_set(m, "b", deep);
	val_set(root, "map", m);
	val_set(root, "empty", val_list());
	val_set(root, "null", val_null());
	return root;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 50000)
		return 0;
	struct parts t = {{0}, {0}};
	const char *s = (const char *)data, *end = s + size;
	for (int i = 0; i < 3 && s <= end; i++) {
		const char *z = memchr(s, 0, (size_t)(end - s));
		t.p[i] = s;
		t.n[i] = z ? (size_t)(z - s) : (size_t)(end - s);
		if (!z)
			break;
		s = z + 1;
	}
	struct mustache_set *set = mustache_set_new(load, &t);
	struct val *ctx = context();
	struct buf out = BUF_INIT;
	struct diags d = DIAGS_INIT;
	mustache_render(set, "main", ctx, &out, &d);
	/* the output limit holds (one op past it at most: the template's size) */
	if (out.n > MUSTACHE_MAX_OUTPUT + size + 4096)
		abort();
	buf_free(&out);
	diags_free(&d);
	val_free(ctx);
	mustache_set_free(set);
	return 0;
}
