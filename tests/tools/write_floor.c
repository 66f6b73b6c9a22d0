/* write_floor: what the file system alone needs to create a built site, for
 * `make bench` (scripts/bench.sh's writefloor step) and BENCHMARKS.md. It is
 * the floor of writing the output as the cmark-gfm run is the floor of
 * parsing the input: no reading, no model, no rendering, only making the
 * folders and writing the files, from memory.
 *
 * Usage: write_floor SRC DST RUNS THREADS OUT.json LABEL
 * Reads every folder and regular file under SRC into memory, then RUNS times
 * (after one run not counted): removes DST (not timed), makes DST and SRC's
 * folders in order on one thread, and writes the files from THREADS threads,
 * each taking every THREADS-th file (as a build's pool writes its pages).
 * Prints the median, and writes OUT.json in hyperfine's form (seconds, user
 * and system time per run averaged) so that bench.sh's summary lists it.
 * DST is left holding the last copy, byte for byte SRC's tree. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct entry {
	char *rel;   /* path under the root */
	char *data;  /* NULL for a folder */
	size_t len;
};

static struct entry *ents;
static size_t nents, capents;
static size_t *files; /* indexes of the files in ents */
static size_t nfiles;
static const char *dst;
static int nthreads;
static int failed;

static void die(const char *what, const char *path)
{
	fprintf(stderr, "write_floor: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

static void add(char *rel, char *data, size_t len)
{
	if (nents == capents) {
		capents = capents ? capents * 2 : 1024;
		ents = realloc(ents, capents * sizeof *ents);
		if (!ents)
			die("out of memory", "");
	}
	ents[nents++] = (struct entry){rel, data, len};
}

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = malloc(la + lb + 2);
	if (!p)
		die("out of memory", "");
	memcpy(p, a, la);
	p[la] = '/';
	memcpy(p + la + 1, b, lb + 1);
	return p;
}

static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st))
		die("cannot read", path);
	char *p = malloc((size_t)st.st_size + 1);
	size_t n = 0;
	while (p && n < (size_t)st.st_size) {
		ssize_t r = read(fd, p + n, (size_t)st.st_size - n);
		if (r <= 0)
			die("cannot read", path);
		n += (size_t)r;
	}
	if (!p)
		die("out of memory", path);
	close(fd);
	*len = n;
	return p;
}

/* Folders before what they hold (pre-order); names sorted, so runs repeat. */
static void load(const char *root, const char *rel)
{
	char *dir = *rel ? join(root, rel) : strdup(root);
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		die("cannot list", dir);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		if (strcmp(name, ".") && strcmp(name, "..")) {
			char *r = *rel ? join(rel, name) : strdup(name);
			char *path = join(root, r);
			struct stat st;
			if (lstat(path, &st))
				die("cannot stat", path);
			if (S_ISDIR(st.st_mode)) {
				add(r, NULL, 0);
				load(root, r);
			} else if (S_ISREG(st.st_mode)) {
				size_t len;
				char *data = slurp(path, &len);
				add(r, data, len);
			} else
				free(r);
			free(path);
		}
		free(names[i]);
	}
	free(names);
	free(dir);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_tree(const char *path)
{
	if (nftw(path, remove_one, 64, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		die("cannot remove", path);
}

static void *write_share(void *arg)
{
	size_t k = (size_t)arg;
	for (size_t i = k; i < nfiles; i += (size_t)nthreads) {
		const struct entry *e = &ents[files[i]];
		char *path = join(dst, e->rel);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		size_t n = 0;
		while (fd >= 0 && n < e->len) {
			ssize_t w = write(fd, e->data + n, e->len - n);
			if (w <= 0)
				break;
			n += (size_t)w;
		}
		if (fd < 0 || n < e->len || close(fd)) {
			fprintf(stderr, "write_floor: cannot write %s: %s\n", path, strerror(errno));
			__atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
		}
		free(path);
	}
	return NULL;
}

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One copy of the tree into dst: wall, user and system seconds. */
static void copy_once(double *wall, double *user, double *sys)
{
	struct rusage a, b;
	getrusage(RUSAGE_SELF, &a);
	double t0 = now();
	if (mkdir(dst, 0755))
		die("cannot make", dst);
	for (size_t i = 0; i < nents; i++)
		if (!ents[i].data) {
			char *path = join(dst, ents[i].rel);
			if (mkdir(path, 0755))
				die("cannot make", path);
			free(path);
		}
	pthread_t th[64];
	for (int k = 0; k < nthreads; k++)
		if (pthread_create(&th[k], NULL, write_share, (void *)(size_t)k))
			die("cannot start a thread for", dst);
	for (int k = 0; k < nthreads; k++)
		pthread_join(th[k], NULL);
	*wall = now() - t0;
	getrusage(RUSAGE_SELF, &b);
	*user = seconds(b.ru_utime) - seconds(a.ru_utime);
	*sys = seconds(b.ru_stime) - seconds(a.ru_stime);
	if (failed)
		exit(1);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc != 7) {
		fprintf(stderr, "usage: write_floor SRC DST RUNS THREADS OUT.json LABEL\n");
		return 2;
	}
	const char *src = argv[1], *out = argv[5], *label = argv[6];
	dst = argv[2];
	int runs = atoi(argv[3]);
	nthreads = atoi(argv[4]);
	if (runs < 1 || nthreads < 1 || nthreads > 64) {
		fprintf(stderr, "write_floor: RUNS must be 1 or more, THREADS 1 to 64\n");
		return 2;
	}
	load(src, "");
	files = malloc((nents + 1) * sizeof *files);
	unsigned long long bytes = 0;
	for (size_t i = 0; i < nents; i++)
		if (ents[i].data) {
			files[nfiles++] = i;
			bytes += ents[i].len;
		}
	double *wall = calloc((size_t)runs, sizeof *wall), user = 0, sys = 0;
	for (int r = -1; r < runs; r++) { /* run -1 warms up */
		double w, u, s;
		remove_tree(dst);
		copy_once(&w, &u, &s);
		if (r >= 0) {
			wall[r] = w;
			user += u;
			sys += s;
		}
	}
	double *sorted = malloc((size_t)runs * sizeof *sorted);
	memcpy(sorted, wall, (size_t)runs * sizeof *sorted);
	qsort(sorted, (size_t)runs, sizeof *sorted, by_value);
	double median = runs % 2 ? sorted[runs / 2] : (sorted[runs / 2 - 1] + sorted[runs / 2]) / 2;
	printf("%s: %zu folders, %zu files, %llu bytes, %d threads: median %.2f ms "
	       "(min %.2f, max %.2f, %d runs)\n",
	       label, nents - nfiles, nfiles, bytes, nthreads, median * 1e3, sorted[0] * 1e3,
	       sorted[runs - 1] * 1e3, runs);
	FILE *f = fopen(out, "w");
	if (!f)
		die("cannot write", out);
	fprintf(f, "{\"results\":[{\"command\":\"%s\",\"median\":%.6f,\"min\":%.6f,\"max\":%.6f,"
		   "\"user\":%.6f,\"system\":%.6f,\"times\":[",
		label, median, sorted[0], sorted[runs - 1], user / runs, sys / runs);
	for (int r = 0; r < runs; r++)
		fprintf(f, "%s%.6f", r ? "," : "", wall[r]);
	fprintf(f, "]}]}\n");
	if (fclose(f))
		die("cannot write", out);
	for (size_t i = 0; i < nents; i++) {
		free(ents[i].rel);
		free(ents[i].data);
	}
	free(ents);
	free(files);
	free(wall);
	free(sorted);
	return 0;
}
