/* Tests for url: canonicalisation table, the scheme safety table, host/path
 * accessors, taxonomy glob patterns, and hostile input. */
#include "testutil.h"
#include "url.h"
#include "xalloc.h"

struct ccase {
	const char *in, *want; /* want NULL: not an absolute http(s) URL */
};

static const struct ccase canon[] = {
	/* The seeds' spellings. */
	{"https://github.com/openai/triton", "https://github.com/openai/triton"},
	{"http://www.github.com/openai/triton/", "https://github.com/openai/triton"},
	{"https://arxiv.org/pdf/2205.14135.pdf", "https://arxiv.org/abs/2205.14135"},
	{"https://arxiv.org/abs/2205.14135", "https://arxiv.org/abs/2205.14135"},
	{"https://www.youtube.com/@CUDAMODE", "https://youtube.com/@CUDAMODE"},
	{"https://pytorch.org/docs/stable/index.html", "https://pytorch.org/docs/stable/index.html"},
	{"https://discord.gg/cudamode", "https://discord.gg/cudamode"},
	{"https://enccs.github.io/gpu-programming/#", "https://enccs.github.io/gpu-programming"},
	{"https://aws.amazon.com/ec2/instance-types/#Accelerated_Computing",
	 "https://aws.amazon.com/ec2/instance-types"},
	{"https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#hardware-implementation",
	 "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html"},
	{"https://edoras.sdsu.edu/~mthomas/docs/cuda/cuda_by_example.book.pdf",
	 "https://edoras.sdsu.edu/~mthomas/docs/cuda/cuda_by_example.book.pdf"},
	/* Scheme and host case, www., trailing dot. */
	{"HTTPS://GitHub.COM/Dao-AILab/flash-attention", "https://github.com/Dao-AILab/flash-attention"},
	{"Http://Example.org", "https://example.org"},
	{"https://WWW.example.org/a", "https://example.org/a"},
	{"https://www2.example.org/a", "https://www2.example.org/a"},
	{"https://example.org./a", "https://example.org/a"},
	{"https://www./x", "https://www/x"},
	/* Ports. */
	{"http://example.org:80/a", "https://example.org/a"},
	{"https://example.org:443/a", "https://example.org/a"},
	{"https://example.org:8443/a", "https://example.org:8443/a"},
	{"http://example.org:8080", "https://example.org:8080"},
	{"http://example.org:0080/", "https://example.org"},
	{"http://example.org:/a", "https://example.org/a"},
	{"http://example.org:99999/", NULL},
	{"http://example.org:8o/", NULL},
	/* Trailing slash, root. */
	{"https://example.org/", "https://example.org"},
	{"https://example.org", "https://example.org"},
	{"https://example.org/a/b/", "https://example.org/a/b"},
	{"https://example.org/a//", "https://example.org/a"},
	{"https://example.org/a//b", "https://example.org/a//b"},
	/* Query and fragment. */
	{"https://example.org/a?", "https://example.org/a"},
	{"https://example.org/a?#", "https://example.org/a"},
	{"https://example.org/a#frag", "https://example.org/a"},
	{"https://example.org/a/?b=2&a=1", "https://example.org/a?b=2&a=1"},
	{"https://example.org/a?x=1&&y=2&", "https://example.org/a?x=1&y=2"},
	{"https://example.org/s?q=a+b#r", "https://example.org/s?q=a+b"},
	{"https://example.org/s?next=/a?b", "https://example.org/s?next=/a?b"},
	/* Tracking parameters. */
	{"https://example.org/p?utm_source=x&utm_medium=y&id=3", "https://example.org/p?id=3"},
	{"https://example.org/p?UTM_Campaign=x", "https://example.org/p"},
	{"https://example.org/p?fbclid=abc", "https://example.org/p"},
	{"https://example.org/p?a=1&gclid=abc&b=2", "https://example.org/p?a=1&b=2"},
	{"https://example.org/p?mc_cid=1&mc_eid=2&ref_src=twsrc&igshid=9",
	 "https://example.org/p"},
	{"https://example.org/p?si=keep", "https://example.org/p?si=keep"},
	{"https://www.youtube.com/watch?v=abc&si=XYZ", "https://youtube.com/watch?v=abc"},
	{"https://example.org/p?utm=1", "https://example.org/p?utm=1"},
	/* Percent-encoding. */
	{"https://example.org/%41%62c", "https://example.org/Abc"},
	{"https://example.org/%7euser", "https://example.org/~user"},
	{"https://example.org/a%2fb", "https://example.org/a%2Fb"},
	{"https://example.org/a%2Fb", "https://example.org/a%2Fb"},
	{"https://example.org/a b", "https://example.org/a%20b"},
	{"https://example.org/caf\xC3\xA9", "https://example.org/caf%C3%A9"},
	{"https://example.org/caf%c3%a9", "https://example.org/caf%C3%A9"},
	{"https://example.org/100%", "https://example.org/100%25"},
	{"https://example.org/%zz", "https://example.org/%25zz"},
	{"https://example.org/%4", "https://example.org/%254"},
	{"https://example.org/?q=%7e%2d", "https://example.org?q=~-"},
	{"https://en.wikipedia.org/wiki/Thread_block_(CUDA_programming)",
	 "https://en.wikipedia.org/wiki/Thread_block_(CUDA_programming)"},
	/* Dot segments. */
	{"https://example.org/a/./b", "https://example.org/a/b"},
	{"https://example.org/a/b/../c", "https://example.org/a/c"},
	{"https://example.org/../../a", "https://example.org/a"},
	{"https://example.org/a/b/..", "https://example.org/a"},
	{"https://example.org/a/%2E%2E/b", "https://example.org/b"},
	{"https://example.org/a/.hidden/b", "https://example.org/a/.hidden/b"},
	/* YouTube and arXiv. */
	{"https://youtu.be/dQw4w9WgXcQ", "https://youtube.com/watch?v=dQw4w9WgXcQ"},
	{"https://youtu.be/dQw4w9WgXcQ?si=abc&t=42", "https://youtube.com/watch?v=dQw4w9WgXcQ&t=42"},
	{"https://www.youtube.com/embed/dQw4w9WgXcQ", "https://youtube.com/watch?v=dQw4w9WgXcQ"},
	{"https://m.youtube.com/watch?v=x1&feature=share", "https://youtube.com/watch?v=x1"},
	{"https://youtu.be/", "https://youtu.be"},
	{"https://arxiv.org/pdf/2205.14135", "https://arxiv.org/abs/2205.14135"},
	{"https://arxiv.org/pdf/2205.14135v2", "https://arxiv.org/abs/2205.14135"},
	{"https://arxiv.org/pdf/2205.14135v12.pdf", "https://arxiv.org/abs/2205.14135"},
	{"https://arxiv.org/abs/2205.14135v3", "https://arxiv.org/abs/2205.14135"},
	{"http://www.arxiv.org/abs/2205.14135/", "https://arxiv.org/abs/2205.14135"},
	{"https://arxiv.org/abs/hep-th/9901001v1", "https://arxiv.org/abs/hep-th/9901001"},
	{"https://arxiv.org/list/cs.LG/recent", "https://arxiv.org/list/cs.LG/recent"},
	/* Userinfo, IPv6, whitespace. */
	{"https://user:pw@example.org/a", "https://example.org/a"},
	{"https://a@b@example.org/", "https://example.org"},
	{"http://[::1]:8080/", "https://[::1]:8080"},
	{"http://[2001:DB8::1]/x", "https://[2001:db8::1]/x"},
	{"  https://example.org/a \n", "https://example.org/a"},
	{"https://exam\tple.org/a\nb", "https://example.org/ab"},
	/* Not absolute http(s). */
	{"ftp://example.org/a", NULL},
	{"mailto:someone@example.org", NULL},
	{"javascript:alert(1)", NULL},
	{"/relative/path", NULL},
	{"cuda_setup.md", NULL},
	{"//example.org/a", NULL},
	{"https:example.org", NULL},
	{"https://", NULL},
	{"https:///path", NULL},
	{"https://exa mple.org/", NULL},
	{"https://exa<mple.org/", NULL},
	{"http://[::1/", NULL},
	{"http://[zz]/", NULL},
	{"", NULL},
};

