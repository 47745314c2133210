#!/bin/bash
# --condition (ops/any_disk/condition.c) on the NVMe and SCSI kinds, against the SG_IO double
# (tests/tools/sgio-shim.c) whose logs are files (SHIM_LOGS): each verdict and its exit status
# (hdparm.8's EXIT STATUS: 0 good, 201 worn, 202 history suspect, 203 failing), the JSON keys
# (smartctl's where it has one), a sleeping disk, bad pages, and many disks read together.
# The logs are built here from the field offsets of NVM Express Base 2.0 (SMART / Health
# Information, Figure 207; Device Self-test, Figures 215-216) and SPC-4 (log pages 02h, 03h,
# 10h, 11h, 15h, 2Fh; READ DEFECT DATA's header, SBC-3), not from hdparm's decoders; nvme-cli
# (smart-log, self-test-log), smartctl (-x --json) and sg3_utils (sg_logs, sg_reassign -g) read
# the same double as oracles.
# Usage: condition-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines, then "end of suite".
set -u
H=$1
out=$2/condition
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" "$out/sysfs-none/sys"
suite="condition" double_name=condition
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/tools/oracle.sh
. "$top/tests/tools/oracle.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
nvme_env=(SHIM_NVME="$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex" SHIM_SYSFS="$out/sysfs-none")
smartctl75=${SMARTCTL75:-/var/cache/hdparm-tests/smartctl-7.5/smartctl}
scsi_env=(SHIM_SCSI=1 SHIM_SYSFS="$out/sysfs-none")

# logs DIR KEY=VALUE...: the log files of one disk into DIR (make_logs below reads the values).
logs() {
	local dir=$out/$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	python3 - "$dir" "$@" << 'PY' || echo "FAIL condition: the logs of $dir could not be written"
import struct, sys
d, args = sys.argv[1], dict(a.split("=", 1) for a in sys.argv[2:])
def num(k, dflt): return int(args.get(k, dflt))
def w(name, b): open(f"{d}/{name}.hex", "w").write(" ".join("%02x" % x for x in b) + "\n")
if args.get("kind", "nvme") == "nvme":
    b = bytearray(512)                                  # NVMe SMART / Health Information (02h)
    b[0] = num("cw", 0); b[3] = num("spare", 100); b[4] = num("thresh", 10); b[5] = num("used", 3)
    b[48:64] = num("duw", 12345678).to_bytes(16, "little")     # Data Units Written
    b[128:144] = num("poh", 4660).to_bytes(16, "little")       # Power On Hours
    b[160:176] = num("media", 0).to_bytes(16, "little")        # Media and Data Integrity Errors
    b[176:192] = num("errlog", 2).to_bytes(16, "little")       # Number of Error Information Log Entries
    w("nvme-02", b)
    t = bytearray(564)                                  # Device Self-test log (06h): 4 + 20 x 28
    for i in range(20): t[4 + 28 * i] = 0x0f            # result Fh: entry not used
    for i, e in enumerate(filter(None, args.get("tests", "").split(","))):
        op, res, poh, *lba = e.split(":")
        o = 4 + 28 * i
        t[o] = int(op, 16) << 4 | int(res, 16); t[o + 4:o + 12] = int(poh).to_bytes(8, "little")
        if lba: t[o + 2] = 2; t[o + 16:o + 24] = int(lba[0]).to_bytes(8, "little")
        if len(lba) > 1: t[o + 1] = int(lba[1])         # Segment Number (byte 1)
    w("nvme-06", t)
else:
    def page(code, params):
        body = b"".join(struct.pack(">HBB", pc, 3, len(v)) + v for pc, v in params)
        return bytes([code, 0]) + struct.pack(">H", len(body)) + body
    w("scsi-02", page(0x02, [(6, num("wunc", 3).to_bytes(4, "big"))]))
    w("scsi-03", page(0x03, [(6, num("runc", 5).to_bytes(4, "big"))]))
    w("scsi-11", page(0x11, [(1, bytes([0, 0, 0, num("used", 42)]))]))
    w("scsi-15", page(0x15, [(0, (num("minutes", 60030)).to_bytes(4, "big") + bytes(8))]))
    w("scsi-2f", page(0x2f, [(0, bytes([num("asc", 0), 0, 38, 0]))]))
    st = []
    for i, e in enumerate(filter(None, args.get("tests", "").split(","))):
        code, res, hours, lba = (int(x) for x in e.split(":"))
        st.append((i + 1, bytes([code << 5 | res, i + 1]) + hours.to_bytes(2, "big") + lba.to_bytes(8, "big") + bytes(4)))
    st += [(i, bytes(16)) for i in range(len(st) + 1, 21)]
    w("scsi-10", page(0x10, st))
    w("scsi-defects", bytes([0, 0x0c]) + (8 * num("grown", 2)).to_bytes(2, "big"))   # bytes from index: 8 a defect
    # The supported pages (00h), and with subpages (00h/FFh: SPF set, page and subpage pairs), as smartctl asks them.
    pages = [0x00, 0x02, 0x03, 0x10, 0x11, 0x15, 0x2f] + ([0x3d] if "farm" in args else [])
    w("scsi-00", bytes([0, 0, 0, len(pages)] + pages))
    pairs = [x for p in pages for x in (p, 0)] + ([0x3d, 0x03] if "farm" in args else [])
    w("scsi-00-ff", bytes([0x40, 0xff, 0, len(pairs)] + pairs))
    if "farm" in args:                                  # Seagate FARM (3Dh/03h), smartmontools' farmcmds.h layout
        def fields(vals): return b"".join((0xC0 << 56 | v).to_bytes(8, "big") for v in vals)
        sig = 0x00004641524D4552 if args.get("farmsig", "good") == "good" else 0x00004641524D4500
        header = fields([sig, 4, 0, 8, 16000, 0, 8, 0, 0])          # signature, revisions, parameters, size, ...
        drive = fields([1, 0] + [0] * 17 + [num("farm", 0)] + [0] * 11)   # page 1, copy 0, ..., field 19: power-on hours
        work = fields([2, 0] + [0] * 16)                                # Workload Statistics, page 2: as a drive sends it after page 1
        body = (struct.pack(">HBB", 0, 0x03, len(header)) + header + struct.pack(">HBB", 1, 0x03, len(drive)) + drive +
                struct.pack(">HBB", 2, 0x03, len(work)) + work)
        w("scsi-3d-03", bytes([0x7d, 0x03]) + struct.pack(">H", len(body)) + body)
PY
}

