/* diag: diagnostics in the one shape ssg reports them,
 * `path:line:col: severity: message`. A `struct diags` is a list owned by
 * whoever collects (one per document while reading, one per site), so
 * threads never share one. Level 0. */
#ifndef SSG_DIAG_H
#define SSG_DIAG_H
#include <stddef.h>
#include <stdio.h>

enum severity { SEV_NOTE, SEV_WARNING, SEV_ERROR };

struct diag {
	char *path;  /* relative to the site source; may be "" */
	int line;    /* 1-based; 0 when unknown */
	int col;     /* 1-based; 0 when unknown */
	enum severity sev;
	char *code;  /* short rule name, e.g. "broken-link"; may be NULL */
	char *msg;
};

struct diags {
	struct diag *v;
	size_t n, cap;
};

#define DIAGS_INIT {NULL, 0, 0}

void diag_add(struct diags *d, enum severity sev, const char *path, int line, int col,
	      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Same, with a rule code (see ssg check). */
void diag_addc(struct diags *d, enum severity sev, const char *code, const char *path, int line,
	       int col, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* Move every diagnostic of src to the end of dst; src is left empty. */
void diags_take(struct diags *dst, struct diags *src);
size_t diags_count(const struct diags *d, enum severity sev);
/* Sort by path, line, col, then message: deterministic output. */
void diags_sort(struct diags *d);
const char *severity_name(enum severity sev);
/* Print one as `path:line:col: severity: message`. */
void diag_print(const struct diag *g, FILE *f);
void diags_print(const struct diags *d, FILE *f);
void diags_free(struct diags *d);

#endif
