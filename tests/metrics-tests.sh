#!/bin/bash
# --metrics against the test double (tests/tools/sgio-shim.c): an awake ATA, NVMe and SCSI disk.
# Each output passes promtool check metrics (Debian's prometheus package), and each value is what
# -H, -C, --erc, -W and -I print for the same answers of the double; without a device, the disks
# /sys/block lists (a fake one) are read; a loop device's block sizes are blockdev's.  (The
# commands sent to a sleeping disk, and a disk that does not answer: tests/ops/metrics.cases.)
# Usage: metrics-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" / "skip NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
suite=metrics double_name=metrics
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
# shellcheck source=tests/tools/oracle.sh
. "$top/tests/tools/oracle.sh"
asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

result() {
	if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; sed 's/^/  /' "$out/metrics.why" 2> /dev/null | head -n 8; fi
}

mkdir -p "$out/metrics-logs"
grep -v '^#' "$top/tests/ops/data/sct-status-erc-get.hex" > "$out/metrics-logs/e0.hex"
intel=$top/tests/identify/real/INTEL_SSDSA2CW120G3--4PC10302.hex
# The same awake disk of each kind: ATA (a real SSD's page: SCT Status 38 C, the error recovery
# timers FFh), NVMe (QEMU's controller, 311 K), SCSI (an 8 TB SAS disk: 38 C, limit 7000 ms).
kinds=(
	"ata SHIM_IDENTIFY=$intel SHIM_COUNT=0xff SHIM_LBA=0 SHIM_LOGS=$out/metrics-logs"
	"nvme SHIM_NVME=$top/tests/nvme/qemu-ctrl.hex,$top/tests/nvme/qemu-ns.hex SHIM_NVME_TEMP=311 SHIM_SYSFS=$out/metrics-nosys"
	"scsi SHIM_SCSI=1 SHIM_SCSI_TEMPERATURE=38,60"
)
mkdir -p "$out/metrics-nosys/sys"
for k in "${kinds[@]}"; do
	read -r kind envs <<< "$k"
	# shellcheck disable=SC2086 # the double's settings are words
	env $envs "${preload[@]}" "$asan" "$H" --metrics /dev/null > "$out/metrics-$kind.prom" 2> "$out/metrics-$kind.err"
	rc=$?
	# shellcheck disable=SC2086
	env $envs "${preload[@]}" "$asan" "$H" -H -C --erc -W -I /dev/null > "$out/metrics-$kind.txt" 2> /dev/null
	python3 - "$kind" "$out/metrics-$kind.prom" "$out/metrics-$kind.txt" > "$out/metrics.why" 2>&1 << 'EOF'
import re, sys
kind, prom, text = sys.argv[1], open(sys.argv[2]).read(), open(sys.argv[3]).read()
samples = {}
for line in prom.splitlines():
    if line.startswith('#'):
        continue
    m = re.fullmatch(r'(\w+)(?:\{(.*)\})? (\S+)', line)
    assert m, line
    labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or ''))
    assert labels.get('device') == 'null', line
    samples[(m.group(1), labels.get('state') or labels.get('op') or '')] = (float(m.group(3)), labels)
def text_of(pattern):
    m = re.search(pattern, text, re.M)
    assert m, pattern
    return m.group(1)
problems = []
def want(key, value):
    got = samples.get(key, (None,))[0]
    if got != value:
        problems.append('%s: %s, wanted %s (what the other options print)' % (key, got, value))
want(('hdparm_disk_up', ''), 1)
want(('hdparm_disk_temperature_celsius', ''), float(text_of(r'^ drive temperature \(celsius\) is:  (-?\d+)$')))
state = text_of(r'^ drive state is:  (\S+)')
for s in ('active', 'idle', 'standby', 'sleep'):
    want(('hdparm_disk_power_state', s), 1.0 if {'active/idle': 'active'}.get(state, state) == s else 0.0)
erc = re.search(r'^ error recovery limits?:  (?:read )?(off|\S+ s)(?:, write (off|\S+ s))?', text, re.M)
assert erc, 'no --erc line'
seconds = lambda t: 0.0 if t == 'off' else float(t[:-2])
want(('hdparm_disk_error_recovery_limit_seconds', 'read'), seconds(erc.group(1)))
want(('hdparm_disk_error_recovery_limit_seconds', 'write'), seconds(erc.group(2) or erc.group(1)))
want(('hdparm_disk_write_cache_enabled', ''), float(text_of(r'^ write-caching =  (\d)')))
info = samples.get(('hdparm_disk_info', ''), (None, {}))[1]
if kind in ('ata', 'nvme'):
    for label, pattern in (('model', r'Model Number:\s+(.*?)\s*$'), ('serial', r'Serial Number:\s+(.*?)\s*$'),
                           ('firmware', r'Firmware Revision:\s+(.*?)\s*$')):
        if info.get(label) != text_of(pattern):
            problems.append('info %s: %r, -I says %r' % (label, info.get(label), text_of(pattern)))
if info.get('kind') != kind:
    problems.append('info kind: %r' % info.get('kind'))
if kind == 'ata':
    want(('hdparm_disk_capacity_bytes', ''), 512.0 * int(text_of(r'LBA48  user addressable sectors:\s+(\d+)')))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
EOF
	[ "$rc" = 0 ] && [ ! -s "$out/metrics-$kind.err" ] && [ ! -s "$out/metrics.why" ]
	result $? "$kind: each value as -H, -C, --erc, -W and -I give it"
	if oracle metrics promtool "promtool (prometheus)"; then
		promtool check metrics < "$out/metrics-$kind.prom" > "$out/metrics.why" 2>&1
		result $? "$kind: promtool check metrics accepts the text"
	fi
