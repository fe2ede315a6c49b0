/*
 * compat.h - portability glue, included first by every source file.
 *
 * libbsd 0.11.7 (overlay mode) leaves __unused undefined, which breaks
 * RB_GENERATE_STATIC, and has no OpenBSD __dead: define both here,
 * before any <sys/tree.h> or <sys/queue.h>.
 */
#ifndef CGA_COMPAT_H
#define CGA_COMPAT_H

#include <sys/cdefs.h>

/* OpenBSD's strnvis() argument order, and no libbsd warning about it. */
#ifndef LIBBSD_OPENBSD_VIS
#define LIBBSD_OPENBSD_VIS
#endif

#ifndef __unused
#define __unused	__attribute__((__unused__))
#endif
#ifndef __dead
#define __dead		__attribute__((__noreturn__))
#endif
#ifndef __always_inline
#define __always_inline	__inline __attribute__((__always_inline__))
#endif
#ifndef __printflike
#define __printflike(f, a) __attribute__((__format__(__printf__, f, a)))
#endif

#endif /* CGA_COMPAT_H */
