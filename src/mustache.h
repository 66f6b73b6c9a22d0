/* mustache: the template engine. Owns parsing Mustache source into an op tree
 * (slices of the source, never copied), the set of compiled templates and
 * partials, and rendering a `struct val` through them. Implements the official
 * spec: comments, set delimiters, interpolation, sections, inverted sections,
 * partials (with standalone indentation) and the optional inheritance module
 * (parents `{{<layout}}` and blocks `{{$name}}`). Lambdas and dynamic names are
 * not supported. Level 4; calls only the util layer (buf, diag, value, xalloc).
 *
 * Names in templates: `.` is the current context; `a.b.c` looks `a` up through
 * the context stack (innermost first) and then `b`, `c` inside it. `{{x}}`
 * HTML-escapes, `{{{x}}}` and `{{&x}}` do not. Strings print as they are,
 * booleans as true/false, null, lists and maps as nothing. Truthiness is
 * val_truthy(): null, false, "" and [] are false. */
#ifndef SSG_MUSTACHE_H
#define SSG_MUSTACHE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "diag.h"
#include "value.h"

/* Deepest nesting of partials and parents while rendering; deeper is an error
 * (a recursive partial whose data never ends). */
#define MUSTACHE_MAX_DEPTH 100
/* Most ops one mustache_render may execute, and most bytes it may append:
 * beyond either it stops with an error (sections nested over lists multiply,
 * so a short template could otherwise ask for billions). */
#ifndef MUSTACHE_MAX_STEPS /* the fuzzing build lowers both */
#define MUSTACHE_MAX_STEPS 20000000ULL
#endif
#ifndef MUSTACHE_MAX_OUTPUT
#define MUSTACHE_MAX_OUTPUT ((size_t)256 << 20)
#endif
/* Deepest nesting of sections/blocks/parents inside one template source. */
#define MUSTACHE_MAX_NESTING 200

/* Loads the source of the template or partial called `name` (a NUL-terminated
 * name as written in the tag, e.g. "page" or "partials/nav"). Returns a string
 * allocated with malloc (or xmalloc) and stores its length in *len; the set
 * takes ownership and free()s it when the set is freed. Returns NULL when there
 * is no such template. It is called with the set's lock held, from whichever
 * thread compiles, and must not call back into the set. */
typedef char *(*mustache_load_fn)(void *ud, const char *name, size_t *len);

struct mustache_set;

/* A new, empty set of templates loaded lazily through load(ud, ...). Never
 * returns NULL. Free it with mustache_set_free(). */
struct mustache_set *mustache_set_new(mustache_load_fn load, void *ud);

/* Frees the set, every compiled template and every source the loader returned.
 * No render may be running. NULL is allowed. */
void mustache_set_free(struct mustache_set *set);

/* Compiles `name` and, transitively, every partial and parent it names, unless
 * already compiled. Problems are added to d (which may be NULL) as
 * `name:line:col: error: ...` (syntax errors) or warnings (a partial that the
 * loader does not know: it renders as nothing, as the spec says). A template
 * with a syntax error is kept as broken: it renders as nothing when used as a
 * partial, and mustache_render() of it returns -1.
 * Returns 0, or -1 when `name` is missing or broken or this call found a syntax
 * error in one of its partials. Thread-safe (takes the set's lock). */
int mustache_compile(struct mustache_set *set, const char *name, struct diags *d);

/* Renders template `name` against ctx (the root of the context stack; may be
 * NULL), appending to out. Compiles `name` first if needed (as
 * mustache_compile, reporting into d). Rendering itself does no parsing and
 * takes no lock: many threads may render from one set at once, each with its
 * own out and d. Returns 0 on success; -1 when the template is missing (error
 * added to d), broken (its errors were reported when it was compiled, nothing
 * is added again) or when partials nest deeper than MUSTACHE_MAX_DEPTH (error
 * added; out then holds partial output), or when it goes past
 * MUSTACHE_MAX_STEPS or MUSTACHE_MAX_OUTPUT (error added). d may be NULL. */
int mustache_render(struct mustache_set *set, const char *name, const struct val *ctx,
		    struct buf *out, struct diags *d);
/* The same, and where the string value `watch` (a value of ctx) went: *at is
 * its offset in what was appended when it went out exactly once, unescaped;
 * -1 otherwise. */
/* Where numbered list items (struct val.item) went in a rendering, so that
 * a later rendering of the same page can take an item's bytes instead of
 * building and rendering it again: a VAL_FRAGMENT in its place is written as
 * its bytes. Items rendered on an indented line (inside an indented partial)
 * are not noted, and a fragment met there is refused: the page must then be
 * rendered without fragments. */
struct mustache_item_place {
	uint32_t item;
	size_t at, len; /* in the rendering, from its first byte */
	/* an item that is a string: where it went itself, when exactly once
	 * (val_len bytes at val_at, in the rendering, HTML-escaped when
	 * val_escaped); val_once false otherwise. The rest of the item's
	 * bytes are then the template's text alone: it looked nothing up
	 * outside itself, and a non-empty string's sections go one way */
	bool val_once, val_escaped;
	size_t val_at, val_len;
};
struct mustache_items {
	struct mustache_item_place *v;
	size_t n, cap;
	bool refused;
};
void mustache_items_free(struct mustache_items *items);

/* mustache_render_locate, noting the items' places in *items (may be NULL). */
int mustache_render_items(struct mustache_set *set, const char *name, const struct val *ctx,
			  struct buf *out, struct diags *d, const struct val *watch, long *at,
			  struct mustache_items *items);

int mustache_render_locate(struct mustache_set *set, const char *name, const struct val *ctx,
			   struct buf *out, struct diags *d, const struct val *watch, long *at);

#endif
