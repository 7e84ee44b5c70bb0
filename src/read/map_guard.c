// SPDX-License-Identifier: GPL-2.0
/*
 * map_guard.c - a mapped file that shrinks while it is read (map_guard.h)
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

#include "map_guard.h"

#define MAX_GUARDS	8		/* mapped readers open at once */
static struct sl_map_guard guards[MAX_GUARDS];
static struct sigaction sigbus_before;
static uintptr_t guard_page_size;

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	uint8_t *addr = si->si_addr;

	(void)ctx;
	for (int i = 0; si->si_code == BUS_ADRERR && i < MAX_GUARDS; i++) {
		uint8_t *map = __atomic_load_n(&guards[i].map, __ATOMIC_ACQUIRE);
		void *page = (void *)((uintptr_t)addr & ~(guard_page_size - 1));

		if (!map || addr < map || addr >= map + guards[i].len)
			continue;
		if (mmap(page, (size_t)guard_page_size, PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			break;
		guards[i].shrank = 1;
		return;
	}
	sigaction(sig, &sigbus_before, NULL);
}

size_t sl_map_page_size(void)
{
	if (!guard_page_size)
		guard_page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	return (size_t)guard_page_size;
}

struct sl_map_guard *sl_map_guard_add(uint8_t *map, size_t len)
{
	sl_map_page_size();
	for (int i = 0; i < MAX_GUARDS; i++) {
		uint8_t *none = NULL;

		/* nothing faults in the map before this returns */
		if (__atomic_compare_exchange_n(&guards[i].map, &none, map, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			guards[i].len = len;
			guards[i].shrank = 0;
			return &guards[i];
		}
	}
	return NULL;
}

void sl_map_guard_arm(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO }, old;

	sigemptyset(&sa.sa_mask);
	if (!sigaction(SIGBUS, &sa, &old) &&
	    !((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == on_sigbus))
		sigbus_before = old;
}

void sl_map_guard_release(struct sl_map_guard *g)
{
	if (g)
		__atomic_store_n(&g->map, NULL, __ATOMIC_RELEASE);
}
