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

void spread_init(struct spread *sp, int root_fd)
{
	memset(sp, 0, sizeof *sp);
	sp->live = true;
	sp->root_fd = root_fd;
	for (size_t k = 0; k < SPREAD_SLOTS; k++)
		sp->slot[k].fd = -1;
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

/* This thread's slot, taken on first use; NULL when all are taken. */
static struct spread_slot *claim(struct spread *sp)
{
	pthread_t me = pthread_self();
	struct spread_slot *s = NULL, *free_one = NULL;
	pthread_mutex_lock(&sp->lock);
	for (size_t k = 0; k < SPREAD_SLOTS && !s; k++) {
		if (sp->slot[k].taken && pthread_equal(sp->slot[k].owner, me))
			s = &sp->slot[k];
		else if (!sp->slot[k].taken && !free_one)
			free_one = &sp->slot[k];
	}
	if (!s && free_one) {
		s = free_one;
		s->taken = true;
		s->owner = me;
	}
	pthread_mutex_unlock(&sp->lock);
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

int spread_open(struct spread *sp, const char *relpath, struct spread_ticket *t)
{
	if (!__atomic_load_n(&sp->on, __ATOMIC_ACQUIRE))
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
	if (!s || !ready(sp, s))
		return -1;
	/* <name>/<file> within the passing folder */
	const char *sub = relpath + parent_len;
	char *dir = xstrndup(sub, dir_len - parent_len);
	int fd = -1;
	if (mkdirat(s->fd, dir, 0755) == 0) {
		fd = openat(s->fd, sub, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			unlinkat(s->fd, dir, AT_REMOVEDIR);
	}
	free(dir);
	if (fd < 0)
		return -1;
	s->used++;
	*t = (struct spread_ticket){s, relpath, parent_len, dir_len};
	return fd;
}

int spread_place(struct spread *sp, const struct spread_ticket *t)
{
	struct spread_slot *s = t->slot;
	const char *sub = t->relpath + t->parent_len;
	char *name = xstrndup(sub, t->dir_len - t->parent_len);
	char *dest = xstrndup(t->relpath, t->dir_len);
	int rc = renameat2(s->fd, name, sp->root_fd, dest, RENAME_NOREPLACE);
	if (rc && errno == ENOENT && t->parent_len) {
		/* the folder of pages is not there yet */
		char *parent = xstrndup(t->relpath, t->parent_len - 1);
		if (path_mkdirs_at(sp->root_fd, parent) == 0)
			rc = renameat2(s->fd, name, sp->root_fd, dest, RENAME_NOREPLACE);
		free(parent);
	}
	if (rc && errno == EEXIST) {
		/* the page folder was made meanwhile: the file goes into it */
		rc = renameat(s->fd, sub, sp->root_fd, t->relpath);
		if (rc == 0)
			rc = unlinkat(s->fd, name, AT_REMOVEDIR);
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
	for (size_t k = 0; k < SPREAD_SLOTS; k++)
		if (retire(sp, &sp->slot[k]))
			rc = -1;
	return rc;
}

void spread_free(struct spread *sp)
{
	if (!sp->live)
		return;
	spread_finish(sp);
	for (size_t k = 0; k < sp->nparents; k++)
		free(sp->parents[k]);
	free(sp->parents);
	pthread_mutex_destroy(&sp->lock);
	memset(sp, 0, sizeof *sp);
}
