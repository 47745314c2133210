#!/bin/bash
# --scan-verify (issue 61, item 8): the surface scan's reads done by the disk itself, on a loop
# device (its size and sector size are real; nothing is read from it: /sys/block/loopN/stat does
# not move) whose disk commands the scripted double answers (tests/tools/script-double.c): the
# script lists every command hdparm must send, in order, so a command too many, too few or with
# other bytes is reported.  The bytes are written from the standards, field by field:
#   ATA  READ VERIFY SECTORS EXT (42h) / READ VERIFY SECTORS (40h), ACS-4 7.34/7.35, non-data,
#        in SAT-4's ATA PASS-THROUGH (16): 85h; byte 1 PROTOCOL 3 (non-data) << 1 | EXTEND;
#        byte 2 0 (no transfer); 5-6 COUNT; 7 LBA 31:24, 8 LBA 7:0, 9 LBA 39:32, 10 LBA 15:8,
#        11 LBA 47:40, 12 LBA 23:16; 13 DEVICE (40h: LBA); 14 the command
#   SCSI VERIFY (16), SBC-4 5.35: 8Fh; byte 1 VRPROTECT 0, DPO 0, BYTCHK 0; 2-9 LBA; 10-13
#        VERIFICATION LENGTH; 14 GROUP NUMBER; 15 CONTROL
#   NVMe Verify (NVM Command Set 3.3.4): opcode 0Ch; CDW10-11 SLBA; CDW12 15:0 NLB, 0-based;
#        Identify Controller's ONCS (bytes 521:520) bit 7 says the controller has it
# A medium error's answers: ATA descriptor sense (72h) with key MEDIUM ERROR and the ATA Status
# Return descriptor (SAT-4 12.2.2.6: ERROR 40h UNC, STATUS 51h, the LBA); SCSI fixed sense with
# key MEDIUM ERROR and the INFORMATION field the LBA; NVMe status 281h (SCT 2, Unrecovered Read
# Error).  Usage: scan-verify-tests.sh HDPARM OUTDIR.  Needs root (a loop device).
set -u
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2/scan-verify
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC2034 # lib.sh's ok and bad read it
suite="scan-verify"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null; then
	echo "skip scan-verify: needs root and losetup"
	echo "end of suite"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
sd="$out/script-double.so"
if ! ${CC:-cc} -shared -fPIC -O2 -o "$sd" "$top/tests/tools/script-double.c" -ldl; then
	bad "build tests/tools/script-double.c"
	echo "end of suite"
	exit 0
