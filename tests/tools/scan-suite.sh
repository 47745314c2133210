# shellcheck shell=bash disable=SC2154,SC2034 # H, out: the suite's; rc: read by the suite
# The surface-scan suites' common words (tests/*scan*-tests.sh), sourced after tests/lib.sh and
# tests/tools/faulty-disk.sh, with H (hdparm) and out (the suite's folder) set.

# settle: udev's probes of a new device done (where udev runs), so that no read but hdparm's is
# counted or logged after it.
settle() { command -v udevadm > /dev/null && udevadm settle 2> /dev/null; true; }
# loop_up [LOSETUP ARGS...] IMAGE: a loop device of 512-byte sectors with direct I/O; its path on stdout.
loop_up() { losetup --direct-io=on --sector-size 512 --show -f "$@" && settle; }
# disk_up ARGS...: faulty_disk_up ARGS, udev's reads of it done and out of its log.
disk_up() { faulty_disk_up "$@" && settle && : > "$FAULTY_LOG"; }

# reads DEV: the number of reads the device (a partition too) completed (the first field of its
# stat); bytes_read DEV: the bytes it read (the third, in 512-byte units whatever the sector size).
reads() { awk '{ print $1 }' "/sys/class/block/${1#/dev/}/stat"; }
bytes_read() { echo $(($(awk '{ print $3 }' "/sys/class/block/${1#/dev/}/stat") * 512)); }

# jget FILE EXPR: EXPR of the first device's surface_scan object, in Python (s is the object).
jget() {
	python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["devices"][0]["surface_scan"]; print(eval(sys.argv[2]))' "$1" "$2" 2>&1
}

# check NAME GOT WANT
check() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "got:    $2" "wanted: $3"; fi; }

# scan STEM ARGS...: hdparm ARGS; rc, $out/STEM.out and STEM.err.
scan() {
	local stem=$1
	shift
	"$H" "$@" > "$out/$stem.out" 2> "$out/$stem.err"
	rc=$?
}

# waits_in_read PID: PID is blocked in the device's read.
waits_in_read() {
	local nr
	case "$(uname -m)" in x86_64) nr=17 ;; aarch64) nr=67 ;; *) nr="" ;; esac
	[ "$(awk '{ print $3 }' "/proc/$1/stat" 2> /dev/null)" = D ] || return 1
	[ -z "$nr" ] || [ "$(cut -d' ' -f1 "/proc/$1/syscall" 2> /dev/null)" = "$nr" ]
}
# pending PID: a signal waits for PID.
pending() { awk '/^(ShdPnd|SigPnd):/ && $2 !~ /^0+$/ { f = 1 } END { exit !f }' "/proc/$1/status" 2> /dev/null; }
