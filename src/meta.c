/* meta: document metadata from YAML mappings (see meta.h). */
#include "meta.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static bool valid_date(const char *s)
{
	/* YYYY-MM-DD, optionally followed by a time we ignore */
	if (strlen(s) < 10)
		return false;
	for (int i = 0; i < 10; i++) {
		if (i == 4 || i == 7) {
			if (s[i] != '-')
				return false;
		} else if (s[i] < '0' || s[i] > '9')
			return false;
	}
	return true;
}

static int read_date(const struct yamlx *y, ynode v, const char *key, char **out, struct diags *d)
{
	if (yamlx_get_str(y, v, key, out, d))
		return -1;
	if (!valid_date(*out)) {
		yamlx_error(y, v, d, "'%s' must be a date YYYY-MM-DD, not \"%s\"", key, *out);
		free(*out);
		*out = NULL;
		return -1;
	}
	(*out)[10] = '\0';
	return 0;
}

int meta_from_yaml(const struct yamlx *y, ynode map, struct doc_meta *m, struct diags *d)
{
	if (yamlx_kind(y, map) != Y_MAP) {
		yamlx_error(y, map, d, "document metadata must be a mapping of keys, not %s",
			    yamlx_kind_name(yamlx_kind(y, map)));
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < yamlx_len(y, map); i++) {
		ynode k = yamlx_key(y, map, i), v = yamlx_value(y, map, i);
		const char *key = yamlx_scalar(y, k);
		if (!key) {
			yamlx_error(y, k, d, "keys must be strings");
			rc = -1;
		} else if (!strcmp(key, "title"))
			rc |= yamlx_get_str(y, v, key, &m->title, d);
		else if (!strcmp(key, "slug")) {
			rc |= yamlx_get_str(y, v, key, &m->slug, d);
			m->slug_line = yamlx_line(y, v);
			m->slug_col = yamlx_col(y, v);
			free(m->slug_path);
			m->slug_path = xstrdup(y->path);
		}
		else if (!strcmp(key, "description"))
			rc |= yamlx_get_str(y, v, key, &m->description, d);
		else if (!strcmp(key, "date"))
			rc |= read_date(y, v, key, &m->date, d);
		else if (!strcmp(key, "updated") || !strcmp(key, "lastmod"))
			rc |= read_date(y, v, key, &m->updated, d);
		else if (!strcmp(key, "weight")) {
			if (yamlx_get_int(y, v, key, &m->weight, d) == 0)
				m->has_weight = true;
			else
				rc = -1;
		} else if (!strcmp(key, "draft"))
			rc |= yamlx_get_bool(y, v, key, &m->draft, d);
		else if (!strcmp(key, "topics") || !strcmp(key, "tags") ||
			 !strcmp(key, "categories")) {
			rc |= yamlx_get_strlist(y, v, key, &m->topics, &m->ntopics, d);
			m->topics_line = yamlx_line(y, v);
			m->topics_col = yamlx_col(y, v);
			free(m->topics_path);
			m->topics_path = xstrdup(y->path);
		} else {
			/* a typo must not pass silently, but foreign keys (other
			 * generators' front matter) must not break the build either */
			diag_addc(d, SEV_WARNING, "unknown-key", y->path, yamlx_line(y, k),
				  yamlx_col(y, k),
				  "unknown front-matter key '%s' ignored (known: title, slug, "
				  "description, date, updated, weight, draft, topics, tags, categories)",
				  key);
		}
	}
	return rc ? -1 : 0;
}

static void take_str(char **dst, char *const *src)
{
	if (!*dst && *src)
		*dst = xstrdup(*src);
}

void meta_merge(struct doc_meta *dst, const struct doc_meta *src)
{
	take_str(&dst->title, &src->title);
	if (!dst->slug && src->slug) {
		dst->slug = xstrdup(src->slug);
		dst->slug_line = src->slug_line;
		dst->slug_col = src->slug_col;
		take_str(&dst->slug_path, &src->slug_path);
	}
	take_str(&dst->description, &src->description);
	take_str(&dst->date, &src->date);
	take_str(&dst->updated, &src->updated);
	if (!dst->has_weight && src->has_weight) {
		dst->weight = src->weight;
		dst->has_weight = true;
	}
	dst->draft = dst->draft || src->draft;
	if (!dst->ntopics && src->ntopics) {
		dst->topics = xcalloc(src->ntopics + 1, sizeof *dst->topics);
		for (size_t i = 0; i < src->ntopics; i++)
			dst->topics[i] = xstrdup(src->topics[i]);
		dst->ntopics = src->ntopics;
		dst->topics_line = src->topics_line;
		dst->topics_col = src->topics_col;
		take_str(&dst->topics_path, &src->topics_path);
	}
}

void meta_free(struct doc_meta *m)
{
	free(m->title);
	free(m->slug);
	free(m->slug_path);
	free(m->description);
	free(m->date);
	free(m->updated);
	for (size_t i = 0; i < m->ntopics; i++)
		free(m->topics[i]);
	free(m->topics);
	free(m->topics_path);
	memset(m, 0, sizeof *m);
}
