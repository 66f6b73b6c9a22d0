/* tree_list: a folder tree listed on a background thread (see tree_list.h). */
#include "tree_list.h"
#include "path.h"
#include "xalloc.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void add(struct tree_list *l, char *rel, size_t parent, unsigned long long ino,
		unsigned char type)
{
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = (struct tree_entry){rel, parent, ino, type};
}

static unsigned char type_of(mode_t m)
{
	return S_ISDIR(m) ? DT_DIR : S_ISREG(m) ? DT_REG : S_ISLNK(m) ? DT_LNK
	       : S_ISFIFO(m) ? DT_FIFO : S_ISSOCK(m) ? DT_SOCK : S_ISCHR(m) ? DT_CHR : DT_BLK;
}

/* The entries of one folder (self: its index, or TREE_LIST_TOP). */
static void list_folder(struct tree_list *l, size_t self)
{
	const char *rel = self == TREE_LIST_TOP ? "." : l->v[self].rel;
	int dfd = openat(l->fd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		l->complete = false;
		return;
	}
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
	close(dfd);
}

static void *run(void *arg)
{
	struct tree_list *l = arg;
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

bool tree_list_start(struct tree_list *l, int dirfd)
{
	memset(l, 0, sizeof *l);
	l->complete = true;
	l->fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	if (l->fd < 0)
		return false;
	if (pthread_create(&l->thread, NULL, run, l))
		run(l); /* no thread to spare: listed now */
	else
		l->running = true;
	return true;
}

void tree_list_wait(struct tree_list *l)
{
	if (l->running)
		pthread_join(l->thread, NULL);
	l->running = false;
}

void tree_list_free(struct tree_list *l)
{
	tree_list_wait(l);
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].rel);
	free(l->v);
	hash_free(&l->by_rel);
	if (l->fd >= 0)
		close(l->fd);
	memset(l, 0, sizeof *l);
	l->fd = -1;
}
