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
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fingerprint_bytes(const void *p, size_t n, unsigned long long out[2])
{
	struct digest s;
	digest_start(&s);
	digest_feed(&s, p, n);
	digest_end(&s, out);
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
	if (e->kind == 'f' && fingerprint_file_digest(e->full, e->h))
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
	fingerprint_tree_keep(manifest, root, rel, jobs, NULL);
}

void fingerprint_tree_keep(struct buf *manifest, const char *root, const char *rel, int jobs,
			   struct file_digests *keep)
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
	if (keep) {
		keep->paths = xrealloc(keep->paths, (keep->n + w.n + 1) * sizeof *keep->paths);
		keep->digests = xrealloc(keep->digests, (keep->n + w.n + 1) * sizeof *keep->digests);
	}
	for (size_t i = 0; i < w.n; i++) {
		put_line(manifest, w.v[i].rel, w.v[i].kind, w.v[i].h, w.v[i].target);
		if (keep && w.v[i].kind == 'f') {
			keep->paths[keep->n] = w.v[i].rel; /* handed over */
			keep->digests[keep->n][0] = w.v[i].h[0];
			keep->digests[keep->n][1] = w.v[i].h[1];
			hash_put(&keep->index, w.v[i].rel, keep->n++);
			w.v[i].rel = NULL;
		}
		free(w.v[i].rel);
		free(w.v[i].full);
		free(w.v[i].target);
	}
	free(w.v);
	free(full);
}

bool file_digests_get(const struct file_digests *k, const char *path, unsigned long long out[2])
{
	size_t i;
	if (!k || !k->index.n || !hash_get(&k->index, path, &i))
		return false;
	out[0] = k->digests[i][0];
	out[1] = k->digests[i][1];
	return true;
}

void file_digests_free(struct file_digests *k)
{
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
