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

extern const struct choice	trees[], folds[], groups[];

__dead void	 options_usage(int);
void		 options_help(void);
int		 options_choice(const char *, const struct choice *,
		    const char *);
const struct format *options_format(const char *);

#endif /* CGA_USAGE_H */
