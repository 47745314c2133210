# Sourced by a suite that runs hdparm on the test double under a sysfs tree of its own (the double's
# SHIM_SYSFS): usb_sysfs ROOT DRIVER [VID PID] makes at ROOT the layout the kernel gives one SCSI disk
# sdz, 8:900000 (Documentation/ABI: /sys/dev/block/M:m links to the disk, its "device" to the SCSI
# device 6:0:0:0 under host6, bound to sd), under the USB interface 2-1:1.0 that DRIVER is bound to
# ("": none, a disk behind no USB), whose parent, the USB device 2-1, has idVendor VID and idProduct
# PID (a JMicron JMS578, 152d:0578, unless named).  Prints the SCSI device's folder.
usb_sysfs() {
	local root=$1 usb=sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0
	local sdev="$root/$usb/host6/target6:0:0/6:0:0:0"
	rm -rf "$root"
	mkdir -p "$sdev/block/sdz/queue" "$root/sys/dev/block" "$root/sys/bus/scsi/drivers/sd"
	ln -s ../../../6:0:0:0 "$sdev/block/sdz/device"
	ln -s "../../../../../../../../../bus/scsi/drivers/sd" "$sdev/driver"
	ln -s "../../${usb#sys/}/host6/target6:0:0/6:0:0:0/block/sdz" "$root/sys/dev/block/8:900000"
	if [ -n "$2" ]; then
		mkdir -p "$root/sys/bus/usb/drivers/$2"
		ln -s "../../../../../../bus/usb/drivers/$2" "$root/$usb/driver"
	fi
	echo "${3-152d}" > "$root/${usb%/*}/idVendor"
	echo "${4-0578}" > "$root/${usb%/*}/idProduct"
	echo "$sdev"
}
