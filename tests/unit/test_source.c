/* source: front matter, format sniffing, discovery order; path: slugs,
 * path safety and files mapped. */
#include "testutil.h"
#include "buf.h"
#include "yamlx.h"
#include "path.h"
#include "source.h"
#include "xalloc.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/ssg-test-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_front_matter(void **state)
{
	(void)state;
	char *p = write_tmp("---\ntitle: Hello\nslug: hi\nweight: 3\ndraft: true\ndate: 2024-05-01\n"
			    "topics: [a, b]\n---\n# Heading\n");
	struct source s;
	struct diags d = DIAGS_INIT;
	assert_int_equal(source_load(p, "content/x.md", 0, &s, &d), 0);
	assert_int_equal(d.n, 0);
	assert_string_equal(s.meta.title, "Hello");
	assert_string_equal(s.meta.slug, "hi");
	assert_int_equal(s.meta.weight, 3);
	assert_true(s.meta.draft);
	assert_string_equal(s.meta.date, "2024-05-01");
	assert_int_equal(s.meta.ntopics, 2);
	assert_int_equal(s.body_line, 9);
	assert_string_equal(s.body, "# Heading\n");
	source_free(&s);
	unlink(p);
	free(p);
}

static void test_front_matter_errors(void **state)
{
	(void)state;
	char *p = write_tmp("---\ntitle: [x\n---\nbody\n");
	struct source s;
	struct diags d = DIAGS_INIT;
	assert_int_equal(source_load(p, "content/bad.md", 0, &s, &d), 0);
	assert_true(d.n >= 1);
	assert_string_equal(d.v[0].path, "content/bad.md");
	assert_int_equal(d.v[0].sev, SEV_ERROR);
	assert_true(d.v[0].line >= 2);
	source_free(&s);
	diags_free(&d);
	unlink(p);
	free(p);
	p = write_tmp("---\ntitel: typo\nweight: heavy\n---\nbody\n");
	assert_int_equal(source_load(p, "content/bad.md", 0, &s, &d), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.v[0].line, 2);
	assert_int_equal(d.v[0].sev, SEV_WARNING);
	assert_non_null(strstr(d.v[0].msg, "unknown front-matter key 'titel'"));
	assert_int_equal(d.v[1].line, 3);
	assert_int_equal(d.v[1].sev, SEV_ERROR);
	source_free(&s);
	diags_free(&d);
	unlink(p);
	free(p);
}

/* A YAML alias repeats its anchor's text for a few bytes: topics listing a
 * 20 KB anchor 1,000 times stop at YAMLX_MAX_LIST_BYTES, with an error,
 * instead of copying 20 MB. */
static void test_front_matter_alias_bounded(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	buf_puts(&b, "---\nx: &a t");
	for (int i = 0; i < 20000; i++)
		buf_putc(&b, 'x');
	buf_puts(&b, "\ntopics: [");
	for (int i = 0; i < 1000; i++)
		buf_puts(&b, i ? ", *a" : "*a");
	buf_puts(&b, "]\n---\nbody\n");
	char *p = write_tmp(buf_cstr(&b));
	buf_free(&b);
	struct source s;
	struct diags d = DIAGS_INIT;
	assert_int_equal(source_load(p, "content/alias.md", 0, &s, &d), 0);
	size_t bytes = 0;
	for (size_t i = 0; i < s.meta.ntopics; i++)
		bytes += strlen(s.meta.topics[i]);
	assert_true(s.meta.ntopics > 0 && s.meta.ntopics < 1000);
	assert_true(bytes <= YAMLX_MAX_LIST_BYTES);
	bool said = false;
	for (size_t i = 0; i < d.n; i++)
		said |= d.v[i].sev == SEV_ERROR && strstr(d.v[i].msg, "'topics' holds more than") != NULL;
	assert_true(said);
	source_free(&s);
	diags_free(&d);
	unlink(p);
	free(p);
}

static void test_sniff_seeds(void **state)
{
	(void)state;
	/* the portal's documents as .txt: each must be recognised */
	static const struct {
		const char *file;
		enum doc_format fmt;
	} cases[] = {
		{"content/external-references.md", FMT_MARKDOWN},
		{"content/cuda-mode-resource-stream.md", FMT_MARKDOWN},
		{"content/cuda-pytorch-index.md", FMT_MARKDOWN},
		{"content/triton-gpu-references.rst", FMT_RST},
		{"content/cuda-basics.rst", FMT_RST},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t n = 0;
		char *text = test_read_file(cases[i].file, &n);
		assert_non_null(text);
		assert_int_equal(source_sniff("doc.txt", text, n), cases[i].fmt);
		free(text);
	}
	assert_int_equal(source_sniff("a.rst", "# x", 3), FMT_RST);
	assert_int_equal(source_sniff("a.md", "Title\n=====\n", 12), FMT_MARKDOWN);
}

/* A file is read whole: one of exactly max_file_size bytes, and one whose
 * size fstat does not tell (as /proc's), read to its end. */
