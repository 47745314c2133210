#!/bin/bash
# SCSI disks without ATA pass-through, against the test double's SAS disk
# (tests/tools/sgio-shim.c, SHIM_SCSI=1).  The cases of one command line each
# are rows of tests/scsi-commands.txt; the checks below them need more than a
# row: a fake sysfs, JSON, texts that must be absent.  The CDBs and parameter
# data wanted are written from SPC-4 and SBC-3, not from what hdparm sends.
# Usage: scsi-commands.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
suite="scsi" double_name=scsi
# shellcheck source=tests/tools/double.sh
. "$top/tests/tools/double.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

# run ENV... -- ARGS...: hdparm on the double's SCSI disk; stdout, stderr and log in $out/scsi-cmd.*
run() { run_on_double scsi-cmd SHIM_SCSI=1 "$@" /dev/null; }


# The rows of the table ({probe}, {sense_caching}, ...: its named pieces, kept in piece[] for the checks below).
case_prefix=scsi case_files="$out/scsi-cmd"
# shellcheck source=tests/tools/cases.sh
. "$top/tests/tools/cases.sh"
run_cases "$top/tests/scsi-commands.txt" scsi
probe=${piece[probe]} sense_caching=${piece[sense_caching]} changeable=${piece[changeable]}
select_caching=${piece[select_caching]} caching_wce1=${piece[caching_wce1]} sync=${piece[sync]}
readcap=${piece[readcap]} read5=${piece[read5]}

# --- identity (beyond the rows) ---
run -- -I
if grep -q 'cylinders\|HDIO\|sense data' "$out/scsi-cmd.out" "$out/scsi-cmd.err"; then
	bad "-I prints no ATA noise"
else
	ok "-I prints no ATA noise"
fi
run -- --verbose -I
if [ "$rc" = 0 ] && ! grep -q 'sense data' "$out/scsi-cmd.err"; then
	ok "--verbose -I: the probe's refusal is no news"
else
	bad "--verbose -I: the probe's refusal is no news (exit $rc)"
	head -n 3 "$out/scsi-cmd.err" | sed 's/^/  /'
