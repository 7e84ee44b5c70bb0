// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_kallsyms.c - our kallsyms table against libtraceevent's own parser
 *
 * The input is a trace.dat's kallsyms text (up to its first NUL: what
 * libtraceevent's parser reads).  sl_kallsyms_load() parses it into one
 * tep handle, tep_parse_kallsyms() into another, and every address the
 * text names (each line's first word, as hex), its neighbours and a few
 * taken from the input's bytes must resolve to the same function and
 * start in both (kallsyms.h's promise: names exactly as
 * tep_find_function()).  As test_kallsyms.c, on any text.
 */
#include <ctype.h>
#include <event-parse.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "read/kallsyms.h"

#define MAX_PROBES 512

static void same_answer(struct tep_handle *ours, struct tep_handle *ref, unsigned long long addr)
{
	const char *a = tep_find_function(ours, addr), *b = tep_find_function(ref, addr);

	if (!a || !b) {
		if (a != b)
			fuzz_fail("0x%llx: ours %s, tep %s", addr, a ? a : "(none)", b ? b : "(none)");
		return;
	}
	if (strcmp(a, b))
		fuzz_fail("0x%llx: ours %s, tep %s", addr, a, b);
	if (tep_find_function_address(ours, addr) != tep_find_function_address(ref, addr))
		fuzz_fail("0x%llx (%s): ours starts at 0x%llx, tep's at 0x%llx", addr, a,
			  tep_find_function_address(ours, addr), tep_find_function_address(ref, addr));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = strnlen((const char *)data, size);
	unsigned long long probe[MAX_PROBES];
	struct tep_handle *ours, *ref;
	struct sl_kallsyms *k;
	char *text, *copy;
	size_t nr = 0;

	text = malloc(len + 1);
	copy = malloc(len + 1);
	if (!text || !copy)
		abort();
	memcpy(text, data, len);
	text[len] = '\0';
	memcpy(copy, text, len + 1);

	/* each line's first word as hex, as the parsers read it */
	for (const char *p = text; *p && nr < MAX_PROBES - 8; ) {
		char *end;

		probe[nr++] = strtoull(p, &end, 16);
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	/* and addresses the input's last bytes make (between and around the symbols) */
	for (size_t i = 0; i + 8 <= size && nr < MAX_PROBES && i < 64; i += 8) {
		unsigned long long v;

		memcpy(&v, data + size - 8 - i, 8);
		probe[nr++] = v;
	}
	probe[nr++] = 0;
	probe[nr++] = ~0ULL;

	ours = tep_alloc();
	ref = tep_alloc();
	if (!ours || !ref)
		abort();
	tep_set_loglevel(TEP_LOG_NONE);
	/* the table takes copy (and writes into it), or tep's parser took it and it is freed */
	k = sl_kallsyms_load(ours, copy, len, copy);
	tep_parse_kallsyms(ref, text);
	for (size_t i = 0; i < nr; i++) {
		same_answer(ours, ref, probe[i]);
		same_answer(ours, ref, probe[i] + 1);
		same_answer(ours, ref, probe[i] - 1);
	}
	tep_free(ours);
	tep_free(ref);
	sl_kallsyms_free(k);
	free(text);
	return 0;
}
