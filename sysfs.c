/* sysfs attributes of block devices: queue depth, partition start. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sysfs.h"

void sysfs_path(dev_t devnum, const char *attr, char *buf, size_t size)
{
	snprintf(buf, size, "/sys/dev/block/%u:%u/%s", major(devnum), minor(devnum), attr);
}

int sysfs_read_u64(dev_t devnum, const char *attr, unsigned long long *value)
{
	char path[128], line[64], *end;
	FILE *f;
	int err = 0;

	sysfs_path(devnum, attr, path, sizeof(path));
	f = fopen(path, "r");
	if (!f)
		return errno;
	if (!fgets(line, sizeof(line), f)) {
		err = EIO;
	} else {
		errno = 0;
		*value = strtoull(line, &end, 10);
		if (errno || end == line || (*end && *end != '\n'))
			err = EINVAL;
	}
	fclose(f);
	return err;
}

dev_t block_device_of(int fd)
{
	struct stat st;

	if (fstat(fd, &st) || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}
