/* view_parts: the builders the view files share (view.c makes them; the list
 * pages of view_lists.c use them). Internal to the views. Level 4. */
#ifndef SSG_VIEW_PARTS_H
#define SSG_VIEW_PARTS_H

#include "model.h"
#include "value.h"
#include "view.h"

/* {title, url}: url relative to the root, prefixed with root. */
struct val *view_link(const char *root, const char *title, const char *url);
/* The fields every page has. dir: the page's folder relative to the root
 * ("" for the home page); current_topic: the sidebar's current topic (-1). */
struct val *view_base(const struct site *s, const char *dir, const char *kind, const char *title,
		      const char *desc, int current_topic);
/* A view's root prefix ("./", "../../"), borrowed from it. */
const char *view_root(const struct val *v);
/* The site's counts, on the pages that show them. */
void view_site_counts(const struct site *s, struct val *v);
/* One resource as an entry of a list page (topic, index, quick reference):
 * numbered and noted in items (when given), or the fragment of the page in
 * place that stands for it. */
struct val *view_listed_item(const struct site *s, struct view_items *items, size_t ri,
			     const char *root, bool with_cites, bool anchored);
/* A list's pager for page `page` of npages; dir(ctx, k) is page k's folder. */
struct val *view_pager(const char *root, size_t page, size_t npages,
		       char *(*dir)(const void *ctx, size_t k), const void *ctx);

/* The list pages' plans (view_lists.c): the topics index's order and the
 * quick reference's pages, made by view_prepare, freed by view_release. */
void view_lists_prepare(struct site *s);
void view_lists_release(struct site *s);

#endif
