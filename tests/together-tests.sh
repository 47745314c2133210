#!/bin/bash
# The runner of many disks at once (run/together.c) under what a field user meets: its parent killed
# or hung up on, a disk's process stopped while the others wait at the gate, stdout's reader gone,
# no descriptors or processes left.  Two NVMe controllers on the double (tests/tools/sgio-shim.c:
# /dev/null and /dev/zero, each process with its own copy) take a firmware download of three 4 KiB
# pieces, each held in its first Firmware Image Download (admin 11h, NVMe Base 2.0 5.11) until the
# test opens a gate; the Firmware Commit is admin 10h (5.10).  The ATA runs hold IDENTIFY DEVICE
# (ECh) or SECURITY ERASE UNIT (F4h, ACS-3 7.38), seen in ATA PASS-THROUGH (16)'s byte 14.
# Nothing is timed: each check waits for a state (until_true), a hang is a FAIL.
# Usage: together-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2/together
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" "$out/sysfs-none/sys"
suite="together" double_name=together-signals
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
yes=--yes-i-know-what-i-am-doing
crafted_ctrl=$top/tests/nvme/crafted-ctrl.hex
crafted_ata=$top/tests/identify/pages/crafted-security-big.hex
head -c 12288 /dev/urandom > "$out/fw.bin"

# fw_bg ARGS...: hdparm's firmware download to both controllers in the background (pid), each
# held in its first piece until $out/gate exists; the double's log in $out/fw.log.
fw_bg() {
	rm -f "$out/fw.log" "$out/gate"
	env --default-signal=INT,QUIT,TERM,HUP SHIM_NVME="$crafted_ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_SYSFS="$out/sysfs-none" SHIM_LOG="$out/fw.log" \
		SHIM_LOG_DEVICE=1 SHIM_NVME_DELAY=11 SHIM_DELAY_MS="until:$out/gate" "${preload[@]}" "$asan" "$H" "$@" $yes \
		--please-destroy-my-drive --fwdownload "$out/fw.bin" /dev/null /dev/zero > "$out/fw.out" 2> "$out/fw.err" &
	pid=$!
}
# pieces DEV, commits DEV: the Firmware Image Downloads and Commits DEV was sent.  Not at a line's
# start: two processes append to the log, and one's line can fall inside the other's long data line.
pieces() { grep -o "$1 nvme-admin: 11 " "$out/fw.log" 2> /dev/null | wc -l; }
commits() { grep -o "$1 nvme-admin: 10 " "$out/fw.log" 2> /dev/null | wc -l; }
both_held() { [ "$(pieces /dev/null)" = 1 ] && [ "$(pieces /dev/zero)" = 1 ]; }
# gone PID...: none of them runs any more (ended, or a zombie that nobody reaped yet: one whose
# parent was killed waits for the machine's init).
gone() {
	local p
	for p in "$@"; do
		case $(awk '{ print $3 }' /proc/"$p"/stat 2> /dev/null) in '' | Z) ;; *) return 1 ;; esac
	done
	return 0
}
sent_after() { echo "pieces $(pieces /dev/null)+$(pieces /dev/zero), commits $(commits /dev/null)+$(commits /dev/zero)"; }

# --- item 1: the parent killed, by SIGKILL (nothing it can do) or SIGHUP (its terminal closed) ---
# Each disk's process sees its parent gone and sends nothing more: no second piece, no commit.
for sig in KILL HUP; do
	fw_bg
	until_true 20 both_held
	kids=$(pgrep -P "$pid" | tr '\n' ' ')
	kill -s "$sig" "$pid"
	[ "$sig" = KILL ] && { wait "$pid" 2> /dev/null; rc=killed; }
	touch "$out/gate"
	[ "$sig" = HUP ] && { wait "$pid"; rc=$?; }
	# shellcheck disable=SC2086
	until_true 20 gone $kids
	ended=$?
	if [ "$sig" = KILL ]; then
		[ "$ended" = 0 ] && [ -n "$kids" ] && [ "$(sent_after)" = "pieces 1+1, commits 0+0" ]
		result_of fw $? "SIGKILL to hdparm mid-download: both disks' processes end, nothing more sent ($(sent_after))"
	else
		# SIGHUP is SIGTERM to the disks' processes: each stops as a run of one stops, and says where.
		[ "$ended" = 0 ] && [ "$rc" = 4 ] && [ "$(sent_after)" = "pieces 1+1, commits 0+0" ] &&
			[ "$(grep -c 'interrupted: the download stopped at byte 4096 of 12288 (1 of 3 pieces sent): nothing was committed' "$out/fw.err")" = 2 ]
		result_of fw $? "SIGHUP to hdparm mid-download: each disk stops as on SIGTERM, says where, nothing committed ($(sent_after)), exit $rc"
	fi
