// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - one event into the bytes a ring buffer holds for it
 *
 * The record is the kernel's trace_event_raw_* struct: common fields, the
 * event's fields at the offsets formats.c lays out, then the strings of
 * __data_loc fields.  Numbers are written in the file's byte order, longs
 * and pointers in its long size, so the same event gives a little- or a
 * big-endian, 64- or 32-bit record.
 */
#include <string.h>

#include "schedgen.h"
#include "formats.h"

void sg_put16(const struct sg_abi *abi, uint8_t *p, uint16_t v)
{
	if (abi->big_endian) {
		p[0] = v >> 8;
		p[1] = v;
	} else {
		p[0] = v;
		p[1] = v >> 8;
	}
}

void sg_put32(const struct sg_abi *abi, uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[abi->big_endian ? 3 - i : i] = v >> (8 * i);
}

void sg_put64(const struct sg_abi *abi, uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[abi->big_endian ? 7 - i : i] = v >> (8 * i);
}

void sg_putlong(const struct sg_abi *abi, uint8_t *p, uint64_t v)
{
	if (abi->long_size == 8)
		sg_put64(abi, p, v);
	else
		sg_put32(abi, p, (uint32_t)v);
}

/*
 * Layouts do not change during a run, and the per-event path should not lay
 * out the struct again: keep them per (kernel, long size).
 */
static struct {
	const struct sg_kernel *kernel;
	int long_size;
	bool valid[SG_NR_EVENT_TYPES];
	struct sg_layout lay[SG_NR_EVENT_TYPES];
} layout_cache[8];

static const struct sg_layout *cached_layout(const struct sg_abi *abi, int type)
{
	for (size_t i = 0; i < ARRAY_SIZE(layout_cache); i++) {
		if (!layout_cache[i].kernel) {
			layout_cache[i].kernel = abi->kernel;
			layout_cache[i].long_size = abi->long_size;
		}
		if (layout_cache[i].kernel != abi->kernel ||
		    layout_cache[i].long_size != abi->long_size)
			continue;
		if (!layout_cache[i].valid[type]) {
			if (sg_layout(abi, type, &layout_cache[i].lay[type]))
				return NULL;
			layout_cache[i].valid[type] = true;
		}
		return &layout_cache[i].lay[type];
	}
	return NULL;
}

static uint64_t field_value(const struct sg_event *ev, int id, enum sg_value_source src)
{
	switch (src) {
	case V_COMMON_TYPE:	return id;
	case V_COMMON_FLAGS:	return ev->flags;
	case V_COMMON_PREEMPT:	return ev->preempt_count;
	case V_COMMON_PID:	return (uint32_t)ev->common_pid;
	case V_PID0:		return (uint32_t)ev->pid[0];
	case V_PID1:		return (uint32_t)ev->pid[1];
	case V_PRIO0:		return (uint32_t)ev->prio[0];
	case V_PRIO1:		return (uint32_t)ev->prio[1];
	case V_ARG0:		return (uint32_t)ev->arg[0];
	case V_ARG1:		return (uint32_t)ev->arg[1];
	case V_STATE:		return (uint64_t)ev->state;
	case V_ADDR0:		return ev->addr[0];
	case V_ADDR1:		return ev->addr[1];
	case V_ONE:		return 1;
	case V_MARK_IP:		return 0;	/* set by the caller: needs the ABI */
	case V_COMM0:
	case V_COMM1:
		break;
	}
	return 0;
}

/**
 * sg_record_encode - the record of @ev for the file described by @abi
 *
 * Returns its length in bytes (not rounded), 0 if this kernel has no such
 * event.  @buf must hold SG_MAX_RECORD bytes.
 */
