#!/usr/bin/env python3
"""The ATA test drives of tests/condition-ata-tests.sh, built by the standard's layouts
(ACS-3: IDENTIFY, SMART READ DATA, the log directory, Device Statistics, the SMART
self-test and error logs; Seagate's FARM as smartmontools 7.5's farmcmds.h lays it out).
Their figures are checked by smartctl reading the same pages through the test double,
not by this script.  Usage: make-ata-pages.py OUTDIR   (one folder a drive)."""
import os, struct, sys

base_identify = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "identify", "real",
                             "WDC_WD5000AAKS--00TMA0-12.01C01.hex")

def words_of(path):
    return [int(w, 16) for w in open(path).read().split()][:256]

def identify(model, sectors):
    w = words_of(base_identify)
    m = model.ljust(40)[:40].encode()
    for i in range(20):
        w[27 + i] = m[2 * i] << 8 | m[2 * i + 1]
    w[82] |= 0x0001                     # SMART feature set supported
    w[85] |= 0x0001                     # ... and enabled
    w[83] = (w[83] & 0x3fff) | 0x4000 | 0x0400   # 48-bit addressing
    w[86] |= 0x0400
    w[84] = (w[84] & 0x3fff) | 0x4000 | 0x0023   # SMART error logging, self-test, GPL
    w[87] = (w[87] & 0x3fff) | 0x4000 | 0x0023
    w[60], w[61] = min(sectors, 0x0fffffff) & 0xffff, min(sectors, 0x0fffffff) >> 16
    for i in range(4):
        w[100 + i] = (sectors >> (16 * i)) & 0xffff
    w[106] = 0x4000                     # 512-byte logical sectors
    if (w[255] & 0xff) == 0xa5:         # the checksum of the integrity word
        s = sum(x & 0xff for x in w[:255]) + sum(x >> 8 for x in w[:255]) + 0xa5
        w[255] = ((-s) & 0xff) << 8 | 0xa5
    return "".join("%04x%s" % (x, "\n" if i % 8 == 7 else " ") for i, x in enumerate(w))

def hexdump(b):
    return "".join("%02x%s" % (x, "\n" if i % 16 == 15 else " ") for i, x in enumerate(b))

def checksum(b):
    b[511] = (-sum(b[:511])) & 0xff
    return b

def smart_data(attrs, selftest_status=0):
    """attrs: (id, flags, value, worst, raw)."""
    b = bytearray(512)
    struct.pack_into("<H", b, 0, 0x0010)
    for i, (aid, flags, value, worst, raw) in enumerate(attrs):
        struct.pack_into("<BHBB", b, 2 + 12 * i, aid, flags, value, worst)
        b[2 + 12 * i + 5:2 + 12 * i + 11] = raw.to_bytes(6, "little")
    b[362] = 0x82                       # off-line data collection: completed
    b[363] = selftest_status
    struct.pack_into("<H", b, 364, 600)
    b[367] = 0x7b                       # off-line immediate, self-test, conveyance, selective
    struct.pack_into("<H", b, 368, 0x0003)
    b[370] = 0x01                       # error logging
    b[372], b[373], b[374] = 2, 0xff, 5  # short 2 min; extended in 375-376
    struct.pack_into("<H", b, 375, 500)
    return checksum(b)

def thresholds(attrs):
    b = bytearray(512)
    struct.pack_into("<H", b, 0, 0x0010)
    for i, (aid, _f, _v, _w, _r) in enumerate(attrs):
        b[2 + 12 * i], b[2 + 12 * i + 1] = aid, {5: 36, 197: 0, 1: 6}.get(aid, 0)
    return checksum(b)

def directory(pages):
    b = bytearray(512)
    struct.pack_into("<H", b, 0, 1)
    for log, n in pages.items():
        struct.pack_into("<H", b, 2 * log, n)
    return b

def devstat(hours, written, used):
    """Page 0 (the list), 1 (General Statistics), 7 (Solid State where used is not None)."""
    pages = [bytearray(512) for _ in range(8)]
    listed = [0, 1] + ([7] if used is not None else [])
    for n, p in enumerate(pages):
        struct.pack_into("<HBB", p, 0, 1, n, 0)
    pages[0][8] = len(listed)
    pages[0][9:9 + len(listed)] = bytes(listed)
    flags = 0xc0 << 56
    struct.pack_into("<Q", pages[1], 8, flags | 321)        # Lifetime Power-On Resets
    if hours is not None:
        struct.pack_into("<Q", pages[1], 16, flags | hours)
    struct.pack_into("<Q", pages[1], 24, flags | written)
    if used is not None:
        struct.pack_into("<Q", pages[7], 8, flags | used)
    return b"".join(pages[:8 if used is not None else 2])

