#!/bin/bash
# Two runs that change one disk at once, and users of a disk that the kernel does not name (issue 65,
# items 3, 7 and 17).  Loop devices of this machine stand for the disks (their nodes, locks, sysfs and
# partitions are the kernel's); the SG_IO test double answers for the drives behind them and logs
# what each run sent, the device first.  A first run is held in its SECURITY ERASE UNIT (F4h, ACS-3
# 7.38: byte 14 of ATA PASS-THROUGH (16)) or its first Firmware Image Download (NVMe admin 11h) until
# the test opens a gate; the second run is then started.  DOWNLOAD MICROCODE is 92h (ACS-3 7.7).
# Nothing is timed: each wait is for a state, with a deadline.
# Usage: hold-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2/hold
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
suite="hold" double_name=hold
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
yes=--yes-i-know-what-i-am-doing
page=$top/tests/identify/pages/crafted-security-big.hex
mnt=$out/mnt

for tool in sfdisk partx losetup mkfs.ext2 python3; do
	command -v "$tool" > /dev/null || { echo "skip hold: no $tool (tests/setup installs it)"; echo "end of suite"; exit 0; }
done
loops=()
pid=
cleanup() {
	[ -z "$pid" ] || { touch "$out/gate"; wait "$pid" 2> /dev/null; }
	umount "$mnt" 2> /dev/null
	# The loops made on others first: a loop's backing disk is detached last.
	for ((i = ${#loops[@]} - 1; i >= 0; i--)); do losetup -d "${loops[i]}" 2> /dev/null; done
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# new_loop VAR ARGS...: a new loop device (losetup -f ARGS), its node in VAR, detached at the end.
new_loop() {
	local -n node=$1
	shift
	node=$(losetup -f --show "$@") || return 1
	loops+=("$node")
}
# drop_loop: the last loop made, detached.
drop_loop() {
	losetup -d "${loops[-1]}"
	unset 'loops[-1]'
}
rm -f "$out"/*.img
truncate -s 64M "$out/disk.img"
truncate -s 16M "$out/disk2.img"
printf 'label: dos\nstart=2048, size=40960, type=83\n' | sfdisk -q "$out/disk.img" || { bad "sfdisk"; echo "end of suite"; exit 0; }
disk=$(losetup -f --show -P "$out/disk.img") || { bad "losetup"; echo "end of suite"; exit 0; }
loops+=("$disk")
new_loop disk2 "$out/disk2.img" || { bad "losetup"; echo "end of suite"; exit 0; }
name=$(basename "$disk")
partx -a "$disk" 2> /dev/null
until_true 5 test -e "/sys/block/$name/${name}p1/dev"
part=${disk}p1
# No udev here to make the nodes: made from what sysfs says.
[ -b "$part" ] || mknod "$part" b $(tr ':' ' ' < "/sys/block/$name/${name}p1/dev")
# The disk's node under another name, as a by-id link or a rescue shell's node would be.
rm -f "$out/alias"
mknod "$out/alias" b $(tr ':' ' ' < "/sys/block/$name/dev")
head -c 1024 /dev/urandom > "$out/fw.bin"
mkdir -p "$mnt"

# bg STEM ENV... -- ARGS...: hdparm in the background (pid), held in its SECURITY ERASE UNIT until
# $out/gate exists; its output and the double's log in $out/STEM.*.
bg() {
	local stem=$1 envs=()
	shift
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$out/$stem.log" "$out/gate"
	env SHIM_IDENTIFY="$page" SHIM_LOG="$out/$stem.log" SHIM_LOG_DEVICE=1 SHIM_DELAY_CMD=f4 \
		SHIM_DELAY_MS="until:$out/gate" "${envs[@]}" "${preload[@]}" "$asan" "$H" "$@" > "$out/$stem.out" 2> "$out/$stem.err" &
	pid=$!
}
# release: the gate opened, the background run's exit status in bg_rc.
release() {
	touch "$out/gate"
	wait "$pid"
	bg_rc=$?
	pid=
}
# erasing STEM DEV: DEV was sent SECURITY ERASE UNIT in run STEM (and is held there).
erasing() { awk -v d="$2" '$1 == d && $2 == "cdb:" && $3 == "85" && $17 == "f4" { n++ } END { exit !n }' "$out/$1.log" 2> /dev/null; }
# fg ENV... -- ARGS...: hdparm in the foreground on the double (stem b): rc, $out/b.out, b.err, b.log.
fg() { run_on_double b SHIM_IDENTIFY="$page" SHIM_LOG_DEVICE=1 "$@"; }
# sent_b: what run b sent besides IDENTIFY (ECh), one line per command.
sent_b() { awk '$2 == "cdb:" && !($3 == "85" && $17 == "ec") { print $1, $17 } $2 == "nvme-admin:" { print $1, "nvme", $3 }' "$out/b.log"; }
# refused_b NAME EXIT LINE: run b exited EXIT, its stderr holds LINE whole, and it sent nothing.
refused_b() {
	if [ "$rc" = "$2" ] && grep -qxF -- "$3" "$out/b.err" && [ -z "$(sent_b)" ]; then
		ok "$1"
	else
		bad "$1" "exit $rc (wanted $2)" "stderr: $(head -n 4 "$out/b.err" | tr '\n' '|')" "wanted: $3" \
			"sent: $(sent_b | tr '\n' ';')"
	fi
}

# --- item 3: a run that changes a disk holds it until it ends ---
bg a -- --security-erase pw "$disk"
if until_true 30 erasing a "$disk"; then
	fg -- $yes --sanitize-block-erase "$disk"
	refused_b "an erase while another run erases the disk: refused, naming that run's process" 16 \
		" --sanitize-block-erase: $disk is in use by another hdparm run (process $pid): refused, nothing sent"
	fg -- --security-erase pw "$disk"
	refused_b "the same erase again: refused" 16 \
		" --security-erase: $disk is in use by another hdparm run (process $pid): refused, nothing sent"
	# Named by another node of the disk: the lock is the disk's, on its node in /dev.
	fg -- --trim-sector-ranges 100:8 --please-destroy-my-drive "$out/alias"
	refused_b "a TRIM through another node of the disk: refused" 16 \
		" --trim-sector-ranges: $out/alias is in use by another hdparm run (process $pid): refused, nothing sent"
	fg -- $yes --please-destroy-my-drive --fwdownload "$out/fw.bin" "$disk"
	refused_b "a firmware download to the disk: refused" 16 \
		" --fwdownload: $disk is in use by another hdparm run (process $pid): refused, nothing sent"
	# Many disks: the held one refuses the whole run before the gate, and the other disk is sent nothing.
	fg -- --security-erase pw "$disk2" "$disk"
	if [ "$rc" != 0 ] && grep -qF " --security-erase: $disk is in use by another hdparm run (process $pid): refused, nothing sent" "$out/b.err" &&
		[ -z "$(sent_b)" ]; then
		ok "many disks, one of them held by another run: nothing sent to any"
	else
		bad "many disks, one of them held by another run: nothing sent to any" "exit $rc" \
			"stderr: $(head -n 4 "$out/b.err" | tr '\n' '|')" "sent: $(sent_b | tr '\n' ';')"
	fi
	# A loop device made on the disk after the first run's checks: the lock reaches the disk beneath,
	# through a loop on that loop too.
	if new_loop l1 "$disk" && new_loop l2 "$l1"; then
		fg -- --security-erase pw "$l1"
		refused_b "an erase of a loop made on the held disk: refused, naming the disk" 16 \
			" --security-erase: $disk is in use by another hdparm run (process $pid): refused, nothing sent"
		fg -- $yes --surface-scan --scan-repair "$l2"
		refused_b "a repair of a loop on a loop on the held disk: refused" 16 \
			" --scan-repair: $disk is in use by another hdparm run (process $pid): refused, nothing sent"
		drop_loop && drop_loop
	else
		bad "losetup of a loop on the disk"
	fi
	erase_pid=$pid
	release
	[ "$bg_rc" = 0 ] && [ "$(grep -c ' cdb: 85 .* f4 ' "$out/a.log")" = 1 ]
	result_of a $? "the held run ends as it would alone (exit $bg_rc)"
	fg -- --security-erase pw "$disk"
	[ "$rc" = 0 ] && sent_b | grep -qx "$disk f4"
	result_of b $? "after it ended, the disk is free: the erase goes out"
else
	bad "the first erase reached its SECURITY ERASE UNIT" "$(head -n 3 "$out/a.err")"
	release
fi

# A disk of a many-disk run is held by its own process, for as long as its erase lasts.
bg a -- --security-erase pw "$disk2" "$disk"
if until_true 30 erasing a "$disk"; then
	fg -- --trim-sector-ranges 100:8 --please-destroy-my-drive "$disk"
	holder=$(sed -n 's/.*in use by another hdparm run (process \([0-9]*\)).*/\1/p' "$out/b.err")
	[ "$rc" = 16 ] && [ -n "$holder" ] && [ "$(awk '{ print $4 }' "/proc/$holder/stat" 2> /dev/null)" = "$pid" ] &&
		[ -z "$(sent_b)" ]
	result_of b $? "a TRIM while a many-disk erase runs: refused, naming the disk's process of that run"
else
	bad "the many-disk erase reached its SECURITY ERASE UNIT" "$(head -n 3 "$out/a.err")"
fi
release
# One disk named twice in one run is the gate's refusal, as before: not a lock its own run holds.
fg -- --security-erase pw "$disk" "$out/alias"
[ "$rc" != 0 ] && grep -qF "reaches a disk that" "$out/b.err" && ! grep -q "another hdparm run" "$out/b.err" && [ -z "$(sent_b)" ]
result_of b $? "one disk named twice in a many-disk run: refused by the gate, not by its own lock"

# A lock that another program holds (systemd's convention for a program that writes a disk) is named.
rm -f "$out/locked"
python3 -c 'import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
sys.stdin.read()' "$disk2" "$out/locked" < <(until_true 60 test -e "$out/unlock") &
locker=$!
if until_true 30 test -e "$out/locked"; then
	fg -- --security-erase pw "$disk2"
	refused_b "a disk another program holds locked: refused, naming it" 16 \
		" --security-erase: $disk2 is in use by python3 (process $locker): refused, nothing sent"
else
	bad "python3 took the lock"
fi
touch "$out/unlock"
wait "$locker"
rm -f "$out/unlock"

# NVMe: two firmware downloads of one controller (the issue's case: their pieces went out interleaved).
head -c 12288 /dev/urandom > "$out/fw-nvme.bin"
nvme_env=(SHIM_NVME="$top/tests/nvme/crafted-ctrl.hex,$top/tests/nvme/qemu-ns.hex")
rm -f "$out/a.log" "$out/gate"
env "${nvme_env[@]}" SHIM_LOG="$out/a.log" SHIM_LOG_DEVICE=1 SHIM_NVME_DELAY=11 SHIM_DELAY_MS="until:$out/gate" \
	"${preload[@]}" "$asan" "$H" $yes --please-destroy-my-drive --fwdownload "$out/fw-nvme.bin" "$disk2" > "$out/a.out" 2> "$out/a.err" &
pid=$!
if until_true 30 grep -qs "nvme-admin: 11 " "$out/a.log"; then
	fg "${nvme_env[@]}" -- $yes --please-destroy-my-drive --fwdownload "$out/fw-nvme.bin" "$disk2"
	refused_b "NVMe: a firmware download while another downloads to the controller: refused" 16 \
		" --fwdownload: $disk2 is in use by another hdparm run (process $pid): refused, nothing sent"
else
	bad "the first NVMe download reached its first piece" "$(head -n 3 "$out/a.err")"
fi
release
[ "$bg_rc" = 0 ] && [ "$(grep -c 'nvme-admin: 11 ' "$out/a.log")" = 3 ] && [ "$(grep -c 'nvme-admin: 10 ' "$out/a.log")" = 1 ]
result_of a $? "NVMe: the held download ends whole, three pieces and one commit (exit $bg_rc)"

# --- item 17: a loop device made on the disk, or on a partition of it, is a user of the disk ---
if new_loop l1 -o 1048576 "$disk"; then
	fg -- --security-erase pw "$disk"
	refused_b "a loop on the disk: an erase is refused, naming it" 16 \
		" --security-erase: $disk is in use ($disk held by $(basename "$l1")): refused, nothing sent"
	# The issue's case: a file system mounted through the loop, and a repair of the disk.
	if mkfs.ext2 -q "$l1" 2> /dev/null && mount "$l1" "$mnt" 2> /dev/null; then
		fg -- $yes --surface-scan --scan-repair "$disk"
		[ "$rc" = 16 ] && grep -qxF " --scan-repair: $disk is in use ($disk held by $(basename "$l1")): refused, nothing sent" "$out/b.err" &&
			! grep -q 'scan' "$out/b.out"
		result_of b $? "a file system mounted through a loop on the disk: the repair is refused before the scan"
		umount "$mnt"
	else
		bad "mkfs.ext2 and mount of the loop on the disk"
	fi
	# Named through the loop itself, the loop is the way in, not a user.
	fg -- --security-erase pw "$l1"
	[ "$rc" = 0 ] && sent_b | grep -qx "$l1 f4"
	result_of b $? "an erase named through the loop on the disk is not refused by that loop"
	drop_loop
fi
if new_loop l1 "$part"; then
	fg -- $yes --sanitize-block-erase "$disk"
	refused_b "a loop on a partition of the disk: an erase is refused, naming it" 16 \
		" --sanitize-block-erase: $disk is in use ($part held by $(basename "$l1")): refused, nothing sent"
	drop_loop
fi
# A loop made through a node of the disk since removed (a rescue shell's, a container's /dev): the
# path its backing_file keeps names nothing here ("... (deleted)"); the loop itself says what it writes.
rm -f "$out/gone"
mknod "$out/gone" b $(tr ':' ' ' < "/sys/block/$name/dev")
if new_loop l1 "$out/gone" && rm -f "$out/gone"; then
	fg -- --security-erase pw "$disk"
	refused_b "a loop made on the disk through a node since removed: an erase is refused, naming it" 16 \
		" --security-erase: $disk is in use ($disk held by $(basename "$l1")): refused, nothing sent"
	# The lock reaches the disk beneath it too: a repair through that loop, while the disk is erased.
	bg a -- --security-erase pw "$disk2"
	if until_true 30 erasing a "$disk2"; then
		rm -f "$out/gone"
		mknod "$out/gone" b $(tr ':' ' ' < "/sys/block/$(basename "$disk2")/dev")
		if new_loop l2 "$out/gone" && rm -f "$out/gone"; then
			fg -- $yes --surface-scan --scan-repair "$l2"
			refused_b "a repair through such a loop on a disk that another run erases: refused, naming the disk" 16 \
				" --scan-repair: $disk2 is in use by another hdparm run (process $pid): refused, nothing sent"
			drop_loop
		fi
	else
		bad "the erase of the disk reached its SECURITY ERASE UNIT" "$(head -n 3 "$out/a.err")"
	fi
	release
	drop_loop
fi

# --- item 7: ATA --fwdownload checks every disk before any is sent a command ---
fw=(--yes-i-know-what-i-am-doing --please-destroy-my-drive --fwdownload "$out/fw.bin")
fg -- "${fw[@]}" "$disk2" "$part"
[ "$rc" != 0 ] && grep -qF -- "--fwdownload requires the raw device, not a partition." "$out/b.err" && [ -z "$(sent_b)" ]
result_of b $? "ATA firmware download, a partition among the disks: nothing sent to any disk"
mkfifo "$out/fw.fifo" 2> /dev/null
fg -- --yes-i-know-what-i-am-doing --please-destroy-my-drive --fwdownload "$out/fw.fifo" "$disk2" "$disk"
[ "$rc" != 0 ] && grep -qF "$out/fw.fifo: not a regular file" "$out/b.err" && [ -z "$(sent_b)" ]
result_of b $? "ATA firmware download of a FIFO to many disks: nothing sent to any disk"
fg SHIM_IDENTIFY="$top/tests/identify/pages/qemu-ahci-hdd.hex" -- "${fw[@]}" "$disk2" "$disk"
[ "$rc" != 0 ] && grep -qF "DOWNLOAD_MICROCODE: not supported by device" "$out/b.err" && [ -z "$(sent_b)" ]
result_of b $? "ATA firmware download to disks without DOWNLOAD MICROCODE: nothing sent to any disk"
if mkfs.ext2 -q "$part" 2> /dev/null && mount "$part" "$mnt" 2> /dev/null; then
	fg -- "${fw[@]}" "$disk"
	refused_b "ATA firmware download to a disk with a partition mounted: refused" 16 \
		" --fwdownload: $disk is in use ($part mounted on $mnt): refused, nothing sent"
	fg -- "${fw[@]}" "$disk2" "$disk"
	[ "$rc" != 0 ] && grep -qF "$disk is in use ($part mounted on $mnt)" "$out/b.err" && [ -z "$(sent_b)" ]
	result_of b $? "ATA firmware download to many disks, one mounted: nothing sent to any disk"
	umount "$mnt"
else
	bad "mkfs.ext2 and mount of the partition"
fi
fg -- "${fw[@]}" "$disk2" "$disk"
[ "$rc" = 0 ] && [ "$(sent_b | grep -c ' 92$')" -ge 2 ] && sent_b | grep -q "^$disk2 92$" && sent_b | grep -q "^$disk 92$"
result_of b $? "ATA firmware download to many disks, none in use: each disk is sent it"

# A partition that starts at LBA 0 (an isohybrid image's; here added with addpart in the gap before
# the first): its start says nothing, yet what goes through it reaches the whole disk.  Refused.
if command -v addpart > /dev/null && addpart "$disk" 2 0 1024 2> /dev/null &&
	until_true 5 test -e "/sys/block/$name/${name}p2/dev"; then
	rm -f "$out/p0"
	mknod "$out/p0" b $(tr ':' ' ' < "/sys/block/$name/${name}p2/dev")
	fg -- --security-erase pw "$out/p0"
	refused_b "an erase named through a partition that starts at LBA 0: refused" 22 \
		" --security-erase: $out/p0 is a partition (it starts at LBA 0 of its disk): what is sent through it reaches the whole disk; name the disk itself: refused, nothing sent"
	fg -- "${fw[@]}" "$out/p0"
	refused_b "an ATA firmware download through a partition that starts at LBA 0: refused" 22 \
		" --fwdownload: $out/p0 is a partition (it starts at LBA 0 of its disk): what is sent through it reaches the whole disk; name the disk itself: refused, nothing sent"
	delpart "$disk" 2 2> /dev/null
else
	echo "skip hold: a partition at LBA 0 (no addpart, or the kernel took none)"
fi
echo "end of suite"
