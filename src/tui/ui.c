// SPDX-License-Identifier: GPL-2.0
/*
 * ui.c - explore's screen: set up, the main loop, and put the terminal back
 *
 * The loop draws the tab bar, the current panel and the footer, waits for
 * a key and hands it to the panel; what the panel does not use is a
 * global key (views, help, quit).  ncurses turns SIGWINCH into KEY_RESIZE.
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT only set a flag (no SA_RESTART, so
 * getch() returns and a long read stops at its next event): the loop
 * ends, the terminal is restored, and the signal is raised again so the
 * shell sees how we ended.  Should the loop not come round within
 * XP_SIGNAL_GRACE_S seconds (or a second signal come), the handler puts
 * the terminal back itself (tcsetattr() and the saved reset sequence are
 * async-signal-safe) and ends the process: no key can make explore
 * outlive a kill or its terminal.  A terminal that hung up without a
 * SIGHUP (nohup) ends it the same way.  An atexit() handler restores the
 * terminal on any other way out, and a crash restores it before dying.
 *
 * The keys come from getch(), or from x->read_key when set (the fuzz
 * harness replays key sequences on a screen drawn to /dev/null).
 */
#include <errno.h>
#include <limits.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <ncursesw/term.h>	/* tigetstr(); it #defines the capability names */

#include "tui.h"
#include "util/util.h"

/* Seconds a signal may wait for the main loop before the handler ends explore itself. */
#define XP_SIGNAL_GRACE_S	2

static volatile sig_atomic_t got_signal;
static bool screen_up;
static SCREEN *screen;
static FILE *tty_in;

/* What the signal handlers need to put the terminal back by themselves. */
static int tty_fd = -1;
static struct termios saved_tty;
static bool have_saved_tty;
static char reset_seq[256];	/* leave the alternate screen, cursor back, attributes off */
static size_t reset_len;

/*
 * End now, from a signal handler: the terminal modes and screen as they
 * were (only async-signal-safe calls), then die of sig as the shell expects.
 */
static void die_now(int sig)
{
	sigset_t set;

	if (have_saved_tty)
		tcsetattr(tty_fd, TCSANOW, &saved_tty);
	if (reset_len && write(tty_fd, reset_seq, reset_len) < 0) {
		/* nothing more to do: the terminal is gone */
	}
	if (sig == SIGQUIT)
		_exit(128 + sig);	/* no core: as the loop would end */
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void on_signal(int sig)
{
	if (got_signal)
		die_now(sig);	/* a second one: the user means it */
	got_signal = sig;
	alarm(XP_SIGNAL_GRACE_S);
}

/* The loop did not come round in time: something is stuck. */
static void on_alarm(int sig)
{
	die_now(got_signal ? got_signal : SIGTERM);
}

static void restore_terminal(void)
{
	if (screen_up) {
		endwin();
		screen_up = false;
	}
}

#ifndef __SANITIZE_ADDRESS__
/*
 * A crash (or abort() on an allocation failure) must not leave the
 * terminal raw: put it back, then die of the same signal.  Not under the
 * sanitizers, which report these signals themselves.
 */
static void on_crash(int sig)
{
	restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}
#endif

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
#ifndef __SANITIZE_ADDRESS__
	signal(SIGSEGV, on_crash);
	signal(SIGBUS, on_crash);
	signal(SIGFPE, on_crash);
	signal(SIGABRT, on_crash);
#endif
}

/* The terminal the keys come from hung up (a SIGHUP that was ignored: nohup). */
static bool input_gone(void)
{
	struct pollfd pfd = { .fd = fileno(tty_in ? tty_in : stdin), .events = POLLIN };

	return poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL));
}

/* The next key: getch() (ERR after the timeout), or the replayed keys of a test. */
static int read_key(struct xp *x)
{
	int ch;

	if (x->read_key)
		return x->read_key(x);
	ch = getch();
	if (ch == ERR && !got_signal && input_gone())
		got_signal = SIGHUP;
	return ch;
}

