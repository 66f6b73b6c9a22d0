/* test_mustache: the Mustache engine against the official spec files in
 * tests/spec/mustache/ (read with libyaml, one line per failing case and a
 * summary), plus syntax-error diagnostics, recursion limits, escaping and
 * rendering from two threads at once. */
#include "testutil.h"

#include <dirent.h>
#include <pthread.h>
#include <yaml.h>

#include "buf.h"
#include "diag.h"
#include "mustache.h"
#include "value.h"
#include "xalloc.h"

#define SPEC_DIR "tests/spec/mustache"
#define TEMPLATE_NAME "<spec template>"

/* ---- YAML to struct val -------------------------------------------------- */

static bool is_float(const char *s)
{
	char *end;
	if (!*s || !strpbrk(s, ".eE"))
		return false;
	strtod(s, &end);
	return *end == '\0';
}

/* Plain scalars: true/false are booleans, ~/null/empty are null, floats are
 * printed back in their shortest form (1.210 -> "1.21"), the rest are strings
 * as written. Quoted scalars are always strings. */
static struct val *scalar_val(const yaml_node_t *n)
{
	const char *s = (const char *)n->data.scalar.value;
	size_t len = n->data.scalar.length;
	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return val_strn(s, len);
	if (!strcmp(s, "true") || !strcmp(s, "false"))
		return val_bool(s[0] == 't');
	if (!strcmp(s, "~") || !strcmp(s, "null") || len == 0)
		return val_null();
	if (is_float(s)) {
		char tmp[64];
		snprintf(tmp, sizeof tmp, "%.15g", strtod(s, NULL));
		return val_str(tmp);
	}
	return val_strn(s, len);
}

static struct val *node_val(yaml_document_t *doc, yaml_node_t *n)
{
	if (!n)
		return val_null();
	struct val *v;
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return scalar_val(n);
	case YAML_SEQUENCE_NODE:
		v = val_list();
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
			val_push(v, node_val(doc, yaml_document_get_node(doc, *it)));
		return v;
	case YAML_MAPPING_NODE:
		v = val_map();
		for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
			yaml_node_t *k = yaml_document_get_node(doc, pr->key);
			if (k && k->type == YAML_SCALAR_NODE)
				val_set(v, (const char *)k->data.scalar.value,
					node_val(doc, yaml_document_get_node(doc, pr->value)));
		}
		return v;
	default:
		return val_null();
	}
}

static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *m, const char *key)
{
	if (!m || m->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(doc, pr->key);
		if (k && k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
			return yaml_document_get_node(doc, pr->value);
	}
	return NULL;
}

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A node tagged !code (a lambda) anywhere below n. */
static bool has_code(yaml_document_t *doc, yaml_node_t *n)
{
	if (!n)
		return false;
	if (n->tag && strstr((char *)n->tag, "code"))
		return true;
	if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
			if (has_code(doc, yaml_document_get_node(doc, *it)))
				return true;
	} else if (n->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++)
			if (has_code(doc, yaml_document_get_node(doc, pr->value)))
				return true;
	}
	return false;
}

/* ---- one spec case ------------------------------------------------------- */

struct spec_case {
	yaml_document_t *doc;
	yaml_node_t *partials;
	const char *template;
};

/* The loader: the case's template under TEMPLATE_NAME, its partials by name. */
static char *spec_load(void *ud, const char *name, size_t *len)
{
	struct spec_case *c = ud;
	const char *s = !strcmp(name, TEMPLATE_NAME) ? c->template
						    : scalar(map_get(c->doc, c->partials, name));
	if (!s)
		return NULL;
	*len = strlen(s);
	return xstrdup(s);
}

struct spec_counts {
	int passed, failed, skipped;
};

static void show(const char *label, const char *s)
{
	struct buf b = BUF_INIT;
	buf_put_json(&b, s, strlen(s));
	printf(" %s \"%s\"", label, buf_cstr(&b));
	buf_free(&b);
}

