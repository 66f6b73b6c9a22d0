/* cite_key: digests of citations (see cite_key.h). */
#include "cite_key.h"
#include "digest.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Each section with the ones around it, innermost first: its place, level,
 * id and text, then its parent's such digest (a parent comes before its
 * children: made in order). Digested once per section, not per citation. */
static void section_keys(const struct doc *doc, unsigned long long (*keys)[2])
{
	for (size_t h = 0; h < doc->nheadings; h++) {
		const struct heading *hd = &doc->headings[h];
		struct digest d;
		digest_start(&d);
		digest_word(&d, (uint64_t)(uint32_t)h << 32 | (uint32_t)hd->level);
		digest_str(&d, hd->id);
		digest_str(&d, hd->text);
		if (hd->parent >= 0 && (size_t)hd->parent < h) {
			digest_word(&d, keys[hd->parent][0]);
			digest_word(&d, keys[hd->parent][1]);
		} else
			digest_word(&d, DIGEST_NONE);
		digest_end(&d, keys[h]);
	}
}

static void cite_key(const struct doc *doc, const unsigned long long (*sections)[2],
		     struct citation *c)
{
	struct digest d;
	digest_start(&d);
	digest_str(&d, c->url);
	digest_str(&d, c->canonical);
	digest_str(&d, c->text);
	digest_str(&d, c->title);
	digest_str(&d, c->desc);
	digest_word(&d, (uint64_t)(uint32_t)c->line << 32 | (uint32_t)c->col);
	digest_word(&d, (uint64_t)(uint32_t)c->entry << 2 | (uint64_t)c->listing << 1 | c->bare);
	/* its section and the ones around it */
	if (c->heading >= 0 && (size_t)c->heading < doc->nheadings) {
		digest_word(&d, sections[c->heading][0]);
		digest_word(&d, sections[c->heading][1]);
	} else
		digest_word(&d, DIGEST_NONE);
	digest_end(&d, c->key);
}

unsigned long long cite_desc_hash(const char *desc)
{
	if (!desc || !*desc)
		return 0;
	struct digest d;
	digest_start(&d);
	digest_feed(&d, desc, strlen(desc));
	unsigned long long out[2];
	digest_end(&d, out);
	return out[0] ? out[0] : 1;
}

void cite_keys(struct doc *d)
{
	unsigned long long(*sections)[2] = xcalloc(d->nheadings + 1, sizeof *sections);
	section_keys(d, sections);
	for (size_t i = 0; i < d->ncites; i++) {
		cite_key(d, (const unsigned long long(*)[2])sections, &d->cites[i]);
		d->cites[i].desc_hash = cite_desc_hash(d->cites[i].desc);
	}
	free(sections);
}
