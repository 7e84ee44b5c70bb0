// SPDX-License-Identifier: GPL-2.0
/*
 * export_ndjson.c - the analysis as rows, one JSON object a line (export.h)
 *
 * Rows of three types, each with the same trace_id, host, kernel and
 * workload, so a directory of exports is one table (DuckDB's read_json,
 * jq -s, pandas.read_json(lines=True)):
 *   "wakeup"   each wakeup-latency sample the report counts (in the
 *              filters), written as the model measures it: nothing kept;
 *   "finding"  each finding kept (export keeps every one unless
 *              --max-findings says fewer), the report's findings[] fields;
 *   "summary"  one, last: the trace's facts, the wakeup latency and each
 *              kind's count, cost and worst cost (the report's summary).
 * The sample rows come from an analyzer added to the model, with only an
 * on_latency hook (it refers to no task, so tasks still fold).
 */
#include <cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "report/export.h"
#include "report/report.h"
#include "schedlint/analyzer.h"
#include "schedlint/findings.h"
#include "schedlint/model.h"
#include "schedlint/report.h"
#include "util/util.h"

struct sl_ndjson {
	FILE *out;
	char *trace_id;			/* JSON string, quoted */
	char *common;			/* ,"host":...,"kernel":...,"workload":... once known */
	bool workload_known;		/* common was made after the workload marker */
	uint64_t rows;
	struct sl_fields_text line;	/* a row's text, written as it is made (reused) */
};

int sl_ndjson_trace_id(const char *path, char *buf, size_t len, struct sl_error *err)
{
	FILE *f = fopen(path, "rb");
	unsigned char chunk[1 << 16];
	uLong crc = crc32(0L, Z_NULL, 0);
	uint64_t size = 0;
	struct stat st;
	size_t n;

	/* in the reader's words: it reads the file next, and would say the same */
	if (!f) {
		sl_error_set(err, "cannot open: %s", strerror(errno));
		return -errno;
	}
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		sl_error_set(err, "is a directory, not a trace");
		return -EISDIR;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		crc = crc32(crc, chunk, (uInt)n);
		size += n;
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		fclose(f);
		sl_error_set(err, "reading it: %s", strerror(e));
		return -e;
	}
	fclose(f);
	snprintf(buf, len, "%08lx-%" PRIu64, (unsigned long)crc, size);
	return 0;
}

/* s as a JSON string (quoted), valid UTF-8 (cJSON's escaping, our U+FFFD for bad bytes) */
static char *json_string(const char *s)
{
	struct sl_fields_text t;

	sl_fields_text_init(&t);
	sl_fields_text_string(&t, s ? s : "");
	return t.s;
}

struct sl_ndjson *sl_ndjson_new(FILE *out, const char *trace_id)
{
	struct sl_ndjson *w = xcalloc(1, sizeof(*w));

	w->out = out;
	w->trace_id = json_string(trace_id);
	sl_fields_text_init(&w->line);
	return w;
}

void sl_ndjson_free(struct sl_ndjson *w)
{
	if (!w)
		return;
	free(w->trace_id);
	free(w->common);
	sl_fields_text_free(&w->line);
	free(w);
}

/* The host: the second word of the recorded uname ("Linux HOST 6.18.44 ..."), else unknown. */
static void host_of(const struct sl_trace_info *info, char *buf, size_t len)
{
	const char *u = info->uname, *sp;
	size_t n;

	buf[0] = '\0';
	if (strncmp(u, "Linux ", 6))
		return;
	u += 6;
	sp = strchr(u, ' ');
	n = sp ? (size_t)(sp - u) : strlen(u);
	if (n && n < len && strncmp(u, info->kernel, n)) {
		memcpy(buf, u, n);
		buf[n] = '\0';
	}
}

/* ,"host":...,"kernel":...,"workload":... (null when the trace does not say) */
static const char *common(struct sl_ndjson *w, const struct sl_model *m)
{
	char host[256];
	char *h, *k, *wl;
	size_t len;

	if (w->common && (w->workload_known || !m->workload_pid))
		return w->common;
	free(w->common);
	host_of(m->info, host, sizeof(host));
	h = host[0] ? json_string(host) : xstrdup("null");
	k = m->info->kernel[0] ? json_string(m->info->kernel) : xstrdup("null");
	wl = m->workload_pid ? json_string(m->workload_cmd) : xstrdup("null");
	len = strlen(h) + strlen(k) + strlen(wl) + 64;
	w->common = xmalloc(len);
	snprintf(w->common, len, ",\"host\":%s,\"kernel\":%s,\"workload\":%s", h, k, wl);
	w->workload_known = m->workload_pid != 0;
	free(h);
	free(k);
	free(wl);
	return w->common;
}

struct ndjson_probe {
	struct sl_ndjson *w;
};

/* A row's start: {"type":TYPE,"trace_id":...,"host":...; its members follow, after a comma. */
static struct sl_fields *row_begin(struct sl_ndjson *w, const struct sl_model *m, const char *type)
{
	const char *c = common(w, m);

