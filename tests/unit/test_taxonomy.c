/* taxonomy and model: merging URL spellings, aliases, kinds, topics by each
 * rule type, overrides, unsorted, quick reference. */
#include "testutil.h"
#include "extract.h"
#include "md.h"
#include "model.h"
#include "buf.h"
#include "view.h"
#include "url.h"

static const char *yml =
	"aliases:\n  https://github.com/openai/triton: https://github.com/triton-lang/triton\n"
	"kinds:\n"
	"  - {id: paper, title: Papers, match: {hosts: [arxiv.org]}}\n"
	"  - {id: repository, title: Repositories, match: {hosts: [github.com]}}\n"
	"  - {id: documentation, title: Docs, match: {hosts: [\"*.readthedocs.io\", \"docs.*\"]}}\n"
	"topics:\n"
	"  - id: attention\n    title: Attention\n"
	"    match: {headings: [Flash Attention]}\n"
	"    pin: https://arxiv.org/abs/2307.08691\n"
	"  - id: triton\n    title: Triton\n    match: {urls: [\"github.com/triton-lang/*\"]}\n"
	"  - id: profiling\n    title: Profiling\n    match: {words: [profiler]}\n"
	"  - id: pytorch\n    title: PyTorch\n    match: {hosts: [pytorch.org]}\n"
	"overrides:\n  https://example.org/special: {kind: paper, topics: [triton],"
	" title: \"Special, retitled\", description: Set in site.yml.}\n";

static const char *doc_a =
	"# A\n## Flash Attention\n"
	"- **Paper**: https://arxiv.org/abs/2205.14135\n"
	"- **v2**: https://arxiv.org/abs/2307.08691\n"
	"## Tools\n"
	"- [Triton](https://github.com/openai/triton) - compiler\n"
	"- [Torch profiler](https://pytorch.org/docs/stable/profiler.html)\n"
	"- [Special](https://example.org/special)\n"
	"- [Lonely](https://lonely.example.com/page)\n";
static const char *doc_b =
	"# B\n## Papers\n"
	"- [FlashAttention](http://www.arxiv.org/abs/2205.14135/) - the paper\n"
	"- [FA pdf](https://arxiv.org/pdf/2205.14135v2.pdf)\n"
	"- [Triton repo](http://github.com/openai/triton/?utm_source=x)\n";

static void add_doc(struct site *s, const char *text, const char *name)
{
	struct doc *d = &s->docs[s->ndocs];
	memset(d, 0, sizeof *d);
	d->index = s->ndocs++;
	d->relpath = strdup(name);
	d->shown = strdup(name);
	d->tree = md_parse(text, strlen(text), name, false, &d->diags);
	extract_doc(d);
	d->title = strdup(name);
}

/* A site with the site.yml `config`, and room for ndocs documents. */
static struct site *new_site_with(const char *config, size_t ndocs)
{
	struct site *s = calloc(1, sizeof *s);
	struct diags d = DIAGS_INIT;
	assert_int_equal(config_parse(&s->cfg, config, strlen(config), "site.yml", &d), 0);
	diags_free(&d);
	s->docs = calloc(ndocs, sizeof *s->docs);
	return s;
}

/* The same with the test's site.yml. */
static struct site *new_site(size_t ndocs) { return new_site_with(yml, ndocs); }

static struct site *build(void)
{
	struct site *s = new_site(2);
	add_doc(s, doc_a, "a.md");
	add_doc(s, doc_b, "b.md");
	model_build(s);
	return s;
}

static const struct resource *res(const struct site *s, const char *url)
{
	long r = model_resource(s, url);
	if (r < 0)
		fail_msg("no resource %s", url);
	return &s->res[r];
}

static bool in_topic(const struct site *s, const struct resource *r, const char *id)
{
	for (size_t i = 0; i < r->ntopics; i++)
		if (!strcmp(s->topics[r->topics[i]].id, id))
			return true;
	return false;
}

