/* local_key: the user's secret for the site's caches (see local_key.h). */
#include "local_key.h"
#include "buf.h"
#include "path.h"
#include "xalloc.h"

#include <ctype.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

static char key[33];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static bool is_key(const char *p, size_t n)
{
	if (n < 32)
		return false;
	for (size_t i = 0; i < 32; i++)
		if (!isxdigit((unsigned char)p[i]))
			return false;
	return true;
}

/* 32 hex digits of fresh randomness (never fails: the clock and the pid when
 * getrandom does). */
static void random_key(char out[33])
{
	unsigned char r[16];
	size_t got = 0;
	while (got < sizeof r) {
		ssize_t k = getrandom(r + got, sizeof r - got, 0);
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	if (got < sizeof r) {
		unsigned long long x = (unsigned long long)time(NULL) ^ (unsigned long long)getpid() << 32;
		memcpy(r, &x, sizeof x);
	}
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(out + 2 * i, 3, "%02x", r[i]);
}

/* The key file's folder: $XDG_CACHE_HOME/ssg or ~/.cache/ssg (NULL: none). */
static char *key_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	if (xdg && xdg[0] == '/')
		return path_join(xdg, "ssg");
	const char *home = getenv("HOME");
	if (home && home[0] == '/')
		return xconcat(home, "/.cache/ssg", NULL);
	return NULL;
}

static bool read_key(const char *file, char out[33])
{
	struct buf b = BUF_INIT;
	bool ok = buf_read_regular(&b, file, 64) == 0 && is_key(b.p, b.n);
	if (ok) {
		memcpy(out, b.p, 32);
		out[32] = '\0';
	}
	buf_free(&b);
	return ok;
}

static void load(void)
{
	char *dir = key_dir();
	char *file = dir ? path_join(dir, "key") : NULL;
	bool ok = file && read_key(file, key);
	if (!ok && dir && path_mkdirs(dir) == 0) {
		/* made whole under another name, then linked: a build running at
		 * the same time reads either no key or the whole one */
		char fresh[33];
		random_key(fresh);
		char *tmp = xasprintf("%s.%ld", file, (long)getpid());
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			bool whole = write(fd, fresh, 32) == 32 && write(fd, "\n", 1) == 1;
			close(fd);
			if (whole)
				(void)link(tmp, file); /* EEXIST: another build's won */
			unlink(tmp);
		}
		free(tmp);
		ok = read_key(file, key);
	}
	if (!ok)
		random_key(key); /* this process's own: caches made, not used */
	free(file);
	free(dir);
}

bool local_key_kept(void)
{
	char *dir = key_dir();
	char *file = dir ? path_join(dir, "key") : NULL;
	char k[33];
	bool ok = file && read_key(file, k);
	free(file);
	free(dir);
	return ok;
}

const char *local_key(void)
{
	pthread_once(&once, load);
	return key;
}
