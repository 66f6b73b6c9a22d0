/* config: loading and checking site.yml (see config.h). */
#include "config.h"
#include "xalloc.h"
#include "yamlx.h"
#include "buf.h"
#include "path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* The defaults: what a site with no site.yml gets, and what a site.yml
 * without `kinds:` gets for kinds. */
static const char default_kinds_yml[] =
	"kinds:\n"
	"  - {id: paper, title: Papers, match: {hosts: [arxiv.org, dl.acm.org, openreview.net, "
	"proceedings.neurips.cc, papers.nips.cc, proceedings.mlr.press, ieeexplore.ieee.org, "
	"link.springer.com, aclanthology.org, semanticscholar.org], urls: [\"*.pdf\"]}}\n"
	"  - {id: video, title: Videos, match: {hosts: [youtube.com, youtu.be, vimeo.com]}}\n"
	"  - {id: repository, title: Repositories, match: {hosts: [github.com, gitlab.com, "
	"bitbucket.org, huggingface.co, codeberg.org]}}\n"
	"  - {id: forum, title: Forums and communities, match: {hosts: [discord.gg, discord.com, "
	"stackoverflow.com, reddit.com, \"discuss.*\", \"dev-discuss.*\", \"forums.*\", \"forum.*\"]}}\n"
	"  - {id: blog, title: Blog posts, match: {hosts: [medium.com, \"*.medium.com\", "
	"\"*.substack.com\", \"*.github.io\", siboehm.com, tinkerd.net], urls: [\"*/blog\", "
	"\"*/blog/*\", \"*/articles/*\", \"*/posts/*\", \"*/post/*\"]}}\n"
	"  - {id: course, title: Courses, match: {hosts: [ocw.mit.edu, coursera.org, udemy.com, "
	"edx.org, gfxcourses.stanford.edu], urls: [\"*/courses/*\", \"*/course/*\"]}}\n"
	"  - {id: book, title: Books, match: {hosts: [amazon.com, oreilly.com, "
	"learning.oreilly.com, manning.com]}}\n"
	"  - {id: documentation, title: Documentation, match: {hosts: [\"docs.*\", "
	"\"*.readthedocs.io\", readthedocs.org, \"*.readthedocs.org\", developer.nvidia.com], "
	"urls: [\"*/docs\", \"*/docs/*\", \"*/doc/*\", \"*/documentation/*\", \"*/api/*\", "
	"\"*/tutorials/*\", \"*/guide/*\", \"*/manual/*\", \"*/reference/*\"]}}\n"
	"  - {id: website, title: Websites, match: {urls: [\"*\"]}}\n";


void config_defaults(struct config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->path = xstrdup("site.yml");
	cfg->title = xstrdup("Resources");
	cfg->description = xstrdup("");
	cfg->base_url = xstrdup("/");
	cfg->language = xstrdup("en");
	cfg->theme = xstrdup("default");
	cfg->repo = xstrdup("");
	cfg->repo_branch = xstrdup("main");
	cfg->author = xstrdup("");
	cfg->raw_html = RAW_HTML_SANITIZE;
	cfg->qr_per_topic = 5;
	cfg->resource_page_min = 3;
	cfg->per_page = 500;
	cfg->sidebar_topics = 100;
	cfg->max_file_size = 10L * 1024 * 1024;
	cfg->max_nesting = 64;
}

static void match_free(struct cfg_match *m)
{
	char **lists[] = {m->hosts, m->urls, m->headings, m->words};
	for (size_t i = 0; i < 4; i++) {
		for (char **p = lists[i]; p && *p; p++)
			free(*p);
		free(lists[i]);
	}
	memset(m, 0, sizeof *m);
}

static void strv_free(char **v)
{
	for (char **p = v; p && *p; p++)
		free(*p);
	free(v);
}

