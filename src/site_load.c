/* site_load: a site read and modelled (site.h's site_load): its config,
 * its documents (site_read.h), the model with each resource's names and
 * classes kept from the last build (res_memo.h), links' last known health;
 * then the checks of what the documents name. The documents' dates are left
 * on their way (site_read_dates_apply). */
#include "site.h"
#include "clock.h"
#include "doc_cache.h"
#include "hash.h"
#include "latch.h"
#include "linkcheck.h"
#include "path.h"
#include "pool.h"
#include "res_memo.h"
#include "site_read.h"
#include "source.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The last known health of each resource's link, when `ssg check --links`
 * left its cache in the site: shown on resource pages. */
static void link_health(struct site *s)
{
	char *file = path_join(s->source_dir, LINKCHECK_CACHE_DEFAULT);
	struct linkcache c = LINKCACHE_INIT;
	if (linkcheck_load_cache(file, &c) == 0)
		for (size_t i = 0; i < s->nres; i++) {
			const struct linkcache_entry *e = linkcache_find(&c, s->res[i].canonical);
			if (!e)
				continue;
			s->res[i].link_status = linkcache_describe(e);
			s->res[i].link_result = linkcheck_result_name(e->result);
		}
	linkcache_free(&c);
	free(file);
}

/* The resources' memo as save_memo hands it to its thread. */
struct memo_save {
	char *source_dir;
	char env[33];
	struct res_memo_rec *recs;
	size_t n;
	int32_t *topics;
	size_t ntopics;
};

static void *write_memo(void *arg)
{
	struct memo_save *m = arg;
	res_memo_save(m->source_dir, m->env, m->recs, m->n, m->topics, m->ntopics);
	free(m->recs);
	free(m->topics);
	free(m->source_dir);
	free(m);
	return NULL;
}

/* Memos of more resources than this are sorted and written on a thread of
 * their own: fewer take less than a thread's start (0.2-3 ms here). */
#define MEMO_THREAD_RESOURCES 8192

/* Each resource's names and classes, for the next build (res_memo.h): only
 * when some were made anew. Gathered here; a large memo sorted and written
 * on a thread of its own (model_wait_writer waits for it), while the build
 * goes on. */
static void save_memo(struct site *s, const char env[33])
{
	size_t made = 0, ntopics = 0;
	for (size_t i = 0; i < s->nres; i++) {
		made += !s->memo_hit[i];
		ntopics += s->res[i].ntopics;
	}
	s->memo_kept = s->check_inputs ? 0 : s->nres - made;
	if (!made && s->memo && s->memo->n == s->nres)
		return;
	int32_t *topics = xcalloc(ntopics + 1, sizeof *topics);
	struct res_memo_rec *recs = xcalloc(s->nres + 1, sizeof *recs);
	size_t k = 0;
	for (size_t i = 0; i < s->nres; i++) {
		struct res_memo_rec *m = &recs[i];
		*m = s->memo_now[i];
		m->kind = s->res[i].kind;
		m->title_rank = (uint32_t)s->res[i].title_rank;
		m->ntopics = (uint32_t)s->res[i].ntopics;
		m->topics_at = (uint32_t)k;
		for (size_t t = 0; t < s->res[i].ntopics; t++)
			topics[k++] = s->res[i].topics[t];
	}
	struct memo_save *m = xcalloc(1, sizeof *m);
	*m = (struct memo_save){xstrdup(s->source_dir), "", recs, s->nres, topics, k};
	memcpy(m->env, env, sizeof m->env);
	s->memo_writing = s->nres > MEMO_THREAD_RESOURCES &&
			  pthread_create(&s->memo_writer, NULL, write_memo, m) == 0;
	if (!s->memo_writing)
		write_memo(m);
}