static void run_case(const char *file, yaml_document_t *doc, yaml_node_t *tc, struct spec_counts *cnt)
{
	const char *name = scalar(map_get(doc, tc, "name"));
	const char *expected = scalar(map_get(doc, tc, "expected"));
	struct spec_case c = {doc, map_get(doc, tc, "partials"), scalar(map_get(doc, tc, "template"))};
	yaml_node_t *data = map_get(doc, tc, "data");
	if (has_code(doc, data)) {
		cnt->skipped++;
		return;
	}
	struct val *ctx = node_val(doc, data);
	struct mustache_set *set = mustache_set_new(spec_load, &c);
	struct diags d = DIAGS_INIT;
	struct buf out = BUF_INIT;
	int rc = c.template && expected ? mustache_render(set, TEMPLATE_NAME, ctx, &out, &d) : -1;
	if (rc == 0 && !strcmp(buf_cstr(&out), expected)) {
		cnt->passed++;
	} else {
		cnt->failed++;
		printf("%s: %s:", file, name ? name : "?");
		show("expected", expected ? expected : "");
		show("got", buf_cstr(&out));
		printf("\n");
		diags_print(&d, stdout);
	}
	buf_free(&out);
	diags_free(&d);
	mustache_set_free(set);
	val_free(ctx);
}

static void run_file(const char *file, struct spec_counts *cnt)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", SPEC_DIR, file);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	assert_true(yaml_parser_load(&parser, &doc));
	yaml_node_t *tests = map_get(&doc, yaml_document_get_root_node(&doc), "tests");
	assert_non_null(tests);
	assert_int_equal(tests->type, YAML_SEQUENCE_NODE);
	/* lambdas and dynamic names are optional modules ssg does not implement */
	bool skip = strstr(file, "lambdas") || strstr(file, "dynamic-names");
	for (yaml_node_item_t *it = tests->data.sequence.items.start; it < tests->data.sequence.items.top; it++) {
		if (skip)
			cnt->skipped++;
		else
			run_case(file, &doc, yaml_document_get_node(&doc, *it), cnt);
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	fclose(f);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_spec(void **state)
{
	DIR *dir = opendir(SPEC_DIR);
	assert_non_null(dir);
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		size_t l = strlen(e->d_name);
		if (l > 4 && !strcmp(e->d_name + l - 4, ".yml")) {
			names = xgrow(names, &cap, n + 1, sizeof *names);
			names[n++] = xstrdup(e->d_name);
		}
	}
	closedir(dir);
	qsort(names, n, sizeof *names, cmp_names);
	struct spec_counts cnt = {0, 0, 0};
	for (size_t i = 0; i < n; i++) {
		run_file(names[i], &cnt);
		free(names[i]);
	}
	free(names);
	printf("mustache spec: %d passed, %d failed, %d skipped\n", cnt.passed, cnt.failed, cnt.skipped);
	assert_true(n >= 7);
	assert_true(cnt.passed >= 150);
	assert_int_equal(cnt.failed, 0);
}

/* ---- templates from a table ---------------------------------------------- */

struct table {
	const char *const *pairs; /* name, source, name, source, ..., NULL */
};

static char *table_load(void *ud, const char *name, size_t *len)
{
	const struct table *t = ud;
	for (const char *const *p = t->pairs; *p; p += 2)
		if (!strcmp(*p, name)) {
			*len = strlen(p[1]);
			return xstrdup(p[1]);
		}
	return NULL;
}

/* Compile `name` from pairs; returns its rc and leaves diagnostics in d. */
static int compile_one(const char *const *pairs, const char *name, struct diags *d)
{
	struct table t = {pairs};
	struct mustache_set *set = mustache_set_new(table_load, &t);
	int rc = mustache_compile(set, name, d);
	mustache_set_free(set);
	return rc;
}

static void expect_error(const char *src, int line, int col, const char *words)
{
	const char *pairs[] = {"t", src, NULL};
	struct diags d = DIAGS_INIT;
	assert_int_equal(compile_one(pairs, "t", &d), -1);
	assert_int_equal(diags_count(&d, SEV_ERROR), 1);
	if (d.v[0].line != line || d.v[0].col != col || !strstr(d.v[0].msg, words)) {
		diags_print(&d, stdout);
		fail_msg("want t:%d:%d: ... %s", line, col, words);
	}
	assert_string_equal(d.v[0].path, "t");
	diags_free(&d);
}

