#!/bin/bash
# Benchmark (not a test): --surface-scan against fio and badblocks, each
# reading the same whole device once, on a device held in memory, where
# each tool's own cost per read sets the pace (issue 61, item 11: timing
# every block must cost nothing).
#
#   fio psync, libaio, io_uring   --direct=1 --rw=read, the scan's block
#                                 (256 logical sectors): psync at queue
#                                 depth 1, libaio and io_uring at 1, 8 and
#                                 32 (issue 68: the scan keeps several
#                                 blocks in flight, its default depth on a
#                                 device that does not rotate: 32);
#                                 io_uring with --fixedbufs --registerfiles
#   fio psync, libaio, io_uring,  the same with --mem=shmhuge: the buffers
#     huge pages                  in 2 MiB pages, as the scan asks for its
#                                 own (enough pages for depth 32 are
#                                 reserved for the run, vm.nr_hugepages,
#                                 and given back after)
#   badblocks -b 4096 -c N        its read-only test, O_DIRECT (its
#                                 default): N = the scan's block (32 on
#                                 512-byte sectors: 128 KiB), 256 (1 MiB)
#                                 and 1024 (4 MiB): fewer, larger reads,
#                                 what it does best
#
# Each configuration is run in pairs with the scan, the order alternating
# (scan first, then the other tool; the next round the other tool first),
# so that a machine whose load changes meanwhile weighs on both alike.  For
# each configuration: the median figure of both tools, each pair's ratio
# scan / tool, their median, range and spread ((max - min) / median), the
# CPU seconds (user + system) per GB read, and the median of the
# pair-by-pair ratios of those (where the reader's own system calls copy
# the data, as zram's do, the steadier measure of each tool's own cost on
# a loaded machine).  Against fio the figures are each tool's own (bytes
# over the time from its first read to its last, MB = 10^6 bytes);
# badblocks prints none, so against it both are the device's bytes over
# the whole run of the program (exec to exit), for both alike.  Each
# tool's best configuration is the one the scan fares worst against (the
# lowest median ratio), not the one with the highest median figure: the
# figures of two configurations were measured minutes apart, under
# whatever load the machine had then, the two of a pair seconds apart.
# Goals: scan / best fio >= 0.90 (issue 68, against fio at any depth; it
# was 0.95 against fio at depth 1 alone), scan / best badblocks > 1.  Every run
# must have read the whole device from the device: the sectors the kernel
# counted on it (/sys/block/X/stat) equal its size, each run.
#
# The device (BENCH_BACKING):
#   memory  a loop device with direct I/O over a file in /dev/shm
#           (tests/bench/lib.sh): 512-byte sectors; the loop driver's
#           worker thread copies the data, outside the tools' own CPU
#           time, and each read waits for it to be scheduled
#   zram    a new zram device (zram-control) of random data, which it
#           keeps uncompressed: 4096-byte sectors, so the scan's block is
#           1 MiB; the data is copied in the reader's own system call
#   /dev/X  a device already there, as it is (all the tools only read it):
#           brd's /dev/ram0 or null_blk with memory_backed=1 where the
#           kernel has them (this project's CI kernel has neither)
# Every tool runs at nice BENCH_NICE (default -10), so that the machine's
# other work weighs less on the figures (that does not reach the loop
# driver's worker threads).  SIZE (default 4G), PAIRS (default 7).
# `make bench` runs memory and zram.
# Needs root, fio and badblocks.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/bench/lib.sh"
H=${HDPARM:-$top/hdparm}
PAIRS=${PAIRS:-7}
SIZE=${SIZE:-4G}
NICE=${BENCH_NICE:--10}
BENCH_BACKING=${BENCH_BACKING:-memory}
command -v fio > /dev/null || { echo "scan bench: needs fio (apt-get install fio)"; exit 1; }
command -v badblocks > /dev/null || { echo "scan bench: needs badblocks (e2fsprogs)"; exit 1; }
zram='' hugepages=''
cleanup() {
	[ -n "$hugepages" ] && echo "$hugepages" > /proc/sys/vm/nr_hugepages
	if [ -n "$zram" ]; then
		# udev's probe of the new device may hold it open a moment
		for _ in $(seq 50); do echo 1 2> /dev/null > "/sys/block/zram$zram/reset" && break; sleep 0.1; done
		echo "$zram" > /sys/class/zram-control/hot_remove
	fi
	if [ "$BENCH_BACKING" = memory ]; then cleanup_device; else rm -rf "$bench_tmp"; fi
}
# A signal ends the script after the command in flight (bash waits for it), so
# that the device is no longer in use when it is removed.
trap 'exit 1' INT TERM HUP
case $BENCH_BACKING in
memory)
	make_device "$SIZE" 0 0 || { echo "scan bench: could not set up a loop device"; exit 1; } ;;
