/* cmd_build: `ssg build`: options, the build, its diagnostics and summary. */
#include "cli.h"
#include "commands.h"
#include "diag.h"
#include "hugepages.h"
#include "site.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_usage_error(const char *cmd, const char *msg)
{
	fprintf(stderr, "ssg: %s\n", msg);
	fprintf(stderr, "Try 'ssg help%s%s'.\n", cmd ? " " : "", cmd ? cmd : "");
	return 2;
}

static void print_diags(const struct diags *d, bool verbose)
{
	for (size_t i = 0; i < d->n; i++)
		if (verbose || d->v[i].sev != SEV_NOTE)
			diag_print(&d->v[i], stderr);
}

int cmd_build(int argc, char **argv)
{
	static const struct option opts[] = {
		{"source", required_argument, NULL, 's'}, {"output", required_argument, NULL, 'o'},
		{"base-url", required_argument, NULL, 'b'}, {"drafts", no_argument, NULL, 'd'},
		{"jobs", required_argument, NULL, 'j'},    {"quiet", no_argument, NULL, 'q'},
		{"verbose", no_argument, NULL, 'v'},       {"help", no_argument, NULL, 'h'},
		{"timings", no_argument, NULL, 't'},       {"force", no_argument, NULL, 'f'},
		{NULL, 0, NULL, 0},
	};
	struct build_opts o = {.source = "."};
	bool quiet = false, verbose = false, timings = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:o:j:qvh", opts, NULL)) != -1) {
		switch (c) {
		case 's': o.source = optarg; break;
		case 'o': o.output = optarg; break;
		case 'b': o.base_url = optarg; break;
		case 'd': o.drafts = true; break;
		case 'j': {
			char *end;
			long j = strtol(optarg, &end, 10);
			if (*end || j < 1 || j > 256)
				return cmd_usage_error("build", "--jobs needs a number from 1 to 256");
			o.jobs = (int)j;
			break;
		}
		case 'q': quiet = true; break;
		case 'v': verbose = true; break;
		case 't': timings = true; break;
		case 'f': o.force = true; break;
		case 'h': cli_help("build", stdout); return 0;
		default: return cmd_usage_error("build", "unknown option");
		}
	}
	if (optind < argc)
		return cmd_usage_error("build", "unexpected argument");
	struct diags d = DIAGS_INIT;
	struct build_stats st;
	o.exiting = true;
	char *outdir = site_output_dir(&o);
	hugepages_for_build(o.source, outdir, o.force);
	free(outdir);
	int rc = site_build(&o, &d, &st);
	print_diags(&d, verbose);
	if (st.up_to_date && !quiet)
		fprintf(stderr,
			"up to date: %zu documents, %zu pages, %zu static files, %zu resources "
			"(%zu unsorted), %zu files, %zu warnings: nothing changed since the last "
			"build (%.0f ms)\n",
			st.docs, st.pages, st.statics, st.resources, st.unsorted, st.files,
			st.warnings, st.ms);
	else if (!quiet || rc) {
		char patched[64] = "";
		if (st.patched)
			snprintf(patched, sizeof patched, "; %zu page%s patched in place", st.patched,
				 st.patched == 1 ? "" : "s");
		fprintf(stderr,
			"%s: %zu documents, %zu pages, %zu static files, %zu resources "
			"(%zu unsorted), %zu files (%zu unchanged%s), %zu warnings, %zu errors "
			"in %.0f ms\n",
			rc ? "build failed" : "built", st.docs, st.pages, st.statics, st.resources,
			st.unsorted, st.files, st.unchanged, patched, st.warnings, st.errors, st.ms);
	}
	if (timings && st.patched)
		fprintf(stderr, "timings: patched in %.0f ms (%zu page%s, %zu of them resources' "
			"pages spliced without a model)\n", st.ms, st.patched,
			st.patched == 1 ? "" : "s", st.spliced);
	else if (timings)
		fprintf(stderr,
			"timings: check %.0f ms, read %.0f ms, model %.0f ms (%zu resources' "
			"names and classes kept, %zu documents' related documents kept), prepare "
			"%.0f ms, render %.0f ms (%zu pages, %zu resources.json records and %zu "
			"search index records kept by their inputs, %zu of %zu slices of its words "
			"kept, %zu list entries taken from the pages in place), write %.0f ms\n",
			st.check_ms, st.read_ms, st.model_ms, st.classes_kept, st.related_kept,
			st.prepare_ms, st.render_ms, st.views_skipped, st.records_kept[0],
			st.records_kept[1], st.word_slices_kept, st.word_slices, st.items_kept,
			st.write_ms);
	diags_free(&d);
	return rc ? 1 : 0;
}

