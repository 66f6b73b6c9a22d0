/* html: a document's body finished without the model (html_relink_body)
 * equals the body html_finish_body makes, for a document whose prose changed
 * and whose citations and links did not; anything it cannot vouch for is
 * refused. */
#include "testutil.h"
#include "ast.h"
#include "extract.h"
#include "html.h"
#include "md.h"

static const char *const text =
	"# Kernels\n\nSome prose first, long enough to be a paragraph.\n\n"
	"## Papers\n"
	"- [Flash](https://arxiv.org/abs/2205.14135) - fast attention\n"
	"- [Lonely](https://example.org/lonely) - cited here alone\n"
	"- [Other](https://example.org/other)[next doc](next.md) glued together\n"
	"- [missing](gone.md), [here](#papers) and [a file](files/a.pdf)\n";

static struct resource res[3] = {
	{.slug = "flash", .ndocs = 3, .has_page = true},
	{.slug = "lonely", .ndocs = 1, .has_page = false, .index_page = "resources/l/"},
	{.slug = "other", .ndocs = 2, .has_page = true},
};

/* The marked body of text (+ extra) as read, in *d (the caller frees). */
static char *marked(struct doc *d, const char *extra_before, const char *extra_after)
{
	char *t = malloc(strlen(text) + strlen(extra_before) + strlen(extra_after) + 1);
	strcpy(t, extra_before);
	strcat(t, text);
	strcat(t, extra_after);
	memset(d, 0, sizeof *d);
	d->relpath = strdup("k.md");
	d->shown = strdup("content/k.md");
	d->tree = md_parse(t, strlen(t), d->shown, false, &d->diags);
	free(t);
	extract_doc(d);
	return html_render_body(d);
}

/* What the model would say of the document's citations and links. */
static void resolve(struct doc *d)
{
	assert_int_equal(d->ncites, 3);
	for (size_t i = 0; i < d->ncites; i++)
		d->cites[i].resource = (long)i;
	assert_int_equal(d->nilinks, 4);
	d->ilinks[0].target = 1;
	d->ilinks[1].target = -1;
	d->ilinks[1].missing = true;
	d->ilinks[2].target = 0;
	d->ilinks[2].anchor = strdup("papers");
	d->ilinks[3].target = -1;
	d->ilinks[3].resolved = strdup("files/a.pdf");
}

static char *finish(struct doc *d, const char *body)
{
	struct doc docs[2] = {*d, {.url = "next/"}};
	docs[0].url = "k/";
	struct site s = {.docs = docs, .ndocs = 2, .res = res, .nres = 3};
	return html_finish_body(&s, 0, body, "../");
}

static void test_prose_edit_relinked(void **state)
{
	(void)state;
	struct doc was, now;
	char *old_marked = marked(&was, "", "");
	resolve(&was);
	char *old_final = finish(&was, old_marked);
	/* the badges and links are there to be learnt */
	assert_non_null(strstr(old_final, "+2</a>"));
	assert_non_null(strstr(old_final, "class=\"broken-link\""));
	char *new_marked = marked(&now, "", "\nA new closing paragraph, *emphasised*.\n");
	resolve(&now);
	char *want = finish(&now, new_marked);
	char *got = html_relink_body(old_marked, old_final, strlen(old_final), new_marked);
	assert_non_null(got);
	assert_string_equal(got, want);
	assert_non_null(strstr(got, "<em>emphasised</em>"));
	/* and back again */
	char *back = html_relink_body(new_marked, want, strlen(want), old_marked);
	assert_string_equal(back, old_final);
	free(back);
	free(got);
	free(want);
	free(new_marked);
	free(old_final);
	free(old_marked);
	doc_free(&now);
	doc_free(&was);
}

/* Random prose before and after the entries (emphasis, code, entities,
 * characters HTML escapes, a table): the relinked body always equals the
 * body the model would finish. */
