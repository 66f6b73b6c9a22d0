/* yamlx: typed, mark-keeping access to libyaml documents (see yamlx.h). */
#include "yamlx.h"
#include "xalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define DOC(y) ((yaml_document_t *)(y)->doc)

static yaml_node_t *node(const struct yamlx *y, ynode n)
{
	return (y->doc && n > 0) ? yaml_document_get_node(DOC(y), n) : NULL;
}

int yamlx_load(struct yamlx *y, const char *text, size_t n, const char *path, int line_offset,
	       struct diags *d)
{
	memset(y, 0, sizeof *y);
	y->path = xstrdup(path);
	y->line_offset = line_offset;
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) {
		diag_add(d, SEV_ERROR, path, 0, 0, "cannot initialise the YAML parser");
		yamlx_free(y);
		return -1;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)text, n);
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
	yaml_document_t *doc = xcalloc(1, sizeof *doc);
	if (!yaml_parser_load(&p, doc)) {
		yaml_mark_t m = p.problem_mark;
		diag_add(d, SEV_ERROR, path, (int)m.line + 1 + line_offset, (int)m.column + 1,
			 "invalid YAML: %s%s%s", p.problem ? p.problem : "syntax error",
			 p.context ? " " : "", p.context ? p.context : "");
		yaml_parser_delete(&p);
		free(doc);
		yamlx_free(y); /* nothing to free for the caller after a failure */
		return -1;
	}
	yaml_parser_delete(&p);
	y->doc = doc;
	return 0;
}

void yamlx_free(struct yamlx *y)
{
	if (y->doc) {
		yaml_document_delete(DOC(y));
		free(y->doc);
	}
	free(y->path);
	memset(y, 0, sizeof *y);
}

ynode yamlx_root(const struct yamlx *y)
{
	return (y->doc && yaml_document_get_root_node(DOC(y))) ? 1 : 0;
}

enum ykind yamlx_kind(const struct yamlx *y, ynode n)
{
	yaml_node_t *x = node(y, n);
	if (!x)
		return Y_NONE;
	switch (x->type) {
	case YAML_SCALAR_NODE: return Y_SCALAR;
	case YAML_SEQUENCE_NODE: return Y_SEQ;
	case YAML_MAPPING_NODE: return Y_MAP;
	default: return Y_NONE;
	}
}

const char *yamlx_kind_name(enum ykind k)
{
	switch (k) {
	case Y_SCALAR: return "a scalar";
	case Y_SEQ: return "a list";
	case Y_MAP: return "a mapping";
	default: return "nothing";
	}
}

const char *yamlx_scalar(const struct yamlx *y, ynode n)
{
	yaml_node_t *x = node(y, n);
	return x && x->type == YAML_SCALAR_NODE ? (const char *)x->data.scalar.value : NULL;
}

bool yamlx_plain(const struct yamlx *y, ynode n)
{
	yaml_node_t *x = node(y, n);
	return x && x->type == YAML_SCALAR_NODE && x->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

size_t yamlx_len(const struct yamlx *y, ynode n)
{
	yaml_node_t *x = node(y, n);
	if (!x)
		return 0;
	if (x->type == YAML_SEQUENCE_NODE)
		return (size_t)(x->data.sequence.items.top - x->data.sequence.items.start);
	if (x->type == YAML_MAPPING_NODE)
		return (size_t)(x->data.mapping.pairs.top - x->data.mapping.pairs.start);
	return 0;
}

ynode yamlx_item(const struct yamlx *y, ynode seq, size_t i)
{
	yaml_node_t *x = node(y, seq);
	if (!x || x->type != YAML_SEQUENCE_NODE || i >= yamlx_len(y, seq))
		return 0;
	return x->data.sequence.items.start[i];
}

ynode yamlx_key(const struct yamlx *y, ynode map, size_t i)
{
	yaml_node_t *x = node(y, map);
	if (!x || x->type != YAML_MAPPING_NODE || i >= yamlx_len(y, map))
		return 0;
	return x->data.mapping.pairs.start[i].key;
}

ynode yamlx_value(const struct yamlx *y, ynode map, size_t i)
{
	yaml_node_t *x = node(y, map);
	if (!x || x->type != YAML_MAPPING_NODE || i >= yamlx_len(y, map))
		return 0;
	return x->data.mapping.pairs.start[i].value;
}

ynode yamlx_get(const struct yamlx *y, ynode map, const char *key)
{
	size_t n = yamlx_len(y, map);
	if (yamlx_kind(y, map) != Y_MAP)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const char *k = yamlx_scalar(y, yamlx_key(y, map, i));
		if (k && strcmp(k, key) == 0)
			return yamlx_value(y, map, i);
	}
	return 0;
}

