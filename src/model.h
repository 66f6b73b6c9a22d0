/* model: the site as a graph. Documents cite resources (merged on their
 * canonical URL); the taxonomy places resources in kinds and topics; the
 * cross-references tie documents, resources and topics together. Built once
 * per build, single-threaded, after the documents are read. Level 3. */
#ifndef SSG_MODEL_H
#define SSG_MODEL_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "res_memo.h"
#include "diag.h"
#include "doc.h"
#include "hash.h"

struct cite_ref {
	size_t doc;   /* index into site.docs */
	size_t cite;  /* index into docs[doc].cites */
	unsigned long long key[2]; /* the citation's (cite_key.h), here in the
				    * resource's order: keys are made of them */
};

struct resource {
	const char *canonical; /* borrowed: its first citation's (model_merge.c) */
	char *slug;        /* r/<slug>/ */
	char *host;
	/* every distinct URL as written, sorted: made on first use
	 * (model_spellings), as few pages and records show them */
	char **spellings;
	size_t nspellings;
	int spelled;       /* 0 not made, 1 being made, 2 made (atomic) */
	struct cite_ref *refs; /* in document order (in site.refs) */
	size_t nrefs;
	size_t ndocs;      /* distinct citing documents */
	const char *title; /* the title most entries give it */
	const char *desc;  /* the longest description seen. Both borrowed: a
			    * citation's (its document's memory) or site.yml's
			    * override (the config's), which the site outlives */
	int kind;          /* index into cfg.kinds, -1 none */
	int *topics;       /* indices into site.topics */
	size_t ntopics;
	bool has_page;     /* a page of its own (resource_pages.min_citations) */
	const char *index_page; /* the resource index page listing it ("resources/a/"):
				 * its chunk's dir (site.chunks), not its own */
	char *link_status; /* last known link health ("ok", "broken since ..."),
			    * from ssg check --links' cache; NULL when unknown */
	const char *link_result; /* "ok", "moved", "broken", ...; NULL when unknown */
	bool pinned;
	size_t title_rank; /* place in site.title_order */
};

struct topic {
	char *id, *title, *description;
	int parent;        /* index into site.topics, -1 for roots */
	int *children;
	size_t nchildren;
	size_t *resources; /* indices, sorted by title */
	size_t nresources;
	size_t *docs;      /* documents citing its resources, most citing first */
	size_t ndocs;
	size_t *quick;     /* quick reference: pinned, then most cited */
	size_t nquick;
	size_t *listing;   /* its resources in page order: by kind, then title */
	size_t npages;     /* pages of pages.per_page entries (at least 1) */
	bool unsorted;     /* the catch-all topic */
};

/* One box of the quick reference: a topic's most cited and pinned resources
 * (topic >= 0), or a document's own "Quick reference" section, whose entries
 * are its citations [first, end) with a resource, the first `shown` of them. */
struct quick_box {
	int topic;
	size_t doc, heading;
	size_t first, end;
	size_t shown, more; /* entries listed, and those past its room (not listed) */
};

/* One page of the A-Z resource index: entries [start, start+n) of
 * site.index_order, all under one letter. */
struct index_chunk {
	char letter;       /* 'A'-'Z', or '#' */
	char *dir;         /* "resources/" when the index is one page, else "resources/a/2/" */
	size_t start, n;
	size_t part;       /* 1-based page number within the letter */
};

struct static_file {
	char *relpath;     /* relative to content/ */
};

struct site_dates;
struct nav_topics;

