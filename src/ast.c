/* ast: construction helpers over cmark-gfm (see ast.h). */
#include "ast.h"
#include "arena.h"
#include "xalloc.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm/cmark_ctype.h>
#include <cmark-gfm/node.h>
#include <cmark-gfm/syntax_extension.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static cmark_llist *extensions;
static cmark_syntax_extension *table_ext;
static cmark_node_type table_type, row_type, cell_type;

static void learn_table_types(void)
{
	/* The table node types are in no installed header: parse a tiny table once. */
	cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
	cmark_parser_attach_syntax_extension(p, table_ext);
	const char *src = "|a|\n|-|\n|b|\n";
	cmark_parser_feed(p, src, strlen(src));
	cmark_node *doc = cmark_parser_finish(p);
	cmark_node *t = cmark_node_first_child(doc);
	cmark_node *r = t ? cmark_node_first_child(t) : NULL;
	cmark_node *c = r ? cmark_node_first_child(r) : NULL;
	table_type = t ? cmark_node_get_type(t) : CMARK_NODE_NONE;
	row_type = r ? cmark_node_get_type(r) : CMARK_NODE_NONE;
	cell_type = c ? cmark_node_get_type(c) : CMARK_NODE_NONE;
	cmark_node_free(doc);
	cmark_parser_free(p);
}

/* ---- cmark-gfm's process-wide special characters --------------------------
 * cmark-gfm 0.29 keeps the inline parser's special characters in one
 * process-wide table: each parse adds its extensions' characters when its
 * inline phase starts and removes them when it ends, so two threads parsing
 * at once lose each other's autolinks (':' 'w') and strikethrough ('~').
 * Autolink finds its matches through match_inline, never through its
 * character list: its characters are set once, for good, and its list
 * emptied, so no parse removes them. Strikethrough needs its list (delimiters
 * are matched to the extension through it): documents with a '~' are parsed
 * one at a time with it, the others in parallel without it.
 *
 * Autolink's postprocess (e-mail autolinks) walks the whole tree a second
 * time and copies every text node's string out of the block it was parsed
 * from, in every document: one in which no '@' can begin such a link is
 * parsed without it when its tree lives in an arena (where those strings
 * stay put, as a parse without autolink leaves them). */

/* Exported by libcmark-gfm 0.29 (Debian 12) but in no installed header. */
void cmark_manage_extensions_special_characters(cmark_parser *parser, int add);

static cmark_llist *extensions_plain; /* all but strikethrough */
/* write-only on purpose: "used" keeps the compiler from dropping it */
static cmark_llist *autolink_chars __attribute__((used)); /* kept reachable */
static pthread_mutex_t strike_lock = PTHREAD_MUTEX_INITIALIZER;
/* Autolink, and its matcher alone: the same links but e-mail addresses
 * (never freed: parsers borrow it). */
static cmark_syntax_extension *autolink, *autolink_unposted;

static void pin_autolink(void)
{
	autolink = cmark_find_syntax_extension("autolink");
	if (!autolink)
		return;
	cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
	cmark_parser_attach_syntax_extension(p, autolink);
	cmark_manage_extensions_special_characters(p, 1);
	cmark_parser_free(p);
	autolink_chars = autolink->special_inline_chars;
	cmark_syntax_extension_set_special_inline_chars(autolink, NULL);
	autolink_unposted = cmark_syntax_extension_new("autolink");
	cmark_syntax_extension_set_match_inline_func(autolink_unposted, autolink->match_inline);
}

/* Whether an '@' in text may begin an e-mail autolink: its postprocess takes
 * one only after a letter or a digit (cmark_isalnum, its own test), '.',
 * '+', '-', '_' or ':' ("mailto:") in a text node, where runs of text,
 * escapes and entities are joined. So
 * an '@' may be one where its byte before is one of those, a ';' (an
 * entity's end) or a '\\' (the '@' escaped, the byte before the escape then
 * coming first), and anywhere an entity may be an '@' ("&#64;", "&commat;"). */
