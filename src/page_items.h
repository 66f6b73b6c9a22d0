/* page_items: where the resources' entries lie in the list pages of the
 * site in place (<output>/.ssg-items), so that a page rendered again takes
 * each entry that is as it was from the page in place instead of building
 * and rendering it (view.h's view_items, mustache.h's mustache_items). At
 * 10,000 documents a topic page lists 500 entries in 440 kB: an edit that
 * changes one entry changes the pages that list it, and each was rendered
 * whole.
 *
 * Resource pages note their descriptions the same way (view_resource's
 * "descriptions", each where its string went, keyed by page_items_desc_key
 * of those bytes), for an edit of one entry's description to be spliced
 * there (descs_splice.h); nothing takes them as entries.
 *
 * Per page: its path, its file as the build left it in the site (device,
 * inode and size: a page replaced since is not used, as output_keep trusts a
 * kept page by the same identity), and per entry the digest of all it is made
 * from (page_inputs' item digest under the frame) with where its bytes lie.
 * Binary, in the machine's byte order, under the render env; damaged or
 * foreign, it reads as empty. Level 5, beside build_state. */
#ifndef SSG_PAGE_ITEMS_H
#define SSG_PAGE_ITEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "hash.h"
#include "mustache.h"
#include "output.h"

struct page_inputs;

struct page_item {
	unsigned long long key[2];
	uint32_t at, len; /* in the page's bytes */
};

struct page_items_page {
	char *path;
	struct output_file file;
	size_t from, n; /* its entries: items.v[from..from + n) */
};

struct page_items {
	struct page_items_page *pages;
	size_t npages, cappages;
	struct page_item *v;
	size_t n, cap;
	struct hash index; /* path -> page (made by page_items_load) */
};

/* outdir's entries when made under env; else p stays empty. */
void page_items_load(struct page_items *p, const char *outdir, const char env[33]);
const struct page_items_page *page_items_find(const struct page_items *p, const char *path);
/* The key of a description's bytes as a resource page shows them (escaped:
 * HTML-escaped by the template), page_item.at and len being where. */
void page_items_desc_key(bool escaped, const char *bytes, size_t n, unsigned long long key[2]);
/* Add a page (its file known: ino not 0) with its n entries, copied. */
void page_items_add(struct page_items *p, const char *path, const struct output_file *file,
		    const struct page_item *v, size_t n);
/* path's entries now the n at v, its file `file` (a page not known added). */
void page_items_set(struct page_items *p, const char *path, const struct output_file *file,
		    const struct page_item *v, size_t n);
void page_items_save(const struct page_items *p, const char *outdir, const char env[33]);
/* outdir's file as page_items_save made it (under env), for one page's
 * notes to be changed in place without reading or writing the rest (a
 * splice's: descs_splice.h). Opened never through a symlink, and only a
 * file of one link. */
struct page_items_file {
	int fd;
	unsigned char *map; /* read-only */
	size_t n;
	size_t entries, heads; /* where they start */
	unsigned long long npages, nentries;
};
int page_items_file_open(struct page_items_file *f, const char *outdir, const char env[33]);
/* path's page: the offset of its head (-1: none), its file and entries in
 * *g (path not set), its entries copied into *v (malloc'd). */
long page_items_file_find(const struct page_items_file *f, const char *path,
			  struct page_items_page *g, struct page_item **v);
/* The page whose head is at `head` now has g->n entries v (from g->from) and
 * then g->file: written in that order, so that one cut short leaves notes
 * whose file is not the page's. -1 when not written. */
int page_items_file_put(struct page_items_file *f, long head, const struct page_items_page *g,
			const struct page_item *v);
void page_items_file_close(struct page_items_file *f);

/* The notes of a resource page's descriptions (page, its bytes; places, as
 * mustache_render_items noted its items): each that went out once as its
 * own, at most places->n of them into v. Their count. */
size_t page_items_note_descs(const char *page, const struct mustache_items *places,
			     struct page_item *v);
void page_items_free(struct page_items *p);

/* The entries of one page of the site in place, found by key, with its bytes
 * (a page rendered again takes from them the entries that are unchanged). */
struct page_items_source {
	const struct page_inputs *inputs; /* the caller's, for its keys */
	struct buf page;                  /* the page in place */
	const struct page_item *v;        /* its entries */
	size_t n;
	size_t *slots, nslots;            /* by key[0]: index + 1, 0 empty */
	size_t used;                      /* entries found */
};
/* path's entries, when the page in place is the file the last build left
 * there (output_read_before: as output_keep trusts a kept page); -1 when it
 * is not, or has none. */
int page_items_source_open(struct page_items_source *x, const struct page_items *p,
			   const char *path, struct output *o, const struct page_inputs *inputs);
/* The bytes of the entry with this key, and their length; NULL when none. */
const char *page_items_source_find(struct page_items_source *x, const unsigned long long key[2],
				   size_t *len);
void page_items_source_close(struct page_items_source *x);

#endif
