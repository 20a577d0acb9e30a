# SPDX-License-Identifier: GPL-2.0-only
#
# pmuv3-kvm: a kernel-tree overlay.  This Makefile only prepares a tree
# and hands over to kbuild:
#
#   base   - the pinned Linux tree we build against: BASE=7.3 (the
#            default, Debian's linux-source-7.3) or BASE=6.12 (the LTS
#            backport, Debian 12's linux-source-6.12), or KSRC=<any tree>
#            of that base; each base builds in its own build/<BASE>/
#   src    - base + our glue patches (patches/common/ and patches/<BASE>/,
#            applied once)
#            + our files (arch/ drivers/ include/ Documentation/), laid
#            over it on every run with checksum rsync so that kbuild
#            only sees what really changed
#   kernel - the arm64 build (O=), configured from allnoconfig plus
#            arch/arm64/configs/pmuv3_kvm.config, compiled through ccache
#   kernel-debug - the same with pmuv3_kvm_debug.config on top (lockdep,
#            list and RCU debugging), for the fuzz and KVM stress boots
#
# The README documents the user-facing targets: demo, check, kunit,
# patches, checkpatch, bench.

TOP		:= $(abspath .)
BASE		?= 7.3
ifeq ($(BASE),7.3)
BASE_TARBALL	?= $(TOP)/build/dl/linux-source-7.3/usr/src/linux-source-7.3.tar.xz
else ifeq ($(BASE),6.12)
BASE_TARBALL	?= /usr/src/linux-source-6.12.tar.xz
else
$(error BASE=$(BASE): the bases are 7.3 and 6.12)
endif
BUILD		:= $(TOP)/build/$(BASE)
KSRC		?=
TREE		:= $(BUILD)/base
SRC		:= $(BUILD)/src
KOBJ		:= $(BUILD)/kernel
ARCH		:= arm64
CROSS_COMPILE	?= aarch64-linux-gnu-
JOBS		?= $(shell nproc)
FRAGMENT	:= arch/arm64/configs/pmuv3_kvm.config
IMAGE		:= $(KOBJ)/arch/arm64/boot/Image
KOBJ_DEBUG	:= $(BUILD)/kernel-debug
DEBUG_FRAGMENT	:= arch/arm64/configs/pmuv3_kvm_debug.config

# Every script under mk/ and tests/ works in $(BUILD) and knows the base.
export BUILD BASE
# QEMU 10.0.2 with qemu/patches/ (mk/qemu.sh), then Debian's build of it
# (mk/deps.sh), before the system's QEMU 7.2.
export PATH := $(TOP)/build/qemu/bin:$(TOP)/build/dl/bin:$(PATH)

export CCACHE_DIR ?= $(HOME)/.cache/ccache
export CCACHE_BASEDIR := $(BUILD)
export CCACHE_MAXSIZE ?= 5G
export CCACHE_NOHASHDIR := 1
export KBUILD_BUILD_TIMESTAMP := 2026-01-01
export KBUILD_BUILD_USER := pmuv3-kvm
export KBUILD_BUILD_HOST := build

KMAKE_IN = $(MAKE) -C $(SRC) O=$(1) ARCH=$(ARCH) \
	CROSS_COMPILE=$(CROSS_COMPILE) CC="ccache $(CROSS_COMPILE)gcc" \
	-j$(JOBS)
KMAKE = $(call KMAKE_IN,$(KOBJ))

.PHONY: all deps prepare overlay config kernel kernel-debug kunit \
	initramfs demo check bench patches patches-check checkpatch fixes \
	fixes-check fixes-checkpatch fixes-without qemu-patches clean \
	distclean

all: kernel

deps:
	@mk/deps.sh

# ---- base tree -----------------------------------------------------------

$(TREE)/.stamp:
	@mk/deps.sh
	rm -rf $(TREE) && mkdir -p $(TREE)
ifeq ($(KSRC),)
	tar -xf $(BASE_TARBALL) -C $(TREE) --strip-components=1
else
	rsync -a --exclude=.git $(KSRC)/ $(TREE)/
endif
	mk/check-base.sh $(TREE)
	touch $@

