#!/bin/bash
# -t --iodepth and --seeks on loop devices, observed with strace: request
# sizes, alignment, offsets and requests in flight (on the native AIO
# engine, whose requests strace shows: io_uring_setup is made to fail, as
# where io_uring is disabled); then the io_uring and pread engines, whose
# reads the kernel's counters for the device check.  No check depends on a
# speed.  Usage: iodepth-tests.sh HDPARM OUTDIR.
set -u
H=$1
out=$2
command -v strace >/dev/null || { echo "skip iodepth: no strace (tests/setup installs it)"; echo "end of suite"; exit 0; }
suite="iodepth"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

img="$out/q.img"
truncate -s 2G "$img"
dev=$(losetup -f --show "$img") || { echo "skip iodepth: losetup failed"; echo "end of suite"; exit 0; }
trap 'losetup -d "$dev"; rm -f "$img"' EXIT
trap 'exit 1' INT TERM HUP
size=$((2 * 1024 * 1024 * 1024))

traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o "$out/q.trace" -e trace=io_submit,io_getevents,openat,io_uring_setup \
		-e inject=io_uring_setup:error=ENOSYS -e abbrev=none -s 0 "$H" "$@" > "$out/q.out" 2> "$out/q.err"
	rc=$?
}
# "size offset" of every read submitted
submitted() {
	grep -o 'aio_nbytes=[0-9]*, aio_offset=[0-9]*' "$out/q.trace" | sed 's/aio_nbytes=//; s/, aio_offset=/ /'
}
# the most requests ever in flight
max_inflight() {
	awk '/io_submit\(/ { n += $NF; if (n > m) m = n } /io_getevents\(/ { n -= $NF } END { print m + 0 }' "$out/q.trace"
}

traced -t --iodepth 8 --block-size 64 "$dev"
subs=$(submitted)
if [ "$rc" = 0 ] && grep -qE '^ Timing O_DIRECT disk reads \(iodepth 8, 64 KiB\): +[0-9]+ MB in +[0-9.]+ seconds = +[0-9.]+ MB/sec$' "$out/q.out"; then
	ok "-t --iodepth output"
else
	bad "-t --iodepth output" "exit $rc" "$(cat "$out/q.out" "$out/q.err")"
fi
if grep -q "openat(AT_FDCWD, \"$dev\", O_RDONLY|O_DIRECT" "$out/q.trace" && [ -n "$subs" ] && ! echo "$subs" | awk '$1 != 65536' | grep -q .; then
	ok "-t --iodepth reads 64 KiB with O_DIRECT"
else
	bad "-t --iodepth reads 64 KiB with O_DIRECT" "$(echo "$subs" | awk '{print $1}' | sort | uniq -c | head -3)"
fi
if echo "$subs" | awk 'BEGIN { want = 0 } { if ($2 != want) exit 1; want += 65536 } END { exit NR == 0 }'; then
	ok "-t --iodepth reads in sequence from 0"
else
	bad "-t --iodepth reads in sequence from 0"
fi
m=$(max_inflight)
if [ "$m" = 8 ]; then ok "-t --iodepth keeps 8 requests in flight"; else bad "-t --iodepth keeps 8 requests in flight" "at most $m"; fi
mb=$(grep -oE '\): +[0-9]+ MB' "$out/q.out" | grep -oE '[0-9]+')
n=$(echo "$subs" | grep -c .)
if [ -n "$mb" ] && [ "$((n * 64 / 1024))" -ge "$mb" ]; then ok "-t --iodepth reports no more than it read"; else bad "-t --iodepth reports no more than it read" "$n reads, $mb MB"; fi

traced --seeks --block-size 4 --iodepth 4 "$dev"
subs=$(submitted)
if [ "$rc" = 0 ] && grep -qE '^ Timing random seeks \(iodepth 4, 4 KiB\): [0-9]+ seeks in +[0-9.]+ seconds = [0-9.]+ seeks/sec, latency mean [0-9.]+ ms, p99 [0-9.]+ ms$' "$out/q.out"; then
	ok "--seeks output"
else
	bad "--seeks output" "exit $rc" "$(cat "$out/q.out" "$out/q.err")"
fi
if echo "$subs" | awk -v size="$size" '$1 != 4096 || $2 % 512 || $2 + 4096 > size { exit 1 } END { exit NR < 100 }'; then
	ok "--seeks reads 4 KiB, sector-aligned, inside the device"
