/* gitdates: last-commit dates from one `git log` pass (see gitdates.h). */
#include "gitdates.h"
#include "buf.h"
#include "doc.h"
#include "path.h"
#include "xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct entry {
	char *path;
	char *date;
	size_t seq; /* order seen: the smallest is the newest commit */
};

static bool is_date(const char *p, size_t n)
{
	if (n != 10)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool dash = i == 4 || i == 7;
		if (dash ? p[i] != '-' : !isdigit((unsigned char)p[i]))
			return false;
	}
	return true;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort by path, keep the newest date of each, move the result into g. */
static void take_entries(struct gitdates *g, struct entry *e, size_t n)
{
	if (n > 1)
		qsort(e, n, sizeof *e, cmp_entry);
	g->paths = xcalloc(n + 1, sizeof *g->paths);
	g->dates = xcalloc(n + 1, sizeof *g->dates);
	g->n = 0;
	for (size_t i = 0; i < n; i++) {
		if (g->n && !strcmp(g->paths[g->n - 1], e[i].path)) {
			free(e[i].path);
			free(e[i].date);
			continue;
		}
		g->paths[g->n] = e[i].path;
		g->dates[g->n] = e[i].date;
		g->n++;
	}
}

void gitdates_parse(struct gitdates *g, const char *text, size_t n)
{
	gitdates_free(g);
	struct entry *e = NULL;
	size_t ne = 0, cap = 0;
	char date[11] = "";
	const char *p = text, *end = text + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t len = (size_t)(le - p);
		if (len && p[len - 1] == '\r')
			len--;
		if (len && p[0] == '\x01') {
			if (is_date(p + 1, len - 1)) {
				memcpy(date, p + 1, 10);
				date[10] = '\0';
			} else
				date[0] = '\0';
		} else if (len && date[0] && p[0] != '"' && !memchr(p, '\0', len)) {
			e = xgrow(e, &cap, ne + 1, sizeof *e);
			e[ne].path = xstrndup(p, len);
			e[ne].date = xstrdup(date);
			e[ne].seq = ne;
			ne++;
		}
		p = le + 1;
	}
	take_entries(g, e, ne);
	free(e);
}

/* Run argv with stdout into out (stdin and stderr on /dev/null); the exit
 * status, or -1 when it could not run. */
static int run_capture(char *const argv[], struct buf *out)
{
	int fds[2];
	if (pipe(fds))
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		return -1;
	}
	char chunk[65536];
	for (;;) {
		ssize_t r = read(fds[0], chunk, sizeof chunk);
		if (r > 0)
			buf_put(out, chunk, (size_t)r);
		else if (r == 0 || errno != EINTR)
			break;
	}
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *find_git_dir(const char *dir);

int gitdates_load(struct gitdates *g, const char *source_dir)
{
	gitdates_free(g);
	char *content = path_join(source_dir ? source_dir : ".", "content");
	struct stat st;
	if (stat(content, &st) || !S_ISDIR(st.st_mode)) {
		free(content);
		return -1;
	}
	/* no repository around content/ (and none named by GIT_DIR): no git to run */
	bool named = getenv("GIT_DIR") != NULL;
	char *gitdir = named ? NULL : find_git_dir(content);
	if (!named && !gitdir) {
		free(content);
		return -1;
	}
	free(gitdir);
	/* --relative: names relative to content/, wherever the repository's top is */
	char *argv[] = {"git", "-C", content, "-c", "core.quotepath=off",
			"-c", "log.showSignature=false", "--no-pager", "log", "--relative",
			"--no-color", "--format=%x01%cs", "--name-only", "--", ".", NULL};
	struct buf out = BUF_INIT;
	int rc = run_capture(argv, &out);
	free(content);
	if (rc == 0)
		gitdates_parse(g, out.p ? out.p : "", out.n);
	buf_free(&out);
	return rc == 0 ? 0 : -1;
}

/* ---- the checked-out commit, read from .git without running git ---------- */

static char *read_small(const char *path)
{
	struct buf b = BUF_INIT;
	if (buf_read_regular(&b, path, 1u << 20)) {
		buf_free(&b);
		return NULL;
	}
	while (b.n && (b.p[b.n - 1] == '\n' || b.p[b.n - 1] == '\r'))
		b.p[--b.n] = '\0';
	return buf_detach(&b);
}

static bool is_sha(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (!isxdigit((unsigned char)s[n]))
			return false;
	return n == 40 || n == 64;
}

