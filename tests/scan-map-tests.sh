#!/bin/bash
# --scan-map FILE (issue 61, items 5 and 12): the unit tests of the map's format
# (tests/unit/scan_map_unit.c); on the faulty disk (tests/tools/faulty-disk.sh: bad LBAs, slowed
# reads), a scan interrupted by SIGINT, SIGTERM, SIGHUP and SIGKILL (sent once the disk's log shows a
# chosen read, or the map a checkpoint: no race) and run again: the second run reads only what the
# map does not hold (the disk's log), and the whole range is reported: the unreadable LBAs equal
# ddrescue's map, the classes add up to every block, the slow region kept; a completed map reads
# nothing; the refusals (another disk, size or range, a file not ours, a FIFO, a device node, a
# symbolic link, a folder, a missing or read-only folder, a full file system, a second copy) read
# nothing (the device's read counter in /sys/block/loopN/stat does not move) and leave the file be.
# Usage: scan-map-tests.sh HDPARM OUTDIR.  Needs root.
set -u
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2/scan-map
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034 # lib.sh's ok and bad read it
suite="scan-map"
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/tools/faulty-disk.sh
. "$here/tools/faulty-disk.sh"
# shellcheck source=tests/tools/scan-suite.sh
. "$here/tools/scan-suite.sh"

rm -rf "$out"
mkdir -p "$out"

# --- the format's pure parts ---
if cc -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$here/../ops/scan" -o "$out/unit" "$here/unit/scan_map_unit.c" \
	"$here/../ops/scan/scan_map_format.c" "$here/../ops/scan/scan_classes.c" 2> "$out/unit.build"; then
	"$out/unit" | sed "s/^ok scan-map unit: /ok scan-map: unit: /; s/^FAIL scan-map unit: /FAIL scan-map: unit: /"
else
	bad "build tests/unit/scan_map_unit.c" "$(head -n 5 "$out/unit.build")"
fi

if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null; then
	echo "skip scan-map: needs root and losetup"
	echo "end of suite"
	exit 0
fi
loops=() mounts=() nodes=()
cleanup() {
	local l
	for l in "${loops[@]}"; do losetup -d "$l" 2> /dev/null; done
	for l in "${mounts[@]}"; do umount "$l" 2> /dev/null; done
	rm -f "${nodes[@]}"
	faulty_disk_down
}
trap cleanup EXIT
# forget_loop DEV: a loop detached by the suite itself, out of the cleanup's list.
forget_loop() {
	local l kept=()
	for l in "${loops[@]}"; do [ "$l" = "$1" ] || kept+=("$l"); done
	loops=("${kept[@]}")
}
trap 'exit 1' INT TERM HUP

# first_read: the first LBA the faulty disk's log shows read; low_reads LBA: the reads below LBA.
first_read() { awk '$1 == "read" { print $4; exit }' "$FAULTY_LOG"; }
low_reads() { awk -v lba="$1" '$1 == "read" && $4 < lba { n++ } END { print n + 0 }' "$FAULTY_LOG"; }
# last_checkpoint MAP: the LBA before which the map's last checkpoint takes every block as read.
last_checkpoint() { awk '$1 == "checkpoint" { n = $2 } END { print n }' "$1"; }

# --- refusals on plain loop devices: one line, non-zero, nothing read, the file left be ---
truncate -s 8M "$out/a.img" "$out/b.img"
da=$(loop_up "$out/a.img") && loops+=("$da")
db=$(loop_up "$out/b.img") && loops+=("$db")
dc=$(loop_up --sizelimit 4M "$out/a.img") && loops+=("$dc")
if [ -z "$da" ] || [ -z "$db" ] || [ -z "$dc" ]; then
	bad "loop devices for the refusals" "$da $db $dc"
