/* taxonomy: aliases, kinds and topics from site.yml applied to resources
 * (see model.h). A resource's kind is the first kind whose rules match (an
 * override wins); its topics are every topic with a matching rule (an
 * override replaces them); what matches no topic goes to "unsorted". */
#include "model.h"
#include "phrases.h"
#include "buf.h"
#include "pool.h"
#include "url.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void taxonomy_aliases_init(struct aliases *a, const struct config *cfg)
{
	memset(a, 0, sizeof *a);
	a->from = xcalloc(cfg->naliases + 1, sizeof *a->from);
	a->to = xcalloc(cfg->naliases + 1, sizeof *a->to);
	for (size_t i = 0; i < cfg->naliases; i++) {
		char *f = url_canonical(cfg->aliases[i].from);
		char *t = url_canonical(cfg->aliases[i].to);
		if (f && t) {
			a->from[a->n] = f;
			a->to[a->n++] = t;
		} else {
			free(f);
			free(t);
		}
	}
}

void taxonomy_aliases_free(struct aliases *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->from[i]);
		free(a->to[i]);
	}
	free(a->from);
	free(a->to);
	memset(a, 0, sizeof *a);
}

char *taxonomy_alias(const struct aliases *a, const char *canonical)
{
	for (size_t i = 0; i < a->n; i++) {
		size_t fl = strlen(a->from[i]);
		if (!strncmp(canonical, a->from[i], fl) &&
		    (canonical[fl] == '\0' || canonical[fl] == '/' || canonical[fl] == '?' ||
		     canonical[fl] == '#'))
			return xasprintf("%s%s", a->to[i], canonical + fl);
	}
	return xstrdup(canonical);
}

/* A host pattern, its shape seen once: "*.x" (any host ending in ".x"),
 * "x.*" (any host starting with "x."), or a domain (itself and the hosts
 * under it). The text is the pattern's, borrowed. */
struct host_rule {
	const char *text; /* ".x", "x." or the domain */
	size_t len;
	char shape;       /* 's'uffix, 'p'refix or 'd'omain */
};

static struct host_rule host_rule_of(const char *pattern)
{
	size_t pl = strlen(pattern);
	if (pl >= 2 && pattern[0] == '*' && pattern[1] == '.')
		return (struct host_rule){pattern + 1, pl - 1, 's'};
	if (pl >= 2 && pattern[pl - 1] == '*' && pattern[pl - 2] == '.')
		return (struct host_rule){pattern, pl - 1, 'p'};
	return (struct host_rule){pattern, pl, 'd'};
}

/* Lengths first: most hosts are told apart without comparing a byte. */
static bool host_rule_match(const struct host_rule *h, const char *host, size_t hl)
{
	switch (h->shape) {
	case 's':
		return hl > h->len && !strncasecmp(host + hl - h->len, h->text, h->len);
	case 'p':
		return hl > h->len && !strncasecmp(host, h->text, h->len);
	default:
		if (hl == h->len)
			return !strncasecmp(host, h->text, hl);
		return hl > h->len + 1 && host[hl - h->len - 1] == '.' &&
		       !strncasecmp(host + hl - h->len, h->text, h->len);
	}
}

bool taxonomy_host_match(const char *host, const char *pattern)
{
	struct host_rule h = host_rule_of(pattern);
	return host_rule_match(&h, host, strlen(host));
}

/* ---- text rules -------------------------------------------------------------
 * Words and headings are matched case-insensitively at word boundaries. All
 * text is lower-cased once: the rules' words per build, a resource's titles
 * and descriptions once per resource, each heading once per document. */

