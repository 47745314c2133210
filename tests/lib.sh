# shellcheck shell=bash disable=SC2154,SC2034
# (out, H and preload are the suite's; rc and took are for it.)
# Sourced by the suites: what more than one of them needs.
#
# until_true SECONDS COMMAND...: COMMAND, tried every 0.1 s until it succeeds; false where it never
# did in SECONDS.  A suite waits for the state it needs (a log line, a process at a gate), not for
# a time that a busy machine may not keep.
until_true() {
	local n=$(($1 * 10))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# child_holding PID PATH: the child of PID that has PATH open (a disk's process of a run of many
# disks); fails where none has.
child_holding() {
	local c f
	for c in $(pgrep -P "$1"); do
		for f in /proc/"$c"/fd/*; do
			[ "$(readlink "$f" 2> /dev/null)" = "$2" ] && { echo "$c"; return 0; }
		done
	done
	return 1
}

# ok NAME, bad NAME DETAIL...: a check's line, "ok SUITE: NAME" or "FAIL SUITE: NAME" with a line per
# detail; SUITE is $suite, which the suite sets (empty: no prefix).
ok() { echo "ok ${suite:+$suite: }$1"; }
bad() {
	echo "FAIL ${suite:+$suite: }$1"
	shift
	[ $# -eq 0 ] || printf '  %s\n' "$@"
	# A mutant's run (tests/mutants/run.sh) needs one FAIL, and the rest of the suite is CI's time: it
	# ends here, where the suite's EXIT trap takes down what it set up (loop devices, faulty disks,
	# mounts); a suite without one goes on.  (In a subshell, $BASHPID is not $$: it goes on too.)
	if [ -n "${STOP_AT_FIRST_FAIL:-}" ] && [ "$BASHPID" = "$$" ] && [ -n "$(trap -p EXIT)" ]; then
		echo "end of suite (stopped at its first FAIL: STOP_AT_FIRST_FAIL)"
		exit 1
	fi
}

# run_on_double STEM ENV... -- ARGS...: hdparm ($H) with ENV on the test double that
# tests/tools/double.sh built ($preload); rc, took (seconds), and $out/STEM.out, STEM.err and the
# double's log STEM.log (empty when nothing was sent).  A suite's run() names its STEM, its double's
# environment and its device: run() { run_on_double cfg SHIM_IDENTIFY="$page" "$@" /dev/null; }
run_on_double() {
	local stem=$1 envs=() t0
	shift
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$out/$stem.log"
	t0=$EPOCHREALTIME
	# A sanitizer build wants its runtime first; the double must come first here.
	env SHIM_LOG="$out/$stem.log" "${envs[@]}" "${preload[@]}" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$H" "$@" > "$out/$stem.out" 2> "$out/$stem.err"
	rc=$?
	took=$(echo "$EPOCHREALTIME - $t0" | bc)
	touch "$out/$stem.log"
}

# expect_run STEM NAME EXIT STDOUT-TEXT STDERR-TEXT: the last run_on_double STEM exited EXIT and its
# output holds each text (a fixed string; "": anything).
expect_run() {
	local stem=$1 name=$2 want_rc=$3 out_text=$4 err_text=$5
	if [ "$rc" = "$want_rc" ] && { [ -z "$out_text" ] || grep -qF -- "$out_text" "$out/$stem.out"; } &&
		{ [ -z "$err_text" ] || grep -qF -- "$err_text" "$out/$stem.err"; }; then
		ok "$name"
	else
		bad "$name (exit $rc, wanted $want_rc)" "stdout: $(head -n 8 "$out/$stem.out" | tr '\n' '|')" \
			"stderr: $(head -n 5 "$out/$stem.err" | tr '\n' '|')"
	fi
}

# result_of STEM STATUS NAME: ok NAME where STATUS is 0; else FAIL with the last run's exit status and
# output.  Returns STATUS.
result_of() {
	local stem=$1 status=$2 name=$3
	if [ "$status" = 0 ]; then
		ok "$name"
	else
		bad "$name (exit $rc)" "out: $(head -n 12 "$out/$stem.out" 2> /dev/null | tr '\n' '|')" \
			"err: $(head -n 5 "$out/$stem.err" 2> /dev/null | tr '\n' '|')"
	fi
	return "$status"
}
