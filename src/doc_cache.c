/* doc_cache: the per-document cache between builds (see doc_cache.h).
 *
 * The file: "ssg-docs 2 <env>\n", then entries. An entry is a u32 byte
 * count, the relpath, the 16-byte digest of the file, then the document's
 * fields in a fixed order: numbers as little-endian u32/u64, strings as a
 * u32 length (0xFFFFFFFF for none) and bytes. The strings of anchors,
 * headings, citations and links also end with a NUL: a build's documents use
 * them where they lie in the mapped file. Every read is bounds-checked. */
#include "doc_cache.h"
#include "fingerprint.h"
#include "local_key.h"
#include "path.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "ssg-docs 5 "
#define NONE 0xFFFFFFFFu

static const char *entry_of(const struct doc_cache *c, const char *relpath, size_t *n);

/* ---- writing ------------------------------------------------------------------- */

/* A little-endian 32-bit word, as put_u32 writes it. */
static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* v's four bytes at x, the least significant first. */
static void le32_at(unsigned char *x, uint32_t v)
{
	x[0] = (unsigned char)v;
	x[1] = (unsigned char)(v >> 8);
	x[2] = (unsigned char)(v >> 16);
	x[3] = (unsigned char)(v >> 24);
}

static void put_u32(struct buf *b, uint32_t v)
{
	unsigned char x[4];
	le32_at(x, v);
	buf_put(b, x, 4);
}

static void put_u64(struct buf *b, uint64_t v)
{
	put_u32(b, (uint32_t)v);
	put_u32(b, (uint32_t)(v >> 32));
}

static void put_int(struct buf *b, long v) { put_u64(b, (uint64_t)(int64_t)v); }

/* A string's length and bytes, with its NUL when ended (the strings a
 * document keeps in its block: used where they lie in the file). */
static void put_str_ended(struct buf *b, const char *s, bool ended)
{
	if (!s) {
		put_u32(b, NONE);
		return;
	}
	size_t n = strlen(s);
	put_u32(b, (uint32_t)n);
	buf_put(b, s, n + ended);
}

static void put_str(struct buf *b, const char *s) { put_str_ended(b, s, false); }
static void put_doc_str(struct buf *b, const char *s) { put_str_ended(b, s, true); }

static void put_meta(struct buf *b, const struct doc_meta *m)
{
	put_str(b, m->title);
	put_str(b, m->slug);
	put_int(b, m->slug_line);
	put_int(b, m->slug_col);
	put_str(b, m->slug_path);
	put_str(b, m->description);
	put_str(b, m->date);
	put_str(b, m->updated);
	put_int(b, m->weight);
	put_u32(b, (uint32_t)m->has_weight | (uint32_t)m->draft << 1);
	put_u32(b, (uint32_t)m->ntopics);
	for (size_t i = 0; i < m->ntopics; i++)
		put_str(b, m->topics[i]);
	put_int(b, m->topics_line);
	put_int(b, m->topics_col);
	put_str(b, m->topics_path);
}

/* The fields of an entry after its digest; without the body (and what only
 * the body's words give) and what only check reads (citations' listings and
 * entries, images) unless whole. *body_at (when whole): where the
 * body's bytes start in b, or SIZE_MAX when it has none. For a preview
 * (doc_cache_previewable): the format, the metadata and the links to other
 * files alone. Without the entries' descriptions when descs is false
 * (doc_cache_same_but_descs). */
static void put_doc_as(struct buf *b, const struct doc *d, bool whole, size_t *body_at,
		       bool preview, bool descs)
{
	put_u32(b, (uint32_t)d->format);
	put_meta(b, &d->meta);
	if (preview) {
		put_u32(b, (uint32_t)d->nilinks);
		for (size_t i = 0; i < d->nilinks; i++)
			put_doc_str(b, d->ilinks[i].url);
		return;
	}
	put_str(b, d->title);
	put_str(b, d->description);
	if (whole) {
		*body_at = d->body ? b->n + 4 : SIZE_MAX; /* after its length */
		put_str(b, d->body);
	}
	put_u32(b, (uint32_t)d->nanchors);
	for (size_t i = 0; i < d->nanchors; i++)
		put_doc_str(b, d->anchors[i]);
	put_u32(b, (uint32_t)d->nheadings);
	for (size_t i = 0; i < d->nheadings; i++) {
		const struct heading *h = &d->headings[i];
		put_doc_str(b, h->text);
		put_doc_str(b, h->id);
		put_int(b, h->level);
		put_int(b, h->line);
		put_int(b, h->parent);
	}
	put_u32(b, (uint32_t)d->ncites);
	for (size_t i = 0; i < d->ncites; i++) {
		const struct citation *c = &d->cites[i];
		put_doc_str(b, c->url);
		put_doc_str(b, c->canonical);
		put_doc_str(b, c->text);
		put_doc_str(b, c->title);
		put_doc_str(b, descs ? c->desc : NULL);
		put_int(b, c->line);
		put_int(b, c->col);
		put_int(b, c->heading);
		/* check's facts (its listing, its entry) are the entry's alone:
		 * no page shows them, so a record leaves them out */
		put_u32(b, (uint32_t)c->bare | (uint32_t)(whole && c->listing) << 1);
		if (whole) {
			put_int(b, c->entry);
			/* the merge's hash of its URL (site_read.c), not taken again
			 * for 250,000 citations of unchanged documents */
			put_u64(b, c->canonical ? c->canon_hash : 0);
			put_u64(b, c->key[0]); /* cite_key.h: a digest of the rest */
			put_u64(b, c->key[1]);
			put_u64(b, c->desc_hash);
		}
	}
	put_u32(b, (uint32_t)d->nilinks);
	for (size_t i = 0; i < d->nilinks; i++) {
		put_doc_str(b, d->ilinks[i].url);
		put_int(b, d->ilinks[i].line);
		put_int(b, d->ilinks[i].col);
	}
	if (whole) {
		put_u32(b, (uint32_t)d->nimages); /* for check, as the listings */
		for (size_t i = 0; i < d->nimages; i++) {
			put_doc_str(b, d->images[i].url);
			put_int(b, d->images[i].line);
			put_int(b, d->images[i].col);
		}
		put_u64(b, d->hash);
	}
	put_u32(b, (uint32_t)d->diags.n);
	for (size_t i = 0; i < d->diags.n; i++) {
		const struct diag *g = &d->diags.v[i];
		put_str(b, g->path);
		put_int(b, g->line);
		put_int(b, g->col);
		put_u32(b, (uint32_t)g->sev);
		put_str(b, g->code);
		put_str(b, g->msg);
	}
}

