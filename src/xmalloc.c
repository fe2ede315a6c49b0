/*
 * xmalloc.c - allocators that never return NULL: on failure they
 * print the reason and exit with status 1.
 */
#include "compat.h"

#include <sys/mman.h>

#include <err.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"

#define XMALLOC_PAD	(64 * 1024 * 1024)	/* heap growth, at least */
#define XMALLOC_TRIM	(1024 * 1024 * 1024)	/* kept when freed */

/* The end of the heap last advised, or 0: not asked to. */
static _Atomic uintptr_t xmalloc_top;

static void	xmalloc_advise(void);

/*
 * Ask for the heap in huge pages, for a program about to build tables
 * of tens of megabytes and touch them at random.  In pages of 4 KiB each
 * page costs a fault when first touched (most of the kernel's time in a
 * run) and the tables miss the TLB.  malloc is told to grow the heap in
 * steps of XMALLOC_PAD and not to give memory back below XMALLOC_TRIM;
 * each new stretch is advised to the kernel (madvise(2) MADV_HUGEPAGE)
 * as the allocators below see the heap grow, which backs it with
 * transparent huge pages where the system allows them.  Pages are still
 * taken only when touched.  Call it once, before the threads start.
 */
void
xmalloc_hugepages(void)
{
#if defined(M_TOP_PAD) && defined(M_TRIM_THRESHOLD) && defined(MADV_HUGEPAGE)
	void	*top;

	if (mallopt(M_TOP_PAD, XMALLOC_PAD) == 0 ||
	    mallopt(M_TRIM_THRESHOLD, XMALLOC_TRIM) == 0 ||
	    (top = sbrk(0)) == (void *)-1)
		return;
	atomic_store(&xmalloc_top, (uintptr_t)top);
#endif
}

/*
 * If the heap grew since it was last advised, advise the new stretch
 * (see xmalloc_hugepages()).  Either thread may find it grown; one
 * advises it.
 */
static void
xmalloc_advise(void)
{
#ifdef MADV_HUGEPAGE
	uintptr_t	old, top, start;

	if ((old = atomic_load_explicit(&xmalloc_top,
	    memory_order_relaxed)) == 0 ||
	    (top = (uintptr_t)sbrk(0)) <= old ||
	    !atomic_compare_exchange_strong(&xmalloc_top, &old, top))
		return;
	start = old & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
	/* Where the kernel has no huge pages it says so: no matter. */
	(void)madvise((void *)start, top - start, MADV_HUGEPAGE);
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
	xmalloc_advise();
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
	xmalloc_advise();
	return p;
}

/* Resize an array to nmemb elements of size bytes, checking overflow. */
void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if (SIZE_MAX / nmemb < size)
		errx(1, "reallocarray: %zu * %zu bytes is too large",
		    nmemb, size);
	if ((p = realloc(ptr, nmemb * size)) == NULL)
		err(1, "realloc(%zu * %zu)", nmemb, size);
	xmalloc_advise();
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

/*
 * Make the array p of *cap elements of size bytes hold at least need,
 * growing it geometrically so that adding one at a time stays linear.
 */
void *
xgrow(void *p, size_t *cap, size_t need, size_t size)
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
