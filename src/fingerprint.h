/* fingerprint: one hash of every file a build reads, so that a build whose
 * inputs are all unchanged can stop before reading a document. Files are
 * keyed by their content, not their dates: a checkout that rewrites mtimes
 * changes nothing, and an edit that keeps the size and the second is still
 * seen. Level 1: calls util only. */
#ifndef SSG_FINGERPRINT_H
#define SSG_FINGERPRINT_H
#include <stddef.h>

#include <pthread.h>
#include <stdbool.h>

#include "buf.h"
#include "hash.h"

/* A 128-bit hash of n bytes (not cryptographic: it tells edits apart). */
void fingerprint_bytes(const void *p, size_t n, unsigned long long out[2]);

/* The digest of a file's bytes; -1 when it cannot be read. */
int fingerprint_file_digest(const char *path, unsigned long long out[2]);

/* Add to manifest a line for this program's digest (of its executable
 * file, computed once). */
void fingerprint_add_self(struct buf *manifest);
/* Add to manifest a line for every file under root/rel (folders walked in
 * name order; names starting with '.' skipped; symlinks not followed, their
 * targets added as text), each with the hash of its bytes, computed on
 * `jobs` threads. A missing folder adds one line saying so. */
void fingerprint_tree(struct buf *manifest, const char *root, const char *rel, int jobs);
/* Regular files' digests, by their path under root ("content/a.md"), so
 * that what was hashed once is not hashed again. */
struct file_digests {
	struct hash index;   /* path -> slot (see index_state) */
	char **paths;
	unsigned long long (*digests)[2];
	size_t n;
	/* the walk met nothing but folders and regular files (no symlink, other
	 * or unreadable entry): paths name every file of the tree, which then
	 * need not be listed again (source_list_from_digests) */
	bool whole_tree;
	size_t nfolders;     /* the folders below the walked one */
	int depth;           /* the deepest of them (1: a folder of the walked one) */
	pthread_t saver;     /* fingerprint_cache_close_into's, while saving */
	bool saving;
	int index_state;     /* index: 0 not made, 1 being made, 2 made (on first use) */
};
/* Digests known by the files' stat from the last run over the same folder
 * (<dir>/.ssg-cache/files.bin): a file whose stat (device, inode, size,
 * mode, mtime and ctime, to the nanosecond) is unchanged, and was already
 * over a second old when the last run looked, is not read again. Any edit
 * moves ctime, which no one can set back. */
#define FINGERPRINT_CACHE_DIR ".ssg-cache"
#define FINGERPRINT_CACHE_FILE "files.bin"
struct fingerprint_cache;
/* Open dir's cache (trust false: nothing known, every file read). */
struct fingerprint_cache *fingerprint_cache_open(const char *dir, bool trust);
/* How many files the walks with c have read so far (not known by stat). */
size_t fingerprint_cache_reads(const struct fingerprint_cache *c);
/* How many folders they have listed (not known by stat: a folder whose stat
 * is the one the last run listed it under, settled as a file's must be,
 * holds the names it held then, which are taken from the cache). */
size_t fingerprint_cache_listed(const struct fingerprint_cache *c);
/* Whether dir has such a cache. */
bool fingerprint_cache_exists(const char *dir);
/* Write what this run learnt (when it learnt anything) and free c. */
void fingerprint_cache_close(struct fingerprint_cache *c);
/* The same on a thread of its own, which file_digests_free(k) waits for:
 * an edit's build at 10,000 documents writes 1.3 MB there, 7 ms it need
 * not wait for (at once when no thread can start). */
void fingerprint_cache_close_into(struct fingerprint_cache *c, struct file_digests *k);

/* Digests a build took of the documents it read for its own use, each with
 * the file's stat from before the reading: a build that cannot stop early
 * (forced, or a first one) reads each document once, and fingerprints it
 * afterwards from these. Adding is thread-safe. */
struct fingerprint_learned;
struct stat;
struct fingerprint_learned *fingerprint_learned_new(void);
/* rel: the path the walk names the file by ("content/a.md"). */
void fingerprint_learned_add(struct fingerprint_learned *l, const char *rel,
			     const struct stat *st, const unsigned long long h[2]);
void fingerprint_learned_free(struct fingerprint_learned *l);

/* How fingerprint_tree_keep walks (every field may be NULL):
 *  - keep gets each regular file's digest;
 *  - frame gets the same lines as the manifest, except that a regular file
 *    for which unframed(its path) is true is listed without its digest: the
 *    frame changes with every other input, and with the set of such files;
 *  - cache gives digests by stat, and learns them;
 *  - learned gives the digests of the files unframed(path) names (the
 *    documents), as the build read them, and the stat they had then. The
 *    manifest then describes the bytes the build was made of: a document
 *    changed since keeps the digest it was read with (and the cache its older
 *    stat: it is read again next time); a document the build did not read,
 *    or read but the walk no longer finds, is listed as unknown ('?'), so that
 *    the manifest matches no later one. */
struct fingerprint_walk {
	struct file_digests *keep;
	struct buf *frame;
	struct buf *unnamed; /* the frame without the unframed files' names either */
	bool (*unframed)(const char *rel);
	struct fingerprint_cache *cache;
	struct fingerprint_learned *learned;
};
void fingerprint_tree_keep(struct buf *manifest, const char *root, const char *rel, int jobs,
			   const struct fingerprint_walk *how);
/* The kept digest of path; false when it was not hashed. */
bool file_digests_get(const struct file_digests *k, const char *path, unsigned long long out[2]);
void file_digests_free(struct file_digests *k);
/* The same for one file (root/rel). */
void fingerprint_file(struct buf *manifest, const char *root, const char *rel);
/* The hash of a manifest in 32 hex digits (and a NUL). */
void fingerprint_hex(const struct buf *manifest, char out[33]);

#endif