def selftest06(entries):
    """entries oldest first: (subcommand, status byte, hour, lba)."""
    b = bytearray(512)
    struct.pack_into("<H", b, 0, 1)
    for i, (sub, st, hour, lba) in enumerate(entries):
        struct.pack_into("<BBHBI", b, 2 + 24 * i, sub, st, hour, 0, min(lba, 0xffffffff))
    b[508] = len(entries)
    return checksum(b)

def selftest07(entries):
    b = bytearray(512)
    b[0] = 1
    struct.pack_into("<H", b, 2, len(entries))
    for i, (sub, st, hour, lba) in enumerate(entries):
        o = 4 + 26 * i
        struct.pack_into("<BBHB", b, o, sub, st, hour, 0)
        b[o + 5:o + 11] = lba.to_bytes(6, "little")
    return checksum(b)

def error01(count):
    """The newest error (an uncorrectable read: error 40h, status 51h) in entry 1, at hour 35000."""
    b = bytearray(512)
    b[0] = 1
    if count:
        b[1] = 1
        e = 2 + 60                              # the entry's error structure, after 5 commands
        b[e + 1], b[e + 7] = 0x40, 0x51
        struct.pack_into("<H", b, e + 28, 35000)
        b[2 + 48 + 7] = 0x25                    # its last command: READ DMA EXT
    struct.pack_into("<H", b, 452, count)
    return checksum(b)

def error03(count):
    b = bytearray(512)
    b[0] = 1
    if count:
        struct.pack_into("<H", b, 2, 1)
        e = 4 + 5 * 18                          # the error structure, after 5 commands of 18 bytes
        b[e + 2], b[e + 13] = 0x40, 0x51
        struct.pack_into("<H", b, e + 32, 35000)
        b[4 + 4 * 18 + 15] = 0x25
    struct.pack_into("<H", b, 500, count)
    return checksum(b)

def farm(hours, sectors_per_page, signature=0x00004641524D4552):
    v = lambda x: struct.pack("<Q", (0xc0 << 56) | x)
    log = bytearray(512 * sectors_per_page * 2)
    head = v(signature) + v(4) + v(21) + v(5) + v(98304) + v(16384) + v(24) + v(0) + v(0)
    log[0:len(head)] = head
    drive = bytearray(376)
    for i in range(47):
        drive[8 * i:8 * i + 8] = v(0)
    drive[0:8] = v(1)                   # page number
    drive[152:160] = v(hours)           # Power-On Hours
    drive[88:96] = v(8)                 # heads
    drive[96:104] = v(2)                # form factor: 3.5 inches
    drive[336:344] = v(1)               # recording: SMR
    p1 = 512 * sectors_per_page
    log[p1:p1 + 376] = drive
    return log