void xp_set_status(struct xp *x, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->status, sizeof(x->status), fmt, ap);
	va_end(ap);
	x->status_error = error;
}

void xp_show(struct xp *x, int panel)
{
	if (panel < 0 || panel >= XP_NR_PANELS)
		return;
	/* a view that is not a tab goes back where it was opened from (the help: to any) */
	if (panel >= XP_NR_TABS && panel != x->panel && (x->panel != XP_HELP || panel == XP_HELP))
		x->back[panel] = x->panel;
	x->panel = panel;
}

/* Esc: from the help, a finding or another view that is not a tab, back to where it was opened */
static void go_back(struct xp *x)
{
	if (x->panel >= XP_NR_TABS)
		x->panel = x->back[x->panel];
}

/* The tab labels: the tabs, then the current view when it is not one. */
static int tab_label(struct xp *x, int i, int cur, char *label, size_t len)
{
	if (i == XP_NR_TABS && cur < XP_NR_TABS)
		return 0;
	if (i == XP_NR_TABS)
		snprintf(label, len, " %s ", x->panels[cur].ops->name);
	else if (i == XP_FINDINGS)
		snprintf(label, len, " %d %s %zu ", i + 1, x->panels[i].ops->name, x->nr_findings);
	else
		snprintf(label, len, " %d %s ", i + 1, x->panels[i].ops->name);
	return (int)strlen(label);
}

/*
 * " explore NAME (workload pid N) " in room columns: the name is cut in
 * its middle ("long-na..ce.dat"), then " explore " goes, never the pid.
 */
static void fit_title(char *title, size_t len, const char *base, const char *suffix, int room)
{
	const char *lead = " explore ";
	int nb = (int)strlen(base), ns = (int)strlen(suffix), keep;

	if ((int)strlen(lead) + nb + ns <= room) {
		snprintf(title, len, "%s%s%s", lead, base, suffix);
		return;
	}
	if ((int)strlen(lead) + 8 + ns > room)
		lead = " ";
	keep = room - (int)strlen(lead) - ns - 2;	/* 2: ".." */
	/* whole when it fits without " explore " (a cut as long as the name was "hb12..dat") */
	if (keep + 2 >= nb) {
		snprintf(title, len, "%s%s%s", lead, base, suffix);
		return;
	}
	/* too little room for both ends: its start, and ".." says it was cut ("new-1.dat" read "new") */
	if (keep < 2) {
		int head = MAX(keep, 0);

		while (head > 0 && ((unsigned char)base[head] & 0xc0) == 0x80)
			head--;
		snprintf(title, len, "%s%.*s%s%s", lead, head, base, keep >= 0 ? ".." : "", suffix);
		return;
	}
	{
		int head = keep - keep / 2, tail = nb - keep / 2;

		/* never inside a UTF-8 character: its continuation bytes are 10xxxxxx */
		while (head > 0 && ((unsigned char)base[head] & 0xc0) == 0x80)
			head--;
		while (tail < nb && ((unsigned char)base[tail] & 0xc0) == 0x80)
			tail++;
		snprintf(title, len, "%s%.*s..%s%s", lead, head, base, base + tail, suffix);
	}
}

