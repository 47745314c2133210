#!/bin/bash
# SCSI disks without ATA pass-through, against the test double's SAS disk
# (tests/tools/sgio-shim.c, SHIM_SCSI=1).  The CDBs and parameter data
# wanted here are written from SPC-4 and SBC-3 (the field each byte is
# named in the comment), not from what hdparm sends.
# Usage: scsi-commands.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
shim="$out/sgio-shim-scsi.so"

if ! ${CC:-cc} -shared -fPIC -O2 -o "$shim" "$top/tests/tools/sgio-shim.c" -ldl; then
	echo "FAIL build tests/tools/sgio-shim.c"
	echo "end of suite"
	exit 0
fi

# run ENV... -- ARGS...: hdparm on the double's SCSI disk; stdout, stderr and log in $out/scsi.*
run() {
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$out/scsi-cmd.log"
	env SHIM_SCSI=1 SHIM_LOG="$out/scsi-cmd.log" "${envs[@]}" LD_PRELOAD="$shim" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$H" "$@" /dev/null > "$out/scsi-cmd.out" 2> "$out/scsi-cmd.err"
	rc=$?
	touch "$out/scsi-cmd.log"
}

# IDENTIFY DEVICE through ATA PASS-THROUGH (16), then (12): the probe that
# finds no SAT layer.  Both are refused (ILLEGAL REQUEST, invalid opcode).
probe='85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00;a1 08 0e 00 01 00 00 00 00 ec 00 00'

# check NAME EXIT CDBS STDOUT STDERR: the last run; CDBS is the whole log, lines joined by ';'
check() {
	local name=$1 want_rc=$2 want_log=$3 out_text=$4 err_text=$5 got
	got=$(sed 's/^cdb: //' "$out/scsi-cmd.log" | tr '\n' ';' | sed 's/;$//')
	if [ "$rc" = "$want_rc" ] && { [ "$want_log" = "*" ] || [ "$got" = "$want_log" ]; } &&
		{ [ -z "$out_text" ] || grep -qF -- "$out_text" "$out/scsi-cmd.out"; } &&
		{ [ -z "$err_text" ] || grep -qF -- "$err_text" "$out/scsi-cmd.err"; }; then
		echo "ok scsi: $name"
	else
		echo "FAIL scsi: $name (exit $rc, wanted $want_rc)"
		echo "  got:    $got"
		[ "$want_log" = "*" ] || echo "  wanted: $want_log"
		sed 's/^/  stdout: /' "$out/scsi-cmd.out" | head -5
		sed 's/^/  stderr: /' "$out/scsi-cmd.err" | head -5
	fi
}

# MODE SENSE (10): DBD=1, page code, ALLOCATION LENGTH 128 (bytes 7-8).
sense_caching='5a 08 08 00 00 00 00 00 80 00'
sense_power='5a 08 1a 00 00 00 00 00 80 00'
# MODE SELECT (10): PF=1, SP=0, PARAMETER LIST LENGTH = 8-byte header + the page.
select_caching='55 10 00 00 00 00 00 00 1c 00'
select_power='55 10 00 00 00 00 00 00 30 00'
# The caching page (08h, length 12h) after the header, whose MODE DATA LENGTH is reserved (0).
hdr='00 00 00 00 00 00 00 00'
caching_wce0="data: $hdr 08 12 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
caching_wce1="data: $hdr 08 12 04 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
caching_dra1="data: $hdr 08 12 04 00 00 00 00 00 00 00 00 00 20 00 00 00 00 00 00 00"
sync='35 00 00 00 00 00 00 00 00 00'
readcap='9e 10 00 00 00 00 00 00 00 00 00 00 00 20 00 00'

# --- identity ---
run -- -I
check "-I: identity from INQUIRY and VPD pages" 0 "*" "Model Number:       SEAGATE ST8000NM0075" ""
for want in "Serial Number:      ZA1B2C3D" "Firmware Revision:  E004" "Transport:          SAS" "Used: SPC-4" \
	"Logical  Sector size:                   512 bytes" "Physical Sector size:                  4096 bytes" \
	"LBA    user addressable sectors: 15628053168" \
	"device size with M = 1024*1024:     7630885 MBytes" "device size with M = 1000*1000:     8001563 MBytes (8001 GB)" \
	"Form Factor: 3.5 inch" "Nominal Media Rotation Rate: 7200" "Write cache:           enabled" \
	"Thin provisioning:     yes (UNMAP)" "Logical Unit WWN Device Identifier: 5000c500a1b2c3d4"; do
	check "-I: $want" 0 "*" "$want" ""
