/* room_hint: what a whole build leaves beside the output folder for the
 * quick paths of an edit of list entries' descriptions (build_descs.h,
 * descs_splice.h) to know before any model is built: <name>.ssg-room
 * (hidden, beside <name>), saved from the model.
 *
 * Per document (by name), per citation: its room, how long its description
 * may be without becoming its resource's (the resource's description's
 * length, one less before the citation that gives it: the first of equals
 * wins; -1 for that citation itself; ROOM_HINT_ANY for one without a
 * resource or under site.yml's description), and its resource's page (an
 * index into the hint's pages; ROOM_HINT_NO_PAGE for none). Per resource
 * page: its path and the 64-bit hashes of the descriptions its citations
 * give (room_hint_desc_hash), one per citation that gives one, in citation
 * order: how many give each.
 *
 * Binary, in this machine's order, under the frame fingerprint (the
 * program, the options, site.yml, this account's secret), replaced whole,
 * never written through. A patch that changes entries' descriptions other
 * than through a whole build forgets it first, and saves it again once its
 * pages are in place. Level 5, beside build_state. */
#ifndef SSG_ROOM_HINT_H
#define SSG_ROOM_HINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "site.h"

#define ROOM_HINT_SUFFIX ".ssg-room"
#define ROOM_HINT_ANY INT32_MAX
#define ROOM_HINT_NO_PAGE UINT32_MAX

struct room_hint {
	unsigned char *map; /* the file, read-only, or a copy being changed */
	size_t n;
	bool copied;        /* map is malloc'd (room_hint_set_hash) */
	size_t npages;
	size_t pages_at;    /* the pages' offsets */
	size_t docs_at;     /* the documents' part */
};

struct room_cite {
	int32_t room;
	uint32_t page;
};

/* Save s's hint beside outdir, under frame (build_state_fingerprint's; a
 * hint under another counts for nothing). Unwritten: none. */
void room_hint_save(const struct site *s, const char *outdir, const char frame[33]);
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
/* Page k's path (not NUL-terminated: *len bytes) and the offset of its
 * hashes (*nhashes of them); false when k is out of range. */
bool room_hint_page(const struct room_hint *h, uint32_t k, const char **path, size_t *len,
		    size_t *hashes, size_t *nhashes);
uint64_t room_hint_hash_at(const struct room_hint *h, size_t hashes, size_t i);
/* Change hash i of those at `hashes` (the hint becomes a copy of the file). */
void room_hint_set_hash(struct room_hint *h, size_t hashes, size_t i, uint64_t v);
/* Save h (changed) beside outdir; -1 when it could not be. */
int room_hint_resave(const struct room_hint *h, const char *outdir);

/* A description's hash, as the hint keeps them (NULL and "" have none: 0). */
uint64_t room_hint_desc_hash(const char *desc);

#endif
