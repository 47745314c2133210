#!/bin/bash
# The partition guard of the sector commands, with /sys and without it (a
# mount namespace where /sys is unmounted, as in a chroot or a rescue
# shell).  A loop device with one partition at sector 2048 stands for the
# disk; the SG_IO test double answers for the drive behind it, records the
# commands sent, and (SHIM_GEO_START) answers HDIO_GETGEO as sd does.
# Usage: partition-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME".
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
shim="$out/sgio-shim.so"
page="$top/tests/identify/pages/crafted-security-big.hex"
img="$out/part.img"
mnt="$out/part.mnt"

suite="partition"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

for tool in sfdisk partx mkfs.ext2 unshare; do
	command -v "$tool" > /dev/null || { echo "skip partition: no $tool (tests/setup installs it)"; echo "end of suite"; exit 0; }
done
rm -f "$img"
${CC:-cc} -shared -fPIC -O2 -o "$shim" "$top/tests/tools/sgio-shim.c" -ldl || { bad "build the test double"; exit 0; }
truncate -s 64M "$img"
printf 'label: dos\nstart=2048, size=40960, type=83\n' | sfdisk -q "$img" || { bad "sfdisk"; exit 0; }
disk=$(losetup -f --show -P "$img") || { bad "losetup"; exit 0; }
trap 'umount "$mnt" 2>/dev/null; losetup -d "$disk"' EXIT
trap 'exit 1' INT TERM HUP
part=${disk}p1
name=$(basename "$disk")
partx -a "$disk" 2>/dev/null
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -e "/sys/block/$name/${name}p1/dev" ] && break; sleep 0.2; done
# No udev here to make the node: make it from what sysfs says.
[ -b "$part" ] || mknod "$part" b $(tr ':' ' ' < "/sys/block/$name/${name}p1/dev")
truncate -s 1024 "$out/part-fw.bin"
printf '0:8\n' > "$out/part-ranges"

# hd ENV... -- ARGS...: hdparm on the double, /sys present unless NOSYS=1.
hd() {
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$out/part.log"
	local cmd=(env SHIM_LOG="$out/part.log" SHIM_IDENTIFY="$page" "${envs[@]}" LD_PRELOAD="$shim"
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$H" "$@")
	if [ "${NOSYS:-}" = 1 ]; then
		unshare -m sh -c 'umount -l /sys && exec "$@"' sh "${cmd[@]}" < "$out/part-ranges" > "$out/part.out" 2> "$out/part.err"
	else
		"${cmd[@]}" < "$out/part-ranges" > "$out/part.out" 2> "$out/part.err"
	fi
	rc=$?
	touch "$out/part.log"
}

# Only IDENTIFY (or nothing) reached the drive.
nothing_sent() {
	! grep -v ' ec 00$' "$out/part.log" | grep -q .
}

# refused NAME TEXT: exit 22, TEXT on stderr, no command but IDENTIFY sent.
refused() {
	if [ "$rc" = 22 ] && grep -qF -- "$2" "$out/part.err" && nothing_sent; then
		ok "$1"
	else
		bad "$1" "exit $rc" "stderr: $(head -3 "$out/part.err")" "sent: $(tr '\n' ';' < "$out/part.log")"
	fi
}

guarded=("--write-sector 100 --yes-i-know-what-i-am-doing"
	"--repair-sector 100 --yes-i-know-what-i-am-doing"
	"--read-sector 100"
	"--make-bad-sector f100 --yes-i-know-what-i-am-doing"
	"--trim-sector-ranges 100:8 --please-destroy-my-drive"
	"--trim-sector-ranges-stdin --please-destroy-my-drive"
	"--fwdownload $out/part-fw.bin --yes-i-know-what-i-am-doing --please-destroy-my-drive"
	"--set-sector-size 4096 --please-destroy-my-drive")
for args in "${guarded[@]}"; do
	label=${args%% *}
	# shellcheck disable=SC2086
	hd -- $args "$part"
	case $label in
	--fwdownload) refused "$label on a partition, with /sys" "requires the raw device" ;;
	--set-sector-size | --trim*) refused "$label on a partition, with /sys" "should be 2048" ;;
	*) refused "$label on a partition, with /sys" "should be 2148" ;;
	esac
	# shellcheck disable=SC2086
	NOSYS=1 hd -- $args "$part"
	refused "$label on a partition, no /sys, no HDIO_GETGEO" "cannot tell whether this is a partition"
	# shellcheck disable=SC2086
	NOSYS=1 hd SHIM_GEO_START=2048 -- $args "$part"
	case $label in
	--fwdownload) refused "$label on a partition, no /sys, start from HDIO_GETGEO" "requires the raw device" ;;
	--set-sector-size | --trim*) refused "$label on a partition, no /sys, start from HDIO_GETGEO" "should be 2048" ;;
	*) refused "$label on a partition, no /sys, start from HDIO_GETGEO" "should be 2148" ;;
	esac
