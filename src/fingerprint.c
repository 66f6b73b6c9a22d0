/* fingerprint: hashing a build's input files (see fingerprint.h). */
#include "fingerprint.h"
#include "digest.h"
#include "path.h"
#include "pool.h"
#include "xalloc.h"

#include <dirent.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void fingerprint_bytes(const void *p, size_t n, unsigned long long out[2])
{
	digest_bytes(p, n, out);
}

int fingerprint_file_digest(const char *path, unsigned long long out[2])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct digest s;
	digest_start(&s);
	static const size_t chunk = 1 << 16;
	unsigned char *b = xmalloc(chunk);
	size_t have = 0;
	int rc = 0;
	for (;;) {
		ssize_t r = read(fd, b + have, chunk - have);
		if (r < 0) {
			rc = -1;
			break;
		}
		have += (size_t)r;
		if (r == 0 || have == chunk) {
			size_t whole = r == 0 ? have : have & ~(size_t)7;
			digest_feed(&s, b, whole);
			memmove(b, b + whole, have - whole);
			have -= whole;
			if (r == 0)
				break;
		}
	}
	free(b);
	close(fd);
	digest_end(&s, out);
	return rc;
}

static unsigned long long self_digest[2];
static pthread_once_t self_once = PTHREAD_ONCE_INIT;

/* The linker's build ID of the running program (a hash of its contents, the
 * embedded theme included), read from memory: hashing the 1.6 MB binary cost
 * more than a whole unchanged build of the portal. */
struct build_id {
	const unsigned char *p;
	size_t n;
};

static int find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct build_id *id = data;
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		const unsigned char *end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
			size_t name = (nh->n_namesz + 3) & ~(size_t)3, desc = (nh->n_descsz + 3) & ~(size_t)3;
			const unsigned char *np = p + sizeof *nh;
			if (np + name + desc > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && !memcmp(np, "GNU", 4) &&
			    nh->n_descsz >= 16) {
				id->p = np + name;
				id->n = nh->n_descsz;
				return 1;
			}
			p = np + name + desc;
		}
	}
	return 1; /* the first object is the program itself: look no further */
}

static void digest_self(void)
{
	struct build_id id = {NULL, 0};
	dl_iterate_phdr(find_build_id, &id);
	if (id.p) {
		fingerprint_bytes(id.p, id.n, self_digest);
		return;
	}
	if (fingerprint_file_digest("/proc/self/exe", self_digest)) {
		/* unknown: a digest no other run shares, so nothing cached is trusted */
		self_digest[0] = (unsigned long long)getpid();
		self_digest[1] = (unsigned long long)(uintptr_t)&self_digest ^ 0x5A5A5A5AULL;
	}
}

static const unsigned long long *fingerprint_self(void)
{
	pthread_once(&self_once, digest_self);
	return self_digest;
}

void fingerprint_add_self(struct buf *manifest)
{
	const unsigned long long *self = fingerprint_self();
	buf_printf(manifest, "ssg %016llx%016llx\n", self[0], self[1]);
}

/* ---- walking the tree ---------------------------------------------------------- */

/* What stat says of a file, as far as telling edits apart goes. */
struct stat_key {
	unsigned long long dev, ino, size, mode;
	long long mtime_ns, ctime_ns;
};

