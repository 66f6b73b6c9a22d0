/* search_shards: the search index's parts (see search_shards.h): the
 * records cut from search-index.json as it is written, and the words with
 * their postings, gathered from the model. Level 4; calls model, words,
 * arena, buf. */
#include "search_shards.h"
#include "arena.h"
#include "digest.h"
#include "words.h"
#include "words_memo.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- records ---- */

void search_records_begin(struct search_records *r, const struct shard_out *out)
{
	*r = (struct search_records){.out = out, .part = BUF_INIT, .line = BUF_INIT};
}

static void records_flush(struct search_records *r)
{
	if (!r->in_part)
		return;
	buf_puts(&r->part, "\n]);\n");
	char name[32];
	snprintf(name, sizeof name, "search/r%zu.js", r->parts);
	r->out->write(r->out->ctx, name, r->part.p, r->part.n);
	buf_reset(&r->part);
	r->in_part = 0;
	r->parts++;
}

/* One line of the index: "[" before the first entry, "," after each but
 * the last, "]" (the list's end) after the last. */
static void records_line(struct search_records *r, const char *p, size_t n)
{
	if (!r->begun && n && p[0] == '[') {
		p++;
		n--;
	}
	r->begun = true;
	if (n && (p[n - 1] == ',' || p[n - 1] == ']'))
		n--;
	if (!n)
		return;
	if (!r->in_part)
		buf_printf(&r->part, "ssgSearchPart(\"r%zu\",[\n", r->parts);
	else
		buf_puts(&r->part, ",\n");
	buf_put(&r->part, p, n);
	if (++r->in_part == SEARCH_PER)
		records_flush(r);
}

void search_records_put(struct search_records *r, const char *p, size_t n)
{
	while (n) {
		const char *nl = memchr(p, '\n', n);
		if (!nl) {
			buf_put(&r->line, p, n);
			return;
		}
		size_t k = (size_t)(nl - p);
		if (r->line.n) {
			buf_put(&r->line, p, k);
			records_line(r, r->line.p, r->line.n);
			buf_reset(&r->line);
		} else
			records_line(r, p, k);
		p += k + 1;
		n -= k + 1;
	}
}

size_t search_records_end(struct search_records *r)
{
	if (r->line.n)
		records_line(r, r->line.p, r->line.n);
	size_t entries = r->parts * SEARCH_PER + r->in_part;
	records_flush(r);
	buf_free(&r->part);
	buf_free(&r->line);
	return entries;
}

/* ---- words ---- */

enum { WHERE_EXTRA, WHERE_TITLE, WHERE_FIRST };
#define FLAG_BITS WORDS_MEMO_ID_SHIFT /* flags < (255 * 4 + 3) * 3 + 3 = 3072 */

struct word_postings {
	const char *w;
	uint32_t len;
	uint32_t h;
	uint64_t *p; /* id << FLAG_BITS | flags */
	uint32_t n, cap;
};

struct gather {
	uint32_t *slots; /* open addressing on h: a word's place + 1, 0 empty */
	size_t nslots;   /* a power of two */
	struct word_postings *words;
	size_t nwords, capwords;
	struct arena strings;
	/* the entry being gathered */
	uint64_t id;
	unsigned kind;
	uint64_t length; /* the title's, once it is read (0 while it is) */
	bool title;
	uint32_t *fresh; /* words given a posting by the entry's title */
	size_t nfresh, capfresh;
};

static void place_push(uint32_t **v, size_t *n, size_t *cap, uint32_t place)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[(*n)++] = place;
}

static uint32_t word_hash(const char *w, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)w[i]) * 16777619u;
	return h;
}

static void slots_grow(struct gather *g)
{
	size_t n = g->nslots ? 2 * g->nslots : 8192;
	uint32_t *slots = xcalloc(n, sizeof *slots);
	for (size_t i = 0; i < g->nwords; i++) {
		size_t at = g->words[i].h & (n - 1);
		while (slots[at])
			at = (at + 1) & (n - 1);
		slots[at] = (uint32_t)i + 1;
	}
	free(g->slots);
	g->slots = slots;
	g->nslots = n;
}

