/* tree_list: a folder tree listed on a background thread (see tree_list.h). */
#include "tree_list.h"
#include "buf.h"
#include "digest.h"
#include "heap_warm.h"
#include "path.h"
#include "xalloc.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The hint: "ssg-tree 1\n", when it was listed (i64, ns), the number of
 * folders (u64), then per folder its path (u32 length, bytes, NUL), inode (u64),
 * ctime (i64, ns) and entries (u32 count; each: type u8, inode u64, name as
 * u32 length and bytes), in host order (a cache of this machine's), and the
 * digest of all that (two u64): a hint damaged anywhere is not used. */
#define HINT_MAGIC "ssg-tree 1\n"
#define HINT_MAGIC_LEN (sizeof HINT_MAGIC - 1)
#define RACY_NS 2000000000LL /* a ctime this close to the listing is not trusted */

struct tree_hint {
	const char *p;
	size_t n;
	bool owned;          /* p is freed with the listing (else the caller's) */
	long long started;
	struct hash folders; /* rel -> offset of the folder's inode, in p */
	bool valid;
};

static void add(struct tree_list *l, char *rel, size_t parent, unsigned long long ino,
		unsigned char type)
{
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = (struct tree_entry){rel, parent, ino, type, 0};
}

/* ---- reading a hint: every field checked against the bytes left --------- */

struct cursor {
	const char *p, *end;
	bool bad;
};

/* n bytes into out (zeros past the end, which marks the cursor bad). */
static void get_fixed(struct cursor *c, void *out, size_t n)
{
	memset(out, 0, n);
	if ((size_t)(c->end - c->p) < n)
		c->bad = true;
	else {
		memcpy(out, c->p, n);
		c->p += n;
	}
}

static uint64_t get_u64(struct cursor *c)
{
	uint64_t v;
	get_fixed(c, &v, sizeof v);
	return v;
}

static uint32_t get_u32(struct cursor *c)
{
	uint32_t v;
	get_fixed(c, &v, sizeof v);
	return v;
}

/* n bytes of name; NULL past the end. */
static const char *get_bytes(struct cursor *c, uint32_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return NULL;
	}
	const char *at = c->p;
	c->p += n;
	return at;
}

/* A name a folder can hold: not empty, no '/', no NUL, not "." or "..". */
static bool plain_name(const char *s, uint32_t n)
{
	return n && n < 4096 && !memchr(s, '/', n) && !memchr(s, '\0', n) &&
	       !(n == 1 && s[0] == '.') && !(n == 2 && s[0] == '.' && s[1] == '.');
}

static bool known_type(unsigned char t)
{
	return t == DT_DIR || t == DT_REG || t == DT_LNK || t == DT_FIFO || t == DT_SOCK ||
	       t == DT_CHR || t == DT_BLK;
}

/* Check the whole hint and index its folders by path; a hint with any fault
 * is not used at all. */
static void read_hint(struct tree_hint *h)
{
	unsigned long long sum[2], was[2];
	if (h->n < HINT_MAGIC_LEN + sizeof was || memcmp(h->p, HINT_MAGIC, HINT_MAGIC_LEN))
		return;
	h->n -= sizeof was;
	memcpy(was, h->p + h->n, sizeof was);
	digest_bytes(h->p, h->n, sum);
	if (sum[0] != was[0] || sum[1] != was[1])
		return;
	struct cursor c = {h->p, h->p + h->n, false};
	c.p += HINT_MAGIC_LEN;
	h->started = (long long)get_u64(&c);
	uint64_t nfolders = get_u64(&c);
	if (c.bad || nfolders > h->n)
		return;
	hash_reserve(&h->folders, (size_t)nfolders);
	for (uint64_t f = 0; f < nfolders && !c.bad; f++) {
		uint32_t rn = get_u32(&c);
		const char *rel = get_bytes(&c, rn + 1);
		if (!rel || !rn || rn >= 4096 || memchr(rel, '\0', rn) || rel[rn]) {
			c.bad = true;
			break;
		}
		size_t at = (size_t)(c.p - h->p);
		get_u64(&c); /* inode */
		get_u64(&c); /* ctime */
		uint32_t k = get_u32(&c);
		for (uint32_t i = 0; i < k && !c.bad; i++) {
			const char *type = get_bytes(&c, 1);
			if (!type || !known_type((unsigned char)*type)) {
				c.bad = true;
				break;
			}
			get_u64(&c);
			uint32_t nn = get_u32(&c);
			const char *name = get_bytes(&c, nn);
			if (!name || !plain_name(name, nn))
				c.bad = true;
		}
		if (!c.bad && (!path_is_safe_rel(rel) || hash_get(&h->folders, rel, NULL)))
			c.bad = true;
		if (!c.bad)
			hash_put(&h->folders, rel, at); /* the key lies in p: it lasts */
	}
	h->valid = !c.bad && c.p == c.end;
}

