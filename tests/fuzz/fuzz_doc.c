/* fuzz_doc: libFuzzer target for a whole build of one document, the
 * sequence site.c's read_one runs: the bytes are written to a file and read
 * by source_load (binary sniffing, utf8_clean, front matter, format), parsed
 * by reader_parse (Markdown or reStructuredText), extracted (extract_doc)
 * and rendered (html_render_body). The first byte picks the file name
 * (.md, .rst or .txt) and whether the tree lives in an arena, as a build's
 * do (ast.h), or on the heap. Also checks the rendered body holds no
 * <script tag. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cmark-gfm.h>

#include "ast.h"
#include "config.h"
#include "doc.h"
#include "extract.h"
#include "html.h"
#include "reader.h"
#include "source.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {"content/f.md", "content/f.rst", "content/f.txt"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 200000)
		return 0;
	ast_init();
	char path[64];
	snprintf(path, sizeof path, "/tmp/ssg-fuzz-doc-%d", (int)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data + 1, 1, size - 1, f);
	fclose(f);
	struct config cfg;
	config_defaults(&cfg);
	if (data[0] & 4)
		cfg.raw_html = RAW_HTML_ESCAPE;
	if (data[0] & 8)
		cfg.max_nesting = 6;
	struct doc d;
	memset(&d, 0, sizeof d);
	d.relpath = xstrdup(names[(data[0] & 3) % 3] + 8);
	d.shown = xstrdup(names[(data[0] & 3) % 3]);
	struct ast_arena *arena = data[0] & 16 ? ast_arena_begin() : NULL;
	struct source src;
	if (source_load(path, d.shown, cfg.max_file_size, &src, &d.diags) == 0) {
		d.format = src.format;
		d.meta = src.meta;
		memset(&src.meta, 0, sizeof src.meta);
		d.tree = reader_parse(&src, &cfg, &d.diags);
		extract_doc(&d);
		d.body = html_render_body(&d);
		doc_drop_tree(&d);
		doc_compact_strings(&d);
		/* no script element may come from content */
		for (const char *p = d.body; (p = strchr(p, '<')); p++)
			if (!strncasecmp(p + 1, "script", 6))
				abort();
	}
	source_free(&src);
	ast_arena_end(arena);
	doc_free(&d);
	config_free(&cfg);
	unlink(path);
	return 0;
}