static uint32_t word_place(struct gather *g, const char *w, size_t n)
{
	uint32_t h = word_hash(w, n);
	size_t at = h & (g->nslots - 1);
	for (; g->slots[at]; at = (at + 1) & (g->nslots - 1)) {
		const struct word_postings *wp = &g->words[g->slots[at] - 1];
		if (wp->h == h && wp->len == n && !memcmp(wp->w, w, n))
			return g->slots[at] - 1;
	}
	if (g->nwords == g->capwords) {
		g->capwords = g->capwords ? 2 * g->capwords : 1024;
		g->words = xrealloc(g->words, g->capwords * sizeof *g->words);
	}
	char *copy = arena_alloc(&g->strings, n + 1);
	memcpy(copy, w, n);
	copy[n] = '\0';
	uint32_t place = (uint32_t)g->nwords++;
	g->words[place] = (struct word_postings){.w = copy, .len = (uint32_t)n, .h = h};
	g->slots[at] = place + 1;
	if (2 * g->nwords > g->nslots)
		slots_grow(g);
	return place;
}

/* The entry's posting for the word at place, where it is: true when it is
 * new (else the one it had keeps the better place). */
static bool posting_put(struct gather *g, uint32_t place, unsigned where)
{
	struct word_postings *wp = &g->words[place];
	if (wp->n && wp->p[wp->n - 1] >> FLAG_BITS == g->id) {
		uint64_t flags = wp->p[wp->n - 1] & ((1u << FLAG_BITS) - 1);
		if (flags % 3 < where)
			wp->p[wp->n - 1] += where - flags % 3;
		return false;
	}
	if (wp->n == wp->cap) {
		wp->cap = wp->cap ? 2 * wp->cap : 4;
		wp->p = xrealloc(wp->p, wp->cap * sizeof *wp->p);
	}
	/* a title word's length is added once the title is read */
	wp->p[wp->n++] = g->id << FLAG_BITS | ((g->length * 4 + g->kind) * 3 + where);
	return true;
}

static void posting_add(void *ctx, const char *w, size_t n, bool first, bool part)
{
	struct gather *g = ctx;
	uint32_t place = word_place(g, w, n);
	unsigned where = !g->title ? WHERE_EXTRA : first && !part ? WHERE_FIRST : WHERE_TITLE;
	if (posting_put(g, place, where) && g->title)
		place_push(&g->fresh, &g->nfresh, &g->capfresh, place);
}

/* The entry's title; its words' places are left in g->fresh. */
static void entry_title(struct gather *g, unsigned kind, const char *title)
{
	g->title = true;
	g->kind = kind;
	g->length = 0;
	g->nfresh = 0;
	size_t len = words_each(title ? title : "", posting_add, g);
	g->length = len > 255 ? 255 : len;
	for (size_t i = 0; i < g->nfresh; i++) {
		struct word_postings *wp = &g->words[g->fresh[i]];
		wp->p[wp->n - 1] += g->length * 12;
	}
	g->title = false;
}

static void entry(struct gather *g, unsigned kind, const char *title, const char *extra1,
		  const char *extra2, const char *extra3)
{
	entry_title(g, kind, title);
	const char *extra[3] = {extra1, extra2, extra3};
	for (size_t i = 0; i < 3; i++)
		if (extra[i])
			words_each(extra[i], posting_add, g);
	g->id++;
}

/* The entries of items [from, to): documents (each with its sections),
 * then topics with resources, then resources by title, in search-index.json's order
 * (render.c's search_doc, search_resource and the topics between). */
