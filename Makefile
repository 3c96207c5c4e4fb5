# SPDX-License-Identifier: GPL-2.0-only
#
# make            ./schedlab
# make check      install missing Debian packages, build, run every test
# make run        install missing Debian packages, build, run the quick suite
# make asan       AddressSanitizer + UBSan build in build/asan, unit tests run
# make check-asan the same build: unit and integration tests, corpus replay
# make check-clang  clang build (ASan+UBSan) in build/clang: unit tests, replay
# make fuzz       FUZZ_SECONDS=60 FUZZ_NAMES=jobfile: libFuzzer harnesses (clang)
#                 in build/fuzz, each run for FUZZ_SECONDS on its corpus
# make bench-store  time storing and exporting runs (bench/store.c)
# make bench-fleet  job claims a second, 8 agents, one PostgreSQL (bench/fleet-claims.c)
# make bench-history  change-point detection and false-alarm rates on stored runs
# make bench-reap   what a task's /proc files cost its reaper, 16,000 tasks (bench/reap-cost.c)
# make install    PREFIX=/usr/local DESTDIR=
#
# Objects go to $(O) (build/ by default), so sanitizer builds live beside
# the normal one.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
CC      ?= cc
O       ?= build
CFLAGS  ?= -O2 -g
# parallel builds inside make check, make run and the sanitizer builds
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
PKGS     = jansson sqlite3 inih libmnl gsl libpq
# Linked: the rest are opened with dlopen() when first used (src/lazylib.h),
# so that a workload's workers do not map them. Their sonames come from
# the development libraries the build has.
LINKED   = jansson sqlite3 inih libmnl
soname   = $(or $(shell objdump -p $$(pkg-config --variable=libdir $(1))/$(2) 2>/dev/null | \
		awk '/SONAME/ { print $$2 }'),$(2))
GSL_SONAME := $(call soname,gsl,libgsl.so)
PQ_SONAME  := $(call soname,libpq,libpq.so)
# Debian's name for the package of a soname: libgsl.so.27 is in libgsl27
debpkg   = $(shell echo $(1) | sed -E 's/\.so\.?([0-9]*).*/\1/')
VERSION := 0.1$(shell git rev-parse --short HEAD 2>/dev/null | sed "s/^/-g/")

ALL_CFLAGS = -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -Isrc -I$(O)/gen -pthread \
	     $(shell pkg-config --cflags $(PKGS)) \
	     -DGSL_SONAME='"$(GSL_SONAME)"' -DGSL_PACKAGE='"$(call debpkg,$(GSL_SONAME))"' \
	     -DPQ_SONAME='"$(PQ_SONAME)"' -DPQ_PACKAGE='"$(call debpkg,$(PQ_SONAME))"' \
	     $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS  = $(shell pkg-config --libs $(LINKED)) -lm
LDFLAGS_ALL = -pthread -Wl,-z,relro,-z,now $(LDFLAGS) $(EXTRA_CFLAGS)