# cond NAME DIR ENV... -- ARGS...: hdparm on the double with DIR's logs; rc, $out/NAME.out and .err.
cond() {
	local name=$1 dir=$2 envs=()
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" SHIM_LOGS="$out/$dir" "${preload[@]}" "$asan" "$H" "$@" > "$out/$name.out" 2> "$out/$name.err"
	rc=$?
}
verdict() { sed -n 's/^ verdict:  //p' "$out/$1.out"; }

# --- each verdict, and its exit status ---
logs good poh=4660 used=3 tests=1:0:4650
cond good good "${nvme_env[@]}" -- --condition /dev/null
if [ "$rc" = 0 ] && [ "$(verdict good)" = "good (no finding decided otherwise)" ] &&
	grep -q '^ power-on hours  *4660  \[NVMe SMART / Health log (02h)\]$' "$out/good.out"; then
	ok "NVMe: good, exit 0, the hours with their source"
else
	bad "NVMe: good, exit 0, the hours with their source (exit $rc)" "$(cat "$out/good.out" "$out/good.err")"
fi
for c in "worn|used=85|201|worn (percentage used is 80 or more)" \
	"spare|spare=20 thresh=10|201|worn (available spare within 10 points of its threshold)" \
	"critical|cw=4|203|failing (a critical warning is set)" \
	"selftest|tests=1:0:4650,2:7:4000:1234|203|failing (a self-test failed)" \
	"suspect|duw=400000000 poh=50|202|history suspect (more than 100 TB written in fewer than 100 power-on hours)" \
	"several|used=90 cw=1|203|failing, also worn (a critical warning is set)" \
	"used80|used=80|201|worn (percentage used is 80 or more)" \
	"used79|used=79|0|good (no finding decided otherwise)" \
	"spare11|spare=21 thresh=10|0|good (no finding decided otherwise)" \
	"tb100|duw=195312500 poh=50|0|good (no finding decided otherwise)" \
	"tb100plus|duw=195312501 poh=50|202|history suspect (more than 100 TB written in fewer than 100 power-on hours)" \
	"h100|duw=400000000 poh=100|0|good (no finding decided otherwise)"; do
	IFS='|' read -r name setting want_rc want <<< "$c"
	# shellcheck disable=SC2086
	logs "$name" $setting
	cond "$name" "$name" "${nvme_env[@]}" -- --condition /dev/null
	if [ "$rc" = "$want_rc" ] && [ "$(verdict "$name")" = "$want" ]; then
		ok "NVMe: $setting: $want, exit $want_rc"
	else
		bad "NVMe: $setting: $want, exit $want_rc (exit $rc)" "$(cat "$out/$name.out" "$out/$name.err")"
	fi
