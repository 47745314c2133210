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
# PRELOAD=qemu: HDPARM is qemu-user running a cross build, and the double goes to the
# program it runs (QEMU_SET_ENV), not to qemu itself.
if [ "${PRELOAD:-}" = qemu ]; then preload=(QEMU_SET_ENV="LD_PRELOAD=$shim"); else preload=(LD_PRELOAD="$shim"); fi

# run ENV... -- ARGS...: hdparm on the double's SCSI disk; stdout, stderr and log in $out/scsi.*
run() {
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$out/scsi-cmd.log"
	env SHIM_SCSI=1 SHIM_LOG="$out/scsi-cmd.log" "${envs[@]}" "${preload[@]}" \
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
# Before a MODE SELECT, the page's changeable values: MODE SENSE (10) with PC (byte 2 bits 7:6) = 01b.
changeable='5a 08 48 00 00 00 00 00 80 00'
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

# --- a device's answers are input: lengths bounded, strings escaped (issue 26) ---
# Unit Serial Number (VPD 80h, SPC-4 7.8.15) whose PAGE LENGTH says 255: 259 bytes into a
# 256-byte allocation.  What arrived is read, no further: 8 bytes of serial, then 'S' padding.
run SHIM_SCSI_SERIAL_LEN=255 -- -I
check "-I: a serial page claiming 255 bytes is read within the 256 that came" 0 "*" \
	"Serial Number:      ZA1B2C3DSSSSSSSSSSSSSSSSSSSSSSSSSS" ""
if [ "$(grep -c 'Serial Number:' "$out/scsi-cmd.out")" = 1 ] && ! grep -q '[^ -~	]' "$out/scsi-cmd.out"; then
	echo "ok scsi: -I: the long serial prints as one line of printable text"
else
	echo "FAIL scsi: -I: the long serial prints as one line of printable text"
fi
run SHIM_SCSI_SERIAL_LEN=255 -- -i
check "-i: a serial page claiming 255 bytes" 0 "*" "SerialNo=ZA1B2C3DSSSS" ""
# Control characters in the serial (ESC [ 2 J clears a terminal): escaped as \xNN.
esc=$(printf 'AB\033[2J\007CD')
run SHIM_SCSI_SERIAL="$esc" -- -I
check "-I: control characters in the serial are escaped" 0 "*" 'Serial Number:      AB\x1b[2J\x07CD' ""
if ! grep -q "$(printf '\033')" "$out/scsi-cmd.out"; then
	echo "ok scsi: -I: no escape byte reaches stdout"
else
	echo "FAIL scsi: -I: no escape byte reaches stdout"
fi
run SHIM_SCSI_SERIAL="$esc" -- -i
check "-i: control characters in the serial are escaped" 0 "*" 'SerialNo=AB\x1b[2J\x07CD' ""
run SHIM_SCSI_SERIAL="$esc" -- --json -i
check "--json -i: the escaped serial" 0 "*" '"serial_number": "AB\\x1b[2J\\x07CD"' ""

# --- the kernel's view of the disk: a sysfs of one disk, /dev/null as its block device 8:0 ---
# sysfs_tree NAME DRIVER CACHE_TYPE WRITE_CACHE: the layout the kernel gives a SCSI disk
# (Documentation/ABI: /sys/dev/block/M:m links to the disk, its "device" to the SCSI device
# H:C:T:L, sd's class folder scsi_disk/H:C:T:L holds cache_type); DRIVER is bound to the USB
# interface above the SCSI host ("" for none); CACHE_TYPE "no" leaves sd's folder out.
sysfs_tree() {
	local root="$out/sysfs-$1" usb=sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0
	local sdev="$root/$usb/host6/target6:0:0/6:0:0:0"
	rm -rf "$root"
	mkdir -p "$sdev/block/sdz/queue" "$root/sys/dev/block" "$root/sys/bus/scsi/drivers/sd"
	ln -s ../../../6:0:0:0 "$sdev/block/sdz/device"
	ln -s "../../../../../../../../../bus/scsi/drivers/sd" "$sdev/driver"
	ln -s "../../${usb#sys/}/host6/target6:0:0/6:0:0:0/block/sdz" "$root/sys/dev/block/8:0"
	if [ -n "$2" ]; then
		mkdir -p "$root/sys/bus/usb/drivers/$2"
		ln -s "../../../../../../bus/usb/drivers/$2" "$root/$usb/driver"
		# The USB device above the interface: a JMicron bridge.
		echo 152d > "$root/${usb%/*}/idVendor"
		echo 0578 > "$root/${usb%/*}/idProduct"
	fi
	if [ "$3" != no ]; then
		mkdir -p "$sdev/scsi_disk/6:0:0:0"
		echo "$3" > "$sdev/scsi_disk/6:0:0:0/cache_type"
	fi
	echo "$4" > "$sdev/block/sdz/queue/write_cache"
	echo "$sdev"
}
# -W1 where sd has cache_type: the kernel is asked, and sends the MODE SELECT itself; we send none.
sdev=$(sysfs_tree sd "" "write through" "write back")
run SHIM_SCSI_WCE=0 SHIM_SYSFS="$out/sysfs-sd" SHIM_BLOCK_DEV=8:0 -- -q -W1
check "-W1: through sd's cache_type, no MODE SELECT of ours" 0 "$probe;$sense_caching;$changeable" "" ""
if [ "$(cat "$sdev/scsi_disk/6:0:0:0/cache_type")" = "write back" ]; then
	echo "ok scsi: -W1: cache_type was written \"write back\""
else
	echo "FAIL scsi: -W1: cache_type was written \"write back\" (it holds: $(cat "$sdev/scsi_disk/6:0:0:0/cache_type"))"
fi
# -W0: the cache is synchronized first, then cache_type "write through".
sdev=$(sysfs_tree sd "" "write back" "write through")
run SHIM_SYSFS="$out/sysfs-sd" SHIM_BLOCK_DEV=8:0 -- -q -W0
check "-W0: SYNCHRONIZE CACHE, then sd's cache_type" 0 "$probe;$sense_caching;$changeable;$sync" "" ""
[ "$(cat "$sdev/scsi_disk/6:0:0:0/cache_type")" = "write through" ] && echo "ok scsi: -W0: cache_type was written \"write through\"" ||
	echo "FAIL scsi: -W0: cache_type was written \"write through\""
# The kernel does not follow (queue/write_cache still says write through after -W1): an error.
sysfs_tree sd "" "write through" "write through" > /dev/null
run SHIM_SCSI_WCE=0 SHIM_SYSFS="$out/sysfs-sd" SHIM_BLOCK_DEV=8:0 -- -q -W1
check "-W1: the kernel still says write through: failure" 5 "*" "" \
	'-W1: the disk'"'"'s write cache is now on, but the kernel still has it as "write through"'
sysfs_tree sd "" "write back" "write back" > /dev/null
run SHIM_SYSFS="$out/sysfs-sd" SHIM_BLOCK_DEV=8:0 -- -q -W0
check "-W0: the kernel still says write back: failure that names fsync" 5 "*" "" \
	'fsync is not durable until that is "write through"'
# No sd class folder (another driver, an old kernel): our MODE SELECT, then a rescan of the device.
sdev=$(sysfs_tree nosd "" no "write back")
run SHIM_SCSI_WCE=0 SHIM_SYSFS="$out/sysfs-nosd" SHIM_BLOCK_DEV=8:0 -- -q -W1
check "-W1 without cache_type: MODE SELECT, then a rescan" 0 "$probe;$sense_caching;$changeable;$select_caching;$caching_wce1" "" ""
[ "$(cat "$sdev/rescan" 2> /dev/null)" = 1 ] && echo "ok scsi: -W1 without cache_type: device/rescan was written 1" ||
	echo "FAIL scsi: -W1 without cache_type: device/rescan was written 1"
# An sg node (/dev/null is the character device 1:3): /sys/dev/char/1:3/device is the same SCSI
# device, so sd's cache_type is written; the disk's queue is under device/block/.
sg_tree() { # CACHE_TYPE WRITE_CACHE
	local sdev
	sdev=$(sysfs_tree sg "" "$1" "$2")
	mkdir -p "$out/sysfs-sg/sys/dev/char/1:3"
	ln -s "../../../../${sdev#"$out/sysfs-sg/"}" "$out/sysfs-sg/sys/dev/char/1:3/device"
	echo "$sdev"
}
sdev=$(sg_tree "write through" "write back")
run SHIM_SCSI_WCE=0 SHIM_SYSFS="$out/sysfs-sg" -- -q -W1
check "-W1 through an sg node: sd's cache_type, no MODE SELECT of ours" 0 "$probe;$sense_caching;$changeable" "" ""
[ "$(cat "$sdev/scsi_disk/6:0:0:0/cache_type")" = "write back" ] && echo "ok scsi: -W1 through an sg node: cache_type was written \"write back\"" ||
	echo "FAIL scsi: -W1 through an sg node: cache_type was written \"write back\""
sg_tree "write through" "write through" > /dev/null
run SHIM_SCSI_WCE=0 SHIM_SYSFS="$out/sysfs-sg" -- -q -W1
check "-W1 through an sg node: the disk's queue still says write through: failure" 5 "*" "" \
	'but the kernel still has it as "write through" (/sys/dev/char/1:3/device/block/sdz/queue/write_cache)'
# A USB bridge (usb-storage or uas bound above the SCSI host): what the sd driver sends there.
# READ CAPACITY (10) (SBC-3 5.15) first; (16) only when (10) says FFFFFFFFh.
readcap10='25 00 00 00 00 00 00 00 00 00'
# MODE SENSE (10) of all pages (3Fh), ALLOCATION LENGTH 192 (00c0h), as sd asks at every probe.
sense_all='5a 08 3f 00 00 00 00 00 c0 00'
for drv in usb-storage uas; do
	sysfs_tree "$drv" "$drv" "write back" "write back" > /dev/null
	run SHIM_SCSI_BLOCKS=1000000 SHIM_SYSFS="$out/sysfs-$drv" SHIM_BLOCK_DEV=8:0 -- -W
	check "$drv: -W asks all mode pages in 192 bytes" 0 "$probe;$sense_all" " write-caching =  1 (on)" ""
	run SHIM_SCSI_BLOCKS=1000000 SHIM_SYSFS="$out/sysfs-$drv" SHIM_BLOCK_DEV=8:0 -- --read-sector 5
	check "$drv: --read-sector: READ CAPACITY (10) alone" 0 "$probe;$readcap10;88 00 00 00 00 00 00 00 00 05 00 00 00 01 00 00" \
		"reading sector 5: succeeded" ""
done
# An ATA-only option behind uas: the refusal says how to try usb-storage for this enclosure.
run SHIM_SYSFS="$out/sysfs-uas" SHIM_BLOCK_DEV=8:0 -- -B 128
check "uas: -B refused, with the usb-storage quirk for 152d:0578" 95 "$probe" "" \
	"some USB bridges pass ATA commands only under usb-storage (boot with usb-storage.quirks=152d:0578:u"
run SHIM_SYSFS="$out/sysfs-usb-storage" SHIM_BLOCK_DEV=8:0 -- -B 128
if [ "$rc" = 95 ] && grep -q 'needs an ATA drive' "$out/scsi-cmd.err" && ! grep -q 'quirks' "$out/scsi-cmd.err"; then
	echo "ok scsi: usb-storage: -B refused, no quirk to suggest"
else
	echo "FAIL scsi: usb-storage: -B refused, no quirk to suggest (exit $rc)"
fi
run SHIM_SYSFS="$out/sysfs-uas" SHIM_BLOCK_DEV=8:0 -- --read-sector 5
check "uas: a disk too large for READ CAPACITY (10) is asked (16) too" 0 \
	"$probe;$readcap10;$readcap;88 00 00 00 00 00 00 00 00 05 00 00 00 01 00 00" "reading sector 5: succeeded" ""
run SHIM_SCSI_BLOCKS=1000000 SHIM_SYSFS="$out/sysfs-sd" SHIM_BLOCK_DEV=8:0 -- --read-sector 5
check "not behind USB: READ CAPACITY (16)" 0 "$probe;$readcap;88 00 00 00 00 00 00 00 00 05 00 00 00 01 00 00" "" ""
# A capacity that contradicts the kernel's size of the block device is an error, not a range.
run SHIM_SCSI_BLOCKS=1000000 SHIM_BLKSIZE=$((1000001 * 512)) SHIM_SYSFS="$out/sysfs-usb-storage" SHIM_BLOCK_DEV=8:0 -- --read-sector 1000000
check "--read-sector: READ CAPACITY one block short of the kernel's size: refused" 5 "$probe;$readcap10" "" \
	"the disk reports 1000000 blocks of 512 bytes, but the kernel sees 512000512 bytes"
run SHIM_SCSI_BLOCKS=1000000 SHIM_BLKSIZE=$((1000000 * 512)) SHIM_SYSFS="$out/sysfs-usb-storage" SHIM_BLOCK_DEV=8:0 -- --read-sector 999999
check "--read-sector: READ CAPACITY agrees with the kernel: read" 0 "*" "reading sector 999999: succeeded" ""

# --- caches, flush, power ---
run -- -W
check "-W: WCE of the caching page" 0 "$probe;$sense_caching" " write-caching =  1 (on)" ""
run SHIM_SCSI_WCE=0 -- -W
check "-W: WCE off" 0 "$probe;$sense_caching" " write-caching =  0 (off)" ""
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
# MODE SELECT by the book (SPC-4 7.5.5, as the sd driver sends it): a header whose
# DEVICE-SPECIFIC PARAMETER came back with WP and DPOFUA set (90h) goes out with it 0.
run SHIM_SCSI_DEVSPEC=0x90 -- -q -A0
check "-A0: WP and DPOFUA of the header cleared in MODE SELECT" 0 \
	"$probe;$sense_caching;$changeable;$select_caching;$caching_dra1" "" ""
# Only 10 of the caching page's 20 bytes arrive (resid), though its PAGE LENGTH says 12h:
# refused, nothing padded with zeros, no MODE SELECT.
run SHIM_SCSI_CACHING_CUT=10 -- -W0
check "-W0 with a caching page cut short: refused, no MODE SELECT (then the read-back, refused too)" 5 "$probe;$sense_caching;$sense_caching" "" \
	"the disk returned 10 of the 20 bytes of its mode page 0x08 (not sent back)"
run SHIM_SCSI_CACHING_CUT=10 -- -A0
check "-A0 with a caching page cut short: refused, no MODE SELECT (then the read-back, refused too)" 5 "$probe;$sense_caching;$sense_caching" "" \
	"the disk returned 10 of the 20 bytes of its mode page 0x08"
run SHIM_SCSI_CACHING_CUT=3 -- -W
check "-W with 3 bytes of the caching page: not read beyond them" 5 "$probe;$sense_caching" " write-caching = not supported" \
	"the disk returned 3 of the 20 bytes"
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
# READ (16) that ends GOOD with nothing transferred (resid 512): a failure, no dump.
run SHIM_SCSI_READ_RESID=512 -- --read-sector 5
check "--read-sector: a READ (16) with full resid is FAILED" 5 "*" "reading sector 5: FAILED" "short read: 0 of 512 bytes"
if ! grep -q '5a5a' "$out/scsi-cmd.out"; then echo "ok scsi: --read-sector: no dump of the untouched buffer"; else echo "FAIL scsi: --read-sector: no dump of the untouched buffer"; fi
run SHIM_SCSI_READ_RESID=12 -- --read-sector 5
check "--read-sector: a READ (16) 12 bytes short is FAILED" 5 "*" "reading sector 5: FAILED" "short read: 500 of 512 bytes"
run -- --read-sector 15628053168
check "--read-sector beyond the end: refused" 22 "$probe;$readcap" "" "beyond the end of the drive (15628053168 sectors)"
# UNMAP: PARAMETER LIST LENGTH bytes 7-8; data: UNMAP DATA LENGTH (n*16+6), BLOCK
# DESCRIPTOR DATA LENGTH (n*16), 4 reserved, then per range LBA (8), count (4), 4 reserved.
# INQUIRY with EVPD (byte 1 bit 0), PAGE CODE (byte 2), ALLOCATION LENGTH 256 (bytes 3-4):
# UNMAP needs LBPU in Logical Block Provisioning (B2h) and non-zero limits in Block Limits (B0h),
# both listed in Supported VPD Pages (00h).
vpd_unmap='12 01 00 01 00 00;12 01 b2 01 00 00;12 01 b0 01 00 00'
# Block Limits (VPD B0h) allow 2 descriptors an UNMAP here.
run -- --please-destroy-my-drive --trim-sector-ranges 10:5 20:3 100:2
check "--trim-sector-ranges: UNMAP, as many descriptors as the Block Limits allow" 0 \
	"$probe;$readcap;$vpd_unmap;42 00 00 00 00 00 00 00 28 00;data: 00 26 00 20 00 00 00 00 00 00 00 00 00 00 00 0a 00 00 00 05 00 00 00 00 00 00 00 00 00 00 00 14 00 00 00 03 00 00 00 00;42 00 00 00 00 00 00 00 18 00;data: 00 16 00 10 00 00 00 00 00 00 00 00 00 00 00 64 00 00 00 02 00 00 00 00" \
	"trimming 8 sectors from 2 ranges" ""
run SHIM_SCSI_UNMAP_BLOCKS=4 -- --please-destroy-my-drive --trim-sector-ranges 10:6
check "--trim-sector-ranges: a range longer than MAXIMUM UNMAP LBA COUNT is cut" 0 \
	"$probe;$readcap;$vpd_unmap;42 00 00 00 00 00 00 00 18 00;data: 00 16 00 10 00 00 00 00 00 00 00 00 00 00 00 0a 00 00 00 04 00 00 00 00;42 00 00 00 00 00 00 00 18 00;data: 00 16 00 10 00 00 00 00 00 00 00 00 00 00 00 0e 00 00 00 02 00 00 00 00" \
	"" ""
run -- --trim-sector-ranges 10:5
check "--trim-sector-ranges without its flag: nothing sent" 1 "$probe" "" "--please-destroy-my-drive"
run SHIM_SCSI_NOTHIN=1 -- --please-destroy-my-drive --trim-sector-ranges 10:5
check "--trim-sector-ranges on a disk without provisioning: refused" 95 "$probe;$readcap" "" "does not support UNMAP"
# MAXIMUM UNMAP LBA COUNT or MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT 0: UNMAP is not implemented
# (SBC-3 6.6.4), whatever B2h says.  Refused, and no UNMAP sent.
run SHIM_SCSI_UNMAP_BLOCKS=0 -- --please-destroy-my-drive --trim-sector-ranges 10:5
check "--trim-sector-ranges: MAXIMUM UNMAP LBA COUNT 0 is no UNMAP" 95 "$probe;$readcap;$vpd_unmap" "" \
	"does not support UNMAP (its Block Limits page gives UNMAP a limit of 0: not implemented)"
run SHIM_SCSI_UNMAP_DESCRIPTORS=0 -- --please-destroy-my-drive --trim-sector-ranges 10:5
check "--trim-sector-ranges: MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT 0 is no UNMAP" 95 "$probe;$readcap;$vpd_unmap" "" \
	"does not support UNMAP"
run SHIM_SCSI_LACK=b2 -- --please-destroy-my-drive --trim-sector-ranges 10:5
check "--trim-sector-ranges: no Logical Block Provisioning page, no UNMAP" 95 "$probe;$readcap;12 01 00 01 00 00" "" \
	"does not support UNMAP (its Logical Block Provisioning page does not list UNMAP)"
run SHIM_SCSI_LACK=b0 -- --please-destroy-my-drive --trim-sector-ranges 10:5
check "--trim-sector-ranges: Block Limits not listed, so not asked for; no UNMAP" 95 \
	"$probe;$readcap;12 01 00 01 00 00;12 01 b2 01 00 00" "" "does not support UNMAP"
run SHIM_SCSI_UNMAP_BLOCKS=0 -- -I
check "-I: UNMAP with 0 limits is not supported" 0 "*" "Thin provisioning:     yes (UNMAP not supported)" ""
# Block Limits' PAGE LENGTH is 16 bits (bytes 2-3): 0100h is a page of 260 bytes, limits at 20-27.
run SHIM_SCSI_B0_LONG=1 -- --please-destroy-my-drive --trim-sector-ranges 10:5
check "--trim-sector-ranges: Block Limits with PAGE LENGTH 0100h" 0 \
	"$probe;$readcap;$vpd_unmap;42 00 00 00 00 00 00 00 18 00;data: 00 16 00 10 00 00 00 00 00 00 00 00 00 00 00 0a 00 00 00 05 00 00 00 00" \
	"trimming 5 sectors from 1 ranges" ""
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
env SHIM_REPLY=noregs SHIM_IDENTIFY="$page" SHIM_LOG="$out/scsi-cmd.log" "${preload[@]}" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	"$H" -C /dev/null > "$out/scsi-cmd.out" 2> "$out/scsi-cmd.err"
rc=$?
check "bridge without registers: -C says unknown, not standby" 5 "85 06 20 00 00 00 00 00 00 00 00 00 00 00 e5 00" \
	" drive state is:  unknown" "the bridge returned no registers"
echo "end of suite"
