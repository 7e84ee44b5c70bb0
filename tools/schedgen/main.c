// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - schedgen's command table and the options every command shares
 *
 *   schedgen scenario FILE.scn -o OUT.dat [--text OUT.txt]
 *   schedgen scale --cpus N --events M --seed S -o OUT.dat [--text OUT.txt]
 *   schedgen formats [EVENT...]
 *
 * See man/schedgen.1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedgen.h"

static const char usage_text[] =
	"usage: schedgen scenario FILE.scn [-o OUT.dat] [--text OUT.txt] [OPTIONS]\n"
	"       schedgen scale --cpus N --events M [--seed S] [-o OUT.dat] [--text OUT.txt] [OPTIONS]\n"
	"       schedgen formats [--kernel K] [--long-size 4|8] [EVENT...]\n"
	"\n"
	"OPTIONS (override what a scenario says):\n"
	"  --kernel K         event formats of kernel K: 6.18 (default), 4.9, 4.13\n"
	"  --big-endian       write a big-endian trace.dat\n"
	"  --little-endian    write a little-endian trace.dat (default)\n"
	"  --long-size 4|8    the traced kernel's long and pointer size (default 8)\n"
	"  --event-format SYSTEM:FILE\n"
	"                     put the event format in FILE into the trace.dat: in place\n"
	"                     of the kernel's of the same name, or added (repeatable)\n"
	"\n"
	"See schedgen(1) for the scenario language.\n";

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "scenario", cmd_scenario },
	{ "scale", cmd_scale },
	{ "formats", cmd_formats },
};

/* What --event-format read, freed at exit (the options are copied into every abi). */
static void *format_file_mem[2 * SG_MAX_FORMAT_FILES];
static int nr_format_file_mem;

static void free_format_files(void)
{
	while (nr_format_file_mem)
		free(format_file_mem[--nr_format_file_mem]);
}

/* --event-format SYSTEM:FILE: read FILE, a format as tracefs shows it. */
static int format_file_opt(struct sg_common_opts *o, const char *arg)
{
	const char *colon = strchr(arg, ':'), *name;
	struct sg_format_file *ff;
	size_t len = 0, alloc = 4096;
	FILE *f;

	if (!colon || colon == arg || !colon[1]) {
		sg_error("--event-format: SYSTEM:FILE, not '%s'", arg);
		return -1;
	}
	if (o->nr_format_files == SG_MAX_FORMAT_FILES) {
		sg_error("--event-format: at most %d", SG_MAX_FORMAT_FILES);
		return -1;
	}
	f = fopen(colon + 1, "r");
	if (!f) {
		sg_error("--event-format: cannot open %s: %s", colon + 1, strerror(errno));
		return -1;
	}
	ff = &o->format_files[o->nr_format_files];
	ff->text = xmalloc(alloc);
	for (size_t n; (n = fread(ff->text + len, 1, alloc - 1 - len, f)) > 0;) {
		len += n;
		if (len == alloc - 1)
			ff->text = xrealloc(ff->text, alloc *= 2);
	}
	fclose(f);
	ff->text[len] = '\0';
	ff->len = len;
	ff->system = xmalloc((size_t)(colon - arg) + 1);
	memcpy((char *)ff->system, arg, (size_t)(colon - arg));
	((char *)ff->system)[colon - arg] = '\0';
	if (!nr_format_file_mem)
		atexit(free_format_files);
	format_file_mem[nr_format_file_mem++] = ff->text;
	format_file_mem[nr_format_file_mem++] = (void *)ff->system;
	name = len > 6 && !memcmp(ff->text, "name: ", 6) ? ff->text + 6 : NULL;
	if (!name || !memchr(name, '\n', len - 6) || (size_t)(strchr(name, '\n') - name) >=
	    sizeof(ff->name)) {
		sg_error("--event-format: %s does not start with a \"name: \" line", colon + 1);
		return -1;
	}
	memcpy(ff->name, name, (size_t)(strchr(name, '\n') - name));
	o->nr_format_files++;
	return 1;
}

