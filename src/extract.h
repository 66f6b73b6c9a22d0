/* extract: what the model needs out of a document tree: headings with unique
 * GitHub-style ids, every external link as a citation (link text, the title
 * and description its entry gives it, section, line), and relative links to
 * other files. Works on the one tree, whatever the format. Level 3. */
#ifndef SSG_EXTRACT_H
#define SSG_EXTRACT_H

#include "doc.h"

/* Fill doc->headings, doc->anchors, doc->cites, doc->ilinks, doc->words
 * from doc->tree. */
void extract_doc(struct doc *doc);

#endif
