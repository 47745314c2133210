#!/bin/bash
# --set-sector-size on a SCSI disk, against the test double's SAS disk that formats
# (tests/tools/sgio-shim.c, SHIM_SCSI_FORMAT=S: FORMAT UNIT runs S seconds, REQUEST SENSE says
# NOT READY, FORMAT IN PROGRESS with the progress).  The MODE SELECT and FORMAT UNIT sent are
# compared with what sg_format sends under the same double; the VPD B4h listing with sg_vpd's
# decoding of the same page; the block counts after are the double's (its medium keeps its bytes).
# Usage: scsi-format-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
suite="scsi format" double_name=scsi-format
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
# shellcheck source=tests/tools/oracle.sh
. "$top/tests/tools/oracle.sh"
destroy=--please-destroy-my-drive
asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
# shellcheck source=tests/tools/schema-python.sh
. "$top/tests/tools/schema-python.sh" "scsi format"
# A used array drive: 520-byte blocks with protection type 2, a million 512-byte blocks' worth.
used=(SHIM_SCSI_BLOCK_LEN=520 SHIM_SCSI_PROT=2 SHIM_SCSI_PROTECT=1)

# run ENV... -- ARGS...: hdparm on the double's disk(s) (default /dev/null); rc, took, $out/fmt.{out,err,log}
run() { run_on_double fmt SHIM_SCSI=1 SHIM_SCSI_FORMAT=2 SHIM_SCSI_BLOCKS=1000000 "$@"; }

# result STATUS NAME: ok, or FAIL with the last run's output.
result() { result_of fmt "$@"; }

# The MODE SELECT and FORMAT UNIT of a log (CDB and data lines), one line.
formatting() { grep -A1 '^cdb: 55\|^cdb: 04' "$1" | grep -v '^--' | tr '\n' ';'; }
# Nothing that changes the disk went out: no MODE SELECT, no FORMAT UNIT.
nothing_sent() { ! grep -q '^cdb: 55\|^cdb: 04' "$out/fmt.log"; }

# --- the bytes, from SBC-3's layouts, whatever sg_format sends: FORMAT UNIT (04h) byte 1 FMTPINFO
# (bits 7:6) | FMTDATA 10h | CMPLST 08h, and the short parameter list header: byte 0 PROTECTION FIELD
# USAGE, byte 1 IMMED 02h, a defect list of length 0.  Table 38: type 0 FMTPINFO 00b; type 1 10b;
# type 2 11b with PFU 0; type 3 11b with PFU 1.
while IFS='|' read -r ours cdb data disk; do
	read -r -a disk_env <<< "$disk"
	# shellcheck disable=SC2086 # ours are words
	run SHIM_LOG_FULL=1 "${disk_env[@]}" -- $ours $destroy /dev/null
	got=$(grep -A1 '^cdb: 04' "$out/fmt.log" | tr '\n' ';')
	[ "$rc" = 0 ] && [ "$got" = "cdb: $cdb;data: $data;" ]
	result $? "$ours: FORMAT UNIT $cdb, parameter list $data (SBC-3 table 38)" || echo "  got: $got"
done <<'EOF'
--set-sector-size 4096 --protection-info 0|04 18 00 00 00 00|00 02 00 00|SHIM_SCSI_PROTECT=1
--set-sector-size 4096 --protection-info 1|04 98 00 00 00 00|00 02 00 00|SHIM_SCSI_PROTECT=1
--set-sector-size 512 --protection-info 2|04 d8 00 00 00 00|00 02 00 00|SHIM_SCSI_BLOCK_LEN=520 SHIM_SCSI_PROTECT=1
--set-sector-size 512 --protection-info 3|04 d8 00 00 00 00|01 02 00 00|SHIM_SCSI_BLOCK_LEN=520 SHIM_SCSI_PROTECT=1
EOF

