/* fuzz_config: libFuzzer target for YAML loading: site.yml (config_parse) and
 * front matter (source_load on a temporary file, which runs yamlx_load and
 * meta_from_yaml on the block between the --- lines). The first byte picks
 * which; the rest is the text. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "config.h"
#include "diag.h"
#include "source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void front_matter(const uint8_t *data, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/tmp/ssg-fuzz-fm-%d.md", (int)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fputs("---\n", f);
	fwrite(data, 1, size, f);
	fputs("\n---\n# Body\n", f);
	fclose(f);
	struct source s;
	struct diags d = DIAGS_INIT;
	source_load(path, "content/f.md", 1 << 20, &s, &d);
	source_free(&s);
	diags_free(&d);
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 100000)
		return 0;
	if (data[0] & 1) {
		front_matter(data + 1, size - 1);
		return 0;
	}
	struct config cfg;
	struct diags d = DIAGS_INIT;
	config_parse(&cfg, (const char *)data + 1, size - 1, "site.yml", &d);
	config_free(&cfg);
	diags_free(&d);
	return 0;
}
