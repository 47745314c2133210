#!/bin/bash
# --surface-scan with several blocks in flight (--scan-depth, issue 68): the depth chosen (1 on a
# rotating disk, else up to 32 or the device's nr_requests), bad input, and on the faulty disk
# (tests/tools/faulty-disk.sh) the scan's key cases again at depth 8: the unreadable LBAs held to
# ddrescue's map and to a scan at depth 1, the same classes and slow region, --scan-errors-max; a
# block held by the disk while the 7 after it are read (several reads in flight, come back out of
# order: the faulty disk's log shows them), still the one slow region; and a signal while it is
# held: it is counted, nothing after it.  No timing: the test releases the held read once the log
# shows what it waits for.
# Usage: scan-depth-tests.sh HDPARM OUTDIR.  Needs root.
set -u
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2/scan-depth
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034 # lib.sh's ok and bad read it
suite="scan-depth"
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/tools/faulty-disk.sh
. "$here/tools/faulty-disk.sh"
# shellcheck source=tests/tools/scan-suite.sh
. "$here/tools/scan-suite.sh"

rm -rf "$out"
mkdir -p "$out"
# The time of a block with others in flight, out of order and side by side (cases the faulty disk
# cannot give: its loop device reads one request at a time).
# shellcheck disable=SC2086
if ${CC:-cc} -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$here/../ops/scan" ${CFLAGS:-} ${LDFLAGS:-} -o "$out/unit" \
	"$here/unit/scan_depth_unit.c" "$here/../ops/scan/scan_classes.c" 2> "$out/unit.build"; then
	"$out/unit"
else
	bad "build tests/unit/scan_depth_unit.c" "$(head -n 5 "$out/unit.build")"
fi

if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null; then
	echo "skip scan-depth: needs root and losetup"
	echo "end of suite"
	exit 0
fi
loop=''
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop" 2> /dev/null
	faulty_disk_down
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# --- bad input: one line, nothing read ---
for args in "--surface-scan --scan-depth 0" "--surface-scan --scan-depth 129" "--surface-scan --scan-depth x" "--scan-depth 8"; do
	# shellcheck disable=SC2086
	scan bad $args /dev/null
	if [ "$rc" != 0 ] && [ "$(wc -l < "$out/bad.err")" = 1 ] && [ ! -s "$out/bad.out" ]; then
		ok "refused, one line on stderr: $args"
	else
		bad "refused, one line on stderr: $args" "rc $rc" "$(cat "$out/bad.err")"
	fi
done

