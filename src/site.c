/* site: the build pipeline, stage by stage (see site.h): the site loaded
 * (site_load.c), then rendered and written. */
#include "site.h"
#include "buf.h"
#include "buf_pool.h"
#include "clock.h"
#include "build_descs.h"
#include "build_patch.h"
#include "build_state.h"
#include "doc_cache.h"
#include "fingerprint.h"
#include "heap_warm.h"
#include "html.h"
#include "mustache.h"
#include "output.h"
#include "page_inputs.h"
#include "page_items.h"
#include "path.h"
#include "pool.h"
#include "render.h"
#include "search_shards.h"
#include "site_before.h"
#include "site_read.h"
#include "site_saves.h"
#include "site_statics.h"
#include "site_tasks.h"
#include "topic_entries.h"
#include "view.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- rendering (parallel) ------------------------------------------------------ */

struct render_job {
	struct site *s;
	struct output *out;
	struct mustache_set *tpl;
	struct page_task *tasks;
	pthread_mutex_t lock;
	struct diags *d;
	size_t pages;
	size_t views_skipped;
	const struct page_digests *before; /* the site in place's pages */
	struct val_memo memo[16];          /* digests of the shared navigation */
	size_t nmemo;
	struct page_inputs inputs;
	bool check_inputs;                 /* SSG_CHECK_INPUTS: render kept pages too */
	/* resources.json's and the search index's records kept from the site in
	 * place (build_state.h), and their sizes once written */
	struct json_reuse data[NDATA_KEPT];
	size_t data_size[NDATA_KEPT];
	const struct page_items *items_before; /* the list pages' entries in place */
	size_t items_kept;                     /* entries taken from them */
	struct search_words *words;            /* the search index's words, gathered */
	size_t words_left;                     /* in SEARCH_WORDS_TASKS tasks: the last writes them */
	struct search_words_done words_done;
	pthread_mutex_t dates_lock;            /* the first task that shows dates waits for git */
	bool dates_applied;                    /* it has: the rest take no lock */
	struct buf_pool bufs;                  /* the pages' buffers, from page to page */
	struct frag_memo entries;              /* topic pages' entries (topic_entries.h) */
};

/* The documents' last-updated dates, before a task shows one (a document's
 * page, the sitemap, the feed): the first such task waits for git's log
 * (site_read.h), which ran beside everything before it; those tasks come
 * last in their lane (plan_pages), so that git's log also runs beside the
 * pages that show no date. */
