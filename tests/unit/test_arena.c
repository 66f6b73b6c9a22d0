/* test_arena: the bump allocator. Allocations are aligned and do not
 * overlap; the last one grows where it lies while its block has room, and
 * no other does; a tree whose buffers grow line by line parses the same as
 * ever (cmark-gfm's reallocs go through the arena). */
#include "testutil.h"

#include "arena.h"
#include "ast.h"
#include "buf.h"

#include <stdint.h>

static void test_alloc_and_extend(void **state)
{
	(void)state;
	struct arena a = ARENA_INIT;
	char *p = arena_alloc(&a, 10);
	assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
	memset(p, 'p', 10);
	/* the last allocation grows in place, its bytes kept */
	assert_true(arena_extend(&a, p, 10, 100));
	memset(p + 10, 'q', 90);
	char *q = arena_alloc(&a, 8);
	assert_true(q >= p + 100); /* after the grown one, not inside it */
	/* no longer the last: it cannot grow, and nothing moves */
	assert_false(arena_extend(&a, p, 100, 200));
	assert_int_equal(p[0], 'p');
	assert_int_equal(p[99], 'q');
	/* a shrink, or a size past the block's room, is refused */
	assert_false(arena_extend(&a, q, 8, 0));
	assert_false(arena_extend(&a, q, 8, (size_t)1 << 30));
	assert_true(arena_extend(&a, q, 8, 64));
	char *r = arena_alloc(&a, 1);
	assert_true(r >= q + 64);
	/* a request bigger than a block gets a block of its own, last again */
	char *big = arena_alloc(&a, 1u << 21);
	memset(big, 'b', 1u << 21);
	assert_false(arena_extend(&a, big, 1u << 21, (1u << 21) + 64)); /* full */
	assert_false(arena_extend(&a, r, 1, 32)); /* an older block's */
	arena_release(&a);
	/* many small ones of odd sizes, across blocks: each aligned, each
	 * written whole without touching the one before */
	char *prev = NULL;
	size_t prev_n = 0;
	for (size_t k = 0; k < 5000; k++) {
		size_t n = 1 + k % 97;
		char *x = arena_alloc(&a, n);
		assert_int_equal((uintptr_t)x % _Alignof(max_align_t), 0);
		memset(x, (int)(k & 0xff), n);
		if (prev)
			assert_int_equal((unsigned char)prev[prev_n - 1], (unsigned char)((k - 1) & 0xff));
		assert_true(arena_owns(&a, x) && arena_owns(&a, x + n - 1));
		prev = x;
		prev_n = n;
	}
	int outside;
	assert_false(arena_owns(&a, &outside));
	arena_release(&a);
	/* released, it is empty again and serves anew */
	char *s = arena_alloc(&a, 16);
	assert_true(arena_extend(&a, s, 16, 4096));
	arena_release(&a);
}

static void test_tree_with_growing_buffers(void **state)
{
	(void)state;
	/* long paragraphs and lists: buffers that grow line by line */
	struct buf md = BUF_INIT;
	for (int i = 0; i < 400; i++)
		buf_printf(&md, "- [item %d](https://example.org/%d) - a description that goes on, "
				"line %d\n  continued on the next line\n",
			   i, i, i);
	for (int i = 0; i < 300; i++)
		buf_printf(&md, "word%d ", i);
	buf_puts(&md, "\n");
	struct ast_arena *arena = ast_arena_begin();
	cmark_node *in_arena = ast_parse_markdown(md.p, md.n, CMARK_OPT_DEFAULT);
	char *html_arena = cmark_render_html(in_arena, CMARK_OPT_DEFAULT, NULL);
	char *copy = strdup(html_arena);
	ast_arena_end(arena); /* the tree and its HTML were the arena's */
	cmark_node *plain = ast_parse_markdown(md.p, md.n, CMARK_OPT_DEFAULT);
	char *html_plain = cmark_render_html(plain, CMARK_OPT_DEFAULT, NULL);
	assert_string_equal(copy, html_plain);
	assert_non_null(strstr(copy, "word299"));
	assert_non_null(strstr(copy, "https://example.org/399"));
	free(copy);
	free(html_plain);
	cmark_node_free(plain);
	buf_free(&md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_and_extend),
		cmocka_unit_test(test_tree_with_growing_buffers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
