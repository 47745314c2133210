# hdparm: get/set ATA drive parameters.
CC ?= cc
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra
CPPFLAGS += -D_GNU_SOURCE
LDFLAGS ?=
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR = $(PREFIX)/sbin
MANDIR = $(PREFIX)/share/man/man8

SRCS = hdparm.c actions.c settings.c sectors.c nvme.c sysfs.c json.c identify.c sgio.c modes.c benchmark.c iodepth.c ranges.c partition.c
OBJS = $(SRCS:.c=.o)
HDRS = $(wildcard *.h)

all: hdparm

hdparm: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

%.o: %.c $(HDRS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

check: hdparm
	bash tests/run-tests.sh

# Static analysis: both must be clean.
lint:
	cppcheck --enable=warning,performance,portability --error-exitcode=1 --quiet -D_GNU_SOURCE $(SRCS) tests/tools/*.c
	clang-tidy --quiet $(SRCS) -- -std=gnu11 -D_GNU_SOURCE

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
