#!/bin/bash
# Builds the fuzz targets with clang (libFuzzer, ASan, UBSan) and runs each
# for SECONDS seconds (default 60), or, with --replay, only runs the seed
# corpus and the regression inputs once.  Exit status non-zero on a finding.
#   tests/fuzz/run.sh [SECONDS | --replay]
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin="$here/bin"
CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null; then
	echo "skip fuzz: no clang (tests/setup installs it)"
	[ "${1:-}" = "--replay" ] && echo "end of suite"
	exit 77
fi
mkdir -p "$bin"
# The source folders, as the Makefile lists them.
incs=()
for d in $(sed -n 's/^DIRS = //p' "$top/Makefile"); do incs+=(-I"$top/$d"); done
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -std=gnu11 -D_GNU_SOURCE "${incs[@]}")
export ASAN_OPTIONS=exitcode=223:detect_leaks=1 UBSAN_OPTIONS=exitcode=223:print_stacktrace=1

build() { # NAME SOURCES... [-DFLAGS]
	local name=$1
	shift
	"$CLANG" "${flags[@]}" -o "$bin/$name" "$@" 2> "$bin/$name.build.log" ||
		{ echo "FAIL fuzz build $name"; sed 's/^/  /' "$bin/$name.build.log" | head -n 20; return 1; }
}
build fuzz_identify "$here/fuzz_identify.c" "$top/ata/identify_decode.c" "$top/ata/identify_text.c" "$top/ata/identify_brief.c" "$top/ata/identify_json.c" "$top/ata/identify_hex.c" "$top/output/json.c" "$top/ata/sat.c" "$top/ata/ata_commands.c" "$top/transport/sg.c" "$top/transport/sense.c" "$top/output/report.c" || exit 1
build fuzz_sense "$here/fuzz_sense.c" "$top/ata/sat.c" "$top/ata/ata_commands.c" "$top/transport/sg.c" "$top/transport/sense.c" "$top/output/report.c" "$top/output/json.c" || exit 1
build fuzz_nvme "$here/fuzz_nvme.c" "$top/nvme/nvme_identify.c" "$top/nvme/nvme_health.c" "$top/output/json.c" "$top/output/report.c" || exit 1
build fuzz_json "$here/fuzz_json.c" "$top/output/json.c" "$top/ata/identify_decode.c" "$top/ata/identify_text.c" "$top/ata/identify_brief.c" "$top/ata/identify_json.c" "$top/ata/identify_hex.c" "$top/ata/sat.c" "$top/ata/ata_commands.c" "$top/transport/sg.c" "$top/transport/sense.c" "$top/output/report.c" || exit 1
build fuzz_scsi "$here/fuzz_scsi.c" "$top/scsi/scsi_pages.c" "$top/transport/sense.c" "$top/output/report.c" "$top/output/json.c" || exit 1
build fuzz_tcg "$here/fuzz_tcg.c" "$top/tcg/tcg_discovery.c" "$top/tcg/tcg_session.c" "$top/tcg/tcg_methods.c" || exit 1
build fuzz_prom "$here/fuzz_prom.c" "$top/output/prom.c" || exit 1
build fuzz_records "$here/fuzz_records.c" "$top/ata/smart_table.c" "$top/nvme/nvme_health.c" || exit 1
build fuzz_tunnel "$here/fuzz_tunnel.c" "$top/transport/nvme_tunnel_wire.c" || exit 1
build fuzz_smart_logs "$here/fuzz_smart_logs.c" "$top/ata/smart_logs.c" || exit 1
build fuzz_scanmap "$here/fuzz_scanmap.c" "$top/ops/scan/scan_map_format.c" "$top/ops/scan/scan_classes.c" || exit 1
build fuzz_text "$here/fuzz_text.c" "$top/ops/block/ranges.c" "$top/block/sysfs.c" "$top/block/wake_trace.c" "$top/output/report.c" "$top/output/json.c" || exit 1
# The option table names each option's steps, so the command-line targets link every operation and what
# lies below it: compiled once into an archive (the runner's other files are the targets' stubs).
objs=()
rm -rf "$bin/obj" && mkdir -p "$bin/obj"
for d in $(sed -n 's/^DIRS = //p' "$top/Makefile"); do
	case $d in cli | run) continue ;; esac
	for f in "$top/$d"/*.c; do [ -e "$f" ] && objs+=("$f"); done
done
objs+=("$top/run/options.c")
printf '%s\n' "${objs[@]}" | xargs -P "$(nproc)" -I{} bash -c \
	'o="$1/obj/$(echo "${2#"$3"/}" | tr / _).o"; "$4" "${@:5}" -c -o "$o" "$2"' bash "$bin" {} "$top" "$CLANG" \
	"${flags[@]/-fsanitize=fuzzer,/-fsanitize=fuzzer-no-link,}" 2> "$bin/lib.build.log" ||
	{ echo "FAIL fuzz build of the archive"; head -n 20 "$bin/lib.build.log" | sed 's/^/  /'; exit 1; }
rm -f "$bin/libhdparm.a"
ar rcs "$bin/libhdparm.a" "$bin"/obj/*.o
common=("$top/cli/option_values.c" "$top/cli/psid.c" "$top/cli/std_streams.c" "$top/cli/config_file.c" "$top/cli/config_keys.c" "$top/cli/config_jobs.c" "$bin/libhdparm.a")
build fuzz_cmdline "$here/fuzz_cmdline.c" -Dmain=hdparm_main "$top/cli/hdparm.c" "${common[@]}" || exit 1
build fuzz_config "$here/fuzz_config.c" "${common[@]}" || exit 1
build fuzz_trim -DTRIM_ONLY "$here/fuzz_cmdline.c" -Dmain=hdparm_main "$top/cli/hdparm.c" "${common[@]}" || exit 1

status=0
for t in identify sense nvme json cmdline trim scsi tcg text config prom records scanmap smart_logs tunnel; do
	corpus="$here/corpus/$t"
	regress="$here/regressions/$t"
	mkdir -p "$regress"
	if [ "${1:-}" = "--replay" ]; then
		if "$bin/fuzz_$t" -runs=0 "$corpus" "$regress" > "$bin/$t.log" 2>&1; then
			echo "ok fuzz replay $t"
		else
			echo "FAIL fuzz replay $t"; tail -n 20 "$bin/$t.log" | sed 's/^/  /'; status=1
		fi
		continue
	fi
	work=$(mktemp -d)
	cp "$corpus"/* "$work"/ 2>/dev/null
	quiet=()
	case $t in cmdline | trim | text | config) quiet=(-close_fd_mask=2) ;; esac	# the parsers' complaints
	if "$bin/fuzz_$t" "${quiet[@]}" -max_total_time="${1:-60}" -max_len=8192 -artifact_prefix="$regress/" "$work" > "$bin/$t.log" 2>&1; then
		echo "ok fuzz $t ($(grep -oE 'stat::number_of_executed_units: [0-9]+' "$bin/$t.log" | grep -oE '[0-9]+' || grep -oE '#[0-9]+' "$bin/$t.log" | tail -n 1) runs)"
	else
		echo "FAIL fuzz $t: a finding is saved in tests/fuzz/regressions/$t"; tail -n 30 "$bin/$t.log" | sed 's/^/  /'; status=1
	fi
	rm -rf "$work"
done
[ "${1:-}" = "--replay" ] && echo "end of suite"
exit $status
