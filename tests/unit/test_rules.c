// SPDX-License-Identifier: GPL-2.0
/*
 * test_rules.c - --fail-on rules: parsing, metric names, the verdicts
 * (base of 0, several runs and the noise rule), and metric extraction
 * from a report object
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cJSON.h>
#include <cmocka.h>

#include "report/metrics.h"
#include "report/rules.h"
#include "report/stats.h"

static struct sl_rule parse_ok(const char *text)
{
	struct sl_rule r;
	char err[512];

	if (sl_rule_parse(text, &r, err, sizeof(err)))
		fail_msg("'%s' did not parse: %s", text, err);
	return r;
}

static void parse_bad(const char *text, const char *msg_part)
{
	struct sl_rule r;
	char err[512] = "";

	if (!sl_rule_parse(text, &r, err, sizeof(err)))
		fail_msg("'%s' parsed, it should not", text);
	if (!strstr(err, msg_part))
		fail_msg("'%s': message '%s' lacks '%s'", text, err, msg_part);
	assert_null(r.text);
	assert_null(r.metric);
}

static void test_parse_forms(void **state)
{
	struct sl_rule r = parse_ok("wakeup.p99>+10%");

	assert_string_equal(r.metric, "wakeup.p99");
	assert_int_equal(r.op, '>');
	assert_int_equal(r.form, SL_RULE_PERCENT);
	assert_true(r.threshold == 10);
	assert_int_equal(r.unit, SL_UNIT_NS);
	sl_rule_free(&r);

	r = parse_ok("late-preemption.count>+0");
	assert_string_equal(r.metric, "late-preemption.count");
	assert_int_equal(r.form, SL_RULE_DELTA);
	assert_true(r.threshold == 0);
	assert_int_equal(r.unit, SL_UNIT_COUNT);
	sl_rule_free(&r);

	/* the JSON field name, with its _ns */
	r = parse_ok("wakee-stacking.cost_ns>+20%");
	assert_string_equal(r.metric, "wakee-stacking.cost");
	assert_int_equal(r.form, SL_RULE_PERCENT);
	assert_true(r.threshold == 20);
	sl_rule_free(&r);

	r = parse_ok("wakeup.p99_ns>500000");
	assert_string_equal(r.metric, "wakeup.p99");
	assert_int_equal(r.form, SL_RULE_ABSOLUTE);
	assert_true(r.threshold == 500000);
	sl_rule_free(&r);

	/* durations take units; spaces around the operator are fine */
	r = parse_ok(" wakeup.p99.9 > 1.5ms ");
	assert_string_equal(r.metric, "wakeup.p99_9");
	assert_true(r.threshold == 1500000);
	sl_rule_free(&r);

	r = parse_ok("wakeup.max>+250us");
	assert_int_equal(r.form, SL_RULE_DELTA);
	assert_true(r.threshold == 250000);
	sl_rule_free(&r);

	/* lower is worse: a drop of more than 10% */
	r = parse_ok("switches.per_s<-10%");
	assert_int_equal(r.op, '<');
	assert_true(r.threshold == -10);
	sl_rule_free(&r);

	r = parse_ok("sync-wake.remote_share>50%");
	assert_int_equal(r.form, SL_RULE_ABSOLUTE);
	assert_true(r.threshold == 50);
	sl_rule_free(&r);

	/* a comm may hold dots, colons, slashes and '>' */
	r = parse_ok("comm.kworker/1:1H.p99>+10%");
	assert_string_equal(r.metric, "comm.kworker/1:1H.p99");
	sl_rule_free(&r);
	r = parse_ok("comm.a>b.p99_ns>1ms");
	assert_string_equal(r.metric, "comm.a>b.p99");
	assert_true(r.threshold == 1000000);
	sl_rule_free(&r);
}

static void test_parse_errors(void **state)
{
	parse_bad("wakeup.p98>+10%", "unknown metric 'wakeup.p98'");
	parse_bad("latepreemption.count>+0", "unknown metric");
	parse_bad("wakeup.count_ns>+0", "unknown metric");	/* not a time */
	parse_bad("comm.foo>+10%", "comm.COMM.p99");
	parse_bad("wakeup.p99", "no '>' or '<'");
	parse_bad(">+10%", "no metric");
	parse_bad("wakeup.p99>", "not a threshold");
	parse_bad("wakeup.p99>+ten%", "not a threshold");
	parse_bad("wakeup.p99>+10furlongs", "not a threshold");
	parse_bad("wakeup.p99>10%", "takes a sign");
	parse_bad("late-preemption.count>-x", "not a threshold");
}

