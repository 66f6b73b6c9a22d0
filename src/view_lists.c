/* view_lists: the site's list pages (home, all documents, the topics index,
 * the quick reference) and their plans, made once per build. Each is bounded
 * by site.yml's page sizes, however many documents and topics the site has
 * (see view.h). */
#include "view.h"
#include "view_parts.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- plans ----------------------------------------------------------------- */

/* The topics under parent, then each one's own, depth first in site.yml's
 * order (nesting is at most CONFIG_TOPIC_DEPTH deep). */
static void order_under(struct site *s, int parent)
{
	for (size_t j = s->nav_first[parent + 1]; j < s->nav_first[parent + 2]; j++) {
		size_t t = s->nav_kids[j];
		if (!view_topic_has_page(&s->topics[t]))
			continue;
		s->topic_order_pos[t] = s->ntopic_order;
		s->topic_order[s->ntopic_order++] = t;
		order_under(s, (int)t);
	}
}

/* A document's "Quick reference" section at heading h as a box of at most
 * room entries: its citations are those under it (from it to the next
 * heading of its level or above), which come in document order. */
static struct quick_box section_box(const struct doc *d, size_t di, size_t h, size_t room)
{
	size_t end = h + 1;
	while (end < d->nheadings && d->headings[end].level > d->headings[h].level)
		end++;
	size_t lo = 0, hi = d->ncites;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->cites[mid].heading < (int)h)
			lo = mid + 1;
		else
			hi = mid;
	}
	struct quick_box b = {.topic = -1, .doc = di, .heading = h, .first = lo, .end = lo};
	size_t n = 0;
	for (; b.end < d->ncites && d->cites[b.end].heading < (int)end; b.end++)
		n += d->cites[b.end].resource >= 0;
	b.shown = n < room ? n : room;
	b.more = n - b.shown;
	return b;
}

/* Whether a heading names a quick reference, in any case of its ASCII
 * letters (as strcasestr finds it): the sections of 10,000 documents are
 * 150,000 headings, and strcasestr folds every byte of each. */
static bool names_quick_reference(const char *text)
{
	static const char want[] = "quick reference";
	for (const char *p = text; (p = strpbrk(p, "qQ")); p++)
		if (!strncasecmp(p, want, sizeof want - 1))
			return true;
	return false;
}

/* The quick reference's boxes and its pages. The topics' boxes come first,
 * then the documents' own sections, pages.per_page entries of them in all
 * (a box of none counts as one): the last section shown may show only its
 * first entries and link to the rest in its document, and the sections
 * past it are only counted (each is on its document's page). Listing every
 * section made 38 pages at 10,000 documents, a clean build 7 % slower. A
 * page holds whole boxes, up to pages.per_page entries. */
static void quick_plan(struct site *s)
{
	size_t per = (size_t)s->cfg.per_page, n = 0, cap = 0;
	struct quick_box *b = NULL;
	for (size_t i = 0; i < s->ntopics; i++) {
		const struct topic *t = &s->topics[i];
		if (!t->nquick || t->unsorted)
			continue;
		b = xgrow(b, &cap, n + 1, sizeof *b);
		b[n++] = (struct quick_box){.topic = (int)i, .shown = t->nquick};
	}
	size_t budget = per, left = 0;
	for (size_t di = 0; di < s->ndocs; di++) {
		const struct doc *d = &s->docs[di];
		for (size_t h = 0; h < d->nheadings; h++) {
			if (!names_quick_reference(d->headings[h].text))
				continue;
			if (!budget) {
				left++;
				continue;
			}
			b = xgrow(b, &cap, n + 1, sizeof *b);
			b[n] = section_box(d, di, h, budget);
			budget -= b[n].shown ? b[n].shown : 1;
			n++;
		}
	}
	s->quick_sections_left = left;
	size_t *first = xcalloc(n + 2, sizeof *first), pages = 1, used = 0;
	for (size_t k = 0; k < n; k++) {
		size_t w = b[k].shown ? b[k].shown : 1;
		if (used && used + w > per) {
			first[pages++] = k;
			used = 0;
		}
		used += w;
	}
	first[pages] = n;
	s->quick_boxes = b;
	s->nquick_boxes = n;
	s->quick_page_first = first;
	s->nquick_pages = pages;
}

void view_lists_prepare(struct site *s)
{
	s->topic_order = xcalloc(s->ntopics + 1, sizeof *s->topic_order);
	s->topic_order_pos = xcalloc(s->ntopics + 1, sizeof *s->topic_order_pos);
	for (size_t t = 0; t < s->ntopics; t++)
		s->topic_order_pos[t] = SIZE_MAX;
	s->ntopic_order = 0;
	order_under(s, -1);
	quick_plan(s);
}

