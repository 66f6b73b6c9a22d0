/* test_build_state: the documents' pages (.ssg-docs) come back as saved,
 * field for field: paths with tabs, newlines and backslashes in them,
 * places before the body (-1: none) and lengths of any size; a file saved
 * under another frame is not read. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doc_pages_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
