/* output: writing the site. Every file goes into a staging folder beside the
 * output folder; output_commit swaps it in whole (renameat2 RENAME_EXCHANGE),
 * so a failed or killed build leaves the previous site intact. A file whose
 * bytes equal the previous site's is hard-linked, not written, and when every
 * file is unchanged (none new, none gone) the previous site stays as it is:
 * an unchanged rebuild creates no file or folder and keeps every mtime; files
 * the new site lacks go with the old one.
 *
 * The site that a swap takes out is not deleted: it is kept beside the output
 * as .<name>.ssg-spare and becomes the next build's staging folder. Its files
 * are mostly the very inodes of the site in place (hard links), so bringing
 * it up to date costs only what changed: a changed file is written over the
 * spare's file where that one has no other link (no site shares it), else
 * under a new inode (never into a shared one); a file is relinked where its
 * inode differs from the site's, and removed where the new site lacks it.
 * Nothing about the spare is
 * trusted: its listing (taken on a thread of its own once the build's
 * documents are read, output_read, while it models) must be whole and free of symlinks
 * before anything is written into it, and a file is kept from it only when
 * it is the very inode the site in place has, as the last build left it
 * (output_keep's was) or as it is found there.
 *
 * Paths are checked: nothing is written outside the staging folder.
 * Thread-safe. Level 5. */
#ifndef SSG_OUTPUT_H
#define SSG_OUTPUT_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "spread.h"
#include "tree_list.h"

/* A file of the site as a build left it: its device and inode (0: not
 * known), and its size. */
struct output_file {
	unsigned long long dev, ino, size;
};

struct output {
	char *final;     /* the output folder */
	char *staging;   /* where this build writes */
	size_t files;
	size_t unchanged;  /* of them, the same as in the previous site */
	char **same;       /* their paths: hard-linked at commit when the site
			    * changed; when nothing changed the previous site
			    * simply stays */
	struct output_file *same_file; /* each one's file in the previous site, as it was seen */
	size_t nsame, capsame;
	unsigned long long bytes;
	char **written;    /* paths written afresh (the sweep of a reused tree keeps them) */
	size_t nwritten, capwritten;
	char *spare;       /* the site before the one in place, kept to build the next in */
	bool reused;       /* staging is the spare: an older site, brought up to date */
	bool has_final;    /* a site is in place: a file may be as it was there */
	bool spare_kept;   /* the commit kept the old site as the spare */
	char *note;        /* what the last build noted in the spare (output_note) */
	size_t nnote;
	int final_fd, staging_fd; /* the two folders, open (O_PATH): paths are under them */
	unsigned long long staging_dev;
	bool *same_seen;   /* per same file: a reused tree already holds its inode (the sweep's) */
	struct tree_list spare_list; /* a reused tree's entries, listed while the build runs */
	struct latch read; /* opened once the build's documents are read (output_read):
			    * the spare's listing waits for it, and so may others */
	char *trees;       /* beside the spare: each tree's last listing (OUTPUT_TREES) */
	unsigned long long staging_ino, final_dev, final_ino; /* which tree each folder is */
	const char *final_hint; /* the listing kept for the site in place's tree (it becomes
			    * the spare), taken from the file at the start: in
			    * trees_map, or the new listing's own (owned) */
	size_t nfinal_hint;
	bool final_hint_owned;
	void *trees_map;   /* OUTPUT_TREES mapped, while listings lie in it */
	size_t ntrees_map;
	bool settled;      /* a reused tree is ready to be written into (output.c's settle) */
	pthread_mutex_t settle_lock;
	pthread_t trees_writer; /* keeping the trees' listings after a commit (output_free waits) */
	bool trees_writing, trees_swapped;
	int failed;
	int jobs;          /* threads for linking and removing (1 unless set) */
	pthread_mutex_t lock;
	struct diags *d; /* written under lock */
	struct spread spread; /* page folders of a fresh staging folder (spread.h) */
};

