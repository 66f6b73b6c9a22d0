/* rst_int: private declarations shared by the reStructuredText reader's
 * files (rst.c: entry, references and resolution; rst_block.c: block
 * structure; rst_inline.c: inline markup; rst_directive.c: directives;
 * rst_table.c: simple and grid tables). Not a public header. */
#ifndef SSG_RST_INT_H
#define SSG_RST_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmark-gfm.h>
#include "buf.h"
#include "diag.h"
#include "hash.h"
#include "rst.h"

/* One source line, trailing blanks removed, tabs expanded; `p` points into
 * the reader's normalised copy of the text. Sub-blocks are arrays of lines
 * with their common indentation cut off. */
struct rst_line {
	const char *p;
	size_t n;    /* bytes; 0 for a blank line */
	size_t ind;  /* leading spaces */
	int no;      /* 1-based source line */
};

/* Columns beyond which a table is no cmark table (cmark-gfm's are quadratic
 * in the cells of a row; Markdown's bound, MD_MAX_TABLE_CELLS, is the same):
 * a grid or simple table is written as HTML, a list-table kept as text. */
#define RST_MAX_TABLE_COLUMNS 256
/* What substitutions may expand to in one document: this, or twice the
 * document, whichever is more. A substitution used thousands of times
 * repeats its text each time (20 KB used 4,000 times: 80 MB of text); past
 * the budget references are left as written, with a warning. */
#define RST_SUBST_BUDGET (1 << 20)
/* The most times a symbol footnote's label repeats its symbol (rst.c). */
#define RST_MAX_SYMBOL_REPEAT 10

/* Inline text waiting for phase 2 (all targets known). */
struct rst_pend {
	cmark_node *node;
	char *text;
	int line;
};

enum rst_tkind { RST_T_URL, RST_T_INDIRECT, RST_T_ID };

struct rst_target {
	char *name;   /* normalised reference name */
	char *val;    /* URL, target refname, or anchor id */
	enum rst_tkind kind;
	int line;
};

struct rst_ref {
	cmark_node *link;
	char *name;   /* normalised refname; NULL for anonymous */
	int anon;     /* index among anonymous references */
	int line;
};

enum rst_skind { RST_S_REPLACE, RST_S_IMAGE, RST_S_TEXT };

struct rst_subst {
	char *name;
	char *lower;  /* lower-cased name, for the case-insensitive fallback */
	enum rst_skind kind;
	char *val;    /* replacement text or image URI */
	char *alt;
	int line;
	bool busy;
};

struct rst_fn {
	cmark_node *node;
	char *label;  /* "1", "#", "#name", "*" or a citation label */
	char *id;     /* anchor id, set when resolved */
	int number;   /* footnotes: the resolved number; 0 for citations */
	int line;
	bool citation;
};

struct rst_toc {
	cmark_node *node;
	bool local;
	int depth;    /* 0: unlimited */
	int level;    /* section level where it stands */
};

#define RST_VEC(T) struct { T *v; size_t n, cap; }

struct rst_ctx {
	const char *path;
	struct diags *d;
	struct rst_options opt;
	char *norm;                 /* normalised copy of the text */
	struct { char ch; bool over; } styles[16];
	int nstyles;
	int section_depth;          /* level of the last section title */
	RST_VEC(struct rst_pend) pend;
	RST_VEC(struct rst_target) targets;
	struct hash target_ix;                /* name -> first target of that name */
	struct hash subst_ix, subst_ci_ix;    /* substitution names, exact and lower-cased */
	RST_VEC(struct rst_target) anon;      /* anonymous targets in order */
	RST_VEC(struct rst_ref) refs;
	RST_VEC(struct rst_subst) substs;
	RST_VEC(struct rst_fn) fndefs;
	RST_VEC(struct rst_fn) fnrefs;
	RST_VEC(cmark_node *) headings;
	int anon_refs;
	int subst_depth;
	size_t subst_left;          /* bytes substitutions may still expand to */
	bool subst_spent;           /* and the warning that they may not, given */
	RST_VEC(struct rst_toc) contents;     /* contents directive placeholders */
	int nwarnings;              /* given so far; capped at RST_MAX_WARNINGS */
};

