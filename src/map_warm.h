/* map_warm: a file's mapping made present in one system call (madvise
 * MADV_POPULATE_READ) before it is read, rather than page fault by page
 * fault as it is first read. A fault costs about 5 us on this project's
 * benchmark machine (a virtual machine) even on a page the page cache
 * holds, and a file the page cache holds in small pages (one appended to
 * bit by bit) faults in 64 KB at a time; making the same pages present
 * takes about 0.04 us a page (170 MB in 7 ms). A new link's build at 10,000
 * documents read its 170 MB document cache in about 4,000 faults. Without MADV_POPULATE_READ (Linux
 * before 5.14) nothing is warmed, and the pages fault in as before. Level 0;
 * calls only libc. */
#ifndef SSG_MAP_WARM_H
#define SSG_MAP_WARM_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* [p, p + len) of a read-only mapping made present now; false when the
 * kernel would not (nothing is lost: the pages fault in when read). */
bool map_warm(const void *p, size_t len);

/* The same on a thread of its own, while the caller goes on to read the
 * mapping from its start: the thread is soon ahead of the reader. */
struct map_warming {
	pthread_t thread;
	bool running;
	const void *p;
	size_t len;
};
void map_warm_start(struct map_warming *w, const void *p, size_t len);
/* Wait for it: before the mapping is unmapped. */
void map_warm_join(struct map_warming *w);

#endif
