#!/bin/bash
# --surface-scan DEV1 DEV2 ... (issue 61, item 10): many disks scanned together, a process per disk
# (the together runner, run/together*.c), on loop devices with direct I/O and the faulty disk of
# tests/tools/faulty-disk.sh.  No test waits for a time: the faulty disk's FUSE server is stopped
# (SIGSTOP), which holds every read of it in the kernel, and a test then waits for a state (another
# disk's reads counted, a process blocked in its read, a signal pending).
#   - a range past the end of one disk, or one disk named twice (a link): the whole command refused,
#     nothing read from any disk (the read counters of /sys/block/loopN/stat do not move);
#   - together: with the faulty disk's first read held, the other disks are read to their end;
#   - each disk's text summary whole, in the order named, as runs of one print them; the faulty
#     disk's unreadable LBAs those of ddrescue's map, the others none; exit 5;
#   - --json: one surface_scan object per device, in order;
#   - --continue-on-refusal: the others scanned; the refusal's status wins over an unreadable sector;
#   - SIGINT to hdparm with two disks' reads held: each ends after its block in flight and reports
#     it, a finished disk reports all; exit 4.  SIGKILL of hdparm: the disks' processes end too;
#   - on a terminal: one status line for all the disks, none per disk.
# Usage: scan-many-tests.sh HDPARM OUTDIR.  Needs root.
set -u
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2/scan-many
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034 # lib.sh's ok and bad read it
suite="scan-many"
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/tools/faulty-disk.sh
. "$here/tools/faulty-disk.sh"
# shellcheck source=tests/tools/scan-suite.sh
. "$here/tools/scan-suite.sh"

if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null; then
	echo "skip scan-many: needs root and losetup"
	echo "end of suite"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
loops=()
held=""
cleanup() {
	local l
	[ -z "$held" ] || kill -CONT "$held" 2> /dev/null
	for l in "${loops[@]}"; do losetup -d "$l" 2> /dev/null; done
	faulty_disk_down
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# jall FILE EXPR: EXPR over the JSON document's devices (d: the list), in Python.
jall() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["devices"]; print(eval(sys.argv[2]))' "$1" "$2" 2>&1
}
# The text of a summary less what timing decides: the count of each time class, the MB/s line.
untimed() { sed -E 's/^(  (<|>=) [0-9]+ ms) +[0-9]+$/\1 N/; s/^ [0-9.]+ MB read in .*/ MB read/' "$@"; }

# --- plain loop devices: 8 MiB (16384 sectors, 64 blocks) twice, and 1 MiB (2048 sectors) ---
for f in a b c; do truncate -s 8M "$out/img$f"; done
truncate -s 1M "$out/imgc"
for img in imga imgb imgc; do
	if ! dev=$(loop_up "$out/$img"); then
		bad "losetup --direct-io=on" "no loop device"
		exit 0
	fi
	loops+=("$dev")
done
d1=${loops[0]} d2=${loops[1]} d3=${loops[2]}
counts() { echo "$(reads "$d1") $(reads "$d2") $(reads "$d3")"; }

# A range inside two disks and past the end of the third (LBA 4095 of 2048): all refused, at the
# gate, before any is read; the line names the disk.  The exit status is the runner's (the last disk
# that failed: the third, told "not started", 125).
before=$(counts)
scan range --surface-scan --scan-range 0-4095 "$d1" "$d3" "$d2"
check "--scan-range past the end of one disk: all refused, nothing read from any disk" \
	"$rc $(counts) $(grep -c "^ --scan-range 0-4095: past the end of $d3 (2048 sectors of 512 bytes: the last LBA is 2047)$" "$out/range.err") $(grep -c 'surface scan of LBA' "$out/range.out")" \
	"125 $before 1 0"
scan rangej --json --surface-scan --scan-range 0-4095 "$d1" "$d3" "$d2"
check "--json: the refusal in the third disk's object, no surface_scan object, nothing read" \
	"$rc $(counts) $(jall "$out/rangej.out" '([x["name"] for x in d], ["surface_scan" in x for x in d], "past the end" in d[1]["errors"][0]["message"])')" \
	"125 $before (['$d1', '$d3', '$d2'], [False, False, False], True)"