# --- the bytes, against sg_format under the same double ---
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle "scsi format" sg_format "sg3-utils' sg_format"; then
	while IFS='|' read -r ours theirs disk; do
		read -r -a disk_env <<< "$disk"
		rm -f "$out/fmt-their.log"
		# shellcheck disable=SC2086 # their options are words
		env SHIM_SCSI=1 SHIM_SCSI_FORMAT=2 SHIM_SCSI_BLOCKS=1000000 SHIM_LOG="$out/fmt-their.log" "${disk_env[@]}" \
			"${preload[@]}" timeout 30 sg_format --format $theirs --quick --early /dev/null > /dev/null 2>&1
		# shellcheck disable=SC2086 # ours are words
		run "${disk_env[@]}" -- $ours $destroy /dev/null
		mine=$(formatting "$out/fmt.log") their=$(formatting "$out/fmt-their.log")
		[ "$rc" = 0 ] && [ -n "$their" ] && [ "$mine" = "$their" ]
		result $? "$ours: the MODE SELECT and FORMAT UNIT sg_format $theirs sends" ||
			printf '  ours:   %s\n  theirs: %s\n' "$mine" "$their"
	done <<'EOF'
--set-sector-size 512|--size=512 --fmtpinfo=0|SHIM_SCSI_BLOCK_LEN=520 SHIM_SCSI_PROT=2 SHIM_SCSI_PROTECT=1
--set-sector-size 4096|--size=4096|SHIM_SCSI_PROTECT=1
--set-sector-size 4096 --protection-info 1|--size=4096 --fmtpinfo=2|SHIM_SCSI_PROTECT=1
--set-sector-size 512 --protection-info 2|--size=512 --fmtpinfo=3|SHIM_SCSI_BLOCK_LEN=520 SHIM_SCSI_PROTECT=1
--set-sector-size 512 --protection-info 3|--size=512 --fmtpinfo=3 --pfu=1|SHIM_SCSI_BLOCK_LEN=520 SHIM_SCSI_PROTECT=1
--set-sector-size 4096|--size=4096|SHIM_SCSI_BLOCKS=5000000000
EOF
fi

# --- the wait, and old -> new ---
run "${used[@]}" -- --set-sector-size 512 --format-wait $destroy /dev/null
[ "$rc" = 0 ] && grep -qxF ' block size: 520 -> 512 bytes; blocks: 984615 -> 1000000; protection information: type 2 -> none' "$out/fmt.out" &&
	grep -qx 'Format completed' "$out/fmt.out" && [ "$(grep -c '^cdb: 03' "$out/fmt.log")" -ge 2 ] &&
	! grep -q 'format: [0-9]*% done' "$out/fmt.err"
result $? "--set-sector-size 512 --format-wait on a 520-byte type 2 disk: REQUEST SENSE polled, old -> new, no status line in a log"
grep -qx ' this disk lists no block lengths (no VPD page B4h): 520-byte blocks now; another length is the disk'"'"'s to take or refuse' "$out/fmt.out"
result $? "a disk without VPD B4h: said, the disk decides"

run "${used[@]}" -- --json --set-sector-size 512 --format-wait $destroy /dev/null
[ "$rc" = 0 ] && python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))["devices"][0]["sector_format"]
sys.exit(0 if (f["before"]["block_bytes"], f["before"]["protection_type"], f["after"]["block_bytes"], f["after"]["protection_type"],
               f["after"]["blocks"]) == (520, 2, 512, 0, 1000000) else 1)' "$out/fmt.out"
result $? "--json: sector_format before (520, type 2) and after (512, none)"

run -- --set-sector-size 4096 $destroy /dev/null
[ "$rc" = 0 ] && grep -qx 'Format started in background: the disk answers NOT READY until it ends' "$out/fmt.out" &&
	! grep -q '^cdb: 03' "$out/fmt.log" && grep -q '^cdb: 04' "$out/fmt.log"
result $? "without --format-wait: FORMAT UNIT sent, started in the background, not polled"

run -- --format-wait /dev/null
[ "$rc" = 0 ] && grep -qx 'No format in progress' "$out/fmt.out" && nothing_sent
result $? "--format-wait alone on an idle disk: no format in progress"