static struct stat_key key_of(const struct stat *st)
{
	return (struct stat_key){(unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
				 (unsigned long long)st->st_size, (unsigned long long)st->st_mode,
				 (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec,
				 (long long)st->st_ctim.tv_sec * 1000000000LL + st->st_ctim.tv_nsec};
}

static bool same_key(const struct stat_key *a, const struct stat_key *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mode == b->mode &&
	       a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns;
}

/* Whether what key describes had last changed over a second before stamp (a
 * run's start): a change within the same clock tick as the run's look could
 * leave the same timestamps behind it (git's "racy clean"). */
static bool settled_before(const struct stat_key *key, long long stamp)
{
	const long long settled = stamp - 1000000000LL;
	return key->mtime_ns < settled && key->ctime_ns < settled;
}

struct known_file {
	char *path;
	struct stat_key key;
	unsigned long long h[2];
};

/* A folder as a run listed it: its stat, taken before its names were read,
 * and its names in name order, each as a type byte (a dirent's d_type), the
 * name and a NUL. */
struct known_folder {
	char *path;
	struct stat_key key;
	char *names;
	size_t len, n;             /* bytes of names, and how many */
};

struct fingerprint_cache {
	char *dir;                 /* it lives in <dir>/.ssg-cache */
	struct known_file *old;    /* as the last run left it */
	size_t nold;
	struct known_folder *old_folders;
	size_t nold_folders;
	char *old_strings;         /* the block holding their paths and names */
	/* A run walks the trees as the last one did: a walk's file i is most
	 * likely the last run's file base + i, and the next folder the one
	 * after the last found. The indexes below are made only when a guess
	 * misses (an edit that adds or removes a file): 10,000 paths hashed
	 * for nothing in most runs. */
	struct hash index;         /* path -> slot of old (index_once) */
	int indexed;
	size_t tree_cursor;        /* where the last tree's files began in old */
	struct hash folder_index;  /* path -> slot of old_folders (index_once) */
	int folders_indexed;
	size_t folder_cursor;      /* the slot after the folder last found */
	long long old_taken_ns;    /* when the last run began to stat */
	long long taken_ns;        /* when this one did */
	struct known_file *now;    /* this run's files */
	size_t nnow, capnow;
	struct known_folder *now_folders; /* and folders */
	size_t nnow_folders, capnow_folders;
	size_t hashed;             /* files this run read */
	size_t listed;             /* folders this run read */
};

/* What the build read, by the walk's path. */
struct fingerprint_learned {
	pthread_mutex_t lock;
	struct hash index;         /* path -> slot */
	struct known_file *v;
	bool *used;                /* per slot: the walk found the file */
	size_t n, cap;
	long long taken_ns;        /* before the first read */
};

struct entry {
	char *rel;
	char *full;
	int dir;         /* its folder, open (an index into walk.dirfds); -1: by path */
	char kind;       /* 'f' file, 'l' symlink, 'o' other, '!' unreadable */
	char *target;    /* symlink's target */
	unsigned long long h[2];
	struct stat_key key;
	bool hashed;     /* read this run (not known by its stat) */
};

/* Folders kept open while their files are stat'ed: a stat by name in its
 * folder looks up one name, not every folder of the path again. */
#define WALK_OPEN_DIRS 256

struct walk {
	struct entry *v;
	size_t n, cap;
	int dirfds[WALK_OPEN_DIRS];
	int ndirfds;
	struct fingerprint_cache *cache;
	struct fingerprint_cache *folders; /* the same: learns the folders' listings */
	size_t old_base;   /* where this tree's files began in cache->old, as guessed */
	struct fingerprint_learned *learned; /* with unframed: documents come from it */
	bool (*unframed)(const char *rel);
	size_t nfolders; /* walked below the top */
	int depth;       /* the deepest of them (1: a folder of the top one) */
};

/* A name a folder holds, with what readdir says it is. */
struct name {
	char *s;
	unsigned char type;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct name *)a)->s, ((const struct name *)b)->s);
}

static void add_entry(struct walk *w, char *rel, char *full, char kind, int dir)
{
	w->v = xgrow(w->v, &w->cap, w->n + 1, sizeof *w->v);
	w->v[w->n++] = (struct entry){.rel = rel, .full = full, .dir = dir, .kind = kind};
}

/* An index of n records' paths (each record's first member, records `size`
 * bytes apart), made by the first caller that needs it; *state: 0 not made,
 * 1 being made (others wait), 2 made. The walk's threads may ask at once. */
