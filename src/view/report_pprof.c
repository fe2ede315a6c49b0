/*
 * report_pprof.c - --format=pprof: a gzip-compressed profile.proto
 * message (pprof.proto) as Go's pprof reads it, packed by libprotobuf-c.
 *
 * One sample type per event shown.  The samples are the stacks of each
 * event by function (flamesel.h: exact for xtree files, else estimated
 * from the call graph), leaf first, the events' stacks merged by path
 * into one tree so that a stack of several events is one sample.  Each
 * event's count of a stack ending in a function is split over the
 * function's source lines (its instructions, with instruction positions)
 * by their self costs, stacks and lines taken in order, each stack given
 * what is left of the line at hand (a north-west corner split): the sums
 * per line and per stack are exact, which stack reached which line is
 * not recorded.  Within a budget of frames (pp_modes()): past it, the
 * costliest functions keep their lines or instructions and the others
 * are split only by file, at line 0, or past that, not split at all.
 * A caller's frame is its costliest call site of the callee for the
 * first sort event (the line, and address when known, of the call's
 * own cost line).  Read with the calls' sites alone (instrs_sites(): a
 * big profile, main.c), the export goes on where every function goes
 * as one or whole, and else asks for every instruction having written
 * nothing (REPORT_NEED_INSTRS).
 * Objects are mappings; with instruction positions each object's
 * addresses are moved to a range of its own (a base of 2^32 steps, its
 * file offsets its addresses), so that pprof -disasm finds them in the
 * object's file.
 *
 * The message is written as a sequence of Profile messages, which
 * protobuf merges into one (repeated fields add up): first the sample
 * types, mappings and comments, then batches of samples with the
 * locations, functions and strings they bring, so that memory holds one
 * batch, the merged tree and the tables of ids, never the whole
 * message; a location is kept only until its batch is written.
 *
 * The samples, nearly all of the bytes (each a whole stack), are encoded
 * here, not by protobuf-c: a sample is two packed lists of numbers and
 * the labels, which protobuf-c packed from structs made for it, twice
 * over (its size, then its bytes), a quarter of the export's main thread
 * on big profiles; here a node's frames are encoded once for all its
 * samples.  The bytes are those protobuf-c wrote, its fields in its
 * order, a batch's samples before its locations (compared on every test
 * profile when this was written; the tests check what pprof reads).
 */
#include "base/compat.h"

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <protobuf-c/protobuf-c.h>

#include "analysis/flame.h"
#include "base/cost.h"
#include "base/gzout.h"
#include "base/hooks.h"
#include "base/keytab.h"
#include "base/msg.h"
#include "base/num.h"
#include "base/sort.h"
#include "base/strtab.h"
#include "base/xmalloc.h"
#include "model/instrs.h"
#include "model/profile.h"
#include "select/flamesel.h"
#include "select/select.h"
#include "version.h"
#include "view/pprof.pb-c.h"
#include "view/report.h"

#define PP_BATCH	4096		/* samples a message */
#define PP_PACKED	((size_t)64 << 20) /* a message packed at once */
#define PP_IDS		(1 << 16)	/* location ids a message */
#define PP_NONE		UINT32_MAX
#define PP_STEP		((uint64_t)1 << 32) /* objects' bases apart */
#define PP_AHEAD	8		/* nodes loaded ahead, pp_walk() */

typedef Perftools__Profiles__Profile	PbProfile;
typedef Perftools__Profiles__Sample	PbSample;
typedef Perftools__Profiles__Location	PbLocation;
typedef Perftools__Profiles__Line	PbLine;
typedef Perftools__Profiles__Function	PbFunction;
typedef Perftools__Profiles__Mapping	PbMapping;
typedef Perftools__Profiles__ValueType	PbValueType;
typedef Perftools__Profiles__Label	PbLabel;

/*
 * The units of the functions, each function's in the profile's order:
 * every instruction (when known with every event's cost), then every
 * source line, then every file its lines are in (the whole function's
 * cost in that file, at line 0), then the function as one (its whole
 * cost at line 0 of its own file); the samples of a function's stacks
 * go to one kind, its mode (see pp_modes()).
 */
enum pp_mode { PP_WHOLE, PP_LINES, PP_INSTRS, PP_ONE, PP_NMODES };

struct pp_units {
	uint32_t	*ifirst;	/* fn -> its first instruction, */
	uint32_t	*lfirst;	/*   line, */
	uint32_t	*ffirst;	/*   and file: indexes of units; */
	uint32_t	 ofirst;	/* fn's unit as one: ofirst + fn */
	uint32_t	*ids;		/* instruction ids [0, ni), then line
					   ids, then file ids (the units as
					   one too) */
	uint64_t	*fcost;		/* each file unit's cost of every event
					   shown, from ffirst[0] on, then each
					   function's as one */
	uint32_t	 ni;
	unsigned char	*mode;		/* fn -> enum pp_mode */
};

/* The best call site of a caller to a callee, for the first sort event. */
struct pp_site {
	uint32_t	 file;
	uint64_t	 line;
	uint64_t	 addr;
	uint64_t	 cost;		/* to choose the best */
	int		 has_addr;
};

/* One event's share of a stack's count on one unit. */
struct pp_piece {
	uint32_t	 at;		/* the unit's index, UINT32_MAX: none */
	uint32_t	 k;		/* the value: the event shown */
	uint64_t	 count;
};

/* A function and the cost of its stacks, to rank. */
struct pp_rank {
	uint64_t	 cost;
	uint32_t	 fn;
};

/* A location made and not written yet. */
struct pp_loc {
	uint64_t	 addr;
	uint64_t	 line;
	uint32_t	 fn;		/* pprof's function id */
	uint32_t	 map;		/* mapping id, 0: none */
};

/* The writer: the stream, the tables of ids, the batch. */
struct pp {
	FILE		*out;
	struct gzout	*gz;		/* compressed in a second thread */
	uint8_t		*packed;	/* a message packed at once */
	size_t		 packed_cap;
	const struct selection *sel;
	const struct profile *p;
	const struct instrs *ins;	/* or NULL */
	size_t		 nvals;		/* values a sample: events shown */

	struct strtab	*st;		/* pprof's strings, */
	uint32_t	 st_sent;	/*   those written */
	uint32_t	*strmap;	/* profile string -> st id + 1 */
	struct keytab	 fns;		/* (name, file) in st -> id - 1 */
	uint32_t	 fns_sent;
	struct keytab	 sites_at;	/* callers' frames: (fn, file, line,
					   addr) -> their index in site_loc */
	uint32_t	 nlocs;		/* locations made, */
	uint32_t	 locs_sent;	/*   and written: those between */
	struct pp_loc	*loc;		/*   to write, */
	size_t		 loc_cap;
	uint32_t	*site_loc;	/* sites_at's locations */
	size_t		 site_cap;

	uint32_t	*objidx;	/* object string -> index + 1 */
	uint64_t	*base;		/* per object: its addresses' move */
	unsigned char	*has_base;	/*   if they have one, */
	uint64_t	*lo, *hi;	/*   its first page, its end */

	struct pp_units	 u;		/* every function's units, */
	uint32_t	*uloc;		/*   each unit's location (0: none
					   yet) */
	struct keytab	 sitekeys;	/* (caller, callee) -> its site */
	struct pp_site	*sites;
	uint64_t	*cost;		/* a line's costs */
	uint32_t	*site_edge;	/* sitekeys' id -> its frame (0: not
					   made yet), */
	uint32_t	*fn_edge;	/*   a caller without one: its frame */
	uint32_t	*dfs;		/* the stacks' nodes depth first */
	uint32_t	*path;		/* the nodes from the outermost down
					   to the one at hand, */
	size_t		*path_len;	/*   the bytes of the frames above
					   each, */
	size_t		 path_n, path_cap;

