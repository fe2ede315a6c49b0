/*
 * synth.c - writes a synthetic but realistic Callgrind profile of any
 * size, quickly and deterministically, for benchmarks and stress tests.
 *
 * usage: cga-synth [-gx] [-b bytes] [-e events] [-f functions] [-l files]
 *            [-o objects] [-s seed]
 *
 * With -g, a large program instead: one that grows with the file (a
 * function for every 5,000 bytes: 60,000 functions and 4.2 million
 * distinct lines in 300 MB, a file for every ten functions, an object
 * for every 2,500), each function spanning many distinct lines, and the events after the first three (cache and branch
 * simulation) mostly 0, left out at the end of a line as callgrind
 * does.  With -x also, the large program is C++ as compilers build it:
 * names of templates 60 to 2,500 characters long, and a third of each
 * function's lines inlined from a few of many headers (fi=/fe= at every
 * switch, lines scattered over each header's thousands), so that a
 * function has many (function, file) pairs of a few lines each.
 *
 * The program it describes has a fixed size (functions spread over files
 * and objects, each with a fixed range of addresses and lines).  Like
 * callgrind with --dump-every-bb or --combine-dumps, the output is a
 * series of parts, each holding every function once, grouped by object
 * and file; a bigger file has more parts, not a bigger program.  It
 * uses compressed names, relative subpositions, inlined files (fi=/fe=),
 * calls (with cfi=/cob= where the callee lives elsewhere), conditional
 * jumps and hexadecimal addresses.  Costs are small decimal numbers.
 */
#include "base/compat.h"

#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct func {
	unsigned	 obj, file;	/* indices */
	uint64_t	 addr;		/* first instruction */
	unsigned	 line;		/* first line */
	unsigned	 len;		/* instructions */
	int		 defined;	/* its fn= name was written */
};

static uint64_t	 rng = 0x9e3779b97f4a7c15ULL;	/* costs */
static uint64_t	 srng;				/* structure */
static unsigned	 weight = 1;			/* the function's costs */
static const struct func *sort_fns;

/* Order function indices by object, file, then index. */
static int
fn_cmp(const void *a, const void *b)
{
	const struct func	*x = &sort_fns[*(const unsigned *)a];
	const struct func	*y = &sort_fns[*(const unsigned *)b];

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return *(const unsigned *)a < *(const unsigned *)b ? -1 : 1;
}

/* Return the next pseudo-random number (xorshift64*). */
static uint64_t
next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

/* Return a pseudo-random number below n. */
static unsigned
below(unsigned n)
{
	return (unsigned)(next() % n);
}

/* Return a number below n from the structure generator, which is
 * reset for each function so that every part writes the same shape. */
static unsigned
shape(unsigned n)
{
	srng ^= srng >> 12;
	srng ^= srng << 25;
	srng ^= srng >> 27;
	return (unsigned)((srng * 0x2545f4914f6cdd1dULL) % n);
}

/* A plain cost line's count of event e. */
static unsigned
cost(unsigned e, int grow)
{
	if (!grow || e == 0)
		return (1 + below(9)) * weight;
	if (e < 3)
		return below(4) * weight;
	return below(20) == 0 ? (1 + below(3)) * weight : 0;
}

/*
 * Return the weight of function i's costs in a C++ program: 1 for most,
 * up to 2^20 for a few, so that (as in real programs) a small share of
 * the functions holds most of the cost.
 */
static unsigned
fweight(unsigned i)
{
	double	 x = (double)((i * 2654435761U) % 1000000) / 1e6;

	return 1U << (unsigned)(20 * x * x * x * x * x * x * x * x * x * x);
}

/*
 * Write the counts c[0..n-1] and end the line; with trim, zeros at the
 * end are left out, as callgrind writes them.  Return the bytes written.
 */
static int
counts(const unsigned *c, unsigned n, int trim)
{
	unsigned	e;
	int		w = 0;

	while (trim && n > 1 && c[n - 1] == 0)
		n--;
	for (e = 0; e < n; e++)
		w += printf(" %u", c[e]);
	return w + printf("\n");
}

/*
 * Write the name of function i: with cxx, a C++ template instance whose
 * arguments nest and repeat, 60 to 2,500 characters as in real programs
 * of the standard library, deterministic in i.
 */
static int
fname(unsigned i, int cxx)
{
	static const char *const tmpl[] = { "std::vector", "std::pair",
	    "std::_Rb_tree_const_iterator", "std::function", "std::map" };
	static const char *const kind[] = { "Node", "Value", "Entry",
	    "Event", "Key" };
	unsigned	 n, k, x;
	int		 w;

	if (!cxx)
		return printf("ns%u::Class%u::method_%u(int, char const*)",
		    i % 13, i % 101, i);
	w = printf("ns%u::detail::Impl%u<", i % 13, i % 997);
	n = 1 + (i * 2654435761U >> 7) % 24;
	for (k = 0; k < n; k++) {
		x = i + k;
		w += printf("%s%s<ns%u::%s%u const*, std::__cxx11::basic_"
		    "string<char, std::char_traits<char>, std::allocator<char>"
		    " > >", k ? ", " : "", tmpl[x % 5], x % 13, kind[x / 5 % 5],
		    x % 89);
	}
	return w + printf(">::method_%u<%s>(ns%u::Key%u const&, "
	    "unsigned long)", i, i % 3 ? "true" : "false", i % 13, i % 53);
}

