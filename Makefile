# hdparm: get/set ATA drive parameters.
# The project's own flags stay in variables of its own, so that CFLAGS,
# CPPFLAGS and LDFLAGS given on make's command line (as distributions'
# build systems pass them) add to them instead of replacing them.
CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=
HDPARM_CFLAGS = -std=gnu11 -Wall -Wextra
# 64-bit file offsets on 32-bit systems too: disks and files past 2 GiB.
HDPARM_CPPFLAGS = -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -DHDPARM_CONFIG='"$(CONFIG)"' $(addprefix -I,$(DIRS))
HDPARM_LDLIBS = -pthread
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR = $(PREFIX)/sbin
MANDIR = $(PREFIX)/share/man/man8
DATADIR = $(PREFIX)/share/hdparm
# Where udev and systemd look: pkg-config says where it knows, else Debian's places.
pkgvar = $(or $(shell pkg-config --variable=$(1) $(2) 2>/dev/null),$(3))
UDEVDIR ?= $(call pkgvar,udevdir,udev,/lib/udev)
SYSTEMDUTILDIR ?= $(call pkgvar,systemdutildir,systemd,/lib/systemd)
SYSTEMDUNITDIR ?= $(call pkgvar,systemdsystemunitdir,systemd,/lib/systemd/system)
CONFIG ?= /etc/hdparm.conf
# node_exporter's textfile folder (Debian's), where hdparm-metrics.service writes hdparm.prom.
TEXTFILEDIR ?= /var/lib/prometheus/node-exporter
# The shipped udev rule, sleep hook and units get these paths as they are installed.
SUBST = sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@HDPARM_CONFIG@|$(CONFIG)|g' -e 's|@TEXTFILEDIR@|$(TEXTFILEDIR)|g'

# Folders by layer, top to bottom: a file includes its own folder's and
# those below it, never above (README).
DIRS = cli options run ops ops/any_disk ops/ata ops/block ops/erase ops/scan disk ata nvme scsi tcg transport block output lib
# Every C file of those folders: a new file is built without naming it here.
SRCS = $(sort $(wildcard $(addsuffix /*.c,$(DIRS))))
OBJS = $(SRCS:.c=.o)
HDRS = $(wildcard $(addsuffix /*.h,$(DIRS)))

all: hdparm

hdparm: $(OBJS)
	$(CC) $(HDPARM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS) $(HDPARM_LDLIBS)

%.o: %.c $(HDRS)
	$(CC) $(HDPARM_CPPFLAGS) $(CPPFLAGS) $(HDPARM_CFLAGS) $(CFLAGS) -c -o $@ $<

# STRICT=1: any part that cannot run here is a failure (tests/setup installs all).
check: hdparm
	STRICT="$(STRICT)" SKIP_VM="$(SKIP_VM)" SKIP_CROSS="$(SKIP_CROSS)" SKIP_REBUILDS="$(SKIP_REBUILDS)" \
		bash tests/run-tests.sh

# Static analysis: both must be clean, and then nothing is printed; SG_IO goes out from sg.c alone,
# and no file includes a folder above its own (tests/layers.sh)
# (clang-tidy's count of the warnings it suppressed in system headers is left out).
lint:
	@n=$$(cat $(SRCS) | grep -c 'ioctl([^;]*SG_IO[,)]'); [ "$$n" = 1 ] || { echo "lint: $$n ioctl(SG_IO) call sites; one is wanted, in transport/sg.c" >&2; exit 1; }
	@f=$$(grep -l 'ioctl([^;]*NVME_IOCTL' $(SRCS) | tr '\n' ' '); [ "$$f" = "transport/nvme_ioctl.c " ] || { echo "lint: NVMe pass-through ioctls in $$f; they are wanted in transport/nvme_ioctl.c alone" >&2; exit 1; }
	@bash tests/layers.sh
	@bash tests/sizes.sh $(SRCS)
	@cppcheck --enable=warning,performance,portability --error-exitcode=1 --quiet -D_GNU_SOURCE $(addprefix -I,$(DIRS)) $(SRCS) tests/tools/*.c
	@clang-tidy --quiet $(SRCS) -- -std=gnu11 -D_GNU_SOURCE $(addprefix -I,$(DIRS)) 2> .lint.err; rc=$$?; \
		grep -v 'warnings\{0,1\} generated\.$$' .lint.err >&2; rm -f .lint.err; exit $$rc

# Fuzz targets (clang, libFuzzer): FUZZ_SECONDS each.
FUZZ_SECONDS ?= 60
fuzz:
	bash tests/fuzz/run.sh $(FUZZ_SECONDS)

bench: hdparm
	bash tests/bench/run-bench.sh
	bash tests/bench/run-fio-bench.sh
	BENCH_BACKING=memory bash tests/bench/run-fio-bench.sh
	BENCH_BPS=1048576000 BENCH_IOPS=5000 bash tests/bench/run-fio-bench.sh
	bash tests/bench/run-verify-bench.sh
	BENCH_BACKING=memory bash tests/bench/run-verify-bench.sh
	BENCH_BACKING=memory BENCH_FILL=zeros bash tests/bench/run-verify-bench.sh
	bash tests/bench/run-scan-bench.sh
	BENCH_BACKING=zram bash tests/bench/run-scan-bench.sh

install: hdparm install-integration
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(DATADIR)
	install -m 0755 hdparm $(DESTDIR)$(SBINDIR)/hdparm
	install -m 0644 hdparm.8 $(DESTDIR)$(MANDIR)/hdparm.8
	install -m 0644 erase-record.schema.json $(DESTDIR)$(DATADIR)/erase-record.schema.json

# The udev rule, the sleep hook and the idle unit (hdparm.8, KEEPING SETTINGS);
# the metrics service and its timer (hdparm.8, METRICS).
install-integration:
	install -d $(DESTDIR)$(UDEVDIR)/rules.d $(DESTDIR)$(SYSTEMDUTILDIR)/system-sleep $(DESTDIR)$(SYSTEMDUNITDIR)
	$(SUBST) dist/85-hdparm.rules.in > $(DESTDIR)$(UDEVDIR)/rules.d/85-hdparm.rules
	$(SUBST) dist/hdparm.sleep.in > $(DESTDIR)$(SYSTEMDUTILDIR)/system-sleep/hdparm
	chmod 0755 $(DESTDIR)$(SYSTEMDUTILDIR)/system-sleep/hdparm
	$(SUBST) dist/hdparm-idle.service.in > $(DESTDIR)$(SYSTEMDUNITDIR)/hdparm-idle.service
	$(SUBST) dist/hdparm-metrics.service.in > $(DESTDIR)$(SYSTEMDUNITDIR)/hdparm-metrics.service
	$(SUBST) dist/hdparm-metrics.timer.in > $(DESTDIR)$(SYSTEMDUNITDIR)/hdparm-metrics.timer

clean:
	rm -f hdparm $(OBJS)
	rm -rf tests/out tests/fuzz/bin

.PHONY: all check lint fuzz bench install install-integration clean