static void test_merge_and_classify(void **state)
{
	(void)state;
	struct site *s = build();
	/* 2205.14135 in four spellings, triton in two plus an alias */
	assert_int_equal(s->nres, 6);
	const struct resource *fa = res(s, "https://arxiv.org/abs/2205.14135");
	assert_int_equal(fa->nrefs, 3);
	assert_int_equal(fa->ndocs, 2);
	/* spellings are made on first use */
	assert_int_equal(fa->nspellings, 0);
	model_spellings(s, fa);
	assert_int_equal(fa->nspellings, 3);
	model_spellings(s, fa);
	assert_int_equal(fa->nspellings, 3);
	assert_string_equal(s->cfg.kinds[fa->kind].id, "paper");
	assert_true(in_topic(s, fa, "attention"));
	const struct resource *tr = res(s, "https://github.com/triton-lang/triton");
	assert_int_equal(tr->ndocs, 2);
	assert_string_equal(s->cfg.kinds[tr->kind].id, "repository");
	assert_true(in_topic(s, tr, "triton"));
	const struct resource *prof = res(s, "https://pytorch.org/docs/stable/profiler.html");
	assert_true(in_topic(s, prof, "profiling")); /* word in title */
	assert_true(in_topic(s, prof, "pytorch"));   /* host */
	assert_int_equal(prof->kind, -1);
	const struct resource *sp = res(s, "https://example.org/special");
	assert_string_equal(s->cfg.kinds[sp->kind].id, "paper");
	assert_int_equal(sp->ntopics, 1);
	assert_true(in_topic(s, sp, "triton"));
	/* names: site.yml's over the entries', else the entries' own */
	assert_string_equal(sp->title, "Special, retitled");
	assert_string_equal(sp->desc, "Set in site.yml.");
	const struct resource *lone = res(s, "https://lonely.example.com/page");
	assert_true(in_topic(s, lone, "unsorted"));
	assert_string_equal(lone->title, "Lonely");
	assert_null(lone->desc);
	assert_string_equal(tr->desc, "compiler");
	assert_int_equal(s->unsorted_count, 1);
	model_free(s);
	free(s);
}

static void test_quick_reference_and_slugs(void **state)
{
	(void)state;
	struct site *s = build();
	int t = config_topic_index(&s->cfg, "attention");
	const struct topic *at = &s->topics[t];
	assert_int_equal(at->nresources, 2);
	/* the pin first, then the most cited */
	assert_true(at->nquick >= 2);
	assert_string_equal(s->res[at->quick[0]].canonical, "https://arxiv.org/abs/2307.08691");
	assert_string_equal(s->res[at->quick[1]].canonical, "https://arxiv.org/abs/2205.14135");
	assert_int_equal(at->ndocs, 2);
	for (size_t i = 0; i < s->nres; i++)
		for (size_t k = i + 1; k < s->nres; k++)
			assert_string_not_equal(s->res[i].slug, s->res[k].slug);
	assert_true(taxonomy_host_match("docs.nvidia.com", "nvidia.com"));
	assert_true(taxonomy_host_match("triton.readthedocs.io", "*.readthedocs.io"));
	assert_true(taxonomy_host_match("docs.python.org", "docs.*"));
	assert_false(taxonomy_host_match("notnvidia.com", "nvidia.com"));
	assert_false(taxonomy_host_match("readthedocs.io", "*.readthedocs.io"));
	model_free(s);
	free(s);
}

/* Title order (case-insensitive, then URL) is one sort; every list by title
 * follows it: topics' resources, their listings (by kind first) and the A-Z
 * index (by letter first). */
static int by_title(const struct resource *x, const struct resource *y)
{
	int c = strcasecmp(x->title, y->title);
	return c ? c : strcmp(x->canonical, y->canonical);
}

static void test_orders(void **state)
{
	(void)state;
	struct site *s = build();
	for (size_t i = 0; i < s->nres; i++) {
		assert_int_equal(s->res[s->title_order[i]].title_rank, i);
		if (i)
			assert_true(by_title(&s->res[s->title_order[i - 1]],
					     &s->res[s->title_order[i]]) < 0);
	}
	size_t listed = 0;
	for (size_t t = 0; t < s->ntopics; t++) {
		const struct topic *tp = &s->topics[t];
		listed += tp->nresources;
		for (size_t i = 1; i < tp->nresources; i++) {
			assert_true(by_title(&s->res[tp->resources[i - 1]], &s->res[tp->resources[i]]) < 0);
			const struct resource *a = &s->res[tp->listing[i - 1]], *b = &s->res[tp->listing[i]];
			int ka = a->kind < 0 ? 1 << 20 : a->kind, kb = b->kind < 0 ? 1 << 20 : b->kind;
			assert_true(ka < kb || (ka == kb && by_title(a, b) < 0));
		}
	}
	size_t memberships = 0;
	for (size_t i = 0; i < s->nres; i++)
		memberships += s->res[i].ntopics;
	assert_int_equal(listed, memberships);
	for (size_t i = 1; i < s->nres; i++) {
		const struct resource *a = &s->res[s->index_order[i - 1]], *b = &s->res[s->index_order[i]];
		char la = xref_letter(a->title), lb = xref_letter(b->title);
		assert_true(la == lb ? by_title(a, b) < 0 : (lb == '#' || (la != '#' && la < lb)));
	}
	model_free(s);
	free(s);
}