# One disk named twice, through a link: refused as the runner refuses it, nothing read.
ln -sf "$d1" "$out/link"
before=$(counts)
scan twice --surface-scan "$d1" "$d2" "$out/link"
check "one disk named twice (a link): refused, nothing read" \
	"$rc $(counts) $(grep -c "^ $out/link reaches a disk that $d1 reaches too: each disk is scanned once, named once$" "$out/twice.err")" \
	"22 $before 1"

why=$(faulty_disk_missing)
if [ -n "$why" ]; then
	echo "skip scan-many: the faulty disk: $why"
	echo "end of suite"
	exit 0
fi

# --- the faulty disk: 4 MiB (8192 sectors, 32 blocks), bad LBAs past its first block ---
mkdir -p "$out/fd"
if ! faulty_disk_up "$out/fd" 4 --bad 1000 --bad 2047+3 --bad 8191 2> "$out/fd.err"; then
	bad "the faulty disk comes up" "$(cat "$out/fd.err")"
	echo "end of suite"
	exit 0
fi
settle
: > "$FAULTY_LOG"
f=$FAULTY_DEV
ddrescue -d -b 512 -f "$f" /dev/null "$out/fd.map" > "$out/fd.ddrescue" 2>&1
want=$(faulty_disk_bad_lbas "$out/fd.map" | paste -sd, -)
check "the faulty disk: ddrescue names the bad LBAs made" "$want" "1000,2047,2048,2049,8191"

# Text: each disk's summary whole, in the order named, as runs of one one after another print them.
scan text --surface-scan "$d1" "$f" "$d2"
for d in "$d1" "$f" "$d2"; do "$H" --surface-scan "$d"; done > "$out/alone.out" 2> /dev/null
check "text: exit 5 (unreadable sectors on one disk)" "$rc" 5
if diff <(untimed "$out/alone.out") <(untimed "$out/text.out") > "$out/text.diff"; then
	ok "text: each summary whole, in the order named, as three runs of one print them"
else
	bad "text: each summary whole, in the order named, as three runs of one print them" "$(head -n 20 "$out/text.diff")"
fi
check "text: the faulty disk's unreadable LBAs are ddrescue's, the others none" \
	"$(grep '^ unreadable LBAs:' "$out/text.out" | paste -sd'|' -)" \
	" unreadable LBAs: none| unreadable LBAs: ${want//,/, }| unreadable LBAs: none"

# Together: the faulty disk named first and its reads held (its server stopped): the two disks after
# it are read to their end meanwhile.  Then it goes on; --json: one surface_scan object a device.
: > "$FAULTY_LOG"
kill -STOP "$FAULTY_PID" && held=$FAULTY_PID
b1=$(bytes_read "$d1") b2=$(bytes_read "$d2")
"$H" --json --surface-scan "$f" "$d1" "$d2" > "$out/together.out" 2> "$out/together.err" &
pid=$!
both_read() { [ $(($(bytes_read "$d1") - b1)) -ge $((8 << 20)) ] && [ $(($(bytes_read "$d2") - b2)) -ge $((8 << 20)) ]; }
if until_true 20 both_read; then
	check "together: the second and third disks read whole while the first disk's read is held" \
		"$(kill -0 "$pid" 2> /dev/null && echo running) $(grep -c '^read ' "$FAULTY_LOG")" "running 0"
else
	bad "together: the second and third disks read whole while the first disk's read is held" \
		"read $(($(bytes_read "$d1") - b1)) and $(($(bytes_read "$d2") - b2)) bytes"
fi
kill -CONT "$FAULTY_PID" && held=""
wait_within 120 "$pid"
check "--json: exit 5, one device object each, in order, each with one surface_scan object" \
	"$rc $(jall "$out/together.out" '([x["name"] for x in d], [list(x).count("surface_scan") for x in d])')" \
	"5 (['$f', '$d1', '$d2'], [1, 1, 1])"
check "--json: the faulty disk's unreadable_lbas are ddrescue's, the others none, all completed" \
	"$(jall "$out/together.out" '[(",".join(map(str, x["surface_scan"]["unreadable_lbas"])), x["surface_scan"]["completed"], x["surface_scan"]["blocks_read"]) for x in d]')" \
	"[('$want', True, 32), ('', True, 64), ('', True, 64)]"

