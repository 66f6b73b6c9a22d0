/* lazy_curl: libcurl, loaded when `ssg check --links` first needs it. The
 * curl_* functions linkcheck.c calls are defined here and forward to the
 * library, opened with dlopen on first use: `ssg build`, the common case,
 * does not pay for loading libcurl and the thirty libraries it pulls in.
 * When libcurl cannot be loaded, every call fails the way curl reports a
 * failure (NULL handles, CURLE_FAILED_INIT). Level 0. */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

static struct {
	void (*easy_cleanup)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	const char *(*easy_strerror)(CURLcode);
	void (*global_cleanup)(void);
	CURLcode (*global_init)(long);
	CURLMcode (*multi_add_handle)(CURLM *, CURL *);
	CURLMcode (*multi_cleanup)(CURLM *);
	CURLMsg *(*multi_info_read)(CURLM *, int *);
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_perform)(CURLM *, int *);
	CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
	CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
	int ok;
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	void *h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "ssg: cannot load libcurl: %s\n", dlerror());
		return;
	}
	int ok = 1;
#define GET(field, name) ok &= (*(void **)(&lib.field) = dlsym(h, name)) != NULL
	GET(easy_cleanup, "curl_easy_cleanup");
	GET(easy_getinfo, "curl_easy_getinfo");
	GET(easy_init, "curl_easy_init");
	GET(easy_setopt, "curl_easy_setopt");
	GET(easy_strerror, "curl_easy_strerror");
	GET(global_cleanup, "curl_global_cleanup");
	GET(global_init, "curl_global_init");
	GET(multi_add_handle, "curl_multi_add_handle");
	GET(multi_cleanup, "curl_multi_cleanup");
	GET(multi_info_read, "curl_multi_info_read");
	GET(multi_init, "curl_multi_init");
	GET(multi_perform, "curl_multi_perform");
	GET(multi_poll, "curl_multi_poll");
	GET(multi_remove_handle, "curl_multi_remove_handle");
#undef GET
	if (!ok)
		fprintf(stderr, "ssg: libcurl lacks a function ssg needs\n");
	lib.ok = ok;
}

static int ready(void)
{
	pthread_once(&once, load);
	return lib.ok;
}

CURLcode curl_global_init(long flags) { return ready() ? lib.global_init(flags) : CURLE_FAILED_INIT; }

void curl_global_cleanup(void)
{
	if (ready())
		lib.global_cleanup();
}

CURL *curl_easy_init(void) { return ready() ? lib.easy_init() : NULL; }

void curl_easy_cleanup(CURL *c)
{
	if (ready())
		lib.easy_cleanup(c);
}

/* One argument follows the option; its type is told by the option's range,
 * as libcurl itself reads it. */
CURLcode curl_easy_setopt(CURL *c, CURLoption option, ...)
{
	if (!ready())
		return CURLE_FAILED_INIT;
	va_list ap;
	va_start(ap, option);
	CURLcode rc;
	if (option < CURLOPTTYPE_OBJECTPOINT)
		rc = lib.easy_setopt(c, option, va_arg(ap, long));
	else if (option < CURLOPTTYPE_OFF_T)
		rc = lib.easy_setopt(c, option, va_arg(ap, void *)); /* objects and functions */
	else if (option < CURLOPTTYPE_BLOB)
		rc = lib.easy_setopt(c, option, va_arg(ap, curl_off_t));
	else
		rc = lib.easy_setopt(c, option, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

CURLcode curl_easy_getinfo(CURL *c, CURLINFO info, ...)
{
	if (!ready())
		return CURLE_FAILED_INIT;
	va_list ap;
	va_start(ap, info);
	CURLcode rc = lib.easy_getinfo(c, info, va_arg(ap, void *)); /* always a pointer */
	va_end(ap);
	return rc;
}

const char *curl_easy_strerror(CURLcode code)
{
	return ready() ? lib.easy_strerror(code) : "libcurl could not be loaded";
}

CURLM *curl_multi_init(void) { return ready() ? lib.multi_init() : NULL; }

CURLMcode curl_multi_cleanup(CURLM *m) { return ready() ? lib.multi_cleanup(m) : CURLM_BAD_HANDLE; }

CURLMcode curl_multi_add_handle(CURLM *m, CURL *c)
{
	return ready() ? lib.multi_add_handle(m, c) : CURLM_BAD_HANDLE;
}

CURLMcode curl_multi_remove_handle(CURLM *m, CURL *c)
{
	return ready() ? lib.multi_remove_handle(m, c) : CURLM_BAD_HANDLE;
}

CURLMcode curl_multi_perform(CURLM *m, int *running)
{
	return ready() ? lib.multi_perform(m, running) : CURLM_BAD_HANDLE;
}

CURLMcode curl_multi_poll(CURLM *m, struct curl_waitfd extra_fds[], unsigned int extra_nfds,
			  int timeout_ms, int *numfds)
{
	return ready() ? lib.multi_poll(m, extra_fds, extra_nfds, timeout_ms, numfds)
		       : CURLM_BAD_HANDLE;
}

CURLMsg *curl_multi_info_read(CURLM *m, int *left)
{
	return ready() ? lib.multi_info_read(m, left) : NULL;
}
