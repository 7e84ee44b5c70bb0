// SPDX-License-Identifier: GPL-2.0
/*
 * test_kallsyms.c - our kallsyms table names every address as libtraceevent does
 *
 * The reference is libtraceevent itself: the same text parsed by
 * tep_parse_kallsyms() into a second handle, asked with
 * tep_find_function() / tep_find_function_address() for every address.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <event-parse.h>

#include "read/kallsyms.h"

/* ours (through tep's resolver) and tep's own parser agree on addr */
static void same_answer(struct tep_handle *ours, struct tep_handle *ref, unsigned long long addr)
{
	const char *a = tep_find_function(ours, addr), *b = tep_find_function(ref, addr);

	if (!a || !b) {
		if (a != b)
			fail_msg("0x%llx: ours %s, tep %s", addr, a ? a : "(none)", b ? b : "(none)");
		return;
	}
	if (strcmp(a, b))
		fail_msg("0x%llx: ours %s, tep %s", addr, a, b);
	assert_int_equal(tep_find_function_address(ours, addr), tep_find_function_address(ref, addr));
}

/* Load text both ways; probe each listed address and its neighbours. */
static void compare(const char *text, const unsigned long long *probe, size_t nr_probe,
		    bool expect_own)
{
	struct tep_handle *ours = tep_alloc(), *ref = tep_alloc();
	struct sl_kallsyms *k;

	tep_set_loglevel(TEP_LOG_NONE);
	char *copy = strdup(text);	/* the table takes it and writes into it */

	k = sl_kallsyms_load(ours, copy, strlen(copy), copy);
	if (expect_own)
		assert_non_null(k);
	else
		assert_null(k);
	tep_parse_kallsyms(ref, text);
	for (size_t i = 0; i < nr_probe; i++) {
		same_answer(ours, ref, probe[i]);
		same_answer(ours, ref, probe[i] + 1);
		same_answer(ours, ref, probe[i] - 1);
	}
	tep_free(ours);
	tep_free(ref);
	sl_kallsyms_free(k);
}

static void test_aliases_modules_and_skipped(void **state)
{
	/* aliases at one address, '$' names and absolute symbols skipped, modules, unsorted */
	static const char text[] =
		"ffffffff81000000 T srso_alias_untrain_ret\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 t startup_64\n"
		"ffffffff81000100 t $x.1\n"
		"0000000000000000 A fixed_percpu_data\n"
		"ffffffff81000200 a absolute_thing\n"
		"ffffffff81001000 T update_curr\n"
		"FFFFFFFF81002000 T upper_hex\n"
		"\n"
		"ffffffffc0001000 t mod_fn\t[kvm]\n"
		"ffffffffc0000800 t earlier_mod_fn\t[kvm_intel]\n"
		"ffffffff81003000 W weak_one\n"
		"ffffffff81003000 W weak_two\n"
		"ffffffff81003000 W weak_three\n"
		"ffffffff82000000 D last_data";
	static const unsigned long long probe[] = {
		0xffffffff81000000ULL, 0xffffffff81000100ULL, 0xffffffff81000200ULL,
		0xffffffff81001000ULL, 0xffffffff81002000ULL, 0xffffffffc0001000ULL,
		0xffffffffc0000800ULL, 0xffffffff81003000ULL, 0xffffffff82000000ULL,
		0x1000ULL, 0xffffffffffffff00ULL,
	};
	struct tep_handle *tep = tep_alloc();
	char *copy = strdup(text);
	struct sl_kallsyms *k = sl_kallsyms_load(tep, copy, sizeof(text) - 1, copy);
	uint64_t start = 0;

	/* written down from tep's rules: inside update_curr, skipped '$x.1' and 'a' */
	assert_non_null(k);
	assert_string_equal(sl_kallsyms_find(k, 0xffffffff81001234ULL, &start), "update_curr");
	assert_true(start == 0xffffffff81001000ULL);
	assert_non_null(tep_find_function(tep, 0xffffffffc0000810ULL));
	assert_string_equal(tep_find_function(tep, 0xffffffffc0000810ULL), "earlier_mod_fn");
	assert_null(sl_kallsyms_find(k, 0x10, NULL));
	/* past the last symbol (mod_fn): only its own address matches */
	assert_null(sl_kallsyms_find(k, 0xffffffffc0001001ULL, NULL));
	assert_non_null(sl_kallsyms_find(k, 0xffffffffc0001000ULL, NULL));
	assert_string_equal(sl_kallsyms_find(k, 0xffffffffc0001000ULL, NULL), "mod_fn");
	assert_string_equal(sl_kallsyms_find(k, 0xffffffff82000010ULL, NULL), "last_data");
	tep_free(tep);
	sl_kallsyms_free(k);

	compare(text, probe, sizeof(probe) / sizeof(probe[0]), true);
}

