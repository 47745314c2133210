#!/bin/bash
# -t, -T, --direct and --offset on loop devices, observed with strace:
# what is read, in what sizes, from where, and how it is reported.  No
# check depends on a speed.  Usage: timing-tests.sh HDPARM OUTDIR.
set -u
H=$1
out=$2
command -v strace >/dev/null || { echo "skip timing: no strace (tests/setup installs it)"; echo "end of suite"; exit 0; }

suite="timing"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

big="$out/t-big.img" small="$out/t-small.img" mid="$out/t-mid.img"
truncate -s 3G "$big"
truncate -s 1M "$small"
truncate -s 64M "$mid"
devs=()
cleanup() { for d in "${devs[@]}"; do losetup -d "$d"; done; rm -f "$big" "$small" "$mid"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# attach VAR FILE: not run in $(...), so that devs keeps the device for cleanup
attach() { local d; d=$(losetup -f --show "$2") || return 1; devs+=("$d"); printf -v "$1" '%s' "$d"; }
attach mid_dev "$mid" && attach big_dev "$big" && attach small_dev "$small" ||
	{ echo "skip timing: losetup failed"; echo "end of suite"; exit 0; }

rate='[0-9]+ MB in +[0-9]+\.[0-9]{2} seconds = +[0-9]+\.[0-9]{2} [Mk]B/sec'

# traced NAME ARGS...: run under strace; stdout in $out/t.out, trace in $out/t.trace
traced() {
	# LeakSanitizer cannot run under ptrace: a sanitizer build leaves it out here.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o "$out/t.trace" -e trace=openat,read,lseek,ioctl "$H" "$@" > "$out/t.out" 2> "$out/t.err"
	rc=$?
}

# The reads of the device: "size" per line, from the fd opened on it.
device_reads() {
	awk -v dev="$1" '
		index($0, "openat(AT_FDCWD, \"" dev "\"") { fd = $NF; next }
		fd != "" && index($0, "read(" fd ", ") { print $NF }
	' "$out/t.trace"
}

traced -t "$mid_dev"
reads=$(device_reads "$mid_dev")
mb=$(grep -oE 'reads: +[0-9]+ MB' "$out/t.out" | grep -oE '[0-9]+')
if [ "$rc" = 0 ] && grep -qE "^ Timing buffered disk reads: +$rate\$" "$out/t.out"; then ok "-t output"; else bad "-t output" "exit $rc" "$(cat "$out/t.out" "$out/t.err")"; fi
if [ -n "$reads" ] && ! echo "$reads" | grep -qv '^2097152$'; then ok "-t reads 2 MiB blocks"; else bad "-t reads 2 MiB blocks" "$(echo "$reads" | sort | uniq -c)"; fi
n=$(echo "$reads" | grep -c .)
if [ -n "$mb" ] && [ "$((n * 2))" = "$mb" ] && [ "$n" -le 32 ]; then ok "-t reports what it read, and stops at the end of the device"; else bad "-t reports what it read" "$n reads, $mb MB reported"; fi
if grep -q 'BLKFLSBUF' "$out/t.trace" && [ "$(grep -nE 'BLKFLSBUF|read\(' "$out/t.trace" | grep -A1 BLKFLSBUF | head -n 2 | tail -n 1 | grep -c read)" = 1 ]; then
	ok "-t flushes the buffer cache before reading"
else
	bad "-t flushes the buffer cache before reading"
fi
if grep -E "openat\(AT_FDCWD, \"$mid_dev\"" "$out/t.trace" | grep -q O_DIRECT; then bad "-t without --direct uses no O_DIRECT"; else ok "-t without --direct uses no O_DIRECT"; fi

traced --direct -t "$mid_dev"
if grep -E "openat\(AT_FDCWD, \"$mid_dev\"" "$out/t.trace" | grep -q O_DIRECT && grep -qE "^ Timing O_DIRECT disk reads: +$rate\$" "$out/t.out"; then
	ok "--direct -t opens with O_DIRECT"
else
	bad "--direct -t opens with O_DIRECT" "$(cat "$out/t.out" "$out/t.err")"
fi

traced -T "$mid_dev"
reads=$(device_reads "$mid_dev")
if [ "$rc" = 0 ] && grep -qE "^ Timing cached reads:   $rate\$" "$out/t.out" && ! echo "$reads" | grep -qv '^2097152$' &&
	! grep -E 'lseek\(' "$out/t.trace" | grep -qv ', 0, SEEK_SET'; then
	ok "-T rereads the first 2 MiB"
else
	bad "-T rereads the first 2 MiB" "exit $rc" "$(cat "$out/t.out")"
fi

traced --direct -T "$mid_dev"
if grep -qE "^ Timing O_DIRECT cached reads:   $rate\$" "$out/t.out"; then ok "--direct -T output"; else bad "--direct -T output" "$(cat "$out/t.out")"; fi

traced --offset 2 -t "$big_dev"
if [ "$rc" = 0 ] && grep -q 'lseek([0-9]*, 2147483648, SEEK_SET)' "$out/t.trace" &&
	grep -qE "^ Timing buffered disk reads \(offset 2 GB\): +$rate\$" "$out/t.out"; then
	ok "--offset 2 starts 2 GiB in"
else
	bad "--offset 2 starts 2 GiB in" "exit $rc" "$(cat "$out/t.out" "$out/t.err")"
fi

traced --offset 3 -t "$big_dev"
if [ "$rc" != 0 ] && grep -q 'beyond the end' "$out/t.err" && ! grep -q 'MB/sec' "$out/t.out" && [ -z "$(device_reads "$big_dev")" ]; then
	ok "--offset past the end is refused"
else
	bad "--offset past the end is refused" "exit $rc" "$(cat "$out/t.err")"
fi

traced -t "$small_dev"
if [ "$rc" != 0 ] && grep -q 'smaller than one' "$out/t.err" && ! grep -q 'Timing' "$out/t.out"; then
	ok "a device smaller than a block is refused"
else
	bad "a device smaller than a block is refused" "exit $rc" "$(cat "$out/t.out" "$out/t.err")"
fi

"$H" -t "$mid" > "$out/t.out" 2> "$out/t.err"
rc=$?
if [ "$rc" != 0 ] && grep -q 'not supported' "$out/t.err" && ! grep -q 'Timing' "$out/t.out"; then
	ok "a regular file is refused with a reason"
else
	bad "a regular file is refused with a reason" "exit $rc" "$(cat "$out/t.err")"
fi
echo "end of suite"
