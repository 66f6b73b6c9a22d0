/* End to end: builds the real portal (content/ and site.yml of the repo) and
 * checks the output: every page exists, every link of the Markdown documents
 * is an <a href> on its page and in resources.json, the FlashAttention paper
 * lists each citing document, and builds are byte-identical across runs and
 * thread counts. */
#include "testutil.h"
#include "ast.h"
#include "buf.h"
#include "md.h"
#include "rst.h"
#include "output.h"
#include "site.h"
#include "url.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static char out1[64], out2[64];

static int build_into(const char *dir, int jobs)
{
	struct build_opts o = {.source = ".", .output = dir, .jobs = jobs};
	struct diags d = DIAGS_INIT;
	struct build_stats st;
	int rc = site_build(&o, &d, &st);
	if (rc)
		diags_print(&d, stderr);
	diags_free(&d);
	return rc;
}

static int setup(void **state)
{
	(void)state;
	strcpy(out1, "/tmp/ssg-e2e-XXXXXX");
	strcpy(out2, "/tmp/ssg-e2e-XXXXXX");
	if (!mkdtemp(out1) || !mkdtemp(out2))
		return -1;
	strcat(out1, "/a");
	strcat(out2, "/b");
	if (build_into(out1, 1) || build_into(out2, 4))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	output_remove_tree(out1);
	output_remove_tree(out2);
	*strrchr(out1, '/') = '\0';
	*strrchr(out2, '/') = '\0';
	rmdir(out1);
	rmdir(out2);
	return 0;
}

static char *read_out(const char *dir, const char *rel)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	return test_read_file(path, NULL);
}

static void test_pages_exist(void **state)
{
	(void)state;
	static const char *pages[] = {
		"index.html", "404.html", "resources/index.html", "quick-reference/index.html",
		"external-references/index.html", "triton-gpu-references/index.html",
		"cuda-mode-resource-stream/index.html", "cuda-pytorch-index/index.html",
		"cuda-basics/index.html", "topic/attention/index.html", "topic/cuda/index.html",
		"r/arxiv-org-abs-2205-14135/index.html", "resources.json", "sitemap.xml",
		"robots.txt", "feed.xml", "search-index.json", "assets/style.css", "assets/site.js",
	};
	for (size_t i = 0; i < sizeof pages / sizeof *pages; i++) {
		char *t = read_out(out1, pages[i]);
		if (!t)
			fail_msg("missing page %s", pages[i]);
		assert_true(strlen(t) > 0);
		free(t);
	}
}

/* Every link of a document appears as an <a href> on its page (parsed here
 * afresh, by the reader of its format) and in resources.json. */
static void check_links(const char *src, const char *page, int at_least)
{
	size_t n = 0;
	char *text = test_read_file(src, &n);
	assert_non_null(text);
	struct diags d = DIAGS_INIT;
	struct rst_options ro = {0};
	bool rst = strstr(src, ".rst") != NULL;
	cmark_node *doc = rst ? rst_parse(text, n, src, &ro, &d) : md_parse(text, n, src, false, &d);
	char *html = read_out(out1, page);
	char *json = read_out(out1, "resources.json");
	assert_non_null(html);
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	int checked = 0;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(node) != CMARK_NODE_LINK)
			continue;
		const char *url = cmark_node_get_url(node);
		if (!url_is_absolute_http(url))
			continue; /* relative links are resolved or reported; see xref */
		struct buf want = BUF_INIT;
		buf_puts(&want, "<a href=\"");
		buf_puts_html(&want, url);
		/* cmark escapes & in attributes as &amp; but leaves ' alone */
		char *p = want.p;
		for (char *q = strstr(p, "&#39;"); q; q = strstr(q, "&#39;")) {
			*q = '\'';
			memmove(q + 1, q + 5, strlen(q + 5) + 1);
		}
		if (!strstr(html, want.p))
			fail_msg("%s: link %s is not on %s", src, url, page);
		struct buf j = BUF_INIT;
		buf_putc(&j, '"');
		buf_put_json(&j, url, strlen(url));
		buf_putc(&j, '"');
		if (!strstr(json, j.p))
			fail_msg("%s: link %s is not in resources.json", src, url);
		buf_free(&j);
		buf_free(&want);
		checked++;
	}
	cmark_iter_free(it);
	assert_true(checked >= at_least);
	cmark_node_free(doc);
	free(html);
	free(json);
	free(text);
	diags_free(&d);
}

