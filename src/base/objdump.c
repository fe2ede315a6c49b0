/*
 * objdump.c - running objdump(1), as KCachegrind does, on one object
 * for one range of addresses: "objdump -C -d -w --no-show-raw-insn
 * --start-address=A --stop-address=B -- OBJECT", started with
 * posix_spawnp() (never through a shell; the object is one argument,
 * after "--"), its standard output read through a pipe and parsed line
 * by line: "   ADDR:<TAB>TEXT" lines are instructions, the rest
 * (headers, symbol lines, blank lines) is skipped.  A listing may be
 * read in several ranges into one struct objdump; it stays sorted.
 */
#include "compat.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "objdump.h"
#include "xmalloc.h"

extern char **environ;

static void	objdump_line(struct objdump *, const char *, size_t);
static int	objdump_insncmp(const void *, const void *);
static int	objdump_pipe(int *);

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
 * Check that path is a readable regular file that starts as an ELF
 * object does; give its modification time in *mtime.
 */
enum objdump_result
objdump_check(const char *path, time_t *mtime)
{
	struct stat	 st;
	unsigned char	 magic[4];
	int		 fd;
	ssize_t		 n;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return errno == ENOENT || errno == ENOTDIR ? OBJDUMP_MISSING :
		    OBJDUMP_UNREADABLE;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		close(fd);
		return OBJDUMP_NOT_REGULAR;
	}
	*mtime = st.st_mtime;
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n != (ssize_t)sizeof(magic) || memcmp(magic, "\177ELF", 4) != 0)
		return OBJDUMP_NOT_ELF;
	return OBJDUMP_OK;
}

/* Add one line of objdump's listing, if it is an instruction. */
static void
objdump_line(struct objdump *d, const char *s, size_t len)
{
	const char	*p = s, *end = s + len, *t;
	uint64_t	 addr = 0;
	unsigned	 v, digits = 0;
	size_t		 tl;

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
	for (t = p + 2; t < end && (*t == ' ' || *t == '\t'); t++)
		continue;
	for (tl = (size_t)(end - t); tl > 0 && (t[tl - 1] == ' ' ||
	    t[tl - 1] == '\t'); tl--)
		continue;
	if (tl == 0 || (tl == 3 && memcmp(t, "...", 3) == 0))
		return;
	d->insns = xgrow(d->insns, &d->cap, d->n + 1, sizeof(*d->insns));
	d->buf = xgrow(d->buf, &d->size, d->len + tl + 1, 1);
	d->insns[d->n].addr = addr;
	d->insns[d->n].text = d->len;
	d->n++;
	memcpy(d->buf + d->len, t, tl);
	d->len += tl;
	d->buf[d->len++] = '\0';
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
 * disassembled by prog (a name looked up in PATH, or a path).  Return
 * OBJDUMP_OK, or OBJDUMP_FAILED with the reason in err (errsize bytes).
 */
enum objdump_result
objdump_read(struct objdump *d, const char *prog, const char *object,
    uint64_t start, uint64_t stop, char *err, size_t errsize)
{
	posix_spawn_file_actions_t	 fa;
	char				 a1[48], a2[48], *argv[10];
	char				 chunk[65536], *line = NULL;
	size_t				 llen = 0, lcap = 0, i, n0 = d->n;
	ssize_t				 n;
	pid_t				 pid;
	struct pollfd			 pfd[2];
	int				 out[2], errp[2], status, rc;
	char				 etext[256];
	ssize_t				 elen = 0;

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
	argv[7] = "--";
	argv[8] = (char *)object;
	argv[9] = NULL;
	if (objdump_pipe(out) == -1)
		goto syserr;
	if (objdump_pipe(errp) == -1) {
		close(out[0]);
		close(out[1]);
		goto syserr;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, errp[1], STDERR_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
	    O_RDONLY, 0);
	rc = posix_spawnp(&pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	close(errp[1]);
	if (rc != 0) {
		close(out[0]);
		close(errp[0]);
		snprintf(err, errsize, "cannot run %s: %s", prog,
		    strerror(rc));
		return OBJDUMP_FAILED;
	}
	/* Its listing, line by line, and its errors (the first bytes). */
	pfd[0].fd = out[0];
	pfd[1].fd = errp[0];
	pfd[0].events = pfd[1].events = POLLIN;
	while (pfd[0].fd != -1 || pfd[1].fd != -1) {
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents != 0) {
			n = read(errp[0], chunk, sizeof(chunk));
			if (n > 0 && (size_t)elen < sizeof(etext) - 1) {
				i = (size_t)n < sizeof(etext) - 1 - (size_t)elen ?
				    (size_t)n : sizeof(etext) - 1 - (size_t)elen;
				memcpy(etext + elen, chunk, i);
				elen += (ssize_t)i;
			}
			if (n == 0 || (n == -1 && errno != EINTR))
				pfd[1].fd = -1;
		}
		if (pfd[0].revents == 0)
			continue;
		if ((n = read(out[0], chunk, sizeof(chunk))) <= 0) {
			if (n == 0 || errno != EINTR)
				pfd[0].fd = -1;
			continue;
		}
		for (i = 0; i < (size_t)n; i++) {
			if (chunk[i] == '\n') {
				objdump_line(d, line, llen);
				llen = 0;
				continue;
			}
			line = xgrow(line, &lcap, llen + 1, 1);
			line[llen++] = chunk[i];
		}
	}
	if (llen > 0)
		objdump_line(d, line, llen);
	free(line);
	close(out[0]);
	close(errp[0]);
	etext[elen] = '\0';
	etext[strcspn(etext, "\n")] = '\0';
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	if (status != 0) {
		d->n = n0;
		if (status != -1 && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 127)
			snprintf(err, errsize, "cannot run %s", prog);
		else
			snprintf(err, errsize, "%s failed%s%s", prog,
			    *etext != '\0' ? ": " : "", etext);
		return OBJDUMP_FAILED;
	}
	if (d->n > 1)
		qsort(d->insns, d->n, sizeof(*d->insns), objdump_insncmp);
	return OBJDUMP_OK;
syserr:
	snprintf(err, errsize, "cannot run %s: %s", prog, strerror(errno));
	return OBJDUMP_FAILED;
}

/* Return the text of instruction i. */
const char *
objdump_text(const struct objdump *d, size_t i)
{
	return d->buf + d->insns[i].text;
}

/* Return the first instruction at addr or after it (d->n if none). */
size_t
objdump_find(const struct objdump *d, uint64_t addr)
{
	size_t	lo = 0, hi = d->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d->insns[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Free a listing. */
void
objdump_free(struct objdump *d)
{
	free(d->insns);
	free(d->buf);
	memset(d, 0, sizeof(*d));
}
