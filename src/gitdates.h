/* gitdates: the last-commit date of every file under a site's content/,
 * read from ONE `git log --name-only` pass (never one process per file), for
 * the "last updated" line, sitemap <lastmod> and the Atom feed. A date from
 * front matter or site.yml wins; when the site is not a git checkout, or git
 * is missing, there are simply no dates: never the build time, so the output
 * stays deterministic. Level 2 (runs git; knows struct doc only to fill in
 * meta.updated). Thread-safe: no global state. */
#ifndef SSG_GITDATES_H
#define SSG_GITDATES_H
#include <stdbool.h>
#include <stddef.h>

struct doc;
struct buf;

struct gitdates {
	char **paths; /* relative to content/, sorted, unique */
	char **dates; /* YYYY-MM-DD, the newest commit touching paths[i] */
	size_t n;
};

/* Parse `git log --format=%x01%cs --name-only` output (newest commit first):
 * a line "\x01YYYY-MM-DD" opens a commit, the file names that follow belong to
 * it. The first date seen for a path wins. Lines that are neither are ignored,
 * and so are quoted (escaped) names. Replaces what g held. Can't fail. */
void gitdates_parse(struct gitdates *g, const char *text, size_t n);

/* Run git once in <source_dir>/content (paths come out relative to it) and
 * parse its output. Returns 0 when git answered (g may still be empty), -1
 * when git is missing or this is not a git checkout (g is then empty). */
int gitdates_load(struct gitdates *g, const char *source_dir);

/* gitdates_load, kept between builds in <source_dir>/.ssg-cache/gitdates
 * under env (doc_cache_env: a cache that came with the site is not trusted)
 * and keyed by what the log answers from: the commit checked out, the
 * repository, where content/ lies in it, a shallow clone's boundary. git runs
 * only when that changed (a new commit, a checkout), or when reuse is false
 * (--force); its answer is then kept. Uncommitted edits change nothing: the
 * dates are the commits'. Where the files git keeps do not tell the commit
 * plainly (GIT_DIR and the like), git runs every time and nothing is kept. */
int gitdates_load_kept(struct gitdates *g, const char *source_dir, const char env[33],
		       bool reuse);

/* The date of relpath (relative to content/), or NULL. Borrowed from g. */
const char *gitdates_get(const struct gitdates *g, const char *relpath);

void gitdates_free(struct gitdates *g);

/* The commit checked out under <source_dir>/content (`git rev-parse HEAD`),
 * appended to out: what the dates depend on. Nothing when not a checkout. */
void gitdates_head(const char *source_dir, struct buf *out);

/* Give every document without an `updated` date its date from g. */
void gitdates_apply(const struct gitdates *g, struct doc *docs, size_t ndocs);

/* Give every document without an `updated` date (front matter and site.yml
 * win) its file's last-commit date, when there is one. One git run. */
void gitdates_fill(const char *source_dir, struct doc *docs, size_t ndocs);

#endif
