// SPDX-License-Identifier: GPL-2.0
/*
 * analysis.c - reader -> model -> analyzers, once over the trace
 *
 * Two ways through the same loop, with the same result to the byte:
 *
 * - single-threaded: sl_reader_next() then sl_model_feed(), event by event;
 * - pipelined (the default when more than one CPU is usable): a reader
 *   thread calls sl_reader_next() into batches of events in a small ring
 *   (RING_BATCHES x BATCH_EVENTS), and the main thread feeds the model from
 *   them in the same order.  The wall time is then close to the larger of
 *   the two halves instead of their sum.  SCHEDLINT_THREADS=1 forces the
 *   single-threaded loop (tests compare the two).
 *
 * What the two threads share, and how it is kept safe:
 * - the batches: handed over under the ring's mutex; the reader thread never
 *   touches a batch the main thread holds, and the other way round;
 * - payload pointers of an event (the IPI cpumask words, owned by the
 *   reader and valid until its next event) are copied into the batch;
 * - reader->info, which the reader updates as it reads (lost events, text's
 *   CPU count and bad lines): the main thread never reads it while the
 *   thread runs.  The thread records a copy of it in the batch after each
 *   SL_EV_LOST (the single-threaded loop copies it there) and, when --to
 *   may stop the loop early, after every event that changed it, so the main
 *   thread sees at each event what the single-threaded loop would have;
 * - the string table: the reader thread interns, the main thread only calls
 *   sl_str(), which is safe against concurrent interning (strtab.c);
 * - errors: the thread reports into its own struct sl_error; the end of the
 *   trace or an error travels in order behind the last event, so an error
 *   after the --to stop is never reported (the single-threaded loop never
 *   read that far), and the main thread stops the thread at --to.
 * The reader itself (its file, tep handle, decompression state) is used by
 * the reader thread alone between pthread_create() and pthread_join().
 */
#define _GNU_SOURCE
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedlint/analysis.h"
#include "schedlint/context.h"
#include "util/util.h"

#define BATCH_EVENTS	2048
#define BATCH_SNAPS	8		/* info copies per batch; more start a new batch */
/*
 * About 1 MB of batches (1.2 with cpumask words), all of it resident
 * when the model's state peaks at the trace's end.  A full ring wakes the
 * reader every RING_BATCHES / 2 batches: 4 batches (0.5 MB less peak
 * RSS) woke it every 4096 events, 4x the context switches of fad8321's
 * 16, and cost 2% more CPU on a 2.97 M-event trace (0.48 s against 0.47,
 * 8 runs each in turn); 16 saved nothing more.
 */
#define RING_BATCHES	8

/* reader->info as it was right after the reader returned ev[idx] */
struct info_snap {
	uint32_t idx;
	struct sl_trace_info info;
};

struct batch {
	struct sl_event ev[BATCH_EVENTS];
	uint32_t nr;
	uint32_t nr_snaps;
	struct info_snap snap[BATCH_SNAPS];
	uint64_t *words;		/* the events' cpumask words, copied */
	size_t nr_words, words_alloc;
	bool last;			/* the reader thread's last batch: end follows */
	int end;			/* then: 0 end of trace, < 0 the reader's error */
};

struct pipe {
	struct sl_reader *reader;
	uint32_t batch_events;		/* BATCH_EVENTS, or fewer (SCHEDLINT_BATCH_EVENTS) */
	size_t batch_words;		/* cpumask words per batch (2 per event), unless one is larger */
	bool track_info;		/* snapshot info at every change, not only at LOST */

	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full;
	struct batch *ring[RING_BATCHES];
	unsigned int head, count;	/* full batches: ring[head .. head + count) */
	bool stop;			/* the main thread wants no more */

	struct sl_error err;		/* the reader thread's errors */
};

