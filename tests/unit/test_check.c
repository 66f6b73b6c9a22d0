/* test_check: the lint rules of check.c on small sites written to a temporary
 * folder and loaded with site_load, the three output formats (escaping,
 * missing positions, path prefix), --strict, and the scaffolding of
 * scaffold.c (never overwriting). */
#include "testutil.h"
#include "check.h"
#include "local_key.h"
#include "output.h"
#include "path.h"
#include "scaffold.h"
#include "site.h"
#include "xalloc.h"

#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------------- */

static char *tmp_site(void)
{
	char *dir = xstrdup("/tmp/ssg-check-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return dir;
}


static void rm_site(char *dir)
{
	output_remove_tree(dir);
	rmdir(dir);
	free(dir);
}

static const char *one_topic = "title: t\n"
			       "topics:\n"
			       "  - id: all\n"
			       "    title: All\n"
			       "    match: { urls: [\"*\"] }\n";

/* Load dir as check does, run the rules, and return the findings printed as
 * text lines: check's own of `code` (NULL: all of check's); with cached
 * set, loading's too, and *cached the documents the cache gave. */
static char *findings_cached(const char *dir, const char *code, size_t *cached)
{
	struct site s;
	struct diags load = DIAGS_INIT, d = DIAGS_INIT;
	struct build_opts o = {.source = dir, .jobs = 1, .readonly = true};
	site_load(&s, &o, &load);
	check_site(&s, &d);
	if (cached)
		diags_take(&d, &load);
	diags_sort(&d);
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < d.n; i++)
		if (!code || (d.v[i].code && !strcmp(d.v[i].code, code)))
			check_format_diag(&d.v[i], CHECK_TEXT, NULL, &b);
	if (cached)
		*cached = s.cached_docs;
	model_free(&s);
	diags_free(&load);
	diags_free(&d);
	return buf_detach(&b);
}