static void index_once(struct hash *index, int *state, const void *records, size_t n,
		       size_t size)
{
	int now = __atomic_load_n(state, __ATOMIC_ACQUIRE);
	if (now == 2)
		return;
	if (now == 0 &&
	    __atomic_compare_exchange_n(state, &now, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		hash_reserve(index, n);
		for (size_t i = 0; i < n; i++)
			hash_put(index, *(char *const *)((const char *)records + i * size), i);
		__atomic_store_n(state, 2, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(state, __ATOMIC_ACQUIRE) != 2)
		sched_yield();
}

/* The names the last run listed in the folder at rel, when they are still
 * what it holds: the folder's stat is the one taken then, and was already
 * over a second old when that run began. Making, removing or renaming an
 * entry sets the folder's mtime and ctime, which no one can set back (the
 * rule known_digest applies to files). NULL: the folder is read. */
static const struct known_folder *kept_folder(struct fingerprint_cache *c, const char *rel,
					      const struct stat_key *key)
{
	if (!c || !c->nold_folders)
		return NULL;
	size_t i = c->folder_cursor;
	if (i >= c->nold_folders || strcmp(c->old_folders[i].path, rel)) {
		index_once(&c->folder_index, &c->folders_indexed, c->old_folders, c->nold_folders,
			   sizeof *c->old_folders);
		if (!hash_get(&c->folder_index, rel, &i))
			return NULL;
	}
	c->folder_cursor = i + 1;
	const struct known_folder *f = &c->old_folders[i];
	return same_key(&f->key, key) && settled_before(&f->key, c->old_taken_ns) ? f : NULL;
}

/* A folder's names as readdir gives them (those starting with '.' left
 * out), in name order; false when it cannot be read. */
static bool read_names(int fd, struct name **out, size_t *count)
{
	int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return false;
	}
	struct name *names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			names = xgrow(names, &cap, n + 1, sizeof *names);
			names[n++] = (struct name){xstrdup(e->d_name), e->d_type};
		}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_name);
	*out = names;
	*count = n;
	return true;
}

static struct name *kept_names(const struct known_folder *f, size_t *count)
{
	struct name *names = xcalloc(f->n + 1, sizeof *names);
	const char *p = f->names;
	for (size_t i = 0; i < f->n; i++) {
		size_t len = strlen(p + 1);
		names[i] = (struct name){xstrndup(p + 1, len), (unsigned char)p[0]};
		p += len + 2;
	}
	*count = f->n;
	return names;
}

/* This run's listing of the folder at rel, for the next run. */
static void note_folder(struct fingerprint_cache *c, const char *rel, const struct stat_key *key,
			const struct name *names, size_t n)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		buf_putc(&b, (char)names[i].type);
		buf_put(&b, names[i].s, strlen(names[i].s) + 1);
	}
	c->now_folders = xgrow(c->now_folders, &c->capnow_folders, c->nnow_folders + 1,
			       sizeof *c->now_folders);
	c->now_folders[c->nnow_folders++] =
		(struct known_folder){xstrdup(rel), *key, b.p, b.n, n};
}

/* Folders are walked here, in name order; what else they hold is only
 * named: hash_entry stats it (on the pool's threads). A folder whose stat
 * says it holds what the last run listed is not read again. */
static void walk_dir(struct walk *w, const char *full, const char *rel, int depth)
{
	int fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	bool ok = fd >= 0 && fstat(fd, &st) == 0;
	struct stat_key key = ok ? key_of(&st) : (struct stat_key){0};
	const struct known_folder *kept = ok ? kept_folder(w->cache, rel, &key) : NULL;
	struct name *names = NULL;
	size_t n = 0;
	if (kept)
		names = kept_names(kept, &n);
	else if (!ok || !read_names(fd, &names, &n)) {
		if (fd >= 0)
			close(fd);
		add_entry(w, xstrdup(rel), xstrdup(full), '!', -1);
		return;
	}
	int open_dir = -1;
	if (w->ndirfds < WALK_OPEN_DIRS) {
		open_dir = w->ndirfds;
		w->dirfds[w->ndirfds++] = fd;
	} else
		close(fd);
	for (size_t i = 0; i < n; i++) {
		char *cf = path_join(full, names[i].s);
		char *cr = path_join(rel, names[i].s);
		struct stat est;
		bool dir = names[i].type == DT_DIR ||
			   (names[i].type == DT_UNKNOWN && lstat(cf, &est) == 0 && S_ISDIR(est.st_mode));
		if (dir)
			names[i].type = DT_DIR; /* as the next run will take it */
		if (dir && depth < 64) {
			w->nfolders++;
			if (depth + 1 > w->depth)
				w->depth = depth + 1;
			walk_dir(w, cf, cr, depth + 1);
			free(cf);
			free(cr);
		} else
			add_entry(w, cr, cf, '?', open_dir);
	}
	if (w->folders) {
		note_folder(w->folders, rel, &key, names, n);
		w->folders->listed += !kept;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i].s);
	free(names);
}

/* The digest the last run took of a file whose stat is unchanged since, when
 * that stat is old enough to be trusted: a file changed within a second
 * before the last run looked at it could change again under the same
 * timestamps (they tick coarsely), so it is read again (git's "racy clean"). */
