#!/bin/bash
# --scan-picture FILE (issue 61, item 6): the SVG of a surface scan, read back by two other readers:
# python3's xml.etree parses it and rsvg-convert renders it to PNG.  Its cells in LBA order cover the
# range (a 1 GiB loop device: 8192 blocks, two to a cell); on the faulty disk
# (tests/tools/faulty-disk.sh) the cells marked unreadable are exactly those that hold ddrescue's
# unreadable LBAs (the oracle), a --slow region's cells carry a slow class, the legend's counts are
# the JSON histogram's; a scan stopped early (SIGINT, --scan-errors-max) still leaves a picture, its
# unread cells "not_read"; names that cannot take a picture are refused before anything is read
# (the device's read counter does not move) and left as they were.
# Usage: scan-picture-tests.sh HDPARM OUTDIR.  Needs root.
set -u
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2/scan-picture
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034 # lib.sh's ok and bad read it
suite="scan-picture"
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/tools/faulty-disk.sh
. "$here/tools/faulty-disk.sh"
# shellcheck source=tests/tools/scan-suite.sh
. "$here/tools/scan-suite.sh"

if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null; then
	echo "skip scan-picture: needs root and losetup"
	echo "end of suite"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
loops=()
cleanup() {
	local l
	for l in "${loops[@]}"; do losetup -d "$l" 2> /dev/null; done
	mountpoint -q "$out/ro" && umount "$out/ro"
	faulty_disk_down
}
trap cleanup EXIT INT TERM HUP

# pic SVG JSON EXPR: EXPR in Python over the picture's cells (a list of (lba, class)), its legend (a
# dict class: count), the JSON's surface_scan object s (JSON may be -) and bad, the LBAs of BAD (a
# comma-separated list in $bad_lbas).  Parsed by xml.etree: a picture that is no XML fails here.
pic() {
	python3 - "$@" << 'EOF' 2>&1
import json, os, sys
import xml.etree.ElementTree as ET
svg, js, expr = sys.argv[1:4]
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(svg).getroot()
cells = [(int(r.get("data-lba")), r.get("data-class")) for r in root.iter(ns + "rect") if r.get("data-lba") is not None]
legend = {g.get("data-class"): int(g.get("data-count")) for g in root.iter(ns + "g") if g.get("class") == "legend"}
s = json.load(open(js))["devices"][0]["surface_scan"] if js != "-" else None
bad = [int(x) for x in os.environ.get("bad_lbas", "").split(",") if x]
step = int(root.find(ns + "g[@id='cells']").get("data-cell-sectors"))
print(eval(expr))
EOF
}
# renders SVG: rsvg-convert makes a PNG of it without a word on stderr.
renders() {
	command -v rsvg-convert > /dev/null || { echo "no rsvg-convert (librsvg2-bin; tests/setup installs it)"; return; }
	rsvg-convert "$1" -o "$1.png" 2>&1 && [ -s "$1.png" ] && head -c 8 "$1.png" | od -An -c | tr -d ' \n'
}

# --- a 1 GiB loop device: 8192 blocks, at most 4096 cells: two blocks a cell ---
truncate -s 1G "$out/img"
dev=$(losetup --direct-io=on --show -f "$out/img") || { bad "losetup --direct-io=on" "no loop device"; exit 0; }
settle
loops+=("$dev")
scan big --json --surface-scan --scan-picture "$out/big.svg" "$dev"
check "1 GiB: exit 0, nothing on stderr" "$rc $(cat "$out/big.err")" "0 "
check "1 GiB: rsvg-convert renders the picture to PNG" "$(renders "$out/big.svg")" '211PNG\r\n032\n'
check "1 GiB: 4096 cells of two blocks, data-lba from 0 in steps of 512 to the end, all read" \
	"$(pic "$out/big.svg" "$out/big.out" '(len(cells), step, [l for l, c in cells] == list(range(0, 2097152, 512)), set(c for l, c in cells) <= {"lt_5ms", "lt_20ms", "lt_50ms", "lt_150ms", "lt_500ms", "ge_500ms"})')" \
	"(4096, 512, True, True)"
check "1 GiB: the legend's counts are the JSON histogram's, nothing not read" \
	"$(pic "$out/big.svg" "$out/big.out" '(legend == dict(s["histogram"], not_read=0), sum(legend.values()))')" "(True, 8192)"
check "1 GiB: the picture is small (under 512 kB: 4096 cells at most, whatever the disk's size)" \
	"$(($(wc -c < "$out/big.svg") < 524288))" 1
check "no file but the picture is left in its folder (the temporary one renamed)" \
	"$(find "$out" -maxdepth 1 -name 'big.svg*' | sed 's|.*/||' | sort | paste -sd' ' -)" "big.svg big.svg.png"

