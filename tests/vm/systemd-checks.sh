#!/bin/bash
# Inside the Debian guest (tests/vm/systemd-run), started by systemd once the
# system is up: udev, the rule and the sleep hook as make install put them.
# Markers on the second serial port tell the host when to act:
#   HOTPLUG-NOW  the host adds a SCSI disk (wwn 0x5000c500deadbeef) by device_add
#   SUSPEND-NOW  the host wakes the guest (system_wakeup) once it is suspended
# Check lines: "ok NAME" / "FAIL NAME" and "  detail"; "END" last.
exec > /dev/ttyS1 2>&1
link=/dev/disk/by-id/wwn-0x5000c500deadbeef
ok() { echo "ok systemd: $1"; }
bad() { echo "FAIL systemd: $1"; shift; printf '  %s\n' "$@"; }

# wait_for SECONDS COMMAND...: until the command succeeds; false if it never does.
wait_for() {
	local n=$1
	shift
	for _ in $(seq "$n"); do
		"$@" && return 0
		sleep 1
	done
	"$@"
}

udevadm settle
if [ ! -f /lib/udev/rules.d/85-hdparm.rules ] || [ -e /lib/udev/hdparm ]; then
	bad "make install put the rule in /lib/udev/rules.d (and Debian's hdparm is not here)"
fi
echo "HOTPLUG-NOW"
if ! wait_for 90 test -e "$link"; then
	bad "the hot-added disk appeared as $link" "$(ls -l /dev/disk/by-id/ 2>&1 | tr '\n' '|')"
	echo END
	systemctl poweroff
	exit 0
