/* words: splitting and folding text into the search index's words (see
 * words.h). Level 0; calls buf, utf8. */
#include "words.h"
#include "buf.h"
#include "utf8.h"

#include <string.h>

#include "words_fold.h"

#define NRANGES (sizeof fold_ranges / sizeof *fold_ranges)

uint32_t words_fold(uint32_t cp)
{
	if (cp < 0x80)
		return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
	if (cp >= 0x300 && cp <= 0x36F)
		return 0;
	for (size_t i = 0; i < NRANGES; i++)
		if (cp >= fold_ranges[i].first && cp <= fold_ranges[i].last) {
			uint16_t to = fold_ranges[i].to[cp - fold_ranges[i].first];
			return to ? to : cp;
		}
	return cp;
}

bool words_sep(uint32_t cp)
{
	if (cp < 0x80)
		return !((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
			 (cp >= '0' && cp <= '9'));
	/* Latin-1's spaces, signs and punctuation, but its three letters */
	if (cp <= 0xBF)
		return cp != 0xAA && cp != 0xB5 && cp != 0xBA;
	return cp == 0xD7 || cp == 0xF7 || (cp >= 0x2000 && cp <= 0x206F) ||
	       (cp >= 0x3000 && cp <= 0x303F) || cp == 0xFEFF || cp == 0xFFFD;
}

static bool ascii_upper(uint32_t c)
{
	return c >= 'A' && c <= 'Z';
}

static bool ascii_lower(uint32_t c)
{
	return c >= 'a' && c <= 'z';
}

/* A word being gathered: its folded bytes and where its inner parts begin. */
#define PARTS_MAX 8
struct word {
	char b[WORDS_MAX + 4];
	size_t n;
	bool full;  /* cut at WORDS_MAX: later characters are dropped */
	size_t part[PARTS_MAX];
	size_t nparts;
	uint32_t prev, prev2; /* the two characters before, unfolded (0: none) */
};

static void word_flush(struct word *w, word_fn fn, void *ctx, bool *first)
{
	if (!w->n)
		return;
	for (size_t i = 0; fn && i <= w->nparts; i++) {
		size_t at = i ? w->part[i - 1] : 0;
		fn(ctx, w->b + at, w->n - at, *first, i > 0);
	}
	*first = false;
	w->n = 0;
	w->nparts = 0;
	w->full = false;
	w->prev = w->prev2 = 0;
}

/* c (folded: folded) onto the word. */
static void word_add(struct word *w, uint32_t c, uint32_t folded)
{
	if (w->full)
		return;
	char enc[4];
	int len = utf8_encode(folded, enc);
	if (w->n + (size_t)len > WORDS_MAX) {
		w->full = true;
		return;
	}
	memcpy(w->b + w->n, enc, (size_t)len);
	w->n += (size_t)len;
	w->prev2 = w->prev;
	w->prev = c;
}

/* An inner part begins at c: "yT" (PyTorch), or one character back at the
 * last capital of a run followed by a small letter (the G of "AGr" in
 * CUDAGraphs). */
static void word_turn(struct word *w, uint32_t c)
{
	if (!w->n || w->nparts == PARTS_MAX || w->full)
		return;
	if (ascii_lower(w->prev) && ascii_upper(c))
		w->part[w->nparts++] = w->n;
	else if (ascii_upper(w->prev) && ascii_upper(w->prev2) && ascii_lower(c) && w->n > 1 &&
		 (!w->nparts || w->part[w->nparts - 1] < w->n - 1))
		w->part[w->nparts++] = w->n - 1;
}

/* ASCII: 0 a separator, else the character folded */
static const unsigned char ascii_fold[128] = {
	['0'] = '0', ['1'] = '1', ['2'] = '2', ['3'] = '3', ['4'] = '4', ['5'] = '5', ['6'] = '6',
	['7'] = '7', ['8'] = '8', ['9'] = '9', ['a'] = 'a', ['b'] = 'b', ['c'] = 'c', ['d'] = 'd',
	['e'] = 'e', ['f'] = 'f', ['g'] = 'g', ['h'] = 'h', ['i'] = 'i', ['j'] = 'j', ['k'] = 'k',
	['l'] = 'l', ['m'] = 'm', ['n'] = 'n', ['o'] = 'o', ['p'] = 'p', ['q'] = 'q', ['r'] = 'r',
	['s'] = 's', ['t'] = 't', ['u'] = 'u', ['v'] = 'v', ['w'] = 'w', ['x'] = 'x', ['y'] = 'y',
	['z'] = 'z', ['A'] = 'a', ['B'] = 'b', ['C'] = 'c', ['D'] = 'd', ['E'] = 'e', ['F'] = 'f',
	['G'] = 'g', ['H'] = 'h', ['I'] = 'i', ['J'] = 'j', ['K'] = 'k', ['L'] = 'l', ['M'] = 'm',
	['N'] = 'n', ['O'] = 'o', ['P'] = 'p', ['Q'] = 'q', ['R'] = 'r', ['S'] = 's', ['T'] = 't',
	['U'] = 'u', ['V'] = 'v', ['W'] = 'w', ['X'] = 'x', ['Y'] = 'y', ['Z'] = 'z',
};

static bool is_space(uint32_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == 0xA0;
}

size_t words_each(const char *text, word_fn fn, void *ctx)
{
	struct word w;
	w.n = w.nparts = 0;
	w.full = false;
	w.prev = w.prev2 = 0;
	bool first = true;
	const unsigned char *p = (const unsigned char *)text;
	size_t chars = 0;
	bool space = false; /* a run of spaces is pending in the count */
	while (*p) {
		if (*p < 0x80) {
			/* the common case, inline */
			uint32_t c = *p++;
			unsigned char f = ascii_fold[c];
			if (!f) {
				word_flush(&w, fn, ctx, &first);
				if (is_space(c))
					space = chars > 0;
				else {
					chars += 1 + space;
					space = false;
				}
				continue;
			}
			chars += 1 + space;
			space = false;
			word_turn(&w, c);
			if (!w.full) {
				if (w.n < WORDS_MAX)
					w.b[w.n++] = (char)f;
				else
					w.full = true;
			}
			w.prev2 = w.prev;
			w.prev = c;
			/* small letters and digits after a small letter or a digit
			 * (most of any text): no inner part begins among them, and
			 * each folds to itself, so they go on the word at once */
			if (!ascii_upper(c)) {
				const unsigned char *q = p;
				while (*q && *q < 0x80 && ascii_fold[*q] == *q) /* a-z, 0-9 */
					q++;
				size_t k = (size_t)(q - p);
				if (k) {
					chars += k;
					if (!w.full) {
						size_t room = WORDS_MAX - w.n, take = k < room ? k : room;
						memcpy(w.b + w.n, p, take);
						w.n += take;
						w.full = take < k;
					}
					w.prev2 = k > 1 ? q[-2] : c;
					w.prev = q[-1];
					p = q;
				}
			}
			continue;
		}
		uint32_t cp;
		size_t avail = 1;
		while (avail < 4 && p[avail])
			avail++;
		int len = utf8_decode((const char *)p, avail, &cp);
		p += len < 0 ? -len : len;
		bool sep = words_sep(cp);
		if (sep) {
			word_flush(&w, fn, ctx, &first);
			if (is_space(cp)) {
				space = chars > 0;
				continue;
			}
		}
		uint32_t f = words_fold(cp);
		if (!f)
			continue;
		chars += 1 + space;
		space = false;
		if (!sep)
			word_add(&w, cp, f);
	}
	word_flush(&w, fn, ctx, &first);
	return chars;
}

void words_fold_pairs(struct buf *out)
{
	for (size_t i = 0; i < NRANGES; i++)
		for (uint32_t cp = fold_ranges[i].first; cp <= fold_ranges[i].last; cp++) {
			uint16_t to = fold_ranges[i].to[cp - fold_ranges[i].first];
			if (!to)
				continue;
			char enc[8];
			int a = utf8_encode(cp, enc);
			int b = utf8_encode(to, enc + a);
			buf_put(out, enc, (size_t)(a + b));
		}
}