else
	scan made --json --surface-scan --scan-range 0+4096 --scan-map "$out/a.map" "$da"
	check "a new map: the scan as without one, exit 0, the map's first line" \
		"$rc $(jget "$out/made.out" '(s["blocks"], s["blocks_read"], s["completed"])') $(head -n 1 "$out/a.map")" \
		"0 (16, 16, True) hdparm scan map 2"
	check "a new map: one class character a block, all read, none left '.'" \
		"$(sed -n '/^classes$/{n;p;q}' "$out/a.map" | tr -d '0-5' | wc -c) $(sed -n '/^classes$/{n;p;q}' "$out/a.map" | wc -c)" \
		"1 17"
	sum=$(md5sum < "$out/a.map")
	# refused NAME DEV ARGS...: hdparm --surface-scan ARGS DEV refused, nothing read from DEV.
	refused() {
		local name=$1 dev=$2 before
		shift 2
		before=$(reads "$dev")
		scan refused --surface-scan "$@" "$dev"
		if [ "$rc" != 0 ] && [ "$(reads "$dev")" = "$before" ] && [ "$(grep -c . "$out/refused.err")" = 1 ] &&
			grep -q "$want_err" "$out/refused.err"; then
			ok "refused: $name: exit $rc, nothing read, one line"
		else
			bad "refused: $name" "exit $rc, reads $before -> $(reads "$dev")" "$(cat "$out/refused.err")"
		fi
	}
	want_err="a map of another disk (its backing is \"$out/a.img\", this disk's \"$out/b.img\")"
	refused "a map of another disk of the same size" "$db" --scan-range 0+4096 --scan-map "$out/a.map"
	want_err="a map of a disk of 16384 sectors of 512 bytes, not 8192 of 512"
	refused "a map of the same file, another size" "$dc" --scan-range 0+4096 --scan-map "$out/a.map"
	# Two partitions of one size on one disk: a map of the first is not the second's.
	truncate -s 8M "$out/p.img"
	# partx and mknod where no udev makes the nodes (as partition-tests.sh does).
	part_node() {
		local name=${dp#/dev/}
		partx -a "$dp" 2> /dev/null
		until_true 3 test -e "/sys/block/$name/${name}p$1/dev" || return 1
		[ -b "${dp}p$1" ] && return 0
		# shellcheck disable=SC2046 # major and minor
		mknod "${dp}p$1" b $(tr ':' ' ' < "/sys/block/$name/${name}p$1/dev") && nodes+=("${dp}p$1")
	}
	dp=""
	if command -v sfdisk > /dev/null && command -v partx > /dev/null &&
		printf 'label: dos\nstart=2048, size=4096\nstart=6144, size=4096\n' | sfdisk -q "$out/p.img" &&
		dp=$(loop_up -P "$out/p.img") && loops+=("$dp") && part_node 1 && part_node 2; then
		"$H" --surface-scan --scan-map "$out/p1.map" "${dp}p1" > /dev/null 2>&1
		want_err="a map of another disk (its partition is \"1 at 2048\", this disk's \"2 at 6144\")"
		refused "a map of a partition of the same size on the same disk" "${dp}p2" --scan-map "$out/p1.map"
	else
		bad "a loop device with two partitions (sfdisk, losetup -P)" "$dp"
	fi
	# Issue 65, item 20: a partition of another loop disk of the same layout; an image replaced at
	# its path; a map of the first format.
	if [ -n "$dp" ] && cp "$out/p.img" "$out/q.img" && dq=$(loop_up -P "$out/q.img") && loops+=("$dq") &&
		dp=$dq && part_node 1; then
		want_err="a map of another disk (its backing is \"$out/p.img\", this disk's \"$out/q.img\")"
		refused "a map of a partition of another loop disk, the same layout" "${dq}p1" --scan-map "$out/p1.map"
	else
		bad "a second loop device with partitions (losetup -P)" "$dq"
	fi
	"$H" --surface-scan --scan-range 0+4096 --scan-map "$out/r.map" "$db" > /dev/null 2>&1
	# Detached here, and out of the cleanup's list: its number may be another suite's by the end.
	losetup -d "$db" && forget_loop "$db"
	cp "$out/b.img" "$out/b2.img" && mv "$out/b2.img" "$out/b.img"
	if db=$(loop_up "$out/b.img") && loops+=("$db"); then
		want_err="a map of another disk (its backing file \"$out/b.img\" is another file now: replaced"
		refused "a loop disk whose image was replaced at the same path" "$db" --scan-range 0+4096 --scan-map "$out/r.map"
	else
		bad "the replaced image's loop device" "$db"
	fi
	# ... and replaced after it was deleted: the file system (ext4) gives the new file the freed
	# inode's number, so only the inode's generation tells the two files apart.
	"$H" --surface-scan --scan-range 0+4096 --scan-map "$out/r2.map" "$db" > /dev/null 2>&1
	was=$(stat -c %i "$out/b.img")
	losetup -d "$db" && forget_loop "$db"
	until_true 10 test ! -e "/sys/block/${db#/dev/}/loop/backing_file"
	rm "$out/b.img"
	# The freed number is not the first free one of its group where a lower one is (or it was freed
	# a moment ago: the loop device lets go of the file a moment after it is detached): files are
	# made in its folder until one has it (an image of the same size), for 10 s at most, and that one
	# takes the path.
	python3 - "$out" "$was" "$out/b.img" <<'PY'
import os, sys, time
folder, was, to = sys.argv[1], int(sys.argv[2]), sys.argv[3]
end, n = time.monotonic() + 10, 0
while time.monotonic() < end and n < 16384:
    n += 1
    path = os.path.join(folder, "new.%d" % n)
    with open(path, "wb") as f:
        f.truncate(8 << 20)
    if os.stat(path).st_ino == was:
        os.rename(path, to)
        break
    if n % 4096 == 0:
        time.sleep(0.5)
PY
	rm -f "$out"/new.*
	# (A file system that never gives a number again (btrfs, tmpfs) cannot make the case; the map of
	# the new image is refused all the same, and the name says which was tried.)
	how="the same inode number"
	if [ "$(stat -c %i "$out/b.img" 2> /dev/null)" != "$was" ]; then
		truncate -s 8M "$out/b.img"
		how="another inode number: its file system did not give the number again"
	fi
	if db=$(loop_up "$out/b.img") && loops+=("$db"); then
		refused "a loop disk whose image was deleted and made again ($how)" "$db" \
			--scan-range 0+4096 --scan-map "$out/r2.map"
	else
		bad "the image made again's loop device" "$db"
	fi
	sed '1s/ 2$/ 1/' "$out/a.map" > "$out/old.map"
	want_err="a map of another hdparm's format"
	refused "a map of format 1" "$da" --scan-range 0+4096 --scan-map "$out/old.map"
	want_err="a map of LBA 0 to 4095, not 0 to 4096"
	refused "a map of another range" "$da" --scan-range 0-4096 --scan-map "$out/a.map"
	want_err="a map of LBA 0 to 4095, not 0 to 16383"
	refused "a map of a range, the whole disk asked" "$da" --scan-map "$out/a.map"
	check "the map refused is left as it was" "$(md5sum < "$out/a.map")" "$sum"
	# The picture is written last, whole, over its name: named as the map too, it would replace the map.
	want_err="name the same file: refused"
	refused "the map's name as the picture's too" "$da" --scan-range 0+4096 --scan-map "$out/a.map" --scan-picture "$out/a.map"
	refused "the map's file as the picture, by another name" "$da" --scan-range 0+4096 --scan-map "$out/a.map" \
		--scan-picture "$out/../$(basename "$out")/a.map"
	check "the map named as the picture too is left as it was" "$(md5sum < "$out/a.map")" "$sum"
	refused "a new map's name as the picture's too" "$da" --scan-map "$out/new.map" --scan-picture "$out/./new.map"
	check "the new map named as the picture too: nothing made" "$(find "$out" -maxdepth 1 -name 'new.map*' | wc -l)" 0
	echo "my notes" > "$out/notes.txt"
	want_err="not a map of hdparm's"
	refused "a file that is not a map" "$da" --scan-map "$out/notes.txt"
	check "the file that is not a map is left as it was" "$(cat "$out/notes.txt")" "my notes"
	: > "$out/empty"
	refused "an empty file (not a map)" "$da" --scan-map "$out/empty"
	# A disk that nothing names (zram: no model, serial, WWID or backing file): its sample decides.
	if [ -w /sys/class/zram-control/hot_add ] && zid=$(cat /sys/class/zram-control/hot_add) &&
		echo 8M > "/sys/block/zram$zid/disksize"; then
		z=/dev/zram$zid
		scan zmade --surface-scan --scan-map "$out/z.map" "$z"
		scan zagain --surface-scan --scan-map "$out/z.map" "$z"
		check "a zeroed disk nothing names: its map made, then refused (nothing tells it from another)" \
			"$rc $(grep -c . "$out/zagain.err") $(grep -c 'the sectors sampled are alike' "$out/zagain.err")" "22 1 1"
		dd if=/dev/urandom of="$z" bs=1M count=8 oflag=direct status=none
		scan zrand --surface-scan --scan-map "$out/z2.map" "$z"
		scan zresumed --surface-scan --scan-map "$out/z2.map" "$z"
		check "a disk nothing names, unchanged: its map resumed (complete, nothing read again)" \
			"$rc $(cat "$out/zresumed.err")" "0  --scan-map $out/z2.map: the scan of this range is complete: nothing is read again"
		# A second copy on its map (held here): refused before the sample's sectors are read.
		exec 9< "$out/z2.map"
		flock -x 9
		want_err="in use by another scan (it is locked): refused, nothing was read"
		refused "a disk nothing names, its map in use: nothing read, not even the sample" "$z" --scan-map "$out/z2.map"
		exec 9<&-
		dd if=/dev/urandom of="$z" bs=4096 count=1 oflag=direct status=none
		scan zwritten --surface-scan --scan-map "$out/z2.map" "$z"
		check "a disk nothing names, its first sector written since: refused, one line, the sample named" \
			"$rc $(grep -c . "$out/zwritten.err") $(grep -c 'written since (8 sectors sampled read otherwise): refused, only the 8 sectors sampled were read' "$out/zwritten.err")" "22 1 1"
		echo "$zid" > /sys/class/zram-control/hot_remove
	else
		bad "a zram disk (/sys/class/zram-control)"
	fi
	mkfifo "$out/fifo"
	want_err="a FIFO, not a regular file"
	refused "a FIFO" "$da" --scan-map "$out/fifo"
	want_err="a device node, not a regular file"
	refused "a device node (/dev/null)" "$da" --scan-map /dev/null
	ln -s "$out/a.map" "$out/link.map"
	want_err="a symbolic link, not a regular file"
	refused "a symbolic link to a map" "$da" --scan-range 0+4096 --scan-map "$out/link.map"
	ln -s "$out/nowhere" "$out/dangling"
	refused "a dangling symbolic link" "$da" --scan-map "$out/dangling"
	check "the dangling link made nothing" "$([ -e "$out/nowhere" ] && echo made || echo none)" none
	want_err="a folder, not a regular file"
	refused "a folder" "$da" --scan-map "$out"
	want_err="No such file or directory"
	refused "a folder that does not exist" "$da" --scan-map "$out/nope/x.map"
	mkdir -p "$out/ro" "$out/full"
	if mount -t tmpfs -o ro,size=1M none "$out/ro" 2> /dev/null; then
		mounts+=("$out/ro")
		want_err="Read-only file system"
		refused "a read-only folder" "$da" --scan-map "$out/ro/x.map"
	else
		bad "a read-only tmpfs" "mount failed"
	fi
	# A file system of 2 pages: the 8192 bytes of classes of a 1 GiB disk (8192 blocks) do not fit.
	truncate -s 1G "$out/big.img"
	dbig=$(loop_up "$out/big.img") && loops+=("$dbig")
	if [ -n "$dbig" ] && mount -t tmpfs -o size=8k none "$out/full" 2> /dev/null; then
		mounts+=("$out/full")
		want_err="No space left on device"
		refused "a file system too small for the classes" "$dbig" --scan-map "$out/full/x.map"
		check "the full file system: nothing left in it (no map, no temporary file)" "$(find "$out/full" -mindepth 1 | wc -l)" 0
	else
		bad "a small tmpfs" "mount failed"
	fi
	want_err="goes with --surface-scan"
	before=$(reads "$da")
	"$H" -t --scan-map "$out/x.map" "$da" > /dev/null 2> "$out/alone.err"
	check "--scan-map without --surface-scan: exit 22, one line, nothing read" \
		"$? $(cat "$out/alone.err") $(reads "$da")" "22 --scan-map goes with --surface-scan $before"
	"$H" --surface-scan --scan-map "$out/x.map" "$da" "$db" > /dev/null 2> "$out/two.err"
	check "--scan-map with two disks: exit 22, one line" \
		"$? $(cat "$out/two.err")" "22 --scan-map $out/x.map: one map for 2 disks; scan them one at a time, each with its own map"
	before=$(reads "$da")
	scan complete --json --surface-scan --scan-range 0+4096 --scan-map "$out/a.map" "$da"
	check "a completed map: nothing read, the whole range reported, exit 0" \
		"$rc $(reads "$da") $(jget "$out/complete.out" '(s["blocks"], s["blocks_read"], s["completed"], sum(s["histogram"].values()))')" \
		"0 $before (16, 16, True, 16)"
fi

# --- the faulty disk: interrupted, run again ---
why=$(faulty_disk_missing)
if [ -n "$why" ]; then
	echo "skip scan-map: the faulty disk: $why"
	echo "end of suite"
	exit 0
fi
# A 4 MiB disk (8192 sectors, 32 blocks): bad LBAs in blocks 0, 1, 15 and 31; blocks 2 to 14 and 16
# to 30 read MS ms slower, blocks 3 to 6 (LBA 1000-1599) 160 ms: one slow region (768-1791).  The
# bad blocks are not slowed: their search reads 256 sectors each.
bads=(--bad 0 --bad 255+3 --bad 4000 --bad 8191)
slows() { echo "--slow 512+3328:$1 --slow 1000+600:160 --slow 4096+3840:$1"; }
mkdir -p "$out/o"
if disk_up "$out/o" 4 "${bads[@]}" 2> "$out/o.err"; then
	ddrescue -d -b 512 -f "$FAULTY_DEV" /dev/null "$out/o.ddmap" > "$out/o.ddrescue" 2>&1
	want=$(faulty_disk_bad_lbas "$out/o.ddmap" | paste -sd, -)
	faulty_disk_down
else
	want="" && bad "the faulty disk comes up (oracle)" "$(cat "$out/o.err")"
fi
check "ddrescue's map of the faulty disk: the bad LBAs made" "$want" "0,255,256,257,4000,8191"

# The whole range reported after the second run, held to the oracle.
whole_range() {
	check "SIG$1 then again: the whole range, the unreadable LBAs equal ddrescue's, the classes add up to 32, exit 5" \
		"$rc $(jget "$out/again$1.out" '(s["blocks"], s["blocks_read"], s["completed"], sum(s["histogram"].values()), s["histogram"]["unreadable"], ",".join(map(str, s["unreadable_lbas"])))')" \
		"5 (32, 32, True, 32, 4, '$want')"
	check "SIG$1 then again: the slow region of the first run kept (768-1791 or a block wider), worst at least 150 ms" \
		"$(jget "$out/again$1.out" 'sum(512 <= r["first_lba"] <= 768 and 1791 <= r["last_lba"] <= 2047 and r["worst_ms"] >= 150 for r in s["slow_regions"])')" \
		"1"
}
# Each signal is sent while the disk holds a chosen read (faulty-disk.py --hold-read; no timing),
# past the slow region: SIGINT in block 15's sector search (the search's read of LBA 3950, before
# its bad 4000), SIGTERM in block 10's read, SIGHUP in block 31's search (8000, before 8191).  The
# block in a search is neither counted nor mapped: the scan stopped before it, as the map says.
# (Each disk holds one read once: the run again, and the --scan-errors-max case after, pass it.)
for hold in INT:3950+1:3840 TERM:2560+256:2816 HUP:8000+1:7936; do
	IFS=: read -r sig held stop <<< "$hold"
	mkdir -p "$out/fs$sig"
	rm -f "$out/$sig.map" "$out/fs$sig/go"
	# shellcheck disable=SC2046 # slows' words
	if ! disk_up "$out/fs$sig" 4 "${bads[@]}" $(slows 30) --hold-read "$held:$out/fs$sig/go" 2> "$out/fs.err"; then
		bad "the faulty disk comes up (SIG$sig)" "$(cat "$out/fs.err")"
		continue
	fi
	# A child started to receive a signal takes the default actions (a background job ignores SIGINT).
	env --default-signal=INT,QUIT "$H" --json --surface-scan --scan-map "$out/$sig.map" "$FAULTY_DEV" \
		> "$out/first$sig.out" 2> "$out/first$sig.err" &
	pid=$!
	if until_true 30 grep -q "^held ${held%+*} ${held#*+}\$" "$FAULTY_LOG"; then
		kill -"$sig" "$pid"
	else
		bad "SIG$sig: the disk held its read of LBA $held" "$(tail -n 3 "$FAULTY_LOG")"
	fi
	touch "$out/fs$sig/go"
	wait_within 120 "$pid" rc1
	at=$(sed -n 's/.*stopped before LBA \([0-9]*\)$/\1/p' "$out/first$sig.err")
	check "SIG$sig: stopped before LBA $stop, the first LBA of the block it was in" "${at:-(no stop said)}" "$stop"
	check "SIG$sig: exit 4, stderr says where it stopped and how to go on" \
		"$rc1 $(grep -c "^ --scan-map $out/$sig.map: kept, every block read before LBA $at in it; the same command again reads the rest$" "$out/first$sig.err")" \
		"4 1"
	check "SIG$sig: the map's last checkpoint is where the scan stopped" "$(last_checkpoint "$out/$sig.map")" "${at:-(no stop said)}"
	: > "$FAULTY_LOG"
	scan "again$sig" --json --surface-scan --scan-map "$out/$sig.map" "$FAULTY_DEV"
	check "SIG$sig then again: the first read is at LBA $at, none below it" "$(first_read) $(low_reads "$at")" "${at:-(no stop said)} 0"
	check "SIG$sig then again: stderr says where it goes on from" \
		"$(grep -c "^ --scan-map $out/$sig.map: $((at / 256)) of 32 blocks read before; going on from LBA $at$" "$out/again$sig.err")" 1
	whole_range "$sig"
done
# A map whose runs already named as many unreadable sectors as --scan-errors-max: nothing more read.
# The first run stops at its fourth (257, in block 1): block 1, cut short, is not kept; block 0 is,
# with 0 and 255.
if [ -n "$FAULTY_DEV" ]; then
	rm -f "$out/max.map"
	"$H" --surface-scan --scan-errors-max 4 --scan-map "$out/max.map" "$FAULTY_DEV" > /dev/null 2>&1
	: > "$FAULTY_LOG"
	scan max --json --surface-scan --scan-errors-max 2 --scan-map "$out/max.map" "$FAULTY_DEV"
	check "--scan-errors-max 2 with a map that holds 2 unreadable LBAs: nothing read, exit 5, stderr says so" \
		"$rc $(grep -c '^read ' "$FAULTY_LOG") $(jget "$out/max.out" '(s["unreadable_lbas"], s["blocks_read"], s["completed"])') $(grep -c '^ --surface-scan: stopped after 2 unreadable sectors (--scan-errors-max), before LBA 256$' "$out/max.err")" \
		"5 0 ([0, 255], 1, False) 1"
fi
faulty_disk_down

# SIGKILL once the map holds a checkpoint past its start (one every 3 s: here blocks 2 to 14 read
# 100 ms slower, 16 to 30 300 ms: the first checkpoint comes near block 20, 3 s at least before the
# end): the same command again reads from that checkpoint on (a few blocks again, none taken as
# read that was not), and the whole is exact.
mkdir -p "$out/fKILL"
rm -f "$out/KILL.map"
# shellcheck disable=SC2046 # slows' words
if disk_up "$out/fKILL" 4 "${bads[@]}" $(slows 100) --slow 4096+3840:300 2> "$out/fKILL.err"; then
	"$H" --json --surface-scan --scan-map "$out/KILL.map" "$FAULTY_DEV" > /dev/null 2>&1 &
	pid=$!
	past_start() { [ "$(last_checkpoint "$out/KILL.map" 2> /dev/null)" -gt 0 ] 2> /dev/null; }
	until_true 30 past_start && kill -KILL "$pid"
	wait "$pid" 2> /dev/null
	rc1=$?
	at=$(last_checkpoint "$out/KILL.map")
	: > "$FAULTY_LOG"
	scan againKILL --json --surface-scan --scan-map "$out/KILL.map" "$FAULTY_DEV"
	if [ "$rc1" = 137 ] && [ "$at" -gt 0 ] && [ "$at" -lt 8192 ]; then
		ok "SIGKILL after a checkpoint: killed before the end, the map at LBA $at"
	else
		bad "SIGKILL after a checkpoint: killed before the end" "exit $rc1, checkpoint $at"
	fi
	check "SIGKILL then again: the first read is at the checkpoint's LBA, none below it" "$(first_read) $(low_reads "$at")" \
		"${at:-(no checkpoint)} 0"
	whole_range KILL
	faulty_disk_down
else
	bad "the faulty disk comes up (KILL)" "$(cat "$out/fKILL.err")"
fi

# A resumed scan's status line (issue 65, item 24): its rate is this run's reads over this run's
# time, not the bytes the map restored. The first run stops after block 56 of 64 (the faulty disk
# holds that read until SIGINT waits); the second, on a terminal (script), reads the 7 blocks left
# at 100 ms each at least: 1.3 MB/s at most, where the restored 7.5 MB made it tens of MB/s.
mkdir -p "$out/fr"
if command -v script > /dev/null && disk_up "$out/fr" 8 --hold "14336:$out/fr/release" 2> "$out/fr.err"; then
	rm -f "$out/fr.map"
	env --default-signal=INT "$H" --surface-scan --scan-map "$out/fr.map" "$FAULTY_DEV" > /dev/null 2> "$out/fr1.err" &
	pid=$!
	held=no
	if until_true 30 grep -q '^held 14336$' "$FAULTY_LOG" && until_true 20 waits_in_read "$pid"; then
		kill -INT "$pid"
		until_true 10 pending "$pid" && held=yes
	fi
	touch "$out/fr/release"
	wait "$pid"
	faulty_disk_down
	if [ "$held" = yes ] && disk_up "$out/fr" 8 --slow 0+16384:100 2> "$out/fr.err"; then
		script -qec "$H --surface-scan --scan-map $out/fr.map $FAULTY_DEV" /dev/null > "$out/fr.tty" < /dev/null
		rates=$(tr '\r' '\n' < "$out/fr.tty" | sed -n 's/.*scan: [0-9.]*% done, LBA [0-9]*, \([0-9]*\) MB\/s.*/\1/p' | paste -sd' ' -)
		check "a resumed scan's status line: this run's rate alone (at most 1 MB/s, rounded), drawn at least once" \
			"$(echo "$rates" | awk '{ for (i = 1; i <= NF; i++) if ($i > 1) bad = 1 } END { print (NF > 0 && !bad) ? "yes" : "no" }')" "yes"
		[ "$(echo "$rates" | awk '{ print NF }')" -gt 0 ] || echo "  (no status line drawn: $(head -c 300 "$out/fr.tty" | tr -d '\r'))"
	else
		bad "a resumed scan's status line: the first run held and interrupted" "held $held" "$(cat "$out/fr1.err" "$out/fr.err")"
	fi
	faulty_disk_down
fi

# The map's write fails after the whole range was read (issue 65, item 23): the faulty disk holds the
# last block's read while the file is capped at its size (prlimit --fsize, SIGXFSZ ignored: EFBIG);
# whichever checkpoint comes next is after the last block. The scan is complete; the map is not
# saved; the text and the JSON say both.
mkdir -p "$out/fz"
if command -v prlimit > /dev/null && disk_up "$out/fz" 1 --bad 300 --hold "1792:$out/fz/release" 2> "$out/fz.err"; then
	rm -f "$out/fz.map" "$out/fz.o" "$out/fz.e"
	# The cap holds for every file hdparm writes: its stdout and stderr go through pipes.
	mkfifo "$out/fz.o" "$out/fz.e"
	cat "$out/fz.o" > "$out/fz.out" &
	cato=$!
	cat "$out/fz.e" > "$out/fz.stderr" &
	cate=$!
	env --ignore-signal=XFSZ "$H" --json --surface-scan --scan-map "$out/fz.map" "$FAULTY_DEV" > "$out/fz.o" 2> "$out/fz.e" &
	pid=$!
	capped=no
	if until_true 30 grep -q '^held 1792$' "$FAULTY_LOG" && prlimit --pid "$pid" --fsize="$(stat -c %s "$out/fz.map")"; then
		capped=yes
	fi
	touch "$out/fz/release"
	wait "$pid"
	rc=$?
	wait "$cato" "$cate"
	at=$(last_checkpoint "$out/fz.map")
	check "the map's write fails after the last block: the scan complete, the map not saved (text and JSON), exit 27" \
		"$capped $rc $(jget "$out/fz.out" '(s["completed"], s["blocks_read"], s["unreadable_lbas"], s["map"]["saved"], s["map"]["error"], s["map"]["checkpoint_lba"])') $(cat "$out/fz.stderr")" \
		"yes 27 (True, 8, [300], False, 'File too large', ${at:-none})  --scan-map $out/fz.map: writing the map failed: File too large; the scan is complete (every block read), but the map is not saved: it keeps its last checkpoint, every block before LBA ${at:-none}"
	faulty_disk_down
fi

# The map's file system fills during the scan (2 pages of tmpfs; the log of 1024 unreadable LBAs
# does not fit): the scan stops and says so, exit 28 (ENOSPC), the repair asked is not run (its
# reason the map's, also where the scan was complete); the map keeps its last checkpoint
# and resumes (a copy of it where there is room) from there, the whole list exact.
mkdir -p "$out/fn" "$out/small"
if disk_up "$out/fn" 4 --bad 0+1024 2> "$out/fn.err" && mount -t tmpfs -o size=8k none "$out/small"; then
	mounts+=("$out/small")
	scan nospace --json --surface-scan --scan-map "$out/small/x.map" --scan-repair --yes-i-know-what-i-am-doing "$FAULTY_DEV"
	at=$(last_checkpoint "$out/small/x.map")
	# Mid-scan (a checkpoint, every 3 s) or at its end (the last checkpoint, after the last block:
	# the scan complete, issue 65, item 23): the words follow the JSON's "completed".
	if [ "$(jget "$out/nospace.out" 's["completed"]')" = True ]; then
		said="writing the map failed: No space left on device; the scan is complete (every block read), but the map is not saved: it keeps its last checkpoint, every block before LBA $at"
	else
		said="writing the map failed at LBA [0-9]*: No space left on device; the scan stops there; the map keeps its last checkpoint: every block before LBA $at"
	fi
	check "the map's file system full: exit 28, one line says so" \
		"$rc $(grep -c "^ --scan-map $out/small/x.map: $said$" "$out/nospace.err") $(jget "$out/nospace.out" '(s["map"]["saved"], s["map"]["checkpoint_lba"])')" \
		"28 1 (False, $at)"
	check "the map's file system full, with --scan-repair: not run, the map said as the reason (JSON, stderr), nothing written" \
		"$(jget "$out/nospace.out" 's["repair_not_run"]') $(grep -c '^ --scan-repair: not run: the map could not be written$' "$out/nospace.err") $(grep -c '^write ' "$FAULTY_LOG")" \
		"the map could not be written 1 0"
	cp "$out/small/x.map" "$out/roomy.map"
	: > "$FAULTY_LOG"
	scan roomy --json --surface-scan --scan-map "$out/roomy.map" "$FAULTY_DEV"
	check "the map left by the full file system resumes from its checkpoint, the whole list exact" \
		"$rc $(first_read) $(jget "$out/roomy.out" '(s["blocks_read"], s["completed"], s["unreadable_lbas"] == list(range(1024)))')" \
		"5 $at (32, True, True)"
	faulty_disk_down
else
	bad "the faulty disk and a small tmpfs come up (full)" "$(cat "$out/fn.err")"
fi

# A disk gone between two runs (issue 65, item 18): the blocks the map says were read are the proof
# that it worked; the resumed run's first failure is followed by a read of one of them, which fails
# too: the disk stopped answering (exit 6), and no LBA is made unreadable, in the JSON or the map.
# The first run stops at --scan-errors-max 2 (LBA 1279, the last of block 4, and 1300, in block 5:
# blocks 0-4 mapped); the second finds the disk dead from its first read (LBA 1280) on, the sector
# read again the last of the map's before it that read (1278).
mkdir -p "$out/dg"
rm -f "$out/dg.map"
if disk_up "$out/dg" 1 --bad 1279 --bad 1300 2> "$out/dg.err"; then
	scan dg1 --surface-scan --scan-errors-max 2 --scan-map "$out/dg.map" "$FAULTY_DEV"
	faulty_disk_down
	if [ "$(last_checkpoint "$out/dg.map")" = 1280 ] && disk_up "$out/dg" 1 --bad 1279 --bad 1300 --die-at 1280:1 2> "$out/dg.err"; then
		scan dg2 --json --surface-scan --scan-map "$out/dg.map" "$FAULTY_DEV"
		check "a disk gone since the map's last run: exit 6, said, nothing made unreadable (JSON, map)" \
			"$rc $(jget "$out/dg2.out" '(s["completed"], s["unreadable_lbas"])') $(grep -c '^bad ' "$out/dg.map") $(last_checkpoint "$out/dg.map") $(grep -c "^ --surface-scan: $FAULTY_DEV stopped answering: LBA 1278, read before, fails now; the scan stopped at LBA 1280 (5 of 8 blocks read)$" "$out/dg2.err")" \
			"6 (False, [1279]) 1 1280 1"
		faulty_disk_down
	else
		bad "a disk gone since the map's last run: the first run (exit $rc, checkpoint $(last_checkpoint "$out/dg.map"))" "$(cat "$out/dg.err")"
	fi
else
	bad "the faulty disk comes up (gone since)" "$(cat "$out/dg.err")"
fi

# Two copies on one map: the second is refused (the map locked), reads nothing and leaves it be.
mkdir -p "$out/f2"
rm -f "$out/two.map"
if disk_up "$out/f2" 4 --slow 0+8192:20 2> "$out/f2.err"; then
	"$H" --json --surface-scan --scan-map "$out/two.map" "$FAULTY_DEV" > "$out/one.out" 2> "$out/one.err" &
	pid=$!
	until_true 30 grep -q '^read [0-9]* [0-9]* 1024 ' "$FAULTY_LOG"
	# The disk held (its server stopped): a second copy that read would wait in its first read.
	kill -STOP "$FAULTY_PID"
	"$H" --surface-scan --scan-map "$out/two.map" "$FAULTY_DEV" > "$out/second.out" 2> "$out/second.err" &
	pid2=$!
	second_gone() { ! kill -0 "$pid2" 2> /dev/null; }
	if until_true 10 second_gone; then
		wait_within 120 "$pid2"
	else
		rc="still running"
	fi
	kill -CONT "$FAULTY_PID"
	check "a second copy on the same map: refused at once, one line" "$rc $(cat "$out/second.err")" \
		"16  --scan-map $out/two.map: in use by another scan (it is locked): refused, nothing was read"
	wait_within 120 "$pid"
	wait "$pid2" 2> /dev/null
	check "the first copy goes on to the end, undisturbed; the disk read 32 blocks, the second copy none" \
		"$rc $(jget "$out/one.out" '(s["blocks_read"], s["completed"])') $(last_checkpoint "$out/two.map") $(grep -c '^read ' "$FAULTY_LOG")" \
		"0 (32, True) 8192 32"
	faulty_disk_down
else
	bad "the faulty disk comes up (two copies)" "$(cat "$out/f2.err")"
fi
echo "end of suite"
