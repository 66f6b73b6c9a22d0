/* heap_warm: bulk-populated malloc arenas (see heap_warm.h). */
#include "heap_warm.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Warmed in pieces under the mmap threshold set below, so that each comes
 * from the thread's arena and goes back to it when freed. */
#define PIECE ((size_t)4 << 20)
#define MMAP_THRESHOLD (32 << 20)
/* Less than this is not worth a call: a fresh arena has as much at hand,
 * and making pages present costs 0.5-2 us a page here, so a build that
 * touches 400 KB (the portal's, unchanged) is slower for 4 MB warmed */
#define LEAST_WARMTH ((size_t)1 << 20)
/* A block grown by this much or more has its new part warmed */
#define GROWN_WARMTH ((size_t)1 << 20)
/* From this many pieces (32 MB) the warming is shared with a second thread */
#define TWO_THREAD_PIECES 8

static bool enabled;
static bool unsupported; /* the kernel refused MADV_POPULATE_WRITE */
static _Thread_local size_t warmed;
static size_t worker_bytes;
static unsigned workers_left;

static bool tunable_named(const char *name)
{
	const char *t = getenv("GLIBC_TUNABLES");
	return t && strstr(t, name);
}

bool heap_warm_enable(void)
{
	if (tunable_named("glibc.malloc.mmap_threshold") ||
	    tunable_named("glibc.malloc.trim_threshold") ||
	    tunable_named("glibc.malloc.hugetlb"))
		return false;
	/* a trim threshold of its own turns off glibc's sliding mmap threshold,
	 * which the first free of a big block would otherwise raise and lower */
	bool on = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1 && mallopt(M_TRIM_THRESHOLD, -1) == 1;
	__atomic_store_n(&enabled, on, __ATOMIC_RELAXED);
	return on;
}

bool heap_warm_enabled(void)
{
	return __atomic_load_n(&enabled, __ATOMIC_RELAXED) &&
	       !__atomic_load_n(&unsupported, __ATOMIC_RELAXED);
}

static size_t limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (size_t)pages / 4 * (size_t)size : (size_t)1 << 30;
}

/* Pages present for [p, p + n): false when the kernel cannot. */
static bool populate(void *p, size_t n)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(page - 1);
	if (hi <= lo)
		return true;
	if (madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE) == 0)
		return true;
	if (errno == EINVAL) /* no such advice here */
		__atomic_store_n(&unsupported, true, __ATOMIC_RELAXED);
	return false;
}

/* A piece of a warm: malloc'd, then made present. */
struct piece {
	void *p;
	size_t n;
};

/* The odd pieces, made present by a second thread while the caller makes
 * the others present. */
struct halves {
	const struct piece *v;
	size_t n;
	bool ok;
};

static void *populate_odd(void *arg)
{
	struct halves *h = arg;
	for (size_t i = 1; i < h->n && h->ok; i += 2)
		h->ok = populate(h->v[i].p, h->v[i].n);
	return NULL;
}

size_t heap_warm_to(size_t bytes)
{
	if (!heap_warm_enabled())
		return 0;
	size_t most = limit();
	if (bytes > most)
		bytes = most;
	if (bytes < warmed + LEAST_WARMTH)
		return 0;
	size_t want = bytes - warmed, n = (want + PIECE - 1) / PIECE, got = 0;
	struct piece *v = malloc(n * sizeof *v);
	if (!v)
		return 0;
	/* all pieces held at once: freed one by one, each would be the next's */
	for (size_t done = 0; got < n; got++) {
		v[got].n = want - done < PIECE ? want - done : PIECE;
		if (!(v[got].p = malloc(v[got].n)))
			break;
		done += v[got].n;
	}
	/* then made present, by two threads when there are many: the pages
	 * are the kernel's to zero, at about 0.5 us each (a new link's build
	 * at 10,000 documents warms 100 MB on its main thread while the other
	 * processor waits for the model) */
	struct halves odd = {v, got, true};
	pthread_t t;
	bool two = got >= TWO_THREAD_PIECES && pthread_create(&t, NULL, populate_odd, &odd) == 0;
	size_t upto = got;
	for (size_t i = 0; i < got; i += two ? 2 : 1)
		if (!populate(v[i].p, v[i].n)) {
			upto = i;
			break;
		}
	if (two) {
		pthread_join(t, NULL);
		if (!odd.ok) /* some odd piece is cold: count none */
			upto = 0;
	}
	size_t done = 0;
	for (size_t i = 0; i < upto; i++)
		done += v[i].n;
	for (size_t i = got; i-- > 0;)
		free(v[i].p);
	free(v);
	warmed += done;
	return done;
}

void heap_warm_grown(void *p, size_t used, size_t cap)
{
	if (cap > used && cap - used >= GROWN_WARMTH && heap_warm_enabled())
		populate((char *)p + used, cap - used);
}

void heap_warm_workers(size_t bytes, unsigned count)
{
	__atomic_store_n(&worker_bytes, bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&workers_left, count, __ATOMIC_RELEASE);
}

size_t heap_warm_worker(void)
{
	unsigned left = __atomic_load_n(&workers_left, __ATOMIC_ACQUIRE);
	while (left && !__atomic_compare_exchange_n(&workers_left, &left, left - 1, false,
						    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
	return left ? heap_warm_to(__atomic_load_n(&worker_bytes, __ATOMIC_RELAXED)) : 0;
}