done

# A drive whose strings hold any byte (a mutated page, tests/identify/pages/garbage.hex): the labels
# stay printable ASCII (each other byte as the text \xNN), which the format and promtool accept.
env SHIM_IDENTIFY="$top/tests/identify/pages/garbage.hex" SHIM_COUNT=0xff "${preload[@]}" "$asan" \
	"$H" --metrics /dev/null > "$out/metrics-garbage.prom" 2> /dev/null
LC_ALL=C grep -q '[^ -~]' "$out/metrics-garbage.prom"
printable=$?
grep -q '^hdparm_disk_info{device="null",kind="ata",model="\\\\xAC' "$out/metrics-garbage.prom" && [ "$printable" = 1 ] &&
	{ ! command -v promtool > /dev/null || promtool check metrics < "$out/metrics-garbage.prom" > "$out/metrics.why" 2>&1; }
result $? "a drive's strings of any byte: labels in printable ASCII (\\xNN), promtool accepts them"

# Three disks of the double and one that does not open, in one run: every family once, its samples
# together; the disk that did not open is down and the others are still read; exit 0.
env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LBA=0 SHIM_LOGS="$out/metrics-logs" "${preload[@]}" "$asan" \
	"$H" --metrics /dev/null /dev/zero "$out/no-such-disk" /dev/full > "$out/metrics-four.prom" 2> "$out/metrics-four.err"
rc=$?
python3 - "$out/metrics-four.prom" > "$out/metrics.why" 2>&1 << 'EOF'
import re, sys
seen, last, problems = [], None, []
up = {}
for line in open(sys.argv[1]):
    m = re.match(r'# TYPE (\w+) gauge$', line)
    if m:
        if m.group(1) in seen:
            problems.append('%s has two TYPE lines' % m.group(1))
        seen.append(m.group(1))
    m = re.match(r'hdparm_disk_up\{device="([^"]*)"\} (\d)$', line)
    if m:
        up[m.group(1)] = m.group(2)
if up != {'null': '1', 'zero': '1', 'no-such-disk': '0', 'full': '1'}:
    problems.append('up: %s' % up)
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
EOF
[ "$rc" = 0 ] && [ ! -s "$out/metrics.why" ] && [ "$(grep -c 'no-such-disk' "$out/metrics-four.err")" = 1 ]
result $? "four disks, one not there: each family once, that one down (said on stderr), the others read, exit 0"

# --metrics --check-config FILE: each setting's drift as --check-config says it for the same answers
# (DRIFTED 1, holds 0; one it cannot read, or a command such as standby, no sample); nothing sent
# but reads (no SET FEATURES, EFh, reaches the double).
printf '/dev/null {\n\twrite_cache = off\n\tlookahead = on\n\tapm = 254\n\tstandby\n}\n' > "$out/metrics.conf"
e=(SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LOG="$out/metrics-conf.log")
env "${e[@]}" "${preload[@]}" "$asan" "$H" --check-config "$out/metrics.conf" > "$out/metrics-check.txt" 2> /dev/null
want=$(sed -n 's/^ \([a-z_]*\) = [^:]*: DRIFTED.*/\1 1/p; s/^ \([a-z_]*\) = [^:]*: holds$/\1 0/p' "$out/metrics-check.txt" | sort | tr '\n' ';')
rm -f "$out/metrics-conf.log"
env "${e[@]}" "${preload[@]}" "$asan" "$H" --metrics --check-config "$out/metrics.conf" > "$out/metrics-conf.prom" 2> /dev/null
rc=$?
got=$(sed -n 's/^hdparm_config_drifted{device="null",key="\([a-z_]*\)"} \([01]\)$/\1 \2/p' "$out/metrics-conf.prom" | sort | tr '\n' ';')
[ "$rc" = 0 ] && [ "$want" = "lookahead 0;write_cache 1;" ] && [ "$got" = "$want" ] && ! grep -q ' ef 00$' "$out/metrics-conf.log" &&
	{ ! command -v promtool > /dev/null || promtool check metrics < "$out/metrics-conf.prom" > /dev/null 2>&1; }
result $? "--check-config's drift: $got as --check-config says it ($want), nothing set"

# APM, as -B reads it (a real drive's page, level 128), and with --tcg the Locking feature of Level 0
# Discovery as --tcg decodes it (a real MX500's: enabled, not locked); without --tcg, no IF-RECV.
fujitsu=$top/tests/identify/real/FUJITSU_MHY2120BH--0084000D.hex
apm=$(env SHIM_IDENTIFY="$fujitsu" "${preload[@]}" "$asan" "$H" -B /dev/null 2> /dev/null | sed -n 's/^ APM_level\t= //p')
got=$(env SHIM_IDENTIFY="$fujitsu" SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" --metrics /dev/null 2> /dev/null |
	sed -n 's/^hdparm_disk_apm_level{device="null"} //p')
[ "$apm" = 128 ] && [ "$got" = "$apm" ]
result $? "hdparm_disk_apm_level $got, as -B reads it ($apm)"
t=(SHIM_COUNT=0xff SHIM_TCG="$top/tests/tcg/crucial-mx500.txt" SHIM_LOG="$out/metrics-tcg.log")
want=$(env "${t[@]}" "${preload[@]}" "$asan" "$H" --tcg /dev/null 2> /dev/null |
	sed -n 's/.*Locking (0002h).* locking enabled \([a-z]*\), locked \([a-z]*\),.*/\1 \2/p' | sed 's/yes/1/g; s/no/0/g')