static void test_canonical_table(void **state)
{
	(void)state;
	size_t n = sizeof canon / sizeof canon[0], failed = 0;
	assert_true(n >= 50);
	for (size_t k = 0; k < n; k++) {
		char *got = url_canonical(canon[k].in);
		bool ok = canon[k].want ? got && strcmp(got, canon[k].want) == 0 : got == NULL;
		if (!ok) {
			print_error("url_canonical(\"%s\") = \"%s\", want \"%s\"\n", canon[k].in,
				    got ? got : "(null)", canon[k].want ? canon[k].want : "(null)");
			failed++;
		}
		assert_int_equal(url_is_absolute_http(canon[k].in), canon[k].want != NULL);
		free(got);
	}
	assert_int_equal(failed, 0);
	assert_null(url_canonical(NULL));
	assert_false(url_is_absolute_http(NULL));
}

/* Canonical URLs are fixed points, and spellings merge. */
static void test_canonical_idempotent(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof canon / sizeof canon[0]; k++) {
		if (!canon[k].want)
			continue;
		char *again = url_canonical(canon[k].want);
		assert_non_null(again);
		assert_string_equal(again, canon[k].want);
		free(again);
	}
	const char *fa[] = {"https://arxiv.org/abs/2205.14135", "https://arxiv.org/pdf/2205.14135.pdf",
			    "http://arxiv.org/abs/2205.14135v1/", "https://www.arxiv.org/pdf/2205.14135v2"};
	char *first = url_canonical(fa[0]);
	for (size_t k = 1; k < 4; k++) {
		char *c = url_canonical(fa[k]);
		assert_string_equal(c, first);
		free(c);
	}
	free(first);
}

