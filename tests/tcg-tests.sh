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
suite="tcg" double_name=tcg
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
identify="$top/tests/identify/pages/qemu-ahci-hdd.hex"
sedutil=${SEDUTIL:-/var/cache/hdparm-tests/sedutil-cli}
ctrl=$top/tests/nvme/qemu-ctrl.hex

# run ENV... -- ARGS...: hdparm --tcg on the double's disk; rc, $out/tcg-cmd.{out,err,log}
run() { run_on_double tcg-cmd SHIM_IDENTIFY="$identify" "$@" /dev/null; }

# result STATUS NAME: ok, or FAIL with the last run's output.
result() { result_of tcg-cmd "$@"; }

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
		bad "build tests/tools/tcg-reencode.c"
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
# An answer that claims more than came: what came is shown, the rest said, exit 5.  Crafted from the
# MX500's by setting the header's length (TCG Core 3.3.6): past the 2048 bytes asked for, and short
# of the last descriptor's end.
run SHIM_TCG="$top/tests/tcg/malformed/cut-header.txt" -- --tcg
[ "$rc" = 5 ] && grep -qxF ' Level 0 Discovery: cut short: its header claims 65524 bytes, 2048 came; what came is shown' "$out/tcg-cmd.err" &&
	grep -q 'Opal SSC 2 (0203h)' "$out/tcg-cmd.out"
result $? "a Level 0 header claiming more than came: shown, said cut short, exit 5"
run SHIM_TCG="$top/tests/tcg/malformed/cut-descriptor.txt" -- --json --tcg
[ "$rc" = 5 ] && grep -qxF ' Level 0 Discovery: malformed: feature 0402h claims 12 bytes, 4 are left in the answer; what came is shown' "$out/tcg-cmd.err" &&
	python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["devices"][0]["tcg"]["level0"]
assert t["truncated"] and [f["truncated"] for f in t["features"] if f["code"] == 0x402] == [True], t' "$out/tcg-cmd.out"
result $? "a last descriptor past the answer's end: said malformed, --json truncated, exit 5"
# -I on a TCG drive: hdparm 9.65's text under the same double (its device strings escaped as ours
# are), and no TRUSTED RECEIVE sent.
oracle=${ORACLE:-/usr/sbin/hdparm}
if [ -n "${DOUBLE_COMPARE:-}" ]; then
	:
elif ! "$oracle" -V 2> /dev/null | grep -q 'v9.65$'; then
	echo "skip tcg: -I against hdparm 9.65: $oracle is not hdparm 9.65 (tests/setup installs it)"
else
	run SHIM_TCG="$top/tests/tcg/crucial-m550.txt" -- -I
	env SHIM_IDENTIFY="$identify" SHIM_TCG="$top/tests/tcg/crucial-m550.txt" "${preload[@]}" "$oracle" -I /dev/null 2> /dev/null |
		perl "$top/tests/tools/escape-strings.pl" > "$out/tcg-i-965.out"
	cmp -s "$out/tcg-cmd.out" "$out/tcg-i-965.out" && ! grep -q '^cdb: .* 5c 00$' "$out/tcg-cmd.log"
	result $? "-I is 9.65's: no TRUSTED RECEIVE, hdparm 9.65's text on a TCG drive" ||
		diff "$out/tcg-i-965.out" "$out/tcg-cmd.out" | head -n 5 | sed 's/^/  /'
fi

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
# The double logs the opcode, then NSID, CDW10 and CDW11 least significant byte first.  NSID 0, as the
# kernel's sed-opal sends it (drivers/nvme/host/core.c, nvme_sec_submit: cmd.common.nsid = 0).
[ "$rc" = 0 ] && grep -qx 'nvme-admin: 82 00 00 00 00 00 01 00 01 00 08 00 00' "$out/tcg-cmd.log" && grep -q 'Locking (0002h)' "$out/tcg-cmd.out"
result $? "NVMe: Security Receive 82h, NSID 0, CDW10 01000100h, CDW11 2048" || grep '82' "$out/tcg-cmd.log" | head -3
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

