#!/bin/bash
# --idle-spindown on loop devices of this machine (real I/O counters in
# sysfs) whose ATA commands the test double answers (SG_IO): the standby
# command after SECONDS without I/O, exactly once; a read starts the time
# again; a disk that says it is in standby gets nothing; a disk that goes
# away is reported once while the others are watched on; SIGTERM ends it
# with exit 0.  The double logs each command with the device it went to.
# Usage: idle-tests.sh HDPARM OUTDIR (as root).  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
page="$top/tests/identify/pages/qemu-ahci-hdd.hex"
double_name=idle
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
truncate -s 8M "$out/idle-a.img" "$out/idle-b.img" "$out/idle-c.img"
# Only this suite's loop devices are detached: those over its images (a number freed here may be
# another suite's by then).
detach_ours() {
	local img d
	for img in "$out/idle-a.img" "$out/idle-b.img" "$out/idle-c.img"; do
		for d in $(losetup -j "$img" | cut -d: -f1); do losetup -d "$d" 2> /dev/null; done
	done
}
a=$(losetup -f --show "$out/idle-a.img") || { bad "losetup"; echo "end of suite"; exit 0; }
b=$(losetup -f --show "$out/idle-b.img") || { detach_ours; bad "losetup"; echo "end of suite"; exit 0; }
trap detach_ours EXIT
trap 'exit 1' INT TERM HUP
udevadm settle 2> /dev/null

suite="idle"

# start ENV... -- SECONDS DEVICE...: the watcher in the background, its log in $out/idle-cmd.log
# (not idle.log: that is the suite's own).
start() {
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$out/idle-cmd.log"
	touch "$out/idle-cmd.log"
	env SHIM_IDENTIFY="$page" SHIM_LOG="$out/idle-cmd.log" SHIM_LOG_DEVICE=1 "${envs[@]}" LD_PRELOAD="$shim" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$H" --idle-spindown "$@" > "$out/idle-cmd.out" 2> "$out/idle-cmd.err" &
	pid=$!
}
# count DEVICE COMMAND: how many ATA commands COMMAND (hex) went to DEVICE.
count() { grep -c "^$1 cdb: .* $2 00\$" "$out/idle-cmd.log"; }
stop() {
	kill -TERM "$pid" 2> /dev/null
	wait_within 120 "$pid"
}

# No I/O: CHECK POWER MODE (E5h, the drive says active: FFh), then STANDBY IMMEDIATE (E0h), once.
# (Each state is waited for, up to a bound with room; only "nothing happens" is a fixed window.)
start SHIM_COUNT=0xff -- 2 "$a"
until_true 20 eval '[ "$(count "$a" e0)" -ge 1 ]'
n_e0=$(count "$a" e0) n_e5=$(count "$a" e5)
if [ "$n_e0" = 1 ] && [ "$n_e5" = 1 ] && grep -q "$a: standby after 2 s without I/O" "$out/idle-cmd.err"; then
	ok "no I/O for 2 s: one CHECK POWER MODE, then exactly one STANDBY IMMEDIATE"
else
	bad "no I/O for 2 s: one CHECK POWER MODE, then exactly one STANDBY IMMEDIATE" "E5h: $n_e5, E0h: $n_e0" "$(cat "$out/idle-cmd.err")"
fi
# Asleep: nothing is sent however long it stays still.
before=$(wc -l < "$out/idle-cmd.log")
sleep 3
if [ "$(wc -l < "$out/idle-cmd.log")" = "$before" ]; then
	ok "asleep: nothing more is sent while the counters stand still"
else
	bad "asleep: nothing more is sent while the counters stand still" "$(tail -n 3 "$out/idle-cmd.log")"
fi
# A read wakes it: the time starts again, and the standby comes 2 s after the read, not before
# (the time from the read to the second STANDBY IMMEDIATE, seen within 0.1 s, is 2 s at least).
t0=$(date +%s.%N)
dd if="$a" of=/dev/null bs=4096 count=4 iflag=direct 2> /dev/null
until_true 20 eval '[ "$(count "$a" e0)" -ge 2 ]'
took=$(echo "$(date +%s.%N) - $t0" | bc)
late=$(count "$a" e0)
if [ "$late" = 2 ] && [ "$(echo "$took >= 1.9" | bc)" = 1 ] && grep -q "$a: active again" "$out/idle-cmd.err"; then
	ok "a read: active again, and the next standby 2 s after it"
