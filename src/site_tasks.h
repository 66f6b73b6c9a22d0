/* site_tasks: a build's pages as tasks of its render (site.c plans and renders
 * them; site_saves.c records what they made). Internal to the build, level 5. */
#ifndef SSG_SITE_TASKS_H
#define SSG_SITE_TASKS_H
#include <stdbool.h>
#include <stddef.h>

#include "output.h"
#include "page_items.h"

enum page_kind { PAGE_DATA, PAGE_DOC, PAGE_TOPIC, PAGE_RESOURCE, PAGE_INDEX, PAGE_DOCLIST,
		 PAGE_TOPICS, PAGE_QUICKREF, PAGE_SINGLE };

struct page_task {
	enum page_kind kind;
	size_t index;
	size_t sub;   /* topic page number; unused otherwise */
	char *path;   /* set once rendered: the page's path and its view's digest (0 for
		       * a page with inputs: known by them) */
	unsigned long long digest[2];
	unsigned long long inputs[2]; /* what its view is made from (tracked pages) */
	long body_at, body_len; /* a document's page: where its body went (-1: not once) */
	bool tracked; /* inputs is set */
	bool expect;  /* SSG_CHECK_INPUTS: kept by its inputs, its bytes must be the page's in place */
	bool kept;    /* the page in place was kept */
	struct output_file file; /* its file in the new site, when known */
	struct page_item *items; /* a list page's entries, where they lie (page_items.h) */
	size_t nitems;
	bool items_lent; /* items lie in the last build's (a kept page's), not freed */
};

#endif
