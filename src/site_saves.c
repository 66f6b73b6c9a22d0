/* site_saves: what a build leaves for the next one (see site_saves.h). */
#include "site_saves.h"
#include "hash.h"
#include "room_hint.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Each document of content/ with its page and where its body lies there
 * (build_patch's records): from this build's render, or, for a page kept as
 * it was, from the records of the build that made it. */
static void record_doc_pages(const struct site *s, const struct file_digests *digests,
			     const struct page_task *tasks, size_t ntasks,
			     const struct doc_pages *before, struct doc_pages *now)
{
	const struct page_task **of_doc = xcalloc(s->ndocs + 1, sizeof *of_doc);
	for (size_t i = 0; i < ntasks; i++)
		if (tasks[i].kind == PAGE_DOC && tasks[i].path)
			of_doc[tasks[i].index] = &tasks[i];
	struct hash by_rel = HASH_INIT;
	for (size_t i = 0; i < s->ndocs; i++)
		hash_put(&by_rel, s->docs[i].relpath, i);
	for (size_t i = 0; i < digests->n; i++) {
		const char *rel = doc_pages_document(digests->paths[i]);
		if (!rel)
			continue;
		size_t di;
		const struct page_task *t = hash_get(&by_rel, rel, &di) ? of_doc[di] : NULL;
		long at = t ? t->body_at : -1, len = t ? t->body_len : 0;
		if (t && t->kept) {
			/* the very file the site in place has: its body lies where
			 * it lay (a kept page was not rendered: its length is the
			 * record's) */
			const struct doc_page_rec *r = doc_pages_find(before, rel);
			bool same = r && !strcmp(r->page, t->path);
			at = same ? r->at : -1;
			len = same ? r->len : 0;
		}
		doc_pages_add(now, rel, t ? t->path : "", digests->digests[i], at, len);
	}
	hash_free(&by_rel);
	free(of_doc);
}

void *site_record_doc_pages(void *arg)
{
	struct doc_records *r = arg;
	record_doc_pages(r->s, r->digests, r->tasks, r->ntasks, r->before, &r->now);
	return NULL;
}

void site_save_state(void *ctx, size_t i)
{
	struct state_saves *v = ctx;
	if (i == 0) {
		/* the note of the pages' files goes with the spare */
		struct buf note = BUF_INIT;
		page_digests_save(&v->pages, v->outdir, v->env, v->out->spare_kept ? &note : NULL);
		output_note(v->out, note.p, note.n);
		buf_free(&note);
	} else if (i == 1)
		json_records_save(v->data, v->n, v->size, v->outdir, v->source_dir);
	else if (i == 2)
		doc_pages_save(&v->docs, v->outdir, v->frame);
	else if (i == 3) {
		if (v->items.npages)
			page_items_save(&v->items, v->outdir, v->env);
	} else
		room_hint_write(v->outdir, &v->room); /* a hint: unwritten, none */
}

static void *room_making_run(void *ctx)
{
	struct room_making *m = ctx;
	room_hint_make(m->s, m->frame, &m->b);
	return NULL;
}

void room_making_begin(struct room_making *m)
{
	m->busy = pthread_create(&m->thread, NULL, room_making_run, m) == 0;
	if (!m->busy)
		room_making_run(m);
}

void room_making_end(struct room_making *m)
{
	if (m->busy)
		pthread_join(m->thread, NULL);
	m->busy = false;
}
