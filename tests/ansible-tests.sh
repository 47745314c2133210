#!/bin/bash
# The playbook of hdparm.8 (tests/ansible/hdparm-config.yml), run by
# ansible-playbook against localhost on two loop devices whose ATA commands
# the test double answers and keeps (SHIM_KEEP_FEATURES; read-ahead is the kernel's): --check mode
# changes nothing, the first run reports changed, the second ok and sends
# no SET FEATURES.  What was set is read back by blockdev and by hdparm
# 9.65 under the same double.  Usage: ansible-tests.sh HDPARM OUTDIR (as root).
set -u
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
ORACLE=${ORACLE:-/usr/sbin/hdparm}
double_name=ansible
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"

suite="ansible"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

if ! command -v ansible-playbook > /dev/null; then
	echo "skip ansible: no ansible-playbook (tests/setup installs ansible-core)"
	echo "end of suite"
	exit 0
fi
truncate -s 8M "$out/ans-a.img" "$out/ans-b.img"
a=$(losetup -f --show "$out/ans-a.img") || { bad "losetup"; echo "end of suite"; exit 0; }
b=$(losetup -f --show "$out/ans-b.img") || { losetup -d "$a"; bad "losetup"; echo "end of suite"; exit 0; }
trap 'losetup -d "$a" 2> /dev/null; losetup -d "$b" 2> /dev/null' EXIT
trap 'exit 1' INT TERM HUP
blockdev --setra 256 "$a" "$b"
# A real drive's page (APM 128, write cache on), kept up to date by the double.
cp "$top/tests/identify/real/FUJITSU_MHY2120BH--0084000D.hex" "$out/ans-page.hex"
cfg="$out/ans.conf"
printf '%s {\n\tread_ahead_sect = 64\n\tapm = 254\n\twrite_cache = off\n}\n%s {\n\tread_ahead_sect = 128\n}\n' "$a" "$b" > "$cfg"

# play [--check]: the playbook on the double, drives awake (CHECK POWER MODE FFh: --check-config reads
# them); its recap line in $recap, the double's log in $out/ans.log
play() {
	rm -f "$out/ans.log"
	env LC_ALL=C.UTF-8 ANSIBLE_LOCAL_TEMP="$out/ans-tmp" ANSIBLE_NOCOLOR=1 ANSIBLE_HOME="$out/ans-home" SHIM_COUNT=0xff \
		SHIM_LOG="$out/ans.log" SHIM_IDENTIFY="$out/ans-page.hex" SHIM_KEEP_FEATURES=1 SHIM_REAL_BLOCK=1 "${preload[@]}" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		ansible-playbook -i localhost, "$@" -e hdparm="$H" -e config="$cfg" "$top/tests/ansible/hdparm-config.yml" \
		> "$out/ans.out" 2>&1
	rc=$?
	recap=$(grep '^localhost *:' "$out/ans.out")
	touch "$out/ans.log"
}

# state: what the disks say now, by tools other than ours.
state() {
	echo "ra $(blockdev --getra "$a") $(blockdev --getra "$b");" \
		"$(env SHIM_IDENTIFY="$out/ans-page.hex" "${preload[@]}" "$ORACLE" -B -W /dev/null 2> /dev/null | tr -s ' \t\n' ' ')"
}
before=$(state)
sets() { sed 's/^cdb: //' "$out/ans.log" | awk '$15 == "ef"' | wc -l; }

play --check
if [ "$rc" = 0 ] && [[ $recap == *"changed=0"* ]] && [ "$(state)" = "$before" ] && [ "$(sets)" = 0 ]; then
	ok "--check mode: changed=0, nothing set (blockdev and hdparm 9.65 read the same as before)"
else
	bad "--check mode" "exit $rc: $recap" "before: $before" "after:  $(state)" "$(tail -5 "$out/ans.out")"
fi

play
after=$(state)
if [ "$rc" = 0 ] && [[ $recap == *"changed=1"* ]] && [[ $after == "ra 64 128;"*"write-caching = 0 (off) APM_level = 254"* ]] &&
	[ "$(sets)" = 2 ]; then
	ok "first run: changed=1; read-ahead 64 and 128, APM 254, write cache off (two SET FEATURES)"
else
	bad "first run" "exit $rc: $recap" "after: $after" "SET FEATURES sent: $(sets)" "$(tail -5 "$out/ans.out")"
fi

play
if [ "$rc" = 0 ] && [[ $recap == *"changed=0"* ]] && [ "$(state)" = "$after" ] && [ "$(sets)" = 0 ]; then
	ok "second run: ok, changed=0, no SET FEATURES sent"
else
	bad "second run" "exit $rc: $recap" "SET FEATURES sent: $(sets)" "$(tail -5 "$out/ans.out")"
fi

blockdev --setra 512 "$b"
play
if [ "$rc" = 0 ] && [[ $recap == *"changed=1"* ]] && [ "$(blockdev --getra "$b")" = 128 ] && [ "$(sets)" = 0 ]; then
	ok "a setting changed by hand: changed=1 again, and only it is sent"
else
	bad "drift by hand" "exit $rc: $recap" "$(state)"
fi
echo "end of suite"
