/* source: content discovery, reading, front matter and format sniffing
 * (see source.h). */
#include "source.h"
#include "fingerprint.h"
#include "buf.h"
#include "path.h"
#include "utf8.h"
#include "xalloc.h"
#include "yamlx.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

bool source_is_document(const char *name)
{
	const char *e = path_ext(name);
	return !strcmp(e, "md") || !strcmp(e, "markdown") || !strcmp(e, "rst") || !strcmp(e, "txt");
}

bool source_is_active(const char *name)
{
	/* what a browser runs, or shows as a page of the site's origin */
	static const char *active[] = {"html", "htm",  "xhtml", "xht", "shtml", "js",  "mjs",
				       "cjs",  "svg",  "svgz",  "xml", "xsl",   "xslt", "css",
				       "wasm", "swf",  NULL};
	const char *e = path_ext(name);
	for (const char **a = active; *a; a++)
		if (!strcasecmp(e, *a))
			return true;
	return false;
}

static void add_owned(struct source_list *l, char *rel)
{
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = (struct source_file){rel, source_is_document(rel)};
}

static void add(struct source_list *l, const char *rel) { add_owned(l, xstrdup(rel)); }

/* The folders on the way down from content/ (to refuse a symlink loop) and
 * how many entries the walk has seen (to bound a walk that symlinks blow up). */
#define WALK_MAX_DEPTH 32
#define WALK_MAX_ENTRIES 200000
struct walk_state {
	dev_t dev[WALK_MAX_DEPTH + 2];
	ino_t ino[WALK_MAX_DEPTH + 2];
	size_t entries;
	bool warned;
};

static bool on_path(const struct walk_state *w, int depth, const struct stat *st)
{
	for (int i = 0; i <= depth; i++)
		if (w->dev[i] == st->st_dev && w->ino[i] == st->st_ino)
			return true;
	return false;
}

static int walk(const char *root, const char *rootreal, const char *rel, struct source_list *l,
		struct diags *d, int depth, struct walk_state *w)
{
	char *dir = *rel ? path_join(root, rel) : xstrdup(root);
	DIR *dh = opendir(dir);
	if (!dh) {
		diag_add(d, SEV_ERROR, *rel ? rel : root, 0, 0, "cannot read folder: %s",
			 strerror(errno));
		free(dir);
		return -1;
	}
	struct dirent *e;
	while ((e = readdir(dh))) {
		if (e->d_name[0] == '.')
			continue;
		if (++w->entries > WALK_MAX_ENTRIES) {
			if (!w->warned)
				diag_add(d, SEV_ERROR, "content", 0, 0,
					 "more than %d entries under content/: the rest is skipped",
					 WALK_MAX_ENTRIES);
			w->warned = true;
			break;
		}
		char *childrel = *rel ? path_join(rel, e->d_name) : xstrdup(e->d_name);
		/* a regular file is taken as the folder says: no stat of each of
		 * 10,000 documents (symlinks, folders and the unknown are looked at),
		 * and its name is kept as made (add_owned) */
		if (e->d_type == DT_REG) {
			add_owned(l, childrel);
			continue;
		}
		char *child = path_join(root, childrel);
		struct stat st;
		if (lstat(child, &st)) {
			free(child);
			free(childrel);
			continue;
		}
		if (S_ISLNK(st.st_mode)) {
			char *real = realpath(child, NULL);
			size_t rl = strlen(rootreal);
			if (!real || strncmp(real, rootreal, rl) || (real[rl] && real[rl] != '/')) {
				diag_addc(d, SEV_WARNING, "symlink-outside", childrel, 0, 0,
					  "symlink points outside content/: skipped");
				free(real);
				free(child);
				free(childrel);
				continue;
			}
			free(real);
			if (stat(child, &st)) {
				free(child);
				free(childrel);
				continue;
			}
		}
		if (S_ISDIR(st.st_mode)) {
			if (on_path(w, depth, &st))
				diag_addc(d, SEV_WARNING, "symlink-loop", childrel, 0, 0,
					  "symlink to a folder that contains it: skipped");
			else if (depth < WALK_MAX_DEPTH) {
				w->dev[depth + 1] = st.st_dev;
				w->ino[depth + 1] = st.st_ino;
				walk(root, rootreal, childrel, l, d, depth + 1, w);
			} else
				diag_add(d, SEV_WARNING, childrel, 0, 0, "folder nested too deep: skipped");
		} else if (S_ISREG(st.st_mode))
			add(l, childrel);
		free(child);
		free(childrel);
	}
	closedir(dh);
	free(dir);
	return 0;
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct source_file *)a)->relpath,
		      ((const struct source_file *)b)->relpath);
}

