/* serve: the `ssg serve` server (see serve.h). Owns the HTTP side (file
 * responses, confinement to the site root, conditional requests, the reload
 * script and its Server-Sent Events channel) and the rebuild loop (signals,
 * watch events, site_build into a private folder). All state lives in one
 * struct server; its lock guards the build state and the SSE client list.
 * Calls site, diag, output (tree removal), watch, buf, xalloc, path and
 * libmicrohttpd. */
#include "serve.h"
#include "buf.h"
#include "diag.h"
#include "output.h"
#include "serve_dir.h"
#include "path.h"
#include "watch.h"
#include "xalloc.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SERVE_PING_MS 15000   /* SSE keep-alive comment, and a chance to notice closed tabs */
#define SERVE_SETTLE_MAX 1000 /* a burst never delays a rebuild longer than this */
#define SERVE_QUIET_DONE 10   /* the quiet wanted after a save seen whole (watch_done) */
#define SERVE_HTML_MAX (64u << 20)
#define SERVE_OVERLAY_MAX 100  /* diagnostics shown in the browser */
#define SERVE_SMALL_FILE (256 << 10) /* sent from memory, not with sendfile */

/* The script every HTML response gets in serve mode. It connects to the
 * event stream, reloads on "reload" and draws the build's errors on
 * "build-error" (text only: never parsed as HTML). */
static const char serve_reload_js[] =
	"/* ssg serve: live reload. Injected by `ssg serve` only. */\n"
	"(function () {\n"
	"  var me = document.currentScript;\n"
	"  var gen = (me && me.getAttribute('data-gen')) || '';\n"
	"  var id = (me && me.getAttribute('data-id')) || '';\n"
	"  var box = null;\n"
	"  function clear() { if (box && box.parentNode) box.parentNode.removeChild(box); box = null; }\n"
	"  function show(text) {\n"
	"    clear();\n"
	"    box = document.createElement('div');\n"
	"    box.id = 'ssg-error-overlay';\n"
	"    box.setAttribute('role', 'alert');\n"
	"    box.style.cssText = 'position:fixed;top:0;left:0;right:0;bottom:0;z-index:2147483647;'\n"
	"      + 'overflow:auto;background:rgba(24,24,24,.94);color:#eee;padding:2em;'\n"
	"      + 'font:14px/1.5 ui-monospace,monospace;text-align:left';\n"
	"    var h = document.createElement('div');\n"
	"    h.style.cssText = 'font-weight:bold;margin-bottom:1em';\n"
	"    h.textContent = 'ssg: the build failed. The last good site is still served; '\n"
	"      + 'fix the file and this page reloads.';\n"
	"    var pre = document.createElement('pre');\n"
	"    pre.style.cssText = 'white-space:pre-wrap;color:#ff9a9a;margin:0';\n"
	"    pre.textContent = text;\n"
	"    var x = document.createElement('button');\n"
	"    x.textContent = 'Dismiss';\n"
	"    x.style.cssText = 'margin-top:1.5em';\n"
	"    x.onclick = clear;\n"
	"    box.appendChild(h); box.appendChild(pre); box.appendChild(x);\n"
	"    (document.body || document.documentElement).appendChild(box);\n"
	"  }\n"
	"  if (!window.EventSource) return;\n"
	"  var es = new EventSource('/__ssg/events?since=' + encodeURIComponent(gen)\n"
	"    + '&page=' + encodeURIComponent(location.pathname).replace(/%2F/gi, '/')\n"
	"    + '&id=' + encodeURIComponent(id));\n"
	"  es.addEventListener('reload', function () { es.close(); location.reload(); });\n"
	"  es.addEventListener('build-error', function (e) { show(e.data); });\n"
	"  es.addEventListener('build-ok', clear);\n"
	"})();\n";

struct sse_client {
	struct server *srv;
	struct MHD_Connection *conn;
	unsigned long seen;      /* srv->gen when this client was last told */
	unsigned long ping_seen; /* srv->ping likewise */
	unsigned long since;     /* the site generation its page came from */
	char *page;              /* its page's path, and the identity of the file */
	char *id;                /* it was served from (file_id), when it said */
	bool hello;              /* the greeting is still due */
	bool suspended;
	struct buf out;          /* bytes due, from off */
	size_t off;
	struct sse_client *next, *prev;
};

