/* watch: inotify over a site's sources for `ssg serve`. Watches site.yml and
 * the folders content/, templates/, themes/ and static/ recursively, folders
 * created later included (also those top-level folders themselves when they
 * appear after the start). Editor droppings (dot files, `~` backups, `.swp`,
 * vim's `4913` probe) do not count as changes. One watch is used by one
 * thread. Level 6; calls xalloc, buf, path and Linux inotify/poll only. */
#ifndef SSG_WATCH_H
#define SSG_WATCH_H
#include <stdbool.h>

struct watch;

/* Start watching the site at root. NULL (errno set) when inotify is not
 * available; missing folders are not an error (they are picked up when
 * created). The caller frees with watch_close. */
struct watch *watch_open(const char *root);
/* The inotify descriptor, for poll(2): readable when events are waiting. */
int watch_fd(const struct watch *w);
/* Read every waiting event without blocking, adding watches for new folders.
 * Returns how many of them are changes to the sources (0: none), -1 on a read
 * error. */
int watch_drain(struct watch *w);
/* Whether the last change seen ended a write: a file closed after writing,
 * renamed into place or removed (not a folder's). A change to a file's mode
 * or times alone leaves it as it was; a file or folder made, written without
 * being closed yet, or renamed away clears it. */
bool watch_done(const struct watch *w);
/* Coalesce a burst: keep draining until no change has arrived for quiet_ms
 * (done_ms while watch_done: a save seen whole needs less), or max_ms have
 * passed. Returns the number of further changes seen. */
int watch_settle(struct watch *w, int quiet_ms, int done_ms, int max_ms);
/* The source path (relative to root) of the last change seen; "" before any.
 * Owned by w, valid until the next drain. */
const char *watch_last(const struct watch *w);
/* Number of folders being watched. */
int watch_count(const struct watch *w);
void watch_close(struct watch *w);

#endif