got=$(env "${t[@]}" "${preload[@]}" "$asan" "$H" --metrics --tcg /dev/null 2> /dev/null |
	sed -n 's/^hdparm_disk_tcg_locking_enabled{device="null"} //p; s/^hdparm_disk_tcg_locked{device="null"} //p' | tr '\n' ' ')
rm -f "$out/metrics-tcg.log"
env "${t[@]}" "${preload[@]}" "$asan" "$H" --metrics /dev/null > /dev/null 2>&1
[ "$want" = "1 0" ] && [ "$got" = "1 0 " ] && ! grep -q '^cdb: .* 5c 00$' "$out/metrics-tcg.log"
result $? "--metrics --tcg: locking enabled and locked ($got) as --tcg decodes them ($want); without --tcg no TRUSTED RECEIVE"

# No device: the whole disks /sys/block lists (a fake /sys: sd*, hd*, NVMe namespaces; not a
# namespace's per-path node, a loop device, a CD-ROM or a dm volume), none of which opens here.
sys=$out/metrics-sys/sys
rm -rf "$out/metrics-sys"
mkdir -p "$sys/block"
for d in sdzz hdzz nvme99n1 nvme99c0n1 loop99 sr99 dm-99 nvme99n2; do mkdir "$sys/block/$d"; done
env SHIM_SYSFS="$out/metrics-sys" "${preload[@]}" "$asan" "$H" --metrics > "$out/metrics-all.prom" 2> /dev/null
rc=$?
devices=$(sed -n 's/^hdparm_disk_up{device="\([^"]*\)"} 0$/\1/p' "$out/metrics-all.prom" | tr '\n' ' ')
[ "$rc" = 0 ] && [ "$devices" = "hdzz nvme99n1 nvme99n2 sdzz " ]
result $? "no device: every whole disk /sys/block lists, sorted (got: $devices)"

# --metrics-file: the same text, written whole (a temporary file beside it, renamed over it), read
# by Debian's prometheus-node-exporter's textfile collector: its samples served, no scrape error.
tf=$out/metrics-textfile
rm -rf "$tf"
mkdir -p "$tf"
echo "stale" > "$tf/hdparm.prom"
env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LBA=0 SHIM_LOGS="$out/metrics-logs" "${preload[@]}" "$asan" \
	"$H" --metrics-file "$tf/hdparm.prom" /dev/null > "$out/metrics-file.out" 2>&1
rc=$?
[ "$rc" = 0 ] && [ ! -s "$out/metrics-file.out" ] && [ "$(ls "$tf")" = hdparm.prom ] &&
	env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LBA=0 SHIM_LOGS="$out/metrics-logs" "${preload[@]}" "$asan" \
		"$H" --metrics /dev/null 2> /dev/null | cmp -s - "$tf/hdparm.prom"
