/*
 * xmalloc.c - allocators that never return NULL: on failure they
 * print the reason and exit with status 1.
 */
#include "base/compat.h"

#include <sys/mman.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xmalloc.h"

#define XHUGE	(2 * 1024 * 1024)	/* tables this big: huge pages */
#define XFILL	(64 * 1024)		/* fills this big: pages at once */
#define XMMAP_MAX	65536		/* malloc's default M_MMAP_MAX */

/*
 * glibc maps a block asked for XHUGE * k - XHEAD bytes as exactly k huge
 * pages (its two words of header, its chunks a multiple of 16 bytes).
 */
#if defined(__GLIBC__) && SIZE_MAX > 0xffffffffu
#define XHEAD	(4 * sizeof(size_t))
#else
#define XHEAD	0			/* elsewhere: sizes as asked */
#endif

/* Return the system's page size. */
static uintptr_t
xpagesize(void)
{
	long	n = sysconf(_SC_PAGESIZE);

	return n > 0 ? (uintptr_t)n : 4096;
}

/*
 * Make the whole pages within the bytes [from, to) present at once, as
 * if written (xfill(), xahead()); an older kernel says EINVAL, and they
 * are then made present one by one as they are written.
 */
static void
xpresent(uintptr_t from, uintptr_t to)
{
#if defined(MADV_POPULATE_WRITE)
	uintptr_t	pg = xpagesize();

	from = (from + pg - 1) / pg * pg;
	to = to / pg * pg;
	if (from < to)
		(void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
	(void)from;
	(void)to;
#endif
}

/*
 * Ask for the pages of the size bytes at p, a table of XHUGE bytes or
 * more, to be huge where the system lets a program choose (transparent
 * huge pages set to "madvise").
 */
static void
xhuge(void *p, size_t size)
{
#if defined(MADV_HUGEPAGE)
	uintptr_t	a = (uintptr_t)p, pg = xpagesize();

	if (size < XHUGE)
		return;
	(void)madvise((void *)(a & ~(pg - 1)),
	    ((a + size + pg - 1) & ~(pg - 1)) - (a & ~(pg - 1)),
	    MADV_HUGEPAGE);
#else
	(void)p;
	(void)size;
#endif
}

/*
 * Return the size to ask malloc for a block of at least size bytes: a
 * block of XHUGE bytes or more is made a whole number of huge pages with
 * malloc's header.  Mapped on its own, it then starts on a huge page's
 * boundary (Linux places a mapping of whole huge pages so), and when it
 * grows, mremap(2) moves it to another such boundary: its huge pages are
 * moved whole.  A block of any other size is moved to an address with
 * another offset within a huge page, where its huge pages are split
 * into small ones, and some hypervisors then trap on the first access to
 * each small page: cc1plus's instructions, four arrays grown to 135 MB,
 * took 0.19 s to read once after their last move, 7 ms once on huge
 * pages.  At most a huge page less XHEAD bytes more is asked for, never
 * written by the caller: resident only where huge pages are.
 */
static size_t
xround(size_t size)
{
	if (XHEAD == 0 || size < XHUGE || size > SIZE_MAX - 2 * XHUGE)
		return size;
	return (size + XHEAD + XHUGE - 1) / XHUGE * XHUGE - XHEAD;
}

/*
 * Fill the n bytes at p with c, as memset(3) does; a range of XFILL bytes
 * or more has its pages made present in one call first.  The first write
 * to a fresh page traps, and under some hypervisors such a trap costs
 * several microseconds: on one, 11-14 us a page written fresh, 5 us a
 * page made present in one call and then written.
 */
void
xfill(void *p, int c, size_t n)
{
	if (n >= XFILL)
		xpresent((uintptr_t)p, (uintptr_t)p + n);
	memset(p, c, n);
}

/*
 * An array of cap bytes at base, filled in order, now reaches byte end
 * from byte from: if that enters a new stretch of XFILL bytes (or starts
 * the array), make the stretches entered present at once (see xfill()),
 * so that the pages ahead are not a trap each.  At most XFILL bytes past
 * end are made present; an array smaller than XFILL is left alone.
 */
void
xahead(void *base, size_t from, size_t end, size_t cap)
{
	size_t	first, stop;

	if (cap < XFILL || end > cap || (from != 0 && end / XFILL ==
	    from / XFILL))
		return;
	first = from == 0 ? 0 : (from / XFILL + 1) * XFILL;
	stop = (end / XFILL + 1) * XFILL;
	xpresent((uintptr_t)base + first, (uintptr_t)base +
	    (stop < cap ? stop : cap));
}

/*
 * xahead() for an array of cap elements of size bytes at base filled in
 * order, which now reaches element i.
 */
void
xahead_at(void *base, size_t i, size_t size, size_t cap)
{
	xahead(base, i * size, (i + 1) * size, cap * size);
}

/*
 * Give malloc's heap room for about size bytes more, on huge pages:
 * whatever malloc hands out of it next (tables of every size, until the
 * room is used up) is backed by transparent huge pages where the system
 * lets a program ask (set to "madvise").  A fresh page costs a trap the
 * first time it is written, and under some hypervisors the trap costs
 * far more than clearing the page: on one, 64 MB written fresh took
 * 0.22-0.29 s in 4 KB pages (13-17 us each) and 0.005-0.15 s in huge
 * pages (under 1 to 9 us each 4 KB).  The room is taken as one block,
 * with mapped blocks forbidden for a moment so that it comes from the
 * heap, marked for huge pages and freed; the heap then keeps it (its
 * free top is given back only beyond twice that).  Nothing is written:
 * pages never used are never resident; those used are, 2 MB at a time,
 * and so are the holes that tables growing in the heap leave (mapped on
 * their own, they would be unmapped when freed): the peak is higher.
 */
void
xmalloc_room(size_t size)
{
#if defined(M_MMAP_MAX) && defined(M_TRIM_THRESHOLD) && \
    defined(MADV_HUGEPAGE)
	uintptr_t	from, to;
	void		*p;

	if (size < 2 * XHUGE)
		return;
	(void)mallopt(M_TRIM_THRESHOLD, size < INT_MAX / 2 ?
	    (int)(2 * size) : INT_MAX);
	(void)mallopt(M_MMAP_MAX, 0);
	p = malloc(size);
	(void)mallopt(M_MMAP_MAX, XMMAP_MAX);
	if (p == NULL)
		return;
	from = ((uintptr_t)p + XHUGE - 1) & ~(uintptr_t)(XHUGE - 1);
	to = ((uintptr_t)p + size) & ~(uintptr_t)(XHUGE - 1);
	if (from < to)
		(void)madvise((void *)from, to - from, MADV_HUGEPAGE);
	free(p);
#else
	(void)size;
#endif
}

/*
 * Give malloc's heap room on huge pages (xmalloc_room()) for as many
 * bytes as are allocated now, up to max: what is made next (a report's
 * tables) grows with what was read.  Below min bytes allocated, none:
 * the first byte used of a huge page makes all 2 MB of it resident.
 */
void
xmalloc_room_more(size_t min, size_t max)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
	struct mallinfo2	mi = mallinfo2();
	size_t			used = mi.uordblks + mi.hblkhd;

	if (used >= min)
		xmalloc_room(used < max ? used : max);
#else
	(void)min;
	(void)max;
#endif
}

