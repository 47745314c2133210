#!/bin/bash
# Benchmark (not a test): -t --iodepth and --seeks against fio on one loop
# device, five alternating pairs each; prints the median ratio ours/fio of
# MB/s and IOPS, and the CPU time each used.  Needs root and fio.
# Goal: every ratio within 0.95-1.05.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
H=${HDPARM:-$top/hdparm}
PAIRS=${PAIRS:-5}
SIZE=${SIZE:-2G}
command -v fio >/dev/null || { echo "fio bench: needs fio (apt-get install fio)"; exit 1; }
tmp=$(mktemp -d /tmp/hdparm-fio.XXXXXX)
img="$tmp/img"
head -c "$SIZE" /dev/urandom > "$img"
dev=$(losetup -f --show "$img") || exit 1
trap 'losetup -d "$dev"; rm -rf "$tmp"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cpu_of() { # COMMAND...: prints "CPU-SECONDS" then the command's stdout
	/usr/bin/time -f '%U %S' -o $tmp/time "$@" > $tmp/out 2>/dev/null
	awk '{ print $1 + $2 }' $tmp/time
}
fio_run() { # RW BS DEPTH: MB/s or IOPS
	fio --name=b --filename="$dev" --direct=1 --ioengine=libaio --rw="$1" --bs="$2" --iodepth="$3" \
		--runtime=3 --time_based --output-format=terse --terse-version=3 > $tmp/out 2>/dev/null
	# terse v3: field 7 read bandwidth KiB/s, field 8 read IOPS
	if [ "$1" = read ]; then awk -F';' '{ printf "%.2f\n", $7 / 1024 }' $tmp/out; else awk -F';' '{ print $8 }' $tmp/out; fi
}
ours_run() { # -t|--seeks DEPTH BS_KIB
	"$H" "$1" --iodepth "$2" --block-size "$3" "$dev" 2>/dev/null |
		if [ "$1" = -t ]; then grep -oE '= +[0-9.]+ MB/sec' | grep -oE '[0-9.]+'; else grep -oE '= [0-9.]+ seeks/sec' | grep -oE '[0-9.]+'; fi
}

printf '%-34s %12s %12s %8s\n' measurement ours fio ratio
for spec in "read 1M 32 -t 1024" "randread 4k 1 --seeks 4" "randread 4k 32 --seeks 4"; do
	set -- $spec
	: > $tmp/a
	: > $tmp/b
	for i in $(seq "$PAIRS"); do
		ours_run "$4" "$3" "$5" >> $tmp/a
		fio_run "$1" "$2" "$3" >> $tmp/b
	done
	a=$(median < $tmp/a)
	b=$(median < $tmp/b)
	printf '%-34s %12s %12s %8.3f\n' "$1 $2 QD$3 ($4)" "$a" "$b" "$(echo "$a / $b" | bc -l)"
done
echo "CPU seconds for one 3 s sequential QD32 run: ours $(cpu_of "$H" -t --iodepth 32 "$dev"), fio $(cpu_of fio --name=b --filename="$dev" --direct=1 --ioengine=libaio --rw=read --bs=1M --iodepth=32 --runtime=3 --time_based)"
