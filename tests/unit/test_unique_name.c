/* test_unique_name: the names given are the ones a search from the first
 * number up gives (the rule heading ids, resources' and documents' slugs
 * had), for bases that repeat, bases that look numbered already and reserved
 * names; and a crowd of one base gets its numbers in order. */
#include "testutil.h"

#include "unique_name.h"

/* The plain rule: base when free, else the smallest base-N, N >= first, not
 * among the n names in taken. */
static char *reference(char **taken, size_t n, const char *base, int first)
{
	char *name = strdup(base);
	for (int k = first;; k++) {
		bool used = false;
		for (size_t i = 0; i < n && !used; i++)
			used = !strcmp(taken[i], name);
		if (!used)
			return name;
		free(name);
		size_t len = strlen(base) + 16;
		name = malloc(len);
		snprintf(name, len, "%s-%d", base, k);
	}
}

static void check_against_reference(int first, unsigned seed)
{
	static const char *bases[] = {"a", "a-1", "a-2", "a-3", "b", "a-2-2", "b-2", "section", "r"};
	enum { N = 400 };
	char *given[N + 2];
	char *ref[N + 2];
	struct unique_names u;
	unique_names_init(&u, first);
	unique_names_reserve(&u, "r");
	ref[0] = strdup("r");
	size_t nref = 1;
	for (size_t i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		const char *base = bases[(seed >> 16) % (sizeof bases / sizeof *bases)];
		given[i] = unique_name_take(&u, strdup(base));
		char *want = reference(ref, nref, base, first);
		assert_string_equal(given[i], want);
		assert_true(unique_names_taken(&u, given[i]));
		ref[nref++] = want;
	}
	assert_false(unique_names_taken(&u, "c"));
	unique_names_free(&u);
	for (size_t i = 0; i < N; i++)
		free(given[i]);
	for (size_t i = 0; i < nref; i++)
		free(ref[i]);
}

static void test_same_names_as_a_search(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 5; seed++) {
		check_against_reference(1, seed);
		check_against_reference(2, seed);
	}
}

/* 20,000 of one base, then a base numbered like one of them: each name is the
 * next number, and the numbered base goes on from its own "-1". */
static void test_a_crowd(void **state)
{
	(void)state;
	enum { N = 20000 };
	struct unique_names u;
	unique_names_init(&u, 1);
	char **names = calloc(N, sizeof *names);
	for (size_t i = 0; i < N; i++) {
		names[i] = unique_name_take(&u, strdup("notes"));
		char want[32];
		if (i)
			snprintf(want, sizeof want, "notes-%zu", i);
		else
			snprintf(want, sizeof want, "notes");
		assert_string_equal(names[i], want);
	}
	char *other = unique_name_take(&u, strdup("notes-5"));
	assert_string_equal(other, "notes-5-1");
	free(other);
	unique_names_free(&u);
	for (size_t i = 0; i < N; i++)
		free(names[i]);
	free(names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_names_as_a_search),
		cmocka_unit_test(test_a_crowd),
	};
	return cmocka_run_group_tests_name("unique_name", tests, NULL, NULL);
}
