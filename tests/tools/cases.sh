# Cases tables (tests/scsi-commands.txt, tests/nvme-commands.txt): sourced by the
# script that runs one, which defines run ENV... -- ARGS... and
# check NAME EXIT LOG STDOUT STDERR (LOG "*": not checked).
#
# set NAME = VALUE      a named piece, written {NAME} in what follows ({out}: the output folder,
#                       {top}: the checkout)
# NAME | ENV | ARGS | EXIT | LOG | STDOUT | STDERR     a case; "-": nothing (ENV, LOG: nothing sent)
#                       or not checked (STDOUT, STDERR); LOG "*": not checked

declare -A piece=([out]="$out" [top]="$top")

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
