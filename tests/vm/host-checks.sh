#!/bin/bash
# After the VM: check the bytes the guest's commands left on the images.
# Usage: host-checks.sh WORKDIR.  Prints "ok NAME" / "FAIL NAME" lines.
work=$1
here=$(cd "$(dirname "$0")" && pwd)
marker=$(yes hdparm-vm-marker-0123456789abcdef | head -c 512 | od -An -tx1 | tr -d ' \n')

sector() { # IMAGE LBA COUNT: hex of the bytes
	dd if="$1" bs=512 skip="$2" count="${3:-1}" status=none | od -An -tx1 | tr -d ' \n'
}
zeros() { head -c $(($1 * 512)) /dev/zero | od -An -tx1 | tr -d ' \n'; }
expect() { # NAME GOT WANTED
	if [ "$2" = "$3" ]; then echo "ok $1"; else echo "FAIL $1"; echo "  got ${2:0:64}..."; fi
}

expect "image: --write-sector 2000 zeroed LBA 2000" "$(sector "$work/hd.img" 2000)" "$(zeros 1)"
expect "image: refused --write-sector 1000 (no confirmation) left LBA 1000 alone" "$(sector "$work/hd.img" 1000)" "$marker"
expect "image: --repair-sector 2001 zeroed LBA 2001" "$(sector "$work/hd.img" 2001)" "$(zeros 1)"
expect "image: TRIM 4000:8 reads back as zeros" "$(sector "$work/ssd.img" 4000 8)" "$(zeros 8)"
expect "image: TRIM left LBA 4008 alone" "$(sector "$work/ssd.img" 4008)" "$marker"
expect "image: TRIM left LBA 4015 alone" "$(sector "$work/ssd.img" 4015)" "$marker"
expect "image: refused TRIM left LBA 4010 alone" "$(sector "$work/ssd.img" 4010)" "$marker"
expect "image: NVMe deallocate of LBA 3000 reads back as zeros" "$(sector "$work/nvme.img" 3000)" "$(zeros 1)"
expect "image: NVMe --format-erase user left LBA 0 zeros" "$(sector "$work/nvme-erase.img" 0)" "$(zeros 1)"
expect "image: NVMe --format-erase user left LBA 4000-4007 zeros" "$(sector "$work/nvme-erase.img" 4000 8)" "$(zeros 8)"
expect "image: NVMe --format-erase user left LBA 8191 zeros" "$(sector "$work/nvme-erase.img" 8191)" "$(zeros 1)"

# What an erase reaches: refused erases left every marker; the one allowed erased only what it named.
# (multi1's: checked in the guest before the erase of many disks formats it.)
for img in sub1 sub2; do
	expect "image: $img's markers kept (nothing reached it)" "$(sector "$work/$img.img" 4000)$(sector "$work/$img.img" 8191)" "$marker$marker"
done
expect "image: --format-erase through namespace 2's generic node zeroed its LBA 4000" "$(sector "$work/multi2.img" 4000)" "$(zeros 1)"
expect "image: --format-erase through namespace 2's generic node zeroed its LBA 8191" "$(sector "$work/multi2.img" 8191)" "$(zeros 1)"

# Many disks at once: the three namespaces formatted in one command lost the data written at LBA 100.
for img in nvme-erase multi1 multi2; do
	expect "image: $img's LBA 100-149 zeros after the format of three namespaces at once" "$(sector "$work/$img.img" 100 50)" "$(zeros 50)"
done