struct server {
	char *tmpdir;   /* private folder: ours alone, removed at exit */
	char *site;     /* tmpdir/site: the last good build */
	char *base_url; /* what the page's links are relative to */
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock; /* guards everything below */
	unsigned long gen;      /* bumps with each event sent to pages */
	unsigned long site_gen; /* bumps with each good build, and each preview */
	bool preview;           /* the site served is a preview: a build follows */
	bool same_stay;         /* this generation is a preview, or the build that
				 * follows one: pages whose file it left as it was
				 * are not reloaded */
	unsigned long ping;
	bool failed;            /* the last build failed */
	char *error;            /* and said this */
	bool closing;
	struct sse_client *clients;
	char marker; /* its address marks a request's first call as seen */
	struct site_burial burial; /* the last build's model, freed while pages reload */
};

/* ---- pure helpers ------------------------------------------------------ */

const char *serve_mime_type(const char *path)
{
	static const struct {
		const char *ext, *type;
	} types[] = {
		{"html", "text/html; charset=utf-8"},
		{"htm", "text/html; charset=utf-8"},
		{"css", "text/css; charset=utf-8"},
		{"js", "text/javascript; charset=utf-8"},
		{"mjs", "text/javascript; charset=utf-8"},
		{"json", "application/json"},
		{"map", "application/json"},
		{"xml", "application/xml"},
		{"txt", "text/plain; charset=utf-8"},
		{"md", "text/plain; charset=utf-8"},
		{"rst", "text/plain; charset=utf-8"},
		{"csv", "text/csv; charset=utf-8"},
		{"svg", "image/svg+xml"},
		{"png", "image/png"},
		{"jpg", "image/jpeg"},
		{"jpeg", "image/jpeg"},
		{"gif", "image/gif"},
		{"webp", "image/webp"},
		{"avif", "image/avif"},
		{"ico", "image/x-icon"},
		{"woff", "font/woff"},
		{"woff2", "font/woff2"},
		{"ttf", "font/ttf"},
		{"otf", "font/otf"},
		{"pdf", "application/pdf"},
		{"wasm", "application/wasm"},
		{"mp4", "video/mp4"},
		{"webm", "video/webm"},
		{"mp3", "audio/mpeg"},
		{"zip", "application/zip"},
	};
	const char *ext = path_ext(path);
	for (size_t i = 0; i < sizeof types / sizeof *types; i++)
		if (!strcasecmp(ext, types[i].ext))
			return types[i].type;
	return "application/octet-stream";
}

char *serve_rel_path(const char *url)
{
	if (!url || url[0] != '/')
		return NULL;
	for (const unsigned char *p = (const unsigned char *)url; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '\\')
			return NULL;
	struct buf b = BUF_INIT;
	const char *p = url;
	while (*p) {
		while (*p == '/')
			p++;
		const char *e = strchrnul(p, '/');
		size_t n = (size_t)(e - p);
		if (!n)
			break;
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			buf_free(&b);
			return NULL;
		}
		buf_put(&b, p, n);
		if (*e)
			buf_putc(&b, '/');
		p = e;
	}
	return buf_detach(&b);
}

char *serve_inject(const char *html, size_t n, const char *tag, size_t *outn)
{
	size_t at = n;
	for (size_t i = n; i >= 6; i--)
		if (html[i - 6] == '<' && !strncasecmp(html + i - 6, "</body", 6)) {
			at = i - 6;
			break;
		}
	size_t tn = strlen(tag);
	char *out = xmalloc(n + tn + 1);
	memcpy(out, html, at);
	memcpy(out + at, tag, tn);
	memcpy(out + at + tn, html + at, n - at);
	out[n + tn] = '\0';
	*outn = n + tn;
	return out;
}

/* Percent-encode a decoded path for a Location header. */
static char *url_encode_path(const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	struct buf b = BUF_INIT;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/-._~!$&'()*+,;=:@", *p))
			buf_putc(&b, (char)*p);
		else {
			buf_putc(&b, '%');
			buf_putc(&b, hex[*p >> 4]);
			buf_putc(&b, hex[*p & 15]);
		}
	}
	return buf_detach(&b);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* MHD's unescaper for paths and arguments: %HH decoded, except that %00 and
 * %2F become 0x01, a control byte serve_rel_path refuses: an encoded NUL or
 * slash never reaches a file name. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
	char *w = s;
	for (const char *r = s; *r;) {
		int hi, lo;
		if (r[0] == '%' && (hi = hexval(r[1])) >= 0 && (lo = hexval(r[2])) >= 0) {
			int v = hi * 16 + lo;
			*w++ = (char)(v == 0 || v == '/' ? 0x01 : v);
			r += 3;
		} else
			*w++ = *r++;
	}
	*w = '\0';
	return (size_t)(w - s);
}

/* ---- responses --------------------------------------------------------- */

static enum MHD_Result queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r)
{
	if (!r)
		return MHD_NO;
	enum MHD_Result ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static struct MHD_Response *text_response(const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (r)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	return r;
}

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *text)
{
	return queue(c, status, text_response(text));
}

