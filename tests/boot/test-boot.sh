#!/usr/bin/env bash
# test-boot.sh - the boot path for real: `vmtune install-boot` writes the profile and
# the unit into an initramfs tree; Debian's kernel boots it under qemu (TCG); its init
# runs the unit's ExecStart exactly as systemd would and prints /proc/sys/vm from the
# booted kernel on the console, where this test reads it.
. "$(dirname "$0")/../lib.sh"

. "$(dirname "$0")/guest.sh"
guest_kernel "boot test"
pass "Debian kernel ${KERNEL##*/}"

# the initramfs: busybox, vmtune and its libraries at the path the unit names
I=$T/initramfs
guest_tree "$I"
cat >"$T/boot.yaml" <<'YAML'
vmtune: 1
name: boot-test
settings:
  vm.page-cluster: 1
  vm.swappiness: 17
  vm.dirty_ratio: 33
YAML
expect 0 "install-boot into the initramfs tree" --root "$I" install-boot "$T/boot.yaml"
check "the unit is there" test -f "$I/etc/systemd/system/vmtune.service"
cat >"$I/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
echo "VMTUNE-BEFORE page-cluster=$(cat /proc/sys/vm/page-cluster) swappiness=$(cat /proc/sys/vm/swappiness) dirty_ratio=$(cat /proc/sys/vm/dirty_ratio)"
# what systemd runs: the enabled unit's ExecStart
if [ -L /etc/systemd/system/multi-user.target.wants/vmtune.service ]; then
	cmd=$(sed -n 's/^ExecStart=//p' /etc/systemd/system/vmtune.service)
	$cmd
	echo "VMTUNE-EXIT $?"
fi
echo "VMTUNE-AFTER page-cluster=$(cat /proc/sys/vm/page-cluster) swappiness=$(cat /proc/sys/vm/swappiness) dirty_ratio=$(cat /proc/sys/vm/dirty_ratio)"
poweroff -f
INIT
chmod +x "$I/init"
guest_boot "$I" "$T/console" -m 512 -smp 1 -append "console=ttyS0 panic=-1 quiet"
tr -d '\r' <"$T/console" | grep -o 'VMTUNE-.*' >"$T/lines"
sed 's/^/# /' "$T/lines"
check "the kernel booted and ran init" grep -q '^VMTUNE-BEFORE' "$T/lines"
check "it booted with the kernel's own defaults" grep -q '^VMTUNE-BEFORE page-cluster=3 swappiness=60 dirty_ratio=20' "$T/lines"
check "vmtune apply --boot succeeded in the booted kernel" grep -q '^VMTUNE-EXIT 0' "$T/lines"
check "the booted kernel's /proc/sys/vm holds the profile's values" \
	grep -q '^VMTUNE-AFTER page-cluster=1 swappiness=17 dirty_ratio=33' "$T/lines"
done_testing
