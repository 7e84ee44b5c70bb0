// SPDX-License-Identifier: GPL-2.0
/*
 * test_topology.c - LLC groups from a sysfs-like tree
 *
 * Each test builds a small /sys/devices/system/cpu look-alike in a
 * temporary directory and checks the --llc spec record would write.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "topology.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], *slash;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* cpuN with one cache: indexI of level, type and shared list */
static void cache(int cpu, int index, int level, const char *type, const char *shared)
{
	char rel[128], num[16];

	snprintf(num, sizeof(num), "%d", level);
	snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/level", cpu, index);
	put(rel, num);
	snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/type", cpu, index);
	put(rel, type);
	snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/shared_cpu_list", cpu, index);
	put(rel, shared);
}

static int setup(void **state)
{
	strcpy(root, "/tmp/sl-topo-XXXXXX");
	assert_non_null(mkdtemp(root));
	put("possible", "0-7");		/* files and dirs that are not CPUs */
	put("cpufreq/boost", "1");
	put("cpuidle/current_driver", "none");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

/* Two L3 groups interleaved (0,2 / 1,3), private L1/L2, a CPU without caches. */
static void test_two_l3_groups(void **state)
{
	int level;
	char *spec;

	for (int cpu = 0; cpu < 4; cpu++) {
		char own[8];

		snprintf(own, sizeof(own), "%d", cpu);
		cache(cpu, 0, 1, "Data", own);
		cache(cpu, 1, 1, "Instruction", own);
		cache(cpu, 2, 2, "Unified", own);
		cache(cpu, 3, 3, "Unified", cpu % 2 ? "1,3" : "0,2");
	}
	put("cpu4/online", "0");
	spec = sl_llc_spec_from_sysfs(root, &level);
	assert_non_null(spec);
	assert_string_equal(spec, "0+2,1+3");
	assert_int_equal(level, 3);
	free(spec);
}

/* No L3: the highest level present (L2, shared by ranges) decides. */
static void test_highest_level_l2(void **state)
{
	int level;
	char *spec;

	for (int cpu = 0; cpu < 8; cpu++) {
		cache(cpu, 0, 1, "Data", "0");
		cache(cpu, 1, 2, "Unified", cpu < 4 ? "0-1,4-5" : "2-3,6-7");
	}
	/* a level-3 instruction cache does not count */
	cache(0, 2, 3, "Instruction", "0-7");
	spec = sl_llc_spec_from_sysfs(root, &level);
	assert_non_null(spec);
	assert_string_equal(spec, "0-1+4-5,2-3+6-7");
	assert_int_equal(level, 2);
	free(spec);
}

/* Nothing known: no spec. */
static void test_no_cache_info(void **state)
{
	int level = -1;

	put("cpu0/online", "1");
	assert_null(sl_llc_spec_from_sysfs(root, &level));
	assert_int_equal(level, 0);
	assert_null(sl_llc_spec_from_sysfs("/nonexistent/sl-topo", &level));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_l3_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_highest_level_l2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_cache_info, setup, teardown),
	};
	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
