/* map_warm: file mappings made present ahead of reading (see map_warm.h). */
#include "map_warm.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

bool map_warm(const void *p, size_t len)
{
	if (!p || !len)
		return false;
	/* madvise takes a page-aligned start */
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)p & ~(page - 1);
	return madvise((void *)lo, (uintptr_t)p + len - lo, MADV_POPULATE_READ) == 0;
}

static void *warm_thread(void *arg)
{
	struct map_warming *w = arg;
	map_warm(w->p, w->len);
	return NULL;
}

void map_warm_start(struct map_warming *w, const void *p, size_t len)
{
	*w = (struct map_warming){.p = p, .len = len};
	w->running = p && len && pthread_create(&w->thread, NULL, warm_thread, w) == 0;
}

void map_warm_join(struct map_warming *w)
{
	if (w->running)
		pthread_join(w->thread, NULL);
	w->running = false;
}
