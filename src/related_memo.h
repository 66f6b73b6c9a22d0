/* related_memo: each document's related documents from the last build, in
 * <site>/.ssg-cache/related.bin, under the caches' env (ssg, site.yml, the
 * account's secret). xref.c scores a document's neighbours by the resources
 * they share, and nothing else, so the file keeps two kinds of key:
 *  - the site's: which resource each citation of each document is. An edit
 *    that leaves every document's resources as they were (a description, a
 *    title, prose) takes every document's related documents from there;
 *  - each document's: its own place, and for each resource that scores
 *    (cited by 2 to XREF_RELATED_MAX_CITERS documents), in the order it
 *    first cites them, the documents citing it. After an edit that changes
 *    some citations (a new link, one removed), only the documents whose key
 *    moved are scored again: the edited one, and those sharing a resource
 *    whose citing documents changed.
 * A damaged or foreign file reads as nothing. Level 3. */
#ifndef SSG_RELATED_MEMO_H
#define SSG_RELATED_MEMO_H
#include <stdbool.h>

#include "model.h"

/* The key of s's related documents (its citations' resources, in order). */
void related_memo_key(const struct site *s, unsigned long long key[2]);

/* Per resource, the digest of the documents citing it, in order (zero for
 * one that does not score), on `jobs` threads: what its citers' keys take. */
typedef unsigned long long related_key[2];
related_key *related_memo_citer_keys(const struct site *s, int jobs);
/* Document d's key. seen: s->nres marks (the document each resource was
 * last met for, plus one), kept from one document to the next. */
void related_memo_doc_key(const struct site *s, const related_key *citers, size_t d,
			  size_t *seen, unsigned long long out[2]);

/* The file as read. */
struct related_memo {
	unsigned long long key[2]; /* the site's */
	size_t ndocs;
	related_key *doc_keys;     /* per document */
	struct related_docs *rel;  /* per document: each points at another, below ndocs */
};
/* True and m filled when the file holds related documents made under env. */
bool related_memo_load(const char *source_dir, const char env[33], struct related_memo *m);
void related_memo_free(struct related_memo *m);
void related_memo_save(const char *source_dir, const char env[33], const unsigned long long key[2],
		       size_t ndocs, const related_key *doc_keys, const struct related_docs *rel);

#endif
