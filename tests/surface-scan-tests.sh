#!/bin/bash
# --surface-scan (issue 61) on loop devices with direct I/O: a whole scan's blocks and classes,
# --scan-range in both forms and its short last block, the JSON field by field, a 4096-byte-sector
# device (LBAs in its units), bad input (nothing read: the device's read counters in
# /sys/block/loopN/stat do not move), and, on the faulty disk (tests/tools/faulty-disk.sh), the
# unreadable LBAs held to ddrescue's map, a slow region, --scan-errors-max and SIGINT mid-scan
# (the reads slowed by the faulty disk, the signal sent once its log shows a chosen read: no race).
# Usage: surface-scan-tests.sh HDPARM OUTDIR.  Needs root.
set -u
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2/surface-scan
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034 # lib.sh's ok and bad read it
suite="surface-scan"
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/tools/faulty-disk.sh
. "$here/tools/faulty-disk.sh"
# shellcheck source=tests/tools/scan-suite.sh
. "$here/tools/scan-suite.sh"

if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null; then
	echo "skip surface-scan: needs root and losetup"
	echo "end of suite"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
loops=()
cleanup() {
	local l
	for l in "${loops[@]}"; do losetup -d "$l" 2> /dev/null; done
	faulty_disk_down
}
trap cleanup EXIT INT TERM HUP

# loop_up IMAGE SECTOR_BYTES: a loop device with direct I/O over IMAGE; its path on stdout.
loop_up() { losetup --direct-io=on --sector-size "$2" --show -f "$1" && settle; }

# --- a 64 MiB disk of 512-byte sectors: 131072 sectors, 512 blocks ---
truncate -s 64M "$out/img512"
d512=$(loop_up "$out/img512" 512) || { bad "losetup --direct-io=on" "no loop device"; exit 0; }
loops+=("$d512")

scan whole --surface-scan "$d512"
check "a whole 64 MiB scan exits 0" "$rc" 0
check "a whole scan: 512 blocks of 256 sectors, all read" \
	"$(grep -E '^  read +[0-9]' "$out/whole.out" | tr -s ' ')" " read 512 of 512"
check "a whole scan: the text names the range and the sector size" \
	"$(grep -c '^ surface scan of LBA 0 to 131071 (131072 sectors of 512 bytes, 512 blocks of 256 sectors), read-only:$' "$out/whole.out")" 1
check "a whole scan: no unreadable LBA, no slow region" \
	"$(grep -c -e '^ unreadable LBAs: none$' -e '^ slow regions (adjacent blocks of 150 ms or more): none$' "$out/whole.out")" 2
check "a whole scan without a terminal: nothing on stderr (no status line)" "$(wc -c < "$out/whole.err")" 0
sum=$(awk '$1 == "<" || $1 == ">=" { n += $(NF) } $1 == "unreadable" && NF == 2 { n += $2 } END { print n }' "$out/whole.out")
check "a whole scan: the classes' counts sum to the blocks read" "$sum" 512

scan json --json --surface-scan --scan-range 1000+300 "$d512"
check "--scan-range FIRST+COUNT exits 0" "$rc" 0
check "--json: the fields, in the issue's order" "$(jget "$out/json.out" '",".join(s.keys())')" \
	"scan_kind,first_lba,last_lba,logical_sector_bytes,block_sectors,blocks,blocks_read,completed,histogram,unreadable_lbas,slow_regions,seconds,bytes_per_second"
check "--json: scan_kind of a plain scan: read" "$(jget "$out/json.out" 's["scan_kind"]')" "read"
check "--json: 1000+300 is LBA 1000 to 1299, 512-byte sectors, 2 blocks (the last of 44 sectors)" \
	"$(jget "$out/json.out" '(s["first_lba"], s["last_lba"], s["logical_sector_bytes"], s["block_sectors"], s["blocks"], s["blocks_read"], s["completed"])')" \
	"(1000, 1299, 512, 256, 2, 2, True)"
