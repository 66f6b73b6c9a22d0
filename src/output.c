/* output: staging folder, checked writes and the atomic swap (see output.h). */
#include "output.h"
#include "buf.h"
#include "digest.h"
#include "hash.h"
#include "heap_warm.h"
#include "local_key.h"
#include "path.h"
#include "pool.h"
#include "tree_list.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <stdbool.h>
#include <unistd.h>

static void fail(struct output *o, const char *path, const char *what)
{
	pthread_mutex_lock(&o->lock);
	o->failed = 1;
	diag_add(o->d, SEV_ERROR, path, 0, 0, "%s: %s", what, strerror(errno));
	pthread_mutex_unlock(&o->lock);
}

/* Staging folders of builds that were killed (their process is gone) would
 * pile up beside the output: remove them. Another build still running keeps
 * its own. */
void output_tidy(const char *dir)
{
	char *final = xstrdup(dir);
	size_t n = strlen(final);
	while (n > 1 && final[n - 1] == '/')
		final[--n] = '\0';
	char *parent = path_dirname(final);
	const char *base = path_basename(final);
	char *prefix = xconcat(base, ".staging-", NULL);
	char *sprefix = xconcat(base, OUTPUT_STATE_TMP, NULL);
	size_t pl = strlen(prefix), spl = strlen(sprefix);
	DIR *dh = opendir(*parent ? parent : ".");
	struct dirent *e;
	while (dh && (e = readdir(dh))) {
		char *end;
		long pid;
		if (!strncmp(e->d_name, prefix, pl)) {
			pid = strtol(e->d_name + pl, &end, 10);
			if (*end)
				continue;
		} else if (!strncmp(e->d_name, sprefix, spl)) {
			pid = strtol(e->d_name + spl, &end, 10);
			if (*end != '-')
				continue;
		} else
			continue;
		if (pid <= 0 || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* alive, or not ours to judge */
		char *stale = *parent ? path_join(parent, e->d_name) : xstrdup(e->d_name);
		output_remove_tree(stale);
		free(stale);
	}
	if (dh)
		closedir(dh);
	free(prefix);
	free(sprefix);
	free(parent);
	free(final);
}

/* Mark a folder of page folders (the site, r/) as the top of unrelated
 * hierarchies (chattr +T), a hint to ext4's Orlov allocator to spread its
 * subfolders over the block groups. Without it they crowd into the group of
 * the site just deleted, and every new inode is searched for past the
 * recently freed ones: on this project's disk, 20,000 folders with a page
 * each took 10.5-17.9 s to write right after removing as many, and 3.7-3.9 s
 * with the hint. Other file systems refuse the request: nothing changes.
 * Whether the folder carries the mark: then a fresh staging folder's page
 * folders are made in passing folders and moved in (spread.h), one spread
 * for every SPREAD_PER of them. */
static bool hint_unrelated_subfolders(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	int flags = 0;
	bool marked = false;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
		marked = flags & FS_TOPDIR_FL;
		if (!marked) {
			flags |= FS_TOPDIR_FL;
			marked = ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
		}
	}
	close(fd);
	return marked;
}

static void settle(struct output *o);

int output_folder_of_pages(struct output *o, const char *relpath)
{
	char *rel = xstrdup(relpath);
	size_t n = strlen(rel);
	while (n && rel[n - 1] == '/')
		rel[--n] = '\0';
	int rc = -1;
	settle(o);
	if (path_is_safe_rel(rel)) {
		char *full = path_join(o->staging, rel);
		rc = path_mkdirs(full);
		if (rc == 0 && hint_unrelated_subfolders(full) && o->spread.live)
			spread_parent(&o->spread, rel);
		free(full);
	}
	free(rel);
	return rc;
}

/* The note the last build left in the spare, taken out of it (before it is
 * listed): it is not part of any site. */
static void take_note(struct output *o)
{
	int fd = openat(o->staging_fd, OUTPUT_NOTE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    st.st_size < (1 << 28)) {
		o->note = xmalloc((size_t)st.st_size);
		ssize_t got = read(fd, o->note, (size_t)st.st_size);
		if (got == st.st_size)
			o->nnote = (size_t)got;
		else {
			free(o->note);
			o->note = NULL;
		}
	}
	if (fd >= 0)
		close(fd);
	unlinkat(o->staging_fd, OUTPUT_NOTE, 0);
}

/* ---- the trees' listings, kept beside the output (OUTPUT_TREES_SUFFIX) ----
 * "ssg-trees 1\n", then for each tree its device, inode, the length of its
 * listing, a digest of the three, the listing's own digest (its last 16
 * bytes) and the account's secret (the secret itself is not in the file),
 * and the listing. A listing made elsewhere is not used (nor, by its own
 * digest, a damaged one). */
#define TREES_MAGIC "ssg-trees 1\n"

/* The listing's own digest ends it (tree_list_save): that, with the rest. */
static void tree_digest(unsigned long long dev, unsigned long long ino, const char *p, size_t n,
			unsigned long long out[2])
{
	struct digest d;
	digest_start(&d);
	digest_feed(&d, local_key(), 32);
	digest_word(&d, dev);
	digest_word(&d, ino);
	digest_word(&d, n);
	digest_feed(&d, p + (n > 16 ? n - 16 : 0), n > 16 ? 16 : n);
	digest_end(&d, out);
}

