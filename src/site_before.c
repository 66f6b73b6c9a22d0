/* site_before: the site in place's state, loaded for a build (see
 * site_before.h). */
#include "site_before.h"
#include "heap_warm.h"
#include "path.h"
#include "pool.h"

#include <stdlib.h>
#include <sys/stat.h>

/* Its data files' records (part 0); its pages' digests with what renders
 * views into pages, its documents' pages and its list pages' entries (1). */
static void load_part(void *ctx, size_t part)
{
	struct site_before *b = ctx;
	if (part == 0) {
		if (!b->o->force)
			json_records_load(b->data, b->outdir, b->source_dir);
		return;
	}
	build_render_env(b->o, 1, b->env);
	if (!b->o->force) {
		page_digests_load(&b->pages, b->outdir, b->env, b->out->note, b->out->nnote);
		if (!b->docs.n)
			doc_pages_load(&b->docs, b->outdir, NULL);
		page_items_load(&b->items, b->outdir, b->env);
	}
}

static void *load_all(void *ctx)
{
	struct site_before *b = ctx;
	if (b->after)
		latch_wait(b->after);
	heap_warm_worker();
	load_part(ctx, 0);
	load_part(ctx, 1);
	return NULL;
}

/* A site in place whose note of pages is this large (about 5,000 pages)
 * takes milliseconds to load: worth a thread of its own, which starts 0.2-3
 * ms after it is made here (BENCHMARKS.md). */
#define THREAD_BYTES (512u << 10)

void site_before_start(struct site_before *b)
{
	b->pending = true;
	char *pages = path_join(b->outdir, BUILD_PAGES_FILE);
	struct stat st;
	bool large = lstat(pages, &st) == 0 && st.st_size >= (off_t)THREAD_BYTES;
	free(pages);
	if (b->o->force || !b->out->has_final || !large)
		return;
	b->loading = pthread_create(&b->loader, NULL, load_all, b) == 0;
	b->pending = !b->loading;
}

void site_before_wait(struct site_before *b)
{
	if (b->after)
		latch_open(b->after);
	if (b->loading)
		pthread_join(b->loader, NULL);
	else if (b->pending) /* its two parts side by side: the pool's helper also
			      * wakes the other processor, which the render's
			      * threads then find awake (the portal, 100 pairs) */
		pool_run(b->jobs, 2, load_part, b);
	b->loading = b->pending = false;
}

void site_before_free(struct site_before *b)
{
	if (b->after)
		latch_open(b->after);
	if (b->loading)
		pthread_join(b->loader, NULL);
	b->loading = b->pending = false;
	for (size_t i = 0; i < NDATA_KEPT; i++)
		json_records_free(&b->data[i]);
	page_digests_free(&b->pages);
	doc_pages_free(&b->docs);
	page_items_free(&b->items);
}
