/* check: lint rules over a loaded site and the output formats of
 * `ssg check` (see check.h). Calls the model (read only), buf and diag. */
#include "check.h"
#include "path.h"
#include "url.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- duplicate resources in one document ------------------------------------ */

/* The key of a listing: its resource and its fragment ("page#a" and "page#b"
 * point at two sections: not the same listing twice). */
static char *listing_key(const struct citation *c)
{
	const char *frag = strchr(c->url, '#');
	return xasprintf("%ld%s", c->resource, frag ? frag : "");
}

/* Linear in the citations: a hash from listing key to its first citation,
 * and the entry of the latest one (extract numbered each citation's listing
 * entry: links of one entry share its number). */
static void check_duplicates(const struct doc *doc, struct diags *d)
{
	char **keys = xcalloc(doc->ncites + 1, sizeof *keys);
	int *last = xcalloc(doc->ncites + 1, sizeof *last);
	struct hash seen = HASH_INIT;
	for (size_t i = 0; i < doc->ncites; i++) {
		const struct citation *c = &doc->cites[i];
		int entry = c->entry;
		if (c->resource < 0 || !c->listing)
			continue;
		keys[i] = listing_key(c);
		size_t k;
		if (!hash_get(&seen, keys[i], &k)) {
			hash_put(&seen, keys[i], i);
			last[i] = entry;
			continue;
		}
		if (entry && entry == last[k])
			continue;
		last[k] = entry;
		diag_addc(d, SEV_WARNING, "duplicate-resource", doc->shown, c->line, c->col,
			  "%s is listed twice in this document (first at line %d)", c->canonical,
			  doc->cites[k].line);
	}
	hash_free(&seen);
	for (size_t i = 0; i < doc->ncites; i++)
		free(keys[i]);
	free(keys);
	free(last);
}

/* ---- images of missing files --------------------------------------------------- */

/* Relative link targets are resolved by xref; image sources are not, so check
 * does it: a relative src (extract kept those) must name a file under
 * content/. */
static void check_images(const struct site *s, const struct doc *doc, struct diags *d)
{
	for (size_t i = 0; i < doc->nimages; i++) {
		const struct image *im = &doc->images[i];
		char *rel = xref_resolve_path(doc->relpath, im->url);
		if (!rel || (!xref_is_static(s, rel) && model_doc_by_path(s, rel) < 0))
			diag_addc(d, SEV_WARNING, "missing-file", doc->shown, im->line, im->col,
				  "image of a file that does not exist: %s", im->url);
		free(rel);
	}
}

/* ---- URL variants -------------------------------------------------------------- */

static const struct citation *ref_cite(const struct site *s, const struct cite_ref *r)
{
	return &s->docs[r->doc].cites[r->cite];
}

/* A citation's URL as it names the resource: without its fragment (links to
 * two sections of one page name one resource the same way). */
struct spelling {
	char *key;
	bool moved;   /* an old address: site.yml's aliases send it elsewhere */
	size_t count; /* citations written this way */
	size_t first; /* index into r->refs of the first */
};

/* The spellings so far, and each one's place among them by its key (a
 * resource cited 40,000 times with as many tracking parameters is not
 * compared spelling by spelling). */
struct spellings {
	struct spelling *v;
	size_t n, cap;
	struct hash index; /* key -> place in v; the keys are v's */
};

static size_t spelling_add(struct spellings *sp, const char *url, const char *canonical,
			   size_t ref)
{
	size_t len = strcspn(url, "#");
	char *key = xstrndup(url, len);
	size_t at;
	if (hash_get(&sp->index, key, &at)) {
		free(key);
		sp->v[at].count++;
		return at;
	}
	sp->v = xgrow(sp->v, &sp->cap, sp->n + 1, sizeof *sp->v);
	struct spelling *one = &sp->v[sp->n];
	one->key = key;
	char *own = url_canonical(key);
	one->moved = own && strcmp(own, canonical);
	free(own);
	one->count = 1;
	one->first = ref;
	hash_put(&sp->index, key, sp->n);
	return sp->n++;
}

/* The usual spelling: not an old address, then most citations, then the
 * canonical URL itself, then the first cited. -1 when every one is old. */
static long usual_spelling(const struct spelling *v, size_t n, const char *canonical)
{
	long best = -1;
	for (size_t k = 0; k < n; k++) {
		if (v[k].moved)
			continue;
		bool better = best < 0 || v[k].count > v[best].count;
		if (best >= 0 && v[k].count == v[best].count) {
			bool kc = !strcmp(v[k].key, canonical), bc = !strcmp(v[best].key, canonical);
			better = kc != bc ? kc : v[k].first < v[best].first;
		}
		if (better)
			best = (long)k;
	}
	return best;
}

