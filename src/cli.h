/* cli: the text of `ssg help` and each command's usage, shared by main.c
 * and the man page's test. Level 6. */
#ifndef SSG_CLI_H
#define SSG_CLI_H
#include <stdio.h>

#define SSG_VERSION "0.1.0"

/* Print help for a command (NULL: the overview). Returns -1 for an unknown one. */
int cli_help(const char *command, FILE *f);

#endif
