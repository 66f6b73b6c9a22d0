/* doc: one document of the site as the model sees it: its metadata, its one
 * tree, and what extraction found in it (headings with unique ids, citations
 * of external resources, internal links). Level 3. */
#ifndef SSG_DOC_H
#define SSG_DOC_H
#include <stdbool.h>
#include <stddef.h>
#include <cmark-gfm.h>

#include "diag.h"
#include "meta.h"
#include "source.h"

struct heading {
	char *text;
	char *id;     /* unique within the document */
	int level;
	int line;
	int parent;   /* index of the enclosing heading, -1 at top */
	cmark_node *node; /* its node while the tree lives (extract.h), else NULL */
};

/* One external link of a document. */
struct citation {
	char *url;        /* as written */
	char *canonical;  /* url_canonical() after aliases; NULL when not http(s) */
	char *text;       /* link text */
	char *title;      /* what the entry calls the resource */
	char *desc;       /* the rest of the entry: its description */
	int line, col;
	int heading;      /* index into doc.headings of the section, -1 before any */
	bool bare;        /* the entry is a bare URL */
	bool listing;     /* it lists the resource (in a list item or table cell,
			   * or a paragraph that is the entry: a bold title, or
			   * the link alone), rather than mentions it in running text */
	int entry;        /* the entry it stands in (list item or table cell, else
			   * paragraph or heading), numbered from 1 within the
			   * document: two citations of one entry share it */
	cmark_node *node; /* the link node, until the tree is rendered */
	long resource;    /* index into site.resources, set by the model; -1 none */
	unsigned long long canon_hash; /* hash_str(canonical) once read (0: not yet) */
	unsigned long long key[2]; /* what resources see of it (cite_key.h) */
	unsigned long long desc_hash; /* its description's (cite_desc_hash) */
};

/* An image whose source is relative: a file of the site it should name. */
struct image {
	char *url;        /* as written */
	int line, col;
};

/* A relative link to another file of the site. */
struct ilink {
	char *url;        /* as written */
	int line, col;
	cmark_node *node;
	long target;      /* index of the document it resolves to; -1 when none */
	char *resolved;   /* path relative to content/ (documents and static files) */
	bool missing;     /* resolves to nothing: reported, rendered as text */
	char *anchor;     /* "#x" part without '#', NULL when none */
};

struct doc {
	size_t index;
	char *relpath;    /* relative to content/ */
	char *shown;      /* "content/<relpath>" for diagnostics */
	enum doc_format format;
	struct doc_meta meta;
	char *title;
	char *description;
	char *slug;
	char *url;        /* page URL path relative to the site root: "<slug>/" */
	cmark_node *tree;     /* freed once rendered into body */
	cmark_node **code_blocks; /* the tree's code blocks, in order, while it
				   * lives (extract.h: the body dresses them) */
	size_t ncode_blocks;
	char *body;           /* HTML with markers; see html.h. NULL with
			       * body_in_cache: body_len bytes at body_at in the
			       * document cache (site.body_fd), read when needed */
	bool body_in_cache;
	size_t body_len;
	long long body_at;
	char **anchors;       /* every id an #anchor can point at */
	size_t nanchors, capanchors;
	struct heading *headings;
	size_t nheadings;
	struct citation *cites;
	size_t ncites, capcites;
	struct ilink *ilinks;
	size_t nilinks, capilinks;
	struct image *images;
	size_t nimages, capimages;
	char *strings;        /* NULL, or one block holding the strings of anchors,
			       * headings, citations, links and images (a document from
			       * the cache: one allocation, not hundreds) */
	size_t strings_size;
	bool strings_mapped;  /* the block is the cache's own bytes, mapped (whoever
			       * mapped them unmaps them): not freed here */
	unsigned long long hash;  /* the first half of the file's digest */
	bool ok;          /* read and parsed */
	struct diags diags;
};

void doc_free(struct doc *d);
/* Free d's tree and forget the nodes extraction noted in it. */
void doc_drop_tree(struct doc *d);
/* Move the strings of d's anchors, headings, citations and links into one
 * block, as a document from the cache has them: the strings a page reads
 * together then lie together (first touches of scattered strings were a
 * tenth of a clean build's time). Nothing when d has its block already. */
void doc_compact_strings(struct doc *d);
/* The same for strings some of which lie in scratch: those are copied, not
 * freed (the caller drops scratch after). */
struct arena;
void doc_compact_strings_from(struct doc *d, const struct arena *scratch);
/* Free one of d's strings: nothing when it lies in d's block of strings. */
void doc_free_str(const struct doc *d, char *str);
/* Plain text of a subtree (text, code, line breaks as spaces). */
char *doc_node_text(cmark_node *n);

#endif
