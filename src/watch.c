/* watch: recursive inotify watches over a site's sources (see watch.h). Each
 * watched folder is remembered as (watch descriptor, path relative to the
 * site root) so folders created later can be found and watched in turn. */
#include "watch.h"
#include "path.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WATCH_MASK                                                                       \
	(IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | \
	 IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)

/* What is watched below the root, recursively. */
static const char *const watch_tops[] = {"content", "templates", "themes", "static"};

struct wdir {
	int wd;
	char *rel; /* "" for the site root */
};

struct watch {
	int fd;
	char *root;
	struct wdir *v;
	size_t n, cap;
	char *last;
	bool done; /* the last change ended a write (watch_done) */
};

/* The events that end a save: a file written and closed, renamed into place
 * or removed. A file opened, made or renamed away may have more to come. */
#define WATCH_DONE_MASK (IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE)

static struct wdir *find_wd(struct watch *w, int wd)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].wd == wd)
			return &w->v[i];
	return NULL;
}

/* Remember wd -> rel; a folder seen again under a new name takes the new one. */
static void remember(struct watch *w, int wd, const char *rel)
{
	struct wdir *e = find_wd(w, wd);
	if (e) {
		free(e->rel);
		e->rel = xstrdup(rel);
		return;
	}
	w->v = xgrow(w->v, &w->cap, w->n + 1, sizeof *w->v);
	w->v[w->n++] = (struct wdir){wd, xstrdup(rel)};
}

static void forget(struct watch *w, int wd)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].wd == wd) {
			free(w->v[i].rel);
			w->v[i] = w->v[--w->n];
			return;
		}
}

static bool is_top(const char *name)
{
	for (size_t i = 0; i < sizeof watch_tops / sizeof *watch_tops; i++)
		if (!strcmp(name, watch_tops[i]))
			return true;
	return false;
}

/* Files editors write beside the real one: never a change to the site. */
static bool is_dropping(const char *name)
{
	size_t n = strlen(name);
	if (!n || name[0] == '.' || name[n - 1] == '~' || !strcmp(name, "4913"))
		return true;
	return n > 4 && (!strcmp(name + n - 4, ".swp") || !strcmp(name + n - 4, ".swx"));
}

/* Watch the folder rel and every folder below it (hidden ones skipped).
 * A top-level folder may be a symbolic link; nothing below it is followed. */
static void add_tree(struct watch *w, const char *rel, int depth)
{
	if (depth > 64)
		return;
	char *full = path_join(w->root, rel);
	uint32_t mask = WATCH_MASK | IN_ONLYDIR | (depth ? IN_DONT_FOLLOW : 0);
	int wd = inotify_add_watch(w->fd, full, mask);
	if (wd < 0) {
		free(full);
		return;
	}
	remember(w, wd, rel);
	DIR *dh = opendir(full);
	struct dirent *e;
	while (dh && (e = readdir(dh))) {
		if (e->d_name[0] == '.')
			continue;
		bool dir = e->d_type == DT_DIR;
		char *sub = path_join(rel, e->d_name);
		if (e->d_type == DT_UNKNOWN) {
			struct stat st;
			char *p = path_join(w->root, sub);
			dir = lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
			free(p);
		}
		if (dir)
			add_tree(w, sub, depth + 1);
		free(sub);
	}
	if (dh)
		closedir(dh);
	free(full);
}

static void add_all(struct watch *w)
{
	int wd = inotify_add_watch(w->fd, w->root, WATCH_MASK | IN_ONLYDIR);
	if (wd >= 0)
		remember(w, wd, "");
	for (size_t i = 0; i < sizeof watch_tops / sizeof *watch_tops; i++)
		add_tree(w, watch_tops[i], 0);
}

struct watch *watch_open(const char *root)
{
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct watch *w = xcalloc(1, sizeof *w);
	w->fd = fd;
	w->root = xstrdup(root);
	w->last = xstrdup("");
	add_all(w);
	return w;
}

int watch_fd(const struct watch *w) { return w->fd; }

int watch_count(const struct watch *w) { return (int)w->n; }

const char *watch_last(const struct watch *w) { return w->last; }

static void set_last(struct watch *w, const char *dir, const char *name)
{
	free(w->last);
	w->last = *dir ? xasprintf("%s/%s", dir, name) : xstrdup(name);
}

/* One event: 1 when it changes the sources, else 0. */
static int handle_event(struct watch *w, const struct inotify_event *ev)
{
	if (ev->mask & IN_Q_OVERFLOW) {
		add_all(w); /* events were lost: watch anything new, rebuild */
		set_last(w, "", "(many files)");
		w->done = false;
		return 1;
	}
	if (ev->mask & IN_IGNORED) {
		forget(w, ev->wd);
		return 0;
	}
	struct wdir *d = find_wd(w, ev->wd);
	if (!d)
		return 0;
	if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
		if (*d->rel)
			w->done = false;
		return *d->rel ? 1 : 0;
	}
	const char *name = ev->len ? ev->name : "";
	char *dir = xstrdup(d->rel); /* d may move when a watch is added */
	int changed = 0;
	if (!*dir && !(!strcmp(name, "site.yml") || is_top(name))) {
		changed = 0; /* something else in the site root */
	} else if (*name && is_dropping(name)) {
		changed = 0;
	} else {
		if ((ev->mask & IN_ISDIR) && (ev->mask & (IN_CREATE | IN_MOVED_TO))) {
			char *sub = *dir ? path_join(dir, name) : xstrdup(name);
			add_tree(w, sub, *dir ? 1 : 0);
			free(sub);
		}
		set_last(w, dir, name);
		changed = 1;
		/* a new mode or time alone says nothing of a write under way */
		if (ev->mask & ~(uint32_t)IN_ATTRIB)
			w->done = (ev->mask & WATCH_DONE_MASK) && !(ev->mask & IN_ISDIR);
	}
	free(dir);
	return changed;
}

int watch_drain(struct watch *w)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	int changes = 0;
	for (;;) {
		ssize_t r = read(w->fd, buf, sizeof buf);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? changes : -1;
		}
		if (r == 0)
			return changes;
		for (char *p = buf; p < buf + r;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			changes += handle_event(w, ev);
			p += sizeof *ev + ev->len;
		}
	}
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool watch_done(const struct watch *w) { return w->done; }

int watch_settle(struct watch *w, int quiet_ms, int done_ms, int max_ms)
{
	long long start = now_ms(), last = start;
	int total = 0;
	for (;;) {
		long long now = now_ms();
		long long wait = last + (w->done && done_ms < quiet_ms ? done_ms : quiet_ms) - now;
		if (start + max_ms - now < wait)
			wait = start + max_ms - now;
		if (wait <= 0)
			return total;
		struct pollfd p = {w->fd, POLLIN, 0};
		int r = poll(&p, 1, (int)wait);
		if (r < 0 && errno != EINTR)
			return total;
		if (r > 0) {
			int n = watch_drain(w);
			if (n < 0)
				return total;
			if (n > 0) {
				total += n;
				last = now_ms();
			}
		}
	}
}

void watch_close(struct watch *w)
{
	if (!w)
		return;
	close(w->fd);
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i].rel);
	free(w->v);
	free(w->root);
	free(w->last);
	free(w);
}