# A range of 4097 blocks and 5 sectors: 4098 blocks, two a cell, 2049 cells, the last of one short block.
scan odd --surface-scan --scan-range 1000+1048837 --scan-picture "$out/odd.svg" "$dev"
check "an odd range: 2049 cells from its first LBA, in steps of 512, the last at 1000+2048*512" \
	"$rc $(pic "$out/odd.svg" - '(len(cells), cells[0][0], all(b[0] - a[0] == 512 for a, b in zip(cells, cells[1:])), cells[-1][0])')" \
	"0 (2049, 1000, True, 1049576)"
# An existing picture (a regular file) is replaced, whole.
echo old > "$out/old.svg"
scan again --surface-scan --scan-range 0+256 --scan-picture "$out/old.svg" "$dev"
check "a regular file is replaced by the picture: one cell" "$rc $(pic "$out/old.svg" - 'len(cells)')" "0 1"
# A scan resumed from its map (--scan-map): the picture holds the blocks the map restored, read by
# the earlier run, not "not read" (here the map is of a complete scan: nothing is read again).
rm -f "$out/done.map"
scan mapped --surface-scan --scan-range 0+65536 --scan-map "$out/done.map" "$dev"
before_map=$(reads "$dev")
scan resumed --json --surface-scan --scan-range 0+65536 --scan-map "$out/done.map" --scan-picture "$out/resumed.svg" "$dev"
check "a scan resumed from a complete map: nothing read, its picture's 256 cells all read, the legend the JSON's" \
	"$rc $(($(reads "$dev") - before_map)) $(pic "$out/resumed.svg" "$out/resumed.out" '(len(cells), sum(c == "not_read" for l, c in cells), legend == dict(s["histogram"], not_read=0), sum(legend.values()))')" \
	"0 0 (256, 0, True, 256)"

# The disk's model and serial as sysfs shows them: in the QEMU suite (tests/vm/checks.sh), on an
# AHCI disk; no disk of this machine is read.