done

# --- item 2: the run's lines name what it does ---
# A disk's process killed mid-download: said in a firmware download's words, with where to look.
fw_bg
until_true 20 both_held
c=$(child_holding "$pid" /dev/zero) && kill -9 "$c"
touch "$out/gate"
wait_within 120 "$pid"
[ "$rc" = 137 ] &&
	grep -qx '/dev/zero: the process downloading firmware to it was killed by signal 9 (Killed); part of the image may have been sent, or the commit: check with -I' "$out/fw.err" &&
	[ "$(commits /dev/null)" = 1 ] && ! grep -qi 'eras' "$out/fw.err"
result_of fw $? "a disk's process killed mid-download: said as a firmware download (no word of erasing), the other committed"
fw_bg --json
until_true 20 both_held
c=$(child_holding "$pid" /dev/zero) && kill -9 "$c"
touch "$out/gate"
wait_within 120 "$pid" ended
python3 - "$out/fw.out" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))["devices"]
assert [x["name"] for x in d] == ["/dev/null", "/dev/zero"], d
e = d[1]["errors"][0]
assert e["operation"] == "firmware download of many disks" and "downloading firmware" in e["message"], e
assert "erase_outcome" not in d[1], d[1]
EOF
result_of fw $? "--json: the killed disk's error is a firmware download of many disks, no erase_outcome"
# One disk refused (it does not open): the others are not started, in the same words.
rm -f "$out/fw.log"
run_on_double fw SHIM_NVME="$crafted_ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_SYSFS="$out/sysfs-none" SHIM_LOG_DEVICE=1 -- \
	$yes --please-destroy-my-drive --fwdownload "$out/fw.bin" /dev/null "$out/no-such-disk"
[ "$rc" = 2 ] && [ "$(pieces /dev/null)" = 0 ] &&
	grep -q "^ not started: $out/no-such-disk was refused, so nothing was sent to any disk (--continue-on-refusal updates the others)" "$out/fw.err" &&
	! grep -qi 'eras' "$out/fw.err"
result_of fw $? "one disk refused: nothing sent, the other told in a firmware download's words"

# --- item 13: a disk's process stopped, or held in its checks, while another waits at the gate ---
# /dev/zero's IDENTIFY is held for good (a gate never opened) and its process stopped (SIGSTOP);
# /dev/null waits at the gate.  SIGTERM, SIGINT or SIGHUP to hdparm refuses the run at once.
ata_bg() {
	rm -f "$out/ata.log" "$out/gate"
	env --default-signal=INT,QUIT,TERM,HUP SHIM_IDENTIFY="$crafted_ata" SHIM_BLOCK_DEV=8:900000 SHIM_LOG="$out/ata.log" SHIM_LOG_DEVICE=1 "$@" "${preload[@]}" \
		"$asan" "$H" "${ata_opts[@]}" --security-erase pw /dev/null /dev/zero > "$out/ata.out" 2> "$out/ata.err" &
	pid=$!
}
ata_opts=()
at_gate() { c=$(child_holding "$pid" /dev/null) && case $(cat /proc/"$c"/wchan 2> /dev/null) in *pipe_read*) true ;; *) false ;; esac; }
held_in_check() { grep -q '^/dev/zero cdb: 85 .* ec ' "$out/ata.log" 2> /dev/null && z=$(child_holding "$pid" /dev/zero); }
erases() { awk '$2 == "cdb:" && $3 == "85" && ($17 == "f3" || $17 == "f4")' "$out/ata.log" 2> /dev/null | wc -l; }
for sig in TERM INT HUP; do
	ata_bg SHIM_DELAY_MS="until:$out/gate" SHIM_DELAY_CMD=ec@/dev/zero
	until_true 20 at_gate && until_true 20 held_in_check
	kids=$(pgrep -P "$pid" | tr '\n' ' ')
	kill -STOP "$z"
	kill -s "$sig" "$pid"
	# A hang is ended here (the run does not end in 10 s): the next signal's case starts clean.
	if until_true 10 gone "$pid"; then
		wait_within 120 "$pid"
	else
		rc=hung
		# shellcheck disable=SC2086
		kill -9 "$pid" $kids 2> /dev/null
		wait "$pid" 2> /dev/null
	fi
	# shellcheck disable=SC2086
	until_true 10 gone $kids
	left=$?
	touch "$out/gate"
	n=$(kill -l "$sig")
	[ "$rc" = 125 ] && [ "$left" = 0 ] && [ "$(erases)" = 0 ] &&
		grep -q "^ not started: hdparm was interrupted by signal $n (.*) before the erases began, so nothing was sent to any disk" "$out/ata.err" &&
		grep -q "^/dev/zero: not started: hdparm was interrupted by signal $n (.*) during its checks: nothing was sent to any disk" "$out/ata.err"
	result_of ata $? "SIG$sig to hdparm while a disk's process is stopped in its checks: the run refused at once, nothing sent, no process left (exit $rc)"
	kill -CONT "$z" 2> /dev/null
