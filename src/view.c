/* view: page views as value trees (see view.h). */
#include "view.h"
#include "view_parts.h"
#include "pool.h"
#include "buf.h"
#include "html.h"
#include "path.h"
#include "xalloc.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *view_doc_dir(const struct site *s, size_t d) { return xstrdup(s->docs[d].url); }
char *view_topic_dir(const struct site *s, size_t t) { return xconcat("topic/", s->topics[t].id, "/", NULL); }
char *view_resource_dir(const struct site *s, size_t r) { return html_resource_url(&s->res[r]); }

/* ---- small builders -------------------------------------------------------- */

struct val *view_link(const char *root, const char *title, const char *url)
{
	struct val *m = val_map();
	val_setk_str(m, "title", title);
	val_setk(m, "url", val_concat(root, url));
	return m;
}

static void topic_counts(const struct site *s, size_t d, size_t *counts)
{
	memset(counts, 0, s->ntopics * sizeof *counts);
	const struct doc *doc = &s->docs[d];
	const unsigned long long *bits = s->res_topic_bits;
	for (size_t i = 0; i < doc->ncites; i++) {
		long r = doc->cites[i].resource;
		if (r < 0)
			continue;
		if (bits)
			for (unsigned long long b = bits[r]; b; b &= b - 1)
				counts[__builtin_ctzll(b)]++;
		else
			for (size_t k = 0; k < s->res[r].ntopics; k++)
				counts[s->res[r].topics[k]]++;
	}
	taxonomy_weigh_named_topics(s, doc, counts); /* they weigh most */
}

static int doc_topic_of(const struct site *s, size_t d)
{
	size_t *counts = xcalloc(s->ntopics + 1, sizeof *counts);
	topic_counts(s, d, counts);
	int best = taxonomy_pick_topic(s, counts);
	free(counts);
	return best;
}

int view_doc_topic(const struct site *s, size_t d) { return s->doc_primary[d]; }

static void primary_task(void *ctx, size_t d)
{
	struct site *s = ctx;
	s->doc_primary[d] = doc_topic_of(s, d);
}

static void add_breadcrumb_topics(const struct site *s, struct val *list, int t, const char *root)
{
	if (t < 0)
		return;
	add_breadcrumb_topics(s, list, s->topics[t].parent, root);
	char *dir = view_topic_dir(s, (size_t)t);
	val_push(list, view_link(root, s->topics[t].title, dir));
	free(dir);
}

/* The topics by parent, each parent's in topic order: kids[first[p + 1]] to
 * kids[first[p + 2]] are topic p's children (p = -1: the top level). Made
 * once per build (every topic's page has a tree of its own: looking for each
 * topic's children among all topics made a site of 4,000 topics cubic). */
static void topic_kids_make(struct site *s)
{
	size_t n = s->ntopics;
	size_t *first = xcalloc(n + 3, sizeof *first);
	size_t *kids = xcalloc(n + 1, sizeof *kids);
	for (size_t i = 0; i < n; i++)
		first[(size_t)(s->topics[i].parent + 1) + 1]++;
	for (size_t p = 1; p < n + 2; p++)
		first[p] += first[p - 1];
	size_t *at = xcalloc(n + 2, sizeof *at);
	memcpy(at, first, (n + 2) * sizeof *at);
	for (size_t i = 0; i < n; i++)
		kids[at[s->topics[i].parent + 1]++] = i;
	free(at);
	s->nav_first = first;
	s->nav_kids = kids;
}

bool view_topic_listed(const struct topic *t) { return !t->unsorted && t->nresources; }

bool view_topic_has_page(const struct topic *t) { return !(t->unsorted && !t->nresources); }

/* The sidebar's entries for parent's children (nav_level, below). */
static struct val *nav_level(const struct site *s, int parent, const int *branch, size_t nbranch,
			     size_t depth, int current, const char *root);

/* Topic i as an entry of the sidebar, into list; its children listed when
 * the tree is whole or i is on the branch (on). */
static void nav_item(const struct site *s, size_t i, int on, const int *branch, size_t nbranch,
		     size_t depth, int current, const char *root, struct val *list)
{
	const struct topic *t = &s->topics[i];
	char *dir = view_topic_dir(s, i);
	struct val *m = val_push(list, view_link(root, t->title, dir));
	free(dir);
	/* no count: the tree is on every page (a topic's count is on its own
	 * page and on the home page) */
	val_setk_bool(m, "current", (int)i == current);
	val_setk_bool(m, "more", false);
	struct val *kids = !s->nav_pruned || (int)i == on
				   ? nav_level(s, (int)i, branch, nbranch, depth + 1, current, root)
				   : val_list();
	val_setk_bool(m, "has_children", kids->n > 0);
	val_setk(m, "children", kids);
}

/* The sidebar's topics. A tree of at most pages.sidebar_topics topics is
 * listed whole on every page. A larger one is pruned, as Material for MkDocs'
 * navigation.prune does: a page lists the top level and the children of each
 * topic on its own branch (its topic and that topic's ancestors), each list
 * cut to sidebar_topics entries (the branch always among them) and then ended
 * by a link to all of them. So no page's sidebar grows with site.yml: 2,000
 * topics were 2,000 links on each of 28,000 pages.
 *
 * branch[d] is the branch's topic at depth d (nbranch of them). */
