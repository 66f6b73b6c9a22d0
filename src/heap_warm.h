/* heap_warm: memory a thread is about to allocate made present in one system
 * call (madvise MADV_POPULATE_WRITE) instead of one page fault a page as it
 * is first written. On this project's benchmark machine (a virtual machine
 * whose guest page faults go through the host) a fault on fresh memory
 * costs about 10 us, and making the same pages present in bulk about 0.5 us
 * a page: an incremental build at 10,000 documents took 47,000 faults, most
 * of them the main thread's model. Off until heap_warm_enable: it then sets
 * malloc to keep what it frees (memory warmed and freed stays with its
 * arena, for the allocations that follow). Without MADV_POPULATE_WRITE
 * (Linux before 5.14) nothing is warmed. Level 0; calls only libc. */
#ifndef SSG_HEAP_WARM_H
#define SSG_HEAP_WARM_H
#include <stdbool.h>
#include <stddef.h>

/* Turn warming on; false (and off) when GLIBC_TUNABLES names a threshold
 * the warming sets (the user's word stands) or huge pages (hugepages.h: a
 * big site's clean build, whose faults are 2 MB each), or when malloc takes
 * no mallopt settings (AddressSanitizer's). */
bool heap_warm_enable(void);
bool heap_warm_enabled(void);
/* At least `bytes` of the calling thread's arena warmed, counting what this
 * thread warmed before (capped at a quarter of physical memory): the bytes
 * warmed now. Nothing when warming is off, or when less than a megabyte is
 * left to warm. From 32 MB on, a second thread makes half of it present
 * while the caller makes the other half. */
size_t heap_warm_to(size_t bytes);
/* A block grown to cap bytes, of which the first `used` hold data: the rest
 * warmed, when warming is on and it is large (the arena's warmth is used
 * up, or the block lies outside it, mapped on its own). A growing buffer
 * doubles, so at least half of what is warmed is then written. */
void heap_warm_grown(void *p, size_t used, size_t cap);
/* What the next `count` worker threads to start (pool.h) each warm as they
 * start: an exited thread's arena goes to the next thread, so the first few
 * warm the arenas the rest reuse. */
void heap_warm_workers(size_t bytes, unsigned count);
/* Called by a worker thread as it starts: its share, when one is left
 * (the bytes warmed). */
size_t heap_warm_worker(void);

#endif
