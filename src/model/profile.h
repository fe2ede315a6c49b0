/*
 * profile.h - the profile model (cost tree): events, parts, objects,
 * files, functions (object + file + name), self costs per function and
 * (file, line), and call arcs with counts and inclusive costs.
 *
 * The parser builds it through the mutators; analyses and reporters
 * read it only through the const accessors.
 */
#ifndef CGA_PROFILE_H
#define CGA_PROFILE_H

#include <stddef.h>
#include <stdint.h>

struct strsrc;

struct instrs;
struct profile;
struct strtab;
struct stacks;

/* An event: short name, optional long name and derived formula. */
struct event_def {
	uint32_t	 name;		/* string id */
	uint32_t	 longname;	/* string id, 0 if none */
	uint32_t	 formula;	/* string id, 0 if not derived */
	uint32_t	 file;		/* string id of the file it is in */
	uint64_t	 line;		/*   and its line there (0: none) */
};

/* One part of a profile: its header values and totals. */
struct part {
	uint32_t	 file;		/* string id of the input file name */
	uint32_t	 pid;		/* string ids; 0 (the empty string) */
	uint32_t	 thread;	/*   when the header has no such line */
	uint32_t	 part;
	uint32_t	 cmd;
	uint32_t	 creator;
	uint32_t	*desc;		/* string ids of desc: values */
	size_t		 ndesc;
	uint64_t	*summary;	/* summary: counts, NULL if none */
	uint64_t	*totals;	/* totals: counts, NULL if none */
	uint64_t	*sum;		/* sum of its cost lines, NULL if none */
	uint32_t	 events;	/* string id of its events: list */
	uint32_t	 trigger;	/* string id of "desc: Trigger:" value */
	int		 has_data;	/* a cost line was read in this part */
	int		 skipped;	/* left out by --part or --thread */
};

/* What a profile's functions are: functions, or groups of them. */
enum profile_rows {
	PROFILE_ROWS_FUNCTIONS,		/* (object, file, name) */
	PROFILE_ROWS_OBJECTS,		/* one an object, named by its path */
	PROFILE_ROWS_FILES		/* one a source file, named by it */
};

/* How much a profile holds (see profile_reserve()). */
struct profile_size {
	uint32_t	 nfuncs, npairs, nlines, narcs, ninstrs;
	size_t		 ndense, nslots, naslots;
};

/*
 * Whether the lines of file (a string id) are kept apart; if not, a
 * pair of it holds one line, 0, their sum (and calls from line 0).
 */
typedef int	(*profile_lines_fn)(void *, const struct profile *, uint32_t);

/* Construction (for the parser). */
struct profile	*profile_create(void);
void		 profile_free(struct profile *);
int		 profile_done(struct profile *);
void		 profile_clear(struct profile *);
void		 profile_follow(struct profile *, const struct profile *);
uint32_t	 profile_intern(struct profile *, const char *, size_t);
uint32_t	 profile_intern_at(struct profile *, const char *, size_t,
		    struct strsrc *, uint64_t);
uint32_t	 profile_blank(struct profile *);
void		 profile_intern_prefetch(const struct profile *,
		    const struct profile *, uint32_t);
uint32_t	 profile_intern_from(struct profile *, const struct profile *,
		    uint32_t);
uint32_t	 profile_intern_list(struct profile *, const uint32_t *,
		    size_t);
int		 profile_set_events(struct profile *, const uint32_t *, unsigned);
void		 profile_add_event_def(struct profile *,
		    const struct event_def *);
void		 profile_add_derived(struct profile *, const uint32_t *,
		    unsigned);
void		 profile_set_rows(struct profile *, enum profile_rows);
void		 profile_set_lines(struct profile *, profile_lines_fn, void *);
void		 profile_keep_calls(struct profile *, int);
void		 profile_one_line(struct profile *, uint32_t);
struct instrs	*profile_instrs_mut(struct profile *);
void		 profile_instrs_sites(struct profile *);
struct stacks	*profile_stacks_mut(struct profile *);
struct part	*profile_new_part(struct profile *, uint32_t);
struct part	*profile_part_mut(struct profile *, size_t);
void		 profile_part_add_desc(struct profile *, struct part *,
		    uint32_t);
void		 profile_part_set_costs(struct profile *, uint64_t **,
		    const uint64_t *);
uint32_t	 profile_func_find(const struct profile *, uint32_t, uint32_t,
		    uint32_t);
