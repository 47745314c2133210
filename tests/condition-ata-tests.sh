#!/bin/bash
# --condition on ATA drives and --self-test on every kind, on the double (tests/tools/sgio-shim.c).
# The drives of tests/condition/ata are built by the standard's layouts (make-ata-pages.py);
# smartctl reads the same pages through the double (-x, -l farm: 7.5 built by tests/setup; 7.3,
# installed, for all but FARM) and every figure of ours must be its: hours from SMART attribute 9
# (by the drive's format), Device Statistics and FARM, the attributes (id, value, worst, thresh,
# raw), the self-test log, the error log's count, SMART status, percentage used, sectors written.
# Then each drive's verdict and exit status (the table below), and the self-test commands'
# bytes: ATA SMART EXECUTE OFF-LINE IMMEDIATE (B0h D4h, LBA 7:0 01h/02h/7Fh, ACS-3 7.48.5), NVMe
# Device Self-test (14h, STC 1h/2h/Fh, NVMe Base 2.0 5.9), SCSI SEND DIAGNOSTIC (1Dh, SELF-TEST
# CODE 001b/010b/100b in byte 1 bits 7:5, SPC-4 6.42).
# Usage: condition-ata-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
suite="condition ata" double_name=condition-ata
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/tools/oracle.sh
. "$top/tests/tools/oracle.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0"
drives=$top/tests/condition/ata
smartctl75=${SMARTCTL75:-/var/cache/hdparm-tests/smartctl-7.5/smartctl}

# on DRIVE ENV... -- ARGS...: hdparm on the drive's pages (awake: CHECK POWER MODE says FFh); rc, $out/ca.{out,err,log}
on() {
	local d=$drives/$1
	shift
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	rm -f "$out/ca.log"
	env SHIM_IDENTIFY="$d/identify.hex" SHIM_LOGS="$d" SHIM_COUNT=0xff SHIM_LOG="$out/ca.log" "${env[@]}" \
		"${preload[@]}" "$asan" "$H" "$@" > "$out/ca.out" 2> "$out/ca.err"
	rc=$?
}