static void put_doc(struct buf *b, const struct doc *d, bool whole, size_t *body_at)
{
	put_doc_as(b, d, whole, body_at, false, true);
}

/* About the bytes d's entry takes: its strings, its body and a few dozen
 * bytes of numbers for each of its parts (more is grown into as needed). */
static size_t entry_room(const struct doc *d)
{
	size_t parts = d->ncites + d->nheadings + d->nanchors + d->nilinks + d->nimages;
	return 512 + strlen(d->relpath) + d->strings_size + (d->body ? strlen(d->body) : 0) +
	       48 * parts;
}

size_t doc_cache_put(struct buf *out, const struct doc *d, const unsigned long long digest[2])
{
	/* made in place after its length, which is filled in last: not in a
	 * buffer of its own doubled from 64 bytes to its size, then copied */
	size_t start = out->n;
	buf_grow(out, 4 + entry_room(d));
	put_u32(out, 0);
	put_str(out, d->relpath);
	put_u64(out, digest[0]);
	put_u64(out, digest[1]);
	size_t body_at;
	put_doc(out, d, true, &body_at);
	le32_at((unsigned char *)out->p + start, (uint32_t)(out->n - start - 4));
	return body_at == SIZE_MAX ? SIZE_MAX : body_at - start; /* from the entry's length */
}

static bool same_as(const struct doc *a, const struct doc *b, bool preview, bool descs)
{
	struct buf x = BUF_INIT, y = BUF_INIT;
	put_doc_as(&x, a, false, NULL, preview, descs);
	put_doc_as(&y, b, false, NULL, preview, descs);
	bool same = x.n == y.n && !memcmp(x.p, y.p, x.n);
	buf_free(&x);
	buf_free(&y);
	return same;
}

bool doc_cache_same_record(const struct doc *a, const struct doc *b)
{
	return same_as(a, b, false, true);
}

bool doc_cache_same_but_descs(const struct doc *a, const struct doc *b)
{
	return same_as(a, b, false, false);
}

bool doc_cache_previewable(const struct doc *was, const struct doc *now)
{
	return !diags_count(&now->diags, SEV_ERROR) && same_as(was, now, true, true);
}

void doc_cache_env(const char *source_dir, char env[33])
{
	struct buf m = BUF_INIT;
	buf_puts(&m, MAGIC "\n");
	fingerprint_add_self(&m);
	fingerprint_file(&m, source_dir, "site.yml");
	/* and this account's secret: a cache that came with the site (a pull
	 * request can commit one) does not count */
	buf_puts(&m, local_key());
	fingerprint_hex(&m, env);
	buf_free(&m);
}

bool doc_cache_env_for(const char *source_dir, bool readonly, char env[33])
{
	if (readonly && !local_key_kept()) {
		env[0] = '\0';
		return false;
	}
	doc_cache_env(source_dir, env);
	return true;
}

static int open_cache_dir(const char *source_dir, bool make)
{
	return path_open_subdir(source_dir, DOC_CACHE_DIR, make);
}

#define INDEX_MAGIC "ssg-docs-index 1\n"

/* Write documents.idx for the file in place (whose id is read now): n paths
 * with their entries' offsets and sizes (the length prefix included; an
 * offset of SIZE_MAX: no entry, left out), clean_end where its whole entries
 * end. */
static void save_index(int cfd, const char **paths, const size_t *at, const size_t *size, size_t n,
		       size_t clean_end)
{
	struct stat st;
	if (fstatat(cfd, DOC_CACHE_NAME, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
		return;
	unsigned long long id[5];
	path_file_id(&st, id);
	struct buf b = BUF_INIT;
	buf_puts(&b, INDEX_MAGIC);
	for (size_t k = 0; k < 5; k++)
		put_u64(&b, id[k]);
	put_u64(&b, clean_end);
	size_t present = 0;
	for (size_t i = 0; i < n; i++)
		present += at[i] != SIZE_MAX;
	put_u32(&b, (uint32_t)present);
	for (size_t i = 0; i < n; i++) {
		if (at[i] == SIZE_MAX)
			continue;
		put_str(&b, paths[i]);
		put_u64(&b, at[i]);
		put_u64(&b, size[i]);
	}
	path_replace_at(cfd, DOC_CACHE_INDEX, b.p, b.n);
	buf_free(&b);
}

/* Temporary files of writers that were killed (their process is gone). */
static void remove_dead_temps(int cfd)
{
	int fd = dup(cfd);
	DIR *dh = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dh) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(dh))) {
		char *end;
		size_t pl = strlen(DOC_CACHE_NAME ".");
		if (strncmp(e->d_name, DOC_CACHE_NAME ".", pl)) {
			pl = strlen(DOC_CACHE_INDEX ".");
			if (strncmp(e->d_name, DOC_CACHE_INDEX ".", pl))
				continue;
		}
		long pid = strtol(e->d_name + pl, &end, 10);
		if (pid > 0 && !strcmp(end, ".tmp") && kill((pid_t)pid, 0) && errno == ESRCH)
			unlinkat(cfd, e->d_name, 0);
	}
	closedir(dh);
}

/* c's latest entry of each document, unless skip names it: its path, offset
 * and size, into the arrays (room for c->nkeys). How many. */
