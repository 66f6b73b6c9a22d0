/* url_memo: url_canonical's answers, kept per thread (see url_memo.h). */
#include "url_memo.h"
#include "hash.h"
#include "url.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Slots of one thread's table; past MEMO_MOST answers it starts again empty
 * (open addressing stays quick below three quarters full). */
#define MEMO_SLOTS (1u << 16)
#define MEMO_MOST (MEMO_SLOTS / 4 * 3)

struct answer {
	unsigned long long hash; /* of the URL */
	char *url;               /* the URL, then NUL, then its canonical form */
	size_t url_len;          /* its length: where the canonical form starts */
	int canonical;           /* 1: there is one; 0: url_canonical said NULL */
};

struct memo {
	struct answer *slots; /* MEMO_SLOTS, url NULL where free */
	size_t n;
};

static __thread struct memo *mine;
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void drop(struct memo *m)
{
	for (size_t i = 0; i < MEMO_SLOTS; i++)
		free(m->slots[i].url);
	memset(m->slots, 0, MEMO_SLOTS * sizeof *m->slots);
	m->n = 0;
}

static void memo_free(void *p)
{
	struct memo *m = p;
	drop(m);
	free(m->slots);
	free(m);
}

static void make_key(void) { pthread_key_create(&key, memo_free); }

/* This thread's table; NULL when it cannot have one (no key). */
static struct memo *memo_of_thread(void)
{
	if (mine)
		return mine;
	pthread_once(&key_once, make_key);
	struct memo *m = xcalloc(1, sizeof *m);
	m->slots = xcalloc(MEMO_SLOTS, sizeof *m->slots);
	if (pthread_setspecific(key, m)) {
		memo_free(m);
		return NULL;
	}
	return mine = m;
}

char *url_canonical_memo(const char *url)
{
	if (!url)
		return NULL;
	struct memo *m = memo_of_thread();
	if (!m)
		return url_canonical(url);
	unsigned long long h = hash_str(url);
	size_t len = strlen(url);
	size_t i = (size_t)h & (MEMO_SLOTS - 1);
	for (; m->slots[i].url; i = (i + 1) & (MEMO_SLOTS - 1)) {
		const struct answer *a = &m->slots[i];
		if (a->hash == h && a->url_len == len && !memcmp(a->url, url, len))
			return a->canonical ? xstrdup(a->url + len + 1) : NULL;
	}
	char *c = url_canonical(url);
	if (m->n == MEMO_MOST) {
		drop(m);
		for (i = (size_t)h & (MEMO_SLOTS - 1); m->slots[i].url; i = (i + 1) & (MEMO_SLOTS - 1))
			;
	}
	size_t cl = c ? strlen(c) : 0;
	char *both = xmalloc(len + cl + 2);
	memcpy(both, url, len + 1);
	if (c)
		memcpy(both + len + 1, c, cl + 1);
	else
		both[len + 1] = '\0';
	m->slots[i] = (struct answer){h, both, len, c != NULL};
	m->n++;
	return c;
}
