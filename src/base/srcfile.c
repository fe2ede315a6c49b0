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

#define SRCFIND_FOUND	1		/* a regular file */
#define SRCFIND_MISSING	2		/* nothing there */
#define SRCFIND_ODD	3		/* not a regular file */

/*
 * The directories of the paths tried are remembered too (as many): a
 * file cannot be in a directory that is not there, and a profile names
 * many files of each directory, most of them often missing (a program
 * built elsewhere).  The large C++ synthetic of 300 MB names 7,256 files
 * in 43 directories, 6,000 of them in 42 that are not there.
 */
#define DIR_UNKNOWN	0
#define DIR_THERE	1
#define DIR_MISSING	2

struct srcfind {
	pthread_mutex_t	 lock;
	char		**dirs;
	size_t		 ndirs;
	struct strtab	*names;
	uint8_t		*state;		/* name id -> 0 not asked, or
					   SRCFIND_* */
	size_t		 cap;
	size_t		 looked;	/* names looked for */
	struct strtab	*pdirs;		/* directories of paths tried */
	uint8_t		*pstate;	/* their id -> DIR_* */
	size_t		 pcap;
};

/* A source file being read (srcfile_reader()). */
struct srcreader {
	int	 fd;
	char	*buf;
	size_t	 pos, len;	/* bytes used, bytes held */
	int	 eof;		/* read(2) said end of file, or failed */
};

static enum srcfile_result srcfile_check(const char *, struct srcfile *);
static char	*srcfile_path(const char *, size_t, char **, int);
static enum srcfile_result srcfile_search(struct srcfind *, const char *,
		    char **, size_t, struct srcfile *);
static uint8_t	 srcfind_dir(struct srcfind *, const char *, size_t, int);
static uint8_t	 srcfind_name(struct srcfind *, const char *, uint32_t *);
static uint8_t	 srcfind_look(struct srcfind *, uint32_t, const char *,
		    struct srcfile *, enum srcfile_result *);
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

/* Return name (nlen bytes) under include directory d of dirs, or itself. */
static char *
srcfile_path(const char *name, size_t nlen, char **dirs, int d)
{
	size_t	 dlen;
	char	*path;

	if (d < 0)
		return xstrndup(name, nlen);
	dlen = strlen(dirs[d]);
	path = xmalloc(dlen + nlen + 1);
	memcpy(path, dirs[d], dlen);
	memcpy(path + dlen, name, nlen + 1);
	return path;
}

/*
 * Find name as itself or under one of the ndirs include directories
 * (each ending in "/").  Return SRCFILE_NOT_REGULAR only if some
 * candidate exists but none is a regular file.
 */
enum srcfile_result
srcfile_find(const char *name, char **dirs, size_t ndirs, struct srcfile *sf)
{
	return srcfile_search(NULL, name, dirs, ndirs, sf);
}

/*
 * Find name as srcfile_find() does with the include directories of
 * mem: a name found missing before is not looked for again, nor a path
 * whose directory mem knows is not there (a file cannot be there, nor
 * anything that is not a regular file).  The same answer, but for files
 * made since.  Any thread may ask.
 */
enum srcfile_result
srcfind_find(struct srcfind *mem, const char *name, struct srcfile *sf)
{
	enum srcfile_result	r;
	uint32_t		id;

	if (srcfind_name(mem, name, &id) == SRCFIND_MISSING) {
		memset(sf, 0, sizeof(*sf));
		return SRCFILE_MISSING;
	}
	(void)srcfind_look(mem, id, name, sf, &r);
	return r;
}

/*
 * Return what mem knows of name (SRCFIND_*, 0 if not asked yet), one
 * lock taken; its id in *idp, made if new and fewer than SRCFIND_LOOKS
 * are, else UINT32_MAX.
 */
static uint8_t
srcfind_name(struct srcfind *mem, const char *name, uint32_t *idp)
{
	size_t		len = strlen(name);
	uint32_t	id;
	uint8_t		state = 0;

	pthread_mutex_lock(&mem->lock);
	if ((id = strtab_find(mem->names, name, len)) == UINT32_MAX &&
	    mem->looked < SRCFIND_LOOKS) {
		id = strtab_intern(mem->names, name, len);
		mem->looked++;
	}
	if (id != UINT32_MAX) {
		mem->state = xgrow_fill(mem->state, &mem->cap, (size_t)id + 1,
		    sizeof(*mem->state), 0);
		state = mem->state[id];
	}
	pthread_mutex_unlock(&mem->lock);
	*idp = id;
	return state;
}

/*
 * Look for name (id in mem, or UINT32_MAX) without the lock, giving the
 * answer in *r and sf, and note it: both threads may look for one name
 * at once, and the first answer noted is the name's.  Return that
 * (SRCFIND_*).
 */