void config_free(struct config *cfg)
{
	free(cfg->path);
	free(cfg->title);
	free(cfg->description);
	free(cfg->base_url);
	free(cfg->language);
	free(cfg->theme);
	free(cfg->repo);
	free(cfg->repo_branch);
	free(cfg->author);
	for (size_t i = 0; i < cfg->ndocuments; i++) {
		free(cfg->documents[i].path);
		meta_free(&cfg->documents[i].meta);
	}
	free(cfg->documents);
	for (size_t i = 0; i < cfg->naliases; i++) {
		free(cfg->aliases[i].from);
		free(cfg->aliases[i].to);
	}
	free(cfg->aliases);
	for (size_t i = 0; i < cfg->nkinds; i++) {
		free(cfg->kinds[i].id);
		free(cfg->kinds[i].title);
		match_free(&cfg->kinds[i].match);
	}
	free(cfg->kinds);
	for (size_t i = 0; i < cfg->ntopics; i++) {
		struct cfg_topic *t = &cfg->topics[i];
		free(t->id);
		free(t->title);
		free(t->description);
		match_free(&t->match);
		strv_free(t->pin);
	}
	free(cfg->topics);
	hash_free(&cfg->topic_ids);
	for (size_t i = 0; i < cfg->noverrides; i++) {
		struct cfg_override *o = &cfg->overrides[i];
		free(o->url);
		free(o->kind);
		strv_free(o->topics);
		free(o->title);
		free(o->description);
	}
	free(cfg->overrides);
	memset(cfg, 0, sizeof *cfg);
}

/* ---- pieces ------------------------------------------------------------ */

struct ctx {
	const struct yamlx *y;
	struct config *cfg;
	struct diags *d;
	size_t cap_kinds, cap_topics, cap_aliases, cap_overrides, cap_docs;
};

static bool want_map(struct ctx *c, ynode n, const char *what)
{
	if (yamlx_kind(c->y, n) == Y_MAP)
		return true;
	yamlx_error(c->y, n, c->d, "'%s' must be a mapping, not %s", what,
		    yamlx_kind_name(yamlx_kind(c->y, n)));
	return false;
}

static bool want_seq(struct ctx *c, ynode n, const char *what)
{
	if (yamlx_kind(c->y, n) == Y_SEQ)
		return true;
	yamlx_error(c->y, n, c->d, "'%s' must be a list, not %s", what,
		    yamlx_kind_name(yamlx_kind(c->y, n)));
	return false;
}

static int unknown_key(struct ctx *c, ynode k, const char *where, const char *known)
{
	yamlx_error(c->y, k, c->d, "unknown key '%s' in %s (known: %s)", yamlx_scalar(c->y, k),
		    where, known);
	return -1;
}

static int read_match(struct ctx *c, ynode n, struct cfg_match *m)
{
	if (!want_map(c, n, "match"))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < yamlx_len(c->y, n); i++) {
		ynode k = yamlx_key(c->y, n, i), v = yamlx_value(c->y, n, i);
		const char *key = yamlx_scalar(c->y, k);
		key = key ? key : "";
		if (!strcmp(key, "hosts"))
			rc |= yamlx_get_strlist(c->y, v, key, &m->hosts, &m->nhosts, c->d);
		else if (!strcmp(key, "urls"))
			rc |= yamlx_get_strlist(c->y, v, key, &m->urls, &m->nurls, c->d);
		else if (!strcmp(key, "headings"))
			rc |= yamlx_get_strlist(c->y, v, key, &m->headings, &m->nheadings, c->d);
		else if (!strcmp(key, "words"))
			rc |= yamlx_get_strlist(c->y, v, key, &m->words, &m->nwords, c->d);
		else
			rc = unknown_key(c, k, "match", "hosts, urls, headings, words");
	}
	return rc;
}

