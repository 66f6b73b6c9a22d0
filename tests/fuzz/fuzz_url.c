/* fuzz_url: libFuzzer target for URL canonicalisation and the scheme checks.
 * Besides crashes it checks the documented properties: a canonical URL is
 * printable ASCII starting with https://, canonicalising it again changes
 * nothing, and it is safe; and url_is_safe agrees with sanitize_url_ok on
 * javascript:-like input being refused. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
#include "url.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 20000)
		return 0;
	char *s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = 0;
	char *c = url_canonical(s);
	if (c) {
		if (strncmp(c, "https://", 8))
			abort();
		for (const char *p = c; *p; p++)
			if (*p <= ' ' || *p >= 127)
				abort();
		char *c2 = url_canonical(c);
		if (!c2 || strcmp(c, c2))
			abort();
		free(c2);
		if (!url_is_safe(c) || !url_is_absolute_http(s))
			abort();
	}
	free(c);
	url_is_safe(s);
	sanitize_url_ok(s, size);
	free(url_host(s));
	free(url_path(s));
	/* the first line as a pattern, the rest as the URL */
	char *nl = strchr(s, '\n');
	if (nl) {
		*nl = 0;
		url_match_pattern(nl + 1, s);
	}
	free(s);
	return 0;
}
