/* topic_entries: a topic page's entries as another topic's page at the same
 * depth made them. At 10,000 documents 37 % of the 100,000 entries of the
 * topic pages are another topic page's bytes again (the same resource,
 * cited in the same documents, with links as deep). The entry of a
 * resource listed by two topics or more is kept (frag_memo.h) from the
 * first page that renders it whole at a depth, and lent to the pages after
 * through view_items' find (a page in place lends its own entries first).
 * Level: beside the rendering (views' items, mustache's places). */
#ifndef SSG_TOPIC_ENTRIES_H
#define SSG_TOPIC_ENTRIES_H
#include "buf.h"
#include "frag_memo.h"
#include "model.h"
#include "mustache.h"
#include "view.h"

/* m made for s's resources, those listed by two topics or more wanted. */
void topic_entries_begin(struct frag_memo *m, const struct site *s);

/* What a listing page at path (its file, relative to the output) lends
 * from and keeps to: no variant (SIZE_MAX) for a page at no topic page's
 * depth. Its address is find's ctx. */
struct topic_entries_lend {
	const struct frag_memo *m;
	size_t variant;
};
struct topic_entries_lend topic_entries_for(const struct frag_memo *m, const char *path);
/* view_items' find: an entry's bytes as another page made them, or NULL. */
const char *topic_entries_find(void *lend, const struct view_item *it, size_t *len);
/* The entries a page made whole (each noted in places: what it shows is
 * its own) kept for the pages after. */
void topic_entries_keep(struct frag_memo *m, size_t variant, const struct view_items *vi,
			const struct mustache_items *places, const struct buf *page);

#endif
