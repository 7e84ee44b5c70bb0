// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_record.c - schedlint record: capture the scheduler events of a run
 *
 * A private tracefs instance (trace_live.c) with the scheduler, IPI and
 * interrupt-vector events this kernel has; the machine's LLC groups
 * written to its trace_marker before any event is enabled (so they are
 * the trace's first event, see SL_MARKER_LLC); CMD started once tracing
 * runs (or nothing, until --duration or a signal); every CPU's ring
 * buffer drained into spool files (dat_write.c) when it is WAKEUP_PERCENT
 * full and every DRAIN_MS, and, with --live, decoded and fed to the model
 * (read_live.c) with a summary refreshed every --interval; at the end a
 * trace.dat and the instance removed.
 *
 * Not disturbing what we record: without --live full pages are spliced
 * (the kernel moves them, we never copy them through our memory) and none
 * of their events is decoded (the pages are checked once recording ends,
 * sl_dat_writer_check()): the few the affinity re-reads follow (exec,
 * fork, a stopper's migration) go to a second, small instance too, which
 * is read and decoded apart (setup_watch()); kallsyms,
 * formats and cmdlines are read before tracing starts or after it stops;
 * we work in runs of at most RUN_BUDGET_US and then sleep BREATHE_US if
 * more is left, so we never hold a CPU long against the workload.  We
 * keep the priority we were started with: the same task empties the
 * buffers, and a lower one would lose events under a CPU-bound load.
 *
 * Leaving the kernel as found: everything we change is inside our
 * instance, and removing it undoes it all.  The signal handlers only set
 * flags; the signals are blocked except while we wait in ppoll(), so
 * they are seen at one place in the loop, and every way out - normal
 * end, CMD failure, any signal whose default is to end the process,
 * errors - goes through record_cleanup().  SIGPIPE and SIGXFSZ are
 * ignored: a closed stdout or a file size limit is a write error we
 * report.  A signal ignored when we started (nohup) stays ignored, but
 * SIGINT and SIGQUIT, which shells ignore in every background job.
 * Ctrl-C reaches CMD too (same process group): we stop recording, give
 * CMD a moment to end, and SIGTERM it if it does not.  The workload is CMD
 * and every process it starts: record is their subreaper
 * (PR_SET_CHILD_SUBREAPER), so one whose parent ends is reparented to
 * record, not to init, and when record ends CMD (--duration, a signal)
 * it ends them all: SIGTERM, then SIGKILL after a grace time, until it
 * has no child left (it ended only CMD's pid, its children ran on:
 * issue 32, 18).  A CMD that ends by itself leaves what it started
 * running, as perf record does.  Only SIGKILL can
 * leave the instance behind, and the next record removes it (an instance
 * is ours while we hold a lock on it, see trace_live.c).
 *
 * The output: refused up front unless it is a regular file or does not
 * exist, written as a temporary file beside it, renamed over it at the
 * end (dat_write.c): an existing trace survives a failed recording.
 *
 * Live ordering: trace_pipe_raw hands out each CPU's events in order, but
 * CPUs are read one after another.  An event is handed to the model only
 * once its timestamp is <= the newest timestamp seen before the current
 * drain round started: every CPU has been read since that event was
 * logged, so no CPU can still bring an earlier one (up to the few us of
 * skew of the "local" clock, which the model tolerates).  The window is
 * one drain round: the analysis runs about DRAIN_MS behind the kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "live_top.h"
#include "model/topology.h"
#include "options.h"
#include "output.h"
#include "pager.h"
#include "record_affinity.h"
#include "record_context.h"
#include "read/dat_write.h"
#include "read/read_live.h"
#include "read/trace_live.h"
#include "report/report.h"
#include "schedlint/model.h"
#include "schedlint/report.h"
#include "util/util.h"

#define DRAIN_MS		100	/* how often the ring buffers are read at the latest */
#define DEFAULT_BUFFER_KB	4096	/* per CPU */
#define SUBBUF_KB		32	/* ring-buffer sub-buffer ("page") size where the kernel
					 * lets us choose (6.8+): every cost of moving one paid
					 * less often - a quarter of the CPU per event of 4 KB
					 * ones at 16 KB, 12% less again at 32 KB; and the largest
					 * whose allocation (a splice swaps a new one in) the page
					 * allocator still counts as cheap (order 3) */
#define LIVE_SUBBUF_KB		16	/* with --live, which reads the sub-buffer a CPU is still
					 * filling every DRAIN_MS: a whole one in the file each
					 * time, 160 KB/s for a quiet CPU */
#define BATCH_PAGES		64	/* pages read before they are written out */
#define SPLICE_BYTES		(64 * 1024)	/* moved by one splice: one step of a drain */
#define WAKEUP_PERCENT		20	/* a CPU's buffer this full wakes us before DRAIN_MS (35%
					 * saved 5% more CPU, but lost events once on a loaded
					 * machine: 3.3 MB, 58 ms of perf bench sched pipe on
					 * one CPU, are left before it overwrites) */
#define RUN_BUDGET_US		150	/* work done before we let the CPU go for BREATHE_US */
#define BREATHE_US		100
#define REREADS_PER_RUN		4	/* affinity re-reads (reads of /proc, ~25 us each) per run */
#define CMD_GRACE_MS		2000	/* after we stop: CMD's time to end before SIGTERM/SIGKILL */
#define WATCH_BUFFER_KB		256	/* the watch instance's buffer per CPU: 4 thousand events */
#define WATCH_PERCENT		50	/* that full, it wakes us */

static const char record_usage[] =
	"usage: schedlint record [options] [--] [CMD [ARGS...]]\n"
	"\n"
	"Record the scheduler events of CMD's run (or, without CMD, until\n"
	"--duration passes or Ctrl-C) into a trace.dat through a private tracefs\n"
	"instance, without the function-tracer files trace-cmd record needs.\n"
	"Needs root.\n"
	"\n"
	"  -o, --output=FILE     the trace.dat to write (trace.dat); replaced only once\n"
	"                        the new trace is complete\n"
	"      --buffer-kb=N     ring buffer per CPU in KB (4096)\n"
	"      --duration=D      stop after D (10s, 500ms; a bare number is seconds)\n"
	"  -e, --event=EVENT     record this event too: system:event, system or event\n"
	"                        (repeatable)\n"
	"      --live            analyze while recording: a summary every --interval,\n"
	"                        the full report at the end (takes analyze's options)\n"
	"      --interval=D      --live refresh interval (1s; needs --live)\n"
	"      --reset           only remove the tracing instances that records which no\n"
	"                        longer run left behind (a SIGKILLed record), and end\n"
	"\n"
	"Exit status: 0 the trace was written (CMD succeeded, or was stopped by us);\n"
	"1 the trace was written but CMD failed; 2 nothing usable was recorded.\n"
	"\n";

/* The events the model uses; sched_switch is the one we cannot do without. */
static const struct {
	const char *system, *event;
	bool required;
} record_events[] = {
	{ "sched", "sched_switch", true  },
	{ "sched", "sched_waking", false },
	{ "sched", "sched_wakeup", false },
	{ "sched", "sched_wakeup_new", false },
	{ "sched", "sched_migrate_task", false },
	{ "sched", "sched_process_fork", false },
	{ "sched", "sched_process_exit", false },
	{ "sched", "sched_process_exec", false },	/* re-read the task's affinity */
	{ "sched", "sched_wake_idle_without_ipi", false },
	{ "ipi", "ipi_send_cpu", false },
	{ "ipi", "ipi_send_cpumask", false },
	{ "ipi", "ipi_raise", false },
	{ "ipi", "ipi_entry", false },
	{ "irq_vectors", "reschedule_entry", false },
	{ "irq_vectors", "call_function_entry", false },
	{ "irq_vectors", "call_function_single_entry", false },
	{ "irq_vectors", "local_timer_entry", false },
	{ "csd", "csd_queue_cpu", false },
	{ "csd", "csd_function_entry", false },
};

static volatile sig_atomic_t stop_signal;	/* the signal that asked us to stop, 0 none */
static volatile sig_atomic_t child_changed;	/* SIGCHLD seen */

static void on_stop_signal(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

static void on_sigchld(int sig)
{
	child_changed = 1;
}

struct record {
	/* what the user asked for */
	const char *output;
	unsigned long buffer_kb;
	uint64_t duration_ns;		/* 0 = until CMD ends or a signal */
	uint64_t interval_ns;
	bool want_live;			/* --live */
	bool analysis_opts;		/* an analyze option was given */
	const char **extra_events;
	size_t nr_extra_events;
	char **cmd;			/* NULL-terminated, NULL = no command */
	struct sl_config cfg;

	/* the recording */
	struct sl_tracefs tfs;
	bool tfs_open;
	struct sl_dat_meta meta;
	struct sl_dat_writer *writer;
	uint8_t *batch;			/* BATCH_PAGES pages */
	uint64_t start_ns;		/* CLOCK_MONOTONIC when tracing started */
	uint64_t end_ns;
	uint64_t pages;
	uint64_t pages_lost;		/* pages that say events were lost before them */
	uint64_t lost_in_pages;		/* the counts those pages carry */
	uint64_t bad_pages;		/* pages the page check refuses: left out */
	char *llc_spec;
	char llc_from[32];		/* where llc_spec came from: "cache-L3", "package", ... */
	/* the tasks' affinity: swept at the start and the end, re-read after events */
	struct sl_rec_affinity *aff;
	/* policies, groups, kernel settings: written at the start and the end, re-read at exec */
	struct sl_rec_context *sched;
	/*
	 * The events the re-reads follow (exec, fork, a stopper's migration)
	 * go to a second, small instance too, read and decoded apart
	 * (read_watch()): the main buffers' pages are never walked.
	 */
	struct sl_tracefs wtfs;
	bool wtfs_open;
	uint8_t *wpage;			/* one of its pages */
	struct sl_live *watch;		/* decodes its events */
	struct sl_strtab *watch_strtab;
	int watch_types[3];		/* their type ids: exec, migrate, fork (-1: none) */
	bool poll_buffers;		/* buffer_percent set: a filling buffer wakes us */
	bool poll_watch;		/* and the watch instance's */
	bool round_due;			/* a DRAIN_MS round is not done yet */
	uint64_t next_round_ns;
	struct pollfd *pollfd;		/* per CPU, for wait_buffers() */

	/* CMD */
	pid_t child;			/* 0 = none or reaped */
	int go_fd;			/* write end: CMD waits for a byte before exec */
	int cmd_tty;			/* --live on a terminal: the pty CMD writes to, -1 none */
	int exec_err_fd;		/* read end: errno of a failed exec, EOF on success */
	bool child_started;
	bool child_done;
	int child_status;		/* waitpid() status */
	bool child_signalled_by_us;

	/* --live */
	struct sl_strtab *strtab;
	struct sl_live *live;
	struct sl_model *model;
	struct sl_trace_info info;
	uint64_t feed_limit;		/* events up to this are safe to feed */
	uint64_t newest_read;		/* the newest event when the last read round ended */
	uint64_t start_cpu_ns;		/* our CPU time when tracing started (cpu_ns()) */
	uint64_t end_cpu_ns;		/* and when it stopped */
	uint64_t analysis_cpu_ns;	/* of it since, spent decoding, analyzing, drawing */
	struct sl_live_top top;
	uint64_t next_refresh_ns;
	char what[64];			/* the summary's title: CMD and its arguments */
	bool live_out_failed;
	int live_out_errno;		/* why stdout failed */
	bool warned_corrupt;

	sigset_t orig_mask;
	struct sigaction orig_action[NSIG];	/* what we were started with, for CMD */
	bool changed_action[NSIG];		/* orig_action[sig] is to be restored */
};

/*
 * The asynchronous signals whose default action ends the process: each
 * one stops the recording like SIGINT (the real-time signals too).  The
 * faults (SIGSEGV, SIGBUS, ...) are bugs, not requests; SIGKILL and
 * SIGSTOP cannot be caught.
 */
static const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
	SIGPROF, SIGXCPU, SIGPWR, SIGIO, SIGSTKFLT,
};

static bool stops_recording(int sig)
{
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		if (stop_signals[i] == sig)
			return true;
	return sig >= SIGRTMIN && sig <= SIGRTMAX;
}

/* Our own CPU time (user + system), of this process: CMD is another. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* --duration: like parse_duration, but a bare number is seconds (as for timeout(1)). */
static int parse_seconds(const char *arg, uint64_t *ns)
{
	if (!strpbrk(arg, "nmus"))
		return parse_timestamp(arg, ns);
	return parse_duration(arg, ns);
}

/* --- signals and CMD --- */

static void setup_signals(struct record *rec)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };
	sigset_t block;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (int sig = 1; sig < NSIG; sig++) {
		/*
		 * a closed stdout (--live | head) or a file size limit
		 * (ulimit -f) must not kill us before cleanup: write errors
		 */
		bool ignore = sig == SIGPIPE || sig == SIGXFSZ;

		if (!ignore && !stops_recording(sig))
			continue;
		if (sigaction(sig, NULL, &rec->orig_action[sig]) < 0)
			continue;
		/*
		 * nohup: a hang-up does not stop us.  Not for SIGINT and
		 * SIGQUIT: a shell starts every background job with those
		 * ignored, and `record & ... kill -INT $!` must still stop it.
		 */
		if (!ignore && sig != SIGINT && sig != SIGQUIT &&
		    rec->orig_action[sig].sa_handler == SIG_IGN)
			continue;
		sa.sa_handler = ignore ? SIG_IGN : on_stop_signal;
		sigaction(sig, &sa, NULL);
		rec->changed_action[sig] = true;
		if (!ignore)
			sigaddset(&block, sig);
	}
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);

	/* delivered only inside ppoll(): one place notices them */
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &rec->orig_mask);
}

