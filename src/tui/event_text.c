// SPDX-License-Identifier: GPL-2.0
/*
 * event_text.c - one event as a line of text, the way trace-cmd report
 * prints it, so what explore shows can be found in `trace-cmd report`
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tui.h"
#include "util/util.h"

static const char *comm_of(const struct xp *x, int32_t pid, uint32_t comm, char *buf, size_t len)
{
	return xp_task_name(x, pid, comm, buf, len);
}

static void mask_text(const struct xp_raw_event *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (uint32_t w = 0; w < r->mask_nr_words; w++)
		for (int b = 0; b < 64; b++)
			if (r->mask_words[w] >> b & 1 && n < len)
				n += (size_t)snprintf(buf + n, len - n, "%s%u", n ? "," : "",
						      w * 64 + (unsigned int)b);
}

void xp_event_text(const struct xp *x, const struct xp_raw_event *r, char *buf, size_t len)
{
	const struct sl_event *ev = &r->ev;
	const struct sl_strtab *st = x->m->strtab;
	char ts[32], who[64], a[64], b[64], fields[320] = "";

	switch (ev->type) {
	case SL_EV_SWITCH:
		snprintf(fields, sizeof(fields), "%s [%d] %c%s ==> %s [%d]",
			 comm_of(x, ev->sw.prev_pid, ev->sw.prev_comm, a, sizeof(a)),
			 sl_prio_shown(ev->sw.prev_prio),
			 ev->sw.prev_letter ? ev->sw.prev_letter : '?',
			 ev->sw.prev_class == SL_PREV_PREEMPTED ? "+" : "",
			 comm_of(x, ev->sw.next_pid, ev->sw.next_comm, b, sizeof(b)),
			 sl_prio_shown(ev->sw.next_prio));
		break;
	case SL_EV_WAKING:
		snprintf(fields, sizeof(fields), "%s [%d] prev_cpu=%03d",
			 comm_of(x, ev->wake.pid, ev->wake.comm, a, sizeof(a)),
			 sl_prio_shown(ev->wake.prio),
			 ev->wake.target_cpu);
		break;
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		snprintf(fields, sizeof(fields), "%s [%d] target_cpu=%03d%s",
			 comm_of(x, ev->wake.pid, ev->wake.comm, a, sizeof(a)),
			 sl_prio_shown(ev->wake.prio),
			 ev->wake.target_cpu, ev->wake.success ? "" : " success=0");
		break;
	case SL_EV_MIGRATE:
		snprintf(fields, sizeof(fields), "%s [%d] cpu %d -> %d",
			 comm_of(x, ev->migrate.pid, ev->migrate.comm, a, sizeof(a)),
			 sl_prio_shown(ev->migrate.prio),
			 ev->migrate.orig_cpu, ev->migrate.dest_cpu);
		break;
	case SL_EV_FORK:
		snprintf(fields, sizeof(fields), "%s forks %s",
			 comm_of(x, ev->fork.parent_pid, ev->fork.parent_comm, a, sizeof(a)),
			 comm_of(x, ev->fork.child_pid, ev->fork.child_comm, b, sizeof(b)));
		break;
	case SL_EV_EXIT:
		snprintf(fields, sizeof(fields), "%s [%d]",
			 comm_of(x, ev->exit.pid, ev->exit.comm, a, sizeof(a)),
			 sl_prio_shown(ev->exit.prio));
		break;
	case SL_EV_IPI_SEND_CPU:
	case SL_EV_IPI_SEND_CPUMASK:
	case SL_EV_IPI_RAISE:
	case SL_EV_IPI_ENTRY:
	case SL_EV_CSD_QUEUE:
	case SL_EV_CSD_FUNC_ENTRY: {
		char mask[128];

		if (ev->ipi.target_cpu >= 0)
			snprintf(mask, sizeof(mask), "cpu=%d", ev->ipi.target_cpu);
		else if (r->mask_nr_words) {
			char list[120];

			mask_text(r, list, sizeof(list));
			snprintf(mask, sizeof(mask), "cpus=%s", list);
		} else
			mask[0] = '\0';
		snprintf(fields, sizeof(fields), "%s%s%s%s%s", mask,
			 ev->ipi.callsite ? " " : "", ev->ipi.callsite ? sl_str(st, ev->ipi.callsite) : "",
			 ev->ipi.callback ? " " : "", ev->ipi.callback ? sl_str(st, ev->ipi.callback) : "");
		break;
	}
	case SL_EV_IRQ_VECTOR:
	case SL_EV_TIMER_TICK:
		snprintf(fields, sizeof(fields), "vector=%d", ev->irq.vector);
		break;
	case SL_EV_WAKE_IDLE_NO_IPI:
		snprintf(fields, sizeof(fields), "cpu=%d", ev->idle_no_ipi.target_cpu);
		break;
	case SL_EV_LOST:
		if (ev->lost.count)
			snprintf(fields, sizeof(fields), "%" PRIu64 " events lost", ev->lost.count);
		else
			snprintf(fields, sizeof(fields), "events lost");
		break;
	case SL_EV_MARKER:
		snprintf(fields, sizeof(fields), "%s", sl_str(st, ev->marker.text));
		break;
	default:
		break;
	}
	snprintf(buf, len, "%s [%03d] %-18s %-18s %s", fmt_ts(ts, sizeof(ts), ev->ts), ev->cpu,
		 ev->type == SL_EV_LOST ? "" : comm_of(x, ev->pid, r->comm, who, sizeof(who)),
		 ev->type == SL_EV_LOST ? "LOST" : sl_str(st, ev->name), fields);
}
