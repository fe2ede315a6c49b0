/*
 * fuzz.c - a libFuzzer target over the whole parse-and-report path: the
 * input is a profile; its first two bytes also pick the report's
 * options (tree, inclusive, annotation, context; JSON, --totals,
 * --per-part, or a difference of the input's two halves), or have the
 * input read from a file in two threads, in small chunks, whose report
 * and model (every function, line and arc) must be those of reading it
 * in order, machine code kept included (else the target aborts).  Its
 * third byte adds: output as to a terminal (tvis.c), UTF-8 or not; a
 * --function expression; machine code disassembled by a stub objdump
 * (a script of fixed, hostile text) from an object "o" under --objdir.
 * Built with -DCGA_FUZZ_REPLAY, it is instead a program that runs the
 * same function on the files named on its command line (the regression
 * inputs under testdata/fuzz/, replayed by ctest in every build).
 */
#define _GNU_SOURCE	1		/* memfd_create() */
#include "base/compat.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/diff.h"
#include "analysis/fold.h"
#include "base/hooks.h"
#include "base/msg.h"
#include "base/rematch.h"
#include "base/tvis.h"
#include "model/instrs.h"
#include "model/profile.h"
#include "read/load.h"
#include "read/parse.h"
#include "select/select.h"
#include "view/format.h"
#include "view/report.h"

int		LLVMFuzzerTestOneInput(const uint8_t *, size_t);
static const char *fuzz_stub(void);
static void	fuzz_instrs_same(const struct profile *,
		    const struct profile *);
static int	fuzz_same_func(const struct profile *, uint32_t,
		    const struct profile *, uint32_t);
static void	fuzz_model_same(const struct profile *,
		    const struct profile *);
static void	fuzz_ahead(const uint8_t *, size_t,
		    const struct report_opts *, const struct report_run *,
		    size_t, int);

/* Abort unless p and q kept the same machine code, in the same order. */
static void
fuzz_instrs_same(const struct profile *p, const struct profile *q)
{
	const struct instrs	*a = profile_instrs(p), *b = profile_instrs(q);
	uint64_t		 aa, la, ab, lb, *costa, *costb;
	uint32_t		 i, fa, fb, sa, sb, n;
	unsigned		 e;

	n = a != NULL ? instrs_count(a) : 0;
	if (n != (b != NULL ? instrs_count(b) : 0))
		abort();
	for (i = 0; i < n; i++) {
		instrs_get(a, i, &fa, &aa, &sa, &la);
		instrs_get(b, i, &fb, &ab, &sb, &lb);
		/* Ids of one profile are not the other's: compare names. */
		if (aa != ab || la != lb || strcmp(profile_str(p, sa),
		    profile_str(q, sb)) != 0 || !fuzz_same_func(p, fa, q, fb))
			abort();
		costa = calloc(instrs_nevents(a) + 1, sizeof(*costa));
		costb = calloc(instrs_nevents(a) + 1, sizeof(*costb));
		if (costa == NULL || costb == NULL)
			abort();
		instrs_cost(a, i, costa);
		instrs_cost(b, i, costb);
		for (e = 0; e < instrs_nevents(a); e++)
			if (costa[e] != costb[e])
				abort();
		free(costa);
		free(costb);
	}
	if (n == 0)
		return;
	if (instrs_njumps(a) != instrs_njumps(b) ||
	    instrs_ncalls(a) != instrs_ncalls(b))
		abort();
	for (i = 0; i < instrs_njumps(a); i++) {
		const struct ijump	*ja = instrs_jump(a, i);
		const struct ijump	*jb = instrs_jump(b, i);

		if (ja->cond != jb->cond || ja->addr != jb->addr ||
		    ja->target != jb->target || ja->executed != jb->executed ||
		    ja->taken != jb->taken || !fuzz_same_func(p, ja->fn, q,
		    jb->fn))
			abort();
	}
	for (i = 0; i < instrs_ncalls(a); i++) {
		const struct icall	*ca = instrs_call(a, i);
		const struct icall	*cb = instrs_call(b, i);

		if (ca->addr != cb->addr || ca->count != cb->count ||
		    !fuzz_same_func(p, ca->fn, q, cb->fn) ||
		    !fuzz_same_func(p, ca->callee, q, cb->callee))
			abort();
		for (e = 0; e < instrs_nevents(a); e++)
			if (instrs_call_cost(a, i)[e] !=
			    instrs_call_cost(b, i)[e])
				abort();
	}
}