	uint8_t		*batch;		/* the batch's samples, encoded */
	size_t		 batch_len, batch_cap;
	size_t		 nsamples;	/*   how many, */
	size_t		 nids;		/*   their location ids */
	uint8_t		*frames;	/* the frames above a node, encoded:
					   its last frames_len bytes */
	size_t		 frames_len, frames_cap;
	uint8_t		*labels;	/* every sample's labels, encoded */
	size_t		 labels_len;
	uint64_t	*values;	/* a sample's values, clamped */
	int		 clamped;	/* a count above 2^63 - 1 */
	uint32_t	 nmode[PP_NMODES]; /* functions of each mode, if any was
					   given a coarser one, else 0 */
	uint64_t	 most;		/* location ids the samples may hold */
	uint64_t	 over;		/* the frames of every function as one,
					   if more than most, else 0 */
};

/* The buffer protobuf-c packs into: the writer's deflate stream. */
struct pp_buf {
	ProtobufCBuffer	 base;
	struct pp	*w;
};

static void	pp_append(ProtobufCBuffer *, size_t, const uint8_t *);
static void	pp_pack(struct pp *, const PbProfile *);
static uint32_t	pp_str(struct pp *, const char *);
static uint32_t	pp_pstr(struct pp *, uint32_t);
static uint32_t	pp_loc(struct pp *, uint32_t, uint32_t, uint64_t, uint64_t,
		    int, int);
static void	pp_flush(struct pp *);
static int	pp_rank(const struct profile *, uint32_t, enum framekind);
static int	pp_modes_said(const struct pp *, char *, size_t);
static void	pp_head(struct pp *);
static void	pp_bases(struct pp *);
static const char *pp_unit(const struct profile *, int);
static void	pp_labels(struct pp *);
static void	pp_units(const struct pp *, struct pp_units *);
static void	pp_files(const struct pp *, struct pp_units *);
static void	pp_range(const struct pp_units *, uint32_t, uint32_t *,
		    uint32_t *);
static void	pp_sites(const struct pp *, struct keytab *,
		    struct pp_site **, int);
static uint32_t	pp_unit_loc(struct pp *, uint32_t, uint32_t);
static int	pp_piececmp(const void *, const void *);
static void	pp_split(struct pp *, size_t, uint32_t, uint64_t, uint32_t *,
		    uint64_t *, struct pp_piece **, size_t *, size_t *);
static uint32_t	*pp_dfs(const struct flame *);
static int	pp_walk(struct pp *, uint64_t *, uint64_t *, size_t, uint64_t);
static int	pp_rankcmp(const void *, const void *);
static uint64_t	pp_sum(const uint64_t *, uint32_t);
static int	pp_modes(struct pp *);
static void	pp_free(struct pp *);
static void	pp_path(struct pp *, const struct flame *, uint32_t,
		    uint32_t, const uint32_t *, const uint32_t *);
static void	pp_sample(struct pp *, uint32_t, const uint64_t *, size_t);

/*
 * protobuf-c's output, a field or less at a time: gathered, and
 * compressed a buffer at a time.
 */
static void
pp_append(ProtobufCBuffer *b, size_t n, const uint8_t *data)
{
	gzout_write(((struct pp_buf *)b)->w->gz, data, n);
}

/*
 * Write message m, one more piece of the profile: packed into a buffer
 * of its size in one call (protobuf-c's packing to a stream calls back
 * for every number), unless it is larger than PP_PACKED.
 */
static void
pp_pack(struct pp *w, const PbProfile *m)
{
	struct pp_buf	b;
	size_t		n;

	n = protobuf_c_message_get_packed_size(&m->base);
	if (n <= PP_PACKED) {
		w->packed = xgrow(w->packed, &w->packed_cap, n + 1, 1);
		if (protobuf_c_message_pack(&m->base, w->packed) != n)
			errx(1, "protobuf-c packed another size than it said");
		gzout_write(w->gz, w->packed, n);
		return;
	}
	b.base.append = pp_append;
	b.w = w;
	protobuf_c_message_pack_to_buffer(&m->base, &b.base);
}

/* Return the index of string s among pprof's strings. */
static uint32_t
pp_str(struct pp *w, const char *s)
{
	return strtab_intern(w->st, s, strlen(s));
}

/* Return the index of the profile's string id among pprof's strings. */
static uint32_t
pp_pstr(struct pp *w, uint32_t id)
{
	if (w->strmap[id] == 0)
		w->strmap[id] = strtab_copy(w->st, profile_strtab(w->p),
		    id) + 1;
	return w->strmap[id] - 1;
}

/*
 * Return the id of a new location of function fn at (file, line), and at
 * address addr if has_addr, its function made when first asked.  A unit
 * of a function is one location, made once; a caller's frame is looked
 * up (unique set): locations of both kinds may be alike, as pprof
 * allows.
 */
static uint32_t
pp_loc(struct pp *w, uint32_t fn, uint32_t file, uint64_t line,
    uint64_t addr, int has_addr, int unique)
{
	uint64_t	 key[4], fkey[2];
	uint32_t	 obj, ffile, name, oi, id;
	struct pp_loc	*l;
	int		 created;

	profile_func(w->p, fn, &obj, &ffile, &name);
	oi = w->objidx[obj];
	if (!has_addr || oi == 0 || !w->has_base[oi - 1])
		addr = 0;
	else
		addr += w->base[oi - 1];
	if (unique) {
		key[0] = fn;
		key[1] = file;
		key[2] = line;
		key[3] = addr;
		id = keytab_get(&w->sites_at, key, &created);
		if (!created)
			return w->site_loc[id];
		w->site_loc = xgrow(w->site_loc, &w->site_cap, (size_t)id + 1,
		    sizeof(*w->site_loc));
		w->site_loc[id] = w->nlocs + 1;
	}
	w->loc = xgrow(w->loc, &w->loc_cap, (size_t)(w->nlocs -
	    w->locs_sent) + 1, sizeof(*w->loc));
	l = &w->loc[w->nlocs - w->locs_sent];
	fkey[0] = pp_pstr(w, name);
	fkey[1] = pp_pstr(w, file);
	l->fn = keytab_get(&w->fns, fkey, &created) + 1;
	l->map = oi;
	l->addr = addr;
	l->line = line;
	return ++w->nlocs;
}

/*
 * Write the batch: its samples, and the locations, functions and
 * strings made since the last batch.
 */
