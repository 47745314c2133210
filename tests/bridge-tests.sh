#!/bin/bash
# Disks behind USB bridges (issue 66): which bridge (the table, -I's first line, --json's "bridge"),
# --bridge, SAT bridges that answer ATA PASS-THROUGH with nothing, and -d sat,12 bridges.  The disk
# is the test double (tests/tools/sgio-shim.c) under a sysfs tree made here: a USB device with
# idVendor/idProduct above the disk's SCSI host, usb-storage or uas bound to its interface.  What
# the table should say of an id is read from smartmontools' drive database (drivedb.h), not from
# ours; smartctl reads the same double where it applies.  Not run under qemu-user (cross-check.sh):
# nothing here is endian- or word-size-specific beyond what those suites cover.
# Usage: bridge-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
# A folder of its own: run-tests.sh keeps this suite's own log as OUTDIR/bridge.log, the double's name here.
out=$2/bridge
mkdir -p "$out"
top=$(cd "$(dirname "$0")/.." && pwd)
page="$top/tests/identify/pages/qemu-ahci-hdd.hex"
suite=bridge double_name=bridge
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
# shellcheck source=tests/tools/oracle.sh
. "$top/tests/tools/oracle.sh"

# shellcheck source=tests/tools/usb-sysfs.sh
. "$top/tests/tools/usb-sysfs.sh"
# usb_tree NAME DRIVER VID PID: a disk behind a USB bridge (tests/tools/usb-sysfs.sh) at $out/bridge-sysfs-NAME.
usb_tree() { usb_sysfs "$out/bridge-sysfs-$1" "$2" "$3" "$4" > /dev/null; }

# run TREE ENV... -- ARGS...: hdparm on the double's disk under the tree $out/bridge-sysfs-TREE.
run() {
	local tree=$1
	shift
	run_on_double bridge SHIM_SYSFS="$out/bridge-sysfs-$tree" SHIM_BLOCK_DEV=8:900000 "$@" /dev/null
}
# sent OPCODE: a CDB of that first byte went to the double in the last run.
sent() { grep -q "^cdb: $1 " "$out/bridge.log"; }
# bridge_json KEY=VALUE...: the last run's --json document's devices[0].bridge holds each (VALUE null: None).
bridge_json() {
	python3 - "$out/bridge.out" "$@" << 'EOF'
import json, sys
b = json.load(open(sys.argv[1]))["devices"][0].get("bridge") or {}
want = dict(a.split("=", 1) for a in sys.argv[2:])
bad = {k: b.get(k) for k, v in want.items() if b.get(k) != (None if v == "null" else True if v == "true" else False if v == "false" else v)}
if bad:
    print("  bridge: %s" % json.dumps(b))
    sys.exit(1)
EOF
}

# --- an ATA drive behind a SAT bridge of the table (JMicron JMS578, drivedb.h: -d sat) ---
usb_tree jms578 usb-storage 152d 0578
run jms578 SHIM_IDENTIFY="$page" -- -I
if [ "$rc" = 0 ] && [ "$(sed -n 3p "$out/bridge.out")" = "behind USB bridge 152d:0578: JMicron JMS578, ATA through SAT (ATA PASS-THROUGH), driver usb-storage" ]; then
	ok "-I: the bridge's line first: id, chip, what passes, driver"
else
	bad "-I: the bridge's line first: id, chip, what passes, driver (exit $rc)" "$(head -n 4 "$out/bridge.out" | tr '\n' '|')"
fi
# The drive behind it is read as smartctl -d sat reads the same double.
if oracle "$suite" smartctl; then
	theirs=$(env SHIM_IDENTIFY="$page" "${preload[@]}" smartctl -i -d sat /dev/null 2> /dev/null | sed -n 's/^Device Model: *//p')
	ours=$(sed -n 's/^\tModel Number: *//p' "$out/bridge.out" | sed 's/ *$//')
	if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
		ok "-I behind the bridge: the model smartctl -d sat reads ($ours)"
	else
		bad "-I behind the bridge: the model smartctl -d sat reads" "ours: '$ours', smartctl: '$theirs'"
	fi
