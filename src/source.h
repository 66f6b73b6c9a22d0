/* source: finding content files and turning their bytes into clean text.
 * discover walks content/ (nested folders, stable order, never leaving the
 * folder through symlinks); source_load reads one file, cleans its UTF-8,
 * splits off YAML front matter and decides its format (.txt is sniffed).
 * Level 2. */
#ifndef SSG_SOURCE_H
#define SSG_SOURCE_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "diag.h"
#include "meta.h"

enum doc_format { FMT_MARKDOWN, FMT_RST };

struct source_file {
	char *relpath;   /* relative to content/, '/'-separated */
	bool is_doc;     /* a document (.md .markdown .rst .txt); else a static file */
};

struct source_list {
	struct source_file *v;
	size_t n, cap;
};

/* Walk `content_dir`, collecting documents and other files sorted by relpath.
 * Hidden entries (".x") are skipped; symlinks that resolve outside content_dir
 * are refused with a warning. Returns -1 only when content_dir cannot be read. */
int source_discover(const char *content_dir, struct source_list *out, struct diags *d);
/* The same list from what the build's fingerprint walk of the same folder
 * found (its paths start with prefix, "content/"), when that walk met only
 * folders and regular files within source_discover's bounds: false, with
 * out untouched, when the folder must be walked (a symlink, say). */
struct file_digests;
bool source_list_from_digests(const struct file_digests *g, const char *prefix,
			      struct source_list *out);
void source_list_free(struct source_list *l);
/* Whether a file of content/ is a document (by its name), not a static file. */
bool source_is_document(const char *name);
/* Whether a static file of content/ is active content (HTML, script, style,
 * SVG, XML: what a browser runs or shows as a page of the site). Content
 * comes from pull requests: such a file is not published (the site's own
 * static/ folder, the maintainers', may hold them). */
bool source_is_active(const char *name);

struct source {
	char *relpath;        /* "content/…" as shown in diagnostics */
	enum doc_format format;
	char *text;           /* the whole cleaned file: valid UTF-8 (utf8_clean) */
	size_t len;
	const char *body;     /* into text: after the front matter */
	size_t body_len;
	int body_line;        /* line number of body's first line (1 without front matter) */
	struct doc_meta meta; /* from front matter */
	unsigned long long digest[2]; /* of the raw bytes (fingerprint.h) */
	struct stat st;       /* the file's, taken before it was read */
};

/* Read and prepare one document. `shown` is the path used in diagnostics.
 * Files over max_size, or that look binary, are refused with an error (-1). */
int source_load(const char *file, const char *shown, long max_size, struct source *s,
		struct diags *d);
/* Decide the format from the name, sniffing .txt contents. */
enum doc_format source_sniff(const char *name, const char *text, size_t n);
void source_free(struct source *s);

#endif
