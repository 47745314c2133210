#!/bin/bash
# --check-config and --apply-config: Debian's shipped hdparm.conf and its
# traps, on the test double (/dev/null is a real drive's IDENTIFY page,
# whose values hdparm 9.65 reads under the same double) and on loop
# devices of this machine (read-ahead and read-only, read back by
# blockdev).  Usage: config-tests.sh HDPARM OUTDIR (loop checks as root).
# Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
ORACLE=${ORACLE:-/usr/sbin/hdparm}
debian="$top/tests/config/debian-hdparm.conf"
# A real drive: APM 128, acoustic 254, write cache on (hdparm 9.65 says so below).
page="$top/tests/identify/real/FUJITSU_MHY2120BH--0084000D.hex"
double_name=config suite=config
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
cfg="$out/cfg.conf"

# run ENV... -- ARGS...: hdparm on the double, a spinning drive (CHECK POWER MODE answers FFh, active or
# idle: --check-config reads its settings); rc, and $out/cfg.{out,err,log}
run() { run_on_double cfg SHIM_IDENTIFY="$page" SHIM_COUNT=0xff "$@"; }
# expect NAME EXIT STDOUT-TEXT STDERR-TEXT: the last run (texts: fixed strings, "" for any).
expect() { expect_run cfg "$@"; }

# sent_nothing NAME: the last run sent no command but IDENTIFY (ECh) and CHECK POWER MODE (E5h), whatever else it did.
sent_nothing() {
	if ! sed 's/^cdb: //' "$out/cfg.log" | awk '{ print $15 }' | grep -qv '^e[c5]$'; then
		ok "$1: nothing but IDENTIFY and CHECK POWER MODE sent"
	else
		bad "$1: nothing but IDENTIFY and CHECK POWER MODE sent" "log: $(tr '\n' '|' < "$out/cfg.log")"
	fi
}

# --- Debian's own file, unchanged: only "quiet" is set ---
run -- --check-config "$debian" /dev/null
expect "Debian's hdparm.conf parses, and sets nothing" 0 "no settings for it in $debian" ""
sent_nothing "Debian's hdparm.conf"

# Every "key = value" line it shows, uncommented: each key is known and its example value taken.
sed -n 's/^#[[:space:]]*\([a-z0-9_-]* = [^ ]*\)[[:space:]]*$/\1/p' "$debian" > "$cfg"
n=$(wc -l < "$cfg")
run -- --check-config "$cfg" /dev/null
if [ "$n" -ge 25 ] && [ "$rc" -le 1 ] && ! grep -q "^$cfg:[0-9]*:[0-9]*:" "$out/cfg.err"; then
	ok "the $n example settings of Debian's file are all known keys with good values"
else
	bad "Debian's example settings" "$n lines, exit $rc" "stderr: $(head -3 "$out/cfg.err")"
fi
sent_nothing "--check-config with every example"

# Its example blocks, uncommented: three disks that are not here are skipped without a word.
sed -n '/^# Config examples/,$p' "$debian" | tail -n +2 | sed 's/^#//' > "$cfg"
run -- --apply-config "$cfg"
if [ "$rc" = 0 ] && [ ! -s "$out/cfg.out" ] && [ ! -s "$out/cfg.err" ] && [ ! -s "$out/cfg.log" ] &&
	[ "$(grep -c ' {$' "$cfg")" = 3 ]; then
	ok "Debian's three example blocks: absent disks skipped quietly"
else
	bad "Debian's example blocks" "exit $rc" "$(cat "$out/cfg.out" "$out/cfg.err")"
fi

# --- the values as the disk has them: 9.65 reads the same page ---
oracle_apm=$(env SHIM_IDENTIFY="$page" "${preload[@]}" "$ORACLE" -B /dev/null 2> /dev/null | sed -n 's/.*APM_level[^0-9]*\([0-9]*\)$/\1/p')
if [ "$oracle_apm" != 128 ]; then
	bad "hdparm 9.65 reads APM 128 from the page (tests/setup installs it)" "got '$oracle_apm'"
fi
printf '/dev/null {\n\tapm = %s\n\twrite_cache = on\n\tacoustic_management = 254\n}\n' "$oracle_apm" > "$cfg"
run -- --check-config "$cfg"
expect "--check-config: settings that hold exit 0" 0 " apm = 128: holds" ""
sent_nothing "--check-config that holds"

