/* room_hint: the hint beside the output folder for edits of entries'
 * descriptions (see room_hint.h). */
#include "room_hint.h"
#include "buf.h"
#include "digest.h"
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
 * the site counts for nothing); the count of pages (8 bytes) and each one's offset in the
 * file, and then the end of the last (8 bytes each); each page: its path's
 * length (4) and its path, its hashes' count (4) and its hashes (8 each);
 * then per document: its name's length (4) and its name, its citations'
 * count (4) and each citation's room (4, signed) and page (4). */
#define ROOM_MAGIC "ssg-room 3 "
#define ROOM_HEAD_LEN (sizeof ROOM_MAGIC - 1 + 32 + 1)

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

uint64_t room_hint_desc_hash(const char *desc)
{
	if (!desc || !*desc)
		return 0;
	struct digest d;
	digest_start(&d);
	digest_feed(&d, desc, strlen(desc));
	unsigned long long out[2];
	digest_end(&d, out);
	return out[0] ? out[0] : 1;
}

static void put_u32(struct buf *b, uint32_t v) { buf_put(b, &v, sizeof v); }
static void put_u64(struct buf *b, uint64_t v) { buf_put(b, &v, sizeof v); }

void room_hint_save(const struct site *s, const char *outdir, const char frame[33])
{
	/* each resource's description, and the first citation giving it (the
	 * very string: model.c's resource borrows it), in document order as
	 * its citations are: none when site.yml gives it */
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
	for (size_t d = 0; d < s->ndocs; d++)
		for (size_t i = 0; i < s->docs[d].ncites; i++) {
			const struct citation *c = &s->docs[d].cites[i];
			if (c->resource >= 0 && !found[c->resource] && desc[c->resource] &&
			    c->desc == desc[c->resource]) {
				found[c->resource] = true;
				src_doc[c->resource] = d;
				src_cite[c->resource] = i;
			}
		}
	struct buf out = BUF_INIT;
	buf_printf(&out, ROOM_MAGIC "%.32s\n", frame);
	put_u64(&out, npages);
	size_t offsets = out.n;
	for (size_t k = 0; k <= npages; k++)
		put_u64(&out, 0);
	size_t k = 0;
	for (size_t ri = 0; ri < s->nres; ri++) {
		const struct resource *r = &s->res[ri];
		if (page[ri] == ROOM_HINT_NO_PAGE)
			continue;
		uint64_t at = out.n;
		memcpy(out.p + offsets + 8 * k++, &at, 8);
		char *dir = view_resource_dir(s, ri);
		char *path = xasprintf("%sindex.html", dir);
		put_u32(&out, (uint32_t)strlen(path));
		buf_puts(&out, path);
		free(path);
		free(dir);
		size_t count_at = out.n;
		uint32_t count = 0;
		put_u32(&out, 0);
		for (size_t i = 0; i < r->nrefs; i++) {
			const struct citation *c = &s->docs[r->refs[i].doc].cites[r->refs[i].cite];
			uint64_t h = room_hint_desc_hash(c->desc);
			if (h) {
				put_u64(&out, h);
				count++;
			}
		}
		memcpy(out.p + count_at, &count, 4);
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
		}
	}
	replace(outdir, out.p, out.n); /* a hint: unwritten, none */
	buf_free(&out);
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
	if (!h->map)
		return -1;
	h->n = (size_t)st.st_size;
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
	if (h->copied)
		free(h->map);
	else if (h->map)
		munmap(h->map, h->n);
	memset(h, 0, sizeof *h);
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
		if ((h->n - cites) / 8 < nc)
			return;
		for (size_t k = 0; k < n; k++)
			if (!at[k] && strlen(names[k]) == nl && !memcmp(names[k], docname, nl)) {
				at[k] = cites;
				count[k] = nc;
				found++;
			}
		p = cites + 8 * (size_t)nc;
	}
}

struct room_cite room_hint_cite(const struct room_hint *h, size_t at, size_t i)
{
	struct room_cite c;
	memcpy(&c.room, h->map + at + 8 * i, 4);
	c.page = get_u32(h->map + at + 8 * i + 4);
	return c;
}

bool room_hint_page(const struct room_hint *h, uint32_t k, const char **path, size_t *len,
		    size_t *hashes, size_t *nhashes)
{
	if (k >= h->npages)
		return false;
	size_t p = get_u64(h->map + h->pages_at + 8 * (size_t)k);
	if (p < h->pages_at || p > h->docs_at || h->docs_at - p < 4)
		return false;
	uint32_t nl = get_u32(h->map + p);
	if (h->docs_at - p - 4 < (size_t)nl + 4)
		return false;
	*path = (const char *)h->map + p + 4;
	*len = nl;
	uint32_t nh = get_u32(h->map + p + 4 + nl);
	*hashes = p + 8 + nl;
	if ((h->docs_at - *hashes) / 8 < nh)
		return false;
	*nhashes = nh;
	return true;
}

uint64_t room_hint_hash_at(const struct room_hint *h, size_t hashes, size_t i)
{
	return get_u64(h->map + hashes + 8 * i);
}

void room_hint_set_hash(struct room_hint *h, size_t hashes, size_t i, uint64_t v)
{
	if (!h->copied) {
		unsigned char *copy = xmalloc(h->n + 1);
		memcpy(copy, h->map, h->n);
		munmap(h->map, h->n);
		h->map = copy;
		h->copied = true;
	}
	memcpy(h->map + hashes + 8 * i, &v, 8);
}

int room_hint_resave(const struct room_hint *h, const char *outdir)
{
	return replace(outdir, h->map, h->n);
}