static void
pp_flush(struct pp *w)
{
	PbProfile	 m = PERFTOOLS__PROFILES__PROFILE__INIT;
	PbLocation	*loc, **lp;
	PbLine		*line, **linep;
	PbFunction	*fn, **fp;
	char		**strs;
	const uint64_t	*k;
	size_t		 i, nl, nf, ns, at;

	nl = w->nlocs - w->locs_sent;
	nf = w->fns.n - w->fns_sent;
	ns = strtab_count(w->st) - w->st_sent;
	loc = xreallocarray(NULL, nl + 1, sizeof(*loc));
	lp = xreallocarray(NULL, nl + 1, sizeof(*lp));
	line = xreallocarray(NULL, nl + 1, sizeof(*line));
	linep = xreallocarray(NULL, nl + 1, sizeof(*linep));
	for (i = 0; i < nl; i++) {
		perftools__profiles__location__init(&loc[i]);
		perftools__profiles__line__init(&line[i]);
		loc[i].id = (uint64_t)w->locs_sent + i + 1;
		loc[i].mapping_id = w->loc[i].map;
		loc[i].address = w->loc[i].addr;
		line[i].function_id = w->loc[i].fn;
		line[i].line = w->loc[i].line > INT64_MAX ? 0 :
		    (int64_t)w->loc[i].line;
		linep[i] = &line[i];
		loc[i].n_line = 1;
		loc[i].line = &linep[i];
		lp[i] = &loc[i];
	}
	fn = xreallocarray(NULL, nf + 1, sizeof(*fn));
	fp = xreallocarray(NULL, nf + 1, sizeof(*fp));
	for (i = 0; i < nf; i++) {
		at = w->fns_sent + i;
		k = keytab_key(&w->fns, (uint32_t)at);
		perftools__profiles__function__init(&fn[i]);
		fn[i].id = at + 1;
		/* No system name: pprof leaves the name as it is. */
		fn[i].name = (int64_t)k[0];
		fn[i].filename = (int64_t)k[1];
		fp[i] = &fn[i];
	}
	strs = xreallocarray(NULL, ns + 1, sizeof(*strs));
	for (i = 0; i < ns; i++)
		strs[i] = (char *)(uintptr_t)strtab_get(w->st,
		    w->st_sent + (uint32_t)i);
	m.n_location = nl;
	m.location = lp;
	m.n_function = nf;
	m.function = fp;
	m.n_string_table = ns;
	m.string_table = strs;
	/* The samples (field 2) first, as protobuf-c orders fields. */
	gzout_write(w->gz, w->batch, w->batch_len);
	pp_pack(w, &m);
	w->locs_sent = w->nlocs;
	w->fns_sent = w->fns.n;
	w->st_sent = strtab_count(w->st);
	w->nsamples = 0;
	w->nids = 0;
	w->batch_len = 0;
	free(loc);
	free(lp);
	free(line);
	free(linep);
	free(fn);
	free(fp);
	free(strs);
}

/*
 * Return the unit of event ev: the last word of the parenthesized end of
 * its long name (else of its name), as pprof names units, else "count".
 */
static const char *
pp_unit(const struct profile *p, int ev)
{
	static const struct {
		const char	*word, *unit;
	} units[] = {
		{ "ns", "nanoseconds" }, { "nsec", "nanoseconds" },
		{ "nanoseconds", "nanoseconds" },
		{ "us", "microseconds" }, { "usec", "microseconds" },
		{ "microseconds", "microseconds" },
		{ "ms", "milliseconds" }, { "msec", "milliseconds" },
		{ "milliseconds", "milliseconds" },
		{ "s", "seconds" }, { "sec", "seconds" },
		{ "seconds", "seconds" },
		{ "B", "bytes" }, { "byte", "bytes" }, { "bytes", "bytes" },
		{ NULL, NULL }
	};
	const struct event_def	*d;
	uint32_t		 name = profile_event(p, (unsigned)ev), ids[2];
	const char		*s, *open, *w;
	size_t			 i, k, n, len;

	ids[0] = 0;
	ids[1] = name;
	for (i = 0; i < profile_nevent_defs(p); i++) {
		d = profile_event_def(p, i);
		if (d->name == name)
			ids[0] = d->longname;
	}
	for (k = 0; k < 2; k++) {
		s = profile_str(p, ids[k]);
		n = strlen(s);
		if (n < 3 || s[n - 1] != ')' || (open = strrchr(s, '(')) ==
		    NULL)
			continue;
		for (w = s + n - 1; w > open + 1 && w[-1] != ' ' &&
		    w[-1] != '_'; w--)
			continue;
		len = (size_t)(s + n - 1 - w);
		for (i = 0; units[i].word != NULL; i++)
			if (strlen(units[i].word) == len &&
			    memcmp(units[i].word, w, len) == 0)
				return units[i].unit;
	}
	return "count";
}

/*
 * The labels of every sample: the pid, thread and part of the parts
 * read, each where all of them have the same one.
 */
static void
pp_labels(struct pp *w)
{
	static const char	*keys[3] = { "pid", "thread", "part" };
	PbSample		 sm = PERFTOOLS__PROFILES__SAMPLE__INIT;
	PbLabel			 labels[3], *lptr[3];
	const struct part	*pt;
	uint32_t		 v[3], seen = 0, k;
	int			 same[3] = { 1, 1, 1 };
	size_t			 i, n = 0;

	for (i = 0; i < profile_nparts(w->p); i++) {
		pt = profile_part(w->p, i);
		if (pt->skipped)
			continue;
		for (k = 0; k < 3; k++) {
			uint32_t	x = k == 0 ? pt->pid : k == 1 ?
			    pt->thread : pt->part;

			if (seen && x != v[k])
				same[k] = 0;
			v[k] = x;
		}
		seen = 1;
	}
	for (k = 0; seen && k < 3; k++) {
		if (!same[k] || v[k] == 0)
			continue;
		perftools__profiles__label__init(&labels[n]);
		labels[n].key = pp_str(w, keys[k]);
		labels[n].str = pp_pstr(w, v[k]);
		lptr[n] = &labels[n];
		n++;
	}
	/* A sample of labels alone: their fields, put in every sample. */
	sm.n_label = n;
	sm.label = lptr;
	w->labels_len = protobuf_c_message_get_packed_size(&sm.base);
	w->labels = xmalloc(w->labels_len);
	if (protobuf_c_message_pack(&sm.base, w->labels) != w->labels_len)
		errx(1, "protobuf-c packed another size than it said");
}

/*
 * Give each object's addresses a range of its own: objects in order, each
 * from the next multiple of PP_STEP past the one before.  An object whose
 * range would pass 2^64 keeps no addresses.
 */
static void
pp_bases(struct pp *w)
{
	uint32_t	 nobj = profile_nobjects(w->p), i, fn, file, obj, name;
	uint64_t	*lo, *hi, addr, last, next = PP_STEP;

	w->base = xcalloc(nobj + 1, sizeof(*w->base));
	w->has_base = xcalloc(nobj + 1, 1);
	w->lo = lo = xreallocarray(NULL, nobj + 1, sizeof(*lo));
	w->hi = hi = xcalloc(nobj + 1, sizeof(*hi));
	if (w->ins == NULL)
		return;
	for (i = 0; i < nobj; i++)
		lo[i] = UINT64_MAX;
	for (fn = 0; fn < profile_nfuncs(w->p); fn++) {
		if (!instrs_range(w->ins, fn, &addr, &last))
			continue;
		profile_func(w->p, fn, &obj, &file, &name);
		if (w->objidx[obj] == 0)
			continue;
		obj = w->objidx[obj] - 1;
		if (addr < lo[obj])
			lo[obj] = addr;
		if (last > hi[obj])
			hi[obj] = last;
	}
	for (i = 0; i < nobj; i++) {
		if (lo[i] == UINT64_MAX)
			continue;
		/* base + hi + 16 (the last instruction) must not wrap. */
		if (hi[i] > UINT64_MAX - 16 - next)
			continue;
		w->base[i] = next;
		w->has_base[i] = 1;
		addr = next + hi[i] + 16;
		if (addr > UINT64_MAX - PP_STEP)
			next = UINT64_MAX;	/* no room for another */
		else
			next = (addr / PP_STEP + 1) * PP_STEP;
		if (next == UINT64_MAX)
			break;
	}
	/* The mappings: from the first page to past the last. */
	for (i = 0; i < nobj; i++)
		if (w->has_base[i]) {
			lo[i] &= ~(uint64_t)0xfff;
			hi[i] += 16;
		}
}

