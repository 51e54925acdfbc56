#!/usr/bin/env bash
# test-boot.sh - the boot path for real: `vmtune install-boot` writes the profile and
# the unit into an initramfs tree; Debian's kernel boots it under qemu (TCG); its init
# runs the unit's ExecStart exactly as systemd would and prints /proc/sys/vm from the
# booted kernel on the console, where this test reads it.
. "$(dirname "$0")/../lib.sh"

for cmd in qemu-system-x86_64 cpio busybox apt-get dpkg-deb; do
	if ! command -v $cmd >/dev/null; then
		skip "boot test" "$cmd is not installed (make check installs it as root)"
		done_testing
		exit
	fi
done
BUSYBOX=$(command -v busybox)
if ! ldd "$BUSYBOX" 2>&1 | grep -q 'not a dynamic'; then
	skip "boot test" "busybox is not the static build (install busybox-static)"
	done_testing
	exit
fi

# Debian's kernel image, unpacked (not installed) once into build/
KDIR=$TOP/build/boot-kernel
if ! ls "$KDIR"/boot/vmlinuz-* >/dev/null 2>&1; then
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ { print $2; exit }')
	mkdir -p "$KDIR"
	(cd "$T" && apt-get download "$pkg" >/dev/null 2>&1) && dpkg-deb -x "$T"/linux-image-*.deb "$KDIR"
fi
KERNEL=$(ls "$KDIR"/boot/vmlinuz-* 2>/dev/null | head -1)
if [ -z "$KERNEL" ]; then
	skip "boot test" "could not fetch Debian's linux-image-amd64 (apt-get download)"
	done_testing
	exit
fi
pass "Debian kernel ${KERNEL##*/}"

# the initramfs: busybox, vmtune and its libraries at the path the unit names
I=$T/initramfs
mkdir -p "$I"/{bin,proc,sys,dev,tmp,var/lib,run}
cp "$BUSYBOX" "$I/bin/busybox"
for b in sh mount cat sed echo poweroff mkdir sleep; do ln -s busybox "$I/bin/$b"; done
BIN=$(readlink -f "$VMTUNE")
mkdir -p "$I$(dirname "$BIN")"
cp "$BIN" "$I$BIN"
for lib in $(ldd "$BIN" | awk '/=>/ { print $3 } /^\t\// { print $1 }'); do
	mkdir -p "$I$(dirname "$lib")"
	cp -L "$lib" "$I$lib"
done
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
(cd "$I" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$T/initrd.gz"

timeout 300 qemu-system-x86_64 -accel tcg -m 512 -smp 1 -nographic -no-reboot -kernel "$KERNEL" \
	-initrd "$T/initrd.gz" -append "console=ttyS0 panic=-1 quiet" </dev/null >"$T/console" 2>&1
tr -d '\r' <"$T/console" | grep -o 'VMTUNE-.*' >"$T/lines"
sed 's/^/# /' "$T/lines"
check "the kernel booted and ran init" grep -q '^VMTUNE-BEFORE' "$T/lines"
check "it booted with the kernel's own defaults" grep -q '^VMTUNE-BEFORE page-cluster=3 swappiness=60 dirty_ratio=20' "$T/lines"
check "vmtune apply --boot succeeded in the booted kernel" grep -q '^VMTUNE-EXIT 0' "$T/lines"
check "the booted kernel's /proc/sys/vm holds the profile's values" \
	grep -q '^VMTUNE-AFTER page-cluster=1 swappiness=17 dirty_ratio=33' "$T/lines"
done_testing
