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
/* Default of limits.max_nesting: lists and block quotes nested deeper are
 * flattened. */
#define MD_DEFAULT_MAX_DEPTH 64
/* A line with more '|' than this has them escaped, so that it is no table row
 * (cmark-gfm's tables are quadratic in the cells of a row); a warning says so. */
#define MD_MAX_TABLE_CELLS 256
/* cmark-gfm 0.29.0.gfm.6 (Debian 12's) walks every image opener still open
 * in a paragraph for each link it closes (fixed upstream as CVE-2023-22486):
 * "![[]()" 40,000 times took 11 s. Where a paragraph's image openers that
 * never close, times its links, pass this, those openers are escaped. */
#define MD_MAX_OPEN_IMAGES_BY_LINKS 100000
/* The same for the raw HTML openers "<?" and "<![CDATA[" that never close,
 * each scanning the rest of its paragraph: their count times the
 * paragraph's bytes ("<?" 80,000 times took 3.9 s, "<![CDATA[" 17.5 s). */
#define MD_MAX_OPEN_HTML_SCAN 50000000
/* A link's or image's target longer than this is removed (a warning says
 * so), its title cut to MD_MAX_LINK_TITLE bytes: a reference definition
 * lends both to every link naming it. Far above real URLs (browsers and
 * sitemaps draw the line near 2,000). */
#define MD_MAX_URL 8192
#define MD_MAX_LINK_TITLE 1000
/* md_parse with a nesting limit (0: MD_DEFAULT_MAX_DEPTH, which md_parse
 * uses). utf8_valid: the text is known to be valid UTF-8 (utf8_clean's, as
 * a source's body is), so cmark-gfm does not check it again (else invalid
 * sequences become U+FFFD, as md_parse has them). */
cmark_node *md_parse_depth(const char *text, size_t len, const char *path, bool escape_html,
			   int max_depth, bool utf8_valid, struct diags *d);
/* Flatten lists and block quotes nested deeper than max_depth (0: the
 * default): each outermost too-deep one is replaced by the paragraphs, code
 * blocks, headings... inside it, so no text is lost; one warning (code
 * "too-deep") at the first. */
void md_limit_depth(cmark_node *doc, int max_depth, const char *path, struct diags *d);
/* The safety pass alone, for trees from any reader: raw HTML nodes and unsafe
 * URLs. */
void md_make_safe(cmark_node *doc, const char *path, bool escape_html, struct diags *d);

#endif
