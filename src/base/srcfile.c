/*
 * srcfile.c - opens a source file named by a profile, trying the name
 * itself and then each include directory prefixed to it (plain
 * concatenation, as callgrind_annotate does, so that a directory also
 * re-roots absolute names).  Only regular files are read: a FIFO, a
 * device, a directory, a socket or a file of /proc, /sys (cgroups,
 * debugfs and the like included) is refused without being read; the
 * open never blocks nor takes a terminal, and what is checked is the
 * descriptor read, a file opened again for reading is the one checked.
 * A file is read line by line through a fixed buffer, skipping lines or
 * copying them to the output: any size, even a line of gigabytes, in
 * bounded memory.
 */
#include "base/compat.h"

#include <sys/stat.h>
#include <sys/vfs.h>

#include <linux/magic.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/srcfile.h"
#include "base/strtab.h"
#include "base/xmalloc.h"

#define SRCFILE_BUF	(64 * 1024)

/*
 * Which names srcfile_find() finds, each looked for once by whichever
 * thread asks first (the threads reading a profile ask about its files),
 * SRCFIND_LOOKS names at most: a profile naming more files (a hostile
 * one, made of names) would have reading open as many, where keeping
 * their lines costs little.
 */
#define SRCFIND_LOOKS	65536

struct srcfind {
	pthread_mutex_t	 lock;
	char		**dirs;
	size_t		 ndirs;
	struct strtab	*names;
	uint8_t		*state;		/* name id -> 0 not asked, 1 found,
					   2 not found */
	size_t		 cap;
	size_t		 looked;	/* names looked for */
};

/* A source file being read (srcfile_reader()). */
struct srcreader {
	int	 fd;
	char	*buf;
	size_t	 pos, len;	/* bytes used, bytes held */
	int	 eof;		/* read(2) said end of file, or failed */
};

static enum srcfile_result srcfile_check(const char *, struct srcfile *);
static int	srcfile_fill(struct srcreader *);

/*
 * Open path for reading as a file of data: without blocking (a FIFO),
 * without taking it as a controlling terminal, checked on the descriptor
 * itself.  Return the descriptor, its status in *st, and SRCFILE_OK in
 * *r; or -1 with *r SRCFILE_MISSING (cannot be opened) or
 * SRCFILE_NOT_REGULAR (a device, FIFO, directory, socket, or a file of
 * the kernel's: /proc, /sys, cgroups, debugfs, tracefs and their like).
 */
int
srcfile_open(const char *path, struct stat *st, enum srcfile_result *r)
{
	static const unsigned long kernel[] = { PROC_SUPER_MAGIC,
	    SYSFS_MAGIC, CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC,
	    DEBUGFS_MAGIC, TRACEFS_MAGIC, SECURITYFS_MAGIC, BPF_FS_MAGIC,
	    PSTOREFS_MAGIC, EFIVARFS_MAGIC, 0x62656570 /* configfs */ };
	struct statfs	 fs;
	size_t		 i;
	int		 fd;

	*r = SRCFILE_MISSING;
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) == -1)
		return -1;
	*r = SRCFILE_NOT_REGULAR;
	if (fstat(fd, st) == -1 || !S_ISREG(st->st_mode) ||
	    fstatfs(fd, &fs) == -1) {
		close(fd);
		return -1;
	}
	for (i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++)
		if ((unsigned long)fs.f_type == kernel[i]) {
			close(fd);
			return -1;
		}
	*r = SRCFILE_OK;
	return fd;
}

/* If path is a readable regular file, note its modification time. */
static enum srcfile_result
srcfile_check(const char *path, struct srcfile *sf)
{
	enum srcfile_result	 r;
	struct stat		 st;
	int			 fd;

	if ((fd = srcfile_open(path, &st, &r)) == -1)
		return r;
	close(fd);
	sf->mtime = st.st_mtime;
	sf->dev = st.st_dev;
	sf->ino = st.st_ino;
	sf->path = xstrdup(path);
	return SRCFILE_OK;
}

/*
 * Find name as itself or under one of the ndirs include directories
 * (each ending in "/").  Return SRCFILE_NOT_REGULAR only if some
 * candidate exists but none is a regular file.
 */
enum srcfile_result
srcfile_find(const char *name, char **dirs, size_t ndirs, struct srcfile *sf)
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
		r = srcfile_check(path, sf);
		free(path);
		if (r == SRCFILE_OK) {
			sf->dir = d;
			return r;
		}
		if (r == SRCFILE_NOT_REGULAR)
			worst = r;
	}
	return worst;
}

