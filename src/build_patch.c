/* build_patch: an edit of documents' prose patched into their pages, without
 * a model (see build_patch.h). */
#include "build_patch.h"
#include "build_state.h"
#include "descs_splice.h"
#include "doc_cache.h"
#include "hash.h"
#include "html.h"
#include "output.h"
#include "path.h"
#include "site_read.h"
#include "xalloc.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One edited document on its way into its page. */
struct patch {
	const struct doc_page_rec *was;  /* the page as the site in place has it */
	struct doc_page_rec now;         /* its record once patched */
	char *tmp;                       /* the new page, written beside the output */
};

struct patch_job {
	const char *src, *outdir;
	const struct file_digests *digests;
	struct doc_pages recs;
	struct patch p[BUILD_PATCH_MAX_DOCS];
	size_t n;
	const char **all;    /* every document of content/, for the document cache */
	size_t nall;
	struct site s;       /* the config, and the edited documents read afresh */
	struct buf *entries; /* per document of all: its new cache entry, if edited */
	long long delta;     /* bytes the pages grow by */
	bool may_preview;    /* a page may be previewed (build_opts.previewed) */
	bool previewed;      /* one was: the site is not whole until built in full */
	struct patch_descs *descs;
	bool may_splice;     /* entries' descriptions may be spliced (descs_splice.h) */
	bool descs_edited;   /* some were: their pages are to be made */
	bool spliced;        /* and they were: sp holds them */
	struct descs_splice sp;
	const struct build_opts *o;
};

/* The documents whose bytes changed, each with its page; false when one has
 * no page, when a document is not known or too many changed. */
static bool find_edits(struct patch_job *j)
{
	const struct file_digests *g = j->digests;
	j->all = xcalloc(g->n + 1, sizeof *j->all);
	for (size_t i = 0; i < g->n; i++) {
		const char *rel = doc_pages_document(g->paths[i]);
		if (!rel)
			continue;
		j->all[j->nall++] = rel;
		const struct doc_page_rec *r = doc_pages_find(&j->recs, rel);
		if (!r)
			return false;
		if (r->digest[0] == g->digests[i][0] && r->digest[1] == g->digests[i][1])
			continue;
		if (j->n == BUILD_PATCH_MAX_DOCS || !*r->page || r->at < 0 ||
		    !path_is_safe_rel(r->page))
			return false;
		struct patch *p = &j->p[j->n++];
		p->was = r;
		p->now = (struct doc_page_rec){(char *)r->relpath, r->page,
					       {g->digests[i][0], g->digests[i][1]}, r->at, 0};
	}
	/* every document the records know is still there, hashed as a file
	 * (a symlinked one is not: it takes a whole build) */
	return j->n > 0 && j->recs.index.n == j->nall;
}

char *build_patch_beside(const char *outdir, size_t k, const char *const *parts,
			 const size_t *lens, size_t nparts)
{
	char *tmp = xasprintf("%s" OUTPUT_STATE_TMP "%ld-patch-%zu", outdir, (long)getpid(), k);
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (fd >= 0 && !f)
		close(fd);
	bool ok = f != NULL;
	for (size_t i = 0; ok && i < nparts; i++)
		ok = fwrite(parts[i], 1, lens[i], f) == lens[i];
	if (f && fclose(f))
		ok = false;
	if (!ok) {
		unlink(tmp);
		free(tmp);
		return NULL;
	}
	return tmp;
}

/* Write the page's bytes with body in place of [at, at + len) to a new
 * file beside the output folder: p->tmp. */
static bool write_beside(struct patch_job *j, size_t k, const struct buf *page, const char *body)
{
	struct patch *p = &j->p[k];
	size_t at = (size_t)p->was->at, len = (size_t)p->was->len, n = strlen(body);
	const char *parts[3] = {page->p, body, page->p + at + len};
	size_t lens[3] = {at, n, page->n - at - len};
	p->tmp = build_patch_beside(j->outdir, k, parts, lens, 3);
	p->now.len = (long)n;
	j->delta += (long long)n - p->was->len;
	return p->tmp != NULL;
}

/* What a citation links to, for matching old ones to new ones. */
static const char *cite_key(const struct citation *c)
{
	return c->canonical ? c->canonical : c->url ? c->url : "";
}

/* Each of now's citations mapped to one of was's that links to the same
 * place (the first not taken yet, in order), or -1: a preview gives it the
 * badge that one had, whatever was inserted, removed or moved around it. */
