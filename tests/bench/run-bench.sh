#!/bin/bash
# Benchmark (not a test): ./hdparm against hdparm 9.65 on one loop device.
# Five pairs each of -T, -t and --direct -t, the order within a pair
# alternating so that drift of the machine falls on both alike; prints the
# median MB/sec of each, the median of the pair-by-pair ratios ours/9.65 of
# the MB/sec figures and of the wall times, and the spread (max-min over
# median) of repeated -t runs.  Needs root.
#
# A fourth row repeats -t after another program has read the first 512 MiB
# of the device through the page cache, as a file copy or a mount would:
# 9.65 times those cached blocks as if they came from the drive.
#
# The device is throttled to BENCH_BPS bytes/s (default 250 MiB/s) so that
# it has a drive's steady media rate; BENCH_BPS=0 leaves it unthrottled, and
# then the figures follow the host's disk and, for buffered reads on a
# virtual machine, how fast the host hands it fresh memory.
# Goal: ratios within 0.9-1.1, wall time no longer than 9.65's, a smaller spread.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/bench/lib.sh"
H=${HDPARM:-$top/hdparm}
OLD=${ORACLE:-/usr/sbin/hdparm}
PAIRS=${PAIRS:-5}
SIZE=${SIZE:-4G}
BPS=${BENCH_BPS:-262144000}
[ -x "$OLD" ] || { echo "bench: needs hdparm 9.65 at $OLD"; exit 1; }
make_device "$SIZE" "$BPS" || { echo "bench: could not set up a loop device"; exit 1; }
out=$bench_tmp
# Held open as a mounted filesystem holds a real disk open: when its last
# user closes a block device, the kernel drops its page cache anyway.
exec 9< "$dev"

reader() { dd if="$dev" of=/dev/null bs=1M count=512 2>/dev/null; }
run() { # PRE ours|old ARGS...: appends "MBPS WALL" to $out/ours or $out/old
	local pre=$1 which=$2 bin=$H start end mbps
	shift 2
	[ "$which" = old ] && bin=$OLD
	[ "$pre" = reader ] && reader
	start=$(date +%s.%N)
	mbps=$("$bin" "$@" "$dev" 2>/dev/null | grep -oE '= +[0-9.]+ MB/sec' | grep -oE '[0-9.]+' | tail -n 1)
	end=$(date +%s.%N)
	echo "${mbps:-0} $(echo "$end - $start" | bc)" >> "$out/$which"
}

# One untimed run of each first: the first reads through a new loop device
# are slower than all later ones.
"$H" -t "$dev" > /dev/null
"$OLD" -t "$dev" > /dev/null

printf '%-24s %10s %10s %10s %10s\n' timing "ours MB/s" "9.65 MB/s" "MB/s ratio" "wall ratio"
: > "$out/all-t.ours"
: > "$out/all-t.old"
for row in "none -T" "none -t" "none --direct -t" "reader -t"; do
	read -r pre args <<< "$row"
	rm -f "$out/ours" "$out/old"
	for i in $(seq "$PAIRS"); do
		# shellcheck disable=SC2086
		if [ $((i % 2)) = 1 ]; then
			run "$pre" ours $args
			run "$pre" old $args
		else
			run "$pre" old $args
			run "$pre" ours $args
		fi
	done
	ours=$out/ours old=$out/old
	label=$args
	[ "$pre" = reader ] && label="$args after a reader"
	printf '%-24s %10.2f %10.2f %10.3f %10.3f\n' "$label" \
		"$(cut -d' ' -f1 "$ours" | median)" "$(cut -d' ' -f1 "$old" | median)" \
		"$(paste -d' ' <(cut -d' ' -f1 "$ours") <(cut -d' ' -f1 "$old") | median_ratio)" \
		"$(paste -d' ' <(cut -d' ' -f2 "$ours") <(cut -d' ' -f2 "$old") | median_ratio)"
	if [ "$args" = -t ]; then
		cut -d' ' -f1 "$ours" >> "$out/all-t.ours"
		cut -d' ' -f1 "$old" >> "$out/all-t.old"
		echo "  spread (max-min)/median of these -t runs: ours $(cut -d' ' -f1 "$ours" | spread), 9.65 $(cut -d' ' -f1 "$old" | spread)"
	fi
done
echo "spread of all $((2 * PAIRS)) -t runs of each: ours $(spread < "$out/all-t.ours"), 9.65 $(spread < "$out/all-t.old")"