static void test_seed_links_in_output(void **state)
{
	(void)state;
	check_links("content/external-references.md", "external-references/index.html", 100);
	check_links("content/cuda-mode-resource-stream.md", "cuda-mode-resource-stream/index.html", 90);
	check_links("content/cuda-pytorch-index.md", "cuda-pytorch-index/index.html", 0);
	check_links("content/triton-gpu-references.rst", "triton-gpu-references/index.html", 45);
	check_links("content/cuda-basics.rst", "cuda-basics/index.html", 10);
}

static void test_flash_attention_cited_by_each(void **state)
{
	(void)state;
	char *page = read_out(out1, "r/arxiv-org-abs-2205-14135/index.html");
	assert_non_null(page);
	/* cited by the two reference lists, the CUDA MODE stream and the CUDA basics */
	static const char *docs[] = {"external-references/", "triton-gpu-references/",
				     "cuda-mode-resource-stream/", "cuda-basics/"};
	for (size_t i = 0; i < 4; i++) {
		char want[128];
		snprintf(want, sizeof want, "href=\"../../%s#", docs[i]);
		if (!strstr(page, want))
			fail_msg("the FlashAttention page does not cite %s", docs[i]);
	}
	assert_non_null(strstr(page, "https://arxiv.org/abs/2205.14135"));
	free(page);
}

static void test_resource_count(void **state)
{
	(void)state;
	char *json = read_out(out1, "resources.json");
	size_t n = 0;
	for (char *p = strstr(json, "\n   {"); p; p = strstr(p + 1, "\n   {"))
		n++;
	size_t spellings = 0;
	for (char *p = strstr(json, "\"slug\""); p; p = strstr(p + 1, "\"slug\""))
		spellings++;
	/* the five documents cite 266 distinct resources once spellings merge
	 * (e.g. github.com/openai/triton and its alias, www. and trailing-slash
	 * variants); a change here means canonicalisation changed */
	assert_int_equal(spellings, 266);
	(void)n;
	free(json);
}

/* Compare two trees file by file. */
static void compare_dirs(const char *a, const char *b, const char *rel)
{
	char pa[1024], pb[1024];
	snprintf(pa, sizeof pa, "%s/%s", a, rel);
	snprintf(pb, sizeof pb, "%s/%s", b, rel);
	DIR *da = opendir(pa);
	assert_non_null(da);
	struct dirent *e;
	int files = 0;
	while ((e = readdir(da))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char crel[1024];
		snprintf(crel, sizeof crel, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		char fa[2048], fb[2048];
		snprintf(fa, sizeof fa, "%s/%s", a, crel);
		snprintf(fb, sizeof fb, "%s/%s", b, crel);
		struct stat st;
		assert_int_equal(stat(fa, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			compare_dirs(a, b, crel);
			continue;
		}
		size_t na = 0, nb = 0;
		char *ca = test_read_file(fa, &na), *cb = test_read_file(fb, &nb);
		if (!cb || na != nb || memcmp(ca, cb, na))
			fail_msg("%s differs between builds", crel);
		free(ca);
		free(cb);
		files++;
	}
	closedir(da);
	(void)files;
}

static void test_deterministic_and_parallel_equal(void **state)
{
	(void)state;
	compare_dirs(out1, out2, "");
	compare_dirs(out2, out1, "");
}

static void test_failed_build_keeps_previous(void **state)
{
	(void)state;
	/* a broken site.yml: the build fails and the old output stays whole */
	char dir[] = "/tmp/ssg-e2e-src-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char p[256];
	snprintf(p, sizeof p, "%s/site.yml", dir);
	FILE *f = fopen(p, "w");
	fputs("title: [broken\n", f);
	fclose(f);
	struct build_opts o = {.source = dir, .output = out1, .jobs = 1};
	struct diags d = DIAGS_INIT;
	struct build_stats st;
	assert_int_equal(site_build(&o, &d, &st), -1);
	assert_true(diags_count(&d, SEV_ERROR) >= 1);
	assert_string_equal(d.v[0].path, "site.yml");
	diags_free(&d);
	compare_dirs(out1, out2, "");
	unlink(p);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pages_exist),
		cmocka_unit_test(test_seed_links_in_output),
		cmocka_unit_test(test_flash_attention_cited_by_each),
		cmocka_unit_test(test_resource_count),
		cmocka_unit_test(test_deterministic_and_parallel_equal),
		cmocka_unit_test(test_failed_build_keeps_previous),
	};
	return cmocka_run_group_tests_name("e2e", tests, setup, teardown);
}
