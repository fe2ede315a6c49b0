/*
 * flamesel.c - flame graph frames.  The stacks of flame.c, kept to those
 * through a function --function matches, are merged into a tree from a
 * root ("all"): a frame per function along each path, named by the
 * function's name with callgrind's recursion and context suffixes folded
 * away (the stack shows them), ';' made ':' and control bytes '?' so the
 * collapsed-stack format stays whole.  Children are ordered by name, as
 * flamegraph.pl orders them, and placed left to right.  With --diff,
 * OLD's stacks are merged in by the same names into old counts; a path
 * only OLD has is a frame of NEW's width 0.
 */
#include "base/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/flame.h"
#include "analysis/fold.h"
#include "base/ascii.h"
#include "base/keytab.h"
#include "base/msg.h"
#include "base/sort.h"
#include "base/strtab.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/flamesel.h"
#include "select/reportopts.h"

#define NONE	UINT32_MAX
#define FLAMESEL_FEW	16	/* more children: qsort() */

static uint32_t	flamesel_name_of(struct flamesel *, const struct profile *,
		    uint32_t, char **, size_t *, char **, size_t *);
/* The profiled program's objects: by file name, and their directory. */
struct flameprog {
	char		*name;		/* cmd:'s first word's file name */
	size_t		 len;
	char		*dir;		/* the first matching object's */
};

static enum framekind flamesel_kind(const struct flameprog *, const char *);
static void	flamesel_program(const struct profile *, struct flameprog *);
static int	flamesel_is_program(const struct flameprog *, const char *);
static unsigned char *flamesel_matches(const struct report_opts *,
		    const struct profile *);
static unsigned char *flamesel_through(const struct report_opts *,
		    const struct profile *, const struct flame *);
static int	flamesel_childcmp(const void *, const void *);
static int	flamesel_rankcmp(const void *, const void *);
static int	flamesel_namecmp(const void *, const void *);
static void	flamesel_rank(struct flamesel *);
static void	flamesel_too_large(const char *);
static void	flamesel_coarse(const char *, const struct flame *);
/* The frames looked up by parent and name (flamesel_walk()). */
struct flamekids {
	struct keytab	 kt;		/* (parent frame, name) -> id, */
	uint32_t	*frame;		/*   its frame */
	size_t		 cap;
	int		 all;		/* every frame looked up */
};

static void	flamesel_keep(const struct report_opts *,
		    const struct profile *, struct flame *);
static void	flamesel_walk(struct flamesel *, struct flamekids *,
		    const struct profile *, const struct flame *, unsigned,
		    int);
static uint32_t	flamesel_frame(struct flamesel *, const struct profile *,
		    const struct flameprog *, uint32_t, uint32_t, uint32_t);
static unsigned char *flamesel_shared(struct flamesel *,
		    const struct profile *, uint32_t *);
static unsigned char *flamesel_look(const struct flame *, const uint32_t *,
		    size_t, const uint64_t *, const uint32_t *,
		    const unsigned char *, int);
static void	flamesel_kids_init(struct flamekids *, int);
static void	flamesel_kids_free(struct flamekids *);
static struct flamesel *flamesel_new(void);
static void	flamesel_root(struct flamesel *);
static void	flamesel_place(struct flamesel *, int);

static const struct flamesel	*cmp_s;		/* for flamesel_childcmp() */

/*
 * Return nonzero if the object at path is the program's: its file name
 * is the command's, or that and a version ("python3" runs python3.11),
 * or it lies in the directory of the first that is (its own libraries).
 */
static int
flamesel_is_program(const struct flameprog *pg, const char *path)
{
	const char	*base = strrchr(path, '/');
	size_t		 dirlen;

	base = base != NULL ? base + 1 : path;
	if (strncmp(base, pg->name, pg->len) == 0 && (base[pg->len] == '\0' ||
	    base[pg->len] == '.' || base[pg->len] == '-' ||
	    (unsigned)(base[pg->len] - '0') <= 9))
		return 1;
	dirlen = (size_t)(base - path);
	return pg->dir != NULL && dirlen > 0 && strlen(pg->dir) == dirlen &&
	    memcmp(pg->dir, path, dirlen) == 0;
}

/*
 * Find the profiled program in p: the file name of cmd:'s first word,
 * and the directory of the first object that bears it.  Without such an
 * object (no cmd:, a script run by an interpreter), pg->name is NULL and
 * objects are told apart by their paths.
 */