void view_lists_release(struct site *s)
{
	free(s->topic_order);
	free(s->topic_order_pos);
	s->topic_order = s->topic_order_pos = NULL;
	s->ntopic_order = 0;
	free(s->quick_boxes);
	free(s->quick_page_first);
	s->quick_boxes = NULL;
	s->quick_page_first = NULL;
	s->nquick_boxes = s->nquick_pages = s->quick_sections_left = 0;
}

/* ---- home and all documents ---------------------------------------------- */

static struct val *doc_item(const struct site *s, size_t i, const char *root)
{
	struct val *m = view_link(root, s->docs[i].title, s->docs[i].url);
	val_setk_str(m, "description", s->docs[i].description ? s->docs[i].description : "");
	val_setk_int(m, "links", (long long)s->docs[i].ncites);
	return m;
}

size_t view_documents_pages(const struct site *s)
{
	size_t per = (size_t)s->cfg.per_page;
	return s->ndocs ? (s->ndocs + per - 1) / per : 1;
}

static char *documents_dir(const void *ctx, size_t k)
{
	(void)ctx;
	return k <= 1 ? xstrdup("documents/") : xasprintf("documents/%zu/", k);
}

char *view_documents_dir(size_t page)
{
	return documents_dir(NULL, page);
}

/* A page of a list of the whole site: its fields and the site's counts. */
static struct val *list_page(const struct site *s, char *(*dir_of)(const void *, size_t),
			     size_t page, const char *kind, const char *title)
{
	char *dir = dir_of(NULL, page);
	struct val *v = view_base(s, dir, kind, title, NULL, -1);
	free(dir);
	view_site_counts(s, v);
	return v;
}

struct val *view_documents(const struct site *s, size_t page)
{
	struct val *v = list_page(s, documents_dir, page, "documents", "All documents");
	const char *root = view_root(v);
	size_t per = (size_t)s->cfg.per_page, npages = view_documents_pages(s);
	struct val *docs = val_setk(v, "documents", val_list());
	for (size_t i = (page - 1) * per; i < s->ndocs && i < page * per; i++)
		val_push(docs, doc_item(s, i, root));
	if (npages > 1)
		val_setk(v, "pager", view_pager(root, page, npages, documents_dir, NULL));
	return v;
}

struct val *view_home(const struct site *s)
{
	struct val *v = view_base(s, "", "home", s->cfg.title, s->cfg.description, -1);
	view_site_counts(s, v);
	const char *root = view_root(v);
	struct val *docs = val_setk(v, "documents", val_list());
	size_t shown = s->ndocs < VIEW_HOME_DOCS ? s->ndocs : VIEW_HOME_DOCS;
	for (size_t i = 0; i < shown; i++)
		val_push(docs, doc_item(s, i, root));
	val_setk_bool(v, "more_documents", s->ndocs > shown);
	/* the top-level topics with resources, as many as the sidebar lists;
	 * all of them are on the topics index (a site.yml of 2,000 topics made
	 * a home page of 2,000 cards) */
	struct val *topics = val_setk(v, "topics", val_list());
	size_t cap = (size_t)s->cfg.sidebar_topics;
	bool more = false;
	for (size_t i = 0; i < s->ntopics; i++) {
		const struct topic *t = &s->topics[i];
		if (t->parent >= 0 || !t->nresources)
			continue;
		if (topics->n == cap) {
			more = true;
			break;
		}
		char *td = view_topic_dir(s, i);
		struct val *m = val_push(topics, view_link(root, t->title, td));
		free(td);
		val_setk_str(m, "description", t->description);
		val_setk_int(m, "count", (long long)t->nresources);
	}
	val_setk_bool(v, "more_topics", more);
	val_setk_int(v, "unsorted", (long long)s->unsorted_count);
	return v;
}


/* ---- the topics index ------------------------------------------------------ */

static char *topics_dir(const void *ctx, size_t k)
{
	(void)ctx;
	return k <= 1 ? xstrdup("topics/") : xasprintf("topics/%zu/", k);
}

char *view_topics_dir(size_t page) { return topics_dir(NULL, page); }

size_t view_topics_pages(const struct site *s)
{
	size_t per = (size_t)s->cfg.per_page;
	return s->ntopic_order ? (s->ntopic_order + per - 1) / per : 1;
}

char *view_topics_entry(const struct site *s, size_t t)
{
	size_t pos = s->topic_order_pos[t];
	if (pos == SIZE_MAX)
		return xstrdup("topics/");
	char *dir = topics_dir(NULL, pos / (size_t)s->cfg.per_page + 1);
	char *at = xconcat(dir, "#ssg-topic-", s->topics[t].id, NULL);
	free(dir);
	return at;
}

