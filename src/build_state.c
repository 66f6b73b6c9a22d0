/* build_state: the fingerprint of a build's inputs and the record of its
 * results (see build_state.h). */
#include "build_state.h"
#include "buf.h"
#include "digest.h"
#include "fingerprint.h"
#include "gitdates.h"
#include "linkcheck.h"
#include "local_key.h"
#include "map_warm.h"
#include "output.h"
#include "path.h"
#include "source.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define STATE_MAGIC "ssg-build 1"

void build_state_fingerprint(const struct build_opts *o, int jobs, char fp[33],
			     struct file_digests *content, char frame_fp[33], char unnamed_fp[33])
{
	const char *src = o->source ? o->source : ".";
	struct buf m = BUF_INIT, frame = BUF_INIT, unnamed = BUF_INIT;
	buf_puts(&m, STATE_MAGIC "\n");
	/* the program: a new ssg may render the same inputs differently */
	fingerprint_add_self(&m);
	/* and the account's secret: the state of a site this account did not
	 * build (an output folder committed with the site) counts for nothing */
	buf_puts(&m, local_key());
	buf_putc(&m, '\n');
	buf_printf(&m, "base_url=%s\ndrafts=%d\n", o->base_url ? o->base_url : "", o->drafts);
	fingerprint_file(&m, src, "site.yml");
	fingerprint_file(&m, src, LINKCHECK_CACHE_DEFAULT);
	buf_put(&frame, m.p, m.n);
	buf_put(&unnamed, m.p, m.n);
	static const char *trees[] = {"content", "templates", "themes", "static"};
	struct fingerprint_cache *known = fingerprint_cache_open(src, !o->force);
	for (size_t i = 0; i < sizeof trees / sizeof *trees; i++) {
		size_t from = m.n;
		/* the frame: content/'s documents by their names, not their bytes */
		struct fingerprint_walk how = {.cache = known};
		if (i == 0)
			how = (struct fingerprint_walk){.keep = content,
							.frame = &frame,
							.unnamed = &unnamed,
							.unframed = source_is_document,
							.cache = known,
							.learned = o->learned};
		fingerprint_tree_keep(&m, src, trees[i], jobs, &how);
		if (i) {
			buf_put(&frame, m.p + from, m.n - from);
			buf_put(&unnamed, m.p + from, m.n - from);
		}
	}
	/* written while the build goes on (content is freed at its end) */
	if (content)
		fingerprint_cache_close_into(known, content);
	else
		fingerprint_cache_close(known);
	buf_puts(&m, "git=");
	size_t from = m.n;
	gitdates_head(src, &m);
	buf_puts(&frame, "git=");
	buf_put(&frame, m.p + from, m.n - from);
	buf_puts(&unnamed, "git=");
	buf_put(&unnamed, m.p + from, m.n - from);
	fingerprint_hex(&m, fp);
	if (frame_fp)
		fingerprint_hex(&frame, frame_fp);
	if (unnamed_fp)
		fingerprint_hex(&unnamed, unnamed_fp);
	buf_free(&m);
	buf_free(&frame);
	buf_free(&unnamed);
}

/* Diagnostic fields are written with \t, \n and \\ escaped. */
static void put_field(struct buf *b, const char *s)
{
	while (s && *s) {
		/* the plain run at once: a path seldom holds any of the three */
		size_t n = strcspn(s, "\t\n\\");
		buf_put(b, s, n);
		s += n;
		if (!*s)
			break;
		buf_puts(b, *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : "\\\\");
		s++;
	}
}

/* Unescape the next tab-separated field of *p in place; NULL at the end. */
static char *take_field(char **p)
{
	if (!*p)
		return NULL;
	char *start = *p, *w = *p, *r = *p;
	while (*r && *r != '\t') {
		if (*r == '\\' && r[1]) {
			r++;
			*w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
			r++;
		} else
			*w++ = *r++;
	}
	*p = *r ? r + 1 : NULL;
	*w = '\0';
	return start;
}

/* Read outdir/name into b when it starts with head, a 32-digit digest and a
 * newline: the digest must be `digest`, or any when digest is NULL. Returns
 * where the rest starts, or 0 (b then empty) when the file is not so. */
