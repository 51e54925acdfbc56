# guest.sh - sourced by the boot suites: Debian's kernel (linux-image-amd64,
# unpacked once into build/boot-kernel, not installed) and an initramfs tree with
# static busybox, vmtune, the built workloads and their libraries at their own paths.
# guest_kernel sets KERNEL (skips the suite, saying why, and exits when it cannot; with
# CI=true that skip is a failure: CI must boot the guest); guest_tree DIR
# fills DIR; guest_modules DIR MOD... adds the modules with their dependencies, in
# load order, and writes DIR/modules.load; guest_boot DIR CONSOLE [QEMU ARGS...] packs
# DIR and boots it under TCG, the console into CONSOLE.

guest_kernel() {
	local cmd pkg
	for cmd in qemu-system-x86_64 cpio busybox apt-get dpkg-deb; do
		if ! command -v $cmd >/dev/null; then
			skip_live "$1" "$cmd is not installed (make check installs it as root)"
			done_testing
			exit
		fi
	done
	BUSYBOX=$(command -v busybox)
	if ! ldd "$BUSYBOX" 2>&1 | grep -q 'not a dynamic'; then
		skip_live "$1" "busybox is not the static build (install busybox-static)"
		done_testing
		exit
	fi
	KDIR=$TOP/build/boot-kernel
	local why=""
	if ! ls "$KDIR"/boot/vmlinuz-* >/dev/null 2>&1; then
		pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ { print $2; exit }')
		if [ -z "$pkg" ]; then
			why="apt-cache names no kernel package for linux-image-amd64"
		elif ! (cd "$T" && apt-get download "$pkg") >"$T/apt.log" 2>&1; then
			why="apt-get download $pkg failed: $(grep -v '^$' "$T/apt.log" | tail -1)"
		else # unpacked beside, then moved: a half-unpacked kernel is never taken for one
			rm -rf "$KDIR.new" && mkdir -p "$KDIR.new" && dpkg-deb -x "$T"/linux-image-*.deb "$KDIR.new" &&
				rm -rf "$KDIR" && mv "$KDIR.new" "$KDIR" || why="dpkg-deb could not unpack $pkg"
		fi
	fi
	KERNEL=$(ls "$KDIR"/boot/vmlinuz-* 2>/dev/null | head -1)
	if [ -z "$KERNEL" ]; then
		skip_live "$1" "could not fetch Debian's linux-image-amd64: ${why:-no vmlinuz in $KDIR/boot}"
		done_testing
		exit
	fi
	KVER=${KERNEL##*/vmlinuz-}
}

# guest_tree DIR [PROGRAM...]: busybox and its applets, vmtune and the programs
# (absolute paths, kept at those paths), each with its shared libraries
guest_tree() {
	local I=$1 b lib f
	shift
	mkdir -p "$I"/{bin,proc,sys,dev,tmp,var/lib,run}
	cp "$BUSYBOX" "$I/bin/busybox"
	for b in $("$BUSYBOX" --list); do [ -e "$I/bin/$b" ] || ln -s busybox "$I/bin/$b"; done
	for f in "$(readlink -f "$VMTUNE")" "$@"; do
		mkdir -p "$I$(dirname "$f")"
		cp "$f" "$I$f"
		for lib in $(ldd "$f" | awk '/=>/ { print $3 } /^\t\// { print $1 }'); do
			[ -e "$I$lib" ] && continue
			mkdir -p "$I$(dirname "$lib")"
			cp -L "$lib" "$I$lib"
		done
	done
}

# guest_modules DIR MOD...: the modules and what they need, in load order
guest_modules() {
	local I=$1 m f
	shift
	[ -f "$KDIR/lib/modules/$KVER/modules.dep" ] || /usr/sbin/depmod -b "$KDIR" "$KVER" || return 1
	mkdir -p "$I/modules"
	: >"$I/modules.load"
	for m in "$@"; do
		/usr/sbin/modprobe -d "$KDIR" -S "$KVER" --show-depends "$m" | awk '$1 == "insmod" { print $2 }' |
			while read -r f; do
				grep -qx "/modules/${f##*/}" "$I/modules.load" && continue
				cp "$f" "$I/modules/"
				echo "/modules/${f##*/}" >>"$I/modules.load"
			done
	done
}

guest_boot() {
	local I=$1 console=$2
	shift 2
	(cd "$I" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$T/initrd.gz"
	timeout 900 qemu-system-x86_64 -accel tcg -cpu max -nographic -no-reboot -kernel "$KERNEL" \
		-initrd "$T/initrd.gz" "$@" </dev/null >"$console" 2>&1
}