# --- --tcg-psid-revert: the double plays the drive's session (Properties, SyncSession, method status) ---
psid=ABCDEFGHIJKLMNOPQRSTUVWXYZ012345
mx500=$top/tests/tcg/crucial-mx500.txt
after=$top/tests/tcg/crucial-mx500-reverted.txt
head -c 1048576 /dev/urandom > "$out/tcg-before.img"
head -c 1048576 /dev/urandom > "$out/tcg-after.img"
yes=--yes-i-know-what-i-am-doing
revert() { # ENV... -- ARGS...: --tcg-psid-revert on an ATA disk (8:900000) whose blocks read as tcg-before.img
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	run SHIM_TCG="$mx500" SHIM_TCG_AFTER="$after" SHIM_TCG_PSID="$psid" SHIM_BLOCK_DEV=8:900000 \
		SHIM_DISK_IMAGE="$out/tcg-before.img" SHIM_DISK_IMAGE_AFTER="$out/tcg-after.img" SHIM_LOG_FULL=1 "${envs[@]}" -- "$@"
}
# tokens LOG: the ComPackets sent (IF-SEND), one line each: ComID, then the tokens, session numbers left out
# (our HostSessionID is 1, sedutil's 105: the host picks it).
tokens() {
	python3 - "$1" <<'PY'
import sys
names = {0xf0: '[', 0xf1: ']', 0xf2: '{', 0xf3: '}', 0xf8: 'CALL', 0xf9: 'EOD', 0xfa: 'EOS', 0xff: 'EMPTY'}
for line in open(sys.argv[1]):
    if not line.startswith('data:'):
        continue
    b = bytes.fromhex(line[5:].replace(' ', '').strip())
    d = b[56:56 + int.from_bytes(b[52:56], 'big')]
    out, i = [], 0
    while i < len(d):
        t = d[i]
        if t < 0x80:
            out.append(str(t)); i += 1
        elif t < 0xc0:
            n = t & 15; out.append(('b:' if t & 0x20 else 'u:') + d[i + 1:i + 1 + n].hex()); i += 1 + n
        elif t < 0xe0:
            n = (t & 7) << 8 | d[i + 1]; out.append(('b:' if t & 0x10 else 'u:') + d[i + 2:i + 2 + n].hex()); i += 2 + n
        else:
            out.append(names.get(t, hex(t))); i += 1
    if out[:3] == ['CALL', 'b:00000000000000ff', 'b:000000000000ff02']:
        out[4] = 'HSN'
    print('%04x' % int.from_bytes(b[4:6], 'big'), ' '.join(out))
PY
}
revert -- $yes --tcg-psid-revert "$psid"
cp "$out/tcg-cmd.log" "$out/tcg-revert.log"
tokens "$out/tcg-revert.log" > "$out/tcg-revert.tokens"
[ "$rc" = 0 ] && grep -qx 'Issuing TCG PSID revert (Revert of the Admin SP, Opal SSC 2, ComID 0888h)' "$out/tcg-cmd.out" &&
	grep -qx " Revert: SUCCESS, the drive's TCG state is its factory's; Locking now not enabled, not locked" "$out/tcg-cmd.out" &&
	[ "$(grep -c '^cdb: .* 5e 00$' "$out/tcg-cmd.log")" = 3 ]