static bool known_digest(struct fingerprint_cache *c, const struct entry *e, size_t guess,
			 unsigned long long h[2])
{
	if (!c || !c->nold)
		return false;
	size_t i = guess;
	if (i >= c->nold || strcmp(c->old[i].path, e->rel)) {
		index_once(&c->index, &c->indexed, c->old, c->nold, sizeof *c->old);
		if (!hash_get(&c->index, e->rel, &i))
			return false;
	}
	const struct known_file *k = &c->old[i];
	if (!same_key(&k->key, &e->key) || !settled_before(&k->key, c->old_taken_ns))
		return false;
	h[0] = k->h[0];
	h[1] = k->h[1];
	return true;
}

/* A document the build read: its digest and stat as they were then, and the
 * slot marked as found. An unread document is unknown ('?'). */
static void learned_digest(struct walk *w, struct entry *e)
{
	size_t i;
	if (!hash_get(&w->learned->index, e->rel, &i)) {
		e->kind = '?';
		return;
	}
	const struct known_file *k = &w->learned->v[i];
	e->key = k->key;
	e->h[0] = k->h[0];
	e->h[1] = k->h[1];
	e->hashed = true; /* read by this run: the stat cache learns it */
	w->learned->used[i] = true;
}

static void hash_entry(void *ctx, size_t i)
{
	struct walk *w = ctx;
	struct entry *e = &w->v[i];
	struct stat st;
	if (e->kind == '?') {
		const char *base = strrchr(e->full, '/');
		int at = e->dir >= 0 && base ? w->dirfds[e->dir] : -1;
		if (at >= 0 ? fstatat(at, base + 1, &st, AT_SYMLINK_NOFOLLOW) : lstat(e->full, &st))
			e->kind = '!';
		else {
			e->kind = S_ISREG(st.st_mode) ? 'f' : S_ISLNK(st.st_mode) ? 'l' : 'o';
			e->key = key_of(&st);
		}
	}
	size_t li;
	if (e->kind == 'f' && w->learned && w->unframed && w->unframed(e->rel))
		learned_digest(w, e);
	else if (e->kind == 'l' && w->learned && hash_get(&w->learned->index, e->rel, &li))
		w->learned->used[li] = true; /* read through the link: listed by its target */
	else if (e->kind == 'f' && !known_digest(w->cache, e, w->old_base + i, e->h)) {
		e->hashed = true;
		if (fingerprint_file_digest(e->full, e->h))
			e->kind = '!';
	}
	else if (e->kind == 'l') {
		char t[4096];
		ssize_t n = readlink(e->full, t, sizeof t - 1);
		e->target = xstrndup(t, n > 0 ? (size_t)n : 0);
	}
}

/* A file's line ends with its digest in hex and a newline: LINE_TAIL bytes,
 * made once for the two or three manifests it goes in. */
#define LINE_TAIL 33
static void line_tail(char tail[LINE_TAIL], const unsigned long long h[2])
{
	static const char digits[] = "0123456789abcdef";
	for (int k = 0; k < 32; k++)
		tail[k] = digits[(h[k / 16] >> (60 - 4 * (k % 16))) & 15];
	tail[32] = '\n';
}

/* The line: rel, a NUL, kind, then a file's digest or a link's target. */
static void put_line_tail(struct buf *m, const char *rel, size_t len, char kind,
			  const char *tail, const char *target)
{
	buf_grow(m, len + 2 + LINE_TAIL);
	memcpy(m->p + m->n, rel, len);
	m->p[m->n + len] = '\0';
	m->p[m->n + len + 1] = kind;
	m->n += len + 2;
	if (kind == 'f')
		buf_put(m, tail, LINE_TAIL);
	else {
		if (target)
			buf_puts(m, target);
		buf_putc(m, '\n');
	}
}

static void put_line(struct buf *m, const char *rel, char kind, const unsigned long long h[2],
		     const char *target)
{
	char tail[LINE_TAIL];
	if (kind == 'f')
		line_tail(tail, h);
	put_line_tail(m, rel, strlen(rel), kind, tail, target);
}

void fingerprint_tree(struct buf *manifest, const char *root, const char *rel, int jobs)
{
	fingerprint_tree_keep(manifest, root, rel, jobs, NULL);
}

