/* serve_dir: choosing the folder of `ssg serve`'s private site (see serve_dir.h). */
#include "serve_dir.h"
#include "xalloc.h"

#include <ftw.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

#define TMPFS_MAGIC_NUMBER 0x01021994
/* room asked of memory: this many times the content's bytes, and a margin */
#define ROOM_PER_CONTENT_BYTE 32
#define ROOM_MARGIN (256ULL << 20)

static unsigned long long content_bytes;

static int add_size(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)path;
	(void)f;
	if (type == FTW_F)
		content_bytes += (unsigned long long)st->st_size;
	return 0;
}

char *serve_dir_root(const char *content_dir, const char *tmpdir_env, const char *shm)
{
	if (tmpdir_env && *tmpdir_env)
		return xstrdup(tmpdir_env);
	struct statfs fs;
	struct statvfs vfs;
	if (shm && statfs(shm, &fs) == 0 && fs.f_type == TMPFS_MAGIC_NUMBER &&
	    statvfs(shm, &vfs) == 0) {
		content_bytes = 0;
		nftw(content_dir, add_size, 16, FTW_PHYS);
		unsigned long long room = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
		if (room / ROOM_PER_CONTENT_BYTE > content_bytes + ROOM_MARGIN / ROOM_PER_CONTENT_BYTE)
			return xstrdup(shm);
	}
	return xstrdup("/tmp");
}
