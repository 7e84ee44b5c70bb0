// SPDX-License-Identifier: GPL-2.0
/*
 * slice.c - scheduler parameters: model, base slice, weights, HZ
 *
 * The kernel scales its latency tunables by a factor of the CPU count
 * (SCHED_TUNABLESCALING_LOG: 1 + ilog2(min(ncpus, 8))), so the default
 * base slice is 0.75 ms on 1 CPU, 1.5 ms on 2, 2.25 ms on 4, 3 ms on 8+.
 */
#include <stdio.h>
#include <stdlib.h>

#include "schedlint/context.h"
#include "slice.h"

/* kernel/sched/core.c: sched_prio_to_weight[40], nice -20 .. 19 */
const uint32_t sl_prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906,
	3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423,
	335, 272, 215, 172, 137,
	110, 87, 70, 56, 45,
	36, 29, 23, 18, 15,
};

bool sl_kernel_version(const char *release, int *major, int *minor)
{
	char *end;
	long ma, mi;

	if (!release || !*release)
		return false;
	ma = strtol(release, &end, 10);
	if (end == release || *end != '.')
		return false;
	mi = strtol(end + 1, &end, 10);
	*major = (int)ma;
	*minor = (int)mi;
	return true;
}

enum sl_slice_model sl_slice_model(const struct sl_model *m)
{
	int major, minor;

	if (m->cfg->slice_model_set)
		return m->cfg->slice_model;
	if (sl_kernel_version(m->info->kernel, &major, &minor))
		return major > 6 || (major == 6 && minor >= 6) ? SL_SLICE_EEVDF : SL_SLICE_CFS;
	return SL_SLICE_EEVDF;
}

/*
 * A trace.dat and a perf.data say how many CPUs they have (their header,
 * in which they are read); text says it in a header, if at all.  The file
 * whose header says it, or NULL.
 */
static const char *ncpus_header(const struct sl_model *m)
{
	if (m->info->ncpus <= 0)
		return NULL;
	switch (m->info->format) {
	case SL_FMT_DAT6:
	case SL_FMT_DAT7:
		return "the trace.dat header";
	case SL_FMT_PERF_DATA:
		return "the perf.data header";
	default:
		return NULL;
	}
}

int sl_ncpus(const struct sl_model *m)
{
	if (ncpus_header(m))
		return m->info->ncpus;
	return m->info->ncpus > m->nr_cpus ? m->info->ncpus : m->nr_cpus;
}

const char *sl_ncpus_source(const struct sl_model *m)
{
	if (ncpus_header(m))
		return ncpus_header(m);
	if (m->info->header_ncpus && m->info->header_ncpus >= sl_ncpus(m))
		return "the text's header";
	if (m->info->header_ncpus)
		return "its events (more CPUs than its header says)";
	return "its events (the text has no header)";
}

const char *sl_ncpus_source_key(const struct sl_model *m)
{
	return ncpus_header(m) || (m->info->header_ncpus && m->info->header_ncpus >= sl_ncpus(m)) ?
	       "header" : "events";
}

bool sl_slice_factor_final(const struct sl_model *m)
{
	return m->cfg->base_slice_ns || ncpus_header(m) || sl_ncpus(m) >= 8;
}

unsigned int sl_slice_factor(const struct sl_model *m)
{
	int ncpus = sl_ncpus(m);
	unsigned int factor = 1;

	if (ncpus > 8)
		ncpus = 8;
	while (ncpus > 1) {
		factor++;
		ncpus >>= 1;
	}
	return factor;
}

uint64_t sl_base_slice(const struct sl_model *m)
{
	if (m->cfg->base_slice_ns)
		return m->cfg->base_slice_ns;
	if (m->ctx && m->ctx->base_slice_ns)
		return m->ctx->base_slice_ns;	/* what the kernel said (context.h) */
	return 750000ULL * sl_slice_factor(m);
}

int sl_hz_recorded(const struct sl_model *m)
{
	/* context.c parsed it: 1..100000 */
	return m->ctx && m->ctx->hz.value[0] ? atoi(m->ctx->hz.value) : 0;
}

int sl_hz(const struct sl_model *m)
{
	if (m->cfg->hz)
		return m->cfg->hz;
	return sl_hz_recorded(m) ? sl_hz_recorded(m) : m->hz_inferred;
}