check "--json: the histogram's classes, summing to blocks_read" \
	"$(jget "$out/json.out" '(",".join(s["histogram"]), sum(s["histogram"].values()))')" \
	"('lt_5ms,lt_20ms,lt_50ms,lt_150ms,lt_500ms,ge_500ms,unreadable', 2)"
check "--json: no unreadable LBA, no slow region, a time and a rate" \
	"$(jget "$out/json.out" '(s["unreadable_lbas"], s["slow_regions"], type(s["seconds"]).__name__, s["bytes_per_second"] > 0)')" \
	"([], [], 'float', True)"
b0=$(bytes_read "$d512")
scan last --json --surface-scan --scan-range 130000-131071 "$d512"
check "--scan-range FIRST-LAST to the last LBA: 1072 sectors, 5 blocks (the last of 48), read once" \
	"$(jget "$out/last.out" '(s["first_lba"], s["last_lba"], s["blocks"], s["blocks_read"], s["completed"])') $(($(bytes_read "$d512") - b0))" \
	"(130000, 131071, 5, 5, True) $((1072 * 512))"
scan one --json --surface-scan --scan-range 7-7 "$d512"
check "--scan-range of one LBA: one block" "$rc $(jget "$out/one.out" '(s["blocks"], s["blocks_read"])')" "0 (1, 1)"

# What reaches the device (strace): opened read-only, O_DIRECT for the reads; 0+600 is blocks of
# 131072 bytes in order and a last one of 88 sectors; nothing written.
if command -v strace > /dev/null; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -y -e trace=openat,open,pread64,pwrite64,write,writev,pwritev,io_uring_enter,io_submit,ioctl \
		-o "$out/strace" "$H" --surface-scan --scan-range 0+600 "$d512" > /dev/null 2>&1
	# BLKFLSBUF writes back other users' dirty buffers: a read-only scan with O_DIRECT sends none (issue 65, item 28).
	check "strace: no BLKFLSBUF" "$(grep -c 'BLKFLSBUF' "$out/strace")" 0
	check "strace: the device opened read-only, the scan's reads O_DIRECT" \
		"$(grep -c "open.*\"$d512\", O_RDONLY" "$out/strace") $(grep -c "open.*\"$d512\", O_RDONLY|O_DIRECT" "$out/strace") $(grep "open.*\"$d512\"" "$out/strace" | grep -c -e O_WRONLY -e O_RDWR)" \
		"2 1 0"
	check "strace: the reads, in order, the last one shorter; no write to the device" \
		"$(grep "<$d512>" "$out/strace" | sed -n 's/^pread64([0-9]*<[^>]*>, [^,]*, \([0-9]*\), \([0-9]*\)) = \([0-9]*\)$/\1@\2=\3/p' | paste -sd' ' -) $(grep "<$d512>" "$out/strace" | grep -c -e '^write' -e '^pwrite')" \
		"131072@0=131072 131072@131072=131072 45056@262144=45056 0"
else
	echo "skip surface-scan: strace: not installed"
fi

# --- bad input: one line on stderr, a non-zero exit, nothing read ---
before=$(reads "$d512")
n=0
for args in "--scan-range 0-131072" "--scan-range 131072+1" "--scan-range 5-3" "--scan-range 0+0" \
	"--scan-range a-b" "--scan-range 5" "--scan-range 1-2x" "--scan-range -1-5" "--scan-range 18446744073709551615+2" \
	"--scan-errors-max 0" "--scan-errors-max 0x10" "--scan-errors-max 1e3"; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the words of args are the options
	scan bad$n --surface-scan $args "$d512"
	if [ "$rc" != 0 ] && [ "$(wc -l < "$out/bad$n.err")" = 1 ]; then
		ok "refused, one line on stderr: --surface-scan $args"
	else
		bad "refused, one line on stderr: --surface-scan $args" "rc $rc" "$(cat "$out/bad$n.err")"
	fi
