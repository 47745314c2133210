#!/bin/bash
# Standard streams and stop signals as a field user's shell hands them over (issue 65, items 1, 2, 4,
# 12, 22): 0, 1 or 2 closed (`<&-`, `>&-`, `2>&-`: the next open() takes it, and a disk opened then
# got hdparm's text, or was read as its input); a SIGINT the caller ignored (`trap '' INT`, `cmd &`
# in a script, POSIX 2.11) caught anyway; a signal while a run of many disks writes its report;
# standard output that cannot be written (a full device, a pipe without reader, `ulimit -f`).
# The closed streams on a loop device of this machine (root and losetup), the rest on the SG_IO
# double (tests/tools/sgio-shim.c), whose SECURITY ERASE UNIT (ATA F4h, ACS-3 7.38, seen in ATA
# PASS-THROUGH (16)'s byte 14) is held until the test opens a gate.  Nothing is timed.
# Usage: streams-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2/streams
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
suite="streams" double_name=streams
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
ata=$top/tests/identify/pages/crafted-security-big.hex
# gone PID...: none of them runs any more (ended, or a zombie nobody reaped yet).
gone() {
	local p
	for p in "$@"; do
		case $(awk '{ print $3 }' /proc/"$p"/stat 2> /dev/null) in '' | Z) ;; *) return 1 ;; esac
	done
	return 0
}
# finish PID...: rc, the first one's exit status once all have ended (10 s at most: then killed, rc=hung).
finish() {
	if until_true 10 gone "$@"; then
		wait "$1"
		rc=$?
	else
		rc=hung
		kill -9 "$@" $(pgrep -P "$1") 2> /dev/null
		wait "$1" 2> /dev/null
	fi
}
# erase_bg ARGS...: an erase of ARGS (the disks last) in the background (pid), its SECURITY ERASE
# UNIT held until $out/gate exists (only PATH's where held_cmd=f4@PATH), with default SIGINT and SIGQUIT (a `&` in a script ignores
# them), the double's log in $out/e.log; stdout to $out/e.out unless ARGS redirect it.
erase_bg() {
	rm -f "$out/e.log" "$out/gate"
	# Not holding the test's own end of the FIFO ($rw): a reader of its own stdout would never go away.
	(
		[ -z "${rw:-}" ] || exec {rw}<&-
		exec env --default-signal=INT,QUIT SHIM_IDENTIFY="$ata" SHIM_BLOCK_DEV=8:900000 SHIM_LOG="$out/e.log" SHIM_LOG_DEVICE=1 \
			SHIM_DELAY_MS="until:$out/gate" SHIM_DELAY_CMD="${held_cmd:-f4}" "${preload[@]}" "$asan" "$H" "$@" 2> "$out/e.err"
	) &
	pid=$!
}
# held N: N SECURITY ERASE UNITs sent (and held).
held() { [ "$(awk '$2 == "cdb:" && $17 == "f4"' "$out/e.log" 2> /dev/null | wc -l)" = "$1" ]; }
# settled PID...: no signal is pending in any of them (each was delivered, acted on or ignored).
settled() {
	local p
	for p in "$@"; do ! grep -qE "^(Sig|Shd)Pnd:.*[1-9a-f]" /proc/"$p"/status 2> /dev/null || return 1; done
}
# holds_fifo PID: PID has the test's FIFO open.
holds_fifo() { [ "$(readlink /proc/"$1"/fd/0 2> /dev/null)" = "$out/fifo" ] || [ "$(readlink /proc/"$1"/fd/3 2> /dev/null)" = "$out/fifo" ]; }
# blocked_writing PID: PID waits in a write to a pipe that is full.
blocked_writing() { case $(cat /proc/"$1"/wchan 2> /dev/null) in *pipe*) true ;; *) false ;; esac; }

