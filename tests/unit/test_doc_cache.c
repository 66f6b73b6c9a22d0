/* test_doc_cache: a document survives the cache field for field; an entry
 * under another digest or env is not used; a damaged file (cut at every
 * length, bytes flipped) never crashes and never yields a half document;
 * a document's record leaves out only its body (and the hash of each
 * citation's URL, which the entry keeps). */
#include "testutil.h"

#include <pthread.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "doc.h"
#include "doc_cache.h"
#include "xalloc.h"

static const char ENV[33] = "0123456789abcdef0123456789abcdef";

static void sample_doc(struct doc *d)
{
	memset(d, 0, sizeof *d);
	d->relpath = xstrdup("guides/intro.md");
	d->shown = xstrdup("content/guides/intro.md");
	d->format = FMT_RST;
	d->meta.title = xstrdup("Front-matter title");
	d->meta.date = xstrdup("2024-05-01");
	d->meta.weight = -7;
	d->meta.has_weight = true;
	d->meta.ntopics = 2;
	d->meta.topics = xcalloc(3, sizeof *d->meta.topics);
	d->meta.topics[0] = xstrdup("cuda");
	d->meta.topics[1] = xstrdup("triton");
	d->meta.topics_line = 3;
	d->title = xstrdup("Intro \xc3\xa9");
	d->body = xstrdup("<p>Body with a \x1emarker\x1f</p>\n");
	d->nanchors = 1;
	d->anchors = xcalloc(1, sizeof *d->anchors);
	d->anchors[0] = xstrdup("setup");
	d->nheadings = 2;
	d->headings = xcalloc(2, sizeof *d->headings);
	d->headings[0] = (struct heading){xstrdup("Intro"), xstrdup("intro"), 1, 1, -1, NULL};
	d->headings[1] = (struct heading){xstrdup("Setup"), xstrdup("setup"), 2, 9, 0, NULL};
	d->ncites = 1;
	d->cites = xcalloc(1, sizeof *d->cites);
	d->cites[0] = (struct citation){.url = xstrdup("https://arxiv.org/abs/2205.14135v2"),
					.canonical = xstrdup("https://arxiv.org/abs/2205.14135"),
					.text = xstrdup("FlashAttention"),
					.title = xstrdup("FlashAttention"),
					.desc = NULL, .line = 12, .col = 3, .heading = 1,
					.bare = true, .listing = true, .entry = 1,
					.resource = 5, .canon_hash = 0xfeedf00d12345678ULL};
	d->nilinks = 1;
	d->ilinks = xcalloc(1, sizeof *d->ilinks);
	d->ilinks[0] = (struct ilink){.url = xstrdup("../other.md#x"), .line = 14, .col = 2,
				      .target = 3};
	d->nimages = 1;
	d->images = xcalloc(1, sizeof *d->images);
	d->images[0] = (struct image){xstrdup("img/plot.png"), 16, 5};
	d->hash = 0x1234567890abcdefULL;
	diag_addc(&d->diags, SEV_WARNING, "missing-file", "content/guides/intro.md", 14, 2,
		  "link to a file that does not exist: %s", "tab\there");
}

static char *write_cache(struct doc *d, const unsigned long long dg[2], char *dir)
{
	strcpy(dir, "/tmp/ssg-doccache-XXXXXX");
	assert_non_null(mkdtemp(dir));
	char *file = xasprintf("%s/.ssg-cache/documents.bin", dir);
	struct buf entries[2] = {BUF_INIT, BUF_INIT};
	doc_cache_put(&entries[0], d, dg);
	const char *rels[2] = {d->relpath, "gone.md"};
	struct doc_cache none = {0};
	assert_int_equal(doc_cache_update(&none, dir, ENV, rels, entries, 2), 0);
	buf_free(&entries[0]);
	return file;
}

static void remove_cache(const char *file, const char *dir)
{
	unlink(file);
	char *index = xasprintf("%s/.ssg-cache/" DOC_CACHE_INDEX, dir);
	unlink(index);
	free(index);
	char *sub = xasprintf("%s/.ssg-cache", dir);
	rmdir(sub);
	free(sub);
	rmdir(dir);
}