static struct val *nav_level(const struct site *s, int parent, const int *branch, size_t nbranch,
			     size_t depth, int current, const char *root)
{
	struct val *list = val_list();
	int on = depth < nbranch ? branch[depth] : -1;
	size_t cap = s->nav_pruned ? (size_t)s->cfg.sidebar_topics : SIZE_MAX;
	size_t listed = 0, j = s->nav_first[parent + 1], end = s->nav_first[parent + 2];
	bool on_listed = false, cut = false;
	for (; j < end && listed < cap; j++) {
		size_t i = s->nav_kids[j];
		if (!view_topic_has_page(&s->topics[i]))
			continue;
		nav_item(s, i, on, branch, nbranch, depth, current, root, list);
		listed++;
		on_listed |= (int)i == on;
	}
	/* past the cut: the branch's own topic, and whether any other is there
	 * (looked for only that far: the level may hold thousands) */
	for (; j < end && !cut; j++) {
		size_t i = s->nav_kids[j];
		cut = (int)i != on && view_topic_has_page(&s->topics[i]);
	}
	if (on >= 0 && !on_listed && view_topic_has_page(&s->topics[on]) && s->topics[on].parent == parent)
		nav_item(s, (size_t)on, on, branch, nbranch, depth, current, root, list);
	if (cut) {
		/* the whole list: the topics index, at the parent for subtopics */
		char *where = parent < 0 ? view_topics_dir(1) : view_topics_entry(s, (size_t)parent);
		struct val *m = val_push(list, view_link(root, parent < 0 ? "All topics"
									: "All subtopics", where));
		free(where);
		val_setk_bool(m, "more", true);
		val_setk_bool(m, "current", false);
		val_setk_bool(m, "has_children", false);
		val_setk(m, "children", val_list());
	}
	return list;
}

/* The sidebar's tree for a page of topic current (-1: none). */
static struct val *nav_tree(const struct site *s, int current, const char *root)
{
	int branch[64];
	size_t nbranch = 0;
	for (int t = current; t >= 0 && nbranch < 64; t = s->topics[t].parent)
		nbranch++;
	size_t d = nbranch;
	for (int t = current; t >= 0 && d > 0; t = s->topics[t].parent)
		branch[--d] = t;
	return nav_level(s, -1, branch, nbranch, 0, current, root);
}

/* The sidebars of pages with a topic of their own, one for each topic and
 * page depth, made the first time a page asks and shared by the pages after
 * it: every document's page has its topic, and 10,000 of them made the same
 * few dozen trees, each through the navtree partial again. */
#define NAV_DEPTHS 8
struct nav_topics {
	pthread_mutex_t lock;
	size_t ntopics;
	struct val **tree, **html; /* [depth * ntopics + topic]; html NULL: none */
	char *(*render)(void *ctx, const struct val *nav);
	void *ctx;
};

static struct nav_topics *nav_topics_new(size_t ntopics)
{
	struct nav_topics *n = xcalloc(1, sizeof *n);
	pthread_mutex_init(&n->lock, NULL);
	n->ntopics = ntopics;
	n->tree = xcalloc(NAV_DEPTHS * ntopics + 1, sizeof *n->tree);
	n->html = xcalloc(NAV_DEPTHS * ntopics + 1, sizeof *n->html);
	return n;
}

static void nav_topics_free(struct nav_topics *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < NAV_DEPTHS * n->ntopics; i++) {
		val_free(n->tree[i]);
		val_free(n->html[i]);
	}
	free(n->tree);
	free(n->html);
	pthread_mutex_destroy(&n->lock);
	free(n);
}

void view_nav_render_with(struct site *s, char *(*render)(void *ctx, const struct val *nav),
			  void *ctx)
{
	if (!s->nav_topics)
		return;
	s->nav_topics->render = render;
	s->nav_topics->ctx = ctx;
}

/* Page v's sidebar for topic `current` at depth: the shared one, made now
 * if no page made it before (on the heap, not in the page's arena); false
 * when there is none to share. */
static bool nav_shared_for_topic(const struct site *s, struct val *v, size_t depth,
				 int current, const char *root)
{
	struct nav_topics *n = s->nav_topics;
	if (!n || depth >= NAV_DEPTHS || current < 0 || (size_t)current >= n->ntopics)
		return false;
	size_t k = depth * n->ntopics + (size_t)current;
	pthread_mutex_lock(&n->lock);
	if (!n->tree[k]) {
		struct val_arena *page = val_arena_use(NULL);
		n->tree[k] = nav_tree(s, current, root);
		char *html = n->render ? n->render(n->ctx, n->tree[k]) : NULL;
		if (html)
			n->html[k] = val_str_own(html);
		val_arena_use(page);
	}
	const struct val *tree = n->tree[k], *html = n->html[k];
	pthread_mutex_unlock(&n->lock);
	val_setk(v, "nav", val_ref(tree));
	if (html)
		val_setk(v, "nav_html", val_ref(html));
	return true;
}

