/* model_merge: citations merged into resources (see model_merge.c).
 * Level 3 (the model's). */
#ifndef SSG_MODEL_MERGE_H
#define SSG_MODEL_MERGE_H
#include <stddef.h>

struct site;
struct aliases;

/* Every document's citations with a canonical URL (aliased by al, when it
 * has any) merged into s->res (empty before), numbered by first citation
 * in document order, each citation's `resource` set, each resource's refs
 * placed in s->refs, res_by_url filled; `last` is how many resources the
 * last build had (0: unknown), the room made first. Uses s->jobs threads;
 * the result does not depend on them. */
void model_merge(struct site *s, const struct aliases *al, size_t last);

#endif
