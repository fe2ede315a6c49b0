/*
 * srcfile.h - finding the source files to annotate (only regular files)
 * and reading them line by line in bounded memory.
 */
#ifndef CGA_SRCFILE_H
#define CGA_SRCFILE_H

#include <sys/types.h>

#include <stddef.h>
#include <stdio.h>
#include <time.h>

struct stat;

enum srcfile_result {
	SRCFILE_OK,
	SRCFILE_MISSING,	/* no such file, or not readable */
	SRCFILE_NOT_REGULAR	/* a FIFO, device, directory, socket, or a
				   file of /proc or /sys */
};

/* A source file found. */
struct srcfile {
	char		*path;		/* the name opened (dir + name) */
	int		 dir;		/* index of the include dir, -1 for
					   the name itself */
	time_t		 mtime;
	dev_t		 dev;		/* the file found, */
	ino_t		 ino;		/*   which is the file read */
};

struct srcreader;
struct srcfind;

int		 srcfile_open(const char *, struct stat *,
		    enum srcfile_result *);
enum srcfile_result srcfile_find(const char *, char **, size_t,
		    struct srcfile *);
void		 srcfile_free(struct srcfile *);
struct srcfind	*srcfind_new(char **, size_t);
enum srcfile_result srcfind_find(struct srcfind *, const char *,
		    struct srcfile *);
int		 srcfind_may_find(void *, const char *);
void		 srcfind_free(struct srcfind *);
struct srcreader *srcfile_reader(const struct srcfile *);
int		 srcfile_more(struct srcreader *);
void		 srcfile_line(struct srcreader *, FILE *);
void		 srcfile_reader_close(struct srcreader *);

#endif /* CGA_SRCFILE_H */