static void
flamesel_program(const struct profile *p, struct flameprog *pg)
{
	const char	*cmd = profile_str(p, profile_part(p, 0)->cmd);
	const char	*end, *start, *path, *base;
	uint32_t	 i, n = profile_nobjects(p);

	memset(pg, 0, sizeof(*pg));
	while (*cmd == ' ' || *cmd == '\t')
		cmd++;
	for (end = cmd; *end != '\0' && *end != ' ' && *end != '\t'; end++)
		continue;
	for (start = end; start > cmd && start[-1] != '/'; start--)
		continue;
	if (start == end)
		return;
	pg->name = xstrndup(start, (size_t)(end - start));
	pg->len = (size_t)(end - start);
	for (i = 0; i < n; i++) {
		path = profile_str(p, profile_object(p, i));
		if (flamesel_is_program(pg, path)) {
			base = strrchr(path, '/');
			if (base != NULL && base > path)
				pg->dir = xstrndup(path, (size_t)(base - path + 1));
			return;
		}
	}
	free(pg->name);
	pg->name = NULL;	/* no object of it: by paths */
}

/*
 * Return the kind of code in the object at path: the system's (the
 * loader, valgrind, unknown code), the program's (pg), or a library;
 * when the program is not known, code under the system's library
 * directories is a library's and the rest the program's.
 */
static enum framekind
flamesel_kind(const struct flameprog *pg, const char *path)
{
	const char	*base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	if (*path == '\0' || strcmp(path, "???") == 0 ||
	    strstr(path, "/valgrind/") != NULL ||
	    strncmp(base, "ld-linux", 8) == 0 || strncmp(base, "ld-", 3) == 0)
		return FRAME_SYSTEM;
	if (pg->name != NULL)
		return flamesel_is_program(pg, path) ? FRAME_PROGRAM :
		    FRAME_LIBRARY;
	if (strncmp(path, "/lib/", 5) == 0 || strncmp(path, "/lib64/", 7) == 0 ||
	    strncmp(path, "/usr/lib", 8) == 0 ||
	    strncmp(path, "/usr/local/lib", 14) == 0)
		return FRAME_LIBRARY;
	return FRAME_PROGRAM;
}

/*
 * Return the frame name of function fn of p (in s->names), using *buf
 * (of *size bytes) to make it and *raw (of *rawsize) to read p's name
 * if p keeps it compressed.
 */
static uint32_t
flamesel_name_of(struct flamesel *s, const struct profile *p, uint32_t fn,
    char **buf, size_t *size, char **raw, size_t *rawsize)
{
	uint32_t	 obj, file, name;
	const char	*n;
	size_t		 len, i;

	profile_func(p, fn, &obj, &file, &name);
	n = strtab_read(profile_strtab(p), name, raw, rawsize);
	len = profile_strlen(p, name);
	/*
	 * Most names are frame names as they are, nothing to fold nor to
	 * replace: copied as p keeps them, found a word at a time.
	 */
	if (len > 0 && ascii_run(n, len, ';', '\'') == len)
		return strtab_copy(s->names, profile_strtab(p), name);
	if (len + 1 > *size) {
		*size = len + 1;
		*buf = xreallocarray(*buf, *size, 1);
	}
	if (profile_rows(p) == PROFILE_ROWS_FUNCTIONS)
		len = fold_name(n, len, FOLD_RECURSION | FOLD_CONTEXTS, *buf);
	else
		memcpy(*buf, n, len);
	if (len == 0) {
		/* A name no line gave: as callgrind names unknown code. */
		*size = *size < 4 ? 4 : *size;
		*buf = xreallocarray(*buf, *size, 1);
		memcpy(*buf, "???", 3);
		len = 3;
	}
	for (i = 0; i < len; i++)
		if ((*buf)[i] == ';')
			(*buf)[i] = ':';
		else if ((unsigned char)(*buf)[i] < 0x20 || (*buf)[i] == 0x7f)
			(*buf)[i] = '?';
	/* Most names are the function's as it is: copied as p keeps it. */
	if (len == profile_strlen(p, name) && memcmp(*buf, n, len) == 0)
		return strtab_copy(s->names, profile_strtab(p), name);
	return strtab_intern(s->names, *buf, len);
}

/*
 * Return which functions of p a --function expression matches (by its
 * file:function label), one byte each; NULL when there is no --function.
 */
