#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""rqwait.py - the run-queue wait of a command's tasks, independently of
schedlab: listens to the kernel's taskstats exit records (generic netlink,
Documentation/accounting/taskstats.rst) while COMMAND runs, then sums
cpu_delay_total and cpu_count over the tasks that belong to the workload
process (the schedlab child that runs the workers): its threads and
descendants, itself excluded - what schedlab sums too.

Prints one JSON line: {"tasks": N, "cpu_delay_s": S, "cpu_count": C} and
passes COMMAND's stdout through to the file given with -o.

Needs root (CAP_NET_ADMIN) and kernel.task_delayacct = 1.

usage: rqwait.py -o OUT -- COMMAND...
"""
import json
import os
import socket
import struct
import subprocess
import sys

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
TASKSTATS_CMD_GET = 1
TS_ATTR_REGISTER_CPUMASK = 3
TS_TYPE_PID = 1
TS_TYPE_STATS = 3
TS_TYPE_AGGR_PID = 4
NLM_F_REQUEST = 1
NLMSG_ERROR = 2

# Offsets in struct taskstats, from the system's linux/taskstats.h:
# bench/probes-vs-perf.sh compiles them (offsetof) and passes them in
# TS_OFFSETS="cpu_count cpu_delay_total ac_pid ac_ppid ac_tgid".
OFF = dict(zip(["count", "delay", "pid", "ppid", "tgid"],
               map(int, os.environ.get("TS_OFFSETS", "").split() or [-1] * 5)))


def attrs(buf):
    i = 0
    while i + 4 <= len(buf):
        ln, typ = struct.unpack_from("HH", buf, i)
        if ln < 4:
            break
        yield typ & 0x3fff, buf[i + 4:i + ln]
        i += (ln + 3) & ~3


def msg(typ, cmd, version, payload, seq=1):
    body = struct.pack("BBH", cmd, version, 0) + payload
    return struct.pack("IHHII", 16 + len(body), typ, NLM_F_REQUEST, seq, 0) + body


def attr(typ, data):
    a = struct.pack("HH", 4 + len(data), typ) + data
    return a + b"\0" * (((len(a) + 3) & ~3) - len(a))


def messages(data):
    i = 0
    while i + 16 <= len(data):
        ln, typ = struct.unpack_from("IH", data, i)
        if ln < 16:
            break
        yield typ, data[i + 16:i + ln]
        i += (ln + 3) & ~3


def main():
    args = sys.argv[1:]
    if len(args) < 4 or args[0] != "-o" or args[2] != "--":
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    out, cmd = args[1], args[3:]
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    s.setsockopt(socket.SOL_SOCKET, 33, 64 << 20)  # SO_RCVBUFFORCE
    s.bind((0, 0))
    s.send(msg(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1,
               attr(CTRL_ATTR_FAMILY_NAME, b"TASKSTATS\0")))
    family = None
    for typ, body in messages(s.recv(65536)):
        for t, v in attrs(body[4:]):
            if t == CTRL_ATTR_FAMILY_ID:
                family = struct.unpack_from("H", v)[0]
    if family is None:
        sys.exit("no TASKSTATS netlink family")
    mask = "0-%d" % (os.cpu_count() - 1)
    s.send(msg(family, TASKSTATS_CMD_GET, 1,
               attr(TS_ATTR_REGISTER_CPUMASK, mask.encode() + b"\0")))
    with open(out, "w") as f:
        rc = subprocess.call(cmd, stdout=f)
    me = os.getpid()
    recs = []
    s.setblocking(False)
    while True:
        try:
            data = s.recv(1 << 20)
        except BlockingIOError:
            break
        for typ, body in messages(data):
            if typ != family:
                continue
            for t, v in attrs(body[4:]):
                if t != TS_TYPE_AGGR_PID:
                    continue
                for t2, v2 in attrs(v):
                    if t2 == TS_TYPE_STATS:
                        f = {k: struct.unpack_from("Q" if k in ("count", "delay") else "I", v2, o)[0]
                             for k, o in OFF.items()}
                        recs.append(f)
    # schedlab is our child; its workload process, a child of schedlab
    # and a process (pid == tgid), runs the workers: its threads, its
    # children and their descendants
    sl = {r["pid"] for r in recs if r["ppid"] == me and r["pid"] == r["tgid"]}
    wl = {r["pid"] for r in recs if r["ppid"] in sl and r["pid"] == r["tgid"]}
    tree, grew = set(), True
    while grew:
        grew = False
        for r in recs:
            if r["pid"] in tree or r["pid"] in wl:
                continue
            if r["tgid"] in wl | tree or (r["ppid"] in wl | tree and r["pid"] == r["tgid"]):
                tree.add(r["pid"])
                grew = True
    sel = [r for r in recs if r["pid"] in tree]
    print(json.dumps({
        "tasks": len(sel),
        "cpu_delay_s": sum(r["delay"] for r in sel) / 1e9,
        "cpu_count": sum(r["count"] for r in sel),
        "command_status": rc,
    }))


if __name__ == "__main__":
    main()
