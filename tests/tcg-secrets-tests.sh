#!/bin/bash
# --tcg-psid-revert's secret and its session, on the scripted double (tests/tools/script-double.c),
# which plays the drive's side in the order the script fixes and raises a signal in hdparm at the
# command the script names (no race with a test's kill):
#   - a signal while StartSession's answer is awaited: the answer (SyncSession) still waited for,
#     the session ended (END OF SESSION), no Revert sent;
#   - the PSID's copies in hdparm's memory, read through /proc/PID/mem while hdparm is stopped
#     (SIGSTOP from the script): none once the Revert is sent; the process not dumpable while it
#     holds the PSID;
#   - the terminal's echo after the PSID prompt is left by ^C, ^Z, a hang-up, a kill, end of input.
# The drive's answers are built from the TCG Core Specification 2.01's layouts (3.2.3 ComPacket,
# Packet, SubPacket; 3.2.2 tokens; 5.2.3 SyncSession); "not answered yet" is OutstandingData 1,
# MinTransfer 0, Length 0, as sedutil (DtaDevOpal::exec) and Linux's sed-opal (opal_recv_check)
# poll for; END OF SESSION (FAh) answered with END OF SESSION, as sedutil's sendCommand takes it.
# Usage: tcg-secrets-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" / "skip NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
suite="tcg-secrets" double_source=script-double double_name=tcg-secrets
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
psid=7QZK2M9XWB4T8RH5NC1VJ6LD3PFGS0YE	# no run of bytes that libc holds (its "A...Z0...9" table)
yes=--yes-i-know-what-i-am-doing
d=$out/tcg-secrets
mkdir -p "$d"

# The drive's answers, as hex bytes for the script's "data @FILE".
python3 - "$top" "$d" << 'PY'
import sys
top, d = sys.argv[1], sys.argv[2]
COMID = 0x0888

def write(name, b):
    open("%s/%s.hex" % (d, name), "w").write(" ".join("%02x" % x for x in b) + "\n")

def dump(path):
    # tests/tcg/*.txt: an offset, then up to four groups of 8 hex digits
    b = bytearray()
    for line in open(path):
        w = line.split()
        if len(w) < 2 or len(w[0]) != 4 or line.startswith('#'):
            continue
        for g in w[1:5]:
            if len(g) != 8:
                break
            b += bytes.fromhex(g)
    return bytes(b)

def compacket(data, tsn=0, hsn=0, outstanding=0):
    be = lambda v, n: v.to_bytes(n, 'big')
    if data is None:    # nothing yet: OutstandingData 1, MinTransfer 0, Length 0
        return bytes(4) + be(COMID, 2) + bytes(2) + be(outstanding, 4) + bytes(8)
    pad = (-len(data)) % 4
    sub = bytes(6) + bytes(2) + be(len(data), 4) + data + bytes(pad)
    pkt = be(tsn, 4) + be(hsn, 4) + bytes(4) + bytes(2) + bytes(2) + bytes(4) + be(len(sub), 4) + sub
    return bytes(4) + be(COMID, 2) + bytes(2) + bytes(4) + bytes(4) + be(len(pkt), 4) + pkt

uid = lambda h: bytes([0xa8]) + bytes.fromhex(h)
SM = uid('00000000000000ff')
status = lambda s: bytes([0xf9, 0xf0, s, 0, 0, 0xf1])
name = lambda n, v: bytes([0xf2, 0xd0, len(n)]) + n + v + bytes([0xf3])
write("protocols", bytes(7) + bytes([2, 0x00, 0x01]))       # SPC-4 7.7.1: protocols 00h and 01h
write("level0", dump(top + "/tests/tcg/crucial-mx500.txt"))
write("level0-after", dump(top + "/tests/tcg/crucial-mx500-reverted.txt"))
# Core 5.2.2.1: CALL SMUID Properties [ [ TPer's properties ] { 0 [ the host's ] } ]
props = (bytes([0xf8]) + SM + uid('000000000000ff01') + bytes([0xf0, 0xf0]) +
         name(b'MaxComPacketSize', bytes([0x82, 0x08, 0x00])) + bytes([0xf1, 0xf1]) + status(0))
write("properties", compacket(props))
write("not-yet", compacket(None, outstanding=1))
# Core 5.2.3.2: CALL SMUID SyncSession [ HostSessionID SPSessionID ]: our 1, the TPer's 1001h
sync = (bytes([0xf8]) + SM + uid('000000000000ff03') + bytes([0xf0, 0x01, 0x82, 0x10, 0x01, 0xf1]) + status(0))
write("sync", compacket(sync))
write("revert", compacket(bytes([0xf0, 0xf1]) + status(0), tsn=0x1001, hsn=1))
write("eos", compacket(bytes([0xfa]), tsn=0x1001, hsn=1))
PY