run SHIM_SCSI_FORMAT_FAIL=1 -- --json --set-sector-size 4096 --format-wait $destroy /dev/null
[ "$rc" = 5 ] && grep -q 'the format failed: medium error, format command failed (ASC 31h, ASCQ 01h)' "$out/fmt.err" &&
	python3 -c 'import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["devices"][0]["sector_format"]["failed"] is True else 1)' "$out/fmt.out"
result $? "a format that fails half way: its sense said, failed in JSON, exit 5"

run SHIM_SCSI_KERNEL_STALE=1 -- --set-sector-size 4096 --format-wait $destroy /dev/null
[ "$rc" = 5 ] && grep -q "the kernel still has /dev/null's block size as 512 bytes, the disk 4096" "$out/fmt.err"
result $? "the kernel keeps the old block size: a failure, said"

# The kernel made to agree in that order: the SCSI disk rescanned (sysfs device/rescan), then the
# partition table read again (BLKRRPART), so that it is read in the new block size, not the old.
rm -rf "$out/fmt-sys" "$out/fmt.log.kernel"
mkdir -p "$out/fmt-sys/sys/dev/block/8:900000/device"
run SHIM_SYSFS="$out/fmt-sys" SHIM_BLOCK_DEV=8:900000 SHIM_SCSI_KERNEL_STALE=1 -- --set-sector-size 4096 --format-wait $destroy /dev/null
order=$(grep -o 'BLKRRPART\|device/rescan$' "$out/fmt.log.kernel" 2> /dev/null | tr '\n' ' ')
[ "$order" = "device/rescan BLKRRPART " ]
result $? "after the format: the disk rescanned, then its partitions read again (${order:-nothing logged})"

# --- refusals: nothing sent ---
run -- --set-sector-size 4096 /dev/null
[ "$rc" = 1 ] && nothing_sent && grep -q 'please-destroy-my-drive' "$out/fmt.err"
result $? "without --please-destroy-my-drive: refused, nothing sent"

b4=SHIM_SCSI_B4=512:1,4096:1,520:f
run "${used[@]}" $b4 -- --set-sector-size 1024 $destroy /dev/null
[ "$rc" = 22 ] && nothing_sent && grep -q 'this disk has no format of 1024-byte blocks' "$out/fmt.err"
result $? "a length VPD B4h does not list: refused, nothing sent"
run "${used[@]}" $b4 -- --set-sector-size 4096 --protection-info 2 $destroy /dev/null
[ "$rc" = 22 ] && nothing_sent &&
	grep -q 'does not take protection type 2 with 4096-byte blocks (it takes: none)' "$out/fmt.err"
result $? "a protection type VPD B4h does not list for the length: refused, nothing sent"
run -- --set-sector-size 512 --protection-info 1 $destroy /dev/null
[ "$rc" = 22 ] && nothing_sent && grep -q 'cannot be formatted with protection information' "$out/fmt.err"
result $? "protection information on a disk without INQUIRY's PROTECT: refused, nothing sent"
# Without B4h, the types Extended INQUIRY's SPT names (SPC-4 7.8.7): 000b type 1 only, 101b types 2 and 3.
run SHIM_SCSI_PROTECT=1 SHIM_SCSI_SPT=0 -- --set-sector-size 512 --protection-info 2 $destroy /dev/null
[ "$rc" = 22 ] && nothing_sent && grep -q 'does not take protection type 2 with 512-byte blocks (it takes: none, type 1)' "$out/fmt.err"
result $? "no B4h, SPT 000b: type 2 refused, naming type 1; nothing sent"
run SHIM_SCSI_PROTECT=1 SHIM_SCSI_SPT=5 -- --set-sector-size 512 --protection-info 3 $destroy /dev/null
[ "$rc" = 0 ] && [ "$(formatting "$out/fmt.log")" != "" ]
result $? "no B4h, SPT 101b: type 3 taken, the format sent"
run SHIM_SCSI_LENGTHS=512,520 -- --set-sector-size 4096 $destroy /dev/null
[ "$rc" = 95 ] && ! grep -q '^cdb: 04' "$out/fmt.log" &&
	grep -q 'refused a block length of 4096 bytes: illegal request (invalid field in parameter list)' "$out/fmt.err"