static long *map_cites(const struct doc *was, const struct doc *now)
{
	long *map = xcalloc(now->ncites + 1, sizeof *map);
	size_t *next = xcalloc(was->ncites + 1, sizeof *next);
	struct hash first = HASH_INIT; /* key -> its first old citation not taken */
	for (size_t j = was->ncites; j-- > 0;) {
		const char *k = cite_key(&was->cites[j]);
		size_t head;
		next[j] = hash_get(&first, k, &head) ? head : SIZE_MAX;
		hash_put(&first, k, j);
	}
	for (size_t i = 0; i < now->ncites; i++) {
		const char *k = cite_key(&now->cites[i]);
		size_t j;
		map[i] = -1;
		if (hash_get(&first, k, &j) && j != SIZE_MAX) {
			map[i] = (long)j;
			hash_put(&first, cite_key(&was->cites[j]), next[j]);
		}
	}
	hash_free(&first);
	free(next);
	return map;
}

/* Edited document k, read again (now): it must give the record its cached
 * version gave (or one it can be previewed from), and its new body must fit
 * where the old one lies. */
static bool patch_one(struct patch_job *j, size_t k, const struct doc_cache *cache,
		      const struct doc *now)
{
	struct patch *p = &j->p[k];
	struct doc was = {0};
	was.relpath = xstrdup(p->was->relpath);
	struct buf page = BUF_INIT;
	char *file = path_join(j->outdir, p->was->page);
	bool ok = now->ok && doc_cache_get(cache, was.relpath, p->was->digest, &was);
	bool same = ok && doc_cache_same_record(&was, now);
	/* the same but for entries' descriptions: patched as prose is, their
	 * resources' pages spliced (make_pages) */
	bool descs = ok && !same && j->may_splice && was.ncites == now->ncites &&
		     doc_cache_same_but_descs(&was, now);
	bool preview = ok && !same && !descs && j->may_preview && doc_cache_previewable(&was, now);
	j->descs_edited |= descs;
	ok = (same || descs || preview) && buf_read_regular(&page, file, 1u << 28) == 0 &&
	     (size_t)p->was->at + (size_t)p->was->len <= page.n &&
	     /* an empty body may read differently to a template: not patched */
	     was.body && *was.body && now->body && *now->body;
	free(file);
	long *map = ok && preview ? map_cites(&was, now) : NULL;
	char *body = !ok ? NULL
		     : preview ? html_relink_preview(was.body, page.p + p->was->at,
						     (size_t)p->was->len, now->body, map, now->ncites)
			       : html_relink_body(was.body, page.p + p->was->at,
						  (size_t)p->was->len, now->body);
	free(map);
	if (body && preview)
		j->previewed = true;
	ok = body && write_beside(j, k, &page, body);
	free(body);
	buf_free(&page);
	doc_free(&was);
	return ok;
}

void patch_descs_free(struct patch_descs *p)
{
	for (size_t k = 0; k < p->n; k++) {
		for (size_t i = 0; i < p->v[k].ncites; i++)
			free(p->v[k].was[i]);
		free(p->v[k].was);
		free(p->v[k].now_len);
		free(p->v[k].relpath);
	}
	p->n = 0;
	diags_free(&p->last);
}

/* Whether every edited document (read again: j->s's) gives its cached
 * record but for its entries' descriptions: then each, with those
 * descriptions as they were, goes to j->descs. */
static void collect_descs(struct patch_job *j, const struct doc_cache *cache)
{
	struct patch_descs *e = j->descs;
	for (size_t k = 0; k < j->n; k++) {
		const struct doc *now = &j->s.docs[k];
		struct doc was = {0};
		was.relpath = xstrdup(j->p[k].was->relpath);
		bool ok = now->ok && doc_cache_get(cache, was.relpath, j->p[k].was->digest, &was) &&
			  was.ncites == now->ncites && doc_cache_same_but_descs(&was, now);
		if (ok) {
			struct patch_desc_doc *v = &e->v[e->n++];
			v->relpath = xstrdup(was.relpath);
			v->ncites = was.ncites;
			v->was = xcalloc(was.ncites + 1, sizeof *v->was);
			v->now_len = xcalloc(was.ncites + 1, sizeof *v->now_len);
			for (size_t i = 0; i < was.ncites; i++) {
				const char *a = was.cites[i].desc, *b = now->cites[i].desc;
				v->was[i] = a ? xstrdup(a) : NULL;
				bool same = a == b || (a && b && !strcmp(a, b));
				v->now_len[i] = same ? SIZE_MAX : b ? strlen(b) : 0;
			}
			memcpy(v->digest, j->p[k].now.digest, sizeof v->digest);
		}
		doc_free(&was);
		if (!ok) {
			patch_descs_free(e);
			return;
		}
	}
}