/*
 * Return where object i of kind k goes among the mappings: 0 for the
 * program's executable, 1 for the program's shared objects, 2 for the
 * others.
 */
static int
pp_rank(const struct profile *p, uint32_t i, enum framekind k)
{
	const char	*path = profile_str(p, profile_object(p, i));
	const char	*so = strstr(path, ".so");

	if (k != FRAME_PROGRAM)
		return 2;
	return so != NULL && (so[3] == '\0' || so[3] == '.') ? 1 : 0;
}

/*
 * Say in buf (size bytes) what pp_modes() did, if it gave any function a
 * coarser mode than its finest; return 0 if it did, else -1.
 */
static int
pp_modes_said(const struct pp *w, char *buf, size_t size)
{
	if (w->nmode[PP_WHOLE] + w->nmode[PP_LINES] + w->nmode[PP_INSTRS] +
	    w->nmode[PP_ONE] == 0)
		return -1;
	if (w->over > 0)
		(void)snprintf(buf, size, "samples hold %llu frames with every "
		    "function as one, at line 0 of its own file (%u): more "
		    "than the %llu Go's pprof reads in seconds, with stacks as "
		    "coarse as the estimate makes them",
		    (unsigned long long)w->over, w->nmode[PP_ONE],
		    (unsigned long long)w->most);
	else if (w->nmode[PP_ONE] > 0)
		(void)snprintf(buf, size, "samples within %llu frames, for "
		    "Go's pprof to read: the costliest functions split by "
		    "file, at line 0 of each (%u), the others as one, at line "
		    "0 of their own file (%u)", (unsigned long long)w->most,
		    w->nmode[PP_WHOLE], w->nmode[PP_ONE]);
	else
		(void)snprintf(buf, size, "samples within %llu frames, for "
		    "Go's pprof to read: the costliest functions split over "
		    "their instructions (%u) or lines (%u), the others whole, "
		    "at line 0 of each file (%u)", (unsigned long long)w->most,
		    w->nmode[PP_INSTRS], w->nmode[PP_LINES],
		    w->nmode[PP_WHOLE]);
	return 0;
}

/*
 * Write the first message: the sample types, the mappings, the
 * comments, the default sample type.
 */
static void
pp_head(struct pp *w)
{
	PbProfile	 m = PERFTOOLS__PROFILES__PROFILE__INIT;
	PbValueType	*vt, **vtp;
	PbMapping	*mp, **mpp;
	const struct selection *sel = w->sel;
	uint32_t	 nobj = profile_nobjects(w->p), i, n;
	enum framekind	*kind;
	int		 r;
	int64_t		 comment[5];
	char		 said[256];
	const char	*cmd = profile_str(w->p, profile_part(w->p, 0)->cmd);
	char		*s;
	size_t		 k;

	vt = xreallocarray(NULL, w->nvals + 1, sizeof(*vt));
	vtp = xreallocarray(NULL, w->nvals + 1, sizeof(*vtp));
	for (k = 0; k < w->nvals; k++) {
		perftools__profiles__value_type__init(&vt[k]);
		vt[k].type = pp_pstr(w, profile_event(w->p,
		    (unsigned)sel->show[k]));
		vt[k].unit = pp_str(w, pp_unit(w->p, sel->show[k]));
		vtp[k] = &vt[k];
	}
	mp = xreallocarray(NULL, nobj + 1, sizeof(*mp));
	mpp = xreallocarray(NULL, nobj + 1, sizeof(*mpp));
	kind = xreallocarray(NULL, nobj + 1, sizeof(*kind));
	flamesel_kinds(w->p, kind);
	/*
	 * The program's objects first, its executable before its libraries:
	 * pprof takes the first mapping for the program.
	 */
	for (r = 0, n = 0; r < 3; r++)
		for (i = 0; i < nobj; i++)
			if (pp_rank(w->p, i, kind[i]) == r)
				mpp[n++] = &mp[i];
	free(kind);
	for (i = 0; i < nobj; i++) {
		perftools__profiles__mapping__init(&mp[i]);
		mp[i].id = i + 1;
		mp[i].filename = pp_pstr(w, profile_object(w->p, i));
		mp[i].has_functions = 1;
		mp[i].has_filenames = 1;
		mp[i].has_line_numbers = 1;
		if (w->has_base[i]) {
			mp[i].memory_start = w->base[i] + w->lo[i];
			mp[i].memory_limit = w->base[i] + w->hi[i];
			mp[i].file_offset = w->lo[i];
		}
	}
	k = 0;
	s = xjoin("cg-annotate " CGA_VERSION " of", 15 + strlen(CGA_VERSION),
	    ' ', sel->run->profile_name, strlen(sel->run->profile_name));
	comment[k++] = pp_str(w, s);
	free(s);
	if (*cmd != '\0') {
		s = xjoin("cmd:", 4, ' ', cmd, strlen(cmd));
		comment[k++] = pp_str(w, s);
		free(s);
	}
	comment[k++] = pp_str(w, sel->stacks != NULL && sel->stacks->exact ?
	    "stacks as the profile records them: exact" :
	    "stacks estimated from the call graph: self costs exact, "
	    "cumulative values estimated");
	comment[k++] = pp_str(w, "a function's stacks split over its lines "
	    "in order: sums per line and per stack exact, their pairing not "
	    "recorded");
	if (pp_modes_said(w, said, sizeof(said)) == 0)
		comment[k++] = pp_str(w, said);
	m.n_sample_type = w->nvals;
	m.sample_type = vtp;
	m.n_mapping = nobj;
	m.mapping = mpp;
	m.n_comment = k;
	m.comment = comment;
	if (sel->nsort > 0)
		m.default_sample_type = pp_pstr(w, profile_event(w->p,
		    (unsigned)sel->sort[0]));
	pp_labels(w);
	pp_flush(w);		/* the strings first: index 0 is "" */
	pp_pack(w, &m);
	free(vt);
	free(vtp);
	free(mp);
	free(mpp);
}

/*
 * Make the units of every function (struct pp_units), each given its
 * finest mode: its instructions if they are known with the costs of
 * every event, else its source lines.
 */
static void
pp_units(const struct pp *w, struct pp_units *u)
{
	uint32_t	 nf = profile_nfuncs(w->p), n, i, fn, file, *fill;
	uint64_t	 addr, line;

	n = w->ins != NULL && instrs_nevents(w->ins) >=
	    profile_nevents(w->p) ? instrs_count(w->ins) : 0;
	u->ni = n;
	u->ifirst = xcalloc((size_t)nf + 2, sizeof(*u->ifirst));
	u->lfirst = xcalloc((size_t)nf + 2, sizeof(*u->lfirst));
	for (i = 0; i < n; i++) {
		instrs_get(w->ins, i, &fn, &addr, &file, &line);
		u->ifirst[fn + 1]++;
	}
	for (i = 0; i < profile_nlines(w->p); i++) {
		profile_line(w->p, i, &fn, &file, &line);
		u->lfirst[fn + 1]++;
	}
	u->lfirst[0] = n;
	for (i = 0; i < nf; i++) {
		u->ifirst[i + 1] += u->ifirst[i];
		u->lfirst[i + 1] += u->lfirst[i];
	}
	u->ids = xreallocarray(NULL, (size_t)u->lfirst[nf] + 1,
	    sizeof(*u->ids));
	fill = xreallocarray(NULL, 2 * (size_t)nf + 1, sizeof(*fill));
	memcpy(fill, u->ifirst, (size_t)nf * sizeof(*fill));
	memcpy(fill + nf, u->lfirst, (size_t)nf * sizeof(*fill));
	for (i = 0; i < n; i++) {
		instrs_get(w->ins, i, &fn, &addr, &file, &line);
		u->ids[fill[fn]++] = i;
	}
	for (i = 0; i < profile_nlines(w->p); i++) {
		profile_line(w->p, i, &fn, &file, &line);
		u->ids[fill[nf + fn]++] = i;
	}
	free(fill);
	pp_files(w, u);
	u->mode = xreallocarray(NULL, (size_t)nf + 1, sizeof(*u->mode));
	for (fn = 0; fn < nf; fn++)
		u->mode[fn] = u->ifirst[fn + 1] > u->ifirst[fn] ? PP_INSTRS :
		    PP_LINES;
}