static void test_random_prose(void **state)
{
	(void)state;
	static const char *const words[] = {
		"kernel", "*fast*", "`code <b>`", "&amp;", "a < b", "\"quoted\"", "**bold**",
		"\n\n", "\n\n> quoted\n\n", "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n",
		"<span>raw</span>", "[not a link]", "\u00e9t\u00e9", "\n\n```c\nint x;\n```\n\n",
		"#hash", "~~gone~~", "1.", "-",
	};
	struct doc was;
	char *old_marked = marked(&was, "", "");
	resolve(&was);
	char *old_final = finish(&was, old_marked);
	srand(7);
	int checked = 0;
	for (int round = 0; round < 200; round++) {
		char before[512] = "", after[512] = "\n";
		for (int k = rand() % 8; k > 0; k--) {
			strcat(before, words[rand() % (sizeof words / sizeof *words)]);
			strcat(before, " ");
		}
		if (*before)
			strcat(before, "\n\n");
		for (int k = rand() % 12; k > 0; k--) {
			strcat(after, words[rand() % (sizeof words / sizeof *words)]);
			strcat(after, " ");
		}
		struct doc now;
		char *new_marked = marked(&now, before, after);
		if (now.ncites != 3 || now.nilinks != 4) { /* the prose made a link: skip */
			free(new_marked);
			doc_free(&now);
			continue;
		}
		resolve(&now);
		char *want = finish(&now, new_marked);
		char *got = html_relink_body(old_marked, old_final, strlen(old_final), new_marked);
		assert_non_null(got);
		assert_string_equal(got, want);
		checked++;
		free(got);
		free(want);
		free(new_marked);
		doc_free(&now);
	}
	assert_true(checked >= 150);
	free(old_final);
	free(old_marked);
	doc_free(&was);
}

static void test_refusals(void **state)
{
	(void)state;
	struct doc was;
	char *old_marked = marked(&was, "", "");
	resolve(&was);
	char *fin = finish(&was, old_marked);
	size_t n = strlen(fin);
	/* a body that is not this one finished: cut, or one byte changed */
	assert_null(html_relink_body(old_marked, fin, n - 1, old_marked));
	char *other = strdup(fin);
	other[n / 2] ^= 1;
	assert_null(html_relink_body(old_marked, other, n, old_marked));
	/* a badge whose end is missing */
	char *cut = strstr(other, "+2</a>");
	strcpy(other, fin);
	cut = strstr(other, "+2</a>");
	memmove(cut, cut + 6, strlen(cut + 6) + 1);
	assert_null(html_relink_body(old_marked, other, strlen(other), old_marked));
	/* a new body with a citation the old one lacks */
	const char *more = "\x1e" "C7\x1f";
	char *with = malloc(strlen(old_marked) + 8);
	strcpy(with, old_marked);
	strcat(with, more);
	assert_null(html_relink_body(old_marked, fin, n, with));
	/* a malformed marker on either side */
	strcpy(with, old_marked);
	strcat(with, "\x1e" "Q1\x1f");
	assert_null(html_relink_body(old_marked, fin, n, with));
	assert_null(html_relink_body(with, fin, n, old_marked));
	/* unchanged: the same body */
	char *same = html_relink_body(old_marked, fin, n, old_marked);
	assert_string_equal(same, fin);
	free(same);
	free(with);
	free(other);
	free(fin);
	free(old_marked);
	doc_free(&was);
}

/* The model's body of d (resolve's resources) with citation `fresh` (-1:
 * none) a new one, without a resource: the others are resolve's, in order. */
static char *finish_with_new(struct doc *d, const char *body, long fresh)
{
	struct citation *all = d->cites;
	size_t n = d->ncites;
	struct citation kept[3];
	for (size_t i = 0, k = 0; i < n; i++)
		if ((long)i != fresh)
			kept[k++] = all[i];
	d->cites = kept;
	d->ncites = 3;
	resolve(d);
	for (size_t i = 0, k = 0; i < n; i++)
		if ((long)i != fresh)
			all[i] = kept[k++];
		else
			all[i].resource = -1;
	d->cites = all;
	d->ncites = n;
	return finish(d, body);
}

/* A preview (html_relink_preview): each citation takes the badge the old
 * citation it is mapped to had, a new one (-1) none; the result is the body
 * the model would finish with the new citation without a resource. A new
 * link to another file is refused all the same. */