static unsigned char *
flamesel_matches(const struct report_opts *o, const struct profile *p)
{
	unsigned char	*hit;
	uint32_t	 fn, nf = profile_nfuncs(p), obj, file, name;
	char		*label;

	if (o->nfunctions == 0)
		return NULL;
	hit = xcalloc(nf + 1, 1);
	for (fn = 0; fn < nf; fn++) {
		profile_func(p, fn, &obj, &file, &name);
		label = xjoin(profile_str(p, file), profile_strlen(p, file),
		    ':', profile_str(p, name), profile_strlen(p, name));
		hit[fn] = (unsigned char)report_matches(o->functions,
		    o->nfunctions, label);
		free(label);
	}
	return hit;
}

/*
 * Return, for each node of f, whether --function matches its function or
 * one above it: whether the stacks ending there are kept (one byte a
 * node); NULL when there is no --function: all are.
 */
static unsigned char *
flamesel_through(const struct report_opts *o, const struct profile *p,
    const struct flame *f)
{
	unsigned char	*hit = flamesel_matches(o, p), *through;
	uint32_t	 fn, parent;
	size_t		 i, n = flame_nnodes(f);

	if (hit == NULL)
		return NULL;
	through = xcalloc(n + 1, 1);
	for (i = 1; i < n; i++) {
		parent = flame_node(f, i, &fn);
		through[i] = through[parent] || hit[fn];
	}
	free(hit);
	return through;
}

/*
 * Return a new frame of s under frame parent, for function fn of p named
 * name.
 */
static uint32_t
flamesel_frame(struct flamesel *s, const struct profile *p,
    const struct flameprog *pg, uint32_t fn, uint32_t name, uint32_t parent)
{
	struct frame	*fr;
	uint32_t	 obj, file, fname;

	s->frames = xgrow(s->frames, &s->cap, s->nframes + 1,
	    sizeof(*s->frames));
	fr = &s->frames[s->nframes];
	memset(fr, 0, sizeof(*fr));
	/* A function's file and kind, made for its first frame. */
	if (s->fnkind[fn] == FRAME_NONE) {
		profile_func(p, fn, &obj, &file, &fname);
		s->fnfile[fn] = strtab_intern(s->names, profile_str(p, file),
		    profile_strlen(p, file));
		s->fnkind[fn] = (unsigned char)flamesel_kind(pg,
		    profile_rows(p) == PROFILE_ROWS_OBJECTS ?
		    profile_str(p, fname) : profile_str(p, obj));
	}
	fr->name = name;
	fr->file = s->fnfile[fn];
	fr->kind = (enum framekind)s->fnkind[fn];
	fr->parent = parent;
	fr->depth = s->frames[parent].depth + 1;
	if (fr->depth > s->depth)
		s->depth = fr->depth;
	return (uint32_t)s->nframes++;
}

/*
 * Return, one byte a function of p, whether another function has its
 * frame name (names[], each function's, made here).
 */
static unsigned char *
flamesel_shared(struct flamesel *s, const struct profile *p, uint32_t *names)
{
	uint32_t	 nf = profile_nfuncs(p), fn;
	unsigned char	*uses, *shared;
	size_t		 size = 0, rawsize = 0;
	char		*buf = NULL, *raw = NULL;

	for (fn = 0; fn < nf; fn++)
		names[fn] = flamesel_name_of(s, p, fn, &buf, &size, &raw,
		    &rawsize);
	free(buf);
	free(raw);
	uses = xcalloc((size_t)strtab_count(s->names) + 1, 1);
	for (fn = 0; fn < nf; fn++)
		if (uses[names[fn]] < 2)
			uses[names[fn]]++;
	shared = xreallocarray(NULL, (size_t)nf + 1, 1);
	for (fn = 0; fn < nf; fn++)
		shared[fn] = uses[names[fn]] > 1;
	free(uses);
	return shared;
}

/*
 * Add the stacks of f's k-th event to the tree, making the frames they
 * need, to the counts of NEW or (old set) to those of OLD (with
 * --function, f holds only the stacks through a function it matches:
 * flamesel_keep()).  f's nodes
 * come after their parents; of them, those that hold the event's stacks
 * (flame_event_nodes()): a pass back adds each node's stacks up into its
 * parent's (sub[]), a pass forth makes the frames of the nodes under
 * which some stack is drawn.  Two nodes share a frame where their paths
 * have the same names: under the first two siblings, going down, whose
 * functions differ with one name (flamesel_look()).  The nodes under
 * none look theirs up by parent and name in kids; the others make theirs
 * without looking (nothing else can have it), unless kids->all says so
 * (OLD's walk finds NEW's frames).
 */
