/* hugepages: a build of a big site runs with glibc's malloc on transparent
 * huge pages, keeping the memory it frees. glibc reads those settings
 * (GLIBC_TUNABLES=glibc.malloc.hugetlb=1 and the rest) only from the
 * environment, as the process starts, so the command re-executes itself once
 * with them set, before it has done any work. At 1,000 and 10,000 documents
 * huge pages take 3-5 % off a clean build (a third of the page faults), and
 * keeping freed memory spares the kernel zeroing it again; at five documents
 * it costs more than it saves, so small sites are left alone. SSG_HUGEPAGES=0
 * turns it off. Level 6. */
#ifndef SSG_HUGEPAGES_H
#define SSG_HUGEPAGES_H
#include <stdbool.h>
#include <stddef.h>

/* Keep the command line as main got it (option parsing reorders it). */
void hugepages_init(int argc, char **argv);
/* Re-execute with huge pages when the site in source_dir is big and they are
 * not set yet; returns when nothing is to be done or the exec failed. */
void hugepages_for_site(const char *source_dir);
/* The same for `ssg build` into outdir, but for an incremental build of a
 * big site (not forced, and the last build's state in outdir): that one
 * runs on small pages, keeping the memory it frees (mallopt). It is short
 * and its memory is fresh: at 10,000 documents an entry edit touches about
 * 170 MB, and on a virtual machine that hands freed memory back to its host
 * (free page reporting, as on this project's benchmark machine) a fresh
 * huge page costs 1.6-2.7 ms a MB against 0.3-0.4 for small pages, once
 * the host has taken it back, seconds after the last build: an entry edit
 * took 0.61 s on huge pages against 0.40 s (0.37 s against 0.40 s when run
 * right after another build; BENCHMARKS.md, the thirty-fourth round).
 * SSG_HUGEPAGES=1 asks for huge pages there too. */
void hugepages_for_build(const char *source_dir, const char *outdir, bool force);
/* A build that stays on small pages has the memory it starts with warmed
 * (heap_warm.h): this much, eight times the last build's files.bin (the
 * site's files, fingerprint.h). */
size_t hugepages_first_warmth(const char *source_dir);
/* The mallopt settings that keep what malloc frees, as (param, value)
 * pairs, but for the ones GLIBC_TUNABLES (existing, may be NULL) names;
 * none when it names glibc.malloc.hugetlb (the user's word stands).
 * Returns how many, at most HUGEPAGES_KEEP_MAX. */
#define HUGEPAGES_KEEP_MAX 4
size_t hugepages_keep_params(const char *existing, int param[], int value[]);
/* Whether a build into outdir would be incremental: not forced, and the
 * last build's state is there. */
bool hugepages_build_is_incremental(const char *outdir, bool force);

/* The parts, for the tests. Whether content/ holds at least `least` entries
 * (one folder read; its subfolders are not counted). */
bool hugepages_site_is_big(const char *source_dir, unsigned least);
/* The GLIBC_TUNABLES value to run with, given the one in the environment
 * (NULL: none): ssg's settings added to it, but for the ones it names; NULL
 * when it already says what malloc does with huge pages (the user's word, or
 * the re-executed command's). The caller frees it. */
char *hugepages_tunables(const char *existing);

#endif
