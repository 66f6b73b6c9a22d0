/* build_descs: an edit of entries' descriptions patched into the pages that
 * show them, from the model (see build_descs.h). */
#include "build_descs.h"
#include "build_state.h"
#include "doc_cache.h"
#include "html.h"
#include "mustache.h"
#include "path.h"
#include "render.h"
#include "view.h"
#include "xalloc.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Most pages one patch puts (more: a build in full). */
#define DESCS_MAX_PAGES (2 * BUILD_PATCH_MAX_DOCS)

/* A citation whose description changed, with the one it had. */
struct changed {
	size_t doc, cite;
	const char *was;
};

/* A page to put in place. */
struct new_page {
	char *path;      /* under the output folder */
	long doc;        /* the document whose page it is, or -1 */
	long resource;   /* the resource whose page it is, or -1 */
	char *tmp;       /* its bytes, beside the output folder */
	size_t size;
	long body_at, body_len;
};

struct descs_job {
	struct site *s;
	const char *outdir;
	struct changed *ch;
	size_t nch, capch;
	struct new_page pages[DESCS_MAX_PAGES];
	size_t npages;
};

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The description r's entries give it, as model.c's pick_names picks it
 * (the longest; the first of equals): with the changed citations'
 * descriptions as they were when was is set. */
static const char *pick_desc(const struct descs_job *j, const struct resource *r, bool was)
{
	const char *best = NULL;
	size_t bl = 0;
	for (size_t i = 0; i < r->nrefs; i++) {
		const struct cite_ref *ref = &r->refs[i];
		const char *d = j->s->docs[ref->doc].cites[ref->cite].desc;
		for (size_t k = 0; was && k < j->nch; k++)
			if (j->ch[k].doc == ref->doc && j->ch[k].cite == ref->cite)
				d = j->ch[k].was;
		size_t n = d ? strlen(d) : 0;
		if (n > bl) {
			best = d;
			bl = n;
		}
	}
	return best;
}

/* Whether a says what b says, in the same order. */
static bool same_diags(const struct diags *a, const struct diags *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct diag *x = &a->v[i], *y = &b->v[i];
		if (x->line != y->line || x->col != y->col || x->sev != y->sev ||
		    !same_str(x->path, y->path) || !same_str(x->code, y->code) ||
		    !same_str(x->msg, y->msg))
			return false;
	}
	return true;
}

static bool add_page(struct descs_job *j, long doc, long resource)
{
	for (size_t k = 0; k < j->npages; k++)
		if (j->pages[k].doc == doc && j->pages[k].resource == resource)
			return true;
	if (j->npages == DESCS_MAX_PAGES)
		return false;
	char *dir = doc >= 0 ? view_doc_dir(j->s, (size_t)doc)
			     : view_resource_dir(j->s, (size_t)resource);
	struct new_page *p = &j->pages[j->npages++];
	*p = (struct new_page){.path = xasprintf("%sindex.html", dir), .doc = doc,
			       .resource = resource, .body_at = -1};
	free(dir);
	return path_is_safe_rel(p->path);
}

/* The edited documents' citations whose descriptions changed, and the pages
 * to make: false when a resource's description changes with them (or
 * anything is not as build_patch saw it). */
static bool find_pages(struct descs_job *j, const struct patch_descs *e)
{
	struct site *s = j->s;
	for (size_t k = 0; k < e->n; k++) {
		long di = model_doc_by_path(s, e->v[k].relpath);
		if (di < 0 || s->docs[di].ncites != e->v[k].ncites || !add_page(j, di, -1))
			return false;
		const struct doc *doc = &s->docs[di];
		for (size_t i = 0; i < doc->ncites; i++)
			if (e->v[k].now_len[i] != SIZE_MAX) { /* changed, as build_patch found */
				j->ch = xgrow(j->ch, &j->capch, j->nch + 1, sizeof *j->ch);
				j->ch[j->nch++] = (struct changed){(size_t)di, i, e->v[k].was[i]};
			}
	}
	for (size_t k = 0; k < j->nch; k++) {
		long ri = s->docs[j->ch[k].doc].cites[j->ch[k].cite].resource;
		if (ri < 0)
			continue; /* no resource: its document's page alone shows it */
		const struct resource *r = &s->res[ri];
		/* a description the entries do not make (site.yml's) stays */
		const char *now = pick_desc(j, r, false);
		if (same_str(r->desc, now) && !same_str(pick_desc(j, r, true), now))
			return false;
		if (r->has_page && !add_page(j, -1, ri))
			return false;
	}
	return true;
}

/* Render each page as a whole build does, into a file beside the output;
 * what the templates' lookup says goes to d (a file refused). */
