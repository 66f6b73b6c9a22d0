/* serve: `ssg serve`, a local preview with live reload. Builds the site into
 * a private staging folder (never over public/), serves it with libmicrohttpd
 * (thread pool, GET and HEAD only, ETag/Last-Modified and 304, the site's
 * 404.html, index.html for folders, no listings, confined to the site root),
 * watches the sources (watch.h), rebuilds after a burst of changes and tells
 * open pages through Server-Sent Events (/__ssg/events) to reload, or to show
 * the build's errors in an overlay while the last good site stays served. An
 * edit build_patch can preview reloads its page once it is patched (the
 * event's data says "preview":true), and the pages the build that follows
 * changes once the site is whole: a page says which file it was served from
 * (its script's data-id), and one whose file a preview, or the build after
 * one, left as it was is not reloaded. The
 * reload script is injected into HTML responses here, never into the files.
 * The only module that includes microhttpd.h. Level 6. */
#ifndef SSG_SERVE_H
#define SSG_SERVE_H
#include <stdbool.h>
#include <stddef.h>

#include "site.h"

struct serve_opts {
	struct build_opts build; /* source, drafts, jobs; output and base_url are serve's */
	const char *bind;        /* address to listen on; NULL: 127.0.0.1 */
	unsigned port;           /* 0: any free port */
	int threads;             /* HTTP thread pool size; 0: from the processor count */
	int quiet_ms;            /* debounce: rebuild after this long without changes; 0: 80
				  * (10 once the last change ended a save: watch_done) */
	bool quiet;              /* print only errors and the URL */
};

/* Build, serve and watch until SIGINT or SIGTERM, then stop cleanly (the
 * staging folder is removed). Prints `Serving at http://ADDR:PORT/` on stdout
 * once the first build is done (successful or not). Returns the exit status:
 * 0 after a signal, 1 when the server cannot start (a message on stderr). */
int serve_run(const struct serve_opts *o);

/* --- pure helpers, exposed for tests ---------------------------------- */

/* The Content-Type for a file name, by its extension (never NULL). */
const char *serve_mime_type(const char *path);
/* Check a decoded request path and turn it into a path relative to the site
 * root: "" for the root, "a/b/" style with the trailing slash kept. Returns
 * NULL for anything that could leave the root or is malformed (not starting
 * with '/', "." or ".." components, backslashes, control bytes, which is also
 * how serve marks %00 and %2f). The caller frees. */
char *serve_rel_path(const char *url);
/* A copy of html with `tag` inserted before the last </body> (any case), or
 * appended when there is none. *outn gets the length; the caller frees. */
char *serve_inject(const char *html, size_t n, const char *tag, size_t *outn);

#endif
