/* site_saves: what a build leaves for the next one (site.c): each
 * document's page and where its body lies, the pages' digests, the data
 * files' records, the list pages' entries and the edits' hint, saved once the
 * new site is in place. Level 5. */
#ifndef SSG_SITE_SAVES_H
#define SSG_SITE_SAVES_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "build_state.h"
#include "fingerprint.h"
#include "model.h"
#include "output.h"
#include "page_items.h"
#include "render.h"
#include "site_tasks.h"

/* Each document of content/ with its page and where its body lies there
 * (build_patch's records), on a thread of its own: site_record_doc_pages. */
struct doc_records {
	const struct site *s;
	const struct file_digests *digests;
	const struct page_task *tasks;
	size_t ntasks;
	const struct doc_pages *before;
	struct doc_pages now;
	pthread_t thread;
	bool busy;
};

/* The pthread routine of a struct doc_records: fills its `now`. */
void *site_record_doc_pages(void *doc_records);

/* What the next build needs of this one, saved once the new site is in
 * place: each a file of its own, saved side by side. */
struct state_saves {
	const char *outdir, *env, *frame, *source_dir;
	struct output *out;
	const struct json_reuse *data;
	size_t n[NDATA_KEPT], size[NDATA_KEPT];
	struct page_digests pages;
	struct page_items items;
	struct doc_pages docs;
	struct buf room; /* room_hint.h's, made beside the render */
};
#define NSTATE_SAVES 5

/* Save part i (< NSTATE_SAVES) of a struct state_saves: a pool task. */
void site_save_state(void *state_saves, size_t i);

/* The hint for the next build's edits (room_hint.h), made from the model
 * on a thread of its own while the pages are prepared and rendered. */
struct room_making {
	const struct site *s;
	const char *frame;
	struct buf b;
	pthread_t thread;
	bool busy;
};

/* The hint made on a thread of its own (made here when none can start). */
void room_making_begin(struct room_making *m);
void room_making_end(struct room_making *m);

#endif
