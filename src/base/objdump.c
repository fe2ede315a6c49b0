/*
 * objdump.c - running objdump(1), as KCachegrind does, on one object
 * for one range of addresses: "objdump -C -d -w --no-show-raw-insn
 * --start-address=A --stop-address=B -- OBJECT", started with
 * posix_spawnp() (never through a shell; the object is one argument,
 * after "--"), its standard output read through a pipe and parsed line
 * by line: "   ADDR:<TAB>TEXT" lines are instructions, the rest
 * (headers, symbol lines, blank lines) is skipped.  A listing may be
 * read in several ranges into one struct objdump; it stays sorted.  Its
 * entries and their texts go to unlinked temporary files (in TMPDIR,
 * else /tmp) a megabyte at a time, and come back a block or a function
 * at a time (objdump_entries(), objdump_texts()): in memory stay what is
 * not written yet and every OBJDUMP_BLOCK-th address.
 */
#define _GNU_SOURCE	/* F_SETPIPE_SZ */
#include "base/compat.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/hooks.h"
#include "base/objdump.h"
#include "base/srcfile.h"
#include "base/xmalloc.h"

#define OBJDUMP_HELD	(1024 * 1024)	/* texts kept before a write */
#define OBJDUMP_TUNABLE	"glibc.malloc.hugetlb=1"
#define OBJDUMP_PIPE	(1024 * 1024)	/* bytes of the pipe from objdump */
#define OBJDUMP_PAUSE	1000000	/* ns waited when the pipe had little */

extern char **environ;

/* The spans of a run whose instructions are kept, and the one at. */
struct objdump_keep {
	const struct objdump_span *span;
	size_t		 n, at;
};

static void	objdump_line(struct objdump *, struct objdump_keep *,
		    const char *, size_t);
static int	objdump_open(const char *, struct stat *,
		    enum objdump_result *);
static void	objdump_unfd(char *, size_t, const char *);
static int	objdump_insncmp(const void *, const void *);
static int	objdump_pipe(int *);
static char	**objdump_env(char **);
static int	objdump_spawn(const char *, const char *, uint64_t, uint64_t,
		    pid_t *, int *, int *, char *, size_t);
static int	objdump_collect(struct objdump *, struct objdump_keep *,
		    pid_t, int, int, unsigned, char *, size_t);
static int	objdump_tmpfile(void);
static int	objdump_write(int, const void *, size_t, uint64_t);
static void	objdump_pread(int, void *, size_t, uint64_t);
static int	objdump_spool(struct objdump *, int *, const void *, size_t,
		    uint64_t);
static void	objdump_truncate(struct objdump *, size_t);
static void	objdump_sort(struct objdump *);
static void	objdump_copy(const struct objdump *, uint64_t, char *,
		    size_t);

/* Make a pipe whose ends the child does not inherit but as dup2()ed. */
static int
objdump_pipe(int *fd)
{
	if (pipe(fd) == -1)
		return -1;
	if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) == -1 ||
	    fcntl(fd[1], F_SETFD, FD_CLOEXEC) == -1) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	return 0;
}

/*
 * Open path as srcfile_open() does, and check that it starts as an ELF
 * object does; return the descriptor and its status in *st, or -1 with
 * why in *r.
 */
static int
objdump_open(const char *path, struct stat *st, enum objdump_result *r)
{
	enum srcfile_result	 sr;
	unsigned char		 magic[4];
	int			 fd;

	if ((fd = srcfile_open(path, st, &sr)) == -1) {
		*r = sr == SRCFILE_NOT_REGULAR ? OBJDUMP_NOT_REGULAR :
		    errno == ENOENT || errno == ENOTDIR ? OBJDUMP_MISSING :
		    OBJDUMP_UNREADABLE;
		return -1;
	}
	if (pread(fd, magic, sizeof(magic), 0) != (ssize_t)sizeof(magic) ||
	    memcmp(magic, "\177ELF", 4) != 0) {
		close(fd);
		*r = OBJDUMP_NOT_ELF;
		return -1;
	}
	*r = OBJDUMP_OK;
	return fd;
}