# The commands of a revert on an ATA disk (ACS-3 TRUSTED RECEIVE 5Ch / SEND 5Eh in SAT's ATA PASS-THROUGH,
# as tcg-tests.sh checks them against sedutil's): the security protocols, Level 0 Discovery, then IF-SEND
# and IF-RECV on ComID 0888h.
protocols='sg 85 08 0e 00 00 00 01 00 00 00 00 00 00 00 5c 00'
level0='sg 85 08 0e 00 01 00 04 00 00 00 01 00 00 00 5c 00'
send='sg 85 0a 06 00 01 00 01 00 00 00 88 00 08 00 5e 00'
recv='sg 85 08 0e 00 01 00 04 00 00 00 88 00 08 00 5c 00'
# What an IF-SEND carries, checked by the double: the ComPacket's ComID (bytes 4-5), the Packet's TPer
# session number (20-23), the SubPacket's first tokens (56 on).
any() { printf '.. %.0s' $(seq "$1"); }
call() { echo "out $(any 4)08 88 $(any 14)$1 $(any 32)$2"; }
sm=$(call '00 00 00 00' 'f8 a8 00 00 00 00 00 00 00 ff a8 00 00 00 00 00 00')
properties="$send $sm ff 01"
start_session="$send $sm ff 02"
revert_call="$send $(call '00 00 10 01' 'f8 a8 00 00 02 05 00 00 00 01 a8 00 00 00 06 00 00 02 02')"
end_session="$send $(call '00 00 10 01' 'fa')"

# script NAME LINE...: the double's script.
script() { local f=$d/$1.script; shift; printf '%s\n' "node ata" "$@" > "$f"; }
# start NAME ENV... -- ARGS...: hdparm on the script NAME, in the background (pid); its output in $d/NAME.*.
start() {
	local name=$1 envs=()
	shift
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$d/$name.report" "$d/$name.notes"
	env --default-signal=INT,QUIT DOUBLE_SCRIPT="$d/$name.script" DOUBLE_REPORT="$d/$name.report" DOUBLE_NOTES="$d/$name.notes" \
		"${envs[@]}" "${preload[@]}" "$asan" "$H" "$@" /dev/null <&0 > "$d/$name.out" 2> "$d/$name.err" &
	pid=$!
}
# details NAME: what the double reported and hdparm said on stderr, under a FAIL line.
details() {
	sed 's/^/  double: /' "$d/$1.report" 2> /dev/null
	head -n 5 "$d/$1.err" | sed 's/^/  stderr: /'
}
# stopped PID: the process is stopped (SIGSTOP).
stopped() { [ "$(awk '{ print $3 }' /proc/"$1"/stat 2> /dev/null)" = T ]; }
# copies PID: how many times the PSID is in the process's memory (every readable mapping, /proc/PID/mem),
# read a MiB at a time, each piece with the PSID's length less one of the next, so that a copy across two
# pieces is found.  A mapping over 1 GiB is left: none of hdparm's is, but an AddressSanitizer build's
# shadow memory is terabytes (in which the PSID's bytes cannot be, only their poison marks).
copies() {
	python3 - "$1" "$psid" << 'PY'
import re, sys
pid, psid = sys.argv[1], sys.argv[2].encode()
piece = 1 << 20
n = 0
with open("/proc/%s/maps" % pid) as maps, open("/proc/%s/mem" % pid, "rb", 0) as mem:
    for line in maps:
        m = re.match(r"([0-9a-f]+)-([0-9a-f]+) (\S+)", line)
        if m.group(3)[0] != "r" or line.rstrip().endswith("[vvar]") or line.rstrip().endswith("[vsyscall]"):
            continue
        start, end = int(m.group(1), 16), int(m.group(2), 16)
        if end - start > 1 << 30:
            continue
        at = start
        while at < end:
            try:
                mem.seek(at)
                n += mem.read(min(piece + len(psid) - 1, end - at)).count(psid)
            except (OSError, ValueError, OverflowError):
                pass
            at += piece
print(n)
PY
}

