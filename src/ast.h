/* ast: every cmark-gfm construction detail and quirk behind one small API, so
 * both readers build the same tree (see DESIGN.md, "One tree for both
 * formats"). Level 1: calls cmark-gfm and level 0 only. */
#ifndef SSG_AST_H
#define SSG_AST_H
#include <stdbool.h>
#include <cmark-gfm.h>

/* Register the GFM core extensions once (thread-safe; idempotent). */
void ast_init(void);
/* The extension list the HTML renderer uses (every GFM extension). */
cmark_llist *ast_extensions(void);
/* Parse Markdown with the GFM extensions. Thread-safe, and parallel: it works
 * around cmark-gfm's process-wide special-character table (see ast.c). */
/* A per-document arena: between ast_arena_begin and ast_arena_end on one
 * thread, the trees ast_parse_markdown makes live in it (freeing their nodes
 * costs nothing; ending the arena frees them all). A tree must not outlive
 * its arena, and what is rendered from it is copied out (html.c renders
 * with the default allocator). */
struct ast_arena;
struct ast_arena *ast_arena_begin(void);
void ast_arena_end(struct ast_arena *a);
/* A new node in the thread's arena when there is one (cmark joins only
 * nodes of one allocator): every node ssg makes comes from here. */
cmark_node *ast_node_new(cmark_node_type t);

cmark_node *ast_parse_markdown(const char *text, size_t len, int options);
/* Make every string of a tree its own (cmark_node_own: a text node may
 * point into the block it was parsed from, which a tree being cut up may
 * free first), unless it was made in an arena, where nothing is freed
 * before the whole tree is. */
void ast_own(cmark_node *root);
/* cmark_node_free, but a tree in an arena is only unlinked: its nodes go
 * with the arena (freeing them one by one walks the whole tree to do
 * nothing). */
void ast_free(cmark_node *root);

/* Source line of a node: the reader's own record when it set one
 * (ast_set_line), else cmark's start line; 0 when unknown. */
int ast_line(cmark_node *node);
void ast_set_line(cmark_node *node, int line);

/* Custom nodes render on_enter, children, on_exit verbatim (even in safe
 * mode): the caller escapes what it puts there. Strings are copied. */
cmark_node *ast_custom_block(const char *on_enter, const char *on_exit);
cmark_node *ast_custom_inline(const char *on_enter, const char *on_exit);
/* Append child to parent; false (and child freed) when cmark refuses the nesting. */
bool ast_append(cmark_node *parent, cmark_node *child);
/* A text node holding a copy of s. */
cmark_node *ast_text(const char *s);

/* GFM tables. ncols columns; align is NULL or ncols chars of 'l','c','r',0. */
cmark_node *ast_table_new(int ncols, const char *align);
cmark_node *ast_table_row_new(bool header);
cmark_node *ast_table_cell_new(void);
bool ast_is_table(cmark_node *node);
bool ast_is_table_row(cmark_node *node);
bool ast_is_table_cell(cmark_node *node);

#endif
