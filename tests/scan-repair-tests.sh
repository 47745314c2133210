#!/bin/bash
# --scan-repair (issue 61, item 9) on the faulty disk of tests/tools/faulty-disk.sh: a sector that
# heals when written is rewritten and its neighbours keep their bytes (the image compared sector by
# sector with its copy); a sector that reads on a retry is never written (the disk's log shows no
# write); one that does not heal is still unreadable (exit 5); refusals without the flag, on a
# mounted disk and without --surface-scan, with nothing read or written.
# Usage: scan-repair-tests.sh HDPARM OUTDIR.  Needs root.
set -u
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2/scan-repair
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034 # lib.sh's ok and bad read it
suite="scan-repair"
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/tools/faulty-disk.sh
. "$here/tools/faulty-disk.sh"
# shellcheck source=tests/tools/scan-suite.sh
. "$here/tools/scan-suite.sh"

rm -rf "$out"
mkdir -p "$out"
loops=() mnt=""
cleanup() {
	local l
	[ -z "$mnt" ] || umount "$mnt" 2> /dev/null
	for l in "${loops[@]}"; do losetup -d "$l" 2> /dev/null; done
	faulty_disk_down
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# fill IMAGE MB: each 512-byte sector holds its LBA (8 bytes, little-endian) 64 times over.
fill() {
	python3 -c 'import struct, sys
with open(sys.argv[1], "wb") as f:
    for i in range(int(sys.argv[2]) * 2048): f.write(struct.pack("<Q", i) * 64)' "$1" "$2"
}
# changed IMAGE COPY: the sectors that differ, each with "=0" when it holds zeros now.
changed() {
	python3 -c 'import sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
print(",".join("%d%s" % (i, "=0" if a[i*512:i*512+512] == bytes(512) else "") for i in range(len(a) // 512) if a[i*512:i*512+512] != b[i*512:i*512+512]) or "none")' "$1" "$2"
}
# writes: the disk's log's writes, "FIRST-LAST" each.
writes() { awk '$1 == "write" { print $4 "-" $5 }' "$FAULTY_LOG" | paste -sd' ' -; }
# disk_up ARGS...: faulty_disk_up ARGS over a filled image, its copy in DIR/orig, udev's reads out of its log.
disk_up() {
	mkdir -p "$1"
	fill "$1/image" "$2"
	cp "$1/image" "$1/orig"
	faulty_disk_up "$@" && settle && : > "$FAULTY_LOG"
}

# --- the decisions against a disk in memory (tests/unit/scan_repair_unit.c): any user, no device ---
top=$(cd "$here/.." && pwd)
incs=()
for d in cli options run ops ops/any_disk ops/ata ops/block ops/erase ops/scan disk ata nvme scsi tcg transport block output lib; do incs+=("-I$top/$d"); done
# shellcheck disable=SC2086
if ${CC:-cc} -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Wall -Wextra "${incs[@]}" ${CFLAGS:-} ${LDFLAGS:-} \
	-o "$out/unit" "$top/tests/unit/scan_repair_unit.c" "$top/ops/scan/scan_repair.c" "$top/ops/scan/scan_classes.c" \
	"$top/ops/scan/scan_counts.c" "$top/scsi/scsi_pages.c" "$top/transport/sense.c" \
	"$top/output/report.c" "$top/output/json.c" "$top/output/progress.c" 2> "$out/unit.build"; then
	"$out/unit" | grep -v '^end of suite$' | sed 's/^\(ok\|FAIL\) unit: /\1 scan-repair: unit: /'
else
	bad "build tests/unit/scan_repair_unit.c" "$(cat "$out/unit.build")"
fi

# --- the drive's counts through the SG_IO double (tests/tools/sgio-shim.c): /dev/null as a 1 MiB disk ---
# ATA: SMART READ DATA laid out as ATA/ATAPI-7 7.52.6.2 (attributes 5, 197 with a raw value past 32
# bits, 198), its raw values as smartctl -A reads the same bytes; the command's bytes as SAT-3's ATA
# PASS-THROUGH (16) of SMART READ DATA (B0h, FEATURE D0h, LBA C24F00h).  NVMe: the SMART / Health
# log's Get Log Page (02h, all namespaces, 128 dwords).
# shellcheck disable=SC2034 # double.sh reads it
double_name=scanrepair
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
head -c 1048576 /dev/zero > "$out/dimg"
mkdir -p "$out/logs"
python3 - "$out/logs/smart.hex" <<'PY'
import sys
d = bytearray(512)
d[0] = 0x10  # revision 0010h
def attr(i, ident, raw):  # 12 bytes from byte 2: id, flags (2), value, worst, raw value (6), reserved
    o = 2 + i * 12
    d[o], d[o + 1], d[o + 3], d[o + 4] = ident, 0x33, 100, 100
    d[o + 5:o + 11] = raw.to_bytes(6, "little")
for i, (ident, raw) in enumerate([(1, 0), (5, 12), (9, 1234), (197, 0x0102030405), (198, 7)]):
    attr(i, ident, raw)
d[511] = -sum(d[:511]) & 0xff
open(sys.argv[1], "w").write("".join(" ".join("%02x" % b for b in d[i:i + 16]) + "\n" for i in range(0, 512, 16)))
PY
page=$top/tests/identify/real/SAMSUNG_HD501LJ--CR100-12.hex
run_on_double ata SHIM_IDENTIFY="$page" SHIM_LOGS="$out/logs" SHIM_BLOCK_DEV=8:900000 SHIM_BLKSIZE=1048576 \
	SHIM_DISK_IMAGE="$out/dimg" -- --json --surface-scan --scan-repair --yes-i-know-what-i-am-doing /dev/null
theirs=$(env SHIM_IDENTIFY="$page" SHIM_LOGS="$out/logs" SHIM_COUNT=0xff "${preload[@]}" smartctl -A -d sat /dev/null 2> /dev/null |
	awk '$1 == 5 || $1 == 197 || $1 == 198 { print $10 }' | paste -sd, -)
check "ATA: SMART attributes 5, 197, 198, before and after, as smartctl -A reads them" \
	"$rc $(jget "$out/ata.out" '[(c["source"], c["reallocated_sector_ct"], c["current_pending_sector"], c["offline_uncorrectable"]) for c in (s["drive_counts_before"], s["drive_counts_after"])]')" \
	"0 [('SMART attributes', ${theirs//,/, }), ('SMART attributes', ${theirs//,/, })]"
check "ATA: SMART READ DATA sent twice, as SAT-3's ATA PASS-THROUGH (16)" \
	"$(grep -c '^cdb: 85 08 0e 00 d0 00 01 00 00 00 4f 00 c2 .. b0 00$' "$out/ata.log")" 2
run_on_double nvme SHIM_NVME="$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex" SHIM_BLOCK_DEV=259:904000 \
	SHIM_BLKSIZE=1048576 SHIM_DISK_IMAGE="$out/dimg" -- --surface-scan --scan-repair --yes-i-know-what-i-am-doing /dev/null
check "NVMe: the SMART / Health log's media errors, before and after; Get Log Page 02h of 128 dwords, twice" \
	"$rc $(grep -c "^ drive's counts \(before\|after\) (SMART / Health log): media and data integrity errors 0$" "$out/nvme.out") $(grep -c '^nvme-admin: 02 ff ff ff ff 02 00 7f 00 ' "$out/nvme.log")" \
	"0 2 2"

# SCSI (a SAS disk without SAT): the double has neither page 03h nor a defect list (ILLEGAL REQUEST):
# not available, the repair goes on; LOG SENSE as SPC-4 lays it out (PC 01b, page 03h, 252 bytes) and
# READ DEFECT DATA (10) as SBC-3 does (REQ_GLIST, bytes from index format, the 4-byte header).
run_on_double scsi SHIM_SCSI=1 SHIM_BLOCK_DEV=8:900016 SHIM_BLKSIZE=1048576 SHIM_DISK_IMAGE="$out/dimg" -- \
	--surface-scan --scan-repair --yes-i-know-what-i-am-doing /dev/null
check "SCSI: no page 03h, no grown list: not available, the reason said, exit 0; each command's bytes, twice" \
	"$rc $(grep -c "^ drive's counts \(before\|after\): not available: the disk has no Read Error Counter log page (03h) and no grown defect list$" "$out/scsi.out") $(grep -c -e '^cdb: 4d 00 43 00 00 00 00 00 fc 00$' -e '^cdb: 37 00 0c 00 00 00 00 00 04 00$' "$out/scsi.log")" \
	"0 2 4"

# --- bad input, before any device is needed ---
if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null; then
	echo "skip scan-repair: needs root and losetup"
	echo "end of suite"
	exit 0
fi
scan alone --scan-repair --yes-i-know-what-i-am-doing /dev/null
check "--scan-repair without --surface-scan: refused, one line" "$rc $(cat "$out/alone.err")" \
	"22 --scan-repair goes with --surface-scan"

why=$(faulty_disk_missing)
if [ -n "$why" ]; then
	echo "skip scan-repair: the faulty disk: $why"
	echo "end of suite"
	exit 0
fi

# A 4 MiB disk (8192 sectors): 255-257 across two blocks and 4000 heal when written; 1000 fails
# its first four reads (the scan's block, the search's sector, two of the three retries) and then reads.
if disk_up "$out/heal" 4 --bad 255+3 --bad 4000 --flaky 1000:4 --heal-on-write 2> "$out/heal.up"; then
	scan noflag --surface-scan --scan-repair "$FAULTY_DEV"
	check "without --yes-i-know-what-i-am-doing: refused, nothing read or written" \
		"$([ "$rc" != 0 ] && echo refused) $(grep -c '^Use of --scan-repair is VERY DANGEROUS.$' "$out/noflag.err") $(wc -l < "$FAULTY_LOG")" \
		"refused 1 0"
	scan heal --json --surface-scan --scan-repair --yes-i-know-what-i-am-doing --scan-picture "$out/heal.svg" "$FAULTY_DEV"
	check "--scan-picture with --scan-repair: stderr says the picture is the scan's, from before the 4 writes" \
		"$(grep -c "^ --scan-picture $out/heal.svg: drawn as the scan found the disk, before --scan-repair wrote 4 physical sectors$" "$out/heal.err") $(grep -c . "$out/heal.svg" | awk '$1 > 0 { print "drawn" }')" \
		"1 drawn"
	check "healing sectors: exit 0; repaired, read on a retry, still unreadable" \
		"$rc $(jget "$out/heal.out" '(s["unreadable_lbas"], s["repaired_lbas"], s["reads_now_lbas"], s["still_unreadable_lbas"], s["physical_sector_bytes"])')" \
		"0 ([255, 256, 257, 1000, 4000], [255, 256, 257, 4000], [1000], [], 512)"
	check "every sector written named in the JSON (issue 65, item 16)" \
		"$(jget "$out/heal.out" '([(w["first_lba"], w["last_lba"], w["zeroed_lbas"]) for w in s["written"]], s["not_written"])')" \
		"([(255, 255, [255]), (256, 256, [256]), (257, 257, [257]), (4000, 4000, [4000])], [])"
	check "a loop device: the drive's counts not available, before and after, with the reason" \
		"$(jget "$out/heal.out" '(s["drive_counts_before"], s["drive_counts_after"] == s["drive_counts_before"])')" \
		"({'available': False, 'reason': \"a loop device keeps no drive's counts\"}, True)"
	check "the writes: each unreadable sector once, its physical sector (512 bytes) alone; none at LBA 1000" \
		"$(writes)" "255-255 256-256 257-257 4000-4000"
	check "LBA 1000 read three more times after the scan's search (two fail, the third reads)" \
		"$(awk '$1 == "read" && $4 == 1000 && $5 == 1000 { print $6 }' "$FAULTY_LOG" | paste -sd' ' -)" "EIO EIO EIO ok"
	check "the image: the rewritten sectors hold zeros, every other sector its bytes" \
		"$(changed "$out/heal/image" "$out/heal/orig")" "255=0,256=0,257=0,4000=0"
	check "the heading and scan_kind say the scan was followed by a repair (not read-only)" \
		"$(jget "$out/heal.out" 's["scan_kind"]') $("$H" --surface-scan --scan-repair --yes-i-know-what-i-am-doing --scan-range 0-0 "$FAULTY_DEV" 2> /dev/null | grep -c '^ surface scan of LBA 0 to 0 (1 sector of 512 bytes, 1 block of 256 sectors), read, then the unreadable sectors rewritten (--scan-repair):$')" \
		"read_repair 1"
	: > "$FAULTY_LOG"
	scan again --surface-scan --scan-repair --yes-i-know-what-i-am-doing "$FAULTY_DEV"
	check "scanned again: nothing unreadable, nothing to repair, nothing written" \
		"$rc $(grep -c -e '^ unreadable LBAs: none$' -e '^ repair of the unreadable LBAs (each read 3 more times; physical sectors of 512 bytes written): none$' "$out/again.out") $(writes)" \
		"0 2 "
	faulty_disk_down
else
	bad "the faulty disk comes up" "$(cat "$out/heal.up")"
fi

# Sectors that do not heal: written, still unreadable: exit 5, a line for each.
if disk_up "$out/stuck" 4 --bad 300 --bad 301 --flaky 5000:4 2> "$out/stuck.up"; then
	scan stuck --surface-scan --scan-repair --yes-i-know-what-i-am-doing "$FAULTY_DEV"
	check "a sector that does not heal: exit 5, one line per sector" \
		"$rc $(sed -n '/^ repair of/,$p' "$out/stuck.out" | paste -sd'|' -)" \
		"5  repair of the unreadable LBAs (each read 3 more times; physical sectors of 512 bytes written):|  LBA 300: still unreadable (Input/output error)|  LBA 301: still unreadable (Input/output error)|  LBA 5000: reads now, not written|  written: LBA 300 (zeros)|  written: LBA 301 (zeros)| drive's counts before: not available: a loop device keeps no drive's counts| drive's counts after: not available: a loop device keeps no drive's counts"
	check "a sector that does not heal: written once, read back" \
		"$(writes) $(awk '$1 == "read" && $4 == 300 && $5 == 300' "$FAULTY_LOG" | wc -l)" "300-300 301-301 5"
	faulty_disk_down
else
	bad "the faulty disk comes up" "$(cat "$out/stuck.up")"
fi

# A signal during the scan's last block (issue 65, item 16): the scan ends complete, but the repair
# does not run: said, exit 4, nothing written. The faulty disk holds the last block's read (--hold)
# until the signal waits for hdparm: no timing.
if disk_up "$out/sig" 1 --bad 100 --heal-on-write --hold "300:$out/sig/release" 2> "$out/sig.up"; then
	env --default-signal=INT "$H" --json --surface-scan --scan-range 0-511 --scan-repair --yes-i-know-what-i-am-doing \
		"$FAULTY_DEV" > "$out/sig.out" 2> "$out/sig.err" &
	pid=$!
	held=no
	if until_true 30 grep -q '^held 300$' "$FAULTY_LOG" && until_true 20 waits_in_read "$pid"; then
		kill -INT "$pid"
		until_true 10 pending "$pid" && held=yes
	fi
	touch "$out/sig/release"
	wait "$pid"
	rc=$?
	check "SIGINT during the last block: the scan complete, the repair not run (said, in the JSON too), exit 4, nothing written" \
		"$held $rc $(jget "$out/sig.out" '(s["completed"], s["unreadable_lbas"], s["repair_not_run"])') $(writes) $(cat "$out/sig.err")" \
		"yes 4 (True, [100], 'interrupted')   --scan-repair: not run: interrupted"
	faulty_disk_down
else
	bad "the faulty disk comes up" "$(cat "$out/sig.up")"
fi

# The disk drops off its bus before the repair (the faulty disk dies at the repair's first retry
# of LBA 100: its third read): the sector the scan read last fails too; nothing is written, exit 6.
if disk_up "$out/gone" 1 --bad 100 --heal-on-write --die-at 100:3 2> "$out/gone.up"; then
	scan gone --json --surface-scan --scan-range 0-255 --scan-repair --yes-i-know-what-i-am-doing "$FAULTY_DEV"
	check "the disk gone before the repair: exit 6, nothing written, said; the LBA not repaired" \
		"$rc $(writes) $(jget "$out/gone.out" '(s["written"], s["not_written"])') $(grep -c 'stopped answering' "$out/gone.err")" \
		"6  ([], [{'lba': 100, 'reason': 'the disk stopped answering'}]) 1"
	faulty_disk_down
else
	bad "the faulty disk comes up" "$(cat "$out/gone.up")"
fi

# ... and gone after the write, at its read back (LBA 100's sixth read): LBA 100 was written, so it
# is not among those not written; it is still unreadable, as far as anyone knows; 200 is not begun.
if disk_up "$out/wgone" 1 --bad 100 --bad 200 --heal-on-write --die-at 100:6 2> "$out/wgone.up"; then
	scan wgone --json --surface-scan --scan-repair --yes-i-know-what-i-am-doing "$FAULTY_DEV"
	check "the disk gone at a written sector's read back: written, still unreadable, not among those not written; exit 6" \
		"$rc $(writes) $(jget "$out/wgone.out" '([(w["first_lba"], w["zeroed_lbas"]) for w in s["written"]], s["still_unreadable_lbas"], s["not_written"])')" \
		"6 100-100 ([(100, [100])], [100, 200], [{'lba': 200, 'reason': 'the disk stopped answering'}])"
	faulty_disk_down
else
	bad "the faulty disk comes up" "$(cat "$out/wgone.up")"
fi

# A resumed scan that reads nothing (its map complete: an earlier run read it all) and a disk gone
# since: before anything is written, a sector the earlier run read (1000, the range's first) is
# read; it fails: nothing written, said, exit 6. (The faulty disk dies at the first read of 1000.)
if disk_up "$out/mgone" 1 --bad 1100 --heal-on-write 2> "$out/mgone.up"; then
	rm -f "$out/mgone.map"
	scan mgone1 --surface-scan --scan-range 1000-2047 --scan-map "$out/mgone.map" "$FAULTY_DEV"
	faulty_disk_down
	first_rc=$rc
	# ... and where it dies at the first retry of 1100: that read proved it answered; 1000 read
	# again after the failure fails: the repair stops there, nothing written.
	if [ "$first_rc" = 5 ] && disk_up "$out/mgone" 1 --bad 1100 --heal-on-write --die-at 1100:1 2> "$out/mgone.up"; then
		scan mgone2 --json --surface-scan --scan-range 1000-2047 --scan-map "$out/mgone.map" --scan-repair \
			--yes-i-know-what-i-am-doing "$FAULTY_DEV"
		check "a map's complete scan, the disk gone at the repair's first retry: nothing written, said, exit 6" \
			"$rc $(grep -c '^write ' "$FAULTY_LOG") $(jget "$out/mgone2.out" 's["not_written"]') $(grep -c '^ --scan-repair: .* stopped answering: LBA 1000, read by the scan, fails now; the repair stopped$' "$out/mgone2.err")" \
			"6 0 [{'lba': 1100, 'reason': 'the disk stopped answering'}] 1"
		faulty_disk_down
	fi
	if [ "$first_rc" = 5 ] && disk_up "$out/mgone" 1 --bad 1100 --heal-on-write --die-at 1000:1 2> "$out/mgone.up"; then
		scan mgone --json --surface-scan --scan-range 1000-2047 --scan-map "$out/mgone.map" --scan-repair \
			--yes-i-know-what-i-am-doing "$FAULTY_DEV"
		check "a map's complete scan, the disk gone since: nothing written, said, exit 6" \
			"$rc $(grep -c '^read ' "$FAULTY_LOG") $(grep -c '^write ' "$FAULTY_LOG") $(jget "$out/mgone.out" 's["repair_not_run"]') $(grep -c '^ --scan-repair: .* does not answer: LBA 1000, read by an earlier run of the scan, fails now; nothing written$' "$out/mgone.err")" \
			"6 1 0 it could not start (said on stderr) 1"
	else
		bad "a map's complete scan, the disk gone since: the first run (exit $rc) and the disk" "$(cat "$out/mgone.up")"
	fi
	faulty_disk_down
else
	bad "the faulty disk comes up" "$(cat "$out/mgone.up")"
fi

# With --scan-map: the map is the scan's record, written before the repair: it still names the sector
# rewritten as unreadable (a scan with it reports so without reading), and hdparm says so.
if disk_up "$out/mapped" 1 --bad 100 --heal-on-write 2> "$out/mapped.up"; then
	scan mapped --surface-scan --scan-map "$out/mapped.map" --scan-repair --yes-i-know-what-i-am-doing "$FAULTY_DEV"
	check "with --scan-map: rewritten; the map still names it, and that is said" \
		"$rc $(writes) $(grep '^bad ' "$out/mapped.map") $(cat "$out/mapped.err")" \
		"0 100-100 bad 100  --scan-map $out/mapped.map: the map keeps the scan's findings, not the repair: it still names 1 sector unreadable that reads now; a scan with a new map reads it again"
	faulty_disk_down
else
	bad "the faulty disk comes up" "$(cat "$out/mapped.up")"
fi

# --- a partition (issue 65, item 27): refused in one line of its own (no LBA was given: not the
# sector commands' "absolute LBA" words), nothing read ---
if command -v sfdisk > /dev/null; then
	truncate -s 4M "$out/part.img"
	printf 'label: dos\nstart=2048, size=4096, type=83\n' | sfdisk -q "$out/part.img"
	if pdisk=$(losetup -f --show -P "$out/part.img"); then
		loops+=("$pdisk")
		pname=$(basename "$pdisk")
		partx -a "$pdisk" 2> /dev/null
		rm -f "$out/part1"
		# The node made here from sysfs: a container may have no udev to make /dev's.
		if until_true 10 test -e "/sys/block/$pname/${pname}p1/dev" &&
			mknod "$out/part1" b "$(cut -d: -f1 "/sys/block/$pname/${pname}p1/dev")" "$(cut -d: -f2 "/sys/block/$pname/${pname}p1/dev")"; then
			before=$(reads "${pname}p1")
			scan part --surface-scan --scan-repair --yes-i-know-what-i-am-doing "$out/part1"
			check "a partition: refused in one line, nothing read" "$rc $(reads "${pname}p1") $(cat "$out/part.err")" \
				"22 $before  --scan-repair: $out/part1 is a partition (it starts at LBA 2048 of its disk): refused, nothing read or written; name the whole disk (with --scan-range for the partition's LBAs)"
		else
			bad "a partition: ${pname}p1 appears"
		fi
	fi
fi

# --- a read-only device (losetup -r): refused before anything is read (the kernel would refuse each
# write after the whole scan; a recent one even lets the device be opened for writing) ---
truncate -s 1M "$out/ro.img"
if rodev=$(losetup -r --show -f "$out/ro.img"); then
	loops+=("$rodev")
	settle
	before=$(awk '{ print $1, $5 }' "/sys/block/${rodev#/dev/}/stat")
	scan rodev --json --surface-scan --scan-repair --yes-i-know-what-i-am-doing "$rodev"
	check "a read-only device: refused in one line, exit 30 (EROFS), nothing read or written" \
		"$rc $(awk '{ print $1, $5 }' "/sys/block/${rodev#/dev/}/stat") $(cat "$out/rodev.err")" \
		"30 $before  --scan-repair: $rodev is read-only: refused, nothing was read"
else
	bad "a read-only loop device (losetup -r)"
fi

# --- a mounted disk: refused before anything is read ---
truncate -s 16M "$out/fs.img"
if command -v mkfs.ext2 > /dev/null && mkfs.ext2 -q -F "$out/fs.img" > /dev/null 2>&1 &&
	fs=$(losetup --direct-io=on --show -f "$out/fs.img"); then
	loops+=("$fs")
	mkdir -p "$out/mnt"
	if mount "$fs" "$out/mnt"; then
		mnt="$out/mnt"
		before=$(awk '{ print $1, $5 }' "/sys/block/${fs#/dev/}/stat")
		scan mounted --surface-scan --scan-repair --yes-i-know-what-i-am-doing "$fs"
		check "a mounted disk: refused, its mount named, nothing read or written" \
			"$([ "$rc" != 0 ] && echo refused) $(grep -c "mounted on $out/mnt" "$out/mounted.err") $(awk '{ print $1, $5 }' "/sys/block/${fs#/dev/}/stat")" \
			"refused 1 $before"
		umount "$mnt" && mnt=""
	else
		echo "skip scan-repair: mount of ext2 failed"
	fi
else
	echo "skip scan-repair: no mkfs.ext2 or loop device"
fi
echo "end of suite"