/*
 * Check that path is a readable regular file that starts as an ELF
 * object does; give its modification time in *mtime, its size in *size.
 */
enum objdump_result
objdump_check(const char *path, time_t *mtime, uint64_t *size)
{
	enum objdump_result	r;
	struct stat		st;
	int			fd;

	if ((fd = objdump_open(path, &st, &r)) != -1) {
		*mtime = st.st_mtime;
		*size = (uint64_t)st.st_size;
		close(fd);
	}
	return r;
}

/*
 * Write the object's name where objdump's message s (of size bytes)
 * names the descriptor it was given.
 */
static void
objdump_unfd(char *s, size_t size, const char *object)
{
	static const char	 fd[] = "/dev/fd/3";
	char			*at, *rest;

	if ((at = strstr(s, fd)) == NULL)
		return;
	rest = xstrdup(at + sizeof(fd) - 1);
	snprintf(at, size - (size_t)(at - s), "%s%s", object, rest);
	free(rest);
}

/* Add one line of objdump's listing, if it is an instruction. */
static void
objdump_line(struct objdump *d, struct objdump_keep *k, const char *s,
    size_t len)
{
	const char	*p = s, *end = s + len, *t;
	uint64_t	 addr = 0;
	unsigned	 v, digits = 0;
	size_t		 tl, held;

	while (p < end && *p == ' ')
		p++;
	for (; p < end; p++, digits++) {
		if ((v = (unsigned)(*p - '0')) > 9 &&
		    (v = (unsigned)((*p | 0x20) - 'a') + 10) - 10 > 5)
			break;
		if (digits == 16)
			return;
		addr = addr << 4 | v;
	}
	if (digits == 0 || p + 1 >= end || p[0] != ':' || p[1] != '\t')
		return;
	/* Only the spans asked for: objdump lists a run in order. */
	if (k->n > 0) {
		while (k->at < k->n && k->span[k->at].hi < addr)
			k->at++;
		if (k->at == k->n || addr < k->span[k->at].lo)
			return;
	}
	for (t = p + 2; t < end && (*t == ' ' || *t == '\t'); t++)
		continue;
	for (tl = (size_t)(end - t); tl > 0 && (t[tl - 1] == ' ' ||
	    t[tl - 1] == '\t'); tl--)
		continue;
	if (tl == 0 || (tl == 3 && memcmp(t, "...", 3) == 0))
		return;
	if (d->n > 0 && addr < d->last)
		d->unsorted = 1;
	d->last = addr;
	if (d->n % OBJDUMP_BLOCK == 0) {
		d->every = xgrow(d->every, &d->everycap, d->nevery + 1,
		    sizeof(*d->every));
		d->every[d->nevery++] = addr;
	}
	d->insns = xgrow(d->insns, &d->cap, d->n - d->nout + 1,
	    sizeof(*d->insns));
	d->buf = xgrow(d->buf, &d->size, d->len + tl + 1, 1);
	d->insns[d->n - d->nout].addr = addr;
	d->insns[d->n - d->nout].text = d->spooled + d->len;
	d->n++;
	memcpy(d->buf + d->len, t, tl);
	d->len += tl;
	d->buf[d->len++] = '\0';
	if (tl + 1 > d->maxlen)
		d->maxlen = tl + 1;
	held = hooks.held > 0 ? hooks.held : OBJDUMP_HELD;
	if (d->len >= held && objdump_spool(d, &d->spool, d->buf, d->len,
	    d->spooled) == 0) {
		d->spooled += d->len;
		d->len = 0;
	}
	if ((d->n - d->nout) * sizeof(*d->insns) >= held &&
	    objdump_spool(d, &d->ispool, d->insns, (d->n - d->nout) *
	    sizeof(*d->insns), (uint64_t)d->nout * sizeof(*d->insns)) == 0)
		d->nout = d->n;
}

