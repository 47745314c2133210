#!/bin/sh
# Runs inside the emulated machine (tests/vm/run --bench), not a test: on
# each kind of disk, ours against fio (-t --iodepth, --seeks) and against
# hdparm 9.65 (-T, -t), PAIRS pairs in alternating order; prints the median
# figures, the median of the pair-by-pair ratios and the median CPU seconds.
# PAIRS comes from the host (tests/vm/run --bench, default 3).
# fio's options are those of tests/bench/run-fio-bench.sh (see there).
# Under TCG everything is slow, but both tools run on the same slow machine.
PAIRS=$(cat /pairs 2>/dev/null || echo 3)
H=/sbin/hdparm
OLD=/usr/sbin/hdparm-9.65

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratios() { awk '$2 > 0 { printf "%.6f\n", $1 / $2 }' | median; }

# timed COMMAND...: stdout in /tmp/out; prints the CPU seconds used
timed() {
	time -p -o /tmp/time "$@" > /tmp/out 2>/dev/null
	awk '$1 == "user" || $1 == "sys" { t += $2 } END { print t }' /tmp/time
}
ours() { # ARGS...: "FIGURE CPU"
	cpu=$(timed "$H" "$@")
	echo "$(grep -oE '= +[0-9.]+ (MB/sec|seeks/sec)' /tmp/out | grep -oE '[0-9.]+' | tail -n 1) $cpu"
}
old() {
	cpu=$(timed "$OLD" "$@")
	echo "$(grep -oE '= +[0-9.]+ MB/sec' /tmp/out | grep -oE '[0-9.]+' | tail -n 1) $cpu"
}
fio_run() { # DEV RW BS DEPTH
	cpu=$(timed fio --name=b --filename="$1" --direct=1 --ioengine=libaio --rw="$2" --bs="$3" \
		--iodepth="$4" --runtime=3 --norandommap --output-format=terse --terse-version=3)
	awk -F';' -v rw="$2" -v cpu="$cpu" '{ if (rw == "read") printf "%.2f %s\n", $7 / 1024, cpu; else print $8, cpu }' /tmp/out
}

# row LABEL "OURS ARGS" "OTHER COMMAND": PAIRS pairs, the order alternating
row() {
	: > /tmp/a
	: > /tmp/b
	for i in $(seq "$PAIRS"); do
		if [ $((i % 2)) = 1 ]; then
			eval "$2" >> /tmp/a
			eval "$3" >> /tmp/b
		else
			eval "$3" >> /tmp/b
			eval "$2" >> /tmp/a
		fi
	done
	printf '%-36s %10s %10s %7.3f %8s %8s\n' "$1" "$(cut -d' ' -f1 /tmp/a | median)" \
		"$(cut -d' ' -f1 /tmp/b | median)" "$(paste -d' ' /tmp/a /tmp/b | cut -d' ' -f1,3 | ratios)" \
		"$(cut -d' ' -f2 /tmp/a | median)" "$(cut -d' ' -f2 /tmp/b | median)"
}

printf '%-36s %10s %10s %7s %8s %8s\n' measurement ours other ratio "our CPU" "its CPU"
for d in /dev/nvme0n1 /dev/vda /dev/sda; do
	echo "$d"
	# The images are sparse files: the first read of each part of one is
	# slower on the host than every later one, so whoever came first would
	# lose.  One whole read first makes every part as fast for both.
	fio --name=warm --filename="$d" --direct=1 --ioengine=libaio --rw=read --bs=1M --iodepth=32 > /dev/null 2>&1
	row "  -t --iodepth 32 / fio read 1M QD32" "ours -t --iodepth 32 $d" "fio_run $d read 1M 32"
	row "  --seeks / fio randread 4k QD1" "ours --seeks $d" "fio_run $d randread 4k 1"
	row "  --seeks --iodepth 32 / fio QD32" "ours --seeks --iodepth 32 $d" "fio_run $d randread 4k 32"
	if [ -x "$OLD" ]; then
		row "  -T / hdparm 9.65 -T" "ours -T $d" "old -T $d"
		row "  -t / hdparm 9.65 -t" "ours -t $d" "old -t $d"
	fi
done