struct site {
	struct config cfg;
	int jobs;               /* threads the model may use */
	double read_ms, model_ms; /* how long loading took, phase by phase */
	size_t cached_docs;       /* documents the cache gave, not parsed again */
	size_t memo_kept;         /* resources whose names and classes the memo gave */
	pthread_t cache_writer;   /* updating the document cache (doc_cache.h) */
	bool cache_writing;       /* model_free waits for it */
	pthread_t memo_writer;    /* saving the resources' memo (res_memo.h) */
	bool memo_writing;        /* the same */
	struct site_dates *dates; /* git's dates on their way (site_read.h), until a
				   * page that shows them is made: NULL once applied */
	char *source_dir;
	char *boundary;    /* where the site's files may lead through symlinks (path_boundary) */
	struct doc *docs;
	size_t ndocs;
	struct resource *res;
	size_t nres, capres;
	struct cite_ref *refs;  /* every resource's citations, one block */
	struct hash res_by_url;
	struct hash doc_by_path;    /* relpath -> document (xref_resolve builds it) */
	struct hash static_by_path; /* relpath -> static file */
	struct topic *topics;   /* cfg topics, then "unsorted" last */
	size_t ntopics;
	struct static_file *statics;
	size_t nstatics;
	size_t unsorted_count;
	size_t *title_order;    /* resources by title (case-insensitive), then URL:
				 * every list by title follows it */
	size_t *index_order;    /* resources sorted for the A-Z index */
	struct index_chunk *chunks;
	size_t nchunks;
	struct related_docs *related; /* per document, once xref_related_all ran; else NULL */
	char cache_env[33];  /* the caches' env (doc_cache_env): "" when a build keeps none */
	bool cache_load;     /* and whether it takes what they hold (not with --force) */
	bool related_differ; /* SSG_CHECK_INPUTS: the related documents kept differ */
	size_t related_kept; /* documents whose related documents the memo gave */
	/* resources' descriptions and classes from the last build (res_memo.h):
	 * memo is NULL when there is none to use; memo_now, per resource, what
	 * this build's were made of and came to (filled by model_build) */
	const struct res_memo *memo;
	struct res_memo_rec *memo_now;
	const struct res_memo_rec **memo_hit; /* per resource: its record in memo, or NULL */
	bool check_inputs;   /* SSG_CHECK_INPUTS=1: what would be kept is made anyway and compared */
	size_t memo_differ;  /* (atomic) names, classes or the title order */
	struct val *nav_cache[8]; /* views' shared navigation by page depth (view.c) */
	size_t *nav_first, *nav_kids; /* the topics by parent, from view_prepare (view.c) */
	bool nav_pruned;          /* the tree is larger than pages.sidebar_topics */
	size_t *topic_order;      /* the topics with a page, in tree order: the topics index */
	size_t ntopic_order;      /* (view_lists.c, from view_prepare to view_release) */
	size_t *topic_order_pos;  /* per topic, its place there (SIZE_MAX: none) */
	struct quick_box *quick_boxes; /* the quick reference's boxes, in page order */
	size_t nquick_boxes;
	size_t *quick_page_first; /* per quick-reference page, its first box; then nquick_boxes */
	size_t nquick_pages;
	size_t quick_sections_left; /* the documents' sections past its room, not shown */
	int body_fd;              /* the document cache its documents' bodies were left in (0: none) */
	const char *docs_map;     /* that file, mapped: its documents' strings lie there (NULL: none) */
	size_t docs_map_len;
	int *doc_primary;         /* per document, its topic (view_doc_topic): made with the
				   * topics' documents when there are at most 64 topics
				   * (taxonomy.c), else by view_prepare; NULL after view_release */
	long *doc_topic_pos;      /* and its place in that topic's documents (-1: none) */
	unsigned long long *res_topic_bits; /* per resource, its topics as the bits of
			       * one word, once classified (NULL: more than 64) */
	struct val *nav_html[8];  /* the same rendered once (site.c), or NULL */
	struct nav_topics *nav_topics; /* the sidebars of pages with a topic (view.c) */
	struct diags diags;
};

/* Merge citations into resources, classify them, and resolve the
 * cross-references. Diagnostics go to the documents' lists. */
void model_build(struct site *s);
/* r's spellings (resource.spellings), made once, on any thread. */
void model_spellings(const struct site *s, const struct resource *r);
/* Ask for the memory that reading citations refs[0..n) takes, ahead of
 * reading them: a resource's citations live scattered over the documents
 * that make them, so reading one after another waits on one cache miss after
 * another. Stage by stage (0 to MODEL_REF_STAGES - 1), each after the one
 * before, so that the misses of a stage overlap: the documents, then their
 * citations, titles and URLs, then the citations' titles, URLs and sections,
 * then the sections' ids. Only asks: reads nothing that is not there. */
