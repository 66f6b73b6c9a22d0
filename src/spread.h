/* spread: page folders made a few at a time in a passing folder of their
 * own, then moved into place. On ext4 a folder marked `chattr +T` (the site,
 * r/: output.c) has each new subfolder placed by Orlov's spread, which reads
 * every block group's counters under the parent's lock; without the mark the
 * subfolders crowd into the groups of the site just deleted, whose freed
 * inodes every allocation then walks past. Made in a passing folder, which
 * itself is spread, a page folder is placed near it: one spread for every
 * SPREAD_PER page folders, still spread over the disk. The moves
 * (renameat2, RENAME_NOREPLACE) leave the very tree a plain build makes, and
 * the passing folders are gone before the site is committed.
 *
 * Only for a fresh staging folder whose marks the file system took; each
 * thread has a passing folder of its own (two threads in one folder would
 * wait on each other's lock). Level 0 (files and folders only). */
#ifndef SSG_SPREAD_H
#define SSG_SPREAD_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define SPREAD_PER 16  /* page folders per passing folder */
#define SPREAD_SLOTS 8 /* threads with a passing folder at once */
#define SPREAD_PREFIX ".ssg-spread-"

struct spread_slot {
	pthread_t owner;
	bool taken;
	int fd;        /* the passing folder (O_PATH), -1 when none */
	unsigned id;   /* its name: SPREAD_PREFIX and id */
	unsigned used; /* page folders made in it */
};

struct spread {
	bool live;   /* spread_init was called */
	int root_fd; /* the staging folder (borrowed) */
	bool on;
	char **parents; /* folders of page folders, relative ("" the site itself) */
	size_t nparents;
	struct spread_slot slot[SPREAD_SLOTS];
	unsigned next; /* the next passing folder's id */
	pthread_mutex_t lock;
};

/* A file being written through a passing folder (spread_open's). */
struct spread_ticket {
	struct spread_slot *slot;
	const char *relpath; /* borrowed from the caller */
	size_t parent_len;   /* relpath's folder of pages: relpath[0, parent_len) */
	size_t dir_len;      /* the page folder: relpath[0, dir_len) */
};

/* Off until spread_parent names a folder. */
void spread_init(struct spread *sp, int root_fd);
/* rel ("" the staging folder itself) holds page folders and took the mark. */
void spread_parent(struct spread *sp, const char *rel);
/* Open relpath's file for writing in a new page folder made in this
 * thread's passing folder, when relpath is <folder of pages>/<name>/<file>.
 * Returns the descriptor, or -1 when relpath is not for spreading or
 * anything failed (the caller then writes it the plain way). */
int spread_open(struct spread *sp, const char *relpath, struct spread_ticket *t);
/* Move the written file's page folder into place, or, when that folder was
 * made meanwhile (another of its files), the file into it. 0, or -1 with
 * errno. */
int spread_place(struct spread *sp, const struct spread_ticket *t);
/* Remove the passing folders, which are empty by then. 0, or -1 when one
 * could not be removed (the site would carry it: the build must fail).
 * Nothing to do for a spread never initialised. */
int spread_finish(struct spread *sp);
/* Also for a spread never initialised (all zero): nothing to do. */
void spread_free(struct spread *sp);

#endif
