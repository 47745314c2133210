#!/bin/bash
# TRIM over USB (issue 66, item 5), against the test double (tests/tools/sgio-shim.c): a disk
# behind a USB bridge with a SAT layer (SHIM_SCSI=sat: the bridge answers the SCSI commands as
# SBC-3's thin-provisioned disk, ATA PASS-THROUGH reaches the ATA drive behind it, a real drive's
# IDENTIFY page), in a sysfs tree made here: usb-storage or uas bound above the SCSI host, sd's
# class folder with provisioning_mode, the queue's discard_max_bytes.  -I and --json -I say where a
# discard stops; --usb-trim on|off and the usb_trim key write provisioning_mode (the double logs
# each sysfs write in STEM.log.kernel) only where bridge and disk take UNMAP.  The bridge's pages
# are read again by sg3-utils' sg_vpd and sg_readcap on the same double: they must agree with us.
# Which drive has TRIM: hdparm 9.65 reads the same pages (tests/setup installs it).
# Not one of the suites tests/cross-check.sh runs again.
# Usage: usb-trim-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
suite="usb-trim" double_name=usbtrim
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
# shellcheck source=tests/tools/oracle.sh
. "$top/tests/tools/oracle.sh"

ssd="$top/tests/identify/real/INTEL_SSDSA2CW120G3--4PC10302.hex"	# TRIM: word 169 bit 0 set
hdd="$top/tests/identify/real/SAMSUNG_HD501LJ--CR100-12.hex"	# no TRIM
ORACLE=${ORACLE:-/usr/sbin/hdparm}
if oracle "usb-trim" "$ORACLE" "hdparm 9.65"; then
	if "$ORACLE" --Istdin < "$ssd" | grep -q 'Data Set Management TRIM supported' &&
		! "$ORACLE" --Istdin < "$hdd" | grep -q 'TRIM supported'; then
		ok "hdparm 9.65: the Intel SSD's page has TRIM, the Samsung disk's has none"
	else
		bad "hdparm 9.65: the Intel SSD's page has TRIM, the Samsung disk's has none"
	fi
fi

# shellcheck source=tests/tools/usb-sysfs.sh
. "$top/tests/tools/usb-sysfs.sh"
# tree NAME DRIVER MODE MAX [PID]: the sysfs of one SCSI disk sdz (8:900000), as the kernel lays it out
# (Documentation/ABI: /sys/dev/block/M:m links to the disk, its "device" to the SCSI device
# H:C:T:L, sd's class folder scsi_disk/H:C:T:L holds provisioning_mode); DRIVER is bound to the
# USB interface above the SCSI host ("": none, a SATA port); MODE is provisioning_mode, MAX the
# queue's discard_max_bytes: what the double's kernel shows after a write too; PID the USB product id
# (0578 without it: JMicron's JMS578, a SAT bridge).  Prints sd's folder.
tree() {
	local sdev
	sdev=$(usb_sysfs "$out/sysfs-$1" "$2" 152d "${5:-0578}")
	mkdir -p "$sdev/scsi_disk/6:0:0:0"
	echo "$3" > "$sdev/scsi_disk/6:0:0:0/provisioning_mode"
	echo "$4" > "$sdev/block/sdz/queue/discard_max_bytes"
	echo "$sdev/scsi_disk/6:0:0:0"
}

# run TREE ENV... -- ARGS...: hdparm on the double's disk in sysfs tree TREE.
run() {
	local t=$1
	shift
	rm -f "$out/usbtrim.log.kernel"
	run_on_double usbtrim SHIM_SYSFS="$out/sysfs-$t" SHIM_BLOCK_DEV=8:900000 "$@" /dev/null
	touch "$out/usbtrim.log.kernel"
}
expect() { expect_run usbtrim "$@"; }
written() { grep -c 'sysfs write: .*/scsi_disk/6:0:0:0/provisioning_mode$' "$out/usbtrim.log.kernel"; }
# refused NAME TEXT SD_FOLDER: exit 95, TEXT on stderr in one line, no write, provisioning_mode still full.
refused() {
	if [ "$rc" = 95 ] && [ "$(wc -l < "$out/usbtrim.err")" = 1 ] && grep -qF -- "$2" "$out/usbtrim.err" &&
		[ "$(written)" = 0 ] && [ "$(cat "$3/provisioning_mode")" = full ]; then
		ok "$1"
	else
		bad "$1 (exit $rc, writes $(written), mode $(cat "$3/provisioning_mode"))" "stderr: $(tr '\n' '|' < "$out/usbtrim.err")"
	fi
}