/* Warnings shown per document; one more says the rest were dropped. */
#define RST_MAX_WARNINGS 200

#define RST_PUSH(vec) (*(__typeof__((vec).v))rst_push_slot((void **)&(vec).v, &(vec).cap, &(vec).n, sizeof *(vec).v))
void *rst_push_slot(void **v, size_t *cap, size_t *n, size_t size);

/* rst.c */
void rst_warn(struct rst_ctx *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
cmark_node *rst_add(cmark_node *parent, cmark_node *child, int line);
cmark_node *rst_block(cmark_node *parent, cmark_node_type t, int line);
void rst_defer(struct rst_ctx *c, cmark_node *node, const char *text, size_t n, int line);
char *rst_join(const struct rst_line *L, size_t n);
char *rst_normalize_name(const char *s, size_t n);
char *rst_make_id(const char *s);
void rst_add_target(struct rst_ctx *c, const char *name, size_t n, enum rst_tkind kind, const char *val,
		    int line);
void rst_code_block(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n,
		    const char *info, int line);
cmark_node *rst_custom(cmark_node *parent, const char *on_enter, const char *on_exit, int line);
/* A block holding one custom inline (on_enter, inline children, on_exit) on
 * one line of HTML; returns the inline, to receive the inline content. */
cmark_node *rst_inline_block(cmark_node *parent, const char *on_enter, const char *on_exit, int line);
char *rst_node_text(cmark_node *n);

/* rst_block.c */
void rst_blocks(struct rst_ctx *c, cmark_node *parent, struct rst_line *L, size_t n, int depth, bool top);
/* Lines [from, to) with `strip` columns removed (first line: `first`, or
 * `strip` when first is (size_t)-1). New array; free it. */
struct rst_line *rst_sub(const struct rst_line *L, size_t from, size_t to, size_t first, size_t strip);
/* End (exclusive, trailing blanks dropped) of the indented block starting at
 * i whose lines have indentation > base; its minimum indentation in *min. */
size_t rst_indented(const struct rst_line *L, size_t n, size_t i, size_t *min);
bool rst_is_blank(const struct rst_line *l);
void rst_body(struct rst_ctx *c, cmark_node *parent, struct rst_line *L, size_t n, int depth);
/* Contents of a block quote (attribution split off) into bq. */
void rst_quote(struct rst_ctx *c, cmark_node *bq, struct rst_line *s, size_t m, int depth);

/* rst_inline.c */
void rst_inline(struct rst_ctx *c, cmark_node *parent, const char *s, size_t n, int line);

/* rst_chars.c: code points and the inline-markup character contexts */
#define RST_NOCP 0xFFFFFFFFu
uint32_t rst_cp_at(const char *s, size_t n, size_t i, size_t *len); /* RST_NOCP past the end */
uint32_t rst_cp_before(const char *s, size_t i);                     /* RST_NOCP at 0 */
bool rst_is_ascii_alnum(char ch);
bool rst_is_space(uint32_t cp);
bool rst_start_prefix_ok(uint32_t prev);  /* may precede a start-string */
bool rst_end_suffix_ok(uint32_t next);    /* may follow an end-string */
bool rst_quoted(uint32_t prev, uint32_t next);
bool rst_is_word(uint32_t cp);            /* a simplename character (not '_') */
bool rst_known_scheme(const char *s, size_t n);

/* rst_directive.c */
size_t rst_explicit(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
		    int depth);
void rst_resolve_contents(struct rst_ctx *c, cmark_node *doc);

/* rst_table.c: return the index after the table, or i when no table is there. */
size_t rst_grid_table(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
		      int depth);
size_t rst_simple_table(struct rst_ctx *c, cmark_node *parent, const struct rst_line *L, size_t n, size_t i,
			int depth);

#endif