# --- item 1: closed standard streams, on a loop device ---
if [ "$(id -u)" = 0 ] && command -v losetup > /dev/null && truncate -s 8M "$out/loop.img" &&
	dev=$(losetup -f --show "$out/loop.img" 2> /dev/null); then
	trap 'losetup -d "$dev"' EXIT
	# LBA 0 holds a range (its text, as --trim-sector-ranges-stdin takes it) and bytes of no text.
	head -c 512 /dev/urandom | tr -d '\0' | head -c 500 > "$out/lba0"
	{ printf '5:1\n'; cat "$out/lba0"; } | dd of="$dev" bs=512 conv=sync,fsync 2> /dev/null
	head -c 512 "$dev" > "$out/lba0-before"
	same_lba0() { head -c 512 "$dev" | cmp -s - "$out/lba0-before"; }
	"$H" --trim-sector-ranges 100:1 --please-destroy-my-drive "$dev" >&- 2> "$out/c.err"
	rc=$?
	same_lba0 && [ "$rc" != 0 ] && grep -qx 'hdparm: standard output: Bad file descriptor' "$out/c.err"
	result_of c $? "stdout closed (>&-): the disk is not opened on it, LBA 0 as it was; the lost output said (exit $rc)"
	"$H" --trim-sector-ranges 100:1 --please-destroy-my-drive "$dev" > "$out/c.out" 2>&-
	rc=$?
	same_lba0 && [ "$rc" != 0 ] && grep -qx "$dev:" "$out/c.out"
	result_of c $? "stderr closed (2>&-): the disk is not opened on it, LBA 0 as it was (exit $rc)"
	"$H" --trim-sector-ranges-stdin --please-destroy-my-drive "$dev" <&- > "$out/c.out" 2> "$out/c.err"
	rc=$?
	same_lba0 && [ "$rc" = 9 ] && grep -qx 'stdin: Bad file descriptor' "$out/c.err" && ! grep -q 'pair' "$out/c.err"
	result_of c $? "stdin closed (<&-): --trim-sector-ranges-stdin does not read the ranges from the disk (exit $rc)"
	# One disk's surface scan, its report waiting on a slow stdout (a pipe with room for the heading
	# only) when SIGINT comes: the report whole, not cut short by the scan's handler (EINTR), exit 0.
	mkfifo "$out/fifo" 2> /dev/null
	exec {rw}<> "$out/fifo"
	head -c 65236 /dev/zero >&"$rw"
	(exec {rw}<&- && exec env --default-signal=INT,QUIT "$H" --surface-scan "$dev" > "$out/fifo" 2> "$out/s.err") &
	pid=$!
	until_true 20 blocked_writing "$pid"
	kill -INT "$pid"
	until_true 10 settled "$pid"
	(exec {rw}<&- && exec cat "$out/fifo" > "$out/s.raw") &
	reader=$!
	until_true 10 holds_fifo "$reader"
	exec {rw}<&-
	rw=
	finish "$pid" "$reader"
	tail -c +65237 "$out/s.raw" > "$out/s.out"
	[ "$rc" = 0 ] && [ "$(grep -c '^  \(<\|>=\) [0-9]* ms  *[0-9]*$' "$out/s.out")" = 6 ] &&
		grep -q '^ unreadable LBAs: none$' "$out/s.out" && ! grep -q 'standard output' "$out/s.err"
	result_of s $? "one disk's scan, SIGINT while its report waits on a slow stdout: the report whole, exit 0 (exit $rc)"
	wait "$reader" 2> /dev/null
else
	echo "skip streams: closed standard streams need root and a loop device"
fi