static struct sl_range one(double v)
{
	struct sl_range r;
	bool valid = true;

	sl_range_of(&r, &v, &valid, 1);
	return r;
}

static enum sl_verdict eval(const char *text, double base, double new)
{
	struct sl_rule r = parse_ok(text);
	struct sl_range b = one(base), n = one(new);
	struct sl_compare c = { .base = &b, .new = &n, .confidence = 0.95 };
	struct sl_rule_result res;

	sl_rule_eval(&r, &c, &res);
	sl_rule_free(&r);
	return res.verdict;
}

static void test_single_run_verdicts(void **state)
{
	assert_int_equal(eval("wakeup.p99>+10%", 100, 111), SL_VERDICT_FAIL);
	assert_int_equal(eval("wakeup.p99>+10%", 100, 110), SL_VERDICT_PASS);	/* not above */
	assert_int_equal(eval("wakeup.p99>+10%", 100, 50), SL_VERDICT_PASS);
	assert_int_equal(eval("late-preemption.count>+0", 3, 4), SL_VERDICT_FAIL);
	assert_int_equal(eval("late-preemption.count>+0", 3, 3), SL_VERDICT_PASS);
	assert_int_equal(eval("wakeup.max>+1ms", 1000000, 2000001), SL_VERDICT_FAIL);
	assert_int_equal(eval("wakeup.max>+1ms", 1000000, 2000000), SL_VERDICT_PASS);
	assert_int_equal(eval("switches.per_s<-10%", 1000, 899), SL_VERDICT_FAIL);
	assert_int_equal(eval("switches.per_s<-10%", 1000, 950), SL_VERDICT_PASS);
	assert_int_equal(eval("switches.per_s<-10%", 1000, 2000), SL_VERDICT_PASS);
	/* absolute: only the new value counts */
	assert_int_equal(eval("wakeup.p99>500us", 0, 500001), SL_VERDICT_FAIL);
	assert_int_equal(eval("wakeup.p99>500us", 9e9, 500000), SL_VERDICT_PASS);
	/* a cost rate takes a duration per second */
	assert_int_equal(eval("wakee-stacking.cost_per_s>2ms/s", 0, 2000001), SL_VERDICT_FAIL);
	assert_int_equal(eval("wakee-stacking.cost_per_s>2ms", 0, 2000000), SL_VERDICT_PASS);
}

/* From a base of 0: no change stays a pass, anything more is an infinite increase. */
/* Families and floors (issue 30): what parses, what the floor adds. */
static void test_family_and_floor(void **state)
{
	struct sl_rule r = parse_ok("wakeup.p*>+35%&+250ns");

	assert_true(r.family);
	assert_string_equal(r.metric, "wakeup.p*");
	assert_int_equal(r.unit, SL_UNIT_NS);
	assert_int_equal(r.form, SL_RULE_PERCENT);
	assert_true(r.threshold == 35);
	assert_true(r.has_floor && r.floor == 250);
	sl_rule_free(&r);
	r = parse_ok("*.cost_per_s>+2ms/s");		/* one unit: a delta is fine */
	assert_true(r.family && r.unit == SL_UNIT_NS_PER_S && r.form == SL_RULE_DELTA);
	assert_true(r.threshold == 2e6);
	sl_rule_free(&r);
	r = parse_ok("switches.per_s<-20%&-1000/s");	/* a floor below, for '<' */
	assert_true(!r.family && r.has_floor && r.floor == -1000);
	sl_rule_free(&r);
	r = parse_ok("comm.*.p99>+50%");		/* comms: known only from the runs */
	assert_true(r.family && r.unit == SL_UNIT_NS);
	sl_rule_free(&r);
	r = parse_ok("wakeup.*>+10%");			/* mixed units, relative: fine */
	assert_true(r.family);
	sl_rule_free(&r);
	parse_bad("wakeup.*>+5", "has metrics of different units: a relative threshold only");
	parse_bad("wakeup.*>+10%&+1us", "has metrics of different units");
	parse_bad("wakup.*>+10%", "no metric matches the family 'wakup.*'");
	parse_bad("wakeup.p99>+1us&+1us", "a floor ('&...') goes with a relative threshold");
	parse_bad("wakeup.p99>+10%&1us", "is not a floor");
	parse_bad("wakeup.p99>+10%&+banana", "is not a floor");

	/* the floor: both the percent and the change must be beyond */
	assert_int_equal(eval("wakeup.p50>+35%&+250ns", 400, 600), SL_VERDICT_PASS);	/* +50%, +200 ns */
	assert_int_equal(eval("wakeup.p50>+35%&+250ns", 1000, 1500), SL_VERDICT_FAIL);	/* +50%, +500 ns */
	assert_int_equal(eval("wakeup.p50>+35%&+250ns", 10000, 13000), SL_VERDICT_PASS);	/* +30% */
	assert_int_equal(eval("switches.per_s<-20%&-1000/s", 2000, 1500), SL_VERDICT_PASS);	/* -500/s */
	assert_int_equal(eval("switches.per_s<-20%&-1000/s", 20000, 15000), SL_VERDICT_FAIL);
}