static void draw_tabs(struct xp *x)
{
	static const char *const keys = " ?:help q:quit ";
	int col, room, tabs_w = 0, cur = x->panel == XP_HELP ? x->back[XP_HELP] : x->panel;
	char title[PATH_MAX + 64], suffix[48], label[48];
	const char *base = strrchr(x->name, '/') ? strrchr(x->name, '/') + 1 : x->name;

	xp_put(0, 0, COLS, x->attrs[XP_A_TITLE], "");
	/* the findings and tasks are the workload's: its pid is always shown */
	if (x->m->cfg->workload_active)
		snprintf(suffix, sizeof(suffix), " (workload pid %d) ", x->m->workload_pid);
	else
		snprintf(suffix, sizeof(suffix), " ");
	/* the title has what the tabs leave (the keys come last), at least a quarter of the line */
	for (int i = 0; i <= XP_NR_TABS; i++)
		tabs_w += tab_label(x, i, cur, label, sizeof(label));
	room = COLS - tabs_w - (int)strlen(keys) - 1;
	if (room < (int)strlen(suffix) + 20)	/* the keys' hint gives its room first */
		room = COLS - tabs_w - 1;
	room = MAX(room, COLS / 4);
	room = MAX(room, (int)strlen(suffix) + 4);
	fit_title(title, sizeof(title), base, suffix, room);
	col = MIN((int)strlen(title), COLS);
	xp_put(0, 0, col, x->attrs[XP_A_TITLE], title);
	for (int i = 0; i <= XP_NR_TABS; i++) {
		int n = tab_label(x, i, cur, label, sizeof(label));

		if (!n || col + n >= COLS)
			break;
		xp_put(0, col, n, i == cur || i == XP_NR_TABS ? x->attrs[XP_A_TAB] : x->attrs[XP_A_TITLE], label);
		col += n;
	}
	if (col + (int)strlen(keys) < COLS)
		xp_put(0, COLS - (int)strlen(keys), (int)strlen(keys), x->attrs[XP_A_TITLE], keys);
}

static void draw_footer(struct xp *x)
{
	const struct xp_panel *p = &x->panels[x->panel];

	if (x->status[0])
		xp_put(LINES - 1, 0, COLS, x->status_error ? x->attrs[XP_A_BAD] : x->attrs[XP_A_WARN],
		       x->status);
	else
		xp_putf(LINES - 1, 0, COLS, x->attrs[XP_A_DIM], " %s", p->ops->hints);
}

void xp_draw(struct xp *x)
{
	struct xp_panel *p = &x->panels[x->panel];
	struct xp_rect r = { .y = 1, .x = 0, .h = LINES - 2, .w = COLS };

	erase();
	if (LINES < 8 || COLS < 40) {
		xp_put(0, 0, COLS, A_NORMAL, "terminal too small for explore");
		xp_put(1, 0, COLS, A_NORMAL, "(at least 40x8; q quits)");
		refresh();
		return;
	}
	draw_tabs(x);
	p->last = r;
	p->ops->draw(x, p, &r);
	draw_footer(x);
	refresh();
}

void xp_busy(struct xp *x, const char *what)
{
	if (!screen_up)
		return;
	xp_putf(LINES - 1, 0, COLS, x->attrs[XP_A_WARN], " reading %s ...", what);
	refresh();
}

int xp_read_window(struct xp *x, struct xp_window *w, const struct xp_window_req *req)
{
	int ret;

	xp_busy(x, "the trace");
	ret = xp_window_read(w, req, &x->idx, &x->src);
	if (ret == -EINTR)
		return ret;
	if (ret < 0)
		xp_set_status(x, true, "%s: %s", x->name, x->src.err.msg[0] ? x->src.err.msg : strerror(-ret));
	return ret;
}

bool xp_prompt(struct xp *x, const char *question, char *buf, size_t len)
{
	size_t n = strlen(buf);
	bool ok = false, fresh = n > 0;	/* a default: the first character typed replaces it */

	curs_set(1);
	for (;;) {
		int qlen = (int)strlen(question), ch;

		xp_put(LINES - 1, 0, COLS, A_NORMAL, "");
		xp_put(LINES - 1, 0, qlen, x->attrs[XP_A_HEAD], question);
		xp_put(LINES - 1, qlen, COLS - qlen, A_NORMAL, buf);
		move(LINES - 1, MIN(qlen + (int)n, COLS - 1));
		refresh();
		ch = read_key(x);
		if (got_signal || x->quit)
			break;
		if (ch == ERR)
			continue;
		if (ch == KEY_RESIZE) {
			xp_draw(x);
			continue;
		}
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			ok = true;
			break;
		}
		if (ch == 27 || ch == ('g' & 0x1f) || ch == ('c' & 0x1f))
			break;
		/* a proposed answer: replaced by what is typed, or edited with Backspace */
		if (fresh && ch >= 0x20 && ch < 0x7f)
			buf[n = 0] = '\0';
		fresh = false;
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n) {
			buf[--n] = '\0';
			continue;
		}
		if (ch == ('u' & 0x1f)) {
			n = 0;
			buf[0] = '\0';
			continue;
		}
		if (ch >= 0x20 && ch < 0x7f && n + 1 < len) {
			buf[n++] = (char)ch;
			buf[n] = '\0';
		}
	}
	curs_set(0);
	return ok;
}