/* The same orders and the quick reference over 300 resources: titles of
 * every case, leading digits and symbols, cited from one to three times. The
 * title order is checked pair by pair (it is merged from two sorted halves),
 * the A-Z index letter by letter, and the quick reference against a full
 * sort of the topic's resources (it keeps only the top few). */
static int by_cited(const struct resource *x, const struct resource *y)
{
	if (x->ndocs != y->ndocs)
		return x->ndocs > y->ndocs ? -1 : 1;
	if (x->nrefs != y->nrefs)
		return x->nrefs > y->nrefs ? -1 : 1;
	return by_title(x, y);
}

static const struct site *sort_site;
static int cmp_cited_idx(const void *a, const void *b)
{
	return by_cited(&sort_site->res[*(const size_t *)a], &sort_site->res[*(const size_t *)b]);
}

static void test_orders_large(void **state)
{
	(void)state;
	/* short stems, and long ones alike in their first 8, 16 or more bytes
	 * but for case (the order compares 16 bytes before the titles) */
	static const char *stems[] = {"alpha", "Alpha", "BETA", "3d", "_x", "zeta", "Éclair", "m",
				      "A Gentle Introduction", "a gentle introduction to",
				      "A Gentle Intro", "A GENTLE INTRODUCTION TO"};
	const char *cfg = "quick_reference: { per_topic: 7 }\n"
			  "topics:\n  - id: items\n    title: Items\n    match: {words: [item]}\n"
			  "    pin: https://example.org/r/150\n";
	struct site *s = new_site_with(cfg, 3);
	for (int di = 0; di < 3; di++) {
		struct buf b = BUF_INIT;
		buf_printf(&b, "# Doc %d\n", di);
		for (int k = 0; k < 300; k++) {
			/* each resource in one to three documents, some twice in one */
			if (k % 3 < di)
				continue;
			for (int rep = 0; rep < 1 + (k % 7 == di); rep++)
				buf_printf(&b, "- [%s %d](https://example.org/r/%d) - an item\n",
					   stems[k % 12], (k * 37) % 100, k);
		}
		char name[16];
		snprintf(name, sizeof name, "d%d.md", di);
		add_doc(s, buf_cstr(&b), name);
		buf_free(&b);
	}
	model_build(s);
	assert_int_equal(s->nres, 300);
	for (size_t i = 0; i < s->nres; i++) {
		assert_int_equal(s->res[s->title_order[i]].title_rank, i);
		if (i)
			assert_true(by_title(&s->res[s->title_order[i - 1]],
					     &s->res[s->title_order[i]]) < 0);
	}
	for (size_t i = 1; i < s->nres; i++) {
		const struct resource *a = &s->res[s->index_order[i - 1]], *b = &s->res[s->index_order[i]];
		char la = xref_letter(a->title), lb = xref_letter(b->title);
		assert_true(la == lb ? by_title(a, b) < 0 : (lb == '#' || (la != '#' && la < lb)));
	}
	const struct topic *t = &s->topics[config_topic_index(&s->cfg, "items")];
	assert_int_equal(t->nresources, 300);
	size_t *all = calloc(t->nresources, sizeof *all);
	memcpy(all, t->resources, t->nresources * sizeof *all);
	sort_site = s;
	qsort(all, t->nresources, sizeof *all, cmp_cited_idx);
	size_t pin = (size_t)model_resource(s, "https://example.org/r/150");
	assert_int_equal(t->nquick, 7);
	assert_int_equal(t->quick[0], pin);
	for (size_t q = 1, i = 0; q < t->nquick; q++, i++) {
		if (all[i] == pin)
			i++;
		assert_int_equal(t->quick[q], all[i]);
	}
	free(all);
	model_free(s);
	free(s);
}

