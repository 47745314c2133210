#!/usr/bin/python3
"""A disk that fails and delays reads at chosen sectors, for the tests (FUSE, python3-fusepy).

    faulty-disk.py [options] IMAGE MOUNTPOINT

serves one file, MOUNTPOINT/disk, whose bytes are IMAGE's (read and written through).  Sectors
are 512 bytes, numbered from 0 (LBA).  Options (each may be given many times):

  --bad LBA[+COUNT]        reads that touch these sectors fail with EIO, and only those: a read
                           of good and bad sectors fails as a whole, as a drive's would, and a
                           reader that asks sector by sector finds the exact LBAs
  --slow LBA[+COUNT]:MS    reads that touch these sectors take MS ms more (the largest MS of
                           the sectors a read touches, once per read)
  --flaky LBA[+COUNT]:N    the first N reads that touch these sectors fail with EIO, later
                           ones read (a marginal sector that a retry gets through)
  --die-at LBA:N           from the Nth read that touches LBA on, every read and write fails
                           with EIO, the sectors that read before too (a disk that dropped off
                           its bus at a chosen moment, without a timing)
  --hold LBA:FILE          the first read that touches LBA logs "held LBA" and waits until FILE
                           exists (a test sends its signal meanwhile: no timing), then reads
  --heal-on-write          a write that covers a bad sector whole makes it good (as a drive
                           reallocates a pending sector); one that covers part of a bad sector
                           fails with EIO (the drive cannot read what it would keep)
  --log FILE               a line per read and write, appended as it happens:
                             read OFFSET SIZE FIRST_LBA LAST_LBA ok|EIO DELAY_MS
                             write OFFSET SIZE FIRST_LBA LAST_LBA ok|EIO HEALED
  --daemon                 return once the file system is mounted (exit 1 if it never was);
                           the server goes on in the background
  --pid-file FILE          the server's process id, written once mounted
  --owner PID              when process PID ends (a test killed with SIGKILL, which no trap
                           sees), detach the loop devices over the file and unmount
  --lifetime SEC           after SEC seconds, end with SIGKILL, whatever this program is doing:
                           the kernel then fails every pending and later read of the file
                           (ENOTCONN, EIO through a loop device), so a server that hangs (a
                           bug here) fails a suite instead of hanging it; a reader of the loop
                           device waits in uninterruptible sleep, which no signal to it ends.
                           Says so on stderr and in the log ("lifetime over SEC"); SIGALRM
                           (its default action) ends it 2 s later should python itself hang
  --hold-read LBA[+COUNT]:FILE   the first read of exactly these sectors (one, unless COUNT)
                           is answered, logged, then logs "held LBA COUNT" and waits until FILE
                           exists: a test sends its signal meanwhile and knows which read the
                           reader is in (a search's one sector, not the block read that
                           touched it first); given several times, each is held once

The file is served with FUSE's direct_io: no page cache and no read-ahead between the reader
and this program, so each read arrives here with its own offset and size, and a failure is not
widened to a page.  SIGTERM, SIGINT and SIGHUP unmount and end the server (libfuse's handlers).
"""
import argparse
import errno
import os
import signal
import stat
import subprocess
import sys
import threading
import time

try:
    import fusepy as fuse  # Debian's python3-fusepy
except ImportError:
    import fuse  # pip's fusepy

SECTOR = 512


def lba_range(text):
    first, _, count = text.partition('+')
    first, count = int(first, 0), int(count, 0) if count else 1
    if first < 0 or count < 1:
        raise argparse.ArgumentTypeError('want LBA[+COUNT], COUNT >= 1: %r' % text)
    return first, count


def slow_range(text):
    where, sep, ms = text.rpartition(':')
    if not sep:
        raise argparse.ArgumentTypeError('want LBA[+COUNT]:MS: %r' % text)
    first, count = lba_range(where)
    ms = int(ms, 0)
    if ms < 0:
        raise argparse.ArgumentTypeError('want MS >= 0: %r' % text)
    return first, count, ms


def held_read(text):
    where, sep, path = text.partition(':')
    if not sep or not path:
        raise argparse.ArgumentTypeError('want LBA[+COUNT]:FILE: %r' % text)
    first, count = lba_range(where)
    return first, count, path


def flaky_range(text):
    where, sep, n = text.rpartition(':')
    if not sep or int(n, 0) < 1:
        raise argparse.ArgumentTypeError('want LBA[+COUNT]:N, N >= 1: %r' % text)
    first, count = lba_range(where)
    return first, count, int(n, 0)


def hold_at(text):
    lba, sep, path = text.partition(':')
    if not sep or not path:
        raise argparse.ArgumentTypeError('want LBA:FILE: %r' % text)
    return int(lba, 0), path


