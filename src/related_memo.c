/* related_memo: related documents kept between builds (see related_memo.h).
 *
 * The file: "ssg-related 1 <env>\n", the key (two words), the number of
 * documents, then the documents' related_docs as they are in memory (the env
 * names this very program), each checked when read. */
#include "related_memo.h"
#include "buf.h"
#include "digest.h"
#include "path.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MEMO_DIR ".ssg-cache"
#define MEMO_NAME "related.bin"
#define MEMO_MAGIC "ssg-related 1 "
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

bool related_memo_load(const char *source_dir, const char env[33], const unsigned long long key[2],
		       size_t ndocs, struct related_docs *rel)
{
	char *dir = path_join(source_dir, MEMO_DIR);
	char *file = path_join(dir, MEMO_NAME);
	free(dir);
	struct buf b = BUF_INIT;
	unsigned long long head[3];
	bool ok = buf_read_file(&b, file) == 0 &&
		  b.n == MEMO_HEAD + sizeof head + ndocs * sizeof *rel &&
		  !memcmp(b.p, MEMO_MAGIC, sizeof MEMO_MAGIC - 1) &&
		  !memcmp(b.p + sizeof MEMO_MAGIC - 1, env, 32) && b.p[MEMO_HEAD - 1] == '\n';
	if (ok) {
		memcpy(head, b.p + MEMO_HEAD, sizeof head);
		ok = head[0] == key[0] && head[1] == key[1] && head[2] == ndocs;
	}
	if (ok)
		memcpy(rel, b.p + MEMO_HEAD + sizeof head, ndocs * sizeof *rel);
	/* a damaged file cannot point outside the documents, nor at one itself */
	for (size_t d = 0; ok && d < ndocs; d++) {
		ok = rel[d].n <= XREF_RELATED_SHOWN;
		for (size_t k = 0; ok && k < XREF_RELATED_SHOWN; k++)
			ok = k < rel[d].n ? rel[d].v[k] < ndocs && rel[d].v[k] != d : !rel[d].v[k];
	}
	if (!ok)
		memset(rel, 0, ndocs * sizeof *rel);
	buf_free(&b);
	free(file);
	return ok;
}

void related_memo_save(const char *source_dir, const char env[33], const unsigned long long key[2],
		       size_t ndocs, const struct related_docs *rel)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, MEMO_MAGIC);
	buf_put(&b, env, 32);
	buf_putc(&b, '\n');
	unsigned long long head[3] = {key[0], key[1], ndocs};
	buf_put(&b, head, sizeof head);
	buf_put(&b, rel, ndocs * sizeof *rel);
	int dfd = path_open_subdir(source_dir, MEMO_DIR, true);
	if (dfd >= 0) {
		path_replace_at(dfd, MEMO_NAME, b.p, b.n); /* a cache: unwritten, it is made again */
		close(dfd);
	}
	buf_free(&b);
}