static bool past_to(const struct sl_model *m, const struct sl_event *ev)
{
	/* past --to: nothing later can be reported (but what timehist clips to it) */
	return m->cfg->to_set && !m->cfg->to_rel && ev->ts > m->cfg->to_ns && !m->cfg->read_past_to;
}

/* --- the single-threaded loop --- */

static int run_single(struct sl_analysis *an, struct sl_reader *reader,
		      sl_event_cb cb, void *cb_data)
{
	struct sl_event ev;
	/* what the loop asks of some runs only: --to's stop, SL_EV_COMM */
	const bool slow = reader->comm || an->model->cfg->to_set;
	int ret;

	while ((ret = sl_reader_next(reader, &ev)) > 0) {
		if (__builtin_expect(slow, 0)) {
			if (ev.type == SL_EV_COMM) {
				sl_model_comm(an->model, &ev);
				continue;
			}
			if (past_to(an->model, &ev)) {
				an->model->stopped_at_to = true;
				break;
			}
		}
		if (cb)
			cb(cb_data, &ev);
		sl_model_feed(an->model, &ev);
		/* facts the reader learns while reading (lost events, CPU count, bad lines) */
		if (ev.type == SL_EV_LOST)
			an->info = reader->info;
	}
	if (ret >= 0)
		an->info = reader->info;
	return ret;
}

/* --- the pipeline: reader thread --- */

/*
 * Hand b (if any) to the main thread, and return an empty batch to fill,
 * or NULL when the main thread asked to stop.
 */
static struct batch *swap_batch(struct pipe *p, struct batch *b)
{
	struct batch *next = NULL;
	bool was_empty = false;

	pthread_mutex_lock(&p->lock);
	if (b)
		was_empty = !p->count++;	/* only then may the main thread wait */
	/* full: sleep until half of it is free, not one wakeup per batch */
	if (!p->stop && p->count == RING_BATCHES)
		while (!p->stop && p->count > RING_BATCHES / 2)
			pthread_cond_wait(&p->not_full, &p->lock);
	if (!p->stop) {
		next = p->ring[(p->head + p->count) % RING_BATCHES];
		next->nr = next->nr_snaps = 0;
		next->nr_words = 0;
		next->last = false;
	}
	pthread_mutex_unlock(&p->lock);
	if (was_empty)
		pthread_cond_signal(&p->not_empty);	/* after the unlock: see release_full() */
	return next;
}

/*
 * The reader thread is throughput work that never needs to run at once:
 * when it is woken, the main thread still has RING_BATCHES / 2 batches
 * to go.  As SCHED_BATCH it does not preempt the main thread when the
 * scheduler puts it on the main thread's CPU (the other one busy): it
 * runs when the main thread waits or its slice ends, and then fills the
 * ring in one go.  Only from SCHED_OTHER: a policy the user chose
 * (chrt) is kept.
 */
static void reader_policy(void)
{
	struct sched_param sp;
	int policy;

	if (!pthread_getschedparam(pthread_self(), &policy, &sp) && policy == SCHED_OTHER)
		pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);
}

