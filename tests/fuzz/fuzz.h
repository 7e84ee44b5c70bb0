/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - what the fuzz harnesses share
 *
 * Each harness is one file with LLVMFuzzerTestOneInput(): built with
 * clang -fsanitize=fuzzer for `make fuzz`, and with replay.c (a plain
 * main() that feeds it the files it is given) for `make check`, which
 * replays the stored corpus and every crash the fuzzers ever found.
 *
 * A harness signals a broken invariant with fuzz_fail(): it prints what
 * broke and aborts, which libFuzzer records as a crash.
 */
#ifndef SCHEDLINT_FUZZ_H
#define SCHEDLINT_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "schedlint/config.h"
#include "schedlint/model.h"
#include "schedlint/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * Write data into an anonymous in-memory file and return a path that
 * opens it ("/proc/self/fd/N"); *fd is to be closed by the caller.
 */
const char *fuzz_memfile(const uint8_t *data, size_t size, int *fd);

/*
 * Open path as the command line would and read it to the end the way
 * analyze does: every event through sl_dump_event() (so every interned
 * id and cpumask is looked at), the model and every registered analyzer,
 * then the terminal and JSON reports.  Reader errors are expected; crashes,
 * leaks and sanitizer reports are not.  Checks the reader's events
 * (CPU in range, known type) as it goes.
 */
void fuzz_read_and_analyze(const char *path, const struct sl_read_opts *opts);

/* The terminal and JSON reports of a finished model, to /dev/null. */
void fuzz_reports(struct sl_model *m);

/* Invariants of the state model (see fuzz_model.c); aborts when one breaks. */
void fuzz_check_model(const struct sl_model *m);
/* Invariants of a finished model: its intervals and the findings. */
void fuzz_check_finished(struct sl_model *m);

#endif /* SCHEDLINT_FUZZ_H */
