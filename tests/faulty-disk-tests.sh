#!/bin/bash
# The faulty disk of the tests (tests/tools/faulty-disk.py, .sh): a loop device over a FUSE file that
# fails reads at chosen sectors, delays others and heals a sector when written, held to an
# independent oracle: ddrescue -d -b 512 (direct, sector by sector) must name exactly the sectors
# made bad, no more, no fewer.  What the surface scan's tests (issue 61) stand on.
# Usage: faulty-disk-tests.sh HDPARM OUTDIR (HDPARM unused: no hdparm here).  Needs root.
set -u
out=$2/faulty-disk
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034 # lib.sh's ok and bad read it
suite="faulty-disk"
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/tools/faulty-disk.sh
. "$here/tools/faulty-disk.sh"

why=""
[ "$(id -u)" = 0 ] || why="needs root (loop devices, FUSE mounts)"
[ -n "$why" ] || why=$(faulty_disk_missing)
if [ -n "$why" ]; then
	echo "skip faulty-disk: $why"
	echo "end of suite"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
# A signal ends the suite (a trap that only took the disk down would let it go on, to FAIL lines
# and "end of suite"); the exit takes the disk down.
trap faulty_disk_down EXIT
trap 'exit 1' INT TERM HUP

# rescue NAME: ddrescue over the whole faulty disk; the bad LBAs of its mapfile in $out/NAME.bad.
rescue() {
	rm -f "$out/$1.map"
	ddrescue -d -b 512 -f "$FAULTY_DEV" /dev/null "$out/$1.map" > "$out/$1.ddrescue" 2>&1
	faulty_disk_bad_lbas "$out/$1.map" > "$out/$1.bad"
}

# same_lbas NAME FILE WANT...: FILE holds exactly the LBAs WANT, one a line.
same_lbas() {
	local name=$1 file=$2
	shift 2
	if [ "$(tr '\n' ' ' < "$file")" = "$* " ]; then
		ok "$name"
	else
		bad "$name" "got:    $(head -n 40 "$file" | tr '\n' ' ')($(wc -l < "$file") LBAs)" "wanted: $*"
	fi
}

# read_sectors LBA COUNT: dd with O_DIRECT, 512 bytes at a time; its exit status.
read_sectors() { dd if="$FAULTY_DEV" of=/dev/null bs=512 skip="$1" count="$2" iflag=direct 2> /dev/null; }

# --- a 16 MiB disk (32768 sectors): a single bad sector, a run, LBA 0, the last LBA, a pair across
# a 4 KiB boundary (7 and 8), and a slow region ---
mkdir -p "$out/d1"
head -c 16M /dev/urandom > "$out/d1/image"
if ! faulty_disk_up "$out/d1" 16 --bad 0 --bad 7+2 --bad 1000 --bad 2000+5 --bad 32767 --slow 20000+8:200 2> "$out/up.err"; then
	bad "faulty disk comes up" "$(cat "$out/up.err")"
	echo "end of suite"
	exit 0
fi
ok "faulty disk comes up as $FAULTY_DEV"
if [ "$FAULTY_DIO" = 1 ]; then ok "the loop device does direct I/O"; else echo "skip faulty-disk: direct I/O: $(cat "$out/up.err")"; fi
if [ "$(blockdev --getsz "$FAULTY_DEV")" = 32768 ]; then
	ok "the loop device has the image's 32768 sectors"
else
	bad "the loop device has the image's 32768 sectors" "$(blockdev --getsz "$FAULTY_DEV")"
fi

t0=$EPOCHREALTIME
rescue d1
took=$(echo "$EPOCHREALTIME - $t0" | bc)
same_lbas "ddrescue -d -b 512 names exactly the bad LBAs (0, 7-8, 1000, 2000-2004, 32767) in ${took}s" \
	"$out/d1.bad" 0 7 8 1000 2000 2001 2002 2003 2004 32767
# Where the kernel refuses the loop device direct I/O (faulty_disk_up's fallback), its reads reach the
# file through the page cache: FUSE's direct_io keeps them sector-sized there (without it, a failure
# spreads to the whole 4 KiB page: 0-15, 1000-1007, 32760-32767).
if losetup --direct-io=off "$FAULTY_DEV" 2> /dev/null; then
	rescue d1-buffered
	same_lbas "ddrescue on the loop device without direct I/O names exactly the same LBAs" \
		"$out/d1-buffered.bad" 0 7 8 1000 2000 2001 2002 2003 2004 32767
	losetup --direct-io=on "$FAULTY_DEV" 2> /dev/null
else
	echo "skip faulty-disk: losetup --direct-io=off refused"