static const struct {
	const char *url;
	bool safe;
} safety[] = {
	{"https://example.org/", true},
	{"http://example.org/", true},
	{"HTTPS://EXAMPLE.ORG", true},
	{"mailto:a@example.org", true},
	{"ftp://example.org/f", true},
	{"", true},
	{"#section", true},
	{"?q=1", true},
	{"/abs/path", true},
	{"relative/page.md", true},
	{"cuda_setup.md", true},
	{"./a:b", true},
	{"dir/a:b", true},
	{"//example.org/x", true},
	{"a very long relative file name without any colon.md", true},
	{"caf\xC3\xA9:x", true}, /* not a valid scheme, so a relative path */
	{"a&b:c", true},          /* '&' is not a scheme character */
	{"javascript:alert(1)", false},
	{"JaVaScRiPt:alert(1)", false},
	{" javascript:alert(1)", false},
	{"\x01\x02javascript:alert(1)", false},
	{"java\tscript:alert(1)", false},
	{"java\nscript:alert(1)", false},
	{"jav&#x09;ascript:alert(1)", false},
	{"jav&#9;ascript:alert(1)", false},
	{"jav&Tab;ascript:alert(1)", false},
	{"&#106;avascript:alert(1)", false},
	{"&#x6A;avascript:alert(1)", false},
	{"&#x6a&#x61vascript:alert(1)", false},
	{"&#0000106;avascript:alert(1)", false},
	{"javascript&colon;alert(1)", false},
	{"javascript&#58;alert(1)", false},
	{"%6Aavascript:alert(1)", false},
	{"javascript%3Aalert(1)", false},
	{"vbscript:msgbox(1)", false},
	{"VBScript:x", false},
	{"data:text/html;base64,PHNjcmlwdD4=", false},
	{"data:image/png;base64,iVBOR", false},
	{"file:///etc/passwd", false},
	{"about:blank", false},
	{"c:\\windows", false},
	{"averyveryverylongschemename:x", false},
	{"javascript :alert(1)", false},
};

static void test_safety_table(void **state)
{
	(void)state;
	size_t n = sizeof safety / sizeof safety[0];
	assert_true(n >= 20);
	size_t failed = 0;
	for (size_t k = 0; k < n; k++) {
		if (url_is_safe(safety[k].url) != safety[k].safe) {
			print_error("url_is_safe(\"%s\") should be %s\n", safety[k].url,
				    safety[k].safe ? "true" : "false");
			failed++;
		}
	}
	assert_int_equal(failed, 0);
	assert_false(url_is_safe(NULL));
}

