/* Pins the cmark-gfm construction points DESIGN.md relies on. */
#include "testutil.h"
#include "ast.h"
#include "buf.h"
#include "value.h"

static void test_table_builds_and_renders(void **state)
{
	(void)state;
	cmark_node *doc = cmark_node_new(CMARK_NODE_DOCUMENT);
	cmark_node *t = ast_table_new(2, "lr");
	assert_true(ast_is_table(t));
	cmark_node *hr = ast_table_row_new(true);
	cmark_node *c1 = ast_table_cell_new(), *c2 = ast_table_cell_new();
	assert_true(ast_append(c1, ast_text("a<b")));
	assert_true(ast_append(c2, ast_text("c")));
	assert_true(ast_append(hr, c1));
	assert_true(ast_append(hr, c2));
	assert_true(ast_append(t, hr));
	assert_true(ast_append(doc, t));
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, ast_extensions());
	assert_non_null(strstr(html, "<table>"));
	assert_non_null(strstr(html, "a&lt;b"));
	assert_non_null(strstr(html, "align=\"right\""));
	free(html);
	cmark_node_free(doc);
}

static void test_custom_block_renders_raw(void **state)
{
	(void)state;
	cmark_node *doc = cmark_node_new(CMARK_NODE_DOCUMENT);
	cmark_node *b = ast_custom_block("<aside class=\"note\">", "</aside>");
	cmark_node *p = cmark_node_new(CMARK_NODE_PARAGRAPH);
	assert_true(ast_append(p, ast_text("hi")));
	assert_true(ast_append(b, p));
	assert_true(ast_append(doc, b));
	ast_set_line(p, 42);
	assert_int_equal(ast_line(p), 42);
	char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, NULL);
	assert_string_equal(html, "<aside class=\"note\">\n<p>hi</p>\n</aside>\n");
	free(html);
	cmark_node_free(doc);
}

static void test_illegal_nesting_refused(void **state)
{
	(void)state;
	cmark_node *para = cmark_node_new(CMARK_NODE_PARAGRAPH);
	assert_false(ast_append(para, cmark_node_new(CMARK_NODE_PARAGRAPH)));
	cmark_node_free(para);
}

static void test_value_json(void **state)
{
	(void)state;
	struct val *m = val_map();
	val_set_str(m, "a", "x\"<y");
	struct val *l = val_set(m, "l", val_list());
	val_push(l, val_bool(true));
	val_push(l, val_null());
	struct buf b = BUF_INIT;
	val_to_json(m, &b, -1);
	assert_string_equal(buf_cstr(&b), "{\"a\":\"x\\\"\\u003cy\",\"l\":[true,null]}");
	buf_free(&b);
	val_free(m);
}

static void test_value_ref(void **state)
{
	(void)state;
	struct val *shared = val_map();
	val_set_str(shared, "name", "nav");
	struct val *page = val_map();
	val_set(page, "nav", val_ref(shared));
	const struct val *got = val_get(page, "nav");
	assert_ptr_equal(got, shared);
	assert_string_equal(val_get(got, "name")->s, "nav");
	assert_true(val_truthy(val_get(page, "nav")));
	struct buf b = BUF_INIT;
	val_to_json(page, &b, -1);
	assert_string_equal(buf_cstr(&b), "{\"nav\":{\"name\":\"nav\"}}");
	buf_free(&b);
	/* has_<list>: whether the list has items, unless set explicitly */
	val_set(page, "items", val_list());
	assert_false(val_get(page, "has_items")->b);
	val_push((struct val *)val_get(page, "items"), val_null());
	assert_true(val_get(page, "has_items")->b);
	val_set_bool(page, "has_items", false);
	assert_false(val_get(page, "has_items")->b);
	assert_null(val_get(page, "has_nothing"));
	val_free(page); /* the target survives its references */
	assert_string_equal(val_get(shared, "name")->s, "nav");
	val_free(shared);
}

