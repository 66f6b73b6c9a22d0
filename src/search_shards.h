/* search_shards: the search index in parts, so that a reader's search
 * downloads what its words need and not the whole index (24 MB at 10,000
 * documents). Every part is a script calling window.ssgSearchPart(name,
 * data), which loads over http(s) and from file:// alike:
 *
 *   search/index.js  {"entries": N, "per": SEARCH_PER, "max": WORDS_MAX,
 *                    "words": [the first word of each words part], "fold":
 *                    the fold table (words_fold_pairs)}
 *   search/w<i>.js   a flat list: word, its postings, word, its postings...
 *                    in byte order; postings are pairs (id - the id before,
 *                    flags), ids ascending, where flags = (length * 4 + kind)
 *                    * 3 + where: kind 0 document, 1 section, 2 topic,
 *                    3 resource; where 2 the title's first word, 1 another
 *                    word of the title, 0 the extra text; length the title's
 *                    in characters (at most 255), for ranking
 *   search/r<i>.js   entries i * SEARCH_PER onwards, as search-index.json
 *                    has them ([kind, title, url, extra])
 *
 * An entry's id is its place in search-index.json: documents, each followed
 * by its sections, then topics, then resources by title. Level 4; calls model,
 * words, words_memo, buf. */
#ifndef SSG_SEARCH_SHARDS_H
#define SSG_SEARCH_SHARDS_H
#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "model.h"

#define SEARCH_PER 512            /* entries per records part */
#define SEARCH_WORDS_BYTES (48u << 10) /* a words part closes past this size */

/* Where the parts go: a file's bytes, whole, by its path in the site. */
struct shard_out {
	void (*write)(void *ctx, const char *relpath, const char *p, size_t n);
	void *ctx;
};

/* The records parts, cut from search-index.json's bytes as they come (one
 * entry a line, as render_search_index writes them). */
struct search_records {
	const struct shard_out *out;
	struct buf part;   /* the part being filled */
	struct buf line;   /* a line begun in an earlier put */
	size_t in_part, parts;
	bool begun;
};
void search_records_begin(struct search_records *r, const struct shard_out *out);
void search_records_put(struct search_records *r, const char *p, size_t n);
/* Writes the last part; returns the number of entries seen. */
size_t search_records_end(struct search_records *r);

/* The words parts and search/index.js, from the model: gathered in slices
 * of the entries, cut where the entries' keys say (about one in
 * SEARCH_SLICE_WEIGHT weighed entries ends one: a resource weighs 5, a
 * document one and one per section), by tasks on any threads. A slice whose
 * key the last build knew is read from words_memo.h's files instead. */
#define SEARCH_SLICE_WEIGHT 4096
#define SEARCH_SLICE_MAX 65536 /* entries: a slice ends there whatever the keys say */

/* What the slices' keys are made of. */
struct search_words_keys {
	const unsigned long long (*docs)[2];      /* per document: its bytes, name and place */
	const unsigned long long (*resources)[2]; /* per resource: its record, in its order */
	const char *env;  /* the caches' env (32 hex digits); NULL or "": nothing is kept */
	bool load;        /* take what is kept (not with --force) */
	bool check;       /* SSG_CHECK_INPUTS: gather what is kept too, and compare */
};

struct search_words;
/* k's arrays are read here only. */
struct search_words *search_words_begin(const struct site *s, const struct search_words_keys *k,
					size_t tasks);
/* Task task's slices (of tasks, as begun), on any thread. */
void search_words_gather(struct search_words *sw, size_t task);

struct search_words_done {
	size_t slices, kept; /* slices, and those read from the memo */
	size_t differ;       /* kept slices that differ from their words gathered again */
};
/* After every task: writes the parts, forgets the memo's other slices and
 * frees sw. */
void search_words_end(struct search_words *sw, const struct shard_out *out,
		      struct search_words_done *done);

#endif