/* Keys every panel shares; the panel saw them first. */
static void global_key(struct xp *x, int ch)
{
	switch (ch) {
	case 'q':
	case 'Q':
		x->quit = true;
		break;
	case '?':
	case KEY_F(1):
		if (x->panel == XP_HELP)
			go_back(x);
		else
			xp_help_open(x);
		break;
	case '1':
	case '2':
	case '3':
	case '4':
		xp_show(x, ch - '1');
		break;
	case '\t':
		xp_show(x, x->panel >= XP_NR_TABS - 1 ? 0 : x->panel + 1);
		break;
	case KEY_BTAB:
		xp_show(x, x->panel == 0 ? XP_NR_TABS - 1 : x->panel >= XP_NR_TABS ? XP_NR_TABS - 1 :
			x->panel - 1);
		break;
	case 27:		/* Esc */
	case KEY_BACKSPACE:
	case 127:
	case KEY_LEFT:
		go_back(x);
		break;
	case 'l' & 0x1f:	/* ^L */
		clearok(curscr, TRUE);
		break;
	default:
		break;
	}
}

static const struct xp_panel_ops *const panel_ops[XP_NR_PANELS] = {
	[XP_OVERVIEW] = &xp_overview_ops, [XP_FINDINGS] = &xp_findings_ops,
	[XP_TIMELINE] = &xp_timeline_ops, [XP_TASKS] = &xp_tasks_ops,
	[XP_DETAIL] = &xp_detail_ops, [XP_EVENTS] = &xp_events_ops, [XP_SAMPLES] = &xp_samples_ops,
	[XP_HELP] = &xp_help_ops,
};

void xp_init(struct xp *x, struct sl_analysis *an)
{
	x->an = an;
	x->m = an->model;
	x->findings = sl_findings_sorted(x->m->findings, &x->nr_findings);
	x->nr_cpus = MAX(x->m->nr_cpus, MAX(an->info.ncpus, x->idx.nr_cpus));
	x->nr_cpus = MAX(x->nr_cpus, 1);
	x->first_ts = x->idx.events ? x->idx.first_ts : x->m->first_ts;
	x->last_ts = x->idx.events ? x->idx.last_ts : x->m->last_ts;
	x->last_ts = MAX(x->last_ts, x->first_ts);
	/* where schedlint record started the workload: the timeline opens there */
	x->workload_ts = 0;
	for (int i = 0; x->m->workload_pid && i < x->idx.nr_markers; i++) {
		const char *text = sl_str(x->m->strtab, x->idx.markers[i].text);
		size_t len = strlen(SL_MARKER_WORKLOAD);

		if (!strncmp(text, SL_MARKER_WORKLOAD, len) &&
		    atoi(text + len) == x->m->workload_pid) {
			x->workload_ts = x->idx.markers[i].ts;
			break;
		}
	}
	for (int i = 0; i < XP_NR_PANELS; i++)
		x->panels[i].ops = panel_ops[i];
}

