/* test_tree_list: a folder tree listed on a thread of its own. Every file,
 * folder and symlink is listed once with its type and inode, each under the
 * folder that holds it, which comes first; a symlink to a folder is listed
 * but never entered; a tree of thousands of entries comes out whole; its
 * regular files, and only they, are found by path. A listing kept as a hint
 * gives the next listing of the same tree the entries of every folder whose
 * inode and ctime are unchanged, and of no other: not of a folder that
 * changed, nor of one changed too close to the listing; a hint damaged
 * anywhere is not used. The listing is the same with a hint or without. A
 * listing started after a latch lists nothing before the latch opens, and
 * waiting for it opens the latch. */
#include "testutil.h"

#include "buf.h"
#include "output.h"
#include "path.h"
#include "tree_list.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>


static const struct tree_entry *find(const struct tree_list *l, const char *rel)
{
	const struct tree_entry *found = NULL;
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].rel, rel)) {
			assert_null(found); /* listed once */
			found = &l->v[i];
		}
	return found;
}

static int open_dir(const char *dir)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

static void test_types_parents_and_links(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-tree-list-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char outside[] = "/tmp/ssg-tree-outside-XXXXXX";
	assert_non_null(mkdtemp(outside));
	test_put_file(tmpl, "index.html", "home");
	test_put_file(tmpl, "r/a/index.html", "a");
	test_put_file(tmpl, "r/b/index.html", "b");
	test_put_file(outside, "secret/index.html", "not to be listed");
	char *link = path_join(tmpl, "r/elsewhere");
	assert_int_equal(symlink(outside, link), 0);
	free(link);
	char *empty = path_join(tmpl, "empty");
	assert_int_equal(mkdir(empty, 0755), 0);
	free(empty);

	int fd = open_dir(tmpl);
	struct tree_list l;
	assert_true(tree_list_start(&l, fd, NULL, 0));
	close(fd); /* the listing has its own descriptor */
	tree_list_wait(&l);
	assert_true(l.complete);
	assert_int_equal(l.n, 8); /* index.html r r/a r/b r/a/.. r/b/.. r/elsewhere empty */

	const struct tree_entry *r = find(&l, "r"), *a = find(&l, "r/a"),
				*page = find(&l, "r/a/index.html"), *sl = find(&l, "r/elsewhere");
	assert_non_null(r);
	assert_non_null(a);
	assert_non_null(page);
	assert_non_null(sl);
	assert_int_equal(r->type, DT_DIR);
	assert_int_equal(r->parent, TREE_LIST_TOP);
	assert_int_equal(page->type, DT_REG);
	assert_int_equal(sl->type, DT_LNK);
	assert_non_null(find(&l, "empty"));
	assert_null(find(&l, "r/elsewhere/secret")); /* never entered */
	/* each entry under its folder, listed before it */
	assert_string_equal(l.v[page->parent].rel, "r/a");
	assert_true(page->parent < (size_t)(page - l.v));
	assert_string_equal(l.v[a->parent].rel, "r");
	struct stat st;
	char *p = path_join(tmpl, "r/a/index.html");
	assert_int_equal(lstat(p, &st), 0);
	assert_int_equal(page->ino, (unsigned long long)st.st_ino);
	free(p);
	/* found by path: files only, the very entry */
	assert_ptr_equal(tree_list_find(&l, "r/a/index.html"), page);
	assert_ptr_equal(tree_list_find(&l, "index.html"), find(&l, "index.html"));
	assert_null(tree_list_find(&l, "r"));           /* a folder */
	assert_null(tree_list_find(&l, "r/elsewhere")); /* a symlink */
	assert_null(tree_list_find(&l, "r/elsewhere/secret/index.html"));
	assert_null(tree_list_find(&l, "r/c/index.html"));
	tree_list_free(&l);
	assert_int_equal(output_remove_tree(tmpl), 0);
	assert_int_equal(output_remove_tree(outside), 0);
}

