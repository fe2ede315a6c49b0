/*
 * inputs.c - which arguments are profiles: the first is one (or the
 * prefix of a set of dump and thread files, as KCachegrind takes it:
 * PREFIX.N, PREFIX-NN, PREFIX.N-NN), each further one is a profile if
 * its content starts like one, else a source file to annotate; a pipe
 * is copied once into memory to be looked at; and reading all the
 * profiles into one model, whose events must agree.
 */
#define _GNU_SOURCE		/* memfd_create(2) */
#include "base/compat.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "read/input.h"
#include "read/inputs.h"
#include "read/load.h"
#include "read/parse.h"

#define SNIFF	4096

static int	inputs_sniff(struct input *);
static int	inputs_is_profile(const char *);
static int	inputs_pipe(const char *);
static int	inputs_dump_suffix(const char *);
static void	inputs_prefix(struct inputs *, const char *);
static int	natcmp(const char *, const char *);
static int	natcmp_ptr(const void *, const void *);
static void	inputs_add(char ***, size_t *, const char *);
static void	inputs_add_profile(struct inputs *, const char *, int);

/*
 * Return nonzero if what in holds starts like a profile: compressed
 * data, "# callgrind format", or a line starting "events:" in its first
 * 4 KB.  in is closed.
 */
static int
inputs_sniff(struct input *in)
{
	char	buf[SNIFF + 1];
	ssize_t	n;
	size_t	len = 0;
	int	yes;

	if (input_compressed(in))
		yes = 1;
	else {
		while (len < SNIFF && (n = input_read(in, buf + len,
		    SNIFF - len)) > 0)
			len += (size_t)n;
		buf[len] = '\0';
		yes = strncmp(buf, "# callgrind format", 18) == 0 ||
		    strncmp(buf, "events:", 7) == 0 ||
		    strstr(buf, "\nevents:") != NULL;
	}
	input_close(in);
	return yes;
}

/*
 * Return nonzero if the regular file at path starts like a profile.  A
 * file that cannot be read is not a profile.
 */
static int
inputs_is_profile(const char *path)
{
	struct input	*in;
	struct stat	 st;
	int		 quiet;

	/* Only a regular file is looked into here: a FIFO could block. */
	if (stat(path, &st) == -1 || !S_ISREG(st.st_mode))
		return 0;
	quiet = msg_quiet_set(1);
	in = input_open(path);
	msg_quiet_set(quiet);
	return in != NULL && inputs_sniff(in);
}

/*
 * If path is a pipe or FIFO (<(zcat run.out.gz), say), copy all it
 * gives, once, into an anonymous file in memory and return that open
 * at its start; else, or if it cannot be read, -1 (a message said why
 * if it could not).
 */
