#!/bin/bash
# The surface scan's search without the kernel's retries (ops/scan/scan_direct.c): its trust in the
# direct way, case by case (tests/unit/scan_direct_unit.c).  On real drivers: tests/vm/scan-checks.sh.
# Usage: scan-direct-tests.sh HDPARM OUTDIR
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=$2/scan-direct
mkdir -p "$out"
cd "$top" || exit 1
incs=()
for d in cli options run ops ops/any_disk ops/ata ops/block ops/erase ops/scan disk ata nvme scsi tcg transport block output lib; do
	incs+=(-I "$d")
done
# shellcheck disable=SC2086
if ! ${CC:-cc} -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Wall -Wextra -Werror "${incs[@]}" ${CFLAGS:-} ${LDFLAGS:-} \
	-o "$out/unit" tests/unit/scan_direct_unit.c ops/scan/scan_direct.c ops/scan/scan_classes.c block/sysfs.c \
	output/report.c output/json.c 2> "$out/build"; then
	echo "FAIL scan-direct: build tests/unit/scan_direct_unit.c"
	sed 's/^/  /' "$out/build" | head -n 20
	echo "end of suite"
	exit 1
fi
"$out/unit"