static void gather_items(const struct site *s, struct gather *g, size_t from, size_t to)
{
	uint32_t *doc_words = NULL;
	size_t ndoc_words = 0, cap = 0;
	for (size_t i = from; i < to && i < s->ndocs; i++) {
		const struct doc *d = &s->docs[i];

		entry(g, 0, d->title, d->description, NULL, NULL);
		/* the title's words, which each section has as its extra text */
		ndoc_words = 0;
		for (size_t k = 0; k < g->nfresh; k++)
			place_push(&doc_words, &ndoc_words, &cap, g->fresh[k]);
		for (size_t h = 0; h < d->nheadings; h++) {
			entry_title(g, 1, d->headings[h].text);
			for (size_t k = 0; k < ndoc_words; k++)
				posting_put(g, doc_words[k], WHERE_EXTRA);
			g->id++;
		}
	}
	free(doc_words);
	for (size_t i = from > s->ndocs ? from - s->ndocs : 0; i < s->ntopics && s->ndocs + i < to;
	     i++)
		if (s->topics[i].nresources)
			entry(g, 2, s->topics[i].title, s->topics[i].description, NULL, NULL);
	size_t first_res = s->ndocs + s->ntopics;
	for (size_t j = from > first_res ? from - first_res : 0; j < s->nres && first_res + j < to;
	     j++) {
		const struct resource *r = &s->res[s->title_order[j]];

		entry(g, 3, r->title, r->host, r->kind >= 0 ? s->cfg.kinds[r->kind].title : NULL,
		      r->desc);
	}
}

/* How many entries item i makes. */
static size_t item_entries(const struct site *s, size_t i)
{
	if (i < s->ndocs)
		return 1 + s->docs[i].nheadings;
	if (i < s->ndocs + s->ntopics)
		return s->topics[i - s->ndocs].nresources > 0;
	return 1;
}

/* What gathering item i costs, about: a resource's texts are longer. */
static size_t item_weight(const struct site *s, size_t i)
{
	return i < s->ndocs + s->ntopics ? item_entries(s, i) : 5;
}

/* Item i's key: what its entries are made of (a topic's, digested here). */
static void item_key(const struct site *s, const struct search_words_keys *k, size_t i,
		     unsigned long long key[2])
{
	if (i < s->ndocs) {
		memcpy(key, k->docs[i], sizeof k->docs[i]);
		return;
	}
	if (i >= s->ndocs + s->ntopics) {
		memcpy(key, k->resources[s->title_order[i - s->ndocs - s->ntopics]],
		       sizeof k->resources[0]);
		return;
	}
	const struct topic *t = &s->topics[i - s->ndocs];
	struct digest d;
	digest_start(&d);
	const char *texts[2] = {t->title ? t->title : "", t->description ? t->description : ""};
	for (size_t j = 0; j < 2; j++) {
		digest_word(&d, strlen(texts[j]));
		digest_feed(&d, texts[j], strlen(texts[j]));
	}
	digest_word(&d, t->nresources > 0);
	digest_end(&d, key);
}

/* A slice of the items: its words are gathered, or read from the memo, as
 * a whole. */
struct slice {
	size_t from, to;          /* its items */
	uint64_t base, entries;   /* its first entry's id, and how many it has */
	unsigned long long key[2];
	struct words_slice words; /* read from the memo, or gathered */
	bool kept;                /* read, not gathered */
	bool differ;              /* SSG_CHECK_INPUTS: what was kept is not what was gathered */
};

struct search_words {
	const struct site *s;
	struct slice *slice;
	size_t nslices, ntasks;
	int memo_fd; /* words_memo.h's folder; -1: nothing kept */
	bool load, check;
};

struct search_words *search_words_begin(const struct site *s, const struct search_words_keys *k,
					size_t tasks)
{
	struct search_words *sw = xcalloc(1, sizeof *sw);
	size_t items = s->ndocs + s->ntopics + s->nres, cap = 0;
	bool kept = k->env && *k->env;
	sw->s = s;
	sw->ntasks = tasks ? tasks : 1;
	sw->memo_fd = kept ? words_memo_open(s->source_dir, true) : -1;
	sw->load = kept && k->load;
	sw->check = k->check;
	/* a slice ends after an item whose key says so, as often as the item
	 * weighs: where slices end moves only where items change */
	struct slice *sl = NULL;
	struct digest d;
	uint64_t id = 0;
	for (size_t i = 0; i < items; i++) {
		if (!sl) {
			sw->slice = xgrow(sw->slice, &cap, sw->nslices + 1, sizeof *sw->slice);
			sl = &sw->slice[sw->nslices++];
			*sl = (struct slice){.from = i, .base = id};
			digest_start(&d);
			digest_feed(&d, kept ? k->env : "", kept ? 32 : 0);
		}
		unsigned long long key[2];
		item_key(s, k, i, key);
		digest_word(&d, i < s->ndocs ? 'D' : i < s->ndocs + s->ntopics ? 'T' : 'R');
		digest_word(&d, key[0]);
		digest_word(&d, key[1]);
		sl->entries += item_entries(s, i);
		id += item_entries(s, i);
		if (key[1] % SEARCH_SLICE_WEIGHT < item_weight(s, i) ||
		    sl->entries >= SEARCH_SLICE_MAX || i + 1 == items) {
			sl->to = i + 1;
			digest_end(&d, sl->key);
			sl = NULL;
		}
	}
	return sw;
}

