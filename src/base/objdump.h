/*
 * objdump.h - machine code from a real disassembler: objdump(1) run on
 * an ELF object for a range of addresses, without a shell, its listing
 * read into (address, instruction text) pairs.
 */
#ifndef CGA_OBJDUMP_H
#define CGA_OBJDUMP_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

enum objdump_result {
	OBJDUMP_OK,
	OBJDUMP_MISSING,	/* no such file */
	OBJDUMP_UNREADABLE,	/* there, but cannot be opened */
	OBJDUMP_NOT_REGULAR,	/* not a regular file */
	OBJDUMP_NOT_ELF,	/* no ELF magic at its start */
	OBJDUMP_FAILED		/* objdump could not run, or failed */
};

/* One instruction of a listing. */
struct objdump_insn {
	uint64_t	 addr;
	size_t		 text;		/* offset of its text in the buffer */
};

/* Addresses lo to hi, both included. */
struct objdump_span {
	uint64_t	 lo, hi;
};

/* The instructions objdump listed, by address. */
struct objdump {
	struct objdump_insn *insns;
	size_t		 n, cap;
	char		*buf;		/* the texts, each NUL-terminated */
	size_t		 len, size;
};

enum objdump_result objdump_check(const char *, time_t *);
enum objdump_result objdump_read(struct objdump *, const char *,
		    const char *, uint64_t, uint64_t,
		    const struct objdump_span *, size_t, unsigned, char *,
		    size_t);
const char	*objdump_text(const struct objdump *, size_t);
size_t		 objdump_find(const struct objdump *, uint64_t);
void		 objdump_free(struct objdump *);

#endif /* CGA_OBJDUMP_H */
