#!/bin/bash
# Command bytes and sense decoding, against a test double of the drive.
# Usage: commands.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
page="$top/tests/identify/pages/qemu-ahci-hdd.hex"
# shellcheck source=tests/tools/oracle.sh
. "$top/tests/tools/oracle.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

double_name=cmd
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"

# run ENV... -- ARGS...: hdparm on the double; stdout, stderr and log in $out/cmd.*
run() { run_on_double cmd SHIM_IDENTIFY="$page" "$@" /dev/null; }

truncate -s 1536 "$out/fw.bin"
while IFS='|' read -r args want; do
	case "$args" in '#'* | '') continue ;; esac
	args=$(echo "$args" | sed 's/ *$//')
	want=$(echo "$want" | sed 's/^ *//; s/ *$//; s/ *; */\n/g')
	use=$page
	case "$args" in
	@crafted*) use="$top/tests/identify/pages/crafted-security-big.hex"; args=${args#@crafted } ;;
	esac
	args=${args//@fw/$out/fw.bin}
	# shellcheck disable=SC2086
	run SHIM_IDENTIFY="$use" -- $args
	got=$(sed 's/^cdb: //' "$out/cmd.log")
	if [ "$got" = "$(printf '%b' "$want")" ]; then
		ok "command bytes: hdparm $args"
	else
		bad "command bytes: hdparm $args"
		echo "  got:    $(echo "$got" | tr '\n' ';')"
		echo "  wanted: $(printf '%b' "$want" | tr '\n' ';')"
	fi
done < "$top/tests/commands.txt"

# expect NAME EXIT STDOUT-TEXT STDERR-TEXT: the last run's outcome.
expect() { expect_run cmd "$@"; }

# Completion registers come back in either sense format.
for fmt in descriptor fixed late; do
	run SHIM_SENSE=$fmt SHIM_COUNT=0x80 -- -C
	expect "sense $fmt: -C reads the count register" 0 "drive state is:  idle" ""
	run SHIM_SENSE=$fmt SHIM_COUNT=0xff -- -C
	expect "sense $fmt: -C active/idle" 0 "drive state is:  active/idle" ""
	run SHIM_SENSE=$fmt SHIM_COUNT=0x00 -- -C
	expect "sense $fmt: -C standby" 0 "drive state is:  standby" ""
	if [ "$fmt" != late ]; then
		run SHIM_SENSE=$fmt SHIM_LBA=0x01869f -- -N
		expect "sense $fmt: -N native max" 0 " max sectors   = 131072/100000" ""
	fi
	run SHIM_SENSE=$fmt SHIM_REPLY=abort -- -C
	expect "sense $fmt: an aborted -C is a failure" 5 "drive state is:  unknown" "CHECK POWER MODE failed: aborted command"
	run SHIM_SENSE=$fmt SHIM_REPLY=abort -- -B 200
	expect "sense $fmt: an aborted -B is a failure" 5 "setting Advanced Power Management level to 0xc8 (200)" "failed: aborted command"
	run SHIM_SENSE=$fmt SHIM_REPLY=abort -- -W
	expect "sense $fmt: a query after a failure still works" 0 "write-caching =  1 (on)" ""
	run SHIM_SENSE=$fmt SHIM_REPLY=medium -- -y
	expect "sense $fmt: medium error named" 5 "" "medium error (unrecovered read error, auto reallocate failed) (ATA status 0x51, error 0x40: UNC)"
	run SHIM_SENSE=$fmt SHIM_REPLY=medium SHIM_LBA=1234 -- --read-sector 1234
	expect "sense $fmt: failed read names the LBA, never succeeded" 5 "reading sector 1234: FAILED" "--read-sector 1234: medium error (unrecovered read error, auto reallocate failed) (ATA status 0x51, error 0x40: UNC)"
	run SHIM_SENSE=$fmt SHIM_REPLY=abort -- --write-sector 99 --yes-i-know-what-i-am-doing
	expect "sense $fmt: failed write is a failure" 5 "re-writing sector 99: FAILED" "--write-sector 99: aborted command (ATA status 0x51, error 0x04: ABRT)"
	run SHIM_SENSE=$fmt SHIM_REPLY=abort -- -H
	expect "sense $fmt: -H prints no temperature after a failure" 5 "" "aborted command"
done
run SHIM_SENSE=descriptor SHIM_REPLY=medium SHIM_LBA=104800 -- --read-sector 104800
expect "a medium error names the failing LBA" 5 "" "--read-sector 104800: medium error (unrecovered read error, auto reallocate failed) (ATA status 0x51, error 0x40: UNC), LBA 104800"
run SHIM_SENSE=late SHIM_REPLY=medium SHIM_LBA=104800 -- --read-sector 104800
if [ "$rc" = 5 ] && grep -q 'medium error' "$out/cmd.err" && ! grep -q ', LBA' "$out/cmd.err"; then
	ok "late-layout sense: no LBA claimed from a truncated register set"
else
	bad "late-layout sense: no LBA claimed from a truncated register set (exit $rc)"
fi
run SHIM_SENSE=fixed SHIM_LBA=0x100000000 -- -N
expect "sense fixed: LBA bits 47:24 missing is an error, not a wrong size" 5 "" "LBA bits 47:24 were not returned"
run SHIM_REPLY=nosense -- -C
expect "CHECK CONDITION without sense data" 5 "drive state is:  unknown" "bad/missing sense data"
run SHIM_REPLY=timeout -- -y
expect "a timeout is a failure" 110 "" "timed out"
# Every sense key, in both formats: a failure named by its key, never a result.
keys=("no sense" "recovered error" "not ready" "medium error" "hardware error" "illegal request"
	"unit attention" "data protect" "blank check" "vendor specific" "copy aborted" "aborted command"
	"reserved sense key 0xc" "volume overflow" "miscompare" "reserved sense key 0xf")
for fmt in descriptor fixed; do
	for key in $(seq 2 15); do
		run SHIM_SENSE=$fmt SHIM_REPLY=sense SHIM_KEY=$key SHIM_STATUS=0x51 SHIM_ERROR=0x04 -- -C
		expect "sense $fmt: key $key (${keys[$key]}) is a failure" 5 "drive state is:  unknown" "CHECK POWER MODE failed: ${keys[$key]}"
	done
	# Keys 0 and 1 with ERR set in the status register: still a failure.
	for key in 0 1; do
		run SHIM_SENSE=$fmt SHIM_REPLY=sense SHIM_KEY=$key SHIM_STATUS=0x51 SHIM_ERROR=0x10 -- -y
		expect "sense $fmt: key $key with ATA ERR is a failure" 5 "" "(ATA status 0x51, error 0x10: IDNF)"
	done
	# Common ASC/ASCQ pairs of ATA pass-through.
	for pair in "0x04 0x00 logical unit not ready" "0x11 0x00 unrecovered read error" \
		"0x0c 0x02 write error, auto reallocation failed" "0x21 0x00 logical block address out of range" \
		"0x24 0x00 invalid field in CDB" "0x3a 0x00 medium not present" "0x44 0x00 internal target failure" \
		"0x5d 0x10 asc 0x5d, ascq 0x10"; do
		set -- $pair
		asc=$1 ascq=$2
		shift 2
		run SHIM_SENSE=$fmt SHIM_REPLY=sense SHIM_KEY=3 SHIM_ASC=$asc SHIM_ASCQ=$ascq -- -y
		expect "sense $fmt: asc $asc/$ascq named" 5 "" "medium error ($*)"
	done
	# Status/error register combinations.
	for regs in "0x51 0x84 ICRC ABRT" "0x51 0x40 UNC" "0x71 0x04 ABRT" "0x51 0x01 AMNF"; do
		set -- $regs
		st=$1 er=$2
		shift 2
		run SHIM_SENSE=$fmt SHIM_REPLY=sense SHIM_KEY=0x0b SHIM_STATUS=$st SHIM_ERROR=$er -- -y
		expect "sense $fmt: status $st error $er decoded" 5 "" "(ATA status $st, error $er: $*)"
	done
done
# Truncated sense buffers: never a made-up register, always a failure.
for len in 1 2 3 7 8 12 13 21; do
	for fmt in descriptor fixed late; do
		run SHIM_SENSE=$fmt SHIM_REPLY=sense SHIM_KEY=3 SHIM_SENSE_LEN=$len -- -C
		c_rc=$rc
		c_ok=$(grep -c 'drive state is:  unknown' "$out/cmd.out")
		run SHIM_SENSE=$fmt SHIM_REPLY=sense SHIM_KEY=3 SHIM_SENSE_LEN=$len -- -y
		if [ "$c_rc" = 5 ] && [ "$c_ok" = 1 ] && [ "$rc" = 5 ] && [ -s "$out/cmd.err" ]; then
			ok "truncated $fmt sense ($len bytes) is a failure"
		else
			bad "truncated $fmt sense ($len bytes) is a failure (exit $c_rc, $rc)"
		fi
	done
done
run SHIM_REPLY=ok -- -C -q
expect "-C -q keeps the state line" 0 "drive state is:" ""

# --- Data safety: each destructive command reaches only what the user named ---

# Numbers with trailing characters: refused at the command line, nothing sent.
while read -r args; do
	case "$args" in '#'* | '') continue ;; esac
	# shellcheck disable=SC2086
	run -- $args
	if [ "$rc" = 22 ] && [ ! -s "$out/cmd.log" ] && [ "$(wc -l < "$out/cmd.err")" = 1 ]; then
		ok "trailing characters refused: hdparm $args"
	else
		bad "trailing characters refused: hdparm $args (exit $rc, $(wc -l < "$out/cmd.log") commands sent)"
		sed 's/^/  stderr: /' "$out/cmd.err" | head -3
	fi
done < "$top/tests/cmdline/trailing.txt"
run -- -S120y
expect "-S120y: a value in the option's word may be followed by more options" 0 " issuing standby command" ""

# The Sector Configuration log (log 2Fh), built from ACS-4's definition: a
# 16-byte descriptor per configuration, byte 0 bit 7 set when valid, bytes
# 2-3 the DESCRIPTOR CHECK word, bytes 4-7 the LOGICAL SECTOR SIZE in WORDS.
# Offered: 256 words (512 bytes, check 1111h) and 2048 words (4096 bytes,
# check 1234h: two bytes that differ, so that their order and each byte
# show).  The log directory says log 2Fh has one page.
logs="$out/logs"
mkdir -p "$logs"
hex_page() { # OFFSET=BYTE ...: 512 bytes in hex, zero but where given
	local -a b
	for i in $(seq 0 511); do b[i]=00; done
	for kv in "$@"; do b[${kv%=*}]=${kv#*=}; done
	echo "${b[@]}"
}
hex_page 0=01 94=01 > "$logs/00.hex"
hex_page 0=80 2=11 3=11 5=01 16=80 18=34 19=12 21=08 > "$logs/2f.hex"
crafted="$top/tests/identify/pages/crafted-security-big.hex"
sector_size_case() { # SIZE WANTED-EXIT WANTED-LAST-CDB
	run SHIM_IDENTIFY="$crafted" SHIM_LOGS="$logs" -- --set-sector-size "$1" --please-destroy-my-drive
	local last
	last=$(grep '^cdb: ' "$out/cmd.log" | tail -n 1 | sed 's/^cdb: //')
	if [ "$rc" = "$2" ] && [ "$last" = "$3" ]; then
		ok "--set-sector-size $1: log sizes in words"
	else
		bad "--set-sector-size $1: log sizes in words (exit $rc, wanted $2)"
		echo "  last command: $last"
		echo "  wanted:       $3"
	fi
}
# SET SECTOR CONFIGURATION EXT (B2h), ACS-4: FEATURE 15:0 = the COMMAND CHECK, the descriptor's
# DESCRIPTOR CHECK word; COUNT 2:0 = the descriptor's index (as openSeaChest sends it).
sector_size_case 4096 0 "85 07 00 12 34 00 01 00 00 00 00 00 00 40 b2 00"
sector_size_case 512 0 "85 07 00 11 11 00 00 00 00 00 00 00 00 40 b2 00"
sector_size_case 2048 22 "85 09 0e 00 00 00 01 00 2f 00 00 00 00 40 2f 00"
# hdparm 9.65 under the same double: the same log read, the same command, output and exit, but
# for what hdparm.8 lists: 9.65 drops the check word's low byte (FEATURE 1200h, which a drive that
# checks it rejects), and sets CK_COND; the DEVICE byte, whose bits ACS-4 makes obsolete or N/A
# for these commands, each tool fills its own way (9.65 E0h, ours 40h).  Native only: 9.65
# cannot load a cross build's double.
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle_965 "--set-sector-size against hdparm 9.65" "${ORACLE:-/usr/sbin/hdparm}"; then
	run SHIM_IDENTIFY="$crafted" SHIM_LOGS="$logs" -- --set-sector-size 4096 --please-destroy-my-drive
	echo "exit $rc" >> "$out/cmd.out"
	cp "$out/cmd.out" "$out/sss-ours.out"
	awk '/^cdb: / { $15 = "dev"; print }' "$out/cmd.log" > "$out/sss-ours.cdb"
	rm -f "$out/cmd.log"
	env SHIM_IDENTIFY="$crafted" SHIM_LOGS="$logs" SHIM_LOG="$out/cmd.log" LD_PRELOAD="$shim" \
		"${ORACLE:-/usr/sbin/hdparm}" --set-sector-size 4096 --please-destroy-my-drive /dev/null > "$out/sss-965.out" 2> /dev/null
	echo "exit $?" >> "$out/sss-965.out"
	# Theirs, with the listed difference put right: FEATURE 7:0 the check's low byte, no CK_COND.
	awk '/^cdb: / { $15 = "dev"; print }' "$out/cmd.log" |
		sed 's/^\(cdb: 85 07\) 20 12 00 \(.* b2 00\)$/\1 00 12 34 \2/' > "$out/sss-965.cdb"
	if cmp -s "$out/sss-ours.out" "$out/sss-965.out" && cmp -s "$out/sss-ours.cdb" "$out/sss-965.cdb" &&
		grep -q '^cdb: 85 07 00 12 34 .* b2 00$' "$out/sss-965.cdb"; then
		ok "--set-sector-size 4096: 9.65's commands and output, but for the whole check word (hdparm.8)"
	else
		bad "--set-sector-size 4096: 9.65's commands and output, but for the whole check word (hdparm.8)"
		diff "$out/sss-965.cdb" "$out/sss-ours.cdb" | head -6 | sed 's/^/  /'
		diff "$out/sss-965.out" "$out/sss-ours.out" | head -4 | sed 's/^/  /'
	fi
fi
run SHIM_LOGS="$logs" -- -I
expect "-I lists the log's sizes in bytes, as 9.65 does" 0 "512 bytes [ Supported: 512 4096 ]" ""

# A refusal ends the run: no command reaches any later device.
multi() { # NAME ENV... -- ARGS...: hdparm on /dev/null then /dev/zero; log lines name the device
	local name=$1
	shift
	run SHIM_LOG_DEVICE=1 "$@" /dev/zero
	if [ "$rc" != 0 ] && ! grep -q '^/dev/zero ' "$out/cmd.log"; then
		ok "$name: nothing sent to the second device"
	else
		bad "$name: nothing sent to the second device (exit $rc)"
		grep '^/dev/zero ' "$out/cmd.log" | head -3 | sed 's/^/  sent: /'
	fi
}
multi "-N refused on the first device" -- -N 100 /dev/null --yes-i-know-what-i-am-doing
multi "--make-bad-sector refused on the first device" -- --make-bad-sector f100 /dev/null --yes-i-know-what-i-am-doing
multi "-s1 refused on the first device" -- -s1 /dev/null --yes-i-know-what-i-am-doing
multi "--dco-restore refused on the first device" -- --dco-restore /dev/null --yes-i-know-what-i-am-doing
# A dangerous command that fails on the first device stops the run, as in 9.65.
multi "--make-bad-sector failing on the first device" SHIM_IDENTIFY="$crafted" SHIM_REPLY=abort -- --make-bad-sector f100 --yes-i-know-what-i-am-doing /dev/null
multi "-N failing on the first device" SHIM_REPLY=abort -- -N 100 --yes-i-know-what-i-am-doing /dev/null
# A query run goes on to the next device after a failure.
run SHIM_LOG_DEVICE=1 SHIM_REPLY=abort -- -C /dev/zero
if [ "$rc" = 5 ] && grep -q '^/dev/zero cdb: ' "$out/cmd.log"; then
	ok "-C failing on the first device: the second is still asked"
else
	bad "-C failing on the first device: the second is still asked (exit $rc)"
fi

# --trim-sector-ranges-stdin: malformed input is refused, nothing trimmed.
stdin_trim() { # NAME WANTED-EXIT INPUT-PRINTF
	printf "$3" > "$out/trim.in"
	rm -f "$out/cmd.log"
	env SHIM_LOG="$out/cmd.log" SHIM_IDENTIFY="$crafted" "${preload[@]}" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$H" --trim-sector-ranges-stdin --please-destroy-my-drive /dev/null < "$out/trim.in" > "$out/cmd.out" 2> "$out/cmd.err"
	rc=$?
	touch "$out/cmd.log"
}
stdin_trim nul 22 '10:8\0 20:8\n'
if [ "$rc" = 22 ] && ! grep -q ' 06 00$' "$out/cmd.log" && grep -q 'pair #1' "$out/cmd.err"; then
	ok "--trim-sector-ranges-stdin: a NUL byte is malformed input, nothing trimmed"
else
	bad "--trim-sector-ranges-stdin: a NUL byte is malformed input, nothing trimmed (exit $rc)"
fi
stdin_trim padded 0 '000000000000000000000000000000000000000000000000000000000000000010:0000000000000000000000000000000000000000000000000000000000000008 20:8\n'
if [ "$rc" = 0 ] && grep -q '^data: 0a 00 00 00 00 00 08 00 14 00 00 00 00 00 08 00 00' "$out/cmd.log"; then
	ok "--trim-sector-ranges-stdin: zero-padded numbers longer than 63 characters"
else
	bad "--trim-sector-ranges-stdin: zero-padded numbers longer than 63 characters (exit $rc)"
	sed 's/^/  /' "$out/cmd.err" "$out/cmd.log" | cut -c1-100 | head -4
fi
stdin_trim junk 22 '10:8 20:8x\n'
if [ "$rc" = 22 ] && ! grep -q ' 06 00$' "$out/cmd.log" && grep -q 'pair #2' "$out/cmd.err"; then
	ok "--trim-sector-ranges-stdin: a malformed pair stops everything before it is sent"
else
	bad "--trim-sector-ranges-stdin: a malformed pair stops everything before it is sent (exit $rc)"
fi

# NVMe TRIM: a range over 2^32-1 blocks is split, and the ranges after it
# are the ones asked for.  Dataset Management range (NVMe base spec): bytes
# 0-3 context attributes, 4-7 length in blocks, 8-15 starting LBA, little-endian.
run SHIM_NVME="$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex" SHIM_NVME_NSZE=17179869184 -- \
	--trim-sector-ranges 0:4294967301 8589934592:10 --please-destroy-my-drive
want="nvme-io: 09 01 00 00 00 02 00 00 00 04 00 00 00
data: 00 00 00 00 ff ff ff ff 00 00 00 00 00 00 00 00 00 00 00 00 06 00 00 00 ff ff ff ff 00 00 00 00 00 00 00 00 0a 00 00 00 00 00 00 00 02 00 00 00"
if [ "$rc" = 0 ] && [ "$(cat "$out/cmd.log")" = "$want" ]; then
	ok "NVMe TRIM: a split range, then exactly the next range asked for"
else
	bad "NVMe TRIM: a split range, then exactly the next range asked for (exit $rc)"
	sed 's/^/  got: /' "$out/cmd.log" | cut -c1-200
fi

# Under a pipe, stdout and stderr together read in the order things happened.
rm -f "$out/cmd.log"
env SHIM_LOG="$out/cmd.log" SHIM_IDENTIFY="$page" SHIM_REPLY=abort "${preload[@]}" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$H" -y /dev/null 2>&1 | cat > "$out/cmd.both"
if [ "$(sed -n 3p "$out/cmd.both")" = " issuing standby command" ] && sed -n 4p "$out/cmd.both" | grep -q 'failed: aborted command'; then
	ok "under a pipe, the announcement comes before the failure"
else
	bad "under a pipe, the announcement comes before the failure"
	sed 's/^/  /' "$out/cmd.both"
fi

# A long SECURITY ERASE UNIT (the double takes 2.5 s over it): a status line
# on a terminal, nothing extra without one, and an interrupt that says the
# drive goes on.
erase_env=(SHIM_LOG="$out/cmd.log" SHIM_IDENTIFY="$crafted" SHIM_DELAY_CMD=f4 SHIM_DELAY_MS=2500 "${preload[@]}"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
rm -f "$out/cmd.log"
script -qec "env ${erase_env[*]} $H --security-erase pw /dev/null" /dev/null > "$out/erase.tty" < /dev/null
rc=$?
# The crafted page's word 89 is 16: about 32 minutes.
if [ "$rc" = 0 ] && [ "$(grep -o "erasing: 0 min 0[0-9] s of about 32 min (the drive's estimate)" "$out/erase.tty" | wc -l)" -ge 2 ] &&
	grep -q 'erasing took 0 min 0[23] s' "$out/erase.tty"; then
	ok "security erase on a terminal: the status line updates, then says how long it took"
else
	bad "security erase on a terminal: the status line updates, then says how long it took (exit $rc)"
	od -c "$out/erase.tty" | tail -n 8 | sed 's/^/  /'
fi
rm -f "$out/cmd.log"
env "${erase_env[@]}" "$H" --security-erase pw /dev/null > "$out/cmd.out" 2> "$out/cmd.err" < /dev/null
rc=$?
if [ "$rc" = 0 ] && [ ! -s "$out/cmd.err" ] &&
	[ "$(cat "$out/cmd.out")" = "$(printf '\n/dev/null:\n Issuing SECURITY_ERASE command, password="pw", user=user')" ]; then
	ok "security erase without a terminal: no status line, output as before"
else
	bad "security erase without a terminal: no status line, output as before (exit $rc)"
	sed 's/^/  /' "$out/cmd.out" "$out/cmd.err" | head -5
fi
rm -f "$out/cmd.log"
env "${erase_env[@]}" SHIM_DELAY_MS=5000 "$H" --security-erase pw /dev/null > "$out/cmd.out" 2> "$out/cmd.err" < /dev/null &
pid=$!
until_true 10 grep -qs ' f4 00$' "$out/cmd.log"	# the erase sent: the drive holds it 5 s
kill -TERM "$pid"
wait_within 120 "$pid"
if [ "$rc" = 143 ] && grep -q 'the drive goes on erasing, and stays locked' "$out/cmd.err" &&
	grep -q 'hdparm -I /dev/null' "$out/cmd.err" && [ "$(grep -c ' f4 00$' "$out/cmd.log")" = 1 ]; then
	ok "security erase interrupted: the warning, exit 143, exactly one erase sent"
else
	bad "security erase interrupted: the warning, exit 143, exactly one erase sent (exit $rc)"
	sed 's/^/  /' "$out/cmd.err" | head -3
fi
# The JSON result of an erase carries its time.
rm -f "$out/cmd.log"
env "${erase_env[@]}" SHIM_DELAY_MS=1200 "$H" --json --security-erase pw /dev/null > "$out/erase.json" 2> /dev/null < /dev/null
if python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["devices"][0]["security_erase"]
sys.exit(0 if e["completed"] and 1.1 <= e["seconds"] < 5 and e["estimate_minutes"] == 32 else 1)' "$out/erase.json"; then
	ok "security erase with --json: the result carries the seconds it took"
else
	bad "security erase with --json: the result carries the seconds it took"
	sed 's/^/  /' "$out/erase.json" | head -5
fi

# on_tty NAME ENV... -- ARGS...: hdparm on the double, on a pseudo-terminal; all output in $out/tty.out
on_tty() {
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$out/cmd.log"
	script -qec "env SHIM_LOG=$out/cmd.log SHIM_IDENTIFY=$crafted ${envs[*]} ${preload[*]} ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 $H $* /dev/null" /dev/null > "$out/tty.out" < /dev/null
	rc=$?
	touch "$out/cmd.log"
}

# --sanitize-wait: SANITIZE STATUS EXT once a second until the operation ends.
# The double answers in progress at 0%, in progress at 50% (8000h/10000h), then
# completed without error (COUNT bit 15); or ABRT with LBA 7:0 = 1.
status_cdb="85 07 20 00 00 00 00 00 00 00 00 00 00 40 b4 00"
run SHIM_IDENTIFY="$crafted" SHIM_SANITIZE=4000:0000,4000:8000,8000:ffff -- --sanitize-wait
if [ "$rc" = 0 ] && [ "$(grep -c "^cdb: $status_cdb$" "$out/cmd.log")" = 3 ] &&
	grep -q '^Sanitize operation completed without error$' "$out/cmd.out" && [ ! -s "$out/cmd.err" ]; then
	ok "--sanitize-wait: polls until done, exit 0"
else
	bad "--sanitize-wait: polls until done, exit 0 (exit $rc)"
	sed 's/^/  /' "$out/cmd.out" "$out/cmd.err" | head -5
fi
on_tty SHIM_SANITIZE=4000:0000,4000:8000,8000:ffff -- --sanitize-wait
if [ "$rc" = 0 ] && grep -q 'sanitize: 0% done' "$out/tty.out" && grep -q 'sanitize: 50% done' "$out/tty.out"; then
	ok "--sanitize-wait on a terminal: the progress line shows 0% then 50%"
else
	bad "--sanitize-wait on a terminal: the progress line shows 0% then 50% (exit $rc)"
	od -c "$out/tty.out" | tail -n 6 | sed 's/^/  /'
fi
run SHIM_IDENTIFY="$crafted" SHIM_SANITIZE=4000:0000,abort:01 -- --sanitize-wait
expect "--sanitize-wait: a failed sanitize is a failure, with its reason" 5 "" \
	"--sanitize-wait: the sanitize operation completed with physical sectors that were not sanitized"
run SHIM_IDENTIFY="$crafted" SHIM_SANITIZE=0000:0000 -- --sanitize-wait
expect "--sanitize-wait: nothing running and no success recorded is a failure" 5 "" "did not complete without error"
run SHIM_IDENTIFY="$crafted" SHIM_SANITIZE=4000:0000,8000:0000 -- --yes-i-know-what-i-am-doing --sanitize-block-erase --sanitize-wait
if [ "$rc" = 0 ] && [ "$(sed -n 2p "$out/cmd.log")" = "cdb: 85 07 00 00 12 00 00 42 72 00 45 00 6b 40 b4 00" ] &&
	[ "$(grep -c "^cdb: $status_cdb$" "$out/cmd.log")" = 2 ]; then
	ok "--sanitize-block-erase --sanitize-wait: the erase, then status until done"
else
	bad "--sanitize-block-erase --sanitize-wait: the erase, then status until done (exit $rc)"
	sed 's/^/  /' "$out/cmd.log" "$out/cmd.err" | head -5
fi
# The sanitize object: the same spelling of the action as on NVMe and SCSI.
run SHIM_IDENTIFY="$crafted" -- --json --yes-i-know-what-i-am-doing --sanitize-crypto-scramble
if [ "$rc" = 0 ] && grep -q '"action": "crypto_erase"' "$out/cmd.out" && grep -q '"outcome": "started"' "$out/cmd.out"; then
	ok "--json --sanitize-crypto-scramble: action crypto_erase, outcome started"
else
	bad "--json --sanitize-crypto-scramble: action crypto_erase, outcome started (exit $rc)"
fi

# A sanitize the drive aborts ends the device's run: no SANITIZE STATUS EXT, no earlier sanitize's success.
run SHIM_IDENTIFY="$crafted" SHIM_REPLY=abort SHIM_SANITIZE=0000:8000 -- --yes-i-know-what-i-am-doing --sanitize-block-erase --sanitize-wait
if [ "$rc" = 5 ] && [ "$(grep -c "^cdb: $status_cdb$" "$out/cmd.log")" = 0 ] && ! grep -q completed "$out/cmd.out"; then
	ok "--sanitize-block-erase aborted, then --sanitize-wait: nothing more sent or said"
else
	bad "--sanitize-block-erase aborted, then --sanitize-wait: nothing more sent or said (exit $rc)"
	sed 's/^/  /' "$out/cmd.log" "$out/cmd.out" | head -8
fi

# -H: hdparm's own cases are in tests/ops/temperature.cases; here smartctl and hdparm 9.65 read the
# same answers.  SCT Status (SMART READ LOG E0h, byte 200 the temperature, ACS-3) of a drive with SCT
# (a real drive's page, word 206), after CHECK POWER MODE says it spins (COUNT FFh).
intel="$top/tests/identify/real/INTEL_SSDSA2CW120G3--4PC10302.hex"
mkdir -p "$out/sct"
grep -v '^#' "$top/tests/ops/data/sct-status-38c.hex" > "$out/sct/e0.hex"
# Native only: not in the cross builds' comparison (tests/cross-check.sh), whose double is built for the target.
if [ -z "${DOUBLE_COMPARE:-}" ]; then
	theirs=$(env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LOGS="$out/sct" LD_PRELOAD="$shim" \
		smartctl -l scttempsts -d sat /dev/null 2> /dev/null | sed -n 's/^Current Temperature: *\([0-9-]*\) Celsius.*/\1/p')
	run SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LOGS="$out/sct" -- -H
	ours=$(sed -n 's/^ drive temperature (celsius) is:  //p' "$out/cmd.out")
	if [ "$theirs" = 38 ] && [ "$ours" = 38 ] && grep -qx ' read from:  SCT Status' "$out/cmd.out"; then
		ok "-H: SCT Status read as smartctl reads it (38)"
	else
		bad "-H: SCT Status read as smartctl reads it (smartctl: '$theirs', ours: '$ours')"
	fi
	# No SCT, not a Hitachi drive (QEMU's page): SMART attribute 194, as smartctl -A reads it.
	mkdir -p "$out/smart"
	grep -v '^#' "$top/tests/ops/data/smart-data-36c.hex" > "$out/smart/smart.hex"
	theirs=$(env SHIM_IDENTIFY="$page" SHIM_COUNT=0xff SHIM_LOGS="$out/smart" LD_PRELOAD="$shim" \
		smartctl -A -d sat /dev/null 2> /dev/null | awk '$1 == 194 { print $10 }')
	run SHIM_COUNT=0xff SHIM_LOGS="$out/smart" -- -H
	ours=$(sed -n 's/^ drive temperature (celsius) is:  //p' "$out/cmd.out")
	if [ "$theirs" = 36 ] && [ "$ours" = 36 ] && grep -qx ' read from:  SMART attribute 194' "$out/cmd.out" &&
		! grep -q ' f0 00$' "$out/cmd.log"; then
		ok "-H without SCT: SMART attribute 194 read as smartctl -A reads it (36), no vendor command"
	else
		bad "-H without SCT: SMART attribute 194 read as smartctl -A reads it (smartctl: '$theirs', ours: '$ours')"
	fi
	# --power-on-hours (its own cases: tests/ops/power_on.cases): smartctl -l devstat reads the same
	# Device Statistics log (pages 00h and 01h) and finds the same Power-on Hours at offset 10h.
	mkdir -p "$out/devstat"
	grep -hv '^#' "$top/tests/ops/data/ata-log-directory.hex" > "$out/devstat/00.hex"
	grep -hv '^#' "$top/tests/ops/data/ata-devstat-list.hex" "$top/tests/ops/data/ata-devstat-general.hex" > "$out/devstat/04.hex"
	theirs=$(env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LOGS="$out/devstat" LD_PRELOAD="$shim" \
		smartctl -l devstat -d sat /dev/null 2> /dev/null | awk '$1 == "0x01" && $2 == "0x010" { print $4 }')
	run SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LOGS="$out/devstat" -- --power-on-hours
	ours=$(sed -n 's/^ power-on hours:  //p' "$out/cmd.out")
	if [ "$rc" = 0 ] && [ "$theirs" = 12345 ] && [ "$ours" = 12345 ]; then
		ok "--power-on-hours: the Device Statistics log's Power-on Hours, as smartctl -l devstat reads it (12345)"
	else
		bad "--power-on-hours: the Device Statistics log's Power-on Hours, as smartctl -l devstat reads it (smartctl: '$theirs', ours: '$ours', exit $rc)"
	fi
	# --erc 70,70 sends what smartctl -l scterc,70,70 sends: SMART WRITE LOG of log E0h, its CDB
	# (but the DEVICE byte, obsolete in ACS-3, which each tool fills its own way) and its data, for
	# the two timers set (function code 0001h).  The SCT Status smartctl reads after each says the
	# command completed (tests/ops/data/sct-status-erc-set.hex).
	mkdir -p "$out/sct-erc"
	grep -v '^#' "$top/tests/ops/data/sct-status-erc-set.hex" > "$out/sct-erc/e0.hex"
	rm -f "$out/erc-smartctl.log" "$out/erc-ours.log"
	env SHIM_IDENTIFY="$intel" SHIM_LOGS="$out/sct-erc" SHIM_LOG="$out/erc-smartctl.log" LD_PRELOAD="$shim" \
		smartctl -l scterc,70,70 -d sat /dev/null > /dev/null 2>&1
	env SHIM_IDENTIFY="$intel" SHIM_LOGS="$out/sct-erc" SHIM_LOG="$out/erc-ours.log" LD_PRELOAD="$shim" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$H" -q --erc 70,70 /dev/null > /dev/null 2>&1
	rc=$?
	scterc_sets() {
		touch "$1"
		awk '/^cdb: 85 .. .. 00 d6 00 01 00 e0 00 4f 00 c2 / { $15 = "dev"; cdb = $0; next }
			cdb != "" && /^data: 03 00 01 00 / { print cdb; print } { cdb = "" }' "$1"
	}
	theirs=$(scterc_sets "$out/erc-smartctl.log")
	if [ "$rc" = 0 ] && [ "$(echo "$theirs" | grep -c '^data: 03 00 01 00 0[12] 00 46 00 ')" = 2 ] &&
		[ "$(scterc_sets "$out/erc-ours.log")" = "$theirs" ]; then
		ok "--erc 70,70: the same SCT Error Recovery Control commands as smartctl -l scterc,70,70"
	else
		bad "--erc 70,70: the same SCT Error Recovery Control commands as smartctl -l scterc,70,70 (exit $rc)"
		diff <(echo "$theirs") <(scterc_sets "$out/erc-ours.log") | head -6 | sed 's/^/  /'
	fi
	# --json --erc and --json -H: smartctl's shapes, held against smartctl -j reading the same answers
	# (every member of its ata_sct_erc; its temperature's current).
	mkdir -p "$out/sct-erc-get2"
	grep -v '^#' "$top/tests/ops/data/sct-status-erc-get.hex" > "$out/sct-erc-get2/e0.hex"
	for pair in "ata_sct_erc:error_recovery:-l scterc:--erc:$out/sct-erc-get2:0x46" "temperature:temperature:-l scttempsts:-H:$out/sct:0xff"; do
		IFS=: read -r their_key our_key their_opt our_opt logs count <<< "$pair"
		# shellcheck disable=SC2086 # their option is words
		env SHIM_IDENTIFY="$intel" SHIM_LOGS="$logs" SHIM_COUNT=$count SHIM_LBA=0 LD_PRELOAD="$shim" \
			smartctl -j $their_opt -d sat /dev/null > "$out/json-theirs.json" 2> /dev/null
		run SHIM_IDENTIFY="$intel" SHIM_LOGS="$logs" SHIM_COUNT=$count SHIM_LBA=0 -- --json $our_opt
		if python3 - "$out/json-theirs.json" "$out/cmd.out" "$their_key" "$our_key" << 'EOF'
import json, sys
theirs = json.load(open(sys.argv[1]))[sys.argv[3]]
ours = json.load(open(sys.argv[2]))["devices"][0][sys.argv[4]]
keys = ["current"] if sys.argv[3] == "temperature" else list(theirs)
assert keys and all(ours[k] == theirs[k] for k in keys), (ours, theirs)
EOF
		then
			ok "--json $our_opt: $our_key as smartctl -j $their_opt gives $their_key"
		else
			bad "--json $our_opt: $our_key as smartctl -j $their_opt gives $their_key (exit $rc)"
		fi
	done
	# A Hitachi drive (QEMU's page with a Hitachi model): 9.65's command (F0h) and lines, byte for byte,
	# for COUNT 64h (30 C), 02h (-19) and FFh (over 107), in range and not (ERROR bit 4).  (COUNT 00h,
	# "under -20", cannot be played here: the double answers CHECK POWER MODE with the same COUNT,
	# and 00h there says standby.)
	hitachi="$top/tests/identify/pages/crafted-hitachi.hex"
	for regs in 0x64:0 0x02:0 0xff:0 0x64:0x10; do
		run SHIM_IDENTIFY="$hitachi" SHIM_COUNT=${regs%:*} SHIM_ERROR=${regs#*:} -- -H
		env SHIM_IDENTIFY="$hitachi" SHIM_COUNT=${regs%:*} SHIM_ERROR=${regs#*:} LD_PRELOAD="$shim" \
			"${ORACLE:-/usr/sbin/hdparm}" -H /dev/null > "$out/cmd.965" 2> /dev/null
		echo "exit $?" >> "$out/cmd.965"
		echo "exit $rc" >> "$out/cmd.out"
		if cmp -s "$out/cmd.out" "$out/cmd.965" && [ "$(grep -c ' f0 00$' "$out/cmd.log")" = 1 ]; then
			ok "-H on a Hitachi drive (COUNT ${regs%:*}, ERROR ${regs#*:}): 9.65's command, the same output as hdparm 9.65"
		else
			bad "-H on a Hitachi drive (COUNT ${regs%:*}, ERROR ${regs#*:}): 9.65's command, the same output as hdparm 9.65"
			diff "$out/cmd.965" "$out/cmd.out" | head -5 | sed 's/^/  /'
		fi
	done
fi

# --erc read through a pass-through that echoes the registers it was sent (COUNT 01h, LBA 7:0 E0h:
# E001h, 5734.5 s): refused, as smartctl refuses it ("returns COUNT and LBA_LOW register unchanged").
mkdir -p "$out/sct-erc-get"
grep -v '^#' "$top/tests/ops/data/sct-status-erc-get.hex" > "$out/sct-erc-get/e0.hex"
run SHIM_IDENTIFY="$top/tests/identify/real/INTEL_SSDSA2CW120G3--4PC10302.hex" SHIM_LOGS="$out/sct-erc-get" SHIM_COUNT=1 SHIM_LBA=0xe0 -- --erc
if [ "$rc" = 5 ] && grep -q 'COUNT and LBA came back as they were sent (01h, E0h): not the drive.s answer' "$out/cmd.err" &&
	! grep -q 'error recovery limits:' "$out/cmd.out"; then
	ok "--erc: registers echoed by a bridge (E001h) are refused, not shown as 5734.5 s"
else
	bad "--erc: registers echoed by a bridge (E001h) are refused (exit $rc)"
	sed 's/^/  /' "$out/cmd.out" "$out/cmd.err" | head -4
fi
# A drive without SCT Error Recovery Control (word 206 bit 3 clear): --erc 70,70 refused once, not
# again by the read-back after it.
run SHIM_IDENTIFY="$top/tests/identify/real/Maxtor_96147H8--BAC51KJ0.hex" -- --erc 70,70
if [ "$rc" = 95 ] && [ "$(grep -c 'the drive has no SCT Error Recovery Control' "$out/cmd.err")" = 1 ] &&
	[ -z "$(grep -v ' ec 00$' "$out/cmd.log")" ]; then
	ok "--erc 70,70 without SCT: refused once, nothing sent but IDENTIFY"
else
	bad "--erc 70,70 without SCT: refused once, nothing sent but IDENTIFY (exit $rc)"
	sed 's/^/  /' "$out/cmd.err" "$out/cmd.log" | head -4
fi

# --fwdownload: stdout, stderr ("fwdownload: xfer_mode=3 min=1 max=2 size=512", which scripts match) and
# the exit status of hdparm 9.65 under the same double, for each mode.  -modee-max is left out: 9.65
# sends the whole file in one piece there, past the drive's largest segment (word 235), where ours
# keeps to it (hdparm.8).
oracle=${ORACLE:-/usr/sbin/hdparm}
if [ -n "${DOUBLE_COMPARE:-}" ]; then
	:
elif ! "$oracle" -V 2> /dev/null | grep -q 'v9.65$'; then
	echo "skip --fwdownload against hdparm 9.65: $oracle is not hdparm 9.65 (tests/setup installs it)"
else
	truncate -s 2048 "$out/fw965.bin"
	for o in --fwdownload --fwdownload-mode3 --fwdownload-mode3-max --fwdownload-mode7 --fwdownload-modee; do
		for who in ours 965; do
			bin=$H
			[ "$who" = 965 ] && bin=$oracle
			env SHIM_IDENTIFY="$crafted" "${preload[@]}" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
				"$bin" --yes-i-know-what-i-am-doing --please-destroy-my-drive $o "$out/fw965.bin" /dev/null \
				> "$out/fw-$who.out" 2> "$out/fw-$who.err"
			echo "exit $?" >> "$out/fw-$who.out"
		done
		if cmp -s "$out/fw-ours.out" "$out/fw-965.out" && cmp -s "$out/fw-ours.err" "$out/fw-965.err"; then
			ok "$o: stdout, stderr and exit status are hdparm 9.65's ($(head -n 1 "$out/fw-965.err"))"
		else
			bad "$o: stdout, stderr and exit status are hdparm 9.65's"
			diff "$out/fw-965.out" "$out/fw-ours.out" | head -4 | sed 's/^/  /'
			diff "$out/fw-965.err" "$out/fw-ours.err" | head -4 | sed 's/^/  /'
		fi
	done
fi

# Firmware download and TRIM: progress on a terminal only.
truncate -s 2048 "$out/fw4.bin"
run SHIM_IDENTIFY="$crafted" -- --yes-i-know-what-i-am-doing --please-destroy-my-drive --fwdownload-mode3 "$out/fw4.bin"
expect "firmware download without a terminal: a dot a segment, as before" 0 ".... Done." ""
on_tty -- --yes-i-know-what-i-am-doing --please-destroy-my-drive --fwdownload-mode3 "$out/fw4.bin"
if [ "$rc" = 0 ] && grep -q 'firmware: segment 2 of 4 sent (1024 of 2048 bytes)' "$out/tty.out" &&
	grep -q 'firmware: segment 4 of 4 sent (2048 of 2048 bytes)' "$out/tty.out" && ! grep -q '\.\.\.\.' "$out/tty.out"; then
	ok "firmware download on a terminal: the status line counts the segments"
else
	bad "firmware download on a terminal: the status line counts the segments (exit $rc)"
	od -c "$out/tty.out" | tail -n 6 | sed 's/^/  /'
fi
ranges=$(for i in $(seq 0 599); do printf '%d:1 ' $((i * 10)); done)
on_tty -- --please-destroy-my-drive --trim-sector-ranges $ranges
if [ "$rc" = 0 ] && grep -q 'trim: 512 of 600 ranges done' "$out/tty.out" && grep -q 'trim: 600 of 600 ranges done' "$out/tty.out"; then
	ok "TRIM of 600 ranges on a terminal: the status line counts the ranges"
else
	bad "TRIM of 600 ranges on a terminal: the status line counts the ranges (exit $rc)"
	od -c "$out/tty.out" | tail -n 6 | sed 's/^/  /'
fi
echo "end of suite"