static void test_errors(void **state)
{
	expect_error("a\nb {{#items}}\nc", 2, 3, "unclosed '#items'");
	expect_error("{{#a}}\n  {{/b}}", 2, 3, "does not match '#a' opened at 1:1");
	expect_error("x\n{{/a}}", 2, 1, "no opening tag");
	expect_error("one {{name", 1, 5, "unclosed tag");
	expect_error("{{{name}}", 1, 1, "unclosed tag");
	expect_error("{{=<% =}}", 1, 1, "set-delimiter");
	expect_error("{{=<% = %>=}}", 1, 1, "set-delimiter");
	expect_error("\n {{a b}}", 2, 2, "invalid tag name");
	expect_error("{{a..b}}", 1, 1, "invalid name");
	expect_error("{{}}", 1, 1, "invalid tag name");
	expect_error("{{<layout}}{{$x}}{{/layout}}", 1, 18, "does not match '$x'");
	expect_error("{{>*dyn}}", 1, 1, "dynamic names");
	/* deep nesting is refused, not a stack overflow */
	struct buf deep = BUF_INIT;
	for (int i = 0; i < 5000; i++)
		buf_puts(&deep, "{{#a}}");
	expect_error(deep.p, 1, 1 + 6 * MUSTACHE_MAX_NESTING, "nested more than");
	buf_free(&deep);
}

static void test_missing(void **state)
{
	const char *pairs[] = {"page", "a{{>nav}}b", "bad", "{{#x}}", "uses-bad", "[{{>bad}}]", NULL};
	struct table t = {pairs};
	struct mustache_set *set = mustache_set_new(table_load, &t);
	struct diags d = DIAGS_INIT;
	struct buf out = BUF_INIT;
	/* a missing partial renders as nothing, with a warning at its tag */
	assert_int_equal(mustache_render(set, "page", NULL, &out, &d), 0);
	assert_string_equal(buf_cstr(&out), "ab");
	assert_int_equal(diags_count(&d, SEV_WARNING), 1);
	assert_int_equal(d.v[0].col, 2);
	diags_free(&d);
	/* a missing template is an error */
	assert_int_equal(mustache_render(set, "nope", NULL, &out, &d), -1);
	assert_int_equal(diags_count(&d, SEV_ERROR), 1);
	diags_free(&d);
	/* a broken partial fails the compile once, then renders as nothing */
	assert_int_equal(mustache_compile(set, "uses-bad", &d), -1);
	assert_int_equal(diags_count(&d, SEV_ERROR), 1);
	assert_string_equal(d.v[0].path, "bad");
	diags_free(&d);
	buf_reset(&out);
	assert_int_equal(mustache_render(set, "uses-bad", NULL, &out, &d), 0);
	assert_string_equal(buf_cstr(&out), "[]");
	assert_int_equal(mustache_render(set, "bad", NULL, &out, &d), -1);
	assert_int_equal(d.n, 0);
	buf_free(&out);
	mustache_set_free(set);
}

/* A list of n items named "i<k>", numbered from 1 (val.item). */
static struct val *numbered(size_t n)
{
	struct val *list = val_list();
	for (size_t k = 0; k < n; k++) {
		struct val *m = val_push(list, val_map());
		char name[32];
		snprintf(name, sizeof name, "i%zu", k);
		val_set_str(m, "name", name);
		m->item = (uint32_t)(k + 1);
	}
	return list;
}

