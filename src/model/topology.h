/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topology.h - last-level-cache groups: an --llc spec, the machine's from sysfs
 */
#ifndef SCHEDLINT_TOPOLOGY_H
#define SCHEDLINT_TOPOLOGY_H

/*
 * Parse an --llc spec ("0-3,4-7", "0+2,1+3") into domains: dom[cpu] =
 * domain index, -1 when absent.  0, or -EINVAL (a bad list, a CPU in two
 * domains).  The caller frees *dom.
 */
int sl_parse_llc(const char *spec, int **dom, int *nr_cpus, int *nr_domains);

/*
 * The LLC groups of the CPUs under cpu_dir (normally
 * /sys/devices/system/cpu) as an --llc spec: groups in the order of
 * their first CPU, ranges of one group joined by '+' ("0-3+8-11,4-7+12-15").
 * Taken, best first, from the shared_cpu_list of every cpuN's highest
 * data or unified cache (cache/index*); where no CPU shows a cache (some
 * VMs and ARM boards), from topology/package_cpus_list, die_cpus_list or
 * core_siblings_list; where none of those exists either, one group of
 * every cpuN.  source gets which: "cache-L3" (the level), "package",
 * "die" or "all-cpus".  NULL only when cpu_dir has no cpuN at all.  The
 * caller frees.
 */
char *sl_llc_spec_from_sysfs(const char *cpu_dir, char *source, size_t source_len);

#endif /* SCHEDLINT_TOPOLOGY_H */
