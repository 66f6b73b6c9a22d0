/* model_merge: the documents' citations merged into resources, one a
 * canonical URL, numbered by their first citation in document order, each
 * with its citations placed in one block (site.refs), in document order.
 *
 * At 10,000 documents that is 250,000 citations into 60,000 resources,
 * each a few cache misses; merged citation by citation on one thread it
 * took 100-230 ms, the longest serial stretch of a new link's build. Here
 * the documents are split into parts (one a thread), and:
 * - find: each part's documents, a batch at a time on the pool: each
 *   citation's URL aliased and hashed, then found in or put into
 *   res_by_url, whose slots are claimed by compare-and-swap (the table is
 *   sized before and never grown meanwhile). A citation notes its slot; a
 *   slot counts its citations part by part, and keeps its first citation's
 *   place (document, citation), the least any thread saw.
 * - number (one thread, no citation looked at): the slots in order of
 *   their first citations are the resources, numbered as a single thread
 *   merging citation by citation numbers them; each one's citations get
 *   their room in site.refs from the counts.
 * - place: each part's documents again, on the pool: each citation takes
 *   its resource's number and the next place in its room, the part's
 *   places starting after the parts before.
 * The output does not depend on the threads. A table that fills up (more
 * distinct URLs than guessed) is made again, with room for every citation,
 * and found again (the URLs are aliased only once). */
#include "model.h"
#include "model_merge.h"
#include "pool.h"
#include "xalloc.h"

#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MERGE_BATCH 16 /* documents a task of the find step */
#define MAX_PARTS 8
#define MAKE_BATCH 1024 /* resources a task of the number step */
#define NO_SLOT SIZE_MAX

struct merge {
	struct site *s;
	const struct aliases *al; /* NULL: the URLs are aliased already */
	size_t nparts, nbatches;
	uint32_t *count[MAX_PARTS]; /* per slot: its citations in each part (atomic) */
	uint32_t *next[MAX_PARTS];  /* per slot: where the part's next citation goes */
	uint64_t *first;            /* per slot: document << 32 | citation (atomic least) */
	uint32_t *id;               /* per slot: its resource */
	size_t *order;              /* the slots by first citation */
	size_t *from;               /* per resource: where its citations begin in site.refs */
	size_t limit;               /* keys the table takes before it is full */
	size_t n;                   /* keys put (atomic) */
	bool full;                  /* (atomic) */
};

/* Key's slot in the table, found or claimed; NO_SLOT when the table is
 * full. A claimed slot's key is set first (the claim), then its hash, then
 * its value (1: ready), which a lookup meeting the key waits for. */
static size_t slot_of(struct merge *m, const char *key, unsigned long long h)
{
	struct hash_slot *sl = m->s->res_by_url.slots;
	size_t mask = m->s->res_by_url.cap - 1;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		const char *k = __atomic_load_n(&sl[i].key, __ATOMIC_ACQUIRE);
		if (!k) {
			if (__atomic_load_n(&m->full, __ATOMIC_RELAXED))
				return NO_SLOT;
			if (__atomic_compare_exchange_n(&sl[i].key, &k, key, false, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE)) {
				sl[i].h = h;
				__atomic_store_n(&sl[i].val, 1, __ATOMIC_RELEASE);
				/* a few threads may each put one more after the
				 * limit: the table has room for far more */
				if (__atomic_add_fetch(&m->n, 1, __ATOMIC_RELAXED) > m->limit)
					__atomic_store_n(&m->full, true, __ATOMIC_RELAXED);
				return i;
			}
			/* another thread claimed it first: k is its key */
		}
		while (!__atomic_load_n(&sl[i].val, __ATOMIC_ACQUIRE))
			sched_yield();
		if (sl[i].h == h && !strcmp(k, key))
			return i;
	}
}

