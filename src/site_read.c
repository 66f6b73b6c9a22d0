/* site_read: the reading phase of a build (see site.h): every document read,
 * parsed, extracted and rendered to its body on the build's threads, or
 * taken from the document cache when its bytes are unchanged; the cache
 * brought up to date, the bodies left in it (read back by their pages);
 * git's dates fetched meanwhile. Level 5. */
#include "site_read.h"
#include "ast.h"
#include "cite_key.h"
#include "doc_cache.h"
#include "extract.h"
#include "fingerprint.h"
#include "gitdates.h"
#include "hash.h"
#include "html.h"
#include "map_warm.h"
#include "path.h"
#include "pool.h"
#include "utf8.h"
#include "reader.h"
#include "source.h"
#include "xalloc.h"

#include <pthread.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct read_job {
	struct site *s;
	const char *content_dir;
	const char **relpaths;
	bool readonly;                 /* ssg check: no page bodies, no cache written */
	const struct doc_cache *cache; /* NULL: parse every document */
	struct buf *entries;           /* per document: its new cache entry (appended later) */
	struct doc_cache_stream *stream; /* or: a whole new cache, written as we go */
	const struct file_digests *digests; /* what the fingerprint hashed */
	struct fingerprint_learned *learned; /* or: what it will be told */
	size_t hits;                   /* documents the cache gave (under lock) */
	pthread_mutex_t lock;
};

static const struct cfg_document *doc_override(const struct config *cfg, const char *rel)
{
	for (size_t i = 0; i < cfg->ndocuments; i++)
		if (!strcmp(cfg->documents[i].path, rel))
			return &cfg->documents[i];
	return NULL;
}

static char *first_paragraph(cmark_node *tree)
{
	for (cmark_node *n = cmark_node_first_child(tree); n; n = cmark_node_next(n)) {
		if (cmark_node_get_type(n) != CMARK_NODE_PARAGRAPH)
			continue;
		char *t = doc_node_text(n);
		if (strlen(t) < 20) {
			free(t);
			continue;
		}
		if (strlen(t) > 240) {
			/* cut at a word, on a UTF-8 boundary */
			size_t k = 240;
			while (k > 0 && t[k] != ' ')
				k--;
			strcpy(t + k, "…");
		}
		return t;
	}
	return NULL;
}

static char *title_from_name(const char *rel)
{
	const char *b = path_basename(rel);
	char *t = xstrdup(b);
	char *dot = strrchr(t, '.');
	if (dot && dot != t)
		*dot = '\0';
	for (char *p = t; *p; p++)
		if (*p == '-' || *p == '_')
			*p = ' ';
	return t;
}

/* The digest the build's fingerprint took of a document's file (shown:
 * "content/<relpath>", the path its walk names it by). */
static bool known_digest(const struct read_job *j, const char *shown, unsigned long long out[2])
{
	return j->digests && file_digests_get(j->digests, shown, out);
}

