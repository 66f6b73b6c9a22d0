/* descs_splice: an edit of list entries' descriptions spliced into the
 * pages that show them, without a model: the quickest of the three paths
 * for it (build_patch.h patches prose; build_descs.h makes these pages from
 * the model when this cannot).
 *
 * An entry's description shows on its document's page, in the body (which
 * build_patch patches as it patches prose: the document gives its cached
 * record but for the descriptions), and on its resource's page, among "the
 * descriptions its entries give" (view_resource: the distinct ones, in
 * order, the first VIEW_RESOURCE_DESCS); the longest of them is the
 * resource's description, which every other page and file shows.
 *
 * The hint a whole build leaves (room_hint.h) says, before any model, for
 * each citation: how long its description may grow without becoming its
 * resource's (then nothing else changes), its resource's page, and its
 * description's hash: what each page's citations give. The page's notes (page_items.h) say where each description it
 * shows lies, and how the template wrote it (escaped or not), in the very
 * file the last build left there. So when, for every changed citation with
 * a page, the hint says the new description fits, the old one is given by
 * that citation alone and the new one by none, and no other changed
 * citation shares its page, the list of descriptions keeps its length and
 * order: the new one takes the old one's place, where it lay in the page
 * (or, beyond the first VIEW_RESOURCE_DESCS, the page shows neither). Only
 * those bytes change. Anything else, or anything that does not check out,
 * leaves it to build_descs.h. Level 5. */
#ifndef SSG_DESCS_SPLICE_H
#define SSG_DESCS_SPLICE_H

#include <stdint.h>

#include "build_patch.h"
#include "page_items.h"
#include "room_hint.h"

/* Most resource pages one splice makes (more: the model's path). */
#define DESCS_SPLICE_MAX_PAGES 64

struct splice_change {
	size_t cites, index;  /* the citation, in the hint (room_hint_cite) */
	uint32_t page_id;     /* its page, in the hint */
	uint64_t now;         /* its description's hash becomes this */
	long page;            /* the page made, index into pages; -1: none shows it */
};

struct splice_page {
	char *path;  /* under the output folder */
	char *tmp;   /* its new bytes beside it (build_patch_beside); NULL once put */
	long long delta;
	long head;   /* its notes: where in the notes' file, and them as they */
	struct page_items_page notes; /* will be (file not known until put) */
	struct page_item *v;
};

struct descs_splice {
	struct room_hint hint;
	struct page_items_file items;
	bool items_open;
	struct splice_change ch[DESCS_SPLICE_MAX_PAGES];
	size_t nch;
	struct splice_page pages[DESCS_SPLICE_MAX_PAGES];
	size_t npages;
	long long delta;     /* bytes the pages grow by */
	bool changing;       /* the hint is being changed (descs_splice_begin) */
};

/* Plan the splice for e's documents (now[k] being e->v[k] read again) into
 * the site in outdir, built under env (build_render_env), and make its
 * pages beside outdir, numbered from first (build_patch_beside). 0 when
 * every changed description can be spliced; -1 otherwise (nothing is left
 * beside outdir). descs_splice_free either way. */
int descs_splice_make(struct descs_splice *sp, const char *outdir, const char env[33],
		      const struct patch_descs *e, const struct doc *now, size_t first);
/* Before the pages are put: the hint reads as none until descs_splice_note
 * (it is forgotten when it cannot be changed in place). */
void descs_splice_begin(struct descs_splice *sp, const char *outdir);
/* Once the pages are in place (their tmp NULL): the pages' notes and the
 * hint say what they show now, changed in place (the hint forgotten when
 * it cannot be; a page's notes, written before its file, are of no file
 * when cut short). */
void descs_splice_note(struct descs_splice *sp, const char *outdir);
void descs_splice_free(struct descs_splice *sp);

#endif