#define MODEL_REF_STAGES 4
void model_prefetch_refs(const struct site *s, const struct cite_ref *refs, size_t n, int stage);
/* Ask for a resource's own fields: the struct spans three or four cache lines. */
static inline void model_prefetch_resource(const struct resource *r)
{
	__builtin_prefetch(r);
	__builtin_prefetch((const char *)r + 64);
	__builtin_prefetch((const char *)r + 128);
	__builtin_prefetch(&r->index_page);
}
/* For a loop over refs[0..n), at its citation i: the ones after it, a stage
 * further the further ahead (and at i == 0 the first few whole). */
void model_prefetch_refs_ahead(const struct site *s, const struct cite_ref *refs, size_t n,
			       size_t i);
/* Resource index for a canonical URL; -1 when none. */
long model_resource(const struct site *s, const char *canonical);
/* Document index for a path relative to content/; -1 when none. */
long model_doc_by_path(const struct site *s, const char *relpath);
/* Wait for the threads that bring the document cache and the resources'
 * memo up to date (model_free does too): what the build writes is then all
 * written. */
void model_wait_writer(struct site *s);
void model_free(struct site *s);
/* Wait for the site's background work (the document cache's update); then
 * leave the model to the process's end, reachable from a static pointer as
 * LLVM's BuryPointer does, so that leak checkers do not count it: a build
 * that exits next skips freeing millions of blocks one by one. */
void model_bury(struct site *s);

/* taxonomy.c */
/* site.yml aliases with both sides canonicalised once. */
struct aliases {
	char **from, **to;
	size_t n;
};
void taxonomy_aliases_init(struct aliases *a, const struct config *cfg);
void taxonomy_aliases_free(struct aliases *a);
/* Apply the aliases to a canonical URL (a moved prefix moves what is under
 * it too): returns a new string. */
char *taxonomy_alias(const struct aliases *a, const char *canonical);
/* "arxiv.org" matches itself and its subdomains; "*.x" and "x.*" are globs. */
bool taxonomy_host_match(const char *host, const char *pattern);
/* Place every resource in a kind and its topics; fill topic lists. */
void taxonomy_classify(struct site *s);
/* A document's topic (site.doc_primary), from counts[t] (t < site.ntopics):
 * how often it cites each topic's resources. The topics it names itself
 * weigh a thousand citations each (added to counts: a page lists its topics
 * by them); then the most weighed wins, the first among equals, never the
 * catch-all; -1 when none. */
void taxonomy_weigh_named_topics(const struct site *s, const struct doc *doc, size_t *counts);
int taxonomy_pick_topic(const struct site *s, const size_t *counts);

/* xref.c */
/* Documents' URLs, internal links and anchors (their diagnostics go to the
 * documents): it reads and writes the documents' side only, never the
 * resources', so model_build runs it beside their merge. */
void xref_resolve(struct site *s);
/* Lay out the lists: topic listings and their page count, the A-Z index's
 * pages, and each resource's index page (called by model_build). */
void xref_paginate(struct site *s);
/* First alphanumeric character of a title, upper-cased; '#' for digits and none. */
char xref_letter(const char *title);
/* Resolve a relative reference ("a/../b/c.md#x?y": the query and fragment
 * are ignored) against the folder of `from`, both relative to content/.
 * A new string; NULL when it leaves content/. */
char *xref_resolve_path(const char *from, const char *ref);
/* Whether rel names a static (non-document) file under content/. */
bool xref_is_static(const struct site *s, const char *rel);
/* The documents sharing the most resources with doc d (at most max).
 * Resources cited by more than XREF_RELATED_MAX_CITERS documents are too
 * common to relate two documents. */
#define XREF_RELATED_MAX_CITERS 64
/* max: at most XREF_RELATED_SHOWN once xref_related_all ran. */
size_t xref_related(const struct site *s, size_t d, size_t *out, size_t max);
/* Every document's related documents, once, in parallel (a document's page
 * and its inputs both ask; page_inputs.h). */
#define XREF_RELATED_SHOWN 5
struct related_docs {
	size_t v[XREF_RELATED_SHOWN];
	size_t n;
};
void xref_related_all(struct site *s, int jobs);

#endif