else
	bad "a read: active again, and the next standby 2 s after it" "E0h: $late, ${took%???????} s after the read" "$(cat "$out/idle-cmd.err")"
fi
stop
if [ "$rc" = 0 ]; then ok "SIGTERM: exit 0"; else bad "SIGTERM: exit 0" "exit $rc"; fi

# A disk that says it is in standby (CHECK POWER MODE COUNT 00h) gets no STANDBY IMMEDIATE.
start SHIM_COUNT=0x00 -- 2 "$a"
until_true 20 grep -qs "$a: in standby already: nothing sent" "$out/idle-cmd.err"
stop
if [ "$(count "$a" e0)" = 0 ] && [ "$(count "$a" e5)" = 1 ] && grep -q "$a: in standby already: nothing sent" "$out/idle-cmd.err"; then
	ok "a disk already in standby: CHECK POWER MODE only"
else
	bad "a disk already in standby: CHECK POWER MODE only" "$(cat "$out/idle-cmd.log")"
fi

# Two disks in one process; one goes away: said once, and the other is still put in standby.  Its
# number is taken at once by another disk (as a neighbour's losetup -f may take it, before the
# watcher's next look): that is not the disk watched, and gets nothing.
start SHIM_COUNT=0xff -- 3 "$a" "$b"
until_true 20 grep -qs "$b: watched" "$out/idle-cmd.err"
losetup -d "$b" && losetup "$b" "$out/idle-c.img"
until_true 20 eval 'grep -qs "$b: gone" "$out/idle-cmd.err" && [ "$(count "$a" e0)" -ge 1 ]'
stop
for d in $(losetup -j "$out/idle-c.img" | cut -d: -f1); do losetup -d "$d"; done
if [ "$(grep -c "$b: gone" "$out/idle-cmd.err")" = 1 ] && [ "$(count "$a" e0)" = 1 ] && [ "$(count "$b" e0)" = 0 ] && [ "$rc" = 0 ]; then
	ok "two disks; one detached: reported once, the other put in standby"
else
	bad "two disks; one detached: reported once, the other put in standby" "$(cat "$out/idle-cmd.err")" "$(cat "$out/idle-cmd.log")"
fi

# The log: stderr, a line per transition after the local time; where stderr is the journal's stream
# (JOURNAL_STREAM says its device and inode, as systemd sets it) no time, and the priority as <N>
# (sd-daemon(3)): 6 info for "watched", 5 notice for a standby.
start SHIM_COUNT=0xff -- 2 "$a"
until_true 20 grep -qs "$a: standby after 2 s without I/O" "$out/idle-cmd.err"
stop
if grep -qE "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} $a: standby after 2 s without I/O\$" "$out/idle-cmd.err" &&
	[ ! -s "$out/idle-cmd.out" ]; then
	ok "the log on stderr, each line after the local time; nothing on stdout"
else
	bad "the log on stderr after the local time" "$(cat "$out/idle-cmd.err")" "stdout: $(cat "$out/idle-cmd.out")"
fi
: > "$out/idle-cmd.err"
start JOURNAL_STREAM="$(stat -c '%d:%i' "$out/idle-cmd.err")" SHIM_COUNT=0xff -- 2 "$a"
until_true 20 grep -qsxF "<5>$a: standby after 2 s without I/O" "$out/idle-cmd.err"
stop
if grep -qxF "<6>$a: watched: standby after 2 s without I/O" "$out/idle-cmd.err" &&
	grep -qxF "<5>$a: standby after 2 s without I/O" "$out/idle-cmd.err" && ! grep -q '^[0-9]' "$out/idle-cmd.err"; then
	ok "under the journal (JOURNAL_STREAM): <6> watched, <5> standby, no time of our own"
else
	bad "under the journal: priorities, no time" "$(cat "$out/idle-cmd.err")"
fi

# A suspend (the boot clock leaps an hour past the monotonic one, SHIM_BOOTTIME_JUMP): the disk put
# in standby before it is looked at again and, active after the resume, put in standby again.
start SHIM_COUNT=0xff SHIM_BOOTTIME_JUMP=6 -- 3 "$a"
until_true 40 eval '[ "$(count "$a" e0)" -ge 2 ]'
stop
if [ "$(count "$a" e0)" = 2 ] && grep -q "$a: resumed after 36[0-9][0-9] s suspended: idle times start again" "$out/idle-cmd.err"; then
	ok "a resume starts the idle time again: standby once before the suspend, once 3 s after it"