static void remember(struct fingerprint_cache *c, const struct entry *e)
{
	c->now = xgrow(c->now, &c->capnow, c->nnow + 1, sizeof *c->now);
	c->now[c->nnow++] = (struct known_file){xstrdup(e->rel), e->key, {e->h[0], e->h[1]}};
	c->hashed += e->hashed;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Documents the build read that the walk did not find (gone since), listed
 * as unknown, in name order. */
static void list_unfound(const struct fingerprint_learned *l, struct buf *manifest,
			 struct buf *frame)
{
	const char **gone = xcalloc(l->n + 1, sizeof *gone);
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		if (!l->used[i])
			gone[n++] = l->v[i].path;
	if (n > 1)
		qsort(gone, n, sizeof *gone, cmp_strp);
	for (size_t i = 0; i < n; i++) {
		put_line(manifest, gone[i], '?', NULL, NULL);
		if (frame)
			put_line(frame, gone[i], '?', NULL, NULL);
	}
	free(gone);
}

/* Where the last run's files under the tree rel began in c->old (its
 * trees one after another, in the order walked): a guess, checked path by
 * path (known_digest). */
static size_t tree_base(struct fingerprint_cache *c, const char *rel)
{
	if (!c || !c->nold)
		return 0;
	size_t len = strlen(rel);
	for (size_t n = 0, k = c->tree_cursor; n < c->nold; n++, k = (k + 1) % c->nold)
		if (!strncmp(c->old[k].path, rel, len) && c->old[k].path[len] == '/') {
			c->tree_cursor = k;
			return k;
		}
	return c->nold; /* none: every guess misses */
}

void fingerprint_tree_keep(struct buf *manifest, const char *root, const char *rel, int jobs,
			   const struct fingerprint_walk *how)
{
	static const struct fingerprint_walk plain = {0};
	if (!how)
		how = &plain;
	char *full = path_join(root, rel);
	struct stat st;
	if (stat(full, &st) || !S_ISDIR(st.st_mode)) {
		put_line(manifest, rel, '-', NULL, NULL);
		if (how->frame)
			put_line(how->frame, rel, '-', NULL, NULL);
		if (how->unnamed)
			put_line(how->unnamed, rel, '-', NULL, NULL);
		free(full);
		return;
	}
	/* the cache trusts what settled a second before it looked: with documents
	 * read earlier, it looked when they were read */
	if (how->cache && how->learned && how->learned->taken_ns < how->cache->taken_ns)
		how->cache->taken_ns = how->learned->taken_ns;
	struct walk w = {.cache = how->cache, .folders = how->cache, .learned = how->learned,
			 .unframed = how->unframed, .old_base = tree_base(how->cache, rel)};
	walk_dir(&w, full, rel, 0);
	pool_run(jobs, w.n, hash_entry, &w);
	for (int i = 0; i < w.ndirfds; i++)
		close(w.dirfds[i]);
	struct file_digests *keep = how->keep;
	if (keep) {
		keep->paths = xrealloc(keep->paths, (keep->n + w.n + 1) * sizeof *keep->paths);
		keep->digests = xrealloc(keep->digests, (keep->n + w.n + 1) * sizeof *keep->digests);
		keep->whole_tree = keep->n == 0;
		keep->nfolders = w.nfolders;
		keep->depth = w.depth;
		for (size_t i = 0; i < w.n; i++)
			keep->whole_tree &= w.v[i].kind == 'f';
	}
	/* room for every line at once: 10,000 of them, grown a line at a time,
	 * were copied over and over */
	size_t room = 0;
	for (size_t i = 0; i < w.n; i++)
		room += strlen(w.v[i].rel) + 2 + LINE_TAIL + (w.v[i].target ? strlen(w.v[i].target) : 0);
	buf_grow(manifest, room);
	if (how->frame)
		buf_grow(how->frame, room);
	if (how->unnamed)
		buf_grow(how->unnamed, room);
	for (size_t i = 0; i < w.n; i++) {
		struct entry *e = &w.v[i];
		size_t len = strlen(e->rel);
		char tail[LINE_TAIL];
		if (e->kind == 'f')
			line_tail(tail, e->h);
		put_line_tail(manifest, e->rel, len, e->kind, tail, e->target);
		bool bytes_aside = e->kind == 'f' && how->unframed && how->unframed(e->rel);
		if (how->frame)
			put_line_tail(how->frame, e->rel, len, bytes_aside ? 'v' : e->kind, tail,
				      e->target);
		if (how->unnamed && !bytes_aside)
			put_line_tail(how->unnamed, e->rel, len, e->kind, tail, e->target);
		if (how->cache && e->kind == 'f')
			remember(how->cache, e);
		if (keep && e->kind == 'f') {
			keep->paths[keep->n] = e->rel; /* handed over */
			keep->digests[keep->n][0] = e->h[0];
			keep->digests[keep->n++][1] = e->h[1];
			e->rel = NULL;
		}
		free(e->rel);
		free(e->full);
		free(e->target);
	}
	free(w.v);
	free(full);
	if (how->learned)
		list_unfound(how->learned, manifest, how->frame);
}

/* ---- the cache of digests by stat ---------------------------------------------- */

#define CACHE_MAGIC "ssg-stat 2 digest " DIGEST_VERSION "\n" /* its digests are digest.h's */
#define CACHE_FILE FINGERPRINT_CACHE_FILE

static long long realtime_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The cache file: the magic, when its run began to stat, how many files,
 * then each file: its stat key, digest, path length and path; then how many
 * folders, and each folder: its stat key, path length and path, how many
 * names, their bytes' length and the bytes (known_folder's). Host order:
 * the cache never leaves the machine. Every read is bounds-checked; a
 * damaged file leaves what was read before the damage (files), or nothing
 * (folders: a listing is taken whole or not at all). */