static void *reader_thread(void *arg)
{
	struct pipe *p = arg;
	struct sl_reader *r = p->reader;
	struct sl_trace_info *last = xmalloc(sizeof(*last));	/* info as last recorded */
	struct batch *b;
	int ret = 0;

	reader_policy();
	b = swap_batch(p, NULL);

	memcpy(last, &r->info, sizeof(*last));
	while (b) {
		struct sl_event *ev;
		bool snap;
		uint32_t nw = 0;

		if (b->nr == p->batch_events && !(b = swap_batch(p, b)))
			break;
		ev = &b->ev[b->nr];
		ret = sl_reader_next(r, ev);
		if (ret <= 0)
			break;
		snap = ev->type == SL_EV_LOST ||
		       (p->track_info && memcmp(last, &r->info, sizeof(*last)));
		if (sl_event_has_ipi(ev) && ev->ipi.mask.words)
			nw = ev->ipi.mask.nr_words;
		if ((snap && b->nr_snaps == BATCH_SNAPS) ||
		    (nw && b->nr && b->nr_words + nw > p->batch_words)) {
			/* no room for what it carries: it opens the next batch */
			struct sl_event held = *ev;

			if (!(b = swap_batch(p, b)))
				break;
			ev = &b->ev[0];
			*ev = held;
		}
		if (sl_event_has_ipi(ev)) {
			/*
			 * Copy the words into the batch; until the main thread
			 * takes the batch they are an offset (the words may
			 * still move as the batch fills).  No words: no mask.
			 */
			if (nw) {
				GROW(b->words, b->words_alloc, MAX(b->nr_words + nw, p->batch_words));
				memcpy(b->words + b->nr_words, ev->ipi.mask.words, nw * sizeof(uint64_t));
				ev->ipi.mask.words = (const uint64_t *)(uintptr_t)b->nr_words;
				b->nr_words += nw;
			} else {
				ev->ipi.mask.words = NULL;
				ev->ipi.mask.nr_words = 0;
			}
		}
		if (snap) {
			struct info_snap *s = &b->snap[b->nr_snaps++];

			s->idx = b->nr;
			memcpy(&s->info, &r->info, sizeof(s->info));
			memcpy(last, &r->info, sizeof(*last));
		}
		b->nr++;
	}
	if (b) {
		b->last = true;
		b->end = ret;
		swap_batch(p, b);
	}
	free(last);
	return NULL;
}

/* --- the pipeline: main thread --- */

static struct batch *next_full(struct pipe *p)
{
	struct batch *b;

	pthread_mutex_lock(&p->lock);
	while (!p->count)
		pthread_cond_wait(&p->not_empty, &p->lock);
	b = p->ring[p->head];
	pthread_mutex_unlock(&p->lock);
	return b;
}

/*
 * The batch at head is read: its room goes back to the reader thread.
 * The signal comes after the unlock: signalled under the lock, the
 * woken thread ran into the held mutex and slept on it again, and the
 * unlock had to wake it a second time.  Nothing is lost: a waiter tests
 * the count under the lock before it sleeps, and the pipe outlives both
 * signals (pthread_join() comes first).
 */
static void release_full(struct pipe *p)
{
	bool wake;

	pthread_mutex_lock(&p->lock);
	p->head = (p->head + 1) % RING_BATCHES;
	p->count--;
	wake = p->count == RING_BATCHES / 2;
	pthread_mutex_unlock(&p->lock);
	if (wake)
		pthread_cond_signal(&p->not_full);
}