static void test_round_trip(void **state)
{
	(void)state;
	struct doc d;
	sample_doc(&d);
	unsigned long long dg[2] = {11, 22};
	char dir[64];
	char *file = write_cache(&d, dg, dir);
	struct doc_cache c;
	doc_cache_load(&c, dir, ENV);
	assert_int_equal(c.nkeys, 1);
	struct doc got = {.index = 4, .relpath = xstrdup("guides/intro.md"),
			  .shown = xstrdup("content/guides/intro.md")};
	assert_true(doc_cache_get(&c, "guides/intro.md", dg, &got));
	assert_int_equal(got.index, 4);
	assert_int_equal(got.format, FMT_RST);
	assert_string_equal(got.meta.title, "Front-matter title");
	assert_null(got.meta.slug);
	assert_int_equal(got.meta.weight, -7);
	assert_true(got.meta.has_weight);
	assert_false(got.meta.draft);
	assert_int_equal(got.meta.ntopics, 2);
	assert_string_equal(got.meta.topics[1], "triton");
	assert_string_equal(got.title, d.title);
	assert_string_equal(got.body, d.body);
	assert_int_equal(got.nheadings, 2);
	assert_int_equal(got.headings[1].parent, 0);
	assert_string_equal(got.headings[1].id, "setup");
	assert_string_equal(got.headings[0].text, "Intro");
	assert_string_equal(got.headings[0].id, "intro");
	assert_string_equal(got.headings[1].text, "Setup");
	/* each array filled whole, with a zeroed element after its last */
	assert_int_equal(got.nanchors, 1);
	assert_string_equal(got.anchors[0], "setup");
	assert_null(got.anchors[1]);
	assert_null(got.headings[2].text);
	assert_null(got.cites[0].node);
	assert_null(got.cites[1].url);
	assert_int_equal(got.ncites, 1);
	assert_string_equal(got.cites[0].canonical, "https://arxiv.org/abs/2205.14135");
	assert_null(got.cites[0].desc);
	assert_true(got.cites[0].bare);
	assert_true(got.cites[0].listing);
	assert_int_equal(got.cites[0].entry, 1);
	assert_int_equal(got.cites[0].heading, 1);
	assert_int_equal(got.cites[0].resource, -1); /* the model sets it again */
	/* the merge's hash of the URL comes back, not taken again */
	assert_true(got.cites[0].canon_hash == 0xfeedf00d12345678ULL);
	assert_int_equal(got.nilinks, 1);
	assert_int_equal(got.ilinks[0].target, -1);
	assert_null(got.ilinks[0].anchor);
	assert_int_equal(got.nimages, 1);
	assert_string_equal(got.images[0].url, "img/plot.png");
	assert_int_equal(got.images[0].line, 16);
	assert_int_equal(got.images[0].col, 5);
	assert_int_equal(got.hash, d.hash);
	assert_int_equal(got.diags.n, 1);
	assert_string_equal(got.diags.v[0].msg, "link to a file that does not exist: tab\there");
	assert_string_equal(got.diags.v[0].code, "missing-file");
	/* another digest, another path, another env: not used */
	unsigned long long other[2] = {11, 23};
	struct doc miss = {0};
	assert_false(doc_cache_get(&c, "guides/intro.md", other, &miss));
	assert_false(doc_cache_get(&c, "guides/other.md", dg, &miss));
	assert_null(miss.title);
	doc_cache_free(&c);
	doc_cache_load(&c, dir, "ffffffffffffffffffffffffffffffff");
	assert_int_equal(c.nkeys, 0);
	assert_false(doc_cache_get(&c, "guides/intro.md", dg, &miss));
	doc_cache_free(&c);
	doc_free(&got);
	doc_free(&d);
	remove_cache(file, dir);
	free(file);
}

/* With borrow_strings, a document's strings are the mapped file's bytes:
 * the same strings as a copy gives, lying inside the mapping, and left
 * alone by doc_free (the mapping is whoever kept it's to unmap). */
