/*
 * srcfile.c - opens a source file named by a profile, trying the name
 * itself and then each include directory prefixed to it (plain
 * concatenation, as callgrind_annotate does, so that a directory also
 * re-roots absolute names).  Only regular files are read: a FIFO, a
 * device, a directory, a socket or a file of /proc or /sys is refused
 * without being read, and the open never blocks.
 */
#include "compat.h"

#include <sys/stat.h>
#include <sys/vfs.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "srcfile.h"
#include "xmalloc.h"

#define PROC_MAGIC	0x9fa0
#define SYSFS_MAGIC	0x62656572

static enum srcfile_result srcfile_open(const char *, struct srcfile *);

/* Open and read path if it is a regular file. */
static enum srcfile_result
srcfile_open(const char *path, struct srcfile *sf)
{
	struct stat	 st;
	struct statfs	 fs;
	size_t		 cap;
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return SRCFILE_MISSING;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    (fstatfs(fd, &fs) == 0 && (fs.f_type == PROC_MAGIC ||
	    fs.f_type == SYSFS_MAGIC))) {
		close(fd);
		return SRCFILE_NOT_REGULAR;
	}
	cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
	sf->data = xmalloc(cap);
	sf->len = 0;
	for (;;) {
		if (sf->len == cap) {
			cap *= 2;
			sf->data = xreallocarray(sf->data, cap, 1);
		}
		n = read(fd, sf->data + sf->len, cap - sf->len);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(sf->data);
			sf->data = NULL;
			close(fd);
			return SRCFILE_MISSING;
		}
		sf->len += (size_t)n;
	}
	close(fd);
	sf->mtime = st.st_mtime;
	sf->path = xstrdup(path);
	return SRCFILE_OK;
}

/*
 * Find name as itself or under one of the ndirs include directories
 * (each ending in "/"); with only_check, do not keep the contents.
 * Return SRCFILE_NOT_REGULAR only if some candidate exists but none is
 * a regular file.
 */
enum srcfile_result
srcfile_find(const char *name, char **dirs, size_t ndirs, int only_check,
    struct srcfile *sf)
{
	enum srcfile_result	 r, worst = SRCFILE_MISSING;
	size_t			 dlen, nlen = strlen(name);
	char			*path;
	int			 d;

	memset(sf, 0, sizeof(*sf));
	for (d = -1; d < (int)ndirs; d++) {
		if (d < 0)
			path = xstrdup(name);
		else {
			dlen = strlen(dirs[d]);
			path = xmalloc(dlen + nlen + 1);
			memcpy(path, dirs[d], dlen);
			memcpy(path + dlen, name, nlen + 1);
		}
		r = srcfile_open(path, sf);
		free(path);
		if (r == SRCFILE_OK) {
			sf->dir = d;
			if (only_check)
				srcfile_free(sf);
			return r;
		}
		if (r == SRCFILE_NOT_REGULAR)
			worst = r;
	}
	return worst;
}

/* Free what a found source file holds. */
void
srcfile_free(struct srcfile *sf)
{
	free(sf->path);
	free(sf->data);
	sf->path = sf->data = NULL;
}