# --- refusals: one line on stderr, non-zero exit, nothing read, the name left as it was ---
mkfifo "$out/fifo"
mknod "$out/node" c 1 3
echo target > "$out/target"
ln -s target "$out/link"
mkdir -p "$out/ro" "$out/dir"
mount -t tmpfs -o ro,size=1m tmpfs "$out/ro" || bad "a read-only tmpfs" "mount failed"
before=$(reads "$dev")
n=0
long=$(printf 'a%.0s' {1..300}).svg
for name in "$out/nofolder/p.svg" "$out/ro/p.svg" "$out/dir" "$out/fifo" "$out/node" "$out/link" /dev/null "$out/dir/" "" \
	"$out/target/p.svg" "$out/$long" /proc/p.svg; do
	n=$((n + 1))
	timeout 20 "$H" --surface-scan --scan-picture "$name" "$dev" > "$out/ref$n.out" 2> "$out/ref$n.err"
	rc=$?
	# The words of the refusal: the name's own check, or the parser's for an empty one.
	why='refused, nothing was'
	[ -n "$name" ] || why='bad/missing filename parameter'
	if [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$(wc -l < "$out/ref$n.err")" = 1 ] && [ ! -s "$out/ref$n.out" ] &&
		grep -q -- "$why" "$out/ref$n.err"; then
		ok "--scan-picture '$name': refused, one line on stderr ($(cat "$out/ref$n.err"))"
	else
		bad "--scan-picture '$name': refused, one line on stderr" "rc $rc" "$(cat "$out/ref$n.err" "$out/ref$n.out")"
	fi
done
scan alone --scan-picture "$out/alone.svg" "$dev"
check "--scan-picture without --surface-scan: refused, one line" "$rc $(cat "$out/alone.err")" \
	"22 --scan-picture goes with --surface-scan"
scan two --surface-scan --scan-picture "$out/two.svg" "$dev" "$dev"
check "--scan-picture for two disks: refused, one line" "$rc $(cat "$out/two.err")" \
	"22 --scan-picture $out/two.svg: one picture for 2 disks: scan them one at a time"
check "refusals: the device read nothing" "$(reads "$dev")" "$before"
check "refusals: the FIFO, the device node, the link, /dev/null and the folders left as they were, no picture made" \
	"$(stat -c %F "$out/fifo" "$out/node" "$out/link" /dev/null "$out/dir" | paste -sd, -) $(cat "$out/target") $(find "$out/dir" "$out/ro" -mindepth 1 | wc -l) $(find "$out" -maxdepth 1 \( -name 'alone.svg*' -o -name 'two.svg*' -o -name 'aaa*' -o -name nofolder \) | wc -l)" \
	"fifo,character special file,symbolic link,character special file,directory target 0 0"
mountpoint -q "$out/ro" && umount "$out/ro"

# --- the faulty disk ---
why=$(faulty_disk_missing)
if [ -n "$why" ]; then
	echo "skip scan-picture: the faulty disk: $why"
	echo "end of suite"
	exit 0
fi
# 4 MiB (8192 sectors, 32 blocks, a cell each): LBA 0, 255-257 across two blocks, 4000, the last LBA
# bad; sectors 1000-1599 slow (blocks 768 to 1791).
mkdir -p "$out/fd"
if disk_up "$out/fd" 4 --bad 0 --bad 255+3 --bad 4000 --bad 8191 --slow 1000+600:160 2> "$out/fd.err"; then
	scan fault --json --surface-scan --scan-picture "$out/fault.svg" "$FAULTY_DEV"
	rm -f "$out/fd.map"
	ddrescue -d -b 512 -f "$FAULTY_DEV" /dev/null "$out/fd.map" > "$out/fd.ddrescue" 2>&1
	bad_lbas=$(faulty_disk_bad_lbas "$out/fd.map" | paste -sd, -)
	export bad_lbas
	check "the faulty disk: ddrescue names the bad LBAs made; the scan exits 5" "$bad_lbas $rc" "0,255,256,257,4000,8191 5"
	check "the faulty disk: rsvg-convert renders the picture" "$(renders "$out/fault.svg")" '211PNG\r\n032\n'
	check "the cells marked unreadable are exactly those holding ddrescue's unreadable LBAs" \
		"$(pic "$out/fault.svg" "$out/fault.out" '(len(cells), [l for l, c in cells if c == "unreadable"] == sorted(set(l for l, c in cells for b in bad if l <= b < l + step)), sum(c == "unreadable" for l, c in cells))')" \
		"(32, True, 4)"
	check "the slow sectors' cells (blocks 768 to 1791) carry a slow class" \
		"$(pic "$out/fault.svg" "$out/fault.out" 'all(c in ("lt_500ms", "ge_500ms") for l, c in cells if 768 <= l <= 1791)')" "True"
	check "the faulty disk: the legend's counts are the JSON histogram's" \
		"$(pic "$out/fault.svg" "$out/fault.out" 'legend == dict(s["histogram"], not_read=0)')" "True"
	scan max --json --surface-scan --scan-errors-max 3 --scan-picture "$out/max.svg" "$FAULTY_DEV"
	# Block 1, cut short after its unreadable 256 (257-511 never read), is not read (issue 65, item 25).
	check "--scan-errors-max 3: a picture still, block 0 unreadable, block 1 (cut short) and the 30 after it 'not_read'" \
		"$rc $(pic "$out/max.svg" "$out/max.out" '([c for l, c in cells[:1]], set(c for l, c in cells[1:]), legend["not_read"], legend == dict(s["histogram"], not_read=s["blocks"] - s["blocks_read"]))')" \
		"5 (['unreadable'], {'not_read'}, 31, True)"
	faulty_disk_down
else
	bad "the faulty disk comes up" "$(cat "$out/fd.err")"
fi

# SIGINT mid-scan (every read 100 ms slower; the signal once the read of LBA 1024 is logged): exit 4,
# a picture whose read cells are those of blocks_read and the rest "not_read".
mkdir -p "$out/fi"
if disk_up "$out/fi" 4 --slow 0+8192:100 2> "$out/fi.err"; then
	env --default-signal=INT,QUIT "$H" --json --surface-scan --scan-picture "$out/int.svg" "$FAULTY_DEV" > "$out/int.out" 2> "$out/int.err" &
	pid=$!
	if until_true 30 grep -q '^read [0-9]* [0-9]* 1024 ' "$FAULTY_LOG"; then
		kill -INT "$pid"
	fi
	wait_within 120 "$pid"
	check "SIGINT: exit 4, a picture: the cells read first, then only not_read ones; the legend's not_read the blocks left" \
		"$rc $(pic "$out/int.svg" "$out/int.out" '(len(cells), all(c != "not_read" for l, c in cells[:s["blocks_read"]]), set(c for l, c in cells[s["blocks_read"]:]), legend["not_read"] == 32 - s["blocks_read"] > 0)')" \
		"4 (32, True, {'not_read'}, True)"
	check "SIGINT: rsvg-convert renders the picture" "$(renders "$out/int.svg")" '211PNG\r\n032\n'
	# SIGKILL mid-scan: no picture at all, and no temporary file beside its name.
	: > "$FAULTY_LOG"
	"$H" --surface-scan --scan-picture "$out/kill.svg" "$FAULTY_DEV" > /dev/null 2>&1 &
	pid=$!
	until_true 30 grep -q '^read [0-9]* [0-9]* 1024 ' "$FAULTY_LOG" && kill -KILL "$pid"
	wait "$pid" 2> /dev/null
	check "SIGKILL mid-scan: no picture and no temporary file left" "$(find "$out" -maxdepth 1 -name 'kill.svg*' | wc -l)" 0
	faulty_disk_down
else
	bad "the faulty disk comes up (slow)" "$(cat "$out/fi.err")"
fi
echo "end of suite"