result $? "MX500: Properties, StartSession, Revert (three TRUSTED SENDs), the drive in its factory state, exit 0"
# What each IF-SEND carries, from the TCG Core Specification 2.01's layouts and UIDs, without an
# oracle: the ComPacket's ComID (bytes 4-5), the Packet's TPer and host session numbers (20-23,
# 24-27), and the call: invoking UID, method UID, and StartSession's arguments.  Properties and
# StartSession go to the Session Manager (UID ..00FF) outside a session (both numbers 0); Revert to
# the Admin SP (0000020500000001) inside it: the TPer's number from SyncSession (the double's 1001h)
# and our HostSessionID (1); StartSession names the Admin SP, Write, the PSID as HostChallenge
# (name 0) and the PSID authority (000000090001FF01) as HostSigningAuthority (name 3).
python3 - "$out/tcg-revert.log" "$psid" > "$out/tcg-fields.err" 2>&1 << 'EOF'
import sys
psid = sys.argv[2].encode()
packets = [bytes.fromhex(l[5:].replace(' ', '').strip()) for l in open(sys.argv[1]) if l.startswith('data:')]
uid = lambda h: bytes([0xa8]) + bytes.fromhex(h)
SM, ADMIN_SP, PSID_AUTH = uid('00000000000000ff'), uid('0000020500000001'), uid('000000090001ff01')
PROPERTIES, START_SESSION, REVERT = uid('000000000000ff01'), uid('000000000000ff02'), uid('0000000600000202')
assert len(packets) == 3, len(packets)
for p, (tsn, hsn, invoking, method) in zip(packets, [(0, 0, SM, PROPERTIES), (0, 0, SM, START_SESSION),
                                                     (0x1001, 1, ADMIN_SP, REVERT)]):
    assert p[4:6] == bytes.fromhex('0888'), p[4:6].hex()
    got = (int.from_bytes(p[20:24], 'big'), int.from_bytes(p[24:28], 'big'))
    assert got == (tsn, hsn), ('session numbers', got, (tsn, hsn))
    d = p[56:56 + int.from_bytes(p[52:56], 'big')]
    assert d[0] == 0xf8 and d[1:10] == invoking and d[10:19] == method, ('call', d[:19].hex())
args = packets[1][56 + 19:]
# [ HostSessionID (tiny 1), SPID, Write (tiny 1), { 0 HostChallenge }, { 3 HostSigningAuthority } ]
assert args[0] == 0xf0 and args[1] == 0x01 and args[2:11] == ADMIN_SP and args[11] == 0x01, args[:12].hex()
challenge = bytes([0xd0, len(psid)]) + psid
assert args[12:15] == bytes([0xf2, 0x00, 0xd0]) and args[13 + 1:13 + 1 + len(challenge)] == challenge, args[12:50].hex()
rest = args[13 + 1 + len(challenge):]
assert rest[:13] == bytes([0xf3, 0xf2, 0x03]) + PSID_AUTH + bytes([0xf3]), rest[:13].hex()
EOF
result $? "IF-SEND fields from the Core layouts: ComID, session numbers, Session Manager then Admin SP, StartSession's arguments" ||
	sed 's/^/  /' "$out/tcg-fields.err" | tail -n 3
# TRUSTED SEND (ACS-3 7.59): FEATURE the protocol, COUNT and LBA 7:0 the 512-byte blocks, LBA 23:8 the ComID;
# SAT's ATA PASS-THROUGH (16), PIO data-out, the length in COUNT.  sedutil sends the same registers in the
# 12-byte form: a1 0a 06 01 01 00 88 08 00 5e.
[ "$(grep -c '^cdb: 85 0a 06 00 01 00 01 00 00 00 88 00 08 00 5e 00$' "$out/tcg-revert.log")" = 3 ]
result $? "TRUSTED SEND: protocol 01h, 1 block, ComID 0888h, as sedutil's registers" || grep -m2 ' 5e 00$' "$out/tcg-revert.log"
if [ -z "${DOUBLE_COMPARE:-}" ] && [ -x "$sedutil" ]; then
	# The same revert by sedutil-cli under the same double: the same method calls, token for token.
	disk=/dev/shm/hdparm-tcg-$$
	: > "$disk"
	rm -f "$out/tcg-sedutil-revert.log"
	env SHIM_IDENTIFY="$identify" SHIM_TCG="$mx500" SHIM_TCG_PSID="$psid" SHIM_LOG="$out/tcg-sedutil-revert.log" SHIM_LOG_FULL=1 \
		"${preload[@]}" timeout 30 "$sedutil" --yesIreallywanttoERASEALLmydatausingthePSID "$psid" "$disk" > /dev/null 2>&1
	rm -f "$disk"
	tokens "$out/tcg-sedutil-revert.log" > "$out/tcg-sedutil-revert.tokens"
	[ "$(wc -l < "$out/tcg-revert.tokens")" = 3 ] && cmp -s "$out/tcg-sedutil-revert.tokens" "$out/tcg-revert.tokens"
	result $? "the IF-SEND payloads (Properties, StartSession with the PSID authority, Revert of the Admin SP) are sedutil-cli's, token for token" ||
		diff "$out/tcg-sedutil-revert.tokens" "$out/tcg-revert.tokens" | head -n 6 | sed 's/^/  /'
