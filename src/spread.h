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
 * thread has a passing folder of its own. A file may also be linked into
 * its page folder (the unchanged files of the site in place, at commit).
 * Level 0 (files and folders only). */
#ifndef SSG_SPREAD_H
#define SSG_SPREAD_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define SPREAD_PER 16 /* page folders per passing folder */
#define SPREAD_PREFIX ".ssg-spread-"

/* A thread's passing folder (each thread has its own: two threads making
 * folders in one would wait on each other's lock). */
struct spread_slot {
	int fd;        /* the passing folder (O_PATH), -1 when none */
	unsigned id;   /* its name: SPREAD_PREFIX and id */
	unsigned used; /* page folders made in it */
	struct spread_slot *next;
};

struct spread {
	bool live;   /* spread_init was called */
	int root_fd; /* the staging folder (borrowed) */
	bool on;
	char **parents; /* folders of page folders, relative ("" the site itself) */
	size_t nparents;
	struct spread_slot *slots; /* every thread's that wrote through it */
	unsigned long gen;         /* tells this spread from earlier ones */
	unsigned next;             /* the next passing folder's id */
	pthread_mutex_t lock;
};

/* A page folder made in a passing folder, for one file (spread_begin's). */
struct spread_ticket {
	int dfd;             /* the passing folder */
	const char *sub;     /* the file, relative to dfd: <name>/<file> */
	const char *relpath; /* the file in the site (borrowed from the caller) */
	size_t parent_len;   /* relpath's folder of pages: relpath[0, parent_len) */
	size_t dir_len;      /* the page folder: relpath[0, dir_len) */
};

/* Off until spread_parent names a folder. */
void spread_init(struct spread *sp, int root_fd);
/* rel ("" the staging folder itself) holds page folders and took the mark. */
void spread_parent(struct spread *sp, const char *rel);
/* When relpath is <folder of pages>/<name>/<file>: make <name> in this
 * thread's passing folder; the caller puts the file at t->sub under t->dfd
 * (writes it, or links it) and then calls spread_place, or spread_cancel.
 * -1 when relpath is not for spreading or anything failed (the caller then
 * does it the plain way). */
int spread_begin(struct spread *sp, const char *relpath, struct spread_ticket *t);
/* spread_begin, and the file opened for writing (O_EXCL): its descriptor,
 * or -1 as spread_begin. */
int spread_open(struct spread *sp, const char *relpath, struct spread_ticket *t);
/* The file could not be put there: the empty page folder goes. */
void spread_cancel(struct spread *sp, const struct spread_ticket *t);
/* Move the page folder into place, or, when that folder was made
 * meanwhile (another of its files), the file into it. 0, or -1 with
 * errno. */
int spread_place(struct spread *sp, const struct spread_ticket *t);
/* Remove the passing folders, which are empty by then. 0, or -1 when one
 * could not be removed (the site would carry it: the build must fail).
 * Nothing to do for a spread never initialised. */
int spread_finish(struct spread *sp);
/* Also for a spread never initialised (all zero): nothing to do. */
void spread_free(struct spread *sp);

#endif
