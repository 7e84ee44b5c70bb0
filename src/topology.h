/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topology.h - the machine's last-level-cache groups, from sysfs
 */
#ifndef SCHEDLINT_TOPOLOGY_H
#define SCHEDLINT_TOPOLOGY_H

/*
 * The LLC groups of the CPUs under cpu_dir (normally
 * /sys/devices/system/cpu) as an --llc spec: for every cpuN, the
 * shared_cpu_list of its highest-level data or unified cache
 * (cache/index*, level 3 on most machines); groups in the order of their
 * first CPU, ranges of one group joined by '+' ("0-3+8-11,4-7+12-15").
 * *level is that cache level (the highest seen).  NULL when no CPU shows
 * cache information (some VMs and ARM boards).  The caller frees.
 */
char *sl_llc_spec_from_sysfs(const char *cpu_dir, int *level);

#endif /* SCHEDLINT_TOPOLOGY_H */