static void
flamesel_walk(struct flamesel *s, struct flamekids *kids,
    const struct profile *p, const struct flame *f, unsigned k, int old)
{
	uint64_t	 key, c, *sub;
	uint32_t	 id, *names, fn, parent, *at;
	const uint32_t	*nodes;
	uint32_t	 nf = profile_nfuncs(p);
	size_t		 i, j, nn, n = flame_nnodes(f), drawn = 0;
	unsigned char	*shared, *look;
	int		 created;
	struct flameprog pg;

	flamesel_program(p, &pg);

	/*
	 * Each node's stacks, in room kept from one event's frames to the
	 * next (fresh pages each time were a tenth of speedscope's export
	 * of cc1plus); and how many are drawn, for room for a frame each.
	 */
	s->sub = xgrow(s->sub, &s->sub_cap, n + 1, sizeof(*s->sub));
	s->at = xgrow(s->at, &s->at_cap, n + 1, sizeof(*s->at));
	sub = s->sub;
	at = s->at;
	/* The event's nodes alone: their parents are among them. */
	nodes = flame_event_nodes(f, k, &nn);
	sub[0] = 0;
	for (j = 0; j < nn; j++)
		sub[nodes[j]] = 0;
	for (j = nn; j-- > 0; ) {
		/* Plain sums, as the views' totals are. */
		i = nodes[j];
		sub[i] += flame_count(f, i, k);
		drawn += sub[i] != 0;
		sub[flame_node(f, i, &fn)] += sub[i];
	}
	/* Room for a frame a node drawn at most: no copy as they come. */
	s->frames = xgrow(s->frames, &s->cap, s->nframes + drawn + 1,
	    sizeof(*s->frames));
	if (old) {
		/* OLD's counts apart, room for each frame there may be. */
		s->old = xreallocarray(s->old, s->cap, sizeof(*s->old));
		memset(s->old + s->old_n, 0, (s->cap - s->old_n) *
		    sizeof(*s->old));
		s->old_n = s->cap;
		s->old[0].total += sub[0];
	} else
		s->frames[0].total += sub[0];

	if (s->fnof != p) {
		/* The names of the first profile copied as it keeps them. */
		if (s->fnof == NULL)
			strtab_follow(s->names, profile_strtab(p));
		free(s->fnname);
		free(s->fnshared);
		free(s->fnfile);
		free(s->fnkind);
		s->fnname = xreallocarray(NULL, nf + 1, sizeof(*s->fnname));
		s->fnshared = flamesel_shared(s, p, s->fnname);
		s->fnfile = xreallocarray(NULL, nf + 1, sizeof(*s->fnfile));
		s->fnkind = xreallocarray(NULL, nf + 1, 1);
		memset(s->fnkind, FRAME_NONE, nf + 1);
		s->fnof = p;
	}
	names = s->fnname;
	shared = s->fnshared;
	look = flamesel_look(f, nodes, nn, sub, names, shared, kids->all);
	at[0] = 0;
	for (j = 0; j < nn; j++) {
		i = nodes[j];
		parent = flame_node(f, i, &fn);
		if ((c = sub[i]) == 0)
			continue;
		if (!look[i])
			at[i] = flamesel_frame(s, p, &pg, fn, names[fn],
			    at[parent]);
		else {
			key = keytab_pair(at[parent], names[fn]);
			id = keytab_get(&kids->kt, &key, &created);
			kids->frame = xgrow(kids->frame, &kids->cap,
			    (size_t)id + 1, sizeof(*kids->frame));
			if (created)
				kids->frame[id] = flamesel_frame(s, p, &pg, fn,
				    names[fn], at[parent]);
			at[i] = kids->frame[id];
		}
		if (old)
			s->old[at[i]].total += c;
		else
			s->frames[at[i]].total += c;
		if ((c = flame_count(f, i, k)) > 0) {
			if (old)
				s->old[at[i]].self += c;
			else
				s->frames[at[i]].self += c;
		}
	}
	free(look);
	free(pg.name);
	free(pg.dir);
}