size_t build_state_read_headed(const char *outdir, const char *name, const char *head,
			  const char *digest, struct buf *b)
{
	char *file = path_join(outdir, name);
	int rc = buf_read_regular(b, file, 1u << 28);
	free(file);
	size_t hl = strlen(head), wl = hl + 33;
	if (rc || b->n < wl || strncmp(b->p, head, hl) || b->p[wl - 1] != '\n' ||
	    (digest && strncmp(b->p + hl, digest, 32))) {
		buf_free(b);
		return 0;
	}
	return wl;
}

/* Read outdir's state into d and st; with fp, only when it is that build's. */
static int read_state(const char *outdir, const char *fp, struct diags *d, struct build_stats *st)
{
	struct buf b = BUF_INIT;
	size_t wl = build_state_read_headed(outdir, BUILD_STATE_FILE, STATE_MAGIC "\nfingerprint ", fp, &b);
	if (!wl)
		return -1;
	struct build_stats got = {0};
	struct diags found = DIAGS_INIT;
	char *line = b.p + wl, *next;
	bool stats = false, ok = true;
	for (; ok && *line; line = next) {
		next = strchr(line, '\n');
		if (!next) {
			ok = false; /* cut short */
			break;
		}
		*next++ = '\0';
		if (!strncmp(line, "stats ", 6)) {
			stats = sscanf(line + 6, "%zu %zu %zu %zu %zu %zu %zu %zu %llu", &got.docs,
				       &got.pages, &got.statics, &got.resources, &got.topics,
				       &got.unsorted, &got.files, &got.warnings, &got.bytes) == 9;
			ok = stats;
		} else if (!strncmp(line, "diag\t", 5)) {
			char *p = line + 5;
			char *sev = take_field(&p), *ln = take_field(&p), *col = take_field(&p);
			char *path = take_field(&p), *code = take_field(&p), *msg = take_field(&p);
			if (!msg) {
				ok = false;
				break;
			}
			enum severity sv = *sev == 'e' ? SEV_ERROR : *sev == 'w' ? SEV_WARNING : SEV_NOTE;
			if (*code)
				diag_addc(&found, sv, code, path, atoi(ln), atoi(col), "%s", msg);
			else
				diag_add(&found, sv, path, atoi(ln), atoi(col), "%s", msg);
		} else if (strcmp(line, "end"))
			ok = false;
	}
	buf_free(&b);
	if (!ok || !stats) {
		diags_free(&found);
		return -1;
	}
	diags_take(d, &found);
	got.unchanged = got.files;
	*st = got;
	return 0;
}

int build_state_match(const char *outdir, const char fp[33], struct diags *d,
		      struct build_stats *st)
{
	return read_state(outdir, fp, d, st);
}

int build_state_read(const char *outdir, struct diags *d, struct build_stats *st)
{
	return read_state(outdir, NULL, d, st);
}

void build_state_forget(const char *outdir)
{
	build_state_forget_some(outdir, false);
}

void build_state_forget_some(const char *outdir, bool only_fingerprint)
{
	static const char *names[] = {BUILD_STATE_FILE, BUILD_PAGES_FILE, BUILD_DOCS_FILE,
				      BUILD_JSON_FILE, BUILD_ITEMS_FILE};
	for (size_t i = 0; i < (only_fingerprint ? 1 : sizeof names / sizeof *names); i++) {
		char *file = path_join(outdir, names[i]);
		if (unlink(file) && errno != ENOENT)
			fprintf(stderr, "%s: warning: cannot remove: %s\n", file, strerror(errno));
		free(file);
	}
}

/* Write b to outdir/name under a temporary name, then rename: a reader sees
 * all of it or none. */
