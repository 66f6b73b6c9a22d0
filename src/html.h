/* html: a document's tree to HTML for its page. Before cmark-gfm renders it,
 * the tree is dressed for the site: headings get their ids and anchor links,
 * code blocks a language label, relative links point at the generated pages
 * (or become marked text when their target does not exist), and each external
 * link that other documents cite too gets a badge linking to its resource.
 * Works on the document's own tree only, so documents render in parallel.
 * Level 4. */
#ifndef SSG_HTML_H
#define SSG_HTML_H

#include "model.h"

/* Render s->docs[d]; `root` is the relative prefix from the page to the site
 * root ("../"). Returns a new string. The tree is modified (and stays valid). */
char *html_render_doc(const struct site *s, size_t d, const char *root);
/* URL, relative to the site root, where resource r is shown: its own page, or
 * its entry on the resource index. */
char *html_resource_url(const struct resource *r);

#endif