done
for args in "--scan-range 0-7" "--scan-errors-max 3"; do
	# shellcheck disable=SC2086
	scan alone $args "$d512"
	check "$args without --surface-scan: refused, one line" "$rc $(cat "$out/alone.err")" \
		"22 --scan-range and --scan-errors-max go with --surface-scan"
done
check "bad input: the device read nothing" "$(reads "$d512")" "$before"

# --- 4096-byte logical sectors: 64 MiB is 16384 LBAs of 4096 bytes, 64 blocks ---
truncate -s 64M "$out/img4k"
if d4k=$(loop_up "$out/img4k" 4096); then
	loops+=("$d4k")
	scan k4 --json --surface-scan "$d4k"
	check "4096-byte sectors: LBAs in its units (0 to 16383), 64 blocks" \
		"$rc $(jget "$out/k4.out" '(s["first_lba"], s["last_lba"], s["logical_sector_bytes"], s["blocks"], s["blocks_read"])')" \
		"0 (0, 16383, 4096, 64, 64)"
	b0=$(bytes_read "$d4k")
	scan k4r --json --surface-scan --scan-range 16000+384 "$d4k"
	check "4096-byte sectors: --scan-range 16000+384 reaches the last LBA, 2 blocks, 384 sectors of 4096 read" \
		"$rc $(jget "$out/k4r.out" '(s["first_lba"], s["last_lba"], s["blocks"], s["blocks_read"])') $(($(bytes_read "$d4k") - b0))" \
		"0 (16000, 16383, 2, 2) $((384 * 4096))"
	scan k4bad --surface-scan --scan-range 0-16384 "$d4k"
	check "4096-byte sectors: LBA 16384 is past the end" "$rc" 22
else
	bad "losetup --sector-size 4096" "no loop device"
fi

# --- the faulty disk: unreadable LBAs as ddrescue names them, slow regions, the limit, SIGINT ---
why=$(faulty_disk_missing)
if [ -n "$why" ]; then
	echo "skip surface-scan: the faulty disk: $why"
	echo "end of suite"
	exit 0
fi

# A 4 MiB disk (8192 sectors, 32 blocks): LBA 0, a run across blocks 255-257, a lone one, the last
# LBA bad; sectors 1000-1599 slow (blocks 768 to 1791, four adjacent blocks: one region).
mkdir -p "$out/fd"
if disk_up "$out/fd" 4 --bad 0 --bad 255+3 --bad 4000 --bad 8191 --slow 1000+600:160 2> "$out/fd.err"; then
	scan fault --json --surface-scan "$FAULTY_DEV"
	rm -f "$out/fd.map"
	ddrescue -d -b 512 -f "$FAULTY_DEV" /dev/null "$out/fd.map" > "$out/fd.ddrescue" 2>&1
	want=$(faulty_disk_bad_lbas "$out/fd.map" | paste -sd, -)
	check "the faulty disk: ddrescue names the bad LBAs made" "$want" "0,255,256,257,4000,8191"
	check "unreadable_lbas equal ddrescue's map; exit 5" \
		"$rc $(jget "$out/fault.out" '",".join(map(str, s["unreadable_lbas"]))')" "5 $want"
	check "the unreadable blocks are counted, every block read, completed" \
		"$(jget "$out/fault.out" '(s["histogram"]["unreadable"], s["blocks_read"], s["completed"], sum(s["histogram"].values()))')" \
		"(4, 32, True, 32)"
	# One region covers the four slow blocks; a neighbour block slowed past 150 ms by a loaded machine
	# may widen it by a block on either side, never split it (and a stray slow block elsewhere is a
	# region of its own, not this one).
	check "the slow sectors: one merged region over their blocks, worst at least 150 ms" \
		"$(jget "$out/fault.out" 'any(512 <= r["first_lba"] <= 768 and 1791 <= r["last_lba"] <= 2047 and r["worst_ms"] >= 150 for r in s["slow_regions"])')" \
		"True"
	scan faulttext --surface-scan "$FAULTY_DEV"
	check "text: the unreadable LBAs listed" "$rc $(grep '^ unreadable LBAs:' "$out/faulttext.out")" \
		"5  unreadable LBAs: 0, 255, 256, 257, 4000, 8191"
	scan max --json --surface-scan --scan-errors-max 3 "$FAULTY_DEV"
	# Block 1 (256-511), cut short after 256, is not counted as read (issue 65, item 25).
	check "--scan-errors-max 3: stops after the third, exit 5, not completed; the block cut short not counted" \
		"$rc $(jget "$out/max.out" '(s["unreadable_lbas"], s["blocks_read"], s["completed"], sum(s["histogram"].values()))') $(cat "$out/max.err")" \
		"5 ([0, 255, 256], 1, False, 1)  --surface-scan: stopped after 3 unreadable sectors (--scan-errors-max), before LBA 257"
	faulty_disk_down