else
	bad "a resume starts the idle time again" "E0h: $(count "$a" e0)" "$(cat "$out/idle-cmd.err")"
fi

# A short suspend (4 s: a laptop's lid closed and opened; QEMU's system_wakeup), with a disk that
# keeps its power state as a real one (the double: standby after STANDBY IMMEDIATE, spun up by the
# resume, whose commands pass no I/O counter): the watcher takes the disk as awake, asks, and stops it again.
start SHIM_BOOTTIME_JUMP=6,4 -- 3 "$a"
for _ in $(seq 150); do [ "$(count "$a" e0)" = 2 ] && break; sleep 0.1; done
stop
if [ "$(count "$a" e0)" = 2 ] && grep -q "$a: resumed after 4 s suspended: idle times start again" "$out/idle-cmd.err" &&
	[ "$(grep -c "$a: standby after 3 s without I/O" "$out/idle-cmd.err")" = 2 ]; then
	ok "a 4 s suspend: the disk the resume spun up is put in standby again (STANDBY IMMEDIATE twice)"
else
	bad "a 4 s suspend: the disk put in standby again" "E0h: $(count "$a" e0), E5h: $(count "$a" e5)" "$(cat "$out/idle-cmd.err")"
fi

# --why: the first request to a disk in standby, from the kernel's block_rq_issue tracepoint (tracefs,
# an instance of our own, removed at the end): the process that issued it, the kind, the LBA.
# (Each state waited for: the standby, then the wake-up; how long it slept is the machine's.)
start SHIM_COUNT=0xff -- 2 --why "$a"
until_true 20 grep -qs "$a: standby after 2 s without I/O" "$out/idle-cmd.err"
dd if="$a" of=/dev/null bs=4096 count=1 skip=100 iflag=direct 2> /dev/null &
dd_pid=$!
wait_within 120 "$dd_pid" ended
until_true 20 grep -qs "$a: active again" "$out/idle-cmd.err"
stop
leftover=$(ls -d /sys/kernel/tracing/instances/hdparm-* /sys/kernel/debug/tracing/instances/hdparm-* 2> /dev/null)
if grep -qE "^[-0-9: ]*$a: active again after [0-9]+ s in standby; woken by dd \(pid $dd_pid\): read of 8 sectors at LBA 800$" "$out/idle-cmd.err" &&
	[ -z "$leftover" ]; then
	ok "--why: woken by dd (pid $dd_pid): read of 8 sectors at LBA 800; the trace instance removed"
else
	bad "--why names the dd that woke the disk" "leftover instance: $leftover" "$(cat "$out/idle-cmd.err")"
