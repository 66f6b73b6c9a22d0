/* pool: run fn(ctx, i) for i in [0, n) on up to `threads` pthreads, each
 * thread taking the next index as it finishes one. Returns when all are
 * done. threads <= 1 runs inline, in order. Level 0. */
#ifndef SSG_POOL_H
#define SSG_POOL_H
#include <stddef.h>

typedef void (*pool_fn)(void *ctx, size_t i);
void pool_run(int threads, size_t n, pool_fn fn, void *ctx);
/* Online processors, at least 1. */
int pool_cpus(void);

#endif