# --json documents from the guest: valid, errors exactly where the text has one.
if command -v python3 >/dev/null; then
	awk -v dir="$work" '
		/^VM-JSON-BEGIN / { file = dir "/" $2 ".json"; print $3 > (dir "/" $2 ".rc"); printf "" > file; next }
		/^VM-JSON-END/ { close(file); file = ""; next }
		file != "" { print > file }
	' "$work/results.log"
	jcheck() { # NAME PYTHON-EXPRESSION over doc
		if [ -f "$work/$1.json" ] && python3 -c "
import json, sys
doc = json.load(open('$work/$1.json'))
devs = doc['devices']
sys.exit(0 if ($2) else 1)" 2> "$work/jcheck.err"; then
			echo "ok vm json: $1"
		else
			echo "FAIL vm json: $1"
			sed 's/^/  /' "$work/jcheck.err" | tail -n 3
		fi
	}
	jcheck json-hdd "devs[0]['identify']['model_name'] == 'HDPARM-TEST-HDD' and devs[0]['identify']['serial_number'] == 'HDD0001' and devs[0]['power_mode'] == 'active/idle' and devs[0]['write_cache']['supported'] and devs[0]['readahead'] == 256 and devs[0]['errors'] == [] and devs[0]['identify']['rotation_rate'] == 7200 and devs[0]['identify']['wwn']['naa'] == 5"
	jcheck json-ssd "devs[0]['identify']['rotation_rate'] == 0 and devs[0]['errors'] == [] and devs[0]['identify']['user_capacity']['blocks'] == 131072"
	jcheck json-nvme "devs[0]['identify']['device_type'] == 'nvme' and devs[0]['identify']['serial_number'] == 'NVME0001' and devs[0]['identify']['user_capacity']['blocks'] == 65536 and devs[0]['power_mode'] == 'active/idle' and devs[0]['power_state'] == 0 and devs[0]['max_power_watts'] == 25.0 and devs[0]['apst_enabled'] is None and devs[0]['errors'] == []"
	# --erase-verify full's counts against the image's own blocks, read here; the record against its schema.
	image_counts="$(python3 -c "
import sys
b = open('$work/nvme-erase.img', 'rb').read()
blocks = [b[i:i + 512] for i in range(0, len(b), 512)]
print(len(blocks), sum(1 for x in blocks if not any(x)))")"
	jcheck json-nvme-format-erase "devs[0]['format_erase']['erase'] == 'user' and devs[0]['format_erase']['completed'] and {k: v for k, v in devs[0]['erase_check'][0].items() if k != 'full'} == {'device': '/dev/nvme1n1', 'blocks': 64, 'zeros': 64, 'pattern': 0, 'other': 0, 'compared_with_before': True, 'unchanged': 0, 'verdict': 'zeros'} and devs[0]['errors'] == [] and [devs[0]['erase_check'][0]['full'][k] for k in ('blocks', 'zeros')] == [int(x) for x in '$image_counts'.split()] and devs[0]['erase_check'][0]['full']['verdict'] == 'as_expected'"
	py=python3
	python3 -c 'import jsonschema' 2> /dev/null || py=/usr/bin/python3
	if [ -f "$work/record-nvme-format-erase.json" ] && "$py" -c "
import json, jsonschema
r = json.load(open('$work/record-nvme-format-erase.json'))
jsonschema.validate(r, json.load(open('$here/../../erase-record.schema.json')))
assert r['device']['serial_number'] == 'NVME-ERASE' and r['device']['capacity_bytes'] == $(stat -c %s "$work/nvme-erase.img")
assert r['outcome'] == 'erased_and_verified' and r['operator'] == 'vm' and r['erase']['technique'] == 'format_user_data_erase'
assert r['verification']['disks'][0]['full']['zeros'] == int('$image_counts'.split()[1])" 2> "$work/jcheck.err"; then
		echo "ok vm erase record: --format-erase user on QEMU's NVMe, valid, its counts the image's"
	else
		echo "FAIL vm erase record: --format-erase user on QEMU's NVMe, valid, its counts the image's"
		sed 's/^/  /' "$work/jcheck.err" | tail -n 3
	fi
	# Three namespaces formatted in one command: each device's outcome, and a record each, valid,
	# named by its own serial, whose full read-back counts every block of its image as zeros.
	jcheck json-together "[(d['name'], d['erase_outcome'], d['format_erase']['completed']) for d in devs] == [('/dev/nvme1n1', 'erased_and_verified', True), ('/dev/hx-m1', 'erased_and_verified', True), ('/dev/hx-m2', 'erased_and_verified', True)] and all(d['errors'] == [] for d in devs)"
	if [ "$(cat "$work/json-together.rc" 2> /dev/null)" = 0 ] && "$py" -c "
import json, jsonschema, os
schema = json.load(open('$here/../../erase-record.schema.json'))
size = {'/dev/nvme1n1': os.path.getsize('$work/nvme-erase.img'), '/dev/hx-m1': os.path.getsize('$work/multi1.img'),
	'/dev/hx-m2': os.path.getsize('$work/multi2.img')}