static char *findings(const char *dir, const char *code)
{
	return findings_cached(dir, code, NULL);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* ---- rules -------------------------------------------------------------------- */

static void test_duplicate(void **state)
{
	(void)state;
	char *dir = tmp_site();
	test_put_file(dir, "site.yml", one_topic);
	test_put_file(dir, "content/a.md",
	    "# A\n\n"
	    "Prose about [x](https://x.org/) is not a listing.\n\n"
	    "- [X](https://x.org/) - first.\n"
	    "- [P](https://x.org/p) ([pdf](http://x.org/p)) - one entry.\n"
	    "- [S](https://x.org/#s) - another section.\n"
	    "- [X again](http://www.x.org) - second.\n"
	    "- [X third](https://x.org) - third.\n");
	char *f = findings(dir, "duplicate-resource");
	assert_string_equal(f, "content/a.md:8:3: warning: https://x.org is listed twice in this "
			       "document (first at line 5) [duplicate-resource]\n"
			       "content/a.md:9:3: warning: https://x.org is listed twice in this "
			       "document (first at line 5) [duplicate-resource]\n");
	free(f);
	rm_site(dir);
}

static void test_variant_majority_and_tie(void **state)
{
	(void)state;
	char *dir = tmp_site();
	test_put_file(dir, "site.yml", one_topic);
	/* majority: b and c write it one way, a another */
	test_put_file(dir, "content/a.md", "# A\n\n- [R](http://www.r.org/tool/) - r.\n");
	test_put_file(dir, "content/b.md", "# B\n\n- [R](https://r.org/tool) - r.\n");
	test_put_file(dir, "content/c.md", "# C\n\n- [R](https://r.org/tool) - r.\n");
	/* tie: the canonical spelling wins, though written second */
	test_put_file(dir, "content/d.md", "# D\n\n- [Q](https://q.org/x/) - q.\n");
	test_put_file(dir, "content/e.md", "# E\n\n- [Q](https://q.org/x) - q.\n");
	/* a fragment is not a variant */
	test_put_file(dir, "content/f.md", "# F\n\n- [Z](https://z.org/p#a) - z.\n");
	test_put_file(dir, "content/g.md", "# G\n\n- [Z](https://z.org/p) - z.\n");
	char *f = findings(dir, "url-variant");
	assert_string_equal(f, "content/a.md:3:3: warning: http://www.r.org/tool/ is a variant of "
			       "the resource https://r.org/tool, written https://r.org/tool in "
			       "content/b.md:3: write it the same way [url-variant]\n"
			       "content/d.md:3:3: warning: https://q.org/x/ is a variant of the "
			       "resource https://q.org/x, written https://q.org/x in content/e.md:3: "
			       "write it the same way [url-variant]\n");
	free(f);
	rm_site(dir);
}

static void test_variant_moved(void **state)
{
	(void)state;
	char *dir = tmp_site();
	char *yml = xasprintf("%saliases:\n  https://old.org/t: https://new.org/t\n", one_topic);
	test_put_file(dir, "site.yml", yml);
	free(yml);
	test_put_file(dir, "content/a.md", "# A\n\n- [T](https://old.org/t) - t.\n");
	test_put_file(dir, "content/b.md", "# B\n\n- [T](https://new.org/t) - t.\n");
	test_put_file(dir, "content/c.md", "# C\n\n- [T](https://new.org/t) - t.\n");
	char *f = findings(dir, "url-variant");
	assert_non_null(strstr(f, "content/a.md:3:3: warning: https://old.org/t is an old address "
				  "of the resource https://new.org/t, written https://new.org/t in "
				  "content/b.md:3"));
	assert_int_equal(count_lines(f), 1);
	free(f);
	rm_site(dir);
}

static void test_unsorted_once(void **state)
{
	(void)state;
	char *dir = tmp_site();
	test_put_file(dir, "site.yml", "topics:\n  - id: p\n    title: P\n    match: { hosts: [p.org] }\n");
	test_put_file(dir, "content/a.md", "# A\n\n- [P](https://p.org/) - sorted.\n\n- [U](https://u.org/) - u.\n");
	test_put_file(dir, "content/b.md", "# B\n\n- [U](https://u.org/) - again.\n");
	char *f = findings(dir, "unsorted");
	assert_string_equal(f, "content/a.md:5:3: warning: https://u.org matches no topic of "
			       "site.yml and falls into Unsorted: add a match rule or an override "
			       "[unsorted]\n");
	free(f);
	rm_site(dir);
}

static void test_titles_and_images(void **state)
{
	(void)state;
	char *dir = tmp_site();
	test_put_file(dir, "site.yml", "topics:\n  - id: all\n    title: \"\"\n    match: { urls: [\"*\"] }\n");
	test_put_file(dir, "content/notitle.md", "Text only, [](https://e.org/) and ![i](img/a.png).\n");
	test_put_file(dir, "content/sub/b.md", "# B\n\n##\n\n![ok](../img/ok.png) ![up](../../x.png)\n");
	test_put_file(dir, "content/img/ok.png", "png");
	char *f = findings(dir, NULL);
	assert_string_equal(
		f, "content/notitle.md:1:1: warning: document has no title (no 'title:' in front "
		   "matter and no heading): shown as \"notitle\" [empty-title]\n"
		   "content/notitle.md:1:12: warning: link to https://e.org/ has no text "
		   "[empty-title]\n"
		   "content/notitle.md:1:35: warning: image of a file that does not exist: "
		   "img/a.png [missing-file]\n"
		   "content/sub/b.md:3: warning: empty heading [empty-title]\n"
		   "content/sub/b.md:5:22: warning: image of a file that does not exist: "
		   "../../x.png [missing-file]\n"
		   "site.yml:2:5: warning: topic 'all' has an empty title [empty-title]\n");
	free(f);
	rm_site(dir);
}

static void test_config_error_site(void **state)
{
	(void)state;
	char *dir = tmp_site();
	test_put_file(dir, "site.yml", "title: [\n");
	test_put_file(dir, "content/a.md", "# A\n\n- [X](https://x.org/) - x.\n");
	char *f = findings(dir, NULL); /* a half-loaded site: no crash, nothing to add */
	assert_string_equal(f, "");
	free(f);
	rm_site(dir);
}

/* ---- formats -------------------------------------------------------------------- */

static struct diag mk(const char *path, int line, int col, enum severity sev, const char *code,
		      const char *msg)
{
	return (struct diag){(char *)path, line, col, sev, (char *)code, (char *)msg};
}

static char *fmt(struct diag g, enum check_format f, const char *prefix)
{
	struct buf b = BUF_INIT;
	check_format_diag(&g, f, prefix, &b);
	return buf_detach(&b);
}

static void test_format_text(void **state)
{
	(void)state;
	struct {
		struct diag g;
		const char *prefix, *want;
	} cases[] = {
		{mk("content/a.md", 3, 7, SEV_WARNING, "x", "m"), NULL,
		 "content/a.md:3:7: warning: m [x]\n"},
		{mk("content/a.md", 3, 0, SEV_ERROR, NULL, "m"), ".", "content/a.md:3: error: m\n"},
		{mk("site.yml", 0, 0, SEV_NOTE, "", "m"), "site/", "site/site.yml: note: m\n"},
		{mk("site.yml", 1, 2, SEV_ERROR, NULL, "m"), "a/b", "a/b/site.yml:1:2: error: m\n"},
		{mk("a/b/content", 0, 0, SEV_ERROR, NULL, "m"), "a/b", "a/b/content: error: m\n"},
		{mk("/abs/x", 0, 0, SEV_ERROR, NULL, "m"), "a", "/abs/x: error: m\n"},
		{mk("", 0, 0, SEV_ERROR, NULL, "m"), "a", "ssg: error: m\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *s = fmt(cases[i].g, CHECK_TEXT, cases[i].prefix);
		assert_string_equal(s, cases[i].want);
		free(s);
	}
}

static void test_format_github(void **state)
{
	(void)state;
	char *s = fmt(mk("content/a,b:c.md", 4, 2, SEV_WARNING, "url-variant",
			 "100% sure: a, b\nnext"),
		      CHECK_GITHUB, NULL);
	assert_string_equal(s, "::warning file=content/a%2Cb%3Ac.md,line=4,col=2,title=ssg "
			       "(url-variant)::100%25 sure: a, b%0Anext\n");
	free(s);
	s = fmt(mk("site.yml", 0, 0, SEV_ERROR, NULL, "bad"), CHECK_GITHUB, "portal");
	assert_string_equal(s, "::error file=portal/site.yml,title=ssg::bad\n");
	free(s);
	s = fmt(mk("a.md", 9, 0, SEV_NOTE, NULL, "n"), CHECK_GITHUB, NULL);
	assert_string_equal(s, "::notice file=a.md,line=9,title=ssg::n\n");
	free(s);
}

static void test_format_json(void **state)
{
	(void)state;
	char *s = fmt(mk("content/\"q\".md", 1, 2, SEV_ERROR, NULL, "tab\there \\ \"x\""),
		      CHECK_JSON, NULL);
	assert_string_equal(s, "{\"file\":\"content/\\\"q\\\".md\",\"line\":1,\"col\":2,"
			       "\"severity\":\"error\",\"code\":null,"
			       "\"message\":\"tab\\there \\\\ \\\"x\\\"\"}\n");
	free(s);
	s = fmt(mk("a.md", 0, 0, SEV_WARNING, "unsorted", "m"), CHECK_JSON, NULL);
	assert_string_equal(s, "{\"file\":\"a.md\",\"line\":0,\"col\":0,\"severity\":\"warning\","
			       "\"code\":\"unsorted\",\"message\":\"m\"}\n");
	free(s);
}

static void test_format_parse_strict_summary(void **state)
{
	(void)state;
	enum check_format f = CHECK_TEXT;
	assert_int_equal(check_format_parse("github", &f), 0);
	assert_int_equal(f, CHECK_GITHUB);
	assert_int_equal(check_format_parse("json", &f), 0);
	assert_int_equal(f, CHECK_JSON);
	assert_int_equal(check_format_parse("xml", &f), -1);
	assert_int_equal(f, CHECK_JSON);
	assert_int_equal(check_format_parse(NULL, &f), -1);

	struct diags d = DIAGS_INIT;
	diag_add(&d, SEV_WARNING, "a", 1, 1, "w");
	diag_add(&d, SEV_NOTE, "a", 1, 1, "n");
	diag_add(&d, SEV_ERROR, "a", 1, 1, "e");
	check_strict(&d);
	assert_int_equal(diags_count(&d, SEV_ERROR), 2);
	assert_int_equal(diags_count(&d, SEV_NOTE), 1);
	diags_free(&d);

	struct check_summary sum = {1, 1, 0, 2, 1, 0};
	struct buf b = BUF_INIT;
	check_format_summary(&sum, &b);
	assert_string_equal(buf_cstr(&b),
			    "checked 1 document, 1 resource, 0 topics: 0 errors, 1 warning, 2 notes\n");
	buf_free(&b);
}

/* A site a build has left is checked from its document cache, with the same
 * findings as parsed afresh (entries and images are what extract kept of the
 * trees), and check writes nothing: no cache where there was none, the
 * build's left byte for byte. */
static void test_from_the_cache(void **state)
{
	(void)state;
	char *dir = tmp_site();
	test_put_file(dir, "site.yml", one_topic);
	test_put_file(dir, "content/a.md",
	    "# A\n\n"
	    "Prose about [x](https://x.org/) is not a listing.\n\n"
	    "- [X](https://x.org/) - first.\n"
	    "  - [Sub](https://s.org/) - nested.\n\n"
	    "  [X here too](https://x.org/) - the same entry, after its sublist.\n"
	    "- [P](https://x.org/p) ([pdf](http://x.org/p)) - one entry.\n"
	    "- [X again](http://www.x.org) - second.\n\n"
	    "| What | Where |\n|---|---|\n| s | [S](https://s.org) |\n\n"
	    "![here](b.md) ![gone](img/none.png) ![web](https://w.org/i.png)\n");
	test_put_file(dir, "content/b.md", "# B\n\n- [S](https://s.org/) - s.\n");
	size_t cached = 99;
	char *fresh = findings_cached(dir, NULL, &cached);
	assert_int_equal(cached, 0);
	assert_non_null(strstr(fresh, "content/a.md:10:3: warning: https://x.org is listed twice"));
	assert_non_null(strstr(fresh, "content/a.md:14:7: warning: https://s.org is listed twice"));
	assert_null(strstr(fresh, "content/a.md:8:")); /* its entry's, after a sublist */
	assert_non_null(strstr(fresh, "content/a.md:16:15: warning: image of a file that does not "
				      "exist: img/none.png [missing-file]"));
	assert_int_equal(count_lines(fresh), 6);
	char *cache_dir = path_join(dir, ".ssg-cache");
	struct stat st;
	assert_int_equal(stat(cache_dir, &st), -1); /* check wrote no cache */

	char *out = path_join(dir, "public");
	struct build_opts bo = {.source = dir, .output = out, .jobs = 1};
	struct diags bd = DIAGS_INIT;
	struct build_stats bs;
	assert_int_equal(site_build(&bo, &bd, &bs), 0);
	diags_free(&bd);
	char *bin = path_join(cache_dir, "documents.bin");
	size_t before_n = 0, after_n = 1;
	char *before = test_read_file(bin, &before_n);
	struct stat st_before, st_after;
	assert_int_equal(stat(bin, &st_before), 0);
	char *from_cache = findings_cached(dir, NULL, &cached);
	assert_int_equal(cached, 2);
	assert_string_equal(from_cache, fresh);
	char *after = test_read_file(bin, &after_n);
	assert_int_equal(stat(bin, &st_after), 0);
	assert_true(before_n == after_n && !memcmp(before, after, before_n));
	assert_true(st_before.st_mtim.tv_sec == st_after.st_mtim.tv_sec &&
		    st_before.st_mtim.tv_nsec == st_after.st_mtim.tv_nsec);
	/* an account without a key (none is made) has no cache to read */
	char *xdg = path_join(dir, "xdg");
	const char *was = getenv("XDG_CACHE_HOME");
	char *saved = was ? xstrdup(was) : NULL;
	setenv("XDG_CACHE_HOME", xdg, 1);
	assert_false(local_key_kept());
	char *keyless = findings_cached(dir, NULL, &cached);
	assert_int_equal(cached, 0);
	assert_string_equal(keyless, fresh);
	assert_int_equal(stat(xdg, &st), -1);
	if (saved)
		setenv("XDG_CACHE_HOME", saved, 1);
	else
		unsetenv("XDG_CACHE_HOME");
	free(saved);
	free(keyless);
	free(xdg);
	free(before);
	free(after);
	free(bin);
	free(from_cache);
	free(out);
	free(cache_dir);
	free(fresh);
	rm_site(dir);
}

/* ---- scaffolding ------------------------------------------------------------------ */

static void test_scaffold_site(void **state)
{
	(void)state;
	char *dir = tmp_site();
	char *site = path_join(dir, "new/portal");
	struct diags d = DIAGS_INIT;
	struct buf log = BUF_INIT;
	assert_int_equal(scaffold_site(site, &d, &log), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(count_lines(buf_cstr(&log)), 4);
	/* the new site loads without a single finding */
	struct site s;
	struct build_opts o = {.source = site, .jobs = 1, .readonly = true};
	assert_int_equal(site_load(&s, &o, &d), 0);
	check_site(&s, &d);
	if (d.n)
		diags_print(&d, stderr);
	assert_int_equal(d.n, 0);
	assert_true(s.ndocs == 1 && s.nres >= 3);
	model_free(&s);
	/* never overwrite: every file is reported, none changed */
	test_put_file(site, "README.md", "mine\n");
	buf_reset(&log);
	assert_int_equal(scaffold_site(site, &d, &log), -1);
	assert_int_equal(d.n, 4);
	assert_int_equal(log.n, 0);
	char *readme = path_join(site, "README.md");
	char *text = test_read_file(readme, NULL);
	assert_string_equal(text, "mine\n");
	free(text);
	free(readme);
	diags_free(&d);
	buf_free(&log);
	free(site);
	rm_site(dir);
}

static void test_scaffold_doc(void **state)
{
	(void)state;
	char *t = scaffold_title_from_path("content/gpu_memory-tips.md");
	assert_string_equal(t, "Gpu memory tips");
	free(t);
	t = scaffold_title_from_path("content/");
	assert_string_equal(t, "Untitled");
	free(t);

	char *md = scaffold_doc_text("Say \"hi\"", "2024-01-02", false);
	const char *head = "---\ntitle: \"Say \\\"hi\\\"\"\n";
	assert_true(!strncmp(md, head, strlen(head)));
	assert_non_null(strstr(md, "\ndate: 2024-01-02\n"));
	assert_non_null(strstr(md, "\n# Say \"hi\"\n"));
	free(md);
	char *rst = scaffold_doc_text("Abc", NULL, true);
	assert_null(strstr(rst, "date:"));
	assert_non_null(strstr(rst, "\nAbc\n===\n"));
	free(rst);

	char *dir = tmp_site();
	char *p = path_join(dir, "content/deep/notes");
	struct diags d = DIAGS_INIT;
	struct buf log = BUF_INIT;
	assert_int_equal(scaffold_doc(p, "2024-01-02", &d, &log), 0);
	char *file = xasprintf("%s.md", p);
	char *text = test_read_file(file, NULL);
	assert_non_null(text);
	assert_non_null(strstr(text, "title: \"Notes\"\n"));
	free(text);
	assert_int_equal(scaffold_doc(file, NULL, &d, &log), -1);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].msg, "exists already"));
	free(file);
	free(p);
	diags_free(&d);
	buf_free(&log);
	rm_site(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_variant_majority_and_tie),
		cmocka_unit_test(test_variant_moved),
		cmocka_unit_test(test_unsorted_once),
		cmocka_unit_test(test_titles_and_images),
		cmocka_unit_test(test_config_error_site),
		cmocka_unit_test(test_format_text),
		cmocka_unit_test(test_format_github),
		cmocka_unit_test(test_format_json),
		cmocka_unit_test(test_format_parse_strict_summary),
		cmocka_unit_test(test_from_the_cache),
		cmocka_unit_test(test_scaffold_site),
		cmocka_unit_test(test_scaffold_doc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
