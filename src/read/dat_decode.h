/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_decode.h - turn a raw ring-buffer event into a struct sl_event
 *
 * Shared by the trace.dat readers (libtracecmd and our own flyrecord
 * reader) and by the live reader: they find the raw bytes of one event,
 * this decodes them with the field offsets of the formats the trace
 * carries (libtraceevent parsed them), never with hard-coded layouts.
 */
#ifndef SCHEDLINT_DAT_DECODE_H
#define SCHEDLINT_DAT_DECODE_H

#include <event-parse.h>

#include "schedlint/event.h"
#include "schedlint/reader.h"

struct sl_dat_decoder;
struct sl_dat_names;

/*
 * Build the per-event-id decode table from tep's formats and the events
 * known by name only (sl_dat_tep_load(); NULL: none); NULL + err on failure.
 */
struct sl_dat_decoder *sl_dat_decoder_new(struct tep_handle *tep, const struct sl_dat_names *names,
					  struct sl_strtab *strtab, struct sl_error *err);
void sl_dat_decoder_free(struct sl_dat_decoder *d);

/*
 * Decode one event's payload (data/size as in struct tep_record) logged on
 * cpu at ts.  Returns 0, or -EINVAL when the payload is too short for its
 * format (corrupt data).  The event may point to decoder-owned cpumask
 * words, valid until the next call.
 */
int sl_dat_decode(struct sl_dat_decoder *d, int cpu, uint64_t ts,
		  const void *data, int size, struct sl_event *ev);

/*
 * Whether the decoder reads fields of system:name (and so needs its full
 * format); other events are only counted by name.
 */
bool sl_dat_decodes(const char *system, const char *name);

/*
 * Where sl_dat_decode() reads a record's common_type and common_pid in the
 * usual layout (a u16 and 4 bytes, in the host's byte order), and the
 * bytes a record needs for the common fields (fewer: it is refused): so a
 * reader can look at them without decoding.  false in another layout.
 */
bool sl_dat_common_layout(const struct sl_dat_decoder *d, int *type_off, int *pid_off,
			  int *common_size);

/* The interned name of the lost-events pseudo event. */
uint32_t sl_dat_lost_name(struct sl_dat_decoder *d);

/* Fill has_waking / has_wakeup from the formats the trace carries. */
void sl_dat_fill_info(struct tep_handle *tep, struct sl_trace_info *info);

#endif /* SCHEDLINT_DAT_DECODE_H */