done
# 85 % used and 100 TB in 50 hours: worn and history suspect, the latter leads; JSON lists both, worst first.
logs two used=85 duw=400000000 poh=50
cond two-json two "${nvme_env[@]}" -- --json --condition /dev/null
if [ "$rc" = 202 ] && python3 - "$out/two-json.out" << 'PY'; then
import json, sys
c = json.load(open(sys.argv[1]))["devices"][0]["condition"]
assert c["verdict"] == ["history suspect", "worn"], c["verdict"]
rules = [f["rule"] for f in c["findings"] if f["rule"]]
assert rules == ["percentage used is 80 or more", "more than 100 TB written in fewer than 100 power-on hours"], rules
assert all(set(f) == {"source", "what", "value", "rule"} for f in c["findings"])
PY
	ok "JSON: two verdicts, the worst first, each finding with its source, what, value and rule"
else
	bad "JSON: two verdicts, the worst first, each finding with its source, what, value and rule (exit $rc)"
fi

# Data Units Written beyond 64 bits is no count: unreadable, and no "100 TB in fewer than 100 hours" from it.
logs huge duw=18446744073709551621 poh=50   # 2^64 + 5
cond huge huge "${nvme_env[@]}" -- --condition /dev/null
if [ "$rc" = 0 ] && grep -q '^ unreadable  .*data units written beyond 64 bits' "$out/huge.out"; then
	ok "NVMe: data units written beyond 64 bits: unreadable, left out of the verdict (good)"
else
	bad "NVMe: data units written beyond 64 bits: unreadable, left out of the verdict (exit $rc)" "$(cat "$out/huge.out")"
fi

# --- JSON against smartctl and nvme-cli reading the same double ---
# (A test of failed segments, segment 3 and its LBA; one aborted by a controller reset whose LBA is valid.)
logs oracle cw=0 spare=97 thresh=5 used=12 duw=987654 poh=31337 media=7 errlog=19 \
	tests=1:0:31330,2:5:31000,1:1:30999,2:7:30500:4242:3,1:2:30400:77
cond oracle-json oracle "${nvme_env[@]}" -- --json --condition /dev/null
if oracle condition smartctl smartmontools; then
	env "${nvme_env[@]}" SHIM_LOGS="$out/oracle" LD_PRELOAD="$shim" smartctl -x --json -d nvme /dev/null > "$out/smartctl.json" 2> /dev/null
	if python3 - "$out/oracle-json.out" "$out/smartctl.json" << 'PY'; then
import json, sys
ours = json.load(open(sys.argv[1]))["devices"][0]["condition"]
theirs = json.load(open(sys.argv[2]))
keys = ["critical_warning", "available_spare", "available_spare_threshold", "percentage_used", "data_units_written",
        "power_on_hours", "media_errors", "num_err_log_entries"]
o, t = ours["nvme_smart_health_information_log"], theirs["nvme_smart_health_information_log"]
assert {k: o[k] for k in keys} == {k: t[k] for k in keys}, (o, t)
assert ours["power_on_time"]["hours"] == theirs["power_on_time"]["hours"] == 31337
assert ours["smart_status"]["passed"] == theirs["smart_status"]["passed"] is True
assert ours["hours_sources"] == [{"source": "NVMe SMART / Health log (02h)", "hours": 31337}]
PY
		ok "JSON: nvme_smart_health_information_log, power_on_time and smart_status as smartctl -x --json reads them"
	else
		bad "JSON: nvme_smart_health_information_log, power_on_time and smart_status as smartctl -x --json reads them" \
			"$(head -c 600 "$out/oracle-json.out")"
	fi
fi
if oracle condition nvme nvme-cli; then
	env "${nvme_env[@]}" SHIM_LOGS="$out/oracle" LD_PRELOAD="$shim" nvme self-test-log -o json /dev/null > "$out/nvme-st.json" 2> /dev/null
	env "${nvme_env[@]}" SHIM_LOGS="$out/oracle" LD_PRELOAD="$shim" nvme smart-log -o json /dev/null > "$out/nvme-smart.json" 2> /dev/null
	if python3 - "$out/oracle-json.out" "$out/nvme-st.json" "$out/nvme-smart.json" << 'PY'; then
import json, sys
ours = json.load(open(sys.argv[1]))["devices"][0]["condition"]
st = [r for r in json.load(open(sys.argv[2]))["List of Valid Reports"] if r["Self test result"] != 15]
assert [(t["code"], t["lifetime_hours"], t.get("lba")) for t in ours["self_tests"]] == \
       [(r["Self test result"], r["Power on hours"], r.get("Failing LBA")) for r in st], (ours["self_tests"], st)
assert [t["kind"] for t in ours["self_tests"]] == ["short" if r["Self test code"] == 1 else "extended" for r in st]
sm = json.load(open(sys.argv[3]))
assert ours["counts"] == {"error_log_entries": int(sm["num_err_log_entries"]), "media_errors": int(sm["media_errors"])}
assert ours["verdict"] == ["failing"]   # result 5h: not completed, a fatal error
PY
		ok "JSON: self_tests and counts as nvme-cli self-test-log and smart-log read them"
	else
		bad "JSON: self_tests and counts as nvme-cli self-test-log and smart-log read them" "$(head -20 "$out/nvme-st.json")"
	fi