done

# The whole disk, without /sys: HDIO_GETGEO says it starts at 0, so the write goes out.
NOSYS=1 hd SHIM_GEO_START=0 -- --write-sector 100 --yes-i-know-what-i-am-doing "$disk"
if [ "$rc" = 0 ] && grep -q '^cdb: 85 0a 06 00 00 00 01 00 64 00 00 00 00 40 30 00$' "$out/part.log"; then
	ok "--write-sector on the whole disk, no /sys: sector 100 written"
else
	bad "--write-sector on the whole disk, no /sys: sector 100 written" "exit $rc" "$(cat "$out/part.err")"
fi

# --fibmap: the same LBAs without /sys as with it.
if mkfs.ext2 -q -F "$part" > /dev/null 2>&1 && mkdir -p "$mnt" && mount "$part" "$mnt" 2>/dev/null; then
	head -c 200000 /dev/urandom > "$mnt/file"
	sync
	hd -- --fibmap "$mnt/file"
	cp "$out/part.out" "$out/fibmap-sys.out"
	if [ "$rc" = 0 ] && grep -q 'begins at LBA 2048;' "$out/fibmap-sys.out"; then
		ok "--fibmap with /sys: the filesystem begins at LBA 2048"
	else
		bad "--fibmap with /sys: the filesystem begins at LBA 2048" "exit $rc" "$(cat "$out/part.out" "$out/part.err")"
	fi
	NOSYS=1 hd SHIM_GEO_START=2048 -- --fibmap "$mnt/file"
	if [ "$rc" = 0 ] && cmp -s "$out/fibmap-sys.out" "$out/part.out"; then
		ok "--fibmap without /sys prints the same LBAs"
	else
		bad "--fibmap without /sys prints the same LBAs" "exit $rc" "$(diff "$out/fibmap-sys.out" "$out/part.out")" "$(cat "$out/part.err")"
	fi
	NOSYS=1 hd -- --fibmap "$mnt/file"
	if [ "$rc" = 22 ] && grep -q 'cannot tell whether this is a partition' "$out/part.err" && ! grep -q 'begin_LBA' "$out/part.out"; then
		ok "--fibmap without /sys or HDIO_GETGEO: refused, no LBAs printed"
	else
		bad "--fibmap without /sys or HDIO_GETGEO: refused, no LBAs printed" "exit $rc" "$(cat "$out/part.out" "$out/part.err")"
	fi
	umount "$mnt"
else
	bad "--fibmap: mkfs.ext2 and mount of the partition"
fi
# --- a command that erases the whole disk is refused while the kernel holds the disk ---
# The disk's exclusive open fails with EBUSY while a partition of it is mounted or is swap
# (the kernel's claim on a block device); the message names the holder; nothing is sent.
erasers=("--yes-i-know-what-i-am-doing --sanitize-block-erase"
	"--security-erase pw"
	"--yes-i-know-what-i-am-doing --dco-restore"
	"--set-sector-size 4096 --please-destroy-my-drive"
	"--yes-i-know-what-i-am-doing --tcg-psid-revert ABCDEFGHIJKLMNOPQRSTUVWXYZ012345")
