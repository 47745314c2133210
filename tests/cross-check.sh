#!/bin/bash
# hdparm built for a 32-bit board (armhf, as Raspberry Pi OS) and a
# big-endian one (s390x) with the Makefile as a distribution's cross build
# calls it (CC=...), run under qemu-user: IDENTIFY decoding, every check
# of the test double (tests/commands.sh, ops.sh, scsi-, nvme- and epc-commands.sh) and, as
# root, --fibmap and -t --offset past 4 GiB must give what the native
# build gives.  A 32-bit build without 64-bit offsets must not compile.
# Usage: cross-check.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" / "skip NAME" lines.
set -u
H=$(realpath "$1")
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
# The source folders, as the Makefile lists them.
dirs=$(sed -n 's/^DIRS = //p' "$top/Makefile")

# arch gcc-triplet qemu
targets=("armhf arm-linux-gnueabihf qemu-arm" "s390x s390x-linux-gnu qemu-s390x")

# The checks of a suite of the test double, ok/FAIL lines only, sorted: the cross build must pass the same ones.
double_suite() { # SCRIPT HDPARM CC OUTDIR PRELOAD
	mkdir -p "$4"
	DOUBLE_COMPARE=1 CC=$3 PRELOAD=$5 bash "$top/tests/$1" "$2" "$4" 2>&1 | grep -E '^(ok|FAIL) ' | sed "s|$4|OUTDIR|g" | sort
}