static void check_variants(const struct site *s, const struct resource *r, struct diags *d)
{
	model_spellings(s, r);
	if (r->nspellings < 2 || !r->nrefs)
		return;
	struct spellings sp = {0};
	size_t *which = xcalloc(r->nrefs, sizeof *which);
	for (size_t i = 0; i < r->nrefs; i++)
		which[i] = spelling_add(&sp, ref_cite(s, &r->refs[i])->url, r->canonical, i);
	hash_free(&sp.index);
	struct spelling *v = sp.v;
	size_t n = sp.n;
	long u = n > 1 ? usual_spelling(v, n, r->canonical) : 0;
	const char *usual = u >= 0 ? v[u].key : r->canonical;
	for (size_t i = 0; i < r->nrefs && n > 1; i++) {
		if ((long)which[i] == u)
			continue;
		const struct citation *c = ref_cite(s, &r->refs[i]);
		const char *shown = s->docs[r->refs[i].doc].shown;
		if (u < 0)
			diag_addc(d, SEV_WARNING, "url-variant", shown, c->line, c->col,
				  "%s is an old address of the resource %s (see aliases in "
				  "site.yml): write the new one",
				  c->url, r->canonical);
		else {
			const struct cite_ref *w = &r->refs[v[u].first];
			diag_addc(d, SEV_WARNING, "url-variant", shown, c->line, c->col,
				  "%s is %s the resource %s, written %s in %s:%d: write it the "
				  "same way",
				  c->url, v[which[i]].moved ? "an old address of" : "a variant of",
				  r->canonical, usual, s->docs[w->doc].shown, ref_cite(s, w)->line);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].key);
	free(v);
	free(which);
}

/* ---- Unsorted ------------------------------------------------------------------- */

static void check_unsorted(const struct site *s, struct diags *d)
{
	for (size_t t = 0; t < s->ntopics; t++) {
		const struct topic *tp = &s->topics[t];
		if (!tp->unsorted)
			continue;
		for (size_t i = 0; i < tp->nresources; i++) {
			const struct resource *r = &s->res[tp->resources[i]];
			if (!r->nrefs)
				continue;
			const struct citation *c = ref_cite(s, &r->refs[0]);
			diag_addc(d, SEV_WARNING, "unsorted", s->docs[r->refs[0].doc].shown, c->line,
				  c->col,
				  "%s matches no topic of site.yml and falls into Unsorted: add a "
				  "match rule or an override",
				  r->canonical);
		}
	}
}

/* ---- empty titles --------------------------------------------------------------- */

static void check_doc_titles(const struct doc *doc, struct diags *d)
{
	if (!doc->meta.title && !doc->nheadings)
		diag_addc(d, SEV_WARNING, "empty-title", doc->shown, 1, 1,
			  "document has no title (no 'title:' in front matter and no heading): "
			  "shown as \"%s\"",
			  doc->title ? doc->title : "");
	for (size_t i = 0; i < doc->nheadings; i++)
		if (!*doc->headings[i].text)
			diag_addc(d, SEV_WARNING, "empty-title", doc->shown, doc->headings[i].line, 0,
				  "empty heading");
	for (size_t i = 0; i < doc->ncites; i++) {
		const struct citation *c = &doc->cites[i];
		if (c->text && !*c->text)
			diag_addc(d, SEV_WARNING, "empty-title", doc->shown, c->line, c->col,
				  "link to %s has no text", c->url);
	}
}

static void check_config_titles(const struct config *cfg, struct diags *d)
{
	for (size_t i = 0; i < cfg->ntopics; i++)
		if (cfg->topics[i].title && !*cfg->topics[i].title)
			diag_addc(d, SEV_WARNING, "empty-title", cfg->path, cfg->topics[i].line,
				  cfg->topics[i].col, "topic '%s' has an empty title",
				  cfg->topics[i].id);
	for (size_t i = 0; i < cfg->nkinds; i++)
		if (cfg->kinds[i].title && !*cfg->kinds[i].title)
			diag_addc(d, SEV_WARNING, "empty-title", cfg->path, cfg->kinds[i].line,
				  cfg->kinds[i].col, "kind '%s' has an empty title", cfg->kinds[i].id);
}

void check_site(const struct site *s, struct diags *d)
{
	for (size_t i = 0; i < s->ndocs; i++) {
		check_duplicates(&s->docs[i], d);
		check_doc_titles(&s->docs[i], d);
		check_images(s, &s->docs[i], d);
	}
	for (size_t i = 0; i < s->nres; i++)
		check_variants(s, &s->res[i], d);
	check_unsorted(s, d);
	if (s->cfg.path)
		check_config_titles(&s->cfg, d);
}

void check_strict(struct diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].sev == SEV_WARNING)
			d->v[i].sev = SEV_ERROR;
}

/* ---- output formats ------------------------------------------------------------- */

int check_format_parse(const char *name, enum check_format *f)
{
	static const struct {
		const char *name;
		enum check_format f;
	} names[] = {{"text", CHECK_TEXT}, {"github", CHECK_GITHUB}, {"json", CHECK_JSON}};
	for (size_t i = 0; name && i < sizeof names / sizeof *names; i++)
		if (!strcmp(name, names[i].name)) {
			*f = names[i].f;
			return 0;
		}
	return -1;
}