class FaultyDisk(fuse.Operations):
    use_ns = True

    def __init__(self, args, ready_fd):
        self.fd = os.open(args.image, os.O_RDWR)
        self.size = os.fstat(self.fd).st_size
        self.bad = set()
        for first, count in args.bad:
            self.bad.update(range(first, first + count))
        self.slow = args.slow
        self.flaky = {}
        for first, count, n in args.flaky:
            self.flaky.update((lba, n) for lba in range(first, first + count))
        self.heal = args.heal_on_write
        # (LBA, reads that touch it left before the disk dies) or None
        self.die_at = (args.die_at[0], args.die_at[2]) if args.die_at else None
        self.dead = False
        self.hold = args.hold  # (lba, file) or None
        self.log = open(args.log, 'a', buffering=1) if args.log else None
        self.mutex = threading.Lock()
        self.ready_fd = ready_fd
        self.pid_file = args.pid_file
        self.owner = args.owner
        self.lifetime = args.lifetime
        self.mountpoint = os.path.abspath(args.mountpoint)
        self.now = time.time_ns()
        self.held_reads = list(args.hold_read)  # (first, count, file), each once

    def init(self, path):
        # Mounted: tell whoever waits (--daemon's parent), then write the pid.
        if self.pid_file:
            with open(self.pid_file, 'w') as f:
                f.write('%d\n' % os.getpid())
        if self.ready_fd is not None:
            os.write(self.ready_fd, b'up\n')
            os.close(self.ready_fd)
            self.ready_fd = None
        if self.owner:
            threading.Thread(target=self.watch_owner, args=(path,), daemon=True).start()

    def expire(self):
        # Not through note(): its lock may be the very thing that hangs.
        print('faulty-disk: lifetime over (%g s): ending with SIGKILL' % self.lifetime, file=sys.stderr)
        if self.log:
            self.log.write('lifetime over %g\n' % self.lifetime)
        os.kill(os.getpid(), signal.SIGKILL)

    def watch_owner(self, mountpoint):
        while True:
            try:
                os.kill(self.owner, 0)
            except ProcessLookupError:
                break
            except PermissionError:
                pass
            time.sleep(0.2)
        # The owner is gone: no loop device over the disk, then libfuse's SIGTERM (unmount, end).
        disk = os.path.join(self.mountpoint, 'disk')
        found = subprocess.run(['losetup', '-j', disk], capture_output=True, text=True).stdout
        for dev in [line.split(':', 1)[0] for line in found.splitlines() if line]:
            subprocess.run(['losetup', '-d', dev], capture_output=True)
        os.kill(os.getpid(), signal.SIGTERM)

    def note(self, *fields):
        if self.log:
            with self.mutex:
                self.log.write(' '.join(str(f) for f in fields) + '\n')

    def getattr(self, path, fh=None):
        t = self.now
        if path == '/':
            return dict(st_mode=stat.S_IFDIR | 0o755, st_nlink=2, st_atime=t, st_mtime=t, st_ctime=t)
        if path == '/disk':
            return dict(st_mode=stat.S_IFREG | 0o644, st_nlink=1, st_size=self.size,
                        st_blocks=(self.size + 511) // 512, st_atime=t, st_mtime=t, st_ctime=t)
        raise fuse.FuseOSError(errno.ENOENT)

    def readdir(self, path, fh):
        return ['.', '..', 'disk']

    def open(self, path, flags):
        if path != '/disk':
            raise fuse.FuseOSError(errno.ENOENT)
        return 0

    def truncate(self, path, length, fh=None):
        # A disk does not change size.
        raise fuse.FuseOSError(errno.EPERM)

    def span(self, offset, size):
        end = min(offset + size, self.size)
        if end <= offset:
            return None
        return offset // SECTOR, (end - 1) // SECTOR

    def read(self, path, size, offset, fh):
        span = self.span(offset, size)
        if span is None:
            return b''
        first, last = span
        if self.hold and first <= self.hold[0] <= last:
            lba, release = self.hold
            self.hold = None
            self.note('held', lba)
            while not os.path.exists(release):
                time.sleep(0.02)
        delay = max((ms for f, c, ms in self.slow if f <= last and first < f + c), default=0)
        if delay:
            time.sleep(delay / 1000)
        with self.mutex:
            if self.die_at and first <= self.die_at[0] <= last:
                self.die_at = (self.die_at[0], self.die_at[1] - 1)
                self.dead = self.dead or self.die_at[1] <= 0
            failed = self.dead or any(lba in self.bad for lba in range(first, last + 1))
            for lba in range(first, last + 1):
                if self.flaky.get(lba, 0) > 0:
                    self.flaky[lba] -= 1
                    failed = True
        self.note('read', offset, size, first, last, 'EIO' if failed else 'ok', delay)
        self.hold_read(first, last)
        if failed:
            raise fuse.FuseOSError(errno.EIO)
        return os.pread(self.fd, size, offset)

    def hold_read(self, first, last):
        with self.mutex:
            held = [h for h in self.held_reads if (h[0], h[0] + h[1] - 1) == (first, last)][:1]
            for h in held:
                self.held_reads.remove(h)
        for lba, count, release in held:
            self.note('held', lba, count)
            while not os.path.exists(release):
                time.sleep(0.02)

    def write(self, path, data, offset, fh):
        span = self.span(offset, len(data))
        if span is None:
            raise fuse.FuseOSError(errno.ENOSPC)
        first, last = span
        end = offset + len(data)
        healed, part = 0, []
        # note() takes the mutex too (not reentrant): it is called after the block, never in it.
        if self.dead:
            self.note('write', offset, len(data), first, last, 'EIO', 0)
            raise fuse.FuseOSError(errno.EIO)
        with self.mutex:
            hit = [lba for lba in range(first, last + 1) if lba in self.bad]
            if self.heal and hit:
                part = [lba for lba in hit if lba * SECTOR < offset or (lba + 1) * SECTOR > end]
                if not part:
                    self.bad.difference_update(hit)
                    healed = len(hit)
        if part:
            self.note('write', offset, len(data), first, last, 'EIO', 0)
            raise fuse.FuseOSError(errno.EIO)
        n = os.pwrite(self.fd, data[:max(0, self.size - offset)], offset)
        self.note('write', offset, len(data), first, last, 'ok', healed)
        return n

    def fsync(self, path, datasync, fh):
        os.fsync(self.fd)
        return 0

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        return 0

    def statfs(self, path):
        return dict(f_bsize=SECTOR, f_frsize=SECTOR, f_blocks=self.size // SECTOR, f_namemax=255)


def main():
    p = argparse.ArgumentParser(description='A disk that fails and delays reads at chosen sectors.')
    p.add_argument('image')
    p.add_argument('mountpoint')
    p.add_argument('--bad', type=lba_range, action='append', default=[])
    p.add_argument('--slow', type=slow_range, action='append', default=[])
    p.add_argument('--flaky', type=flaky_range, action='append', default=[])
    p.add_argument('--heal-on-write', action='store_true')
    p.add_argument('--die-at', type=flaky_range)
    p.add_argument('--hold', type=hold_at)
    p.add_argument('--log')
    p.add_argument('--daemon', action='store_true')
    p.add_argument('--pid-file')
    p.add_argument('--owner', type=int)
    p.add_argument('--lifetime', type=float)
    p.add_argument('--hold-read', type=held_read, action='append', default=[])
    args = p.parse_args()
    if args.lifetime is not None and not args.lifetime > 0:
        p.error('--lifetime: want seconds > 0')
    try:
        size = os.stat(args.image).st_size
    except OSError as e:
        p.error('%s: %s' % (args.image, e.strerror))
    if size == 0 or size % SECTOR:
        p.error('%s: its size (%d) is not a whole number of 512-byte sectors' % (args.image, size))
    sectors = size // SECTOR
    for first, count, *ms in args.bad + args.slow + args.flaky:
        if first + count > sectors:
            p.error('%d+%d: past the last LBA of %s (%d)' % (first, count, args.image, sectors - 1))
    if not os.path.isdir(args.mountpoint):
        p.error('%s: not a directory' % args.mountpoint)
    ready_fd = None
    if args.daemon:
        r, w = os.pipe()
        pid = os.fork()
        if pid:
            os.close(w)
            up = os.read(r, 3) == b'up\n'
            if not up:
                print('faulty-disk: the file system did not mount', file=sys.stderr)
            sys.exit(0 if up else 1)
        os.close(r)
        os.setsid()
        ready_fd = w
    ops = FaultyDisk(args, ready_fd)
    if args.lifetime:
        # From the main thread, before the mount: a timer that says why, and behind it the kernel's
        # own SIGALRM (default action: the end of the process), which needs no python thread to run.
        timer = threading.Timer(args.lifetime, ops.expire)
        timer.daemon = True
        timer.start()
        signal.alarm(int(args.lifetime) + 2)
    # foreground: libfuse's own daemonizing would fork after the mount, behind python's back.
    fuse.FUSE(ops, args.mountpoint, foreground=True, nothreads=False, direct_io=True,
              big_writes=True, fsname='faulty-disk', subtype='faulty-disk')


if __name__ == '__main__':
    main()
