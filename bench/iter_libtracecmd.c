// SPDX-License-Identifier: GPL-2.0
/*
 * iter_libtracecmd.c - the baseline of bench/run: iterate every record of
 * a trace.dat with bare libtracecmd, as a minimal libtracecmd tool would
 * (tracecmd_open + tracecmd_iterate_events), and do nothing with them
 * but count.  Whatever schedlint does per event comes on top of reading,
 * so this is the floor a libtracecmd-based analyzer cannot go below.
 *
 *   iter_libtracecmd TRACE.dat   -> prints "events N"
 */
#include <stdio.h>
#include <trace-cmd.h>

struct totals {
	unsigned long long events;
	unsigned long long ts_xor;	/* keeps the loop honest */
};

static int count_record(struct tracecmd_input *handle, struct tep_record *rec,
			int cpu, void *data)
{
	struct totals *t = data;

	t->events++;
	t->ts_xor ^= rec->ts;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *handle;
	struct totals t = { 0, 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: %s TRACE.dat\n", argv[0]);
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	handle = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		fprintf(stderr, "%s: libtracecmd cannot open it\n", argv[1]);
		return 2;
	}
	if (tracecmd_iterate_events(handle, NULL, 0, count_record, &t) < 0) {
		fprintf(stderr, "%s: iteration failed\n", argv[1]);
		tracecmd_close(handle);
		return 2;
	}
	printf("events %llu\n", t.events);
	tracecmd_close(handle);
	return t.ts_xor == 1 ? 1 : 0;	/* never 1 in practice; uses the value */
}
