/* url_memo: url_canonical's answers, kept per thread (see url_memo.h). */
#include "url_memo.h"
#include "arena.h"
#include "hash.h"
#include "url.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One thread's table starts small (a small site's thread touches a few
 * pages of it, not 2 MiB) and doubles at three quarters full, up to
 * MEMO_MOST_SLOTS; full at that size, it starts again empty. */
#define MEMO_FIRST_SLOTS (1u << 10)
#define MEMO_MOST_SLOTS (1u << 16)

struct answer {
	unsigned long long hash; /* of the URL */
	char *url;               /* the URL, then NUL, then its canonical form */
	size_t url_len;          /* its length: where the canonical form starts */
	int canonical;           /* 1: there is one; 0: url_canonical said NULL */
};

struct memo {
	struct answer *slots; /* cap of them, url NULL where free */
	size_t n, cap;        /* cap: a power of two */
};

static __thread struct memo *mine;
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void free_answers(struct memo *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].url);
}

static void memo_free(void *p)
{
	struct memo *m = p;
	free_answers(m);
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
	m->cap = MEMO_FIRST_SLOTS;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	if (pthread_setspecific(key, m)) {
		memo_free(m);
		return NULL;
	}
	return mine = m;
}

/* The free slot for hash h (the table has one). */
static struct answer *free_slot(struct memo *m, unsigned long long h)
{
	size_t i = (size_t)h & (m->cap - 1);
	while (m->slots[i].url)
		i = (i + 1) & (m->cap - 1);
	return &m->slots[i];
}

/* Room for one more answer: the table doubled, or emptied at its largest. */
static void make_room(struct memo *m)
{
	if (m->n < m->cap / 4 * 3)
		return;
	if (m->cap == MEMO_MOST_SLOTS) {
		free_answers(m);
		memset(m->slots, 0, m->cap * sizeof *m->slots);
		m->n = 0;
		return;
	}
	struct answer *was = m->slots;
	size_t cap = m->cap;
	m->cap *= 2;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	for (size_t i = 0; i < cap; i++)
		if (was[i].url)
			*free_slot(m, was[i].hash) = was[i];
	free(was);
}

/* url's canonical form, or NULL: borrowed from the table (good until this
 * thread's next call) when *heap is false, else a heap string the caller
 * frees (a new answer, or no table). */
static char *answer_for(const char *url, bool *heap)
{
	*heap = true;
	if (!url)
		return NULL;
	struct memo *m = memo_of_thread();
	if (!m)
		return url_canonical(url);
	unsigned long long h = hash_str(url);
	size_t len = strlen(url);
	for (size_t i = (size_t)h & (m->cap - 1); m->slots[i].url; i = (i + 1) & (m->cap - 1)) {
		const struct answer *a = &m->slots[i];
		if (a->hash == h && a->url_len == len && !memcmp(a->url, url, len)) {
			*heap = false;
			return a->canonical ? a->url + len + 1 : NULL;
		}
	}
	char *c = url_canonical(url);
	make_room(m);
	size_t cl = c ? strlen(c) : 0;
	char *both = xmalloc(len + cl + 2);
	memcpy(both, url, len + 1);
	if (c)
		memcpy(both + len + 1, c, cl + 1);
	else
		both[len + 1] = '\0';
	*free_slot(m, h) = (struct answer){h, both, len, c != NULL};
	m->n++;
	return c;
}

char *url_canonical_memo(const char *url)
{
	bool heap;
	char *c = answer_for(url, &heap);
	return heap || !c ? c : xstrdup(c);
}

char *url_canonical_memo_in(const char *url, struct arena *a)
{
	bool heap;
	char *c = answer_for(url, &heap);
	if (!c)
		return NULL;
	char *copy = arena_strndup(a, c, strlen(c));
	if (heap)
		free(c);
	return copy;
}