static void test_host_and_path(void **state)
{
	(void)state;
	static const char *cases[][3] = {
		{"https://www.GitHub.com/openai/triton/?x#y", "github.com", "/openai/triton/"},
		{"http://user:pw@Example.org:8080", "example.org", "/"},
		{"https://example.org./a", "example.org", "/a"},
		{"http://[::1]:8080/p", "[::1]", "/p"},
		{"ftp://Files.example.org/pub/x", "files.example.org", "/pub/x"},
		{" https://m.youtube.com/watch?v=1", "youtube.com", "/watch"},
		/* as url_canonical writes them, and the ones like them that a
		 * quick reading in place must leave to the general path */
		{"https://ex-ample.co.uk?q#f", "ex-ample.co.uk", "/"},
		{"https://example.com", "example.com", "/"},
		{"https://arxiv.org/abs/1706.03762", "arxiv.org", "/abs/1706.03762"},
		{"https://www.github.com/x", "github.com", "/x"},
		{"https://www.www.x.org/", "x.org", "/"},
		{"https://m.youtube.com/watch", "youtube.com", "/watch"},
		{"https://example.org../a", "example.org", "/a"},
		{"https://user@example.org/", "example.org", "/"},
		{"https://example.org:8080/", "example.org", "/"},
		{"https://a.b\tc.d/", "a.bc.d", "/"},
		{"https://example.com  ", "example.com", "/"},
		{"https://ex%41mple.com/", "example.com", "/"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char *h = url_host(cases[k][0]), *p = url_path(cases[k][0]);
		assert_non_null(h);
		assert_non_null(p);
		assert_string_equal(h, cases[k][1]);
		assert_string_equal(p, cases[k][2]);
		free(h);
		free(p);
	}
	static const char *none[] = {"mailto:a@b.org", "relative/x", "/abs", "https://", "", NULL};
	for (size_t k = 0; k < sizeof none / sizeof none[0]; k++) {
		assert_null(url_host(none[k]));
		assert_null(url_path(none[k]));
	}
}

static void test_match_pattern(void **state)
{
	(void)state;
	static const struct {
		const char *url, *pattern;
		bool match;
	} cases[] = {
		{"https://github.com/Dao-AILab/flash-attention", "github.com/Dao-AILab/*", true},
		{"https://github.com/Dao-AILab", "github.com/Dao-AILab/*", false},
		{"https://github.com/dao-ailab/x", "github.com/Dao-AILab/*", false}, /* path case */
		{"https://github.com/Dao-AILab/x", "GitHub.COM/Dao-AILab/*", true},  /* host case */
		{"https://github.com/NVIDIA/cutlass", "github.com/NVIDIA", true},
		{"https://github.com/NVIDIA", "github.com/NVIDIA", true},
		{"https://github.com/NVIDIA-AI/x", "github.com/NVIDIA", false},
		{"https://bitsandbytes.readthedocs.io/en/latest", "*.readthedocs.io", true},
		{"https://black.readthedocs.io", "*.readthedocs.io", true},
		{"https://readthedocs.io", "*.readthedocs.io", false},
		{"https://evilreadthedocs.io", "*.readthedocs.io", false},
		{"https://arxiv.org/abs/2205.14135", "arxiv.org/abs/*", true},
		{"https://arxiv.org/list/cs", "arxiv.org/abs/*", false},
		{"https://arxiv.org/abs/2205.14135", "arxiv.org", true},
		{"https://export.arxiv.org/abs/1", "arxiv.org", false},
		{"https://docs.nvidia.com/cuda/cublas", "docs.nvidia.com/*/cublas", true},
		{"https://docs.nvidia.com/cuda/x/cublas", "docs.nvidia.com/*/cublas", true},
		{"https://youtube.com/watch?v=1", "youtube.com/watch", true},
		{"https://youtube.com/watch?v=1", "https://www.youtube.com/watch", true},
		{"http://WWW.GitHub.com/openai/triton/", "github.com/openai/*", true},
		{"https://example.org", "*", true},
		{"https://example.org/a", "", false},
		{"not a url", "*", false},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		if (url_match_pattern(cases[k].url, cases[k].pattern) != cases[k].match)
			print_error("url_match_pattern(\"%s\", \"%s\") should be %d\n", cases[k].url,
				    cases[k].pattern, cases[k].match);
		assert_int_equal(url_match_pattern(cases[k].url, cases[k].pattern), cases[k].match);
	}
	assert_false(url_match_pattern(NULL, "*"));
	assert_false(url_match_pattern("https://a.org", NULL));
}

/* Hostile input: nothing may crash, leak or take quadratic time. */
/* url_canonical gives what the long way gives for url; true when that is
 * url itself (canonical as written). */
static bool same_both_ways(const char *url)
{
	char *general = url_canonical_general(url);
	bool as_written = general && !strcmp(general, url);
	/* a fixed point, however few passes the long way took to reach it */
	if (general)
		assert_same_string_or_null(url_canonical_general(general), xstrdup(general));
	assert_same_string_or_null(url_canonical(url), general);
	return as_written;
}

/* url_canonical's quick way with a URL canonical as written gives what the
 * long way gives, over random URLs built of the pieces each rule looks at. */
static void test_canonical_quick(void **state)
{
	(void)state;
	static const char *schemes[] = {"https://", "http://", "HTTPS://", "https:/", " https://",
					"https://"};
	static const char *hosts[] = {"example.org", "www.example.org", "m.youtube.com",
				      "youtube.com", "youtu.be", "arxiv.org", "a.b.", "x-y.z9",
				      "EXAMPLE.org", "ex%41mple.org", "", "a.org:443", "u@a.org",
				      "github.com", "www.", "arxiv.org.", "wwwx.org"};
	static const char *segs[] = {"a", "b.c", "~u", "-_", "!$&'()*+,;=:@", "%41", "%2f", "%zz",
				     ".", "..", "", "\xc3\xa9", "v1", "2205.14135v2", "2205.14135",
				     "abs", "pdf", "x.pdf", " ", "\t", "embed", "1v1v2", "Ab9",
				     "a\\b", "<x>", "..."};
	static const char *tails[] = {"", "", "", "/", "?", "?q=1", "?utm_source=x", "#top",
				      "?v=1&si=2", " "};
	unsigned seed = 11;
	size_t same = 0;
	for (int round = 0; round < 50000; round++) {
		char url[256];
		size_t n = 0;
#define PICK(v) ((v)[((seed = seed * 1103515245u + 12345u) >> 16) % (sizeof(v) / sizeof *(v))])
		n += (size_t)snprintf(url + n, sizeof url - n, "%s", PICK(schemes));
		n += (size_t)snprintf(url + n, sizeof url - n, "%s", PICK(hosts));
		size_t nsegs = ((seed = seed * 1103515245u + 12345u) >> 16) % 5;
		for (size_t k = 0; k < nsegs; k++)
			n += (size_t)snprintf(url + n, sizeof url - n, "/%s", PICK(segs));
		snprintf(url + n, sizeof url - n, "%s", PICK(tails));
#undef PICK
		same += same_both_ways(url);
	}
	assert_true(same > 1000); /* the quick way had URLs to take */
	/* and every one or two segments under each special site's paths */
	static const char *special[] = {"https://arxiv.org/abs", "https://arxiv.org/pdf",
					"https://arxiv.org", "https://youtu.be",
					"https://youtube.com/embed", "https://youtube.com",
					"https://www.example.org", "https://m.youtube.com"};
	for (size_t h = 0; h < sizeof special / sizeof *special; h++)
		for (size_t a = 0; a < sizeof segs / sizeof *segs; a++)
			for (size_t b = 0; b <= sizeof segs / sizeof *segs; b++) {
				char url[256];
				snprintf(url, sizeof url, "%s/%s%s%s", special[h], segs[a],
					 b ? "/" : "", b ? segs[b - 1] : "");
				same_both_ways(url);
			}
}

/* url_match_key is the host, then the path unless it is the root: its quick
 * way with a URL read in place gives that, over random URLs of the bytes
 * that matter. */
static void test_match_key(void **state)
{
	(void)state;
	unsigned seed = 7;
	static const char *heads[] = {"https://", "http://", "HTTP://", " https://", "git+ssh://",
				      "https:/", "h://", "https://www.", "https://m."};
	static const char pick[] = "ab.-/?#%: \t\x01Ay1";
	for (int round = 0; round < 20000; round++) {
		char url[48];
		seed = seed * 1103515245u + 12345u;
		strcpy(url, heads[(seed >> 16) % (sizeof heads / sizeof *heads)]);
		size_t at = strlen(url), len = (seed = seed * 1103515245u + 12345u) >> 16 & 31;
		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			url[at + i] = pick[(seed >> 16) % (sizeof pick - 1)];
		}
		url[at + len] = '\0';
		char *host = url_host(url), *path = url_path(url);
		char *want = NULL;
		if (host && path)
			want = !strcmp(path, "/") ? strdup(host) : xconcat(host, path, NULL);
		assert_same_string_or_null(url_match_key(url), want);
		free(host);
		free(path);
	}
	char *k = url_match_key("https://github.com/triton-lang/triton?tab=readme#top");
	assert_string_equal(k, "github.com/triton-lang/triton");
	free(k);
	k = url_match_key("https://arxiv.org/");
	assert_string_equal(k, "arxiv.org");
	free(k);
}