static void test_read_whole(void **state)
{
	(void)state;
	const char *line = "hello world, this is a long enough line of text\n";
	char *p = write_tmp(line);
	struct source s;
	struct diags d = DIAGS_INIT;
	assert_int_equal(source_load(p, "content/exact.md", (long)strlen(line), &s, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(s.len, strlen(line));
	assert_string_equal(s.text, line);
	source_free(&s);
	unlink(p);
	free(p);
	assert_int_equal(source_load("/proc/self/status", "content/status.md", 0, &s, &d), 0);
	assert_int_equal(d.n, 0);
	assert_true(s.len > 100);
	assert_non_null(strstr(s.text, "Name:"));
	assert_non_null(strstr(s.text, "VmRSS:")); /* past the first lines */
	source_free(&s);
	diags_free(&d);
}

static void test_binary_and_size_refused(void **state)
{
	(void)state;
	char *p = write_tmp("hello world, this is a long enough line of text\n");
	struct source s;
	struct diags d = DIAGS_INIT;
	assert_int_equal(source_load(p, "content/big.md", 10, &s, &d), -1);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].msg, "max_file_size"));
	source_free(&s);
	diags_free(&d);
	unlink(p);
	free(p);
	char bin[64] = "abc";
	p = strdup("/tmp/ssg-bin-XXXXXX");
	int fd = mkstemp(p);
	assert_int_equal(write(fd, bin, sizeof bin), (ssize_t)sizeof bin);
	close(fd);
	assert_int_equal(source_load(p, "content/bin.md", 0, &s, &d), -1);
	assert_non_null(strstr(d.v[0].msg, "binary"));
	source_free(&s);
	diags_free(&d);
	unlink(p);
	free(p);
}

static void test_discover_sorted(void **state)
{
	(void)state;
	struct source_list l = {0};
	struct diags d = DIAGS_INIT;
	assert_int_equal(source_discover("content", &l, &d), 0);
	assert_int_equal(l.n, 5);
	for (size_t i = 1; i < l.n; i++)
		assert_true(strcmp(l.v[i - 1].relpath, l.v[i].relpath) < 0);
	for (size_t i = 0; i < l.n; i++)
		assert_true(l.v[i].is_doc);
	source_list_free(&l);
	diags_free(&d);
}

static void test_slugs(void **state)
{
	(void)state;
	static const char *gh[][2] = {
		{"Flash Attention", "flash-attention"},
		{"FSDP (Fully Sharded Data Parallel)", "fsdp-fully-sharded-data-parallel"},
		{"Papers, Case Studies", "papers-case-studies"},
		{"Lectures / Reading Group Live Sessions", "lectures--reading-group-live-sessions"},
		{"CUDA & PyTorch - Index", "cuda--pytorch---index"},
		{"torch.compile()", "torchcompile"},
		{"Café", "café"},
		{"snake_case", "snake_case"},
	};
	for (size_t i = 0; i < sizeof gh / sizeof *gh; i++) {
		char *s = slug_github(gh[i][0]);
		assert_string_equal(s, gh[i][1]);
		free(s);
	}
	char *s = slug_url("Hello, World!  2024", 0);
	assert_string_equal(s, "hello-world-2024");
	free(s);
	s = slug_url("../../etc/passwd", 0);
	assert_string_equal(s, "etc-passwd");
	free(s);
	s = slug_url("!!!", 0);
	assert_string_equal(s, "item");
	free(s);
	s = slug_url("abc def ghi", 7);
	assert_string_equal(s, "abc-def");
	free(s);
	/* at the edges of the string it is made in: as long as the text, or
	 * the limit; "item" longer than either */
	static const struct {
		const char *text;
		size_t max;
		const char *slug;
	} edges[] = {{"", 0, "item"}, {"", 3, "item"}, {"-", 1, "item"}, {"ab", 0, "ab"},
		     {"a", 0, "a"}, {"abcdef", 6, "abcdef"}, {"abcdef", 5, "abcde"},
		     {"x!y", 2, "x"}, {"x!y", 3, "x-y"}, {"!x!!y!", 0, "x-y"}, {"AB-CD", 1, "a"}};
	for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) {
		s = slug_url(edges[i].text, edges[i].max);
		assert_string_equal(s, edges[i].slug);
		free(s);
	}
	/* against the rule written plainly, byte by byte: ASCII letters and
	 * digits kept (lower-cased), a dash for each run of anything else
	 * between two of them, the slug cut before a dash or letter that would
	 * pass the limit; over random texts of all sorts of bytes and limits */
	unsigned seed = 12345;
	for (int round = 0; round < 20000; round++) {
		char text[40];
		size_t len = (seed = seed * 1103515245u + 12345u) >> 16 & 31;
		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			static const char pick[] = "aZ9-/ .\x80\xff_";
			text[i] = (seed >> 16) & 1 ? pick[(seed >> 17) % (sizeof pick - 1)]
						   : (char)(seed >> 20);
			if (!text[i])
				text[i] = 'q';
		}
		text[len] = '\0';
		size_t max = (seed >> 24) % 12;
		char want[40];
		size_t n = 0;
		bool dash = false;
		for (const unsigned char *t = (const unsigned char *)text; *t; t++) {
			unsigned char c = *t;
			bool keep = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
				    (c >= 'A' && c <= 'Z');
			if (!keep) {
				dash = n > 0;
				continue;
			}
			if (max && n + dash + 1 > max)
				break;
			if (dash)
				want[n++] = '-';
			dash = false;
			want[n++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
		}
		want[n] = '\0';
		s = slug_url(text, max);
		assert_string_equal(s, n ? want : "item");
		free(s);
	}
	char long_url[301];
	for (size_t i = 0; i < 300; i++)
		long_url[i] = i % 7 == 6 ? '/' : (char)('a' + i % 26);
	long_url[300] = '\0';
	s = slug_url(long_url, 72);
	assert_int_equal(strlen(s), 72);
	assert_true(s[71] != '-');
	free(s);
}