static bool may_link_email(const char *text, size_t len)
{
	for (const char *p = text, *end = text + len; (p = memchr(p, '&', (size_t)(end - p))); p++)
		if ((end - p >= 2 && p[1] == '#') || (end - p >= 8 && !memcmp(p, "&commat;", 8)))
			return true;
	for (const char *p = text, *end = text + len; (p = memchr(p, '@', (size_t)(end - p))); p++) {
		char c = p == text ? ' ' : p[-1];
		if (cmark_isalnum(c) || (c && strchr(".+-_:;\\", c)))
			return true;
	}
	return false;
}

static void init(void)
{
	cmark_gfm_core_extensions_ensure_registered();
	cmark_mem *mem = cmark_get_default_mem_allocator();
	static const char *names[] = {"table", "strikethrough", "autolink", "tasklist", "tagfilter"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		cmark_syntax_extension *e = cmark_find_syntax_extension(names[i]);
		if (!e)
			continue;
		extensions = cmark_llist_append(mem, extensions, e);
		if (strcmp(names[i], "strikethrough"))
			extensions_plain = cmark_llist_append(mem, extensions_plain, e);
	}
	table_ext = cmark_find_syntax_extension("table");
	learn_table_types();
	pin_autolink();
}

/* ---- per-document arenas --------------------------------------------------
 * cmark-gfm allocates every node, string and buffer of a tree through the
 * parser's cmark_mem; its callbacks carry no context, so the arena is the
 * thread's current one. Frees are no-ops: the tree goes with its arena. */

struct ast_arena {
	struct arena mem;
};

static _Thread_local struct ast_arena *current_arena;

/* Each allocation is preceded by its size (realloc needs it). */
#define HEAD sizeof(max_align_t)

static void *arena_bump(struct ast_arena *a, size_t n)
{
	char *p = arena_alloc(&a->mem, HEAD + n);
	*(size_t *)(void *)p = n;
	return p + HEAD;
}

static void *arena_calloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size / 2)
		abort(); /* as cmark's own allocator does when out of memory */
	if (!current_arena)
		return xcalloc(n ? n : 1, size ? size : 1); /* not expected: leaks, never breaks */
	void *p = arena_bump(current_arena, n * size);
	memset(p, 0, n * size);
	return p;
}

static void *arena_realloc(void *old, size_t size)
{
	if (!current_arena)
		return xrealloc(old, size ? size : 1);
	size_t have = old ? *(size_t *)(void *)((char *)old - HEAD) : 0;
	if (old && size <= have)
		return old;
	/* a buffer that grows line by line is mostly the arena's last
	 * allocation: it grows where it lies, without a copy */
	if (old && arena_extend(&current_arena->mem, (char *)old - HEAD, HEAD + have, HEAD + size)) {
		*(size_t *)(void *)((char *)old - HEAD) = size;
		return old;
	}
	void *p = arena_bump(current_arena, size);
	if (old)
		memcpy(p, old, have);
	return p;
}

static void arena_free(void *p) { (void)p; }

static cmark_mem arena_mem = {arena_calloc, arena_realloc, arena_free};

struct ast_arena *ast_arena_begin(void)
{
	struct ast_arena *a = xcalloc(1, sizeof *a);
	current_arena = a;
	return a;
}

void ast_arena_end(struct ast_arena *a)
{
	if (!a)
		return;
	if (current_arena == a)
		current_arena = NULL;
	arena_release(&a->mem);
	free(a);
}

cmark_node *ast_parse_markdown(const char *text, size_t len, int options)
{
	ast_init();
	bool strike = memchr(text, '~', len) != NULL;
	/* outside an arena a tree's strings must be its own (the postprocess
	 * copies them) */
	bool posted = !current_arena || may_link_email(text, len);
	if (strike)
		pthread_mutex_lock(&strike_lock);
	cmark_parser *p = current_arena ? cmark_parser_new_with_mem(options, &arena_mem)
					: cmark_parser_new(options);
	for (cmark_llist *e = strike ? extensions : extensions_plain; e; e = e->next)
		cmark_parser_attach_syntax_extension(
			p, e->data == autolink && !posted ? autolink_unposted : e->data);
	cmark_parser_feed(p, text, len);
	cmark_node *doc = cmark_parser_finish(p);
	cmark_parser_free(p);
	if (strike)
		pthread_mutex_unlock(&strike_lock);
	return doc;
}