fi

# smartctl's own nvme_self_test_log (7.4 and later; it reads the log where OACS bit 4 says Device Self-test,
# which QEMU's page lacks): the same entries with smartctl's keys, words and values, whole.
if [ -x "$smartctl75" ]; then
	env "${nvme_env[@]}" SHIM_NVME_OACS=11a SHIM_LOGS="$out/oracle" LD_PRELOAD="$shim" "$smartctl75" -x --json -d nvme /dev/null \
		> "$out/smartctl75.json" 2> /dev/null
	if python3 - "$out/oracle-json.out" "$out/smartctl75.json" << 'PY'; then
import json, sys
ours = json.load(open(sys.argv[1]))["devices"][0]["condition"]["nvme_self_test_log"]
theirs = json.load(open(sys.argv[2]))["nvme_self_test_log"]
assert ours["table"] == theirs["table"] and len(ours["table"]) == 5, (ours, theirs)
PY
		ok "JSON: nvme_self_test_log's table as smartctl 7.5 -x --json reads it"
	else
		bad "JSON: nvme_self_test_log's table as smartctl 7.5 -x --json reads it" "$(head -c 600 "$out/smartctl75.json")"
	fi
else
	echo "skip condition: smartctl 7.5 ($smartctl75) is not built (tests/setup builds it): nvme_self_test_log not compared"
fi

# --- SCSI: the log pages, against sg_logs and sg_reassign ---
logs sas kind=scsi wunc=3 runc=5 used=42 minutes=60030 grown=2 tests=1:0:900:0,1:7:800:777
cond sas sas "${scsi_env[@]}" -- --condition /dev/null
if [ "$rc" = 203 ] && [ "$(verdict sas)" = "failing (a self-test failed)" ] &&
	grep -q '^ power-on hours  *1000  \[SCSI Background Scan Results log page (15h)\]$' "$out/sas.out" &&
	grep -q '^ grown defects  *2  ' "$out/sas.out" && grep -q 'at hour 800, first failing LBA 777  ' "$out/sas.out"; then
	ok "SCSI: hours, defects and a failed self-test (failing, exit 203)"
else
	bad "SCSI: hours, defects and a failed self-test (failing, exit 203) (exit $rc)" "$(cat "$out/sas.out" "$out/sas.err")"
fi
if oracle condition sg_logs sg3-utils; then
	sgl() { env "${scsi_env[@]}" SHIM_LOGS="$out/sas" LD_PRELOAD="$shim" sg_logs -p "$1" /dev/null 2> /dev/null; }
	theirs="$(sgl 0x2 | sed -n 's/^ *Total uncorrected errors = //p') $(sgl 0x3 | sed -n 's/^ *Total uncorrected errors = //p')"
	theirs+=" $(sgl 0x11 | sed -n 's/^ *Percentage used endurance indicator: \([0-9]*\) %/\1/p')"
	theirs+=" $(sgl 0x15 | sed -n 's/^ *Accumulated power on minutes: .*h:m  *\([0-9]*\):.*/\1/p')"
	theirs+=" $(sgl 0x10 | sed -n 's/^ *Parameter code = [0-9]*, accumulated power-on hours = //p' | tr '\n' ' ')"
	theirs+="$(env "${scsi_env[@]}" SHIM_LOGS="$out/sas" LD_PRELOAD="$shim" sg_reassign -g /dev/null 2> /dev/null |
		sed -n 's/^>> Elements in grown defect list: //p')"
	ours="$(sed -n 's/^ write errors uncorrected *\([0-9]*\) .*/\1/p' "$out/sas.out") $(sed -n 's/^ read errors uncorrected *\([0-9]*\) .*/\1/p' "$out/sas.out")"
	ours+=" $(sed -n 's/^ percentage used *\([0-9]*\) .*/\1/p' "$out/sas.out") $(sed -n 's/^ power-on hours *\([0-9]*\) .*/\1/p' "$out/sas.out")"
	ours+=" $(sed -n 's/^ self-test .*at hour \([0-9]*\).*/\1/p' "$out/sas.out" | tr '\n' ' ')"
	ours+="$(sed -n 's/^ grown defects *\([0-9]*\) .*/\1/p' "$out/sas.out")"
	if [ "$ours" = "$theirs" ] && [ "$ours" = "3 5 42 1000 900 800 2" ]; then
		ok "SCSI: the counts, percentage used, hours, self-test hours and grown defects as sg_logs and sg_reassign -g read them"
	else
		bad "SCSI: as sg_logs and sg_reassign -g read them" "ours:   $ours" "theirs: $theirs"
	fi
