/* site_read: reading a site's documents (site_read.c). Level 5. */
#ifndef SSG_SITE_READ_H
#define SSG_SITE_READ_H
#include <stddef.h>

#include "gitdates.h"
#include "site.h"

/* Fill s->docs[0..ndocs) from rels (paths under content): read, parsed,
 * extracted and rendered to their bodies on s->jobs threads, or taken from
 * the document cache (o->force: not), which is brought up to date. The
 * last-commit dates of content/ come back in dates. */
void site_read_documents(struct site *s, const struct build_opts *o, const char *content,
			 const char **rels, size_t ndocs, struct gitdates *dates);

#endif