fi
: > "$FAULTY_LOG"
rescue d1
# The disk failed the sectors it was told to, and ddrescue did not read one of them as good.
if grep -q '^read 0 512 0 0 EIO 0$' "$FAULTY_LOG" && grep -q '^read 16776704 512 32767 32767 EIO 0$' "$FAULTY_LOG"; then
	ok "the log shows the sector-by-sector reads of LBA 0 and the last LBA failing"
else
	bad "the log shows the sector-by-sector reads of LBA 0 and the last LBA failing" "$(grep -c EIO "$FAULTY_LOG") EIO lines"
fi

# A good region reads, and its bytes are the image's.
if dd if="$FAULTY_DEV" bs=4096 skip=1024 count=512 iflag=direct 2> /dev/null > "$out/good.bytes" &&
	dd if="$out/d1/image" bs=4096 skip=1024 count=512 2> /dev/null | cmp -s - "$out/good.bytes"; then
	ok "dd iflag=direct of a good 2 MiB region reads the image's bytes"
else
	bad "dd iflag=direct of a good 2 MiB region reads the image's bytes"
fi
# Exact: the neighbours of a bad sector read, the sector does not; a read over it fails as a whole.
if read_sectors 999 1 && ! read_sectors 1000 1 && read_sectors 1001 1 && read_sectors 1999 1 && read_sectors 2005 1 &&
	read_sectors 32766 1 && read_sectors 1 6 && read_sectors 9 1; then
	ok "a bad sector's neighbours read, the sector does not"
else
	bad "a bad sector's neighbours read, the sector does not"
fi
if ! dd if="$FAULTY_DEV" of=/dev/null bs=64K skip=0 count=1 iflag=direct 2> /dev/null &&
	! dd if="$FAULTY_DEV" of=/dev/null bs=4096 skip=125 count=1 iflag=direct 2> /dev/null; then
	ok "a read of good sectors and a bad one fails as a whole"
else
	bad "a read of good sectors and a bad one fails as a whole"
fi
# Without --heal-on-write, a written bad sector stays bad.
if dd if=/dev/zero of="$FAULTY_DEV" bs=512 seek=1000 count=1 oflag=direct conv=notrunc 2> /dev/null &&
	! read_sectors 1000 1; then
	ok "without --heal-on-write, a written bad sector still fails"
else
	bad "without --heal-on-write, a written bad sector still fails"
fi

# The slow region: 5 reads of it, 5 of a good region.  Each slow read sleeps 200 ms in the server
# (the log says so), so 5 take 1 s at least: a bound that a loaded machine can only make larger.
: > "$FAULTY_LOG"
t0=$EPOCHREALTIME
for i in 0 1 2 3 4; do read_sectors $((20000 + i)) 1; done
slow=$(echo "$EPOCHREALTIME - $t0" | bc)
t0=$EPOCHREALTIME
for i in 0 1 2 3 4; do read_sectors $((24000 + i)) 1; done
fast=$(echo "$EPOCHREALTIME - $t0" | bc)
n_slow=$(grep -c '^read [0-9]* 512 2000[0-4] 2000[0-4] ok 200$' "$FAULTY_LOG")
n_fast=$(grep -c '^read [0-9]* 512 2400[0-4] 2400[0-4] ok 0$' "$FAULTY_LOG")
if [ "$n_slow" = 5 ] && [ "$n_fast" = 5 ] && [ "$(echo "$slow >= 1.0 && $fast < $slow" | bc)" = 1 ]; then
	ok "the slow region's reads take 200 ms more (5 reads: ${slow}s; 5 good ones: ${fast}s)"
else
	bad "the slow region's reads take 200 ms more" "slow reads logged: $n_slow, good: $n_fast; ${slow}s against ${fast}s" \
		"$(head -n 12 "$FAULTY_LOG" | tr '\n' '|')"
fi
faulty_disk_down

# --- --heal-on-write: a written bad sector reads again, one written in part fails ---
if ! faulty_disk_up "$out/d2" 16 --bad 100 --bad 200+3 --bad 4095 --heal-on-write 2> "$out/up2.err"; then
	bad "faulty disk with --heal-on-write comes up" "$(cat "$out/up2.err")"