static bool make_pages(struct descs_job *j, struct diags *d)
{
	struct site *s = j->s;
	struct template_source ts = {s->source_dir, s->cfg.theme, d, s->boundary};
	struct mustache_set *tpl = render_templates(&ts);
	view_prepare(s);
	bool ok = true;
	for (size_t k = 0; ok && k < j->npages; k++) {
		struct new_page *p = &j->pages[k];
		struct val *v = NULL;
		const struct val *watch = NULL;
		const char *name = "resource";
		if (p->doc >= 0) {
			struct doc *doc = &s->docs[p->doc];
			const char *raw = doc_cache_body(doc, s->body_fd);
			if (!raw) {
				ok = false;
				break;
			}
			char *dir = view_doc_dir(s, (size_t)p->doc);
			char *root = path_root_prefix(dir);
			char *body = html_finish_body(s, (size_t)p->doc, raw, root);
			v = view_doc(s, (size_t)p->doc, body);
			p->body_len = (long)strlen(body);
			watch = val_get(val_get(v, "doc"), "body");
			name = "doc";
			free(body);
			free(root);
			free(dir);
		} else
			v = view_resource(s, (size_t)p->resource);
		struct buf b = BUF_INIT;
		struct diags local = DIAGS_INIT;
		ok = mustache_render_locate(tpl, name, v, &b, &local, watch, &p->body_at) == 0 &&
		     !diags_count(&local, SEV_ERROR);
		diags_free(&local);
		val_free(v);
		if (ok) {
			const char *parts[1] = {b.p ? b.p : ""};
			size_t lens[1] = {b.n};
			p->size = b.n;
			p->tmp = build_patch_beside(j->outdir, k, parts, lens, 1);
			ok = p->tmp != NULL;
		}
		buf_free(&b);
	}
	view_release(s);
	mustache_set_free(tpl);
	return ok;
}

int build_descs(struct site *s, const struct build_opts *o, const char *outdir,
		const struct patch_descs *e, const char fp[33], struct diags *d,
		struct build_stats *st)
{
	if (!e->n || s->check_inputs || diags_count(d, SEV_ERROR))
		return -1;
	struct build_stats was = e->was;
	struct descs_job j = {.s = s, .outdir = outdir};
	struct diags said = DIAGS_INIT; /* the templates' lookup's */
	/* the documents give the records of the last build's: the build says
	 * what it said (a whole build's rendering may add to it: then built in
	 * full, whose state says it all) */
	bool ok = same_diags(d, &e->last) && find_pages(&j, e) && make_pages(&j, &said) &&
		  !said.n;
	long long delta = 0;
	if (ok) {
		const char *paths[DESCS_MAX_PAGES];
		char *tmps[DESCS_MAX_PAGES];
		struct doc_page_rec recs[DESCS_MAX_PAGES];
		size_t nrecs = 0;
		for (size_t k = 0; k < j.npages; k++) {
			struct new_page *p = &j.pages[k];
			paths[k] = p->path;
			tmps[k] = p->tmp;
			char *file = path_join(outdir, p->path);
			struct stat fst;
			if (lstat(file, &fst) == 0 && S_ISREG(fst.st_mode))
				delta -= (long long)fst.st_size;
			free(file);
			delta += (long long)p->size;
			if (p->doc < 0)
				continue;
			const struct patch_desc_doc *v = NULL;
			for (size_t i = 0; i < e->n && !v; i++)
				if (!strcmp(e->v[i].relpath, s->docs[p->doc].relpath))
					v = &e->v[i];
			recs[nrecs++] = (struct doc_page_rec){(char *)v->relpath, p->path,
							      {v->digest[0], v->digest[1]},
							      p->body_at, p->body_len};
		}
		ok = build_patch_put(outdir, paths, tmps, j.npages, recs, nrecs) == 0;
		for (size_t k = 0; k < j.npages; k++)
			j.pages[k].tmp = tmps[k];
	}
	if (ok) {
		if (o->committed)
			o->committed(o->committed_ctx);
		was.unchanged = was.files - j.npages;
		was.bytes = (unsigned long long)((long long)was.bytes + delta);
		was.patched = j.npages;
		was.warnings = diags_count(d, SEV_WARNING);
		was.errors = 0;
		build_state_save(outdir, fp, d, &was);
		*st = was;
	}
	for (size_t k = 0; k < j.npages; k++) {
		if (j.pages[k].tmp) {
			unlink(j.pages[k].tmp);
			free(j.pages[k].tmp);
		}
		free(j.pages[k].path);
	}
	diags_free(&said);
	free(j.ch);
	return ok ? 0 : -1;
}

/* ---- the hint: how long each citation's description may be ---------------- */

/* "ssg-room 2\n", then per document: its name's length and its name, its
 * citations' count and each citation's room (this machine's order: a hint
 * never leaves it), -1 for the citation giving its resource's description,
 * ROOM_ANY for one whose description no length changes. */
#define ROOM_MAGIC "ssg-room 2\n"
#define ROOM_ANY INT32_MAX

