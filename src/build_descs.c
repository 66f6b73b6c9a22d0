/* build_descs: an edit of entries' descriptions patched into the pages that
 * show them, from the model (see build_descs.h). */
#include "build_descs.h"
#include "build_state.h"
#include "doc_cache.h"
#include "html.h"
#include "mustache.h"
#include "page_items.h"
#include "path.h"
#include "render.h"
#include "room_hint.h"
#include "view.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
	struct page_item *notes; /* a resource page's descriptions (page_items.h) */
	size_t nnotes;
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
		struct mustache_items places = {0};
		ok = mustache_render_items(tpl, name, v, &b, &local, watch, &p->body_at,
					   p->doc < 0 ? &places : NULL) == 0 &&
		     !diags_count(&local, SEV_ERROR);
		diags_free(&local);
		val_free(v);
		if (ok && p->doc < 0) {
			p->notes = xcalloc(places.n + 1, sizeof *p->notes);
			p->nnotes = page_items_note_descs(b.p, &places, p->notes);
		}
		mustache_items_free(&places);
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

/* The resource pages put in place: their notes now those of their new
 * files (a splice reads them: descs_splice.h). */
static void note_pages(struct descs_job *j, const struct build_opts *o)
{
	char env[33];
	build_render_env(o, 1, env);
	struct page_items items;
	page_items_load(&items, j->outdir, env);
	for (size_t k = 0; k < j->npages; k++) {
		const struct new_page *p = &j->pages[k];
		if (p->doc >= 0)
			continue;
		/* none (all zero): its notes are of no file, never read */
		struct output_file f = output_file_at(j->outdir, p->path);
		page_items_set(&items, p->path, &f, p->notes, p->nnotes);
	}
	page_items_save(&items, j->outdir, env);
	page_items_free(&items);
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
		/* the hint counts the descriptions: forgotten while they change */
		room_hint_forget(outdir);
		ok = build_patch_put(outdir, paths, tmps, j.npages, recs, nrecs) == 0;
		for (size_t k = 0; k < j.npages; k++)
			j.pages[k].tmp = tmps[k];
	}
	if (ok) {
		note_pages(&j, o);
		if (o->committed)
			o->committed(o->committed_ctx);
		was.unchanged = was.files - j.npages;
		was.bytes = (unsigned long long)((long long)was.bytes + delta);
		was.patched = j.npages;
		was.warnings = diags_count(d, SEV_WARNING);
		was.errors = 0;
		build_state_save(outdir, fp, d, &was);
		room_hint_save(s, outdir, e->frame);
		*st = was;
	}
	for (size_t k = 0; k < j.npages; k++) {
		if (j.pages[k].tmp) {
			unlink(j.pages[k].tmp);
			free(j.pages[k].tmp);
		}
		free(j.pages[k].path);
		free(j.pages[k].notes);
	}
	diags_free(&said);
	free(j.ch);
	return ok ? 0 : -1;
}

/* ---- the hint: whether the patch will apply ------------------------------ */

bool build_descs_foreseen(const char *outdir, const struct patch_descs *e)
{
	struct room_hint h;
	if (room_hint_open(&h, outdir, e->frame))
		return false;
	const char *names[BUILD_PATCH_MAX_DOCS];
	size_t at[BUILD_PATCH_MAX_DOCS], count[BUILD_PATCH_MAX_DOCS];
	for (size_t k = 0; k < e->n; k++)
		names[k] = e->v[k].relpath;
	room_hint_docs(&h, names, e->n, at, count);
	bool ok = true;
	for (size_t k = 0; ok && k < e->n; k++) {
		const struct patch_desc_doc *v = &e->v[k];
		ok = at[k] && count[k] == v->ncites;
		for (size_t i = 0; ok && i < v->ncites; i++) {
			int32_t room = room_hint_cite(&h, at[k], i).room;
			ok = v->now_len[i] == SIZE_MAX || room == ROOM_HINT_ANY ||
			     (room >= 0 && v->now_len[i] <= (size_t)room);
		}
	}
	room_hint_close(&h);
	return ok;
}
