/* words: the words of a text as the search index keys them. A word is a run
 * of letters and digits (every character but ASCII punctuation, spaces and
 * the general punctuation blocks), folded: lower case, accents dropped
 * (words_fold.h, from Unicode's decompositions), cut to WORDS_MAX bytes. A
 * word whose case changes inside ("PyTorch", "CUDAGraphs") also gives the
 * part from there on ("torch", "graphs"), so either spelling finds it. The
 * reader's script folds a query with the same table, which the index
 * carries (words_fold_pairs). Level 0; calls buf, utf8. Thread-safe. */
#ifndef SSG_WORDS_H
#define SSG_WORDS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;

#define WORDS_MAX 48

/* A character folded: itself, its lower-case letter without accents, or 0
 * for a combining mark (dropped). */
uint32_t words_fold(uint32_t cp);
/* True when cp ends a word (and is not part of one). */
bool words_sep(uint32_t cp);

/* Called per word of a text, in order: w[0..n) folded (not NUL-terminated),
 * part true for the inner part of a word, first for the text's first word. */
typedef void (*word_fn)(void *ctx, const char *w, size_t n, bool first, bool part);

/* fn (NULL: none) for each word of text (NUL-terminated UTF-8). Returns the text's
 * length folded, in characters, with spaces around trimmed and runs of
 * them counted as one. */
size_t words_each(const char *text, word_fn fn, void *ctx);

/* The fold table as JSON string contents: each character that folds to
 * another, followed by that one. */
void words_fold_pairs(struct buf *out);

#endif
