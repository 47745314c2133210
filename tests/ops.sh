#!/bin/bash
# Operations over every kind of disk: one table per operation (tests/ops/*.cases), each case a
# scripted disk (tests/tools/script-double.c) that lists the commands hdparm must send and the
# disk's answers, then the exit status and the whole stdout and stderr wanted.
# Usage: ops.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines, then "end of suite".
#
# A table (the pieces that several use are in tests/ops/*.defs):
#   define NAME ... end     script lines, put where "use NAME" is written
#   case NAME               a case: its lines follow, up to the next case
#   args ARGS               hdparm's arguments (the node, /dev/null, is added last)
#   node, sg, admin, io     the script (see the double's header); {top}: the checkout
#   exit N                  the exit status wanted
#   out TEXT, err TEXT      stdout, stderr: all of it, one line each ("out" alone: an empty line;
#                           no out lines: nothing on stdout)
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
double_source=script-double double_name=ops
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"

# The double itself: a command that is not the script's next, and a listed one never sent, are
# reported (else every case below would pass whatever hdparm sent).
printf 'node ata\nsg 00 00 00 00 00 00\n' > "$out/ops.script"
rm -f "$out/ops.report"
env DOUBLE_SCRIPT="$out/ops.script" DOUBLE_REPORT="$out/ops.report" "${preload[@]}" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$H" -C /dev/null > /dev/null 2>&1
if grep -q '^unexpected: sg 85 06 20 00 00 00 00 00 00 00 00 00 00 00 e5 00 ' "$out/ops.report" 2> /dev/null &&
	grep -qx 'not sent: sg 00 00 00 00 00 00' "$out/ops.report"; then
	echo "ok ops: the double reports a command out of script, and one never sent"
else
	echo "FAIL ops: the double reports a command out of script, and one never sent"
	sed 's/^/  double: /' "$out/ops.report" 2> /dev/null
fi

declare -A defined
table='' name='' args='' want_rc='' want_out='' want_err='' script=''

run_case() {
	[ -n "$name" ] || return 0
	local f="$out/ops" got_out got_err problems=
	printf '%s' "$script" > "$f.script"
	rm -f "$f.report"
	if [ -z "$want_rc" ] || [ -z "$args" ]; then
		problems="the case has no exit or no args line"
	else
		# A case that hangs (a FIFO waited on) fails instead of holding the suite (timeout: 124).
		# shellcheck disable=SC2086
		timeout -k 10 120 env DOUBLE_SCRIPT="$f.script" DOUBLE_REPORT="$f.report" "${preload[@]}" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
			"$H" $args /dev/null > "$f.out" 2> "$f.err"
		rc=$?
		got_out=$(cat "$f.out"; echo x) got_err=$(cat "$f.err"; echo x)
		[ "$rc" = "$want_rc" ] || problems+="exit $rc, wanted $want_rc; "
		[ "$got_out" = "${want_out}x" ] || problems+="stdout differs; "
		[ "$got_err" = "${want_err}x" ] || problems+="stderr differs; "
		[ ! -s "$f.report" ] || problems+="the commands differ from the script; "
	fi
	if [ -z "$problems" ]; then
		echo "ok ops $table: $name"
	else
		echo "FAIL ops $table: $name ($problems)"
		[ -s "$f.report" ] && sed 's/^/  double: /' "$f.report"
		if [ -f "$f.out" ] && [ "$got_out" != "${want_out}x" ]; then
			diff <(printf '%s' "$want_out") "$f.out" | sed 's/^/  stdout: /' | head -12
		fi
		if [ -f "$f.err" ] && [ "$got_err" != "${want_err}x" ]; then
			diff <(printf '%s' "$want_err") "$f.err" | sed 's/^/  stderr: /' | head -6
		fi
	fi
	rm -f "$f.out" "$f.err"
}

# The firmware images firmware.cases sends ({out}/fw-SIZE.bin): the commands' dwords are what the
# script holds; their bytes are held against nvme-cli's in nvme-commands.sh.
for size in 10 8192 12288 16384; do head -c "$size" /dev/urandom > "$out/fw-$size.bin"; done
# One past what SCSI's WRITE BUFFER addresses (16 MiB and 64 KiB; sparse: refused before it is read).
truncate -s 0 "$out/fw-16842752.bin" && truncate -s 16842752 "$out/fw-16842752.bin"
# And a FIFO with no writer, which open() would wait on for ever.
rm -f "$out/fw-fifo" && mkfifo "$out/fw-fifo"

# The pieces (*.defs) first, then the tables.
for file in "$top"/tests/ops/*.defs "$top"/tests/ops/*.cases; do
	table=$(basename "$file")
	table=${table%.*}
	defining=
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line//\{top\}/$top}
		line=${line//\{out\}/$out}
		if [ -n "$defining" ]; then
			if [ "$line" = end ]; then defining=; else defined[$defining]+="$line"$'\n'; fi
			continue
		fi
		case "$line" in
		'#'* | '') ;;
		'define '*) defining=${line#define } defined[$defining]='' ;;
		'case '*)
			run_case
			name=${line#case } args='' want_rc='' want_out='' want_err='' script=''
			;;
		'args '*) args=${line#args } ;;
		'exit '*) want_rc=${line#exit } ;;
		out) want_out+=$'\n' ;;
		'out '*) want_out+=${line#out }$'\n' ;;
		err) want_err+=$'\n' ;;
		'err '*) want_err+=${line#err }$'\n' ;;
		'use '*)
			if [ -z "${defined[${line#use }]+set}" ]; then
				echo "FAIL ops $table: $name uses ${line#use }, which is not defined"
			fi
			script+=${defined[${line#use }]:-}
			;;
		'node '* | 'sg '* | 'admin '* | 'io '*) script+="$line"$'\n' ;;
		*) echo "FAIL ops $table: a line that is no part of a case: $line" ;;
		esac
	done < "$file"
	run_case
	name=
done
echo "end of suite"