static void gather_free(struct gather *g)
{
	for (size_t i = 0; i < g->nwords; i++)
		free(g->words[i].p);
	free(g->words);
	free(g->slots);
	free(g->fresh);
	arena_release(&g->strings);
}

/* g emptied for the next slice (its tables kept). */
static void gather_reset(struct gather *g)
{
	for (size_t i = 0; i < g->nwords; i++)
		free(g->words[i].p);
	g->nwords = 0;
	if (g->slots)
		memset(g->slots, 0, g->nslots * sizeof *g->slots);
	else
		slots_grow(g);
	arena_release(&g->strings);
	g->id = 0;
}

/* The slice's words: read from the memo, else gathered (and kept). */
static void slice_fill(struct search_words *sw, struct slice *sl, struct gather *g)
{
	sl->kept = sw->load && words_memo_read(sw->memo_fd, sl->key, &sl->words) &&
		   sl->words.entries == sl->entries;
	if (sl->kept && !sw->check)
		return;
	gather_reset(g);
	gather_items(sw->s, g, sl->from, sl->to);
	struct buf b = BUF_INIT;
	words_slice_head(&b, g->id, g->nwords);
	for (size_t i = 0; i < g->nwords; i++)
		words_slice_word(&b, g->words[i].w, g->words[i].len, g->words[i].p, g->words[i].n);
	if (sl->kept)
		sl->differ = b.n != sl->words.bytes.n || memcmp(b.p, sl->words.bytes.p, b.n);
	else
		words_memo_write(sw->memo_fd, sl->key, &b);
	words_slice_free(&sl->words);
	sl->words.bytes = b;
	/* (its own bytes always read back, unless gathering went wrong) */
	if (!words_slice_parse(&sl->words) || g->id != sl->entries)
		sl->differ = true;
}

void search_words_gather(struct search_words *sw, size_t task)
{
	struct gather g = {.strings = ARENA_INIT};
	for (size_t k = task; k < sw->nslices; k += sw->ntasks)
		slice_fill(sw, &sw->slice[k], &g);
	gather_free(&g);
}

/* Every slice's words in one table, each with where it is in the slices:
 * its postings' list holds (slice << 32 | the word's place in it), the
 * slices in order. */
static void merge_slices(struct search_words *sw, struct gather *all)
{
	*all = (struct gather){.strings = ARENA_INIT};
	slots_grow(all);
	for (size_t k = 0; k < sw->nslices; k++) {
		const struct slice *sl = &sw->slice[k];
		for (size_t i = 0; i < sl->words.nwords; i++) {
			const struct memo_word *mw = &sl->words.words[i];
			uint32_t place = word_place(all, mw->w, mw->len); /* may move words */
			struct word_postings *wp = &all->words[place];
			if (wp->n == wp->cap) {
				wp->cap = wp->cap ? 2 * wp->cap : 4;
				wp->p = xrealloc(wp->p, wp->cap * sizeof *wp->p);
			}
			wp->p[wp->n++] = (uint64_t)k << 32 | i;
		}
		all->id = sl->base + sl->entries;
	}
}

static int by_word(const void *a, const void *b)
{
	return strcmp((*(struct word_postings *const *)a)->w,
		      (*(struct word_postings *const *)b)->w);
}