static void test_safe_paths(void **state)
{
	(void)state;
	assert_true(path_is_safe_rel("a/b/index.html"));
	assert_true(path_is_safe_rel("x.md"));
	static const char *bad[] = {"", "/etc/passwd", "../x", "a/../../x", "a//b", "a/./b",
				    "a\\b", "a/", "a/\x01"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_false(path_is_safe_rel(bad[i]));
	static const char *good[] = {"a", "..a", "a..", ".x/y", "a/.../b", "r/caf\xc3\xa9/index.html"};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		assert_true(path_is_safe_rel(good[i]));
	/* against the rule written plainly, name by name, over random paths of
	 * the bytes that matter */
	unsigned seed = 99;
	for (int round = 0; round < 20000; round++) {
		static const char pick[] = "ab./\\\x01\x7f\xc3";
		char path[16];
		size_t len = (seed = seed * 1103515245u + 12345u) >> 16 & 15;
		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			path[i] = pick[(seed >> 16) % (sizeof pick - 1)];
		}
		path[len] = '\0';
		bool want = len > 0 && path[0] != '/';
		for (const char *q = path; want;) {
			const char *e = strchr(q, '/');
			size_t n = e ? (size_t)(e - q) : strlen(q);
			want = n && !(n == 1 && q[0] == '.') && !(n == 2 && q[0] == '.' && q[1] == '.');
			for (size_t i = 0; want && i < n; i++)
				want = (unsigned char)q[i] >= 0x20 && q[i] != '\\' && q[i] != 0x7f;
			if (!e)
				break;
			q = e + 1;
			want = want && *q;
		}
		assert_int_equal(path_is_safe_rel(path), want);
	}
	char *r = path_root_prefix("a/b/");
	assert_string_equal(r, "../../");
	free(r);
	r = path_root_prefix("");
	assert_string_equal(r, "./");
	free(r);
	assert_string_equal(path_ext("dir.x/file.tar.gz"), "gz");
	assert_string_equal(path_ext("dir.x/README"), "");
}

/* A file mapped: its bytes and stat; nothing for an empty file, a file
 * over the limit, a folder, a symlink (not followed) or no file. */
static void test_map_regular(void **state)
{
	(void)state;
	char *path = write_tmp("mapped bytes\n");
	struct stat st;
	char *map = path_map_regular_at(AT_FDCWD, path, 64, &st);
	assert_non_null(map);
	assert_int_equal(st.st_size, 13);
	assert_memory_equal(map, "mapped bytes\n", 13);
	munmap(map, (size_t)st.st_size);
	assert_null(path_map_regular_at(AT_FDCWD, path, 12, &st)); /* over max */
	char *link = xasprintf("%s.link", path);
	assert_int_equal(symlink(path, link), 0);
	assert_null(path_map_regular_at(AT_FDCWD, link, 64, &st));
	unlink(link);
	free(link);
	char *empty = write_tmp("");
	assert_null(path_map_regular_at(AT_FDCWD, empty, 64, &st));
	assert_null(path_map_regular_at(AT_FDCWD, "/tmp", 64, &st));
	unlink(path);
	assert_null(path_map_regular_at(AT_FDCWD, path, 64, &st));
	unlink(empty);
	free(empty);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_front_matter),
		cmocka_unit_test(test_front_matter_errors),
		cmocka_unit_test(test_front_matter_alias_bounded),
		cmocka_unit_test(test_sniff_seeds),
		cmocka_unit_test(test_binary_and_size_refused),
		cmocka_unit_test(test_read_whole),
		cmocka_unit_test(test_discover_sorted),
		cmocka_unit_test(test_slugs),
		cmocka_unit_test(test_safe_paths),
		cmocka_unit_test(test_map_regular),
	};
	return cmocka_run_group_tests_name("source", tests, NULL, NULL);
}