else
	bad "the faulty disk comes up" "$(cat "$out/fd.err")"
fi

# On a terminal (script(1)): the status line, with the unreadable sector of block 0 counted.  Blocks
# 1 to 7 take 100 ms more each: the line is drawn every 0.25 s, so at least twice, whatever the load.
mkdir -p "$out/ft"
if disk_up "$out/ft" 1 --bad 10 --slow 256+1792:100 2> "$out/ft.err"; then
	script -qec "$H --surface-scan $FAULTY_DEV" /dev/null > "$out/tty.out" < /dev/null
	rc=$?
	n=$(grep -ao 'scan: [0-9.]*% done, LBA [0-9]*, [0-9]* MB/s, [0-9]*:[0-9][0-9]:[0-9][0-9] left, 1 unreadable' "$out/tty.out" | wc -l)
	if [ "$rc" = 5 ] && [ "$n" -ge 2 ] && grep -aq '^ unreadable LBAs: 10' "$out/tty.out"; then
		ok "on a terminal: the status line (share, LBA, MB/s, time left, unreadable so far), $n times"
	else
		bad "on a terminal: the status line (share, LBA, MB/s, time left, unreadable so far)" "exit $rc, $n lines" \
			"$(od -c "$out/tty.out" | tail -n 6)"
	fi
	faulty_disk_down
else
	bad "the faulty disk comes up (terminal)" "$(cat "$out/ft.err")"
fi

# SIGINT mid-scan: every read 100 ms slower; the signal once the faulty disk has logged the read of
# the block at 1024 (the scan is then at most one block further): the block in flight is read and
# counted, nothing more is asked, what was read is reported, exit 4.  (Many devices are scanned at
# once, each stopped so: tests/scan-many-tests.sh.)
mkdir -p "$out/fi"
if disk_up "$out/fi" 4 --slow 0+8192:100 2> "$out/fi.err"; then
	env --default-signal=INT,QUIT "$H" --json --surface-scan "$FAULTY_DEV" > "$out/int.out" 2> "$out/int.err" &
	pid=$!
	if until_true 30 grep -q '^read [0-9]* [0-9]* 1024 ' "$FAULTY_LOG"; then
		kill -INT "$pid"
	fi
	wait_within 120 "$pid"
	got=$(jget "$out/int.out" 's["blocks_read"]')
	logged=$(grep -c '^read ' "$FAULTY_LOG")
	if [ "$rc" = 4 ] && [ "$got" -ge 5 ] 2> /dev/null && [ "$got" -lt 32 ] && [ "$logged" = "$got" ]; then
		ok "SIGINT mid-scan: exit 4, $got blocks read and reported, no read after"
	else
		bad "SIGINT mid-scan: exit 4, the blocks read reported, no read after" "rc $rc, blocks_read $got, reads logged $logged"
	fi
	check "SIGINT mid-scan: not completed, the histogram sums to blocks_read, stderr says where it stopped" \
		"$(jget "$out/int.out" '(s["completed"], sum(s["histogram"].values()))') $(cat "$out/int.err")" \
		"(False, $got)  --surface-scan: interrupted: $got of 32 blocks read, stopped before LBA $((got * 256))"
	faulty_disk_down
