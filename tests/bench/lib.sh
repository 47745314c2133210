# Shared by the benchmarks: a loop device to measure on, the runs of fio,
# and the statistics.  Sourced, not run, by bash on the host and by busybox
# sh in the emulated machine (tests/vm/bench.sh), so plain sh only.

# make_device SIZE [BYTES_PER_SEC [READS_PER_SEC]]: sets $dev to a loop device
# over a file of SIZE random bytes (zeros with BENCH_FILL=zeros), removed again at exit.  The file is on the
# disk, or in memory (/dev/shm) with BENCH_BACKING=memory.
#
# The file is written and synced before the loop device exists, so no
# writeback competes with the timed reads, and the loop device reads it with
# O_DIRECT where it can: a loop device over a file in this machine's page
# cache times the page cache, not a device.  With BYTES_PER_SEC (and
# READS_PER_SEC), reads from the device are throttled to that rate (blkio
# cgroup) so that it behaves like a drive with a fixed media rate and a fixed
# number of reads a second; without it the figures follow the backing store
# underneath, whatever else the host does with it.  0 means no limit.
bench_tmp=
bench_cgroup=
unlimited_as() { [ "$2" = 0 ] && echo "$1" || echo "$2"; } # WORD LIMIT: WORD for 0
make_device() {
	local size=$1 bps=${2:-0} iops=${3:-0} majmin
	local dir=/var/tmp
	[ "${BENCH_BACKING:-disk}" = memory ] && dir=/dev/shm
	bench_tmp=$(mktemp -d "$dir/hdparm-bench.XXXXXX")
	trap cleanup_device EXIT
	# BENCH_FILL=zeros: a zeroed disk, as a block erase leaves it (written, not a hole: read as data).
	if [ "${BENCH_FILL:-random}" = zeros ]; then
		head -c "$size" /dev/zero > "$bench_tmp/img" || return 1
	else
		head -c "$size" /dev/urandom > "$bench_tmp/img" || return 1
	fi
	sync
	dev=$(losetup --direct-io=on -f --show "$bench_tmp/img" 2>/dev/null) ||
		dev=$(losetup -f --show "$bench_tmp/img") || return 1
	echo "device: $dev over $size of ${BENCH_FILL:-random} data in $dir, loop direct I/O $(cat /sys/block/"${dev#/dev/}"/loop/dio 2>/dev/null || echo '?')"
	[ "$bps" != 0 ] || [ "$iops" != 0 ] || return 0
	majmin=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
	if [ -d /sys/fs/cgroup/blkio ]; then
		bench_cgroup=/sys/fs/cgroup/blkio/hdparm-bench.$$
		mkdir "$bench_cgroup" &&
			{ [ "$bps" = 0 ] || echo "$majmin $bps" > "$bench_cgroup/blkio.throttle.read_bps_device"; } &&
			{ [ "$iops" = 0 ] || echo "$majmin $iops" > "$bench_cgroup/blkio.throttle.read_iops_device"; }
	elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		echo +io > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
		bench_cgroup=/sys/fs/cgroup/hdparm-bench.$$
		mkdir "$bench_cgroup" &&
			echo "$majmin rbps=$(unlimited_as max "$bps") riops=$(unlimited_as max "$iops")" > "$bench_cgroup/io.max"
	fi
	# Every process this shell starts from now on is throttled on $dev.
	if [ -n "$bench_cgroup" ] && echo $$ > "$bench_cgroup/cgroup.procs"; then
		echo "device: reads throttled to $(unlimited_as any $((bps / 1048576))) MiB/s" \
			"and $(unlimited_as any "$iops") reads/s, like a drive's fixed rates"
	else
		echo "device: could not throttle (no blkio or io cgroup); figures follow the backing store"
		bench_cgroup=
	fi
}

cleanup_device() {
	exec 9<&-
	if [ -n "$bench_cgroup" ]; then
		echo $$ > "$(dirname "$bench_cgroup")/cgroup.procs"
		rmdir "$bench_cgroup"
	fi
	[ -n "${dev:-}" ] && losetup -d "$dev"
	rm -rf "$bench_tmp"
}

# idle: a pause before each timed run, so that every run starts on an idle
# device.  A throttled device (blkio cgroup, QEMU's throttling) that was busy
# a moment ago lets the next reader have up to a tenth of a second's reads at
# once: ours, which starts in milliseconds, got those 500 reads, and fio,
# which takes longer to start, did not.
idle() { sleep 1; }

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# (max - min) / median
spread() { sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f\n", m ? (v[NR] - v[1]) / m : 0 }'; }
# Median of the ratios of two columns of numbers, pair by pair (paste A B).
median_ratio() { awk '$2 > 0 { printf "%.6f\n", $1 / $2 }' | median; }
# Lowest-highest of the pair-by-pair ratios: how far one pair can be off.
ratio_range() { awk '$2 > 0 { printf "%.6f\n", $1 / $2 }' | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f\n", lo, hi }'; }

# timed FILE COMMAND...: the command's stdout in FILE; prints the CPU seconds
# (user + system) it used.  GNU time and busybox time both take -p and -o.
timed() {
	local file=$1
	shift
	env time -p -o "$file.time" "$@" > "$file" 2>/dev/null
	awk '$1 == "user" || $1 == "sys" { t += $2 } END { print t + 0 }' "$file.time"
}

# fio_run DEVICE RW BS DEPTH [ENGINE OPTIONS...]: "FIGURE CPU", MiB/s for
# read, IOPS for randread; the engine is libaio unless the options say.
# For 3 s or to the end of the device, whichever comes first, as our timings
# do (with --time_based it would start over at the beginning), and with
# random offsets drawn independently, as --seeks does (--norandommap).
fio_run() {
	local cpu dev=$1 rw=$2 bs=$3 depth=$4
	shift 4
	[ $# = 0 ] && set -- --ioengine=libaio
	cpu=$(timed "${bench_tmp:-/tmp}/fio.out" fio --name=b --filename="$dev" --direct=1 \
		--rw="$rw" --bs="$bs" --iodepth="$depth" --runtime=3 --norandommap --output-format=terse --terse-version=3 "$@")
	# terse v3: field 7 read bandwidth KiB/s, field 8 read IOPS
	awk -F';' -v rw="$rw" -v cpu="$cpu" \
		'{ if (rw == "read") printf "%.2f %s\n", $7 / 1024, cpu; else print $8, cpu }' "${bench_tmp:-/tmp}/fio.out"
}

# hdparm_run BINARY ARGS...: "FIGURE CPU", the last MB/sec or seeks/sec figure
hdparm_run() {
	local cpu
	cpu=$(timed "${bench_tmp:-/tmp}/hdparm.out" "$@")
	echo "$(grep -oE '= +[0-9.]+ (MB/sec|seeks/sec)' "${bench_tmp:-/tmp}/hdparm.out" | grep -oE '[0-9.]+' | tail -n 1) $cpu"
}
