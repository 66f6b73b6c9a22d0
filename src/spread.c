/* spread: page folders made in passing folders, moved into place (see
 * spread.h). */
#include "spread.h"
#include "path.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every spread gets its own number, so that a thread's slot of an earlier
 * one (a build before, in serve) is never taken for this one's. */
static unsigned long generations;

/* The calling thread's slot, and the spread it belongs to. */
static _Thread_local struct {
	unsigned long gen;
	struct spread_slot *slot;
} mine;

void spread_init(struct spread *sp, int root_fd)
{
	memset(sp, 0, sizeof *sp);
	sp->live = true;
	sp->root_fd = root_fd;
	sp->gen = __atomic_add_fetch(&generations, 1, __ATOMIC_RELAXED);
	pthread_mutex_init(&sp->lock, NULL);
}

void spread_parent(struct spread *sp, const char *rel)
{
	pthread_mutex_lock(&sp->lock);
	sp->parents = xrealloc(sp->parents, (sp->nparents + 1) * sizeof *sp->parents);
	sp->parents[sp->nparents++] = xstrdup(rel);
	__atomic_store_n(&sp->on, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&sp->lock);
}

static bool is_parent(struct spread *sp, const char *p, size_t n)
{
	bool yes = false;
	pthread_mutex_lock(&sp->lock);
	for (size_t k = 0; k < sp->nparents && !yes; k++)
		yes = strlen(sp->parents[k]) == n && !memcmp(sp->parents[k], p, n);
	pthread_mutex_unlock(&sp->lock);
	return yes;
}

/* This thread's slot, made on its first use of this spread. */
static struct spread_slot *claim(struct spread *sp)
{
	if (mine.gen == sp->gen && mine.slot)
		return mine.slot;
	struct spread_slot *s = xcalloc(1, sizeof *s);
	s->fd = -1;
	pthread_mutex_lock(&sp->lock);
	s->next = sp->slots;
	sp->slots = s;
	pthread_mutex_unlock(&sp->lock);
	mine.gen = sp->gen;
	mine.slot = s;
	return s;
}

static void passing_name(char out[32], unsigned id)
{
	snprintf(out, 32, SPREAD_PREFIX "%u", id);
}

/* Close the slot's passing folder and remove it: -1 when it is not empty. */
static int retire(struct spread *sp, struct spread_slot *s)
{
	if (s->fd < 0)
		return 0;
	close(s->fd);
	s->fd = -1;
	char name[32];
	passing_name(name, s->id);
	return unlinkat(sp->root_fd, name, AT_REMOVEDIR);
}

/* A passing folder with room for one more page folder. */
static bool ready(struct spread *sp, struct spread_slot *s)
{
	if (s->fd >= 0 && s->used < SPREAD_PER)
		return true;
	if (retire(sp, s))
		return false;
	char name[32];
	s->id = __atomic_fetch_add(&sp->next, 1, __ATOMIC_RELAXED);
	passing_name(name, s->id);
	if (mkdirat(sp->root_fd, name, 0755))
		return false;
	s->fd = openat(sp->root_fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->fd < 0) {
		unlinkat(sp->root_fd, name, AT_REMOVEDIR);
		return false;
	}
	s->used = 0;
	return true;
}

int spread_begin(struct spread *sp, const char *relpath, struct spread_ticket *t)
{
	if (!sp->live || !__atomic_load_n(&sp->on, __ATOMIC_ACQUIRE))
		return -1;
	const char *file = strrchr(relpath, '/');
	if (!file || !file[1] || file == relpath)
		return -1;
	size_t dir_len = (size_t)(file - relpath);
	size_t parent_len = dir_len;
	while (parent_len && relpath[parent_len - 1] != '/')
		parent_len--;
	/* the folder of pages, without its slash ("" the site itself) */
	size_t plen = parent_len ? parent_len - 1 : 0;
	if (!is_parent(sp, relpath, plen))
		return -1;
	struct spread_slot *s = claim(sp);
	if (!ready(sp, s))
		return -1;
	char *dir = xstrndup(relpath + parent_len, dir_len - parent_len);
	int rc = mkdirat(s->fd, dir, 0755);
	free(dir);
	if (rc)
		return -1;
	s->used++;
	*t = (struct spread_ticket){s->fd, relpath + parent_len, relpath, parent_len, dir_len};
	return 0;
}

int spread_open(struct spread *sp, const char *relpath, struct spread_ticket *t)
{
	if (spread_begin(sp, relpath, t))
		return -1;
	int fd = openat(t->dfd, t->sub, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		spread_cancel(sp, t);
	return fd;
}

void spread_cancel(struct spread *sp, const struct spread_ticket *t)
{
	(void)sp;
	char *name = xstrndup(t->sub, t->dir_len - t->parent_len);
	unlinkat(t->dfd, name, AT_REMOVEDIR);
	free(name);
}

int spread_place(struct spread *sp, const struct spread_ticket *t)
{
	char *name = xstrndup(t->sub, t->dir_len - t->parent_len);
	char *dest = xstrndup(t->relpath, t->dir_len);
	int rc = renameat2(t->dfd, name, sp->root_fd, dest, RENAME_NOREPLACE);
	if (rc && errno == ENOENT && t->parent_len) {
		/* the folder of pages is not there yet */
		char *parent = xstrndup(t->relpath, t->parent_len - 1);
		if (path_mkdirs_at(sp->root_fd, parent) == 0)
			rc = renameat2(t->dfd, name, sp->root_fd, dest, RENAME_NOREPLACE);
		free(parent);
	}
	if (rc && errno == EEXIST) {
		/* the page folder was made meanwhile: the file goes into it */
		rc = renameat(t->dfd, t->sub, sp->root_fd, t->relpath);
		if (rc == 0)
			rc = unlinkat(t->dfd, name, AT_REMOVEDIR);
	}
	int e = errno;
	free(name);
	free(dest);
	errno = e;
	return rc;
}

int spread_finish(struct spread *sp)
{
	if (!sp->live)
		return 0;
	int rc = 0;
	pthread_mutex_lock(&sp->lock);
	for (struct spread_slot *s = sp->slots; s; s = s->next)
		if (retire(sp, s))
			rc = -1;
	pthread_mutex_unlock(&sp->lock);
	return rc;
}

void spread_free(struct spread *sp)
{
	if (!sp->live)
		return;
	spread_finish(sp);
	for (struct spread_slot *s = sp->slots, *next; s; s = next) {
		next = s->next;
		free(s);
	}
	for (size_t k = 0; k < sp->nparents; k++)
		free(sp->parents[k]);
	free(sp->parents);
	pthread_mutex_destroy(&sp->lock);
	memset(sp, 0, sizeof *sp);
}