struct val *view_topics(const struct site *s, size_t page)
{
	struct val *v = list_page(s, topics_dir, page, "topics", "All topics");
	const char *root = view_root(v);
	size_t per = (size_t)s->cfg.per_page, npages = view_topics_pages(s);
	struct val *list = val_setk(v, "topics", val_list());
	for (size_t i = (page - 1) * per; i < s->ntopic_order && i < page * per; i++) {
		size_t ti = s->topic_order[i];
		const struct topic *t = &s->topics[ti];
		char *td = view_topic_dir(s, ti);
		struct val *m = val_push(list, view_link(root, t->title, td));
		free(td);
		val_setk_str(m, "id", t->id);
		val_setk_str(m, "description", t->description);
		val_setk_int(m, "count", (long long)t->nresources);
		/* where it sits: its ancestors' titles, the outermost first */
		const char *up[CONFIG_TOPIC_DEPTH + 2];
		size_t depth = 0;
		for (int p = t->parent; p >= 0 && depth < CONFIG_TOPIC_DEPTH + 2; p = s->topics[p].parent)
			up[depth++] = s->topics[p].title;
		val_setk_int(m, "depth", (long long)depth);
		struct val *trail = val_setk(m, "trail", val_list());
		for (size_t k = depth; k-- > 0;)
			val_push(trail, val_str(up[k]));
	}
	/* not "page": every page has that, the page's own fields (view_base) */
	val_setk_int(v, "page_number", (long long)page);
	val_setk_int(v, "pages", (long long)npages);
	val_setk_bool(v, "paged", npages > 1);
	if (npages > 1)
		val_setk(v, "pager", view_pager(root, page, npages, topics_dir, NULL));
	return v;
}

/* ---- the quick reference --------------------------------------------------- */

static char *quick_dir(const void *ctx, size_t k)
{
	(void)ctx;
	return k <= 1 ? xstrdup("quick-reference/") : xasprintf("quick-reference/%zu/", k);
}

char *view_quick_dir(size_t page) { return quick_dir(NULL, page); }

size_t view_quick_pages(const struct site *s) { return s->nquick_pages ? s->nquick_pages : 1; }

void view_quick_page_boxes(const struct site *s, size_t page, size_t *from, size_t *to)
{
	bool planned = page >= 1 && page <= s->nquick_pages;
	*from = planned ? s->quick_page_first[page - 1] : 0;
	*to = planned ? s->quick_page_first[page] : 0;
}

struct val *view_quick_reference(const struct site *s, size_t page, struct view_items *items)
{
	char *dir = quick_dir(NULL, page);
	struct val *v = view_base(s, dir, "quickref", "Quick reference", NULL, -1);
	free(dir);
	const char *root = view_root(v);
	struct val *topics = val_setk(v, "topics", val_list());
	struct val *sections = val_setk(v, "sections", val_list());
	size_t from, to;
	view_quick_page_boxes(s, page, &from, &to);
	for (size_t k = from; k < to; k++) {
		const struct quick_box *b = &s->quick_boxes[k];
		if (b->topic >= 0) {
			const struct topic *t = &s->topics[b->topic];
			char *td = view_topic_dir(s, (size_t)b->topic);
			struct val *m = val_push(topics, view_link(root, t->title, td));
			free(td);
			struct val *q = val_setk(m, "resources", val_list());
			for (size_t i = 0; i < t->nquick; i++)
				val_push(q, view_listed_item(s, items, t->quick[i], root, false, false));
			continue;
		}
		const struct doc *d = &s->docs[b->doc];
		char *su = xasprintf("%s#%s", d->url, d->headings[b->heading].id);
		struct val *m = val_push(sections, view_link(root, d->title, su));
		free(su);
		val_setk_str(m, "section", d->headings[b->heading].text);
		struct val *list = val_setk(m, "resources", val_list());
		for (size_t c = b->first; c < b->end && list->n < b->shown; c++)
			if (d->cites[c].resource >= 0)
				val_push(list, view_listed_item(s, items, (size_t)d->cites[c].resource,
								root, false, false));
		val_setk_int(m, "more", (long long)b->more);
		val_setk_bool(m, "has_more", b->more > 0);
	}
	size_t npages = view_quick_pages(s);
	/* the sections not shown, counted on the last page */
	size_t left = page == npages ? s->quick_sections_left : 0;
	val_setk_bool(v, "has_sections", sections->n > 0 || left);
	val_setk_int(v, "sections_left", (long long)left);
	val_setk_bool(v, "has_sections_left", left > 0);
	/* not "page": every page has that, the page's own fields (view_base) */
	val_setk_int(v, "page_number", (long long)page);
	val_setk_int(v, "pages", (long long)npages);
	val_setk_bool(v, "paged", npages > 1);
	if (npages > 1)
		val_setk(v, "pager", view_pager(root, page, npages, quick_dir, NULL));
	return v;
}
