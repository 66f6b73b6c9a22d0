/* xalloc: allocation that never returns NULL. Out of memory is the one fatal
 * error in ssg: these print a message and abort. An array grown large has its
 * new part warmed (heap_warm.h). Level 0; calls only libc and heap_warm. */
#ifndef SSG_XALLOC_H
#define SSG_XALLOC_H
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new heap string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Concatenate strings up to a NULL into a new heap string (no printf). */
char *xconcat(const char *first, ...);

/* (xgrow's growing, called only for an array without room: need > *cap) */
void *xgrow_room(void *p, size_t *cap, size_t need, size_t size);
/* Grow an array (p, *cap) so it can hold at least `need` elements of `size`
 * (inline: most calls find room, and are then a compare in the caller). */
static inline void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	return need <= *cap ? p : xgrow_room(p, cap, need, size);
}

#endif
