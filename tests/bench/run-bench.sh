#!/bin/bash
# Benchmark (not a test): ./hdparm against hdparm 9.65 on one loop device.
# Five alternating pairs of -T, -t and --direct -t; prints the median ratio
# ours/9.65 of the MB/sec figures and of the wall times, and the spread
# (max-min over median) of repeated -t runs for each.  Needs root.
# Goal: ratios within 0.9-1.1, wall time no longer than 9.65's, a smaller spread.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
H=${HDPARM:-$top/hdparm}
OLD=${ORACLE:-/usr/sbin/hdparm}
PAIRS=${PAIRS:-5}
SIZE=${SIZE:-2G}
[ -x "$OLD" ] || { echo "bench: needs hdparm 9.65 at $OLD"; exit 1; }
img=$(mktemp /tmp/hdparm-bench.XXXXXX)
# Real data, so that reads are not of a sparse file's holes.
head -c "$SIZE" /dev/urandom > "$img" 2>/dev/null || truncate -s "$SIZE" "$img"
dev=$(losetup -f --show "$img") || { echo "bench: losetup failed"; exit 1; }
trap 'losetup -d "$dev"; rm -f "$img"' EXIT

run() { # BINARY ARGS...: prints "MBPS WALL"
	local start end out
	start=$(date +%s.%N)
	out=$("$@" "$dev" 2>/dev/null | grep -oE '= +[0-9.]+ MB/sec' | grep -oE '[0-9.]+' | tail -n 1)
	end=$(date +%s.%N)
	echo "${out:-0} $(echo "$end - $start" | bc)"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
spread() { sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f\n", m ? (v[NR] - v[1]) / m : 0 }'; }

printf '%-14s %10s %10s %10s %10s\n' timing "ours MB/s" "9.65 MB/s" "MB/s ratio" "wall ratio"
for args in "-T" "-t" "--direct -t"; do
	: > /tmp/bench.ours
	: > /tmp/bench.old
	for i in $(seq "$PAIRS"); do
		# shellcheck disable=SC2086
		run "$H" $args >> /tmp/bench.ours
		# shellcheck disable=SC2086
		run "$OLD" $args >> /tmp/bench.old
	done
	ours=$(cut -d' ' -f1 /tmp/bench.ours | median)
	old=$(cut -d' ' -f1 /tmp/bench.old | median)
	wo=$(cut -d' ' -f2 /tmp/bench.ours | median)
	wt=$(cut -d' ' -f2 /tmp/bench.old | median)
	printf '%-14s %10.2f %10.2f %10.3f %10.3f\n' "$args" "$ours" "$old" "$(echo "$ours / $old" | bc -l)" "$(echo "$wo / $wt" | bc -l)"
	if [ "$args" = "-t" ]; then
		echo "  -t spread (max-min)/median: ours $(cut -d' ' -f1 /tmp/bench.ours | spread), 9.65 $(cut -d' ' -f1 /tmp/bench.old | spread)"
	fi
done
rm -f /tmp/bench.ours /tmp/bench.old
