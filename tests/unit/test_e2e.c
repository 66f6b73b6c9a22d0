/* End to end: builds the real portal (content/ and site.yml of the repo) and
 * checks the output: every page exists, every link of the Markdown documents
 * is an <a href> on its page and in resources.json, the FlashAttention paper
 * lists each citing document, and builds are byte-identical across runs and
 * thread counts, and with the model freed on a thread of its own (serve). */
#include "testutil.h"
#include "ast.h"
#include "room_hint.h"
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
	/* the folders made for them: the outputs and what a build leaves
	 * beside them (.a.ssg-room) */
	*strrchr(out1, '/') = '\0';
	*strrchr(out2, '/') = '\0';
	output_remove_tree(out1);
	output_remove_tree(out2);
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
		"index.html", "404.html", "resources/index.html", "quick-reference/index.html", "topics/index.html",
		"external-references/index.html", "triton-gpu-references/index.html",
		"cuda-mode-resource-stream/index.html", "cuda-pytorch-index/index.html",
		"cuda-basics/index.html", "topic/attention/index.html", "topic/cuda/index.html",
		"r/arxiv-org-abs-2205-14135/index.html", "resources.json", "sitemap.xml",
		"robots.txt", "feed.xml", "search-index.json", "search/index.js", "search/w0.js",
		"search/r0.js", "assets/style.css", "assets/site.js",
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

/* Whether a state file names the files it was written with (their inodes:
 * page_items.h's notes, which a first build makes for resource pages),
 * which no two builds share. */
static bool names_files(const char *name)
{
	return !strcmp(name, ".ssg-items");
}

/* Compare two trees file by file. */
/* Every file under a is in b with the same bytes; with skip_state, but for
 * the state files (.ssg-*), which say how the build went: an incremental
 * build's differ from a clean one's; without it, but for those that name
 * the files. */
