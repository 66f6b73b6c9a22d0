/* pool: a minimal work-sharing loop over pthreads (see pool.h). */
#include "pool.h"
#include "heap_warm.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

/* The indices [from, to) of one lane, taken one by one. */
struct lane {
	size_t next; /* taken with __atomic_fetch_add */
	size_t to;
};

struct job {
	pool_fn fn;
	void *ctx;
	struct lane lanes[2];
	size_t nlanes;
	size_t started; /* workers so far: each starts on lane started % nlanes */
};

static bool take(struct lane *l, size_t *i)
{
	if (__atomic_load_n(&l->next, __ATOMIC_RELAXED) >= l->to)
		return false;
	*i = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
	return *i < l->to;
}

/* Every index left, from lane `first` on, then the others in turn. */
static void work_from(struct job *j, size_t first)
{
	for (size_t k = 0; k < j->nlanes; k++) {
		struct lane *l = &j->lanes[(first + k) % j->nlanes];
		size_t i;
		while (take(l, &i))
			j->fn(j->ctx, i);
	}
}

static void *worker(void *arg)
{
	struct job *j = arg;
	heap_warm_worker();
	work_from(j, __atomic_fetch_add(&j->started, 1, __ATOMIC_RELAXED) % j->nlanes);
	return NULL;
}

static void run(struct job *j, int threads, size_t n)
{
	if (threads <= 1 || n < 2) {
		work_from(j, 0); /* in order */
		return;
	}
	if ((size_t)threads > n)
		threads = (int)n;
	pthread_t *t = calloc((size_t)threads, sizeof *t);
	int started = 0;
	__atomic_fetch_add(&j->started, 1, __ATOMIC_RELAXED); /* the caller: lane 0 */
	for (int k = 1; t && k < threads; k++)
		if (pthread_create(&t[k], NULL, worker, j) == 0)
			started = k;
		else
			break;
	work_from(j, 0); /* the calling thread works too, from its own lane */
	for (int k = 1; k <= started; k++)
		pthread_join(t[k], NULL);
	free(t);
}

void pool_run(int threads, size_t n, pool_fn fn, void *ctx)
{
	struct job j = {fn, ctx, {{0, n}, {n, n}}, 1, 0};
	run(&j, threads, n);
}

void pool_run_lanes(int threads, size_t n, size_t split, pool_fn fn, void *ctx)
{
	if (split > n)
		split = n;
	struct job j = {fn, ctx, {{0, split}, {split, n}}, 2, 0};
	run(&j, threads, n);
}

int pool_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)(n > 64 ? 64 : n) : 1;
}

int pool_threads(int asked)
{
	return asked > 0 ? asked : pool_cpus();
}