fi
run jms578 SHIM_IDENTIFY="$page" -- --json -I
bridge_json usb_vendor_id=152d usb_product_id=0578 driver=usb-storage "chip=JMicron JMS578" protocol=sat forced=false &&
	ok "--json: the device's bridge object" || bad "--json: the device's bridge object (exit $rc)"
run jms578 SHIM_IDENTIFY="$page" -- --json -C
bridge_json protocol=sat && ok "--json -C: the bridge object too (no command of its own)" ||
	bad "--json -C: the bridge object too"

# --- QEMU's usb-storage id, in no table: named, no vendor command, and said so ---
usb_tree qemu usb-storage 46f4 0001
run qemu SHIM_IDENTIFY="$page" -- -I
expect_run bridge "an id in no table: -I says no vendor command is sent" 0 \
	"behind USB bridge 46f4:0001: in no bridge table, so no vendor command is sent to it, ATA through SAT (ATA PASS-THROUGH), driver usb-storage" ""
run qemu SHIM_IDENTIFY="$page" -- --json -I
bridge_json usb_vendor_id=46f4 usb_product_id=0001 chip=null protocol=sat && ok "--json: an id in no table: chip null" ||
	bad "--json: an id in no table: chip null"
# No vendor CDB went to it: none of SPC's vendor-specific opcodes (C0h-FFh: ASMedia's E6h, Realtek's
# E4h/E5h) nor JMicron's ATA PASS-THROUGH (12) with 80h in byte 1; the TRIM over USB block's READ
# CAPACITY (16) and INQUIRY are standard SCSI.
if [ -n "$(sed -n 's/^cdb: //p' "$out/bridge.log" | grep '^\(85\|a1\) ')" ] &&
	[ -z "$(sed -n 's/^cdb: //p' "$out/bridge.log" | grep -i '^\([c-f][0-9a-f]\|a1 80\) ')" ]; then
	ok "an id in no table: no vendor command sent"
else
	bad "an id in no table: no vendor command sent" "$(tr '\n' '|' < "$out/bridge.log")"
fi

# An idVendor that is not the kernel's four hex digits (a terminal's escape in it): the id counts as unread,
# no byte of it printed, no row looked up.
usb_tree garbage usb-storage "$(printf '15\033[2J')" 0583
run garbage SHIM_IDENTIFY="$page" -- -I
if [ "$rc" = 0 ] && grep -qxF "behind USB bridge (its ID unread): in no bridge table, so no vendor command is sent to it, ATA through SAT (ATA PASS-THROUGH), driver usb-storage" "$out/bridge.out" &&
	! grep -q "$(printf '\033')" "$out/bridge.out"; then
	ok "an idVendor not in hex: the id unread, nothing of it printed"
else
	bad "an idVendor not in hex: the id unread (exit $rc)" "$(sed -n 3p "$out/bridge.out" | od -c | head -n 3)"
fi
run garbage SHIM_IDENTIFY="$page" -- --json -C
bridge_json usb_vendor_id=null usb_product_id=null chip=null && ok "--json: an unread id is null" || bad "--json: an unread id is null"

# An id the kernel would not write (a line longer than four hex digits) is not cut down to a table's id:
# 152dzzz/0583 is not JMicron's JMS583, nor 152d0578/0583000 152d:0583.
for v in 152dzzz:0583 152d0578:0583000 152d:0583x; do
	usb_tree long usb-storage "${v%:*}" "${v#*:}"
	run long SHIM_IDENTIFY="$page" -- --json -C
	bridge_json usb_vendor_id=null usb_product_id=null chip=null protocol=sat && ok "idVendor:idProduct $v: the id unread, no row" ||
		bad "idVendor:idProduct $v: the id unread, no row" "$(head -c 400 "$out/bridge.out")"
done