static void compare_tree(const char *a, const char *b, const char *rel, bool skip_state)
{
	char pa[1024], pb[1024];
	snprintf(pa, sizeof pa, "%s/%s", a, rel);
	snprintf(pb, sizeof pb, "%s/%s", b, rel);
	DIR *da = opendir(pa);
	assert_non_null(da);
	struct dirent *e;
	int files = 0;
	while ((e = readdir(da))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (skip_state && !strncmp(e->d_name, ".ssg-", 5)) || names_files(e->d_name))
			continue;
		char crel[1024];
		snprintf(crel, sizeof crel, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		char fa[2048], fb[2048];
		snprintf(fa, sizeof fa, "%s/%s", a, crel);
		snprintf(fb, sizeof fb, "%s/%s", b, crel);
		struct stat st;
		assert_int_equal(stat(fa, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			compare_tree(a, b, crel, skip_state);
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

static void compare_dirs(const char *a, const char *b, const char *rel)
{
	compare_tree(a, b, rel, false);
}

static void compare_sites(const char *a, const char *b, const char *rel)
{
	compare_tree(a, b, rel, true);
}

static void test_deterministic_and_parallel_equal(void **state)
{
	(void)state;
	compare_dirs(out1, out2, "");
	compare_dirs(out2, out1, "");
}

static void put_file(const char *dir, const char *rel, const char *text)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int build_site(const char *src, const char *out, int jobs, bool drafts)
{
	struct build_opts o = {.source = src, .output = out, .jobs = jobs, .drafts = drafts};
	struct diags d = DIAGS_INIT;
	struct build_stats st;
	int rc = site_build(&o, &d, &st);
	diags_free(&d);
	return rc;
}

/* A site in a new folder made from tmpl (its XXXXXX replaced): an empty
 * content/ and a site.yml with this title. */
static void new_site(char *tmpl, const char *title)
{
	assert_non_null(mkdtemp(tmpl));
	char p[256];
	snprintf(p, sizeof p, "%s/content", tmpl);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "title: %s\nbase_url: https://example.org/\n", title);
	put_file(tmpl, "site.yml", p);
}

/* Drafts are read, then left out: the documents kept take the places the
 * drafts leave, no resource keeps a draft's citation, and every thread
 * count gives the one-thread site. With --drafts they are in. */
static void test_drafts_left_out_in_parallel(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-e2e-drafts-XXXXXX";
	new_site(dir, "Drafts");
	static const char *docs[][2] = {
		{"a.md", "# A\n\n- [Shared](https://example.com/shared) first\n"
			 "- [Only A](https://example.com/a) mine\n"},
		{"b.md", "---\ndraft: true\n---\n# B\n\n- [Shared](https://example.com/shared) again\n"
			 "- [Draft only](https://example.com/draft-only) hidden\n"},
		{"c.md", "# C\n\n- [Shared](https://example.com/shared) third\n"},
		{"d.md", "---\ndraft: true\n---\n# D\n\n- [Also a draft](https://example.com/d) x\n"},
		{"e.md", "# E\n\n- [Only E](https://example.com/e) last\n"
			 "- [Shared](https://example.com/shared) fourth\n"},
	};
	for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
		char rel[64];
		snprintf(rel, sizeof rel, "content/%s", docs[i][0]);
		put_file(dir, rel, docs[i][1]);
	}
	char o1[300], o2[300], o3[300];
	snprintf(o1, sizeof o1, "%s/out1", dir);
	snprintf(o2, sizeof o2, "%s/out2", dir);
	snprintf(o3, sizeof o3, "%s/out3", dir);
	assert_int_equal(build_site(dir, o1, 1, false), 0);
	assert_int_equal(build_site(dir, o2, 2, false), 0);
	assert_int_equal(build_site(dir, o3, 4, false), 0);
	compare_dirs(o1, o2, "");
	compare_dirs(o1, o3, "");
	char *json = read_out(o2, "resources.json");
	assert_null(strstr(json, "draft-only"));
	assert_null(strstr(json, "https://example.com/d\""));
	/* the shared resource: cited by a, c and e, in that order */
	char *shared = strstr(json, "\"url\":\"https://example.com/shared\"");
	assert_non_null(shared);
	char *a = strstr(shared, "\"document\":\"a.md\"");
	char *c = strstr(shared, "\"document\":\"c.md\"");
	char *e = strstr(shared, "\"document\":\"e.md\"");
	assert_true(a && c && e && a < c && c < e);
	assert_null(strstr(shared, "\"document\":\"b.md\""));
	free(json);
	/* with drafts, they are in */
	output_remove_tree(o2);
	assert_int_equal(build_site(dir, o2, 2, true), 0);
	json = read_out(o2, "resources.json");
	assert_non_null(strstr(json, "draft-only"));
	free(json);
	output_remove_tree(o1);
	output_remove_tree(o2);
	output_remove_tree(o3);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A new site (new_site) whose site.yml has two topics, kernels and
 * serving, each matched by its word. */
static void two_topic_site(char *tmpl, const char *title)
{
	new_site(tmpl, title);
	char yml[300];
	snprintf(yml, sizeof yml,
		 "title: %s\nbase_url: https://example.org/\ntopics:\n"
		 "  - {id: kernels, title: Kernels, match: {words: [kernels]}}\n"
		 "  - {id: serving, title: Serving, match: {words: [serving]}}\n",
		 title);
	put_file(tmpl, "site.yml", yml);
}

/* The site at dir built into dir/out1 on one thread and dir/out2 on four
 * (their paths in o1 and o2, 300 bytes each): the same bytes. */
static void build_on_one_and_four(const char *dir, char *o1, char *o2)
{
	snprintf(o1, 300, "%s/out1", dir);
	snprintf(o2, 300, "%s/out2", dir);
	assert_int_equal(build_site(dir, o1, 1, false), 0);
	assert_int_equal(build_site(dir, o2, 4, false), 0);
	compare_dirs(o1, o2, "");
}

/* A site made by new_site removed, outputs and all. */
static void remove_site(const char *dir)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* The sidebar of a page between its <nav class="sidebar" and </nav>
 * (heap), or NULL. */
static char *sidebar_of(const char *out, const char *rel)
{
	char *page = read_out(out, rel);
	char *from = strstr(page, "<nav class=\"sidebar\"");
	char *to = from ? strstr(from, "</nav>") : NULL;
	char *nav = to ? strndup(from, (size_t)(to - from)) : NULL;
	free(page);
	return nav;
}

/* A document's page marks its own topic in the sidebar, with links as deep
 * as the page lies; the sidebar of a topic at a depth is made once and
 * shared by the pages after (view.c), so pages of one topic and depth have
 * the same sidebar, and the other topic's and depth's pages their own.
 * Every thread count gives the one-thread site. */
static void test_sidebar_marks_the_page_topic(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-e2e-sidebar-XXXXXX";
	two_topic_site(dir, "Sidebar");
	char sub[300];
	snprintf(sub, sizeof sub, "%s/content/deep", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	put_file(dir, "content/a.md", "---\ntags: [kernels]\n---\n# A\n\n- [K](https://example.com/k) x\n");
	put_file(dir, "content/b.md", "---\ntags: [kernels]\n---\n# B\n\n- [K2](https://example.com/k2) y\n");
	put_file(dir, "content/c.md", "---\ntags: [serving]\n---\n# C\n\n- [S](https://example.com/s) z\n");
	put_file(dir, "content/deep/d.md",
		 "---\ntags: [kernels]\n---\n# D\n\n- [K3](https://example.com/k3) w\n");
	char o1[300], o2[300];
	build_on_one_and_four(dir, o1, o2);
	char *a = sidebar_of(o2, "a/index.html"), *b = sidebar_of(o2, "b/index.html");
	char *c = sidebar_of(o2, "c/index.html"), *d = sidebar_of(o2, "deep/d/index.html");
	assert_true(a && b && c && d);
	assert_non_null(strstr(a, "<li class=\"current\"><a href=\"../topic/kernels/\" aria-current=\"page\">"));
	assert_non_null(strstr(a, "<li><a href=\"../topic/serving/\">"));
	assert_string_equal(a, b);
	assert_non_null(strstr(c, "<li class=\"current\"><a href=\"../topic/serving/\" aria-current=\"page\">"));
	assert_non_null(strstr(c, "<li><a href=\"../topic/kernels/\">"));
	assert_non_null(strstr(d, "<li class=\"current\"><a href=\"../../topic/kernels/\" aria-current=\"page\">"));
	free(a);
	free(b);
	free(c);
	free(d);
	remove_site(dir);
}

/* The entry of the resource at url in a page's list of resources with
 * their citing documents: from its <li to its </li> (*end), or NULL. */
static char *listed_entry(char *page, const char *url, char **end)
{
	char want[200];
	snprintf(want, sizeof want, "href=\"%s\"", url);
	for (char *li = strstr(page, "<li class=\"resource\""); li;
	     li = strstr(li + 1, "<li class=\"resource\"")) {
		char *close = strstr(li, "</li>");
		char *at = strstr(li, want), *cited = strstr(li, "<p class=\"cited-in\">Cited in");
		if (close && at && at < close && cited && cited < close) {
			*end = close;
			return li;
		}
	}
	return NULL;
}

/* The entry of a resource listed by two topics is made once and lent to
 * the other topic's page at the same depth (site.c): the bytes are the
 * same on both pages, a build that renders every lent entry again and
 * compares (SSG_CHECK_INPUTS) finds them equal, and every thread count
 * gives the one-thread site. */
static void test_topic_entries_shared(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-e2e-entries-XXXXXX";
	two_topic_site(dir, "Entries");
	put_file(dir, "content/a.md",
		 "---\ntags: [kernels, serving]\n---\n# A\n\n## Part\n\n"
		 "- [Kernels for serving](https://example.com/both) shared by two topics\n"
		 "- [Also](https://example.com/also) another\n");
	put_file(dir, "content/b.md",
		 "---\ntags: [kernels, serving]\n---\n# B\n\n"
		 "- [Kernels for serving](https://example.com/both) again\n");
	char o1[300], o2[300], o3[300];
	build_on_one_and_four(dir, o1, o2);
	snprintf(o3, sizeof o3, "%s/out3", dir);
	setenv("SSG_CHECK_INPUTS", "1", 1);
	int checked = build_site(dir, o3, 2, false);
	unsetenv("SSG_CHECK_INPUTS");
	assert_int_equal(checked, 0);
	compare_dirs(o1, o3, "");
	char *k = read_out(o1, "topic/kernels/index.html"), *v = read_out(o1, "topic/serving/index.html");
	char *ke, *ve, *kb = listed_entry(k, "https://example.com/both", &ke),
		      *vb = listed_entry(v, "https://example.com/both", &ve);
	assert_non_null(kb);
	assert_non_null(vb);
	assert_int_equal(ke - kb, ve - vb);
	assert_memory_equal(kb, vb, (size_t)(ke - kb));
	free(k);
	free(v);
	remove_site(dir);
}

/* Which sections the quick reference takes from the documents: a heading
 * holding "quick reference" in any case of its letters, wherever in the
 * heading; not a near miss. */
static void test_quick_reference_sections(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-e2e-quick-XXXXXX";
	new_site(dir, "Quick");
	put_file(dir, "content/q.md",
		 "# Q\n\n"
		 "## QUICK REFERENCE\n\n- [Upper](https://example.com/upper) u\n\n"
		 "## The quick Reference card\n\n- [Inside](https://example.com/inside) i\n\n"
		 "## Quick-reference\n\n- [Dashed](https://example.com/dashed) d\n\n"
		 "## quick referee\n\n- [Referee](https://example.com/referee) r\n\n"
		 "## Quick  reference\n\n- [Two spaces](https://example.com/two) t\n\n"
		 "## qQuick reference\n\n- [Doubled](https://example.com/doubled) q\n");
	char o[300];
	snprintf(o, sizeof o, "%s/out", dir);
	assert_int_equal(build_site(dir, o, 2, false), 0);
	char *page = read_out(o, "quick-reference/index.html");
	const char *from = strstr(page, "ssg-from-documents");
	assert_non_null(from);
	assert_non_null(strstr(from, "Q › QUICK REFERENCE</a>"));
	assert_non_null(strstr(from, "Q › The quick Reference card</a>"));
	assert_non_null(strstr(from, "Q › qQuick reference</a>"));
	assert_null(strstr(from, "Quick-reference</a>"));
	assert_null(strstr(from, "quick referee</a>"));
	assert_null(strstr(from, "Quick  reference</a>"));
	free(page);
	output_remove_tree(o);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A site whose resources.json has three writers' worth of resources (the
 * documents, two chunks of 2,048 and more, the end) and whose search index
 * goes out in several pieces: the files streamed from several threads are
 * the one-thread build's; the script twin is the index; and edits built
 * incrementally, with every record kept from the file in place checked
 * against its rendering (SSG_CHECK_INPUTS), give the clean build's site. */
/* lead: lines before the document's own (which move every citation). */
static void write_big_doc_lead(const char *dir, int i, const char *lead, const char *extra)
{
	char rel[64];
	snprintf(rel, sizeof rel, "content/d%03d.md", i);
	struct buf b = BUF_INIT;
	buf_puts(&b, lead);
	buf_printf(&b, "# Document %d\n\n## Papers\n\n", i);
	for (int k = 0; k < 11; k++)
		buf_printf(&b,
			   "- [Paper %d of %d](https://example.org/p/%d/%d) notes on the paper, "
			   "its code and its benchmarks, number %d\n",
			   k, i, i, k, k);
	buf_puts(&b, "\n## Shared\n\n- [The shared one](https://example.org/shared) again\n");
	buf_puts(&b, extra);
	put_file(dir, rel, buf_cstr(&b));
	buf_free(&b);
}

static void write_big_doc(const char *dir, int i, const char *extra)
{
	write_big_doc_lead(dir, i, "", extra);
}

static void test_data_files_streamed(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-e2e-big-XXXXXX";
	new_site(dir, "Big");
	char p[300];
	for (int i = 0; i < 220; i++)
		write_big_doc(dir, i, "");
	char o1[300], o2[300], o3[300];
	snprintf(o1, sizeof o1, "%s/out1", dir);
	snprintf(o2, sizeof o2, "%s/out2", dir);
	snprintf(o3, sizeof o3, "%s/out3", dir);
	assert_int_equal(build_site(dir, o1, 1, false), 0);
	assert_int_equal(build_site(dir, o2, 4, false), 0);
	compare_dirs(o1, o2, "");
	size_t nj = 0, ns = 0;
	char *json = test_read_file(strcat(strcpy(p, o1), "/resources.json"), &nj);
	char *index = test_read_file(strcat(strcpy(p, o1), "/search-index.json"), &ns);
	/* 220 x 11 resources and the shared one: more than two chunks */
	size_t records = 0;
	for (const char *q = json; (q = strstr(q, "{\"url\":\"")); q++)
		records++;
	assert_int_equal(records, 220 * 11 + 1);
	assert_true(ns > 2 * (128 << 10)); /* three pieces of the index, or more */
	assert_int_equal(index[ns - 1], '\n');
	/* the index's records parts hold its entries, in order, 512 a part: the
	 * parts' insides joined are the index without its brackets */
	struct buf joined = BUF_INIT;
	size_t parts = 0;
	for (;; parts++) {
		char name[64];
		snprintf(name, sizeof name, "search/r%zu.js", parts);
		size_t n = 0;
		char *part = test_read_file(strcat(strcat(strcpy(p, o1), "/"), name), &n);
		if (!part)
			break;
		char head[64];
		int nh = snprintf(head, sizeof head, "ssgSearchPart(\"r%zu\",[\n", parts);
		assert_memory_equal(part, head, (size_t)nh);
		assert_memory_equal(part + n - 5, "\n]);\n", 5);
		size_t lines = 0;
		for (size_t i = (size_t)nh; i < n - 5; i++)
			lines += part[i] == '\n';
		assert_true(lines + 1 <= 512);
		if (parts)
			buf_puts(&joined, ",\n");
		buf_put(&joined, part + nh, n - (size_t)nh - 5);
		free(part);
	}
	assert_true(parts >= 2);
	assert_int_equal(joined.n, ns - 3);
	assert_memory_equal(joined.p, index + 1, ns - 3);
	buf_free(&joined);
	free(json);
	free(index);
	/* an edit: the record of the resource whose citations changed (the
	 * new one) is made anew; the others are kept from the file in place,
	 * found where the last build noted each, those the edited document
	 * cites as well (their keys take in their citations, cite_key.h, not
	 * the document's bytes: its 11 and the shared one are where they were) */
	write_big_doc(dir, 7, "- [A new one](https://example.org/new) fresh\n");
	struct build_opts bo = {.source = dir, .output = o2, .jobs = 2};
	struct diags d = DIAGS_INIT;
	struct build_stats st;
	assert_int_equal(site_build(&bo, &d, &st), 0);
	diags_free(&d);
	assert_int_equal(st.resources, 220 * 11 + 2);
	assert_int_equal(st.records_kept[0], st.resources - 1);
	/* a line before them moves all 13 citations: their records name their
	 * lines, and are made anew */
	write_big_doc_lead(dir, 7, "\n", "- [A new one](https://example.org/new) fresh\n");
	assert_int_equal(site_build(&bo, &d, &st), 0);
	diags_free(&d);
	assert_int_equal(st.records_kept[0], st.resources - 13);
	/* another, every kept record checked against its rendering */
	assert_int_equal(setenv("SSG_CHECK_INPUTS", "1", 1), 0);
	write_big_doc(dir, 210, "- [Another](https://example.org/another) late\n");
	write_big_doc(dir, 7, "");
	assert_int_equal(build_site(dir, o2, 2, false), 0);
	unsetenv("SSG_CHECK_INPUTS");
	assert_int_equal(build_site(dir, o3, 1, false), 0);
	compare_sites(o2, o3, "");
	compare_sites(o3, o2, "");
	/* resources.json replaced by a copy of itself (the same bytes, another
	 * file): its records are not taken from it, the search index's are,
	 * and the site is the one a clean build makes */
	char in_place[400], copy[400], o4[300];
	snprintf(in_place, sizeof in_place, "%s/resources.json", o2);
	snprintf(copy, sizeof copy, "%s/resources.copy", dir);
	size_t nbytes = 0;
	char *bytes = test_read_file(in_place, &nbytes);
	assert_non_null(bytes);
	FILE *f = fopen(copy, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, nbytes, f), nbytes);
	fclose(f);
	free(bytes);
	assert_int_equal(rename(copy, in_place), 0);
	write_big_doc(dir, 9, "- [Yet another](https://example.org/yet) one\n");
	assert_int_equal(site_build(&bo, &d, &st), 0);
	diags_free(&d);
	assert_int_equal(st.records_kept[0], 0);
	assert_true(st.records_kept[1] > 0);
	snprintf(o4, sizeof o4, "%s/out4", dir);
	assert_int_equal(build_site(dir, o4, 1, false), 0);
	compare_sites(o2, o4, "");
	compare_sites(o4, o2, "");
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_failed_build_keeps_previous(void **state)
{
	(void)state;
	/* a broken site.yml: the build fails and the old output stays whole */
	char dir[] = "/tmp/ssg-e2e-src-XXXXXX";
	assert_non_null(mkdtemp(dir));
	put_file(dir, "site.yml", "title: [broken\n");
	char p[256];
	snprintf(p, sizeof p, "%s/site.yml", dir);
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

/* serve's builds: each model freed on a thread of its own after its build.
 * The site is the one a build that frees its model itself makes, a second
 * build waits for the first one's model, and the caller's wait frees the
 * last (ASan finds any of them leaked). */
static void test_burial(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-e2e-burial-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char o3[300], o4[300];
	snprintf(o3, sizeof o3, "%s/c", dir);
	snprintf(o4, sizeof o4, "%s/d", dir);
	struct site_burial burial;
	memset(&burial, 0, sizeof burial);
	struct build_opts o = {.source = ".", .output = o3, .jobs = 2, .burial = &burial};
	struct diags d = DIAGS_INIT;
	struct build_stats st;
	assert_int_equal(site_build(&o, &d, &st), 0);
	diags_free(&d);
	assert_true(burial.busy);
	compare_dirs(out1, o3, "");
	/* the next build, into another folder (not up to date there) */
	o.output = o4;
	assert_int_equal(site_build(&o, &d, &st), 0);
	diags_free(&d);
	assert_true(burial.busy);
	site_burial_wait(&burial);
	assert_false(burial.busy);
	site_burial_wait(&burial); /* nothing left to wait for */
	compare_dirs(out1, o4, "");
	output_remove_tree(dir); /* the outputs and the hints beside them */
}

/* What the committed hook saw: the new site in place, its state not yet. */
struct committed_seen {
	const char *outdir;
	int calls;
	bool page, state;
};

static void on_committed(void *ctx)
{
	struct committed_seen *c = ctx;
	char path[400];
	struct stat st;
	c->calls++;
	snprintf(path, sizeof path, "%s/index.html", c->outdir);
	c->page = stat(path, &st) == 0;
	snprintf(path, sizeof path, "%s/.ssg-build", c->outdir);
	c->state = stat(path, &st) == 0;
}

/* serve tells open pages as soon as a new site is in place, before the build
 * saves its state: once per build that swaps a site in, never for one that
 * has nothing to do; the site is the same. */
static void test_committed_hook(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-e2e-committed-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char out[300], path[400];
	snprintf(out, sizeof out, "%s/site", dir);
	struct committed_seen seen = {.outdir = out};
	struct build_opts o = {.source = ".", .output = out, .jobs = 2, .committed = on_committed,
			       .committed_ctx = &seen};
	struct diags d = DIAGS_INIT;
	struct build_stats st;
	assert_int_equal(site_build(&o, &d, &st), 0);
	diags_free(&d);
	assert_int_equal(seen.calls, 1);
	assert_true(seen.page);
	assert_false(seen.state);
	struct stat sb;
	snprintf(path, sizeof path, "%s/.ssg-build", out);
	assert_int_equal(stat(path, &sb), 0); /* saved after */
	compare_dirs(out1, out, "");
	/* up to date: no new site, no call */
	assert_int_equal(site_build(&o, &d, &st), 0);
	diags_free(&d);
	assert_true(st.up_to_date);
	assert_int_equal(seen.calls, 1);
	/* forced: swapped in again */
	o.force = true;
	assert_int_equal(site_build(&o, &d, &st), 0);
	diags_free(&d);
	assert_int_equal(seen.calls, 2);
	assert_true(seen.page);
	assert_false(seen.state);
	output_remove_tree(out);
	char spare[400];
	snprintf(spare, sizeof spare, "%s/.site.ssg-spare", dir);
	output_remove_tree(spare);
	snprintf(spare, sizeof spare, "%s/.site.ssg-trees", dir);
	unlink(spare);
	snprintf(spare, sizeof spare, "%s/.site" ROOM_HINT_SUFFIX, dir);
	assert_int_equal(unlink(spare), 0); /* room_hint.h's hint, left by a whole build */
	assert_int_equal(rmdir(dir), 0);
}

/* What the preview hook saw: the edited document's page at that moment. */
struct preview_seen {
	const char *page;
	int calls;
	char *html;
};

static void on_previewed(void *ctx)
{
	struct preview_seen *p = ctx;
	p->calls++;
	free(p->html);
	size_t n;
	p->html = test_read_file(p->page, &n);
}

static int count_of(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* content/a.md of src written as text, then a build with o. */
static void edit_and_build(const char *src, const char *text, const struct build_opts *o,
			   struct build_stats *st)
{
	put_file(src, "content/a.md", text);
	struct diags d = DIAGS_INIT;
	assert_int_equal(site_build(o, &d, st), 0);
	diags_free(&d);
}

/* out is the site a clean single-threaded build of src makes (in clean). */
static void same_as_clean(const char *src, const char *clean, const char *out)
{
	output_remove_tree(clean);
	assert_int_equal(build_site(src, clean, 1, false), 0);
	compare_sites(clean, out, "");
	compare_sites(out, clean, "");
}

/* serve previews an edit the model sees (build_patch.h): an entry's words,
 * a link added after the others or before them, a heading, the description.
 * The page is patched and the hook called before the build in full, which
 * follows at once and leaves the site a clean build's. Front matter is not
 * previewed; a prose edit is patched whole. */
static void test_preview_hook(void **state)
{
	(void)state;
	char dir[] = "/tmp/ssg-e2e-preview-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char src[300], out[300], clean[300], p[400];
	snprintf(src, sizeof src, "%s/src", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(clean, sizeof clean, "%s/clean", dir);
	assert_int_equal(mkdir(src, 0755), 0);
	snprintf(p, sizeof p, "%s/content", src);
	assert_int_equal(mkdir(p, 0755), 0);
	put_file(src, "site.yml", "title: Preview\nbase_url: https://example.org/\n");
	const char *a_head = "# Alpha\n\nSome prose.\n\n## Papers\n\n"
			     "- [Flash](https://arxiv.org/abs/2205.14135) - fast attention\n";
	char a[1024];
	snprintf(a, sizeof a, "%s- [Lonely](https://example.org/lonely) - alone here\n", a_head);
	put_file(src, "content/a.md", a);
	put_file(src, "content/b.md",
		 "# Beta\n\n- [Flash](https://arxiv.org/abs/2205.14135v2) - the paper\n");
	snprintf(p, sizeof p, "%s/a/index.html", out);
	struct preview_seen seen = {.page = p};
	struct build_opts o = {.source = src, .output = out, .jobs = 2,
			       .previewed = on_previewed, .previewed_ctx = &seen};
	struct diags d = DIAGS_INIT;
	struct build_stats st;
	assert_int_equal(site_build(&o, &d, &st), 0);
	diags_free(&d);
	assert_int_equal(seen.calls, 0); /* no site to preview in */
	/* an entry's words: previewed, then built in full */
	snprintf(a, sizeof a, "%s- [Lonely](https://example.org/lonely) - still alone here\n",
		 a_head);
	edit_and_build(src, a, &o, &st);
	assert_int_equal(seen.calls, 1);
	assert_non_null(seen.html);
	assert_non_null(strstr(seen.html, "still alone here"));
	assert_int_equal(st.patched, 0);
	assert_false(st.up_to_date);
	same_as_clean(src, clean, out);
	/* a new link: previewed without its badge */
	char *before = test_read_file(p, &(size_t){0});
	strcat(a, "- [Brand new](https://example.org/brand-new) - just added\n");
	edit_and_build(src, a, &o, &st);
	assert_int_equal(seen.calls, 2);
	assert_non_null(strstr(seen.html, "https://example.org/brand-new"));
	assert_int_equal(count_of(seen.html, "class=\"cites\""),
			 count_of(before, "class=\"cites\""));
	char *after = test_read_file(p, &(size_t){0});
	assert_true(count_of(after, "class=\"cites\"") > count_of(before, "class=\"cites\""));
	free(before);
	free(after);
	same_as_clean(src, clean, out);
	/* a link inserted before the others: they keep their badges */
	before = test_read_file(p, &(size_t){0});
	char *list = strstr(a, "- [Flash]");
	char inserted[1400];
	snprintf(inserted, sizeof inserted, "%.*s- [Inserted](https://example.org/inserted) - first\n%s",
		 (int)(list - a), a, list);
	strcpy(a, inserted);
	edit_and_build(src, a, &o, &st);
	assert_int_equal(seen.calls, 3);
	assert_non_null(strstr(seen.html, "https://example.org/inserted"));
	assert_int_equal(count_of(seen.html, "class=\"cites\""),
			 count_of(before, "class=\"cites\""));
	/* each old link is followed by the badge it had */
	const char *flash = strstr(seen.html, "https://arxiv.org/abs/2205.14135\"");
	assert_non_null(flash);
	assert_non_null(strstr(before, "+1</a>"));
	const char *plus = strstr(flash, "+1</a>");
	assert_non_null(plus);
	assert_true(plus < strstr(flash, "example.org/lonely"));
	free(before);
	same_as_clean(src, clean, out);
	/* a heading renamed: previewed, its new text in the page */
	char *h = strstr(a, "## Papers");
	memcpy(h, "## Reads ", 9);
	edit_and_build(src, a, &o, &st);
	assert_int_equal(seen.calls, 4);
	assert_non_null(strstr(seen.html, "Reads"));
	same_as_clean(src, clean, out);
	/* a first paragraph long enough: the document's description, which
	 * other pages show: previewed too, the others built after */
	strcat(a, "\nA closing paragraph.\n");
	edit_and_build(src, a, &o, &st);
	assert_int_equal(st.patched, 0);
	assert_int_equal(seen.calls, 5);
	same_as_clean(src, clean, out);
	/* prose alone: patched whole, nothing to preview */
	strcat(a, "\nAnd another one.\n");
	edit_and_build(src, a, &o, &st);
	assert_int_equal(st.patched, 1);
	assert_int_equal(seen.calls, 5);
	same_as_clean(src, clean, out);
	/* front matter: where the page goes, its topics: not previewed */
	char fm[1600];
	snprintf(fm, sizeof fm, "---\nweight: 2\n---\n%s", a);
	edit_and_build(src, fm, &o, &st);
	assert_int_equal(st.patched, 0);
	assert_int_equal(seen.calls, 5);
	same_as_clean(src, clean, out);
	free(seen.html);
	output_remove_tree(clean);
	output_remove_tree(out);
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
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
		cmocka_unit_test(test_drafts_left_out_in_parallel),
		cmocka_unit_test(test_sidebar_marks_the_page_topic),
		cmocka_unit_test(test_topic_entries_shared),
		cmocka_unit_test(test_quick_reference_sections),
		cmocka_unit_test(test_data_files_streamed),
		cmocka_unit_test(test_burial),
		cmocka_unit_test(test_committed_hook),
		cmocka_unit_test(test_preview_hook),
	};
	return cmocka_run_group_tests_name("e2e", tests, setup, teardown);
}