int source_discover(const char *content_dir, struct source_list *out, struct diags *d)
{
	char *rootreal = realpath(content_dir, NULL);
	if (!rootreal) {
		diag_add(d, SEV_ERROR, content_dir, 0, 0, "cannot open the content folder: %s",
			 strerror(errno));
		return -1;
	}
	struct walk_state w = {.entries = 0};
	struct stat st;
	if (stat(content_dir, &st) == 0) {
		w.dev[0] = st.st_dev;
		w.ino[0] = st.st_ino;
	}
	int rc = walk(content_dir, rootreal, "", out, d, 0, &w);
	free(rootreal);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, cmp_file);
	return rc;
}

bool source_list_from_digests(const struct file_digests *g, const char *prefix,
			      struct source_list *out)
{
	size_t pl = strlen(prefix);
	/* a folder deeper than discover goes is one it says it skips */
	if (!g->whole_tree || g->n + g->nfolders > WALK_MAX_ENTRIES || g->depth > WALK_MAX_DEPTH)
		return false;
	for (size_t i = 0; i < g->n; i++)
		if (strncmp(g->paths[i], prefix, pl) || !g->paths[i][pl])
			return false;
	struct source_list l = {0};
	bool sorted = true;
	for (size_t i = 0; i < g->n; i++) {
		add(&l, g->paths[i] + pl);
		sorted &= i == 0 || strcmp(l.v[i - 1].relpath, l.v[i].relpath) < 0;
	}
	/* the walk sorts each folder's names: "a/b" came before "a.md" */
	if (!sorted)
		qsort(l.v, l.n, sizeof *l.v, cmp_file);
	*out = l;
	return true;
}

void source_list_free(struct source_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].relpath);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* ---- sniffing ---------------------------------------------------------- */

static bool is_adornment_line(const char *p, size_t n)
{
	if (n < 3)
		return false;
	char c = p[0];
	if (!strchr("=-~^\"'`#*+_:.<>!$%&,/;?@\\|", c))
		return false;
	for (size_t i = 1; i < n; i++)
		if (p[i] != c)
			return false;
	return true;
}

enum doc_format source_sniff(const char *name, const char *text, size_t n)
{
	const char *e = path_ext(name);
	if (!strcmp(e, "rst"))
		return FMT_RST;
	if (strcmp(e, "txt"))
		return FMT_MARKDOWN;
	int md = 0, rst = 0;
	size_t prevlen = 0;
	bool prev_text = false;
	for (size_t i = 0; i < n;) {
		const char *line = text + i;
		const char *nl = memchr(line, '\n', n - i);
		size_t len = nl ? (size_t)(nl - line) : n - i;
		i += len + 1;
		if (len >= 2 && line[0] == '#' && (line[1] == ' ' || line[1] == '#'))
			md += 3;
		if (len >= 3 && !memcmp(line, ".. ", 3))
			rst += 3;
		if (is_adornment_line(line, len) && prev_text && len >= prevlen && line[0] != '-')
			rst += 3;
		else if (is_adornment_line(line, len) && prev_text && len >= prevlen)
			rst += 1; /* '---' under text: RST section or Markdown setext */
		for (size_t k = 0; k + 1 < len; k++) {
			if (line[k] == ']' && line[k + 1] == '(')
				md += 2;
			if (line[k] == '>' && line[k + 1] == '`' && k + 2 < len && line[k + 2] == '_')
				rst += 2;
			if (line[k] == '`' && line[k + 1] == '_' && k > 0 && line[k - 1] != '`')
				rst += 1;
			if (line[k] == '`' && k + 2 < len && line[k + 1] == '`' && line[k + 2] == '`' &&
			    k == 0)
				md += 2;
		}
		prev_text = len > 0 && !is_adornment_line(line, len) && line[0] != ' ';
		prevlen = len;
	}
	return rst > md ? FMT_RST : FMT_MARKDOWN;
}

