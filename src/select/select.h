/*
 * select.h - the selection layer: from the model, the analyses and the
 * report's options, the rows that every view prints, chosen, ordered
 * and thresholded once.  Views read a selection through const pointers
 * and never sort, threshold or compute costs of their own.
 */
#ifndef CGA_SELECT_H
#define CGA_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/fntotals.h"
#include "base/num.h"
#include "select/reportopts.h"

struct asmsel;
struct flame;
struct flamesel;
struct graphsel;
struct callgraph;
struct diff;
struct diffrow;
struct gate;
struct gate_result;
struct profile;
struct srcsel;

/* A printed entry: a function row, or a cycle with --inclusive=yes. */
struct selentry {
	const uint64_t	*cost;		/* self or inclusive, as sorted */
	uint32_t	 row;		/* row, or CG_NONE for a cycle */
	uint32_t	 cycle;		/* cycle, or CG_NONE for a row */
};

/* A caller or callee of an entry, summed over call sites. */
struct selcall {
	uint32_t	 row;		/* the row at the other end */
	uint64_t	 count;
	const uint64_t	*cost;		/* inclusive cost of the calls */
};

/* A function's change in a difference. */
struct seldiff {
	const struct diffrow *r;
	struct snum	*delta;		/* NEW - OLD per event, exact, */
	unsigned char	*def;		/*   where defined */
};

struct selection {
	const struct report_opts *o;
	const struct report_run	*run;
	const struct profile	*p;	/* the profile (NEW with --diff), */
	struct profile		*own, *own_old; /* made again (reshape.h)
					   for derived events, --fold or
					   --group, or NULL */
	unsigned		 nev;
	int			*show;	/* event indices shown */
	size_t			 nshow;
	int			*sort;	/* event indices sorted by */
	size_t			 nsort;
	double			*thr;	/* threshold per sort event */
	double			 single; /* --threshold, 0 if per event */
	const uint64_t		*base;	/* percentage base: the totals, or
					   OLD's with --diff */

	/* One profile. */
	uint64_t		*total;	/* program totals */
	enum totals_source	 source;
	struct callgraph	*g;	/* the call graph, when needed, */
	int			 g_borrowed; /* not this selection's to free */
	struct fntotals		*t;	/* the rows (g's when g is set) */
	struct selentry		*ents;	/* the entries printed, in order */
	size_t			 nents;
	uint64_t		*extent; /* per event, the largest count of
					   any entry, printed or not
					   (COST_NONE: none) */
	uint32_t		*cycles; /* the cycles the entries name:
					   printed, or of printed functions */
	size_t			 ncycles;
	uint32_t		*files;	/* files of the printed functions */
	size_t			 nfiles, files_cap;
	struct srcsel		*src;	/* what source annotation prints */
	struct asmsel		*asm_;	/* what machine-code annotation
					   prints (--asm=yes), or NULL */
	struct graphsel		*graph;	/* --format=dot: what is drawn */
	struct callgraph	*old_g;	/* --diff --format=dot: OLD's */
	struct flamesel		*flame;	/* --format=folded, svg: frames */
	struct flame		*stacks; /* FORMAT_STACKS_EVERY: the shown
					   events' stacks by function, made
					   together, --function applied
					   (pprof); select_flames_of() makes
					   each one's frames (speedscope) */

	/* --diff OLD NEW. */
	const struct profile	*old;	/* OLD, as p is NEW */
	struct diff		*d;
	struct seldiff		*drows;	/* every function, in order, */
	size_t			 ndrows, ndsel;	/* the first ndsel printed */
	struct snum		*tdelta; /* the totals' change */
	unsigned char		*tdef;

	/* --fail-above. */
	int			*gate_ev; /* each limit's event index */
	struct gate_result	*gres;	/* every gate that applied */
	size_t			 ngres, gres_cap;
	int			 gates_failed;
};

struct selection *select_build(const struct profile *,
		    const struct profile *, const struct report_opts *,
		    const struct report_run *);
void		 select_free(struct selection *);
size_t		 select_calls(const struct selection *,
		    const struct selentry *, int, struct selcall **,
		    uint64_t **);
size_t		 select_calls_rows(const struct selection *,
		    const uint32_t *, size_t, int, struct selcall **,
		    uint64_t **);
int		 select_has_tree(const struct selection *,
		    const struct selentry *);
const char	*select_label(const struct selection *,
		    const struct selentry *);
const char	*select_threshold(const struct selection *, size_t);
const char	*select_rowname(const struct selection *);
struct asmsel	*select_asm_of(const struct selection *, const size_t *);
struct flamesel	*select_flames_of(const struct selection *, size_t,
		    struct flamesel *);
struct srcsel	*select_source_of(struct selection *, uint32_t);
struct callgraph *select_take_graph(struct selection *);

#endif /* CGA_SELECT_H */