zram)
	[ -e /sys/class/zram-control/hot_add ] || { echo "scan bench: no zram here (CONFIG_ZRAM, modprobe zram)"; exit 1; }
	bench_tmp=$(mktemp -d /tmp/hdparm-bench.XXXXXX)
	zram=$(cat /sys/class/zram-control/hot_add) || exit 1
	trap cleanup EXIT
	dev=/dev/zram$zram
	echo "$SIZE" > "/sys/block/zram$zram/disksize" || exit 1
	for i in $(seq 50); do [ -b "$dev" ] && break; sleep 0.1; done
	head -c "$(blockdev --getsize64 "$dev")" /dev/urandom | dd of="$dev" bs=1M oflag=direct iflag=fullblock status=none || exit 1
	echo "device: $dev, $SIZE of random data in zram (stored uncompressed: $(awk '{ print $9 }' "/sys/block/zram$zram/mm_stat") of its pages)" ;;
*)
	[ -b "$BENCH_BACKING" ] || { echo "scan bench: $BENCH_BACKING is not a block device"; exit 1; }
	dev=$BENCH_BACKING
	bench_tmp=$(mktemp -d /tmp/hdparm-bench.XXXXXX)
	echo "device: $dev, as it is" ;;
esac
trap cleanup EXIT
out=$bench_tmp
bytes=$(blockdev --getsize64 "$dev")
ss=$(blockdev --getss "$dev")
bs=$((256 * ss))
sectors=$((bytes / 512))
stat=/sys/block/$(basename "$(readlink -f "$dev")")/stat
echo "device: $((bytes / 1048576)) MiB, $ss-byte sectors: the scan's block is $((bs / 1024)) KiB"

# run NAME COMMAND...: the command's stdout in $out/NAME.out; prints "WALL_SECONDS CPU_SECONDS KERNEL_SECTORS"
run() {
	local name=$1 start end before after cpu
	shift
	idle
	before=$(awk '{ print $3 }' "$stat")
	start=$(date +%s%N)
	cpu=$(timed "$out/$name.out" nice -n "$NICE" "$@")
	end=$(date +%s%N)
	after=$(awk '{ print $3 }' "$stat")
	echo "$(((end - start) / 1000))e-6 $cpu $((after - before))"
}
wall_mbps() { awk -v b="$bytes" '{ printf "%.2f", b / $1 / 1e6 }'; }

# "FIGURE CPU SECTORS": ours, its own figure (own=1) or the device's bytes over its wall time
ours() {
	local r figure
	r=$(run ours "$H" --surface-scan "$dev")
	if [ "$1" = 1 ]; then
		figure=$(grep -oE '= +[0-9.]+ MB/sec' "$out/ours.out" | grep -oE '[0-9.]+')
	else
		figure=$(echo "$r" | wall_mbps)
	fi
	grep -qE "read +([0-9]+) of \1\$" "$out/ours.out" || { echo "scan bench: the scan did not read every block" >&2; figure=0; }
	echo "${figure:-0} ${r#* }"
}
fio_cfg() { # ENGINE OPTIONS...
	local r
	r=$(run fio fio --name=s --filename="$dev" --direct=1 --rw=read --bs="$bs" \
		--output-format=terse --terse-version=3 "$@")
	# terse v3: field 7 read bandwidth KiB/s
	echo "$(awk -F';' '{ printf "%.2f", $7 * 1024 / 1e6 }' "$out/fio.out") ${r#* }"
}
badblocks_cfg() { # OPTIONS...
	local r
	r=$(run badblocks badblocks "$@" "$dev")
	[ -s "$out/badblocks.out" ] && echo "scan bench: badblocks found bad blocks" >&2
	echo "$(echo "$r" | wall_mbps) ${r#* }"
}

configs=("fio psync 1|1|fio_cfg --ioengine=psync --iodepth=1")
for depth in 1 8 32; do
	configs+=("fio libaio $depth|1|fio_cfg --ioengine=libaio --iodepth=$depth"
		"fio io_uring $depth|1|fio_cfg --ioengine=io_uring --iodepth=$depth --fixedbufs=1 --registerfiles=1")
done
# fio's buffer in huge pages: enough reserved for the run (fio takes them with SHM_HUGETLB) for its
# buffers at depth 32 (32 of the scan's blocks, and a page more than that), as the scan's own are at
# its default depth: fio's best is measured at the depths the scan runs at (too few pages: fio fails).
old=$(cat /proc/sys/vm/nr_hugepages)
need=$(((32 * bs + 2097151) / 2097152 + 2))
if echo $((old + need)) > /proc/sys/vm/nr_hugepages 2> /dev/null && hugepages=$old &&
	[ "$(awk '$1 == "HugePages_Free:" { print $2 }' /proc/meminfo)" -ge "$need" ]; then
	configs+=("fio psync 1 huge pages|1|fio_cfg --ioengine=psync --iodepth=1 --mem=shmhuge")
	for depth in 1 8 32; do
		configs+=("fio libaio $depth huge pages|1|fio_cfg --ioengine=libaio --iodepth=$depth --mem=shmhuge"
			"fio io_uring $depth huge pages|1|fio_cfg --ioengine=io_uring --iodepth=$depth --fixedbufs=1 --registerfiles=1 --mem=shmhuge")
	done
