// SPDX-License-Identifier: GPL-2.0
/*
 * test_lp_phase.c - late-preemption's tick phase bins, by their definition
 *
 * The phase of a time ts in a tick period of 1e9/hz ns, in LP_PHASE_BINS
 * (100) bins, is floor(frac(ts x hz / 1e9) x 100) (late_preemption.c,
 * phase_bin()).  fixed_phase_bins() computes it for the four fixed
 * candidate rates (100, 250, 300, 1000 Hz) from ts mod 1e7 and ts mod 4e6
 * instead; both are held here against the definition computed in 128
 * bits, on hand-computed times, on the edges of every period and bin,
 * and on pseudo-random 64-bit times.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#define sl_late_preemption_analyzer lp_phase_copy_analyzer
#include "../../analyzers/late_preemption.c"

/* the definition: floor(frac(ts * hz / 1e9) * 100), in 128 bits */
static int defined_bin(uint64_t ts, int hz)
{
	unsigned __int128 x = (unsigned __int128)ts * (unsigned)hz;

	return (int)((uint64_t)(x % 1000000000u) * LP_PHASE_BINS / 1000000000u);
}

static struct lp_priv fixed_priv(void)
{
	struct lp_priv p = { 0 };

	for (int k = 1; k < LP_NR_CAND; k++)
		set_cand(&p, k, cand_hz_fixed[k - 1]);
	return p;
}

/* every slot's bin of ts by both ways, against the definition */
static void check_ts(const struct lp_priv *p, uint64_t ts)
{
	int bin[LP_NR_CAND - 1];

	fixed_phase_bins(ts, bin);
	for (int k = 1; k < LP_NR_CAND; k++) {
		int want = defined_bin(ts, p->cand_hz[k]);

		if (bin[k - 1] != want || phase_bin(p, k, ts) != want)
			fail_msg("ts %" PRIu64 " at %d Hz: fixed %d, phase_bin %d, defined %d", ts,
				 p->cand_hz[k], bin[k - 1], phase_bin(p, k, ts), want);
	}
}

/* The fixed slots are the rates fixed_phase_bins() knows, in its order. */
static void test_fixed_slots(void **state)
{
	(void)state;
	assert_int_equal(cand_hz_fixed[0], 100);
	assert_int_equal(cand_hz_fixed[1], 250);
	assert_int_equal(cand_hz_fixed[2], 300);
	assert_int_equal(cand_hz_fixed[3], 1000);
}

/*
 * ts = 1234567890123 ns: r = ts mod 1e9 = 567890123.  100 Hz: frac(ts x
 * 1e-7) = .7890123 -> 78; 250 Hz: r mod 4e6 = 3890123, / 4e6 = .97253 ->
 * 97; 300 Hz: ts x 3e-7 = 370370.3670369 -> 36; 1000 Hz: r mod 1e6 =
 * 890123 -> 89.
 */
static void test_by_hand(void **state)
{
	int bin[LP_NR_CAND - 1];

	(void)state;
	fixed_phase_bins(1234567890123ULL, bin);
	assert_int_equal(bin[0], 78);
	assert_int_equal(bin[1], 97);
	assert_int_equal(bin[2], 36);
	assert_int_equal(bin[3], 89);
}

/* Both sides of every multiple of each period and bin width, and of 1e9. */
static void test_edges(void **state)
{
	static const uint64_t step[] = {
		1000000000u, 10000000u, 4000000u, 1000000u, 3333333u, 3333334u,
		100000u, 40000u, 33333u, 33334u, 10000u,
	};
	struct lp_priv p = fixed_priv();

	(void)state;
	for (size_t s = 0; s < sizeof(step) / sizeof(step[0]); s++)
		for (uint64_t n = 0; n < 400; n++)
			for (int d = -2; d <= 2; d++) {
				uint64_t ts = n * step[s] + (uint64_t)(int64_t)d;

				check_ts(&p, ts);
				check_ts(&p, ts + 1000000000ULL * 1234567);
			}
	check_ts(&p, UINT64_MAX);
	check_ts(&p, UINT64_MAX - 1000000000u);
}

/* Pseudo-random 64-bit times (a fixed xorshift sequence). */
static void test_random(void **state)
{
	struct lp_priv p = fixed_priv();
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		check_ts(&p, x);
		check_ts(&p, x >> 8);	/* times of a few days, as traces have */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_slots),
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