# --- a signal while StartSession's answer is awaited (issue 60, item 16) ---
# The drive has not answered StartSession at the first IF-RECV (the double raises the signal there),
# answers SyncSession at the second: the session is open, so it is ended (END OF SESSION to the
# TPer's session number, 1001h) and no Revert is sent; exit 4 (EINTR), the interruption said.
for sig in INT TERM HUP; do
	script sig-start "$protocols -> data @$d/protocols.hex" "$level0 -> data @$d/level0.hex" \
		"$properties" "$recv -> data @$d/properties.hex" "$start_session" \
		"$recv -> data @$d/not-yet.hex raise $sig" "$recv -> data @$d/sync.hex" \
		"$end_session" "$recv -> data @$d/eos.hex"
	start sig-start -- $yes --tcg-psid-revert "$psid"
	wait_within 30 "$pid"
	what="SIG$sig while StartSession's answer is awaited: SyncSession waited for, END OF SESSION sent, no Revert, exit 4"
	if [ "$rc" = 4 ] && [ ! -s "$d/sig-start.report" ] &&
		grep -qx ' --tcg-psid-revert: StartSession: interrupted before Revert was sent; the session was ended (END OF SESSION); nothing was reverted' "$d/sig-start.err"; then
		ok "$what"
	else
		bad "$what (exit $rc)"
		details sig-start
	fi
done

# --- the PSID in memory (issue 60, item 17) ---
# The double stops hdparm (SIGSTOP) twice: at SyncSession, while the PSID is still needed (the sanity
# check: the scan finds it, and the process is not dumpable), and at the Revert's answer, once the
# Revert is sent: no copy is left in any mapping (the buffer it was read into, the command line's
# word, the call's tokens, its packet, stdio's buffer).  The PSID given on the command line, and
# read from standard input.
# revert_script [LINE...]: a whole revert, the lines given first.
revert_script() {
	script revert "$@" "$protocols -> data @$d/protocols.hex" "$level0 -> data @$d/level0.hex" \
		"$properties" "$recv -> data @$d/properties.hex" "$start_session" \
		"$recv -> data @$d/sync.hex raise STOP" "$revert_call" "$recv -> data @$d/revert.hex raise STOP" \
		"$protocols -> data @$d/protocols.hex" "$level0 -> data @$d/level0-after.hex"
}
for from in argv stdin; do
	revert_script
	if [ "$from" = argv ]; then
		start revert -- $yes --tcg-psid-revert "$psid" < /dev/null
	else
		echo "$psid" > "$d/psid.txt"
		start revert -- $yes --tcg-psid-revert - < "$d/psid.txt"
	fi
	seen=()
	for _ in 1 2; do
		if until_true 20 stopped "$pid"; then
			seen+=("$(copies "$pid")")
			kill -CONT "$pid"	# running again once kill returns: the next "stopped" is the next stop
		fi
	done
	wait_within 30 "$pid"
	what="PSID from $from: held in memory while the session opens, not dumpable then; no copy once the Revert is sent"
	notes=$(tr '\n' ' ' < "$d/revert.notes" 2> /dev/null)
	if [ "${#seen[@]}" = 2 ] && [ "${seen[0]}" -ge 1 ] && [ "${seen[1]}" = 0 ] &&
		[ "$notes" = "STOP dumpable 0 STOP dumpable 1 " ] && [ ! -s "$d/revert.report" ] &&
		grep -qx " Revert: SUCCESS, the drive's TCG state is its factory's; Locking now not enabled, not locked" "$d/revert.out"; then
		ok "$what"
	else
		bad "$what (exit $rc)" "copies at the two stops: ${seen[*]}" "the double's notes: $notes"
		details revert
	fi
done
# Two disks at once: each has a process of its own (run/together.c), forked with a copy of the PSID.
# Once both have sent their Revert (both stopped at its answer): no copy in either, nor in the process
# that started them, which no longer needs it.  Each disk's process plays the script from its start
# (the refusals checked for every disk before any is sent the revert, then the revert).
revert_script "$protocols -> data @$d/protocols.hex" "$level0 -> data @$d/level0.hex"
start revert -- $yes --tcg-psid-revert "$psid" /dev/zero < /dev/null
kids=()
children() { cat /proc/"$1"/task/"$1"/children 2> /dev/null; }
until_true 20 eval '[ "$(children "$pid" | wc -w)" = 2 ]' && read -ra kids <<< "$(children "$pid")"
seen=()
for round in 1 2; do
	for kid in "${kids[@]}"; do until_true 20 stopped "$kid"; done
	[ "$round" = 2 ] && for p in "$pid" "${kids[@]}"; do seen+=("$(copies "$p")"); done
	for kid in "${kids[@]}"; do kill -CONT "$kid"; done
done
wait_within 30 "$pid"
what="two disks at once: no copy of the PSID once both Reverts are sent, in either disk's process or in theirs"
if [ "${#kids[@]}" = 2 ] && [ "${seen[*]}" = "0 0 0" ] && [ "$rc" = 0 ] && ! grep -q '^unexpected' "$d/revert.report"; then
	ok "$what"
else
	bad "$what (exit $rc)" "copies (the first process, then each disk's): ${seen[*]}"
	details revert
fi

