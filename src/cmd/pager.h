/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pager.h - the terminal report through a pager, as git and perf do
 *
 * On a terminal, a report longer than a screen goes through
 * $SCHEDLINT_PAGER, else $PAGER, else "less -FRX" (one screen: printed
 * and gone; colors kept; the screen not cleared).  An empty value or
 * "cat" means no pager, and so do --no-pager and TERM=dumb (unless a
 * pager is named).  The width a report fits is measured before: the
 * pager's pipe has none.
 */
#ifndef SCHEDLINT_PAGER_H
#define SCHEDLINT_PAGER_H

#include <stdbool.h>

/* schedlint --no-pager CMD ...: no command pages */
extern bool sl_no_pager;

/*
 * The columns a report should fit: $COLUMNS when set, else the
 * terminal's width when stdout is one, else 80.
 */
int sl_term_width(void);
/*
 * When stdout is a terminal and a pager is wanted, start it and send
 * stdout to it.  Once started, sl_pager_finish() waits for it.
 */
void sl_pager_start(void);
/*
 * stdout goes to a pager: a write to it failing with EPIPE means the user
 * quit reading, not an error (the exit status stays the command's).
 */
bool sl_pager_active(void);
/* Flush stdout to the pager, close it and wait until the pager quits. */
void sl_pager_finish(void);

#endif /* SCHEDLINT_PAGER_H */
