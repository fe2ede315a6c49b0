/*
 * profile_impl.h - the profile's representation, shared by the files of
 * the model only (profile.c, profile_table.c, profile_merge.c); everyone
 * else goes through profile.h, which comes first (this header uses its
 * types, as libmdoc.h uses mdoc.h's).
 */
#ifndef CGA_PROFILE_IMPL_H
#define CGA_PROFILE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "base/keytab.h"
#include "base/packed.h"

/*
 * Each (function, file) pair has its own table of line numbers, a slice
 * of a shared arena, so looking up the lines of one function touches
 * only its few cache lines however big the profile.  A pair's lines span
 * a compact range, visited in nearly increasing order: the table is a
 * dense array indexed by line - base while the range stays within
 * LINE_DENSE times the lines held (and a few), and an open-addressing
 * hash table beyond (so that huge or scattered line numbers cannot size
 * it).  Both hold line ids only, 4 bytes an entry: a hashed entry's
 * line is read from line_no, near those of its pair's other lines (made
 * together).
 * Most pairs of a C++ program are a few lines inlined from a header,
 * scattered over it: with 16-byte entries and dense tables up to 8
 * times as wide plus 64, such tables took half the memory of a 300 MB
 * profile (cga-synth -g -x: 5.9 million lines in 415,000 pairs).  A
 * hashed table of lines grows when seven eighths full: its ids were
 * mostly made together, so the line numbers a probe compares are near
 * each other; at three quarters, as tables of calls, the same profile's
 * tables held 10.7 million slots for 5.9 million lines at the end of
 * reading (7 MB more at its peak, in the same time).
 */
#define LINE_DENSE	2
#define LINE_BIG	UINT32_MAX	/* a line number not in line_no */
#define TAB_FULL(n, slots) (4 * (uint64_t)(n) > 3 * (uint64_t)(slots))
#define LINE_FULL(n, slots) (8 * (uint64_t)(n) > 7 * (uint64_t)(slots))

struct linetab {
	uint64_t	 base;		/* dense: line of the first entry;
					   one line (no table): that line */
	uint32_t	 off;		/* first entry in its arena */
	uint32_t	 len;		/* dense: entries; hashed: slots - 1;
					   0: no table (n is 0 or 1) */
	uint32_t	 n;		/* lines held */
	uint32_t	 first;		/* id of its first line */
	uint16_t	 hashed;
	uint16_t	 one;		/* its file's lines not kept: every
					   line is line 0 (profile_set_lines()) */
	uint32_t	 aoff;		/* the pair's calls: a hash table of */
	uint32_t	 amask;		/*   (callee, line) in the arc arena, */
	uint32_t	 an;		/*   amask + 1 slots, an used */
};

/* Whether a file's lines are kept: asked once, when a pair first has it. */
#define FILE_LINES_ASK		0
#define FILE_LINES_KEPT		1
#define FILE_LINES_ONE		2

#define MERGE_AHEAD	8	/* functions a merge loads ahead */

/*
 * A pair met lately, in a direct-mapped table by (function, file): code
 * inlined from headers switches a function's file back and forth among
 * a few (fi=, fe=), and the table of all pairs is many megabytes.
 */
#define PAIR_MEMO	4096
struct pairmemo {
	uint32_t	 fn, file;
	uint32_t	 pair;		/* its id + 1, 0 if empty */
};

/* Return the entry of (fn, file) in a table of PAIR_MEMO pairs. */
static inline uint32_t
profile_memo_hash(uint32_t fn, uint32_t file)
{
	return (uint32_t)((((uint64_t)fn << 32 | file) *
	    0x9e3779b97f4a7c15ULL) >> 52) & (PAIR_MEMO - 1);
}

/*
 * Tables given up when they grow, to be taken again: one list of
 * offsets per size, each a power of two.
 */
#define FREE_CLASSES	33
struct freelist {
	uint32_t	*off;
	size_t		 n, cap;
};

/* A call arc in the table of its (caller, file) pair. */
struct aslot {
	uint64_t	 line;
	uint32_t	 callee;
	uint32_t	 id;		/* arc id + 1, 0 if empty */
};