static char *lower(const char *s)
{
	char *l = xstrdup(s ? s : "");
	for (char *p = l; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return l;
}

/* A URL pattern, compiled (url_pattern_compile), with its longest run of
 * literal bytes: a key without that run cannot match, and most keys are
 * told so by one memmem rather than the glob's walk (the default kinds'
 * patterns for docs, blogs and courses start with a star, and are tried
 * against every resource no earlier kind took). */
struct url_rule {
	char *compiled;
	const char *literal; /* in compiled; "" when it is all stars */
	size_t nliteral;
	size_t lead;         /* the literal bytes it starts with (0: a star): a
			      * key matches from its start (glob_match), so a
			      * key must begin with them, one memcmp */
};

/* One kind's or topic's URL rules, made once per build. */
struct rule_set {
	struct host_rule *hosts;
	size_t nhosts;
	struct url_rule *urls;
	size_t nurls;
};

struct classify_ctx {
	struct site *s;
	struct rule_set *kind_rules;  /* per kind */
	struct rule_set *topic_rules; /* per topic */
	struct phrase_set words; /* every topic's words, lower-cased: id = topic */
	struct phrase_set head_words; /* every topic's heading rules, the same */
	unsigned char **heads;   /* per document: nheadings x ntopics, 1 when a heading
				  * rule of the topic matches the section or a section
				  * around it (not the document's title); NULL for a
				  * document that no resource classified anew cites */
	bool *need_heads;        /* per document: whether heads are made for it */
	size_t *ruled;           /* the topics with URL or heading rules: the others
				  * are decided by their words alone */
	size_t nruled;
	char **overrides;        /* per override: its URL, canonical (or NULL) */
};

/* Each topic's phrases (words or heading rules), lower-cased, into one set. */
static void add_lowered(struct phrase_set *set, char **v, size_t n, size_t topic)
{
	for (size_t k = 0; k < n; k++) {
		char *l = lower(v[k]);
		phrase_set_add(set, l, topic);
		free(l);
	}
}

static void heads_of_doc(void *ctx, size_t d)
{
	struct classify_ctx *x = ctx;
	const struct site *s = x->s;
	size_t nt = s->cfg.ntopics;
	const struct doc *doc = &s->docs[d];
	if (!x->need_heads[d])
		return;
	unsigned char *h = xcalloc(doc->nheadings * nt + 1, 1);
	bool *hit = xcalloc(nt + 1, sizeof *hit);
	for (size_t i = 0; i < doc->nheadings; i++) {
		if (doc->headings[i].level <= 1)
			continue; /* the title names the whole document */
		char *text = lower(doc->headings[i].text);
		int parent = doc->headings[i].parent;
		memset(hit, 0, nt * sizeof *hit);
		phrase_set_match(&x->head_words, text, hit);
		for (size_t t = 0; t < nt; t++)
			h[i * nt + t] = hit[t] || (parent >= 0 && h[(size_t)parent * nt + t]);
		free(text);
	}
	free(hit);
	x->heads[d] = h;
}

/* Documents are independent: in parallel. */
static void prepare_heads(struct classify_ctx *x)
{
	struct site *s = x->s;
	for (size_t t = 0; t < s->cfg.ntopics; t++)
		add_lowered(&x->head_words, s->cfg.topics[t].match.headings,
			    s->cfg.topics[t].match.nheadings, t);
	x->heads = xcalloc(s->ndocs + 1, sizeof *x->heads);
	/* only for the documents citing a resource classified anew: the others
	 * take their classes from the last build (classify_one) */
	x->need_heads = xcalloc(s->ndocs + 1, sizeof *x->need_heads);
	for (size_t ri = 0; ri < s->nres; ri++)
		if (s->check_inputs || !s->memo_hit[ri])
			for (size_t i = 0; i < s->res[ri].nrefs; i++)
				x->need_heads[s->res[ri].refs[i].doc] = true;
	pool_run(s->jobs, s->ndocs, heads_of_doc, x);
}

static void prepare_words(struct classify_ctx *x)
{
	const struct config *cfg = &x->s->cfg;
	for (size_t t = 0; t < cfg->ntopics; t++)
		add_lowered(&x->words, cfg->topics[t].match.words, cfg->topics[t].match.nwords, t);
}

/* site.yml's overrides, canonicalised once rather than for every resource. */
static void prepare_overrides(struct classify_ctx *x)
{
	const struct config *cfg = &x->s->cfg;
	x->overrides = xcalloc(cfg->noverrides + 1, sizeof *x->overrides);
	for (size_t i = 0; i < cfg->noverrides; i++)
		x->overrides[i] = url_canonical(cfg->overrides[i].url);
}

static struct rule_set rule_set_of(const struct cfg_match *m)
{
	struct rule_set rs = {xcalloc(m->nhosts + 1, sizeof *rs.hosts), m->nhosts,
			      xcalloc(m->nurls + 1, sizeof *rs.urls), m->nurls};
	for (size_t i = 0; i < m->nhosts; i++)
		rs.hosts[i] = host_rule_of(m->hosts[i]);
	for (size_t i = 0; i < m->nurls; i++) {
		struct url_rule *u = &rs.urls[i];
		u->compiled = url_pattern_compile(m->urls[i]);
		u->lead = u->compiled ? strcspn(u->compiled, "*") : 0;
		u->literal = "";
		for (const char *p = u->compiled; p && *p;) {
			size_t n = strcspn(p, "*");
			if (n > u->nliteral) {
				u->literal = p;
				u->nliteral = n;
			}
			p += n + (p[n] == '*');
		}
	}
	return rs;
}

static void rule_set_free(struct rule_set *rs)
{
	for (size_t i = 0; i < rs->nurls; i++)
		free(rs->urls[i].compiled);
	free(rs->urls);
	free(rs->hosts);
}

static void prepare_urls(struct classify_ctx *x)
{
	const struct config *cfg = &x->s->cfg;
	x->kind_rules = xcalloc(cfg->nkinds + 1, sizeof *x->kind_rules);
	for (size_t k = 0; k < cfg->nkinds; k++)
		x->kind_rules[k] = rule_set_of(&cfg->kinds[k].match);
	x->topic_rules = xcalloc(cfg->ntopics + 1, sizeof *x->topic_rules);
	x->ruled = xcalloc(cfg->ntopics + 1, sizeof *x->ruled);
	for (size_t t = 0; t < cfg->ntopics; t++) {
		const struct cfg_match *m = &cfg->topics[t].match;
		x->topic_rules[t] = rule_set_of(m);
		if (m->nhosts || m->nurls || m->nheadings)
			x->ruled[x->nruled++] = t;
	}
}

static void classify_ctx_free(struct classify_ctx *x)
{
	for (size_t k = 0; k < x->s->cfg.nkinds; k++)
		rule_set_free(&x->kind_rules[k]);
	free(x->kind_rules);
	for (size_t t = 0; t < x->s->cfg.ntopics; t++)
		rule_set_free(&x->topic_rules[t]);
	free(x->topic_rules);
	free(x->ruled);
	phrase_set_free(&x->words);
	phrase_set_free(&x->head_words);
	for (size_t i = 0; i < x->s->cfg.noverrides; i++)
		free(x->overrides[i]);
	free(x->overrides);
	for (size_t d = 0; d < x->s->ndocs; d++)
		free(x->heads[d]);
	free(x->heads);
	free(x->need_heads);
}

/* Everything a resource is called and described as, lower-cased, each
 * distinct text once. */
/* Whether t is new: looked up among the few seen so far, or hashed once
 * there are many. */
struct seen_texts {
	const char *few[16];
	size_t n;
	struct hash many;
};

static bool first_time(struct seen_texts *st, const char *t)
{
	if (st->many.n || st->n == 16) {
		if (!st->many.n)
			for (size_t i = 0; i < st->n; i++)
				hash_put(&st->many, st->few[i], 0);
		if (hash_get(&st->many, t, NULL))
			return false;
		hash_put(&st->many, t, 0);
		return true;
	}
	for (size_t i = 0; i < st->n; i++)
		if (!strcmp(st->few[i], t))
			return false;
	st->few[st->n++] = t;
	return true;
}

static char *resource_text(const struct site *s, const struct resource *r)
{
	struct buf b = BUF_INIT;
	buf_grow(&b, 256); /* a few titles and a description, grown from nothing 2-3 times */
	struct seen_texts seen = {.n = 0, .many = HASH_INIT};
	const char *parts[2] = {r->title, r->desc};
	for (size_t i = 0; i < 2; i++)
		if (parts[i] && first_time(&seen, parts[i])) {
			buf_puts(&b, parts[i]);
			buf_putc(&b, '\n');
		}
	for (size_t i = 0; i < r->nrefs; i++) {
		const struct citation *c = &s->docs[r->refs[i].doc].cites[r->refs[i].cite];
		const char *cp[2] = {c->title, c->text};
		for (size_t k = 0; k < 2; k++)
			if (cp[k] && first_time(&seen, cp[k])) {
				buf_puts(&b, cp[k]);
				buf_putc(&b, '\n');
			}
	}
	hash_free(&seen.many);
	char *l = lower(buf_cstr(&b));
	buf_free(&b);
	return l;
}

/* The resource's host and url_match_key, with their lengths. */
struct url_of {
	const char *host, *key;
	size_t nhost, nkey;
};

static bool match_url_rules(const struct rule_set *rs, const struct url_of *u)
{
	for (size_t i = 0; i < rs->nhosts; i++)
		if (host_rule_match(&rs->hosts[i], u->host, u->nhost))
			return true;
	for (size_t i = 0; u->key && i < rs->nurls; i++) {
		const struct url_rule *r = &rs->urls[i];
		if (r->lead ? u->nkey < r->lead || memcmp(u->key, r->compiled, r->lead)
			    : r->nliteral && !memmem(u->key, u->nkey, r->literal, r->nliteral))
			continue;
		if (url_match_key_pattern(u->key, r->compiled))
			return true;
	}
	return false;
}

/* words: which topics' words the resource's text has (phrase_set_match). */
static bool match_text_rules(const struct classify_ctx *x, size_t t, const struct resource *r,
			     const bool *words)
{
	if (words[t])
		return true;
	if (!x->s->cfg.topics[t].match.nheadings)
		return false;
	size_t nt = x->s->cfg.ntopics;
	for (size_t i = 0; i < r->nrefs; i++) {
		int h = x->s->docs[r->refs[i].doc].cites[r->refs[i].cite].heading;
		if (h >= 0 && x->heads[r->refs[i].doc][(size_t)h * nt + t])
			return true;
	}
	return false;
}

static const struct cfg_override *override_for(const struct classify_ctx *x,
					       const struct resource *r)
{
	for (size_t i = 0; i < x->s->cfg.noverrides; i++)
		if (x->overrides[i] && !strcmp(x->overrides[i], r->canonical))
			return &x->s->cfg.overrides[i];
	return NULL;
}

/* site.yml's title and description for r, over the ones its entries give. */
static void override_names(struct resource *r, const struct cfg_override *o)
{
	if (o && o->title)
		r->title = o->title;
	if (o && o->description)
		r->desc = o->description;
}

/* The kind and topics the last build gave r, when made of the same
 * (res_memo.h); its overrides' title and description still apply. */
static bool classify_from_memo(const struct classify_ctx *x, size_t ri)
{
	struct site *s = x->s;
	const struct res_memo_rec *m = s->memo_hit[ri];
	if (!m)
		return false;
	struct resource *r = &s->res[ri];
	const struct cfg_override *o = override_for(x, r);
	override_names(r, o);
	r->kind = m->kind;
	r->topics = xcalloc(m->ntopics + 1, sizeof *r->topics);
	for (uint32_t i = 0; i < m->ntopics; i++)
		r->topics[r->ntopics++] = s->memo->topics[m->topics_at + i];
	return true;
}

static void classify_one(const struct classify_ctx *x, size_t ri)
{
	struct site *s = x->s;
	struct resource *r = &s->res[ri];
	if (!s->check_inputs && classify_from_memo(x, ri))
		return;
	const struct config *cfg = &s->cfg;
	const struct cfg_override *o = override_for(x, r);
	r->kind = -1;
	if (o && o->kind)
		r->kind = config_kind_index(cfg, o->kind);
	char *key = url_match_key(r->canonical);
	struct url_of u = {r->host, key, strlen(r->host), key ? strlen(key) : 0};
	for (size_t k = 0; r->kind < 0 && k < cfg->nkinds; k++)
		if (match_url_rules(&x->kind_rules[k], &u))
			r->kind = (int)k;
	override_names(r, o);
	/* its topics gathered on the stack while a site has few (the usual),
	 * then allocated as many as it has: 60,000 resources at 10,000
	 * documents, each once */
	enum { FEW_TOPICS = 256 };
	int few[FEW_TOPICS + 1];
	bool few_words[FEW_TOPICS + 1];
	bool many = cfg->ntopics > FEW_TOPICS;
	int *topics = many ? xcalloc(cfg->ntopics + 1, sizeof *topics) : few;
	size_t n = 0;
	if (o && o->ntopics) {
		for (size_t i = 0; i < o->ntopics; i++) {
			int t = config_topic_index(cfg, o->topics[i]);
			bool again = false; /* a topic named twice is its once */
			for (size_t k = 0; k < n && !again; k++)
				again = topics[k] == t;
			if (t >= 0 && !again)
				topics[n++] = t;
		}
	} else if (cfg->ntopics) {
		char *text = resource_text(s, r);
		bool *words = many ? xcalloc(cfg->ntopics + 1, sizeof *words) : few_words;
		memset(words, 0, (cfg->ntopics + 1) * sizeof *words);
		phrase_set_match(&x->words, text, words);
		/* the topics with more rules than words (few, on most sites)
		 * marked too; then every topic marked, in order */
		for (size_t i = 0; i < x->nruled; i++) {
			size_t t = x->ruled[i];
			words[t] = match_url_rules(&x->topic_rules[t], &u) ||
				   match_text_rules(x, t, r, words);
		}
		for (size_t t = 0; t < cfg->ntopics; t++)
			if (words[t])
				topics[n++] = (int)t;
		if (many)
			free(words);
		free(text);
	}
	if (!n)
		topics[n++] = (int)cfg->ntopics; /* unsorted */
	r->topics = xmalloc(n * sizeof *r->topics);
	memcpy(r->topics, topics, n * sizeof *r->topics);
	r->ntopics = n;
	if (many)
		free(topics);
	free(key);
	const struct res_memo_rec *m = s->memo_hit[ri];
	if (m && s->check_inputs) {
		bool same = m->kind == r->kind && m->ntopics == r->ntopics;
		for (size_t i = 0; same && i < r->ntopics; i++)
			same = s->memo->topics[m->topics_at + i] == r->topics[i];
		if (!same)
			__atomic_fetch_add(&s->memo_differ, 1, __ATOMIC_RELAXED);
	}
}

static void classify_task(void *ctx, size_t i)
{
	classify_one(ctx, i);
}

/* ---- topic lists --------------------------------------------------------- */

static int cmp_res_title(const void *a, const void *b, void *ctx)
{
	const struct site *s = ctx;
	const struct resource *x = &s->res[*(const size_t *)a];
	const struct resource *y = &s->res[*(const size_t *)b];
	int c = strcasecmp(x->title, y->title);
	return c ? c : strcmp(x->canonical, y->canonical);
}

static int cmp_res_cited(const void *a, const void *b, void *ctx)
{
	const struct site *s = ctx;
	const struct resource *x = &s->res[*(const size_t *)a];
	const struct resource *y = &s->res[*(const size_t *)b];
	if (x->ndocs != y->ndocs)
		return x->ndocs > y->ndocs ? -1 : 1;
	if (x->nrefs != y->nrefs)
		return x->nrefs > y->nrefs ? -1 : 1;
	return cmp_res_title(a, b, ctx);
}

static int cmp_doc_count(const void *a, const void *b, void *ctx)
{
	const size_t *counts = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (counts[x] != counts[y])
		return counts[x] > counts[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A resource's place in the title order, compared first by the first
 * sixteen bytes of its title as strcasecmp sees them (lower-cased, a short
 * title padded with the NUL that ends it), in two words next to its index:
 * most comparisons are settled without reaching the titles themselves, also
 * among titles that begin alike ("A Gentle Introduction to ..."). */
struct title_key {
	uint64_t prefix[2];
	size_t ri;
};

static void title_prefix(struct title_key *k, const char *t)
{
	k->prefix[0] = k->prefix[1] = 0;
	for (size_t i = 0; i < 16 && t[i]; i++)
		k->prefix[i / 8] |= (uint64_t)(unsigned char)tolower((unsigned char)t[i])
				    << (8 * (7 - i % 8));
}

static int cmp_title_key(const void *a, const void *b, void *ctx)
{
	const struct title_key *x = a, *y = b;
	for (int w = 0; w < 2; w++)
		if (x->prefix[w] != y->prefix[w])
			return x->prefix[w] < y->prefix[w] ? -1 : 1;
	return cmp_res_title(&x->ri, &y->ri, ctx);
}

/* The two halves of the resources, sorted by title on two threads. */
struct title_halves {
	struct site *s;
	struct title_key *v[2];
	size_t n[2];
};

static void sort_half(void *ctx, size_t i)
{
	struct title_halves *h = ctx;
	for (size_t k = 0; k < h->n[i]; k++)
		title_prefix(&h->v[i][k], h->s->res[h->v[i][k].ri].title);
	qsort_r(h->v[i], h->n[i], sizeof *h->v[i], cmp_title_key, h->s);
}

/* Every list of resources by title follows one order, sorted once: each half
 * on a thread of its own, then merged (titles then URLs order resources
 * totally, so this is the order one sort gives). */
static size_t *sort_by_title(struct site *s)
{
	size_t n = s->nres;
	struct title_key *all = xcalloc(n + 1, sizeof *all);
	for (size_t i = 0; i < n; i++)
		all[i].ri = i;
	struct title_halves h = {s, {all, all + n / 2}, {n / 2, n - n / 2}};
	pool_run(s->jobs, 2, sort_half, &h);
	size_t *order = xcalloc(n + 1, sizeof *order);
	size_t a = 0, b = 0, k = 0;
	while (a < h.n[0] && b < h.n[1])
		order[k++] = cmp_title_key(&h.v[0][a], &h.v[1][b], s) <= 0 ? h.v[0][a++].ri
									     : h.v[1][b++].ri;
	while (a < h.n[0])
		order[k++] = h.v[0][a++].ri;
	while (b < h.n[1])
		order[k++] = h.v[1][b++].ri;
	free(all);
	return order;
}

/* The same order from the last build's: a resource taken from it (res_memo.h)
 * has the title and URL it had then, so those keep their order among
 * themselves, and only the others are sorted and put in place. NULL when the
 * last build's places do not fit (a damaged file). */
static size_t *sort_by_title_from_memo(struct site *s)
{
	size_t n = s->nres, was = s->memo->n;
	size_t *by_rank = xcalloc(was + 1, sizeof *by_rank); /* resource + 1, 0 for none */
	struct title_key *fresh = xcalloc(n + 1, sizeof *fresh);
	size_t nfresh = 0;
	for (size_t i = 0; i < n; i++) {
		const struct res_memo_rec *m = s->memo_hit[i];
		if (!m) {
			fresh[nfresh].ri = i;
			title_prefix(&fresh[nfresh++], s->res[i].title);
		} else if (by_rank[m->title_rank]) {
			free(by_rank);
			free(fresh);
			return NULL;
		} else
			by_rank[m->title_rank] = i + 1;
	}
	qsort_r(fresh, nfresh, sizeof *fresh, cmp_title_key, s);
	size_t *kept = xcalloc(n - nfresh + 1, sizeof *kept);
	size_t nkept = 0;
	for (size_t r = 0; r < was; r++)
		if (by_rank[r])
			kept[nkept++] = by_rank[r] - 1;
	free(by_rank);
	/* each new one where a binary search among the kept puts it */
	size_t *order = xcalloc(n + 1, sizeof *order);
	size_t k = 0, from = 0;
	for (size_t f = 0; f < nfresh; f++) {
		size_t lo = from, hi = nkept;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (cmp_res_title(&kept[mid], &fresh[f].ri, s) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		while (from < lo)
			order[k++] = kept[from++];
		order[k++] = fresh[f].ri;
	}
	while (from < nkept)
		order[k++] = kept[from++];
	free(kept);
	free(fresh);
	return order;
}

static void order_by_title(struct site *s)
{
	size_t n = s->nres;
	/* the last build's order when it gives most of it; else (a clean
	 * build's memo is empty) a sort of all, in halves on two threads: the
	 * new ones are sorted on one */
	size_t kept = 0;
	for (size_t i = 0; s->memo_hit && i < n; i++)
		kept += s->memo_hit[i] != NULL;
	size_t *order = s->memo && s->memo_hit && kept >= n / 2 ? sort_by_title_from_memo(s)
								  : NULL;
	if (s->check_inputs && order) {
		/* the order taken from the last build must be the one a sort gives */
		size_t *sorted = sort_by_title(s);
		if (memcmp(sorted, order, n * sizeof *order))
			s->memo_differ++;
		free(order);
		order = sorted;
	}
	s->title_order = order ? order : sort_by_title(s);
	for (size_t i = 0; i < n; i++)
		s->res[s->title_order[i]].title_rank = i;
}

/* Each topic's resources, by title: one pass over the title order. */
static void fill_topics(struct site *s)
{
	for (size_t i = 0; i < s->nres; i++)
		for (size_t k = 0; k < s->res[i].ntopics; k++)
			s->topics[s->res[i].topics[k]].nresources++;
	for (size_t t = 0; t < s->ntopics; t++) {
		s->topics[t].resources = xcalloc(s->topics[t].nresources + 1, sizeof(size_t));
		s->topics[t].nresources = 0;
	}
	for (size_t o = 0; o < s->nres; o++) {
		const struct resource *r = &s->res[s->title_order[o]];
		for (size_t k = 0; k < r->ntopics; k++) {
			struct topic *t = &s->topics[r->topics[k]];
			t->resources[t->nresources++] = s->title_order[o];
		}
	}
}

/* The documents citing a topic's resources, most citing first (then in
 * document order): topics are independent, so in parallel. */
/* Each resource's topics as the bits of one word, in one array: counting a
 * document's topics then reads a word per citation, not a resource and its
 * list of topics from all over memory. NULL when a word cannot hold them
 * (more than 64 topics, or a topic listed twice). */
static unsigned long long *topic_bits(const struct site *s)
{
	if (s->ntopics > 64)
		return NULL;
	unsigned long long *bits = xcalloc(s->nres + 1, sizeof *bits);
	for (size_t r = 0; r < s->nres; r++)
		for (size_t k = 0; k < s->res[r].ntopics; k++) {
			unsigned long long b = 1ULL << s->res[r].topics[k];
			if (bits[r] & b) {
				free(bits);
				return NULL;
			}
			bits[r] |= b;
		}
	return bits;
}

/* With the bits: how often each document cites each topic's resources, one
 * row of topics per document, counted going through the documents once
 * (each thread its own documents: their rows, each written once, so that
 * the threads never write into one cache line by turns); then each topic's
 * documents, most citing first and in document order among equals (a
 * counting sort: the counts are small). */
struct doc_counts {
	struct site *s;
	uint32_t *n; /* n[d * ntopics + t] */
};

static void count_doc_topics(void *ctx, size_t d)
{
	struct doc_counts *x = ctx;
	const struct site *s = x->s;
	const struct doc *doc = &s->docs[d];
	uint32_t here[64] = {0}; /* the bits hold 64 topics at most */
	for (size_t i = 0; i < doc->ncites; i++) {
		long r = doc->cites[i].resource;
		if (r >= 0)
			for (unsigned long long b = s->res_topic_bits[r]; b; b &= b - 1)
				here[__builtin_ctzll(b)]++;
	}
	memcpy(x->n + d * s->ntopics, here, s->ntopics * sizeof *here);
	/* its own topic, from the same counts */
	size_t weight[64];
	for (size_t t = 0; t < s->ntopics; t++)
		weight[t] = here[t];
	taxonomy_weigh_named_topics(s, doc, weight);
	s->doc_primary[d] = taxonomy_pick_topic(s, weight);
}

void taxonomy_weigh_named_topics(const struct site *s, const struct doc *doc, size_t *counts)
{
	for (size_t i = 0; i < doc->meta.ntopics; i++) {
		int t = config_topic_index(&s->cfg, doc->meta.topics[i]);
		if (t >= 0)
			counts[t] += 1000;
	}
}

int taxonomy_pick_topic(const struct site *s, const size_t *counts)
{
	int best = -1;
	for (size_t t = 0; t < s->ntopics; t++)
		if (counts[t] && !s->topics[t].unsorted && (best < 0 || counts[t] > counts[best]))
			best = (int)t;
	return best;
}

static void order_topic_docs(void *ctx, size_t ti)
{
	struct doc_counts *x = ctx;
	struct site *s = x->s;
	struct topic *t = &s->topics[ti];
	const uint32_t *n = x->n + ti; /* n[d * ntopics]: the topic's count for d */
	const size_t step = s->ntopics;
	uint32_t most = 0;
	for (size_t d = 0; d < s->ndocs; d++)
		if (n[d * step] > most)
			most = n[d * step];
	/* where each count's documents start, the highest count first */
	size_t *at = xcalloc((size_t)most + 2, sizeof *at);
	for (size_t d = 0; d < s->ndocs; d++)
		at[n[d * step]]++;
	size_t sum = 0;
	for (size_t c = most; c >= 1; c--) {
		size_t k = at[c];
		at[c] = sum;
		sum += k;
	}
	t->ndocs = sum;
	t->docs = xcalloc(sum + 1, sizeof *t->docs);
	for (size_t d = 0; d < s->ndocs; d++)
		if (n[d * step])
			t->docs[at[n[d * step]]++] = d;
	free(at);
}

static void topic_docs(void *ctx, size_t ti)
{
	struct site *s = ctx;
	struct topic *t = &s->topics[ti];
	size_t *counts = xcalloc(s->ndocs + 1, sizeof *counts);
	for (size_t i = 0; i < t->nresources; i++) {
		const struct resource *r = &s->res[t->resources[i]];
		for (size_t j = 0; j < r->nrefs; j++)
			counts[r->refs[j].doc]++;
	}
	t->docs = xcalloc(s->ndocs + 1, sizeof *t->docs);
	for (size_t d = 0; d < s->ndocs; d++)
		if (counts[d])
			t->docs[t->ndocs++] = d;
	qsort_r(t->docs, t->ndocs, sizeof *t->docs, cmp_doc_count, counts);
	free(counts);
}

static void quick_reference(struct site *s, size_t ti, const struct aliases *al)
{
	struct topic *t = &s->topics[ti];
	size_t limit = (size_t)s->cfg.qr_per_topic;
	t->quick = xcalloc(t->nresources + limit + 1, sizeof *t->quick);
	if (ti < s->cfg.ntopics) {
		const struct cfg_topic *ct = &s->cfg.topics[ti];
		for (size_t i = 0; i < ct->npin; i++) {
			char *c = url_canonical(ct->pin[i]);
			char *a = c ? taxonomy_alias(al, c) : NULL;
			long r = a ? model_resource(s, a) : -1;
			if (r >= 0) {
				t->quick[t->nquick++] = (size_t)r;
				s->res[r].pinned = true;
			} else
				diag_addc(&s->diags, SEV_WARNING, "dangling-pin", s->cfg.path, ct->line,
					  ct->col, "topic '%s' pins %s, which no document cites",
					  ct->id, ct->pin[i]);
			free(c);
			free(a);
		}
	}
	/* the most cited after the pins: at most `limit` of the order are looked
	 * at (each is taken or is a pin), so the first `limit` are kept, not
	 * the topic's thousands sorted */
	size_t *by_cites = xcalloc(limit + 1, sizeof *by_cites), nbest = 0;
	for (size_t i = 0; limit && i < t->nresources; i++) {
		size_t r = t->resources[i];
		if (nbest == limit && cmp_res_cited(&r, &by_cites[limit - 1], s) >= 0)
			continue;
		size_t at = nbest < limit ? nbest++ : limit - 1;
		for (; at > 0 && cmp_res_cited(&r, &by_cites[at - 1], s) < 0; at--)
			by_cites[at] = by_cites[at - 1];
		by_cites[at] = r;
	}
	for (size_t i = 0; i < nbest && t->nquick < limit; i++) {
		bool dup = false;
		for (size_t j = 0; j < t->nquick; j++)
			dup |= t->quick[j] == by_cites[i];
		if (!dup)
			t->quick[t->nquick++] = by_cites[i];
	}
	free(by_cites);
}

void taxonomy_classify(struct site *s)
{
	const struct config *cfg = &s->cfg;
	s->ntopics = cfg->ntopics + 1;
	s->topics = xcalloc(s->ntopics, sizeof *s->topics);
	for (size_t i = 0; i < cfg->ntopics; i++) {
		struct topic *t = &s->topics[i];
		t->id = xstrdup(cfg->topics[i].id);
		t->title = xstrdup(cfg->topics[i].title);
		t->description = xstrdup(cfg->topics[i].description);
		t->parent = cfg->topics[i].parent;
	}
	struct topic *u = &s->topics[cfg->ntopics];
	u->id = xstrdup("unsorted");
	u->title = xstrdup("Unsorted");
	u->description = xstrdup("Resources that no topic rule of site.yml matches yet.");
	u->parent = -1;
	u->unsorted = true;
	for (size_t i = 0; i < s->ntopics; i++) {
		int p = s->topics[i].parent;
		if (p >= 0) {
			struct topic *pt = &s->topics[p];
			pt->children = xrealloc(pt->children, (pt->nchildren + 1) * sizeof *pt->children);
			pt->children[pt->nchildren++] = (int)i;
		}
	}
	/* resources are classified independently: in parallel */
	struct classify_ctx x = {.s = s};
	prepare_words(&x);
	prepare_heads(&x);
	prepare_urls(&x);
	prepare_overrides(&x);
	pool_run(s->jobs, s->nres, classify_task, &x);
	classify_ctx_free(&x);
	for (size_t i = 0; i < s->nres; i++)
		s->unsorted_count += s->res[i].topics[0] == (int)cfg->ntopics;
	order_by_title(s);
	fill_topics(s);
	s->res_topic_bits = topic_bits(s);
	if (s->res_topic_bits) {
		struct doc_counts dc = {s, xcalloc(s->ntopics * s->ndocs + 1, sizeof *dc.n)};
		free(s->doc_primary);
		s->doc_primary = xcalloc(s->ndocs + 1, sizeof *s->doc_primary);
		pool_run(s->jobs, s->ndocs, count_doc_topics, &dc);
		pool_run(s->jobs, s->ntopics, order_topic_docs, &dc);
		free(dc.n);
	} else
		pool_run(s->jobs, s->ntopics, topic_docs, s);
	struct aliases al;
	taxonomy_aliases_init(&al, cfg);
	for (size_t i = 0; i < s->ntopics; i++)
		quick_reference(s, i, &al);
	taxonomy_aliases_free(&al);
}
