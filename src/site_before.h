/* site_before: what a build takes from the site in place (nothing under
 * --force): its data files' records, its pages' digests with what renders
 * views into pages (build_render_env), its documents' pages and its list
 * pages' entries. None of it needs this build's model: a large site's is
 * loaded on a thread of its own while the documents are modelled (the model
 * is merged on one thread: the other processor has room), from when they
 * are read (b->after: the reading has both processors busy); a small one's,
 * where a thread would take longer to start than the loading, just before
 * rendering. Level 5. */
#ifndef SSG_SITE_BEFORE_H
#define SSG_SITE_BEFORE_H
#include <pthread.h>
#include <stdbool.h>

#include "build_state.h"
#include "output.h"
#include "page_items.h"
#include "site.h"

struct site_before {
	const struct build_opts *o;
	const char *outdir, *source_dir;
	const struct output *out; /* its note of the pages' files */
	struct latch *after;      /* the loader waits for it to open, or NULL (latch.h) */
	int jobs;
	char env[33];             /* build_render_env */
	struct json_records data[NDATA_KEPT];
	struct page_digests pages;
	struct doc_pages docs;    /* given when build_patch read them: not loaded again */
	struct page_items items;
	pthread_t loader;
	bool loading;             /* loader runs, not joined yet */
	bool pending;             /* not loaded yet: site_before_wait loads it */
};

/* Begin: b's o, outdir, source_dir, out (begun) and jobs set, after if
 * the loading should wait, the rest zero (but docs, when already read). */
void site_before_start(struct site_before *b);
/* All of it loaded (by the loader, or now; after opened first). */
void site_before_wait(struct site_before *b);
/* What was loaded and not taken (a build that stops before rendering):
 * nothing more is loaded. */
void site_before_free(struct site_before *b);

#endif
