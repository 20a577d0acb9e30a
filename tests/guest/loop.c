// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload with a known EL0 instruction count: "loop N [S]" retires
 * exactly 2*N instructions in spin() and makes S getppid() system calls
 * so that the kernel has work to count too.
 */
#include <stdlib.h>
#include <unistd.h>

static void __attribute__((noinline)) spin(unsigned long n)
{
	/* Two instructions per iteration: subs + b.ne. */
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	unsigned long s = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000;

	if (n)
		spin(n);
	while (s--)
		getppid();
	return 0;
}