struct profile {
	struct strtab	 *strs;
	uint32_t	 *events;	/* string ids of events: names */
	uint32_t	  events_list;	/* the names joined by spaces */
	unsigned	  nevents;
	unsigned	  nrecorded;	/* the first events, from events: */
	enum profile_rows rows;
	struct keytab	  evnames;	/* name string id -> event index */
	struct event_def *defs;
	size_t		  ndefs, defs_cap;
	struct keytab	  defnames;	/* event name -> def */
	struct part	 *parts;
	size_t		  nparts, parts_cap;
	struct keytab	  objects;	/* (name) */
	struct keytab	  files;	/* (name) */
	uint8_t		 *file_lines;	/* file (id in files) -> FILE_LINES_* */
	size_t		  file_lines_cap;
	profile_lines_fn  lines_fn;	/* which files' lines are kept */
	void		 *lines_arg;	/*   (NULL: all) */
	int		  drop_calls;	/* calls from lines summed not kept
					   (profile_keep_calls()) */
	struct keytab	  funcs;	/* (object, file, name) */
	uint64_t	 *fn_seq;	/* function id -> last fn= number */
	uint32_t	 *fn_pair;	/* function id -> its own file's pair */
	struct pairmemo	  memo[PAIR_MEMO]; /* other pairs met lately */
	uint32_t	  fn_cap;
	uint64_t	  seq;		/* fn= lines so far */
	struct keytab	  pairs;	/* (function, file) visited */
	struct linetab	 *ptab;		/* pair -> its table of lines */
	uint32_t	  ptab_cap;
	uint32_t	 *slots;	/* hashed line tables, one arena:
					   id + 1 (its line in line_no), or 0 */
	size_t		  nslots, slots_cap;
	uint32_t	 *dense;	/* dense line tables: id + 1, or 0 */
	size_t		  ndense, dense_cap;
	struct freelist	  free_slots[FREE_CLASSES]; /* tables given up, */
	struct freelist	  free_dense[FREE_CLASSES]; /*   by log2 of */
	struct freelist	  free_aslots[FREE_CLASSES]; /*  their size */
	uint32_t	 *line_pair;	/* line id -> pair */
	uint32_t	 *line_no;	/* line id -> line number, LINE_BIG
					   if 2^32 - 1 or above: in bigline */
	struct keytab	  bigline;	/* (line id) -> its number in */
	uint64_t	 *bigno;	/*   bigno (hostile profiles) */
	size_t		  bigcap;
	uint32_t	  nlines;
	struct packed	  line_cost;	/* line id -> its counts */
	uint32_t	  line_cap;	/* line_pair, line_no allocated */
	uint32_t	  last_line;	/* cache of the last line id, */
	uint64_t	  last_line_no;	/* its line number */
	uint32_t	  last_line_pair; /* and its pair, */
	int		  last_one;	/*   whose lines are one */
	uint32_t	  cur_pair;	/* cache of the last pair */
	uint32_t	  cur_fn, cur_file;
	struct aslot	 *aslots;	/* per-pair arc tables, one arena */
	size_t		  naslots, aslots_cap;
	uint32_t	 *arc_pair;	/* arc id -> (caller, call-site file) */
	uint32_t	 *arc_callee;	/* arc id -> callee */
	uint64_t	 *arc_line;	/* arc id -> call-site line */
	uint32_t	  narcs;
	uint64_t	 *arc_count;
	uint64_t	 *arc_cost;	/* arc id * nevents */
	uint32_t	  arc_cap;	/* vectors allocated */
	uint32_t	  last_arc;
	uint64_t	  call_bound;	/* the sum of every count and cost
					   of a call added (at most COST_MAX):
					   no sum of calls is above it */
	uint32_t	 *merge_lines;	/* profile_merge()'s map of lines, */
	size_t		  merge_cap;	/*   kept from merge to merge */
	struct instrs	 *ins;		/* machine code costs, if kept */
	int		  ins_sites;	/*   or only the calls' sites */
	struct stacks	 *stk;		/* exact stacks, if kept */
	unsigned	  cap_nevents;	/* after profile_clear(): the events
					   of line_cap and arc_cap */
	int		  done;		/* profile_done(): the tables that
					   only adding needs are gone */
};

/* profile.c */
uint64_t	 profile_bigline(const struct profile *, uint32_t);

/* profile_table.c */
uint32_t	 profile_pair_get(struct profile *, uint32_t, uint32_t);
uint32_t	 profile_pair_line(struct profile *, uint32_t, uint64_t, int *);
uint32_t	 profile_line_append(struct profile *, uint32_t, uint64_t);
void		 profile_pair_copy(struct profile *, uint32_t,
		    const struct profile *, const struct linetab *,
		    const uint32_t *);
int		 profile_pair_add_call(struct profile *, uint32_t, uint64_t,
		    uint32_t, uint64_t, const uint64_t *);

/* Return the hash slot where line starts probing in a table of mask. */
static inline uint32_t
profile_line_hash(uint64_t line, uint32_t mask)
{
	return (uint32_t)((line * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* Return the arc-table slot where (callee, line) starts probing. */
static inline uint32_t
profile_arc_hash(uint32_t callee, uint64_t line, uint32_t mask)
{
	return (uint32_t)(((line ^ (uint64_t)callee << 32) *
	    0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* Return the number of line id. */
static inline uint64_t
profile_lineno(const struct profile *p, uint32_t id)
{
	return p->line_no[id] != LINE_BIG ? p->line_no[id] :
	    profile_bigline(p, id);
}

#endif /* CGA_PROFILE_IMPL_H */