int yamlx_line(const struct yamlx *y, ynode n)
{
	yaml_node_t *x = node(y, n);
	return x ? (int)x->start_mark.line + 1 + y->line_offset : 0;
}

int yamlx_col(const struct yamlx *y, ynode n)
{
	yaml_node_t *x = node(y, n);
	return x ? (int)x->start_mark.column + 1 : 0;
}

void yamlx_error(const struct yamlx *y, ynode n, struct diags *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	diag_add(d, SEV_ERROR, y->path, yamlx_line(y, n), yamlx_col(y, n), "%s", msg ? msg : fmt);
	free(msg);
}

static bool is_null_scalar(const struct yamlx *y, ynode n)
{
	const char *s = yamlx_scalar(y, n);
	return s && yamlx_plain(y, n) && (!*s || !strcmp(s, "~") || !strcmp(s, "null"));
}

int yamlx_get_str(const struct yamlx *y, ynode n, const char *what, char **out, struct diags *d)
{
	const char *s = yamlx_scalar(y, n);
	if (!s) {
		yamlx_error(y, n, d, "'%s' must be a string, not %s", what,
			    yamlx_kind_name(yamlx_kind(y, n)));
		return -1;
	}
	free(*out);
	*out = xstrdup(is_null_scalar(y, n) ? "" : s);
	return 0;
}

int yamlx_get_bool(const struct yamlx *y, ynode n, const char *what, bool *out, struct diags *d)
{
	const char *s = yamlx_scalar(y, n);
	if (s && (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "True") || !strcmp(s, "on"))) {
		*out = true;
		return 0;
	}
	if (s && (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "False") || !strcmp(s, "off"))) {
		*out = false;
		return 0;
	}
	yamlx_error(y, n, d, "'%s' must be true or false", what);
	return -1;
}

int yamlx_get_int(const struct yamlx *y, ynode n, const char *what, long *out, struct diags *d)
{
	const char *s = yamlx_scalar(y, n);
	char *end = NULL;
	errno = 0;
	long v = s ? strtol(s, &end, 10) : 0;
	if (!s || !*s || *end || errno) {
		yamlx_error(y, n, d, "'%s' must be an integer", what);
		return -1;
	}
	*out = v;
	return 0;
}

int yamlx_get_strlist(const struct yamlx *y, ynode n, const char *what, char ***out, size_t *count,
		      struct diags *d)
{
	size_t cnt = 0, cap = 0;
	char **v = NULL;
	if (yamlx_kind(y, n) == Y_SCALAR) {
		v = xgrow(v, &cap, 2, sizeof *v);
		v[cnt++] = xstrdup(yamlx_scalar(y, n));
	} else if (yamlx_kind(y, n) == Y_SEQ) {
		size_t len = yamlx_len(y, n), bytes = 0;
		v = xgrow(v, &cap, len + 1, sizeof *v);
		for (size_t i = 0; i < len; i++) {
			ynode it = yamlx_item(y, n, i);
			const char *s = yamlx_scalar(y, it);
			if (!s) {
				yamlx_error(y, it, d, "items of '%s' must be strings", what);
				continue;
			}
			/* an alias repeats its anchor's text for a few bytes each:
			 * a list of them would be the square of its source */
			bytes += strlen(s);
			if (bytes > YAMLX_MAX_LIST_BYTES) {
				yamlx_error(y, it, d, "'%s' holds more than %d bytes of text: the rest is left out",
					    what, YAMLX_MAX_LIST_BYTES);
				break;
			}
			v[cnt++] = xstrdup(s);
		}
	} else {
		yamlx_error(y, n, d, "'%s' must be a string or a list of strings", what);
		return -1;
	}
	v = xgrow(v, &cap, cnt + 1, sizeof *v);
	v[cnt] = NULL;
	/* append to what is there */
	size_t old = *count;
	*out = xrealloc(*out, (old + cnt + 1) * sizeof **out);
	memcpy(*out + old, v, cnt * sizeof *v);
	(*out)[old + cnt] = NULL;
	*count = old + cnt;
	free(v);
	return 0;
}