/* Returns where the body lies in its entry (SIZE_MAX: no entry or body). */
static size_t read_doc(struct read_job *j, size_t i, struct buf *entry)
{
	struct site *s = j->s;
	struct doc *d = &s->docs[i];
	d->index = i;
	d->relpath = xstrdup(j->relpaths[i]);
	d->shown = xasprintf("content/%s", d->relpath);
	char *file = path_join(j->content_dir, d->relpath);
	/* a document whose bytes the cache knows is not parsed again (without
	 * a cache, the digest comes with the reading) */
	unsigned long long digest[2];
	if (j->cache && (known_digest(j, d->shown, digest) ||
			 fingerprint_file_digest(file, digest) == 0) &&
	    doc_cache_get(j->cache, d->relpath, digest, d)) {
		free(file);
		d->ok = true;
		pthread_mutex_lock(&j->lock);
		j->hits++;
		pthread_mutex_unlock(&j->lock);
		return SIZE_MAX;
	}
	struct source src;
	/* the tree lives in an arena of its own, freed once read */
	struct ast_arena *arena = ast_arena_begin();
	int rc = source_load(file, d->shown, s->cfg.max_file_size, &src, &d->diags);
	free(file);
	if (rc) {
		source_free(&src);
		ast_arena_end(arena);
		return SIZE_MAX;
	}
	if (j->learned) /* d->shown is the path the fingerprint walk names it by */
		fingerprint_learned_add(j->learned, d->shown, &src.st, src.digest);
	d->format = src.format;
	d->hash = src.digest[0];
	digest[0] = src.digest[0];
	digest[1] = src.digest[1];
	/* site.yml's documents: entry wins over front matter */
	const struct cfg_document *ov = doc_override(&s->cfg, d->relpath);
	if (ov) {
		meta_merge(&d->meta, &ov->meta);
		meta_merge(&d->meta, &src.meta);
	} else {
		d->meta = src.meta;
		memset(&src.meta, 0, sizeof src.meta);
	}
	d->tree = reader_parse(&src, &s->cfg, &d->diags);
	source_free(&src);
	extract_doc(d);
	/* bounded as a heading is (extract.h): a title is shown on every page
	 * that lists or cites the document */
	if (d->meta.title && *d->meta.title)
		d->title = utf8_bound(xstrdup(d->meta.title), EXTRACT_TITLE_MAX);
	else if (d->nheadings)
		d->title = xstrdup(d->headings[0].text);
	if (!d->title || !*d->title) {
		free(d->title);
		d->title = title_from_name(d->relpath);
		if (d->meta.title)
			diag_addc(&d->diags, SEV_WARNING, "empty-title", d->shown, 1, 1,
				  "empty title: using \"%s\"", d->title);
	}
	d->description = d->meta.description ? xstrdup(d->meta.description)
					     : first_paragraph(d->tree);
	/* memory holds the HTML (a build's: check renders no page), not every tree */
	if (!j->readonly)
		d->body = html_render_body(d);
	doc_drop_tree(d);
	doc_compact_strings(d);
	ast_arena_end(arena);
	d->ok = true;
	/* the merge's hash of each URL, taken here while the strings are warm
	 * and on every thread, not in the serial merge; kept in the cache */
	for (size_t k = 0; k < d->ncites; k++)
		if (d->cites[k].canonical)
			d->cites[k].canon_hash = hash_str(d->cites[k].canonical);
	cite_keys(d);
	return entry ? doc_cache_put(entry, d, digest) : SIZE_MAX;
}

static void read_one(void *ctx, size_t i)
{
	struct read_job *j = ctx;
	struct buf entry = BUF_INIT;
	size_t body_at = read_doc(j, i, j->entries || j->stream ? &entry : NULL);
	struct doc *d = &j->s->docs[i];
	/* every document, once; its body left in the file once it is there */
	if (j->stream)
		doc_cache_stream_put(j->stream, i, &entry, d, body_at);
	else if (j->entries)
		j->entries[i] = entry;
	else
		buf_free(&entry);
}

struct site_dates {
	const char *source_dir;
	char env[33];    /* the caches' env: the dates kept under it ("": none kept) */
	bool reuse;      /* and whether the ones kept may be taken (not with --force) */
	struct gitdates dates;
	pthread_t thread;
	bool async;      /* the thread runs; else they are fetched when applied */
};

static void *load_dates(void *arg)
{
	struct site_dates *sd = arg;
	if (sd->env[0])
		gitdates_load_kept(&sd->dates, sd->source_dir, sd->env, sd->reuse);
	else
		gitdates_load(&sd->dates, sd->source_dir);
	return NULL;
}

/* env: the caches' (the dates are kept under it); reuse: the kept ones may
 * be taken. */
static struct site_dates *start_dates(const char *source_dir, const char *env, bool reuse)
{
	struct site_dates *sd = xcalloc(1, sizeof *sd);
	sd->source_dir = source_dir;
	memcpy(sd->env, env, sizeof sd->env);
	sd->reuse = reuse;
	sd->async = pthread_create(&sd->thread, NULL, load_dates, sd) == 0;
	return sd;
}

void site_read_dates_apply(struct site *s)
{
	struct site_dates *sd = s->dates;
	if (!sd)
		return;
	s->dates = NULL;
	if (sd->async)
		pthread_join(sd->thread, NULL);
	else
		load_dates(sd);
	gitdates_apply(&sd->dates, s->docs, s->ndocs);
	gitdates_free(&sd->dates);
	free(sd);
}

/* The document cache is brought up to date on a thread of its own while the
 * build goes on; model_free waits for it. */
struct cache_update {
	struct doc_cache cache;
	char *source_dir;
	char env[33];
	char **relpaths;
	struct buf *entries;
	size_t n;
};

