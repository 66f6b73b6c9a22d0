/* hugepages: re-executing a big site's build with malloc on huge pages (see
 * hugepages.h). */
#include "hugepages.h"
#include "buf.h"
#include "build_state.h"
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
 * for anew. */
static const char *const settings[] = {
	SETTING "=1",
	"glibc.malloc.mmap_threshold=33554432",  /* glibc's greatest: 32 MiB */
	"glibc.malloc.trim_threshold=4294967295",
	"glibc.malloc.top_pad=67108864",
};

char *hugepages_tunables(const char *existing)
{
	if (existing && strstr(existing, SETTING))
		return NULL; /* the user's word stands */
	struct buf b = BUF_INIT;
	if (existing && *existing)
		buf_puts(&b, existing);
	for (size_t i = 0; i < sizeof settings / sizeof *settings; i++) {
		size_t name = strcspn(settings[i], "=");
		char *key = xasprintf("%.*s=", (int)name, settings[i]);
		bool named = existing && strstr(existing, key);
		free(key);
		if (named)
			continue; /* nor is any other setting of the user's changed */
		if (b.n)
			buf_putc(&b, ':');
		buf_puts(&b, settings[i]);
	}
	return buf_detach(&b);
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

void hugepages_for_build(const char *source_dir, const char *outdir, bool force)
{
	const char *want = getenv("SSG_HUGEPAGES");
	bool asked = want && !strcmp(want, "1");
	if (!asked && hugepages_build_is_incremental(outdir, force)) {
		/* small pages, but what is freed is kept all the same (the
		 * settings below, which need no re-execution) */
		if ((!want || strcmp(want, "0")) && hugepages_site_is_big(source_dir, BIG_SITE)) {
			mallopt(M_MMAP_THRESHOLD, 32 << 20);
			mallopt(M_TRIM_THRESHOLD, -1); /* never: read as unsigned */
			mallopt(M_TOP_PAD, 64 << 20);
		}
		return;
	}
	hugepages_for_site(source_dir);
}