size_t sg_record_encode(const struct sg_abi *abi, const struct sg_event *ev, uint8_t *buf)
{
	const struct sg_layout *lay = cached_layout(abi, ev->type);
	size_t dyn;

	if (!lay)
		return 0;
	memset(buf, 0, lay->fixed_size);
	dyn = lay->fixed_size;
	for (int i = 0; i < lay->nr_fields; i++) {
		const struct sg_field *f = lay->field[i];
		uint8_t *p = buf + lay->offset[i];
		const char *s;
		size_t len;

		switch (f->kind) {
		case FK_CHARS:
		case FK_DATA_LOC:
			s = ev->comm[f->src == V_COMM1];
			if (!s)
				s = "";
			len = strnlen(s, SG_COMM_LEN - 1);
			if (f->kind == FK_CHARS) {
				memcpy(p, s, len);	/* the rest stays NUL */
				break;
			}
			/* the string and its NUL after the struct */
			memcpy(buf + dyn, s, len);
			buf[dyn + len] = '\0';
			sg_put32(abi, p, (uint32_t)((len + 1) << 16 | dyn));
			dyn += len + 1;
			break;
		case FK_U8:
		case FK_BOOL:
			*p = (uint8_t)field_value(ev, lay->id, f->src);
			break;
		case FK_U16:
			sg_put16(abi, p, (uint16_t)field_value(ev, lay->id, f->src));
			break;
		case FK_S32:
		case FK_U32:
			sg_put32(abi, p, (uint32_t)field_value(ev, lay->id, f->src));
			break;
		case FK_LONG:
		case FK_ULONG:
		case FK_PTR:
			sg_putlong(abi, p, f->src == V_MARK_IP ?
				   sg_sym_addr(abi, SYM_TRACING_MARK_WRITE, 0) :
				   field_value(ev, lay->id, f->src));
			break;
		case FK_STRING:
			/* the text, a newline as a write to trace_marker gets one, a NUL */
			s = ev->comm[0] ? ev->comm[0] : "";
			len = strnlen(s, SG_MAX_MARK);
			memcpy(p, s, len);
			p[len] = '\n';
			p[len + 1] = '\0';
			dyn = lay->offset[i] + len + 2;
			break;
		}
	}
	return dyn;
}

/*
 * sg_irq_info - the irq-info column of the tracefs text
 *
 * Five characters on 6.x (irqs-off, need-resched, hardirq/softirq, preempt
 * depth, migrate-disable depth), four on 4.x, as trace_print_lat_fmt()
 * prints them.
 */
size_t sg_irq_info(const struct sg_abi *abi, const struct sg_event *ev, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t f = ev->flags;
	size_t n = 0;

	buf[n++] = f & TRACE_FLAG_IRQS_OFF ? 'd' : '.';
	switch (f & (TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED)) {
	case TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED:
		buf[n++] = 'N';
		break;
	case TRACE_FLAG_NEED_RESCHED:
		buf[n++] = 'n';
		break;
	case TRACE_FLAG_PREEMPT_RESCHED:
		buf[n++] = 'p';
		break;
	default:
		buf[n++] = '.';
	}
	if ((f & TRACE_FLAG_NMI) && (f & TRACE_FLAG_HARDIRQ))
		buf[n++] = 'Z';
	else if (f & TRACE_FLAG_NMI)
		buf[n++] = 'z';
	else if ((f & TRACE_FLAG_HARDIRQ) && (f & TRACE_FLAG_SOFTIRQ))
		buf[n++] = 'H';
	else if (f & TRACE_FLAG_HARDIRQ)
		buf[n++] = 'h';
	else if (f & TRACE_FLAG_SOFTIRQ)
		buf[n++] = 's';
	else
		buf[n++] = '.';
	buf[n++] = ev->preempt_count & 0xf ? hex[ev->preempt_count & 0xf] : '.';
	if (abi->kernel->text_style == TEXT_STYLE_6)
		buf[n++] = ev->preempt_count >> 4 ? hex[ev->preempt_count >> 4] : '.';
	buf[n] = '\0';
	return n;
}

/* The reverse, for scenario lines that give flags=dNh2. */
int sg_irq_info_parse(const char *s, uint8_t *flags, uint8_t *preempt_count)
{
	uint8_t f = 0, pc = 0;
	size_t len = strlen(s);

	if (len != 4 && len != 5)
		return -1;
	switch (s[0]) {
	case 'd': f |= TRACE_FLAG_IRQS_OFF; break;
	case '.': break;
	default: return -1;
	}
	switch (s[1]) {
	case 'N': f |= TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED; break;
	case 'n': f |= TRACE_FLAG_NEED_RESCHED; break;
	case 'p': f |= TRACE_FLAG_PREEMPT_RESCHED; break;
	case '.': break;
	default: return -1;
	}
	switch (s[2]) {
	case 'Z': f |= TRACE_FLAG_NMI | TRACE_FLAG_HARDIRQ; break;
	case 'z': f |= TRACE_FLAG_NMI; break;
	case 'H': f |= TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ; break;
	case 'h': f |= TRACE_FLAG_HARDIRQ; break;
	case 's': f |= TRACE_FLAG_SOFTIRQ; break;
	case '.': break;
	default: return -1;
	}
	for (size_t i = 3; i < len; i++) {
		int v;

		if (s[i] == '.')
			v = 0;
		else if (s[i] >= '0' && s[i] <= '9')
			v = s[i] - '0';
		else if (s[i] >= 'a' && s[i] <= 'f')
			v = s[i] - 'a' + 10;
		else
			return -1;
		pc |= v << (4 * (i - 3));
	}
	*flags = f;
	*preempt_count = pc;
	return 0;
}
