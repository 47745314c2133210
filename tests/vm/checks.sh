# Runs inside the test VM (busybox sh).  Devices:
#   /dev/sda  AHCI hard disk    /dev/sdb  AHCI SSD (TRIM)   /dev/sr0  ATAPI DVD
#   /dev/nvme0n1  NVMe namespace    /dev/vda  virtio-blk disk
# Every check compares stdout with /expected/NAME and the exit status with
# the number given; "--generate" mode dumps the outputs instead (with those
# of hdparm 9.65 beside them, as NAME.965, when it is in the image).
mode=${1:-check}
H=/sbin/hdparm
OLD=/usr/sbin/hdparm-9.65

dump() {
	echo "VM-OUT-BEGIN $1"
	cat "$2"
	echo "VM-OUT-END"
}

# check NAME EXIT COMMAND...: stdout must equal /expected/NAME.
check() {
	name=$1
	want=$2
	shift 2
	"$@" > /tmp/out 2> /tmp/err
	rc=$?
	if [ "$mode" = generate ]; then
		dump "$name" /tmp/out
		echo "$rc" > /tmp/rc
		dump "$name.rc" /tmp/rc
		dump "$name.err" /tmp/err
		if [ -x "$OLD" ] && [ "$1" = "$H" ]; then
			shift
			"$OLD" "$@" > /tmp/out 2> /tmp/err
			echo "$?" > /tmp/rc
			dump "$name.965" /tmp/out
			dump "$name.965.rc" /tmp/rc
		fi
		return
	fi
	if [ "$rc" = "$want" ] && cmp -s /tmp/out "/expected/$name"; then
		echo "ok $name"
	else
		echo "FAIL $name (exit $rc, wanted $want)"
		diff "/expected/$name" /tmp/out 2>&1 | head -n 20 | sed 's/^/  /'
		head -n 5 /tmp/err | sed 's/^/  stderr: /'
	fi
}

# check_fails NAME PATTERN COMMAND...: non-zero exit, PATTERN on stderr.
check_fails() {
	name=$1
	pattern=$2
	shift 2
	"$@" > /tmp/out 2> /tmp/err
	rc=$?
	[ "$mode" = generate ] && return
	if [ "$rc" != 0 ] && grep -q -- "$pattern" /tmp/err; then
		echo "ok $name"
	else
		echo "FAIL $name (exit $rc, stderr did not match '$pattern')"
		head -n 5 /tmp/err | sed 's/^/  stderr: /'
	fi
}

# check_true NAME COMMAND...: the command (a test of our own) succeeds.
check_true() {
	name=$1
	shift
	[ "$mode" = generate ] && return
	if "$@" > /tmp/out 2>&1; then
		echo "ok $name"
	else
		echo "FAIL $name"
		head -n 10 /tmp/out | sed 's/^/  /'
	fi
}

# --- identification: the foundation ---
for d in sda:hdd sdb:ssd; do
	dev=/dev/${d%%:*}
	tag=${d##*:}
	check "$tag-I" 0 $H -I "$dev"
	check "$tag-i" 0 $H -i "$dev"
	check "$tag-Istdout" 0 $H --Istdout "$dev"
	check "$tag-default" 0 $H "$dev"
done
check dvd-I 0 $H -I /dev/sr0
check_fails virtio-I "identify" $H -I /dev/vda
check_fails virtio-Istdout "identify" $H --Istdout /dev/vda

# The page read from the drive decodes the same through --Istdin.
$H --Istdout /dev/sda > /tmp/page 2>/dev/null
check hdd-Istdin 0 sh -c "$H --Istdin < /tmp/page"
check_true hdd-Iraw sh -c "$H --Iraw /tmp/raw /dev/sda && [ \$(wc -c < /tmp/raw) = 512 ]"

# ATAPI: IDENTIFY PACKET DEVICE answers; commands the drive rejects fail.
check_fails dvd-N "NATIVE_MAX\|IDENTIFY" $H -N /dev/sr0
