/* test_hash: the string hash table (every key found, replaced, told apart
 * however long and however alike), map lookups, and the value digest (equal trees give equal digests, any difference in a key
 * or a string gives another). */
#include "testutil.h"

#include "hash.h"
#include "value.h"

/* Keys of every length from 0 to 40 bytes that differ in one byte only, at
 * every position: the word-at-a-time hash must still tell them apart. */
static void test_alike_keys(void **state)
{
	(void)state;
	enum { MAXLEN = 40 };
	char *keys[MAXLEN + 1][MAXLEN + 1] = {{0}};
	struct hash t = HASH_INIT;
	size_t n = 0;
	for (size_t len = 0; len <= MAXLEN; len++)
		for (size_t at = 0; at <= len; at++) {
			char *k = calloc(len + 1, 1);
			memset(k, 'a', len);
			if (at < len)
				k[at] = 'b'; /* at == len: all 'a' */
			keys[len][at] = k;
			hash_put(&t, k, len * 100 + at);
			n++;
		}
	assert_int_equal(t.n, n);
	for (size_t len = 0; len <= MAXLEN; len++)
		for (size_t at = 0; at <= len; at++) {
			size_t v = 0;
			assert_true(hash_get(&t, keys[len][at], &v));
			assert_int_equal(v, len * 100 + at);
		}
	/* absent: two changed bytes, and one byte longer than the longest */
	assert_false(hash_get(&t, "bb", NULL));
	assert_false(hash_get(&t, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL));
	/* replacing keeps one entry */
	hash_put(&t, keys[9][3], 7);
	assert_int_equal(t.n, n);
	size_t v = 0;
	assert_true(hash_get(&t, keys[9][3], &v));
	assert_int_equal(v, 7);
	hash_free(&t);
	for (size_t len = 0; len <= MAXLEN; len++)
		for (size_t at = 0; at <= len; at++)
			free(keys[len][at]);
}

/* 100,000 URL-like keys: all found; the slots they pick are spread (no
 * probe run grows long, which a hash with weak low bits would give). */