static int read_kinds(struct ctx *c, ynode n)
{
	if (!want_seq(c, n, "kinds"))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < yamlx_len(c->y, n); i++) {
		ynode it = yamlx_item(c->y, n, i);
		if (!want_map(c, it, "kinds item")) {
			rc = -1;
			continue;
		}
		c->cfg->kinds = xgrow(c->cfg->kinds, &c->cap_kinds, c->cfg->nkinds + 1,
				      sizeof *c->cfg->kinds);
		struct cfg_kind *k = &c->cfg->kinds[c->cfg->nkinds++];
		memset(k, 0, sizeof *k);
		k->line = yamlx_line(c->y, it);
		k->col = yamlx_col(c->y, it);
		for (size_t j = 0; j < yamlx_len(c->y, it); j++) {
			ynode kk = yamlx_key(c->y, it, j), v = yamlx_value(c->y, it, j);
			const char *key = yamlx_scalar(c->y, kk);
			key = key ? key : "";
			if (!strcmp(key, "id"))
				rc |= yamlx_get_str(c->y, v, key, &k->id, c->d);
			else if (!strcmp(key, "title"))
				rc |= yamlx_get_str(c->y, v, key, &k->title, c->d);
			else if (!strcmp(key, "match"))
				rc |= read_match(c, v, &k->match);
			else
				rc = unknown_key(c, kk, "a kind", "id, title, match");
		}
		if (!k->id || !*k->id) {
			yamlx_error(c->y, it, c->d, "a kind needs an 'id'");
			rc = -1;
			free(k->id);
			k->id = xasprintf("kind-%zu", i + 1);
		}
		if (!k->title)
			k->title = xstrdup(k->id);
	}
	return rc;
}

static bool valid_id(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
			return false;
	return true;
}

static int read_topic_list(struct ctx *c, ynode n, int parent, int depth);

/* Deepest nesting of topics, by children: or by parent: (a chain of 5,000
 * parents gave every topic page 5,000 breadcrumbs). */

/* How deep topic i sits (0: a root), counted no further than past the
 * limit: every topic before it is within it. */
static int topic_depth(const struct config *cfg, int i)
{
	int d = 0;
	for (int t = cfg->topics[i].parent; t >= 0 && d <= CONFIG_TOPIC_DEPTH; t = cfg->topics[t].parent)
		d++;
	return d;
}

static int read_topic(struct ctx *c, ynode it, int parent, int depth)
{
	int rc = 0;
	c->cfg->topics = xgrow(c->cfg->topics, &c->cap_topics, c->cfg->ntopics + 1,
			       sizeof *c->cfg->topics);
	size_t idx = c->cfg->ntopics++;
	struct cfg_topic *t = &c->cfg->topics[idx];
	memset(t, 0, sizeof *t);
	t->parent = parent;
	t->line = yamlx_line(c->y, it);
	t->col = yamlx_col(c->y, it);
	char *parent_id = NULL;
	ynode children = 0;
	for (size_t j = 0; j < yamlx_len(c->y, it); j++) {
		ynode kk = yamlx_key(c->y, it, j), v = yamlx_value(c->y, it, j);
		const char *key = yamlx_scalar(c->y, kk);
		key = key ? key : "";
		t = &c->cfg->topics[idx];
		if (!strcmp(key, "id"))
			rc |= yamlx_get_str(c->y, v, key, &t->id, c->d);
		else if (!strcmp(key, "title"))
			rc |= yamlx_get_str(c->y, v, key, &t->title, c->d);
		else if (!strcmp(key, "description"))
			rc |= yamlx_get_str(c->y, v, key, &t->description, c->d);
		else if (!strcmp(key, "parent"))
			rc |= yamlx_get_str(c->y, v, key, &parent_id, c->d);
		else if (!strcmp(key, "match"))
			rc |= read_match(c, v, &t->match);
		else if (!strcmp(key, "pin"))
			rc |= yamlx_get_strlist(c->y, v, key, &t->pin, &t->npin, c->d);
		else if (!strcmp(key, "children"))
			children = v;
		else
			rc = unknown_key(c, kk, "a topic",
					 "id, title, description, parent, match, pin, children");
	}
	t = &c->cfg->topics[idx];
	if (!t->id || !valid_id(t->id)) {
		yamlx_error(c->y, it, c->d,
			    "a topic needs an 'id' of lower-case letters, digits, '-' and '_'%s%s%s",
			    t->id ? " (got \"" : "", t->id ? t->id : "", t->id ? "\")" : "");
		free(t->id);
		t->id = xasprintf("topic-%zu", idx + 1);
		rc = -1;
	}
	if (!t->title)
		t->title = xstrdup(t->id);
	if (!t->description)
		t->description = xstrdup("");
	if (parent_id) {
		int p = config_topic_index(c->cfg, parent_id);
		if (p < 0 || (size_t)p == idx) {
			yamlx_error(c->y, it, c->d,
				    "topic '%s': parent '%s' is not a topic defined before it", t->id,
				    parent_id);
			rc = -1;
		} else
			t->parent = p;
		free(parent_id);
	}
	if (topic_depth(c->cfg, (int)idx) > CONFIG_TOPIC_DEPTH) {
		yamlx_error(c->y, it, c->d, "topic '%s' nests deeper than %d levels", t->id,
			    CONFIG_TOPIC_DEPTH);
		t->parent = -1;
		rc = -1;
	}
	/* known by its id from now on (after its parent: not its own); a
	 * repeated id is reported by check_refs */
	size_t first;
	if (!hash_get(&c->cfg->topic_ids, t->id, &first))
		hash_put(&c->cfg->topic_ids, t->id, idx);
	if (children)
		rc |= read_topic_list(c, children, (int)idx, depth + 1);
	return rc;
}

