/* build_patch: the quick path of an incremental build, for an edit of a
 * document's prose.
 *
 * When the inputs that changed since the site in place are only the bytes of
 * a few documents (the same files, templates, options and commit: the frame
 * fingerprint of build_state.h), and each of those documents still gives the
 * same record (doc_cache_same_record: metadata, title, description, headings,
 * anchors, citations with their entries, links, diagnostics: all that the
 * model and every other page see of it), then the model is the one that made
 * the site in place, and only those documents' pages change, in their body
 * alone. Each is patched: its old body, where .ssg-docs says it lies, is
 * replaced by the new one, whose badges and links are those the old body had
 * (html_relink_body). No model is built and nothing else is read.
 *
 * When documents give their cached records but for their entries'
 * descriptions, their pages are patched the same way, and the resources'
 * pages that show those descriptions are spliced (descs_splice.h): when
 * the splice cannot tell, it is left to the model (build_descs.h).
 *
 * Whatever else changed, or whatever does not check out, build_patch leaves
 * the site as it is and the caller builds in full.
 *
 * A preview (when build_opts.previewed is set: serve) goes one step further,
 * as Hugo's server renders the pages in view first: an edited document whose
 * front matter and links to other files are unchanged (doc_cache_previewable:
 * entries edited, links added, removed or moved, headings, the title, the
 * description) gets its page patched all the same, each link with the badge
 * the same link had, a new one without. Its page's parts outside the body
 * may lag (its title and description in the head, its table of contents,
 * its count of resources, its related documents), and the pages around it
 * (its resources', topics', counts) are not patched: the site is not whole.
 * The state forgets its fingerprint, and the caller builds in full at once.
 * The document's new cache entry is kept: that build does not read it
 * again. Level 5. */
#ifndef SSG_BUILD_PATCH_H
#define SSG_BUILD_PATCH_H

#include "build_state.h"
#include "diag.h"
#include "fingerprint.h"
#include "site.h"

/* Most documents one patch takes on (more: a build in full). */
#define BUILD_PATCH_MAX_DOCS 32
/* Cache entries read by a patch that does not apply are left in the document
 * cache for the whole build that follows when they are this large together:
 * parsing them again would cost more than writing them there now (the cache's
 * index rewritten, 3 ms at 10,000 documents, on the build's path; a smaller
 * document parses in less). */
#define BUILD_PATCH_HAND_OVER (256u << 10)

/* When the patch does not apply but every edited document gives the record
 * its cached version gave save for its entries' descriptions
 * (doc_cache_same_but_descs), those documents, each with the descriptions
 * its entries had: build_descs.h patches the pages they show on once the
 * model is built. */
struct patch_desc_doc {
	char *relpath;
	char **was;       /* per citation, its description as it was (NULL: none) */
	size_t *now_len;  /* per citation, its description's length now when it
			   * changed, else SIZE_MAX */
	size_t ncites;
	unsigned long long digest[2]; /* the document's bytes now */
};
struct patch_descs {
	struct patch_desc_doc v[BUILD_PATCH_MAX_DOCS];
	size_t n;
	/* the state of the site in place as the patch read it (a preview
	 * forgets it): its diagnostics and counts, the previewed pages' bytes
	 * counted in */
	struct diags last;
	struct build_stats was;
	char frame[33]; /* the site's frame fingerprint (room_hint.h's) */
};
void patch_descs_free(struct patch_descs *p);

/* A page's new bytes (parts, one after another) in a file beside outdir,
 * numbered k: its path, or NULL when it could not be written. */
char *build_patch_beside(const char *outdir, size_t k, const char *const *parts,
			 const size_t *lens, size_t nparts);
/* Put n pages written beside outdir (tmps[k], each set to NULL once in
 * place) at their paths in it, through real folders only; the state first
 * forgets the site's fingerprint and the pages' views, and the documents'
 * pages get recs (nrecs of them). -1 when one could not be put. */
int build_patch_put(const char *outdir, const char *const *pages, char **tmps, size_t n,
		    const struct doc_page_rec *recs, size_t nrecs);

/* Patch the site in outdir, built from o's sources with frame fingerprint
 * frame, to the inputs whose fingerprint is fp (content/'s files hashed into
 * digests). 0 when done (the last build's diagnostics in d, its counts in st);
 * 1 when pages were previewed (the site must now be built in full; d and st
 * untouched); -1 when the build must be made in full (outdir then still
 * holds a whole site, and d and st are untouched; left then holds the site in
 * place's documents' pages when they were read, for the build not to read
 * them again, else nothing). descs gets the edited documents when the build
 * that follows may patch their descriptions (above); else it is left
 * empty. */
int build_patch(const struct build_opts *o, const char *outdir,
		const struct file_digests *digests, const char fp[33], const char frame[33],
		struct diags *d, struct build_stats *st, struct doc_pages *left,
		struct patch_descs *descs);

#endif
