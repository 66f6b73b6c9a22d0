/* pool: a minimal work-sharing loop over pthreads (see pool.h). */
#include "pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct job {
	pool_fn fn;
	void *ctx;
	size_t n;
	size_t next; /* taken with __atomic_fetch_add */
};

static void *worker(void *arg)
{
	struct job *j = arg;
	for (;;) {
		size_t i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
		if (i >= j->n)
			return NULL;
		j->fn(j->ctx, i);
	}
}

void pool_run(int threads, size_t n, pool_fn fn, void *ctx)
{
	struct job j = {fn, ctx, n, 0};
	if (threads <= 1 || n < 2) {
		for (size_t i = 0; i < n; i++)
			fn(ctx, i);
		return;
	}
	if ((size_t)threads > n)
		threads = (int)n;
	pthread_t *t = calloc((size_t)threads, sizeof *t);
	int started = 0;
	for (int k = 1; t && k < threads; k++)
		if (pthread_create(&t[k], NULL, worker, &j) == 0)
			started = k;
		else
			break;
	worker(&j); /* the calling thread works too */
	for (int k = 1; k <= started; k++)
		pthread_join(t[k], NULL);
	free(t);
}

int pool_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)(n > 64 ? 64 : n) : 1;
}