static int read_topic_list(struct ctx *c, ynode n, int parent, int depth)
{
	if (!want_seq(c, n, parent < 0 ? "topics" : "children"))
		return -1;
	if (depth > CONFIG_TOPIC_DEPTH) {
		yamlx_error(c->y, n, c->d, "topics nest deeper than %d levels", CONFIG_TOPIC_DEPTH);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < yamlx_len(c->y, n); i++) {
		ynode it = yamlx_item(c->y, n, i);
		if (!want_map(c, it, "topics item"))
			rc = -1;
		else
			rc |= read_topic(c, it, parent, depth);
	}
	return rc;
}

/* A URL site.yml may put into every page: an absolute http(s) URL, or (when
 * path_ok) a path from the server root. No scheme such as javascript: or
 * data:, and nothing an attribute or a browser would read differently:
 * whitespace, controls, quotes, '<', '>' or '\\'. */
static bool safe_config_url(const char *s, bool path_ok)
{
	if (!s || !*s)
		return true;
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f || strchr("\"'<>\\`", *p))
			return false;
	if (path_ok && s[0] == '/' && s[1] != '/')
		return true;
	return (!strncasecmp(s, "http://", 7) && s[7]) || (!strncasecmp(s, "https://", 8) && s[8]);
}

static int check_config_url(struct ctx *c, ynode v, const char *key, const char *s, bool path_ok)
{
	if (safe_config_url(s, path_ok))
		return 0;
	yamlx_error(c->y, v, c->d, "'%s' must be %s, not \"%s\"", key,
		    path_ok ? "an http(s) URL or a path starting with /" : "an http(s) URL", s);
	return -1;
}

static int read_aliases(struct ctx *c, ynode n)
{
	if (!want_map(c, n, "aliases"))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < yamlx_len(c->y, n); i++) {
		ynode k = yamlx_key(c->y, n, i), v = yamlx_value(c->y, n, i);
		c->cfg->aliases = xgrow(c->cfg->aliases, &c->cap_aliases, c->cfg->naliases + 1,
					sizeof *c->cfg->aliases);
		struct cfg_alias *a = &c->cfg->aliases[c->cfg->naliases++];
		memset(a, 0, sizeof *a);
		a->line = yamlx_line(c->y, k);
		a->col = yamlx_col(c->y, k);
		rc |= yamlx_get_str(c->y, k, "aliases key", &a->from, c->d);
		rc |= yamlx_get_str(c->y, v, "aliases value", &a->to, c->d);
		if (a->to)
			rc |= check_config_url(c, v, "aliases value", a->to, false);
		if (!a->from)
			a->from = xstrdup("");
		if (!a->to)
			a->to = xstrdup("");
	}
	return rc;
}

