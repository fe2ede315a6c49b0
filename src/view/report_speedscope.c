/*
 * report_speedscope.c - --format=speedscope: speedscope's JSON file
 * format (https://www.speedscope.app/file-format-schema.json), one
 * "sampled" profile per event shown, each stack the path to a frame of
 * the flame graph (flamesel.h) weighed by the count of the stacks that
 * end there; the frames, shared by every profile, named as the flame
 * graph names them, with the file of their first function.  A profile
 * whose stacks are estimated from the call graph says so in its name.
 * With several events, each event's profile is written in a second
 * thread while the next event's frames are made.
 */
#include "base/compat.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/hooks.h"
#include "base/keytab.h"
#include "base/num.h"
#include "base/xmalloc.h"
#include "version.h"
#include "model/profile.h"
#include "select/flamesel.h"
#include "select/select.h"
#include "view/json.h"
#include "view/report.h"

#define SS_AHEAD	16	/* frames loaded ahead, depth first */

/*
 * The shared frames: each name and file of the profiles' frames, by
 * their ids in the frames' table of names (which every event's frames
 * share, flamesel_event(): a name is one id), indexed in the order first
 * met, once for all the profiles; their text is read from that table
 * when they are written (names of C++ functions are thousands of bytes:
 * copied into a table of their own, each was compressed there and read
 * back, 0.1 s of the 100 MB large-C++ synthetic's export).
 */
struct ids {
	struct keytab	 byname;	/* keytab_pair(name, file) -> index */
	uint64_t	*w;		/* a profile's weights, in order: */
	size_t		 wcap;		/*   room kept for the next */
};

/* A frame as a profile is written from it: the flame graph's, copied. */
struct ssframe {
	uint32_t	 name, file;	/* ids in the frames' table of names */
	uint64_t	 self;
	unsigned	 depth;
};

/*
 * An event's frames: the flame graph's, read in place (speedscope_of()),
 * or copied (speedscope_take()).
 */
struct ssevent {
	const struct flamesel *fs;	/* the frames read in place, or */
	struct ssframe	*fr;		/*   a copy, depth first, without
					   the root */
	size_t		 n, cap;
	unsigned	 depth;		/* the deepest frame's */
	uint64_t	 total;		/* the root's count */
	int		 exact;		/* the stacks are the profile's */
};

/*
 * The events' profiles written in a second thread, each from a copy of
 * its frames, while the next event's are made.
 */
struct sspipe {
	struct json		*j;
	const struct selection	*sel;
	struct ids		*ids;
	struct ssevent		 ev;
	size_t			 posted;	/* events handed over, */
	size_t			 written;	/*   and written */
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
};

static struct ssframe speedscope_copy(const struct frame *);
static void	speedscope_of(struct ssevent *, const struct flamesel *);
static void	speedscope_take(struct ssevent *, const struct flamesel *);
static struct ssframe speedscope_frame(const struct ssevent *, size_t);
static size_t	speedscope_count(const struct ssevent *);
static void	speedscope_profile(struct json *, const struct selection *,
		    const struct ssevent *, int, struct ids *);
static void	*speedscope_writer(void *);
static struct flamesel *speedscope_pipe(struct json *,
		    const struct selection *, struct ids *);
static void	speedscope_frames(struct json *, const struct flamesel *,
		    const struct ids *);