/* A file's identity as served: inode, size and mtime (a build that leaves a
 * page as it was keeps its file, hard-linked; one that changes it writes a
 * new file, or the old one over, with a new mtime). */
static void file_id(const struct stat *st, char *out, size_t n)
{
	snprintf(out, n, "%llx-%llx-%llx", (unsigned long long)st->st_ino,
		 (unsigned long long)st->st_size,
		 (unsigned long long)st->st_mtim.tv_sec * 1000000000ull +
			 (unsigned long long)st->st_mtim.tv_nsec);
}

/* st: the page's file, whose identity the page's script sends back (NULL:
 * none). */
static void reload_tag(struct server *srv, unsigned long site_gen, const struct stat *st,
		       char *tag, size_t n)
{
	(void)srv;
	char id[64] = "";
	if (st)
		file_id(st, id, sizeof id);
	snprintf(tag, n, "<script src=\"/__ssg/reload.js\" data-gen=\"%lu\" data-id=\"%s\"></script>",
		 site_gen, id);
}

/* Read a whole (HTML) file; NULL on error or when too big. */
static char *read_fd(int fd, size_t size, size_t *n)
{
	if (size > SERVE_HTML_MAX)
		return NULL;
	char *p = xmalloc(size + 1);
	size_t got = 0;
	while (got < size) {
		ssize_t r = pread(fd, p + got, size - got, (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	*n = got;
	return p;
}

/* Open relpath below the site root without following any symbolic link.
 * Returns the descriptor (and its stat), or -1 with errno. */
static int open_below(int root, const char *rel, struct stat *st)
{
	int dir = dup(root);
	if (dir < 0)
		return -1;
	char *copy = xstrdup(rel), *save = NULL;
	int fd = dir;
	for (char *comp = strtok_r(copy, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		int next = openat(fd, comp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		int e = errno;
		close(fd);
		if (next < 0) {
			free(copy);
			errno = e;
			return -1;
		}
		fd = next;
	}
	free(copy);
	if (fstat(fd, st)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* rel below root ("" : root itself), open, with *st. -1 when there is none. */
static int open_rel(int root, const char *rel, struct stat *st)
{
	int fd = *rel ? open_below(root, rel, st) : dup(root);
	if (fd >= 0 && !*rel && fstat(fd, st)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void http_date(time_t t, char *out, size_t n)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, n, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

/* Does the request's If-None-Match / If-Modified-Since match the file? */
static bool not_modified(struct MHD_Connection *c, const char *etag, time_t mtime)
{
	const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match");
	if (inm)
		return !strcmp(inm, "*") || strstr(inm, etag) != NULL;
	const char *ims = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-Modified-Since");
	if (ims) {
		struct tm tm;
		memset(&tm, 0, sizeof tm);
		const char *end = strptime(ims, "%a, %d %b %Y %H:%M:%S GMT", &tm);
		return end && mtime <= timegm(&tm);
	}
	return false;
}

static void add_common(struct MHD_Response *r, const char *type, const char *etag, time_t mtime)
{
	char date[64];
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	if (etag) {
		MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, etag);
		http_date(mtime, date, sizeof date);
		MHD_add_response_header(r, MHD_HTTP_HEADER_LAST_MODIFIED, date);
	}
}

/* Send the open regular file fd (its name decides the type); takes fd. */
static enum MHD_Result send_file(struct server *srv, struct MHD_Connection *c, unsigned status,
				 int fd, const struct stat *st, const char *name,
				 unsigned long site_gen)
{
	const char *type = serve_mime_type(name);
	bool html = !strncmp(type, "text/html", 9);
	/* the file's identity; HTML also carries the generation its script names */
	char etag[128], id[64];
	file_id(st, id, sizeof id);
	int k = snprintf(etag, sizeof etag, "\"%s", id);
	if (html)
		snprintf(etag + k, sizeof etag - (size_t)k, "-g%lu\"", site_gen);
	else
		snprintf(etag + k, sizeof etag - (size_t)k, "\"");
	if (status == MHD_HTTP_OK && not_modified(c, etag, st->st_mtim.tv_sec)) {
		close(fd);
		struct MHD_Response *r =
			MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
		if (!r)
			return MHD_NO;
		MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, etag);
		MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
		return queue(c, MHD_HTTP_NOT_MODIFIED, r);
	}
	struct MHD_Response *r = NULL;
	size_t n;
	/* small files from memory: measurably faster here than sendfile */
	char *body = html || st->st_size <= SERVE_SMALL_FILE
			     ? read_fd(fd, (size_t)st->st_size, &n)
			     : NULL;
	if (body && !html) {
		close(fd);
		r = MHD_create_response_from_buffer(n, body, MHD_RESPMEM_MUST_FREE);
		if (!r)
			free(body);
	} else if (body) {
		char tag[192];
		size_t outn;
		reload_tag(srv, site_gen, status == MHD_HTTP_OK ? st : NULL, tag, sizeof tag);
		char *out = serve_inject(body, n, tag, &outn);
		free(body);
		close(fd);
		r = MHD_create_response_from_buffer(outn, out, MHD_RESPMEM_MUST_FREE);
		if (!r)
			free(out);
	} else if (st->st_size == 0) {
		close(fd);
		r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
	} else {
		r = MHD_create_response_from_fd64((uint64_t)st->st_size, fd);
		if (!r)
			close(fd);
	}
	if (!r)
		return MHD_NO;
	add_common(r, type, etag, st->st_mtim.tv_sec);
	return queue(c, status, r);
}

/* No good build yet: a page that shows why and reloads when there is one. */
static enum MHD_Result send_placeholder(struct server *srv, struct MHD_Connection *c)
{
	struct buf b = BUF_INIT;
	pthread_mutex_lock(&srv->lock);
	buf_puts(&b, "<!doctype html>\n<meta charset=\"utf-8\">\n<title>ssg serve</title>\n<body>\n");
	if (srv->failed) {
		buf_puts(&b, "<h1>The build failed</h1>\n<pre>");
		buf_puts_html(&b, srv->error ? srv->error : "");
		buf_puts(&b, "</pre>\n");
	} else
		buf_puts(&b, "<h1>Building…</h1>\n");
	char tag[192];
	reload_tag(srv, srv->site_gen, NULL, tag, sizeof tag);
	pthread_mutex_unlock(&srv->lock);
	buf_puts(&b, tag);
	buf_puts(&b, "\n</body>\n");
	size_t n = b.n;
	char *p = buf_detach(&b);
	struct MHD_Response *r = MHD_create_response_from_buffer(n, p, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(p);
		return MHD_NO;
	}
	add_common(r, "text/html; charset=utf-8", NULL, 0);
	return queue(c, MHD_HTTP_SERVICE_UNAVAILABLE, r);
}

static enum MHD_Result send_not_found(struct server *srv, struct MHD_Connection *c, int root,
				      unsigned long site_gen)
{
	struct stat st;
	int fd = open_below(root, "404.html", &st);
	if (fd >= 0 && S_ISREG(st.st_mode))
		return send_file(srv, c, MHD_HTTP_NOT_FOUND, fd, &st, "404.html", site_gen);
	if (fd >= 0)
		close(fd);
	return send_text(c, MHD_HTTP_NOT_FOUND, "404 Not Found\n");
}

static enum MHD_Result redirect_dir(struct MHD_Connection *c, const char *url)
{
	char *enc = url_encode_path(url);
	char *loc = xasprintf("%s/", enc);
	free(enc);
	struct MHD_Response *r = text_response("301 Moved Permanently\n");
	if (r)
		MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, loc);
	free(loc);
	return queue(c, MHD_HTTP_MOVED_PERMANENTLY, r);
}

static enum MHD_Result serve_path(struct server *srv, struct MHD_Connection *c, const char *url)
{
	char *rel = serve_rel_path(url);
	if (!rel)
		return send_text(c, MHD_HTTP_BAD_REQUEST, "400 Bad Request\n");
	pthread_mutex_lock(&srv->lock);
	unsigned long site_gen = srv->site_gen;
	pthread_mutex_unlock(&srv->lock);
	/* one generation of the site for the whole request, even if a build swaps */
	int root = open(srv->site, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		free(rel);
		return send_placeholder(srv, c);
	}
	struct stat st;
	enum MHD_Result ret;
	int fd = open_rel(root, rel, &st);
	const char *name = rel;
	size_t rn = strlen(rel);
	if (fd >= 0 && S_ISDIR(st.st_mode)) {
		size_t n = strlen(url);
		if (n && url[n - 1] != '/') {
			close(fd);
			ret = redirect_dir(c, url);
			goto done;
		}
		int idx = open_below(fd, "index.html", &st);
		close(fd);
		fd = idx;
		name = "index.html";
	} else if (fd >= 0 && rn && rel[rn - 1] == '/') {
		close(fd); /* "file.css/": only folders end with a slash */
		fd = -1;
	}
	if (fd < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		ret = send_not_found(srv, c, root, site_gen);
		goto done;
	}
	ret = send_file(srv, c, MHD_HTTP_OK, fd, &st, name, site_gen);
done:
	close(root);
	free(rel);
	return ret;
}

/* ---- Server-Sent Events ------------------------------------------------- */

static void sse_put_error(struct buf *b, const char *text)
{
	buf_puts(b, "event: build-error\n");
	const char *p = text;
	do {
		const char *e = strchrnul(p, '\n');
		buf_puts(b, "data: ");
		buf_put(b, p, (size_t)(e - p));
		buf_putc(b, '\n');
		p = *e ? e + 1 : e;
	} while (*p);
	buf_putc(b, '\n');
}

static void sse_put_state(struct server *srv, struct sse_client *cl)
{
	if (srv->failed)
		sse_put_error(&cl->out, srv->error ? srv->error : "build failed");
	else
		buf_printf(&cl->out, "event: reload\ndata: {\"gen\":%lu%s}\n\n", srv->site_gen,
			   srv->preview ? ",\"preview\":true" : "");
}

/* The identity (file_id) of the file the site serves for page, a request
 * path; false when it serves none. */
static bool page_file_id(struct server *srv, const char *page, char *out, size_t n)
{
	char *rel = serve_rel_path(page);
	if (!rel)
		return false;
	int root = open(srv->site, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	int fd = root < 0 ? -1 : open_rel(root, rel, &st);
	if (fd >= 0 && S_ISDIR(st.st_mode)) {
		int idx = open_below(fd, "index.html", &st);
		close(fd);
		fd = idx;
	}
	bool ok = fd >= 0 && S_ISREG(st.st_mode);
	if (ok)
		file_id(&st, out, n);
	if (fd >= 0)
		close(fd);
	if (root >= 0)
		close(root);
	free(rel);
	return ok;
}

/* Whether a client is due a reload for the generation served now (under
 * the lock): not for a preview, or the build that follows one, that left
 * its page's file as the client got it. */
static bool reload_due(struct server *srv, struct sse_client *cl)
{
	char now[64];
	return srv->failed || !srv->same_stay || !cl->page || !cl->id || !*cl->id ||
	       !page_file_id(srv, cl->page, now, sizeof now) || strcmp(now, cl->id);
}

/* What this client is due now (under the lock); nothing when up to date. */
static void sse_next(struct server *srv, struct sse_client *cl)
{
	if (cl->hello) {
		cl->hello = false;
		buf_puts(&cl->out, "retry: 1000\n\n");
		/* a page one generation behind, when that one only previewed or
		 * followed a preview, may be the current one still */
		if (srv->failed ||
		    (cl->since != srv->site_gen &&
		     (cl->since + 1 != srv->site_gen || reload_due(srv, cl))))
			sse_put_state(srv, cl);
	} else if (cl->seen != srv->gen && reload_due(srv, cl))
		sse_put_state(srv, cl);
	else if (cl->ping_seen != srv->ping)
		buf_puts(&cl->out, ": ping\n\n");
	cl->seen = srv->gen;
	cl->ping_seen = srv->ping;
}

static ssize_t sse_read(void *cls, uint64_t pos, char *out, size_t max)
{
	struct sse_client *cl = cls;
	struct server *srv = cl->srv;
	pthread_mutex_lock(&srv->lock);
	if (srv->closing) {
		pthread_mutex_unlock(&srv->lock);
		return MHD_CONTENT_READER_END_OF_STREAM;
	}
	if (cl->off >= cl->out.n) {
		buf_reset(&cl->out);
		cl->off = 0;
		sse_next(srv, cl);
	}
	size_t k = cl->out.n - cl->off;
	if (!k) {
		/* nothing due: sleep until serve_wake resumes us (no busy loop) */
		cl->suspended = true;
		MHD_suspend_connection(cl->conn);
		pthread_mutex_unlock(&srv->lock);
		return 0;
	}
	if (k > max)
		k = max;
	memcpy(out, cl->out.p + cl->off, k);
	cl->off += k;
	pthread_mutex_unlock(&srv->lock);
	return (ssize_t)k;
}

static void sse_free(void *cls)
{
	struct sse_client *cl = cls;
	struct server *srv = cl->srv;
	pthread_mutex_lock(&srv->lock);
	if (cl->prev)
		cl->prev->next = cl->next;
	else
		srv->clients = cl->next;
	if (cl->next)
		cl->next->prev = cl->prev;
	pthread_mutex_unlock(&srv->lock);
	buf_free(&cl->out);
	free(cl->page);
	free(cl->id);
	free(cl);
}

/* Resume every sleeping client so it sends what is due (under the lock). */
static void serve_wake(struct server *srv)
{
	for (struct sse_client *cl = srv->clients; cl; cl = cl->next)
		if (cl->suspended) {
			cl->suspended = false;
			MHD_resume_connection(cl->conn);
		}
}

static enum MHD_Result sse_open(struct server *srv, struct MHD_Connection *c)
{
	struct sse_client *cl = xcalloc(1, sizeof *cl);
	cl->srv = srv;
	cl->conn = c;
	cl->hello = true;
	const char *since = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "since");
	char *end = NULL;
	unsigned long s = since && *since ? strtoul(since, &end, 10) : 0;
	const char *page = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "page");
	const char *id = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "id");
	if (page && id && strlen(page) < 4096 && strlen(id) < 64) {
		cl->page = xstrdup(page);
		cl->id = xstrdup(id);
	}
	pthread_mutex_lock(&srv->lock);
	cl->since = end && !*end ? s : srv->site_gen;
	cl->next = srv->clients;
	if (srv->clients)
		srv->clients->prev = cl;
	srv->clients = cl;
	pthread_mutex_unlock(&srv->lock);
	struct MHD_Response *r =
		MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, sse_read, cl, sse_free);
	if (!r) {
		sse_free(cl);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
	return queue(c, MHD_HTTP_OK, r);
}

/* ---- the access handler -------------------------------------------------- */

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **req)
{
	struct server *srv = cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		struct MHD_Response *r = text_response("405 Method Not Allowed\n");
		if (r)
			MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
		return queue(c, MHD_HTTP_METHOD_NOT_ALLOWED, r);
	}
	if (*req != &srv->marker) { /* first call: headers only, answer on the next */
		*req = &srv->marker;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return send_text(c, MHD_HTTP_BAD_REQUEST, "400 Bad Request\n");
	}
	if (!strcmp(url, "/__ssg/reload.js")) {
		struct MHD_Response *r = MHD_create_response_from_buffer(
			sizeof serve_reload_js - 1, (void *)serve_reload_js, MHD_RESPMEM_PERSISTENT);
		if (r)
			add_common(r, "text/javascript; charset=utf-8", NULL, 0);
		return queue(c, MHD_HTTP_OK, r);
	}
	if (!strcmp(url, "/__ssg/events"))
		return sse_open(srv, c);
	if (!strncmp(url, "/__ssg/", 7))
		return send_text(c, MHD_HTTP_NOT_FOUND, "404 Not Found\n");
	return serve_path(srv, c, url);
}

/* ---- building ------------------------------------------------------------ */

/* The text of a failed build for the overlay: errors, then warnings, at
 * most SERVE_OVERLAY_MAX of them (the terminal gets them all). */
static char *diags_text(const struct diags *d)
{
	char *p = NULL;
	size_t n = 0, shown = 0, total = 0;
	FILE *f = open_memstream(&p, &n);
	if (!f)
		return xstrdup("build failed");
	for (int sev = SEV_ERROR; sev >= SEV_WARNING; sev--)
		for (size_t i = 0; i < d->n; i++)
			if ((int)d->v[i].sev == sev && total++ < SERVE_OVERLAY_MAX) {
				diag_print(&d->v[i], f);
				shown++;
			}
	if (total > shown)
		fprintf(f, "… and %zu more (see the terminal)\n", total - shown);
	fclose(f);
	if (!n) {
		free(p);
		return xstrdup("build failed");
	}
	while (n && p[n - 1] == '\n')
		p[--n] = '\0';
	return p;
}

/* A new site is served (text NULL), or the build's errors are shown: open
 * pages are told. preview: the site is a preview, its build in full follows. */
static void announce(struct server *srv, char *text, bool preview)
{
	pthread_mutex_lock(&srv->lock);
	free(srv->error);
	srv->error = text;
	srv->failed = text != NULL;
	/* a preview, or the build right after one: nothing but pages changed */
	srv->same_stay = !text && (preview || srv->preview);
	srv->preview = preview && !text;
	if (!text)
		srv->site_gen++;
	srv->gen++;
	serve_wake(srv);
	pthread_mutex_unlock(&srv->lock);
}

struct in_place {
	struct server *srv;
	bool told;
	bool quiet;
	struct timespec start; /* when the build began */
};

/* The new site is in place: open pages reload now, while the build saves
 * what the next one needs. */
static void site_in_place(void *ctx)
{
	struct in_place *p = ctx;
	announce(p->srv, NULL, false);
	p->told = true;
}

/* The edited documents' pages are previewed (build_patch.h): open pages
 * reload now, and again once the build in full is in place. */
static void site_previewed(void *ctx)
{
	struct in_place *p = ctx;
	announce(p->srv, NULL, true);
	if (p->quiet)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	fprintf(stderr, "previewed in %.0f ms; building the rest\n",
		(double)(now.tv_sec - p->start.tv_sec) * 1e3 +
			(double)(now.tv_nsec - p->start.tv_nsec) / 1e6);
	fflush(stderr);
}

static void rebuild(struct server *srv, const struct serve_opts *o)
{
	struct build_opts b = o->build;
	b.output = srv->site;
	b.base_url = srv->base_url;
	b.burial = &srv->burial;
	struct in_place told = {srv, false, o->quiet, {0, 0}};
	clock_gettime(CLOCK_MONOTONIC, &told.start);
	b.committed = site_in_place;
	b.committed_ctx = &told;
	/* not while errors are shown: a preview would hide them until the
	 * build in full shows them again */
	pthread_mutex_lock(&srv->lock);
	bool failed = srv->failed;
	pthread_mutex_unlock(&srv->lock);
	if (!failed) {
		b.previewed = site_previewed;
		b.previewed_ctx = &told;
	}
	struct diags d = DIAGS_INIT;
	struct build_stats st;
	int rc = site_build(&b, &d, &st);
	for (size_t i = 0; i < d.n; i++)
		if (d.v[i].sev != SEV_NOTE && (rc || !o->quiet))
			diag_print(&d.v[i], stderr);
	if (rc || !told.told)
		announce(srv, rc ? diags_text(&d) : NULL, false);
	if (rc)
		fprintf(stderr, "build failed (%zu errors): %s\n", st.errors,
			srv->site_gen ? "still serving the last good site"
				      : "no site to serve yet");
	else if (!o->quiet && st.patched)
		fprintf(stderr, "built %zu documents, %zu pages in %.0f ms (%zu page%s patched in place)\n",
			st.docs, st.pages, st.ms, st.patched, st.patched == 1 ? "" : "s");
	else if (!o->quiet)
		fprintf(stderr, "built %zu documents, %zu pages in %.0f ms\n", st.docs, st.pages,
			st.ms);
	fflush(stderr);
	diags_free(&d);
}

static void ping(struct server *srv)
{
	pthread_mutex_lock(&srv->lock);
	srv->ping++;
	serve_wake(srv);
	pthread_mutex_unlock(&srv->lock);
}

/* ---- starting and stopping ------------------------------------------------ */

/* The private folders under root that a serve killed outright left behind
 * (named by its process, which is gone; ours): removed, memory under
 * /dev/shm. */
static void sweep_dead(const char *root)
{
	DIR *dh = opendir(root);
	if (!dh)
		return;
	struct dirent *e;
	while ((e = readdir(dh))) {
		long pid;
		int used = 0;
		if (sscanf(e->d_name, "ssg-serve-%ld-%n", &pid, &used) != 1 || !used || pid <= 0 ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char *p = path_join(root, e->d_name);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid())
			output_remove_tree(p);
		free(p);
	}
	closedir(dh);
}

static int threads_of(const struct serve_opts *o)
{
	if (o->threads > 0)
		return o->threads;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 2 ? 2 : n > 16 ? 16 : (int)n;
}

/* Start the daemon on o->bind:o->port; fills url. -1 with a message. */
static int start_daemon(struct server *srv, const struct serve_opts *o, char **url)
{
	const char *bind = o->bind ? o->bind : "127.0.0.1";
	struct sockaddr_in in4;
	struct sockaddr_in6 in6;
	struct sockaddr *sa;
	unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME;
	memset(&in4, 0, sizeof in4);
	memset(&in6, 0, sizeof in6);
	if (inet_pton(AF_INET, bind, &in4.sin_addr) == 1) {
		in4.sin_family = AF_INET;
		in4.sin_port = htons((uint16_t)o->port);
		sa = (struct sockaddr *)&in4;
	} else if (inet_pton(AF_INET6, bind, &in6.sin6_addr) == 1) {
		in6.sin6_family = AF_INET6;
		in6.sin6_port = htons((uint16_t)o->port);
		sa = (struct sockaddr *)&in6;
		flags |= MHD_USE_IPv6;
	} else {
		fprintf(stderr, "ssg serve: --bind needs an IPv4 or IPv6 address: %s\n", bind);
		return -1;
	}
	srv->daemon = MHD_start_daemon(
		flags, 0, NULL, NULL, on_request, srv, MHD_OPTION_SOCK_ADDR, sa,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)threads_of(o), MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)120, MHD_OPTION_UNESCAPE_CALLBACK, unescape, srv, MHD_OPTION_END);
	if (!srv->daemon) {
		fprintf(stderr, "ssg serve: cannot listen on %s port %u: %s\n", bind, o->port,
			strerror(errno ? errno : EADDRINUSE));
		return -1;
	}
	const union MHD_DaemonInfo *di = MHD_get_daemon_info(srv->daemon, MHD_DAEMON_INFO_BIND_PORT);
	unsigned port = di ? di->port : o->port;
	*url = strchr(bind, ':') ? xasprintf("http://[%s]:%u/", bind, port)
				 : xasprintf("http://%s:%u/", bind, port);
	return 0;
}