static void least(uint64_t *at, uint64_t v)
{
	uint64_t was = __atomic_load_n(at, __ATOMIC_RELAXED);
	while (v < was &&
	       !__atomic_compare_exchange_n(at, &was, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static size_t part_of_batch(const struct merge *m, size_t bi)
{
	return bi * m->nparts / m->nbatches;
}

/* The first document of part p (batches are split evenly between parts). */
static size_t part_start(const struct merge *m, size_t p)
{
	size_t bi = (p * m->nbatches + m->nparts - 1) / m->nparts;
	size_t d = bi * MERGE_BATCH;
	return d < m->s->ndocs ? d : m->s->ndocs;
}

static void find_batch(void *ctx, size_t bi)
{
	struct merge *m = ctx;
	struct site *s = m->s;
	uint32_t *count = m->count[part_of_batch(m, bi)];
	size_t to = (bi + 1) * MERGE_BATCH < s->ndocs ? (bi + 1) * MERGE_BATCH : s->ndocs;
	for (size_t d = bi * MERGE_BATCH; d < to; d++) {
		struct doc *doc = &s->docs[d];
		for (size_t i = 0; i < doc->ncites; i++) {
			struct citation *c = &doc->cites[i];
			if (!c->canonical)
				continue;
			if (m->al) {
				char *aliased = taxonomy_alias(m->al, c->canonical);
				doc_free_str(doc, c->canonical);
				c->canonical = aliased;
				c->canon_hash = 0;
			}
			/* hashed as the document was read (site_read.c) */
			if (!c->canon_hash)
				c->canon_hash = hash_str(c->canonical);
			/* a document's URLs are looked up one after another, each
			 * a cache miss or more: ask for their slots first */
			hash_prefetch(&s->res_by_url, c->canon_hash);
		}
		/* once the table is full, the documents are still aliased (the
		 * step run again does not), not looked up */
		for (size_t i = 0; i < doc->ncites; i++) {
			struct citation *c = &doc->cites[i];
			if (!c->canonical)
				continue;
			size_t slot = slot_of(m, c->canonical, c->canon_hash);
			if (slot == NO_SLOT)
				break;
			c->resource = (long)slot;
			__atomic_fetch_add(&count[slot], 1, __ATOMIC_RELAXED);
			least(&m->first[slot], (uint64_t)d << 32 | i);
		}
	}
}

static void merge_free(struct merge *m)
{
	for (size_t p = 0; p < m->nparts; p++) {
		free(m->count[p]);
		free(m->next[p]);
		m->count[p] = m->next[p] = NULL;
	}
	free(m->first);
	free(m->id);
	free(m->order);
	free(m->from);
	m->from = NULL;
	m->first = NULL;
	m->id = NULL;
	m->order = NULL;
}

/* The find step over every document, into a table with room for `want`
 * keys; false when it filled up first. */
static bool find(struct merge *m, size_t want)
{
	struct site *s = m->s;
	hash_free(&s->res_by_url);
	hash_reserve(&s->res_by_url, want);
	size_t cap = s->res_by_url.cap;
	merge_free(m);
	for (size_t p = 0; p < m->nparts; p++)
		m->count[p] = xcalloc(cap + 1, sizeof *m->count[p]);
	m->first = xmalloc((cap + 1) * sizeof *m->first);
	memset(m->first, 0xff, (cap + 1) * sizeof *m->first); /* UINT64_MAX: none seen */
	m->limit = cap / 4 * 3 - 1;
	m->n = 0;
	m->full = false;
	pool_run(s->jobs, m->nbatches, find_batch, m);
	return !m->full;
}

/* Resources [bi * MAKE_BATCH, ...) made, their slots told their numbers
 * and where each part's citations of them go. */
static void make_batch(void *ctx, size_t bi)
{
	struct merge *m = ctx;
	struct site *s = m->s;
	size_t to = (bi + 1) * MAKE_BATCH < s->nres ? (bi + 1) * MAKE_BATCH : s->nres;
	for (size_t ri = bi * MAKE_BATCH; ri < to; ri++) {
		size_t k = m->order[ri], at = m->from[ri];
		m->id[k] = (uint32_t)ri;
		for (size_t p = 0; p < m->nparts; p++) {
			m->next[p][k] = (uint32_t)at;
			at += m->count[p][k];
		}
		struct hash_slot *slot = &s->res_by_url.slots[k];
		slot->val = ri;
		struct resource *r = &s->res[ri];
		memset(r, 0, sizeof *r);
		/* its first citation's string, as the table's key is: the
		 * documents holding it are freed with the model (model_free) */
		r->canonical = slot->key;
		r->kind = -1;
		r->refs = s->refs + m->from[ri];
		r->nrefs = m->from[ri + 1] - m->from[ri];
	}
}

/* The slots in order of their first citations: dealt by document, then
 * each document's few sorted by citation. */
static void number(struct merge *m)
{
	struct site *s = m->s;
	size_t cap = s->res_by_url.cap, n = 0;
	size_t *at = xcalloc(s->ndocs + 2, sizeof *at);
	for (size_t k = 0; k < cap; k++)
		if (s->res_by_url.slots[k].key) {
			at[(m->first[k] >> 32) + 2]++;
			n++;
		}
	for (size_t d = 0; d < s->ndocs; d++)
		at[d + 2] += at[d + 1];
	m->order = xmalloc((n + 1) * sizeof *m->order);
	for (size_t k = 0; k < cap; k++)
		if (s->res_by_url.slots[k].key)
			m->order[at[(m->first[k] >> 32) + 1]++] = k;
	/* at[d + 1] is now where document d's slots end, at[d] where they begin */
	for (size_t d = 0; d < s->ndocs; d++)
		for (size_t i = at[d] + 1; i < at[d + 1]; i++) {
			size_t k = m->order[i], j = i;
			for (; j > at[d] && m->first[m->order[j - 1]] > m->first[k]; j--)
				m->order[j] = m->order[j - 1];
			m->order[j] = k;
		}
	free(at);
	/* each resource's room in site.refs: where it begins (ordered) */
	m->from = xmalloc((n + 1) * sizeof *m->from);
	size_t total = 0;
	for (size_t ri = 0; ri < n; ri++) {
		m->from[ri] = total;
		for (size_t p = 0; p < m->nparts; p++)
			total += m->count[p][m->order[ri]];
	}
	m->from[n] = total;
	s->refs = xmalloc((total + 1) * sizeof *s->refs);
	s->nres = n;
	s->res = xgrow(s->res, &s->capres, n, sizeof *s->res);
	s->res_by_url.n = n;
	m->id = xmalloc((cap + 1) * sizeof *m->id);
	for (size_t p = 0; p < m->nparts; p++)
		m->next[p] = xmalloc((cap + 1) * sizeof *m->next[p]);
	pool_run(s->jobs, (n + MAKE_BATCH - 1) / MAKE_BATCH, make_batch, m);
}

/* The place step over part p's documents. */
static void place_part(void *ctx, size_t p)
{
	struct merge *m = ctx;
	struct site *s = m->s;
	uint32_t *next = m->next[p];
	for (size_t d = part_start(m, p), to = part_start(m, p + 1); d < to; d++) {
		struct doc *doc = &s->docs[d];
		for (size_t i = 0; i < doc->ncites; i++) {
			struct citation *c = &doc->cites[i];
			if (!c->canonical)
				continue;
			size_t slot = (size_t)c->resource;
			c->resource = m->id[slot];
			s->refs[next[slot]++] = (struct cite_ref){d, i, {c->key[0], c->key[1]}};
		}
	}
}

void model_merge(struct site *s, const struct aliases *al, size_t last)
{
	size_t ncites = 0;
	for (size_t d = 0; d < s->ndocs; d++)
		ncites += s->docs[d].ncites;
	/* room for as many resources as the last build had (else a guess: a
	 * resource is cited four times or so); more, and the table is made
	 * again with room for every citation */
	size_t guess = last ? last : ncites / 4;
	struct merge m = {.s = s, .al = al && al->n ? al : NULL};
	m.nbatches = (s->ndocs + MERGE_BATCH - 1) / MERGE_BATCH;
	m.nparts = s->jobs < 1 ? 1 : (size_t)s->jobs < MAX_PARTS ? (size_t)s->jobs : MAX_PARTS;
	if (m.nparts > m.nbatches)
		m.nparts = m.nbatches ? m.nbatches : 1;
	if (!find(&m, guess)) {
		m.al = NULL; /* aliased already: the URLs are what they became */
		find(&m, ncites);
	}
	number(&m);
	pool_run(s->jobs, m.nparts, place_part, &m);
	merge_free(&m);
}
