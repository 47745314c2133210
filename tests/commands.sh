#!/bin/bash
# Command bytes and sense decoding, against a test double of the drive.
# Usage: commands.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
shim="$out/sgio-shim.so"
page="$top/tests/identify/pages/qemu-ahci-hdd.hex"

if ! ${CC:-cc} -shared -fPIC -O2 -o "$shim" "$top/tests/tools/sgio-shim.c" -ldl; then
	echo "FAIL build tests/tools/sgio-shim.c"
	exit 0
fi

# run ENV... -- ARGS...: hdparm on the double; stdout, stderr and log in $out/cmd.*
run() {
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$out/cmd.log"
	# A sanitizer build wants its runtime first; the double must come first here.
	env SHIM_LOG="$out/cmd.log" SHIM_IDENTIFY="$page" "${envs[@]}" LD_PRELOAD="$shim" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$H" "$@" /dev/null > "$out/cmd.out" 2> "$out/cmd.err"
	rc=$?
	touch "$out/cmd.log"
}

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
		echo "ok command bytes: hdparm $args"
	else
		echo "FAIL command bytes: hdparm $args"
		echo "  got:    $(echo "$got" | tr '\n' ';')"
		echo "  wanted: $(printf '%b' "$want" | tr '\n' ';')"
	fi
done < "$top/tests/commands.txt"

# expect NAME EXIT STDOUT-TEXT STDERR-TEXT: the last run's outcome.
expect() {
	local name=$1 want_rc=$2 out_text=$3 err_text=$4
	if [ "$rc" = "$want_rc" ] && { [ -z "$out_text" ] || grep -qF -- "$out_text" "$out/cmd.out"; } &&
		{ [ -z "$err_text" ] || grep -qF -- "$err_text" "$out/cmd.err"; }; then
		echo "ok $name"
	else
		echo "FAIL $name (exit $rc, wanted $want_rc)"
		sed 's/^/  stdout: /' "$out/cmd.out" | head -5
		sed 's/^/  stderr: /' "$out/cmd.err" | head -5
	fi
}

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
	echo "ok late-layout sense: no LBA claimed from a truncated register set"
else
	echo "FAIL late-layout sense: no LBA claimed from a truncated register set (exit $rc)"
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
			echo "ok truncated $fmt sense ($len bytes) is a failure"
		else
			echo "FAIL truncated $fmt sense ($len bytes) is a failure (exit $c_rc, $rc)"
		fi
	done
done
run SHIM_REPLY=ok -- -C -q
expect "-C -q keeps the state line" 0 "drive state is:" ""
