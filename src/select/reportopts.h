/*
 * reportopts.h - the options that shape a report, as given on the
 * command line: what the selection chooses and what the views print.
 */
#ifndef CGA_REPORTOPTS_H
#define CGA_REPORTOPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/rematch.h"
#include "base/tvis.h"
#include "model/profile.h"

struct callgraph;
struct derive_opt;
struct gate;
struct namemod;
struct selection;

/*
 * What an output format needs of the reading and of the selection (its
 * row in view/format.c); the selection and the parser options read
 * these, never a format's name.
 */
#define FORMAT_CALLS	0x01	/* inclusive costs: the call graph */
#define FORMAT_GRAPH	0x02	/* the call graph drawn (graphsel.h), and
				   nothing else */
#define FORMAT_STACKS	0x04	/* call stacks: xtree stacks kept while
				   reading, frames (flamesel.h), and
				   nothing else */
#define FORMAT_ANNOTATE	0x08	/* annotated source files, as chosen by
				   --auto and the files named */
#define FORMAT_LINES	0x10	/* every source line's costs */
#define FORMAT_ASM	0x20	/* machine code with --asm=yes */
#define FORMAT_WHOLE	0x40	/* all of it, even with --totals */
#define FORMAT_QUIET	0x80	/* read by programs: no progress shown */
#define FORMAT_SAYS_READING 0x100 /* "Reading data from" a profile found
				   here, as callgrind_annotate */
#define FORMAT_BROWSE	0x200	/* what --tui browses */
#define FORMAT_STACKS_EVERY 0x400 /* with FORMAT_STACKS: the stacks of
				   every event shown, not only the first
				   sort event's (stacks) */
#define FORMAT_INSTRS	0x1000	/* machine code positions kept while
				   reading (instrs.h), as --asm=yes */
#define FORMAT_BINARY	0x2000	/* bytes for programs, not for a
				   terminal */
#define FORMAT_ONE	0x4000	/* one profile written: not with --diff */
#define FORMAT_SITES	0x8000	/* with FORMAT_INSTRS: a big profile read
				   with the calls' sites alone first
				   (PARSE_INSTRS_SITES); the view says
				   REPORT_NEED_INSTRS if that is not
				   enough */
#define FORMAT_ROWS	0x10000	/* the functions' rows and the entries
				   printed (without it the selection makes
				   them only for --fail-above's limits) */
#define FORMAT_LINENO	0x20000	/* every line's number written: every
				   line kept apart while reading (others
				   keep those of the files annotated) */

/* An output format: a row of view/format.c. */
struct format {
	const char	*name;		/* as --format takes it */
	int		(*view)(FILE *, const struct selection *);
	unsigned	 needs;		/* FORMAT_* */
	uint64_t	 frames;	/* FORMAT_STACKS_EVERY: the frames its
					   stacks may hold, estimated (0: as
					   many as a flame graph's) */
};

#define REPORT_TREE_CALLER	1	/* --tree=caller */
#define REPORT_TREE_CALLING	2	/* --tree=calling */

/*
 * What a run found out beside its options (main.c; the browser for its
 * own selections): the profiles' names, the source files named, how
 * names reach the output, a call graph made already.
 */
struct report_run {
	const char	 *profile_name;	/* as given on the command line */
	const char	 *old_name;	/* --diff: the old profile's name */
	char		**user_files;	/* source files named by the user,
					   sorted, each once */
	size_t		  nuser_files;
	const char	 *prefix;	/* profile files found by prefix */
	size_t		  nfiles;	/* profile files read */
	enum tvis_mode	  visible_names; /* how names reach the output: on
					   a terminal, made visible */
	struct callgraph *graph;	/* a call graph of graph_of made by */
	const struct profile *graph_of;	/*   the caller, used if the
					   profile is that (--tui), or NULL */
	struct srcfind	 *find;		/* what reading learnt of which
					   sources are there, or NULL */
};

/*
 * The options that shape a report, as given on the command line: const
 * once options_parse() has made them.
 */
struct report_opts {
	char		**show;		/* --show event names, NULL: all */
	size_t		  nshow;
	char		**sort;		/* --sort event names, NULL: all */
	size_t		  nsort;
	char		**sort_thr;	/* per-event thresholds as given,
					   NULL if none was given */
	char		 *threshold;	/* --threshold as given ("99") */
	int		  show_percs;
	int		  auto_annotate;
	int		  context;	/* --context lines around */
	int		  inclusive;	/* --inclusive=yes */
	int		  tree;		/* REPORT_TREE_* bits */
	char		**include;	/* -I directories, each ending "/" */
	size_t		  ninclude;
	int		  per_part;	/* --per-part */
	int		  totals_only;	/* --totals */
	const struct format *format;	/* --format */
	const struct derive_opt *events; /* --event=NAME=FORMULA */
	size_t		  nevents;
	int		  fold;		/* --fold: FOLD_* bits */
	enum profile_rows group;	/* --group */
	double		  node_threshold; /* --node-threshold, percent */
	double		  edge_threshold; /* --edge-threshold, percent */
	struct rematch	**roots;	/* --root expressions */
	size_t		  nroots;
	struct rematch	**leaves;	/* --leaf expressions */
	size_t		  nleaves;
	int		  asm_annotate;	/* --asm=yes */
	int		  tui;		/* --tui */
	char		**objdirs;	/* --objdir directories, each
					   ending "/" */
	size_t		  nobjdirs;
	const char	 *objdump;	/* --objdump, $OBJDUMP or "objdump" */
	unsigned	  objdump_timeout; /* seconds a run of it may take
					   ($CGA_OBJDUMP_TIMEOUT, 60) */
	struct rematch	**functions;	/* --function expressions */
	size_t		  nfunctions;
	struct gate	 *gates;	/* --fail-above */
	size_t		  ngates;
	const struct namemod *mod_file;	/* --mod-filename */
	const struct namemod *mod_func;	/* --mod-funcname */
};

/*
 * Return nonzero if one of the n expressions re (--function, --root,
 * --leaf) matches label.
 */
static inline int
report_matches(struct rematch *const *re, size_t n, const char *label)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (rematch_test(re[i], label))
			return 1;
	return 0;
}

#endif /* CGA_REPORTOPTS_H */