static void pipe_free(struct pipe *p)
{
	for (int i = 0; i < RING_BATCHES; i++) {
		if (p->ring[i])
			free(p->ring[i]->words);
		free(p->ring[i]);
	}
	pthread_cond_destroy(&p->not_full);
	pthread_cond_destroy(&p->not_empty);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

/* Events per batch: SCHEDLINT_BATCH_EVENTS (for tests: 1 hands over every event) */
static uint32_t batch_events(void)
{
	const char *s = getenv("SCHEDLINT_BATCH_EVENTS");
	char *end;
	long n;

	if (!s || !*s)
		return BATCH_EVENTS;
	n = strtol(s, &end, 10);
	return !*end && n >= 1 && n < BATCH_EVENTS ? (uint32_t)n : BATCH_EVENTS;
}

/*
 * The pipelined loop: 1 when it ran, with *ret what run_single() would have
 * returned; 0 when no thread could be started (then nothing was read).
 */
static int run_pipelined(struct sl_analysis *an, struct sl_reader *reader,
			 sl_event_cb cb, void *cb_data, int *ret)
{
	struct pipe *p = xcalloc(1, sizeof(*p));
	struct sl_error *user_err = reader->err;
	/* reader->info as it was when the event being fed was read */
	struct sl_trace_info *rinfo = xmalloc(sizeof(*rinfo));
	struct sl_model *m = an->model;
	/* else past_to() is false throughout, and there is no SL_EV_COMM */
	const bool slow = (m->cfg->to_set && !m->cfg->read_past_to) || reader->comm;
	const bool fast = !slow && !cb;		/* sl_model_feed_many() between snapshots */
	bool done = false, stopped = false;
	pthread_t tid;
	int end = 0;

	p->reader = reader;
	p->batch_events = batch_events();
	p->batch_words = 2 * (size_t)p->batch_events;
	/* --to may stop the loop at any event: then the info at that event counts */
	p->track_info = an->model->cfg->to_set;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->not_empty, NULL);
	pthread_cond_init(&p->not_full, NULL);
	for (int i = 0; i < RING_BATCHES; i++)
		p->ring[i] = xcalloc(1, sizeof(*p->ring[i]));
	memcpy(rinfo, &reader->info, sizeof(*rinfo));
	reader->err = &p->err;
	if (pthread_create(&tid, NULL, reader_thread, p)) {
		reader->err = user_err;
		pipe_free(p);
		free(rinfo);
		return 0;
	}

	while (!done) {
		struct batch *b = next_full(p);
		/*
		 * What the loop asks of each event is read once a batch: the
		 * model is an outside call, after which the compiler reloads
		 * whatever it might have written (the batch's count, the
		 * model's pointer).  Snapshots and cpumask words are rare.
		 */
		const uint32_t nr = b->nr, nr_snaps = b->nr_snaps;
		uint32_t s = 0, snap_at = nr_snaps ? b->snap[0].idx : UINT32_MAX;

		/* the cpumask words' offsets become pointers, for the model to read */
		if (b->nr_words)
			for (uint32_t i = 0; i < nr; i++) {
				struct sl_event *ev = &b->ev[i];

				if (sl_event_has_ipi(ev) && ev->ipi.mask.nr_words)
					ev->ipi.mask.words = b->words + (uintptr_t)ev->ipi.mask.words;
			}
		for (uint32_t i = 0; i < nr; i++) {
			struct sl_event *ev = &b->ev[i];

			/*
			 * Up to the next snapshot (every lost-events marker has
			 * one), nothing is asked of an event when neither --to,
			 * SL_EV_COMM nor a callback is: the model takes the run
			 * in one call.
			 */
			if (fast && i != snap_at) {
				uint32_t end = snap_at < nr ? snap_at : nr;

				sl_model_feed_many(m, ev, end - i);
				i = end - 1;
				continue;
			}
			if (i == snap_at) {
				for (; s < nr_snaps && b->snap[s].idx == i; s++)
					memcpy(rinfo, &b->snap[s].info, sizeof(*rinfo));
				snap_at = s < nr_snaps ? b->snap[s].idx : UINT32_MAX;
			}
			if (slow) {
				if (ev->type == SL_EV_COMM) {
					sl_model_comm(m, ev);
					continue;
				}
				if (past_to(m, ev)) {
					m->stopped_at_to = true;
					done = stopped = true;
					break;
				}
			}
			if (cb)
				cb(cb_data, ev);
			sl_model_feed(m, ev);
			if (ev->type == SL_EV_LOST)
				memcpy(&an->info, rinfo, sizeof(an->info));
		}
		if (!done && b->last) {
			end = b->end;
			done = true;
		}
		release_full(p);
	}
	/* the thread may wait for room, or still read: no more is wanted */
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->not_full);
	pthread_mutex_unlock(&p->lock);
	pthread_join(tid, NULL);
	reader->err = user_err;

	if (stopped) {
		memcpy(&an->info, rinfo, sizeof(an->info));
		*ret = 1;
	} else if (end < 0) {
		*user_err = p->err;
		*ret = end;
	} else {
		an->info = reader->info;
		*ret = 0;
	}
	pipe_free(p);
	free(rinfo);
