/* res_memo: each resource's description and classification from the last
 * build, in <site>/.ssg-cache/resources.bin. A record is keyed by the digest
 * of all they are made of (the resource's canonical URL and its citations, by
 * their documents' bytes and places in them), under the document cache's env
 * (ssg and site.yml): the model takes a resource whose key is found from the
 * record instead of picking its names and matching its rules again.
 * A damaged or foreign file reads as empty. Level 3. */
#ifndef SSG_RES_MEMO_H
#define SSG_RES_MEMO_H
#include <stddef.h>
#include <stdint.h>

struct res_memo_rec {
	unsigned long long key[2];
	int32_t title_ref, desc_ref; /* the citations whose title and description it took; -1 none */
	int32_t kind;                /* -1 none */
	uint32_t ntopics, topics_at; /* its topics: topics[topics_at..+ntopics) */
	uint32_t title_rank;         /* its place in the build's order by title (taxonomy.c) */
};

struct res_memo {
	struct res_memo_rec *v; /* sorted by key */
	size_t n;
	uint32_t *bucket;       /* by the top bits of a key: its first record (res_memo.c) */
	unsigned bits;
	int32_t *topics;
	size_t ntopics;
};

/* Empty when missing, damaged or made under another env. */
void res_memo_load(struct res_memo *m, const char *source_dir, const char env[33]);
const struct res_memo_rec *res_memo_find(const struct res_memo *m, const unsigned long long key[2]);
/* Ask the memory for the record res_memo_find will look at first. */
void res_memo_prefetch(const struct res_memo *m, const unsigned long long key[2]);
/* v: n records whose topics_at index topics (sorted here, by key); written
 * whole, in one rename. */
void res_memo_save(const char *source_dir, const char env[33], struct res_memo_rec *v, size_t n,
		   const int32_t *topics, size_t ntopics);
void res_memo_free(struct res_memo *m);

#endif
