/*
 * annotate.h - the source annotation reporter: listings of source files
 * with each line's self cost and the calls made from it, in
 * callgrind_annotate's layout.
 */
#ifndef CGA_ANNOTATE_H
#define CGA_ANNOTATE_H

#include <stddef.h>
#include <stdint.h>

struct cells;
struct callgraph;
struct fntotals;
struct profile;
struct report_opts;

/* One line of a file with its summed self cost. */
struct annline {
	uint32_t	 file;		/* the file's slot */
	uint64_t	 line;
	uint64_t	*cost;
};

struct annline	*annotate_sum_lines(const struct profile *,
		    const unsigned char *, const uint32_t *, unsigned,
		    uint64_t **, size_t *);
int	annotate_files(const struct cells *, const struct profile *,
	    struct fntotals *, struct callgraph **, const uint32_t *, size_t,
	    const struct report_opts *, const int *, size_t);

#endif /* CGA_ANNOTATE_H */
