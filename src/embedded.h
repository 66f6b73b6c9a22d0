/* embedded: the default theme compiled into the binary (generated from
 * themes/default by scripts/embed.c at build time). Level 0. */
#ifndef SSG_EMBEDDED_H
#define SSG_EMBEDDED_H

struct embedded_file {
	const char *path;           /* relative to the theme root, e.g. "templates/page.mustache" */
	const unsigned char *data;  /* NUL-terminated */
	unsigned long len;
};

extern const struct embedded_file embedded_theme[];
extern const unsigned long embedded_theme_count;

#endif
