#!/bin/bash
# Extended Power Conditions on an ATA drive of the test double: the rows of
# tests/epc-commands.txt, each on a fresh copy of the drive.  The drive is
# QEMU's IDENTIFY page with EPC supported and enabled (words 86 bit 15, 119
# and 120 bit 7) and a Power Conditions log (08h) built here from the ACS-3
# layout; the double changes both as SET FEATURES EPC commands arrive, so a
# row may set and then show.
# Usage: epc-commands.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
suite="epc" double_name=epc
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

# hex_bytes SIZE OFFSET=BYTE ...: SIZE bytes in hex, zero but where given.
hex_bytes() {
	local -a b
	local size=$1 kv
	shift
	for i in $(seq 0 $((size - 1))); do b[i]=00; done
	for kv in "$@"; do b[${kv%=*}]=${kv#*=}; done
	echo "${b[@]}"
}
# descriptor AT FLAGS DEFAULT SAVED CURRENT MIN MAX: a 64-byte descriptor at byte AT of the log (ACS-3 9.7.4):
# byte 1 the flags, bytes 4, 8, 12, 20, 24 the default, saved, current, minimum and maximum timers
# (100 ms units, little-endian).
descriptor() {
	local at=$1 flags=$2 field=4 v i
	shift 2
	echo "$((at + 1))=$flags"
	for v in "$@"; do
		for i in 0 1 2 3; do echo "$((at + field + i))=$(printf '%02x' $(((v >> (8 * i)) & 255)))"; done
		field=$((field == 12 ? 20 : field + 4))
	done
}
# Idle_a: supported, saveable, changeable, enabled (default, saved, current) at 2 s, 0.1 s to 1 h.
# Idle_b, Idle_c: supported, saveable, changeable, not enabled: 120 s, 600 s.
# Standby_y: not supported.  Standby_z: supported and changeable but not saveable, enabled at 15 min.
# Page 00h holds the Idle conditions at 0, 64, 128; page 01h (bytes 512-1023) Standby_y at 384, _z at 448.
power_log=$(hex_bytes 1024 $(descriptor 0 fc 20 20 20 1 36000) $(descriptor 64 e0 1200 1200 1200 1 36000) \
	$(descriptor 128 e0 6000 6000 6000 1 36000) $(descriptor 960 a4 9000 9000 9000 1 0))
# The log directory: log 08h has 2 pages (its word at byte 16).
log_dir=$(hex_bytes 512 0=01 16=02)

# fresh_drive EPC-ENABLED: the page and logs, as the rows start from.
fresh_drive() {
	rm -rf "$out/epc" && mkdir -p "$out/epc/logs"
	echo "$power_log" > "$out/epc/logs/08.hex"
	echo "$log_dir" > "$out/epc/logs/00.hex"
	python3 - "$top/tests/identify/pages/qemu-ahci-hdd.hex" "$1" > "$out/epc/page.hex" <<'PY'
import sys
w = [int(x, 16) for x in open(sys.argv[1]).read().split()]
w[86] |= 0x8000                               # words 119-120 valid
w[119] = 0x4000 if sys.argv[2] == "none" else 0x4080   # EPC supported
w[120] = 0x4080 if sys.argv[2] == "1" else 0x4000        # ... and enabled
for i in range(0, 256, 8):
    print(" ".join("%04x" % x for x in w[i:i + 8]))
PY
}

# run ENV... -- ARGS...: hdparm on a fresh EPC drive (EPC=disabled or EPC=none in ENV: EPC supported
# but disabled, or not supported); output in $out/epc-cmd.*
run() {
	local envs=() enabled=1
	while [ "$1" != "--" ]; do
		case "$1" in
		EPC=disabled) enabled=0 ;;
		EPC=none) enabled=none ;;
		*) envs+=("$1") ;;
		esac
		shift
	done
	shift
	fresh_drive "$enabled"
	run_on_double epc-cmd SHIM_IDENTIFY="$out/epc/page.hex" SHIM_LOGS="$out/epc/logs" "${envs[@]}" -- "$@" /dev/null
}


case_prefix=epc case_files="$out/epc-cmd"
# shellcheck source=tests/tools/cases.sh
. "$top/tests/tools/cases.sh"
run_cases "$top/tests/epc-commands.txt" epc