static void test_borrowed_strings(void **state)
{
	(void)state;
	struct doc d;
	sample_doc(&d);
	unsigned long long dg[2] = {5, 6};
	char dir[64];
	char *file = write_cache(&d, dg, dir);
	struct doc_cache c;
	doc_cache_load(&c, dir, ENV);
	c.borrow_strings = true;
	c.map_kept = true;
	const char *data = c.data;
	size_t len = c.len;
	struct doc got = {0};
	assert_true(doc_cache_get(&c, "guides/intro.md", dg, &got));
	assert_true(got.strings_mapped);
	const char *strs[] = {got.headings[0].text, got.headings[1].id, got.cites[0].url,
			      got.cites[0].canonical, got.cites[0].title, got.ilinks[0].url};
	for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
		assert_non_null(strs[i]);
		assert_true(strs[i] >= data && strs[i] < data + len);
	}
	assert_string_equal(got.headings[1].id, d.headings[1].id);
	assert_string_equal(got.cites[0].canonical, "https://arxiv.org/abs/2205.14135");
	assert_string_equal(got.cites[0].title, d.cites[0].title);
	assert_string_equal(got.ilinks[0].url, d.ilinks[0].url);
	doc_cache_free(&c); /* leaves the mapping */
	assert_string_equal(got.cites[0].url, d.cites[0].url);
	doc_free(&got);
	assert_int_equal(munmap((void *)data, len), 0);
	doc_free(&d);
	remove_cache(file, dir);
	free(file);
}

/* Every cut and many flipped bytes: a get either fails or gives a whole doc,
 * whose indices (a citation's section, a section's parent) are in range. */
static void test_damaged(void **state)
{
	(void)state;
	struct doc d;
	sample_doc(&d);
	unsigned long long dg[2] = {1, 2};
	char dir[64];
	char *file = write_cache(&d, dg, dir);
	size_t n = 0;
	char *bytes = test_read_file(file, &n);
	assert_non_null(bytes);
	size_t whole = 0, refused = 0;
	for (size_t variant = 0; variant < n + 2000; variant++) {
		char *copy = malloc(n);
		memcpy(copy, bytes, n);
		size_t len = n;
		if (variant < n)
			len = variant; /* cut */
		else if (variant > n) {
			srand((unsigned)variant);
			for (int k = 0; k < 3; k++) /* flip a few bytes past the header */
				copy[34 + (size_t)rand() % (n - 34)] ^= (char)(1 + rand() % 255);
		}
		FILE *f = fopen(file, "wb");
		fwrite(copy, 1, len, f);
		fclose(f);
		struct doc_cache c;
		doc_cache_load(&c, dir, ENV);
		c.borrow_strings = variant & 1; /* strings used in place: the same checks */
		struct doc got = {0};
		if (doc_cache_get(&c, "guides/intro.md", dg, &got)) {
			assert_non_null(got.title);
			assert_non_null(got.body);
			for (size_t i = 0; i < got.ncites; i++)
				assert_true(got.cites[i].heading < (int)got.nheadings);
			/* a section's parent is a section before it, or none:
			 * classifying reads the parent's row (taxonomy.c) */
			for (size_t i = 0; i < got.nheadings; i++)
				assert_true(got.headings[i].parent >= -1 &&
					    got.headings[i].parent < (int)i);
			whole++;
		} else
			refused++;
		doc_free(&got);
		doc_cache_free(&c);
		free(copy);
	}
	assert_true(whole >= 1);   /* the intact file (variant n), at least */
	assert_true(refused >= n); /* every cut short of the whole */
	free(bytes);
	doc_free(&d);
	remove_cache(file, dir);
	free(file);
}

/* A second build appends the documents it read afresh; a later entry wins;
 * the old entries stay usable; a file that is mostly dead is rewritten. */
