#!/bin/bash
# Proof of an erase, on the double's NVMe controller and ATA drive (tests/tools/sgio-shim.c):
# --erase-record for success, failure and refusal, each held against erase-record.schema.json
# by python3-jsonschema, and its device fields against the Identify page's own bytes (NVMe
# Base: SN bytes 4-23, MN 24-63, FR 64-71).  A kill during the erase leaves no record; an
# interrupted wait leaves a whole one.  --erase-verify full's status line on a terminal.
# (Its counts and listed LBAs: tests/nvme-commands.txt.)
# Usage: erase-proof-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
suite="erase record" double_name=record
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
ctrl=$top/tests/nvme/qemu-ctrl.hex
# shellcheck source=tests/tools/schema-python.sh
. "$top/tests/tools/schema-python.sh" "erase record"
asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# Disk images: random data before; after, the pattern, zeros, and zeros but for block 1000.
head -c 1048576 /dev/urandom > "$out/rec-before.img"
printf 'Z\245\303<' > "$out/rec-pattern.img"
for _ in $(seq 18); do cat "$out/rec-pattern.img" "$out/rec-pattern.img" > "$out/rec.tmp"; mv "$out/rec.tmp" "$out/rec-pattern.img"; done
head -c 1048576 /dev/zero > "$out/rec-mid.img"
printf 'left behind' | dd of="$out/rec-mid.img" bs=512 seek=1000 conv=notrunc status=none

# run ENV... -- ARGS...: hdparm on the double's namespace 259:900000; rc, $out/rec.out, $out/rec.err
run() {
	run_on_double rec SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_SANICAP=7 SHIM_BLOCK_DEV=259:900000 \
		SHIM_DISK_IMAGE="$out/rec-before.img" "$@" /dev/null
}

# check NAME FILE PYTHON-EXPRESSION: FILE validates against the schema and the expression (over r,
# the record, and page, the Identify Controller bytes) holds.
check() {
	local name=$1 file=$2 expr=$3 why
	why=$("$py" - "$file" "$schema" "$ctrl" "$expr" "$rc" 2>&1 <<'EOF'
import json, sys
import jsonschema
path, schema, ctrl, expr = sys.argv[1:5]
rc = int(sys.argv[5])
expr = ' '.join(expr.split())
r = json.load(open(path))
jsonschema.validate(r, json.load(open(schema)))
page = bytes(int(x, 16) for x in open(ctrl).read().split())
text = lambda a, b: page[a:b].decode('ascii').rstrip(' ')
def atastr(words, first, n):
    w = [int(x, 16) for x in words.split()][first:first + n]
    return ''.join(chr(x >> 8) + chr(x & 0xff) for x in w).strip(' ')
if not eval(expr):
    print('does not hold: ' + expr)
    print(json.dumps(r)[:600])
EOF
	)
	if [ -z "$why" ]; then
		ok "$name"
	else
		bad "$name (exit $rc)"
		echo "$why" | head -n 8 | sed 's/^/  /'
		sed 's/^/  stderr: /' "$out/rec.err" | head -n 4
	fi
}

yes=--yes-i-know-what-i-am-doing
rm -rf "$out/records" "$out/rec-ok.json" "$out/rec-bad.json" "$out/rec-refused.json"
run SHIM_NVME_SANITIZE=0:1 SHIM_DISK_IMAGE_AFTER="$out/rec-pattern.img" -- $yes --sanitize-overwrite hex:5aa5c33c \
	--sanitize-wait --erase-verify full --erase-record "$out/rec-ok.json" --erase-operator "A. Tester"
check "a verified overwrite: erased_and_verified, exit 0, the drive's own names" "$out/rec-ok.json" \
	"rc == 0 and r['outcome'] == 'erased_and_verified' and r['exit_status'] == 0 and r['operator'] == 'A. Tester'
	 and r['device']['serial_number'] == text(4, 24) and r['device']['model'] == text(24, 64)
	 and r['device']['firmware_version'] == text(64, 72) and r['device']['transport'] == 'NVMe'
	 and r['erase']['technique'] == 'overwrite' and r['erase']['method'] == 'purge' and r['erase']['sent']
	 and r['erase']['pattern'] == 0x5aa5c33c and r['erase']['command'] == 'NVMe Sanitize (overwrite)'
	 and r['drive_status_after'] == 'completed' and r['verification']['method'] == 'full'
	 and r['verification']['disks'][0]['full']['pattern'] == 2048 and r['erase']['began'] <= r['erase']['ended']"
run SHIM_NVME_SANITIZE=0:1 SHIM_DISK_IMAGE_AFTER="$out/rec-mid.img" -- $yes --sanitize-block-erase \
	--sanitize-wait --erase-verify full --erase-record "$out/rec-bad.json"
check "a block erase that left block 1000: verification_failed, exit 5, the block listed" "$out/rec-bad.json" \
	"rc == 5 and r['outcome'] == 'verification_failed' and r['exit_status'] == 5 and r['operator'] is None
	 and r['verification']['disks'][0]['full']['first_lbas_not_expected']['other'] == [1000]"
run SHIM_NVME_SANICAP=0 -- $yes --sanitize-block-erase --erase-record "$out/rec-refused.json"
check "a sanitize the controller has not: refused, nothing sent, no time" "$out/rec-refused.json" \
	"rc != 0 and r['outcome'] == 'refused' and not r['erase']['sent'] and r['erase']['began'] is None
	 and r['verification']['disks'] == []"
# A record that could not be kept: the erase is not started (NVMe Sanitize, admin opcode 84h, never sent).
rm -rf "$out/no-such-folder" "$out/rec.log"
run SHIM_NVME_SANITIZE=0:1 SHIM_LOG="$out/rec.log" -- $yes --sanitize-block-erase --sanitize-wait \
	--erase-record "$out/no-such-folder/"
