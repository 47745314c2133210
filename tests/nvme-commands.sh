#!/bin/bash
# NVMe disks against the test double's controller (tests/tools/sgio-shim.c,
# SHIM_NVME): the cases of one command line each are rows of
# tests/nvme-commands.txt.  The dwords wanted are written from the NVMe Base
# specification (the field each holds is named in the table), not from what
# hdparm sends.
# Usage: nvme-commands.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
suite="nvme" double_name=nvme
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/tools/oracle.sh
. "$top/tests/tools/oracle.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

# The disk images the sample after an erase reads (SHIM_DISK_IMAGE): zeros, and zeros with the last block not.
mkdir -p "$out/sysfs-none/sys"
truncate -s 0 "$out/nvme-zeros.img" "$out/nvme-last.img"
truncate -s 1M "$out/nvme-zeros.img" "$out/nvme-last.img"
printf 'not erased' | dd of="$out/nvme-last.img" bs=512 seek=2047 conv=notrunc status=none
head -c 1048576 /dev/urandom > "$out/nvme-random.img"
# What an erase leaves (SHIM_DISK_IMAGE_AFTER): other random data, all A5h, the pattern 5A A5 C3 3C.
head -c 1048576 /dev/urandom > "$out/nvme-random2.img"
head -c 1048576 /dev/zero | tr '\000' '\245' > "$out/nvme-a5.img"
printf 'Z\245\303<' > "$out/nvme-pattern.img"	# 5A A5 C3 3C, doubled to 1 MiB
for _ in $(seq 18); do cat "$out/nvme-pattern.img" "$out/nvme-pattern.img" > "$out/nvme-pattern.tmp"; mv "$out/nvme-pattern.tmp" "$out/nvme-pattern.img"; done
# --erase-verify full: zeros but for block 1000 (no LBA of the sample), and the random image after a
# cryptographic erase but for block 32 (the sample's second LBA, 2047 * 1 / 63), left as it was.
cp "$out/nvme-zeros.img" "$out/nvme-mid.img"
printf 'left behind' | dd of="$out/nvme-mid.img" bs=512 seek=1000 conv=notrunc status=none
cp "$out/nvme-random2.img" "$out/nvme-crypto-one.img"
dd if="$out/nvme-random.img" of="$out/nvme-crypto-one.img" bs=512 skip=32 seek=32 count=1 conv=notrunc status=none
# Fake sysfs: namespace 259:900000 of controller nvme0, whose APST latency limit is 20000 us, 10000 us or "any".
for limit in 20000 10000 any; do
	sys="$out/sysfs-latency-$limit/sys"
	rm -rf "$out/sysfs-latency-$limit"
	mkdir -p "$sys/dev/block/259:900000" "$sys/class/nvme/nvme0/power"
	ln -s ../../../class/nvme/nvme0 "$sys/dev/block/259:900000/device"
	echo "$limit" > "$sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us"
done
# Fake sysfs of a subsystem (nvme-subsys0) whose controller nvme0 has namespaces 1 (259:900000, the double's
# /dev/null) and 2 (259:900001, no node here), linked as the kernel links them.
sys="$out/sysfs-two-ns/sys"
rm -rf "$out/sysfs-two-ns"
mkdir -p "$sys/dev/block" "$sys/class/block" "$sys/class/nvme/nvme0" "$sys/class/nvme-subsystem/nvme-subsys0"
ln -s ../../nvme "$sys/class/nvme/nvme0/subsystem"
ln -s ../../nvme/nvme0 "$sys/class/nvme-subsystem/nvme-subsys0/nvme0"
for n in 1 2; do
	ns="$sys/class/nvme/nvme0/nvme0n$n"
	mkdir -p "$ns"
	ln -s ../../../block "$ns/subsystem"
	ln -s ../../nvme0 "$ns/device"
	echo "259:$((900000 + n - 1))" > "$ns/dev"
	echo "$n" > "$ns/nsid"
	echo "DEVNAME=nvme0n$n" > "$ns/uevent"
	ln -s "../../class/nvme/nvme0/nvme0n$n" "$sys/dev/block/259:$((900000 + n - 1))"
done

# run ENV... -- ARGS...: hdparm on the double's NVMe controller (QEMU's Identify pages); output in $out/nvme-cmd.*
# The double's sysfs is an empty tree unless a row lays one out: the host's own (a loop device's
# partition may be 259:0 there) must not answer for the double's disk.
run() {
	run_on_double nvme-cmd SHIM_NVME="$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex" \
		SHIM_SYSFS="$out/sysfs-none" "$@" /dev/null
}