static void test_update(void **state)
{
	(void)state;
	struct doc d;
	sample_doc(&d);
	unsigned long long v1[2] = {1, 1}, v2[2] = {2, 2};
	char dir[64];
	char *file = write_cache(&d, v1, dir);
	struct doc_cache c;
	doc_cache_load(&c, dir, ENV);
	size_t first = c.len;
	/* the document changed: its new entry is appended */
	free(d.title);
	d.title = xstrdup("Second version");
	struct buf e[1] = {BUF_INIT};
	doc_cache_put(&e[0], &d, v2);
	const char *rels[1] = {d.relpath};
	assert_int_equal(doc_cache_update(&c, dir, ENV, rels, e, 1), 0);
	doc_cache_free(&c);
	doc_cache_load(&c, dir, ENV);
	assert_int_equal(c.len, first + e[0].n);
	struct doc got = {0};
	assert_false(doc_cache_get(&c, "guides/intro.md", v1, &got));
	assert_true(doc_cache_get(&c, "guides/intro.md", v2, &got));
	assert_string_equal(got.title, "Second version");
	doc_free(&got);
	/* many more versions: the file is rewritten once dead entries dominate */
	size_t largest = 0, shrank = 0, last = c.len;
	for (int k = 3; k < 2600; k++) {
		unsigned long long vk[2] = {(unsigned long long)k, 0};
		buf_reset(&e[0]);
		doc_cache_put(&e[0], &d, vk);
		assert_int_equal(doc_cache_update(&c, dir, ENV, rels, e, 1), 0);
		doc_cache_free(&c);
		doc_cache_load(&c, dir, ENV);
		if (c.len > largest)
			largest = c.len;
		shrank += c.len < last;
		last = c.len;
		struct doc again = {0};
		assert_true(doc_cache_get(&c, "guides/intro.md", vk, &again));
		doc_free(&again);
	}
	assert_true(shrank >= 1); /* rewritten at least once */
	assert_true(largest <= 2 * e[0].n + (1u << 20) + 64 + e[0].n);
	/* nothing new: nothing written */
	size_t before = c.len;
	buf_reset(&e[0]);
	assert_int_equal(doc_cache_update(&c, dir, ENV, rels, e, 1), 0);
	doc_cache_free(&c);
	doc_cache_load(&c, dir, ENV);
	assert_int_equal(c.len, before);
	doc_cache_free(&c);
	buf_free(&e[0]);
	doc_free(&d);
	remove_cache(file, dir);
	free(file);
}

/* Entries put out of order, from two threads, come out whole and in order. */
struct put_job {
	struct doc_cache_stream *st;
	size_t from, step, n;
	size_t changed; /* the document whose body differs (n: none) */
	struct doc *docs; /* the documents, whose bodies the stream leaves in the file */
};

/* Two versions of a document have the same record exactly when all that the
 * model and the other pages see of them is the same: the body, its word
 * count and the file's digest do not count; every other field does. */
