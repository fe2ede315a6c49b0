/*
 * flamesel.h - the selection for flame graphs (--format=folded, svg):
 * the stacks of the first sort event (flame.h) as a tree of frames, each
 * named as a flame graph names it, its children by name, with its total
 * and self counts, the kind of its object, and with --diff its counts in
 * OLD (a path only OLD has is a frame of total 0).
 */
#ifndef CGA_FLAMESEL_H
#define CGA_FLAMESEL_H

#include <stddef.h>
#include <stdint.h>

struct flame;
struct profile;
struct report_opts;
struct strtab;

enum framekind {
	FRAME_PROGRAM,		/* the program's own code */
	FRAME_LIBRARY,		/* a shared library of the system */
	FRAME_SYSTEM,		/* the loader, valgrind, unknown objects */
	FRAME_NONE		/* not known yet */
};

/* OLD's counts of a frame, with --diff: kept apart, its own array. */
struct frameold {
	uint64_t	 total;		/* OLD's stacks through it */
	uint64_t	 self;		/*   and ending in it */
};

/* A frame: a function called along one path from the root. */
struct frame {
	uint32_t	 name;		/* in the selection's strtab */
	uint32_t	 file;		/*   and the first function's file */
	enum framekind	 kind;
	uint64_t	 total;		/* counts of the stacks through it */
	uint64_t	 self;		/*   and of those ending in it */
	uint64_t	 x;		/* counts before it, on its level */
	uint32_t	 parent;	/* UINT32_MAX for the root */
	uint32_t	 child, next;	/* first child, next sibling */
	unsigned	 depth;		/* the root's children: 1 */
};

/* What the flame selection starts from. */
struct flamesel_from {
	const struct profile	 *p;
	const struct profile	 *old;		/* --diff, or NULL */
	const struct report_opts *o;
	const struct report_run	 *run;
	int			  ev;		/* NEW's event index */
	int			  old_ev;
};

struct flamesel {
	int		 exact;		/* the profile's own stacks */
	struct strtab	*names;
	struct frame	*frames;	/* 0 is the root ("all") */
	size_t		 nframes, cap;
	unsigned	 depth;		/* the deepest frame's */
	uint64_t	 old_all;	/* --diff: OLD's stacks' sum */
	const struct profile *fnof;	/* the profile whose functions' */
	uint32_t	*fnname;	/*   frame names (in names) and */
	unsigned char	*fnshared;	/*   sharing (flamesel_walk()) are
					   made, or NULL, */
	uint32_t	*fnfile;	/*   files (in names) and kinds, made
					   when a frame first needs them */
	unsigned char	*fnkind;	/*   (FRAME_NONE until then) */
	uint64_t	*sub;		/* flamesel_walk()'s room: a node's */
	uint32_t	*at;		/*   stacks, its frame, */
	size_t		 sub_cap, at_cap; /*  kept for the next event */
	uint32_t	*rank;		/* name id -> its place by text, */
	uint32_t	 nrank;		/*   for the first nrank ids */
	struct frameold	*old;		/* --diff: OLD's counts by frame (0
					   if none), or NULL, */
	size_t		 old_n;		/*   for frames below old_n */
	uint32_t	*dfs;		/* the frames but the root in
					   depth-first order, children in
					   order */
	size_t		 dfs_cap;
};

struct flamesel	*flamesel_build(const struct flamesel_from *);
void		 flamesel_free(struct flamesel *);
const char	*flamesel_name(const struct flamesel *, uint32_t);
struct flame	*flamesel_stacks(const struct flamesel_from *,
		    const unsigned *, unsigned);
struct flamesel	*flamesel_event(const struct flamesel_from *,
		    const struct flame *, unsigned, struct flamesel *);
void		 flamesel_kinds(const struct profile *, enum framekind *);

/* Return OLD's count of the stacks through frame v (0 without --diff). */
static inline uint64_t
flamesel_old_total(const struct flamesel *s, uint32_t v)
{
	return s->old != NULL ? s->old[v].total : 0;
}

/* Return OLD's count of the stacks ending in frame v (0 without --diff). */
static inline uint64_t
flamesel_old_self(const struct flamesel *s, uint32_t v)
{
	return s->old != NULL ? s->old[v].self : 0;
}

#endif /* CGA_FLAMESEL_H */
