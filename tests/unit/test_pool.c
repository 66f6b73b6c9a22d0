/* test_pool: the work-sharing loop runs every index once, in order on one
 * thread, and with lanes starts a second thread on the second lane while the
 * first is still busy with the first. The thread that helps is kept for the
 * next job (the same thread, by its kernel id) until pool_stop; a job that
 * runs a pool of its own, and two callers at once, still run every index
 * once. */
#include "testutil.h"

#include <pthread.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "pool.h"

enum { MAXN = 5000 };

struct counts {
	int runs[MAXN];
	size_t order[MAXN];
	size_t done; /* with one thread: the order indices ran in */
};

static void count(void *ctx, size_t i)
{
	struct counts *c = ctx;
	__atomic_fetch_add(&c->runs[i], 1, __ATOMIC_RELAXED);
	size_t k = __atomic_fetch_add(&c->done, 1, __ATOMIC_RELAXED);
	c->order[k] = i;
}

static void check_each_once(const struct counts *c, size_t n)
{
	assert_int_equal(c->done, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(c->runs[i], 1);
}

static void test_every_index_once(void **state)
{
	(void)state;
	static const size_t sizes[] = {0, 1, 2, 3, 17, MAXN};
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
		for (int threads = 1; threads <= 4; threads++) {
			size_t n = sizes[s];
			struct counts *c = calloc(1, sizeof *c);
			pool_run(threads, n, count, c);
			check_each_once(c, n);
			/* every split, the empty lanes and one past the end too */
			size_t splits[] = {0, n / 3, n / 2, n, n + 5};
			for (size_t k = 0; k < sizeof splits / sizeof *splits; k++) {
				memset(c, 0, sizeof *c);
				pool_run_lanes(threads, n, splits[k], count, c);
				check_each_once(c, n);
			}
			free(c);
		}
}

static void test_one_thread_in_order(void **state)
{
	(void)state;
	struct counts *c = calloc(1, sizeof *c);
	pool_run_lanes(1, 100, 40, count, c);
	check_each_once(c, 100);
	for (size_t i = 0; i < 100; i++)
		assert_int_equal(c->order[i], i);
	free(c);
}

/* Index 0 waits until the second lane's first index has begun: only another
 * thread can begin it, and one started on that lane begins there, before any
 * other index (of either lane) and before any index of the first lane is
 * begun. (Under valgrind the other thread may also run the whole second lane
 * and then take index 0 before the caller starts: then it does not wait.) The
 * wait is bounded only so that a pool that never starts the other thread
 * fails instead of hanging: a minute, as valgrind on a busy machine can take
 * seconds to start a thread. */
struct meeting {
	size_t split;
	pthread_t first, second;
	pid_t second_tid;
	unsigned id;
	bool second_begun, timed_out;
	bool second_began_there; /* the thread that began the second lane began nothing before */
	size_t first_lane_before; /* indices of the first lane begun before it */
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* the meeting this thread last began an index of (its id: one meeting may
 * lie where the last one did): threads outlive jobs */
static _Thread_local unsigned began_in;
static unsigned meetings;

static void meet(void *ctx, size_t i)
{
	struct meeting *m = ctx;
	bool first_of_thread = began_in != m->id;
	began_in = m->id;
	pthread_mutex_lock(&m->lock);
	if (i == 0) {
		m->first = pthread_self();
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 60;
		while (!m->second_begun && !m->timed_out)
			m->timed_out = pthread_cond_timedwait(&m->cond, &m->lock, &until) != 0;
	} else if (i == m->split) {
		m->second = pthread_self();
		m->second_tid = gettid();
		m->second_began_there = first_of_thread;
		m->second_begun = true;
		pthread_cond_broadcast(&m->cond);
	} else if (i < m->split && !m->second_begun)
		m->first_lane_before++;
	pthread_mutex_unlock(&m->lock);
}

/* The second lane's thread, once both lanes met (its kernel id). */
static pid_t lanes_meet(void)
{
	struct meeting m = {.split = 50, .id = ++meetings};
	pthread_mutex_init(&m.lock, NULL);
	pthread_cond_init(&m.cond, NULL);
	pool_run_lanes(2, 100, m.split, meet, &m);
	assert_false(m.timed_out);
	assert_true(m.second_begun);
	assert_true(m.second_began_there);
	assert_int_equal(m.first_lane_before, 0);
	assert_int_not_equal(m.second_tid, gettid());
	pthread_mutex_destroy(&m.lock);
	pthread_cond_destroy(&m.cond);
	return m.second_tid;
}

static void test_lanes_start_apart(void **state)
{
	(void)state;
	lanes_meet();
}

static void test_helper_kept(void **state)
{
	(void)state;
	pid_t helper = lanes_meet();
	assert_int_equal(lanes_meet(), helper);
	pool_stop();
	pid_t next = lanes_meet(); /* started again */
	assert_int_not_equal(next, helper);
	assert_int_equal(lanes_meet(), next);
}

/* Each index of the outer job runs a job of its own over inner[i]. */
struct nested {
	struct counts *inner[4];
};

static void run_inner(void *ctx, size_t i)
{
	struct nested *n = ctx;
	pool_run(2, MAXN, count, n->inner[i]);
}

static void test_nested(void **state)
{
	(void)state;
	struct nested n;
	for (int i = 0; i < 4; i++)
		n.inner[i] = calloc(1, sizeof *n.inner[i]);
	pool_run(2, 4, run_inner, &n);
	for (int i = 0; i < 4; i++) {
		check_each_once(n.inner[i], MAXN);
		free(n.inner[i]);
	}
}

static void *caller(void *arg)
{
	for (int k = 0; k < 20; k++) {
		memset(arg, 0, sizeof(struct counts));
		pool_run(2, MAXN, count, arg);
		check_each_once(arg, MAXN);
	}
	return NULL;
}

/* Two threads calling at once: one has the helpers, the other starts its own. */
static void test_two_callers(void **state)
{
	(void)state;
	struct counts *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, caller, a), 0);
	caller(b);
	assert_int_equal(pthread_join(t, NULL), 0);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_index_once),
		cmocka_unit_test(test_one_thread_in_order),
		cmocka_unit_test(test_lanes_start_apart),
		cmocka_unit_test(test_helper_kept),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_two_callers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
