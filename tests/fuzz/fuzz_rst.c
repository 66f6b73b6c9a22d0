/* fuzz_rst: libFuzzer target for the reStructuredText reader. The input is
 * cleaned like a content file (utf8_clean), parsed by rst_parse with a small
 * nesting limit or the default one (first byte decides, and whether `raw` is
 * allowed), made safe and rendered to HTML, so trees cmark-gfm would refuse
 * to render show up too. */
#include <stdint.h>
#include <stdlib.h>

#include <cmark-gfm.h>

#include "ast.h"
#include "diag.h"
#include "md.h"
#include "rst.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 200000)
		return 0;
	ast_init();
	unsigned flags = size ? data[0] : 0;
	size_t len;
	char *text = utf8_clean((const char *)data, size, &len, "f.rst", NULL);
	struct rst_options o = {.allow_raw = flags & 1, .max_depth = (flags & 2) ? 8 : 0};
	struct diags d = DIAGS_INIT;
	cmark_node *doc = rst_parse(text, len, "f.rst", &o, &d);
	md_make_safe(doc, "f.rst", flags & 4, &d);
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES, ast_extensions());
	free(html);
	cmark_node_free(doc);
	diags_free(&d);
	free(text);
	return 0;
}