printf '/dev/null {\n\tapm = 254   # on mains\n\twrite_cache = on\n}\n' > "$cfg"
run -- --check-config "$cfg"
expect "--check-config: a drifted setting exits 1 and is named" 1 " apm = 254: DRIFTED (is 128)" ""
sent_nothing "--check-config that drifts"
run -- --json --check-config "$cfg"
if [ "$rc" = 1 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = {x["key"]: x for x in d["devices"][0]["settings"]}
assert s["apm"]["state"] == "drifted" and s["apm"]["actual"] == "128" and s["apm"]["line"] == 2, s
assert s["write_cache"]["state"] == "holds" and s["write_cache"]["option"] == "-W", s
assert d["devices"][0]["config"]["block"] == "/dev/null"
' "$out/cfg.out"; then ok "--json --check-config: wanted, actual and state per setting"; else bad "--json --check-config" "exit $rc" "$(head -c 600 "$out/cfg.out")"; fi

# A disk in standby is not woken to be checked: CHECK POWER MODE (E5h) answers COUNT 00h, standby (as
# hdparm 9.65's -C reads it under the same double), and nothing else is sent; each setting is not
# checked, and nothing drifted (exit 0).  A disk that does not answer it (the command times out) is
# down: said once, nothing drifted, exit 2, though this double's IDENTIFY would still answer.
cfg23="$out/cfg-23.conf"
printf '/dev/null {\n\tapm = 254\n\twrite_cache = off\n}\n' > "$cfg23"
oracle_state=$(env SHIM_IDENTIFY="$page" SHIM_COUNT=0 "${preload[@]}" "$ORACLE" -C /dev/null 2> /dev/null | sed -n 's/^ drive state is: *//p')
run SHIM_COUNT=0 -- --json --check-config "$cfg23"
cmds=$(sed 's/^cdb: //' "$out/cfg.log" | awk '{ print $15 }' | tr '\n' ' ')
if [ "$oracle_state" = standby ] && [ "$rc" = 0 ] && [ "$cmds" = "e5 " ] && python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["devices"][0]["settings"]
assert [x["key"] for x in s] == ["apm", "write_cache"], s
assert all(x["state"] == "not_checked" and "standby" in x["why"] and x["actual"] is None for x in s), s
' "$out/cfg.out"; then
	ok "--check-config, a disk in standby: CHECK POWER MODE only, its settings not checked, exit 0"
else
	bad "--check-config, a disk in standby" "9.65 -C: $oracle_state; exit $rc, commands: $cmds" "$(head -c 600 "$out/cfg.out")"
fi
run SHIM_COUNT=0 -- --check-config "$cfg23"
expect "--check-config, a disk in standby, said" 0 " apm = 254: not checked (the disk is in standby: reading it would wake the disk)" ""
run SHIM_REPLY=timeout -- --check-config "$cfg23"
cmds=$(sed 's/^cdb: //' "$out/cfg.log" | awk '{ print $15 }' | tr '\n' ' ')
if [ "$rc" = 2 ] && [ "$cmds" = "e5 " ] && ! grep -q DRIFTED "$out/cfg.out" &&
	grep -qxF " write_cache = off: not checked (the disk is not answering)" "$out/cfg.out" &&
	[ "$(cat "$out/cfg.err")" = "/dev/null: not answering: Connection timed out; its settings were not checked" ]; then
	ok "--check-config, a disk down: said once, no drift, exit 2; nothing but CHECK POWER MODE sent"
else
	bad "--check-config, a disk down" "exit $rc, commands: $cmds" "stdout: $(tr '\n' '|' < "$out/cfg.out")" "stderr: $(tr '\n' '|' < "$out/cfg.err")"
fi
# --metrics --check-config, a disk that lets CHECK POWER MODE time out: down, and asked nothing more
# (before, its drift asked CHECK POWER MODE again: a second timeout; issue 65, item 9).
run SHIM_REPLY=timeout -- --metrics --check-config "$cfg23"
cmds=$(sed 's/^cdb: //' "$out/cfg.log" | awk '{ print $15 }' | tr '\n' ' ')
if [ "$rc" = 0 ] && [ "$cmds" = "e5 " ] && grep -qx 'hdparm_disk_up{device="null"} 0' "$out/cfg.out" &&
	! grep -q '^hdparm_config_drifted{' "$out/cfg.out"; then
	ok "--metrics --check-config, a disk down: one CHECK POWER MODE, no drift sample"
else
	bad "--metrics --check-config, a disk down" "exit $rc, commands: $cmds" "$(tr '\n' '|' < "$out/cfg.err")"
fi
# --metrics --check-config: neither wakes it nor gives it a drift sample.
run SHIM_COUNT=0 -- --metrics --check-config "$cfg23"
cmds=$(sed 's/^cdb: //' "$out/cfg.log" | awk '{ print $15 }' | sort -u | tr '\n' ' ')
if [ "$rc" = 0 ] && [ "$cmds" = "e5 " ] && ! grep -q '^hdparm_config_drifted{' "$out/cfg.out"; then
	ok "--metrics --check-config, a disk in standby: CHECK POWER MODE only, no drift sample"
else
	bad "--metrics --check-config, a disk in standby" "exit $rc, commands: $cmds" "$(grep drift "$out/cfg.out" | tr '\n' '|')"
fi

# --- apply: only what differs goes out, with the bytes -B254 sends (tests/commands.txt) ---
# The double keeps what SET FEATURES sets (a copy of the page): IDENTIFY reads it back.
fresh() { cp "$page" "$out/cfg-page.hex"; }
fresh
run SHIM_IDENTIFY="$out/cfg-page.hex" SHIM_KEEP_FEATURES=1 -- --apply-config "$cfg"
sed 's/^cdb: //' "$out/cfg.log" | grep -v ' ec 00$' > "$out/cfg.ours"
fresh
run SHIM_IDENTIFY="$out/cfg-page.hex" SHIM_KEEP_FEATURES=1 -- -B254 /dev/null
sed 's/^cdb: //' "$out/cfg.log" | grep -v ' ec 00$' > "$out/cfg.alone"
run SHIM_IDENTIFY="$out/cfg-page.hex" SHIM_KEEP_FEATURES=1 -- --apply-config "$cfg"
# Applied again after -B254 set it: nothing but IDENTIFY goes out.
sed 's/^cdb: //' "$out/cfg.log" | grep -v ' ec 00$' > "$out/cfg.ours.2"
if [ "$(cat "$out/cfg.ours")" = "85 06 00 00 05 00 fe 00 00 00 00 00 00 00 ef 00" ] && cmp -s "$out/cfg.ours" "$out/cfg.alone" &&
	grep -qF " apm = 254: already set, not sent" "$out/cfg.out" && [ ! -s "$out/cfg.ours.2" ]; then
	ok "--apply-config sends only SET FEATURES APM 254, the bytes of -B254; the write cache that holds is not sent"
else
	bad "--apply-config sends only what differs" "ours: $(tr '\n' '|' < "$out/cfg.ours")" \
		"-B254: $(tr '\n' '|' < "$out/cfg.alone")" "stdout: $(tr '\n' '|' < "$out/cfg.out")"
fi
fresh
run SHIM_IDENTIFY="$out/cfg-page.hex" SHIM_KEEP_FEATURES=1 -- --apply-config "$cfg"
expect "--apply-config says what it set, and what it was" 0 " apm = 254: set (was 128)" ""
grep -qF " write_cache = on: already set, not sent" "$out/cfg.out" && ok "a setting that holds: said, not sent" || bad "a setting that holds" "$(cat "$out/cfg.out")"
run SHIM_IDENTIFY="$out/cfg-page.hex" SHIM_KEEP_FEATURES=1 -- --apply-config "$cfg"
if [ "$rc" = 0 ] && grep -qF " apm = 254: already set, not sent" "$out/cfg.out"; then sent_nothing "applied twice"; else bad "applied twice" "$(cat "$out/cfg.out")"; fi
# A drive that does not take the value (this double forgets it): the read-back says so.
run -- --apply-config "$cfg"
expect "a setting the drive did not take is a failure" 5 "" "/dev/null: apm = 254 ($cfg:2): FAILED: sent, but it reads back 128"

# --- traps users report ---
printf '/dev/null\n{\n\tapm = 254\n}\n' > "$cfg"
fresh
run SHIM_IDENTIFY="$out/cfg-page.hex" SHIM_KEEP_FEATURES=1 -- --apply-config "$cfg"
expect "a '{' on its own line opens the block" 0 " apm = 254: set (was 128)" ""

printf '/dev/null {\n\tapm = 254\n\tspindwon_time = 24\n}\n' > "$cfg"
run -- --apply-config "$cfg"
expect "an unknown key: its line and column, exit 22" 22 "" "$cfg:3:2: spindwon_time: unknown key"
if [ ! -s "$out/cfg.log" ] && [ ! -s "$out/cfg.out" ]; then ok "an unknown key: nothing sent, the good line neither"; else bad "an unknown key sends nothing" "$(cat "$out/cfg.log")"; fi
run -- --check-config "$cfg"
expect "an unknown key: --check-config exits 2" 2 "" "spindwon_time: unknown key"

printf '/dev/null {\n\tapm = 254\n/dev/sdz {\n}\n' > "$cfg"
run -- --apply-config "$cfg"
expect "a missing '}': the line and column" 22 "" "$cfg:3:10: '{' inside the block of line 1: is a '}' missing?"
printf '/dev/null {\n\twrite_cache = maybe\n}\n' > "$cfg"
run -- --apply-config "$cfg"
expect "a bad value: named" 22 "" "$cfg:2:16: write_cache: \"maybe\": give on or off"
printf '/dev/null {\n\tapm = 0\n}\n' > "$cfg"
run -- --apply-config "$cfg"
expect "a value out of the option's range" 22 "" "$cfg:2:8: apm: \"0\": give a number from 1 to 255"
printf '/dev/disk/by-id/ata-NOT-HERE {\n\tapm = 254\n}\n' > "$cfg"
run -- --apply-config "$cfg"
if [ "$rc" = 0 ] && [ ! -s "$out/cfg.out" ] && [ ! -s "$out/cfg.err" ] && [ ! -s "$out/cfg.log" ]; then ok "a block for an absent disk is skipped quietly"; else bad "an absent disk" "exit $rc" "$(cat "$out/cfg.err")"; fi

# A global line applies to every block below it; the later of a key given twice counts.
printf 'apm = 200\n/dev/null {\n\twrite_cache = on\n\tapm = 254\n}\n' > "$cfg"
run -- --check-config "$cfg"
expect "a key given twice: the later counts" 1 " apm = 254: DRIFTED" ""
printf 'write_cache = off\n/dev/null {\n\tapm = 128\n}\n' > "$cfg"
run -- --check-config "$cfg"
expect "a global line applies to the block below it" 1 " write_cache = off: DRIFTED (is on)" ""

# Two blocks that name one disk (its node, and a link to it as by-id names it): merged, the later key counts.
ln -sf /dev/null "$out/cfg-null-link"
printf '/dev/null {\n\tapm = 254\n\twrite_cache = off\n}\n%s {\n\tapm = 200\n}\n' "$out/cfg-null-link" > "$cfg"
run -- --check-config "$cfg"
if [ "$rc" = 1 ] && grep -qxF " apm = 200: DRIFTED (is 128)" "$out/cfg.out" && grep -qxF " write_cache = off: DRIFTED (is on)" "$out/cfg.out" &&
	[ "$(grep -c '^/dev/null:$' "$out/cfg.out")" = 1 ] && ! grep -q "apm = 254" "$out/cfg.out"; then
	ok "two blocks naming one disk: merged into one, the later apm counts"
else
	bad "two blocks naming one disk" "exit $rc" "stdout: $(tr '\n' '|' < "$out/cfg.out")"
fi
# standby (and sleep) go after every setting, whatever the file's order: SET FEATURES (EFh), then
# STANDBY IMMEDIATE (E0h), as "hdparm -y -B254" orders them (ACS-3: E0h STANDBY IMMEDIATE).
printf '/dev/null {\n\tstandby\n\tapm = 254\n}\n' > "$cfg"
run -- --apply-config "$cfg"
cmds=$(sed 's/^cdb: //' "$out/cfg.log" | awk '$15 != "ec" { print $15 }' | tr '\n' ' ')
if [ "$cmds" = "ef e0 " ]; then ok "standby before a setting in the file: sent after it (${cmds})"; else bad "standby after the settings" "commands: $cmds"; fi
# standby and sleep both asked, of one disk: STANDBY IMMEDIATE (E0h), then SLEEP (E6h) last, after the
# settings, as hdparm 9.65 sends "-Y -y" under the same double; in one block in either order, and in two
# blocks naming the disk (its node, and a link to it).
oracle_cmds=$(rm -f "$out/cfg.log"; env SHIM_LOG="$out/cfg.log" SHIM_IDENTIFY="$page" "${preload[@]}" "$ORACLE" -Y -y /dev/null > /dev/null 2>&1
	sed 's/^cdb: //' "$out/cfg.log" | awk '$15 != "ec" { print $15 }' | tr '\n' ' ')
ln -sf /dev/null "$out/cfg-null-link"
for conf in '/dev/null {\n\tsleep\n\tstandby\n\tapm = 254\n}\n' '/dev/null {\n\tstandby\n\tsleep\n\tapm = 254\n}\n' \
	"/dev/null {\n\tsleep\n}\n$out/cfg-null-link {\n\tstandby\n\tapm = 254\n}\n"; do
	# shellcheck disable=SC2059 # the configuration is the format
	printf "$conf" > "$cfg"
	run -- --apply-config "$cfg"
	cmds=$(sed 's/^cdb: //' "$out/cfg.log" | awk '$15 != "ec" { print $15 }' | tr '\n' ' ')
	if [ "$oracle_cmds" = "e0 e6 " ] && [ "$cmds" = "ef $oracle_cmds" ]; then
		ok "sleep last, after standby and the setting ($cmds): $(grep -c '{' "$cfg") block(s)"
	else
		bad "sleep last: $(tr '\n\t' '| ' < "$cfg")" "commands: $cmds, 9.65's -Y -y: $oracle_cmds"
	fi
done
# --settings-only (the udev rule's change events): the command that acts once is not sent, said.
run -- --apply-config "$cfg" --settings-only /dev/null
cmds=$(sed 's/^cdb: //' "$out/cfg.log" | awk '$15 != "ec" { print $15 }' | tr '\n' ' ')
if [ "$cmds" = "ef " ] && grep -qxF " standby: not sent (it acts once: --settings-only)" "$out/cfg.out"; then
	ok "--settings-only: the setting sent, standby not (${cmds})"
else
	bad "--settings-only" "commands: $cmds" "stdout: $(tr '\n' '|' < "$out/cfg.out")"
fi
# A disk whose commands time out (inside udev's synchronous RUN): given up at its first timeout, said
# once, and the next disk tried: one SET FEATURES to each, not one per setting.
printf '/dev/null {\n\tapm = 254\n\twrite_cache = off\n\tacoustic_management = 128\n}\n/dev/zero {\n\tapm = 200\n\twrite_cache = off\n}\n' > "$cfg"
run SHIM_REPLY=timeout SHIM_LOG_DEVICE=1 -- --apply-config "$cfg"
sets=$(awk '$2 == "cdb:" && $17 == "ef" { print $1 }' "$out/cfg.log" | tr '\n' ' ')
if [ "$rc" = 110 ] && [ "$sets" = "/dev/null /dev/zero " ] &&
	[ "$(grep -c 'gave up on this disk: Connection timed out; its other settings were not sent' "$out/cfg.err")" = 2 ]; then
	ok "commands that time out: each disk given up at its first, said once, the next disk tried"
else
	bad "commands that time out" "exit $rc, SET FEATURES to: $sets" "stderr: $(tr '\n' '|' < "$out/cfg.err")"
fi

# Global lines and a disk that answers nothing (hdparm.8: "is not touched"): a card reader without a
# card (size 0) or a removable disk gets none, nothing is opened; a block that names it still applies.
# (/dev/null is character device 1:3: the double's sysfs has its attributes there.)
for attr in size:0 removable:1; do
	rm -rf "$out/cfg-sys14"
	mkdir -p "$out/cfg-sys14/sys/dev/char/1:3"
	echo 1000 > "$out/cfg-sys14/sys/dev/char/1:3/size"
	echo 0 > "$out/cfg-sys14/sys/dev/char/1:3/removable"
	echo "${attr#*:}" > "$out/cfg-sys14/sys/dev/char/1:3/${attr%:*}"
	printf 'apm = 254\n' > "$cfg"
	run SHIM_SYSFS="$out/cfg-sys14" -- --apply-config "$cfg" /dev/null
	if [ "$rc" = 0 ] && [ ! -s "$out/cfg.log" ] && grep -q "^ no settings for it: the global lines of $cfg are not sent to a" "$out/cfg.out"; then
		ok "global lines, a disk with ${attr%:*} ${attr#*:}: not sent, nothing opened"
	else
		bad "global lines, a disk with ${attr%:*} ${attr#*:}" "exit $rc" "stdout: $(tr '\n' '|' < "$out/cfg.out")" "log: $(tr '\n' '|' < "$out/cfg.log")"
	fi
done
printf '/dev/null {\n\tapm = 254\n}\n' > "$cfg"
run SHIM_SYSFS="$out/cfg-sys14" -- --check-config "$cfg" /dev/null
expect "a block that names a removable disk still applies to it" 1 " apm = 254: DRIFTED (is 128)" ""
# A global key this kind of disk cannot take (apm on NVMe): a line on stdout, not an error.
printf 'apm = 254\nwrite_cache = on\n' > "$cfg"
run SHIM_NVME="$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex" -- --apply-config "$cfg" /dev/null
if ! grep -q apm "$out/cfg.err" && grep -qF " apm = 254: not sent (a global line this kind of disk cannot take)" "$out/cfg.out"; then
	ok "a global key an NVMe disk cannot take: said on stdout, no error for it"
else
	bad "a global key an NVMe disk cannot take" "exit $rc" "stdout: $(tr '\n' '|' < "$out/cfg.out")" "stderr: $(tr '\n' '|' < "$out/cfg.err")"
fi

# apm_battery, not apm, on battery: a mains supply that is offline (sysfs of the double).
mkdir -p "$out/cfg-sys/sys/class/power_supply/AC"
echo Mains > "$out/cfg-sys/sys/class/power_supply/AC/type"
echo 0 > "$out/cfg-sys/sys/class/power_supply/AC/online"
printf '/dev/null {\n\tapm = 254\n\tapm_battery = 128\n}\n' > "$cfg"
run SHIM_SYSFS="$out/cfg-sys" -- --check-config "$cfg"
expect "on battery: apm_battery is the APM wanted" 0 " apm_battery = 128: holds" ""
echo 1 > "$out/cfg-sys/sys/class/power_supply/AC/online"
run SHIM_SYSFS="$out/cfg-sys" -- --check-config "$cfg"
expect "on mains: apm is" 1 " apm = 254: DRIFTED" ""

# --- a key another kind of disk cannot do: one line, the rest applied ---
printf '/dev/null {\n\tapm = 128\n\twrite_cache = on\n}\n' > "$cfg"
run SHIM_NVME="$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex" -- --apply-config "$cfg"
# (This double forgets the Set Features: the read-back after it says so, a line of its own.)
if [ "$rc" != 0 ] && [ "$(grep -c apm "$out/cfg.err")" = 1 ] &&
	grep -qF "/dev/null: apm = 128 ($cfg:2): not supported: an ATA setting" "$out/cfg.err" &&
	grep -q "^nvme-admin: 09 .. .. .. .. 06 00 00 00 01 00 00 00" "$out/cfg.log"; then
	ok "NVMe: apm refused in one line naming disk and key; write_cache set (Set Features 06h, WCE 1)"
else
	bad "NVMe: apm refused, write_cache set" "exit $rc" "stderr: $(cat "$out/cfg.err")" "log: $(tr '\n' '|' < "$out/cfg.log")"
fi

# A configuration is a regular file of at most 1 MiB (issue 65, item 15): a link to /dev/zero (read
# without bound before: an empty error line under a memory limit), a FIFO (open() blocked), a folder
# and a file over 1 MiB are each refused in one line naming it, before anything is sent, exit 2 for a
# check and 22 (EINVAL) for --apply-config.  Bounded here in memory and time, so that a build that
# reads on fails rather than filling the machine: ASan's allocator limit, or ulimit -v without ASan.
# config_kinds: those checks; without root they run before the suite ends early, else at its end.
config_kinds() {
	rm -rf "$out/cfg-kinds"
	mkdir -p "$out/cfg-kinds/folder"
	ln -s /dev/zero "$out/cfg-kinds/zero-link"
	mkfifo "$out/cfg-kinds/fifo"
	head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' '#' > "$out/cfg-kinds/huge"
	bounded() {
		(ulimit -v 1048576 2> /dev/null
		 env SHIM_LOG="$out/cfg.log" SHIM_IDENTIFY="$page" SHIM_COUNT=0xff "${preload[@]}" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:allocator_may_return_null=1:max_allocation_size_mb=64" \
			timeout -s KILL 10 "$H" "$@" > "$out/cfg.out" 2> "$out/cfg.err")
	}
	if ldd "$H" 2> /dev/null | grep -q libasan; then
		bounded() {
			env SHIM_LOG="$out/cfg.log" SHIM_IDENTIFY="$page" SHIM_COUNT=0xff "${preload[@]}" \
				ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:allocator_may_return_null=1:max_allocation_size_mb=64" \
				timeout -s KILL 10 "$H" "$@" > "$out/cfg.out" 2> "$out/cfg.err"
		}
	fi
	for k in "zero-link:a character device" "fifo:a FIFO" "folder:a folder" "huge:over 1 MiB"; do
		name=${k%%:*} what=${k#*:}
		for opt in --check-config --apply-config; do
			want=2
			[ "$opt" = --apply-config ] && want=22
			rm -f "$out/cfg.log"
			bounded "$opt" "$out/cfg-kinds/$name" /dev/null
			rc=$?
			[ "$rc" = "$want" ] && [ ! -s "$out/cfg.log" ] && [ ! -s "$out/cfg.out" ] &&
				[ "$(cat "$out/cfg.err")" = "$out/cfg-kinds/$name: $what: a configuration is a regular file of at most 1 MiB" ]
			result_of cfg $? "$opt naming $what ($name): refused in one line, nothing sent, exit $want"
		done
	done
}

# --- loop devices: the kernel's settings, read back by blockdev ---
if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null; then
	echo "skip config: loop devices need root and losetup"
	config_kinds
	echo "end of suite"
	exit 0
fi
truncate -s 8M "$out/cfg-loop.img"
loop=$(losetup -f --show "$out/cfg-loop.img") || { bad "losetup"; echo "end of suite"; exit 0; }
# The read-only flag outlives the loop device's detach: it is cleared, or the next user of the node gets a read-only disk.
trap 'blockdev --setrw "$loop" 2> /dev/null; losetup -d "$loop" 2> /dev/null' EXIT
trap 'exit 1' INT TERM HUP
blockdev --setra 256 "$loop"
blockdev --setrw "$loop"
ln -sf "$loop" "$out/by-id-link"
printf '# named by a link, as /dev/disk/by-id names a disk\n%s {\n\tread_ahead_sect = 64\n\tread_only = on\n}\n' "$out/by-id-link" > "$cfg"
"$H" --apply-config "$cfg" "$loop" > "$out/cfg.out" 2> "$out/cfg.err"
rc=$?
if [ "$rc" = 0 ] && [ "$(blockdev --getra "$loop")" = 64 ] && [ "$(blockdev --getro "$loop")" = 1 ] &&
	grep -qF " read_ahead_sect = 64: set (was 256)" "$out/cfg.out"; then
	ok "loop: a block named by a link applies to the disk named; blockdev reads 64 and ro"
else
	bad "loop: apply" "exit $rc, ra $(blockdev --getra "$loop"), ro $(blockdev --getro "$loop")" "$(cat "$out/cfg.out" "$out/cfg.err")"
fi
"$H" --apply-config "$cfg" > "$out/cfg.out" 2> "$out/cfg.err"
rc=$?
expect "loop: applied again, nothing is sent" 0 " read_only = on: already set, not sent" ""
"$H" --check-config "$cfg" > "$out/cfg.out" 2> "$out/cfg.err"
rc=$?
expect "loop: --check-config after it exits 0" 0 " read_ahead_sect = 64: holds" ""
blockdev --setra 128 "$loop"
"$H" --check-config "$cfg" "$loop" > "$out/cfg.out" 2> "$out/cfg.err"
rc=$?
expect "loop: changed by hand, --check-config exits 1 and names it" 1 " read_ahead_sect = 64: DRIFTED (is 128)" ""
if [ "$(blockdev --getra "$loop")" = 128 ]; then ok "loop: --check-config changed nothing"; else bad "loop: --check-config changed the read-ahead"; fi
blockdev --setrw "$loop"

# --- what make install ships, run as udev and systemd run it (the Debian VM runs them for real) ---
inst="$out/cfg-inst"
rm -rf "$inst"
mkdir -p "$inst/bin"
ln -s "$(cd "$(dirname "$H")" && pwd)/$(basename "$H")" "$inst/bin/hdparm"
if make -s -C "$top" install-integration DESTDIR="$inst" SBINDIR="$inst/bin" CONFIG="$cfg" UDEVDIR=/lib/udev \
	SYSTEMDUTILDIR=/lib/systemd SYSTEMDUNITDIR=/lib/systemd/system > "$out/cfg.out" 2>&1 &&
	[ -f "$inst/lib/udev/rules.d/85-hdparm.rules" ] && [ -x "$inst/lib/systemd/system-sleep/hdparm" ] &&
	[ -f "$inst/lib/systemd/system/hdparm-idle.service" ] && [ -f "$inst/lib/systemd/system/hdparm-metrics.service" ] &&
	[ -f "$inst/lib/systemd/system/hdparm-metrics.timer" ]; then
	ok "make install-integration: the rule, the sleep hook and the units, at DESTDIR's udev and systemd places"
else
	bad "make install-integration" "$(cat "$out/cfg.out")"
fi
# hdparm-metrics.service's command, run as systemd runs it (TEXTFILEDIR given to make): the text of
# --metrics written whole into its folder's hdparm.prom; its timer every 5 minutes.
mkdir -p "$out/cfg-textfile"
make -s -C "$top" install-integration DESTDIR="$out/cfg-inst2" SBINDIR="$inst/bin" CONFIG="$cfg" UDEVDIR=/lib/udev \
	SYSTEMDUTILDIR=/lib/systemd SYSTEMDUNITDIR=/lib/systemd/system TEXTFILEDIR="$out/cfg-textfile" > "$out/cfg.out" 2>&1
metrics_cmd=$(sed -n 's/^ExecStart=//p' "$out/cfg-inst2/lib/systemd/system/hdparm-metrics.service")
# shellcheck disable=SC2086 # the unit's command line is words
env SHIM_IDENTIFY="$page" SHIM_COUNT=0xff "${preload[@]}" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	${metrics_cmd/%/ /dev/null} > "$out/cfg.out" 2>&1
rc=$?
if [ "$rc" = 0 ] && [ "$metrics_cmd" = "$inst/bin/hdparm --metrics-file $out/cfg-textfile/hdparm.prom" ] &&
	grep -qx 'hdparm_disk_up{device="null"} 1' "$out/cfg-textfile/hdparm.prom" &&
	grep -qx 'OnUnitActiveSec=5min' "$out/cfg-inst2/lib/systemd/system/hdparm-metrics.timer" &&
	grep -qx "ConditionPathIsDirectory=$out/cfg-textfile" "$out/cfg-inst2/lib/systemd/system/hdparm-metrics.service"; then
	ok "hdparm-metrics.service's command writes the disks' samples into TEXTFILEDIR/hdparm.prom; its timer every 5 minutes"
else
	bad "hdparm-metrics.service" "exit $rc: $metrics_cmd" "$(cat "$out/cfg.out")"
fi
rule_cmd=$(sed -n 's/^ACTION=="add", RUN+="\(.*\)"$/\1/p' "$inst/lib/udev/rules.d/85-hdparm.rules")
change_cmd=$(sed -n 's/^ACTION=="change", RUN+="\(.*\)"$/\1/p' "$inst/lib/udev/rules.d/85-hdparm.rules")
blockdev --setra 256 "$loop"
# shellcheck disable=SC2086
devnode=$loop sh -c "${rule_cmd//\$devnode/\$devnode}" > "$out/cfg.out" 2> "$out/cfg.err"
rc=$?
if [ "$rc" = 0 ] && [ "$(blockdev --getra "$loop")" = 64 ] && grep -q "^KERNEL!=\"sd\*|hd\*|nvme\[0-9\]\*n\[0-9\]\*\"" "$inst/lib/udev/rules.d/85-hdparm.rules"; then
	ok "the udev rule's command applies the disk's block (read-ahead 64 again)"
else
	bad "the udev rule's command" "exit $rc: $rule_cmd" "$(cat "$out/cfg.out" "$out/cfg.err")"
fi
start_ns=$(date +%s%N)
devnode=/dev/zero sh -c "${rule_cmd//\$devnode/\$devnode}" > "$out/cfg.out" 2> "$out/cfg.err"
rc=$?
ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
if [ "$rc" = 0 ] && [ "$ms" -lt 2000 ] && grep -qF "no settings for it" "$out/cfg.out"; then
	ok "the udev rule on a disk without a block: nothing opened, done in ${ms} ms"
else
	bad "the udev rule on a disk without a block" "exit $rc, $ms ms" "$(cat "$out/cfg.out" "$out/cfg.err")"
fi
# A change event (udev's watch after mkfs or dd closed the disk, "udevadm trigger"): the settings,
# never standby.
printf '%s {\n\tstandby\n\tread_ahead_sect = 64\n}\n' "$loop" > "$cfg"
blockdev --setra 256 "$loop"
# shellcheck disable=SC2086
devnode=$loop sh -c "${change_cmd//\$devnode/\$devnode}" > "$out/cfg.out" 2> "$out/cfg.err"
rc=$?
if [ "$rc" = 0 ] && [ "$(blockdev --getra "$loop")" = 64 ] && grep -qxF " standby: not sent (it acts once: --settings-only)" "$out/cfg.out"; then
	ok "the udev rule on a change event: the settings applied (read-ahead 64), standby not sent"
else
	bad "the udev rule on a change event" "exit $rc: $change_cmd" "$(cat "$out/cfg.out" "$out/cfg.err")"
fi
printf '%s {\n\tread_ahead_sect = 64\n}\n' "$loop" > "$cfg"
# No configuration file (a package installed without one): the rule does not run hdparm, the sleep
# hook says nothing; a missing file named by hand stays an error.
rm -rf "$inst-nofile"
mkdir -p "$inst-nofile/bin"
make -s -C "$top" install-integration DESTDIR="$inst-nofile" SBINDIR="$inst/bin" CONFIG="$out/cfg-not-here.conf" \
	UDEVDIR=/lib/udev SYSTEMDUTILDIR=/lib/systemd SYSTEMDUNITDIR=/lib/systemd/system > /dev/null 2>&1
sh "$inst-nofile/lib/systemd/system-sleep/hdparm" post suspend > "$out/cfg.out" 2>&1
rc=$?
"$H" --apply-config "$out/cfg-not-here.conf" > /dev/null 2>&1
byhand=$?
if [ "$rc" = 0 ] && [ ! -s "$out/cfg.out" ] && [ "$byhand" != 0 ] &&
	grep -qxF "TEST!=\"$out/cfg-not-here.conf\", GOTO=\"hdparm_end\"" "$inst-nofile/lib/udev/rules.d/85-hdparm.rules" &&
	[ "$(grep -n 'TEST!=' "$inst-nofile/lib/udev/rules.d/85-hdparm.rules" | cut -d: -f1)" -lt "$(grep -n 'RUN+=' "$inst-nofile/lib/udev/rules.d/85-hdparm.rules" | head -n 1 | cut -d: -f1)" ]; then
	ok "no configuration file: the sleep hook is silent (exit 0), the rule tests for it before RUN; by hand it is an error"
else
	bad "no configuration file" "hook exit $rc: $(cat "$out/cfg.out")" "by hand: exit $byhand"
fi
blockdev --setra 256 "$loop"
sh "$inst/lib/systemd/system-sleep/hdparm" pre suspend > "$out/cfg.out" 2>&1
pre=$(blockdev --getra "$loop")
sh "$inst/lib/systemd/system-sleep/hdparm" post suspend > "$out/cfg.out" 2>&1
rc=$?
if [ "$pre" = 256 ] && [ "$rc" = 0 ] && [ "$(blockdev --getra "$loop")" = 64 ]; then
	ok "the sleep hook: nothing before a suspend, the configuration again after it"
else
	bad "the sleep hook" "before $pre, exit $rc, after $(blockdev --getra "$loop")" "$(cat "$out/cfg.out")"
fi
# The sleep hook's form (no device: every disk of /sys/block) gives the global lines to the disks the
# udev form gives them to: not to a removable one.  In a mount namespace of its own, /dev/sdq is a USB
# stick (removable 1 in the double's sysfs; a link to the double's /dev/null) and /dev/sdr a fixed
# disk (/dev/zero).  The oracle is Debian's resume hook (95hdparm-apm: hdparm_try_apm, from
# /lib/hdparm/hdparm-functions), which gives APM to the SATA disk and nothing to the USB one.
if [ -r /lib/hdparm/hdparm-functions ]; then
	usb_path=pci-0000:00:14.0-usb-0:1:1.0-scsi-0:0:0:0 sata_path=pci-0000:00:1f.2-ata-1
	debian=$(for p in "$usb_path" "$sata_path"; do
		ID_PATH=$p ID_ATA_FEATURE_SET_APM=1 sh -c '. /lib/hdparm/hdparm-functions; hdparm_try_apm /dev/sdx' > /dev/null 2>&1
		echo $?
	done | tr '\n' ' ')
else
	echo "skip config: /lib/hdparm/hdparm-functions (Debian's hdparm, tests/setup installs it) is missing: Debian's rule is not asked"
	debian=skipped
fi
sys19="$out/cfg-sys19/sys"
rm -rf "$out/cfg-sys19"
mkdir -p "$sys19/block/sdq" "$sys19/block/sdr" "$sys19/dev/char/1:3" "$sys19/dev/char/1:5"
for d in 1:3 1:5; do echo 1000 > "$sys19/dev/char/$d/size"; done
echo 1 > "$sys19/dev/char/1:3/removable"
echo 0 > "$sys19/dev/char/1:5/removable"
printf 'apm = 254\n' > "$cfg"
cp "$page" "$out/cfg-page.hex"
# form19 LOG OUT -- COMMAND...: COMMAND with that /dev and the double; its exit status.
form19() {
	local log=$1 o=$2
	shift 3
	rm -f "$log"
	env SHIM_IDENTIFY="$out/cfg-page.hex" SHIM_KEEP_FEATURES=1 SHIM_COUNT=0xff SHIM_SYSFS="$out/cfg-sys19" SHIM_LOG="$log" \
		SHIM_LOG_DEVICE=1 "${preload[@]}" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		unshare --mount sh -c 'mount -t tmpfs tmpfs /dev && mknod /dev/null c 1 3 && mknod /dev/zero c 1 5 &&
			ln -s null /dev/sdq && ln -s zero /dev/sdr && exec "$@"' sh "$@" > "$o" 2>&1
	rc=$?
	touch "$log"
}
if ! unshare --mount true 2> /dev/null; then
	echo "skip config: unshare --mount is refused here: the sleep hook's form with a removable disk was not run"
else
	form19 "$out/cfg.log" "$out/cfg.out" -- sh "$inst/lib/systemd/system-sleep/hdparm" post suspend
	hook_rc=$rc
	hook_sets=$(awk '$2 == "cdb:" && $17 == "ef" { print $1 }' "$out/cfg.log" | tr '\n' ' ')
	form19 "$out/cfg.log2" "$out/cfg.out2" -- "$H" --apply-config "$cfg" /dev/sdq
	refused=" no settings for it: the global lines of $cfg are not sent to a removable disk"
	if { [ "$debian" = "1 0 " ] || [ "$debian" = skipped ]; } && [ "$hook_rc" = 0 ] && [ "$hook_sets" = "/dev/zero " ] && ! grep -q '^/dev/null ' "$out/cfg.log" &&
		grep -A1 -xF '/dev/sdq:' "$out/cfg.out" | grep -qxF "$refused" && [ "$rc" = 0 ] && [ ! -s "$out/cfg.log2" ] &&
		grep -qxF "$refused" "$out/cfg.out2"; then
		ok "the sleep hook's form: global lines to the fixed disk (SET FEATURES APM), none to the removable one, as the udev form and Debian's resume hook"
	else
		bad "the sleep hook's form and a removable disk" "Debian's hdparm_try_apm, USB and SATA: $debian" \
			"hook: exit $hook_rc, SET FEATURES to: $hook_sets; $(tr '\n' '|' < "$out/cfg.out")" \
			"udev form: exit $rc; $(tr '\n' '|' < "$out/cfg.out2") log: $(tr '\n' '|' < "$out/cfg.log2")"
	fi
fi
# The unit's ExecStart, with each disk's own idle_spindown (the double answers the standby commands).
printf '%s {\n\tidle_spindown = 7\n}\n/dev/disk/by-id/not-here {\n\tidle_spindown = 9\n}\n' "$loop" > "$cfg"
exec_cmd=$(sed -n 's/^ExecStart=//p' "$inst/lib/systemd/system/hdparm-idle.service")
# Still running when SIGTERM comes (it was watching), and ended by it: exit 0.
# shellcheck disable=SC2086
env SHIM_IDENTIFY="$page" "${preload[@]}" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	$exec_cmd > "$out/cfg.out" 2> "$out/cfg.err" &
pid=$!
for _ in $(seq 50); do grep -qs 'watched: standby' "$out/cfg.err" && break; sleep 0.1; done
sleep 0.5
alive=no
kill -0 "$pid" 2> /dev/null && alive=yes
kill -TERM "$pid" 2> /dev/null
wait_within 120 "$pid"
if [ "$rc" = 0 ] && [ "$alive" = yes ] && grep -q "$loop: watched: standby after 7 s without I/O" "$out/cfg.err" && [ "$(grep -c 'watched: standby' "$out/cfg.err")" = 1 ] &&
	grep -q "/dev/disk/by-id/not-here: not present: watched when it appears" "$out/cfg.err"; then
	ok "hdparm-idle.service's command watches the disk with its own idle_spindown, until SIGTERM"
else
	bad "hdparm-idle.service's command" "exit $rc, running at SIGTERM: $alive: $exec_cmd" "$(cat "$out/cfg.out" "$out/cfg.err")"
fi
printf '%s {\n\tread_ahead_sect = 64\n}\n' "$loop" > "$cfg"
$exec_cmd > "$out/cfg.out" 2> "$out/cfg.err"
rc=$?
expect "hdparm-idle.service with no idle_spindown: exits 0, says so" 0 "" "no disk has idle_spindown"
# The unit started before the disk's by-id link exists (at boot), and a disk plugged in later (a USB
# reconnect): it keeps running, and watches the disk from when the link appears.  The double answers
# CHECK POWER MODE "active" (SHIM_COUNT FFh), so the standby (STANDBY IMMEDIATE, E0h) follows 2 s after.
rm -f "$out/cfg-later-link" "$out/cfg.log"
printf '%s {\n\tidle_spindown = 2\n}\n' "$out/cfg-later-link" > "$cfg"
env SHIM_IDENTIFY="$page" SHIM_COUNT=0xff SHIM_LOG="$out/cfg.log" "${preload[@]}" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	$exec_cmd > "$out/cfg.out" 2> "$out/cfg.err" &
pid=$!
until_true 20 grep -qs 'not present: watched when it appears' "$out/cfg.err"	# started, the disk not there
ln -sf "$loop" "$out/cfg-later-link"
for _ in $(seq 100); do grep -qs ' e0 00$' "$out/cfg.log" && break; sleep 0.1; done
kill -TERM "$pid" 2> /dev/null
wait_within 120 "$pid"
if [ "$rc" = 0 ] && grep -q "$out/cfg-later-link: not present: watched when it appears" "$out/cfg.err" &&
	grep -q "$out/cfg-later-link: appeared, watched: standby after 2 s without I/O" "$out/cfg.err" &&
	grep -q "$out/cfg-later-link: standby after 2 s without I/O" "$out/cfg.err" && grep -qs ' e0 00$' "$out/cfg.log"; then
	ok "hdparm-idle.service started before its disk: keeps running, watches it once it appears, then its standby"
else
	bad "hdparm-idle.service started before its disk" "exit $rc" "$(cat "$out/cfg.err")"
fi
rm -f "$out/cfg-later-link"

config_kinds
echo "end of suite"