/*
 * Return, one byte a node of f, whether its frame is to be looked up: all
 * if all is set, else those under (or at) a node drawn (sub[]) that has a
 * sibling drawn of another function with its name (names[], shared[]: of
 * functions, whether another has theirs).  Only nodes[] (nn of them, in
 * order, with their parents) may be drawn.  The siblings are found in a
 * table of the drawn nodes of shared names alone.
 */
static unsigned char *
flamesel_look(const struct flame *f, const uint32_t *nodes, size_t nn,
    const uint64_t *sub, const uint32_t *names, const unsigned char *shared,
    int all)
{
	struct keytab	 sib;
	unsigned char	*look, *many = NULL;
	size_t		 i, j, n = flame_nnodes(f), cap = 0;
	uint64_t	 key;
	uint32_t	 id, fn, parent;
	int		 created;

	look = xreallocarray(NULL, n + 1, 1);
	memset(look, all, n + 1);
	if (all)
		return look;
	/* (parent, name) of each drawn node of a shared name: how many. */
	keytab_init(&sib, 1);
	for (j = 0; j < nn; j++) {
		i = nodes[j];
		parent = flame_node(f, i, &fn);
		if (sub[i] == 0 || !shared[fn])
			continue;
		key = keytab_pair(parent, names[fn]);
		id = keytab_get(&sib, &key, &created);
		many = xgrow(many, &cap, (size_t)id + 1, 1);
		many[id] = created ? 0 : 1;
	}
	for (j = 0; j < nn; j++) {
		i = nodes[j];
		parent = flame_node(f, i, &fn);
		look[i] = look[parent];
		if (look[i] || sub[i] == 0 || !shared[fn])
			continue;
		key = keytab_pair(parent, names[fn]);
		look[i] = many[keytab_find(&sib, &key)];
	}
	keytab_free(&sib);
	free(many);
	return look;
}

/* Start kids empty; all: every frame is to be looked up. */
static void
flamesel_kids_init(struct flamekids *kids, int all)
{
	keytab_init(&kids->kt, 1);	/* keytab_pair(parent, name) */
	kids->frame = NULL;
	kids->cap = 0;
	kids->all = all;
}

/* Free kids' tables. */
static void
flamesel_kids_free(struct flamekids *kids)
{
	keytab_free(&kids->kt);
	free(kids->frame);
}

/* Order frames (ids) by name. */
static int
flamesel_childcmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int		c;

	c = strcmp(flamesel_name(cmp_s, cmp_s->frames[x].name),
	    flamesel_name(cmp_s, cmp_s->frames[y].name));
	return c != 0 ? c : (x > y) - (x < y);
}

/* Order frames (ids) by the rank of their names (flamesel_rank()). */
static int
flamesel_rankcmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t	rx = cmp_s->rank[cmp_s->frames[x].name];
	uint32_t	ry = cmp_s->rank[cmp_s->frames[y].name];

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return (x > y) - (x < y);
}

/* Order names (ids) by their text. */
static int
flamesel_namecmp(const void *a, const void *b)
{
	return strcmp(flamesel_name(cmp_s, *(const uint32_t *)a),
	    flamesel_name(cmp_s, *(const uint32_t *)b));
}

/*
 * Rank every name of s's table by its text (s->rank), unless none came
 * since the last time.  Frame names have no NUL and each text is one
 * id, so frames ordered by rank are in the order of their text: the
 * second event's frames and those after are sorted so, the names
 * sorted by text once, not each event's siblings (13 events of the 100
 * MB large-C++ synthetic: those sorts had compared names of thousands
 * of bytes, 3% of the export).
 */
static void
flamesel_rank(struct flamesel *s)
{
	uint32_t	n = strtab_count(s->names), i, *ord;

	if (s->nrank == n)
		return;
	ord = xreallocarray(NULL, n, sizeof(*ord));
	for (i = 0; i < n; i++)
		ord[i] = i;
	cmp_s = s;
	qsort(ord, n, sizeof(*ord), flamesel_namecmp);
	s->rank = xreallocarray(s->rank, n, sizeof(*s->rank));
	for (i = 0; i < n; i++)
		s->rank[ord[i]] = i;
	s->nrank = n;
	free(ord);
}

/* Return the text of frame name id. */
const char *
flamesel_name(const struct flamesel *s, uint32_t id)
{
	return strtab_get(s->names, id);
}

/* Return an empty tree of frames: its root ("all") alone. */
static struct flamesel *
flamesel_new(void)
{
	struct flamesel	*s;

	s = xcalloc(1, sizeof(*s));
	s->names = strtab_create();
	s->frames = xgrow(NULL, &s->cap, 1, sizeof(*s->frames));
	flamesel_root(s);
	return s;
}