static uint8_t
srcfind_look(struct srcfind *mem, uint32_t id, const char *name,
    struct srcfile *sf, enum srcfile_result *r)
{
	uint8_t	state;

	*r = srcfile_search(mem, name, mem->dirs, mem->ndirs, sf);
	state = *r == SRCFILE_OK ? SRCFIND_FOUND : *r == SRCFILE_MISSING ?
	    SRCFIND_MISSING : SRCFIND_ODD;
	if (id == UINT32_MAX)
		return state;
	pthread_mutex_lock(&mem->lock);
	if (mem->state[id] == 0)
		mem->state[id] = state;
	state = mem->state[id];
	pthread_mutex_unlock(&mem->lock);
	return state;
}

/*
 * srcfile_find(), and srcfind_find() if mem is not NULL: a path missing
 * tells mem whether its directory is there, once (called without the
 * lock).
 */
static enum srcfile_result
srcfile_search(struct srcfind *mem, const char *name, char **dirs,
    size_t ndirs, struct srcfile *sf)
{
	enum srcfile_result	 r, worst = SRCFILE_MISSING;
	struct stat		 st;
	size_t			 nlen = strlen(name), dlen = 0;
	char			*path, *slash;
	uint8_t			 dir = DIR_THERE;
	int			 d;

	memset(sf, 0, sizeof(*sf));
	for (d = -1; d < (int)ndirs; d++) {
		path = srcfile_path(name, nlen, dirs, d);
		/* Its directory: up to its last slash, if not the root's. */
		if (mem != NULL) {
			slash = strrchr(path, '/');
			dlen = slash != NULL && slash > path ?
			    (size_t)(slash - path) : 0;
			dir = dlen > 0 ? srcfind_dir(mem, path, dlen,
			    DIR_UNKNOWN) : DIR_THERE;
		}
		if (dir == DIR_MISSING) {
			free(path);
			continue;
		}
		r = srcfile_check(path, sf);
		if (r == SRCFILE_MISSING && dir == DIR_UNKNOWN &&
		    (errno == ENOENT || errno == ENOTDIR)) {
			path[dlen] = '\0';
			if (stat(path, &st) == 0)
				dir = S_ISDIR(st.st_mode) ? DIR_THERE :
				    DIR_MISSING;
			else if (errno == ENOENT || errno == ENOTDIR)
				dir = DIR_MISSING;
			if (dir != DIR_UNKNOWN)
				(void)srcfind_dir(mem, path, dlen, dir);
		}
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
	sf->pdirs = strtab_create();
	return sf;
}

/*
 * Return nonzero if name may be a regular file srcfile_find() finds: it
 * is, or it was not looked for (SRCFIND_LOOKS names were); arg is a
 * struct srcfind.  Any thread may ask; the lock is not held while the
 * name is looked for (a few system calls), which the other thread may
 * want meanwhile.
 */
int
srcfind_may_find(void *arg, const char *name)
{
	struct srcfind		*sf = arg;
	struct srcfile		 f;
	enum srcfile_result	 r;
	uint32_t		 id;
	uint8_t			 state;

	state = srcfind_name(sf, name, &id);
	if (id == UINT32_MAX)
		return 1;
	if (state == 0) {
		state = srcfind_look(sf, id, name, &f, &r);
		srcfile_free(&f);
	}
	return state == SRCFIND_FOUND;
}

/*
 * Return what is known of directory dir (len bytes): DIR_*; with state
 * not DIR_UNKNOWN, note it first (the first note stays).  Past
 * SRCFIND_LOOKS directories, new ones are neither noted nor known.
 */
static uint8_t
srcfind_dir(struct srcfind *sf, const char *dir, size_t len, int state)
{
	uint32_t	id;
	uint8_t		r = DIR_UNKNOWN;

	pthread_mutex_lock(&sf->lock);
	if ((id = strtab_find(sf->pdirs, dir, len)) == UINT32_MAX &&
	    state != DIR_UNKNOWN && strtab_count(sf->pdirs) <= SRCFIND_LOOKS)
		id = strtab_intern(sf->pdirs, dir, len);
	if (id != UINT32_MAX) {
		sf->pstate = xgrow_fill(sf->pstate, &sf->pcap, (size_t)id + 1,
		    sizeof(*sf->pstate), DIR_UNKNOWN);
		if (sf->pstate[id] == DIR_UNKNOWN)
			sf->pstate[id] = (uint8_t)state;
		r = sf->pstate[id];
	}
	pthread_mutex_unlock(&sf->lock);
	return r;
}

/* Free the memory of names found. */
void
srcfind_free(struct srcfind *sf)
{
	if (sf == NULL)
		return;
	pthread_mutex_destroy(&sf->lock);
	strtab_free(sf->names);
	strtab_free(sf->pdirs);
	free(sf->state);
	free(sf->pstate);
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
