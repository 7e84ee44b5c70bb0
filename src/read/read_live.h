/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read_live.h - ring-buffer pages read while recording, as sl_events in time order
 *
 * schedlint record --live hands every page it reads from the instance's
 * per_cpu/cpuN/trace_pipe_raw to sl_live_add_page(); sl_live_next() gives
 * back the events of all CPUs merged by timestamp, decoded by
 * dat_decode.c with the formats the trace.dat will carry, but only up to
 * a limit: an event is safe to hand on only once no CPU can still deliver
 * an earlier one (see cmd_record.c for the window used).
 */
#ifndef SCHEDLINT_READ_LIVE_H
#define SCHEDLINT_READ_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "dat_write.h"
#include "schedlint/event.h"
#include "schedlint/reader.h"
#include "schedlint/strtab.h"

struct sl_live;
struct tep_handle;

/* Decoders built from meta (the same formats the trace.dat gets); NULL + err on failure. */
struct sl_live *sl_live_new(const struct sl_dat_meta *meta, struct sl_strtab *strtab,
			    struct sl_error *err);
/*
 * The same over a tep already loaded (which it then owns, also on failure): a trace.dat's,
 * to replay its pages as record would read them (tests, bench).
 */
struct sl_live *sl_live_new_tep(struct tep_handle *tep, int nr_cpus, int page_size, int long_size,
				struct sl_strtab *strtab, struct sl_error *err);
void sl_live_free(struct sl_live *l);

/* What a page's header says, once the page check accepted it. */
struct sl_page_facts {
	int data;		/* bytes of records */
	bool missed;		/* events were lost before the page */
	uint64_t missed_count;	/* how many, 0 when the page does not say */
};

/*
 * Queue one page of cpu (copied; an empty one is not kept) once the
 * check a trace.dat's pages get (sl_rb_page_check()) accepts it: NULL,
 * and in *facts (when not NULL) what its header says; else what is wrong
 * with it (then nothing of it is queued).
 */
const char *sl_live_add_page(struct sl_live *l, int cpu, const void *page,
			     struct sl_page_facts *facts);

/*
 * The latest timestamp of the events queued so far (0 before the first).
 * Only each CPU's newest page is walked for it, once: when that page
 * holds records of no event (only discarded ones), the CPU's time is
 * that of its page before, which is earlier - a limit built on it holds
 * events back a round longer, never lets one through too early.
 */
uint64_t sl_live_newest(struct sl_live *l);

/*
 * The next event in time order if its timestamp is <= limit: 1 and *ev
 * (a lost-events marker comes before the first event after a gap), 0 when
 * there is none yet, -EINVAL with err when a page holds a corrupt event.
 */
int sl_live_next(struct sl_live *l, uint64_t limit, struct sl_event *ev, struct sl_error *err);

/* The type id of system:name in the formats, -1 when they lack it. */
int sl_live_event_id(const struct sl_live *l, const char *system, const char *name);

typedef void (*sl_live_scan_fn)(void *ctx, const struct sl_event *ev);

/*
 * Walk one page of cpu without queueing it, and decode only the events
 * whose type id is in types (the few a caller follows): each handed to
 * fn in the page's order.  Returns the data records the page holds, or
 * -EINVAL with err when the check refuses the page (nothing decoded).
 */
int sl_live_scan_page(struct sl_live *l, int cpu, const void *page, const int *types,
		      size_t nr_types, sl_live_scan_fn fn, void *ctx, struct sl_error *err);

/* What the stream told so far: formats, CPU count, lost events. */
void sl_live_info(const struct sl_live *l, struct sl_trace_info *info);

/* Check a raw page as sl_live_add_page() does, without queueing it: NULL and *facts, or what is wrong. */
const char *sl_page_check(const void *page, int page_size, int long_size,
			  struct sl_page_facts *facts);

#endif /* SCHEDLINT_READ_LIVE_H */