/* The pages written beside the output, removed. */
static void drop_beside(struct patch_job *j)
{
	for (size_t k = 0; k < j->n; k++)
		if (j->p[k].tmp) {
			unlink(j->p[k].tmp);
			free(j->p[k].tmp);
			j->p[k].tmp = NULL;
		}
	j->delta = 0;
}

/* Read the edited documents again and make their new pages; the document
 * cache gets their new entries. */
static bool make_pages(struct patch_job *j)
{
	struct site *s = &j->s;
	s->source_dir = (char *)j->src;
	s->jobs = 1;
	struct diags ignore = DIAGS_INIT;
	int rc = config_load(&s->cfg, j->src, &ignore);
	diags_free(&ignore);
	if (rc)
		return false;
	/* content/ led outside the repository (a symlink): a whole build
	 * refuses it, with the error */
	char *where = path_join(j->src, "content");
	bool inside = path_in_site(j->src, where);
	free(where);
	if (!inside)
		return false;
	char env[33];
	doc_cache_env(j->src, env);
	struct doc_cache cache;
	doc_cache_load(&cache, j->src, env);
	const char **rels = xcalloc(j->n + 1, sizeof *rels);
	for (size_t k = 0; k < j->n; k++)
		rels[k] = j->p[k].was->relpath;
	s->docs = xcalloc(j->n + 1, sizeof *s->docs);
	s->ndocs = j->n;
	struct buf *fresh = xcalloc(j->n + 1, sizeof *fresh);
	char *content = path_join(j->src, "content");
	site_read_fresh(s, content, rels, j->n, fresh);
	free(content);
	free(rels);
	bool ok = cache.valid;
	for (size_t k = 0; ok && k < j->n; k++)
		ok = patch_one(j, k, &cache, &s->docs[k]);
	if (ok && j->descs_edited && !j->previewed) {
		/* entries' descriptions: spliced into their resources' pages, or
		 * the documents are patched again without that (a preview, or
		 * none: a build follows). Beside a preview, a build follows
		 * anyway: their pages are patched as prose, and it makes the
		 * rest */
		collect_descs(j, &cache);
		char render_env[33]; /* the pages' notes' */
		build_render_env(j->o, 1, render_env);
		j->spliced = descs_splice_make(&j->sp, j->outdir, render_env, j->descs, s->docs,
					       BUILD_PATCH_MAX_DOCS) == 0;
		patch_descs_free(j->descs);
		if (!j->spliced) {
			drop_beside(j);
			j->may_splice = false;
			for (size_t k = 0; ok && k < j->n; k++)
				ok = patch_one(j, k, &cache, &s->docs[k]);
		}
	}
	/* not patched whole: a build follows, which may patch descriptions */
	if (cache.valid && (!ok || j->previewed))
		collect_descs(j, &cache);
	/* the new cache entries, in the places of their documents */
	size_t read = 0;
	for (size_t k = 0; k < j->n; k++)
		read += fresh[k].n;
	j->entries = xcalloc(j->nall + 1, sizeof *j->entries);
	for (size_t k = 0, i = 0; k < j->n; k++) {
		while (i < j->nall && strcmp(j->all[i], j->p[k].was->relpath))
			i++;
		if (i < j->nall)
			j->entries[i] = fresh[k];
		else
			buf_free(&fresh[k]);
	}
	free(fresh);
	/* applied, the cache keeps what was read; refused, only when the whole
	 * build that follows would take longer to parse it again */
	if (cache.valid && (ok || read >= BUILD_PATCH_HAND_OVER))
		doc_cache_update(&cache, j->src, env, j->all, j->entries, j->nall);
	doc_cache_free(&cache);
	return ok;
}

int build_patch_put(const char *outdir, const char *const *pages, char **tmps, size_t n,
		    const struct doc_page_rec *recs, size_t nrecs)
{
	build_state_forget_some(outdir, true);
	if (page_digests_forget_some(outdir, pages, n) || doc_pages_append(outdir, recs, nrecs))
		return -1;
	int rc = 0;
	for (size_t k = 0; k < n; k++) {
		/* into the page's own folder, reached through real folders only:
		 * a symlink put in the output folder (a repository can commit
		 * one) would have the page written wherever it points */
		char *parent = path_dirname(pages[k]);
		int pfd = path_open_dir_within(outdir, parent);
		if (pfd < 0 || path_rename_over_at(AT_FDCWD, tmps[k], pfd, path_basename(pages[k])))
			rc = -1;
		else {
			free(tmps[k]);
			tmps[k] = NULL;
		}
		if (pfd >= 0)
			close(pfd);
		free(parent);
	}
	return rc;
}