static void test_preview(void **state)
{
	(void)state;
	struct doc was, now;
	char *old_marked = marked(&was, "", "");
	resolve(&was);
	char *old_final = finish(&was, old_marked);
	/* a link added after the others */
	const char *added = "- [Brand new](https://example.org/brand-new) - just added\n";
	char *new_marked = marked(&now, "", added);
	assert_int_equal(now.ncites, 4);
	char *want = finish_with_new(&now, new_marked, 3);
	const long after[4] = {0, 1, 2, -1};
	assert_null(html_relink_body(old_marked, old_final, strlen(old_final), new_marked));
	char *got = html_relink_preview(old_marked, old_final, strlen(old_final), new_marked, after, 4);
	assert_non_null(got);
	assert_string_equal(got, want);
	assert_non_null(strstr(got, "https://example.org/brand-new"));
	assert_non_null(strstr(got, "+2</a>"));
	/* a map shorter than the citations: the rest are new */
	char *short_map = html_relink_preview(old_marked, old_final, strlen(old_final), new_marked,
					      after, 3);
	assert_string_equal(short_map, want);
	free(short_map);
	free(got);
	free(want);
	free(new_marked);
	doc_free(&now);
	/* a link inserted before the others: they keep their badges */
	new_marked = marked(&now, "- [First](https://example.org/first) - inserted\n\n", "");
	assert_int_equal(now.ncites, 4);
	want = finish_with_new(&now, new_marked, 0);
	const long before[4] = {-1, 0, 1, 2};
	got = html_relink_preview(old_marked, old_final, strlen(old_final), new_marked, before, 4);
	assert_non_null(got);
	assert_string_equal(got, want);
	/* mapped by index instead, each would take its neighbour's badge */
	const long shifted[4] = {0, 1, 2, -1};
	char *wrong = html_relink_preview(old_marked, old_final, strlen(old_final), new_marked,
					  shifted, 4);
	assert_string_not_equal(wrong, want);
	free(wrong);
	free(got);
	free(want);
	free(new_marked);
	/* the same body: the same page */
	const long same[3] = {0, 1, 2};
	char *again = html_relink_preview(old_marked, old_final, strlen(old_final), old_marked, same, 3);
	assert_string_equal(again, old_final);
	free(again);
	/* a new link to another file: refused */
	char *with = malloc(strlen(old_marked) + 16);
	strcpy(with, old_marked);
	strcat(with, "\x1e" "L9\x1f" "x" "\x1e" "E9\x1f");
	assert_null(html_relink_preview(old_marked, old_final, strlen(old_final), with, same, 3));
	free(with);
	free(old_final);
	free(old_marked);
	doc_free(&now);
	doc_free(&was);
}

/* Every heading gets its id and anchor and every code block its frame, as
 * extraction noted them in the tree: nested in a list or a quote too, fenced
 * with a language or indented without. */
static void test_headings_and_code_dressed(void **state)
{
	(void)state;
	const char *md = "# Top\n\n```c\nint x;\n```\n\n- item\n\n  ## In a list\n\n"
			 "> ### Quoted\n>\n>     indented <code>\n\n## Top\n";
	struct doc d;
	memset(&d, 0, sizeof d);
	d.relpath = strdup("h.md");
	d.shown = strdup("content/h.md");
	d.tree = md_parse(md, strlen(md), d.shown, false, &d.diags);
	extract_doc(&d);
	assert_int_equal(d.nheadings, 4);
	assert_int_equal(d.ncode_blocks, 2);
	char *body = html_render_body(&d);
	assert_null(d.code_blocks);
	for (size_t i = 0; i < d.nheadings; i++)
		assert_null(d.headings[i].node);
	assert_non_null(strstr(body, "<h1 id=\"top\">\nTop\n<a class=\"anchor\" href=\"#top\""));
	assert_non_null(strstr(body, "<h2 id=\"in-a-list\">\nIn a list\n<a class=\"anchor\""));
	assert_non_null(strstr(body, "<h3 id=\"quoted\">\nQuoted\n<a class=\"anchor\""));
	assert_non_null(strstr(body, "<h2 id=\"top-1\">\nTop\n<a class=\"anchor\" href=\"#top-1\""));
	assert_non_null(strstr(body, "<div class=\"code\" data-lang=\"c\"><div class=\"code-lang\">c</div>"
				     "<pre><code class=\"language-c\">int x;\n</code></pre></div>"));
	assert_non_null(strstr(body, "<div class=\"code\"><pre><code>indented &lt;code&gt;\n</code></pre></div>"));
	free(body);
	doc_free(&d);
}

/* A document read in an arena (as a build reads it: its tree's strings left
 * where the parser put them, ast_own) gets the body it gets on the heap,
 * autolinks, links made markers and all. */
static void test_arena_body_is_the_heap_body(void **state)
{
	(void)state;
	const char *more = "\nSee https://example.org/auto, www.example.com/w and a.b@example.org; "
			   "[back](k.md#papers).\n";
	struct doc heap, in_arena;
	char *body = marked(&heap, "", more);
	struct ast_arena *a = ast_arena_begin();
	char *arena_body = marked(&in_arena, "", more);
	doc_drop_tree(&in_arena);
	doc_compact_strings(&in_arena);
	ast_arena_end(a);
	assert_non_null(strstr(body, "href=\"mailto:a.b@example.org\""));
	assert_string_equal(arena_body, body);
	assert_int_equal(in_arena.ncites, heap.ncites);
	for (size_t i = 0; i < heap.ncites; i++)
		assert_string_equal(in_arena.cites[i].url, heap.cites[i].url);
	free(body);
	free(arena_body);
	doc_free(&heap);
	doc_free(&in_arena);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena_body_is_the_heap_body),
		cmocka_unit_test(test_headings_and_code_dressed),
		cmocka_unit_test(test_prose_edit_relinked),
		cmocka_unit_test(test_random_prose),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_preview),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
