#!/bin/sh
# Builds sedutil-cli (the Drive Trust Alliance's, the oracle of --tcg's decoding) into
# /var/cache/hdparm-tests/sedutil-cli, once: from the source kept in ../shared/oracles beside the
# project (see its README) where it is there, else from its public repository.  The
# tests/tcg-tests.sh suite runs it under the test double.
set -eu
cache=/var/cache/hdparm-tests
bin=$cache/sedutil-cli
[ -x "$bin" ] && exit 0
top=$(cd "$(dirname "$0")/../.." && pwd)
kept=$(ls "$top"/../shared/oracles/sedutil-*.tar.xz 2> /dev/null | head -n 1)
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
if [ -n "$kept" ]; then
	tar -xJf "$kept" -C "$src" --strip-components=1 --wildcards '*/Common' '*/linux'
elif git clone -q --depth 1 https://github.com/Drive-Trust-Alliance/sedutil "$src/repo" 2> /dev/null; then
	mv "$src/repo/Common" "$src/repo/linux" "$src"
else
	echo "setup: sedutil's source is not reachable: tests/tcg-tests.sh skips its comparisons"
	exit 0
fi
cd "$src"
echo '#define GIT_VERSION "hdparm-tests"' > Common/Version.h
for f in Common/pbkdf2/*.c; do cc -O1 -w -c -ICommon/pbkdf2 -o "${f%.c}.o" "$f"; done
mkdir -p "$cache"
g++ -O1 -w -std=gnu++11 -ICommon -Ilinux -ICommon/pbkdf2 -o "$bin.tmp" Common/*.cpp linux/*.cpp Common/pbkdf2/*.o
mv "$bin.tmp" "$bin"
echo "setup: built $bin"
