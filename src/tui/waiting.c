// SPDX-License-Identifier: GPL-2.0
/*
 * waiting.c - the tasks waiting on each CPU's runqueue, from the events
 *
 * For the lanes: a task is drawn in its CPU's lane while it waits there,
 * not only while it runs.  The rules, from the events alone (the model's
 * queues are not kept past the analysis): a sched_wakeup puts its task on
 * target_cpu's queue; a sched_switch takes next off its queue and puts
 * prev back on its CPU's when it was preempted (prev_state R); a
 * migration moves a waiting task; an exit, lost events on its CPU, or a
 * switch-in the trace did not show (xp_lanes_apply()) end a wait.  The
 * index keeps the waiting tasks at each checkpoint (at most
 * XP_CP_WAITERS), so a window replayed from a checkpoint knows who was
 * already waiting when it starts.
 */
#include <stdlib.h>
#include <string.h>

#include "trace_window.h"
#include "util/util.h"

static uint32_t slot_of(const struct xp_waiters *ws, int32_t pid)
{
	uint32_t mask = ws->nr_slots - 1, i;

	for (i = ((uint32_t)pid * 2654435761u) & mask; ws->slots[i].pid && ws->slots[i].pid != pid;
	     i = (i + 1) & mask)
		;
	return i;
}

const struct xp_waiter *xp_waiter_of(const struct xp_waiters *ws, int32_t pid)
{
	uint32_t i;

	if (!ws->nr_slots || pid <= 0)
		return NULL;
	i = slot_of(ws, pid);
	return ws->slots[i].pid ? &ws->slots[i] : NULL;
}

void xp_waiters_start(struct xp_waiters *ws, int32_t pid, int32_t cpu, uint64_t since)
{
	uint32_t i;

	if (pid <= 0 || cpu < 0)
		return;
	if ((ws->used + 1) * 2 > ws->nr_slots) {
		struct xp_waiters old = *ws;

		ws->nr_slots = old.nr_slots ? old.nr_slots * 2 : 64;
		ws->slots = xcalloc(ws->nr_slots, sizeof(*ws->slots));
		for (uint32_t j = 0; j < old.nr_slots; j++)
			if (old.slots[j].pid)
				ws->slots[slot_of(ws, old.slots[j].pid)] = old.slots[j];
		free(old.slots);
	}
	i = slot_of(ws, pid);
	if (!ws->slots[i].pid)
		ws->used++;
	ws->slots[i] = (struct xp_waiter){ .pid = pid, .cpu = cpu, .since = since };
}

/* Take slot i out, shifting back the entries its removal would cut off from their home. */
static void remove_slot(struct xp_waiters *ws, uint32_t i)
{
	uint32_t mask = ws->nr_slots - 1, j = i;

	ws->slots[i].pid = 0;
	ws->used--;
	for (;;) {
		uint32_t home;

		j = (j + 1) & mask;
		if (!ws->slots[j].pid)
			return;
		home = ((uint32_t)ws->slots[j].pid * 2654435761u) & mask;
		/* j's entry may move to i when i lies cyclically in [home, j) */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			ws->slots[i] = ws->slots[j];
			ws->slots[j].pid = 0;
			i = j;
		}
	}
}

void xp_waiters_end(struct xp_waiters *ws, int32_t pid, uint64_t ts, xp_wait_end_fn end, void *data)
{
	uint32_t i;

	if (!ws->nr_slots || pid <= 0)
		return;
	i = slot_of(ws, pid);
	if (!ws->slots[i].pid)
		return;
	if (end)
		end(data, &ws->slots[i], ts);
	remove_slot(ws, i);
}

void xp_waiters_apply(struct xp_waiters *ws, const struct sl_event *ev, xp_wait_end_fn end, void *data)
{
	const struct xp_waiter *w;

	switch (ev->type) {
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		if (!ev->wake.success || xp_waiter_of(ws, ev->wake.pid))
			break;
		xp_waiters_start(ws, ev->wake.pid, ev->wake.target_cpu, ev->ts);
		break;
	case SL_EV_SWITCH:
		xp_waiters_end(ws, ev->sw.next_pid, ev->ts, end, data);
		xp_waiters_end(ws, ev->sw.prev_pid, ev->ts, end, data);
		if (ev->sw.prev_class == SL_PREV_PREEMPTED)
			xp_waiters_start(ws, ev->sw.prev_pid, ev->cpu, ev->ts);
		break;
	case SL_EV_MIGRATE:
		w = xp_waiter_of(ws, ev->migrate.pid);
		if (w) {
			xp_waiters_end(ws, ev->migrate.pid, ev->ts, end, data);
			xp_waiters_start(ws, ev->migrate.pid, ev->migrate.dest_cpu, ev->ts);
		}
		break;
	case SL_EV_EXIT:
		xp_waiters_end(ws, ev->exit.pid, ev->ts, end, data);
		break;
	case SL_EV_LOST:
		/* who waits on this CPU is not known any more */
		for (uint32_t i = 0; i < ws->nr_slots; i++)
			while (ws->slots[i].pid && ws->slots[i].cpu == ev->cpu)
				xp_waiters_end(ws, ws->slots[i].pid, ev->ts, end, data);
		break;
	default:
		break;
	}
}

void xp_waiters_end_all(struct xp_waiters *ws, uint64_t ts, xp_wait_end_fn end, void *data)
{
	for (uint32_t i = 0; i < ws->nr_slots; i++)
		if (ws->slots[i].pid && end)
			end(data, &ws->slots[i], ts);
	xp_waiters_free(ws);
}

void xp_waiters_free(struct xp_waiters *ws)
{
	free(ws->slots);
	memset(ws, 0, sizeof(*ws));
}
