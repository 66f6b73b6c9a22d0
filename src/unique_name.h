/* unique_name: names made unique by a number appended ("base", then
 * "base-2", "base-3", ... or from "-1"), in time linear in the names given:
 * each base remembers the next number to try, so a thousand headings "Notes"
 * or a thousand URLs cut to the same slug are not each tried against all the
 * numbers before theirs (which made one document of 3,000 equal headings take
 * 16 s). Level 0. */
#ifndef SSG_UNIQUE_NAME_H
#define SSG_UNIQUE_NAME_H
#include <stdbool.h>
#include <stddef.h>

#include "hash.h"

struct unique_names {
	struct hash taken;  /* every name given or reserved (keys borrowed) */
	struct hash next;   /* base -> the next number to try (keys in owned) */
	char **owned;       /* the bases that needed a number */
	size_t nowned, capowned;
	int first;          /* the first number appended */
};

/* An empty set whose numbers start at first (1: "a-1"; 2: "a-2"). */
void unique_names_init(struct unique_names *u, int first);
/* Name is taken without being given (reserved words): borrowed, it must
 * outlive u. */
void unique_names_reserve(struct unique_names *u, const char *name);
/* Whether name is taken. */
bool unique_names_taken(const struct unique_names *u, const char *name);
/* base when it is free, else base-N for the smallest N >= first that is
 * free: the same name a search from `first` up would give. Takes base (a
 * heap string): returns it, or keeps or frees it and returns a new heap
 * string. The caller owns the name, and must keep it until unique_names_free
 * (it is a key of u). */
char *unique_name_take(struct unique_names *u, char *base);
void unique_names_free(struct unique_names *u);

#endif
