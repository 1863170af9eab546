# SPDX-License-Identifier: GPL-2.0
#
# wormcast top-level Makefile.
#
#   make            module, daemon, tools, iproute2 plugin
#   make deps       install the Debian packages needed to build and test
#   make check      every test (userspace unit tests, KUnit, VM selftests)
#   make demo       multicast on an emulated 8x8 torus inside a VM
#   make fuzz-vm    a long seeded fuzzing run of the kernel interfaces in the
#                   VM (FUZZ_VM_COUNT, FUZZ_VM_SEED, FUZZ_VM_KERNEL=debug)
#   make install    module and tools (DESTDIR, PREFIX); install-tools,
#                   install-module, install-dkms (/usr/src/wormcast-VERSION)
#   make fault-stress  the long run of 57-fault-stress in the VM: 60 s of
#                   multicast under failing links and nodes
#                   (FAULT_STRESS_SECONDS, FAULT_STRESS_SEED,
#                   FAULT_STRESS_KERNEL=debug)
#   make bench      benchmarks (figures, not pass/fail)
#   make dstm-figs  Figs. 9 and 10 of the DSTM paper with wormsim (about 15
#                   min on 2 cores): Documentation/images/dstm-fig{9,10}.*
#   make dstm-fault-figs  the same traffic with one random faulty link
#                   (about 15 min): Documentation/images/dstm-fault-fig*
#   make star-figs  Figs. 7, 8 and 9 of the star paper with wormsim
#   make path-figs  dual-path, multipath, OCMS, OTMS on meshes with wormsim:
#                   traffic and latency under load (a few minutes on 1 core)
#   make ft-figs    fault-tolerant multicast (ftmesh) under load on a 50x50
#                   mesh with 50, 100, 150 faulty nodes, Strategies 1 to 3
#                   (a few minutes): Documentation/images/ft-load.*
#   make dcf-figs   Figs. 8 and 9 of the DCF paper with wormsim --bcast
#                   (seconds): Documentation/images/dcf-fig{8,9}.*
#   make fuzz       libFuzzer harnesses, a long run (FUZZ_TIME s per target)
#
# Userspace code is built twice: build/rel (optimised, for the tools and the
# benchmarks) and build/san (ASan + UBSan, for the unit tests).