void view_prepare(struct site *s)
{
	/* each document's topic and its place there: asked for by its page, its
	 * inputs and its neighbours' */
	if (!s->doc_primary) { /* not made by the taxonomy: more than 64 topics */
		s->doc_primary = xcalloc(s->ndocs + 1, sizeof *s->doc_primary);
		pool_run(s->jobs, s->ndocs, primary_task, s);
	}
	s->doc_topic_pos = xcalloc(s->ndocs + 1, sizeof *s->doc_topic_pos);
	for (size_t d = 0; d < s->ndocs; d++)
		s->doc_topic_pos[d] = -1;
	for (size_t t = 0; t < s->ntopics; t++)
		for (size_t i = 0; i < s->topics[t].ndocs; i++) {
			size_t d = s->topics[t].docs[i];
			if (s->doc_primary[d] == (int)t && s->doc_topic_pos[d] < 0)
				s->doc_topic_pos[d] = (long)i;
		}
	topic_kids_make(s);
	view_lists_prepare(s);
	size_t shown = 0;
	for (size_t t = 0; t < s->ntopics; t++)
		shown += view_topic_has_page(&s->topics[t]);
	s->nav_pruned = shown > (size_t)s->cfg.sidebar_topics;
	for (size_t depth = 0; depth < 8; depth++) {
		struct buf root = BUF_INIT;
		for (size_t k = 0; k < depth; k++)
			buf_puts(&root, "../");
		if (!depth)
			buf_puts(&root, "./");
		s->nav_cache[depth] = nav_tree(s, -1, buf_cstr(&root));
		buf_free(&root);
	}
	s->nav_topics = nav_topics_new(s->ntopics);
}

void view_release(struct site *s)
{
	free(s->doc_primary);
	s->doc_primary = NULL;
	free(s->doc_topic_pos);
	s->doc_topic_pos = NULL;
	view_lists_release(s);
	free(s->nav_first);
	free(s->nav_kids);
	s->nav_first = s->nav_kids = NULL;
	for (size_t depth = 0; depth < 8; depth++) {
		val_free(s->nav_cache[depth]);
		s->nav_cache[depth] = NULL;
		val_free(s->nav_html[depth]);
		s->nav_html[depth] = NULL;
	}
	nav_topics_free(s->nav_topics);
	s->nav_topics = NULL;
}

/* The fields every page has. dir: the page's folder relative to the root. */
struct val *view_base(const struct site *s, const char *dir, const char *kind, const char *title,
			const char *desc, int current_topic)
{
	char *root = path_root_prefix(dir);
	if (!*dir) {
		free(root);
		root = xstrdup("./");
	}
	struct val *v = val_map();
	struct val *site = val_setk(v, "site", val_map());
	val_setk_str(site, "title", s->cfg.title);
	val_setk_str(site, "description", s->cfg.description);
	val_setk_str(site, "language", s->cfg.language);
	val_setk_str(site, "base_url", s->cfg.base_url);
	val_setk_str(site, "repo", s->cfg.repo);
	/* no site-wide counts here: one new link would change every page (see
	 * site_counts, for the pages that show them) */
	val_setk_str(v, "root", root);
	struct val *page = val_setk(v, "page", val_map());
	val_setk_str(page, "kind", kind);
	val_setk_str(page, "title", title);
	val_setk_str(page, "description", desc ? desc : s->cfg.description);
	val_setk_str(page, "path", dir);
	val_setk_bool(page, "is_home", !*dir && !strcmp(kind, "home"));
	/* canonical URL: absolute when base_url is */
	const char *bu = s->cfg.base_url;
	if (!strncmp(bu, "http://", 7) || !strncmp(bu, "https://", 8)) {
		size_t bl = strlen(bu);
		val_setk(page, "canonical",
			val_str_own(xasprintf("%s%s%s", bu, bl && bu[bl - 1] == '/' ? "" : "/", dir)));
	}
	size_t depth = 0;
	for (const char *p = dir; *p; p++)
		depth += *p == '/';
	if (current_topic < 0 && depth < 8 && s->nav_cache[depth]) {
		val_setk(v, "nav", val_ref(s->nav_cache[depth]));
		if (s->nav_html[depth])
			val_setk(v, "nav_html", val_ref(s->nav_html[depth]));
	}
	else if (!nav_shared_for_topic(s, v, depth, current_topic, root))
		val_setk(v, "nav", nav_tree(s, current_topic, root));
	val_setk(v, "breadcrumbs", val_list());
	free(root);
	return v;
}

const char *view_root(const struct val *v) { return val_get(v, "root")->s; }

/* The site's counts, on the pages that show them (home, the document list,
 * the A-Z index) and on no other: these change with almost every edit. */
void view_site_counts(const struct site *s, struct val *v)
{
	struct val *site = (struct val *)val_get(v, "site");
	val_setk_int(site, "documents", (long long)s->ndocs);
	val_setk_int(site, "resources", (long long)s->nres);
	val_setk_int(site, "topics", (long long)(s->ntopics - 1));
}

static struct val *view_crumbs(struct val *v) { return (struct val *)val_get(v, "breadcrumbs"); }

static const char *section_title(const struct doc *d, int h)
{
	return h >= 0 ? d->headings[h].text : "";
}

/* A link to where a document cites a resource: its section, else its top. */
static struct val *cite_link(const struct site *s, const char *root, const struct cite_ref *ref)
{
	const struct doc *d = &s->docs[ref->doc];
	int h = d->cites[ref->cite].heading;
	const char *parts[4] = {root, d->url, h >= 0 ? "#" : "", h >= 0 ? d->headings[h].id : ""};
	struct val *m = val_map();
	val_setk_lasting(m, "title", d->title);
	val_setk(m, "url", val_concatv(parts, 4));
	return m;
}