void build_state_save_file(const char *outdir, const char *name, const struct buf *b)
{
	char *file = path_join(outdir, name);
	/* the temporary file lies beside the output folder, not in it: a build
	 * killed while writing it leaves nothing in the site (output_tidy
	 * removes it later) */
	char *base = xstrdup(outdir);
	size_t bl = strlen(base);
	while (bl > 1 && base[bl - 1] == '/')
		base[--bl] = '\0';
	char *tmp = xasprintf("%s" OUTPUT_STATE_TMP "%ld-%s", base, (long)getpid(), name + 1);
	free(base);
	/* a fresh file, never through a symlink someone left under that name */
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (fd >= 0 && !f)
		close(fd);
	bool ok = f && fwrite(b->p ? b->p : "", 1, b->n, f) == b->n;
	if (f && fclose(f))
		ok = false;
	if (!ok || path_rename_over_at(AT_FDCWD, tmp, AT_FDCWD, file))
		unlink(tmp);
	free(tmp);
	free(file);
}

void build_state_save(const char *outdir, const char fp[33], const struct diags *d,
		      const struct build_stats *st)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, STATE_MAGIC "\nfingerprint %s\n", fp);
	buf_printf(&b, "stats %zu %zu %zu %zu %zu %zu %zu %zu %llu\n", st->docs, st->pages,
		   st->statics, st->resources, st->topics, st->unsorted, st->files, st->warnings,
		   st->bytes);
	for (size_t i = 0; i < d->n; i++) {
		const struct diag *g = &d->v[i];
		buf_printf(&b, "diag\t%s\t%d\t%d\t", severity_name(g->sev), g->line, g->col);
		put_field(&b, g->path);
		buf_putc(&b, '\t');
		put_field(&b, g->code);
		buf_putc(&b, '\t');
		put_field(&b, g->msg);
		buf_putc(&b, '\n');
	}
	buf_puts(&b, "end\n");
	build_state_save_file(outdir, BUILD_STATE_FILE, &b);
	buf_free(&b);
}

/* ---- page digests ---------------------------------------------------------------- */

#define PAGES_MAGIC "ssg-pages 2"

void build_render_env(const struct build_opts *o, int jobs, char env[33])
{
	const char *src = o->source ? o->source : ".";
	struct buf m = BUF_INIT;
	buf_puts(&m, PAGES_MAGIC "\n");
	fingerprint_add_self(&m);
	fingerprint_tree(&m, src, "templates", jobs);
	fingerprint_tree(&m, src, "themes", jobs);
	fingerprint_hex(&m, env);
	buf_free(&m);
}

void page_digests_add(struct page_digests *p, const char *path, const unsigned long long d[2],
		      const unsigned long long inputs[2], const struct output_file *file)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 1024;
		p->paths = xrealloc(p->paths, p->cap * sizeof *p->paths);
		p->digests = xrealloc(p->digests, p->cap * sizeof *p->digests);
		p->inputs = xrealloc(p->inputs, p->cap * sizeof *p->inputs);
		p->files = xrealloc(p->files, p->cap * sizeof *p->files);
	}
	p->files[p->n] = file ? *file : (struct output_file){0, 0, 0};
	p->paths[p->n] = xstrdup(path);
	p->digests[p->n][0] = d[0];
	p->digests[p->n][1] = d[1];
	p->inputs[p->n][0] = inputs ? inputs[0] : 0;
	p->inputs[p->n][1] = inputs ? inputs[1] : 0;
	p->n++;
}

bool page_digests_inputs_same(const struct page_digests *p, const char *path,
			      const unsigned long long inputs[2], unsigned long long view[2],
			      const struct output_file **file)
{
	size_t i;
	if (!p->index.n || !hash_get(&p->index, path, &i) || (!p->inputs[i][0] && !p->inputs[i][1]) ||
	    p->inputs[i][0] != inputs[0] || p->inputs[i][1] != inputs[1])
		return false;
	view[0] = p->digests[i][0];
	view[1] = p->digests[i][1];
	*file = &p->files[i];
	return true;
}

bool page_digests_same(const struct page_digests *p, const char *path,
		       const unsigned long long d[2], const struct output_file **file)
{
	size_t i;
	if (!p->index.n || !hash_get(&p->index, path, &i) || p->digests[i][0] != d[0] ||
	    p->digests[i][1] != d[1])
		return false;
	*file = &p->files[i];
	return true;
}

