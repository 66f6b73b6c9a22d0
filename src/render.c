/* render: template lookup and the machine-readable outputs (see render.h). */
#include "render.h"
#include "embedded.h"
#include "html.h"
#include "path.h"
#include "value.h"
#include "xalloc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct buf b = BUF_INIT;
	char chunk[65536];
	size_t r;
	while ((r = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_put(&b, chunk, r);
	fclose(f);
	*len = b.n;
	return buf_detach(&b);
}

static const struct embedded_file *embedded(const char *rel)
{
	for (unsigned long i = 0; i < embedded_theme_count; i++)
		if (!strcmp(embedded_theme[i].path, rel))
			return &embedded_theme[i];
	return NULL;
}

static char *load_template(void *ud, const char *name, size_t *len)
{
	const struct template_source *ts = ud;
	if (!path_is_safe_rel(name))
		return NULL;
	char *paths[2] = {
		xasprintf("%s/templates/%s.mustache", ts->source_dir, name),
		xasprintf("%s/themes/%s/templates/%s.mustache", ts->source_dir, ts->theme, name),
	};
	char *text = NULL;
	for (int i = 0; i < 2 && !text; i++)
		text = read_file(paths[i], len);
	free(paths[0]);
	free(paths[1]);
	if (text)
		return text;
	char *rel = xasprintf("templates/%s.mustache", name);
	const struct embedded_file *e = embedded(rel);
	free(rel);
	if (!e)
		return NULL;
	*len = e->len;
	return xstrndup((const char *)e->data, e->len);
}

struct mustache_set *render_templates(struct template_source *ts)
{
	return mustache_set_new(load_template, ts);
}

static void add_path(char ***paths, size_t *n, const char *rel)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*paths)[i], rel))
			return;
	*paths = xrealloc(*paths, (*n + 1) * sizeof **paths);
	(*paths)[(*n)++] = xstrdup(rel);
}