int sg_common_opt(struct sg_common_opts *o, int argc, char **argv, int *i)
{
	const char *arg = argv[*i];
	long long v;

	if (!strcmp(arg, "--big-endian")) {
		o->big_endian = 1;
		return 1;
	}
	if (!strcmp(arg, "--little-endian")) {
		o->big_endian = 0;
		return 1;
	}
	if (strcmp(arg, "-o") && strcmp(arg, "--output") && strcmp(arg, "--text") &&
	    strcmp(arg, "--kernel") && strcmp(arg, "--long-size") && strcmp(arg, "--event-format"))
		return 0;
	if (*i + 1 >= argc) {
		sg_error("%s needs a value", arg);
		return -1;
	}
	(*i)++;
	if (!strcmp(arg, "-o") || !strcmp(arg, "--output")) {
		o->dat_path = argv[*i];
	} else if (!strcmp(arg, "--text")) {
		o->text_path = argv[*i];
	} else if (!strcmp(arg, "--kernel")) {
		o->kernel = argv[*i];
	} else if (!strcmp(arg, "--event-format")) {
		return format_file_opt(o, argv[*i]);
	} else {
		if (parse_int(argv[*i], 4, 8, &v) || (v != 4 && v != 8)) {
			sg_error("--long-size: 4 or 8, not '%s'", argv[*i]);
			return -1;
		}
		o->long_size = v;
	}
	return 1;
}

/**
 * sg_abi_init - the output's layout: the command line wins over the scenario
 * @kernel, @long_size, @big_endian: the scenario's choices (NULL, 0, -1: none)
 */
int sg_abi_init(struct sg_abi *abi, const struct sg_common_opts *o, const char *kernel,
		int long_size, int big_endian)
{
	const char *name = o->kernel ? o->kernel : kernel ? kernel : "6.18";

	abi->kernel = sg_kernel_find(name);
	if (!abi->kernel) {
		sg_error("unknown kernel '%s' (known: %s)", name, sg_kernel_names());
		return -1;
	}
	abi->long_size = o->long_size ? o->long_size : long_size ? long_size : 8;
	abi->big_endian = o->big_endian >= 0 ? o->big_endian : big_endian > 0;
	abi->page_size = 4096;
	abi->nr_format_files = o->nr_format_files;
	memcpy(abi->format_files, o->format_files, sizeof(abi->format_files));
	for (int i = 0; i < abi->nr_format_files; i++) {
		const struct sg_format_file *ff = &abi->format_files[i];
		bool system = false, event = false;

		for (int t = 0; t < SG_NR_EVENT_TYPES; t++) {
			if (!sg_kernel_has(abi->kernel, t) || strcmp(sg_event_system(t), ff->system))
				continue;
			system = true;
			event |= !strcmp(sg_event_name(t), ff->name);
		}
		if (!strcmp(ff->system, "ftrace") || (system && !event)) {
			sg_error("--event-format: %s has no event %s to replace: give the format "
				 "a system of its own", ff->system, ff->name);
			return -1;
		}
	}
	return 0;
}

/* schedgen formats: print the event formats a trace.dat will carry. */
int cmd_formats(int argc, char **argv)
{
	struct sg_common_opts o = { .big_endian = -1 };
	struct sg_abi abi;
	char buf[8192];
	int nnames = 0;

	for (int i = 1; i < argc; i++) {
		int r = sg_common_opt(&o, argc, argv, &i);

		if (r < 0)
			return 2;
		if (r == 0 && argv[i][0] == '-') {
			sg_error("formats: unknown option '%s'", argv[i]);
			return 2;
		}
		if (r == 0)
			nnames++;
	}
	if (sg_abi_init(&abi, &o, NULL, 0, -1))
		return 2;
	for (int t = 0; t < SG_NR_EVENT_TYPES; t++) {
		bool wanted = !nnames;

		if (!sg_kernel_has(abi.kernel, t))
			continue;
		for (int i = 1; i < argc; i++)
			if (!strcmp(argv[i], sg_event_name(t)))
				wanted = true;
		if (!wanted)
			continue;
		if (sg_format_text(&abi, t, buf, sizeof(buf)) < 0)
			return 1;
		fputs(buf, stdout);
		if (!nnames)
			putchar('\n');
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "header_page")) {
			sg_header_page_text(&abi, buf, sizeof(buf));
			fputs(buf, stdout);
		} else if (!strcmp(argv[i], "header_event")) {
			fputs(sg_header_event_text(), stdout);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage_text, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	sg_error("unknown command '%s'", argv[1]);
	fputs(usage_text, stderr);
	return 2;
}