SRCS     := $(wildcard src/*.c src/*/*.c)
LIB_SRCS := $(filter-out src/cmd/main.c,$(SRCS))
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o) $(O)/gen/suites.o
SUITES   := $(sort $(wildcard jobs/*.job))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/%)
# unit tests that need a server an integration test starts (server_*.c):
# built with the others, run by that test, not by tests/run.sh's loop
SERVER_BINS := $(patsubst tests/unit/%.c,$(O)/tests/%,$(wildcard tests/unit/server_*.c))

.PHONY: all check run asan check-asan check-clang fuzz fuzz-replay install \
	uninstall clean deps unit bench-store bench-fleet bench-history bench-reap FORCE

all: schedlab

schedlab: $(O)/schedlab
	@if [ "$(O)" = build ]; then ln -f $< $@; fi

$(O)/schedlab: $(O)/src/cmd/main.o $(O)/libschedlab.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS)

$(O)/libschedlab.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# Rewritten only when the version changes, so what includes it rebuilds then.
$(O)/gen/version.h: FORCE
	@mkdir -p $(dir $@)
	@echo '#define SCHEDLAB_VERSION "$(VERSION)"' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

# The shipped suites, built in (src/harness/suites.h). The list is
# rewritten only when a job file is added or removed; an edited one is
# newer than suites.c.
$(O)/gen/suites.list: FORCE
	@mkdir -p $(dir $@)
	@echo '$(SUITES)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(O)/gen/suites.c: tools/gen-suites.sh $(O)/gen/suites.list $(SUITES)
	tools/gen-suites.sh $@ $(SUITES)

$(O)/gen/suites.o: $(O)/gen/suites.c $(O)/gen/cflags
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The compiler and flags $(O) was built with: objects depend on it, so
# changing them (make O=build/clang CC=clang EXTRA_CFLAGS=...) rebuilds.
$(O)/gen/cflags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(ALL_CFLAGS)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(O)/%.o: %.c $(O)/gen/cflags | $(O)/gen/version.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/tests/%: tests/unit/%.c $(O)/libschedlab.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags cmocka) -o $@ $^ \
		$(LDFLAGS_ALL) $(LDLIBS) $(shell pkg-config --libs cmocka)

unit: $(UNIT_BINS) $(SERVER_BINS)

# Times the SQLite store (bench/store.c); figures only, no assertions.
bench-store: $(O)/bench/store
	$(O)/bench/store

$(O)/bench/store: bench/store.c $(O)/libschedlab.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS_ALL) $(LDLIBS)

# Times the job queue's claims against a throwaway PostgreSQL
# (bench/fleet-claims.sh); figures only.
bench-fleet: $(O)/bench/fleet-claims $(O)/schedlab
	bench/fleet-claims.sh $(O)
$(O)/bench/fleet-claims: bench/fleet-claims.c $(O)/libschedlab.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS_ALL) $(LDLIBS)

# The change-point detector's rates on this machine's stored noise
# (bench/history-calib.sh); figures only.
bench-history: $(O)/bench/history-calib $(O)/schedlab
	SCHEDLAB=$(O)/schedlab DRIVER=$(O)/bench/history-calib bench/history-calib.sh
$(O)/bench/history-calib: bench/history-calib.c $(O)/libschedlab.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS_ALL) $(LDLIBS)

# What a worker's /proc files cost its reaper (bench/reap-cost.c): 16,000
# processes of each kind, 4 interleaved rounds; figures only.
bench-reap: $(O)/bench/reap-cost
	for r in 1 2 3 4; do for k in 0 1 2 3 4; do $(O)/bench/reap-cost 16000 $$k || exit 1; done; done
$(O)/bench/reap-cost: bench/reap-cost.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $<

deps:
	@tools/deps.sh

# Every test, then again under ASan+UBSan with the fuzz corpus replayed,
# then a clang ASan+UBSan build: unit tests and the replay.
check: deps
	$(MAKE) -j$(JOBS) all unit
	tests/run.sh $(O)
	$(MAKE) check-asan
	$(MAKE) check-clang

run: deps
	$(MAKE) -j$(JOBS) all
	./schedlab run

SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer \
	    -fno-sanitize-recover=undefined

asan:
	$(MAKE) -j$(JOBS) O=build/asan CFLAGS="-O1 -g" EXTRA_CFLAGS="$(SAN_FLAGS)" \
		build/asan/schedlab unit
	UNIT_ONLY=1 tests/run.sh build/asan

# Under the sanitizers every unit test and every integration file but
# these (doc/reliability.md says why: their time goes to other programs,
# or to 16,000 tasks each paying ASan's start-up, not to schedlab's code).
SAN_SKIP = test_external test_fileio test_fleet test_scale test_docs test_vm

check-asan:
	$(MAKE) -j$(JOBS) O=build/asan CFLAGS="-O1 -g" EXTRA_CFLAGS="$(SAN_FLAGS)" \
		build/asan/schedlab unit fuzz-replay
	SKIP_FILES="$(SAN_SKIP)" tests/run.sh build/asan

# clang's UBSan checks more than gcc's (a NULL pointer plus an offset,
# for one), so the corpus is replayed again here.
check-clang:
	$(MAKE) -j$(JOBS) O=build/clang CC=clang CFLAGS="-O1 -g" EXTRA_CFLAGS="$(SAN_FLAGS)" \
		build/clang/schedlab unit fuzz-replay
	UNIT_ONLY=1 tests/run.sh build/clang

# Fuzzing (tests/fuzz/fuzz.h): one harness per parser, its corpus in
# tests/fuzz/corpus/NAME/. fuzz-replay (part of check-asan) feeds each
# corpus file once to the harness built with $(O)'s flags and replay.c;
# fuzz builds them with libFuzzer and runs each for FUZZ_SECONDS, one
# after the other, new inputs going to build/fuzz/corpus/NAME/ (copy the
# ones worth keeping into the repository's corpus).
FUZZ_NAMES   ?= jobfile import procfs ext
FUZZ_SECONDS ?= 60
FUZZ_ARGS    ?=
FUZZ_HDRS    := tests/fuzz/fuzz.h

$(O)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_HDRS) $(O)/libschedlab.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS_ALL) $(LDLIBS)

$(O)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_HDRS) $(O)/libschedlab.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $(filter %.c %.a,$^) \
		$(LDFLAGS_ALL) $(LDLIBS)

fuzz-replay: $(FUZZ_NAMES:%=$(O)/fuzz/replay_%)
	@for n in $(FUZZ_NAMES); do \
		$(O)/fuzz/replay_$$n tests/fuzz/corpus/$$n || exit 1; \
	done

fuzz:
	$(MAKE) O=build/fuzz CC=clang CFLAGS="-O1 -g" \
		EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(SAN_FLAGS)" \
		$(FUZZ_NAMES:%=build/fuzz/fuzz/fuzz_%)
	@for n in $(FUZZ_NAMES); do \
		mkdir -p build/fuzz/corpus/$$n build/fuzz/crashes/$$n; \
		echo "fuzz_$$n: $(FUZZ_SECONDS)s"; \
		SCHEDLAB_NCPU=4 build/fuzz/fuzz/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) \
			-close_fd_mask=3 -print_final_stats=1 \
			-artifact_prefix=build/fuzz/crashes/$$n/ $(FUZZ_ARGS) \
			build/fuzz/corpus/$$n tests/fuzz/corpus/$$n || exit 1; \
	done

UNITDIR ?= $(PREFIX)/lib/systemd/system
install: schedlab
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(UNITDIR)
	install -m 0755 schedlab $(DESTDIR)$(BINDIR)/schedlab
	install -m 0644 doc/schedlab.1 $(DESTDIR)$(MANDIR)/man1/schedlab.1
	sed 's|/usr/local/bin/schedlab|$(BINDIR)/schedlab|' tools/schedlab-agent.service \
		>$(DESTDIR)$(UNITDIR)/schedlab-agent.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/schedlab-agent.service
	sed 's|/usr/local/bin/schedlab|$(BINDIR)/schedlab|' tools/schedlab-campaign.service \
		>$(DESTDIR)$(UNITDIR)/schedlab-campaign.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/schedlab-campaign.service

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/schedlab $(DESTDIR)$(MANDIR)/man1/schedlab.1 \
		$(DESTDIR)$(UNITDIR)/schedlab-agent.service \
		$(DESTDIR)$(UNITDIR)/schedlab-campaign.service

clean:
	rm -rf build schedlab

-include $(LIB_OBJS:.o=.d) $(O)/src/cmd/main.d
