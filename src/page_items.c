/* page_items: the entries of the site in place's list pages (see page_items.h). */
#include "page_items.h"
#include "build_state.h"
#include "buf.h"
#include "digest.h"
#include "path.h"
#include "xalloc.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define ITEMS_MAGIC "ssg-items 1"

/* After the first line: the counts of pages and entries, the entries, then
 * each page: its file, its first entry, its count and its path's length,
 * then the path. */
struct page_head {
	struct output_file file;
	unsigned long long from, n, pathlen;
};

void page_items_load(struct page_items *p, const char *outdir, const char env[33])
{
	memset(p, 0, sizeof *p);
	struct buf b = BUF_INIT;
	size_t at = build_state_read_headed(outdir, BUILD_ITEMS_FILE, ITEMS_MAGIC " ", env, &b);
	unsigned long long counts[2];
	if (!at || b.n - at < sizeof counts)
		goto out;
	memcpy(counts, b.p + at, sizeof counts);
	at += sizeof counts;
	if (counts[1] > (b.n - at) / sizeof *p->v)
		goto out;
	size_t entries_at = at, nentries = counts[1];
	at += nentries * sizeof *p->v;
	for (unsigned long long k = 0; k < counts[0]; k++) {
		struct page_head h;
		if (b.n - at < sizeof h)
			goto bad;
		memcpy(&h, b.p + at, sizeof h);
		at += sizeof h;
		if (h.from > nentries || h.n > nentries - h.from || !h.pathlen ||
		    h.pathlen > b.n - at || memchr(b.p + at, '\0', h.pathlen))
			goto bad;
		p->pages = xgrow(p->pages, &p->cappages, p->npages + 1, sizeof *p->pages);
		p->pages[p->npages++] = (struct page_items_page){xstrndup(b.p + at, h.pathlen), h.file,
								 h.from, h.n};
		at += h.pathlen;
	}
	if (at != b.n)
		goto bad;
	/* the entries become the file's bytes, moved to the front of the
	 * block they were read into: 7 MB at 10,000 documents, copied into
	 * fresh memory they cost a page fault each 4 KB (the block holds the
	 * heads and the first line as well: room for one more entry) */
	memmove(b.p, b.p + entries_at, nentries * sizeof *p->v);
	p->v = (struct page_item *)(void *)b.p;
	p->n = nentries;
	p->cap = b.cap / sizeof *p->v;
	b = (struct buf)BUF_INIT;
	for (size_t i = 0; i < p->npages; i++)
		hash_put(&p->index, p->pages[i].path, i);
	goto out;
bad:
	page_items_free(p);
out:
	buf_free(&b);
}

const struct page_items_page *page_items_find(const struct page_items *p, const char *path)
{
	size_t i;
	return p->index.n && hash_get(&p->index, path, &i) ? &p->pages[i] : NULL;
}

void page_items_desc_key(bool escaped, const char *bytes, size_t n, unsigned long long key[2])
{
	struct digest d;
	digest_start(&d);
	digest_feed(&d, escaped ? "desc-html" : "desc-raw", escaped ? 9 : 8);
	digest_feed(&d, bytes, n);
	digest_end(&d, key);
}

void page_items_add(struct page_items *p, const char *path, const struct output_file *file,
		    const struct page_item *v, size_t n)
{
	p->v = xgrow(p->v, &p->cap, p->n + n, sizeof *p->v);
	memcpy(p->v + p->n, v, n * sizeof *v);
	p->pages = xgrow(p->pages, &p->cappages, p->npages + 1, sizeof *p->pages);
	p->pages[p->npages++] = (struct page_items_page){xstrdup(path), *file, p->n, n};
	p->n += n;
}

void page_items_set(struct page_items *p, const char *path, const struct output_file *file,
		    const struct page_item *v, size_t n)
{
	const struct page_items_page *found = page_items_find(p, path);
	if (!found) {
		page_items_add(p, path, file, v, n);
		hash_put(&p->index, p->pages[p->npages - 1].path, p->npages - 1);
		return;
	}
	struct page_items_page *g = &p->pages[found - p->pages];
	if (n > g->n) { /* moved to the end: the old ones stay unused until a build */
		p->v = xgrow(p->v, &p->cap, p->n + n, sizeof *p->v);
		g->from = p->n;
		p->n += n;
	}
	memcpy(p->v + g->from, v, n * sizeof *v);
	g->n = n;
	g->file = *file;
}

size_t page_items_note_descs(const char *page, const struct mustache_items *places,
			     struct page_item *v)
{
	size_t n = 0;
	for (size_t k = 0; k < places->n; k++) {
		const struct mustache_item_place *p = &places->v[k];
		if (!p->val_once || p->val_at > UINT32_MAX || p->val_len > UINT32_MAX)
			continue;
		struct page_item *e = &v[n++];
		page_items_desc_key(p->val_escaped, page + p->val_at, p->val_len, e->key);
		e->at = (uint32_t)p->val_at;
		e->len = (uint32_t)p->val_len;
	}
	return n;
}

