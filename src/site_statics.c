/* site_statics: the files copied as they are (see site_statics.h). */
#include "site_statics.h"
#include "hash.h"
#include "buf.h"
#include "path.h"
#include "source.h"
#include "xalloc.h"

#include <stdlib.h>
#include <sys/stat.h>

/* Per static file of content/, whether the build makes its path (looked up
 * in a table of the few static files, not the pages in one of 28,000). */
static bool *taken_paths(const struct site *s, const char *const *made, size_t nmade,
			 char *const *assets, size_t nassets)
{
	bool *taken = xcalloc(s->nstatics + 1, sizeof *taken);
	if (!s->nstatics)
		return taken;
	struct hash mine = HASH_INIT;
	for (size_t i = 0; i < s->nstatics; i++)
		hash_put(&mine, s->statics[i].relpath, i);
	size_t at;
	for (size_t i = 0; i < nmade; i++)
		if (hash_get(&mine, made[i], &at))
			taken[at] = true;
	for (size_t i = 0; i < nassets; i++)
		if (hash_get(&mine, assets[i], &at))
			taken[at] = true;
	hash_free(&mine);
	return taken;
}

size_t site_copy_statics(struct site *s, struct output *out, struct template_source *ts,
			 const char *const *made, size_t nmade, struct diags *d)
{
	size_t n = 0;
	char **paths;
	size_t np = render_theme_static(ts, &paths);
	char **assets = xcalloc(np + 1, sizeof *assets);
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < np; i++) {
		buf_reset(&b);
		assets[i] = xasprintf("assets/%s", paths[i]);
		if (render_theme_file(ts, paths[i], &b) == 0 &&
		    output_write(out, assets[i], b.p, b.n) == 0)
			n++;
		free(paths[i]);
	}
	free(paths);
	buf_free(&b);
	bool *taken = taken_paths(s, made, nmade, assets, np);
	for (size_t i = 0; i < np; i++)
		free(assets[i]);
	free(assets);
	for (size_t i = 0; i < s->nstatics; i++) {
		const char *rel = s->statics[i].relpath;
		if (taken[i]) {
			char *shown = path_join("content", rel);
			diag_addc(d, SEV_WARNING, "replaces-page", shown, 0, 0,
				  "not published: the site makes %s itself", rel);
			free(shown);
			continue;
		}
		char *src = xasprintf("%s/content/%s", s->source_dir, rel);
		if (output_copy(out, rel, src) == 0)
			n++;
		free(src);
	}
	free(taken);
	/* the site's own static/ folder goes to the root as it is */
	char *sdir = path_join(s->source_dir, "static");
	struct source_list files = {0};
	struct stat st;
	struct diags ignore = DIAGS_INIT;
	if (stat(sdir, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (s->boundary && path_inside(s->boundary, sdir))
			source_discover(sdir, &files, &ignore);
		else
			diag_addc(out->d, SEV_WARNING, "symlink-outside", "static", 0, 0,
				  "resolves outside the site's repository: not copied");
	}
	for (size_t i = 0; i < files.n; i++) {
		char *src = path_join(sdir, files.v[i].relpath);
		if (output_copy(out, files.v[i].relpath, src) == 0)
			n++;
		free(src);
	}
	diags_free(&ignore);
	source_list_free(&files);
	free(sdir);
	return n;
}
