// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host PMU counters across guest entry and exit.
 *
 * The perf driver registers each enabled counter with its host-context
 * and guest-context type (kvm_pmu_counter_add()).  This file keeps, per
 * CPU, the counters that need switching and the values to switch to;
 * what goes in it is decided by the pure helpers of
 * <kvm/arm_pmu_switch_state.h>.
 *
 *  - VHE: the filters are rewritten when a vCPU is loaded and put, from
 *    the recorded values (never read back from the PMU).  A counter
 *    added while a vCPU is loaded, even from interrupt context, starts
 *    with its guest-context type.
 *  - nVHE and protected: the state is copied into the vCPU before each
 *    entry and applied at EL2 (hyp/include/hyp/pmu_switch.h).
 *
 * Counters are removed from the PMU overflow handler too, which is an
 * NMI under pseudo-NMI: the masks change only by atomic bit operations,
 * so no update is lost to a read-modify-write it interrupted, and on
 * nVHE a removal after the vCPU's copy is undone after the run
 * (__kvm_pmu_vcpu_events_done()).
 */
#include <linux/kvm_host.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/perf/arm_pmuv3_filter.h>

#include <asm/arm_pmuv3.h>
#include <kvm/arm_pmu_direct.h>
#include <kvm/arm_pmu_switch_state.h>
#include <kvm/arm_pmu_typer.h>

/* <kvm/arm_pmu_switch.h> names the driver's counter indices itself. */
static_assert(KVM_PMU_CYCLE_IDX == ARMV8_PMU_CYCLE_IDX);
static_assert(KVM_PMU_INSTR_IDX == ARMV8_PMU_INSTR_IDX);

struct kvm_pmu_cpu {
	struct kvm_pmu_events events;
	bool guest_loaded;	/* VHE: a vCPU is loaded on this CPU */
#ifdef CONFIG_KVM_ARM_PMU_HOSTILE_HOST_TEST
	bool hostile_run;	/* nVHE: this run's copy is a hostile test fill */
#endif
};

static DEFINE_PER_CPU(struct kvm_pmu_cpu, kvm_pmu_cpu);

/* Generations of the switch state, unique across CPUs (NMI-safe). */
static atomic64_t kvm_pmu_gen = ATOMIC64_INIT(0);

static void kvm_pmu_changed(struct kvm_pmu_events *ev)
{
	kvm_pmu_events_changed(ev, atomic64_inc_return(&kvm_pmu_gen));
}

static void kvm_pmu_write_typers(unsigned long mask, const u64 *typer)
{
	int idx;

	for_each_set_bit(idx, &mask, KVM_PMU_SWITCH_COUNTERS)
		armv8pmu_write_typer(idx, typer[idx]);
}

/*
 * Record a counter the driver is about to enable on this CPU (IRQs off).
 * @typer is set to the type to program now.
 *
 * Return: whether to enable the counter now.
 */
bool kvm_pmu_counter_add(int idx, u64 typer_host, u64 typer_guest, u64 *typer)
{
	struct kvm_pmu_cpu *cpu = this_cpu_ptr(&kvm_pmu_cpu);
	bool enable;

	if (!system_supports_pmuv3()) {
		*typer = typer_host;
		return true;
	}
	enable = kvm_pmu_events_add(&cpu->events, armv8pmu_running_mode(),
				    cpu->guest_loaded, idx, typer_host,
				    typer_guest, typer);
	kvm_pmu_changed(&cpu->events);
	return enable;
}

/*
 * Forget a counter the driver has just disabled on this CPU: with IRQs
 * off, or from the overflow handler (maybe an NMI).
 */
void kvm_pmu_counter_del(int idx)
{
	struct kvm_pmu_events *ev = this_cpu_ptr(&kvm_pmu_cpu.events);

	kvm_pmu_events_del(ev, idx);
	kvm_pmu_changed(ev);
}

/* The PMU of this CPU was reset (boot, hotplug): no counter is left. */
void kvm_pmu_cpu_reset(void)
{
	struct kvm_pmu_events *ev = this_cpu_ptr(&kvm_pmu_cpu.events);

	kvm_pmu_events_reset(ev);
	kvm_pmu_changed(ev);
}

#ifdef CONFIG_KVM_ARM_PMU_HOSTILE_HOST_TEST
#include <linux/debugfs.h>
#include <linux/prandom.h>

/* Non-zero: hand every run hostile switch state from this seed. */
static u64 kvm_pmu_hostile_seed;

/*
 * What a hostile host could put there: every field random, the masks
 * including counters that do not exist, the types reserved bits; and,
 * for a direct vCPU, what kvm_pmu_direct_hostile() does.  Where that is
 * all of the vCPU's test (a non-protected VM's filter address), its
 * switch state is the real one: the VM is the host's own, whose counts
 * random switch state may rightly spoil, and they are what the test
 * checks.
 */