/*
 * Make the file units of every function from its line units: each file
 * its lines are in, in the order first met, with their costs summed (a
 * file unit is a (function, file) pair of the model); then each
 * function's unit as one, in its own file, its files' costs summed.
 */
static void
pp_files(const struct pp *w, struct pp_units *u)
{
	uint32_t	 nf = profile_nfuncs(w->p), np = profile_npairs(w->p);
	uint32_t	 fn, i, g, base, file, obj, name, nfile = 0, *row;
	unsigned	*evs;
	size_t		 nk = w->sel->nshow, k;

	base = u->lfirst[nf];
	u->ffirst = xcalloc((size_t)nf + 2, sizeof(*u->ffirst));
	row = xreallocarray(NULL, (size_t)np + 1, sizeof(*row));
	memset(row, 0xff, ((size_t)np + 1) * sizeof(*row));
	for (fn = 0; fn < nf; fn++) {
		u->ffirst[fn] = base + nfile;
		for (i = u->lfirst[fn]; i < u->lfirst[fn + 1]; i++) {
			g = profile_line_pair(w->p, u->ids[i]);
			if (row[g] == UINT32_MAX)
				row[g] = nfile++;
		}
	}
	u->ffirst[nf] = base + nfile;
	u->ofirst = base + nfile;
	u->ids = xreallocarray(u->ids, (size_t)u->ofirst + nf + 1,
	    sizeof(*u->ids));
	u->fcost = xcalloc(((size_t)nfile + nf) * nk + 1, sizeof(*u->fcost));
	for (g = 0; g < np; g++)
		if (row[g] != UINT32_MAX) {
			profile_pair(w->p, g, &fn, &file);
			u->ids[base + row[g]] = file;
		}
	evs = xreallocarray(NULL, nk + 1, sizeof(*evs));
	for (k = 0; k < nk; k++)
		evs[k] = (unsigned)w->sel->show[k];
	(void)profile_lines_sum_evs(w->p, row, nfile, evs, (unsigned)nk,
	    u->fcost);			/* saturated */
	free(evs);
	free(row);
	/* Each function as one: its files' costs summed. */
	for (fn = 0; fn < nf; fn++) {
		profile_func(w->p, fn, &obj, &file, &name);
		u->ids[u->ofirst + fn] = file;
		for (g = u->ffirst[fn] - base; g < u->ffirst[fn + 1] - base;
		    g++)
			for (k = 0; k < nk; k++)
				cost_add1(&u->fcost[((size_t)nfile + fn) * nk +
				    k], u->fcost[(size_t)g * nk + k]);
	}
}

/*
 * Set *start and *end to the units of function fn that its mode gives
 * its samples (none: the whole function).
 */
static void
pp_range(const struct pp_units *u, uint32_t fn, uint32_t *start,
    uint32_t *end)
{
	switch (u->mode[fn]) {
	case PP_INSTRS:
		*start = u->ifirst[fn];
		*end = u->ifirst[fn + 1];
		break;
	case PP_LINES:
		*start = u->lfirst[fn];
		*end = u->lfirst[fn + 1];
		break;
	case PP_ONE:
		*start = u->ofirst + fn;
		*end = *start + 1;
		break;
	default:
		*start = u->ffirst[fn];
		*end = u->ffirst[fn + 1];
		break;
	}
}

/*
 * Find the costliest call site (for event ev) of each caller to each
 * callee, keyed (caller, callee) in kt, into *sites.
 */
static void
pp_sites(const struct pp *w, struct keytab *kt, struct pp_site **sites,
    int ev)
{
	struct pp_site	*s = NULL;
	const struct icall *c;
	uint64_t	 key, line, cost;
	uint32_t	 i, id, caller, callee, file;
	size_t		 cap = 0;
	int		 created;

	keytab_init(kt, 1);	/* keytab_pair(caller, callee) */
	for (i = 0; i < profile_narcs(w->p); i++) {
		profile_arc(w->p, i, &caller, &callee, &file, &line);
		if ((cost = profile_arc_cost(w->p, i)[ev]) == COST_NONE)
			cost = 0;
		key = keytab_pair(caller, callee);
		id = keytab_get(kt, &key, &created);
		if (created) {
			s = xgrow(s, &cap, (size_t)id + 1, sizeof(*s));
			memset(&s[id], 0, sizeof(s[id]));
		} else if (cost < s[id].cost || (cost == s[id].cost &&
		    line >= s[id].line))
			continue;
		s[id].file = file;
		s[id].line = line;
		s[id].cost = cost;
	}
	if (w->ins != NULL && (unsigned)ev < instrs_nevents(w->ins)) {
		/* The call's address, and that instruction's line. */
		for (i = 0; i < instrs_ncalls(w->ins); i++) {
			c = instrs_call(w->ins, i);
			if ((cost = instrs_call_cost(w->ins, i)[ev]) ==
			    COST_NONE)
				cost = 0;
			key = keytab_pair(c->fn, c->callee);
			if ((id = keytab_find(kt, &key)) == KEYTAB_NONE)
				continue;
			if (s[id].has_addr && (cost < s[id].cost ||
			    (cost == s[id].cost && c->addr >= s[id].addr)))
				continue;
			s[id].has_addr = 1;
			s[id].addr = c->addr;
			s[id].cost = cost;
			s[id].file = c->file;
			s[id].line = c->line;
		}
	}
	*sites = s;
}

/*
 * Make room for need bytes of frames at the end of w->frames, keeping
 * the last keep bytes there.
 */
static void
pp_frames_room(struct pp *w, size_t need, size_t keep)
{
	size_t	 cap;
	uint8_t	*o;

	if (need <= w->frames_cap)
		return;
	cap = w->frames_cap > 0 ? 2 * w->frames_cap : 256;
	if (cap < need)
		cap = need;
	o = xreallocarray(NULL, cap, 1);
	if (keep > 0)
		memcpy(o + cap - keep, w->frames + w->frames_cap - keep,
		    keep);
	free(w->frames);
	w->frames = o;
	w->frames_cap = cap;
}

/* Make room for n nodes on the path. */
static void
pp_path_room(struct pp *w, size_t n)
{
	if (n <= w->path_cap)
		return;
	w->path = xgrow(w->path, &w->path_cap, n, sizeof(*w->path));
	w->path_len = xreallocarray(w->path_len, w->path_cap,
	    sizeof(*w->path_len));
}

/* Put node u at place d of the path, its frame encoded before the rest. */
static void
pp_path_push(struct pp *w, size_t d, uint32_t u, const uint32_t *edge)
{
	size_t	 below = d > 0 ? w->path_len[d - 1] : 0, len;

	pp_path_room(w, d + 1);
	len = d > 0 ? below + num_varint_len(edge[u]) : 0;
	pp_frames_room(w, len, below);
	if (d > 0)
		(void)num_varint(w->frames + w->frames_cap - len, edge[u]);
	w->path[d] = u;
	w->path_len[d] = len;
	w->path_n = d + 1;
	w->frames_len = len;
}

