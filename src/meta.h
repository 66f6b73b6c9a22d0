/* meta: a document's metadata as front matter or site.yml `documents:` give
 * it (title, slug, description, weight, draft, date, topics, updated), read
 * from a YAML mapping with every unknown key or wrong type reported.
 * Level 1 (typed YAML reading, like yamlx). */
#ifndef SSG_META_H
#define SSG_META_H
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "yamlx.h"

struct doc_meta {
	char *title;        /* NULL when not given */
	char *slug;
	int slug_line, slug_col;     /* where the slug was given, for diagnostics */
	char *slug_path;
	char *description;
	char *date;         /* YYYY-MM-DD as written */
	char *updated;      /* last-updated date, YYYY-MM-DD */
	long weight;
	bool has_weight;
	bool draft;
	char **topics;      /* topic ids, NULL-terminated */
	size_t ntopics;
	int topics_line, topics_col; /* where the topics were given, for diagnostics */
	char *topics_path;
};

/* Read the keys of mapping `map` into m (fields given override those in m).
 * `tags` and `categories` add to `topics`; an unknown key is a warning.
 * Returns -1 after recording errors (wrong types, bad dates). */
int meta_from_yaml(const struct yamlx *y, ynode map, struct doc_meta *m, struct diags *d);
/* Fill the fields of dst that are unset from src (dst wins). */
void meta_merge(struct doc_meta *dst, const struct doc_meta *src);
void meta_free(struct doc_meta *m);

#endif