fi
revert -- --json $yes --tcg-psid-revert "$psid"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
t = d["tcg_psid_revert"]
assert t == {"ssc": "opal2", "base_comid": 0x888, "stage": "revert", "method_status": "SUCCESS", "reverted": True,
             "locking_after": {"enabled": False, "locked": False}}, t
assert d["erase_check"][0]["verdict"] != "unchanged"' "$out/tcg-cmd.out" 2> "$out/tcg-json.err"
result $? "--json: tcg_psid_revert {ssc, base_comid, stage, method_status, reverted, locking_after}" || sed 's/^/  /' "$out/tcg-json.err" | tail -n 3
# A wrong PSID: typed with dashes and in lower case.
revert -- $yes --tcg-psid-revert abcd-efgh-ijkl-mnop-qrst-uvwx
[ "$rc" = 13 ] && grep -qx ' StartSession: the drive answered NOT_AUTHORIZED' "$out/tcg-cmd.err" &&
	grep -q 'It has dashes, lower case (not 32 characters): labels print the PSID as 32 capitals and digits, without dashes. Tries are limited' "$out/tcg-cmd.err" &&
	[ "$(grep -c '^cdb: .* 5e 00$' "$out/tcg-cmd.log")" = 2 ]
result $? "a PSID with dashes in lower case: NOT_AUTHORIZED, what is wrong with it and that tries are limited; no Revert sent, exit 13"
revert SHIM_TCG_START_STATUS=03 -- $yes --tcg-psid-revert "$psid"
[ "$rc" = 16 ] && grep -q 'SP_BUSY' "$out/tcg-cmd.err" && grep -q 'another session is open' "$out/tcg-cmd.err"
result $? "SP_BUSY: said, with what to do, exit 16"
revert SHIM_TCG_START_STATUS=12 -- $yes --tcg-psid-revert "$psid"
[ "$rc" = 13 ] && grep -q 'AUTHORITY_LOCKED_OUT' "$out/tcg-cmd.err" && grep -q 'powered off and on' "$out/tcg-cmd.err"
result $? "AUTHORITY_LOCKED_OUT: a power cycle named, exit 13"
# Revert refused by the drive inside the session: the session is ended (END OF SESSION sent).
revert SHIM_TCG_REVERT_STATUS=0x3f -- $yes --tcg-psid-revert "$psid"
tokens "$out/tcg-cmd.log" > "$out/tcg-fail.tokens"
[ "$rc" = 5 ] && grep -qx ' Revert: the drive answered FAIL' "$out/tcg-cmd.err" && [ "$(tail -n 1 "$out/tcg-fail.tokens")" = "0888 EOS" ]
result $? "Revert answered FAIL: said, the session ended with END OF SESSION, exit 5" || sed 's/^/  /' "$out/tcg-fail.tokens"
# A drive that never answers a call (the double's SHIM_TCG_SILENT: the call is taken, IF-RECV keeps
# saying nothing is outstanding, and the wait runs on the double's clock, in no time): the wait ends
# at its limit (30 s a call, 600 s the Revert), nothing more is called but END OF SESSION where a
# session is open, the record says failed, exit 110 (ETIMEDOUT).  Whether a Revert that went
# unanswered ran, only the drive knows: said so.
for case in "Properties:1:30:nothing was reverted" "StartSession:2:30:nothing was reverted" \
	"Revert:3:600:the session was ended (END OF SESSION); the drive may have reverted: --tcg shows its state"; do
	IFS=: read -r method calls limit tail <<< "$case"
	rm -f "$out/tcg-silent.json"
	revert SHIM_TCG_SILENT="$method" -- $yes --tcg-psid-revert "$psid" --erase-record "$out/tcg-silent.json"
	tokens "$out/tcg-cmd.log" > "$out/tcg-silent.tokens"
	head -n "$calls" "$out/tcg-revert.tokens" > "$out/tcg-silent.want"
	[ "$method" = Revert ] && echo "0888 EOS" >> "$out/tcg-silent.want"
	[ "$rc" = 110 ] && cmp -s "$out/tcg-silent.tokens" "$out/tcg-silent.want" &&
		grep -qxF " --tcg-psid-revert: $method failed: the drive gave no answer in $limit s; $tail" "$out/tcg-cmd.err" &&
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
assert r["outcome"] == "failed" and r["exit_status"] == 110, r' "$out/tcg-silent.json"
	result $? "$method never answered: given up after $limit s, nothing more sent$([ "$method" = Revert ] && echo " but END OF SESSION"), said, exit 110" ||
		diff "$out/tcg-silent.want" "$out/tcg-silent.tokens" | cut -c1-100 | sed 's/^/  /'
