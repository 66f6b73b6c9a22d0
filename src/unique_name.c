/* unique_name: names made unique by a number, each base counting on from
 * where it stopped (see unique_name.h). */
#include "unique_name.h"
#include "xalloc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void unique_names_init(struct unique_names *u, int first)
{
	memset(u, 0, sizeof *u);
	u->first = first;
}

void unique_names_reserve(struct unique_names *u, const char *name)
{
	hash_put(&u->taken, name, 0);
}

bool unique_names_taken(const struct unique_names *u, const char *name)
{
	return hash_get(&u->taken, name, NULL);
}

char *unique_name_take(struct unique_names *u, char *base)
{
	if (!hash_get(&u->taken, base, NULL)) {
		hash_put(&u->taken, base, 0);
		return base;
	}
	/* every base-N below the one noted is taken already: names are never
	 * given back, so the search goes on from there */
	size_t next = (size_t)u->first;
	bool known = hash_get(&u->next, base, &next);
	int k = (int)next;
	char *name = NULL;
	do {
		free(name);
		name = xasprintf("%s-%d", base, k++);
	} while (hash_get(&u->taken, name, NULL));
	hash_put(&u->taken, name, 0);
	if (known) {
		hash_put(&u->next, base, (size_t)k); /* the key it holds stays */
		free(base);
	} else {
		u->owned = xgrow(u->owned, &u->capowned, u->nowned + 1, sizeof *u->owned);
		u->owned[u->nowned++] = base;
		hash_put(&u->next, base, (size_t)k);
	}
	return name;
}

void unique_names_free(struct unique_names *u)
{
	hash_free(&u->taken);
	hash_free(&u->next);
	for (size_t i = 0; i < u->nowned; i++)
		free(u->owned[i]);
	free(u->owned);
	memset(u, 0, sizeof *u);
}
