/*
 * hooks.h - settings that only tests make, to reach paths a test file
 * is too small for: none is an option, none is in a public struct.
 * Zero is the program's behaviour; a test sets them before it reads or
 * prints and leaves them while a second thread runs.
 */
#ifndef CGA_HOOKS_H
#define CGA_HOOKS_H

#include <stddef.h>
#include <stdint.h>

struct hooks {
	size_t	 chunk;		/* read a file of any size in two threads,
				   in chunks of about this many bytes, an
				   eighth of that near the end (ahead.c) */
	size_t	*nadopted;	/* if not NULL, counts the segments read
				   ahead and taken (ahead.c) */
	int	 alternate;	/* the second thread reads the odd chunks,
				   whatever the speeds (ahead.c) */
	size_t	 split;		/* functions from which the text list is
				   printed in two threads (report_text.c) */
	size_t	 held;		/* bytes of a listing's texts kept in
				   memory before a write (objdump.c) */
	size_t	 asm_block;	/* a listing's rows read at once
				   (asmsel.c) */
	size_t	 compact;	/* instructions of functions given again
				   summed after every this many (instrs.c) */
	uint32_t compact_split;	/* instructions from which those given
				   again are dropped in two threads
				   (instrs.c) */
	size_t	 pack_after;	/* bytes of long strings a table holds
				   before it compresses them (strtab.c) */
	size_t	*nstats;	/* if not NULL, counts the dictionaries
				   made with statistics (strtab.c) */
	size_t	 pprof_frames;	/* location ids pprof's samples may hold,
				   in place of REPORT_PPROF_FRAMES (report.h) */
	int	 pprof_uncut;	/* pprof's dry walk with every function
				   whole not cut at the budget
				   (report_pprof.c) */
	uint32_t sum_split;	/* vectors from which sums by group are
				   made in two threads (packed.c) */
	int	 ends_in_place;	/* the stacks' ends put in order in place
				   whatever their number (flame.c) */
	size_t	 cgw_block;	/* items in a block of the callgrind
				   export's text, made by two threads in
				   turn (report_callgrind.c) */
	int	 gzip_zlib;	/* gzip input inflated by zlib even where
				   ISA-L is built in (input.c) */
	int	 ss_serial;	/* speedscope's profiles made and written
				   in turn in one thread, however many
				   (report_speedscope.c) */
};

extern struct hooks	hooks;

#endif /* CGA_HOOKS_H */
