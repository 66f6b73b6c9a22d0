/* cite_key: the digest of one citation as everything kept per resource
 * reads it: its own fields (URL as written and canonical, text, title,
 * description, place, flags) and the sections it lies under (each one's
 * level, id and text, up to the top). A resource's names, classes, record
 * and page are made of its citations and of the documents they lie in (by
 * their name, place and title): keyed by these digests rather than by the
 * whole documents' bytes, an edit of one entry leaves the other resources a
 * document cites as they were (a paper cited 9,000 times is not made again
 * because one of its documents gained a line elsewhere). Taken once, when a
 * document is parsed, and kept with it in the document cache. Level 3. */
#ifndef SSG_CITE_KEY_H
#define SSG_CITE_KEY_H

#include "doc.h"

/* Set every citation's key (doc.cites[i].key) from d's headings, and its
 * description's hash (desc_hash). */
void cite_keys(struct doc *d);
/* A description's 64-bit hash, for telling descriptions apart without
 * their bytes (room_hint.h): 0 for none or "", never 0 otherwise. */
unsigned long long cite_desc_hash(const char *desc);

#endif
