/* buf_pool: buffers handed from one user to the next across threads (a
 * page made in a buffer an earlier page was made in: warm in the cache,
 * grown once to the largest, where a fresh buffer doubles from 64 bytes to
 * its size, realloc copying it each time). Thread-safe; level 0. */
#ifndef SSG_BUF_POOL_H
#define SSG_BUF_POOL_H
#include "buf.h"

#include <pthread.h>
#include <stddef.h>

struct buf_pool {
	pthread_mutex_t lock;
	struct buf *v;
	size_t n, cap;
};

void buf_pool_init(struct buf_pool *p);
/* An empty buffer: one given back before when there is one. */
struct buf buf_pool_take(struct buf_pool *p);
/* b to the pool (b is then empty and may be dropped). */
void buf_pool_give(struct buf_pool *p, struct buf *b);
/* Every buffer given back freed. */
void buf_pool_free(struct buf_pool *p);

#endif
