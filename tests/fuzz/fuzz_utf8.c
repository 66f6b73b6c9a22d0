/* fuzz_utf8: libFuzzer target for utf8_clean (BOM, line ends, invalid bytes,
 * mojibake repair) and the binary sniffer. Checks what utf8_clean promises:
 * the result is valid UTF-8 with no NUL, CR or C0 control but tab and LF, and
 * the reported length is the string's length. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diags d = DIAGS_INIT;
	size_t n;
	char *out = utf8_clean((const char *)data, size, &n, "f.md", &d);
	if (strlen(out) != n || !utf8_valid(out, n))
		abort();
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];
		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
			abort();
	}
	/* cleaning clean text changes nothing but mojibake that the repair made */
	size_t n2;
	char *again = utf8_clean(out, n, &n2, "f.md", NULL);
	if (!utf8_valid(again, n2))
		abort();
	free(again);
	utf8_looks_binary((const char *)data, size);
	free(out);
	diags_free(&d);
	return 0;
}
