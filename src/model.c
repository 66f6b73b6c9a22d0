/* model: merging citations into resources (see model.h). Classification is
 * in taxonomy.c, cross-references in xref.c. */
#include "model.h"
#include "model_merge.h"
#include "digest.h"
#include "heap_warm.h"
#include "buf.h"
#include "path.h"
#include "pool.h"
#include "unique_name.h"
#include "url.h"
#include "xalloc.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <string.h>

long model_resource(const struct site *s, const char *canonical)
{
	size_t v;
	return hash_get(&s->res_by_url, canonical, &v) ? (long)v : -1;
}

long model_doc_by_path(const struct site *s, const char *relpath)
{
	size_t v;
	if (s->doc_by_path.n)
		return hash_get(&s->doc_by_path, relpath, &v) ? (long)v : -1;
	for (size_t i = 0; i < s->ndocs; i++)
		if (!strcmp(s->docs[i].relpath, relpath))
			return (long)i;
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The title most entries give a resource (first seen wins ties; a URL used
 * as its own title loses to any real title); the longest description.
 * Linear in the citations: a hash from title to its count. */
static const char *ref_title(const struct site *s, const struct resource *r, size_t i)
{
	return s->docs[r->refs[i].doc].cites[r->refs[i].cite].title;
}

static void pick_names(const struct site *s, struct resource *r, int32_t *title_ref,
		       int32_t *desc_ref)
{
	struct hash counts = HASH_INIT;
	size_t best = 0, bestn = 0;
	bool few = r->nrefs <= 16; /* counted by comparing, not hashing */
	for (size_t i = 0; i < r->nrefs; i++) {
		const char *t = ref_title(s, r, i);
		size_t n = 0;
		if (few) {
			for (size_t k = 0; k <= i; k++)
				n += !strcmp(ref_title(s, r, k), t);
		} else {
			hash_get(&counts, t, &n);
			hash_put(&counts, t, ++n);
		}
		if (!strncmp(t, "http", 4))
			n = 0;
		if (n > bestn) {
			best = i;
			bestn = n;
		}
	}
	hash_free(&counts);
	size_t dl = 0;
	long desc = -1;
	for (size_t i = 0; i < r->nrefs; i++) {
		const char *d = s->docs[r->refs[i].doc].cites[r->refs[i].cite].desc;
		size_t n = d ? strlen(d) : 0;
		if (n > dl) {
			desc = (long)i;
			dl = n;
		}
	}
	*title_ref = (int32_t)best;
	*desc_ref = (int32_t)desc;
}

static const struct citation *ref_cite(const struct site *s, const struct resource *r, int32_t i)
{
	return &s->docs[r->refs[i].doc].cites[r->refs[i].cite];
}

/* What a resource's description and classes are made of: its URL and each
 * citation as cite_key.h digests it (its own fields and its sections), in
 * order (res_memo.h). */
static void memo_key(const struct site *s, const struct resource *r, unsigned long long key[2])
{
	struct digest d;
	digest_start(&d);
	size_t n = strlen(r->canonical);
	digest_word(&d, n);
	digest_feed(&d, r->canonical, n);
	digest_word(&d, r->nrefs);
	for (size_t i = 0; i < r->nrefs; i++) {
		digest_word(&d, r->refs[i].key[0]);
		digest_word(&d, r->refs[i].key[1]);
	}
	digest_end(&d, key);
}

/* The record found for r, when it fits r (a damaged file cannot point outside). */
static const struct res_memo_rec *memo_of(const struct site *s, const struct resource *r,
					  const unsigned long long key[2])
{
	const struct res_memo_rec *m = s->memo ? res_memo_find(s->memo, key) : NULL;
	if (!m || m->title_ref < 0 || (size_t)m->title_ref >= r->nrefs || m->desc_ref < -1 ||
	    (m->desc_ref >= 0 && (size_t)m->desc_ref >= r->nrefs) || m->kind < -1 ||
	    m->kind >= (int32_t)s->cfg.nkinds || m->ntopics > s->cfg.ntopics + 1 ||
	    m->title_rank >= s->memo->n)
		return NULL;
	for (uint32_t i = 0; i < m->ntopics; i++) {
		int32_t t = s->memo->topics[m->topics_at + i];
		if (t < 0 || t > (int32_t)s->cfg.ntopics)
			return NULL;
	}
	return m;
}

/* Its spellings from its citations: they end sorted, so the order they are
 * met in is no matter. The citations lie all over memory: their URLs are
 * loaded first, in loops whose loads do not wait on one another. */
static void spell(const struct site *s, struct resource *r)
{
	const char *near[16], **urls = r->nrefs <= 16 ? near : xmalloc(r->nrefs * sizeof *urls);
	for (size_t i = 0; i < r->nrefs; i++)
		urls[i] = ref_cite(s, r, (int32_t)i)->url;
	for (size_t i = 0; i < r->nrefs; i++)
		__builtin_prefetch(urls[i]);
	/* sorted, then each distinct one once: a resource cited 40,000 times,
	 * each with a tracking parameter of its own, is not compared spelling
	 * by spelling with all the ones before */
	if (r->nrefs > 1)
		qsort(urls, r->nrefs, sizeof *urls, cmp_str);
	size_t n = 0;
	for (size_t i = 0; i < r->nrefs; i++)
		if (!n || strcmp(urls[i], urls[n - 1]))
			urls[n++] = urls[i];
	r->spellings = xmalloc((n + 1) * sizeof *r->spellings);
	for (size_t i = 0; i < n; i++)
		r->spellings[i] = xstrdup(urls[i]);
	r->nspellings = n;
	if (urls != near)
		free(urls);
}

/* Made by the first thread to ask; another asking meanwhile waits for it
 * (a few microseconds: one resource's citations). */
void model_prefetch_refs(const struct site *s, const struct cite_ref *refs, size_t n, int stage)
{
	for (size_t k = 0; k < n; k++) {
		const struct doc *d = &s->docs[refs[k].doc];
		if (stage == 0) {
			__builtin_prefetch(&d->cites);
			__builtin_prefetch(&d->url);
			continue;
		}
		const struct citation *c = &d->cites[refs[k].cite];
		if (stage == 1) {
			__builtin_prefetch(c);
			__builtin_prefetch(d->title);
			__builtin_prefetch(d->url);
		} else if (stage == 2) {
			__builtin_prefetch(c->title);
			__builtin_prefetch(c->url);
			if (c->heading >= 0)
				__builtin_prefetch(&d->headings[c->heading]);
		} else if (c->heading >= 0)
			__builtin_prefetch(d->headings[c->heading].id);
	}
}

/* All the stages over refs[0..n), one after another. */
static void prefetch_refs_all(const struct site *s, const struct cite_ref *refs, size_t n)
{
	for (int stage = 0; stage < MODEL_REF_STAGES; stage++)
		model_prefetch_refs(s, refs, n, stage);
}

/* How many citations apart model_prefetch_refs_ahead's stages are. */
#define REF_STAGE_GAP 2

void model_prefetch_refs_ahead(const struct site *s, const struct cite_ref *refs, size_t n,
			       size_t i)
{
	if (i == 0) {
		size_t first = REF_STAGE_GAP * MODEL_REF_STAGES;
		prefetch_refs_all(s, refs, n < first ? n : first);
	}
	for (int stage = 0; stage < MODEL_REF_STAGES; stage++) {
		size_t k = i + REF_STAGE_GAP * (size_t)(MODEL_REF_STAGES - stage);
		if (k < n)
			model_prefetch_refs(s, refs + k, 1, stage);
	}
}

void model_spellings(const struct site *s, const struct resource *cr)
{
	struct resource *r = (struct resource *)cr; /* what it adds is made once */
	int was = 0;
	if (__atomic_load_n(&r->spelled, __ATOMIC_ACQUIRE) == 2)
		return;
	if (__atomic_compare_exchange_n(&r->spelled, &was, 1, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		spell(s, r);
		__atomic_store_n(&r->spelled, 2, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&r->spelled, __ATOMIC_ACQUIRE) != 2)
		sched_yield();
}

/* Its names: as the last build picked them, when made of the same (its
 * memo key made). */
static void name_resource(struct site *s, size_t ri)
{
	struct resource *r = &s->res[ri];
	struct res_memo_rec *now = &s->memo_now[ri];
	const struct res_memo_rec *was = memo_of(s, r, now->key);
	s->memo_hit[ri] = was;
	if (was && !s->check_inputs) {
		now->title_ref = was->title_ref;
		now->desc_ref = was->desc_ref;
	} else {
		pick_names(s, r, &now->title_ref, &now->desc_ref);
		if (was && (was->title_ref != now->title_ref || was->desc_ref != now->desc_ref))
			__atomic_fetch_add(&s->memo_differ, 1, __ATOMIC_RELAXED);
	}
}

/* The rest of what it needs from its own citations (its names picked). */
static void describe_resource(struct site *s, size_t ri)
{
	struct resource *r = &s->res[ri];
	const struct res_memo_rec *now = &s->memo_now[ri];
	r->title = ref_cite(s, r, now->title_ref)->title;
	r->desc = now->desc_ref >= 0 ? ref_cite(s, r, now->desc_ref)->desc : NULL;
	r->host = url_host(r->canonical);
	if (!r->host)
		r->host = xstrdup("");
	size_t last = (size_t)-1;
	for (size_t i = 0; i < r->nrefs; i++)
		if (r->refs[i].doc != last) {
			r->ndocs++;
			last = r->refs[i].doc;
		}
	/* slug from the URL: stable while titles get edited */
	const char *u = r->canonical;
	const char *p = strstr(u, "://");
	r->slug = slug_url(p ? p + 3 : u, 72);
}

/* Resources described a batch at a time, in parallel. What each needs lies
 * all over memory (its citations' documents, its record in resources.bin,
 * the citations its names come from, their strings): each stage asks for
 * what the next reads, for the whole batch, so that the misses overlap
 * instead of each waiting for the last. */
#define DESCRIBE_BATCH 32
#define DESCRIBE_AHEAD 16 /* citations asked for ahead, per resource */

static void describe_batch(void *ctx, size_t bi)
{
	struct site *s = ctx;
	size_t from = bi * DESCRIBE_BATCH, to = from + DESCRIBE_BATCH;
	if (to > s->nres)
		to = s->nres;
	for (size_t ri = from; ri < to; ri++) {
		const struct resource *r = &s->res[ri];
		__builtin_prefetch(r->refs);
		for (size_t i = 0; i < r->nrefs && i < DESCRIBE_AHEAD; i++)
			__builtin_prefetch(&s->docs[r->refs[i].doc].cites);
	}
	for (size_t ri = from; ri < to; ri++) {
		memo_key(s, &s->res[ri], s->memo_now[ri].key);
		if (s->memo)
			res_memo_prefetch(s->memo, s->memo_now[ri].key);
	}
	for (size_t ri = from; ri < to; ri++) {
		name_resource(s, ri);
		const struct res_memo_rec *now = &s->memo_now[ri];
		__builtin_prefetch(ref_cite(s, &s->res[ri], now->title_ref));
		if (now->desc_ref >= 0)
			__builtin_prefetch(ref_cite(s, &s->res[ri], now->desc_ref));
	}
	for (size_t ri = from; ri < to; ri++) {
		const struct res_memo_rec *now = &s->memo_now[ri];
		__builtin_prefetch(ref_cite(s, &s->res[ri], now->title_ref)->title);
		if (now->desc_ref >= 0)
			__builtin_prefetch(ref_cite(s, &s->res[ri], now->desc_ref)->desc);
	}
	for (size_t ri = from; ri < to; ri++)
		describe_resource(s, ri);
}

/* A unique slug (in resource order, so the same every run). */
static void finish_resource(struct site *s, struct resource *r, struct unique_names *slugs)
{
	r->slug = unique_name_take(slugs, r->slug);
	r->has_page = (long)r->ndocs >= s->cfg.resource_page_min;
}

/* The documents' side of the model (their URLs, internal links and anchors:
 * xref_resolve) takes nothing from the resources' side, nor that side from
 * it: the one runs on a thread of its own while the other is merged, named
 * and classified (a new link's build at 10,000 documents: 0.968 of the
 * time, 16 pairs). */
static void *resolve_docs(void *arg)
{
	heap_warm_worker();
	xref_resolve(arg);
	return NULL;
}

void model_build(struct site *s)
{
	pthread_t docs_side;
	bool apart = s->jobs > 1 && pthread_create(&docs_side, NULL, resolve_docs, s) == 0;
	struct aliases al;
	taxonomy_aliases_init(&al, &s->cfg);
	model_merge(s, &al, s->memo ? s->memo->n : 0);
	taxonomy_aliases_free(&al);
	free(s->memo_now);
	free(s->memo_hit);
	s->memo_now = xcalloc(s->nres + 1, sizeof *s->memo_now);
	s->memo_hit = xcalloc(s->nres + 1, sizeof *s->memo_hit);
	pool_run(s->jobs, (s->nres + DESCRIBE_BATCH - 1) / DESCRIBE_BATCH, describe_batch, s);
	struct unique_names slugs;
	unique_names_init(&slugs, 2);
	hash_reserve(&slugs.taken, s->nres);
	for (size_t i = 0; i < s->nres; i++)
		finish_resource(s, &s->res[i], &slugs);
	unique_names_free(&slugs);
	taxonomy_classify(s);
	if (apart)
		pthread_join(docs_side, NULL);
	else
		xref_resolve(s);
	xref_paginate(s);
}

void model_wait_writer(struct site *s)
{
	if (s->cache_writing)
		pthread_join(s->cache_writer, NULL);
	s->cache_writing = false;
	if (s->memo_writing)
		pthread_join(s->memo_writer, NULL);
	s->memo_writing = false;
}

void model_bury(struct site *s)
{
	static struct site *buried[4];
	static size_t nburied;
	model_wait_writer(s);
	if (nburied == sizeof buried / sizeof *buried) {
		model_free(s);
		return;
	}
	buried[nburied] = xmalloc(sizeof *s);
	*buried[nburied++] = *s;
	memset(s, 0, sizeof *s);
}

void model_free(struct site *s)
{
	model_wait_writer(s);
	if (s->body_fd > 2)
		close(s->body_fd);
	for (size_t i = 0; i < s->ndocs; i++)
		doc_free(&s->docs[i]);
	free(s->docs);
	free(s->res_topic_bits);
	free(s->doc_primary);
	if (s->docs_map)
		munmap((void *)s->docs_map, s->docs_map_len);
	for (size_t i = 0; i < s->nres; i++) {
		struct resource *r = &s->res[i];
		free(r->slug);
		free(r->host);
		for (size_t j = 0; j < r->nspellings; j++)
			free(r->spellings[j]);
		free(r->spellings);
		free(r->topics);
		free(r->link_status);
	}
	free(s->res);
	free(s->refs);
	hash_free(&s->res_by_url);
	hash_free(&s->doc_by_path);
	hash_free(&s->static_by_path);
	for (size_t i = 0; i < s->ntopics; i++) {
		struct topic *t = &s->topics[i];
		free(t->id);
		free(t->title);
		free(t->description);
		free(t->children);
		free(t->resources);
		free(t->docs);
		free(t->quick);
		free(t->listing);
	}
	free(s->title_order);
	free(s->index_order);
	free(s->related);
	free(s->memo_now);
	free(s->memo_hit);
	for (size_t i = 0; i < s->nchunks; i++)
		free(s->chunks[i].dir);
	free(s->chunks);
	free(s->topics);
	for (size_t i = 0; i < s->nstatics; i++)
		free(s->statics[i].relpath);
	free(s->statics);
	diags_free(&s->diags);
	config_free(&s->cfg);
	free(s->source_dir);
	free(s->boundary);
	memset(s, 0, sizeof *s);
}