uint32_t	 profile_func_id(struct profile *, uint32_t, uint32_t,
		    uint32_t);
uint32_t	 profile_touch(struct profile *, uint32_t, uint32_t);
void		 profile_retouch(struct profile *, uint32_t, uint32_t,
		    uint32_t);
int		 profile_merge(struct profile *, const struct profile *,
		    const uint32_t *, uint32_t *);
void		 profile_size(const struct profile *, struct profile_size *);
void		 profile_reserve(struct profile *,
		    const struct profile_size *);
void		 profile_func_mark(struct profile *, uint32_t);
int		 profile_add_last(struct profile *, const uint64_t *, unsigned);
uint64_t	 profile_last_count(const struct profile *);
int		 profile_last_one(const struct profile *);
int		 profile_add_self(struct profile *, uint32_t, uint32_t,
		    uint64_t, const uint64_t *, unsigned);
int		 profile_add_call(struct profile *, uint32_t, uint32_t,
		    uint64_t, uint32_t, uint64_t, const uint64_t *);

/* Const accessors (for analyses and reporters). */
const char	*profile_str(const struct profile *, uint32_t);
const struct strtab *profile_strtab(const struct profile *);
void		 profile_str_prefetch(const struct profile *, uint32_t);
size_t		 profile_strlen(const struct profile *, uint32_t);
uint32_t	 profile_str_find(const struct profile *, const char *);
uint32_t	 profile_nstrings(const struct profile *);
unsigned	 profile_nevents(const struct profile *);
unsigned	 profile_nrecorded(const struct profile *);
enum profile_rows profile_rows(const struct profile *);
const struct instrs *profile_instrs(const struct profile *);
const struct stacks *profile_stacks(const struct profile *);
uint32_t	 profile_event(const struct profile *, unsigned);
int		 profile_event_index(const struct profile *, const char *);
uint32_t	 profile_events_list(const struct profile *);
size_t		 profile_nevent_defs(const struct profile *);
const struct event_def *profile_event_def(const struct profile *, size_t);
size_t		 profile_nparts(const struct profile *);
const struct part *profile_part(const struct profile *, size_t);
uint32_t	 profile_nobjects(const struct profile *);
uint32_t	 profile_object(const struct profile *, uint32_t);
uint32_t	 profile_nfiles(const struct profile *);
uint32_t	 profile_file(const struct profile *, uint32_t);
uint32_t	 profile_nfuncs(const struct profile *);
void		 profile_func(const struct profile *, uint32_t, uint32_t *,
		    uint32_t *, uint32_t *);
uint64_t	 profile_func_seq(const struct profile *, uint32_t);
uint32_t	 profile_npairs(const struct profile *);
void		 profile_pair(const struct profile *, uint32_t, uint32_t *,
		    uint32_t *);
uint32_t	 profile_pair_find(const struct profile *, uint32_t, uint32_t);
int		 profile_file_lines(const struct profile *, uint32_t);
int		 profile_file_summed(const struct profile *, uint32_t);
uint32_t	 profile_nlines(const struct profile *);
void		 profile_line(const struct profile *, uint32_t, uint32_t *,
		    uint32_t *, uint64_t *);
uint32_t	 profile_line_pair(const struct profile *, uint32_t);
void		 profile_line_cost(const struct profile *, uint32_t,
		    uint64_t *);
uint64_t	 profile_line_cost1(const struct profile *, uint32_t,
		    unsigned);
int		 profile_line_sum(const struct profile *, uint32_t,
		    uint64_t *);
int		 profile_lines_sum(const struct profile *, const uint32_t *,
		    uint32_t, uint64_t *);
int		 profile_lines_sum_evs(const struct profile *,
		    const uint32_t *, uint32_t, const unsigned *, unsigned,
		    uint64_t *);
uint32_t	 profile_narcs(const struct profile *);
void		 profile_arc(const struct profile *, uint32_t, uint32_t *,
		    uint32_t *, uint32_t *, uint64_t *);
uint32_t	 profile_arc_pair(const struct profile *, uint32_t);
uint64_t	 profile_arc_count(const struct profile *, uint32_t);
const uint64_t	*profile_arc_cost(const struct profile *, uint32_t);
void		 profile_self_total(const struct profile *, uint64_t *);
uint64_t	 profile_call_bound(const struct profile *);

#endif /* CGA_PROFILE_H */
