/* scaffold: the templates of `ssg new` and writing them without ever
 * replacing a file (see scaffold.h). */
#include "scaffold.h"
#include "path.h"
#include "xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char site_yml[] =
	"# site.yml: the settings and the taxonomy of this portal (see ssg(1) and\n"
	"# CONTRIBUTING.md). Run `ssg check` after every change.\n"
	"title: My Resource Portal\n"
	"description: Papers, documentation and tools worth knowing, curated by the community.\n"
	"base_url: /\n"
	"language: en\n"
	"raw_html: sanitize\n"
	"\n"
	"# Topics: a resource goes to every topic whose rules match it. `headings`\n"
	"# match the section a resource is listed under, `words` its title and\n"
	"# description, `hosts` and `urls` its address. A resource no rule matches\n"
	"# falls into Unsorted, and `ssg check` says so.\n"
	"topics:\n"
	"  - id: getting-started\n"
	"    title: Getting started\n"
	"    description: Where to begin.\n"
	"    match:\n"
	"      headings: [\"Getting started\"]\n"
	"      words: [tutorial, introduction, primer]\n"
	"  - id: tools\n"
	"    title: Tools\n"
	"    description: Software worth knowing.\n"
	"    match:\n"
	"      headings: [\"Tools\"]\n"
	"      hosts: [github.com]\n"
	"    children:\n"
	"      - id: markup\n"
	"        title: Markup languages\n"
	"        description: Markdown, reStructuredText and their tools.\n"
	"        match:\n"
	"          words: [markdown, commonmark, restructuredtext]\n"
	"\n"
	"# Moved resources: old address -> new address.\n"
	"# aliases:\n"
	"#   https://github.com/old/name: https://github.com/new/name\n"
	"\n"
	"quick_reference: { per_topic: 5 }\n";

static const char welcome_md[] =
	"---\n"
	"title: Welcome\n"
	"description: A sample resource list. Replace it with your own documents.\n"
	"---\n"
	"\n"
	"# Welcome\n"
	"\n"
	"Every document in content/ is a list of resources: a link, then a short\n"
	"description. ssg merges the links of all documents into one catalogue and\n"
	"sorts them into the topics of site.yml.\n"
	"\n"
	"## Getting started\n"
	"\n"
	"- [CommonMark](https://commonmark.org/) - the Markdown specification, with a\n"
	"  ten-minute tutorial.\n"
	"- [reStructuredText Primer](https://docutils.sourceforge.io/docs/user/rst/quickstart.html) -\n"
	"  an introduction to the other format ssg reads.\n"
	"\n"
	"## Tools\n"
	"\n"
	"- [cmark-gfm](https://github.com/github/cmark-gfm) - GitHub's fork of the\n"
	"  CommonMark reference parser.\n";

static const char readme_md[] =
	"# My Resource Portal\n"
	"\n"
	"A resource portal built with ssg.\n"
	"\n"
	"- `site.yml`: title, address and the taxonomy (topics and their rules)\n"
	"- `content/`: the documents, Markdown (`.md`) or reStructuredText (`.rst`)\n"
	"- `public/`: the built site (not committed)\n"
	"\n"
	"Commands:\n"
	"\n"
	"    ssg new doc content/my-list.md   # a new document with front matter\n"
	"    ssg serve                        # preview with live reload\n"
	"    ssg check                        # what a reviewer would point out\n"
	"    ssg build                        # the site, into public/\n"
	"\n"
	"`man ssg` and `ssg help COMMAND` describe every option.\n";

static const char gitignore[] = "/public/\n/.public.ssg-spare/\n/.public.ssg-trees\n/.ssg-cache/\n";

/* Write text to path with O_EXCL: never replaces an existing file. */
static int write_new(const char *path, const char *text, struct diags *d, struct buf *log)
{
	char *dir = path_dirname(path);
	if (*dir && path_mkdirs(dir)) {
		diag_add(d, SEV_ERROR, dir, 0, 0, "cannot create the folder: %s", strerror(errno));
		free(dir);
		return -1;
	}
	free(dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		if (errno == EEXIST)
			diag_add(d, SEV_ERROR, path, 0, 0, "exists already: left as it is");
		else
			diag_add(d, SEV_ERROR, path, 0, 0, "cannot create: %s", strerror(errno));
		return -1;
	}
	size_t n = strlen(text), off = 0;
	while (off < n) {
		ssize_t w = write(fd, text + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			diag_add(d, SEV_ERROR, path, 0, 0, "cannot write: %s", strerror(errno));
			close(fd);
			unlink(path);
			return -1;
		}
		off += (size_t)w;
	}
	if (close(fd)) {
		diag_add(d, SEV_ERROR, path, 0, 0, "cannot write: %s", strerror(errno));
		unlink(path);
		return -1;
	}
	buf_printf(log, "created %s\n", path);
	return 0;
}

int scaffold_site(const char *dir, struct diags *d, struct buf *log)
{
	static const struct {
		const char *name, *text;
	} files[] = {
		{"site.yml", site_yml},
		{"README.md", readme_md},
		{".gitignore", gitignore},
		{"content/welcome.md", welcome_md},
	};
	int rc = 0;
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char *p = path_join(dir, files[i].name);
		rc |= write_new(p, files[i].text, d, log);
		free(p);
	}
	return rc ? -1 : 0;
}

char *scaffold_title_from_path(const char *path)
{
	char *t = xstrdup(path_basename(path));
	char *dot = strrchr(t, '.');
	if (dot && dot != t)
		*dot = '\0';
	for (char *p = t; *p; p++)
		if (*p == '-' || *p == '_')
			*p = ' ';
	if (!*t) {
		free(t);
		return xstrdup("Untitled");
	}
	t[0] = (char)toupper((unsigned char)t[0]);
	return t;
}

/* A YAML double-quoted scalar. */
static void put_yaml_str(struct buf *b, const char *s)
{
	buf_putc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			buf_putc(b, '\\');
		buf_putc(b, *s);
	}
	buf_putc(b, '"');
}

char *scaffold_doc_text(const char *title, const char *date, bool rst)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, "---\ntitle: ");
	put_yaml_str(&b, title);
	buf_puts(&b, "\n# description: one sentence for search results and link previews\n");
	if (date)
		buf_printf(&b, "date: %s\n", date);
	buf_puts(&b, "# topics: [an-id-from-site.yml]\n---\n\n");
	if (rst) {
		buf_puts(&b, title);
		buf_putc(&b, '\n');
		for (size_t i = strlen(title); i > 0; i--)
			buf_putc(&b, '=');
		buf_puts(&b, "\n\nOne paragraph on what this list is about.\n\n"
			     "Section\n-------\n\n"
			     "- `Resource title <https://example.org/>`_ - what it is and why it helps.\n");
	} else {
		buf_printf(&b, "# %s\n\n", title);
		buf_puts(&b, "One paragraph on what this list is about.\n\n"
			     "## Section\n\n"
			     "- [Resource title](https://example.org/) - what it is and why it helps.\n");
	}
	return buf_detach(&b);
}

int scaffold_doc(const char *path, const char *date, struct diags *d, struct buf *log)
{
	const char *ext = path_ext(path);
	char *file = *ext ? xstrdup(path) : xasprintf("%s.md", path);
	bool rst = !strcmp(path_ext(file), "rst");
	char *title = scaffold_title_from_path(file);
	char *text = scaffold_doc_text(title, date, rst);
	int rc = write_new(file, text, d, log);
	free(text);
	free(title);
	free(file);
	return rc;
}