else
	bad "the faulty disk comes up (slow)" "$(cat "$out/fi.err")"
fi
# SIGINT during the sector-by-sector search of a failed block (block 0 all bad, each sector read
# 50 ms slower: 256 of them would take 13 s): the search ends at the signal, sent once five sector
# reads are logged; the sectors named so far are listed, the block is not counted, exit 4.
mkdir -p "$out/fs"
if disk_up "$out/fs" 1 --bad 0+256 --slow 0+256:50 2> "$out/fs.err"; then
	env --default-signal=INT,QUIT "$H" --json --surface-scan "$FAULTY_DEV" > "$out/search.out" 2> "$out/search.err" &
	pid=$!
	five_sector_reads() { [ "$(grep -c '^read [0-9]* 512 ' "$FAULTY_LOG")" -ge 5 ]; }
	until_true 30 five_sector_reads && kill -INT "$pid"
	wait_within 120 "$pid"
	n=$(grep -c '^read [0-9]* 512 ' "$FAULTY_LOG")
	got=$(jget "$out/search.out" '(s["blocks_read"], s["completed"], s["unreadable_lbas"] == list(range(len(s["unreadable_lbas"]))), len(s["unreadable_lbas"]) >= 5)')
	if [ "$rc" = 4 ] && [ "$got" = "(0, False, True, True)" ] && [ "$n" -lt 128 ]; then
		ok "SIGINT during the search of a failed block: it ends there ($n sector reads), exit 4"
	else
		bad "SIGINT during the search of a failed block: it ends there, exit 4" "rc $rc, $got, $n sector reads" \
			"$(cat "$out/search.err")"
	fi
	faulty_disk_down
else
	bad "the faulty disk comes up (search)" "$(cat "$out/fs.err")"
fi

# A disk that stops answering (the FUSE server killed mid-scan, as a disk drops off its bus): every
# sector after fails, and so does a sector read before; the scan ends there, exit 6 (ENXIO), and
# the sectors of the block that failed are not listed as unreadable.
mkdir -p "$out/fk"
if disk_up "$out/fk" 16 --slow 0+32768:20 2> "$out/fk.err"; then
	"$H" --json --surface-scan "$FAULTY_DEV" > "$out/gone.out" 2> "$out/gone.err" &
	pid=$!
	until_true 30 grep -q '^read [0-9]* [0-9]* 2048 ' "$FAULTY_LOG" && kill -KILL "$FAULTY_PID"
	wait_within 120 "$pid"
	got=$(jget "$out/gone.out" '(s["unreadable_lbas"], s["completed"], s["blocks_read"] < s["blocks"])')
	if [ "$rc" = 6 ] && [ "$got" = "([], False, True)" ] && grep -q 'stopped answering' "$out/gone.err"; then
		ok "a disk that stops answering: the scan ends there, exit 6, no sector listed unreadable"
	else
		bad "a disk that stops answering: the scan ends there, exit 6, no sector listed unreadable" "rc $rc, $got" \
			"$(cat "$out/gone.err")"
	fi
	faulty_disk_down
else
	bad "the faulty disk comes up (gone)" "$(cat "$out/fk.err")"
fi

# A disk that drops off during a block's sector-by-sector search (issue 65, item 18): LBA 800 bad,
# 801-882 read in the search, and at the search's read of 883 the disk dies (the faulty disk's
# --die-at: no timing). Only 800 is unreadable (the sectors after it read); 883-1023 are not the
# medium's: exit 6, the block neither counted nor mapped, and a resumed scan (the disk back) lists
# nothing it did not read.
mkdir -p "$out/fd"
if disk_up "$out/fd" 1 --bad 800 --die-at 883:2 2> "$out/fd.err"; then
	scan died --json --surface-scan --scan-map "$out/died.map" "$FAULTY_DEV"
	check "the disk dies in a block's search: exit 6, only the LBA that failed before sectors read is listed; the block not counted" \
		"$rc $(jget "$out/died.out" '(s["unreadable_lbas"], s["completed"], s["blocks_read"])') $(grep -c 'stopped answering' "$out/died.err")" \
		"6 ([800], False, 3) 1"
	check "... and the map keeps no LBA of that block" "$(grep -c '^bad ' "$out/died.map")" 0
	faulty_disk_down
