# SPDX-License-Identifier: GPL-2.0
#
# pm-async: dependency-driven async device suspend/resume for Linux 7.3,
# and the lab that proves it.  "make help" lists the targets.

SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c
S := scripts

KERNEL ?= patched
# MACHINE=laptop: QEMU's q35 with real devices (scripts/qemu-run.sh -M),
# on a kernel with their drivers (flavour test+laptop by default).
MACHINE ?= pc
ifeq ($(MACHINE),laptop)
FLAVOUR ?= test+laptop
endif
FLAVOUR ?= test
CMD ?= sh /pma/check.sh
# make run passes CMD through the environment, taken as written (no make
# expansion of '$'), so it may hold any quotes and shell variables.
override CMD := $(value CMD)
export CMD

.PHONY: help deps tree export kernel base-kernel bench-kernels kernels \
	initramfs run tools check demo bench series series-check clean distclean \
	faults fuzz churn soak hazards diff drivers-soak check-kcsan check-kasan

help:
	@echo "make demo          build, boot, run the laptop profile on stock and pm-async, print the table"
	@echo "make check         all tests (host tools, kselftest and KUnit in QEMU); ends with 'N passed, N failed'"
	@echo "make bench         all profiles, stock vs patched, sync vs async (BENCH_CYCLES=, BENCH_PROFILES=)"
	@echo "make faults        fault matrix: every device x suspend phase fails, stock and patched (FAULT_*)"
	@echo "make fuzz          random DAGs, many cycles each (FUZZ_SEEDS=1-100, FUZZ_CYCLES=20)"
	@echo "make churn         devices removed/added during transitions, async flags flipped (CHURN_ROUNDS=)"
	@echo "make soak          SOAK_CYCLES=1000 cycles of phone: no violation, hang, slab growth or leak"
	@echo "make hazards       random real-driver topologies (waits, link kinds, skips), stock then patched (HAZ_SEEDS=1-200)"
	@echo "make diff          stock vs patched on the same random topologies and transitions: hangs, violations, outcomes, 1.10x time rule (DIFF_SEEDS=1-300)"
	@echo "make drivers-soak  DRIVERS_SOAK_CYCLES=500 real S3 cycles per kernel on the laptop machine: no hang, device lost or warning"
	@echo "make check-kcsan   kselftest, KUnit and reliability set on a KCSAN kernel (check-kasan: KASAN)"
	@echo "make deps          install the Debian packages that are missing"
	@echo "make tree          build/patched/src and build/stock/src from Debian's source + patches/ + overlay"
	@echo "make export        regenerate patches/ and the overlay files from the commits in build/patched/src"
	@echo "make kernel        the patched test kernel;  make base-kernel: the stock test kernel"
	@echo "make bench-kernels stock and patched kernels without debugging options"
	@echo "make initramfs     the guest image for KERNEL=$(KERNEL) FLAVOUR=$(FLAVOUR)"
	@echo "make run CMD='...' boot KERNEL=$(KERNEL) FLAVOUR=$(FLAVOUR) MACHINE=$(MACHINE) (pc|laptop) and run CMD in the guest"
	@echo "make series        the four postings as git format-patch output, each with its cover letter, in out/series/N-NAME"
	@echo "make series-check  git am them in order onto a fresh tree, checkpatch and build after each patch"

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/tree.sh

export:
	@$(S)/export.sh

kernel: tree
	@$(S)/build-kernel.sh patched test

base-kernel: tree
	@$(S)/build-kernel.sh stock test

bench-kernels: tree
	@$(S)/build-kernel.sh stock bench
	@$(S)/build-kernel.sh patched bench

kernels: kernel base-kernel

initramfs: tree
	@$(S)/build-kernel.sh $(KERNEL) $(FLAVOUR)
	@$(S)/mkinitramfs.sh $(KERNEL) $(FLAVOUR)

run: initramfs
	@$(S)/qemu-run.sh -k $(KERNEL) -f $(FLAVOUR) -M $(MACHINE) -- "$$CMD"

TOOLS := tools/power/pm-async

tools:
	@$(MAKE) -s -C $(TOOLS)

check: deps
	@$(S)/check.sh

faults fuzz churn soak hazards diff: deps
	@$(S)/campaign.sh $@

drivers-soak: deps
	@$(S)/drivers-soak.sh

check-kcsan check-kasan: deps
	@$(S)/sanitize.sh $(@:check-%=%)

demo: deps
	@$(S)/demo.sh

bench: deps
	@$(S)/bench.sh

series: deps
	@$(S)/series.sh

series-check: series
	@$(S)/series-check.sh

clean:
	rm -rf build/*/obj-* build/*/initramfs-* build/kselftest* build/laptop out
	@$(MAKE) -s -C $(TOOLS) clean

distclean: clean
	rm -rf build
