/* xref: the cross-references of the model: document URLs, relative links
 * between documents resolved (or reported), and related documents
 * (see model.h). */
#include "model.h"
#include "buf.h"
#include "digest.h"
#include "path.h"
#include "pool.h"
#include "related_memo.h"
#include "unique_name.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The site's own folders: no document's URL starts with one of them. */
static const char *reserved[] = {"r",      "topic", "topics", "resources", "quick-reference",
				 "documents", "search", "404",   "assets",    "static",
				 "feed",      NULL};

static bool reserved_root(const char *slug, size_t n)
{
	for (const char **r = reserved; *r; r++)
		if (strlen(*r) == n && !strncmp(slug, *r, n))
			return true;
	return false;
}

static char *doc_slug(struct doc *d)
{
	if (d->meta.slug && *d->meta.slug) {
		char *s = slug_url(d->meta.slug, 80);
		if (strcmp(s, d->meta.slug))
			diag_addc(&d->diags, SEV_WARNING, "slug",
				  d->meta.slug_path ? d->meta.slug_path : d->shown, d->meta.slug_line,
				  d->meta.slug_col,
				  "slug \"%s\" is not a plain URL slug: using \"%s\"", d->meta.slug,
				  s);
		return s;
	}
	/* folders become path components, each slugged */
	struct buf b = BUF_INIT;
	char *rel = xstrdup(d->relpath);
	char *dot = strrchr(rel, '.');
	if (dot && !strchr(dot, '/'))
		*dot = '\0';
	char *save = NULL;
	for (char *part = strtok_r(rel, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		char *s = slug_url(part, 80);
		if (b.n)
			buf_putc(&b, '/');
		buf_puts(&b, s);
		free(s);
	}
	free(rel);
	return buf_detach(&b);
}

static void assign_urls(struct site *s)
{
	struct unique_names taken;
	unique_names_init(&taken, 2);
	for (const char **r = reserved; *r; r++)
		unique_names_reserve(&taken, *r);
	for (size_t i = 0; i < s->ndocs; i++) {
		struct doc *d = &s->docs[i];
		char *base = doc_slug(d);
		/* a name taken at the top, or a folder of the site's own (a
		 * document under content/topic/ or content/documents/ had its
		 * page replaced by a topic's or a list's): "<first part>-doc" */
		size_t first = strcspn(base, "/");
		if (reserved_root(base, first) || (!base[first] && unique_names_taken(&taken, base))) {
			char *b2 = xasprintf("%.*s-doc%s", (int)first, base, base + first);
			free(base);
			base = b2;
		}
		d->slug = unique_name_take(&taken, base);
		d->url = xasprintf("%s/", d->slug);
	}
	unique_names_free(&taken);
}

char *xref_resolve_path(const char *from, const char *ref)
{
	char *dir = path_dirname(from);
	size_t rl = strcspn(ref, "?#");
	char *joined = *dir ? xasprintf("%s/%.*s", dir, (int)rl, ref) : xstrndup(ref, rl);
	free(dir);
	char **parts = xcalloc(strlen(joined) + 1, sizeof *parts);
	size_t n = 0;
	char *save = NULL;
	bool bad = false;
	for (char *p = strtok_r(joined, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		if (!strcmp(p, "."))
			continue;
		if (!strcmp(p, "..")) {
			if (!n) {
				bad = true;
				break;
			}
			n--;
			continue;
		}
		parts[n++] = p;
	}
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < n && !bad; i++) {
		if (i)
			buf_putc(&b, '/');
		buf_puts(&b, parts[i]);
	}
	free(parts);
	free(joined);
	if (bad) {
		buf_free(&b);
		return NULL;
	}
	return buf_detach(&b);
}

bool xref_is_static(const struct site *s, const char *rel)
{
	return hash_get(&s->static_by_path, rel, NULL);
}

/* Anchors of each document (heading ids and ids that readers put in custom
 * nodes), as a table made the first time a link names one of them: a
 * document of 20,000 headings linked to 20,000 times in itself is not
 * searched through for each link. */
struct anchor_tables {
	struct hash *of;   /* by document */
	bool *made;
};

static bool has_anchor(struct anchor_tables *a, const struct doc *d, const char *id)
{
	struct hash *t = &a->of[d->index];
	if (!a->made[d->index]) {
		hash_reserve(t, d->nanchors);
		for (size_t i = 0; i < d->nanchors; i++)
			hash_put(t, d->anchors[i], i); /* the document's strings: they last */
		a->made[d->index] = true;
	}
	return hash_get(t, id, NULL);
}

static void resolve_link(struct site *s, struct doc *d, struct ilink *l, struct anchor_tables *a)
{
	char *url = xstrdup(l->url);
	char *hash = strchr(url, '#');
	if (hash) {
		*hash = '\0';
		l->anchor = xstrdup(hash + 1);
	}
	char *q = strchr(url, '?');
	if (q)
		*q = '\0';
	if (!*url) {
		/* "#anchor" in the same document */
		l->target = (long)d->index;
	} else {
		char *rel = xref_resolve_path(d->relpath, url);
		long t = rel ? model_doc_by_path(s, rel) : -1;
		if (t >= 0)
			l->target = t;
		else if (!rel || !xref_is_static(s, rel)) {
			l->missing = true;
			diag_addc(&d->diags, SEV_WARNING, "missing-file", d->shown, l->line, l->col,
				  "link to a file that does not exist: %s", l->url);
		}
		l->resolved = rel;
	}
	if (l->target >= 0 && l->anchor && *l->anchor &&
	    !has_anchor(a, &s->docs[l->target], l->anchor))
		diag_addc(&d->diags, SEV_WARNING, "broken-anchor", d->shown, l->line, l->col,
			  "link to #%s, which %s has no heading or target for", l->anchor,
			  (size_t)l->target == d->index ? "this document" : s->docs[l->target].shown);
	free(url);
}

void xref_resolve(struct site *s)
{
	assign_urls(s);
	for (size_t i = 0; i < s->ndocs; i++)
		hash_put(&s->doc_by_path, s->docs[i].relpath, i);
	for (size_t i = 0; i < s->nstatics; i++)
		hash_put(&s->static_by_path, s->statics[i].relpath, i);
	struct anchor_tables a = {xcalloc(s->ndocs + 1, sizeof *a.of),
				  xcalloc(s->ndocs + 1, sizeof *a.made)};
	for (size_t i = 0; i < s->ndocs; i++)
		for (size_t k = 0; k < s->docs[i].nilinks; k++)
			resolve_link(s, &s->docs[i], &s->docs[i].ilinks[k], &a);
	for (size_t i = 0; i < s->ndocs; i++)
		hash_free(&a.of[i]);
	free(a.of);
	free(a.made);
}

/* What scoring one document needs, kept from one document to the next:
 * a score per document (back to zero after each) and a mark per resource
 * (the document it was last counted for, plus one). */
struct related_scratch {
	double *score;
	size_t *touched, captouched;
	size_t *seen_by;
};

static void scratch_init(struct related_scratch *x, const struct site *s)
{
	x->score = xcalloc(s->ndocs + 1, sizeof *x->score);
	x->touched = NULL;
	x->captouched = 0;
	x->seen_by = xcalloc(s->nres + 1, sizeof *x->seen_by);
}

static void scratch_free(struct related_scratch *x)
{
	free(x->score);
	free(x->touched);
	free(x->seen_by);
}

static size_t related_of(const struct site *s, size_t d, size_t *out, size_t max,
			 struct related_scratch *x);

size_t xref_related(const struct site *s, size_t d, size_t *out, size_t max)
{
	if (!s->related || max > XREF_RELATED_SHOWN) {
		struct related_scratch x;
		scratch_init(&x, s);
		size_t n = related_of(s, d, out, max, &x);
		scratch_free(&x);
		return n;
	}
	size_t n = s->related[d].n < max ? s->related[d].n : max;
	memcpy(out, s->related[d].v, n * sizeof *out);
	return n;
}

/* Every document's related documents: each kept from the last build's when
 * its key is the same (related_memo.h), else scored. */
struct related_job {
	struct site *s;
	const related_key *citers;    /* per resource; NULL: no keys, every one scored */
	related_key *keys;            /* per document, made here */
	const struct related_memo *memo; /* the last build's, or NULL */
	bool differ;                  /* (atomic) SSG_CHECK_INPUTS: one kept differs */
};

/* The last build's related documents of document d, if made of the same. */
static const struct related_docs *kept_for(const struct related_job *j, size_t d)
{
	const struct related_memo *m = j->memo;
	if (!m || d >= m->ndocs || digest_cmp(m->doc_keys[d], j->keys[d]))
		return NULL;
	for (size_t k = 0; k < m->rel[d].n; k++)
		if (m->rel[d].v[k] >= j->s->ndocs)
			return NULL;
	return &m->rel[d];
}

/* Documents in runs of RELATED_RUN, each run with one scratch. */
#define RELATED_RUN 256
static void related_task(void *ctx, size_t run)
{
	struct related_job *j = ctx;
	struct site *s = j->s;
	struct related_scratch x;
	scratch_init(&x, s);
	size_t *seen = j->citers ? xcalloc(s->nres + 1, sizeof *seen) : NULL;
	size_t end = (run + 1) * RELATED_RUN < s->ndocs ? (run + 1) * RELATED_RUN : s->ndocs;
	for (size_t d = run * RELATED_RUN; d < end; d++) {
		const struct related_docs *kept = NULL;
		if (j->citers) {
			related_memo_doc_key(s, j->citers, d, seen, j->keys[d]);
			kept = kept_for(j, d);
		}
		if (kept && !s->check_inputs) {
			s->related[d] = *kept;
			__atomic_fetch_add(&s->related_kept, 1, __ATOMIC_RELAXED);
			continue;
		}
		s->related[d].n = related_of(s, d, s->related[d].v, XREF_RELATED_SHOWN, &x);
		if (kept && memcmp(kept, &s->related[d], sizeof *kept)) /* checking */
			__atomic_store_n(&j->differ, true, __ATOMIC_RELAXED);
	}
	free(seen);
	scratch_free(&x);
}

void xref_related_all(struct site *s, int jobs)
{
	free(s->related);
	s->related = xcalloc(s->ndocs + 1, sizeof *s->related);
	struct related_job j = {s, NULL, NULL, NULL, false};
	struct related_memo memo;
	unsigned long long key[2];
	bool loaded = false, same = false;
	if (*s->cache_env) {
		related_memo_key(s, key);
		loaded = s->cache_load && related_memo_load(s->source_dir, s->cache_env, &memo);
		/* made of the same citations: every document's as they were */
		same = loaded && !digest_cmp(memo.key, key) && memo.ndocs == s->ndocs;
		if (same && !s->check_inputs) {
			memcpy(s->related, memo.rel, s->ndocs * sizeof *s->related);
			s->related_kept = s->ndocs;
			related_memo_free(&memo);
			return;
		}
		j.citers = related_memo_citer_keys(s, jobs);
		j.keys = xcalloc(s->ndocs + 1, sizeof *j.keys);
		j.memo = loaded ? &memo : NULL;
	}
	/* related_of never reads s->related: filling it in parallel is safe */
	pool_run(jobs, (s->ndocs + RELATED_RUN - 1) / RELATED_RUN, related_task, &j);
	s->related_differ = j.differ;
	if (*s->cache_env && !same)
		related_memo_save(s->source_dir, s->cache_env, key, s->ndocs,
				  (const related_key *)j.keys, s->related);
	if (loaded)
		related_memo_free(&memo);
	free((void *)j.citers);
	free(j.keys);
}

static size_t related_of(const struct site *s, size_t d, size_t *out, size_t max,
			 struct related_scratch *x)
{
	/* score = shared resources, each weighted by how rare it is; resources
	 * that many documents cite relate nothing in particular (and would make
	 * this quadratic). Only the documents touched are visited. */
	size_t cap = XREF_RELATED_MAX_CITERS;
	const struct doc *doc = &s->docs[d];
	double *score = x->score;
	size_t ntouched = 0;
	for (size_t i = 0; i < doc->ncites; i++) {
		long ri = doc->cites[i].resource;
		if (ri < 0)
			continue;
		const struct resource *r = &s->res[ri];
		if (r->ndocs > cap || r->ndocs < 2 || x->seen_by[ri] == d + 1)
			continue;
		x->seen_by[ri] = d + 1;
		size_t last = (size_t)-1;
		for (size_t k = 0; k < r->nrefs; k++) {
			size_t o = r->refs[k].doc;
			if (o == d || o == last)
				continue;
			last = o;
			if (score[o] == 0) {
				x->touched = xgrow(x->touched, &x->captouched, ntouched + 1,
						   sizeof *x->touched);
				x->touched[ntouched++] = o;
			}
			score[o] += 1.0 / (double)r->ndocs;
		}
	}
	const size_t *touched = x->touched;
	size_t n = 0;
	for (size_t k = 0; k < max; k++) {
		size_t best = (size_t)-1;
		for (size_t t = 0; t < ntouched; t++) {
			size_t o = touched[t];
			/* ties go to the earlier document: deterministic */
			if (score[o] > 0 && (best == (size_t)-1 || score[o] > score[best] ||
					     (score[o] == score[best] && o < best)))
				best = o;
		}
		if (best == (size_t)-1)
			break;
		out[n++] = best;
		score[best] = 0;
	}
	for (size_t t = 0; t < ntouched; t++)
		score[touched[t]] = 0;
	return n;
}

/* ---- list layout ---------------------------------------------------------- */

char xref_letter(const char *title)
{
	for (const char *p = title; *p; p++)
		if (isalnum((unsigned char)*p))
			return isdigit((unsigned char)*p) ? '#' : (char)toupper((unsigned char)*p);
	return '#';
}

static void add_chunk(struct site *s, size_t *cap, char letter, size_t start, size_t n,
		      size_t part, bool single)
{
	s->chunks = xgrow(s->chunks, cap, s->nchunks + 1, sizeof *s->chunks);
	struct index_chunk *c = &s->chunks[s->nchunks++];
	c->letter = letter;
	c->start = start;
	c->n = n;
	c->part = part;
	char id = letter == '#' ? '0' : (char)tolower((unsigned char)letter);
	if (single)
		c->dir = xstrdup("resources/");
	else if (part == 1)
		c->dir = xasprintf("resources/%c/", id);
	else
		c->dir = xasprintf("resources/%c/%zu/", id, part);
}

/* A topic's listing, by kind then title: topics in parallel. */
/* A topic's listing: its resources by kind (in site.yml's order, those of no
 * kind last), each kind's by title. They are in title order already
 * (fill_topics): they are only grouped by kind, in one pass, not sorted. */
static void list_topic(void *ctx, size_t t)
{
	struct site *s = ctx;
	size_t per = (size_t)s->cfg.per_page;
	struct topic *tp = &s->topics[t];
	size_t nk = s->cfg.nkinds + 1; /* the last: no kind */
	size_t *at = xcalloc(nk + 1, sizeof *at);
	for (size_t i = 0; i < tp->nresources; i++) {
		int k = s->res[tp->resources[i]].kind;
		at[(k < 0 ? nk - 1 : (size_t)k) + 1]++;
	}
	for (size_t k = 1; k <= nk; k++)
		at[k] += at[k - 1];
	tp->listing = xcalloc(tp->nresources + 1, sizeof *tp->listing);
	for (size_t i = 0; i < tp->nresources; i++) {
		int k = s->res[tp->resources[i]].kind;
		tp->listing[at[k < 0 ? nk - 1 : (size_t)k]++] = tp->resources[i];
	}
	free(at);
	tp->npages = tp->nresources ? (tp->nresources + per - 1) / per : 1;
}

/* The A-Z index's order: the letters A to Z, then '#' (titles that start with
 * a digit or have no letter), each letter's resources in title order. One
 * pass over the title order, a bucket per letter: no sort. Returns each
 * resource's letter, for the caller to free. */
static unsigned char *order_index(struct site *s)
{
	unsigned char *letter = xmalloc(s->nres + 1);
	size_t count[256] = {0}, next[256];
	for (size_t i = 0; i < s->nres; i++)
		count[letter[i] = (unsigned char)xref_letter(s->res[i].title)]++;
	size_t at = 0;
	for (int c = 0; c < 256; c++)
		if (c != '#') {
			next[c] = at;
			at += count[c];
		}
	next['#'] = at;
	s->index_order = xcalloc(s->nres + 1, sizeof *s->index_order);
	for (size_t k = 0; k < s->nres; k++) {
		size_t r = s->title_order[k];
		s->index_order[next[letter[r]]++] = r;
	}
	return letter;
}

void xref_paginate(struct site *s)
{
	size_t per = (size_t)s->cfg.per_page;
	pool_run(s->jobs, s->ntopics, list_topic, s);
	unsigned char *letter = order_index(s);
	/* a small index is one page; a large one a page per letter and part */
	bool single = s->nres <= per;
	size_t cap = 0;
	for (size_t i = 0; i < s->nres;) {
		unsigned char l = letter[s->index_order[i]];
		size_t j = i;
		while (j < s->nres && letter[s->index_order[j]] == l)
			j++;
		for (size_t k = i, part = 1; k < j; k += per, part++)
			add_chunk(s, &cap, (char)l, k, j - k < per ? j - k : per, part, single);
		i = j;
	}
	free(letter);
	for (size_t c = 0; c < s->nchunks; c++)
		for (size_t k = 0; k < s->chunks[c].n; k++)
			s->res[s->index_order[s->chunks[c].start + k]].index_page =
				s->chunks[c].dir;
}