result $? "--metrics-file: --metrics' text in the file, nothing on stdout, no temporary file left"
env "${preload[@]}" "$asan" "$H" --metrics-file "$out/no-such-folder/hdparm.prom" /dev/null > /dev/null 2> "$out/metrics.err"
rc=$?
[ "$rc" = 2 ] && grep -q "^--metrics-file: $out/no-such-folder/hdparm.prom: No such file or directory" "$out/metrics.err"
result $? "--metrics-file into a folder that is not there: said, exit 2 (ENOENT)"
# A file that cannot be written (a full file system; here a file size limit of 0, EFBIG) where the
# last run's file says "up": that file is removed, said, the error the exit status; it
# was left saying every disk up, run after run (node_exporter serves it as if new).
nf=$out/metrics-nospace
rm -rf "$nf"
mkdir -p "$nf"
env SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" --metrics-file "$nf/hdparm.prom" /dev/null 2> /dev/null
before=$(grep -c '^hdparm_disk_up{.*} 1$' "$nf/hdparm.prom")
# (stderr through a pipe: a file would take no line under the limit either)
(ulimit -f 0 && exec env SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" \
	--metrics-file "$nf/hdparm.prom" /dev/null 2>&1 > /dev/null) | cat > "$out/metrics.err"
rc=${PIPESTATUS[0]}
[ "$before" = 1 ] && [ "$rc" = 27 ] && [ -z "$(ls "$nf")" ] &&
	grep -q "^--metrics-file: $nf/hdparm.prom: File too large (the last run's file removed" "$out/metrics.err"
result $? "--metrics-file that cannot be written: the last run's file removed, said, exit 27 (EFBIG) (exit $rc)"

# Only a regular file is replaced (issue 60, item 10): a device node (as root, --metrics-file /dev/null
# once made the system's /dev/null a file), a FIFO, a symbolic link, a folder are refused at once:
# one line, exit 22, nothing sent to the disk (the double's log stays empty), left as they were.
rm -rf "$out/metrics-kinds"
mkdir -p "$out/metrics-kinds/folder"
echo "another file" > "$out/metrics-kinds/target"
mkfifo "$out/metrics-kinds/fifo"
ln -s target "$out/metrics-kinds/link"
kinds=("a FIFO:fifo:-p" "a symbolic link:link:-L" "a folder:folder:-d")
if [ "$(id -u)" = 0 ] && mknod "$out/metrics-kinds/node" c 1 3; then
	kinds+=("a device node:node:-c")
else
	echo "skip metrics: a device node as --metrics-file needs root (mknod)"
fi
for k in "${kinds[@]}"; do
	IFS=: read -r kind name test_op <<< "$k"
	f=$out/metrics-kinds/$name
	rm -f "$out/metrics-cmd.log"
	env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LOG="$out/metrics-cmd.log" "${preload[@]}" "$asan" \
		"$H" --metrics-file "$f" /dev/null > "$out/metrics-file.out" 2> "$out/metrics.err"
	rc=$?
	[ "$rc" = 22 ] && [ ! -s "$out/metrics-cmd.log" ] && test "$test_op" "$f" &&
		[ "$(cat "$out/metrics-kinds/target")" = "another file" ] && [ -z "$(ls "$out/metrics-kinds/folder")" ] &&
		[ "$(cat "$out/metrics.err")" = "--metrics-file $f: $kind, not a regular file: refused, nothing was sent" ] &&
		[ "$(ls "$out/metrics-kinds" | wc -l)" = "$((${#kinds[@]} + 1))" ]
	result $? "--metrics-file naming $kind: refused at once, nothing sent, left as it was, exit 22 (exit $rc)" ||
		{ head -n 2 "$out/metrics.err"; ls -l "$out/metrics-kinds"; } | sed 's/^/  /'
done
# ... and again at the write: FILE, not there when hdparm started (then a comment alone while the disks
# are asked), made a symbolic link while the disk answers (CHECK POWER MODE, E5h, held until the test
# opens the gate): the link is left, said, exit 15.
rm -f "$out/metrics-late" "$out/metrics-gate" "$out/metrics-cmd.log"
env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LOG="$out/metrics-cmd.log" SHIM_DELAY_CMD=e5 \
	SHIM_DELAY_MS="until:$out/metrics-gate" "${preload[@]}" "$asan" \
	"$H" --metrics-file "$out/metrics-late" /dev/null > "$out/metrics-file.out" 2> "$out/metrics.err" &
pid=$!
until_true 10 grep -qs '^cdb: .* e5 00$' "$out/metrics-cmd.log"
ln -sfn metrics-kinds/target "$out/metrics-late"
touch "$out/metrics-gate"
wait_within 120 "$pid"
[ "$rc" = 15 ] && [ -L "$out/metrics-late" ] && [ "$(cat "$out/metrics-kinds/target")" = "another file" ] &&
	[ -z "$(ls "$out" | grep '^metrics-late\.')" ] &&
	grep -qxF -- "--metrics-file: $out/metrics-late: not a regular file (a device node, FIFO, socket or symbolic link is left alone) (the file is left as it was)" "$out/metrics.err"
result $? "--metrics-file made a symbolic link during the run: left a link, no temporary file, said, exit 15 (exit $rc)" ||
	sed 's/^/  /' "$out/metrics.err" | head -n 3
rm -f "$out/metrics-late" "$out/metrics-gate"
# A signal while the file is written (issue 60, item 12) leaves no temporary file: strace sends it
# at the temporary file's fchmod(), between mkstemp() and rename() (the second: the first is the
# comment that stands in while the disks are asked).  The signal waits until the
# file is whole and in place, then ends hdparm (exit 128 + the signal).
if command -v strace > /dev/null; then
	env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LBA=0 SHIM_LOGS="$out/metrics-logs" "${preload[@]}" "$asan" \
		"$H" --metrics /dev/null > "$out/metrics-want.prom" 2> /dev/null
	sf=$out/metrics-signalled
	for sig in TERM INT HUP; do
		rm -rf "$sf"
		mkdir -p "$sf"
		# (In a subshell whose stderr is dropped: bash's word on the signal that ended strace goes there.
		# The signals' default actions: a suite run in the background inherits SIGINT ignored.)
		(env --default-signal=INT,QUIT,TERM,HUP SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LBA=0 SHIM_LOGS="$out/metrics-logs" "${preload[@]}" \
			"$asan:detect_leaks=0" strace -f -qq -o /dev/null -e trace=fchmod -e inject=fchmod:signal=SIG"$sig":when=2 \
			"$H" --metrics-file "$sf/hdparm.prom" /dev/null > /dev/null 2>&1
			exit $?) 2> /dev/null
		rc=$?
		[ "$rc" = $((128 + $(kill -l "$sig"))) ] && [ "$(ls "$sf")" = hdparm.prom ] && cmp -s "$out/metrics-want.prom" "$sf/hdparm.prom"
		result $? "SIG$sig while --metrics-file is written: the file whole, no temporary file left, exit 128 + $(kill -l "$sig") (exit $rc: $(ls "$sf" | tr '\n' ' '))"
	done
else
	echo "skip metrics: strace is not installed (tests/setup installs it): a signal during the write not checked"
fi
if oracle metrics prometheus-node-exporter "prometheus-node-exporter"; then
	port=$((20000 + $$ % 20000))
	prometheus-node-exporter --collector.disable-defaults --collector.textfile --collector.textfile.directory="$tf" \
		--web.listen-address="127.0.0.1:$port" > "$out/node-exporter.log" 2>&1 &
	exporter=$!
	scrape() {
		python3 -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=5).read().decode())' "$port" > "$out/metrics-scrape.txt" 2> /dev/null
	}
	for _ in $(seq 100); do scrape && break; sleep 0.1; done
	kill "$exporter" 2> /dev/null
	wait "$exporter" 2> /dev/null
	grep -qx 'hdparm_disk_up{device="null"} 1' "$out/metrics-scrape.txt" &&
		grep -qx 'hdparm_disk_temperature_celsius{device="null"} 38' "$out/metrics-scrape.txt" &&
		grep -qx 'node_textfile_scrape_error 0' "$out/metrics-scrape.txt"
	result $? "node_exporter's textfile collector serves the file's samples, node_textfile_scrape_error 0" ||
		tail -n 3 "$out/node-exporter.log" | sed 's/^/  /'