done

# ^C on a terminal reaches every process: /dev/null's, at the gate, dies of SIGINT before it reads
# the refusal (it is held stopped with SIGINT pending until hdparm, refusing the run, continues it).
# It said nothing, and its device object was missing: both are said, each in its own words.
ata_bg SHIM_DELAY_MS="until:$out/gate" SHIM_DELAY_CMD=ec@/dev/zero
until_true 20 at_gate && until_true 20 held_in_check
kill -STOP "$c" && kill -INT "$c" && kill -INT "$pid"
if until_true 10 gone "$pid"; then wait "$pid"; rc=$?; else rc=hung; kill -9 "$pid" "$c" "$z" 2> /dev/null; wait "$pid" 2> /dev/null; fi
touch "$out/gate"
[ "$rc" = 125 ] && [ "$(erases)" = 0 ] &&
	grep -q '^/dev/null: not started: hdparm was interrupted by signal 2 (.*) at the gate: nothing was sent to any disk' "$out/ata.err" &&
	grep -q '^/dev/zero: not started: hdparm was interrupted by signal 2 (.*) during its checks: nothing was sent to any disk' "$out/ata.err"
result_of ata $? "SIGINT to every process (a terminal's ^C) before the gate: the disk killed at the gate is said too (exit $rc)"

# After the gate: both disks held in their SECURITY ERASE UNIT, /dev/zero's process stopped
# (SIGSTOP).  SIGTERM to hdparm reaches it too (continued, it acts on it): no hang, both say
# they were interrupted.  A stopped process held the signal, and the run, until continued.
erasing_both() { [ "$(awk '$2 == "cdb:" && $17 == "f4"' "$out/ata.log" 2> /dev/null | wc -l)" = 2 ] && z=$(child_holding "$pid" /dev/zero); }
ata_bg SHIM_DELAY_MS="until:$out/gate" SHIM_DELAY_CMD=f4
until_true 20 erasing_both
kids=$(pgrep -P "$pid" | tr '\n' ' ')
kill -STOP "$z"
kill -TERM "$pid"
# shellcheck disable=SC2086
if until_true 10 gone "$pid"; then wait "$pid"; rc=$?; else rc=hung; kill -9 "$pid" $kids 2> /dev/null; wait "$pid" 2> /dev/null; fi
touch "$out/gate"
[ "$rc" = 143 ] && [ "$(grep -c '^Interrupted: hdparm stops here, but the drive goes on erasing' "$out/ata.err")" = 2 ]
result_of ata $? "SIGTERM to hdparm after the gate, a disk's process stopped: it is continued and stops, no hang (exit $rc)"

# --- item 14: stdout's reader gone (as "| true"), a disk's process killed mid-erase ---
# hdparm does not die of SIGPIPE replaying the output; what befell the disk is on stderr.
exec {dead}> >(exec true)
sleep 0.2
rm -f "$out/ata.log"
env SHIM_IDENTIFY="$crafted_ata" SHIM_BLOCK_DEV=8:900000 SHIM_LOG="$out/ata.log" SHIM_LOG_DEVICE=1 SHIM_DELAY_MS=4000 SHIM_DELAY_CMD=f4 \
	"${preload[@]}" "$asan" "$H" --security-erase pw /dev/null /dev/zero >&"$dead" 2> "$out/ata.err" &
pid=$!
exec {dead}>&-
erasing() { grep -q '^/dev/zero cdb: 85 .* f4 ' "$out/ata.log" 2> /dev/null && c=$(child_holding "$pid" /dev/zero); }
until_true 20 erasing && kill -9 "$c"
wait_within 120 "$pid"
[ "$rc" = 137 ] && grep -q '^/dev/zero: the process erasing it was killed by signal 9 (Killed); the drive may still be erasing' "$out/ata.err"
result_of ata $? "stdout's reader gone and a disk's process killed: no death by SIGPIPE, the killed disk said on stderr (exit $rc)"

# --- the message pipe: a record folder whose name holds a newline and a message ("N": refused) ---
# Its path goes to hdparm in a "P" line: the newline must not end it and forge the refusal, which
# left the disk's process waiting at a gate never answered, and hdparm with it, for good.
rec=$out/rec$'\n'N
rm -rf "$out/rec"* && mkdir -p "$rec"
ata_opts=(--erase-record "$rec")
ata_bg
ata_opts=()
# shellcheck disable=SC2046
if until_true 10 gone "$pid"; then wait "$pid"; rc=$?; else rc=hung; kill -9 "$pid" $(pgrep -P "$pid") 2> /dev/null; wait "$pid" 2> /dev/null; fi
[ "$rc" != hung ] && [ "$(erases)" = 4 ] && [ "$(find "$rec" -name 'erase-*.json' -printf x | wc -c)" = 2 ]
result_of ata $? "a record folder named with a newline and \"N\": no forged message, both erased (F3h, F4h each), two records (exit $rc)"

