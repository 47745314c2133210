#!/bin/bash
# The folders are layers: a file includes headers of its own folder or of
# a folder below it, never above, and the kinds of disk (ata, nvme, scsi)
# never include each other.  Prints each include that breaks this; exit 1
# if there is one.  (make lint runs it.)
cd "$(dirname "$0")/.." || exit 1
# Rank, top to bottom; the three kinds share theirs, and TCG's decoder (bytes in, structs out) sits with the transports.
# The operations' families (ops/any_disk, ops/ata, ops/block, ops/erase) are one layer with the
# helpers they share in ops/.
declare -A rank=([cli]=11 [run]=10 [ops]=9 [ops/any_disk]=9 [ops/ata]=9 [ops/block]=9 [ops/erase]=9
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
exit $bad
