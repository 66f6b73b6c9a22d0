/* test_related_memo: related documents kept between builds
 * (.ssg-cache/related.bin): a round trip; nothing from another env, from a
 * file whose indices point outside the documents or at the document
 * itself, or that is cut. Each document's key: moved by what scores it
 * (the documents citing its resources, their order), not by what does not
 * (a resource cited once, or by too many, the resources' numbers). */
#include "testutil.h"

#include "output.h"
#include "related_memo.h"

static const char ENV[33] = "0123456789abcdef0123456789abcdef";
static const char OTHER_ENV[33] = "fedcba9876543210fedcba9876543210";

static void sample(struct related_docs *rel)
{
	memset(rel, 0, 4 * sizeof *rel);
	rel[0] = (struct related_docs){{2, 1}, 2};
	rel[1] = (struct related_docs){{0}, 1};
	rel[3] = (struct related_docs){{0, 1, 2}, 3};
}

static char *memo_file(const char *dir)
{
	char *cache = path_join(dir, ".ssg-cache");
	char *file = path_join(cache, "related.bin");
	free(cache);
	return file;
}

static void test_round_trip_and_refusals(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-related-XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct related_docs want[4];
	sample(want);
	related_key keys[4] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
	unsigned long long key[2] = {7, 9};
	related_memo_save(dir, ENV, key, 4, keys, want);
	struct related_memo m;
	assert_true(related_memo_load(dir, ENV, &m));
	assert_int_equal(m.ndocs, 4);
	assert_int_equal(m.key[0], 7);
	assert_int_equal(m.key[1], 9);
	assert_memory_equal(m.doc_keys, keys, sizeof keys);
	assert_memory_equal(m.rel, want, sizeof want);
	related_memo_free(&m);
	assert_false(related_memo_load(dir, OTHER_ENV, &m));
	assert_null(m.rel); /* nothing half filled */
	/* an index past the documents, then the document itself: refused */
	char *file = memo_file(dir);
	size_t n = 0;
	char *bytes = test_read_file(file, &n);
	assert_non_null(bytes);
	size_t row0 = n - 4 * sizeof *want; /* the first document's: its 5 indices, then its count */
	for (int bad = 0; bad < 2; bad++) {
		char *copy = malloc(n);
		memcpy(copy, bytes, n);
		copy[row0] = bad ? 0 : 9; /* doc 0's first related: 9 (none such), or 0 (itself) */
		FILE *f = fopen(file, "wb");
		fwrite(copy, 1, n, f);
		fclose(f);
		assert_false(related_memo_load(dir, ENV, &m));
		free(copy);
	}
	/* cut short */
	FILE *f = fopen(file, "wb");
	fwrite(bytes, 1, n - 1, f);
	fclose(f);
	assert_false(related_memo_load(dir, ENV, &m));
	free(bytes);
	free(file);
	assert_int_equal(output_remove_tree(dir), 0);
}

/* A site of four documents over resources given as, per document, the
 * resources it cites; each resource's citations made from them, in
 * document order. */
#define MAXC 8
struct tiny {
	struct site s;
	struct doc docs[4];
	struct citation cites[4][MAXC];
	struct resource res[XREF_RELATED_MAX_CITERS + 8];
	struct cite_ref refs[4 * MAXC];
};

static void tiny_make(struct tiny *t, const long cited[4][MAXC], size_t nres)
{
	memset(t, 0, sizeof *t);
	t->s.docs = t->docs;
	t->s.ndocs = 4;
	t->s.res = t->res;
	t->s.nres = nres;
	size_t nrefs = 0;
	for (size_t r = 0; r < nres; r++) {
		t->res[r].refs = &t->refs[nrefs];
		for (size_t d = 0; d < 4; d++) {
			bool counted = false;
			for (size_t k = 0; k < MAXC && cited[d][k] >= 0; k++)
				if ((size_t)cited[d][k] == r) {
					t->refs[nrefs++] = (struct cite_ref){.doc = d, .cite = k};
					t->res[r].nrefs++;
					t->res[r].ndocs += !counted;
					counted = true;
				}
		}
	}
	for (size_t d = 0; d < 4; d++) {
		t->docs[d].cites = t->cites[d];
		for (size_t k = 0; k < MAXC && cited[d][k] >= 0; k++) {
			t->cites[d][k].resource = cited[d][k];
			t->docs[d].ncites++;
		}
	}
}