/* Take folder self's entries from the hint when its inode and ctime (st)
 * are the ones noted, long enough after that ctime; false when it must be
 * read. */
static bool from_hint(struct tree_list *l, size_t self, unsigned long long ino, long long ctime)
{
	struct tree_hint *h = l->hint;
	size_t at;
	if (!h || !h->valid || !ctime || !hash_get(&h->folders, l->v[self].rel, &at))
		return false;
	struct cursor c = {h->p + at, h->p + h->n, false};
	uint64_t was_ino = get_u64(&c);
	long long was_ctime = (long long)get_u64(&c);
	if (was_ino != ino || was_ctime != ctime || ctime > h->started - RACY_NS)
		return false;
	uint32_t k = get_u32(&c);
	for (uint32_t i = 0; i < k; i++) {
		unsigned char type = (unsigned char)*get_bytes(&c, 1);
		unsigned long long eino = get_u64(&c);
		uint32_t nn = get_u32(&c);
		const char *name = get_bytes(&c, nn);
		/* the folder's path again: v may have moved */
		const char *dir = l->v[self].rel;
		size_t dn = strlen(dir);
		char *rel = xmalloc(dn + 1 + nn + 1);
		memcpy(rel, dir, dn);
		rel[dn] = '/';
		memcpy(rel + dn + 1, name, nn);
		rel[dn + 1 + nn] = '\0';
		add(l, rel, self, eino, type);
	}
	l->from_hint++;
	return true;
}

static unsigned char type_of(mode_t m)
{
	return S_ISDIR(m) ? DT_DIR : S_ISREG(m) ? DT_REG : S_ISLNK(m) ? DT_LNK
	       : S_ISFIFO(m) ? DT_FIFO : S_ISSOCK(m) ? DT_SOCK : S_ISCHR(m) ? DT_CHR : DT_BLK;
}

static long long ns_of(long long sec, long long nsec) { return sec * 1000000000LL + nsec; }

/* The entries of one folder (self: its index, or TREE_LIST_TOP). */
static void list_folder(struct tree_list *l, size_t self)
{
	const char *rel = self == TREE_LIST_TOP ? "." : l->v[self].rel;
	if (self != TREE_LIST_TOP && l->hint) {
		struct statx sx;
		if (statx(l->fd, rel, AT_SYMLINK_NOFOLLOW | AT_STATX_DONT_SYNC,
			  STATX_TYPE | STATX_INO | STATX_CTIME, &sx) == 0 &&
		    S_ISDIR(sx.stx_mode)) {
			long long ctime = ns_of(sx.stx_ctime.tv_sec, sx.stx_ctime.tv_nsec);
			if (from_hint(l, self, (unsigned long long)sx.stx_ino, ctime)) {
				l->v[self].ctime = ctime;
				return;
			}
		}
	}
	int dfd = openat(l->fd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		l->complete = false;
		return;
	}
	/* the ctime before the entries: a change after it sets another */
	struct stat dst;
	long long ctime = fstat(dfd, &dst) == 0 ? ns_of(dst.st_ctim.tv_sec, dst.st_ctim.tv_nsec) : 0;
	_Alignas(struct dirent64) char buf[8192];
	ssize_t got;
	while ((got = getdents64(dfd, buf, sizeof buf)) > 0)
		for (ssize_t at = 0; at < got;) {
			const struct dirent64 *e = (const struct dirent64 *)(buf + at);
			at += e->d_reclen;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			unsigned char type = e->d_type;
			unsigned long long ino = (unsigned long long)e->d_ino;
			if (type == DT_UNKNOWN) { /* a file system that does not say */
				struct stat st;
				if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
					l->complete = false;
					continue;
				}
				type = type_of(st.st_mode);
				ino = (unsigned long long)st.st_ino;
			}
			/* the folder's path again: v may have moved */
			char *p = self == TREE_LIST_TOP ? xstrdup(e->d_name)
							: path_join(l->v[self].rel, e->d_name);
			add(l, p, self, ino, type);
		}
	if (got < 0)
		l->complete = false;
	else if (self != TREE_LIST_TOP)
		l->v[self].ctime = ctime;
	close(dfd);
}