static void test_hostile(void **state)
{
	(void)state;
	static const char *odd[] = {
		"https://example.org/%", "https://example.org/%4", "https://example.org/?%",
		"https://example.org/%GG%", "http://[::1]:8080/", "http://[::1]:/", "http://[",
		"http://]", "http://@", "http://user:pw@", "http://:80", "https://a:b:c/",
		"https://example.org/../../../../", "https://youtu.be/a/b", "https://arxiv.org/pdf/",
		"https://arxiv.org/abs/v1", "https://arxiv.org/pdf/.pdf", "https://arxiv.org/pdf/v2.pdf",
		"&", "&#", "&#x", "&#xZZ;", "&#99999999999999999999;", "%", "%6", ":", "::::",
		"\x80\xff:", "https://\xff\xfe/", "http://a?b#c",
	};
	for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
		free(url_canonical(odd[k]));
		free(url_host(odd[k]));
		free(url_path(odd[k]));
		(void)url_is_safe(odd[k]);
		(void)url_match_pattern(odd[k], "*a*b*c*");
	}
	/* 1 MB URLs: long path, many slashes, many parameters, many dots. */
	size_t big = 1 << 20;
	char *u = malloc(big + 64);
	strcpy(u, "https://example.org/");
	size_t off = strlen(u);
	for (int kind = 0; kind < 4; kind++) {
		static const char *unit[] = {"a", "/", "&x=1", "../"};
		size_t ul = strlen(unit[kind]);
		size_t i = off;
		if (kind == 2)
			u[i++] = '?';
		for (; i + ul < big; i += ul)
			memcpy(u + i, unit[kind], ul);
		u[i] = '\0';
		char *c = url_canonical(u);
		assert_non_null(c);
		assert_true(strncmp(c, "https://example.org", 19) == 0);
		free(c);
		assert_true(url_is_safe(u));
		(void)url_match_pattern(u, "example.org/*a*b*c*d");
	}
	/* A host of 250,000 "www." (each was stripped by moving the rest: 5 s
	 * for 300,000), then the trailing dots it hides. */
	strcpy(u, "http://");
	off = strlen(u);
	for (size_t i = 0; i < 250000; i++, off += 4)
		memcpy(u + off, "www.", 4);
	strcpy(u + off, "x.org.../p");
	char *h = url_canonical(u);
	assert_string_equal(h, "https://x.org/p"); /* http upgraded, as every URL is */
	free(h);
	/* A 1 MB would-be scheme. */
	memset(u, 'j', big);
	u[big] = ':';
	u[big + 1] = '\0';
	assert_false(url_is_safe(u));
	assert_null(url_canonical(u));
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_canonical_table),
		cmocka_unit_test(test_canonical_idempotent),
		cmocka_unit_test(test_match_key),
		cmocka_unit_test(test_canonical_quick),
		cmocka_unit_test(test_safety_table),
		cmocka_unit_test(test_host_and_path),
		cmocka_unit_test(test_match_pattern),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
