/* page_inputs: what a page's view is made from, digested without building
 * the view. An incremental build that finds a page's inputs as they were
 * keeps the page without building, digesting or rendering its view (site.c).
 *
 * The inputs of every page start with the build's frame without the
 * documents (the binary, options, site.yml, templates, themes, static files,
 * the checked-out commit: build_state.h) and the shared navigation. Then, by
 * kind (documents by their names, places and bytes, so that adding one
 * changes only the pages that show it):
 *  - a document's page: the document's own bytes (doc.hash), and what it
 *    shows of others: the badges and topics of the resources it cites, the
 *    titles and places of its related documents, of its neighbours in its
 *    topic and of its links' targets;
 *  - a resource's page: the resource's record with every citation (each
 *    citing document's bytes);
 *  - a topic's page: the topic's counts and lists, the entries of the
 *    resources on that page, the titles of the documents it names;
 *  - a page of the A-Z index: the letters (each by its first page's
 *    place), its own letter, part and neighbours, the entries on that page
 *    (the site's counts are on the index's first page only);
 *  - a page of the quick reference: its place, its boxes' names (a topic's,
 *    a document's section as a link) and the entries they show.
 * A resource's record is digested whole (every field a view could read), so
 * inputs err on the side of "changed". Other pages (home, the index's
 * landing page, document lists, the topics index, data files) are always
 * built.
 * A page whose inputs changed is rendered without digesting its view first
 * (site.c). SSG_CHECK_INPUTS=1 renders kept pages anyway and fails the build
 * when one's bytes differ from the page in place (tests).
 * Level 4 (views). */
#ifndef SSG_PAGE_INPUTS_H
#define SSG_PAGE_INPUTS_H

#include "model.h"

/* Three digests of each resource, for the three ways pages show one. */
struct resource_inputs {
	unsigned long long page[2];  /* its page: its record and every citation */
	unsigned long long item[2];  /* its entry in a list: the record, the first citing documents */
	unsigned long long badge[2]; /* a badge on a citing page: its place, its count, its topics */
	unsigned long long record[2]; /* its own fields (and its badge's), as every view shows them */
};

struct page_inputs {
	unsigned long long frame[2]; /* the frame and the shared navigation */
	struct resource_inputs *res;
	/* per document, digested once: its bytes, name and place; it as a link
	 * shows it (title, place); that and its name, as a resource's citations
	 * show it; each of its sections as a link (heads, from head_at[document]) */
	unsigned long long (*doc_self)[2], (*doc_link)[2], (*doc_ref)[2], (*heads)[2];
	size_t *head_at;
	/* per parent topic + 1 (0: the top level): which of its children a
	 * topic page lists among its related topics */
	unsigned long long (*listed)[2];
};

/* nav: the shared navigation's digest. Digests every document and every
 * resource's record (in parallel over jobs threads). After view_prepare
 * (the topics by parent). */
void page_inputs_prepare(struct page_inputs *pi, const struct site *s, const char frame[33],
			 const unsigned long long nav[2], int jobs);
void page_inputs_free(struct page_inputs *pi);

void page_inputs_doc(const struct page_inputs *pi, const struct site *s, size_t d,
		     unsigned long long out[2]);
void page_inputs_resource(const struct page_inputs *pi, const struct site *s, size_t r,
			  unsigned long long out[2]);
/* A document's records in the search index (its entry and its sections'):
 * its bytes, its name and its place, as a search entry shows no other. */
void page_inputs_search_doc(const struct page_inputs *pi, const struct site *s, size_t d,
			    unsigned long long out[2]);
/* A page of the A-Z index of several (chunk < site.nchunks). */
void page_inputs_index(const struct page_inputs *pi, const struct site *s, size_t chunk,
		       unsigned long long out[2]);
/* What an entry of a list is made from (page_items.h's key): the frame, the
 * resource's entry, whether it names the documents citing it and whether
 * its slug is its id. */
void page_inputs_item(const struct page_inputs *pi, size_t r, bool with_cites, bool anchored,
		      unsigned long long out[2]);
/* A page of the quick reference (1-based, as view_quick_reference): its
 * place, its boxes' names, the entries they show. */
void page_inputs_quick(const struct page_inputs *pi, const struct site *s, size_t page,
		       unsigned long long out[2]);
/* page: 1-based, as view_topic. */
void page_inputs_topic(const struct page_inputs *pi, const struct site *s, size_t t, size_t page,
		       unsigned long long out[2]);

#endif