# --- a -d sat,12 bridge (VIA VL700): the 12-byte command, never the 16-byte one ---
usb_tree vl700 uas 2109 0700
run vl700 SHIM_IDENTIFY="$page" -- -I
if [ "$rc" = 0 ] && sent a1 && ! sent 85 && grep -qF "VIA VL700, ATA through SAT, 12-byte ATA PASS-THROUGH only" "$out/bridge.out"; then
	ok "a 12-byte-only bridge: ATA PASS-THROUGH (12) alone, and -I says so"
else
	bad "a 12-byte-only bridge: ATA PASS-THROUGH (12) alone (exit $rc)" "$(sed -n 's/^cdb: //p' "$out/bridge.log" | cut -c1-2 | tr '\n' ' ')"
fi

# --- the table against drivedb.h: each id's -d type is smartmontools' (the issue's ids and common SAT ones) ---
# smartmontools 7.5's database (../shared/oracles), else the system's (7.3): an id that the database
# holds only under a vendor-wide pattern (0x174c:0x....) is left out, as the table holds exact ids alone.
drivedb=/usr/share/smartmontools/drivedb.h
tarball="$top/../shared/oracles/smartmontools-RELEASE_7_5.tar.xz"
[ -r "$tarball" ] || tarball="$top/../../shared/oracles/smartmontools-RELEASE_7_5.tar.xz"	# from a worktree
if [ -r "$tarball" ] && tar -xJOf "$tarball" smartmontools-RELEASE_7_5/drivedb.h > "$out/bridge-drivedb.h" 2> /dev/null; then
	drivedb="$out/bridge-drivedb.h"
fi
ids="152d:0583 152d:a583 152d:b581 174c:2362 174c:2364 04e8:4001 04e8:61fd 0781:55ae 1058:266e 0bda:9210 0bda:9211
2eb9:9211 0bda:9220 1de1:e101 152d:0578 0080:0578 152d:0567 152d:2567 152d:0539 152d:1561 2109:0715 2109:0711
2109:0701 0bda:9201 174d:1352 1759:5002 04e8:61f5 2109:0700 13fd:1640 0bc2:3008 0951:177f 18a5:0237"
if [ ! -r "$drivedb" ]; then
	echo "skip $suite: the table against drivedb.h: no drive database here (package smartmontools)"
else
	# Each entry: { "USB: ...", "ID-REGEX", "FW-REGEX", "WARNING", "PRESETS" }, strings maybe split, comments out.
	# shellcheck disable=SC2086
	python3 - "$drivedb" $ids > "$out/bridge-want.txt" << 'EOF'
import re, sys
src = open(sys.argv[1]).read()
entries = []
for m in re.finditer(r'\{\s*"USB:[^"]*",(.*?)\n\s*\}', src, re.S):
    entries.append(["".join(re.findall(r'"((?:[^"\\]|\\.)*)"', re.sub(r'//[^\n]*', '', part)))
                    for part in re.split(r',\s*(?://[^\n]*)?\n', m.group(1))])
for id in sys.argv[2:]:
    vid, pid = id.split(":")
    for strs in entries:
        if strs and re.fullmatch(strs[0], "0x%s:0x%s" % (vid, pid)):
            if not strs[0].endswith("0x....") and strs[-1].startswith("-d "):
                print(id, strs[-1][3:])
            break