case_prefix=nvme case_files="$out/nvme-cmd"
# shellcheck source=tests/tools/cases.sh
. "$top/tests/tools/cases.sh"
run_cases "$top/tests/nvme-commands.txt" nvme

# --json: the erase and its sample in the device's object.
run SHIM_NVME_SANICAP=3 SHIM_BLOCK_DEV=259:900000 SHIM_DISK_IMAGE="$out/nvme-zeros.img" -- \
	--json --yes-i-know-what-i-am-doing --format-erase user
if [ "$rc" = 0 ] && python3 - "$out/nvme-cmd.out" <<'PY'
import json, sys
dev = json.load(open(sys.argv[1]))["devices"][0]
ok = dev["format_erase"]["erase"] == "user" and dev["format_erase"]["completed"] is True
ok = ok and dev["erase_check"] == [{"device": "/dev/null", "blocks": 64, "zeros": 64, "pattern": 0, "other": 0,
                                   "compared_with_before": True, "unchanged": 0, "verdict": "zeros"}]
sys.exit(0 if ok and dev["errors"] == [] else 1)
PY
then
	ok "--json --format-erase: format_erase and erase_check objects"
else
	bad "--json --format-erase: format_erase and erase_check objects (exit $rc)"
	head -c 600 "$out/nvme-cmd.out" | sed 's/^/  /'
fi
# The sanitize object: its action spelled as on every kind of disk (hdparm.8, JSON OUTPUT).
run SHIM_NVME_SANICAP=7 -- --json --yes-i-know-what-i-am-doing --sanitize-crypto-scramble
if [ "$rc" = 0 ] && python3 - "$out/nvme-cmd.out" <<'PY'
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["devices"][0]["sanitize"] == {"action": "crypto_erase", "outcome": "started"} else 1)
PY
then
	ok "--json --sanitize-crypto-scramble: action crypto_erase, outcome started"
else
	bad "--json --sanitize-crypto-scramble: action crypto_erase, outcome started (exit $rc)"
fi
run SHIM_NVME_SANITIZE=0:2,8000:2,0:1 -- --json --sanitize-wait
if [ "$rc" = 0 ] && python3 - "$out/nvme-cmd.out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["devices"][0]["sanitize_status"]
want = {"status": "completed", "progress": 0, "overwrite_passes_done": 0, "global_data_erased": False,
        "estimated_seconds": {"overwrite": None, "block_erase": 120, "crypto_erase": 5}}
sys.exit(0 if s == want else 1)
PY
then
	ok "--json --sanitize-wait: the sanitize_status object"
else
	bad "--json --sanitize-wait: the sanitize_status object (exit $rc)"
	head -c 600 "$out/nvme-cmd.out" | sed 's/^/  /'
fi
# SIGTERM during --json --sanitize-wait: the document is still written whole, and says the drive carries on.
rm -f "$out/nvme-cmd.log"
env SHIM_NVME="$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_SANITIZE=4000:2 SHIM_SYSFS="$out/sysfs-none" \
	SHIM_LOG="$out/nvme-cmd.log" "${preload[@]}" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	"$H" --json --sanitize-wait /dev/null > "$out/nvme-cmd.out" 2> "$out/nvme-cmd.err" &
wait_pid=$!
# Waiting: the Sanitize Status log (Get Log Page 02h of log 81h) read once.
until_true 10 grep -qs '^nvme-admin: 02 .* 81 ' "$out/nvme-cmd.log"
kill -TERM "$wait_pid"
wait_within 120 "$wait_pid"
if [ "$rc" = 4 ] && grep -q 'interrupted: the sanitize goes on in the drive' "$out/nvme-cmd.err" && python3 - "$out/nvme-cmd.out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
ok = d["sanitize_wait"] == {"interrupted": True, "drive_continues": True}
sys.exit(0 if ok and d["errors"][0]["operation"] == "--sanitize-wait" else 1)
PY
then
	ok "SIGTERM during --json --sanitize-wait: a whole document that says the drive carries on"
else
	bad "SIGTERM during --json --sanitize-wait: a whole document (exit $rc)"
	head -c 600 "$out/nvme-cmd.out" "$out/nvme-cmd.err" | sed 's/^/  /'
fi