# --- the terminal's echo after the PSID prompt (issue 60, item 18) ---
# On a pseudo-terminal (python3's pty), no PSID given: the prompt turns the echo off; each way out of
# it must turn it back on: ^C (SIGINT), ^\ (SIGQUIT), ^D (end of input), SIGTERM, SIGHUP.  ^Z (SIGTSTP)
# under a shell with job control (bash, set -m): the echo on while hdparm is stopped, the prompt
# again (echo off) once fg continues it, then ^D.  The termios ECHO flag is read on the terminal
# (the master side) once hdparm is gone, or by stty in the shell while it is stopped.
python3 - "$H" > "$d/tty.out" 2>&1 << 'PY'
import os, pty, select, signal, sys, termios, time
hdparm = sys.argv[1]
args = [hdparm, "--yes-i-know-what-i-am-doing", "--tcg-psid-revert", "/dev/null"]
PROMPT = b"PSID (the 32 characters on the drive's label, without dashes): "

class Tty:
    def __init__(self, argv):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            # As a terminal's shell starts a command: a suite run in the background (`make check &`) has
            # SIGINT and SIGQUIT ignored, python SIGPIPE, and hdparm rightly keeps an ignored signal.
            for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGHUP, signal.SIGTSTP, signal.SIGPIPE):
                signal.signal(s, signal.SIG_DFL)
            os.execv(argv[0], argv)
        self.buf = b""
    def until(self, test, seconds=20):
        end = time.monotonic() + seconds
        while not test(self.buf):
            r, _, _ = select.select([self.fd], [], [], max(0, end - time.monotonic()))
            try:
                got = os.read(self.fd, 1024) if r else b""
            except OSError:
                got = b""
            if not got:
                return False
            self.buf += got
        return True
    def reap(self, seconds=20):
        """How the process ended; None where it had not in SECONDS (then it is killed)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            got, st = os.waitpid(self.pid, os.WNOHANG)
            if got:
                return st
            time.sleep(0.05)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        return None
    def echo(self):
        return bool(termios.tcgetattr(self.fd)[3] & termios.ECHO)

for name, how, want in [("^C", b"\x03", signal.SIGINT), ("^\\", b"\x1c", signal.SIGQUIT), ("^D", b"\x04", None),
                        ("SIGTERM", signal.SIGTERM, signal.SIGTERM), ("SIGHUP", signal.SIGHUP, signal.SIGHUP)]:
    t = Tty(args)
    prompted = t.until(lambda b: PROMPT in b)
    quiet = prompted and not t.echo()
    if isinstance(how, bytes):
        os.write(t.fd, how)
    else:
        os.kill(t.pid, how)
    st = t.reap()
    if st is None:
        print("FAIL %s: the prompt without echo %s, then no end in 20 s (killed)" % (name, quiet))
        continue
    died = os.WTERMSIG(st) if os.WIFSIGNALED(st) else None
    good = quiet and t.echo() and (died == want if want else os.WIFEXITED(st) and os.WEXITSTATUS(st) != 0)
    print("%s %s: the prompt without echo %s, then %s, the echo back %s" % (
        "ok" if good else "FAIL", name, quiet, "killed by %s" % died if died else "exit %s" % (st >> 8), t.echo()))

# ^Z: a shell with job control, so that hdparm's process group is not orphaned and really stops.
script = r"""set -m
"$@"
echo "[stopped: $(stty -a | tr ' ;' '\n\n' | grep -x -- '-\?echo')]"
fg > /dev/null
echo "[ended $?: $(stty -a | tr ' ;' '\n\n' | grep -x -- '-\?echo')]"
"""
t = Tty(["/bin/bash", "-c", script, "bash"] + args)
steps = [t.until(lambda b: PROMPT in b)]
os.write(t.fd, b"\x1a")
steps.append(t.until(lambda b: b"[stopped: " in b and b"]" in b.split(b"[stopped: ")[1]))
steps.append(t.until(lambda b: b.count(PROMPT) == 2))
steps.append(steps[-1] and not t.echo())
os.write(t.fd, b"\x04")
steps.append(t.until(lambda b: b"[ended " in b and b"]" in b.split(b"[ended ")[1]))
steps.append(t.reap() is not None)
good = all(steps) and b"[stopped: echo]" in t.buf and b"[ended 22: echo]" in t.buf
print("%s ^Z: the echo back while stopped, the prompt again without echo once continued, then ^D: %s" % (
    "ok" if good else "FAIL", steps))
if not good:
    print("  " + repr(t.buf))
PY
while IFS= read -r line; do
	case "$line" in
	'ok '*) ok "PSID prompt, ${line#ok }" ;;
	'FAIL '*) bad "PSID prompt, ${line#FAIL }" ;;
	*) echo "  $line" ;;
	esac
done < "$d/tty.out"
echo "end of suite"
