/* cite_key: digests of citations (see cite_key.h). */
#include "cite_key.h"
#include "digest.h"

#define NONE 0xFFFFFFFFFFFFFFFFULL

/* Each field with its length or a marker first: no two citations feed the
 * same words. */
static void put_str(struct digest *d, const char *s)
{
	if (!s) {
		digest_word(d, NONE);
		return;
	}
	size_t n = strlen(s);
	digest_word(d, n);
	digest_feed(d, s, n);
}

static void cite_key(const struct doc *doc, struct citation *c)
{
	struct digest d;
	digest_start(&d);
	put_str(&d, c->url);
	put_str(&d, c->canonical);
	put_str(&d, c->text);
	put_str(&d, c->title);
	put_str(&d, c->desc);
	digest_word(&d, (uint64_t)(uint32_t)c->line << 32 | (uint32_t)c->col);
	digest_word(&d, (uint64_t)(uint32_t)c->entry << 2 | (uint64_t)c->listing << 1 | c->bare);
	/* its section and the ones around it, innermost first (a heading's
	 * parent comes before it: the chain ends) */
	int depth = 0;
	for (int h = c->heading; h >= 0 && (size_t)h < doc->nheadings && depth <= (int)doc->nheadings;
	     h = doc->headings[h].parent, depth++) {
		digest_word(&d, (uint64_t)(uint32_t)h << 32 | (uint32_t)doc->headings[h].level);
		put_str(&d, doc->headings[h].id);
		put_str(&d, doc->headings[h].text);
	}
	digest_word(&d, NONE);
	digest_end(&d, c->key);
}

void cite_keys(struct doc *d)
{
	for (size_t i = 0; i < d->ncites; i++)
		cite_key(d, &d->cites[i]);
}
