# hdparm: get/set ATA drive parameters.
# The project's own flags stay in variables of its own, so that CFLAGS,
# CPPFLAGS and LDFLAGS given on make's command line (as distributions'
# build systems pass them) add to them instead of replacing them.
CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=
HDPARM_CFLAGS = -std=gnu11 -Wall -Wextra
# 64-bit file offsets on 32-bit systems too: disks and files past 2 GiB.
HDPARM_CPPFLAGS = -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64
HDPARM_LDLIBS = -pthread
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR = $(PREFIX)/sbin
MANDIR = $(PREFIX)/share/man/man8

SRCS = hdparm.c options.c option_values.c actions.c confirm.c disk.c idle.c ata_disk.c settings.c blockdev.c sectors.c checks.c inuse.c trim.c security.c sanitize.c epc.c dco.c firmware.c files.c nvme.c nvme_disk.c nvme_erase.c nvme_identify.c erasecheck.c sysfs.c standby.c json.c identify_decode.c identify_text.c identify_brief.c identify_json.c identify_hex.c sgio.c modes.c benchmark.c iodepth.c readq.c ranges.c partition.c progress.c report.c sense.c scsi.c scsi_pages.c scsi_disk.c scsi_power.c scsi_erase.c reach.c sg.c temperature.c flush.c power_mode.c cache.c power_now.c standby_timer.c sanitize_wait.c read_sector.c sanitize_start.c format_erase.c describe.c sanitize_status.c
OBJS = $(SRCS:.c=.o)
HDRS = $(wildcard *.h)

all: hdparm

hdparm: $(OBJS)
	$(CC) $(HDPARM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS) $(HDPARM_LDLIBS)

%.o: %.c $(HDRS)
	$(CC) $(HDPARM_CPPFLAGS) $(CPPFLAGS) $(HDPARM_CFLAGS) $(CFLAGS) -c -o $@ $<

# STRICT=1: any part that cannot run here is a failure (tests/setup installs all).
check: hdparm
	STRICT="$(STRICT)" SKIP_VM="$(SKIP_VM)" SKIP_CROSS="$(SKIP_CROSS)" bash tests/run-tests.sh

# Static analysis: both must be clean, and then nothing is printed; SG_IO goes out from sg.c alone
# (clang-tidy's count of the warnings it suppressed in system headers is left out).
lint:
	@n=$$(cat $(SRCS) | grep -c 'ioctl([^;]*SG_IO[,)]'); [ "$$n" = 1 ] || { echo "lint: $$n ioctl(SG_IO) call sites; one is wanted, in sg.c" >&2; exit 1; }
	@cppcheck --enable=warning,performance,portability --error-exitcode=1 --quiet -D_GNU_SOURCE $(SRCS) tests/tools/*.c
	@clang-tidy --quiet $(SRCS) -- -std=gnu11 -D_GNU_SOURCE 2> .lint.err; rc=$$?; \
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

install: hdparm
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)
	install -m 0755 hdparm $(DESTDIR)$(SBINDIR)/hdparm
	install -m 0644 hdparm.8 $(DESTDIR)$(MANDIR)/hdparm.8

clean:
	rm -f hdparm $(OBJS)
	rm -rf tests/out tests/fuzz/bin

.PHONY: all check lint fuzz bench install clean
