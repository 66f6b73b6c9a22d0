/* config: site.yml loading, defaults, and every kind of error with its position. */
#include "testutil.h"
#include "config.h"

static int parse(const char *yml, struct config *cfg, struct diags *d)
{
	return config_parse(cfg, yml, strlen(yml), "site.yml", d);
}

static void test_full_config(void **state)
{
	(void)state;
	const char *yml = "title: GPU\n"
			  "base_url: https://example.org/gpu/\n"
			  "raw_html: escape\n"
			  "aliases:\n  https://github.com/openai/triton: https://github.com/triton-lang/triton\n"
			  "kinds:\n  - {id: paper, title: Papers, match: {hosts: [arxiv.org]}}\n"
			  "topics:\n"
			  "  - id: attention\n    title: Attention\n"
			  "    match: {headings: [Flash Attention], words: [attention], urls: [\"github.com/Dao-AILab/*\"]}\n"
			  "    pin: https://arxiv.org/abs/2205.14135\n"
			  "    children:\n      - {id: flash, title: Flash}\n"
			  "  - {id: other, parent: attention}\n"
			  "overrides:\n  https://x.org/a: {kind: paper, topics: [flash]}\n"
			  "quick_reference: {per_topic: 7}\n"
			  "pages: {per_page: 50, sidebar_topics: 12}\n"
			  "limits: {max_file_size: 1000, max_nesting: 10}\n";
	struct config cfg;
	struct diags d = DIAGS_INIT;
	assert_int_equal(parse(yml, &cfg, &d), 0);
	assert_int_equal(d.n, 0);
	assert_string_equal(cfg.title, "GPU");
	assert_int_equal(cfg.raw_html, RAW_HTML_ESCAPE);
	assert_int_equal(cfg.naliases, 1);
	assert_int_equal(cfg.nkinds, 1);
	assert_int_equal(cfg.ntopics, 3);
	assert_string_equal(cfg.topics[1].id, "flash");
	assert_int_equal(cfg.topics[1].parent, 0);
	assert_int_equal(cfg.topics[2].parent, 0);
	assert_int_equal(cfg.topics[0].match.nheadings, 1);
	assert_int_equal(cfg.topics[0].npin, 1);
	assert_int_equal(cfg.qr_per_topic, 7);
	assert_int_equal(cfg.per_page, 50);
	assert_int_equal(cfg.sidebar_topics, 12);
	assert_int_equal(cfg.max_file_size, 1000);
	assert_int_equal(config_topic_index(&cfg, "other"), 2);
	config_free(&cfg);
	diags_free(&d);
}

static void expect_error(const char *yml, int line, int col, const char *needle)
{
	struct config cfg;
	struct diags d = DIAGS_INIT;
	assert_int_equal(parse(yml, &cfg, &d), -1);
	assert_true(d.n >= 1);
	bool found = false;
	for (size_t i = 0; i < d.n; i++)
		if (d.v[i].sev == SEV_ERROR && d.v[i].line == line && d.v[i].col == col &&
		    strstr(d.v[i].msg, needle) && !strcmp(d.v[i].path, "site.yml"))
			found = true;
	if (!found)
		diags_print(&d, stderr);
	assert_true(found);
	config_free(&cfg);
	diags_free(&d);
}

static void test_errors_have_positions(void **state)
{
	(void)state;
	expect_error("title: [unclosed\n", 2, 1, "invalid YAML");
	expect_error("title: x\ncolour: blue\n", 2, 1, "unknown key 'colour'");
	expect_error("title: [a, b]\n", 1, 8, "'title' must be a string");
	expect_error("topics:\n  - id: a\n    bogus: 1\n", 3, 5, "unknown key 'bogus'");
	expect_error("quick_reference: {per_topic: many}\n", 1, 30, "must be an integer");
	expect_error("raw_html: allow\n", 1, 11, "'sanitize' or 'escape'");
	expect_error("topics:\n  - {id: a}\n  - {id: a}\n", 3, 5, "defined twice");
	expect_error("topics:\n  - {id: b, parent: nope}\n", 2, 5, "parent 'nope'");
	expect_error("topics:\n  - {id: \"Bad Id\"}\n", 2, 5, "needs an 'id'");
	expect_error("overrides:\n  https://x.org: {kind: nokind}\n", 2, 3, "kind 'nokind'");
	expect_error("- just\n- a list\n", 1, 1, "must be a mapping");
	expect_error("pages: {sidebar_topics: 9}\n", 1, 25, "'pages.sidebar_topics' must be at least 10");
	expect_error("pages:\n  per_page: 3\n", 2, 13, "'pages.per_page' must be at least 10");
	expect_error("pages: {sidebar: 9}\n", 1, 9, "unknown key 'sidebar'");
}

