/* local_key: a random secret kept outside the site, in the user's cache
 * folder ($XDG_CACHE_HOME/ssg/key, else ~/.cache/ssg/key), made on first use.
 * The caches a build keeps in the site's folder (.ssg-cache: documents'
 * rendered bodies, resources' names and classes) and the state it keeps in
 * the output folder (through the fingerprint) are keyed with it, so that a
 * cache or an output folder that came with the site (committed by a pull
 * request: cached bodies are raw HTML) is never trusted on another machine
 * or account. Where no
 * key can be kept, each process has a key of its own: the caches are then
 * only made, never used. Level 0. Thread-safe. */
#ifndef SSG_LOCAL_KEY_H
#define SSG_LOCAL_KEY_H

#include <stdbool.h>

/* The key as 32 hex digits and a NUL. */
const char *local_key(void);
/* Whether the key is kept already (nothing is made): without it, no cache
 * of this account's can be there to read. */
bool local_key_kept(void);

#endif
