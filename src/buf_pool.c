/* buf_pool: buffers handed from one user to the next (see buf_pool.h). */
#include "buf_pool.h"
#include "xalloc.h"

#include <stdlib.h>

void buf_pool_init(struct buf_pool *p)
{
	*p = (struct buf_pool){.v = NULL};
	pthread_mutex_init(&p->lock, NULL);
}

struct buf buf_pool_take(struct buf_pool *p)
{
	struct buf b = BUF_INIT;
	pthread_mutex_lock(&p->lock);
	if (p->n)
		b = p->v[--p->n];
	pthread_mutex_unlock(&p->lock);
	buf_reset(&b);
	return b;
}

void buf_pool_give(struct buf_pool *p, struct buf *b)
{
	if (b->p) {
		pthread_mutex_lock(&p->lock);
		p->v = xgrow(p->v, &p->cap, p->n + 1, sizeof *p->v);
		p->v[p->n++] = *b;
		pthread_mutex_unlock(&p->lock);
	}
	*b = (struct buf)BUF_INIT;
}

void buf_pool_free(struct buf_pool *p)
{
	for (size_t i = 0; i < p->n; i++)
		buf_free(&p->v[i]);
	free(p->v);
	pthread_mutex_destroy(&p->lock);
	*p = (struct buf_pool){.v = NULL};
}
