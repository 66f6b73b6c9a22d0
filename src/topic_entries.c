/* topic_entries: topic pages' entries lent from page to page (see
 * topic_entries.h). */
#include "topic_entries.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>

enum { ENTRY_DEPTHS = 2, ENTRY_FIRST_DEPTH = 2 }; /* topic/x/ and topic/x/N/ */

void topic_entries_begin(struct frag_memo *m, const struct site *s)
{
	unsigned char *lists = xcalloc(s->nres + 1, 1);
	frag_memo_init(m, s->nres, ENTRY_DEPTHS);
	for (size_t t = 0; t < s->ntopics; t++)
		for (size_t i = 0; i < s->topics[t].nresources; i++) {
			size_t r = s->topics[t].listing[i];
			if (lists[r] < 2 && ++lists[r] == 2)
				frag_memo_want(m, r);
		}
	free(lists);
}

struct topic_entries_lend topic_entries_for(const struct frag_memo *m, const char *path)
{
	size_t depth = 0;
	for (const char *p = path; *p; p++)
		depth += *p == '/';
	bool shown = depth >= ENTRY_FIRST_DEPTH && depth < ENTRY_FIRST_DEPTH + ENTRY_DEPTHS;
	return (struct topic_entries_lend){m, shown ? depth - ENTRY_FIRST_DEPTH : SIZE_MAX};
}

static bool entry_shared(const struct view_item *it) { return it->with_cites && !it->anchored; }

const char *topic_entries_find(void *lend, const struct view_item *it, size_t *len)
{
	const struct topic_entries_lend *l = lend;
	return entry_shared(it) ? frag_memo_get(l->m, it->res, l->variant, len) : NULL;
}

void topic_entries_keep(struct frag_memo *m, size_t variant, const struct view_items *vi,
			const struct mustache_items *places, const struct buf *page)
{
	for (size_t k = 0; k < places->n; k++) {
		const struct mustache_item_place *p = &places->v[k];
		if (p->item < 1 || p->item > vi->n || p->at + p->len > page->n)
			continue;
		const struct view_item *it = &vi->v[p->item - 1];
		if (entry_shared(it))
			frag_memo_put(m, it->res, variant, page->p + p->at, p->len);
	}
}
