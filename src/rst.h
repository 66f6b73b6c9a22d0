/* rst: the reStructuredText reader. Turns RST text into the same cmark-gfm
 * node tree the Markdown reader builds (see DESIGN.md, "One tree for both
 * formats"); constructs without a Markdown twin become custom nodes carrying
 * HTML. Level 2: calls ast, buf, diag, path, xalloc and cmark-gfm. */
#ifndef SSG_RST_H
#define SSG_RST_H
#include <stdbool.h>
#include <stddef.h>
#include <cmark-gfm.h>
#include "diag.h"

struct rst_options {
	bool allow_raw;     /* honour the `raw` directive (else: warning, body kept as text) */
	bool allow_include; /* reserved: rst_parse never touches files; `include` always warns */
	int max_depth;      /* nesting limit of quotes/lists/sections; 0 = default 64 */
};

/* Parse UTF-8 text (already cleaned: LF line ends, no BOM) into a cmark-gfm
 * CMARK_NODE_DOCUMENT. Never fails: problems become warnings in d with `path`
 * and the line; no text is lost (falls back to literal text). Pure: no file
 * system, no config. Thread-safe. opt may be NULL (defaults). The caller owns
 * the result (cmark_node_free). Every block node and link carries its source
 * line (ast_line). */
cmark_node *rst_parse(const char *text, size_t len, const char *path, const struct rst_options *opt,
		      struct diags *d);

#endif
