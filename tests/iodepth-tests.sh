#!/bin/bash
# -t --iodepth and --seeks on loop devices, observed with strace: request
# sizes, alignment, offsets and requests in flight.  No check depends on a
# speed.  Usage: iodepth-tests.sh HDPARM OUTDIR.
set -u
H=$1
out=$2
command -v strace >/dev/null || { echo "skip iodepth: no strace (tests/setup installs it)"; echo "end of suite"; exit 0; }
ok() { echo "ok iodepth $1"; }
bad() { echo "FAIL iodepth $1"; shift; printf '  %s\n' "$@"; }

img="$out/q.img"
truncate -s 2G "$img"
dev=$(losetup -f --show "$img") || { echo "skip iodepth: losetup failed"; echo "end of suite"; exit 0; }
trap 'losetup -d "$dev"; rm -f "$img"' EXIT
size=$((2 * 1024 * 1024 * 1024))

traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o "$out/q.trace" -e trace=io_submit,io_getevents,openat \
		-e abbrev=none -s 0 "$H" "$@" > "$out/q.out" 2> "$out/q.err"
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

traced --seeks --offset 1 "$dev"
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
echo "end of suite"
