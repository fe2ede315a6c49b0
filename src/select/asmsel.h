/*
 * asmsel.h - the selection for machine-code annotation (--asm=yes): the
 * functions of the printed rows that have instruction costs, each with
 * its object (found, checked, disassembled by objdump), its
 * instructions in address order with their costs, source positions,
 * calls and jumps.
 */
#ifndef CGA_ASMSEL_H
#define CGA_ASMSEL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "base/objdump.h"

struct fntotals;
struct instrs;
struct profile;
struct report_opts;

/* What the machine-code selection starts from: the report's choice. */
struct asmsel_from {
	const struct profile	 *p;
	const struct report_opts *o;
	const struct report_run	 *run;
	struct fntotals		 *t;		/* the rows, */
	const size_t		 *rowrank;	/*   each one's place among the
						   printed entries (SIZE_MAX:
						   not printed) */
	const int		 *sort;		/* the sort events */
	size_t			  nsort;
	unsigned		  nev;
};

/*
 * A function's machine code is read by objdump unless the profile's
 * instructions of it span more than ASM_MAX_SPAN bytes, or the listings
 * of the functions before it hold ASM_MAX_ROWS instructions already:
 * a profile cannot make the listing as large as it claims.
 */
#define ASM_MAX_SPAN	((uint64_t)1 << 20)
#define ASM_MAX_ROWS	((size_t)1 << 22)

enum asm_unread {
	ASM_READ,		/* read, as far as its object was */
	ASM_SPAN,		/* its span is above ASM_MAX_SPAN */
	ASM_ROWS		/* ASM_MAX_ROWS listed before it */
};

#define ASM_UNLISTED	UINT32_MAX
#define ASM_BLOCK	4096	/* a listing's rows read at once (or
				   hooks.asm_block) */

/* One instruction listed. */
struct asmrow {
	uint64_t	 addr;
	const uint64_t	*cost;		/* self cost, NULL if none */
	uint64_t	 line;		/* its source line, */
	uint32_t	 file;		/*   file's string id; UINT32_MAX:
					   unknown */
	uint32_t	 j;		/* its place in objdump's listing
					   (asmsel_text()), or ASM_UNLISTED:
					   the profile names it, the
					   listing does not (a listing
					   holds ASM_MAX_ROWS at most) */
	uint32_t	 call0, ncalls;	/* its calls in the function's */
	uint32_t	 jump0, njumps;	/* its jumps in the function's */
};

/* A function's rows, made when it is printed (asmsel_rows()). */
struct asmrows {
	struct asmrow	*row;
	size_t		 n;
	uint64_t	*cost;		/* the rows' self costs */
	size_t		 unlisted;	/* instructions objdump did not list */
	struct objdump_texts texts;	/* the texts of rows tj0 to tj1 - 1 */
	size_t		 tj0, tj1;	/*   of the listing */
};

/* Calls from one instruction to one function. */
struct asmcall {
	uint64_t	 addr;
	uint32_t	 callee;	/* a function of the profile */
	uint64_t	 count;
	const uint64_t	*cost;		/* inclusive */
};

/* A jump or conditional branch from one instruction. */
struct asmjump {
	uint64_t	 addr, target;
	int		 cond;
	uint64_t	 executed, taken;
};

/* An object whose machine code is listed (or could not be). */
struct asmobj {
	uint32_t	 name;		/* string id, as in the profile */
	char		*path;		/* the file read, NULL if none */
	enum objdump_result found;
	char		*why;		/* objdump's failure, or NULL */
	time_t		 mtime;
	uint64_t	 size;		/* its size in bytes */
	int		 newer;		/* newer than the profile */
	struct objdump	 dis;
};

/* A function annotated. */
struct asmfunc {
	uint32_t	 fn;		/* the profile's function */
	uint32_t	 obj;		/* its index in objs */
	uint64_t	 lo, hi;	/* its first and last instruction the
					   profile names */
	const uint32_t	*ids;		/* the profile's instructions of it, */
	size_t		 nids;		/*   by address */
	size_t		 j0, j1;	/* objdump's listing of it */
	struct asmcall	*calls;
	size_t		 ncalls;
	struct asmjump	*jumps;
	size_t		 njumps;
	uint64_t	*self;		/* the sum of its instructions' costs */
	enum asm_unread	 unread;	/* why objdump's listing is not read */
};

struct asmsel {
	int		 have_instrs;	/* the profile has instruction costs */
	int		 have_jumps;	/*   and jumps */
	struct asmfunc	*funcs;		/* in the order of the printed rows */
	size_t		 nfuncs;
	struct asmobj	*objs;
	size_t		 nobjs;
	time_t		 profile_mtime;
	int		 have_mtime;
	size_t		 nlisted;	/* instructions of listings kept */
	const struct instrs *ins;	/* the profile's instructions */
};

struct asmsel	*asmsel_build(const struct asmsel_from *);
void		 asmsel_rows(const struct asmsel *, const struct asmfunc *,
		    struct asmrows *);
void		 asmsel_rows_free(struct asmrows *);
const char	*asmsel_text(const struct asmsel *, const struct asmfunc *,
		    struct asmrows *, size_t);
void		 asmsel_free(struct asmsel *);

#endif /* CGA_ASMSEL_H */