# build_and_compare ARCH TRIPLET QEMU: the build, --Istdin and the double's suites (run in parallel per arch).
build_and_compare() {
	local arch=$1 triplet=$2 qemu=$3 build run bad n a b page suite
	if ! command -v "$triplet-gcc" > /dev/null || ! command -v "$qemu" > /dev/null; then
		echo "skip cross $arch: $triplet-gcc or $qemu missing (tests/setup installs them)"
		return
	fi
	build="$out/cross-$arch"
	rm -rf "$build"
	mkdir -p "$build"
	# The sources and the Makefile, folder by folder (no object built here).
	cp "$top/Makefile" "$build"/
	for d in $dirs; do
		mkdir -p "$build/$d" && cp "$top/$d"/*.[ch] "$build/$d"/
	done
	# The Makefile's own flags only: not a sanitizer build's, which make check's MAKEFLAGS would carry.
	if ! env -u MAKEFLAGS -u MAKELEVEL -u CFLAGS -u LDFLAGS -u CPPFLAGS make -s -C "$build" CC="$triplet-gcc" \
		> "$build/make.log" 2>&1 || [ -s "$build/make.log" ]; then
		echo "FAIL cross $arch: the Makefile's build with CC=$triplet-gcc (warnings count too)"
		head -n 20 "$build/make.log" | sed 's/^/  /'
		return
	fi
	echo "ok cross $arch: make CC=$triplet-gcc builds without a warning"
	# The sysroot of Debian's cross libc.
	run="$build/hdparm-run"
	printf '#!/bin/sh\nexec %s -L /usr/%s "%s" "$@"\n' "$qemu" "$triplet" "$build/hdparm" > "$run"
	chmod +x "$run"

	bad=0
	n=0
	for page in "$top"/tests/identify/pages/*.hex "$top"/tests/identify/real/*.hex; do
		n=$((n + 1))
		a=$("$H" --Istdin < "$page" 2>&1; echo "[exit $?]")
		b=$("$run" --Istdin < "$page" 2>&1; echo "[exit $?]")
		[ "$a" = "$b" ] || { bad=$((bad + 1)); echo "  differs: $page"; }
	done
	[ "$bad" = 0 ] && echo "ok cross $arch: --Istdin decodes $n pages as the native build" ||
		echo "FAIL cross $arch: --Istdin: $bad of $n pages decode differently"

	for suite in commands.sh ops.sh scsi-commands.sh scsi-format-tests.sh tcg-tests.sh nvme-commands.sh epc-commands.sh; do
		double_suite "$suite" "$run" "$triplet-gcc" "$build/${suite%.sh}" qemu > "$build/$arch-$suite.txt"
		if [ -s "$out/cross-native-$suite.txt" ] && cmp -s "$out/cross-native-$suite.txt" "$build/$arch-$suite.txt"; then
			echo "ok cross $arch: tests/$suite under the double: the same $(wc -l < "$out/cross-native-$suite.txt") results as native"
		else
			echo "FAIL cross $arch: tests/$suite under the double differs from native"
			diff "$out/cross-native-$suite.txt" "$build/$arch-$suite.txt" | head -n 10 | sed 's/^/  /'
		fi
	done
	if [ "$arch" = armhf ]; then
		# Without the Makefile's _FILE_OFFSET_BITS=64, a 32-bit off_t must stop the build.
		local incs=()
		for d in $dirs; do incs+=(-I"$build/$d"); done
		if "$triplet-gcc" -std=gnu11 -D_GNU_SOURCE "${incs[@]}" -c -o /dev/null "$build/ops/block/files.c" 2> "$build/narrow.log"; then
			echo "FAIL cross $arch: a build with a 32-bit off_t compiles"
		elif grep -q 'off_t must be 64 bits' "$build/narrow.log"; then
			echo "ok cross $arch: a build with a 32-bit off_t is refused by the compiler"
		else
			echo "FAIL cross $arch: a build with a 32-bit off_t fails, but not on the offset check"
			head -n 5 "$build/narrow.log" | sed 's/^/  /'
		fi
	fi
}

# past_4gib ARCH: --fibmap and -t --offset of the cross build against the native one, on a loop device.
past_4gib() {
	local arch=$1 build="$out/cross-$1" run="$out/cross-$1/hdparm-run" img mnt loop big rc rc_a rc_b
	[ -x "$build/hdparm" ] || return
	# Past 4 GiB: a sparse 6 GiB file (--fibmap) on a loop device, and reads at 4 GiB (-t --offset).
	if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null; then
		echo "skip cross $arch: --fibmap and -t --offset past 4 GiB need root and losetup"
		return
	fi
	img="$build/disk.img"
	truncate -s 6G "$img"
	mkfs.ext4 -q -F "$img" > /dev/null 2>&1
	mnt="$build/mnt"
	mkdir -p "$mnt"
	loop=$(losetup -f --show "$img") && mount "$loop" "$mnt" || { echo "FAIL cross $arch: mount a loop device"; return; }
	big="$mnt/big"
	truncate -s 5G "$big"
	dd if=/dev/urandom of="$big" bs=1M count=1 seek=4500 conv=notrunc status=none
	dd if=/dev/urandom of="$big" bs=1M count=1 conv=notrunc status=none
	sync
	"$H" --fibmap "$big" > "$build/fibmap-native" 2>&1
	rc_a=$?
	"$run" --fibmap "$big" > "$build/fibmap-$arch" 2>&1
	rc_b=$?
	if [ "$rc_a" = 0 ] && [ "$rc_b" = 0 ] && cmp -s "$build/fibmap-native" "$build/fibmap-$arch" &&
		grep -q '^ *4718592000 ' "$build/fibmap-native"; then
		echo "ok cross $arch: --fibmap of a 5 GiB file lists the extent at 4500 MiB, as native"
	else
		echo "FAIL cross $arch: --fibmap of a 5 GiB file (exit $rc_b, native $rc_a)"
		diff "$build/fibmap-native" "$build/fibmap-$arch" | head -n 6 | sed 's/^/  /'
	fi
	umount "$mnt"
	# -t --offset 4: the reads go to byte 4 GiB of the disk (strace), not to 0.
	if command -v strace > /dev/null; then
		strace -f -qq -e trace=pread64,lseek,_llseek -o "$build/offset.trace" "$run" -t --offset 4 "$loop" > "$build/offset.out" 2>&1
		rc=$?
		# qemu-user makes the guest's system calls itself: its trace shows where the reads went.
		if [ "$rc" = 0 ] && grep -q 'offset 4 GB' "$build/offset.out" &&
			grep -Eq '(lseek|_llseek)\([0-9]+, 4294967296,' "$build/offset.trace"; then
			echo "ok cross $arch: -t --offset 4 reads from byte 4294967296"
		else
			echo "FAIL cross $arch: -t --offset 4 reads from byte 4294967296 (exit $rc)"
			head -n 3 "$build/offset.out" | sed 's/^/  /'
			grep -E 'seek' "$build/offset.trace" | head -n 3 | sed 's/^/  /'
		fi
	else
		echo "skip cross $arch: -t --offset: no strace"
	fi
	losetup -d "$loop"
	rm -f "$img"
}

# CROSS_PART=builds: the builds and the double's suites only; CROSS_PART=past-4gib: only the loop
# device part, on the builds a run with CROSS_PART=builds left (make check runs the builds beside
# the other suites, and the part with a loop device and a mount after them, as it runs the other
# suites with loop devices: one at a time).
part=${CROSS_PART:-all}
if [ "$part" = past-4gib ]; then
	for t in "${targets[@]}"; do
		read -r arch triplet qemu <<< "$t"
		if [ -x "$out/cross-$arch/hdparm" ]; then
			past_4gib "$arch"
		else
			echo "FAIL cross $arch: no build to run past 4 GiB (CROSS_PART=builds did not build it)"
		fi
	done
	echo "end of suite"
	exit 0
fi

# The native build's results under the double, once; then the targets side by side (the
# machine has two cores), their lines in order.
for suite in commands.sh ops.sh scsi-commands.sh scsi-format-tests.sh tcg-tests.sh nvme-commands.sh epc-commands.sh; do
	double_suite "$suite" "$H" cc "$out/cross-native-${suite%.sh}" "" > "$out/cross-native-$suite.txt"
done
for t in "${targets[@]}"; do
	read -r arch triplet qemu <<< "$t"
	build_and_compare "$arch" "$triplet" "$qemu" > "$out/cross-$arch.lines" 2>&1 &
done
wait
for t in "${targets[@]}"; do
	read -r arch triplet qemu <<< "$t"
	cat "$out/cross-$arch.lines"
	[ "$part" = builds ] || past_4gib "$arch"
done
echo "end of suite"