static void test_items(void **state)
{
	(void)state;
	const char *pairs[] = {"page", "<ul>{{#list}}{{>item}}{{/list}}</ul>\n",
			       "item", "<li>{{name}}</li>\n",
			       "outside", "{{#list}}<li>{{name}}{{title}}</li>{{/list}}",
			       "indented", "<ul>\n  {{>each}}\n</ul>\n",
			       "each", "{{#list}}<li>{{name}}</li>\n{{/list}}", NULL};
	struct table t = {pairs};
	struct mustache_set *set = mustache_set_new(table_load, &t);
	struct buf out = BUF_INIT;
	struct mustache_items items = {0};
	struct val *v = val_map();
	val_set(v, "list", numbered(3));
	val_set_str(v, "title", "T");
	/* each item's place, from the rendering's first byte */
	buf_puts(&out, "before");
	assert_int_equal(mustache_render_items(set, "page", v, &out, NULL, NULL, NULL, &items), 0);
	assert_string_equal(buf_cstr(&out), "before<ul><li>i0</li>\n<li>i1</li>\n<li>i2</li>\n</ul>\n");
	assert_int_equal(items.n, 3);
	for (size_t k = 0; k < 3; k++) {
		assert_int_equal(items.v[k].item, k + 1);
		assert_int_equal(items.v[k].at, 4 + 12 * k);
		assert_int_equal(items.v[k].len, 12);
	}
	assert_false(items.refused);
	/* a fragment stands for its item, as its bytes, and is noted where it went */
	struct val *w = val_map();
	struct val *list = val_set(w, "list", numbered(3));
	val_free(list->items[0]);
	list->items[0] = val_fragment("<li>kept</li>\n", 14, 1);
	mustache_items_free(&items);
	buf_reset(&out);
	assert_int_equal(mustache_render_items(set, "page", w, &out, NULL, NULL, NULL, &items), 0);
	assert_string_equal(buf_cstr(&out), "<ul><li>kept</li>\n<li>i1</li>\n<li>i2</li>\n</ul>\n");
	assert_int_equal(items.n, 3);
	assert_int_equal(items.v[0].item, 1);
	assert_int_equal(items.v[0].at, 4);
	assert_int_equal(items.v[0].len, 14);
	assert_int_equal(items.v[1].at, 18);
	/* an item that shows a name from the page around it is not its own: not noted */
	mustache_items_free(&items);
	buf_reset(&out);
	assert_int_equal(mustache_render_items(set, "outside", v, &out, NULL, NULL, NULL, &items), 0);
	assert_string_equal(buf_cstr(&out), "<li>i0T</li><li>i1T</li><li>i2T</li>");
	assert_int_equal(items.n, 0);
	/* on indented lines: not noted, and a fragment there is refused */
	buf_reset(&out);
	assert_int_equal(mustache_render_items(set, "indented", v, &out, NULL, NULL, NULL, &items), 0);
	assert_string_equal(buf_cstr(&out), "<ul>\n  <li>i0</li>\n  <li>i1</li>\n  <li>i2</li>\n</ul>\n");
	assert_int_equal(items.n, 0);
	assert_false(items.refused);
	assert_int_equal(mustache_render_items(set, "indented", w, &out, NULL, NULL, NULL, &items), 0);
	assert_true(items.refused);
	/* without a place to note them, a fragment is refused as well: nothing shows */
	buf_reset(&out);
	assert_int_equal(mustache_render(set, "page", w, &out, NULL), 0);
	assert_string_equal(buf_cstr(&out), "<ul><li>i1</li>\n<li>i2</li>\n</ul>\n");
	/* anywhere but a list, a fragment is an empty map */
	struct buf json = BUF_INIT;
	val_to_json(list->items[0], &json, -1);
	assert_string_equal(buf_cstr(&json), "{}");
	buf_free(&json);
	mustache_items_free(&items);
	val_free(v);
	val_free(w);
	buf_free(&out);
	mustache_set_free(set);
}

/* A string item notes where it went itself, when exactly once: escaped or
 * not, through a partial, not when shown twice or not at all. */
