/* room_hint: what a whole build leaves beside the output folder for the
 * quick paths of an edit of list entries' descriptions (build_descs.h,
 * descs_splice.h) to know before any model is built: <name>.ssg-room
 * (hidden, beside <name>), saved from the model.
 *
 * Per document (by name), per citation: its room, how long its description
 * may be without becoming its resource's (the resource's description's
 * length, one less before the citation that gives it: the first of equals
 * wins; -1 for that citation itself; ROOM_HINT_ANY for one without a
 * resource or under site.yml's description), its resource's page (an
 * index into the hint's pages, each a path; ROOM_HINT_NO_PAGE for none)
 * and the 64-bit hash of its description (cite_desc_hash): what the
 * citations on one page give, and how many give each.
 *
 * Binary, in this machine's order, under the frame fingerprint (the
 * program, the options, site.yml, this account's secret), replaced whole,
 * never written through. A patch that changes entries' descriptions other
 * than through a whole build forgets it first, and saves it again once its
 * pages are in place, or (a splice) marks it as none while it changes it
 * in place. Level 5, beside build_state. */
#ifndef SSG_ROOM_HINT_H
#define SSG_ROOM_HINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "site.h"

#define ROOM_HINT_SUFFIX ".ssg-room"
#define ROOM_HINT_ANY INT32_MAX
#define ROOM_HINT_NO_PAGE UINT32_MAX

struct room_hint {
	unsigned char *map; /* the file, read-only */
	size_t n;
	unsigned long long dev, ino; /* its file */
	int fd;             /* open for a change (room_hint_change_begin), or -1 */
	size_t npages;
	size_t pages_at;    /* the pages' offsets */
	size_t docs_at;     /* the documents' part */
};

struct room_cite {
	int32_t room;
	uint32_t page;
	uint64_t hash;
};

/* Save s's hint beside outdir, under frame (build_state_fingerprint's; a
 * hint under another counts for nothing). Unwritten: none. */
void room_hint_save(const struct site *s, const char *outdir, const char frame[33]);
/* The same in two steps: s's hint made into b (empty before), then
 * written (-1 when it could not be). */
void room_hint_make(const struct site *s, const char frame[33], struct buf *b);
int room_hint_write(const char *outdir, const struct buf *b);
/* Forget the hint beside outdir. */
void room_hint_forget(const char *outdir);

/* The hint beside outdir, under frame; -1 when there is none, or it is
 * damaged or foreign. */
int room_hint_open(struct room_hint *h, const char *outdir, const char frame[33]);
void room_hint_close(struct room_hint *h);
/* Each of the n documents names[k]: its citations' entries in at[k] (an
 * offset into h->map) and their count in count[k]; at[k] 0 when the hint
 * does not know it. */
void room_hint_docs(const struct room_hint *h, const char *const *names, size_t n, size_t *at,
		    size_t *count);
/* Citation i of the document whose entries are at `at`. */
struct room_cite room_hint_cite(const struct room_hint *h, size_t at, size_t i);
/* Page k's path (not NUL-terminated: *len bytes); false when k is out of
 * range. */
bool room_hint_page(const struct room_hint *h, uint32_t k, const char **path, size_t *len);
/* The hashes of the descriptions the citations on page k give (none: 0),
 * in *out (malloc'd); their count. */
size_t room_hint_page_hashes(const struct room_hint *h, uint32_t k, uint64_t **out);
/* Change the hint's file in place, never through a symlink: from begun to
 * ended it reads as no hint (a change cut short leaves none). Citation i's
 * hash, of the document whose entries are at `at`, becomes v. -1 when a
 * step fails: the caller then forgets the hint. */
int room_hint_change_begin(struct room_hint *h, const char *outdir);
int room_hint_change_hash(struct room_hint *h, size_t at, size_t i, uint64_t v);
int room_hint_change_end(struct room_hint *h);

#endif
