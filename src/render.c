/* render: template lookup and the machine-readable outputs (see render.h). */
#include "render.h"
#include "buf_pool.h"
#include "digest.h"
#include "embedded.h"
#include "hash.h"
#include "html.h"
#include "path.h"
#include "pool.h"
#include "value.h"
#include "xalloc.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A file of the site's templates/ or themes/, read only when it lies inside
 * the site: a symlink (a pull request can commit one) to a file elsewhere,
 * say a key or /proc/self/environ, would be published as a page or an
 * asset. Refused, it is as if missing: the next in the lookup order is used. */
static char *read_file(const struct template_source *ts, const char *path, size_t *len)
{
	struct stat st;
	if (lstat(path, &st))
		return NULL;
	if (!path_inside(ts->boundary ? ts->boundary : ts->source_dir, path)) {
		static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
		pthread_mutex_lock(&lock);
		size_t n = strlen(ts->source_dir);
		const char *shown = !strncmp(path, ts->source_dir, n) && path[n] == '/' ? path + n + 1
											: path;
		if (ts->d)
			diag_addc(ts->d, SEV_WARNING, "symlink-outside", shown, 0, 0,
				  "resolves outside the site's repository: ignored");
		pthread_mutex_unlock(&lock);
		return NULL;
	}
	struct buf b = BUF_INIT;
	if (buf_read_file(&b, path)) {
		buf_free(&b);
		return NULL;
	}
	*len = b.n;
	return buf_detach(&b);
}

static const struct embedded_file *embedded(const char *rel)
{
	for (unsigned long i = 0; i < embedded_theme_count; i++)
		if (!strcmp(embedded_theme[i].path, rel))
			return &embedded_theme[i];
	return NULL;
}

static char *load_template(void *ud, const char *name, size_t *len)
{
	const struct template_source *ts = ud;
	if (!path_is_safe_rel(name))
		return NULL;
	char *paths[2] = {
		xasprintf("%s/templates/%s.mustache", ts->source_dir, name),
		xasprintf("%s/themes/%s/templates/%s.mustache", ts->source_dir, ts->theme, name),
	};
	char *text = NULL;
	for (int i = 0; i < 2 && !text; i++)
		text = read_file(ts, paths[i], len);
	free(paths[0]);
	free(paths[1]);
	if (text)
		return text;
	char *rel = xasprintf("templates/%s.mustache", name);
	const struct embedded_file *e = embedded(rel);
	free(rel);
	if (!e)
		return NULL;
	*len = e->len;
	return xstrndup((const char *)e->data, e->len);
}

struct mustache_set *render_templates(struct template_source *ts)
{
	return mustache_set_new(load_template, ts);
}

static void add_path(char ***paths, size_t *n, const char *rel)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*paths)[i], rel))
			return;
	*paths = xrealloc(*paths, (*n + 1) * sizeof **paths);
	(*paths)[(*n)++] = xstrdup(rel);
}

