# schedlint - find bad scheduler decisions in Linux scheduler traces
#
#   make            build ./schedlint and ./schedgen
#   make run        install missing packages, build, analyze a bundled real trace
#   make check      install missing packages, build, run every test
#   make check SANITIZE=1   the same with ASan + UBSan (+ LeakSanitizer)
#   make bench      benchmarks against trace-cmd and libtracecmd (bench/run; minutes)
#   make install PREFIX=/usr/local

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
CC       ?= gcc
PKG_CONFIG ?= pkg-config
VERSION  := 0.1.0

PKGS     := libtracecmd libtraceevent libtracefs libcjson ncursesw libzstd zlib

ifeq ($(SANITIZE),1)
MODE     := san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
MODE     := rel
SANFLAGS :=
endif

BUILD    := build/$(MODE)
WARN     := -Wall -Wextra -Werror -Wno-unused-parameter
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(SANFLAGS) -Iinclude -Isrc \
	     -DSCHEDLINT_VERSION='"$(VERSION)"' \
	     $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
ALL_LDFLAGS = $(LDFLAGS) $(SANFLAGS)
LIBS     = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lm

# Every .c under src/ (and src/tui/) and analyzers/ is part of schedlint.
SL_SRCS  := $(wildcard src/*.c src/tui/*.c analyzers/*.c)
SL_OBJS  := $(SL_SRCS:%.c=$(BUILD)/%.o)
# The library part: everything but main.c, so unit tests can link it.
LIB_OBJS := $(filter-out $(BUILD)/src/main.o,$(SL_OBJS))

GEN_SRCS := $(wildcard tools/schedgen/*.c)
GEN_OBJS := $(GEN_SRCS:%.c=$(BUILD)/%.o)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

BENCH_BINS := $(BUILD)/bench/iter_libtracecmd $(BUILD)/bench/read_only

.PHONY: all deps run check test install clean fuzz bench bench-progs
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

bench-progs: all $(BENCH_BINS)

bench: deps
	@sh bench/run $(BENCH_ARGS)

deps:
	@sh scripts/install-deps.sh

run: deps
	@$(MAKE) --no-print-directory all
	./schedlint analyze testdata/real/pipe.dat

check: deps
	@$(MAKE) --no-print-directory all $(UNIT_BINS)
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) sh tests/run.sh $(UNIT_BINS)

test: check

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 schedlint schedgen $(DESTDIR)$(BINDIR)
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1

clean:
	rm -rf build schedlint schedgen

-include $(SL_OBJS:.o=.d) $(GEN_OBJS:.o=.d)
