/* pool: run fn(ctx, i) for i in [0, n) on up to `threads` pthreads, each
 * thread taking the next index as it finishes one. Returns when all are
 * done. threads <= 1 runs inline, in order. The threads are kept, waiting,
 * for the next call (one caller at a time: any other starts threads of its
 * own). Level 0. */
#ifndef SSG_POOL_H
#define SSG_POOL_H
#include <stddef.h>

typedef void (*pool_fn)(void *ctx, size_t i);
void pool_run(int threads, size_t n, pool_fn fn, void *ctx);
/* The same over two lanes, [0, split) and [split, n): the threads start on
 * alternate lanes (the caller on the first), each taking its lane's indices
 * in order and then helping with the other lane. For work whose halves
 * contend with themselves, not each other: pages made in two folders, which
 * the kernel lets one thread at a time add to. threads <= 1 runs inline, in
 * order. */
void pool_run_lanes(int threads, size_t n, size_t split, pool_fn fn, void *ctx);
/* The threads pool_run keeps between jobs ended (also run at exit): the
 * next pool_run starts them again. Not while a pool_run is running. */
void pool_stop(void);
/* Online processors, at least 1. */
int pool_cpus(void);
/* The threads to run with when `asked` for (0 or less: one a processor). */
int pool_threads(int asked);

#endif