/* The hint's file, beside outdir: its folder (open) and its name. */
static int room_file(const char *outdir, char **name)
{
	char *parent = path_dirname(outdir);
	*name = xasprintf(".%s" BUILD_DESCS_ROOM_SUFFIX, path_basename(outdir));
	int dfd = open(*parent ? parent : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(parent);
	return dfd;
}

static void put_u32(struct buf *b, uint32_t v) { buf_put(b, &v, sizeof v); }

void build_descs_save_room(const struct site *s, const char *outdir)
{
	/* each resource's description, and the first citation giving it (the
	 * very string: model.c's resource borrows it), in document order as
	 * its citations are: none when site.yml gives it */
	const char **desc = xcalloc(s->nres + 1, sizeof *desc);
	int32_t *len = xcalloc(s->nres + 1, sizeof *len);
	size_t *src_doc = xcalloc(s->nres + 1, sizeof *src_doc);
	size_t *src_cite = xcalloc(s->nres + 1, sizeof *src_cite);
	bool *found = xcalloc(s->nres + 1, sizeof *found);
	for (size_t ri = 0; ri < s->nres; ri++) {
		desc[ri] = s->res[ri].desc;
		size_t l = desc[ri] ? strlen(desc[ri]) : 0;
		len[ri] = l < ROOM_ANY ? (int32_t)l : ROOM_ANY - 1;
	}
	for (size_t d = 0; d < s->ndocs; d++)
		for (size_t i = 0; i < s->docs[d].ncites; i++) {
			const struct citation *c = &s->docs[d].cites[i];
			if (c->resource >= 0 && !found[c->resource] && desc[c->resource] &&
			    c->desc == desc[c->resource]) {
				found[c->resource] = true;
				src_doc[c->resource] = d;
				src_cite[c->resource] = i;
			}
		}
	struct buf out = BUF_INIT;
	buf_puts(&out, ROOM_MAGIC);
	for (size_t d = 0; d < s->ndocs; d++) {
		const struct doc *doc = &s->docs[d];
		size_t nl = strlen(doc->relpath);
		put_u32(&out, (uint32_t)nl);
		buf_put(&out, doc->relpath, nl);
		put_u32(&out, (uint32_t)doc->ncites);
		for (size_t i = 0; i < doc->ncites; i++) {
			long ri = doc->cites[i].resource;
			int32_t room = ROOM_ANY; /* no resource, or site.yml's description */
			if (ri >= 0 && (!desc[ri] || found[ri])) {
				bool source = found[ri] && src_doc[ri] == d && src_cite[ri] == i;
				bool before = found[ri] &&
					      (d < src_doc[ri] || (d == src_doc[ri] && i < src_cite[ri]));
				room = source ? -1 : len[ri] - (before ? 1 : 0);
			}
			buf_put(&out, &room, sizeof room);
		}
	}
	char *name;
	int dfd = room_file(outdir, &name);
	if (dfd >= 0) {
		path_replace_at(dfd, name, out.p, out.n); /* a hint: unwritten, none */
		close(dfd);
	}
	free(name);
	buf_free(&out);
	free(desc);
	free(len);
	free(src_doc);
	free(src_cite);
	free(found);
}

/* Whether v's changed descriptions fit the rooms the hint gives (n of them). */
static bool fits(const struct patch_desc_doc *v, const unsigned char *p, size_t n)
{
	if (n != v->ncites)
		return false;
	for (size_t i = 0; i < n; i++) {
		int32_t room;
		memcpy(&room, p + 4 * i, sizeof room);
		if (v->now_len[i] != SIZE_MAX && room != ROOM_ANY &&
		    (room < 0 || v->now_len[i] > (size_t)room))
			return false;
	}
	return true;
}

bool build_descs_foreseen(const char *outdir, const struct patch_descs *e)
{
	char *name;
	int dfd = room_file(outdir, &name);
	struct stat st;
	unsigned char *map = dfd >= 0 ? path_map_regular_at(dfd, name, (size_t)1 << 30, &st) : NULL;
	if (dfd >= 0)
		close(dfd);
	free(name);
	if (!map)
		return false;
	size_t n = (size_t)st.st_size, ml = strlen(ROOM_MAGIC), found = 0;
	bool ok = n >= ml && !memcmp(map, ROOM_MAGIC, ml);
	/* each document once, in the file's order (bounds checked) */
	for (size_t at = ml; ok && found < e->n && n - at >= 8;) {
		uint32_t nl, nc;
		memcpy(&nl, map + at, 4);
		if (n - at - 4 < (size_t)nl + 4) {
			ok = false;
			break;
		}
		const char *docname = (const char *)map + at + 4;
		memcpy(&nc, map + at + 4 + nl, 4);
		size_t rooms = at + 8 + nl;
		if ((n - rooms) / 4 < nc) {
			ok = false;
			break;
		}
		for (size_t k = 0; k < e->n; k++)
			if (strlen(e->v[k].relpath) == nl && !memcmp(e->v[k].relpath, docname, nl)) {
				ok = fits(&e->v[k], map + rooms, nc);
				found++;
			}
		at = rooms + 4 * (size_t)nc;
	}
	munmap(map, n);
	return ok && found == e->n;
}