static bool take(const char **p, const char *end, void *out, size_t n)
{
	if ((size_t)(end - *p) < n)
		return false;
	memcpy(out, *p, n);
	*p += n;
	return true;
}

/* len bytes at *p copied to *to as a string; returns where it lies. */
static char *take_str(const char **p, const char *end, char **to, size_t len)
{
	if ((size_t)(end - *p) < len)
		return NULL;
	char *s = memcpy(*to, *p, len);
	s[len] = '\0';
	*to += len + 1;
	*p += len;
	return s;
}

static void load_folders(struct fingerprint_cache *c, const char **p, const char *end, char **to)
{
	unsigned long long n;
	if (!take(p, end, &n, 8) || n > (size_t)(end - *p) / (sizeof(struct stat_key) + 12))
		return;
	struct known_folder *v = xcalloc((size_t)n + 1, sizeof *v);
	size_t i = 0;
	for (; i < n; i++) {
		struct known_folder *f = &v[i];
		uint32_t len, count, bytes;
		if (!take(p, end, &f->key, sizeof f->key) || !take(p, end, &len, 4) ||
		    !(f->path = take_str(p, end, to, len)) || !take(p, end, &count, 4) ||
		    !take(p, end, &bytes, 4) || !(f->names = take_str(p, end, to, bytes)))
			break;
		/* count names, each a type byte, a name and its NUL */
		size_t seen = 0;
		for (const char *q = f->names, *e = f->names + bytes; q < e; seen++) {
			const char *nul = q + 1 < e ? memchr(q + 1, '\0', (size_t)(e - q - 1)) : NULL;
			if (!nul || nul == q + 1)
				break;
			q = nul + 1;
		}
		if (seen != count || (count && f->names[bytes - 1] != '\0'))
			break;
		f->len = bytes;
		f->n = count;
	}
	if (i < n) {
		free(v);
		return;
	}
	c->old_folders = v;
	c->nold_folders = (size_t)n;
}

static void load_known(struct fingerprint_cache *c, const struct buf *b)
{
	const size_t ml = strlen(CACHE_MAGIC);
	const char *p = b->p, *end = b->p + b->n;
	unsigned long long n;
	if (b->n < ml + 16 || memcmp(p, CACHE_MAGIC, ml))
		return;
	memcpy(&c->old_taken_ns, p + ml, 8);
	memcpy(&n, p + ml + 8, 8);
	p += ml + 16;
	if (n > b->n / (sizeof(struct stat_key) + 20))
		return;
	c->old = xcalloc((size_t)n + 1, sizeof *c->old);
	/* every string in one block: each is shorter, NUL and all, than its
	 * record in the file */
	char *to = c->old_strings = xmalloc(b->n);
	for (size_t i = 0; i < n; i++) {
		struct known_file *k = &c->old[i];
		uint32_t len;
		if (!take(&p, end, &k->key, sizeof k->key) || !take(&p, end, k->h, 16) ||
		    !take(&p, end, &len, 4) || !(k->path = take_str(&p, end, &to, len)))
			break;
		c->nold = i + 1;
	}
	if (c->nold == n)
		load_folders(c, &p, end, &to);
}

