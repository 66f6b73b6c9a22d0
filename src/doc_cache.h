/* doc_cache: what reading a document produced (metadata, title, rendered
 * body, headings, citations, internal links, diagnostics), kept between
 * builds in <site>/.ssg-cache/documents.bin and keyed by the digest of the
 * file's bytes. A document whose bytes are unchanged is not parsed again.
 * The whole cache is dropped when the program or site.yml changes (env).
 * A build may leave the bodies in the file, read back when a page needs one
 * (doc_cache_body).
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
/* The offsets of documents.bin's latest entries, for the file as it was
 * (device, inode, size and times): loading then reads this small file, not a
 * header of every entry spread over the large one. Only a shortcut: an entry
 * is still checked to be its document's (path and digest) when read. */
#define DOC_CACHE_INDEX "documents.idx"

struct doc_cache {
	const char *data;     /* the file, mapped (NULL: none) */
	size_t len;
	size_t clean_end;     /* where the last whole entry ends */
	bool valid;           /* written under this env */
	struct hash index;    /* relpath -> slot of its latest entry */
	char **keys;          /* per slot: the relpath the index borrows */
	size_t *at, *size;    /* per slot: the entry's offset and length */
	size_t nkeys;
	unsigned long long id[5]; /* the file's device, inode, size, mtime, ctime */
	int fd;               /* the file, open while mapped: bodies are read from it later */
	bool lazy_bodies;     /* doc_cache_get leaves bodies in the file (doc.body_in_cache) */
	bool borrow_strings;  /* doc_cache_get points a document's block of strings
			       * into the mapped file (doc.strings_mapped) rather
			       * than copying it: the mapping must then outlive the
			       * documents (see map_kept) */
	bool map_kept;        /* someone else unmaps data: doc_cache_free leaves it */
	bool from_index;      /* the index came from documents.idx, not a walk */
};

/* What every entry depends on besides its file: this program, site.yml and
 * the account's own secret (local_key.h). */
void doc_cache_env(const char *source_dir, char env[33]);
/* The env for a reader of the caches: true with env set, or, for one that
 * writes nothing (readonly: ssg check), false with env empty when the
 * account has no key yet: no cache of its can be there, and asking for the
 * key would make one. */
bool doc_cache_env_for(const char *source_dir, bool readonly, char env[33]);
/* Map <source_dir>/.ssg-cache/documents.bin; only entries written under env
 * count. A symlinked folder or file is not read. */
void doc_cache_load(struct doc_cache *c, const char *source_dir, const char env[33]);
/* The same, writing nothing (ssg check): without documents.idx, the walk's
 * offsets are not kept for the next load. */
void doc_cache_load_readonly(struct doc_cache *c, const char *source_dir, const char env[33]);
/* Fill d (relpath already set) from the cache when its entry has digest;
 * false (d untouched) otherwise. With c->lazy_bodies the body stays in the
 * file, for doc_cache_body with a descriptor of c->fd. Thread-safe: c is
 * only read. */
bool doc_cache_get(const struct doc_cache *c, const char *relpath,
		   const unsigned long long digest[2], struct doc *d);
void doc_cache_free(struct doc_cache *c);
/* d's body, read from fd (the document cache it was left in) when it was
 * left there; NULL when it cannot be read. Thread-safe for distinct docs. */
const char *doc_cache_body(struct doc *d, int fd);
/* Leave d's body in the file again once its page is made (it was left there,
 * and doc_cache_body read it back): a site's bodies do not pile up in memory
 * while its pages are rendered. */
void doc_cache_body_drop(struct doc *d);

/* Append d's entry (as read, before the model touches it) to out. Returns
 * where the body's bytes lie from the start of the entry (SIZE_MAX: none). */
size_t doc_cache_put(struct buf *out, const struct doc *d, const unsigned long long digest[2]);
/* Whether two versions of a document have the same record: what the rest
 * of the site may see of them, which is their entry without the body (and
 * without what the body alone gives: the word count and the digest), nor
 * what only `ssg check` reads (where links are listed, images). Two
 * versions with the same record make the same model. */
bool doc_cache_same_record(const struct doc *a, const struct doc *b);
/* The same but for the descriptions of its entries (citation.desc), which
 * show beside the document's own page only on their resources' pages (each
 * among the descriptions it was given) and, the longest, as a resource's
 * description (build_descs.h). */
bool doc_cache_same_but_descs(const struct doc *a, const struct doc *b);
/* Whether now's page can be previewed from was's (build_patch.h): the same
 * format, metadata (front matter) and links to other files, whatever else
 * changed (citations, headings, title, description, prose). Never with an
 * error. */
bool doc_cache_previewable(const struct doc *was, const struct doc *now);
/* Bring the file up to date with a build's n documents: entries[i] is the
 * entry of relpaths[i] when it was read afresh, empty when c gave it (a
 * rewrite frees each entry once written; the caller frees the rest). New
 * entries are appended while the file stays mostly live; otherwise it is
 * rewritten whole (atomically: old entries copied as they are). Never
 * through a symlink. -1 when it cannot be written (builds go on without). */
int doc_cache_update(const struct doc_cache *c, const char *source_dir, const char env[33],
		     const char **relpaths, struct buf *entries, size_t n);

/* A whole new cache written while the documents are read: each of the n
 * entries is put once (an empty one for a document with none), in any order,
 * from any thread; a thread of the stream writes them in order and frees
 * them, so they never pile up in memory. NULL when the cache cannot be
 * written. stream_end waits for the writer and puts the file in place.
 *
 * The documents' bodies go the same way. Given the document d whose entry it
 * is (and where its body lies in the entry, body_at, as doc_cache_put said),
 * the stream leaves the body in the file (doc.body_in_cache, freed from
 * memory) once the file is sure to hold it: as soon as the entry is found to
 * be the same as in the file in place, else when the stream ends with the new
 * file in place. From the put to stream_end, d is the stream's. */
struct doc_cache_stream;
struct doc_cache_stream *doc_cache_stream_begin(const char *source_dir, const char env[33],
						size_t n);
void doc_cache_stream_put(struct doc_cache_stream *st, size_t i, struct buf *entry,
			  struct doc *d, size_t body_at);
/* 0 when the new cache is in place. *bodies_fd: a descriptor (above 2) of
 * the file the bodies were left in, for doc_cache_body; 0 when none was left
 * (the others stay in memory). The caller closes it. */
int doc_cache_stream_end(struct doc_cache_stream *st, int *bodies_fd);

#endif