# --- -I: where a discard stops ---
sd=$(tree uas uas full 0)
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- -I
expect "-I: the kernel's provisioning_mode and queue" 0 "	Kernel:	provisioning_mode full, discard_max_bytes 0: sends no discard" ""
expect "-I: the bridge takes UNMAP" 0 "	Bridge:	LBPME 1, LBPU 1, MAXIMUM UNMAP LBA COUNT 4194304: takes UNMAP" ""
expect "-I: the disk's TRIM" 0 "	Disk:	TRIM supported (IDENTIFY word 169 bit 0)" ""
expect "-I: a discard stops at the kernel, and --usb-trim on would switch it" 0 \
	"	A discard stops at the kernel: --usb-trim on switches it to UNMAP" ""
expect "-I: the block names the driver and the bridge" 0 "TRIM over USB (uas, bridge 152d:0578):" ""
[ "$(written)" = 0 ] && ok "-I writes nothing" || bad "-I writes nothing"

run uas SHIM_SCSI=sat,nolbpu SHIM_IDENTIFY="$ssd" -- -I
expect "-I: a bridge without LBPU stops it" 0 "	Bridge:	passes no discard: VPD B2h says LBPU 0: no UNMAP" ""
if grep -qF '	A discard stops at the kernel' "$out/usbtrim.out" && ! grep -q 'usb-trim on' "$out/usbtrim.out"; then
	ok "-I: with the bridge lacking UNMAP, --usb-trim on is not offered"
else
	bad "-I: with the bridge lacking UNMAP, --usb-trim on is not offered"
fi
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$hdd" -- -I
expect "-I: a disk without TRIM" 0 "	Disk:	no TRIM (IDENTIFY word 169 bit 0)" ""
# A bridge without a SAT layer: the disk behind it cannot be asked.
run uas SHIM_SCSI=1 -- -I
expect "-I: a SCSI-only bridge hides the disk" 0 "	Disk:	not known: the bridge passes no ATA command to ask it" ""

sd=$(tree uas uas unmap 4294966784)
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- -I
expect "-I: kernel, bridge and disk all pass: it reaches the disk" 0 "	A discard reaches the disk" ""

# The kernel chose WRITE SAME (16) itself: the bridge must take that (LBPWS), which the double's does not.
tree uas uas writesame_16 4294966784 > /dev/null
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- -I
if grep -qF "	Bridge:	passes no discard: VPD B2h says LBPWS 0: no WRITE SAME (16) with UNMAP" "$out/usbtrim.out" &&
	grep -qF "	A discard stops at the bridge" "$out/usbtrim.out"; then
	ok "-I: the kernel at writesame_16, a bridge without LBPWS: it stops at the bridge"
else
	bad "-I: the kernel at writesame_16, a bridge without LBPWS: it stops at the bridge"
fi

# Already unmap, but the queue shows 0: it stops at the kernel, and --usb-trim on is no advice.
tree uas uas unmap 0 > /dev/null
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- -I
if grep -qF "	A discard stops at the kernel" "$out/usbtrim.out" && ! grep -q 'usb-trim on' "$out/usbtrim.out"; then
	ok "-I: unmap with discard_max_bytes 0: stops at the kernel, no --usb-trim on advice"
else
	bad "-I: unmap with discard_max_bytes 0: stops at the kernel, no --usb-trim on advice"
fi

# --json -I: the "usb_trim" object.
sd=$(tree uas uas full 0)
run uas SHIM_SCSI=sat,nolbpu SHIM_IDENTIFY="$ssd" -- --json -I
if [ "$rc" = 0 ] && python3 - "$out/usbtrim.out" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))["devices"][0]["usb_trim"]
want = {"reaches_disk": False, "stops_at": "kernel",
        "kernel": {"provisioning_mode": "full", "discard_max_bytes": 0, "passes": False},
        "bridge": {"lbpme": True, "lbp_page": True, "lbpu": False, "lbpws": False, "lbpws10": False,
                   "block_limits_page": True, "max_unmap_lba_count": 4194304,
                   "max_unmap_block_descriptor_count": 2, "passes": False},
        "disk": {"trim": True, "source": "IDENTIFY word 169 bit 0", "passes": True}}
sys.exit(0 if t == want else print(t) or 1)
EOF
then
	ok "--json -I: the usb_trim object"
else
	bad "--json -I: the usb_trim object (exit $rc)"
fi