/* Write the shared frames of ids, their names and files those of s. */
static void
speedscope_frames(struct json *j, const struct flamesel *s,
    const struct ids *ids)
{
	const uint64_t	*k;
	const char	*file;
	uint32_t	 i;

	json_key(j, "frames");
	json_open(j, '[');
	for (i = 0; i < ids->byname.n; i++) {
		k = keytab_key(&ids->byname, i);
		json_open(j, '{');
		json_key(j, "name");
		json_str(j, flamesel_name(s, (uint32_t)(*k >> 32)));
		file = flamesel_name(s, (uint32_t)*k);
		if (*file != '\0') {
			json_key(j, "file");
			json_str(j, file);
		}
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* Return what a profile is written from of frame f. */
static struct ssframe
speedscope_copy(const struct frame *f)
{
	struct ssframe	c;

	c.name = f->name;
	c.file = f->file;
	c.self = f->self;
	c.depth = f->depth;
	return c;
}

/* Make e read s's frames in place. */
static void
speedscope_of(struct ssevent *e, const struct flamesel *s)
{
	e->fs = s;
	e->depth = s->depth;
	e->total = s->frames[0].total;
	e->exact = s->exact;
}

/*
 * Copy into e what a profile is written from of s's frames, for a
 * second thread to write them while s makes the next event's
 * (speedscope_pipe()): 24 bytes a frame where the flame graph's take 56
 * (its places, its links), in the order they are written, depth
 * first (s->dfs), loaded ahead.  The writer then reads them one after
 * another: taking them from child to sibling (the frames' links), it
 * waited on memory at each (48% of its time on cc1 with cache
 * simulation, the making thread idle half of it).
 */
static void
speedscope_take(struct ssevent *e, const struct flamesel *s)
{
	size_t	i, n = s->nframes - 1;

	e->fr = xgrow(e->fr, &e->cap, n + 1, sizeof(*e->fr));
	for (i = 0; i < n; i++) {
		if (i + SS_AHEAD < n)
			__builtin_prefetch(&s->frames[s->dfs[i + SS_AHEAD]]);
		e->fr[i] = speedscope_copy(&s->frames[s->dfs[i]]);
	}
	e->n = n;
	speedscope_of(e, s);
	e->fs = NULL;
}

/* Return the number of e's frames below the root. */
static size_t
speedscope_count(const struct ssevent *e)
{
	return e->fs != NULL ? e->fs->nframes - 1 : e->n;
}

/* Return the i-th of e's frames below the root, depth first. */
static struct ssframe
speedscope_frame(const struct ssevent *e, size_t i)
{
	if (e->fs == NULL)
		return e->fr[i];
	if (i + SS_AHEAD < e->fs->nframes - 1)
		__builtin_prefetch(&e->fs->frames[e->fs->dfs[i + SS_AHEAD]]);
	return speedscope_copy(&e->fs->frames[e->fs->dfs[i]]);
}

/*
 * Write the sampled profile of event ev from its frames s, indexed in
 * ids.
 */
static void
speedscope_profile(struct json *j, const struct selection *sel,
    const struct ssevent *s, int ev, struct ids *ids)
{
	struct ssframe		 fr;
	size_t			 depth, k, at, *tlen, tcap = 0, nw, i;
	size_t			 n = speedscope_count(s);
	char			*name, *text = NULL;
	uint64_t		 key;
	int			 created;
	const char		*evname = profile_str(sel->p,
				    profile_event(sel->p, (unsigned)ev));

	json_open(j, '{');
	json_key(j, "type");
	json_str(j, "sampled");
	json_key(j, "name");
	if (s->exact)
		json_str(j, evname);
	else {
		name = xjoin(evname, strlen(evname), ' ',
		    "(stacks estimated from the call graph)", 38);
		json_str(j, name);
		free(name);
	}
	json_key(j, "unit");
	json_str(j, "none");
	json_key(j, "startValue");
	json_u64(j, 0);
	json_key(j, "endValue");
	json_u64(j, s->total);
	/*
	 * A stack's text: its frames' shared indexes, each written once
	 * after its parent's (tlen[d]: the length of the first d); the
	 * indexes made as the frames come, depth first, which is the order
	 * the stacks meet them in (every frame has one ending under it).
	 */
	tlen = xcalloc(s->depth + 2, sizeof(*tlen));
	/*
	 * Depth first, children in order: the samples, their weights kept
	 * in order to be written after them (a second walk of the frames,
	 * not in the order they lie in, waited on memory for each: a
	 * tenth of the export of cc1 with cache simulation).
	 */
	json_key(j, "samples");
	json_open(j, '[');
	nw = 0;
	for (i = 0; i < n; i++) {
		fr = speedscope_frame(s, i);
		depth = fr.depth;
		at = tlen[depth - 1];
		text = xgrow(text, &tcap, at + 24, 1);
		if (depth > 1)
			text[at++] = ',';
		key = keytab_pair(fr.name, fr.file);
		at += num_u64(keytab_get(&ids->byname, &key, &created),
		    text + at);
		tlen[depth] = at;
		if (fr.self > 0) {
			json_numbers(j, text, at);
			ids->w = xgrow(ids->w, &ids->wcap, nw + 1,
			    sizeof(*ids->w));
			ids->w[nw++] = fr.self;
		}
	}
	json_close(j, ']');
	json_key(j, "weights");
	json_open_flat(j);
	for (k = 0; k < nw; k++)
		json_u64(j, ids->w[k]);
	json_close(j, ']');
	free(tlen);
	free(text);
	json_close(j, '}');
}

/*
 * The second thread of speedscope_pipe() (arg: its struct sspipe):
 * write each event's profile once its frames are copied for it.
 */
static void *
speedscope_writer(void *arg)
{
	struct sspipe	*pp = arg;
	size_t		 i;

	flockfile(pp->j->out);
	for (i = 0; i < pp->sel->nshow; i++) {
		pthread_mutex_lock(&pp->lock);
		while (pp->posted <= i)
			pthread_cond_wait(&pp->cond, &pp->lock);
		pthread_mutex_unlock(&pp->lock);
		speedscope_profile(pp->j, pp->sel, &pp->ev,
		    pp->sel->show[i], pp->ids);
		pthread_mutex_lock(&pp->lock);
		pp->written = i + 1;
		pthread_cond_broadcast(&pp->cond);
		pthread_mutex_unlock(&pp->lock);
	}
	funlockfile(pp->j->out);
	return NULL;
}

/*
 * Write the profiles of sel's events to j, each made here and written
 * in a second thread while the next is made (cc1plus, 13 events: making
 * them took 480 ms, writing them 230); return the frames' names'
 * holder, for the shared frames, or NULL if no thread could be started
 * (nothing written).  An event's frames are copied for the writer once
 * it is done with the one before (the making is the slower; the flame
 * graph's frames handed over whole and a second set made, cc1 with cache
 * simulation's peak was 80 -> 95 MB).  The output's lock, which the
 * caller holds (report_print()), is the writer's while it writes.
 */
static struct flamesel *
speedscope_pipe(struct json *j, const struct selection *sel,
    struct ids *ids)
{
	struct sspipe	 pp;
	struct flamesel	*fs = NULL;
	pthread_t	 thr;
	size_t		 i;

	memset(&pp, 0, sizeof(pp));
	pp.j = j;
	pp.sel = sel;
	pp.ids = ids;
	if (pthread_mutex_init(&pp.lock, NULL) != 0)
		return NULL;
	if (pthread_cond_init(&pp.cond, NULL) != 0) {
		pthread_mutex_destroy(&pp.lock);
		return NULL;
	}
	funlockfile(j->out);
	if (pthread_create(&thr, NULL, speedscope_writer, &pp) != 0) {
		flockfile(j->out);
		pthread_cond_destroy(&pp.cond);
		pthread_mutex_destroy(&pp.lock);
		return NULL;
	}
	for (i = 0; i < sel->nshow; i++) {
		fs = select_flames_of(sel, i, fs);
		pthread_mutex_lock(&pp.lock);
		while (pp.written < i)
			pthread_cond_wait(&pp.cond, &pp.lock);
		pthread_mutex_unlock(&pp.lock);
		speedscope_take(&pp.ev, fs);
		pthread_mutex_lock(&pp.lock);
		pp.posted = i + 1;
		pthread_cond_broadcast(&pp.cond);
		pthread_mutex_unlock(&pp.lock);
	}
	pthread_join(thr, NULL);
	flockfile(j->out);
	pthread_cond_destroy(&pp.cond);
	pthread_mutex_destroy(&pp.lock);
	free(pp.ev.fr);
	return fs;
}

/*
 * Print sel's stacks, every event shown, as one speedscope file: the
 * profiles first, which name the shared frames written after them.
 */
int
report_speedscope(FILE *out, const struct selection *sel)
{
	const struct part	*pt = profile_part(sel->p, 0);
	const char		*cmd = profile_str(sel->p, pt->cmd);
	struct flamesel		*fs = NULL;
	struct ssevent		 ev;
	struct ids		 ids;
	struct json		 j;
	size_t			 i;

	json_init(&j, out);
	json_open(&j, '{');
	json_key(&j, "$schema");
	json_str(&j, "https://www.speedscope.app/file-format-schema.json");
	json_key(&j, "exporter");
	json_str(&j, "cg-annotate " CGA_VERSION);
	json_key(&j, "name");
	json_str(&j, *cmd != '\0' ? cmd : sel->run->profile_name);
	json_key(&j, "activeProfileIndex");
	json_u64(&j, 0);
	json_key(&j, "profiles");
	json_open(&j, '[');
	keytab_init(&ids.byname, 1);
	ids.w = NULL;
	ids.wcap = 0;
	memset(&ev, 0, sizeof(ev));
	if (sel->nshow < 2 || hooks.ss_serial ||
	    sysconf(_SC_NPROCESSORS_ONLN) < 2 ||
	    (fs = speedscope_pipe(&j, sel, &ids)) == NULL)
		for (i = 0; i < sel->nshow; i++) {
			fs = select_flames_of(sel, i, fs);
			speedscope_of(&ev, fs);
			speedscope_profile(&j, sel, &ev, sel->show[i], &ids);
		}
	json_close(&j, ']');
	json_key(&j, "shared");
	json_open(&j, '{');
	speedscope_frames(&j, fs, &ids);	/* none if no profile (fs NULL) */
	json_close(&j, '}');
	json_close(&j, '}');
	json_end(&j);
	keytab_free(&ids.byname);
	free(ids.w);
	flamesel_free(fs);
	return 0;
}