/* The default gate parses, in the documented order (man schedlint-diff, DEFAULT GATE). */
static void test_default_rules(void **state)
{
	const char *const *t = sl_default_rules();
	size_t n = 0;

	assert_string_equal(t[0], "wakeup.p*>+35%&+250ns");
	for (; t[n]; n++) {
		struct sl_rule r = parse_ok(t[n]);

		sl_rule_free(&r);
	}
	assert_string_equal(t[n - 1], "switches.per_s<-20%");
	assert_true(n >= 6);	/* the percentiles, 4 kinds at least, the switches */
	assert_non_null(strstr(t[1], ".cost_per_s>+20%&+1ms/s"));
}

static void test_base_zero(void **state)
{
	assert_true(sl_pct_change(0, 0) == 0);
	assert_true(isinf(sl_pct_change(0, 1)) && sl_pct_change(0, 1) > 0);
	assert_true(sl_pct_change(100, 150) == 50);
	assert_true(sl_pct_change(100, 0) == -100);
	assert_int_equal(eval("late-preemption.count>+20%", 0, 0), SL_VERDICT_PASS);
	assert_int_equal(eval("late-preemption.count>+20%", 0, 1), SL_VERDICT_FAIL);
	assert_int_equal(eval("late-preemption.count>+1000000%", 0, 1), SL_VERDICT_FAIL);
	assert_int_equal(eval("switches.per_s<-10%", 0, 5), SL_VERDICT_PASS);
}

static void test_range(void **state)
{
	double v[] = { 5, 1, 4, 2, 3 };
	bool valid[] = { true, true, true, true, false };
	struct sl_range r;

	sl_range_of(&r, v, NULL, 5);
	assert_true(r.median == 3 && r.min == 1 && r.max == 5 && r.n == 5 && r.valid);
	sl_range_of(&r, v, valid, 5);		/* 5 1 4 2: an even count */
	assert_true(r.median == 3 && r.min == 1 && r.max == 5 && r.n == 4);
	valid[0] = valid[1] = valid[2] = valid[3] = false;
	sl_range_of(&r, v, valid, 5);
	assert_false(r.valid);
}

/* The rule on several runs per side, tested as diff.c tests a cell. */
static enum sl_verdict eval_runs(const char *text, const double *base, size_t nb,
				 const double *new, size_t nn, struct sl_rule_result *res)
{
	struct sl_rule r = parse_ok(text);
	struct sl_range b, n;
	struct sl_compare c = { .base = &b, .new = &n, .multi = nb > 1 || nn > 1,
				.confidence = 0.95 };

	sl_range_of(&b, base, NULL, nb);
	sl_range_of(&n, new, NULL, nn);
	c.tested = sl_mann_whitney_min_p(nb, nn) < 0.05;
	c.p = sl_mann_whitney_p(base, nb, new, nn);
	sl_rule_eval(&r, &c, res);
	sl_rule_free(&r);
	return res->verdict;
}

