#!/bin/bash
# The test suite behind "make check".  Each check prints "ok NAME" or
# "FAIL NAME" (with the difference); a part that cannot run here prints
# "skip NAME: why".  The last line counts them: "N passed, N failed, K
# skipped", after the list of skips.  STRICT=1 (make check STRICT=1, as CI
# runs it) turns any skip into a failure: tests/setup installs every tool.
#
#   HDPARM=path     the binary to test (default: ./hdparm)
#   ORACLE=path     hdparm 9.65 for the differential tests (default: /usr/sbin/hdparm)
#   MUTATIONS=N     seeded mutations per page in the differential test (default: 300 in all)
#   SKIP_VM=1       leave out the QEMU suite (counted as a skip)
#   SKIP_CROSS=1    leave out the armhf and s390x builds under qemu-user (counted as a skip)
#   SKIP_REBUILDS=1 leave out the suites that build binaries of their own with their own
#                   flags (musl, the fuzz replay): the same whatever build is under test
#                   (counted as skips)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
HDPARM=$(realpath "${HDPARM:-./hdparm}")
ORACLE=${ORACLE:-/usr/sbin/hdparm}
out="$top/tests/out"
rm -rf "$out"
mkdir -p "$out"
# The system's python3 (where tests/setup installed the modules the suites use) before a version
# manager's shim: pyenv's costs half a second a start, and the suites start python3 hundreds of times.
if [ -x /usr/bin/python3 ]; then
	mkdir -p "$out/bin"
	ln -sf /usr/bin/python3 "$out/bin/python3"
	PATH="$out/bin:$PATH"
	export PATH
fi

passed=0
failed=0
skips=()
pass() { passed=$((passed + 1)); echo "ok $1"; }
fail() {
	failed=$((failed + 1))
	echo "FAIL $1"
	[ -n "${2:-}" ] && [ -f "$2" ] && head -n 20 "$2" | sed 's/^/  /'
	return 0
}
skip() { skips+=("$1"); echo "skip $1"; }

# suite NAME COMMAND...: a sub-suite in a script of its own.  It prints
# ok/FAIL/skip lines and, as its last line, "end of suite"; without that
# line it stopped early, which is a failure whatever it counted.
suite() {
	run_suite "$@"
	report_suite "$1"
}

# run_suite NAME COMMAND...: the suite's output in $out/NAME.log, its exit
# status and its seconds in $out/NAME.rc and $out/NAME.took.  SIGHUP and
# SIGTERM at their default actions: under nohup (SIGHUP ignored, inherited,
# and no trap in the suite can undo it) each case that sends SIGHUP to
# hdparm failed, one by hanging until its deadline.  (SIGINT, which `&`
# ignores anew, is reset where a case starts hdparm.)
run_suite() {
	local name=$1 began=$SECONDS
	shift
	env --default-signal=HUP,TERM "$@" > "$out/$name.log" 2>&1
	echo $? > "$out/$name.rc"
	echo $((SECONDS - began)) > "$out/$name.took"
}

# report_suite NAME: its lines and counts, from what run_suite left.
report_suite() {
	local name=$1 log="$out/$1.log" rc n_ok n_bad
	rc=$(cat "$out/$name.rc")
	grep -E '^(ok|FAIL|skip|  )' "$log"
	n_ok=$(grep -c '^ok ' "$log")
	n_bad=$(grep -c '^FAIL ' "$log")
	passed=$((passed + n_ok))
	failed=$((failed + n_bad))
	while IFS= read -r line; do skips+=("${line#skip }"); done < <(grep '^skip ' "$log")
	if [ "$(tail -n 1 "$log")" != "end of suite" ]; then
		fail "$name: the suite stopped early (exit $rc) after $((n_ok + n_bad)) checks" "$log"
	elif [ $((n_ok + n_bad)) = 0 ] && ! grep -q '^skip ' "$log"; then
		fail "$name: the suite ran no check" "$log"
	else
		echo "$name: $((n_ok + n_bad)) checks in $(cat "$out/$name.took") s"
	fi
}