done
if grep -q 'cylinders\|HDIO\|sense data' "$out/scsi-cmd.out" "$out/scsi-cmd.err"; then
	echo "FAIL scsi: -I prints no ATA noise"
else
	echo "ok scsi: -I prints no ATA noise"
fi
run -- --verbose -I
if [ "$rc" = 0 ] && ! grep -q 'sense data' "$out/scsi-cmd.err"; then
	echo "ok scsi: --verbose -I: the probe's refusal is no news"
else
	echo "FAIL scsi: --verbose -I: the probe's refusal is no news (exit $rc)"
	head -n 3 "$out/scsi-cmd.err" | sed 's/^/  /'
fi
run SHIM_SCSI_LACK=80,83,b1 -- -I
if [ "$rc" = 0 ] && grep -q 'Model Number:' "$out/scsi-cmd.out" &&
	! grep -q 'Serial Number:\|Rotation Rate\|WWN' "$out/scsi-cmd.out"; then
	echo "ok scsi: -I without VPD 80h, 83h, B1h leaves their lines out"
else
	echo "FAIL scsi: -I without VPD 80h, 83h, B1h leaves their lines out (exit $rc)"
fi
run -- -i
check "-i: the one-line summary" 0 "*" " Model=SEAGATE ST8000NM0075, FwRev=E004, SerialNo=ZA1B2C3D" ""
run -- --Istdout
check "--Istdout refused: no IDENTIFY page" 95 "$probe" "" "is a SCSI disk without ATA pass-through: it has no IDENTIFY page"
run -- --Iraw "$out/scsi-cmd.raw"
check "--Iraw refused: no IDENTIFY page" 95 "$probe" "" "it has no IDENTIFY page"

run -- --json -I
if [ "$rc" = 0 ] && python3 - "$out/scsi-cmd.out" <<'EOF'
import json, sys
dev = json.load(open(sys.argv[1]))["devices"][0]
d = dict(dev["identify"], errors=dev["errors"])
want = {"device_type": "scsi", "scsi_vendor": "SEAGATE", "scsi_product": "ST8000NM0075",
        "scsi_model_name": "SEAGATE ST8000NM0075", "scsi_revision": "E004", "serial_number": "ZA1B2C3D",
        "user_capacity": {"blocks": 15628053168, "bytes": 15628053168 * 512},
        "logical_block_size": 512, "physical_block_size": 4096, "rotation_rate": 7200,
        "logical_unit_id": "0x5000c500a1b2c3d4", "errors": []}
bad = {k: d.get(k) for k in want if d.get(k) != want[k]}
sys.exit(1 if bad else 0)
EOF
then
	echo "ok scsi: --json -I: smartctl's SCSI keys"
else
	echo "FAIL scsi: --json -I: smartctl's SCSI keys (exit $rc)"
	head -c 600 "$out/scsi-cmd.out" | sed 's/^/  /'
fi

# --- caches, flush, power ---
run -- -W
check "-W: WCE of the caching page" 0 "$probe;$sense_caching" " write-caching =  1 (on)" ""
run SHIM_SCSI_WCE=0 -- -W
check "-W: WCE off" 0 "$probe;$sense_caching" " write-caching =  0 (off)" ""
# Before a MODE SELECT, the page's changeable values: MODE SENSE (10) with PC (byte 2 bits 7:6) = 01b.
changeable='5a 08 48 00 00 00 00 00 80 00'
run -- -q -W0
check "-W0: the changeable values, SYNCHRONIZE CACHE, then the page with WCE cleared" 0 \
	"$probe;$sense_caching;$changeable;$sync;$select_caching;$caching_wce0" "" ""
run SHIM_SCSI_WCE=0 -- -q -W1
check "-W1: the page with WCE set" 0 "$probe;$sense_caching;$changeable;$select_caching;$caching_wce1" "" ""
run -- -q -A0
check "-A0: the page with DRA set" 0 "$probe;$sense_caching;$changeable;$select_caching;$caching_dra1" "" ""
# A disk whose DRA cannot change (QEMU's scsi-hd lets only WCE change): -A0 says so and selects nothing;
# -A1 finds read-ahead on already and has nothing to send.
run SHIM_SCSI_FIXED_DRA=1 -- -A0
check "-A0 where DRA is not changeable: refused, no MODE SELECT; the query after it says on" 95 \
	"$probe;$sense_caching;$changeable;$sense_caching" " look-ahead    =  1 (on)" \
	"-A0: not supported by this disk (its caching mode page does not let DRA change)"
