/* page_inputs: digests of what pages are made from (see page_inputs.h). */
#include "page_inputs.h"
#include "digest.h"
#include "pool.h"
#include "view.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define NONE DIGEST_NONE

/* Each field with its length or a marker first (digest_str): no two records
 * feed the same words. */
static void put_word(struct digest *d, unsigned long long w) { digest_word(d, w); }

static void put_str(struct digest *d, const char *s) { digest_str(d, s); }

static void put_pair(struct digest *d, const unsigned long long p[2])
{
	digest_word(d, p[0]);
	digest_word(d, p[1]);
}

/* A document as a link to it shows it: its title and its place (digested
 * once per build, page_inputs_prepare). */
static void put_doc_link(struct digest *d, const struct page_inputs *pi, long di)
{
	if (di < 0) {
		digest_word(d, NONE);
		return;
	}
	put_pair(d, pi->doc_link[di]);
}

/* A link to where a document cites a resource: the document, the section. */
static void put_cite_link(struct digest *d, const struct page_inputs *pi, const struct site *s,
			  const struct cite_ref *ref)
{
	int h = s->docs[ref->doc].cites[ref->cite].heading;
	if (h >= 0)
		put_pair(d, pi->heads[pi->head_at[ref->doc] + (size_t)h]);
	else {
		put_pair(d, pi->doc_link[ref->doc]);
		put_word(d, NONE);
	}
}

/* What a badge on a citing document's page shows, and the topics its
 * document's primary topic is chosen from. */
static void put_badge(struct digest *d, const struct resource *r)
{
	put_str(d, r->slug);
	put_str(d, r->index_page);
	put_word(d, (unsigned long long)r->has_page << 32 | r->ndocs);
	put_word(d, r->ntopics);
	for (size_t i = 0; i < r->ntopics; i++)
		put_word(d, (unsigned long long)(long long)r->topics[i]);
}

/* A resource's own fields (not its index: one new resource early in the
 * documents moves every later index, and no page shows one), its badge's by
 * their digest. */
static void put_record(struct digest *d, const struct resource *r,
		       const unsigned long long badge[2])
{
	put_pair(d, badge);
	put_str(d, r->canonical);
	put_str(d, r->host);
	put_str(d, r->title);
	put_str(d, r->desc);
	put_word(d, (unsigned long long)(long long)r->kind << 1 | r->pinned);
	put_str(d, r->link_status);
	put_str(d, r->link_result);
	put_word(d, r->nrefs);
}

struct prepare_ctx {
	struct page_inputs *pi;
	const struct site *s;
};

static void digest_resource(struct prepare_ctx *x, size_t ri)
{
	const struct site *s = x->s;
	const struct resource *r = &s->res[ri];
	/* its strings lie all over memory: ask for them all at once */
	const char *const strs[] = {r->slug, r->index_page, r->canonical, r->host,
				    r->title, r->desc, r->link_status, r->link_result};
	for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
		if (strs[i])
			__builtin_prefetch(strs[i]);
	struct digest d;
	const unsigned long long *record = x->pi->res[ri].record;
	digest_start(&d);
	put_badge(&d, r);
	digest_end(&d, x->pi->res[ri].badge);
	digest_start(&d);
	put_record(&d, r, x->pi->res[ri].badge);
	digest_end(&d, x->pi->res[ri].record);
	/* its page: the record and every citation (cite_key.h: its fields and
	 * sections, which give its spellings, the URLs as written) with the
	 * document it lies in, by name, place and title */
	digest_start(&d);
	put_pair(&d, record);
	for (size_t i = 0; i < r->nrefs; i++) {
		const struct cite_ref *ref = &r->refs[i];
		put_pair(&d, x->pi->doc_ref[ref->doc]);
		put_pair(&d, ref->key);
	}
	digest_end(&d, x->pi->res[ri].page);
	/* its entry in a list: the record and the first citing documents */
	digest_start(&d);
	put_pair(&d, record);
	size_t last = (size_t)-1, named = 0;
	for (size_t i = 0; i < r->nrefs && named < VIEW_CITED_IN; i++)
		if (r->refs[i].doc != last) {
			last = r->refs[i].doc;
			named++;
			put_cite_link(&d, x->pi, s, &r->refs[i]);
		}
	digest_end(&d, x->pi->res[ri].item);
}