done
# A Security Send that fails (NVMe status 0002h, invalid field): the first call, Properties, goes no
# further; nothing else is sent, exit 5.
revert SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_OACS=1 SHIM_BLOCK_DEV=259:900000 SHIM_NVME_FAIL=81 -- \
	$yes --tcg-psid-revert "$psid"
[ "$rc" = 5 ] && [ "$(grep -c '^nvme-admin: 81 ' "$out/tcg-cmd.log")" = 1 ] &&
	grep -q '^ --tcg-psid-revert: Properties failed: .*; nothing was reverted$' "$out/tcg-cmd.err"
result $? "NVMe: the Security Send of Properties fails: nothing more sent, said, exit 5" || grep -m3 '^nvme-admin: 8' "$out/tcg-cmd.log"
# The PSID kept off the command line, where every user reads it in /proc/PID/cmdline (ps) for the
# whole revert: "-" reads it from standard input; none given asks on the terminal, not echoed.
rm -f "$out/tcg-cmd.log"
echo "$psid" | env SHIM_IDENTIFY="$identify" SHIM_LOG="$out/tcg-cmd.log" SHIM_TCG="$mx500" SHIM_TCG_AFTER="$after" \
	SHIM_TCG_PSID="$psid" SHIM_BLOCK_DEV=8:900000 SHIM_DISK_IMAGE="$out/tcg-before.img" SHIM_DISK_IMAGE_AFTER="$out/tcg-after.img" \
	SHIM_LOG_FULL=1 SHIM_DELAY_CMD=5e SHIM_DELAY_MS=700 "${preload[@]}" "$asan" "$H" $yes --tcg-psid-revert - /dev/null \
	> "$out/tcg-cmd.out" 2> "$out/tcg-cmd.err" &
pid=$!
until_true 10 grep -qs '^cdb: .* 5e 00$' "$out/tcg-cmd.log"	# in the revert: its first TRUSTED SEND held 700 ms
cmdline=$(tr '\0' ' ' < /proc/"$pid"/cmdline 2> /dev/null)
wait_within 120 "$pid"
tokens "$out/tcg-cmd.log" > "$out/tcg-stdin.tokens"
[ "$rc" = 0 ] && [ -n "$cmdline" ] && [ "${cmdline/$psid/}" = "$cmdline" ] && cmp -s "$out/tcg-stdin.tokens" "$out/tcg-revert.tokens" &&
	grep -qx " Revert: SUCCESS, the drive's TCG state is its factory's; Locking now not enabled, not locked" "$out/tcg-cmd.out"
result $? "--tcg-psid-revert -: the PSID from standard input, not in /proc/PID/cmdline; the same calls, reverted" ||
	echo "  cmdline: $cmdline"
if command -v script > /dev/null; then
	rm -f "$out/tcg-cmd.log"
	{ until_true 20 grep -qs 'PSID (the 32' "$out/tcg-tty.out"; echo "$psid"; } | script -qec "env SHIM_IDENTIFY=$identify SHIM_LOG=$out/tcg-cmd.log SHIM_TCG=$mx500 \
		SHIM_TCG_AFTER=$after SHIM_TCG_PSID=$psid SHIM_BLOCK_DEV=8:900000 SHIM_DISK_IMAGE=$out/tcg-before.img \
		SHIM_DISK_IMAGE_AFTER=$out/tcg-after.img SHIM_LOG_FULL=1 ${preload[*]} $asan $H $yes --tcg-psid-revert /dev/null" \
		/dev/null > "$out/tcg-tty.out" 2>&1
	rc=$?
	tokens "$out/tcg-cmd.log" > "$out/tcg-tty.tokens"
	[ "$rc" = 0 ] && grep -q "PSID (the 32 characters on the drive's label, without dashes): " "$out/tcg-tty.out" &&
		! grep -q "$psid" "$out/tcg-tty.out" && cmp -s "$out/tcg-tty.tokens" "$out/tcg-revert.tokens"
	result $? "no PSID given, on a terminal: asked for, not echoed; the same calls, reverted" || tr '\r' '\n' < "$out/tcg-tty.out" | head -n 5 | sed 's/^/  /'
