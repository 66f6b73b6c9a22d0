/* site: sequencing the stages of a build (DESIGN.md, "The pipeline"):
 * config, discovery, reading (parallel), the model, rendering (parallel) and
 * output. `check` runs the same load and stops before writing; `serve` calls
 * site_build into its own folder. No global state: each call owns its site.
 * Level 5. */
#ifndef SSG_SITE_H
#define SSG_SITE_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "model.h"

struct latch;

struct file_digests;
struct fingerprint_learned;

/* A build's model, freed on a thread of its own once the build is done
 * (serve: the pages reload meanwhile, instead of after tens of milliseconds
 * of free()); the next build, and the caller at its end, wait for it. */
struct site_burial {
	struct site s;
	pthread_t thread;
	bool busy;
};

struct build_opts {
	const char *source;    /* site root; "." by default */
	const char *output;    /* output folder; NULL: <source>/public */
	const char *base_url;  /* overrides site.yml's base_url when set */
	bool drafts;           /* include documents marked draft */
	int jobs;              /* threads; 0: one per processor */
	bool force;            /* build even when the inputs are those of the site
				* already in the output folder (see build_state.h) */
	const struct file_digests *digests; /* content/'s files, hashed already (or NULL) */
	struct fingerprint_learned *learned; /* or: takes the digests of the
				* documents as they are read, for a fingerprint
				* made after reading (fingerprint.h) */
	bool exiting;          /* the process ends after the build: the model is
				* left to it (model_bury) rather than freed */
	struct site_burial *burial; /* else, when set: freed on a thread (above) */
	bool readonly;         /* ssg check: load what the last build left (the
				* document cache) but write nothing, render no
				* page body and run no git log; each tree is freed
				* once read either way */
	void (*committed)(void *ctx); /* when set: called once a build's new site
				* is in place, before what the next build needs of
				* it is saved (serve tells open pages then) */
	void *committed_ctx;
	void (*previewed)(void *ctx); /* when set: an edit build_patch cannot
				* patch whole may be previewed first (build_patch.h);
				* called once the previewed pages are in place, before
				* the build in full that follows (serve reloads then) */
	void *previewed_ctx;
	struct latch *read;    /* when set: opened once the documents are read (what
				* waits at it runs beside the model, not the reading) */
};

struct build_stats {
	size_t docs, pages, statics, resources, topics, unsorted;
	size_t files, unchanged;   /* files written; of them, same as before */
	size_t warnings, errors;
	unsigned long long bytes;
	double ms;
	/* the phases of ms: the inputs checked against the last build's (and a
	 * patch tried), the documents read, the model, the views prepared (their
	 * navigation, related documents, pages' inputs), render, write */
	double check_ms, read_ms, model_ms, prepare_ms, render_ms, write_ms;
	bool up_to_date;      /* nothing had changed: the previous site stands */
	size_t patched;       /* pages patched in place (build_patch.h); 0: a build */
	size_t spliced;       /* of them, resources' pages whose descriptions were
			       * spliced without a model (descs_splice.h) */
	size_t views_skipped; /* pages kept by their inputs, no view built (page_inputs.h) */
	size_t items_kept;    /* entries of list pages taken from the page in place (page_items.h) */
	size_t records_kept[2]; /* records taken from the file in place: resources.json's, the
				 * search index's */
	size_t classes_kept;  /* resources whose names and classes came from res_memo.h */
	size_t related_kept;  /* documents whose related documents came from related_memo.h */
	size_t word_slices, word_slices_kept; /* the search index's words: slices, and those
					       * read from words_memo.h */
};

/* Load and model the site (no writing). Returns -1 on config errors or any
 * error diagnostic; s is then still freeable with model_free, once
 * site_read_dates_apply has taken the dates git may still be fetching
 * (s->dates; none for a readonly load). Every document diagnostic is moved
 * into d, sorted. */
int site_load(struct site *s, const struct build_opts *o, struct diags *d);
/* Load, render and write the site atomically. 0 on success, -1 on errors
 * (the previous output is left as it was). */
int site_build(const struct build_opts *o, struct diags *d, struct build_stats *st);
/* The folder a build with o writes: --output, else <source>/public. The
 * caller frees it. */
char *site_output_dir(const struct build_opts *o);
/* What a build in full on small pages warms on its main thread before its
 * model (heap_warm.h): six tenths of the last build's documents.bin
 * (doc_cache.h), and no less than a small site's pages need. */
#define SITE_MODEL_LEAST_WARMTH ((size_t)2 << 20)
size_t site_model_warmth(const char *source_dir);
/* Wait until the model b holds is freed (at once when none is). */
void site_burial_wait(struct site_burial *b);

#endif