static void want_dates(struct render_job *j)
{
	if (__atomic_load_n(&j->dates_applied, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&j->dates_lock);
	site_read_dates_apply(j->s);
	__atomic_store_n(&j->dates_applied, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&j->dates_lock);
}

/* A page made from the same inputs as the one in place is kept without
 * building its view (page_inputs.h). */
static bool keep_by_inputs(struct render_job *j, struct page_task *t, const char *path)
{
	unsigned long long view[2];
	const struct output_file *was;
	t->tracked = true;
	if (!page_digests_inputs_same(j->before, path, t->inputs, view, &was))
		return false;
	if (j->check_inputs) {
		t->expect = true;
		return false;
	}
	if (output_keep(j->out, path, was, &t->file) != 0)
		return false;
	t->path = xstrdup(path);
	memcpy(t->digest, view, sizeof view);
	t->body_at = -1;
	t->kept = true;
	pthread_mutex_lock(&j->lock);
	j->pages++;
	j->views_skipped++;
	pthread_mutex_unlock(&j->lock);
	return true;
}

/* ---- list pages: their entries taken from the page in place -------------- */

/* A page of the A-Z index, as emit_listing makes views. */
static struct val *index_view(const struct site *s, size_t chunk, size_t sub,
			      struct view_items *items)
{
	(void)sub;
	return view_resource_index(s, chunk, items);
}

/* A page of the quick reference, as emit_listing makes views. */
static struct val *quick_view(const struct site *s, size_t page, size_t sub,
			      struct view_items *items)
{
	(void)sub;
	return view_quick_reference(s, page, items);
}

/* An entry the page in place has as it would be rendered (view_items' find). */
static const char *find_item(void *ctx, const struct view_item *it, size_t *len)
{
	struct page_items_source *src = ctx;
	unsigned long long key[2];
	page_inputs_item(src->inputs, it->res, it->with_cites, it->anchored, key);
	return page_items_source_find(src, key, len);
}

/* The entries noted once in the rendering (one shown twice is no one
 * place's), each by its key. */
static void note_items(struct render_job *j, struct page_task *t, const struct view_items *vi,
		       const struct mustache_items *places)
{
	unsigned char *seen = xcalloc(vi->n + 1, 1);
	for (size_t k = 0; k < places->n; k++)
		if (places->v[k].item <= vi->n && seen[places->v[k].item] < 2)
			seen[places->v[k].item]++;
	t->items = xcalloc(places->n + 1, sizeof *t->items);
	for (size_t k = 0; k < places->n; k++) {
		const struct mustache_item_place *p = &places->v[k];
		if (p->item > vi->n || seen[p->item] != 1 || p->at > UINT32_MAX ||
		    p->len > UINT32_MAX)
			continue;
		struct page_item *e = &t->items[t->nitems++];
		const struct view_item *it = &vi->v[p->item - 1];
		page_inputs_item(&j->inputs, it->res, it->with_cites, it->anchored, e->key);
		e->at = (uint32_t)p->at;
		e->len = (uint32_t)p->len;
	}
	free(seen);
}

/* A kept list page keeps the note of its entries, when it is that file. */
static void keep_items(struct render_job *j, struct page_task *t)
{
	const struct page_items_page *g = j->items_before ? page_items_find(j->items_before,
									   t->path)
							  : NULL;
	if (!g || !t->file.ino || memcmp(&t->file, &g->file, sizeof t->file))
		return;
	/* lent, not copied (4 MB at 10,000 documents): the last build's stay
	 * until the new ones are noted */
	t->items = j->items_before->v + g->from;
	t->nitems = g->n;
	t->items_lent = true;
}

/* Render a list page whose inputs changed: the entries that are as they
 * were come from the page in place. make(s, index, sub, items) builds its
 * view. */
static void emit_listing(struct render_job *j, struct page_task *t, const char *tpl,
			 struct val *(*make)(const struct site *, size_t, size_t, struct view_items *),
			 const char *path)
{
	struct site *s = j->s;
	struct diags local = DIAGS_INIT;
	struct page_items_source src;
	bool found = j->items_before &&
		     page_items_source_open(&src, j->items_before, path, j->out, &j->inputs) == 0;
	struct topic_entries_lend lend = topic_entries_for(&j->entries, path);
	bool memo = !found && lend.variant != SIZE_MAX;
	struct buf b = buf_pool_take(&j->bufs);
	struct view_items vi = {found  ? find_item
				: memo ? topic_entries_find
				       : NULL,
				found ? (void *)&src : &lend, NULL, 0, 0};
	struct mustache_items places = {0};
	struct val *v = make(s, t->index, t->sub, &vi);
	int rc = mustache_render_items(j->tpl, tpl, v, &b, &local, NULL, NULL, &places);
	val_free(v);
	if (rc == 0 && (found || memo) && (places.refused || j->check_inputs)) {
		/* an entry could not stand in, or (checking) each must be as rendered */
		struct buf whole = BUF_INIT;
		struct view_items all = {NULL, NULL, NULL, 0, 0};
		struct mustache_items again = {0};
		v = make(s, t->index, t->sub, &all);
		rc = mustache_render_items(j->tpl, tpl, v, &whole, &local, NULL, NULL, &again);
		val_free(v);
		if (rc == 0 && !places.refused && (whole.n != b.n || memcmp(whole.p, b.p, b.n)))
			diag_add(&local, SEV_ERROR, path, 0, 0,
				 "internal error: entries kept from %s differ from their rendering",
				 found ? "the page in place" : "another topic's page");
		buf_free(&b);
		b = whole;
		free(vi.v);
		vi = all;
		mustache_items_free(&places);
		places = again;
		src.used = 0;
	}
	t->path = xstrdup(path);
	t->body_at = -1;
	if (rc == 0) {
		if (t->expect && !output_same(j->out, path, buf_cstr(&b), b.n))
			diag_add(&local, SEV_ERROR, path, 0, 0,
				 "internal error: the page's inputs are as they were, its bytes are "
				 "not");
		output_write_noted(j->out, path, buf_cstr(&b), b.n, &t->file);
		/* a file not known (a first build: no spare keeps it) lends nothing */
		if (t->file.ino)
			note_items(j, t, &vi, &places);
		if (memo)
			topic_entries_keep(&j->entries, lend.variant, &vi, &places, &b);
	} else
		diag_add(&local, SEV_ERROR, path, 0, 0, "page not written: template '%s' failed", tpl);
	pthread_mutex_lock(&j->lock);
	diags_take(j->d, &local);
	j->pages++;
	j->items_kept += found ? src.used : 0;
	pthread_mutex_unlock(&j->lock);
	buf_pool_give(&j->bufs, &b);
	if (found)
		page_items_source_close(&src);
	free(vi.v);
	mustache_items_free(&places);
}

/* Where a resource page's descriptions went (each once, as its own: the
 * rest of its item the template's text), each by the key of its bytes. */
static void note_descs(struct page_task *t, const struct buf *page,
		       const struct mustache_items *places)
{
	t->items = xcalloc(places->n + 1, sizeof *t->items);
	t->nitems = page_items_note_descs(page->p, places, t->items);
}

/* Render a page, unless the site in place has it from the same view; with
 * descs, a resource page's descriptions noted. */
static void emit_noting(struct render_job *j, struct page_task *t, const char *tpl,
			struct val *v, const char *path, const struct val *watch, bool descs)
{
	struct mustache_items places = {0};
	struct buf b = buf_pool_take(&j->bufs);
	struct diags local = DIAGS_INIT;
	/* a page without inputs is known by its view's digest; one with inputs
	 * that changed is rendered (its digest would be work for nothing most
	 * times: what it shows changed), and kept as a file when its bytes are */
	if (!t->tracked) {
		struct val *named = val_map(); /* the template's name is part of the page */
		val_setk_str(named, "template", tpl);
		val_setk(named, "view", val_ref(v));
		val_digest(named, j->memo, j->nmemo, t->digest);
		val_free(named);
	}
	t->path = xstrdup(path);
	t->body_at = -1;
	const struct output_file *was;
	if (!t->tracked && page_digests_same(j->before, path, t->digest, &was) &&
	    output_keep(j->out, path, was, &t->file) == 0)
		t->kept = true;
	else if (mustache_render_items(j->tpl, tpl, v, &b, &local, watch, &t->body_at,
				       descs ? &places : NULL) == 0) {
		if (t->expect && !output_same(j->out, path, buf_cstr(&b), b.n))
			diag_add(&local, SEV_ERROR, path, 0, 0,
				 "internal error: the page's inputs are as they were, its bytes are "
				 "not");
		if (descs)
			output_write_known(j->out, path, buf_cstr(&b), b.n, &t->file);
		else
			output_write_noted(j->out, path, buf_cstr(&b), b.n, &t->file);
		if (descs && t->file.ino)
			note_descs(t, &b, &places);
	} else
		diag_add(&local, SEV_ERROR, path, 0, 0, "page not written: template '%s' failed", tpl);
	pthread_mutex_lock(&j->lock);
	diags_take(j->d, &local);
	j->pages++;
	pthread_mutex_unlock(&j->lock);
	buf_pool_give(&j->bufs, &b);
	mustache_items_free(&places);
	val_free(v);
}

static void emit(struct render_job *j, struct page_task *t, const char *tpl, struct val *v,
		 const char *path, const struct val *watch)
{
	emit_noting(j, t, tpl, v, path, watch, false);
}

/* The machine-readable files, one task each (resources.json is the longest
 * single task of a build: it goes first so the pool overlaps it). The first
 * two, in build_state.h's order (DATA_RESOURCES, DATA_SEARCH), keep their
 * records: write_data_file renders them. The third is the search index's
 * words in parts (search_shards.h), beside the index's records in parts,
 * which are cut from search-index.json as it is written. */
static const struct {
	const char *path;
	void (*render)(const struct site *s, struct buf *out);
	bool dated; /* it shows the documents' dates (want_dates) */
} data_files[] = {
	{"resources.json", NULL, false},
	{"search-index.json", NULL, false},
	{"search/index.js", NULL, false},
	{"sitemap.xml", render_sitemap, true},
	{"robots.txt", render_robots, false},
	{"feed.xml", render_feed, true},
};
#define NDATA (sizeof data_files / sizeof *data_files)
#define DATA_SEARCH_WORDS NDATA_KEPT
/* The search index's words are gathered by this many tasks, each its share
 * of the slices (search_shards.h). */
#define SEARCH_WORDS_TASKS 4

/* A data file's bytes to its file as they come; the search index's to its
 * records parts too. */
struct data_out {
	struct output_stream *file;
	struct search_records *records;
};

static void put_data(void *ctx, const char *p, size_t n)
{
	struct data_out *d = ctx;
	output_stream_put(d->file, p, n);
	if (d->records)
		search_records_put(d->records, p, n);
}

static void write_shard(void *ctx, const char *relpath, const char *p, size_t n)
{
	output_write(ctx, relpath, p, n);
}

static void write_data_file(struct render_job *j, struct site *s, struct output *out, size_t i,
			    size_t task)
{
	struct shard_out shards = {write_shard, out};
	if (i == DATA_SEARCH_WORDS) {
		search_words_gather(j->words, task);
		pthread_mutex_lock(&j->lock);
		bool last = --j->words_left == 0;
		pthread_mutex_unlock(&j->lock);
		if (last)
			search_words_end(j->words, &shards, &j->words_done);
		return;
	}
	if (data_files[i].render) {
		if (data_files[i].dated)
			want_dates(j);
		struct buf b = BUF_INIT;
		data_files[i].render(s, &b);
		output_write(out, data_files[i].path, buf_cstr(&b), b.n);
		buf_free(&b);
		return;
	}
	struct data_out d = {output_stream_open(out, data_files[i].path), NULL};
	struct data_sink sink = {put_data, &d};
	/* the records kept are the file in place's own bytes */
	output_stream_lend(d.file, j->data[i].bytes, j->data[i].nbytes, j->data[i].dev,
			   j->data[i].ino);
	if (i == DATA_RESOURCES) {
		j->data_size[i] = render_resources_json(s, &sink, &j->data[i]);
	} else {
		struct search_records records;
		search_records_begin(&records, &shards);
		d.records = &records;
		j->data_size[i] = render_search_index(s, &sink, &j->data[i]);
		search_records_end(&records);
	}
	output_stream_close(d.file);
}

static void render_one(void *ctx, size_t i)
{
	struct render_job *j = ctx;
	struct site *s = j->s;
	struct page_task *t = &j->tasks[i];
	char *dir = NULL, *path = NULL;
	if (t->kind == PAGE_DATA) {
		write_data_file(j, s, j->out, t->index, t->sub);
		return;
	}
	/* the page's view comes from an arena, dropped in one go */
	struct val_arena arena = VAL_ARENA_INIT;
	val_arena_use(&arena);
	switch (t->kind) {
	case PAGE_DATA:
		break;
	case PAGE_DOC: {
		dir = view_doc_dir(s, t->index);
		path = xasprintf("%sindex.html", dir);
		want_dates(j);
		page_inputs_doc(&j->inputs, s, t->index, t->inputs);
		if (keep_by_inputs(j, t, path))
			break;
		struct doc *doc = &s->docs[t->index];
		bool left = doc->body_in_cache; /* read back, and left there again after */
		const char *raw = doc_cache_body(doc, s->body_fd);
		if (!raw) {
			pthread_mutex_lock(&j->lock);
			diag_add(j->d, SEV_ERROR, s->docs[t->index].shown, 0, 0,
				 "cannot read its page's body back from .ssg-cache/documents.bin "
				 "(changed since it was loaded?): build again");
			pthread_mutex_unlock(&j->lock);
			break;
		}
		char *root = path_root_prefix(dir);
		char *body = html_finish_body(s, t->index, raw, root);
		struct val *v = view_doc(s, t->index, body);
		t->body_len = (long)strlen(body);
		emit(j, t, "doc", v, path, val_get(val_get(v, "doc"), "body"));
		free(body);
		free(root);
		if (left)
			doc_cache_body_drop(doc);
		break;
	}
	case PAGE_TOPIC:
		dir = view_topic_page_dir(s, t->index, t->sub);
		path = xasprintf("%sindex.html", dir);
		page_inputs_topic(&j->inputs, s, t->index, t->sub, t->inputs);
		if (keep_by_inputs(j, t, path))
			keep_items(j, t);
		else
			emit_listing(j, t, "topic", view_topic, path);
		break;
	case PAGE_DOCLIST:
		dir = view_documents_dir(t->index);
		path = xasprintf("%sindex.html", dir);
		emit(j, t, "documents", view_documents(s, t->index), path, NULL);
		break;
	case PAGE_TOPICS:
		dir = view_topics_dir(t->index);
		path = xasprintf("%sindex.html", dir);
		emit(j, t, "topics", view_topics(s, t->index), path, NULL);
		break;
	case PAGE_QUICKREF:
		dir = view_quick_dir(t->index);
		path = xasprintf("%sindex.html", dir);
		page_inputs_quick(&j->inputs, s, t->index, t->inputs);
		if (keep_by_inputs(j, t, path))
			keep_items(j, t);
		else
			emit_listing(j, t, "quickref", quick_view, path);
		break;
	case PAGE_INDEX: {
		path = xasprintf("%sindex.html", t->index < s->nchunks ? s->chunks[t->index].dir
								: "resources/");
		bool several = s->nchunks && strcmp(s->chunks[0].dir, "resources/");
		if (several && t->index < s->nchunks) {
			page_inputs_index(&j->inputs, s, t->index, t->inputs);
			if (keep_by_inputs(j, t, path))
				keep_items(j, t);
			else
				emit_listing(j, t, "resources", index_view, path);
			break;
		}
		emit(j, t, "resources", view_resource_index(s, t->index, NULL), path, NULL);
		break;
	}
	case PAGE_RESOURCE:
		dir = view_resource_dir(s, t->index);
		path = xasprintf("%sindex.html", dir);
		/* its inputs are its resources.json record's key */
		memcpy(t->inputs, j->data[DATA_RESOURCES].keys[t->index], sizeof t->inputs);
		if (keep_by_inputs(j, t, path))
			keep_items(j, t);
		else
			emit_noting(j, t, "resource", view_resource(s, t->index), path, NULL, true);
		break;
	default:
		switch (t->index) {
		case 0:
			path = xstrdup("index.html");
			emit(j, t, "home", view_home(s), path, NULL);
			break;
		default:
			path = xstrdup("404.html");
			emit(j, t, "404", view_not_found(s), path, NULL);
			break;
		}
	}
	val_arena_use(NULL);
	val_arena_release(&arena);
	free(dir);
	free(path);
}

/* A topic tree made HTML through the theme's navtree partial (tpl: the
 * templates); NULL when it fails. */
static char *render_navtree(void *tpl, const struct val *nav)
{
	struct val *ctx = val_map();
	val_setk(ctx, "nav", val_ref(nav));
	struct buf b = BUF_INIT;
	char *html = mustache_render(tpl, "navtree", ctx, &b, NULL) == 0 ? buf_detach(&b) : NULL;
	buf_free(&b);
	val_free(ctx);
	return html;
}

/* The topic navigation without a current topic is the same on every page of
 * a depth: rendered once, pages with no topic of their own insert it
 * ({{{nav_html}}} in the layout). A topic's own is rendered once too, by
 * the first of its pages at a depth (view.c). */
static void prerender_nav(struct site *s, struct mustache_set *tpl)
{
	for (size_t depth = 0; depth < 8; depth++) {
		char *html = render_navtree(tpl, s->nav_cache[depth]);
		if (html)
			s->nav_html[depth] = val_str_own(html);
	}
	view_nav_render_with(s, render_navtree, tpl);
}

/* Every page of the site, in a fixed order (the data files first: the
 * longest tasks start early). Returns how many; *tasks is allocated. */
static size_t plan_pages(const struct site *s, struct page_task **tasks)
{
	size_t ndocpages = view_documents_pages(s), ntopicpages = view_topics_pages(s);
	size_t nquickpages = view_quick_pages(s);
	size_t ntasks = NDATA + SEARCH_WORDS_TASKS + s->ndocs + s->nchunks + ndocpages +
			ntopicpages + nquickpages + 5,
	       k = 0;
	for (size_t i = 0; i < s->ntopics; i++)
		ntasks += s->topics[i].npages;
	/* only the resources with a page of their own: a third of them at
	 * 10,000 documents (a task for each resource was 6 MB unused) */
	for (size_t i = 0; i < s->nres; i++)
		ntasks += s->res[i].has_page;
	struct page_task *t = xcalloc(ntasks, sizeof *t);
	/* the first lane: the data files, the topics' pages, then what shows
	 * the documents' dates (want_dates): their pages, the sitemap, the feed */
	for (size_t i = 0; i < NDATA; i++)
		if (!data_files[i].dated)
			for (size_t task = 0; task < (i == DATA_SEARCH_WORDS ? SEARCH_WORDS_TASKS : 1);
			     task++)
				t[k++] = (struct page_task){.kind = PAGE_DATA, .index = i, .sub = task};
	for (size_t i = 0; i < s->ntopics; i++)
		if (view_topic_has_page(&s->topics[i]))
			for (size_t p = 1; p <= s->topics[i].npages; p++)
				t[k++] = (struct page_task){.kind = PAGE_TOPIC, .index = i, .sub = p};
	for (size_t i = 0; i < s->ndocs; i++)
		t[k++] = (struct page_task){.kind = PAGE_DOC, .index = i, .sub = 0};
	for (size_t i = 0; i < NDATA; i++)
		if (data_files[i].dated)
			t[k++] = (struct page_task){.kind = PAGE_DATA, .index = i, .sub = 0};
	for (size_t i = 0; i < s->nres; i++)
		if (s->res[i].has_page)
			t[k++] = (struct page_task){.kind = PAGE_RESOURCE, .index = i, .sub = 0};
	/* the A-Z index: its pages, and a landing page when there are several */
	bool single = s->nchunks && !strcmp(s->chunks[0].dir, "resources/");
	for (size_t i = 0; i < s->nchunks && !single; i++)
		t[k++] = (struct page_task){.kind = PAGE_INDEX, .index = i, .sub = 0};
	t[k++] = (struct page_task){.kind = PAGE_INDEX, .index = single ? 0 : s->nchunks, .sub = 0};
	for (size_t p = 1; p <= ndocpages; p++)
		t[k++] = (struct page_task){.kind = PAGE_DOCLIST, .index = p, .sub = 0};
	for (size_t p = 1; p <= ntopicpages; p++)
		t[k++] = (struct page_task){.kind = PAGE_TOPICS, .index = p, .sub = 0};
	for (size_t p = 1; p <= nquickpages; p++)
		t[k++] = (struct page_task){.kind = PAGE_QUICKREF, .index = p, .sub = 0};
	for (size_t i = 0; i < 4; i++)
		if (i != 1 && i != 2)
			t[k++] = (struct page_task){.kind = PAGE_SINGLE, .index = i, .sub = 0};
	*tasks = t;
	return k;
}

/* The shared navigation's digests, so that pages' digests need not walk it. */
static void digest_shared_views(const struct site *s, struct render_job *j)
{
	for (size_t i = 0; i < 8; i++) {
		const struct val *shared[2] = {s->nav_cache[i], s->nav_html[i]};
		for (size_t m = 0; m < 2; m++)
			if (shared[m]) {
				j->memo[j->nmemo].v = shared[m];
				val_digest(shared[m], NULL, 0, j->memo[j->nmemo++].digest);
			}
	}
}

/* The staging folder begun, and the site in place's records loaded on a
 * thread (site_before.h), for a build in full; false when the output
 * cannot be begun (was's documents' pages are then freed). */
static bool begin_output(struct output *out, struct site_before *was, bool ours, struct diags *d)
{
	bool begun = ours && output_begin(out, was->outdir, d) == 0;
	if (ours && !begun) {
		output_abort(out);
		output_free(out);
	}
	if (begun) {
		was->after = &out->read; /* loaded beside the model, not the reading */
		site_before_start(was);
	} else
		doc_pages_free(&was->docs);
	return begun;
}

/* Refuse an output folder that holds the sources, or one that is not ours. */
static int check_output_dir(const char *src, const char *outdir, struct diags *d)
{
	char *rs = realpath(src, NULL), *ro = realpath(outdir, NULL);
	int rc = 0;
	if (rs && ro) {
		size_t n = strlen(ro);
		if (!strncmp(rs, ro, n) && (rs[n] == '/' || rs[n] == '\0' || n == 1)) {
			diag_add(d, SEV_ERROR, outdir, 0, 0,
				 "the output folder contains the site's sources: refusing to replace it");
			rc = -1;
		} else {
			char *marker = path_join(ro, ".ssg-output");
			struct stat st;
			bool ours = stat(marker, &st) == 0;
			free(marker);
			if (!ours) {
				/* an empty folder is fine too */
				char *probe = xasprintf("%s", ro);
				DIR *dh = opendir(probe);
				bool empty = true;
				struct dirent *e;
				while (dh && (e = readdir(dh)))
					if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
						empty = false;
				if (dh)
					closedir(dh);
				free(probe);
				if (!empty) {
					diag_add(d, SEV_ERROR, outdir, 0, 0,
						 "the output folder exists and was not made by ssg: "
						 "refusing to replace it (remove it or choose another)");
					rc = -1;
				}
			}
		}
	}
	free(rs);
	free(ro);
	return rc;
}

/* The search index's words, their slices keyed by what their entries are
 * made of: a document's bytes, name and place; a resource's record. */
static struct search_words *begin_search_words(const struct site *s, const struct page_inputs *pi)
{
	unsigned long long(*records)[2] = xcalloc(s->nres + 1, sizeof *records);
	for (size_t i = 0; i < s->nres; i++)
		memcpy(records[i], pi->res[i].record, sizeof records[i]);
	struct search_words_keys k = {.docs = (const unsigned long long(*)[2])pi->doc_self,
				      .resources = (const unsigned long long(*)[2])records,
				      .env = s->cache_env,
				      .load = s->cache_load,
				      .check = s->check_inputs};
	struct search_words *sw = search_words_begin(s, &k, SEARCH_WORDS_TASKS);
	free(records);
	return sw;
}

/* Each kept data file's keys (resources.json's: each resource's page inputs,
 * which its page shares; the index's: each document's, then the same per
 * resource), with the records of the site in place (before). */
static void data_reuse_begin(struct render_job *j, struct json_records before[NDATA_KEPT])
{
	const struct site *s = j->s;
	size_t n[NDATA_KEPT] = {s->nres, s->ndocs + s->nres};
	unsigned long long(*keys[NDATA_KEPT])[2];
	for (size_t i = 0; i < NDATA_KEPT; i++)
		keys[i] = xcalloc(n[i] + 1, sizeof *keys[i]);
	for (size_t i = 0; i < s->nres; i++) {
		page_inputs_resource(&j->inputs, s, i, keys[DATA_RESOURCES][i]);
		memcpy(keys[DATA_SEARCH][s->ndocs + i], keys[DATA_RESOURCES][i], sizeof *keys[0]);
	}
	for (size_t i = 0; i < s->ndocs; i++)
		page_inputs_search_doc(&j->inputs, s, i, keys[DATA_SEARCH][i]);
	for (size_t i = 0; i < NDATA_KEPT; i++)
		j->data[i] = (struct json_reuse){.before = before[i].v,
						 .nbefore = before[i].n,
						 .slots = before[i].slots,
						 .nslots = before[i].nslots,
						 .bytes = before[i].bytes,
						 .nbytes = before[i].nbytes,
						 .dev = before[i].dev,
						 .ino = before[i].ino,
						 .keys = (const unsigned long long(*)[2])keys[i],
						 .now = xcalloc(n[i] + 1, sizeof *j->data[i].now),
						 .check = j->check_inputs};
}

static void data_reuse_end(struct render_job *j, struct json_records before[NDATA_KEPT],
			   struct diags *d)
{
	static const char *names[NDATA_KEPT] = {"resources.json", "search-index.json"};
	for (size_t i = 0; i < NDATA_KEPT; i++) {
		json_records_free(&before[i]);
		free((void *)j->data[i].keys);
		j->data[i].keys = NULL;
		if (j->data[i].differ)
			diag_add(d, SEV_ERROR, names[i], 0, 0,
				 "internal error: %zu records kept from the file in place differ "
				 "from their rendering",
				 j->data[i].differ);
	}
}

static void *free_buried(void *arg)
{
	model_free(&((struct site_burial *)arg)->s);
	return NULL;
}

/* s's memory, freed behind the caller's back; what the build writes (the
 * document cache too) is all written first. */
static void bury_behind(struct site_burial *b, struct site *s)
{
	site_burial_wait(b);
	model_wait_writer(s);
	b->s = *s;
	memset(s, 0, sizeof *s);
	b->busy = pthread_create(&b->thread, NULL, free_buried, b) == 0;
	if (!b->busy)
		model_free(&b->s);
}

void site_burial_wait(struct site_burial *b)
{
	if (b->busy)
		pthread_join(b->thread, NULL);
	b->busy = false;
}

char *site_output_dir(const struct build_opts *o)
{
	const char *src = o->source ? o->source : ".";
	return o->output ? xstrdup(o->output) : path_join(src, "public");
}

/* A build's model, output folder and digests, once it is done: the model
 * left to the process's end, to a thread of its own, or freed. */
static void let_go(const struct build_opts *o, struct site *s, char *outdir,
		   struct file_digests *digests)
{
	site_read_dates_apply(s); /* git's thread ended before the site goes */
	free(outdir);
	if (o->exiting)
		model_bury(s);
	else if (o->burial)
		bury_behind(o->burial, s);
	else
		model_free(s);
	file_digests_free(digests);
}

/* At 10,000 documents documents.bin is 173 MB; a new link's build touched
 * about 90 MB on its main thread. The portal's build in full (163 kB of
 * records) took 320 faults there: its pages cost more than its records
 * (0.965-0.981 of its time with 2 MB warmed, 40 pairs each way). */
static size_t model_warmth(size_t records)
{
	return records / 10 * 6 > SITE_MODEL_LEAST_WARMTH ? records / 10 * 6
							   : SITE_MODEL_LEAST_WARMTH;
}

size_t site_model_warmth(const char *source_dir)
{
	return model_warmth(path_regular_size(source_dir, DOC_CACHE_DIR "/" DOC_CACHE_NAME));
}

/* A build in full on small pages (heap_warm.h): the memory its model and
 * pages need made present in bulk first, in proportion to its documents'
 * records (site_model_warmth on the main thread). At 10,000 documents the
 * threads that load the site in place, read the records and make the pages
 * touch 10-20 MB each. Two helpers a core warm an eighth of documents.bin
 * each (0.944 of the time against a sixteenth for four a core, 14 pairs);
 * threads after them mostly reuse their arenas. The portal's helpers warmed
 * 1.5 MB each as well gained nothing more (40 pairs). */
static void warm_for_model(const char *src, int threads)
{
	if (!heap_warm_enabled())
		return;
	size_t records = path_regular_size(src, DOC_CACHE_DIR "/" DOC_CACHE_NAME);
	heap_warm_to(model_warmth(records));
	heap_warm_workers(records / 8, (unsigned)threads * 2);
}

int site_build(const struct build_opts *o, struct diags *d, struct build_stats *st)
{
	double t0 = clock_ms();
	/* the last build's model is gone before this one's is made */
	if (o->burial)
		site_burial_wait(o->burial);
	memset(st, 0, sizeof *st);
	const char *src = o->source ? o->source : ".";
	char *outdir = site_output_dir(o);
	/* A build that can neither stop early nor patch (forced, or with no state
	 * in the output folder and no digests known by stat) fingerprints its
	 * inputs after reading, the documents by the digests their reading took:
	 * each is read once. */
	char *state = path_join(outdir, BUILD_STATE_FILE);
	struct stat sst;
	bool after = o->force || (lstat(state, &sst) && !fingerprint_cache_exists(src));
	free(state);
	struct fingerprint_learned *learned = after ? fingerprint_learned_new() : NULL;
	/* the same inputs as the site in place: nothing to do */
	char fp[33], frame[33], unnamed[33];
	struct file_digests digests = {0};
	if (!after)
		build_state_fingerprint(o, pool_threads(o->jobs), fp, &digests, frame, unnamed);
	struct diags scratch = DIAGS_INIT;
	bool ours = check_output_dir(src, outdir, &scratch) == 0;
	diags_free(&scratch);
	if (!after && !o->force && ours && build_state_match(outdir, fp, d, st) == 0) {
		output_tidy(outdir);
		file_digests_free(&digests);
		free(outdir);
		st->up_to_date = true;
		st->ms = st->check_ms = clock_ms() - t0;
		return 0;
	}
	/* only documents' prose changed: their pages are patched (or previewed,
	 * and built in full at once) */
	struct doc_pages patch_read = {0}; /* what a patch read of the site in place */
	struct patch_descs descs = {0};    /* or: descriptions to patch after the model */
	int patched = !after && !o->force && ours
			      ? build_patch(o, outdir, &digests, fp, frame, d, st, &patch_read,
					    &descs)
			      : -1;
	if (patched == 0) {
		output_tidy(outdir);
		file_digests_free(&digests);
		free(outdir);
		st->ms = clock_ms() - t0;
		st->read_ms = st->ms; /* a patch is all reading */
		return 0;
	}
	if (patched == 1)
		o->previewed(o->previewed_ctx);
	warm_for_model(src, pool_threads(o->jobs));
	struct site s;
	struct build_opts with_digests = *o; /* the content hashed just now, or as it is read */
	with_digests.digests = after ? NULL : &digests;
	with_digests.learned = learned;
	/* the staging folder first: the older site it reuses is listed while
	 * the documents are read and modelled (output.c); also when only
	 * descriptions may have to be patched (build_descs.h), which the model
	 * tells, unless the last build's hint foresees it: a build in full then
	 * has them at hand */
	struct output out;
	struct site_before was = {.o = o, .outdir = outdir, .source_dir = src, .out = &out,
				  .jobs = pool_threads(o->jobs), .docs = patch_read};
	bool early = !descs.n || !build_descs_foreseen(outdir, &descs);
	bool begun = early && begin_output(&out, &was, ours, d);
	st->check_ms = clock_ms() - t0;
	with_digests.read = begun ? &out.read : NULL;
	int rc = site_load(&s, &with_digests, d);
	if (begun)
		output_read(&out); /* also when the load stopped before reading */
	double loaded = clock_ms();
	if (after) {
		double t1 = clock_ms();
		build_state_fingerprint(&with_digests, pool_threads(o->jobs), fp, &digests, frame, unnamed);
		fingerprint_learned_free(learned);
		s.read_ms += clock_ms() - t1;
		loaded = clock_ms();
	}
	if (rc == 0)
		rc = check_output_dir(s.source_dir, outdir, d);
	double check_ms = st->check_ms;
	/* the site in place's state loaded whole before a patch appends to it */
	if (descs.n && rc == 0 && begun)
		site_before_wait(&was);
	if (descs.n && rc == 0)
		site_read_dates_apply(&s); /* the patch makes pages */
	if (descs.n && rc == 0 && (begun || !early) &&
	    build_descs(&s, o, outdir, &descs, fp, d, st) == 0) {
		patch_descs_free(&descs);
		site_before_free(&was);
		/* the older site back as the spare, untouched, with its note */
		if (begun) {
			output_abort(&out);
			if (out.note)
				output_note(&out, out.note, out.nnote);
			output_free(&out);
		}
		st->check_ms = check_ms;
		st->read_ms = s.read_ms;
		st->model_ms = s.model_ms;
		st->classes_kept = s.memo_kept;
		st->related_kept = s.related_kept;
		st->render_ms = clock_ms() - loaded; /* the pages, made and put in place */
		let_go(o, &s, outdir, &digests);
		st->ms = clock_ms() - t0;
		return 0;
	}
	patch_descs_free(&descs);
	if (!early) {
		/* foreseen, not patched after all: begun now */
		if (rc == 0) {
			begun = begin_output(&out, &was, ours, d);
			if (begun)
				output_read(&out); /* read already */
		} else
			doc_pages_free(&was.docs);
	}
	if (rc && begun) {
		site_before_free(&was);
		output_abort(&out);
		output_free(&out);
	}
	if (rc == 0 && begun) {
		out.jobs = pool_threads(o->jobs);
		struct template_source ts = {s.source_dir, s.cfg.theme, d, s.boundary};
		struct render_job j = {.s = &s, .out = &out, .d = d};
		struct room_making room = {.s = &s, .frame = frame};
		room_making_begin(&room);
		pthread_mutex_init(&j.lock, NULL);
		pthread_mutex_init(&j.dates_lock, NULL);
		buf_pool_init(&j.bufs);
		j.tpl = render_templates(&ts);
		view_prepare(&s); /* the list pages' plans: how many pages each has */
		size_t k = plan_pages(&s, &j.tasks);
		/* 18,000 resource pages at 10,000 documents: spread them (output.c) */
		size_t first_resource = k;
		for (size_t i = 0; i < k && first_resource == k; i++)
			if (j.tasks[i].kind == PAGE_RESOURCE) {
				output_folder_of_pages(&out, RESOURCE_FOLDER);
				first_resource = i;
			}
		/* compile every template up front: rendering is then lock-free */
		static const char *names[] = {"doc", "topic", "resource", "home", "resources",
					      "documents", "topics", "quickref", "404"};
		for (size_t i = 0; i < sizeof names / sizeof *names; i++)
			mustache_compile(j.tpl, names[i], d);
		xref_related_all(&s, pool_threads(o->jobs));
		if (s.related_differ)
			diag_add(d, SEV_ERROR, "content", 0, 0,
				 "internal error: related documents differ from the ones kept for "
				 "the same citations");
		prerender_nav(&s, j.tpl);
		digest_shared_views(&s, &j);
		unsigned long long nav[2] = {0, 0};
		for (size_t i = 0; i < j.nmemo; i++) {
			nav[0] = nav[0] * 31 + j.memo[i].digest[0];
			nav[1] = nav[1] * 31 + j.memo[i].digest[1];
		}
		page_inputs_prepare(&j.inputs, &s, unnamed, nav, pool_threads(o->jobs));
		j.check_inputs = s.check_inputs;
		j.words = begin_search_words(&s, &j.inputs);
		j.words_left = SEARCH_WORDS_TASKS;
		/* resources.json's and the index's records: kept when their key
		 * is; the pages of the site in place, when the same templates
		 * made them */
		site_before_wait(&was);
		data_reuse_begin(&j, was.data);
		topic_entries_begin(&j.entries, &s);
		j.before = &was.pages;
		j.items_before = &was.items;
		double t1 = clock_ms();
		st->prepare_ms = t1 - loaded;
		/* the documents' pages and the resources' on separate threads while
		 * both last: each makes its folders in a folder of its own, where
		 * on disk each mkdir waits for the last (Orlov's spread, under the
		 * parent's lock) */
		pool_run_lanes(pool_threads(o->jobs), k, first_resource, render_one, &j);
		st->render_ms = clock_ms() - t1;
		room_making_end(&room);
		data_reuse_end(&j, was.data, d);
		if (j.words_done.differ)
			diag_add(d, SEV_ERROR, "search/index.js", 0, 0,
				 "internal error: %zu slices of the search index's words kept from "
				 "the last build differ from the same words gathered again",
				 j.words_done.differ);
		t1 = clock_ms();
		view_release(&s);
		page_inputs_free(&j.inputs);
		/* marks the folder as ssg output: only such a folder is ever replaced */
		output_write(&out, ".ssg-output", "ssg\n", 4);
		/* what the build made, which no file of content/ replaces */
		const char **made = xcalloc(k + NDATA + 1, sizeof *made);
		size_t nmade = 0;
		for (size_t i = 0; i < k; i++)
			if (j.tasks[i].path)
				made[nmade++] = j.tasks[i].path;
		/* (the search index's other parts are scripts, which content/
		 * never publishes) */
		for (size_t i = 0; i < NDATA; i++)
			made[nmade++] = data_files[i].path;
		st->statics = site_copy_statics(&s, &out, &ts, made, nmade, d);
		free(made);
		st->pages = j.pages;
		st->views_skipped = j.views_skipped;
		st->items_kept = j.items_kept;
		st->classes_kept = s.memo_kept;
		st->related_kept = s.related_kept;
		for (size_t i = 0; i < NDATA_KEPT; i++)
			st->records_kept[i] = j.check_inputs ? 0 : j.data[i].reused;
		st->word_slices = j.words_done.slices;
		st->word_slices_kept = j.words_done.kept;
		mustache_set_free(j.tpl);
		page_digests_free(&was.pages);
		/* the documents' pages recorded while the site is swapped in */
		struct doc_records dr = {.s = &s, .digests = &digests, .tasks = j.tasks, .ntasks = k,
					 .before = &was.docs};
		dr.busy = pthread_create(&dr.thread, NULL, site_record_doc_pages, &dr) == 0;
		if (!dr.busy)
			site_record_doc_pages(&dr);
		struct state_saves sv = {.outdir = outdir, .env = was.env, .frame = frame,
					 .source_dir = s.source_dir, .out = &out, .data = j.data,
					 .n = {s.nres, s.ndocs + s.nres}, .room = room.b};
		memcpy(sv.size, j.data_size, sizeof sv.size);
		for (size_t i = 0; i < k; i++) {
			struct page_task *t = &j.tasks[i];
			if (t->path) {
				page_digests_add(&sv.pages, t->path, t->digest,
						 t->tracked ? t->inputs : NULL, &t->file);
				if (t->nitems && t->file.ino)
					page_items_add(&sv.items, t->path, &t->file, t->items,
						       t->nitems);
			}
			if (!t->items_lent)
				free(t->items);
		}
		page_items_free(&was.items);
		buf_pool_free(&j.bufs);
		frag_memo_free(&j.entries);
		pthread_mutex_destroy(&j.lock);
		pthread_mutex_destroy(&j.dates_lock);
		diags_sort(d);
		if (diags_count(d, SEV_ERROR)) {
			output_abort(&out);
			rc = -1;
		} else {
			/* the state describes the site in place: gone while it changes */
			build_state_forget(outdir);
			rc = output_commit(&out);
			if (rc == 0 && o->committed)
				o->committed(o->committed_ctx);
		}
		if (dr.busy)
			pthread_join(dr.thread, NULL);
		sv.docs = dr.now;
		for (size_t i = 0; i < k; i++)
			free(j.tasks[i].path);
		free(j.tasks);
		doc_pages_free(&was.docs);
		if (rc == 0)
			pool_run(pool_threads(o->jobs), NSTATE_SAVES, site_save_state, &sv);
		page_digests_free(&sv.pages);
		page_items_free(&sv.items);
		doc_pages_free(&sv.docs);
		buf_free(&sv.room);
		for (size_t i = 0; i < NDATA_KEPT; i++)
			free(j.data[i].now);
		st->write_ms = clock_ms() - t1;
		st->bytes = out.bytes;
		st->files = out.files;
		st->unchanged = out.unchanged;
		output_free(&out);
	} else
		rc = -1;
	st->read_ms = s.read_ms;
	st->model_ms = s.model_ms;
	st->docs = s.ndocs;
	st->resources = s.nres;
	st->topics = s.ntopics ? s.ntopics - 1 : 0;
	st->unsorted = s.unsorted_count;
	st->warnings = diags_count(d, SEV_WARNING);
	st->errors = diags_count(d, SEV_ERROR);
	if (rc == 0)
		build_state_save(outdir, fp, d, st);
	let_go(o, &s, outdir, &digests);
	st->ms = clock_ms() - t0;
	return rc;
}