static int read_overrides(struct ctx *c, ynode n)
{
	if (!want_map(c, n, "overrides"))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < yamlx_len(c->y, n); i++) {
		ynode k = yamlx_key(c->y, n, i), v = yamlx_value(c->y, n, i);
		c->cfg->overrides = xgrow(c->cfg->overrides, &c->cap_overrides,
					  c->cfg->noverrides + 1, sizeof *c->cfg->overrides);
		struct cfg_override *o = &c->cfg->overrides[c->cfg->noverrides++];
		memset(o, 0, sizeof *o);
		o->line = yamlx_line(c->y, k);
		o->col = yamlx_col(c->y, k);
		rc |= yamlx_get_str(c->y, k, "overrides key", &o->url, c->d);
		if (!o->url)
			o->url = xstrdup("");
		if (!want_map(c, v, o->url)) {
			rc = -1;
			continue;
		}
		for (size_t j = 0; j < yamlx_len(c->y, v); j++) {
			ynode kk = yamlx_key(c->y, v, j), vv = yamlx_value(c->y, v, j);
			const char *key = yamlx_scalar(c->y, kk);
			key = key ? key : "";
			if (!strcmp(key, "kind"))
				rc |= yamlx_get_str(c->y, vv, key, &o->kind, c->d);
			else if (!strcmp(key, "topics"))
				rc |= yamlx_get_strlist(c->y, vv, key, &o->topics, &o->ntopics, c->d);
			else if (!strcmp(key, "title"))
				rc |= yamlx_get_str(c->y, vv, key, &o->title, c->d);
			else if (!strcmp(key, "description"))
				rc |= yamlx_get_str(c->y, vv, key, &o->description, c->d);
			else
				rc = unknown_key(c, kk, "an override", "kind, topics, title, description");
		}
	}
	return rc;
}

static int read_documents(struct ctx *c, ynode n)
{
	if (!want_map(c, n, "documents"))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < yamlx_len(c->y, n); i++) {
		ynode k = yamlx_key(c->y, n, i), v = yamlx_value(c->y, n, i);
		c->cfg->documents = xgrow(c->cfg->documents, &c->cap_docs, c->cfg->ndocuments + 1,
					  sizeof *c->cfg->documents);
		struct cfg_document *doc = &c->cfg->documents[c->cfg->ndocuments++];
		memset(doc, 0, sizeof *doc);
		doc->line = yamlx_line(c->y, k);
		doc->col = yamlx_col(c->y, k);
		rc |= yamlx_get_str(c->y, k, "documents key", &doc->path, c->d);
		if (!doc->path)
			doc->path = xstrdup("");
		rc |= meta_from_yaml(c->y, v, &doc->meta, c->d);
	}
	return rc;
}

/* A mapping of integers: keys[j]'s value into *vals[j], at least mins[j]
 * (mins NULL: 0). */
static int read_section(struct ctx *c, ynode n, const char *what, const char **keys, long **vals,
			const long *mins)
{
	if (!want_map(c, n, what))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < yamlx_len(c->y, n); i++) {
		ynode k = yamlx_key(c->y, n, i), v = yamlx_value(c->y, n, i);
		const char *key = yamlx_scalar(c->y, k);
		size_t j;
		for (j = 0; keys[j]; j++)
			if (key && !strcmp(key, keys[j]))
				break;
		if (!keys[j]) {
			struct buf known = BUF_INIT;
			for (j = 0; keys[j]; j++)
				buf_printf(&known, "%s%s", j ? ", " : "", keys[j]);
			rc = unknown_key(c, k, what, buf_cstr(&known));
			buf_free(&known);
			continue;
		}
		long val = 0;
		if (yamlx_get_int(c->y, v, key, &val, c->d)) {
			rc = -1;
			continue;
		}
		if (val < 0) {
			yamlx_error(c->y, v, c->d, "'%s' must not be negative", key);
			rc = -1;
			continue;
		}
		if (mins && val < mins[j]) {
			yamlx_error(c->y, v, c->d, "'%s.%s' must be at least %ld", what, key, mins[j]);
			rc = -1;
			continue;
		}
		*vals[j] = val;
	}
	return rc;
}

