#!/usr/bin/env python3
"""Checks a --json document: it parses, has the required shape, and (with a
text output of the same page) its identify facts equal what the text says.

  json-check.py DOC.json [TEXT.out]   exit 0 when all is well, else 1 with reasons
  json-check.py --errors DOC.json     the document must list at least one error
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
    m = re.search(r'^\t' + re.escape(label) + r' *(.*)$', text, re.M)
    return as_json_text(m.group(1).strip(' ').encode('latin-1')) if m else None


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
    m = re.search(r'Logical  Sector size: *(\d+) bytes', text)
    if m and ident.get('logical_block_size') != int(m.group(1)):
        fail('logical_block_size differs')
    m = re.search(r'Physical Sector size: *(\d+) bytes', text)
    if m and ident.get('physical_block_size') != int(m.group(1)):
        fail('physical_block_size differs')
    if 'Nominal Media Rotation Rate: Solid State Device' in text:
        if ident.get('rotation_rate') != 1:
            fail('rotation_rate should be 1')
    else:
        m = re.search(r'Nominal Media Rotation Rate: (\d+)', text)
        if m and ident.get('rotation_rate') != int(m.group(1)):
            fail('rotation_rate differs')
    trim = 'Data Set Management TRIM supported' in text
    if ident.get('trim', {}).get('supported') != trim:
        fail('trim.supported: json %r, text %r' % (ident.get('trim', {}).get('supported'), trim))
    if ident.get('trim', {}).get('zeroed') != ('Deterministic read ZEROs after TRIM' in text and trim):
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


def main():
    args = sys.argv[1:]
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


main()