int site_load(struct site *s, const struct build_opts *o, struct diags *d)
{
	memset(s, 0, sizeof *s);
	s->jobs = pool_threads(o->jobs);
	s->source_dir = xstrdup(o->source ? o->source : ".");
	int rc = config_load(&s->cfg, s->source_dir, d);
	if (o->base_url) {
		free(s->cfg.base_url);
		s->cfg.base_url = xstrdup(o->base_url);
	}
	if (rc)
		return -1;
	char *content = path_join(s->source_dir, "content");
	struct source_list files = {0};
	struct stat st;
	s->boundary = path_boundary(s->source_dir);
	bool has_content = stat(content, &st) == 0 && S_ISDIR(st.st_mode);
	if (has_content && !(s->boundary && path_inside(s->boundary, content))) {
		/* a symlink a pull request can commit: the build would publish
		 * whatever folder it points to, keys and all */
		diag_addc(d, SEV_ERROR, "symlink-outside", "content", 0, 0,
			  "resolves outside the site's repository: refused");
		free(content);
		return -1;
	}
	/* listed once: by the fingerprint's walk when it found plain files */
	if (has_content) {
		if (!o->digests || !source_list_from_digests(o->digests, "content/", &files))
			source_discover(content, &files, d);
	} else
		diag_add(d, SEV_WARNING, "content", 0, 0,
			 "no content/ folder: the site has no documents");
	const char **rels = xcalloc(files.n + 1, sizeof *rels);
	size_t ndocs = 0;
	for (size_t i = 0; i < files.n; i++) {
		if (files.v[i].is_doc)
			rels[ndocs++] = files.v[i].relpath;
		else if (source_is_active(files.v[i].relpath)) {
			char *shown = path_join("content", files.v[i].relpath);
			diag_addc(d, SEV_WARNING, "active-file", shown, 0, 0,
				  "HTML, script, style or SVG under content/ is not published: content "
				  "comes from pull requests (a maintainer can publish it from static/)");
			free(shown);
		} else {
			s->statics = xrealloc(s->statics, (s->nstatics + 1) * sizeof *s->statics);
			s->statics[s->nstatics++].relpath = xstrdup(files.v[i].relpath);
		}
	}
	s->docs = xcalloc(ndocs + 1, sizeof *s->docs);
	s->ndocs = ndocs;
	double t0 = clock_ms();
	site_read_documents(s, o, content, rels, ndocs);
	if (o->read)
		latch_open(o->read);
	/* drop what could not be read, and drafts */
	size_t keep = 0;
	for (size_t i = 0; i < s->ndocs; i++) {
		struct doc *doc = &s->docs[i];
		diags_take(d, &doc->diags);
		if (!doc->ok || (doc->meta.draft && !o->drafts)) {
			doc_free(doc);
			continue;
		}
		if (keep != i) {
			s->docs[keep] = *doc;
			memset(doc, 0, sizeof *doc);
		}
		s->docs[keep].index = keep;
		keep++;
	}
	s->ndocs = keep;
	for (size_t i = 0; i < s->cfg.ndocuments; i++) {
		bool found = false;
		for (size_t k = 0; k < files.n && !found; k++)
			found = !strcmp(files.v[k].relpath, s->cfg.documents[i].path);
		if (!found)
			diag_addc(d, SEV_WARNING, "dangling-document", s->cfg.path,
				  s->cfg.documents[i].line, s->cfg.documents[i].col,
				  "documents: names %s, which is not a file under content/",
				  s->cfg.documents[i].path);
	}
	free(rels);
	source_list_free(&files);
	free(content);
	s->read_ms = clock_ms() - t0;
	t0 = clock_ms();
	/* resources' names and classes as the last build made them (check
	 * reads them too, and leaves every cache as it is) */
	struct res_memo memo = {0};
	char env[33];
	const char *check = getenv("SSG_CHECK_INPUTS");
	s->check_inputs = check && *check == '1';
	if (doc_cache_env_for(s->source_dir, o->readonly, env) && !o->force)
		res_memo_load(&memo, s->source_dir, env);
	s->memo = &memo;
	if (!o->readonly) {
		memcpy(s->cache_env, env, sizeof s->cache_env); /* related documents too */
		s->cache_load = !o->force;
	}
	model_build(s);
	if (!o->readonly)
		save_memo(s, env);
	/* the records are gone with the memo: so are the pointers to them */
	s->memo = NULL;
	res_memo_free(&memo);
	free(s->memo_hit);
	free(s->memo_now);
	s->memo_hit = NULL;
	s->memo_now = NULL;
	if (s->memo_differ)
		diag_add(d, SEV_ERROR, "content", 0, 0,
			 "internal error: %zu resources' names or classes, or the order by "
			 "title, differ from the ones kept for the same inputs",
			 s->memo_differ);
	link_health(s);
	s->model_ms = clock_ms() - t0;
	/* topic ids named in front matter must exist (looked up in a table:
	 * 10,000 documents with four topics each) */
	struct hash topic_ids = HASH_INIT;
	for (size_t t = 0; t < s->cfg.ntopics; t++)
		hash_put(&topic_ids, s->cfg.topics[t].id, t);
	for (size_t i = 0; i < s->ndocs; i++) {
		struct doc *doc = &s->docs[i];
		for (size_t k = 0; k < doc->meta.ntopics; k++)
			if (!hash_get(&topic_ids, doc->meta.topics[k], NULL))
				diag_addc(&doc->diags, SEV_WARNING, "dangling-topic",
					  doc->meta.topics_path ? doc->meta.topics_path : doc->shown,
					  doc->meta.topics_line, doc->meta.topics_col,
					  "topic '%s' is not defined in site.yml", doc->meta.topics[k]);
		diags_take(d, &doc->diags);
	}
	hash_free(&topic_ids);
	diags_take(d, &s->diags);
	diags_sort(d);
	return diags_count(d, SEV_ERROR) ? -1 : 0;
}
