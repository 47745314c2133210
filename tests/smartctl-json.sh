#!/bin/bash
# --json speaks smartctl's language: for every IDENTIFY page in the tests
# and both NVMe page pairs, smartctl 7.3 reads the same page through the
# test double (-d sat, -d nvme), and every key of its -j -i output that
# describes the drive must come out of ours with the same value (for
# objects: the same value for each of smartctl's members; ours may add
# members of their own).
# Usage: smartctl-json.sh HDPARM OUTDIR.  Prints "ok NAME" / "FAIL NAME" lines.
set -u
H=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
shim="$out/sgio-shim-smartctl.so"

if ! command -v smartctl > /dev/null || ! command -v python3 > /dev/null; then
	echo "skip smartctl-json: smartctl or python3 missing (tests/setup installs smartmontools)"
	echo "end of suite"
	exit 0
fi
if ! ${CC:-cc} -shared -fPIC -O2 -o "$shim" "$top/tests/tools/sgio-shim.c" -ldl; then
	echo "FAIL build tests/tools/sgio-shim.c"
	echo "end of suite"
	exit 0
fi
# Pages that are not ATA pages smartctl and we could agree on are left out:
# all-ones.hex names no device type (we decode none of it), smartctl finds
# no drive in all-zero.hex, and the two garbage pages hold bytes that are
# not UTF-8, which smartctl writes raw.
pages=()
for p in "$top"/tests/identify/pages/*.hex "$top"/tests/identify/real/*.hex; do
	case $(basename "$p") in all-ones.hex | all-zero.hex | garbage*.hex) continue ;; esac
	pages+=("$p")
done
python3 - "$H" "$shim" "$top/tests/nvme" "${pages[@]}" <<'EOF'
import json, os, subprocess, sys

hdparm, shim, nvme_dir, pages = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
# What smartctl -j -i says about the drive (not about itself, the time, or the device node).
# model_family is smartctl's drive database speaking, not the drive.
not_drive = {"json_format_version", "smartctl", "local_time", "device", "in_smartctl_database", "model_family"}

# A sanitizer build wants its runtime first; the double must come first here.
asan = (os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0").lstrip(":")

def run(argv, env, stdin=None):
    p = subprocess.run(argv, env=dict(os.environ, LD_PRELOAD=shim, ASAN_OPTIONS=asan, **env), stdin=stdin,
                       capture_output=True)
    try:
        return json.loads(p.stdout.decode("utf-8", "replace"))
    except ValueError:
        print("FAIL %s gave no JSON (exit %d): %s" % (argv[0], p.returncode, p.stderr.decode("utf-8", "replace")[:200]))
        return {"devices": [{}]}

def compare(name, theirs, ours):
    keys = [k for k in theirs if k not in not_drive]
    bad = []
    for k in keys:
        a, b = theirs[k], ours.get(k)
        if isinstance(a, dict) and isinstance(b, dict):
            b = {m: b.get(m) for m in a}
        if isinstance(a, list) and isinstance(b, list) and all(isinstance(x, dict) for x in a + b) and len(a) == len(b):
            b = [{m: y.get(m) for m in x} for x, y in zip(a, b)]
        if a != b:
            bad.append("%s: smartctl %r, ours %r" % (k, a, b))
    if keys and not bad:
        print("ok smartctl -j -i agrees on %d keys: %s" % (len(keys), name))
    else:
        print("FAIL smartctl -j -i: %s" % name)
        for line in bad[:6] or ["smartctl gave no key"]:
            print("  " + line)

for page in pages:
    theirs = run(["smartctl", "-d", "sat", "-j", "-i", "/dev/null"], {"SHIM_IDENTIFY": page})
    with open(page) as f:
        ours = run([hdparm, "--json", "--Istdin"], {}, stdin=f)["devices"][0].get("identify", {})
    compare(os.path.basename(page), theirs, ours)

for pair in ("qemu", "crafted"):
    env = {"SHIM_NVME": "%s/%s-ctrl.hex,%s/%s-ns.hex" % (nvme_dir, pair, nvme_dir, pair)}
    theirs = run(["smartctl", "-d", "nvme", "-j", "-i", "/dev/null"], env)
    ours = run([hdparm, "--json", "-I", "/dev/null"], env)["devices"][0].get("identify", {})
    compare("NVMe " + pair, theirs, ours)
EOF
echo "end of suite"