static void put_json_string(struct buf *b, const char *s)
{
	buf_putc(b, '"');
	buf_put_json(b, s, strlen(s));
	buf_putc(b, '"');
}

/* The words parts and search/index.js, from the merged table g. */
static void emit_words(const struct search_words *sw, const struct gather *g,
		       const struct shard_out *out)
{
	struct word_postings **sorted = xcalloc(g->nwords + 1, sizeof *sorted);
	for (size_t i = 0; i < g->nwords; i++)
		sorted[i] = &g->words[i];
	qsort(sorted, g->nwords, sizeof *sorted, by_word);

	struct buf part = BUF_INIT, meta = BUF_INIT;
	buf_printf(&meta, "ssgSearchPart(\"index\",{\"entries\":%llu,\"per\":%u,\"max\":%u,\"words\":[",
		   (unsigned long long)g->id, SEARCH_PER, WORDS_MAX);
	size_t parts = 0;
	for (size_t i = 0; i < g->nwords; i++) {
		const struct word_postings *wp = sorted[i];
		if (!part.n) {
			buf_printf(&part, "ssgSearchPart(\"w%zu\",[\n", parts);
			if (parts)
				buf_putc(&meta, ',');
			put_json_string(&meta, wp->w);
		} else
			buf_puts(&part, ",\n");
		put_json_string(&part, wp->w);
		buf_puts(&part, ",[");
		uint64_t last = 0;
		for (uint32_t r = 0; r < wp->n; r++) {
			const struct slice *sl = &sw->slice[wp->p[r] >> 32];
			const struct memo_word *mw = &sl->words.words[(uint32_t)wp->p[r]];
			/* two numbers a posting, 21 bytes each at most with their commas */
			buf_grow(&part, (size_t)mw->n * 42);
			char *o = part.p + part.n;
			for (uint32_t k = 0; k < mw->n; k++) {
				uint64_t posting = words_memo_posting(mw->p, k);
				uint64_t id = sl->base + (posting >> FLAG_BITS);
				if (r || k)
					*o++ = ',';
				o = put_decimal(o, id - last);
				*o++ = ',';
				o = put_decimal(o, posting & ((1u << FLAG_BITS) - 1));
				last = id;
			}
			part.n = (size_t)(o - part.p);
		}
		buf_putc(&part, ']');
		if (part.n >= SEARCH_WORDS_BYTES || i + 1 == g->nwords) {
			buf_puts(&part, "\n]);\n");
			char name[32];
			snprintf(name, sizeof name, "search/w%zu.js", parts++);
			out->write(out->ctx, name, part.p, part.n);
			buf_reset(&part);
		}
	}
	buf_puts(&meta, "],\"fold\":\"");
	struct buf pairs = BUF_INIT;
	words_fold_pairs(&pairs);
	buf_put_json(&meta, pairs.p, pairs.n);
	buf_puts(&meta, "\"});\n");
	out->write(out->ctx, "search/index.js", meta.p, meta.n);
	free(sorted);
	buf_free(&part);
	buf_free(&meta);
	buf_free(&pairs);
}

void search_words_end(struct search_words *sw, const struct shard_out *out,
		      struct search_words_done *done)
{
	struct gather g;
	merge_slices(sw, &g);
	emit_words(sw, &g, out);
	*done = (struct search_words_done){.slices = sw->nslices};
	gather_free(&g);
	unsigned long long(*keys)[2] = xcalloc(sw->nslices + 1, sizeof *keys);
	for (size_t k = 0; k < sw->nslices; k++) {
		struct slice *sl = &sw->slice[k];
		done->kept += sl->kept && !sw->check;
		done->differ += sl->differ;
		memcpy(keys[k], sl->key, sizeof sl->key);
		words_slice_free(&sl->words);
	}
	/* the slices of older builds go */
	if (sw->memo_fd >= 0) {
		words_memo_tidy(sw->memo_fd, (const unsigned long long(*)[2])keys, sw->nslices);
		close(sw->memo_fd);
	}
	free(keys);
	free(sw->slice);
	free(sw);
}
