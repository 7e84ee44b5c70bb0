// SPDX-License-Identifier: GPL-2.0
/*
 * topology.c - which CPUs share a last-level cache, from sysfs
 *
 * The scheduler's LLC domain (sd_llc: where select_idle_sibling() looks
 * for an idle CPU) is built from the CPUs sharing the last-level cache,
 * which sysfs shows as cpuN/cache/indexM/shared_cpu_list of the highest
 * cache level.  A trace does not carry it, so schedlint record reads it
 * here and writes it into the trace (see SL_MARKER_LLC in model.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"
#include "util.h"

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

char *sl_llc_spec_from_sysfs(const char *cpu_dir, int *level)
{
	struct llc_group *groups = NULL;
	size_t nr = 0, alloc = 0, spec_len = 0;
	char list[4096], *spec;
	DIR *d = opendir(cpu_dir);
	struct dirent *de;

	*level = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		const char *p = de->d_name + 3;
		bool seen = false;
		int lvl;

		if (strncmp(de->d_name, "cpu", 3) || !isdigit((unsigned char)*p) ||
		    strspn(p, "0123456789") != strlen(p))
			continue;
		lvl = cpu_llc(cpu_dir, de->d_name, list, sizeof(list));
		if (!lvl)
			continue;
		*level = MAX(*level, lvl);
		for (size_t i = 0; i < nr && !seen; i++)
			seen = !strcmp(groups[i].list, list);
		if (seen)
			continue;
		GROW(groups, alloc, nr + 1);
		groups[nr].list = xstrdup(list);
		groups[nr].first_cpu = atoi(list);
		spec_len += strlen(list) + 1;
		nr++;
	}
	closedir(d);
	if (!nr)
		return NULL;

	/* "0-3,8-11" (one group) becomes "0-3+8-11"; groups are separated by ',' */
	qsort(groups, nr, sizeof(*groups), by_first_cpu);
	spec = xcalloc(1, spec_len + 1);
	for (size_t i = 0; i < nr; i++) {
		for (char *c = groups[i].list; *c; c++)
			if (*c == ',')
				*c = '+';
		if (i)
			strcat(spec, ",");
		strcat(spec, groups[i].list);
		free(groups[i].list);
	}
	free(groups);
	return spec;
}