EOF
	n=0 wrong=()
	while read -r id want; do
		n=$((n + 1))
		proto=${want%%/*}
		proto=${proto%%,*}
		usb_tree table uas "${id%:*}" "${id#*:}"
		run table SHIM_IDENTIFY="$page" -- --json -I
		# A chip that takes NVMe or SATA (the table's JMS581, RTL9211, RTL9220): its tunnel is asked first
		# (its vendor CDB sent: the table names the tunnel), and the double, a SATA drive, answers it with
		# no NVMe page: SAT passes.
		case $proto in
		sntjmicron) vendor=a1 ;;
		sntrealtek) vendor=e4 ;;
		*) vendor= ;;
		esac
		if [ -n "$vendor" ] && sent "$vendor" && ! bridge_json protocol="$proto" > /dev/null; then
			bridge_json protocol=sat > /dev/null || wrong+=("$id: drivedb -d $want, the SATA drive behind it not SAT")
		else
			bridge_json protocol="$proto" > /dev/null || wrong+=("$id: drivedb -d $want")
		fi
		# sat,12: the 12-byte command alone.
		if [ "$want" = sat,12 ] && ! { sent a1 && ! sent 85; }; then wrong+=("$id: -d sat,12, yet ATA_16 was sent"); fi
	done < "$out/bridge-want.txt"
	if [ "$n" -ge 10 ] && [ ${#wrong[@]} = 0 ]; then
		ok "the table against drivedb.h: $n ids, each its -d type"
	else
		bad "the table against drivedb.h ($n ids found in $drivedb)" "${wrong[@]}"
	fi
fi

# --- a SAT layer that answers with nothing: the bridge's limit, not a broken drive ---
# The double's disk is a SCSI disk (SHIM_SCSI) whose ATA PASS-THROUGH gives SHIM_REPLY's nothing.
for how in zeros nosense aborted; do
	case $how in
	zeros) said="the bridge answered IDENTIFY DEVICE with 512 bytes of zeros: the bridge's limit, not the drive's" ;;
	*) said="the bridge answered IDENTIFY DEVICE with a CHECK CONDITION that SAT does not define" ;;
	esac
	run jms578 SHIM_SCSI=1 SHIM_REPLY=$how -- -I
	if [ "$rc" = 0 ] && grep -qF "$said" "$out/bridge.out" && grep -q 'Model Number: *SEAGATE ST8000NM0075' "$out/bridge.out" &&
		[ "$(grep -c '^cdb: \(85\|a1\) ' "$out/bridge.log")" -le 2 ] && ! grep -q 'cylinders\|ATA device' "$out/bridge.out"; then
		ok "ATA PASS-THROUGH answered with $how: said as the bridge's limit, the disk read as SCSI"
	else
		bad "ATA PASS-THROUGH answered with $how: said as the bridge's limit (exit $rc)" "$(head -n 6 "$out/bridge.out" | tr '\n' '|')"
	fi
done
# A SAT double whose IDENTIFY is all zeros (no SCSI disk under it, so no probe first): the page is not decoded.
run jms578 SHIM_IDENTIFY="$top/tests/identify/pages/all-zero.hex" -- -I
if [ "$rc" != 0 ] && ! grep -q 'ATA device\|Model Number' "$out/bridge.out" &&
	grep -qF "the USB bridge answered IDENTIFY DEVICE with 512 bytes of zeros: the bridge's limit, not the drive's" "$out/bridge.err"; then
	ok "IDENTIFY of zeros behind a SAT bridge: the bridge's limit, no page decoded"
else
	bad "IDENTIFY of zeros behind a SAT bridge (exit $rc)" "$(head -n 5 "$out/bridge.out" | tr '\n' '|')" "$(tr '\n' '|' < "$out/bridge.err")"
fi
run jms578 SHIM_SCSI=1 SHIM_REPLY=zeros -- -B 128
expect_run bridge "zeros: -B refused, naming the bridge's limit" 95 "" \
	"/dev/null is behind the USB bridge 152d:0578, which answered IDENTIFY DEVICE with 512 bytes of zeros: the bridge's limit, not the drive's"
run jms578 SHIM_SCSI=1 SHIM_REPLY=zeros -- --json -I
bridge_json protocol=none "ata_pass_through_answer=IDENTIFY DEVICE with 512 bytes of zeros" &&
	ok "--json: a bridge that gave nothing passes none, and says what it gave" || bad "--json: a bridge that gave nothing"
# smartctl -d sat finds the same answer empty (its words: "empty IDENTIFY data").
if oracle "$suite" smartctl; then
	if env SHIM_SCSI=1 SHIM_REPLY=zeros "${preload[@]}" smartctl -i -d sat /dev/null 2>&1 | grep -q 'empty IDENTIFY data'; then
		ok "smartctl -d sat finds the same answer empty"
	else
		bad "smartctl -d sat finds the same answer empty"
	fi
fi

# A bridge that lets ATA PASS-THROUGH time out (the double's "hangata") is asked nothing more: not the
# IDENTIFY again, not the TRIM block's SCSI commands; -I fails as timed out (exit 110).
run jms578 SHIM_SCSI=sat,hangata SHIM_IDENTIFY="$page" -- -I
if [ "$rc" = 110 ] && [ "$(grep -c '^cdb: ' "$out/bridge.log")" = 1 ] && grep -q 'timed out' "$out/bridge.err"; then
	ok "a bridge that lets ATA PASS-THROUGH time out: one command, then nothing more (exit 110)"
else
	bad "a bridge that lets ATA PASS-THROUGH time out: one command (exit $rc)" "$(sed -n 's/^cdb: //p' "$out/bridge.log" | cut -c1-2 | tr '\n' ' ')"
fi
run jms578 SHIM_SCSI=sat,hangata SHIM_IDENTIFY="$page" -- --json -I -C
if [ "$rc" = 110 ] && [ "$(grep -c '^cdb: ' "$out/bridge.log")" = 1 ] && bridge_json protocol=sat; then
	ok "--json -I -C, a bridge that hangs: one command, one document"
else
	bad "--json -I -C, a bridge that hangs: one command, one document (exit $rc)" "$(head -c 300 "$out/bridge.out")"
fi

# --- --bridge ---
run jms578 SHIM_SCSI=1 -- --bridge none -I
if [ "$rc" = 0 ] && ! sent 85 && ! sent a1 && grep -qF "JMicron JMS578, SCSI commands only (--bridge none)" "$out/bridge.out"; then
	ok "--bridge none: no ATA PASS-THROUGH at all, the disk read as SCSI"
else
	bad "--bridge none: no ATA PASS-THROUGH at all (exit $rc)" "$(sed -n 's/^cdb: //p' "$out/bridge.log" | cut -c1-2 | tr '\n' ' ')"
fi
run qemu SHIM_IDENTIFY="$page" -- --bridge sat --json -I
bridge_json protocol=sat forced=true && ok "--bridge sat: forced, said so" || bad "--bridge sat: forced, said so"
# A vendor protocol forced where no USB bridge is: one line, exit 22, nothing sent.
usb_tree nousb "" 152d 0583
for p in sntjmicron sntasmedia sntrealtek; do
	run nousb SHIM_IDENTIFY="$page" -- --bridge $p -I
	if [ "$rc" = 22 ] && [ ! -s "$out/bridge.log" ] && [ "$(wc -l < "$out/bridge.err")" = 1 ] &&
		grep -qF "/dev/null: --bridge $p: not behind a USB bridge" "$out/bridge.err"; then
		ok "--bridge $p on a disk behind no USB bridge: one line, nothing sent"
	else
		bad "--bridge $p on a disk behind no USB bridge (exit $rc)" "$(tr '\n' '|' < "$out/bridge.err")" "$(tr '\n' '|' < "$out/bridge.log")"
	fi
done
run nousb SHIM_IDENTIFY="$page" -- --bridge sntjmicron --json -I
if [ "$rc" = 22 ] && [ ! -s "$out/bridge.log" ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["devices"][0]
e = d["errors"][0]
sys.exit(0 if "not behind a USB bridge" in e["message"] and e["operation"] == "--bridge" and "bridge" not in d else 1)' "$out/bridge.out"; then
	ok "--json --bridge sntjmicron behind no bridge: the refusal in the device's errors"
else
	bad "--json --bridge sntjmicron behind no bridge (exit $rc)" "$(head -c 300 "$out/bridge.out")"
fi
echo "end of suite"
