# schedlint - find bad scheduler decisions in Linux scheduler traces
#
#   make            build ./schedlint and ./schedgen
#   make run        install missing packages, build, analyze a bundled real trace
#   make check      install missing packages, build, run every test
#   make check SANITIZE=1   the same with ASan + UBSan (+ LeakSanitizer)
#   make SANITIZE=thread    ./schedlint with ThreadSanitizer (build/tsan)
#   make bench      benchmarks against trace-cmd and libtracecmd (bench/run; minutes)
#   make fuzz [FUZZ_SECONDS=60]   build the fuzz harnesses (clang, libFuzzer) and
#                   run each for that long; fails on any crash, leak or report
#   make install PREFIX=/usr/local [DESTDIR=...]   schedlint, its man pages, bash completion
#   make uninstall  (the same variables) remove them

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# schedgen makes the tests' traces: built here, not installed
MANPAGES := $(filter-out man/schedgen.1,$(wildcard man/*.1))
CC       ?= gcc
PKG_CONFIG ?= pkg-config
VERSION  := 0.1.0

PKGS     := libtracecmd libtraceevent libtracefs libcjson ncursesw libzstd zlib

ifeq ($(SANITIZE),1)
MODE     := san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else ifeq ($(SANITIZE),thread)
# ThreadSanitizer, for the pipelined analysis (a build to run by hand:
# libtraceevent and libtracecmd are not instrumented)
MODE     := tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
else
MODE     := rel
SANFLAGS :=
endif

BUILD    := build/$(MODE)
WARN     := -Wall -Wextra -Werror -Wno-unused-parameter
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(SANFLAGS) -pthread -Iinclude -Isrc \
	     -DSCHEDLINT_VERSION='"$(VERSION)"' \
	     $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
# -pthread: analyze reads the trace in a thread of its own (src/model/analysis.c)
ALL_LDFLAGS = $(LDFLAGS) $(SANFLAGS) -pthread
LIBS     = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lm

# Every .c under src/'s stage folders and analyzers/ is part of schedlint.
SL_SRCS  := $(wildcard src/*/*.c analyzers/*.c)
SL_OBJS  := $(SL_SRCS:%.c=$(BUILD)/%.o)
# The library part: everything but main.c, so unit tests can link it.
LIB_OBJS := $(filter-out $(BUILD)/src/cmd/main.o,$(SL_OBJS))

GEN_SRCS := $(wildcard tools/schedgen/*.c)
GEN_OBJS := $(GEN_SRCS:%.c=$(BUILD)/%.o)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

BENCH_BINS := $(BUILD)/bench/iter_libtracecmd $(BUILD)/bench/read_only $(BUILD)/bench/model_only \
	      $(BUILD)/bench/live_replay

# Fuzz harnesses (tests/fuzz/fuzz_NAME.c, or fuzz_dat.c with a reader chosen
# at build time).  make check replays their corpora with replay_NAME.
FUZZ_NAMES   := text dat_flyrecord dat_libtracecmd model perf explore splice seek kallsyms
FUZZ_READER_dat_flyrecord   := SL_DAT_READER_FLYRECORD
FUZZ_READER_dat_libtracecmd := SL_DAT_READER_LIBTRACECMD
FUZZ_SRC      = tests/fuzz/$(if $(FUZZ_READER_$*),fuzz_dat,fuzz_$*).c
FUZZ_DEFS     = $(if $(FUZZ_READER_$*),-DFUZZ_DAT_READER=$(FUZZ_READER_$*))
REPLAY_BINS  := $(FUZZ_NAMES:%=$(BUILD)/tests/replay_%)

.PHONY: all deps run check test install uninstall clean fuzz fuzz-build bench bench-progs gate-check
all: schedlint $(if $(GEN_SRCS),schedgen)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/schedlint: $(SL_OBJS)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/schedgen: $(GEN_OBJS)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# The binaries at the top level are the last build (normal or SANITIZE=1).
schedlint: $(BUILD)/schedlint FORCE
	@cmp -s $< $@ || { cp $< $@.tmp && mv -f $@.tmp $@; }
schedgen: $(BUILD)/schedgen FORCE
	@cmp -s $< $@ || { cp $< $@.tmp && mv -f $@.tmp $@; }
FORCE:

$(BUILD)/tests/test_read_live: bench/dat_pages.h

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  CCLD    $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(ALL_LDFLAGS) $(LIBS) -lcmocka

# bench/run: schedlint vs trace-cmd report vs bare libtracecmd (minutes; not part of check)
$(BUILD)/bench/iter_libtracecmd: bench/iter_libtracecmd.c
	@mkdir -p $(dir $@)
	@echo "  CCLD    $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS) $(LIBS)

$(BUILD)/bench/read_only: bench/read_only.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  CCLD    $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(ALL_LDFLAGS) $(LIBS)

$(BUILD)/bench/model_only: bench/model_only.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  CCLD    $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(ALL_LDFLAGS) $(LIBS)

$(BUILD)/bench/live_replay: bench/live_replay.c bench/dat_pages.h $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  CCLD    $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(ALL_LDFLAGS) $(LIBS)

bench-progs: all $(BENCH_BINS)

bench: deps
	@sh bench/run $(BENCH_ARGS)

.SECONDEXPANSION:
$(BUILD)/tests/replay_%: tests/fuzz/replay.c tests/fuzz/fuzz_common.c $$(FUZZ_SRC) tests/fuzz/fuzz.h $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  CCLD    $@"
	@$(CC) $(ALL_CFLAGS) $(FUZZ_DEFS) -Itests/fuzz -o $@ tests/fuzz/replay.c tests/fuzz/fuzz_common.c \
		$(FUZZ_SRC) $(LIB_OBJS) $(ALL_LDFLAGS) $(LIBS)

# --- make fuzz: the same harnesses under libFuzzer (clang), ASan + UBSan ---
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS   = -std=gnu11 $(WARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
		-Iinclude -Isrc -Itests/fuzz -DSCHEDLINT_VERSION='"$(VERSION)"' \
		$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(filter-out src/cmd/main.c,$(SL_SRCS)) tests/fuzz/fuzz_common.c)
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (fuzz)"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: $$(FUZZ_SRC) $(FUZZ_LIB_OBJS)
	@echo "  CCLD    $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_DEFS) -fsanitize=fuzzer -o $@ $(FUZZ_SRC) $(FUZZ_LIB_OBJS) $(LIBS)

.SECONDARY: $(FUZZ_LIB_OBJS)
fuzz-build: $(FUZZ_BINS)

fuzz:
	@sh scripts/install-deps.sh fuzz
	@$(MAKE) --no-print-directory all fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_BUILD=$(FUZZ_BUILD) sh tests/fuzz/run.sh $(FUZZ_NAMES)

deps:
	@sh scripts/install-deps.sh

run: deps
	@$(MAKE) --no-print-directory all
	./schedlint analyze testdata/real/pipe.dat

# tests/e2e/instr_budget.sh counts the release build's instructions in
# every mode (under SANITIZE=1 too), so check builds it as well, with the
# two bench programs it counts (read_only, live_replay).
# check also installs what only the tests use (chromium renders the HTML pages)
check:
	@sh scripts/install-deps.sh check
	@$(MAKE) --no-print-directory all $(UNIT_BINS) $(REPLAY_BINS)
	@$(MAKE) --no-print-directory SANITIZE= build/rel/schedlint build/rel/bench/read_only \
		build/rel/bench/live_replay
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) sh tests/run.sh $(UNIT_BINS)

test: check

# The README's CI recipe, taken out of README.md and run as written: an A/A
# series that must never fail and an A/B series with an injected regression
# that must fail (tests/gate/run.sh), on the runs committed in
# testdata/gate/runs.tar.gz (seconds, no root; make check runs it too).
# GATE_RECORD=1 records them afresh on this machine (root, tracefs, minutes).
gate-check: all
	@sh tests/gate/run.sh $(if $(GATE_RECORD),--record)

# the paths quoted: a DESTDIR with a space split into words, some of them
# created in the source tree (issue 32, 09)
install: all
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(BASHCOMPDIR)"
	install -m 755 schedlint "$(DESTDIR)$(BINDIR)"
	install -m 644 $(MANPAGES) "$(DESTDIR)$(MANDIR)/man1"
	install -m 644 scripts/schedlint.bash "$(DESTDIR)$(BASHCOMPDIR)/schedlint"

# also the schedgen an older make install put in bin/
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/schedlint" "$(DESTDIR)$(BINDIR)/schedgen"
	for p in $(notdir $(MANPAGES)) schedgen.1; do rm -f "$(DESTDIR)$(MANDIR)/man1/$$p"; done
	rm -f "$(DESTDIR)$(BASHCOMPDIR)/schedlint"

clean:
	rm -rf build schedlint schedgen

-include $(SL_OBJS:.o=.d) $(GEN_OBJS:.o=.d) $(FUZZ_LIB_OBJS:.o=.d)