fi

# A sleeping ATA disk behind libata keeps its hdparm_disk_info and capacity from what the kernel
# keeps (a fake /sys laid out as libata writes it: vendor "ATA", the 16-byte model, and VPD page 83h
# with SAT's T10 vendor ID designator, "ATA     ", IDENTIFY's 40-byte model and 20-byte serial, and
# the NAA designator of its WWN; the size by BLKGETSIZE64): the same model, serial and WWN as the
# awake disk's IDENTIFY gives, the kernel's size, and still only CHECK POWER MODE sent.
awake=$(env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LBA=0 SHIM_LOGS="$out/metrics-logs" "${preload[@]}" "$asan" \
	"$H" --metrics /dev/null 2> /dev/null | grep '^hdparm_disk_info')
python3 - "$out/metrics-kern/sys/dev/block/8:900000/device" "$awake" << 'EOF2'
import os, re, sys
d, info = sys.argv[1], sys.argv[2]
labels = dict(re.findall(r'(\w+)="([^"]*)"', info))
os.makedirs(d, exist_ok=True)
open(d + '/vendor', 'w').write('ATA     \n')
open(d + '/model', 'w').write(labels['model'][:16].ljust(16) + '\n')
open(d + '/rev', 'w').write(labels['firmware'][-4:] + '\n')
t10 = b'ATA     ' + labels['model'].ljust(40).encode() + labels['serial'].ljust(20).encode()
naa = bytes.fromhex(labels['wwn'][4:]) if labels['wwn'] else b''
body = bytes([2, 1, 0, len(t10)]) + t10 + (bytes([1, 3, 0, len(naa)]) + naa if naa else b'')
open(d + '/vpd_pg83', 'wb').write(bytes([0, 0x83, len(body) >> 8, len(body) & 0xff]) + body)
EOF2
rm -f "$out/metrics-kern.log"
env SHIM_IDENTIFY="$intel" SHIM_COUNT=0x00 SHIM_SYSFS="$out/metrics-kern" SHIM_BLOCK_DEV=8:900000 SHIM_BLKSIZE=120034123776 \
	SHIM_LOG="$out/metrics-kern.log" "${preload[@]}" "$asan" "$H" --metrics /dev/null > "$out/metrics-kern.prom" 2> /dev/null
asleep=$(grep '^hdparm_disk_info' "$out/metrics-kern.prom")
strip_fw() { sed 's/,firmware="[^"]*"//'; }
[ -n "$awake" ] && [ "$(strip_fw <<< "$asleep")" = "$(strip_fw <<< "$awake")" ] &&
	grep -qx 'hdparm_disk_capacity_bytes{device="null"} 120034123776' "$out/metrics-kern.prom" &&
	grep -qx 'hdparm_disk_power_state{device="null",state="standby"} 1' "$out/metrics-kern.prom" &&
	[ "$(grep -c '^cdb:' "$out/metrics-kern.log")" = 1 ]
result $? "a sleeping disk: hdparm_disk_info and the capacity from what the kernel keeps, only CHECK POWER MODE sent ($asleep)"

# Two names of one disk (a link, as /dev/disk/by-id's, and the node): one set of series, the second
# name said; node_exporter's textfile collector refuses a file with a series twice.
ln -sf /dev/null "$out/metrics-by-id-link"
env SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" --metrics /dev/null "$out/metrics-by-id-link" > "$out/metrics-twice.prom" 2> "$out/metrics-twice.err"
rc=$?
[ "$rc" = 0 ] && [ "$(grep -c '^hdparm_disk_up' "$out/metrics-twice.prom")" = 1 ] &&
	[ -z "$(grep -v '^#' "$out/metrics-twice.prom" | sort | uniq -d)" ] &&
	[ "$(cat "$out/metrics-twice.err")" = "--metrics: $out/metrics-by-id-link: the same disk as /dev/null, read once" ]
result $? "a link and its node: one set of series, the second name said on stderr"

# Four hung disks (issue 65, item 10): each asked in a process of its own, so that N disks that hang
# cost one timeout, not N, inside the service's time limit.  CHECK POWER MODE (E5h) is held on every
# disk until the test opens the gate: all four must be asked before any has answered (one at a time,
# the first holds the others back and only one is asked); then the samples in the order named.
hung_env=(SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LOG="$out/metrics-hung.log" SHIM_LOG_DEVICE=1 SHIM_DELAY_CMD=e5
	SHIM_DELAY_MS="until:$out/metrics-hung-gate")
four=(/dev/null /dev/zero /dev/full /dev/urandom)
asked_at_once() { [ "$(grep -c ' e5 00$' "$out/metrics-hung.log" 2> /dev/null)" = "$1" ]; }
rm -f "$out/metrics-hung.log" "$out/metrics-hung-gate"
env "${hung_env[@]}" "${preload[@]}" "$asan" "$H" --metrics "${four[@]}" > "$out/metrics-hung.prom" 2> "$out/metrics-hung.err" &
pid=$!
until_true 10 asked_at_once 4
held=$?
touch "$out/metrics-hung-gate"
wait "$pid"
rc=$?
up=$(sed -n 's/^hdparm_disk_up{device="\([a-z]*\)"} 1$/\1/p' "$out/metrics-hung.prom" | tr '\n' ' ')
[ "$held" = 0 ] && [ "$rc" = 0 ] && [ "$up" = "null zero full urandom " ] && [ ! -s "$out/metrics-hung.err" ]
result $? "four disks that hang: all four asked at once (one timeout in all), their samples in the order named (up: $up)"