#ifdef __GLIBC__
	/*
	 * The batches' pages back to the kernel: freed into the heap they
	 * stayed resident under the report's allocations (large ones are
	 * mapped anew), 0.5 MB more peak RSS there than one thread's.
	 */
	malloc_trim(0);
#endif
	return 1;
}

/*
 * Pipeline or not: SCHEDLINT_THREADS=1 says not, a larger number says yes;
 * otherwise yes when this process may run on more than one CPU.
 */
static bool want_pipeline(void)
{
	const char *s = getenv("SCHEDLINT_THREADS");
	cpu_set_t set;

	if (s && *s) {
		char *end;
		long n = strtol(s, &end, 10);

		if (!*end && n >= 1)
			return n > 1;
	}
	if (!sched_getaffinity(0, sizeof(set), &set))
		return CPU_COUNT(&set) > 1;
	return sysconf(_SC_NPROCESSORS_ONLN) > 1;
}

/* pid had name comm (a --comm's): into the list, and the name marked seen */
static void comm_match(const uint32_t *want, size_t nr, int32_t pid, uint32_t comm,
		       int32_t **pids, size_t *nr_pids, size_t *alloc, uint64_t *seen)
{
	for (size_t i = 0; i < nr; i++) {
		if (!comm || comm != want[i] || pid <= 0)
			continue;
		if (i < 64)
			*seen |= 1ULL << i;
		if (*nr_pids && (*pids)[*nr_pids - 1] == pid)
			return;
		GROW(*pids, *alloc, *nr_pids + 1);
		(*pids)[(*nr_pids)++] = pid;
		return;
	}
}

/*
 * comm_pass - the pids that had one of --comm's names anywhere in the
 * trace: a task named perf until it exec'd sched-pipe is sched-pipe's
 * in all of it, its waits before the exec too (issue 29).  A pass of the
 * reader alone before the analysis, so only with --comm, and not for
 * what can be read once (standard input, a FIFO): there a task matches
 * by the name it has at each moment.  An error here is left to the
 * analysis' own reading, which meets it too.
 */
static void comm_pass(const char *path, const struct sl_config *cfg, struct sl_config *out,
		      struct sl_analysis *an)
{
	struct sl_strtab *st;
	struct sl_reader *r;
	struct sl_error err = { 0 };
	struct sl_event ev;
	struct stat sb;
	uint32_t *want;
	int32_t *pids = NULL;
	size_t nr = 0, alloc = 0, keep = 0;
	uint64_t seen = 0;

	if (!cfg->comm_any_name || !cfg->nr_comms || !strcmp(path, "-") || stat(path, &sb) ||
	    !S_ISREG(sb.st_mode))
		return;
	st = sl_strtab_new();
	if (sl_reader_open(path, &cfg->read, st, &r, &err) < 0) {
		sl_strtab_free(st);
		return;
	}
	want = xcalloc(cfg->nr_comms, sizeof(*want));
	for (size_t i = 0; i < cfg->nr_comms; i++)
		want[i] = sl_intern_cstr(st, cfg->comms[i]);
#define MATCH(pid, comm) comm_match(want, cfg->nr_comms, pid, comm, &pids, &nr, &alloc, &seen)
	while (sl_reader_next(r, &ev) > 0) {
		switch (ev.type) {
		case SL_EV_SWITCH:
			MATCH(ev.sw.prev_pid, ev.sw.prev_comm);
			MATCH(ev.sw.next_pid, ev.sw.next_comm);
			break;
		case SL_EV_WAKING:
		case SL_EV_WAKEUP:
		case SL_EV_WAKEUP_NEW:
			MATCH(ev.wake.pid, ev.wake.comm);
			break;
		case SL_EV_MIGRATE:
			MATCH(ev.migrate.pid, ev.migrate.comm);
			break;
		case SL_EV_FORK:
			MATCH(ev.fork.parent_pid, ev.fork.parent_comm);
			MATCH(ev.fork.child_pid, ev.fork.child_comm);
			break;
		case SL_EV_EXIT:
			MATCH(ev.exit.pid, ev.exit.comm);
			break;
		default:
			break;
		}
	}
#undef MATCH
	sl_reader_close(r);
	sl_strtab_free(st);
	free(want);
	if (nr)
		qsort(pids, nr, sizeof(*pids), sl_pid_cmp);
	for (size_t i = 0; i < nr; i++)
		if (!keep || pids[keep - 1] != pids[i])
			pids[keep++] = pids[i];
	an->comm_pids = pids;
	out->comm_pids = pids;
	out->nr_comm_pids = keep;
	out->comms_seen = seen;
}