static void walk_static(const char *root, const char *rel, char ***paths, size_t *n, int depth)
{
	char *dir = *rel ? path_join(root, rel) : xstrdup(root);
	DIR *dh = opendir(dir);
	if (dh) {
		struct dirent *e;
		while ((e = readdir(dh))) {
			if (e->d_name[0] == '.')
				continue;
			char *crel = *rel ? path_join(rel, e->d_name) : xstrdup(e->d_name);
			char *full = path_join(root, crel);
			struct stat st;
			if (lstat(full, &st) == 0) {
				if (S_ISDIR(st.st_mode) && depth < 8)
					walk_static(root, crel, paths, n, depth + 1);
				else if (S_ISREG(st.st_mode))
					add_path(paths, n, crel);
			}
			free(full);
			free(crel);
		}
		closedir(dh);
	}
	free(dir);
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t render_theme_static(const struct template_source *ts, char ***paths)
{
	size_t n = 0;
	*paths = NULL;
	char *root = xasprintf("%s/themes/%s/static", ts->source_dir, ts->theme);
	walk_static(root, "", paths, &n, 0);
	free(root);
	for (unsigned long i = 0; i < embedded_theme_count; i++)
		if (!strncmp(embedded_theme[i].path, "static/", 7))
			add_path(paths, &n, embedded_theme[i].path + 7);
	if (n > 1)
		qsort(*paths, n, sizeof **paths, cmp_strp);
	return n;
}

int render_theme_file(const struct template_source *ts, const char *rel, struct buf *out)
{
	char *full = xasprintf("%s/themes/%s/static/%s", ts->source_dir, ts->theme, rel);
	size_t len;
	char *text = read_file(ts, full, &len);
	free(full);
	if (text) {
		buf_put(out, text, len);
		free(text);
		return 0;
	}
	char *erel = xasprintf("static/%s", rel);
	const struct embedded_file *e = embedded(erel);
	free(erel);
	if (!e)
		return -1;
	buf_put(out, e->data, e->len);
	return 0;
}

/* ---- machine-readable outputs ----------------------------------------------- */

static void buf_puts_json_safe(struct buf *out, const char *v)
{
	buf_put_json(out, v, strlen(v));
}

/* (inline: its keys are literals, their lengths known where written; a
 * million of these make resources.json at 10,000 documents) */
static inline void json_str(struct buf *out, const char *key, const char *v)
{
	buf_putc(out, '"');
	buf_put(out, key, strlen(key));
	buf_put(out, "\":", 2);
	if (!v) {
		buf_put(out, "null", 4);
		return;
	}
	buf_putc(out, '"');
	buf_put_json(out, v, strlen(v));
	buf_putc(out, '"');
}

/* Written straight into the buffer, a resource per line: no value tree of a
 * quarter of a million citations in memory. Schema: docs/resources.schema.json
 * (copied to assets/). */
static void json_strlist_item(struct buf *out, bool first, const char *v)
{
	buf_puts(out, first ? "\"" : ",\"");
	buf_puts_json_safe(out, v);
	buf_putc(out, '"');
}

static int cmp_strp_bsearch(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

/* ---- a data file as it is made: rendered pieces and kept ones ------------- */

/* One piece of the file: rendered (at in the writer's buffer) or kept (at in
 * the file in place). */
struct piece {
	bool kept;
	size_t at, len;
};

/* The bytes a writer renders go to buf; the file is its pieces, in order. */
struct data_writer {
	struct buf buf;
	struct piece *v;
	size_t n, cap;
	size_t pos;      /* the file's bytes up to the end of the last piece */
	size_t mark;     /* buf.n at the end of the last rendered piece */
	const char *old; /* the file in place, when records are kept from it */
	size_t nold;
};

static void dw_piece(struct data_writer *w, bool kept, size_t at, size_t len)
{
	if (!len)
		return;
	w->pos += len;
	if (w->n) {
		struct piece *l = &w->v[w->n - 1];
		if (l->kept == kept && l->at + l->len == at) {
			l->len += len;
			return;
		}
	}
	w->v = xgrow(w->v, &w->cap, w->n + 1, sizeof *w->v);
	w->v[w->n++] = (struct piece){kept, at, len};
}

/* The bytes rendered since the last piece become one. */
static void dw_flush(struct data_writer *w)
{
	dw_piece(w, false, w->mark, w->buf.n - w->mark);
	w->mark = w->buf.n;
}

/* Where the writer's next byte lands, counted from its first. */
static size_t dw_at(const struct data_writer *w)
{
	return w->pos + (w->buf.n - w->mark);
}

/* len bytes of the file in place, at p, as they are. */
static void dw_keep(struct data_writer *w, const char *p, size_t len)
{
	dw_flush(w);
	dw_piece(w, true, (size_t)(p - w->old), len);
}

/* A separator between records: taken from the file in place when the last
 * piece was kept and the same separator follows it there (so that a run of
 * kept records stays one piece), else rendered. */
static void dw_sep(struct data_writer *w, const char *sep)
{
	size_t n = strlen(sep);
	if (w->buf.n == w->mark && w->n && w->v[w->n - 1].kept) {
		struct piece *l = &w->v[w->n - 1];
		size_t end = l->at + l->len;
		if (end <= w->nold && n <= w->nold - end && !memcmp(w->old + end, sep, n)) {
			l->len += n;
			w->pos += n;
			return;
		}
	}
	buf_puts(&w->buf, sep);
}

/* One data file as it is made (render.h): its writers, handed to the sink
 * in order. */
struct data_file {
	const struct data_sink *sink;
	struct json_reuse *reuse;
	struct data_writer *w;
	size_t nw;
	const size_t *first;         /* writer i holds records first[i] to first[i + 1] */
	size_t bytes;                /* handed to the sink so far */
	pthread_mutex_t lock;        /* a writer done before those ahead of it waits */
	bool *done;
	size_t next;                 /* the writer handed over next */
	size_t start;                /* where it starts in the file */
	struct buf_pool bufs;        /* the buffers of writers handed over, for the
				      * writers after them (grown once, not each
				      * from 64 bytes to a chunk's megabytes) */
};

static void data_file_begin(struct data_file *f, const struct data_sink *sink,
			    struct json_reuse *ru, size_t n, const size_t *first)
{
	memset(f, 0, sizeof *f);
	f->sink = sink;
	f->reuse = ru;
	f->first = first;
	f->w = xcalloc(n + 1, sizeof *f->w);
	f->nw = n;
	for (size_t i = 0; i < n; i++) {
		f->w[i].old = ru ? ru->bytes : NULL;
		f->w[i].nold = ru ? ru->nbytes : 0;
	}
	f->done = xcalloc(n + 1, sizeof *f->done);
	pthread_mutex_init(&f->lock, NULL);
	buf_pool_init(&f->bufs);
}

/* A writer about to render: a buffer an earlier writer grew, when one is
 * free. */
static void dw_start(struct data_file *f, struct data_writer *w)
{
	if (!w->buf.cap)
		w->buf = buf_pool_take(&f->bufs);
}

/* The file's size; reuse's sum is the digest of its records (their keys and
 * places) and its size (render.h). */
static size_t data_file_end(struct data_file *f)
{
	if (f->reuse) {
		struct digest d;
		digest_start(&d);
		digest_word(&d, f->bytes);
		size_t n = f->first[f->nw];
		digest_word(&d, n);
		for (size_t k = 0; k < n; k++) {
			const struct json_record *r = &f->reuse->now[k];
			digest_word(&d, r->key[0]);
			digest_word(&d, r->key[1]);
			digest_word(&d, r->at);
			digest_word(&d, r->len);
		}
		digest_end(&d, f->reuse->sum);
	}
	for (size_t i = 0; i < f->nw; i++) {
		buf_free(&f->w[i].buf);
		free(f->w[i].v);
	}
	free(f->w);
	free(f->done);
	pthread_mutex_destroy(&f->lock);
	buf_pool_free(&f->bufs);
	return f->bytes;
}

/* The writer's pieces so far, to the sink (writer f->next only); its buffer
 * is then empty again, its place in the file (pos) goes on. */
static void dw_emit(struct data_file *f, struct data_writer *w)
{
	dw_flush(w);
	for (size_t i = 0; i < w->n; i++) {
		const char *p = (w->v[i].kept ? w->old : w->buf.p) + w->v[i].at;
		f->bytes += w->v[i].len;
		f->sink->put(f->sink->ctx, p, w->v[i].len);
	}
	w->n = 0;
	w->mark = 0;
	buf_reset(&w->buf);
}

/* Writer i is done: it, and each done one after it, go to the sink in
 * order, their records' places moved by where they start in the file. */
static void dw_done(struct data_file *f, size_t i)
{
	pthread_mutex_lock(&f->lock);
	f->done[i] = true;
	while (f->next < f->nw && f->done[f->next]) {
		struct data_writer *w = &f->w[f->next];
		if (f->reuse)
			for (size_t k = f->first[f->next]; k < f->first[f->next + 1]; k++)
				f->reuse->now[k].at += f->start;
		dw_emit(f, w);
		buf_pool_give(&f->bufs, &w->buf);
		free(w->v);
		w->v = NULL;
		w->cap = 0;
		f->next++;
		f->start = f->bytes;
	}
	pthread_mutex_unlock(&f->lock);
}

/* resources.json's resources, JSON_CHUNK at a time. */
#define JSON_CHUNK 2048
struct json_chunks {
	const struct site *s;
	struct data_file *f;
	struct data_writer *w; /* per chunk (the file's writers from the second on) */
	size_t n;
	struct json_reuse *reuse;
	size_t *reused, *differ; /* per chunk */
};

/* Record k's key in the file in place: where the last build put record k,
 * most often, else found by the key. */
static const struct json_record *find_before(const struct json_reuse *ru, size_t k,
					     const unsigned long long key[2])
{
	if (k < ru->nbefore && !digest_cmp(ru->before[k].key, key))
		return &ru->before[k];
	if (!ru->nslots)
		return NULL;
	size_t mask = ru->nslots - 1;
	for (size_t h = key[0] & mask;; h = (h + 1) & mask) {
		size_t v = ru->slots[h];
		if (!v || v > ru->nbefore)
			return NULL;
		if (!digest_cmp(ru->before[v - 1].key, key))
			return &ru->before[v - 1];
	}
}

/* Record k of the file in place with this key, if it looks like one (from
 * open to close: '{' '}' in resources.json, '[' ']' in the index). */
static const char *record_before(const struct json_reuse *ru, size_t k,
				 const unsigned long long key[2], size_t *len, char open,
				 char close)
{
	const struct json_record *r = find_before(ru, k, key);
	if (!r || r->len < 2 || r->at > ru->nbytes || r->len > ru->nbytes - r->at)
		return NULL;
	const char *p = ru->bytes + r->at;
	if (p[0] != open || p[r->len - 1] != close)
		return NULL;
	*len = r->len;
	return p;
}

typedef void (*record_fn)(const struct site *s, size_t i, struct buf *out);

/* Record k of a file (item i of the site): the file in place's bytes when its
 * key is the same, else rendered (both, compared, when checking); its place
 * in the writer's bytes is noted in ru->now[k]. reused and differ count. */
static void put_record_kept(struct data_writer *w, struct json_reuse *ru, size_t k,
			    const struct site *s, size_t i, record_fn render, const char oc[2],
			    size_t *reused, size_t *differ)
{
	size_t at = dw_at(w), len = 0;
	const char *kept = ru ? record_before(ru, k, ru->keys[k], &len, oc[0], oc[1]) : NULL;
	if (kept && !ru->check) {
		dw_keep(w, kept, len);
		++*reused;
	} else {
		size_t from = w->buf.n;
		render(s, i, &w->buf);
		if (kept) {
			++*reused;
			*differ += w->buf.n - from != len || memcmp(w->buf.p + from, kept, len);
		}
	}
	if (ru) {
		memcpy(ru->now[k].key, ru->keys[k], sizeof ru->now[k].key);
		ru->now[k].at = at;
		ru->now[k].len = dw_at(w) - at;
	}
}

static void resource_record(const struct site *s, size_t ri, struct buf *out);

/* How many of a resource's citations are asked for ahead of its record. */
#define RECORD_AHEAD_REFS 16

static void resources_chunk(void *ctx, size_t ci)
{
	struct json_chunks *jc = ctx;
	const struct site *s = jc->s;
	struct data_writer *w = &jc->w[ci];
	dw_start(jc->f, w);
	size_t end = (ci + 1) * JSON_CHUNK < s->nres ? (ci + 1) * JSON_CHUNK : s->nres;
	/* every record rendered (no file in place): their memory asked for ahead */
	bool ahead = !jc->reuse || !jc->reuse->nbefore;
	for (size_t i = ci * JSON_CHUNK; i < end; i++) {
		/* the records ahead, one stage further the further ahead they are */
		for (int stage = 0; ahead && stage < MODEL_REF_STAGES; stage++) {
			size_t k = i + MODEL_REF_STAGES - (size_t)stage;
			if (k >= end)
				continue;
			const struct resource *r = &s->res[k];
			model_prefetch_refs(s, r->refs,
					    r->nrefs < RECORD_AHEAD_REFS ? r->nrefs : RECORD_AHEAD_REFS,
					    stage);
			if (stage == 1) {
				__builtin_prefetch(r->canonical);
				__builtin_prefetch(r->title);
				__builtin_prefetch(r->desc);
			}
		}
		put_record_kept(w, jc->reuse, i, s, i, resource_record, "{}", &jc->reused[ci],
				&jc->differ[ci]);
		dw_sep(w, i + 1 < s->nres ? ",\n" : "\n");
	}
	dw_done(jc->f, ci + 1);
}

/* One resource's record, from '{' to '}'. */
static void resource_record(const struct site *s, size_t ri, struct buf *out)
{
	const struct resource *r = &s->res[ri];
	buf_putc(out, '{');
	json_str(out, "url", r->canonical);
	buf_putc(out, ',');
	json_str(out, "slug", r->slug);
	buf_putc(out, ',');
	json_str(out, "title", r->title);
	buf_puts(out, ",\"titles\":[");
	/* each distinct title once, in order: compared when a few, else hashed */
	struct hash seen = HASH_INIT;
	for (size_t k = 0; k < r->nrefs; k++) {
		/* resources_chunk asked for the first few; a long record asks on */
		if (r->nrefs > RECORD_AHEAD_REFS)
			model_prefetch_refs_ahead(s, r->refs, r->nrefs, k);
		const char *t = s->docs[r->refs[k].doc].cites[r->refs[k].cite].title;
		bool dup = false;
		if (r->nrefs <= 16)
			for (size_t m = 0; m < k && !dup; m++)
				dup = !strcmp(s->docs[r->refs[m].doc].cites[r->refs[m].cite].title, t);
		else if (!(dup = hash_get(&seen, t, NULL)))
			hash_put(&seen, t, 0);
		if (!dup)
			json_strlist_item(out, k == 0, t);
	}
	hash_free(&seen);
	buf_puts(out, "],");
	json_str(out, "description", r->desc);
	buf_putc(out, ',');
	json_str(out, "kind", r->kind >= 0 ? s->cfg.kinds[r->kind].id : NULL);
	buf_puts(out, ",\"topics\":[");
	for (size_t k = 0; k < r->ntopics; k++)
		json_strlist_item(out, k == 0, s->topics[r->topics[k]].id);
	buf_puts(out, "],\"urls\":[");
	model_spellings(s, r);
	for (size_t k = 0; k < r->nspellings; k++)
		json_strlist_item(out, k == 0, r->spellings[k]);
	buf_puts(out, "],\"citations\":[");
	for (size_t k = 0; k < r->nrefs; k++) {
		const struct doc *d = &s->docs[r->refs[k].doc];
		const struct citation *c = &d->cites[r->refs[k].cite];
		char **sp = bsearch(c->url, r->spellings, r->nspellings, sizeof *r->spellings,
				    cmp_strp_bsearch);
		buf_puts(out, k ? ",{" : "{");
		json_str(out, "document", d->relpath);
		buf_putc(out, ',');
		json_str(out, "section", c->heading >= 0 ? d->headings[c->heading].id : NULL);
		buf_puts(out, ",\"line\":");
		buf_put_uint(out, c->line > 0 ? (unsigned)c->line : 0);
		buf_puts(out, ",\"spelling\":");
		buf_put_uint(out, sp ? (size_t)(sp - r->spellings) : 0);
		buf_putc(out, '}');
	}
	buf_puts(out, "]}");
}

size_t render_resources_json(const struct site *s, const struct data_sink *sink,
			     struct json_reuse *reuse)
{
	/* writers: the documents, the resources in chunks on the site's
	 * threads, the end; writer i holds records first[i] to first[i + 1] */
	size_t nchunks = (s->nres + JSON_CHUNK - 1) / JSON_CHUNK;
	size_t *first = xcalloc(nchunks + 3, sizeof *first);
	for (size_t i = 0; i < nchunks; i++)
		first[i + 1] = i * JSON_CHUNK;
	first[nchunks + 1] = first[nchunks + 2] = s->nres;
	struct data_file f;
	data_file_begin(&f, sink, reuse, nchunks + 2, first);
	struct buf *out = &f.w[0].buf;
	buf_puts(out, "{");
	json_str(out, "$schema", "assets/resources.schema.json");
	buf_putc(out, ',');
	json_str(out, "site", s->cfg.title);
	/* documents once; citations name them by path */
	buf_puts(out, ",\"documents\":[\n");
	for (size_t i = 0; i < s->ndocs; i++) {
		buf_putc(out, '{');
		json_str(out, "path", s->docs[i].relpath);
		buf_putc(out, ',');
		json_str(out, "page", s->docs[i].url);
		buf_putc(out, ',');
		json_str(out, "title", s->docs[i].title);
		buf_puts(out, i + 1 < s->ndocs ? "},\n" : "}\n");
	}
	buf_puts(out, "],\"resources\":[\n");
	dw_done(&f, 0);
	struct json_chunks jc = {s, &f, f.w + 1, nchunks, reuse, NULL, NULL};
	jc.reused = xcalloc(nchunks + 1, sizeof *jc.reused);
	jc.differ = xcalloc(nchunks + 1, sizeof *jc.differ);
	pool_run(s->jobs, nchunks, resources_chunk, &jc);
	buf_puts(&f.w[nchunks + 1].buf, "]}\n");
	dw_done(&f, nchunks + 1);
	for (size_t i = 0; reuse && i < nchunks; i++) {
		reuse->reused += jc.reused[i];
		reuse->differ += jc.differ[i];
	}
	free(jc.reused);
	free(jc.differ);
	size_t bytes = data_file_end(&f);
	free(first);
	return bytes;
}

/* One search entry: ["kind","title","url","extra"], written straight out,
 * on a line of its own: the index's records parts (search_shards.c) are cut
 * from its lines. */
static void search_entry(struct buf *out, bool *first, const char *kind, const char *title,
			 const char *url_a, const char *url_b, const char *extra)
{
	buf_puts(out, *first ? "[\"" : ",\n[\"");
	*first = false;
	buf_puts(out, kind);
	buf_puts(out, "\",\"");
	buf_puts_json_safe(out, title);
	buf_puts(out, "\",\"");
	buf_puts_json_safe(out, url_a);
	if (url_b)
		buf_puts_json_safe(out, url_b);
	buf_puts(out, "\",\"");
	buf_puts_json_safe(out, extra);
	buf_puts(out, "\"]");
}

/* A document's entry and its sections' (record i of the index). */
static void search_doc(const struct site *s, size_t i, struct buf *out)
{
	const struct doc *d = &s->docs[i];
	bool first = true;
	search_entry(out, &first, "d", d->title, d->url, NULL, d->description ? d->description : "");
	for (size_t h = 0; h < d->nheadings; h++) {
		char *anchor = xconcat("#", d->headings[h].id, NULL);
		search_entry(out, &first, "s", d->headings[h].text, d->url, anchor, d->title);
		free(anchor);
	}
}

/* A resource's entry (record ndocs + i). */
static void search_resource(const struct site *s, size_t i, struct buf *out)
{
	const struct resource *r = &s->res[i];
	char *url = html_resource_url(r);
	/* extra: what else a reader may type to find it */
	char *extra = xconcat(r->host, " ", r->kind >= 0 ? s->cfg.kinds[r->kind].title : "", " ",
			      r->desc ? r->desc : "", NULL);
	bool first = true;
	search_entry(out, &first, "r", r->title, url, NULL, extra);
	free(extra);
	free(url);
}

/* The search index's bytes go out 128 kB or so at a time. */
#define SEARCH_DRAIN (128u << 10)

size_t render_search_index(const struct site *s, const struct data_sink *sink,
			   struct json_reuse *reuse)
{
	/* compact: [kind, title, url relative to root, extra text] */
	size_t reused = 0, differ = 0;
	size_t firsts[2] = {0, s->ndocs + s->nres};
	struct data_file f;
	data_file_begin(&f, sink, reuse, 1, firsts);
	struct data_writer *w = &f.w[0];
	buf_putc(&w->buf, '[');
	for (size_t i = 0; i < s->ndocs; i++) {
		if (i)
			dw_sep(w, ",\n");
		put_record_kept(w, reuse, i, s, i, search_doc, "[]", &reused, &differ);
		if (w->buf.n > SEARCH_DRAIN)
			dw_emit(&f, w);
	}
	bool first = !s->ndocs;
	for (size_t i = 0; i < s->ntopics; i++) {
		if (!s->topics[i].nresources)
			continue;
		char *url = xasprintf("topic/%s/", s->topics[i].id);
		search_entry(&w->buf, &first, "t", s->topics[i].title, url, NULL,
			     s->topics[i].description);
		free(url);
	}
	/* the resources by title: a query's best hits, which often begin
	 * alike, then lie in few of the index's records parts (search_shards.h) */
	for (size_t j = 0; j < s->nres; j++) {
		size_t i = s->title_order[j];
		if (!first)
			dw_sep(w, ",\n");
		first = false;
		put_record_kept(w, reuse, s->ndocs + i, s, i, search_resource, "[]", &reused,
				&differ);
		if (w->buf.n > SEARCH_DRAIN)
			dw_emit(&f, w);
	}
	buf_puts(&w->buf, "]\n");
	dw_done(&f, 0);
	if (reuse) {
		reuse->reused += reused;
		reuse->differ += differ;
	}
	return data_file_end(&f);
}

static char *abs_base(const struct site *s)
{
	const char *bu = s->cfg.base_url;
	size_t n = strlen(bu);
	return xasprintf("%s%s", bu, n && bu[n - 1] == '/' ? "" : "/");
}

static void sitemap_url(struct buf *out, const char *base, const char *path, const char *lastmod)
{
	buf_puts(out, "  <url><loc>");
	buf_puts_html(out, base);
	buf_puts_html(out, path);
	buf_puts(out, "</loc>");
	if (lastmod) {
		buf_puts(out, "<lastmod>");
		buf_puts_html(out, lastmod);
		buf_puts(out, "</lastmod>");
	}
	buf_puts(out, "</url>\n");
}

void render_sitemap(const struct site *s, struct buf *out)
{
	char *base = abs_base(s);
	buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
	sitemap_url(out, base, "", NULL);
	for (size_t i = 0; i < s->ndocs; i++)
		sitemap_url(out, base, s->docs[i].url, s->docs[i].meta.updated);
	for (size_t i = 0; i < s->ntopics; i++)
		if (s->topics[i].nresources) {
			char *p = xasprintf("topic/%s/", s->topics[i].id);
			sitemap_url(out, base, p, NULL);
			free(p);
		}
	sitemap_url(out, base, "resources/", NULL);
	sitemap_url(out, base, "topics/", NULL);
	sitemap_url(out, base, "quick-reference/", NULL);
	for (size_t i = 0; i < s->nres; i++)
		if (s->res[i].has_page) {
			char *p = html_resource_url(&s->res[i]);
			sitemap_url(out, base, p, NULL);
			free(p);
		}
	buf_puts(out, "</urlset>\n");
	free(base);
}

void render_robots(const struct site *s, struct buf *out)
{
	char *base = abs_base(s);
	buf_puts(out, "User-agent: *\nAllow: /\n");
	if (!strncmp(base, "http", 4))
		buf_printf(out, "Sitemap: %ssitemap.xml\n", base);
	free(base);
}

static const char *doc_date(const struct doc *d)
{
	return d->meta.updated ? d->meta.updated : d->meta.date ? d->meta.date : "";
}

static int cmp_doc_date(const void *a, const void *b, void *ctx)
{
	const struct site *s = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(doc_date(&s->docs[y]), doc_date(&s->docs[x]));
	return c ? c : (x < y ? -1 : x > y);
}

void render_feed(const struct site *s, struct buf *out)
{
	char *base = abs_base(s);
	/* deterministic: the newest date any document gives, never the clock */
	const char *newest = "1970-01-01";
	for (size_t i = 0; i < s->ndocs; i++) {
		const char *d = s->docs[i].meta.updated ? s->docs[i].meta.updated : s->docs[i].meta.date;
		if (d && strcmp(d, newest) > 0)
			newest = d;
	}
	buf_puts(out, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
		      "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>");
	buf_puts_html(out, s->cfg.title);
	buf_puts(out, "</title>\n");
	if (*s->cfg.description) {
		buf_puts(out, "  <subtitle>");
		buf_puts_html(out, s->cfg.description);
		buf_puts(out, "</subtitle>\n");
	}
	/* Atom wants an author on the feed or on every entry */
	buf_puts(out, "  <author><name>");
	buf_puts_html(out, *s->cfg.author ? s->cfg.author : s->cfg.title);
	buf_puts(out, "</name></author>\n  <id>");
	buf_puts_html(out, base);
	buf_puts(out, "</id>\n  <link rel=\"alternate\" type=\"text/html\" href=\"");
	buf_puts_html(out, base);
	buf_puts(out, "\"/>\n  <link rel=\"self\" type=\"application/atom+xml\" href=\"");
	buf_puts_html(out, base);
	buf_printf(out, "feed.xml\"/>\n  <updated>%sT00:00:00Z</updated>\n", newest);
	/* the newest documents first, at most RENDER_FEED_MAX: a feed readers poll
	 * stays small however large the site grows */
	size_t *order = xcalloc(s->ndocs + 1, sizeof *order);
	for (size_t i = 0; i < s->ndocs; i++)
		order[i] = i;
	qsort_r(order, s->ndocs, sizeof *order, cmp_doc_date, (void *)s);
	size_t nfeed = s->ndocs < RENDER_FEED_MAX ? s->ndocs : RENDER_FEED_MAX;
	for (size_t k = 0; k < nfeed; k++) {
		const struct doc *d = &s->docs[order[k]];
		const char *date = d->meta.updated ? d->meta.updated : d->meta.date ? d->meta.date : newest;
		buf_puts(out, "  <entry>\n    <title>");
		buf_puts_html(out, d->title);
		buf_puts(out, "</title>\n    <id>");
		buf_puts_html(out, base);
		buf_puts_html(out, d->url);
		buf_puts(out, "</id>\n    <link href=\"");
		buf_puts_html(out, base);
		buf_puts_html(out, d->url);
		buf_printf(out, "\"/>\n    <updated>%sT00:00:00Z</updated>\n", date);
		if (d->description) {
			buf_puts(out, "    <summary>");
			buf_puts_html(out, d->description);
			buf_puts(out, "</summary>\n");
		}
		buf_puts(out, "  </entry>\n");
	}
	free(order);
	buf_puts(out, "</feed>\n");
	free(base);
}
