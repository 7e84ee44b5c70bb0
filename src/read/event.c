// SPDX-License-Identifier: GPL-2.0
/*
 * event.c - names of the normalized event types
 */
#include "schedlint/event.h"

const char *sl_event_type_name(enum sl_event_type type)
{
	static const char *const names[SL_EV__COUNT] = {
		[SL_EV_OTHER]		 = "other",
		[SL_EV_SWITCH]		 = "switch",
		[SL_EV_WAKING]		 = "waking",
		[SL_EV_WAKEUP]		 = "wakeup",
		[SL_EV_WAKEUP_NEW]	 = "wakeup_new",
		[SL_EV_MIGRATE]		 = "migrate",
		[SL_EV_FORK]		 = "fork",
		[SL_EV_EXIT]		 = "exit",
		[SL_EV_IPI_SEND_CPU]	 = "ipi_send_cpu",
		[SL_EV_IPI_SEND_CPUMASK] = "ipi_send_cpumask",
		[SL_EV_IPI_RAISE]	 = "ipi_raise",
		[SL_EV_IPI_ENTRY]	 = "ipi_entry",
		[SL_EV_IRQ_VECTOR]	 = "irq_vector",
		[SL_EV_TIMER_TICK]	 = "timer_tick",
		[SL_EV_WAKE_IDLE_NO_IPI] = "wake_idle_no_ipi",
		[SL_EV_CSD_QUEUE]	 = "csd_queue",
		[SL_EV_CSD_FUNC_ENTRY]	 = "csd_func_entry",
		[SL_EV_LOST]		 = "lost",
		[SL_EV_MARKER]		 = "marker",
		[SL_EV_COMM]		 = "comm",
	};
	return type < SL_EV__COUNT && names[type] ? names[type] : "?";
}
