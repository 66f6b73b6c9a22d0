/* diag: collecting, sorting and printing diagnostics (see diag.h). */
#include "diag.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void vadd(struct diags *d, enum severity sev, const char *code, const char *path, int line,
		 int col, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	char *msg = xmalloc(n > 0 ? (size_t)n + 1 : 1);
	vsnprintf(msg, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
	d->v = xgrow(d->v, &d->cap, d->n + 1, sizeof *d->v);
	d->v[d->n++] = (struct diag){
		.path = xstrdup(path ? path : ""),
		.line = line,
		.col = col,
		.sev = sev,
		.code = code ? xstrdup(code) : NULL,
		.msg = msg,
	};
}

void diag_add(struct diags *d, enum severity sev, const char *path, int line, int col,
	      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vadd(d, sev, NULL, path, line, col, fmt, ap);
	va_end(ap);
}

void diag_addc(struct diags *d, enum severity sev, const char *code, const char *path, int line,
	       int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vadd(d, sev, code, path, line, col, fmt, ap);
	va_end(ap);
}

void diags_take(struct diags *dst, struct diags *src)
{
	if (!src->n)
		return;
	dst->v = xgrow(dst->v, &dst->cap, dst->n + src->n, sizeof *dst->v);
	memcpy(dst->v + dst->n, src->v, src->n * sizeof *src->v);
	dst->n += src->n;
	free(src->v);
	src->v = NULL;
	src->n = src->cap = 0;
}

size_t diags_count(const struct diags *d, enum severity sev)
{
	size_t c = 0;
	for (size_t i = 0; i < d->n; i++)
		c += d->v[i].sev == sev;
	return c;
}

static int cmp_diag(const void *a, const void *b)
{
	const struct diag *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return strcmp(x->msg, y->msg);
}

void diags_sort(struct diags *d)
{
	if (d->n > 1)
		qsort(d->v, d->n, sizeof *d->v, cmp_diag);
}

const char *severity_name(enum severity sev)
{
	switch (sev) {
	case SEV_ERROR: return "error";
	case SEV_WARNING: return "warning";
	default: return "note";
	}
}

void diag_print(const struct diag *g, FILE *f)
{
	fprintf(f, "%s:%d:%d: %s: %s\n", g->path[0] ? g->path : "ssg", g->line, g->col,
		severity_name(g->sev), g->msg);
}

void diags_print(const struct diags *d, FILE *f)
{
	for (size_t i = 0; i < d->n; i++)
		diag_print(&d->v[i], f);
}

void diags_free(struct diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].path);
		free(d->v[i].code);
		free(d->v[i].msg);
	}
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}