/* Make the memory of which names the ndirs dirs (as srcfile_find()) find. */
struct srcfind *
srcfind_new(char **dirs, size_t ndirs)
{
	struct srcfind	*sf = xcalloc(1, sizeof(*sf));

	pthread_mutex_init(&sf->lock, NULL);
	sf->dirs = dirs;
	sf->ndirs = ndirs;
	sf->names = strtab_create();
	return sf;
}

/*
 * Return nonzero if name may be a regular file srcfile_find() finds: it
 * is, or it was not looked for (SRCFIND_LOOKS names were); arg is a
 * struct srcfind.  Any thread may ask.
 */
int
srcfind_may_find(void *arg, const char *name)
{
	struct srcfind	*sf = arg;
	struct srcfile	 f;
	uint32_t	 id;
	size_t		 len = strlen(name);
	int		 found;

	pthread_mutex_lock(&sf->lock);
	if ((id = strtab_find(sf->names, name, len)) == UINT32_MAX) {
		if (sf->looked >= SRCFIND_LOOKS) {
			pthread_mutex_unlock(&sf->lock);
			return 1;
		}
		id = strtab_intern(sf->names, name, len);
		sf->looked++;
	}
	sf->state = xgrow_fill(sf->state, &sf->cap, (size_t)id + 1,
	    sizeof(*sf->state), 0);
	if (sf->state[id] == 0) {
		sf->state[id] = srcfile_find(name, sf->dirs, sf->ndirs, &f) ==
		    SRCFILE_OK ? 1 : 2;
		srcfile_free(&f);
	}
	found = sf->state[id] == 1;
	pthread_mutex_unlock(&sf->lock);
	return found;
}

/* Free the memory of names found. */
void
srcfind_free(struct srcfind *sf)
{
	if (sf == NULL)
		return;
	pthread_mutex_destroy(&sf->lock);
	strtab_free(sf->names);
	free(sf->state);
	free(sf);
}

/* Free what a found source file holds. */
void
srcfile_free(struct srcfile *sf)
{
	free(sf->path);
	sf->path = NULL;
}

/*
 * Start reading a found source file.  One that cannot be opened any
 * more, or that is not the file found any more (a name swapped since),
 * reads as empty.
 */
struct srcreader *
srcfile_reader(const struct srcfile *sf)
{
	struct srcreader	*r;
	struct stat		 st;
	enum srcfile_result	 res;

	r = xcalloc(1, sizeof(*r));
	r->buf = xmalloc(SRCFILE_BUF);
	if ((r->fd = srcfile_open(sf->path, &st, &res)) != -1 &&
	    (st.st_dev != sf->dev || st.st_ino != sf->ino)) {
		close(r->fd);
		r->fd = -1;
	}
	if (r->fd == -1)
		r->eof = 1;
	return r;
}

/* Read more of the file when all held is used; return 0 at its end. */
static int
srcfile_fill(struct srcreader *r)
{
	ssize_t	n;

	if (r->pos < r->len)
		return 1;
	r->pos = r->len = 0;
	while (!r->eof) {
		if ((n = read(r->fd, r->buf, SRCFILE_BUF)) > 0) {
			r->len = (size_t)n;
			return 1;
		}
		if (n == 0 || errno != EINTR)
			r->eof = 1;
	}
	return 0;
}

/* Return nonzero if a line, even one without a newline, remains. */
int
srcfile_more(struct srcreader *r)
{
	return srcfile_fill(r);
}

/*
 * Take the next line: copy it, with its newline if it has one, to out,
 * or skip it if out is NULL.
 */
void
srcfile_line(struct srcreader *r, FILE *out)
{
	const char	*nl;
	size_t		 n;

	while (srcfile_fill(r)) {
		nl = memchr(r->buf + r->pos, '\n', r->len - r->pos);
		n = nl != NULL ? (size_t)(nl - (r->buf + r->pos)) + 1 :
		    r->len - r->pos;
		if (out != NULL)
			fwrite(r->buf + r->pos, 1, n, out);
		r->pos += n;
		if (nl != NULL)
			return;
	}
}

/* Stop reading a source file. */
void
srcfile_reader_close(struct srcreader *r)
{
	if (r == NULL)
		return;
	if (r->fd != -1)
		close(r->fd);
	free(r->buf);
	free(r);
}
