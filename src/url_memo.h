/* url_memo: url_canonical with its answers kept, per thread. A site cites
 * most URLs several times (the 10,000-document benchmark corpus: 210,000
 * links, 59,000 of them distinct), and canonicalising one takes about a
 * microsecond where looking it up takes a tenth of that. Each thread keeps
 * its own table (no locks): small at first, doubled as it fills, dropped
 * whole when full at its largest, and freed with the thread. Level 3, as url. */
#ifndef SSG_URL_MEMO_H
#define SSG_URL_MEMO_H

/* url_canonical(url), the same in every case (NULL included); a new heap
 * string the caller frees. */
char *url_canonical_memo(const char *url);
/* The same answer, copied into a (NULL when there is none). */
struct arena;
char *url_canonical_memo_in(const char *url, struct arena *a);

#endif