fi
# smartctl -x --json reads the same pages (its IEC mode page check passed over: -T permissive): its SCSI keys.
if oracle condition smartctl smartmontools; then
	cond sas-json sas "${scsi_env[@]}" -- --json --condition /dev/null
	env "${scsi_env[@]}" SHIM_LOGS="$out/sas" LD_PRELOAD="$shim" smartctl -x --json -d scsi -T permissive /dev/null > "$out/sas-smartctl.json" 2> /dev/null
	if python3 - "$out/sas-json.out" "$out/sas-smartctl.json" << 'PY'; then
import json, sys
ours = json.load(open(sys.argv[1]))["devices"][0]["condition"]
theirs = json.load(open(sys.argv[2]))
assert ours["scsi_percentage_used_endurance_indicator"] == theirs["scsi_percentage_used_endurance_indicator"] == 42
assert ours["scsi_error_counter_log"] == {k: {"total_uncorrected_errors": v["total_uncorrected_errors"]}
                                          for k, v in theirs["scsi_error_counter_log"].items()}
assert ours["power_on_time"]["hours"] == theirs["power_on_time"]["hours"] == 1000
st = [theirs[k] for k in sorted(k for k in theirs if k.startswith("scsi_self_test_"))]
assert [(t["code"], t["lifetime_hours"], t.get("lba")) for t in ours["self_tests"]] == \
       [(s["result"]["value"], s["power_on_time"]["hours"], s.get("lba_first_failure", {}).get("value")) for s in st]
PY
		ok "SCSI JSON: percentage used, error counter log, power-on hours and self-tests as smartctl -x --json reads them"
	else
		bad "SCSI JSON: as smartctl -x --json reads them" "$(head -c 600 "$out/sas-json.out")"
	fi
fi
# The Informational Exceptions page's ASC 5Dh (failure prediction threshold exceeded): failing.
logs predicted kind=scsi asc=93
cond predicted predicted "${scsi_env[@]}" -- --json --condition /dev/null
if [ "$rc" = 203 ] && python3 - "$out/predicted.out" << 'PY'; then
import json, sys
c = json.load(open(sys.argv[1]))["devices"][0]["condition"]
assert c["smart_status"] == {"passed": False} and c["scsi_grown_defect_list"] == 2 and c["verdict"] == ["failing"]
PY
	ok "SCSI: a failure predicted (2Fh ASC 5Dh) is SMART status failing; scsi_grown_defect_list in the JSON"
else
	bad "SCSI: a failure predicted (2Fh ASC 5Dh) is SMART status failing (exit $rc)" "$(head -c 400 "$out/predicted.out")"
fi

# An ASC other than 0Bh (warning) and 5Dh (failure predicted), here 3Eh: no exception the page names
# (SPC-4's Informational Exceptions; smartmontools 7.5's scsiGetIEString, which sets smart_status.passed
# false for those two alone): not failing.
logs ie_other kind=scsi asc=62
cond ie_other ie_other "${scsi_env[@]}" -- --json --condition /dev/null
if [ "$rc" != 203 ] && python3 - "$out/ie_other.out" << 'PY'; then
import json, sys
c = json.load(open(sys.argv[1]))["devices"][0]["condition"]
assert c["smart_status"] == {"passed": True} and "failing" not in c["verdict"]
PY
	ok "SCSI: 2Fh ASC 3Eh (neither 0Bh nor 5Dh) is not SMART status failing, as smartmontools decides"
else
	bad "SCSI: 2Fh ASC 3Eh is not SMART status failing (exit $rc)" "$(head -c 400 "$out/ie_other.out")"
fi

# Seagate's FARM keeps 21947 h where the Background Scan Results page was reset to 14 h: history suspect.
logs farm kind=scsi minutes=840 farm=21947
cond farm farm "${scsi_env[@]}" -- --condition /dev/null
if [ "$rc" = 202 ] && grep -q '^ power-on hours  *21947  \[Seagate FARM log page (3Dh/03h)\]$' "$out/farm.out" &&
	grep -q '^ history rewritten?  *SCSI Background Scan Results log page (15h) says 14 h, Seagate FARM log page (3Dh/03h) says 21947 h  ' "$out/farm.out" &&
	[ "$(verdict farm)" = "history suspect (hours sources disagree by more than a day and more than 1 %)" ]; then
	ok "SCSI FARM: 21947 h beside 14 h: history rewritten?, history suspect, exit 202"
else
	bad "SCSI FARM: 21947 h beside 14 h: history rewritten?, history suspect, exit 202 (exit $rc)" "$(cat "$out/farm.out")"
