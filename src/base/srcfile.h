/*
 * srcfile.h - finding and reading the source files to annotate: only
 * regular files, read whole in one go.
 */
#ifndef CGA_SRCFILE_H
#define CGA_SRCFILE_H

#include <stddef.h>
#include <time.h>

enum srcfile_result {
	SRCFILE_OK,
	SRCFILE_MISSING,	/* no such file, or not readable */
	SRCFILE_NOT_REGULAR	/* a FIFO, device, directory, socket, or a
				   file of /proc or /sys */
};

struct srcfile {
	char		*path;		/* the name opened (dir + name) */
	int		 dir;		/* index of the include dir, -1 for
					   the name itself */
	char		*data;		/* the whole file */
	size_t		 len;
	time_t		 mtime;
};

enum srcfile_result srcfile_find(const char *, char **, size_t, int,
		    struct srcfile *);
void		 srcfile_free(struct srcfile *);

#endif /* CGA_SRCFILE_H */