touch "$out/rec.log"
if [ "$rc" = 2 ] && ! grep -q 'nvme-admin: 84' "$out/rec.log" && [ ! -e "$out/no-such-folder" ] &&
	grep -q "no-such-folder/ cannot be written to (No such file or directory): the erase was not started" "$out/rec.err"; then
	ok "a folder that is not there: the erase is refused, nothing sent, exit 2"
else
	bad "a folder that is not there: the erase is refused, nothing sent, exit 2 (exit $rc)"
	sed 's/^/  /' "$out/rec.err" "$out/rec.log" | head -n 4
fi
mkdir -p "$out/records"
run SHIM_NVME_SANITIZE=0:1 SHIM_DISK_IMAGE_AFTER="$out/rec-pattern.img" -- $yes --sanitize-crypto-scramble \
	--sanitize-wait --erase-record "$out/records/"
set -- "$out"/records/erase-NVME0001-*.json
if [ "$#" = 1 ] && [ -f "$1" ]; then
	check "a folder: one record named by the serial number" "$1" "r['erase']['technique'] == 'crypto_erase'"
else
	bad "a folder: one record named by the serial number ($(ls "$out/records"))"
fi
run SHIM_NVME_SANITIZE=0:1 SHIM_DISK_IMAGE_AFTER="$out/rec-pattern.img" -- $yes --sanitize-overwrite hex:5aa5c33c \
	--sanitize-wait --erase-record -
sed -n '/^{$/,/^}$/p' "$out/rec.out" > "$out/rec-stdout.json"
check "-: the record on standard output, after the text" "$out/rec-stdout.json" \
	"rc == 0 and r['outcome'] == 'erased_and_verified'"

# ATA: SECURITY ERASE UNIT with a read-back and a record (a crafted page: security enabled, a
# password set); the device's names from the page's own words (ACS-3: serial 10-19, model 27-46, each
# word's high byte first).  READ NATIVE MAX ADDRESS EXT answers LBA 40000FFFh: 4096 sectors above the
# 1073741824 that IDENTIFY's words 100-103 give (hdparm 9.65's -I of the page says so too) are hidden.
crafted=$top/tests/identify/pages/crafted-security-big.hex
head -c 1048576 /dev/zero > "$out/rec-zeros.img"
rm -f "$out/rec-ata.json"
env SHIM_IDENTIFY="$crafted" SHIM_BLOCK_DEV=8:900000 SHIM_DISK_IMAGE="$out/rec-before.img" SHIM_LBA=0x40000fff \
	SHIM_DISK_IMAGE_AFTER="$out/rec-zeros.img" "${preload[@]}" "$asan" "$H" --security-erase pw --erase-verify full \
	--erase-record "$out/rec-ata.json" /dev/null > "$out/rec.out" 2> "$out/rec.err"
rc=$?
words=$(tr -s ' \n' '  ' < "$crafted")
check "ATA --security-erase: sampled before, read back after, the drive's own names" "$out/rec-ata.json" \
	"rc == 0 and r['outcome'] == 'erased_and_verified' and r['device']['transport'] == 'ATA'
	 and r['erase']['technique'] == 'security_erase' and r['erase']['method'] == 'clear'
	 and r['erase']['command'] == 'SECURITY ERASE UNIT' and r['verification']['disks'][0]['full']['zeros'] == 2048
	 and r['device']['model'] == atastr('$words', 27, 20) and r['device']['serial_number'] == atastr('$words', 10, 10)
	 and r['hidden_areas']['accessible_sectors'] == 1073741824 and r['hidden_areas']['hpa_sectors'] == 4096
	 and r['hidden_areas']['security'] == {'supported': True, 'enabled': True, 'locked': False, 'frozen': False}"
if grep -q 'LBA 1073741824 to 1073745919, hidden by a host protected area, were not read back' "$out/rec.out"; then
	ok "ATA --erase-verify full says what a host protected area kept from it"
else
	bad "ATA --erase-verify full says what a host protected area kept from it"
fi
if grep -q 'after the erase: all 64 blocks sampled over the disk read as zeros' "$out/rec.out"; then
	ok "ATA --security-erase with --erase-verify: the sample's line"
else
	bad "ATA --security-erase with --erase-verify: the sample's line"
fi

# erase_outcome without --erase-record or --erase-verify (issue 65, item 6): from what was sent and
# how it ended: a SECURITY ERASE UNIT (F4h) that completed was sent and not read back; one that ended
# ABRT failed (refused is for nothing sent).
for c in "ok:0:erased_not_verified:True" "abort@f4:5:failed:False"; do
	IFS=: read -r reply want outcome completed <<< "$c"
	env SHIM_IDENTIFY="$crafted" SHIM_REPLY="$reply" "${preload[@]}" "$asan" "$H" --json --security-erase pw /dev/null \
		> "$out/rec.out" 2> "$out/rec.err"
	rc=$?
	if [ "$rc" = "$want" ] && "$py" -c '
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
sys.exit(0 if d["erase_outcome"] == sys.argv[2] and d["security_erase"]["completed"] == (sys.argv[3] == "True") else 1)' \
		"$out/rec.out" "$outcome" "$completed"; then
		ok "--json --security-erase without a record, SHIM_REPLY=$reply: erase_outcome $outcome, exit $want"
	else
		bad "--json --security-erase without a record, SHIM_REPLY=$reply: erase_outcome $outcome, exit $want (exit $rc)" \
			"$(grep -E 'erase_outcome|completed' "$out/rec.out" | tr -s ' \n' ' ')"
	fi
done
# SECURITY ERASE PREPARE (F3h) ended ABRT: the ERASE UNIT never went out, with a record as without one:
# refused, and the record says not sent.
rm -f "$out/rec-prep.json"
env SHIM_IDENTIFY="$crafted" SHIM_REPLY=abort@f3 "${preload[@]}" "$asan" "$H" --json --security-erase pw /dev/null \
	> "$out/rec.out" 2> "$out/rec.err"