static void test_record(void **state)
{
	(void)state;
	struct doc a, b;
	sample_doc(&a);
	sample_doc(&b);
	assert_true(doc_cache_same_record(&a, &b));
	free(b.body);
	b.body = xstrdup("<p>Other prose, the same \x1emarker\x1f</p>\n");
	b.hash = 1;
	assert_true(doc_cache_same_record(&a, &b));
	/* nor what only check reads: where a link is listed, the images */
	b.cites[0].listing = false;
	b.cites[0].entry = 0;
	free(b.images[0].url);
	b.images[0].url = xstrdup("img/other.png");
	assert_true(doc_cache_same_record(&a, &b));
	/* each of these is seen beyond the page: the record differs */
	free(b.cites[0].desc);
	b.cites[0].desc = xstrdup("a description now");
	assert_false(doc_cache_same_record(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	b.headings[1].line = 10;
	assert_false(doc_cache_same_record(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	free(b.anchors[0]);
	b.anchors[0] = xstrdup("set-up");
	assert_false(doc_cache_same_record(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	b.meta.weight = 1;
	assert_false(doc_cache_same_record(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	diag_add(&b.diags, SEV_NOTE, "content/guides/intro.md", 20, 1, "a note");
	assert_false(doc_cache_same_record(&a, &b));
	doc_free(&b);
	doc_free(&a);
}

/* The same record but for its entries' descriptions (build_descs.h): an
 * entry's description may differ, and the prose; nothing else. */
static void test_same_but_descs(void **state)
{
	(void)state;
	struct doc a, b;
	sample_doc(&a);
	sample_doc(&b);
	assert_true(doc_cache_same_but_descs(&a, &b));
	free(b.cites[0].desc);
	b.cites[0].desc = xstrdup("a description now");
	free(b.body);
	b.body = xstrdup("<p>Other prose</p>\n");
	assert_false(doc_cache_same_record(&a, &b));
	assert_true(doc_cache_same_but_descs(&a, &b));
	assert_true(doc_cache_same_but_descs(&b, &a));
	free(b.cites[0].desc);
	b.cites[0].desc = NULL;
	assert_true(doc_cache_same_but_descs(&a, &b));
	/* the entry's title, its link's text, its place: seen beyond the pages */
	free(b.cites[0].title);
	b.cites[0].title = xstrdup("Another title");
	assert_false(doc_cache_same_but_descs(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	free(b.cites[0].text);
	b.cites[0].text = xstrdup("other text");
	assert_false(doc_cache_same_but_descs(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	b.cites[0].line++;
	assert_false(doc_cache_same_but_descs(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	free(b.description);
	b.description = xstrdup("The document's own description");
	assert_false(doc_cache_same_but_descs(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	diag_add(&b.diags, SEV_WARNING, "content/guides/intro.md", 20, 1, "a warning");
	assert_false(doc_cache_same_but_descs(&a, &b));
	doc_free(&b);
	doc_free(&a);
}

/* A second citation, added after sample_doc's. */
static void add_cite(struct doc *d, const char *url)
{
	d->cites = xrealloc(d->cites, (d->ncites + 1) * sizeof *d->cites);
	d->cites[d->ncites++] = (struct citation){.url = xstrdup(url), .canonical = xstrdup(url),
						  .text = xstrdup("New"), .title = xstrdup("New"),
						  .line = 20, .col = 3, .heading = 1, .resource = -1};
}

/* A page can be previewed from its last version (build_patch.h) when its
 * format, front matter and links to other files are the same, whatever
 * else changed (citations, headings, title, description, positions,
 * warnings), and the document has no error. */
static void test_previewable(void **state)
{
	(void)state;
	struct doc a, b;
	sample_doc(&a);
	sample_doc(&b);
	assert_true(doc_cache_previewable(&a, &b));
	/* an entry's words */
	free(b.cites[0].desc);
	b.cites[0].desc = xstrdup("a description now");
	free(b.cites[0].text);
	b.cites[0].text = xstrdup("FlashAttention, again");
	b.cites[0].bare = false;
	assert_false(doc_cache_same_record(&a, &b));
	assert_true(doc_cache_previewable(&a, &b));
	/* positions and warnings */
	b.cites[0].line = 13;
	b.headings[1].line = 10;
	b.ilinks[0].col = 5;
	diag_add(&b.diags, SEV_WARNING, "content/guides/intro.md", 20, 1, "a warning");
	assert_true(doc_cache_previewable(&a, &b));
	/* a link added, another one put in the place of the first, and back */
	add_cite(&b, "https://example.org/new");
	assert_true(doc_cache_previewable(&a, &b));
	free(b.cites[0].canonical);
	b.cites[0].canonical = xstrdup("https://example.org/other");
	b.cites[0].heading = 0;
	assert_true(doc_cache_previewable(&a, &b));
	assert_true(doc_cache_previewable(&b, &a));
	/* headings, anchors, the title and the description */
	free(b.headings[1].text);
	b.headings[1].text = xstrdup("Set-up");
	b.headings[1].level = 3;
	free(b.anchors[0]);
	b.anchors[0] = xstrdup("set-up");
	free(b.title);
	b.title = xstrdup("Another title");
	b.description = xstrdup("A description now.");
	assert_true(doc_cache_previewable(&a, &b));
	/* never with an error */
	diag_add(&b.diags, SEV_ERROR, "content/guides/intro.md", 21, 1, "an error");
	assert_false(doc_cache_previewable(&a, &b));
	doc_free(&b);
	/* the front matter and the links to other files are seen beyond the
	 * document's page: its place, its topics, other documents' pages */
	sample_doc(&b);
	b.meta.weight = 1;
	assert_false(doc_cache_previewable(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	free(b.meta.topics[1]);
	b.meta.topics[1] = xstrdup("pytorch");
	assert_false(doc_cache_previewable(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	free(b.meta.title);
	b.meta.title = xstrdup("Another front-matter title");
	assert_false(doc_cache_previewable(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	free(b.ilinks[0].url);
	b.ilinks[0].url = xstrdup("../elsewhere.md");
	assert_false(doc_cache_previewable(&a, &b));
	doc_free(&b);
	sample_doc(&b);
	b.format = FMT_MARKDOWN;
	assert_false(doc_cache_previewable(&a, &b));
	doc_free(&b);
	doc_free(&a);
}

#define SAMPLE_BODY "<p>Body with a \x1emarker\x1f</p>\n"
#define OTHER_BODY "<p>Another body</p>\n"

static void *put_some(void *arg)
{
	struct put_job *pj = arg;
	for (size_t k = pj->from; k < pj->n; k += pj->step) {
		size_t i = pj->n - 1 - k; /* backwards: the writer waits for the first */
		struct doc *d = &pj->docs[i];
		sample_doc(d);
		free(d->relpath);
		d->relpath = xasprintf("doc%zu.md", i);
		if (i == pj->changed) {
			free(d->body);
			d->body = xstrdup(OTHER_BODY);
		}
		struct buf e = BUF_INIT;
		unsigned long long dg[2] = {i, i};
		size_t body_at = SIZE_MAX;
		if (i % 7) /* every seventh has no entry */
			body_at = doc_cache_put(&e, d, dg);
		doc_cache_stream_put(pj->st, i, &e, d, body_at);
	}
	return NULL;
}

/* The stream's documents once it ended: when it put its file in place
 * (all_left), every document with an entry has its body in the file, read
 * back through fd as it was; otherwise each body is in the file (read back)
 * or still in memory. Returns how many were in the file; frees them. */
static size_t check_bodies(struct doc *docs, size_t n, size_t changed, int fd, bool all_left)
{
	size_t left = 0;
	for (size_t i = 0; i < n; i++) {
		struct doc *d = &docs[i];
		const char *want = i == changed ? OTHER_BODY : SAMPLE_BODY;
		if (i % 7 && all_left)
			assert_true(d->body_in_cache);
		if (d->body_in_cache) {
			assert_true(fd > 2);
			assert_null(d->body);
			assert_string_equal(doc_cache_body(d, fd), want);
			/* left there again, and read back again */
			doc_cache_body_drop(d);
			assert_null(d->body);
			assert_string_equal(doc_cache_body(d, fd), want);
			left++;
		} else
			assert_string_equal(d->body, want);
		doc_free(d);
	}
	free(docs);
	if (fd > 2)
		close(fd);
	return left;
}

/* Stream n documents into dir's cache from two threads; the one numbered
 * changed gets another body. Every body is then checked (check_bodies). */
static int stream_docs(const char *dir, size_t n, size_t changed)
{
	struct doc_cache_stream *st = doc_cache_stream_begin(dir, ENV, n);
	assert_non_null(st);
	struct doc *docs = xcalloc(n + 1, sizeof *docs);
	struct put_job a = {st, 0, 2, n, changed, docs}, b = {st, 1, 2, n, changed, docs};
	pthread_t ta, tb;
	assert_int_equal(pthread_create(&ta, NULL, put_some, &a), 0);
	assert_int_equal(pthread_create(&tb, NULL, put_some, &b), 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	int fd;
	int rc = doc_cache_stream_end(st, &fd);
	assert_int_equal(rc, 0);
	assert_int_equal(check_bodies(docs, n, changed, fd, true), n - (n + 6) / 7);
	return rc;
}

/* A stream that cannot write its new file (its temporary name is taken) has
 * left the bodies that agreed with the file in place there, and keeps the
 * others in memory. */
static void test_stream_fails(void **state)
{
	(void)state;
	char dir[64];
	strcpy(dir, "/tmp/ssg-docstream-XXXXXX");
	assert_non_null(mkdtemp(dir));
	size_t n = 300, changed = 150;
	assert_int_equal(stream_docs(dir, n, n), 0);
	struct doc_cache_stream *st = doc_cache_stream_begin(dir, ENV, n);
	assert_non_null(st);
	char *tmp = xasprintf("%s/.ssg-cache/documents.bin.%ld.tmp", dir, (long)getpid());
	assert_int_equal(mkdir(tmp, 0755), 0);
	struct doc *docs = xcalloc(n + 1, sizeof *docs);
	struct put_job a = {st, 0, 1, n, changed, docs};
	put_some(&a);
	int fd;
	assert_int_equal(doc_cache_stream_end(st, &fd), -1);
	/* the documents before the one that differs, less every seventh */
	assert_int_equal(check_bodies(docs, n, changed, fd, false), changed - (changed + 6) / 7);
	assert_int_equal(rmdir(tmp), 0);
	free(tmp);
	char *file = xasprintf("%s/.ssg-cache/documents.bin", dir);
	remove_cache(file, dir);
	free(file);
}

/* Streamed documents come back from the cache, in order, through the index
 * the stream left: fewer than one of the writer's batches, and many batches
 * with a part of one at the end. */
static void test_stream(void **state)
{
	(void)state;
	static const size_t sizes[] = {5, 300};
	for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
		char dir[64];
		strcpy(dir, "/tmp/ssg-docstream-XXXXXX");
		assert_non_null(mkdtemp(dir));
		size_t n = sizes[z];
		assert_int_equal(stream_docs(dir, n, n), 0);
		struct doc_cache c;
		doc_cache_load(&c, dir, ENV);
		assert_true(c.valid);
		/* the stream left its index: the load did not walk the file */
		assert_true(c.from_index);
		assert_int_equal(c.nkeys, n - (n + 6) / 7);
		for (size_t i = 0; i < n; i++) {
			char rel[32];
			snprintf(rel, sizeof rel, "doc%zu.md", i);
			unsigned long long dg[2] = {i, i};
			struct doc got = {0};
			assert_int_equal(doc_cache_get(&c, rel, dg, &got), i % 7 != 0);
			if (i % 7) {
				assert_string_equal(got.body, "<p>Body with a \x1emarker\x1f</p>\n");
				/* in order: each key follows the one before */
				assert_string_equal(c.keys[i - i / 7 - 1], rel);
			}
			doc_free(&got);
		}
		doc_cache_free(&c);
		char *file = xasprintf("%s/.ssg-cache/documents.bin", dir);
		remove_cache(file, dir);
		free(file);
	}
}

static char *cache_bytes(const char *dir, size_t *n, ino_t *ino)
{
	char *file = xasprintf("%s/.ssg-cache/documents.bin", dir);
	struct stat st;
	assert_int_equal(stat(file, &st), 0);
	*ino = st.st_ino;
	char *p = test_read_file(file, n);
	free(file);
	return p;
}

/* A stream whose bytes are those of the file in place leaves the file as it
 * is (the same inode: never rewritten); any difference, in the middle, a
 * shorter or a longer cache, gives the file a fresh stream writes. */
static void test_stream_same_bytes(void **state)
{
	(void)state;
	char dir[64], fresh[64];
	strcpy(dir, "/tmp/ssg-docstream-XXXXXX");
	assert_non_null(mkdtemp(dir));
	size_t n = 300, len0, len;
	ino_t ino0, ino;
	assert_int_equal(stream_docs(dir, n, n), 0);
	char *first = cache_bytes(dir, &len0, &ino0);
	assert_int_equal(stream_docs(dir, n, n), 0);
	char *again = cache_bytes(dir, &len, &ino);
	assert_int_equal(ino, ino0);
	assert_int_equal(len, len0);
	assert_memory_equal(again, first, len);
	free(again);
	/* each variant against what a stream into an empty folder writes */
	static const size_t variants[][2] = {{300, 150}, {300, 0}, {300, 299}, {200, 200},
					     {310, 310}, {300, 300}};
	for (size_t k = 0; k < sizeof variants / sizeof *variants; k++) {
		size_t vn = variants[k][0], changed = variants[k][1];
		assert_int_equal(stream_docs(dir, vn, changed), 0);
		strcpy(fresh, "/tmp/ssg-docstream-XXXXXX");
		assert_non_null(mkdtemp(fresh));
		assert_int_equal(stream_docs(fresh, vn, changed), 0);
		size_t want_len;
		ino_t fresh_ino, before = ino;
		char *want = cache_bytes(fresh, &want_len, &fresh_ino);
		char *got = cache_bytes(dir, &len, &ino);
		assert_int_equal(len, want_len);
		assert_memory_equal(got, want, len);
		/* rewritten exactly when the bytes changed */
		bool differs = len != len0 || memcmp(got, first, len) != 0;
		assert_int_equal(ino != before, differs);
		free(first);
		first = got;
		len0 = len;
		free(want);
		char *file = xasprintf("%s/.ssg-cache/documents.bin", fresh);
		remove_cache(file, fresh);
		free(file);
	}
	free(first);
	char *file = xasprintf("%s/.ssg-cache/documents.bin", dir);
	remove_cache(file, dir);
	free(file);
}

/* The bytes of dir's documents.idx (n set), or NULL. */
static char *index_bytes(const char *dir, size_t *n)
{
	char *path = xasprintf("%s/.ssg-cache/" DOC_CACHE_INDEX, dir);
	char *b = test_read_file(path, n);
	free(path);
	return b;
}

static void put_index(const char *dir, const char *b, size_t n)
{
	char *path = xasprintf("%s/.ssg-cache/" DOC_CACHE_INDEX, dir);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
	free(path);
}

/* documents.idx: a load reads it instead of walking the large file, for as
 * long as it describes the file in place (written, appended to or walked by
 * ssg itself); the file changed otherwise, it is walked again; an index
 * whose offsets are wrong gives no document another's entry. */
static void test_index(void **state)
{
	(void)state;
	struct doc a, b;
	sample_doc(&a);
	sample_doc(&b);
	free(b.relpath);
	b.relpath = xstrdup("guides/other.md");
	free(b.title);
	b.title = xstrdup("Other");
	char dir[64];
	strcpy(dir, "/tmp/ssg-docindex-XXXXXX");
	assert_non_null(mkdtemp(dir));
	/* b's digest is a's second one: two files with the same bytes */
	unsigned long long va[2] = {1, 1}, vb[2] = {3, 3}, va2[2] = {3, 3};
	struct buf e[2] = {BUF_INIT, BUF_INIT};
	doc_cache_put(&e[0], &a, va);
	doc_cache_put(&e[1], &b, vb);
	const char *rels[2] = {a.relpath, b.relpath};
	struct doc_cache none = {0}, c;
	assert_int_equal(doc_cache_update(&none, dir, ENV, rels, e, 2), 0);
	doc_cache_load(&c, dir, ENV);
	assert_true(c.valid);
	assert_true(c.from_index);
	struct doc got = {0};
	assert_true(doc_cache_get(&c, "guides/other.md", vb, &got));
	assert_string_equal(got.title, "Other");
	doc_free(&got);
	/* an appended entry: the index follows */
	free(a.title);
	a.title = xstrdup("Second");
	buf_reset(&e[0]);
	buf_reset(&e[1]);
	doc_cache_put(&e[0], &a, va2);
	assert_int_equal(doc_cache_update(&c, dir, ENV, rels, e, 2), 0);
	doc_cache_free(&c);
	doc_cache_load(&c, dir, ENV);
	assert_true(c.from_index);
	assert_false(doc_cache_get(&c, "guides/intro.md", va, &got));
	assert_true(doc_cache_get(&c, "guides/intro.md", va2, &got));
	assert_string_equal(got.title, "Second");
	doc_free(&got);
	assert_true(doc_cache_get(&c, "guides/other.md", vb, &got));
	doc_free(&got);
	doc_cache_free(&c);
	/* offsets swapped in the index: each document misses, none gets the
	 * other's entry */
	size_t n = 0;
	char *good = index_bytes(dir, &n);
	assert_non_null(good);
	char *bad = xmalloc(n);
	memcpy(bad, good, n);
	char *pa = memmem(bad, n, "guides/intro.md", 15), *pb = memmem(bad, n, "guides/other.md", 15);
	assert_true(pa && pb);
	char tmp[8];
	memcpy(tmp, pa + 15, 8);
	memcpy(pa + 15, pb + 15, 8);
	memcpy(pb + 15, tmp, 8);
	put_index(dir, bad, n);
	doc_cache_load(&c, dir, ENV);
	assert_true(c.from_index);
	assert_false(doc_cache_get(&c, "guides/intro.md", va2, &got));
	assert_false(doc_cache_get(&c, "guides/other.md", vb, &got));
	doc_cache_free(&c);
	/* the file changed behind the index's back: walked again */
	put_index(dir, good, n);
	char *file = xasprintf("%s/.ssg-cache/documents.bin", dir);
	FILE *f = fopen(file, "ab");
	assert_non_null(f);
	fputs("x", f);
	fclose(f);
	doc_cache_load(&c, dir, ENV);
	assert_true(c.valid);
	assert_false(c.from_index);
	assert_true(doc_cache_get(&c, "guides/intro.md", va2, &got));
	assert_string_equal(got.title, "Second");
	doc_free(&got);
	doc_cache_free(&c);
	free(good);
	free(bad);
	buf_free(&e[0]);
	buf_free(&e[1]);
	doc_free(&a);
	doc_free(&b);
	remove_cache(file, dir);
	free(file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_borrowed_strings),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_stream_same_bytes),
		cmocka_unit_test(test_stream_fails),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_same_but_descs),
		cmocka_unit_test(test_previewable),
		cmocka_unit_test(test_index),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
