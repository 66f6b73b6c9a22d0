/* tree_list: every entry of a folder tree (its files, folders and others,
 * symlinks not followed), listed on a thread of its own while the caller
 * does other work. Folders are read with getdents64 from their parent's
 * descriptor, never by a path from the top, and each comes before what it
 * holds. The tree may change while it is listed: an entry added or removed
 * meanwhile may be missing or listed; the others are listed once. Level 0. */
#ifndef SSG_TREE_LIST_H
#define SSG_TREE_LIST_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "hash.h"

#define TREE_LIST_TOP ((size_t)-1)

struct tree_entry {
	char *rel;                 /* relative to the listed folder */
	size_t parent;             /* the folder holding it (an index), or TREE_LIST_TOP */
	unsigned long long ino;    /* as the folder gives it */
	unsigned char type;        /* DT_DIR, DT_REG, DT_LNK, ... (never DT_UNKNOWN) */
};

struct tree_list {
	struct tree_entry *v;
	size_t n, cap;
	int fd;                    /* the listed folder (a duplicate, owned) */
	bool complete;             /* every folder could be read */
	struct hash by_rel;        /* a regular file's rel -> index in v, made once listed */
	pthread_t thread;
	bool running;
};

/* Start listing the folder open as dirfd (the caller keeps its own
 * descriptor); listed before returning when no thread can be started.
 * False, with nothing listed, when dirfd cannot be duplicated. */
bool tree_list_start(struct tree_list *l, int dirfd);
/* Wait until the listing is complete. */
void tree_list_wait(struct tree_list *l);
/* The regular file at rel, or NULL; only once listed (after tree_list_wait). */
const struct tree_entry *tree_list_find(const struct tree_list *l, const char *rel);
/* Waits first when the listing still runs. */
void tree_list_free(struct tree_list *l);

#endif