# src is rebuilt from base when a glue patch changes; otherwise it is
# kept, and only the overlay is refreshed.  Glue that applies as it is to
# every base sits in patches/common/, a base's own in patches/<BASE>/;
# they are applied in the order of their numbers.
PATCHES := $(shell ls patches/common/*.patch patches/$(BASE)/*.patch 2>/dev/null | \
		   awk -F/ '{ print $$NF, $$0 }' | sort | cut -d' ' -f2)

$(SRC)/.stamp: $(TREE)/.stamp $(PATCHES)
	rm -rf $(SRC) && mkdir -p $(SRC)
	rsync -a $(TREE)/ $(SRC)/
	set -e; for p in $(PATCHES); do \
		echo "  PATCH   $$p"; patch -s -p1 -d $(SRC) < $$p; done
	touch $@

overlay: $(SRC)/.stamp
	@mk/overlay.sh

prepare: overlay

# ---- kernel ----------------------------------------------------------------

$(KOBJ)/.config: $(SRC)/.stamp $(FRAGMENT)
	@$(MAKE) --no-print-directory overlay
	mkdir -p $(KOBJ)
	KCONFIG_ALLCONFIG=$(TOP)/$(FRAGMENT) $(KMAKE) allnoconfig

config: $(KOBJ)/.config

kernel: config overlay
	$(KMAKE) Image
	@echo "  KERNEL  $(IMAGE)"

# KCONFIG_ALLCONFIG takes one file: the two fragments, concatenated.
$(KOBJ_DEBUG)/.config: $(SRC)/.stamp $(FRAGMENT) $(DEBUG_FRAGMENT)
	@$(MAKE) --no-print-directory overlay
	mkdir -p $(KOBJ_DEBUG)
	cat $(FRAGMENT) $(DEBUG_FRAGMENT) > $(KOBJ_DEBUG)/fragment.config
	KCONFIG_ALLCONFIG=$(KOBJ_DEBUG)/fragment.config \
		$(call KMAKE_IN,$(KOBJ_DEBUG)) allnoconfig

kernel-debug: $(KOBJ_DEBUG)/.config overlay
	$(call KMAKE_IN,$(KOBJ_DEBUG)) Image
	@echo "  KERNEL  $(KOBJ_DEBUG)/arch/arm64/boot/Image"

include mk/tests.mk

# ---- the change as a patch series -----------------------------------------

patches: overlay
	@mk/patches.sh

# Every commit of the series builds (objects after each, Image at the end).
patches-check: patches
	@mk/patches-check.sh

# checkpatch.pl --strict over the series: errors fail, warnings are shown.
checkpatch: patches
	@cd $(BUILD)/patches && fail=0; for p in *.patch; do \
		out=$$(perl $(SRC)/scripts/checkpatch.pl --strict \
			--root=$(SRC) -q $$p 2>&1); \
		echo "$$p: $$(echo "$$out" | grep '^total:' || echo clean)"; \
		echo "$$out" | grep -q '^total: 0 errors' || \
			[ -z "$$out" ] || fail=1; \
	done; exit $$fail

# ---- the stock fixes, upstream-style, on the pristine base ---------------
# fixes/<BASE>/: the bugs of stock Linux we found, each a small patch on the
# stock code with its reproducer (mk/fixes.sh).  fixes-check builds every
# patch of the series in order; fixes-checkpatch runs checkpatch.pl
# --strict over it (errors and warnings fail), less two checks this tree
# cannot make: the Fixes: commits are upstream's, and a tree unpacked from
# Debian's tarball has no history to find them in (UNKNOWN_COMMIT_ID);
# MAINTAINERS' KVM/arm64 entry covers the new selftest's directory
# already (FILE_PATH_CHANGES).

fixes: $(TREE)/.stamp
	@mk/fixes.sh series

fixes-check: $(TREE)/.stamp
	@mk/fixes.sh check

# The stock+fixes boots without each fix in turn: what fails without it.
fixes-without: deps kernel $(INITRAMFS)
	@mk/fixes.sh without

fixes-checkpatch: fixes
	@cd $(BUILD)/fixes/series && fail=0; for p in *.patch; do \
		case $$p in 0000-*) continue ;; esac; \
		out=$$(perl $(BUILD)/fixes/src/scripts/checkpatch.pl --strict \
			--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES \
			--root=$(BUILD)/fixes/src -q $$p 2>&1); \
		echo "$$p: $$(echo "$$out" | grep '^total:' || echo clean)"; \
		[ -z "$$out" ] || { echo "$$out"; fail=1; }; \
	done; exit $$fail

# ---- the emulator -----------------------------------------------------------
# qemu/patches/: where QEMU 10.0.2 does not follow the Arm ARM in what the
# direct PMU relies on, in QEMU's upstream form (mk/qemu.sh; make deps
# builds QEMU with them).  qemu-patches lists the series and runs QEMU's
# checkpatch.pl over it (any error or warning fails).

qemu-patches:
	@mk/qemu.sh check

clean:
	rm -rf $(KOBJ) $(KOBJ_DEBUG) $(BUILD)/kunit $(BUILD)/kunit-config $(BUILD)/logs $(BUILD)/initramfs*

distclean:
	rm -rf $(BUILD)