alone=$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["devices"][0]["erase_outcome"])' "$out/rec.out" 2>&1)
env SHIM_IDENTIFY="$crafted" SHIM_REPLY=abort@f3 "${preload[@]}" "$asan" "$H" --json --erase-record "$out/rec-prep.json" \
	--security-erase pw /dev/null > "$out/rec.out" 2> "$out/rec.err"
rc=$?
recorded=$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["devices"][0]["erase_outcome"])' "$out/rec.out" 2>&1)
if [ "$alone" = refused ] && [ "$recorded" = refused ]; then
	check "ERASE PREPARE ended ABRT: refused with a record as without one, the record says not sent" \
		"$out/rec-prep.json" "r['outcome'] == 'refused' and not r['erase']['sent'] and r['erase']['began'] is None"
else
	bad "ERASE PREPARE ended ABRT: refused with a record as without one, the record says not sent" \
		"without a record: $alone; with one: $recorded (exit $rc)"
fi

# --erase-record FILE replaces only an empty file or an erase record (issue 65, item 8): a folder
# linked onto another (as onto /etc) leads FILE onto a file hdparm did not write, which is refused
# before anything is sent (no SECURITY ERASE UNIT, F4h, in the double's log): one line, exit 17.
rm -rf "$out/rec-own"
mkdir -p "$out/rec-own/etc"
echo "root:x:0:0:root:/root:/bin/bash" > "$out/rec-own/etc/passwd"
ln -s "$out/rec-own/etc" "$out/rec-own/link"
: > "$out/rec-own/empty.json"
for c in "link/passwd:17" "empty.json:0" "empty.json:0"; do
	IFS=: read -r name want <<< "$c"
	rm -f "$out/rec.log"
	env SHIM_IDENTIFY="$crafted" SHIM_LOG="$out/rec.log" "${preload[@]}" "$asan" "$H" --security-erase pw \
		--erase-record "$out/rec-own/$name" /dev/null > "$out/rec.out" 2> "$out/rec.err"
	rc=$?
	if [ "$want" = 17 ]; then
		if [ "$rc" = 17 ] && ! grep -qs ' f4 ' "$out/rec.log" &&
			[ "$(cat "$out/rec-own/etc/passwd")" = "root:x:0:0:root:/root:/bin/bash" ] &&
			[ "$(cat "$out/rec.err")" = "--erase-record $out/rec-own/$name: a file that is not an erase record is there: refused, nothing was sent" ]; then
			ok "--erase-record onto a file hdparm did not write (a linked folder): refused, nothing sent, exit 17"
		else
			bad "--erase-record onto a file hdparm did not write (a linked folder): refused, nothing sent, exit 17 (exit $rc)" \
				"$(head -c 200 "$out/rec-own/etc/passwd")" "$(head -n 2 "$out/rec.err")"
		fi
	else
		check "--erase-record onto an empty file, then onto that record again: replaced, exit 0" \
			"$out/rec-own/$name" "rc == 0 and r['erase']['sent'] and r['exit_status'] == 0"
	fi
done
# A FILE that is a FIFO, its name holding a newline (issue 65, item 14): the refusal names it quoted,
# $'...', on one line, which bash reads back as the name.
rm -rf "$out/rec-nl"
mkdir -p "$out/rec-nl"
nl_name="$out/rec-nl/a"$'\n'"b"
mkfifo "$nl_name"
env SHIM_IDENTIFY="$crafted" "${preload[@]}" "$asan" "$H" --security-erase pw --erase-record "$nl_name" /dev/null \
	> "$out/rec.out" 2> "$out/rec.err"
rc=$?
said=$(sed -n "s/^--erase-record \(.*\): a FIFO, not a regular file or a folder: refused, nothing was sent$/\1/p" "$out/rec.err")
if [ "$rc" = 22 ] && [ "$(wc -l < "$out/rec.err")" = 1 ] && [ -n "$said" ] && [ "$(eval "printf %s $said")" = "$nl_name" ]; then
	ok "--erase-record a FIFO whose name holds a newline: refused on one line, the name quoted \$'...'"
else
	bad "--erase-record a FIFO whose name holds a newline: refused on one line, the name quoted \$'...' (exit $rc)" \
		"$(head -n 3 "$out/rec.err" | tr '\n' '|')"
fi

# --erase-verify full on a terminal: a status line with the share read, the rate and the time
# left, redrawn while it reads (a 2 GiB sparse image after the erase: long enough to draw).
truncate -s 0 "$out/rec-big.img"
truncate -s 2G "$out/rec-big.img"
script -qec "env SHIM_NVME=$ctrl,$top/tests/nvme/qemu-ns.hex SHIM_NVME_SANICAP=7 SHIM_NVME_SANITIZE=0:1 \
	SHIM_BLOCK_DEV=259:900000 SHIM_DISK_IMAGE=$out/rec-before.img SHIM_DISK_IMAGE_AFTER=$out/rec-big.img ${preload[*]} $asan \
	$H $yes --sanitize-block-erase --sanitize-wait --erase-verify full /dev/null" /dev/null > "$out/rec.tty" < /dev/null
rc=$?
if [ "$rc" = 0 ] && grep -Eq 'verify: [0-9]+% of 2\.1 GB read, [0-9]+ MB/s, [0-9]+:[0-9]{2} left' "$out/rec.tty" &&
	grep -q ': 4194304 as zeros, 0 as a pattern, 0 as other data' "$out/rec.tty"; then
	echo "ok erase verify: full on a terminal: the share read, the rate and the time left"
else
	echo "FAIL erase verify: full on a terminal: the share read, the rate and the time left (exit $rc)"
	tr '\r' '\n' < "$out/rec.tty" | tail -n 5 | sed 's/^/  /'
