/* doc: freeing a document and what was extracted from it (see doc.h). */
#include "doc.h"

#include <stdlib.h>
#include <string.h>

void doc_free_str(const struct doc *d, char *str)
{
	if (!d->strings || str < d->strings || str >= d->strings + d->strings_size)
		free(str);
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
	if (d->tree)
		cmark_node_free(d->tree);
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
	diags_free(&d->diags);
	free(d->strings);
	memset(d, 0, sizeof *d);
}
