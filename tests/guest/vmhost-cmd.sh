#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The host's side of a Linux guest's requests (tests/guest/vmhost.c runs
# this for every "@@HOST REQ ARGS..." line the guest prints; the first
# line printed here is the guest's answer).  VMHOST_PID is the VMM,
# VMHOST_VCPU its vCPU thread.  Requests:
#
#   stat-start NAME EVENTS     perf stat EVENTS on the vCPU thread, from now
#   stat-stop NAME             -> the counts, comma-separated, in order
#   record-start NAME EVENT    perf record -c 20000 EVENT on the vCPU thread
#   record-start NAME kvm      perf kvm --guest record, guest kernel symbols
#                              from the guest Image's System.map
#   record-stop NAME           -> "samples=N guest=G guest_user=U inloop=M":
#                              G of the N samples in the guest, U at its
#                              EL0, M in its /bin/loop spin(); for kvm,
#                              "samples=N top=SYMBOL pct=P"
#   exits                      -> KVM's exit count, every vCPU (debugfs;
#                              "count" answers it too, with host counters)
#   events-check CODES         -> "ok" or "mismatch ...": CODES (the
#                              guest's events/, comma-separated) against
#                              this host's events/ that the vPMU's
#                              PMCEID0/1 (vpmu_pmceid) say are implemented
#
# perf starts with its events disabled (-D -1) and is enabled over its
# control FIFO, and the answer waits for perf's ack: the guest's work
# runs only once the host is measuring.
set -u
D=/tmp/vmhost
mkdir -p $D
req=$1; shift

# Start perf in the background on the vCPU thread, events disabled, and
# enable them.  A holder keeps both FIFOs open, so that perf's opens
# neither block nor fail (it opens the ack FIFO write-only, non-blocking).
perf_start() {	# name perf-args...
	n=$1; shift
	rm -f $D/$n.ctl $D/$n.ack $D/$n.rc $D/$n.pid
	mkfifo $D/$n.ctl $D/$n.ack
	(exec 3<>$D/$n.ctl 4<>$D/$n.ack; exec sleep 100000) >/dev/null 2>&1 &
	echo $! > $D/$n.holder
	("$@" -D -1 --control fifo:$D/$n.ctl,$D/$n.ack >$D/$n.out 2>&1 &
	 echo $! > $D/$n.pid
	 wait $!
	 echo $? > $D/$n.rc) </dev/null >/dev/null 2>&1 &
	while [ ! -s $D/$n.pid ]; do sleep 0.1; done
	echo enable > $D/$n.ctl
	read -r a < $D/$n.ack
	echo "started $n ($a)"
}

# Disable perf's events, stop it (SIGINT: perf stat knows no "stop"
# command), and wait for it to write its output.
perf_stop() {	# name
	n=$1
	echo disable > $D/$n.ctl
	read -r a < $D/$n.ack
	kill -INT "$(cat $D/$n.pid)"
	while [ ! -e $D/$n.rc ]; do sleep 0.1; done
	kill "$(cat $D/$n.holder)" 2>/dev/null
}

# A recording's samples, from perf's raw dump (perf script leaves out
# guest samples): how many, how many in the guest (cpumode 4 or 5,
# PERF_RECORD_MISC_GUEST_KERNEL/USER), how many at guest EL0, and how
# many of those in the guest's spin() of /bin/loop (tests/loop.spin:
# "start end", from mk/initramfs.sh; the guest runs the same binary).
samples_in_spin() {	# perf.data
	read -r lo hi < /tests/loop.spin
	perf report -D -i "$1" 2>/dev/null |
	sed -n 's/.*PERF_RECORD_SAMPLE(IP, \(0x[0-9a-f]*\)): [0-9]*\/[0-9]*: \(0x[0-9a-f]*\) .*/\1 \2/p' | {
		n=0 g=0 gu=0 m=0
		while read -r misc ip; do
			n=$((n + 1))
			[ $((misc & 7)) -ge 4 ] && g=$((g + 1))
			[ $((misc & 7)) = 5 ] || continue
			gu=$((gu + 1))
			[ $((ip)) -ge $((0x$lo)) ] && [ $((ip)) -lt $((0x$hi)) ] &&
				m=$((m + 1))
		done
		echo "samples=$n guest=$g guest_user=$gu inloop=$m"
	}
}

# The top symbol of a perf kvm --guest recording, by the guest kernel's
# symbols (/guest/System.map, beside /guest/Image).
kvm_top_symbol() {	# perf.data
	n=$(perf report -D -i "$1" 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE(')
	top=$(perf kvm --guest --guestkallsyms=/guest/System.map \
		--guestmodules=$D/modules report -i "$1" --stdio --sort sym \
		2>/dev/null | grep '%' | grep -v '^#' | head -1)
	echo "samples=$n top=$(echo "$top" | awk '{ print $NF }') pct=$(echo "$top" | awk '{ print $1 }')"
}

# The guest's events/ (CODES) against what it should list: this host's
# events/ that the vPMU's PMCEID0/1 mark implemented (bits 0-31 of each
# are events 0x00-0x3f, bits 32-63 events 0x4000-0x403f).
events_check() {	# codes
	set -- $(/bin/vpmu_pmceid | sed -n 's/pmceid0=\(0x[0-9a-f]*\) pmceid1=\(0x[0-9a-f]*\)/\1 \2/p')
	[ $# = 2 ] || { echo "vpmu_pmceid failed"; return; }
	p0=$1 p1=$2
	pmu=$(ls -d /sys/bus/event_source/devices/armv8_pmuv3* | head -1)
	want=$(for f in $pmu/events/*; do
		e=$(sed -n 's/^event=\(0x[0-9a-f]*\)$/\1/p' "$f")
		e=$((e))
		if [ $e -lt 64 ]; then
			word=$((e < 32 ? p0 : p1)) bit=$((e % 32))
		elif [ $e -ge $((0x4000)) ] && [ $e -lt $((0x4040)) ]; then
			word=$(((e & 0x3f) < 32 ? p0 : p1)) bit=$((e % 32 + 32))
		else
			continue	# PMCEID has no bit for it: never listed
		fi
		[ $(((word >> bit) & 1)) = 1 ] && printf '0x%04x\n' $e
	done | sort -u | paste -sd, -)
	if [ "$want" = "$CODES" ]; then
		echo ok
	else
		echo "mismatch: guest $CODES, want $want (PMCEID0=$p0 PMCEID1=$p1)"
	fi
}

case "$req" in
stat-start)
	perf_start "$1" perf stat -x, -e "$2" -t "$VMHOST_VCPU" -o $D/$1.csv ;;
stat-stop)
	perf_stop "$1"
	grep -v '^#' $D/$1.csv | grep -v '^$' | cut -d, -f1 | paste -sd, - ;;
record-start)
	if [ "$2" = kvm ]; then
		: > $D/modules
		perf_start "$1" perf kvm --guest --guestkallsyms=/guest/System.map \
			--guestmodules=$D/modules record -c 20000 \
			-t "$VMHOST_VCPU" -o $D/$1.data
	else
		perf_start "$1" perf record -e "$2" -c 20000 \
			-t "$VMHOST_VCPU" -o $D/$1.data
	fi ;;
record-stop)
	perf_stop "$1"
	case "$1" in
	kvm) kvm_top_symbol $D/$1.data ;;
	*) samples_in_spin $D/$1.data ;;
	esac ;;
events-check)
	CODES=$1 events_check ;;
exits)
	cat /sys/kernel/debug/kvm/exits ;;
*)
	echo "unknown request $req" ;;
esac