/* The listings kept for the staging tree (returned, for
 * tree_list_start_after) and for the site in place (o->final_hint):
 * both lie in the file, mapped (o->trees_map, kept until output_free), not
 * copied: at 10,000 documents the file is 6.7 MB, read and then copied
 * before. */
static const char *take_trees(struct output *o, size_t *n)
{
	const char *mine = NULL;
	*n = 0;
	size_t head = sizeof TREES_MAGIC - 1;
	struct stat st;
	void *map = path_map_regular_at(AT_FDCWD, o->trees, (size_t)1 << 30, &st);
	if (!map)
		return NULL;
	const char *b = map;
	size_t bn = (size_t)st.st_size;
	if (bn < head || memcmp(b, TREES_MAGIC, head)) {
		munmap(map, bn);
		return NULL;
	}
	o->trees_map = map;
	o->ntrees_map = bn;
	for (size_t at = head; bn - at >= 40;) {
		unsigned long long w[5], sum[2];
		memcpy(w, b + at, sizeof w);
		at += sizeof w;
		if (w[2] > bn - at)
			break;
		const char *p = b + at;
		at += w[2];
		const char **into = NULL;
		size_t *len = NULL;
		if (o->reused && w[0] == o->staging_dev && w[1] == o->staging_ino && !mine) {
			into = &mine;
			len = n;
		} else if (o->has_final && w[0] == o->final_dev && w[1] == o->final_ino &&
			   !o->final_hint) {
			into = &o->final_hint;
			len = &o->nfinal_hint;
		}
		if (!into)
			continue;
		tree_digest(w[0], w[1], p, w[2], sum);
		if (sum[0] != w[3] || sum[1] != w[4])
			continue;
		*into = p;
		*len = w[2];
	}
	return mine;
}

static void put_tree(struct buf *b, unsigned long long dev, unsigned long long ino,
		     const char *p, size_t n)
{
	unsigned long long w[5] = {dev, ino, n, 0, 0};
	tree_digest(dev, ino, p, n, w + 3);
	buf_put(b, w, sizeof w);
	buf_put(b, p, n);
}

/* After the swap: the new site's tree (the staging folder as this build
 * listed it) and the spare's (the old site, as the file had it). */
static void keep_trees_now(struct output *o, bool swapped)
{
	struct buf b = BUF_INIT, mine = BUF_INIT;
	buf_puts(&b, TREES_MAGIC);
	size_t empty = b.n;
	if (o->reused)
		tree_list_save(&o->spare_list, &mine);
	if (mine.n)
		put_tree(&b, o->staging_dev, o->staging_ino, mine.p, mine.n);
	if (o->final_hint && (swapped ? o->spare_kept : true))
		put_tree(&b, o->final_dev, o->final_ino, o->final_hint, o->nfinal_hint);
	char *parent = path_dirname(o->trees);
	int dfd = open(*parent ? parent : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		if (b.n > empty) /* a cache: unwritten, the trees are read whole */
			path_replace_at(dfd, path_basename(o->trees), b.p, b.n);
		else
			unlinkat(dfd, path_basename(o->trees), 0);
		close(dfd);
	}
	free(parent);
	buf_free(&mine);
	buf_free(&b);
}

static void *keep_trees_run(void *arg)
{
	struct output *o = arg;
	heap_warm_worker();
	keep_trees_now(o, o->trees_swapped);
	return NULL;
}

/* The same on a thread of its own, which output_free waits for: 6.7 MB of
 * listings at 10,000 documents, made and written while the build saves its
 * state (the file is a cache of the next build's; nothing reads it before). */
static void keep_trees(struct output *o, bool swapped)
{
	o->trees_swapped = swapped;
	o->trees_writing = pthread_create(&o->trees_writer, NULL, keep_trees_run, o) == 0;
	if (!o->trees_writing)
		keep_trees_now(o, swapped);
}

