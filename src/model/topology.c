// SPDX-License-Identifier: GPL-2.0
/*
 * topology.c - which CPUs share a last-level cache: an --llc spec's
 * domains, and the groups sysfs shows
 *
 * The scheduler's LLC domain (sd_llc: where select_idle_sibling() looks
 * for an idle CPU) is built from the CPUs sharing the last-level cache,
 * which sysfs shows as cpuN/cache/indexM/shared_cpu_list of the highest
 * cache level.  A trace does not carry it, so schedlint record reads it
 * here and writes it into the trace with where it came from (see
 * SL_MARKER_LLC in model.h); a machine without cache information in
 * sysfs falls back to its packages, then to one group of all CPUs.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"
#include "util/util.h"

int sl_parse_llc(const char *spec, int **dom_out, int *nr_cpus_out, int *nr_domains_out)
{
	char *copy = xstrdup(spec), *save = NULL;
	int *dom = NULL, nr_cpus = 0, nr_domains = 0;
	size_t alloc = 0;

	/* domains are separated by ',' only between ranges: "0-3,4-7" is two
	 * domains; a domain listing single CPUs uses '+': "0+2,1+3" */
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *save2 = NULL;

		for (char *part = strtok_r(tok, "+", &save2); part; part = strtok_r(NULL, "+", &save2)) {
			char *end;
			long a = strtol(part, &end, 10), b = a;

			if (end == part || a < 0 || a > 65535)
				goto bad;
			if (*end == '-') {
				char *p2 = end + 1;

				b = strtol(p2, &end, 10);
				if (end == p2 || b < a || b > 65535)
					goto bad;
			}
			if (*end)
				goto bad;
			GROW(dom, alloc, (size_t)b + 1);
			for (long c = nr_cpus; c <= b; c++)
				dom[c] = -1;
			if (b + 1 > nr_cpus)
				nr_cpus = (int)b + 1;
			for (long c = a; c <= b; c++) {
				if (dom[c] >= 0)
					goto bad;	/* a CPU in two domains */
				dom[c] = nr_domains;
			}
		}
		nr_domains++;
	}
	free(copy);
	if (!nr_domains)
		return -EINVAL;
	*dom_out = dom;
	*nr_cpus_out = nr_cpus;
	*nr_domains_out = nr_domains;
	return 0;
bad:
	free(copy);
	free(dom);
	return -EINVAL;
}

/* One line of a small sysfs file, without the newline; false if unreadable. */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok && buf[0];
}

/* The shared_cpu_list of cpu's highest data/unified cache; its level, 0 if none. */
static int cpu_llc(const char *cpu_dir, const char *cpu_name, char *list, size_t len)
{
	char path[4096], buf[64];
	int best = 0;
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "%s/%s/cache", cpu_dir, cpu_name);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char shared[sizeof(path)];
		int level;

		if (strncmp(de->d_name, "index", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s/cache/%s/type", cpu_dir, cpu_name, de->d_name);
		if (!read_line(path, buf, sizeof(buf)) || !strcmp(buf, "Instruction"))
			continue;
		snprintf(path, sizeof(path), "%s/%s/cache/%s/level", cpu_dir, cpu_name, de->d_name);
		if (!read_line(path, buf, sizeof(buf)))
			continue;
		level = atoi(buf);
		if (level <= best)
			continue;
		snprintf(path, sizeof(path), "%s/%s/cache/%s/shared_cpu_list", cpu_dir, cpu_name,
			 de->d_name);
		if (!read_line(path, shared, sizeof(shared)) || strlen(shared) >= len)
			continue;
		strcpy(list, shared);
		best = level;
	}
	closedir(d);
	return best;
}

struct llc_group {
	char *list;		/* shared_cpu_list as sysfs prints it */
	int first_cpu;
};

static int by_first_cpu(const void *a, const void *b)
{
	const struct llc_group *x = a, *y = b;

	return (x->first_cpu > y->first_cpu) - (x->first_cpu < y->first_cpu);
}

/* Is name "cpuN"? */
static bool is_cpu_dir(const char *name)
{
	const char *p = name + 3;

	return !strncmp(name, "cpu", 3) && isdigit((unsigned char)*p) &&
	       strspn(p, "0123456789") == strlen(p);
}

/*
 * Where a CPU's scheduling domain comes from, best first: the shared
 * list of the highest cache (what the kernel's sd_llc is built from);
 * else the package, which contains the LLC on every machine we know;
 * else its die; else the old name of the package list.  Some VMs show
 * no cache directory at all, which is why there is a fallback.
 */