run SHIM_SCSI_FIXED_DRA=1 -- -q -A1
check "-A1 where DRA is not changeable and read-ahead is on: nothing to change" 0 "$probe;$sense_caching;$changeable" "" ""
# A disk that does not answer for its changeable values is sent the page all the same.
run SHIM_SCSI_NO_CHANGEABLE=1 -- -q -A0
check "-A0 where the changeable values are refused: the page with DRA set" 0 \
	"$probe;$sense_caching;$changeable;$select_caching;$caching_dra1" "" ""
run -- -A
check "-A: DRA of the caching page" 0 "$probe;$sense_caching" " look-ahead    =  1 (on)" ""
run -- -F
check "-F: SYNCHRONIZE CACHE (10)" 0 "$probe;$sync" "" ""
# START STOP UNIT: byte 4 = POWER CONDITION (7:4) | START (0).
run -- -y
check "-y: START STOP UNIT, power condition STANDBY" 0 "$probe;1b 00 00 00 30 00" " issuing standby command" ""
run -- -Y
check "-Y: START STOP UNIT, stop" 0 "$probe;1b 00 00 00 00 00" " issuing sleep command" ""
# REQUEST SENSE: ALLOCATION LENGTH 32; the power state in ASC 5Eh's ASCQ (SPC-4 table 51).
run -- -C
check "-C: no low-power condition: active/idle" 0 "$probe;03 00 00 00 20 00" " drive state is:  active/idle" ""
run SHIM_SCSI_STATE=0x02 -- -C
check "-C: standby condition activated by timer" 0 "*" " drive state is:  standby" ""
run SHIM_SCSI_STATE=0x04 -- -C
check "-C: standby condition activated by command" 0 "*" " drive state is:  standby" ""
run SHIM_SCSI_STATE=0x01 -- -C
check "-C: idle condition activated by timer" 0 "*" " drive state is:  idle" ""
run SHIM_SCSI_STATE=stopped -- -C
check "-C: stopped (initializing command required)" 0 "*" " drive state is:  standby" ""
# -S 241 = 30 minutes = 18000 (0x4650) units of 100 ms in the STANDBY_Z timer (bytes 8-11), STANDBY_Z set.
run SHIM_SCSI_POWER=1 -- -S 241
check "-S 241: the power condition page's standby timer" 0 \
	"$probe;$sense_power;$select_power;data: $hdr 1a 26 00 01 00 00 00 00 00 00 46 50 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00" \
	" setting standby to 241 (30 minutes)" ""
run SHIM_SCSI_POWER=1 -- -S 0
check "-S 0: STANDBY_Z cleared, timer 0" 0 \
	"$probe;$sense_power;$select_power;data: $hdr 1a 26 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00" "" ""
# -S 255 = 21 minutes 15 seconds (ATA's definition) = 12750 (0x31ce) units of 100 ms.
run SHIM_SCSI_POWER=1 -- -S 255
check "-S 255: 21 minutes 15 seconds in the standby timer" 0 \
	"$probe;$sense_power;$select_power;data: $hdr 1a 26 00 01 00 00 00 00 00 00 31 ce 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00" "" ""
# -S 253 (a vendor-specific period) and 254 (reserved) name no time: refused before any mode page is read.
for v in 253 254; do
	run SHIM_SCSI_POWER=1 -- -S $v
	check "-S $v: no time in seconds, refused, nothing sent" 22 "$probe" "" "-S $v: the value has no time in seconds"
done
run -- -S 120
check "-S without a power condition page: not supported" 95 "$probe;$sense_power" "" "-S: not supported by this disk"

