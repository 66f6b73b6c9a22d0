/* related_memo: each document's related documents from the last build, in
 * <site>/.ssg-cache/related.bin, under the caches' env (ssg, site.yml, the
 * account's secret) and keyed by all they are made of: which resource each
 * citation of each document is (xref.c scores documents by the resources
 * they share, and nothing else). An edit that leaves every document's
 * resources as they were (a description, a title, prose) takes them from
 * there. A damaged or foreign file reads as nothing. Level 3. */
#ifndef SSG_RELATED_MEMO_H
#define SSG_RELATED_MEMO_H
#include <stdbool.h>

#include "model.h"

/* The key of s's related documents (its citations' resources, in order). */
void related_memo_key(const struct site *s, unsigned long long key[2]);
/* True and rel (s->ndocs entries) filled when the file was made for key
 * under env. */
bool related_memo_load(const char *source_dir, const char env[33], const unsigned long long key[2],
		       size_t ndocs, struct related_docs *rel);
void related_memo_save(const char *source_dir, const char env[33], const unsigned long long key[2],
		       size_t ndocs, const struct related_docs *rel);

#endif