/*
 * Make an unlinked temporary file in TMPDIR (else /tmp), not inherited
 * by objdump; return its descriptor + 1, or 0 if none could be made.
 */
static int
objdump_tmpfile(void)
{
	const char	*dir = getenv("TMPDIR");
	char		*path;
	int		 fd;

	if (dir == NULL || *dir != '/')
		dir = "/tmp";
	path = xmalloc(strlen(dir) + sizeof("/cg-annotate.XXXXXX"));
	strcpy(path, dir);
	strcat(path, "/cg-annotate.XXXXXX");
	if ((fd = mkstemp(path)) != -1) {
		(void)unlink(path);
		(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
	free(path);
	return fd + 1;
}

/* Write n bytes at off of the file fd + 1; return 0, or -1. */
static int
objdump_write(int fdp1, const void *p, size_t n, uint64_t off)
{
	ssize_t	r;

	while (n > 0) {
		r = pwrite(fdp1 - 1, p, n, (off_t)off);
		if (r <= 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p = (const char *)p + r;
		off += (uint64_t)r;
		n -= (size_t)r;
	}
	return 0;
}

/* Read n bytes at off of the file fd + 1: zeros where it cannot. */
static void
objdump_pread(int fdp1, void *p, size_t n, uint64_t off)
{
	ssize_t	r;

	while (n > 0) {
		r = pread(fdp1 - 1, p, n, (off_t)off);
		if (r <= 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			memset(p, 0, n);
			return;
		}
		p = (char *)p + r;
		off += (uint64_t)r;
		n -= (size_t)r;
	}
}

/*
 * Write n bytes at p to offset off of d's file *fdp1 (its descriptor +
 * 1), made the first time; return 0.  If it cannot be made or written,
 * return -1: what was written stays, and the listing stays in memory
 * from then on.
 */
static int
objdump_spool(struct objdump *d, int *fdp1, const void *p, size_t n,
    uint64_t off)
{
	if (d->nospool || (*fdp1 == 0 && (*fdp1 = objdump_tmpfile()) == 0) ||
	    objdump_write(*fdp1, p, n, off) == -1) {
		d->nospool = 1;
		return -1;
	}
	return 0;
}

/* Copy entries j0 to j1 - 1 of d to e, wherever they are. */
void
objdump_entries(const struct objdump *d, size_t j0, size_t j1,
    struct objdump_insn *e)
{
	size_t	k;

	if (j0 < d->nout) {
		k = j1 < d->nout ? j1 : d->nout;
		objdump_pread(d->ispool, e, (k - j0) * sizeof(*e),
		    (uint64_t)j0 * sizeof(*e));
		e += k - j0;
		j0 = k;
	}
	if (j0 < j1)
		memcpy(e, d->insns + (j0 - d->nout), (j1 - j0) * sizeof(*e));
}

/* Forget the instructions from n0 on (a run that failed). */
static void
objdump_truncate(struct objdump *d, size_t n0)
{
	if (n0 >= d->n)
		return;
	/* Those written out are written over by the next. */
	if (n0 < d->nout)
		d->nout = n0;
	d->n = n0;
	d->nevery = (n0 + OBJDUMP_BLOCK - 1) / OBJDUMP_BLOCK;
	d->unsorted = 0;	/* what is left was sorted */
	if (n0 > 0) {
		struct objdump_insn	e;

		objdump_entries(d, n0 - 1, n0, &e);
		d->last = e.addr;
	}
}

/*
 * Sort the listing by address: every entry in memory, sorted, written
 * back if it was written out; the addresses of every block again.
 */
static void
objdump_sort(struct objdump *d)
{
	struct objdump_insn	*all;
	size_t			 k;

	all = xreallocarray(NULL, d->n + 1, sizeof(*all));
	objdump_entries(d, 0, d->n, all);
	qsort(all, d->n, sizeof(*all), objdump_insncmp);
	if (d->nout > 0 && objdump_write(d->ispool, all, d->n * sizeof(*all),
	    0) == 0) {
		free(all);
		d->nout = d->n;
		d->cap = 0;
		free(d->insns);
		d->insns = NULL;
	} else {
		/* Kept in memory: the file is no longer read. */
		free(d->insns);
		d->insns = all;
		d->cap = d->n + 1;
		d->nout = 0;
		d->nospool = d->nospool || d->ispool != 0;
	}
	for (k = 0; k < d->nevery; k++) {
		struct objdump_insn	e;

		objdump_entries(d, k * OBJDUMP_BLOCK, k * OBJDUMP_BLOCK + 1,
		    &e);
		d->every[k] = e.addr;
	}
	d->unsorted = 0;
}

/* Copy n bytes of the texts from offset off, wherever they are. */
static void
objdump_copy(const struct objdump *d, uint64_t off, char *dst, size_t n)
{
	size_t	k;

	if (off < d->spooled) {
		k = d->spooled - off < n ? (size_t)(d->spooled - off) : n;
		objdump_pread(d->spool, dst, k, off);
		dst += k;
		off += k;
		n -= k;
	}
	if (n > 0)
		memcpy(dst, d->buf + (off - d->spooled), n);
}

/* Order instructions by address. */
static int
objdump_insncmp(const void *a, const void *b)
{
	const struct objdump_insn	*x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->text > y->text) - (x->text < y->text);
}

/*
 * Add to d the instructions at addresses start to stop - 1 of object,
 * disassembled by prog (a name looked up in PATH, or a path) in at most
 * timeout seconds; with nkeep > 0 only those in the spans keep[] (by
 * address, not overlapping), so that one run reads several spans with
 * the code between them left out.  The object is opened and checked
 * here and given to prog as its descriptor 3 (/dev/fd/3), so that prog
 * reads the file checked, whatever the name is made to point at
 * meanwhile.  Return OBJDUMP_OK, or OBJDUMP_FAILED with the reason in
 * err (errsize bytes).
 */
enum objdump_result
objdump_read(struct objdump *d, const char *prog, const char *object,
    uint64_t start, uint64_t stop, const struct objdump_span *keep,
    size_t nkeep, unsigned timeout, char *err, size_t errsize)
{
	struct objdump_keep	 k;
	char			 etext[256];
	size_t			 n0 = d->n;
	pid_t			 pid;
	int			 out, errfd, status, timedout;

	if (objdump_spawn(prog, object, start, stop, &pid, &out, &errfd, err,
	    errsize) == -1)
		return OBJDUMP_FAILED;
	k.span = keep;
	k.n = nkeep;
	k.at = 0;
	timedout = objdump_collect(d, &k, pid, out, errfd, timeout, etext,
	    sizeof(etext));
	close(out);
	close(errfd);
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	if (timedout) {
		objdump_truncate(d, n0);
		snprintf(err, errsize, "%s took more than %u s, stopped", prog,
		    timeout);
		return OBJDUMP_FAILED;
	}
	if (status != 0) {
		objdump_truncate(d, n0);
		objdump_unfd(etext, sizeof(etext), object);
		if (status != -1 && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 127)
			snprintf(err, errsize, "cannot run %s", prog);
		else
			snprintf(err, errsize, "%s failed%s%s", prog,
			    *etext != '\0' ? ": " : "", etext);
		return OBJDUMP_FAILED;
	}
	/*
	 * objdump lists a range in order, and ranges come in order: sort
	 * only when what was added breaks the order (sorting the whole
	 * list after every range made --asm quadratic in the ranges).
	 */
	if (d->unsorted)
		objdump_sort(d);
	return OBJDUMP_OK;
}

/*
 * Return the environment objdump runs in: ours, with glibc's malloc
 * asked for huge pages (GLIBC_TUNABLES; glibc 2.35 on, ignored by
 * others), unless the user's GLIBC_TUNABLES says otherwise.  objdump
 * reads the whole of an object's code section into fresh memory each
 * run, and where a page's first touch is dear (11-14 us on some
 * hypervisors) that was most of --asm=yes's system time on cc1 (28 runs
 * of its 33 MB section: 3.4 s of 7.9).  *added is the string made, to
 * be freed with the array.
 */
static char **
objdump_env(char **added)
{
	static const char	 key[] = "GLIBC_TUNABLES=";
	const char		*old = NULL;
	char			**env;
	size_t			 n, i, k = 0;

	for (n = 0; environ[n] != NULL; n++)
		continue;
	env = xreallocarray(NULL, n + 2, sizeof(*env));
	for (i = 0; i < n; i++) {
		if (strncmp(environ[i], key, sizeof(key) - 1) == 0)
			old = environ[i];
		else
			env[k++] = environ[i];
	}
	if (old == NULL || old[sizeof(key) - 1] == '\0')
		*added = xstrdup("GLIBC_TUNABLES=" OBJDUMP_TUNABLE);
	else if (strstr(old, "glibc.malloc.hugetlb") != NULL)
		*added = xstrdup(old);
	else
		*added = xjoin(old, strlen(old), ':', OBJDUMP_TUNABLE,
		    sizeof(OBJDUMP_TUNABLE) - 1);
	env[k++] = *added;
	env[k] = NULL;
	return env;
}

/*
 * Start prog disassembling object from start to stop, in a process
 * group of its own, the object open on its descriptor 3 (read through
 * /dev/fd/3) when there is a /dev/fd, its input /dev/null: *pid, and
 * the read ends of its output and its errors in *out and *errfd.
 * Return 0, or -1 with the reason in err.
 */
static int
objdump_spawn(const char *prog, const char *object, uint64_t start,
    uint64_t stop, pid_t *pid, int *out, int *errfd, char *err,
    size_t errsize)
{
	posix_spawn_file_actions_t	 fa;
	posix_spawnattr_t		 attr;
	enum objdump_result		 r;
	struct stat			 st;
	char				 a1[48], a2[48], *argv[10];
	char				**env, *added;
	int				 objfd, bydesc, outp[2], errp[2], rc;

	snprintf(a1, sizeof(a1), "--start-address=0x%llx",
	    (unsigned long long)start);
	snprintf(a2, sizeof(a2), "--stop-address=0x%llx",
	    (unsigned long long)stop);
	argv[0] = (char *)prog;
	argv[1] = "-C";
	argv[2] = "-d";
	argv[3] = "-w";
	argv[4] = "--no-show-raw-insn";
	argv[5] = a1;
	argv[6] = a2;
	if ((objfd = objdump_open(object, &st, &r)) == -1) {
		snprintf(err, errsize, "cannot open it again");
		return -1;
	}
	/* Without /dev/fd (no /proc), the name: checked a moment ago. */
	bydesc = stat("/dev/fd", &st) == 0 && S_ISDIR(st.st_mode);
	argv[7] = "--";
	argv[8] = bydesc ? "/dev/fd/3" : (char *)object;
	argv[9] = NULL;
	if (objdump_pipe(outp) == -1) {
		close(objfd);
		goto syserr;
	}
	if (objdump_pipe(errp) == -1) {
		close(outp[0]);
		close(outp[1]);
		close(objfd);
		goto syserr;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, outp[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, errp[1], STDERR_FILENO);
	if (bydesc)
		posix_spawn_file_actions_adddup2(&fa, objfd, 3);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
	    O_RDONLY, 0);
	/* A group of its own: what it starts ends with it at the limit. */
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	env = objdump_env(&added);
	rc = posix_spawnp(pid, prog, &fa, &attr, argv, env);
	free(env);
	free(added);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	close(outp[1]);
	close(errp[1]);
	close(objfd);
	if (rc != 0) {
		close(outp[0]);
		close(errp[0]);
		snprintf(err, errsize, "cannot run %s: %s", prog,
		    strerror(rc));
		return -1;
	}
	*out = outp[0];
	*errfd = errp[0];
	return 0;
syserr:
	snprintf(err, errsize, "cannot run %s: %s", prog, strerror(errno));
	return -1;
}

/*
 * Read what process group pid writes on out, line by line into d (those
 * k keeps), and
 * the first bytes it writes on errfd, its first line into etext (esize
 * bytes), until both end or timeout seconds have passed since now: then
 * kill the group and return 1.  Return 0 otherwise.
 */
static int
objdump_collect(struct objdump *d, struct objdump_keep *k, pid_t pid,
    int out, int errfd, unsigned timeout, char *etext, size_t esize)
{
	struct timespec	 t0, now;
	struct pollfd	 pfd[2];
	char		 chunk[65536], *line = NULL;
	const char	*nlp;
	size_t		 llen = 0, lcap = 0, elen = 0, i;
	ssize_t		 n, nl;
	long		 left;
	int		 rc, timedout = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
#ifdef F_SETPIPE_SZ
	/* Room for a pause's listing (below), where the system allows. */
	(void)fcntl(out, F_SETPIPE_SZ, OBJDUMP_PIPE);
#endif
	pfd[0].fd = out;
	pfd[1].fd = errfd;
	pfd[0].events = pfd[1].events = POLLIN;
	while (pfd[0].fd != -1 || pfd[1].fd != -1) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = (long)timeout * 1000 - ((long)(now.tv_sec - t0.tv_sec) *
		    1000 + (now.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0) {
			kill(-pid, SIGKILL);
			timedout = 1;
			break;
		}
		if ((rc = poll(pfd, 2, (int)left)) <= 0) {
			if (rc == 0 || errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents != 0) {
			n = read(errfd, chunk, sizeof(chunk));
			if (n > 0 && elen < esize - 1) {
				i = (size_t)n < esize - 1 - elen ? (size_t)n :
				    esize - 1 - elen;
				memcpy(etext + elen, chunk, i);
				elen += i;
			}
			if (n == 0 || (n == -1 && errno != EINTR))
				pfd[1].fd = -1;
		}
		if (pfd[0].revents == 0)
			continue;
		if ((n = read(out, chunk, sizeof(chunk))) <= 0) {
			if (n == 0 || errno != EINTR)
				pfd[0].fd = -1;
			continue;
		}
		/*
		 * objdump writes 4 KB at a time, faster than it is read: had
		 * the pipe little, let it fill a moment rather than be woken
		 * for every write (half of the reader's time, and some of
		 * objdump's, on a big listing).
		 */
		if ((size_t)n < sizeof(chunk) / 2) {
			struct timespec	pause = { 0, OBJDUMP_PAUSE };

			nanosleep(&pause, NULL);
		}
		for (i = 0; i < (size_t)n; i += nl + 1) {
			/* A line, or its start, or its end. */
			nlp = memchr(chunk + i, '\n', (size_t)n - i);
			nl = nlp != NULL ? nlp - (chunk + i) : n - (ssize_t)i;
			if (llen == 0 && i + (size_t)nl < (size_t)n) {
				objdump_line(d, k, chunk + i, (size_t)nl);
				continue;
			}
			line = xgrow(line, &lcap, llen + (size_t)nl, 1);
			memcpy(line + llen, chunk + i, (size_t)nl);
			llen += (size_t)nl;
			if (i + (size_t)nl < (size_t)n) {
				objdump_line(d, k, line, llen);
				llen = 0;
			}
		}
	}
	if (llen > 0)
		objdump_line(d, k, line, llen);
	free(line);
	etext[elen] = '\0';
	etext[strcspn(etext, "\n")] = '\0';
	return timedout;
}

/*
 * Have instructions j0 to j1 - 1 and their texts in memory, in t: the
 * texts where they are if none was written out, else read back in one
 * piece (they were listed together), or one by one if the listing was
 * sorted and they lie apart.  objdump_texts_free() gives the memory back.
 */
void
objdump_texts(const struct objdump *d, size_t j0, size_t j1,
    struct objdump_texts *t)
{
	uint64_t	lo = UINT64_MAX, hi = 0, end = d->spooled + d->len;
	size_t		j, n;

	memset(t, 0, sizeof(*t));
	t->j0 = j0;
	if (j1 <= j0)
		return;
	t->insns = xreallocarray(NULL, j1 - j0, sizeof(*t->insns));
	objdump_entries(d, j0, j1, t->insns);
	for (j = 0; j < j1 - j0; j++) {
		if (t->insns[j].text < lo)
			lo = t->insns[j].text;
		if (t->insns[j].text > hi)
			hi = t->insns[j].text;
	}
	if (lo >= d->spooled) {
		t->base = d->buf;
		t->lo = d->spooled;
		return;
	}
	if (hi - lo <= (uint64_t)(j1 - j0) * d->maxlen) {
		n = (size_t)((hi + d->maxlen < end ? hi + d->maxlen : end) -
		    lo);
		t->buf = xmalloc(n);
		objdump_copy(d, lo, t->buf, n);
		t->base = t->buf;
		t->lo = lo;
		return;
	}
	t->scattered = 1;
	t->buf = xreallocarray(NULL, j1 - j0, d->maxlen);
	for (j = 0; j < j1 - j0; j++) {
		n = end - t->insns[j].text < d->maxlen ?
		    (size_t)(end - t->insns[j].text) : d->maxlen;
		objdump_copy(d, t->insns[j].text, t->buf + j * d->maxlen, n);
	}
	t->base = t->buf;
}

/* Return the text of instruction j, in memory by objdump_texts(). */
const char *
objdump_text(const struct objdump *d, const struct objdump_texts *t,
    size_t j)
{
	if (t->scattered)
		return t->base + (j - t->j0) * d->maxlen;
	return t->base + (t->insns[j - t->j0].text - t->lo);
}

/* Return the address of instruction j (below d->n). */
uint64_t
objdump_addr(const struct objdump *d, size_t j)
{
	struct objdump_insn	e;

	objdump_entries(d, j, j + 1, &e);
	return e.addr;
}

/* Give back the memory of texts read back. */
void
objdump_texts_free(struct objdump_texts *t)
{
	free(t->insns);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

/*
 * Return the first instruction at addr or after it (d->n if none): the
 * block it is in by the addresses of every block's first, then in the
 * block.
 */
size_t
objdump_find(const struct objdump *d, uint64_t addr)
{
	struct objdump_insn	 blk[OBJDUMP_BLOCK];
	size_t			 lo = 0, hi = d->nevery, mid, j0, n;

	/* The first block starting at addr or after: the one before. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d->every[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	j0 = (lo - 1) * OBJDUMP_BLOCK;
	n = d->n - j0 < OBJDUMP_BLOCK ? d->n - j0 : OBJDUMP_BLOCK;
	objdump_entries(d, j0, j0 + n, blk);
	for (lo = 0, hi = n; lo < hi; ) {
		mid = lo + (hi - lo) / 2;
		if (blk[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return j0 + lo;
}

/* Free a listing. */
void
objdump_free(struct objdump *d)
{
	free(d->insns);
	free(d->every);
	free(d->buf);
	if (d->spool != 0)
		close(d->spool - 1);
	if (d->ispool != 0)
		close(d->ispool - 1);
	memset(d, 0, sizeof(*d));
}
