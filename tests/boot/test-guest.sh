#!/usr/bin/env bash
# test-guest.sh - another kernel, another cgroup version: Debian's kernel boots under
# qemu (TCG) with the unified cgroup v2 hierarchy, debugfs without lockdown and an
# ext4 disk, and runs the live smoke suite (guest-smoke.sh) there as init. Each
# "GUEST ok|not ok" line of its console becomes a result here.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/guest.sh"

guest_kernel "guest smoke suite"
if ! command -v mkfs.ext4 >/dev/null || [ ! -x /usr/sbin/depmod ]; then
	skip_live "guest smoke suite" "mkfs.ext4 or depmod missing (e2fsprogs, kmod: make check installs them as root)"
	done_testing
	exit
fi
pass "Debian kernel ${KERNEL##*/}"
I=$T/initramfs
BIN=$(readlink -f "$VMTUNE")
guest_tree "$I" "$(dirname "$BIN")/swapbench"
guest_modules "$I" virtio_pci virtio_blk ext4 || fail "the kernel's modules (depmod)"
echo "$BIN" >"$I/vmtune.path"
cp "$TOP/tests/boot/guest-smoke.sh" "$I/init"
chmod +x "$I/init"
truncate -s 1G "$T/disk.img"
mkfs.ext4 -q -F "$T/disk.img"
guest_boot "$I" "$T/console" -m 1024 -smp 2 -drive file="$T/disk.img",if=virtio,format=raw \
	-append "console=ttyS0 panic=-1 quiet"
tr -d '\r' <"$T/console" | sed -n 's/^.*GUEST //p' >"$T/lines"
while IFS= read -r l; do
	case $l in
	"ok - "*) pass "guest: ${l#ok - }" ;;
	"not ok - "*) fail "guest: ${l#not ok - }" ;;
	*) echo "# $l" ;;
	esac
done <"$T/lines"
if ! grep -qx done "$T/lines"; then
	fail "the guest suite did not finish; the console's end:"
	tr -d '\r' <"$T/console" | tail -20 | sed 's/^/#   /'
fi
# every check guest-smoke.sh makes (none of them in a loop) printed its line
want=$(grep -cE '^\s*check ' "$TOP/tests/boot/guest-smoke.sh")
check "the guest printed a result for each of its $want checks ($(grep -cE '^(not )?ok - ' "$T/lines"))" \
	test "$(grep -cE '^(not )?ok - ' "$T/lines")" -ge "$want"
done_testing
