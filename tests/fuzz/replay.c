// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - run a fuzz harness on files, without libFuzzer
 *
 *   replay_NAME FILE|DIR...
 *
 * Linked with a harness in the normal (gcc) build, so `make check` (and
 * `make check SANITIZE=1`) replays the stored corpus and every crash a
 * fuzzer found, as a TAP test: one line per file, "not ok" never comes
 * back from a crash (the process dies), which tests/run.sh counts.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int n;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, alloc = 0, got;

	if (!f) {
		printf("not ok %d - %s: cannot open\n", ++n, path);
		return 1;
	}
	do {
		if (len == alloc) {
			alloc = alloc ? alloc * 2 : 65536;
			buf = realloc(buf, alloc);
			if (!buf)
				abort();
		}
		got = fread(buf + len, 1, alloc - len, f);
		len += got;
	} while (got);
	fclose(f);
	/* announce first: a crash names the file that caused it */
	fprintf(stderr, "# replaying %s\n", path);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	printf("ok %d - %s\n", ++n, path);
	fflush(stdout);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay(const char *path)
{
	struct stat st;
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0;
	int failed = 0;
	DIR *d;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return replay_file(path);
	d = opendir(path);
	if (!d)
		return replay_file(path);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strstr(de->d_name, ".md"))
			continue;
		names = realloc(names, (nr + 1) * sizeof(*names));
		if (!names || asprintf(&names[nr], "%s/%s", path, de->d_name) < 0)
			abort();
		nr++;
	}
	closedir(d);
	qsort(names, nr, sizeof(*names), cmp);
	for (size_t i = 0; i < nr; i++) {
		failed |= replay(names[i]);
		free(names[i]);
	}
	free(names);
	return failed;
}

int main(int argc, char **argv)
{
	int failed = 0;

	for (int i = 1; i < argc; i++)
		failed |= replay(argv[i]);
	printf("1..%d\n", n);
	return failed;
}