static size_t latest_entries(const struct doc_cache *c, const struct hash *skip,
			     const char **paths, size_t *at, size_t *size)
{
	size_t k = 0;
	for (size_t i = 0; i < c->nkeys; i++) {
		size_t latest;
		if (!hash_get(&c->index, c->keys[i], &latest) || latest != i ||
		    (skip && hash_get(skip, c->keys[i], NULL)))
			continue;
		paths[k] = c->keys[i];
		at[k] = c->at[i];
		size[k++] = c->size[i];
	}
	return k;
}

/* The index after entries were appended to the file c mapped: its latest
 * entries, then the new ones, which replace them. */
static void save_appended(const struct doc_cache *c, int cfd, const char **relpaths,
			  const struct buf *entries, size_t n)
{
	struct hash fresh = HASH_INIT;
	for (size_t i = 0; i < n; i++)
		if (entries[i].n)
			hash_put(&fresh, relpaths[i], i);
	size_t total = c->nkeys + n;
	const char **paths = xcalloc(total + 1, sizeof *paths);
	size_t *at = xcalloc(total + 1, sizeof *at), *size = xcalloc(total + 1, sizeof *size);
	size_t k = latest_entries(c, &fresh, paths, at, size);
	size_t end = c->len;
	for (size_t i = 0; i < n; i++)
		if (entries[i].n) {
			paths[k] = relpaths[i];
			size[k] = entries[i].n;
			at[k++] = end;
			end += entries[i].n;
		}
	save_index(cfd, paths, at, size, k, end);
	hash_free(&fresh);
	free(paths);
	free(at);
	free(size);
}

/* The cache is written through stdio with room for this much at a time:
 * its default (a block, 4 KB) made 20,000 writes at 10,000 documents. */
#define WRITE_BUFFER ((size_t)1 << 20)

/* fd (a new cache file) as a stream with a buffer of WRITE_BUFFER bytes in
 * *buf (freed by the caller after fclose; setvbuf given no buffer of its own
 * keeps the default size); NULL, fd closed, when it cannot be had. */
static FILE *open_cache_stream(int fd, char **buf)
{
	*buf = NULL;
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (fd >= 0 && !f)
		close(fd);
	if (f) {
		*buf = xmalloc(WRITE_BUFFER);
		setvbuf(f, *buf, _IOFBF, WRITE_BUFFER);
	}
	return f;
}

