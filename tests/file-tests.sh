#!/bin/bash
# --fallocate: a failure leaves no file behind, success is fsync'ed (strace); --fibmap of a FIFO.
# Usage: file-tests.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
f="$out/fallocated"
finish() { echo "end of suite"; exit 0; }
rm -f "$f"

"$H" --fallocate 0 "$f" > /dev/null 2> "$out/file.err"
rc1=$?
"$H" --fallocate 0 "$f" > /dev/null 2> "$out/file.err2"
rc2=$?
if [ "$rc1" = 22 ] && [ ! -e "$f" ] && [ "$rc2" = 22 ] && ! grep -q 'File exists' "$out/file.err2"; then
	echo "ok --fallocate 0: refused, no file left behind, a retry fails the same way"
else
	echo "FAIL --fallocate 0: refused, no file left behind, a retry fails the same way (exit $rc1, then $rc2)"
	sed 's/^/  /' "$out/file.err" "$out/file.err2"
fi

# --fibmap of a FIFO: refused at once as not a regular file (9.65's open() waits for a writer).
rm -f "$out/fifo"
mkfifo "$out/fifo"
timeout 10 "$H" --fibmap "$out/fifo" > /dev/null 2> "$out/fibmap-fifo.err"
rc=$?
if [ "$rc" = 22 ] && [ "$(cat "$out/fibmap-fifo.err")" = "$out/fifo: not a regular file" ]; then
	echo "ok --fibmap of a FIFO: refused at once, not a regular file"
else
	echo "FAIL --fibmap of a FIFO: refused at once, not a regular file (exit $rc; 124: it waited for a writer)"
	sed 's/^/  /' "$out/fibmap-fifo.err"
fi
rm -f "$out/fifo"

command -v strace > /dev/null || { echo "skip --fallocate fsync check: no strace (tests/setup installs it)"; finish; }
# LeakSanitizer cannot run under ptrace: a sanitizer build leaves it out here.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -o "$out/file.strace" -e trace=openat,fallocate,fsync,close "$H" --fallocate 64 "$f" > /dev/null 2>&1
rc=$?
size=$(stat -c %s "$f" 2>/dev/null)
# The fsync must come after the fallocate, on the same descriptor.
order=$(grep -E '^[0-9]+ +(fallocate|fsync)\(' "$out/file.strace" | sed -E 's/^[0-9]+ +//; s/\(([0-9]+),.*/ \1/; s/\(([0-9]+)\).*/ \1/' | tr '\n' ' ')
fd=$(echo "$order" | awk '{ print $2 }')
if [ "$rc" = 0 ] && [ "$size" = 65536 ] && [ "$order" = "fallocate $fd fsync $fd " ]; then
	echo "ok --fallocate 64: 64 KiB reserved, then fsync'ed"
else
	echo "FAIL --fallocate 64: 64 KiB reserved, then fsync'ed (exit $rc, size $size, calls: $order)"
fi
rm -f "$f"
finish
