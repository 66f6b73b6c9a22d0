/* config: site.yml, read once into an immutable struct. Every key is checked
 * (unknown keys and wrong types are errors at `site.yml:line:col`); when there
 * is no site.yml the embedded defaults serve. The keys are documented in
 * docs/site-yml.md. Level 2. */
#ifndef SSG_CONFIG_H
#define SSG_CONFIG_H
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "hash.h"
#include "meta.h"

enum raw_html_policy { RAW_HTML_SANITIZE, RAW_HTML_ESCAPE };

/* Match rules of a kind or topic; every list NULL-terminated (may be NULL). */
struct cfg_match {
	char **hosts;     /* "arxiv.org", "*.readthedocs.io" */
	size_t nhosts;
	char **urls;      /* host+path globs: "github.com/Dao-AILab/..." with * wildcards */
	size_t nurls;
	char **headings;  /* section headings of the citing document (case-insensitive) */
	size_t nheadings;
	char **words;     /* whole words in title or description (case-insensitive) */
	size_t nwords;
};

struct cfg_kind {
	char *id, *title;
	struct cfg_match match;
	int line, col;
};

struct cfg_topic {
	char *id, *title, *description;
	int parent;       /* index into config.topics, -1 for a root */
	struct cfg_match match;
	char **pin;       /* canonicalised later by the model */
	size_t npin;
	int line, col;
};

struct cfg_alias {
	char *from, *to;
	int line, col;
};

struct cfg_override {
	char *url;
	char *kind;       /* NULL: keep the rule-based kind */
	char **topics;    /* replaces the rule-based topics when given */
	size_t ntopics;
	char *title;
	char *description;
	int line, col;
};

struct cfg_document {
	char *path;       /* relative to content/ */
	struct doc_meta meta;
	int line, col;
};

/* How deep topics nest below the top, by children: or by parent:. */
#define CONFIG_TOPIC_DEPTH 16

struct config {
	char *path;          /* "site.yml" as reported in diagnostics */
	bool from_file;      /* false when the embedded defaults serve */
	char *title, *description, *base_url, *language, *theme, *repo, *repo_branch;
	char *author;
	enum raw_html_policy raw_html;
	struct cfg_document *documents;
	size_t ndocuments;
	struct cfg_alias *aliases;
	size_t naliases;
	struct cfg_kind *kinds;
	size_t nkinds;
	struct cfg_topic *topics;   /* flattened: parents before children */
	size_t ntopics;
	struct hash topic_ids;      /* id -> the first topic of that id */
	struct cfg_override *overrides;
	size_t noverrides;
	long qr_per_topic;          /* quick_reference.per_topic */
	long resource_page_min;     /* resource_pages.min_citations */
	long per_page;              /* pages.per_page: entries per topic/index page */
	long sidebar_topics;        /* pages.sidebar_topics: the sidebar's bound (view.c) */
	long max_file_size;         /* limits.max_file_size, bytes */
	long max_nesting;           /* limits.max_nesting */
};

/* Load `dir/site.yml` (reported as "site.yml"); the defaults when it does not
 * exist. Returns -1 after recording errors; cfg is then still freeable. */
int config_load(struct config *cfg, const char *dir, struct diags *d);
/* Parse YAML text as site.yml (for tests and `ssg check`). */
int config_parse(struct config *cfg, const char *text, size_t n, const char *path, struct diags *d);
void config_defaults(struct config *cfg);
void config_free(struct config *cfg);
/* Index of a topic or kind by id; -1 when absent. */
int config_topic_index(const struct config *cfg, const char *id);
int config_kind_index(const struct config *cfg, const char *id);

#endif
