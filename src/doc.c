/* doc: freeing a document and what was extracted from it (see doc.h). */
#include "doc.h"

#include <stdlib.h>
#include <string.h>

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
		free(d->anchors[i]);
	free(d->anchors);
	for (size_t i = 0; i < d->nheadings; i++) {
		free(d->headings[i].text);
		free(d->headings[i].id);
	}
	free(d->headings);
	for (size_t i = 0; i < d->ncites; i++) {
		struct citation *c = &d->cites[i];
		free(c->url);
		free(c->canonical);
		free(c->text);
		free(c->title);
		free(c->desc);
	}
	free(d->cites);
	for (size_t i = 0; i < d->nilinks; i++) {
		free(d->ilinks[i].url);
		free(d->ilinks[i].anchor);
		free(d->ilinks[i].resolved);
	}
	free(d->ilinks);
	diags_free(&d->diags);
	memset(d, 0, sizeof *d);
}
