/* spans: borrowed slices making up one file (see spans.h). */
#include "spans.h"
#include "digest.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void spans_add(struct spans *s, const char *p, size_t n)
{
	if (!n)
		return;
	s->bytes += n;
	if (s->n && s->v[s->n - 1].p + s->v[s->n - 1].n == p) {
		s->v[s->n - 1].n += n;
		return;
	}
	s->v = xgrow(s->v, &s->cap, s->n + 1, sizeof *s->v);
	s->v[s->n++] = (struct str){p, n};
}

void spans_digest(const struct spans *s, unsigned long long out[2])
{
	/* digest_feed streams in whole words: a slice's bytes that do not fill
	 * one wait in `carry` for the next slice's */
	struct digest d;
	digest_start(&d);
	unsigned char carry[8];
	size_t nc = 0;
	for (size_t i = 0; i < s->n; i++) {
		const char *p = s->v[i].p;
		size_t n = s->v[i].n;
		if (nc) {
			size_t take = 8 - nc < n ? 8 - nc : n;
			memcpy(carry + nc, p, take);
			nc += take;
			p += take;
			n -= take;
			if (nc < 8)
				continue;
			digest_feed(&d, carry, 8);
			nc = 0;
		}
		size_t whole = n & ~(size_t)7;
		digest_feed(&d, p, whole);
		memcpy(carry, p + whole, n - whole);
		nc = n - whole;
	}
	digest_feed(&d, carry, nc);
	digest_end(&d, out);
}

void spans_free(struct spans *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}