drives = {
    # A Seagate sold as new: SMART 9 (hours in 0-3, milliseconds above: drivedb.h's
    # msec24hour32 for this family) and Device Statistics say 14 h; FARM says 21947 h.
    "seagate-rewritten": dict(
        model="ST4000DM004-2CV104", sectors=7814037168,
        attrs=[(1, 0x000f, 83, 64, 199781349), (5, 0x0033, 100, 100, 0), (9, 0x0032, 100, 100, (45000 << 32) | 14),
               (12, 0x0032, 100, 100, 5), (187, 0x0032, 100, 100, 0), (197, 0x0012, 100, 100, 0),
               (198, 0x0010, 100, 100, 0), (199, 0x003e, 200, 200, 0)],
        devstat=(14, 20000000, None), st07=[(1, 0x00, 12, 0xffffffffffff)], err03=0,
        farm=21947, dirs={0x03: 1, 0x04: 2, 0x06: 1, 0x07: 1, 0x01: 1, 0xa6: 48}),
    # A failing disk: pending and uncorrectable sectors, an extended test that failed
    # (read failure), errors in the log, SMART status still passed.
    "wd-failing": dict(
        model="WDC WD40EFRX-68N32N0", sectors=7814037168,
        attrs=[(1, 0x002f, 200, 200, 12), (5, 0x0033, 190, 190, 96), (9, 0x0032, 52, 52, 35061),
               (187, 0x0032, 100, 100, 3), (196, 0x0032, 190, 190, 96), (197, 0x0032, 200, 200, 8),
               (198, 0x0030, 200, 200, 2), (199, 0x0032, 200, 200, 17)],
        devstat=(35061, 81000000000, None),
        st07=[(1, 0x00, 34990, 0xffffffffffff), (1, 0x00, 35040, 0xffffffffffff), (2, 0x74, 35050, 123456789)],
        err03=7, dirs={0x03: 1, 0x04: 2, 0x06: 1, 0x07: 1, 0x01: 1}),
    # An SSD near its end (Percentage Used 85) with a packed vendor value in attribute 197
    # and only the SMART self-test log (06h).
    "ssd-worn-packed": dict(
        model="Samsung SSD 860 EVO 250GB", sectors=488397168,
        attrs=[(5, 0x0033, 100, 100, 0), (9, 0x0032, 97, 97, 12000), (12, 0x0032, 99, 99, 300),
               (187, 0x0032, 100, 100, 0), (197, 0x0032, 100, 100, 0x010000000000), (199, 0x003e, 100, 100, 0)],
        devstat=(12000, 60000000000, 85), st06=[(1, 0x00, 11990, 0), (1, 0x00, 11999, 0)], err01=0,
        dirs={0x04: 8, 0x06: 1, 0x01: 1}),
    # Attribute 9 in minutes (Maxtor DiamondMax 10, drivedb.h "-v 9,minutes"): 600000 min = 10000 h.
    "maxtor-minutes": dict(
        model="Maxtor 6L250R0", sectors=490234752,
        attrs=[(5, 0x0033, 253, 253, 0), (9, 0x0032, 1, 1, 600000), (197, 0x0008, 253, 253, 0)],
        st06=[(2, 0x00, 9999, 0)], err01=1, dirs={0x06: 1, 0x01: 1}),
    # Not a drive's: the Maxtor with a SMART self-test log (06h) of every kind of entry smartctl words its
    # own way (captive, vendor, reserved and abort types; stopped, fatal, unknown and running statuses;
    # an LBA of all ones), for ata_smart_self_test_log against smartctl's (the newest 8 of 9).
    "selftest-words": dict(
        model="Maxtor 6L250R0", sectors=490234752,
        attrs=[(5, 0x0033, 253, 253, 0), (9, 0x0032, 1, 1, 600000), (197, 0x0008, 253, 253, 0)],
        st06=[(0x01, 0x00, 5, 0), (0x03, 0x80, 30, 77), (0x7f, 0x00, 40, 0), (0x84, 0x40, 50, 0xffffffff),
              (0x01, 0xf5, 60, 0), (0x02, 0x90, 70, 5), (0x20, 0x3f, 80, 0x1234), (0x44, 0x20, 90, 0),
              (0x81, 0x10, 100, 0)],
        err01=0, dirs={0x06: 1, 0x01: 1}),
}

out = sys.argv[1]
for name, d in drives.items():
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    files = {"identify.hex": identify(d["model"], d["sectors"]), "smart.hex": hexdump(smart_data(d["attrs"])),
             "thresholds.hex": hexdump(thresholds(d["attrs"])), "00.hex": hexdump(directory(d["dirs"]))}
    if "devstat" in d:
        files["04.hex"] = hexdump(devstat(*d["devstat"]))
    if "st06" in d:
        files["06.hex"] = hexdump(selftest06(d["st06"]))
    if "st07" in d:
        files["07.hex"] = hexdump(selftest07(d["st07"]))
        files["06.hex"] = hexdump(selftest06(d["st07"]))
    if "err01" in d:
        files["01.hex"] = hexdump(error01(d["err01"]))
    if "err03" in d:
        files["03.hex"] = hexdump(error03(d["err03"]))
        files["01.hex"] = hexdump(error01(d["err03"]))
    if "farm" in d:
        files["a6.hex"] = hexdump(farm(d["farm"], d["dirs"][0xa6] // 6))
    for f, text in files.items():
        with open(os.path.join(folder, f), "w") as fh:
            fh.write(text)
