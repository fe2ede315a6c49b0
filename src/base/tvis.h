/*
 * tvis.h - the one rule for bytes of files that are not ours (names and
 * lines of a profile, source lines, objdump's text) on their way to a
 * terminal: what a terminal could act on is written as a C escape.
 */
#ifndef CGA_TVIS_H
#define CGA_TVIS_H

#include <stddef.h>
#include <stdio.h>

/* Where the bytes go. */
enum tvis_mode {
	TVIS_RAW,	/* not a terminal: every byte as it is */
	TVIS_ASCII,	/* a terminal: printable ASCII as it is */
	TVIS_UTF8	/* a UTF-8 terminal: printable characters as they are */
};

/* What the bytes are. */
enum tvis_kind {
	TVIS_NAME,	/* a name: tab, newline and backslash escaped too */
	TVIS_LINE,	/* a line on a screen: tab and backslash kept */
	TVIS_TEXT	/* lines of text: tab, backslash, the lines' ends kept */
};

enum tvis_mode	 tvis_mode_of(int);
size_t		 tvis_size(size_t);
size_t		 tvis_encode(char *, const char *, size_t, enum tvis_mode,
		    enum tvis_kind);
size_t		 tvis_write(FILE *, const char *, size_t, int, enum tvis_mode,
		    enum tvis_kind);
FILE		*tvis_fopen(FILE *, enum tvis_mode);

#endif /* CGA_TVIS_H */