fi
# --sanitize-wait's end in JSON, as on NVMe: the state last read (idle after a sanitize that ran: its end).
run SHIM_SCSI_SANITIZING=0,8000,done -- --json --sanitize-wait
if [ "$rc" = 0 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["devices"][0]
sys.exit(0 if d["sanitize_status"]["status"] == "completed" else 1)' "$out/scsi-cmd.out"; then
	ok "--json --sanitize-wait: sanitize_status says completed"
else
	bad "--json --sanitize-wait: sanitize_status says completed (exit $rc)"
	head -c 400 "$out/scsi-cmd.out" | sed 's/^/  /'
fi
run SHIM_SCSI_LACK=80,83,b1 -- -I
if [ "$rc" = 0 ] && grep -q 'Model Number:' "$out/scsi-cmd.out" &&
	! grep -q 'Serial Number:\|Rotation Rate\|WWN' "$out/scsi-cmd.out"; then
	ok "-I without VPD 80h, 83h, B1h leaves their lines out"
else
	bad "-I without VPD 80h, 83h, B1h leaves their lines out (exit $rc)"
fi
run -- --json -I
if [ "$rc" = 0 ] && python3 - "$out/scsi-cmd.out" <<'EOF'
import json, sys
dev = json.load(open(sys.argv[1]))["devices"][0]
d = dict(dev["identify"], errors=dev["errors"])
want = {"device_type": "scsi", "scsi_vendor": "SEAGATE", "scsi_product": "ST8000NM0075",
        "scsi_model_name": "SEAGATE ST8000NM0075", "scsi_revision": "E004", "serial_number": "ZA1B2C3D",
        "user_capacity": {"blocks": 15628053168, "bytes": 15628053168 * 512},
        "logical_block_size": 512, "physical_block_size": 4096, "rotation_rate": 7200,
        "logical_unit_id": "0x5000c500a1b2c3d4", "errors": []}
bad = {k: d.get(k) for k in want if d.get(k) != want[k]}
sys.exit(1 if bad else 0)
EOF
then
	ok "--json -I: smartctl's SCSI keys"
else
	bad "--json -I: smartctl's SCSI keys (exit $rc)"
	head -c 600 "$out/scsi-cmd.out" | sed 's/^/  /'
fi

# --- a device's answers are input: lengths bounded, strings escaped (issue 26) ---
run SHIM_SCSI_SERIAL_LEN=255 -- -I
if [ "$(grep -c 'Serial Number:' "$out/scsi-cmd.out")" = 1 ] && ! grep -q '[^ -~	]' "$out/scsi-cmd.out"; then
	ok "-I: the long serial prints as one line of printable text"
else
	bad "-I: the long serial prints as one line of printable text"
fi
# Control characters in the serial (ESC [ 2 J clears a terminal): escaped as \xNN.
esc=$(printf 'AB\033[2J\007CD')
run SHIM_SCSI_SERIAL="$esc" -- -I
check "-I: control characters in the serial are escaped" 0 "*" 'Serial Number:      AB\x1b[2J\x07CD' ""
if ! grep -q "$(printf '\033')" "$out/scsi-cmd.out"; then
	ok "-I: no escape byte reaches stdout"
else
	bad "-I: no escape byte reaches stdout"
fi
run SHIM_SCSI_SERIAL="$esc" -- -i
check "-i: control characters in the serial are escaped" 0 "*" 'SerialNo=AB\x1b[2J\x07CD' ""
run SHIM_SCSI_SERIAL="$esc" -- --json -i
check "--json -i: the escaped serial" 0 "*" '"serial_number": "AB\\x1b[2J\\x07CD"' ""

# --- the kernel's view of the disk: a sysfs of one disk, /dev/null as its block device 8:900000 ---
# shellcheck source=tests/tools/usb-sysfs.sh
. "$top/tests/tools/usb-sysfs.sh"
# sysfs_tree NAME DRIVER CACHE_TYPE WRITE_CACHE: the layout the kernel gives a SCSI disk
# (Documentation/ABI: /sys/dev/block/M:m links to the disk, its "device" to the SCSI device
# H:C:T:L, sd's class folder scsi_disk/H:C:T:L holds cache_type); DRIVER is bound to the USB
# interface above the SCSI host ("" for none); CACHE_TYPE "no" leaves sd's folder out.
sysfs_tree() {
	local sdev
	sdev=$(usb_sysfs "$out/sysfs-$1" "$2")
	if [ "$3" != no ]; then
		mkdir -p "$sdev/scsi_disk/6:0:0:0"
		echo "$3" > "$sdev/scsi_disk/6:0:0:0/cache_type"
	fi
	echo "$4" > "$sdev/block/sdz/queue/write_cache"
	echo "$sdev"
}
# -W1 where sd has cache_type: the kernel is asked, and sends the MODE SELECT itself; we send none.
sdev=$(sysfs_tree sd "" "write through" "write back")
run SHIM_SCSI_WCE=0 SHIM_SYSFS="$out/sysfs-sd" SHIM_BLOCK_DEV=8:900000 -- -q -W1
check "-W1: through sd's cache_type, no MODE SELECT of ours" 0 "$probe;$sense_caching;$changeable" "" ""
if [ "$(cat "$sdev/scsi_disk/6:0:0:0/cache_type")" = "write back" ]; then
	ok "-W1: cache_type was written \"write back\""
else
	bad "-W1: cache_type was written \"write back\" (it holds: $(cat "$sdev/scsi_disk/6:0:0:0/cache_type"))"
fi
# -W0: the cache is synchronized first, then cache_type "write through".
sdev=$(sysfs_tree sd "" "write back" "write through")
run SHIM_SYSFS="$out/sysfs-sd" SHIM_BLOCK_DEV=8:900000 -- -q -W0
check "-W0: SYNCHRONIZE CACHE, then sd's cache_type" 0 "$probe;$sense_caching;$changeable;$sync" "" ""
[ "$(cat "$sdev/scsi_disk/6:0:0:0/cache_type")" = "write through" ] && ok "-W0: cache_type was written \"write through\"" ||
	bad "-W0: cache_type was written \"write through\""
# The kernel does not follow (queue/write_cache still says write through after -W1): an error.
sysfs_tree sd "" "write through" "write through" > /dev/null
run SHIM_SCSI_WCE=0 SHIM_SYSFS="$out/sysfs-sd" SHIM_BLOCK_DEV=8:900000 -- -q -W1
check "-W1: the kernel still says write through: failure" 5 "*" "" \
	'-W1: the disk'"'"'s write cache is now on, but the kernel still has it as "write through"'
sysfs_tree sd "" "write back" "write back" > /dev/null
run SHIM_SYSFS="$out/sysfs-sd" SHIM_BLOCK_DEV=8:900000 -- -q -W0
check "-W0: the kernel still says write back: failure that names fsync" 5 "*" "" \
	'fsync is not durable until that is "write through"'
# No sd class folder (another driver, an old kernel): our MODE SELECT, then a rescan of the device.
sdev=$(sysfs_tree nosd "" no "write back")
run SHIM_SCSI_WCE=0 SHIM_SYSFS="$out/sysfs-nosd" SHIM_BLOCK_DEV=8:900000 -- -q -W1
check "-W1 without cache_type: MODE SELECT, then a rescan" 0 "$probe;$sense_caching;$changeable;$select_caching;$caching_wce1" "" ""
[ "$(cat "$sdev/rescan" 2> /dev/null)" = 1 ] && ok "-W1 without cache_type: device/rescan was written 1" ||
	bad "-W1 without cache_type: device/rescan was written 1"
# An sg node (/dev/null is the character device 1:3): /sys/dev/char/1:3/device is the same SCSI
# device, so sd's cache_type is written; the disk's queue is under device/block/.
sg_tree() { # CACHE_TYPE WRITE_CACHE
	local sdev
	sdev=$(sysfs_tree sg "" "$1" "$2")
	mkdir -p "$out/sysfs-sg/sys/dev/char/1:3"
	ln -s "../../../../${sdev#"$out/sysfs-sg/"}" "$out/sysfs-sg/sys/dev/char/1:3/device"
	echo "$sdev"
}
sdev=$(sg_tree "write through" "write back")
run SHIM_SCSI_WCE=0 SHIM_SYSFS="$out/sysfs-sg" -- -q -W1
check "-W1 through an sg node: sd's cache_type, no MODE SELECT of ours" 0 "$probe;$sense_caching;$changeable" "" ""
[ "$(cat "$sdev/scsi_disk/6:0:0:0/cache_type")" = "write back" ] && ok "-W1 through an sg node: cache_type was written \"write back\"" ||
	bad "-W1 through an sg node: cache_type was written \"write back\""
sg_tree "write through" "write through" > /dev/null
run SHIM_SCSI_WCE=0 SHIM_SYSFS="$out/sysfs-sg" -- -q -W1
check "-W1 through an sg node: the disk's queue still says write through: failure" 5 "*" "" \
	'but the kernel still has it as "write through" (/sys/dev/char/1:3/device/block/sdz/queue/write_cache)'
# A USB bridge (usb-storage or uas bound above the SCSI host): what the sd driver sends there.
# READ CAPACITY (10) (SBC-3 5.15) first; (16) only when (10) says FFFFFFFFh.
readcap10='25 00 00 00 00 00 00 00 00 00'
# MODE SENSE (10) of all pages (3Fh), ALLOCATION LENGTH 192 (00c0h), as sd asks at every probe.
sense_all='5a 08 3f 00 00 00 00 00 c0 00'
for drv in usb-storage uas; do
	sysfs_tree "$drv" "$drv" "write back" "write back" > /dev/null
	run SHIM_SCSI_BLOCKS=1000000 SHIM_SYSFS="$out/sysfs-$drv" SHIM_BLOCK_DEV=8:900000 -- -W
	check "$drv: -W asks all mode pages in 192 bytes" 0 "$probe;$sense_all" " write-caching =  1 (on)" ""
	run SHIM_SCSI_BLOCKS=1000000 SHIM_SYSFS="$out/sysfs-$drv" SHIM_BLOCK_DEV=8:900000 -- --read-sector 5
	check "$drv: --read-sector: READ CAPACITY (10) alone" 0 "$probe;$readcap10;$read5" \
		"reading sector 5: succeeded" ""
done
# An ATA-only option behind uas: the refusal says how to try usb-storage for this enclosure.
run SHIM_SYSFS="$out/sysfs-uas" SHIM_BLOCK_DEV=8:900000 -- -B 128
check "uas: -B refused, with the usb-storage quirk for 152d:0578" 95 "$probe" "" \
	"some USB bridges pass ATA commands only under usb-storage (boot with usb-storage.quirks=152d:0578:u"
run SHIM_SYSFS="$out/sysfs-usb-storage" SHIM_BLOCK_DEV=8:900000 -- -B 128
if [ "$rc" = 95 ] && grep -q 'needs an ATA drive' "$out/scsi-cmd.err" && ! grep -q 'quirks' "$out/scsi-cmd.err"; then
	ok "usb-storage: -B refused, no quirk to suggest"
else
	bad "usb-storage: -B refused, no quirk to suggest (exit $rc)"
fi
run SHIM_SYSFS="$out/sysfs-uas" SHIM_BLOCK_DEV=8:900000 -- --read-sector 5
check "uas: a disk too large for READ CAPACITY (10) is asked (16) too" 0 \
	"$probe;$readcap10;$readcap;$read5" "reading sector 5: succeeded" ""
run SHIM_SCSI_BLOCKS=1000000 SHIM_SYSFS="$out/sysfs-sd" SHIM_BLOCK_DEV=8:900000 -- --read-sector 5
check "not behind USB: READ CAPACITY (16)" 0 "$probe;$readcap;$read5" "" ""
# A capacity that contradicts the kernel's size of the block device is an error, not a range.
run SHIM_SCSI_BLOCKS=1000000 SHIM_BLKSIZE=$((1000001 * 512)) SHIM_SYSFS="$out/sysfs-usb-storage" SHIM_BLOCK_DEV=8:900000 -- --read-sector 1000000
check "--read-sector: READ CAPACITY one block short of the kernel's size: refused" 5 "$probe;$readcap10" "" \
	"the disk reports 1000000 blocks of 512 bytes, but the kernel sees 512000512 bytes"
run SHIM_SCSI_BLOCKS=1000000 SHIM_BLKSIZE=$((1000000 * 512)) SHIM_SYSFS="$out/sysfs-usb-storage" SHIM_BLOCK_DEV=8:900000 -- --read-sector 999999
check "--read-sector: READ CAPACITY agrees with the kernel: read" 0 "*" "reading sector 999999: succeeded" ""

# --- sectors (beyond the rows): a READ that transferred nothing dumps nothing ---
run SHIM_SCSI_READ_RESID=512 -- --read-sector 5
if [ "$rc" = 5 ] && ! grep -q '5a5a' "$out/scsi-cmd.out"; then ok "--read-sector: no dump of the untouched buffer"; else bad "--read-sector: no dump of the untouched buffer"; fi

# --- ATA-only options: refused before anything but the probe is sent ---
while read -r opt; do
	# shellcheck disable=SC2086
	run -- --yes-i-know-what-i-am-doing --please-destroy-my-drive $opt
	name=$(echo "${opt%% *}" | sed 's/^\(-[A-Za-z]\)[0-9]*$/\1/')
	check "$name: refused, nothing sent" 95 "$probe" "" "/dev/null is a SCSI disk without ATA pass-through: $name needs an ATA drive"
	if [ "$(grep -c 'needs an ATA drive' "$out/scsi-cmd.err")" != 1 ]; then
		bad "$name: refused once"
	fi
done <<'EOF'
-B 128
-M 128
-N 1000
-X udma5
-K1
-D1
-P 8
-J 30
-s1
-Z
--idle-immediate
--idle-unload
--security-freeze
--security-unlock pw
--sanitize-freeze-lock
--dco-identify
--dco-restore
--make-bad-sector 100
--write-sector 100
--drq-hsm-error
EOF

# The sanitize object: the same spelling of the action as on NVMe and ATA.
run SHIM_SCSI_SANITIZE=1,2,3 -- --json --yes-i-know-what-i-am-doing --sanitize-crypto-scramble
if [ "$rc" = 0 ] && python3 - "$out/scsi-cmd.out" <<'PY'
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["devices"][0]["sanitize"] == {"action": "crypto_erase", "outcome": "started"} else 1)
PY
then
	ok "--json --sanitize-crypto-scramble: action crypto_erase, outcome started"