/*
 * Write 1 to 4 lines of function fn (at address *a, which advances)
 * inlined from one of its headers, then fe= back to file back: headers
 * are files after the program's nfile, defined on first use (done).
 */
static int
inlined(unsigned fn, uint64_t *a, unsigned step, unsigned nfile,
    unsigned back, unsigned nev, unsigned nhdr, unsigned *done)
{
	unsigned	 h, k, n, line, c[13], e;
	int		 w;

	h = (fn * 7 + shape(6) * 131) % nhdr;
	line = 10 + (unsigned)(((uint64_t)fn * 40503 + h * 2654435761U) %
	    6000) + shape(60);
	w = done[h]++ ? printf("fi=(%u)\n", nfile + 1 + h) :
	    printf("fi=(%u) /usr/include/c++/12/bits/stl_hdr%u.h\n",
	    nfile + 1 + h, h);
	n = 1 + shape(4);
	for (k = 0; k < n; k++) {
		*a += step;
		w += printf("+%u %u", step, line + k * (1 + shape(3)));
		for (e = 0; e < nev; e++)
			c[e] = cost(e, 1);
		w += counts(c, nev, 1);
	}
	return w + printf("fe=(%u)\n", back + 1);
}

static __dead void
usage(void)
{
	fprintf(stderr, "usage: %s [-gx] [-b bytes] [-e events] [-f functions] "
	    "[-l files] [-o objects] [-s seed]\n", getprogname());
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct func	*fns;
	unsigned	 nev = 4, nfn = 20000, nfile = 2000, nobj = 20, i, k, e;
	unsigned	*obj_done, *file_done, cur_obj = ~0U, cur_file = ~0U;
	unsigned	 inl_done[50] = { 0 }, *order, fi, part = 0;
	uint64_t	 bytes = 100 * 1000 * 1000, seed = 1, addr;
	long long	 written = 0;
	unsigned	 pl, c[13], nhdr = 1, *hdr_done;
	int		 ch, grow = 0, cxx = 0;
	char		 buf[256];

	while ((ch = getopt(argc, argv, "b:e:f:gl:o:s:x")) != -1) {
		switch (ch) {
		case 'g':
			grow = 1;
			break;
		case 'x':
			cxx = 1;
			break;
		case 'b':
			bytes = strtoull(optarg, NULL, 10);
			break;
		case 'e':
			nev = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'f':
			nfn = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'l':
			nfile = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'o':
			nobj = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 10);
			break;
		default:
			usage();
		}
	}
	if (nev < 1 || nev > 13 || nfn < 1 || nfile < 1 || nobj < 1 ||
	    (cxx && !grow))
		usage();
	if (grow) {
		nfn = bytes / 5000 > 100 ? (unsigned)(bytes / 5000) : 100;
		nfile = nfn / 10;
		nobj = nfn / 2500 > 0 ? nfn / 2500 : 1;
	}
	if (cxx)
		nhdr = 50 + nfile / 5;
	rng ^= seed * 0xbf58476d1ce4e5b9ULL;
	fns = calloc(nfn, sizeof(*fns));
	obj_done = calloc(nobj, sizeof(*obj_done));
	file_done = calloc(nfile, sizeof(*file_done));
	hdr_done = calloc(nhdr, sizeof(*hdr_done));
	if (fns == NULL || obj_done == NULL || file_done == NULL ||
	    hdr_done == NULL)
		err(1, NULL);
	addr = 0x10000;
	for (i = 0; i < nfn; i++) {
		fns[i].obj = below(nobj);
		fns[i].file = below(nfile);
		fns[i].addr = addr;
		fns[i].line = 10 + below(5000);
		fns[i].len = 4 + below(60);
		addr += fns[i].len * 4 + 16;
	}
	/* Functions in order of object, then file, as callgrind dumps. */
	if ((order = calloc(nfn, sizeof(*order))) == NULL)
		err(1, NULL);
	for (i = 0; i < nfn; i++)
		order[i] = i;
	sort_fns = fns;
	qsort(order, nfn, sizeof(*order), fn_cmp);
	if (setvbuf(stdout, NULL, _IOFBF, 1 << 20) != 0)
		err(1, "setvbuf");
	written += printf("# callgrind format\nversion: 1\n"
	    "creator: cga-synth\npid: 1\ncmd: synthetic --seed=%" PRIu64
	    "\npart: 1\n\ndesc: I1 cache: \ndesc: Trigger: Program "
	    "termination\n\npositions: instr line\nevents:", seed);
	/* Later parts repeat this header's positions: and events:. */
	for (e = 0; e < nev; e++)
		written += printf(" %s", (const char *[]){ "Ir", "Dr", "Dw",
		    "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", "Bc",
		    "Bcm", "Bi", "Bim" }[e]);
	written += printf("\n\n");
	for (fi = 0; (uint64_t)written < bytes; fi = (fi + 1) % nfn) {
		struct func	*f = &fns[order[fi]];
		unsigned	 lines, line = f->line;
		uint64_t	 a = f->addr;

		srng = (seed + 1) * 0x9e3779b97f4a7c15ULL ^ (order[fi] + 1) *
		    0xbf58476d1ce4e5b9ULL;
		lines = grow ? 60 + shape(40) : 8 + shape(40);
		weight = cxx ? fweight(order[fi]) : 1;

		if (fi == 0) {
			written += printf("\npart: %u\ndesc: Trigger: Dump "
			    "%u\n\n", part + 1, part + 1);
			part++;
			cur_obj = cur_file = ~0U;
		}

		/* Names: compressed, defined on first use. */
		if (f->obj != cur_obj) {
			cur_obj = f->obj;
			written += obj_done[cur_obj]++ ? printf("ob=(%u)\n",
			    cur_obj + 1) : printf("ob=(%u) /usr/lib/libsynth"
			    "%u.so\n", cur_obj + 1, cur_obj);
		}
		if (f->file != cur_file) {
			cur_file = f->file;
			written += file_done[cur_file]++ ? printf("fl=(%u)\n",
			    cur_file + 1) : printf("fl=(%u) src/dir%u/file%u.c"
			    "\n", cur_file + 1, cur_file % 37, cur_file);
		}
		i = (unsigned)(f - fns);
		if (f->defined)
			written += printf("fn=(%u)\n", i + 1);
		else
			written += printf("fn=(%u) ", i + 1) + fname(i, cxx) +
			    printf("\n");
		f->defined = 1;
		written += printf("0x%" PRIx64 " %u", a, line);
		pl = line;
		for (e = 0; e < nev; e++)
			written += printf(" %u", 1 + below(3));
		written += printf("\n");
		for (k = 1; k < lines; k++) {
			unsigned	 step = 1 + shape(4), r = shape(100);

			if (r < 6) {
				/* A call, to a function maybe elsewhere. */
				struct func	*g = &fns[shape(nfn)];

				if (g->obj != f->obj)
					written += obj_done[g->obj]++ ?
					    printf("cob=(%u)\n", g->obj + 1) :
					    printf("cob=(%u) /usr/lib/libsynth"
					    "%u.so\n", g->obj + 1, g->obj);
				if (g->file != cur_file)
					written += file_done[g->file]++ ?
					    printf("cfi=(%u)\n", g->file + 1) :
					    printf("cfi=(%u) src/dir%u/file%u.c"
					    "\n", g->file + 1, g->file % 37,
					    g->file);
				written += printf("cfn=(%u)",
				    (unsigned)(g - fns) + 1);
				if (!g->defined)
					written += printf(" ") +
					    fname((unsigned)(g - fns), cxx);
				written += printf("\n");
				g->defined = 1;
				written += printf("calls=%u 0x%" PRIx64 " %u\n"
				    "* *", 1 + below(50), g->addr, g->line);
				for (e = 0; e < nev; e++)
					c[e] = !grow || e < 3 ?
					    10 + below(100000) :
					    below(5) == 0 ? below(1000) : 0;
				written += counts(c, nev, grow);
				continue;
			}
			if (r < 12) {
				written += printf("jcnd=%u/%u +%u *\n* *\n",
				    below(10), 10 + below(20), 8 * step);
				continue;
			}
			if (cxx && r < 45) {
				written += inlined(i, &a, step, nfile,
				    cur_file, nev, nhdr, hdr_done);
				continue;
			}
			if (r < 14) {
				/* A few lines inlined from a header. */
				pl = 20 + f->file % 30;
				if (inl_done[f->file % 50]++)
					written += printf("fi=(%u)\n",
					    nfile + 1 + f->file % 50);
				else
					written += printf("fi=(%u) include/"
					    "inline%u.h\n", nfile + 1 +
					    f->file % 50, f->file % 50);
				written += printf("+%u %u 1\n+3 +1 2\nfe=(%u)\n",
				    step, pl, cur_file + 1);
				pl++;
				a += step + 3;
				continue;
			}
			a += step;
			line += grow ? 1 + shape(2) : shape(3);
			if (!grow && line > f->line + 50)
				line = f->line;
			if (line == pl)
				snprintf(buf, sizeof(buf), "*");
			else if (line > pl && line - pl < 100)
				snprintf(buf, sizeof(buf), "+%u", line - pl);
			else
				snprintf(buf, sizeof(buf), "%u", line);
			pl = line;
			written += printf("+%u %s", step, buf);
			for (e = 0; e < nev; e++)
				c[e] = cost(e, grow);
			written += counts(c, nev, grow);
		}
		if (a > f->addr + 4 * f->len + 1000)
			a = f->addr;
	}
	printf("\n");
	if (fflush(stdout) != 0 || ferror(stdout))
		err(1, "stdout");
	free(fns);
	free(obj_done);
	free(file_done);
	free(hdr_done);
	free(order);
	return 0;
}