fi
udevadm settle
dev=$(readlink -f "$link")
name=${dev#/dev/}
ra_ok() { [ "$(blockdev --getra "$dev")" = 64 ]; }
wc_off() { [ "$(cat "/sys/block/$name/queue/write_cache")" = "write through" ]; }
if wait_for 30 ra_ok && wait_for 5 wc_off; then
	ok "hot-added $dev (named by its WWN link): the udev rule applied its block: read-ahead 64, and the kernel says write through"
else
	bad "the udev rule on a hot-added disk" "read-ahead $(blockdev --getra "$dev"), write cache $(cat "/sys/block/$name/queue/write_cache")" \
		"$(journalctl -b --no-pager -q -u systemd-udevd 2>&1 | tail -5 | tr '\n' '|')"
fi
hdparm --check-config > /tmp/check.out 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q "^ write_cache = off: holds" /tmp/check.out; then
	ok "--check-config after the rule: exit 0, every setting holds"
else
	bad "--check-config after the rule" "exit $rc" "$(tr '\n' '|' < /tmp/check.out)"
fi

# What udev runs for the disk: on add the configuration, on change (udev's watch after a program
# that wrote to it closes it, "udevadm trigger") the settings only; nothing for a partition.
udevadm test --action=change "/sys/block/$name" > /tmp/udev-change.log 2>&1
udevadm test --action=add "/sys/block/$name" > /tmp/udev-add.log 2>&1
if grep -q "hdparm --apply-config /etc/hdparm.conf --settings-only $dev" /tmp/udev-change.log &&
	grep -q "hdparm --apply-config /etc/hdparm.conf $dev" /tmp/udev-add.log && ! grep -q "settings-only" /tmp/udev-add.log; then
	ok "udev runs --apply-config on add, and with --settings-only on change"
else
	bad "what udev runs on add and change" "change: $(grep -i hdparm /tmp/udev-change.log | tr '\n' '|')" \
		"add: $(grep -i hdparm /tmp/udev-add.log | tr '\n' '|')"
fi

# A change by hand: drift, named.
blockdev --setra 256 "$dev"
hdparm --check-config > /tmp/check.out 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q "^ read_ahead_sect = 64: DRIFTED (is 256)" /tmp/check.out; then
	ok "a setting changed by hand: --check-config exits 1 and names it"
else
	bad "--check-config after a change by hand" "exit $rc" "$(tr '\n' '|' < /tmp/check.out)"
fi
if [ -f /etc/hdparm.conf ] && grep -q "apply-config" /lib/systemd/system-sleep/hdparm; then :; else bad "the sleep hook is installed"; fi

# hdparm-idle.service started at boot, before the disk was added: it watches the disk from when its
# link appeared, and stops it after 5 s without I/O (START STOP UNIT on this SCSI disk).
idle_log() { journalctl -b --no-pager -q -o cat -u hdparm-idle.service; }
appeared() { idle_log | grep -q "^$link: appeared, watched: standby after 5 s without I/O"; }
stopped() { [ "$(idle_log | grep -c "^$link: standby after 5 s without I/O")" -ge "$1" ]; }
if systemctl is-active -q hdparm-idle.service && wait_for 30 appeared && wait_for 30 stopped 1; then
	ok "hdparm-idle.service, started before the disk: watched it once it appeared, standby after 5 s"
else
	bad "hdparm-idle.service and a disk added after it started" "$(systemctl is-active hdparm-idle.service)" \
		"$(idle_log | tail -n 5 | tr '\n' '|')"
fi

# Suspend to RAM; the host wakes the guest.  The sleep hook gives the setting back.
echo "SUSPEND-NOW"
systemctl suspend
wait_for 120 ra_ok
sleep 2
journalctl -b --no-pager -q -u systemd-suspend.service > /tmp/sleep.log 2>&1
if ra_ok && grep -q "read_ahead_sect = 64: set (was 256)" /tmp/sleep.log &&
	journalctl -b --no-pager -q | grep -q "PM: suspend exit"; then
	ok "after systemctl suspend and system_wakeup: the sleep hook applied the configuration (its lines in the journal), read-ahead 64 again"
else
	bad "the sleep hook after a suspend" "read-ahead $(blockdev --getra "$dev")" "$(tr '\n' '|' < /tmp/sleep.log)" \
		"$(journalctl -b --no-pager -q -k | grep -i -E 'PM:|suspend' | tail -5 | tr '\n' '|')"
fi
hdparm --check-config > /tmp/check.out 2>&1
rc=$?
if [ "$rc" = 0 ]; then ok "--check-config after the resume: exit 0"; else bad "--check-config after the resume" "exit $rc" "$(tr '\n' '|' < /tmp/check.out)"; fi
# The resume spins disks up behind the I/O counters' back: the watcher saw the suspend, and stops the disk again.
resumed() { idle_log | grep -q "resumed after [0-9]* s suspended: idle times start again"; }
if wait_for 30 resumed && wait_for 30 stopped 2; then
	ok "after the resume: the watcher saw the suspend ($(idle_log | grep -o 'resumed after [0-9]* s' | tail -n 1)) and put the disk in standby again"
else
	bad "the watcher after a suspend" "$(idle_log | tail -n 6 | tr '\n' '|')"
fi
# The shipped timer (1 min after boot, then every 5): hdparm-metrics.service wrote every disk's samples
# into node_exporter's textfile folder, whole.
prom=/var/lib/prometheus/node-exporter/hdparm.prom
metrics_ran() { [ "$(systemctl show -p Result --value hdparm-metrics.service)" = success ] && [ -s "$prom" ]; }
if wait_for 120 metrics_ran && grep -q '^hdparm_disk_up{device="sd[a-z]*"} 1$' "$prom" &&
	[ -z "$(ls /var/lib/prometheus/node-exporter | grep -v '^hdparm\.prom$')" ]; then
	ok "hdparm-metrics.timer ran its service: $prom holds every disk's samples ($(grep -c '^hdparm_disk_up' "$prom") disks), no temporary file"
else
	bad "hdparm-metrics.timer" "$(systemctl status --no-pager hdparm-metrics.timer hdparm-metrics.service 2>&1 | tail -n 8 | tr '\n' '|')" \
		"$(head -c 600 "$prom" 2> /dev/null | tr '\n' '|')"
fi
echo END
systemctl poweroff
