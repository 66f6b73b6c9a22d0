/* reader: dispatch to the Markdown or reStructuredText reader (see reader.h). */
#include "reader.h"
#include "buf.h"
#include "md.h"
#include "rst.h"

cmark_node *reader_parse(const struct source *s, const struct config *cfg, struct diags *d)
{
	/* Blank lines stand in for the front matter so both readers count lines
	 * of the whole file. */
	struct buf text = BUF_INIT;
	for (int i = 1; i < s->body_line; i++)
		buf_putc(&text, '\n');
	buf_put(&text, s->body, s->body_len);
	bool escape = cfg->raw_html == RAW_HTML_ESCAPE;
	cmark_node *doc;
	if (s->format == FMT_RST) {
		struct rst_options o = {.allow_raw = false,
					.allow_include = false,
					.max_depth = (int)cfg->max_nesting};
		doc = rst_parse(buf_cstr(&text), text.n, s->relpath, &o, d);
		md_make_safe(doc, s->relpath, escape, d);
	} else
		/* the body is utf8_clean's (source.h): valid UTF-8 */
		doc = md_parse_depth(buf_cstr(&text), text.n, s->relpath, escape,
				     (int)cfg->max_nesting, true, d);
	buf_free(&text);
	return doc;
}