static void walk_static(const char *root, const char *rel, char ***paths, size_t *n, int depth)
{
	char *dir = *rel ? path_join(root, rel) : xstrdup(root);
	DIR *dh = opendir(dir);
	if (dh) {
		struct dirent *e;
		while ((e = readdir(dh))) {
			if (e->d_name[0] == '.')
				continue;
			char *crel = *rel ? path_join(rel, e->d_name) : xstrdup(e->d_name);
			char *full = path_join(root, crel);
			struct stat st;
			if (lstat(full, &st) == 0) {
				if (S_ISDIR(st.st_mode) && depth < 8)
					walk_static(root, crel, paths, n, depth + 1);
				else if (S_ISREG(st.st_mode))
					add_path(paths, n, crel);
			}
			free(full);
			free(crel);
		}
		closedir(dh);
	}
	free(dir);
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t render_theme_static(const struct template_source *ts, char ***paths)
{
	size_t n = 0;
	*paths = NULL;
	char *root = xasprintf("%s/themes/%s/static", ts->source_dir, ts->theme);
	walk_static(root, "", paths, &n, 0);
	free(root);
	for (unsigned long i = 0; i < embedded_theme_count; i++)
		if (!strncmp(embedded_theme[i].path, "static/", 7))
			add_path(paths, &n, embedded_theme[i].path + 7);
	if (n > 1)
		qsort(*paths, n, sizeof **paths, cmp_strp);
	return n;
}

int render_theme_file(const struct template_source *ts, const char *rel, struct buf *out)
{
	char *full = xasprintf("%s/themes/%s/static/%s", ts->source_dir, ts->theme, rel);
	size_t len;
	char *text = read_file(full, &len);
	free(full);
	if (text) {
		buf_put(out, text, len);
		free(text);
		return 0;
	}
	char *erel = xasprintf("static/%s", rel);
	const struct embedded_file *e = embedded(erel);
	free(erel);
	if (!e)
		return -1;
	buf_put(out, e->data, e->len);
	return 0;
}

/* ---- machine-readable outputs ----------------------------------------------- */

void render_resources_json(const struct site *s, struct buf *out)
{
	struct val *root = val_map();
	val_set_str(root, "$schema", "resources.schema.json");
	val_set_str(root, "site", s->cfg.title);
	struct val *list = val_set(root, "resources", val_list());
	for (size_t i = 0; i < s->nres; i++) {
		const struct resource *r = &s->res[i];
		struct val *m = val_push(list, val_map());
		val_set_str(m, "url", r->canonical);
		val_set_str(m, "slug", r->slug);
		val_set_str(m, "title", r->title);
		val_set(m, "description", r->desc ? val_str(r->desc) : val_null());
		val_set(m, "kind", r->kind >= 0 ? val_str(s->cfg.kinds[r->kind].id) : val_null());
		struct val *tl = val_set(m, "topics", val_list());
		for (size_t k = 0; k < r->ntopics; k++)
			val_push(tl, val_str(s->topics[r->topics[k]].id));
		struct val *sp = val_set(m, "urls", val_list());
		for (size_t k = 0; k < r->nspellings; k++)
			val_push(sp, val_str(r->spellings[k]));
		struct val *cl = val_set(m, "citations", val_list());
		for (size_t k = 0; k < r->nrefs; k++) {
			const struct doc *d = &s->docs[r->refs[k].doc];
			const struct citation *c = &d->cites[r->refs[k].cite];
			struct val *cv = val_push(cl, val_map());
			val_set_str(cv, "document", d->relpath);
			val_set_str(cv, "page", d->url);
			val_set(cv, "section", c->heading >= 0 ? val_str(d->headings[c->heading].id)
							       : val_null());
			val_set_int(cv, "line", c->line);
			val_set_str(cv, "url", c->url);
			val_set_str(cv, "title", c->title);
			val_set_str(cv, "text", c->text);
		}
	}
	val_to_json(root, out, 1);
	buf_putc(out, '\n');
	val_free(root);
}

void render_search_index(const struct site *s, struct buf *out)
{
	/* compact: [kind, title, url relative to root, extra text] */
	struct val *root = val_list();
	for (size_t i = 0; i < s->ndocs; i++) {
		const struct doc *d = &s->docs[i];
		struct val *e = val_push(root, val_list());
		val_push(e, val_str("d"));
		val_push(e, val_str(d->title));
		val_push(e, val_str(d->url));
		val_push(e, val_str(d->description ? d->description : ""));
		for (size_t h = 0; h < d->nheadings; h++) {
			struct val *x = val_push(root, val_list());
			val_push(x, val_str("s"));
			val_push(x, val_str(d->headings[h].text));
			val_push(x, val_str_own(xasprintf("%s#%s", d->url, d->headings[h].id)));
			val_push(x, val_str(d->title));
		}
	}
	for (size_t i = 0; i < s->ntopics; i++) {
		if (!s->topics[i].nresources)
			continue;
		struct val *e = val_push(root, val_list());
		val_push(e, val_str("t"));
		val_push(e, val_str(s->topics[i].title));
		val_push(e, val_str_own(xasprintf("topic/%s/", s->topics[i].id)));
		val_push(e, val_str(s->topics[i].description));
	}
	for (size_t i = 0; i < s->nres; i++) {
		const struct resource *r = &s->res[i];
		struct val *e = val_push(root, val_list());
		val_push(e, val_str("r"));
		val_push(e, val_str(r->title));
		val_push(e, val_str_own(html_resource_url(r)));
		/* extra: what else a reader may type to find it */
		val_push(e, val_str_own(xasprintf("%s %s %s", r->host,
						  r->kind >= 0 ? s->cfg.kinds[r->kind].title : "",
						  r->desc ? r->desc : "")));
	}
	val_to_json(root, out, -1);
	val_free(root);
}

static char *abs_base(const struct site *s)
{
	const char *bu = s->cfg.base_url;
	size_t n = strlen(bu);
	return xasprintf("%s%s", bu, n && bu[n - 1] == '/' ? "" : "/");
}

static void sitemap_url(struct buf *out, const char *base, const char *path, const char *lastmod)
{
	buf_puts(out, "  <url><loc>");
	buf_puts_html(out, base);
	buf_puts_html(out, path);
	buf_puts(out, "</loc>");
	if (lastmod) {
		buf_puts(out, "<lastmod>");
		buf_puts_html(out, lastmod);
		buf_puts(out, "</lastmod>");
	}
	buf_puts(out, "</url>\n");
}

void render_sitemap(const struct site *s, struct buf *out)
{
	char *base = abs_base(s);
	buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
	sitemap_url(out, base, "", NULL);
	for (size_t i = 0; i < s->ndocs; i++)
		sitemap_url(out, base, s->docs[i].url, s->docs[i].meta.updated);
	for (size_t i = 0; i < s->ntopics; i++)
		if (s->topics[i].nresources) {
			char *p = xasprintf("topic/%s/", s->topics[i].id);
			sitemap_url(out, base, p, NULL);
			free(p);
		}
	sitemap_url(out, base, "resources/", NULL);
	sitemap_url(out, base, "quick-reference/", NULL);
	for (size_t i = 0; i < s->nres; i++)
		if (s->res[i].has_page) {
			char *p = xasprintf("r/%s/", s->res[i].slug);
			sitemap_url(out, base, p, NULL);
			free(p);
		}
	buf_puts(out, "</urlset>\n");
	free(base);
}

void render_robots(const struct site *s, struct buf *out)
{
	char *base = abs_base(s);
	buf_puts(out, "User-agent: *\nAllow: /\n");
	if (!strncmp(base, "http", 4))
		buf_printf(out, "Sitemap: %ssitemap.xml\n", base);
	free(base);
}

void render_feed(const struct site *s, struct buf *out)
{
	char *base = abs_base(s);
	/* deterministic: the newest date any document gives, never the clock */
	const char *newest = "1970-01-01";
	for (size_t i = 0; i < s->ndocs; i++) {
		const char *d = s->docs[i].meta.updated ? s->docs[i].meta.updated : s->docs[i].meta.date;
		if (d && strcmp(d, newest) > 0)
			newest = d;
	}
	buf_puts(out, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
		      "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>");
	buf_puts_html(out, s->cfg.title);
	buf_puts(out, "</title>\n");
	if (*s->cfg.description) {
		buf_puts(out, "  <subtitle>");
		buf_puts_html(out, s->cfg.description);
		buf_puts(out, "</subtitle>\n");
	}
	/* Atom wants an author on the feed or on every entry */
	buf_puts(out, "  <author><name>");
	buf_puts_html(out, *s->cfg.author ? s->cfg.author : s->cfg.title);
	buf_puts(out, "</name></author>\n  <id>");
	buf_puts_html(out, base);
	buf_puts(out, "</id>\n  <link rel=\"alternate\" type=\"text/html\" href=\"");
	buf_puts_html(out, base);
	buf_puts(out, "\"/>\n  <link rel=\"self\" type=\"application/atom+xml\" href=\"");
	buf_puts_html(out, base);
	buf_printf(out, "feed.xml\"/>\n  <updated>%sT00:00:00Z</updated>\n", newest);
	for (size_t i = 0; i < s->ndocs; i++) {
		const struct doc *d = &s->docs[i];
		const char *date = d->meta.updated ? d->meta.updated : d->meta.date ? d->meta.date : newest;
		buf_puts(out, "  <entry>\n    <title>");
		buf_puts_html(out, d->title);
		buf_puts(out, "</title>\n    <id>");
		buf_puts_html(out, base);
		buf_puts_html(out, d->url);
		buf_puts(out, "</id>\n    <link href=\"");
		buf_puts_html(out, base);
		buf_puts_html(out, d->url);
		buf_printf(out, "\"/>\n    <updated>%sT00:00:00Z</updated>\n", date);
		if (d->description) {
			buf_puts(out, "    <summary>");
			buf_puts_html(out, d->description);
			buf_puts(out, "</summary>\n");
		}
		buf_puts(out, "  </entry>\n");
	}
	buf_puts(out, "</feed>\n");
	free(base);
}
