/* test_url_memo: url_canonical_memo answers as url_canonical does, for the
 * first asking and every later one, NULL included; on threads of their
 * own; and past the point where a thread's table starts again empty
 * (100,000 distinct URLs, more than it holds). */
#include "testutil.h"

#include "pool.h"
#include "url.h"
#include "url_memo.h"

static const char *const some[] = {
	"https://arxiv.org/abs/1706.03762v5",
	"http://www.GitHub.com/openai/triton/",
	"https://github.com/openai/triton",
	"https://youtu.be/HGsvWHqU29Y?t=3",
	"https://www.youtube.com/watch?v=HGsvWHqU29Y&utm_source=x",
	"https://arxiv.org/pdf/2205.14135.pdf",
	"mailto:someone@example.org",
	"relative/page.md",
	"#anchor",
	"",
	"https://",
	"https://example.org:443/a/./b/../c/",
	" https://example.org/x ",
};
#define NSOME (sizeof some / sizeof *some)

/* Whether the two agree (for threads, where cmocka cannot fail a test). */
static bool agree(const char *url)
{
	char *want = url_canonical(url), *got = url_canonical_memo(url);
	bool same = want ? got && !strcmp(got, want) : !got;
	free(want);
	free(got);
	return same;
}

static void same_as_plain(const char *url)
{
	assert_same_string_or_null(url_canonical_memo(url), url_canonical(url));
}

static void test_same_answers(void **state)
{
	(void)state;
	assert_null(url_canonical_memo(NULL));
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < NSOME; i++)
			same_as_plain(some[i]);
}

/* Distinct URLs, then the first ones again: asked after the table was
 * dropped, and while it fills anew. */
static void test_past_full(void **state)
{
	(void)state;
	char url[96];
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 100000; i++) {
			snprintf(url, sizeof url, "http://www.Example%d.org/a/%d/?utm_source=%d", i % 7,
				 i, round);
			char *want = url_canonical(url), *got = url_canonical_memo(url);
			assert_non_null(got);
			assert_string_equal(got, want);
			free(want);
			free(got);
		}
	for (size_t i = 0; i < NSOME; i++)
		same_as_plain(some[i]);
}

static void on_a_thread(void *ctx, size_t i)
{
	int *differ = ctx;
	for (int round = 0; round < 3; round++)
		if (!agree(some[(i + (size_t)round) % NSOME]))
			__atomic_fetch_add(differ, 1, __ATOMIC_RELAXED);
}

static void test_threads(void **state)
{
	(void)state;
	int differ = 0;
	pool_run(4, 64, on_a_thread, &differ);
	assert_int_equal(differ, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_answers),
		cmocka_unit_test(test_past_full),
		cmocka_unit_test(test_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