/* The default kinds, each rule shape once: a domain, "*.x" and "x.*" hosts,
 * and URL patterns that start with a star (tried against every resource no
 * earlier kind took, each ruled out by its literal text first). */
static void test_default_kinds(void **state)
{
	(void)state;
	static const struct {
		const char *url, *kind;
	} want[] = {
		{"https://example.com/blog/post", "blog"},
		{"https://example.com/papers/x.pdf", "paper"},
		{"https://example.com/docs", "documentation"},
		{"https://example.com/api/v1/thing", "documentation"},
		{"https://example.com/courses/gpu", "course"},
		{"https://example.com/about", "website"},
		{"https://example.com/blogger", "website"},
		{"https://docs.example.com/x", "documentation"},
		{"https://team.github.io/x", "blog"},
		{"https://github.com/a/b", "repository"},
		{"https://sub.arxiv.org/abs/1", "paper"},
		{"https://notarxiv.org/abs/1", "website"},
		{"https://forum.example.org/t/1", "forum"},
		{"https://youtu.be/abc", "video"},
	};
	struct buf text = BUF_INIT;
	buf_puts(&text, "# Links\n");
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		buf_printf(&text, "- [Link %zu](%s)\n", i, want[i].url);
	struct site *s = calloc(1, sizeof *s);
	struct diags d = DIAGS_INIT;
	assert_int_equal(config_parse(&s->cfg, "title: T\n", 9, "site.yml", &d), 0);
	s->docs = calloc(1, sizeof *s->docs);
	add_doc(s, buf_cstr(&text), "a.md");
	model_build(s);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		char *c = url_canonical(want[i].url);
		const struct resource *r = res(s, c);
		free(c);
		assert_true(r->kind >= 0);
		if (strcmp(s->cfg.kinds[r->kind].id, want[i].kind))
			fail_msg("%s: kind %s, want %s", want[i].url, s->cfg.kinds[r->kind].id,
				 want[i].kind);
	}
	buf_free(&text);
	diags_free(&d);
	model_free(s);
	free(s);
}

/* The topic a document's citations name most, the topics it names itself
 * weighing a thousand each, worked out here from the resources' topics. */
static int expected_topic(const struct site *s, size_t d)
{
	size_t counts[16] = {0};
	assert_true(s->ntopics <= 16);
	const struct doc *doc = &s->docs[d];
	for (size_t i = 0; i < doc->ncites; i++)
		if (doc->cites[i].resource >= 0) {
			const struct resource *r = &s->res[doc->cites[i].resource];
			for (size_t k = 0; k < r->ntopics; k++)
				counts[r->topics[k]]++;
		}
	for (size_t i = 0; i < doc->meta.ntopics; i++)
		counts[config_topic_index(&s->cfg, doc->meta.topics[i])] += 1000;
	int best = -1;
	for (size_t t = 0; t < s->ntopics; t++)
		if (counts[t] && !s->topics[t].unsorted && (best < 0 || counts[t] > counts[best]))
			best = (int)t;
	return best;
}

/* Each document's topic is made with the topics' documents, and is the one
 * the views make when the taxonomy has not (more than 64 topics). */
static void test_doc_topic(void **state)
{
	(void)state;
	struct site *s = new_site(4);
	add_doc(s, doc_a, "a.md");
	add_doc(s, doc_b, "b.md");
	add_doc(s, doc_a, "c.md");
	add_doc(s, "# Nothing cited\n", "d.md");
	struct doc *named = &s->docs[2];
	named->meta.topics = calloc(2, sizeof *named->meta.topics);
	named->meta.topics[0] = strdup("profiling");
	named->meta.ntopics = 1;
	model_build(s);
	assert_non_null(s->doc_primary);
	for (size_t i = 0; i < s->ndocs; i++)
		assert_int_equal(s->doc_primary[i], expected_topic(s, i));
	/* a.md and c.md cite the same: the topic c.md names wins, a.md's differs */
	assert_int_equal(s->doc_primary[2], config_topic_index(&s->cfg, "profiling"));
	assert_true(s->doc_primary[0] >= 0 && s->doc_primary[0] != s->doc_primary[2]);
	assert_int_equal(s->doc_primary[3], -1);
	int *made = s->doc_primary;
	s->doc_primary = NULL;
	view_prepare(s);
	for (size_t i = 0; i < s->ndocs; i++)
		assert_int_equal(s->doc_primary[i], made[i]);
	view_release(s);
	assert_null(s->doc_primary);
	free(made);
	model_free(s);
	free(s);
}