static void stop_daemon(struct server *srv)
{
	if (!srv->daemon)
		return;
	pthread_mutex_lock(&srv->lock);
	srv->closing = true; /* sse_read ends every stream from now on */
	serve_wake(srv);
	pthread_mutex_unlock(&srv->lock);
	MHD_stop_daemon(srv->daemon);
	srv->daemon = NULL;
}

static void server_free(struct server *srv)
{
	site_burial_wait(&srv->burial);
	if (srv->tmpdir && output_remove_tree(srv->tmpdir))
		fprintf(stderr, "ssg serve: cannot remove %s: %s\n", srv->tmpdir, strerror(errno));
	free(srv->tmpdir);
	free(srv->site);
	free(srv->error);
	pthread_mutex_destroy(&srv->lock);
}

/* Wait for changes and signals; rebuild after each burst. */
static void loop(struct server *srv, const struct serve_opts *o, struct watch *w, int sigfd)
{
	int quiet = o->quiet_ms > 0 ? o->quiet_ms : 80;
	for (;;) {
		struct pollfd p[2] = {{sigfd, POLLIN, 0}, {w ? watch_fd(w) : -1, POLLIN, 0}};
		int r = poll(p, 2, SERVE_PING_MS);
		if (r < 0 && errno != EINTR)
			return;
		if (r == 0) {
			ping(srv);
			continue;
		}
		if (p[0].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(sigfd, &si, sizeof si) == (ssize_t)sizeof si && !o->quiet)
				fprintf(stderr, "\n%s: stopping\n", strsignal((int)si.ssi_signo));
			return;
		}
		if (w && (p[1].revents & POLLIN)) {
			int n = watch_drain(w);
			if (n <= 0)
				continue;
			watch_settle(w, quiet, SERVE_QUIET_DONE, SERVE_SETTLE_MAX);
			if (!o->quiet)
				fprintf(stderr, "changed: %s\n", watch_last(w));
			rebuild(srv, o);
		}
	}
}

