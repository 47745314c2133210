#!/bin/bash
# After the VM: check the bytes the guest's commands left on the images.
# Usage: host-checks.sh WORKDIR.  Prints "ok NAME" / "FAIL NAME" lines.
work=$1
marker=$(yes hdparm-vm-marker-0123456789abcdef | head -c 512 | od -An -tx1 | tr -d ' \n')

sector() { # IMAGE LBA COUNT: hex of the bytes
	dd if="$1" bs=512 skip="$2" count="${3:-1}" status=none | od -An -tx1 | tr -d ' \n'
}
zeros() { head -c $(($1 * 512)) /dev/zero | od -An -tx1 | tr -d ' \n'; }
expect() { # NAME GOT WANTED
	if [ "$2" = "$3" ]; then echo "ok $1"; else echo "FAIL $1"; echo "  got ${2:0:64}..."; fi
}

expect "image: --write-sector 2000 zeroed LBA 2000" "$(sector "$work/hd.img" 2000)" "$(zeros 1)"
expect "image: LBA 1000 untouched by the sector checks" "$(sector "$work/hd.img" 1000)" "$marker"
expect "image: --write-sector without confirmation left LBA 2001 alone" "$(sector "$work/hd.img" 2001)" "$(zeros 1)"
expect "image: TRIM 4000:8 reads back as zeros" "$(sector "$work/ssd.img" 4000 8)" "$(zeros 8)"
expect "image: TRIM left LBA 4008 alone" "$(sector "$work/ssd.img" 4008)" "$marker"
expect "image: TRIM left LBA 4015 alone" "$(sector "$work/ssd.img" 4015)" "$marker"
expect "image: refused TRIM left LBA 4010 alone" "$(sector "$work/ssd.img" 4010)" "$marker"
expect "image: NVMe deallocate of LBA 3000 reads back as zeros" "$(sector "$work/nvme.img" 3000)" "$(zeros 1)"