# The suites that mostly wait on something other than this process's core
# (the emulated machines, one vCPU each; idle's sleeps) run beside the
# others, one after another in a line of their own, and are reported at
# the end, in the order they were added.
#   beside NAME COMMAND...   adds a suite to that line
#   collect_beside           waits for the line and reports its suites
beside_names=()
beside_pid=
beside() {
	local before=$beside_pid
	beside_names+=("$1")
	( [ -z "$before" ] || wait_for_rc "${beside_names[-2]}"
	  run_suite "$@" ) &
	beside_pid=$!
}
# A subshell cannot wait for its sibling: the suite before is done when its .took file is there.
wait_for_rc() {
	while [ ! -f "$out/$1.took" ]; do sleep 1; done
}
collect_beside() {
	local name
	wait
	for name in "${beside_names[@]}" "${aside_names[@]}"; do
		report_suite "$name"
	done
}
# aside NAME COMMAND...: a suite in a lane of its own from now on, reported after the line's.
aside_names=()
aside() {
	aside_names+=("$1")
	run_suite "$@" &
}

# decode PAGE: --Istdin's stdout and exit status, as the expected files hold them.
decode() {
	"$HDPARM" --Istdin < "$1" 2>/dev/null
	echo "[exit $?]"
}

# --- IDENTIFY decoding against outputs of hdparm 9.65 ---
check_pages() {
	local pages=$1 expected=$2 page name
	for page in "$pages"/*.hex; do
		[ -f "$page" ] || continue
		name=$(basename "$page" .hex)
		decode "$page" > "$out/$name.out"
		# 9.65's output, its device strings escaped as ours are (hdparm.8, DIFFERENCES).
		perl tests/tools/escape-strings.pl < "$expected/$name.out" > "$out/$name.want"
		if cmp -s "$out/$name.out" "$out/$name.want"; then
			pass "identify $name"
		else
			diff "$out/$name.want" "$out/$name.out" > "$out/$name.diff"
			fail "identify $name" "$out/$name.diff"
		fi
	done
}
check_pages tests/identify/pages tests/identify/expected
check_pages tests/identify/real tests/identify/expected/real

# --- differential: seeded mutations, ours against hdparm 9.65 ---
${CC:-cc} -O2 -o "$out/mutate" tests/tools/mutate.c || fail "build tests/tools/mutate"
if [ -x "$ORACLE" ] && "$ORACLE" -V 2>/dev/null | grep -q 'v9.65$' && [ -x "$out/mutate" ]; then
	pages=(tests/identify/pages/qemu-*.hex tests/identify/pages/cfa-card.hex tests/identify/pages/atapi-tape.hex
		tests/identify/real/*.hex)
	total=${MUTATIONS:-300}
	per_page=$(( (total + ${#pages[@]} - 1) / ${#pages[@]} ))
	mismatches=0
	runs=0
	# 9.65's answers are the same in both of CI's runs (ASan, then the normal build): kept outside
	# tests/out, each under its page's bytes and the escaping script's (ORACLE_CACHE: where).
	cache=${ORACLE_CACHE:-$top/tests/oracle-cache}
	mkdir -p "$cache"
	escaping=$(sha256sum < tests/tools/escape-strings.pl | cut -c1-16)
	for page in "${pages[@]}"; do
		for seed in $(seq 1 "$per_page"); do
			"$out/mutate" "$seed" < "$page" > "$out/mutant.hex"
			a=$("$HDPARM" --Istdin < "$out/mutant.hex" 2>/dev/null; echo "[exit $?]")
			key="$cache/$(sha256sum < "$out/mutant.hex" | cut -c1-32)-$escaping"
			if [ -f "$key" ]; then
				b=$(cat "$key")
			else
				b=$({ "$ORACLE" --Istdin < "$out/mutant.hex" 2>/dev/null; echo "[exit $?]"; } | perl tests/tools/escape-strings.pl)
				printf '%s' "$b" > "$key.tmp" && mv "$key.tmp" "$key"
			fi
			runs=$((runs + 1))
			if [ "$a" != "$b" ]; then
				mismatches=$((mismatches + 1))
				cp "$out/mutant.hex" "$out/mismatch-$mismatches.hex"
				diff <(echo "$b") <(echo "$a") > "$out/mismatch-$mismatches.diff"
			fi
		done
	done
	if [ "$mismatches" -eq 0 ]; then
		pass "differential: $runs mutated pages decode as hdparm 9.65 does"
	else
		fail "differential: $mismatches of $runs mutated pages differ from hdparm 9.65 (tests/out/mismatch-*)" "$out/mismatch-1.diff"
	fi
else
	skip "differential: no hdparm 9.65 at $ORACLE (tests/setup installs it)"
fi

# --- --json: valid documents whose facts agree with the text ---
if command -v python3 >/dev/null; then
	json_pages=(tests/identify/pages/*.hex tests/identify/real/*.hex)
	bad=0
	n=0
	# Each page's document and text are kept, and checked by one python process at the end.
	rm -rf "$out/jpages" && mkdir -p "$out/jpages"
	: > "$out/jpages/list"
	check_json_page() {
		n=$((n + 1))
		cp "$1" "$out/jpages/$n.hex"
		"$HDPARM" --json --Istdin < "$1" > "$out/jpages/$n.json" 2>/dev/null
		"$HDPARM" --Istdin < "$1" > "$out/jpages/$n.txt" 2>/dev/null
		echo "$out/jpages/$n.json $out/jpages/$n.txt $out/jpages/$n.hex" >> "$out/jpages/list"
	}
	for page in "${json_pages[@]}"; do
		check_json_page "$page"
		[ -x "$out/mutate" ] || continue
		for seed in 1 2 3 4 5 6 7 8; do
			"$out/mutate" "$seed" < "$page" > "$out/j-mutant.hex"
			check_json_page "$out/j-mutant.hex"
		done
	done
	if python3 tests/json-check.py --batch "$out/jpages/list" > "$out/json-mismatch.why"; then
		pass "json: $n pages give valid documents that agree with the text"
	else
		bad=$(grep -c '^/.*\.hex: (the reason above)$' "$out/json-mismatch.why")
		fail "json: $bad of $n pages (tests/out/jpages/N.hex, the reasons)" "$out/json-mismatch.why"
	fi
	json_case() { # NAME EXPECTED-EXIT ARGS...: a valid document listing an error, same exit as without --json
		local name=$1 want=$2
		shift 2
		"$HDPARM" --json "$@" > "$out/j.json" 2>/dev/null < /dev/null
		local rc=$?
		"$HDPARM" "$@" > /dev/null 2>&1 < /dev/null
		local rc_text=$?
		if [ "$rc" = "$want" ] && [ "$rc" = "$rc_text" ] && python3 tests/json-check.py --errors "$out/j.json" > "$out/j.why"; then
			pass "json: $name"
		else
			echo "exit $rc (text $rc_text, wanted $want)" >> "$out/j.why"
			fail "json: $name" "$out/j.why"
		fi
	}
	json_case "bad value still gives a document" 22 -S 999 /dev/null
	json_case "unknown option still gives a document" 22 --bogus /dev/null
	json_case "missing device" 2 -I /dev/nonexistent-hdparm
	json_case "no ATA behind the device" 25 -I -C /dev/null
	json_case "empty --Istdin" 5 --Istdin
else
	skip "json: no python3 (tests/setup installs it)"
fi

# --- --Istdin input handling ---
istdin_case() { # NAME EXIT TEXT INPUT-COMMAND
	local name=$1 want=$2 text=$3
	shift 3
	"$@" | "$HDPARM" --Istdin > "$out/istdin.out" 2> "$out/istdin.err"
	local rc=${PIPESTATUS[1]}
	if [ "$rc" = "$want" ] && grep -q -- "$text" "$out/istdin.err" "$out/istdin.out"; then
		pass "Istdin $name"
	else
		echo "exit $rc, wanted $want; stderr:" > "$out/istdin.why"
		cat "$out/istdin.err" >> "$out/istdin.why"
		fail "Istdin $name" "$out/istdin.why"
	fi
}
page=tests/identify/pages/qemu-ahci-hdd.hex
istdin_case empty 5 "read only 0/256" printf ''
istdin_case short 5 "read only 2/256" printf '0040 3fff\n'
istdin_case non-hex 5 "read only 0/256" sh -c 'head -c 4096 /dev/zero | tr "\0" "z"'
istdin_case header-line 0 "HDPARM-TEST-HDD" sh -c "printf '/dev/sda:\n'; cat $page"
istdin_case megabytes 0 "HDPARM-TEST-HDD" sh -c "cat $page; head -c 4000000 /dev/zero | tr '\0' 'f'"

# --- standard output that cannot be written (a full disk): said in one line, exit ENOSPC (28);
# 9.65 exits 0 with its output lost.  A run that failed already keeps its status and its words. ---
full_case() { # NAME WANT-EXIT WANT-STDERR ARGS...
	local name=$1 want=$2 text=$3
	shift 3
	"$HDPARM" "$@" < "$page" > /dev/full 2> "$out/full.err"
	local rc=$?
	if [ "$rc" = "$want" ] && [ "$(cat "$out/full.err")" = "$text" ]; then
		pass "stdout full: $name"
	else
		{ echo "exit $rc, wanted $want; stderr:"; cat "$out/full.err"; } > "$out/full.why"
		fail "stdout full: $name" "$out/full.why"
	fi
}
full_case "text" 28 "hdparm: standard output: No space left on device" --Istdin
full_case "--json" 28 "hdparm: standard output: No space left on device" --json --Istdin
full_case "a failed run keeps its status" 2 "/dev/hdparm-no-such-disk: No such file or directory" -C /dev/hdparm-no-such-disk

# --- bad command lines: one line on stderr, the right exit status ---
while IFS='|' read -r args want text; do
	case "$args" in '#'* | '') continue ;; esac
	args=$(echo "$args" | sed 's/ *$//')
	want=$(echo "$want" | tr -d ' ')
	text=$(echo "$text" | sed 's/^ *//; s/ *$//')
	# shellcheck disable=SC2086
	"$HDPARM" $args > "$out/bad.out" 2> "$out/bad.err" < /dev/null
	rc=$?
	if [ "$rc" = "$want" ] && grep -qF -- "$text" "$out/bad.err"; then
		pass "bad command line: $args"
	else
		{ echo "exit $rc, wanted $want; stderr:"; cat "$out/bad.err"; } > "$out/bad.why"
		fail "bad command line: $args" "$out/bad.why"
	fi
done < tests/cmdline/bad.txt

# --- usage and version ---
if "$HDPARM" -h > "$out/h.out" 2>&1 && grep -q -- '--Istdin' "$out/h.out" && grep -q -- '-Z   Disable Seagate' "$out/h.out"; then
	pass "-h lists the options"
else
	fail "-h lists the options" "$out/h.out"
fi
if "$HDPARM" -V | grep -q ' v9.65'; then pass "-V"; else fail "-V"; fi

# --- NVMe Identify decoding (captured from QEMU, and crafted) ---
# The source folders, as the Makefile lists them.
incs=()
for d in $(sed -n 's/^DIRS = //p' Makefile); do incs+=(-I"$d"); done
if ${CC:-cc} -std=gnu11 -D_GNU_SOURCE "${incs[@]}" -o "$out/nvme-decode" tests/tools/nvme-decode.c nvme/nvme_identify.c nvme/nvme_health.c output/json.c output/report.c; then
	while read -r name args; do
		case "$name" in '#'* | '') continue ;; esac
		# shellcheck disable=SC2086
		(cd tests/nvme && "$out/nvme-decode" $args) > "$out/$name.out" 2>&1
		if cmp -s "$out/$name.out" "tests/nvme/$name.out"; then
			pass "nvme identify $name"
		else
			diff "tests/nvme/$name.out" "$out/$name.out" > "$out/$name.diff"
			fail "nvme identify $name" "$out/$name.diff"
		fi
	done < tests/nvme/cases.txt
