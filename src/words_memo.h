/* words_memo: the search index's words between builds, a slice at a time.
 * search_shards.c gathers the index's words in slices of its entries, cut
 * where an entry's key says (so an edit moves one or two slices, not all);
 * a slice's words and postings, with ids counted from the slice's first
 * entry, are kept in <site>/.ssg-cache/words/<the slice's key>.bin, and a
 * later build whose slice has the same key reads them instead of gathering
 * them again. The key is a digest of the caches' env (which holds this
 * account's secret) and the slice's entries' inputs: a file that came with
 * the site is never found. A damaged file reads as nothing.
 *
 * A slice's bytes: "ssg-words 1\n" and 4 zero bytes, its entries and its
 * words (8 bytes each, this machine's order), then per word its length and
 * its postings' count (4 bytes each), its bytes, a zero byte, zeros up to a
 * multiple of 8, and its postings (8 bytes each: id << 12 | flags, ids
 * ascending, below the entries). Level 0; calls buf, path. */
#ifndef SSG_WORDS_MEMO_H
#define SSG_WORDS_MEMO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define WORDS_MEMO_ID_SHIFT 12 /* a posting: id << this | flags */

/* A word of a slice, as its bytes hold it. */
struct memo_word {
	const char *w;        /* NUL-terminated */
	uint32_t len, n;
	const unsigned char *p; /* n postings, 8 bytes each (words_memo_posting) */
};

/* A slice: its bytes, and its words in them. The bytes of a slice read
 * back are the file's, mapped (not copied into memory of the build's own:
 * 20 MB of the search index's words at 10,000 documents). */
struct words_slice {
	struct buf bytes;
	bool mapped;          /* bytes.p is a mapping of bytes.n bytes */
	uint64_t entries;
	struct memo_word *words;
	size_t nwords;
};

/* Writing a slice's bytes: the head, then each word. */
void words_slice_head(struct buf *b, uint64_t entries, uint64_t nwords);
void words_slice_word(struct buf *b, const char *w, uint32_t len, const uint64_t *postings,
		      uint32_t n);
/* sl->bytes read as a slice: false (and no words) when they are not one. */
bool words_slice_parse(struct words_slice *sl);
void words_slice_free(struct words_slice *sl);

static inline uint64_t words_memo_posting(const unsigned char *p, size_t i)
{
	uint64_t v;
	__builtin_memcpy(&v, p + 8 * i, sizeof v);
	return v;
}

/* The memo's folder under the site's (made when make is set): -1 none. */
int words_memo_open(const char *source_dir, bool make);
/* The slice kept under key, parsed: false when there is none (or it is
 * damaged). */
bool words_memo_read(int dfd, const unsigned long long key[2], struct words_slice *sl);
/* b kept under key (a cache: unwritten, it is gathered again). */
void words_memo_write(int dfd, const unsigned long long key[2], const struct buf *b);
/* Removes every slice but the n under keys, and writers' leftovers. */
void words_memo_tidy(int dfd, const unsigned long long (*keys)[2], size_t n);

#endif