static bool kvm_pmu_hostile_fill(struct kvm_pmu_cpu *cpu, struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_events *ev = &vcpu->arch.pmu.events;
	struct rnd_state rnd;
	u64 seed = READ_ONCE(kvm_pmu_hostile_seed);

	cpu->hostile_run = false;
	if (!seed)
		return false;
	prandom_seed_state(&rnd, seed + get_cycles());
	if (kvm_pmu_direct_hostile(vcpu, prandom_u32_state(&rnd)))
		return false;
	prandom_bytes_state(&rnd, ev, sizeof(*ev));
	cpu->hostile_run = true;
	return true;
}

static bool kvm_pmu_hostile_run(struct kvm_pmu_cpu *cpu)
{
	return cpu->hostile_run;
}

static int __init kvm_pmu_hostile_init(void)
{
	debugfs_create_u64("kvm_pmu_hostile_host", 0600, NULL,
			   &kvm_pmu_hostile_seed);
	return 0;
}
late_initcall(kvm_pmu_hostile_init);
#else
static bool kvm_pmu_hostile_fill(struct kvm_pmu_cpu *cpu, struct kvm_vcpu *vcpu)
{
	return false;
}

static bool kvm_pmu_hostile_run(struct kvm_pmu_cpu *cpu)
{
	return false;
}
#endif

/*
 * nVHE/protected: give the vCPU this CPU's switch state before entry.
 * Called with IRQs disabled, so no counter can come meanwhile.  One may
 * go, from an NMI (a throttle): the copy then still switches it, and
 * the exit enables it again; __kvm_pmu_vcpu_events_done() disables it.
 */
void __kvm_pmu_update_vcpu_events(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_cpu *cpu = this_cpu_ptr(&kvm_pmu_cpu);

	if (!system_supports_pmuv3())
		return;
	if (!kvm_pmu_hostile_fill(cpu, vcpu))
		kvm_pmu_events_copy(&vcpu->arch.pmu.events, &cpu->events);
}

/*
 * nVHE/protected, after the run with IRQs still disabled: disable the
 * counters the exit enabled for events an NMI stopped since the copy
 * (kvm_pmu_events_stale()), before the driver may give their index to
 * another event.  Not after a hostile test fill, whose random masks name
 * counters that host perf owns without switching.
 */
void __kvm_pmu_vcpu_events_done(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_cpu *cpu = this_cpu_ptr(&kvm_pmu_cpu);
	unsigned long stale;

	if (!system_supports_pmuv3() || kvm_pmu_hostile_run(cpu))
		return;
	stale = kvm_pmu_events_stale(&vcpu->arch.pmu.events, &cpu->events);
	if (unlikely(stale))
		write_pmcntenclr(stale);
}

/*
 * VHE: switch this CPU's counters to guest (or host) context at vCPU
 * load (or put), the only two places guest_loaded changes.  IRQs are
 * masked so that the driver cannot add a counter halfway through.
 */
static void kvm_pmu_vhe_switch(bool to_guest)
{
	struct kvm_pmu_cpu *cpu;
	unsigned long flags, mask;

	local_irq_save(flags);
	cpu = this_cpu_ptr(&kvm_pmu_cpu);
	cpu->guest_loaded = to_guest;
	mask = READ_ONCE(cpu->events.typer_switch);
	if (mask)
		kvm_pmu_write_typers(mask, to_guest ? cpu->events.typer_guest :
						      cpu->events.typer_host);
	local_irq_restore(flags);
}

/* vcpu_load; a direct-PMU vCPU's counters after the host's switch */
void kvm_vcpu_pmu_restore_guest(struct kvm_vcpu *vcpu)
{
	if (has_vhe() && system_supports_pmuv3())
		kvm_pmu_vhe_switch(true);
	kvm_pmu_direct_load(vcpu);
}

/* vcpu_put: the reverse */
void kvm_vcpu_pmu_restore_host(struct kvm_vcpu *vcpu)
{
	kvm_pmu_direct_put(vcpu);
	if (has_vhe() && system_supports_pmuv3())
		kvm_pmu_vhe_switch(false);
}

/*
 * VHE: while a vCPU is loaded, PMUSERENR_EL0 holds the guest's value and
 * the host's is restored at put; a host change meanwhile goes into the
 * saved host context instead.  IRQs must be off, so that the vCPU
 * cannot be put between the test and the write.
 *
 * Return: true if KVM took the value.
 */
bool kvm_set_pmuserenr(u64 val)
{
	struct kvm_vcpu *vcpu;

	if (!system_supports_pmuv3() || !has_vhe())
		return false;

	lockdep_assert_irqs_disabled();
	vcpu = kvm_get_running_vcpu();
	if (!vcpu || !vcpu_get_flag(vcpu, PMUSERENR_ON_CPU))
		return false;

	ctxt_sys_reg(host_data_ptr(host_ctxt), PMUSERENR_EL0) = val;
	return true;
}
