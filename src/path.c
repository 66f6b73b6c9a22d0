/* path: slugs and path safety (see path.h). */
#include "path.h"
#include "buf.h"
#include "xalloc.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

char *slug_github(const char *text)
{
	struct buf b = BUF_INIT;
	buf_grow(&b, strlen(text)); /* never longer than the text */
	for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
		unsigned char c = *s;
		if (c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' || c == '_')
			buf_putc(&b, (char)c);
		else if (c >= 'A' && c <= 'Z')
			buf_putc(&b, (char)(c - 'A' + 'a'));
		else if (c == ' ')
			buf_putc(&b, '-');
	}
	return buf_detach(&b);
}

/* Each byte as a URL slug keeps it: lower-case letters and digits, 0 for the
 * rest (a dash). */
static const unsigned char slug_byte[256] = {
#define DIGIT(c) [c] = c
#define UPPER(c) [c] = c - 'A' + 'a', [c - 'A' + 'a'] = c - 'A' + 'a'
	DIGIT('0'), DIGIT('1'), DIGIT('2'), DIGIT('3'), DIGIT('4'), DIGIT('5'), DIGIT('6'),
	DIGIT('7'), DIGIT('8'), DIGIT('9'),
	UPPER('A'), UPPER('B'), UPPER('C'), UPPER('D'), UPPER('E'), UPPER('F'), UPPER('G'),
	UPPER('H'), UPPER('I'), UPPER('J'), UPPER('K'), UPPER('L'), UPPER('M'), UPPER('N'),
	UPPER('O'), UPPER('P'), UPPER('Q'), UPPER('R'), UPPER('S'), UPPER('T'), UPPER('U'),
	UPPER('V'), UPPER('W'), UPPER('X'), UPPER('Y'), UPPER('Z'),
#undef DIGIT
#undef UPPER
};

char *slug_url(const char *text, size_t maxlen)
{
	/* straight into its string, which is never longer than the text (a
	 * dash stands for one or more bytes): every resource's slug is made
	 * again each build, 60,000 at 10,000 documents */
	size_t len = strlen(text);
	size_t most = maxlen && maxlen < len ? maxlen : len;
	char *out = xmalloc((most > 4 ? most : 4) + 1);
	size_t n = 0;
	const unsigned char *s = (const unsigned char *)text;
	for (;;) {
		/* the separators (a dash for them all, between two words) */
		while (*s && !slug_byte[*s])
			s++;
		if (!*s)
			break;
		if (n) {
			if (n + 2 > most)
				break;
			out[n++] = '-';
		}
		/* a word, a byte at a time while there is room */
		unsigned char c;
		while ((c = slug_byte[*s]) && n < most) {
			out[n++] = (char)c;
			s++;
		}
		if (c)
			break; /* no room for the rest */
	}
	if (!n) {
		memcpy(out, "item", 5);
		return out;
	}
	out[n] = '\0';
	return out;
}

/* Per byte of a relative path: 1 ends a name ('/' or the NUL), 2 is refused
 * (a control character, '\\' or DEL), 0 is part of a name (the rest, bytes
 * from 0x80 on too). */
static const unsigned char rel_byte[256] = {
	1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
};

bool path_is_safe_rel(const char *rel)
{
	if (!rel || !*rel || rel[0] == '/')
		return false;
	/* one pass, one look-up a byte (every page written asks: 28,000 paths
	 * a build at 10,000 documents) */
	const unsigned char *start = (const unsigned char *)rel;
	for (const unsigned char *p = start;; p++) {
		unsigned char k = rel_byte[*p];
		if (!k)
			continue;
		if (k == 2)
			return false;
		/* a name ends: not empty, ".", or ".." (a trailing '/' leaves an
		 * empty one) */
		size_t n = (size_t)(p - start);
		if (n == 0 || (n == 1 && start[0] == '.') ||
		    (n == 2 && start[0] == '.' && start[1] == '.'))
			return false;
		if (!*p)
			return true;
		start = p + 1;
	}
}

char *path_join(const char *a, const char *b)
{
	if (!*a)
		return xstrdup(b);
	/* by hand, not with a printf: 56,000 entries of a listing join their
	 * folder and their name */
	size_t la = strlen(a), lb = strlen(b), slash = a[la - 1] != '/';
	char *p = xmalloc(la + slash + lb + 1);
	memcpy(p, a, la);
	p[la] = '/';
	memcpy(p + la + slash, b, lb + 1);
	return p;
}

char *path_dirname(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? xstrndup(p, (size_t)(s - p)) : xstrdup("");
}

const char *path_basename(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

const char *path_ext(const char *p)
{
	const char *base = path_basename(p);
	const char *dot = strrchr(base, '.');
	return dot && dot != base ? dot + 1 : "";
}

int path_mkdirs(const char *dir) { return path_mkdirs_at(AT_FDCWD, dir); }

int path_mkdirs_at(int dfd, const char *rel)
{
	/* the common case first: only the last folder is missing */
	if (mkdirat(dfd, rel, 0755) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT)
		return -1;
	char *parent = xstrdup(rel);
	char *slash = strrchr(parent, '/');
	int r = -1;
	if (slash && slash != parent) {
		*slash = '\0';
		if (path_mkdirs_at(dfd, parent) == 0)
			r = mkdirat(dfd, rel, 0755) == 0 || errno == EEXIST ? 0 : -1;
	}
	free(parent);
	return r;
}

char *path_root_prefix(const char *from_dir)
{
	struct buf b = BUF_INIT;
	for (const char *p = from_dir; *p; p++)
		if (*p == '/')
			buf_puts(&b, "../");
	if (!b.n)
		buf_puts(&b, "./");
	return buf_detach(&b);
}

int path_open_subdir(const char *dir, const char *sub, bool make)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	int cfd = path_open_subdir_at(dfd, sub, make);
	close(dfd);
	return cfd;
}