# --- item 2: a SIGINT the caller ignored stays ignored ---
# sh -c "trap '' INT; exec hdparm ..." (as `cmd &` in a script): SIGINT to hdparm and to each disk's
# process (a terminal's ^C reaches them all) while both erases are held: neither is interrupted.
rm -f "$out/e.log" "$out/gate"
env SHIM_IDENTIFY="$ata" SHIM_BLOCK_DEV=8:900000 SHIM_LOG="$out/e.log" SHIM_LOG_DEVICE=1 SHIM_DELAY_MS="until:$out/gate" \
	SHIM_DELAY_CMD=f4 "${preload[@]}" "$asan" sh -c "trap '' INT; exec \"\$0\" \"\$@\"" "$H" --security-erase pw \
	/dev/null /dev/zero > "$out/e.out" 2> "$out/e.err" &
pid=$!
until_true 20 held 2
kids=$(pgrep -P "$pid" | tr '\n' ' ')
# shellcheck disable=SC2086
kill -INT "$pid" $kids
# Seen by the processes (or not) before the gate opens: each has it pending, or has acted on it.
# shellcheck disable=SC2086
until_true 10 settled $kids
touch "$out/gate"
finish "$pid"
[ "$rc" = 0 ] && ! grep -qi 'interrupt' "$out/e.err" && [ "$(grep -c 'Issuing SECURITY_ERASE' "$out/e.out")" = 2 ]
result_of e $? "SIGINT ignored by the caller (trap '' INT; exec hdparm), two disks: neither erase interrupted (exit $rc)"

# One disk's wait (--sanitize-wait, output/progress.c's poll_wait_begin): SIGINT, ignored by the
# caller, while the first SANITIZE STATUS EXT (B4h, ACS-3 7.40) is held: the wait goes on to the
# end the double gives (in progress twice, then completed), exit 0.
rm -f "$out/e.log" "$out/gate"
env SHIM_IDENTIFY="$ata" SHIM_LOG="$out/e.log" SHIM_SANITIZE=4000:0000,4000:8000,8000:ffff SHIM_DELAY_MS="until:$out/gate" \
	SHIM_DELAY_CMD=b4 "${preload[@]}" "$asan" sh -c "trap '' INT; exec \"\$0\" \"\$@\"" "$H" --sanitize-wait /dev/null \
	> "$out/e.out" 2> "$out/e.err" &
pid=$!
until_true 20 grep -qs ' b4 00$' "$out/e.log"
kill -INT "$pid"
until_true 10 settled "$pid"
touch "$out/gate"
finish "$pid"
[ "$rc" = 0 ] && grep -q '^Sanitize operation completed without error$' "$out/e.out" && [ "$(grep -c ' b4 00$' "$out/e.log")" = 3 ]
result_of e $? "SIGINT ignored by the caller during one disk's --sanitize-wait: the wait goes on to the end (exit $rc)"

# Before the gate (/dev/zero's IDENTIFY held): SIGINT to hdparm alone, ignored by its caller, does
# not refuse the run; both disks are erased.
rm -f "$out/e.log" "$out/gate"
env SHIM_IDENTIFY="$ata" SHIM_BLOCK_DEV=8:900000 SHIM_LOG="$out/e.log" SHIM_LOG_DEVICE=1 SHIM_DELAY_MS="until:$out/gate" \
	SHIM_DELAY_CMD=ec@/dev/zero "${preload[@]}" "$asan" sh -c "trap '' INT; exec \"\$0\" \"\$@\"" "$H" --security-erase pw \
	/dev/null /dev/zero > "$out/e.out" 2> "$out/e.err" &
pid=$!
until_true 20 grep -qs '^/dev/zero cdb: 85 .* ec ' "$out/e.log"
kill -INT "$pid"
until_true 10 settled "$pid"
touch "$out/gate"
finish "$pid"
[ "$rc" = 0 ] && held 2 && ! grep -q 'not started' "$out/e.err"
result_of e $? "SIGINT ignored by the caller, sent before the gate: the run not refused, both erased (exit $rc)"

