/* latch: a gate opened once (see latch.h). */
#include "latch.h"

void latch_init(struct latch *l)
{
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->opened, NULL);
	l->open = false;
}

void latch_open(struct latch *l)
{
	if (__atomic_load_n(&l->open, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&l->lock);
	__atomic_store_n(&l->open, true, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&l->opened);
	pthread_mutex_unlock(&l->lock);
}

void latch_wait(struct latch *l)
{
	if (__atomic_load_n(&l->open, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&l->lock);
	while (!l->open)
		pthread_cond_wait(&l->opened, &l->lock);
	pthread_mutex_unlock(&l->lock);
}

void latch_destroy(struct latch *l)
{
	pthread_cond_destroy(&l->opened);
	pthread_mutex_destroy(&l->lock);
}
