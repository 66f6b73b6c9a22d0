/* site_read: reading a site's documents (site_read.c). Level 5. */
#ifndef SSG_SITE_READ_H
#define SSG_SITE_READ_H
#include <stddef.h>

#include "buf.h"
#include "site.h"

/* The last-commit dates of content/: one git run, on a thread of its own. */
struct site_dates;

/* Fill s->docs[0..ndocs) from rels (paths under content): read, parsed,
 * extracted and rendered to their bodies on s->jobs threads, or taken from
 * the document cache (o->force: not), which is brought up to date. The git
 * dates are still being fetched when it returns: s->dates, for
 * site_read_dates_apply. */
void site_read_documents(struct site *s, const struct build_opts *o, const char *content,
			 const char **rels, size_t ndocs);
/* Fill s->docs[0..ndocs) from rels, each read and parsed afresh (no cache,
 * no dates): entries[i] gets the cache entry of rels[i]. */
void site_read_fresh(struct site *s, const char *content, const char **rels, size_t ndocs,
		     struct buf *entries);
/* Wait for s->dates and set each document's last-updated date from them,
 * unless its front matter gives one; nothing when none are on their way.
 * Only some pages show the dates (a document's page, the sitemap, the
 * feed): the model and every other page are made meanwhile, beside git's
 * log, and a build applies them when it first makes one of those (site.c:
 * they come last), or before it lets the site go. */
void site_read_dates_apply(struct site *s);

#endif