/* The resource's own page, or its entry on the A-Z index. */
static struct val *resource_url(const struct resource *r, const char *root)
{
	const char *parts[4] = {root};
	html_resource_url_parts(r, parts + 1);
	return val_concatv(parts, 4);
}

/* One resource as listed on topic, index and quick-reference pages; the
 * A-Z index gives each entry its slug as its element id (anchored). */
static struct val *view_resource_item(const struct site *s, size_t ri, const char *root,
				       bool with_cites, bool anchored)
{
	const struct resource *r = &s->res[ri];
	struct val *m = val_map();
	val_setk_lasting(m, "title", r->title);
	val_setk(m, "url", resource_url(r, root));
	val_setk_lasting(m, "id", r->slug);
	/* the element id: only the A-Z index carries one (a resource may be listed
	 * twice on other pages, and ids must be unique) */
	val_setk_lasting(m, "anchor", anchored ? r->slug : "");
	val_setk_lasting(m, "href", r->canonical);
	val_setk_lasting(m, "host", r->host);
	val_setk_lasting(m, "description", r->desc ? r->desc : "");
	val_setk_bool(m, "has_page", r->has_page);
	val_setk_int(m, "documents", (long long)r->ndocs);
	val_setk_bool(m, "cited_by_many", r->ndocs > 1);
	val_setk_bool(m, "pinned", r->pinned);
	/* always set: a missing key would be looked up in the enclosing contexts */
	val_setk_lasting(m, "kind", r->kind >= 0 ? s->cfg.kinds[r->kind].title : "");
	val_setk_lasting(m, "kind_id", r->kind >= 0 ? s->cfg.kinds[r->kind].id : "");
	struct val *cl = val_setk(m, "cited_in", val_list());
	if (with_cites) {
		/* a few citing documents; the resource's own page lists them all */
		size_t last = (size_t)-1;
		for (size_t i = 0; i < r->nrefs && cl->n < VIEW_CITED_IN; i++) {
			const struct cite_ref *ref = &r->refs[i];
			if (ref->doc == last)
				continue; /* one link per document: its first citing section */
			last = ref->doc;
			const struct doc *d = &s->docs[ref->doc];
			struct val *c = val_push(cl, cite_link(s, root, ref));
			val_setk_lasting(c, "section", section_title(d, d->cites[ref->cite].heading));
		}
		val_setk_int(m, "more_cited_in", (long long)(r->ndocs - cl->n));
		val_setk_bool(m, "has_more_cited_in", r->ndocs > cl->n);
	}
	return m;
}

/* A list's entries ask for their memory ahead, one stage further the
 * further ahead the entry: the resource, its strings and citations, then
 * model_prefetch_refs's stages for the documents the entry names. */
#define ITEM_STAGES (2 + MODEL_REF_STAGES)

static void prefetch_item(const struct site *s, size_t ri, int stage, bool with_cites,
			  bool cites_unless_page)
{
	const struct resource *r = &s->res[ri];
	if (stage == 0) {
		model_prefetch_resource(r);
		return;
	}
	if (stage == 1) {
		__builtin_prefetch(r->title);
		__builtin_prefetch(r->canonical);
		__builtin_prefetch(r->host);
		__builtin_prefetch(r->desc);
		__builtin_prefetch(r->refs);
		return;
	}
	/* the resource asked for two entries back: has_page is there by now */
	if (cites_unless_page ? !r->has_page : with_cites)
		model_prefetch_refs(s, r->refs, r->nrefs < VIEW_CITED_IN * 2 ? r->nrefs
									 : VIEW_CITED_IN * 2,
				    stage - 2);
}

/* Entry i of a list of n resources (order) asks for the ones after it; not
 * when entries may be taken from the page in place (items->find): most are. */
static void prefetch_items(const struct site *s, const struct view_items *items,
			   const size_t *order, size_t i, size_t n, bool with_cites,
			   bool cites_unless_page)
{
	if (items && items->find)
		return;
	for (int stage = 0; stage < ITEM_STAGES; stage++) {
		size_t k = i + ITEM_STAGES - (size_t)stage;
		if (k < n)
			prefetch_item(s, order[k], stage, with_cites, cites_unless_page);
	}
}

/* An entry of a list, numbered and noted in items (when given), or the
 * fragment of the page in place that stands for it. */
struct val *view_listed_item(const struct site *s, struct view_items *items, size_t ri,
			     const char *root, bool with_cites, bool anchored)
{
	if (!items)
		return view_resource_item(s, ri, root, with_cites, anchored);
	items->v = xgrow(items->v, &items->cap, items->n + 1, sizeof *items->v);
	struct view_item *it = &items->v[items->n++];
	*it = (struct view_item){ri, with_cites, anchored};
	uint32_t number = (uint32_t)items->n;
	size_t len = 0;
	const char *bytes = items->find ? items->find(items->ctx, it, &len) : NULL;
	if (bytes)
		return val_fragment(bytes, len, number);
	struct val *m = view_resource_item(s, ri, root, with_cites, anchored);
	m->item = number;
	return m;
}

/* How many resources a document cites: its citations' resources sorted
 * and counted once each (a document of 100,000 links is not compared link
 * by link). */
static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static size_t distinct_resources(const struct doc *d)
{
	long *r = xcalloc(d->ncites + 1, sizeof *r);
	size_t n = 0;
	for (size_t i = 0; i < d->ncites; i++)
		if (d->cites[i].resource >= 0)
			r[n++] = d->cites[i].resource;
	qsort(r, n, sizeof *r, cmp_long);
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++)
		distinct += !i || r[i] != r[i - 1];
	free(r);
	return distinct;
}

