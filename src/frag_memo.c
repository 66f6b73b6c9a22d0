/* frag_memo: bytes made once and lent many times (see frag_memo.h). */
#include "frag_memo.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void frag_memo_init(struct frag_memo *m, size_t n, size_t variants)
{
	m->n = n;
	m->variants = variants;
	m->slots = xcalloc(n * variants + 1, sizeof *m->slots);
	m->wanted = xcalloc(n + 1, 1);
}

void frag_memo_want(struct frag_memo *m, size_t number)
{
	if (number < m->n)
		m->wanted[number] = 1;
}

bool frag_memo_wanted(const struct frag_memo *m, size_t number)
{
	return number < m->n && m->wanted[number];
}

const char *frag_memo_get(const struct frag_memo *m, size_t number, size_t variant, size_t *len)
{
	if (number >= m->n || variant >= m->variants)
		return NULL;
	char *p = __atomic_load_n(&m->slots[number * m->variants + variant], __ATOMIC_ACQUIRE);
	if (!p)
		return NULL;
	memcpy(len, p, sizeof *len);
	return p + sizeof *len;
}

void frag_memo_put(struct frag_memo *m, size_t number, size_t variant, const char *bytes,
		   size_t len)
{
	if (!frag_memo_wanted(m, number) || variant >= m->variants)
		return;
	char **slot = &m->slots[number * m->variants + variant];
	if (__atomic_load_n(slot, __ATOMIC_ACQUIRE))
		return;
	char *p = xmalloc(sizeof len + len);
	memcpy(p, &len, sizeof len);
	memcpy(p + sizeof len, bytes, len);
	char *none = NULL;
	if (!__atomic_compare_exchange_n(slot, &none, p, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		free(p); /* another thread's came first: the same bytes */
}

void frag_memo_free(struct frag_memo *m)
{
	if (m->slots)
		for (size_t i = 0; i < m->n * m->variants; i++)
			free(m->slots[i]);
	free(m->slots);
	free(m->wanted);
	*m = (struct frag_memo){0};
}
