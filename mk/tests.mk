# SPDX-License-Identifier: GPL-2.0-only
# Test and demo targets; included by the top Makefile.

INITRAMFS	:= $(BUILD)/initramfs.cpio
# initramfs.cpio and, with QEMU and our kernel for a Linux guest,
# initramfs-vm.cpio: both from mk/initramfs.sh.
GUEST_FILES	:= $(wildcard tests/guest/*) tests/scan-console.sh
KVM_TESTS	:= $(BUILD)/kvm-bin/.stamp
KUNIT_MODES	?= el1 vhe nvhe
BOOT_MODES	?= vhe nvhe protected el1 a57 acpi nokvm vhe-up nvhe-up protected-up \
		   vhe-debug nvhe-debug protected-debug vhe-nmi

.PHONY: kunit boot-check limits

# The KVM selftests, ours and the base tree's, and our helpers on their
# library (needs the prepared tree and its kernel config for
# headers_install).
$(KVM_TESTS): mk/kvm-tests.sh $(wildcard tests/kvm/*.c \
		tools/testing/selftests/kvm/arm64/*) | kernel
	@mk/kvm-tests.sh
	@touch $@

$(INITRAMFS): mk/initramfs.sh $(GUEST_FILES) $(KVM_TESTS) $(IMAGE)
	@mk/initramfs.sh

initramfs: $(INITRAMFS)

# KUnit through the base tree's own kunit.py, once per QEMU setup
# (tests/kunit/arm64_<mode>.py).
kunit: deps overlay
	@mk/kunit.sh $(KUNIT_MODES)

demo: deps kernel $(INITRAMFS)
	@tests/boot.sh vhe demo && sed -n '/^@@JOB/,/^@@DONE/p' \
		$(BUILD)/logs/vhe-demo.log | grep -v '^@@' | \
		grep -v -E '^ *(KTAP version|# Subtest|1\.\.[0-9]|ok [0-9]|not ok [0-9])'

boot-check: deps kernel kernel-debug $(INITRAMFS)
	@tests/check.sh boot $(BOOT_MODES)

bench: deps kernel $(INITRAMFS)
	@mk/bench.sh

check: deps kernel kernel-debug $(INITRAMFS)
	@tests/check.sh all

# The README's Known limits that come from QEMU, measured again
# (tests/guest/limits.sh): figures for the README, one boot per mode.
LIMIT_MODES	?= vhe vhe-up protected vhe-debug
limits: deps kernel kernel-debug $(INITRAMFS)
	@for mode in $(LIMIT_MODES); do \
		tests/boot.sh $$mode limits $(BUILD)/logs/$$mode-limits.log; \
		echo "== $$mode"; \
		grep -a -E '^    # |^ +(not )?ok ' $(BUILD)/logs/$$mode-limits.log | \
			grep -v -E '^ {8}'; \
	done
