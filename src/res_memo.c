/* res_memo: resources' descriptions and classes between builds (see res_memo.h). */
#include "res_memo.h"
#include "buf.h"
#include "digest.h"
#include "path.h"
#include "xalloc.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MEMO_DIR ".ssg-cache"
#define MEMO_NAME "resources.bin"
#define MEMO_MAGIC "ssg-resources 2 " /* then the env's 32 hex digits and a newline */
#define MEMO_HEAD (sizeof MEMO_MAGIC - 1 + 33)

static int cmp_key(const void *key, const void *elem)
{
	return digest_cmp(key, ((const struct res_memo_rec *)elem)->key);
}

static int cmp_rec(const void *a, const void *b)
{
	return cmp_key(((const struct res_memo_rec *)a)->key, b);
}

/* The keys are digests, spread evenly: the top bits of a key's first word
 * name a bucket of a few records (m->bucket[b] is the first record of
 * bucket b), whose first record is the one cache miss a lookup takes, and
 * can be asked for ahead. Within a bucket, bisection: any file, even one
 * whose keys all fall in one bucket, is searched in logarithmic time. */
static size_t bucket_of(const struct res_memo *m, const unsigned long long key[2])
{
	return m->bits ? (size_t)(key[0] >> (64 - m->bits)) : 0;
}

/* A few records a bucket. */
static unsigned bucket_bits(size_t n)
{
	unsigned bits = 0;
	while (bits < 30 && ((size_t)1 << bits) < n / 4)
		bits++;
	return bits;
}

static void make_buckets(struct res_memo *m)
{
	m->bits = bucket_bits(m->n);
	size_t nb = (size_t)1 << m->bits;
	m->bucket = xmalloc((nb + 1) * sizeof *m->bucket);
	size_t k = 0;
	for (size_t b = 0; b < nb; b++) {
		while (k < m->n && bucket_of(m, m->v[k].key) < b)
			k++;
		m->bucket[b] = (uint32_t)k;
	}
	m->bucket[nb] = (uint32_t)m->n;
}

void res_memo_load(struct res_memo *m, const char *source_dir, const char env[33])
{
	memset(m, 0, sizeof *m);
	char *dir = path_join(source_dir, MEMO_DIR);
	char *file = path_join(dir, MEMO_NAME);
	struct buf b = BUF_INIT;
	unsigned long long counts[2]; /* records, topics */
	if (buf_read_file(&b, file) || b.n < MEMO_HEAD + sizeof counts ||
	    memcmp(b.p, MEMO_MAGIC, sizeof MEMO_MAGIC - 1) ||
	    memcmp(b.p + sizeof MEMO_MAGIC - 1, env, 32) || b.p[MEMO_HEAD - 1] != '\n')
		goto out;
	memcpy(counts, b.p + MEMO_HEAD, sizeof counts);
	size_t room = b.n - MEMO_HEAD - sizeof counts;
	if (counts[0] > room / sizeof *m->v || counts[1] > room / sizeof *m->topics ||
	    counts[0] * sizeof *m->v + counts[1] * sizeof *m->topics != room)
		goto out;
	const char *p = b.p + MEMO_HEAD + sizeof counts;
	m->n = counts[0];
	m->ntopics = counts[1];
	m->v = xmalloc((m->n + 1) * sizeof *m->v);
	memcpy(m->v, p, m->n * sizeof *m->v);
	m->topics = xmalloc((m->ntopics + 1) * sizeof *m->topics);
	memcpy(m->topics, p + m->n * sizeof *m->v, m->ntopics * sizeof *m->topics);
	for (size_t i = 0; i < m->n; i++)
		if ((i && cmp_rec(&m->v[i - 1], &m->v[i]) >= 0) || m->v[i].topics_at > m->ntopics ||
		    m->v[i].ntopics > m->ntopics - m->v[i].topics_at) {
			res_memo_free(m); /* not sorted, or out of bounds: not ours */
			break;
		}
	if (m->n && m->n < UINT32_MAX)
		make_buckets(m);
	else
		res_memo_free(m);
out:
	buf_free(&b);
	free(file);
	free(dir);
}

void res_memo_prefetch(const struct res_memo *m, const unsigned long long key[2])
{
	if (m->bucket)
		__builtin_prefetch(&m->v[m->bucket[bucket_of(m, key)]]);
}

const struct res_memo_rec *res_memo_find(const struct res_memo *m, const unsigned long long key[2])
{
	if (!m->bucket)
		return NULL;
	size_t b = bucket_of(m, key), lo = m->bucket[b], hi = m->bucket[b + 1];
	return hi > lo ? bsearch(key, m->v + lo, hi - lo, sizeof *m->v, cmp_key) : NULL;
}

/* Sorted by key: dealt into the buckets by the keys' top bits (the keys
 * are digests: a few a bucket), then each bucket sorted. */
static void sort_records(struct res_memo_rec *v, size_t n)
{
	struct res_memo m = {.n = n, .bits = bucket_bits(n)};
	size_t nb = (size_t)1 << m.bits, *at = xcalloc(nb + 1, sizeof *at);
	for (size_t k = 0; k < n; k++)
		at[bucket_of(&m, v[k].key) + 1]++;
	for (size_t b = 0; b < nb; b++)
		at[b + 1] += at[b];
	struct res_memo_rec *out = xmalloc((n + 1) * sizeof *out);
	for (size_t k = 0; k < n; k++)
		out[at[bucket_of(&m, v[k].key)]++] = v[k];
	/* at[b] is now where bucket b ends */
	for (size_t b = 0, from = 0; b < nb; from = at[b++])
		if (at[b] - from > 1)
			qsort(out + from, at[b] - from, sizeof *out, cmp_rec);
	memcpy(v, out, n * sizeof *v);
	free(out);
	free(at);
}

void res_memo_save(const char *source_dir, const char env[33], struct res_memo_rec *v, size_t n,
		   const int32_t *topics, size_t ntopics)
{
	sort_records(v, n);
	struct buf b = BUF_INIT;
	buf_puts(&b, MEMO_MAGIC);
	buf_put(&b, env, 32);
	buf_putc(&b, '\n');
	unsigned long long counts[2] = {n, ntopics};
	buf_put(&b, counts, sizeof counts);
	buf_put(&b, v, n * sizeof *v);
	buf_put(&b, topics, ntopics * sizeof *topics);
	int dfd = path_open_subdir(source_dir, MEMO_DIR, true);
	if (dfd >= 0) {
		path_replace_at(dfd, MEMO_NAME, b.p, b.n); /* a cache: unwritten, it is rebuilt */
		close(dfd);
	}
	buf_free(&b);
}

void res_memo_free(struct res_memo *m)
{
	free(m->v);
	free(m->topics);
	free(m->bucket);
	memset(m, 0, sizeof *m);
}