# --json -C: the power state, its power, APST and the kernel's limit (none in the double's sysfs).
run SHIM_NVME="$top/tests/nvme/crafted-ctrl.hex,$top/tests/nvme/crafted-ns.hex" SHIM_NVME_PS=2 SHIM_NVME_APST=100:2 -- --json -C
if [ "$rc" = 0 ] && python3 - "$out/nvme-cmd.out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
want = {"power_state": 2, "power_mode": "non-operational", "max_power_watts": 0.5, "apst_enabled": True,
        "apst_latency_limit_us": None}
sys.exit(0 if all(d.get(k, "missing") == v for k, v in want.items()) and d["errors"] == [] else 1)
PY
then
	ok "--json -C: power_state, power_mode, max_power_watts, apst_enabled"
else
	bad "--json -C: power_state, power_mode, max_power_watts, apst_enabled (exit $rc)"
	head -c 600 "$out/nvme-cmd.out" | sed 's/^/  /'
fi

# A format has no progress report: on a terminal the status line counts the time (the double takes
# 2.5 s over it); without a terminal, nothing extra.
rm -f "$out/nvme-cmd.log"
script -qec "env SHIM_NVME=$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex SHIM_NVME_DELAY=80 SHIM_DELAY_MS=2500 \
	${preload[*]} ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
	$H --yes-i-know-what-i-am-doing --format-erase user /dev/null" /dev/null > "$out/nvme-tty.out" < /dev/null
rc=$?
if [ "$rc" = 0 ] && [ "$(grep -o 'formatting: 0 min 0[0-9] s' "$out/nvme-tty.out" | wc -l)" -ge 2 ] &&
	grep -q 'formatting took 0 min 0[23] s' "$out/nvme-tty.out"; then
	ok "--format-erase on a terminal: the status line counts the seconds, then says how long it took"
else
	bad "--format-erase on a terminal: the status line counts the seconds (exit $rc)"
	od -c "$out/nvme-tty.out" | tail -n 8 | sed 's/^/  /'
fi
run SHIM_NVME_DELAY=80 SHIM_DELAY_MS=1000 -- --yes-i-know-what-i-am-doing --format-erase user
check "--format-erase without a terminal: no status line" 0 "*" "Issuing NVMe Format NVM with user-data erase of namespace 1" ""
if grep -q 'formatting' "$out/nvme-cmd.err"; then bad "--format-erase without a terminal: stderr has no status line"; else ok "--format-erase without a terminal: stderr has no status line"; fi
# -H against smartctl (-A, -c) and nvme-cli (smart-log, id-ctrl) reading the same answers: the
# composite temperature of the SMART / Health log (bytes 2:1, kelvin) and Identify Controller's
# WCTEMP and CCTEMP (bytes 267:266 and 269:268, kelvin), here 348 K and 358 K (75 and 85 C) in a
# copy of QEMU's page, for 250 K (below zero) and 330 K; and --json -H against smartctl -j.
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle nvme smartctl && oracle nvme nvme nvme-cli; then
	python3 - "$top/tests/nvme/qemu-ctrl.hex" "$out/thresholds-ctrl.hex" << 'PY'
