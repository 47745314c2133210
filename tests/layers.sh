#!/bin/bash
# The folders are layers: a file includes headers of its own folder or of
# a folder below it, never above, and the kinds of disk (ata, nvme, scsi)
# never include each other.  Prints each include that breaks this; exit 1
# if there is one.  (make lint runs it.)
cd "$(dirname "$0")/.." || exit 1
# Rank, top to bottom; the three kinds share theirs, and TCG's decoder (bytes in, structs out) sits with the transports.
# The operations' families (ops/any_disk, ops/ata, ops/block, ops/erase, ops/scan) are one layer with the
# helpers they share in ops/.
declare -A rank=([cli]=11 [run]=10 [ops]=9 [ops/any_disk]=9 [ops/ata]=9 [ops/block]=9 [ops/erase]=9 [ops/scan]=9
	[options]=8 [ata]=7 [nvme]=7 [scsi]=7 [transport]=6 [tcg]=6 [disk]=5 [block]=4 [output]=3 [lib]=2)
declare -A home
for d in "${!rank[@]}"; do
	for f in "$d"/*.[ch]; do
		[ -e "$f" ] && home[$(basename "$f")]=$d
	done
done
bad=0
for d in "${!rank[@]}"; do
	for f in "$d"/*.[ch]; do
		[ -e "$f" ] || continue
		while read -r h; do
			to=${home[$h]:-}
			[ -n "$to" ] || { echo "layers: $f includes \"$h\", which no folder holds"; bad=1; continue; }
			[ "${to%%/*}" = "${d%%/*}" ] && continue
			if [ "${rank[$to]}" -ge "${rank[$d]}" ]; then
				echo "layers: $f ($d) includes $to/$h: not below it"
				bad=1
			fi
		done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
	done
done
# The operations of every disk, and the helpers they share, ask a kind for a function or a fact, never
# which kind it is (disk_ops.h).
while IFS= read -r hit; do
	echo "layers: $hit: an operation of every disk asks which kind the disk is (ask for a function, or move it to ops/ata)"
	bad=1
done < <(grep -nE 'disk->(ata|scsi)\b|->(ata_state|nvme_node)\b' ops/*.c ops/any_disk/*.c ops/erase/*.c)
# A global function carries its file's name; one that shares its name with a static function of
# another file is taken for it by whoever reads a call (and by tools that draw who calls whom: a
# global draw() in run/ made output/ and ops/ seem to call run/).  Each function declared or
# defined at the top of a file, from a line at column 0 with NAME( in it, is "FILE static|global NAME".
functions() {
	awk '
	FNR == 1 { want = 0; prev = "" }
	want { decl = decl " " $0; if (depth(decl) == 0) finish(); next }
	/^[A-Za-z_]/ && !/^(typedef|extern|#)/ && /^[^=]*[A-Za-z_0-9]+\(/ {
		decl = $0
		if (depth(decl) == 0) finish(); else want = 1
		next
	}
	{ prev = $0 }
	function depth(s,   t) { t = s; return gsub(/\(/, "(", t) - gsub(/\)/, ")", t) }
	function finish(   head, n, w, kind) {
		want = 0
		head = decl
		sub(/\(.*/, "", head)
		n = split(head, w, /[ \t*]+/)
		if (n == 1 && prev !~ /^[A-Za-z_]/)
			return
		kind = (head ~ /^static/ || (n == 1 && prev ~ /^static/)) ? "static" : "global"
		# A global prototype in a .c file is not a definition; a static one still names a static.
		if (kind == "global" && decl ~ /\)[ \t]*;[ \t]*$/)
			return
		print FILENAME, kind, w[n]
	}' "$@"
}
srcs=()
for d in "${!rank[@]}"; do
	# Headers too: their static inline functions.
	for f in "$d"/*.[ch]; do [ -e "$f" ] && srcs+=("$f"); done
done
while read -r file name other; do
	echo "layers: $file defines a global $name(), a static function's name in $other: name it after its file"
	bad=1
done < <(functions "${srcs[@]}" | awk '
	$2 == "global" { global[$3] = $1 }
	$2 == "static" { static[$3] = static[$3] " " $1 }
	END { for (n in global) if (n in static) print global[n], n, static[n] }' | sort)
exit $bad
