/* md: the Markdown reader. cmark-gfm with the table, strikethrough, autolink,
 * tasklist and tagfilter extensions, then the safety pass every untrusted
 * document needs: raw HTML sanitised against an allowlist (or shown as text),
 * unsafe link and image targets neutralised, each with a warning.
 * Pure: bytes in, tree and diagnostics out. Level 2. */
#ifndef SSG_MD_H
#define SSG_MD_H
#include <stdbool.h>
#include <stddef.h>
#include <cmark-gfm.h>

#include "diag.h"

/* Parse Markdown text into a CMARK_NODE_DOCUMENT (never NULL). escape_html:
 * show raw HTML as text instead of sanitising it. */
cmark_node *md_parse(const char *text, size_t len, const char *path, bool escape_html,
		     struct diags *d);
/* The safety pass alone, for trees from any reader: raw HTML nodes and unsafe
 * URLs. */
void md_make_safe(cmark_node *doc, const char *path, bool escape_html, struct diags *d);

#endif
