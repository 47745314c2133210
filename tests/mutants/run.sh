#!/bin/bash
# The deliberate faults of tests/mutants/list, one at a time: a copy of the tree with the fault
# put in, hdparm rebuilt there, the suite named run on it.  "ok mutant NAME: caught by SUITE (N
# FAIL lines)" where the suite fails, "FAIL mutant NAME: ..." where it passes with the fault in or
# the fault no longer applies.  Usage: run.sh OUTDIR [NAME...] (as make check runs it: root for
# the suites that use loop devices).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
shift
want=" $* "
tree="$out/mutant-tree"
field() { awk -F ' [|] ' -v n="$2" '{ print $n }' <<< "$1"; }
while IFS= read -r line; do
	case "$line" in '#'* | '') continue ;; esac
	name=$(field "$line" 1) file=$(field "$line" 2) expr=$(field "$line" 3) suite=$(field "$line" 4)
	[ "$want" = "  " ] || [[ "$want" == *" $name "* ]] || continue
	rm -rf "$tree"
	mkdir -p "$tree"
	# The tree as it is, its objects too: only the file changed is built again.
	(cd "$top" && tar --exclude=./tests/out --exclude=./tests/vm/cache --exclude=./.git -cf - .) | tar -xf - -C "$tree"
	cp "$tree/$file" "$out/mutant.orig"
	sed -E -i "$expr" "$tree/$file"
	if cmp -s "$tree/$file" "$out/mutant.orig"; then
		echo "FAIL mutant $name: the fault no longer applies to $file (the list follows the code)"
		continue
	fi
	touch "$tree/$file"
	if ! make -s -C "$tree" hdparm > "$out/mutant-$name.build" 2>&1; then
		echo "FAIL mutant $name: the tree with the fault does not build"
		sed 's/^/  /' "$out/mutant-$name.build" | head -n 5
		continue
	fi
	mkdir -p "$out/mutant-$name"
	bash "$tree/tests/$suite" "$tree/hdparm" "$out/mutant-$name" > "$out/mutant-$name.log" 2>&1
	n=$(grep -c '^FAIL ' "$out/mutant-$name.log")
	if [ "$n" -gt 0 ]; then
		echo "ok mutant $name: caught by $suite ($n FAIL lines)"
	else
		echo "FAIL mutant $name: $suite passes with the fault in $file"
	fi
done < "$top/tests/mutants/list"
rm -rf "$tree"
echo "end of suite"