else
	fail "build tests/tools/nvme-decode"
fi

# --- beside the rest: the emulated machines, then --idle-spindown's waits ---
if [ -n "${SKIP_VM:-}" ]; then
	skip "vm, systemd: SKIP_VM is set"
else
	beside vm tests/vm/run "$HDPARM"
	beside systemd tests/vm/systemd-run "$HDPARM"
fi
root_and_loop=
[ "$(id -u)" = 0 ] && command -v losetup > /dev/null && root_and_loop=1
[ -z "$root_and_loop" ] || beside idle bash tests/idle-tests.sh "$HDPARM" "$out"

# --- 32-bit (armhf) and big-endian (s390x) cross builds under qemu-user, in a lane of their own ---
# Four minutes of qemu-user, most of them on one core: beside the suites below, which mostly wait
# (the double's processes, loop devices), as the emulated machines do.
if [ -n "${SKIP_CROSS:-}" ]; then
	skip "cross: SKIP_CROSS is set"
else
	CROSS_PART=builds aside cross bash tests/cross-check.sh "$HDPARM" "$out"
fi

# --- the pure functions, case tables in C (tests/unit/unit.c) ---
unit_srcs=(tests/unit/unit.c nvme/nvme.c transport/nvme_ioctl.c transport/nvme_tunnel.c transport/nvme_tunnel_wire.c transport/usb_bridge.c ops/block/inuse.c ata/sat.c ata/ata_commands.c transport/sg.c transport/sense.c ops/block/ranges.c ops/scan/scan_classes.c ops/scan/scan_picture.c run/together_scan.c scsi/scsi_pages.c block/sysfs.c output/report.c output/json.c ops/erase/erasecheck.c ops/erase/erase_blocks.c ops/erase/erase_verify.c block/readq.c output/progress.c ata/epc_decode.c ops/checks.c block/partition.c block/reach.c block/disk_lock.c block/wake_trace.c tcg/tcg_discovery.c tcg/tcg_session.c tcg/tcg_methods.c ops/any_disk/tcg_locked.c ops/any_disk/tcg_ask.c ops/erase/erase_record.c output/file_write.c output/path_text.c)
# shellcheck disable=SC2086
if ${CC:-cc} -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Wall -Wextra "${incs[@]}" ${CFLAGS:-} ${LDFLAGS:-} \
	-o "$out/unit" "${unit_srcs[@]}" 2> "$out/unit.build"; then
	suite unit "$out/unit"