/* Make s's frames its root ("all") alone, keeping their room. */
static void
flamesel_root(struct flamesel *s)
{
	memset(&s->frames[0], 0, sizeof(*s->frames));
	s->frames[0].name = strtab_intern(s->names, "all", 3);
	s->frames[0].file = strtab_intern(s->names, "", 0);
	s->frames[0].parent = NONE;
	s->frames[0].kind = FRAME_SYSTEM;
	s->nframes = 1;
	s->depth = 0;
	s->old_all = 0;
}

/*
 * Make the flame graph frames of the options' profile(s); NULL after a
 * message if there are too many to make.
 */
struct flamesel *
flamesel_build(const struct flamesel_from *from)
{
	struct flamesel	*s;
	struct flame	*f;
	struct flamekids kids;
	unsigned	 ev;

	s = flamesel_new();
	/* Names are text: OLD's walk finds NEW's frames by them. */
	flamesel_kids_init(&kids, from->old != NULL);
	ev = (unsigned)from->ev;
	if ((f = flame_build(from->p, &ev, 1, 0)) == NULL) {
		flamesel_too_large(from->run->profile_name);
		goto fail;
	}
	flamesel_coarse(from->run->profile_name, f);
	flamesel_keep(from->o, from->p, f);
	s->exact = f->exact;
	flamesel_walk(s, &kids, from->p, f, 0, 0);
	flame_free(f);
	if (from->old != NULL) {
		ev = (unsigned)from->old_ev;
		if ((f = flame_build(from->old, &ev, 1, 0)) == NULL) {
			flamesel_too_large(from->run->old_name);
			goto fail;
		}
		flamesel_coarse(from->run->old_name, f);
		flamesel_keep(from->o, from->old, f);
		flamesel_walk(s, &kids, from->old, f, 0, 1);
		s->old_all = s->old[0].total;
		flame_free(f);
	}
	flamesel_kids_free(&kids);
	flamesel_place(s, 0);
	return s;
fail:
	flamesel_kids_free(&kids);
	flamesel_free(s);
	return NULL;
}

/*
 * Make the flame graph frames of the k-th event of from's stacks f, in
 * prev (another event's frames, or NULL: new ones), whose frames are
 * dropped and whose names, with the functions' names made for them, and
 * room are kept.
 */
struct flamesel *
flamesel_event(const struct flamesel_from *from, const struct flame *f,
    unsigned k, struct flamesel *prev)
{
	struct flamesel	*s;
	struct flamekids kids;

	if (prev == NULL)
		s = flamesel_new();
	else {
		/* Its names and its room kept: only its frames go. */
		s = prev;
		flamesel_root(s);
	}
	flamesel_kids_init(&kids, 0);
	s->exact = f->exact;
	flamesel_walk(s, &kids, from->p, f, k, 0);
	flamesel_kids_free(&kids);
	flamesel_place(s, prev != NULL);
	return s;
}

/*
 * Order the children of s's frames by name, linked, and place them; with
 * ranked set (an event's frames made in another's table of names), by
 * the names' rank (flamesel_rank()).
 */
static void
flamesel_place(struct flamesel *s, int ranked)
{
	int		(*cmp)(const void *, const void *);
	uint32_t	*order, *at, *fill, v;
	size_t		 i, n = s->nframes, k;

	order = xreallocarray(NULL, n + 1, sizeof(*order));
	at = xcalloc(n + 2, sizeof(*at));
	for (i = 1; i < n; i++)
		at[s->frames[i].parent + 1]++;
	for (i = 0; i < n; i++)
		at[i + 1] += at[i];
	fill = xreallocarray(NULL, n + 1, sizeof(*fill));
	memcpy(fill, at, (n + 1) * sizeof(*fill));
	for (i = 1; i < n; i++)
		order[fill[s->frames[i].parent]++] = (uint32_t)i;
	free(fill);
	if (ranked)
		flamesel_rank(s);
	cmp = ranked ? flamesel_rankcmp : flamesel_childcmp;
	cmp_s = s;
	for (i = 0; i < n; i++) {
		/*
		 * Most frames have a child or two: a call of qsort() each
		 * was a third of the ordering (cc1 with cache simulation's
		 * 13 events).  Names or ranks, then ids: a total order.
		 */
		sort_few(order + at[i], at[i + 1] - at[i], sizeof(*order), cmp,
		    FLAMESEL_FEW);
		s->frames[i].child = at[i + 1] > at[i] ? order[at[i]] : NONE;
		for (k = at[i]; k < at[i + 1]; k++)
			s->frames[order[k]].next = k + 1 < at[i + 1] ?
			    order[k + 1] : NONE;
	}
	cmp_s = NULL;
	/*
	 * The frames depth first, for the views that take them so: read in
	 * that order from s->dfs they are read one after another, not each
	 * waiting on the one before for its link (speedscope_take()).
	 */
	s->dfs = xgrow(s->dfs, &s->dfs_cap, n, sizeof(*s->dfs));
	sort_preorder(at, order, (uint32_t)n, s->dfs);
	/* Places: parents are made before their children. */
	s->frames[0].x = 0;
	for (i = 0; i < n; i++) {
		uint64_t	x = s->frames[i].x;

		for (v = s->frames[i].child; v != NONE; v = s->frames[v].next) {
			s->frames[v].x = x;
			x += s->frames[v].total;
		}
	}
	free(order);
	free(at);
}