# --- sectors ---
# READ (16): LOGICAL BLOCK ADDRESS bytes 2-9, TRANSFER LENGTH bytes 10-13.
run -- --read-sector 5
check "--read-sector: READ (16) of one block" 0 "$probe;$readcap;88 00 00 00 00 00 00 00 00 05 00 00 00 01 00 00" "reading sector 5: succeeded" ""
run -- --read-sector 15628053168
check "--read-sector beyond the end: refused" 22 "$probe;$readcap" "" "beyond the end of the drive (15628053168 sectors)"
# UNMAP: PARAMETER LIST LENGTH bytes 7-8; data: UNMAP DATA LENGTH (n*16+6), BLOCK
# DESCRIPTOR DATA LENGTH (n*16), 4 reserved, then per range LBA (8), count (4), 4 reserved.
# Block Limits (VPD B0h) allow 2 descriptors an UNMAP here.
run -- --please-destroy-my-drive --trim-sector-ranges 10:5 20:3 100:2
check "--trim-sector-ranges: UNMAP, as many descriptors as the Block Limits allow" 0 \
	"$probe;$readcap;12 01 b0 00 40 00;42 00 00 00 00 00 00 00 28 00;data: 00 26 00 20 00 00 00 00 00 00 00 00 00 00 00 0a 00 00 00 05 00 00 00 00 00 00 00 00 00 00 00 14 00 00 00 03 00 00 00 00;42 00 00 00 00 00 00 00 18 00;data: 00 16 00 10 00 00 00 00 00 00 00 00 00 00 00 64 00 00 00 02 00 00 00 00" \
	"trimming 8 sectors from 2 ranges" ""
run SHIM_SCSI_UNMAP_BLOCKS=4 -- --please-destroy-my-drive --trim-sector-ranges 10:6
check "--trim-sector-ranges: a range longer than MAXIMUM UNMAP LBA COUNT is cut" 0 \
	"$probe;$readcap;12 01 b0 00 40 00;42 00 00 00 00 00 00 00 18 00;data: 00 16 00 10 00 00 00 00 00 00 00 00 00 00 00 0a 00 00 00 04 00 00 00 00;42 00 00 00 00 00 00 00 18 00;data: 00 16 00 10 00 00 00 00 00 00 00 00 00 00 00 0e 00 00 00 02 00 00 00 00" \
	"" ""
run -- --trim-sector-ranges 10:5
check "--trim-sector-ranges without its flag: nothing sent" 1 "$probe" "" "--please-destroy-my-drive"
run SHIM_SCSI_NOTHIN=1 -- --please-destroy-my-drive --trim-sector-ranges 10:5
check "--trim-sector-ranges on a disk without provisioning: refused" 95 "$probe;$readcap" "" "does not support UNMAP"
run -- --please-destroy-my-drive --trim-sector-ranges 15628053160:9
check "--trim-sector-ranges beyond the end: refused" 22 "$probe;$readcap" "" "beyond the end of the drive"

# --- ATA-only options: refused before anything but the probe is sent ---
while read -r opt; do
	# shellcheck disable=SC2086
	run -- --yes-i-know-what-i-am-doing --please-destroy-my-drive $opt
	name=$(echo "${opt%% *}" | sed 's/^\(-[A-Za-z]\)[0-9]*$/\1/')
	check "$name: refused, nothing sent" 95 "$probe" "" "/dev/null is a SCSI disk without ATA pass-through: $name needs an ATA drive"
	if [ "$(grep -c 'needs an ATA drive' "$out/scsi-cmd.err")" != 1 ]; then
		echo "FAIL scsi: $name: refused once"
	fi
done <<'EOF'
-B 128
-M 128
-N 1000
-X udma5
-K1
-D1
-P 8
-J 30
-s1
-H
-Z
--idle-immediate
--idle-unload
--security-freeze
--security-unlock pw
--security-erase pw
--sanitize-status
--sanitize-block-erase
--dco-identify
--dco-restore
--make-bad-sector 100
--write-sector 100
--set-sector-size 4096
--drq-hsm-error
--fwdownload /dev/null
EOF

# --- a SAT bridge that returns no registers (it ignores CK_COND) ---
page="$top/tests/identify/pages/qemu-ahci-hdd.hex"
rm -f "$out/scsi-cmd.log"
env SHIM_REPLY=noregs SHIM_IDENTIFY="$page" SHIM_LOG="$out/scsi-cmd.log" LD_PRELOAD="$shim" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	"$H" -C /dev/null > "$out/scsi-cmd.out" 2> "$out/scsi-cmd.err"
rc=$?
check "bridge without registers: -C says unknown, not standby" 5 "85 06 20 00 00 00 00 00 00 00 00 00 00 00 e5 00" \
	" drive state is:  unknown" "the bridge returned no registers"
echo "end of suite"