else
	echo "skip tcg: script (util-linux) is not installed"
fi
# SIGTERM or SIGHUP while the session is open (StartSession's TRUSTED SEND takes 3 s in the double):
# no Revert is sent, the session is ended (END OF SESSION), the record says interrupted, exit 4.
# The calls sent are the first two of the revert above (sedutil's), then END OF SESSION.
head -n 2 "$out/tcg-revert.tokens" > "$out/tcg-int.want"
echo "0888 EOS" >> "$out/tcg-int.want"
for sig in TERM HUP; do
	rm -f "$out/tcg-cmd.log" "$out/tcg-int.json"
	env SHIM_IDENTIFY="$identify" SHIM_LOG="$out/tcg-cmd.log" SHIM_TCG="$mx500" SHIM_TCG_AFTER="$after" \
		SHIM_TCG_PSID="$psid" SHIM_BLOCK_DEV=8:900000 SHIM_DISK_IMAGE="$out/tcg-before.img" \
		SHIM_DISK_IMAGE_AFTER="$out/tcg-after.img" SHIM_LOG_FULL=1 SHIM_DELAY_CMD=5e SHIM_DELAY_MS=3000 \
		"${preload[@]}" "$asan" "$H" $yes --tcg-psid-revert "$psid" --erase-record "$out/tcg-int.json" /dev/null \
		> "$out/tcg-cmd.out" 2> "$out/tcg-cmd.err" &
	pid=$!
	for _ in $(seq 100); do
		[ "$(grep -cs '^cdb: .* 5e 00$' "$out/tcg-cmd.log")" = 2 ] && break
		sleep 0.1
	done
	kill -s "$sig" "$pid"
	wait_within 120 "$pid"
	tokens "$out/tcg-cmd.log" > "$out/tcg-int.tokens"
	[ "$rc" = 4 ] && cmp -s "$out/tcg-int.tokens" "$out/tcg-int.want" &&
		grep -q 'StartSession: interrupted .*; nothing was reverted$' "$out/tcg-cmd.err" &&
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
assert r["outcome"] == "interrupted" and r["exit_status"] == 4, r' "$out/tcg-int.json"
	result $? "SIG$sig with the session open: no Revert sent, END OF SESSION, the record says interrupted, exit 4" ||
		{ diff "$out/tcg-int.want" "$out/tcg-int.tokens" | sed 's/^/  /'; sed 's/^/  stderr: /' "$out/tcg-cmd.err" | head -n 3; }
done
# SUCCESS, yet every block reads as before: said plainly.
revert SHIM_TCG_REVERT_KEEPS=1 -- $yes --tcg-psid-revert "$psid"
[ "$rc" = 5 ] && grep -q 'read as they did before it .*: the erase did not change them' "$out/tcg-cmd.out"
result $? "a revert that left the blocks readable and unchanged: said, exit 5"
revert SHIM_TCG_REVERT_KEEPS=1 -- --json $yes --tcg-psid-revert "$psid"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
assert d["tcg_psid_revert"]["reverted"] and d["erase_check"][0]["verdict"] == "unchanged", d["erase_check"]' "$out/tcg-cmd.out" 2> "$out/tcg-json.err"
result $? "the same in --json: reverted, and the erase_check verdict unchanged" || sed 's/^/  /' "$out/tcg-json.err" | tail -n 3
# Refusals: no confirmation, an Enterprise SSC drive, a drive without TCG; nothing sent in each.
revert -- --tcg-psid-revert "$psid"
[ "$rc" = 1 ] && ! grep -q ' 5[ce] 00$' "$out/tcg-cmd.log" && grep -q 'yes-i-know-what-i-am-doing' "$out/tcg-cmd.err"
result $? "without --yes-i-know-what-i-am-doing: refused, nothing sent"
revert SHIM_TCG="$top/tests/tcg/enterprise-sas.txt" -- $yes --tcg-psid-revert "$psid"
[ "$rc" = 95 ] && ! grep -q ' 5e 00$' "$out/tcg-cmd.log" && [ "$(grep -c . "$out/tcg-cmd.err")" = 1 ] &&
	grep -q 'Enterprise SSC drive: its standard defines neither a PSID authority nor Revert' "$out/tcg-cmd.err"