fi
# --metrics-file: the watcher's counters, the file rewritten whole as they change (each state waited
# for, not slept for): the standby sent, then the dd that woke the disk, by its process (--why).  The
# disk is named by a link, and labelled by the kernel's name, as --metrics and node_exporter label it.
name=${a#/dev/}
rm -f "$out/idle.prom" "$out/idle-link"
ln -s "$a" "$out/idle-link"
start SHIM_COUNT=0xff -- 2 --why --metrics-file "$out/idle.prom" "$out/idle-link"
until_true 20 grep -qsx "hdparm_idle_standbys_total{device=\"$name\"} 1" "$out/idle.prom"
asleep=$(sed -n "s/^hdparm_idle_asleep{device=\"$name\"} //p" "$out/idle.prom")
dd if="$a" of=/dev/null bs=4096 count=1 skip=200 iflag=direct 2> /dev/null
until_true 20 grep -qsx "hdparm_idle_wakeups_total{device=\"$name\"} 1" "$out/idle.prom"
stop
if [ "$asleep" = 1 ] && grep -qx "hdparm_idle_asleep{device=\"$name\"} 0" "$out/idle.prom" &&
	grep -qx "hdparm_idle_wakeups_by_process_total{device=\"$name\",process=\"dd\"} 1" "$out/idle.prom" &&
	[ "$(ls "$out" | grep -c '^idle\.prom\.')" = 0 ] && { ! command -v promtool > /dev/null || promtool check metrics < "$out/idle.prom"; }; then
	ok "--metrics-file: asleep 1 after the standby, then a wake-up counted, by dd (--why); whole files, promtool accepts them"
else
	bad "--metrics-file: the watcher's counters" "asleep after the standby: '$asleep'" "$(cat "$out/idle.prom" 2> /dev/null)" "$(cat "$out/idle-cmd.err")"
fi
# The heartbeat (issue 60, item 25): hdparm_idle_last_look_timestamp_seconds, the time of the last look
# (Unix seconds), written at every look (each 1 s here) though nothing else changed, so that a dead
# watcher is told from an idle one.  Between two files the date moves on, and it is within the run's.
hb() { sed -n 's/^hdparm_idle_last_look_timestamp_seconds \([0-9]*\)$/\1/p' "$out/idle-hb.prom" 2> /dev/null; }
rm -f "$out/idle-hb.prom"
t0=$(date +%s)
start SHIM_COUNT=0xff -- 10 --metrics-file "$out/idle-hb.prom" "$a"
until_true 20 eval '[ -n "$(hb)" ]'
first=$(hb) rest=$(grep -v last_look "$out/idle-hb.prom")
until_true 20 eval '[ "$(hb)" -gt "$first" ] 2> /dev/null'
second=$(hb)
stop
if [ "$first" -ge "$t0" ] && [ "$second" -gt "$first" ] && [ "$second" -le "$(date +%s)" ] &&
	[ "$(grep -v last_look "$out/idle-hb.prom")" = "$rest" ] &&
	grep -qx '# TYPE hdparm_idle_last_look_timestamp_seconds gauge' "$out/idle-hb.prom" &&
	{ ! command -v promtool > /dev/null || promtool check metrics < "$out/idle-hb.prom"; }; then
	ok "--metrics-file: the time of the last look, rewritten at every look with nothing else changed; promtool accepts it"
else
	bad "--metrics-file: the time of the last look, rewritten at every look" "started $t0: '$first', then '$second'" \
		"$(cat "$out/idle-hb.prom" 2> /dev/null)"
fi
# Only a regular file is replaced (issue 60, item 10): a device node as the watcher's file is refused
# before anything is sent (exit 22); one made a symbolic link while it watches is left a link, said.
rm -f "$out/idle-node" "$out/idle-swap.prom"
if mknod "$out/idle-node" c 1 3; then
	start SHIM_COUNT=0xff -- 2 --metrics-file "$out/idle-node" "$a"
	until_true 10 eval '! kill -0 "$pid" 2> /dev/null'
	stop
	if [ "$rc" = 22 ] && [ -c "$out/idle-node" ] && [ ! -s "$out/idle-cmd.log" ] &&
		[ "$(cat "$out/idle-cmd.err")" = "--metrics-file $out/idle-node: a device node, not a regular file: refused, nothing was sent" ]; then
		ok "--metrics-file naming a device node: the watcher refuses it at once, nothing sent, exit 22"
	else
		bad "--metrics-file naming a device node: the watcher refuses it at once" "exit $rc" "$(cat "$out/idle-cmd.err")" "$(ls -l "$out/idle-node")"
	fi
	rm -f "$out/idle-node"
fi
start SHIM_COUNT=0xff -- 10 --metrics-file "$out/idle-swap.prom" "$a"
until_true 20 test -f "$out/idle-swap.prom"
rm -f "$out/idle-swap.prom"
ln -s idle-hb.prom "$out/idle-swap.prom"
until_true 20 grep -qs -- '--metrics-file: .*: not a regular file' "$out/idle-cmd.err"
stop
if [ -L "$out/idle-swap.prom" ] && [ -z "$(ls "$out" | grep '^idle-swap\.prom\.')" ] && [ "$rc" = 0 ] &&
	grep -qF -- " --metrics-file: $out/idle-swap.prom: not a regular file (a device node, FIFO, socket or symbolic link is left alone) (tried again at each look)" "$out/idle-cmd.err"; then
	ok "the watcher's file made a symbolic link: left a link, no temporary file, said"
else
	bad "the watcher's file made a symbolic link: left a link, said" "$(ls -l "$out/idle-swap.prom"*)" "$(cat "$out/idle-cmd.err")"
fi
rm -f "$out/idle-swap.prom"
# A closed terminal (SIGHUP) ends the watcher as SIGTERM does: its trace instance is removed.  One
# killed (SIGKILL) leaves its instance; the next watcher with --why removes it.
instances() { ls -d /sys/kernel/tracing/instances/hdparm-* /sys/kernel/debug/tracing/instances/hdparm-* 2> /dev/null; }
traced() { [ -n "$(instances)" ]; }
until_traced() { for _ in $(seq 50); do traced && return 0; sleep 0.1; done; return 1; }
start SHIM_COUNT=0xff -- 2 --why "$a"
until_traced
kill -HUP "$pid"
wait_within 120 "$pid"
if [ "$rc" = 0 ] && [ -z "$(instances)" ]; then
	ok "--why and SIGHUP: exit 0, the trace instance removed"
else
	bad "--why and SIGHUP" "exit $rc" "left: $(instances)"
fi
start SHIM_COUNT=0xff -- 2 --why "$a"
until_traced
killed=$pid
kill -KILL "$pid"
wait "$pid" 2> /dev/null
left=$(instances)
start SHIM_COUNT=0xff -- 2 --why "$a"
until_traced
sleep 0.5
stop
if [ -n "$left" ] && [ "$left" != "$(instances)" ] && [ -z "$(instances)" ]; then
	ok "a watcher killed with --why left hdparm-$killed; the next one removed it, and its own"
else
	bad "a killed watcher's trace instance" "left by the kill: $left" "after the next: $(instances)"
fi
# Without tracefs (a tmpfs over /sys/kernel: nowhere to find or mount it), said once; watched all the same.
if command -v unshare > /dev/null; then
	env SHIM_IDENTIFY="$page" SHIM_COUNT=0xff LD_PRELOAD="$shim" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		timeout -s TERM 3.5 unshare -m sh -c 'mount -t tmpfs none /sys/kernel && exec "$0" "$@"' \
		"$H" --why --idle-spindown 2 "$a" > "$out/idle-cmd.out" 2> "$out/idle-cmd.err"
	if [ "$(grep -c -- '--why: unavailable' "$out/idle-cmd.err")" = 1 ] && grep -q "$a: standby after 2 s" "$out/idle-cmd.err"; then
		ok "--why without tracefs: said once, the disk watched all the same"
	else
		bad "--why without tracefs" "$(cat "$out/idle-cmd.err")"
	fi
else
	bad "unshare is not installed (util-linux)"
fi

# Frugal: it sleeps min(SECONDS, 600)/10 s between looks (hd-idle wakes once a minute), and each
# look reads one file for all disks (/proc/diskstats), not the disk's own.  strace counts both.
if command -v strace > /dev/null; then
	for pair in 600:60 30:3; do
		secs=${pair%:*} want=${pair#*:}
		env SHIM_IDENTIFY="$page" LD_PRELOAD="$shim" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
			timeout -s TERM 7 strace -f -qq -e trace=clock_nanosleep,nanosleep,openat -o "$out/idle-strace.log" \
			"$H" --idle-spindown "$secs" "$a" > "$out/idle-cmd.out" 2>&1
		sleeps=$(grep -cE 'nanosleep\(' "$out/idle-strace.log")
		asked=$(grep -oE 'nanosleep\([^{]*\{tv_sec=[0-9]+' "$out/idle-strace.log" | grep -oE '[0-9]+$' | sort -u | tr '\n' ' ')
		looks=$(grep -c '"/proc/diskstats"' "$out/idle-strace.log")
		own=$(grep -cE '/stat", ' "$out/idle-strace.log")
		if [ "$asked" = "$want " ] && [ "$sleeps" -le $((7 / want + 1)) ] && [ "$own" = 1 ] &&
			{ [ "$want" -gt 7 ] || [ "$looks" -ge 2 ]; }; then
			ok "SECONDS $secs: a look every $want s ($((3600 / want)) an hour), /proc/diskstats read $looks times in 7 s, the disk's own stat once, at the start"
		else
			bad "SECONDS $secs: a look every $want s" "sleeps asked: $asked($sleeps in 7 s); /proc/diskstats: $looks; each disk's stat: $own" \
				"$(head -n 20 "$out/idle-strace.log")"
		fi
	done
else
	echo "skip idle: strace is not installed (tests/setup installs it)"
fi

# Nothing to watch: a file is refused, and with no disk left the watcher ends.
"$H" --idle-spindown 5 "$out/idle-a.img" > "$out/idle-cmd.out" 2> "$out/idle-cmd.err"
rc=$?
if [ "$rc" = 19 ] && grep -q 'not a block device with I/O counters' "$out/idle-cmd.err"; then
	ok "a regular file: not watched, exit 19 (nothing left)"
else
	bad "a regular file: not watched, exit 19 (nothing left)" "exit $rc" "$(cat "$out/idle-cmd.err")"
fi
echo "end of suite"
