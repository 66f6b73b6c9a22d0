/* cmd_new: `ssg new site DIR` and `ssg new doc PATH`: scaffolding (see
 * scaffold.h). Existing files are never overwritten: each is an error. */
#include "check.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"
#include "scaffold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Today as YYYY-MM-DD (SOURCE_DATE_EPOCH when set, for reproducible tests). */
static void today(char out[11])
{
	time_t t = time(NULL);
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	if (sde && *sde) {
		char *end;
		long long v = strtoll(sde, &end, 10);
		if (!*end && v >= 0)
			t = (time_t)v;
	}
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(out, 11, "%Y-%m-%d", &tm))
		strcpy(out, "1970-01-01");
}

int cmd_new(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		cli_help("new", stdout);
		return 0;
	}
	if (argc != 3)
		return cmd_usage_error("new", "usage: ssg new site DIR | ssg new doc PATH");
	struct diags d = DIAGS_INIT;
	struct buf log = BUF_INIT;
	int rc;
	if (!strcmp(argv[1], "site"))
		rc = scaffold_site(argv[2], &d, &log);
	else if (!strcmp(argv[1], "doc")) {
		char date[11];
		today(date);
		rc = scaffold_doc(argv[2], date, &d, &log);
	} else {
		buf_free(&log);
		return cmd_usage_error("new", "what to create: 'site' or 'doc'");
	}
	fputs(buf_cstr(&log), stdout);
	buf_reset(&log);
	for (size_t i = 0; i < d.n; i++)
		check_format_diag(&d.v[i], CHECK_TEXT, NULL, &log);
	fputs(buf_cstr(&log), stderr);
	if (!rc && !strcmp(argv[1], "site"))
		printf("\nNext: cd %s && ssg serve   (preview), ssg check, ssg build\n", argv[2]);
	buf_free(&log);
	diags_free(&d);
	return rc ? 1 : 0;
}
