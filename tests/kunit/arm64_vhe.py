# SPDX-License-Identifier: GPL-2.0-only
# kunit.py --qemu_config for the PMUv3 suites: QEMU virt with
# virtualization=on, GICv3, and -icount so that the
# emulated PMU counts instructions (INST_RETIRED) exactly.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='arm64',
			   kconfig='''
CONFIG_SERIAL_AMBA_PL011=y
CONFIG_SERIAL_AMBA_PL011_CONSOLE=y''',
			   qemu_arch='aarch64',
			   kernel_path='arch/arm64/boot/Image',
			   kernel_command_line='console=ttyAMA0 panic_on_warn=1',
			   extra_qemu_params=['-machine', 'virt,virtualization=on,gic-version=3',
					      '-cpu', 'max', '-icount', 'shift=0',
					      '-nic', 'none'])