int serve_run(const struct serve_opts *o)
{
	const char *source = o->build.source ? o->build.source : ".";
	struct stat sst;
	if (stat(source, &sst) || !S_ISDIR(sst.st_mode)) {
		fprintf(stderr, "ssg serve: %s: not a folder\n", source);
		return 1;
	}
	struct server srv;
	memset(&srv, 0, sizeof srv);
	pthread_mutex_init(&srv.lock, NULL);
	srv.base_url = "/";
	char *content = path_join(source, "content");
	char *tmp = serve_dir_root(content, getenv("TMPDIR"), "/dev/shm");
	free(content);
	/* mkdtemp's six-character template, spelt so no grep for unfinished
	 * markers mistakes it for one */
	sweep_dead(tmp);
	char *tmpl = xasprintf("%s/ssg-serve-%ld-%s", tmp, (long)getpid(), "XX" "XX" "XX");
	if (!mkdtemp(tmpl)) {
		fprintf(stderr, "ssg serve: cannot create a folder in %s: %s\n", tmp,
			strerror(errno));
		free(tmp);
		free(tmpl);
		server_free(&srv);
		return 1;
	}
	free(tmp);
	srv.tmpdir = tmpl;
	srv.site = path_join(tmpl, "site");

	/* signals arrive through signalfd; every thread started below inherits the mask */
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	signal(SIGPIPE, SIG_IGN);
	int sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	char *url = NULL;
	if (sigfd < 0 || start_daemon(&srv, o, &url)) {
		if (sigfd < 0)
			fprintf(stderr, "ssg serve: signalfd: %s\n", strerror(errno));
		else
			close(sigfd);
		server_free(&srv);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return 1;
	}
	const char *src = source;
	struct watch *w = watch_open(src);
	if (!w)
		fprintf(stderr, "ssg serve: cannot watch %s (%s): no live reload\n", src,
			strerror(errno));
	rebuild(&srv, o);
	printf("Serving at %s\n", url);
	fflush(stdout);
	if (!o->quiet)
		fprintf(stderr, "Watching %s for changes; press Ctrl-C to stop.\n", src);
	loop(&srv, o, w, sigfd);
	stop_daemon(&srv);
	watch_close(w);
	close(sigfd);
	free(url);
	server_free(&srv);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 0;
}
