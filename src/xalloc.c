/* xalloc: allocation helpers that abort on out-of-memory (see xalloc.h). */
#include "xalloc.h"

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

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
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

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t c = *cap ? *cap : 8;
	while (c < need)
		c *= 2;
	p = xrealloc(p, c * size);
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
