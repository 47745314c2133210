#!/usr/bin/env python3
"""Checks a --json document: it parses, has the required shape, and (with a
text output of the same page) its identify facts equal what the text says.

  json-check.py DOC.json [TEXT.out [PAGE.hex]]   exit 0 when all is well, else 1 with reasons

With PAGE, some facts are also decoded here from the IDENTIFY words
themselves, as ATA/ATAPI-8 and ACS define them, so that the check does
not rest on the program's own reading of the page.
  json-check.py --errors DOC.json     the document must list at least one error
  json-check.py --batch LIST          each line of LIST is "DOC.json TEXT.out PAGE.hex": one process
                                      for many pages; each failing one is printed as "PAGE: reason"
"""
import json
import re
import sys


def fail(msg):
    print(msg)
    sys.exit(1)


def load(path):
    with open(path, 'rb') as f:
        raw = f.read()
    try:
        return json.loads(raw.decode('utf-8'))
    except (UnicodeDecodeError, ValueError) as e:
        fail('not valid JSON: %s' % e)


def as_json_text(raw):
    """What the emitter makes of raw bytes: UTF-8 kept, other bytes one character each."""
    out, i = [], 0
    while i < len(raw):
        c = raw[i]
        n = 1 if 0xc2 <= c <= 0xdf else 2 if 0xe0 <= c <= 0xef else 3 if 0xf0 <= c <= 0xf4 else 0
        if n:
            try:
                out.append(raw[i:i + n + 1].decode('utf-8'))
                i += n + 1
                continue
            except UnicodeDecodeError:
                pass
        out.append(chr(c))
        i += 1
    return ''.join(out)


def text_field(text, label):
    """A string field of the text, its \\xNN escapes (bytes outside printable ASCII) undone."""
    m = re.search(r'^\t' + re.escape(label) + r' *(.*)$', text, re.M)
    if not m:
        return None
    raw = re.sub(rb'\\x([0-9a-f]{2})', lambda e: bytes([int(e.group(1), 16)]),
                 m.group(1).strip(' ').encode('latin-1'))
    return as_json_text(raw)


def check_identify(ident, text):
    for key, label in (('model_name', 'Model Number:'), ('serial_number', 'Serial Number:'),
                       ('firmware_version', 'Firmware Revision:')):
        want = text_field(text, label)
        if want is not None and ident.get(key) != want:
            fail('%s: json %r, text %r' % (key, ident.get(key), want))
    m = re.search(r'LBA48  user addressable sectors: *(\d+)', text)
    if m and ident.get('lba48_sectors') != int(m.group(1)):
        fail('lba48_sectors: json %r, text %s' % (ident.get('lba48_sectors'), m.group(1)))
    m = re.search(r'LBA    user addressable sectors: *(\d+)', text)
    if m and ident.get('lba28_sectors') != int(m.group(1)):
        fail('lba28_sectors: json %r, text %s' % (ident.get('lba28_sectors'), m.group(1)))
    m = re.search(r'device size with M = 1024\*1024: *(\d+) MBytes', text)
    cap = ident.get('user_capacity', {})
    if m:
        blocks, size = cap.get('blocks'), ident.get('logical_block_size')
        if not isinstance(blocks, int) or not isinstance(size, int):
            fail('user_capacity: json %r, no blocks or block size' % cap)
        # The text prints the byte count as 64-bit arithmetic leaves it; JSON says null past 64 bits.
        if cap.get('bytes') is None and blocks * size < 2 ** 64:
            fail('user_capacity: json bytes null for %d blocks of %d bytes' % (blocks, size))
        if cap.get('bytes') is not None and cap['bytes'] != blocks * size:
            fail('user_capacity: json bytes %r is not blocks x block size' % cap['bytes'])
        if (blocks * size) % 2 ** 64 // (1024 * 1024) != int(m.group(1)):
            fail('user_capacity: json %r blocks of %d bytes, text %s MBytes' % (blocks, size, m.group(1)))
    m = re.search(r'Logical  Sector size: *(\d+) bytes', text)
    if m and ident.get('logical_block_size') != int(m.group(1)):
        fail('logical_block_size differs')
    m = re.search(r'Physical Sector size: *(\d+) bytes', text)
    if m and ident.get('physical_block_size') != int(m.group(1)):
        fail('physical_block_size differs')
    if 'Nominal Media Rotation Rate: Solid State Device' in text:
        if ident.get('rotation_rate') != 0:
            fail('rotation_rate should be 0 (smartctl says 0 for a solid-state drive)')
    else:
        m = re.search(r'Nominal Media Rotation Rate: (\d+)', text)
        if m and ident.get('rotation_rate') != int(m.group(1)):
            fail('rotation_rate differs')
    # -I lists TRIM only for pages of ATA8-ACS or later; where it does, json agrees.
    if 'Data Set Management TRIM supported' in text:
        if not ident.get('trim', {}).get('supported'):
            fail('trim.supported: the text lists TRIM, json does not')
        if ident.get('trim', {}).get('zeroed') != ('Deterministic read ZEROs after TRIM' in text):
            fail('trim.zeroed differs')
    sec = re.search(r'^Security: \n(.*?)(?=^\S)', text + '\nEND', re.M | re.S)
    if sec:
        s = sec.group(1)
        sec_json = ident.get('ata_security', {})
        for word, key in (('enabled', 'enabled'), ('locked', 'locked'), ('frozen', 'frozen')):
            if re.search(r'^\t\t' + word + r'$', s, re.M) and not sec_json.get(key):
                fail('ata_security.%s should be true' % key)
            if re.search(r'^\tnot\t' + word + r'$', s, re.M) and sec_json.get(key):
                fail('ata_security.%s should be false' % key)
    names = [f['name'] for f in ident.get('features', [])]
    for row in re.findall(r'^\t   [* ]\t(.*)$', text, re.M):
        if row.startswith('CFA advanced modes') or row.startswith('CFA Power Level'):
            continue
        row = re.sub(r' \(limit .*\)$', '', row)
        if row not in names:
            fail('feature row %r missing from json' % row)