# ---- each drive's figures against smartctl's ----
compare() { # DRIVE SMARTCTL [LABEL]
	local d=$drives/$1 farm=()
	[ -f "$d/a6.hex" ] && farm=(-l farm)
	env SHIM_IDENTIFY="$d/identify.hex" SHIM_LOGS="$d" SHIM_COUNT=0xff LD_PRELOAD="$shim" \
		"$2" -d sat -x "${farm[@]}" --json /dev/null > "$out/ca-smartctl.json" 2> /dev/null
	on "$1" -- --condition --json /dev/null
	python3 - "$1${3:+ ($3)}" "$out/ca-smartctl.json" "$out/ca.out" <<'EOF'
import json, sys
name, theirs, ours = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
c = ours["devices"][0].get("condition", {})
bad = []
def same(what, a, b):
    if a != b:
        bad.append("%s: smartctl %r, ours %r" % (what, a, b))
srcs = {s["source"]: s["hours"] for s in c.get("hours_sources", [])}
same("power_on_time.hours", theirs.get("power_on_time", {}).get("hours"), c.get("power_on_time", {}).get("hours"))
same("smart_status.passed", theirs["smart_status"]["passed"], c.get("smart_status", {}).get("passed"))
keys = ("id", "value", "worst", "thresh")
same("attributes", [dict({k: a[k] for k in keys}, raw=a["raw"]["value"]) for a in theirs["ata_smart_attributes"]["table"]],
     [dict({k: a[k] for k in keys}, raw=a["raw"]["value"]) for a in c.get("ata_smart_attributes", {}).get("table", [])])
stats = {t["name"]: t["value"] for p in theirs.get("ata_device_statistics", {}).get("pages", []) for t in p["table"]}
if "Power-on Hours" in stats:
    same("Device Statistics hours", stats["Power-on Hours"], srcs.get("Device Statistics"))
if "Percentage Used Endurance Indicator" in stats:
    used = [f["value"] for f in c.get("findings", []) if f["what"] == "percentage used"]
    same("percentage used", "%d %%" % stats["Percentage Used Endurance Indicator"], used[0] if used else None)
farm = theirs.get("seagate_farm_log", {}).get("page_1_drive_information", {})
if "poh" in farm:
    same("FARM hours", farm["poh"], srcs.get("FARM"))
log = theirs.get("ata_smart_self_test_log", {})
log = log.get("extended", log.get("standard", {}))
kinds = ["off-line", "short", "extended", "conveyance", "selective"]   # offline or captive; else vendor (ours)
kind = lambda v: kinds[v & 0x7f] if v & 0x7f < len(kinds) else "vendor"
same("self-tests", [(kind(t["type"]["value"]), t["status"]["value"] >> 4, t["lifetime_hours"], t.get("lba"))
                    for t in log.get("table", [])[:8]],
     [(t["kind"], t["code"], t["lifetime_hours"], t.get("lba")) for t in c.get("self_tests", [])])
errs = theirs.get("ata_smart_error_log", {})
errs = errs.get("extended", errs.get("summary", {}))
same("error count", errs.get("count"), c.get("counts", {}).get("error_log_entries"))
if "Logical Sectors Written" in stats:
    same("data written (TB)", round(stats["Logical Sectors Written"] * 512 / 1e12, 2), c.get("data_written_tb"))
# smartctl's own object of the self-test log: the same log ("extended" or "standard"), and its newest entries
# (ours keeps 8) with smartctl's keys, words and values, whole.
theirs_log, ours_log = theirs.get("ata_smart_self_test_log", {}), c.get("ata_smart_self_test_log", {})
same("ata_smart_self_test_log's logs", sorted(theirs_log), sorted(ours_log))
for k in theirs_log:
    same("ata_smart_self_test_log.%s.table" % k, theirs_log[k].get("table", [])[:8], ours_log.get(k, {}).get("table"))
print("ok condition ata: smartctl agrees on %s" % name if not bad else
      "FAIL condition ata: smartctl disagrees on %s\n  %s" % (name, "\n  ".join(bad)))
EOF
}
if oracle "$suite" python3 && oracle "$suite" smartctl; then
	for d in "$drives"/*/; do
		d=$(basename "$d")
		if [ -f "$drives/$d/a6.hex" ]; then
			[ -x "$smartctl75" ] || { echo "skip $suite: $d: smartctl 7.5 ($smartctl75) is not built (tests/setup builds it): FARM not compared"; continue; }
			compare "$d" "$smartctl75"
		else
			compare "$d" "$(command -v smartctl)"
			# smartctl 7.5 too, where built: its self-test log's words are 7.3's.
			[ -x "$smartctl75" ] && compare "$d" "$smartctl75" "smartctl 7.5"
		fi
	done
fi

# An attribute table with id 5 twice (slots 0 and 3), each with its own threshold (36, 99) at its own slot of
# the thresholds page: each entry's own threshold, as smartctl gives it (the same slot first, ACS's layout).
if oracle "$suite" python3 && oracle "$suite" smartctl; then
	mkdir -p "$out/ca-dup"
	cp "$drives"/maxtor-minutes/* "$out/ca-dup/"
	python3 - "$out/ca-dup" <<'EOF'
import sys
d = sys.argv[1]
def load(n): return bytearray.fromhex(open(f"{d}/{n}.hex").read().replace("\n", " "))
def save(n, b):
    b[511] = (-sum(b[:511])) & 0xff                     # the page's checksum (ACS: bytes 0-511 sum to 0)
    open(f"{d}/{n}.hex", "w").write(" ".join("%02x" % x for x in b) + "\n")
smart, thr = load("smart"), load("thresholds")
smart[2 + 36:2 + 48] = smart[2:14]; smart[2 + 36 + 5] = 7  # slot 3: id 5 again, raw 7
thr[2 + 36] = 5; thr[2 + 36 + 1] = 99                     # its threshold at slot 3: 99
save("smart", smart); save("thresholds", thr)
EOF
	env SHIM_IDENTIFY="$out/ca-dup/identify.hex" SHIM_LOGS="$out/ca-dup" SHIM_COUNT=0xff LD_PRELOAD="$shim" smartctl -d sat -A --json /dev/null \
		> "$out/ca-smartctl.json" 2> /dev/null
	env SHIM_IDENTIFY="$out/ca-dup/identify.hex" SHIM_LOGS="$out/ca-dup" SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" \
		--condition --json /dev/null > "$out/ca.out" 2> "$out/ca.err"
	if python3 - "$out/ca-smartctl.json" "$out/ca.out" <<'EOF'; then
import json, sys
theirs = [(a["id"], a["thresh"]) for a in json.load(open(sys.argv[1]))["ata_smart_attributes"]["table"]]
ours = [(a["id"], a["thresh"]) for a in json.load(open(sys.argv[2]))["devices"][0]["condition"]["ata_smart_attributes"]["table"]]
assert theirs == ours and (5, 99) in ours, (theirs, ours)
EOF
		ok "an attribute id twice: each entry's own threshold, as smartctl's"
	else
		bad "an attribute id twice: each entry's own threshold, as smartctl's" "$(cat "$out/ca.err")"
	fi
fi

# ---- the verdict each drive gets, its rule and exit status (ops/any_disk/condition.c's) ----
while IFS='|' read -r d status verdict rule; do
	on "$d" -- --condition /dev/null
	if [ "$rc" = "$status" ] && grep -q "verdict:  $verdict ($rule" "$out/ca.out"; then
		ok "$d: $verdict, exit $status"
	else
		bad "$d: $verdict, exit $status" "exit $rc" "$(grep -a 'verdict' "$out/ca.out")"
	fi
done <<'EOF'
seagate-rewritten|202|history suspect|hours sources disagree
wd-failing|203|failing|sectors pending above 0
ssd-worn-packed|201|worn|percentage used is 80 or more
maxtor-minutes|0|good|no finding decided otherwise
EOF

# Attribute 9 in the drive's format: a Maxtor DiamondMax 10 counts minutes (600000: 10000 h), a Seagate
# BarraCuda hours with milliseconds above (14 h, not 193273528320014).
on maxtor-minutes -- --condition /dev/null
if grep -q 'power-on hours *10000  \[SMART attribute 9\]' "$out/ca.out"; then ok "attribute 9 in minutes"; else bad "attribute 9 in minutes" "$(cat "$out/ca.out")"; fi
on seagate-rewritten -- --condition /dev/null
if grep -q 'power-on hours *14  \[SMART attribute 9\]' "$out/ca.out" && grep -q 'SMART attribute 9 says 14 h, FARM says 21947 h' "$out/ca.out"; then
	ok "attribute 9 with milliseconds, FARM's hours against it"
else
	bad "attribute 9 with milliseconds, FARM's hours against it" "$(cat "$out/ca.out")"
fi
# A count of pending sectors above the disk's: a packed value, unreadable, out of the verdict.
on ssd-worn-packed -- --condition /dev/null
if grep -q 'unreadable .*raw value 1099511627776 is more sectors than the disk.s 488397168' "$out/ca.out" &&
	! grep -q 'failing' "$out/ca.out"; then
	ok "a packed attribute 197 is unreadable, not failing"
else
	bad "a packed attribute 197 is unreadable, not failing" "$(cat "$out/ca.out")"
fi

# FARM with a wrong signature: unreadable, no hours from it, no history finding.
mkdir -p "$out/ca-badfarm"
cp "$drives"/seagate-rewritten/* "$out/ca-badfarm/"
sed -i '1s/^52 45 4d 52 41 46/52 45 4d 52 41 47/' "$out/ca-badfarm/a6.hex"
env SHIM_IDENTIFY="$out/ca-badfarm/identify.hex" SHIM_LOGS="$out/ca-badfarm" SHIM_COUNT=0xff "${preload[@]}" "$asan" \
	"$H" --condition /dev/null > "$out/ca.out" 2>&1
rc=$?
if grep -q "unreadable .*signature is not FARM's.*\[FARM\]" "$out/ca.out" && ! grep -q 'FARM says' "$out/ca.out" && [ "$rc" = 0 ]; then
	ok "FARM with a wrong signature is unreadable"
else
	bad "FARM with a wrong signature is unreadable" "exit $rc" "$(cat "$out/ca.out")"
fi

# An extended self-test log whose index names entry 40 of a log of one page (19 entries): unreadable,
# nothing read past the page, no self-test said.
mkdir -p "$out/ca-index"
cp "$drives"/wd-failing/* "$out/ca-index/"
sed -i '1s/^01 00 03 00/01 00 28 00/' "$out/ca-index/07.hex"
env SHIM_IDENTIFY="$out/ca-index/identify.hex" SHIM_LOGS="$out/ca-index" SHIM_COUNT=0xff "${preload[@]}" "$asan" \
	"$H" --condition /dev/null > "$out/ca.out" 2>&1
if grep -q 'unreadable .*index names an entry past the log.*\[Extended SMART self-test log (07h)\]' "$out/ca.out" &&
	! grep -q '^ self-test ' "$out/ca.out"; then
	ok "a self-test log index past the log is unreadable"
else
	bad "a self-test log index past the log is unreadable" "$(cat "$out/ca.out")"
fi

# SMART RETURN STATUS with a threshold exceeded (LBA 23:8 2CF4h): failing, whatever else is good.
mkdir -p "$out/ca-status"
cp "$drives"/maxtor-minutes/* "$out/ca-status/"
touch "$out/ca-status/smart-failing"
env SHIM_IDENTIFY="$out/ca-status/identify.hex" SHIM_LOGS="$out/ca-status" SHIM_COUNT=0xff "${preload[@]}" "$asan" \
	"$H" --condition /dev/null > "$out/ca.out" 2>&1
rc=$?
if [ "$rc" = 203 ] && grep -q 'SMART status *FAILING  \[SMART RETURN STATUS\]' "$out/ca.out"; then
	ok "SMART RETURN STATUS 2CF4h: failing, exit 203"
else
	bad "SMART RETURN STATUS 2CF4h: failing, exit 203" "exit $rc" "$(cat "$out/ca.out")"
fi

# A disk that hangs: its first command times out, and nothing more is sent to it; said as a timeout
# (ETIMEDOUT, 110), not as a drive without SMART, and no verdict.
rm -f "$out/ca.log"
env SHIM_IDENTIFY="$drives/wd-failing/identify.hex" SHIM_REPLY=timeout SHIM_LOG="$out/ca.log" "${preload[@]}" "$asan" \
	"$H" --condition /dev/null > "$out/ca.out" 2> "$out/ca.err"
rc=$?
if [ "$rc" = 110 ] && [ "$(grep -c '^cdb:' "$out/ca.log")" = 1 ] && grep -q 'timed out' "$out/ca.err" &&
	! grep -q 'verdict' "$out/ca.out"; then
	ok "a hung disk: one timeout, then nothing more asked, exit 110"
else
	bad "a hung disk: one timeout, then nothing more asked, exit 110" "exit $rc" "$(cat "$out/ca.log" "$out/ca.err")"
fi

# Another option that fails on the same disk (-W1 refused: SET FEATURES aborted) keeps its error as the exit
# status (5); the verdict (failing, 203) is said but does not hide the failure.
on wd-failing SHIM_REPLY=abort@ef -- --condition -W1 /dev/null
if [ "$rc" = 5 ] && grep -q 'verdict:  failing' "$out/ca.out" && grep -q 'setcache.*failed' "$out/ca.err"; then
	ok "--condition -W1 with -W1 refused: exit 5, not the verdict's 203"
else
	bad "--condition -W1 with -W1 refused: exit 5, not the verdict's 203" "exit $rc" "$(cat "$out/ca.err")"
fi

# SMART enabled (IDENTIFY word 85 bit 0) but every SMART and log command aborted: said as refused, not as SMART off.
env SHIM_IDENTIFY="$drives/wd-failing/identify.hex" SHIM_REPLY=abort SHIM_COUNT=0xff "${preload[@]}" "$asan" \
	"$H" --condition /dev/null > "$out/ca.out" 2> "$out/ca.err"
rc=$?
if [ "$rc" = 95 ] && grep -q 'refused SMART READ DATA' "$out/ca.err" && ! grep -q 'SMART is not enabled' "$out/ca.err"; then
	ok "SMART enabled, every command refused: said refused (exit 95)"
else
	bad "SMART enabled, every command refused: said refused (exit 95)" "exit $rc" "$(cat "$out/ca.err")"
fi

# ---- --self-test: the command bytes on each kind ----
for t in short:01 extended:02 abort:7f; do
	on wd-failing -- --self-test "${t%:*}" /dev/null
	# ATA PASS-THROUGH (16): FEATURE D4h (byte 4), LBA 7:0 (byte 8) the subcommand, LBA 23:8 C24Fh, command B0h.
	if [ "$rc" = 0 ] && grep -q "^cdb: 85 .. .. 00 d4 00 00 00 ${t#*:} 00 4f 00 c2 .. b0 00$" "$out/ca.log"; then
		ok "ATA --self-test ${t%:*}: SMART EXECUTE OFF-LINE IMMEDIATE ${t#*:}h"
	else
		bad "ATA --self-test ${t%:*}: SMART EXECUTE OFF-LINE IMMEDIATE ${t#*:}h" "exit $rc" "$(grep -a 'b0 00$' "$out/ca.log")" "$(cat "$out/ca.err")"
	fi
done
# --self-test abort says what it did: none running (SMART READ DATA byte 363 00h), or the one running (F3h).
on wd-failing -- --json --self-test abort /dev/null
none=$rc
cp "$out/ca.out" "$out/ca-none.json"
mkdir -p "$out/ca-abort" && cp "$drives"/wd-failing/* "$out/ca-abort/" && echo f3 > "$out/ca-abort/selftest-status"
env SHIM_IDENTIFY="$out/ca-abort/identify.hex" SHIM_LOGS="$out/ca-abort" SHIM_COUNT=0xff "${preload[@]}" "$asan" \
	"$H" --self-test abort /dev/null > "$out/ca.out" 2> "$out/ca.err"
rc=$?
if [ "$none" = 0 ] && [ "$rc" = 0 ] && grep -q 'aborted the one running' "$out/ca.out" && python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["devices"][0]["self_test"]
sys.exit(not (t == {"sent": "abort", "was_running": False}))' "$out/ca-none.json"; then
	ok "--self-test abort: none running said so (was_running false); one running said aborted"
else
	bad "--self-test abort: none running said so (was_running false); one running said aborted" "exit $none, $rc" "$(cat "$out/ca-none.json" "$out/ca.out")"
fi
ctrl=$top/tests/nvme/qemu-ctrl.hex ns=$top/tests/nvme/qemu-ns.hex
for t in short:1 extended:2 abort:f; do
	rm -f "$out/ca.log"
	env SHIM_NVME="$ctrl,$ns" SHIM_LOG="$out/ca.log" "${preload[@]}" "$asan" "$H" --self-test "${t%:*}" /dev/null > "$out/ca.out" 2> "$out/ca.err"
	rc=$?
	if [ "$rc" = 0 ] && grep -qx "nvme-admin: 14 ff ff ff ff 0${t#*:} 00 00 00 00 00 00 00" "$out/ca.log"; then
		ok "NVMe --self-test ${t%:*}: Device Self-test STC ${t#*:}h"
	else
		bad "NVMe --self-test ${t%:*}: Device Self-test STC ${t#*:}h" "exit $rc" "$(cat "$out/ca.log" "$out/ca.err")"
	fi
done
for t in short:20 extended:40 abort:80; do
	rm -f "$out/ca.log"
	env SHIM_SCSI=1 SHIM_LOG="$out/ca.log" "${preload[@]}" "$asan" "$H" --self-test "${t%:*}" /dev/null > "$out/ca.out" 2> "$out/ca.err"
	rc=$?
	if [ "$rc" = 0 ] && grep -qx "cdb: 1d ${t#*:} 00 00 00 00" "$out/ca.log"; then
		ok "SCSI --self-test ${t%:*}: SEND DIAGNOSTIC code ${t#*:}h"
	else
		bad "SCSI --self-test ${t%:*}: SEND DIAGNOSTIC code ${t#*:}h" "exit $rc" "$(grep -a '^cdb: 1d' "$out/ca.log")" "$(cat "$out/ca.err")"
	fi
done
"$H" --self-test quick /dev/null > "$out/ca.out" 2> "$out/ca.err"
rc=$?
if [ "$rc" != 0 ] && [ "$(wc -l < "$out/ca.err")" = 1 ] && grep -q 'self-test' "$out/ca.err"; then
	ok "--self-test quick refused in one line"
else
	bad "--self-test quick refused in one line" "exit $rc" "$(cat "$out/ca.err")"
fi

# ---- --self-test-wait: polls while the drive says it runs (F7h, F3h: 30% then 70% done), then the log ----
mkdir -p "$out/ca-testing"
cp "$drives"/wd-failing/* "$out/ca-testing/"
echo "f7 f3 00" > "$out/ca-testing/selftest-status"
rm -f "$out/ca.log"
env SHIM_IDENTIFY="$out/ca-testing/identify.hex" SHIM_LOGS="$out/ca-testing" SHIM_COUNT=0xff SHIM_LOG="$out/ca.log" "${preload[@]}" \
	"$asan" "$H" --self-test extended --self-test-wait /dev/null > "$out/ca.out" 2> "$out/ca.err"
rc=$?
polls=$(grep -c '^cdb: 85 .. .. 00 d0 .* b0 00$' "$out/ca.log")
if [ "$rc" != 0 ] && grep -q 'self-test: extended test failed, at power-on hour 35050' "$out/ca.out" &&
	grep -q 'first failing LBA: 123456789' "$out/ca.out" && grep -q "self-test failed" "$out/ca.err" && [ "$polls" -ge 3 ]; then
	ok "--self-test-wait: polled $polls times, the failed test from the log, exit $rc"
else
	bad "--self-test-wait: the failed test from the log" "exit $rc, $polls polls" "$(cat "$out/ca.out" "$out/ca.err")"
fi
on maxtor-minutes -- --self-test-wait --json /dev/null
if [ "$rc" = 0 ] && python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["devices"][0]["self_test"]
sys.exit(not (t["kind"] == "extended" and t["result"] == "passed" and t["hour"] == 9999))' "$out/ca.out"; then
	ok "--self-test-wait --json: the passed test from the log"
else
	bad "--self-test-wait --json: the passed test from the log" "exit $rc" "$(cat "$out/ca.out" "$out/ca.err")"
fi

# An interrupt ends the wait, not the test: said, one JSON document, exit EINTR (4).
echo "f9" > "$out/ca-testing/selftest-status"
rm -f "$out/ca.log"
env --default-signal=INT,QUIT SHIM_IDENTIFY="$out/ca-testing/identify.hex" SHIM_LOGS="$out/ca-testing" SHIM_COUNT=0xff \
	SHIM_LOG="$out/ca.log" "${preload[@]}" "$asan" "$H" --json --self-test-wait /dev/null > "$out/ca.out" 2> "$out/ca.err" &
pid=$!
polled() { [ -f "$out/ca.log" ] && [ "$(grep -c '^cdb: 85 .. .. 00 d0 .* b0 00$' "$out/ca.log")" -ge 2 ]; }
until_true 20 polled && kill -INT "$pid"
wait_within 20 "$pid"
if [ "$rc" = 4 ] && grep -q 'interrupted: the self-test goes on in the drive' "$out/ca.err" && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
sys.exit(not d["self_test_wait"]["interrupted"])' "$out/ca.out"; then
	ok "--self-test-wait interrupted: the test goes on, said, exit 4"
else
	bad "--self-test-wait interrupted: the test goes on, said, exit 4" "exit $rc" "$(cat "$out/ca.out" "$out/ca.err")"
fi

# NVMe and SCSI: a test in progress is waited for (NVMe's log 06h byte 0: a short test, byte 1: 40%;
# SCSI's log page 10h, its newest result Fh), until interrupted; one that ended is read from the log.
mkdir -p "$out/ca-other"
printf '01 28 00 00\n' > "$out/ca-other/nvme-06.hex"
printf '10 00 00 14\n00 01 03 10 2f 00 01 f4 00 00 00 00 00 00 00 00 00 00 00 00\n' > "$out/ca-other/scsi-10.hex"
for kind in "NVMe|SHIM_NVME=$ctrl,$ns|^nvme-admin: 02 " "SCSI|SHIM_SCSI=1|^cdb: 4d "; do
	IFS='|' read -r name env pattern <<< "$kind"
	rm -f "$out/ca.log"
	env --default-signal=INT,QUIT "$env" SHIM_LOGS="$out/ca-other" SHIM_LOG="$out/ca.log" "${preload[@]}" "$asan" \
		"$H" --self-test-wait /dev/null > "$out/ca.out" 2> "$out/ca.err" &
	pid=$!
	asked() { [ -f "$out/ca.log" ] && [ "$(grep -c "$pattern" "$out/ca.log")" -ge 2 ]; }
	until_true 20 asked && kill -INT "$pid"
	wait_within 20 "$pid"
	if [ "$rc" = 4 ] && grep -q 'interrupted: the self-test goes on' "$out/ca.err"; then
		ok "$name --self-test-wait: a test in progress waited for"
	else
		bad "$name --self-test-wait: a test in progress waited for" "exit $rc" "$(cat "$out/ca.out" "$out/ca.err")"
	fi
done
# SCSI: the newest result 7h (a segment failed) of a short test (code 001b), hour 500, LBA 1234567.
printf '10 00 00 14\n00 01 03 10 27 00 01 f4 00 00 00 00 00 12 d6 87 03 11 00 00\n' > "$out/ca-other/scsi-10.hex"
env SHIM_SCSI=1 SHIM_LOGS="$out/ca-other" "${preload[@]}" "$asan" "$H" --self-test-wait /dev/null > "$out/ca.out" 2> "$out/ca.err"
rc=$?
if [ "$rc" = 5 ] && grep -q 'self-test: short test failed, at power-on hour 500' "$out/ca.out" &&
	grep -q 'first failing LBA: 1234567' "$out/ca.out"; then
	ok "SCSI --self-test-wait: the failed test from log page 10h"
else
	bad "SCSI --self-test-wait: the failed test from log page 10h" "exit $rc" "$(cat "$out/ca.out" "$out/ca.err")"
fi

# ---- many disks test together: each sent its command, one run ----
rm -f "$out/ca.log"
env SHIM_IDENTIFY="$drives/wd-failing/identify.hex" SHIM_LOGS="$drives/wd-failing" SHIM_COUNT=0xff SHIM_BLOCK_DEV=8:900000 \
	SHIM_LOG="$out/ca.log" SHIM_LOG_DEVICE=1 "${preload[@]}" "$asan" "$H" --self-test short /dev/null /dev/zero /dev/full \
	> "$out/ca.out" 2> "$out/ca.err"
rc=$?
sent=$(grep -a ' cdb: 85 .. .. 00 d4 00 00 00 01 ' "$out/ca.log" | awk '{ print $1 }' | sort | tr '\n' ' ')
if [ "$rc" = 0 ] && [ "$sent" = "/dev/full /dev/null /dev/zero " ] && [ "$(grep -c 'short test started' "$out/ca.out")" = 3 ]; then
	ok "three disks test together"
else
	bad "three disks test together" "exit $rc, sent to: $sent" "$(cat "$out/ca.out" "$out/ca.err")"
fi
# One of many disks cannot test (/dev/zero: SMART off, IDENTIFY word 85 bit 0 clear, its integrity word made
# good): refused before the gate, and no disk is sent SMART EXECUTE OFF-LINE IMMEDIATE.
mkdir -p "$out/ca-refuse/zero"
cp "$drives"/wd-failing/* "$out/ca-refuse/"
python3 - "$out/ca-refuse" <<'EOF'
import re, sys
d = sys.argv[1]
w = [int(x, 16) for x in re.findall(r"[0-9a-fA-F]{4}", open(f"{d}/identify.hex").read())]
w[85] &= ~1
if w[255] & 0xff == 0xa5:                               # ACS integrity word: bytes 0-511 sum to 0
    w[255] = 0xa5 | ((-(sum(x & 0xff for x in w[:255]) + sum(x >> 8 for x in w[:255]) + 0xa5)) & 0xff) << 8
open(f"{d}/zero/identify.hex", "w").write(" ".join("%04x" % x for x in w) + "\n")
EOF
rm -f "$out/ca.log"
env SHIM_IDENTIFY="$out/ca-refuse/identify.hex" SHIM_LOGS="$out/ca-refuse" SHIM_COUNT=0xff SHIM_BLOCK_DEV=8:900000 \
	SHIM_LOG="$out/ca.log" SHIM_LOG_DEVICE=1 "${preload[@]}" "$asan" "$H" --self-test short /dev/null /dev/zero \
	> "$out/ca.out" 2> "$out/ca.err"
rc=$?
if [ "$rc" = 95 ] && ! grep -q ' cdb: 85 .. .. 00 d4 ' "$out/ca.log" && grep -q 'SMART is not enabled' "$out/ca.err"; then
	ok "one of many disks with SMART off: refused before any test starts"
else
	bad "one of many disks with SMART off: refused before any test starts" "exit $rc" "$(grep -a ' d4 ' "$out/ca.log")" "$(cat "$out/ca.err")"
fi
echo "end of suite"