static int read_root(struct ctx *c, ynode root)
{
	struct config *cfg = c->cfg;
	if (!root)
		return 0;
	if (!want_map(c, root, "site.yml"))
		return -1;
	int rc = 0;
	ynode kinds = 0;
	for (size_t i = 0; i < yamlx_len(c->y, root); i++) {
		ynode k = yamlx_key(c->y, root, i), v = yamlx_value(c->y, root, i);
		const char *key = yamlx_scalar(c->y, k);
		key = key ? key : "";
		char **strfield = NULL;
		if (!strcmp(key, "title"))
			strfield = &cfg->title;
		else if (!strcmp(key, "description"))
			strfield = &cfg->description;
		else if (!strcmp(key, "base_url"))
			strfield = &cfg->base_url;
		else if (!strcmp(key, "language"))
			strfield = &cfg->language;
		else if (!strcmp(key, "theme"))
			strfield = &cfg->theme;
		else if (!strcmp(key, "repo"))
			strfield = &cfg->repo;
		else if (!strcmp(key, "repo_branch"))
			strfield = &cfg->repo_branch;
		else if (!strcmp(key, "author"))
			strfield = &cfg->author;
		if (strfield) {
			rc |= yamlx_get_str(c->y, v, key, strfield, c->d);
			if (strfield == &cfg->base_url || strfield == &cfg->repo)
				rc |= check_config_url(c, v, key, *strfield, strfield == &cfg->base_url);
			continue;
		}
		if (!strcmp(key, "raw_html")) {
			const char *s = yamlx_scalar(c->y, v);
			if (s && !strcmp(s, "sanitize"))
				cfg->raw_html = RAW_HTML_SANITIZE;
			else if (s && !strcmp(s, "escape"))
				cfg->raw_html = RAW_HTML_ESCAPE;
			else {
				yamlx_error(c->y, v, c->d, "'raw_html' must be 'sanitize' or 'escape'");
				rc = -1;
			}
		} else if (!strcmp(key, "documents"))
			rc |= read_documents(c, v);
		else if (!strcmp(key, "aliases"))
			rc |= read_aliases(c, v);
		else if (!strcmp(key, "kinds"))
			kinds = v;
		else if (!strcmp(key, "topics"))
			rc |= read_topic_list(c, v, -1, 0);
		else if (!strcmp(key, "overrides"))
			rc |= read_overrides(c, v);
		else if (!strcmp(key, "quick_reference"))
			rc |= read_section(c, v, "quick_reference", (const char *[]){"per_topic", NULL},
					   (long *[]){&cfg->qr_per_topic}, NULL);
		else if (!strcmp(key, "resource_pages"))
			rc |= read_section(c, v, "resource_pages",
					   (const char *[]){"min_citations", NULL},
					   (long *[]){&cfg->resource_page_min}, NULL);
		else if (!strcmp(key, "pages"))
			rc |= read_section(c, v, "pages",
					   (const char *[]){"per_page", "sidebar_topics", NULL},
					   (long *[]){&cfg->per_page, &cfg->sidebar_topics},
					   (const long[]){10, 10});
		else if (!strcmp(key, "limits"))
			rc |= read_section(c, v, "limits",
					   (const char *[]){"max_file_size", "max_nesting", NULL},
					   (long *[]){&cfg->max_file_size, &cfg->max_nesting}, NULL);
		else
			rc = unknown_key(c, k, "site.yml",
					 "title, description, base_url, language, theme, repo, "
					 "repo_branch, author, raw_html, documents, aliases, kinds, "
					 "topics, overrides, quick_reference, resource_pages, pages, limits");
	}
	if (kinds)
		rc |= read_kinds(c, kinds);
	return rc;
}