/* Say that the stacks of the profile file are too many to show. */
static void
flamesel_too_large(const char *file)
{
	msg(MSG_TOO_LARGE, file, 0, "flame graph stacks: more than %llu "
	    "frames to walk (a call chain of %.0f levels walks as many); "
	    "--function narrows them", (unsigned long long)FLAME_MAX_FRAMES,
	    sqrt(2.0 * (double)FLAME_MAX_FRAMES));
}

/*
 * Say on standard error, for the profile file, that its stacks f were
 * estimated coarser than FLAME_SPLIT, and why.
 */
static void
flamesel_coarse(const char *file, const struct flame *f)
{
	if (f->exact || f->split >= FLAME_SPLIT)
		return;
	if (f->split > 1)
		msg_note("%s: stacks estimated coarser than 1/%u: shares below "
		    "1/%u of the total go up whole (finer, they would hold "
		    "more than %llu frames)", file, FLAME_SPLIT, f->split,
		    (unsigned long long)f->budget);
	else
		msg_note("%s: stacks estimated coarsest: every share goes up "
		    "whole (finer, they would hold more than %llu frames)",
		    file, (unsigned long long)f->budget);
}

/* Free flame graph frames. */
void
flamesel_free(struct flamesel *s)
{
	if (s == NULL)
		return;
	strtab_free(s->names);
	free(s->frames);
	free(s->fnname);
	free(s->fnshared);
	free(s->fnfile);
	free(s->fnkind);
	free(s->sub);
	free(s->at);
	free(s->rank);
	free(s->old);
	free(s->dfs);
	free(s);
}

/*
 * Return the stacks of the nev events evs of from's profile, made
 * together (flame.h), as the exports write them: only those through a
 * function --function matches are counted (the others' ends are 0).
 * NULL after a message if they are too many to make.
 */
struct flame *
flamesel_stacks(const struct flamesel_from *from, const unsigned *evs,
    unsigned nev)
{
	struct flame	*f;

	if ((f = flame_build(from->p, evs, nev, from->o->format->frames)) ==
	    NULL) {
		flamesel_too_large(from->run->profile_name);
		return NULL;
	}
	flamesel_coarse(from->run->profile_name, f);
	flamesel_keep(from->o, from->p, f);
	return f;
}

/*
 * Keep in f, stacks of p, only those through a function --function (in
 * o) matches, if it is given: the others' ends are made 0.
 */
static void
flamesel_keep(const struct report_opts *o, const struct profile *p,
    struct flame *f)
{
	unsigned char	*through = flamesel_through(o, p, f);
	size_t		 i, n = flame_nnodes(f);
	uint32_t	 j;

	for (i = 1; through != NULL && i < n; i++)
		for (j = f->endat[i]; !through[i] && j < f->endat[i + 1]; j++)
			f->ends[j].count = 0;
	free(through);
}

/* Fill kind[] with the kind of code in each object of p, by index. */
void
flamesel_kinds(const struct profile *p, enum framekind *kind)
{
	struct flameprog pg;
	uint32_t	 i;

	flamesel_program(p, &pg);
	for (i = 0; i < profile_nobjects(p); i++)
		kind[i] = flamesel_kind(&pg, profile_str(p,
		    profile_object(p, i)));
	free(pg.name);
	free(pg.dir);
}
