/* commands: one function per ssg command, each in its own cmd_*.c file. Each
 * takes the command's own argv (argv[0] is the command name) and returns the
 * exit status: 0 ok, 1 content or configuration errors, 2 usage errors.
 * Level 6. */
#ifndef SSG_COMMANDS_H
#define SSG_COMMANDS_H

int cmd_build(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_new(int argc, char **argv);

/* For the commands: report a usage error and return 2. */
int cmd_usage_error(const char *cmd, const char *msg);

#endif