result $? "a length MODE SELECT refuses: said, no FORMAT UNIT"
run -- --set-sector-size 4096 --lbaf 1 $destroy /dev/null
[ "$rc" = 22 ] && nothing_sent
result $? "--lbaf on a SCSI disk: refused, nothing sent"
run "${used[@]}" -- --set-sector-size 520 --protection-info 2 $destroy /dev/null
[ "$rc" = 0 ] && nothing_sent && grep -qx ' already formatted with 520-byte blocks: nothing sent' "$out/fmt.out"
result $? "the format in use asked for: nothing sent"

# The modifiers: only with --set-sector-size; an ATA drive's SET SECTOR CONFIGURATION has neither.
run -- --protection-info 1 /dev/null
[ "$rc" = 22 ] && nothing_sent && grep -qx -- '--protection-info and --lbaf go with --set-sector-size' "$out/fmt.err"
result $? "--protection-info without --set-sector-size: a command-line error"
rm -f "$out/fmt.log"
env SHIM_LOG="$out/fmt.log" "${preload[@]}" "$asan" "$H" --set-sector-size 4096 --protection-info 1 $destroy /dev/null \
	> "$out/fmt.out" 2> "$out/fmt.err"
rc=$?
touch "$out/fmt.log"
[ "$rc" = 22 ] && [ -z "$(grep '^cdb: ' "$out/fmt.log" | grep -v ' ec 00$')" ] &&
	grep -q 'SET SECTOR CONFIGURATION has no protection information' "$out/fmt.err"
result $? "--protection-info on an ATA drive: refused"

