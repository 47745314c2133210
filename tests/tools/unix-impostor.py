#!/usr/bin/env python3
# unix-impostor.py PARENT MEMBER... -- forge GATE|flood N [GATE]: another local process (any user: an
# abstract AF_UNIX name has no file mode) aims datagrams at the sockets a run of many disks
# reads its disks' stdout and stderr on (run/together_streams.c), PARENT's named sockets.
#   forge: from each MEMBER's stdout name (/proc/net/unix, read while it runs; then it
#          creates the file GATE), taken once it is free again (every MEMBER has ended: 10 s at most), one line "FORGED ..." to each;
#   flood N: N datagrams "junk" to each, from sockets of no name.
# Prints what it sent: "forged K", "flooded K".
import os
import socket
import sys
import time


def inodes(pid, fds=None):
    found = []
    for fd in fds or os.listdir(f"/proc/{pid}/fd"):
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            found.append(link[8:-1])
    return found


def abstract_names():
    names = {}
    with open("/proc/net/unix") as f:
        for line in f.read().splitlines()[1:]:
            field = line.split()
            if len(field) >= 8 and field[7].startswith("@"):
                names[field[6]] = b"\0" + field[7][1:].encode()
    return names


def ended(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def main():
    cut = sys.argv.index("--")
    parent, members, (mode, *arg) = sys.argv[1], sys.argv[2:cut], sys.argv[cut + 1:]
    names = abstract_names()
    targets = [names[i] for i in inodes(parent) if i in names]
    sent = 0
    if mode == "forge":
        outs = [names[i] for m in members for i in inodes(m, ["1"]) if i in names]
        open(arg[0], "w").close()
        deadline = time.monotonic() + 10
        while not all(ended(m) for m in members) and time.monotonic() < deadline:
            time.sleep(0.05)
        for name in outs:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            try:
                s.bind(name)
            except OSError as e:
                print(f"bind: {e}")
                continue
            for t in targets:
                try:
                    s.sendto(b"FORGED: said by another process\n", t)
                    sent += 1
                except OSError:
                    pass
        print(f"forged {sent}")
    else:
        for t in targets:
            for k in range(int(arg[0])):
                # A socket each 100: what one has in flight is bounded by its send buffer.
                if k % 100 == 0:
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                    s.setblocking(False)
                try:
                    s.sendto(b"junk\n", t)
                    sent += 1
                except OSError:
                    break
        print(f"flooded {sent}")


main()