/*
 * Make the frames above node u (parent its parent, depth[] each node's
 * frames above) the last w->frames_len bytes of w->frames, leaf first:
 * the path from the outermost node down to the node before, cut back to
 * the nearest of u's parents on it, then down to u.
 */
static void
pp_path(struct pp *w, const struct flame *f, uint32_t u, uint32_t parent,
    const uint32_t *edge, const uint32_t *depth)
{
	uint32_t	m, fn;
	size_t		d;

	pp_path_room(w, (size_t)depth[u] + 1);
	w->path[depth[u]] = u;
	/* Up to the nearest on the path, each put in its place. */
	for (m = parent; m != 0 && !(depth[m] < w->path_n &&
	    w->path[depth[m]] == m); m = flame_node(f, m, &fn))
		w->path[depth[m]] = m;
	for (d = m != 0 ? (size_t)depth[m] + 1 : 0; d <= depth[u]; d++)
		pp_path_push(w, d, w->path[d], edge);
}

/*
 * Add a sample of values v (one per event shown) at location leaf over
 * the frames made by pp_path() (depth of them): a Profile's field 2,
 * a Sample of location_id (1) and value (2), packed, and the labels.
 */
static void
pp_sample(struct pp *w, uint32_t leaf, const uint64_t *v, size_t depth)
{
	size_t	 k, ids, vals, body;
	uint8_t	*o;

	if (w->nsamples == PP_BATCH || w->nids > PP_IDS)
		pp_flush(w);
	ids = num_varint_len(leaf) + w->frames_len;
	for (k = 0, vals = 0; k < w->nvals; k++) {
		if (v[k] > INT64_MAX)
			w->clamped = 1;
		w->values[k] = v[k] > INT64_MAX ? INT64_MAX : v[k];
		vals += num_varint_len(w->values[k]);
	}
	body = 1 + num_varint_len(ids) + ids + 1 + num_varint_len(vals) +
	    vals + w->labels_len;
	w->batch = xgrow(w->batch, &w->batch_cap, w->batch_len + 1 +
	    num_varint_len(body) + body, 1);
	o = w->batch + w->batch_len;
	*o++ = 2 << 3 | 2;		/* Profile.sample */
	o = num_varint(o, body);
	*o++ = 1 << 3 | 2;		/* Sample.location_id, packed */
	o = num_varint(o, ids);
	o = num_varint(o, leaf);
	if (w->frames_len > 0)		/* none made yet: frames NULL */
		memcpy(o, w->frames + w->frames_cap - w->frames_len,
		    w->frames_len);
	o += w->frames_len;
	*o++ = 2 << 3 | 2;		/* Sample.value, packed */
	o = num_varint(o, vals);
	for (k = 0; k < w->nvals; k++)
		o = num_varint(o, w->values[k]);
	memcpy(o, w->labels, w->labels_len);
	o += w->labels_len;
	w->batch_len = (size_t)(o - w->batch);
	w->nsamples++;
	w->nids += depth + 1;
}

/*
 * Return the location of the unit at index at of w->u, a unit of
 * function fn, made when first asked.
 */
static uint32_t
pp_unit_loc(struct pp *w, uint32_t fn, uint32_t at)
{
	uint32_t	 uid = w->u.ids[at], ifn, file;
	uint64_t	 addr, line;

	if (w->uloc[at] != 0)
		return w->uloc[at];
	if (at < w->u.ni) {
		instrs_get(w->ins, uid, &ifn, &addr, &file, &line);
		w->uloc[at] = pp_loc(w, fn, file, line, addr, 1, 0);
	} else if (at < w->u.ffirst[0]) {
		profile_line(w->p, uid, &ifn, &file, &line);
		w->uloc[at] = pp_loc(w, fn, file, line, 0, 0, 0);
	} else		/* a file: uid is its name */
		w->uloc[at] = pp_loc(w, fn, uid, 0, 0, 0, 1);
	return w->uloc[at];
}

