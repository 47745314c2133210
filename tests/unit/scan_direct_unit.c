/*
 * ops/scan/scan_direct.c's trust in the direct way (no kernel retries),
 * case by case, with a disk whose sector_read and block-layer read are
 * scripted: a way that has read a sector is believed when it fails; one
 * that has not is checked against the block layer's read, and one the
 * block layer contradicts, or that is refused, is not used again.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "disk_ops.h"
#include "scan_direct.h"

static int failures;

static void result(const char *name, bool ok)
{
	printf("%s unit: %s\n", ok ? "ok" : "FAIL", name);
	failures += !ok;
}

/* The disk: errno a direct read and a block-layer read of each LBA give (0: reads), and how many were sent. */
static int direct_err[16], layer_err[16], direct_sent, layer_sent;

static int fake_sector_read(struct device *dev, uint64_t lba, void *buf, unsigned int bytes, struct disk_cause *c)
{
	(void)dev, (void)buf, (void)bytes, (void)c;
	direct_sent++;
	return direct_err[lba];
}

static int fake_layer_read(void *ctx, uint64_t lba, uint32_t sectors)
{
	(void)ctx, (void)sectors;
	layer_sent++;
	return layer_err[lba];
}

static const struct disk_ops fake_disk = { .sector_read = fake_sector_read };

static char sector[512];

/* A fresh way, usable, over the scripted disk. */
static void fresh(struct scan_direct *d, struct device *dev)
{
	memset(direct_err, 0, sizeof(direct_err));
	memset(layer_err, 0, sizeof(layer_err));
	direct_sent = layer_sent = 0;
	memset(dev, 0, sizeof(*dev));
	dev->disk = &fake_disk;
	*d = (struct scan_direct){ .dev = dev, .buf = sector, .bytes = sizeof(sector), .usable = true };
}

int main(void)
{
	struct scan_direct d;
	struct device dev;
	bool ok;

	/* Proven by LBA 0, the bad LBA 1 is one direct command, the block layer never asked. */
	fresh(&d, &dev);
	direct_err[1] = layer_err[1] = EIO;
	ok = scan_direct_read(&d, 0, fake_layer_read, NULL) == 0 && scan_direct_read(&d, 1, fake_layer_read, NULL) == EIO &&
	     direct_sent == 2 && layer_sent == 0 && d.proven && d.usable;
	result("scan direct: once a sector read, a failure is the medium's: one command, no read through the kernel", ok);

	/* Not proven: the first failure is asked of the block layer too; both fail, the way stays. */
	fresh(&d, &dev);
	direct_err[0] = layer_err[0] = EIO;
	ok = scan_direct_read(&d, 0, fake_layer_read, NULL) == EIO && layer_sent == 1 && d.usable && !d.proven &&
	     scan_direct_read(&d, 1, fake_layer_read, NULL) == 0 && d.proven && layer_sent == 1;
	result("scan direct: a failure before any sector read is asked of the block layer as well", ok);

	/* A way that fails every read (a bridge that refuses the command with EIO): the block layer reads, the way is dropped. */
	fresh(&d, &dev);
	for (int i = 0; i < 16; i++)
		direct_err[i] = EIO;
	ok = scan_direct_read(&d, 0, fake_layer_read, NULL) == 0 && !d.usable &&
	     scan_direct_read(&d, 1, fake_layer_read, NULL) == 0 && direct_sent == 1 && layer_sent == 2;
	result("scan direct: a way the block layer contradicts is not used again: no sector named unreadable by it", ok);

	/* Refused (not the medium: EOPNOTSUPP, EINVAL): the block layer decides, the way is dropped. */
	fresh(&d, &dev);
	direct_err[0] = EOPNOTSUPP;
	layer_err[0] = EIO;
	ok = scan_direct_read(&d, 0, fake_layer_read, NULL) == EIO && !d.usable && layer_sent == 1;
	result("scan direct: a refused command leaves the search to the block layer", ok);

	/* Proven, then a failure that is not the medium's (ETIMEDOUT, ENXIO): the block layer's read answers. */
	fresh(&d, &dev);
	direct_err[1] = ETIMEDOUT;
	layer_err[1] = ENXIO;
	ok = scan_direct_read(&d, 0, fake_layer_read, NULL) == 0 && scan_direct_read(&d, 1, fake_layer_read, NULL) == ENXIO &&
	     layer_sent == 1 && d.usable;
	result("scan direct: a proven way's failure other than the medium's is the block layer's to answer", ok);

	/* Not usable (a partition, a volume, a loop device): every read is the block layer's. */
	fresh(&d, &dev);
	d.usable = false;
	ok = scan_direct_read(&d, 3, fake_layer_read, NULL) == 0 && direct_sent == 0 && layer_sent == 1;
	result("scan direct: where not usable, the block layer reads", ok);

	printf("end of suite\n");
	return failures != 0;
}