# --- the depth chosen: the engine's own word (--verbose) on a loop device told it rotates or not ---
truncate -s 16M "$out/img"
if loop=$(loop_up "$out/img"); then
	q=/sys/block/${loop#/dev/}/queue
	depth_of() { "$H" --verbose --surface-scan "$@" "$loop" 2> /dev/null | grep -o '[0-9]* blocks\? in flight'; }
	if echo 1 > "$q/rotational" 2> /dev/null; then
		check "a rotating disk: one block in flight" "$(depth_of)" "1 block in flight"
		check "a rotating disk, --scan-depth 8: eight" "$(depth_of --scan-depth 8)" "8 blocks in flight"
		echo 0 > "$q/rotational"
		# Bounded by what its hardware queue takes at once too (blk-mq's tags; 128 for a loop device).
		tags=$(cat "/sys/block/${loop#/dev/}/mq/0/nr_tags" 2> /dev/null || echo 32)
		want=32
		[ "$(cat "$q/nr_requests")" -lt "$want" ] && want=$(cat "$q/nr_requests")
		[ "$tags" -lt "$want" ] && want=$tags
		check "not rotating: up to 32 in flight (nr_requests $(cat "$q/nr_requests"), $tags tags)" "$(depth_of)" "$want blocks in flight"
		if echo 16 > "$q/nr_requests" 2> /dev/null && [ "$(cat "$q/nr_requests")" = 16 ]; then
			check "not rotating, nr_requests 16: 16 in flight" "$(depth_of)" "16 blocks in flight"
		else
			echo "skip scan-depth: nr_requests cannot be set to 16 here"
		fi
		check "--scan-depth 1: one block in flight" "$(depth_of --scan-depth 1)" "1 block in flight"
		check "a range of 3 blocks: 3 in flight" "$(depth_of --scan-range 0+768)" "3 blocks in flight"
	else
		echo "skip scan-depth: the loop device's queue/rotational cannot be set"
	fi
	scan whole --json --surface-scan --scan-depth 8 "$loop"
	check "--scan-depth 8: a whole 16 MiB scan, 128 blocks read, completed, exit 0" \
		"$rc $(jget "$out/whole.out" '(s["blocks"], s["blocks_read"], s["completed"], sum(s["histogram"].values()))')" \
		"0 (128, 128, True, 128)"
	# io_uring as Linux 5.4 and 5.5 have it (tests/tools/old-uring.c): no IOSQE_ASYNC there, each read
	# that asks for it fails (EINVAL); the scan reads every block all the same, through io_uring.
	# shellcheck disable=SC2086
	if ${CC:-cc} -shared -fPIC -O2 -o "$out/old-uring.so" "$here/tools/old-uring.c" -ldl 2> "$out/old-uring.build"; then
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD="$out/old-uring.so" \
			"$H" --verbose --surface-scan --scan-depth 8 "$loop" > "$out/old.out" 2> "$out/old.err"
		rc=$?
		check "io_uring of Linux 5.5 (no IOSQE_ASYNC): every block read, through io_uring, exit 0" \
			"$rc $(grep -o '^ read engine: io_uring' "$out/old.out") $(grep -o 'read  *[0-9]* of [0-9]*' "$out/old.out" | tr -s ' ') $(cat "$out/old.err")" \
			"0  read engine: io_uring read 128 of 128 "
	else
		bad "build tests/tools/old-uring.c" "$(head -n 5 "$out/old-uring.build")"
	fi
	losetup -d "$loop"
	loop=''
else
	bad "losetup --direct-io=on" "no loop device"
fi

why=$(faulty_disk_missing)
if [ -n "$why" ]; then
	echo "skip scan-depth: the faulty disk: $why"
	echo "end of suite"
	exit 0
fi

# --- the faulty disk of tests/surface-scan-tests.sh: LBA 0, a run across blocks 255-257, a lone
# one, the last LBA bad; sectors 1000-1599 slow (blocks 768 to 1791: one region) ---
mkdir -p "$out/fd"
if disk_up "$out/fd" 4 --bad 0 --bad 255+3 --bad 4000 --bad 8191 --slow 1000+600:160 2> "$out/fd.err"; then
	scan d8 --json --surface-scan --scan-depth 8 "$FAULTY_DEV"
	scan d1 --json --surface-scan --scan-depth 1 "$FAULTY_DEV"
	ddrescue -d -b 512 -f "$FAULTY_DEV" /dev/null "$out/fd.map" > "$out/fd.ddrescue" 2>&1
	want=$(faulty_disk_bad_lbas "$out/fd.map" | paste -sd, -)
	lbas='",".join(map(str, s["unreadable_lbas"]))'
	check "depth 8: unreadable_lbas equal ddrescue's map and depth 1's" \
		"$(jget "$out/d8.out" "$lbas") $(jget "$out/d1.out" "$lbas")" "$want $want"
	check "depth 8: the unreadable blocks counted, every block read, completed" \
		"$(jget "$out/d8.out" '(s["histogram"]["unreadable"], s["blocks_read"], s["completed"], sum(s["histogram"].values()))')" \
		"(4, 32, True, 32)"
	# As in surface-scan-tests.sh: a neighbour slowed by a loaded machine may widen it by a block.
	check "depth 8: the slow sectors, one merged region over their blocks, worst at least 150 ms" \
		"$(jget "$out/d8.out" 'any(512 <= r["first_lba"] <= 768 and 1791 <= r["last_lba"] <= 2047 and r["worst_ms"] >= 150 for r in s["slow_regions"])')" \
		"True"
	scan max --json --surface-scan --scan-depth 8 --scan-errors-max 3 "$FAULTY_DEV"
	check "depth 8, --scan-errors-max 3: stops after the third, exit 5, the block cut short not counted" \
		"$rc $(jget "$out/max.out" '(s["unreadable_lbas"], s["blocks_read"], s["completed"], sum(s["histogram"].values()))') $(cat "$out/max.err")" \
		"5 ([0, 255, 256], 1, False, 1)  --surface-scan: stopped after 3 unreadable sectors (--scan-errors-max), before LBA 257"
	faulty_disk_down
else
	bad "the faulty disk comes up" "$(cat "$out/fd.err")"
fi

# --- native AIO (io_uring_setup refused, as kernel.io_uring_disabled or a seccomp filter does): its
# batch of reads is merged by the block layer into one request, and a bad sector fails the whole
# request, the blocks after it with no bad sector too.  Each failed block is read again alone before
# any search: only the blocks holding LBA 0, 4000 and 9000 are searched sector by sector (256 reads
# each, and after the failures of 4000 and 9000 the sector read before; none after LBA 0's), as at
# depth 1.  (Each block merged with a bad one was searched, and counted slow by its search.) ---
mkdir -p "$out/fa"
if ! command -v strace > /dev/null; then
	echo "skip scan-depth: native AIO: no strace"
elif disk_up "$out/fa" 8 --bad 0 --bad 4000 --bad 9000 2> "$out/fa.err"; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o "$out/aio.trace" -e trace=io_submit,io_uring_setup \
		-e inject=io_uring_setup:error=EPERM "$H" --json --surface-scan --scan-depth 8 "$FAULTY_DEV" > "$out/aio.out" 2> "$out/aio.err"
	rc=$?
	check "native AIO at depth 8: the blocks merged with a bad one read alone, not searched; ddrescue's LBAs" \
		"$rc $(grep -c 'io_submit(' "$out/aio.trace" | sed 's/^[1-9][0-9]*$/submitted/') $(jget "$out/aio.out" '(s["unreadable_lbas"], s["blocks_read"], s["histogram"]["unreadable"])') $(grep -c '^read [0-9]* 512 ' "$FAULTY_LOG")" \
		"5 submitted ([0, 4000, 9000], 64, 3) $((3 * 256 + 2))"
	faulty_disk_down
else
	bad "the faulty disk comes up (AIO)" "$(cat "$out/fa.err")"
fi

# in_flight N: the faulty disk's loop device has N reads in flight (begun, not ended).
in_flight() { [ "$(awk '{ print $1 }' "/sys/block/${FAULTY_DEV#/dev/}/inflight")" = "$1" ]; }
# held_with_7_more: block 0's read held by the disk, the 7 blocks after it sent and waiting behind it.
held_with_7_more() { grep -q '^held 0$' "$FAULTY_LOG" && in_flight 8; }
not_pending() { ! pending "$1"; }

# --- the disk dies in a block's search while the blocks after it are back (not counted): exit 6, as
# at depth 1 (surface-scan-tests.sh); 883's third read kills it (block 3's read in flight, its read
# alone, then the search's); the map keeps the blocks before it, and the scan resumed at
# depth 8 reads the rest in order ---
mkdir -p "$out/fd"
if disk_up "$out/fd" 1 --bad 800 --die-at 883:3 2> "$out/fd.err"; then
	scan died --json --surface-scan --scan-depth 8 --scan-map "$out/died.map" "$FAULTY_DEV"
	check "depth 8, the disk dies in block 3's search: exit 6, LBA 800 alone listed, blocks 0-2 counted" \
		"$rc $(jget "$out/died.out" '(s["unreadable_lbas"], s["completed"], s["blocks_read"])') $(grep -c 'stopped answering' "$out/died.err")" \
		"6 ([800], False, 3) 1"
	faulty_disk_down
	if disk_up "$out/fd" 1 --bad 800 2> "$out/fd.err"; then
		scan resumed --json --surface-scan --scan-depth 8 --scan-map "$out/died.map" "$FAULTY_DEV"
		# Reads: blocks 3-7, block 3 again alone, its 256 sectors and, after 800 failed, the sector read before it.
		check "depth 8, resumed on the disk back: blocks 3-7 read, LBA 800 alone unreadable" \
			"$rc $(jget "$out/resumed.out" '(s["unreadable_lbas"], s["completed"], s["blocks_read"])') $(grep -c '^read ' "$FAULTY_LOG")" \
			"5 ([800], True, 8) $((5 + 1 + 256 + 1))"
		faulty_disk_down
	fi
else
	bad "the faulty disk comes up (died)" "$(cat "$out/fd.err")"
fi

# --- block 0 held by the disk, then 200 ms slow: blocks 1 to 7 are sent meanwhile (8 reads in
# flight, the loop device's own count) and wait behind it in the loop device, which reads one at a
# time.  Each is timed from its sending to its return, as at depth 1: their wait behind block 0 is
# in their time, so a depth forced above what such a device serves at once makes one slow region
# of all 8 (hdparm.8, --scan-depth; by default such a device is read at depth 1) ---
mkdir -p "$out/fo"
if disk_up "$out/fo" 1 --hold "0:$out/fo/go" --slow 0+1:200 2> "$out/fo.err"; then
	"$H" --json --surface-scan --scan-depth 8 "$FAULTY_DEV" > "$out/order.out" 2> "$out/order.err" &
	pid=$!
	held=no
	until_true 30 held_with_7_more && held=yes
	touch "$out/fo/go"
	wait_within 60 "$pid"
	check "depth 8: 8 reads in flight while block 0 is held (/sys/block/loopN/inflight)" "$held" yes
	check "depth 8, blocks queued behind a slow one in a device that reads one at a time: their wait is their time, one slow region of the 8" \
		"$rc $(jget "$out/order.out" '(s["blocks_read"], len(s["slow_regions"]), s["slow_regions"][0]["first_lba"], s["slow_regions"][0]["last_lba"], s["slow_regions"][0]["worst_ms"] >= 150)')" \
		"0 (8, 1, 0, 2047, True)"
	faulty_disk_down
else
	bad "the faulty disk comes up (held)" "$(cat "$out/fo.err")"
fi

# --- SIGINT while block 0 is held, the 7 after it in flight: block 0 is counted, nothing after it
# (the 7 come back but are not counted), no read asked after the signal, exit 4 ---
mkdir -p "$out/fh"
if disk_up "$out/fh" 1 --hold "0:$out/fh/go" 2> "$out/fh.err"; then
	env --default-signal=INT,QUIT "$H" --json --surface-scan --scan-depth 8 "$FAULTY_DEV" > "$out/int.out" 2> "$out/int.err" &
	pid=$!
	held=no
	if until_true 30 held_with_7_more; then
		held=yes
		kill -INT "$pid"
		# Handled, not left pending: the scan waits for its reads interruptibly (io_uring_enter).
		until_true 10 not_pending "$pid" || held="the signal still pending"
	fi
	touch "$out/fh/go"
	wait_within 60 "$pid"
	check "depth 8, SIGINT while block 0 is held: it is counted, nothing after it, no read more, exit 4" \
		"$held $rc $(jget "$out/int.out" '(s["blocks_read"], s["completed"])') $(grep -c '^read ' "$FAULTY_LOG") $(cat "$out/int.err")" \
		"yes 4 (1, False) 8  --surface-scan: interrupted: 1 of 8 blocks read, stopped before LBA 256"
	faulty_disk_down
else
	bad "the faulty disk comes up (signal)" "$(cat "$out/fh.err")"
fi

# --- SIGINT while block 0, failed (LBA 0 bad), waits for the 7 after it, block 7 held by the disk:
# nothing is counted, and neither block 0's read alone nor its search sends a read after the signal ---
mkdir -p "$out/fb"
if disk_up "$out/fb" 1 --bad 0 --hold "1792:$out/fb/go" 2> "$out/fb.err"; then
	env --default-signal=INT,QUIT "$H" --json --surface-scan --scan-depth 8 "$FAULTY_DEV" > "$out/fint.out" 2> "$out/fint.err" &
	pid=$!
	held=no
	failed_and_held() { grep -q '^held 1792$' "$FAULTY_LOG" && grep -q '^read 0 131072 0 255 EIO' "$FAULTY_LOG"; }
	if until_true 30 failed_and_held; then
		held=yes
		kill -INT "$pid"
		until_true 10 not_pending "$pid" || held="the signal still pending"
	fi
	touch "$out/fb/go"
	wait_within 60 "$pid"
	check "depth 8, SIGINT while a failed block waits for the others: no read after it, nothing counted, exit 4" \
		"$held $rc $(jget "$out/fint.out" '(s["blocks_read"], s["completed"], s["unreadable_lbas"])') $(grep -c '^read ' "$FAULTY_LOG") $(cat "$out/fint.err")" \
		"yes 4 (0, False, []) 8  --surface-scan: interrupted: 0 of 8 blocks read, stopped before LBA 0"
	faulty_disk_down
else
	bad "the faulty disk comes up (a failed block, signal)" "$(cat "$out/fb.err")"
fi
echo "end of suite"