static const char *const topology_files[] = {
	"topology/package_cpus_list", "topology/die_cpus_list", "topology/core_siblings_list",
};
static const char *const topology_sources[] = { "package", "die", "package" };

/* cpu_name's group from topology file i; false if the file is missing */
static bool cpu_topology(const char *cpu_dir, const char *cpu_name, int i, char *list,
			 size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s/%s", cpu_dir, cpu_name, topology_files[i]);
	return read_line(path, list, len);
}

struct llc_scan {
	struct llc_group *groups;
	size_t nr, alloc, spec_len;
};

static void add_group(struct llc_scan *s, const char *list)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->groups[i].list, list))
			return;
	GROW(s->groups, s->alloc, s->nr + 1);
	s->groups[s->nr].list = xstrdup(list);
	s->groups[s->nr].first_cpu = atoi(list);
	s->spec_len += strlen(list) + 1;
	s->nr++;
}

/*
 * The groups of every cpuN under cpu_dir by one source: the caches when
 * topo < 0 (*level set to the highest cache level seen), else
 * topology_files[topo].  Returns the number of CPUs that had it.
 */
static int scan_groups(const char *cpu_dir, int topo, struct llc_scan *s, int *level)
{
	char list[4096];
	struct dirent *de;
	DIR *d = opendir(cpu_dir);
	int found = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!is_cpu_dir(de->d_name))
			continue;
		if (topo < 0) {
			int lvl = cpu_llc(cpu_dir, de->d_name, list, sizeof(list));

			if (!lvl)
				continue;
			*level = MAX(*level, lvl);
		} else if (!cpu_topology(cpu_dir, de->d_name, topo, list, sizeof(list))) {
			continue;
		}
		add_group(s, list);
		found++;
	}
	closedir(d);
	return found;
}

/* One group of every cpuN under cpu_dir, as ranges ("0-3,6"): the last resort. */
static void all_cpus_group(const char *cpu_dir, struct llc_scan *s)
{
	struct dirent *de;
	DIR *d = opendir(cpu_dir);
	bool *seen = NULL;
	size_t nr_seen = 0;
	char *list;
	size_t used = 0, len;

	if (!d)
		return;
	while ((de = readdir(d))) {
		long cpu;

		if (!is_cpu_dir(de->d_name))
			continue;
		cpu = strtol(de->d_name + 3, NULL, 10);
		if (cpu < 0 || cpu >= 65536)
			continue;
		if ((size_t)cpu >= nr_seen) {
			size_t n = (size_t)cpu + 1;

			seen = xrealloc(seen, n * sizeof(*seen));
			memset(seen + nr_seen, 0, (n - nr_seen) * sizeof(*seen));
			nr_seen = n;
		}
		seen[cpu] = true;
	}
	closedir(d);
	if (!nr_seen)
		return;
	len = nr_seen * 14 + 1;
	list = xcalloc(1, len);
	for (size_t cpu = 0; cpu < nr_seen; cpu++) {
		size_t last = cpu;

		if (!seen[cpu])
			continue;
		while (last + 1 < nr_seen && seen[last + 1])
			last++;
		used += (size_t)snprintf(list + used, len - used, used ? ",%zu" : "%zu", cpu);
		if (last > cpu)
			used += (size_t)snprintf(list + used, len - used, "-%zu", last);
		cpu = last;
	}
	add_group(s, list);
	free(list);
	free(seen);
}

char *sl_llc_spec_from_sysfs(const char *cpu_dir, char *source, size_t source_len)
{
	struct llc_scan s = { 0 };
	int level = 0;
	char *spec;

	if (scan_groups(cpu_dir, -1, &s, &level)) {
		snprintf(source, source_len, "cache-L%d", level);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(topology_files) && !s.nr; i++)
			if (scan_groups(cpu_dir, (int)i, &s, &level))
				snprintf(source, source_len, "%s", topology_sources[i]);
		if (!s.nr) {
			all_cpus_group(cpu_dir, &s);
			snprintf(source, source_len, "all-cpus");
		}
	}
	if (!s.nr)
		return NULL;

	/* "0-3,8-11" (one group) becomes "0-3+8-11"; groups are separated by ',' */
	qsort(s.groups, s.nr, sizeof(*s.groups), by_first_cpu);
	spec = xcalloc(1, s.spec_len + 1);
	for (size_t i = 0; i < s.nr; i++) {
		for (char *c = s.groups[i].list; *c; c++)
			if (*c == ',')
				*c = '+';
		if (i)
			strcat(spec, ",");
		strcat(spec, s.groups[i].list);
		free(s.groups[i].list);
	}
	free(s.groups);
	return spec;
}
