#!/bin/bash
# make lint: limits that keep the house from sagging again (issue 51).
#   - no function of the program over 100 lines (its body, from the "{" that opens it at the
#     start of a line to the "}" that closes it);
#   - no header of the disk interface (disk/) over 300 lines;
#   - the test double tests/tools/sgio-shim.c has at most SHIM_SWITCHES switches (SHIM_...
#     variables): the number may only fall.  New cases go into the scripted double's tables
#     (tests/ops/*.cases, tests/tools/script-double.c).
# Usage: sizes.sh FILE.c...  Exit 1 with a line for each breach.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
SHIM_SWITCHES=85
bad=0
for f in "$@"; do
	awk -v f="$f" '/^{/ { start = NR; name = prev }
		/^}/ && start { if (NR - start - 1 > 100) { print "lint: " f ": " name ": " NR - start - 1 " lines (100 at most)"; bad = 1 }; start = 0 }
		{ prev = $0 } END { exit bad }' "$f" >&2 || bad=1
done
for h in "$top"/disk/*.h; do
	n=$(wc -l < "$h")
	if [ "$n" -gt 300 ]; then
		echo "lint: disk/${h##*/}: $n lines (300 at most): the interface, the facts and the run's state each in a header of their own" >&2
		bad=1
	fi
done
n=$(grep -o 'SHIM_[A-Z0-9_]*' "$top/tests/tools/sgio-shim.c" | sort -u | wc -l)
if [ "$n" -gt "$SHIM_SWITCHES" ]; then
	echo "lint: tests/tools/sgio-shim.c has $n SHIM_ switches, $SHIM_SWITCHES at most: write the case in the scripted double's tables (tests/ops/*.cases)" >&2
	bad=1
fi
exit "$bad"