/* Prepare a fresh staging folder for `dir`. -1 (with a diagnostic) on failure. */
int output_begin(struct output *o, const char *dir, struct diags *d);
/* The build's documents are read: what waits at o->read goes on (latch.h). */
void output_read(struct output *o);
/* Write data to relpath (folders made as needed). -1 on failure or an unsafe path. */
int output_write(struct output *o, const char *relpath, const void *data, size_t n);
/* The same, and *made is the file the site will have there (for the next
 * build's output_keep; unknown, ino 0, when no site is in place: no spare
 * will be kept for a next build to take it from). */
int output_write_noted(struct output *o, const char *relpath, const void *data, size_t n,
		       struct output_file *made);
/* The regular file at relpath under dir as a build notes it (output_file:
 * device, inode, size); all zero when there is none (not a regular file). */
struct output_file output_file_at(const char *dir, const char *relpath);
/* The same, and *made known even when no site is in place (a first build:
 * a resource page's notes, page_items.h, need its file from the first). */
int output_write_known(struct output *o, const char *relpath, const void *data, size_t n,
		       struct output_file *made);
/* A file written as its bytes come, never whole in memory (a data file of
 * tens of megabytes): open, put its bytes in order, close. Kept as it is when
 * the site in place has these very bytes there (compared as they come), as
 * output_write keeps it. Not thread-safe: one thread at a time per stream.
 * close returns -1 (with a diagnostic) when it could not be written. */
struct output_stream;
struct output_stream *output_stream_open(struct output *o, const char *relpath);
void output_stream_put(struct output_stream *w, const void *p, size_t n);
/* The file in place is also mapped at bytes (n of them, the file whose
 * device and inode are dev and ino): bytes put from there, at the very
 * offset they lie at in it, agree without being read again (a data file's
 * records kept from the file in place). Ignored unless it is that file. */
void output_stream_lend(struct output_stream *w, const char *bytes, size_t n,
			unsigned long long dev, unsigned long long ino);
int output_stream_close(struct output_stream *w);
/* The previous site's relpath, when it is a regular file: its bytes in *b
 * and its identity in *file. -1 otherwise. */
int output_read_before(struct output *o, const char *relpath, struct buf *b,
		       struct output_file *file);
/* Whether the previous site holds relpath with exactly these bytes. */
bool output_same(struct output *o, const char *relpath, const void *data, size_t n);
/* Keep the previous site's relpath as it is (the caller knows its bytes
 * would not change): linked like an unchanged file. was (or NULL) is the file
 * the last build left there: when the spare still holds that very inode, it
 * is kept without a look at the site in place. *kept is the file kept.
 * -1 when the previous site has no such regular file. */
int output_keep(struct output *o, const char *relpath, const struct output_file *was,
		struct output_file *kept);
/* Create the folder relpath, which will hold many unrelated page folders (the
 * output folder itself gets the same from output_begin): a hint to the file
 * system to spread them out (see output.c). -1 when it cannot be created. */
int output_folder_of_pages(struct output *o, const char *relpath);
/* Copy a file from the source tree. */
int output_copy(struct output *o, const char *relpath, const char *src);
/* Swap the staging folder in as the output and remove the old site. */
int output_commit(struct output *o);
/* After a commit, leave p in the spare for the next build that reuses it
 * (its o->note; no part of any site). -1 when no spare was kept. */
#define OUTPUT_NOTE ".ssg-note"
/* Beside the output folder, .<name>.ssg-trees keeps the listing of each of
 * its two trees (the site in place and the spare) as the last build that
 * listed it took it (tree_list_save), keyed by the tree's folder (device,
 * inode) and with the account's secret (local_key.h): the build that takes
 * the spare again reads only the folders that changed since. */
#define OUTPUT_TREES_SUFFIX ".ssg-trees"
int output_note(struct output *o, const void *p, size_t n);
/* Remove the staging folder (after a failed build). */
void output_abort(struct output *o);
void output_free(struct output *o);
/* Temporary files of a build's state are named <dir>.state-<pid>-<name>. */
#define OUTPUT_STATE_TMP ".state-"
/* Remove the staging folders and state files that killed builds left beside
 * dir (builds still running keep theirs). output_begin does it too. */
void output_tidy(const char *dir);
/* rm -rf */
int output_remove_tree(const char *dir);

#endif
