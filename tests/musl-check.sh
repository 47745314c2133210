#!/bin/bash
# A static musl build (as Alpine, OpenWrt and Buildroot build hdparm) must
# decode every IDENTIFY page of the tests byte for byte as the glibc build
# does, and emit valid JSON.  Needs musl-gcc (Debian: musl-tools) and the
# glibc build in ./hdparm.  Prints "ok"/"FAIL" lines and "end of suite".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
command -v musl-gcc > /dev/null || { echo "skip musl: no musl-gcc (tests/setup installs it)"; echo "end of suite"; exit 0; }

# musl-gcc looks for headers in musl's tree only: the kernel's come from links.
mkdir -p "$work/include"
for d in linux asm-generic mtd; do ln -s "/usr/include/$d" "$work/include/$d"; done
ln -s "/usr/include/$(gcc -print-multiarch)/asm" "$work/include/asm"
mkdir "$work/src"
cp "$top/Makefile" "$work/src/"
# The sources, folder by folder as the Makefile lists them (no object built here).
for d in $(sed -n 's/^DIRS = //p' "$top/Makefile"); do
	mkdir -p "$work/src/$d" && cp "$top/$d"/*.[ch] "$work/src/$d/"
done
# Not the flags of a make check that runs this (a sanitizer build's cannot link statically).
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$work/src" CC=musl-gcc CFLAGS="-O2 -g" CPPFLAGS="-I$work/include" \
	LDFLAGS=-static > "$work/build.log" 2>&1 &&
	file "$work/src/hdparm" | grep -q 'statically linked'; then
	echo "ok musl: static build"
else
	echo "FAIL musl: static build"
	grep -E 'error' "$work/build.log" | head -n 10 | sed 's/^/  /'
	echo "end of suite"
	exit 0
fi
bad=0
n=0
for page in "$top"/tests/identify/pages/*.hex "$top"/tests/identify/real/*.hex; do
	n=$((n + 1))
	a=$("$work/src/hdparm" --Istdin < "$page" 2>&1; echo "[exit $?]")
	b=$("$top/hdparm" --Istdin < "$page" 2>&1; echo "[exit $?]")
	if [ "$a" != "$b" ]; then
		bad=$((bad + 1))
		echo "  differs: $(basename "$page")"
	fi
	"$work/src/hdparm" --json --Istdin < "$page" > "$work/doc.json" 2> /dev/null
	if ! python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/doc.json" 2> /dev/null; then
		bad=$((bad + 1))
		echo "  invalid JSON: $(basename "$page")"
	fi
done
if [ "$bad" = 0 ]; then
	echo "ok musl: $n pages decode as with glibc, each --json document valid"
else
	echo "FAIL musl: $bad differences on $n pages"
fi
echo "end of suite"
