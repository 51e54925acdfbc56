# vmtune - build, test, install. `make` builds build/vmtune and the workloads;
# `make check` runs every test. Missing Debian packages are installed (as root)
# or the one command that would install them is printed.

CC ?= gcc
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
LIBEXECDIR = $(PREFIX)/libexec/vmtune
MANDIR = $(PREFIX)/share/man
PROFILEDIR = $(PREFIX)/share/vmtune/profiles
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions

PKGS = yaml-0.1 gsl libproc2 sqlite3 json-c libpq libsystemd
# build: the libraries; tests: cmocka, jq (JSON), sqlite3 (the results store), util-linux (setpriv, unshare),
# procps (sysctl -p), qemu-system-x86, busybox-static and cpio (the boot test), postgresql (a server for the
# fleet store test), python3-yaml and systemd (systemd-tmpfiles) to parse the exports back, clang and
# libclang-rt-14-dev (libFuzzer: the fuzz targets), kmod and e2fsprogs (the guest suite's modules and disk, the
# fault suite's full file system), clang-format (the layout test), python3-optuna with python3-cmaes and python3-scipy
# (bench/peers.sh: Optuna's samplers, its CMA-ES and QMC ones need those); the tool workloads' programs: fio,
# stress-ng, sysbench, redis-server and redis-tools, postgresql (its server and pgbench)
DEBS = pkg-config libyaml-dev libgsl-dev libproc2-dev libsqlite3-dev libjson-c-dev libpq-dev libsystemd-dev \
	libcmocka-dev jq sqlite3 util-linux procps qemu-system-x86 busybox-static cpio postgresql python3-yaml systemd \
	clang libclang-rt-14-dev kmod e2fsprogs gnuplot-nox chromium bash-completion python3-optuna python3-cmaes python3-scipy \
	clang-format fio stress-ng sysbench redis-server redis-tools

CFLAGS ?= -O2 -g
CFLAGS += $(SAN)
CFLAGS += -std=gnu11 -Wall -Wextra -Wshadow -Wno-missing-field-initializers -Wno-format-truncation
ifeq ($(CI),true)
CFLAGS += -Werror
endif
CPPFLAGS += -D_GNU_SOURCE -Ituner -Iworkloads -I$(B)/gen -DWORKLOAD_DIR='"$(LIBEXECDIR)"' -DPROFILE_DIR='"$(PROFILEDIR)"'

