/* descs_splice: entries' descriptions spliced into their resources' pages,
 * without a model (see descs_splice.h). */
#include "descs_splice.h"
#include "buf.h"
#include "cite_key.h"
#include "path.h"
#include "view.h"
#include "xalloc.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The page at path under outdir, when it is the file its notes were made
 * from (as output_keep trusts a kept page: the same device, inode and
 * size), read through real folders only. */
static bool read_noted(const char *outdir, const char *path, const struct output_file *was,
		       struct buf *out)
{
	char *parent = path_dirname(path);
	int dfd = path_open_dir_within(outdir, parent);
	free(parent);
	int fd = dfd >= 0 ? openat(dfd, path_basename(path), O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
			  : -1;
	if (dfd >= 0)
		close(dfd);
	struct stat st;
	bool ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		  (unsigned long long)st.st_dev == was->dev &&
		  (unsigned long long)st.st_ino == was->ino &&
		  (unsigned long long)st.st_size == was->size;
	if (ok) {
		size_t n = (size_t)st.st_size, got = 0;
		buf_grow(out, n + 1);
		while (ok && got < n) {
			ssize_t k = read(fd, out->p + got, n - got);
			ok = k > 0;
			got += ok ? (size_t)k : 0;
		}
		out->n = got;
		out->p[got] = '\0';
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* How many distinct hashes of the n at v (sorted here): a description
 * given by several citations shows once. */
static size_t distinct(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_u64);
	size_t d = 0;
	for (size_t i = 0; i < n; i++)
		d += i == 0 || v[i] != v[i - 1];
	return d;
}

/* The note of the description was among a page's n notes v, and how it
 * was written; -1 when none is. */
static long find_note(const struct page_item *v, size_t n, const char *was, struct buf *esc,
		      bool *escaped)
{
	buf_reset(esc);
	buf_put_html(esc, was, strlen(was));
	for (int e = 1; e >= 0; e--) {
		unsigned long long key[2];
		if (e)
			page_items_desc_key(true, esc->p, esc->n, key);
		else
			page_items_desc_key(false, was, strlen(was), key);
		for (size_t k = 0; k < n; k++)
			if (v[k].key[0] == key[0] && v[k].key[1] == key[1]) {
				*escaped = e;
				return (long)k;
			}
	}
	return -1;
}

/* The change of one citation's description (the i-th of the document whose
 * entries in the hint are at cites), from was to now, on the page the hint
 * gives it (k): false when it cannot be spliced. */
static bool plan_one(struct descs_splice *sp, const char *outdir, const char env[33],
		     size_t cites, size_t i, uint32_t k, const char *was, const char *now,
		     size_t first)
{
	if (!was || !*was || !now || !*now || sp->nch == DESCS_SPLICE_MAX_PAGES)
		return false;
	const char *p;
	size_t plen;
	if (!room_hint_page(&sp->hint, k, &p, &plen))
		return false;
	/* one change per page: the order of its descriptions stays */
	for (size_t m = 0; m < sp->nch; m++)
		if (sp->ch[m].page_id == k)
			return false;
	uint64_t hw = cite_desc_hash(was), hn = cite_desc_hash(now);
	uint64_t *hashes;
	size_t nh = room_hint_page_hashes(&sp->hint, k, &hashes), nw = 0, nn = 0;
	for (size_t m = 0; m < nh; m++) {
		nw += hashes[m] == hw;
		nn += hashes[m] == hn;
	}
	size_t shown = distinct(hashes, nh);
	free(hashes);
	if (nw != 1 || nn || room_hint_cite(&sp->hint, cites, i).hash != hw)
		return false; /* another citation gives the old one, or the new one */
	struct splice_change *c = &sp->ch[sp->nch];
	*c = (struct splice_change){.cites = cites, .index = i, .page_id = k, .now = hn,
				    .page = -1};
	char *path = xstrndup(p, plen);
	bool ok = path_is_safe_rel(path);
	if (ok && !sp->items_open)
		sp->items_open = page_items_file_open(&sp->items, outdir, env) == 0;
	struct page_items_page g;
	struct page_item *v = NULL;
	long head = ok && sp->items_open ? page_items_file_find(&sp->items, path, &g, &v) : -1;
	if (shown > VIEW_RESOURCE_DESCS)
		shown = VIEW_RESOURCE_DESCS;
	/* each description the page shows is noted (else the template shows
	 * them otherwise than once each), and the notes are of the page in
	 * place (the model's patch, or anything else, may have replaced it) */
	struct buf page = BUF_INIT, esc = BUF_INIT;
	ok = head >= 0 && g.n == shown && read_noted(outdir, path, &g.file, &page);
	bool escaped = false;
	long item = ok ? find_note(v, g.n, was, &esc, &escaped) : -1;
	if (ok && item >= 0) {
		struct page_item *e = &v[item];
		const char *old = escaped ? esc.p : was;
		size_t oldn = escaped ? esc.n : strlen(was);
		ok = e->at <= page.n && e->len <= page.n - e->at && e->len == oldn &&
		     !memcmp(page.p + e->at, old, oldn);
		struct buf put = BUF_INIT;
		if (escaped)
			buf_put_html(&put, now, strlen(now));
		else
			buf_puts(&put, now);
		ok = ok && page.n - e->len + put.n <= UINT32_MAX;
		struct splice_page *pg = &sp->pages[sp->npages];
		if (ok) {
			const char *parts[3] = {page.p, put.p, page.p + e->at + e->len};
			size_t lens[3] = {e->at, put.n, page.n - e->at - e->len};
			pg->tmp = build_patch_beside(outdir, first + sp->npages, parts, lens, 3);
			ok = pg->tmp != NULL;
		}
		if (ok) {
			/* its notes as they will be: this one's key and length,
			 * the ones after it moved */
			long long delta = (long long)put.n - (long long)e->len;
			uint32_t at = e->at;
			page_items_desc_key(escaped, put.p, put.n, e->key);
			e->len = (uint32_t)put.n;
			for (size_t m = 0; m < g.n; m++)
				if (v[m].at > at)
					v[m].at = (uint32_t)((long long)v[m].at + delta);
			pg->path = path;
			path = NULL;
			pg->delta = delta;
			pg->head = head;
			pg->notes = g;
			pg->v = v;
			v = NULL;
			sp->delta += delta;
			c->page = (long)sp->npages++;
		}
		buf_free(&put);
	}
	/* not noted (beyond the first VIEW_RESOURCE_DESCS): the page shows
	 * neither, and stays */
	free(v);
	buf_free(&page);
	buf_free(&esc);
	free(path);
	if (ok)
		sp->nch++;
	return ok;
}

int descs_splice_make(struct descs_splice *sp, const char *outdir, const char env[33],
		      const struct patch_descs *e, const struct doc *now, size_t first)
{
	memset(sp, 0, sizeof *sp);
	if (!e->n || room_hint_open(&sp->hint, outdir, e->frame))
		return -1;
	const char *names[BUILD_PATCH_MAX_DOCS];
	size_t at[BUILD_PATCH_MAX_DOCS], count[BUILD_PATCH_MAX_DOCS];
	for (size_t k = 0; k < e->n; k++)
		names[k] = e->v[k].relpath;
	room_hint_docs(&sp->hint, names, e->n, at, count);
	bool ok = true;
	for (size_t k = 0; ok && k < e->n; k++) {
		const struct patch_desc_doc *v = &e->v[k];
		ok = at[k] && count[k] == v->ncites && now[k].ncites == v->ncites;
		for (size_t i = 0; ok && i < v->ncites; i++) {
			if (v->now_len[i] == SIZE_MAX)
				continue;
			struct room_cite rc = room_hint_cite(&sp->hint, at[k], i);
			ok = rc.room == ROOM_HINT_ANY || (rc.room >= 0 && v->now_len[i] <= (size_t)rc.room);
			if (ok && rc.page != ROOM_HINT_NO_PAGE)
				ok = plan_one(sp, outdir, env, at[k], i, rc.page, v->was[i],
					      now[k].cites[i].desc, first);
		}
	}
	if (!ok) {
		descs_splice_free(sp);
		return -1;
	}
	return 0;
}

void descs_splice_begin(struct descs_splice *sp, const char *outdir)
{
	sp->changing = room_hint_change_begin(&sp->hint, outdir) == 0;
	if (!sp->changing)
		room_hint_forget(outdir);
}

void descs_splice_note(struct descs_splice *sp, const char *outdir)
{
	bool ok = sp->changing;
	for (size_t i = 0; ok && i < sp->nch; i++)
		ok = room_hint_change_hash(&sp->hint, sp->ch[i].cites, sp->ch[i].index,
					   sp->ch[i].now) == 0;
	if (!(ok && room_hint_change_end(&sp->hint) == 0))
		room_hint_forget(outdir);
	for (size_t k = 0; k < sp->npages; k++) {
		struct splice_page *pg = &sp->pages[k];
		pg->notes.file = output_file_at(outdir, pg->path); /* none: known no more */
		page_items_file_put(&sp->items, pg->head, &pg->notes, pg->v);
	}
}

void descs_splice_free(struct descs_splice *sp)
{
	for (size_t k = 0; k < sp->npages; k++) {
		if (sp->pages[k].tmp) {
			unlink(sp->pages[k].tmp);
			free(sp->pages[k].tmp);
		}
		free(sp->pages[k].path);
		free(sp->pages[k].v);
	}
	sp->npages = 0;
	sp->nch = 0;
	if (sp->items_open)
		page_items_file_close(&sp->items);
	sp->items_open = false;
	room_hint_close(&sp->hint);
}
