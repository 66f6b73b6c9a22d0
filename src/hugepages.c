/* hugepages: re-executing a big site's build with malloc on huge pages (see
 * hugepages.h). */
#include "hugepages.h"
#include "buf.h"
#include "build_state.h"
#include "fingerprint.h"
#include "heap_warm.h"
#include "path.h"
#include "xalloc.h"

#include <dirent.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SETTING "glibc.malloc.hugetlb"
/* content/ entries from which huge pages pay (the five-document portal is
 * better off without them, 1,000 documents are 4 % quicker with them) */
#define BIG_SITE 200
/* What a build on small pages warms first (heap_warm.h), per byte of the
 * last build's files.bin: an unchanged build at 10,000 documents touches
 * about 9 MB, and its files.bin is 1.3 MB (0.86 of the time warming 11 MB,
 * 0.88 warming 5 MB); the five-document portal's gives 28 KB, less than
 * heap_warm_to warms at all, and its build is quicker for that (4 MB warmed
 * took it from 4.5 ms to 6.4 ms unchanged, and gained nothing forced). */
#define FIRST_WARMTH_PER_BYTE 8

static char **saved_argv;

void hugepages_init(int argc, char **argv)
{
	saved_argv = xcalloc((size_t)argc + 1, sizeof *saved_argv);
	for (int i = 0; i < argc; i++)
		saved_argv[i] = argv[i];
}

bool hugepages_site_is_big(const char *source_dir, unsigned least)
{
	char *content = path_join(source_dir, "content");
	DIR *d = opendir(content);
	free(content);
	if (!d)
		return false;
	unsigned n = 0;
	struct dirent *e;
	while (n < least && (e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n >= least;
}

/* What a big site's build asks of malloc: huge pages, and to keep what it
 * frees (no heap trimmed, no big block handed back by munmap) for the next
 * allocation, instead of having the kernel zero it again when it is asked
 * for anew. The keeping needs no re-execution: mallopt sets it as well. */
static const struct keep_setting {
	const char *name, *value; /* as GLIBC_TUNABLES says it */
	int param, mvalue;        /* as mallopt does */
} keep[] = {
	{"glibc.malloc.mmap_threshold", "33554432", M_MMAP_THRESHOLD, 32 << 20}, /* glibc's greatest */
	{"glibc.malloc.trim_threshold", "4294967295", M_TRIM_THRESHOLD, -1},     /* never (unsigned) */
	{"glibc.malloc.top_pad", "67108864", M_TOP_PAD, 64 << 20},
};
#define NKEEP (sizeof keep / sizeof *keep)
_Static_assert(NKEEP <= HUGEPAGES_KEEP_MAX, "hugepages_keep_params has room for them all");

/* Whether GLIBC_TUNABLES (existing) names the setting. */
static bool names(const char *existing, const char *name)
{
	if (!existing)
		return false;
	char *key = xasprintf("%s=", name);
	bool named = strstr(existing, key) != NULL;
	free(key);
	return named;
}

char *hugepages_tunables(const char *existing)
{
	if (names(existing, SETTING))
		return NULL; /* the user's word stands */
	struct buf b = BUF_INIT;
	if (existing && *existing)
		buf_puts(&b, existing);
	if (b.n)
		buf_putc(&b, ':');
	buf_puts(&b, SETTING "=1");
	for (size_t i = 0; i < NKEEP; i++)
		if (!names(existing, keep[i].name)) /* nor is any other setting of the user's changed */
			buf_printf(&b, ":%s=%s", keep[i].name, keep[i].value);
	return buf_detach(&b);
}

size_t hugepages_keep_params(const char *existing, int param[], int value[])
{
	if (names(existing, SETTING))
		return 0; /* the user said what malloc does: all of it stands */
	size_t n = 0;
	for (size_t i = 0; i < NKEEP; i++)
		if (!names(existing, keep[i].name)) {
			param[n] = keep[i].param;
			value[n++] = keep[i].mvalue;
		}
	return n;
}

void hugepages_for_site(const char *source_dir)
{
	const char *off = getenv("SSG_HUGEPAGES");
	if (!saved_argv || (off && !strcmp(off, "0")))
		return;
	const char *was = getenv("GLIBC_TUNABLES");
	char *now = hugepages_tunables(was);
	if (!now)
		return;
	if (hugepages_site_is_big(source_dir, BIG_SITE) && setenv("GLIBC_TUNABLES", now, 1) == 0) {
		/* by its own path, so that ps and top still call it ssg, not exe;
		 * /proc/self/exe when that path is gone (a binary rebuilt under it) */
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n > 0) {
			self[n] = '\0';
			execv(self, saved_argv);
		}
		execv("/proc/self/exe", saved_argv);
		/* no /proc, or no exec allowed: go on as we are */
		if (was)
			setenv("GLIBC_TUNABLES", was, 1);
		else
			unsetenv("GLIBC_TUNABLES");
	}
	free(now);
}

bool hugepages_build_is_incremental(const char *outdir, bool force)
{
	if (force)
		return false;
	char *state = path_join(outdir, BUILD_STATE_FILE);
	struct stat st;
	bool there = lstat(state, &st) == 0 && S_ISREG(st.st_mode);
	free(state);
	return there;
}

size_t hugepages_first_warmth(const char *source_dir)
{
	return FIRST_WARMTH_PER_BYTE *
	       path_regular_size(source_dir, FINGERPRINT_CACHE_DIR "/" FINGERPRINT_CACHE_FILE);
}

/* A build on small pages: the memory it starts with made present in bulk
 * (heap_warm.h), unless GLIBC_TUNABLES says otherwise. */
static void warm_first(const char *source_dir)
{
	if (heap_warm_enable())
		heap_warm_to(hugepages_first_warmth(source_dir));
}

void hugepages_for_build(const char *source_dir, const char *outdir, bool force)
{
	const char *want = getenv("SSG_HUGEPAGES");
	bool asked = want && !strcmp(want, "1");
	if (!asked && hugepages_build_is_incremental(outdir, force)) {
		/* small pages, but what is freed is kept all the same (the
		 * settings below, which need no re-execution) */
		if ((!want || strcmp(want, "0")) && hugepages_site_is_big(source_dir, BIG_SITE)) {
			int param[HUGEPAGES_KEEP_MAX], value[HUGEPAGES_KEEP_MAX];
			size_t n = hugepages_keep_params(getenv("GLIBC_TUNABLES"), param, value);
			for (size_t i = 0; i < n; i++)
				mallopt(param[i], value[i]);
		}
		warm_first(source_dir);
		return;
	}
	hugepages_for_site(source_dir);
	warm_first(source_dir); /* not executed anew: small pages */
}
