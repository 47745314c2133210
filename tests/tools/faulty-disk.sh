# shellcheck shell=bash
# A loop device over a disk that fails and delays reads at chosen sectors (tests/tools/faulty-disk.py,
# a FUSE file system: python3-fusepy), for the suites.  Source it, then:
#
#   faulty_disk_up DIR SIZE_MB [faulty-disk.py options...]
#       DIR/image (SIZE_MB MiB; what DIR/image already holds is kept, so a suite may fill it first)
#       served as DIR/mnt/disk, and a loop device over it with direct I/O and 512-byte sectors.
#       Sets FAULTY_DEV (/dev/loopN), FAULTY_LOG (DIR/log: a line per read and write that reached
#       the disk, see faulty-disk.py), FAULTY_DIO (1: the loop device does direct I/O; 0: the
#       kernel refused it, said on stderr) and FAULTY_PID (the FUSE server).  Fails (1, a line on
#       stderr) where FUSE or losetup does; what it had set up is taken down again.
#       The options: --bad LBA[+COUNT], --slow LBA[+COUNT]:MS, --flaky LBA[+COUNT]:N, --die-at LBA:N,
#       --hold LBA:FILE, --heal-on-write.
#       The server ends itself (SIGKILL) after FAULTY_DISK_LIFETIME seconds (120 unless set), so
#       that a hang of it fails the suite's I/O instead of hanging the suite (and CI) for good.
#   faulty_disk_down
#       detaches the loop device, unmounts, ends the server.  Safe twice and from a trap:
#       trap faulty_disk_down EXIT; trap 'exit 1' INT TERM HUP  (a signal must end the test too,
#       not only take the disk down; a test killed with SIGKILL runs no trap: the server
#       watches the process that called faulty_disk_up and does the same when it is gone).
#
# One faulty disk at a time per shell.

faulty_disk_tool="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/faulty-disk.py"
FAULTY_DEV="" FAULTY_PID="" FAULTY_DIR="" FAULTY_LOG="" FAULTY_DIO=""

# faulty_disk_missing: why the faulty disk cannot run here (no /dev/fuse, python3-fusepy or ddrescue,
# the oracle), on standard output; nothing where it can.
faulty_disk_missing() {
	[ -c /dev/fuse ] || { echo "no /dev/fuse"; return; }
	/usr/bin/python3 -c 'import fusepy' 2> /dev/null || { echo "no python3-fusepy (tests/setup installs it)"; return; }
	command -v ddrescue > /dev/null || echo "no ddrescue (gddrescue; tests/setup installs it)"
}

faulty_disk_up() {
	local dir=$1 mb=$2 dev
	shift 2
	faulty_disk_down
	mkdir -p "$dir/mnt" || return 1
	FAULTY_DIR=$(cd "$dir" && pwd)
	FAULTY_LOG="$FAULTY_DIR/log"
	: > "$FAULTY_LOG"
	rm -f "$FAULTY_DIR/pid"
	truncate -s "${mb}M" "$FAULTY_DIR/image" || return 1
	# The system's python3: python3-fusepy is a Debian package, a version manager's python lacks it.
	if ! /usr/bin/python3 "$faulty_disk_tool" --daemon --pid-file "$FAULTY_DIR/pid" --owner "$BASHPID" \
		--lifetime "${FAULTY_DISK_LIFETIME:-120}" \
		--log "$FAULTY_LOG" "$@" "$FAULTY_DIR/image" "$FAULTY_DIR/mnt" 2> "$FAULTY_DIR/server.err"; then
		echo "faulty-disk: the FUSE server did not start: $(tr '\n' ' ' < "$FAULTY_DIR/server.err")" >&2
		faulty_disk_down
		return 1
	fi
	FAULTY_PID=$(cat "$FAULTY_DIR/pid")
	if dev=$(losetup --direct-io=on --sector-size 512 --show -f "$FAULTY_DIR/mnt/disk" 2> "$FAULTY_DIR/losetup.err"); then
		FAULTY_DEV=$dev
	elif dev=$(losetup --sector-size 512 --show -f "$FAULTY_DIR/mnt/disk" 2>> "$FAULTY_DIR/losetup.err"); then
		FAULTY_DEV=$dev
	else
		echo "faulty-disk: losetup failed: $(tr '\n' ' ' < "$FAULTY_DIR/losetup.err")" >&2
		faulty_disk_down
		return 1
	fi
	FAULTY_DIO=$(cat "/sys/block/${FAULTY_DEV#/dev/}/loop/dio" 2> /dev/null || echo 0)
	if [ "$FAULTY_DIO" != 1 ]; then
		echo "faulty-disk: the kernel refused direct I/O on $FAULTY_DEV (buffered: the page cache may widen a failure to a page): $(tr '\n' ' ' < "$FAULTY_DIR/losetup.err")" >&2
	fi
	# A disk that reads one request at a time (the loop device's worker waits for each FUSE read),
	# as a rotating one does: said so, the surface scan reads it at depth 1 unless told otherwise
	# (--scan-depth; tests/scan-depth-tests.sh).
	echo 1 > "/sys/block/${FAULTY_DEV#/dev/}/queue/rotational" 2> /dev/null ||
		echo "faulty-disk: queue/rotational of $FAULTY_DEV cannot be set" >&2
	: > "$FAULTY_LOG" # losetup's own reads (a partition table probe) are not the test's
	return 0
}

# faulty_disk_alive PID: the server runs still. A server that has ended is a zombie until whoever
# adopted it (it left its parent: --daemon) reaps it, which init may take a second or two to do:
# by then it has unmounted and let go of everything.
faulty_disk_alive() {
	local state
	state=$(sed 's/.*) //' "/proc/$1/stat" 2> /dev/null | cut -d' ' -f1)
	[ -n "$state" ] && [ "$state" != Z ]
}

faulty_disk_down() {
	local n
	if [ -n "$FAULTY_DEV" ]; then
		losetup -d "$FAULTY_DEV" 2> /dev/null
		FAULTY_DEV=""
	fi
	if [ -n "$FAULTY_PID" ]; then
		# libfuse's SIGTERM handler unmounts; wait for the server to end (10 s, then SIGKILL).
		kill -TERM "$FAULTY_PID" 2> /dev/null
		n=100
		while [ "$n" -gt 0 ] && faulty_disk_alive "$FAULTY_PID"; do
			sleep 0.1
			n=$((n - 1))
		done
		kill -KILL "$FAULTY_PID" 2> /dev/null
		FAULTY_PID=""
	fi
	if [ -n "$FAULTY_DIR" ]; then
		# A server that died without unmounting leaves a dead mount ("transport endpoint is not connected").
		if mountpoint -q "$FAULTY_DIR/mnt" 2> /dev/null || grep -qF " $FAULTY_DIR/mnt " /proc/self/mounts; then
			umount -l "$FAULTY_DIR/mnt" 2> /dev/null || fusermount -u -z "$FAULTY_DIR/mnt" 2> /dev/null
		fi
		FAULTY_DIR=""
	fi
	return 0
}

# faulty_disk_bad_lbas MAPFILE: the LBAs (512-byte sectors) that a ddrescue mapfile marks bad
# ('-'), one a line.
faulty_disk_bad_lbas() {
	local pos size status rest i
	while read -r pos size status rest; do
		# Comments, and the current position's line ("0x... + 1": no size there).
		case "$pos" in 0x*) ;; *) continue ;; esac
		case "$size" in 0x*) ;; *) continue ;; esac
		[ "$status" = "-" ] || continue
		for ((i = pos / 512; i < (pos + size) / 512; i++)); do echo "$i"; done
	done < "$1"
}