# Not behind USB: -I as before, no block, no object, none of the bridge's commands sent.
tree sata "" full 0 > /dev/null
run sata SHIM_IDENTIFY="$ssd" -- --json -I
if [ "$rc" = 0 ] && ! grep -q usb_trim "$out/usbtrim.out" && ! grep -q '^cdb: \(12\|9e\) ' "$out/usbtrim.log"; then
	ok "not behind USB: no usb_trim object, no VPD or READ CAPACITY (16) sent"
else
	bad "not behind USB: no usb_trim object, no VPD or READ CAPACITY (16) sent (exit $rc)"
fi
run sata SHIM_IDENTIFY="$ssd" -- -I
! grep -q 'TRIM over USB' "$out/usbtrim.out" && ok "not behind USB: -I has no TRIM over USB block" ||
	bad "not behind USB: -I has no TRIM over USB block"

# --- the bridge's pages, as sg3-utils reads them from the same double ---
if oracle "usb-trim" sg_vpd "sg3-utils' sg_vpd" && oracle "usb-trim" sg_readcap "sg3-utils' sg_readcap"; then
	for quirk in sat sat,nolbpu sat,nolbpme; do
		run uas SHIM_SCSI=$quirk SHIM_IDENTIFY="$ssd" -- --json -I
		ours=$(python3 -c 'import json, sys
b = json.load(open(sys.argv[1]))["devices"][0]["usb_trim"]["bridge"]
print(int(b["lbpu"]), int(b["lbpws"]), int(b["lbpws10"]), b["max_unmap_lba_count"], b["max_unmap_block_descriptor_count"], int(b["lbpme"]))' "$out/usbtrim.out")
		theirs=$( (env SHIM_SCSI=$quirk "${preload[@]}" sg_vpd -p lbpv /dev/null 2> /dev/null |
			sed -n 's/.*(LBPU): *\([01]\).*/\1/p; s/.*(LBPWS): *\([01]\).*/\1/p; s/.*(LBPWS10): *\([01]\).*/\1/p'
			env SHIM_SCSI=$quirk "${preload[@]}" sg_vpd -p bl /dev/null 2> /dev/null |
			sed -n 's/.*Maximum unmap LBA count: *\([0-9]*\).*/\1/p; s/.*Maximum unmap block descriptor count: *\([0-9]*\).*/\1/p'
			env SHIM_SCSI=$quirk "${preload[@]}" sg_readcap -l /dev/null 2> /dev/null | sed -n 's/.*lbpme=\([01]\).*/\1/p') | tr '\n' ' ')
		if [ -n "$ours" ] && [ "$ours " = "$theirs" ]; then
			ok "$quirk: LBPU, LBPWS, LBPWS10, the unmap limits and LBPME as sg_vpd and sg_readcap read them ($ours)"
		else
			bad "$quirk: the bridge's pages as sg_vpd and sg_readcap read them" "ours:   $ours" "theirs: $theirs"
		fi
	done
fi

# --- --usb-trim on: the switch ---
sd=$(tree uas uas full 4294966784)
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- --usb-trim on
expect "--usb-trim on: switched, the queue's discard_max_bytes said" 0 \
	" usb-trim: provisioning_mode full -> unmap: the kernel sends UNMAP (discard_max_bytes 4294966784)" ""
if [ "$(written)" = 1 ] && [ "$(cat "$sd/provisioning_mode")" = unmap ] && [ ! -s "$out/usbtrim.err" ]; then
	ok "--usb-trim on: provisioning_mode written once, unmap"
else
	bad "--usb-trim on: provisioning_mode written once, unmap" "kernel log: $(tr '\n' '|' < "$out/usbtrim.log.kernel")"
fi
if ! grep -q '^data:' "$out/usbtrim.log" && ! grep -q '^cdb: \(42\|93\|41\) ' "$out/usbtrim.log" &&
	! grep -q '^cdb: 85 .* 06 00$' "$out/usbtrim.log"; then
	ok "--usb-trim on: no UNMAP, WRITE SAME or DATA SET MANAGEMENT sent, nothing written to the disk"
else
	bad "--usb-trim on: nothing discarded" "log: $(tr '\n' '|' < "$out/usbtrim.log")"
fi
# The kernel took the mode but its queue still shows 0: a failure, said.
sd=$(tree uas uas full 0)
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- --usb-trim on
expect "--usb-trim on: the queue still shows discard_max_bytes 0: failure" 5 "" \
	"--usb-trim: /dev/null: provisioning_mode is now unmap, but the queue still shows discard_max_bytes 0"
# Already unmap: nothing to do.
sd=$(tree uas uas unmap 4294966784)
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- --usb-trim on
expect "--usb-trim on: already unmap, nothing to do" 0 " usb-trim: provisioning_mode is unmap already (discard_max_bytes 4294966784): nothing written" ""
[ "$(written)" = 0 ] && ok "--usb-trim on: already unmap: no write" || bad "--usb-trim on: already unmap: no write"
# -q: the same, quietly.
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- -q --usb-trim on
expect "-q --usb-trim on: nothing said" 0 "" ""
[ "$(grep -c usb-trim "$out/usbtrim.out")" = 0 ] && ok "-q --usb-trim on: no line" || bad "-q --usb-trim on: no line"

# Through the sg node (/dev/null as the character device 1:3): the same SCSI device, the disk's queue under device/block/.
sd=$(tree sg uas full 4294966784)
mkdir -p "$out/sysfs-sg/sys/dev/char/1:3"
sdev=${sd%/scsi_disk/*}
ln -s "../../../../${sdev#"$out/sysfs-sg/"}" "$out/sysfs-sg/sys/dev/char/1:3/device"
rm -f "$out/usbtrim.log.kernel"
run_on_double usbtrim SHIM_SYSFS="$out/sysfs-sg" SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- --usb-trim on /dev/null
touch "$out/usbtrim.log.kernel"
expect "through the sg node: switched, the disk's queue read" 0 \
	" usb-trim: provisioning_mode full -> unmap: the kernel sends UNMAP (discard_max_bytes 4294966784)" ""
grep -q 'sysfs write: /sys/dev/char/1:3/device/scsi_disk/6:0:0:0/provisioning_mode$' "$out/usbtrim.log.kernel" &&
	ok "through the sg node: sd's provisioning_mode written" || bad "through the sg node: sd's provisioning_mode written"

# --- --usb-trim on: refused, naming which ---
sd=$(tree uas uas full 4294966784)
run uas SHIM_SCSI=sat,nolbpu SHIM_IDENTIFY="$ssd" -- --usb-trim on
refused "a bridge without LBPU: refused, nothing written" \
	"--usb-trim: /dev/null: the bridge 152d:0578 does not take UNMAP (VPD B2h says LBPU 0: no UNMAP): nothing written" "$sd"
run uas SHIM_SCSI=sat SHIM_SCSI_LACK=b2 SHIM_IDENTIFY="$ssd" -- --usb-trim on
refused "a bridge without VPD B2h: refused" "does not take UNMAP (it lists no Logical Block Provisioning page (VPD B2h))" "$sd"
run uas SHIM_SCSI=sat SHIM_SCSI_UNMAP=0, SHIM_IDENTIFY="$ssd" -- --usb-trim on
refused "a bridge whose MAXIMUM UNMAP LBA COUNT is 0: refused" "(VPD B0h says MAXIMUM UNMAP LBA COUNT 0: no UNMAP)" "$sd"
run uas SHIM_SCSI=sat,nolbpme SHIM_IDENTIFY="$ssd" -- --usb-trim on
refused "a bridge whose READ CAPACITY (16) says LBPME 0: refused" "(READ CAPACITY (16) says LBPME 0: no logical block provisioning)" "$sd"
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$hdd" -- --usb-trim on
refused "a disk without TRIM: refused, nothing written" \
	"--usb-trim: /dev/null: the disk behind the bridge has no TRIM (IDENTIFY word 169 bit 0 clear): nothing written" "$sd"
run uas SHIM_SCSI=sat,nolbpu SHIM_IDENTIFY="$hdd" -- --usb-trim on
refused "neither takes it: both named in one line" "(VPD B2h says LBPU 0: no UNMAP), and the disk behind the bridge has no TRIM" "$sd"
: > "$out/usbtrim-zeros.hex"
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$out/usbtrim-zeros.hex" -- --usb-trim on
if [ "$rc" = 5 ] && grep -qF "the disk behind the bridge could not be asked whether it has TRIM (the bridge answered IDENTIFY DEVICE with 512 bytes of zeros): nothing written" \
	"$out/usbtrim.err" && [ "$(written)" = 0 ]; then
	ok "IDENTIFY answered with zeros: not taken for a disk without TRIM, nor switched on the bridge's word"
else
	bad "IDENTIFY answered with zeros (exit $rc, writes $(written))" "err: $(tr '\n' '|' < "$out/usbtrim.err")"
fi
sd=$(tree sata "" full 4294966784)
run sata SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- --usb-trim on
refused "not behind USB: refused" "--usb-trim: /dev/null: not behind a USB bridge" "$sd"
if ! grep -q '^cdb: \(12\|9e\) ' "$out/usbtrim.log"; then ok "not behind USB: the bridge's pages not asked"; else bad "not behind USB: the bridge's pages not asked"; fi
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- --usb-trim maybe
expect "--usb-trim maybe: refused as a bad value" 22 "" "--usb-trim: bad setting 'maybe' (one of: off, on)"

# A bridge that lets READ CAPACITY (16) time out is asked nothing more (each would take the whole timeout).
after_hang() { sed -n '/^cdb: 9e /,$p' "$out/usbtrim.log" | tail -n +2; }
run uas SHIM_SCSI=sat,hang16 SHIM_IDENTIFY="$ssd" -- --usb-trim on
if [ "$rc" = 110 ] && grep -qF -- "--usb-trim: /dev/null: the bridge did not answer READ CAPACITY (16) (command timed out): nothing written" \
	"$out/usbtrim.err" && [ -z "$(after_hang)" ] && [ "$(written)" = 0 ]; then
	ok "--usb-trim on: READ CAPACITY (16) timed out: nothing more sent, nothing written, exit 110"
else
	bad "--usb-trim on: READ CAPACITY (16) timed out (exit $rc)" "err: $(tr '\n' '|' < "$out/usbtrim.err")" "after: $(after_hang | tr '\n' '|')"
fi
run uas SHIM_SCSI=sat,hang16 SHIM_IDENTIFY="$ssd" -- -I
if [ "$rc" = 0 ] && grep -qF "	Bridge:	passes no discard: READ CAPACITY (16) failed: command timed out" "$out/usbtrim.out" &&
	[ -z "$(after_hang)" ]; then
	ok "-I: READ CAPACITY (16) timed out: said, nothing more sent"
else
	bad "-I: READ CAPACITY (16) timed out (exit $rc)" "after: $(after_hang | tr '\n' '|')"
fi

# A provisioning_mode that is none of the sd driver's words (lbp_mode[]: full, unmap, writesame_16,
# writesame_10, writesame_zero, disabled), a terminal's escape in it: not printed, not written over.
sd=$(tree odd uas "$(printf 'full\033[2J')" 4294966784)
run odd SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- -I
if [ "$rc" = 0 ] && grep -qxF "	Kernel:	provisioning_mode unreadable (not one of the kernel's words)" "$out/usbtrim.out" &&
	! grep -q "$(printf '\033')" "$out/usbtrim.out"; then
	ok "-I: a provisioning_mode not the kernel's: unreadable, nothing of it printed"
else
	bad "-I: a provisioning_mode not the kernel's (exit $rc)" "$(grep -a Kernel "$out/usbtrim.out" | od -c | head -n 3)"
fi
run odd SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- --usb-trim on
if [ "$rc" = 95 ] && [ "$(written)" = 0 ] && grep -qF "the kernel shows no provisioning_mode for it (not one of the kernel's words): nothing written" "$out/usbtrim.err"; then
	ok "--usb-trim on: a provisioning_mode not the kernel's is not written over"
else
	bad "--usb-trim on: a provisioning_mode not the kernel's (exit $rc, writes $(written))" "$(tr '\n' '|' < "$out/usbtrim.err")"
fi

# A bridge that lets the INQUIRY of VPD B2h time out ("hangb2"): not asked B0h after it, and that is a
# timeout (exit 110), not a bridge that lists no B2h (exit 95, "not supported" in --apply-config).
after_b2() { sed -n '/^cdb: 12 01 b2 /,$p' "$out/usbtrim.log" | tail -n +2; }
run uas SHIM_SCSI=sat,hangb2 SHIM_IDENTIFY="$ssd" -- --usb-trim on
if [ "$rc" = 110 ] && grep -qF -- "--usb-trim: /dev/null: the bridge did not answer INQUIRY of VPD page B2h (command timed out): nothing written" \
	"$out/usbtrim.err" && [ -z "$(after_b2)" ] && [ "$(written)" = 0 ]; then
	ok "--usb-trim on: VPD B2h timed out: nothing more sent, nothing written, exit 110"
else
	bad "--usb-trim on: VPD B2h timed out (exit $rc)" "err: $(tr '\n' '|' < "$out/usbtrim.err")" "after: $(after_b2 | tr '\n' '|')"
fi
run uas SHIM_SCSI=sat,hangb2 SHIM_IDENTIFY="$ssd" -- -I
if [ "$rc" = 0 ] && grep -qF "	Bridge:	passes no discard: INQUIRY of VPD page B2h timed out, and nothing more was asked" "$out/usbtrim.out" &&
	[ -z "$(after_b2)" ]; then
	ok "-I: VPD B2h timed out: said, nothing more sent"
else
	bad "-I: VPD B2h timed out (exit $rc)" "$(grep -a 'Bridge:' "$out/usbtrim.out")" "after: $(after_b2 | tr '\n' '|')"
fi

# A bridge that let the IDENTIFY probe time out ("hangata"): nothing more sent, and no command named that was not.
run uas SHIM_SCSI=sat,hangata SHIM_IDENTIFY="$ssd" -- --usb-trim on
if [ "$rc" = 110 ] && [ "$(grep -c '^cdb: ' "$out/usbtrim.log")" = 1 ] && [ "$(written)" = 0 ] &&
	grep -qF -- "--usb-trim: /dev/null: the bridge did not answer an earlier command (command timed out): nothing written" "$out/usbtrim.err"; then
	ok "--usb-trim on: the probe timed out: nothing more sent, READ CAPACITY (16) not named"
else
	bad "--usb-trim on: the probe timed out (exit $rc)" "err: $(tr '\n' '|' < "$out/usbtrim.err")" "$(sed -n 's/^cdb: //p' "$out/usbtrim.log" | cut -c1-2 | tr '\n' ' ')"
fi

# --- --usb-trim off: back to full ---
sd=$(tree uas uas unmap 0)
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- --usb-trim off
expect "--usb-trim off: unmap -> full" 0 " usb-trim: provisioning_mode unmap -> full: the kernel sends no discard" ""
[ "$(written)" = 1 ] && [ "$(cat "$sd/provisioning_mode")" = full ] && ok "--usb-trim off: full written" ||
	bad "--usb-trim off: full written"
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- --usb-trim off
expect "--usb-trim off: already full, nothing written" 0 " usb-trim: provisioning_mode is full, not unmap: nothing written" ""

# --- usb_trim = on in /etc/hdparm.conf: --apply-config, as the udev rule runs it at plug-in ---
cfg="$out/usbtrim.conf"
printf '/dev/null {\n\tusb_trim = on\n}\n' > "$cfg"
sd=$(tree uas uas full 4294966784)
# CHECK POWER MODE says active (FFh): a disk in standby is not read.
run uas SHIM_SCSI=sat SHIM_COUNT=0xff SHIM_IDENTIFY="$ssd" -- --check-config "$cfg"
expect "--check-config: usb_trim drifted" 1 " usb_trim = on: DRIFTED (is off)" ""
[ "$(written)" = 0 ] && ok "--check-config writes nothing" || bad "--check-config writes nothing"
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- --apply-config "$cfg"
expect "--apply-config: usb_trim = on set" 0 " usb_trim = on: set (was off)" ""
[ "$(written)" = 1 ] && [ "$(cat "$sd/provisioning_mode")" = unmap ] && ok "--apply-config: provisioning_mode written unmap" ||
	bad "--apply-config: provisioning_mode written unmap"
run uas SHIM_SCSI=sat SHIM_IDENTIFY="$ssd" -- --settings-only --apply-config "$cfg"
expect "--apply-config again (a change event): already set" 0 " usb_trim = on: already set, not sent" ""
[ "$(written)" = 0 ] && ok "--apply-config again: no write" || bad "--apply-config again: no write"
sd=$(tree uas uas full 4294966784)
run uas SHIM_SCSI=sat,nolbpu SHIM_IDENTIFY="$ssd" -- --apply-config "$cfg"
expect "--apply-config: a bridge without LBPU, the block's line not supported" 95 "" \
	"usb_trim = on ($cfg:2): not supported: the bridge 152d:0578 does not take UNMAP (VPD B2h says LBPU 0: no UNMAP)"
[ "$(written)" = 0 ] && ok "--apply-config, bridge without LBPU: no write" || bad "--apply-config, bridge without LBPU: no write"
run uas SHIM_SCSI=sat,hang16 SHIM_IDENTIFY="$ssd" -- --apply-config "$cfg"
expect "--apply-config: a bridge that times out fails the line, said" 110 "" \
	"usb_trim = on ($cfg:2): FAILED: the bridge did not answer READ CAPACITY (16)"
# A global line reaches every disk: one not behind USB is not at fault.
printf 'usb_trim = on\n' > "$cfg"
tree sata "" full 0 > /dev/null
run sata SHIM_IDENTIFY="$ssd" -- --apply-config "$cfg"
if [ "$rc" = 0 ] && grep -qF " usb_trim = on: not sent (a global line this kind of disk cannot take) (not behind a USB bridge)" "$out/usbtrim.out" &&
	[ "$(written)" = 0 ]; then
	ok "--apply-config: a global usb_trim line, a disk not behind USB: not for it, no write"
else
	bad "--apply-config: a global usb_trim line, a disk not behind USB (exit $rc)" "out: $(tr '\n' '|' < "$out/usbtrim.out")" \
		"err: $(tr '\n' '|' < "$out/usbtrim.err")"
fi

# --- an NVMe drive behind JMicron's tunnel (152d:0583, SHIM_SNT): Identify Controller's ONCS bit 2 ---
# QEMU's controller page (ONCS 015Dh: Dataset Management) and a copy with ONCS bit 2 (bytes 521:520,
# NVM Express Base 2.0, Figure 275) cleared; nvme-cli on a native node and smartctl -d sntjmicron
# through the tunnel read the same pages first.
python3 - "$top/tests/nvme/qemu-ctrl.hex" "$out/usbtrim-nodsm-ctrl.hex" <<'PY'
import sys
b = bytearray(bytes.fromhex(open(sys.argv[1]).read()))
b[520] &= ~0x04
open(sys.argv[2], "w").write(b.hex())
PY
dsm="$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex" nodsm="$out/usbtrim-nodsm-ctrl.hex,$top/tests/nvme/qemu-ns.hex"
health="$top/tests/nvme/health-log.hex"
if oracle "usb-trim" nvme nvme-cli; then
	theirs=$(for p in "$dsm" "$nodsm"; do
		env SHIM_NVME="$p" "${preload[@]}" nvme id-ctrl -o json /dev/null 2> /dev/null |
			python3 -c 'import json, sys; print(json.load(sys.stdin)["oncs"] >> 2 & 1)'
	done | tr '\n' ' ')
	[ "$theirs" = "1 0 " ] && ok "nvme id-ctrl: ONCS bit 2 set on QEMU's page, clear on the copy" ||
		bad "nvme id-ctrl: ONCS bit 2 set on QEMU's page, clear on the copy (bits: $theirs)"
fi
if oracle "usb-trim" smartctl smartmontools; then
	theirs=$(for p in "$dsm" "$nodsm"; do
		env SHIM_SCSI=1 SHIM_SNT=jmicron SHIM_NVME="$p" SHIM_NVME_HEALTH="$health" "${preload[@]}" \
			smartctl -d sntjmicron -c /dev/null 2> /dev/null | grep -c '^Optional NVM Commands .*DS_Mngmt'
	done | tr '\n' ' ')
	[ "$theirs" = "1 0 " ] && ok "smartctl -d sntjmicron: DS_Mngmt on QEMU's page, not on the copy" ||
		bad "smartctl -d sntjmicron: DS_Mngmt on QEMU's page, not on the copy ($theirs)"
fi
# snt PAGES ENV... -- ARGS...: hdparm on the NVMe drive behind JMicron's tunnel, in sysfs tree "snt".
snt() {
	local p=$1
	shift
	run snt SHIM_SCSI=1 SHIM_SNT=jmicron SHIM_NVME="$p" SHIM_NVME_HEALTH="$health" "$@"
}
tree snt uas full 4294966784 0583 > /dev/null
snt "$dsm" -- -I
expect "NVMe behind JMicron: -I reads ONCS bit 2" 0 "	Disk:	Deallocate supported (Identify Controller ONCS bit 2)" ""
expect "NVMe behind JMicron, ONCS bit 2: stops at the kernel, --usb-trim on offered" 0 \
	"	A discard stops at the kernel: --usb-trim on switches it to UNMAP" ""
snt "$nodsm" -- -I
expect "NVMe behind JMicron: -I, ONCS bit 2 clear" 0 "	Disk:	no Deallocate (Identify Controller ONCS bit 2)" ""
if grep -qF "	A discard stops at the kernel" "$out/usbtrim.out" && ! grep -q 'usb-trim on' "$out/usbtrim.out"; then
	ok "NVMe behind JMicron, ONCS bit 2 clear: --usb-trim on not offered"
else
	bad "NVMe behind JMicron, ONCS bit 2 clear: --usb-trim on not offered"
fi
tree snt uas unmap 4294966784 0583 > /dev/null
snt "$nodsm" -- -I
expect "NVMe behind JMicron, ONCS bit 2 clear, the kernel at unmap: stops at the disk" 0 "	A discard stops at the disk" ""
for p in "$dsm" "$nodsm"; do
	label="set"
	[ "$p" = "$nodsm" ] && label=clear
	snt "$p" -- --json -I
	if [ "$rc" = 0 ] && python3 - "$out/usbtrim.out" "$label" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["devices"][0]["usb_trim"]
has = sys.argv[2] == "set"
want = {"reaches_disk": has, "stops_at": None if has else "disk",
        "disk": {"trim": has, "source": "Identify Controller ONCS bit 2", "passes": has}}
got = {k: t[k] for k in want}
sys.exit(0 if got == want else print(got) or 1)
PY
	then
		ok "NVMe behind JMicron: --json -I usb_trim.disk from ONCS bit 2 ($label)"
	else
		bad "NVMe behind JMicron: --json -I usb_trim.disk from ONCS bit 2 ($label, exit $rc)"
	fi
done
sd=$(tree snt uas full 4294966784 0583)
snt "$dsm" -- --usb-trim on
if [ "$rc" = 0 ] && [ "$(grep usb-trim "$out/usbtrim.out")" = \
	" usb-trim: provisioning_mode full -> unmap: the kernel sends UNMAP (discard_max_bytes 4294966784)" ] &&
	[ "$(written)" = 1 ] && [ "$(cat "$sd/provisioning_mode")" = unmap ] &&
	[ "$(grep '^snt-admin: ' "$out/usbtrim.log" | cut -c12-13 | sort -u)" = 06 ]; then
	ok "NVMe behind JMicron, ONCS bit 2: --usb-trim on switched on the drive's word, only Identify through the tunnel"
else
	bad "NVMe behind JMicron, ONCS bit 2: --usb-trim on switched (exit $rc, writes $(written))" \
		"out: $(tr '\n' '|' < "$out/usbtrim.out")" "tunnel: $(grep '^snt-admin: ' "$out/usbtrim.log" | tr '\n' '|')"
fi
sd=$(tree snt uas full 4294966784 0583)
snt "$nodsm" -- --usb-trim on
refused "NVMe behind JMicron, ONCS bit 2 clear: --usb-trim on refused, naming it" \
	"--usb-trim: /dev/null: the disk behind the bridge has no Deallocate (Identify Controller ONCS bit 2 clear: ONCS 0159h): nothing written" "$sd"
sd=$(tree snt uas full 4294966784 0583)
snt "$dsm" SHIM_SNT_BAD=status@06 -- --usb-trim on
if [ "$rc" = 5 ] && [ "$(written)" = 0 ] && grep -qF -- "--usb-trim: /dev/null: the disk behind the bridge could not be asked whether it has TRIM (NVMe Identify Controller failed: invalid field in command (NVMe status 0x002)): nothing written" \
	"$out/usbtrim.err"; then
	ok "NVMe behind JMicron, Identify Controller failed: not switched on the bridge's word"
else
	bad "NVMe behind JMicron, Identify Controller failed (exit $rc, writes $(written))" "err: $(tr '\n' '|' < "$out/usbtrim.err")"
fi
# A tunnel that lets Identify time out: asked once, nothing more sent through it, the exit status says so.
sd=$(tree snt uas full 4294966784 0583)
snt "$dsm" SHIM_SNT_BAD=timeout -- --usb-trim on
if [ "$rc" = 110 ] && [ "$(written)" = 0 ] && [ "$(grep -c '^cdb: a1 ' "$out/usbtrim.log")" = 1 ] &&
	grep -qF -- "could not be asked whether it has TRIM (NVMe Identify Controller failed: the JMicron JMS583 USB bridge 152d:0583 did not answer its NVMe tunnel's command in time): nothing written" \
		"$out/usbtrim.err"; then
	ok "NVMe behind JMicron, Identify timed out: one tunnel command, nothing written, exit 110"
else
	bad "NVMe behind JMicron, Identify timed out (exit $rc, writes $(written))" "err: $(tr '\n' '|' < "$out/usbtrim.err")" \
		"log: $(grep '^cdb' "$out/usbtrim.log" | tr '\n' '|')"
fi
sd=$(tree snt uas full 4294966784 0583)
printf '/dev/null {\n\tusb_trim = on\n}\n' > "$cfg"
snt "$nodsm" -- --apply-config "$cfg"
expect "NVMe behind JMicron, ONCS bit 2 clear: usb_trim = on not supported, naming it" 95 "" \
	"usb_trim = on ($cfg:2): not supported: the disk behind the bridge has no Deallocate (Identify Controller ONCS bit 2 clear: ONCS 0159h)"
[ "$(written)" = 0 ] && ok "NVMe behind JMicron, ONCS bit 2 clear: --apply-config writes nothing" ||
	bad "NVMe behind JMicron, ONCS bit 2 clear: --apply-config writes nothing"

echo "end of suite"
