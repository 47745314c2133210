#!/bin/bash
# --tcg, against the test double's answers to IF-RECV (tests/tools/sgio-shim.c, SHIM_TCG): Level 0
# Discovery dumps of real drives from public sedutil issue threads and one with every feature
# (tests/tcg/*.txt).  The decoding is compared field by field with sedutil-cli --query reading
# the same answers (built from its source by tests/tools/build-sedutil.sh), wherever sedutil
# knows the feature; the commands' fields with sedutil's ATA command and the standards (SPC-4
# SECURITY PROTOCOL IN, NVMe Security Receive).
# Usage: tcg-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" / "skip NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
double_name=tcg
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
identify="$top/tests/identify/pages/qemu-ahci-hdd.hex"
sedutil=${SEDUTIL:-/var/cache/hdparm-tests/sedutil-cli}
ctrl=$top/tests/nvme/qemu-ctrl.hex

# run ENV... -- ARGS...: hdparm --tcg on the double's disk; rc, $out/tcg-cmd.{out,err,log}
run() {
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$out/tcg-cmd.log"
	env SHIM_IDENTIFY="$identify" SHIM_LOG="$out/tcg-cmd.log" "${envs[@]}" "${preload[@]}" "$asan" \
		"$H" "$@" /dev/null > "$out/tcg-cmd.out" 2> "$out/tcg-cmd.err"
	rc=$?
	touch "$out/tcg-cmd.log"
}

result() {
	if [ "$1" = 0 ]; then echo "ok tcg: $2"; else
		echo "FAIL tcg: $2 (exit $rc)"
		sed 's/^/  out: /' "$out/tcg-cmd.out" | head -n 12
		sed 's/^/  err: /' "$out/tcg-cmd.err" | head -n 4
		return 1
	fi
}