struct fingerprint_cache *fingerprint_cache_open(const char *dir, bool trust)
{
	struct fingerprint_cache *c = xcalloc(1, sizeof *c);
	c->dir = xstrdup(dir);
	c->taken_ns = realtime_ns();
	int cfd = trust ? path_open_subdir(dir, FINGERPRINT_CACHE_DIR, false) : -1;
	int fd = cfd >= 0 ? openat(cfd, CACHE_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (fd >= 0) {
		struct buf b = BUF_INIT;
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (1 << 28)) {
			buf_grow(&b, (size_t)st.st_size + 1);
			ssize_t r = read(fd, b.p, (size_t)st.st_size);
			b.n = r == st.st_size ? (size_t)r : 0;
			load_known(c, &b);
		}
		buf_free(&b);
		close(fd);
	}
	if (cfd >= 0)
		close(cfd);
	return c;
}

/* The stamp the cache file in the folder cfd has now (0: none): read even
 * when the run did not trust the file's entries (--force). */
static long long stamp_in_place(int cfd)
{
	const size_t ml = strlen(CACHE_MAGIC);
	char head[64];
	long long stamp = 0;
	int fd = openat(cfd, CACHE_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && ml + 8 <= sizeof head && pread(fd, head, ml + 8, 0) == (ssize_t)(ml + 8) &&
	    !memcmp(head, CACHE_MAGIC, ml))
		memcpy(&stamp, head + ml, 8);
	if (fd >= 0)
		close(fd);
	return stamp;
}

/* Whether an earlier stamp serves this run's entries as well as this run's:
 * each settled before it, known_digest trusts them under either (an older
 * stamp only ever trusts less). Written with it, a cache whose files are
 * unchanged is the same bytes as the one in place, and left as it is. */
static bool stamp_serves(const struct fingerprint_cache *c, long long stamp)
{
	if (stamp <= 0 || stamp > c->taken_ns)
		return false;
	for (size_t i = 0; i < c->nnow; i++)
		if (!settled_before(&c->now[i].key, stamp))
			return false;
	for (size_t i = 0; i < c->nnow_folders; i++)
		if (!settled_before(&c->now_folders[i].key, stamp))
			return false;
	return true;
}

static void save_known(const struct fingerprint_cache *c)
{
	int cfd = path_open_subdir(c->dir, FINGERPRINT_CACHE_DIR, true);
	if (cfd < 0)
		return;
	struct buf b = BUF_INIT;
	buf_puts(&b, CACHE_MAGIC);
	unsigned long long n = c->nnow;
	/* the stamp read with the entries, or (untrusted, so unread) the file's */
	long long was = c->old ? c->old_taken_ns : stamp_in_place(cfd);
	long long stamp = stamp_serves(c, was) ? was : c->taken_ns;
	buf_put(&b, &stamp, 8);
	buf_put(&b, &n, 8);
	for (size_t i = 0; i < c->nnow; i++) {
		const struct known_file *k = &c->now[i];
		uint32_t len = (uint32_t)strlen(k->path);
		buf_put(&b, &k->key, sizeof k->key);
		buf_put(&b, k->h, 16);
		buf_put(&b, &len, 4);
		buf_put(&b, k->path, len);
	}
	n = c->nnow_folders;
	buf_put(&b, &n, 8);
	for (size_t i = 0; i < c->nnow_folders; i++) {
		const struct known_folder *f = &c->now_folders[i];
		uint32_t len = (uint32_t)strlen(f->path), count = (uint32_t)f->n,
			 bytes = (uint32_t)f->len;
		buf_put(&b, &f->key, sizeof f->key);
		buf_put(&b, &len, 4);
		buf_put(&b, f->path, len);
		buf_put(&b, &count, 4);
		buf_put(&b, &bytes, 4);
		if (bytes)
			buf_put(&b, f->names, bytes);
	}
	path_replace_at(cfd, CACHE_FILE, b.p, b.n);
	buf_free(&b);
	close(cfd);
}

size_t fingerprint_cache_reads(const struct fingerprint_cache *c) { return c->hashed; }

