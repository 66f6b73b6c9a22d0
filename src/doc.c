/* doc: freeing a document and what was extracted from it, and compacting its strings (see doc.h). */
#include "doc.h"
#include "arena.h"
#include "ast.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void doc_free_str(const struct doc *d, char *str)
{
	if (!d->strings || str < d->strings || str >= d->strings + d->strings_size)
		free(str);
}

static size_t str_size(const char *p) { return p ? strlen(p) + 1 : 0; }

/* p's bytes to *at (moved past them); p pointing at the copy, and freed
 * unless it lies in scratch (whose blocks go all at once). */
static void move_str(char **p, char **at, const struct arena *scratch)
{
	if (!*p)
		return;
	size_t n = strlen(*p) + 1;
	memcpy(*at, *p, n);
	if (!scratch || !arena_owns(scratch, *p))
		free(*p);
	*p = *at;
	*at += n;
}

void doc_compact_strings(struct doc *d)
{
	doc_compact_strings_from(d, NULL);
}

void doc_compact_strings_from(struct doc *d, const struct arena *scratch)
{
	if (d->strings)
		return;
	size_t total = 1;
	for (size_t i = 0; i < d->nanchors; i++)
		total += str_size(d->anchors[i]);
	for (size_t i = 0; i < d->nheadings; i++)
		total += str_size(d->headings[i].text) + str_size(d->headings[i].id);
	for (size_t i = 0; i < d->ncites; i++) {
		const struct citation *c = &d->cites[i];
		total += str_size(c->url) + str_size(c->canonical) + str_size(c->text) +
			 str_size(c->title) + str_size(c->desc);
	}
	for (size_t i = 0; i < d->nilinks; i++)
		total += str_size(d->ilinks[i].url);
	for (size_t i = 0; i < d->nimages; i++)
		total += str_size(d->images[i].url);
	char *at = d->strings = xmalloc(total);
	d->strings_size = total;
	/* in the document cache's order (doc_cache.c) */
	for (size_t i = 0; i < d->nanchors; i++)
		move_str(&d->anchors[i], &at, scratch);
	for (size_t i = 0; i < d->nheadings; i++) {
		move_str(&d->headings[i].text, &at, scratch);
		move_str(&d->headings[i].id, &at, scratch);
	}
	for (size_t i = 0; i < d->ncites; i++) {
		struct citation *c = &d->cites[i];
		move_str(&c->url, &at, scratch);
		move_str(&c->canonical, &at, scratch);
		move_str(&c->text, &at, scratch);
		move_str(&c->title, &at, scratch);
		move_str(&c->desc, &at, scratch);
	}
	for (size_t i = 0; i < d->nilinks; i++)
		move_str(&d->ilinks[i].url, &at, scratch);
	for (size_t i = 0; i < d->nimages; i++)
		move_str(&d->images[i].url, &at, scratch);
	*at = '\0';
}

void doc_drop_tree(struct doc *d)
{
	ast_free(d->tree);
	d->tree = NULL;
	free(d->code_blocks);
	d->code_blocks = NULL;
	d->ncode_blocks = 0;
	for (size_t i = 0; i < d->nheadings; i++)
		d->headings[i].node = NULL;
}

void doc_free(struct doc *d)
{
	free(d->relpath);
	free(d->shown);
	meta_free(&d->meta);
	free(d->title);
	free(d->description);
	free(d->slug);
	free(d->url);
	doc_drop_tree(d);
	free(d->body);
	for (size_t i = 0; i < d->nanchors; i++)
		doc_free_str(d, d->anchors[i]);
	free(d->anchors);
	for (size_t i = 0; i < d->nheadings; i++) {
		doc_free_str(d, d->headings[i].text);
		doc_free_str(d, d->headings[i].id);
	}
	free(d->headings);
	for (size_t i = 0; i < d->ncites; i++) {
		struct citation *c = &d->cites[i];
		doc_free_str(d, c->url);
		doc_free_str(d, c->canonical);
		doc_free_str(d, c->text);
		doc_free_str(d, c->title);
		doc_free_str(d, c->desc);
	}
	free(d->cites);
	for (size_t i = 0; i < d->nilinks; i++) {
		doc_free_str(d, d->ilinks[i].url);
		free(d->ilinks[i].anchor);
		free(d->ilinks[i].resolved);
	}
	free(d->ilinks);
	for (size_t i = 0; i < d->nimages; i++)
		doc_free_str(d, d->images[i].url);
	free(d->images);
	diags_free(&d->diags);
	if (!d->strings_mapped)
		free(d->strings);
	memset(d, 0, sizeof *d);
}