else
	bad "--json --sanitize-crypto-scramble: action crypto_erase, outcome started (exit $rc)"
fi

# -H against smartctl reading the same LOG SENSE answers of the double (not in the cross builds'
# comparison, tests/cross-check.sh, whose double is built for the target).
if [ -z "${DOUBLE_COMPARE:-}" ]; then
	run SHIM_SCSI_TEMPERATURE=41,65 -- -H
	theirs=$(env SHIM_SCSI=1 SHIM_SCSI_TEMPERATURE=41,65 "${preload[@]}" smartctl -A -d scsi /dev/null 2> /dev/null |
		sed -n 's/^Current Drive Temperature: *\([0-9]*\) C$/\1/p; s/^Drive Trip Temperature: *\([0-9]*\) C$/trip \1/p' | tr '\n' ' ')
	if [ "$rc" = 0 ] && [ "$theirs" = "41 trip 65 " ] && grep -qx ' drive temperature (celsius) is:  41' "$out/scsi-cmd.out" &&
		grep -qx ' reference temperature (celsius): 65' "$out/scsi-cmd.out"; then
		ok "-H: the temperature and reference smartctl reads from the same page (41, trip 65)"
	else
		bad "-H: the temperature and reference smartctl reads (smartctl: '$theirs', exit $rc)"
	fi