int page_items_file_open(struct page_items_file *f, const char *outdir, const char env[33])
{
	memset(f, 0, sizeof *f);
	char *file = path_join(outdir, BUILD_ITEMS_FILE);
	f->fd = open(file, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	free(file);
	struct stat st;
	size_t head = strlen(ITEMS_MAGIC) + 1 + 32 + 1;
	bool ok = f->fd >= 0 && fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode) &&
		  st.st_nlink == 1 && (size_t)st.st_size >= head + 16;
	if (ok) {
		f->n = (size_t)st.st_size;
		f->map = mmap(NULL, f->n, PROT_READ, MAP_SHARED, f->fd, 0);
		ok = f->map != MAP_FAILED;
		if (!ok)
			f->map = NULL;
	}
	ok = ok && !memcmp(f->map, ITEMS_MAGIC " ", strlen(ITEMS_MAGIC) + 1) &&
	     !memcmp(f->map + strlen(ITEMS_MAGIC) + 1, env, 32) && f->map[head - 1] == '\n';
	if (ok) {
		memcpy(&f->npages, f->map + head, 8);
		memcpy(&f->nentries, f->map + head + 8, 8);
		f->entries = head + 16;
		ok = f->nentries <= (f->n - f->entries) / sizeof(struct page_item);
		f->heads = f->entries + (size_t)f->nentries * sizeof(struct page_item);
	}
	if (!ok) {
		page_items_file_close(f);
		return -1;
	}
	return 0;
}

long page_items_file_find(const struct page_items_file *f, const char *path,
			  struct page_items_page *g, struct page_item **v)
{
	size_t pl = strlen(path);
	size_t at = f->heads;
	for (unsigned long long k = 0; k < f->npages; k++) {
		struct page_head h;
		if (f->n - at < sizeof h)
			return -1;
		memcpy(&h, f->map + at, sizeof h);
		if (h.pathlen > f->n - at - sizeof h || h.from > f->nentries ||
		    h.n > f->nentries - h.from)
			return -1;
		if (h.pathlen == pl && !memcmp(f->map + at + sizeof h, path, pl)) {
			*g = (struct page_items_page){NULL, h.file, h.from, h.n};
			/* copied: the file's entries lie unaligned */
			*v = xcalloc(h.n + 1, sizeof **v);
			memcpy(*v, f->map + f->entries + h.from * sizeof **v, h.n * sizeof **v);
			return (long)at;
		}
		at += sizeof h + h.pathlen;
	}
	return -1;
}

int page_items_file_put(struct page_items_file *f, long head, const struct page_items_page *g,
			const struct page_item *v)
{
	size_t bytes = g->n * sizeof *v;
	off_t at = (off_t)(f->entries + g->from * sizeof *v);
	if (pwrite(f->fd, v, bytes, at) != (ssize_t)bytes)
		return -1;
	return pwrite(f->fd, &g->file, sizeof g->file, (off_t)head) == (ssize_t)sizeof g->file
		       ? 0
		       : -1;
}

void page_items_file_close(struct page_items_file *f)
{
	if (f->map)
		munmap(f->map, f->n);
	if (f->fd >= 0)
		close(f->fd);
	memset(f, 0, sizeof *f);
	f->fd = -1;
}

void page_items_save(const struct page_items *p, const char *outdir, const char env[33])
{
	struct buf b = BUF_INIT;
	buf_printf(&b, ITEMS_MAGIC " %s\n", env);
	unsigned long long counts[2] = {p->npages, p->n};
	buf_put(&b, counts, sizeof counts);
	buf_put(&b, p->v, p->n * sizeof *p->v);
	for (size_t i = 0; i < p->npages; i++) {
		const struct page_items_page *g = &p->pages[i];
		struct page_head h = {g->file, g->from, g->n, strlen(g->path)};
		buf_put(&b, &h, sizeof h);
		buf_put(&b, g->path, h.pathlen);
	}
	build_state_save_file(outdir, BUILD_ITEMS_FILE, &b);
	buf_free(&b);
}

int page_items_source_open(struct page_items_source *x, const struct page_items *p,
			   const char *path, struct output *o, const struct page_inputs *inputs)
{
	memset(x, 0, sizeof *x);
	x->inputs = inputs;
	const struct page_items_page *g = page_items_find(p, path);
	struct output_file now;
	if (!g || !g->n || output_read_before(o, path, &x->page, &now) ||
	    memcmp(&now, &g->file, sizeof now)) {
		buf_free(&x->page);
		return -1;
	}
	x->v = p->v + g->from;
	x->n = g->n;
	x->nslots = 16;
	while (x->nslots < 2 * x->n)
		x->nslots *= 2;
	x->slots = xcalloc(x->nslots, sizeof *x->slots);
	for (size_t k = 0; k < x->n; k++) {
		size_t h = x->v[k].key[0] & (x->nslots - 1);
		while (x->slots[h])
			h = (h + 1) & (x->nslots - 1);
		x->slots[h] = k + 1;
	}
	return 0;
}

const char *page_items_source_find(struct page_items_source *x, const unsigned long long key[2],
				   size_t *len)
{
	size_t mask = x->nslots - 1;
	for (size_t h = key[0] & mask; x->slots[h]; h = (h + 1) & mask) {
		const struct page_item *e = &x->v[x->slots[h] - 1];
		if (e->key[0] != key[0] || e->key[1] != key[1])
			continue;
		if (e->at > x->page.n || e->len > x->page.n - e->at)
			return NULL;
		*len = e->len;
		x->used++;
		return x->page.p + e->at;
	}
	return NULL;
}

void page_items_source_close(struct page_items_source *x)
{
	buf_free(&x->page);
	free(x->slots);
	memset(x, 0, sizeof *x);
}

void page_items_free(struct page_items *p)
{
	for (size_t i = 0; i < p->npages; i++)
		free(p->pages[i].path);
	free(p->pages);
	free(p->v);
	hash_free(&p->index);
	memset(p, 0, sizeof *p);
}