/* Wait up to ns for a signal (the only place signals are delivered). */
static void wait_signals(struct record *rec, uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL),
			       .tv_nsec = (long)(ns % 1000000000ULL) };

	ppoll(NULL, 0, &ts, &rec->orig_mask);
}

/*
 * Wait up to ns for a signal or, with buffers, for a CPU's buffer to
 * fill to WAKEUP_PERCENT; true when a buffer woke us.
 */
static bool wait_buffers(struct record *rec, uint64_t ns, bool buffers)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL),
			       .tv_nsec = (long)(ns % 1000000000ULL) };
	nfds_t nr = 0;

	if (buffers && rec->poll_buffers)
		for (int cpu = 0; cpu < rec->tfs.nr_cpus; cpu++)
			if (rec->tfs.pipe_fd[cpu] >= 0)
				rec->pollfd[nr++] = (struct pollfd){ .fd = rec->tfs.pipe_fd[cpu],
								      .events = POLLIN };
	if (rec->watch && rec->poll_watch)
		for (int cpu = 0; cpu < rec->wtfs.nr_cpus; cpu++)
			if (rec->wtfs.pipe_fd[cpu] >= 0)
				rec->pollfd[nr++] = (struct pollfd){ .fd = rec->wtfs.pipe_fd[cpu],
								      .events = POLLIN };
	return ppoll(rec->pollfd, nr, &ts, &rec->orig_mask) > 0;
}

/*
 * fork CMD now, but let it exec only when tracing runs (start_child), so
 * fork's cost is not in the trace and a failed setup never runs it.
 */
