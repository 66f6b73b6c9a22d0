/* serve_dir: where `ssg serve` keeps its private site. The folder the user
 * named in TMPDIR; else memory, like `hugo server`: /dev/shm when it is a
 * tmpfs with room for the site many times over (a site's pages are about 15
 * times its content's bytes, and a big site on a disk costs seconds of
 * folder creation on the first edit); else /tmp. Level 1. */
#ifndef SSG_SERVE_DIR_H
#define SSG_SERVE_DIR_H

/* The folder to make the private one in, for the site whose content is in
 * content_dir (shm: "/dev/shm", or another for the tests). A new string. */
char *serve_dir_root(const char *content_dir, const char *tmpdir_env, const char *shm);

#endif