else
	fail "build tests/unit/unit.c" "$out/unit.build"
fi
# The surface scan's search without the kernel's retries: its trust in the direct way (issue 61, item 2).
suite scan-direct bash tests/scan-direct-tests.sh "$HDPARM" "$out"
# The surface scan with several blocks in flight (issue 68): the depth chosen, its key cases at depth 8.
suite scan-depth bash tests/scan-depth-tests.sh "$HDPARM" "$out"

# --- command bytes and sense decoding, against a test double of the drive ---
suite commands bash tests/commands.sh "$HDPARM" "$out"
suite ops bash tests/ops.sh "$HDPARM" "$out"
suite scsi bash tests/scsi-commands.sh "$HDPARM" "$out"
suite usb-trim bash tests/usb-trim-tests.sh "$HDPARM" "$out"
suite bridge bash tests/bridge-tests.sh "$HDPARM" "$out"
suite scsi-format bash tests/scsi-format-tests.sh "$HDPARM" "$out"
suite tcg bash tests/tcg-tests.sh "$HDPARM" "$out"
suite tcg-secrets bash tests/tcg-secrets-tests.sh "$HDPARM" "$out"
suite nvme bash tests/nvme-commands.sh "$HDPARM" "$out"
suite epc bash tests/epc-commands.sh "$HDPARM" "$out"
suite smartctl bash tests/smartctl-json.sh "$HDPARM" "$out"
suite usb-nvme bash tests/usb-nvme-tests.sh "$HDPARM" "$out"
suite condition bash tests/condition-tests.sh "$HDPARM" "$out"
suite condition-ata bash tests/condition-ata-tests.sh "$HDPARM" "$out"
suite erase-proof bash tests/erase-proof-tests.sh "$HDPARM" "$out"
suite erase-together bash tests/erase-together-tests.sh "$HDPARM" "$out"
suite together bash tests/together-tests.sh "$HDPARM" "$out"
suite streams bash tests/streams-tests.sh "$HDPARM" "$out"
suite config bash tests/config-tests.sh "$HDPARM" "$out"
suite metrics bash tests/metrics-tests.sh "$HDPARM" "$out"

