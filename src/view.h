/* view: plain data for each page, computed in advance so templates hold no
 * logic (Mustache is logic-less). Every view is a `struct val` map with the
 * common fields (site, page, root, nav, breadcrumbs) plus the page's own;
 * docs/templates.md lists every field. URLs in views are relative to the
 * page (they start with `root`), so the site works under any sub-path and
 * from file://. Level 4. */
#ifndef SSG_VIEW_H
#define SSG_VIEW_H

#include "model.h"
#include "value.h"

/* Build the parts many pages share (the topic navigation for each page
 * depth) before rendering in parallel; view_release frees them. */
void view_prepare(struct site *s);
void view_release(struct site *s);
/* How the sidebar of a page with a topic is made into HTML once for every
 * page of that topic and depth (view_prepare to view_release): render(ctx,
 * nav) gives the HTML of the tree nav (heap, the caller's), or NULL to
 * leave it to each page's template. */
void view_nav_render_with(struct site *s, char *(*render)(void *ctx, const struct val *nav),
			  void *ctx);

/* Where each page lives, relative to the output root (a folder, "" for home). */
char *view_doc_dir(const struct site *s, size_t d);
char *view_topic_dir(const struct site *s, size_t t);
/* Whether a topic is listed among another's related topics: it has
 * resources and is not the catch-all. */
bool view_topic_listed(const struct topic *t);
/* Whether a topic has a page (and a place in the sidebar and the topics
 * index): all but an empty catch-all. */
bool view_topic_has_page(const struct topic *t);
char *view_resource_dir(const struct site *s, size_t r);

/* body: the document's rendered HTML (ownership stays with the caller). */
struct val *view_doc(const struct site *s, size_t d, const char *body);
/* The resources' entries in a page's lists: each is numbered (val.item) in
 * the order made, and noted here with its resource and whether it names the
 * documents citing it. When find is set and gives the bytes the page in place
 * has for an entry, those stand for it (val_fragment): it is not built. */
struct view_item {
	size_t res;
	bool with_cites; /* it names the documents citing it */
	bool anchored;   /* its element id is its slug (the A-Z index) */
};
struct view_items {
	const char *(*find)(void *ctx, const struct view_item *item, size_t *len);
	void *ctx;
	struct view_item *v;
	size_t n, cap;
};
/* Page `page` (1-based, up to topic.npages) of topic t; items may be NULL. */
struct val *view_topic(const struct site *s, size_t t, size_t page, struct view_items *items);
char *view_topic_page_dir(const struct site *s, size_t t, size_t page);
/* A resource's page. Its "descriptions" are the distinct descriptions its
 * entries give, in their order, the first VIEW_RESOURCE_DESCS of them: each
 * a string numbered from 1 (struct val.item), so that where it goes can be
 * noted (page_items.h). */
struct val *view_resource(const struct site *s, size_t r);
#define VIEW_RESOURCE_DESCS 20
/* How many citing documents a resource's entry in a list names. */
#define VIEW_CITED_IN 5
/* How many documents the home page lists; the rest are on documents/ pages.
 * Its top-level topics are cut at pages.sidebar_topics; all are on topics/. */
#define VIEW_HOME_DOCS 30
struct val *view_home(const struct site *s);
/* Page `page` (1-based) of the list of all documents, and its folder. */
struct val *view_documents(const struct site *s, size_t page);
size_t view_documents_pages(const struct site *s);
char *view_documents_dir(size_t page);
/* Page `chunk` of the A-Z index (site.chunks); chunk == nchunks is the
 * landing page of an index of several pages. */
struct val *view_resource_index(const struct site *s, size_t chunk, struct view_items *items);
/* Page `page` (1-based) of the quick reference (items as view_topic's),
 * its pages and folders (quick-reference/, quick-reference/2/...). Its boxes (the topics', then
 * the documents' own sections) fill pages of pages.per_page entries. */
struct val *view_quick_reference(const struct site *s, size_t page, struct view_items *items);
size_t view_quick_pages(const struct site *s);
char *view_quick_dir(size_t page);
/* The boxes of that page: site.quick_boxes[*from, *to). */
void view_quick_page_boxes(const struct site *s, size_t page, size_t *from, size_t *to);
/* Page `page` (1-based) of the topics index: every topic with a page, in
 * tree order, pages.per_page of them a page (topics/, topics/2/...). */
struct val *view_topics(const struct site *s, size_t page);
size_t view_topics_pages(const struct site *s);
char *view_topics_dir(size_t page);
/* Where topic t stands in the topics index: its page's folder and the
 * entry's anchor, relative to the root (the links to "all subtopics"). */
char *view_topics_entry(const struct site *s, size_t t);
struct val *view_not_found(const struct site *s);
/* The primary topic of a document (where most of its resources sit); -1 none.
 * Both this and the next are found once, by view_prepare. */
int view_doc_topic(const struct site *s, size_t d);
/* A document's previous and next documents in its primary topic (-1: none). */
void view_doc_neighbours(const struct site *s, size_t d, long *prev, long *next);

#endif
