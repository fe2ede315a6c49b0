/*
 * instrs.h - the model of machine code, kept when asked (--asm): per
 * instruction of each function its self cost and source position, the
 * jumps (jump=, jcnd=) and the calls made from it, as a profile made
 * with --dump-instr=yes (and --collect-jumps=yes) holds them.  Or, kept
 * for the calls' sites alone (instrs_set_sites(), before anything is
 * added), the calls and each function's range of addresses, nothing of
 * each instruction: what pprof's export needs when every function goes
 * as one.
 */
#ifndef CGA_INSTRS_H
#define CGA_INSTRS_H

#include <stdint.h>

struct instrs;

/* One jump or conditional branch, summed over the lines giving it. */
struct ijump {
	uint32_t	 fn;		/* the function it is in */
	int		 cond;		/* jcnd= (else jump=) */
	uint64_t	 addr;		/* the jump instruction */
	uint64_t	 target;
	uint64_t	 executed;	/* jcnd=: times executed */
	uint64_t	 taken;		/* times jumped */
};

/* Calls from one instruction to one function. */
struct icall {
	uint32_t	 fn, callee;
	uint64_t	 addr;
	uint64_t	 count;
	uint32_t	 file;		/* the first call line's source */
	uint64_t	 line;		/*   position */
};

struct instrs	*instrs_new(unsigned);
void		 instrs_free(struct instrs *);
void		 instrs_set_sites(struct instrs *);
int		 instrs_sites(const struct instrs *);
void		 instrs_add_range(struct instrs *, uint32_t, uint64_t,
		    uint64_t);
int		 instrs_range(const struct instrs *, uint32_t, uint64_t *,
		    uint64_t *);
void		 instrs_reserve(struct instrs *, uint32_t);
int		 instrs_trim(struct instrs *);
void		 instrs_add(struct instrs *, uint32_t, uint64_t, uint32_t,
		    uint64_t, const uint64_t *, unsigned);
void		 instrs_add_jump(struct instrs *, uint32_t, int, uint64_t,
		    uint64_t, uint64_t, uint64_t);
void		 instrs_add_call(struct instrs *, uint32_t, uint64_t,
		    uint32_t, uint64_t, uint32_t, uint64_t, const uint64_t *);

void		 instrs_merge(struct instrs *, const struct instrs *,
		    const uint32_t *, const uint32_t *);
unsigned	 instrs_nevents(const struct instrs *);
uint32_t	 instrs_count(const struct instrs *);
int		 instrs_empty(const struct instrs *);
uint32_t	 instrs_fn(const struct instrs *, uint32_t);
void		 instrs_get(const struct instrs *, uint32_t, uint32_t *,
		    uint64_t *, uint32_t *, uint64_t *);
const uint32_t	*instrs_byfn(const struct instrs *, uint32_t, uint32_t *);
uint32_t	 instrs_find(const struct instrs *, uint32_t, uint64_t);
void		 instrs_cost(const struct instrs *, uint32_t, uint64_t *);
uint64_t	 instrs_cost1(const struct instrs *, uint32_t, unsigned);
uint32_t	 instrs_njumps(const struct instrs *);
const struct ijump *instrs_jump(const struct instrs *, uint32_t);
uint32_t	 instrs_ncalls(const struct instrs *);
const struct icall *instrs_call(const struct instrs *, uint32_t);
const uint64_t	*instrs_call_cost(const struct instrs *, uint32_t);

#endif /* CGA_INSTRS_H */