/* Put the new pages in: the state first says it does not know them. A
 * splice's pages go with them; the hint reads as none while they do, and
 * it and the pages' notes are changed once they are in place. A preview
 * forgets the hint (the site is not whole: the build that follows saves
 * it). */
static bool put_pages(struct patch_job *j)
{
	const char *paths[BUILD_PATCH_MAX_DOCS + DESCS_SPLICE_MAX_PAGES];
	char *tmps[BUILD_PATCH_MAX_DOCS + DESCS_SPLICE_MAX_PAGES];
	struct doc_page_rec now[BUILD_PATCH_MAX_DOCS];
	size_t n = 0;
	for (size_t k = 0; k < j->n; k++) {
		paths[n] = j->p[k].was->page;
		tmps[n++] = j->p[k].tmp;
		now[k] = j->p[k].now;
	}
	for (size_t k = 0; j->spliced && k < j->sp.npages; k++) {
		paths[n] = j->sp.pages[k].path;
		tmps[n++] = j->sp.pages[k].tmp;
	}
	if (j->spliced)
		descs_splice_begin(&j->sp, j->outdir);
	else if (j->previewed)
		room_hint_forget(j->outdir);
	int rc = build_patch_put(j->outdir, paths, tmps, n, now, j->n);
	n = 0;
	for (size_t k = 0; k < j->n; k++)
		j->p[k].tmp = tmps[n++];
	for (size_t k = 0; j->spliced && k < j->sp.npages; k++)
		j->sp.pages[k].tmp = tmps[n++];
	if (rc == 0 && j->spliced) {
		descs_splice_note(&j->sp, j->outdir);
		j->delta += j->sp.delta;
	}
	return rc == 0;
}

int build_patch(const struct build_opts *o, const char *outdir,
		const struct file_digests *digests, const char fp[33], const char frame[33],
		struct diags *d, struct build_stats *st, struct doc_pages *left,
		struct patch_descs *descs)
{
	struct patch_job j = {.src = o->source ? o->source : ".", .outdir = outdir,
			      .digests = digests, .may_preview = o->previewed != NULL,
			      .descs = descs, .may_splice = !getenv("SSG_CHECK_INPUTS"),
			      .o = o};
	descs->n = 0;
	descs->last = (struct diags)DIAGS_INIT;
	memcpy(descs->frame, frame, sizeof descs->frame);
	struct diags last = DIAGS_INIT;
	struct build_stats was;
	memset(left, 0, sizeof *left);
	bool read = !o->force && digests && doc_pages_load(&j.recs, outdir, frame) == 0;
	bool made = read && build_state_read(outdir, &last, &was) == 0 && find_edits(&j) &&
		    make_pages(&j);
	bool ok = made && put_pages(&j);
	bool previewed = ok && j.previewed;
	if (ok && !previewed) {
		was.bytes = (unsigned long long)((long long)was.bytes + j.delta);
		was.spliced = j.spliced ? j.sp.npages : 0;
		was.patched = j.n + was.spliced;
		was.unchanged = was.files - was.patched;
		build_state_save(outdir, fp, &last, &was);
		diags_take(d, &last);
		*st = was;
	}
	if (descs->n) {
		if (previewed)
			was.bytes = (unsigned long long)((long long)was.bytes + j.delta);
		diags_take(&descs->last, &last);
		descs->was = was;
	}
	diags_free(&last);
	drop_beside(&j);
	if (j.spliced)
		descs_splice_free(&j.sp);
	for (size_t i = 0; j.entries && i < j.nall; i++)
		buf_free(&j.entries[i]);
	free(j.entries);
	free(j.all);
	/* a build in full follows: the pages' records as read, when nothing
	 * was put in the site (put_pages appends to them) */
	if (read && !made) {
		*left = j.recs;
		memset(&j.recs, 0, sizeof j.recs);
	}
	doc_pages_free(&j.recs);
	for (size_t k = 0; k < j.s.ndocs; k++)
		doc_free(&j.s.docs[k]);
	free(j.s.docs);
	if (j.s.source_dir)
		config_free(&j.s.cfg);
	return previewed ? 1 : ok ? 0 : -1;
}
