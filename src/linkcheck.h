/* linkcheck: external link health for `ssg check --links`. Checks the
 * canonical URL of every http(s) resource with libcurl's multi interface
 * (bounded concurrency overall and per host, HEAD falling back to GET,
 * redirects followed one hop at a time so permanent and temporary ones can be
 * told apart, 429 + Retry-After honoured without blocking other transfers,
 * timeouts), keeps the results in a cache file with a time-to-live, and turns
 * them into diagnostics at each resource's first citation. The cache reader
 * (linkcheck_load_cache, linkcache_find, linkcache_describe) is also what the
 * resource pages use to show the last known status. No global state; calls
 * curl_global_init/cleanup itself, so call it from one thread at a time (the
 * check command's main thread). Level 5. */
#ifndef SSG_LINKCHECK_H
#define SSG_LINKCHECK_H
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "diag.h"
#include "model.h"

/* The cache file, relative to the site folder. */
#define LINKCHECK_CACHE_DEFAULT ".ssg-cache/links.tsv"
#define LINKCHECK_TTL_DEFAULT 86400L  /* seconds: a day */
#define LINKCHECK_TIMEOUT_DEFAULT 20L /* seconds per request, whole transfer */
#define LINKCHECK_CONNECT_TIMEOUT 10L /* seconds to connect (at most the above) */
#define LINKCHECK_MAX_TOTAL 16        /* transfers at once */
#define LINKCHECK_MAX_PER_HOST 2      /* transfers at once to one host */
#define LINKCHECK_MAX_REDIRECTS 10
#define LINKCHECK_MAX_RETRIES 3       /* retries of one URL after a 429 */
#define LINKCHECK_MAX_WAIT 30L        /* seconds waited for 429s, per URL */

/* What a check found. */
enum link_result {
	LINK_OK,         /* 2xx, directly or through redirects to the same
			  * canonical URL (http -> https, a trailing slash) */
	LINK_MOVED,      /* permanent redirect(s) (301/308): final_url is where
			  * they lead (the address to link, or alias, instead) */
	LINK_REDIRECTED, /* a temporary redirect (302/303/307) on the way to a 2xx:
			  * final_url is where the redirects ended */
	LINK_BROKEN,     /* 4xx/5xx (status), too many redirects, or a redirect
			  * that is not http(s); final_url set when redirects led
			  * there */
	LINK_TIMEOUT,    /* no complete answer within the timeout */
	LINK_ERROR,      /* no answer: DNS, connection, TLS... (detail says) */
	LINK_RATE_LIMITED, /* still 429 after the retries: unknown; never cached */
};

/* One URL's last known status: one line of the cache file. */
struct linkcache_entry {
	char *url;             /* the canonical URL (the key) */
	enum link_result result;
	int status;            /* HTTP status of the last answer; 0 when none */
	char *final_url;       /* see enum link_result; NULL when none */
	char broken_since[11]; /* "YYYY-MM-DD" (UTC) of the first check that found
				* it broken (BROKEN, TIMEOUT, ERROR); "" otherwise */
	long long checked_at;  /* epoch seconds of the check */
	char *detail;          /* libcurl's error message, or NULL */
};

/* The cache: entries sorted by url, one per url. */
struct linkcache {
	struct linkcache_entry *v;
	size_t n, cap;
};

#define LINKCACHE_INIT {NULL, 0, 0}

/* Read a cache file into c (which must be LINKCACHE_INIT or freed). Returns 0,
 * or -1 with errno set when the file cannot be opened (c is then empty: a
 * missing cache is normal). Lines that do not parse are skipped; when a URL
 * appears twice the later check wins. The file format (TSV, UTF-8, '\n'):
 *   # comment lines
 *   URL  STATUS  FINAL  BROKEN-SINCE  CHECKED-AT  RESULT  DETAIL
 * URL canonical; STATUS the HTTP status, 0 for none; FINAL the final URL or
 * "-"; BROKEN-SINCE YYYY-MM-DD or "-"; CHECKED-AT epoch seconds; RESULT one of
 * ok moved redirected broken timeout error; DETAIL text without tabs, or "-".
 * Lines are sorted by URL. */