/* ---- document page ------------------------------------------------------- */

/* "2024-05-01" -> "1 May 2024"; anything else is returned as written. */
static char *human_date(const char *iso)
{
	static const char *months[] = {"January", "February", "March",     "April",
				       "May",     "June",     "July",      "August",
				       "September", "October", "November", "December"};
	int y, mo, da, used = 0;
	if (strlen(iso) == 10 && sscanf(iso, "%4d-%2d-%2d%n", &y, &mo, &da, &used) == 3 &&
	    used == 10 && mo >= 1 && mo <= 12 && da >= 1 && da <= 31)
		return xasprintf("%d %s %d", da, months[mo - 1], y);
	return xstrdup(iso);
}

static struct val *doc_toc(const struct doc *d)
{
	struct val *toc = val_list();
	int top = 7;
	for (size_t i = 0; i < d->nheadings; i++)
		if (d->headings[i].level < top)
			top = d->headings[i].level;
	for (size_t i = 0; i < d->nheadings; i++) {
		const struct heading *h = &d->headings[i];
		/* the title heading is the page title, not an entry */
		if (i == 0 && h->level == top && h->level == 1)
			continue;
		if (h->level > 4)
			continue;
		struct val *m = val_push(toc, val_map());
		val_setk_str(m, "id", h->id);
		val_setk_str(m, "text", h->text);
		val_setk_int(m, "level", h->level);
	}
	return toc;
}

void view_doc_neighbours(const struct site *s, size_t di, long *prev, long *next)
{
	int primary = s->doc_primary[di];
	long i = s->doc_topic_pos[di];
	*prev = *next = -1;
	if (primary < 0 || i < 0)
		return;
	const struct topic *t = &s->topics[primary];
	*prev = i > 0 ? (long)t->docs[i - 1] : -1;
	*next = (size_t)i + 1 < t->ndocs ? (long)t->docs[i + 1] : -1;
}

struct val *view_doc(const struct site *s, size_t di, const char *body)
{
	const struct doc *d = &s->docs[di];
	int primary = view_doc_topic(s, di);
	struct val *v = view_base(s, d->url, "doc", d->title, d->description, primary);
	const char *root = view_root(v);
	add_breadcrumb_topics(s, view_crumbs(v), primary, root);
	struct val *m = val_setk(v, "doc", val_map());
	val_setk_str(m, "title", d->title);
	val_setk_str(m, "description", d->description ? d->description : "");
	val_setk_str(m, "body", body);
	val_setk_str(m, "source", d->shown);
	struct val *toc = val_setk(m, "toc", doc_toc(d));
	val_setk_bool(m, "has_toc", toc->n > 1);
	if (d->meta.updated) {
		val_setk_str(m, "updated", d->meta.updated);
		val_setk(m, "updated_text", val_str_own(human_date(d->meta.updated)));
	}
	/* a body without a level-1 heading gets the title as its <h1> */
	val_setk_bool(m, "has_h1", d->nheadings && d->headings[0].level == 1);
	if (d->meta.date)
		val_setk_str(m, "date", d->meta.date);
	if (*s->cfg.repo)
		val_setk(m, "edit_url", val_str_own(xasprintf("%s/edit/%s/content/%s", s->cfg.repo,
							     s->cfg.repo_branch, d->relpath)));
	/* its topics, most of its resources first */
	size_t *counts = xcalloc(s->ntopics + 1, sizeof *counts);
	topic_counts(s, di, counts);
	struct val *tl = val_setk(m, "topics", val_list());
	for (int k = 0; k < 6; k++) {
		long best = -1;
		for (size_t t = 0; t < s->ntopics; t++)
			if (counts[t] && (best < 0 || counts[t] > counts[best]))
				best = (long)t;
		if (best < 0)
			break;
		char *dir = view_topic_dir(s, (size_t)best);
		val_push(tl, view_link(root, s->topics[best].title, dir));
		free(dir);
		counts[best] = 0;
	}
	free(counts);
	size_t rel[5];
	size_t nrel = xref_related(s, di, rel, 5);
	struct val *rl = val_setk(m, "related", val_list());
	for (size_t i = 0; i < nrel; i++)
		val_push(rl, view_link(root, s->docs[rel[i]].title, s->docs[rel[i]].url));
	val_setk_bool(m, "has_related", nrel > 0);
	/* previous / next within the primary topic */
	long prev, next;
	view_doc_neighbours(s, di, &prev, &next);
	if (prev >= 0)
		val_setk(m, "prev", view_link(root, s->docs[prev].title, s->docs[prev].url));
	if (next >= 0)
		val_setk(m, "next", view_link(root, s->docs[next].title, s->docs[next].url));
	val_setk_bool(m, "has_pager", val_get(m, "prev") || val_get(m, "next"));
	val_setk_int(m, "resources", (long long)distinct_resources(d));
	return v;
}

/* ---- topic page ------------------------------------------------------------ */

/* A topic's related topics: its parent, then its siblings with resources,
 * in site.yml's order. A level of more than pages.sidebar_topics siblings
 * gives the ones nearest the topic, as many as that (a site.yml of 2,000
 * topics listed 1,999 on each topic's page). */
