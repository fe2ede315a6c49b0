/*
 * fntotals.h - analysis: the program totals used as the percentage
 * base, and per-function totals, one row per "file:function" label
 * (code inlined from another file is its own row, as in
 * callgrind_annotate).
 */
#ifndef CGA_FNTOTALS_H
#define CGA_FNTOTALS_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/keytab.h"

struct profile;

struct fnrow {
	uint32_t	 fn;		/* a function with this label */
	uint32_t	 file;		/* string id of the file of the code */
	uint32_t	 name;		/* string id of the function name */
	uint32_t	 obj;		/* string id of the object shown */
	int		 named;		/* an fn= line named this label, so
					   obj is known (maybe empty) */
	int		 called_only;	/* only a call target, no code */
	char		*label;		/* "file:function", made on first
					   use: see fntotals_label() */
	uint64_t	*cost;		/* self cost, nevents counts */
};

#define FNT_NONE	UINT32_MAX		/* no function has the name */
#define FNT_SHARED	(UINT32_MAX - 1)	/* several have */

struct fntotals {
	const struct profile *p;	/* the profile of the rows */
	unsigned	 nevents;
	struct fnrow	*rows;
	size_t		 nrows, cap;
	uint64_t	*costs;		/* backing store of the rows' costs */
	struct keytab	 keys;		/* (name, file) -> key_row's index, */
	uint32_t	*key_row;	/*   the row: for rows not a pair's */
	size_t		 key_cap;	/*   of a function alone in its name */
	uint32_t	*name_fn;	/* name string id -> its one function,
					   FNT_NONE or FNT_SHARED */
	uint32_t	 nnames;
	struct arena	 labels_bytes;	/* the rows' labels */
	uint32_t	*pair_row;	/* profile pair -> row */
};

enum totals_source {
	TOTALS_SUMMARY,			/* summary: lines */
	TOTALS_TOTALS,			/* totals: lines */
	TOTALS_CALCULATED		/* sum of the self costs */
};

struct fntotals	*fntotals_build(const struct profile *);
uint32_t	 fntotals_row(struct fntotals *, uint32_t, uint32_t);
uint32_t	 fntotals_row_find(const struct fntotals *, uint32_t, uint32_t);
uint32_t	*fntotals_owners(const struct fntotals *);
const char	*fntotals_label(struct fntotals *, uint32_t);
int		 fntotals_labelcmp(const struct fntotals *, uint32_t, uint32_t);
void		 fntotals_sort(const struct fntotals *, uint32_t *, size_t);
int		 fntotals_labeltextcmp(const char *, const char *);
void		 fntotals_free(struct fntotals *);
enum totals_source totals_compute(const struct profile *, uint64_t *);
enum totals_source totals_part(const struct profile *, size_t,
		    const uint64_t **);

#endif /* CGA_FNTOTALS_H */
