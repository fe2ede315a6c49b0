/*
 * inputs.h - the profiles and source files named on the command line.
 */
#ifndef CGA_INPUTS_H
#define CGA_INPUTS_H

#include <stddef.h>

struct parse_opts;
struct profile;

struct inputs {
	char	**profiles;		/* in the order to read them */
	int	 *fds;			/* each one's copy in memory (a
					   pipe), or -1: read by name */
	size_t	  nprofiles;
	char	**sources;		/* source files to annotate */
	size_t	  nsources;
	char	 *prefix;		/* the prefix expanded, or NULL */
};

void	inputs_classify(struct inputs *, char **, size_t);
int	inputs_load(struct profile *, const struct inputs *,
	    const struct parse_opts *);
void	inputs_free(struct inputs *);

#endif /* CGA_INPUTS_H */
