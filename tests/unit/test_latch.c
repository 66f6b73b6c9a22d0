/* test_latch: a latch holds every thread that waits at it until it is
 * opened, then lets them all go, and any that comes after at once; opening
 * it twice changes nothing. */
#include "testutil.h"

#include "latch.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

struct waiter {
	struct latch *l;
	int passed; /* set once past the latch */
};

static void *wait_at(void *arg)
{
	struct waiter *w = arg;
	latch_wait(w->l);
	__atomic_store_n(&w->passed, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void test_holds_until_opened(void **state)
{
	(void)state;
	struct latch l;
	latch_init(&l);
	struct waiter w[3];
	pthread_t t[3];
	for (int i = 0; i < 3; i++) {
		w[i] = (struct waiter){&l, 0};
		assert_int_equal(pthread_create(&t[i], NULL, wait_at, &w[i]), 0);
	}
	usleep(50 * 1000); /* time enough for each to pass, were it open */
	for (int i = 0; i < 3; i++)
		assert_int_equal(__atomic_load_n(&w[i].passed, __ATOMIC_ACQUIRE), 0);
	latch_open(&l);
	latch_open(&l); /* again: nothing more */
	for (int i = 0; i < 3; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(w[i].passed, 1);
	}
	/* open stays open: a late waiter goes through on its own thread */
	struct waiter late = {&l, 0};
	wait_at(&late);
	assert_int_equal(late.passed, 1);
	latch_destroy(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holds_until_opened),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