fi
if [ "${PRELOAD:-}" = qemu ]; then preload=(QEMU_SET_ENV="LD_PRELOAD=$sd"); else preload=(LD_PRELOAD="$sd"); fi
truncate -s 1M "$out/disk.img"
loop=$(losetup --show -f "$out/disk.img") || { bad "losetup"; echo "end of suite"; exit 0; }
trap 'losetup -d "$loop" 2> /dev/null' EXIT INT TERM HUP
command -v udevadm > /dev/null && udevadm settle 2> /dev/null
stat_file=/sys/block/${loop#/dev/}/stat

hex() { printf '%02x' $(($1 & 255)); }
# ata_verify LBA COUNT [REPLY]: READ VERIFY SECTORS EXT in ATA PASS-THROUGH (16) (COUNT 65536 is 0).
ata_verify() {
	echo "sg 85 07 00 00 00 $(hex $(($2 >> 8))) $(hex "$2") $(hex $(($1 >> 24))) $(hex "$1") $(hex $(($1 >> 32))) $(hex $(($1 >> 8))) $(hex $(($1 >> 40))) $(hex $(($1 >> 16))) 40 42 00${3:+ -> $3}"
}
# ata_verify28 LBA COUNT [REPLY]: READ VERIFY SECTORS, 28-bit: COUNT 7:0 (256 is 0), LBA 27:24 in DEVICE.
ata_verify28() {
	echo "sg 85 06 00 00 00 00 $(hex "$2") 00 $(hex "$1") 00 $(hex $(($1 >> 8))) 00 $(hex $(($1 >> 16))) $(hex $((0x40 | ($1 >> 24 & 15)))) 40 00${3:+ -> $3}"
}
# scsi_verify LBA COUNT [REPLY]: VERIFY (16), BYTCHK 0.
scsi_verify() {
	echo "sg 8f 00 $(hex $(($1 >> 56))) $(hex $(($1 >> 48))) $(hex $(($1 >> 40))) $(hex $(($1 >> 32))) $(hex $(($1 >> 24))) $(hex $(($1 >> 16))) $(hex $(($1 >> 8))) $(hex "$1") $(hex $(($2 >> 24))) $(hex $(($2 >> 16))) $(hex $(($2 >> 8))) $(hex "$2") 00 00${3:+ -> $3}"
}
# nvme_verify LBA COUNT [REPLY]: Verify of namespace 1, NLB 0-based.
nvme_verify() {
	printf 'io 0c nsid=1 cdw10=%x cdw11=%x cdw12=%x len=0%s\n' $(($1 & 0xffffffff)) $(($1 >> 32)) $(($2 - 1)) "${3:+ -> $3}"
}
# The medium errors at LBA: ATA's sense with the registers, SCSI's with INFORMATION, NVMe's status.
ata_medium() {
	echo "sense 72 03 11 04 00 00 00 0e 09 0c 01 40 00 01 $(hex $(($1 >> 24))) $(hex "$1") 00 $(hex $(($1 >> 8))) 00 $(hex $(($1 >> 16))) 40 51"
}
scsi_medium() { echo "sense f0 00 03 $(hex $(($1 >> 24))) $(hex $(($1 >> 16))) $(hex $(($1 >> 8))) $(hex "$1") 0a 00 00 00 00 11 00 00 00 00 00"; }
nvme_medium() { echo "status 281"; }
# singles KIND FIRST LAST BAD: the search, one sector at a time, BAD answering a medium error.
singles() {
	local lba
	for ((lba = $2; lba <= $3; lba++)); do
		if [ "$lba" = "$4" ]; then "${1}_verify" "$lba" 1 "$("${1}_medium" "$lba")"; else "${1}_verify" "$lba" 1; fi
		# After a failure, the sector that verified last is verified again: a disk that answers
		# (issue 65, items 18 and 19: a disk gone fails every sector as a bad medium does).
		if [ "$lba" = "$4" ] && [ "$lba" -gt "$2" ]; then "${1}_verify" "$((lba - 1))" 1; fi
	done
}

ata_identify="sg 85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00 -> words @$top/tests/identify/pages/qemu-ahci-hdd.hex"
# A real Maxtor's page: word 83 4309h, no 48-bit addressing (bit 10 clear).
ata_identify28="sg 85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00 -> words @$top/tests/identify/real/Maxtor_96147H8--BAC51KJ0.hex"
scsi_node="node scsi
sg 85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00 -> sense 70 00 05 00 00 00 00 0a 00 00 00 00 20 00 00 00 00 00
sg a1 08 0e 00 01 00 00 00 00 ec 00 00 -> sense 70 00 05 00 00 00 00 0a 00 00 00 00 20 00 00 00 00 00"
# The crafted controller's ONCS is 00FFh (Verify: bit 7); QEMU's own page (tests/nvme/qemu-ctrl.hex) says 015Dh.
nvme_ctrl="admin 06 cdw10=1 -> data @$top/tests/nvme/crafted-ctrl.hex"
nvme_qemu_ctrl="admin 06 cdw10=1 -> data @$top/tests/nvme/qemu-ctrl.hex"

sectors_read() { awk '{ print $3 }' "$stat_file"; }

# check NAME EXIT SCRIPT ARGS... : hdparm sends exactly SCRIPT, exits EXIT and reads nothing from the
# loop device; its output is in $out/NAME.out and .err for the lines the caller wants.
check() {
	local name=$1 want=$2 script=$3 before problems=''
	shift 3
	printf '%s\n' "$script" > "$out/$name.script"
	rm -f "$out/$name.report"
	before=$(sectors_read)
	env --default-signal=INT,QUIT DOUBLE_SCRIPT="$out/$name.script" DOUBLE_REPORT="$out/$name.report" "${preload[@]}" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		timeout -k 10 120 "$H" "$@" "$loop" > "$out/$name.out" 2> "$out/$name.err"
	rc=$?
	[ "$rc" = "$want" ] || problems+="exit $rc, wanted $want; "
	[ ! -s "$out/$name.report" ] || problems+="the commands differ from the script; "
	[ "$(sectors_read)" = "$before" ] || problems+="sectors were read from the device; "
	[ -z "$problems" ] && return 0
	bad "$name ($problems)" "$(head -5 "$out/$name.report" 2> /dev/null)" "$(head -5 "$out/$name.err")"
	return 1
}
# has NAME FILE LINE...: each LINE is a whole line of NAME's stdout (out) or stderr (err).
has() {
	local name=$1 f=$2 l
	shift 2
	for l in "$@"; do
		grep -qxF -- "$l" "$out/$name.$f" || { bad "$name: no line '$l' in its std$f" "$(head -20 "$out/$name.$f")"; return 1; }
	done
	ok "$name"
}

# --- ATA ---
# LBA 0-299: the first command (one sector) tries the command; block 0-255 fails at sector 200 and
# is searched sector by sector; block 256-299 (44 sectors) reads.
name=ata-medium-error
script="node ata
$ata_identify
$(ata_verify 0 1)
$(ata_verify 0 256 "$(ata_medium 200)")
$(singles ata 0 255 200)
$(ata_verify 256 44)"
check $name 5 "$script" --surface-scan --scan-verify --scan-range 0-299 &&
	has $name out ' unreadable LBAs: 200' '  read                    2 of 2'
# A bridge that says only RECOVERED ERROR, ATA PASS-THROUGH INFORMATION AVAILABLE (00h/1Dh): the
# registers alone (STATUS 51h: ERR; ERROR 40h: UNC) say the medium failed at sector 5.
name=ata-medium-error-registers
unc5="sense 72 01 00 1d 00 00 00 0e 09 0c 01 40 00 01 00 05 00 00 00 00 40 51"
script="node ata
$ata_identify
$(ata_verify 0 1)
$(ata_verify 0 10 "$unc5")
$(singles ata 0 4 -)
$(ata_verify 5 1 "$unc5")
$(ata_verify 4 1)
$(singles ata 6 9 -)"
check $name 5 "$script" --surface-scan --scan-verify --scan-range 0-9 && has $name out ' unreadable LBAs: 5'
# The whole range reads: every block in a time class, exit 0; COUNT 256 is 01 00 in EXT.
name=ata-clean
script="node ata
$ata_identify
$(ata_verify 1000 1)
$(ata_verify 1000 256)
$(ata_verify 1256 10)"
check $name 0 "$script" --surface-scan --scan-verify --scan-range 1000+266 &&
	has $name out ' unreadable LBAs: none' '  read                    2 of 2' \
		' surface scan of LBA 1000 to 1265 (266 sectors of 512 bytes, 2 blocks of 256 sectors), verified by the disk (nothing read or written):'
# No 48-bit addressing: READ VERIFY SECTORS (40h), COUNT 256 is 00.
name=ata-28-bit
script="node ata
$ata_identify28
$(ata_verify28 1800 1)
$(ata_verify28 1800 248)"
check $name 0 "$script" --surface-scan --scan-verify --scan-range 1800-2047 &&
	has $name out ' unreadable LBAs: none'
name=ata-28-bit-256
script="node ata
$ata_identify28
$(ata_verify28 512 1)
$(ata_verify28 512 256)"
check $name 0 "$script" --surface-scan --scan-verify --scan-range 512+256 && has $name out ' unreadable LBAs: none'
# The drive aborts the first command (ABRT, no UNC): refused with the reason, nothing more sent.
name=ata-aborted
script="node ata
$ata_identify
$(ata_verify 0 1 "sense 72 0b 00 00 00 00 00 0e 09 0c 00 04 00 00 00 00 00 00 00 00 00 51")"
check $name 95 "$script" --surface-scan --scan-verify &&
	has $name err " --scan-verify: $loop has no READ VERIFY SECTORS EXT command (the drive aborted it: aborted command (ATA status 0x51, error 0x04: ABRT))"
# A time-out mid-scan: the disk stopped answering; the scan stops there, what it verified is reported.
name=ata-timeout
script="node ata
$ata_identify
$(ata_verify 0 1)
$(ata_verify 0 256)
$(ata_verify 256 256 timeout)"
check $name 110 "$script" --surface-scan --scan-verify --scan-range 0-767 &&
	has $name err " --scan-verify: $loop, LBA 256+256: READ VERIFY SECTORS EXT: command timed out" \
		" --surface-scan: reading $loop at LBA 256 failed: Connection timed out; the scan stopped there (1 of 3 blocks read)"

# SIGINT while the second block is verified (raised by the double as it answers: no race): that
# block is counted, nothing more is sent, exit 4.
name=ata-sigint
script="node ata
$ata_identify
$(ata_verify 0 1)
$(ata_verify 0 256)
$(ata_verify 256 256 "raise INT")"
check $name 4 "$script" --surface-scan --scan-verify --scan-range 0-1023 &&
	has $name err " --surface-scan: interrupted: 2 of 4 blocks read, stopped before LBA 512"

# --- SCSI ---
name=scsi-medium-error
script="$scsi_node
$(scsi_verify 256 1)
$(scsi_verify 256 256)
$(scsi_verify 512 256 "$(scsi_medium 700)")
$(singles scsi 512 767 700)"
check $name 5 "$script" --surface-scan --scan-verify --scan-range 256-767 &&
	has $name out ' unreadable LBAs: 700'
name=scsi-refused
script="$scsi_node
$(scsi_verify 0 1 "sense 70 00 05 00 00 00 00 0a 00 00 00 00 20 00 00 00 00 00")"
check $name 95 "$script" --surface-scan --scan-verify &&
	has $name err " --scan-verify: $loop has no VERIFY(16) command (the disk refused it: illegal request (invalid command operation code))"

# --- NVMe ---
name=nvme-medium-error
script="node nvme 1
$nvme_ctrl
$(nvme_verify 0 1)
$(nvme_verify 0 256)
$(nvme_verify 256 256 "$(nvme_medium)")
$(singles nvme 256 511 511)
$(nvme_verify 512 1)"
check $name 5 "$script" --surface-scan --scan-verify --scan-range 0-512 &&
	has $name out ' unreadable LBAs: 511' '  read                    3 of 3'
# QEMU's controller page: ONCS 015Dh, no Verify: refused before any I/O command.
name=nvme-no-verify
script="node nvme 1
$nvme_qemu_ctrl"
check $name 95 "$script" --surface-scan --scan-verify &&
	has $name err " --scan-verify: $loop has no Verify command (Identify Controller's ONCS is 015dh: bit 7 clear)"
name=nvme-invalid-opcode
script="node nvme 1
$nvme_ctrl
$(nvme_verify 0 1 "status 1")"
check $name 95 "$script" --surface-scan --scan-verify &&
	has $name err " --scan-verify: $loop has no Verify command (the controller refused it: Invalid Command Opcode)"

# --- not the disk's LBAs, no disk commands, and bad input ---
# A partition: its disk's verify would be at the disk's LBAs; refused before IDENTIFY or anything else.
if command -v sfdisk > /dev/null && command -v partx > /dev/null; then
	truncate -s 4M "$out/part.img"
	printf 'label: dos\nstart=2048, size=4096, type=83\n' | sfdisk -q "$out/part.img"
	if pdisk=$(losetup -f --show -P "$out/part.img"); then
		trap 'losetup -d "$loop" 2> /dev/null; losetup -d "$pdisk" 2> /dev/null' EXIT INT TERM HUP
		pname=$(basename "$pdisk")
		partx -a "$pdisk" 2> /dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do [ -e "/sys/block/$pname/${pname}p1/dev" ] && break; sleep 0.2; done
		rm -f "$out/part1"
		[ -e "/sys/block/$pname/${pname}p1/dev" ] && mknod "$out/part1" b $(tr ':' ' ' < "/sys/block/$pname/${pname}p1/dev")
		name=partition
		printf 'node ata\n' > "$out/$name.script"
		rm -f "$out/$name.report"
		env DOUBLE_SCRIPT="$out/$name.script" DOUBLE_REPORT="$out/$name.report" "${preload[@]}" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
			"$H" --surface-scan --scan-verify "$out/part1" > "$out/$name.out" 2> "$out/$name.err"
		rc=$?
		if [ "$rc" = 22 ] && [ ! -s "$out/$name.report" ]; then
			has $name err " --scan-verify: $out/part1 is a partition: its disk would verify its own LBAs, not the partition's; scan the whole disk (with --scan-range)"
		else
			bad "$name (exit $rc, wanted 22; or commands sent)" "$(cat "$out/$name.report" "$out/$name.err" 2> /dev/null)"
		fi
	fi
fi
# The loop device itself (no double): it takes no disk commands; refused, nothing read.
name=loop-refused
before=$(sectors_read)
"$H" --surface-scan --scan-verify "$loop" > "$out/$name.out" 2> "$out/$name.err"
rc=$?
if [ "$rc" = 95 ] && [ "$(sectors_read)" = "$before" ]; then
	has $name err " --scan-verify: $loop takes no disk commands (a loop, dm or other virtual device has no verify command); --surface-scan without --scan-verify reads it"
else
	bad "$name (exit $rc, wanted 95; sectors read: $before then $(sectors_read))" "$(cat "$out/$name.err")"
fi
name=alone
"$H" --scan-verify "$loop" > "$out/$name.out" 2> "$out/$name.err"
rc=$?
if [ "$rc" = 22 ]; then has $name err '--scan-verify goes with --surface-scan'; else bad "$name (exit $rc, wanted 22)"; fi
echo "end of suite"