bool xp_screen_open(struct xp *x, const char *term, FILE *out, FILE *in)
{
	const char *codeset, *caps[] = { "rmcup", "cnorm", "sgr0" };

	setlocale(LC_ALL, "");
	codeset = nl_langinfo(CODESET);
	x->utf8 = codeset && !strcmp(codeset, "UTF-8");
	tty_fd = fileno(out);
	have_saved_tty = tcgetattr(tty_fd, &saved_tty) == 0;
	screen = newterm(term, out, in);
	if (!screen)
		return false;
	screen_up = true;
	/* what the signal handlers write to leave curses mode without curses */
	reset_len = 0;
	for (size_t i = 0; i < ARRAY_SIZE(caps); i++) {
		const char *cap = tigetstr(caps[i]);
		size_t n = cap && cap != (char *)-1 ? strlen(cap) : 0;

		if (n && reset_len + n < sizeof(reset_seq)) {
			memcpy(reset_seq + reset_len, cap, n);
			reset_len += n;
		}
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(50);
	curs_set(0);
	if (x->color && has_colors() && start_color() == OK && COLORS >= 8)
		x->color = true;
	else
		x->color = false;
	xp_init_attrs(x);
	return true;
}

void xp_panels_init(struct xp *x)
{
	for (int i = 0; i < XP_NR_PANELS; i++)
		if (x->panels[i].ops->init)
			x->panels[i].ops->init(x, &x->panels[i]);
}

void xp_panels_destroy(struct xp *x)
{
	for (int i = 0; i < XP_NR_PANELS; i++)
		if (x->panels[i].ops->destroy && x->panels[i].priv) {
			x->panels[i].ops->destroy(x, &x->panels[i]);
			x->panels[i].priv = NULL;
		}
}

void xp_screen_close(void)
{
	restore_terminal();
	if (screen)
		delscreen(screen);
	screen = NULL;
	have_saved_tty = false;
	reset_len = 0;
	if (tty_in)
		fclose(tty_in);
	tty_in = NULL;
}

void xp_key(struct xp *x, int ch)
{
	struct xp_panel *p;

	if (ch == KEY_RESIZE)
		return;
	x->status[0] = '\0';
	if (LINES < 8 || COLS < 40) {
		if (ch == 'q' || ch == 'Q')
			x->quit = true;
		return;
	}
	p = &x->panels[x->panel];
	if (!p->ops->key || !p->ops->key(x, p, ch))
		global_key(x, ch);
}

const char *xp_check(const struct xp *x)
{
	const char *broken;

	if (x->panel < 0 || x->panel >= XP_NR_PANELS)
		return "the panel shown is not one";
	for (int i = 0; i < XP_NR_PANELS; i++)
		if (x->panels[i].ops->check && x->panels[i].priv &&
		    (broken = x->panels[i].ops->check(x, &x->panels[i])))
			return broken;
	return NULL;
}

int xp_run(struct xp *x)
{
	bool dirty = true;
	FILE *in = stdin;
	int sig;

	catch_signals();
	x->stop = &got_signal;
	x->src.stop = &got_signal;
	if (!isatty(STDIN_FILENO)) {
		/* the trace came on stdin: keys come from the terminal */
		tty_in = fopen("/dev/tty", "r");
		in = tty_in;
	}
	if (!in || !xp_screen_open(x, NULL, stdout, in)) {
		xp_screen_close();
		error_msg("explore: cannot use the terminal (TERM=%s)",
			  getenv("TERM") ? getenv("TERM") : "");
		return 2;
	}
	atexit(restore_terminal);
	xp_panels_init(x);

	/*
	 * getch() waits at most a quarter second: a signal that came while
	 * we drew (a window being read) is seen even if no key follows.
	 */
	timeout(250);
	while (!x->quit && !got_signal) {
		int ch;

		if (dirty)
			xp_draw(x);
		dirty = true;
		ch = read_key(x);
		if (got_signal)
			break;
		if (ch == ERR) {
			dirty = false;
			continue;
		}
		xp_key(x, ch);
	}

	xp_panels_destroy(x);
	xp_screen_close();
	sig = got_signal;
	if (sig && sig != SIGQUIT) {
		/* end the way the signal would have ended us, now the terminal is sane */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	alarm(0);
	if (sig)
		return 128 + sig;
	return 0;
}
