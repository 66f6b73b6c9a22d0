/* yamlx: libyaml behind typed lookups that keep source marks, so every
 * config or front-matter problem can name `path:line:col`. A loaded document
 * is read-only; nodes are small integer handles (0 = none). Level 1. */
#ifndef SSG_YAMLX_H
#define SSG_YAMLX_H
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

enum ykind { Y_NONE, Y_SCALAR, Y_SEQ, Y_MAP };

struct yamlx {
	void *doc;       /* yaml_document_t */
	char *path;
	int line_offset; /* added to every reported line (front matter) */
};

typedef int ynode;

/* Parse text; on a syntax error records `path:line:col: error: ...` and returns -1.
 * An empty text loads as a document with no root. */
int yamlx_load(struct yamlx *y, const char *text, size_t n, const char *path, int line_offset,
	       struct diags *d);
void yamlx_free(struct yamlx *y);

ynode yamlx_root(const struct yamlx *y);
enum ykind yamlx_kind(const struct yamlx *y, ynode n);
/* Scalar text (NULL unless a scalar); whether it was plain (unquoted). */
const char *yamlx_scalar(const struct yamlx *y, ynode n);
bool yamlx_plain(const struct yamlx *y, ynode n);
/* Number of items of a sequence or pairs of a mapping. */
size_t yamlx_len(const struct yamlx *y, ynode n);
ynode yamlx_item(const struct yamlx *y, ynode seq, size_t i);
ynode yamlx_key(const struct yamlx *y, ynode map, size_t i);
ynode yamlx_value(const struct yamlx *y, ynode map, size_t i);
/* Value of a key in a mapping (first match); 0 when absent. */
ynode yamlx_get(const struct yamlx *y, ynode map, const char *key);
int yamlx_line(const struct yamlx *y, ynode n);
int yamlx_col(const struct yamlx *y, ynode n);
const char *yamlx_kind_name(enum ykind k);

/* Typed readers: on a wrong type they record an error naming the key and return -1. */
int yamlx_get_str(const struct yamlx *y, ynode n, const char *what, char **out, struct diags *d);
int yamlx_get_bool(const struct yamlx *y, ynode n, const char *what, bool *out, struct diags *d);
int yamlx_get_int(const struct yamlx *y, ynode n, const char *what, long *out, struct diags *d);
/* The most text a list of strings may hold (YAML aliases let a few bytes
 * stand for a long anchor, again and again). */
#define YAMLX_MAX_LIST_BYTES (1 << 20)
/* A string or a sequence of strings into a NULL-terminated array; past
 * YAMLX_MAX_LIST_BYTES of text, an error and the rest left out. */
int yamlx_get_strlist(const struct yamlx *y, ynode n, const char *what, char ***out, size_t *count,
		      struct diags *d);
/* Record `path:line:col: error: ...` at node n. */
void yamlx_error(const struct yamlx *y, ynode n, struct diags *d, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
