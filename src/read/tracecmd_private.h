/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracecmd_private.h - libtracecmd functions we use that its public header lacks
 *
 * libtracecmd 3.1.6 (Debian 12) exports these symbols but declares them
 * only in trace-cmd-private.h, which is not installed.  The prototypes
 * below match lib/trace-cmd/include/private/trace-cmd-private.h of
 * trace-cmd v3.1.6; they have been stable since 3.0.
 */
#ifndef SCHEDLINT_TRACECMD_PRIVATE_H
#define SCHEDLINT_TRACECMD_PRIVATE_H

struct tracecmd_input;

int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_long_size(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
int tracecmd_set_cpu_to_timestamp(struct tracecmd_input *handle, int cpu,
				  unsigned long long ts);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle,
				     const char **name, const char **version);

#endif /* SCHEDLINT_TRACECMD_PRIVATE_H */