else
	bad "--seeks reads 4 KiB, sector-aligned, inside the device" "$(echo "$subs" | head -3)"
fi
# n uniform draws from m block positions leave m(1 - e^(-n/m)) distinct on average;
# fewer than 95% of that, or one position drawn more than 10 times, is not chance.
if echo "$subs" | awk -v size="$size" '
	{ seen[$2]++; n++; if (!min || $2 < min) min = $2; if ($2 > max) max = $2 }
	END { m = size / 4096; expect = m * (1 - exp(-n / m))
	      for (o in seen) { d++; if (seen[o] > worst) worst = seen[o] }
	      exit !(n >= 100 && d >= 0.95 * expect && worst <= 10 && min < size / 8 && max > size * 7 / 8) }'; then
	ok "--seeks spreads its reads over the device, repeats only by chance"
else
	bad "--seeks spreads its reads over the device" "$(echo "$subs" | awk '{print $2}' | sort -n | uniq -c | sort -rn | head -3)"
fi
m=$(max_inflight)
if [ "$m" = 4 ]; then ok "--seeks keeps 4 requests in flight"; else bad "--seeks keeps 4 requests in flight" "at most $m"; fi

traced --seeks --iodepth 2 --offset 1 "$dev"
if echo "$(submitted)" | awk '$2 < 1073741824 { exit 1 } END { exit NR == 0 }'; then ok "--seeks --offset 1 stays above 1 GiB"; else bad "--seeks --offset 1 stays above 1 GiB"; fi

for args in "--iodepth 0 -t" "--iodepth 257 -t" "--block-size 3 -t" "--block-size 65537 --seeks" "--iodepth 4"; do
	# shellcheck disable=SC2086
	"$H" $args "$dev" > "$out/q.out" 2> "$out/q.err"
	rc=$?
	if [ "$rc" = 22 ] && [ -s "$out/q.err" ] && ! grep -q Timing "$out/q.out"; then ok "refused: $args"; else bad "refused: $args" "exit $rc"; fi
done
"$H" --seeks "$img" > "$out/q.out" 2> "$out/q.err"
rc=$?
if [ "$rc" != 0 ] && grep -q 'block device' "$out/q.err" && ! grep -q Timing "$out/q.out"; then ok "--seeks on a regular file is refused"; else bad "--seeks on a regular file is refused" "exit $rc"; fi
# --- the engines: io_uring where the kernel has it, pread at one read in flight ---
# kernel_sectors: the sectors read from the device, as the kernel counts them
kernel_sectors() { awk '{ print $3 }' "/sys/block/${dev#/dev/}/stat"; }
engine_run() { # ARGS...: verbose run; sets rc, and sectors (what the kernel read meanwhile)
	local before
	before=$(kernel_sectors)
	"$H" --verbose "$@" "$dev" > "$out/q.out" 2> "$out/q.err"
	rc=$?
	sectors=$(($(kernel_sectors) - before))
}
engine_run -t --iodepth 8 --block-size 64
mb=$(grep -oE '\): +[0-9]+ MB' "$out/q.out" | grep -oE '[0-9]+')
if [ "$rc" = 0 ] && grep -qxE ' read engine: io_uring \(registered buffers and file(, buffers in 2 MiB pages)?\)' "$out/q.out"; then
	ok "-t --iodepth runs on io_uring, buffers and file registered (--verbose says so)"
else
	bad "-t --iodepth runs on io_uring" "exit $rc" "$(cat "$out/q.out" "$out/q.err")"
fi
# -t reports whole MiB, rounded down: the kernel's sectors, rounded down the same way.
if [ -n "$mb" ] && [ $((sectors / 2048)) = "$mb" ]; then
	ok "-t --iodepth on io_uring: the kernel read the MiB reported ($mb)"
else
	bad "-t --iodepth on io_uring: the kernel read the MiB reported" "kernel $sectors sectors, reported $mb MB"
fi
engine_run --seeks --iodepth 16
n=$(grep -oE '[0-9]+ seeks in' "$out/q.out" | grep -oE '^[0-9]+')
if [ "$rc" = 0 ] && grep -q ' read engine: io_uring' "$out/q.out" && [ -n "$n" ] && [ "$sectors" = $((n * 8)) ]; then
	ok "--seeks on io_uring: the kernel read exactly the $n reads reported"