# A disk's process killed while it waits (the OOM killer, a stray kill): that disk is down, said, and
# the others are read.
rm -f "$out/metrics-hung.log" "$out/metrics-hung-gate"
env "${hung_env[@]}" "${preload[@]}" "$asan" "$H" --metrics "${four[@]}" > "$out/metrics-hung.prom" 2> "$out/metrics-hung.err" &
pid=$!
until_true 10 asked_at_once 4
zero=$(child_holding "$pid" /dev/zero) && kill -KILL "$zero"
touch "$out/metrics-hung-gate"
wait "$pid"
rc=$?
up=$(sed -n 's/^hdparm_disk_up{device="\([a-z]*\)"} \([01]\)$/\1 \2/p' "$out/metrics-hung.prom" | tr '\n' ' ')
[ -n "$zero" ] && [ "$rc" = 0 ] && [ "$up" = "null 1 zero 0 full 1 urandom 1 " ] &&
	[ "$(cat "$out/metrics-hung.err")" = "--metrics: /dev/zero: its process ended by signal 9: down" ]
result $? "a disk's process killed: that disk down, said, the others read (up: $up)" || sed 's/^/  /' "$out/metrics-hung.err"

# ... and a run killed meanwhile (TimeoutStartSec): the file holds no "up" of the last run, only a
# comment, and the disks' processes end with it (PR_SET_PDEATHSIG).
tf=$out/metrics-killed
rm -rf "$tf" "$out/metrics-hung.log" "$out/metrics-hung-gate"
mkdir -p "$tf"
env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" --metrics-file "$tf/hdparm.prom" "${four[@]}" 2> /dev/null
before=$(grep -c '^hdparm_disk_up{.*} 1$' "$tf/hdparm.prom")
env "${hung_env[@]}" "${preload[@]}" "$asan" "$H" --metrics-file "$tf/hdparm.prom" "${four[@]}" > /dev/null 2>&1 &
pid=$!
until_true 10 asked_at_once 4
kids=$(pgrep -P "$pid" | tr '\n' ' ')
kill -KILL "$pid"
wait "$pid" 2> /dev/null
none_left() { for k in $kids; do kill -0 "$k" 2> /dev/null && return 1; done; return 0; }
until_true 10 none_left
left=$?
touch "$out/metrics-hung-gate"
[ "$before" = 4 ] && ! grep -q '^hdparm_disk_up' "$tf/hdparm.prom" && grep -q '^# ' "$tf/hdparm.prom" &&
	[ -n "$kids" ] && [ "$left" = 0 ] && [ "$(ls "$tf")" = hdparm.prom ]
result $? "--metrics-file, the run killed while disks hang: no 'up' left in the file (4 before), the disks' processes gone" ||
	sed 's/^/  /' "$tf/hdparm.prom" | head -n 3

# ... and one killed while the run itself opens a disk to look at it: an open waits while the kernel
# recovers a hung disk (sd_open), so the file's samples are replaced before any disk is opened.
# strace holds the run at its open of the second disk (SIGSTOP), where the service would kill it.
if command -v strace > /dev/null; then
	ln -sf /dev/zero "$out/metrics-slow-disk"
	env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" --metrics-file "$tf/hdparm.prom" /dev/null \
		"$out/metrics-slow-disk" 2> /dev/null
	before=$(grep -c '^hdparm_disk_up{.*} 1$' "$tf/hdparm.prom")
	env --default-signal=INT,QUIT SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff "${preload[@]}" "$asan:detect_leaks=0" \
		strace -qq -o /dev/null -P "$out/metrics-slow-disk" -e trace=openat -e inject=openat:signal=STOP:when=1 \
		"$H" --metrics-file "$tf/hdparm.prom" /dev/null "$out/metrics-slow-disk" > /dev/null 2>&1 &
	spid=$!
	held_at_open() { run=$(pgrep -P "$spid") && [ "$(awk '{ print $3 }' /proc/"$run"/stat 2> /dev/null)" = t ]; }
	until_true 10 held_at_open
	held=$?
	up=$(grep -c '^hdparm_disk_up' "$tf/hdparm.prom")
	kill -KILL "$run"
	wait_within 120 "$spid" 2> /dev/null
	[ "$before" = 2 ] && [ "$held" = 0 ] && [ "$up" = 0 ] && grep -q '^# ' "$tf/hdparm.prom" && [ "$(ls "$tf")" = hdparm.prom ]
	result $? "--metrics-file, the run killed while it opens a disk: no 'up' left in the file ($up; $before before)"
fi

# ... and one killed before a disk's process has looked at its parent: the process asks nothing.  It
# took its parent's pid with getppid() after the fork, which names the new parent (init) once the run
# is gone, and then saw no change and asked its disk.  strace makes that first getppid() answer 1 and
# holds each disk's process there (SIGSTOP) while the run is killed.
if command -v strace > /dev/null; then
	rm -f "$out/metrics-orphan.log"
	env --default-signal=INT,QUIT SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LOG="$out/metrics-orphan.log" SHIM_LOG_DEVICE=1 \
		"${preload[@]}" "$asan:detect_leaks=0" strace -f -qq -o /dev/null -e trace=getppid \
		-e inject=getppid:retval=1:signal=STOP:when=1 "$H" --metrics /dev/null /dev/zero > /dev/null 2>&1 &
	spid=$!
	both_held() {
		run=$(pgrep -P "$spid") && kids=$(pgrep -P "$run" | tr '\n' ' ') && [ "$(wc -w <<< "$kids")" = 2 ] || return 1
		for k in $kids; do [ "$(awk '{ print $3 }' /proc/"$k"/stat 2> /dev/null)" = t ] || return 1; done
	}
	orphans() { for k in $kids; do [ "$(awk '/^PPid:/ { print $2 }' /proc/"$k"/status 2> /dev/null)" != "$run" ] || return 1; done; }
	until_true 10 both_held
	held=$?
	kill -KILL "$run"
	until_true 10 orphans
	# shellcheck disable=SC2086 # the pids are words
	kill -CONT $kids 2> /dev/null
	wait_within 120 "$spid" 2> /dev/null
	[ "$held" = 0 ] && [ ! -s "$out/metrics-orphan.log" ]
	result $? "the run killed before its disks' processes looked at it: nothing asked ($(grep -c 'cdb:' "$out/metrics-orphan.log" 2> /dev/null) commands)"
