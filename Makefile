# SPDX-License-Identifier: GPL-2.0-only
#
# make            ./schedlab
# make check      install missing Debian packages, build, run every test
# make run        install missing Debian packages, build, run the quick suite
# make asan       AddressSanitizer + UBSan build in build/asan, unit tests run
# make bench-store  time storing and exporting runs (bench/store.c)
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
PKGS     = jansson sqlite3 inih libmnl gsl
VERSION := 0.1$(shell git rev-parse --short HEAD 2>/dev/null | sed "s/^/-g/")

ALL_CFLAGS = -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -Isrc -I$(O)/gen -pthread \
	     $(shell pkg-config --cflags $(PKGS)) $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS  = $(shell pkg-config --libs $(PKGS)) -lm
LDFLAGS_ALL = -pthread $(LDFLAGS) $(EXTRA_CFLAGS)

SRCS     := $(wildcard src/*.c src/*/*.c)
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o) $(O)/gen/suites.o
SUITES   := $(sort $(wildcard jobs/*.job))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/%)

.PHONY: all check run asan install uninstall clean deps unit bench-store FORCE

all: schedlab

schedlab: $(O)/schedlab
	@if [ "$(O)" = build ]; then ln -f $< $@; fi

$(O)/schedlab: $(O)/src/main.o $(O)/libschedlab.a
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

$(O)/gen/suites.o: $(O)/gen/suites.c
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/%.o: %.c | $(O)/gen/version.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/tests/%: tests/unit/%.c $(O)/libschedlab.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags cmocka) -o $@ $^ \
		$(LDFLAGS_ALL) $(LDLIBS) $(shell pkg-config --libs cmocka)

unit: $(UNIT_BINS)

# Times the SQLite store (bench/store.c); figures only, no assertions.
bench-store: $(O)/bench/store
	$(O)/bench/store

$(O)/bench/store: bench/store.c $(O)/libschedlab.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS_ALL) $(LDLIBS)

deps:
	@tools/deps.sh

check: deps
	$(MAKE) all unit
	tests/run.sh $(O)

run: deps
	$(MAKE) all
	./schedlab run

asan:
	$(MAKE) O=build/asan CFLAGS="-O1 -g" \
		EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		build/asan/schedlab unit
	UNIT_ONLY=1 tests/run.sh build/asan

install: schedlab
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 schedlab $(DESTDIR)$(BINDIR)/schedlab
	install -m 0644 doc/schedlab.1 $(DESTDIR)$(MANDIR)/man1/schedlab.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/schedlab $(DESTDIR)$(MANDIR)/man1/schedlab.1

clean:
	rm -rf build schedlab

-include $(LIB_OBJS:.o=.d) $(O)/src/main.d
