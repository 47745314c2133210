#!/bin/bash
# Benchmark (not a test): --erase-verify full against fio's best sequential
# read of the same whole device.  Each round reads the loop device end to end
# once with ours (tests/bench/verify-speed.c: the verification's own code,
# every block judged) and once with each fio configuration, in alternating
# order (ours first, then fio first):
#
#   fio libaio      --bs=1M --iodepth=8, the verification's shape
#   fio libaio 32   --bs=1M --iodepth=32
#   fio io_uring    --bs=1M --iodepth=8, --fixedbufs --registerfiles, batched
#
# fio's best configuration is the one with the highest median; ours is held
# against it round by round.  Goal (issue 35): ours / best fio >= 0.95.
# Needs root and fio; SIZE (default 2G), PAIRS (default 5), BENCH_BACKING and
# BENCH_BPS as the other benchmarks (tests/bench/lib.sh).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/bench/lib.sh"
PAIRS=${PAIRS:-5}
SIZE=${SIZE:-2G}
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
	fio --name=v --filename="$dev" --direct=1 --rw=read --bs=1M --output-format=terse --terse-version=3 "$@" |
		awk -F';' '{ printf "%.2f\n", $7 * 1024 / 1e6 }'
}
ours() {
	local r
	r=$("$out/verify-speed" "$dev") || { echo 0; return; }
	# Every block read: a figure over less than the whole device would flatter it.
	[ "${r#* }" = "$blocks" ] || { echo "verify bench: ours read ${r#* } of $blocks blocks" >&2; echo 0; return; }
	echo "${r%% *}"
}
configs=("libaio|--ioengine=libaio --iodepth=8" "libaio 32|--ioengine=libaio --iodepth=32"
	"io_uring|--ioengine=io_uring --iodepth=8 --fixedbufs=1 --registerfiles=1 --iodepth_batch_submit=4 --iodepth_batch_complete_min=2")
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
	printf '%-12s median %9s MB/s  spread %s\n' "fio ${c%%|*}" "$m" "$(spread < "$out/fio-${c%%|*}")"
	if awk -v a="$m" -v b="$best_median" 'BEGIN { exit !(a > b) }'; then best=${c%%|*} best_median=$m; fi
done
printf '%-12s median %9s MB/s  spread %s\n' ours "$(median < "$out/ours")" "$(spread < "$out/ours")"
echo "ours / best fio ($best), round by round: median $(paste "$out/ours" "$out/fio-$best" | median_ratio)," \
	"range $(paste "$out/ours" "$out/fio-$best" | ratio_range) (goal >= 0.95)"