fi
if [ -x "$smartctl75" ]; then
	theirs=$(env "${scsi_env[@]}" SHIM_LOGS="$out/farm" LD_PRELOAD="$shim" "$smartctl75" -d scsi -T permissive -l farm /dev/null 2> /dev/null |
		sed -n 's/^[[:space:]]*Power on Hours*: //p' | head -1)
	if [ "$theirs" = 21947 ]; then ok "SCSI FARM: smartctl 7.5 -l farm reads the same 21947 h"
	else bad "SCSI FARM: smartctl 7.5 -l farm reads the same 21947 h" "smartctl: '$theirs'"; fi
else
	echo "skip condition: smartctl 7.5 ($smartctl75) is not built (tests/setup builds it): SCSI FARM not compared"
fi
# 30 h against 31 h (a day apart at most) and 5000 h against 5040 h (under 1 %): no finding.
# The edges: exactly a day apart (100 h, 124 h), exactly 1 % of the larger (4950 h, 5000 h).
for c in "close-day|minutes=1800 farm=31" "close-pct|minutes=300000 farm=5040" "day-edge|minutes=6000 farm=124" \
	"pct-edge|minutes=297000 farm=5000"; do
	IFS='|' read -r name setting <<< "$c"
	# shellcheck disable=SC2086
	logs "$name" kind=scsi $setting
	cond "$name" "$name" "${scsi_env[@]}" -- --condition /dev/null
	if [ "$rc" = 0 ] && ! grep -q 'history rewritten' "$out/$name.out"; then
		ok "SCSI FARM: $setting: hours within a day or within 1 % agree (good)"
	else
		bad "SCSI FARM: $setting: hours within a day or within 1 % agree (exit $rc)" "$(cat "$out/$name.out")"
	fi
done
# Power-on hours no disk can have (more than 16777215, 1900 years: smartctl's bogus limit): unreadable, out of
# the verdict, whichever source says them: SCSI FARM's 16777216 beside 14 h, NVMe's 2^32.
for c in "farm-huge|kind=scsi minutes=840 farm=16777216|scsi_env" "poh-huge|poh=4294967296|nvme_env"; do
	IFS='|' read -r name setting envs <<< "$c"
	# shellcheck disable=SC2086
	logs "$name" $setting
	envs="$envs[@]"
	cond "$name" "$name" "${!envs}" -- --condition /dev/null
	if [ "$rc" = 0 ] && grep -q '^ unreadable  .*more than 16777215' "$out/$name.out" && ! grep -q 'history rewritten' "$out/$name.out"; then
		ok "impossible power-on hours ($setting): unreadable, out of the verdict (good)"
	else
		bad "impossible power-on hours ($setting): unreadable, out of the verdict (exit $rc)" "$(cat "$out/$name.out")"
	fi
done
# NVMe's 128-bit Media and Data Integrity Errors past 64 bits (2^64 + 3): unreadable, no made-up count in
# the text or in smartctl's key media_errors (smartctl gives the whole 128-bit value there).
logs media-huge media=18446744073709551619
cond media-huge media-huge "${nvme_env[@]}" -- --json --condition /dev/null
if python3 - "$out/media-huge.out" << 'PY'; then
import json, sys
c = json.load(open(sys.argv[1]))["devices"][0]["condition"]
assert "media_errors" not in c["nvme_smart_health_information_log"] and "media_errors" not in c["counts"], c
assert any(f["what"] == "unreadable" and "media errors beyond 64 bits" in f["value"] for f in c["findings"]), c
PY
	ok "NVMe media errors past 64 bits: unreadable, no count said"
else
	bad "NVMe media errors past 64 bits: unreadable, no count said (exit $rc)" "$(head -c 600 "$out/media-huge.out")"
fi
# Just past them: 25 h apart (100 h, 125 h), 51 h apart at 5000 h (over 1 %): history suspect.
for c in "day-past|minutes=6000 farm=125" "pct-past|minutes=296940 farm=5000"; do
	IFS='|' read -r name setting <<< "$c"
	# shellcheck disable=SC2086
	logs "$name" kind=scsi $setting
	cond "$name" "$name" "${scsi_env[@]}" -- --condition /dev/null
	if [ "$rc" = 202 ] && grep -q 'history rewritten' "$out/$name.out"; then
		ok "SCSI FARM: $setting: more than a day and more than 1 % apart (history suspect)"
	else
		bad "SCSI FARM: $setting: more than a day and more than 1 % apart (exit $rc)" "$(cat "$out/$name.out")"
	fi
done
logs farm-sig kind=scsi farm=21947 farmsig=bad
cond farm-sig farm-sig "${scsi_env[@]}" -- --condition /dev/null
if [ "$rc" = 0 ] && grep -q '^ unreadable  .*its signature is not FARMER .*\[Seagate FARM log page (3Dh/03h)\]$' "$out/farm-sig.out"; then
	ok "SCSI FARM: a wrong signature: unreadable, its hours left out of the verdict (good)"
else
	bad "SCSI FARM: a wrong signature: unreadable, its hours left out (exit $rc)" "$(cat "$out/farm-sig.out")"