int path_open_subdir_at(int dfd, const char *sub, bool make)
{
	if (make)
		mkdirat(dfd, sub, 0755);
	return openat(dfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

bool path_inside(const char *root, const char *path)
{
	char *r = realpath(root, NULL), *p = r ? realpath(path, NULL) : NULL;
	size_t n = r ? strlen(r) : 0;
	bool inside = p && !strncmp(p, r, n) && (p[n] == '/' || (n == 1 && *r == '/'));
	free(r);
	free(p);
	return inside;
}

char *path_boundary(const char *dir)
{
	char *real = realpath(dir, NULL);
	if (!real)
		return NULL;
	char *at = xstrdup(real); /* "/a/b", then "/a", then "" for the root */
	for (;;) {
		char *git = xasprintf("%s/.git", at);
		struct stat st;
		bool found = lstat(git, &st) == 0;
		free(git);
		if (found) {
			free(real);
			if (!*at) {
				free(at);
				return xstrdup("/");
			}
			return at;
		}
		char *slash = strrchr(at, '/');
		if (!slash || !*at)
			break;
		*slash = '\0';
	}
	free(at);
	return real;
}

bool path_in_site(const char *site_dir, const char *path)
{
	char *boundary = path_boundary(site_dir);
	bool inside = boundary && path_inside(boundary, path);
	free(boundary);
	return inside;
}

int path_open_dir_within(const char *dir, const char *rel)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	char *copy = xstrdup(rel), *save = NULL;
	for (char *c = strtok_r(copy, "/", &save); c && fd >= 0; c = strtok_r(NULL, "/", &save)) {
		int next = openat(fd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = next;
	}
	free(copy);
	return fd;
}

/* Whether dfd's regular file name holds exactly the n bytes at p (read a
 * piece at a time: a file that differs is mostly told by its size, else
 * soon). */
static bool holds_bytes(int dfd, const char *name, const void *p, size_t n)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == n;
	char piece[65536];
	for (size_t at = 0; same && at < n;) {
		size_t want = n - at < sizeof piece ? n - at : sizeof piece;
		ssize_t got = read(fd, piece, want);
		if (got <= 0 || memcmp(piece, (const char *)p + at, (size_t)got))
			same = false;
		else
			at += (size_t)got;
	}
	/* and nothing after them */
	same = same && read(fd, piece, 1) == 0;
	close(fd);
	return same;
}

int path_rename_over_at(int fdfd, const char *from, int tdfd, const char *to)
{
	if (renameat2(fdfd, from, tdfd, to, RENAME_EXCHANGE) == 0) {
		unlinkat(fdfd, from, 0); /* the old file, now under from */
		return 0;
	}
	/* nothing to exchange with (ENOENT), or a file system without exchange:
	 * a rename, which no reader can see half done either */
	return renameat(fdfd, from, tdfd, to) == 0 ? 0 : -1;
}

static void *close_fd(void *arg)
{
	close((int)(intptr_t)arg);
	return NULL;
}

void path_close_behind(int fd)
{
	if (fd < 0)
		return;
	pthread_attr_t attr;
	pthread_t t;
	bool started = false;
	if (pthread_attr_init(&attr) == 0) {
		started = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
			  pthread_create(&t, &attr, close_fd, (void *)(intptr_t)fd) == 0;
		pthread_attr_destroy(&attr);
	}
	if (!started)
		close(fd);
}

int path_replace_at(int dfd, const char *name, const void *p, size_t n)
{
	if (holds_bytes(dfd, name, p, n))
		return 0;
	char tmp[256];
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.%ld.tmp", name, (long)getpid()) >= sizeof tmp)
		return -1;
	unlinkat(dfd, tmp, 0);
	int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	bool ok = fd >= 0 && write(fd, p, n) == (ssize_t)n;
	if (fd >= 0 && close(fd))
		ok = false;
	if (!ok || path_rename_over_at(dfd, tmp, dfd, name)) {
		unlinkat(dfd, tmp, 0);
		return -1;
	}
	return 0;
}

void *path_map_regular_at(int dfd, const char *name, size_t max, struct stat *st)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	void *map = MAP_FAILED;
	if (fstat(fd, st) == 0 && S_ISREG(st->st_mode) && st->st_size > 0 &&
	    (unsigned long long)st->st_size <= max)
		map = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	return map == MAP_FAILED ? NULL : map;
}

size_t path_regular_size(const char *dir, const char *rel)
{
	char *p = path_join(dir, rel);
	struct stat st;
	size_t n = lstat(p, &st) == 0 && S_ISREG(st.st_mode) ? (size_t)st.st_size : 0;
	free(p);
	return n;
}

void path_file_id(const struct stat *st, unsigned long long id[PATH_FILE_ID_WORDS])
{
	id[0] = (unsigned long long)st->st_dev;
	id[1] = (unsigned long long)st->st_ino;
	id[2] = (unsigned long long)st->st_size;
	id[3] = (unsigned long long)st->st_mtim.tv_sec * 1000000000ULL +
		(unsigned long long)st->st_mtim.tv_nsec;
	id[4] = (unsigned long long)st->st_ctim.tv_sec * 1000000000ULL +
		(unsigned long long)st->st_ctim.tv_nsec;
}