B = build
# the commands (main.c, cmd-*.c) sit on a library of modules the unit tests link
CMD_SRC = tuner/main.c $(wildcard tuner/cmd-*.c)
LIB_SRC = $(filter-out $(CMD_SRC),$(wildcard tuner/*.c))
CMD_OBJ = $(CMD_SRC:tuner/%.c=$(B)/tuner/%.o)
LIB_OBJ = $(LIB_SRC:tuner/%.c=$(B)/tuner/%.o)
# the built-in workloads: the names workloads/workloads.def lists
OPEN := (
WORKLOADS = $(shell sed -n 's/^WORKLOAD$(OPEN)\([a-z0-9_]*\),.*/\1/p' workloads/workloads.def)
WORKLOAD_BIN = $(WORKLOADS:%=$(B)/%)
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

all: $(B)/.deps $(B)/vmtune $(WORKLOAD_BIN)

# Installs what is missing (root) or says how. Re-checked when the Makefile changes.
$(B)/.deps: Makefile
	@mkdir -p $(B)
	@missing=""; for d in $(DEBS); do dpkg-query -W -f='$${Status}' $$d 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$d"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:$$missing"; \
			(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing) >$(B)/apt.log 2>&1 \
				|| { cat $(B)/apt.log; echo "apt-get install failed"; exit 1; }; \
		else \
			echo "missing packages; run: sudo apt-get install$$missing"; exit 1; \
		fi; \
	fi
	@touch $@

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -pthread

$(B)/tuner/%.o: tuner/%.c tuner/*.h tuner/*.def workloads/workloads.def $(B)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -c -o $@ $<

# the systemd unit, one source for `make install` and `vmtune install-boot`
$(B)/gen/unit.h: systemd/vmtune.service.in
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $< >$@

$(B)/tuner/cmd-install-boot.o: $(B)/gen/unit.h

$(B)/vmtune: $(CMD_OBJ) $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(B)/%: workloads/%.c workloads/*.h workloads/workloads.def tuner/size.h $(B)/tuner/size.o $(B)/.deps
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -o $@ $< $(B)/tuner/size.o $(PKG_LIBS)

$(B)/tests/%: tests/unit/%.c tests/unit/*.h $(LIB_OBJ) tuner/*.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -o $@ $< $(LIB_OBJ) $(PKG_LIBS) $$(pkg-config --libs cmocka)

# the simulated workloads whose answers are known (tests/search/sim.c)
$(B)/tests/sim: tests/search/sim.c tests/search/rng.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -lm

# standard optimisation test functions on real knob ranges (tests/search/testfn.c)
$(B)/tests/testfn: tests/search/testfn.c tests/search/rng.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -lm

check: all $(UNIT_BIN) $(B)/tests/sim $(B)/tests/testfn crash-build $(B)/tests/fault.so
	@tests/run-all

# the fault tests' LD_PRELOAD library (tests/fault/fault.c)
$(B)/tests/fault.so: tests/fault/fault.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -shared -o $@ $< -ldl

# AddressSanitizer and UndefinedBehaviorSanitizer: everything built again in build-san,
# then the unit tests and the fake-tree suites (tests/cli; CLI_SUITES="a b" for some)
# run on it. Every report goes to build-san/reports; any report fails the target.
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
sanitize:
	@$(MAKE) -s B=build-san SAN="$(SAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" all \
		$(UNIT_SRC:tests/unit/%.c=build-san/tests/%) build-san/tests/sim build-san/tests/testfn
	@rm -rf build-san/reports && mkdir -p build-san/reports
	@ASAN_OPTIONS=detect_leaks=1:log_path=$(CURDIR)/build-san/reports/asan \
		UBSAN_OPTIONS=print_stacktrace=1:log_path=$(CURDIR)/build-san/reports/ubsan \
		VMTUNE=$(CURDIR)/build-san/vmtune UNIT_DIR=build-san/tests SUITES=cli tests/run-all
	@if [ -n "$$(ls build-san/reports)" ]; then cat build-san/reports/*; \
		echo "sanitizers: $$(ls build-san/reports | wc -l) report(s)"; exit 1; fi
	@echo "sanitizers: no reports"

# libFuzzer targets (tests/fuzz/fuzz_*.c) over the library, built with clang in
# build-fuzz; `make fuzz` runs each FUZZ_SECONDS (default 20) on a copy of its corpus
# in tests/fuzz/corpus/; bench/fuzz.sh is the long campaign.
FUZZ_SRC = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_FLAGS = -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all -Wno-unknown-warning-option
FUZZ_SECONDS ?= 20
fuzz-build: $(B)/.deps
	@$(MAKE) -s B=build-fuzz CC=clang SAN="$(FUZZ_FLAGS)" $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/fuzz/%)

fuzz: fuzz-build
	@tests/fuzz/run $(FUZZ_SECONDS)

$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_OBJ) $(PKG_LIBS)

# the crash test's build (tests/live/test-live-crash.sh): VMTUNE_CRASH_AT stops it
# at a named point (crashpoint() in vmtune.h) for the test to SIGKILL it there
crash-build: $(B)/.deps
	@$(MAKE) -s B=build-crash SAN=-DVMTUNE_CRASHPOINTS all

UNITDIR = $(PREFIX)/lib/systemd/system

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(PROFILEDIR) $(DESTDIR)$(COMPLETIONDIR)
	install -m 755 $(B)/vmtune $(DESTDIR)$(BINDIR)/vmtune
	install -m 755 $(WORKLOAD_BIN) $(DESTDIR)$(LIBEXECDIR)/
	install -m 644 man/vmtune.1 $(DESTDIR)$(MANDIR)/man1/vmtune.1
	install -m 644 completion/vmtune.bash $(DESTDIR)$(COMPLETIONDIR)/vmtune
	sed 's|@VMTUNE@|$(BINDIR)/vmtune|' systemd/vmtune.service.in >$(DESTDIR)$(UNITDIR)/vmtune.service
	install -m 644 profiles/*.yaml $(DESTDIR)$(PROFILEDIR)/

clean:
	rm -rf $(B) build-san build-fuzz build-crash

.PHONY: all check sanitize fuzz fuzz-build crash-build install clean
.SECONDARY:
