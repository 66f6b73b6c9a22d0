/* phrases: a set of phrases, matched in one pass or phrase by phrase, finds
 * exactly what searching for each phrase finds (a phrase as whole words: no letter or digit right
 * before or after it). Checked on chosen cases and on random texts over an
 * alphabet of letters, digits, spaces and punctuation, with phrases that
 * start with punctuation, repeat first words, and run past the text's end. */
#include "testutil.h"
#include "phrases.h"

#include <ctype.h>
#include <stdbool.h>

/* The rule, phrase by phrase, as the taxonomy stated it before the set. */
static bool reference(const char *text, const char *phrase)
{
	size_t n = strlen(phrase);
	if (!n)
		return false;
	for (const char *p = strstr(text, phrase); p; p = strstr(p + 1, phrase)) {
		bool left = p == text || !isalnum((unsigned char)p[-1]);
		bool right = !isalnum((unsigned char)p[n]);
		if (left && right)
			return true;
	}
	return false;
}

/* phrases[0..n) against text, in a set of its own (searched for, as few)
 * and among fillers that make the set large enough for one pass. */
static void check_set(const char *text, const char **phrases, size_t n, size_t fillers)
{
	struct phrase_set set = PHRASE_SET_INIT;
	for (size_t i = 0; i < n; i++)
		phrase_set_add(&set, phrases[i], i);
	char filler[32];
	for (size_t i = 0; i < fillers; i++) {
		snprintf(filler, sizeof filler, "zq%zu", i);
		phrase_set_add(&set, filler, 100);
	}
	bool hit[128] = {false};
	phrase_set_match(&set, text, hit);
	for (size_t i = 0; i < n; i++) {
		if (hit[i] != reference(text, phrases[i]))
			fail_msg("phrase \"%s\" in \"%s\": set says %d, search says %d", phrases[i],
				 text, hit[i], !hit[i]);
		assert_int_equal(phrase_in(text, phrases[i]), hit[i]);
	}
	assert_false(hit[100]);
	phrase_set_free(&set);
}

static void check(const char *text, const char **phrases, size_t n)
{
	check_set(text, phrases, n, 0);
	check_set(text, phrases, n, PHRASES_ONE_PASS);
}

static void test_cases(void **state)
{
	(void)state;
	const char *p[] = {"cuda", "thread block", "c++", ".net", "tensor core", "cuda graphs",
			   "kernel", "", "a", "x86-64", "1st contact"};
	size_t n = sizeof p / sizeof *p;
	check("cuda", p, n);
	check("cudas and cudnn", p, n);
	check("a cuda kernel, per thread block.", p, n);
	check("thread blocks", p, n);
	check("c++ and .net", p, n);
	check("abc++ x.netty", p, n);
	check("tensor cores; tensor core", p, n);
	check("cuda-graphs cuda graphs", p, n);
	check("x86-64x x86-64", p, n);
	check("the 1st contact", p, n);
	check("", p, n);
	check("a", p, n);
	check("kernel", p, n);
	check("tensor", p, n);
	check("thread", p, n);
	/* a phrase whose first word stands in the text but the rest runs past its end */
	check("see cuda gr", p, n);
}

static void test_random(void **state)
{
	(void)state;
	static const char alphabet[] = "ab1 ab-.+\n";
	srand(7);
	char text[96], words[24][12];
	const char *phrases[24];
	for (int round = 0; round < 4000; round++) {
		size_t tl = (size_t)(rand() % 90);
		for (size_t i = 0; i < tl; i++)
			text[i] = alphabet[rand() % (int)(sizeof alphabet - 1)];
		text[tl] = '\0';
		size_t np = 1 + (size_t)(rand() % 24);
		for (size_t k = 0; k < np; k++) {
			size_t wl = (size_t)(rand() % 7);
			for (size_t i = 0; i < wl; i++)
				words[k][i] = alphabet[rand() % (int)(sizeof alphabet - 2)];
			words[k][wl] = '\0';
			/* phrases cut from the text itself, so that many are found */
			if (tl && rand() % 2) {
				size_t at = (size_t)(rand() % (int)tl);
				size_t len = 1 + (size_t)(rand() % 6);
				if (at + len > tl)
					len = tl - at;
				memcpy(words[k], text + at, len);
				words[k][len] = '\0';
			}
			phrases[k] = words[k];
		}
		check(text, phrases, np);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