/* Each document's key in site t. */
static void tiny_keys(struct tiny *t, related_key out[4])
{
	related_key *citers = related_memo_citer_keys(&t->s, 2);
	size_t *seen = calloc(t->s.nres + 1, sizeof *seen);
	for (size_t d = 0; d < 4; d++)
		related_memo_doc_key(&t->s, (const related_key *)citers, d, seen, out[d]);
	free(seen);
	free(citers);
}

static void test_document_keys(void **state)
{
	(void)state;
	static struct tiny t;
	related_key was[4], now[4];
	/* resource 0 by documents 0, 1, 2; 1 by 0 and 3; 2 by 2 alone */
	const long base[4][MAXC] = {{0, 1, -1}, {0, -1}, {0, 2, -1}, {1, -1}};
	tiny_make(&t, base, 3);
	tiny_keys(&t, was);
	/* the same site: the same keys */
	tiny_keys(&t, now);
	assert_memory_equal(was, now, sizeof was);
	/* document 3 cites resource 2 too (now cited twice, it scores): the
	 * keys of 2 and 3 move, not those of 0 and 1 */
	const long more[4][MAXC] = {{0, 1, -1}, {0, -1}, {0, 2, -1}, {1, 2, -1}};
	tiny_make(&t, more, 3);
	tiny_keys(&t, now);
	assert_memory_equal(now[0], was[0], sizeof was[0]);
	assert_memory_equal(now[1], was[1], sizeof was[1]);
	assert_memory_not_equal(now[2], was[2], sizeof was[2]);
	assert_memory_not_equal(now[3], was[3], sizeof was[3]);
	/* document 3 cites resource 0 in place of document 2: document 1,
	 * whose citations are as they were, shares it with as many documents,
	 * but others: its key moves */
	const long shared[4][MAXC] = {{0, 1, -1}, {0, -1}, {2, -1}, {1, 0, -1}};
	tiny_make(&t, shared, 3);
	tiny_keys(&t, now);
	assert_memory_not_equal(now[1], was[1], sizeof was[1]);
	/* document 1 cites a resource no other does (it scores nothing), and
	 * the resources are numbered otherwise: no key moves */
	const long alone[4][MAXC] = {{1, 2, -1}, {1, 0, -1}, {1, 3, -1}, {2, -1}};
	tiny_make(&t, alone, 4);
	tiny_keys(&t, now);
	assert_memory_equal(now, was, sizeof was);
	/* a resource cited twice by one document scores once: no key moves */
	const long twice[4][MAXC] = {{0, 1, 0, -1}, {0, -1}, {0, 2, -1}, {1, -1}};
	tiny_make(&t, twice, 3);
	tiny_keys(&t, now);
	assert_memory_equal(now, was, sizeof was);
	/* a document's resources in another order: its key moves (its scores
	 * add up in that order), only its own */
	const long order[4][MAXC] = {{1, 0, -1}, {0, -1}, {0, 2, -1}, {1, -1}};
	tiny_make(&t, order, 3);
	tiny_keys(&t, now);
	assert_memory_not_equal(now[0], was[0], sizeof was[0]);
	assert_memory_equal(now[1], was[1], sizeof was[1]);
	assert_memory_equal(now[3], was[3], sizeof was[3]);
}

static void test_too_common_scores_nothing(void **state)
{
	(void)state;
	/* resource 0 cited by more documents than score: which of them cite it
	 * moves no key (documents past the four of struct tiny stand in as
	 * extra citations of resource 0 in the refs) */
	static struct tiny t;
	const long base[4][MAXC] = {{0, 1, -1}, {0, -1}, {0, 1, -1}, {0, -1}};
	tiny_make(&t, base, 2);
	related_key was[4], now[4];
	t.res[0].ndocs = XREF_RELATED_MAX_CITERS + 1;
	tiny_keys(&t, was);
	t.res[0].nrefs = 3; /* its citers are others now */
	tiny_keys(&t, now);
	assert_memory_equal(now, was, sizeof was);
	t.res[0].ndocs = XREF_RELATED_MAX_CITERS; /* it scores: keys move */
	tiny_keys(&t, now);
	assert_memory_not_equal(now[1], was[1], sizeof was[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_and_refusals),
		cmocka_unit_test(test_document_keys),
		cmocka_unit_test(test_too_common_scores_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