static void test_string_items(void **state)
{
	(void)state;
	const char *pairs[] = {"esc", "<ul>{{#list}}<li>{{.}}</li>{{/list}}</ul>",
			       "raw", "{{#list}}[{{{.}}}]{{/list}}",
			       "via", "{{#list}}{{>one}}{{/list}}", "one", "<p>{{#.}}{{.}}{{/.}}</p>",
			       "twice", "{{#list}}{{.}}={{.}};{{/list}}",
			       "none", "{{#list}}<li/>{{/list}}", NULL};
	struct table t = {pairs};
	struct mustache_set *set = mustache_set_new(table_load, &t);
	struct val *v = val_map();
	struct val *list = val_set(v, "list", val_list());
	const char *words[] = {"a<b", "plain"};
	for (size_t k = 0; k < 2; k++)
		val_push(list, val_str(words[k]))->item = (uint32_t)(k + 1);
	struct buf out = BUF_INIT;
	struct mustache_items items = {0};
	buf_puts(&out, "xx");
	assert_int_equal(mustache_render_items(set, "esc", v, &out, NULL, NULL, NULL, &items), 0);
	assert_string_equal(buf_cstr(&out), "xx<ul><li>a&lt;b</li><li>plain</li></ul>");
	assert_int_equal(items.n, 2);
	assert_true(items.v[0].val_once && items.v[0].val_escaped);
	assert_int_equal(items.v[0].val_at, 8);
	assert_int_equal(items.v[0].val_len, 6);
	assert_int_equal(items.v[1].val_at, 23);
	assert_int_equal(items.v[1].val_len, 5);
	mustache_items_free(&items);
	buf_reset(&out);
	assert_int_equal(mustache_render_items(set, "raw", v, &out, NULL, NULL, NULL, &items), 0);
	assert_string_equal(buf_cstr(&out), "[a<b][plain]");
	assert_true(items.v[0].val_once && !items.v[0].val_escaped);
	assert_int_equal(items.v[0].val_at, 1);
	assert_int_equal(items.v[0].val_len, 3);
	mustache_items_free(&items);
	buf_reset(&out);
	assert_int_equal(mustache_render_items(set, "via", v, &out, NULL, NULL, NULL, &items), 0);
	assert_string_equal(buf_cstr(&out), "<p>a&lt;b</p><p>plain</p>");
	assert_int_equal(items.n, 2);
	assert_true(items.v[1].val_once);
	assert_int_equal(items.v[1].val_at, 16);
	mustache_items_free(&items);
	for (size_t k = 0; k < 2; k++) {
		buf_reset(&out);
		assert_int_equal(mustache_render_items(set, k ? "none" : "twice", v, &out, NULL,
						       NULL, NULL, &items), 0);
		assert_int_equal(items.n, 2);
		assert_false(items.v[0].val_once);
		assert_false(items.v[1].val_once);
		mustache_items_free(&items);
	}
	val_free(v);
	buf_free(&out);
	mustache_set_free(set);
}

static void test_recursion(void **state)
{
	/* a tree rendered by a recursive partial is fine... */
	const char *pairs[] = {"node", "<{{name}}{{#kids}}{{>node}}{{/kids}}>", "loop", "x{{>loop}}", NULL};
	struct table t = {pairs};
	struct mustache_set *set = mustache_set_new(table_load, &t);
	struct val *root = val_map();
	val_set_str(root, "name", "r");
	struct val *kids = val_set(root, "kids", val_list());
	struct val *k = val_push(kids, val_map());
	val_set_str(k, "name", "k");
	val_set(k, "kids", val_list()); /* else {{#kids}} finds the root's kids again */
	struct diags d = DIAGS_INIT;
	struct buf out = BUF_INIT;
	assert_int_equal(mustache_render(set, "node", root, &out, &d), 0);
	assert_string_equal(buf_cstr(&out), "<r<k>>");
	/* ...one that never ends stops at the depth limit with an error */
	buf_reset(&out);
	assert_int_equal(mustache_render(set, "loop", root, &out, &d), -1);
	assert_int_equal(diags_count(&d, SEV_ERROR), 1);
	assert_non_null(strstr(d.v[0].msg, "recursive"));
	assert_int_equal(out.n, MUSTACHE_MAX_DEPTH + 1);
	diags_free(&d);
	buf_free(&out);
	val_free(root);
	mustache_set_free(set);
}

/* set's template "t" renders v as want. */
static void expect_render(struct mustache_set *set, const struct val *v, const char *want)
{
	struct buf out = BUF_INIT;
	assert_int_equal(mustache_render(set, "t", v, &out, NULL), 0);
	assert_string_equal(buf_cstr(&out), want);
	buf_free(&out);
}

