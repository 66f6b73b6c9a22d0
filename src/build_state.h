/* build_state: what the last good build into an output folder read and said.
 * <output>/.ssg-build holds the fingerprint of every input (site.yml,
 * content/, templates/, themes/, static/, the link cache, the git commit,
 * the options that change output, and the ssg binary itself) with that
 * build's diagnostics and counts. A build whose fingerprint matches has
 * nothing to do: it repeats the diagnostics and stops, writing nothing.
 * The file is removed just before a build changes the folder and written after
 * the new site is in place, so it never describes a site that is not there.
 * Level 5. */
#ifndef SSG_BUILD_STATE_H
#define SSG_BUILD_STATE_H
#include <stdbool.h>

#include "diag.h"
#include "fingerprint.h"
#include "hash.h"
#include "site.h"

#define BUILD_STATE_FILE ".ssg-build"

/* The fingerprint of the build o describes, in 32 hex digits; the digests
 * of content/'s files are kept in content (when not NULL). */
void build_state_fingerprint(const struct build_opts *o, int jobs, char fp[33],
			     struct file_digests *content);
/* 0 when outdir's state has fingerprint fp: its diagnostics are appended to
 * d and its counts copied to st. -1 otherwise (d and st untouched). */
int build_state_match(const char *outdir, const char fp[33], struct diags *d,
		      struct build_stats *st);
/* Forget outdir's state (before the folder changes). */
void build_state_forget(const char *outdir);
/* Record the state of the build just committed to outdir. */
void build_state_save(const char *outdir, const char fp[33], const struct diags *d,
		      const struct build_stats *st);

/* The digest of every page's view in the site in place (<output>/.ssg-pages),
 * under the digest of what renders views into pages (the binary, templates/
 * and themes/): a page whose view is unchanged is kept, not rendered. */
#define BUILD_PAGES_FILE ".ssg-pages"

struct page_digests {
	struct hash index;   /* path -> slot */
	char **paths;
	unsigned long long (*digests)[2];
	size_t n, cap;
};

/* What turns views into pages, in 32 hex digits. */
void build_render_env(const struct build_opts *o, int jobs, char env[33]);
void page_digests_add(struct page_digests *p, const char *path, const unsigned long long d[2]);
/* Whether the site in place has path with view digest d. */
bool page_digests_same(const struct page_digests *p, const char *path,
		       const unsigned long long d[2]);
/* Load outdir's digests when they were made under env (else p stays empty). */
void page_digests_load(struct page_digests *p, const char *outdir, const char env[33]);
void page_digests_save(const struct page_digests *p, const char *outdir, const char env[33]);
void page_digests_free(struct page_digests *p);

#endif
