/* cli: help texts (see cli.h). Keep in step with man/ssg.1. */
#include "cli.h"

#include <string.h>

static const struct {
	const char *name, *text;
} helps[] = {
	{"build",
	 "usage: ssg build [-s|--source DIR] [-o|--output DIR] [--base-url URL] [--drafts]\n"
	 "                 [-j|--jobs N] [-q|--quiet] [-v|--verbose]\n"
	 "\n"
	 "Build the site in DIR (default .) into DIR/public (or --output). The new site is\n"
	 "written beside the output folder and swapped in whole: a failed build leaves the\n"
	 "previous site as it was.\n"
	 "\n"
	 "  -s, --source DIR   the site: site.yml, content/, templates/, themes/, static/\n"
	 "  -o, --output DIR   where the site goes (default DIR/public)\n"
	 "      --base-url URL the address the site is served from (overrides site.yml)\n"
	 "      --drafts       include documents whose front matter says draft: true\n"
	 "  -j, --jobs N       threads (default: one per processor)\n"
	 "  -q, --quiet        print only errors and warnings\n"
	 "  -v, --verbose      print every diagnostic, notes included\n"
	 "\n"
	 "Exit status: 0 built, 1 content or configuration errors, 2 usage errors.\n"},
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