static void test_escaping(void **state)
{
	const char *pairs[] = {"t", "{{x}}|{{{x}}}|{{&x}}|{{=<% %>=}}<%x%>|<%{x}%>|<%b%>", NULL};
	struct table t = {pairs};
	struct mustache_set *set = mustache_set_new(table_load, &t);
	struct val *v = val_map();
	val_set_str(v, "x", "<a href=\"&'\">");
	val_set_bool(v, "b", true);
	expect_render(set, v,
		      "&lt;a href=&quot;&amp;&#39;&quot;&gt;|<a href=\"&'\">|"
		      "<a href=\"&'\">|&lt;a href=&quot;&amp;&#39;&quot;&gt;|"
		      "<a href=\"&'\">|true");
	val_free(v);
	mustache_set_free(set);
}

/* A tag's guess of where its name lies in a map (val_getn_hint) never
 * changes an answer: items of changing shapes, the name at another place,
 * past the end of a shorter map, or missing (found in the page around), and
 * the same template rendered again after them. */
static void test_lookup_guess(void **state)
{
	(void)state;
	const char *pairs[] = {"t", "{{#items}}{{a}}-{{b}};{{/items}}", NULL};
	struct table t = {pairs};
	struct mustache_set *set = mustache_set_new(table_load, &t);
	struct val *v = val_map();
	val_set_str(v, "a", "X");
	val_set_str(v, "b", "Y");
	struct val *items = val_set(v, "items", val_list());
	static const char *shapes[][4] = {
		{"a", "1", "b", "2"}, {"b", "3", "a", "4"}, {"a", "5", NULL, NULL},
		{"c", "6", "b", "7"}, {"z", "8", NULL, NULL}, {"a", "9", "b", "0"},
	};
	for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
		struct val *m = val_push(items, val_map());
		for (size_t k = 0; k < 4 && shapes[i][k]; k += 2)
			val_set_str(m, shapes[i][k], shapes[i][k + 1]);
	}
	for (int round = 0; round < 2; round++)
		expect_render(set, v, "1-2;4-3;5-Y;X-7;X-Y;9-0;");
	val_free(v);
	mustache_set_free(set);
}

/* has_<name>: whether the list <name> has items, unless the map sets
 * has_<name> itself; nothing for a name that is no list, nor through an
 * inner map that lacks it (the outer map's list answers); dotted names and
 * refs the same. */
static void test_has_items(void **state)
{
	(void)state;
	const char *pairs[] = {"t",
			       "{{#has_full}}F{{/has_full}}{{^has_empty}}E{{/has_empty}}"
			       "{{#has_set}}S{{/has_set}}{{^has_name}}N{{/has_name}}"
			       "{{#inner}}{{#has_full}}I{{/has_full}}{{/inner}}"
			       "{{#ref.has_full}}R{{/ref.has_full}}{{#has_}}X{{/has_}}",
			       NULL};
	struct table t = {pairs};
	struct mustache_set *set = mustache_set_new(table_load, &t);
	struct val *v = val_map();
	struct val *full = val_set(v, "full", val_list());
	val_push(full, val_str("one"));
	val_set(v, "empty", val_list());
	val_set(v, "set", val_list());
	val_set_bool(v, "has_set", true); /* set explicitly: wins over the empty list */
	val_set_str(v, "name", "a string, no list");
	val_set(v, "inner", val_map());
	val_set(v, "ref", val_ref(v));
	expect_render(set, v, "FESNIR");
	val_free(v);
	mustache_set_free(set);
}

/* got must be "a", then rep (or the byte c itself when rep is NULL), "z". */
static void expect_escaped(const struct buf *got, int c, const char *rep)
{
	struct buf want = BUF_INIT;
	buf_putc(&want, 'a');
	if (rep)
		buf_puts(&want, rep);
	else
		buf_putc(&want, (char)c);
	buf_putc(&want, 'z');
	if (got->n != want.n || memcmp(got->p, want.p, want.n))
		fail_msg("byte 0x%02x escaped as %.*s, want %s", c, (int)got->n, got->p, want.p);
	buf_free(&want);
}