/* Each repeat of a topic id is one error naming the first; the ids are
 * looked up by the first of them. */
static void test_repeated_topic_ids(void **state)
{
	(void)state;
	const char *yml = "topics:\n  - {id: a}\n  - {id: b, parent: a}\n  - {id: a}\n  - {id: a}\n";
	struct config cfg;
	struct diags d = DIAGS_INIT;
	assert_int_equal(parse(yml, &cfg, &d), -1);
	assert_int_equal(d.n, 2);
	for (size_t i = 0; i < d.n; i++) {
		assert_int_equal(d.v[i].line, 4 + (int)i);
		assert_non_null(strstr(d.v[i].msg, "defined twice (first at line 2)"));
	}
	assert_int_equal(config_topic_index(&cfg, "a"), 0);
	assert_int_equal(config_topic_index(&cfg, "b"), 1);
	assert_int_equal(config_topic_index(&cfg, "c"), -1);
	assert_int_equal(cfg.topics[1].parent, 0);
	config_free(&cfg);
	diags_free(&d);
	/* parent: chains nest no deeper than children: do (16 levels below a
	 * root): 17 topics in a chain are fine, the 18th is an error */
	char chain[4096] = "topics:\n  - {id: t0}\n";
	for (int i = 1; i < 17; i++)
		snprintf(chain + strlen(chain), sizeof chain - strlen(chain),
			 "  - {id: t%d, parent: t%d}\n", i, i - 1);
	assert_int_equal(parse(chain, &cfg, &d), 0);
	assert_int_equal(cfg.topics[16].parent, 15);
	config_free(&cfg);
	diags_free(&d);
	snprintf(chain + strlen(chain), sizeof chain - strlen(chain), "  - {id: t17, parent: t16}\n");
	expect_error(chain, 19, 5, "topic 't17' nests deeper than 16 levels");
	/* a topic is not its own parent */
	expect_error("topics:\n  - {id: a, parent: a}\n", 2, 5, "parent 'a' is not a topic defined before it");
}

static void test_defaults_without_file(void **state)
{
	(void)state;
	struct config cfg;
	struct diags d = DIAGS_INIT;
	assert_int_equal(config_load(&cfg, "/nonexistent-ssg-dir", &d), 0);
	assert_int_equal(d.n, 0);
	assert_false(cfg.from_file);
	assert_string_equal(cfg.theme, "default");
	assert_true(cfg.nkinds >= 5); /* the embedded kinds */
	assert_true(config_kind_index(&cfg, "paper") >= 0);
	assert_int_equal(cfg.ntopics, 0);
	assert_int_equal(cfg.sidebar_topics, 100);
	config_free(&cfg);
	diags_free(&d);
}

static void test_repo_site_yml_loads(void **state)
{
	(void)state;
	struct config cfg;
	struct diags d = DIAGS_INIT;
	int rc = config_load(&cfg, ".", &d);
	diags_print(&d, stderr);
	assert_int_equal(rc, 0);
	assert_int_equal(d.n, 0);
	assert_true(cfg.ntopics >= 8);
	config_free(&cfg);
	diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_config),
		cmocka_unit_test(test_errors_have_positions),
		cmocka_unit_test(test_repeated_topic_ids),
		cmocka_unit_test(test_defaults_without_file),
		cmocka_unit_test(test_repo_site_yml_loads),
	};
	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
