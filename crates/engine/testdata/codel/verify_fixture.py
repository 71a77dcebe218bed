#!/usr/bin/env python3
"""Replay a codel-oracle fixture through an independent model of SPEC.md and
check every line.

The model below is written from SPEC.md (not from ns-3 code). It is driven only
by the *calls* recorded in the fixture (enqueue attempts and DoDequeue calls,
with their times); every other line (drops, marks, state changes, dequeued
packet, sojourn, backlog) is an expectation that the model must reproduce
exactly. Exit status 0 = the fixture and the spec agree on every line.

usage: verify_fixture.py fixtures/*.txt
"""
import re
import sys
from collections import deque

SHIFT = 10
U32 = 0xFFFFFFFF
REC_INV_SQRT_SHIFT = 16  # 32 - 16-bit width


def t2c(ns):
    """ns-3 Time (integer ns) -> CoDel time (uint32, units of 1024 ns)."""
    return (ns >> SHIFT) & U32


def newton_step(rec, count):
    invsqrt = (rec << REC_INV_SQRT_SHIFT) & U32
    invsqrt2 = (invsqrt * invsqrt) >> 32
    val = ((3 << 32) - count * invsqrt2) & 0xFFFFFFFFFFFFFFFF
    val >>= 2
    val = ((val * invsqrt) & 0xFFFFFFFFFFFFFFFF) >> (32 - 2 + 1)
    return (val >> REC_INV_SQRT_SHIFT) & 0xFFFF


def control_law(t, interval, rec):
    return (t + (((interval * ((rec << REC_INV_SQRT_SHIFT) & U32)) >> 32) & U32)) & U32


def parse_time(s):
    m = re.fullmatch(r"([0-9.]+)(ns|us|ms|s)", s)
    v, u = float(m.group(1)), m.group(2)
    return int(round(v * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[u]))


class Model:
    def __init__(self, target_ns, interval_ns, min_bytes, max_size, use_ecn, ce_ns):
        self.target = t2c(target_ns)
        self.interval = t2c(interval_ns)
        self.min_bytes = min_bytes
        m = re.fullmatch(r"(\d+)(B|p)", max_size)
        self.max_val, self.max_unit = int(m.group(1)), m.group(2)
        self.use_ecn = use_ecn
        # CeThreshold default is Time::Max(): (2^63-1)>>10 truncated to 32 bits
        self.ce = U32 if ce_ns is None else t2c(ce_ns)
        self.q = deque()  # (seq, size, enq_ns, ect)
        self.bytes = 0
        # traced state
        self.count = 0
        self.lastcount = 0
        self.dropping = False
        self.drop_next = 0
        # untraced state
        self.rec = 0xFFFF
        self.first_above = 0
        self.out = []

    # traced setters (a line only when the value changes, like TracedValue)
    def set_dropping(self, v):
        if v != self.dropping:
            self.dropping = v
            self.out.append(("dropping", 1 if v else 0, {"qbytes": self.bytes}))

    def set_count(self, v):
        if v != self.count:
            self.count = v
            self.out.append(("count", v, {}))

    def set_lastcount(self, v):
        if v != self.lastcount:
            self.lastcount = v
            self.out.append(("lastcount", v, {}))

    def set_drop_next(self, v):
        if v != self.drop_next:
            self.drop_next = v
            self.out.append(("drop_next", v, {}))

    def enqueue(self, t, size, seq, ect):
        self.out = []
        cur = self.bytes if self.max_unit == "B" else len(self.q)
        add = size if self.max_unit == "B" else 1
        if cur + add > self.max_val:
            self.out.append(("drop(overlimit)", size, {"seq": seq, "ect": int(ect), "qbytes": self.bytes}))
            return self.out
        self.q.append((seq, size, t, ect))
        self.bytes += size
        self.out.append(("enqueue", size, {"seq": seq, "ect": int(ect), "qbytes": self.bytes}))
        return self.out

    def pop(self):
        if not self.q:
            return None
        p = self.q.popleft()
        self.bytes -= p[1]
        return p

    def ok_to_drop(self, p, now, t):
        if p is None:
            self.first_above = 0
            return False
        soj = t2c(t - p[2])
        if soj < self.target or self.bytes < self.min_bytes:
            self.first_above = 0
            return False
        if self.first_above == 0:
            self.first_above = (now + self.interval) & U32
            return False
        return now > self.first_above

    def drop(self, p, t):
        self.out.append(("drop(target)", p[1], {"seq": p[0], "sojourn_ns": t - p[2], "qbytes": self.bytes}))

    def mark(self, p, t, reason):
        if not (self.use_ecn and p[3]):
            return False
        self.out.append(("mark(%s)" % reason, p[1], {"seq": p[0], "sojourn_ns": t - p[2], "qbytes": self.bytes}))
        return True

    def mark_ce(self, p, t):
        # CE-threshold marking only needs an ECN-capable packet (Mark() succeeds)
        if not p[3]:
            return False
        self.out.append(("mark(ce_threshold)", p[1], {"seq": p[0], "sojourn_ns": t - p[2], "qbytes": self.bytes}))
        return True

    def dequeue(self, t):
        self.out = []
        p = self.pop()
        if p is None:
            self.set_dropping(False)
            self.out.append(("dequeue_empty", 0, {"qbytes": self.bytes}))
            return self.out
        now = t2c(t)
        ok = self.ok_to_drop(p, now, t)
        marked = False
        if self.dropping:
            if not ok:
                self.set_dropping(False)
            elif now >= self.drop_next:
                while self.dropping and now >= self.drop_next:
                    self.set_count((self.count + 1) & U32)
                    self.rec = newton_step(self.rec, self.count)
                    if self.use_ecn and self.mark(p, t, "target"):
                        marked = True
                        self.set_drop_next(control_law(now, self.interval, self.rec))
                        break
                    self.drop(p, t)
                    p = self.pop()
                    if not self.ok_to_drop(p, now, t):
                        self.set_dropping(False)
                    else:
                        self.set_drop_next(control_law(self.drop_next, self.interval, self.rec))
        elif ok:
            if self.use_ecn and self.mark(p, t, "target"):
                marked = True
            else:
                self.drop(p, t)
                p = self.pop()
                self.ok_to_drop(p, now, t)
            self.set_dropping(True)
            delta = (self.count - self.lastcount) & U32
            if delta >= 0x80000000:
                delta -= 1 << 32  # ns-3 stores it in an int
            if delta > 1 and ((now - self.drop_next) & U32) < 16 * self.interval:
                self.set_count(delta)
                self.rec = newton_step(self.rec, self.count)
            else:
                self.set_count(1)
                self.rec = 0xFFFF
            self.set_lastcount(self.count)
            self.set_drop_next(control_law(now, self.interval, self.rec))
        # CE threshold (UseL4s=false path)
        if p is not None and not marked and self.use_ecn and t2c(t - p[2]) > self.ce:
            self.mark_ce(p, t)
        if p is None:
            raise RuntimeError("ns-3 would dereference a null item here (MinBytes=0 corner)")
        self.out.append(("dequeue", p[1], {"seq": p[0], "sojourn_ns": t - p[2], "qbytes": self.bytes}))
        return self.out


