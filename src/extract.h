/* extract: what the model needs out of a document tree: headings with unique
 * GitHub-style ids, every external link as a citation (link text, the title
 * and description its entry gives it, section, line, and whether and where it
 * is listed, for `ssg check`), relative links to other files and images of
 * them. Works on the one tree, whatever the format; nothing after it needs
 * the tree but the page's body. Level 3. */
#ifndef SSG_EXTRACT_H
#define SSG_EXTRACT_H

#include "doc.h"

/* Fill doc->headings, doc->anchors, doc->cites, doc->ilinks, doc->images,
 * doc->words from doc->tree. */
void extract_doc(struct doc *doc);

#endif