/* An override naming its topics many times over (more names than the site
 * has topics) gives each once: it once wrote past the resource's list. */
static void test_override_topics_named_twice(void **state)
{
	(void)state;
	struct buf y = BUF_INIT;
	buf_puts(&y, "topics:\n  - {id: triton, title: Triton}\n  - {id: cuda, title: CUDA}\n"
		     "overrides:\n  https://example.org/special: {topics: [");
	for (int i = 0; i < 600; i++)
		buf_puts(&y, i ? ", triton" : "triton");
	buf_puts(&y, ", cuda, cuda]}\n");
	struct site *s = calloc(1, sizeof *s);
	struct diags d = DIAGS_INIT;
	assert_int_equal(config_parse(&s->cfg, y.p, y.n, "site.yml", &d), 0);
	diags_free(&d);
	s->docs = calloc(1, sizeof *s->docs);
	add_doc(s, "# A\n- [Special](https://example.org/special)\n", "a.md");
	model_build(s);
	const struct resource *sp = res(s, "https://example.org/special");
	assert_int_equal(sp->ntopics, 2);
	assert_true(in_topic(s, sp, "triton") && in_topic(s, sp, "cuda"));
	model_free(s);
	free(s);
	buf_free(&y);
}

/* URL rules: a pattern matches a URL's host and path from its start (a
 * pattern that begins with a literal needs a key that begins with it, which
 * classifying checks with one compare), up to a '/' after it; one that
 * begins with a star matches anywhere its literal lies. Word-only topics
 * and topics with rules, mixed, each resource in every topic it matches. */
static void test_url_rules_from_the_start(void **state)
{
	(void)state;
	static const char y[] =
		"kinds:\n  - {id: pdf, title: PDFs, match: {urls: [\"*.pdf\"]}}\n"
		"topics:\n"
		"  - {id: docs, title: Docs, match: {urls: [\"docs.x.org/a*\", \"github.com/org\"]}}\n"
		"  - {id: words, title: Words, match: {words: [kernel]}}\n"
		"  - {id: heads, title: Heads, match: {headings: [Heads]}}\n"
		"  - {id: mid, title: Mid, match: {urls: [\"*/guide/*\"]}}\n";
	static const char doc[] =
		"# T\n## Heads\n"
		"- [One](https://docs.x.org/abc) - a kernel\n"
		"- [Two](https://x.docs.x.org/a)\n"
		"- [Three](https://github.com/org/repo)\n"
		"- [Four](https://github.com/organ)\n"
		"- [Five](https://ex.com/file.pdf)\n"
		"- [Six](https://docs.x.org/b/guide/c)\n"
		"- [Seven](https://guide.ex.com/guide)\n";
	struct site *s = new_site_with(y, 1);
	add_doc(s, doc, "a.md");
	model_build(s);
	static const struct {
		const char *url, *in, *out;
	} want[] = {
		{"https://docs.x.org/abc", "docs", "mid"},
		{"https://x.docs.x.org/a", "heads", "docs"},
		{"https://github.com/org/repo", "docs", "mid"},
		{"https://github.com/organ", "heads", "docs"},
		{"https://ex.com/file.pdf", "heads", "docs"},
		{"https://docs.x.org/b/guide/c", "mid", "docs"},
		{"https://guide.ex.com/guide", "heads", "mid"},
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const struct resource *r = res(s, want[i].url);
		assert_true(in_topic(s, r, want[i].in));
		assert_false(in_topic(s, r, want[i].out));
		assert_true(in_topic(s, r, "heads")); /* every entry is under the heading */
	}
	assert_true(in_topic(s, res(s, "https://docs.x.org/abc"), "words"));
	assert_false(in_topic(s, res(s, "https://github.com/org/repo"), "words"));
	assert_int_equal(res(s, "https://ex.com/file.pdf")->kind, 0);
	model_free(s);
	free(s);
}

