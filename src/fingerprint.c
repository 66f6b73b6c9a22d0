/* fingerprint: hashing a build's input files (see fingerprint.h). */
#include "fingerprint.h"
#include "path.h"
#include "pool.h"
#include "xalloc.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the hash: two 64-bit lanes over 8-byte words ------------------------------ */

struct fp_state {
	uint64_t a, b, n;
};

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static void fp_start(struct fp_state *s)
{
	s->a = 0x243F6A8885A308D3ULL;
	s->b = 0x13198A2E03707344ULL;
	s->n = 0;
}

static void fp_word(struct fp_state *s, uint64_t w)
{
	s->a = rotl((s->a ^ w) * 0x9E3779B97F4A7C15ULL, 31);
	s->b = rotl((s->b + w) * 0xC2B2AE3D27D4EB4FULL, 27) ^ s->a;
}

/* n must be a multiple of 8 except on the last call. */
static void fp_feed(struct fp_state *s, const unsigned char *p, size_t n)
{
	s->n += n;
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		fp_word(s, w);
	}
	if (n) {
		uint64_t w = 0;
		memcpy(&w, p, n);
		fp_word(s, w ^ 0x8000000000000000ULL);
	}
}

static uint64_t avalanche(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xFF51AFD7ED558CCDULL;
	x ^= x >> 33;
	x *= 0xC4CEB9FE1A85EC53ULL;
	return x ^ (x >> 33);
}

static void fp_end(struct fp_state *s, unsigned long long out[2])
{
	fp_word(s, s->n);
	out[0] = avalanche(s->a ^ rotl(s->b, 17));
	out[1] = avalanche(s->b + s->a * 3);
}

void fingerprint_bytes(const void *p, size_t n, unsigned long long out[2])
{
	struct fp_state s;
	fp_start(&s);
	fp_feed(&s, p, n);
	fp_end(&s, out);
}

/* The hash of a file's bytes; -1 when it cannot be read. */
static int hash_file(const char *path, unsigned long long out[2])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct fp_state s;
	fp_start(&s);
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
			fp_feed(&s, b, whole);
			memmove(b, b + whole, have - whole);
			have -= whole;
			if (r == 0)
				break;
		}
	}
	free(b);
	close(fd);
	fp_end(&s, out);
	return rc;
}

/* ---- walking the tree ---------------------------------------------------------- */

struct entry {
	char *rel;
	char *full;
	char kind;       /* 'f' file, 'l' symlink, 'o' other, '!' unreadable */
	char *target;    /* symlink's target */
	unsigned long long h[2];
};

struct walk {
	struct entry *v;
	size_t n, cap;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_entry(struct walk *w, char *rel, char *full, char kind)
{
	w->v = xgrow(w->v, &w->cap, w->n + 1, sizeof *w->v);
	w->v[w->n++] = (struct entry){rel, full, kind, NULL, {0, 0}};
}

static void walk_dir(struct walk *w, const char *full, const char *rel, int depth)
{
	DIR *d = opendir(full);
	if (!d) {
		add_entry(w, xstrdup(rel), xstrdup(full), '!');
		return;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			names = xgrow(names, &cap, n + 1, sizeof *names);
			names[n++] = xstrdup(e->d_name);
		}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_name);
	for (size_t i = 0; i < n; i++) {
		char *cf = path_join(full, names[i]);
		char *cr = path_join(rel, names[i]);
		struct stat st;
		if (lstat(cf, &st))
			add_entry(w, cr, cf, '!');
		else if (S_ISDIR(st.st_mode) && depth < 64) {
			walk_dir(w, cf, cr, depth + 1);
			free(cf);
			free(cr);
		} else
			add_entry(w, cr, cf, S_ISREG(st.st_mode) ? 'f' : S_ISLNK(st.st_mode) ? 'l' : 'o');
		free(names[i]);
	}
	free(names);
}

static void hash_entry(void *ctx, size_t i)
{
	struct entry *e = &((struct walk *)ctx)->v[i];
	if (e->kind == 'f' && hash_file(e->full, e->h))
		e->kind = '!';
	else if (e->kind == 'l') {
		char t[4096];
		ssize_t n = readlink(e->full, t, sizeof t - 1);
		e->target = xstrndup(t, n > 0 ? (size_t)n : 0);
	}
}

static void put_line(struct buf *m, const char *rel, char kind, const unsigned long long h[2],
		     const char *target)
{
	buf_puts(m, rel);
	buf_putc(m, '\0');
	buf_putc(m, kind);
	if (kind == 'f')
		buf_printf(m, "%016llx%016llx", h[0], h[1]);
	else if (target)
		buf_puts(m, target);
	buf_putc(m, '\n');
}

void fingerprint_tree(struct buf *manifest, const char *root, const char *rel, int jobs)
{
	char *full = path_join(root, rel);
	struct stat st;
	if (stat(full, &st) || !S_ISDIR(st.st_mode)) {
		put_line(manifest, rel, '-', NULL, NULL);
		free(full);
		return;
	}
	struct walk w = {0};
	walk_dir(&w, full, rel, 0);
	pool_run(jobs, w.n, hash_entry, &w);
	for (size_t i = 0; i < w.n; i++) {
		put_line(manifest, w.v[i].rel, w.v[i].kind, w.v[i].h, w.v[i].target);
		free(w.v[i].rel);
		free(w.v[i].full);
		free(w.v[i].target);
	}
	free(w.v);
	free(full);
}

void fingerprint_file(struct buf *manifest, const char *root, const char *rel)
{
	char *full = path_join(root, rel);
	unsigned long long h[2] = {0, 0};
	put_line(manifest, rel, hash_file(full, h) ? '-' : 'f', h, NULL);
	free(full);
}

void fingerprint_hex(const struct buf *manifest, char out[33])
{
	unsigned long long h[2];
	fingerprint_bytes(manifest->p ? manifest->p : "", manifest->n, h);
	snprintf(out, 33, "%016llx%016llx", h[0], h[1]);
}