static int
inputs_pipe(const char *path)
{
	struct stat	 st;
	char		*buf;
	ssize_t		 n, w;
	int		 in, fd;

	if (stat(path, &st) == -1 || !S_ISFIFO(st.st_mode))
		return -1;
	if ((in = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1) {
		msg(MSG_OPEN, path, 0, "%s", strerror(errno));
		return -1;
	}
	if ((fd = memfd_create("cg-annotate", MFD_CLOEXEC)) == -1) {
		msg(MSG_OPEN, path, 0, "memfd_create: %s", strerror(errno));
		close(in);
		return -1;
	}
	buf = xmalloc(1024 * 1024);
	while ((n = read(in, buf, 1024 * 1024)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 || (w = write(fd, buf, (size_t)n)) != n) {
			msg(MSG_READ, path, 0, "%s", strerror(errno));
			close(fd);
			fd = -1;
			break;
		}
	}
	free(buf);
	close(in);
	if (fd != -1)
		(void)lseek(fd, 0, SEEK_SET);
	return fd;
}

/* Compare names with digit runs compared as numbers ("a.2" < "a.10"). */
static int
natcmp(const char *a, const char *b)
{
	const char	*x, *y;
	size_t		 lx, ly;

	while (*a != '\0' && *b != '\0') {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			while (*a == '0' && a[1] >= '0' && a[1] <= '9')
				a++;
			while (*b == '0' && b[1] >= '0' && b[1] <= '9')
				b++;
			for (x = a; *x >= '0' && *x <= '9'; x++)
				continue;
			for (y = b; *y >= '0' && *y <= '9'; y++)
				continue;
			lx = (size_t)(x - a);
			ly = (size_t)(y - b);
			if (lx != ly)
				return lx < ly ? -1 : 1;
			for (; a < x; a++, b++)
				if (*a != *b)
					return (unsigned char)*a <
					    (unsigned char)*b ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (*a != '\0') - (*b != '\0');
}

/* natcmp() for qsort over an array of strings. */
static int
natcmp_ptr(const void *a, const void *b)
{
	return natcmp(*(const char * const *)a, *(const char * const *)b);
}

/* Append a copy of s to a list of strings. */
static void
inputs_add(char ***list, size_t *n, const char *s)
{
	*list = xreallocarray(*list, *n + 1, sizeof(**list));
	(*list)[(*n)++] = xstrdup(s);
}

/* Add a profile: its name, and fd if it is held open (else -1). */
static void
inputs_add_profile(struct inputs *in, const char *name, int fd)
{
	in->fds = xreallocarray(in->fds, in->nprofiles + 1,
	    sizeof(*in->fds));
	in->fds[in->nprofiles] = fd;
	inputs_add(&in->profiles, &in->nprofiles, name);
}

/*
 * Return nonzero if s is what callgrind appends to its output file's
 * name: ".N" for a dump, "-NN" for a thread, or both.
 */
static int
inputs_dump_suffix(const char *s)
{
	const char	*t = s;

	if (*t == '.') {
		if (*++t < '0' || *t > '9')
			return 0;
		while (*t >= '0' && *t <= '9')
			t++;
	}
	if (*t == '-') {
		if (*++t < '0' || *t > '9')
			return 0;
		while (*t >= '0' && *t <= '9')
			t++;
	}
	return t != s && *t == '\0';
}

/*
 * The files that prefix names (callgrind.out.4242.1, -01, .1-01, never
 * callgrind.out.42420): the non-empty regular ones, in natural order;
 * a file that is not a profile is left out, and a note says so.
 */
static void
inputs_prefix(struct inputs *in, const char *prefix)
{
	struct dirent	*d;
	struct stat	 st;
	DIR		*dir;
	const char	*base = strrchr(prefix, '/');
	char		*dirname, *path, **found = NULL;
	size_t		 dlen, blen, nfound = 0, i;

	dlen = base != NULL ? (size_t)(base - prefix) + 1 : 0;
	base = base != NULL ? base + 1 : prefix;
	blen = strlen(base);
	dirname = dlen > 0 ? xstrndup(prefix, dlen) : xstrdup(".");
	if ((dir = opendir(dirname)) == NULL) {
		free(dirname);
		return;
	}
	while ((d = readdir(dir)) != NULL) {
		if (strncmp(d->d_name, base, blen) != 0 ||
		    !inputs_dump_suffix(d->d_name + blen))
			continue;
		path = xmalloc(dlen + strlen(d->d_name) + 1);
		memcpy(path, prefix, dlen);
		strcpy(path + dlen, d->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size > 0)
			inputs_add(&found, &nfound, path);
		free(path);
	}
	closedir(dir);
	free(dirname);
	if (nfound > 1)
		qsort(found, nfound, sizeof(*found), natcmp_ptr);
	for (i = 0; i < nfound; i++) {
		if (inputs_is_profile(found[i]))
			inputs_add_profile(in, found[i], -1);
		else
			msg_note("%s: not a profile, left out", found[i]);
		free(found[i]);
	}
	free(found);
	if (in->nprofiles > 0)
		in->prefix = xstrdup(prefix);
}

/*
 * Sort the arguments into profiles and source files.  The first is a
 * profile; if it is missing or empty but files named by it as a prefix
 * exist, those are the profiles.  A further argument is a profile if
 * it starts like one; a pipe is copied into memory to be looked at.
 */
void
inputs_classify(struct inputs *in, char **args, size_t nargs)
{
	struct input	*sniff;
	struct stat	 st;
	size_t		 i;
	int		 fd;

	memset(in, 0, sizeof(*in));
	if (nargs == 0)
		return;
	if (strcmp(args[0], "-") != 0 &&
	    (stat(args[0], &st) == -1 || (S_ISREG(st.st_mode) &&
	    st.st_size == 0)))
		inputs_prefix(in, args[0]);
	if (in->nprofiles == 0)
		inputs_add_profile(in, args[0], -1);
	for (i = 1; i < nargs; i++) {
		if (strcmp(args[i], "-") == 0 || inputs_is_profile(args[i]))
			inputs_add_profile(in, args[i], -1);
		else if ((fd = inputs_pipe(args[i])) != -1) {
			/* The copy shares fd's offset: back to the start. */
			if ((sniff = input_fdopen(dup(fd), args[i])) != NULL &&
			    inputs_sniff(sniff) && lseek(fd, 0, SEEK_SET) == 0)
				inputs_add_profile(in, args[i], fd);
			else {
				close(fd);
				inputs_add(&in->sources, &in->nsources,
				    args[i]);
			}
		} else
			inputs_add(&in->sources, &in->nsources, args[i]);
	}
}

/*
 * Read every profile into p.  The events of each must be those of the
 * first, else an error names both files and their events.  Return 0, or
 * -1 after an error message.
 */
int
inputs_load(struct profile *p, const struct inputs *in,
    const struct parse_opts *o)
{
	const struct part	*first, *pt;
	size_t			 i, start;

	for (i = 0; i < in->nprofiles; i++) {
		start = profile_nparts(p);
		if ((in->fds[i] != -1 ? load_fd(p, in->fds[i],
		    in->profiles[i], o) : load_file(p, in->profiles[i],
		    o)) == -1) {
			in->fds[i] = -1;
			return -1;
		}
		in->fds[i] = -1;
		if (i == 0)
			continue;
		first = profile_part(p, 0);
		pt = profile_part(p, start);
		if (pt->events != first->events) {
			msg(MSG_INPUTS_DIFFER, in->profiles[i], 0,
			    "'%s' in %s, '%s' here", profile_str(p,
			    first->events), in->profiles[0],
			    profile_str(p, pt->events));
			return -1;
		}
	}
	return 0;
}

/* Free what inputs_classify() made. */
void
inputs_free(struct inputs *in)
{
	size_t	i;

	for (i = 0; i < in->nprofiles; i++) {
		if (in->fds[i] != -1)
			close(in->fds[i]);
		free(in->profiles[i]);
	}
	free(in->fds);
	for (i = 0; i < in->nsources; i++)
		free(in->sources[i]);
	free(in->profiles);
	free(in->sources);
	free(in->prefix);
	memset(in, 0, sizeof(*in));
}
