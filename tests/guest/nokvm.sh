# SPDX-License-Identifier: GPL-2.0-only
#
# A host with EL2 but KVM off (kvm-arm.mode=none): no guest ever runs,
# so guest-only counting (exclude_host) is refused with EOPNOTSUPP rather
# than accepted and left counting nothing; host-only counting
# (exclude_guest, perf's default for :u and :k) still opens.  Sourced by
# /init.
plan 3
[ ! -e /dev/kvm ]
result kvm_off $? "/dev/kvm $( [ -e /dev/kvm ] && echo present || echo absent)"
got=$(/bin/open_errno 0 1 0 0 H)
[ "$got" = EOPNOTSUPP ]; result exclude_host_refused $? "instructions, exclude_host: $got"
got=$(/bin/open_errno 0 1 0 0 G)
[ "$got" = 0 ]; result exclude_guest_opens $? "instructions, exclude_guest: $got"