static void related_topics(const struct site *s, size_t ti, const char *root, struct val *rel)
{
	const struct topic *t = &s->topics[ti];
	if (t->parent >= 0 && view_topic_listed(&s->topics[t->parent])) {
		char *rd = view_topic_dir(s, (size_t)t->parent);
		val_push(rel, view_link(root, s->topics[t->parent].title, rd));
		free(rd);
	}
	const size_t *kids = s->nav_kids + s->nav_first[t->parent + 1];
	size_t nkids = s->nav_first[t->parent + 2] - s->nav_first[t->parent + 1];
	size_t *sib = xcalloc(nkids + 1, sizeof *sib), n = 0, self = 0;
	for (size_t j = 0; j < nkids; j++) {
		const struct topic *o = &s->topics[kids[j]];
		if (kids[j] == ti)
			self = n;
		else if (view_topic_listed(o))
			sib[n++] = kids[j];
	}
	/* the window of cap siblings around the topic's place among them */
	size_t cap = (size_t)s->cfg.sidebar_topics, lo = 0;
	if (n > cap) {
		lo = self > cap / 2 ? self - cap / 2 : 0;
		if (lo > n - cap)
			lo = n - cap;
	}
	for (size_t j = lo; j < n && j < lo + cap; j++) {
		char *rd = view_topic_dir(s, sib[j]);
		val_push(rel, view_link(root, s->topics[sib[j]].title, rd));
		free(rd);
	}
	free(sib);
}

/* The pages either side of the current one a pager names; the first and
 * the last are named too, gaps between them marked. */
#define PAGER_SPAN 2

/* A list's pager: prev, next, and its pages (n, url, current, gap), the
 * first, the last and PAGER_SPAN either side of this one, with a gap entry
 * where numbers are skipped: a topic of 2,000 pages named all 2,000 on
 * each of them. `dir(k)` is the folder of page k (1-based). */
struct val *view_pager(const char *root, size_t page, size_t npages,
			 char *(*dir)(const void *ctx, size_t k), const void *ctx)
{
	struct val *p = val_map();
	struct val *pages = val_setk(p, "pages", val_list());
	size_t lo = page > PAGER_SPAN + 1 ? page - PAGER_SPAN : 1;
	size_t hi = page + PAGER_SPAN < npages ? page + PAGER_SPAN : npages;
	if (lo == 3)
		lo = 2; /* a gap of one page is that page */
	if (hi + 2 == npages)
		hi = npages - 1;
	for (size_t k = 1; k <= npages; k++) {
		if (k != 1 && k != npages && (k < lo || k > hi)) {
			/* one gap for a run of pages not named */
			struct val *g = val_push(pages, val_map());
			val_setk_bool(g, "gap", true);
			val_setk_bool(g, "current", false);
			k = k < lo ? lo - 1 : npages - 1;
			continue;
		}
		char *d = dir(ctx, k);
		struct val *e = val_push(pages, val_map());
		val_setk_int(e, "n", (long long)k);
		val_setk(e, "url", val_concat(root, d));
		val_setk_bool(e, "current", k == page);
		val_setk_bool(e, "gap", false);
		if (k + 1 == page)
			val_setk(p, "prev", val_concat(root, d));
		if (k == page + 1)
			val_setk(p, "next", val_concat(root, d));
		free(d);
	}
	return p;
}

struct topic_page_ctx {
	const struct site *s;
	size_t ti;
};

static char *topic_page_dir(const void *ctx, size_t k)
{
	const struct topic_page_ctx *c = ctx;
	char *d = view_topic_dir(c->s, c->ti);
	if (k <= 1)
		return d;
	char *p = xasprintf("%s%zu/", d, k);
	free(d);
	return p;
}

char *view_topic_page_dir(const struct site *s, size_t ti, size_t page)
{
	struct topic_page_ctx c = {s, ti};
	return topic_page_dir(&c, page);
}