fi

# A SIGCHLD the caller ignored (the disks' processes would be reaped unseen, their samples lost): the
# same samples as without.
env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" --metrics /dev/null /dev/zero "$out/no-such-disk" \
	> "$out/metrics-plain.prom" 2> /dev/null
env --ignore-signal=CHLD SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" --metrics /dev/null /dev/zero \
	"$out/no-such-disk" > "$out/metrics-nochld.prom" 2> /dev/null
rc=$?
[ "$rc" = 0 ] && [ "$(grep -c '^hdparm_disk_up' "$out/metrics-plain.prom")" = 3 ] &&
	cmp -s "$out/metrics-plain.prom" "$out/metrics-nochld.prom"
result $? "SIGCHLD ignored by the caller: the same samples"

# --metrics --check-config names disks as --metrics does (issue 65, item 9): one disk named twice (its
# node and a link) gives one set of series and its drift once, the second name said; a regular file
# named is refused in one line, exit 22, nothing sent.
ln -sf /dev/null "$out/metrics-cfg-link"
printf 'write_cache = off\n' > "$out/metrics-twice.conf"
env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" --metrics --check-config "$out/metrics-twice.conf" \
	/dev/null "$out/metrics-cfg-link" > "$out/metrics-twice.prom" 2> "$out/metrics-twice.err"
rc=$?
[ "$rc" = 0 ] && [ "$(grep -c '^hdparm_disk_up' "$out/metrics-twice.prom")" = 1 ] &&
	[ "$(grep -c '^hdparm_config_drifted' "$out/metrics-twice.prom")" = 1 ] &&
	[ -z "$(grep -v '^#' "$out/metrics-twice.prom" | sort | uniq -d)" ] &&
	[ "$(cat "$out/metrics-twice.err")" = "--metrics: $out/metrics-cfg-link: the same disk as /dev/null, read once" ]
result $? "--metrics --check-config, one disk named twice: one set of series, the second name said (exit $rc)" ||
	sed 's/^/  /' "$out/metrics-twice.err" | head -n 3
: > "$out/metrics-regular"
rm -f "$out/metrics-none.log"
env SHIM_IDENTIFY="$intel" SHIM_COUNT=0xff SHIM_LOG="$out/metrics-none.log" "${preload[@]}" "$asan" \
	"$H" --metrics --check-config "$out/metrics-twice.conf" /dev/zero "$out/metrics-regular" > "$out/metrics-none.out" 2> "$out/metrics-none.err"
rc=$?
[ "$rc" = 22 ] && [ ! -s "$out/metrics-none.out" ] && [ ! -s "$out/metrics-none.log" ] &&
	[ "$(cat "$out/metrics-none.err")" = "--metrics: $out/metrics-regular: a regular file, not a disk" ]
result $? "--metrics --check-config naming a regular file: refused in one line, exit 22, nothing sent (exit $rc)" ||
	sed 's/^/  /' "$out/metrics-none.err" | head -n 3

# One name given twice that does not open (a disk gone), and two names that give one label: one
# series each, the others said; before, "hdparm_disk_up{device=...} 0" came twice.
mkdir -p "$out/metrics-other"
env SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" --metrics "$out/no-such-disk" "$out/no-such-disk" "$out/metrics-other/no-such-disk" \
	> "$out/metrics-twice.prom" 2> "$out/metrics-twice.err"
rc=$?
[ "$rc" = 0 ] && [ "$(grep -c '^hdparm_disk_up{device="no-such-disk"} 0$' "$out/metrics-twice.prom")" = 1 ] &&
	[ -z "$(grep -v '^#' "$out/metrics-twice.prom" | sort | uniq -d)" ] &&
	grep -qxF -- "--metrics: $out/no-such-disk: the same disk as $out/no-such-disk, read once" "$out/metrics-twice.err" &&
	grep -qxF -- "--metrics: $out/metrics-other/no-such-disk: the same name (device=\"no-such-disk\") as $out/no-such-disk, read once" "$out/metrics-twice.err"
result $? "one name given twice, and two names of one label: one series, the others said (exit $rc)" ||
	sed 's/^/  /' "$out/metrics-twice.err"

