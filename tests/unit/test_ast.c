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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_builds_and_renders),
		cmocka_unit_test(test_custom_block_renders_raw),
		cmocka_unit_test(test_illegal_nesting_refused),
		cmocka_unit_test(test_value_json),
		cmocka_unit_test(test_value_ref),
	};
	return cmocka_run_group_tests_name("ast", tests, NULL, NULL);
}
