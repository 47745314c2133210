# Cases tables (tests/scsi-, nvme- and epc-commands.txt): sourced by the
# script that runs one, which sets case_prefix (its name in the ok/FAIL
# lines) and case_files (where run writes FILES.out, .err and .log), and
# defines run ENV... -- ARGS..., which leaves the exit status in rc.
#
# set NAME = VALUE      a named piece, written {NAME} in what follows ({out}: the output folder,
#                       {top}: the checkout)
# NAME | ENV | ARGS | EXIT | LOG | STDOUT | STDERR     a case; "-": nothing (ENV, LOG: nothing sent)
#                       or not checked (STDOUT, STDERR); LOG "*": not checked

declare -A piece=([out]="$out" [top]="$top")

# check NAME EXIT LOG STDOUT STDERR: the last run; LOG is its whole log, "cdb: " left off and the
# lines joined by ';' ("*": not checked); STDOUT, STDERR: texts each must contain ("": not checked).
check() {
	local name=$1 want_rc=$2 want_log=$3 out_text=$4 err_text=$5 got
	got=$(sed 's/^cdb: //' "$case_files.log" | tr '\n' ';' | sed 's/;$//')
	if [ "$rc" = "$want_rc" ] && { [ "$want_log" = "*" ] || [ "$got" = "$want_log" ]; } &&
		{ [ -z "$out_text" ] || grep -qF -- "$out_text" "$case_files.out"; } &&
		{ [ -z "$err_text" ] || grep -qF -- "$err_text" "$case_files.err"; }; then
		echo "ok $case_prefix: $name"
	else
		echo "FAIL $case_prefix: $name (exit $rc, wanted $want_rc)"
		echo "  got:    $got"
		[ "$want_log" = "*" ] || echo "  wanted: $want_log"
		sed 's/^/  stdout: /' "$case_files.out" | head -12
		sed 's/^/  stderr: /' "$case_files.err" | head -5
	fi
}

expand() {
	local text=$1 key
	for key in "${!piece[@]}"; do text=${text//\{$key\}/${piece[$key]}}; done
	printf '%s' "$text"
}

trim() {
	local t=$1
	t=${t#"${t%%[! ]*}"}
	t=${t%"${t##*[! ]}"}
	printf '%s' "$t"
}

# run_cases TABLE PREFIX: every row of TABLE; a row without its seven fields fails.
run_cases() {
	local line name envs args want_rc log want_out want_err
	while IFS= read -r line; do
		case "$line" in
		'#'* | '') continue ;;
		'set '*)
			line=${line#set }
			piece[${line%% = *}]=$(expand "${line#* = }")
			continue
			;;
		esac
		IFS='|' read -r name envs args want_rc log want_out want_err <<< "$line"
		name=$(trim "$name") envs=$(expand "$(trim "$envs")") args=$(expand "$(trim "$args")")
		want_rc=$(trim "$want_rc") log=$(expand "$(trim "$log")")
		want_out=$(trim "$want_out") want_err=$(trim "$want_err")
		if [ -z "$name" ] || [ -z "$envs" ] || [ -z "$args" ] || [ -z "$want_rc" ] || [ -z "$log" ] ||
			[ -z "$want_out" ] || [ -z "$want_err" ]; then
			echo "FAIL $2: a row without its seven fields: $line"
			continue
		fi
		[ "$envs" = - ] && envs=
		[ "$log" = - ] && log=
		[ "$want_out" = - ] && want_out=
		[ "$want_err" = - ] && want_err=
		# shellcheck disable=SC2086
		run $envs -- $args
		check "$name" "$want_rc" "$log" "$want_out" "$want_err"
	done < "$1"
}
