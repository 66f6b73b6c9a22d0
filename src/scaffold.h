/* scaffold: the files `ssg new` creates: a working site (site.yml with a small
 * taxonomy, a sample document, a README, a .gitignore) and a document with
 * front matter. Never overwrites: every file is created with O_EXCL, and one
 * that exists already becomes an error diagnostic (the others are still
 * created). Level 5; calls path, buf, diag. No global state. */
#ifndef SSG_SCAFFOLD_H
#define SSG_SCAFFOLD_H
#include <stdbool.h>

#include "buf.h"
#include "diag.h"

/* Create a site in dir (made, with its parents, when missing): dir/site.yml,
 * dir/README.md, dir/.gitignore and dir/content/welcome.md. Appends one line
 * "created PATH\n" to log per file written. Returns 0 when every file was
 * written, -1 when any existed or could not be written (reported in d). */
int scaffold_site(const char *dir, struct diags *d, struct buf *log);

/* Create one document at path (parent folders made). Markdown unless the name
 * ends in ".rst"; a name without an extension gets ".md". The title is
 * derived from the file name ("gpu-memory.md" -> "Gpu memory") and the date
 * is `date` (YYYY-MM-DD; NULL: none). Same return and log as scaffold_site. */
int scaffold_doc(const char *path, const char *date, struct diags *d, struct buf *log);

/* The text scaffold_doc writes, for a title and date (tests; caller frees). */
char *scaffold_doc_text(const char *title, const char *date, bool rst);
/* The title scaffold_doc derives from a path (caller frees). */
char *scaffold_title_from_path(const char *path);

#endif
