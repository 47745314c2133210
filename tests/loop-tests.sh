#!/bin/bash
# Block-layer options on a loop device of this machine: set, then read back.
# Usage: loop-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
ORACLE=${ORACLE:-/usr/sbin/hdparm}
img="$out/loop.img"
# shellcheck source=tests/tools/oracle.sh
. "$(cd "$(dirname "$0")" && pwd)/tools/oracle.sh"

truncate -s 64M "$img"
dev=$(losetup -f --show "$img" 2>/dev/null) || { echo "skip loop: losetup failed"; echo "end of suite"; exit 0; }
trap 'losetup -d "$dev"' EXIT
trap 'exit 1' INT TERM HUP

suite=""
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# expect NAME EXIT 'STDOUT' ARGS...: exact stdout and exit status.
expect() {
	local name=$1 want_rc=$2 want_out=$3 got rc
	shift 3
	got=$("$H" "$@" 2> "$out/loop.err")
	rc=$?
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want_out" ]; then
		ok "loop $name"
	else
		bad "loop $name" "exit $rc (wanted $want_rc)" "got: $got" "wanted: $want_out" "stderr: $(cat "$out/loop.err")"
	fi
}

expect "-a512 sets" 0 "
$dev:
 setting fs readahead to 512
 readahead     = 512 (on)" -a512 "$dev"
expect "-a reads back" 0 "
$dev:
 readahead     = 512 (on)" -a "$dev"
expect "-q -a256 is silent" 0 "" -q -a256 "$dev"
expect "-a after -q -a256" 0 "
$dev:
 readahead     = 256 (on)" -a "$dev"
expect "-r1 sets" 0 "
$dev:
 setting readonly to 1 (on)
 readonly      =  1 (on)" -r1 "$dev"
expect "-r reads back" 0 "
$dev:
 readonly      =  1 (on)" -r "$dev"
if [ "$(blockdev --getro "$dev")" = 1 ]; then ok "loop -r1 reached the kernel"; else bad "loop -r1 reached the kernel"; fi
expect "-r0 clears" 0 "
$dev:
 setting readonly to 0 (off)
 readonly      =  0 (off)" -r0 "$dev"
if [ "$(blockdev --getra "$dev")" = 256 ]; then ok "loop -a reached the kernel"; else bad "loop -a reached the kernel"; fi
expect "-f" 0 "
$dev:" -f "$dev"
expect "two devices" 0 "
$dev:
 readahead     = 256 (on)

$dev:
 readahead     = 256 (on)" -a "$dev" "$dev"

# Not an ATA device: a clear error and a non-zero exit, never a made-up answer.
for args in "-I" "--Istdout" "-C" "-W" "-B" "-N" "-i" "-y"; do
	# shellcheck disable=SC2086
	"$H" $args "$dev" > "$out/loop.out" 2> "$out/loop.err"
	rc=$?
	if [ "$rc" != 0 ] && [ -s "$out/loop.err" ] && ! grep -q 'drive state is:  standby\|succeeded' "$out/loop.out"; then
		ok "loop $args fails cleanly"
	else
		bad "loop $args fails cleanly" "exit $rc" "stderr: $(cat "$out/loop.err")"
	fi
done

# A refused dangerous option leaves the device alone and stops before later options.
"$H" -s1 -a128 "$dev" > "$out/loop.out" 2> "$out/loop.err"
rc=$?
if [ "$rc" = 1 ] && [ "$(blockdev --getra "$dev")" = 256 ] && grep -q 'yes-i-know-what-i-am-doing' "$out/loop.err"; then
	ok "loop -s1 refused without confirmation"
else
	bad "loop -s1 refused without confirmation" "exit $rc, readahead $(blockdev --getra "$dev")"
fi

# Side by side with hdparm 9.65: same stdout and exit status.
if oracle_965 loop "$ORACLE"; then
	for args in "" "-a" "-a 300" "-r" "-r0" "-q -a 256" "-v" "-g" "-c" "-d" "-k" "-n" "-u" "-m" "-b" "-z" "-f" \
		"-S 120" "-S 245" "-K1" "-L1" "-D1" "-P5" "-A1" "-M 128" "-R 1" "-Z" "-H" "-F" "-W1" "-X udma5" "-X 69" \
		"-a8 -r0" "-p 3" "-w" "-E 4" "-Q"; do
		# shellcheck disable=SC2086
		a=$("$H" $args "$dev" 2>/dev/null; echo "[exit $?]")
		# shellcheck disable=SC2086
		b=$("$ORACLE" $args "$dev" 2>/dev/null; echo "[exit $?]")
		if [ "$a" = "$b" ]; then
			ok "loop same as 9.65: hdparm $args"
		else
			bad "loop same as 9.65: hdparm $args" "ours: $a" "9.65: $b"
		fi
	done
fi
echo "end of suite"