in_use() { # NAME TEXT: exit 16 (EBUSY), TEXT on stderr, nothing sent but IDENTIFY
	if [ "$rc" = 16 ] && grep -qF -- "$2" "$out/part.err" && nothing_sent; then
		ok "$1"
	else
		bad "$1" "exit $rc" "stderr: $(head -3 "$out/part.err")" "sent: $(tr '\n' ';' < "$out/part.log")"
	fi
}
if mount "$part" "$mnt" 2> /dev/null; then
	for args in "${erasers[@]}"; do
		# shellcheck disable=SC2086
		hd -- $args "$disk"
		label=${args#--yes-i-know-what-i-am-doing }
		in_use "${label%% *} with a partition mounted: refused" "is in use ($part mounted on $mnt): refused, nothing sent"
	done
	umount "$mnt"
else
	bad "mount the partition for the in-use checks"
fi
if mkswap -q "$part" > /dev/null 2>&1 && swapon "$part" 2> /dev/null; then
	hd -- --yes-i-know-what-i-am-doing --sanitize-crypto-scramble "$disk"
	in_use "--sanitize-crypto-scramble with swap on a partition: refused" "is in use ($part is swap)"
	swapoff "$part"
else
	echo "skip partition: swap on a loop partition (mkswap or swapon refused here)"
fi
# A partition node: an erase works on the whole disk, so it is refused there.
hd -- --yes-i-know-what-i-am-doing --sanitize-block-erase "$part"
refused "--sanitize-block-erase on a partition: refused" "should be 2048"
hd SHIM_TCG="$top/tests/tcg/crucial-mx500.txt" -- --yes-i-know-what-i-am-doing --tcg-psid-revert ABCDEFGHIJKLMNOPQRSTUVWXYZ012345 "$part"
refused "--tcg-psid-revert on a partition: refused" "should be 2048"
# Unheld, the erase goes out: SANITIZE (B4h), BLOCK ERASE EXT (0012h) in FEATURE.
hd -- --yes-i-know-what-i-am-doing --sanitize-block-erase "$disk"
if grep -q ' b4 00$' "$out/part.log" && ! grep -q 'in use' "$out/part.err"; then
	ok "--sanitize-block-erase on an unheld disk: SANITIZE sent"
else
	bad "--sanitize-block-erase on an unheld disk: SANITIZE sent" "exit $rc" "$(head -3 "$out/part.err")" "sent: $(tr '\n' ';' < "$out/part.log")"
fi
# The double's disks have numbers no host holds (tests/tools/sgio-shim.c): a host whose sysfs has
# one of them, here a partition made up in a mount namespace, does not answer for the double's disk
# (a host's 259:0, an NVMe namespace or a loop partition, did).  A number a host may hold ends the run.
host_has_double_number() { # MAJ:MIN ARGS...: hdparm on the double's 8:900000, the host's MAJ:MIN a partition
	local num=$1
	shift
	rm -f "$out/part.log"
	# shellcheck disable=SC2016
	unshare -m sh -c 'mount -t tmpfs none /sys/dev/block && mkdir "/sys/dev/block/$1" &&
		echo 1 > "/sys/dev/block/$1/partition" && echo 2048 > "/sys/dev/block/$1/start" && shift && exec "$@"' \
		sh "$num" env SHIM_LOG="$out/part.log" SHIM_IDENTIFY="$page" SHIM_BLOCK_DEV=8:900000 LD_PRELOAD="$shim" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$H" "$@" > "$out/part.out" 2> "$out/part.err"
	rc=$?
	touch "$out/part.log"
}
host_has_double_number 8:900000 --read-sector 100 /dev/null
if [ "$rc" = 0 ] && grep -q '^cdb: 85 08 0e 00 00 00 01 00 64 00 00 00 00 40 20 00$' "$out/part.log"; then
	ok "the host's sysfs holds the double's number 8:900000 as a partition: the double's disk is still whole"
else
	bad "the host's sysfs holds the double's number 8:900000 as a partition: the double's disk is still whole" \
		"exit $rc" "stderr: $(head -3 "$out/part.err")" "sent: $(tr '\n' ';' < "$out/part.log")"
fi
rm -f "$out/part.log"
env SHIM_LOG="$out/part.log" SHIM_IDENTIFY="$page" SHIM_BLOCK_DEV=259:0 LD_PRELOAD="$shim" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$H" --read-sector 100 /dev/null \
	> "$out/part.out" 2> "$out/part.err"
rc=$?
if [ "$rc" = 121 ] && grep -q 'SHIM_BLOCK_DEV=259:0 is a number a host may hold' "$out/part.err" && ! [ -s "$out/part.log" ]; then
	ok "the double given 259:0, a number a host may hold: the run ends, nothing sent"
else
	bad "the double given 259:0, a number a host may hold: the run ends, nothing sent" "exit $rc" "stderr: $(head -3 "$out/part.err")"
fi
echo "end of suite"