# What is no disk (a regular file, a folder, a terminal, a partition: a fake /sys's 259:900001, made a
# block device by the double; a device-mapper volume, 253:900000, whose pass-through reaches the disk
# beneath it under the volume's name): one line on stderr, exit 22 (EINVAL), nothing on stdout and
# nothing sent, to it or to the disk named with it.
: > "$out/metrics-regular"
mkdir -p "$out/metrics-part/sys/dev/block/259:900001" "$out/metrics-dm/sys/dev/block/253:900000/dm"
echo 1 > "$out/metrics-part/sys/dev/block/259:900001/partition"
echo vg-root > "$out/metrics-dm/sys/dev/block/253:900000/dm/name"
for what in "regular file:$out/metrics-regular" "folder:$out" "terminal:TTY" "partition:/dev/null" "volume:/dev/null"; do
	kind=${what%%:*} path=${what#*:}
	rm -f "$out/metrics-none.log"
	e=(SHIM_COUNT=0xff SHIM_LOG="$out/metrics-none.log")
	[ "$kind" = partition ] && e+=(SHIM_SYSFS="$out/metrics-part" SHIM_BLOCK_DEV=259:900001)
	[ "$kind" = volume ] && e+=(SHIM_SYSFS="$out/metrics-dm" SHIM_BLOCK_DEV=253:900000)
	python3 - "$out/metrics-none" "$path" env "${e[@]}" "${preload[@]}" "$asan" "$H" --metrics /dev/zero << 'EOF2'
import os, pty, subprocess, sys
outbase, path, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
if path == 'TTY':
    master, slave = pty.openpty()
    path = os.ttyname(slave)
rc = subprocess.call(cmd + [path], stdout=open(outbase + '.out', 'w'), stderr=open(outbase + '.err', 'w'))
open(outbase + '.rc', 'w').write('%d %s\n' % (rc, path))
EOF2
	read -r rc named < "$out/metrics-none.rc"
	[ "$rc" = 22 ] && [ ! -s "$out/metrics-none.out" ] && [ ! -s "$out/metrics-none.log" ] &&
		[ "$(wc -l < "$out/metrics-none.err")" = 1 ] && grep -q "^--metrics: $named: a $kind" "$out/metrics-none.err"
	result $? "a $kind named: refused in one line, exit 22, nothing sent (got $rc: $(head -c 120 "$out/metrics-none.err"))"
done

# Standard output that cannot be written (/dev/full): the cause said on stderr, one line, and a
# non-zero exit (the errno, ENOSPC); before, exit 5 and nothing said.
env SHIM_COUNT=0xff "${preload[@]}" "$asan" "$H" --metrics /dev/null > /dev/full 2> "$out/metrics-full.err"
rc=$?
[ "$rc" = 28 ] && [ "$(cat "$out/metrics-full.err")" = "--metrics: standard output: No space left on device" ]
result $? "--metrics >/dev/full: 'standard output: No space left on device' on stderr, exit 28 (got $rc)"

# hdparm-metrics.service as installed: a start timeout below the timer's 5 minutes (a run held in
# the kernel must not stop the timer for good), read-only system but the textfile folder, no
# PrivateDevices (the disks' nodes), the two capabilities SG_IO and the NVMe ioctls need; and
# systemd-analyze verify accepts the unit and its timer.
rm -rf "$out/metrics-unit"
make -s -C "$top" install-integration DESTDIR="$out/metrics-unit" SBINDIR="$(cd "$(dirname "$H")" && pwd)" \
	SYSTEMDUNITDIR=/units UDEVDIR=/udev SYSTEMDUTILDIR=/util TEXTFILEDIR="$out/metrics-textfile" > /dev/null 2>&1
unit=$out/metrics-unit/units/hdparm-metrics.service
grep -qx 'TimeoutStartSec=4min' "$unit" && grep -qx 'ProtectSystem=strict' "$unit" &&
	grep -qx "ReadWritePaths=$out/metrics-textfile" "$unit" && grep -qx 'NoNewPrivileges=yes' "$unit" &&
	grep -qx 'PrivateTmp=yes' "$unit" && grep -qx 'CapabilityBoundingSet=CAP_SYS_RAWIO CAP_SYS_ADMIN' "$unit" &&
	! grep -q '^PrivateDevices\|^DeviceAllow\|^DevicePolicy\|^ProtectClock\|^ProtectKernelLogs' "$unit"
result $? "hdparm-metrics.service: TimeoutStartSec, ProtectSystem=strict but the textfile folder, the disks' nodes open"
if oracle metrics systemd-analyze "systemd-analyze (systemd)"; then
	(cd "$out/metrics-unit/units" && systemd-analyze verify --man=no ./hdparm-metrics.service ./hdparm-metrics.timer) > "$out/metrics.why" 2>&1
	result $? "systemd-analyze verify accepts hdparm-metrics.service and its timer"
fi

# A loop device (root): no commands, the kernel's block sizes, as blockdev gives them.
if [ "$(id -u)" != 0 ]; then
	echo "skip metrics: a loop device's block sizes need root"
else
	truncate -s 8M "$out/metrics-loop.img"
	if loop=$(losetup --sector-size 4096 -f --show "$out/metrics-loop.img" 2> /dev/null); then
		# Detached however the suite ends (the mutants' runner stops a suite at its first FAIL).
		trap 'losetup -d "$loop" 2> /dev/null' EXIT
		trap 'exit 1' INT TERM HUP
		"$H" --metrics "$loop" > "$out/metrics-loop.prom" 2> /dev/null
		rc=$?
		name=${loop#/dev/}
		grep -qx "hdparm_disk_logical_block_size_bytes{device=\"$name\"} $(blockdev --getss "$loop")" "$out/metrics-loop.prom" &&
			grep -qx "hdparm_disk_physical_block_size_bytes{device=\"$name\"} $(blockdev --getpbsz "$loop")" "$out/metrics-loop.prom" &&
			[ "$rc" = 0 ]
		result $? "a loop device: its logical and physical block sizes as blockdev --getss and --getpbsz give them"
		losetup -d "$loop"
		trap - EXIT	# its number may be another suite's by the end
	else
		bad "no loop device could be set up"
	fi
fi
echo "end of suite"
