#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot the built kernel with the test initramfs under QEMU and run one
# guest job.  Usage: tests/boot.sh MODE JOB [LOG]
#   MODE: vhe | nvhe | protected | el1 | a57 | acpi, optionally with -debug,
#         -nmi or -up (a57: nVHE on -cpu cortex-a57, a PMUv3 for Armv8.0
#         with 32-bit event counters, where long=1 uses chained pairs;
#         -debug: the kernel-debug build, with lockdep, in the same host
#         mode; -nmi: the same, with the PMU interrupt as a pseudo-NMI;
#         -up: one CPU, where QEMU's PMU counts are exact, see README;
#         acpi: VHE booted by UEFI firmware with ACPI tables and no DT)
# The guest prints "@@TEST name PASS|FAIL detail" lines and "@@DONE"; the
# console log is kept in LOG.  Exits 1 on timeout, or on any kernel
# error report tests/scan-console.sh finds in the log.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-7.3}
BUILD=${BUILD:-$TOP/build/$BASE}
# QEMU=ours (the default): QEMU 10.0.2 with the patches of qemu/patches/
# (mk/qemu.sh); QEMU=debian: Debian's build of it, as mk/deps.sh unpacked
# it.  Both before the system's QEMU 7.2.
QEMU=${QEMU:-ours}
case "$QEMU" in
ours)	PATH=$TOP/build/qemu/bin:$TOP/build/dl/bin:$PATH
	[ -x "$TOP/build/qemu/bin/qemu-system-aarch64" ] ||
		{ echo "boot.sh: no build/qemu/bin/qemu-system-aarch64 (make deps)" >&2; exit 2; } ;;
debian)	PATH=$TOP/build/dl/bin:$PATH ;;
*)	echo "boot.sh: QEMU=$QEMU: ours or debian" >&2; exit 2 ;;
esac
MODE=$1
JOB=$2
LOG=${3:-$BUILD/logs/$MODE-$JOB.log}
case "$MODE" in
*-debug|*-nmi) KERNEL=${KERNEL:-$BUILD/kernel-debug/arch/arm64/boot/Image} ;;
*) KERNEL=${KERNEL:-$BUILD/kernel/arch/arm64/boot/Image} ;;
esac
# Jobs that boot a Linux guest need QEMU and the guest's kernel too.
case ",$JOB," in
*,linux_guest,*|*,vm_bench,*|*,demo,*) INITRD=${INITRD:-$BUILD/initramfs-vm.cpio} ;;
*) INITRD=${INITRD:-$BUILD/initramfs.cpio} ;;
esac
# Protected boots pay the hypervisor's ~12,600 EL2 instructions an exit
# (about 250 s a boot on 2 cores; 300 s ran out with a build beside it),
# the debug one under lockdep too; the Linux-guest boots run two guests.
# The two-CPU protected boot runs the base selftests twice (the second
# time with kvm.pmu_direct=1): 600 s ran out beside another boot.
case "$MODE" in
protected-debug|protected) TIMEOUT=${BOOT_TIMEOUT:-900} ;;
# The -up boots run four Linux guests (five with the direct PMU's).
*-up) TIMEOUT=${BOOT_TIMEOUT:-900} ;;
protected*) TIMEOUT=${BOOT_TIMEOUT:-600} ;;
*) TIMEOUT=${BOOT_TIMEOUT:-300} ;;
esac
CPU=${QEMU_CPU:-max}

virt=on
extra=""
firmware=""
SMP=${QEMU_SMP:-2}
case "$MODE" in *-up) SMP=1 ;; esac
# -nmi: the debug kernel with the PMU interrupt as a pseudo-NMI.
case "$MODE" in *-nmi) extra_nmi="irqchip.gicv3_pseudo_nmi=1" ;; *) extra_nmi="" ;; esac
case "${MODE%-*}" in
vhe) ;;
nvhe) extra="kvm-arm.mode=nvhe" ;;
nokvm) extra="kvm-arm.mode=none" ;;	# EL2 (VHE), KVM off
protected) extra="kvm-arm.mode=protected" ;;
el1) virt=off ;;
acpi)	# VHE under UEFI (Debian's AAVMF) with ACPI tables, no DT
	extra="acpi=force"
	mkdir -p "$BUILD"
	[ -s "$BUILD/AAVMF_VARS.fd" ] || cp /usr/share/AAVMF/AAVMF_VARS.fd "$BUILD/"
	firmware="-drive if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/AAVMF/AAVMF_CODE.fd
		  -drive if=pflash,format=raw,unit=1,file=$BUILD/AAVMF_VARS.fd" ;;
a57) extra="kvm-arm.mode=nvhe"; CPU=cortex-a57 ;;
*) echo "boot.sh: unknown mode $MODE" >&2; exit 2 ;;
esac

mkdir -p "$(dirname "$LOG")"
timeout --foreground -k 10 "$TIMEOUT" qemu-system-aarch64 \
	-M "virt,virtualization=$virt,gic-version=3" -cpu "$CPU" \
	-icount shift=0 -smp "$SMP" -m 2G -nographic -no-reboot -nic none $firmware \
	-kernel "$KERNEL" -initrd "$INITRD" \
	-append "console=ttyAMA0 panic=-1 panic_on_warn=1 oops=panic rdinit=/init pmuv3.job=$JOB pmuv3.mode=$MODE pmuv3.qemu=$QEMU $extra $extra_nmi ${BOOT_APPEND:-}" \
	</dev/null >"$LOG" 2>&1
rc=$?
tr -d '\r' < "$LOG" > "$LOG.tmp" && mv "$LOG.tmp" "$LOG"

if [ $rc = 124 ] || [ $rc = 137 ]; then
	echo "boot.sh: $MODE/$JOB: timed out after ${TIMEOUT}s (log: $LOG)" >&2
	exit 1
fi
if ! errors=$("$TOP/tests/scan-console.sh" "$LOG"); then
	echo "boot.sh: $MODE/$JOB: kernel error (log: $LOG):" >&2
	echo "$errors" >&2
	exit 1
fi
if ! grep -q '^@@DONE' "$LOG"; then
	echo "boot.sh: $MODE/$JOB: guest did not finish (log: $LOG)" >&2
	tail -5 "$LOG" >&2
	exit 1
fi
exit 0