/* Every byte through the escaping tables, against the rules written out. */
static void test_escape_every_byte(void **state)
{
	(void)state;
	for (int c = 0; c < 256; c++) {
		char in[3] = {'a', (char)c, 'z'};
		struct buf html = BUF_INIT, json = BUF_INIT;
		buf_put_html(&html, in, 3);
		buf_put_json(&json, in, 3);
		expect_escaped(&html, c, c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;"
				       : c == '"' ? "&quot;" : c == '\'' ? "&#39;" : NULL);
		char u[16];
		snprintf(u, sizeof u, "\\u%04x", (unsigned)c);
		expect_escaped(&json, c, c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n"
				       : c == '\t' ? "\\t" : c == '\r' ? "\\r"
				       : c < 0x20 || c == '<' || c == '>' || c == '&' ? u : NULL);
		buf_free(&html);
		buf_free(&json);
	}
}

/* A string that outlives the view is referred to by an arena value, copied
 * by a heap one (which val_free then frees, leaving the original alone). */
static void test_lasting_strings(void **state)
{
	(void)state;
	static const char model[] = "the model's title";
	struct val *heap = val_str_lasting(model);
	assert_ptr_not_equal(heap->s, model);
	assert_string_equal(heap->s, model);
	assert_int_equal(heap->slen, strlen(model));
	val_free(heap);
	struct val_arena arena = VAL_ARENA_INIT;
	val_arena_use(&arena);
	struct val *m = val_map();
	val_setk_lasting(m, "title", model);
	struct val *none = val_str_lasting(NULL);
	val_arena_use(NULL);
	assert_ptr_equal(val_get(m, "title")->s, model);
	assert_int_equal(val_get(m, "title")->slen, strlen(model));
	assert_string_equal(none->s, "");
	val_arena_release(&arena);
	assert_string_equal(model, "the model's title");
}

/* A layout with blocks, as ssg's themes use it. */
static void test_layout(void **state)
{
	const char *pairs[] = {
		"base", "<html>\n<title>{{$title}}{{site}}{{/title}}</title>\n<body>\n"
			"  {{$body}}\n  <p>empty</p>\n  {{/body}}\n</body>\n",
		"page", "{{<base}}\n{{$title}}{{title}} - {{site}}{{/title}}\n{{$body}}\n<main>\n"
			"{{#items}}\n  <li>{{.}}</li>\n{{/items}}\n</main>\n{{/body}}\n{{/base}}\n",
		NULL};
	struct table t = {pairs};
	struct mustache_set *set = mustache_set_new(table_load, &t);
	struct val *v = val_map();
	val_set_str(v, "site", "S");
	val_set_str(v, "title", "T");
	struct val *items = val_set(v, "items", val_list());
	val_push(items, val_str("a"));
	val_push(items, val_str("b"));
	struct buf out = BUF_INIT;
	assert_int_equal(mustache_render(set, "page", v, &out, NULL), 0);
	assert_string_equal(buf_cstr(&out), "<html>\n<title>T - S</title>\n<body>\n  <main>\n"
					    "    <li>a</li>\n    <li>b</li>\n  </main>\n</body>\n");
	buf_reset(&out);
	assert_int_equal(mustache_render(set, "base", v, &out, NULL), 0);
	assert_string_equal(buf_cstr(&out), "<html>\n<title>S</title>\n<body>\n  <p>empty</p>\n</body>\n");
	buf_free(&out);
	val_free(v);
	mustache_set_free(set);
}

/* ---- two threads --------------------------------------------------------- */

struct job {
	struct mustache_set *set;
	const struct val *ctx;
	char *result[50];
	int rc;
};

static void *render_many(void *arg)
{
	struct job *j = arg;
	for (int i = 0; i < 50; i++) {
		struct buf out = BUF_INIT;
		struct diags d = DIAGS_INIT;
		j->rc |= mustache_render(j->set, "list", j->ctx, &out, &d);
		j->rc |= (int)d.n;
		j->result[i] = buf_detach(&out);
		diags_free(&d);
	}
	return NULL;
}

