/*
 * inputs.c - which arguments are profiles: the first is one (or the
 * prefix of a set of dump and thread files, as KCachegrind takes it),
 * each further one is a profile if its content starts like one, else a
 * source file to annotate; and reading all the profiles into one model,
 * whose events must agree.
 */
#include "compat.h"

#include <sys/stat.h>

#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "inputs.h"
#include "load.h"
#include "msg.h"
#include "parse.h"
#include "profile.h"
#include "xmalloc.h"

#define SNIFF	4096

static int	inputs_is_profile(const char *);
static int	natcmp(const char *, const char *);
static int	natcmp_ptr(const void *, const void *);
static void	inputs_add(char ***, size_t *, const char *);

/*
 * Return nonzero if the file at path starts like a profile: compressed
 * data, "# callgrind format", or a line starting "events:" in its first
 * 4 KB.  A file that cannot be read is not a profile.
 */
static int
inputs_is_profile(const char *path)
{
	struct input	*in;
	struct stat	 st;
	char		 buf[SNIFF + 1];
	ssize_t		 n;
	size_t		 len = 0;
	int		 yes = 0, quiet;

	/* Only a regular file is looked into: a FIFO could block. */
	if (stat(path, &st) == -1 || !S_ISREG(st.st_mode))
		return 0;
	quiet = msg_quiet_set(1);
	in = input_open(path);
	msg_quiet_set(quiet);
	if (in == NULL)
		return 0;
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

/*
 * Sort the arguments into profiles and source files.  The first is a
 * profile; if it is missing or empty but files named by it as a prefix
 * exist (callgrind.out.4242.1, callgrind.out.4242-01, ...), those are
 * the profiles, in natural order, empty ones skipped.
 */
void
inputs_classify(struct inputs *in, char **args, size_t nargs)
{
	struct stat	 st;
	glob_t		 g;
	char		*pat;
	size_t		 i, len;

	memset(in, 0, sizeof(*in));
	if (nargs == 0)
		return;
	if (strcmp(args[0], "-") != 0 &&
	    (stat(args[0], &st) == -1 || (S_ISREG(st.st_mode) &&
	    st.st_size == 0))) {
		len = strlen(args[0]);
		pat = xmalloc(len + 2);
		memcpy(pat, args[0], len);
		memcpy(pat + len, "*", 2);
		if (glob(pat, GLOB_NOSORT, NULL, &g) == 0) {
			for (i = 0; i < g.gl_pathc; i++)
				if (strcmp(g.gl_pathv[i], args[0]) != 0 &&
				    stat(g.gl_pathv[i], &st) == 0 &&
				    S_ISREG(st.st_mode) && st.st_size > 0)
					inputs_add(&in->profiles,
					    &in->nprofiles, g.gl_pathv[i]);
		}
		globfree(&g);
		free(pat);
		if (in->nprofiles > 1)
			qsort(in->profiles, in->nprofiles,
			    sizeof(*in->profiles), natcmp_ptr);
		if (in->nprofiles > 0)
			in->prefix = xstrdup(args[0]);
	}
	if (in->nprofiles == 0)
		inputs_add(&in->profiles, &in->nprofiles, args[0]);
	for (i = 1; i < nargs; i++) {
		if (strcmp(args[i], "-") == 0 || inputs_is_profile(args[i]))
			inputs_add(&in->profiles, &in->nprofiles, args[i]);
		else
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
		if (load_file(p, in->profiles[i], o) == -1)
			return -1;
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

	for (i = 0; i < in->nprofiles; i++)
		free(in->profiles[i]);
	for (i = 0; i < in->nsources; i++)
		free(in->sources[i]);
	free(in->profiles);
	free(in->sources);
	free(in->prefix);
	memset(in, 0, sizeof(*in));
}