/* One site of 100 documents: 300 URLs shared in an interleaved order, one of
 * their own each (400 in all: more than the merge's first table takes, a
 * quarter of the 1,010 citations, so it is made again), and the alias's
 * URL spelled two ways. Built with `jobs` threads. */
static struct site *merge_site(int jobs)
{
	/* an alias into its own URL's folder: applied twice, it would show */
	const char *cfg = "aliases:\n  https://github.com/openai/triton: "
			  "https://github.com/openai/triton/tree/main\n";
	struct site *s = new_site_with(cfg, 100);
	s->jobs = jobs;
	for (int di = 0; di < 100; di++) {
		struct buf b = BUF_INIT;
		buf_printf(&b, "# Doc %d\n", di);
		for (int i = 0; i < 9; i++)
			buf_printf(&b, "- [T %d](https://x.example/p/%d)\n", i, (di * 7 + i * 13) % 300);
		buf_printf(&b, "- [Own](https://own.example/%d)\n", di);
		if (di % 10 == 3)
			buf_puts(&b, di % 20 == 3 ? "- [Triton](https://github.com/openai/triton)\n"
						  : "- [Triton](http://github.com/openai/triton/?utm_source=x)\n");
		char name[16];
		snprintf(name, sizeof name, "d%02d.md", di);
		add_doc(s, buf_cstr(&b), name);
		buf_free(&b);
	}
	model_build(s);
	return s;
}

/* The merge numbers resources by first citation in document order and
 * lists each one's citations in that order, whatever the threads, also
 * when its first table fills up; aliases apply once. */
static void test_merge_any_threads(void **state)
{
	(void)state;
	int jobs[] = {1, 2, 3, 8};
	struct site *one = NULL;
	for (size_t j = 0; j < sizeof jobs / sizeof *jobs; j++) {
		struct site *s = merge_site(jobs[j]);
		/* the reference: the citations walked one by one */
		struct hash seen = HASH_INIT;
		size_t next = 0;
		for (size_t d = 0; d < s->ndocs; d++)
			for (size_t i = 0; i < s->docs[d].ncites; i++) {
				const struct citation *c = &s->docs[d].cites[i];
				assert_non_null(c->canonical);
				size_t v;
				if (!hash_get(&seen, c->canonical, &v)) {
					hash_put(&seen, c->canonical, next);
					v = next++;
				}
				assert_int_equal(c->resource, v);
				assert_string_equal(s->res[v].canonical, c->canonical);
				assert_int_equal(model_resource(s, c->canonical), v);
			}
		assert_int_equal(s->nres, next);
		assert_int_equal(s->nres, 300 + 100 + 1);
		assert_true(s->res_by_url.cap >= 1024); /* made again, bigger */
		hash_free(&seen);
		for (size_t ri = 0; ri < s->nres; ri++) {
			const struct resource *r = &s->res[ri];
			assert_true(r->nrefs >= 1);
			for (size_t k = 0; k < r->nrefs; k++) {
				const struct cite_ref *f = &r->refs[k];
				assert_int_equal(s->docs[f->doc].cites[f->cite].resource, ri);
				if (k)
					assert_true(f->doc > r->refs[k - 1].doc ||
						    (f->doc == r->refs[k - 1].doc &&
						     f->cite > r->refs[k - 1].cite));
			}
		}
		const struct resource *t = res(s, "https://github.com/openai/triton/tree/main");
		assert_int_equal(t->nrefs, 10);
		assert_int_equal(model_resource(s, "https://github.com/openai/triton"), -1);
		if (!one)
			one = s;
		else {
			for (size_t ri = 0; ri < s->nres; ri++) {
				assert_string_equal(s->res[ri].canonical, one->res[ri].canonical);
				assert_string_equal(s->res[ri].slug, one->res[ri].slug);
				assert_int_equal(s->res[ri].nrefs, one->res[ri].nrefs);
			}
			model_free(s);
			free(s);
		}
	}
	model_free(one);
	free(one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_and_classify),
		cmocka_unit_test(test_quick_reference_and_slugs),
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_orders_large),
		cmocka_unit_test(test_doc_topic),
		cmocka_unit_test(test_default_kinds),
		cmocka_unit_test(test_override_topics_named_twice),
		cmocka_unit_test(test_url_rules_from_the_start),
		cmocka_unit_test(test_merge_any_threads),
	};
	return cmocka_run_group_tests_name("taxonomy", tests, NULL, NULL);
}