static void test_many_entries(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-tree-many-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char rel[64];
	for (int i = 0; i < 3000; i++) { /* more than one getdents64 buffer per folder */
		snprintf(rel, sizeof rel, "r/page-with-a-long-name-%04d/index.html", i);
		test_put_file(tmpl, rel, "x");
	}
	int fd = open_dir(tmpl);
	struct tree_list l;
	assert_true(tree_list_start(&l, fd, NULL, 0));
	close(fd);
	tree_list_free(&l); /* waits first */
	assert_int_equal(l.n, 0);
	fd = open_dir(tmpl);
	assert_true(tree_list_start(&l, fd, NULL, 0));
	close(fd);
	tree_list_wait(&l);
	assert_int_equal(l.n, 1 + 3000 * 2);
	size_t files = 0;
	for (size_t i = 0; i < l.n; i++)
		files += l.v[i].type == DT_REG;
	assert_int_equal(files, 3000);
	assert_non_null(find(&l, "r/page-with-a-long-name-2999/index.html"));
	for (int i = 0; i < 3000; i++) {
		snprintf(rel, sizeof rel, "r/page-with-a-long-name-%04d/index.html", i);
		const struct tree_entry *e = tree_list_find(&l, rel);
		assert_non_null(e);
		assert_string_equal(e->rel, rel);
	}
	tree_list_free(&l);
	assert_int_equal(output_remove_tree(tmpl), 0);
}

static void test_after_latch(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-tree-after-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	test_put_file(tmpl, "a/index.html", "a");
	int fd = open_dir(tmpl);
	struct latch read;
	latch_init(&read);
	struct tree_list l;
	assert_true(tree_list_start_after(&l, fd, NULL, 0, &read));
	close(fd);
	/* long enough for a listing of two entries to be done, were it begun */
	usleep(50 * 1000);
	test_put_file(tmpl, "b/index.html", "made after the start");
	tree_list_wait(&l); /* opens the latch: no one else will */
	assert_non_null(tree_list_find(&l, "a/index.html"));
	assert_non_null(tree_list_find(&l, "b/index.html"));
	assert_int_equal(l.n, 4);
	tree_list_free(&l);
	latch_wait(&read); /* left open */
	latch_destroy(&read);
	assert_int_equal(output_remove_tree(tmpl), 0);
}

/* List dir, with a copy of hint (NULL: none). */
static void list(struct tree_list *l, const char *dir, const struct buf *hint)
{
	int fd = open_dir(dir);
	char *h = NULL;
	if (hint) {
		h = malloc(hint->n + 1);
		memcpy(h, hint->p, hint->n);
	}
	assert_true(tree_list_start(l, fd, h, hint ? hint->n : 0));
	close(fd);
	tree_list_wait(l);
	assert_true(l->complete);
}

/* b lists what a lists: the same paths, types and inodes, each once. */
static void same_listing(const struct tree_list *a, const struct tree_list *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct tree_entry *e = find(b, a->v[i].rel);
		assert_non_null(e);
		assert_int_equal(e->type, a->v[i].type);
		assert_int_equal(e->ino, a->v[i].ino);
		if (e->parent == TREE_LIST_TOP)
			assert_int_equal(a->v[i].parent, TREE_LIST_TOP);
		else
			assert_string_equal(b->v[e->parent].rel, a->v[a->v[i].parent].rel);
	}
}

static size_t folders_of(const struct tree_list *l)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += l->v[i].type == DT_DIR;
	return n;
}