/*
 * Abort unless p and q hold the same functions, lines and call arcs, in
 * the same order: a line or arc twice, which reports sum, differs here.
 */
static void
fuzz_model_same(const struct profile *p, const struct profile *q)
{
	uint64_t	*ca, *cb, la, lb;
	uint32_t	 i, fa, fb, sa, sb, ea, eb;
	unsigned	 e, n = profile_nevents(p);

	if (profile_nfuncs(p) != profile_nfuncs(q) ||
	    profile_nlines(p) != profile_nlines(q) ||
	    profile_narcs(p) != profile_narcs(q) || n != profile_nevents(q))
		abort();
	for (i = 0; i < profile_nfuncs(p); i++)
		if (!fuzz_same_func(p, i, q, i))
			abort();
	if ((ca = calloc(n + 1, sizeof(*ca))) == NULL ||
	    (cb = calloc(n + 1, sizeof(*cb))) == NULL)
		abort();
	for (i = 0; i < profile_nlines(p); i++) {
		profile_line(p, i, &fa, &sa, &la);
		profile_line(q, i, &fb, &sb, &lb);
		profile_line_cost(p, i, ca);
		profile_line_cost(q, i, cb);
		if (fa != fb || la != lb || strcmp(profile_str(p, sa),
		    profile_str(q, sb)) != 0 || memcmp(ca, cb, n *
		    sizeof(*ca)) != 0)
			abort();
	}
	for (i = 0; i < profile_narcs(p); i++) {
		profile_arc(p, i, &fa, &ea, &sa, &la);
		profile_arc(q, i, &fb, &eb, &sb, &lb);
		if (fa != fb || ea != eb || la != lb ||
		    strcmp(profile_str(p, sa), profile_str(q, sb)) != 0 ||
		    profile_arc_count(p, i) != profile_arc_count(q, i))
			abort();
		for (e = 0; e < n; e++)
			if (profile_arc_cost(p, i)[e] !=
			    profile_arc_cost(q, i)[e])
				abort();
	}
	free(ca);
	free(cb);
}

/* Return nonzero if function fp of p and fq of q have the same name. */
static int
fuzz_same_func(const struct profile *p, uint32_t fp, const struct profile *q,
    uint32_t fq)
{
	uint32_t	o1, f1, n1, o2, f2, n2;

	profile_func(p, fp, &o1, &f1, &n1);
	profile_func(q, fq, &o2, &f2, &n2);
	return strcmp(profile_str(p, o1), profile_str(q, o2)) == 0 &&
	    strcmp(profile_str(p, f1), profile_str(q, f2)) == 0 &&
	    strcmp(profile_str(p, n1), profile_str(q, n2)) == 0;
}

/*
 * Read the input from a file in two threads, in chunks of about chunk
 * bytes (the second thread reading the odd ones if alternate, else those
 * it chooses), its long names compressed from the first, and in order
 * from memory; abort unless both parse alike and give the same report.
 */
