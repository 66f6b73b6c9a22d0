/* room_hint: the hint beside the output folder for edits of entries'
 * descriptions (see room_hint.h). */
#include "room_hint.h"
#include "buf.h"
#include "path.h"
#include "view.h"
#include "xalloc.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* "ssg-room 3 <frame>\n" (build_state_fingerprint's frame: the program,
 * the options, site.yml and this account's secret: a hint committed with
 * the site counts for nothing); the count of pages (8 bytes) and each
 * one's offset in the file, and then the end of the last (8 bytes each);
 * each page: its path's length (4) and its path; then per document: its
 * name's length (4) and its name, its citations' count (4) and per
 * citation its room (4, signed), its page (4) and its description's hash
 * (8). All in document order, as the model has them: saved in one pass. */
#define ROOM_MAGIC "ssg-room 3 "
#define ROOM_HEAD_LEN (sizeof ROOM_MAGIC - 1 + 32 + 1)
#define CITE_SIZE 16

/* The hint's file, beside outdir: its folder (open) and its name. */
static int room_file(const char *outdir, char **name)
{
	char *parent = path_dirname(outdir);
	*name = xasprintf(".%s" ROOM_HINT_SUFFIX, path_basename(outdir));
	int dfd = open(*parent ? parent : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(parent);
	return dfd;
}

static int replace(const char *outdir, const void *p, size_t n)
{
	char *name;
	int dfd = room_file(outdir, &name);
	int rc = dfd >= 0 ? path_replace_at(dfd, name, p, n) : -1;
	if (dfd >= 0)
		close(dfd);
	free(name);
	return rc;
}

void room_hint_forget(const char *outdir)
{
	char *name;
	int dfd = room_file(outdir, &name);
	if (dfd >= 0) {
		unlinkat(dfd, name, 0);
		close(dfd);
	}
	free(name);
}

static void put_u32(struct buf *b, uint32_t v) { buf_put(b, &v, sizeof v); }
static void put_u64(struct buf *b, uint64_t v) { buf_put(b, &v, sizeof v); }

void room_hint_save(const struct site *s, const char *outdir, const char frame[33])
{
	struct buf b = BUF_INIT;
	room_hint_make(s, frame, &b);
	room_hint_write(outdir, &b);
	buf_free(&b);
}

int room_hint_write(const char *outdir, const struct buf *b)
{
	return replace(outdir, b->p, b->n);
}

void room_hint_make(const struct site *s, const char frame[33], struct buf *into)
{
	/* each resource's description, and the first citation giving it (the
	 * very string: model.c's resource borrows it), in document order as
	 * its citations are (one pass in the order they lie in memory): none
	 * when site.yml gives it */
	const char **desc = xcalloc(s->nres + 1, sizeof *desc);
	int32_t *len = xcalloc(s->nres + 1, sizeof *len);
	size_t *src_doc = xcalloc(s->nres + 1, sizeof *src_doc);
	size_t *src_cite = xcalloc(s->nres + 1, sizeof *src_cite);
	bool *found = xcalloc(s->nres + 1, sizeof *found);
	uint32_t *page = xcalloc(s->nres + 1, sizeof *page);
	size_t npages = 0;
	for (size_t ri = 0; ri < s->nres; ri++) {
		desc[ri] = s->res[ri].desc;
		size_t l = desc[ri] ? strlen(desc[ri]) : 0;
		len[ri] = l < ROOM_HINT_ANY ? (int32_t)l : ROOM_HINT_ANY - 1;
		page[ri] = s->res[ri].has_page ? (uint32_t)npages++ : ROOM_HINT_NO_PAGE;
	}
	size_t ncites = 0;
	for (size_t d = 0; d < s->ndocs; d++)
		for (size_t i = 0; i < s->docs[d].ncites; i++, ncites++) {
			const struct citation *c = &s->docs[d].cites[i];
			if (c->resource >= 0 && !found[c->resource] && desc[c->resource] &&
			    c->desc == desc[c->resource]) {
				found[c->resource] = true;
				src_doc[c->resource] = d;
				src_cite[c->resource] = i;
			}
		}
	/* sized at once: 250,000 citations make 4 MB */
	struct buf out = BUF_INIT;
	buf_grow(&out, 64 + 56 * npages + 80 * s->ndocs + CITE_SIZE * ncites);
	buf_printf(&out, ROOM_MAGIC "%.32s\n", frame);
	put_u64(&out, npages);
	size_t offsets = out.n;
	for (size_t k = 0; k <= npages; k++)
		put_u64(&out, 0);
	size_t k = 0;
	for (size_t ri = 0; ri < s->nres; ri++) {
		if (page[ri] == ROOM_HINT_NO_PAGE)
			continue;
		uint64_t at = out.n;
		memcpy(out.p + offsets + 8 * k++, &at, 8);
		char *dir = view_resource_dir(s, ri);
		size_t dl = strlen(dir);
		put_u32(&out, (uint32_t)(dl + strlen("index.html")));
		buf_put(&out, dir, dl);
		buf_puts(&out, "index.html");
		free(dir);
	}
	uint64_t end = out.n;
	memcpy(out.p + offsets + 8 * npages, &end, 8);
	for (size_t d = 0; d < s->ndocs; d++) {
		const struct doc *doc = &s->docs[d];
		size_t nl = strlen(doc->relpath);
		put_u32(&out, (uint32_t)nl);
		buf_put(&out, doc->relpath, nl);
		put_u32(&out, (uint32_t)doc->ncites);
		for (size_t i = 0; i < doc->ncites; i++) {
			long ri = doc->cites[i].resource;
			int32_t room = ROOM_HINT_ANY; /* no resource, or site.yml's description */
			if (ri >= 0 && (!desc[ri] || found[ri])) {
				bool source = found[ri] && src_doc[ri] == d && src_cite[ri] == i;
				bool before = found[ri] &&
					      (d < src_doc[ri] || (d == src_doc[ri] && i < src_cite[ri]));
				room = source ? -1 : len[ri] - (before ? 1 : 0);
			}
			buf_put(&out, &room, sizeof room);
			put_u32(&out, ri >= 0 ? page[ri] : ROOM_HINT_NO_PAGE);
			put_u64(&out, doc->cites[i].desc_hash);
		}
	}
	*into = out;
	free(desc);
	free(len);
	free(src_doc);
	free(src_cite);
	free(found);
	free(page);
}

static uint32_t get_u32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

int room_hint_open(struct room_hint *h, const char *outdir, const char frame[33])
{
	memset(h, 0, sizeof *h);
	char *name;
	int dfd = room_file(outdir, &name);
	struct stat st;
	h->map = dfd >= 0 ? path_map_regular_at(dfd, name, (size_t)1 << 31, &st) : NULL;
	if (dfd >= 0)
		close(dfd);
	free(name);
	h->fd = -1;
	if (!h->map)
		return -1;
	h->n = (size_t)st.st_size;
	h->dev = (unsigned long long)st.st_dev;
	h->ino = (unsigned long long)st.st_ino;
	bool ok = h->n >= ROOM_HEAD_LEN + 8 &&
		  !memcmp(h->map, ROOM_MAGIC, sizeof ROOM_MAGIC - 1) &&
		  !memcmp(h->map + sizeof ROOM_MAGIC - 1, frame, 32) &&
		  h->map[ROOM_HEAD_LEN - 1] == '\n';
	if (ok) {
		h->npages = get_u64(h->map + ROOM_HEAD_LEN);
		h->pages_at = ROOM_HEAD_LEN + 8;
		ok = h->npages < (h->n - h->pages_at) / 8;
	}
	if (ok) {
		h->docs_at = get_u64(h->map + h->pages_at + 8 * h->npages);
		ok = h->docs_at >= h->pages_at + 8 * (h->npages + 1) && h->docs_at <= h->n;
	}
	if (!ok) {
		room_hint_close(h);
		return -1;
	}
	return 0;
}

void room_hint_close(struct room_hint *h)
{
	if (h->map)
		munmap(h->map, h->n);
	if (h->fd >= 0)
		close(h->fd);
	memset(h, 0, sizeof *h);
	h->fd = -1;
}

void room_hint_docs(const struct room_hint *h, const char *const *names, size_t n, size_t *at,
		    size_t *count)
{
	memset(at, 0, n * sizeof *at);
	size_t found = 0;
	/* each document once, in the file's order (bounds checked) */
	for (size_t p = h->docs_at; found < n && h->n - p >= 8;) {
		uint32_t nl = get_u32(h->map + p);
		if (h->n - p - 4 < (size_t)nl + 4)
			return;
		const char *docname = (const char *)h->map + p + 4;
		uint32_t nc = get_u32(h->map + p + 4 + nl);
		size_t cites = p + 8 + nl;
		if ((h->n - cites) / CITE_SIZE < nc)
			return;
		for (size_t k = 0; k < n; k++)
			if (!at[k] && strlen(names[k]) == nl && !memcmp(names[k], docname, nl)) {
				at[k] = cites;
				count[k] = nc;
				found++;
			}
		p = cites + CITE_SIZE * (size_t)nc;
	}
}

struct room_cite room_hint_cite(const struct room_hint *h, size_t at, size_t i)
{
	const unsigned char *p = h->map + at + CITE_SIZE * i;
	struct room_cite c;
	memcpy(&c.room, p, 4);
	c.page = get_u32(p + 4);
	c.hash = get_u64(p + 8);
	return c;
}

bool room_hint_page(const struct room_hint *h, uint32_t k, const char **path, size_t *len)
{
	if (k >= h->npages)
		return false;
	size_t p = get_u64(h->map + h->pages_at + 8 * (size_t)k);
	if (p < h->pages_at || p > h->docs_at || h->docs_at - p < 4)
		return false;
	uint32_t nl = get_u32(h->map + p);
	if (h->docs_at - p - 4 < (size_t)nl)
		return false;
	*path = (const char *)h->map + p + 4;
	*len = nl;
	return true;
}

size_t room_hint_page_hashes(const struct room_hint *h, uint32_t k, uint64_t **out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	for (size_t p = h->docs_at; h->n - p >= 8;) {
		uint32_t nl = get_u32(h->map + p);
		if (h->n - p - 4 < (size_t)nl + 4)
			break;
		uint32_t nc = get_u32(h->map + p + 4 + nl);
		size_t cites = p + 8 + nl;
		if ((h->n - cites) / CITE_SIZE < nc)
			break;
		for (size_t i = 0; i < nc; i++) {
			const unsigned char *c = h->map + cites + CITE_SIZE * i;
			uint64_t hash = get_u64(c + 8);
			if (get_u32(c + 4) == k && hash) {
				*out = xgrow(*out, &cap, n + 1, sizeof **out);
				(*out)[n++] = hash;
			}
		}
		p = cites + CITE_SIZE * (size_t)nc;
	}
	return n;
}

int room_hint_change_begin(struct room_hint *h, const char *outdir)
{
	char *name;
	int dfd = room_file(outdir, &name);
	h->fd = dfd >= 0 ? openat(dfd, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (dfd >= 0)
		close(dfd);
	free(name);
	struct stat st;
	bool ok = h->fd >= 0 && fstat(h->fd, &st) == 0 && S_ISREG(st.st_mode) &&
		  st.st_nlink == 1 && (unsigned long long)st.st_dev == h->dev &&
		  (unsigned long long)st.st_ino == h->ino;
	/* its magic unsaid: no hint */
	return ok && pwrite(h->fd, "X", 1, 0) == 1 ? 0 : -1;
}

int room_hint_change_hash(struct room_hint *h, size_t at, size_t i, uint64_t v)
{
	off_t where = (off_t)(at + CITE_SIZE * i + 8);
	return h->fd >= 0 && pwrite(h->fd, &v, sizeof v, where) == (ssize_t)sizeof v ? 0 : -1;
}

int room_hint_change_end(struct room_hint *h)
{
	return h->fd >= 0 && pwrite(h->fd, ROOM_MAGIC, 1, 0) == 1 ? 0 : -1;
}

