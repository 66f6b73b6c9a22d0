/* tree_list: every entry of a folder tree (its files, folders and others,
 * symlinks not followed), listed on a thread of its own while the caller
 * does other work. Folders are read with getdents64 from their parent's
 * descriptor, never by a path from the top, and each comes before what it
 * holds. The tree may change while it is listed: an entry added or removed
 * meanwhile may be missing or listed; the others are listed once.
 *
 * A listing can be kept (tree_list_save) and given to the next listing of
 * the same tree as a hint. Making, removing or renaming an entry in a folder
 * sets the folder's ctime, which no one can set back: a folder whose inode
 * and ctime are the ones the hint noted, more than two seconds after that
 * ctime (a change within the same clock tick would leave it as it was),
 * still holds the entries it held then, which are taken from the hint
 * instead of being read. One statx instead of an open, two getdents64 and a
 * close: at 28,000 folders, about 55 ms of CPU instead of 210. The top
 * folder is always read. Level 0. */
#ifndef SSG_TREE_LIST_H
#define SSG_TREE_LIST_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "hash.h"
#include "latch.h"

#define TREE_LIST_TOP ((size_t)-1)

struct tree_entry {
	char *rel;                 /* relative to the listed folder */
	size_t parent;             /* the folder holding it (an index), or TREE_LIST_TOP */
	unsigned long long ino;    /* as the folder gives it */
	unsigned char type;        /* DT_DIR, DT_REG, DT_LNK, ... (never DT_UNKNOWN) */
	long long ctime;           /* a folder's ctime in ns, taken before its entries
				    * (0: a file, or a folder not read whole) */
};

struct tree_hint;

struct tree_list {
	struct tree_entry *v;
	size_t n, cap;
	int fd;                    /* the listed folder (a duplicate, owned) */
	bool complete;             /* every folder could be read */
	struct hash by_rel;        /* a regular file's rel -> index in v, made once listed */
	pthread_t thread;
	bool running;
	long long started;         /* CLOCK_REALTIME when the listing began (ns) */
	struct tree_hint *hint;    /* the hint given to tree_list_start, if any */
	size_t from_hint;          /* folders whose entries the hint gave */
	struct latch *after;       /* the listing waits for it to open (or NULL) */
};

/* Start listing the folder open as dirfd (the caller keeps its own
 * descriptor); listed before returning when no thread can be started.
 * hint: what tree_list_save wrote for this tree (NULL: none), taken (freed
 * with l); a damaged hint is ignored whole. False, with nothing listed,
 * when dirfd cannot be duplicated. */
bool tree_list_start(struct tree_list *l, int dirfd, char *hint, size_t nhint);
/* The same with a hint that stays the caller's, unchanged until
 * tree_list_free (the file it was kept in, mapped). */
bool tree_list_start_borrowed(struct tree_list *l, int dirfd, const char *hint, size_t nhint);
/* The same, listed once `after` opens (latch.h; tree_list_wait opens it). The
 * listing's time is still taken now, which only makes its hint more wary. */
bool tree_list_start_after(struct tree_list *l, int dirfd, const char *hint, size_t nhint,
			   struct latch *after);
struct buf;
/* Append the listing, as a hint for the next listing of the same tree, to
 * out (once listed); nothing when it is not complete. */
void tree_list_save(const struct tree_list *l, struct buf *out);
/* Wait until the listing is complete (opening its latch first). */
void tree_list_wait(struct tree_list *l);
/* The regular file at rel, or NULL; only once listed (after tree_list_wait). */
const struct tree_entry *tree_list_find(const struct tree_list *l, const char *rel);
/* Waits first when the listing still runs. */
void tree_list_free(struct tree_list *l);

#endif
