/* extract: what the model needs out of a document tree: headings with unique
 * GitHub-style ids, every external link as a citation (link text, the title
 * and description its entry gives it, section, line, and whether and where it
 * is listed, for `ssg check`), relative links to other files and images of
 * them. Works on the one tree, whatever the format; nothing after it needs
 * the tree but the page's body. Level 3. */
#ifndef SSG_EXTRACT_H
#define SSG_EXTRACT_H

#include "doc.h"

/* Fill doc->headings, doc->anchors, doc->cites, doc->ilinks, doc->images
 * and doc->code_blocks from doc->tree. */
void extract_doc(struct doc *doc);

/* Longest title and description a citation keeps, in bytes (utf8_bound):
 * without a bound, one long lead shared by thousands of nested entries made
 * output the square of the input (a document of 300 KB, 3.3 GB of pages).
 * Well above what resource lists write (the portal's longest: 121 and 289
 * bytes). A heading's text and a document's title are bounded as a title
 * (each is repeated for every citation under it, or of it), a heading's id
 * at EXTRACT_ID_MAX (cut between characters: it is an anchor). */
#define EXTRACT_TITLE_MAX 300
#define EXTRACT_DESC_MAX 1000
#define EXTRACT_ID_MAX 200

#endif
