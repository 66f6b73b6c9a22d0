/* latch: a gate that threads wait at until it is opened, once; it stays
 * open. A build's helpers that can wait (loading the site in place, listing
 * the spare) wait at one while the documents are read: the reading has
 * every processor busy, and they then run when the model's merge leaves one
 * idle. Whoever needs what such a thread makes opens the latch before
 * joining it, so no thread waits at a latch no one will open. Level 0. */
#ifndef SSG_LATCH_H
#define SSG_LATCH_H
#include <pthread.h>
#include <stdbool.h>

struct latch {
	pthread_mutex_t lock;
	pthread_cond_t opened;
	bool open;
};

void latch_init(struct latch *l); /* closed */
void latch_open(struct latch *l);
void latch_wait(struct latch *l);
/* No thread may wait at it any more. */
void latch_destroy(struct latch *l);

#endif
