# --surface-scan on real kernel drivers (issue 61), sourced by tests/vm/checks.sh at its end.
#   /dev/hx-scan-ahci  AHCI disk (libata, sd) whose reads fail at the LBAs of /scan-ahci.lbas (blkdebug)
#   /dev/hx-scan-nvme  NVMe namespace whose reads fail at the LBAs of /scan-nvme.lbas (blkdebug)
#   /dev/hx-scan-sd    scsi_debug with a medium error at LBA 3000-3004 (opts=2)
#   /dev/mapper/hxscanlinear  dm-linear over /dev/sdc (reads of LBA 50000 fail) from LBA 49920
#   /dev/mapper/hxscandelay  dm: linear, then LBA 2100-2999 delayed 300 ms a read (dm-delay), then linear
# Each scan's JSON and exit status go to the host between VM-SCAN-BEGIN and VM-SCAN-END; the host
# checks them against the chosen LBAs, and counts the reads the emulated disks saw in QEMU's trace
# (tests/vm/scan-host-checks.sh).  The reads scsi_debug saw are counted here, in the kernel's trace.
# shellcheck disable=SC2154 # mode, H, limited and check_true: checks.sh's
[ "$mode" = check ] || return 0
sdump() { # NAME COMMAND...
	name=$1
	shift
	limited "$@" > /tmp/scan.json 2> /tmp/scan.err
	rc=$?
	echo "VM-SCAN-BEGIN $name $rc"
	cat /tmp/scan.json
	echo "VM-SCAN-END"
	sed 's/^/  stderr: /' /tmp/scan.err | head -n 3
}
scan_node() { # NAME SYSFS-DIR
	num=$(cat "$2/dev")
	rm -f "/dev/$1"
	mknod "/dev/$1" b "${num%:*}" "${num#*:}"
}
for b in /sys/block/sd*; do
	case $(cat "$b/device/model") in HDPARM-TEST-SCAN*) scan_node hx-scan-ahci "$b" ;; esac
done
for b in /sys/block/nvme*; do
	case $(cat "$b/device/serial" 2> /dev/null) in NVME-SCAN*) scan_node hx-scan-nvme "$b" ;; esac
done
check_true scan-disks-found sh -c "[ -b /dev/hx-scan-ahci ] && [ -b /dev/hx-scan-nvme ]"
sdump ahci "$H" --json --surface-scan --scan-range 139776-150271 /dev/hx-scan-ahci
sdump nvme "$H" --json --surface-scan --scan-range 139776-163839 /dev/hx-scan-nvme
# A dm volume over the failing disk of checks.sh (/dev/sdc, LBA 50000) from LBA 49920: the LBAs are the
# volume's (80 fails), and the search reads through the block layer, never with the disk's own commands,
# which the kernel passes to the whole disk beneath, at the disk's LBAs.
for b in /sys/block/sd*; do
	case $(cat "$b/device/model") in HDPARM-TEST-FAUL*) FAULTY=$b ;; esac
done
DM_DISABLE_UDEV=1 dmsetup --noudevsync create hxscanlinear --table "0 512 linear $(cat "$FAULTY/dev") 49920"
sdump volume "$H" --json --surface-scan /dev/mapper/hxscanlinear
DM_DISABLE_UDEV=1 dmsetup --noudevsync remove hxscanlinear

# scsi_debug: 4 MiB, LBA 3000-3004 answer MEDIUM ERROR.  Its deps were loaded at boot.
insmod /modules/scsi_debug.ko opts=2 medium_error_start=3000 medium_error_count=5 dev_size_mb=4
i=0
while [ $i -lt 100 ] && [ ! -b /dev/hx-scan-sd ]; do
	for b in /sys/block/sd*; do
		case $(cat "$b/device/model" 2> /dev/null) in scsi_debug*) [ -f "$b/dev" ] && scan_node hx-scan-sd "$b" && SD=$b ;; esac
	done
	sleep 0.1
	i=$((i + 1))
done
check_true scan-scsi-debug-found [ -b /dev/hx-scan-sd ]
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2> /dev/null
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/events/scsi/scsi_dispatch_cmd_start/enable
echo 1 > $T/tracing_on
sdump sd "$H" --json --surface-scan /dev/hx-scan-sd
echo 0 > $T/tracing_on
echo 0 > $T/events/scsi/scsi_dispatch_cmd_start/enable
# The commands sd sent for each LBA of the medium error, one sector each (READ (10) or (16)).
for lba in 3000 3001 3002 3003 3004; do
	echo "VM-SCAN-COUNT sd $lba $(grep -c "scsi_dispatch_cmd_start:.* lba=$lba txlen=1 " $T/trace)"
done
echo > $T/trace

# dm-delay over scsi_debug's LBA 4096-8191 (no medium error there): 16 blocks, 2100-2999 slow.
export DM_DISABLE_UDEV=1
num=$(cat "$SD/dev")
printf '0 2100 linear %s 4096\n2100 900 delay %s 6196 300\n3000 1096 linear %s 7096\n' "$num" "$num" "$num" > /tmp/delay.table
dmsetup --noudevsync create hxscandelay < /tmp/delay.table
check_true scan-dm-delay-made [ -b /dev/mapper/hxscandelay ]
sdump delay "$H" --json --surface-scan /dev/mapper/hxscandelay
dmsetup --noudevsync remove hxscandelay
unset DM_DISABLE_UDEV