/* The git folder holding dir (a .git folder, or a .git file naming it). */
static char *find_git_dir(const char *dir)
{
	char *at = realpath(dir, NULL);
	while (at) {
		char *dot = path_join(at, ".git");
		struct stat st;
		if (lstat(dot, &st) == 0 && S_ISDIR(st.st_mode)) {
			free(at);
			return dot;
		}
		if (lstat(dot, &st) == 0 && S_ISREG(st.st_mode)) {
			char *line = read_small(dot);
			free(dot);
			char *gd = NULL;
			if (line && !strncmp(line, "gitdir: ", 8))
				gd = line[8] == '/' ? xstrdup(line + 8) : path_join(at, line + 8);
			free(line);
			free(at);
			return gd;
		}
		free(dot);
		if (!strcmp(at, "/")) {
			free(at);
			return NULL;
		}
		char *up = path_dirname(at);
		free(at);
		at = *up ? up : (free(up), NULL);
	}
	return NULL;
}

/* A worktree's common folder (its "commondir" file), or NULL. */
static char *common_dir(const char *gitdir)
{
	char *cpath = path_join(gitdir, "commondir");
	char *cline = read_small(cpath);
	free(cpath);
	char *common = NULL;
	if (cline)
		common = cline[0] == '/' ? xstrdup(cline) : path_join(gitdir, cline);
	free(cline);
	return common;
}

/* A ref's commit: its loose file, else packed-refs, in gitdir or the
 * common folder of a worktree. */
static char *resolve_ref(const char *gitdir, const char *ref)
{
	char *common = common_dir(gitdir);
	const char *dirs[2] = {gitdir, common};
	char *sha = NULL;
	for (size_t i = 0; i < 2 && !sha; i++) {
		if (!dirs[i])
			continue;
		char *f = path_join(dirs[i], ref);
		char *v = read_small(f);
		free(f);
		if (v && is_sha(v))
			sha = v;
		else
			free(v);
		if (sha)
			break;
		f = path_join(dirs[i], "packed-refs");
		char *packed = read_small(f);
		free(f);
		size_t rl = strlen(ref);
		for (char *line = packed, *next; line && *line && !sha; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			char *sp = strchr(line, ' ');
			if (sp && !strncmp(sp + 1, ref, rl) && sp[1 + rl] == '\0') {
				*sp = '\0';
				if (is_sha(line))
					sha = xstrdup(line);
			}
			if (!next)
				break;
		}
		free(packed);
	}
	free(common);
	return sha;
}

/* HEAD's commit from the files git keeps (*sha); 1 when there is no
 * repository around content; -1 when it is not that simple (ask git). */
static int read_head(const char *content, char **sha_out)
{
	*sha_out = NULL;
	if (getenv("GIT_DIR") || getenv("GIT_WORK_TREE") || getenv("GIT_COMMON_DIR") ||
	    getenv("GIT_CEILING_DIRECTORIES"))
		return -1; /* git would look elsewhere: let it answer */
	char *gitdir = find_git_dir(content);
	if (!gitdir)
		return 1;
	char *hp = path_join(gitdir, "HEAD");
	char *head = read_small(hp);
	free(hp);
	char *sha = NULL;
	if (head && !strncmp(head, "ref: ", 5))
		sha = resolve_ref(gitdir, head + 5);
	else if (head && is_sha(head))
		sha = xstrdup(head);
	free(head);
	free(gitdir);
	*sha_out = sha;
	return sha ? 0 : -1;
}

void gitdates_head(const char *source_dir, struct buf *out)
{
	char *content = path_join(source_dir ? source_dir : ".", "content");
	struct stat st;
	if (stat(content, &st) == 0 && S_ISDIR(st.st_mode)) {
		char *sha;
		int rc = read_head(content, &sha);
		if (rc == 0) {
			buf_puts(out, sha);
			buf_putc(out, '\n');
			free(sha);
		} else if (rc < 0) {
			/* not a checkout, or an unusual one: ask git */
			char *argv[] = {"git", "-C", content, "rev-parse", "-q", "--verify", "HEAD", NULL};
			struct buf b = BUF_INIT;
			if (run_capture(argv, &b) == 0)
				buf_put(out, b.p, b.n);
			buf_free(&b);
		}
	}
	free(content);
}

/* ---- the dates kept between builds ---------------------------------------
 * <site>/.ssg-cache/gitdates: "ssg-gitdates 1 <env>\n", the length of the
 * key and the key itself (what the log answers from, below) and a newline,
 * then the dates as the log would give them, one "\x01DATE\npath\n" each (read
 * back by gitdates_parse, which checks every line). */

#define KEPT_DIR ".ssg-cache"
#define KEPT_NAME "gitdates"
#define KEPT_MAGIC "ssg-gitdates 1 "

/* Append the file gitdir/name (or a mark that there is none) to key. */
static void key_file(struct buf *key, const char *gitdir, const char *name)
{
	char *f = gitdir ? path_join(gitdir, name) : NULL;
	char *v = f ? read_small(f) : NULL;
	buf_printf(key, "%s %zu\n", name, v ? strlen(v) : (size_t)0);
	if (v)
		buf_puts(key, v);
	buf_putc(key, '\n');
	free(v);
	free(f);
}