static int check_refs(struct config *cfg, struct diags *d)
{
	int rc = 0;
	for (size_t i = 0; i < cfg->ntopics; i++) {
		size_t j;
		if (hash_get(&cfg->topic_ids, cfg->topics[i].id, &j) && j != i) {
			diag_add(d, SEV_ERROR, cfg->path, cfg->topics[i].line, cfg->topics[i].col,
				 "topic id '%s' is defined twice (first at line %d)", cfg->topics[i].id,
				 cfg->topics[j].line);
			rc = -1;
		}
	}
	for (size_t i = 0; i < cfg->nkinds; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(cfg->kinds[i].id, cfg->kinds[j].id)) {
				diag_add(d, SEV_ERROR, cfg->path, cfg->kinds[i].line, cfg->kinds[i].col,
					 "kind id '%s' is defined twice", cfg->kinds[i].id);
				rc = -1;
			}
	for (size_t i = 0; i < cfg->noverrides; i++) {
		struct cfg_override *o = &cfg->overrides[i];
		if (o->kind && config_kind_index(cfg, o->kind) < 0) {
			diag_addc(d, SEV_ERROR, "dangling-kind", cfg->path, o->line, o->col,
				  "override for %s names kind '%s', which is not defined", o->url,
				  o->kind);
			rc = -1;
		}
		for (size_t j = 0; j < o->ntopics; j++)
			if (config_topic_index(cfg, o->topics[j]) < 0) {
				diag_addc(d, SEV_ERROR, "dangling-topic", cfg->path, o->line, o->col,
					  "override for %s names topic '%s', which is not defined",
					  o->url, o->topics[j]);
				rc = -1;
			}
	}
	return rc;
}

static int parse_into(struct config *cfg, const char *text, size_t n, struct diags *d)
{
	struct yamlx y;
	if (yamlx_load(&y, text, n, cfg->path, 0, d))
		return -1;
	struct ctx c = {.y = &y, .cfg = cfg, .d = d};
	int rc = read_root(&c, yamlx_root(&y));
	yamlx_free(&y);
	return rc;
}

static int add_default_kinds(struct config *cfg, struct diags *d)
{
	if (cfg->nkinds)
		return 0;
	char *saved = cfg->path;
	cfg->path = xstrdup("<default kinds>");
	int rc = parse_into(cfg, default_kinds_yml, sizeof default_kinds_yml - 1, d);
	free(cfg->path);
	cfg->path = saved;
	return rc;
}

int config_parse(struct config *cfg, const char *text, size_t n, const char *path, struct diags *d)
{
	config_defaults(cfg);
	free(cfg->path);
	cfg->path = xstrdup(path);
	cfg->from_file = true;
	int rc = parse_into(cfg, text, n, d);
	rc |= add_default_kinds(cfg, d);
	rc |= check_refs(cfg, d);
	return rc ? -1 : 0;
}

int config_load(struct config *cfg, const char *dir, struct diags *d)
{
	char *file = xasprintf("%s/site.yml", dir);
	/* a symlink out of the site's repository (a pull request can commit
	 * one) would put a file of elsewhere's words on every page */
	struct stat st;
	if (lstat(file, &st) == 0 && !path_in_site(dir, file)) {
		free(file);
		config_defaults(cfg);
		diag_addc(d, SEV_ERROR, "symlink-outside", "site.yml", 0, 0,
			  "resolves outside the site's repository: refused");
		return -1;
	}
	struct buf b = BUF_INIT;
	int rr = buf_read_file(&b, file);
	free(file);
	if (rr) {
		int err = errno;
		buf_free(&b);
		config_defaults(cfg);
		if (err != ENOENT) {
			diag_add(d, SEV_ERROR, "site.yml", 0, 0, "cannot read: %s", strerror(err));
			return -1;
		}
		return add_default_kinds(cfg, d);
	}
	int rc = config_parse(cfg, buf_cstr(&b), b.n, "site.yml", d);
	buf_free(&b);
	return rc;
}

int config_topic_index(const struct config *cfg, const char *id)
{
	size_t i;
	return hash_get(&cfg->topic_ids, id, &i) ? (int)i : -1;
}

int config_kind_index(const struct config *cfg, const char *id)
{
	for (size_t i = 0; i < cfg->nkinds; i++)
		if (!strcmp(cfg->kinds[i].id, id))
			return (int)i;
	return -1;
}
