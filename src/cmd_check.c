/* cmd_check: `ssg check`: load the site without writing anything, apply the
 * lint rules of check.c (and with --links the external link checks of
 * linkcheck.c), print every finding (stdout) in the chosen format and a
 * summary line (stderr). */
#include "check.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"
#include "hugepages.h"
#include "linkcheck.h"
#include "path.h"
#include "site.h"
#include "xalloc.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --links and its options. */
struct check_links {
	bool on;
	struct linkcheck_opts lo;
	const char **exclude;
	size_t nexclude, capexclude;
	const char *cache;  /* NULL: <source>/.ssg-cache/links.tsv */
};

/* A whole number of seconds in [lo, hi]; -1 when it is not one. */
static long check_seconds(const char *s, long lo, long hi)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || *end || v < lo || v > hi)
		return -1;
	return v;
}

/* Options 'L' and up are --links*; 0, or a usage error's exit status. */
static int check_links_option(struct check_links *l, int c, const char *arg)
{
	switch (c) {
	case 'L': l->on = true; break;
	case 'X':
		l->exclude = xgrow(l->exclude, &l->capexclude, l->nexclude + 1, sizeof *l->exclude);
		l->exclude[l->nexclude++] = arg;
		break;
	case 'C': l->cache = arg; break;
	case 'T':
		if ((l->lo.ttl = check_seconds(arg, 0, 100L * 365 * 86400)) < 0)
			return cmd_usage_error("check", "--links-ttl must be a number of seconds");
		break;
	case 'O':
		if ((l->lo.timeout = check_seconds(arg, 1, 3600)) < 0)
			return cmd_usage_error("check", "--links-timeout must be 1 to 3600 seconds");
		break;
	}
	return 0;
}

static void check_links_run(struct check_links *l, const struct site *s, const char *source,
			    struct diags *d)
{
	char *cache = l->cache ? xstrdup(l->cache) : path_join(source, LINKCHECK_CACHE_DEFAULT);
	l->lo.cache_file = cache;
	l->lo.exclude = l->exclude;
	l->lo.nexclude = l->nexclude;
	struct linkcheck_stats st = {0};
	linkcheck_site(s, &l->lo, d, &st);
	fprintf(stderr, "links: %zu URLs: %zu checked (%zu requests), %zu from the cache, %zu excluded\n",
		st.urls, st.checked, st.requests, st.cached, st.excluded);
	free(cache);
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{"source", required_argument, NULL, 's'}, {"format", required_argument, NULL, 'f'},
		{"strict", no_argument, NULL, 'S'},       {"drafts", no_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},         {"links", no_argument, NULL, 'L'},
		{"links-exclude", required_argument, NULL, 'X'},
		{"links-cache", required_argument, NULL, 'C'},
		{"links-ttl", required_argument, NULL, 'T'},
		{"links-timeout", required_argument, NULL, 'O'},
		{NULL, 0, NULL, 0},
	};
	struct build_opts o = {.source = ".", .readonly = true};
	enum check_format fmt = CHECK_TEXT;
	bool strict = false;
	struct check_links links = {.lo = {.ttl = LINKCHECK_TTL_DEFAULT,
					   .timeout = LINKCHECK_TIMEOUT_DEFAULT}};
	int c, bad = 0;
	optind = 1;
	while (!bad && (c = getopt_long(argc, argv, "s:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': o.source = optarg; break;
		case 'f':
			if (check_format_parse(optarg, &fmt))
				bad = cmd_usage_error("check", "--format must be text, github or json");
			break;
		case 'S': strict = true; break;
		case 'd': o.drafts = true; break;
		case 'h': cli_help("check", stdout); free(links.exclude); return 0;
		case 'L': case 'X': case 'C': case 'T': case 'O':
			bad = check_links_option(&links, c, optarg);
			break;
		default: bad = cmd_usage_error("check", "unknown option");
		}
	}
	if (!bad && optind < argc)
		bad = cmd_usage_error("check", "unexpected argument");
	if (bad) {
		free(links.exclude);
		return bad;
	}
	hugepages_for_site(o.source);
	struct diags d = DIAGS_INIT;
	struct site s;
	site_load(&s, &o, &d);
	check_site(&s, &d);
	if (links.on)
		check_links_run(&links, &s, o.source, &d);
	free(links.exclude);
	diags_sort(&d);
	if (strict)
		check_strict(&d);
	struct buf out = BUF_INIT;
	for (size_t i = 0; i < d.n; i++)
		check_format_diag(&d.v[i], fmt, o.source, &out);
	fwrite(buf_cstr(&out), 1, out.n, stdout);
	fflush(stdout);
	struct check_summary sum;
	check_summarize(&s, &d, &sum);
	buf_reset(&out);
	check_format_summary(&sum, &out);
	fputs(buf_cstr(&out), stderr);
	buf_free(&out);
	int rc = sum.errors ? 1 : 0;
	model_free(&s);
	diags_free(&d);
	return rc;
}
