/* check: the lint rules of `ssg check` that loading does not already apply,
 * and the three ways findings are printed (GCC-style text, GitHub workflow
 * annotations, JSON lines). Loading (site_load) reports configuration,
 * front-matter, reader, encoding, link and reference problems; check adds the
 * rules that need the whole model: resources listed twice in one document,
 * URL variants of an existing resource, resources that fall into Unsorted,
 * images of missing files and empty titles. Pure: reads a loaded site, writes diagnostics; no
 * filesystem, no global state. Level 5. */
#ifndef SSG_CHECK_H
#define SSG_CHECK_H
#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "diag.h"
#include "model.h"

/* Apply every lint rule to a loaded site (site_load; the rules read what
 * extract kept of the trees, so a document from the cache is checked as one
 * parsed afresh) and append the findings to d, unsorted. Works on a partly
 * loaded site too (after config errors: no documents, no topics). Rule
 * codes:
 *   duplicate-resource  a document lists the same resource (canonical URL,
 *                       same fragment) in two different entries; reported at
 *                       each later one. A listing is a link in a list item
 *                       or table cell, or alone in its paragraph, or after a
 *                       bold title; mentions in running text do not count
 *   url-variant         a citation spells a resource's URL (fragment aside)
 *                       differently from its usual spelling: not an old
 *                       address that site.yml's aliases move, then the one
 *                       most citations use, then the canonical URL, then the
 *                       first in document order. Names the canonical URL and
 *                       where the usual spelling is written; an old address
 *                       is called one. Only for resources written in more
 *                       than one way
 *   unsorted            a resource no topic rule matches (one finding per
 *                       resource, at its first citation)
 *   missing-file        an image whose relative source names no file under
 *                       content/ (links are resolved by xref; images are not)
 *   empty-title         a document with neither a title nor a heading, an
 *                       empty heading, a link without text, a topic or kind
 *                       of site.yml with an empty title
 * All are warnings. */
void check_site(const struct site *s, struct diags *d);

/* Turn every warning into an error (--strict). */
void check_strict(struct diags *d);

enum check_format { CHECK_TEXT, CHECK_GITHUB, CHECK_JSON };

/* "text", "github" or "json"; -1 for anything else. */
int check_format_parse(const char *name, enum check_format *f);

/* Append one finding as a line (with its '\n') in format f. `prefix` is put
 * before a relative path (the site folder as given on the command line, so
 * the path opens from the current folder); NULL or "" or "." for none.
 *   text:   path:line:col: severity: message [code]
 *           (":col" is left out when 0, ":line:col" when the line is 0)
 *   github: ::error file=path,line=N,col=N,title=ssg (code)::message
 *           (warning -> ::warning, note -> ::notice; values escaped as the
 *           workflow command syntax wants: % CR LF, and : , in properties)
 *   json:   {"file":…,"line":N,"col":N,"severity":…,"code":…|null,"message":…} */
void check_format_diag(const struct diag *g, enum check_format f, const char *prefix,
		       struct buf *out);

/* What the summary line counts. */
struct check_summary {
	size_t docs, resources, topics, notes, warnings, errors;
};
void check_summarize(const struct site *s, const struct diags *d, struct check_summary *sum);
/* "checked N documents, N resources, N topics: N errors, N warnings, N notes\n" */
void check_format_summary(const struct check_summary *sum, struct buf *out);

#endif