static void *run_cache_update(void *arg)
{
	struct cache_update *u = arg;
	doc_cache_update(&u->cache, u->source_dir, u->env, (const char **)u->relpaths, u->entries,
			 u->n);
	doc_cache_free(&u->cache);
	for (size_t i = 0; i < u->n; i++) {
		buf_free(&u->entries[i]);
		free(u->relpaths[i]);
	}
	free(u->entries);
	free(u->relpaths);
	free(u->source_dir);
	free(u);
	return NULL;
}

/* Takes cache and entries. */
static void start_cache_update(struct site *s, struct doc_cache *cache, const char env[33],
			       const char **rels, struct buf *entries, size_t n)
{
	struct cache_update *u = xcalloc(1, sizeof *u);
	u->cache = *cache;
	u->source_dir = xstrdup(s->source_dir);
	memcpy(u->env, env, 33);
	u->relpaths = xcalloc(n + 1, sizeof *u->relpaths);
	for (size_t i = 0; i < n; i++)
		u->relpaths[i] = xstrdup(rels[i]);
	u->entries = entries;
	u->n = n;
	if (pthread_create(&s->cache_writer, NULL, run_cache_update, u) == 0)
		s->cache_writing = true;
	else
		run_cache_update(u);
}

/* A document cache this large (about 500 documents) is worth a thread that
 * makes its mapping present ahead of the reading (map_warm.h). */
#define WARM_CACHE_BYTES ((size_t)8 << 20)

void site_read_documents(struct site *s, const struct build_opts *o, const char *content,
			 const char **rels, size_t ndocs)
{
	struct read_job job = {.s = s, .content_dir = content, .relpaths = rels,
			       .readonly = o->readonly, .digests = o->digests,
			       .learned = o->learned};
	pthread_mutex_init(&job.lock, NULL);
	/* the documents read last time (check reads what a build left, and
	 * writes nothing) */
	struct doc_cache cache;
	char env[33];
	memset(&cache, 0, sizeof cache);
	struct map_warming warming = {0};
	if (doc_cache_env_for(s->source_dir, o->readonly, env)) {
		if (o->readonly)
			doc_cache_load_readonly(&cache, s->source_dir, env);
		else if (!o->force) /* --force: nothing from before, written whole */
			doc_cache_load(&cache, s->source_dir, env);
	}
	if (cache.valid) {
		job.cache = &cache;
		/* few new entries, as a rule: appended after (not by check) */
		if (!o->readonly)
			job.entries = xcalloc(ndocs + 1, sizeof *job.entries);
		/* bodies stay in the file until a page needs one: the site
		 * keeps the file open (above 2: 0 says none); check needs none */
		s->body_fd = o->readonly ? 0 : fcntl(cache.fd, F_DUPFD_CLOEXEC, 3);
		if (s->body_fd > 2 || o->readonly)
			cache.lazy_bodies = true;
		else
			s->body_fd = 0;
		/* their strings too, used where they lie: the site keeps
		 * the mapping (model_free unmaps it) */
		cache.borrow_strings = true;
		cache.map_kept = true;
		s->docs_map = cache.data;
		s->docs_map_len = cache.len;
		/* read whole but for the bodies, which lie between the records:
		 * all of it made present at once (7 ms for 170 MB), not by faults */
		if (!o->readonly && cache.len >= WARM_CACHE_BYTES)
			map_warm_start(&warming, cache.data, cache.len);
	} else if (!o->readonly)
		job.stream = doc_cache_stream_begin(s->source_dir, env, ndocs);
	/* git's one log runs while the documents are read and modelled; not for
	 * check, whose rules look at no date (a long history's log can take
	 * longer than the check) */
	s->dates = o->readonly ? NULL : start_dates(s->source_dir, env, !o->force);
	pool_run(s->jobs, ndocs, read_one, &job);
	map_warm_join(&warming);
	if (job.entries)
		start_cache_update(s, &cache, env, rels, job.entries, ndocs);
	else
		doc_cache_free(&cache);
	if (job.stream) {
		/* the bodies were left in the file: pages read them back */
		int fd;
		doc_cache_stream_end(job.stream, &fd);
		if (fd > 2)
			s->body_fd = fd;
	}
	s->cached_docs = job.hits;
	pthread_mutex_destroy(&job.lock);
}

void site_read_fresh(struct site *s, const char *content, const char **rels, size_t ndocs,
		     struct buf *entries)
{
	struct read_job job = {.s = s, .content_dir = content, .relpaths = rels,
			       .entries = entries};
	pthread_mutex_init(&job.lock, NULL);
	pool_run(s->jobs, ndocs, read_one, &job);
	pthread_mutex_destroy(&job.lock);
}