static void test_many_keys(void **state)
{
	(void)state;
	enum { N = 100000 };
	char **keys = calloc(N, sizeof *keys);
	struct hash t = HASH_INIT;
	for (size_t i = 0; i < N; i++) {
		char k[64];
		snprintf(k, sizeof k, "https://example.org/paper/%zu", i);
		keys[i] = strdup(k);
		hash_put(&t, keys[i], i);
	}
	assert_int_equal(t.n, N);
	size_t longest = 0, run = 0;
	for (size_t i = 0; i < t.cap; i++) {
		run = t.slots[i].key ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	assert_true(longest < 64);
	for (size_t i = 0; i < N; i++) {
		size_t v = 0;
		assert_true(hash_get(&t, keys[i], &v));
		assert_int_equal(v, i);
	}
	hash_free(&t);
	for (size_t i = 0; i < N; i++)
		free(keys[i]);
	free(keys);
}

static void digest_of(const struct val *v, unsigned long long out[2])
{
	val_digest(v, NULL, 0, out);
}

static struct val *map1(const char *key, const char *s)
{
	struct val *m = val_map();
	val_set_str(m, key, s);
	return m;
}

static bool same_digest(struct val *a, struct val *b)
{
	unsigned long long x[2], y[2];
	digest_of(a, x);
	digest_of(b, y);
	val_free(a);
	val_free(b);
	return x[0] == y[0] && x[1] == y[1];
}

/* Short keys are fed as one word with their length: keys that are prefixes
 * of each other, of 7 and 8 bytes, or swapped with the value, still differ. */
static void test_digest_keys(void **state)
{
	(void)state;
	assert_true(same_digest(map1("title", "x"), map1("title", "x")));
	assert_false(same_digest(map1("title", "x"), map1("titles", "x")));
	assert_false(same_digest(map1("url", "x"), map1("ur", "x")));
	assert_false(same_digest(map1("abcdefg", "x"), map1("abcdefgh", "x")));
	assert_false(same_digest(map1("abcdefgh", "x"), map1("abcdefgi", "x")));
	assert_false(same_digest(map1("a", "b"), map1("b", "a")));
	assert_false(same_digest(map1("", "x"), map1("x", "")));
	/* the key's bytes, not its pointer */
	char k1[] = "section", k2[] = "section";
	assert_true(same_digest(map1(k1, "v"), map1(k2, "v")));
	/* order matters: maps keep insertion order */
	struct val *a = val_map(), *b = val_map();
	val_set_str(a, "x", "1");
	val_set_str(a, "y", "2");
	val_set_str(b, "y", "2");
	val_set_str(b, "x", "1");
	assert_false(same_digest(a, b));
}

/* Map lookups, with 200 keys and with one: each key is found, a prefix or
 * an extension of one is not, val_set replaces rather than adds, and
 * has_<list> answers whether the list has items. */
static void test_map_key_bits(void **state)
{
	(void)state;
	for (size_t size = 1; size <= 200; size += 199) {
		struct val *m = val_map();
		char keys[200][16];
		for (size_t i = 0; i < size; i++) {
			snprintf(keys[i], sizeof keys[i], "k%zu%c", i * 7919 % 1000, (char)('a' + i % 26));
			if (i % 2)
				val_setk_str(m, keys[i], keys[i]);
			else
				val_set_str(m, keys[i], keys[i]);
		}
		for (size_t i = 0; i < size; i++) {
			const struct val *v = val_get(m, keys[i]);
			assert_non_null(v);
			assert_string_equal(v->s, keys[i]);
			/* a prefix and an extension of a present key are absent */
			assert_null(val_getn(m, keys[i], strlen(keys[i]) - 1));
			char longer[24];
			snprintf(longer, sizeof longer, "%.15sz", keys[i]); /* a key is under 16 */
			assert_null(val_get(m, longer));
		}
		assert_null(val_get(m, "root"));
		assert_null(val_get(m, ""));
		val_set_str(m, keys[0], "replaced");
		assert_int_equal(m->n, size);
		assert_string_equal(val_get(m, keys[0])->s, "replaced");
		val_setk(m, "items", val_list());
		val_push((struct val *)val_get(m, "items"), val_str("one"));
		assert_true(val_truthy(val_get(m, "has_items")));
		assert_null(val_get(m, "has_others"));
		val_free(m);
	}
}

/* Strings of every length up to 24 (tails of 1 to 7 bytes are fed in fixed
 * loads), all 'a' or with one byte changed at any position: all digests
 * differ, and the same string always gives the same one. */
static void test_digest_strings(void **state)
{
	(void)state;
	enum { MAXLEN = 24, MAXN = (MAXLEN + 1) * (MAXLEN + 2) / 2 };
	unsigned long long (*seen)[2] = calloc(MAXN, sizeof *seen);
	size_t n = 0;
	char s[MAXLEN + 1];
	for (size_t len = 0; len <= MAXLEN; len++)
		for (size_t at = 0; at <= len; at++) {
			memset(s, 'a', len);
			s[len] = '\0';
			if (at < len)
				s[at] = 'b';
			struct val *v = val_str(s), *again = val_str(s);
			unsigned long long d[2], e[2];
			digest_of(v, d);
			digest_of(again, e);
			val_free(v);
			val_free(again);
			assert_true(d[0] == e[0] && d[1] == e[1]);
			for (size_t k = 0; k < n; k++)
				assert_false(seen[k][0] == d[0] && seen[k][1] == d[1]);
			seen[n][0] = d[0];
			seen[n][1] = d[1];
			n++;
		}
	assert_int_equal(n, MAXN);
	free(seen);
}

/* A table reserved for n keys takes them without growing; keys put with
 * their hash known are found by hash_get, and the other way round; a key
 * reserved past the table's size keeps what it held. */
static void test_reserve_and_known_hash(void **state)
{
	(void)state;
	enum { N = 5000 };
	char **keys = calloc(N, sizeof *keys);
	struct hash t = HASH_INIT;
	hash_put(&t, "before", 7);
	hash_reserve(&t, N + 1);
	size_t cap = t.cap;
	assert_true((N + 2) * 4 <= cap * 3);
	for (size_t i = 0; i < N; i++) {
		char k[64];
		snprintf(k, sizeof k, "https://example.org/reserved/%zu", i);
		keys[i] = strdup(k);
		if (i % 2)
			hash_put_h(&t, keys[i], hash_str(keys[i]), i);
		else
			hash_put(&t, keys[i], i);
	}
	assert_int_equal(t.cap, cap); /* never grew */
	assert_int_equal(t.n, N + 1);
	for (size_t i = 0; i < N; i++) {
		size_t v = 0, w = 0;
		assert_true(hash_get(&t, keys[i], &v));
		assert_true(hash_get_h(&t, keys[i], hash_str(keys[i]), &w));
		assert_int_equal(v, i);
		assert_int_equal(w, i);
	}
	size_t v = 0;
	assert_true(hash_get(&t, "before", &v));
	assert_int_equal(v, 7);
	assert_false(hash_get_h(&t, "absent", hash_str("absent"), NULL));
	hash_reserve(&t, 10); /* smaller than it is: nothing changes */
	assert_int_equal(t.cap, cap);
	hash_free(&t);
	struct hash empty = HASH_INIT;
	assert_false(hash_get_h(&empty, "x", hash_str("x"), NULL));
	for (size_t i = 0; i < N; i++)
		free(keys[i]);
	free(keys);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alike_keys),
		cmocka_unit_test(test_many_keys),
		cmocka_unit_test(test_reserve_and_known_hash),
		cmocka_unit_test(test_digest_keys),
		cmocka_unit_test(test_digest_strings),
		cmocka_unit_test(test_map_key_bits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