static int prepare_child(struct record *rec, struct sl_error *err)
{
	int go[2], exec_err[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(exec_err, O_CLOEXEC) < 0) {
		sl_error_set(err, "pipe: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL);
	/* the workload's orphans come to us, to be ended with it (end_workload) */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid = fork();
	if (pid < 0) {
		int ret = -errno;

		sl_error_set(err, "fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		close(exec_err[0]);
		close(exec_err[1]);
		return ret;
	}
	if (pid == 0) {
		char byte = 0;
		ssize_t n;
		int e;

		/* CMD gets the signal setup we were started with */
		for (int sig = 1; sig < NSIG; sig++)
			if (rec->changed_action[sig])
				sigaction(sig, &rec->orig_action[sig], NULL);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, &rec->orig_mask, NULL);
		close(go[1]);
		close(exec_err[0]);
		do
			n = read(go[0], &byte, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1 || byte != 'g')
			_exit(0);	/* recording never started: do not run */
		/* --live on a terminal: CMD's output is shown above the summaries */
		for (int fd = 1; rec->cmd_tty >= 0 && fd <= 2; fd++)
			if (isatty(fd))
				dup2(rec->cmd_tty, fd);
		execvp(rec->cmd[0], rec->cmd);
		e = errno;
		if (write(exec_err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(exec_err[1]);
	if (rec->want_live) {
		sl_live_top_pty_started(&rec->top, rec->cmd_tty);
		rec->cmd_tty = -1;
	}
	rec->child = pid;
	rec->go_fd = go[1];
	rec->exec_err_fd = exec_err[0];
	return 0;
}

/* Let CMD exec; -errno with err when exec failed. */
static int start_child(struct record *rec, struct sl_error *err)
{
	int e = 0;
	ssize_t n;

	if (write(rec->go_fd, "g", 1) != 1) {
		sl_error_set(err, "cannot start %s: %s", rec->cmd[0], strerror(errno));
		return -EIO;
	}
	close(rec->go_fd);
	rec->go_fd = -1;
	/* EOF: the exec closed the pipe (CLOEXEC); else the child sends its errno */
	do
		n = read(rec->exec_err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(rec->exec_err_fd);
	rec->exec_err_fd = -1;
	rec->child_started = true;
	if (n == sizeof(e)) {
		sl_error_set(err, "cannot run %s: %s", rec->cmd[0], strerror(e));
		return -e;
	}
	return 0;
}

static void reap_child(struct record *rec, bool block)
{
	int status;
	pid_t r;

	if (!rec->child || rec->child_done)
		return;
	do
		r = waitpid(rec->child, &status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == rec->child) {
		rec->child_done = true;
		rec->child_status = status;
	}
}

/*
 * Reap the workload's processes that ended after being reparented to us
 * (the subreaper); CMD's own status is reap_child()'s.
 */
static void reap_orphans(struct record *rec)
{
	siginfo_t si;

	for (;;) {
		si.si_pid = 0;
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || !si.si_pid)
			return;
		if (si.si_pid == rec->child) {
			reap_child(rec, true);
			continue;
		}
		while (waitpid(si.si_pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

/* Our children (the workload's processes reparented to us, CMD): how many put in pids. */
static size_t our_children(pid_t *pids, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t self = getpid();
	size_t n = 0;

	if (!d)
		return 0;
	while (n < max && (de = readdir(d))) {
		char path[300], buf[512], *p;
		FILE *f;
		long ppid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		/* "pid (comm) S ppid ...": the comm may hold anything, so from its last ')' */
		if (p && sscanf(p + 1, " %*c %ld", &ppid) == 1 && ppid == self)
			pids[n++] = (pid_t)atol(de->d_name);
	}
	closedir(d);
	return n;
}

/*
 * End what is left of the workload once CMD is ended: SIGTERM to every
 * child we have (a child's own children come to us when it ends), then
 * SIGKILL past the grace time, until none is left.
 */
static void end_workload(struct record *rec)
{
	uint64_t term_until = mono_ns() + CMD_GRACE_MS * 1000000ULL;
	uint64_t give_up = term_until + 5000 * 1000000ULL;
	pid_t pids[4096];
	size_t n;

	for (;;) {
		bool kill_now = mono_ns() >= term_until;

		reap_orphans(rec);
		n = our_children(pids, ARRAY_SIZE(pids));
		if (!n || mono_ns() >= give_up)
			return;
		for (size_t i = 0; i < n; i++)
			kill(pids[i], kill_now ? SIGKILL : SIGTERM);
		wait_signals(rec, 20 * 1000000ULL);
	}
}

static void end_child_pid(struct record *rec);

/* After recording stopped: let CMD end by itself for a moment, then end it, and all it started. */
static void end_child(struct record *rec)
{
	if (!rec->child || rec->child_done)
		return;
	end_child_pid(rec);
	if (rec->child_started)
		end_workload(rec);
}

static void end_child_pid(struct record *rec)
{
	uint64_t deadline;

	if (rec->go_fd >= 0) {
		/* never started: closing the pipe makes it exit */
		close(rec->go_fd);
		rec->go_fd = -1;
		reap_child(rec, true);
		return;
	}
	/* a Ctrl-C or Ctrl-\ reached CMD too: it is probably ending right now */
	deadline = mono_ns() +
		   (stop_signal == SIGINT || stop_signal == SIGQUIT ? CMD_GRACE_MS : 0) * 1000000ULL;
	for (;;) {
		reap_child(rec, false);
		if (rec->child_done || mono_ns() >= deadline)
			break;
		wait_signals(rec, 50 * 1000000ULL);
	}
	if (rec->child_done)
		return;
	rec->child_signalled_by_us = true;
	kill(rec->child, SIGTERM);
	deadline = mono_ns() + CMD_GRACE_MS * 1000000ULL;
	while (!rec->child_done && mono_ns() < deadline) {
		wait_signals(rec, 50 * 1000000ULL);
		reap_child(rec, false);
	}
	if (!rec->child_done) {
		kill(rec->child, SIGKILL);
		reap_child(rec, true);
	}
}

/* --- draining the ring buffers --- */

/*
 * Feed the model the events up to limit, until give_up (CLOCK_MONOTONIC
 * ns, 0: no limit) so that the analysis runs in short runs and does not
 * delay the next drain; what is left waits in the live reader's queues.
 * True when some was left.
 */
static bool live_feed(struct record *rec, uint64_t limit, uint64_t give_up)
{
	uint64_t cpu_start = cpu_ns();
	struct sl_error err = { "" };
	struct sl_event ev;
	unsigned int n = 0;
	int ret;

	while ((ret = sl_live_next(rec->live, limit, &ev, &err)) != 0) {
		if (ret < 0) {
			if (!rec->warned_corrupt)
				warn_msg("record: %s (skipped)", err.msg);
			rec->warned_corrupt = true;
			continue;
		}
		sl_model_feed(rec->model, &ev);
		if (give_up && !(++n % 64) && mono_ns() >= give_up)
			break;
	}
	sl_live_info(rec->live, &rec->info);
	rec->analysis_cpu_ns += sl_dur(cpu_start, cpu_ns());
	return ret != 0;
}

static void watch_event(void *ctx, const struct sl_event *ev)
{
	struct record *rec = ctx;

	sl_rec_affinity_event(rec->aff, ev, rec->watch_strtab);
	sl_rec_context_event(rec->sched, ev, rec->watch_strtab);
}

/* The watch instance is gone: the re-reads follow nothing more. */
static void close_watch(struct record *rec)
{
	if (rec->wtfs_open)
		sl_tracefs_close(&rec->wtfs, NULL);
	rec->wtfs_open = false;
	sl_live_free(rec->watch);
	rec->watch = NULL;
}

/*
 * The watch instance (schedlint-PID-2 beside schedlint-PID): only
 * sched_process_exec, sched_process_fork and sched_migrate_task, the
 * last only when a migration/N stopper moves a task (the filter on the
 * current task's COMM; where the kernel refuses it, every migration,
 * and sl_rec_affinity_event() picks the stoppers').  Its decoder is
 * apart from --live's model reader, which is fed a drain round behind
 * and the last round only after tracing stopped: too late for a re-read.
 * Before this instance, the re-reads walked every spliced page, read
 * back from the spool: a fifth of record's CPU (bench/README.md).
 */
static void setup_watch(struct record *rec)
{
	static const char *const events[] = {
		"sched_process_exec", "sched_migrate_task", "sched_process_fork",
	};
	struct sl_dat_meta formats = rec->meta;
	struct sl_error err = { "" };
	int wanted = 0;

	if (sl_tracefs_open(&rec->wtfs, &err))
		goto fail;
	rec->wtfs_open = true;
	if (sl_tracefs_create(&rec->wtfs, WATCH_BUFFER_KB, 0, &err))
		goto fail;
	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		wanted += !sl_tracefs_want(&rec->wtfs, "sched", events[i]);
	if (!wanted) {
		sl_error_set(&err, "this kernel has none of the events they follow");
		goto fail;
	}
	sl_tracefs_filter(&rec->wtfs, "sched", "sched_migrate_task", "COMM ~ \"migration/*\"");
	if (sl_tracefs_open_pipes(&rec->wtfs, &err))
		goto fail;
	/* a fork storm wakes us before it overwrites what we have not read */
	if (!sl_tracefs_wakeup_percent(&rec->wtfs, WATCH_PERCENT))
		rec->poll_watch = true;
	/* the events it decodes have no kernel address to name: no kallsyms */
	formats.kallsyms = NULL;
	formats.kallsyms_len = 0;
	formats.page_size = rec->wtfs.page_size;
	formats.nr_cpus = rec->wtfs.nr_cpus;
	rec->watch_strtab = sl_strtab_new();
	rec->watch = sl_live_new(&formats, rec->watch_strtab, &err);
	if (!rec->watch)
		goto fail;
	rec->wpage = xmalloc((size_t)rec->wtfs.page_size);
	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		rec->watch_types[i] = sl_live_event_id(rec->watch, "sched", events[i]);
	return;
fail:
	warn_msg("record: %s: affinity and policy changes during the recording are not followed",
		 err.msg);
	close_watch(rec);
}

/* The events the re-reads follow, as far as the watch instance has them. */
static void read_watch(struct record *rec)
{
	int page_size = rec->wtfs.page_size;
	struct sl_error err;	/* set when a page is refused */

	if (!rec->watch)
		return;
	for (int cpu = 0; cpu < rec->wtfs.nr_cpus; cpu++) {
		ssize_t len;

		while ((len = sl_tracefs_read_page(&rec->wtfs, cpu, rec->wpage)) > 0) {
			if (len < page_size)
				memset(rec->wpage + len, 0, (size_t)(page_size - len));
			if (sl_live_scan_page(rec->watch, cpu, rec->wpage, rec->watch_types,
					      ARRAY_SIZE(rec->watch_types), watch_event, rec, &err) < 0 &&
			    !rec->warned_corrupt) {
				warn_msg("record: the watch instance gave %s (left out of the re-reads)",
					 err.msg);
				rec->warned_corrupt = true;
			}
		}
	}
}

/*
 * One step: up to SPLICE_BYTES of cpu's full pages spliced to its spool,
 * never read by us (the re-reads follow the watch instance, read_watch()).
 * 1 pages moved, 0 none, -errno.
 */
static int splice_step(struct record *rec, int cpu, struct sl_error *err)
{
	struct sl_error werr;
	size_t page_size = (size_t)rec->tfs.page_size;
	uint64_t at;			/* where the pages go in the spool: not needed */
	ssize_t n;
	int ret, fd = sl_dat_writer_spool(rec->writer, cpu, &at, &werr);

	if (fd < 0) {
		sl_error_set(err, "%s: %s", rec->output, werr.msg);
		return fd;
	}
	n = sl_tracefs_splice(&rec->tfs, cpu, fd, MAX(SPLICE_BYTES, page_size));
	if (n < 0) {
		/* a full disk: the user must learn which file it was */
		sl_error_set(err, "%s: writing the pages of CPU %d beside it: %s", rec->output, cpu,
			     strerror((int)-n));
		return (int)n;
	}
	if (!n)
		return 0;
	ret = sl_dat_writer_spooled(rec->writer, cpu, (uint64_t)n, &werr);
	if (ret) {
		sl_error_set(err, "%s: %s", rec->output, werr.msg);
		return ret;
	}
	rec->pages += (uint64_t)n / page_size;
	return 1;
}

/*
 * Read what cpu's buffer holds, the page the kernel is still filling
 * included: into the spool, and to the live reader.  At most a buffer's
 * worth, so a CPU that logs faster than we read cannot keep us from the
 * others.
 */
static int read_pages(struct record *rec, int cpu, struct sl_error *err)
{
	int page_size = rec->tfs.page_size;
	uint64_t max_pages = MAX(rec->buffer_kb * 1024 / (uint64_t)page_size, BATCH_PAGES);
	uint64_t read_pages = 0;
	bool empty = false;

	while (!empty && read_pages < max_pages) {
		int n = 0;

		for (; n < BATCH_PAGES; n++) {
			uint8_t *page = rec->batch + (size_t)n * (size_t)page_size;
			ssize_t len = sl_tracefs_read_page(&rec->tfs, cpu, page);
			struct sl_page_facts facts;
			const char *bad;

			if (len < 0) {
				sl_error_set(err, "reading CPU %d's ring buffer: %s", cpu,
					     strerror((int)-len));
				return (int)len;
			}
			if (len == 0) {
				empty = true;
				break;
			}
			if (len < page_size)
				memset(page + len, 0, (size_t)(page_size - len));
			/*
			 * the check a trace.dat's pages get (the file must stay
			 * readable); with --live, the live reader's as it queues it
			 */
			if (rec->live)
				bad = sl_live_add_page(rec->live, cpu, page, &facts);
			else
				bad = sl_page_check(page, page_size, rec->meta.long_size, &facts);
			if (bad) {
				if (!rec->bad_pages++)
					warn_msg("record: CPU %d's ring buffer gave a corrupt page "
						 "(%s); such pages are left out", cpu, bad);
				n--;
				continue;
			}
			if (!facts.data && !facts.missed) {
				n--;	/* nothing in it */
				continue;
			}
			if (facts.missed) {
				rec->pages_lost++;
				rec->lost_in_pages += facts.missed_count;
			}
		}
		if (!n)
			continue;
		struct sl_error werr;
		int ret = sl_dat_writer_pages(rec->writer, cpu, rec->batch,
					      (size_t)n * (size_t)page_size, &werr);

		if (ret) {
			/* a full disk: the user must learn which file it was */
			sl_error_set(err, "%s: %s", rec->output, werr.msg);
			return ret;
		}
		rec->pages += (uint64_t)n;
		read_pages += (uint64_t)n;
	}
	return 0;
}

/*
 * Empty the buffers.  Full pages are spliced (without --live: their
 * events are not decoded); the page each CPU is still filling is read
 * only with partial, at the end: it waits safely in the ring buffer
 * (the re-reads follow the watch instance, not these pages), and each
 * read of it puts a whole sub-buffer, mostly zeros, in the file.
 * --live reads every page: it decodes them all.  With a budget (give_up, CLOCK_MONOTONIC ns;
 * 0 none) it stops once that is passed: 1, more is left; else 0 or -errno.
 */
static int drain(struct record *rec, bool partial, uint64_t give_up, struct sl_error *err)
{
	for (int cpu = 0; cpu < rec->tfs.nr_cpus; cpu++) {
		int ret;

		if (!rec->live) {
			while ((ret = splice_step(rec, cpu, err)) > 0)
				if (give_up && mono_ns() >= give_up)
					return 1;
			if (ret < 0)
				return ret;
		}
		if (rec->live || partial) {
			ret = read_pages(rec, cpu, err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static uint64_t kernel_lost(struct record *rec)
{
	uint64_t lost = 0;

	for (int cpu = 0; cpu < rec->tfs.nr_cpus; cpu++) {
		struct sl_tracefs_stats st;

		if (sl_tracefs_cpu_stats(&rec->tfs, cpu, &st))
			continue;
		lost += st.overrun + st.commit_overrun + st.dropped;
		free(st.text);
	}
	return lost;
}

static void live_refresh(struct record *rec, uint64_t now)
{
	uint64_t cpu_start = cpu_ns();
	struct sl_live_status st = {
		.wall_ns = now - rec->start_ns,
		.what = rec->what,
		.kernel_lost = kernel_lost(rec),
		.behind_ns = sl_dur(rec->model->now, sl_live_newest(rec->live)),
		.bytes = sl_dat_writer_data_size(rec->writer),
		.analysis_cpu_ns = rec->analysis_cpu_ns,
		.record_cpu_ns = sl_dur(rec->analysis_cpu_ns, sl_dur(rec->start_cpu_ns, cpu_start)),
	};

	if (rec->live_out_failed)
		return;
	errno = 0;
	if (sl_live_top_draw(&rec->top, rec->model, &st) < 0) {
		/* stdout is gone or full: keep recording, stop drawing */
		rec->live_out_failed = true;
		rec->live_out_errno = errno ? errno : EIO;
	}
	/* drawing is the analysis's too (counted from the next summary on) */
	rec->analysis_cpu_ns += sl_dur(cpu_start, cpu_ns());
}

/*
 * The summaries could not be written, but the trace was: say why (not
 * for a reader that went away, `| head`), and drop what stdout still
 * holds so that the exit status stays the recording's.
 */
static void end_live_output(struct record *rec)
{
	if (!rec->live_out_failed)
		return;
	if (rec->live_out_errno != EPIPE)
		warn_msg("record: standard output: %s; the live summaries stopped there "
			 "(the trace is complete)", strerror(rec->live_out_errno));
	__fpurge(stdout);
	clearerr(stdout);
}

/* --- the tasks' affinity (record_affinity.c) --- */

static int write_marker(void *ctx, const char *text)
{
	struct record *rec = ctx;

	return sl_tracefs_marker(&rec->tfs, text);
}

/*
 * The re-reads the events read so far asked for (drain() hands them
 * over, with --live too), at most max of them.
 */
static void affinity_watch(struct record *rec, size_t max)
{
	if (sl_rec_affinity_flush_some(rec->aff, max, write_marker, rec))
		warn_msg("record: cannot write a task's affinity to trace_marker");
	if (sl_rec_context_flush(rec->sched, write_marker, rec))
		warn_msg("record: cannot write a task's policy and group to trace_marker");
}

/*
 * The last re-reads while the events are still recorded, then every task
 * still there - with the events stopped: tracing off, the instance's
 * events disabled, tracing on again for the markers alone, after
 * SL_MARKER_STOPPED (analyze ends the trace's events before it and
 * applies what follows from there).  The sweeps, 1.5-3 ms of /proc for a
 * hundred tasks, are then not in the trace.  Where the events cannot be
 * disabled, tracing goes on and the sweeps are recorded, as before.
 */
static void affinity_end(struct record *rec, struct sl_error *err)
{
	struct sl_rec_task *tasks;
	long nr;

	if (!rec->aff || !err || drain(rec, true, 0, err))
		return;		/* the recording failed already */
	read_watch(rec);
	affinity_watch(rec, SIZE_MAX);
	sl_tracefs_tracing_on(&rec->tfs, false);
	if (!sl_tracefs_events_off(&rec->tfs)) {
		if (sl_tracefs_tracing_on(&rec->tfs, true) ||
		    sl_tracefs_marker(&rec->tfs, SL_MARKER_STOPPED))
			warn_msg("record: cannot write the end of the events to trace_marker");
	} else {
		sl_tracefs_tracing_on(&rec->tfs, true);
	}
	/* one list of the tasks for both: listing /proc is half of a sweep's cost */
	nr = sl_rec_list_tasks("/proc", &tasks);
	if (nr < 0 || sl_rec_affinity_sweep_tasks(rec->aff, tasks, (size_t)nr, write_marker, rec))
		warn_msg("record: cannot write the tasks' affinity at the end");
	if (nr < 0 || sl_rec_context_sweep_tasks(rec->sched, tasks, (size_t)nr, write_marker, rec))
		warn_msg("record: cannot write the tasks' policies and groups at the end");
	free(tasks);
}

/* --- setup, the loop, the end --- */

/* Say which instances of dead records were removed (they traced for nothing). */
static void report_removed(const struct sl_tracefs *tfs)
{
	for (size_t i = 0; i < tfs->nr_removed; i++)
		fprintf(stderr, "schedlint record: removed the tracing instance %s/instances/%s: "
			"the record that made it no longer runs\n", tfs->dir, tfs->removed[i]);
}

static int setup(struct record *rec, struct sl_error *err)
{
	struct sl_error werr;
	int ret;

	/* "record needs root" first: it is what the user must fix */
	ret = sl_tracefs_open(&rec->tfs, err);
	if (ret)
		return ret;
	rec->tfs_open = true;
	/* then the output: a bad -o is refused before an instance is made */
	rec->writer = sl_dat_writer_open(rec->output, &werr);
	if (!rec->writer) {
		sl_error_set(err, "%s: %s", rec->output, werr.msg);
		return -EIO;
	}
	if (rec->want_live) {
		sl_live_top_init(&rec->top, stdout, isatty(STDOUT_FILENO));
		rec->cmd_tty = rec->cmd ? sl_live_top_pty(&rec->top) : -1;
	}
	if (rec->cmd) {
		ret = prepare_child(rec, err);
		if (ret)
			return ret;
	}
	ret = sl_tracefs_create(&rec->tfs, rec->buffer_kb,
				rec->want_live ? LIVE_SUBBUF_KB : SUBBUF_KB, err);
	report_removed(&rec->tfs);
	if (ret)
		return ret;
	for (size_t i = 0; i < ARRAY_SIZE(record_events); i++) {
		ret = sl_tracefs_want(&rec->tfs, record_events[i].system, record_events[i].event);
		if (ret && record_events[i].required) {
			sl_error_set(err, "this kernel has no %s:%s event", record_events[i].system,
				     record_events[i].event);
			return ret;
		}
	}
	for (size_t i = 0; i < rec->nr_extra_events; i++) {
		ret = sl_tracefs_want_spec(&rec->tfs, rec->extra_events[i], err);
		if (ret)
			return ret;
	}
	ret = sl_tracefs_meta(&rec->tfs, &rec->meta, err);
	if (ret)
		return ret;
	sl_dat_writer_cpus(rec->writer, rec->tfs.nr_cpus, rec->tfs.page_size);
	rec->batch = xmalloc((size_t)BATCH_PAGES * (size_t)rec->tfs.page_size);
	rec->aff = sl_rec_affinity_new("/proc", sl_rec_sched_getaffinity);
	rec->sched = sl_rec_context_new("", NULL);
	setup_watch(rec);
	rec->llc_spec = sl_llc_spec_from_sysfs("/sys/devices/system/cpu", rec->llc_from,
						sizeof(rec->llc_from));

	if (rec->want_live) {
		rec->strtab = sl_strtab_new();
		rec->live = sl_live_new(&rec->meta, rec->strtab, err);
		if (!rec->live)
			return -EINVAL;
		sl_live_info(rec->live, &rec->info);
		rec->model = sl_model_new(&rec->cfg, rec->strtab, &rec->info);
		snprintf(rec->what, sizeof(rec->what), "%s",
			 rec->cmd ? "" : rec->duration_ns ? "until --duration" : "until Ctrl-C");
		for (char **arg = rec->cmd; arg && *arg; arg++) {
			size_t used = strlen(rec->what);

			if (snprintf(rec->what + used, sizeof(rec->what) - used, "%s%s",
				     used ? " " : "", *arg) >= (int)(sizeof(rec->what) - used)) {
				/* cut: between characters, not inside a UTF-8 one */
				size_t len = strlen(rec->what), last = len;
				unsigned char lead;

				while (last > used && ((unsigned char)rec->what[last - 1] & 0xc0) == 0x80)
					last--;
				lead = last > used ? (unsigned char)rec->what[last - 1] : 0;
				if (lead >= 0xc0 && len - (last - 1) < (lead >= 0xf0 ? 4u : lead >= 0xe0 ? 3u : 2u))
					rec->what[last - 1] = '\0';
				break;
			}
		}
	}
	/*
	 * a CPU whose buffer fills faster than DRAIN_MS wakes us early (a
	 * kernel without buffer_percent would wake us at every event: then
	 * only the clock does)
	 */
	rec->poll_buffers = !sl_tracefs_wakeup_percent(&rec->tfs, WAKEUP_PERCENT);
	rec->pollfd = xcalloc((size_t)rec->tfs.nr_cpus + (size_t)rec->wtfs.nr_cpus,
			      sizeof(*rec->pollfd));
	return sl_tracefs_open_pipes(&rec->tfs, err);
}

static int append_text(char *buf, size_t size, int n, const char *s)
{
	if (n < 0 || (size_t)n >= size - 1)
		return n;
	return n + snprintf(buf + n, size - (size_t)n, "%s", s);
}

/*
 * One argument as a shell would read it back: as it is when it has only
 * characters no shell treats specially, else in single quotes (a quote in
 * it as '\'').  `sh -c 'a & b'` is then not shown as `sh -c a & b`.
 */
static int append_shell_word(char *buf, size_t size, int n, const char *arg)
{
	if (*arg && arg[strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				    "0123456789_@%+=:,./-")] == '\0')
		return append_text(buf, size, n, arg);
	n = append_text(buf, size, n, "'");
	for (const char *c = arg; *c; c++) {
		char one[2] = { *c, 0 };

		n = append_text(buf, size, n, *c == '\'' ? "'\\''" : one);
	}
	return append_text(buf, size, n, "'");
}

/*
 * The workload marker (SL_MARKER_WORKLOAD): CMD's pid and command line,
 * written once tracing runs and before CMD may exec, so that every fork
 * of its tasks comes after it.  analyze then reports CMD's tasks only.
 */
static void write_workload_marker(struct record *rec)
{
	char text[512];
	int n = snprintf(text, sizeof(text), SL_MARKER_WORKLOAD "%d" SL_MARKER_WORKLOAD_CMD,
			 (int)rec->child);

	for (char **arg = rec->cmd; *arg && n > 0 && (size_t)n < sizeof(text) - 1; arg++) {
		if (arg != rec->cmd)
			n = append_text(text, sizeof(text), n, " ");
		n = append_shell_word(text, sizeof(text), n, *arg);
	}
	for (char *c = text; *c; c++)
		if ((unsigned char)*c < ' ')
			*c = ' ';	/* one line in the trace's text */
	if (sl_tracefs_marker(&rec->tfs, text))
		warn_msg("record: cannot write the workload to trace_marker; "
			 "analyze will report every task");
}

/*
 * The topology marker first (tracing on with no event enabled), then the
 * events with tracing off - enabling a tracepoint patches kernel text and
 * IPIs every CPU, which is not the workload's - then tracing on, then CMD.
 */
static int start(struct record *rec, struct sl_error *err)
{
	int ret;

	if (rec->llc_spec) {
		char text[8192];

		snprintf(text, sizeof(text), SL_MARKER_LLC "%s " SL_MARKER_LLC_FROM "%s",
			 rec->llc_spec, rec->llc_from);
		if (sl_tracefs_tracing_on(&rec->tfs, true) || sl_tracefs_marker(&rec->tfs, text))
			warn_msg("record: cannot write the LLC groups to trace_marker; "
				 "analyze will need --llc %s", rec->llc_spec);
		sl_tracefs_tracing_on(&rec->tfs, false);
	}
	/* our own task, which the report names as the recorder wherever it shows */
	{
		char text[64];

		snprintf(text, sizeof(text), SL_MARKER_RECORDER "%d", (int)getpid());
		if (sl_tracefs_tracing_on(&rec->tfs, true) || sl_tracefs_marker(&rec->tfs, text))
			warn_msg("record: cannot write its own pid to trace_marker; analyze will "
				 "not name the recorder");
		sl_tracefs_tracing_on(&rec->tfs, false);
	}
	/* every task's affinity, before any event too */
	if (sl_tracefs_tracing_on(&rec->tfs, true) ||
	    sl_rec_affinity_sweep(rec->aff, write_marker, rec))
		warn_msg("record: cannot write the tasks' affinity to trace_marker; "
			 "analyze will infer it");
	/* the kernel's settings and every task's policy and group, before any event too */
	if (sl_rec_context_kernel(rec->sched, write_marker, rec) ||
	    sl_rec_context_sweep(rec->sched, write_marker, rec))
		warn_msg("record: cannot write the tasks' policies and groups to trace_marker; "
			 "analyze will infer their classes and know no groups");
	sl_tracefs_tracing_on(&rec->tfs, false);
	ret = sl_tracefs_enable_wanted(&rec->tfs, err);
	if (ret)
		return ret;
	/*
	 * after the main instance's: the kernel calls the probes in that
	 * order, so an exec's time in the watch is never before the main's
	 */
	if (rec->watch) {
		struct sl_error werr = { "" };

		if (sl_tracefs_enable_wanted(&rec->wtfs, &werr) ||
		    sl_tracefs_tracing_on(&rec->wtfs, true)) {
			warn_msg("record: %s: affinity and policy changes during the recording are "
				 "not followed", werr.msg[0] ? werr.msg : "cannot turn tracing on");
			close_watch(rec);
		}
	}
	ret = sl_tracefs_tracing_on(&rec->tfs, true);
	if (ret) {
		sl_error_set(err, "cannot turn tracing on in the instance");
		return ret;
	}
	rec->start_ns = mono_ns();
	rec->start_cpu_ns = cpu_ns();
	if (rec->cmd && !stop_signal) {
		write_workload_marker(rec);
		return start_child(rec, err);
	}
	return 0;
}

static int record_loop(struct record *rec, struct sl_error *err)
{
	uint64_t deadline = rec->duration_ns ? rec->start_ns + rec->duration_ns : 0;
	bool woke = false, more = false;
	int ret;

	rec->next_refresh_ns = rec->start_ns + rec->interval_ns;
	if (!rec->cmd)
		fprintf(stderr, "schedlint record: recording to %s %s\n", rec->output,
			deadline ? "for --duration (Ctrl-C stops earlier)" : "until Ctrl-C");
	for (;;) {
		uint64_t now = mono_ns(), give_up = now + RUN_BUDGET_US * 1000ULL, wait;

		if (now >= rec->next_round_ns) {
			rec->round_due = true;
			rec->next_round_ns = now + DRAIN_MS * 1000000ULL;
		}
		more = false;
		if (!rec->live) {
			/* full sub-buffers only: the one a CPU is filling waits for the end */
			ret = drain(rec, false, give_up, err);
			if (ret < 0)
				return ret;
			more = ret > 0;
			if (!more)
				rec->round_due = false;
		} else if (rec->round_due || woke) {
			/*
			 * every CPU is read now: what was logged before the
			 * last such read can no longer be preceded
			 */
			uint64_t safe = rec->newest_read;

			ret = drain(rec, true, 0, err);
			if (ret < 0)
				return ret;
			rec->round_due = false;
			rec->feed_limit = safe;
			rec->newest_read = sl_live_newest(rec->live);
		}
		read_watch(rec);
		/* the re-reads (reads of /proc) within the run's budget too */
		if (!more && mono_ns() < give_up &&
		    (sl_rec_affinity_pending(rec->aff) || sl_rec_context_pending(rec->sched)))
			affinity_watch(rec, REREADS_PER_RUN);
		/*
		 * some left, or the reading took the run's budget (--live reads
		 * without one): the next run, not the next round, does them
		 */
		if (sl_rec_affinity_pending(rec->aff) || sl_rec_context_pending(rec->sched))
			more = true;
		now = mono_ns();
		if (child_changed) {
			child_changed = 0;
			reap_child(rec, false);
			reap_orphans(rec);
		}
		/* stop() reads and feeds the rest */
		if (stop_signal || (rec->cmd && (rec->child_done || !rec->child_started)) ||
		    (deadline && now >= deadline))
			break;
		if (rec->live) {
			more = live_feed(rec, rec->feed_limit, give_up) || more;
			if (now >= rec->next_refresh_ns) {
				live_refresh(rec, now);
				rec->next_refresh_ns = now + rec->interval_ns;
			}
			now = mono_ns();
		}
		/* work left: let the CPU go a moment, then go on */
		wait = more ? BREATHE_US * 1000ULL : sl_dur(now, rec->next_round_ns);
		if (deadline)
			wait = MIN(wait, sl_dur(now, deadline));
		/* with --live a filling buffer cuts the analysis short: reading comes first */
		woke = wait_buffers(rec, wait, !more || rec->live);
	}
	return 0;
}

/* Stop tracing, read what is left, end CMD. */
static int stop(struct record *rec, struct sl_error *err)
{
	int ret;

	affinity_end(rec, err);
	sl_tracefs_tracing_on(&rec->tfs, false);
	rec->end_ns = mono_ns();
	ret = drain(rec, true, 0, err);
	end_child(rec);
	if (rec->live && !ret) {
		live_feed(rec, UINT64_MAX, 0);
		live_refresh(rec, rec->end_ns);	/* the last summary: everything read */
	}
	rec->end_cpu_ns = cpu_ns();
	return ret;
}

static void report_lost(struct record *rec)
{
	uint64_t total = 0;

	for (int cpu = 0; cpu < rec->tfs.nr_cpus; cpu++) {
		struct sl_tracefs_stats st;

		if (sl_tracefs_cpu_stats(&rec->tfs, cpu, &st))
			continue;
		if (st.overrun || st.commit_overrun || st.dropped) {
			if (!total)
				fputs("schedlint record: the ring buffer lost events:", stderr);
			fprintf(stderr, " cpu%d %" PRIu64, cpu,
				st.overrun + st.commit_overrun + st.dropped);
		}
		total += st.overrun + st.commit_overrun + st.dropped;
		free(st.text);
	}
	if (total)
		fprintf(stderr, " (a bigger --buffer-kb than %lu helps)\n", rec->buffer_kb);
	else if (rec->pages_lost)
		fprintf(stderr, "schedlint record: %" PRIu64 " pages say events were lost before them\n",
			rec->pages_lost);
}

/* What happened to CMD; returns the exit status of record (0 or 1). */
static int report_child(struct record *rec)
{
	int st = rec->child_status;

	if (!rec->cmd || !rec->child_started || !rec->child_done)
		return 0;
	if (WIFEXITED(st)) {
		if (WEXITSTATUS(st) == 0)
			return 0;
		fprintf(stderr, "schedlint record: %s exited with status %d\n", rec->cmd[0],
			WEXITSTATUS(st));
		return 1;
	}
	if (WIFSIGNALED(st)) {
		int sig = WTERMSIG(st);
		/* stopped on purpose: by us, or by the Ctrl-C that stopped us too */
		bool ours = rec->child_signalled_by_us || (stop_signal && sig == stop_signal);

		fprintf(stderr, "schedlint record: %s %s by signal %d (%s)\n", rec->cmd[0],
			ours ? "was stopped" : "was killed", sig, strsignal(sig));
		return ours ? 0 : 1;
	}
	return 0;
}

/* Everything we set up, undone in one place; safe after any failure. */
static int record_cleanup(struct record *rec)
{
	struct sl_error err = { "" };
	int ret = 0;

	end_child(rec);
	if (rec->go_fd >= 0)
		close(rec->go_fd);
	if (rec->exec_err_fd >= 0)
		close(rec->exec_err_fd);
	/* the watch first: the main instance's close unmounts tracefs if we mounted it */
	if (rec->wtfs_open && sl_tracefs_close(&rec->wtfs, &err)) {
		error_msg("record: %s", err.msg);
		ret = -1;
	}
	rec->wtfs_open = false;
	if (rec->tfs_open && sl_tracefs_close(&rec->tfs, &err)) {
		error_msg("record: %s", err.msg);
		ret = -1;
	}
	rec->tfs_open = false;
	sl_dat_writer_abort(rec->writer);	/* only when it was not finished */
	rec->writer = NULL;
	sl_dat_meta_free(&rec->meta);
	free(rec->batch);
	free(rec->pollfd);
	free(rec->llc_spec);
	sl_rec_affinity_free(rec->aff);
	sl_rec_context_free(rec->sched);
	close_watch(rec);
	free(rec->wpage);
	sl_strtab_free(rec->watch_strtab);
	if (rec->top.out)	/* initialized (--live) */
		sl_live_top_free(&rec->top);
	if (rec->live)
		sl_live_free(rec->live);
	sl_model_free(rec->model);
	sl_strtab_free(rec->strtab);
	sl_config_free(&rec->cfg);
	free(rec->extra_events);
	return ret;
}

static int record_run(struct record *rec)
{
	struct sl_error err = { "" };
	uint64_t bytes, file_size = 0;
	struct sl_dat_cut cut;
	int ret, status;

	setup_signals(rec);
	ret = setup(rec, &err);
	if (!ret)
		ret = start(rec, &err);
	if (!ret)
		ret = record_loop(rec, &err);
	if (rec->start_ns) {
		int ret2 = stop(rec, ret ? NULL : &err);

		if (!ret)
			ret = ret2;
	}
	if (ret) {
		end_live_output(rec);
		error_msg("record: %s", err.msg);
		return 2;
	}

	/* the file: stats and cmdlines are read before the instance goes */
	report_lost(rec);
	sl_tracefs_meta_end(&rec->tfs, &rec->meta);
	/*
	 * the spliced pages, never looked at: one the readers would refuse
	 * would make the whole trace unreadable (the pages read are checked
	 * as they come, read_pages())
	 */
	ret = sl_dat_writer_check(rec->writer, rec->meta.long_size, &cut);
	if (ret) {
		end_live_output(rec);
		error_msg("record: %s: checking the pages written beside it: %s", rec->output,
			  strerror(-ret));
		return 2;	/* record_cleanup() drops the writer */
	}
	if (cut.pages)
		warn_msg("record: %" PRIu64 " page%s of the ring buffers %s corrupt or torn "
			 "(first: CPU %d's page %" PRIu64 ", %s): left out", cut.pages,
			 cut.pages == 1 ? "" : "s", cut.pages == 1 ? "was" : "were", cut.cpu,
			 cut.page, cut.what);
	bytes = sl_dat_writer_data_size(rec->writer);
	ret = sl_dat_writer_finish(rec->writer, &rec->meta, &file_size, &err);
	rec->writer = NULL;
	end_live_output(rec);
	if (ret) {
		error_msg("record: %s: %s", rec->output, err.msg);
		return 2;
	}
	status = report_child(rec);
	/* the rest of the file is mostly /proc/kallsyms and the event formats */
	fprintf(stderr, "schedlint record: wrote %s: %.2f s from %d CPUs, %.1f MB "
		"(events %.1f MB, %.0f%%; the rest kallsyms and formats)\n", rec->output,
		(rec->end_ns - rec->start_ns) / 1e9, rec->tfs.nr_cpus, file_size / 1e6, bytes / 1e6,
		file_size ? 100.0 * (double)bytes / (double)file_size : 0.0);
	if (rec->llc_spec)
		fprintf(stderr, "schedlint record: LLC groups %s (from %s)\n", rec->llc_spec,
			sl_llc_from_text(rec->llc_from));
	else
		fputs("schedlint record: LLC groups unknown (no CPU in sysfs): analyze with --llc\n",
		      stderr);
	if (rec->sched)
		fprintf(stderr, "schedlint record: kernel %s\n", sl_rec_context_summary(rec->sched));

	if (rec->live) {
		uint64_t wall = sl_dur(rec->start_ns, rec->end_ns), own = sl_dur(rec->start_cpu_ns,
									   rec->end_cpu_ns);

		/* --live's price, apart from the recording's */
		if (wall)
			fprintf(stderr, "schedlint record: its own CPU while recording: %.2f s reading "
				"and writing (%.1f%% of a CPU), %.2f s live analysis (%.1f%%)\n",
				sl_dur(rec->analysis_cpu_ns, own) / 1e9,
				100.0 * (double)sl_dur(rec->analysis_cpu_ns, own) / (double)wall,
				rec->analysis_cpu_ns / 1e9,
				100.0 * (double)rec->analysis_cpu_ns / (double)wall);
	}
	if (rec->live) {
		struct sl_report r = {
			.out = stdout, .color = isatty(STDOUT_FILENO) && sl_color_env_allows(),
			.path = rec->output, .top = 10, .width = sl_term_width(),
		};

		sl_model_finish(rec->model);
		sl_live_top_pty_end(&rec->top);
		if (!rec->live_out_failed) {
			fputc('\n', stdout);
			sl_report_text(&r, rec->model);
			/* CMD's last lines, where the report would have scrolled them away */
			sl_live_top_replay(&rec->top, rec->what);
			fflush(stdout);
		}
	}
	return status;
}

/* record --reset: remove what SIGKILLed records left, nothing else. */
static int record_reset(void)
{
	struct sl_tracefs tfs;
	struct sl_error err = { "" };
	int ret;

	ret = sl_tracefs_open(&tfs, &err);
	if (!ret)
		ret = sl_tracefs_remove_left_behind(&tfs, &err);
	if (!ret) {
		report_removed(&tfs);
		if (!tfs.nr_removed)
			fprintf(stderr, "schedlint record: no tracing instance left behind in "
				"%s/instances\n", tfs.dir);
	}
	if (ret)
		error_msg("record: %s", err.msg);
	if (sl_tracefs_close(&tfs, &err)) {
		if (!ret)
			error_msg("record: %s", err.msg);
		ret = -1;
	}
	return ret ? 2 : 0;
}

/*
 * The instance, if record dies on the way out of the process (exit() on
 * an allocation failure): removed even then.
 */
static struct record *exiting_record;

static void record_atexit(void)
{
	if (exiting_record && exiting_record->wtfs_open)
		sl_tracefs_close(&exiting_record->wtfs, NULL);
	if (exiting_record && exiting_record->tfs_open)
		sl_tracefs_close(&exiting_record->tfs, NULL);
}

int cmd_record(int argc, char **argv)
{
	enum { OPT_BUFFER_KB = 1, OPT_DURATION, OPT_LIVE, OPT_INTERVAL, OPT_RESET };
	static const struct option long_opts[] = {
		{ "output",    required_argument, NULL, 'o' },
		{ "event",     required_argument, NULL, 'e' },
		{ "buffer-kb", required_argument, NULL, OPT_BUFFER_KB },
		{ "duration",  required_argument, NULL, OPT_DURATION },
		{ "live",      no_argument,       NULL, OPT_LIVE },
		{ "interval",  required_argument, NULL, OPT_INTERVAL },
		{ "reset",     no_argument,       NULL, OPT_RESET },
		{ "help",      no_argument,       NULL, 'h' },
		SL_ANALYSIS_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct record rec = {
		.output = "trace.dat", .buffer_kb = DEFAULT_BUFFER_KB,
		.interval_ns = 1000000000ULL, .go_fd = -1, .exec_err_fd = -1, .cmd_tty = -1,
	};
	bool reset = false, interval_given = false;
	char *end;
	int c, status;

	sl_config_init(&rec.cfg);
	optind = 1;
	/* '+': the first non-option is CMD; its own options are not ours */
	while ((c = sl_getopt(argc, argv, "+o:e:h", long_opts)) != -1) {
		switch (c) {
		case 'o':
			/* -o "$OUT" with OUT unset: a usage error, before anything runs (issue 32, 07) */
			if (!*optarg) {
				error_msg("record: -o: an empty file name");
				goto usage;
			}
			rec.output = optarg;
			break;
		case 'e':
			rec.extra_events = xrealloc(rec.extra_events,
						    (rec.nr_extra_events + 1) * sizeof(*rec.extra_events));
			rec.extra_events[rec.nr_extra_events++] = optarg;
			break;
		case OPT_BUFFER_KB:
			errno = 0;
			rec.buffer_kb = strtoul(optarg, &end, 10);
			if (errno || *end || !rec.buffer_kb || rec.buffer_kb > (1UL << 30)) {
				error_msg("record: --buffer-kb: '%s' is not a size in KB", optarg);
				goto usage;
			}
			break;
		case OPT_DURATION:
			if (parse_seconds(optarg, &rec.duration_ns) || !rec.duration_ns) {
				error_msg("record: --duration: '%s' is not a duration (10s, 500ms)", optarg);
				goto usage;
			}
			break;
		case OPT_LIVE:
			rec.want_live = true;
			break;
		case OPT_RESET:
			reset = true;
			break;
		case OPT_INTERVAL:
			if (parse_seconds(optarg, &rec.interval_ns) || rec.interval_ns < 100000000ULL) {
				error_msg("record: --interval: '%s' is not a duration of 100ms or more",
					  optarg);
				goto usage;
			}
			interval_given = true;
			break;
		case 'h':
			fputs(record_usage, stdout);
			fputs("Analysis options (with --live):\n", stdout);
			sl_analysis_options_help_print(stdout, (const char *const[]){ "reader", "buffer", NULL });
			sl_config_free(&rec.cfg);
			free(rec.extra_events);
			return 0;
		default:
			/* no trace.dat is read: taken, they were ignored (--buffer went into the dump commands) */
			if (c == SL_OPT_READER || c == SL_OPT_BUFFER) {
				error_msg("record: --%s chooses how a trace.dat is read: record reads the "
					  "ring buffers", c == SL_OPT_READER ? "reader" : "buffer");
				goto usage;
			}
			if (c >= SL_OPT_BASE && c < SL_OPT__END) {
				if (sl_config_option(&rec.cfg, c, optarg, "record"))
					goto usage;
				rec.analysis_opts = true;
				break;
			}
			goto usage;
		}
	}
	if (rec.analysis_opts && !rec.want_live) {
		error_msg("record: analysis options need --live (or give them to schedlint analyze)");
		goto usage;
	}
	if (interval_given && !rec.want_live) {
		error_msg("record: --interval is the refresh of --live's summary: it needs --live");
		goto usage;
	}
	if (optind < argc)
		rec.cmd = argv + optind;
	if (reset) {
		if (rec.cmd || argc > 2) {
			error_msg("record: --reset takes no other option and no command");
			goto usage;
		}
		sl_config_free(&rec.cfg);
		free(rec.extra_events);
		return record_reset();
	}

	/*
	 * A closed stdin, stdout or stderr would be reused by the first file
	 * we open - the trace would get the summaries written into it.
	 */
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", O_RDWR) != fd)
			return 2;
		if (fd == STDOUT_FILENO) {
			rec.live_out_failed = true;
			rec.live_out_errno = EBADF;
		}
	}
	exiting_record = &rec;
	atexit(record_atexit);
	status = record_run(&rec);
	if (record_cleanup(&rec) && status != 2)
		status = 2;
	exiting_record = NULL;
	return status;

usage:
	fputs("usage: schedlint record [-o FILE] [--buffer-kb N] [--duration D] [-e EVENT]... "
	      "[--live] [-- CMD ARGS]\n       schedlint record --reset\n"
	      "       (--help for more)\n", stderr);
	sl_config_free(&rec.cfg);
	free(rec.extra_events);
	return 2;
}