size_t fingerprint_cache_listed(const struct fingerprint_cache *c) { return c->listed; }

bool fingerprint_cache_exists(const char *dir)
{
	char *p = xasprintf("%s/" FINGERPRINT_CACHE_DIR "/" CACHE_FILE, dir);
	struct stat st;
	bool yes = lstat(p, &st) == 0 && S_ISREG(st.st_mode);
	free(p);
	return yes;
}

/* ---- what the build read ------------------------------------------------------- */

struct fingerprint_learned *fingerprint_learned_new(void)
{
	struct fingerprint_learned *l = xcalloc(1, sizeof *l);
	pthread_mutex_init(&l->lock, NULL);
	l->taken_ns = realtime_ns();
	return l;
}

void fingerprint_learned_add(struct fingerprint_learned *l, const char *rel,
			     const struct stat *st, const unsigned long long h[2])
{
	pthread_mutex_lock(&l->lock);
	if (!hash_get(&l->index, rel, NULL)) {
		size_t cap = l->cap;
		l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
		if (l->cap != cap)
			l->used = xrealloc(l->used, l->cap * sizeof *l->used);
		l->v[l->n] = (struct known_file){xstrdup(rel), key_of(st), {h[0], h[1]}};
		l->used[l->n] = false;
		hash_put(&l->index, l->v[l->n].path, l->n);
		l->n++;
	}
	pthread_mutex_unlock(&l->lock);
}

void fingerprint_learned_free(struct fingerprint_learned *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].path);
	free(l->v);
	free(l->used);
	hash_free(&l->index);
	pthread_mutex_destroy(&l->lock);
	free(l);
}

void fingerprint_cache_close(struct fingerprint_cache *c)
{
	if (!c)
		return;
	/* written when a file or a folder was read, or the set of either
	 * changed (a folder read within a second of a change is then taken
	 * from its listing once that settled) */
	if (c->hashed || c->nnow != c->nold || c->listed || c->nnow_folders != c->nold_folders)
		save_known(c);
	free(c->old_strings);
	for (size_t i = 0; i < c->nnow; i++)
		free(c->now[i].path);
	for (size_t i = 0; i < c->nnow_folders; i++) {
		free(c->now_folders[i].path);
		free(c->now_folders[i].names);
	}
	free(c->old);
	free(c->now);
	free(c->old_folders);
	free(c->now_folders);
	hash_free(&c->index);
	hash_free(&c->folder_index);
	free(c->dir);
	free(c);
}

static void *close_cache(void *arg)
{
	fingerprint_cache_close(arg);
	return NULL;
}

void fingerprint_cache_close_into(struct fingerprint_cache *c, struct file_digests *k)
{
	if (k->saving)
		pthread_join(k->saver, NULL);
	k->saving = c && pthread_create(&k->saver, NULL, close_cache, c) == 0;
	if (!k->saving)
		fingerprint_cache_close(c);
}

bool file_digests_get(const struct file_digests *k, const char *path, unsigned long long out[2])
{
	size_t i;
	if (!k || !k->n)
		return false;
	/* made by the first caller (the reading's threads ask at once): an
	 * unchanged build needs none; the index only, hence the cast */
	struct file_digests *m = (struct file_digests *)k;
	index_once(&m->index, &m->index_state, k->paths, k->n, sizeof *k->paths);
	if (!hash_get(&k->index, path, &i))
		return false;
	out[0] = k->digests[i][0];
	out[1] = k->digests[i][1];
	return true;
}

void file_digests_free(struct file_digests *k)
{
	if (k->saving)
		pthread_join(k->saver, NULL);
	for (size_t i = 0; i < k->n; i++)
		free(k->paths[i]);
	free(k->paths);
	free(k->digests);
	hash_free(&k->index);
	memset(k, 0, sizeof *k);
}

void fingerprint_file(struct buf *manifest, const char *root, const char *rel)
{
	char *full = path_join(root, rel);
	unsigned long long h[2] = {0, 0};
	put_line(manifest, rel, fingerprint_file_digest(full, h) ? '-' : 'f', h, NULL);
	free(full);
}

void fingerprint_hex(const struct buf *manifest, char out[33])
{
	unsigned long long h[2];
	fingerprint_bytes(manifest->p ? manifest->p : "", manifest->n, h);
	snprintf(out, 33, "%016llx%016llx", h[0], h[1]);
}