fi
if disk_up "$out/fd" 1 --bad 800 2> "$out/fd.err"; then
	scan resumed --json --surface-scan --scan-map "$out/died.map" "$FAULTY_DEV"
	check "... resumed on the disk back: the block read again, LBA 800 alone unreadable" \
		"$rc $(jget "$out/resumed.out" '(s["unreadable_lbas"], s["completed"], s["blocks_read"])')" "5 ([800], True, 8)"
	faulty_disk_down
else
	bad "the faulty disk comes up (died)" "$(cat "$out/fd.err")"
fi

# A disk that stops answering before any whole block read (item 19): LBAs 0-10 bad, 11-80 read in
# the search, the disk dies at the search's read of 81: exit 6, 0-10 listed and no more.
if disk_up "$out/fd" 4 --bad 0+11 --die-at 81:2 2> "$out/fd.err"; then
	scan died0 --json --surface-scan "$FAULTY_DEV"
	check "the disk dies before any whole block was read: exit 6, the 11 bad LBAs and no others, not completed" \
		"$rc $(jget "$out/died0.out" '(s["unreadable_lbas"] == list(range(11)), s["completed"], s["blocks_read"])')" \
		"6 (True, False, 0)"
	faulty_disk_down
else
	bad "the faulty disk comes up (died0)" "$(cat "$out/fd.err")"
fi

# --scan-errors-max is decimal, as --scan-range's LBAs are (issue 65, item 26): 010 is 10, not 8.
if disk_up "$out/fd" 1 --bad 0+12 2> "$out/fd.err"; then
	scan max010 --json --surface-scan --scan-errors-max 010 "$FAULTY_DEV"
	check "--scan-errors-max 010: ten unreadable LBAs, not eight" \
		"$rc $(jget "$out/max010.out" 's["unreadable_lbas"]')" "5 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]"
	faulty_disk_down
else
	bad "the faulty disk comes up (max010)" "$(cat "$out/fd.err")"
fi

# SIGINT, SIGTERM and SIGHUP with no timing at all: the FUSE server stopped (SIGSTOP), so the scan's
# first read is held in the device; once hdparm waits in it (state D, and on x86_64 or arm64 in
# pread64) and the signal is pending, the server goes on: the block in flight is read and counted,
# and nothing more: exactly one block, exit 4.
# waits_in_read and pending: tests/tools/scan-suite.sh.
mkdir -p "$out/fh"
for sig in INT TERM HUP; do
	if ! disk_up "$out/fh" 1 2> "$out/fh.err"; then
		bad "the faulty disk comes up (hold)" "$(cat "$out/fh.err")"
		break
	fi
	kill -STOP "$FAULTY_PID"
	env --default-signal=INT,QUIT "$H" --json --surface-scan "$FAULTY_DEV" > "$out/hold$sig.out" 2> "$out/hold$sig.err" &
	pid=$!
	held=no
	if until_true 20 waits_in_read "$pid"; then
		held=yes
		kill -"$sig" "$pid"
		until_true 10 pending "$pid" || held="no pending signal"
	fi
	kill -CONT "$FAULTY_PID"
	wait_within 120 "$pid"
	check "SIG$sig while the first block is read: it is read and counted, nothing more, exit 4" \
		"$held $rc $(jget "$out/hold$sig.out" '(s["blocks"], s["blocks_read"], s["completed"], sum(s["histogram"].values()))') $(cat "$out/hold$sig.err")" \
		"yes 4 (8, 1, False, 1)  --surface-scan: interrupted: 1 of 8 blocks read, stopped before LBA 256"
	faulty_disk_down
done
echo "end of suite"