/* Each byte's value as a lower-case hex digit; 16 and up: not one. */
static const unsigned char hex_value[256] = {
#define X16 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16
	X16, X16, X16,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 16, 16, 16, 16, 16,
	X16, /* upper case: not written, not read */
	X16,
	16, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	X16, X16, X16, X16, X16, X16, X16, X16, X16,
#undef X16
};

/* 32 hex digits at p (two 64-bit halves); false when they are not there.
 * A table lookup a digit: 90,000 digests a build. */
static bool parse_digest(const char *p, unsigned long long d[2])
{
	const unsigned char *u = (const unsigned char *)p;
	for (int h = 0; h < 2; h++) {
		unsigned long long v = 0;
		for (int k = 0; k < 16; k++) {
			unsigned x = hex_value[u[h * 16 + k]];
			if (x > 15)
				return false; /* and a NUL ends the reading */
			v = v << 4 | x;
		}
		d[h] = v;
	}
	return true;
}

/* The two halves as 32 hex digits (what parse_digest reads). */
static void put_digest(struct buf *b, const unsigned long long d[2])
{
	static const char hex[] = "0123456789abcdef";
	char out[32];
	for (int h = 0; h < 2; h++)
		for (int k = 0; k < 16; k++)
			out[h * 16 + k] = hex[(d[h] >> (60 - 4 * k)) & 15];
	buf_put(b, out, sizeof out);
}

/* The pages' files: "ssg-page-files 1\n", the path_file_id of the
 * .ssg-pages they go with, their count, then each one's device, inode and
 * size in the order of its lines. */
#define FILES_MAGIC "ssg-page-files 1\n"
#define FILES_HEAD (sizeof FILES_MAGIC - 1 + (PATH_FILE_ID_WORDS + 1) * sizeof(unsigned long long))

static void take_files(struct page_digests *p, const char *outdir, const char *note, size_t n)
{
	char *file = path_join(outdir, BUILD_PAGES_FILE);
	struct stat st;
	unsigned long long id[PATH_FILE_ID_WORDS], head[PATH_FILE_ID_WORDS + 1];
	bool ok = note && n >= FILES_HEAD && !memcmp(note, FILES_MAGIC, sizeof FILES_MAGIC - 1) &&
		  lstat(file, &st) == 0;
	free(file);
	if (!ok)
		return;
	path_file_id(&st, id);
	memcpy(head, note + sizeof FILES_MAGIC - 1, sizeof head);
	if (memcmp(head, id, sizeof id) || head[PATH_FILE_ID_WORDS] != p->n ||
	    n - FILES_HEAD != p->n * sizeof *p->files)
		return;
	memcpy(p->files, note + FILES_HEAD, p->n * sizeof *p->files);
}

void page_digests_load(struct page_digests *p, const char *outdir, const char env[33],
		       const char *note, size_t nnote)
{
	struct buf b = BUF_INIT;
	size_t wl = build_state_read_headed(outdir, BUILD_PAGES_FILE, PAGES_MAGIC " ", env, &b);
	if (wl) {
		char *line = b.p + wl, *next;
		for (; *line && (next = strchr(line, '\n')); line = next + 1) {
			*next = '\0';
			unsigned long long d[2], in[2];
			if (parse_digest(line, d) && parse_digest(line + 32, in) && line[64] == ' ')
				page_digests_add(p, line + 65, d, in, NULL);
		}
		for (size_t i = 0; i < p->n; i++)
			hash_put(&p->index, p->paths[i], i);
		take_files(p, outdir, note, nnote);
	}
	buf_free(&b);
}

void page_digests_save(const struct page_digests *p, const char *outdir, const char env[33],
		       struct buf *note)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, PAGES_MAGIC " %s\n", env);
	for (size_t i = 0; i < p->n; i++) {
		put_digest(&b, p->digests[i]);
		put_digest(&b, p->inputs[i]);
		buf_putc(&b, ' ');
		buf_puts(&b, p->paths[i]);
		buf_putc(&b, '\n');
	}
	build_state_save_file(outdir, BUILD_PAGES_FILE, &b);
	buf_free(&b);
	if (!note)
		return;
	char *file = path_join(outdir, BUILD_PAGES_FILE);
	struct stat st;
	if (lstat(file, &st) == 0) {
		unsigned long long head[PATH_FILE_ID_WORDS + 1];
		path_file_id(&st, head);
		head[PATH_FILE_ID_WORDS] = p->n;
		buf_puts(note, FILES_MAGIC);
		buf_put(note, head, sizeof head);
		buf_put(note, p->files, p->n * sizeof *p->files);
	}
	free(file);
}

