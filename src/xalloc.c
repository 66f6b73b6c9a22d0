/* xalloc: allocation helpers that abort on out-of-memory (see xalloc.h). */
#include "xalloc.h"
#include "heap_warm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void)
{
	fputs("ssg: fatal: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom();
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* A format of text and %s alone (most of them: "%sindex.html" for each of
 * 28,000 pages), joined by hand: vsnprintf twice took 1,400 instructions a
 * call. NULL when fmt has another conversion (or more than 8 strings). */
#define PLAIN_MAX 8
static char *plain_format(const char *fmt, va_list ap)
{
	const char *arg[PLAIN_MAX];
	size_t len[PLAIN_MAX], nargs = 0, total = 0;
	for (const char *f = fmt; *f; f++) {
		if (*f != '%') {
			total++;
			continue;
		}
		if (f[1] != 's' || nargs == PLAIN_MAX)
			return NULL;
		f++;
		nargs++;
	}
	for (size_t i = 0; i < nargs; i++) {
		arg[i] = va_arg(ap, const char *);
		if (!arg[i])
			arg[i] = "(null)"; /* as glibc's printf has it */
		len[i] = strlen(arg[i]);
		total += len[i];
	}
	char *out = xmalloc(total + 1), *o = out;
	size_t k = 0;
	for (const char *f = fmt; *f; f++) {
		if (*f != '%') {
			*o++ = *f;
			continue;
		}
		memcpy(o, arg[k], len[k]);
		o += len[k++];
		f++;
	}
	*o = '\0';
	return out;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *plain = plain_format(fmt, ap);
	va_end(ap);
	if (plain)
		return plain;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	char *p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void *xgrow_room(void *p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 8;
	while (c < need)
		c *= 2;
	p = xrealloc(p, c * size);
	heap_warm_grown(p, *cap * size, c * size);
	*cap = c;
	return p;
}

char *xconcat(const char *first, ...)
{
	va_list ap;
	size_t n = 0;
	va_start(ap, first);
	for (const char *p = first; p; p = va_arg(ap, const char *))
		n += strlen(p);
	va_end(ap);
	char *out = xmalloc(n + 1), *w = out;
	va_start(ap, first);
	for (const char *p = first; p; p = va_arg(ap, const char *)) {
		size_t l = strlen(p);
		memcpy(w, p, l);
		w += l;
	}
	va_end(ap);
	*w = '\0';
	return out;
}