KDIR ?= $(lastword $(sort $(wildcard /lib/modules/*/build)))
BUILD ?= build
PREFIX ?= /usr/local
IP_LIB_DIR ?= /usr/lib/ip

CC ?= cc
WARN := -Wall -Wextra -Werror -Wno-unused-parameter
CPPFLAGS_WC := -Iuapi -Ikmod/engine -Idaemon/lib -Itests/unit
CFLAGS_REL := -std=gnu11 -g -O2 $(WARN) $(CPPFLAGS_WC) -D_GNU_SOURCE
CFLAGS_SAN := -std=gnu11 -g -O1 $(WARN) $(CPPFLAGS_WC) -D_GNU_SOURCE \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
LDLIBS := -lm

# Kernel-agnostic engine (also built into wormcast.ko) and the daemon's
# algorithm library: one static library per build flavour.
LIB_SRCS := $(wildcard kmod/engine/*.c) $(wildcard daemon/lib/*.c)
LIB_HDRS := $(wildcard kmod/engine/*.h) $(wildcard daemon/lib/*.h) \
	uapi/linux/wormcast.h
REL_LIB := $(BUILD)/rel/libwc.a
SAN_LIB := $(BUILD)/san/libwc.a

# Some tests and benchmarks include a tool's sources to test its pure parts.
TOOL_SRCS := $(wildcard tools/*/*.c tools/*/*.h daemon/*.c daemon/*.h)
# Test headers, among them the engine cases shared with KUnit.
TEST_HDRS := $(wildcard tests/unit/*.h kmod/tests/*.h)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/san/tests/%,$(UNIT_SRCS))
BENCH_SRCS := $(wildcard tools/bench/bench_*.c)
BENCH_BINS := $(patsubst tools/bench/%.c,$(BUILD)/rel/bench/%,$(BENCH_SRCS))

WORMSIM := $(BUILD)/wormsim
WORMCTL := $(BUILD)/wormctl
WORMCASTD := $(BUILD)/wormcastd
IP_PLUGIN := $(BUILD)/link_wormcast.so
TSTAMP := $(BUILD)/wc-tstamp
# The VM selftests' UDP sender and receiver (tests/selftests/wc-udp.c).
WC_UDP := $(BUILD)/wc-udp
TOOLS := $(WORMSIM) $(WORMCTL) $(WORMCASTD) $(IP_PLUGIN) $(TSTAMP) $(WC_UDP)

NL_CFLAGS = $(shell pkg-config --cflags libnl-3.0 libnl-genl-3.0 libnl-route-3.0 2>/dev/null)
NL_LIBS = $(shell pkg-config --libs libnl-3.0 libnl-genl-3.0 libnl-route-3.0 2>/dev/null)

.PHONY: all module tools userspace deps check unit kunit vm demo bench \
	install clean checkpatch sparse fuzz-vm dstm-figs dstm-fault-figs star-figs path-figs \
	dcf-figs ft-figs

all: module tools

userspace: tools $(UNIT_BINS) $(BENCH_BINS)

tools: $(TOOLS)

# ---------------------------------------------------------------- module
module:
	@test -n "$(KDIR)" || { echo "no kernel build tree; run 'make deps' or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

checkpatch:
	tools/checkpatch.sh

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 W=1 modules

# ---------------------------------------------------------------- libraries
$(BUILD)/rel/obj/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_REL) -fPIC -c -o $@ $<

$(BUILD)/san/obj/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_SAN) -c -o $@ $<

$(REL_LIB): $(patsubst %.c,$(BUILD)/rel/obj/%.o,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SAN_LIB): $(patsubst %.c,$(BUILD)/san/obj/%.o,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# ---------------------------------------------------------------- programs
$(BUILD)/san/tests/%: tests/unit/%.c $(TEST_HDRS) $(SAN_LIB) $(TOOL_SRCS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_SAN) -o $@ $< $(SAN_LIB) $(LDLIBS)

$(BUILD)/rel/bench/%: tools/bench/%.c $(REL_LIB) $(TOOL_SRCS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_REL) -o $@ $< $(REL_LIB) $(LDLIBS)

$(WORMSIM): $(wildcard tools/wormsim/*.c tools/wormsim/*.h) $(REL_LIB)
	$(CC) $(CFLAGS_REL) -o $@ $(wildcard tools/wormsim/*.c) $(REL_LIB) $(LDLIBS)

$(WORMCTL): $(wildcard tools/wormctl/*.c tools/wormctl/*.h) $(REL_LIB)
	$(CC) $(CFLAGS_REL) -o $@ $(wildcard tools/wormctl/*.c) $(REL_LIB) -lmnl $(LDLIBS)

$(WORMCASTD): $(wildcard daemon/*.c daemon/*.h) $(REL_LIB)
	$(CC) $(CFLAGS_REL) $(NL_CFLAGS) -o $@ $(wildcard daemon/*.c) $(REL_LIB) $(NL_LIBS) $(LDLIBS)

# The plugin is built against the headers of the iproute2 installed here,
# from Debian's source package of that version (Debian ships no iproute2
# -dev package): tools/iproute2/fetch-source.sh unpacks it once into a cache
# outside the tree (IPROUTE2_SRC; Documentation/tools.rst).
IPROUTE2_VERSION := $(shell dpkg-query -W -f='$${Version}' iproute2 2>/dev/null)
IPROUTE2_SRC ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/wormcast/iproute2-$(IPROUTE2_VERSION)
IPROUTE2_CFLAGS = -I$(IPROUTE2_SRC)/include -I$(IPROUTE2_SRC)/ip \
	-DWC_IPROUTE2_VERSION='"$(shell cat $(IPROUTE2_SRC)/.wormcast-iproute2-version 2>/dev/null)"'

$(IPROUTE2_SRC)/ip/ip_common.h:
	tools/iproute2/fetch-source.sh $(IPROUTE2_SRC)

$(IP_PLUGIN): $(wildcard tools/iproute2/*.c tools/iproute2/*.h) $(REL_LIB) \
		$(IPROUTE2_SRC)/ip/ip_common.h
	$(CC) $(CFLAGS_REL) $(IPROUTE2_CFLAGS) -fPIC -shared -o $@ \
		$(wildcard tools/iproute2/*.c) $(REL_LIB)

# Example of hardware timestamps in fabric time (Documentation/tools.rst).
$(TSTAMP): $(wildcard tools/tstamp/*.c)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_REL) -o $@ $(wildcard tools/tstamp/*.c)

$(WC_UDP): tests/selftests/wc-udp.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_REL) -o $@ $<

# ---------------------------------------------------------------- tests
deps:
	tools/install-deps.sh

unit: $(UNIT_BINS)
	tests/run-tap.sh $(UNIT_BINS)

kunit:
	tests/kunit/run.sh

vm: all
	tests/vm/run.sh selftests

# Every suite goes through one prove(1) run, so its summary closes the log.
# Two run at a time (Documentation/testing.rst, "Time budget"): the two VM
# suites first, the debug kernel's (its build, then its selftests) and
# Debian's, then the short suites, which whichever slot frees first takes,
# so that both cores stay busy to the end; KUnit last, since it needs the
# debug kernel that the first suite builds.  tests/packaging.sh builds the
# module once more through DKMS (about 20-40 s, in a temporary tree).
check: deps
	$(MAKE) -j$(shell nproc) all userspace
	tests/run-tap.sh tests/vm/selftests-debug.sh tests/vm/selftests.sh \
		$(UNIT_BINS) tests/docs.sh tests/heatmap.sh \
		tests/packaging.sh tests/netlink-spec.py \
		tests/kernel-lint.sh tests/fuzz/run.sh tests/kunit/run.sh

# A long run of tests/selftests/80-fuzz.sh alone (make check runs a short
# one); tests/vm/run.sh passes the WC_FUZZ_* settings into the guest.
# FUZZ_VM_KERNEL=debug: KASAN + lockdep.
FUZZ_VM_COUNT ?= 50000
FUZZ_VM_SEED ?=
FUZZ_VM_MAX_NODES ?= 64
FUZZ_VM_KERNEL ?= stock
fuzz-vm: all
	WC_FUZZ_COUNT='$(FUZZ_VM_COUNT)' WC_FUZZ_SEED='$(FUZZ_VM_SEED)' \
	WC_FUZZ_MAX_NODES='$(FUZZ_VM_MAX_NODES)' WC_SELFTESTS=80 \
	WC_SCRIPT_TIMEOUT=$${WC_SCRIPT_TIMEOUT:-7200} \
	WC_VM_TIMEOUT=$${WC_VM_TIMEOUT:-7500} \
		tests/vm/$(if $(filter debug,$(FUZZ_VM_KERNEL)),selftests-debug.sh,selftests.sh)

# The long run of tests/selftests/57-fault-stress.sh (make check runs a
# short one): FAULT_STRESS_SECONDS of multicast while links and nodes fail
# and recover, the accounting exact at the end (Documentation/testing.rst).
# FAULT_STRESS_KERNEL=debug: KASAN + lockdep.
FAULT_STRESS_SECONDS ?= 60
FAULT_STRESS_SEED ?=
FAULT_STRESS_KERNEL ?= stock
.PHONY: fault-stress
fault-stress: all
	WC_FAULT_STRESS_SECONDS='$(FAULT_STRESS_SECONDS)' \
	WC_FAULT_STRESS_SEED='$(FAULT_STRESS_SEED)' WC_SELFTESTS=57 \
		tests/vm/$(if $(filter debug,$(FAULT_STRESS_KERNEL)),selftests-debug.sh,selftests.sh)

demo: deps
	$(MAKE) all
	tests/vm/run.sh demo

bench: deps
	$(MAKE) all userspace
	tools/bench/run.sh

# Documentation/dstm.rst, "Figures 9 and 10 reproduced" (WC_SEEDS,
# WC_CYCLES, WC_WARMUP, WC_DRAIN, WC_JOBS, WC_FIGS: tools/bench/dstm_figs.sh)
dstm-figs: $(WORMSIM)
	tools/bench/dstm_figs.sh

# Documentation/dstm.rst, "One faulty link under load": Figs. 9 and 10's
# traffic on DSTM-1 and DSTM-2, fault-free and with one random faulty link
# (wormsim --random-faults 1, a different link per seed), global
# information; DSTM-1 with its root link 8-7 faulty (the worst case: 143
# nodes below it); DSTM-1 with local information (--fault-info local)
dstm-fault-figs: $(WORMSIM)
	WC_FIGS_NAME=dstm-fault-fig WC_FIGS_RAW=$(BUILD)/bench/dstm-fault-figs \
	WC_SCHEMES="dstm-1:--multicast=dstm-1 \
		dstm-1-fault:--multicast=dstm-1=--random-faults=1 \
		dstm-2:--multicast=dstm-2 \
		dstm-2-fault:--multicast=dstm-2=--random-faults=1 \
		dstm-1-root:--multicast=dstm-1=--fault-link=8:7 \
		dstm-1-local:--multicast=dstm-1=--random-faults=1=--fault-info=local" \
		tools/bench/dstm_figs.sh

# Documentation/paths.rst, "Figures 7, 8 and 9 of the star paper" (WC_DRAWS,
# WC_SIZES, WC_FIGS: tools/bench/star_figs.sh; a few minutes on 2 cores)
star-figs: $(WORMSIM)
	tools/bench/star_figs.sh

# Documentation/paths.rst, "Dual-path, multipath, OCMS and OTMS on a mesh"
# (WC_DRAWS, WC_KS, WC_LOAD_KS, WC_SEEDS, WC_CYCLES, WC_FIGS_OUT:
# tools/wormsim/path_figs.sh)
path-figs: $(WORMSIM)
	tools/wormsim/path_figs.sh

ft-figs: $(WORMSIM)
	tools/wormsim/ft_figs.sh

# Documentation/dcf.rst, "The broadcast in the engine" (WC_LENS,
# WC_FIGS_OUT: tools/bench/dcf_figs.sh; about 5 s)
dcf-figs: $(WORMSIM)
	tools/bench/dcf_figs.sh

# ---------------------------------------------------------------- fuzzing
# libFuzzer harnesses (tests/fuzz/, Documentation/testing.rst): built by
# these targets only, so the rest of the build does not need clang.
# tests/fuzz/run.sh builds them itself and runs a short bounded session.
FUZZ_CC ?= clang
FUZZ_TIME ?= 600
FUZZ_CFLAGS_COMMON := -std=gnu11 -g -O1 $(WARN) $(CPPFLAGS_WC) -D_GNU_SOURCE \
	-fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := $(FUZZ_CFLAGS_COMMON) -fsanitize=fuzzer,address,undefined
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,\
	$(wildcard tests/fuzz/fuzz_*.c))
# The engine once, with coverage but without libFuzzer's main
# (fuzzer-no-link), for every harness to link: compiled once per harness,
# it was most of the fuzz suite's time in make check.
FUZZ_LIB_SRCS := $(wildcard kmod/engine/*.c)
FUZZ_LIB := $(BUILD)/fuzz/libengine.a
FUZZ_LIB_CFLAGS := $(FUZZ_CFLAGS_COMMON) -fsanitize=fuzzer-no-link,address,undefined

$(BUILD)/fuzz/obj/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_LIB_CFLAGS) -c -o $@ $<

$(FUZZ_LIB): $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(FUZZ_LIB_SRCS))
	rm -f $@ && ar rcs $@ $^

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(LIB_HDRS) \
		$(FUZZ_LIB) $(TOOL_SRCS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_LIB)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)

# A long session: FUZZ_TIME seconds per target.
fuzz: fuzz-build
	WC_FUZZ_TIME=$(FUZZ_TIME) tests/fuzz/run.sh

# ---------------------------------------------------------------- install
# make install = install-module + install-tools.  DESTDIR and PREFIX as
# usual; install-tools alone needs no kernel tree (tests/packaging.sh).
# install-dkms puts the module's sources in /usr/src/wormcast-VERSION for
# dkms(8) instead of a built module (Documentation/tools.rst, "Packaging").
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
MAN_SRCS := $(wildcard Documentation/man/*.rst)
MAN_PAGES := $(patsubst Documentation/man/%.rst,$(BUILD)/man/%,$(MAN_SRCS))
RST2MAN ?= rst2man
DKMS_SRCS := Kbuild dkms.conf uapi/linux/wormcast.h \
	$(wildcard kmod/*.c kmod/*.h kmod/engine/*.c kmod/engine/*.h)

.PHONY: man install-module install-tools install-dkms
man: $(MAN_PAGES)

$(BUILD)/man/%: Documentation/man/%.rst
	@mkdir -p $(dir $@)
	$(RST2MAN) --halt=warning --report=warning $< $@

install: install-module install-tools

install-module: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) modules_install
	depmod $(if $(DESTDIR),-b $(DESTDIR)) -a $(notdir $(patsubst %/build,%,$(KDIR)))

install-tools: tools man
	install -D -m 0755 $(WORMCTL) $(DESTDIR)$(PREFIX)/sbin/wormctl
	install -D -m 0755 $(WORMCASTD) $(DESTDIR)$(PREFIX)/sbin/wormcastd
	@mkdir -p $(BUILD)
	sed 's|/usr/local/|$(PREFIX)/|g' daemon/wormcastd.service > $(BUILD)/wormcastd.service
	install -D -m 0644 $(BUILD)/wormcastd.service $(DESTDIR)/etc/systemd/system/wormcastd.service
	test -e $(DESTDIR)/etc/wormcast/wormcastd.conf || \
		install -D -m 0644 daemon/wormcastd.conf $(DESTDIR)/etc/wormcast/wormcastd.conf
	install -D -m 0644 Documentation/tools.rst $(DESTDIR)$(PREFIX)/share/doc/wormcast/tools.rst
	install -D -m 0755 $(WORMSIM) $(DESTDIR)$(PREFIX)/bin/wormsim
	install -D -m 0755 tools/heatmap/wc-heatmap $(DESTDIR)$(PREFIX)/bin/wc-heatmap
	install -D -m 0644 $(IP_PLUGIN) $(DESTDIR)$(IP_LIB_DIR)/link_wormcast.so
	install -D -m 0644 uapi/linux/wormcast.h $(DESTDIR)$(PREFIX)/include/linux/wormcast.h
	for m in $(MAN_PAGES); do \
		s=$${m##*.}; \
		install -D -m 0644 $$m $(DESTDIR)$(PREFIX)/share/man/man$$s/$${m##*/} || exit 1; \
	done
	install -D -m 0644 tools/completion/wormctl \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/wormctl

install-dkms:
	for f in $(DKMS_SRCS); do \
		install -D -m 0644 $$f $(DESTDIR)/usr/src/wormcast-$(VERSION)/$$f || exit 1; \
	done

clean:
	rm -rf $(BUILD)
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
