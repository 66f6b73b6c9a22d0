/* fingerprint: the cache of digests by stat. A file whose stat is unchanged
 * and settled is not read again; an edit that keeps the size and the mtime
 * is still seen (ctime moves); a file changed within a second of the last
 * run is read again; a damaged cache is read as empty. A folder is listed
 * from the cache under the same rule. The walk's files
 * are the list source_discover makes, when the walk met only folders and
 * regular files, and are refused as that list otherwise. A cache closed
 * into the digests (on a thread) is written once they are freed. Files
 * are known by their place in the last run's walk, and by their path when
 * a file added or removed before them moved it, in any of the trees. */
#include "testutil.h"
#include "fingerprint.h"
#include "source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[64];

static void put(const char *rel, const char *text)
{
	char p[128];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	/* in place: the same inode */
	int fd = open(p, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* One run: the manifest of content/, and how many files it read. */
static size_t run(struct buf *m, bool trust, struct file_digests *keep)
{
	buf_reset(m);
	struct fingerprint_cache *c = fingerprint_cache_open(dir, trust);
	struct fingerprint_walk how = {.keep = keep, .cache = c};
	fingerprint_tree_keep(m, dir, "content", 2, &how);
	size_t reads = fingerprint_cache_reads(c);
	fingerprint_cache_close(c);
	return reads;
}

static void settle(void)
{
	/* what a run looked at becomes trusted a second later */
	struct timespec t = {1, 200000000};
	nanosleep(&t, NULL);
}

/* A fresh folder with an empty content/ in dir. */
static void make_tree(const char *template)
{
	strcpy(dir, template);
	assert_non_null(mkdtemp(dir));
	char sub[96];
	snprintf(sub, sizeof sub, "%s/content", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
}

static void remove_tree(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_known_by_stat(void **state)
{
	(void)state;
	make_tree("/tmp/ssg-fp-XXXXXX");
	put("content/a.md", "hello");
	put("content/b.md", "world");
	settle();
	struct buf m1 = BUF_INIT, m2 = BUF_INIT;
	assert_int_equal(run(&m1, true, NULL), 2); /* no cache yet */
	assert_int_equal(run(&m2, true, NULL), 0); /* both known */
	assert_int_equal(m1.n, m2.n);
	assert_memory_equal(m1.p, m2.p, m1.n);
	assert_int_equal(run(&m2, false, NULL), 2); /* not trusted: both read */

	/* same size, same mtime, other bytes */
	char a[128];
	snprintf(a, sizeof a, "%s/content/a.md", dir);
	struct stat st;
	assert_int_equal(stat(a, &st), 0);
	put("content/a.md", "jello");
	struct timespec times[2] = {st.st_atim, st.st_mtim};
	assert_int_equal(utimensat(AT_FDCWD, a, times, 0), 0);
	struct file_digests keep = {0};
	assert_int_equal(run(&m2, true, &keep), 1);
	assert_true(m1.n != m2.n || memcmp(m1.p, m2.p, m1.n));
	unsigned long long got[2], want[2];
	char rel[] = "content/a.md";
	assert_true(file_digests_get(&keep, rel, got));
	assert_int_equal(fingerprint_file_digest(a, want), 0);
	assert_memory_equal(got, want, sizeof got);
	file_digests_free(&keep);
	/* a.md changed within a second of that run: read again, until settled */
	assert_int_equal(run(&m2, true, NULL), 1);
	settle();
	assert_int_equal(run(&m2, true, NULL), 1);
	assert_int_equal(run(&m2, true, NULL), 0);

	/* a damaged cache is no cache */
	char cache[128];
	snprintf(cache, sizeof cache, "%s/.ssg-cache/files.bin", dir);
	assert_int_equal(truncate(cache, 40), 0);
	assert_int_equal(run(&m2, true, NULL), 2);
	int fd = open(cache, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	/* a count of files far beyond what the file holds */
	static const char lie[] = "ssg-stat 1\n\0\0\0\0\0\0\0\0\xff\xff\xff\xff\xff\xff\xff\x0f";
	assert_int_equal(write(fd, lie, sizeof lie - 1), (ssize_t)(sizeof lie - 1));
	close(fd);
	assert_int_equal(run(&m2, true, NULL), 2);
	buf_free(&m1);
	buf_free(&m2);
	remove_tree();
}

/* A file added before the others, one removed, and two trees walked with
 * one cache: each known file is still found, by path once its place moved. */
static void test_known_when_moved(void **state)
{
	(void)state;
	make_tree("/tmp/ssg-fp-XXXXXX");
	put("content/b.md", "b");
	put("content/c.md", "c");
	put("content/d.md", "d");
	char templates[96];
	snprintf(templates, sizeof templates, "%s/templates", dir);
	assert_int_equal(mkdir(templates, 0755), 0);
	put("templates/page.html", "page");
	settle();
	struct buf m = BUF_INIT, t = BUF_INIT;
	for (int round = 0; round < 4; round++) {
		struct fingerprint_cache *c = fingerprint_cache_open(dir, true);
		struct fingerprint_walk how = {.cache = c};
		fingerprint_tree_keep(&m, dir, "content", 2, &how);
		size_t content_reads = fingerprint_cache_reads(c);
		fingerprint_tree_keep(&t, dir, "templates", 2, &how);
		size_t template_reads = fingerprint_cache_reads(c) - content_reads;
		fingerprint_cache_close(c);
		if (round == 0) {
			assert_int_equal(content_reads, 3);
			assert_int_equal(template_reads, 1);
			put("content/a.md", "a, first of all"); /* every place moves by one */
			settle();
		} else if (round == 1) {
			assert_int_equal(content_reads, 1); /* a.md alone */
			assert_int_equal(template_reads, 0);
			char b[128];
			snprintf(b, sizeof b, "%s/content/b.md", dir);
			assert_int_equal(unlink(b), 0);
			settle();
		} else {
			assert_int_equal(content_reads, 0);
			assert_int_equal(template_reads, 0);
		}
		buf_reset(&m);
		buf_reset(&t);
	}
	buf_free(&m);
	buf_free(&t);
	remove_tree();
}

/* The cache written on a thread: whole once the digests are freed. */
static void test_closed_into_digests(void **state)
{
	(void)state;
	make_tree("/tmp/ssg-fp-XXXXXX");
	for (int i = 0; i < 200; i++) {
		char rel[64];
		snprintf(rel, sizeof rel, "content/doc-%03d.md", i);
		put(rel, rel);
	}
	settle();
	struct buf m = BUF_INIT;
	struct file_digests keep = {0};
	struct fingerprint_cache *c = fingerprint_cache_open(dir, true);
	struct fingerprint_walk how = {.keep = &keep, .cache = c};
	fingerprint_tree_keep(&m, dir, "content", 2, &how);
	assert_int_equal(fingerprint_cache_reads(c), 200);
	fingerprint_cache_close_into(c, &keep);
	assert_int_equal(keep.n, 200); /* the digests are the caller's still */
	file_digests_free(&keep);
	assert_false(keep.saving);
	assert_int_equal(run(&m, true, NULL), 0); /* all 200 known from it */
	buf_free(&m);
	remove_tree();
}

static void cache_identity(struct stat *st)
{
	char cache[128];
	snprintf(cache, sizeof cache, "%s/.ssg-cache/files.bin", dir);
	assert_int_equal(stat(cache, st), 0);
}

/* A run that finds the files as the cache has them, settled, leaves the
 * cache file as it is (no rename over it: ext4 writes a renamed file back
 * at once), even when it read them all (untrusted, as --force); a changed
 * file, or one changed within the second, writes it anew. */
static void test_unchanged_cache_left_in_place(void **state)
{
	(void)state;
	make_tree("/tmp/ssg-fp-XXXXXX");
	put("content/a.md", "hello");
	put("content/b.md", "world");
	settle();
	struct buf m = BUF_INIT;
	struct stat before, after;
	assert_int_equal(run(&m, true, NULL), 2);
	cache_identity(&before);
	settle();
	assert_int_equal(run(&m, false, NULL), 2); /* read them all */
	cache_identity(&after);
	assert_int_equal(after.st_ino, before.st_ino);
	assert_int_equal(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
	assert_int_equal(run(&m, true, NULL), 0); /* and still trusted */

	/* a file changed just now: a cache of its own, and read again until settled */
	put("content/a.md", "jello");
	assert_int_equal(run(&m, false, NULL), 2);
	cache_identity(&after);
	assert_true(after.st_ino != before.st_ino);
	assert_int_equal(run(&m, true, NULL), 1);
	settle();
	assert_int_equal(run(&m, true, NULL), 1);
	assert_int_equal(run(&m, true, NULL), 0);
	buf_free(&m);
	remove_tree();
}

/* Learn a file as a build reading it would: its stat, then its digest. */
static void learn(struct fingerprint_learned *l, const char *rel)
{
	char p[128];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	struct stat st;
	unsigned long long h[2];
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(fingerprint_file_digest(p, h), 0);
	fingerprint_learned_add(l, rel, &st, h);
}

/* A walk after the build read the documents: its manifest, and how many
 * files the walk itself read (not those the build told it of). */
static size_t run_learned(struct buf *m, struct fingerprint_learned *l)
{
	buf_reset(m);
	struct fingerprint_cache *c = fingerprint_cache_open(dir, false);
	struct fingerprint_walk how = {.unframed = source_is_document, .cache = c, .learned = l};
	size_t before = fingerprint_cache_reads(c);
	fingerprint_tree_keep(m, dir, "content", 2, &how);
	size_t reads = fingerprint_cache_reads(c) - before;
	fingerprint_cache_close(c);
	return reads;
}

static bool has_line(const struct buf *m, const char *rel, char kind)
{
	char line[128];
	int n = snprintf(line, sizeof line, "%s%c%c", rel, '\0', kind);
	for (size_t i = 0; i + (size_t)n <= m->n; i++)
		if ((i == 0 || m->p[i - 1] == '\n') && !memcmp(m->p + i, line, (size_t)n))
			return true;
	return false;
}

static void test_learned_documents(void **state)
{
	(void)state;
	make_tree("/tmp/ssg-fpl-XXXXXX");
	put("content/a.md", "alpha");
	put("content/b.md", "beta");
	put("content/logo.svg", "<svg/>");
	settle();
	struct buf m0 = BUF_INIT, m1 = BUF_INIT;
	run(&m0, false, NULL); /* every file read by the walk */

	/* the documents as the build read them: the same manifest */
	struct fingerprint_learned *l = fingerprint_learned_new();
	learn(l, "content/a.md");
	learn(l, "content/b.md");
	/* b.md changes after the build read it: the manifest keeps what was
	 * read (the walk did not read it again), and the stat cache its older
	 * stat, so the next run reads it */
	put("content/b.md", "BETA");
	assert_int_equal(run_learned(&m1, l), 3); /* a and b told, logo.svg read */
	assert_int_equal(m0.n, m1.n);
	assert_memory_equal(m0.p, m1.p, m0.n);
	fingerprint_learned_free(l);
	struct buf m2 = BUF_INIT;
	settle();
	assert_int_equal(run(&m2, true, NULL), 1); /* b.md, by its new stat */
	assert_false(m0.n == m2.n && !memcmp(m0.p, m2.p, m0.n));
	assert_true(has_line(&m2, "content/b.md", 'f'));

	/* a document the build did not read, and one it read that is gone:
	 * both unknown, so that no later manifest matches this one */
	put("content/c.md", "gamma");
	l = fingerprint_learned_new();
	learn(l, "content/a.md");
	learn(l, "content/b.md");
	put("content/gone.md", "soon gone");
	learn(l, "content/gone.md");
	char gone[128];
	snprintf(gone, sizeof gone, "%s/content/gone.md", dir);
	assert_int_equal(unlink(gone), 0);
	run_learned(&m1, l);
	assert_true(has_line(&m1, "content/c.md", '?'));
	assert_true(has_line(&m1, "content/gone.md", '?'));
	assert_true(has_line(&m1, "content/a.md", 'f'));
	assert_true(has_line(&m1, "content/logo.svg", 'f'));
	fingerprint_learned_free(l);
	buf_free(&m0);
	buf_free(&m1);
	buf_free(&m2);
	remove_tree();
}

/* Files in nested folders, and in more folders than the walk keeps open,
 * are stat'ed where they are: known by stat on the next run, and an edit
 * deep down is seen. */
static void test_nested_folders(void **state)
{
	(void)state;
	make_tree("/tmp/ssg-fpn-XXXXXX");
	char p[160];
	for (int i = 0; i < 300; i++) {
		snprintf(p, sizeof p, "%s/content/f%03d", dir, i);
		assert_int_equal(mkdir(p, 0755), 0);
		snprintf(p, sizeof p, "content/f%03d/doc.md", i);
		put(p, "text");
	}
	snprintf(p, sizeof p, "%s/content/f299/deep", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	put("content/f299/deep/last.md", "deep");
	settle();
	struct buf m1 = BUF_INIT, m2 = BUF_INIT;
	assert_int_equal(run(&m1, true, NULL), 301);
	assert_int_equal(run(&m2, true, NULL), 0); /* every one known by its stat */
	assert_int_equal(m1.n, m2.n);
	assert_memory_equal(m1.p, m2.p, m1.n);
	assert_false(has_line(&m2, "content/f299/doc.md", '!'));
	assert_true(has_line(&m2, "content/f299/deep/last.md", 'f'));
	put("content/f299/deep/last.md", "DEEP");
	assert_int_equal(run(&m2, true, NULL), 1);
	assert_false(m1.n == m2.n && !memcmp(m1.p, m2.p, m1.n));
	buf_free(&m1);
	buf_free(&m2);
	remove_tree();
}

/* One run, as run() does: how many folders it listed (not taken from the
 * cache), and how many files it read in *reads. */
static size_t run_listed(struct buf *m, bool trust, size_t *reads)
{
	buf_reset(m);
	struct fingerprint_cache *c = fingerprint_cache_open(dir, trust);
	struct fingerprint_walk how = {.cache = c};
	fingerprint_tree_keep(m, dir, "content", 2, &how);
	size_t listed = fingerprint_cache_listed(c);
	*reads = fingerprint_cache_reads(c);
	fingerprint_cache_close(c);
	return listed;
}

static bool same_manifest(const struct buf *a, const struct buf *b)
{
	return a->n == b->n && !memcmp(a->p, b->p, a->n);
}

/* A folder whose stat is the one the last run listed it under, settled, is
 * not read again: its names come from the cache, and the manifest is the
 * same. Making or removing a file or a folder in it moves its mtime and
 * ctime: it is read again (until that change settled), and the manifest
 * has the change. Untrusted, every folder is read; a damaged listing is no
 * listing. */
static void test_folders_kept(void **state)
{
	(void)state;
	make_tree("/tmp/ssg-fpk-XXXXXX");
	char p[160];
	put("content/a.md", "a");
	snprintf(p, sizeof p, "%s/content/sub", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	put("content/sub/b.md", "b");
	settle();
	struct buf m1 = BUF_INIT, m2 = BUF_INIT;
	size_t reads;
	assert_int_equal(run_listed(&m1, true, &reads), 2); /* no cache yet */
	assert_int_equal(run_listed(&m2, true, &reads), 0);
	assert_int_equal(reads, 0);
	assert_true(same_manifest(&m1, &m2));

	/* a new file in sub: sub is read, content/ still taken as listed */
	put("content/sub/c.md", "c");
	assert_int_equal(run_listed(&m2, true, &reads), 1);
	assert_int_equal(reads, 1);
	assert_true(has_line(&m2, "content/sub/c.md", 'f'));
	/* changed within a second of that run: read again, until settled */
	assert_int_equal(run_listed(&m2, true, &reads), 1);
	settle();
	assert_int_equal(run_listed(&m2, true, &reads), 1);
	assert_int_equal(run_listed(&m1, true, &reads), 0);
	assert_true(same_manifest(&m1, &m2));
	assert_true(has_line(&m1, "content/sub/c.md", 'f'));

	/* a file removed, and a folder made: content/ is read, and the new
	 * folder with it */
	snprintf(p, sizeof p, "%s/content/a.md", dir);
	assert_int_equal(unlink(p), 0);
	snprintf(p, sizeof p, "%s/content/new", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	put("content/new/d.md", "d");
	assert_int_equal(run_listed(&m2, true, &reads), 2);
	assert_false(has_line(&m2, "content/a.md", 'f'));
	assert_true(has_line(&m2, "content/new/d.md", 'f'));
	settle();
	run_listed(&m2, true, &reads);
	assert_int_equal(run_listed(&m1, true, &reads), 0);
	assert_true(same_manifest(&m1, &m2));

	/* untrusted (--force): every folder read */
	assert_int_equal(run_listed(&m2, false, &reads), 3);
	assert_true(same_manifest(&m1, &m2));

	/* a listing cut short is not taken; the files before it still are */
	char cache[128];
	snprintf(cache, sizeof cache, "%s/.ssg-cache/files.bin", dir);
	struct stat st;
	assert_int_equal(stat(cache, &st), 0);
	assert_int_equal(truncate(cache, st.st_size - 3), 0);
	assert_int_equal(run_listed(&m2, true, &reads), 3);
	assert_int_equal(reads, 0);
	assert_true(same_manifest(&m1, &m2));
	buf_free(&m1);
	buf_free(&m2);
	remove_tree();
}

/* The list of content/ taken from the walk is source_discover's, file for
 * file and in its order; a symlink, or a file deeper than discover goes,
 * sends the build back to discover. */
static void same_as_discover(void)
{
	struct buf m = BUF_INIT;
	struct file_digests keep = {0};
	run(&m, true, &keep);
	struct source_list from = {0}, walked = {0};
	assert_true(source_list_from_digests(&keep, "content/", &from));
	char content[96];
	snprintf(content, sizeof content, "%s/content", dir);
	struct diags d = DIAGS_INIT;
	assert_int_equal(source_discover(content, &walked, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(from.n, walked.n);
	for (size_t i = 0; i < from.n; i++) {
		assert_string_equal(from.v[i].relpath, walked.v[i].relpath);
		assert_int_equal(from.v[i].is_doc, walked.v[i].is_doc);
	}
	source_list_free(&from);
	source_list_free(&walked);
	diags_free(&d);
	file_digests_free(&keep);
	buf_free(&m);
}

static bool listed_from_walk(void)
{
	struct buf m = BUF_INIT;
	struct file_digests keep = {0};
	run(&m, true, &keep);
	struct source_list l = {0};
	bool ok = source_list_from_digests(&keep, "content/", &l);
	source_list_free(&l);
	file_digests_free(&keep);
	buf_free(&m);
	return ok;
}

static void test_listing_from_walk(void **state)
{
	(void)state;
	make_tree("/tmp/ssg-fpl-XXXXXX");
	char p[256];
	snprintf(p, sizeof p, "%s/content/a", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/content/.git", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	put("content/a.md", "x");
	put("content/a/b.md", "x"); /* "a/b.md" sorts after "a.md", walked before */
	put("content/a-z.rst", "x");
	put("content/.hidden.md", "x");
	put("content/.git/HEAD", "x");
	put("content/notes.txt", "x");
	put("content/plot.png", "x");
	same_as_discover();
	/* a symlink: discover looks where it leads */
	snprintf(p, sizeof p, "%s/content/link.md", dir);
	assert_int_equal(symlink("a.md", p), 0);
	assert_false(listed_from_walk());
	assert_int_equal(unlink(p), 0);
	assert_true(listed_from_walk());
	/* deeper than discover goes: 32 folders down is as far, and a folder
	 * deeper, even an empty one, is one it skips (and says so) */
	int n = snprintf(p, sizeof p, "%s/content", dir);
	for (int i = 0; i < 32; i++) {
		n += snprintf(p + n, sizeof p - (size_t)n, "/d");
		assert_int_equal(mkdir(p, 0755), 0);
	}
	snprintf(p + n, sizeof p - (size_t)n, "/deep.md");
	int fd = open(p, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	same_as_discover();
	snprintf(p + n, sizeof p - (size_t)n, "/d");
	assert_int_equal(mkdir(p, 0755), 0);
	assert_false(listed_from_walk());
	remove_tree();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_by_stat),
		cmocka_unit_test(test_closed_into_digests),
		cmocka_unit_test(test_known_when_moved),
		cmocka_unit_test(test_unchanged_cache_left_in_place),
		cmocka_unit_test(test_learned_documents),
		cmocka_unit_test(test_nested_folders),
		cmocka_unit_test(test_folders_kept),
		cmocka_unit_test(test_listing_from_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