# --- one controller named twice (its node and a link to it): a character device, as an NVMe
# controller's /dev/nvme0 is; its firmware download went out twice, interleaved.  One refusal, nothing sent.
ln -sfn /dev/zero "$out/zero-link"
rm -f "$out/fw.log"
env SHIM_NVME="$crafted_ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_SYSFS="$out/sysfs-none" SHIM_LOG="$out/fw.log" SHIM_LOG_DEVICE=1 \
	"${preload[@]}" "$asan" "$H" $yes --please-destroy-my-drive --fwdownload "$out/fw.bin" /dev/zero "$out/zero-link" \
	> "$out/fw.out" 2> "$out/fw.err"
rc=$?
[ "$rc" != 0 ] && [ "$(pieces /dev/zero)" = 0 ] && [ "$(commits /dev/zero)" = 0 ] &&
	grep -qx " $out/zero-link reaches a disk that /dev/zero reaches too: each disk is updated once, named once" "$out/fw.err"
result_of fw $? "one controller named twice (a link to its character device): refused, no firmware sent (exit $rc)"

# --- item 15: out of descriptors, out of processes ---
# A limit on descriptors that lets the first disk's pipes be made and not the second's: the run
# refused, nothing sent, each line naming the disk that could not start and why.  The limit that
# does depends on what the process holds at the start (a sanitizer's runtime may hold more): the
# first from 6 up that starts exactly one disk.
found=
for n in $(seq 6 40); do
	rm -f "$out/ata.log"
	(ulimit -n "$n" && exec env SHIM_IDENTIFY="$crafted_ata" SHIM_BLOCK_DEV=8:900000 SHIM_LOG="$out/ata.log" "${preload[@]}" "$asan" \
		"$H" --security-erase pw /dev/null /dev/zero /dev/full) > "$out/ata.out" 2> "$out/ata.err"
	rc=$?
	grep -q '^/dev/zero: not started: its process could not be started (pipe: Too many open files)' "$out/ata.err" && { found=$n; break; }
done
[ -n "$found" ] && [ "$rc" = 24 ] && [ "$(erases)" = 0 ] &&
	grep -q '^ not started: the process for /dev/zero could not be started (pipe: Too many open files), so nothing was sent to any disk' "$out/ata.err" &&
	grep -q '^/dev/full: not started: the process for /dev/zero could not be started (pipe: Too many open files), so nothing was sent to any disk' "$out/ata.err"
result_of ata $? "no descriptor left for the second disk (ulimit -n ${found:-none}): each line names /dev/zero and why, nothing sent (exit $rc)"
# No process left for the second disk: RLIMIT_NPROC, which root is not held to, under a user id of
# no account (one of its own per run, so that two runs at once do not count each other's): with
# one process allowed past hdparm, the second fork fails (EAGAIN).
# The binary, the double and the page are copied to a folder that user can read (the tree's may not be).
uid=$((60000 + $$ % 5000))
if command -v setpriv > /dev/null && ! pgrep -U "$uid" > /dev/null; then
	open_dir=$(mktemp -d)
	chmod 755 "$open_dir"
	cp "$H" "$shim" "$crafted_ata" "$open_dir/"
	(ulimit -u 2 && exec setpriv --reuid="$uid" --regid="$uid" --clear-groups env SHIM_IDENTIFY="$open_dir/${crafted_ata##*/}" \
		SHIM_BLOCK_DEV=8:900000 "${preload[@]/$shim/$open_dir/${shim##*/}}" "$asan" "$open_dir/${H##*/}" --security-erase pw \
		/dev/null /dev/zero /dev/full) > "$out/ata.out" 2> "$out/ata.err"
	rc=$?
	rm -rf "$open_dir"
	[ "$rc" = 11 ] &&
		grep -q '^/dev/zero: not started: its process could not be started (fork: Resource temporarily unavailable)' "$out/ata.err" &&
		grep -q '^/dev/full: not started: the process for /dev/zero could not be started (fork: ' "$out/ata.err"
	result_of ata $? "no process left for the second disk (ulimit -u 2, user id $uid): each line names /dev/zero and why (exit $rc)"
else
	echo "skip together: setpriv is not installed, or user id $uid runs processes: the fork failure not tried"
fi
echo "end of suite"