/* The path as the user can open it: prefix/path for a relative path. */
static void put_path(struct buf *b, const struct diag *g, const char *prefix)
{
	const char *p = g->path && *g->path ? g->path : "ssg";
	bool bare = !g->path || !*g->path || p[0] == '/' || !prefix || !*prefix ||
		    !strcmp(prefix, ".") || !strcmp(prefix, "./");
	if (!bare) {
		size_t n = strlen(prefix);
		/* a path that already names the folder (e.g. "DIR/content") stays */
		bare = !strncmp(p, prefix, n) && (p[n] == '/' || (n && prefix[n - 1] == '/'));
	}
	if (!bare) {
		buf_puts(b, prefix);
		if (prefix[strlen(prefix) - 1] != '/')
			buf_putc(b, '/');
	}
	buf_puts(b, p);
}

/* Workflow command escaping: data escapes % CR LF; properties also : and ,. */
static void put_gh(struct buf *b, const char *s, bool property)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': buf_puts(b, "%25"); break;
		case '\r': buf_puts(b, "%0D"); break;
		case '\n': buf_puts(b, "%0A"); break;
		case ':':
			if (property)
				buf_puts(b, "%3A");
			else
				buf_putc(b, ':');
			break;
		case ',':
			if (property)
				buf_puts(b, "%2C");
			else
				buf_putc(b, ',');
			break;
		default: buf_putc(b, *s);
		}
	}
}

static void format_text(const struct diag *g, const char *prefix, struct buf *out)
{
	put_path(out, g, prefix);
	if (g->line > 0) {
		buf_printf(out, ":%d", g->line);
		if (g->col > 0)
			buf_printf(out, ":%d", g->col);
	}
	buf_printf(out, ": %s: %s", severity_name(g->sev), g->msg);
	if (g->code && *g->code)
		buf_printf(out, " [%s]", g->code);
	buf_putc(out, '\n');
}

static void format_github(const struct diag *g, const char *prefix, struct buf *out)
{
	static const char *cmd[] = {[SEV_NOTE] = "notice", [SEV_WARNING] = "warning",
				    [SEV_ERROR] = "error"};
	buf_printf(out, "::%s file=", cmd[g->sev]);
	struct buf path = BUF_INIT;
	put_path(&path, g, prefix);
	put_gh(out, buf_cstr(&path), true);
	buf_free(&path);
	if (g->line > 0) {
		buf_printf(out, ",line=%d", g->line);
		if (g->col > 0)
			buf_printf(out, ",col=%d", g->col);
	}
	buf_puts(out, ",title=");
	char *title = g->code && *g->code ? xasprintf("ssg (%s)", g->code) : xstrdup("ssg");
	put_gh(out, title, true);
	free(title);
	buf_puts(out, "::");
	put_gh(out, g->msg, false);
	buf_putc(out, '\n');
}

static void json_str(struct buf *b, const char *s)
{
	buf_putc(b, '"');
	buf_put_json(b, s, strlen(s));
	buf_putc(b, '"');
}

static void format_json(const struct diag *g, const char *prefix, struct buf *out)
{
	struct buf path = BUF_INIT;
	put_path(&path, g, prefix);
	buf_puts(out, "{\"file\":");
	json_str(out, buf_cstr(&path));
	buf_free(&path);
	buf_printf(out, ",\"line\":%d,\"col\":%d,\"severity\":", g->line, g->col);
	json_str(out, severity_name(g->sev));
	buf_puts(out, ",\"code\":");
	if (g->code)
		json_str(out, g->code);
	else
		buf_puts(out, "null");
	buf_puts(out, ",\"message\":");
	json_str(out, g->msg);
	buf_puts(out, "}\n");
}

void check_format_diag(const struct diag *g, enum check_format f, const char *prefix,
		       struct buf *out)
{
	switch (f) {
	case CHECK_GITHUB: format_github(g, prefix, out); break;
	case CHECK_JSON: format_json(g, prefix, out); break;
	default: format_text(g, prefix, out); break;
	}
}

void check_summarize(const struct site *s, const struct diags *d, struct check_summary *sum)
{
	memset(sum, 0, sizeof *sum);
	sum->docs = s->ndocs;
	sum->resources = s->nres;
	for (size_t i = 0; i < s->ntopics; i++)
		sum->topics += !s->topics[i].unsorted;
	sum->notes = diags_count(d, SEV_NOTE);
	sum->warnings = diags_count(d, SEV_WARNING);
	sum->errors = diags_count(d, SEV_ERROR);
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void check_format_summary(const struct check_summary *sum, struct buf *out)
{
	buf_printf(out, "checked %zu %s, %zu %s, %zu %s: %zu %s, %zu %s, %zu %s\n", sum->docs,
		   plural(sum->docs, "document", "documents"), sum->resources,
		   plural(sum->resources, "resource", "resources"), sum->topics,
		   plural(sum->topics, "topic", "topics"), sum->errors,
		   plural(sum->errors, "error", "errors"), sum->warnings,
		   plural(sum->warnings, "warning", "warnings"), sum->notes,
		   plural(sum->notes, "note", "notes"));
}
