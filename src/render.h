/* render: the templates (site templates/ over themes/<theme>/templates/ over
 * the default theme compiled into the binary) and the machine-readable files
 * of a site: resources.json, the search index, sitemap.xml, robots.txt and
 * the Atom feed. Level 4. */
#ifndef SSG_RENDER_H
#define SSG_RENDER_H

#include "buf.h"
#include "model.h"
#include "mustache.h"

struct template_source {
	char *source_dir;
	char *theme;
	struct diags *d;   /* a file that resolves outside the site is refused
			    * with a warning here (NULL: silently) */
	const char *boundary; /* "outside": beyond this folder (path_boundary);
			       * NULL: beyond source_dir */
};

/* A Mustache set loading through the lookup order above. */
struct mustache_set *render_templates(struct template_source *ts);
/* Contents of a theme static file by path under static/ (site theme folder
 * first, then the embedded theme); fills a list of relative paths. */
size_t render_theme_static(const struct template_source *ts, char ***paths);
/* Read one theme static file into out; -1 when missing. */
int render_theme_file(const struct template_source *ts, const char *rel, struct buf *out);

/* A record of a data file: in resources.json a resource's, in
 * search-index.json a document's (its entry and its sections') or a
 * resource's entry. Its key (the digest of all it is made from, page_inputs.h)
 * and where its bytes lie in the file. */
struct json_record {
	unsigned long long key[2];
	unsigned long long at, len;
};

/* Records of the file in place, taken instead of rendered when their key is
 * the same (an incremental build renders only what changed of 55 MB of
 * resources.json and 24 MB of search index). */
struct json_reuse {
	const struct json_record *before; /* the last build's, in its order */
	size_t nbefore;
	const size_t *slots;              /* before by key: open addressing on key[0] */
	size_t nslots;                    /* (a power of two), each index + 1, 0 empty */
	const char *bytes;                /* the file in place */
	size_t nbytes;
	unsigned long long dev, ino;      /* that file's (output_stream_lend) */
	const unsigned long long (*keys)[2]; /* per record of this build */
	struct json_record *now;          /* per record, filled: where it went */
	bool check;                       /* render every record, count the reused that differ */
	size_t reused, differ;            /* counted after the call */
	unsigned long long sum[2];        /* after the call: the digest of its records (their
					   * keys and places) and its size, which ties the
					   * file as the build left it (build_state.h's
					   * data-seen) to the records' places (.ssg-json) */
};

/* Where a data file's bytes go, in order, as they are made. */
struct data_sink {
	void (*put)(void *ctx, const char *p, size_t n);
	void *ctx;
};

/* A data file is made as pieces: records rendered into buffers, and runs of
 * records kept as they lie in the file in place (json_reuse.bytes, which
 * must stay mapped until the file is written). Each writer's pieces go to
 * the sink as soon as the writers before it are done, and its buffer is
 * then freed: 55 MB of resources.json at 10,000 documents is never whole in
 * memory. Both return the file's size; reuse's sum gets the digest of its
 * records and size (above).
 *
 * reuse: NULL to render every record. */
size_t render_resources_json(const struct site *s, const struct data_sink *sink,
			     struct json_reuse *reuse);
/* reuse: NULL to render every record; else keys and now are per document,
 * then per resource. */
size_t render_search_index(const struct site *s, const struct data_sink *sink,
			   struct json_reuse *reuse);

void render_sitemap(const struct site *s, struct buf *out);
void render_robots(const struct site *s, struct buf *out);
/* The Atom feed: the RENDER_FEED_MAX newest documents. */
#define RENDER_FEED_MAX 50
void render_feed(const struct site *s, struct buf *out);

#endif
