/* cmd_serve: `ssg serve`: its options; the server itself is serve.c. */
#include "cli.h"
#include "commands.h"
#include "hugepages.h"
#include "serve.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int number(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int cmd_serve(int argc, char **argv)
{
	static const struct option opts[] = {
		{"source", required_argument, NULL, 's'}, {"drafts", no_argument, NULL, 'd'},
		{"jobs", required_argument, NULL, 'j'},   {"bind", required_argument, NULL, 'b'},
		{"port", required_argument, NULL, 'p'},   {"threads", required_argument, NULL, 't'},
		{"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct serve_opts o = {.build = {.source = "."}, .bind = "127.0.0.1", .port = 8000};
	int c;
	long v;
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:j:p:qh", opts, NULL)) != -1) {
		switch (c) {
		case 's': o.build.source = optarg; break;
		case 'd': o.build.drafts = true; break;
		case 'j':
			if (number(optarg, 1, 256, &v))
				return cmd_usage_error("serve", "--jobs needs a number from 1 to 256");
			o.build.jobs = (int)v;
			break;
		case 'b': o.bind = optarg; break;
		case 'p':
			if (number(optarg, 0, 65535, &v))
				return cmd_usage_error("serve", "--port needs a number from 0 to 65535");
			o.port = (unsigned)v;
			break;
		case 't':
			if (number(optarg, 1, 256, &v))
				return cmd_usage_error("serve", "--threads needs a number from 1 to 256");
			o.threads = (int)v;
			break;
		case 'q': o.quiet = true; break;
		case 'h': cli_help("serve", stdout); return 0;
		default: return cmd_usage_error("serve", "unknown option");
		}
	}
	if (optind < argc)
		return cmd_usage_error("serve", "unexpected argument");
	hugepages_for_site(o.build.source);
	return serve_run(&o);
}
