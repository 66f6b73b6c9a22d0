/* cli: help texts (see cli.h). Keep in step with man/ssg.1. */
#include "cli.h"

#include <string.h>

static const struct {
	const char *name, *text;
} helps[] = {
	{"build",
	 "usage: ssg build [-s|--source DIR] [-o|--output DIR] [--base-url URL] [--drafts]\n"
	 "                 [-j|--jobs N] [-q|--quiet] [-v|--verbose] [--timings] [--force]\n"
	 "\n"
	 "Build the site in DIR (default .) into DIR/public (or --output). The new site is\n"
	 "written beside the output folder and swapped in whole: a failed build leaves the\n"
	 "previous site as it was.\n"
	 "\n"
	 "Builds are incremental. When no input changed (content, site.yml, templates,\n"
	 "themes, static files, options, ssg itself) the build stops at once and repeats\n"
	 "the last warnings. When only documents' prose changed (not their metadata,\n"
	 "headings, citations or links), their pages are patched in place. Otherwise\n"
	 "documents whose bytes are unchanged come from DIR/.ssg-cache/documents.bin,\n"
	 "not parsed again, and pages whose data is unchanged are kept as they are.\n"
	 "\n"
	 "  -s, --source DIR   the site: site.yml, content/, templates/, themes/, static/\n"
	 "  -o, --output DIR   where the site goes (default DIR/public)\n"
	 "      --base-url URL the address the site is served from (overrides site.yml)\n"
	 "      --drafts       include documents whose front matter says draft: true\n"
	 "  -j, --jobs N       threads (default: one per processor)\n"
	 "  -q, --quiet        print only errors and warnings\n"
	 "  -v, --verbose      print every diagnostic, notes included\n"
	 "      --timings      print how long each phase took (check, read, model, prepare,\n"
	 "                     render, write)\n"
	 "      --force        build everything again, using nothing earlier builds kept\n"
	 "\n"
	 "Exit status: 0 built, 1 content or configuration errors, 2 usage errors.\n"},
	{"check",
	 "usage: ssg check [-s|--source DIR] [--format text|github|json] [--strict] [--drafts]\n"
	 "                 [--links [--links-exclude PATTERN]... [--links-cache FILE]\n"
	 "                  [--links-ttl SECONDS] [--links-timeout SECONDS]]\n"
	 "\n"
	 "Load the site in DIR (default .) the way build does, write nothing, and report\n"
	 "every finding: site.yml and front-matter errors, reStructuredText and Markdown\n"
	 "warnings, invalid UTF-8 and mojibake, a resource listed twice in one document,\n"
	 "a URL written differently from how the other documents write it, resources\n"
	 "that fall into Unsorted, broken internal links and anchors, links to missing\n"
	 "files, raw HTML and unsafe URL schemes, dangling topic or kind references,\n"
	 "empty titles. Findings go to standard output, a summary line to standard\n"
	 "error. What the last build left in DIR/.ssg-cache is read, never written: a\n"
	 "document whose bytes are unchanged since is not parsed again.\n"
	 "\n"
	 "  -s, --source DIR   the site to check; paths in findings start with DIR/\n"
	 "      --format FMT   text: path:line:col: severity: message [rule] (default)\n"
	 "                     github: workflow annotations (::error file=...,line=...::)\n"
	 "                     json: one JSON object per finding and line\n"
	 "      --strict       treat warnings as errors\n"
	 "      --drafts       check documents whose front matter says draft: true too\n"
	 "      --links        also request every resource's URL (HEAD, else GET; 16 at\n"
	 "                     once, 2 per host): broken links, timeouts and redirects are\n"
	 "                     reported at the resource's first citation (link-broken,\n"
	 "                     link-timeout, link-redirect, link-rate-limited)\n"
	 "      --links-exclude PATTERN\n"
	 "                     skip URLs matching PATTERN (host[/path], * matches\n"
	 "                     anything, as in site.yml's url rules); repeatable\n"
	 "      --links-cache FILE\n"
	 "                     where results are kept (default DIR/.ssg-cache/links.tsv)\n"
	 "      --links-ttl SECONDS\n"
	 "                     how long a result is reused without asking again\n"
	 "                     (default 86400, a day; 0 asks every time)\n"
	 "      --links-timeout SECONDS\n"
	 "                     the longest a request may take (default 20)\n"
	 "\n"
	 "Exit status: 0 no errors, 1 errors (or warnings with --strict), 2 usage errors.\n"},
	{"new",
	 "usage: ssg new site DIR\n"
	 "       ssg new doc PATH\n"
	 "\n"
	 "site: create a working site in DIR: site.yml with a small taxonomy, a sample\n"
	 "document content/welcome.md, a README.md and a .gitignore.\n"
	 "doc: create a document at PATH (usually content/NAME.md, or .rst) with front\n"
	 "matter: a title taken from the file name and today's date.\n"
	 "\n"
	 "Existing files are never overwritten: each one is reported and left as it is.\n"
	 "\n"
	 "Exit status: 0 created, 1 a file existed or could not be written, 2 usage errors.\n"},
	{"serve",
	 "usage: ssg serve [-s|--source DIR] [--drafts] [-j|--jobs N] [--bind ADDR]\n"
	 "                 [-p|--port N] [--threads N] [-q|--quiet]\n"
	 "\n"
	 "Build the site in DIR (default .) into a private temporary folder (never over\n"
	 "public/), serve it at http://ADDR:PORT/ and rebuild when site.yml or anything in\n"
	 "content/, templates/, themes/ or static/ changes. Open pages reload by\n"
	 "themselves; a failed build is shown over the page while the last good site\n"
	 "stays served. Stop with Ctrl-C (the temporary folder is removed).\n"
	 "\n"
	 "  -s, --source DIR   the site: site.yml, content/, templates/, themes/, static/\n"
	 "      --drafts       include documents whose front matter says draft: true\n"
	 "  -j, --jobs N       build threads (default: one per processor)\n"
	 "      --bind ADDR    the address to listen on (default 127.0.0.1)\n"
	 "  -p, --port N       the port (default 8000; 0 picks a free one)\n"
	 "      --threads N    HTTP threads (default: one per processor, at least 2)\n"
	 "  -q, --quiet        print only errors and the address\n"
	 "\n"
	 "Exit status: 0 stopped by a signal, 1 the server could not start, 2 usage errors.\n"},
	{"help", "usage: ssg help [COMMAND]\n\nPrint help for ssg or one of its commands.\n"},
};

int cli_help(const char *command, FILE *f)
{
	if (!command) {
		fputs("usage: ssg COMMAND [OPTIONS]\n"
		      "\n"
		      "ssg publishes resource portals: Markdown and reStructuredText link lists,\n"
		      "normalised into one taxonomy and rendered as a static site.\n"
		      "\n"
		      "Commands:\n"
		      "  build     build the site into public/\n"
		      "  serve     preview the site with live reload\n"
		      "  check     report problems without writing anything\n"
		      "  new       create a site or a document\n"
		      "  help      print help for a command\n"
		      "\n"
		      "Options:\n"
		      "  --version print the version\n"
		      "\n"
		      "Run 'ssg help COMMAND' for a command's options.\n",
		      f);
		return 0;
	}
	for (size_t i = 0; i < sizeof helps / sizeof *helps; i++)
		if (!strcmp(helps[i].name, command)) {
			fputs(helps[i].text, f);
			return 0;
		}
	return -1;
}