/*
 * Several runs: a crossed threshold fails only when the change is also
 * significant (two-sided Mann-Whitney U, p < 0.05); with too few runs for
 * any significance, the threshold alone decides (fail closed).
 */
static void test_noise_rule(void **state)
{
	const double base[] = { 100, 110, 105, 102, 108 };
	/* median 109 (+3.8%); ranks of new 3 5 7 9 10: U = 6, p = 2 * 28/252 = 0.222 */
	const double overlap[] = { 104, 112, 107, 109, 115 };
	/* median 135 (+28.6%), every run above every base run: p = 2/252 = 0.0079 */
	const double apart[] = { 130, 140, 135, 132, 138 };
	const double fast[] = { 80, 90, 85, 82, 88 };
	struct sl_rule_result res;

	assert_int_equal(eval_runs("wakeup.p99>+3%", base, 5, overlap, 5, &res), SL_VERDICT_NOISE);
	assert_true(res.crossed);
	assert_true(fabs(res.p - 56.0 / 252) < 1e-9);
	assert_non_null(strstr(res.why, "not significant: p = 0.222 >= 0.05"));
	assert_int_equal(eval_runs("wakeup.p99>+5%", base, 5, apart, 5, &res), SL_VERDICT_FAIL);
	assert_non_null(strstr(res.why, "significant: p = 0.008 < 0.05 (Mann-Whitney U, 5 vs 5 runs)"));
	/* not crossed: a pass, however significant */
	assert_int_equal(eval_runs("wakeup.p99>+50%", base, 5, apart, 5, &res), SL_VERDICT_PASS);
	assert_false(res.crossed);
	/* '<' rules: significant and below the threshold */
	assert_int_equal(eval_runs("switches.per_s<-10%", base, 5, fast, 5, &res), SL_VERDICT_FAIL);
	/* 3 against 3 runs can give p = 0.1 at best: the threshold alone decides, said so */
	assert_int_equal(eval_runs("wakeup.p99>+5%", base, 3, apart, 3, &res), SL_VERDICT_FAIL);
	assert_non_null(strstr(res.why, "too few runs to judge the noise at 95% confidence"));
	assert_int_equal(eval_runs("wakeup.p99>+5%", base, 5, (double[]){ 112 }, 1, &res),
			 SL_VERDICT_FAIL);
	assert_int_equal(eval_runs("wakeup.p99>+50%", base, 5, (double[]){ 112 }, 1, &res),
			 SL_VERDICT_PASS);
	/* absolute rules look at the new median only */
	assert_int_equal(eval_runs("wakeup.p99>108", base, 5, overlap, 5, &res), SL_VERDICT_FAIL);
	assert_int_equal(eval_runs("wakeup.p99>109", base, 5, overlap, 5, &res), SL_VERDICT_PASS);
}

/* A rule on a metric a side did not measure fails, unless allowed; it says why. */
static void test_not_measured(void **state)
{
	struct sl_rule r = parse_ok("wakeup.p99>+10%");
	struct sl_range b = one(100), n = { .unmeasured = "no wakeup-latency samples" };
	struct sl_compare c = { .base = &b, .new = &n, .confidence = 0.95 };
	struct sl_rule_result res;

	sl_rule_eval(&r, &c, &res);
	assert_int_equal(res.verdict, SL_VERDICT_UNMEASURED);
	assert_true(sl_verdict_failed(res.verdict));
	assert_non_null(strstr(res.why, "not measured in new: no wakeup-latency samples"));
	assert_non_null(strstr(res.why, "--allow-unmeasured"));
	c.base = &n;
	c.new = &b;
	sl_rule_eval(&r, &c, &res);
	assert_int_equal(res.verdict, SL_VERDICT_UNMEASURED);
	assert_non_null(strstr(res.why, "not measured in base"));
	c.allow_unmeasured = true;
	sl_rule_eval(&r, &c, &res);
	assert_int_equal(res.verdict, SL_VERDICT_SKIP);
	assert_false(sl_verdict_failed(res.verdict));
	sl_rule_free(&r);
	/* an absolute rule on one report (analyze): "the trace" */
	r = parse_ok("sync-wake.remote_share>50%");
	c = (struct sl_compare){ .new = &n, .confidence = 0.95 };
	n.unmeasured = "no synchronous wakeups";
	sl_rule_eval(&r, &c, &res);
	assert_int_equal(res.verdict, SL_VERDICT_UNMEASURED);
	assert_non_null(strstr(res.why, "not measured in the trace: no synchronous wakeups"));
	sl_rule_free(&r);
}

