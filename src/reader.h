/* reader: one entry point from a prepared source to the one document tree,
 * whatever the format (Markdown or reStructuredText). After this nothing
 * knows which format a document came from. Level 2. */
#ifndef SSG_READER_H
#define SSG_READER_H
#include <cmark-gfm.h>

#include "config.h"
#include "diag.h"
#include "source.h"

/* Parse s->body into a tree whose line numbers are those of the whole file. */
cmark_node *reader_parse(const struct source *s, const struct config *cfg, struct diags *d);

#endif
