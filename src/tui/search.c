// SPDX-License-Identifier: GPL-2.0
/*
 * search.c - which tasks a search (/) or a filter (\) names
 *
 * What is typed is a pid (digits only: that pid) or a part of a task's
 * name, in any case ("kworker", "pipe-a").  A name is matched against the
 * comm the task had at that moment where the view knows it (a run in the
 * timeline, a finding), else against its last one.  The search is one for
 * all views, as in less: / sets it, n / N go to the next / previous match
 * in the view shown.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "util/util.h"

bool xp_match_set(struct xp_match *m, const char *text)
{
	char *end;
	long pid;

	memset(m, 0, sizeof(*m));
	while (*text == ' ')
		text++;
	snprintf(m->text, sizeof(m->text), "%s", text);
	for (size_t n = strlen(m->text); n && m->text[n - 1] == ' '; n--)
		m->text[n - 1] = '\0';
	if (!m->text[0])
		return false;
	pid = strtol(m->text, &end, 10);
	m->pid = !*end && pid > 0 && pid <= INT32_MAX ? (int32_t)pid : 0;
	return true;
}

bool xp_match_task(const struct xp *x, const struct xp_match *m, int32_t pid, uint32_t comm)
{
	const struct sl_task *t;

	if (!m->text[0])
		return true;
	if (m->pid)
		return pid == m->pid;
	if (pid <= 0)
		return false;
	if (!comm && (t = sl_model_task(x->m, pid)))
		comm = t->comm;
	return comm && strcasestr(sl_str(x->m->strtab, comm), m->text);
}

bool xp_match_keep(const void *data, int32_t pid, uint32_t comm)
{
	const struct xp_match_ctx *c = data;

	return xp_match_task(c->x, &c->match, pid, comm);
}

int xp_ask_match(struct xp *x, const char *question, struct xp_match *m)
{
	char buf[sizeof(m->text)];

	snprintf(buf, sizeof(buf), "%s", m->text);
	if (!xp_prompt(x, question, buf, sizeof(buf)))
		return -1;
	return xp_match_set(m, buf) ? 1 : 0;
}