/* Allocate size bytes or exit. */
void *
xmalloc(size_t size)
{
	void	*p;

	if (size == 0)
		size = 1;
	if ((p = malloc(size)) == NULL)
		err(1, "malloc(%zu)", size);
	xhuge(p, size);
	return p;
}

/*
 * Allocate size bytes or exit; a block of XHUGE bytes or more starts on
 * a huge page's boundary, so that malloc's own words before it do not
 * keep its first huge page small (for blocks filled at once).
 */
void *
xmalloc_huge(size_t size)
{
	void	*p;
	int	 e;

	if (size < XHUGE)
		return xmalloc(size);
	if ((e = posix_memalign(&p, XHUGE, size)) != 0) {
		errno = e;
		err(1, "posix_memalign(%zu)", size);
	}
	xhuge(p, size);
	return p;
}

/* Allocate a zeroed array of nmemb elements of size bytes or exit. */
void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = calloc(nmemb, size)) == NULL)
		err(1, "calloc(%zu, %zu)", nmemb, size);
	xhuge(p, nmemb * size);
	return p;
}

/*
 * Resize an array to nmemb elements of size bytes, checking overflow.
 * A block in the heap that grows to XHUGE bytes or more is moved here:
 * realloc(3) would copy it into a fresh block (mapped on its own when
 * past malloc's threshold) before that could be asked for huge pages,
 * each of its pages written first in a trap of its own (cc1plus: 3,700
 * of 5,800 traps a run).  A mapped block grows where it is (mremap(2)),
 * asked for as whole huge pages (xround()).  The heap lies below the
 * program break, mapped blocks above it where the system maps from the
 * top down, as Linux does; where not, mapped blocks are moved here too
 * (and not rounded), still right.
 */
void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void	*p;
	size_t	 want;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if (SIZE_MAX / nmemb < size)
		errx(1, "reallocarray: %zu * %zu bytes is too large",
		    nmemb, size);
	want = nmemb * size;
#if defined(__GLIBC__)
	if (ptr != NULL && want >= XHUGE) {
		size_t	old;

		if ((uintptr_t)ptr >= (uintptr_t)sbrk(0))
			want = xround(want);	/* mapped */
		else if ((old = malloc_usable_size(ptr)) < want) {
			p = xmalloc(want);
			memcpy(p, ptr, old);
			free(ptr);
			return p;
		}
	}
#endif
	if ((p = realloc(ptr, want)) == NULL)
		err(1, "realloc(%zu * %zu)", nmemb, size);
	xhuge(p, want);
	return p;
}

/* Copy a string or exit. */
char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* Copy len bytes of s into a new NUL-terminated string or exit. */
char *
xstrndup(const char *s, size_t len)
{
	char	*p;

	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* Return a new string of la bytes of a, sep and lb bytes of b, or exit. */
char *
xjoin(const char *a, size_t la, char sep, const char *b, size_t lb)
{
	char	*p;

	p = xmalloc(la + lb + 2);
	memcpy(p, a, la);
	p[la] = sep;
	memcpy(p + la + 1, b, lb);
	p[la + 1 + lb] = '\0';
	return p;
}

/*
 * Make the array p of *cap elements of size bytes hold at least need,
 * growing it geometrically so that adding one at a time stays linear
 * (xgrow(), inline, calls it where the room is short).
 */
void *
xgrow_slow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t	n = *cap;

	if (need <= n && p != NULL)
		return p;
	if (n < 16)
		n = 16;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			errx(1, "xgrow: %zu elements is too many", need);
		n *= 2;
	}
	p = xreallocarray(p, n, size);
	*cap = n;
	return p;
}
