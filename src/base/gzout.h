/*
 * gzout.h - gzip output compressed in a second thread while the caller
 * makes what comes next.
 */
#ifndef CGA_GZOUT_H
#define CGA_GZOUT_H

#include <stddef.h>
#include <stdio.h>

struct gzout;

struct gzout	*gzout_open(FILE *, int);
void		 gzout_write(struct gzout *, const void *, size_t);
void		 gzout_close(struct gzout *);

#endif /* CGA_GZOUT_H */
