// SPDX-License-Identifier: GPL-2.0
/*
 * text.c - write the events as the tracefs "trace" file shows them
 *
 * The header and the line layout are those of the kernel's
 * print_func_help_header_irq() and trace_print_context(): comm of the
 * logging task right-aligned in 16, its pid, the CPU in three digits, the
 * irq-info column, the timestamp rounded to the microsecond, the event name
 * and its fields as the event's print fmt makes them.  6.x has a 5-char
 * irq-info column and a PID column of 7; 4.x has 4 and 5.  A loss shows as
 * "CPU:N [LOST M EVENTS]" just before the next event of that CPU, as
 * print_trace_line() prints it.
 *
 * A scale trace has tens of millions of lines: formatting is done by hand
 * into a large buffer rather than through stdio.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedgen.h"
#include "formats.h"

#define TEXT_BUF (1u << 20)

struct sg_text {
	struct sg_abi abi;
	int fd;
	const char *path;
	char *buf;
	size_t len;
	int ncpus;
	uint64_t *lost;		/* per CPU: to print before its next event */
	int err;
};

static void flush(struct sg_text *t)
{
	size_t off = 0;

	while (off < t->len && !t->err) {
		ssize_t r = write(t->fd, t->buf + off, t->len - off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			t->err = -errno;
			sg_error("%s: %s", t->path, strerror(errno));
			break;
		}
		off += r;
	}
	t->len = 0;
}

/* Room for one more line; lines are far shorter than this. */
static char *room(struct sg_text *t)
{
	if (t->len > TEXT_BUF - 1024)
		flush(t);
	return t->buf + t->len;
}

static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

static char *put_u64(char *p, unsigned long long v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_int(char *p, long long v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, -(unsigned long long)v);
	}
	return put_u64(p, v);
}

/* %0Nd / %-Nd / %Nd for non-negative numbers and strings */
static char *put_u64_zero(char *p, unsigned long long v, int width)
{
	char tmp[24];
	char *e = put_u64(tmp, v);
	int n = e - tmp;

	while (n < width--)
		*p++ = '0';
	memcpy(p, tmp, n);
	return p + n;
}

static char *put_left(char *p, const char *s, size_t n, int width)
{
	memcpy(p, s, n);
	p += n;
	while ((int)n++ < width)
		*p++ = ' ';
	return p;
}

static char *put_right(char *p, const char *s, size_t n, int width)
{
	while (width-- > (int)n)
		*p++ = ' ';
	memcpy(p, s, n);
	return p + n;
}

static const char header_6[] =
	"#                                _-----=> irqs-off/BH-disabled\n"
	"#                               / _----=> need-resched\n"
	"#                              | / _---=> hardirq/softirq\n"
	"#                              || / _--=> preempt-depth\n"
	"#                              ||| / _-=> migrate-disable\n"
	"#                              |||| /     delay\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n";

static const char header_4[] =
	"#                              _-----=> irqs-off\n"
	"#                             / _----=> need-resched\n"
	"#                            | / _---=> hardirq/softirq\n"
	"#                            || / _--=> preempt-depth\n"
	"#                            ||| /     delay\n"
	"#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
	"#              | |       |   ||||       |         |\n";

/**
 * sg_text_open - start a tracefs text file
 * @entries: events that will be written (the header comes first)
 *
 * The kernel's header counts as written the events in the buffer plus
 * those overwritten before the oldest of them.  The losses a scenario
 * places in the stream are "[LOST N EVENTS]" lines instead, not in that
 * count (a reader would take them twice), so written = entries here.
 */
struct sg_text *sg_text_open(const char *path, const struct sg_abi *abi, int ncpus,
			     uint64_t entries)
{
	struct sg_text *t = xcalloc(1, sizeof(*t));
	char *p;

	t->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (t->fd < 0) {
		sg_error("%s: %s", path, strerror(errno));
		free(t);
		return NULL;
	}
	t->abi = *abi;
	t->path = path;
	t->ncpus = ncpus;
	t->buf = xmalloc(TEXT_BUF);
	t->lost = xcalloc(ncpus, sizeof(*t->lost));
	p = t->buf;
	p += sprintf(p, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %llu/%llu   #P:%d\n#\n",
		     (unsigned long long)entries, (unsigned long long)entries, ncpus);
	p = put_str(p, abi->kernel->text_style == TEXT_STYLE_6 ? header_6 : header_4);
	t->len = p - t->buf;
	return t;
}

