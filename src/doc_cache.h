/* doc_cache: what reading a document produced (metadata, title, rendered
 * body, headings, citations, internal links, diagnostics), kept between
 * builds in <site>/.ssg-cache/documents.bin and keyed by the digest of the
 * file's bytes. A document whose bytes are unchanged is not parsed again.
 * The whole cache is dropped when the program or site.yml changes (env).
 * A damaged or foreign file reads as empty: never trusted, never a crash.
 * Level 3 (knows struct doc). */
#ifndef SSG_DOC_CACHE_H
#define SSG_DOC_CACHE_H
#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "doc.h"
#include "hash.h"

#define DOC_CACHE_DIR ".ssg-cache"
#define DOC_CACHE_NAME "documents.bin"

struct doc_cache {
	struct buf data;      /* the file */
	struct hash index;    /* relpath -> offset of its entry in data */
	char **keys;          /* the relpaths the index borrows */
	size_t nkeys;
};

/* What every entry depends on besides its file: this program and site.yml. */
void doc_cache_env(const char *source_dir, char env[33]);
/* Load <source_dir>/.ssg-cache/documents.bin when it was written under env;
 * otherwise c is empty. A symlinked folder or file is not read. */
void doc_cache_load(struct doc_cache *c, const char *source_dir, const char env[33]);
/* Fill d (relpath already set) from the cache when its entry has digest,
 * and append the entry as it is to raw (unless NULL); false (d untouched)
 * otherwise. Thread-safe: c is only read. */
bool doc_cache_get(const struct doc_cache *c, const char *relpath,
		   const unsigned long long digest[2], struct doc *d, struct buf *raw);
void doc_cache_free(struct doc_cache *c);

/* Append d's entry (as read, before the model touches it) to out. */
void doc_cache_put(struct buf *out, const struct doc *d, const unsigned long long digest[2]);
/* Write the entries (each from doc_cache_put) as the new cache, atomically,
 * never through a symlink. -1 when it cannot be written (the build goes on
 * without it). */
int doc_cache_write(const char *source_dir, const char env[33], struct buf *entries, size_t n);

#endif
