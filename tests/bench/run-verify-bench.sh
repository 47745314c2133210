#!/bin/bash
# Benchmark (not a test): --erase-verify full against fio's best sequential
# read of the same whole device.  Each round reads the loop device end to end
# once with ours (tests/bench/verify-speed.c: the verification's own code,
# every block judged) and once with each fio configuration, in alternating
# order (ours first, then fio first):
#
#   fio psync 1            --bs=1M (the verification's request), one at a time
#   fio libaio 1, 8, 32    --bs=1M at queue depth 1, 8 (the verification's), 32
#   fio io_uring 1, 8, 32  the same, --fixedbufs --registerfiles
#
# fio's best configuration is the one with the highest median; ours is held
# against it round by round.  Goal (issue 68): ours / best fio >= 1.0, on a
# zeroed disk (BENCH_FILL=zeros: every block judged to its last byte, where
# random data differs at the first) as on random data; issue 35's was 0.95.
# Needs root and fio; SIZE (default 2G), PAIRS (default 5), BENCH_BACKING,
# BENCH_BPS and BENCH_FILL as the other benchmarks (tests/bench/lib.sh).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/bench/lib.sh"
PAIRS=${PAIRS:-5}
SIZE=${SIZE:-2G}
# Both at nice BENCH_NICE (default -10), as the scan's benchmark: the machine's other work weighs less.
NICE=${BENCH_NICE:--10}
command -v fio > /dev/null || { echo "verify bench: needs fio (apt-get install fio)"; exit 1; }
# shellcheck source=tests/bench/lib.sh disable=SC2154
make_device "$SIZE" "${BENCH_BPS:-0}" 0 || { echo "verify bench: could not set up a loop device"; exit 1; }
out=$bench_tmp
incs=()
for d in $(sed -n 's/^DIRS = //p' "$top/Makefile"); do incs+=("-I$top/$d"); done
srcs=(ops/erase/erase_verify.c ops/erase/erase_blocks.c block/readq.c
	output/progress.c output/report.c output/json.c)
if ! ${CC:-cc} -O2 -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 "${incs[@]}" -o "$out/verify-speed" \
	"$top/tests/bench/verify-speed.c" "${srcs[@]/#/$top/}"; then
	echo "verify bench: tests/bench/verify-speed.c does not build"
	exit 1
fi
blocks=$(($(blockdev --getsize64 "$dev") / $(blockdev --getss "$dev")))

# fio_whole OPTIONS...: the whole device once, MB/s (10^6 bytes)
fio_whole() {
	nice -n "$NICE" fio --name=v --filename="$dev" --direct=1 --rw=read --bs=1M --output-format=terse --terse-version=3 "$@" |
		awk -F';' '{ printf "%.2f\n", $7 * 1024 / 1e6 }'
}
ours() {
	local r
	r=$(nice -n "$NICE" "$out/verify-speed" "$dev") || { echo 0; return; }
	# Every block read: a figure over less than the whole device would flatter it.
	[ "${r#* }" = "$blocks" ] || { echo "verify bench: ours read ${r#* } of $blocks blocks" >&2; echo 0; return; }
	echo "${r%% *}"
}
configs=("psync 1|--ioengine=psync --iodepth=1")
for depth in 1 8 32; do
	configs+=("libaio $depth|--ioengine=libaio --iodepth=$depth"
		"io_uring $depth|--ioengine=io_uring --iodepth=$depth --fixedbufs=1 --registerfiles=1")
done
for round in $(seq "$PAIRS"); do
	if [ $((round % 2)) = 1 ]; then
		idle; ours >> "$out/ours"
	fi
	for c in "${configs[@]}"; do
		idle
		# shellcheck disable=SC2086
		fio_whole ${c#*|} >> "$out/fio-${c%%|*}"
	done
	if [ $((round % 2)) = 0 ]; then
		idle; ours >> "$out/ours"
	fi
done
best='' best_median=0
for c in "${configs[@]}"; do
	m=$(median < "$out/fio-${c%%|*}")
	printf '%-14s median %9s MB/s  spread %s\n' "fio ${c%%|*}" "$m" "$(spread < "$out/fio-${c%%|*}")"
	if awk -v a="$m" -v b="$best_median" 'BEGIN { exit !(a > b) }'; then best=${c%%|*} best_median=$m; fi
done
printf '%-14s median %9s MB/s  spread %s\n' ours "$(median < "$out/ours")" "$(spread < "$out/ours")"
echo "ours / best fio ($best), round by round: median $(paste "$out/ours" "$out/fio-$best" | median_ratio)," \
	"range $(paste "$out/ours" "$out/fio-$best" | ratio_range) (goal >= 1.0), ${BENCH_FILL:-random} data"
