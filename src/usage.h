/*
 * usage.h - the usage message, --help and the words options take
 * (usage.c), shared by the files of the command.
 */
#ifndef CGA_USAGE_H
#define CGA_USAGE_H

#include <stddef.h>

#include "base/compat.h"

struct format;

/* The words an option takes, each with its value; a NULL word ends. */
struct choice {
	const char	*word;
	int		 value;
};

#define OPTIONS_MAX_FORMATS	16	/* rows of format.c, at most */

extern const struct choice	trees[], folds[], groups[];

__dead void	 options_usage(int);
void		 options_help(void);
const char	*options_words(const struct choice *, const char *,
		    const char *, char *, size_t);
int		 options_choice(const char *, const struct choice *,
		    const char *);
const struct choice *options_formats(struct choice *);
const struct format *options_format(const char *);

#endif /* CGA_USAGE_H */