# The listing of VPD B4h against sg_vpd's decoding of the same page.
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle "scsi format" sg_vpd "sg3-utils' sg_vpd"; then
	theirs=$(env SHIM_SCSI=1 SHIM_SCSI_PROTECT=1 $b4 "${preload[@]}" sg_vpd --page=sbl /dev/null 2> /dev/null | awk '
		/Logical block length:/ { if (len) print len ":" t; len = $4; t = "" }
		/T[0-3]PS: 1/ { t = t substr($1, 2, 1) }
		END { if (len) print len ":" t }' | tr '\n' ' ')
	run "${used[@]}" $b4 -- --set-sector-size 4096 /dev/null
	mine=$(sed -n 's/^ *[*>]* *[0-9]*: *\([0-9]*\) bytes data, protection information: \(.*\)$/\1:\2/p' "$out/fmt.out" |
		sed 's/none/0/; s/type //g; s/, //g' | while IFS=: read -r l t; do echo "$l:$(echo "$t" | rev)"; done | tr '\n' ' ')
	[ -n "$theirs" ] && [ "$mine" = "$theirs" ]
	result $? "the lengths and types of VPD B4h as sg_vpd decodes them ($theirs)" || printf '  ours:   %s\n  theirs: %s\n' "$mine" "$theirs"
fi

# --- protection information in -I: the Control mode page's ATO and DPICZ, against sdparm's decoding ---
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle "scsi format" sdparm; then
	for control in 00,00 08,00 00,80 08,80; do
		theirs=$(env SHIM_SCSI=1 SHIM_SCSI_CONTROL=$control "${preload[@]}" sdparm --page=co /dev/null 2> /dev/null |
			awk '$1 == "ATO" || $1 == "DPICZ" { print $1 " " $2 }' | sort | tr '\n' ' ')
		run SHIM_SCSI_PROT=2 SHIM_SCSI_CONTROL=$control -- -I /dev/null
		mine=$(sed -n 's/.*(\(ATO\|DPICZ\) \([01]\))$/\1 \2/p' "$out/fmt.out" | sort | tr '\n' ' ')
		run SHIM_SCSI_PROT=2 SHIM_SCSI_CONTROL=$control -- --json -I /dev/null
		json=$(python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["devices"][0]["identify"]["scsi_protection_control"]
print("ATO %d DPICZ %d " % (c["application_tag_owner"], c["no_check_when_protection_zero"]))' "$out/fmt.out" 2> /dev/null)
		[ "$rc" = 0 ] && [ "${#theirs}" -gt 8 ] && [ "$mine" = "$theirs" ] && [ "$json" = "$theirs" ]
		result $? "-I and --json -I on a type 2 disk, Control page $control: $theirs as sdparm reads it" ||
			printf '  ours: %s / %s\n  sdparm: %s\n' "$mine" "$json" "$theirs"
	done
fi
run SHIM_SCSI_CONTROL=08,80 -- -I /dev/null
[ "$rc" = 0 ] && ! grep -q '^cdb: 5a .. 0a' "$out/fmt.log" && ! grep -q 'ATO' "$out/fmt.out"
result $? "-I on a disk without protection information: the Control page not asked"

# SIGINT during --format-wait (a 20 s format): the wait ends, the format goes on in the disk, exit 4,
# and the record, whole, says the wait was interrupted with the disk's format before it (512 bytes,
# no protection), known since the format was sent.
rm -f "$out/fmt-int.json" "$out/fmt.log"
env --default-signal=INT,QUIT SHIM_SCSI=1 SHIM_SCSI_FORMAT=20 SHIM_SCSI_BLOCKS=1000000 SHIM_LOG="$out/fmt.log" "${preload[@]}" "$asan" \
	"$H" --set-sector-size 4096 --format-wait $destroy --erase-record "$out/fmt-int.json" /dev/null \
	> "$out/fmt.out" 2> "$out/fmt.err" &
pid=$!
until_true 10 grep -qs '^cdb: 03' "$out/fmt.log"
kill -s INT "$pid"
wait_within 120 "$pid"
[ "$rc" = 4 ] && grep -q 'interrupted: the format goes on in the drive' "$out/fmt.err" && python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
assert r["outcome"] == "wait_interrupted" and r["erase"]["sent"] and r["exit_status"] == 4, r["outcome"]
assert r["format"]["before"] == {"block_bytes": 512, "metadata_bytes": 0, "blocks": 1000000, "protection_type": 0}, r["format"]
assert r["format"]["after"] is None' "$out/fmt-int.json"
result $? "SIGINT during --format-wait: exit 4, the record says wait_interrupted, with the format before it" ||
	sed 's/^/  /' "$out/fmt.err" | head -n 3

# --- many disks at once (/dev/null, /dev/zero and /dev/full are three disks of the double) ---
# Together, not one after another: every disk's FORMAT UNIT (04h) is sent before any disk's wait has
# seen its format end (its last REQUEST SENSE, 03h): the order of the double's log, which a busy
# machine cannot upset.  The times are printed for the reader only.
run SHIM_SCSI_FORMAT=3 -- --set-sector-size 4096 --format-wait $destroy /dev/null
single=$took
run SHIM_SCSI_FORMAT=3 SHIM_LOG_DEVICE=1 -- --set-sector-size 4096 --format-wait $destroy /dev/null /dev/zero /dev/full
[ "$rc" = 0 ] && [ "$(grep -c '^ block size: 512 -> 4096 bytes' "$out/fmt.out")" = 3 ] &&
	awk '$2 == "cdb:" && $3 == "04" { formats++; last_format = NR } $2 == "cdb:" && $3 == "03" { last_poll[$1] = NR }
		END { first_end = 0; for (d in last_poll) if (!first_end || last_poll[d] < first_end) first_end = last_poll[d]
			exit !(formats == 3 && length(last_poll) == 3 && last_format < first_end) }' "$out/fmt.log"
together_ok=$?
# The seconds go on a line of their own: the cross builds compare the result lines with native's.
echo "  three formats: ${single%???????} s alone, ${took%???????} s together"
result $together_ok "three disks formatted together (every FORMAT UNIT sent before any disk's format ended), old -> new for each"
# On a terminal: the wait's status line, with the time left at the rate so far (a 4 s format polled
# once a second: a rate from the second poll on), one for each of two disks.
script -qec "env SHIM_SCSI=1 SHIM_SCSI_FORMAT=4 SHIM_SCSI_BLOCKS=1000000 ${preload[*]} $asan $H --set-sector-size 4096 --format-wait $destroy /dev/null" \
	/dev/null > "$out/fmt.tty" < /dev/null
rc=$?
[ "$rc" = 0 ] && grep -q 'format: [0-9]*% done, about [0-9]* s left' "$out/fmt.tty" && grep -q 'Format completed' "$out/fmt.tty"
result $? "on a terminal: a status line with the time left"
script -qec "env SHIM_SCSI=1 SHIM_SCSI_FORMAT=4 SHIM_SCSI_BLOCKS=1000000 ${preload[*]} $asan $H --set-sector-size 4096 --format-wait $destroy /dev/null /dev/zero" \
	/dev/null > "$out/fmt.tty" < /dev/null
rc=$?
[ "$rc" = 0 ] && grep -q '/dev/null: format: [0-9]*% done' "$out/fmt.tty" && grep -q '/dev/zero: format: [0-9]*% done' "$out/fmt.tty"
result $? "two disks on a terminal: a status line each"

# One record each (--erase-record DIR/): the format's command, before and after, outcome formatted.
rm -rf "$out/fmt-records"
mkdir -p "$out/fmt-records"
run "${used[@]}" -- --set-sector-size 512 --format-wait --erase-record "$out/fmt-records/" $destroy /dev/null /dev/zero /dev/full
n=0 bad=
for f in "$out"/fmt-records/erase-*.json; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	"$py" - "$f" "$schema" 2> /dev/null << 'PY' || bad="$bad $(basename "$f")"
import json, sys, jsonschema
r = json.load(open(sys.argv[1]))
jsonschema.validate(r, json.load(open(sys.argv[2])))
assert r["outcome"] == "formatted" and r["erase"]["technique"] == "format" and r["erase"]["method"] is None
assert r["erase"]["command"] == "SCSI FORMAT UNIT to 512-byte blocks, protection type 0"
assert r["format"]["before"]["block_bytes"] == 520 and r["format"]["before"]["protection_type"] == 2
assert r["format"]["after"] == {"block_bytes": 512, "metadata_bytes": 0, "blocks": 1000000, "protection_type": 0}
assert r["verification"] == {"method": "none", "disks": []}
PY
done
[ "$rc" = 0 ] && [ "$n" = 3 ] && [ -z "$bad" ]
result $? "three disks, three records ($n), each valid, before and after, outcome formatted${bad:+ (bad:$bad)}"
rm -rf "$out/fmt-failed" && mkdir -p "$out/fmt-failed"
run SHIM_SCSI_FORMAT_FAIL=1 -- --set-sector-size 4096 --format-wait --erase-record "$out/fmt-failed/" $destroy /dev/null
[ "$rc" = 5 ] && "$py" -c 'import glob, json, sys, jsonschema
r = json.load(open(glob.glob(sys.argv[1] + "/erase-*.json")[0]))
jsonschema.validate(r, json.load(open(sys.argv[2])))
assert r["outcome"] == "failed" and "format command failed" in r["drive_status_after"] and r["format"]["after"] is None' \
	"$out/fmt-failed" "$schema"
result $? "--erase-record of a format that failed: outcome failed, the sense in drive_status_after"
run -- --set-sector-size 4096 --format-wait $destroy /dev/null "$out/no-such-disk" /dev/zero
# The last disk's exit: /dev/zero, not started (ECANCELED, 125).
[ "$rc" = 125 ] && nothing_sent && [ "$(grep -c "not started: $out/no-such-disk was refused" "$out/fmt.err")" = 2 ]
result $? "one of three disks refused: nothing sent to any"
echo "end of suite"