# --- the decoding, against sedutil-cli --query on the same answers ---
if [ -z "${DOUBLE_COMPARE:-}" ] && [ -x "$sedutil" ]; then
	# sedutil opens only /dev/s* and /dev/nvme* paths: an empty file in /dev/shm is its disk.
	disk=/dev/shm/hdparm-tcg-$$
	: > "$disk"
	for dump in "$top"/tests/tcg/*.txt; do
		name=$(basename "$dump" .txt)
		env SHIM_IDENTIFY="$identify" SHIM_TCG="$dump" "${preload[@]}" "$sedutil" --query "$disk" \
			> "$out/tcg-sedutil-$name.txt" 2> /dev/null
		run SHIM_TCG="$dump" -- --json --tcg
		compared=$(python3 - "$out/tcg-cmd.out" "$out/tcg-sedutil-$name.txt" <<'PY'
import json, re, sys
ours = {f["code"]: f for f in json.load(open(sys.argv[1]))["devices"][0]["tcg"]["level0"]["features"]}
# sedutil's function headings and, in each, its names for our JSON fields (value maps: Y/N, numbers).
functions = {
    "TPer function": (0x0001, {"ACKNAK": "ack_nak", "ASYNC": "async", "BufferManagement": "buffer_management",
                               "comIDManagement": "comid_management", "Streaming": "streaming", "SYNC": "sync"}),
    "Locking function": (0x0002, {"Locked": "locked", "LockingEnabled": "locking_enabled",
                                  "LockingSupported": "locking_supported", "MBRDone": "mbr_done",
                                  "MBREnabled": "mbr_enabled", "MediaEncrypt": "media_encryption"}),
    "Geometry function": (0x0003, {"Align": "align", "Alignment Granularity": "alignment_granularity",
                                   "Logical Block size": "logical_block_size", "Lowest Aligned LBA": "lowest_aligned_lba"}),
    "Enterprise function": (0x0100, {"Range crossing": "range_crossing", "Base comID": "base_comid",
                                     "comIDs": "number_of_comids"}),
    "Opal V1.0 function": (0x0200, {"Base comID": "base_comid", "comIDs": "number_of_comids"}),
    "SingleUser function": (0x0201, {"ALL": "all", "ANY": "any", "Policy": "policy",
                                     "Locking Objects": "locking_objects"}),
    "DataStore function": (0x0202, {"Max Tables": "max_tables", "Max Size Tables": "max_size",
                                    "Table size alignment": "alignment"}),
    "OPAL 2.0 function": (0x0203, {"Base comID": "base_comid", "Initial PIN": "initial_pin_indicator",
                                   "Reverted PIN": "reverted_pin_indicator", "comIDs": "number_of_comids",
                                   "Locking Admins": "locking_admins", "Locking Users": "locking_users",
                                   "Range Crossing": "range_crossing"}),
    "Block SID Authentication": (0x0402, {"SID equals MSID": "!sid_value_state", "SID blocked": "sid_blocked",
                                          "HW Reset can clear": "hardware_reset"}),
}
code = None
n = 0
bad = []
for line in open(sys.argv[2]):
    head = re.match(r"^(.*?) \(0x[0-9a-f]{4}", line)
    if head and head.group(1) in functions:
        code, names = functions[head.group(1)]
        if code not in ours:
            bad.append("0x%04x missing" % code)
        continue
    if code is None or code not in ours:
        continue
    for key, value in re.findall(r"([A-Za-z][A-Za-z .]*?) +=\s+(\S+?)[,.]?(?= |$)", line.strip()):
        key = key.strip()
        if key not in names:
            continue
        field = names[key].lstrip("!")
        theirs = {"Y": 1, "N": 0}.get(value, None)
        theirs = int(value, 0) if theirs is None else theirs
        mine = int(ours[code].get(field, -1))
        if names[key].startswith("!"):
            mine = 1 - mine
        n += 1
        if mine != theirs:
            bad.append("0x%04x %s: ours %s, sedutil %s" % (code, key, mine, theirs))
print("%d %s" % (n, "; ".join(bad)))
PY
)
		count=${compared%% *} problems=${compared#* }
		[ "$rc" = 0 ] && [ "${count:-0}" -gt 10 ] && [ -z "$problems" ]
		result $? "$name: $count fields as sedutil-cli --query decodes them" || echo "  $problems"
	done
	# sedutil's TRUSTED RECEIVE of Level 0 Discovery (12-byte pass-through) against ours (16-byte): the
	# ATA registers the same (FEATURE the protocol, COUNT 4 blocks, LBA 23:8 ComID 0001h, DEVICE 0).
	rm -f "$out/tcg-their.log"
	env SHIM_IDENTIFY="$identify" SHIM_TCG="$top/tests/tcg/crucial-mx500.txt" SHIM_LOG="$out/tcg-their.log" \
		"${preload[@]}" "$sedutil" --query "$disk" > /dev/null 2>&1
	theirs=$(awk '$2 == "a1" && $11 == "5c" && $5 == "01" { print "feature " $5 " count " $6 " lba " $9 $8 $7 " device " $10 " protocol " $3; exit }' "$out/tcg-their.log")
	run SHIM_TCG="$top/tests/tcg/crucial-mx500.txt" -- --tcg
	mine=$(awk '$2 == "85" && $16 == "5c" && $6 == "01" { print "feature " $6 " count " $8 " lba " $14 $12 $10 " device " $15 " protocol " $3; exit }' "$out/tcg-cmd.log")
	[ -n "$theirs" ] && [ "$mine" = "$theirs" ]
	result $? "TRUSTED RECEIVE of Level 0 Discovery: the registers sedutil sends ($theirs)" ||
		printf '  ours:   %s\n  theirs: %s\n' "$mine" "$theirs"
	# The session layer (tcg/tcg_session.c) against sedutil's packets of a PSID revert to the double
	# (Properties, StartSession with the PSID, end of session): each opened, its tokens read and
	# written again, packed again: byte for byte what sedutil sent.
	rm -f "$out/tcg-psid.log"
	env SHIM_IDENTIFY="$identify" SHIM_TCG="$top/tests/tcg/crucial-mx500.txt" SHIM_LOG="$out/tcg-psid.log" SHIM_LOG_FULL=1 \
		"${preload[@]}" timeout 30 "$sedutil" --yesIreallywanttoERASEALLmydatausingthePSID \
		ABCDEFGHIJKLMNOPQRSTUVWXYZ012345 "$disk" > /dev/null 2>&1
	if ${CC:-cc} -std=gnu11 -Wall -Wextra -I"$top/tcg" -I"$top/lib" -o "$out/tcg-reencode" "$top/tests/tools/tcg-reencode.c" \
		"$top/tcg/tcg_session.c" 2> "$out/tcg-reencode.build"; then
		"$out/tcg-reencode" < "$out/tcg-psid.log" > "$out/tcg-reencode.out"
		rc=$?
		[ "$rc" = 0 ] && [ "$(grep -c '^same ' "$out/tcg-reencode.out")" = 3 ] && grep -q 'data: .* d0 20 41 42 43' "$out/tcg-psid.log"
		result $? "session layer: sedutil's Properties, StartSession (PSID) and end of session read and written again byte for byte" ||
			sed 's/^/  /' "$out/tcg-reencode.out"
	else
		echo "FAIL tcg: build tests/tools/tcg-reencode.c"
		sed 's/^/  /' "$out/tcg-reencode.build" | head -n 5
	fi
	rm -f "$disk"
elif [ -z "${DOUBLE_COMPARE:-}" ]; then
	echo "skip tcg: no sedutil-cli at $sedutil (tests/setup builds it): its comparisons not made"
fi

# --- text: a real locked drive, every feature, an unknown one ---
run SHIM_TCG="$top/tests/tcg/crucial-m550.txt" -- --tcg
[ "$rc" = 0 ] && grep -qxF '  Locking (0002h) v1: locking supported yes, locking enabled yes, locked yes, media encryption yes, MBR enabled no, MBR done no, MBR shadowing not supported no' "$out/tcg-cmd.out" &&
	grep -q '^ Locking: enabled and LOCKED: .* a PSID revert (the PSID on the drive.s label) erases everything$' "$out/tcg-cmd.out"
result $? "Crucial M550: locked, and the ways out said"
run SHIM_TCG="$top/tests/tcg/every-feature.txt" -- --tcg
n=$(grep -c '^  [A-Z].* ([0-9A-F]\{4\}h) v[0-9]: ' "$out/tcg-cmd.out")
[ "$rc" = 0 ] && [ "$n" = 15 ] && grep -qxF '  unknown feature C001h v1, 8 bytes' "$out/tcg-cmd.out" &&
	grep -qxF '  unknown feature 1234h v0, 0 bytes' "$out/tcg-cmd.out" && grep -q '^ Shadow MBR: ' "$out/tcg-cmd.out" &&
	grep -qxF '  Data Removal Mechanism (0404h) v1: removal in progress no, mechanisms 0x6, time formats 0x0, overwrite time 0, block erase time 60, crypto erase time 2, vendor erase time 0' "$out/tcg-cmd.out"
result $? "every feature decoded ($n of 15), the unknown two listed with code, version and length"
run SHIM_TCG="$top/tests/tcg/every-feature.txt" -- --json --tcg
python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["devices"][0]["tcg"]
f = {x["code"]: x for x in t["level0"]["features"]}
assert t["supported"] and t["security_protocols"] == [0, 1]
assert f[0xc001] == {"code": 0xc001, "name": None, "version": 1, "length": 8, "truncated": False}
assert f[0x0403]["max_ranges_per_namespace"] == 8 and f[0x0303]["base_comid"] == 0x1003
assert t["locking"] == {"supported": True, "enabled": True, "locked": True, "media_encryption": True,
                        "mbr_enabled": True, "mbr_done": False}' "$out/tcg-cmd.out"
result $? "--json --tcg: security_protocols, every feature, the unknown with a null name, locking"
run -- -I
cp "$out/tcg-cmd.out" "$out/tcg-i-plain.out"
run SHIM_TCG="$top/tests/tcg/crucial-m550.txt" -- -I
cmp -s "$out/tcg-cmd.out" "$out/tcg-i-plain.out" && ! grep -q '^cdb: .* 5c 00$' "$out/tcg-cmd.log"
result $? "-I is 9.65's: no TRUSTED RECEIVE, the same text on a TCG drive"

# --- a read that fails on a locked drive: the reason and the ways out, not the errno alone ---
run SHIM_SCSI=1 SHIM_SCSI_READ_DENIED=1 SHIM_TCG="$top/tests/tcg/crucial-m550.txt" -- --read-sector 0
[ "$rc" = 5 ] && grep -qF 'data protect (access denied - no access rights)' "$out/tcg-cmd.err" &&
	grep -q '^ /dev/null is locked by TCG (its Level 0 Discovery says Locked): .* the owner.s password .* a PSID revert' "$out/tcg-cmd.err"
result $? "SCSI --read-sector refused (DATA PROTECT) on the locked M550: the lock said"
run SHIM_SCSI=1 SHIM_SCSI_READ_DENIED=1 SHIM_TCG="$top/tests/tcg/crucial-mx500.txt" -- --read-sector 0
[ "$rc" = 5 ] && ! grep -q 'locked by TCG' "$out/tcg-cmd.err"
result $? "the same refusal on the unlocked MX500: no word of a lock"
run SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_OACS=1 SHIM_NVME_FAIL=io:02 SHIM_TCG="$top/tests/tcg/crucial-m550.txt" -- --read-sector 0
[ "$rc" = 5 ] && grep -q 'is locked by TCG' "$out/tcg-cmd.err"
result $? "NVMe --read-sector failing on a locked drive: the lock said"

# Hostile answers (lengths past the buffer, descriptors of length 0 or overrunning): tests/unit and
# the fuzz_tcg target.

# --- each transport's command ---
run SHIM_SCSI=1 SHIM_TCG="$top/tests/tcg/crucial-mx500.txt" -- --tcg
# SPC-4 6.30: A2h, the protocol, SP SPECIFIC (2 bytes), INC_512 0, ALLOCATION LENGTH (4 bytes, bytes 6-9).
[ "$rc" = 0 ] && grep -qx 'cdb: a2 00 00 00 00 00 00 00 02 00 00 00' "$out/tcg-cmd.log" &&
	grep -qx 'cdb: a2 01 00 01 00 00 00 00 08 00 00 00' "$out/tcg-cmd.log" && grep -q 'Opal SSC 2 (0203h)' "$out/tcg-cmd.out"
result $? "SCSI: SECURITY PROTOCOL IN of protocol 00h, then 01h ComID 0001h, 2048 bytes"
run SHIM_SCSI=1 -- --tcg
[ "$rc" = 0 ] && grep -q '^ TCG: none: this SCSI disk refused SECURITY PROTOCOL IN' "$out/tcg-cmd.out" &&
	[ "$(grep -c . "$out/tcg-cmd.out")" = 2 ]
result $? "SCSI disk without security protocols: one line"
run SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_OACS=1 SHIM_TCG="$top/tests/tcg/crucial-mx500.txt" -- --tcg
# NVMe Base 2.0 5.22: Security Receive 82h, CDW10 SECP 31:24, SPSP 23:8; CDW11 the allocation length.
# The double logs the opcode, then NSID, CDW10 and CDW11 least significant byte first.
[ "$rc" = 0 ] && grep -qx 'nvme-admin: 82 01 00 00 00 00 01 00 01 00 08 00 00' "$out/tcg-cmd.log" && grep -q 'Locking (0002h)' "$out/tcg-cmd.out"
result $? "NVMe: Security Receive 82h, CDW10 01000100h, CDW11 2048" || grep '82' "$out/tcg-cmd.log" | head -3
run SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_OACS=0 SHIM_TCG="$top/tests/tcg/crucial-mx500.txt" -- --tcg
[ "$rc" = 0 ] && grep -qx ' TCG: none: this NVMe controller has no Security Send/Receive (OACS bit 0)' "$out/tcg-cmd.out" &&
	! grep -q '^nvme-admin: 82' "$out/tcg-cmd.log"
result $? "NVMe without Security Send/Receive: said, nothing sent"
# libata without allow_tpm: the refusal explained (the double's /sys says allow_tpm 0).
mkdir -p "$out/tcg-sys/sys/module/libata/parameters"
echo 0 > "$out/tcg-sys/sys/module/libata/parameters/allow_tpm"
run SHIM_SYSFS="$out/tcg-sys" SHIM_TCG="$top/tests/tcg/crucial-mx500.txt" SHIM_TCG_REFUSE=1 -- --tcg
[ "$rc" = 13 ] && grep -q 'libata refuses TRUSTED RECEIVE: /sys/module/libata/parameters/allow_tpm is 0 (boot with libata.allow_tpm=1' "$out/tcg-cmd.out"
result $? "libata.allow_tpm=0: the refusal said, with how to set it, exit 13"
echo "end of suite"
