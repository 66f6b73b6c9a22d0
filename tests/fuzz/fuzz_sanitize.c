/* fuzz_sanitize: libFuzzer target for the raw-HTML sanitiser. Beyond crashes
 * it checks the output for what must never get through: a <script (or any
 * other dropped element's) tag, an on* handler attribute, an unsafe URL in
 * href/src (read as a browser reads the attribute), and the output must be a
 * fixed point (sanitising it again keeps it). */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "diag.h"
#include "sanitize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An attribute value as the browser reads it: the sanitiser's escapes
 * (&amp; &lt; &gt; &quot; &#39; and numeric references) decoded. */
static void attr_decode(const char *v, size_t n, struct buf *out)
{
	static const struct {
		const char *ent;
		char c;
	} named[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		for (; k < sizeof named / sizeof *named; k++) {
			size_t l = strlen(named[k].ent);
			if (i + l <= n && !memcmp(v + i, named[k].ent, l)) {
				buf_putc(out, named[k].c);
				i += l - 1;
				break;
			}
		}
		if (k < sizeof named / sizeof *named)
			continue;
		if (v[i] == '&' && i + 2 < n && v[i + 1] == '#') {
			char *end;
			bool hex = v[i + 2] == 'x' || v[i + 2] == 'X';
			unsigned long cp = strtoul(v + i + 2 + hex, &end, hex ? 16 : 10);
			if (end < v + n && *end == ';' && cp > 0 && cp < 0x80) {
				buf_putc(out, (char)cp);
				i = (size_t)(end - v);
				continue;
			}
		}
		buf_putc(out, v[i]);
	}
}

static int attr_is(const char *a, size_t n, const char *name)
{
	return strlen(name) == n && !memcmp(a, name, n);
}

/* Walk the tags of sanitised output: names and attributes are lower case,
 * values double-quoted and escaped, so a simple scanner reads them. */
static void check_tags(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '<')
			continue;
		size_t j = i + 1;
		if (j < n && s[j] == '/')
			j++;
		size_t name = j;
		while (j < n && isalnum((unsigned char)s[j]))
			j++;
		if (j == name)
			abort(); /* '<' not starting a tag must have been escaped */
		if ((j - name == 6 && !strncasecmp(s + name, "script", 6)) ||
		    (j - name == 5 && !strncasecmp(s + name, "style", 5)) ||
		    (j - name == 6 && !strncasecmp(s + name, "iframe", 6)) ||
		    (j - name == 3 && !strncasecmp(s + name, "svg", 3)))
			abort();
		while (j < n && s[j] != '>') {
			while (j < n && s[j] == ' ')
				j++;
			size_t an = j;
			while (j < n && s[j] != '=' && s[j] != ' ' && s[j] != '>' && s[j] != '/')
				j++;
			if (j - an >= 2 && tolower((unsigned char)s[an]) == 'o' &&
			    tolower((unsigned char)s[an + 1]) == 'n')
				abort();
			size_t j0 = j;
			if (j < n && s[j] == '/')
				j++;
			if (j < n && s[j] == '=') {
				j++;
				if (j >= n || s[j] != '"')
					abort();
				size_t v = ++j;
				while (j < n && s[j] != '"')
					j++;
				if (attr_is(s + an, j0 - an, "href") || attr_is(s + an, j0 - an, "src")) {
					struct buf url = BUF_INIT;
					attr_decode(s + v, j - v, &url);
					if (!sanitize_url_ok(buf_cstr(&url), url.n))
						abort();
					buf_free(&url);
				}
				j++;
			}
		}
		i = j;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 100000)
		return 0;
	struct buf out = BUF_INIT;
	struct diags d = DIAGS_INIT;
	sanitize_html((const char *)data, size, &out, "f.md", 1, &d);
	check_tags(buf_cstr(&out), out.n);
	struct buf again = BUF_INIT;
	sanitize_html(buf_cstr(&out), out.n, &again, "f.md", 1, NULL);
	if (again.n != out.n || memcmp(buf_cstr(&again), buf_cstr(&out), out.n))
		abort();
	buf_free(&again);
	buf_free(&out);
	diags_free(&d);
	return 0;
}
