// SPDX-License-Identifier: GPL-2.0
/*
 * ipi.c - inter-processor interrupts and how remote wakeups reach their CPU
 *
 * What it measures: IPIs sent, by callsite (x86 and others since 6.6:
 * ipi:ipi_send_cpu / ipi_send_cpumask; arm64: ipi:ipi_raise with its
 * reason), IPIs received by vector (x86 irq_vectors:*_entry, arm64
 * ipi:ipi_entry), and how remote wakeups were delivered: through the
 * wakelist ("Reduce ttwu rq->lock contention": the waker queues the task
 * on the target CPU's wake list and kicks it with an IPI; sched_wakeup is
 * then logged on the target CPU, inside the IPI) or directly (the waker
 * takes the remote runqueue lock and logs sched_wakeup itself).  Also the
 * delay from the IPI send to the sched_wakeup it caused, and
 * sched_wake_idle_without_ipi (a polling idle CPU woken without an IPI).
 *
 * Blind spots: without ipi events, IPIs are unknown (reported as 0 with
 * the events missing); IPIs sent from interrupt context on behalf of no
 * task are counted but not tied to a wakeup.
 */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/report.h"
#include "util.h"

struct ipi_priv {
	uint64_t sent;			/* send events (one per event, not per target) */
	uint64_t *by_callsite;		/* indexed by interned callsite */
	size_t by_callsite_alloc;
	uint64_t *received;		/* indexed by interned event name */
	size_t received_alloc;
	uint64_t wakelist_wakeups;	/* remote wakeups enqueued by the target CPU */
	uint64_t direct_remote_wakeups;	/* remote wakeups enqueued by the waker's CPU */
	uint64_t wakeups_with_ipi;
	uint64_t wake_idle_without_ipi;
	struct sl_hist send_to_wakeup;	/* IPI send -> sched_wakeup, wakelist wakeups */
	bool have_ipi_events;
};

static void count(uint64_t **arr, size_t *alloc, uint32_t id)
{
	GROW(*arr, *alloc, (size_t)id + 1);
	(*arr)[id]++;
}

static void ipi_on_event(struct sl_analyzer *a, struct sl_model *m, const struct sl_event *ev)
{
	struct ipi_priv *p = a->priv;

	if (!sl_filter_cpu(m->cfg, ev->cpu) || !sl_filter_time(m->cfg, ev->ts))
		return;
	switch (ev->type) {
	case SL_EV_IPI_SEND_CPU:
	case SL_EV_IPI_SEND_CPUMASK:
	case SL_EV_IPI_RAISE:
		p->have_ipi_events = true;
		p->sent++;
		count(&p->by_callsite, &p->by_callsite_alloc, ev->ipi.callsite);
		break;
	case SL_EV_IPI_ENTRY:
		p->have_ipi_events = true;
		count(&p->received, &p->received_alloc, ev->ipi.callsite);
		break;
	case SL_EV_IRQ_VECTOR:
		p->have_ipi_events = true;
		count(&p->received, &p->received_alloc, ev->name);
		break;
	case SL_EV_WAKE_IDLE_NO_IPI:
		p->wake_idle_without_ipi++;
		break;
	default:
		break;
	}
}

static void ipi_on_latency(struct sl_analyzer *a, struct sl_model *m, const struct sl_latency_sample *s)
{
	struct ipi_priv *p = a->priv;

	if (!s->in_filter || !s->remote || s->wakeup_cpu < 0)
		return;
	if (s->wakeup_cpu != s->waker_cpu) {
		p->wakelist_wakeups++;
		if (s->ipi && s->wakeup_ts >= s->ipi_ts)
			sl_hist_add(&p->send_to_wakeup, s->wakeup_ts - s->ipi_ts);
	} else {
		p->direct_remote_wakeups++;
	}
	if (s->ipi)
		p->wakeups_with_ipi++;
}

static void ipi_report_text(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	struct ipi_priv *p = a->priv;
	uint64_t remote = p->wakelist_wakeups + p->direct_remote_wakeups;

	if (!p->have_ipi_events && !remote)
		return;
	sl_report_section(r, "IPIs and remote wakeups");
	fprintf(r->out, "  %llu IPIs sent", (unsigned long long)p->sent);
	if (p->sent) {
		const char *sep = ": ";

		for (size_t id = 0; id < p->by_callsite_alloc; id++) {
			if (!p->by_callsite[id])
				continue;
			fprintf(r->out, "%s%s %llu", sep, sl_str(m->strtab, (uint32_t)id),
				(unsigned long long)p->by_callsite[id]);
			sep = ", ";
		}
	}
	fputc('\n', r->out);
	if (remote)
		fprintf(r->out, "  %llu remote wakeups: %llu via the wakelist (IPI to the target), "
			"%llu direct; %llu with an IPI\n", (unsigned long long)remote,
			(unsigned long long)p->wakelist_wakeups,
			(unsigned long long)p->direct_remote_wakeups,
			(unsigned long long)p->wakeups_with_ipi);
	if (p->wake_idle_without_ipi)
		fprintf(r->out, "  %llu wakeups of a polling idle CPU without an IPI\n",
			(unsigned long long)p->wake_idle_without_ipi);
	if (p->send_to_wakeup.count) {
		fputc('\n', r->out);
		sl_report_latency_header(r, 20);
		sl_report_latency_row(r, 20, "IPI -> sched_wakeup", &p->send_to_wakeup);
	}
}

static void ipi_report_json(struct sl_analyzer *a, struct sl_model *m, cJSON *root)
{
	struct ipi_priv *p = a->priv;
	cJSON *ipi = cJSON_AddObjectToObject(root, "ipi");
	cJSON *by = cJSON_AddObjectToObject(ipi, "by_callsite");
	cJSON *rcv = cJSON_AddObjectToObject(ipi, "received");

	sl_json_add_u64(ipi, "sent", p->sent);
	for (size_t id = 0; id < p->by_callsite_alloc; id++)
		if (p->by_callsite[id])
			sl_json_add_u64(by, sl_str(m->strtab, (uint32_t)id), p->by_callsite[id]);
	for (size_t id = 0; id < p->received_alloc; id++)
		if (p->received[id])
			sl_json_add_u64(rcv, sl_str(m->strtab, (uint32_t)id), p->received[id]);
	sl_json_add_u64(ipi, "wakelist_wakeups", p->wakelist_wakeups);
	sl_json_add_u64(ipi, "direct_remote_wakeups", p->direct_remote_wakeups);
	sl_json_add_u64(ipi, "remote_wakeups_with_ipi", p->wakeups_with_ipi);
	sl_json_add_u64(ipi, "wake_idle_without_ipi", p->wake_idle_without_ipi);
	cJSON_AddItemToObject(ipi, "send_to_wakeup", sl_hist_json(&p->send_to_wakeup));
}

static void ipi_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct ipi_priv *p = a->priv;

	free(p->by_callsite);
	free(p->received);
	sl_hist_free(&p->send_to_wakeup);
}

const struct sl_analyzer_ops sl_ipi_analyzer = {
	.name = "ipi",
	.priv_size = sizeof(struct ipi_priv),
	.on_event = ipi_on_event,
	.on_latency = ipi_on_latency,
	.report_text = ipi_report_text,
	.report_json = ipi_report_json,
	.destroy = ipi_destroy,
};