def load_words(path):
    words = []
    with open(path) as f:
        for line in f:
            try:
                words += [int(w, 16) for w in line.split()]
            except ValueError:
                continue
    return words[:256]


# (name in -I's feature list, word supported, word enabled, bit), from the standard's word tables.
FEATURE_BITS = (
    ('SMART feature set', 82, 85, 0),
    ('Power Management feature set', 82, 85, 3),
    ('Write cache', 82, 85, 5),
    ('Look-ahead', 82, 85, 6),
    ('48-bit Address feature set', 83, 86, 10),
    ('Mandatory FLUSH_CACHE', 83, 86, 12),
)


def check_words(ident, w):
    """Facts decoded from the words, where words 82-83 carry a valid signature (83 bits 15:14 = 01)."""
    if len(w) < 256 or ident.get('device_type') != 'ata':
        return
    if w[83] & 0xc000 != 0x4000 or w[82] in (0, 0xffff):
        return
    listed = {f['name']: f['enabled'] for f in ident.get('features', [])}
    for name, sup, ena, bit in FEATURE_BITS:
        if w[sup] & (1 << bit):
            if name not in listed:
                fail('word %d bit %d: %s is supported, json does not list it' % (sup, bit, name))
            if listed[name] != bool(w[ena] & (1 << bit)):
                fail('word %d bit %d: %s enabled is %r, json says %r' % (ena, bit, name, bool(w[ena] & (1 << bit)), listed[name]))
    # Word 169 bit 0: DATA SET MANAGEMENT with the TRIM bit.
    if w[169] not in (0, 0xffff):
        if ident.get('trim', {}).get('supported') != bool(w[169] & 1):
            fail('word 169: TRIM supported is %r, json says %r' % (bool(w[169] & 1), ident.get('trim', {}).get('supported')))


def batch(list_path):
    bad = 0
    with open(list_path) as f:
        for line in f:
            args = line.split()
            if not args:
                continue
            try:
                check(args)
            except SystemExit as e:
                if e.code:
                    bad += 1
                    print('%s: (the reason above)' % args[-1])
    sys.exit(1 if bad else 0)


def main():
    args = sys.argv[1:]
    if args and args[0] == '--batch':
        batch(args[1])
    check(args)


def check(args):
    if args and args[0] == '--errors':
        doc = load(args[1])
        errs = list(doc.get('errors', []))
        for d in doc.get('devices', []):
            errs += d.get('errors', [])
        if not errs:
            fail('no error listed')
        return
    doc = load(args[0])
    for key in ('tool', 'version', 'devices', 'errors'):
        if key not in doc:
            fail('missing top-level key %s' % key)
    if len(args) > 1:
        with open(args[1], encoding='latin-1', newline='') as f:
            text = f.read()
        devices = doc['devices']
        if text.startswith('\n\nUnknown device type') or 'Unknown device type' in text:
            if devices and devices[0].get('identify', {}).get('device_type') != 'unknown':
                fail('an unknown device type should say so')
            return
        if not devices or 'identify' not in devices[0]:
            fail('no identify object')
        check_identify(devices[0]['identify'], text)
        if len(args) > 2:
            check_words(devices[0]['identify'], load_words(args[2]))


if __name__ == '__main__':
    main()