/* What `git log` in content answers from, when the files git keeps tell it
 * plainly: the commit checked out, the repository, where content lies, and a
 * shallow clone's boundary (deepened, the same commit has more history).
 * NULL when only git can tell (then git runs every time). */
static char *log_key(const char *content)
{
	char *sha;
	if (read_head(content, &sha) != 0)
		return NULL;
	char *gitdir = find_git_dir(content);
	char *real = realpath(content, NULL);
	char *common = gitdir ? common_dir(gitdir) : NULL;
	struct buf key = BUF_INIT;
	if (gitdir && real) {
		buf_printf(&key, "head %s\ngit %s\ncontent %s\n", sha, gitdir, real);
		key_file(&key, gitdir, "shallow");
		key_file(&key, common, "shallow");
		key_file(&key, common ? common : gitdir, "info/grafts");
	}
	free(sha);
	free(gitdir);
	free(real);
	free(common);
	if (!key.n) {
		buf_free(&key);
		return NULL;
	}
	return buf_detach(&key);
}

/* The dates kept for key under env, into g; false when there are none. */
static bool load_kept(struct gitdates *g, const char *source_dir, const char env[33],
		      const char *key)
{
	char *dir = path_join(source_dir, KEPT_DIR);
	char *file = path_join(dir, KEPT_NAME);
	free(dir);
	struct buf b = BUF_INIT;
	bool ok = buf_read_file(&b, file) == 0;
	free(file);
	size_t head = sizeof KEPT_MAGIC - 1, klen = strlen(key);
	char want[32];
	int wn = snprintf(want, sizeof want, "%zu\n", klen);
	ok = ok && b.n >= head + 33 + (size_t)wn + klen + 1 &&
	     !memcmp(b.p, KEPT_MAGIC, head) && !memcmp(b.p + head, env, 32) &&
	     b.p[head + 32] == '\n' && !memcmp(b.p + head + 33, want, (size_t)wn) &&
	     !memcmp(b.p + head + 33 + wn, key, klen) && b.p[head + 33 + wn + klen] == '\n';
	if (ok) {
		size_t at = head + 33 + (size_t)wn + klen + 1;
		gitdates_parse(g, b.p + at, b.n - at);
	}
	buf_free(&b);
	return ok;
}

static void save_kept(const struct gitdates *g, const char *source_dir, const char env[33],
		      const char *key)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, KEPT_MAGIC);
	buf_put(&b, env, 32);
	buf_printf(&b, "\n%zu\n%s\n", strlen(key), key);
	for (size_t i = 0; i < g->n; i++)
		buf_printf(&b, "\x01%s\n%s\n", g->dates[i], g->paths[i]);
	int dfd = path_open_subdir(source_dir, KEPT_DIR, true);
	if (dfd >= 0) {
		path_replace_at(dfd, KEPT_NAME, b.p, b.n); /* a cache: unwritten, git runs again */
		close(dfd);
	}
	buf_free(&b);
}

int gitdates_load_kept(struct gitdates *g, const char *source_dir, const char env[33],
		       bool reuse)
{
	const char *src = source_dir ? source_dir : ".";
	char *content = path_join(src, "content");
	struct stat st;
	char *key = stat(content, &st) == 0 && S_ISDIR(st.st_mode) ? log_key(content) : NULL;
	free(content);
	if (key && reuse && load_kept(g, src, env, key)) {
		free(key);
		return 0;
	}
	int rc = gitdates_load(g, src);
	if (rc == 0 && key)
		save_kept(g, src, env, key);
	free(key);
	return rc;
}

static int cmp_key(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

const char *gitdates_get(const struct gitdates *g, const char *relpath)
{
	if (!g->n || !relpath)
		return NULL;
	char **hit = bsearch(relpath, g->paths, g->n, sizeof *g->paths, cmp_key);
	return hit ? g->dates[hit - g->paths] : NULL;
}

void gitdates_free(struct gitdates *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->paths[i]);
		free(g->dates[i]);
	}
	free(g->paths);
	free(g->dates);
	memset(g, 0, sizeof *g);
}

void gitdates_apply(const struct gitdates *g, struct doc *docs, size_t ndocs)
{
	for (size_t i = 0; i < ndocs; i++) {
		const char *d = docs[i].meta.updated ? NULL : gitdates_get(g, docs[i].relpath);
		if (d)
			docs[i].meta.updated = xstrdup(d);
	}
}

void gitdates_fill(const char *source_dir, struct doc *docs, size_t ndocs)
{
	bool need = false;
	for (size_t i = 0; i < ndocs && !need; i++)
		need = !docs[i].meta.updated;
	if (!need)
		return;
	struct gitdates g = {0};
	if (gitdates_load(&g, source_dir) == 0)
		for (size_t i = 0; i < ndocs; i++) {
			const char *d = docs[i].meta.updated ? NULL : gitdates_get(&g, docs[i].relpath);
			if (d)
				docs[i].meta.updated = xstrdup(d);
		}
	gitdates_free(&g);
}