/* ---- loading ----------------------------------------------------------- */

/* Split "---\n<yaml>\n---\n" off the top. Returns the offset of the body. */
static size_t front_matter(struct source *s, struct diags *d)
{
	const char *t = s->text;
	if (s->len < 4 || memcmp(t, "---\n", 4))
		return 0;
	size_t i = 4;
	int line = 2;
	while (i < s->len) {
		const char *nl = memchr(t + i, '\n', s->len - i);
		size_t len = nl ? (size_t)(nl - (t + i)) : s->len - i;
		if ((len == 3 && (!memcmp(t + i, "---", 3) || !memcmp(t + i, "...", 3)))) {
			struct yamlx y;
			if (yamlx_load(&y, t + 4, i - 4, s->relpath, 1, d) == 0) {
				ynode root = yamlx_root(&y);
				if (root)
					meta_from_yaml(&y, root, &s->meta, d);
				yamlx_free(&y);
			}
			s->body_line = line + 1;
			return nl ? i + len + 1 : s->len;
		}
		i += len + 1;
		line++;
	}
	/* no closing line: not front matter (a Markdown thematic break, or RST) */
	return 0;
}

int source_load(const char *file, const char *shown, long max_size, struct source *s,
		struct diags *d)
{
	memset(s, 0, sizeof *s);
	s->relpath = xstrdup(shown);
	s->body_line = 1;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag_add(d, SEV_ERROR, shown, 0, 0, "cannot read: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &s->st))
		memset(&s->st, 0, sizeof s->st);
	/* read in one call once fstat gives the size (four calls a file, not
	 * seven: 10,000 documents are 30,000 calls fewer); a file without a
	 * size is read to its end */
	size_t size = S_ISREG(s->st.st_mode) && s->st.st_size > 0 ? (size_t)s->st.st_size : 0;
	size_t max = max_size > 0 ? (size_t)max_size : 0;
	struct buf raw = BUF_INIT;
	int rc = max && size > max ? (close(fd), 1) : buf_read_fd(&raw, fd, size, size > 0, max);
	if (rc == 1) {
		diag_addc(d, SEV_ERROR, "file-too-large", shown, 0, 0,
			  "file is larger than limits.max_file_size (%ld bytes): skipped", max_size);
		buf_free(&raw);
		return -1;
	}
	if (utf8_looks_binary(buf_cstr(&raw), raw.n)) {
		diag_addc(d, SEV_ERROR, "binary", shown, 1, 1, "file looks binary, not text: skipped");
		buf_free(&raw);
		return -1;
	}
	fingerprint_bytes(raw.p ? raw.p : "", raw.n, s->digest);
	s->text = utf8_clean(buf_cstr(&raw), raw.n, &s->len, shown, d);
	buf_free(&raw);
	size_t off = front_matter(s, d);
	s->body = s->text + off;
	s->body_len = s->len - off;
	s->format = source_sniff(shown, s->body, s->body_len);
	return 0;
}

void source_free(struct source *s)
{
	free(s->relpath);
	free(s->text);
	meta_free(&s->meta);
	memset(s, 0, sizeof *s);
}