fi

# Power conditions and background scan against sdparm and sg_start under the same double (not in
# the cross builds' comparison): the commands each sends beyond its MODE SENSEs, and what --epc
# reads against sdparm's decoding of the same four MODE SENSE answers.
# sent_by ENV... -- COMMAND...: the commands (and data) COMMAND sent to the double's disk, MODE SENSE
# and the probes left out, one line
sent_by() {
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$out/scsi-their.log"
	env SHIM_SCSI=1 SHIM_SCSI_POWER=epc SHIM_SCSI_BMS=1 SHIM_LOG="$out/scsi-their.log" "${envs[@]}" "${preload[@]}" \
		"$@" /dev/null > /dev/null 2>&1
	grep -v '^cdb: 5a\|^cdb: 12\|^cdb: 85\|^cdb: a1' "$out/scsi-their.log" 2> /dev/null | tr '\n' ';'
}
if [ -z "${DOUBLE_COMPARE:-}" ]; then
	while IFS='|' read -r ours theirs; do
		# shellcheck disable=SC2086 # each side is words
		o=$(sent_by ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" -- "$H" $ours)
		# shellcheck disable=SC2086
		t=$(sent_by -- $theirs)
		if [ -n "$o" ] && [ "$o" = "$t" ]; then
			ok "$ours sends what $theirs sends"
		else
			bad "$ours sends what $theirs sends"
			echo "  ours:   $o"
			echo "  theirs: $t"
		fi
	done <<'PAIRS'
--epc-timer idle_b=30|sdparm --page=po --set=IBCT=300,IDLE_B=1
--epc-timer standby_z=1800|sdparm --page=po --set=SZCT=18000,STANDBY_Z=1
--epc-timer idle_a=0,save|sdparm --page=po --clear=IDLE_A --save
--background-scan off,save|sdparm --page=bc --clear=EN_BMS --save
--background-scan on|sdparm --page=bc --set=EN_BMS=1
--epc-goto idle_a|sg_start --pc=10 --mod=0
--epc-goto standby_y|sg_start --pc=11 --mod=1
--epc-goto standby_z|sg_start --pc=11 --mod=0
--erc 40|sdparm --page=rw --set=RTL=4000
--erc 655|sdparm --page=rw --set=RTL=65500
PAIRS
	# --erc reads the RECOVERY TIME LIMIT that sdparm --get=RTL reads (7000 ms).
	theirs=$(env SHIM_SCSI=1 "${preload[@]}" sdparm --page=rw --get=RTL /dev/null 2> /dev/null | awk '$1 == "RTL" { print $2 }')
	run -- --erc
	if [ "$rc" = 0 ] && [ "$theirs" = 7000 ] &&
		grep -qx ' error recovery limit:  7.0 s, reads and writes (Read-Write Error Recovery mode page (01h))' "$out/scsi-cmd.out"; then
		ok "--erc reads the limit sdparm --get=RTL reads ($theirs ms)"
	else
		bad "--erc reads the limit sdparm --get=RTL reads (sdparm: '$theirs' ms, exit $rc)"
		sed 's/^/  /' "$out/scsi-cmd.out" "$out/scsi-cmd.err" | head -4
	fi
	# sdparm -l: "IACT  20  [cha: y, def: 20, sav: 20]": current, changeable, default, saved of each
	# field; of the enable bits --epc shows the current value and whether it may change.
	theirs=$(env SHIM_SCSI=1 SHIM_SCSI_POWER=epc "${preload[@]}" sdparm --page=po -l /dev/null 2> /dev/null |
		awk '$1 ~ /^(IACT|IBCT|ICCT|SYCT|SZCT|IDLE_A|IDLE_B|IDLE_C|STANDBY_Y|STANDBY_Z)$/ {
			gsub(/[][,:]|cha|def|sav/, " "); if ($1 ~ /CT$/) print $1, $2, $3, $4, $5; else print $1, $2, $3 }' | sort)
	run SHIM_SCSI_POWER=epc -- --json --epc
	ours=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]["epc"]["conditions"]
