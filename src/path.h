/* path: safe path joins, relative-path checks and slugs (GitHub-style heading
 * ids, URL slugs for documents and resources). Level 0. */
#ifndef SSG_PATH_H
#define SSG_PATH_H
#include <stdbool.h>
#include <stddef.h>

/* GitHub-style heading id: lower-cased, spaces to '-', punctuation other than
 * '-' and '_' dropped, non-ASCII kept. Never NULL; may be "" for all-punctuation. */
char *slug_github(const char *text);
/* URL slug: lower-case ASCII letters and digits, runs of anything else become
 * one '-', no leading/trailing '-', at most maxlen bytes (0: no limit);
 * "item" when nothing is left. */
char *slug_url(const char *text, size_t maxlen);
/* True when rel is a relative path that stays inside its root: not absolute,
 * no "..", no empty or "." components, no backslashes or NUL, no control chars. */
bool path_is_safe_rel(const char *rel);
/* a + "/" + b as a new string. */
char *path_join(const char *a, const char *b);
/* The directory part of p ("" when none) and the last component. */
char *path_dirname(const char *p);
const char *path_basename(const char *p);
/* Extension of the last component without the dot, "" when none. */
const char *path_ext(const char *p);
/* mkdir -p; 0 or -1 with errno. */
int path_mkdirs(const char *dir);
/* The same for rel under the folder open as dfd (AT_FDCWD: as path_mkdirs). */
int path_mkdirs_at(int dfd, const char *rel);
/* Relative URL prefix from a page at URL path `from` ("a/b/" style, "" for
 * root) to the site root: "../../" or "./" */
char *path_root_prefix(const char *from_dir);

/* The folder dir/sub (a cache's), opened without following a symlink (a pull
 * request could make it one, to have ssg write elsewhere); made first when
 * `make` is set. -1 when there is none, or it is not a real folder. */
int path_open_subdir(const char *dir, const char *sub, bool make);
/* The same for sub in the folder open as dfd. */
int path_open_subdir_at(int dfd, const char *sub, bool make);
/* Whether path, with every symlink followed, lies inside the folder root
 * (followed too). False when either cannot be resolved. */
bool path_inside(const char *root, const char *path);
/* The folder a site's files may lead to through symlinks: the repository
 * holding dir (the nearest folder at or above it with a .git), else dir
 * itself; resolved (realpath). NULL when dir cannot be resolved. */
char *path_boundary(const char *dir);
/* Whether path lies inside the boundary of the site at site_dir (the two
 * above, for a one-off question). */
bool path_in_site(const char *site_dir, const char *path);
/* Open (O_PATH) the folder rel under dir, each folder on the way a real
 * one: a symlink anywhere on it, or a missing folder, gives -1. */
int path_open_dir_within(const char *dir, const char *rel);
/* Replace the file to (in the folder tdfd) with the file from (in fdfd),
 * atomically: readers find the old file or the new one there. A rename over
 * a file costs ext4 a writeback of the new one first (its auto_da_alloc:
 * 28 ms for 170 MB on this project's benchmark machine), so the two are
 * exchanged (RENAME_EXCHANGE) and the old one, now under from, removed; a
 * plain rename where there is no file to replace, or no exchange. 0 when
 * done; on failure from is left where it was. */
int path_rename_over_at(int fdfd, const char *from, int tdfd, const char *to);
/* Close fd on a thread of its own (at once when none can start). The last
 * descriptor of a file that was replaced or removed frees its blocks and
 * pages as it closes: 61-68 ms for 170 MB on ext4 here, which the caller
 * need not wait for. */
void path_close_behind(int fd);
/* Replace the file name in the folder dfd with the n bytes at p, all or
 * nothing: written to <name>.<pid>.tmp beside it, then renamed over it (never
 * through a symlink; path_rename_over_at). 0 when done. A regular file that
 * holds these very bytes already is left as it is: most builds write most
 * of their caches unchanged. */
int path_replace_at(int dfd, const char *name, const void *p, size_t n);

struct stat;
/* The regular file name in the folder dfd (AT_FDCWD: a path), never through
 * a symlink, mapped read-only, with its stat in *st (st_size bytes mapped):
 * NULL when it is not a regular file of 1 to max bytes, or cannot be
 * mapped. munmap(p, st->st_size) when done. The files ssg keeps are
 * replaced by a rename, never written in place, so a mapping keeps the
 * bytes it was made with. */
void *path_map_regular_at(int dfd, const char *name, size_t max, struct stat *st);
/* The size of the regular file dir/rel (not through a symlink at its end);
 * 0 when there is none. */
size_t path_regular_size(const char *dir, const char *rel);
/* What tells one version of a file from another, as far as stat goes: its
 * device, inode, size, mtime and ctime in nanoseconds (a write changes the
 * ctime, which nothing sets back). */
#define PATH_FILE_ID_WORDS 5
void path_file_id(const struct stat *st, unsigned long long id[PATH_FILE_ID_WORDS]);

#endif
