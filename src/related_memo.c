/* related_memo: related documents kept between builds (see related_memo.h).
 *
 * The file: "ssg-related 2 <env>\n", the site's key (two words), the number
 * of documents, then each document's key, then the documents' related_docs
 * as they are in memory (the env names this very program), each checked
 * when read. */
#include "related_memo.h"
#include "buf.h"
#include "digest.h"
#include "path.h"
#include "pool.h"
#include "xalloc.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MEMO_DIR ".ssg-cache"
#define MEMO_NAME "related.bin"
#define MEMO_MAGIC "ssg-related 2 "
#define MEMO_HEAD (sizeof MEMO_MAGIC - 1 + 33)

void related_memo_key(const struct site *s, unsigned long long key[2])
{
	struct digest d;
	digest_start(&d);
	digest_word(&d, XREF_RELATED_SHOWN);
	digest_word(&d, XREF_RELATED_MAX_CITERS);
	digest_word(&d, s->nres);
	digest_word(&d, s->ndocs);
	for (size_t i = 0; i < s->ndocs; i++) {
		const struct doc *doc = &s->docs[i];
		digest_word(&d, doc->ncites);
		for (size_t k = 0; k < doc->ncites; k++)
			digest_word(&d, (unsigned long long)doc->cites[k].resource);
	}
	digest_end(&d, key);
}

/* Whether a resource takes part in scoring (xref.c's related_of). */
static bool scores(const struct resource *r)
{
	return r->ndocs >= 2 && r->ndocs <= XREF_RELATED_MAX_CITERS;
}

#define CITER_BATCH 1024
struct citer_job {
	const struct site *s;
	related_key *out;
};

static void citer_batch(void *ctx, size_t b)
{
	struct citer_job *j = ctx;
	const struct site *s = j->s;
	size_t end = (b + 1) * CITER_BATCH < s->nres ? (b + 1) * CITER_BATCH : s->nres;
	for (size_t ri = b * CITER_BATCH; ri < end; ri++) {
		const struct resource *r = &s->res[ri];
		if (!scores(r))
			continue;
		struct digest d;
		digest_start(&d);
		size_t last = (size_t)-1;
		for (size_t k = 0; k < r->nrefs; k++)
			if (r->refs[k].doc != last) {
				last = r->refs[k].doc;
				digest_word(&d, last);
			}
		digest_end(&d, j->out[ri]);
	}
}

related_key *related_memo_citer_keys(const struct site *s, int jobs)
{
	struct citer_job j = {s, xcalloc(s->nres + 1, sizeof(related_key))};
	pool_run(jobs, (s->nres + CITER_BATCH - 1) / CITER_BATCH, citer_batch, &j);
	return j.out;
}

void related_memo_doc_key(const struct site *s, const related_key *citers, size_t d,
			  size_t *seen, unsigned long long out[2])
{
	/* as related_of meets them: each scoring resource once, in the order
	 * of the document's citations, with its weight (its count of citing
	 * documents) and those documents */
	const struct doc *doc = &s->docs[d];
	struct digest g;
	digest_start(&g);
	digest_word(&g, d);
	for (size_t i = 0; i < doc->ncites; i++) {
		long ri = doc->cites[i].resource;
		if (ri < 0 || !scores(&s->res[ri]) || seen[ri] == d + 1)
			continue;
		seen[ri] = d + 1;
		digest_word(&g, s->res[ri].ndocs);
		digest_word(&g, citers[ri][0]);
		digest_word(&g, citers[ri][1]);
	}
	digest_end(&g, out);
}

bool related_memo_load(const char *source_dir, const char env[33], struct related_memo *m)
{
	memset(m, 0, sizeof *m);
	char *dir = path_join(source_dir, MEMO_DIR);
	char *file = path_join(dir, MEMO_NAME);
	free(dir);
	struct buf b = BUF_INIT;
	unsigned long long head[3];
	bool ok = buf_read_file(&b, file) == 0 && b.n >= MEMO_HEAD + sizeof head &&
		  !memcmp(b.p, MEMO_MAGIC, sizeof MEMO_MAGIC - 1) &&
		  !memcmp(b.p + sizeof MEMO_MAGIC - 1, env, 32) && b.p[MEMO_HEAD - 1] == '\n';
	size_t per = sizeof(related_key) + sizeof(struct related_docs);
	if (ok) {
		memcpy(head, b.p + MEMO_HEAD, sizeof head);
		ok = head[2] <= (b.n - MEMO_HEAD - sizeof head) / per &&
		     b.n == MEMO_HEAD + sizeof head + head[2] * per;
	}
	if (ok) {
		m->key[0] = head[0];
		m->key[1] = head[1];
		m->ndocs = head[2];
		m->doc_keys = xcalloc(m->ndocs + 1, sizeof *m->doc_keys);
		m->rel = xcalloc(m->ndocs + 1, sizeof *m->rel);
		const char *p = b.p + MEMO_HEAD + sizeof head;
		memcpy(m->doc_keys, p, m->ndocs * sizeof *m->doc_keys);
		memcpy(m->rel, p + m->ndocs * sizeof *m->doc_keys, m->ndocs * sizeof *m->rel);
	}
	/* a damaged file cannot point outside its documents, nor at one itself */
	for (size_t d = 0; ok && d < m->ndocs; d++) {
		const struct related_docs *r = &m->rel[d];
		ok = r->n <= XREF_RELATED_SHOWN;
		for (size_t k = 0; ok && k < XREF_RELATED_SHOWN; k++)
			ok = k < r->n ? r->v[k] < m->ndocs && r->v[k] != d : !r->v[k];
	}
	if (!ok)
		related_memo_free(m);
	buf_free(&b);
	free(file);
	return ok;
}

void related_memo_free(struct related_memo *m)
{
	free(m->doc_keys);
	free(m->rel);
	memset(m, 0, sizeof *m);
}

void related_memo_save(const char *source_dir, const char env[33], const unsigned long long key[2],
		       size_t ndocs, const related_key *doc_keys, const struct related_docs *rel)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, MEMO_MAGIC);
	buf_put(&b, env, 32);
	buf_putc(&b, '\n');
	unsigned long long head[3] = {key[0], key[1], ndocs};
	buf_put(&b, head, sizeof head);
	buf_put(&b, doc_keys, ndocs * sizeof *doc_keys);
	buf_put(&b, rel, ndocs * sizeof *rel);
	int dfd = path_open_subdir(source_dir, MEMO_DIR, true);
	if (dfd >= 0) {
		path_replace_at(dfd, MEMO_NAME, b.p, b.n); /* a cache: unwritten, it is made again */
		close(dfd);
	}
	buf_free(&b);
}
