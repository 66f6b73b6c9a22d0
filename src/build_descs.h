/* build_descs: the quick path of an incremental build for an edit of list
 * entries' descriptions (and of prose), once the model is built: what
 * build_patch could not splice without it (descs_splice.h).
 *
 * An entry's description (citation.desc) shows on its document's page and,
 * among the descriptions its resource was given, on the resource's page.
 * The longest of them is the resource's description, which everything else
 * that shows the resource shows: its entries in lists, its records in
 * resources.json and the search index, its classification. No other page or
 * file shows an entry's description.
 *
 * So when every edited document gives the record its cached version gave
 * save for its entries' descriptions (build_patch.h's patch_descs: the same
 * frame, metadata, headings, links, citations and diagnostics), and no
 * resource's description changes with them, every page and file of the site
 * in place is as a whole build would make it, except the edited documents'
 * pages and their changed entries' resources' pages. Those are rendered from
 * the model, as a whole build renders them, and put in place as build_patch
 * puts its pages (the state forgets them first). Nothing else is prepared,
 * rendered or written, and the spare tree is not touched.
 *
 * The model's diagnostics must be the last build's (as build_patch read its
 * state, which a preview then forgets), as its documents' records say they
 * are: a whole build's rendering could have added to them.
 * The resource pages it puts are noted as a whole build notes them
 * (page_items.h), for the next edit to be spliced there.
 * Whatever does not check out leaves the site as it is: the caller builds
 * in full. Not under SSG_CHECK_INPUTS (whose builds check what they keep).
 * Level 5. */
#ifndef SSG_BUILD_DESCS_H
#define SSG_BUILD_DESCS_H

#include "build_patch.h"
#include "site.h"

/* Patch the site in outdir for e's documents, s being the model of o's
 * sources (loaded without errors) whose fingerprint is fp. 0 when done (the
 * build's diagnostics stay in d, its counts go to st); -1 when the build
 * must be made in full. */
int build_descs(struct site *s, const struct build_opts *o, const char *outdir,
		const struct patch_descs *e, const char fp[33], struct diags *d,
		struct build_stats *st);

/* Whether the patch will apply is only known from the model; the caller
 * begins its output meanwhile in case it does not (build_descs.h's caller,
 * site.c), which the patch pays for (the spare's listing beside the model).
 * The hint a whole build leaves (room_hint.h) tells it beforehand: whether,
 * by it, e's edits leave every resource's description as it was (false
 * when the hint is missing or does not know them). The patch forgets the
 * hint while it puts its pages, and saves it again from the model. */
bool build_descs_foreseen(const char *outdir, const struct patch_descs *e);

#endif
