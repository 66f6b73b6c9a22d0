/* test_build_state: the documents' pages (.ssg-docs) come back as saved,
 * field for field: paths with tabs, newlines and backslashes in them,
 * places before the body (-1: none) and lengths of any size; a file saved
 * under another frame is not read; a damaged line is left out; a record
 * added to the ones read is found beside them, and all are freed. */
#include "testutil.h"

#include <unistd.h>

#include "build_state.h"

static const char FRAME[33] = "00112233445566778899aabbccddeeff";

static void test_doc_pages_round_trip(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-state-XXXXXX";
	assert_non_null(mkdtemp(dir));
	static const struct {
		const char *rel, *page;
		long at, len;
	} recs[] = {
		{"a.md", "a/index.html", 0, 0},
		{"guides/intro.md", "guides-intro/index.html", 1234567890L, 42},
		{"tab\there.md", "tab-here/index.html", -1, 0},
		{"new\nline.md", "new-line/index.html", 7, 9999999},
		{"back\\slash\\.md", "", -1, 0},
		{"\\t not a tab.md", "x/index.html", 3, 4},
	};
	size_t n = sizeof recs / sizeof *recs;
	struct doc_pages p = {0};
	for (size_t i = 0; i < n; i++) {
		unsigned long long d[2] = {0x0123456789abcdefULL * (i + 1), ~0ULL - i};
		doc_pages_add(&p, recs[i].rel, recs[i].page, d, recs[i].at, recs[i].len);
	}
	doc_pages_save(&p, dir, FRAME);
	struct doc_pages q = {0};
	assert_int_equal(doc_pages_load(&q, dir, FRAME), 0);
	assert_int_equal(q.n, n);
	for (size_t i = 0; i < n; i++) {
		const struct doc_page_rec *r = doc_pages_find(&q, recs[i].rel);
		assert_non_null(r);
		assert_string_equal(r->page, recs[i].page);
		assert_true(r->digest[0] == 0x0123456789abcdefULL * (i + 1));
		assert_true(r->digest[1] == ~0ULL - i);
		assert_int_equal(r->at, recs[i].at);
		assert_int_equal(r->len, recs[i].len);
	}
	/* a record added to the ones read (their strings lie in the file's
	 * bytes, its own are its own): both found, both freed */
	unsigned long long d2[2] = {7, 8};
	doc_pages_add(&q, "added.md", "added/index.html", d2, 3, 4);
	assert_string_equal(doc_pages_find(&q, "added.md")->page, "added/index.html");
	assert_string_equal(doc_pages_find(&q, recs[0].rel)->page, recs[0].page);
	doc_pages_free(&q);
	/* another frame: nothing */
	char other[33];
	memcpy(other, FRAME, sizeof other);
	other[0] = 'f';
	assert_int_equal(doc_pages_load(&q, dir, other), -1);
	assert_int_equal(q.n, 0);
	doc_pages_free(&q);
	doc_pages_free(&p);
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A damaged line is left out, the others read: a digit that is not
 * lower-case hex, a line cut short, a missing field. */
static void test_doc_pages_damaged(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-state-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char file[64];
	snprintf(file, sizeof file, "%s/" BUILD_DOCS_FILE, dir);
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	const char *good = "0123456789abcdef0123456789abcdef";
	fprintf(f, "ssg-docs 1 %s\n", FRAME);
	fprintf(f, "%s 5 6 good.md\tgood/index.html\n", good);
	fprintf(f, "0123456789ABCDEF0123456789abcdef 5 6 upper.md\tu/index.html\n");
	fprintf(f, "0123456789abcdeg0123456789abcdef 5 6 g.md\tg/index.html\n");
	fprintf(f, "0123456789abcdef0123\n");
	fprintf(f, "%s 5 short.md\n", good);
	fprintf(f, "%s -1 0 last.md\tlast/index.html\n", good);
	fclose(f);
	struct doc_pages q = {0};
	assert_int_equal(doc_pages_load(&q, dir, FRAME), 0);
	assert_int_equal(q.n, 2);
	const struct doc_page_rec *r = doc_pages_find(&q, "good.md");
	assert_non_null(r);
	assert_true(r->digest[0] == 0x0123456789abcdefULL && r->digest[1] == 0x0123456789abcdefULL);
	assert_int_equal(r->at, 5);
	r = doc_pages_find(&q, "last.md");
	assert_non_null(r);
	assert_int_equal(r->at, -1);
	assert_null(doc_pages_find(&q, "upper.md"));
	assert_null(doc_pages_find(&q, "g.md"));
	doc_pages_free(&q);
	unlink(file);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doc_pages_round_trip),
		cmocka_unit_test(test_doc_pages_damaged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
