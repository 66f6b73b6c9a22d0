/* build_state: what the last good build into an output folder read and said.
 * <output>/.ssg-build holds the fingerprint of every input (site.yml,
 * content/, templates/, themes/, static/, the link cache, the git commit,
 * the options that change output, and the ssg binary itself) with that
 * build's diagnostics and counts. A build whose fingerprint matches has
 * nothing to do: it repeats the diagnostics and stops, writing nothing.
 * The file is removed just before a build changes the folder and written after
 * the new site is in place, so it never describes a site that is not there.
 * Level 5. */
#ifndef SSG_BUILD_STATE_H
#define SSG_BUILD_STATE_H
#include <stdbool.h>

#include "diag.h"
#include "fingerprint.h"
#include "hash.h"
#include "output.h"
#include "render.h"
#include "site.h"

#define BUILD_STATE_FILE ".ssg-build"

/* The fingerprint of the build o describes, in 32 hex digits; the digests
 * of content/'s files are kept in content (when not NULL). */
void build_state_fingerprint(const struct build_opts *o, int jobs, char fp[33],
			     struct file_digests *content, char frame_fp[33], char unnamed_fp[33]);
/* frame_fp (when not NULL) gets the fingerprint of the same inputs with
 * content/'s documents counted by their names only: two builds with the same
 * frame differ at most in the bytes of documents (build_patch.h).
 * unnamed_fp (when not NULL): the same without the documents' names either,
 * what every page is made from besides documents (page_inputs.h). */
/* 0 when outdir's state has fingerprint fp: its diagnostics are appended to
 * d and its counts copied to st. -1 otherwise (d and st untouched). */
int build_state_match(const char *outdir, const char fp[33], struct diags *d,
		      struct build_stats *st);
/* The same, whatever build the state is of (-1: no whole state). */
int build_state_read(const char *outdir, struct diags *d, struct build_stats *st);
/* Forget outdir's state (before the folder changes): the fingerprint, the
 * page digests and the documents' pages; or only the fingerprint. */
void build_state_forget(const char *outdir);
void build_state_forget_some(const char *outdir, bool only_fingerprint);
/* A state file: written under a temporary name beside outdir, then renamed
 * into it (a reader sees all of it or none); read whole when it starts with
 * head and then digest's 32 hex digits (any when NULL) and a newline: the
 * length of that first line, 0 (b empty) otherwise. */
void build_state_save_file(const char *outdir, const char *name, const struct buf *b);
size_t build_state_read_headed(const char *outdir, const char *name, const char *head,
			       const char *digest, struct buf *b);
/* page_items.h's file, forgotten with the others. */
#define BUILD_ITEMS_FILE ".ssg-items"
/* Record the state of the build just committed to outdir. */
void build_state_save(const char *outdir, const char fp[33], const struct diags *d,
		      const struct build_stats *st);

/* The digest of every page's view in the site in place (<output>/.ssg-pages),
 * under the digest of what renders views into pages (the binary, templates/
 * and themes/): a page whose view is unchanged is kept, not rendered. Each
 * with its file as the build left it (output_keep's was). */
#define BUILD_PAGES_FILE ".ssg-pages"

struct page_digests {
	struct hash index;   /* path -> slot */
	char **paths;
	unsigned long long (*digests)[2]; /* the view's */
	unsigned long long (*inputs)[2];  /* what the view was made from (page_inputs.h); 0: unknown */
	struct output_file *files;        /* ino 0: not known */
	size_t n, cap;
};

/* What turns views into pages, in 32 hex digits. */
void build_render_env(const struct build_opts *o, int jobs, char env[33]);
/* inputs: NULL when the page's inputs are not tracked; file: NULL when not known. */
void page_digests_add(struct page_digests *p, const char *path, const unsigned long long d[2],
		      const unsigned long long inputs[2], const struct output_file *file);
/* Whether the site in place has path made from the same inputs: then *view
 * is its view's digest and *file its file as the last build left it. */