/* A minimal report object with every field the metrics read. */
static const char report_text[] =
	"{\"schema\": \"schedlint.report/1\","
	" \"trace\": {\"duration_ns\": 2000000000, \"first_ns\": 1000000000, \"last_ns\": 3000000000},"
	" \"config\": {\"tolerance_ns\": 1000000, \"from_ns\": null, \"to_ns\": null},"
	" \"wakeup_latency\": {\"count\": 4, \"mean_ns\": 10, \"p50_ns\": 5, \"p75_ns\": 6,"
	"   \"p90_ns\": 7, \"p95_ns\": 8, \"p99_ns\": 9, \"p99_5_ns\": 10, \"p99_9_ns\": 11,"
	"   \"max_ns\": 12, \"remote\": {\"count\": 1}},"
	" \"tasks\": [{\"migrations\": 3}, {\"migrations\": 1}],"
	" \"comms\": [{\"comm\": \"a.b\", \"wakeup_latency\": {\"count\": 2, \"p99_ns\": 77}},"
	"             {\"comm\": \"idle\", \"wakeup_latency\": {\"count\": 0, \"p99_ns\": 0}}],"
	" \"cpus\": [{\"switches\": 10, \"implied_switches\": 2}, {\"switches\": 8}],"
	" \"ipi\": {\"sent\": 6},"
	" \"summary\": {\"wakee-stacking\": {\"count\": 1, \"cost_ns\": 100, \"max_cost_ns\": 100},"
	"   \"sync-wake-remote\": {\"count\": 3, \"cost_ns\": 0, \"max_cost_ns\": 0},"
	"   \"sync-wake-local\": {\"count\": 1, \"cost_ns\": 0, \"max_cost_ns\": 0},"
	"   \"late-preemption\": {\"count\": 0, \"cost_ns\": 0, \"max_cost_ns\": 0},"
	"   \"idle-while-runnable\": {\"count\": 2, \"cost_ns\": 5000, \"max_cost_ns\": 3000}}}";

static double metric(const struct sl_metrics *ms, const char *name)
{
	const struct sl_metric_value *v = sl_metrics_get(ms, name);

	if (!v)
		fail_msg("no metric %s", name);
	assert_true(v->valid);
	return v->value;
}