else
	echo "(no huge pages for fio's buffer: vm.nr_hugepages could not be raised)"
fi
for c in $((bs / 4096)) 256 1024; do
	case " ${counts:-} " in *" $c "*) continue ;; esac
	counts="${counts:-} $c"
	configs+=("badblocks -b 4096 -c $c|0|badblocks_cfg -b 4096 -c $c")
done
# The device is in memory: no throttle to settle between runs, only the last run's own work.
idle() { sleep 0.2; }

# One untimed read of the whole device by each: the first reads of fresh memory are slower than all later ones.
ours 1 > /dev/null
fio_cfg --ioengine=psync --iodepth=1 > /dev/null
badblocks_cfg -b 4096 -c 32 > /dev/null

for i in $(seq "$PAIRS"); do
	for n in "${!configs[@]}"; do
		IFS='|' read -r _ own cmd <<< "${configs[n]}"
		# shellcheck disable=SC2086
		if [ $((i % 2)) = 1 ]; then
			ours "$own" >> "$out/ours.$n"
			$cmd >> "$out/it.$n"
		else
			$cmd >> "$out/it.$n"
			ours "$own" >> "$out/ours.$n"
		fi
	done
done

# cpu_per_gb FILE: median CPU seconds per GB (10^9 bytes) read
cpu_per_gb() { awk -v b="$bytes" '{ printf "%.4f\n", $2 / b * 1e9 }' "$1" | median; }
# pairs N [FIELD]: "SCAN IT" per pair of configuration N, in the order run: their figures (1) or CPU seconds (2)
pairs() { paste -d' ' <(cut -d' ' -f"${2:-1}" "$out/ours.$1") <(cut -d' ' -f"${2:-1}" "$out/it.$1"); }
printf '%-26s %9s %9s %8s %10s %7s %9s %9s %8s\n' against "it MB/s" "scan MB/s" "scan/it" range spread \
	"it CPU/GB" "scan CPU" "CPU s/it"
best_fio='' best_bb='' fio_r=0 bb_r=0 whole=yes
for n in "${!configs[@]}"; do
	IFS='|' read -r name _ _ <<< "${configs[n]}"
	r=$(pairs "$n" | median_ratio)
	printf '%-26s %9s %9s %8.3f %10s %7s %9s %9s %8.3f\n' "$name" "$(cut -d' ' -f1 "$out/it.$n" | median)" \
		"$(cut -d' ' -f1 "$out/ours.$n" | median)" "$r" "$(pairs "$n" | ratio_range)" \
		"$(pairs "$n" | awk '$2 > 0 { printf "%.6f\n", $1 / $2 }' | spread)" \
		"$(cpu_per_gb "$out/it.$n")" "$(cpu_per_gb "$out/ours.$n")" "$(pairs "$n" 2 | median_ratio)"
	echo "  scan/it pair by pair: $(pairs "$n" | awk '$2 > 0 { printf " %.3f", $1 / $2 }')"
	awk -v s="$sectors" '$3 != s { bad = 1 } END { exit bad }' "$out/it.$n" "$out/ours.$n" || whole=no
	case $name in
	fio*) [ -z "$best_fio" ] || awk -v a="$r" -v b="$fio_r" 'BEGIN { exit !(a < b) }' && best_fio=$n fio_r=$r ;;
	*) [ -z "$best_bb" ] || awk -v a="$r" -v b="$bb_r" 'BEGIN { exit !(a < b) }' && best_bb=$n bb_r=$r ;;
	esac
done
verdict() { # N TEST GOAL: the pairs of configuration N held against the goal (TEST: awk, of the median ratio r)
	local r
	r=$(pairs "$1" | median_ratio)
	printf 'scan / best %s (%s): median %.3f of %d pairs, range %s: %s (goal %s)\n' "${configs[$1]%% *}" \
		"${configs[$1]%%|*}" "$r" "$PAIRS" "$(pairs "$1" | ratio_range)" \
		"$(awk -v r="$r" "BEGIN { print ($2) ? \"met\" : \"NOT met\" }")" "$3"
}
verdict "$best_fio" "r >= 0.90" ">= 0.90"
verdict "$best_bb" "r > 1" "> 1"
if [ "$whole" = yes ]; then
	echo "every run read the whole device from the device: the kernel counted its $sectors sectors, each run"
else
	echo "some runs did not read exactly the device's $sectors sectors from it (/sys/block stat): the figures do not hold"
fi