int linkcheck_load_cache(const char *file, struct linkcache *c);
/* Write c to file atomically (a temporary file beside it, then rename), making
 * its folder when missing. 0, or -1 with errno set. */
int linkcheck_save_cache(const char *file, const struct linkcache *c);
/* The entry for a canonical URL; NULL when none. O(log n). */
const struct linkcache_entry *linkcache_find(const struct linkcache *c, const char *url);
/* Insert or replace (takes a deep copy of e). Keeps c sorted. */
void linkcache_put(struct linkcache *c, const struct linkcache_entry *e);
void linkcache_free(struct linkcache *c);
void linkcache_entry_free(struct linkcache_entry *e);

/* "ok", "moved", "redirected", "broken", "timeout", "error", "rate-limited". */
const char *linkcheck_result_name(enum link_result r);
/* A short English status for a resource page, as a new string:
 *   "ok"; "moved to URL"; "redirected to URL"; "broken since DATE (HTTP 404)";
 *   "broken since DATE (timeout)"; "broken since DATE (ERROR DETAIL)";
 *   "unknown (rate-limited)". */
char *linkcache_describe(const struct linkcache_entry *e);

/* Options of a run. */
struct linkcheck_opts {
	const char *cache_file;     /* NULL: no cache read or written */
	long ttl;                   /* seconds a cached result stays fresh */
	long timeout;               /* seconds per request (connect: at most
				     * LINKCHECK_CONNECT_TIMEOUT) */
	const char *const *exclude; /* url_match_pattern patterns (host[/path],
				     * '*' globs): matching URLs are skipped */
	size_t nexclude;
	int max_total, max_per_host; /* 0: the defaults */
	long max_wait;              /* 0: LINKCHECK_MAX_WAIT */
	time_t now;                 /* 0: the current time */
};

/* What a run did, for the summary. */
struct linkcheck_stats {
	size_t urls;       /* http(s) resources considered */
	size_t excluded;
	size_t cached;     /* fresh in the cache: not requested */
	size_t checked;    /* requested now */
	size_t requests;   /* HTTP requests sent (hops, fallbacks, retries) */
};

/* Check the URLs (canonical, as keys) by requesting request[i] (the same URL,
 * possibly with the scheme a citation wrote: http). Fills out[i] (which the
 * caller frees with linkcache_entry_free); broken_since is left "" (the caller
 * knows the history). Blocks until every URL is done. Adds to st->requests
 * when st is not NULL. */
void linkcheck_urls(const char *const *canonical, const char *const *request, size_t n,
		    const struct linkcheck_opts *o, struct linkcache_entry *out,
		    struct linkcheck_stats *st);

/* Check every resource of s whose canonical URL is http(s) and not excluded:
 * fresh cache entries are reused, the others requested; the cache is then
 * written back (entries of URLs the site no longer cites are dropped). One
 * finding per resource that is not OK, at its first citation:
 *   link-broken    warning: 4xx/5xx, connection and TLS errors, too many redirects
 *   link-timeout   warning: no answer within the timeout
 *   link-redirect  warning for a permanent redirect (suggests the new URL as an
 *                  alias in site.yml), note for a temporary one
 *   link-rate-limited  note: still 429 after the retries
 * A cache that cannot be written is a warning (link-cache). Returns 0. */
int linkcheck_site(const struct site *s, const struct linkcheck_opts *o, struct diags *d,
		   struct linkcheck_stats *st);

/* The URL to request for a canonical URL: the canonical one, but with the
 * scheme "http" when `written` (a citation's URL as written) uses http. New
 * string. */
char *linkcheck_request_url(const char *canonical, const char *written);

#endif