static void test_extract(void **state)
{
	cJSON *root = cJSON_Parse(report_text);
	struct sl_metrics ms;
	char err[256];

	assert_non_null(root);
	if (sl_metrics_from_report(root, &ms, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(metric(&ms, "wakeup.count") == 4);
	assert_true(metric(&ms, "wakeup.p99") == 9);
	assert_true(metric(&ms, "wakeup.p99_9") == 11);
	assert_true(metric(&ms, "wakeup.remote_share") == 25);
	assert_true(metric(&ms, "idle-while-runnable.cost") == 5000);
	assert_true(metric(&ms, "idle-while-runnable.max_cost") == 3000);
	assert_true(metric(&ms, "sync-wake.remote_share") == 75);
	assert_true(metric(&ms, "sync-wake.local_share") == 25);
	assert_true(metric(&ms, "switches.per_s") == 10);	/* (10 + 2 + 8) / 2 s */
	assert_true(metric(&ms, "migrations.per_s") == 2);
	assert_true(metric(&ms, "ipis.per_s") == 3);
	assert_true(metric(&ms, "comm.a.b.p99") == 77);
	/* per second of the 2 s trace */
	assert_true(metric(&ms, "wakee-stacking.per_s") == 0.5);
	assert_true(metric(&ms, "idle-while-runnable.cost_per_s") == 2500);
	assert_null(sl_metrics_get(&ms, "comm.idle.p99"));	/* no samples: no p99 */
	assert_non_null(strstr(ms.settings, "tolerance_ns=1000000"));
	sl_metrics_free(&ms);

	/* a --to window halves the time: rates double */
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(root, "config"), "to_ns",
				  cJSON_CreateNumber(2000000000));
	if (sl_metrics_from_report(root, &ms, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(metric(&ms, "ipis.per_s") == 6);
	sl_metrics_free(&ms);

	/* a field missing: an error naming it */
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(root, "summary"), "late-preemption");
	assert_int_equal(sl_metrics_from_report(root, &ms, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "summary.late-preemption"));
	cJSON_Delete(root);
}

/*
 * A hand-edited baseline: a negative count or a number beyond 2^64 is an
 * error naming the field, never a metric (B29).
 */
static void test_extract_bad_numbers(void **state)
{
	static const struct {
		const char *obj, *field, *value, *msg;
	} cases[] = {
		{ "summary.late-preemption", "count", "-3", "summary.late-preemption.count = -3: counts and times are never negative" },
		{ "wakeup_latency", "p99_ns", "-1", "wakeup_latency.p99_ns = -1: counts" },
		{ "wakeup_latency", "count", "1e308", "wakeup_latency.count = 1e+308: beyond what any trace gives" },
		{ "trace", "duration_ns", "1e20", "trace.duration_ns = 1e+20: beyond" },
		{ "ipi", "sent", "-0.5", "ipi.sent = -0.5" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cJSON *root = cJSON_Parse(report_text), *obj = root;
		char path[64], *dot, err[256];
		struct sl_metrics ms;

		snprintf(path, sizeof(path), "%s", cases[i].obj);
		for (char *p = path; p; p = dot ? dot + 1 : NULL) {
			dot = strchr(p, '.');
			if (dot && strncmp(p, "late-", 5))
				*dot = 0;
			else
				dot = NULL;
			obj = cJSON_GetObjectItem(obj, p);
		}
		assert_non_null(obj);
		cJSON_ReplaceItemInObject(obj, cases[i].field, cJSON_Parse(cases[i].value));
		assert_int_equal(sl_metrics_from_report(root, &ms, err, sizeof(err)), -1);
		if (!strstr(err, cases[i].msg))
			fail_msg("%s.%s = %s: '%s'", cases[i].obj, cases[i].field, cases[i].value, err);
		cJSON_Delete(root);
	}
}

/* Huge values print short, never as hundreds of digits. */
static void test_format_huge(void **state)
{
	char buf[64];

	assert_string_equal(sl_metric_fmt(buf, sizeof(buf), SL_UNIT_COUNT, 1.8e19), "1.8e+19");
	assert_string_equal(sl_metric_fmt(buf, sizeof(buf), SL_UNIT_PER_S, 1e28), "1e+28/s");
	assert_string_equal(sl_metric_fmt(buf, sizeof(buf), SL_UNIT_NS, 1.8e19), "1.8e+10 s");
	assert_string_equal(sl_metric_fmt_delta(buf, sizeof(buf), SL_UNIT_COUNT, -1.8e19), "-1.8e+19");
	assert_string_equal(sl_metric_fmt(buf, sizeof(buf), SL_UNIT_COUNT, 4073), "4073");
	assert_string_equal(sl_metric_fmt(buf, sizeof(buf), SL_UNIT_NS_PER_S, 5340000), "5.34 ms/s");
}

static void test_extract_other_schema(void **state)
{
	cJSON *root = cJSON_Parse("{\"schema\": \"other/2\", \"x\": 1}");
	struct sl_metrics ms;
	char err[256];

	assert_int_equal(sl_metrics_from_report(root, &ms, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "schema 'other/2'"));
	cJSON_Delete(root);
	root = cJSON_Parse("[1, 2]");
	assert_int_equal(sl_metrics_from_report(root, &ms, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not an object"));
	cJSON_Delete(root);
	root = cJSON_Parse("{\"wakeup_latency\": {}}");
	assert_int_equal(sl_metrics_from_report(root, &ms, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "without a \"schema\""));
	cJSON_Delete(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_single_run_verdicts),
		cmocka_unit_test(test_family_and_floor),
		cmocka_unit_test(test_default_rules),
		cmocka_unit_test(test_base_zero),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_noise_rule),
		cmocka_unit_test(test_not_measured),
		cmocka_unit_test(test_extract),
		cmocka_unit_test(test_extract_bad_numbers),
		cmocka_unit_test(test_format_huge),
		cmocka_unit_test(test_extract_other_schema),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
