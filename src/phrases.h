/* phrases: which of many phrases occur in a text as whole words, in one pass
 * over the text. A phrase occurs where its bytes stand with no letter or
 * digit (ASCII isalnum) right before or right after them, as the taxonomy's
 * word and heading rules match. Each phrase is found by its first word: the
 * text's words are looked up once each in a table of first words, instead of
 * every phrase searched for through the whole text (for sets of
 * PHRASES_ONE_PASS phrases or more). Phrases and texts are
 * compared byte for byte (the caller lower-cases both). Level 0. */
#ifndef SSG_PHRASES_H
#define SSG_PHRASES_H
#include <stdbool.h>
#include <stddef.h>

#include "hash.h"

struct phrase {
	char *text;
	size_t len;
	size_t id;     /* what a hit sets: hit[id] */
	size_t next;   /* the next phrase with the same first word; SIZE_MAX ends */
	size_t next_byte; /* the next with the same first byte, + 1; 0 ends */
};

struct phrase_set {
	struct phrase *v;
	size_t n, cap;
	struct hash first;  /* first word -> its first phrase in v */
	size_t *odd;        /* phrases not starting with a letter or digit, or
			     * with a very long first word: searched for */
	size_t nodd, capodd;
	size_t by_byte[256]; /* first byte -> its first phrase (as for first), + 1 */
};

#define PHRASE_SET_INIT {NULL, 0, 0, HASH_INIT, NULL, 0, 0, {0}}

/* From this many phrases on, a text's words are looked up in the table of
 * first words; below, each word start is compared with the few phrases that
 * begin with its byte (no hashing). Either finds the same. */
#define PHRASES_ONE_PASS 64

/* Add phrase (copied) with its id; an empty phrase matches nothing. */
void phrase_set_add(struct phrase_set *p, const char *phrase, size_t id);
/* Set hit[id] = true for each phrase that occurs in text as whole words
 * (hit has room for every id; entries already true stay so). */
void phrase_set_match(const struct phrase_set *p, const char *text, bool *hit);
/* Whether phrase occurs in text as whole words (the one-phrase rule). */
bool phrase_in(const char *text, const char *phrase);
void phrase_set_free(struct phrase_set *p);

#endif
