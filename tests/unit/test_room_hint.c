/* test_room_hint: the hint beside the output (room_hint.h) made from a small
 * model and read back (rooms, pages, the hashes of a page's descriptions),
 * refused under another frame, changed in place (reading as none while it
 * changes), every cut and flipped byte read without going out of bounds;
 * and a page's notes changed in place in .ssg-items (page_items.h), never
 * through a symlink nor a file of two links. */
#include "testutil.h"

#include "cite_key.h"
#include "page_items.h"
#include "room_hint.h"

#include <sys/stat.h>
#include <unistd.h>

static const char FRAME[33] = "0123456789abcdef0123456789abcdef";
static const char OTHER[33] = "f123456789abcdef0123456789abcdef";

static char dir[64], out[96], hint[128];

static void make_dirs(void)
{
	strcpy(dir, "/tmp/ssg-roomhint-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof out, "%s/public", dir);
	snprintf(hint, sizeof hint, "%s/.public" ROOM_HINT_SUFFIX, dir);
	assert_int_equal(mkdir(out, 0755), 0);
}

static void remove_dirs(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Two documents citing three resources: r0 (a page; its description the
 * longest, given by x's second citation), r1 (no page), r2 (a page, its
 * description site.yml's: not any citation's string). */
struct small {
	struct site s;
	struct doc docs[2];
	struct citation cx[3], cy[2];
	struct resource res[3];
};

static void cite(struct citation *c, long resource, const char *desc)
{
	memset(c, 0, sizeof *c);
	c->resource = resource;
	c->desc = (char *)desc;
	c->desc_hash = cite_desc_hash(desc);
}

static void make_small(struct small *m)
{
	memset(m, 0, sizeof *m);
	static const char *longest = "the longest of them";
	cite(&m->cx[0], 0, "short");
	cite(&m->cx[1], 0, longest);
	cite(&m->cx[2], 2, "mine");
	cite(&m->cy[0], 0, "short");
	cite(&m->cy[1], 1, "alone");
	m->docs[0] = (struct doc){.relpath = "x.md", .cites = m->cx, .ncites = 3};
	m->docs[1] = (struct doc){.relpath = "y.md", .cites = m->cy, .ncites = 2};
	m->res[0] = (struct resource){.slug = "zero", .desc = longest, .has_page = true};
	m->res[1] = (struct resource){.slug = "one", .desc = "alone"};
	m->res[2] = (struct resource){.slug = "two", .desc = "from site.yml", .has_page = true};
	m->s.docs = m->docs;
	m->s.ndocs = 2;
	m->s.res = m->res;
	m->s.nres = 3;
}

static void test_round_trip(void **state)
{
	(void)state;
	make_dirs();
	struct small m;
	make_small(&m);
	room_hint_save(&m.s, out, FRAME);
	struct room_hint h;
	assert_int_equal(room_hint_open(&h, out, OTHER), -1);
	assert_int_equal(room_hint_open(&h, out, FRAME), 0);
	assert_int_equal(h.npages, 2);
	const char *names[3] = {"y.md", "nope.md", "x.md"};
	size_t at[3], count[3];
	room_hint_docs(&h, names, 3, at, count);
	assert_true(at[0] && at[2]);
	assert_int_equal(at[1], 0);
	assert_int_equal(count[0], 2);
	assert_int_equal(count[2], 3);
	size_t longest = strlen("the longest of them");
	/* x's first: before the source, one less; the source: -1; site.yml's: any */
	struct room_cite c = room_hint_cite(&h, at[2], 0);
	assert_int_equal(c.room, (int32_t)longest - 1);
	assert_int_equal(c.page, 0);
	assert_true(c.hash == cite_desc_hash("short"));
	assert_int_equal(room_hint_cite(&h, at[2], 1).room, -1);
	assert_int_equal(room_hint_cite(&h, at[2], 2).room, ROOM_HINT_ANY);
	assert_int_equal(room_hint_cite(&h, at[2], 2).page, 1);
	/* y's first: after the source, as long; its second: no page */
	assert_int_equal(room_hint_cite(&h, at[0], 0).room, (int32_t)longest);
	assert_int_equal(room_hint_cite(&h, at[0], 1).page, ROOM_HINT_NO_PAGE);
	const char *p;
	size_t len;
	assert_true(room_hint_page(&h, 0, &p, &len));
	assert_int_equal(len, strlen("r/zero/index.html"));
	assert_memory_equal(p, "r/zero/index.html", len);
	assert_false(room_hint_page(&h, 2, &p, &len));
	uint64_t *hashes;
	size_t n = room_hint_page_hashes(&h, 0, &hashes), shorts = 0;
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		shorts += hashes[i] == cite_desc_hash("short");
	assert_int_equal(shorts, 2);
	free(hashes);
	/* changed in place: none while it changes, the new hash after */
	assert_int_equal(room_hint_change_begin(&h, out), 0);
	struct room_hint during;
	assert_int_equal(room_hint_open(&during, out, FRAME), -1);
	assert_int_equal(room_hint_change_hash(&h, at[2], 0, cite_desc_hash("shorter")), 0);
	assert_int_equal(room_hint_change_end(&h), 0);
	size_t x_at = at[2];
	room_hint_close(&h);
	assert_int_equal(room_hint_open(&h, out, FRAME), 0);
	assert_true(room_hint_cite(&h, x_at, 0).hash == cite_desc_hash("shorter"));
	room_hint_close(&h);
	/* never through a symlink: not read, not changed */
	char victim[160];
	snprintf(victim, sizeof victim, "%s/victim", dir);
	assert_int_equal(rename(hint, victim), 0);
	assert_int_equal(symlink("victim", hint), 0);
	assert_int_equal(room_hint_open(&h, out, FRAME), -1);
	room_hint_forget(out);
	struct stat st;
	assert_int_equal(lstat(hint, &st), -1);
	assert_int_equal(stat(victim, &st), 0);
	remove_dirs();
}

/* Every cut of the file, and every byte flipped: opened or refused, and
 * what is read stays within the file (the sanitizers watch). */
static void test_damaged(void **state)
{
	(void)state;
	make_dirs();
	struct small m;
	make_small(&m);
	room_hint_save(&m.s, out, FRAME);
	size_t n = 0;
	char *whole = test_read_file(hint, &n);
	assert_non_null(whole);
	const char *names[2] = {"x.md", "y.md"};
	for (size_t cut = 0; cut <= 2 * n; cut++) {
		char *bytes = malloc(n + 1);
		memcpy(bytes, whole, n);
		size_t len = cut <= n ? cut : n;
		if (cut > n)
			bytes[cut - n - 1] ^= 0x5a;
		FILE *f = fopen(hint, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(bytes, 1, len, f), len);
		fclose(f);
		free(bytes);
		struct room_hint h;
		if (room_hint_open(&h, out, FRAME))
			continue;
		size_t at[2], count[2];
		room_hint_docs(&h, names, 2, at, count);
		for (size_t k = 0; k < 2; k++)
			for (size_t i = 0; at[k] && i < count[k]; i++)
				(void)room_hint_cite(&h, at[k], i);
		for (uint32_t pg = 0; pg < 3; pg++) {
			const char *p;
			size_t pl;
			uint64_t *hashes;
			(void)room_hint_page(&h, pg, &p, &pl);
			(void)room_hint_page_hashes(&h, pg, &hashes);
			free(hashes);
		}
		room_hint_close(&h);
	}
	free(whole);
	remove_dirs();
}

static const char ENV[33] = "fedcba9876543210fedcba9876543210";

static void test_items_in_place(void **state)
{
	(void)state;
	make_dirs();
	struct page_items p = {0};
	struct page_item a[2] = {{{1, 2}, 10, 5}, {{3, 4}, 40, 6}}, b[1] = {{{5, 6}, 7, 8}};
	struct output_file fa = {1, 2, 300}, fb = {1, 3, 400};
	page_items_add(&p, "r/a/index.html", &fa, a, 2);
	page_items_add(&p, "r/b/index.html", &fb, b, 1);
	page_items_save(&p, out, ENV);
	page_items_free(&p);
	struct page_items_file f;
	assert_int_equal(page_items_file_open(&f, out, "00000000000000000000000000000000"), -1);
	assert_int_equal(page_items_file_open(&f, out, ENV), 0);
	struct page_items_page g;
	struct page_item *v = NULL;
	assert_int_equal(page_items_file_find(&f, "r/c/index.html", &g, &v), -1);
	long head = page_items_file_find(&f, "r/a/index.html", &g, &v);
	assert_true(head > 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.file.ino, 2);
	assert_int_equal(v[1].at, 40);
	v[0].key[0] = 9;
	v[1].at = 44;
	g.file.ino = 7;
	assert_int_equal(page_items_file_put(&f, head, &g, v), 0);
	free(v);
	page_items_file_close(&f);
	page_items_load(&p, out, ENV);
	const struct page_items_page *ga = page_items_find(&p, "r/a/index.html");
	const struct page_items_page *gb = page_items_find(&p, "r/b/index.html");
	assert_non_null(ga);
	assert_non_null(gb);
	assert_int_equal(ga->file.ino, 7);
	assert_int_equal(p.v[ga->from].key[0], 9);
	assert_int_equal(p.v[ga->from + 1].at, 44);
	assert_int_equal(gb->file.ino, 3);
	assert_int_equal(p.v[gb->from].len, 8);
	page_items_free(&p);
	/* a file of two links, or a symlink: not opened to be changed */
	char items[160], other[160];
	snprintf(items, sizeof items, "%s/.ssg-items", out);
	snprintf(other, sizeof other, "%s/other", dir);
	assert_int_equal(link(items, other), 0);
	assert_int_equal(page_items_file_open(&f, out, ENV), -1);
	assert_int_equal(unlink(items), 0);
	assert_int_equal(symlink("../other", items), 0);
	assert_int_equal(page_items_file_open(&f, out, ENV), -1);
	remove_dirs();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_items_in_place),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