/* Order pieces by unit, then value. */
static int
pp_piececmp(const void *a, const void *b)
{
	const struct pp_piece	*x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

/*
 * Give the count c of event k's stacks at a node of function fn to the
 * units of fn's mode, what is left of the one at hand first (the cursor
 * of event k: unit[], left[]), as pieces added to *pcs.
 */
static void
pp_split(struct pp *w, size_t k, uint32_t fn, uint64_t c, uint32_t *unit,
    uint64_t *left, struct pp_piece **pcs, size_t *npcs, size_t *cap)
{
	const struct pp_units *u = &w->u;
	uint32_t	 start, end, uid;
	uint64_t	 t;
	int		 ev = w->sel->show[k];

	pp_range(u, fn, &start, &end);
	while (c > 0) {
		/* The next unit with some cost left. */
		while (left[fn] == 0 && unit[fn] < end) {
			uid = u->ids[unit[fn]];
			if (unit[fn] < u->ni)
				left[fn] = instrs_cost1(w->ins, uid,
				    (unsigned)ev);
			else if (unit[fn] < u->ffirst[0])
				left[fn] = profile_line_cost1(w->p, uid,
				    (unsigned)ev);
			else
				left[fn] = u->fcost[(size_t)(unit[fn] -
				    u->ffirst[0]) * w->sel->nshow + k];
			if (left[fn] == COST_NONE)	/* no count */
				left[fn] = 0;
			if (left[fn] == 0)
				unit[fn]++;
		}
		*pcs = xgrow(*pcs, cap, *npcs + 1, sizeof(**pcs));
		if (left[fn] == 0) {
			/* More than its units hold, or none: no line. */
			(*pcs)[(*npcs)++] = (struct pp_piece){ UINT32_MAX,
			    (uint32_t)k, c };
			return;
		}
		t = c < left[fn] ? c : left[fn];
		(*pcs)[(*npcs)++] = (struct pp_piece){ unit[fn], (uint32_t)k,
		    t };
		c -= t;
		if ((left[fn] -= t) == 0)
			unit[fn]++;
	}
}

/*
 * Return the location of the frame of a caller, the function of node
 * parent of f, calling fn: its call site of fn, else its own file at
 * line 0; made once for each.
 */
static uint32_t
pp_edge(struct pp *w, const struct flame *f, uint32_t parent, uint32_t fn)
{
	const struct pp_site *st;
	uint32_t	 pfn, id, obj, file, name;
	uint64_t	 key;

	(void)flame_node(f, parent, &pfn);
	key = keytab_pair(pfn, fn);
	if ((id = keytab_find(&w->sitekeys, &key)) == KEYTAB_NONE) {
		if (w->fn_edge[pfn] == 0) {
			profile_func(w->p, pfn, &obj, &file, &name);
			w->fn_edge[pfn] = pp_loc(w, pfn, file, 0, 0, 0, 1);
		}
		return w->fn_edge[pfn];
	}
	if (w->site_edge[id] == 0) {
		st = &w->sites[id];
		w->site_edge[id] = pp_loc(w, pfn, st->file, st->line,
		    st->addr, st->has_addr, 1);
	}
	return w->site_edge[id];
}

/*
 * Return the nodes of f but the root depth first, each node's children
 * in the order they were made: consecutive nodes then share the frames
 * above them but the last few (pp_path()), where in the order made a
 * stack's frames were found again from far up (the 100 MB large-C++
 * synthetic: its stacks 98 frames deep, half the writing walk).
 */
static uint32_t *
pp_dfs(const struct flame *f)
{
	size_t		 n = flame_nnodes(f), i;
	uint32_t	*start, *kids, *dfs, fn;

	/* Each node's children, by a counting sort of the nodes. */
	start = xcalloc(n + 2, sizeof(*start));
	for (i = 1; i < n; i++)
		start[flame_node(f, i, &fn) + 2]++;
	for (i = 0; i < n; i++)
		start[i + 2] += start[i + 1];
	kids = xreallocarray(NULL, n + 1, sizeof(*kids));
	for (i = 1; i < n; i++)
		kids[start[flame_node(f, i, &fn) + 1]++] = (uint32_t)i;
	dfs = xreallocarray(NULL, n + 1, sizeof(*dfs));
	sort_preorder(start, kids, (uint32_t)n, dfs);
	free(start);
	free(kids);
	return dfs;
}

/*
 * Walk the nodes of the events' stacks (made together: a stack of
 * several events is one sample with a value for each), each node's
 * counts split over the units of its function's mode, depth first
 * (pp_dfs()).  With ids NULL,
 * write for each node its frames once and a sample for each unit its
 * counts were given to, with each event's share.  Else write nothing:
 * add to ids[fn] the location ids the samples of fn's nodes would hold,
 * and if cost is not NULL, to cost[fn] their counts of the k0-th event
 * shown; with limit not 0, stop as soon as they are more than limit in
 * all, and return 1 (ids[] and cost[] then hold part of them).  Return
 * 0 when every node was walked.
 */
static int
pp_walk(struct pp *w, uint64_t *ids, uint64_t *cost, size_t k0,
    uint64_t limit)
{
	const struct flame *f;
	struct pp_piece	*pcs = NULL;
	uint32_t	*edge = NULL, *depth, *unit, fn, parent;
	uint32_t	 id, file, obj, name, end, nf = profile_nfuncs(w->p);
	uint64_t	*left, *v, c;
	size_t		 n, u, k, j, m, npcs, cap = 0, nd, at;
	size_t		 nk = w->sel->nshow;
	uint64_t	 all = 0, add;
	int		 stopped = 0;

	if (w->sel->stacks == NULL)
		return 0;
	f = w->sel->stacks;
	n = flame_nnodes(f);
	if (w->dfs == NULL)
		w->dfs = pp_dfs(f);
	if (ids == NULL) {
		edge = xcalloc(n + 1, sizeof(*edge));
		w->site_edge = xcalloc((size_t)w->sitekeys.n + 1,
		    sizeof(*w->site_edge));
		w->fn_edge = xcalloc((size_t)nf + 1, sizeof(*w->fn_edge));
		w->path_n = 0;
	}
	depth = xcalloc(n + 1, sizeof(*depth));
	unit = xreallocarray(NULL, nk * nf + 1, sizeof(*unit));
	left = xcalloc(nk * nf + 1, sizeof(*left));
	v = xreallocarray(NULL, nk + 1, sizeof(*v));
	for (fn = 0; fn < nf; fn++)
		pp_range(&w->u, fn, &unit[fn], &end);
	for (k = 1; k < nk; k++)
		memcpy(unit + k * nf, unit, (size_t)nf * sizeof(*unit));
	for (at = 0; at + 1 < n; at++) {
		/*
		 * Depth first, the nodes lie all over: what the node after
		 * next reads of them loaded ahead, the node's and its ends'
		 * places first.
		 */
		if (at + 2 * PP_AHEAD + 1 < n) {
			u = w->dfs[at + 2 * PP_AHEAD];
			__builtin_prefetch(keytab_key(&f->nodes,
			    (uint32_t)(u - 1)));
			__builtin_prefetch(&f->endat[u]);
		}
		if (at + PP_AHEAD + 1 < n)
			__builtin_prefetch(&f->ends[f->endat[w->dfs[at +
			    PP_AHEAD]]]);
		u = w->dfs[at];
		parent = flame_node(f, u, &fn);
		depth[u] = parent != 0 ? depth[parent] + 1 : 0;
		if (ids == NULL && parent != 0)
			edge[u] = pp_edge(w, f, parent, fn);
		npcs = 0;
		for (k = 0; k < nk; k++) {
			if ((c = flame_count(f, u, (unsigned)k)) == 0)
				continue;
			if (cost != NULL && k == k0)
				cost_add1(&cost[fn], c);
			pp_split(w, k, fn, c, unit + k * nf, left + k * nf,
			    &pcs, &npcs, &cap);
		}
		if (npcs == 0)
			continue;
		if (nk > 1)
			qsort(pcs, npcs, sizeof(*pcs), pp_piececmp);
		if (ids != NULL) {
			for (j = 0, m = 1; m < npcs; m++)
				j += pcs[m].at != pcs[m - 1].at;
			add = (uint64_t)(j + 1) * (depth[u] + 1);
			ids[fn] += add;
			if (limit > 0 && (all += add) > limit) {
				stopped = 1;
				break;
			}
			continue;
		}
		/* The frames above: edge[] of u and of its parents. */
		pp_path(w, f, (uint32_t)u, parent, edge, depth);
		nd = depth[u];
		/* A sample a unit, each event's share its value. */
		for (j = 0; j < npcs; j = m) {
			memset(v, 0, nk * sizeof(*v));
			for (m = j; m < npcs && pcs[m].at == pcs[j].at; m++)
				v[pcs[m].k] += pcs[m].count;
			if (pcs[j].at != UINT32_MAX)
				id = pp_unit_loc(w, fn, pcs[j].at);
			else {
				profile_func(w->p, fn, &obj, &file, &name);
				id = pp_loc(w, fn, file, 0, 0, 0, 1);
			}
			pp_sample(w, id, v, nd);
		}
	}
	free(edge);
	free(depth);
	free(w->site_edge);
	free(w->fn_edge);
	w->site_edge = w->fn_edge = NULL;
	free(unit);
	free(left);
	free(v);
	free(pcs);
	return stopped;
}

/* Order functions by cost, largest first, then by id. */
static int
pp_rankcmp(const void *a, const void *b)
{
	const struct pp_rank *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return (x->fn > y->fn) - (x->fn < y->fn);
}

/* Return the sum of ids[0..nf-1], at most 2^64 - 1. */
static uint64_t
pp_sum(const uint64_t *ids, uint32_t nf)
{
	uint64_t	sum = 0;
	uint32_t	fn;

	for (fn = 0; fn < nf; fn++)
		sum = sum + ids[fn] < sum ? UINT64_MAX : sum + ids[fn];
	return sum;
}

/*
 * Choose each function's mode so that the samples hold at most
 * REPORT_PPROF_FRAMES location ids (or what a test's hook says).  Go's
 * pprof takes about 2.5 us and 250 bytes for each it reads (Debian's,
 * 2021): an export of a 13.6 MB profile of cc1 with its
 * instructions, 37 million ids, took 79 s and 6.4 GB to print -top;
 * every instruction is a sample, each a whole stack.  The samples are
 * counted dry (pp_walk()) with every function taken whole (its stacks'
 * counts at line 0 of each file it has lines in, about one sample a
 * node: the stacks were made within half as many frames, format.c); if
 * that fits, with every function split finest, and if that fits too, so
 * be it; else each function is taken whole and then, costliest first
 * (the default sample type), given its instructions, or else its lines,
 * if what that adds still fits.  If the functions whole do not fit
 * (deep stacks of C++ code inlined from many headers: a sample for each
 * file of each), each is taken as one, and then, costliest first, whole
 * where that still fits.  Return 0; -1, having chosen nothing, if the
 * functions whole fit but the profile kept only the calls' sites of its
 * machine code (instrs_sites()): its instructions are wanted.
 */
static int
pp_modes(struct pp *w)
{
	struct pp_units	*u = &w->u;
	struct pp_rank	*r;
	uint32_t	 nf = profile_nfuncs(w->p), fn, i;
	uint64_t	*fine = NULL, *lines = NULL, *one = NULL, *whole, *cost;
	uint64_t	 sum;
	uint64_t	 room = 0, add;
	size_t		 k0 = 0;
	unsigned char	*finest;
	int		 need = 0;

	finest = xreallocarray(NULL, (size_t)nf + 1, 1);
	memcpy(finest, u->mode, nf);
	whole = xcalloc((size_t)nf + 1, sizeof(*whole));
	cost = xcalloc((size_t)nf + 1, sizeof(*cost));
	while (w->sel->nsort > 0 && k0 + 1 < w->sel->nshow &&
	    w->sel->show[k0] != w->sel->sort[0])
		k0++;
	w->most = hooks.pprof_frames > 0 ? hooks.pprof_frames :
	    REPORT_PPROF_FRAMES;
	memset(u->mode, PP_WHOLE, nf);
	/* Past the budget whole: the functions as one may not fit either. */
	if (pp_walk(w, whole, cost, k0, hooks.pprof_uncut ? 0 : w->most) ||
	    (sum = pp_sum(whole, nf)) > w->most) {
		one = xcalloc((size_t)nf + 1, sizeof(*one));
		memset(u->mode, PP_ONE, nf);
		(void)pp_walk(w, one, NULL, 0, 0);
		if ((sum = pp_sum(one, nf)) > w->most) {
			/* All as one: the functions with samples counted. */
			w->over = sum;
			for (fn = 0; fn < nf; fn++)
				w->nmode[PP_ONE] += one[fn] > 0;
			goto out;
		}
		room = w->most - sum;
		/* They fit as one: each whole, for what it would add. */
		memset(whole, 0, (size_t)nf * sizeof(*whole));
		memset(cost, 0, (size_t)nf * sizeof(*cost));
		memset(u->mode, PP_WHOLE, nf);
		(void)pp_walk(w, whole, cost, k0, 0);
	} else if (w->ins != NULL && instrs_sites(w->ins)) {
		/* Functions could be split: every instruction is wanted. */
		need = -1;
		goto out;
	} else {
		room = w->most - sum;
		memcpy(u->mode, finest, nf);
		fine = xcalloc((size_t)nf + 1, sizeof(*fine));
		(void)pp_walk(w, fine, NULL, 0, 0);
		if (pp_sum(fine, nf) <= w->most)
			goto out;	/* all finest: nothing to say */
		lines = xcalloc((size_t)nf + 1, sizeof(*lines));
		memset(u->mode, PP_LINES, nf);
		(void)pp_walk(w, lines, NULL, 0, 0);
	}
	r = xreallocarray(NULL, (size_t)nf + 1, sizeof(*r));
	for (fn = 0; fn < nf; fn++) {
		r[fn].fn = fn;
		r[fn].cost = cost[fn];
	}
	qsort(r, nf, sizeof(*r), pp_rankcmp);
	for (i = 0; i < nf; i++) {
		fn = r[i].fn;
		u->mode[fn] = PP_WHOLE;
		if (one != NULL) {
			/* Whole (never fewer ids than as one) if it fits. */
			add = whole[fn] > one[fn] ? whole[fn] - one[fn] : 0;
			if (w->over > 0 || add > room) {
				u->mode[fn] = PP_ONE;
				add = 0;
			}
		} else if (finest[fn] == PP_INSTRS && (add = fine[fn] -
		    whole[fn]) <= room)
			u->mode[fn] = PP_INSTRS;
		else if ((add = lines[fn] - whole[fn]) <= room)
			u->mode[fn] = PP_LINES;
		else
			add = 0;
		room -= add;
		if (whole[fn] > 0)
			w->nmode[u->mode[fn]]++;
	}
	free(r);
out:
	free(finest);
	free(fine);
	free(lines);
	free(one);
	free(whole);
	free(cost);
	return need;
}

/*
 * Write sel's stacks, every event shown, as one gzip-compressed pprof
 * profile.
 */
int
report_pprof(FILE *out, const struct selection *sel)
{
	struct pp	*w = xcalloc(1, sizeof(*w));	/* its buffers: big */
	const struct profile *p = sel->p;
	uint32_t	 i;
	char		 said[256];

	w->out = out;
	w->sel = sel;
	w->p = p;
	w->ins = profile_instrs(p);
	if (w->ins != NULL && instrs_empty(w->ins))
		w->ins = NULL;
	w->nvals = sel->nshow;
	w->st = strtab_create();
	strtab_follow(w->st, profile_strtab(p));
	w->strmap = xcalloc((size_t)profile_nstrings(p) + 1,
	    sizeof(*w->strmap));
	w->objidx = xcalloc((size_t)profile_nstrings(p) + 1,
	    sizeof(*w->objidx));
	for (i = 0; i < profile_nobjects(p); i++)
		w->objidx[profile_object(p, i)] = i + 1;
	keytab_init(&w->fns, 2);
	keytab_init(&w->sites_at, 4);
	w->values = xreallocarray(NULL, w->nvals + 1, sizeof(*w->values));
	w->cost = xreallocarray(NULL, profile_nevents(p) + 1,
	    sizeof(*w->cost));

	pp_bases(w);
	pp_units(w, &w->u);
	w->uloc = xcalloc((size_t)w->u.ofirst + profile_nfuncs(p) + 1,
	    sizeof(*w->uloc));
	/* A caller's frame: its costliest site for the first sort event. */
	pp_sites(w, &w->sitekeys, &w->sites, sel->nsort > 0 ? sel->sort[0] :
	    0);
	if (pp_modes(w) == -1) {
		pp_free(w);
		return REPORT_NEED_INSTRS;
	}
	if (pp_modes_said(w, said, sizeof(said)) == 0)
		msg_note("%s: pprof %s; --function narrows the export",
		    sel->run->profile_name, said);
	/* The fastest compression: the export is written once, read once. */
	w->gz = gzout_open(out, 1);
	pp_head(w);
	(void)pp_walk(w, NULL, NULL, 0, 0);
	pp_flush(w);
	gzout_close(w->gz);
	if (w->clamped)
		msg_note("pprof values are signed: counts above %lld were "
		    "written as %lld", (long long)INT64_MAX,
		    (long long)INT64_MAX);
	pp_free(w);
	return 0;
}

/* Free the export's tables and w. */
static void
pp_free(struct pp *w)
{
	strtab_free(w->st);
	free(w->packed);
	free(w->strmap);
	free(w->objidx);
	keytab_free(&w->fns);
	keytab_free(&w->sites_at);
	free(w->loc);
	free(w->site_loc);
	free(w->base);
	free(w->has_base);
	free(w->lo);
	free(w->hi);
	free(w->batch);
	free(w->frames);
	free(w->labels);
	free(w->values);
	free(w->cost);
	free(w->u.ifirst);
	free(w->u.lfirst);
	free(w->u.ffirst);
	free(w->u.fcost);
	free(w->u.ids);
	free(w->u.mode);
	free(w->uloc);
	keytab_free(&w->sitekeys);
	free(w->sites);
	free(w->dfs);
	free(w->path);
	free(w->path_len);
	free(w);
}
