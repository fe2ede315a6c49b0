/*
 * msg.h - the one diagnostics module: every message cg-annotate prints
 * on stderr about its input goes through msg().
 */
#ifndef CGA_MSG_H
#define CGA_MSG_H

#include <stdint.h>

enum msglevel {
	MSGL_OK = 0,		/* nothing worth an exit status */
	MSGL_WARNING = 0,	/* input understood in part; still exit 0 */
	MSGL_ERROR = 1,		/* bad input or I/O error */
	MSGL_USAGE = 2		/* bad command line */
};

/* Message kinds; keep in step with msg_table[] in msg.c and the man page. */
enum msgid {
	/* warnings */
	MSG_UNKNOWN_LINE,
	MSG_BAD_COSTLINE,
	MSG_TOO_MANY_COUNTS,
	MSG_NEGATIVE_COUNT,
	MSG_NUMBER_TOO_LARGE,
	MSG_COST_OVERFLOW,
	MSG_NEGATIVE_LINE,
	MSG_RELATIVE_FIRST,
	MSG_NO_FUNCTION,
	MSG_UNDEFINED_ID,
	MSG_REDEFINED_ID,
	MSG_BAD_NAME_ID,
	MSG_CALLS_NO_COST,
	MSG_BAD_CALLS,
	MSG_BAD_JUMP,
	MSG_JUMP_COSTS,
	MSG_BAD_POSITIONS,
	MSG_BAD_EVENT_DEF,
	MSG_EVENTS_DIFFER,
	MSG_BAD_SUMMARY,
	MSG_BAD_HEADER_VALUE,
	MSG_NUL_BYTE,
	MSG_NOT_REGULAR,
	MSG_SUMMARY_DIFFERS,
	/* errors */
	MSG_NOT_PROFILE,
	MSG_NO_EVENTS,
	MSG_EMPTY_EVENTS,
	MSG_EVENTS_REPEATED,
	MSG_DATA_BEFORE_EVENTS,
	MSG_BAD_VERSION,
	MSG_TOO_MANY_EVENTS,
	MSG_LONG_LINE,
	MSG_INPUTS_DIFFER,
	MSG_BAD_FORMULA,
	MSG_DERIVED_NEGATIVE,
	MSG_OPEN,
	MSG_READ,
	MSG_WRITE,
	MSG_TOO_LARGE,
	MSG__MAX
};

/* How many messages of one kind are printed before they are counted only. */
#define MSG_CAP	20

void		 msg(enum msgid, const char *, uint64_t, const char *, ...)
		    __attribute__((__format__(__printf__, 4, 5)));
void		 msg_note(const char *, ...)
		    __attribute__((__format__(__printf__, 1, 2)));
void		 msg_usage_error(const char *, ...)
		    __attribute__((__format__(__printf__, 1, 2)));
void		 msg_flush(void);
void		 msg_progress_enable(int, double);
void		 msg_progress_begin(const char *, uint64_t);
void		 msg_progress(uint64_t);
void		 msg_progress_end(void);
int		 msg_rc(void);
void		 msg_reset(void);
void		 msg_set_quiet(int);
int		 msg_quiet_set(int);
void		 msg_divert(unsigned *);
void		 msg_hold(void);
void		 msg_release(int);
unsigned long	 msg_count(enum msgid);
const char	*msg_text(enum msgid);
const char	*msg_excerpt(char *, size_t, const char *, size_t);

/* Room for an excerpt of at most 60 input bytes, each up to 4 bytes. */
#define MSG_EXCERPT	(4 * 60 + 4)

#endif /* CGA_MSG_H */