bool page_digests_inputs_same(const struct page_digests *p, const char *path,
			      const unsigned long long inputs[2], unsigned long long view[2],
			      const struct output_file **file);
/* Whether the site in place has path with view digest d (*file: as above). */
bool page_digests_same(const struct page_digests *p, const char *path,
		       const unsigned long long d[2], const struct output_file **file);
/* Load outdir's digests when they were made under env (else p stays empty),
 * with their files when note (page_digests_save's) is of that very file. */
void page_digests_load(struct page_digests *p, const char *outdir, const char env[33],
		       const char *note, size_t nnote);
/* Save them, and their files in *note, unless NULL (the note is kept out of
 * the site: inodes differ from one build to the next where bytes do not). */
void page_digests_save(const struct page_digests *p, const char *outdir, const char env[33],
		       struct buf *note);
void page_digests_free(struct page_digests *p);
/* Mark the n pages as of no known view (appended: the next build renders
 * them). -1 when the file cannot be appended to. */
int page_digests_forget_some(const char *outdir, const char *const *paths, size_t n);

/* The data files whose records are kept: resources.json (a record per
 * resource) and search-index.json (per document, then per resource). Their
 * records in the site in place (<output>/.ssg-json): each record's key with
 * where it lies, under the digest of the file's bytes (checked on loading: a
 * file changed since is not used). */
#define BUILD_JSON_FILE ".ssg-json"
enum { DATA_RESOURCES, DATA_SEARCH, NDATA_KEPT };
struct json_records {
	struct json_record *v; /* in the order the last build made them */
	size_t n;
	size_t *slots;         /* by key (render.h's json_reuse) */
	size_t nslots;
	char *bytes;           /* the file in place, mapped */
	size_t nbytes;
	unsigned long long dev, ino; /* that file's */
};
/* Each empty (0) when the file or its records are missing, damaged or not of
 * the file in place: the very file the last build left, as source_dir's
 * .ssg-cache/data-seen knows it by its stat. */
void json_records_load(struct json_records r[NDATA_KEPT], const char *outdir,
		       const char *source_dir);
/* made: each file's account of itself as rendered (size[i] bytes long, of
 * n[i] records). A file of size 0 was not made. */
void json_records_save(const struct json_reuse made[NDATA_KEPT], const size_t n[NDATA_KEPT],
		       const size_t size[NDATA_KEPT], const char *outdir, const char *source_dir);
void json_records_free(struct json_records *r);

/* Each document's page in the site in place (<output>/.ssg-docs), under the
 * build's frame fingerprint: the digest of the document's bytes it was made
 * from, and where the document's body lies in it (at, len: bytes; at is -1
 * when the body is not there once, verbatim). Records appended later win. */
#define BUILD_DOCS_FILE ".ssg-docs"

struct doc_page_rec {
	char *relpath;    /* under content/ */
	char *page;       /* under the output folder */
	unsigned long long digest[2];
	long at, len;
};

struct doc_pages {
	struct hash index;   /* relpath -> its latest record */
	struct doc_page_rec *v;
	size_t n, cap;
	char *block;         /* the file doc_pages_load read, whose records' strings
			      * lie in it (the others are each their own) */
	size_t nblock;
};

/* The path under content/ of a document whose digest a fingerprint kept
 * ("content/a.md" gives "a.md"); NULL for any other file. */
const char *doc_pages_document(const char *kept_path);
void doc_pages_add(struct doc_pages *p, const char *relpath, const char *page,
		   const unsigned long long digest[2], long at, long len);
const struct doc_page_rec *doc_pages_find(const struct doc_pages *p, const char *relpath);
/* 0 when outdir has records made under frame, or any when frame is NULL (p
 * then holds them). */
int doc_pages_load(struct doc_pages *p, const char *outdir, const char frame[33]);
void doc_pages_save(const struct doc_pages *p, const char *outdir, const char frame[33]);
/* Append n records to outdir's; -1 when it cannot. */
int doc_pages_append(const char *outdir, const struct doc_page_rec *r, size_t n);
void doc_pages_free(struct doc_pages *p);

#endif