void ast_init(void) { pthread_once(&init_once, init); }

/* Whether a node was made in an arena (its allocator is the arenas'). */
static bool in_arena(cmark_node *n) { return cmark_node_mem(n) == &arena_mem; }

void ast_own(cmark_node *root)
{
	if (!in_arena(root))
		cmark_node_own(root);
}

void ast_free(cmark_node *root)
{
	if (!root)
		return;
	if (in_arena(root))
		cmark_node_unlink(root);
	else
		cmark_node_free(root);
}

cmark_llist *ast_extensions(void)
{
	ast_init();
	return extensions;
}

int ast_line(cmark_node *node)
{
	intptr_t l = (intptr_t)cmark_node_get_user_data(node);
	if (l > 0)
		return (int)l;
	return cmark_node_get_start_line(node);
}

void ast_set_line(cmark_node *node, int line)
{
	cmark_node_set_user_data(node, (void *)(intptr_t)line);
}

static cmark_mem *node_mem(void)
{
	return current_arena ? &arena_mem : cmark_get_default_mem_allocator();
}

cmark_node *ast_node_new(cmark_node_type t) { return cmark_node_new_with_mem(t, node_mem()); }

static cmark_node *custom(cmark_node_type t, const char *on_enter, const char *on_exit)
{
	cmark_node *n = ast_node_new(t);
	cmark_node_set_on_enter(n, on_enter ? on_enter : "");
	cmark_node_set_on_exit(n, on_exit ? on_exit : "");
	return n;
}

cmark_node *ast_custom_block(const char *on_enter, const char *on_exit)
{
	return custom(CMARK_NODE_CUSTOM_BLOCK, on_enter, on_exit);
}

cmark_node *ast_custom_inline(const char *on_enter, const char *on_exit)
{
	return custom(CMARK_NODE_CUSTOM_INLINE, on_enter, on_exit);
}

bool ast_append(cmark_node *parent, cmark_node *child)
{
	if (cmark_node_append_child(parent, child))
		return true;
	cmark_node_free(child);
	return false;
}

cmark_node *ast_text(const char *s)
{
	cmark_node *n = ast_node_new(CMARK_NODE_TEXT);
	cmark_node_set_literal(n, s);
	return n;
}

cmark_node *ast_table_new(int ncols, const char *align)
{
	ast_init();
	cmark_node *t = cmark_node_new_with_mem_and_ext(table_type, node_mem(), table_ext);
	uint8_t *al = xcalloc((size_t)ncols + 1, 1);
	for (int i = 0; align && i < ncols && align[i]; i++)
		al[i] = (uint8_t)align[i];
	cmark_gfm_extensions_set_table_columns(t, (uint16_t)ncols);
	cmark_gfm_extensions_set_table_alignments(t, (uint16_t)ncols, al);
	free(al);
	return t;
}

cmark_node *ast_table_row_new(bool header)
{
	ast_init();
	/* rows carry opaque data (is_header): they need _new_with_ext */
	cmark_node *r = cmark_node_new_with_mem_and_ext(row_type, node_mem(), table_ext);
	if (header)
		cmark_gfm_extensions_set_table_row_is_header(r, 1);
	return r;
}

cmark_node *ast_table_cell_new(void)
{
	ast_init();
	/* cells made with _new_with_ext leak 24 bytes each; this way does not */
	cmark_node *c = ast_node_new(cell_type);
	cmark_node_set_syntax_extension(c, table_ext);
	return c;
}

bool ast_is_table(cmark_node *node) { return cmark_node_get_type(node) == table_type; }
bool ast_is_table_row(cmark_node *node) { return cmark_node_get_type(node) == row_type; }
bool ast_is_table_cell(cmark_node *node) { return cmark_node_get_type(node) == cell_type; }