# --- file helpers (--fallocate) ---
suite files bash tests/file-tests.sh "$HDPARM" "$out"

# --- a static musl build decodes as the glibc one ---
if [ -n "${SKIP_REBUILDS:-}" ]; then
	skip "musl: SKIP_REBUILDS is set"
else
	suite musl bash tests/musl-check.sh
fi


# --- fuzz corpora and regression inputs, replayed once ---
if [ -n "${SKIP_REBUILDS:-}" ]; then
	skip "fuzz-replay: SKIP_REBUILDS is set"
else
	suite fuzz-replay bash tests/fuzz/run.sh --replay
fi

# --- block devices of this machine: loop devices (root only) ---
if [ -n "$root_and_loop" ]; then
	for part in loop partition hold timing iodepth faulty-disk surface-scan scan-picture scan-map scan-verify scan-many scan-repair ansible; do
		suite "$part" bash "tests/$part-tests.sh" "$HDPARM" "$out"
	done
else
	skip "loop, partition, hold, timing, iodepth, faulty-disk, surface-scan, scan-picture, scan-map, scan-verify, scan-many, scan-repair, idle, ansible: need root and losetup"
fi

# --- what ran beside ---
collect_beside

# The cross builds' part with a loop device and a mount (a skip where not root), now that the
# builds are there and no other suite uses loop devices.
if [ -z "${SKIP_CROSS:-}" ]; then
	CROSS_PART=past-4gib suite cross-past-4gib bash tests/cross-check.sh "$HDPARM" "$out"
fi

# The deliberate faults (tests/mutants/list): each put into a copy of the tree, rebuilt, and its suite
# must fail.  Last, alone: their suites use loop devices, tracefs and mounts that the suites above use
# too (beside them, a mounted exFAT stick's loop device changed another suite's read-ahead).
if [ -n "${SKIP_REBUILDS:-}" ]; then
	skip "mutants: SKIP_REBUILDS is set"
elif [ -z "$root_and_loop" ]; then
	skip "mutants: need root and losetup (their suites use loop devices)"
else
	suite mutants bash tests/mutants/run.sh "$out"
fi

for s in "${skips[@]}"; do echo "skipped: $s"; done
echo "$passed passed, $failed failed, ${#skips[@]} skipped"
[ "$failed" -eq 0 ] || exit 1
if [ -n "${STRICT:-}" ] && [ "${#skips[@]}" -gt 0 ]; then
	echo "STRICT: every part must run; run tests/setup first"
	exit 1
fi
exit 0
