# Runs inside the test VM (busybox sh).  Devices:
#   /dev/sda  AHCI hard disk    /dev/sdb  AHCI SSD (TRIM)   /dev/sr0  ATAPI DVD
#   /dev/nvme0n1  NVMe namespace    /dev/vda  virtio-blk disk
#   /dev/sdd  SCSI disk on virtio-scsi (no ATA pass-through; thin provisioned)
#   /dev/sde  USB mass-storage disk (no SAT layer)
# Every check compares stdout with /expected/NAME and the exit status with
# the number given; "--generate" mode dumps the outputs instead (with those
# of hdparm 9.65 beside them, as NAME.965, when it is in the image).
mode=${1:-check}
H=/sbin/hdparm
OLD=/usr/sbin/hdparm-9.65

# limited COMMAND...: the command, stopped after LIMIT seconds.  An emulated
# disk that loses a request (QEMU's NVMe and virtio-blk did, under queued
# reads: the kernel logs an I/O timeout) then fails one check, with the
# kernel's last lines, instead of holding up the whole suite.
LIMIT=120
limited() {
	case $(command -v "$1") in
	/*) timeout "$LIMIT" "$@" ;;
	*) "$@" ;;	# a function of this script
	esac
	lrc=$?
	if [ "$lrc" = 143 ]; then
		echo "hdparm-vm: stopped after $LIMIT s: $*" >&2
		dmesg | tail -n 3 | sed 's/^/hdparm-vm: kernel: /' >&2
	fi
	return $lrc
}

dump() {
	echo "VM-OUT-BEGIN $1"
	cat "$2"
	# A newline of its own before the marker, taken off again on the host: output that ends
	# without one (a heading left by a failed read) keeps its bytes.
	echo
	echo "VM-OUT-END"
}

# check NAME EXIT COMMAND...: stdout must equal /expected/NAME.
check() {
	name=$1
	want=$2
	shift 2
	limited "$@" > /tmp/out 2> /tmp/err
	rc=$?
	if [ "$mode" = generate ]; then
		dump "$name" /tmp/out
		echo "$rc" > /tmp/rc
		dump "$name.rc" /tmp/rc
		dump "$name.err" /tmp/err
		if [ -x "$OLD" ]; then
			as_965 "$@" > /tmp/out 2> /tmp/err
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
	against_965 "$name" "$rc" "$@"
}

# as_965 COMMAND...: the command with hdparm 9.65 in place of ours (also inside "sh -c TEXT").
as_965() {
	if [ "$1" = "$H" ]; then
		shift
		"$OLD" "$@"
	else
		"$1" "$2" "$(echo "$3" | sed "s#$H #$OLD #g")"
	fi
}

# against_965 NAME EXIT COMMAND...: ours (stdout in /tmp/out, exit EXIT) beside hdparm 9.65's
# under the same command.  A check in SAME_AS_965 must print the same and exit the same; one in
# DIFFERS_FROM_965 must not (a difference hdparm.8 lists, or an answer where 9.65 has none):
# where it no longer differs, it belongs in the other list.
against_965() {
	name=$1
	ours_rc=$2
	shift 2
	case " $SAME_AS_965 $DIFFERS_FROM_965 " in *" $name "*) ;; *) return ;; esac
	if [ ! -x "$OLD" ]; then
		echo "skip vm: $name against 9.65: hdparm 9.65 is not in the image (tests/setup installs it)"
		return
	fi
	mv /tmp/out /tmp/ours
	as_965 "$@" > /tmp/out 2> /dev/null
	old_rc=$?
	same=no
	[ "$old_rc" = "$ours_rc" ] && cmp -s /tmp/out /tmp/ours && same=yes
	case " $SAME_AS_965 " in
	*" $name "*)
		if [ "$same" = yes ]; then
			echo "ok same as 9.65: $name"
		else
			echo "FAIL same as 9.65: $name (ours exit $ours_rc, 9.65 exit $old_rc)"
			diff /tmp/out /tmp/ours | head -n 10 | sed 's/^/  /'
		fi
		;;
	*)
		if [ "$same" = no ]; then
			echo "ok differs from 9.65 as listed: $name"
		else
			echo "FAIL differs from 9.65 as listed: $name prints and exits as 9.65 does: move it to SAME_AS_965"
		fi
		;;
	esac
	mv /tmp/ours /tmp/out
}

# The checks whose output and exit status must equal hdparm 9.65's.
SAME_AS_965="hdd-I hdd-i hdd-Istdout hdd-default ssd-I ssd-i ssd-Istdout ssd-default
set-W0 get-W-off set-W1 get-W-on set-A0 set-A1 get-A set-a512 get-a set-r1 get-r set-r0 q-a256
get-C set-y get-C-after-y C-q q-C set-S120 set-S245 set-B254 set-B255 get-B set-M128 get-M set-K1
get-N flush-F idle-immediate idle-unload get-Q get-g get-c get-m get-R get-v two-devices ssd-W ssd-C
read-sector-1000 read-sector-0 write-sector-2000 read-sector-2000 repair-sector-2001 trim-4000
read-trimmed-4000 read-untrimmed-4008 fault-read-good fault-write-good fault-C-after fault-I-after
fibmap-965-layout security-freeze virtio-a dvd-W fault-I get-N-unchanged nvme-a nvme-default set-Y
set-m16-confirmed virtio-default hdd-Istdin I-wcache-off trim-stdin fault-t fault-direct-t"

# The checks whose output differs from 9.65's on purpose, each reviewed by hand (hdparm.8, DIFFERENCES
# FROM HDPARM 9.65, lists why):
#   dvd-I: fixed-format sense decoded, so the ATAPI drive's IDENTIFY PACKET DEVICE is decoded (9.65:
#     an all-zero IDENTIFY DEVICE page);
#   set-X-*, set-N-same: the drive (libata) rejects the command: said, exit 5 (9.65: exit 0);
#   nvme-*: NVMe answered (NVME DRIVES) where 9.65 prints nothing or fails (exit 25, ENOTTY);
#   fault-read-bad, fault-write-bad, fault-two-devices: a sector the drive fails to read or write
#     said FAILED, exit 5 (9.65, which took libata's fixed-format sense for none: "succeeded", zeros).
DIFFERS_FROM_965="dvd-I set-X-66 set-X-mdma2 set-X-udma5 set-N-same nvme-C nvme-F nvme-I nvme-W nvme-W-off
nvme-W0 nvme-W1 nvme-ctrl-I nvme-format-erase-user nvme-i nvme-read-3000 nvme-read-3000-trimmed nvme-trim
fault-read-bad fault-write-bad fault-two-devices"
# One line each, so that " NAME " finds a name at the start of a line too.
SAME_AS_965=$(echo $SAME_AS_965)
DIFFERS_FROM_965=$(echo $DIFFERS_FROM_965)

# check_fails NAME PATTERN COMMAND...: non-zero exit, PATTERN on stderr.
check_fails() {
	name=$1
	pattern=$2
	shift 2
	limited "$@" > /tmp/out 2> /tmp/err
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
	if limited "$@" > /tmp/out 2>&1; then
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

# --- settings and power management (set, then read back) ---
# Where 9.65 and we differ on purpose: libata refuses SET FEATURES/transfer
# mode and QEMU aborts SET MAX ADDRESS EXT, which 9.65 reported as success.
S=/dev/sda
check set-W0 0 $H -W0 $S
check get-W-off 0 $H -W $S
check I-wcache-off 0 sh -c "$H -I $S | grep 'Write cache'"
check set-W1 0 $H -W1 $S
check get-W-on 0 $H -W $S
check set-A0 0 $H -A0 $S
check set-A1 0 $H -A1 $S
check get-A 0 $H -A $S
check set-a512 0 $H -a512 $S
check get-a 0 $H -a $S
check set-r1 0 $H -r1 $S
check get-r 0 $H -r $S
check set-r0 0 $H -r0 $S
check q-a256 0 $H -q -a256 $S
check get-C 0 $H -C $S
check set-y 0 $H -y $S
check get-C-after-y 0 $H -C $S
check C-q 0 $H -C -q $S
check q-C 0 $H -q -C $S
check set-S120 0 $H -S 120 $S
check set-S245 0 $H -S245 $S
check set-B254 0 $H -B 254 $S
check set-B255 0 $H -B 255 $S
check get-B 0 $H -B $S
check set-M128 0 $H -M 128 $S
check get-M 0 $H -M $S
check set-K1 0 $H -K1 $S
check set-X-udma5 5 $H -X udma5 $S
check set-X-mdma2 5 $H -X mdma2 $S
check set-X-66 5 $H -X 66 $S
check get-N 0 $H -N $S
check set-N-same 5 $H -N 131072 $S
check_fails set-N-smaller "yes-i-know-what-i-am-doing" $H -N 100000 $S
check get-N-unchanged 0 $H -N $S
check flush-F 0 $H -F $S
check idle-immediate 0 $H --idle-immediate $S
check idle-unload 0 $H --idle-unload $S
check get-Q 0 $H -Q $S
check get-g 0 $H -g $S
check get-c 0 $H -c $S
check get-m 0 $H -m $S
check_fails set-m16 "yes-i-know-what-i-am-doing" $H -m16 $S
check set-m16-confirmed 0 $H -m16 --yes-i-know-what-i-am-doing $S
check get-R 0 $H -R $S
check get-v 0 $H -v $S
check two-devices 0 $H -W -A /dev/sda /dev/sdb
check_fails set-D1-rejected "aborted" $H -D1 $S
check_fails set-P5-rejected "aborted" $H -P5 $S
check_fails seagate-Z-rejected "aborted" $H -Z $S
# QEMU's AHCI disk: no SCT, and its SMART attributes have no 194 (temperature): -H sends no vendor command.
check_fails H-no-temperature "no SCT Status and no SMART attribute 194" $H -H $S
check_fails set-R1-rejected "aborted" $H -R1 $S
check_fails s1-unconfirmed "yes-i-know-what-i-am-doing" $H -s1 $S
check_fails get-d "HDIO_GET_DMA" $H -d $S
check_fails get-k "HDIO_GET_KEEPSETTINGS" $H -k $S
check ssd-W 0 $H -W /dev/sdb
check ssd-C 0 $H -C /dev/sdb

# ATAPI, virtio and NVMe: what they cannot do fails with a message.
check_fails dvd-L1 "failed" $H -L1 /dev/sr0
check dvd-W 0 $H -W /dev/sr0
check_fails virtio-C "CHECK POWER MODE" $H -C /dev/vda
check_fails virtio-W0 "failed" $H -W0 /dev/vda
check_fails virtio-y "failed" $H -y /dev/vda
check_fails nvme-y "-y: this NVMe controller has no non-operational power state" $H -y /dev/nvme0n1
check_fails nvme-S "-S: not supported on NVMe" $H -S 12 /dev/nvme0n1
check virtio-a 0 $H -a /dev/vda
check virtio-default 0 $H /dev/vda
check nvme-default 0 $H /dev/nvme0n1

# Sleep last: the drive needs a reset afterwards.
check set-Y 0 $H -Y $S

# --- data-touching commands ---
check read-sector-1000 0 $H --read-sector 1000 /dev/sda
check read-sector-0 0 $H --read-sector 0 /dev/sda
check_fails read-sector-beyond "beyond the end" $H --read-sector 131072 /dev/sda
check_fails write-sector-unconfirmed "yes-i-know-what-i-am-doing" $H --write-sector 1000 /dev/sda
check write-sector-2000 0 $H --write-sector 2000 --yes-i-know-what-i-am-doing /dev/sda
check read-sector-2000 0 $H --read-sector 2000 /dev/sda
check repair-sector-2001 0 $H --repair-sector 2001 --yes-i-know-what-i-am-doing /dev/sda
check_fails trim-unconfirmed "please-destroy-my-drive" $H --trim-sector-ranges 4010:1 /dev/sdb
check trim-4000 0 $H --trim-sector-ranges 4000:8 --please-destroy-my-drive /dev/sdb
check read-trimmed-4000 0 $H --read-sector 4000 /dev/sdb
check read-untrimmed-4008 0 $H --read-sector 4008 /dev/sdb
check trim-stdin 0 sh -c "echo '5000:4 5010:2' | $H --trim-sector-ranges-stdin --please-destroy-my-drive /dev/sdb"
check_fails trim-beyond "beyond the end" $H --trim-sector-ranges 131070:8 --please-destroy-my-drive /dev/sdb
check security-freeze 0 $H --security-freeze /dev/sda
check_fails security-unlock "Security feature set" $H --security-unlock pw /dev/sda
check_fails sanitize-status "SANITIZE feature set is not supported" $H --sanitize-status /dev/sda
check_fails dco-identify "dco_identify" $H --dco-identify /dev/sda
check_fails make-bad-sector "aborted" $H --make-bad-sector f3000 --yes-i-know-what-i-am-doing /dev/sda

# --fibmap: the extents of a file on ext2 must hold the file's bytes.
mkfs.ext2 -q /dev/sdb 2>/dev/null || mke2fs /dev/sdb > /dev/null 2>&1
mkdir -p /mnt && mount -t ext4 /dev/sdb /mnt 2>/dev/null
dd if=/dev/urandom of=/mnt/file bs=4096 count=5 2>/dev/null
sync
check_true fibmap-placement sh -c "
	$H --fibmap /mnt/file > /tmp/map &&
	lba=\$(awk 'NR == 5 { print \$2 }' /tmp/map) &&
	n=\$(awk 'NR == 5 { print \$4 }' /tmp/map) &&
	dd if=/dev/sdb bs=512 skip=\$lba count=\$n 2>/dev/null | head -c 20480 | cmp - /mnt/file ||
	{ cat /tmp/map; false; }"
# Where ext4 puts the file differs from boot to boot (the same 40 sectors, 548 or 578 on): the
# layout is held against the expected output with the LBAs masked, and the LBAs against 9.65's.
check fibmap-965-layout 0 sh -c "$H --fibmap /mnt/file > /tmp/fm; rc=\$?; sed '5s/^\\( *[0-9]*\\) *[0-9]* *[0-9]* /\\1 LBA LBA /' /tmp/fm; exit \$rc"
check_true fibmap-965-lbas sh -c "$H --fibmap /mnt/file > /tmp/fm && $OLD --fibmap /mnt/file > /tmp/fm-965 && cmp /tmp/fm /tmp/fm-965"
check_fails fibmap-directory "not a regular file" $H --fibmap /mnt
umount /mnt 2>/dev/null
head -c 1024 /dev/zero > /tmp/fw.bin
check_fails fwdownload-unsupported "DOWNLOAD_MICROCODE: not supported" $H --yes-i-know-what-i-am-doing --please-destroy-my-drive --fwdownload /tmp/fw.bin /dev/sda
check_fails set-sector-size-unsupported "SECTOR_CONFIGURATION\|READ_LOG" $H --please-destroy-my-drive --set-sector-size 4096 /dev/sda

# --- timings on each kind of disk (the format, never a speed) ---
RATE='[0-9]+ MB in +[0-9]+\.[0-9]{2} seconds = +[0-9]+\.[0-9]{2} [Mk]B/sec'
check_true timing-T-sda sh -c "$H -T /dev/sda | grep -Eq '^ Timing cached reads:   $RATE\$'"
for d in sda sdb nvme0n1 vda; do
	check_true "timing-t-$d" sh -c "$H -t /dev/$d | grep -Eq '^ Timing buffered disk reads: +$RATE\$'"
done
check_true timing-direct-t-sda sh -c "$H --direct -t /dev/sda | grep -Eq '^ Timing O_DIRECT disk reads: +$RATE\$'"
check_fails timing-t-dvd-no-media "" $H -t /dev/sr0

# --- a drive that fails: reads of LBA 50000, writes of LBA 60000 (/dev/sdc) ---
B=/dev/sdc
# fails NAME EXIT-NONZERO TEXT COMMAND...: non-zero exit, TEXT on stderr, and never "succeeded".
fault() {
	name=$1
	pattern=$2
	shift 2
	limited "$@" > /tmp/out 2> /tmp/err
	rc=$?
	if [ "$mode" = generate ]; then
		dump "$name" /tmp/out
		dump "$name.err" /tmp/err
		echo $rc > /tmp/rc
		dump "$name.rc" /tmp/rc
		return
	fi
	if [ "$rc" != 0 ] && grep -q -- "$pattern" /tmp/err && ! grep -q 'succeeded\|MB/sec' /tmp/out &&
		{ [ ! -f "/expected/$name" ] || cmp -s /tmp/out "/expected/$name"; }; then
		echo "ok $name"
	else
		echo "FAIL $name (exit $rc)"
		diff "/expected/$name" /tmp/out 2>&1 | head -n 5 | sed 's/^/  /'
		head -n 5 /tmp/err | sed 's/^/  stderr: /'
	fi
	# 9.65's runs come after the checks of the disk's state: each media error they meet makes
	# libata lower the link's transfer mode, which -I shows.
	cp /tmp/out "/tmp/fault-$name.out"
	echo "$name $rc $*" >> /tmp/fault-965
}
rm -f /tmp/fault-965
check fault-I 0 $H -I $B
fault fault-read-bad "read-sector 50000: .*aborted\|read-sector 50000: .*error" $H --read-sector 50000 $B
check fault-read-good 0 $H --read-sector 50001 $B
fault fault-write-bad "write-sector 60000: " $H --write-sector 60000 --yes-i-know-what-i-am-doing $B
check fault-write-good 0 $H --write-sector 60001 --yes-i-know-what-i-am-doing $B
fault fault-t "byte offset" $H -t $B
fault fault-direct-t "byte offset" $H --direct -t $B
check fault-C-after 0 $H -C $B
check fault-I-after 0 $H -I $B
fault fault-two-devices "read-sector 50000" $H --read-sector 50000 $B
# The faults beside 9.65 (listed in DIFFERS_FROM_965), now that nothing more reads the disk's state.
if [ "$mode" != generate ]; then
	while read -r n r cmd; do
		cp "/tmp/fault-$n.out" /tmp/out
		# shellcheck disable=SC2086 # the command's words
		against_965 "$n" "$r" $cmd < /dev/null
	done < /tmp/fault-965
fi
# A failure on one device does not stop the next; the exit status is the last failure's.
$H --read-sector 50000 $B /dev/sda > /tmp/out 2> /tmp/err
rc=$?
if [ "$mode" != generate ]; then
	if [ "$rc" = 5 ] && grep -q 'reading sector 50000: FAILED' /tmp/out && grep -q 'reading sector 50000: succeeded' /tmp/out; then
		echo "ok fault-next-device-still-processed"
	else
		echo "FAIL fault-next-device-still-processed (exit $rc)"
	fi
fi

# --- NVMe (/dev/nvme0n1, controller /dev/nvme0) ---
N=/dev/nvme0n1
check nvme-I 0 $H -I $N
check nvme-ctrl-I 0 $H -I /dev/nvme0
check nvme-i 0 $H -i $N
# Firmware: QEMU's controller has no Firmware Image Download and Commit (OACS bit 2 clear), which
# nvme-cli's fw-download, sent anyway, confirms (QEMU answers Invalid Command Opcode); ours refuses
# before anything is sent.  Its one slot, read only, holds QEMU's revision (-I: nvme-I).
head -c 8192 /dev/zero > /tmp/fw.bin
check_true nvme-fwdownload-refused-as-qemu-answers sh -c "
	$H --yes-i-know-what-i-am-doing --please-destroy-my-drive --fwdownload /tmp/fw.bin $N > /tmp/fw.out 2>&1
	rc=\$?
	cat /tmp/fw.out
	[ \$rc = 95 ] && grep -q 'no Firmware Image Download and Commit (OACS bit 2): refused, nothing sent' /tmp/fw.out &&
	! nvme fw-download /dev/nvme0 --fw=/tmp/fw.bin --xfer=4096 > /tmp/fw-cli.out 2>&1 && cat /tmp/fw-cli.out &&
	grep -qi 'invalid.*opcode\\|INVALID_OPCODE' /tmp/fw-cli.out"
check nvme-C 0 $H -C $N
# The power state -C names is the one nvme-cli's Get Features (Power Management) reports.
check_true nvme-C-agrees-with-nvme-cli sh -c "
	nvme get-feature /dev/nvme0 -f 2 > /tmp/nvme-cli.out 2>&1
	want=\$(sed -n 's/.*Current value: *\\(0x\\)\\{0,1\\}\\([0-9a-fA-F][0-9a-fA-F]*\\).*/\\2/p' /tmp/nvme-cli.out) &&
	got=\$($H -C $N | sed -n 's/^ power state: *PS\\([0-9]*\\),.*/\\1/p') &&
	[ -n \"\$want\" ] && [ -n \"\$got\" ] && [ \$((0x\$want & 31)) = \"\$got\" ] || { echo \"nvme-cli: \$want, hdparm: \$got\"; cat /tmp/nvme-cli.out; false; }"
# --erc 70 sets the namespace's Error Recovery feature (05h): nvme-cli reads TLER 70 back, and so do we.
check_true nvme-erc-agrees-with-nvme-cli sh -c "
	$H -q --erc 70 $N && nvme get-feature $N -f 5 -n 1 > /tmp/nvme-erc.out 2>&1 &&
	want=\$(sed -n 's/.*Current value: *\\(0x\\)\\{0,1\\}\\([0-9a-fA-F][0-9a-fA-F]*\\).*/\\2/p' /tmp/nvme-erc.out) &&
	[ -n \"\$want\" ] && [ \$((0x\$want & 65535)) = 70 ] &&
	$H --erc $N | grep -qx ' error recovery limit:  7.0 s, reads and writes (Error Recovery feature (05h))' ||
	{ cat /tmp/nvme-erc.out; $H --erc $N; false; }"
check nvme-W 0 $H -W $N
check nvme-W0 0 $H -W0 $N
check nvme-W-off 0 $H -W $N
check nvme-W1 0 $H -W1 $N
check nvme-F 0 $H -F $N
check nvme-read-3000 0 $H --read-sector 3000 $N
# A buffered read first, so that the page cache holds the sector: after the TRIM, a buffered
# read must not be served the old bytes from it.
dd if=$N bs=512 skip=3000 count=1 2> /dev/null | grep -q hdparm-vm-marker
check_true nvme-cached-marker-before [ $? = 0 ]
check nvme-trim 0 $H --trim-sector-ranges 3000:1 --please-destroy-my-drive $N
check_true nvme-trim-drops-cache sh -c "! dd if=$N bs=512 skip=3000 count=1 2> /dev/null | grep -q hdparm-vm-marker"
check nvme-read-3000-trimmed 0 $H --read-sector 3000 $N
check_fails nvme-read-beyond "beyond the end" $H --read-sector 65536 $N
check_fails nvme-X "-X: not supported on NVMe" $H -X udma5 $N
check_fails nvme-security "not supported on NVMe" $H --security-freeze $N
check nvme-a 0 $H -a $N
check_true nvme-Istdout-size sh -c "[ \$($H --Istdout $N | tail -n +3 | wc -l) = 256 ]"
check_true nvme-tT sh -c "$H -t $N | grep -q 'Timing buffered disk reads'"
# -H: the SMART / Health log's composite temperature and Identify's thresholds, as smartctl reads them.
smartctl -a /dev/nvme0 > /tmp/smart-nvme 2> /dev/null
$H -H /dev/nvme0n1 > /tmp/H-nvme 2> /dev/null
for f in "Temperature:drive temperature (celsius) is:  " "Warning  Comp. Temp. Threshold:warning threshold (celsius):     " \
	"Critical Comp. Temp. Threshold:critical threshold (celsius):    "; do
	theirs=$(sed -n "s/^${f%%:*}: *\([0-9]*\) Celsius\$/\1/p" /tmp/smart-nvme | head -n 1)
	check_true "nvme-H-as-smartctl-${f%%:*}" sh -c "[ -n '$theirs' ] && grep -qx ' ${f#*:}$theirs' /tmp/H-nvme"
done
# --power-on-hours through a real kernel: QEMU's NVMe controller counts the hours since it started,
# as smartctl reads them; its AHCI disk has no General Purpose Logging (IDENTIFY word 84), and its
# SCSI disk no Background Scan Results page: each refused with why.
theirs=$(sed -n 's/^Power On Hours: *\([0-9,]*\)$/\1/p' /tmp/smart-nvme | tr -d ,)
check_true nvme-power-on-hours-as-smartctl sh -c "[ -n '$theirs' ] && $H --power-on-hours $N | grep -qx ' power-on hours:  $theirs'"
check_fails ahci-power-on-hours-no-gpl "no General Purpose Logging (IDENTIFY word 84 bit 5)" $H --power-on-hours /dev/sda
check_fails scsi-power-on-hours-no-page "no Background Scan Results log page" $H --power-on-hours /dev/sdd
# --- erasing an NVMe disk (/dev/nvme1n1, 8192 blocks: markers at LBA 0, 4000-4007 and 8191) ---
# QEMU's controller: Format NVM without crypto erase (FNA 0), no Sanitize (SANICAP 0).
E=/dev/nvme1n1
check_true nvme-erase-markers-before sh -c "dd if=$E bs=512 skip=4000 count=1 2> /dev/null | grep -q hdparm-vm-marker"
check_fails nvme-format-erase-no-flag "yes-i-know-what-i-am-doing" $H --format-erase user $E
check_fails nvme-format-erase-crypto "does not support a cryptographic erase in a format" $H --yes-i-know-what-i-am-doing --format-erase crypto $E
check_fails nvme-sanitize-none "has no Sanitize command (it supports format with user-data erase)" $H --yes-i-know-what-i-am-doing --sanitize-block-erase $E
check_fails nvme-security-erase "use --format-erase user" $H --security-erase pw $E
# In use: a mounted filesystem on it is named, and nothing is sent (the markers stay).
mkfs.ext2 -q $E 2>/dev/null || mke2fs $E > /dev/null 2>&1
mkdir -p /mnt && mount -t ext4 $E /mnt 2>/dev/null
check_fails nvme-format-erase-in-use "$E is in use ($E mounted on /mnt): refused, nothing sent" $H --yes-i-know-what-i-am-doing --format-erase user $E
umount /mnt 2>/dev/null
check_true nvme-erase-markers-kept sh -c "dd if=$E bs=512 skip=4000 count=1 2> /dev/null | grep -q hdparm-vm-marker"
check nvme-format-erase-user 0 $H --yes-i-know-what-i-am-doing --format-erase user $E
check_true nvme-format-erase-reads-zeros sh -c "[ \"\$(dd if=$E bs=512 count=8192 2> /dev/null | tr -d '\\000' | wc -c)\" = 0 ]"

# The raw Identify Controller page, for the decoder's unit tests on the host.
if [ "$mode" = generate ]; then
	$H --Iraw /tmp/nvme-ctrl.bin /dev/nvme0n1 2>/dev/null && od -An -tx1 -v /tmp/nvme-ctrl.bin > /tmp/nvme-ctrl.hex
	dump nvme-ctrl-page /tmp/nvme-ctrl.hex
fi

# --- SCSI disks without ATA pass-through: sg_inq, sg_readcap and sdparm are the oracles ---
# field FILE LABEL: the text after "LABEL:" in an oracle's output, blanks trimmed.
field() {
	sed -n "s/^ *$2: *//p" "$1" | head -n 1 | sed 's/ *$//'
}
# hfield LABEL: the same in our -I output (one tab, the label padded to 20).
hfield() {
	sed -n "s/^\t$1 *//p" /tmp/scsi-I | head -n 1
}
for d in sdd:sas sde:usb; do
	D=/dev/${d%%:*}
	tag=scsi-${d##*:}
	if ! command -v sg_inq > /dev/null; then
		echo "FAIL $tag: sg_inq is not in the image (tests/setup installs sg3-utils)"
		continue
	fi
	sg_inq "$D" > /tmp/inq 2>&1
	sg_inq -p 0x80 "$D" > /tmp/inq80 2>&1
	sg_readcap -l "$D" > /tmp/cap 2>&1
	cp /tmp/cap "/tmp/cap-${d##*:}"
	$H -I "$D" > /tmp/scsi-I 2> /tmp/scsi-I.err
	rc=$?
	cp /tmp/scsi-I "/tmp/scsi-I-${d##*:}"
	vendor=$(field /tmp/inq "Vendor identification")
	product=$(field /tmp/inq "Product identification")
	rev=$(field /tmp/inq "Product revision level")
	serial=$(field /tmp/inq80 "Unit serial number")
	blocks=$(sed -n 's/.*Number of logical blocks=\([0-9]*\).*/\1/p' /tmp/cap)
	bsize=$(sed -n 's/.*Logical block length=\([0-9]*\) bytes.*/\1/p' /tmp/cap)
	check_true "$tag-I-exit" [ "$rc" = 0 ]
	check_true "$tag-oracle-answered" sh -c "[ -n '$vendor' ] && [ -n '$product' ] && [ -n '$rev' ] && [ -n '$blocks' ]"
	check_true "$tag-I-model" [ "$(hfield 'Model Number:')" = "$vendor $product" ]
	check_true "$tag-I-firmware" [ "$(hfield 'Firmware Revision:')" = "$rev" ]
	check_true "$tag-I-serial" [ "$(hfield 'Serial Number:')" = "$serial" ]
	check_true "$tag-I-blocks" [ "$(sed -n 's/^\tLBA    user addressable sectors: *//p' /tmp/scsi-I)" = "$blocks" ]
	check_true "$tag-I-block-size" grep -q "Logical  Sector size: *$bsize bytes" /tmp/scsi-I
	# Thin provisioning and UNMAP, as the sd driver has them (its thin_provisioning is LBPME): on
	# the SAS disk from READ CAPACITY (16), as sg_readcap -l reads it; behind the USB bridge sd
	# asks (10) alone, which has no LBPME, and so does hdparm there.
	set -- $(stat -c '%t %T' "$D")
	lbpme=$(cat /sys/dev/block/$((0x$1)):$((0x$2))/device/scsi_disk/*/thin_provisioning)
	if [ "$lbpme" = 1 ]; then
		check_true "$tag-I-thin" grep -q "Thin provisioning:     yes" /tmp/scsi-I
		check_true "$tag-trim" sh -c "$H --please-destroy-my-drive --trim-sector-ranges 20000:8 $D | grep -q 'trimming 8 sectors from 1 ranges'"
	else
		check_true "$tag-I-thin" grep -q "Thin provisioning:     no" /tmp/scsi-I
		check_fails "$tag-trim" "does not support UNMAP" $H --please-destroy-my-drive --trim-sector-ranges 20000:8 "$D"
	fi
	check_true "$tag-I-no-ata-noise" sh -c "! grep -q 'sense data\|HDIO\|cylinders' /tmp/scsi-I /tmp/scsi-I.err"
	check_true "$tag-i" sh -c "$H -i $D | grep -qF ' Model=$vendor $product, FwRev=$rev, SerialNo=$serial'"
	check_true "$tag-json" sh -c "$H --json -I $D > /tmp/scsi.json && grep -qF '\"scsi_vendor\": \"$vendor\"' /tmp/scsi.json &&
		grep -qF '\"scsi_product\": \"$product\"' /tmp/scsi.json && grep -qF '\"blocks\": $blocks,' /tmp/scsi.json &&
		grep -qF '\"device_type\": \"scsi\"' /tmp/scsi.json"
	# The write cache, as sdparm reads it from the caching mode page.
	wce() { sdparm --get=WCE "$D" 2> /dev/null | awk '$1 == "WCE" { print $2 }'; }
	check_true "$tag-W-matches-sdparm" sh -c "$H -W $D | grep -qF \" write-caching =  $(wce)\""
	# The kernel must follow: queue/write_cache decides whether the block layer sends flushes.
	# (The node's numbers, not its name: the init script renames the nodes, sysfs keeps the kernel's names.)
	kcache() { set -- $(stat -c '%t %T' "$D"); cat "/sys/dev/block/$((0x$1)):$((0x$2))/queue/write_cache"; }
	$H -q -W0 "$D" > /dev/null 2>&1
	check_true "$tag-W0-exit" [ $? = 0 ]
	check_true "$tag-W0-sdparm" [ "$(wce)" = 0 ]
	check_true "$tag-W0-kernel" [ "$(kcache)" = "write through" ]
	check_true "$tag-W0-query" sh -c "$H -W $D | grep -qF ' write-caching =  0 (off)'"
	$H -q -W1 "$D" > /dev/null 2>&1
	check_true "$tag-W1-exit" [ $? = 0 ]
	check_true "$tag-W1-sdparm" [ "$(wce)" = 1 ]
	check_true "$tag-W1-kernel" [ "$(kcache)" = "write back" ]
	# The same through the disk's sg node: the kernel's view of the disk must follow.
	set -- $(stat -c '%t %T' "$D")
	sg=$(ls "/sys/dev/block/$((0x$1)):$((0x$2))/device/scsi_generic" 2> /dev/null | head -n 1)
	if [ -n "$sg" ] && [ -c "/dev/$sg" ]; then
		$H -q -W0 "/dev/$sg" > /dev/null 2>&1
		check_true "$tag-sg-W0-kernel" [ "$(kcache)" = "write through" ]
		$H -q -W1 "/dev/$sg" > /dev/null 2>&1
		check_true "$tag-sg-W1-kernel" [ "$(kcache)" = "write back" ]
	else
		echo "FAIL $tag-sg: the disk has no sg node (${sg:-none})"
	fi
	# --erc: the Read-Write Error Recovery page's RECOVERY TIME LIMIT as sdparm reads it (RTL, in
	# ms), and 7.0 s set where sdparm says the disk lets it change, else refused.
	rtl() { sdparm --get=RTL "$D" 2> /dev/null | awk '$1 == "RTL" { print $2 }'; }
	r=$(rtl)
	if [ -n "$r" ]; then
		if [ "$r" = 0 ]; then want=off; else want="$((r / 1000)).$((r % 1000 / 100)) s"; fi
		check_true "$tag-erc-as-sdparm" sh -c "$H --erc $D | grep -qxF ' error recovery limit:  $want, reads and writes (Read-Write Error Recovery mode page (01h))'"
		if sdparm --get=RTL "$D" 2> /dev/null | grep -q 'cha: n'; then
			check_fails "$tag-erc-not-changeable" "does not let its RECOVERY TIME LIMIT change" $H --erc 70 "$D"
		else
			$H -q --erc 70 "$D" > /dev/null 2>&1
			check_true "$tag-erc-set-sdparm" [ "$(rtl)" = 7000 ]
		fi
	else
		check_fails "$tag-erc-no-page" "--erc" $H --erc "$D"
	fi
	# Read-ahead off (DRA): as sdparm reads the page's changeable values, either it may change
	# and does, or -A0 says it may not.
	dra() { sdparm --get=DRA "$D" 2> /dev/null | awk '$1 == "DRA" { print $2 }'; }
	if sdparm --get=DRA "$D" 2> /dev/null | grep -q 'cha: n'; then
		check_fails "$tag-A0-not-changeable" "not supported by this disk (its caching mode page does not let DRA change)" $H -A0 "$D"
	else
		$H -q -A0 "$D" > /dev/null 2>&1
		check_true "$tag-A0-sdparm" [ "$(dra)" = 1 ]
		$H -q -A1 "$D" > /dev/null 2>&1
	fi
	check_true "$tag-A-sdparm" [ "$(dra)" = 0 ]
	check_true "$tag-A-query" sh -c "$H -A $D | grep -qF ' look-ahead    =  1 (on)'"
	check_true "$tag-F" $H -F "$D"
	check_true "$tag-y" sh -c "$H -y $D | grep -qF ' issuing standby command'"
	check_true "$tag-C" sh -c "$H -C $D | grep -qF ' drive state is:  active/idle'"
	check_fails "$tag-S" "not supported by this disk" $H -S 120 "$D"
	# QEMU's disks have no power condition mode page, as sdparm finds: --epc refuses in one line.
	check_true "$tag-epc-sdparm-none" sh -c "! sdparm --page=po $D 2> /dev/null | grep -q STANDBY_Z"
	check_fails "$tag-epc" "^ --epc: not supported by this disk (it has no power condition mode page)$" $H --epc "$D"
	if [ "$tag" = scsi-usb ]; then why="not asked of a disk behind a USB bridge"; else why="this disk has no background medium scan"; fi
	check_fails "$tag-background-scan" "^ --background-scan: $why" $H --background-scan off "$D"
	check_fails "$tag-B" "is a SCSI disk without ATA pass-through: -B needs an ATA drive" $H -B 128 "$D"
	check_fails "$tag-security" "needs an ATA drive" $H --security-freeze "$D"
	check_fails "$tag-Istdout" "has no IDENTIFY page" $H --Istdout "$D"
	check_true "$tag-t" sh -c "$H -t $D | grep -q 'Timing buffered disk reads'"
	# A sector, against the bytes dd reads through the block layer.
	dd if="$D" bs=512 skip=5000 count=1 iflag=direct 2> /dev/null | od -An -tx1 -v | tr -d ' \n' > /tmp/dd-sector
	$H --read-sector 5000 "$D" 2> /dev/null | tail -n +4 | tr -d ' \n' > /tmp/our-sector
	check_true "$tag-read-sector" sh -c "[ -s /tmp/dd-sector ] && cmp -s /tmp/dd-sector /tmp/our-sector"
done

# --- the USB bridge (issue 66): QEMU's usb-storage is 46f4:0001, in no bridge table: hdparm names it,
# says so, and sends it no vendor command.  The CDBs that reached its SCSI host are the guest kernel's
# trace (scsi_dispatch_cmd_start, its raw= bytes): the SAT probe's ATA_16 must be there (the trace
# saw hdparm's commands), and no vendor CDB (opcodes C0h-FFh, or JMicron's tunnel: A1h with 80h).
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2> /dev/null
set -- $(stat -c '%t %T' /dev/sde)
usb_host=$(basename "$(readlink -f "/sys/dev/block/$((0x$1)):$((0x$2))/device")" | cut -d: -f1)
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/events/scsi/scsi_dispatch_cmd_start/enable
echo 1 > $T/tracing_on
$H -I /dev/sde > /tmp/usb-I 2> /tmp/usb-I.err
usb_rc=$?
$H --json -I /dev/sde > /tmp/usb.json 2> /dev/null
$H -C -H /dev/sde > /dev/null 2>&1
echo 0 > $T/tracing_on
echo 0 > $T/events/scsi/scsi_dispatch_cmd_start/enable
grep "scsi_dispatch_cmd_start: host_no=$usb_host " $T/trace | sed -n 's/.* raw=\([0-9a-f ]*\)).*/\1/p' > /tmp/usb-cdbs
echo > $T/trace
check_true usb-bridge-I-line sh -c "[ $usb_rc = 0 ] && sed -n 3p /tmp/usb-I | grep -qxF 'behind USB bridge 46f4:0001: in no bridge table, so no vendor command is sent to it, SCSI commands only, driver usb-storage'"
check_true usb-bridge-json sh -c "grep -qF '\"usb_vendor_id\": \"46f4\",' /tmp/usb.json && grep -qF '\"usb_product_id\": \"0001\",' /tmp/usb.json &&
	grep -qF '\"driver\": \"usb-storage\",' /tmp/usb.json && grep -qF '\"chip\": null,' /tmp/usb.json && grep -qF '\"protocol\": \"none\",' /tmp/usb.json"
check_true usb-bridge-trace-saw-hdparm grep -q '^85 ' /tmp/usb-cdbs
check_true usb-bridge-no-vendor-cdb sh -c "! grep -q '^\(c\|d\|e\|f\)[0-9a-f] \|^a1 80 ' /tmp/usb-cdbs || { sort /tmp/usb-cdbs | uniq -c; false; }"
# A vendor's protocol forced on a disk behind no USB bridge (the SAS disk): refused in one line.
check_fails usb-bridge-forced-not-usb "/dev/sdd: --bridge sntasmedia: not behind a USB bridge" $H --bridge sntasmedia -I /dev/sdd
# The values QEMU was given for the SAS disk (tests/vm/run), as the oracle read them.
check_true scsi-sas-oracle-values sh -c "sg_inq /dev/sdd | grep -q 'Vendor identification: HDPARMVN' && sg_inq -p 0x80 /dev/sdd | grep -q 'Unit serial number: SAS0001'"
check_true scsi-sas-I-rotation grep -qx '	Nominal Media Rotation Rate: 7200' /tmp/scsi-I-sas
check_true scsi-sas-I-wwn grep -qx 'Logical Unit WWN Device Identifier: 5000c500a1b2c3e5' /tmp/scsi-I-sas
# UNMAP on the thin-provisioned SCSI disk: the marked sectors read as zeros afterwards.
D=/dev/sdd
check_true scsi-sas-thin grep -q 'lbpme=1' /tmp/cap-sas
dd if=$D bs=512 skip=5000 count=8 iflag=direct 2> /dev/null | grep -q hdparm-vm-marker
check_true scsi-sas-marker-before [ $? = 0 ]
check_true scsi-sas-trim sh -c "$H --please-destroy-my-drive --trim-sector-ranges 5000:8 $D | grep -q 'trimming 8 sectors from 1 ranges'"
dd if=$D bs=512 skip=5000 count=8 iflag=direct 2> /dev/null | od -An -tx1 -v | tr -d ' 0\n' > /tmp/nonzero
check_true scsi-sas-trimmed-zero [ ! -s /tmp/nonzero ]

# --- --json: the documents are checked on the host (tests/vm/host-checks.sh) ---
jdump() { # NAME COMMAND...
	name=$1
	shift
	limited "$@" > /tmp/json 2> /dev/null
	echo "VM-JSON-BEGIN $name $?"
	cat /tmp/json
	echo "VM-JSON-END"
}
jdump json-hdd $H --json -I -C -W -a /dev/sda
jdump json-ssd $H --json -I -C -W -a /dev/sdb
jdump json-nvme $H --json -I -C -W -a /dev/nvme0n1
jdump json-virtio $H --json -I -C -W -a /dev/vda
jdump json-timings $H --json -tT /dev/sda
jdump json-two $H --json -C /dev/sda /dev/vda
# Data again, then the format read back whole, with its record (the host counts the image's blocks).
dd if=/dev/urandom of=/dev/nvme1n1 bs=512 seek=100 count=50 conv=fsync 2> /dev/null
jdump json-nvme-format-erase $H --json --yes-i-know-what-i-am-doing --format-erase user --erase-verify full \
	--erase-record /tmp/record.json --erase-operator vm /dev/nvme1n1
jdump record-nvme-format-erase cat /tmp/record.json

# --- --condition on QEMU's NVMe controllers (issue 67): their real SMART / Health log, as nvme-cli and
# smartctl read it. NVME0001 as QEMU makes it; NVME-MULTI made with Critical Warning bit 2 (reliability
# degraded: tests/vm/run). The verdict is worked out here from nvme-cli's figures by hdparm.8's rules. ---
for c in /sys/class/nvme/nvme*; do
	s=$(cat "$c/serial"); n=$(cat "$c/dev")
	[ "${s%% *}" = NVME-MULTI ] && rm -f /dev/hx-cwctrl && mknod /dev/hx-cwctrl c "${n%:*}" "${n#*:}"
done
for d in nvme0:/dev/nvme0n1 cw:/dev/hx-cwctrl; do
	tag=${d%%:*}
	dev=${d#*:}
	ctrl=$dev; [ "$tag" = nvme0 ] && ctrl=/dev/nvme0
	nvme smart-log "$ctrl" -o json > /tmp/cli.json 2> /dev/null
	limited $H --condition "$dev" > /tmp/cond.out 2> /tmp/cond.err
	rc=$?
	# nvme-cli's JSON: a key a line ("avail_spare":0, or "power_on_hours":"0",).
	cli() { sed -n "s/^ *\"$1\": *\"\\{0,1\\}\\([0-9]*\\)\"\\{0,1\\},\\{0,1\\}\$/\\1/p" /tmp/cli.json; }
	cw=$(cli critical_warning) as=$(cli avail_spare) th=$(cli spare_thresh) pu=$(cli percent_used)
	poh=$(cli power_on_hours) me=$(cli media_errors) duw=$(cli data_units_written) nel=$(cli num_err_log_entries)
	verdict=good want=0
	{ [ "${pu:-0}" -ge 80 ] || [ "${as:-0}" -le $((${th:-0} + 10)) ]; } && verdict=worn want=201
	[ "${cw:-0}" != 0 ] && verdict=failing want=203
	[ "$cw" = 0 ] && cwt=none || cwt=$(printf '%02xh' "${cw:-0}")
	src="  [NVMe SMART / Health log (02h)]"
	{
		echo " power-on hours           $poh$src"
		echo " percentage used          $pu %$src"
		echo " available spare          $as % (threshold $th %)$src"
		echo " critical warning         $cwt$src"
		echo " data written             $(awk "BEGIN { printf \"%.2f\", $duw * 512000 / 1e12 }") TB$src"
		echo " error log entries        $nel$src"
		echo " media errors             $me$src"
	} > /tmp/cond.want
	check_true "nvme-condition-$tag-as-nvme-cli" sh -c "[ -n '$poh' ] && [ -n '$duw' ] && [ $rc = $want ] &&
		grep -v '^   -> \\|^ verdict: \\|^\$\\|^/dev/' /tmp/cond.out | cmp -s - /tmp/cond.want &&
		grep -q '^ verdict:  $verdict[ ,]' /tmp/cond.out || { echo 'exit $rc (wanted $want, verdict $verdict)'; diff /tmp/cond.want /tmp/cond.out; cat /tmp/cond.err; false; }"
	# QEMU 7.2 keeps no Device Self-test log (06h: Invalid Field), so --condition says no self-test.
	check_true "nvme-condition-$tag-self-test-log-as-nvme-cli" sh -c "
		if nvme self-test-log $ctrl > /tmp/cli-st.out 2>&1; then grep -q '^ self-test' /tmp/cond.out
		else grep -qi 'invalid field in command' /tmp/cli-st.out && ! grep -q '^ self-test' /tmp/cond.out; fi ||
		{ cat /tmp/cli-st.out /tmp/cond.out; false; }"
	cp /tmp/cli.json "/tmp/cli-$tag.json"
	jdump "nvme-cli-smart-log-$tag" cat "/tmp/cli-$tag.json"
	jdump "smartctl-x-$tag" smartctl -x --json -d nvme "$ctrl"
	jdump "json-condition-$tag" $H --json --condition "$dev"
done
# --self-test short --self-test-wait: QEMU 7.2's controller has no Device Self-test (Identify Controller
# OACS bit 4 clear; nvme-cli's device-self-test: Invalid Command Opcode). hdparm says the controller's
# answer, named as such, and fails; where a QEMU has it, the test's end is the log's, as nvme-cli reads it.
oacs=$(nvme id-ctrl /dev/nvme0 | sed -n 's/^oacs *: *//p')
nvme device-self-test /dev/nvme0 -s 1 > /tmp/cli-dst.out 2>&1
cli_rc=$?
limited $H --self-test short --self-test-wait /dev/nvme0n1 > /tmp/st.out 2> /tmp/st.err
rc=$?
if [ -n "$oacs" ] && [ $((oacs & 16)) = 0 ]; then
	check_true nvme-self-test-refused-as-qemu-answers sh -c "[ $rc != 0 ] && [ $cli_rc != 0 ] &&
		grep -qi 'Invalid Command Opcode' /tmp/cli-dst.out &&
		grep -qx ' NVMe Device Self-test failed: invalid command opcode (NVMe status 0x001)' /tmp/st.err &&
		grep -qx ' NVMe Get Log Page (Device Self-test) failed: invalid field in command (NVMe status 0x002)' /tmp/st.err ||
		{ echo 'oacs $oacs, exit $rc, nvme-cli exit $cli_rc'; cat /tmp/cli-dst.out /tmp/st.out /tmp/st.err; false; }"
else
	# Not run on QEMU 7.2 (OACS bit 4 clear): the newest entry of nvme-cli's log against hdparm's end.
	nvme self-test-log /dev/nvme0 > /tmp/cli-st.out 2>&1
	res=$(sed -n 's/^ *Operation Result *: *//p' /tmp/cli-st.out | head -n 1)
	check_true nvme-self-test-as-nvme-cli sh -c "[ -n '$oacs' ] && [ '$res' = 0 ] && [ $rc = 0 ] &&
		grep -q '^ self-test: short test completed without error' /tmp/st.out ||
		{ echo 'oacs $oacs, exit $rc'; cat /tmp/cli-st.out /tmp/st.out /tmp/st.err; false; }"
fi

# --- requests in flight: -t --iodepth and --seeks on the AHCI disks ---
# Not on QEMU 7.2's NVMe and virtio-blk disks: there a queued read was
# lost in most runs (the guest's kernel logged an I/O timeout, aborted it
# after 30 s and reset the controller after 60), ours whatever the ring's
# set-up (registered buffers or not, huge pages or not, any setup flags,
# one read per submission or a batch, pinned or not) and fio's too (its
# io_uring reads at depth 2 and 4, in 2 or 3 runs of some 16).  The queue itself is
# tested on loop devices (tests/iodepth-tests.sh).
for d in sda sdb; do
	check_true "iodepth-t-$d" sh -c "$H -t --iodepth 4 --block-size 256 /dev/$d | grep -Eq '^ Timing O_DIRECT disk reads \(iodepth 4, 256 KiB\): +[0-9]+ MB in'"
	check_true "seeks-$d" sh -c "$H --seeks --iodepth 2 /dev/$d | grep -Eq '^ Timing random seeks \(iodepth 2, 4 KiB\): [0-9]+ seeks in .* p99 [0-9.]+ ms\$'"
done
fault fault-seeks-direct "read failed at byte offset" $H -t --iodepth 4 --block-size 64 $B
check_fails wdidle3-not-wd "WD vendor-specific commands" $H -J /dev/sda
check_fails wdidle3-unconfirmed "please-destroy-my-drive" $H -J 30 /dev/sda

# --- what an erase reaches: only what was named, whatever node named it ---
# A controller with two namespaces (NVME-MULTI), an NVM subsystem of two controllers
# sharing two namespaces (NVME-SUB), the SAS disk's sg node and device-mapper volumes;
# markers at LBA 4000 and 8191 of each namespace, checked on the host (host-checks.sh).
# Nodes are made here from sysfs numbers: the init renamed some of the kernel's.
mknode() { # NAME b|c SYSFS-DIR
	num=$(cat "$3/dev")
	rm -f "/dev/$1"
	mknod "/dev/$1" "$2" "${num%:*}" "${num#*:}"
}
serial_of() { s=$(cat "$1/serial" 2> /dev/null); echo "${s%% *}"; }
ns_dir() { # SERIAL NSID: the namespace's block device (a head disk under native multipath)
	for b in /sys/block/nvme*; do
		[ "$(cat "$b/hidden" 2> /dev/null)" = 1 ] && continue
		[ "$(serial_of "$b/device")" = "$1" ] && [ "$(cat "$b/nsid" 2> /dev/null)" = "$2" ] && { echo "$b"; return; }
	done
}
ctrls_of() { for c in /sys/class/nvme/nvme*; do [ "$(serial_of "$c")" = "$1" ] && echo "$c"; done; }
fresh_fs() { # NODE MOUNTPOINT
	mkfs.ext2 -q "$1" 2> /dev/null || mke2fs "$1" > /dev/null 2>&1
	mkdir -p "$2" && mount -t ext4 "$1" "$2" 2> /dev/null
}
marker_at() { dd if="$1" bs=512 skip="$2" count=1 2> /dev/null | grep -q hdparm-vm-marker; }
Y=--yes-i-know-what-i-am-doing
PSID=ABCDEFGHIJKLMNOPQRSTUVWXYZ012345
M1=$(ns_dir NVME-MULTI 1)
M2=$(ns_dir NVME-MULTI 2)
mknode hx-m1 b "$M1"
mknode hx-m2 b "$M2"
mknode hx-ng2 c "/sys/class/nvme-generic/ng${M2##*/nvme}"
mknode hx-mctrl c "$(ctrls_of NVME-MULTI)"
check_true reach-nodes sh -c "[ -b /dev/hx-m1 ] && [ -b /dev/hx-m2 ] && [ -c /dev/hx-ng2 ] && [ -c /dev/hx-mctrl ]"
# A generic node is its own namespace, not namespace 1.
check_true reach-ng-is-its-namespace sh -c "$H -i /dev/hx-ng2 | grep -q 'Namespace=2,'"
# Formats through the generic node and the controller node, namespace 2 mounted: refused.
fresh_fs /dev/hx-m2 /mnt/m2
check_fails reach-format-ng-in-use "mounted on /mnt/m2): refused, nothing sent" $H $Y --format-erase user /dev/hx-ng2
check_fails reach-format-controller "is an NVMe controller, not a namespace: name the namespace (" $H $Y --format-erase user /dev/hx-mctrl
check_fails reach-read-controller "is an NVMe controller, not a namespace" $H --read-sector 0 /dev/hx-mctrl
umount /mnt/m2
# A sanitize reaches every namespace: with namespace 1 mounted, one named through namespace 2
# (its block device, a by-id link, its generic node, the controller) is refused.
fresh_fs /dev/hx-m1 /mnt/m1
mkdir -p /dev/disk/by-id && ln -sf ../../hx-m2 /dev/disk/by-id/nvme-hdparm-multi-2
for n in hx-m2 disk/by-id/nvme-hdparm-multi-2 hx-ng2 hx-mctrl; do
	check_fails "reach-sanitize-other-namespace-${n##*/}" "mounted on /mnt/m1): refused, nothing sent" $H $Y --sanitize-block-erase "/dev/$n"
	# A TCG revert erases what the Locking SP covers, every namespace: the same refusal, before any IF-RECV.
	check_fails "reach-revert-other-namespace-${n##*/}" "mounted on /mnt/m1): refused, nothing sent" $H $Y --tcg-psid-revert "$PSID" "/dev/$n"
	# A firmware download changes what the whole controller runs: the same refusal, before any command.
	check_fails "reach-fwdownload-other-namespace-${n##*/}" "mounted on /mnt/m1): refused, nothing sent" $H $Y \
		--please-destroy-my-drive --fwdownload /tmp/fw.bin "/dev/$n"
done
# Namespace 2 formatted through its generic node while namespace 1 stays mounted (FNA 0): only 2 is erased.
check_true reach-format-ng2 sh -c "$H $Y --format-erase user /dev/hx-ng2 > /tmp/f2 && grep -q 'of namespace 2\$' /tmp/f2 && grep -q 'all 64 blocks sampled over the disk read as zeros' /tmp/f2"
check_true reach-format-ng2-left-namespace-1 marker_at /dev/hx-m1 4000
umount /mnt/m1
# Two controllers of one subsystem: a namespace mounted, a sanitize through the other controller is refused.
S1=$(ns_dir NVME-SUB 1)
S2=$(ns_dir NVME-SUB 2)
mknode hx-s1 b "$S1"
mknode hx-s2 b "$S2"
for c in $(ctrls_of NVME-SUB); do mknode hx-sctrl c "$c"; done
check_true reach-subsystem-nodes sh -c "[ -b /dev/hx-s1 ] && [ -b /dev/hx-s2 ] && [ -c /dev/hx-sctrl ] && [ \$(ls -d /sys/class/nvme-subsystem/*/nvme* | grep -c 'nvme[0-9]*\$') -ge 2 ]"
fresh_fs /dev/hx-s1 /mnt/s1
check_fails reach-sanitize-second-controller "mounted on /mnt/s1): refused, nothing sent" $H $Y --sanitize-block-erase /dev/hx-sctrl
check_fails reach-sanitize-subsystem-namespace "mounted on /mnt/s1): refused, nothing sent" $H $Y --sanitize-crypto-scramble /dev/hx-s2
check_fails reach-revert-second-controller "mounted on /mnt/s1): refused, nothing sent" $H $Y --tcg-psid-revert "$PSID" /dev/hx-sctrl
umount /mnt/s1
# Device-mapper: two linear volumes on namespace 2 of the subsystem, the first mounted.
# The kernel passes the second's pass-through to the whole disk: refused, naming it.
export DM_DISABLE_UDEV=1
num=$(cat "$S2/dev")
dmsetup create hxa --table "0 3000 linear $num 0" 2> /dev/null
dmsetup create hxb --table "0 5000 linear $num 3000" 2> /dev/null
check_true reach-dm-volumes sh -c "[ -b /dev/mapper/hxa ] && [ -b /dev/mapper/hxb ]"
fresh_fs /dev/mapper/hxa /mnt/dma
check_fails reach-dm-format "is the volume dm-[0-9]* (hxb) over .*: what is sent through it reaches the whole disk beneath" $H $Y --format-erase user /dev/mapper/hxb
check_fails reach-dm-sanitize "name the disk itself: refused, nothing sent" $H $Y --sanitize-block-erase /dev/mapper/hxb
check_fails reach-dm-revert "name the disk itself: refused, nothing sent" $H $Y --tcg-psid-revert "$PSID" /dev/mapper/hxb
check_fails reach-dm-trim "is the volume dm-" $H --please-destroy-my-drive --trim-sector-ranges 2:1 /dev/mapper/hxb
umount /mnt/dma
check_true reach-dm-sibling-mounts-again sh -c "mount -t ext4 /dev/mapper/hxa /mnt/dma && umount /mnt/dma"
# The idle watcher of a volume watches the disk beneath: a busy sibling volume keeps it awake.
dmsetup create hxc --table "0 20000 linear /dev/sda 70000" 2> /dev/null
dmsetup create hxd --table "0 20000 linear /dev/sda 90000" 2> /dev/null
$H --idle-spindown 2 /dev/mapper/hxc > /tmp/idle.out 2>&1 &
idle_pid=$!
i=0
while [ $i -lt 12 ]; do dd if=/dev/mapper/hxd of=/dev/null bs=4096 count=1 skip=$i iflag=direct 2> /dev/null; sleep 0.5; i=$((i + 1)); done
check_true reach-idle-sibling-busy sh -c "grep -q 'whole disk is watched' /tmp/idle.out && grep -q 'watched: standby after 2 s' /tmp/idle.out && ! grep -v watched: /tmp/idle.out | grep -q 'standby after'"
sleep 5
check_true reach-idle-disk-idle sh -c "grep -v watched: /tmp/idle.out | grep -q ': standby after 2 s without I/O\$'"
kill $idle_pid 2> /dev/null
wait $idle_pid 2> /dev/null
# --why: the watcher puts the disk in standby; a dd reads it; the line that says it woke names the dd
# (block_rq_insert/issue through tracefs, which the guest has not mounted: the watcher mounts it).
$H --why --idle-spindown 2 /dev/sda > /tmp/why.out 2>&1 &
why_pid=$!
sleep 4
dd if=/dev/sda of=/dev/null bs=4096 count=1 skip=1000 iflag=direct 2> /dev/null &
dd_pid=$!
wait $dd_pid
sleep 3
kill $why_pid 2> /dev/null
wait $why_pid 2> /dev/null
check_true idle-why-names-dd sh -c "grep -q '/dev/sda: active again after .*; woken by dd (pid $dd_pid): read of 8 sectors at LBA 8000\$' /tmp/why.out || { cat /tmp/why.out; false; }"
for v in hxa hxb hxc hxd; do dmsetup remove $v 2> /dev/null; done
unset DM_DISABLE_UDEV
# The SAS disk's sg node, the disk mounted: an erase through it is refused.
for g in /sys/class/scsi_generic/sg*; do
	m=$(cat "$g/device/model" 2> /dev/null)
	[ "${m%% *}" = HDPARM-SAS ] && mknode hx-sas-sg c "$g"
done
fresh_fs /dev/sdd /mnt/sas
check_fails reach-sg-sanitize "mounted on /mnt/sas): refused, nothing sent" $H $Y --sanitize-block-erase /dev/hx-sas-sg
check_fails reach-sg-security-erase "mounted on /mnt/sas): refused, nothing sent" $H --security-erase pw /dev/hx-sas-sg
check_fails reach-sg-revert "mounted on /mnt/sas): refused, nothing sent" $H $Y --tcg-psid-revert "$PSID" /dev/hx-sas-sg
umount /mnt/sas
# -Y stops a SCSI disk, and sd fails its I/O until a START (allow_restart 0 on a SCSI disk): said, with both ways out.
check_true scsi-Y-says-how-to-restart sh -c "$H -Y /dev/sdd 2> /tmp/Y.err && grep -q 'is stopped, and the kernel fails its I/O until it is started (allow_restart is 0): start it with sg_start --start /dev/sdd, or' /tmp/Y.err"

# --- many disks at once: three namespaces (of two controllers: NVME-ERASE's, and both of
# NVME-MULTI's, whose format reaches one namespace: FNA 0) formatted in one command, each read
# back whole and recorded; data written first at LBA 100-149 ---
# Namespace 1's markers, kept by every erase that was refused above (the host no longer sees them).
check_true multi-1-marker-4000-kept-by-the-refusals marker_at /dev/hx-m1 4000
check_true multi-1-marker-8191-kept-by-the-refusals marker_at /dev/hx-m1 8191
for d in /dev/nvme1n1 /dev/hx-m1 /dev/hx-m2; do
	dd if=/dev/urandom of=$d bs=512 seek=100 count=50 conv=fsync 2> /dev/null
done
rm -rf /tmp/recs && mkdir -p /tmp/recs
jdump json-together timeout 300 $H --json $Y --format-erase user --erase-verify full --erase-record /tmp/recs/ \
	/dev/nvme1n1 /dev/hx-m1 /dev/hx-m2
i=0
for f in /tmp/recs/*.json; do
	i=$((i + 1))
	jdump "record-together-$i" cat "$f"
done

# --- --set-sector-size on a namespace (NVME-ERASE's, erased above): Format NVM to QEMU's 4096-byte
# LBA format; the kernel's block size and nvme-cli's id-ns agree; then back to 512 the same way ---
for size in 4096 512; do
	$H --please-destroy-my-drive --set-sector-size $size /dev/nvme1n1 > /tmp/ss.out 2>&1
	rc=$?
	check_true "nvme-set-sector-size-$size" sh -c "[ $rc = 0 ] && grep -q 'block size: .* -> $size bytes' /tmp/ss.out || { cat /tmp/ss.out; false; }"
	check_true "nvme-set-sector-size-$size-blockdev" sh -c "[ \"\$(blockdev --getss /dev/nvme1n1)\" = $size ] || { blockdev --getss /dev/nvme1n1; false; }"
	# nvme-cli: the LBA format marked "in use" has lbads 12 (4096) or 9 (512).
	lbads=$([ $size = 4096 ] && echo 12 || echo 9)
	check_true "nvme-set-sector-size-$size-nvme-cli" sh -c "nvme id-ns /dev/nvme1n1 | grep 'in use' | grep -q 'lbads:$lbads ' || { nvme id-ns /dev/nvme1n1 | grep lbaf; false; }"
done

. /scan-checks.sh	# --surface-scan on real drivers (tests/vm/scan-checks.sh)
# --- --scan-picture names the disk as the kernel shows it (sysfs: the model; the serial from the
# unit serial VPD page, as libata's SCSI translation gives it) ---
check_true scan-picture-model-serial sh -c "
	$H --surface-scan --scan-range 0+256 --scan-picture /tmp/p.svg /dev/sda > /tmp/p.out 2>&1 || { cat /tmp/p.out; exit 1; }
	line=\$(grep -o 'model: [^<]*' /tmp/p.svg); echo \"picture: \$line\"
	m=\$(sed 's/^ *//; s/ *\$//' /sys/block/sda/device/model); echo \"sysfs: model \$m\"
	ls /sys/block/sda/device/ | grep vpd
	case \"\$line\" in \"model: \$m, serial: \"?*) ;; *) exit 1 ;; esac
	[ ! -s /sys/block/sda/device/vpd_pg80 ] || case \"\$line\" in *'serial: not shown'*) exit 1 ;; esac"

# --- --scan-verify (issue 61, item 8; helper scanverify): the disks verify their own blocks. No data
# crosses the bus: the block layer counts no sector read (/sys/block/X/stat field 3: SG_IO and the
# NVMe pass-through are not counted), where a --surface-scan read would count every one. ---
# verify_clean NAME DEV: 1000 sectors (4 blocks) verified, none unreadable, no sector read.
verify_clean() {
	check_true "$1" sh -c "
		before=\$(awk '{ print \$3 }' /sys/block/$2/stat)
		$H --surface-scan --scan-verify --scan-range 0+1000 /dev/$2 > /tmp/sv.out 2>&1 &&
		grep -qx ' unreadable LBAs: none' /tmp/sv.out && grep -q '^  read  *4 of 4\$' /tmp/sv.out &&
		[ \"\$(awk '{ print \$3 }' /sys/block/$2/stat)\" = \"\$before\" ] || { cat /tmp/sv.out; false; }"
}
verify_clean scan-verify-ahci sda
verify_clean scan-verify-scsi-hd sdd
verify_clean scan-verify-usb sde
# NVMe: Verify where QEMU's Identify Controller (nvme-cli's oncs) sets bit 7, else refused with the reason.
check_true scan-verify-nvme-as-oncs-says sh -c "
	oncs=\$(nvme id-ctrl /dev/nvme0 | sed -n 's/^oncs *: *//p')
	$H --surface-scan --scan-verify --scan-range 0+1000 /dev/nvme0n1 > /tmp/sv.out 2>&1; rc=\$?
	if [ -n \"\$oncs\" ] && [ \$((oncs & 0x80)) != 0 ]; then
		[ \$rc = 0 ] && grep -qx ' unreadable LBAs: none' /tmp/sv.out
	else
		[ -n \"\$oncs\" ] && [ \$rc = 95 ] && grep -q 'has no Verify command (Identify Controller.s ONCS' /tmp/sv.out
	fi || { echo \"oncs \$oncs, exit \$rc\"; cat /tmp/sv.out; false; }"
# A dm volume over the hard disk at an offset: the kernel would pass the commands on to /dev/sda at
# its own LBAs; refused before anything is sent.
DM_DISABLE_UDEV=1 dmsetup create hxv --table "0 2048 linear /dev/sda 4096" 2> /dev/null
check_fails scan-verify-dm-refused "is built on other devices (dm, md)" $H --surface-scan --scan-verify /dev/mapper/hxv
DM_DISABLE_UDEV=1 dmsetup remove hxv 2> /dev/null
# The SSD's and the hard disk's verify: the AHCI drives take READ VERIFY SECTORS EXT (QEMU's IDE core).
check_true scan-verify-ahci-ssd-whole-range-end sh -c "
	n=\$(blockdev --getsz /dev/sdb)
	$H --surface-scan --scan-verify --scan-range \$((n - 300))-\$((n - 1)) /dev/sdb > /tmp/sv.out 2>&1 &&
	grep -qx ' unreadable LBAs: none' /tmp/sv.out || { cat /tmp/sv.out; false; }"

# --- every expected output held against 9.65: each in SAME_AS_965 or DIFFERS_FROM_965 ---
if [ "$mode" != generate ]; then
	loose=
	for f in /expected/*; do
		n=${f#/expected/}
		case " $SAME_AS_965 $DIFFERS_FROM_965 " in *" $n "*) ;; *) loose="$loose $n" ;; esac
	done
	if [ -z "$loose" ]; then
		echo "ok every expected output is held against 9.65 ($(echo $SAME_AS_965 | wc -w) the same, $(echo $DIFFERS_FROM_965 | wc -w) listed differences)"
	else
		echo "FAIL every expected output is held against 9.65: not in SAME_AS_965 nor DIFFERS_FROM_965:$loose"
	fi
fi
