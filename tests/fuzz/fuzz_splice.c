// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_splice.c - record's check of the pages it spliced unseen
 *
 * Without --live, record splices the kernel's full pages into each CPU's
 * spool without looking at them; sl_dat_writer_check() then reads every
 * spooled page as the trace.dat readers will and leaves out one they
 * would refuse, and a last one that is not whole (dat_write.h).  Its
 * promise: the trace.dat it lets through reads to its end.  So here the
 * input is what the splices moved, the file is written as record writes
 * it (one event format, sched_wake_idle_without_ipi, id 300, as
 * test_read_live.c's), and the flyrecord reader must read it to the end
 * without an error; the libtracecmd reader reads it too (no crash, no
 * sanitizer report: what it says is its business).
 *
 * Layout: byte 0: the CPUs (bit 0: 1 or 2) and the kernel's long (bit 1:
 * 8 or 4 bytes); then splices, each 3 bytes - its CPU (bit 0) and its
 * length (2 bytes, little-endian, at most what is left) - and the bytes
 * it moved.  Pages are 4096 bytes; a splice may move part of one (record
 * makes it a whole page with zeros after it, as the writer does).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "read/dat_write.h"
#include "read/read_dat.h"
#include "util/util.h"

#define PAGE 4096

static char header_page8[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static char header_page4[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:0;\n";

static char header_event[] = "# compressed entry header\n\ttype_len    :    5 bits\n";

static char idle_format[] =
	"name: sched_wake_idle_without_ipi\n"
	"ID: 300\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int cpu;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"cpu=%d\", REC->cpu\n";

static char dir[] = "/tmp/schedlint-fuzz-splice-XXXXXX";
static char path[64];

/* Read the file to its end with one reader: 0, or < 0 with err. */
static int read_to_end(const struct sl_read_opts *opts, struct sl_error *err)
{
	struct sl_strtab *st = sl_strtab_new();
	struct sl_reader *r;
	struct sl_event ev;
	int ret = sl_reader_open(path, opts, st, &r, err);

	if (ret >= 0) {
		while ((ret = sl_reader_next(r, &ev)) > 0)
			;
		sl_reader_close(r);
	}
	sl_strtab_free(st);
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct sl_read_opts fly = { .dat_reader = SL_DAT_READER_FLYRECORD };
	static const struct sl_read_opts ltc = { .dat_reader = SL_DAT_READER_LIBTRACECMD };
	struct sl_dat_format format = { .system = (char *)"sched", .text = idle_format,
					.len = sizeof(idle_format) - 1 };
	struct sl_dat_meta meta = { 0 };
	struct sl_error err = { "" };
	struct sl_dat_writer *w;
	struct sl_dat_cut cut;
	uint64_t file_size, spooled = 0, splices = 0;
	size_t pos = 1;
	int nr_cpus, long_size, ret;

	if (size < 1)
		return -1;
	nr_cpus = (data[0] & 1) + 1;
	long_size = data[0] & 2 ? 4 : 8;
	if (!path[0]) {
		if (!mkdtemp(dir))
			fuzz_fail("mkdtemp: cannot make %s", dir);
		snprintf(path, sizeof(path), "%s/out.dat", dir);
	}
	w = sl_dat_writer_open(path, &err);
	if (!w)
		fuzz_fail("writer: %s", err.msg);
	sl_dat_writer_cpus(w, nr_cpus, PAGE);
	while (pos + 3 <= size) {
		int cpu = (data[pos] & 1) % nr_cpus;
		size_t len = (size_t)data[pos + 1] | (size_t)data[pos + 2] << 8;
		uint64_t at;
		int fd;

		pos += 3;
		len = MIN(len, size - pos);
		fd = sl_dat_writer_spool(w, cpu, &at, &err);
		if (fd < 0)
			fuzz_fail("spool: %s", err.msg);
		if (len && write(fd, data + pos, len) != (ssize_t)len)
			fuzz_fail("spool: short write");
		if (sl_dat_writer_spooled(w, cpu, len, &err))
			fuzz_fail("spooled: %s", err.msg);
		spooled += len;
		splices++;
		pos += len;
	}
	if (sl_dat_writer_check(w, long_size, &cut))
		fuzz_fail("check failed");
	/* whole pages, no more than came in (a part of a page made whole) */
	if (sl_dat_writer_data_size(w) % PAGE ||
	    sl_dat_writer_data_size(w) > spooled + splices * PAGE)
		fuzz_fail("%llu bytes of pages kept of %llu spooled",
			  (unsigned long long)sl_dat_writer_data_size(w), (unsigned long long)spooled);
	meta.nr_cpus = nr_cpus;
	meta.page_size = PAGE;
	meta.long_size = long_size;
	meta.header_page = long_size == 8 ? header_page8 : header_page4;
	meta.header_page_len = strlen(meta.header_page);
	meta.header_event = header_event;
	meta.header_event_len = sizeof(header_event) - 1;
	meta.events = &format;
	meta.nr_events = 1;
	if (sl_dat_writer_finish(w, &meta, &file_size, &err))
		fuzz_fail("finish: %s", err.msg);

	ret = read_to_end(&fly, &err);
	if (ret < 0 && !strstr(err.msg, "no events"))
		fuzz_fail("the checked file does not read (%d): %s (%llu pages left out: %s)", ret,
			  err.msg, (unsigned long long)cut.pages, cut.what);
	err.msg[0] = '\0';
	read_to_end(&ltc, &err);
	unlink(path);
	return 0;
}