# SIGTERM ignored by the caller (`trap '' TERM`) and kept so in each disk's process, which took it as
# the word that hdparm is gone (PR_SET_PDEATHSIG): hdparm killed (SIGKILL) while both hold their first
# DOWNLOAD MICROCODE (92h, ACS-3 7.7): no disk's process goes on to the next piece.
head -c 12288 /dev/urandom > "$out/fw.bin"
rm -f "$out/e.log" "$out/gate"
env SHIM_IDENTIFY="$ata" SHIM_BLOCK_DEV=8:900000 SHIM_LOG="$out/e.log" SHIM_LOG_DEVICE=1 SHIM_DELAY_MS="until:$out/gate" \
	SHIM_DELAY_CMD=92 "${preload[@]}" "$asan" sh -c "trap '' TERM; exec \"\$0\" \"\$@\"" "$H" --fwdownload "$out/fw.bin" \
	--yes-i-know-what-i-am-doing --please-destroy-my-drive /dev/null /dev/zero > "$out/e.out" 2> "$out/e.err" &
pid=$!
pieces() { awk '$2 == "cdb:" && $17 == "92"' "$out/e.log" 2> /dev/null | wc -l; }
two_pieces() { [ "$(pieces)" = 2 ]; }
until_true 20 two_pieces
kids=$(pgrep -P "$pid" | tr '\n' ' ')
# (Not waited for by the shell, which would say "Killed" on the suite's stderr.)
disown "$pid"
kill -KILL "$pid"
until_true 10 gone "$pid"
touch "$out/gate"
# shellcheck disable=SC2086
until_true 10 gone $kids
ended=$?
[ "$ended" = 0 ] && [ -n "$kids" ] && [ "$(pieces)" = 2 ]
result_of e $? "SIGTERM ignored by the caller, hdparm killed mid-download: no disk's process goes on ($(pieces) DOWNLOAD MICROCODE sent, 2 wanted)"
# shellcheck disable=SC2086
[ "$ended" = 0 ] || kill -9 $kids 2> /dev/null

# --- item 4: a signal while the final report is written ---
# Standard output is a pipe left full (64 KiB the test wrote and does not read yet): the report's
# first write waits there.  SIGINT then: the report comes out whole, and only then does hdparm end
# by it.  Text (the disks' output, replayed at the end) and --json (the document, written at exit),
# and one disk's --json.
mkfifo "$out/fifo" 2> /dev/null
for how in text json one; do
	opt=() disks=(/dev/null /dev/zero)
	[ "$how" = json ] && opt=(--json)
	[ "$how" = one ] && opt=(--json) disks=(/dev/null)
	exec {rw}<> "$out/fifo"
	head -c 65536 /dev/zero >&"$rw"
	erase_bg "${opt[@]}" --security-erase pw "${disks[@]}" > "$out/fifo"
	until_true 20 held "${#disks[@]}"
	touch "$out/gate"
	until_true 20 blocked_writing "$pid"
	# Every disk's process ended first: the signal, passed on to none, acts once the report is out.
	# shellcheck disable=SC2046
	until_true 10 gone $(pgrep -P "$pid")
	kill -INT "$pid"
	# The text is said as each disk ends, the handler in place: seen before the reader comes (the JSON's
	# document is written at exit, the signal held: it stays pending).
	[ "$how" != text ] || until_true 10 settled "$pid"
	(exec {rw}<&- && exec cat "$out/fifo" > "$out/r.out") &
	reader=$!
	# The test's end closed once the reader has the FIFO open: never a moment without a reader (EPIPE).
	until_true 10 holds_fifo "$reader"
	exec {rw}<&-
	rw=
	finish "$pid" "$reader"
	tail -c +65537 "$out/r.out" > "$out/r.report"
	if [ "$how" = text ]; then
		[ "$(grep -c 'Issuing SECURITY_ERASE' "$out/r.report")" = 2 ] && grep -qx '/dev/zero:' "$out/r.report"
	else
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["devices"]) == int(sys.argv[2]), d' \
			"$out/r.report" "${#disks[@]}" 2> /dev/null
	fi
	[ $? = 0 ] && [ "$rc" = 130 ]
	result_of e $? "SIGINT while the report ($how) waits on a full stdout: the report whole, then exit 130 (exit $rc, $(wc -c < "$out/r.report") bytes)"
	wait "$reader" 2> /dev/null