void page_digests_free(struct page_digests *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->paths[i]);
	free(p->paths);
	free(p->digests);
	free(p->inputs);
	free(p->files);
	hash_free(&p->index);
	memset(p, 0, sizeof *p);
}

/* ---- documents' pages ------------------------------------------------------------ */

#define DOCS_MAGIC "ssg-docs 1"

const char *doc_pages_document(const char *kept_path)
{
	if (strncmp(kept_path, "content/", 8))
		return NULL;
	return source_is_document(kept_path + 8) ? kept_path + 8 : NULL;
}

/* A record whose strings p takes as they are. */
static void add_record(struct doc_pages *p, char *relpath, char *page,
		       const unsigned long long digest[2], long at, long len)
{
	p->v = xgrow(p->v, &p->cap, p->n + 1, sizeof *p->v);
	p->v[p->n] = (struct doc_page_rec){relpath, page, {digest[0], digest[1]}, at, len};
	hash_put(&p->index, relpath, p->n++); /* a later record wins */
}

void doc_pages_add(struct doc_pages *p, const char *relpath, const char *page,
		   const unsigned long long digest[2], long at, long len)
{
	add_record(p, xstrdup(relpath), xstrdup(page), digest, at, len);
}

const struct doc_page_rec *doc_pages_find(const struct doc_pages *p, const char *relpath)
{
	size_t i;
	return p->index.n && hash_get(&p->index, relpath, &i) ? &p->v[i] : NULL;
}

static void put_doc_page(struct buf *b, const struct doc_page_rec *r)
{
	put_digest(b, r->digest);
	/* no printf: 10,000 records a build */
	buf_putc(b, ' ');
	if (r->at < 0)
		buf_putc(b, '-');
	buf_put_uint(b, r->at < 0 ? 0 - (unsigned long)r->at : (unsigned long)r->at);
	buf_putc(b, ' ');
	if (r->len < 0)
		buf_putc(b, '-');
	buf_put_uint(b, r->len < 0 ? 0 - (unsigned long)r->len : (unsigned long)r->len);
	buf_putc(b, ' ');
	put_field(b, r->relpath);
	buf_putc(b, '\t');
	put_field(b, r->page);
	buf_putc(b, '\n');
}

int doc_pages_load(struct doc_pages *p, const char *outdir, const char frame[33])
{
	struct buf b = BUF_INIT;
	size_t wl = build_state_read_headed(outdir, BUILD_DOCS_FILE, DOCS_MAGIC " ", frame, &b);
	if (!wl)
		return -1;
	/* the records' strings are left in b, unescaped in place: 10,000
	 * records, each two copies, took 7 ms of a prose edit's 50 */
	bool in_place = !p->block;
	char *line = b.p + wl, *next;
	for (; *line && (next = strchr(line, '\n')); line = next + 1) {
		*next = '\0';
		unsigned long long d[2];
		char *rest;
		if (!parse_digest(line, d) || line[32] != ' ')
			continue;
		long at = strtol(line + 33, &rest, 10);
		if (*rest != ' ')
			continue;
		long len = strtol(rest + 1, &rest, 10);
		if (*rest != ' ' || len < 0)
			continue;
		rest++;
		char *rel = take_field(&rest), *page = take_field(&rest);
		if (rel && page && in_place)
			add_record(p, rel, page, d, at, len);
		else if (rel && page)
			doc_pages_add(p, rel, page, d, at, len);
	}
	if (in_place) {
		p->nblock = b.n + 1;
		p->block = buf_detach(&b);
	}
	buf_free(&b);
	return 0;
}

