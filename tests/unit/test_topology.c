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

#include "model/topology.h"

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
	char from[32];
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
	spec = sl_llc_spec_from_sysfs(root, from, sizeof(from));
	assert_non_null(spec);
	assert_string_equal(spec, "0+2,1+3");
	assert_string_equal(from, "cache-L3");
	free(spec);
}

/* No L3: the highest level present (L2, shared by ranges) decides. */
static void test_highest_level_l2(void **state)
{
	char from[32];
	char *spec;

	for (int cpu = 0; cpu < 8; cpu++) {
		cache(cpu, 0, 1, "Data", "0");
		cache(cpu, 1, 2, "Unified", cpu < 4 ? "0-1,4-5" : "2-3,6-7");
	}
	/* a level-3 instruction cache does not count */
	cache(0, 2, 3, "Instruction", "0-7");
	/* the package is not asked when a cache is known */
	put("cpu0/topology/package_cpus_list", "0-7");
	spec = sl_llc_spec_from_sysfs(root, from, sizeof(from));
	assert_non_null(spec);
	assert_string_equal(spec, "0-1+4-5,2-3+6-7");
	assert_string_equal(from, "cache-L2");
	free(spec);
}

/* cpuN with a topology file (relative to cpuN/topology) */
static void topo(int cpu, const char *file, const char *list)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "cpu%d/topology/%s", cpu, file);
	put(rel, list);
}

/* No cache directory (a VM): the packages, two of them, interleaved. */
static void test_no_cache_packages(void **state)
{
	char from[32];
	char *spec;

	for (int cpu = 0; cpu < 4; cpu++) {
		topo(cpu, "package_cpus_list", cpu % 2 ? "1,3" : "0,2");
		topo(cpu, "die_cpus_list", cpu % 2 ? "1" : "0");	/* not asked */
		topo(cpu, "core_siblings_list", "0-3");			/* not asked */
	}
	spec = sl_llc_spec_from_sysfs(root, from, sizeof(from));
	assert_non_null(spec);
	assert_string_equal(spec, "0+2,1+3");
	assert_string_equal(from, "package");
	free(spec);
}

/* No cache and no package list: the dies, then the older core_siblings_list. */
static void test_no_cache_die_then_core_siblings(void **state)
{
	char from[32];
	char *spec;

	for (int cpu = 0; cpu < 4; cpu++)
		topo(cpu, "core_siblings_list", "0-3");
	spec = sl_llc_spec_from_sysfs(root, from, sizeof(from));
	assert_non_null(spec);
	assert_string_equal(spec, "0-3");
	assert_string_equal(from, "package");
	free(spec);

	for (int cpu = 0; cpu < 4; cpu++)
		topo(cpu, "die_cpus_list", cpu < 2 ? "0-1" : "2-3");
	spec = sl_llc_spec_from_sysfs(root, from, sizeof(from));
	assert_non_null(spec);
	assert_string_equal(spec, "0-1,2-3");
	assert_string_equal(from, "die");
	free(spec);
}

/* Nothing known but the CPUs themselves: one group of them all, as ranges. */
static void test_no_topology_all_cpus(void **state)
{
	char from[32] = "";
	char *spec;

	for (int cpu = 0; cpu < 12; cpu++) {
		char rel[64];

		if (cpu == 4 || cpu == 5 || cpu == 9)	/* a gap, e.g. CPUs not present */
			continue;
		snprintf(rel, sizeof(rel), "cpu%d/online", cpu);
		put(rel, "1");
	}
	put("cpu10x/online", "1");			/* not a CPU */
	spec = sl_llc_spec_from_sysfs(root, from, sizeof(from));
	assert_non_null(spec);
	assert_string_equal(spec, "0-3+6-8+10-11");
	assert_string_equal(from, "all-cpus");
	free(spec);
}

/* No CPU directory at all: nothing to say. */
static void test_no_cpus(void **state)
{
	char from[32] = "";

	assert_null(sl_llc_spec_from_sysfs(root, from, sizeof(from)));
	assert_null(sl_llc_spec_from_sysfs("/nonexistent/sl-topo", from, sizeof(from)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_l3_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_highest_level_l2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_cache_packages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_cache_die_then_core_siblings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_topology_all_cpus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_cpus, setup, teardown),
	};
	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