/* Autolink's e-mail pass is skipped in an arena's parse when no '@' of the
 * text can begin such a link (ast.c): every text here renders as cmark-gfm's
 * own command line renders it (the expected HTML is its output), inside an
 * arena and out: the '@' of a URL or after '/' or '(' stays text, and one an
 * entity or an escape makes, or one after '.', ';' or "mailto:", is a link. */
static void test_email_autolinks_as_cmark_gfm(void **state)
{
	(void)state;
	static const char *cases[][2] = {
		{"write to a.b@example.com today",
		 "<p>write to <a href=\"mailto:a.b@example.com\">a.b@example.com</a> today</p>\n"},
		{"https://medium.com/@user/post and /@x or (@y.org)",
		 "<p><a href=\"https://medium.com/@user/post\">https://medium.com/@user/post</a> and "
		 "/@x or (@y.org)</p>\n"},
		{"a&#64;example.com", "<p><a href=\"mailto:a@example.com\">a@example.com</a></p>\n"},
		{"a\\@example.com", "<p><a href=\"mailto:a@example.com\">a@example.com</a></p>\n"},
		{"x&period;@y.org", "<p><a href=\"mailto:x.@y.org\">x.@y.org</a></p>\n"},
		{"x&commat;y.org", "<p><a href=\"mailto:x@y.org\">x@y.org</a></p>\n"},
		{"mailto:m@n.com", "<p><a href=\"mailto:m@n.com\">mailto:m@n.com</a></p>\n"},
		{"see `c@d.com` and **a**@b.com",
		 "<p>see <code>c@d.com</code> and <strong>a</strong>@b.com</p>\n"},
		{"a.b@example.com, https://x.org/@z and www.w.org",
		 "<p><a href=\"mailto:a.b@example.com\">a.b@example.com</a>, <a "
		 "href=\"https://x.org/@z\">https://x.org/@z</a> and <a "
		 "href=\"http://www.w.org\">www.w.org</a></p>\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		for (int in_arena = 0; in_arena < 2; in_arena++) {
			struct ast_arena *a = in_arena ? ast_arena_begin() : NULL;
			cmark_node *doc = ast_parse_markdown(cases[i][0], strlen(cases[i][0]),
							     CMARK_OPT_DEFAULT);
			char *html = cmark_render_html_with_mem(doc, CMARK_OPT_DEFAULT, ast_extensions(),
								cmark_get_default_mem_allocator());
			assert_string_equal(html, cases[i][1]);
			free(html);
			if (a)
				ast_arena_end(a);
			else
				cmark_node_free(doc);
		}
}

/* ast_free takes a subtree out of its tree on the heap (freed: the leak
 * check of the sanitizer build would see it kept) and in an arena (only
 * unlinked: its nodes go with the arena). */
static void test_free_unlinks_in_arena_and_out(void **state)
{
	(void)state;
	for (int in_arena = 0; in_arena < 2; in_arena++) {
		struct ast_arena *a = in_arena ? ast_arena_begin() : NULL;
		const char *md = "a *b* c\n";
		cmark_node *doc = ast_parse_markdown(md, strlen(md), CMARK_OPT_DEFAULT);
		cmark_node *para = cmark_node_first_child(doc);
		cmark_node *emph = cmark_node_next(cmark_node_first_child(para));
		assert_int_equal(cmark_node_get_type(emph), CMARK_NODE_EMPH);
		ast_free(emph);
		char *html = cmark_render_html_with_mem(doc, CMARK_OPT_DEFAULT, NULL,
							cmark_get_default_mem_allocator());
		assert_string_equal(html, "<p>a  c</p>\n");
		free(html);
		ast_free(doc);
		ast_free(NULL);
		if (a)
			ast_arena_end(a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_builds_and_renders),
		cmocka_unit_test(test_custom_block_renders_raw),
		cmocka_unit_test(test_illegal_nesting_refused),
		cmocka_unit_test(test_value_json),
		cmocka_unit_test(test_value_ref),
		cmocka_unit_test(test_email_autolinks_as_cmark_gfm),
		cmocka_unit_test(test_free_unlinks_in_arena_and_out),
	};
	return cmocka_run_group_tests_name("ast", tests, NULL, NULL);
}