done

# A disk's output said as soon as it ended (/dev/null's erase not held), while /dev/zero's is held:
# that early text waits on the full stdout when SIGINT comes.  The write goes on once read (not cut
# short, EINTR, and the text dropped by stdio); then the signal ends /dev/zero's wait (held), or,
# /dev/zero's process ended too before it came (ended), passed on to none, it acts once the text is
# out: exit 130 either way.
for when in held ended; do
	exec {rw}<> "$out/fifo"
	head -c 65536 /dev/zero >&"$rw"
	held_cmd=f4@/dev/zero erase_bg --security-erase pw /dev/null /dev/zero > "$out/fifo"
	until_true 20 blocked_writing "$pid"
	if [ "$when" = ended ]; then
		touch "$out/gate"
		# shellcheck disable=SC2046
		until_true 10 gone $(pgrep -P "$pid")
	fi
	kill -INT "$pid"
	until_true 10 settled "$pid"
	(exec {rw}<&- && exec cat "$out/fifo" > "$out/r.out") &
	reader=$!
	until_true 10 holds_fifo "$reader"
	exec {rw}<&-
	rw=
	finish "$pid" "$reader"
	tail -c +65537 "$out/r.out" > "$out/r.report"
	[ "$rc" = 130 ] && [ "$(grep -c 'Issuing SECURITY_ERASE' "$out/r.report")" = 2 ] && grep -qx '/dev/null:' "$out/r.report" &&
		! grep -q 'standard output' "$out/e.err"
	result_of e $? "SIGINT while a finished disk's text waits on a full stdout, the other disk $when: that text whole, exit 130 (exit $rc, $(wc -c < "$out/r.report") bytes)"
	wait "$reader" 2> /dev/null
done

# --- items 12, 22: standard output that cannot be written ---
# Two disks to /dev/full: its errno (ENOSPC, 28) as one disk has it, not EIO.
run_on_double full SHIM_IDENTIFY="$ata" SHIM_BLOCK_DEV=8:900000 -- --security-erase pw /dev/null /dev/zero
rc=$(env SHIM_IDENTIFY="$ata" SHIM_BLOCK_DEV=8:900000 "${preload[@]}" "$asan" "$H" --security-erase pw /dev/null /dev/zero \
	> /dev/full 2> "$out/full.err"; echo $?)
[ "$rc" = 28 ] && [ "$(cat "$out/full.err")" = "hdparm: standard output: No space left on device" ]
result_of full $? "two disks' erase to /dev/full: 'No space left on device', exit 28 (exit $rc)"
# A run that failed (a disk missing) keeps its exit status, and the lost output is said all the same.
rc=$(env SHIM_IDENTIFY="$ata" "${preload[@]}" "$asan" "$H" -I /dev/null "$out/no-such-disk" > /dev/full 2> "$out/full.err"; echo $?)
[ "$rc" = 2 ] && grep -qx "hdparm: standard output: No space left on device" "$out/full.err"
result_of full $? "a run that failed, stdout to /dev/full: its exit status (2) stays, the lost output said (exit $rc)"
# Past the file size limit (ulimit -f): EFBIG said, not a death by SIGXFSZ.
rc=$(bash -c 'ulimit -f 0 && exec "$@"' sh env SHIM_IDENTIFY="$ata" "${preload[@]}" "$asan" "$H" -I /dev/null \
	> "$out/big.out" 2> >(cat > "$out/big.err"); echo $?)
