#!/bin/bash
# The surface scans of tests/vm/scan-checks.sh, checked on the host: WORK is tests/vm/run's folder
# (results.log, the chosen LBAs in root/scan-*.lbas, QEMU's trace of reads in trace.log).
# The oracle of the unreadable LBAs is the choice itself (blkdebug's and scsi_debug's); of the reads
# each bad sector cost, the reads the emulated disk saw (QEMU's blk_co_preadv trace) and the
# commands sd sent (the guest kernel's scsi trace).  Prints ok/FAIL lines.
work=${1:?usage: scan-host-checks.sh WORK}
exec python3 - "$work" <<'PY'
import json, re, sys
work = sys.argv[1]
log = open(work + "/results.log", errors="replace").read()
scans, counts = {}, {}
for m in re.finditer(r"^VM-SCAN-BEGIN (\S+) (\d+)\n(.*?)^VM-SCAN-END$", log, re.M | re.S):
    try:
        doc = json.loads(m.group(3))
        scans[m.group(1)] = (int(m.group(2)), doc["devices"][0]["surface_scan"])
    except (ValueError, KeyError, IndexError) as e:
        scans[m.group(1)] = (int(m.group(2)), None)
for m in re.finditer(r"^VM-SCAN-COUNT (\S+) (\d+) (\d+)$", log, re.M):
    counts[(m.group(1), int(m.group(2)))] = int(m.group(3))

def lbas(name):
    return [int(x) for x in open("%s/root/scan-%s.lbas" % (work, name)).read().split()]

def check(name, ok, detail=""):
    print("%s scan %s" % ("ok" if ok else "FAIL", name))
    if not ok and detail:
        print("  " + detail)

def blocks_of(bad, first):
    return sorted({(b - first) // 256 for b in bad})

# One scan: the exit status, the range, every block read, the histogram adding up, the unreadable
# LBAs exactly those chosen, the blocks that hold them counted unreadable, and the slow regions.
def scan(name, rc, first, last, bad, slow=()):
    got = scans.get(name)
    if got is None or got[1] is None:
        check(name + ": a JSON document", False, "none in results.log")
        return
    grc, s = got
    blocks = (last - first) // 256 + 1
    check("%s: exit %d" % (name, rc), grc == rc, "exit %d" % grc)
    want = {"first_lba": first, "last_lba": last, "logical_sector_bytes": 512, "block_sectors": 256,
            "blocks": blocks, "blocks_read": blocks, "completed": True}
    diff = {k: s.get(k) for k in want if s.get(k) != want[k]}
    check("%s: range %d-%d, %d blocks, all read" % (name, first, last, blocks), not diff, "got %s" % diff)
    check("%s: histogram adds up to blocks_read" % name, sum(s["histogram"].values()) == s["blocks_read"],
          str(s["histogram"]))
    check("%s: unreadable LBAs exactly %s" % (name, bad), s["unreadable_lbas"] == bad, "got %s" % s["unreadable_lbas"])
    nb = len(blocks_of(bad, first))
    check("%s: %d unreadable blocks" % (name, nb), s["histogram"]["unreadable"] == nb, str(s["histogram"]))
    regions = [(r["first_lba"], r["last_lba"]) for r in s["slow_regions"]]
    check("%s: slow regions %s" % (name, list(slow)), regions == [(a, b) for a, b, _ in slow], "got %s" % s["slow_regions"])
    for (a, b, ms), r in zip(slow, s["slow_regions"]):
        check("%s: slow region %d-%d at least %d ms" % (name, a, b, ms), r["worst_ms"] >= ms, "worst %s" % r["worst_ms"])

scan("ahci", 5, 139776, 150271, lbas("ahci"))
scan("nvme", 5, 139776, 163839, lbas("nvme"))
scan("sd", 5, 0, 8191, list(range(3000, 3005)))
# LBA 50000 of /dev/sdc, 80 of the volume that starts at its LBA 49920.
scan("volume", 5, 0, 511, [80])
# Delayed LBA 2100-2999: the blocks 2048-2303 to 2816-3071 hold them.
scan("delay", 0, 0, 4095, [], [(2048, 3071, 300)])

# The reads the emulated disks saw (QEMU's trace: blk_co_preadv, one line a read of the backend):
# each bad sector is read once by the search (the kernel's retries: NVMe's 5 of an error without
# DNR, sd's 5 of libata's aborted command, are not sent again); the failing block's reads are the figure.
reads = {}
try:
    for line in open(work + "/trace.log", errors="replace"):
        f = line.split()
        if len(f) >= 9 and f[0] == "blk_co_preadv":
            key = (f[2], int(f[6]), int(f[8]))
            reads[key] = reads.get(key, 0) + 1
except OSError:
    pass
for name, first in (("ahci", 139776), ("nvme", 139776)):
    bad = lbas(name)
    blks = {k[0] for k in reads if k[1] == bad[0] * 512 and k[2] == 512}
    if len(blks) != 1:
        check("%s: the disk's reads in QEMU's trace" % name, False, "backends reading LBA %d: %s" % (bad[0], blks))
        continue
    blk = blks.pop()
    for b in bad:
        n = reads.get((blk, b * 512, 512), 0)
        block = first + (b - first) // 256 * 256
        nblock = reads.get((blk, block * 512, 256 * 512), 0)
        check("%s: LBA %d read once by the search (the disk saw %d one-sector reads; of its block %d-%d, %d reads)"
              % (name, b, n, block, block + 255, nblock), n == 1, "%d one-sector reads of LBA %d" % (n, b))
for lba in range(3000, 3005):
    n = counts.get(("sd", lba), -1)
    check("sd: LBA %d read once by the search (%d commands)" % (lba, n), n == 1, "%d commands for LBA %d" % (n, lba))
PY