void doc_pages_save(const struct doc_pages *p, const char *outdir, const char frame[33])
{
	struct buf b = BUF_INIT;
	buf_printf(&b, DOCS_MAGIC " %s\n", frame);
	for (size_t i = 0; i < p->n; i++)
		put_doc_page(&b, &p->v[i]);
	build_state_save_file(outdir, BUILD_DOCS_FILE, &b);
	buf_free(&b);
}

/* Append b to outdir/name, which must exist (never through a symlink). */
static int append_file(const char *outdir, const char *name, const struct buf *b)
{
	char *file = path_join(outdir, name);
	int fd = open(file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	free(file);
	if (fd < 0)
		return -1;
	size_t off = 0;
	while (off < b->n) {
		ssize_t w = write(fd, b->p + off, b->n - off);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	return close(fd);
}

int doc_pages_append(const char *outdir, const struct doc_page_rec *r, size_t n)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < n; i++)
		put_doc_page(&b, &r[i]);
	int rc = append_file(outdir, BUILD_DOCS_FILE, &b);
	buf_free(&b);
	return rc;
}

/* Whether s lies in the block doc_pages_load read (not its own). */
static bool in_block(const struct doc_pages *p, const char *s)
{
	return p->block && (uintptr_t)s >= (uintptr_t)p->block &&
	       (uintptr_t)s < (uintptr_t)p->block + p->nblock;
}

void doc_pages_free(struct doc_pages *p)
{
	for (size_t i = 0; i < p->n; i++) {
		if (!in_block(p, p->v[i].relpath))
			free(p->v[i].relpath);
		if (!in_block(p, p->v[i].page))
			free(p->v[i].page);
	}
	free(p->v);
	free(p->block);
	hash_free(&p->index);
	memset(p, 0, sizeof *p);
}

int page_digests_forget_some(const char *outdir, const char *const *paths, size_t n)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%064d %s\n", 0, paths[i]);
	int rc = append_file(outdir, BUILD_PAGES_FILE, &b);
	buf_free(&b);
	return rc;
}

/* ---- the data files' records ------------------------------------------------ */

#define JSON_MAGIC "ssg-json 3\n"
#define JSON_HEAD 4 /* words before each file's records: its sum (2, render.h), its size, n */

static const char *const kept_files[NDATA_KEPT] = {"resources.json", "search-index.json"};

/* ---- the data files as the last build left them ----------------------------- */

/* <site>/.ssg-cache/data-seen: "ssg-data-seen 1 <local key>\n", then a line
 * per kept data file of each output folder: its real path, the file's name,
 * and the file as the build that made .ssg-json left it: device, inode,
 * size, mtime and ctime in nanoseconds, and the sum .ssg-json gives it (the
 * digest of its records' keys and places and its size: render.h). A file
 * seen so again is that file (files.bin knows content by its stat the same
 * way: a write changes the ctime, which nothing sets back), whose records
 * lie where .ssg-json says: the build that noted them wrote both, and a later
 * build that kept the file kept its bytes. Any other file's records are made
 * again. Kept out of the site: two builds' sites stay byte for byte the
 * same. */
#define SEEN_DIR ".ssg-cache"
#define SEEN_NAME "data-seen"
#define SEEN_MAGIC "ssg-data-seen 1 "

struct file_seen {
	unsigned long long id[PATH_FILE_ID_WORDS]; /* path_file_id; inode 0: not seen */
	unsigned long long sum[2];
};

/* The lines of the file whose key is right (none: an empty buffer). */
static void seen_read(const char *source_dir, struct buf *b)
{
	char *dir = path_join(source_dir, SEEN_DIR);
	char *file = path_join(dir, SEEN_NAME);
	char head[sizeof SEEN_MAGIC + 34];
	snprintf(head, sizeof head, SEEN_MAGIC "%s\n", local_key());
	size_t hl = strlen(head);
	if (buf_read_file(b, file) || b->n < hl || memcmp(b->p, head, hl))
		b->n = 0;
	else {
		memmove(b->p, b->p + hl, b->n - hl);
		b->n -= hl;
	}
	buf_putc(b, '\0');
	b->n--;
	free(file);
	free(dir);
}