static void test_threads(void **state)
{
	const char *pairs[] = {"list", "{{#rows}}\n  {{>row}}\n{{/rows}}\n", "row",
			       "<tr>{{#cells}}<td>{{.}}</td>{{/cells}}</tr>\n", NULL};
	struct table t = {pairs};
	struct mustache_set *set = mustache_set_new(table_load, &t);
	struct val *ctx = val_map();
	struct val *rows = val_set(ctx, "rows", val_list());
	for (int i = 0; i < 200; i++) {
		struct val *cells = val_set(val_push(rows, val_map()), "cells", val_list());
		for (int k = 0; k < 5; k++)
			val_push(cells, val_int(i * 10 + k));
	}
	/* both threads compile lazily: the first render of each races for the lock */
	struct job a = {set, ctx, {0}, 0}, b = {set, ctx, {0}, 0};
	pthread_t ta, tb;
	assert_int_equal(pthread_create(&ta, NULL, render_many, &a), 0);
	assert_int_equal(pthread_create(&tb, NULL, render_many, &b), 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	assert_int_equal(a.rc, 0);
	assert_int_equal(b.rc, 0);
	assert_non_null(strstr(a.result[0], "\n  <tr><td>1990</td><td>1991</td>"));
	assert_true(strlen(a.result[0]) > 200 * 40);
	for (int i = 0; i < 50; i++) {
		assert_string_equal(a.result[i], a.result[0]);
		assert_string_equal(b.result[i], a.result[0]);
	}
	for (int i = 0; i < 50; i++) {
		free(a.result[i]);
		free(b.result[i]);
	}
	val_free(ctx);
	mustache_set_free(set);
}

/* A view built in an arena is the same data as one built on the heap, and
 * releasing the arena leaves heap values (shared, referenced) alone. */
static struct val *sample_view(const struct val *shared)
{
	struct val *m = val_map();
	val_setk_str(m, "title", "A <b> title");
	val_setk(m, "url", val_concat("../../", "r/x/"));
	val_setk_int(m, "zero", 0);
	val_setk_int(m, "neg", -1234567890123LL);
	val_set_str(m, "dup", "first");
	val_set_str(m, "dup", "second"); /* replaces */
	val_setk(m, "nav", val_ref(shared));
	struct val *l = val_setk(m, "items", val_list());
	for (int i = 0; i < 300; i++) /* grows the arrays many times */
		val_setk_int(val_push(l, val_map()), "n", i);
	val_setk(m, "owned", val_str_own(xstrdup("handed over")));
	return m;
}

static void test_arena(void **state)
{
	(void)state;
	struct val *shared = val_list();
	val_push(shared, val_str("shared item"));
	struct val *heap = sample_view(shared);
	struct buf want = BUF_INIT, got = BUF_INIT;
	val_to_json(heap, &want, -1);
	assert_false(heap->in_arena);
	struct val_arena arena = VAL_ARENA_INIT;
	val_arena_use(&arena);
	struct val *v = sample_view(shared);
	val_arena_use(NULL);
	assert_true(v->in_arena);
	val_to_json(v, &got, -1);
	assert_string_equal(buf_cstr(&got), buf_cstr(&want));
	assert_non_null(strstr(buf_cstr(&got), "\"neg\":\"-1234567890123\""));
	assert_non_null(strstr(buf_cstr(&got), "\"dup\":\"second\""));
	val_free(v); /* a no-op for arena values */
	val_arena_release(&arena);
	/* the shared value a released arena referenced is intact */
	assert_string_equal(val_deref(shared)->items[0]->s, "shared item");
	val_free(heap);
	val_free(shared);
	buf_free(&want);
	buf_free(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_items),
		cmocka_unit_test(test_string_items),
		cmocka_unit_test(test_recursion),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_lookup_guess),
		cmocka_unit_test(test_escape_every_byte),
		cmocka_unit_test(test_lasting_strings),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_has_items),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_arena),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
