#!/bin/bash
# The deliberate faults of tests/mutants/list: for each, a copy of the tree with the fault put
# in, hdparm rebuilt there, the suite named run on it.  "ok mutant NAME: caught by SUITE (N FAIL
# lines)" where the suite fails, "FAIL mutant NAME: ..." where it passes with the fault in or the
# fault no longer applies.  Usage: run.sh OUTDIR [NAME...] (as make check runs it: root for the
# suites that use loop devices).
#
# Each in a tree of its own.  A suite that talks to nothing but its test double, under its own
# OUTDIR, runs two at a time; one that uses loop devices or mounts (the list below) runs with no
# other of those, as make check runs them; idle's (loop devices and tracefs, mostly waiting) runs
# beside them, as make check runs it.  The lines come out in the list's order.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
shift
want=" $* "
alone=" loop-tests.sh partition-tests.sh hold-tests.sh timing-tests.sh iodepth-tests.sh erase-proof-tests.sh erase-together-tests.sh faulty-disk-tests.sh ansible-tests.sh "
# The surface scan's suites: loop devices and faulty disks of their own, their reads held by
# stopping the disk rather than timed: one after another in a lane of their own.
scan_alone=" surface-scan-tests.sh scan-picture-tests.sh scan-map-tests.sh scan-many-tests.sh scan-repair-tests.sh "
field() { awk -F ' [|] ' -v n="$2" '{ print $n }' <<< "$1"; }

# run_until_fail LOG COMMAND...: COMMAND (a suite) with its output in LOG, stopped (SIGTERM: its
# traps clean up, after the command it waits on) at its first FAIL line: the mutant is caught
# then, and the rest of the suite would only cost time.  In a session of its own, so that what it
# started and left (a process it was to stop after that FAIL) is killed with it; with SIGINT and
# SIGQUIT as make check gives its suites (a command started with & would have them ignored).  A
# suite that a fault holds (a wait the fault made endless) is ended after MUTANT_SECONDS (600).
run_until_fail() {
	local log=$1 pid rc waited=0
	shift
	env --default-signal=INT,QUIT setsid "$@" > "$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2> /dev/null; do
		if grep -qs '^FAIL ' "$log"; then
			kill -TERM "$pid" 2> /dev/null
			break
		fi
		if [ "$waited" -ge "${MUTANT_SECONDS:-600}" ]; then
			# Its cleanup given 10 s, then the whole session killed.
			echo "FAIL the suite still ran after ${MUTANT_SECONDS:-600} s: ended" >> "$log"
			kill -TERM -- "-$pid" 2> /dev/null
			for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2> /dev/null && sleep 1; done
			kill -KILL -- "-$pid" 2> /dev/null
			break
		fi
		sleep 1
		waited=$((waited + 1))
	done
	wait "$pid"
	rc=$?
	kill -KILL -- "-$pid" 2> /dev/null
	return $rc
}

# one NAME FILE EXPR SUITE: the mutant's line in $out/mutant-NAME.result.
one() {
	local name=$1 file=$2 expr=$3 suite=$4 tree="$out/mutant-tree-$1" n
	rm -rf "$tree"
	mkdir -p "$tree"
	# The tree as it is, its objects too: only the file changed is built again.
	(cd "$top" && tar --exclude=./tests/out --exclude=./tests/vm/cache --exclude=./tests/fuzz/bin --exclude=./tests/oracle-cache --exclude=./.git -cf - .) | tar -xf - -C "$tree"
	cp "$tree/$file" "$out/mutant-$name.orig"
	sed -E -i "$expr" "$tree/$file"
	if cmp -s "$tree/$file" "$out/mutant-$name.orig"; then
		echo "FAIL mutant $name: the fault no longer applies to $file (the list follows the code)"
	elif touch "$tree/$file" && ! make -s -C "$tree" hdparm > "$out/mutant-$name.build" 2>&1; then
		echo "FAIL mutant $name: the tree with the fault does not build"
		sed 's/^/  /' "$out/mutant-$name.build" | head -n 5
	else
		mkdir -p "$out/mutant-$name"
		run_until_fail "$out/mutant-$name.log" bash "$tree/tests/$suite" "$tree/hdparm" "$out/mutant-$name"
		n=$(grep -c '^FAIL ' "$out/mutant-$name.log")
		if [ "$n" -gt 0 ]; then
			echo "ok mutant $name: caught by $suite ($n FAIL lines)"
		else
			echo "FAIL mutant $name: $suite passes with the fault in $file"
		fi
	fi > "$out/mutant-$name.result"
	rm -rf "$tree"
}

# Four lanes at once: the mutants of the suites that must run alone, one after another (they
# mostly wait: the faulty disk's slow reads); the surface scan's, one after another; idle's, one
# after another (its timeouts); and beside them the others, two at a time.
names=()
alone_lane=()
scan_lane=()
idle_lane=()
double_lane=()
while IFS= read -r line; do
	case "$line" in '#'* | '') continue ;; esac
	name=$(field "$line" 1) suite=$(field "$line" 4)
	[ "$want" = "  " ] || [[ "$want" == *" $name "* ]] || continue
	names+=("$name")
	rm -f "$out/mutant-$name.result"
	if [ "$suite" = idle-tests.sh ]; then
		idle_lane+=("$line")
	elif [[ "$alone" == *" $suite "* ]]; then
		alone_lane+=("$line")
	elif [[ "$scan_alone" == *" $suite "* ]]; then
		scan_lane+=("$line")
	else
		double_lane+=("$line")
	fi
done < "$top/tests/mutants/list"
run_line() { one "$(field "$1" 1)" "$(field "$1" 2)" "$(field "$1" 3)" "$(field "$1" 4)" < /dev/null; }
(for line in "${alone_lane[@]}"; do run_line "$line"; done) &
(for line in "${scan_lane[@]}"; do run_line "$line"; done) &
(for line in "${idle_lane[@]}"; do run_line "$line"; done) &
for line in "${double_lane[@]}"; do
	# The three serial lanes are three jobs of the five.
	while [ "$(jobs -rp | wc -l)" -ge 5 ]; do wait -n; done
	run_line "$line" &
done
wait
for name in "${names[@]}"; do
	if [ -s "$out/mutant-$name.result" ]; then
		cat "$out/mutant-$name.result"
	else
		echo "FAIL mutant $name: no result (its run stopped early)"
	fi
done
echo "end of suite"