until_true 10 test -s "$out/big.err"
[ "$rc" = 27 ] && grep -qx "hdparm: standard output: File too large" "$out/big.err"
result_of big $? "stdout past ulimit -f: 'File too large', exit 27, not killed by SIGXFSZ (exit $rc)"
# One disk's erase whose stdout's reader goes away while the erase is held (`| head -1`): its end
# is not a death by SIGPIPE when the JSON document is written; the lost output is said (EPIPE, 32).
exec {rw}<> "$out/fifo"
erase_bg --json --security-erase pw /dev/null > "$out/fifo"
until_true 20 held 1
exec {rw}<&-
rw=
touch "$out/gate"
finish "$pid"
[ "$rc" = 32 ] && grep -qx "hdparm: standard output: Broken pipe" "$out/e.err"
result_of e $? "one disk's erase, stdout's reader gone after the erase was sent: no death by SIGPIPE, 'Broken pipe' said, exit 32 (exit $rc)"
# one_by_one FILE ARGS...: what a run of /dev/null alone, then one of /dev/zero alone, write 2>&1.
one_by_one() {
	local file=$1 d
	shift
	: > "$file"
	for d in /dev/null /dev/zero; do
		env SHIM_IDENTIFY="$ata" "${preload[@]}" "$asan" "$H" "$@" "$d" >> "$file" 2>&1
	done
}