	sl_fields_text_reset(&w->line, false);
	sl_fields_text_raw(&w->line, "{\"type\":", 8);
	sl_fields_text_string(&w->line, type);
	sl_fields_text_raw(&w->line, ",\"trace_id\":", 12);
	sl_fields_text_raw(&w->line, w->trace_id, strlen(w->trace_id));
	sl_fields_text_raw(&w->line, c, strlen(c));
	w->line.started = 1;
	return &w->line.base;
}

static void row_end(struct sl_ndjson *w)
{
	sl_fields_text_raw(&w->line, "}\n", 2);
	fwrite(w->line.s, 1, w->line.len, w->out);
	w->rows++;
}

static void on_latency(struct sl_analyzer *a, struct sl_model *m, const struct sl_latency_sample *s)
{
	struct sl_ndjson *w = ((struct ndjson_probe *)a->priv)->w;
	const char *comm;
	struct sl_fields *o;

	/* the samples the report counts: in the filters (--exclude-inferred: never here) */
	if (!s->in_filter)
		return;
	comm = sl_task_comm(m, s->task);
	o = row_begin(w, m, "wakeup");
	sl_fields_u64(o, "ts_ns", s->run_ts);
	sl_fields_u64(o, "waking_ns", s->wake_ts);
	sl_fields_u64(o, "latency_ns", s->latency);
	sl_fields_i64(o, "cpu", s->cpu);
	sl_fields_i64(o, "pid", s->task->pid);
	sl_fields_str(o, "comm", comm ? comm : "");
	sl_fields_i64(o, "waker_pid", s->waker_pid);
	sl_fields_i64(o, "waker_cpu", s->waker_cpu);
	sl_fields_bool(o, "remote", s->remote);
	sl_fields_bool(o, "ipi", s->ipi);
	sl_fields_bool(o, "inferred", s->implied_switch);
	row_end(w);
}

static bool probe_task_in_use(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t)
{
	return false;
}

static const struct sl_analyzer_ops ndjson_probe_ops = {
	.name = "ndjson-rows",
	.priv_size = sizeof(struct ndjson_probe),
	.on_latency = on_latency,
	.task_in_use = probe_task_in_use,
};

void sl_ndjson_start(struct sl_ndjson *w, struct sl_model *m)
{
	struct sl_analyzer *a = xcalloc(1, sizeof(*a));
	struct ndjson_probe *p = xcalloc(1, sizeof(*p));

	p->w = w;
	a->ops = &ndjson_probe_ops;
	a->priv = p;
	a->id = m->nr_analyzers;
	sl_model_add_analyzer(m, a);
}

/* o's members after type, trace_id and the common ones, as one line */
static void write_row(struct sl_ndjson *w, const struct sl_model *m, const char *type, cJSON *o)
{
	char *text, *body;

	sl_json_utf8(o);
	text = cJSON_PrintUnformatted(o);
	body = text + 1;			/* after '{' */
	fprintf(w->out, "{\"type\":\"%s\",\"trace_id\":%s%s%s%s\n", type, w->trace_id,
		common(w, m), *body == '}' ? "" : ",", body);
	free(text);
	w->rows++;
}

void sl_ndjson_finish(struct sl_ndjson *w, struct sl_model *m, const char *path)
{
	cJSON *o, *kinds;

	/*
	 * each finding as it is written: no tree (issue 31); kind by kind,
	 * each as the report's findings[] has it: the copies the what-if wrote
	 * its estimates to
	 */
	size_t nr;
	const struct sl_finding *f = sl_findings_sorted(m->findings, &nr);

	for (int k = 0; k < SL_KIND__COUNT; k++) {
		if (!sl_kinds[k].listed)
			continue;
		for (size_t i = 0; i < nr; i++) {
			if (f[i].kind != k)
				continue;
			sl_finding_fields(m, &f[i], row_begin(w, m, "finding"));
			row_end(w);
		}
	}

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "path", path);
	sl_json_add_u64(o, "first_ns", m->first_ts);
	sl_json_add_u64(o, "last_ns", m->last_ts);
	sl_json_add_u64(o, "events", m->nr_events);
	sl_json_add_u64(o, "lost_events", m->lost_events);
	cJSON_AddNumberToObject(o, "cpus", m->info->ncpus > 0 ? m->info->ncpus : m->nr_cpus);
	cJSON_AddItemToObject(o, "wakeup_latency", sl_hist_json(&m->latency));
	kinds = cJSON_AddObjectToObject(o, "findings");
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		const struct sl_kind_summary *s = &m->findings->summary[k];
		cJSON *ko = cJSON_AddObjectToObject(kinds, sl_kinds[k].name);

		sl_json_add_u64(ko, "count", s->count);
		sl_json_add_u64(ko, "cost_ns", s->cost);
		sl_json_add_u64(ko, "max_cost_ns", s->max_cost);
		sl_json_add_u64(ko, "rows", sl_kinds[k].listed ? m->findings->lists[k].nr : 0);
	}
	write_row(w, m, "summary", o);
	cJSON_Delete(o);
}
