/* cmd_check: `ssg check`: load the site without writing anything, apply the
 * lint rules of check.c, print every finding (stdout) in the chosen format
 * and a summary line (stderr). */
#include "check.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"
#include "site.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{"source", required_argument, NULL, 's'}, {"format", required_argument, NULL, 'f'},
		{"strict", no_argument, NULL, 'S'},       {"drafts", no_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
	};
	struct build_opts o = {.source = ".", .keep_trees = true};
	enum check_format fmt = CHECK_TEXT;
	bool strict = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': o.source = optarg; break;
		case 'f':
			if (check_format_parse(optarg, &fmt))
				return cmd_usage_error("check", "--format must be text, github or json");
			break;
		case 'S': strict = true; break;
		case 'd': o.drafts = true; break;
		case 'h': cli_help("check", stdout); return 0;
		default: return cmd_usage_error("check", "unknown option");
		}
	}
	if (optind < argc)
		return cmd_usage_error("check", "unexpected argument");
	struct diags d = DIAGS_INIT;
	struct site s;
	site_load(&s, &o, &d);
	check_site(&s, &d);
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