static void
fuzz_ahead(const uint8_t *data, size_t size, const struct report_opts *o,
    const struct report_run *run, size_t chunk, int alternate)
{
	struct parse_opts	 po;
	struct profile		*p, *q;
	FILE			*fa, *fb;
	char			 path[64], *a = NULL, *b = NULL;
	size_t			 alen = 0, blen = 0;
	int			 fd, ra, rb;

	/*
	 * A file read decompresses gzip and zstd data; the buffer parser
	 * takes bytes as they are: nothing to compare.
	 */
	if ((size >= 2 && data[0] == 0x1f && data[1] == 0x8b) ||
	    (size >= 4 && memcmp(data, "\x28\xb5\x2f\xfd", 4) == 0))
		return;
	if ((fd = memfd_create("fuzz", 0)) == -1 ||
	    (size > 0 && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(&po, 0, sizeof(po));
	po.instrs = 1;		/* machine code kept: merged alike */
	p = profile_create();
	q = profile_create();
	ra = parse_buffer(p, path, (const char *)data, size, &po);
	hooks.chunk = chunk;
	hooks.alternate = alternate;
	hooks.pack_after = 1;	/* long names compressed from the first */
	rb = load_file(q, path, &po);
	memset(&hooks, 0, sizeof(hooks));
	(void)profile_done(p);
	(void)profile_done(q);
	if (ra != rb)
		abort();
	if (ra == 0) {
		if ((fa = open_memstream(&a, &alen)) == NULL ||
		    (fb = open_memstream(&b, &blen)) == NULL)
			abort();
		(void)report_print(fa, p, NULL, o, run);
		(void)report_print(fb, q, NULL, o, run);
		fclose(fa);
		fclose(fb);
		if (alen != blen || memcmp(a, b, alen) != 0)
			abort();
		free(a);
		free(b);
		fuzz_model_same(p, q);
		fuzz_instrs_same(p, q);
	}
	profile_free(q);
	profile_free(p);
	close(fd);
}

/*
 * Make, once, a folder holding an object "o" (an ELF header and nothing
 * else) and a stub objdump that lists a few instructions of hostile
 * text; return the folder's name, ending in "/".
 */
static const char *
fuzz_stub(void)
{
	static char	dir[64];
	char		path[96];
	FILE		*f;
	int		i;

	if (dir[0] != '\0')
		return dir;
	strlcpy(dir, "/tmp/cga-fuzz-XXXXXX", sizeof(dir));
	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(path, sizeof(path), "%s/o", dir);
	if ((f = fopen(path, "w")) == NULL)
		abort();
	fputs("\177ELF", f);
	for (i = 0; i < 60; i++)
		fputc(0, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/objdump", dir);
	if ((f = fopen(path, "w")) == NULL)
		abort();
	fputs("#!/bin/sh\nprintf '%s\\n' '0000000000000000 <f>:' "
	    "'   0:\tpush %rbp' '   1:\tcall 10 <g>\\033]2;x\\a' "
	    "'   6:\tjmp 0' '  10:\tret \\302\\233' "
	    "'  11:\t...' '  12:\tnop\\t\\342\\200\\256'\n", f);
	fclose(f);
	if (chmod(path, 0755) == -1)
		abort();
	strlcat(dir, "/", sizeof(dir));
	return dir;
}

/* Parse and report one input; never fails but by crashing. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE		*out;
	static char		*cest[] = { "CEst", "Sum" };
	static struct rematch	*fre;
	static char		*objdirs[1], objdump[96];
	struct report_opts	 o;
	struct report_run	 run;
	struct parse_opts	 po;
	struct profile		*p;
	FILE			*to;
	char			 err[128];
	unsigned		 bits = size > 0 ? data[0] : 0;
	unsigned		 more = size > 1 ? data[1] : 0;
	unsigned		 extra = size > 2 ? data[2] : 0;
	int			 r;

	if (out == NULL && (out = fopen("/dev/null", "w")) == NULL)
		abort();
	msg_set_quiet(1);
	memset(&o, 0, sizeof(o));
	o.format = &formats[0];
	memset(&run, 0, sizeof(run));
	run.profile_name = "-";
	o.threshold = bits & 1 ? "100" : "99";
	o.show_percs = (bits & 2) != 0;
	o.inclusive = (bits & 4) != 0;
	o.tree = (bits >> 3) & 3;
	o.auto_annotate = (bits & 32) != 0;
	o.context = (int)(bits >> 6);
	o.format = format_find(!(more & 1) ? "text" : (more & 32) ?
	    "markdown" : "json");
	o.totals_only = (more & 2) != 0;
	o.per_part = (more & 4) != 0;
	o.objdump_timeout = 10;
	if (extra & 8) {
		if (fre == NULL && (fre = rematch_new("a.*b|^[^:]*:c|\\(", 0,
		    err, sizeof(err))) == NULL)
			abort();
		o.functions = &fre;
		o.nfunctions = 1;
	}
	if (extra & 1)
		run.visible_names = (extra & 2) ? TVIS_UTF8 : TVIS_ASCII;
	if (more & 16) {
		fuzz_ahead(data, size, &o, &run, 1 + (more >> 5) * 97,
		    (more & 8) != 0);
		msg_reset();
		return 0;
	}
	if (more & 8) {
		/* --diff: the two halves are OLD and NEW. */
		struct namemod	 none;
		struct profile	*q = profile_create();

		memset(&none, 0, sizeof(none));
		o.mod_file = o.mod_func = &none;
		run.old_name = "old";
		p = profile_create();
		if (parse_buffer(p, "old", (const char *)data, size / 2,
		    NULL) == 0 && parse_buffer(q, "new", (const char *)data +
		    size / 2, size - size / 2, NULL) == 0) {
			/* As cg-annotate: events matched by name, or none. */
			if (diff_events(p, q, NULL) == 0)
				(void)report_print(out, q, p, &o, &run);
		}
		profile_free(q);
		profile_free(p);
		msg_reset();
		return 0;
	}
	/* Derived events, folding and grouping: the profile made again. */
	memset(&po, 0, sizeof(po));
	if (more & 64) {
		o.fold = FOLD_RECURSION | FOLD_CONTEXTS;
		o.show = cest;
		o.nshow = 2;
	}
	if (more & 128)
		o.group = (more & 4) ? PROFILE_ROWS_OBJECTS : PROFILE_ROWS_FILES;
	/* Pictures and exports: the call graph, stacks, flame graphs. */
	if ((more & 35) == 35) {
		o.totals_only = 0;
		o.format = format_find((more & 64) ? ((extra & 16) ?
		    ((extra & 32) ? "pprof" : "speedscope") : "svg") :
		    (more & 128) ? ((extra & 32) ? "callgrind" : "folded") :
		    "dot");
		/* Exports keep the machine code positions, as main() does:
		 * pprof maybe the calls' sites first (a big profile). */
		po.instrs = (o.format->needs & FORMAT_INSTRS) != 0;
		if ((o.format->needs & FORMAT_SITES) && (extra & 64))
			po.instrs = PARSE_INSTRS_SITES;
		o.node_threshold = 0.5;
		o.edge_threshold = 0.1;
		po.stacks = 1;
	}
	/* Machine code kept and chosen; no disassembler runs. */
	if ((more & 192) == 192) {
		po.instrs = 1;
		o.group = PROFILE_ROWS_FUNCTIONS;
		o.asm_annotate = 1;
		o.objdump = "/nonexistent/objdump";
		if (extra & 4) {
			objdirs[0] = (char *)fuzz_stub();
			snprintf(objdump, sizeof(objdump), "%sobjdump",
			    objdirs[0]);
			o.objdump = objdump;
			o.objdirs = objdirs;
			o.nobjdirs = 1;
		}
	}
again:
	p = profile_create();
	if (parse_buffer(p, "fuzz", (const char *)data, size, &po) == 0) {
		(void)profile_done(p);	/* as main() does */
		/* As main() prints on a terminal. */
		to = run.visible_names != TVIS_RAW ? tvis_fopen(out,
		    run.visible_names) : out;
		r = report_print(to, p, NULL, &o, &run);
		if (to != out)
			fclose(to);
		if (r == REPORT_NEED_INSTRS) {
			/* As main() does: read again, every instruction. */
			if (po.instrs != PARSE_INSTRS_SITES)
				abort();
			po.instrs = PARSE_INSTRS_ALL;
			profile_free(p);
			goto again;
		}
	}
	profile_free(p);
	msg_reset();
	return 0;
}

#ifdef CGA_FUZZ_REPLAY
/* Run the fuzz target on each file named; report how many. */
int
main(int argc, char *argv[])
{
	FILE	*f;
	char	*buf;
	long	 n;
	int	 i;

	for (i = 1; i < argc; i++) {
		if ((f = fopen(argv[i], "rb")) == NULL) {
			perror(argv[i]);
			return 1;
		}
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		if ((buf = malloc(n > 0 ? (size_t)n : 1)) == NULL ||
		    fread(buf, 1, (size_t)n, f) != (size_t)n) {
			perror(argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput((const uint8_t *)buf, (size_t)n);
		free(buf);
	}
	printf("fuzz-replay: %d inputs ran\n", argc - 1);
	return 0;
}
#endif