serial = {'/dev/nvme1n1': 'NVME-ERASE', '/dev/hx-m1': 'NVME-MULTI', '/dev/hx-m2': 'NVME-MULTI'}
seen = []
for i in (1, 2, 3):
	r = json.load(open('$work/record-together-%d.json' % i))
	jsonschema.validate(r, schema)
	path = r['device']['path']
	seen.append(path)
	assert r['device']['serial_number'] == serial[path]
	assert r['outcome'] == 'erased_and_verified', r['outcome']
	assert r['device']['capacity_bytes'] == size[path]
	assert r['verification']['disks'][0]['full']['zeros'] == size[path] // 512
assert sorted(seen) == sorted(size), seen" 2> "$work/jcheck.err"; then
		echo "ok vm erase together: three namespaces in one command, a valid record each, every block zeros"
	else
		echo "FAIL vm erase together: three namespaces in one command, a valid record each, every block zeros"
		sed 's/^/  /' "$work/jcheck.err" | tail -n 3
	fi
	jcheck json-virtio "'identify' not in devs[0] and 'power_mode' not in devs[0] and len(devs[0]['errors']) >= 3 and devs[0]['readahead'] == 256"
	jcheck json-timings "devs[0]['timings']['cached_reads']['mib'] > 0 and devs[0]['timings']['disk_reads']['mib'] > 0 and devs[0]['timings']['disk_reads']['o_direct'] is False"
	jcheck json-two "[d['name'] for d in devs] == ['/dev/sda', '/dev/vda'] and devs[0]['errors'] == [] and devs[1]['errors'] != []"
	# --json --condition on QEMU's NVMe controllers: smartctl's keys hold nvme-cli's figures and smartctl's own
	# values; the verdict and exit status by hdparm.8's rules from nvme-cli's figures.
	for tag in nvme0 cw; do
		if python3 -c "
import json
cli = json.load(open('$work/nvme-cli-smart-log-$tag.json'))
sc = json.load(open('$work/smartctl-x-$tag.json'))
doc = json.load(open('$work/json-condition-$tag.json'))
rc = int(open('$work/json-condition-$tag.rc').read())
c = doc['devices'][0]['condition']
log = c['nvme_smart_health_information_log']
want = {'critical_warning': 'critical_warning', 'available_spare': 'avail_spare', 'available_spare_threshold': 'spare_thresh',
	'percentage_used': 'percent_used', 'data_units_written': 'data_units_written', 'power_on_hours': 'power_on_hours',
	'media_errors': 'media_errors', 'num_err_log_entries': 'num_err_log_entries'}
assert sorted(log) == sorted(want), sorted(log)
for k, ck in want.items():
	assert log[k] == int(cli[ck]), (k, log[k], cli[ck])
	assert log[k] == sc['nvme_smart_health_information_log'][k], (k, log[k], 'smartctl', sc['nvme_smart_health_information_log'][k])
assert c['smart_status']['passed'] == sc['smart_status']['passed'] == (cli['critical_warning'] == 0), c['smart_status']
assert c['power_on_time']['hours'] == sc['power_on_time']['hours'] == int(cli['power_on_hours'])
v = []
if cli['critical_warning']: v.append('failing')
if cli['percent_used'] >= 80 or cli['avail_spare'] <= cli['spare_thresh'] + 10: v.append('worn')
assert c['verdict'] == (v or ['good']), c['verdict']
assert rc == {'failing': 203, 'worn': 201, 'good': 0}[c['verdict'][0]], rc
assert 'self_tests' not in c and 'nvme_self_test_log' not in c and 'nvme_self_test_log' not in sc, 'a self-test log QEMU 7.2 does not keep'
assert doc['devices'][0]['errors'] == []" 2> "$work/jcheck.err"; then
			echo "ok vm json: --condition on QEMU's NVMe ($tag) as nvme-cli and smartctl read it"
		else
			echo "FAIL vm json: --condition on QEMU's NVMe ($tag) as nvme-cli and smartctl read it"
			sed 's/^/  /' "$work/jcheck.err" | tail -n 3
		fi
	done
else
	echo "skip vm json: no python3 in this machine (tests/setup installs it)"
fi