names = {"idle_a": ("IDLE_A", "IACT"), "idle_b": ("IDLE_B", "IBCT"), "idle_c": ("IDLE_C", "ICCT"),
	"standby_y": ("STANDBY_Y", "SYCT"), "standby_z": ("STANDBY_Z", "SZCT")}
for c in d:
	bit, timer = names[c["name"]]
	if not c["supported"]:
		print(timer, 0, "n", 0, 0)
		print(bit, 0, "n")
		continue
	ch = "y" if c["changeable"] else "n"
	print(timer, *(round(c[k] * 10) for k in ("current_seconds",)), ch,
		*(round(c[k] * 10) for k in ("default_seconds", "saved_seconds")))
	print(bit, int(c["enabled"]), ch)' "$out/scsi-cmd.out" 2> /dev/null | sort)
	if [ "$rc" = 0 ] && [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
		ok "--epc reads each condition as sdparm --page=po -l does (current, changeable, default, saved)"
	else
		bad "--epc reads each condition as sdparm --page=po -l does (exit $rc)"
		echo "  ours:   $(echo "$ours" | tr '\n' ';')"
		echo "  theirs: $(echo "$theirs" | tr '\n' ';')"
	fi
fi

# Protection information (READ CAPACITY (16) byte 12 P_TYPE and PROT_EN, byte 13 P_I_EXPONENT): -I and
# --json -I against smartctl (text and JSON) and sg_readcap reading the same answer.
if [ -z "${DOUBLE_COMPARE:-}" ]; then
	for prot in 0:0 2:0 1:2 3:1; do
		t=${prot%:*} e=${prot#*:}
		smart=$(env SHIM_SCSI=1 SHIM_SCSI_PROT=$t SHIM_SCSI_PI_EXP=$e "${preload[@]}" smartctl -i -d scsi /dev/null 2> /dev/null |
			sed -n 's/^Formatted with type \([1-3]\) protection$/type \1/p; s/^\([0-9]*\) bytes of protection information per logical block$/\1 bytes/p' | tr '\n' ' ')
		readcap=$(env SHIM_SCSI=1 SHIM_SCSI_PROT=$t SHIM_SCSI_PI_EXP=$e "${preload[@]}" sg_readcap -l /dev/null 2> /dev/null |
			sed -n 's/.*prot_en=\([01]\), p_type=\([0-7]\), p_i_exponent=\([0-9]*\).*/\1 \2 \3/p')
		run SHIM_SCSI_PROT=$t SHIM_SCSI_PI_EXP=$e -- -I
		line=$(grep 'Protection information:' "$out/scsi-cmd.out")
		ours=$(printf '%s\n' "$line" | sed -n 's/.*information: type \([1-3]\), \([0-9]*\) bytes per logical block.*/type \1 \2 bytes /p')
		[ "$t" = 0 ] && want="	Protection information: none" || want=$line
		if [ "$rc" = 0 ] && [ "$ours" = "$smart" ] && [ "$line" = "$want" ] && [ "$readcap" = "$([ "$t" = 0 ] && echo 0 0 "$e" || echo 1 $((t - 1)) "$e")" ]; then
			ok "protection type $t, exponent $e: -I says what smartctl and sg_readcap read (${ours:-none})"
		else
			bad "protection type $t, exponent $e: -I says what smartctl and sg_readcap read"
			echo "  ours: $line; smartctl: $smart; sg_readcap: $readcap"
		fi
	done
	# smartctl's JSON keys; their intervals count is 1 whatever the exponent (its text says 4 for 2):
	# the type and the bytes are compared with it, the intervals with its text.
	run SHIM_SCSI_PROT=1 SHIM_SCSI_PI_EXP=2 -- --json -I
	theirs=$(env SHIM_SCSI=1 SHIM_SCSI_PROT=1 SHIM_SCSI_PI_EXP=2 "${preload[@]}" smartctl -j -i -d scsi /dev/null 2> /dev/null |
		python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["scsi_protection_type"], d["scsi_protection_interval_bytes_per_lb"])')
	intervals=$(env SHIM_SCSI=1 SHIM_SCSI_PROT=1 SHIM_SCSI_PI_EXP=2 "${preload[@]}" smartctl -i -d scsi /dev/null 2> /dev/null |
		sed -n 's/^\([0-9]*\) protection information intervals per logical block$/\1/p')
	ours=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["devices"][0]["identify"]
print(d["scsi_protection_type"], d["scsi_protection_interval_bytes_per_lb"], d["scsi_protection_intervals_per_lb"])' "$out/scsi-cmd.out" 2> /dev/null)
	if [ -n "$theirs" ] && [ "$ours" = "$theirs $intervals" ]; then
		ok "--json -I: scsi_protection_type and interval bytes as smartctl's JSON, intervals as its text ($ours)"
	else
		bad "--json -I: protection keys (ours: $ours; smartctl: $theirs, intervals $intervals)"
	fi
	run -- --json -I
	if ! grep -q scsi_protection "$out/scsi-cmd.out"; then
		ok "--json -I: no protection keys where the disk has none (as smartctl)"
	else
		bad "--json -I: no protection keys where the disk has none"
	fi
fi

# --- an ATA drive behind a USB bridge with a SAT layer (uas; the fake sysfs above, 152d:0578) ---
# -C asks REQUEST SENSE (03h, 32 bytes) first, which wakes nothing (SAT answers it without the drive
# spinning up); only where that reports no low power condition, CHECK POWER MODE (E5h).  Where an ATA
# command fails, the bridge is named with what works through it instead.
bridge_page="$top/tests/identify/pages/qemu-ahci-hdd.hex"
sense32='03 00 00 00 20 00'
cpm='85 06 20 00 00 00 00 00 00 00 00 00 00 00 e5 00'
bridge_run() {
	rm -f "$out/scsi-cmd.log"
	env SHIM_IDENTIFY="$bridge_page" SHIM_SYSFS="$out/sysfs-uas" SHIM_BLOCK_DEV=8:900000 SHIM_LOG="$out/scsi-cmd.log" "$@" \
		"${preload[@]}" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$H" "${bridge_args[@]}" /dev/null > "$out/scsi-cmd.out" 2> "$out/scsi-cmd.err"
	rc=$?
	touch "$out/scsi-cmd.log"
}
bridge_args=(-C)
bridge_run SHIM_SCSI_STATE=0x04
check "behind a bridge: -C in standby by REQUEST SENSE alone, no ATA command" 0 "$sense32" " drive state is:  standby" ""
bridge_run SHIM_SCSI_STATE=0x01
check "behind a bridge: -C idle (5Eh/01h) by REQUEST SENSE alone" 0 "$sense32" " drive state is:  idle" ""
bridge_run SHIM_COUNT=0xff
check "behind a bridge: REQUEST SENSE says nothing: then CHECK POWER MODE" 0 "$sense32;$cpm" " drive state is:  active/idle" ""
bridge_run SHIM_REPLY=abort
check "behind a bridge: CHECK POWER MODE refused: the bridge named, what works, the quirk" 5 "*" " drive state is:  unknown" \
	"/dev/null is behind the USB bridge 152d:0578 (uas), which did not pass CHECK POWER MODE: sdparm --command=sense /dev/null asks by REQUEST SENSE, which bridges answer; or boot with usb-storage.quirks=152d:0578:u"
bridge_args=(-S 120)
bridge_run SHIM_REPLY=abort
check "behind a bridge: -S refused: START STOP UNIT named instead" 5 "*" "" \
	"/dev/null is behind the USB bridge 152d:0578 (uas), which did not pass IDLE (the standby timer): sg_start --stop /dev/null stops the disk by START STOP UNIT, which bridges pass"
# Not behind a bridge: no REQUEST SENSE, no advice.
rm -f "$out/scsi-cmd.log"
env SHIM_IDENTIFY="$bridge_page" SHIM_REPLY=abort SHIM_LOG="$out/scsi-cmd.log" "${preload[@]}" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$H" -C /dev/null > "$out/scsi-cmd.out" 2> "$out/scsi-cmd.err"
rc=$?
if ! grep -q '^cdb: 03 ' "$out/scsi-cmd.log" && ! grep -q 'USB bridge' "$out/scsi-cmd.err"; then
	ok "not behind a bridge: -C sends no REQUEST SENSE, names no bridge"
else
	bad "not behind a bridge: -C sends no REQUEST SENSE, names no bridge"
fi

# --- a SAT bridge that returns no registers (it ignores CK_COND) ---
page="$top/tests/identify/pages/qemu-ahci-hdd.hex"
rm -f "$out/scsi-cmd.log"
env SHIM_REPLY=noregs SHIM_IDENTIFY="$page" SHIM_LOG="$out/scsi-cmd.log" "${preload[@]}" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	"$H" -C /dev/null > "$out/scsi-cmd.out" 2> "$out/scsi-cmd.err"
rc=$?
check "bridge without registers: -C says unknown, not standby" 5 "85 06 20 00 00 00 00 00 00 00 00 00 00 00 e5 00" \
	" drive state is:  unknown" "the bridge returned no registers"
# --fwdownload's WRITE BUFFER against sg_write_buffer's (sg3-utils) for the same mode and piece
# size: one script of the scripted double (tests/tools/script-double.c) holds the CDBs (mode 0Eh in
# pieces of 4 KiB, then mode 0Fh) and each piece's first 32 bytes of data, and both programs must
# send exactly it; hdparm's own reads (its probe, INQUIRY, READ BUFFER's descriptor) before and
# after are in its script alone.
# shellcheck source=tests/tools/oracle.sh
. "$top/tests/tools/oracle.sh"
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle scsi sg_write_buffer sg3-utils; then
	sd="$out/script-double-fw.so"
	if ${CC:-cc} -shared -fPIC -O2 -o "$sd" "$top/tests/tools/script-double.c" -ldl; then
		head -c 8192 /dev/urandom > "$out/fw-scsi.bin"
		first() { od -An -tx1 -v -j "$1" -N 32 "$out/fw-scsi.bin" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }
		wb="sg 3b 0e 00 00 00 00 00 10 00 00 out $(first 0)
sg 3b 0e 00 00 10 00 00 10 00 00 out $(first 4096)"
		inquiry="sg 12 00 00 00 60 00 -> data @$top/tests/ops/data/scsi-inquiry-e004.hex
sg 3c 03 00 00 00 00 00 00 04 00 -> data 09 00 10 00"
		probe="sg 85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00 -> sense 70 00 05 00 00 00 00 0a 00 00 00 00 20 00 00 00 00 00
sg a1 08 0e 00 01 00 00 00 00 ec 00 00 -> sense 70 00 05 00 00 00 00 0a 00 00 00 00 20 00 00 00 00 00"
		printf 'node scsi\n%s\n' "$wb" > "$out/fw-theirs.script"
		printf 'node scsi\nsg 3b 0f 00 00 00 00 00 00 00 00\n' > "$out/fw-theirs-activate.script"
		printf 'node scsi\n%s\n%s\n%s\nsg 3b 0f 00 00 00 00 00 00 00 00\n%s\n' "$probe" "$inquiry" "$wb" "$inquiry" > "$out/fw-ours.script"
		rm -f "$out/fw-theirs.report" "$out/fw-ours.report"
		env DOUBLE_SCRIPT="$out/fw-theirs.script" DOUBLE_REPORT="$out/fw-theirs.report" LD_PRELOAD="$sd" \
			sg_write_buffer --mode=0xe --bpw=4096 --in="$out/fw-scsi.bin" /dev/null > /dev/null 2>&1
		env DOUBLE_SCRIPT="$out/fw-theirs-activate.script" DOUBLE_REPORT="$out/fw-theirs.report" LD_PRELOAD="$sd" \
			sg_write_buffer --mode=0xf /dev/null > /dev/null 2>&1
		env DOUBLE_SCRIPT="$out/fw-ours.script" DOUBLE_REPORT="$out/fw-ours.report" "${preload[@]/$shim/$sd}" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
			"$H" --yes-i-know-what-i-am-doing --please-destroy-my-drive --fwdownload "$out/fw-scsi.bin" --fw-activate-now \
			/dev/null > "$out/fw-ours.out" 2>&1
		rc=$?
		if [ ! -s "$out/fw-theirs.report" ] && [ ! -s "$out/fw-ours.report" ] && [ "$rc" = 5 ]; then
			ok "--fwdownload --fw-activate-now: WRITE BUFFER 0Eh in pieces of 4 KiB, then 0Fh, as sg_write_buffer --mode=0xe --bpw=4096 then --mode=0xf"
		else
			bad "--fwdownload --fw-activate-now: WRITE BUFFER 0Eh in pieces of 4 KiB, then 0Fh, as sg_write_buffer --mode=0xe --bpw=4096 then --mode=0xf (exit $rc)" \
				"sg_write_buffer: $(tr '\n' '|' < "$out/fw-theirs.report" 2> /dev/null)" "ours: $(tr '\n' '|' < "$out/fw-ours.report" 2> /dev/null)"
		fi
	else
		bad "build tests/tools/script-double.c"
	fi
fi
# --power-on-hours (its own cases: tests/ops/power_on.cases): sg_logs (sg3-utils) reads the same
# Background Scan Results page from the scripted double and finds the same accumulated power on
# minutes, 77198, which it shows as 1286:38.
if [ -z "${DOUBLE_COMPARE:-}" ] && oracle scsi sg_logs sg3-utils; then
	sd="$out/script-double-pon.so"
	if ${CC:-cc} -shared -fPIC -O2 -o "$sd" "$top/tests/tools/script-double.c" -ldl; then
		page="data @$top/tests/ops/data/scsi-background-scan.hex"
		# hdparm: the two ATA PASS-THROUGH IDENTIFYs a SCSI disk refuses (so it is SCSI), REQUEST SENSE (active).
		not_ata="sg 85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00 -> sense 70 00 05 00 00 00 00 0a 00 00 00 00 20 00 00 00 00 00
sg a1 08 0e 00 01 00 00 00 00 ec 00 00 -> sense 70 00 05 00 00 00 00 0a 00 00 00 00 20 00 00 00 00 00"
		# sg_logs: INQUIRY, then LOG SENSE of page 15h (its allocation lengths are its own).
		printf 'node scsi\nsg 12 00 00 00 24 00 -> data @%s\nsg 4d 00 55 00 00 00 00 .. .. 00 -> %s\nsg 4d 00 55 00 00 00 00 .. .. 00 -> %s\n' \
			"$top/tests/ops/data/scsi-inquiry-e004.hex" "$page" "$page" > "$out/pon-theirs.script"
		printf 'node scsi\n%s\nsg 03 00 00 00 20 00 -> data 70 00 00 00 00 00 00 0a\nsg 4d 00 55 00 00 00 00 00 40 00 -> %s\n' \
			"$not_ata" "$page" > "$out/pon-ours.script"
		theirs=$(env DOUBLE_SCRIPT="$out/pon-theirs.script" LD_PRELOAD="$sd" sg_logs -p 0x15 /dev/null 2> /dev/null |
			sed -n 's/^ *Accumulated power on minutes: *[0-9]* *\[h:m *\([0-9]*\):\([0-9]*\)\]$/\1 \2/p')
		rm -f "$out/pon-ours.report"
		env DOUBLE_SCRIPT="$out/pon-ours.script" DOUBLE_REPORT="$out/pon-ours.report" "${preload[@]/$shim/$sd}" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$H" --power-on-hours /dev/null > "$out/pon-ours.out" 2>&1
		rc=$?
		ours=$(sed -n 's/^ power-on hours:  //p; s/^ and minutes:  *//p' "$out/pon-ours.out" | tr '\n' ' ')
		if [ "$rc" = 0 ] && [ ! -s "$out/pon-ours.report" ] && [ "$theirs" = "1286 38" ] && [ "$ours" = "1286 38 " ]; then
			ok "--power-on-hours: the Background Scan Results page's power on minutes, as sg_logs -p 0x15 reads them (1286:38)"
		else
			bad "--power-on-hours: the Background Scan Results page's power on minutes, as sg_logs -p 0x15 reads them (exit $rc)" \
				"ours: '$ours', sg_logs: '$theirs'" "$(tr '\n' '|' < "$out/pon-ours.report" 2> /dev/null)"
		fi
	else
		bad "build tests/tools/script-double.c"
	fi
fi
echo "end of suite"
