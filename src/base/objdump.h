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
	uint64_t	 text;		/* offset of its text in the texts */
};

/* Addresses lo to hi, both included. */
struct objdump_span {
	uint64_t	 lo, hi;
};

/*
 * The instructions objdump listed, by address.  A big program's listing
 * is millions of instructions, hundreds of MB: past the first megabyte
 * each, the entries and their texts (each NUL-terminated, one after the
 * other as listed) are written to temporary files, and read back a
 * function at a time; in memory are the entries not yet written and
 * every OBJDUMP_BLOCK-th address, to find an address.
 */
#define OBJDUMP_BLOCK	256

struct objdump {
	size_t		 n;		/* instructions */
	struct objdump_insn *insns;	/* those from nout on */
	size_t		 nout, cap;
	uint64_t	*every;		/* the address of every
					   OBJDUMP_BLOCK-th */
	size_t		 nevery, everycap;
	char		*buf;		/* the texts from spooled on */
	size_t		 len, size;
	uint64_t	 spooled;	/* bytes of texts in the file */
	int		 spool;		/* its descriptor + 1, 0 if none */
	int		 ispool;	/* the entries' file, likewise */
	int		 nospool;	/* none could be made or written */
	size_t		 maxlen;	/* the longest text, its NUL included */
	uint64_t	 last;		/* the last address listed */
	int		 unsorted;	/* listed below one before it */
};

/* A run of a listing's instructions with their texts, in memory. */
struct objdump_texts {
	struct objdump_insn *insns;	/* j0 on */
	char		*buf;		/* texts read back, or NULL */
	const char	*base;		/* text offset lo is at base */
	uint64_t	 lo;
	size_t		 j0;
	int		 scattered;	/* text j at base + (j - j0) * maxlen */
};

enum objdump_result objdump_check(const char *, time_t *, uint64_t *);
enum objdump_result objdump_read(struct objdump *, const char *,
		    const char *, uint64_t, uint64_t,
		    const struct objdump_span *, size_t, unsigned, char *,
		    size_t);
void		 objdump_entries(const struct objdump *, size_t, size_t,
		    struct objdump_insn *);
void		 objdump_texts(const struct objdump *, size_t, size_t,
		    struct objdump_texts *);
const char	*objdump_text(const struct objdump *,
		    const struct objdump_texts *, size_t);
uint64_t	 objdump_addr(const struct objdump *, size_t);
void		 objdump_texts_free(struct objdump_texts *);
size_t		 objdump_find(const struct objdump *, uint64_t);
void		 objdump_free(struct objdump *);

#endif /* CGA_OBJDUMP_H */
