/* phrases: whole-word phrase matching in one pass (see phrases.h). */
#include "phrases.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* First words longer than this go to the searched phrases (none in practice). */
#define FIRST_MAX 127

/* ASCII letters and digits (isalnum in the C locale, which ssg runs in): a
 * table, as the matcher looks at every byte of 60,000 resources' texts,
 * where isalnum asks for the thread's locale table at each. */
static const bool alnum[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
	['8'] = 1, ['9'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
	['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
	['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1,
	['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1,
	['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1,
	['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1,
	['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

static bool word_char(char c) { return alnum[(unsigned char)c]; }

bool phrase_in(const char *text, const char *phrase)
{
	size_t n = strlen(phrase);
	if (!n)
		return false;
	for (const char *p = strstr(text, phrase); p; p = strstr(p + 1, phrase))
		if ((p == text || !word_char(p[-1])) && !word_char(p[n]))
			return true;
	return false;
}

/* The length of the run of letters and digits at s. */
static size_t word_len(const char *s)
{
	size_t n = 0;
	while (word_char(s[n]))
		n++;
	return n;
}

void phrase_set_add(struct phrase_set *p, const char *phrase, size_t id)
{
	size_t len = strlen(phrase);
	if (!len)
		return;
	p->v = xgrow(p->v, &p->cap, p->n + 1, sizeof *p->v);
	size_t k = p->n++;
	p->v[k] = (struct phrase){xstrdup(phrase), len, id, SIZE_MAX, 0};
	size_t fl = word_len(phrase);
	if (!fl || fl > FIRST_MAX) {
		p->odd = xgrow(p->odd, &p->capodd, p->nodd + 1, sizeof *p->odd);
		p->odd[p->nodd++] = k;
		return;
	}
	/* the chain of its first byte, at its end: tried in the order added */
	size_t *at = &p->by_byte[(unsigned char)phrase[0]];
	while (*at)
		at = &p->v[*at - 1].next_byte;
	*at = k + 1;
	/* the table's key: the first word alone */
	char key[FIRST_MAX + 1];
	memcpy(key, phrase, fl);
	key[fl] = '\0';
	size_t head;
	if (hash_get(&p->first, key, &head)) {
		/* appended at the chain's end: phrases are tried in the order added */
		while (p->v[head].next != SIZE_MAX)
			head = p->v[head].next;
		p->v[head].next = k;
	} else {
		hash_put(&p->first, xstrndup(phrase, fl), k); /* freed with the set */
	}
}

/* Phrase ph at s, a word start: hit when it stands there as whole words. */
static void try_phrase(const struct phrase *ph, const char *s, bool *hit)
{
	if (!hit[ph->id] && !strncmp(s, ph->text, ph->len) && !word_char(s[ph->len]))
		hit[ph->id] = true;
}

void phrase_set_match(const struct phrase_set *p, const char *text, bool *hit)
{
	/* a few phrases: each word start against those of its first byte; many:
	 * the word looked up in the table of first words */
	bool few = p->n < PHRASES_ONE_PASS;
	char key[FIRST_MAX + 1];
	for (const char *s = text; p->first.n && *s;) {
		if (!word_char(*s)) {
			s++;
			continue;
		}
		/* a word starts here (what precedes it is no letter or digit) */
		size_t wl = word_len(s), k;
		if (few) {
			for (k = p->by_byte[(unsigned char)*s]; k; k = p->v[k - 1].next_byte)
				try_phrase(&p->v[k - 1], s, hit);
		} else if (wl <= FIRST_MAX) {
			memcpy(key, s, wl);
			key[wl] = '\0';
			if (hash_get(&p->first, key, &k))
				for (; k != SIZE_MAX; k = p->v[k].next)
					try_phrase(&p->v[k], s, hit);
		}
		s += wl;
	}
	for (size_t i = 0; i < p->nodd; i++) {
		const struct phrase *ph = &p->v[p->odd[i]];
		if (!hit[ph->id] && phrase_in(text, ph->text))
			hit[ph->id] = true;
	}
}

void phrase_set_free(struct phrase_set *p)
{
	/* the table's keys are the copies made for the chains' heads */
	for (size_t i = 0; i < p->first.cap; i++)
		free((char *)p->first.slots[i].key);
	hash_free(&p->first);
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].text);
	free(p->v);
	free(p->odd);
	memset(p, 0, sizeof *p);
}
