/* words_memo: the search index's words kept a slice at a time (see
 * words_memo.h): a slice's bytes, written and read back, and the folder
 * holding them. */
#include "words_memo.h"
#include "path.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MEMO_DIR ".ssg-cache"
#define MEMO_SUB "words"
#define SLICE_MAGIC "ssg-words 1\n\0\0\0" /* 16 bytes with the string's own NUL */
#define SLICE_MAGIC_LEN 16
#define SLICE_MAX ((size_t)1 << 30)     /* a slice is a few hundred KB */
#define NAME_LEN 36                     /* 32 hex digits and ".bin" */

static size_t pad8(size_t n) { return (8 - n % 8) % 8; }

void words_slice_head(struct buf *b, uint64_t entries, uint64_t nwords)
{
	buf_put(b, SLICE_MAGIC, SLICE_MAGIC_LEN);
	buf_put(b, &entries, sizeof entries);
	buf_put(b, &nwords, sizeof nwords);
}

void words_slice_word(struct buf *b, const char *w, uint32_t len, const uint64_t *postings,
		      uint32_t n)
{
	static const char zeros[8];
	buf_put(b, &len, sizeof len);
	buf_put(b, &n, sizeof n);
	buf_put(b, w, len);
	buf_put(b, zeros, 1 + pad8(len + 1));
	buf_put(b, postings, (size_t)n * sizeof *postings);
}

/* The word at *at (within n bytes of p), checked; false when it runs past
 * them, or its postings are not ids ascending below entries. */
static bool parse_word(const unsigned char *p, size_t n, size_t *at, uint64_t entries,
		       struct memo_word *w)
{
	uint32_t len, count;
	if (n - *at < 8)
		return false;
	memcpy(&len, p + *at, sizeof len);
	memcpy(&count, p + *at + 4, sizeof count);
	size_t text = *at + 8, size = (size_t)len + 1 + pad8((size_t)len + 1);
	if (!len || n - text < size || p[text + len] != '\0' || memchr(p + text, '\0', len) ||
	    (n - text - size) / 8 < count)
		return false;
	*w = (struct memo_word){(const char *)p + text, len, count, p + text + size};
	uint64_t last = 0;
	for (uint32_t i = 0; i < count; i++) {
		uint64_t id = words_memo_posting(w->p, i) >> WORDS_MEMO_ID_SHIFT;
		if (id >= entries || (i && id <= last))
			return false;
		last = id;
	}
	*at = text + size + (size_t)count * 8;
	return true;
}

bool words_slice_parse(struct words_slice *sl)
{
	const unsigned char *p = (const unsigned char *)sl->bytes.p;
	size_t n = sl->bytes.n, at = SLICE_MAGIC_LEN + 16;
	uint64_t nwords;
	sl->words = NULL;
	sl->nwords = 0;
	if (n < at || memcmp(p, SLICE_MAGIC, SLICE_MAGIC_LEN))
		return false;
	memcpy(&sl->entries, p + SLICE_MAGIC_LEN, 8);
	memcpy(&nwords, p + SLICE_MAGIC_LEN + 8, 8);
	if (nwords > (n - at) / 16) /* a word takes 16 bytes at least */
		return false;
	sl->words = xcalloc(nwords + 1, sizeof *sl->words);
	size_t i = 0;
	while (i < nwords && parse_word(p, n, &at, sl->entries, &sl->words[i]))
		i++;
	if (i < nwords || at != n) { /* cut short, or with bytes after its words */
		free(sl->words);
		sl->words = NULL;
		return false;
	}
	sl->nwords = nwords;
	return true;
}

void words_slice_free(struct words_slice *sl)
{
	if (sl->mapped)
		munmap(sl->bytes.p, sl->bytes.n);
	else
		buf_free(&sl->bytes);
	free(sl->words);
	*sl = (struct words_slice){.bytes = BUF_INIT};
}

int words_memo_open(const char *source_dir, bool make)
{
	int cfd = path_open_subdir(source_dir, MEMO_DIR, make);
	if (cfd < 0)
		return -1;
	int fd = path_open_subdir_at(cfd, MEMO_SUB, make);
	close(cfd);
	return fd;
}

static void name_of(const unsigned long long key[2], char name[NAME_LEN + 1])
{
	snprintf(name, NAME_LEN + 1, "%016llx%016llx.bin", key[0], key[1]);
}

bool words_memo_read(int dfd, const unsigned long long key[2], struct words_slice *sl)
{
	char name[NAME_LEN + 1];
	name_of(key, name);
	*sl = (struct words_slice){.bytes = BUF_INIT};
	struct stat st;
	void *map = dfd < 0 ? NULL : path_map_regular_at(dfd, name, SLICE_MAX, &st);
	if (!map)
		return false;
	sl->bytes.p = map;
	sl->bytes.n = (size_t)st.st_size;
	sl->mapped = true;
	if (words_slice_parse(sl))
		return true;
	words_slice_free(sl);
	return false;
}

void words_memo_write(int dfd, const unsigned long long key[2], const struct buf *b)
{
	char name[NAME_LEN + 1];
	name_of(key, name);
	if (dfd >= 0)
		path_replace_at(dfd, name, b->p, b->n);
}

static int cmp_key(const void *a, const void *b)
{
	const unsigned long long *x = a, *y = b;
	return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : x[1] != y[1] ? (x[1] < y[1] ? -1 : 1) : 0;
}

/* A slice's name read back as its key: false when name is not one. */
static bool key_of(const char *name, unsigned long long key[2])
{
	if (strlen(name) != NAME_LEN || strcmp(name + 32, ".bin") ||
	    strspn(name, "0123456789abcdef") != 32)
		return false;
	char half[17];
	for (int i = 0; i < 2; i++) {
		memcpy(half, name + 16 * i, 16);
		half[16] = '\0';
		key[i] = strtoull(half, NULL, 16);
	}
	return true;
}

/* A writer's temporary file (path_replace_at's "<name>.<pid>.tmp") whose
 * writer is gone. */
static bool dead_temp(const char *name)
{
	const char *dot = strchr(name, '.');
	if (!dot || strncmp(dot, ".bin.", 5))
		return false;
	char *end;
	long pid = strtol(dot + 5, &end, 10);
	return pid > 0 && !strcmp(end, ".tmp") && kill((pid_t)pid, 0) && errno == ESRCH;
}

void words_memo_tidy(int dfd, const unsigned long long (*keys)[2], size_t n)
{
	int fd = dfd >= 0 ? dup(dfd) : -1;
	DIR *dh = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dh) {
		if (fd >= 0)
			close(fd);
		return;
	}
	unsigned long long(*sorted)[2] = xcalloc(n + 1, sizeof *sorted);
	memcpy(sorted, keys, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, cmp_key);
	struct dirent *e;
	while ((e = readdir(dh))) {
		unsigned long long key[2];
		if (key_of(e->d_name, key) ? !bsearch(key, sorted, n, sizeof *sorted, cmp_key)
					   : dead_temp(e->d_name))
			unlinkat(dfd, e->d_name, 0);
	}
	closedir(dh);
	free(sorted);
}