else
	rescue d2-before
	same_lbas "before a write, ddrescue finds 100, 200-202, 4095" "$out/d2-before.bad" 100 200 201 202 4095
	dd if=/dev/zero of="$FAULTY_DEV" bs=512 seek=100 count=1 oflag=direct conv=notrunc 2> /dev/null
	dd if=/dev/zero of="$FAULTY_DEV" bs=512 seek=201 count=1 oflag=direct conv=notrunc 2> /dev/null
	# 4 KiB over LBA 4088-4095: the bad sector whole, seven good ones with it.
	dd if=/dev/zero of="$FAULTY_DEV" bs=4096 seek=511 count=1 oflag=direct conv=notrunc 2> /dev/null
	# A write of part of a bad sector (straight to the FUSE file: the loop device writes whole
	# sectors) fails: the drive would have to read the rest of it first.
	if ! dd if=/dev/zero of="$out/d2/mnt/disk" bs=100 seek=$((202 * 512 + 100)) count=1 oflag=seek_bytes,direct \
		conv=notrunc 2> /dev/null; then
		ok "a write of part of a bad sector fails"
	else
		bad "a write of part of a bad sector fails"
	fi
	rescue d2-after
	same_lbas "after zeros written to 100, 201 and 4088-4095 (dd oflag=direct), ddrescue finds 200 and 202 only" \
		"$out/d2-after.bad" 200 202
	if cmp -s -n 512 <(dd if="$out/d2/image" bs=512 skip=100 count=1 2> /dev/null) /dev/zero; then
		ok "the healed sector holds the zeros written"
	else
		bad "the healed sector holds the zeros written"
	fi
	if grep -q '^write 51200 512 100 100 ok 1$' "$FAULTY_LOG"; then
		ok "the log names the write that healed LBA 100"
	else
		bad "the log names the write that healed LBA 100" "$(grep '^write' "$FAULTY_LOG" | head -n 5 | tr '\n' '|')"
	fi
	faulty_disk_down
fi

# --- a server that hangs (here: a read it holds for 30 s) ends at its lifetime (2 s), and the read
# that waited on it in the loop device (uninterruptible) fails instead of hanging the suite ---
if ! FAULTY_DISK_LIFETIME=2 faulty_disk_up "$out/d4" 16 --slow 10:30000 2> "$out/up4.err"; then
	bad "faulty disk with a 2 s lifetime comes up" "$(cat "$out/up4.err")"
else
	t0=$EPOCHREALTIME
	if ! read_sectors 10 1; then
		took=$(echo "$EPOCHREALTIME - $t0" | bc)
		ok "a read held by a server past its lifetime fails (after ${took}s, not 30)"
	else
		bad "a read held by a server past its lifetime fails" "$(cat "$out/d4/server.err")"
	fi
	if grep -q '^lifetime over 2$' "$FAULTY_LOG" && grep -q 'lifetime over' "$out/d4/server.err"; then
		ok "the server says that its lifetime ended (log, stderr)"
	else
		bad "the server says that its lifetime ended (log, stderr)" "$(tail -n 2 "$FAULTY_LOG")"
	fi
	faulty_disk_down
fi

# --- nothing left behind: after faulty_disk_down (twice), and after a test killed with SIGKILL ---
faulty_disk_down
left() { losetup -j "$1/mnt/disk" | grep -q . || grep -qF " $1/mnt " /proc/self/mounts; }
# gone DIR PID: no loop device over DIR's disk, no mount, no server PID.
gone() { ! left "$1" && ! kill -0 "$2" 2> /dev/null; }
if ! left "$out/d1" && ! left "$out/d2" && ! left "$out/d4"; then
	ok "faulty_disk_down (twice) leaves no loop device and no mount"
else
	bad "faulty_disk_down (twice) leaves no loop device and no mount" "$(losetup -l)" "$(grep faulty /proc/self/mounts)"
fi
bash -c '. "$1"; faulty_disk_up "$2" 16 --bad 5 || exit 1; echo "$FAULTY_DEV $FAULTY_PID" > "$2/up"; exec sleep 60' \
	_ "$here/tools/faulty-disk.sh" "$out/d3" > /dev/null 2>&1 &
killed=$!
if until_true 20 test -s "$out/d3/up"; then
	kill -KILL "$killed"
	wait "$killed" 2> /dev/null
	read -r dev3 pid3 < "$out/d3/up"
	if until_true 20 gone "$out/d3" "$pid3"; then
		ok "a test killed with SIGKILL leaves no loop device, no mount and no server ($dev3 gone)"
	else
		bad "a test killed with SIGKILL leaves no loop device, no mount and no server" "$(losetup -l)" "$(grep faulty /proc/self/mounts)"
		# Not left for the rest of the run (a mutant's, say): taken down here as faulty_disk_down would.
		for d in $(losetup -j "$out/d3/mnt/disk" | cut -d: -f1); do losetup -d "$d"; done
		kill -KILL "$pid3" 2> /dev/null
		umount -l "$out/d3/mnt" 2> /dev/null
	fi
else
	kill -KILL "$killed" 2> /dev/null
	bad "a test killed with SIGKILL: the disk did not come up"
fi
echo "end of suite"