static void test_unusual_text_goes_to_tep(void **state)
{
	static const unsigned long long probe[] = { 0xffffffff81000000ULL, 0xffffffff81001000ULL };

	/* a "0x" prefix, a leading blank, trailing words, a CR: tep's sscanf decides */
	compare("0xffffffff81000000 T a\nffffffff81001000 T b\n", probe, 2, false);
	compare(" ffffffff81000000 T a\nffffffff81001000 T b\n", probe, 2, false);
	compare("ffffffff81000000 T a b c\nffffffff81001000 T b\n", probe, 2, false);
	compare("ffffffff81000000 T a\r\nffffffff81001000 T b\n", probe, 2, false);
	compare("ffffffff81000000 T\nffffffff81001000 T b\n", probe, 2, false);
	compare("ffffffff810000000 T toolong\nffffffff81001000 T b\n", probe, 2, false);
	compare("garbage\n", probe, 2, false);
	compare("", probe, 2, true);
}

/* Many random symbols with many shared addresses, every one probed. */
static void test_random_tables(void **state)
{
	for (unsigned seed = 1; seed <= 20; seed++) {
		size_t n = 3000, len = 0;
		char *text = malloc(n * 64);
		unsigned long long *probe = malloc(n * sizeof(*probe));
		static const char types[] = "TtWwDdBbRrVvaA";

		srandom(seed);
		for (size_t i = 0; i < n; i++) {
			/* few distinct addresses, so aliases are common */
			unsigned long long addr = 0xffffffff81000000ULL + (unsigned long long)(random() % 700) * 16;

			probe[i] = addr;
			len += (size_t)sprintf(text + len, "%016llx %c %s%zu%s\n", addr,
					       types[random() % (sizeof(types) - 1)],
					       random() % 50 ? "fn_" : "$x", i,
					       random() % 5 ? "" : "\t[mod]");
		}
		compare(text, probe, n, true);
		free(text);
		free(probe);
	}
}

/*
 * Names of every length around the 8-byte steps of the scan for their
 * end, some with a module, some with a control byte that is part of the
 * name (not a space for isspace()); addresses in upper case too.  And
 * the lines the 16-digit fast path must still refuse: a bad digit, a
 * space inside a name (then tep parses it all).
 */
static void test_name_ends_and_digits(void **state)
{
	size_t n = 0, len = 0;
	char *text = malloc(64 * 1024);
	unsigned long long probe[128];

	for (int l = 1; l <= 40; l++) {
		unsigned long long addr = 0xffffffffa0000000ULL + (unsigned long long)l * 0x40;
		char name[48];

		for (int i = 0; i < l; i++)
			name[i] = (char)('a' + i % 26);
		name[l] = '\0';
		if (l % 3 == 0)
			name[l / 2] = '\x01';
		probe[n++] = addr;
		len += (size_t)sprintf(text + len, l % 2 ? "%016llx T %s\n" : "%016llX t %s\t[m%d]\n",
				       addr, name, l);
	}
	text[len] = '\0';
	compare(text, probe, n, true);
	compare("ffffffff81000000 T a\nffffffff8100000g T b\n", probe, 2, false);
	compare("ffffffff81000000 T a\nfffffff:81001000 T b\n", probe, 2, false);
	compare("ffffffff81000000 T abcdefghij\rk\nffffffff81001000 T b\n", probe, 2, false);
	compare("ffffffff81000000 T abcdefghijklmno\vp\nffffffff81001000 T b\n", probe, 2, false);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aliases_modules_and_skipped),
		cmocka_unit_test(test_unusual_text_goes_to_tep),
		cmocka_unit_test(test_random_tables),
		cmocka_unit_test(test_name_ends_and_digits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