static void *run(void *arg)
{
	struct tree_list *l = arg;
	if (l->after)
		latch_wait(l->after);
	heap_warm_worker();
	if (l->hint)
		read_hint(l->hint);
	list_folder(l, TREE_LIST_TOP);
	for (size_t i = 0; i < l->n; i++) /* each folder after the one holding it */
		if (l->v[i].type == DT_DIR)
			list_folder(l, i);
	/* its files found by path too, indexed here rather than by the
	 * waiting caller */
	size_t files = 0;
	for (size_t i = 0; i < l->n; i++)
		files += l->v[i].type == DT_REG;
	hash_reserve(&l->by_rel, files);
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].type == DT_REG)
			hash_put(&l->by_rel, l->v[i].rel, i);
	return NULL;
}

const struct tree_entry *tree_list_find(const struct tree_list *l, const char *rel)
{
	size_t i;
	return hash_get(&l->by_rel, rel, &i) ? &l->v[i] : NULL;
}

static bool start(struct tree_list *l, int dirfd, const char *hint, size_t nhint, bool owned,
		  struct latch *after)
{
	memset(l, 0, sizeof *l);
	l->after = after;
	l->complete = true;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	l->started = ns_of(ts.tv_sec, ts.tv_nsec);
	l->fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	if (l->fd < 0) {
		if (owned)
			free((char *)hint);
		return false;
	}
	if (hint) {
		l->hint = xcalloc(1, sizeof *l->hint);
		l->hint->p = hint;
		l->hint->n = nhint;
		l->hint->owned = owned;
	}
	if (pthread_create(&l->thread, NULL, run, l)) {
		l->after = NULL; /* no thread to spare: listed now, not waiting */
		run(l);
	} else
		l->running = true;
	return true;
}

bool tree_list_start(struct tree_list *l, int dirfd, char *hint, size_t nhint)
{
	return start(l, dirfd, hint, nhint, true, NULL);
}

bool tree_list_start_borrowed(struct tree_list *l, int dirfd, const char *hint, size_t nhint)
{
	return start(l, dirfd, hint, nhint, false, NULL);
}

bool tree_list_start_after(struct tree_list *l, int dirfd, const char *hint, size_t nhint,
			   struct latch *after)
{
	return start(l, dirfd, hint, nhint, false, after);
}

void tree_list_wait(struct tree_list *l)
{
	if (l->after)
		latch_open(l->after);
	if (l->running)
		pthread_join(l->thread, NULL);
	l->running = false;
}

static void put_u64(struct buf *b, uint64_t v) { buf_put(b, &v, sizeof v); }
static void put_u32(struct buf *b, uint32_t v) { buf_put(b, &v, sizeof v); }

void tree_list_save(const struct tree_list *l, struct buf *out)
{
	if (!l->complete)
		return;
	/* each folder's entries were added together, right after one another */
	size_t *first = xcalloc(l->n + 1, sizeof *first), *count = xcalloc(l->n + 1, sizeof *count);
	size_t nfolders = 0;
	for (size_t i = 0; i < l->n; i++) {
		size_t p = l->v[i].parent;
		if (p != TREE_LIST_TOP && !count[p]++)
			first[p] = i;
		nfolders += l->v[i].type == DT_DIR && l->v[i].ctime;
	}
	size_t start = out->n;
	buf_put(out, HINT_MAGIC, HINT_MAGIC_LEN);
	put_u64(out, (uint64_t)l->started);
	put_u64(out, nfolders);
	for (size_t i = 0; i < l->n; i++) {
		const struct tree_entry *d = &l->v[i];
		if (d->type != DT_DIR || !d->ctime)
			continue;
		size_t rn = strlen(d->rel), dn = rn + 1;
		put_u32(out, (uint32_t)rn);
		buf_put(out, d->rel, rn + 1); /* with its NUL: the hint's keys lie in it */
		put_u64(out, d->ino);
		put_u64(out, (uint64_t)d->ctime);
		put_u32(out, (uint32_t)count[i]);
		for (size_t k = first[i]; k < first[i] + count[i]; k++) {
			const struct tree_entry *e = &l->v[k];
			const char *name = e->rel + dn;
			size_t nn = strlen(name);
			buf_putc(out, (char)e->type);
			put_u64(out, e->ino);
			put_u32(out, (uint32_t)nn);
			buf_put(out, name, nn);
		}
	}
	free(first);
	free(count);
	unsigned long long sum[2];
	digest_bytes(out->p + start, out->n - start, sum);
	buf_put(out, sum, sizeof sum);
}

void tree_list_free(struct tree_list *l)
{
	tree_list_wait(l);
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].rel);
	free(l->v);
	hash_free(&l->by_rel);
	if (l->hint) {
		if (l->hint->owned)
			free((char *)l->hint->p);
		hash_free(&l->hint->folders);
		free(l->hint);
	}
	if (l->fd >= 0)
		close(l->fd);
	memset(l, 0, sizeof *l);
	l->fd = -1;
}