fi
# SIGINT during it: the read-back stops, and the record is written whole, saying how far it got
# (a 4 TiB sparse image: a read-back of many minutes, however fast the machine).
rm -f "$out/rec-int.json"
truncate -s 4T "$out/rec-big.img"
env --default-signal=INT,QUIT SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_SANICAP=7 SHIM_NVME_SANITIZE=0:1 SHIM_BLOCK_DEV=259:900000 \
	SHIM_DISK_IMAGE="$out/rec-before.img" SHIM_DISK_IMAGE_AFTER="$out/rec-big.img" "${preload[@]}" "$asan" \
	"$H" $yes --sanitize-block-erase --sanitize-wait --erase-verify full --erase-record "$out/rec-int.json" \
	/dev/null > "$out/rec.out" 2> "$out/rec.err" &
pid=$!
# In the full read-back: its io_uring is open, or (pread) past the sample's few blocks, 64 MiB read
# (/proc/PID/io's rchar, which io_uring's reads do not count).
read_past() { [ "$(awk '$1 == "rchar:" { print $2 }' "/proc/$1/io" 2> /dev/null)" -gt "$2" ] 2> /dev/null; }
in_full_read() {
	local f
	for f in /proc/"$1"/fd/*; do [ "$(readlink "$f")" = 'anon_inode:[io_uring]' ] && return 0; done
	read_past "$1" 67108864
}
until_true 30 in_full_read "$pid"
kill -s INT "$pid"
wait_within 120 "$pid"
check "SIGINT during --erase-verify full: a whole record, verification_interrupted, what was read" \
	"$out/rec-int.json" "rc == 4 and r['outcome'] == 'verification_interrupted'
	 and r['verification']['disks'][0]['full']['interrupted']
	 and r['verification']['disks'][0]['full']['verdict'] == 'interrupted'
	 and 0 < r['verification']['disks'][0]['full']['blocks'] < 134217728"
rm -f "$out/rec-big.img"

# How the record is written, from the system calls (strace): the final record goes to a temporary
# file beside FILE, which is synced before it is renamed over FILE, and the folder is synced after:
# a crash leaves the early record or the final one, whole.  (LeakSanitizer cannot run under ptrace:
# a sanitizer build runs without it here.)
if command -v strace > /dev/null; then
	rm -f "$out/rec-sys.json" "$out/rec.strace"
	env SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_SANICAP=7 SHIM_NVME_SANITIZE=0:1 SHIM_BLOCK_DEV=259:900000 \
		SHIM_DISK_IMAGE="$out/rec-before.img" SHIM_DISK_IMAGE_AFTER="$out/rec-pattern.img" "${preload[@]}" \
		"$asan:detect_leaks=0" strace -f -qq -e trace=openat,fsync,rename,renameat,renameat2,close -o "$out/rec.strace" \
		"$H" $yes --sanitize-block-erase --sanitize-wait --erase-record "$out/rec-sys.json" /dev/null > /dev/null 2>&1
	rc=$?
	"$py" - "$out/rec.strace" "$out/rec-sys.json" "$out" > "$out/rec-sys.err" 2>&1 << 'EOF'
import re, sys
lines, final, folder = open(sys.argv[1]).read().splitlines(), sys.argv[2], sys.argv[3]
fd_of, synced, renames = {}, set(), []
for l in lines:
    m = re.search(r'openat\(AT_FDCWD, "([^"]+)", ([^)]*)\) = (\d+)', l)
    if m:
        fd_of[m.group(3)] = (m.group(1), m.group(2))
        continue
    m = re.search(r'fsync\((\d+)\)\s+= 0', l)
    if m and m.group(1) in fd_of:
        synced.add(fd_of[m.group(1)][0])
        continue
    m = re.search(r'rename(?:at2?)?\((?:AT_FDCWD, )?"([^"]+)", (?:AT_FDCWD, )?"([^"]+)"', l)
    if m:
        renames.append((m.group(1), m.group(2), len(synced), set(synced)))
        continue
    m = re.search(r'close\((\d+)\)', l)
    if m:
        fd_of.pop(m.group(1), None)
# Never written in place: no open of FILE itself for writing.
direct = [l for l in lines if '"%s"' % final in l and 'openat' in l and ('O_WRONLY' in l or 'O_RDWR' in l)]
assert not direct, direct
onto = [r for r in renames if r[1] == final]
assert onto, 'no rename onto the record: %s' % renames
for tmp, _, _, before in onto:
    assert tmp.startswith(final + '.') and tmp in before, ('renamed before it was synced', tmp)
assert folder in synced, 'the folder was never synced'
EOF
	if [ $? = 0 ] && [ "$rc" = 0 ]; then
		ok "written to a temporary file, synced, renamed over FILE, the folder synced (strace)"
	else
		bad "written to a temporary file, synced, renamed over FILE, the folder synced (exit $rc)"
		tail -n 3 "$out/rec-sys.err" | sed 's/^/  /'
	fi
else
	echo "skip erase record: strace is not installed (tests/setup installs it): how the record is written not checked"
fi

# A folder named without its slash, when it is one: a record in it, as with the slash.
rm -rf "$out/records-noslash"
mkdir -p "$out/records-noslash"
run SHIM_NVME_SANITIZE=0:1 SHIM_DISK_IMAGE_AFTER="$out/rec-pattern.img" -- $yes --sanitize-crypto-scramble \
	--sanitize-wait --erase-record "$out/records-noslash"
set -- "$out"/records-noslash/erase-NVME0001-*.json
if [ "$#" = 1 ] && [ -f "$1" ]; then
	check "a folder named without its slash: one record in it" "$1" "rc == 0 and r['outcome'] == 'erased_and_verified'"
else
	bad "a folder named without its slash: one record in it (exit $rc; $(ls "$out/records-noslash"))"
fi

reserved() { ls "$1"/erase-*.json > /dev/null 2>&1; }

# Where auditors carry records: an exFAT stick (through FUSE, as the kernel here may have no exfat),
# where link() is refused; and a small file system that fills up during the erase.
fs=$out/rec-fs
umount "$fs" 2> /dev/null
mkdir -p "$fs"
# Its mounts taken down however the suite ends (the mutants' runner stops a suite at its first FAIL).
trap 'umount "$fs" 2> /dev/null' EXIT
trap 'exit 1' INT TERM HUP
loopdev=
if [ "$(id -u)" != 0 ] || ! command -v mount.exfat-fuse > /dev/null || ! command -v mkfs.exfat > /dev/null; then
	echo "skip erase record on exFAT: needs root, exfat-fuse and exfatprogs (tests/setup installs them)"
elif ! truncate -s 16M "$out/rec-exfat.img" || ! mkfs.exfat "$out/rec-exfat.img" > /dev/null 2>&1 ||
	! loopdev=$(losetup -f --show "$out/rec-exfat.img") || ! mount.exfat-fuse "$loopdev" "$fs" > /dev/null 2>&1; then
	echo "skip erase record on exFAT: no loop device or FUSE mount here"
else
	run SHIM_NVME_SANITIZE=0:1 SHIM_DISK_IMAGE_AFTER="$out/rec-pattern.img" -- $yes --sanitize-block-erase \
		--sanitize-wait --erase-record "$fs/"
	set -- "$fs"/erase-NVME0001-*.json
	if [ "$#" = 1 ] && [ -f "$1" ] && [ -z "$(ls "$fs" | grep -v '^erase-NVME0001-[0-9TZ]*\.json$')" ]; then
		check "exFAT (no hard links): one whole record in the folder, no temporary file" "$1" \
			"rc == 0 and r['outcome'] == 'erased_and_verified' and r['exit_status'] == 0"
	else
		bad "exFAT (no hard links): one whole record in the folder, no temporary file (exit $rc; $(ls "$fs"))"
		sed 's/^/  stderr: /' "$out/rec.err" | head -n 4
	fi
	umount "$fs"
fi
[ -n "$loopdev" ] && losetup -d "$loopdev"
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=64k tmpfs "$fs" 2> /dev/null; then
	echo "skip erase record on a full file system: needs root to mount a small tmpfs"
else
	# Full before the erase: refused, nothing sent (NVMe Sanitize is admin opcode 84h).
	dd if=/dev/zero of="$fs/fill" bs=4k 2> /dev/null
	rm -f "$out/rec.log"
	run SHIM_NVME_SANITIZE=0:1 SHIM_LOG="$out/rec.log" -- $yes --sanitize-block-erase --sanitize-wait --erase-record "$fs/"
	touch "$out/rec.log"
	if [ "$rc" != 0 ] && ! grep -q 'nvme-admin: 84' "$out/rec.log" && [ -z "$(ls "$fs" | grep -v '^fill$')" ] &&
		grep -q "cannot be written to (No space left on device): the erase was not started" "$out/rec.err"; then
		ok "a full file system: the erase is refused, nothing sent, no file left (exit $rc)"
	else
		bad "a full file system: the erase is refused, nothing sent, no file left (exit $rc)"
		sed 's/^/  /' "$out/rec.err" | head -n 4
	fi
	rm -f "$fs/fill"
	# Filled while the drive erases (three polls of a second): the record is still written, whole.
	run_bg() {
		env SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_SANICAP=7 SHIM_BLOCK_DEV=259:900000 \
			SHIM_NVME_SANITIZE=1000:2,8000:2,c000:2,0:1 SHIM_DISK_IMAGE="$out/rec-before.img" \
			SHIM_DISK_IMAGE_AFTER="$out/rec-pattern.img" "${preload[@]}" "$asan" "$H" $yes --sanitize-block-erase \
			--sanitize-wait --erase-record "$fs/" /dev/null > "$out/rec.out" 2> "$out/rec.err" &
		pid=$!
	}
	run_bg
	until_true 10 reserved "$fs"
	dd if=/dev/zero of="$fs/fill" bs=1k 2> /dev/null
	wait_within 120 "$pid"
	set -- "$fs"/erase-NVME0001-*.json
	if [ "$#" = 1 ] && [ -f "$1" ] && [ "$(ls "$fs" | wc -l)" = 2 ]; then
		check "filled during the erase: the record written over its reserved room, whole" "$1" \
			"rc == 0 and r['outcome'] == 'erased_and_verified' and r['exit_status'] == 0"
	else
		bad "filled during the erase: the record written over its reserved room, whole (exit $rc; $(ls "$fs"))"
	fi
	# Full, and the reserved file gone too: the whole record on stderr, and the exit says so.  The
	# double holds the Sanitize (sent: the record says so) until the file is gone and the room taken:
	# taken before, the record could not say "sent", and the erase would rightly not go out.
	rm -f "$fs"/* "$out/rec-gate" "$out/rec.log"
	SHIM_NVME_DELAY=84 SHIM_DELAY_MS="until:$out/rec-gate" SHIM_LOG="$out/rec.log" run_bg
	until_true 30 grep -qs '^nvme-admin: 84 ' "$out/rec.log" || bad "nowhere to write it: the Sanitize held (not sent)"
	rm -f "$fs"/erase-*.json
	dd if=/dev/zero of="$fs/fill" bs=1k 2> /dev/null
	touch "$out/rec-gate"
	wait_within 120 "$pid"
	sed -n '/^{$/,/^}$/p' "$out/rec.err" > "$out/rec-stderr.json"
	if [ "$rc" != 0 ] && grep -q -- "--erase-record: $fs/erase-NVME0001-.*\.json could not be written: No space left on device; the record follows on stderr" "$out/rec.err"; then
		check "nowhere to write it: the whole record on stderr" "$out/rec-stderr.json" \
			"r['outcome'] == 'erased_and_verified' and r['erase']['sent']"
	else
		bad "nowhere to write it: the whole record on stderr (exit $rc)"
		sed 's/^/  /' "$out/rec.err" | head -n 4
	fi
	umount "$fs"
fi

# ATA SECURITY ERASE UNIT (5 s in the double) stopped by SIGTERM or SIGHUP (a closed terminal):
# hdparm exits 128 + the signal, its record says interrupted, sent, with that exit status.
for sig in TERM HUP; do
	rm -f "$out/rec-ata-$sig.json" "$out/rec.log"
	env SHIM_IDENTIFY="$crafted" SHIM_BLOCK_DEV=8:900000 SHIM_DISK_IMAGE="$out/rec-before.img" SHIM_DELAY_MS=5000 \
		SHIM_DELAY_CMD=f4 SHIM_LOG="$out/rec.log" "${preload[@]}" "$asan" "$H" --security-erase pw \
		--erase-record "$out/rec-ata-$sig.json" /dev/null > "$out/rec.out" 2> "$out/rec.err" &
	pid=$!
	until_true 10 grep -qs '^cdb: 85 .* f4 ' "$out/rec.log"
	kill -s "$sig" "$pid"
	wait_within 120 "$pid"
	want=$((128 + $(kill -l "$sig")))
	check "SIG$sig during SECURITY ERASE UNIT: the record says interrupted, exit $want" "$out/rec-ata-$sig.json" \
		"rc == $want and r['outcome'] == 'interrupted' and r['erase']['sent'] and r['exit_status'] == $want"
done

# --json and a signal while the erase or format runs in the drive (issue 65, item 5): the device's
# object says it was interrupted, that the drive goes on, the signal, erase_outcome interrupted, the
# line said naming the disk; exit 128 + the signal (--set-sector-size: its sector_format object
# says so).  The command (ATA F4h; NVMe Format NVM, admin opcode 80h, on a namespace numbered
# 259:904000, which no host has) is held until the test opens the gate.
for c in "security_erase:f4:hdparm -I /dev/null" "format_erase:80:the format of /dev/null goes on" \
	"sector_format:80:the format of /dev/null goes on"; do
	IFS=: read -r key op said <<< "$c"
	rm -f "$out/rec.log" "$out/rec-gate"
	if [ "$key" = security_erase ]; then
		args=(SHIM_IDENTIFY="$crafted" SHIM_DELAY_CMD=f4 "${preload[@]}" "$asan" "$H" --json --security-erase pw)
	elif [ "$key" = format_erase ]; then
		args=(SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_BLOCK_DEV=259:904000 SHIM_NVME_DELAY=80 "${preload[@]}"
			"$asan" "$H" --json $yes --format-erase user)
	else
		args=(SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_BLOCK_DEV=259:904000 SHIM_NVME_DELAY=80 "${preload[@]}"
			"$asan" "$H" --json --please-destroy-my-drive --set-sector-size 4096)
	fi
	env --default-signal=INT,QUIT SHIM_DELAY_MS="until:$out/rec-gate" SHIM_LOG="$out/rec.log" "${args[@]}" /dev/null \
		> "$out/rec.out" 2> "$out/rec.err" &
	pid=$!
	until_true 10 grep -qs -e "^cdb: 85 .* $op " -e "^nvme-admin: $op" "$out/rec.log"
	kill -s INT "$pid"
	wait "$pid"
	rc=$?
	touch "$out/rec-gate"
	if [ "$rc" = 130 ] && "$py" - "$out/rec.out" "$key" "$said" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
[dev] = d['devices']
o = dev[sys.argv[2]]
assert dev['name'] == '/dev/null' and dev.get('erase_outcome', 'interrupted') == 'interrupted', dev
assert o['interrupted'] is True and o['drive_continues'] is True and o['signal'] == 2 and o.get('completed') is not True, o
assert sys.argv[2] == 'sector_format' or dev['erase_outcome'] == 'interrupted', dev
assert any(sys.argv[3] in e['message'] for e in dev['errors']), dev['errors']
EOF2
	then
		ok "--json, SIGINT during $key: the device's object says interrupted, the drive goes on, exit 130"
	else
		bad "--json, SIGINT during $key: the device's object says interrupted, the drive goes on, exit 130 (exit $rc)" \
			"$(head -c 300 "$out/rec.out")" "$(head -n 3 "$out/rec.err")"
	fi
done

# A sanitize that never ends (SSTAT 2: in progress), waited for: SIGKILL leaves the record made
# before the erase went out (outcome unknown, sent, no exit status) and no temporary file;
# SIGTERM ends the wait, and the record is whole: sent during the wait (the double holds its first
# poll, Get Log Page 02h), and as the Sanitize (84h) goes out, before the wait has begun (the
# signal is held until it has: it once killed hdparm there, exit 143, the record left unknown).
for hold in KILL:84 TERM:84 TERM:02; do
	sig=${hold%:*} opcode=${hold#*:}
	rm -f "$out/rec-$sig.json"* "$out/rec-gate" "$out/rec-wait.log"
	env SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_SANICAP=7 SHIM_NVME_SANITIZE=0:2 \
		SHIM_NVME_DELAY="$opcode" SHIM_DELAY_MS="until:$out/rec-gate" SHIM_LOG="$out/rec-wait.log" \
		SHIM_BLOCK_DEV=259:900000 SHIM_DISK_IMAGE="$out/rec-before.img" "${preload[@]}" "$asan" \
		"$H" $yes --sanitize-block-erase --sanitize-wait --erase-record "$out/rec-$sig.json" /dev/null \
		> /dev/null 2>&1 &
	pid=$!
	until_true 30 grep -qs "^nvme-admin: $opcode " "$out/rec-wait.log" || bad "SIG$sig: the double held command ${opcode}h"
	kill -s "$sig" "$pid"
	touch "$out/rec-gate"
	{ wait "$pid"; } 2> /dev/null
	rc=$?
	if [ "$sig" = KILL ]; then
		if [ "$(ls "$out/rec-$sig.json"* 2> /dev/null)" = "$out/rec-$sig.json" ]; then
			check "killed during the erase: the record says unknown, sent, no exit status; no temporary file" \
				"$out/rec-$sig.json" "rc == 137 and r['outcome'] == 'unknown' and r['erase']['sent']
				 and r['exit_status'] is None and r['erase']['command'] == 'NVMe Sanitize (block erase)'"
		else
			bad "killed during the erase: one record, no temporary file ($(ls "$out/rec-$sig.json"*))"
		fi
	elif [ "$opcode" = 84 ]; then
		check "SIGTERM as the Sanitize goes out, before the wait: the wait ends at once, a whole record, wait_interrupted" \
			"$out/rec-$sig.json" "rc == 4 and r['outcome'] == 'wait_interrupted' and r['erase']['sent']"
	else
		check "SIGTERM during the wait: a whole record, wait_interrupted" "$out/rec-$sig.json" \
			"rc == 4 and r['outcome'] == 'wait_interrupted' and r['erase']['sent']"
	fi
done
# A sanitize not waited for, SIGINT while its Sanitize (84h) is in the kernel (held by the double):
# --json still writes the device's object, which says interrupted, and the record says so; exit 130
# (stdout was empty: the signal's default action ended hdparm).
rm -f "$out/rec-INT.json"* "$out/rec-gate" "$out/rec-wait.log"
env --default-signal=INT SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_SANICAP=7 SHIM_NVME_DELAY=84 \
	SHIM_DELAY_MS="until:$out/rec-gate" SHIM_LOG="$out/rec-wait.log" SHIM_BLOCK_DEV=259:900000 \
	SHIM_DISK_IMAGE="$out/rec-before.img" "${preload[@]}" "$asan" "$H" --json $yes --sanitize-block-erase \
	--erase-record "$out/rec-INT.json" /dev/null > "$out/rec.out" 2> "$out/rec.err" &
pid=$!
until_true 30 grep -qs "^nvme-admin: 84 " "$out/rec-wait.log" || bad "SIGINT: the double held command 84h"
kill -s INT "$pid"
wait_within 30 "$pid"
touch "$out/rec-gate"
if [ "$rc" = 130 ] && "$py" - "$out/rec.out" 2> /dev/null <<'EOF2'
import json, sys
[dev] = json.load(open(sys.argv[1]))['devices']
assert dev['name'] == '/dev/null' and dev['erase_outcome'] == 'interrupted', dev
assert dev['sanitize']['interrupted'] is True and dev['sanitize']['signal'] == 2, dev
EOF2
then
	check "--json, SIGINT as a sanitize not waited for goes out: the device's object and the record say interrupted, exit 130" \
		"$out/rec-INT.json" "r['outcome'] == 'interrupted' and r['erase']['sent'] and r['exit_status'] == 130"
else
	bad "--json, SIGINT as a sanitize not waited for goes out: the device's object and the record say interrupted, exit 130" \
		"exit $rc" "stdout: $(head -c 300 "$out/rec.out")" "stderr: $(head -n 3 "$out/rec.err")"
fi
# A FILE that is not a regular file is left alone (issue 60, item 10): a device node (as root,
# --erase-record /dev/stdout once made the system's /dev/stdout a file), a FIFO, a symbolic link
# (to a file: neither it nor the file is replaced), a dangling link.  Refused when the command line
# is read: one line, exit 22, nothing sent to the disk (the double's log stays empty).
rm -rf "$out/rec-kinds"
mkdir -p "$out/rec-kinds"
echo "another file" > "$out/rec-kinds/target"
kinds=("a FIFO:fifo:-p" "a symbolic link:link:-L" "a symbolic link:dangling:-L")
mkfifo "$out/rec-kinds/fifo"
ln -s target "$out/rec-kinds/link"
ln -s nowhere "$out/rec-kinds/dangling"
if [ "$(id -u)" = 0 ] && mknod "$out/rec-kinds/node" c 1 3; then
	kinds+=("a device node:node:-c")
else
	echo "skip erase record: a device node as FILE needs root (mknod)"
fi
for k in "${kinds[@]}"; do
	IFS=: read -r kind name test_op <<< "$k"
	f=$out/rec-kinds/$name
	run SHIM_NVME_SANITIZE=0:1 -- $yes --sanitize-block-erase --sanitize-wait --erase-record "$f"
	if [ "$rc" = 22 ] && [ ! -s "$out/rec.log" ] && test "$test_op" "$f" && [ "$(cat "$out/rec-kinds/target")" = "another file" ] &&
		[ "$(cat "$out/rec.err")" = "--erase-record $f: $kind, not a regular file or a folder: refused, nothing was sent" ] &&
		[ "$(ls "$out/rec-kinds" | wc -l)" = "$((${#kinds[@]} + 1))" ]; then
		ok "--erase-record naming $kind ($name): refused at once, nothing sent, left as it was, exit 22"
	else
		bad "--erase-record naming $kind ($name): refused at once, nothing sent, left as it was (exit $rc)" \
			"$(ls -l "$out/rec-kinds" | tr '\n' '|')" "$(head -c 300 "$out/rec.err")" "$(head -n 2 "$out/rec.log")"
	fi
done
# A link to a folder is a folder: the record is a new file of its own in it, nothing replaced.
rm -rf "$out/rec-linked" "$out/rec-folder-link"
mkdir -p "$out/rec-linked"
ln -s rec-linked "$out/rec-folder-link"
run SHIM_NVME_SANITIZE=0:1 SHIM_DISK_IMAGE_AFTER="$out/rec-pattern.img" -- $yes --sanitize-block-erase --sanitize-wait \
	--erase-record "$out/rec-folder-link"
set -- "$out"/rec-linked/erase-NVME0001-*.json
if [ "$#" = 1 ] && [ -f "$1" ] && [ -L "$out/rec-folder-link" ]; then
	check "a symbolic link to a folder: one record in the folder, the link kept" "$1" "rc == 0 and r['outcome'] == 'erased_and_verified'"
else
	bad "a symbolic link to a folder: one record in the folder, the link kept (exit $rc; $(ls "$out/rec-linked"))"
fi
# ... and checked again when the record is written: FILE replaced by a FIFO while the drive erases
# (a sanitize that never ends, waited for, then SIGTERM) is left a FIFO, and the record goes to stderr.
# The FIFO has a reader: hdparm must not even open it (opening a device node acts, and a FIFO's
# reader is woken).  The reader holds it open; POLLHUP afterwards says a writer came and went.
rm -f "$out/rec-swap.json"* "$out/rec-swap-ready" "$out/rec-swap-done"
env SHIM_NVME="$ctrl,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_SANICAP=7 SHIM_NVME_SANITIZE=0:2 SHIM_BLOCK_DEV=259:900000 \
	SHIM_DISK_IMAGE="$out/rec-before.img" "${preload[@]}" "$asan" "$H" $yes --sanitize-block-erase --sanitize-wait \
	--erase-record "$out/rec-swap.json" /dev/null > "$out/rec.out" 2> "$out/rec.err" &
pid=$!
until_true 10 grep -qs '"outcome": "unknown"' "$out/rec-swap.json"
rm -f "$out/rec-swap.json"
mkfifo "$out/rec-swap.json"
python3 - "$out/rec-swap.json" "$out/rec-swap-ready" "$out/rec-swap-done" > "$out/rec-swap.watch" <<'EOF' &
import os, select, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
open(sys.argv[2], 'w').close()
while not os.path.exists(sys.argv[3]):
    time.sleep(0.05)
p = select.poll()
p.register(fd, select.POLLIN)
print('opened' if any(e & select.POLLHUP for _, e in p.poll(0)) else 'not opened')
EOF
watcher=$!
until_true 10 test -e "$out/rec-swap-ready"
kill -s TERM "$pid"
wait_within 120 "$pid"
touch "$out/rec-swap-done"
wait_within 120 "$watcher" ended
sed -n '/^{$/,/^}$/p' "$out/rec.err" > "$out/rec-stderr.json"
if [ -p "$out/rec-swap.json" ] && [ "$(ls "$out"/rec-swap.json*)" = "$out/rec-swap.json" ] &&
	[ "$(cat "$out/rec-swap.watch")" = "not opened" ] &&
	grep -qF -- "--erase-record: $out/rec-swap.json could not be written: not a regular file" "$out/rec.err"; then
	check "FILE made a FIFO during the erase: left a FIFO, not opened, no temporary file, the record on stderr" \
		"$out/rec-stderr.json" "rc == 4 and r['outcome'] == 'wait_interrupted' and r['erase']['sent']"
else
	bad "FILE made a FIFO during the erase: left a FIFO, not opened, no temporary file, the record on stderr (exit $rc)" \
		"$(ls -l "$out"/rec-swap.json*)" "the FIFO's reader: $(cat "$out/rec-swap.watch")" "$(head -n 3 "$out/rec.err")"
fi
rm -f "$out/rec-swap.json" "$out/rec-swap-ready" "$out/rec-swap-done"

# A record that cannot say "sent" just before the erase (issue 60, item 11): a TCG PSID revert whose
# record's file system turns read-only between the record made (not_started) and the Revert (held at
# its Level 0 Discovery, TRUSTED RECEIVE 5Ch, until the test opens the gate).  Nothing of the session
# is sent (no TRUSTED SEND, 5Eh); one line says why; the record, on stderr, says refused, not sent.
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=1m tmpfs "$fs" 2> /dev/null; then
	echo "skip erase record: a record turned read-only before the erase needs root to mount a tmpfs"
else
	rm -f "$out/rec-gate" "$out/rec.log"
	env SHIM_IDENTIFY="$top/tests/identify/pages/qemu-ahci-hdd.hex" SHIM_TCG="$top/tests/tcg/crucial-mx500.txt" \
		SHIM_TCG_PSID=ABCDEFGHIJKLMNOPQRSTUVWXYZ012345 SHIM_BLOCK_DEV=8:900000 SHIM_DISK_IMAGE="$out/rec-before.img" \
		SHIM_DELAY_CMD=5c SHIM_DELAY_MS="until:$out/rec-gate" SHIM_LOG="$out/rec.log" "${preload[@]}" "$asan" "$H" $yes \
		--tcg-psid-revert ABCDEFGHIJKLMNOPQRSTUVWXYZ012345 --erase-record "$fs/rec.json" /dev/null \
		> "$out/rec.out" 2> "$out/rec.err" &
	pid=$!
	until_true 10 eval 'grep -qs "\"outcome\": \"not_started\"" "$fs/rec.json" && grep -qs "^cdb: .* 5c 00\$" "$out/rec.log"'
	mount -o remount,ro "$fs"
	touch "$out/rec-gate"
	wait_within 120 "$pid"
	sed -n '/^{$/,/^}$/p' "$out/rec.err" > "$out/rec-stderr.json"
	if [ "$rc" = 30 ] && ! grep -q '^cdb: .* 5e 00$' "$out/rec.log" && ! grep -q '^Issuing' "$out/rec.out" &&
		grep -qxF " --erase-record: $fs/rec.json could not be marked sent (Read-only file system): the erase was not sent, since its record could not say so" "$out/rec.err" &&
		grep -qs '"outcome": "not_started"' "$fs/rec.json"; then
		check "the record's file system read-only before the Revert: nothing sent, said, exit 30; refused, not sent" \
			"$out/rec-stderr.json" "r['outcome'] == 'refused' and not r['erase']['sent'] and r['erase']['began'] is None
			 and r['exit_status'] == 30"
	else
		bad "the record's file system read-only before the Revert: nothing sent, said, exit 30 (exit $rc)" \
			"$(grep -c '^cdb: .* 5e 00$' "$out/rec.log") TRUSTED SENDs" "$(head -n 3 "$out/rec.err")"
	fi
	umount "$fs"
fi
rm -f "$out/rec-gate"
echo "end of suite"