static void test_hint(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ssg-tree-hint-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	test_put_file(tmpl, "index.html", "home");
	char rel[64];
	for (int i = 0; i < 40; i++) {
		snprintf(rel, sizeof rel, "r/p%02d/index.html", i);
		test_put_file(tmpl, rel, "x");
	}
	test_put_file(tmpl, "d/a/index.html", "a");
	test_put_file(tmpl, "d/b/index.html", "b");

	/* kept right away: every folder changed too close to the listing */
	struct tree_list l, m;
	struct buf hint = BUF_INIT;
	list(&l, tmpl, NULL);
	assert_int_equal(l.from_hint, 0);
	tree_list_save(&l, &hint);
	list(&m, tmpl, &hint);
	assert_int_equal(m.from_hint, 0);
	same_listing(&l, &m);
	tree_list_free(&m);
	tree_list_free(&l);
	buf_free(&hint);

	/* kept once the folders are older than the clock's doubt */
	sleep(3);
	list(&l, tmpl, NULL);
	size_t folders = folders_of(&l);
	assert_int_equal(folders, 40 + 4); /* r, r/p00.., d, d/a, d/b */
	tree_list_save(&l, &hint);
	list(&m, tmpl, &hint);
	assert_int_equal(m.from_hint, folders);
	same_listing(&l, &m);
	tree_list_free(&m);
	/* a hint lent, not given: the same listing, and the hint is the
	 * caller's still, as it was (ASan: not freed by the listing) */
	char *copy = malloc(hint.n);
	memcpy(copy, hint.p, hint.n);
	int dfd = open_dir(tmpl);
	assert_true(tree_list_start_borrowed(&m, dfd, hint.p, hint.n));
	close(dfd);
	tree_list_wait(&m);
	assert_int_equal(m.from_hint, folders);
	same_listing(&l, &m);
	tree_list_free(&m);
	assert_memory_equal(copy, hint.p, hint.n);
	free(copy);

	/* a file written over in place changes no folder; a new file, a
	 * symlink and a removed folder change theirs, which are read */
	test_put_file(tmpl, "r/p01/index.html", "rewritten");
	test_put_file(tmpl, "r/p02/extra.html", "new");
	char *link = path_join(tmpl, "d/a/elsewhere");
	assert_int_equal(symlink("/etc", link), 0);
	free(link);
	char *gone = path_join(tmpl, "d/b");
	assert_int_equal(output_remove_tree(gone), 0);
	free(gone);
	struct tree_list fresh;
	list(&fresh, tmpl, NULL);
	list(&m, tmpl, &hint);
	/* read: r/p02, d/a, d (d/b gone); the top is never from the hint */
	assert_int_equal(m.from_hint, folders - 4);
	same_listing(&fresh, &m);
	const struct tree_entry *sl = find(&m, "d/a/elsewhere");
	assert_non_null(sl);
	assert_int_equal(sl->type, DT_LNK);
	assert_non_null(find(&m, "r/p02/extra.html"));
	assert_null(find(&m, "d/b"));
	assert_null(find(&m, "d/b/index.html"));
	tree_list_free(&m);

	/* a folder made anew under the same name is another inode: read */
	char *again = path_join(tmpl, "r/p03");
	assert_int_equal(output_remove_tree(again), 0);
	free(again);
	test_put_file(tmpl, "r/p03/index.html", "again");
	tree_list_free(&fresh);
	list(&fresh, tmpl, NULL);
	list(&m, tmpl, &hint);
	assert_true(m.from_hint <= folders - 6); /* r and r/p03 too */
	same_listing(&fresh, &m);
	tree_list_free(&m);

	/* a damaged hint (cut short, or a byte changed anywhere) is not used */
	struct buf cut = BUF_INIT;
	buf_put(&cut, hint.p, hint.n - 1);
	list(&m, tmpl, &cut);
	assert_int_equal(m.from_hint, 0);
	same_listing(&fresh, &m);
	tree_list_free(&m);
	for (size_t at = 0; at < hint.n; at += 7) {
		struct buf bad = BUF_INIT;
		buf_put(&bad, hint.p, hint.n);
		bad.p[at] ^= 0x5a;
		list(&m, tmpl, &bad);
		assert_int_equal(m.from_hint, 0);
		same_listing(&fresh, &m);
		tree_list_free(&m);
		buf_free(&bad);
	}
	buf_free(&cut);
	buf_free(&hint);
	tree_list_free(&fresh);
	tree_list_free(&l);
	assert_int_equal(output_remove_tree(tmpl), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types_parents_and_links),
		cmocka_unit_test(test_many_entries),
		cmocka_unit_test(test_hint),
		cmocka_unit_test(test_after_latch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