def parse_line(line):
    f = line.split()
    kv = {}
    for x in f[3:]:
        k, v = x.split("=")
        kv[k] = int(v)
    return int(f[0]), f[1], int(f[2]), kv


def verify(path):
    lines = [l.rstrip("\n") for l in open(path)]
    hdr = {}
    for l in lines:
        if l.startswith("# target="):
            for x in l[2:].split():
                k, v = x.split("=", 1)
                hdr[k] = v
    ce = None if hdr["ceThreshold"].startswith("default") else parse_time(hdr["ceThreshold"])
    m = Model(parse_time(hdr["target"]), parse_time(hdr["interval"]), int(hdr["minBytes"]),
              hdr["maxSize"], hdr["useEcn"] == "1", ce)
    ev = [parse_line(l) for l in lines if l and not l.startswith("#")]
    i = 0
    ncalls = 0
    while i < len(ev):
        t, name, val, kv = ev[i]
        if name in ("enqueue", "drop(overlimit)"):
            got = m.enqueue(t, val, kv["seq"], kv["ect"] == 1)
            want = [ev[i]]
            i += 1
        else:
            j = i
            while ev[j][1] not in ("dequeue", "dequeue_empty"):
                j += 1
            got = m.dequeue(t)
            want = ev[i:j + 1]
            i = j + 1
        ncalls += 1
        got_norm = [(t, n, v, kv) for (n, v, kv) in got]
        if got_norm != list(want):
            print("%s: MISMATCH at call %d (t=%d ns)" % (path, ncalls, t))
            print("  fixture:", want)
            print("  model:  ", got_norm)
            return False
    print("%s: OK (%d calls, %d lines replayed)" % (path, ncalls, len(ev)))
    return True


if __name__ == "__main__":
    ok = all([verify(p) for p in sys.argv[1:]])
    sys.exit(0 if ok else 1)