/* Resources digested a batch at a time. An entry names its first citing
 * documents' sections: each a citation, then a section's digest, all over
 * memory. The batch's are asked for first, stage by stage (the documents,
 * their citations, the sections' digests), so that the misses overlap. */
#define DIGEST_BATCH 32

static void for_named_refs(const struct resource *r,
			   void (*fn)(const struct prepare_ctx *, const struct cite_ref *),
			   const struct prepare_ctx *x)
{
	size_t last = (size_t)-1, named = 0;
	for (size_t i = 0; i < r->nrefs && named < VIEW_CITED_IN; i++)
		if (r->refs[i].doc != last) {
			last = r->refs[i].doc;
			named++;
			fn(x, &r->refs[i]);
		}
}

static void ask_doc(const struct prepare_ctx *x, const struct cite_ref *ref)
{
	__builtin_prefetch(&x->s->docs[ref->doc].cites);
}

static void ask_cite(const struct prepare_ctx *x, const struct cite_ref *ref)
{
	__builtin_prefetch(&x->s->docs[ref->doc].cites[ref->cite].heading);
}

static void ask_head(const struct prepare_ctx *x, const struct cite_ref *ref)
{
	int h = x->s->docs[ref->doc].cites[ref->cite].heading;
	if (h >= 0)
		__builtin_prefetch(&x->pi->heads[x->pi->head_at[ref->doc] + (size_t)h]);
}

static void digest_batch(void *ctx, size_t bi)
{
	struct prepare_ctx *x = ctx;
	const struct site *s = x->s;
	size_t from = bi * DIGEST_BATCH, to = from + DIGEST_BATCH;
	if (to > s->nres)
		to = s->nres;
	void (*ask[])(const struct prepare_ctx *, const struct cite_ref *) = {ask_doc, ask_cite,
									      ask_head};
	for (size_t k = 0; k < sizeof ask / sizeof *ask; k++)
		for (size_t ri = from; ri < to; ri++)
			for_named_refs(&s->res[ri], ask[k], x);
	for (size_t ri = from; ri < to; ri++)
		digest_resource(x, ri);
}

/* A document's three digests: itself, as a link, each section as a link. */
static void digest_doc(void *ctx, size_t di)
{
	struct prepare_ctx *x = ctx;
	const struct doc *doc = &x->s->docs[di];
	struct digest d;
	digest_start(&d);
	put_word(&d, doc->hash);
	put_str(&d, doc->relpath);
	put_str(&d, doc->url);
	digest_end(&d, x->pi->doc_self[di]);
	digest_start(&d);
	put_str(&d, doc->title);
	put_str(&d, doc->url);
	digest_end(&d, x->pi->doc_link[di]);
	digest_start(&d);
	put_pair(&d, x->pi->doc_link[di]);
	put_str(&d, doc->relpath);
	digest_end(&d, x->pi->doc_ref[di]);
	for (size_t h = 0; h < doc->nheadings; h++) {
		digest_start(&d);
		put_pair(&d, x->pi->doc_link[di]);
		put_str(&d, doc->headings[h].id);
		put_str(&d, doc->headings[h].text);
		digest_end(&d, x->pi->heads[x->pi->head_at[di] + h]);
	}
}

void page_inputs_prepare(struct page_inputs *pi, const struct site *s, const char frame[33],
			 const unsigned long long nav[2], int jobs)
{
	struct digest d;
	digest_start(&d);
	put_str(&d, frame);
	put_pair(&d, nav);
	digest_end(&d, pi->frame);
	pi->doc_self = xcalloc(s->ndocs + 1, sizeof *pi->doc_self);
	pi->doc_link = xcalloc(s->ndocs + 1, sizeof *pi->doc_link);
	pi->doc_ref = xcalloc(s->ndocs + 1, sizeof *pi->doc_ref);
	pi->head_at = xcalloc(s->ndocs + 1, sizeof *pi->head_at);
	size_t nheads = 0;
	for (size_t i = 0; i < s->ndocs; i++) {
		pi->head_at[i] = nheads;
		nheads += s->docs[i].nheadings;
	}
	pi->heads = xcalloc(nheads + 1, sizeof *pi->heads);
	struct prepare_ctx x = {pi, s};
	pool_run(jobs, s->ndocs, digest_doc, &x);
	pi->res = xcalloc(s->nres + 1, sizeof *pi->res);
	pool_run(jobs, (s->nres + DIGEST_BATCH - 1) / DIGEST_BATCH, digest_batch, &x);
	pi->listed = xcalloc(s->ntopics + 2, sizeof *pi->listed);
	for (size_t p = 0; p < s->ntopics + 1; p++) {
		digest_start(&d);
		for (size_t j = s->nav_first[p]; j < s->nav_first[p + 1]; j++)
			put_word(&d, view_topic_listed(&s->topics[s->nav_kids[j]]));
		digest_end(&d, pi->listed[p]);
	}
}