struct val *view_topic(const struct site *s, size_t ti, size_t page, struct view_items *items)
{
	const struct topic *t = &s->topics[ti];
	struct topic_page_ctx pc = {s, ti};
	char *dir = topic_page_dir(&pc, page);
	struct val *v = view_base(s, dir, "topic", t->title, t->description, (int)ti);
	free(dir);
	const char *root = view_root(v);
	add_breadcrumb_topics(s, view_crumbs(v), t->parent, root);
	struct val *m = val_setk(v, "topic", val_map());
	val_setk_str(m, "id", t->id);
	val_setk_str(m, "title", t->title);
	val_setk_str(m, "description", t->description);
	val_setk_int(m, "count", (long long)t->nresources);
	val_setk_bool(m, "unsorted", t->unsorted);
	struct val *q = val_setk(m, "quick", val_list());
	for (size_t i = 0; i < t->nquick && page == 1; i++)
		val_push(q, view_listed_item(s, items, t->quick[i], root, false, false));
	val_setk_bool(m, "has_quick", t->nquick > 0 && page == 1);
	/* this page's slice of the listing (by kind, then title), grouped by kind */
	size_t per = (size_t)s->cfg.per_page;
	size_t from = (page - 1) * per, to = from + per;
	if (to > t->nresources)
		to = t->nresources;
	struct val *groups = val_setk(m, "groups", val_list());
	struct val *list = NULL;
	long cur = -2;
	for (size_t i = from; i < to; i++) {
		prefetch_items(s, items, t->listing, i, to, true, false);
		const struct resource *r = &s->res[t->listing[i]];
		if (!list || r->kind != cur) {
			cur = r->kind;
			struct val *g = val_push(groups, val_map());
			val_setk_str(g, "title", cur >= 0 ? s->cfg.kinds[cur].title : "Other");
			val_setk_str(g, "id", cur >= 0 ? s->cfg.kinds[cur].id : "other");
			list = val_setk(g, "resources", val_list());
		}
		val_push(list, view_listed_item(s, items, t->listing[i], root, true, false));
	}
	val_setk_int(m, "page", (long long)page);
	val_setk_int(m, "page_number", (long long)page); /* as the other lists name it */
	val_setk_int(m, "pages", (long long)t->npages);
	val_setk_bool(m, "paged", t->npages > 1);
	if (t->npages > 1)
		val_setk(m, "pager", view_pager(root, page, t->npages, topic_page_dir, &pc));
	/* its subtopics, as many as the sidebar lists; all of them are on the
	 * topics index (a topic of 2,000 children listed them on each page) */
	struct val *subs = val_setk(m, "subtopics", val_list());
	size_t cap = (size_t)s->cfg.sidebar_topics;
	for (size_t i = 0; i < t->nchildren && i < cap; i++) {
		char *cd = view_topic_dir(s, (size_t)t->children[i]);
		struct val *c = val_push(subs, view_link(root, s->topics[t->children[i]].title, cd));
		val_setk_int(c, "count", (long long)s->topics[t->children[i]].nresources);
		free(cd);
	}
	val_setk_bool(m, "has_subtopics", t->nchildren > 0);
	val_setk_bool(m, "more_subtopics", t->nchildren > cap);
	val_setk_int(m, "nsubtopics", (long long)t->nchildren);
	if (t->nchildren > cap) {
		char *all = view_topics_entry(s, ti);
		val_setk(m, "all_subtopics", val_concat(root, all));
		free(all);
	}
	struct val *docs = val_setk(m, "documents", val_list());
	for (size_t i = 0; i < t->ndocs && i < 50; i++)
		val_push(docs, view_link(root, s->docs[t->docs[i]].title, s->docs[t->docs[i]].url));
	related_topics(s, ti, root, val_setk(m, "related", val_list()));
	return v;
}

/* ---- resource page --------------------------------------------------------- */

/* s pushed onto list unless empty or there already: NULL then. */
static struct val *push_distinct(struct val *list, const char *s)
{
	if (!s || !*s)
		return NULL;
	for (size_t i = 0; i < list->n; i++)
		if (!strcmp(list->items[i]->s, s))
			return NULL;
	return val_push(list, val_str_lasting(s));
}

struct val *view_resource(const struct site *s, size_t ri)
{
	const struct resource *r = &s->res[ri];
	char *dir = view_resource_dir(s, ri);
	int first_topic = r->ntopics ? r->topics[0] : -1;
	/* the shared navigation (no topic highlighted): 30,000 resource pages must
	 * not each build their own; the breadcrumbs still name the topic */
	struct val *v = view_base(s, dir, "resource", r->title, r->desc, -1);
	free(dir);
	const char *root = view_root(v);
	add_breadcrumb_topics(s, view_crumbs(v), first_topic, root);
	struct val *m = val_setk(v, "resource", view_resource_item(s, ri, root, false, false));
	struct val *titles = val_setk(m, "titles", val_list());
	struct val *descs = val_setk(m, "descriptions", val_list());
	struct val *cites = val_setk(m, "citations", val_list());
	/* a page stays bounded however many documents cite the resource */
	size_t limit = (size_t)s->cfg.per_page;
	for (size_t i = 0; i < r->nrefs; i++) {
		model_prefetch_refs_ahead(s, r->refs, r->nrefs, i);
		const struct doc *d = &s->docs[r->refs[i].doc];
		const struct citation *c = &d->cites[r->refs[i].cite];
		if (titles->n < 20)
			push_distinct(titles, c->title);
		struct val *dv = descs->n < VIEW_RESOURCE_DESCS ? push_distinct(descs, c->desc) : NULL;
		if (dv) /* numbered: where each goes is noted (page_items.h) */
			dv->item = (uint32_t)descs->n;
		if (cites->n >= limit)
			continue;
		struct val *cv = val_push(cites, cite_link(s, root, &r->refs[i]));
		val_setk_lasting(cv, "section", section_title(d, c->heading));
		val_setk_lasting(cv, "text", c->text);
		val_setk_lasting(cv, "source", d->shown);
		val_setk_int(cv, "line", c->line);
	}
	if (r->link_status) {
		val_setk_str(m, "link_status", r->link_status);
		val_setk_str(m, "link_result", r->link_result);
	}
	val_setk_int(m, "more_citations", (long long)(r->nrefs - cites->n));
	val_setk_bool(m, "has_more_citations", r->nrefs > cites->n);
	val_setk_bool(m, "many_titles", titles->n > 1);
	model_spellings(s, r);
	/* its spellings, as many as its citations (120,000 spellings of one
	 * resource made a page of 7.4 MB); resources.json has them all */
	struct val *sp = val_setk(m, "spellings", val_list());
	for (size_t i = 0; i < r->nspellings && i < limit; i++)
		val_push(sp, val_str(r->spellings[i]));
	val_setk_bool(m, "many_spellings", r->nspellings > 1);
	val_setk_int(m, "more_spellings", (long long)(r->nspellings - sp->n));
	val_setk_bool(m, "has_more_spellings", r->nspellings > sp->n);
	struct val *tl = val_setk(m, "topics", val_list());
	for (size_t i = 0; i < r->ntopics; i++) {
		char *td = view_topic_dir(s, (size_t)r->topics[i]);
		val_push(tl, view_link(root, s->topics[r->topics[i]].title, td));
		free(td);
	}
	return v;
}