# --json: the epc object, after a timer was set in the same run.
run -- --json --epc-timer idle_b=30 --epc
if [ "$rc" = 0 ] && python3 - "$out/epc-cmd.out" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["devices"][0]["epc"]
c = {x["name"]: x for x in e["conditions"]}
ok = e["enabled"] is True and c["idle_b"] == {"name": "idle_b", "supported": True, "enabled": True,
     "current_seconds": 30.0, "default_seconds": 120.0, "saved_seconds": 120.0, "changeable": True, "saveable": True}
ok = ok and c["standby_y"] == {"name": "standby_y", "supported": False} and c["standby_z"]["saveable"] is False
sys.exit(0 if ok else 1)
PY
then
	ok "--json --epc after --epc-timer: the epc object with the new timer"
else
	bad "--json --epc after --epc-timer: the epc object with the new timer (exit $rc)"
	head -c 800 "$out/epc-cmd.out" | sed 's/^/  /'
fi

# A configuration's epc and epc_timer keys, held against the Power Conditions log (the double keeps
# what SET FEATURES EPC sets): Idle_a enabled at 2 s holds; Idle_b, disabled, is sent and read back.
printf '/dev/null {\n\tepc = on\n\tepc_timer = idle_a=2\n\tepc_timer = idle_b=30\n}\n' > "$out/epc.conf"
run SHIM_COUNT=0xff -- --check-config "$out/epc.conf"	# an awake drive (CHECK POWER MODE FFh): its settings are read
if [ "$rc" = 1 ] && grep -qF " epc = on: holds" "$out/epc-cmd.out" && grep -qF " epc_timer = idle_b=30: DRIFTED (is idle_b=0)" "$out/epc-cmd.out" &&
	! awk '{ print $15 }' "$out/epc-cmd.log" | grep -qx ef; then
	ok "--check-config reads epc and a condition's timer from the log, sends nothing"
else
	bad "--check-config of epc_timer (exit $rc)"
	sed 's/^/  /' "$out/epc-cmd.out" "$out/epc-cmd.err"
fi
printf '/dev/null {\n\tepc_timer = idle_a=2\n}\n' > "$out/epc.conf"
run SHIM_COUNT=0xff -- --check-config "$out/epc.conf"	# an awake drive (CHECK POWER MODE FFh): its settings are read
if [ "$rc" = 0 ] && grep -qF " epc_timer = idle_a=2: holds" "$out/epc-cmd.out"; then ok "--check-config: Idle_a's 2 s holds"; else bad "Idle_a's timer holds (exit $rc)"; sed 's/^/  /' "$out/epc-cmd.out"; fi
printf '/dev/null {\n\tepc_timer = idle_b=30\n}\n' > "$out/epc.conf"
run -- --apply-config "$out/epc.conf"
sent=$(sed 's/^cdb: //' "$out/epc-cmd.log" | awk '$15 == "ef"')
rm -f "$out/epc-cmd.log"
env SHIM_IDENTIFY="$out/epc/page.hex" SHIM_LOGS="$out/epc/logs" SHIM_LOG="$out/epc-cmd.log" "${preload[@]}" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$H" --apply-config "$out/epc.conf" /dev/null > "$out/epc-cmd.2" 2>&1
touch "$out/epc-cmd.log"
again=$(sed 's/^cdb: //' "$out/epc-cmd.log" | awk '$15 == "ef"')
if [ "$rc" = 0 ] && grep -qF " epc_timer = idle_b=30: set (was idle_b=0)" "$out/epc-cmd.out" &&
	[ "$sent" = "85 06 00 00 4a 00 82 00 22 00 2c 00 01 40 ef 00" ] && [ -z "$again" ] &&
	grep -qF " epc_timer = idle_b=30: already set, not sent" "$out/epc-cmd.2"; then
	ok "--apply-config sets Idle_b's timer (the bytes of --epc-timer idle_b=30, tests/epc-commands.txt), then finds it set"
else
	bad "--apply-config of epc_timer (exit $rc)"
	echo "  sent: $sent; again: $again"
	sed 's/^/  /' "$out/epc-cmd.out" "$out/epc-cmd.2" "$out/epc-cmd.err"
fi
echo "end of suite"