fi

# --- bad pages: unreadable, left out of the verdict, nothing read past them ---
mkdir -p "$out/bad" && rm -f "$out/bad"/*
echo "10 00 00 30 00 01" > "$out/bad/scsi-10.hex"      # a self-test page that claims 48 bytes and sends 2
echo "03 00" > "$out/bad/scsi-03.hex"                  # shorter than its header
echo "11 00 00 04 00 01 03 00" > "$out/bad/scsi-11.hex"   # its parameter says 0 bytes: no value
cond bad bad "${scsi_env[@]}" -- --condition /dev/null
if [ "$rc" = 95 ] && [ "$(grep -c '^ unreadable  .*(left out of the verdict)' "$out/bad.out")" = 3 ] &&
	! grep -q '^ verdict' "$out/bad.out" && grep -q 'no verdict' "$out/bad.err"; then
	ok "bad pages: each said unreadable, no verdict from them, exit 95"
else
	bad "bad pages: each said unreadable, no verdict from them, exit 95 (exit $rc)" "$(cat "$out/bad.out" "$out/bad.err")"
fi
# One bad page beside good ones: the good ones decide.
cp "$out/sas/"* "$out/bad/" && echo "11 00 00 04 00 01 03 00" > "$out/bad/scsi-11.hex" && rm "$out/bad/scsi-10.hex"
cond bad-good bad "${scsi_env[@]}" -- --condition /dev/null
if [ "$rc" = 0 ] && [ "$(verdict bad-good)" = "good (no finding decided otherwise)" ] &&
	grep -q '^ unreadable .*Percentage Used' "$out/bad-good.out"; then
	ok "bad pages: one unreadable page beside readable ones, which decide (good)"
else
	bad "bad pages: one unreadable page beside readable ones (exit $rc)" "$(cat "$out/bad-good.out" "$out/bad-good.err")"
fi

# A SAS disk that stops answering (its first LOG SENSE times out): nothing more is asked of it (each
# command would wait its timeout), one line says why, exit 110.  The scripted double
# (tests/tools/script-double.c) reports any command past its script.
sd="$out/script-double-condition.so"
if ${CC:-cc} -shared -fPIC -O2 -o "$sd" "$top/tests/tools/script-double.c" -ldl; then
	cat > "$out/hung.script" << 'EOF'
node scsi
sg 85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00 -> sense 70 00 05 00 00 00 00 0a 00 00 00 00 20 00 00 00 00 00
sg a1 08 0e 00 01 00 00 00 00 ec 00 00 -> sense 70 00 05 00 00 00 00 0a 00 00 00 00 20 00 00 00 00 00
sg 03 00 00 00 20 00 -> data 70 00 00 00 00 00 00 0a 00 00 00 00 00 00 00 00 00 00
sg 4d 00 42 00 00 00 00 04 00 00 -> timeout
EOF
	rm -f "$out/hung.report"
	env DOUBLE_SCRIPT="$out/hung.script" DOUBLE_REPORT="$out/hung.report" "${preload[@]/$shim/$sd}" "$asan" "$H" --condition /dev/null \
		> "$out/hung.out" 2> "$out/hung.err"
	rc=$?
	if [ "$rc" = 110 ] && [ ! -s "$out/hung.report" ] && grep -q 'LOG SENSE failed: command timed out' "$out/hung.err"; then
		ok "SCSI: a disk whose first LOG SENSE times out is asked nothing more; said, exit 110"
	else
		bad "SCSI: a disk whose first LOG SENSE times out is asked nothing more (exit $rc)" "$(cat "$out/hung.report" "$out/hung.err" 2> /dev/null)"
	fi
else
	bad "build tests/tools/script-double.c"
fi

# --- a sleeping disk: left asleep beside another option, woken where --condition is all ---
cond asleep sas "${scsi_env[@]}" SHIM_SCSI_STATE=0x02 SHIM_LOG="$out/asleep.log" -- --json -C --condition /dev/null
if [ "$rc" = 0 ] && ! grep -q '4d ' "$out/asleep.log" && python3 - "$out/asleep.out" << 'PY'; then
import json, sys
assert json.load(open(sys.argv[1]))["devices"][0]["condition"] == {"not_read": "standby"}
PY
	ok "asleep: with -C, said asleep and not read (no LOG SENSE), condition.not_read"
else
	bad "asleep: with -C, said asleep and not read (exit $rc)" "$(head -c 400 "$out/asleep.out")"
fi
cond woken sas "${scsi_env[@]}" SHIM_SCSI_STATE=0x02 -- --condition /dev/null
if [ "$rc" = 203 ] && grep -q '^ drive state was:  standby (woken to read its logs' "$out/woken.out"; then
	ok "asleep: --condition alone reads it, and says it was woken"
else
	bad "asleep: --condition alone reads it, and says it was woken (exit $rc)" "$(cat "$out/woken.out")"
fi

# --- many disks together: both held in their first Get Log Page until the gate opens ---
rm -f "$out/gate" "$out/many.log"
env "${nvme_env[@]}" SHIM_BLOCK_DEV=259:900000 SHIM_LOGS="$out/good" SHIM_LOG="$out/many.log" SHIM_LOG_DEVICE=1 \
	SHIM_NVME_DELAY=02 SHIM_DELAY_MS="until:$out/gate" "${preload[@]}" "$asan" "$H" --json --condition /dev/null /dev/zero \
	> "$out/many.out" 2> "$out/many.err" &
pid=$!
held() { [ "$(grep -c 'nvme-admin: 02 ' "$out/many.log" 2> /dev/null)" = 2 ]; }
until_true 20 held
both=$?
touch "$out/gate"
wait_within 30 "$pid"
if [ "$both" = 0 ] && [ "$rc" = 0 ] && python3 - "$out/many.out" << 'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))["devices"]
assert [(x["name"], x["condition"]["verdict"]) for x in d] == [("/dev/null", ["good"]), ("/dev/zero", ["good"])], d
PY
	ok "many disks: read together (both asked before either answered), a condition object each"
else
	bad "many disks: read together (held both: $both, exit $rc)" "$(cat "$out/many.log" "$out/many.err" 2> /dev/null | head)"
fi

# A stop signal while both are held: each said ended with no verdict (not a scan's words), exit 130.
rm -f "$out/gate" "$out/many.log"
env --default-signal=INT,QUIT,TERM,HUP "${nvme_env[@]}" SHIM_BLOCK_DEV=259:900000 SHIM_LOGS="$out/good" SHIM_LOG="$out/many.log" \
	SHIM_LOG_DEVICE=1 SHIM_NVME_DELAY=02 SHIM_DELAY_MS="until:$out/gate" "${preload[@]}" "$asan" "$H" --condition /dev/null /dev/zero \
	> "$out/int.out" 2> "$out/int.err" &
pid=$!
until_true 20 held
kill -INT "$pid"
wait_within 30 "$pid"
touch "$out/gate"
if [ "$rc" = 130 ] && [ "$(grep -c ': the process reading its condition was killed by signal 2 (Interrupt): its reading ended there, with no verdict; nothing was written to the disk$' "$out/int.err")" = 2 ]; then
	ok "many disks: SIGINT while held: each disk said ended with no verdict, exit 130"
else
	bad "many disks: SIGINT while held: each disk said ended with no verdict, exit 130 (exit $rc)" "$(cat "$out/int.err")"
fi

# The run's exit status is its worst disk's: /dev/null failing (a critical warning), /dev/zero (named last) worn.
logs worst cw=2
mkdir -p "$out/worst/zero" && (logs worst-zero used=95 && cp "$out/worst-zero/"* "$out/worst/zero/")
cond worst worst "${nvme_env[@]}" SHIM_BLOCK_DEV=259:900000 -- --json --condition /dev/null /dev/zero
if [ "$rc" = 203 ] && python3 - "$out/worst.out" << 'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))["devices"]
assert [(x["name"], x["condition"]["verdict"]) for x in d] == [("/dev/null", ["failing"]), ("/dev/zero", ["worn"])], d
PY
	ok "many disks: the run's exit status is the worst disk's (203), not the last one's"
else
	bad "many disks: the run's exit status is the worst disk's (203), not the last one's (exit $rc)" "$(head -c 300 "$out/worst.out")"
fi

# A disk not read leaves the worst verdict unknown: its error is the run's status, not another disk's verdict.
# SCSI /dev/null: its Self-Test Results page (SPC-4 10h) says a short test failed (result 7h); /dev/zero: no page at all.
rm -rf "$out/unread" && mkdir -p "$out/unread/null" "$out/unread/zero"
printf '10 00 00 14\n00 01 03 10 27 00 01 f4 00 00 00 00 00 12 d6 87 03 11 00 00\n' > "$out/unread/null/scsi-10.hex"
cond unread unread "${scsi_env[@]}" SHIM_BLOCK_DEV=8:900000 -- --condition /dev/null /dev/zero
if [ "$rc" = 95 ] && [ "$(verdict unread)" = "failing (a self-test failed)" ] && grep -q 'no verdict' "$out/unread.err"; then
	ok "many disks: one failing, one not read: exit 95 (its error), not 203"
else
	bad "many disks: one failing, one not read: exit 95 (its error), not 203 (exit $rc)" "$(cat "$out/unread.out" "$out/unread.err")"
fi

# -h names it.
if "$H" -h 2>&1 | grep -q -- '^ --condition  '; then ok "-h lists --condition"; else bad "-h lists --condition"; fi
echo "end of suite"