/* The whole cache again: each document's new entry, or its old one as it is. */
static int rewrite(const struct doc_cache *c, int cfd, const char env[33], const char **relpaths,
		   struct buf *entries, size_t n)
{
	remove_dead_temps(cfd);
	char tmp[64];
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", DOC_CACHE_NAME, (long)getpid());
	unlinkat(cfd, tmp, 0);
	int fd = openat(cfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	char *fbuf;
	FILE *f = open_cache_stream(fd, &fbuf);
	int head = f ? fprintf(f, MAGIC "%s\n", env) : -1;
	bool ok = head > 0;
	size_t *at = xcalloc(n + 1, sizeof *at), *size = xcalloc(n + 1, sizeof *size);
	size_t end = ok ? (size_t)head : 0;
	for (size_t i = 0; ok && i < n; i++) {
		size_t len = entries[i].n;
		const char *p = entries[i].p;
		if (!len && c->valid)
			p = entry_of(c, relpaths[i], &len);
		ok = !len || fwrite(p, 1, len, f) == len;
		at[i] = len ? end : SIZE_MAX; /* SIZE_MAX: no entry */
		size[i] = len;
		end += len;
		buf_free(&entries[i]); /* memory goes back while the build goes on */
	}
	if (f && fclose(f))
		ok = false;
	free(fbuf);
	if (!ok || path_rename_over_at(cfd, tmp, cfd, DOC_CACHE_NAME)) {
		unlinkat(cfd, tmp, 0);
		ok = false;
	}
	if (ok)
		save_index(cfd, relpaths, at, size, n, end);
	free(at);
	free(size);
	return ok ? 0 : -1;
}

/* The new entries at the end of the file, when it is still the file that
 * was loaded (same size, no torn entry at its end): -1 otherwise. */
static int append(const struct doc_cache *c, int cfd, const char **relpaths, struct buf *entries,
		  size_t n)
{
	int fd = openat(cfd, DOC_CACHE_NAME, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	int rc = -1;
	if (flock(fd, LOCK_EX) == 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size == c->len && c->clean_end == c->len) {
		rc = 0;
		for (size_t i = 0; rc == 0 && i < n; i++)
			if (entries[i].n && write(fd, entries[i].p, entries[i].n) != (ssize_t)entries[i].n)
				rc = -1;
	}
	if (rc == 0)
		save_appended(c, cfd, relpaths, entries, n); /* under the lock still */
	close(fd);
	return rc;
}

int doc_cache_update(const struct doc_cache *c, const char *source_dir, const char env[33],
		     const char **relpaths, struct buf *entries, size_t n)
{
	size_t fresh = 0, live = 0;
	for (size_t i = 0; i < n; i++) {
		size_t len = entries[i].n;
		fresh += len;
		size_t slot;
		if (!len && c->valid && hash_get(&c->index, relpaths[i], &slot))
			len = c->size[slot]; /* known without reading the file */
		live += len;
	}
	if (c->valid && !fresh)
		return 0; /* every document came from the cache */
	int cfd = open_cache_dir(source_dir, true);
	if (cfd < 0)
		return -1;
	/* append while at most half the file is dead entries; else start over */
	int rc = -1;
	if (c->valid && c->len + fresh <= 2 * live + (1u << 20))
		rc = append(c, cfd, relpaths, entries, n);
	if (rc)
		rc = rewrite(c, cfd, env, relpaths, entries, n);
	close(cfd);
	return rc;
}

/* Map the cache file: a regular file, never through a symlink. */
static int map_cache(const char *source_dir, struct doc_cache *c)
{
	int cfd = open_cache_dir(source_dir, false);
	if (cfd < 0)
		return -1;
	int fd = openat(cfd, DOC_CACHE_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(cfd);
	struct stat st;
	int rc = -1;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			c->data = m;
			c->len = (size_t)st.st_size;
			path_file_id(&st, c->id);
			/* kept: the very file mapped (a rewrite renames another in;
			 * an append leaves these bytes as they are) */
			c->fd = fd;
			return 0;
		}
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* ---- a whole new cache, written while documents are read -------------------- */

/* The file in place is read alongside: as long as the new entries are its
 * bytes, nothing is written. At the first difference the temporary file is
 * opened and the part that agreed is copied into it; from then on entries
 * go to the file. A clean build of unchanged documents rewrites nothing
 * (the file's bytes, like a page's, are kept when they would be the same). */
struct doc_cache_stream {
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct buf *entries;   /* put, not yet written */
	bool *ready;
	size_t n, next;        /* entries before next are written */
	int cfd;
	FILE *f;               /* NULL while the file in place agrees */
	char *fbuf;            /* f's buffer (WRITE_BUFFER bytes) */
	char tmp[64];
	struct doc_cache old;  /* the file in place, mapped (data NULL: none) */
	size_t agreed;         /* its bytes the stream has matched so far */
	size_t pos;            /* bytes of the new cache so far */
	struct doc **docs;     /* per entry: the document whose body is to be left */
	size_t *body_at;       /* and where the body lies: in the entry once put,
				* in the file once the entry is placed */
	uint32_t *body_len;    /* and its length, as the entry gives it */
	char **paths;          /* per entry: its document, where it lies in the */
	size_t *entry_at;      /* file and its size (SIZE_MAX: none), for the */
	size_t *entry_size;    /* index (documents.idx) the next load reads */
	int old_fd;            /* the file in place, open (-1: none) */
	int new_fd;            /* the new file, open for reading (-1: none) */
	bool left_early;       /* bodies were left in the file in place */
	bool ok;
	pthread_t thread;
};

static void stream_close_old(struct doc_cache_stream *st)
{
	if (st->old.data) {
		munmap((void *)st->old.data, st->old.len);
		close(st->old.fd);
	}
	st->old.data = NULL;
}

/* From now on the stream writes: a temporary file that starts with what
 * agreed so far. */
static void stream_diverge(struct doc_cache_stream *st)
{
	unlinkat(st->cfd, st->tmp, 0);
	int fd = openat(st->cfd, st->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0644);
	/* bodies are read back from this very file, whatever its name then */
	st->new_fd = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : -1;
	st->f = open_cache_stream(fd, &st->fbuf);
	if (!st->f || (st->agreed && fwrite(st->old.data, 1, st->agreed, st->f) != st->agreed))
		st->ok = false;
	stream_close_old(st);
}

/* Bytes of the new cache, in order. */
static void stream_put_bytes(struct doc_cache_stream *st, const void *p, size_t n)
{
	st->pos += n;
	if (!st->ok || !n)
		return;
	if (!st->f) {
		if (st->old.data && st->old.len - st->agreed >= n &&
		    !memcmp(st->old.data + st->agreed, p, n)) {
			st->agreed += n;
			return;
		}
		stream_diverge(st);
		if (!st->ok)
			return;
	}
	if (fwrite(p, 1, n, st->f) != n)
		st->ok = false;
}

/* d's body is in the cache, its len bytes body_at bytes in: out of memory. */
static void leave_body(struct doc *d, size_t body_at, size_t len)
{
	d->body_len = len;
	d->body_at = (long long)body_at;
	doc_cache_body_drop(d);
}

/* The writer wakes for this many entries in a row, not for each: a wakeup
 * per document (10,000 in a big build) moved it onto a core the readers
 * were parsing on, once each. */
#define STREAM_BATCH 32

/* Whether the writer has work: the STREAM_BATCH entries from next on (all
 * that are left, at the end) are put. Under the lock. */
static bool batch_ready(const struct doc_cache_stream *st)
{
	size_t end = st->n - st->next > STREAM_BATCH ? st->next + STREAM_BATCH : st->n;
	for (size_t k = st->next; k < end; k++)
		if (!st->ready[k])
			return false;
	return true;
}

/* One entry, in its turn: written (or matched with the file in place) and
 * freed. */
static void stream_write_one(struct doc_cache_stream *st, size_t i, struct buf *e)
{
	/* the entry's length, then its document's path (doc_cache_put) */
	uint32_t path_len = e->n >= 8 ? le32((const unsigned char *)e->p + 4) : NONE;
	if (path_len != NONE && path_len <= e->n - 8) {
		st->paths[i] = xstrndup(e->p + 8, path_len);
		st->entry_at[i] = st->pos;
		st->entry_size[i] = e->n;
	}
	struct doc *d = st->docs[i];
	if (d && st->body_at[i] >= 4 && st->body_at[i] < e->n) {
		/* its length, just before it (put_str) */
		st->body_len[i] = le32((const unsigned char *)e->p + st->body_at[i] - 4);
		st->body_at[i] += st->pos; /* where it goes in the file */
	} else
		d = st->docs[i] = NULL;
	stream_put_bytes(st, e->p, e->n);
	/* the same bytes as the file in place: the body is there already */
	if (d && st->ok && !st->f && st->old.data) {
		leave_body(d, st->body_at[i], st->body_len[i]);
		st->docs[i] = NULL;
		st->left_early = true;
	}
	buf_free(e);
}

/* Write the entries in order as they come, a batch at a time. */
static void *stream_writer(void *arg)
{
	struct doc_cache_stream *st = arg;
	struct buf batch[STREAM_BATCH];
	pthread_mutex_lock(&st->lock);
	while (st->next < st->n) {
		while (!batch_ready(st))
			pthread_cond_wait(&st->more, &st->lock);
		size_t from = st->next, k = 0;
		for (; k < STREAM_BATCH && st->next < st->n; k++, st->next++) {
			batch[k] = st->entries[st->next];
			memset(&st->entries[st->next], 0, sizeof batch[k]);
		}
		pthread_mutex_unlock(&st->lock);
		for (size_t b = 0; b < k; b++)
			stream_write_one(st, from + b, &batch[b]);
		pthread_mutex_lock(&st->lock);
	}
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

struct doc_cache_stream *doc_cache_stream_begin(const char *source_dir, const char env[33],
						size_t n)
{
	int cfd = open_cache_dir(source_dir, true);
	if (cfd < 0)
		return NULL;
	remove_dead_temps(cfd);
	struct doc_cache_stream *st = xcalloc(1, sizeof *st);
	st->cfd = cfd;
	st->new_fd = -1;
	snprintf(st->tmp, sizeof st->tmp, "%s.%ld.tmp", DOC_CACHE_NAME, (long)getpid());
	st->ok = true;
	map_cache(source_dir, &st->old);
	/* bodies left in it early are read back from it, should the stream fail */
	st->old_fd = st->old.data ? fcntl(st->old.fd, F_DUPFD_CLOEXEC, 3) : -1;
	char head[sizeof MAGIC + 33]; /* MAGIC, the env's 32 digits, a newline */
	int hn = snprintf(head, sizeof head, MAGIC "%.32s\n", env);
	stream_put_bytes(st, head, hn > 0 && (size_t)hn < sizeof head ? (size_t)hn : 0);
	if (!st->ok) {
		if (st->f)
			fclose(st->f);
		free(st->fbuf);
		if (st->new_fd >= 0)
			close(st->new_fd);
		if (st->old_fd >= 0)
			close(st->old_fd);
		unlinkat(cfd, st->tmp, 0);
		stream_close_old(st);
		close(cfd);
		free(st);
		return NULL;
	}
	st->n = n;
	st->docs = xcalloc(n + 1, sizeof *st->docs);
	st->body_at = xcalloc(n + 1, sizeof *st->body_at);
	st->body_len = xcalloc(n + 1, sizeof *st->body_len);
	st->paths = xcalloc(n + 1, sizeof *st->paths);
	st->entry_at = xmalloc((n + 1) * sizeof *st->entry_at);
	for (size_t i = 0; i <= n; i++)
		st->entry_at[i] = SIZE_MAX;
	st->entry_size = xcalloc(n + 1, sizeof *st->entry_size);
	st->entries = xcalloc(n + 1, sizeof *st->entries);
	st->ready = xcalloc(n + 1, sizeof *st->ready);
	pthread_mutex_init(&st->lock, NULL);
	pthread_cond_init(&st->more, NULL);
	if (pthread_create(&st->thread, NULL, stream_writer, st)) {
		st->ok = false;
		st->next = n; /* nothing will be written */
		st->thread = pthread_self();
	}
	return st;
}

void doc_cache_stream_put(struct doc_cache_stream *st, size_t i, struct buf *entry,
			  struct doc *d, size_t body_at)
{
	pthread_mutex_lock(&st->lock);
	st->docs[i] = d && d->body && body_at != SIZE_MAX ? d : NULL;
	st->body_at[i] = body_at;
	st->entries[i] = *entry;
	memset(entry, 0, sizeof *entry);
	st->ready[i] = true;
	/* only an entry of the run the writer waits for can complete it */
	if (i - st->next < STREAM_BATCH && batch_ready(st))
		pthread_cond_signal(&st->more);
	pthread_mutex_unlock(&st->lock);
}

int doc_cache_stream_end(struct doc_cache_stream *st, int *bodies_fd)
{
	*bodies_fd = 0;
	if (!st)
		return -1;
	if (!pthread_equal(st->thread, pthread_self()))
		pthread_join(st->thread, NULL);
	bool ok = st->ok;
	/* every byte agreed, and the file has no more: it stays as it is */
	bool same = ok && !st->f && st->old.data && st->agreed == st->old.len;
	if (ok && !st->f && !same)
		stream_diverge(st); /* shorter than the file in place */
	ok = st->ok;
	if (st->f && fclose(st->f))
		ok = false;
	free(st->fbuf);
	st->fbuf = NULL;
	if (!same && (!ok || path_rename_over_at(st->cfd, st->tmp, st->cfd, DOC_CACHE_NAME))) {
		unlinkat(st->cfd, st->tmp, 0);
		ok = false;
	}
	/* its index, so that the next load need not walk 170 MB to make one */
	if (ok)
		save_index(st->cfd, (const char **)st->paths, st->entry_at, st->entry_size, st->n,
			   st->pos);
	/* the bodies left early lie in the file in place, and in the new one
	 * (which starts with the bytes that agreed); the others in the new one
	 * only, so they are left now that it is in place */
	int whole = ok ? (same ? st->old_fd : st->new_fd) : -1; /* holds every entry */
	int fd = whole > 2 ? whole : st->left_early ? st->old_fd : -1;
	bool left = st->left_early;
	for (size_t i = 0; whole > 2 && i < st->n; i++)
		if (st->docs[i]) {
			leave_body(st->docs[i], st->body_at[i], st->body_len[i]);
			left = true;
		}
	if (st->new_fd >= 0 && st->new_fd != fd)
		close(st->new_fd);
	if (st->old_fd >= 0 && st->old_fd != fd)
		path_close_behind(st->old_fd); /* the file replaced, freed as it closes */
	if (fd > 2 && left)
		*bodies_fd = fd;
	else if (fd >= 0)
		close(fd);
	free(st->docs);
	free(st->body_at);
	free(st->body_len);
	for (size_t i = 0; i < st->n; i++)
		free(st->paths[i]);
	free(st->paths);
	free(st->entry_at);
	free(st->entry_size);
	stream_close_old(st);
	close(st->cfd);
	for (size_t i = 0; i < st->n; i++)
		buf_free(&st->entries[i]);
	free(st->entries);
	free(st->ready);
	pthread_mutex_destroy(&st->lock);
	pthread_cond_destroy(&st->more);
	free(st);
	return ok ? 0 : -1;
}

/* ---- reading ------------------------------------------------------------------- */

struct reader {
	const unsigned char *p, *end;
	bool bad;
	char *used;  /* the end of what get_doc_str filled */
	bool borrow; /* get_doc_str points into the file, not a copy */
};

static uint32_t get_u32(struct reader *r)
{
	if (r->end - r->p < 4) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	uint32_t v = le32(r->p);
	r->p += 4;
	return v;
}

static uint64_t get_u64(struct reader *r)
{
	uint64_t lo = get_u32(r);
	return lo | (uint64_t)get_u32(r) << 32;
}

static long get_int(struct reader *r) { return (long)(int64_t)get_u64(r); }

/* The next n (at most TAKE_MOST) bytes of fixed-size fields, checked once:
 * zeros (and the reader bad) when fewer are left, as get_u32 gives. Read
 * with the at_ helpers. */
#define TAKE_MOST 68
static const unsigned char *take(struct reader *r, size_t n)
{
	static const unsigned char zeros[TAKE_MOST];
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return zeros;
	}
	const unsigned char *at = r->p;
	r->p += n;
	return at;
}

static uint64_t at_u64(const unsigned char *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }
static long at_int(const unsigned char *p) { return (long)(int64_t)at_u64(p); }

static char *get_str(struct reader *r)
{
	uint32_t n = get_u32(r);
	if (n == NONE || r->bad)
		return NULL;
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return NULL;
	}
	char *s = xstrndup((const char *)r->p, n);
	r->p += n;
	return s;
}

/* One of the strings of d's block (see get_doc), with its NUL: where it lies
 * in the file, or copied into the block. */
static inline __attribute__((always_inline)) char *get_doc_str(struct reader *r, struct doc *d)
{
	uint32_t n = get_u32(r);
	if (n == NONE || r->bad)
		return NULL;
	size_t room = d->strings_size - (size_t)(r->used - d->strings);
	if ((size_t)(r->end - r->p) <= n || r->p[n] != '\0' || (!r->borrow && room <= (size_t)n)) {
		r->bad = true;
		r->p = r->end;
		return NULL;
	}
	char *s = r->borrow ? (char *)r->p : r->used;
	if (!r->borrow) {
		memcpy(s, r->p, (size_t)n + 1);
		r->used += n + 1;
	}
	r->p += n + 1;
	return s;
}

/* A count of items of at least min_size bytes each: bounded by what is left. */
static size_t get_count(struct reader *r, size_t min_size)
{
	uint32_t n = get_u32(r);
	if ((size_t)(r->end - r->p) / min_size < n) {
		r->bad = true;
		return 0;
	}
	return n;
}

static void get_meta(struct reader *r, struct doc_meta *m)
{
	m->title = get_str(r);
	m->slug = get_str(r);
	m->slug_line = (int)get_int(r);
	m->slug_col = (int)get_int(r);
	m->slug_path = get_str(r);
	m->description = get_str(r);
	m->date = get_str(r);
	m->updated = get_str(r);
	m->weight = get_int(r);
	uint32_t flags = get_u32(r);
	m->has_weight = flags & 1;
	m->draft = flags & 2;
	m->ntopics = get_count(r, 4);
	m->topics = xcalloc(m->ntopics + 1, sizeof *m->topics);
	for (size_t i = 0; i < m->ntopics; i++)
		m->topics[i] = get_str(r);
	m->topics_line = (int)get_int(r);
	m->topics_col = (int)get_int(r);
	m->topics_path = get_str(r);
}

/* base: where the file starts, with a lazy body (NULL: the body is copied). */
static void get_doc(struct reader *r, struct doc *d, const char *base)
{
	uint32_t format = get_u32(r);
	if (format > FMT_RST)
		r->bad = true;
	d->format = format == FMT_RST ? FMT_RST : FMT_MARKDOWN;
	get_meta(r, &d->meta);
	d->title = get_str(r);
	d->description = get_str(r);
	if (base) {
		/* left in the file: 100 MB of pages at 10,000 documents, of which a
		 * build renders the few that changed */
		uint32_t n = get_u32(r);
		if (n == NONE || (size_t)(r->end - r->p) < n)
			r->bad = true;
		else {
			d->body_in_cache = true;
			d->body_at = (long long)((const char *)r->p - base);
			d->body_len = n;
			r->p += n;
		}
	} else
		d->body = get_str(r);
	/* the strings from here on lie in the bytes left: the block is those
	 * bytes themselves, or a copy as large */
	d->strings_size = (size_t)(r->end - r->p) + 1;
	if (r->borrow) {
		d->strings = (char *)r->p;
		d->strings_mapped = true;
	} else
		d->strings = xmalloc(d->strings_size);
	r->used = d->strings;
	/* the arrays are filled whole, each with a zeroed element after its
	 * last (as xcalloc left them): not cleared first, 250,000 citations
	 * at 10,000 documents */
	d->nanchors = d->capanchors = get_count(r, 4);
	d->anchors = xmalloc((d->nanchors + 1) * sizeof *d->anchors);
	for (size_t i = 0; i < d->nanchors; i++)
		d->anchors[i] = get_doc_str(r, d);
	d->anchors[d->nanchors] = NULL;
	d->nheadings = get_count(r, 32);
	d->headings = xmalloc((d->nheadings + 1) * sizeof *d->headings);
	for (size_t i = 0; i < d->nheadings; i++) {
		struct heading *h = &d->headings[i];
		char *text = get_doc_str(r, d); /* in this order: an initializer's
						* expressions are not sequenced */
		*h = (struct heading){.text = text, .id = get_doc_str(r, d)};
		const unsigned char *f = take(r, 24);
		h->level = (int)at_int(f);
		h->line = (int)at_int(f + 8);
		h->parent = (int)at_int(f + 16);
		if (h->parent < -1 || h->parent >= (int)i) /* a section before it, or none */
			r->bad = true;
	}
	d->headings[d->nheadings] = (struct heading){0};
	d->ncites = d->capcites = get_count(r, 80);
	d->cites = xmalloc((d->ncites + 1) * sizeof *d->cites);
	for (size_t i = 0; i < d->ncites; i++) {
		struct citation *c = &d->cites[i];
		*c = (struct citation){.url = get_doc_str(r, d), .resource = -1};
		c->canonical = get_doc_str(r, d);
		c->text = get_doc_str(r, d);
		c->title = get_doc_str(r, d);
		c->desc = get_doc_str(r, d);
		/* the rest is fixed in size: checked once (250,000 citations) */
		const unsigned char *f = take(r, TAKE_MOST); /* 3 ints, flags, an int, 4 u64 */
		c->line = (int)at_int(f);
		c->col = (int)at_int(f + 8);
		c->heading = (int)at_int(f + 16);
		uint32_t flags = le32(f + 24);
		c->bare = flags & 1;
		c->listing = flags & 2;
		c->entry = (int)at_int(f + 28);
		c->canon_hash = at_u64(f + 36);
		c->key[0] = at_u64(f + 44);
		c->key[1] = at_u64(f + 52);
		c->desc_hash = at_u64(f + 60);
		if (!c->url || !c->title || c->heading < -1 || c->heading >= (long)d->nheadings ||
		    c->entry < 0 || c->entry > (long)i + 1 || (!c->canonical && c->canon_hash))
			r->bad = true;
	}
	d->cites[d->ncites] = (struct citation){0};
	d->nilinks = d->capilinks = get_count(r, 20);
	d->ilinks = xcalloc(d->nilinks + 1, sizeof *d->ilinks);
	for (size_t i = 0; i < d->nilinks; i++) {
		d->ilinks[i].url = get_doc_str(r, d);
		d->ilinks[i].line = (int)get_int(r);
		d->ilinks[i].col = (int)get_int(r);
		d->ilinks[i].target = -1;
		if (!d->ilinks[i].url)
			r->bad = true;
	}
	d->nimages = d->capimages = get_count(r, 20);
	d->images = xcalloc(d->nimages + 1, sizeof *d->images);
	for (size_t i = 0; i < d->nimages; i++) {
		d->images[i].url = get_doc_str(r, d);
		d->images[i].line = (int)get_int(r);
		d->images[i].col = (int)get_int(r);
		if (!d->images[i].url)
			r->bad = true;
	}
	d->hash = get_u64(r);
	size_t nd = get_count(r, 32);
	for (size_t i = 0; i < nd && !r->bad; i++) {
		char *path = get_str(r);
		int line = (int)get_int(r), col = (int)get_int(r);
		uint32_t sev = get_u32(r);
		char *code = get_str(r), *msg = get_str(r);
		if (!r->bad && path && msg && sev <= SEV_ERROR) {
			if (code)
				diag_addc(&d->diags, (enum severity)sev, code, path, line, col, "%s", msg);
			else
				diag_add(&d->diags, (enum severity)sev, path, line, col, "%s", msg);
		} else
			r->bad = true;
		free(path);
		free(code);
		free(msg);
	}
	for (size_t i = 0; i < d->nheadings; i++)
		if (!d->headings[i].text || !d->headings[i].id)
			r->bad = true;
	if (!d->title || !(d->body || d->body_in_cache) || r->p != r->end)
		r->bad = true;
}

/* Forget c's index (the file stays mapped). */
static void drop_index(struct doc_cache *c)
{
	for (size_t i = 0; i < c->nkeys; i++)
		free(c->keys[i]);
	free(c->keys);
	free(c->at);
	free(c->size);
	hash_free(&c->index);
	c->keys = NULL;
	c->at = c->size = NULL;
	c->nkeys = 0;
}

/* The index from documents.idx, when it describes the file c mapped (its
 * id) and every offset lies past the header (head bytes) and inside the
 * file's whole entries. */
static bool load_index(struct doc_cache *c, const char *source_dir, size_t head)
{
	int cfd = open_cache_dir(source_dir, false);
	int fd = cfd >= 0 ? openat(cfd, DOC_CACHE_INDEX, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (cfd >= 0)
		close(cfd);
	struct buf b = BUF_INIT;
	struct stat st;
	bool ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		  st.st_size < (1 << 28);
	if (ok) {
		buf_grow(&b, (size_t)st.st_size + 1);
		ok = read(fd, b.p, (size_t)st.st_size) == st.st_size;
		b.n = ok ? (size_t)st.st_size : 0;
	}
	if (fd >= 0)
		close(fd);
	const size_t ml = strlen(INDEX_MAGIC);
	ok = ok && b.n >= ml && !memcmp(b.p, INDEX_MAGIC, ml);
	struct reader r = {(const unsigned char *)b.p + (ok ? ml : 0),
			   (const unsigned char *)b.p + b.n, !ok, NULL, false};
	for (size_t k = 0; k < 5 && !r.bad; k++)
		if (get_u64(&r) != c->id[k])
			r.bad = true;
	size_t clean_end = (size_t)get_u64(&r);
	uint32_t n = get_u32(&r);
	if (r.bad || clean_end > c->len || n > (size_t)(r.end - r.p) / 12) {
		buf_free(&b);
		return false;
	}
	c->keys = xcalloc((size_t)n + 1, sizeof *c->keys);
	c->at = xcalloc((size_t)n + 1, sizeof *c->at);
	c->size = xcalloc((size_t)n + 1, sizeof *c->size);
	for (uint32_t i = 0; i < n && !r.bad; i++) {
		char *rel = get_str(&r);
		uint64_t at = get_u64(&r), size = get_u64(&r);
		if (r.bad || !rel || at < head || size > clean_end || at + size > clean_end) {
			free(rel);
			r.bad = true;
			break;
		}
		c->keys[c->nkeys] = rel;
		c->at[c->nkeys] = (size_t)at;
		c->size[c->nkeys] = (size_t)size;
		hash_put(&c->index, rel, c->nkeys++);
	}
	buf_free(&b);
	if (r.bad) { /* a damaged index: the walk instead */
		drop_index(c);
		return false;
	}
	c->clean_end = clean_end;
	return true;
}

static void load(struct doc_cache *c, const char *source_dir, const char env[33], bool readonly)
{
	memset(c, 0, sizeof *c);
	c->fd = -1;
	char want[64];
	snprintf(want, sizeof want, MAGIC "%s\n", env);
	size_t wl = strlen(want);
	if (map_cache(source_dir, c))
		return;
	if (c->len < wl || memcmp(c->data, want, wl))
		return; /* another program or site.yml: rewritten whole */
	if (load_index(c, source_dir, wl)) {
		c->valid = true;
		c->from_index = true;
		return;
	}
	struct reader r = {(const unsigned char *)c->data + wl,
			   (const unsigned char *)c->data + c->len, false, NULL, false};
	size_t cap = 0, capat = 0, capsize = 0;
	c->clean_end = wl;
	while (r.p < r.end) {
		size_t at = (size_t)((const char *)r.p - c->data);
		uint32_t len = get_u32(&r);
		if (r.bad || (size_t)(r.end - r.p) < len)
			break;
		struct reader e = {r.p, r.p + len, false, NULL, false};
		char *rel = get_str(&e);
		if (e.bad || !rel) {
			free(rel);
			break;
		}
		/* a later entry for the same document replaces an earlier one */
		c->keys = xgrow(c->keys, &cap, c->nkeys + 1, sizeof *c->keys);
		c->at = xgrow(c->at, &capat, c->nkeys + 1, sizeof *c->at);
		c->size = xgrow(c->size, &capsize, c->nkeys + 1, sizeof *c->size);
		c->keys[c->nkeys] = rel;
		c->at[c->nkeys] = at;
		c->size[c->nkeys] = 4 + (size_t)len;
		hash_put(&c->index, rel, c->nkeys++);
		r.p += len;
		c->clean_end = (size_t)((const char *)r.p - c->data);
	}
	c->valid = true;
	/* the walk's result, kept for the next load (when no torn entry ends
	 * the file, and the loader may write) */
	int cfd = c->clean_end == c->len && !readonly ? open_cache_dir(source_dir, false) : -1;
	if (cfd >= 0) {
		const char **paths = xcalloc(c->nkeys + 1, sizeof *paths);
		size_t *at = xcalloc(c->nkeys + 1, sizeof *at);
		size_t *size = xcalloc(c->nkeys + 1, sizeof *size);
		size_t k = latest_entries(c, NULL, paths, at, size);
		save_index(cfd, paths, at, size, k, c->clean_end);
		free(paths);
		free(at);
		free(size);
		close(cfd);
	}
}

void doc_cache_load(struct doc_cache *c, const char *source_dir, const char env[33])
{
	load(c, source_dir, env, false);
}

void doc_cache_load_readonly(struct doc_cache *c, const char *source_dir, const char env[33])
{
	load(c, source_dir, env, true);
}

/* The bytes of relpath's entry (its length prefix included), or NULL. */
static const char *entry_of(const struct doc_cache *c, const char *relpath, size_t *n)
{
	size_t slot;
	if (!c->index.n || !hash_get(&c->index, relpath, &slot))
		return NULL;
	size_t at = c->at[slot];
	if (at + 4 > c->clean_end)
		return NULL;
	const unsigned char *p = (const unsigned char *)c->data + at;
	size_t len = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;
	if (len > c->clean_end - at - 4)
		return NULL;
	/* the entry names its document first: an index from documents.idx is
	 * only trusted as far as that */
	size_t rl = strlen(relpath);
	if (len < 4 + rl || p[4] != (unsigned char)rl || p[5] != (unsigned char)(rl >> 8) ||
	    p[6] != (unsigned char)(rl >> 16) || p[7] != (unsigned char)(rl >> 24) ||
	    memcmp(p + 8, relpath, rl))
		return NULL;
	*n = 4 + len;
	return c->data + at;
}

bool doc_cache_get(const struct doc_cache *c, const char *relpath,
		   const unsigned long long digest[2], struct doc *d)
{
	size_t n;
	const char *entry = entry_of(c, relpath, &n);
	if (!entry)
		return false;
	struct reader r = {(const unsigned char *)entry + 4, (const unsigned char *)entry + n, false, NULL,
			   c->borrow_strings};
	free(get_str(&r));
	if (get_u64(&r) != digest[0] || get_u64(&r) != digest[1] || r.bad)
		return false;
	struct doc got = {0};
	get_doc(&r, &got, c->lazy_bodies ? c->data : NULL);
	if (r.bad) {
		doc_free(&got);
		return false;
	}
	/* keep what the caller set: index and names */
	got.index = d->index;
	got.relpath = d->relpath;
	got.shown = d->shown;
	*d = got;
	return true;
}

void doc_cache_free(struct doc_cache *c)
{
	drop_index(c);
	if (c->data) {
		if (!c->map_kept)
			munmap((void *)c->data, c->len);
		close(c->fd); /* open while mapped */
	}
	memset(c, 0, sizeof *c);
	c->fd = -1;
}

void doc_cache_body_drop(struct doc *d)
{
	free(d->body);
	d->body = NULL;
	d->body_in_cache = true;
}

const char *doc_cache_body(struct doc *d, int fd)
{
	if (d->body || !d->body_in_cache)
		return d->body;
	char *b = xmalloc(d->body_len + 1);
	size_t got = 0;
	while (fd >= 0 && got < d->body_len) {
		ssize_t r = pread(fd, b + got, d->body_len - got, (off_t)d->body_at + (off_t)got);
		if (r <= 0 && !(r < 0 && errno == EINTR))
			break;
		if (r > 0)
			got += (size_t)r;
	}
	if (got < d->body_len) {
		free(b);
		return NULL;
	}
	b[got] = '\0';
	d->body = b;
	d->body_in_cache = false;
	return b;
}