/* ---- the A-Z index, 404 ------------------------------------------------------- */

struct val *view_resource_index(const struct site *s, size_t chunk, struct view_items *items)
{
	/* chunk == s->nchunks: the landing page of a multi-page index */
	bool single = s->nchunks && !strcmp(s->chunks[0].dir, "resources/");
	const char *dir = chunk < s->nchunks ? s->chunks[chunk].dir : "resources/";
	struct val *v = view_base(s, dir, "index", "All resources", NULL, -1);
	/* the site's and the letters' counts on the index's first page only: a
	 * page of one letter shows nothing that a resource under another letter
	 * changes (a new link rewrites its letter's pages, not all 140) */
	bool whole = single || chunk >= s->nchunks;
	if (whole)
		view_site_counts(s, v);
	val_setk_bool(v, "counts", whole);
	const char *root = view_root(v);
	if (chunk < s->nchunks && !single)
		val_push(view_crumbs(v), view_link(root, "All resources", "resources/"));
	/* the letters, each linking to its first page */
	struct val *nav = val_setk(v, "letter_nav", val_list());
	for (size_t c = 0; c < s->nchunks; c++) {
		if (s->chunks[c].part != 1)
			continue;
		size_t n = 0;
		for (size_t k = c; k < s->nchunks && s->chunks[k].letter == s->chunks[c].letter; k++)
			n += s->chunks[k].n;
		char name[2] = {s->chunks[c].letter, 0};
		char id[2] = {s->chunks[c].letter == '#' ? '0' : (char)tolower(s->chunks[c].letter), 0};
		struct val *e = val_push(nav, val_map());
		val_setk_str(e, "letter", name);
		val_setk_str(e, "id", id);
		val_setk(e, "url", single ? val_str_own(xasprintf("#ssg-letter-%s", id))
					 : val_concat(root, s->chunks[c].dir));
		val_setk_int(e, "count", (long long)n);
		val_setk_bool(e, "counted", whole);
	}
	/* the entries of this page, as letter sections */
	struct val *letters = val_setk(v, "letters", val_list());
	size_t *kind_counts = xcalloc(s->cfg.nkinds + 1, sizeof *kind_counts);
	for (size_t c = 0; c < s->nchunks; c++) {
		if (!(single || c == chunk))
			continue;
		const struct index_chunk *ch = &s->chunks[c];
		char name[2] = {ch->letter, 0};
		char id[2] = {ch->letter == '#' ? '0' : (char)tolower(ch->letter), 0};
		struct val *g = val_push(letters, val_map());
		val_setk_str(g, "letter", name);
		val_setk_str(g, "id", id);
		struct val *cur = val_setk(g, "resources", val_list());
		for (size_t k = 0; k < ch->n; k++) {
			prefetch_items(s, items, s->index_order + ch->start, k, ch->n, false, true);
			size_t ri = s->index_order[ch->start + k];
			/* a resource without a page of its own names its citing
			 * documents here, its only place */
			val_push(cur, view_listed_item(s, items, ri, root, !s->res[ri].has_page, true));
			if (s->res[ri].kind >= 0)
				kind_counts[s->res[ri].kind]++;
		}
	}
	struct val *kinds = val_setk(v, "kinds", val_list());
	for (size_t k = 0; k < s->cfg.nkinds; k++) {
		if (!kind_counts[k])
			continue;
		struct val *m = val_push(kinds, val_map());
		val_setk_str(m, "id", s->cfg.kinds[k].id);
		val_setk_str(m, "title", s->cfg.kinds[k].title);
		val_setk_int(m, "count", (long long)kind_counts[k]);
	}
	free(kind_counts);
	val_setk_bool(v, "landing", chunk >= s->nchunks && !single);
	if (chunk < s->nchunks && !single) {
		const struct index_chunk *ch = &s->chunks[chunk];
		char name[2] = {ch->letter, 0};
		val_setk(v, "part_title", val_str_own(ch->part > 1 ? xasprintf("%s (page %zu)", name, ch->part)
								   : xstrdup(name)));
		struct val *p = val_setk(v, "pager", val_map());
		if (chunk > 0)
			val_setk(p, "prev", val_concat(root, s->chunks[chunk - 1].dir));
		if (chunk + 1 < s->nchunks)
			val_setk(p, "next", val_concat(root, s->chunks[chunk + 1].dir));
	}
	return v;
}

struct val *view_not_found(const struct site *s)
{
	/* served for any missing path: links must be absolute from base_url */
	struct val *v = view_base(s, "", "404", "Page not found", NULL, -1);
	const char *bu = s->cfg.base_url;
	size_t bl = strlen(bu);
	/* val_set, not val_setk: these replace what view_base() set */
	val_set(v, "root", val_str_own(xasprintf("%s%s", bu, bl && bu[bl - 1] == '/' ? "" : "/")));
	/* the nav was built with "./": rebuild it with the absolute root */
	val_set(v, "nav", nav_tree(s, -1, view_root(v)));
	val_set(v, "nav_html", val_null());
	return v;
}