result $? "an Enterprise SSC drive: refused in one line, nothing sent"
run SHIM_SCSI=1 -- $yes --tcg-psid-revert "$psid"
[ "$rc" = 95 ] && ! grep -q '^cdb: b5' "$out/tcg-cmd.log" && grep -q 'tcg-psid-revert: refused, nothing sent: this SCSI disk refused SECURITY PROTOCOL IN' "$out/tcg-cmd.err"
result $? "a SCSI disk without security protocols: refused, nothing sent"
# The other transports: SECURITY PROTOCOL OUT and NVMe Security Send.
revert SHIM_SCSI=1 -- $yes --tcg-psid-revert "$psid"
# SPC-4 6.31: B5h, the protocol, SP SPECIFIC (2 bytes), INC_512 0, TRANSFER LENGTH (4 bytes, bytes 6-9).
[ "$rc" = 0 ] && [ "$(grep -c '^cdb: b5 01 08 88 00 00 00 00 02 00 00 00$' "$out/tcg-cmd.log")" = 3 ]
result $? "SCSI: three SECURITY PROTOCOL OUT of protocol 01h, ComID 0888h, 512 bytes; reverted"
revert SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_OACS=1 SHIM_BLOCK_DEV=259:900000 -- $yes --tcg-psid-revert "$psid"
# NVMe Base 2.0 5.23: Security Send 81h, CDW10 SECP 31:24, SPSP 23:8; CDW11 the transfer length.
[ "$rc" = 0 ] && [ "$(grep -c '^nvme-admin: 81 00 00 00 00 00 88 08 01 00 02 00 00$' "$out/tcg-cmd.log")" = 3 ]
result $? "NVMe: three Security Send 81h, NSID 0, CDW10 01088800h, CDW11 512; reverted" || grep -m3 '^nvme-admin: 8' "$out/tcg-cmd.log"
# Many disks: one refused (it does not open) stops the run before anything goes to any of them.
rm -f "$out/tcg-cmd.log"
env SHIM_IDENTIFY="$identify" SHIM_LOG="$out/tcg-cmd.log" SHIM_TCG="$mx500" SHIM_TCG_PSID="$psid" SHIM_BLOCK_DEV=8:900000 \
	"${preload[@]}" "$asan" "$H" $yes --tcg-psid-revert "$psid" /dev/null "$out/no-such-disk" /dev/zero \
	> "$out/tcg-cmd.out" 2> "$out/tcg-cmd.err"
rc=$?
touch "$out/tcg-cmd.log"
[ "$rc" = 125 ] && ! grep -q ' 5e 00$' "$out/tcg-cmd.log" &&
	[ "$(grep -c "was refused, so nothing was sent to any disk" "$out/tcg-cmd.err")" = 2 ]
result $? "three disks, one refused: no TRUSTED SEND to any, the others say why"
# The record: technique tcg_psid_revert, against the schema.
rm -f "$out/tcg-record.json"
revert -- $yes --tcg-psid-revert "$psid" --erase-record "$out/tcg-record.json"
python3 -c 'import json, sys
import jsonschema
r = json.load(open(sys.argv[1]))
jsonschema.validate(r, json.load(open(sys.argv[2])))
assert r["erase"]["technique"] == "tcg_psid_revert" and r["erase"]["method"] is None, r["erase"]
assert r["exit_status"] == 0' "$out/tcg-record.json" "$top/erase-record.schema.json" 2> "$out/tcg-record.err"
result $? "--erase-record: a valid record, technique tcg_psid_revert" || tail -n 3 "$out/tcg-record.err" | sed 's/^/  /'
echo "end of suite"