void page_inputs_free(struct page_inputs *pi)
{
	free(pi->res);
	free(pi->doc_self);
	free(pi->doc_link);
	free(pi->doc_ref);
	free(pi->head_at);
	free(pi->heads);
	free(pi->listed);
	memset(pi, 0, sizeof *pi);
}

static void start(struct digest *d, const struct page_inputs *pi, unsigned long long kind)
{
	digest_start(d);
	put_pair(d, pi->frame);
	put_word(d, kind);
}

void page_inputs_doc(const struct page_inputs *pi, const struct site *s, size_t di,
		     unsigned long long out[2])
{
	const struct doc *doc = &s->docs[di];
	struct digest d;
	start(&d, pi, 'D');
	/* itself: its bytes, its name and its place */
	put_word(&d, doc->hash);
	put_str(&d, doc->relpath);
	put_str(&d, doc->url);
	put_str(&d, doc->meta.updated);
	/* the resources it cites: badges and topics (asked for first: they lie
	 * all over memory, and the loads then overlap) */
	for (size_t i = 0; i < doc->ncites; i++)
		if (doc->cites[i].resource >= 0)
			__builtin_prefetch(&pi->res[doc->cites[i].resource].badge);
	put_word(&d, doc->ncites);
	for (size_t i = 0; i < doc->ncites; i++) {
		long r = doc->cites[i].resource;
		if (r >= 0)
			put_pair(&d, pi->res[r].badge);
		else
			put_word(&d, NONE);
	}
	/* its links to other documents: where they lead */
	put_word(&d, doc->nilinks);
	for (size_t i = 0; i < doc->nilinks; i++) {
		const struct ilink *l = &doc->ilinks[i];
		put_word(&d, (unsigned long long)l->missing);
		put_doc_link(&d, pi, l->target);
		put_str(&d, l->anchor);
	}
	size_t rel[5];
	size_t nrel = xref_related(s, di, rel, 5);
	put_word(&d, nrel);
	for (size_t i = 0; i < nrel; i++)
		put_doc_link(&d, pi, (long)rel[i]);
	int primary = view_doc_topic(s, di);
	long prev, next;
	view_doc_neighbours(s, di, &prev, &next);
	put_word(&d, (unsigned long long)(long long)primary);
	put_doc_link(&d, pi, prev);
	put_doc_link(&d, pi, next);
	digest_end(&d, out);
}

/* The frame, a kind, and one digest prepared for it. */
static void of_one(const struct page_inputs *pi, unsigned long long kind,
		   const unsigned long long one[2], unsigned long long out[2])
{
	struct digest d;
	start(&d, pi, kind);
	put_pair(&d, one);
	digest_end(&d, out);
}

void page_inputs_item(const struct page_inputs *pi, size_t ri, bool with_cites, bool anchored,
		      unsigned long long out[2])
{
	struct digest d;
	digest_start(&d);
	put_pair(&d, pi->frame);
	put_pair(&d, pi->res[ri].item);
	put_word(&d, (unsigned long long)with_cites | (unsigned long long)anchored << 1);
	digest_end(&d, out);
}

void page_inputs_resource(const struct page_inputs *pi, const struct site *s, size_t ri,
			  unsigned long long out[2])
{
	(void)s;
	of_one(pi, 'R', pi->res[ri].page, out);
}

void page_inputs_search_doc(const struct page_inputs *pi, const struct site *s, size_t di,
			    unsigned long long out[2])
{
	(void)s;
	of_one(pi, 'S', pi->doc_self[di], out);
}