# --- item 13: a disk's stdout and stderr said in the order its process wrote them ---
# A DOWNLOAD MICROCODE run (ATA 92h) writes "/dev/null:" (stdout), "fwdownload: xfer_mode=..."
# (stderr), then its dots and "Done." (stdout).  strace holds hdparm in its first write, the gate's
# "go" to the first disk, for 2 s: the disk's process writes both streams before hdparm reads either,
# and two pipes then gave its stdout first.  What two runs of one disk each write, 2>&1, is the order.
if command -v strace > /dev/null; then
	head -c 8192 /dev/urandom > "$out/fw.bin"
	fw=(--yes-i-know-what-i-am-doing --please-destroy-my-drive --fwdownload "$out/fw.bin")
	one_by_one "$out/fw-one.out" "${fw[@]}"
	env SHIM_IDENTIFY="$ata" "${preload[@]}" "$asan:detect_leaks=0" strace -o "$out/fw.strace" -e trace=write \
		-e inject=write:delay_exit=2000000:when=1 "$H" "${fw[@]}" /dev/null /dev/zero > "$out/fw-two.out" 2>&1
	rc=$?
	[ "$rc" = 0 ] && [ -s "$out/fw-one.out" ] && cmp -s "$out/fw-one.out" "$out/fw-two.out"
	result_of fw-two $? "two disks' --fwdownload, hdparm slow to read them: each disk's stdout and stderr in the order written (exit $rc)"
	# While hdparm waits on its own stdout (a full FIFO: a pager not read), the other disk's process
	# goes on: /dev/null's text is said at its end and waits, /dev/zero's DOWNLOAD MICROCODE held
	# until then; its 16 segments (a dot each on its stdout) must all go out before the FIFO is read.
	# (A socket queues net.unix.max_dgram_qlen datagrams, 10 here: it stopped after about 11.)
	# zero_pieces N: N DOWNLOAD MICROCODE commands went to /dev/zero.
	zero_pieces() { [ "$(awk '$1 == "/dev/zero" && $2 == "cdb:" && $17 == "92"' "$out/e.log" 2> /dev/null | wc -l)" = "$1" ]; }
	# stalled_download N IMAGE: two disks' download of IMAGE, stdout a full FIFO once /dev/null's text
	# is said, /dev/zero held until then; sent_all 0 where its N segments all went out before the FIFO
	# was read; then read ($out/r.out), and rc hdparm's exit status.
	stalled_download() {
		exec {rw}<> "$out/fifo"
		head -c 65536 /dev/zero >&"$rw"
		held_cmd=92@/dev/zero erase_bg "${fw[@]:0:3}" "$2" /dev/null /dev/zero > "$out/fifo"
		until_true 20 blocked_writing "$pid"
		touch "$out/gate"
		until_true 20 zero_pieces "$1"
		sent_all=$?
		(exec {rw}<&- && exec cat "$out/fifo" > "$out/r.out") &
		reader=$!
		until_true 10 holds_fifo "$reader"
		exec {rw}<&-
		rw=
		finish "$pid" "$reader"
		wait "$reader" 2> /dev/null
	}
	stalled_download 16 "$out/fw.bin"
	[ "$sent_all" = 0 ] && [ "$rc" = 0 ] && [ "$(tail -c +65537 "$out/r.out" | grep -c '^................ Done\.$')" = 2 ]
	result_of e $? "two disks' --fwdownload, stdout full once the first is said: the second's 16 segments all sent meanwhile (exit $rc, $(awk '$1 == "/dev/zero" && $2 == "cdb:" && $17 == "92"' "$out/e.log" | wc -l) sent)"
	# The same with 2048 segments: each is a status line too, on the disk's message pipe (64 KiB), which
	# the loop that waits on stdout reads: the pipe filled after about 1000 and held the download there.
	head -c 1048576 /dev/urandom > "$out/fw-big.bin"
	stalled_download 2048 "$out/fw-big.bin"
	[ "$sent_all" = 0 ] && [ "$rc" = 0 ] && [ "$(tail -c +65537 "$out/r.out" | grep -cE '^\.{2048} Done\.$')" = 2 ]
	result_of big $? "two disks' --fwdownload of 2048 segments, stdout full once the first is said: the second's all sent meanwhile (exit $rc, $(awk '$1 == "/dev/zero" && $2 == "cdb:" && $17 == "92"' "$out/e.log" | wc -l) sent)"
	# Two disks' downloads, stdout's reader gone once the first disk's text was read (the second
	# held): the replay's flushes failed unnoted, and the run said "Input/output error", exit 5.
	env SHIM_IDENTIFY="$ata" "${preload[@]}" "$asan" "$H" "${fw[@]}" /dev/null > "$out/fw-null.out" 2> /dev/null
	exec {rw}<> "$out/fifo"
	held_cmd=92@/dev/zero erase_bg "${fw[@]}" /dev/null /dev/zero > "$out/fifo"
	timeout 20 head -c "$(wc -c < "$out/fw-null.out")" <&"$rw" > "$out/r.out"
	exec {rw}<&-
	rw=
	touch "$out/gate"
	finish "$pid"
	[ "$rc" = 32 ] && cmp -s "$out/r.out" "$out/fw-null.out" && grep -qx "hdparm: standard output: Broken pipe" "$out/e.err"
	result_of epipe $? "two disks' --fwdownload, stdout's reader gone after the first disk's text: 'Broken pipe' said, exit 32 (exit $rc)"
	# Where AF_UNIX sockets are forbidden (a sandboxed service), two pipes as before: everything said,
	# each stream whole (their order between them is not kept: pipes).
	: > "$out/fw-one-o.out"
	: > "$out/fw-one-e.out"
	for d in /dev/null /dev/zero; do
		env SHIM_IDENTIFY="$ata" "${preload[@]}" "$asan" "$H" "${fw[@]}" "$d" >> "$out/fw-one-o.out" 2>> "$out/fw-one-e.out"
	done
	${CC:-cc} -shared -fPIC -O2 -o "$out/no-unix-sockets.so" "$top/tests/tools/no-unix-sockets.c" -ldl
	env SHIM_IDENTIFY="$ata" LD_PRELOAD="$shim $out/no-unix-sockets.so" "$asan" "$H" "${fw[@]}" /dev/null /dev/zero \
		> "$out/fw-pipes.out" 2> "$out/fw-pipes.err"
	rc=$?
	[ "$rc" = 0 ] && [ -s "$out/fw-one-o.out" ] && cmp -s "$out/fw-pipes.out" "$out/fw-one-o.out" &&
		cmp -s "$out/fw-pipes.err" "$out/fw-one-e.out"
	result_of fw-pipes $? "two disks' --fwdownload without AF_UNIX sockets: every line of both said, exit 0 (exit $rc)"