# --continue-on-refusal: the disk refused (its range past the end) is not scanned, the others are; the
# refusal's status (22) wins over the unreadable sectors (5) of the last disk.
before=$(reads "$d3")
scan cont --json --continue-on-refusal --surface-scan --scan-range 0-4095 "$d3" "$f"
check "--continue-on-refusal: the other disk scanned (LBA 0-4095: 1000, 2047-2049), exit 22, the refused one unread" \
	"$rc $(reads "$d3") $(jall "$out/cont.out" '["surface_scan" in x for x in d], d[1]["surface_scan"]["unreadable_lbas"]')" \
	"22 $before ([False, True], [1000, 2047, 2048, 2049])"

# SIGINT with reads held: the faulty disk twice (a second loop device over the same file: the same
# held server) and a plain disk between them.  Once both processes wait in their first read and the
# signal hdparm passed on is pending in each, the server goes on: each reads its block in flight and
# no more, and reports it; the plain disk, read whole meanwhile, reports all of it; exit 4.
waits_in_read() {
	local nr
	case "$(uname -m)" in x86_64) nr=17 ;; aarch64) nr=67 ;; *) nr="" ;; esac
	[ "$(awk '{ print $3 }' "/proc/$1/stat" 2> /dev/null)" = D ] || return 1
	[ -z "$nr" ] || [ "$(cut -d' ' -f1 "/proc/$1/syscall" 2> /dev/null)" = "$nr" ]
}
pending() { awk '/^(ShdPnd|SigPnd):/ && $2 !~ /^0+$/ { f = 1 } END { exit !f }' "/proc/$1/status" 2> /dev/null; }
# Read one block at a time, as the faulty disk's own loop device (faulty_disk_up): rotating.
if f2=$(loop_up "$FAULTY_DIR/mnt/disk"); then loops+=("$f2"); echo 1 > "/sys/block/${f2#/dev/}/queue/rotational"; else bad "a second loop device over the faulty disk" "losetup failed"; fi
: > "$FAULTY_LOG"
kill -STOP "$FAULTY_PID" && held=$FAULTY_PID
env --default-signal=INT,QUIT,TERM,HUP "$H" --json --surface-scan "$f" "$d1" "$f2" > "$out/int.out" 2> "$out/int.err" &
pid=$!
holding() { c1=$(child_holding "$pid" "$f") && c2=$(child_holding "$pid" "$f2") && waits_in_read "$c1" && waits_in_read "$c2"; }
# The plain disk's process ended and reaped first: a signal passed on to it once its scan is over would
# end it before its summary, a window of microseconds that a test must not fall into.
two_left() { [ "$(pgrep -P "$pid" | wc -l)" = 2 ]; }
state=no c1="" c2=""
if until_true 20 holding && until_true 20 two_left; then
	kill -INT "$pid"
	until_true 10 pending "$c1" && until_true 10 pending "$c2" && state=yes
fi
kill -CONT "$FAULTY_PID" && held=""
wait_within 120 "$pid"
check "SIGINT: exit 4; each held disk read its block in flight only and reported it, the plain disk all" \
	"$state $rc $(grep -c '^read ' "$FAULTY_LOG") $(jall "$out/int.out" '[(x["name"], x["surface_scan"]["blocks_read"], x["surface_scan"]["completed"]) for x in d]')" \
	"yes 4 2 [('$f', 1, False), ('$d1', 64, True), ('$f2', 1, False)]"

# SIGKILL of hdparm with both reads held: its disks' processes get SIGTERM (their parent gone), read
# their block in flight and end, reading nothing more.
: > "$FAULTY_LOG"
kill -STOP "$FAULTY_PID" && held=$FAULTY_PID
"$H" --surface-scan "$f" "$f2" > "$out/kill.out" 2> "$out/kill.err" &
pid=$!
disown "$pid" # no "Killed" line from bash: its end is not what is checked
state=no c1="" c2=""
if until_true 20 holding; then
	kill -KILL "$pid"
	until_true 10 pending "$c1" && until_true 10 pending "$c2" && state=yes