int output_begin(struct output *o, const char *dir, struct diags *d)
{
	memset(o, 0, sizeof *o);
	o->final_fd = o->staging_fd = o->spare_list.fd = -1;
	o->jobs = 1;
	latch_init(&o->read);
	pthread_mutex_init(&o->lock, NULL);
	pthread_mutex_init(&o->settle_lock, NULL);
	o->d = d;
	o->final = xstrdup(dir);
	size_t n = strlen(o->final);
	while (n > 1 && o->final[n - 1] == '/')
		o->final[--n] = '\0';
	o->staging = xasprintf("%s.staging-%ld", o->final, (long)getpid());
	output_remove_tree(o->staging);
	output_tidy(o->final);
	char *parent = path_dirname(o->final);
	if (*parent && path_mkdirs(parent)) {
		fail(o, parent, "cannot create the output's parent folder");
		free(parent);
		return -1;
	}
	o->spare = *parent ? xasprintf("%s/.%s.ssg-spare", parent, path_basename(o->final))
			   : xasprintf(".%s.ssg-spare", path_basename(o->final));
	o->trees = *parent ? xasprintf("%s/.%s" OUTPUT_TREES_SUFFIX, parent, path_basename(o->final))
			   : xasprintf(".%s" OUTPUT_TREES_SUFFIX, path_basename(o->final));
	free(parent);
	/* one build at a time takes the spare: the rename succeeds once. Only a
	 * real folder will do: a symlink put there (a pull request can commit
	 * one) would have the build write wherever it points. */
	struct stat live, st;
	o->has_final = lstat(o->final, &live) == 0 && S_ISDIR(live.st_mode);
	if (o->has_final && lstat(o->spare, &st) == 0 && S_ISDIR(st.st_mode) &&
	    rename(o->spare, o->staging) == 0) {
		if (lstat(o->staging, &st) == 0 && S_ISDIR(st.st_mode))
			o->reused = true;
		else
			output_remove_tree(o->staging); /* swapped for something else meanwhile */
	}
	if (!o->reused && mkdir(o->staging, 0755)) {
		fail(o, o->staging, "cannot create the staging folder");
		return -1;
	}
	/* files are reached from the two folders, not from / each time */
	o->staging_fd = open(o->staging, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (o->staging_fd < 0) {
		fail(o, o->staging, "cannot open the staging folder");
		return -1;
	}
	if (o->has_final &&
	    (o->final_fd = open(o->final, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		o->has_final = false;
	struct stat sst;
	if (fstat(o->staging_fd, &sst) == 0) {
		o->staging_dev = (unsigned long long)sst.st_dev;
		o->staging_ino = (unsigned long long)sst.st_ino;
	}
	if (o->has_final && fstat(o->final_fd, &sst) == 0) {
		o->final_dev = (unsigned long long)sst.st_dev;
		o->final_ino = (unsigned long long)sst.st_ino;
	}
	/* a fresh staging folder on ext4: page folders made a few at a time
	 * elsewhere and moved in (spread.h). Never a reused tree: its folders
	 * are mostly there, and a path in it may be anything an older site
	 * left. */
	if (hint_unrelated_subfolders(o->staging) && !o->reused) {
		spread_init(&o->spread, o->staging_fd);
		spread_parent(&o->spread, "");
	}
	/* what the older site holds is listed while the build runs, from when
	 * its documents are read (without the note the last build left in it),
	 * its folders unchanged since the last listing of it taken from that */
	size_t nhint = 0;
	const char *hint = o->reused || o->has_final ? take_trees(o, &nhint) : NULL;
	if (o->reused)
		take_note(o);
	if (o->reused &&
	    !tree_list_start_after(&o->spare_list, o->staging_fd, hint, nhint, &o->read)) {
		fail(o, o->staging, "cannot list the staging folder");
		return -1;
	}
	o->settled = !o->reused;
	return 0;
}

/* A reused tree is written into only once it is known whole: every path
 * the build writes then goes through real folders. Whatever its listing
 * shows that is neither a folder nor a regular file goes first: a symlink in
 * a spare (a repository can commit one, beside a committed output folder)
 * would have the build write, or remove, wherever it points. A tree whose
 * folders could not all be read is not reused: a new staging folder is made.
 * Called before each write; the first caller does the work. */
static void settle(struct output *o)
{
	if (__atomic_load_n(&o->settled, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&o->settle_lock);
	if (!o->settled) {
		struct tree_list *l = &o->spare_list;
		tree_list_wait(l);
		if (l->complete) {
			for (size_t i = 0; i < l->n; i++)
				if (l->v[i].type != DT_DIR && l->v[i].type != DT_REG)
					unlinkat(o->staging_fd, l->v[i].rel, 0);
		} else {
			tree_list_free(l);
			o->reused = false;
			int fd = -1;
			if (output_remove_tree(o->staging) || mkdir(o->staging, 0755) ||
			    (fd = open(o->staging, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
			    dup3(fd, o->staging_fd, O_CLOEXEC) < 0)
				fail(o, o->staging, "cannot make a new staging folder (the old one cannot be read whole)");
			if (fd >= 0)
				close(fd);
			hint_unrelated_subfolders(o->staging);
		}
		__atomic_store_n(&o->settled, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&o->settle_lock);
}

/* Make way for a new file at rel (in the staging folder): its folders
 * exist, and in a reused tree whatever was there (an old file, which may be
 * the live site's inode, or a folder) is gone, so the file is written afresh,
 * never into a shared inode. A file standing where a folder must be is
 * removed too. */
static int make_room(struct output *o, const char *rel)
{
	settle(o);
	char *dir = path_dirname(rel);
	int rc = *dir ? path_mkdirs_at(o->staging_fd, dir) : 0;
	if (rc && o->reused && (errno == ENOTDIR || errno == EEXIST)) {
		/* some folder on the way is a file of the old site: remove it */
		for (size_t k = 1; dir[k - 1]; k++) {
			if (dir[k] != '/' && dir[k] != '\0')
				continue;
			char saved = dir[k];
			dir[k] = '\0';
			struct stat st;
			if (fstatat(o->staging_fd, dir, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    !S_ISDIR(st.st_mode))
				unlinkat(o->staging_fd, dir, 0);
			dir[k] = saved;
		}
		rc = path_mkdirs_at(o->staging_fd, dir);
	}
	free(dir);
	if (rc == 0 && o->reused) {
		struct stat st;
		if (fstatat(o->staging_fd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			if (S_ISDIR(st.st_mode)) {
				char *full = path_join(o->staging, rel);
				rc = output_remove_tree(full);
				free(full);
			} else
				rc = unlinkat(o->staging_fd, rel, 0);
		}
	}
	return rc;
}

int output_read_before(struct output *o, const char *relpath, struct buf *b,
		       struct output_file *file)
{
	if (!o->has_final || !path_is_safe_rel(relpath))
		return -1;
	int fd = openat(o->final_fd, relpath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	int rc = -1;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (1 << 30)) {
		size_t n = (size_t)st.st_size, got = 0;
		buf_reset(b);
		buf_grow(b, n + 1);
		while (got < n) {
			ssize_t r = read(fd, b->p + got, n - got);
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		if (got == n) {
			b->n = n;
			b->p[n] = '\0';
			*file = (struct output_file){(unsigned long long)st.st_dev,
						     (unsigned long long)st.st_ino, n};
			rc = 0;
		}
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* When the previous site holds relpath with exactly these bytes, hard-link
 * it into the staging folder instead of writing: an unchanged file costs a
 * read, keeps its inode and mtime, and the swap stays all-or-nothing. */
static bool same_as_before(struct output *o, const char *relpath, const struct str *v, size_t nv,
			   size_t n, struct stat *was)
{
	bool same = false;
	int fd = openat(o->final_fd, relpath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == n) {
		*was = st;
		char chunk[65536];
		size_t off = 0, si = 0, so = 0; /* the slice compared next, and where in it */
		same = true;
		while (same && off < n) {
			ssize_t r = read(fd, chunk, n - off < sizeof chunk ? n - off : sizeof chunk);
			if (r <= 0) {
				same = false;
				break;
			}
			for (size_t k = 0; same && k < (size_t)r && si < nv;) {
				size_t take = v[si].n - so < (size_t)r - k ? v[si].n - so : (size_t)r - k;
				same = memcmp(chunk + k, v[si].p + so, take) == 0;
				k += take;
				so += take;
				if (so == v[si].n) {
					si++;
					so = 0;
				}
			}
			off += (size_t)r;
		}
	}
	if (fd >= 0)
		close(fd);
	return same;
}

/* Write the slices to fd, IOV_BATCH at a time. 0, or -1 with errno set. */
#define IOV_BATCH 64
static int write_slices(int fd, const struct str *v, size_t nv)
{
	size_t i = 0, skip = 0; /* the slice written next, and its bytes already out */
	while (i < nv) {
		struct iovec iov[IOV_BATCH];
		int k = 0;
		for (size_t j = i; j < nv && k < IOV_BATCH; j++, k++) {
			size_t from = j == i ? skip : 0;
			iov[k] = (struct iovec){(void *)(v[j].p + from), v[j].n - from};
		}
		ssize_t w = writev(fd, iov, k);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		for (size_t left = (size_t)w; left;) {
			size_t rest = v[i].n - skip;
			if (left < rest) {
				skip += left;
				break;
			}
			left -= rest;
			i++;
			skip = 0;
		}
	}
	return 0;
}

bool output_same(struct output *o, const char *relpath, const void *data, size_t n)
{
	struct stat was;
	struct str one = {data, n};
	return o->has_final && path_is_safe_rel(relpath) &&
	       same_as_before(o, relpath, &one, n > 0, n, &was);
}

/* Hard-link the previous site's file at rel into a fresh place in the
 * staging folder: through a passing folder when it is a page folder's file
 * (spread.h), else where make_room makes room. */
static int link_new(struct output *o, const char *rel)
{
	struct spread_ticket t;
	if (spread_begin(&o->spread, rel, &t) == 0) {
		if (linkat(o->final_fd, rel, t.dfd, t.sub, 0)) {
			spread_cancel(&o->spread, &t);
			return -1;
		}
		return spread_place(&o->spread, &t);
	}
	return make_room(o, rel) || linkat(o->final_fd, rel, o->staging_fd, rel, 0);
}

/* Hard-link each unchanged file from the previous site into the staging
 * folder (only when the site changed: see output_commit), on o->jobs threads. */
static void link_one(void *ctx, size_t i)
{
	struct output *o = ctx;
	const char *rel = o->same[i];
	int rc = 0;
	struct stat b;
	/* a reused tree mostly holds this very inode already (the previous
	 * site's file as it was seen when found unchanged) */
	const struct output_file *a = &o->same_file[i];
	if (o->same_seen ? !o->same_seen[i] /* the sweep found it there, or not */
			 : !(o->reused && fstatat(o->staging_fd, rel, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
			     a->ino == (unsigned long long)b.st_ino &&
			     a->dev == (unsigned long long)b.st_dev))
		rc = link_new(o, rel);
	if (rc)
		fail(o, o->same[i], "cannot link the unchanged file");
}

static int link_unchanged(struct output *o)
{
	pool_run(o->jobs, o->nsame, link_one, o);
	return o->failed ? -1 : 0;
}

/* Regular files in the site in place (symlinks and others are not
 * followed), or (size_t)-1 when it cannot be read whole. Its folders
 * unchanged since the listing kept for it come from that listing (one statx
 * each: tree_list.h), which this listing then replaces. */
static size_t count_final_files(struct output *o)
{
	const char *hint = o->final_hint;
	size_t nhint = o->nfinal_hint;
	bool owned = o->final_hint_owned;
	o->final_hint = NULL;
	o->nfinal_hint = 0;
	o->final_hint_owned = false;
	struct tree_list l;
	if (o->final_fd < 0) {
		if (owned)
			free((char *)hint);
		return (size_t)-1;
	}
	if (!(owned ? tree_list_start(&l, o->final_fd, (char *)hint, nhint)
		    : tree_list_start_borrowed(&l, o->final_fd, hint, nhint)))
		return (size_t)-1;
	tree_list_wait(&l);
	size_t n = (size_t)-1;
	if (l.complete) {
		n = 0;
		for (size_t i = 0; i < l.n; i++)
			n += l.v[i].type == DT_REG;
		struct buf kept = BUF_INIT;
		tree_list_save(&l, &kept);
		if (kept.n) {
			o->final_hint = kept.p;
			o->nfinal_hint = kept.n;
			o->final_hint_owned = true;
		} else
			buf_free(&kept);
	}
	tree_list_free(&l);
	return n;
}

static struct output_file file_of(const struct stat *st)
{
	return (struct output_file){(unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
				    (unsigned long long)st->st_size};
}

struct output_file output_file_at(const char *dir, const char *relpath)
{
	char *file = path_join(dir, relpath);
	struct stat st;
	struct output_file f = {0, 0, 0};
	if (lstat(file, &st) == 0 && S_ISREG(st.st_mode))
		f = file_of(&st);
	free(file);
	return f;
}

/* relpath is the previous site's file f: linked at commit. */
static void add_same(struct output *o, const char *relpath, const struct output_file *f)
{
	pthread_mutex_lock(&o->lock);
	size_t cap = o->capsame;
	o->same = xgrow(o->same, &o->capsame, o->nsame + 1, sizeof *o->same);
	if (o->capsame != cap)
		o->same_file = xrealloc(o->same_file, o->capsame * sizeof *o->same_file);
	o->same_file[o->nsame] = *f;
	o->same[o->nsame++] = xstrdup(relpath);
	o->files++;
	o->unchanged++;
	o->bytes += f->size;
	pthread_mutex_unlock(&o->lock);
}

/* Whether the reused tree holds the very file was at relpath: a regular file
 * whose inode is was's (the spare's listing, checked whole by settle). */
static bool spare_holds(struct output *o, const char *relpath, const struct output_file *was)
{
	if (!was || !was->ino || !o->reused)
		return false;
	settle(o);
	if (!o->reused || was->dev != o->staging_dev)
		return false;
	const struct tree_entry *e = tree_list_find(&o->spare_list, relpath);
	return e && e->type == DT_REG && e->ino == was->ino;
}

int output_keep(struct output *o, const char *relpath, const struct output_file *was,
		struct output_file *kept)
{
	if (!path_is_safe_rel(relpath) || !o->has_final)
		return -1;
	/* the inode the last build left in place, still in the spare: the new
	 * site has it whatever became of the site in place's entry */
	struct output_file f;
	struct stat st;
	if (spare_holds(o, relpath, was))
		f = *was;
	else if (fstatat(o->final_fd, relpath, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		 S_ISREG(st.st_mode))
		f = file_of(&st);
	else
		return -1;
	add_same(o, relpath, &f);
	if (kept)
		*kept = f;
	return 0;
}

/* A reused tree's file at rel that no site shares (its only link, a regular
 * file on the staging folder's device), open for writing over: its pages or
 * blocks are taken again rather than freed and allocated anew. A data file
 * of 55 MB that every edit changes is such a file, from the second edit on.
 * -1 when there is none. */
static int open_over(struct output *o, const char *rel)
{
	settle(o);
	if (!o->reused)
		return -1;
	int fd = openat(o->staging_fd, rel, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
			(unsigned long long)st.st_dev != o->staging_dev)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* The staging folder's file for relpath, open for writing: the reused
 * tree's own (overwritten in place: *over), else made in a passing folder
 * (*spread, spread.h) or where it goes. -1 (failed) when it cannot be. */
static int open_target(struct output *o, const char *relpath, bool *over, bool *spread,
		       struct spread_ticket *ticket)
{
	int fd = open_over(o, relpath);
	*over = fd >= 0;
	*spread = !*over && (fd = spread_open(&o->spread, relpath, ticket)) >= 0;
	if (!*over && !*spread && make_room(o, relpath)) {
		fail(o, relpath, "cannot create folder");
		return -1;
	}
	if (!*over && !*spread)
		fd = openat(o->staging_fd, relpath,
			    O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		fail(o, relpath, "cannot write");
	return fd;
}

/* A target written whole (n bytes): cut to its size, closed, moved into
 * place and counted. *made as write_file says. */
static int finish_target(struct output *o, const char *relpath, int fd, bool over, bool spread,
			 struct spread_ticket *ticket, size_t n, struct output_file *made,
			 bool always)
{
	/* the staging folder's file: the site's once swapped in (noted for a
	 * spare, which only a site in place leaves, or when asked always) */
	struct stat st;
	bool noted = made && (o->has_final || always);
	if ((over && ftruncate(fd, (off_t)n)) || (noted && fstat(fd, &st))) {
		fail(o, relpath, "cannot write");
		close(fd);
		return -1;
	}
	close(fd);
	if (spread && spread_place(&o->spread, ticket)) {
		fail(o, relpath, "cannot move into place");
		return -1;
	}
	if (made)
		*made = noted ? file_of(&st) : (struct output_file){0, 0, 0};
	pthread_mutex_lock(&o->lock);
	o->files++;
	o->bytes += n;
	if (o->reused) {
		o->written = xgrow(o->written, &o->capwritten, o->nwritten + 1, sizeof *o->written);
		o->written[o->nwritten++] = xstrdup(relpath);
	}
	pthread_mutex_unlock(&o->lock);
	return 0;
}

/* A path that would lead out of the output folder: refused, with a diagnostic. */
static bool refused(struct output *o, const char *relpath)
{
	if (path_is_safe_rel(relpath))
		return false;
	errno = EINVAL;
	fail(o, relpath, "refusing to write outside the output folder");
	return true;
}

static int write_file(struct output *o, const char *relpath, const struct str *v, size_t nv,
		      size_t n, struct output_file *made, bool always)
{
	if (refused(o, relpath))
		return -1;
	/* a first or clean build has no site in place to compare with */
	struct stat was;
	if (o->has_final && same_as_before(o, relpath, v, nv, n, &was)) {
		/* linked at commit, and only when something else changed */
		struct output_file f = file_of(&was);
		add_same(o, relpath, &f);
		if (made)
			*made = f;
		return 0;
	}
	bool over, spread;
	struct spread_ticket ticket;
	int fd = open_target(o, relpath, &over, &spread, &ticket);
	if (fd < 0)
		return -1;
	if (write_slices(fd, v, nv)) {
		fail(o, relpath, "cannot write");
		close(fd);
		return -1;
	}
	return finish_target(o, relpath, fd, over, spread, &ticket, n, made, always);
}

/* ---- a file written as its bytes come ---------------------------------- */

struct output_stream {
	struct output *o;
	char *relpath;
	int old_fd;        /* the site in place's file, while the bytes agree with it (-1: not) */
	struct stat was;   /* that file */
	size_t agreed;     /* its bytes matched so far */
	int fd;            /* the new file, from the first difference on (-1 before) */
	bool over, spread;
	struct spread_ticket ticket;
	size_t n;          /* bytes put */
	bool failed;
	const char *lent;  /* the file in place, mapped (output_stream_lend), or NULL */
};

struct output_stream *output_stream_open(struct output *o, const char *relpath)
{
	struct output_stream *w = xcalloc(1, sizeof *w);
	w->o = o;
	w->relpath = xstrdup(relpath);
	w->old_fd = w->fd = -1;
	if (refused(o, relpath)) {
		w->failed = true;
		return w;
	}
	if (o->has_final) {
		w->old_fd = openat(o->final_fd, relpath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (w->old_fd >= 0 && (fstat(w->old_fd, &w->was) || !S_ISREG(w->was.st_mode))) {
			close(w->old_fd);
			w->old_fd = -1;
		}
	}
	return w;
}

void output_stream_lend(struct output_stream *w, const char *bytes, size_t n,
			unsigned long long dev, unsigned long long ino)
{
	if (bytes && w->old_fd >= 0 && (unsigned long long)w->was.st_dev == dev &&
	    (unsigned long long)w->was.st_ino == ino && (size_t)w->was.st_size == n)
		w->lent = bytes;
}

/* Whether the file in place holds these n bytes next. */
static bool stream_agrees(struct output_stream *w, const char *p, size_t n)
{
	if ((size_t)w->was.st_size - w->agreed < n)
		return false;
	/* its own bytes, from where they lie in it */
	if (w->lent && p == w->lent + w->agreed)
		return true;
	char chunk[65536];
	for (size_t off = 0; off < n;) {
		size_t want = n - off < sizeof chunk ? n - off : sizeof chunk;
		ssize_t r = pread(w->old_fd, chunk, want, (off_t)(w->agreed + off));
		if (r <= 0 || memcmp(chunk, p + off, (size_t)r))
			return false;
		off += (size_t)r;
	}
	return true;
}

/* From now on the bytes go to the new file, which starts with those that
 * agreed (copied from the file in place). */
static void stream_diverge(struct output_stream *w)
{
	w->fd = open_target(w->o, w->relpath, &w->over, &w->spread, &w->ticket);
	if (w->fd < 0) {
		w->failed = true;
	} else {
		/* in the kernel when it can (no copy through this process); the
		 * new file's offset moves with it */
		off_t in = 0;
		size_t off = 0;
		while (off < w->agreed) {
			ssize_t r = copy_file_range(w->old_fd, &in, w->fd, NULL, w->agreed - off, 0);
			if (r <= 0)
				break;
			off += (size_t)r;
		}
		char chunk[65536];
		for (; off < w->agreed && !w->failed;) {
			size_t want = w->agreed - off < sizeof chunk ? w->agreed - off : sizeof chunk;
			ssize_t r = pread(w->old_fd, chunk, want, (off_t)off);
			struct str one = {chunk, r > 0 ? (size_t)r : 0};
			if (r <= 0 || write_slices(w->fd, &one, 1)) {
				fail(w->o, w->relpath, "cannot write");
				w->failed = true;
			}
			off += r > 0 ? (size_t)r : 0;
		}
	}
	if (w->old_fd >= 0)
		close(w->old_fd);
	w->old_fd = -1;
}

void output_stream_put(struct output_stream *w, const void *p, size_t n)
{
	if (w->failed || !n)
		return;
	w->n += n;
	if (w->fd < 0) {
		if (w->old_fd >= 0 && stream_agrees(w, p, n)) {
			w->agreed += n;
			return;
		}
		stream_diverge(w);
		if (w->failed)
			return;
	}
	struct str one = {p, n};
	if (write_slices(w->fd, &one, 1)) {
		fail(w->o, w->relpath, "cannot write");
		w->failed = true;
	}
}

int output_stream_close(struct output_stream *w)
{
	int rc = -1;
	if (!w->failed && w->fd < 0 && w->old_fd >= 0 && w->agreed == (size_t)w->was.st_size) {
		/* every byte as in the site in place: that file is kept */
		struct output_file f = file_of(&w->was);
		add_same(w->o, w->relpath, &f);
		rc = 0;
	} else {
		if (!w->failed && w->fd < 0)
			stream_diverge(w); /* shorter than the file in place, or none there */
		if (!w->failed) {
			rc = finish_target(w->o, w->relpath, w->fd, w->over, w->spread, &w->ticket,
					   w->n, NULL, false);
			w->fd = -1;
		}
	}
	if (w->fd >= 0)
		close(w->fd);
	if (w->old_fd >= 0)
		close(w->old_fd);
	free(w->relpath);
	free(w);
	return rc;
}

int output_write(struct output *o, const char *relpath, const void *data, size_t n)
{
	struct str one = {data, n};
	return write_file(o, relpath, &one, n > 0, n, NULL, false);
}

int output_write_noted(struct output *o, const char *relpath, const void *data, size_t n,
		       struct output_file *made)
{
	struct str one = {data, n};
	return write_file(o, relpath, &one, n > 0, n, made, false);
}

int output_write_known(struct output *o, const char *relpath, const void *data, size_t n,
		       struct output_file *made)
{
	struct str one = {data, n};
	return write_file(o, relpath, &one, n > 0, n, made, true);
}

int output_copy(struct output *o, const char *relpath, const char *src)
{
	struct buf b = BUF_INIT;
	if (buf_read_file(&b, src)) {
		fail(o, src, "cannot read");
		buf_free(&b);
		return -1;
	}
	int rc = output_write(o, relpath, buf_cstr(&b), b.n);
	buf_free(&b);
	return rc;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int output_remove_tree(const char *dir)
{
	struct stat st;
	if (lstat(dir, &st))
		return errno == ENOENT ? 0 : -1;
	return nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* rm -rf on several threads: the folder's entries, and those of its big
 * subfolders, are shared out; the emptied folders go last. */
struct removal {
	char **paths;
	size_t n, cap;
};

static void add_path(struct removal *r, char *p)
{
	r->paths = xgrow(r->paths, &r->cap, r->n + 1, sizeof *r->paths);
	r->paths[r->n++] = p;
}

static void list_entries(const char *dir, struct removal *into, struct removal *big, int depth)
{
	DIR *dh = opendir(dir);
	struct dirent *e;
	while (dh && (e = readdir(dh))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *p = path_join(dir, e->d_name);
		if (depth == 0 && e->d_type == DT_DIR) {
			/* a big folder (r/, resources/) is split one level further */
			add_path(big, p);
			list_entries(p, into, big, depth + 1);
		} else
			add_path(into, p);
	}
	if (dh)
		closedir(dh);
}

static void remove_one(void *ctx, size_t i)
{
	output_remove_tree(((struct removal *)ctx)->paths[i]);
}

static void remove_tree_parallel(const char *dir, int jobs)
{
	if (jobs <= 1) {
		output_remove_tree(dir);
		return;
	}
	struct removal leaves = {0}, folders = {0};
	list_entries(dir, &leaves, &folders, 0);
	pool_run(jobs, leaves.n, remove_one, &leaves);
	for (size_t i = 0; i < folders.n; i++)
		rmdir(folders.paths[i]);
	for (size_t i = 0; i < leaves.n; i++)
		free(leaves.paths[i]);
	for (size_t i = 0; i < folders.n; i++)
		free(folders.paths[i]);
	free(leaves.paths);
	free(folders.paths);
	output_remove_tree(dir); /* what is left, if anything */
}

/* A reused tree holds an older site: what the new one lacks goes. Its
 * listing was taken on a thread of its own while the build ran (output_begin):
 * the files the new site neither wrote nor kept are removed, and so are the
 * folders left with nothing kept (a folder that gained a file meanwhile is
 * not empty, and stays). An unchanged file whose entry is the very inode of
 * the site in place is found there; another inode at its path goes, to be
 * linked afresh. */
static void sweep_reused(struct output *o)
{
	struct hash want = HASH_INIT; /* 0 written, i + 1 the same as same[i] */
	for (size_t i = 0; i < o->nwritten; i++)
		hash_put(&want, o->written[i], 0);
	for (size_t i = 0; i < o->nsame; i++)
		hash_put(&want, o->same[i], i + 1);
	o->same_seen = xcalloc(o->nsame + 1, sizeof *o->same_seen);
	settle(o);
	struct tree_list *l = &o->spare_list;
	bool *stays = xcalloc(l->n + 1, sizeof *stays);
	for (size_t i = 0; i < l->n; i++) {
		const struct tree_entry *e = &l->v[i];
		size_t v;
		if (e->type == DT_DIR)
			continue;
		if (!hash_get(&want, e->rel, &v)) {
			unlinkat(o->staging_fd, e->rel, 0);
			continue;
		}
		for (size_t p = e->parent; p != TREE_LIST_TOP && !stays[p]; p = l->v[p].parent)
			stays[p] = true;
		const struct output_file *a = v ? &o->same_file[v - 1] : NULL;
		if (a && a->ino == e->ino && a->dev == o->staging_dev)
			o->same_seen[v - 1] = true;
		else if (a)
			unlinkat(o->staging_fd, e->rel, 0);
	}
	for (size_t i = l->n; i-- > 0;) /* a folder after what it holds */
		if (l->v[i].type == DT_DIR && !stays[i])
			unlinkat(o->staging_fd, l->v[i].rel, AT_REMOVEDIR);
	free(stays);
	hash_free(&want);
}

/* The old site becomes the spare, unless another build's spare is there. */
static void keep_as_spare(struct output *o, const char *dir)
{
	if (rename(dir, o->spare))
		remove_tree_parallel(dir, o->jobs);
	else
		o->spare_kept = true;
}

int output_note(struct output *o, const void *p, size_t n)
{
	if (!o->spare_kept)
		return -1;
	int dfd = open(o->spare, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc = dfd >= 0 ? path_replace_at(dfd, OUTPUT_NOTE, p, n) : -1;
	if (dfd >= 0)
		close(dfd);
	return rc;
}

/* The passing folders gone before the site is swapped in (spread.h). */
static int finish_spread(struct output *o)
{
	if (spread_finish(&o->spread) == 0)
		return 0;
	fail(o, o->staging, "cannot remove a passing folder");
	output_abort(o);
	return -1;
}

int output_commit(struct output *o)
{
	if (o->failed) {
		output_abort(o);
		return -1;
	}
	struct stat st;
	if (lstat(o->final, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			fail(o, o->final, "output exists and is not a folder");
			output_abort(o);
			return -1;
		}
		/* nothing changed: every file the same, none new, none gone */
		if (o->unchanged == o->files && count_final_files(o) == o->files) {
			if (o->reused)
				keep_as_spare(o, o->staging);
			else
				output_remove_tree(o->staging);
			keep_trees(o, false);
			return 0;
		}
		/* a reused tree: what the new site lacks goes, and its files that
		 * are already the site's found; then the others are linked */
		if (o->reused)
			sweep_reused(o);
		if (link_unchanged(o)) {
			output_abort(o);
			return -1;
		}
		if (finish_spread(o))
			return -1;
		/* atomic: readers see the old site or the new one, never neither */
		if (renameat2(AT_FDCWD, o->staging, AT_FDCWD, o->final, RENAME_EXCHANGE)) {
			fail(o, o->final, "cannot swap in the new site");
			output_abort(o);
			return -1;
		}
		keep_as_spare(o, o->staging); /* now the old site */
	} else if (finish_spread(o)) {
		return -1;
	} else if (rename(o->staging, o->final)) {
		fail(o, o->final, "cannot move the new site into place");
		output_abort(o);
		return -1;
	}
	keep_trees(o, true);
	return 0;
}

void output_abort(struct output *o)
{
	if (!o->staging)
		return;
	if (o->reused) /* half brought up to date: checked file by file next time */
		keep_as_spare(o, o->staging);
	else
		output_remove_tree(o->staging);
}

void output_read(struct output *o)
{
	latch_open(&o->read);
}

void output_free(struct output *o)
{
	latch_open(&o->read); /* no listing left waiting */
	if (o->trees_writing)
		pthread_join(o->trees_writer, NULL);
	for (size_t i = 0; i < o->nsame; i++)
		free(o->same[i]);
	free(o->same);
	free(o->same_file);
	free(o->same_seen);
	for (size_t i = 0; i < o->nwritten; i++)
		free(o->written[i]);
	free(o->written);
	tree_list_free(&o->spare_list);
	spread_free(&o->spread);
	if (o->final_fd >= 0)
		close(o->final_fd);
	if (o->staging_fd >= 0)
		close(o->staging_fd);
	free(o->final);
	free(o->staging);
	free(o->spare);
	free(o->trees);
	if (o->final_hint_owned)
		free((char *)o->final_hint);
	/* the listings kept, which the hints above lay in */
	if (o->trees_map)
		munmap(o->trees_map, o->ntrees_map);
	free(o->note);
	pthread_mutex_destroy(&o->lock);
	pthread_mutex_destroy(&o->settle_lock);
	latch_destroy(&o->read);
	memset(o, 0, sizeof *o);
	o->final_fd = o->staging_fd = o->spare_list.fd = -1;
}