/* The file name of folder as its last line says it was seen. */
static bool seen_find(const char *lines, const char *folder, const char *name,
		      struct file_seen *f)
{
	size_t fl = strlen(folder), nl = strlen(name);
	for (const char *p = lines; *p;) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			break;
		if (!strncmp(p, folder, fl) && p[fl] == '\t' && !strncmp(p + fl + 1, name, nl) &&
		    p[fl + 1 + nl] == '\t')
			return sscanf(p + fl + nl + 2, "%llu %llu %llu %llu %llu %llx %llx", &f->id[0],
				      &f->id[1], &f->id[2], &f->id[3], &f->id[4], &f->sum[0],
				      &f->sum[1]) == 7;
		p = eol + 1;
	}
	return false;
}

/* One file's part of the state: its head and records (in the state's bytes),
 * then, checked against the file in place, its records kept. */
struct section_load {
	struct json_records *r;
	const char *outdir, *name;
	struct file_seen seen; /* as the last build left it (ino 0: unknown) */
	unsigned long long head[JSON_HEAD];
	const char *records;
	bool ok;
};

/* The part at *at of the state's n bytes (moved past it); L->ok when it is
 * whole. */
static void parse_section(struct section_load *L, const char *bytes, size_t n, size_t *at)
{
	L->ok = false;
	if (n - *at < sizeof L->head) {
		*at = n;
		return;
	}
	memcpy(L->head, bytes + *at, sizeof L->head);
	*at += sizeof L->head;
	if (L->head[3] > (n - *at) / sizeof *L->r->v) {
		*at = n;
		return;
	}
	L->records = bytes + *at;
	*at += L->head[3] * sizeof *L->r->v;
	L->ok = true;
}

/* The records of one part, kept when they are of the file in place (known
 * by its stat, or by its digest). */
static void verify_section(struct section_load *L)
{
	struct json_records *r = L->r;
	if (!L->ok)
		return;
	char *path = path_join(L->outdir, L->name);
	struct stat st;
	void *map = path_map_regular_at(AT_FDCWD, path, (size_t)-1, &st);
	free(path);
	if (!map)
		return;
	if (L->head[2] != (unsigned long long)st.st_size) {
		munmap(map, (size_t)st.st_size);
		return;
	}
	r->bytes = map;
	r->nbytes = (size_t)st.st_size;
	/* every record is read from it, most of them copied out: present at
	 * once (55 MB of resources.json at 10,000 documents: 1,100 faults) */
	map_warm(map, r->nbytes);
	r->dev = (unsigned long long)st.st_dev;
	r->ino = (unsigned long long)st.st_ino;
	/* the bytes the records point into, not a file changed since: the
	 * very file the build that noted them left (a file copied, moved or
	 * written since is another: its records are made again, once) */
	unsigned long long now[PATH_FILE_ID_WORDS];
	path_file_id(&st, now);
	if (!L->seen.id[1] || memcmp(L->seen.id, now, sizeof now) ||
	    L->seen.sum[0] != L->head[0] || L->seen.sum[1] != L->head[1]) {
		json_records_free(r);
		return;
	}
	r->n = L->head[3];
	r->v = xmalloc((r->n + 1) * sizeof *r->v);
	memcpy(r->v, L->records, r->n * sizeof *r->v);
	/* found by key: open addressing on its first word (a digest's: spread) */
	r->nslots = 16;
	while (r->nslots < 2 * r->n)
		r->nslots *= 2;
	r->slots = xcalloc(r->nslots, sizeof *r->slots);
	size_t mask = r->nslots - 1;
	for (size_t k = 0; k < r->n; k++) {
		size_t h = r->v[k].key[0] & mask;
		while (r->slots[h] && digest_cmp(r->v[r->slots[h] - 1].key, r->v[k].key))
			h = (h + 1) & mask;
		if (!r->slots[h]) /* the first of a key wins */
			r->slots[h] = k + 1;
	}
}

