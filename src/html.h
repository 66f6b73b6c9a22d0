/* html: a document's tree to the HTML of its page, in two steps so the tree
 * can be freed as soon as the document is read:
 *  1. html_render_body (while reading, in parallel, no model needed): headings
 *     get ids and anchor links, code blocks a language label; each citation
 *     and each relative link gets a marker (control characters the input can
 *     never hold: utf8_clean replaces them); cmark-gfm renders.
 *  2. html_finish_body (once the model is built): markers become the badge
 *     linking a citation to its resource (with how many other documents cite
 *     it), links to the generated pages, or marked text for missing targets.
 * Level 4. */
#ifndef SSG_HTML_H
#define SSG_HTML_H

#include "model.h"

/* Step 1: render d->tree (which is modified). */
char *html_render_body(struct doc *d);
/* Step 2: the final body of s->docs[d] for a page whose root prefix is `root`. */
char *html_finish_body(const struct site *s, size_t d, const char *body, const char *root);
/* Step 2 again, without the model, for a document whose citations and links
 * are those of the version that made old_final (from its marked body,
 * old_marked): each marker becomes what it became there. NULL when old_final
 * is not old_marked finished, or new_marked has a marker old_marked lacks. */
char *html_relink_body(const char *old_marked, const char *old_final, size_t old_final_len,
		       const char *new_marked);
/* The same for a preview (build_patch.h), whose citations may not be the old
 * ones: new citation i's marker becomes what old citation cite_map[i]'s
 * became (the caller maps each to an old one linking the same place), or no
 * badge when it maps to none (-1, or i >= nmap: a link added). Links to
 * other files must still be the old ones. */
char *html_relink_preview(const char *old_marked, const char *old_final, size_t old_final_len,
			  const char *new_marked, const long *cite_map, size_t nmap);
/* The folder of resource pages: RESOURCE_FOLDER<slug>/. */
#define RESOURCE_FOLDER "r/"
/* URL, relative to the site root, where resource r is shown: its own page, or
 * its entry on the resource index. */
char *html_resource_url(const struct resource *r);
/* The same URL as three parts to join (views join them into their arena). */
void html_resource_url_parts(const struct resource *r, const char *parts[3]);

#endif
