#!/bin/sh
# Runs inside the emulated machine (tests/vm/run --bench), not a test: on
# each kind of disk, ours against fio (-t --iodepth, --seeks) and against
# hdparm 9.65 (-T, -t), PAIRS pairs in alternating order; prints the median
# figures, the median of the pair-by-pair ratios and the median CPU seconds.
# PAIRS comes from the host (tests/vm/run --bench, default 3).
# The statistics and how fio is run: tests/bench/lib.sh, as on the host.
# Under TCG everything is slow, but both tools run on the same slow machine.
#
# Two sets of disks: the plain ones, as fast as QEMU serves them, where the
# guest's CPU sets the pace (under TCG it is ~50x slower than the host's),
# so each tool's own CPU cost per read shows in its figure; and their
# throttled twins (400 MiB/s, 2000 reads/s, see tests/vm/run), where the
# device sets it, as a drive does.
PAIRS=$(cat /pairs 2>/dev/null || echo 3)
H=/sbin/hdparm
OLD=/usr/sbin/hdparm-9.65

bench_tmp=/tmp
. /bench-lib.sh

ours() { hdparm_run "$H" "$@"; }
old() { hdparm_run "$OLD" "$@"; }

# row LABEL "OURS ARGS" "OTHER COMMAND": PAIRS pairs, the order alternating
row() {
	: > /tmp/a
	: > /tmp/b
	for i in $(seq "$PAIRS"); do
		if [ $((i % 2)) = 1 ]; then
			idle; eval "$2" >> /tmp/a
			idle; eval "$3" >> /tmp/b
		else
			idle; eval "$3" >> /tmp/b
			idle; eval "$2" >> /tmp/a
		fi
	done
	printf '%-36s %10s %10s %7.3f %8s %8s\n' "$1" "$(cut -d' ' -f1 /tmp/a | median)" \
		"$(cut -d' ' -f1 /tmp/b | median)" "$(paste -d' ' /tmp/a /tmp/b | cut -d' ' -f1,3 | median_ratio)" \
		"$(cut -d' ' -f2 /tmp/a | median)" "$(cut -d' ' -f2 /tmp/b | median)"
}

# disk GLOB FILE VALUE: the block device under /sys/block/GLOB whose FILE
# holds VALUE; the kernel names the disks in the order they turn up, which
# differs from boot to boot.
disk() {
	for b in /sys/block/$1; do
		[ "$(sed 's/ *$//' "$b/$2" 2>/dev/null)" = "$3" ] && echo "/dev/${b##*/}" && return
	done
}
find_disks() {
	nvme=$(disk 'nvme*n1' device/serial NVME0001)
	virtio=$(for b in /sys/block/vd*; do [ -n "$(cat "$b/serial" 2>/dev/null)" ] || echo "/dev/${b##*/}"; done | head -n 1)
	ahci=$(disk 'sd*' device/model HDPARM-TEST-HDD)
	tnvme=$(disk 'nvme*n1' device/serial NVME-THROTTLED)
	tvirtio=$(disk 'vd*' serial VIRTIO-THROTTLED)
	tahci=$(disk 'sd*' device/model HDPARM-THROTTLED)
	[ -n "$nvme" ] && [ -n "$virtio" ] && [ -n "$ahci" ] && [ -n "$tnvme" ] && [ -n "$tvirtio" ] && [ -n "$tahci" ]
}
i=0
until find_disks || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done

printf '%-36s %10s %10s %7s %8s %8s\n' measurement ours other ratio "our CPU" "its CPU"
for d in "$nvme NVMe" "$virtio virtio" "$ahci AHCI" "$tnvme NVMe, throttled" "$tvirtio virtio, throttled" "$tahci AHCI, throttled"; do
	echo "$d"
	case $d in *throttled) plain= ;; *) plain=1 ;; esac
	d=${d%% *}
	[ -b "$d" ] || { echo "  (not found)"; continue; }
	# The images are sparse files: the first read of each part of one is
	# slower on the host than every later one, so whoever came first would
	# lose.  One whole read first makes every part as fast for both.
	fio --name=warm --filename="$d" --direct=1 --ioengine=libaio --rw=read --bs=1M --iodepth=32 > /dev/null 2>&1
	# And one untimed buffered -t: the guest's first page-cache pages are
	# fresh host memory too, slow to touch the first time.
	"$H" -t "$d" > /dev/null 2>&1
	row "  -t --iodepth 32 / fio read 1M QD32" "ours -t --iodepth 32 $d" "fio_run $d read 1M 32"
	row "  --seeks / fio randread 4k QD1" "ours --seeks $d" "fio_run $d randread 4k 1"
	row "  --seeks --iodepth 32 / fio QD32" "ours --seeks --iodepth 32 $d" "fio_run $d randread 4k 32"
	# 9.65's method is what is compared here, not the device: the plain disks.
	if [ -x "$OLD" ] && [ -n "$plain" ]; then
		row "  -T / hdparm 9.65 -T" "ours -T $d" "old -T $d"
		row "  -t / hdparm 9.65 -t" "ours -t $d" "old -t $d"
	fi
done
