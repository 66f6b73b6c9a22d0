/* lazy_mhd: libmicrohttpd, loaded when `ssg serve` starts. The MHD_*
 * functions serve.c calls are defined here and forward to the library,
 * opened with dlopen on first use, so other commands do not load it and the
 * TLS libraries it pulls in. When it cannot be loaded, the daemon does not
 * start (NULL) and every other call fails. Level 0. */
#include <dlfcn.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

static struct {
	enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
	struct MHD_Response *(*from_buffer)(size_t, void *, enum MHD_ResponseMemoryMode);
	struct MHD_Response *(*from_callback)(uint64_t, size_t, MHD_ContentReaderCallback, void *,
					      MHD_ContentReaderFreeCallback);
	struct MHD_Response *(*from_fd64)(uint64_t, int);
	void (*destroy_response)(struct MHD_Response *);
	const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *, enum MHD_DaemonInfoType,
						       ...);
	const char *(*lookup_connection_value)(struct MHD_Connection *, enum MHD_ValueKind,
					       const char *);
	enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
	void (*resume_connection)(struct MHD_Connection *);
	struct MHD_Daemon *(*start_daemon_va)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
					      MHD_AccessHandlerCallback, void *, va_list);
	void (*stop_daemon)(struct MHD_Daemon *);
	void (*suspend_connection)(struct MHD_Connection *);
	int ok;
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	void *h = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "ssg: cannot load libmicrohttpd: %s\n", dlerror());
		return;
	}
	int ok = 1;
#define GET(field, name) ok &= (*(void **)(&lib.field) = dlsym(h, name)) != NULL
	GET(add_response_header, "MHD_add_response_header");
	GET(from_buffer, "MHD_create_response_from_buffer");
	GET(from_callback, "MHD_create_response_from_callback");
	GET(from_fd64, "MHD_create_response_from_fd64");
	GET(destroy_response, "MHD_destroy_response");
	GET(get_daemon_info, "MHD_get_daemon_info");
	GET(lookup_connection_value, "MHD_lookup_connection_value");
	GET(queue_response, "MHD_queue_response");
	GET(resume_connection, "MHD_resume_connection");
	GET(start_daemon_va, "MHD_start_daemon_va");
	GET(stop_daemon, "MHD_stop_daemon");
	GET(suspend_connection, "MHD_suspend_connection");
#undef GET
	if (!ok)
		fprintf(stderr, "ssg: libmicrohttpd lacks a function ssg needs\n");
	lib.ok = ok;
}

static int ready(void)
{
	pthread_once(&once, load);
	return lib.ok;
}

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc,
				    void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
	if (!ready())
		return NULL;
	va_list ap;
	va_start(ap, dh_cls);
	struct MHD_Daemon *d = lib.start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, ap);
	va_end(ap);
	return d;
}

void MHD_stop_daemon(struct MHD_Daemon *d)
{
	if (ready())
		lib.stop_daemon(d);
}

/* The info types serve asks for take no further argument. */
const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *d,
						enum MHD_DaemonInfoType info_type, ...)
{
	return ready() ? lib.get_daemon_info(d, info_type) : NULL;
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer,
						     enum MHD_ResponseMemoryMode mode)
{
	return ready() ? lib.from_buffer(size, buffer, mode) : NULL;
}

struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block_size,
						       MHD_ContentReaderCallback crc, void *crc_cls,
						       MHD_ContentReaderFreeCallback crfc)
{
	return ready() ? lib.from_callback(size, block_size, crc, crc_cls, crfc) : NULL;
}

struct MHD_Response *MHD_create_response_from_fd64(uint64_t size, int fd)
{
	return ready() ? lib.from_fd64(size, fd) : NULL;
}

void MHD_destroy_response(struct MHD_Response *r)
{
	if (ready())
		lib.destroy_response(r);
}

enum MHD_Result MHD_add_response_header(struct MHD_Response *r, const char *header,
					const char *content)
{
	return ready() ? lib.add_response_header(r, header, content) : MHD_NO;
}

const char *MHD_lookup_connection_value(struct MHD_Connection *c, enum MHD_ValueKind kind,
					const char *key)
{
	return ready() ? lib.lookup_connection_value(c, kind, key) : NULL;
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *c, unsigned int status_code,
				   struct MHD_Response *r)
{
	return ready() ? lib.queue_response(c, status_code, r) : MHD_NO;
}

void MHD_suspend_connection(struct MHD_Connection *c)
{
	if (ready())
		lib.suspend_connection(c);
}

void MHD_resume_connection(struct MHD_Connection *c)
{
	if (ready())
		lib.resume_connection(c);
}