else
	bad "strace: not installed (tests/setup installs it)"
fi
# Another local process (any user: an abstract name has no file mode) aims datagrams at those
# sockets (tests/tools/unix-impostor.py), while hdparm is stopped (SIGSTOP) so that they wait in its
# queues.  What each disk says must be what two runs of one say, 2>&1, nothing more nor less.
impostor=$top/tests/tools/unix-impostor.py
head -c 8192 /dev/urandom > "$out/fw13.bin"
fw13=(--yes-i-know-what-i-am-doing --please-destroy-my-drive --fwdownload "$out/fw13.bin")
one_by_one "$out/fw13-one.out" "${fw13[@]}"
# held92 N: N DOWNLOAD MICROCODEs (ATA 92h) sent (and held).
held92() { [ "$(awk '$2 == "cdb:" && $17 == "92"' "$out/e.log" 2> /dev/null | wc -l)" = "$1" ]; }
# impostor_run STEM WRAP... -- MODE [ARG]: both disks' downloads held at their first segment, hdparm
# stopped, the impostor's MODE (forge lets the downloads go itself), the downloads let go; hdparm
# continued once both disks' processes ended.
impostor_run() {
	local stem=$1 wrap=() kids
	shift
	while [ "$1" != -- ]; do wrap+=("$1"); shift; done
	shift
	rm -f "$out/e.log" "$out/gate"
	(exec "${wrap[@]}" env --default-signal=INT,QUIT SHIM_IDENTIFY="$ata" SHIM_LOG="$out/e.log" SHIM_LOG_DEVICE=1 \
		SHIM_DELAY_MS="until:$out/gate" SHIM_DELAY_CMD=92 "${preload[@]}" "$asan" "$H" "${fw13[@]}" /dev/null /dev/zero \
		> "$out/$stem.out" 2>&1) &
	pid=$!
	until_true 20 held92 2
	kids=$(pgrep -P "$pid" | tr '\n' ' ')
	kill -STOP "$pid"
	# shellcheck disable=SC2086 # the disks' processes, one word each
	nsenter -t "$pid" -n python3 "$impostor" "$pid" $kids -- "$@" "$out/gate" > "$out/$stem.imp" 2>&1
	touch "$out/gate"
	# shellcheck disable=SC2086 # the disks' processes, one word each
	until_true 10 gone $kids
	kill -CONT "$pid"
	finish "$pid"
}
# In a network namespace of its own (unshare -n), with net.unix.max_dgram_qlen 512 (systemd's):
# a disk's datagrams held in the queue (16 dots) do not hold its process.
qlen512=(unshare -n sh -c 'sysctl -qw net.unix.max_dgram_qlen=512 && exec "$@"' sh)
if "${qlen512[@]}" true 2> /dev/null && command -v nsenter > /dev/null; then
	# A disk's process that ended frees its sockets' names: one taken then spoke for that disk.
	impostor_run forge "${qlen512[@]}" -- forge
	[ "$rc" = 0 ] && cmp -s "$out/fw13-one.out" "$out/forge.out"
	result_of forge $? "another process that takes a finished disk's socket name: nothing it sends is said for that disk (exit $rc; $(tr '\n' ' ' < "$out/forge.imp"))"
	# 300 datagrams of another process queued before each disk's dots and "Done.": the text whole.
	impostor_run flood "${qlen512[@]}" -- flood 300
	[ "$rc" = 0 ] && cmp -s "$out/fw13-one.out" "$out/flood.out"
	result_of flood $? "300 datagrams of another process before each disk's text: the text whole (exit $rc; $(cat "$out/flood.imp"))"
else
	echo "skip streams: unshare -n or its sysctl is refused here: the tests with another process's datagrams were not run"
fi
echo "end of suite"