import sys
b = open(sys.argv[1]).read().split()
b[266:270] = ["5c", "01", "66", "01"]
open(sys.argv[2], "w").write("".join(" ".join(b[i:i + 16]) + "\n" for i in range(0, len(b), 16)))
PY
	for kelvin in 250 330; do
		e=(SHIM_NVME="$out/thresholds-ctrl.hex,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_TEMP="$kelvin" SHIM_SYSFS="$out/sysfs-none")
		smartctl=$(for o in -A -c; do env "${e[@]}" "${preload[@]}" smartctl $o -d nvme /dev/null 2> /dev/null; done |
			sed -n 's/^Temperature: *\(-*[0-9]*\) Celsius$/\1/p; s/^Warning  Comp. Temp. Threshold: *\([0-9]*\) Celsius$/\1/p
				s/^Critical Comp. Temp. Threshold: *\([0-9]*\) Celsius$/\1/p' | tr '\n' ' ')
		nvmecli=$({ env "${e[@]}" "${preload[@]}" nvme smart-log /dev/null 2> /dev/null | sed -n 's/^temperature\t*: \(-*[0-9]*\)°C.*/\1/p'
			env "${e[@]}" "${preload[@]}" nvme id-ctrl /dev/null 2> /dev/null | awk '$1 == "wctemp" || $1 == "cctemp" { print $3 - 273 }'; } | tr '\n' ' ')
		run "${e[@]}" -- -H
		ours=$(sed -n 's/^ drive temperature (celsius) is:  //p; s/^ warning threshold (celsius):  *//p; s/^ critical threshold (celsius):  *//p' \
			"$out/nvme-cmd.out" | tr '\n' ' ')
		if [ "$rc" = 0 ] && [ "$ours" = "$((kelvin - 273)) 75 85 " ] && [ "$smartctl" = "$ours" ] && [ "$nvmecli" = "$ours" ]; then
			ok "-H at $kelvin K: the temperature and thresholds smartctl and nvme-cli read ($ours)"
		else
			bad "-H at $kelvin K: the temperature and thresholds smartctl and nvme-cli read (exit $rc)"
			echo "  ours: $ours; smartctl: $smartctl; nvme-cli: $nvmecli"
		fi
		env "${e[@]}" "${preload[@]}" smartctl -j -A -d nvme /dev/null > "$out/nvme-smartctl.json" 2> /dev/null
		run "${e[@]}" -- --json -H
		if python3 -c 'import json, sys
theirs = json.load(open(sys.argv[1]))["temperature"]
ours = json.load(open(sys.argv[2]))["devices"][0]["temperature"]
sys.exit(0 if ours["current"] == theirs["current"] == int(sys.argv[3]) - 273 else 1)' "$out/nvme-smartctl.json" "$out/nvme-cmd.out" "$kelvin"; then
			ok "--json -H at $kelvin K: temperature.current as smartctl -j gives it"
		else
			bad "--json -H at $kelvin K: temperature.current as smartctl -j gives it (exit $rc)"
		fi
	done
fi

# --power-on-hours (its own cases: tests/ops/power_on.cases): nvme-cli's smart-log and smartctl -A
# read the same SMART / Health log from the scripted double (tests/tools/script-double.c) and find
# the same Power On Hours (bytes 143:128); hdparm sends exactly nvme-cli's one command.
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle nvme smartctl smartmontools && oracle nvme nvme nvme-cli; then
	sd="$out/script-double-pon.so"
	if ${CC:-cc} -shared -fPIC -O2 -o "$sd" "$top/tests/tools/script-double.c" -ldl; then
		log="admin 02 nsid=ffffffff cdw10=7f0002 -> data @$top/tests/ops/data/nvme-smart-health.hex"
		printf 'node nvme 1\n%s\n' "$log" > "$out/pon.script"
		printf 'node nvme 1\nadmin 06 nsid=0 cdw10=1 -> data @%s\n%s\n' "$top/tests/nvme/qemu-ctrl.hex" "$log" > "$out/pon-smartctl.script"
		nvmecli=$(env DOUBLE_SCRIPT="$out/pon.script" LD_PRELOAD="$sd" nvme smart-log /dev/null 2> /dev/null |
			sed -n 's/^power_on_hours[[:space:]]*: *\([0-9]*\)$/\1/p')
		smartctl=$(env DOUBLE_SCRIPT="$out/pon-smartctl.script" LD_PRELOAD="$sd" smartctl -A -d nvme /dev/null 2> /dev/null |
			sed -n 's/^Power On Hours: *\([0-9,]*\)$/\1/p' | tr -d ,)
		rm -f "$out/pon.report"
		env DOUBLE_SCRIPT="$out/pon.script" DOUBLE_REPORT="$out/pon.report" "${preload[@]/$shim/$sd}" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$H" --power-on-hours /dev/null > "$out/pon.out" 2>&1
		rc=$?
		ours=$(sed -n 's/^ power-on hours:  //p' "$out/pon.out")
		if [ "$rc" = 0 ] && [ ! -s "$out/pon.report" ] && [ "$ours" = 4660 ] && [ "$nvmecli" = 4660 ] && [ "$smartctl" = 4660 ]; then
			ok "--power-on-hours: the SMART / Health log's Power On Hours, as nvme-cli smart-log and smartctl -A read it (4660)"
		else
			bad "--power-on-hours: the SMART / Health log's Power On Hours, as nvme-cli smart-log and smartctl -A read it (exit $rc)" \
				"ours: '$ours', nvme-cli: '$nvmecli', smartctl: '$smartctl'" "$(tr '\n' '|' < "$out/pon.report" 2> /dev/null)"
		fi
	else
		bad "build tests/tools/script-double.c"
	fi
fi

# --fwdownload against nvme-cli under the same double: the Firmware Image Download (11h) and Commit
# (10h) commands, data included, equal what "nvme fw-download --xfer=4096" then "nvme fw-commit
# --slot=S --action=A" send for the same image: slot 2 action 1 by default (the crafted controller:
# three slots, slot 1 read only, FWUG 0), --fw-slot 3, and --fw-activate-now (action 3) on a copy
# with FRMW bit 4.  The image is whole pieces: nvme-cli 2.3 sends its last piece whole, past the
# end of a shorter image, where hdparm sends what is left.
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle nvme nvme nvme-cli; then
	head -c 12288 /dev/urandom > "$out/fw-image.bin"
	grep -v '^#' "$top/tests/ops/data/nvme-ctrl-fw-now.hex" > "$out/fw-now-ctrl.hex"
	fw_commands() { awk '$1 == "nvme-admin:" && ($2 == "10" || $2 == "11") || $1 == "data:"' "$1"; }
	for c in "crafted-ctrl 2 1 -" "crafted-ctrl 3 1 --fw-slot 3" "fw-now 2 3 --fw-activate-now"; do
		read -r page slot action extra <<< "$c"
		[ "$extra" = - ] && extra=
		ctrl_page="$top/tests/nvme/$page.hex"
		[ "$page" = fw-now ] && ctrl_page="$out/fw-now-ctrl.hex"
		e=(SHIM_NVME="$ctrl_page,$top/tests/nvme/qemu-ns.hex" SHIM_SYSFS="$out/sysfs-none")
		rm -f "$out/fw-theirs.log"
		env "${e[@]}" SHIM_LOG="$out/fw-theirs.log" "${preload[@]}" nvme fw-download /dev/null --fw="$out/fw-image.bin" --xfer=4096 > /dev/null 2>&1
		env "${e[@]}" SHIM_LOG="$out/fw-theirs.log" "${preload[@]}" nvme fw-commit /dev/null --slot="$slot" --action="$action" > /dev/null 2>&1
		# shellcheck disable=SC2086
		run "${e[@]}" -- --yes-i-know-what-i-am-doing --please-destroy-my-drive --fwdownload "$out/fw-image.bin" $extra
		if [ "$(fw_commands "$out/nvme-cmd.log")" = "$(fw_commands "$out/fw-theirs.log")" ] &&
			[ "$(fw_commands "$out/nvme-cmd.log" | grep -c '^nvme-admin: 11 ')" = 3 ]; then
			ok "--fwdownload ${extra:-(slot 2)}: Firmware Image Download and Commit as nvme-cli's fw-download --xfer=4096 and fw-commit --slot=$slot --action=$action"
		else
			bad "--fwdownload ${extra:-(slot 2)}: Firmware Image Download and Commit as nvme-cli's fw-download --xfer=4096 and fw-commit --slot=$slot --action=$action (exit $rc)" \
				"ours:   $(fw_commands "$out/nvme-cmd.log" | cut -c1-60 | tr '\n' '|')" "theirs: $(fw_commands "$out/fw-theirs.log" | cut -c1-60 | tr '\n' '|')"
		fi
	done
	# --json -I: the slots (the double's log is all zeros: every slot empty, none running).
	run SHIM_NVME="$top/tests/nvme/crafted-ctrl.hex,$top/tests/nvme/qemu-ns.hex" SHIM_SYSFS="$out/sysfs-none" -- --json -I
	if [ "$rc" = 0 ] && python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["devices"][0]["identify"]["firmware_slots"]
want = [{"slot": n, "revision": None, "active": False, "active_after_reset": False, "read_only": n == 1} for n in (1, 2, 3)]
sys.exit(0 if s == want else 1)' "$out/nvme-cmd.out"; then
		ok "--json -I: firmware_slots, three (FRMW 07h), slot 1 read only"
	else
		bad "--json -I: firmware_slots, three (FRMW 07h), slot 1 read only (exit $rc)"
	fi
	# The slots as nvme-cli's fw-log reads the same log (the scripted double: slot 1 7.2.22 running,
	# slot 2 8.0.1 after the next reset): AFI and each slot's revision.
	sd="$out/script-double-fwlog.so"
	if ${CC:-cc} -shared -fPIC -O2 -o "$sd" "$top/tests/tools/script-double.c" -ldl; then
		log="admin 02 -> data @$top/tests/ops/data/nvme-fw-slots-after.hex"
		printf 'node nvme 1\n%s\n' "$log" > "$out/fwlog-theirs.script"
		printf 'node nvme 1\nadmin 06 cdw10=1 -> data @%s\nadmin 06 cdw10=0 -> data @%s\nadmin 0a cdw10=6\nadmin 0a cdw10=2\nadmin 0a cdw10=c\n%s\nadmin 02 cdw10=7f0002\n' \
			"$top/tests/nvme/crafted-ctrl.hex" "$top/tests/nvme/qemu-ns.hex" "$log" > "$out/fwlog-ours.script"
		env DOUBLE_SCRIPT="$out/fwlog-theirs.script" LD_PRELOAD="$sd" nvme fw-log /dev/null -o json > "$out/fwlog-theirs.json" 2> /dev/null
		env DOUBLE_SCRIPT="$out/fwlog-ours.script" DOUBLE_REPORT="$out/fwlog-ours.report" "${preload[@]/$shim/$sd}" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$H" --json -I /dev/null > "$out/fwlog-ours.json" 2> /dev/null
		if [ ! -s "$out/fwlog-ours.report" ] && python3 -c 'import json, re, sys
theirs = list(json.load(open(sys.argv[1])).values())[0]
ours = json.load(open(sys.argv[2]))["devices"][0]["identify"]["firmware_slots"]
afi = theirs["Active Firmware Slot (afi)"]
revs = {int(k.split()[-1]): re.search(r"\((.*)\)", v).group(1).rstrip(".") for k, v in theirs.items() if k.startswith("Firmware Rev Slot")}
want = [{"slot": n, "revision": revs.get(n), "active": n == afi & 7, "active_after_reset": n == (afi >> 4) & 7, "read_only": n == 1} for n in (1, 2, 3)]
sys.exit(0 if ours == want and revs == {1: "7.2.22", 2: "8.0.1"} else 1)' "$out/fwlog-theirs.json" "$out/fwlog-ours.json"; then
			ok "--json -I: the firmware slots as nvme-cli's fw-log reads the same log (AFI 21h, 7.2.22 and 8.0.1)"
		else
			bad "--json -I: the firmware slots as nvme-cli's fw-log reads the same log" "theirs: $(tr -d '\n' < "$out/fwlog-theirs.json")" \
				"ours: $(tr -d '\n' < "$out/fwlog-ours.json" | grep -o '"firmware_slots".*' | cut -c1-300)"
		fi
	else
		bad "build tests/tools/script-double.c"
	fi
	# On a terminal, a status line: the share sent; without one (above), none.
	script -qec "env SHIM_NVME=$top/tests/nvme/crafted-ctrl.hex,$top/tests/nvme/qemu-ns.hex SHIM_SYSFS=$out/sysfs-none ${preload[*]} \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 $H --yes-i-know-what-i-am-doing \
		--please-destroy-my-drive --fwdownload $out/fw-image.bin /dev/null" /dev/null > "$out/fw-tty.out" < /dev/null
	if tr '\r' '\n' < "$out/fw-tty.out" | grep -q '^firmware: 33% sent (4096 of 12288 bytes)' &&
		tr '\r' '\n' < "$out/fw-tty.out" | grep -q '^firmware: 100% sent (12288 of 12288 bytes)' &&
		! grep -q 'sent (' "$out/nvme-cmd.out" "$out/nvme-cmd.err"; then
		ok "--fwdownload on a terminal: a status line of the share sent; none without one"
	else
		bad "--fwdownload on a terminal: a status line of the share sent; none without one" "$(tr '\r' '\n' < "$out/fw-tty.out" | head -n 6 | tr '\n' '|')"
	fi
	# Two controllers at once: both checked (the slot log read) before either is sent a piece.
	rm -f "$out/nvme-cmd.log"
	env SHIM_NVME="$top/tests/nvme/crafted-ctrl.hex,$top/tests/nvme/qemu-ns.hex" SHIM_SYSFS="$out/sysfs-none" SHIM_LOG="$out/nvme-cmd.log" \
		SHIM_LOG_DEVICE=1 "${preload[@]}" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$H" --yes-i-know-what-i-am-doing --please-destroy-my-drive --fwdownload "$out/fw-image.bin" /dev/null /dev/zero > "$out/nvme-cmd.out" 2>&1
	rc=$?
	first_piece=$(grep -n ' nvme-admin: 11 ' "$out/nvme-cmd.log" | head -n 1 | cut -d: -f1)
	checks=$(head -n "${first_piece:-0}" "$out/nvme-cmd.log" | grep -c ' nvme-admin: 02 ')
	if [ "$rc" = 0 ] && [ "${checks:-0}" -ge 2 ] && [ "$(grep -c '^Done\.$' "$out/nvme-cmd.out")" = 2 ] &&
		[ "$(grep -c '/dev/null nvme-admin: 10 ' "$out/nvme-cmd.log")" = 1 ] && [ "$(grep -c '/dev/zero nvme-admin: 10 ' "$out/nvme-cmd.log")" = 1 ]; then
		ok "--fwdownload of two controllers: both checked before the first piece, then each committed once"
	else
		bad "--fwdownload of two controllers: both checked before the first piece, then each committed once (exit $rc)" \
			"$(tr '\n' '|' < "$out/nvme-cmd.out")"
	fi
fi

# Protection information (DPS byte 29, DPC byte 28, FLBAS bit 4 of Identify Namespace): -I and its
# JSON against nvme-cli's decoding (id-ns -H) of the same page under the same double.
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle nvme nvme nvme-cli; then
	for dps in 00:00:00 09:1f:10 02:07:00 03:1c:00; do
		IFS=: read -r ps pc fl <<< "$dps"
		theirs=$(env SHIM_NVME="$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_DPS=$ps SHIM_NVME_DPC=$pc \
			SHIM_NVME_FLBAS=$fl "${preload[@]}" nvme id-ns -H -n 1 /dev/null 2> /dev/null |
			sed -n 's/^ *\[2:0\] : 0x\([0-9a-f]*\)\tProtection Information Type \([0-9]\) Enabled$/type \2/p
				s/^ *\[2:0\] : 0\tProtection Information Disabled$/none/p
				s/^ *\[3:3\] : 0x1\tProtection Information is Transferred as First 8 Bytes of Metadata$/first/p
				s/^ *\[[0-2]:[0-2]\] : 0x1\tProtection Information Type \([1-3]\) Supported$/can \1/p' | sort | tr '\n' ' ')
		run SHIM_NVME_DPS=$ps SHIM_NVME_DPC=$pc SHIM_NVME_FLBAS=$fl -- -I
		line=$(grep 'Protection information:' "$out/nvme-cmd.out")
		ours=$({ printf '%s\n' "$line" | grep -oE 'information: (type [1-3]|none)' | sed 's/information: //'
			printf '%s\n' "$line" | grep -q 'the first 8' && echo first
			printf '%s\n' "$line" | grep -oE 'take type [0-9, ]*' | grep -oE '[1-3]' | sed 's/^/can /'; } | sort | tr '\n' ' ')
		if [ "$rc" = 0 ] && [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
			ok "DPS $ps DPC $pc: -I says what nvme-cli says ($ours)"
		else
			bad "DPS $ps DPC $pc: -I says what nvme-cli says"
			echo "  ours:   $ours ($line)"
			echo "  theirs: $theirs"
		fi
	done
	run SHIM_NVME_DPS=09 SHIM_NVME_DPC=1f SHIM_NVME_FLBAS=10 -- --json -I
	if python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["devices"][0]["identify"]["protection_information"]
sys.exit(0 if p == {"type": 1, "first_in_metadata": True, "metadata_at_block_end": True, "types_supported": [1, 2, 3]} else 1)' "$out/nvme-cmd.out"; then
		ok "--json -I: protection_information (type 1, first, at the block end, types 1-3)"
	else
		bad "--json -I: protection_information"
	fi
fi
# --set-sector-size on a namespace: Format NVM (80h) to the LBA format of that size without metadata,
# no secure erase (SES 0), no protection information: CDW10 = the format's index (bits 3:0, 13:12).
# The bytes are what nvme-cli's "nvme format --lbaf=4" sends under the same double.
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle nvme nvme nvme-cli; then
	rm -f "$out/nvme-their.log"
	env SHIM_NVME="$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex" SHIM_LOG="$out/nvme-their.log" "${preload[@]}" \
		timeout 20 nvme format /dev/null --lbaf=4 --force -n 1 > /dev/null 2>&1
	theirs=$(grep '^nvme-admin: 80 ' "$out/nvme-their.log")
	run -- --set-sector-size 4096 --please-destroy-my-drive
	if [ "$rc" = 0 ] && [ -n "$theirs" ] && [ "$(grep '^nvme-admin: 80 ' "$out/nvme-cmd.log")" = "$theirs" ] &&
		grep -qxF ' block size: 512 -> 4096 bytes; blocks: 65536 -> 8192; protection information: none -> none' "$out/nvme-cmd.out"; then
		ok "--set-sector-size 4096: the Format NVM nvme-cli sends for --lbaf=4; 512 -> 4096 bytes, 65536 -> 8192 blocks"
	else
		bad "--set-sector-size 4096: nvme-cli's Format NVM, old -> new (exit $rc)"
		echo "  ours:   $(grep '^nvme-admin: 80 ' "$out/nvme-cmd.log")"
		echo "  theirs: $theirs"
		sed 's/^/  /' "$out/nvme-cmd.out" "$out/nvme-cmd.err" | head -20
	fi
fi
# With --protection-info 1: the format of 4096 bytes with 8 of metadata, PI type 1 (CDW10 bits 7:5),
# as nvme-cli's "nvme format --lbaf=5 --pi=1" sends it under the same double.
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle nvme nvme nvme-cli; then
	rm -f "$out/nvme-their.log"
	env SHIM_NVME="$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_DPC=1f SHIM_LOG="$out/nvme-their.log" \
		"${preload[@]}" timeout 20 nvme format /dev/null --lbaf=5 --pi=1 --force -n 1 > /dev/null 2>&1
	theirs=$(grep '^nvme-admin: 80 ' "$out/nvme-their.log")
	run SHIM_NVME_DPC=1f -- --set-sector-size 4096 --protection-info 1 --please-destroy-my-drive
	if [ "$rc" = 0 ] && [ -n "$theirs" ] && [ "$(grep '^nvme-admin: 80 ' "$out/nvme-cmd.log")" = "$theirs" ] &&
		grep -qxF ' block size: 512 -> 4096 bytes; blocks: 65536 -> 8192; protection information: none -> type 1' "$out/nvme-cmd.out"; then
		ok "--set-sector-size 4096 --protection-info 1: the Format NVM nvme-cli sends for --lbaf=5 --pi=1"
	else
		bad "--set-sector-size 4096 --protection-info 1: nvme-cli's Format NVM (exit $rc)"
		echo "  ours:   $(grep '^nvme-admin: 80 ' "$out/nvme-cmd.log")"
		echo "  theirs: $theirs"
	fi
fi
run -- --set-sector-size 4096 --protection-info 1 --please-destroy-my-drive
check "--set-sector-size --protection-info 1 on a namespace without protection information: refused, nothing sent" 22 "" "" \
	"this disk cannot be formatted with protection information"
run -- --set-sector-size 512 --lbaf 6 --please-destroy-my-drive
check "--set-sector-size 512 --lbaf 6 (a 4096-byte format): refused, nothing sent" 22 "" "" "LBA format 6 has 4096-byte blocks, not 512"
run -- --set-sector-size 4096 --lbaf 9 --please-destroy-my-drive
check "--lbaf 9 of 8 formats: refused, nothing sent" 22 "" "" "this namespace has no LBA format 9 (0 to 7)"
run -- --set-sector-size 4096
check "--set-sector-size without --please-destroy-my-drive: the formats and their performance shown, refused, nothing sent" 1 "" \
	" >  4:  4096 bytes data,   0 bytes metadata, relative performance 0 (best)" "Please also supply the --please-destroy-my-drive flag"
run -- --set-sector-size 1024 --please-destroy-my-drive
check "--set-sector-size 1024: no such format, nothing sent" 22 "" "formats on offer" "this disk has no format of 1024-byte blocks without metadata"
run -- --set-sector-size 512 --please-destroy-my-drive
check "--set-sector-size 512 on a 512-byte format: nothing sent" 0 "" "already formatted with 512-byte blocks: nothing sent" ""
run SHIM_NVME_KERNEL_STALE=1 -- --set-sector-size 4096 --please-destroy-my-drive
check "--set-sector-size: the kernel keeps the old block size: a failure, said" 5 "*" "" \
	"the kernel still has /dev/null's block size as 512 bytes, the disk 4096"
run -- --json --set-sector-size 4096 --please-destroy-my-drive
if python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))["devices"][0]["sector_format"]
sys.exit(0 if (f["before"]["block_bytes"], f["after"]["block_bytes"], f["before"]["blocks"], f["after"]["blocks"]) == (512, 4096, 65536, 8192) else 1)' "$out/nvme-cmd.out"; then
	ok "--json --set-sector-size: sector_format before and after"
else
	bad "--json --set-sector-size: sector_format before and after"
fi
echo "end of suite"