int sl_analysis_run(const char *path, const struct sl_config *cfg,
		    sl_event_cb cb, void *cb_data,
		    struct sl_analysis **out, struct sl_error *err)
{
	return sl_analysis_run_start(path, cfg, NULL, cb, cb_data, out, err);
}

const char *sl_model_saved_comm(const struct sl_model *m, int32_t pid)
{
	return m->reader ? sl_reader_saved_comm(m->reader, pid) : NULL;
}

int sl_analysis_run_start(const char *path, const struct sl_config *cfg_in,
			  sl_start_cb start, sl_event_cb cb, void *cb_data,
			  struct sl_analysis **out, struct sl_error *err)
{
	struct sl_analysis *an = xcalloc(1, sizeof(*an));
	struct sl_config cfg_store = *cfg_in, *cfg = &cfg_store;
	struct sl_reader *reader;
	int ret;

	*out = NULL;
	an->path = xstrdup(path);
	an->strtab = sl_strtab_new();
	comm_pass(path, cfg_in, cfg, an);
	ret = sl_reader_open(path, &cfg->read, an->strtab, &reader, err);
	if (ret < 0) {
		sl_analysis_free(an);
		return ret;
	}
	an->info = reader->info;
	an->model = sl_model_new(cfg, an->strtab, &an->info);
	if (start && (ret = start(cb_data, an, err)) < 0) {
		sl_reader_close(reader);
		sl_analysis_free(an);
		return ret;
	}

	/*
	 * Folded events reach the model as they came, but not a callback,
	 * nor --to's stop at the first event past it.
	 */
	if (reader->fold_name && !cb && !an->model->cfg->to_set) {
		reader->fold = true;
		an->model->folded_name = reader->fold_name;
	}
	reader->comm = cfg->read_comm && reader->has_comm && !cb;
	an->model->reader = cfg->read_comm ? reader : NULL;
	if (!want_pipeline() || !run_pipelined(an, reader, cb, cb_data, &ret))
		ret = run_single(an, reader, cb, cb_data);
	an->model->reader = NULL;
	sl_reader_close(reader);
	if (ret < 0) {
		sl_analysis_free(an);
		return ret;
	}
	sl_model_finish(an->model);
	if (an->model->ctx && an->model->ctx->error[0]) {
		sl_error_set(err, "%s", an->model->ctx->error);
		sl_analysis_free(an);
		return -EINVAL;
	}
	if (cfg->scope == SL_SCOPE_WORKLOAD && !an->model->workload_pid) {
		sl_error_set(err, "--workload: the trace names no workload "
			     "(schedlint record -- CMD names one)");
		sl_analysis_free(an);
		return -EINVAL;
	}
	ret = sl_filter_check(an->model, err);
	if (ret < 0) {
		sl_analysis_free(an);
		return ret;
	}
	*out = an;
	return 0;
}

void sl_analysis_free(struct sl_analysis *an)
{
	if (!an)
		return;
	sl_model_free(an->model);
	sl_strtab_free(an->strtab);
	free(an->comm_pids);
	free(an->path);
	free(an);
}