void page_inputs_topic(const struct page_inputs *pi, const struct site *s, size_t ti, size_t page,
		       unsigned long long out[2])
{
	const struct topic *t = &s->topics[ti];
	struct digest d;
	start(&d, pi, 'T');
	put_word(&d, ti);
	put_word(&d, page);
	put_word(&d, t->nresources);
	put_word(&d, t->npages);
	put_word(&d, t->nquick);
	for (size_t i = 0; i < t->nquick && page == 1; i++)
		put_pair(&d, pi->res[t->quick[i]].item);
	size_t per = (size_t)s->cfg.per_page;
	size_t from = (page - 1) * per, to = from + per;
	if (to > t->nresources)
		to = t->nresources;
	for (size_t i = from; i < to; i++)
		put_pair(&d, pi->res[t->listing[i]].item);
	put_word(&d, t->ndocs);
	for (size_t i = 0; i < t->ndocs && i < 50; i++)
		put_doc_link(&d, pi, (long)t->docs[i]);
	/* what it shows of other topics: its subtopics' counts; which of its
	 * parent and siblings are listed (its related topics; the sidebar is
	 * in the frame). Not every topic's count: a new link would make every
	 * topic page anew */
	put_word(&d, t->nchildren);
	for (size_t i = 0; i < t->nchildren; i++)
		put_word(&d, s->topics[t->children[i]].nresources);
	put_word(&d, t->parent >= 0 && view_topic_listed(&s->topics[t->parent]));
	put_pair(&d, pi->listed[t->parent + 1]);
	digest_end(&d, out);
}

void page_inputs_index(const struct page_inputs *pi, const struct site *s, size_t chunk,
		       unsigned long long out[2])
{
	struct digest d;
	start(&d, pi, 'I');
	put_str(&d, s->chunks[chunk].dir);
	/* the letters, each by its first page's place; this page's letter and
	 * part, and its neighbours' places (no count: see view_resource_index) */
	for (size_t c = 0; c < s->nchunks; c++)
		if (s->chunks[c].part == 1) {
			put_word(&d, (unsigned long long)(unsigned char)s->chunks[c].letter);
			put_str(&d, s->chunks[c].dir);
		}
	const struct index_chunk *ch = &s->chunks[chunk];
	put_word(&d, (unsigned long long)(unsigned char)ch->letter << 32 | ch->part);
	put_str(&d, chunk > 0 ? s->chunks[chunk - 1].dir : NULL);
	put_str(&d, chunk + 1 < s->nchunks ? s->chunks[chunk + 1].dir : NULL);
	/* its entries */
	put_word(&d, ch->n);
	for (size_t k = 0; k < ch->n; k++)
		put_pair(&d, pi->res[s->index_order[ch->start + k]].item);
	digest_end(&d, out);
}

void page_inputs_quick(const struct page_inputs *pi, const struct site *s, size_t page,
		       unsigned long long out[2])
{
	struct digest d;
	start(&d, pi, 'Q');
	/* its place among the pages (its pager), then its boxes: a topic's by
	 * its name and entries, a document's section by its heading as a link
	 * and the entries it shows */
	put_word(&d, page);
	put_word(&d, s->nquick_pages);
	put_word(&d, page == s->nquick_pages ? s->quick_sections_left : 0);
	size_t from, to;
	view_quick_page_boxes(s, page, &from, &to);
	for (size_t k = from; k < to; k++) {
		const struct quick_box *b = &s->quick_boxes[k];
		if (b->topic >= 0) {
			const struct topic *t = &s->topics[b->topic];
			put_str(&d, t->id);
			put_str(&d, t->title);
			put_word(&d, t->nquick);
			for (size_t i = 0; i < t->nquick; i++)
				put_pair(&d, pi->res[t->quick[i]].item);
			continue;
		}
		const struct doc *doc = &s->docs[b->doc];
		put_pair(&d, pi->heads[pi->head_at[b->doc] + b->heading]);
		put_word(&d, b->shown);
		put_word(&d, b->more);
		size_t n = 0;
		for (size_t c = b->first; c < b->end && n < b->shown; c++)
			if (doc->cites[c].resource >= 0) {
				put_pair(&d, pi->res[doc->cites[c].resource].item);
				n++;
			}
	}
	digest_end(&d, out);
}
