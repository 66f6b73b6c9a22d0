/* pool: a minimal work-sharing loop over pthreads (see pool.h). */
#include "pool.h"
#include "heap_warm.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
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

/* A thread other than the caller: its share of j. */
static void take_part(struct job *j)
{
	heap_warm_worker();
	work_from(j, __atomic_fetch_add(&j->started, 1, __ATOMIC_RELAXED) % j->nlanes);
}

static void *worker(void *arg)
{
	take_part(arg);
	return NULL;
}

/* ---- the helpers: threads kept for the next job ---------------------------
 * A pool_run used to start its threads and join them: 16 times in a build of
 * the five-document portal, each start and end costing more than the small
 * jobs they ran (the portal took as long on two threads as on one, with 10
 * ms more CPU). Helpers started once wait for the next job instead. One
 * caller at a time has them; another (a pool_run inside a job, or on another
 * thread meanwhile) starts threads of its own, as before. */
#define MAX_HELPERS 64

static struct {
	pthread_mutex_t lock;
	pthread_cond_t wake, done;
	pthread_t t[MAX_HELPERS];
	int n;              /* helpers started */
	struct job *job;    /* the job posted */
	unsigned long gen;  /* jobs posted so far */
	int want;           /* helpers the job takes: the first `want` */
	int running;        /* of them, still on it */
	bool busy;          /* a caller has the helpers */
	bool stopping;
	bool exit_hooked;
} helpers = {.lock = PTHREAD_MUTEX_INITIALIZER,
	     .wake = PTHREAD_COND_INITIALIZER,
	     .done = PTHREAD_COND_INITIALIZER};

static void *helper(void *arg)
{
	int self = (int)(intptr_t)arg;
	unsigned long seen = 0;
	pthread_mutex_lock(&helpers.lock);
	for (;;) {
		while (!helpers.stopping && helpers.gen == seen)
			pthread_cond_wait(&helpers.wake, &helpers.lock);
		if (helpers.stopping)
			break;
		seen = helpers.gen;
		if (self >= helpers.want)
			continue;
		struct job *j = helpers.job;
		pthread_mutex_unlock(&helpers.lock);
		take_part(j);
		pthread_mutex_lock(&helpers.lock);
		if (--helpers.running == 0)
			pthread_cond_signal(&helpers.done);
	}
	pthread_mutex_unlock(&helpers.lock);
	return NULL;
}

void pool_stop(void)
{
	pthread_mutex_lock(&helpers.lock);
	helpers.stopping = true;
	pthread_cond_broadcast(&helpers.wake);
	int n = helpers.n;
	pthread_mutex_unlock(&helpers.lock);
	for (int k = 0; k < n; k++)
		pthread_join(helpers.t[k], NULL);
	pthread_mutex_lock(&helpers.lock);
	helpers.n = 0;
	helpers.stopping = false;
	pthread_mutex_unlock(&helpers.lock);
}

static void stop_at_exit(void) { pool_stop(); }

/* j on `want` helpers and the caller; false (nothing run) when another
 * caller has them or none can be started. */
static bool run_on_helpers(struct job *j, int want)
{
	pthread_mutex_lock(&helpers.lock);
	if (helpers.busy || helpers.stopping) {
		pthread_mutex_unlock(&helpers.lock);
		return false;
	}
	if (want > MAX_HELPERS)
		want = MAX_HELPERS;
	while (helpers.n < want &&
	       pthread_create(&helpers.t[helpers.n], NULL, helper, (void *)(intptr_t)helpers.n) == 0)
		helpers.n++;
	if (helpers.n && !helpers.exit_hooked)
		helpers.exit_hooked = atexit(stop_at_exit) == 0;
	if (want > helpers.n)
		want = helpers.n;
	if (!want) {
		pthread_mutex_unlock(&helpers.lock);
		return false;
	}
	helpers.busy = true;
	helpers.job = j;
	helpers.want = helpers.running = want;
	helpers.gen++;
	pthread_cond_broadcast(&helpers.wake);
	pthread_mutex_unlock(&helpers.lock);
	work_from(j, 0); /* the calling thread works too, from its own lane */
	pthread_mutex_lock(&helpers.lock);
	while (helpers.running)
		pthread_cond_wait(&helpers.done, &helpers.lock);
	helpers.busy = false;
	helpers.job = NULL;
	pthread_mutex_unlock(&helpers.lock);
	return true;
}

static void run(struct job *j, int threads, size_t n)
{
	if (threads <= 1 || n < 2) {
		work_from(j, 0); /* in order */
		return;
	}
	if ((size_t)threads > n)
		threads = (int)n;
	__atomic_fetch_add(&j->started, 1, __ATOMIC_RELAXED); /* the caller: lane 0 */
	if (run_on_helpers(j, threads - 1))
		return;
	pthread_t *t = calloc((size_t)threads, sizeof *t);
	int started = 0;
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