fi
kill -CONT "$FAULTY_PID" && held=""
gone() { [ -n "$c1" ] && [ -n "$c2" ] && ! kill -0 "$c1" 2> /dev/null && ! kill -0 "$c2" 2> /dev/null; }
until_true 20 gone && state="$state ended"
check "SIGKILL of hdparm: each disk's process ends after its block in flight, nothing more read" \
	"$state $(grep -c '^read ' "$FAULTY_LOG")" "yes ended 2"

# One disk that hangs among three (issue 65, item 21): the disk named before it is said as soon as it
# has ended, not when the hung one does; a second stop signal (SIGTERM after SIGINT) kills the disks' processes still running,
# leaves behind the one held in the kernel (exit 137: a process killed), and says every other disk's summary.
: > "$FAULTY_LOG"
kill -STOP "$FAULTY_PID" && held=$FAULTY_PID
env --default-signal=INT,QUIT,TERM,HUP "$H" --surface-scan "$d1" "$f" "$d2" > "$out/hang.out" 2> "$out/hang.err" &
pid=$!
said_first() { grep -q "^ unreadable LBAs: none" "$out/hang.out"; }
one_left() { [ "$(pgrep -P "$pid" | wc -l)" = 1 ]; }
state=no c1=""
if until_true 20 said_first && until_true 20 one_left && c1=$(child_holding "$pid" "$f") && waits_in_read "$c1"; then
	state="$(grep -c '^/dev/' "$out/hang.out") said"
	kill -INT "$pid"
	# The second one another signal: acted on as a second SIGINT is, not raised again after the report.
	until_true 10 pending "$c1" && kill -TERM "$pid" && state="$state twice"
fi
wait_within 30 "$pid"
kill -CONT "$FAULTY_PID" && held=""
check "a hung disk: the disk before it said while it hangs; SIGINT, then SIGTERM ends the run (exit 137), the disk after it said too" \
	"$state $rc $(grep '^/dev/' "$out/hang.out" | paste -sd' ' -) $(grep -c '^ unreadable LBAs: none$' "$out/hang.out")" \
	"1 said twice 137 $d1: $f: $d2: 2"
check "a hung disk: the second signal said, and the hung disk's process killed and left behind" \
	"$(grep -c '^hdparm: signal 15 (Terminated) again: the disks.* processes still running are killed$' "$out/hang.err") $(grep -c "^$f: the process .* was killed by signal 9 (Killed): its scan ended there, without its summary; nothing was written to the disk; its process, held in the kernel, was left behind$" "$out/hang.err")" \
	"1 1"
faulty_disk_down

# On a terminal (script(1)): one status line for both disks, redrawn, none per disk.  The faulty disk
# is slowed (blocks 1 to 7 100 ms more each): its process relays its line every 0.25 s.
mkdir -p "$out/ft"
if faulty_disk_up "$out/ft" 1 --bad 10 --slow 256+1792:100 2> "$out/ft.err"; then
	script -qec "$H --surface-scan $FAULTY_DEV $d1" /dev/null > "$out/tty.out" < /dev/null
	rc=$?
	n=$(grep -ao $'scan of 2 disks: [0-9.]*\\(-[0-9.]*\\)\\?% done, [0-9]* MB/s, [0-9]*:[0-9][0-9]:[0-9][0-9] left, [0-9]* unreadable\e\\[K' "$out/tty.out" | wc -l)
	per_disk=$(grep -ac "$FAULTY_DEV: \|$d1: " "$out/tty.out")
	if [ "$rc" = 5 ] && [ "$n" -ge 1 ] && [ "$per_disk" = 0 ] && grep -aq '^ unreadable LBAs: 10' "$out/tty.out"; then
		ok "on a terminal: one status line for the two disks ($n times), none per disk"
	else
		bad "on a terminal: one status line for the two disks, none per disk" "exit $rc, $n lines, $per_disk per disk" \
			"$(od -c "$out/tty.out" | tail -n 8)"
	fi
	faulty_disk_down
else
	bad "the faulty disk comes up (terminal)" "$(cat "$out/ft.err")"
fi
echo "end of suite"