void json_records_load(struct json_records r[NDATA_KEPT], const char *outdir,
		       const char *source_dir)
{
	memset(r, 0, NDATA_KEPT * sizeof *r);
	struct buf seen = BUF_INIT;
	char *file = path_join(outdir, BUILD_JSON_FILE);
	char *folder = realpath(outdir, NULL);
	size_t ml = strlen(JSON_MAGIC);
	/* mapped, not read: its records are copied once, into their block */
	struct stat st;
	const char *state = path_map_regular_at(AT_FDCWD, file, (size_t)1 << 30, &st);
	size_t n = state ? (size_t)st.st_size : 0;
	if (state && n >= ml && !memcmp(state, JSON_MAGIC, ml)) {
		map_warm(state, n);
		if (folder)
			seen_read(source_dir, &seen);
		struct section_load loads[NDATA_KEPT];
		size_t at = ml;
		for (size_t i = 0; i < NDATA_KEPT; i++) {
			loads[i] = (struct section_load){.r = &r[i], .outdir = outdir,
							 .name = kept_files[i]};
			if (folder && seen.n &&
			    !seen_find(buf_cstr(&seen), folder, kept_files[i], &loads[i].seen))
				memset(&loads[i].seen, 0, sizeof loads[i].seen);
			parse_section(&loads[i], state, n, &at);
		}
		for (size_t i = 0; i < NDATA_KEPT; i++)
			verify_section(&loads[i]);
	}
	if (state)
		munmap((void *)state, n);
	free(folder);
	free(file);
	buf_free(&seen);
}

/* Each kept data file of outdir as it is now, for the next build (the other
 * output folders' lines kept). */
static void seen_save(const struct json_reuse made[NDATA_KEPT], const char *outdir,
		      const char *source_dir)
{
	char *folder = realpath(outdir, NULL);
	if (!folder || strpbrk(folder, "\t\n")) {
		free(folder);
		return;
	}
	struct buf old = BUF_INIT, b = BUF_INIT;
	seen_read(source_dir, &old);
	buf_printf(&b, SEEN_MAGIC "%s\n", local_key());
	size_t fl = strlen(folder);
	for (const char *p = buf_cstr(&old); *p;) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			break;
		if (strncmp(p, folder, fl) || p[fl] != '\t')
			buf_put(&b, p, (size_t)(eol + 1 - p));
		p = eol + 1;
	}
	for (size_t i = 0; i < NDATA_KEPT; i++) {
		char *path = path_join(outdir, kept_files[i]);
		struct stat st;
		unsigned long long id[PATH_FILE_ID_WORDS];
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			path_file_id(&st, id);
			buf_printf(&b, "%s\t%s\t%llu %llu %llu %llu %llu %llx %llx\n", folder,
				   kept_files[i], id[0], id[1], id[2], id[3], id[4], made[i].sum[0],
				   made[i].sum[1]);
		}
		free(path);
	}
	int dfd = path_open_subdir(source_dir, SEEN_DIR, true);
	if (dfd >= 0) {
		/* a cache: unwritten, the next build makes the records again */
		path_replace_at(dfd, SEEN_NAME, b.p, b.n);
		close(dfd);
	}
	buf_free(&old);
	buf_free(&b);
	free(folder);
}

void json_records_save(const struct json_reuse made[NDATA_KEPT], const size_t n[NDATA_KEPT],
		       const size_t size[NDATA_KEPT], const char *outdir, const char *source_dir)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, JSON_MAGIC);
	for (size_t i = 0; i < NDATA_KEPT; i++) {
		const struct json_record *v = made[i].now;
		size_t count = size[i] && v ? n[i] : 0;
		unsigned long long head[JSON_HEAD] = {made[i].sum[0], made[i].sum[1], size[i], count};
		buf_put(&b, head, sizeof head);
		buf_put(&b, v, count * sizeof *v);
	}
	build_state_save_file(outdir, BUILD_JSON_FILE, &b);
	buf_free(&b);
	seen_save(made, outdir, source_dir);
}

void json_records_free(struct json_records *r)
{
	if (r->bytes)
		munmap(r->bytes, r->nbytes);
	free(r->v);
	free(r->slots);
	memset(r, 0, sizeof *r);
}