else
	bad "--seeks on io_uring: the kernel read exactly the reads reported" "exit $rc, kernel $sectors sectors, reported ${n:-none}"
fi
engine_run --seeks
n=$(grep -oE '[0-9]+ seeks in' "$out/q.out" | grep -oE '^[0-9]+')
if [ "$rc" = 0 ] && grep -qE '^ read engine: pread( \(buffers in 2 MiB pages\))?$' "$out/q.out" && [ -n "$n" ] && [ "$sectors" = $((n * 8)) ]; then
	ok "--seeks at one read in flight uses pread; the kernel read exactly the $n reads reported"
else
	bad "--seeks at one read in flight uses pread" "exit $rc, kernel $sectors sectors, reported ${n:-none}"
fi
# In 2 MiB pages a 1 MiB read is a few segments and reaches the device as one
# request; in 4 KiB pages it is 256, over the 128 a loop device takes, and two.
queue=/sys/block/${dev#/dev/}/queue
before=$(awk '{ print $1 }' "/sys/block/${dev#/dev/}/stat")
engine_run -t --iodepth 8 --block-size 1024
reads=$(($(awk '{ print $1 }' "/sys/block/${dev#/dev/}/stat") - before))
mb=$(grep -oE '\): +[0-9]+ MB' "$out/q.out" | grep -oE '[0-9]+')
if [ "$(cat "$queue/max_sectors_kb")" -lt 1024 ] || [ "$(cat "$queue/max_segments")" -ge 256 ]; then
	echo "skip iodepth 1 MiB reads whole: this kernel's loop device takes $(cat "$queue/max_sectors_kb") KiB" \
		"in $(cat "$queue/max_segments") segments, so the check could not tell 2 MiB pages from 4 KiB ones"
elif ! grep -q 'buffers in 2 MiB pages' "$out/q.out"; then
	echo "skip iodepth 1 MiB reads whole: the kernel gave no 2 MiB pages (transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo absent))"
elif [ "$rc" = 0 ] && [ -n "$mb" ] && [ "$reads" = "$mb" ]; then
	ok "buffers in 2 MiB pages: each 1 MiB read reached the device as one request ($reads)"
else
	bad "buffers in 2 MiB pages: each 1 MiB read reached the device as one request" "exit $rc, kernel $reads reads, reported ${mb:-none} MB"
fi
# The ring is filled in batches: the first io_uring_enter sends the whole queue.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o "$out/u.trace" -e trace=io_uring_enter,io_uring_register \
	"$H" --seeks --iodepth 16 "$dev" > /dev/null 2>&1
if grep -m1 'io_uring_enter(' "$out/u.trace" | grep -qE 'io_uring_enter\([0-9]+, 16, [0-9]+, IORING_ENTER_GETEVENTS' &&
	grep -q 'IORING_REGISTER_BUFFERS' "$out/u.trace" && grep -q 'IORING_REGISTER_FILES' "$out/u.trace"; then
	ok "io_uring: 16 reads sent by one io_uring_enter, buffers and file registered"
else
	bad "io_uring: the queue sent in one batch" "$(grep -m3 'io_uring' "$out/u.trace")"
fi
# Where io_uring is disabled (kernel.io_uring_disabled, a seccomp filter: EPERM) or missing (ENOSYS), native AIO.
for e in EPERM ENOSYS; do
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o /dev/null -e inject=io_uring_setup:error=$e \
		"$H" --verbose --json -t --iodepth 4 --block-size 64 "$dev" > "$out/q.out" 2> "$out/q.err"
	rc=$?
	if [ "$rc" = 0 ] && grep -q '"engine": "libaio"' "$out/q.out"; then
		ok "io_uring_setup failing with $e: native AIO runs, and --json says so"
	else
		bad "io_uring_setup failing with $e: native AIO runs" "exit $rc" "$(head -c 300 "$out/q.out")"
	fi
done
"$H" --json --seeks --iodepth 4 "$dev" > "$out/q.out" 2> "$out/q.err"
if grep -q '"engine": "io_uring"' "$out/q.out"; then ok "--json names the engine of --seeks"; else bad "--json names the engine of --seeks"; fi
echo "end of suite"
