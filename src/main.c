/* main: the command line's entry point: picks the command and runs it. The
 * commands live in cmd_*.c (see commands.h). The only place that exits.
 * Level 6. */
#include "cli.h"
#include "commands.h"
#include "hugepages.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{"build", cmd_build},
	{"serve", cmd_serve},
	{"check", cmd_check},
	{"new", cmd_new},
};

int main(int argc, char **argv)
{
	if (argc < 2)
		return cmd_usage_error(NULL, "missing command");
	hugepages_init(argc, argv);
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("ssg %s\n", SSG_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		if (argc > 3)
			return cmd_usage_error("help", "help takes at most one command");
		if (cli_help(argc == 3 ? argv[2] : NULL, stdout))
			return cmd_usage_error(NULL, "no such command");
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	return cmd_usage_error(NULL, "unknown command");
}