static char *put_fields(struct sg_text *t, char *p, const struct sg_event *ev)
{
	char tmp[96];

	switch (ev->type) {
	case SG_SCHED_SWITCH:
		p = put_str(p, "prev_comm=");
		p = put_str(p, ev->comm[0]);
		p = put_str(p, " prev_pid=");
		p = put_int(p, ev->pid[0]);
		p = put_str(p, " prev_prio=");
		p = put_int(p, ev->prio[0]);
		p = put_str(p, " prev_state=");
		sg_state_format(t->abi.kernel, ev->state, tmp);
		p = put_str(p, tmp);
		p = put_str(p, " ==> next_comm=");
		p = put_str(p, ev->comm[1]);
		p = put_str(p, " next_pid=");
		p = put_int(p, ev->pid[1]);
		p = put_str(p, " next_prio=");
		p = put_int(p, ev->prio[1]);
		break;
	case SG_SCHED_WAKING:
	case SG_SCHED_WAKEUP:
	case SG_SCHED_WAKEUP_NEW:
		p = put_str(p, "comm=");
		p = put_str(p, ev->comm[0]);
		p = put_str(p, " pid=");
		p = put_int(p, ev->pid[0]);
		p = put_str(p, " prio=");
		p = put_int(p, ev->prio[0]);
		p = put_str(p, " target_cpu=");
		p = put_u64_zero(p, ev->arg[0], 3);
		break;
	case SG_SCHED_MIGRATE_TASK:
		p = put_str(p, "comm=");
		p = put_str(p, ev->comm[0]);
		p = put_str(p, " pid=");
		p = put_int(p, ev->pid[0]);
		p = put_str(p, " prio=");
		p = put_int(p, ev->prio[0]);
		p = put_str(p, " orig_cpu=");
		p = put_int(p, ev->arg[0]);
		p = put_str(p, " dest_cpu=");
		p = put_int(p, ev->arg[1]);
		break;
	case SG_SCHED_PROCESS_FORK:
		p = put_str(p, "comm=");
		p = put_str(p, ev->comm[0]);
		p = put_str(p, " pid=");
		p = put_int(p, ev->pid[0]);
		p = put_str(p, " child_comm=");
		p = put_str(p, ev->comm[1]);
		p = put_str(p, " child_pid=");
		p = put_int(p, ev->pid[1]);
		break;
	case SG_SCHED_PROCESS_EXIT:
		p = put_str(p, "comm=");
		p = put_str(p, ev->comm[0]);
		p = put_str(p, " pid=");
		p = put_int(p, ev->pid[0]);
		p = put_str(p, " prio=");
		p = put_int(p, ev->prio[0]);
		if (t->abi.kernel->text_style == TEXT_STYLE_6)
			p = put_str(p, ev->arg[0] ? " group_dead=true" : " group_dead=false");
		break;
	case SG_SCHED_WAKE_IDLE_WITHOUT_IPI:
		p = put_str(p, "cpu=");
		p = put_int(p, ev->arg[0]);
		break;
	case SG_IPI_SEND_CPU:
		p = put_str(p, "cpu=");
		p = put_u64(p, (unsigned int)ev->arg[0]);
		p = put_str(p, " callsite=");
		sg_sym_format(&t->abi, ev->addr[0], tmp);
		p = put_str(p, tmp);
		p = put_str(p, " callback=");
		sg_sym_format(&t->abi, ev->addr[1], tmp);
		p = put_str(p, tmp);
		break;
	case SG_LOCAL_TIMER_ENTRY:
	case SG_RESCHEDULE_ENTRY:
	case SG_CALL_FUNCTION_SINGLE_ENTRY:
		p = put_str(p, "vector=");
		p = put_int(p, ev->arg[0]);
		break;
	case SG_FTRACE_PRINT:
		/* the buffer's own newline ends the line */
		p = put_left(p, ev->comm[0], strnlen(ev->comm[0], SG_MAX_MARK), 0);
		break;
	}
	return p;
}

/**
 * sg_text_event - one line (and a lost-events line before it if due)
 * @task_comm: comm of ev->common_pid, as the saved cmdlines resolve it
 */
int sg_text_event(struct sg_text *t, const struct sg_event *ev, const char *task_comm)
{
	bool style6 = t->abi.kernel->text_style == TEXT_STYLE_6;
	char num[24], *p;
	uint64_t us;

	if (ev->cpu < 0 || ev->cpu >= t->ncpus)
		return -EINVAL;
	if (ev->type == SG_LOST) {
		t->lost[ev->cpu] += ev->addr[0];
		return 0;
	}
	if (!sg_kernel_has(t->abi.kernel, ev->type))
		return 0;

	p = room(t);
	if (t->lost[ev->cpu]) {
		p = put_str(p, "CPU:");
		p = put_int(p, ev->cpu);
		p = put_str(p, " [LOST ");
		p = put_u64(p, t->lost[ev->cpu]);
		p = put_str(p, " EVENTS]\n");
		t->lost[ev->cpu] = 0;
	}
	p = put_right(p, task_comm, strlen(task_comm), 16);
	*p++ = '-';
	p = put_left(p, num, put_int(num, ev->common_pid) - num, style6 ? 7 : 5);
	p = put_str(p, " [");
	p = put_u64_zero(p, ev->cpu, 3);
	p = put_str(p, "] ");
	p += sg_irq_info(&t->abi, ev, p);
	*p++ = ' ';
	/* ns2usecs() rounds to the nearest microsecond */
	us = (ev->ts + 500) / 1000;
	p = put_right(p, num, put_u64(num, us / 1000000) - num, 5);
	*p++ = '.';
	p = put_u64_zero(p, us % 1000000, 6);
	p = put_str(p, ": ");
	/* print's fmt is "%ps: %s": the writer's function, then the text */
	p = put_str(p, ev->type == SG_FTRACE_PRINT ? "tracing_mark_write" : sg_event_name(ev->type));
	p = put_str(p, ": ");
	p = put_fields(t, p, ev);
	*p++ = '\n';
	t->len = p - t->buf;
	return t->err;
}

int sg_text_close(struct sg_text *t)
{
	int ret;

	flush(t);
	ret = t->err;
	if (close(t->fd) < 0 && !ret) {
		ret = -errno;
		sg_error("%s: %s", t->path, strerror(errno));
	}
	free(t->buf);
	free(t->lost);
	free(t);
	return ret;
}
