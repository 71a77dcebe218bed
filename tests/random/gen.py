#!/usr/bin/env python3
"""Random ns-2 2.35 scenario generator for differential tests.

    python3 tests/random/gen.py SEED              script on stdout
    python3 tests/random/gen.py SEED -o x.tcl     script to a file
    python3 tests/random/gen.py SEED --meta       the scenario's features (JSON)
    python3 tests/random/gen.py SEED --stress     RED/ECN/error models, more of them
    python3 tests/random/gen.py SEED --vegas      some flows are TCP Vegas
    python3 tests/random/gen.py SEED --fack       some flows are TCP FACK
    python3 tests/random/gen.py SEED --tfrc       TFRC flows too (Agent/TFRC, Agent/TFRCSink)
    python3 tests/random/gen.py SEED --queues     DRR, SFQ, Vq, GK and CBQ queues on some links
                                                  (CBQ leaves of DropTail, SFQ, DRR, PI, REM,
                                                  Vq, GK, SRR, RIO)
    python3 tests/random/gen.py SEED --aqm        RIO and REM queues on some links
    python3 tests/random/gen.py SEED --diffserv   DiffServ edge and core queues on some links
    python3 tests/random/gen.py SEED --lan        one or two wired LANs over some nodes
    python3 tests/random/gen.py SEED --full       two-way TCP too (Agent/TCP/FullTcp and variants)
    python3 tests/random/gen.py SEED --xcp        XCP queues and flows (Queue/XCP, TCP/Reno/XCP)
    python3 tests/random/gen.py SEED --rbp        some flows are TCP Vegas/RBP or Reno/RBP
    python3 tests/random/gen.py SEED --delaybox   some nodes are DelayBoxes
    python3 tests/random/gen.py SEED --bay        Bay two-way TCP with FTP client/server
    python3 tests/random/gen.py SEED --sched      PI, FQ, SRR and PriQueue queues on some links
                                                  (FQ flow queues of DropTail, RED, SFQ, DRR,
                                                  PI, REM, Vq, GK, SRR, RIO, PriQueue)
    python3 tests/random/gen.py SEED --redpd      RED-PD queues with their flow monitors
    python3 tests/random/gen.py SEED --jobs-queues  a JoBS network (Marker, JoBS, Demarker) beside

From an integer seed, writes an ns-2 script that uses only what Dumbbell
supports: wired nodes, duplex/simplex DropTail/RED links (64Kb..1Gb, 0..200ms,
assorted units), queue-limit, link costs, random connected topologies
(chains, rings, trees, stars, meshes, grids, full meshes, dumbbells; 2-20
nodes), 1-12 one-way TCP flows (Tahoe, Reno, Newreno) with TCPSink or
TCPSink/DelAck, FTP start/stop/produce/producemore, class-level and
per-object TCP settings, trace-all / trace-queue, variable traces, queue
monitors, mid-run Tcl callbacks and a finish proc that prints counters.
About half of the seeds also get RED queues (every Queue/RED parameter,
traces of ave_/curq_/prob1_/cur_max_p_), ECN-capable flows and error
models (ErrorModule, insert-linkloss); those are drawn from separate
random streams, so the other seeds' scripts did not change when they came.

The same seed always gives the same script, byte for byte, on every
platform and Python version: the generator has its own PRNG (splitmix64)
and computes every number it prints with integer arithmetic.  Floats are
used only for the traffic estimate that keeps each run's packet trace under
about 5 MB and its run time short.

Standard library only.
"""

from __future__ import annotations

import argparse
import json
import sys

M64 = (1 << 64) - 1

# ns-2 2.35 class defaults used by the traffic estimate.
NS_DEFAULTS = {"window_": 20, "packetSize_": 1000, "windowInit_": 2, "maxburst_": 0}

TRACE_BUDGET = 4.0e6      # estimated bytes of packet + variable traces per run
EVENT_BUDGET = 4.0e6      # estimated packet-hops per run (actual ~1/8 of it: runs stay ~1 s)
TRACE_LINE = 62.0         # bytes per packet-trace line (estimate)
VAR_LINE = 40.0           # bytes per variable-trace line (estimate)
RED_LINE = 26.0           # bytes per RED variable-trace line (estimate)

# Share of seeds (percent) with RED queues, ECN and/or error models.  The
# choice and all their details come from random streams of their own, so
# the other seeds' scripts are the ones gen.py wrote before these existed.
EXT_PERCENT = 48
RED_TRACEABLE = ["curq_", "ave_", "prob1_", "cur_max_p_"]
RED_READ = ["ave_", "prob1_", "curq_", "cur_max_p_", "q_weight_", "thresh_", "maxthresh_",
            "thresh_queue_", "maxthresh_queue_", "bottom_", "linterm_", "mean_pktsize_", "limit_",
            "setbit_", "gentle_", "bytes_", "queue_in_bytes_", "adaptive_", "alpha_", "beta_"]
ECN_VARS = ["necnresponses_", "ncwndcuts_", "ncwndcuts1_", "ecn_"]

FLAVOURS = ["TCP", "TCP/Reno", "TCP/Newreno"]
SINKS = ["TCPSink", "TCPSink/DelAck"]
TRACEABLE = ["cwnd_", "ssthresh_", "ack_", "maxseq_", "rtt_", "srtt_", "rttvar_",
             "dupacks_", "backoff_", "t_seqno_"]
FINISH_VARS = ["ack_", "maxseq_", "cwnd_", "ndatapack_", "nrexmitpack_"]
EXTRA_VARS = ["ssthresh_", "t_seqno_", "nrexmit_", "ndatabytes_", "nackpack_",
              "nrexmitbytes_", "dupacks_", "srtt_", "rttvar_", "backoff_", "rtt_",
              "window_", "packetSize_", "windowInit_", "maxburst_", "minrto_", "tcpTick_"]
QM_VARS = ["size_", "pkts_", "parrivals_", "barrivals_", "pdepartures_",
           "bdepartures_", "pdrops_", "bdrops_"]

# Further TCP and sink parameters Dumbbell's engine models (beyond the
# everyday ones above); a minority of scenarios sets one to three of them.
# (variable, [values], applies to: "tcp" | "newreno" | "sink")
EXTRA_KNOBS = [
    ("windowOption_", ["0", "2", "3", "4", "5", "6", "8"], "tcp"),
    ("windowConstant_", ["2", "8", "0.5"], "tcp"),
    ("windowThresh_", ["0.01", "0.1"], "tcp"),
    ("maxcwnd_", ["1", "3", "7", "16", "40"], "tcp"),
    ("max_ssthresh_", ["2", "8", "25", "100"], "tcp"),
    ("decrease_num_", ["0.3", "0.7", "0.875"], "tcp"),
    ("increase_num_", ["0.5", "2", "3"], "tcp"),
    ("maxrto_", ["1", "2", "5", "10"], "tcp"),
    ("rtxcur_init_", ["0.5", "1", "6"], "tcp"),
    ("srtt_init_", ["1", "2"], "tcp"),
    ("rttvar_init_", ["3", "24"], "tcp"),
    ("tcpip_base_hdr_size_", ["20", "52"], "tcp"),
    ("timestamps_", ["true", "1"], "tcp"),
    ("slow_start_restart_", ["false", "0"], "tcp"),
    ("bugFix_", ["false"], "tcp"),
    ("noFastRetrans_", ["true"], "tcp"),
    ("singledup_", ["0"], "tcp"),
    ("LimTransmitFix_", ["true"], "tcp"),
    ("exitFastRetrans_", ["false"], "tcp"),
    ("precisionReduce_", ["false"], "tcp"),
    ("windowInitOption_", ["2"], "tcp"),
    ("rfc2988_", ["false"], "tcp"),
    ("aggressive_maxburst_", ["0"], "tcp"),
    ("numdupacksFrac_", ["2", "4", "10"], "tcp"),
    ("delay_growth_", ["false"], "tcp"),
    ("ecn_", ["1", "true"], "tcp"),
    ("window_", ["12.5", "3.7", "30.25"], "tcp"),
    ("windowInit_", ["1.5", "2.9"], "tcp"),
    ("partial_window_deflation_", ["0"], "newreno"),
    ("newreno_changes_", ["1"], "newreno"),
    ("newreno_changes1_", ["0"], "newreno"),
    ("exit_recovery_fix_", ["1"], "newreno"),
    ("ttl_", ["1", "2", "3", "5"], "tcp"),
    ("ttl_", ["1", "2", "4"], "sink"),
    ("packetSize_", ["60", "100", "1"], "sink"),
    ("RFC2581_immediate_ack_", ["false"], "sink"),
    ("SYN_immediate_ack_", ["false"], "sink"),
    ("ts_echo_bugfix_", ["false"], "sink"),
    ("ts_echo_rfc1323_", ["true"], "sink"),
]


class Rng:
    """splitmix64: tiny, fast, identical everywhere."""

    def __init__(self, seed: int):
        self.s = (seed * 0x9E3779B97F4A7C15 + 0x5DEECE66D) & M64

    def next64(self) -> int:
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def randint(self, a: int, b: int) -> int:
        """Uniform integer in [a, b]."""
        return a + self.next64() % (b - a + 1)

    def chance(self, p_percent: int) -> bool:
        """True with probability p_percent/100 (integer percent, no floats)."""
        return self.randint(0, 99) < p_percent

    def choice(self, seq):
        return seq[self.randint(0, len(seq) - 1)]

    def weighted(self, pairs):
        """pairs: [(value, integer weight), ...]"""
        total = sum(w for _, w in pairs)
        k = self.randint(0, total - 1)
        for v, w in pairs:
            if k < w:
                return v
            k -= w
        raise AssertionError

    def shuffle(self, lst):
        for i in range(len(lst) - 1, 0, -1):
            j = self.randint(0, i)
            lst[i], lst[j] = lst[j], lst[i]

    def sample(self, seq, k):
        lst = list(seq)
        self.shuffle(lst)
        return lst[:k]


# ---- exact decimal formatting from integers -------------------------------------

def dec(num: int, scale: int) -> str:
    """num / 10**scale as a shortest decimal string: dec(2500, 3) -> '2.5'."""
    neg = num < 0
    num = abs(num)
    ip, fp = divmod(num, 10 ** scale)
    s = str(ip)
    if fp:
        s += "." + str(fp).rjust(scale, "0").rstrip("0")
    return ("-" if neg else "") + s


def fmt_us(us: int) -> str:
    """Microseconds as seconds."""
    return dec(us, 6)


# ---- topologies ---------------------------------------------------------------------

def topo_chain(r, n):
    return [(i, i + 1) for i in range(n - 1)], {}


def topo_ring(r, n):
    e = [(i, i + 1) for i in range(n - 1)] + [(n - 1, 0)]
    return e, {}


def topo_tree(r, n):
    style = r.choice(["random", "star", "binary", "caterpillar"])
    e = []
    for i in range(1, n):
        if style == "star":
            p = 0
        elif style == "binary":
            p = (i - 1) // 2
        elif style == "caterpillar":
            p = r.randint(max(0, i - 2), i - 1)
        else:
            p = r.randint(0, i - 1)
        e.append((p, i))
    leaves = [i for i in range(n) if sum(1 for a, b in e if i in (a, b)) == 1]
    return e, {"leaves": leaves, "style": style}


def topo_mesh(r, n):
    e, _ = topo_tree(r, n)
    have = {(min(a, b), max(a, b)) for a, b in e}
    cand = [(a, b) for a in range(n) for b in range(a + 1, n) if (a, b) not in have]
    if cand:
        k = r.randint(1, min(len(cand), 2 * n))
        e += r.sample(cand, k)
    return e, {}


def topo_full(r, n):
    return [(a, b) for a in range(n) for b in range(a + 1, n)], {}


def topo_grid(r, n):
    rows = r.randint(2, 4)
    cols = max(2, n // rows)
    e = []
    for i in range(rows):
        for j in range(cols):
            k = i * cols + j
            if j + 1 < cols:
                e.append((k, k + 1))
            if i + 1 < rows:
                e.append((k, k + cols))
    return e, {"n": rows * cols, "rows": rows, "cols": cols}


def topo_dumbbell(r, n):
    """Left leaves - core chain (or two parallel cores) - right leaves."""
    ncore = r.randint(2, min(4, n - 2))
    nleaf = n - ncore
    nl = r.randint(1, nleaf - 1) if nleaf > 1 else 1
    core = list(range(ncore))
    e = [(i, i + 1) for i in range(ncore - 1)]
    if ncore >= 4 and r.chance(40):
        # second path between the two ends of the core: multipath choices
        e.append((0, ncore - 1))
    left = list(range(ncore, ncore + nl))
    right = list(range(ncore + nl, n))
    for x in left:
        e.append((x, 0))
    for x in right:
        e.append((ncore - 1, x))
    if not right:
        right = [ncore - 1]
    return e, {"left": left, "right": right, "core": core}


# ---- the generator -----------------------------------------------------------------------

class Gen:
    def __init__(self, seed: int, attempt: int, stress: bool = False, dynamics: bool = False,
                 traffic: bool = False, vegas: bool = False, tfrc: bool = False, queues: bool = False,
                 linux: bool = False, full: bool = False, qs: bool = False, aqm: bool = False,
                 diffserv: bool = False, lan: bool = False, fack: bool = False, xcp: bool = False,
                 rbp: bool = False, delaybox: bool = False, bay: bool = False, jobs: bool = False,
                 sched: bool = False, redpd: bool = False):
        self.seed = seed
        self.redpd, self.redpd_kinds = redpd, []
        self.schedq, self.schedq_kinds = sched, []    # --sched (self.sched is the event schedule)
        self.xcp, self.rbp, self.delaybox, self.bay, self.jobs = xcp, rbp, delaybox, bay, jobs
        self.xcp_kinds, self.rbp_kinds, self.dbox_kinds, self.bay_kinds, self.jobs_kinds = [], [], [], [], []
        self.mode_link_lines = []       # after the links (XCP capacities, DelayBox rules, the JoBS network)
        self.mode_lines = []            # after the other modes' agents
        self.mode_finish = []
        self.mode_globals = set()
        self.dbox_nodes = set()
        self.diffserv = diffserv
        self.ds_kinds = []
        self.lan = lan
        self.lan_lines = []
        self.lan_kinds = []
        self.fack = fack
        self.fack_kinds = []
        self.fack_finish = []
        self.qs = qs
        self.qs_head = []
        self.qs_lines = []
        self.qs_kinds = []
        self.queues = queues
        self.aqm = aqm
        self.aqm_kinds = []
        self.queue_lines = []
        self.ncbq = 0
        self.queue_kinds = []
        self.linux = linux
        self.linux_finish = []
        self.full = full
        self.full_lines = []
        self.full_kinds = []
        self.full_finish = []
        self.tfrc = tfrc
        self.tfrc_lines = []
        self.tfrc_kinds = []
        self.attempt = attempt
        self.stress = stress
        self.dynamics = dynamics
        self.vegas = vegas
        self.vegas_finish = []
        self.dyn_lines = []
        self.traffic = traffic
        self.traffic_lines = []
        self.traffic_kinds = []
        self.dyn_kinds = []
        self.r = Rng(seed * 1000003 + attempt)
        self.level = attempt // 4          # shrink level after failed attempts
        self.init_ext()

    # -- values ------------------------------------------------------------------------

    def bandwidth(self, slow: bool):
        """(string, bits per second).  64Kb .. 1Gb in Kb/Mb/Gb or plain units."""
        r = self.r
        caps = [10 ** 9, 10 ** 8, 10 ** 7, 2 * 10 ** 6]
        cap = caps[min(self.level, 3)]
        common = [64000, 128000, 256000, 384000, 512000, 800000, 1000000, 1500000,
                  2000000, 5000000, 10000000, 45000000, 100000000, 155000000,
                  622000000, 1000000000]
        if slow:
            dec_w = [(4, 30), (5, 35), (6, 25), (7, 8), (8, 2)]
        else:
            dec_w = [(4, 5), (5, 15), (6, 30), (7, 30), (8, 20)]
        if r.chance(40):
            bps = r.choice([c for c in common if c <= cap])
        else:
            e = r.weighted(dec_w)          # value in [10^e, 10^(e+1))
            digits = r.randint(1, 3)
            m = r.randint(10 ** (digits - 1), 10 ** digits - 1)   # mantissa digits
            bps = m * 10 ** (e + 1 - digits)
            if bps < 64000:
                bps = 64000 + r.randint(0, 936) * 1000 if e == 4 else 64000
            bps = min(bps, 10 ** 9)
            if bps > cap:
                bps = cap - r.randint(0, 9) * (cap // 100)
        unit = r.weighted([("Kb", 15 if bps < 10 ** 8 else 2), ("Mb", 50), ("Gb", 15 if bps >= 10 ** 8 else 0),
                           ("plain", 15), ("kb", 3), ("Mbps", 4), ("Kbps", 3 if bps < 10 ** 8 else 0)])
        if unit in ("Kb", "kb", "Kbps"):
            s = dec(bps, 3) + unit
        elif unit in ("Mb", "Mbps"):
            s = dec(bps, 6) + unit
        elif unit == "Gb":
            s = dec(bps, 9) + "Gb"
        else:
            s = str(bps)
        return s, bps

    def delay(self):
        """(string, microseconds).  0 .. 200ms in ms/us/s units or plain seconds."""
        r = self.r
        us = r.weighted([
            (0, 6),
            (r.randint(1, 999), 8),
            (r.randint(1, 50) * 1000, 40),
            (r.randint(1000, 50000), 16),
            (r.randint(50, 200) * 1000, 20),
            (r.randint(50000, 200000), 10),
        ])
        form = r.weighted([("ms", 55), ("us", 10), ("s", 10), ("plain", 20), ("sec", 5)])
        if us == 0 and r.chance(50):
            return "0", 0
        if form == "ms":
            s = dec(us, 3) + "ms"
        elif form == "us":
            s = str(us) + "us"
        elif form == "s":
            s = fmt_us(us) + "s"
        elif form == "sec":
            s = fmt_us(us) + "sec"
        else:
            s = fmt_us(us)
        return s, us

    def qlimit(self):
        r = self.r
        return r.weighted([
            (0, 1),
            (r.randint(1, 4), 10),
            (r.randint(5, 30), 45),
            (r.randint(31, 100), 30),
            (r.randint(101, 300), 15),
        ])

    def time_us(self, lo_us: int, hi_us: int) -> int:
        """A time in [lo, hi) with this scenario's granularity (ties on purpose)."""
        g = self.gran
        if hi_us <= lo_us:
            return lo_us
        lo_q = -(-lo_us // g)
        hi_q = (hi_us - 1) // g
        if hi_q < lo_q:
            return lo_us
        return self.r.randint(lo_q, hi_q) * g

    # -- topology ----------------------------------------------------------------------

    def build_topology(self):
        r = self.r
        kind = r.weighted([("chain", 12), ("ring", 14), ("tree", 18), ("mesh", 18),
                           ("dumbbell", 22), ("grid", 8), ("full", 8)])
        n = r.weighted([(r.randint(2, 6), 45), (r.randint(7, 12), 35), (r.randint(13, 20), 20)])
        if kind == "ring" and n < 3:
            n = 3
        if kind == "grid" and n < 4:
            n = 4
        if kind == "dumbbell" and n < 4:
            n = 4
        if kind == "full":
            n = min(max(n, 3), 6)
        if kind == "mesh" and n < 3:
            n = 3
        f = {"chain": topo_chain, "ring": topo_ring, "tree": topo_tree, "mesh": topo_mesh,
             "dumbbell": topo_dumbbell, "grid": topo_grid, "full": topo_full}[kind]
        edges, roles = f(r, n)
        if "n" in roles:
            n = roles["n"]
        # creation order of nodes is a random permutation of the structure
        perm = list(range(n))
        r.shuffle(perm)
        edges = [(perm[a], perm[b]) for a, b in edges]
        for k in ("left", "right", "core", "leaves"):
            if k in roles:
                roles[k] = [perm[x] for x in roles[k]]
        r.shuffle(edges)
        edges = [(b, a) if r.chance(50) else (a, b) for a, b in edges]
        self.kind = kind
        self.n = n
        self.roles = roles
        self.edges = edges

    def build_links(self):
        r = self.r
        p_simplex = 0 if r.chance(75) else r.randint(20, 100)
        # a one-way ring: simplex links in one direction only (strongly connected)
        self.one_way_ring = self.kind == "ring" and r.chance(15)
        # slow links: a few edges are "bottlenecks"
        n_slow = max(1, len(self.edges) // r.randint(2, 6))
        slow_edges = set(r.sample(range(len(self.edges)), min(n_slow, len(self.edges))))
        links = []     # directed: dict(src, dst, bw, bws, d, ds, q, via, cost)
        self.link_stmts = []   # (kind, data) in creation order
        for idx, (a, b) in enumerate(self.edges):
            slow = idx in slow_edges
            if self.one_way_ring:
                # one simplex link per edge; orient_ring() points them all
                # the same way round afterwards
                bws, bw = self.bandwidth(slow)
                ds, d = self.delay()
                l = dict(src=a, dst=b, bw=bw, bws=bws, d=d, ds=ds, q=None, via="simplex")
                links.append(l)
                self.link_stmts.append(("simplex", [l]))
                continue
            if r.randint(0, 99) < p_simplex:
                pair = []
                for s, t in ((a, b), (b, a)):
                    bws, bw = self.bandwidth(slow and r.chance(70))
                    if pair and r.chance(40):
                        ds, d = pair[0]["ds"], pair[0]["d"]     # same delay both ways
                    else:
                        ds, d = self.delay()
                    l = dict(src=s, dst=t, bw=bw, bws=bws, d=d, ds=ds, q=None, via="simplex")
                    pair.append(l)
                links += pair
                self.link_stmts.append(("simplex-pair", pair))
            else:
                bws, bw = self.bandwidth(slow)
                ds, d = self.delay()
                l1 = dict(src=a, dst=b, bw=bw, bws=bws, d=d, ds=ds, q=None, via="duplex")
                l2 = dict(src=b, dst=a, bw=bw, bws=bws, d=d, ds=ds, q=None, via="duplex")
                links += [l1, l2]
                self.link_stmts.append(("duplex", [l1, l2]))
        if self.one_way_ring:
            # the ring edges were shuffled and flipped; re-orient them into a cycle
            self.orient_ring(links)
        # drop one direction of some simplex pairs while strongly connected
        pairs = [st for st in self.link_stmts if st[0] == "simplex-pair"]
        for st in pairs:
            if r.chance(25):
                victim = st[1][r.randint(0, 1)]
                trial = [l for l in links if l is not victim]
                if self.strongly_connected(trial):
                    links = trial
                    st[1].remove(victim)
        for l in links:
            if r.chance(55):
                l["q"] = self.qlimit()
        self.links = links
        assert self.strongly_connected(links)
        # costs
        self.costs = []
        if r.chance(25):
            k = r.randint(1, max(1, len(links) // 2))
            for l in r.sample(links, min(k, len(links))):
                c = r.weighted([(2, 40), (3, 25), (r.randint(4, 10), 20), (1, 15)])
                self.costs.append((l, c))
                # usually both directions of a duplex link
                if l["via"] == "duplex" and r.chance(70):
                    rev = [x for x in links if x["src"] == l["dst"] and x["dst"] == l["src"]]
                    if rev and all(rev[0] is not x for x, _ in self.costs):
                        self.costs.append((rev[0], c if r.chance(70) else r.randint(1, 5)))
        for l in links:
            l["cost"] = 1
        for l, c in self.costs:
            l["cost"] = c

    def orient_ring(self, links):
        adj = {}
        for l in links:
            adj.setdefault(l["src"], []).append(l)
            adj.setdefault(l["dst"], []).append(l)
        start = links[0]["src"]
        prev, cur = None, start
        seen = set()
        # walk the cycle and point every link forward
        for _ in range(len(links)):
            for l in adj[cur]:
                if id(l) in seen:
                    continue
                other = l["dst"] if l["src"] == cur else l["src"]
                l["src"], l["dst"] = cur, other
                seen.add(id(l))
                prev, cur = cur, other
                break

    def strongly_connected(self, links):
        fwd, rev = {}, {}
        for l in links:
            fwd.setdefault(l["src"], []).append(l["dst"])
            rev.setdefault(l["dst"], []).append(l["src"])
        for g in (fwd, rev):
            seen = {0}
            stack = [0]
            while stack:
                x = stack.pop()
                for y in g.get(x, []):
                    if y not in seen:
                        seen.add(y)
                        stack.append(y)
            if len(seen) != self.n:
                return False
        return True

    def paths(self, src, dst, size, traced):
        """Bounds over every cheapest path from src to dst (ns-2 picks one of
        them; which one does not matter here): (widest bottleneck in bits/s,
        smallest propagation + transmission time for `size`-byte packets,
        most hops, most traced hops, links on every cheapest path).
        Integer costs and exact float arithmetic only."""
        out, inn = {}, {}
        for l in self.links:
            out.setdefault(l["src"], []).append(l)
            inn.setdefault(l["dst"], []).append(l)

        def dijkstra(start, adj, end):
            dist = {start: 0}
            todo = [start]
            while todo:
                todo.sort(key=lambda x: (dist[x], x))
                x = todo.pop(0)
                for l in adj.get(x, []):
                    y = l[end]
                    c = dist[x] + l["cost"]
                    if y not in dist or c < dist[y]:
                        dist[y] = c
                        if y not in todo:
                            todo.append(y)
            return dist

        ds = dijkstra(src, out, "dst")
        dt = dijkstra(dst, inn, "src")
        total = ds[dst]
        dag = [l for l in self.links
               if l["src"] in ds and l["dst"] in dt and ds[l["src"]] + l["cost"] + dt[l["dst"]] == total]
        dag.sort(key=lambda l: ds[l["src"]])        # costs >= 1: a topological order
        wide = {src: float("inf")}
        fast = {src: 0.0}
        hops = {src: 0}
        thops = {src: 0}
        cnt_s = {src: 1}
        for l in dag:
            u, v = l["src"], l["dst"]
            if u not in wide:
                continue
            t = l["d"] * 1e-6 + size * 8.0 / l["bw"]
            w = min(wide[u], l["bw"])
            wide[v] = max(wide.get(v, 0.0), w)
            fast[v] = min(fast.get(v, float("inf")), fast[u] + t)
            hops[v] = max(hops.get(v, 0), hops[u] + 1)
            thops[v] = max(thops.get(v, 0), thops[u] + (1 if id(l) in traced else 0))
            cnt_s[v] = cnt_s.get(v, 0) + cnt_s[u]
        cnt_t = {dst: 1}
        for l in reversed(dag):
            u, v = l["src"], l["dst"]
            if v in cnt_t:
                cnt_t[u] = cnt_t.get(u, 0) + cnt_t[v]
        must = [l for l in dag if cnt_s.get(l["src"], 0) * cnt_t.get(l["dst"], 0) == cnt_s[dst]]
        return wide[dst], fast[dst], hops[dst], thops[dst], must, {id(l) for l in dag}

    # -- flows -------------------------------------------------------------------------

    def tcp_value(self, var):
        r = self.r
        wcap = [1000, 128, 32, 16][min(self.level, 3)]
        if var == "window_":
            return str(min(wcap, r.weighted([(r.randint(1, 8), 20), (r.randint(9, 40), 35),
                                            (r.randint(41, 128), 30), (r.randint(129, 1000), 15)])))
        if var == "packetSize_":
            return str(r.weighted([(1000, 10), (1460, 15), (512, 10), (576, 8), (1500, 5),
                                   (r.randint(100, 1500), 35), (r.randint(1, 99), 7),
                                   (r.randint(1501, 9000), 10), (r.randint(9001, 65000), 2)]))
        if var == "windowInit_":
            return str(r.weighted([(1, 30), (2, 20), (3, 15), (4, 20), (r.randint(5, 12), 15)]))
        if var == "maxburst_":
            return str(r.weighted([(0, 30), (r.randint(1, 3), 40), (r.randint(4, 10), 30)]))
        if var == "tcpTick_":
            return r.choice(["0.01", "0.001", "0.1", "0.5", "0.05", "0.0001", "0.002", "1"])
        if var == "minrto_":
            return r.choice(["0.2", "0", "0.01", "0.05", "0.1", "0.5", "1", "1.0", "2", "0.25"])
        if var == "overhead_":
            return r.choice(["0.001", "0.005", "0.01", "0.02", "0.0001", "0.05", "0.0005"])
        if var == "numdupacks_":
            return str(r.weighted([(1, 15), (2, 25), (3, 20), (4, 20), (r.randint(5, 8), 20)]))
        raise KeyError(var)

    def delack_interval(self):
        return self.r.choice(["100ms", "50ms", "10ms", "200ms", "0.1", "0.05", "1ms",
                              "500ms", "0.02", "0.3", "25ms", "100000us", "0"])

    def build_flows(self):
        r = self.r
        fcap = [12, 12, 6, 4][min(self.level, 3)]
        nflows = min(fcap, r.weighted([(r.randint(1, 3), 40), (r.randint(4, 7), 35), (r.randint(8, 12), 25)]))
        mode = r.weighted([("mixed", 60), ("same", 25), ("pair", 15)])
        if mode == "same":
            fl_pool = [r.choice(FLAVOURS)]
        elif mode == "pair":
            fl_pool = r.sample(FLAVOURS, 2)
        else:
            fl_pool = FLAVOURS
        sink_mode = r.weighted([("mixed", 50), ("TCPSink", 30), ("TCPSink/DelAck", 20)])
        conn_mode = r.weighted([("connect", 55), ("mixed", 35), ("cc", 10)])
        # class-level settings
        self.class_settings = []       # (where, class, var, value); where: pre/post
        overhead_on = r.chance(10)
        for var in ["window_", "packetSize_", "windowInit_", "maxburst_", "tcpTick_",
                    "minrto_", "numdupacks_"]:
            if r.chance(22):
                cls = "Agent/TCP" if r.chance(85) else r.choice(["Agent/TCP/Reno", "Agent/TCP/Newreno"])
                self.class_settings.append((r.choice(["pre", "post", "post"]), cls, var, self.tcp_value(var)))
        if overhead_on and r.chance(50):
            self.class_settings.append(("post", "Agent/TCP", "overhead_", self.tcp_value("overhead_")))
        self.delack_class = self.delack_interval() if r.chance(15) else None
        if r.chance(8):
            self.class_settings.append(("post", "Agent/TCP", "fid_", str(r.randint(1, 9))))
        # class default changed between agent creations (affects later ones only)
        self.mid_class = []
        if r.chance(12):
            var = r.choice(["window_", "packetSize_", "windowInit_", "maxburst_"])
            self.mid_class.append((r.randint(0, nflows - 1), "Agent/TCP", var, self.tcp_value(var)))

        roles = self.roles
        flows = []
        for i in range(nflows):
            f = {"i": i}
            # endpoints
            if self.kind == "dumbbell" and r.chance(75):
                lft, rgt = roles["left"], roles["right"]
                if r.chance(80):
                    f["src"], f["dst"] = r.choice(lft), r.choice(rgt)
                else:
                    f["src"], f["dst"] = r.choice(rgt), r.choice(lft)
            elif roles.get("leaves") and len(roles["leaves"]) >= 2 and r.chance(60):
                f["src"], f["dst"] = r.sample(roles["leaves"], 2)
            else:
                f["src"], f["dst"] = r.sample(range(self.n), 2)
            f["flavour"] = r.choice(fl_pool)
            f["sink"] = r.choice(SINKS) if sink_mode == "mixed" else sink_mode
            if conn_mode == "connect":
                f["conn"] = "connect"
            elif conn_mode == "cc":
                f["conn"] = r.choice(["cc", "ccl"])
            else:
                f["conn"] = r.weighted([("connect", 60), ("cc", 25), ("ccl", 15)])
            f["fid"] = r.randint(0, 15)
            f["fidvar"] = "class_" if r.chance(12) else "fid_"
            f["set_fid"] = f["conn"] == "connect" and r.chance(75)
            f["app"] = r.choice(["new", "attach-app"])
            f["settings"] = []
            for var in ["window_", "packetSize_", "windowInit_", "maxburst_", "tcpTick_",
                        "minrto_", "numdupacks_"]:
                if r.chance(18):
                    f["settings"].append((var, self.tcp_value(var)))
            if overhead_on and r.chance(40):
                f["settings"].append(("overhead_", self.tcp_value("overhead_")))
            r.shuffle(f["settings"])
            f["settings_when"] = r.choice(["early", "late"])
            f["interval"] = self.delack_interval() if f["sink"].endswith("DelAck") and r.chance(35) else None
            f["appmode"] = r.weighted([("ftp", 55), ("produce", 20), ("mixed", 17), ("idle", 3), ("ftp-stop", 5)])
            if f["appmode"] == "produce":
                f["npkts"] = [r.weighted([(r.randint(1, 20), 30), (r.randint(21, 300), 50),
                                         (r.randint(301, 3000), 20)])]
                if r.chance(50):
                    f["npkts"].append(r.randint(1, 500))
            f["midwin"] = self.tcp_value("window_") if r.chance(6) else None
            f["knobs"] = []          # (var, value, on: "tcp" | "sink")
            flows.append(f)
        self.flows = flows
        self.overhead_on = overhead_on
        # further engine-modelled parameters, class-level or per object
        self.knobs = []
        self.class_knobs = []        # (class, var, value)
        if r.chance(25):
            for _ in range(r.randint(1, 3)):
                var, vals, kind = r.choice(EXTRA_KNOBS)
                val = r.choice(vals)
                self.knobs.append(var)
                if r.chance(50):
                    cls = {"tcp": "Agent/TCP", "newreno": "Agent/TCP/Newreno",
                           "sink": "Agent/TCPSink"}[kind]
                    if kind == "tcp" and r.chance(20):
                        cls = r.choice(["Agent/TCP/Reno", "Agent/TCP/Newreno"])
                    if kind == "sink" and r.chance(30):
                        cls = "Agent/TCPSink/DelAck"
                    self.class_knobs.append((cls, var, val))
                else:
                    cands = [f for f in flows if kind != "newreno" or f["flavour"] == "TCP/Newreno"]
                    for f in r.sample(cands, min(len(cands), r.randint(1, 3))):
                        f["knobs"].append((var, val, "sink" if kind == "sink" else "tcp"))
        self.show_tcphdr = r.chance(4)
        # DropTail variants: drop from the front, limit in bytes
        self.qknobs = []              # (link or None for the class, var, value)
        if r.chance(12):
            for _ in range(r.randint(1, 3)):
                var, val = r.choice([("drop_front_", "true"), ("drop_front_", "1"),
                                     ("queue_in_bytes_", "true"), ("mean_pktsize_", str(r.randint(40, 1500)))])
                self.qknobs.append((None if r.chance(40) else r.choice(self.links), var, val))

    def eff(self, f, var):
        """Possible values of a TCP variable for flow f (estimate only)."""
        vals = [NS_DEFAULTS[var]]
        for where, cls, v, val in self.class_settings:
            if v == var and (cls == "Agent/TCP" or cls == "Agent/" + f["flavour"]):
                vals.append(int(val))
        for k, cls, v, val in self.mid_class:
            if v == var:
                vals.append(int(val))
        for v, val in f["settings"]:
            if v == var:
                vals.append(int(val))
        if var == "window_" and f["midwin"]:
            vals.append(int(f["midwin"]))
        for v, val in f.get("mid", []):
            if v == var:
                vals.append(int(val))
        for cls, v, val in self.class_knobs:
            if v == var:
                vals.append(float(val))
        for v, val, _ in f["knobs"]:
            if v == var:
                vals.append(float(val))
        if var == "packetSize_" and any(v == "tcpip_base_hdr_size_" for v in self.knobs):
            vals = [x - 40 for x in vals]      # headers as small as 0 bytes
        return vals

    # -- tracing and monitoring -----------------------------------------------------------

    def build_changes(self):
        """Mid-run changes of links and agents (times chosen later).  The
        estimate sees the faster of the old and new values."""
        r = self.r
        self.changes = []            # (kind, target, value text)
        if not r.chance(15):
            return
        for _ in range(r.randint(1, 3)):
            kind = r.weighted([("bandwidth", 25), ("delay", 20), ("queue-limit", 25), ("tcp", 20),
                               ("interval", 10)])
            if kind in ("bandwidth", "delay", "queue-limit"):
                l = r.choice(self.links)
                if kind == "bandwidth":
                    bws, bw = self.bandwidth(r.chance(50))
                    duplex = l["via"] == "duplex" and r.chance(50)
                    for x in self.links:
                        if x is l or (duplex and x["src"] == l["dst"] and x["dst"] == l["src"]):
                            x["bw"] = max(x["bw"], bw)
                    self.changes.append(("bandwidth", l, bws + (" duplex" if duplex else "")))
                elif kind == "delay":
                    ds, d = self.delay()
                    duplex = l["via"] == "duplex" and r.chance(50)
                    for x in self.links:
                        if x is l or (duplex and x["src"] == l["dst"] and x["dst"] == l["src"]):
                            x["d"] = min(x["d"], d)
                    self.changes.append(("delay", l, ds + (" duplex" if duplex else "")))
                else:
                    self.changes.append(("queue-limit", l, str(self.qlimit())))
            elif kind == "tcp":
                f = r.choice(self.flows)
                var = r.choice(["window_", "packetSize_", "maxburst_", "windowInit_", "minrto_", "tcpTick_"])
                val = self.tcp_value(var)
                f.setdefault("mid", []).append((var, val))
                self.changes.append(("tcp", f, "%s %s" % (var, val)))
            else:
                ds = [f for f in self.flows if f["sink"].endswith("DelAck")]
                if ds:
                    self.changes.append(("interval", r.choice(ds), self.delack_interval()))

    def build_traces(self):
        r = self.r
        mode = r.weighted([("all", 70), ("queue", 18), ("none", 12)])
        if self.level >= 2 and mode == "all" and r.chance(50):
            mode = r.choice(["queue", "none"])
        self.trace_mode = mode
        self.traceall_at = 0          # index into link_stmts before which trace-all is set
        if mode == "all" and r.chance(10):
            self.traceall_at = r.randint(1, len(self.link_stmts))
        self.tq_links = []            # (link, file)
        if mode == "queue":
            k = r.randint(1, min(3, len(self.links)))
            shared = r.chance(40)
            for j, l in enumerate(r.sample(self.links, k)):
                self.tq_links.append((l, "queue.tr" if shared else "q%d.tr" % j))
        elif mode == "all" and r.chance(5):
            self.tq_links.append((r.choice(self.links), "extra.tr"))
        # variable traces
        self.vtraces = []             # (flow, file, [vars], method, when)
        if r.chance(50):
            k = r.randint(1, min(3, len(self.flows)))
            fmode = r.weighted([("own", 35), ("shared", 45), ("traceall", 20 if mode == "all" else 0)])
            for f in r.sample(self.flows, k):
                if fmode == "own":
                    fname = "vars%d.tr" % f["i"]
                elif fmode == "shared":
                    fname = "vars.tr"
                else:
                    fname = "out.tr"
                vs = r.sample(TRACEABLE, r.randint(1, 5))
                when = "early" if (f["conn"] == "connect" and r.chance(30)) else "late"
                self.vtraces.append((f, fname, vs, r.choice(["trace", "tracevar"]), when))
        # queue monitors
        self.qmons = []               # (link, name)
        if r.chance(30):
            for j, l in enumerate(r.sample(self.links, r.randint(1, min(3, len(self.links))))):
                self.qmons.append((l, "qm%d" % j))
        self.mq = None                # monitor-queue: (link, interval, sample?, start_tracing?)
        free = [l for l in self.links if all(l is not q for q, _ in self.qmons)]
        if r.chance(10) and free:
            # not on a link with another monitor: attach-monitors would
            # replace the one monitor-queue made (and its integrators)
            l = r.choice(free)
            self.mq = (l, r.choice(["0.1", "0.5", "1", "0.25", "0.05"]), r.chance(60), r.chance(25))

    # -- traffic estimate and end time --------------------------------------------------------

    def estimate(self):
        """Upper estimates of the traffic: (packet-hops per second, packet-hops
        of fixed-size transfers, trace bytes per second, trace bytes of
        fixed-size transfers)."""
        traced = set()
        if self.trace_mode == "all":
            for st in self.link_stmts[self.traceall_at:]:
                for l in st[1]:
                    traced.add(id(l))
        for l, _ in self.tq_links:
            traced.add(id(l))
        rates = []
        for f in self.flows:
            # conservative: the smallest packet size gives the most packets
            psize = min(self.eff(f, "packetSize_")) + 40
            wnd = max(self.eff(f, "window_"))
            bw_f, t_f, h_f, th_f, must_f, dag_f = self.paths(f["src"], f["dst"], psize, traced)
            bw_r, t_r, h_r, th_r, must_r, dag_r = self.paths(f["dst"], f["src"], 40, traced)
            rtt = t_f + t_r
            bneck = bw_f / (8.0 * psize)
            rate = bneck if rtt <= 0 else min(bneck, wnd / rtt)
            f["_h"] = (h_f, h_r, th_f, th_r)
            f["_must"] = (must_f, must_r)
            f["_dag"] = (dag_f, dag_r)
            f["_psize"] = psize
            rates.append(rate)
        # links every cheapest path uses are shared for sure: scale flows by
        # the worst utilisation on them
        bw = {id(l): l["bw"] for l in self.links}
        for _ in range(3):
            load = {}
            for f, rate in zip(self.flows, rates):
                ackr = 0.6 if f["sink"].endswith("DelAck") else 1.0
                for l in f["_must"][0]:
                    load[id(l)] = load.get(id(l), 0.0) + rate * f["_psize"] * 8.0
                for l in f["_must"][1]:
                    load[id(l)] = load.get(id(l), 0.0) + rate * ackr * 320.0
            new = []
            for f, rate in zip(self.flows, rates):
                u = 1.0
                for l in f["_must"][0] + f["_must"][1]:
                    u = max(u, load[id(l)] / bw[id(l)])
                new.append(rate / u)
            rates = new
        ev_rate = ev_fixed = tb_rate = tb_fixed = 0.0
        vt = {}
        for f, _, vs, _, _ in self.vtraces:
            vt[f["i"]] = vt.get(f["i"], 0) + len(vs)
        for f, rate in zip(self.flows, rates):
            ackr = 0.6 if f["sink"].endswith("DelAck") else 1.0
            h_f, h_r, th_f, th_r = f["_h"]
            ev = (h_f + ackr * h_r) * 1.4
            tb = (th_f + ackr * th_r) * 1.4 * 3.2 * TRACE_LINE + vt.get(f["i"], 0) * 1.3 * VAR_LINE
            if f["appmode"] == "produce":
                npk = sum(f["npkts"])
                ev_fixed += npk * ev
                tb_fixed += npk * tb
            elif f["appmode"] != "idle":
                ev_rate += rate * ev
                tb_rate += rate * tb
        # RED variable traces: a line per traced variable and arrival at the
        # queue (every flow whose cheapest paths may cross the link)
        for rq, fname, vs, _ in self.red_traces:
            l = rq["link"]
            for f, rate in zip(self.flows, rates):
                ackr = 0.6 if f["sink"].endswith("DelAck") else 1.0
                share = (1.0 if id(l) in f["_dag"][0] else 0.0) + (ackr if id(l) in f["_dag"][1] else 0.0)
                if not share:
                    continue
                tb = share * 1.4 * len(vs) * RED_LINE
                if f["appmode"] == "produce":
                    tb_fixed += sum(f["npkts"]) * tb
                elif f["appmode"] != "idle":
                    tb_rate += rate * tb
        return ev_rate, ev_fixed, tb_rate, tb_fixed

    def choose_end(self):
        r = self.r
        ev_rate, ev_fixed, tb_rate, tb_fixed = self.estimate()
        tmax = 60.0
        if ev_rate > 0:
            tmax = min(tmax, (EVENT_BUDGET - ev_fixed) / ev_rate)
        elif ev_fixed > EVENT_BUDGET:
            tmax = -1.0
        if tb_rate > 0:
            tmax = min(tmax, (TRACE_BUDGET - tb_fixed) / tb_rate)
        elif tb_fixed > TRACE_BUDGET:
            tmax = -1.0
        if self.mq and self.mq[2]:
            tmax = min(tmax, 60.0)
        if tmax < 1.0:
            return False
        tmax_ms = int(tmax * 1000)
        gran = r.weighted([("coarse", 35), ("medium", 33), ("fine", 27), ("ns", 5)])
        self.gran = {"coarse": 250000, "medium": 10000, "fine": 1, "ns": 1}[gran]
        self.gran_name = gran
        # end time: 1..tmax seconds, skewed towards short runs
        hi = min(60000, tmax_ms)
        end_ms = r.weighted([(r.randint(1000, min(hi, 5000)), 35),
                             (r.randint(1000, min(hi, 20000)), 35),
                             (r.randint(1000, hi), 30)])
        if gran == "coarse":
            end_ms = max(1000, end_ms - end_ms % 500)
        elif gran == "medium":
            end_ms = max(1000, end_ms - end_ms % 10)
        self.end_us = end_ms * 1000
        if gran == "fine" and r.chance(50):
            self.end_us += r.randint(0, 999)
        self.est = ev_rate * self.end_us * 1e-6 + ev_fixed, tb_rate * self.end_us * 1e-6 + tb_fixed
        return True

    def fmt_t(self, us):
        """A scheduled time; with "ns" granularity nanosecond digits are
        appended (events between microseconds: trace times get rounded)."""
        if self.gran_name == "ns" and us > 0:
            return dec(us * 1000 + self.r.randint(1, 999), 9)
        return fmt_us(us)

    # -- schedules and callbacks -----------------------------------------------------------------

    def build_schedule(self):
        r = self.r
        T = self.end_us
        ev = []   # (time_us, order, text)
        for f in self.flows:
            i = f["i"]
            m = f["appmode"]
            acts = []
            if m in ("ftp", "ftp-stop"):
                t0 = self.time_us(0, T * 6 // 10) if r.chance(75) else 0
                acts.append((t0, "start"))
                if m == "ftp-stop" or r.chance(30):
                    t1 = self.time_us(t0, T)
                    acts.append((t1, "stop"))
                    if r.chance(50):
                        acts.append((self.time_us(t1, T), "start"))
            elif m == "produce":
                t0 = self.time_us(0, T * 6 // 10)
                acts.append((t0, "produce %d" % f["npkts"][0]))
                if len(f["npkts"]) > 1:
                    acts.append((self.time_us(t0, T), "producemore %d" % f["npkts"][1]))
            elif m == "mixed":
                t = 0
                for _ in range(r.randint(2, 4)):
                    t = self.time_us(t, T)
                    a = r.weighted([("start", 30), ("stop", 25), ("produce %d" % r.randint(1, 400), 20),
                                    ("producemore %d" % r.randint(1, 400), 25)])
                    acts.append((t, a))
            for t, a in acts:
                ev.append((t, len(ev), '$ns at %s "$ftp(%d) %s"' % (self.fmt_t(t), i, a)))
            if f["midwin"]:
                t = self.time_us(0, T)
                ev.append((t, len(ev), '$ns at %s "$tcp(%d) set window_ %s"' % (self.fmt_t(t), i, f["midwin"])))
        for kind, x, val in self.changes:
            t = self.time_us(0, T)
            if kind in ("bandwidth", "delay", "queue-limit"):
                txt = '$ns at %s "$ns %s %s %s %s"' % (self.fmt_t(t), kind, self.nref(x["src"]), self.nref(x["dst"]), val)
            elif kind == "tcp":
                txt = '$ns at %s "$tcp(%d) set %s"' % (self.fmt_t(t), x["i"], val)
            else:
                txt = '$ns at %s "$sink(%d) set interval_ %s"' % (self.fmt_t(t), x["i"], val)
            ev.append((t, len(ev), txt))
        # sort most by time but keep some scheduling out of order (ns-2 sorts)
        if r.chance(50):
            ev.sort()
        self.sched = [e[2] for e in ev]

        # callbacks reading state mid-run
        self.cb_lines = []        # top-level lines (procs and $ns at)
        self.cb_files = []
        self.cb_forms = []
        if r.chance(35):
            out = r.weighted([("stdout", 60), ("samples.out", 25), ("out.tr", 15 if self.trace_mode == "all" else 0)])
            if out == "samples.out":
                self.cb_files.append(("sf", out))
                ch = "$sf "
            elif out == "out.tr":
                ch = "$tf "      # interleaved with the packet trace
            else:
                ch = ""
            for k in range(r.randint(1, 5)):
                t = self.time_us(0, T)
                form = r.weighted([("proc", 45), ("escaped", 40), ("braced", 15)])
                self.cb_forms.append(form)
                items = self.state_items(r.randint(1, 4))
                if form == "proc":
                    glob = "ns tcp sink" + (" qm" if self.qmons else "") + ((" " + ch[1:].strip()) if ch else "")
                    self.cb_lines.append("proc report%d {tag} {" % k)
                    self.cb_lines.append("    global %s" % glob)
                    body = " ".join("%s=%s" % (lbl, expr) for lbl, expr in items)
                    self.cb_lines.append('    puts %s"$tag t=[$ns now] %s"' % (ch, body))
                    self.cb_lines.append("}")
                    self.cb_lines.append('$ns at %s "report%d r%d"' % (self.fmt_t(t), k, k))
                elif form == "escaped":
                    # object names substituted now, commands evaluated later
                    body = " ".join("%s=%s" % (lbl, expr.replace("[", "\\[").replace("]", "\\]"))
                                    for lbl, expr in items)
                    now = r.choice(["\\[$ns now\\]", "\\[format %.4f \\[$ns now\\]\\]"])
                    self.cb_lines.append('$ns at %s "puts %s\\"e%d t=%s %s\\""' % (self.fmt_t(t), ch, k, now, body))
                else:
                    body = " ".join("%s=%s" % (lbl, expr) for lbl, expr in items)
                    self.cb_lines.append('$ns at %s {puts %s"b%d t=[$ns now] %s"}' % (self.fmt_t(t), ch, k, body))
            if r.chance(40):
                dt = r.choice(["0.1", "0.25", "0.5", "1", "1.0", "0.3", "0.05"])
                items = self.state_items(r.randint(1, 3))
                glob = "ns tcp sink" + (" qm" if self.qmons else "") + ((" " + ch[1:].strip()) if ch else "")
                fmtnow = r.choice(["[$ns now]", "[format %.2f [$ns now]]"])
                self.cb_lines += [
                    "proc sample {dt} {",
                    "    global %s" % glob,
                    '    puts %s"s %s %s"' % (ch, fmtnow, " ".join("%s=%s" % it for it in items)),
                    '    $ns at [expr [$ns now] + $dt] "sample $dt"',
                    "}",
                    '$ns at %s "sample %s"' % (self.fmt_t(self.time_us(0, T)), dt),
                ]
                self.cb_forms.append("sampler")

    def state_items(self, k):
        r = self.r
        items = []
        for _ in range(k):
            what = r.weighted([("tcp", 60), ("sink", 20), ("qm", 20 if self.qmons else 0)])
            if what == "tcp":
                f = r.choice(self.flows)
                v = r.choice(FINISH_VARS + EXTRA_VARS)
                items.append(("%s%d" % (v, f["i"]), "[$tcp(%d) set %s]" % (f["i"], v)))
            elif what == "sink":
                f = r.choice(self.flows)
                items.append(("bytes%d" % f["i"], "[$sink(%d) set bytes_]" % f["i"]))
            else:
                _, name = r.choice(self.qmons)
                v = r.choice(QM_VARS)
                items.append(("%s.%s" % (name, v), "[$qm(%s) set %s]" % (name, v)))
        return items

    # -- RED queues, ECN and error models ------------------------------------------------
    #
    # Drawn from their own random streams so that a seed without them (the
    # separate per-seed draw says no) keeps the script it had before these
    # features existed, byte for byte.

    def init_ext(self):
        fx = Rng(((self.seed ^ 0x243F6A8885A308D3) * 0xD1B54A32D192ED03 + 0x13198A2E03707344) & M64)
        on = fx.chance(self.boost(EXT_PERCENT, 100))
        red = fx.chance(88)
        err = fx.chance(self.boost(35, 70))
        ecn = fx.chance(62)
        salt = fx.next64()
        self.ext = on
        self.use_red = on and red
        self.use_err = on and (err or not red)
        self.use_ecn = on and (ecn if red else fx.chance(50))
        self.x = Rng((salt + self.attempt * 0x9E3779B97F4A7C15) & M64)
        self.red_class = []         # (where: pre | post | late, var, value)
        self.redqs = []             # dict(link, k, settings, ref: var | inline)
        self.red_traces = []        # (redq, file, [vars], attach first?)
        self.ecn_class = []         # (class, var, value)
        self.err_lines = []         # (where: early | late, [lines])
        self.err_kinds = []
        self.ext_files = []         # (var, name)
        self.ext_finish = []
        self.ext_cb = []
        self.ext_sched = []
        self.ext_changes = []       # (kind, target, text)
        self.ext_finish_redq = False

    def boost(self, p, p_stress):
        """A percentage: p, or p_stress in --stress mode (same draws, other odds)."""
        return p_stress if self.stress else p

    def used_links(self):
        """ids of the links some flow's data or ACKs may cross."""
        used = set()
        for f in self.flows:
            used |= self.paths(f["src"], f["dst"], 1000, set())[5]
            used |= self.paths(f["dst"], f["src"], 40, set())[5]
        return used

    def red_sane(self):
        """ns-2 traps floating-point division by zero, invalid operations
        and overflow (SIGFPE); Dumbbell carries on.  Keep every RED queue
        clear of the parameter sets that get there:
        * cautious_ 2 divides by (1-q_w)^(ptc/20) * ave: with a large
          q_weight_ on a fast link that underflows to 0 (q_weight_ 1: always);
        * Feng's adaptive RED divides max_p by alpha_ on every fall below
          thresh_ and multiplies it by beta_ on every rise above maxthresh_:
          alpha_ < 1 (or a large beta_) overflows it;
        * plain adaptive RED multiplies max_p by beta_ while the queue is
          short: beta_ > 1 overflows it."""
        eff0 = {"q_weight_": "-1", "cautious_": "0", "adaptive_": "0", "feng_adaptive_": "0",
                "alpha_": "0.01", "beta_": "0.9"}
        for _, v, val in self.red_class:
            if _ in ("pre", "post") and v in eff0:
                eff0[v] = val
        for q in self.redqs:
            eff = dict(eff0)
            for v, val in q["settings"]:
                if v in eff:
                    eff[v] = val
            fix = []
            if eff["cautious_"] == "2" and float(eff["q_weight_"]) > 0.002:
                fix.append(("q_weight_", "0.002"))
            if eff["adaptive_"] == "1":
                a, b = float(eff["alpha_"]), float(eff["beta_"])
                if eff["feng_adaptive_"] == "1":
                    if a < 1.5 or b > a or b > 2:
                        fix += [("alpha_", "3"), ("beta_", "2")]
                elif b > 1:
                    fix.append(("beta_", "0.9"))
            q["settings"] = q["settings"] + fix

    def slow_down(self, l):
        """Make link l (and the other direction of a duplex link) a slow
        bottleneck: 64Kb..5Mb, never faster than it was."""
        x = self.x
        bps = x.weighted([(64000, 5), (128000, 8), (256000, 10), (512000, 15), (800000, 10),
                          (1000000, 20), (1500000, 15), (2000000, 10), (5000000, 7),
                          (x.randint(100, 3000) * 1000, 15)])
        group = [l]
        for kind, ls in self.link_stmts:
            if kind == "duplex" and any(y is l for y in ls):
                group = list(ls)
        # the estimate saw the faster of the old and new bandwidths of a
        # link a mid-run change sets
        changed = [t for k, t, _ in self.changes if k == "bandwidth"]
        ends = {(y["src"], y["dst"]) for y in group}
        if bps >= l["bw"] or any((t["src"], t["dst"]) in ends or (t["dst"], t["src"]) in ends for t in changed):
            return
        unit = x.weighted([("Kb", 30), ("Mb", 50), ("plain", 20)])
        bws = {"Kb": dec(bps, 3) + "Kb", "Mb": dec(bps, 6) + "Mb", "plain": str(bps)}[unit]
        for y in group:
            y["bw"], y["bws"] = bps, bws

    def red_value(self, var, feng=False):
        x = self.x
        bools = {"bytes_": 35, "queue_in_bytes_": 35, "gentle_": 40, "wait_": 40, "setbit_": 88,
                 "use_mark_p_": 30, "drop_front_": 85, "drop_rand_": 85, "drop_tail_": 50,
                 "ns1_compat_": 90, "summarystats_": 90}
        if var in bools:
            b = x.chance(bools[var])
            return x.weighted([("true" if b else "false", 70), ("1" if b else "0", 30)])
        if var == "mean_pktsize_":
            return str(x.weighted([(1000, 25), (1040, 15), (576, 10), (1500, 10), (500, 5),
                                   (x.randint(40, 1500), 30), (x.randint(1501, 9000), 5)]))
        if var == "idle_pktsize_":
            return str(x.weighted([(40, 20), (500, 20), (1000, 20), (x.randint(20, 1500), 40)]))
        if var == "thresh_":
            return x.weighted([(str(x.randint(1, 5)), 35), (str(x.randint(6, 20)), 35),
                               (dec(x.randint(5, 95), 1), 10), ("0", 10), (str(x.randint(21, 60)), 10)])
        if var == "q_weight_":
            return x.choice(["-1", "0", "-2", "0.002", "0.001", "0.01", "0.05", "0.2", "1", "0.0005", "0.1"])
        if var == "linterm_":
            return x.choice(["1", "2", "3", "5", "20", "50", "2.5", "100", "10"])
        if var == "mark_p_":
            return x.choice(["0.01", "0.05", "0.2", "0.5", "1", "0.1", "0"])
        if var == "alpha_":
            return x.choice(["3", "2", "1.5", "4"] if feng else ["0.01", "0.02", "0.005", "0.05"])
        if var == "beta_":
            return x.choice(["2", "1.5", "3"] if feng else ["0.9", "0.8", "0.5", "0.95"])
        if var == "interval_":
            return x.choice(["0.5", "0.1", "0.25", "1", "0.05", "2"])
        if var == "targetdelay_":
            return x.choice(["0.005", "0.001", "0.01", "0.02", "0.05"])
        if var == "top_":
            return x.choice(["0.5", "0.2", "0.8", "0.1", "1"])
        if var == "bottom_":
            return x.choice(["0.01", "0.001", "0.05", "0"])
        if var == "cautious_":
            return x.choice(["1", "2", "3"])
        raise KeyError(var)

    def red_profile(self, k):
        """k groups of RED parameters: [(var, value), ...]."""
        x = self.x
        groups = [("mode", 14), ("thresh", 14), ("q_weight_", 10), ("linterm_", 8), ("gentle_", 10),
                  ("wait_", 6), ("setbit_", 14 if self.use_ecn else 3), ("mark_p", 5), ("forced", 6),
                  ("adaptive", 8), ("feng", 3), ("cautious", 5), ("ns1_compat_", 2),
                  ("summarystats_", 3), ("mean_pktsize_", 6)]
        out = []
        for _ in range(k):
            g = x.weighted(groups)
            groups = [p for p in groups if p[0] != g]
            if g == "mode":
                m = x.weighted([("packets", 50), ("bytes_", 20), ("queue_in_bytes_", 20), ("explicit", 10)])
                if m == "packets":
                    out += [("bytes_", x.choice(["false", "0"])), ("queue_in_bytes_", x.choice(["false", "0"]))]
                elif m == "explicit":
                    out += [("bytes_", "true"), ("queue_in_bytes_", "true")]
                else:
                    out.append((m, self.red_value(m)))
                if x.chance(40):
                    out.append(("mean_pktsize_", self.red_value("mean_pktsize_")))
            elif g == "thresh":
                th = self.red_value("thresh_")
                w = x.randint(0, 9)
                if w < 6:
                    out.append(("thresh_", th))
                if w >= 3:
                    if w >= 6 or x.chance(30):       # maxthresh_ alone (thresh_ automatic)
                        mx = str(x.randint(10, 60))
                    else:
                        t = float(th)
                        mx = x.weighted([("0", 20), (str(int(t * x.randint(2, 4)) + 1), 40),
                                         (str(int(t) + x.randint(1, 30)), 40)])
                    out.append(("maxthresh_", mx))
            elif g == "mark_p":
                if x.chance(60):
                    out.append(("use_mark_p_", self.red_value("use_mark_p_")))
                if x.chance(70):
                    out.append(("mark_p_", self.red_value("mark_p_")))
            elif g == "forced":
                v = x.weighted([("drop_front_", 45), ("drop_rand_", 35), ("drop_tail_", 20)])
                out.append((v, self.red_value(v)))
                if v != "drop_tail_" and x.chance(30):
                    out.append(("drop_tail_", x.choice(["false", "0"])))
            elif g == "adaptive":
                out.append(("adaptive_", "1"))
                for v in x.sample(["alpha_", "beta_", "interval_", "targetdelay_", "top_", "bottom_"],
                                  x.randint(0, 3)):
                    out.append((v, self.red_value(v)))
            elif g == "feng":
                out += [("adaptive_", "1"), ("feng_adaptive_", "1")]
                for v in x.sample(["alpha_", "beta_"], x.randint(0, 2)):
                    out.append((v, self.red_value(v, feng=True)))
            elif g == "cautious":
                c = self.red_value("cautious_")
                out.append(("cautious_", c))
                if c == "3" and x.chance(60):
                    out.append(("idle_pktsize_", self.red_value("idle_pktsize_")))
            else:
                out.append((g, self.red_value(g)))
        return out

    def err_model(self, j, unit_ok=True):
        """Lines creating error model emod(j), and its kind."""
        x = self.x
        kind = x.weighted([("Periodic", 40), ("List", 25), ("uniform", 30), ("Uniform", 5)])
        m = "$emod(%d)" % j
        byte = unit_ok and x.chance(25)
        L = []
        if kind == "Periodic":
            L.append("set emod(%d) [new ErrorModel/Periodic]" % j)
            if byte:
                L.append("%s unit byte" % m)
            elif x.chance(40):
                L.append("%s unit pkt" % m)
            dd = not byte and x.chance(8)
            if byte:
                period = str(x.randint(3, 300) * 1000 + x.randint(0, 999))
            elif dd:
                period = str(x.randint(2, 4))
            else:
                period = str(x.weighted([(x.randint(3, 10), 30), (x.randint(11, 60), 50),
                                         (x.randint(61, 400), 20)]))
                if x.chance(10):
                    period += ".5"
            sets = [("period_", period)]
            if x.chance(70):
                sets.append(("offset_", str(x.randint(0, 30000) if byte else x.randint(0, 50))))
            if x.chance(25):
                if byte:
                    sets.append(("burstlen_", str(x.randint(500, 4000))))
                else:
                    sets.append(("burstlen_", str(x.randint(1, max(1, min(3, int(float(period)) - 1))))))
            if dd:
                sets.append(("default_drop_", "1"))
            x.shuffle(sets)
            L += ["%s set %s %s" % (m, v, val) for v, val in sets]
        elif kind == "List":
            L.append("set emod(%d) [new ErrorModel/List]" % j)
            if byte:
                L.append("%s unit byte" % m)
            vals = sorted(x.sample(range(1, 300001) if byte else range(0, 400), x.randint(1, 8)))
            if x.chance(30):
                x.shuffle(vals)
            lst = " ".join(str(v) for v in vals)
            form = x.weighted([("braced", 60), ("args", 25), ("puts", 15)])
            if form == "braced":
                L.append("%s droplist {%s}" % (m, lst))
            elif form == "args":
                L.append("%s droplist %s" % (m, lst))
            else:
                L.append('puts "droplist %d: [%s droplist {%s}]"' % (j, m, lst))
        else:
            if byte:
                rate = x.choice(["0.00001", "0.000005", "0.00002", "0.000001", "0.00005"])
            else:
                rate = x.choice(["0.001", "0.005", "0.01", "0.02", "0.05", "0.1",
                                 dec(x.randint(1, 300), 4)])
            if kind == "Uniform":
                if byte or x.chance(50):
                    L.append("set emod(%d) [new ErrorModel/Uniform %s %s]" % (j, rate, "byte" if byte else "pkt"))
                else:
                    L.append("set emod(%d) [new ErrorModel/Uniform %s]" % (j, rate))
            else:
                L.append("set emod(%d) [new ErrorModel]" % j)
                sets = [("rate_", rate)]
                if byte:
                    L.append("%s unit byte" % m)
                elif x.chance(20):
                    L.append("%s unit pkt" % m)
                if self.use_ecn and x.chance(40):
                    sets.append(("markecn_", x.choice(["true", "1"])))
                    kind = "markecn"
                x.shuffle(sets)
                L += ["%s set %s %s" % (m, v, val) for v, val in sets]
        return L, kind + ("-byte" if byte else "")

    def build_ext(self):
        if not self.ext:
            return
        x = self.x
        used = self.used_links()
        # RED queues on some links: per statement (duplex) or per simplex link
        if self.use_red:
            mode = x.weighted([("bottleneck", 40), ("some", 35), ("all", 15), ("one", 10)])
            pick = set()
            slowed = []
            if x.chance(75):
                # a slow RED link on the data path of one or two flows: the
                # queue builds up and RED drops or marks
                busy = [f for f in self.flows if f["appmode"] != "idle"] or self.flows
                for f in x.sample(busy, x.randint(1, min(2, len(busy)))):
                    must = self.paths(f["src"], f["dst"], 1000, set())[4]
                    if not must:
                        continue
                    l = x.choice(must)
                    self.slow_down(l)
                    pick.add(id(l))
                    slowed.append(l)
                    if mode == "one":
                        mode = "none"
            ul = [l for l in self.links if id(l) in used] or list(self.links)
            slowest = min(l["bw"] for l in ul)
            for kind, ls in self.link_stmts:
                for l in ls:
                    if mode == "all":
                        pick.add(id(l))
                    elif mode == "some" and x.chance(40):
                        pick.add(id(l))
                    elif mode == "bottleneck" and ((id(l) in used and l["bw"] <= slowest * 2) or x.chance(10)):
                        pick.add(id(l))
            if not any(i in pick for i in used) and ul and mode != "none":
                pick.add(id(x.choice([l for l in ul if l["bw"] == slowest] if mode != "one" else ul)))
            for kind, ls in self.link_stmts:
                if kind == "duplex" and any(id(l) in pick for l in ls):
                    pick |= {id(l) for l in ls}
            reds = []
            for kind, ls in self.link_stmts:
                for l in ls:
                    if id(l) in pick:
                        l["qtype"] = "RED"
                        reds.append(l)
            # class defaults, per-queue settings
            if x.chance(40):
                for var, val in self.red_profile(x.randint(1, 3)):
                    self.red_class.append((x.weighted([("pre", 25), ("post", 65), ("late", 10)]), var, val))
            for l in reds:
                rq = dict(link=l, k=None, settings=[], inline=x.chance(30))
                if x.chance(self.boost(60, 90)):
                    rq["settings"] = self.red_profile(x.randint(1, 4))
                self.redqs.append(rq)
            x.shuffle(self.redqs)
            if self.use_ecn and x.chance(88) and not any(v == "setbit_" and val in ("true", "1")
                                                         for _, v, val in self.red_class) \
                    and not any(v == "setbit_" and val in ("true", "1") for q in self.redqs for v, val in q["settings"]):
                if x.chance(40):
                    self.red_class.append(("post", "setbit_", "true"))
                else:
                    q = x.choice([q for q in self.redqs if any(q["link"] is l for l in slowed)] or
                                 [q for q in self.redqs if id(q["link"]) in used] or self.redqs)
                    q["settings"] = [(v, val) for v, val in q["settings"] if v != "setbit_"] + [("setbit_", "true")]
            # traces of ave_, curq_, prob1_, cur_max_p_
            if x.chance(self.boost(60, 95)):
                cands = [q for q in self.redqs if id(q["link"]) in used] or self.redqs
                if slowed and x.chance(70):
                    cands = [q for q in self.redqs if any(q["link"] is l for l in slowed)]
                fmode = x.weighted([("own", 45), ("shared", 35), ("traceall", 20 if self.trace_mode == "all" else 0)])
                for j, q in enumerate(x.sample(cands, x.randint(1, min(2, len(cands))))):
                    fname = {"own": "red%d.tr" % j, "shared": "red.tr", "traceall": "out.tr"}[fmode]
                    vs = x.sample(RED_TRACEABLE, x.randint(1, 4))
                    self.red_traces.append((q, fname, vs, x.chance(50)))
                    if fname != "out.tr" and fname not in [n for _, n in self.ext_files]:
                        self.ext_files.append(("rf(%s)" % fname.split(".")[0], fname))
            # the finish proc prints RED state
            if x.chance(70):
                for q in x.sample(self.redqs, x.randint(1, min(3, len(self.redqs)))):
                    q["print"] = x.sample(RED_READ, x.randint(2, 6))
                    self.ext_finish_redq = True
            summ = any(v == "summarystats_" and val in ("true", "1") for _, v, val in self.red_class)
            for q in self.redqs:
                if (summ or any(v == "summarystats_" and val in ("true", "1") for v, val in q["settings"])) \
                        and x.chance(70):
                    q["printstats"] = True
                    self.ext_finish_redq = True
        # ECN-capable flows among plain ones
        if self.use_ecn:
            mode = x.weighted([("some", 55), ("one", 20), ("class", 25)])
            for f in self.flows:
                f["ecn"] = []
            if mode == "class":
                self.ecn_class.append(("Agent/TCP" if x.chance(80) else x.choice(["Agent/TCP/Reno", "Agent/TCP/Newreno"]),
                                       "ecn_", x.choice(["1", "true"])))
                for f in x.sample(self.flows, x.randint(0, len(self.flows) // 2)):
                    f["ecn"].append(("ecn_", x.choice(["0", "false"])))
            else:
                k = 1 if mode == "one" else x.randint(1, max(1, (len(self.flows) * 2 + 2) // 3))
                for f in x.sample(self.flows, k):
                    f["ecn"].append(("ecn_", x.choice(["1", "1", "true"])))
            if x.chance(12):
                if x.chance(50):
                    self.ecn_class.append(("Agent/TCP", "old_ecn_", "1"))
                else:
                    for f in x.sample(self.flows, x.randint(1, min(2, len(self.flows)))):
                        f["ecn"].append(("old_ecn_", x.choice(["1", "true"])))
        # error models: an ErrorModule at the head of a link, or a model after it
        if self.use_err:
            cands = [l for l in self.links if id(l) in used] or list(self.links)
            nmod = 0
            for l in x.sample(cands, x.randint(1, min(2, len(cands)))):
                how = x.weighted([("module", 50), ("linkloss", 35), ("both", 15)])
                lref = "[$ns link %s %s]" % (self.nref(l["src"]), self.nref(l["dst"]))
                where = x.weighted([("early", 70), ("late", 30)])
                if how in ("module", "both"):
                    e = len([k for k in self.err_kinds if k.startswith("module:")])
                    cl = x.weighted([("Fid", 80), ("Dest", 8), ("SrcDest", 6), ("SrcDestFid", 6)])
                    self.err_kinds.append("module:" + cl)
                    L = ["set em(%d) [new ErrorModule %s]" % (e, cl)]
                    attach = "%s errormodule $em(%d)" % (lref, e)
                    first = x.chance(50)
                    if first:
                        L.append(attach)
                    fids = sorted({f["fid"] if (f["conn"] != "connect" or f["set_fid"]) else 0 for f in self.flows})
                    bound = []
                    mods = []
                    for _ in range(x.randint(1, 3)):
                        ml, kind = self.err_model(nmod)
                        self.err_kinds.append(kind)
                        L += ml
                        L.append("$em(%d) insert $emod(%d)" % (e, nmod))
                        b = x.weighted([("one", 60), ("range", 25), ("two", 10), ("none", 5)])
                        if b == "one":
                            L.append("$em(%d) bind $emod(%d) %d" % (e, nmod, x.choice(fids) if x.chance(80) else x.randint(0, 15)))
                        elif b == "range":
                            a = x.choice(fids)
                            L.append("$em(%d) bind $emod(%d) %d %d" % (e, nmod, a, a + x.randint(0, 4)))
                        elif b == "two":
                            for fid in x.sample(fids + [x.randint(0, 15)], 2):
                                L.append("$em(%d) bind $emod(%d) %d" % (e, nmod, fid))
                        if b != "none":
                            bound.append(nmod)
                        mods.append(nmod)
                        nmod += 1
                    if bound and x.chance(20):
                        L.append("$em(%d) default $emod(%d)" % (e, x.choice(bound)))
                    else:
                        L.append("$em(%d) default pass" % e)
                    if not first:
                        L.append(attach)
                    if x.chance(20):
                        L.append('puts "em%d: [llength [$em(%d) errormodels]] models"' % (e, e))
                    self.err_lines.append((where, L))
                if how in ("linkloss", "both"):
                    ml, kind = self.err_model(nmod)
                    self.err_kinds.append("linkloss")
                    self.err_kinds.append(kind)
                    ml.append("%s insert-linkloss $emod(%d)" % (lref, nmod))
                    if x.chance(15):
                        ml.append('puts "unit [$emod(%d) unit]"' % nmod)
                    self.err_lines.append((x.weighted([("early", 70), ("late", 30)]), ml))
                    nmod += 1
            self.n_emod = nmod
        self.red_sane()
        # which RED queues get a variable
        k = 0
        for q in self.redqs:
            if not q["inline"] or q.get("print") or q.get("printstats") or \
                    any(t[0] is q for t in self.red_traces):
                q["k"] = k
                k += 1
        # mid-run changes of RED parameters and error models
        if x.chance(self.boost(15, 80)):
            named = [q for q in self.redqs if q["k"] is not None]
            for _ in range(x.randint(1, 2)):
                what = x.weighted([("red", 60 if named else 0), ("rate", 25 if self.use_err else 0),
                                   ("ecn", 15 if self.use_ecn else 0), ("none", 1)])
                if what == "red":
                    q = x.choice(named)
                    var = x.choice(["setbit_", "mark_p_", "q_weight_", "wait_", "drop_front_", "use_mark_p_",
                                    "linterm_", "gentle_"])
                    if var == "q_weight_":
                        val = x.choice(["0.002", "0.001", "0.0005"])     # see red_sane()
                    else:
                        val = self.red_value(var)
                    self.ext_changes.append(("red", q, "%s %s" % (var, val)))
                elif what == "rate":
                    self.ext_changes.append(("emod", x.randint(0, self.n_emod - 1),
                                             x.choice(["rate_ 0.02", "rate_ 0", "rate_ 0.1", "period_ 7",
                                                       "period_ 50", "offset_ 3"])))
                elif what == "ecn":
                    f = x.choice(self.flows)
                    self.ext_changes.append(("ecn", f, "ecn_ %s" % x.choice(["0", "1"])))

    def build_ext_schedule(self):
        """Times of the mid-run changes, callbacks that print RED and ECN
        state (after choose_end: needs the end time)."""
        if not self.ext:
            return
        x = self.x
        T = self.end_us

        def t_us():
            g = self.gran
            return x.randint(0, max(0, (T - 1) // g)) * g

        for kind, tgt, val in self.ext_changes:
            if kind == "red":
                obj = "$redq(%d)" % tgt["k"]
            elif kind == "emod":
                obj = "$emod(%d)" % tgt
            else:
                obj = "$tcp(%d)" % tgt["i"]
            self.ext_sched.append('$ns at %s "%s set %s"' % (fmt_us(t_us()), obj, val))
        named = [q for q in self.redqs if q["k"] is not None]
        ecnf = [f for f in self.flows if f.get("ecn") or self.flow_ecn(f)]
        if (named or ecnf) and x.chance(self.boost(30, 80)):
            for c in range(x.randint(1, 3)):
                items = []
                for _ in range(x.randint(1, 3)):
                    if named and (not ecnf or x.chance(60)):
                        q = x.choice(named)
                        v = x.choice(RED_TRACEABLE + ["q_weight_", "limit_"])
                        items.append("red%d.%s=[$redq(%d) set %s]" % (q["k"], v, q["k"], v))
                    else:
                        f = x.choice(ecnf)
                        v = x.choice(ECN_VARS)
                        items.append("%s%d=[$tcp(%d) set %s]" % (v, f["i"], f["i"], v))
                self.ext_cb.append('$ns at %s {puts "x%d t=[$ns now] %s"}' % (fmt_us(t_us()), c, " ".join(items)))
        # the finish proc's lines
        B = []
        for q in sorted(named, key=lambda q: q["k"]):
            if q.get("print"):
                B.append('    puts "redq%d:%s"' % (q["k"], "".join(" %s=[$redq(%d) set %s]" % (v, q["k"], v)
                                                              for v in q["print"])))
            if q.get("printstats"):
                B.append("    $redq(%d) printstats" % q["k"])
        for f in ecnf:
            B.append('    puts "ecn %d:%s"' % (f["i"], "".join(" %s=[$tcp(%d) set %s]" % (v, f["i"], v) for v in ECN_VARS)))
        self.ext_finish = B

    # -- TCP Vegas (--vegas) -----------------------------------------------------------
    #
    # Only in --vegas mode, from a stream of its own: some flows (at least
    # one) become Agent/TCP/Vegas, with v_alpha_/v_beta_/v_gamma_ set per
    # object or as class defaults, and the finish proc prints their bound
    # Vegas variables.  The other draws are untouched, so a --vegas script
    # is its plain seed's script with those flows changed.

    def build_vegas(self):
        if not self.vegas:
            return
        y = Rng(((self.seed ^ 0x3C6EF372FE94F82B) * 0xA54FF53A5F1D36F1 + 0x510E527FADE682D1
                 + self.attempt * 0x9E3779B97F4A7C15) & M64)
        share = y.choice([30, 50, 80, 100])
        chosen = [f for f in self.flows if y.chance(share)] or [y.choice(self.flows)]
        for f in chosen:
            f["flavour"] = "TCP/Vegas"

        def value(var):
            if var == "v_gamma_":
                return str(y.weighted([(1, 40), (0, 15), (2, 25), (y.randint(3, 8), 20)]))
            return str(y.weighted([(y.randint(0, 3), 55), (y.randint(4, 10), 35), (y.randint(11, 30), 10)]))

        for var in ("v_alpha_", "v_beta_", "v_gamma_"):
            if y.chance(25):
                self.class_settings.append((y.choice(["pre", "post"]), "Agent/TCP/Vegas", var, value(var)))
        if y.chance(20):
            self.class_settings.append(("pre", "Agent/TCP/Vegas", "packetSize_", y.choice(["1000", "512", "1460"])))
        for f in chosen:
            for var in ("v_alpha_", "v_beta_", "v_gamma_"):
                if y.chance(35):
                    f["settings"].append((var, value(var)))
        for f in chosen:
            if y.chance(60):
                self.vegas_finish.append('    puts "vegas %d: v_rtt_ [$tcp(%d) set v_rtt_] v_alpha_ [$tcp(%d) set v_alpha_]'
                                         ' v_beta_ [$tcp(%d) set v_beta_] v_gamma_ [$tcp(%d) set v_gamma_]"'
                                         % (f["i"], f["i"], f["i"], f["i"], f["i"]))

    # -- TCP FACK (--fack) --------------------------------------------------------------
    #
    # Only in --fack mode, from a stream of its own: some flows (at least
    # one) become Agent/TCP/Fack, most with a SACK sink (plain or delayed
    # ACKs, sometimes with fewer or more SACK blocks), some with a plain
    # one; `ss-div4_` and `rampdown_` per object or as class defaults; the
    # finish proc prints some of their counters.  The other draws are
    # untouched, so a --fack script is its plain seed's script with those
    # flows changed.

    def build_fack(self):
        if not self.fack:
            return
        y = Rng(((self.seed ^ 0x2545F4914F6CDD1D) * 0x9FB21C651E98DF25 + 0x3C79AC492BA7B653
                 + self.attempt * 0x9E3779B97F4A7C15) & M64)
        share = y.choice([30, 50, 80, 100])
        chosen = [f for f in self.flows if y.chance(share)] or [y.choice(self.flows)]
        for f in chosen:
            f["flavour"] = "TCP/Fack"
            f["sink"] = y.weighted([("TCPSink/Sack1", 45), ("TCPSink/Sack1/DelAck", 35), ("TCPSink", 20)])
            self.fack_kinds.append(f["sink"])
            if not f["sink"].endswith("DelAck"):
                f["interval"] = None
            if f["sink"] != "TCPSink" and y.chance(25):
                f["knobs"].append(("maxSackBlocks_", y.choice(["1", "2", "4"]), "sink"))
        for var in ("ss-div4_", "rampdown_"):
            if y.chance(30):
                val = y.choice(["true", "1", "false"])
                self.class_settings.append((y.choice(["pre", "post"]), "Agent/TCP/Fack", var, val))
                if val != "false":
                    self.fack_kinds.append(var)
        for f in chosen:
            for var in ("ss-div4_", "rampdown_"):
                if y.chance(35):
                    val = y.choice(["true", "false", "1", "0"])
                    f["settings"].append((var, val))
                    if val in ("true", "1"):
                        self.fack_kinds.append(var)
        for f in chosen:
            if y.chance(60):
                self.fack_finish.append('    puts "fack %d: nrexmit_ [$tcp(%d) set nrexmit_] ack_ [$tcp(%d) set ack_]'
                                        ' cwnd_ [$tcp(%d) set cwnd_] ssthresh_ [$tcp(%d) set ssthresh_]"'
                                        % (f["i"], f["i"], f["i"], f["i"], f["i"]))

    # -- ns-2's fair schedulers (--queues) ---------------------------------------------
    #
    # Only in --queues mode, from a stream of its own, after everything else
    # is drawn: some DropTail links (on the flows' paths mostly, none with a
    # per-queue DropTail setting) become Queue/DRR, Queue/SFQ, Queue/Vq or
    # Queue/GK, with random buckets, byte limits, quanta, masks and SFQ
    # limits set before the run, and mid-run commands ns-2 survives (DRR:
    # `blimit` raised, `quantum`; SFQ: `limit`), or random Vq and GK
    # variables (virtual sizes and rates, marking, drop-front, bytes).  The other draws are untouched, so a --queues script is
    # its plain seed's script with those queues changed.

    def build_queues(self):
        if not self.queues:
            return
        y = Rng(((self.seed ^ 0x6A09E667F3BCC908) * 0xBB67AE8584CAA73B + 0x3C6EF372FE94F82B
                 + self.attempt * 0x9E3779B97F4A7C15) & M64)
        used = self.used_links()
        stmts = self.plain_stmts()
        if not stmts:
            return
        # the slowest of them (where queues build up), and a few others
        on_path, slowest = self.on_path(stmts, used)
        chosen = [slowest] + [st for st in y.sample(on_path, y.randint(0, min(2, len(on_path)))) if st is not slowest]
        for st in stmts:
            if st not in chosen and y.chance(15):
                chosen.append(st)
        kinds = y.weighted([("DRR", 30), ("SFQ", 30), ("Vq", 15), ("GK", 10), ("mixed", 15)])
        T = self.end_us
        for kind, ls in self.link_stmts:
            if (kind, ls) not in chosen:
                continue
            q = kinds if kinds != "mixed" else y.choice(["DRR", "SFQ", "Vq", "GK"])
            for l in ls:
                l["qtype"] = q
            self.queue_kinds.append(q)
            for l in ls:
                ref = "[[$ns link %s %s] queue]" % (self.nref(l["src"]), self.nref(l["dst"]))
                if q == "DRR":
                    if y.chance(50):
                        self.queue_lines.append("%s set buckets_ %d" % (ref, y.choice([1, 2, 3, 5, 10, 16, 64])))
                    blimit = y.weighted([(y.randint(1500, 6000), 50), (y.randint(6000, 30000), 35),
                                         (y.randint(30000, 200000), 15)])
                    if y.chance(80):
                        self.queue_lines.append("%s set blimit_ %d" % (ref, blimit))
                    else:
                        blimit = 25000
                    if y.chance(60):
                        self.queue_lines.append("%s set quantum_ %d" % (ref, y.weighted(
                            [(y.randint(1, 200), 25), (y.randint(200, 1100), 50), (y.randint(1100, 5000), 25)])))
                    if y.chance(20):
                        self.queue_lines.append("%s set mask_ %d" % (ref, y.choice([0, 1])))
                    if y.chance(15):
                        self.queue_lines.append("%s buckets %d" % (ref, y.choice([1, 4, 7, 32])))
                    for _ in range(y.weighted([(0, 60), (1, 30), (2, 10)])):
                        t = fmt_us(y.randint(1, max(1, T - 1)))
                        if y.chance(50):
                            blimit += y.randint(0, 20000)
                            self.queue_lines.append('$ns at %s "%s blimit %d"' % (t, ref, blimit))
                        else:
                            self.queue_lines.append('$ns at %s "%s quantum %d"' % (t, ref, y.randint(40, 3000)))
                elif q == "Vq":
                    for var, val in (("buflim_", y.choice(["0.25", "0.5", "0.8", "1.0", "1.5"])),
                                     ("ecnlim_", y.choice(["0.5", "0.8", "0.95"])),
                                     ("gamma_", y.choice(["0.895", "0.98", "1.0"])),
                                     ("markpkts_", y.choice(["true", "false"])),
                                     ("markfront_", y.choice(["0", "1"])),
                                     ("drop_front_", y.choice(["0", "1"])),
                                     ("queue_in_bytes_", y.choice(["true", "false"])),
                                     ("mean_pktsize_", y.choice(["500", "1000", "1500"]))):
                        if y.chance(35):
                            self.queue_lines.append("%s set %s %s" % (ref, var, val))
                elif q == "GK":
                    for var, val in (("ecnlim_", y.choice(["0.5", "0.8", "0.95", "1.2"])),
                                     ("drop_front_", y.choice(["0", "1"])),
                                     ("mean_pktsize_", y.choice(["500", "1000", "1500"]))):
                        if y.chance(40):
                            self.queue_lines.append("%s set %s %s" % (ref, var, val))
                else:
                    if y.chance(50):
                        self.queue_lines.append("%s set buckets_ %d" % (ref, y.choice([1, 2, 3, 4, 8, 16, 32])))
                    if y.chance(75):
                        self.queue_lines.append("%s set maxqueue_ %d" % (ref, y.weighted(
                            [(y.randint(1, 12), 50), (y.randint(13, 80), 50)])))
                    if y.chance(20):
                        self.queue_lines.append("%s limit %d" % (ref, y.randint(2, 60)))
                    for _ in range(y.weighted([(0, 60), (1, 30), (2, 10)])):
                        t = fmt_us(y.randint(1, max(1, T - 1)))
                        self.queue_lines.append('$ns at %s "%s limit %d"' % (t, ref, y.randint(1, 80)))

    # -- ns-2's RIO and REM (--aqm) ----------------------------------------------------
    #
    # Only in --aqm mode, from a stream of its own, after everything else:
    # the slowest DropTail link statement on the flows' paths and a few
    # others become Queue/RED/RIO or Queue/REM with random parameters (RIO:
    # band thresholds and max_p, gentle, q_weight_, wait_, ECN, priority by
    # flow id or none; REM: gamma_, phi_, inw_, pupdtime_, pbo_, marking,
    # bytes), and now and then a token-bucket tagger on a link feeding one,
    # with buckets for some flow ids.  The other draws are untouched.
    def build_aqm(self):
        if not self.aqm:
            return
        y = Rng(((self.seed ^ 0x510E527FADE682D1) * 0x9B05688C2B3E6C1F + 0x1F83D9ABFB41BD6B
                 + self.attempt * 0x9E3779B97F4A7C15) & M64)
        used = self.used_links()
        stmts = self.plain_stmts()
        if not stmts:
            return
        on_path, slowest = self.on_path(stmts, used)
        chosen = [slowest] + [st for st in y.sample(on_path, y.randint(0, min(2, len(on_path)))) if st is not slowest]
        kinds = y.weighted([("RIO", 45), ("REM", 40), ("mixed", 15)])
        fids = sorted({f["fid"] if (f["conn"] != "connect" or f["set_fid"]) else 0 for f in self.flows}) or [0]
        for kind, ls in self.link_stmts:
            if (kind, ls) not in chosen:
                continue
            q = kinds if kinds != "mixed" else y.choice(["RIO", "REM"])
            for l in ls:
                l["qtype"] = "RED/RIO" if q == "RIO" else q
            self.aqm_kinds.append(q)
            for l in ls:
                ref = "[[$ns link %s %s] queue]" % (self.nref(l["src"]), self.nref(l["dst"]))
                if q == "RIO":
                    # a band's thresholds both or neither (equal ones
                    # crash ns-2: it divides by their difference)
                    if y.chance(70):
                        lo = y.randint(1, 10)
                        self.queue_lines.append("%s set in_thresh_ %d" % (ref, lo))
                        self.queue_lines.append("%s set in_maxthresh_ %d" % (ref, lo + y.randint(1, 20)))
                    if y.chance(70):
                        lo = y.randint(1, 8)
                        self.queue_lines.append("%s set out_thresh_ %d" % (ref, lo))
                        self.queue_lines.append("%s set out_maxthresh_ %d" % (ref, lo + y.randint(1, 12)))
                    for var, val in (("in_linterm_", y.choice(["3", "10", "50"])),
                                     ("linterm_", y.choice(["3", "10", "12", "200"])),
                                     ("priority_method_", y.choice(["1", "1", "0"])),
                                     ("gentle_", y.choice(["true", "false"])),
                                     ("in_gentle_", y.choice(["true", "false"])),
                                     ("out_gentle_", y.choice(["true", "false"])),
                                     ("q_weight_", y.choice(["0.002", "0.02", "0.2"])),
                                     ("wait_", y.choice(["true", "false"])),
                                     ("setbit_", y.choice(["true", "false"])),
                                     ("drop_front_", y.choice(["true", "false"]))):
                        if y.chance(55):
                            self.queue_lines.append("%s set %s %s" % (ref, var, val))
                else:
                    for var, val in (("gamma_", y.choice(["0.001", "0.005", "0.0005"])),
                                     ("phi_", y.choice(["1.001", "1.01", "2", "5"])),
                                     ("inw_", y.choice(["1", "0.5", "0.1"])),
                                     ("pupdtime_", y.choice(["0.002", "0.01", "0.0005"])),
                                     ("pbo_", y.choice(["20", "5", "50"])),
                                     ("markpkts_", y.choice(["true", "false"])),
                                     ("qib_", y.choice(["true", "false"])),
                                     ("mean_pktsize_", y.choice(["500", "1000", "1500"]))):
                        if y.chance(45):
                            self.queue_lines.append("%s set %s %s" % (ref, var, val))
            if q == "RIO" and y.chance(40):
                # a tagger on a link into the queue's node
                feeding = [l for k2, ls2 in self.link_stmts for l in ls2 if l["dst"] == ls[0]["src"]]
                if feeding:
                    f = y.choice(feeding)
                    tg = "tagger%d" % len(self.aqm_kinds)
                    self.queue_lines.append("set %s [$ns maketbtagger Fid]" % tg)
                    self.queue_lines.append("$ns attach-tagger [$ns link %s %s] $%s" % (self.nref(f["src"]), self.nref(f["dst"]), tg))
                    # every flow id gets a bucket (Dumbbell does not yet make one
                    # for a flow the tagger meets without)
                    for fid in fids:
                        self.queue_lines.append("[$%s classifier] set-flowrate %d %d %d %d" % (
                            tg, fid, y.choice([64000, 200000, 1000000, 5000000]), y.choice([1000, 5000, 20000]), y.choice([1, 1000, 10000])))

    # -- ns-2's DiffServ (--diffserv) --------------------------------------------------
    #
    # Only in --diffserv mode, from a stream of its own, after everything
    # else: the slowest DropTail link statement on the flows' paths and up
    # to two others become dsRED/edge or dsRED/core queues (both directions
    # of a duplex statement).  Each gets 1 to 3 physical queues of 1 to 3
    # precedences, every one configured (random thresholds, max_p,
    # sometimes q_w), a random scheduler (RR, WRR, WIRR, PRI with weights
    # and a rate cap) and MRED mode (per queue sometimes), ECN now and
    # then, and a PHB for each code point a packet can carry (0, the
    # agents', and the policies' 10/11/12 and 20/21/22).  An edge has
    # policies for some flows' source and destination and one for any
    # pair last (Null, TSW2CM, TSW3CM, TokenBucket, srTCM, trTCM with
    # random rates and sizes), each with its policer.
    DS_POLICIES = ["Null", "TSW2CM", "TSW3CM", "TokenBucket", "srTCM", "trTCM"]

    def build_diffserv(self):
        if not self.diffserv:
            return
        y = Rng(((self.seed ^ 0x3C6EF372FE94F82B) * 0x9B05688C2B3E6C1F + 0x5BE0CD19137E2179
                 + self.attempt * 0x9E3779B97F4A7C15) & M64)
        used = self.used_links()
        stmts = self.plain_stmts()
        if not stmts:
            return
        on_path, slowest = self.on_path(stmts, used)
        chosen = [slowest] + [st for st in y.sample(on_path, y.randint(0, min(2, len(on_path)))) if st is not slowest]
        pairs = sorted({(f["src"], f["dst"]) for f in self.flows} | {(f["dst"], f["src"]) for f in self.flows})
        cps = [0, 10, 11, 12, 20, 21, 22]
        for kind, ls in self.link_stmts:
            if (kind, ls) not in chosen:
                continue
            q = y.choice(["edge", "edge", "core"])
            for l in ls:
                l["qtype"] = "dsRED/" + q
            self.ds_kinds.append(q)
            for l in ls:
                ref = "[[$ns link %s %s] queue]" % (self.nref(l["src"]), self.nref(l["dst"]))
                out = self.queue_lines
                nq, np_ = y.randint(1, 3), y.randint(1, 3)
                out.append("%s meanPktSize %d" % (ref, y.choice([500, 1000, 1500])))
                out.append("%s set numQueues_ %d" % (ref, nq))
                out.append("%s setNumPrec %d" % (ref, np_))
                if y.chance(30):
                    out.append("%s set ecn_ 1" % ref)
                sched = y.choice(["RR", "WRR", "WIRR", "PRI"])
                if sched != "RR" or y.chance(30):
                    out.append("%s setSchedularMode %s" % (ref, sched))
                for qi in range(nq):
                    if sched in ("WRR", "WIRR") and y.chance(70):
                        out.append("%s addQueueWeights %d %d" % (ref, qi, y.randint(1, 5)))
                    if sched == "PRI" and y.chance(50):
                        out.append("%s addQueueRate %d %d" % (ref, qi, y.choice([100000, 500000, 2000000])))
                if y.chance(60):
                    out.append("%s setMREDMode %s" % (ref, y.choice(["RIO-C", "RIO-D", "WRED", "DROP"])))
                if y.chance(30):
                    out.append("%s setMREDMode %s %d" % (ref, y.choice(["RIO-C", "RIO-D", "WRED", "DROP"]), y.randint(0, nq - 1)))
                for cp in cps:
                    out.append("%s addPHBEntry %d %d %d" % (ref, cp, y.randint(0, nq - 1), y.randint(0, np_ - 1)))
                for qi in range(nq):
                    for pi in range(np_):
                        lo = y.randint(1, 15)
                        w = " %s" % y.choice(["0.002", "0.02", "0.2"]) if y.chance(40) else ""
                        out.append("%s configQ %d %d %d %d %s%s" % (ref, qi, pi, lo, lo + y.randint(0, 20),
                                                                   y.choice(["0.02", "0.1", "0.5", "1"]), w))
                if q != "edge":
                    continue
                policers = set()
                chosen_pairs = y.sample(pairs, y.randint(0, min(3, len(pairs)))) if pairs else []
                for src, dst in chosen_pairs + [(-1, -1)]:
                    kind_ = y.choice(self.DS_POLICIES)
                    cp = y.choice([10, 20])
                    rate = lambda: y.choice([50000, 200000, 1000000, 4000000])
                    size = lambda: y.choice([500, 1500, 3000, 10000])
                    args = {"Null": [], "TSW2CM": [rate()] + ([y.choice(["0.1", "1", "3"])] if y.chance(30) else []),
                            "TSW3CM": None, "TokenBucket": [rate(), size()], "srTCM": [rate(), size(), size()],
                            "trTCM": None}[kind_]
                    if kind_ == "TSW3CM":
                        c = rate()
                        args = [c, c * y.randint(1, 4)]
                    elif kind_ == "trTCM":
                        c = rate()
                        args = [c, size(), c * y.randint(1, 4), size()]
                    out.append("%s addPolicyEntry %d %d %s %d%s" % (ref, src, dst, kind_, cp,
                                                                     "".join(" %s" % a for a in args)))
                    if (kind_, cp) not in policers:
                        policers.add((kind_, cp))
                        down = "" if kind_ == "Null" else " %d" % (cp + 1) + (" %d" % (cp + 2) if kind_ in ("TSW3CM", "srTCM", "trTCM") else "")
                        out.append("%s addPolicerEntry %s %d%s" % (ref, kind_, cp, down))


    # -- CBQ (--queues) ----------------------------------------------------------------
    #
    # Also in --queues mode, from a stream of its own, after the fair
    # schedulers: in about half of the seeds one or two DropTail link
    # statements left (on the flows' paths mostly; not in --dynamics
    # scenarios) become CBQ or CBQ/WRR links.  Each direction gets a
    # link-sharing tree: a root (no queue), sometimes two agencies under it,
    # and two to four leaves with DropTail queues of random limits, random
    # allotments, priorities, borrowing, maxidle ("auto" or a number) and
    # extra delay; classes inserted in a random order (a child before its
    # parent too); the flow ids 0..15 bound to the leaves as single ids and
    # ranges; the link-sharing algorithm (ancestor-only, top-level, formal,
    # by name or number), WRR's maxpkt_, and now and then a mid-run
    # newallot.  Seeds whose draw gives no CBQ keep their script.

    CBQ_ALGS = ["ancestor-only", "top-level", "formal", "0", "1", "2"]

    # -- wired LANs (--lan) -----------------------------------------------------------
    #
    # Only in --lan mode, from a stream of its own, after everything else:
    # one or two LANs, each over two to five of the nodes, made once every
    # node and link exists (so each LAN takes the next node numbers): an
    # 802.3 LAN (make-lan, now and then with collision traces or a short
    # interface queue), a plain-MAC LAN (newLan or make-lan ... Mac) or an
    # abstract LAN (make-abslan), at random bandwidths and delays, sometimes
    # with a cost.  The routes then take them where they are shorter, or tie
    # and win or lose on ns-2's node order.  The other draws are untouched.
    def build_lan(self):
        if not self.lan:
            return
        y = Rng(((self.seed ^ 0x6A09E667F3BCC908) * 0xBB67AE8584CAA73B + 0x3C6EF372FE94F82B
                 + self.attempt * 0x9E3779B97F4A7C15) & M64)
        if self.n < 2:
            return
        for j in range(1 + y.chance(35)):
            k = y.randint(2, min(5, self.n))
            members = sorted(y.sample(list(range(self.n)), k))
            if y.chance(50):
                y.shuffle(members)
            nodes = " ".join(self.nref(m) for m in members)
            bw = y.choice(["10Mb", "10Mb", "100Mb", "2Mb", "1.5Mb", "45Mb"])
            d = y.choice(["1ms", "2ms", "0.5ms", "5ms", "10ms", "20us"])
            kind = y.weighted([("802_3", 50), ("plain", 30), ("abstract", 20)])
            v = "lan(%d)" % j
            if kind == "802_3":
                trace = "-trace on " if y.chance(35) else ""
                qlen = (" Phy/WiredPhy %d" % y.randint(3, 30)) if y.chance(40) else ""
                self.lan_lines.append("set %s [$ns make-lan %s\"%s\" %s %s LL Queue/DropTail Mac/802_3 Channel%s]"
                                      % (v, trace, nodes, bw, d, qlen))
                self.lan_kinds.append("802_3" + ("-trace" if trace else ""))
            elif kind == "plain":
                if y.chance(50):
                    opt = (" -ifqLen %d" % y.randint(3, 30)) if y.chance(50) else ""
                    self.lan_lines.append("set %s [$ns newLan \"%s\" %s %s%s]" % (v, nodes, bw, d, opt))
                else:
                    self.lan_lines.append("set %s [$ns make-lan \"%s\" %s %s LL Queue/DropTail Mac Channel]"
                                          % (v, nodes, bw, d))
                self.lan_kinds.append("plain")
            else:
                qlen = (" %d" % y.randint(2, 40)) if y.chance(60) else ""
                self.lan_lines.append("set %s [$ns make-abslan \"%s\" %s %s%s]" % (v, nodes, bw, d, qlen))
                self.lan_kinds.append("abstract")
            if y.chance(30):
                self.lan_lines.append("$%s cost %d" % (v, y.randint(1, 4)))

    def build_cbq(self):
        if not self.queues or self.dynamics:
            return
        z = Rng(((self.seed ^ 0x510E527FADE682D1) * 0x9B05688C2B3E6C1F + 0x1F83D9ABFB41BD6B
                 + self.attempt * 0x9E3779B97F4A7C15) & M64)
        if not z.chance(50):
            return
        used = self.used_links()
        stmts = self.plain_stmts()
        if not stmts:
            return
        on_path = [st for st in stmts if any(id(l) in used for l in st[1])] or stmts
        chosen = z.sample(on_path, min(len(on_path), z.randint(1, 2)))
        T = self.end_us
        # the leaves' queue kinds and their variables from a third stream,
        # so that the trees drawn from `z` stay as they were
        zq = Rng(((self.seed ^ 0x3C6EF372FE94F82B) * 0xA54FF53A5F1D36F1 + 0x510E527FADE682D1
                  + self.attempt * 0x9E3779B97F4A7C15) & M64)
        for kind, ls in chosen:
            q = z.choice(["CBQ", "CBQ/WRR"])
            for l in ls:
                l["qtype"] = q
            self.queue_kinds.append(q)
            for l in ls:
                k = self.ncbq
                self.ncbq += 1
                self.queue_lines += self.cbq_tree(z, k, l, q, T, zq)

    def cbq_tree(self, z, k, l, qtype, T, zq):
        """Tcl lines for CBQ link `l`'s classes (tree number `k`); a leaf's
        queue is a DropTail, or now and then (`zq`) an SFQ or a DRR with
        random variables: SFQ's room and buckets (or its `limit` command),
        DRR's byte limit, quantum, buckets and source mask."""
        L = ["set cbql(%d) [$ns link %s %s]" % (k, self.nref(l["src"]), self.nref(l["dst"]))]
        name = lambda j: "$cbqc(%d,%d)" % (k, j)

        def maxidle():
            return "auto" if z.chance(60) else z.choice(["0", "0.001", "0.004", "0.02", "0.1", "1.0"])

        def allot(lo, hi):
            return "%d.%02d" % divmod(z.randint(lo, hi), 100)

        classes = []     # (index, parent index or None, is leaf)
        agencies = z.chance(30)     # two classes between the root and the leaves
        L.append("set cbqc(%d,0) [new CBQClass]" % k)
        L.append("%s setparams none %s %s %s %d %d 0" % (name(0), z.choice(["0", "1", "false", "true"]),
                                                      allot(80, 100), maxidle(), z.choice([8, 8, 5]), 3 if agencies else 2))
        classes.append((0, None, False))
        top = [0]
        if agencies:
            for _ in range(2):
                j = len(classes)
                L.append("set cbqc(%d,%d) [new CBQClass]" % (k, j))
                L.append("%s setparams %s 1 %s %s 8 2 0" % (name(j), name(0), allot(20, 70), maxidle()))
                classes.append((j, 0, False))
            top = [1, 2]
        for _ in range(z.randint(2, 4)):
            j = len(classes)
            parent = z.choice(top)
            L.append("set cbqc(%d,%d) [new CBQClass]" % (k, j))
            lk = zq.weighted([("DropTail", 70), ("SFQ", 15), ("DRR", 15), ("PI", 5), ("REM", 4), ("Vq", 4), ("GK", 4),
                              ("SRR", 3), ("RED/RIO", 4)])
            L.append("set cbqq [new Queue/%s]" % lk)
            if z.chance(80):
                lim = z.weighted([(z.randint(2, 10), 40), (z.randint(11, 60), 50), (z.randint(61, 400), 10)])
                if lk not in ("SFQ", "DRR"):
                    L.append("$cbqq set limit_ %d" % lim)
            # the other kinds' variables (none linked unless the draw links
            # it: REM, Vq and GK then read the link's rate; RIO, never reset
            # unless the draw resets it, needs a weight)
            if lk == "RED/RIO":
                L.append("$cbqq set q_weight_ %s" % zq.choice(["0.002", "0.01", "0.05"]))
            for var, vals, pct in (("PI set qref_", ["2", "5", "20"], 60), ("PI set setbit_", ["true"], 30),
                                   ("REM set pbo_", ["2", "5", "20"], 50), ("REM set markpkts_", ["true"], 30),
                                   ("Vq set markpkts_", ["true"], 40), ("Vq set queue_in_bytes_", ["false"], 40),
                                   ("GK set ecnlim_", ["0.3", "0.8"], 50), ("RED/RIO set thresh_", ["2", "5"], 40)):
                if var.startswith(lk + " ") and zq.chance(pct):
                    L.append("$cbqq %s %s" % (var[len(lk) + 1:], zq.choice(vals)))
            if lk in ("REM", "Vq", "GK", "RED/RIO") and zq.chance(40):
                L.append("$cbqq link [$cbql(%d) link]" % k)
                if lk == "RED/RIO":
                    L.append("$cbqq reset")
            for var, vals, pct in (("SFQ set maxqueue_", [3, 8, 16, 40], 60), ("SFQ set buckets_", [1, 2, 4, 16], 40),
                                   ("SFQ limit", [5, 12, 30], 20),
                                   ("DRR set blimit_", [1500, 3000, 6000, 25000], 70),
                                   ("DRR set quantum_", [100, 250, 700, 1500], 50),
                                   ("DRR set buckets_", [1, 3, 10], 30), ("DRR set mask_", [1], 15)):
                if var.startswith(lk + " ") and zq.chance(pct):
                    L.append("$cbqq %s %d" % (var[len(lk) + 1:], zq.choice(vals)))
            L.append("%s install-queue $cbqq" % name(j))
            xdelay = "0" if z.chance(75) else z.choice(["0.005", "0.02", "0.1"])
            L.append("%s setparams %s %s %s %s %d 1 %s" % (name(j), name(parent), z.choice(["true", "false", "1", "0"]),
                                                        allot(1, 60), maxidle(), z.randint(0, 3), xdelay))
            classes.append((j, parent, True))
        # inserted parents first (root, agencies, leaves), the leaves in a
        # random order; now and then all in a random order
        order = [c[0] for c in classes]
        if z.chance(70):
            z.shuffle(order)
            if z.chance(70):
                order.sort(key=lambda j: 0 if classes[j][1] is None else (1 if not classes[j][2] else 2))
        for j in order:
            L.append("$cbql(%d) insert %s" % (k, name(j)))
        leaves = [c[0] for c in classes if c[2]]
        fid = 0
        while fid <= 15:
            leaf = z.choice(leaves)
            hi = min(15, fid + z.weighted([(0, 50), (z.randint(1, 4), 35), (15, 15)]))
            if hi == fid:
                L.append("$cbql(%d) bind %s %d" % (k, name(leaf), fid))
            else:
                L.append("$cbql(%d) bind %s %d %d" % (k, name(leaf), fid, hi))
            fid = hi + 1
        L.append("[$cbql(%d) queue] algorithm %s" % (k, z.choice(self.CBQ_ALGS)))
        if qtype == "CBQ/WRR" and z.chance(50):
            L.append("[$cbql(%d) queue] set maxpkt_ %d" % (k, z.choice([500, 1000, 1500, 3000])))
        for _ in range(z.weighted([(0, 70), (1, 20), (2, 10)])):
            t = fmt_us(z.randint(1, max(1, T - 1)))
            # (not 0: ns-2 dies of SIGFPE when a class of allotment 0 sends)
            L.append('$ns at %s "%s newallot %s"' % (t, name(z.choice(leaves)), allot(1, 80)))
        return L

    # -- TCP-Linux (--linux) -----------------------------------------------------------
    #
    # Only in --linux mode, from a stream of its own: some flows (at least
    # one) become Agent/TCP/Linux, most with a congestion control chosen by
    # `select_ca` (at creation, at time 0 or later in the run, sometimes a
    # second one mid-run), some left to ns-2's own window control; SACK
    # and delayed-ACK sinks; now and then a module parameter changed for
    # one sender (`set_ca_param`) or for all (`set_ca_default_param`); the
    # finish proc prints their windows.  The other draws are untouched.

    LINUX_CCS = ["reno", "cubic", "highspeed", "scalable", "vegas", "veno", "yeah", "bic", "htcp", "hybla",
                 "illinois", "westwood", "lp", "compound"]
    # Chosen in mid-transfer only these: ns-2 2.35 crashes at the next ACK
    # after a switch to vegas, veno, yeah, illinois or lp with packets in
    # flight (it reads a send-time table that does not exist yet).
    LINUX_CCS_LATER = ["reno", "cubic", "highspeed", "scalable", "bic", "htcp", "hybla", "westwood", "compound"]
    LINUX_PARAMS = {"cubic": [("beta", [717, 819, 900]), ("fast_convergence", [0, 1]), ("tcp_friendliness", [0, 1])],
                    "bic": [("beta", [700, 819]), ("low_window", [4, 14, 40]), ("max_increment", [8, 16, 32])],
                    "vegas": [("alpha", [2, 4, 6]), ("beta", [6, 8, 12]), ("gamma", [1, 2, 4])],
                    "htcp": [("use_rtt_scaling", [0, 1]), ("use_bandwidth_switch", [0, 1])],
                    "hybla": [("rtt0", [10, 25, 50])],
                    "illinois": [("win_thresh", [5, 15, 30]), ("theta", [2, 5])]}

    def build_linux(self):
        if not self.linux:
            return
        y = Rng(((self.seed ^ 0x1F83D9ABFB41BD6B) * 0x5BE0CD19137E2179 + 0x6A09E667F3BCC908
                 + self.attempt * 0x9E3779B97F4A7C15) & M64)
        share = y.choice([30, 50, 80, 100])
        chosen = [f for f in self.flows if y.chance(share)] or [y.choice(self.flows)]
        for f in chosen:
            f["flavour"] = "TCP/Linux"
            if y.chance(50):
                f["sink"] = y.choice(["TCPSink/Sack1", "TCPSink/Sack1/DelAck", "TCPSink", "TCPSink/DelAck"])
            cmds = []
            if y.chance(90):
                when = y.weighted([("now", 40), ("zero", 40), ("later", 20)])
                cc = y.choice(self.LINUX_CCS_LATER if when == "later" else self.LINUX_CCS)
                if when == "now":
                    cmds.append("$tcp(%d) select_ca %s" % (f["i"], cc))
                else:
                    t = "0.0" if when == "zero" else fmt_us(y.randint(1, 2_000_000))
                    cmds.append('$ns at %s "$tcp(%d) select_ca %s"' % (t, f["i"], cc))
                if cc in self.LINUX_PARAMS and y.chance(30):
                    name, values = y.choice(self.LINUX_PARAMS[cc])
                    verb = y.choice(["set_ca_param", "set_ca_default_param"])
                    cmds.append("$tcp(%d) %s %s %s %d" % (f["i"], verb, cc, name, y.choice(values)))
                if y.chance(10):
                    cmds.append('$ns at %s "$tcp(%d) select_ca %s"'
                                % (fmt_us(1_000_000 + y.randint(0, 3_000_000)), f["i"], y.choice(self.LINUX_CCS_LATER)))
            f["linux_cmds"] = cmds
        for f in chosen:
            if y.chance(60):
                self.linux_finish.append('    puts "linux %d: cwnd_ [$tcp(%d) set cwnd_] ssthresh_ [$tcp(%d) set ssthresh_]'
                                         ' next_pkts_in_flight_ [$tcp(%d) set next_pkts_in_flight_]"'
                                         % (f["i"], f["i"], f["i"], f["i"]))

    # -- link dynamics (--dynamics) ---------------------------------------------------
    #
    # Only in --dynamics mode, from a stream of its own: links going down and
    # up by route models (Manual through rtmodel-at, Deterministic,
    # Exponential), some set up during the run, some links made dynamic
    # during the run by `$link dynamic` with packets in flight, models
    # deleted, and static or Session routing.  Links whose delay a mid-run
    # change may lower are left alone: on a dynamic link ns-2 then reuses a
    # delivered packet's memory while its arrival event is still queued
    # (docs/ns2-layer.md, differences from ns-2).

    def build_dyn(self):
        if not self.dynamics:
            return
        y = Rng(((self.seed ^ 0x452821E638D01377) * 0xBE5466CF34E90C6C + 0xC0AC29B7C97C50DD
                 + self.attempt * 0x9E3779B97F4A7C15) & M64)
        T = self.end_us
        g = self.gran

        def t_us(lo=0):
            lo_q = (lo + g - 1) // g
            hi_q = max(lo_q, (T - 1) // g)
            return y.randint(lo_q, hi_q) * g

        def secs():
            # an interval in seconds, 0.01 .. a third of the run
            us = y.randint(10000, max(10000, T // 3))
            return fmt_us(us)

        slow = set()
        for kind, l, _ in self.changes:
            if kind == "delay":
                slow.add(frozenset((l["src"], l["dst"])))
        have = {(l["src"], l["dst"]) for l in self.links}
        pairs = sorted({(min(a, b), max(a, b)) for a, b in have if (b, a) in have
                        and frozenset((a, b)) not in slow})
        if not pairs:
            return
        L = self.dyn_lines
        if self.dynamics == "dv" and all((b, a) in have for a, b in have):
            # check.py --dv: distance-vector routing over the same dynamics
            # (only where every link has a way back: ns-2 stops at the
            # first update that crosses a simplex link)
            L.append("$ns rtproto DV")
            self.dyn_kinds.append("dv")
        elif y.chance(40):
            L.append("$ns rtproto Session")
            self.dyn_kinds.append("session")
        models = 0
        for _ in range(y.randint(1, 4)):
            a, b = y.choice(pairs)
            na, nb = self.nref(a), self.nref(b)
            kind = y.weighted([("at", 35), ("det", 15), ("exp", 15), ("mid_at", 15), ("mid_link", 15),
                               ("node", 5)])
            self.dyn_kinds.append(kind)
            if kind == "at":
                t = t_us()
                L.append("$ns rtmodel-at %s down %s %s" % (fmt_us(t), na, nb))
                if y.chance(75):
                    L.append("$ns rtmodel-at %s up %s %s" % (fmt_us(t_us(t)), na, nb))
            elif kind in ("det", "exp"):
                cls = "Deterministic" if kind == "det" else "Exponential"
                form = y.randint(2, 4)
                parms = [secs() for _ in range(form)]
                if form >= 3:
                    parms[0] = fmt_us(t_us())
                if form == 4:
                    parms[3] = fmt_us(t_us())
                models += 1
                L.append("set rtm(%d) [$ns rtmodel %s {%s} %s %s]" % (models, cls, " ".join(parms), na, nb))
                # Deleted only after its finish time: ns-2 keeps the queued
                # events of a deleted model and fails on them ("invalid
                # command name"), naming OTcl handles Dumbbell numbers
                # differently.
                fin_us = int(round(float(parms[3]) * 1e6)) if form == 4 else None
                if fin_us is not None and fin_us < T - g and y.chance(50):
                    self.dyn_kinds.append("delete")
                    L.append('$ns at %s "$ns rtmodel-delete $rtm(%d)"' % (fmt_us(t_us(fin_us + g)), models))
            elif kind == "mid_at":
                t = t_us()
                L.append('$ns at %s "$ns rtmodel-at %s down %s %s"' % (fmt_us(t), fmt_us(t_us(t)), na, nb))
                if y.chance(70):
                    L.append('$ns at %s "$ns rtmodel-at %s up %s %s"' % (fmt_us(t), fmt_us(t_us(t)), na, nb))
            elif kind == "mid_link":
                t = t_us()
                link = "[$ns link %s %s]" % ((na, nb) if y.chance(50) else (nb, na))
                L.append('$ns at %s "%s dynamic"' % (fmt_us(t), link))
                t2 = t_us(t)
                L.append('$ns at %s "%s down"' % (fmt_us(t2), link))
                if y.chance(70):
                    L.append('$ns at %s "%s up"' % (fmt_us(t_us(t2)), link))
            elif all((d, a) in have for x, d in have if x == a):
                # every link of node a (its neighbours are the ends of its
                # outgoing links) has a way back: ns-2 fails otherwise
                t = t_us()
                L.append("$ns rtmodel-at %s down %s" % (fmt_us(t), na))
                if y.chance(75):
                    L.append("$ns rtmodel-at %s up %s" % (fmt_us(t_us(t)), na))

    # -- UDP traffic (--traffic) ------------------------------------------------------
    #
    # Only in --traffic mode, from a stream of its own: one to four UDP
    # sources between random nodes -- CBR (rate, random_, maxpkts_),
    # Exponential and Pareto on/off sources (some on RNGs of their own) --
    # into LossMonitors or Null agents, started and stopped during the run,
    # some on/off sources driving one of the TCP flows' agents instead, and
    # callbacks printing the LossMonitors' counters.  Rates are kept low
    # enough that the traces stay within the budget.

    def build_traffic(self):
        if not self.traffic:
            return
        z = Rng(((self.seed ^ 0x13198A2E03707344) * 0x9E3779B97F4A7C15 + 0xA4093822299F31D0
                 + self.attempt * 0xD1B54A32D192ED03) & M64)
        T = self.end_us
        g = self.gran

        def t_us(lo=0):
            lo_q = (lo + g - 1) // g
            hi_q = max(lo_q, (T - 1) // g)
            return z.randint(lo_q, hi_q) * g

        L = self.traffic_lines
        k = z.randint(1, 4)
        # packets per source over the run: the traces stay small
        budget = max(50, 4000 // k)
        secs = max(T / 1e6, 0.1)
        mons = []
        for i in range(k):
            kind = z.weighted([("CBR", 40), ("Exponential", 30), ("Pareto", 30)])
            self.traffic_kinds.append(kind)
            a, b = z.sample(range(self.n), 2)
            size = z.choice([40, 100, 210, 500, 1000, 1460])
            pps = max(1.0, min(200.0, budget / secs))
            rate_bps = int(pps * size * 8) // 100 * 100 or 800
            L.append("set udp(%d) [new Agent/UDP]" % i)
            if z.chance(40):
                L.append("$udp(%d) set fid_ %d" % (i, z.randint(0, 15)))
            L.append("$ns attach-agent %s $udp(%d)" % (self.nref(a), i))
            if z.chance(65):
                L.append("set lm(%d) [new Agent/LossMonitor]" % i)
                L.append("$ns attach-agent %s $lm(%d)" % (self.nref(b), i))
                L.append("$ns connect $udp(%d) $lm(%d)" % (i, i))
                mons.append(i)
            else:
                L.append("set null(%d) [new Agent/Null]" % i)
                L.append("$ns attach-agent %s $null(%d)" % (self.nref(b), i))
                L.append("$ns connect $udp(%d) $null(%d)" % (i, i))
            L.append("set src(%d) [new Application/Traffic/%s]" % (i, kind))
            L.append("$src(%d) attach-agent $udp(%d)" % (i, i))
            L.append("$src(%d) set packetSize_ %d" % (i, size))
            L.append("$src(%d) set rate_ %s" % (i, z.choice(["%d" % rate_bps, "%gk" % (rate_bps / 1000.0)])))
            if kind == "CBR":
                if z.chance(30):
                    L.append("$src(%d) set random_ 1" % i)
                if z.chance(25):
                    L.append("$src(%d) set maxpkts_ %d" % (i, z.randint(1, 300)))
                if z.chance(20):
                    L.append("$src(%d) set interval_ %s" % (i, fmt_us(max(1000, int(1e6 * size * 8 / rate_bps)))))
            else:
                L.append("$src(%d) set burst_time_ %s" % (i, z.choice(["%dms" % z.randint(5, 500), fmt_us(z.randint(5000, 500000))])))
                L.append("$src(%d) set idle_time_ %s" % (i, z.choice(["%dms" % z.randint(5, 500), fmt_us(z.randint(5000, 500000))])))
                if kind == "Pareto" and z.chance(60):
                    L.append("$src(%d) set shape_ %s" % (i, z.choice(["1.1", "1.2", "1.5", "1.9", "2.5"])))
                if z.chance(30):
                    L.append("set rng(%d) [new RNG]" % i)
                    L.append("$rng(%d) seed %d" % (i, z.randint(1, 100000)))
                    L.append("$src(%d) use-rng $rng(%d)" % (i, i))
            t0 = t_us()
            L.append('$ns at %s "$src(%d) start"' % (fmt_us(t0), i))
            if z.chance(40):
                t1 = t_us(t0)
                L.append('$ns at %s "$src(%d) stop"' % (fmt_us(t1), i))
                if z.chance(50):
                    L.append('$ns at %s "$src(%d) start"' % (fmt_us(t_us(t1)), i))
        if self.flows and z.chance(30):
            # an on/off source driving a TCP agent (its packets are typed
            # exp/pareto and traced with their RTP seqno)
            f = z.choice(self.flows)
            kind = z.choice(["Exponential", "Pareto"])
            self.traffic_kinds.append("tcp-" + kind)
            L.append("set tsrc [new Application/Traffic/%s]" % kind)
            L.append("$tsrc attach-agent $tcp(%d)" % f["i"])
            L.append("$tsrc set rate_ %dk" % z.randint(8, 64))
            L.append('$ns at %s "$tsrc start"' % fmt_us(t_us()))
        for i in mons:
            for _ in range(z.randint(1, 2)):
                L.append('$ns at %s {puts "lm%d t=[$ns now] [$lm(%d) set npkts_] [$lm(%d) set bytes_] '
                         '[$lm(%d) set nlost_] [$lm(%d) set lastPktTime_] [$lm(%d) set expected_]"}'
                         % (fmt_us(t_us()), i, i, i, i, i, i))

    # -- TFRC (--tfrc) -----------------------------------------------------------------
    #
    # Only in --tfrc mode, from a stream of its own: one to three TFRC
    # connections between random nodes, beside the TCP flows, with random
    # sender and receiver settings (class-level or per object), started
    # and stopped themselves (SndrType_ 0) or fed by FTP (produce, send),
    # CBR or Telnet (SndrType_ 1); their counters are printed at random
    # times.  A sender that always has data runs for at most about 3000
    # packets at its path's widest bottleneck, so traces stay small.

    def build_tfrc(self):
        if not self.tfrc:
            return
        w = Rng(((self.seed ^ 0x2B7E151628AED2A6) * 0x9E3779B97F4A7C15 + 0xABF7158809CF4F3C
                 + self.attempt * 0xD1B54A32D192ED03) & M64)
        T = self.end_us
        g = self.gran

        def t_us(lo=0, hi=None):
            hi = T - 1 if hi is None else min(hi, T - 1)
            lo_q = (lo + g - 1) // g
            hi_q = max(lo_q, hi // g)
            return w.randint(lo_q, hi_q) * g

        L = self.tfrc_lines
        if w.chance(30):
            L.append("Agent/TFRC set %s" % w.choice(["ca_ 0", "df_ 0.25", "packetSize_ 500", "overhead_ 0.2",
                                                      "rate_init_option_ 1", "conservative_ true", "ssmult_ 1.5"]))
        if w.chance(30):
            L.append("Agent/TFRCSink set %s" % w.choice(["algo_ 2", "algo_ 3", "algo_ 4", "discount_ 0", "smooth_ 0",
                                                          "NumFeedback_ 2", "ShortIntervals_ 1", "PreciseLoss_ 0"]))
        for i in range(w.randint(1, 3)):
            a, b = w.sample(range(self.n), 2)
            mode = w.weighted([("start", 45), ("ftp", 20), ("produce", 10), ("cbr", 15), ("telnet", 10)])
            self.tfrc_kinds.append(mode)
            size = w.choice([1000, 500, 1460, 200])
            if w.chance(50):
                L.append("set rc(%d) [new Agent/TFRC]" % i)
                L.append("$ns attach-agent %s $rc(%d)" % (self.nref(a), i))
                L.append("set rcs(%d) [new Agent/TFRCSink]" % i)
                L.append("$ns attach-agent %s $rcs(%d)" % (self.nref(b), i))
                L.append("$ns connect $rc(%d) $rcs(%d)" % (i, i))
            else:
                L.append("set rc(%d) [$ns create-connection TFRC %s TFRCSink %s %d]"
                         % (i, self.nref(a), self.nref(b), w.randint(0, 15)))
                L.append("set rcs(%d) [%s agent [$rc(%d) set dst_port_]]" % (i, self.nref(b), i))
            L.append("$rc(%d) set packetSize_ %d" % (i, size))
            for var, vals in (("ca_", ["0", "1"]), ("df_", ["0.25", "0.5", "0.95"]), ("overhead_", ["0.1", "0.5"]),
                              ("conservative_", ["true"]), ("scmult_", ["1.2", "2"]), ("maxHeavyRounds_", ["1", "3"]),
                              ("rate_init_option_", ["1"]), ("rate_init_", ["1", "3"]), ("slow_increase_", ["0"]),
                              ("InitRate_", ["1000", "10000"]), ("minrto_", ["0.2", "1.0"]), ("bval_", ["2"]),
                              ("useHeaders_", ["false"]), ("idleFix_", ["false"]), ("oldCode_", ["true"]),
                              ("ssmult_", ["1.5", "3"]), ("voip_", ["1"]), ("fid_", ["7", "12"])):
                if w.chance(12):
                    L.append("$rc(%d) set %s %s" % (i, var, w.choice(vals)))
            for var, vals in (("algo_", ["2", "3", "4"]), ("discount_", ["0"]), ("smooth_", ["0"]),
                              ("NumFeedback_", ["2", "4"]), ("PreciseLoss_", ["0"]), ("numPkts_", ["3"]),
                              ("ShortIntervals_", ["1", "3"]), ("NumSamples_", ["4", "8"]),
                              ("minDiscountRatio_", ["0.25"]), ("AdjustHistoryAfterSS_", ["0"]), ("minlc_", ["2"])):
                if w.chance(12):
                    L.append("$rcs(%d) set %s %s" % (i, var, w.choice(vals)))
            bw = self.paths(a, b, size, set())[0]
            # at most about 3000 packets at the widest bottleneck
            span = max(g, min(T, int(3000 * size * 8 / bw * 1e6)))
            t0 = t_us()
            if mode == "start":
                L.append('$ns at %s "$rc(%d) start"' % (fmt_us(t0), i))
                t1 = t_us(t0, t0 + span)
                L.append('$ns at %s "$rc(%d) stop"' % (fmt_us(t1), i))
                if w.chance(30):
                    t2 = t_us(t1)
                    L.append('$ns at %s "$rc(%d) start"' % (fmt_us(t2), i))
                    L.append('$ns at %s "$rc(%d) stop"' % (fmt_us(t_us(t2, t2 + span)), i))
            else:
                L.append("$rc(%d) set SndrType_ 1" % i)
                if mode in ("ftp", "produce"):
                    L.append("set rca(%d) [$rc(%d) attach-app FTP]" % (i, i))
                    if mode == "produce":
                        L.append('$ns at %s "$rca(%d) produce %d"' % (fmt_us(t0), i, w.randint(1, 400)))
                        if w.chance(50):
                            L.append('$ns at %s "$rca(%d) producemore %d"' % (fmt_us(t_us(t0)), i, w.randint(1, 300)))
                    else:
                        L.append('$ns at %s "$rca(%d) send %d"' % (fmt_us(t0), i, w.randint(1, 3000) * size))
                elif mode == "cbr":
                    L.append("set rca(%d) [new Application/Traffic/CBR]" % i)
                    L.append("$rca(%d) attach-agent $rc(%d)" % (i, i))
                    L.append("$rca(%d) set packetSize_ %d" % (i, size))
                    L.append("$rca(%d) set interval_ %s" % (i, w.choice(["0.01", "0.002", "0.05", "0.1"])))
                    L.append("$rca(%d) set maxpkts_ %d" % (i, w.randint(10, 2000)))
                    L.append('$ns at %s "$rca(%d) start"' % (fmt_us(t0), i))
                else:
                    L.append("set rca(%d) [$rc(%d) attach-app Telnet]" % (i, i))
                    L.append("$rca(%d) set interval_ %s" % (i, w.choice(["0.01", "0.05", "0.2"])))
                    L.append('$ns at %s "$rca(%d) start"' % (fmt_us(t0), i))
                    L.append('$ns at %s "$rca(%d) stop"' % (fmt_us(t_us(t0, t0 + span)), i))
            for _ in range(w.randint(1, 2)):
                L.append('$ns at %s {puts "tfrc%d t=[$ns now] [$rc(%d) set ndatapack_] [$rc(%d) set ndatabytes_] '
                         '[$rc(%d) set rate_] [$rc(%d) set true_loss_rate_] [$rcs(%d) set bytes_]"}'
                         % (fmt_us(t_us()), i, i, i, i, i, i))

    # -- two-way TCP (--full) ------------------------------------------------------------
    #
    # Only in --full mode, from a stream of its own: one to three FullTcp
    # connections (Agent/TCP/FullTcp, /Tahoe, /Newreno, /Sack) between
    # random nodes, beside the one-way flows: the far end listens (by
    # `listen` or create-connection-listen), random per-object settings,
    # data from FTP (start, produce, producemore), `advance-bytes` or
    # `sendmsg N MSG_EOF`; sometimes the listener sends too (two-way data,
    # or, if it starts before the SYN arrives, a simultaneous open), and
    # one end closes at a random time.  An FTP that always has data is
    # closed after at most about 3000 segments at its path's widest
    # bottleneck.  Counters of both ends are printed at random times and
    # at the end.

    # -- Quick-Start (--qs) ------------------------------------------------------------
    #
    # Only in --qs mode, from a stream of its own: every node gets a
    # Quick-Start router (`node-config -QS ON` before the nodes, so each
    # node's agents sit one port up), every TCP and sink has Quick-Start
    # on, and the flows ask for rates.  Random router settings (approval
    # rule, shares, period, rate encoding, queue utilization weights),
    # some routers switched off, sender options (request mode, threshold,
    # assumed RTT, loss recovery), rarely the printed requests.

    def build_qs(self):
        if not self.qs:
            return
        w = Rng(((self.seed ^ 0x71C3A5E90B2D4F68) * 0x9E3779B97F4A7C15 + 0x5851F42D4C957F2D
                 + self.attempt * 0xD1B54A32D192ED03) & M64)
        H = self.qs_head
        H.append(w.choice(["$ns node-config -QS ON", "$ns QS ON"]))
        H.append("Agent/TCP set qs_enabled_ %s" % w.choice(["true", "1"]))
        H.append("Agent/TCPSink set qs_enabled_ %s" % w.choice(["true", "1"]))
        algo = w.weighted([(3, 50), (1, 15), (2, 20), (4, 10), (0, 5)])
        self.qs_kinds.append("algorithm%d" % algo)
        H.append("Agent/QSAgent set algorithm_ %d" % algo)
        for var, vals in [("alloc_rate_", ["0.5", "0.85", "0.95", "1.0", "0.01", "0.2"]),
                          ("threshold_", ["0.5", "0.85", "0.9", "1.0", "0.1"]),
                          ("state_delay_", ["0.2", "0.35", "0.05", "1"]),
                          ("rate_function_", ["1", "2"]),
                          ("max_rate_", ["256", "16", "1000"])]:
            if w.chance(50):
                H.append("Agent/QSAgent set %s %s" % (var, w.choice(vals)))
        for var, vals in [("util_weight_", ["0.8", "2", "8"]), ("util_check_intv_", ["0.2", "0.05", "1"]),
                          ("util_records_", ["5", "0", "2"])]:
            if w.chance(35):
                H.append("Queue set %s %s" % (var, w.choice(vals)))
                self.qs_kinds.append(var)
        for var, vals in [("qs_request_mode_", ["0", "1"]), ("qs_thresh_", ["1", "4", "20"]),
                          ("qs_rtt_", ["50", "200", "1000"]), ("tcp_qs_recovery_", ["false", "true"])]:
            if w.chance(30):
                H.append("Agent/TCP set %s %s" % (var, w.choice(vals)))
                self.qs_kinds.append(var)
        if w.chance(8):
            H.append("Agent/TCP set print_request_ true")
            self.qs_kinds.append("print_request_")
        L = self.qs_lines
        for f in self.flows:
            if w.chance(85):
                L.append("$tcp(%d) set rate_request_ %d" % (f["i"], w.choice([4, 20, 40, 100, 500, 2000])))
        if w.chance(30):
            for k in w.sample(range(self.n), w.randint(1, min(2, self.n))):
                L.append("[%s qs-agent] set qs_enabled_ 0" % self.nref(k))
            self.qs_kinds.append("router_off")

    def build_full(self):
        if not self.full:
            return
        w = Rng(((self.seed ^ 0x452821E638D01377) * 0x9E3779B97F4A7C15 + 0xBE5466CF34E90C6C
                 + self.attempt * 0xD1B54A32D192ED03) & M64)
        T = self.end_us
        g = self.gran

        def t_us(lo=0, hi=None):
            hi = T - 1 if hi is None else min(hi, T - 1)
            lo_q = (lo + g - 1) // g
            hi_q = max(lo_q, hi // g)
            return w.randint(lo_q, hi_q) * g

        L = self.full_lines
        counters = "ndatapack_ ndatabytes_ nackpack_ nrexmitpack_ cwnd_ ssthresh_ t_seqno_ ack_".split()
        for i in range(w.randint(1, 3)):
            a, b = w.sample(range(self.n), 2)
            cls = w.choice(["FullTcp", "FullTcp/Tahoe", "FullTcp/Newreno", "FullTcp/Sack"])
            mode = w.weighted([("ftp", 30), ("produce", 20), ("bytes", 15), ("eof", 10), ("twoway", 25)])
            self.full_kinds.append(mode)
            fid = w.randint(0, 15)
            if w.chance(50):
                L.append("set ft(%d) [new Agent/TCP/%s]" % (i, cls))
                L.append("set fts(%d) [new Agent/TCP/%s]" % (i, cls))
                L.append("$ns attach-agent %s $ft(%d)" % (self.nref(a), i))
                L.append("$ns attach-agent %s $fts(%d)" % (self.nref(b), i))
                L.append("$ft(%d) set fid_ %d" % (i, fid))
                if w.chance(70):
                    L.append("$fts(%d) set fid_ %d" % (i, fid))
                L.append("$ns connect $ft(%d) $fts(%d)" % (i, i))
                L.append("$fts(%d) listen" % i)
            else:
                L.append("set ft(%d) [$ns create-connection-listen TCP/%s %s TCP/%s %s %d]"
                         % (i, cls, self.nref(a), cls, self.nref(b), fid))
                L.append("set fts(%d) [%s agent [$ft(%d) set dst_port_]]" % (i, self.nref(b), i))
            size = w.choice([536, 1000, 1460, 200])
            if w.chance(60):
                L.append("$ft(%d) set segsize_ %d" % (i, size))
                L.append("$fts(%d) set segsize_ %d" % (i, size))
            else:
                size = 536
            for end in ("ft", "fts"):
                for var, vals in (("segsperack_", ["2", "3"]), ("interval_", ["0.05", "200ms", "0"]),
                                  ("nodelay_", ["true"]), ("window_", ["8", "20", "64"]), ("tcpTick_", ["0.1", "0.5"]),
                                  ("windowInit_", ["2", "4"]), ("dupseg_fix_", ["false"]), ("dupack_reset_", ["true"]),
                                  ("tcprexmtthresh_", ["2", "4"]), ("maxburst_", ["2", "4"]),
                                  ("spa_thresh_", ["2000", "10000"]), ("iss_", ["100", "5000"]),
                                  ("halfclose_", ["true"]), ("nopredict_", ["true"]), ("minrto_", ["0.2", "1"])):
                    if w.chance(10):
                        L.append("$%s(%d) set %s %s" % (end, i, var, w.choice(vals)))
            bw = self.paths(a, b, size + 40, set())[0]
            span = max(g, min(T, int(3000 * (size + 40) * 8 / bw * 1e6)))
            t0 = t_us(0, T // 2)
            closer = None
            if mode in ("ftp", "produce", "twoway"):
                L.append("set fta(%d) [$ft(%d) attach-app FTP]" % (i, i))
                if mode == "ftp" or (mode == "twoway" and w.chance(50)):
                    L.append('$ns at %s "$fta(%d) start"' % (fmt_us(t0), i))
                    closer = t_us(t0, t0 + span)
                else:
                    L.append('$ns at %s "$fta(%d) produce %d"' % (fmt_us(t0), i, w.randint(1, 300)))
                    if w.chance(40):
                        L.append('$ns at %s "$fta(%d) producemore %d"' % (fmt_us(t_us(t0)), i, w.randint(1, 200)))
                if mode == "twoway":
                    L.append("set ftb(%d) [$fts(%d) attach-app FTP]" % (i, i))
                    t1 = t_us(t0)
                    L.append('$ns at %s "$ftb(%d) produce %d"' % (fmt_us(t1), i, w.randint(1, 200)))
            elif mode == "bytes":
                L.append('$ns at %s "$ft(%d) advance-bytes %d"' % (fmt_us(t0), i, w.randint(1, 200000)))
            else:
                L.append('$ns at %s "$ft(%d) sendmsg %d MSG_EOF"' % (fmt_us(t0), i, w.randint(1, 100000)))
            if closer is not None or w.chance(25):
                t = closer if closer is not None else t_us(t0)
                who = "ft" if closer is not None or w.chance(70) else "fts"
                L.append('$ns at %s "$%s(%d) close"' % (fmt_us(t), who, i))
            for _ in range(w.randint(1, 2)):
                end = w.choice(["ft", "fts"])
                L.append('$ns at %s {puts "full%d %s t=[$ns now]%s"}'
                         % (fmt_us(t_us()), i, end, "".join(" [$%s(%d) set %s]" % (end, i, v) for v in counters)))
            self.full_finish.append('    puts "full%d end:%s"'
                                    % (i, "".join(" [$%s(%d) set %s]" % (e, i, v) for e in ("ft", "fts")
                                                  for v in counters[:4])))

    # -- the remaining ns-2 transports (--xcp, --rbp, --delaybox, --bay, --jobs) ----------
    #
    # Each only in its mode, from a random stream of its own, after the
    # scenario is drawn: the other draws are untouched, so such a script is
    # its plain seed's script with these additions.

    def mode_rng(self, salt):
        return Rng(((self.seed ^ salt) * 0xD6E8FEB86659FD93 + 0x8CB92BA72F3D8DD7
                    + self.attempt * 0x9E3779B97F4A7C15) & M64)

    def mode_t_us(self, y, lo=0, hi=None):
        """A random time in [lo, hi] (default: before the end) on the scenario's granularity."""
        T, g = self.end_us, self.gran
        hi = T - 1 if hi is None else min(hi, T - 1)
        lo_q = (lo + g - 1) // g
        hi_q = max(lo_q, hi // g)
        return y.randint(lo_q, hi_q) * g

    def plain_stmts(self):
        """Link statements whose queues are plain DropTail without a per-queue setting."""
        knobbed = {id(l) for l, _, _ in self.qknobs if l is not None}
        return [(kind, ls) for kind, ls in self.link_stmts
                if all(l.get("qtype", "DropTail") == "DropTail" and id(l) not in knobbed for l in ls)]

    @staticmethod
    def on_path(stmts, used):
        """Of `stmts`, those with a link in `used` (all of them if none
        has), and the slowest of those (where queues build up); None if
        `stmts` is empty."""
        if not stmts:
            return None
        on_path = [st for st in stmts if any(id(l) in used for l in st[1])] or stmts
        return on_path, min(on_path, key=lambda st: min(l["bw"] for l in st[1]))

    # XCP (--xcp): the slowest plain DropTail link statement on the flows'
    # paths and up to two others become Queue/XCP, each told its capacity
    # (`set-link-capacity`: the link's bandwidth, as a number or read from
    # the link, now and then a different one); some flows become
    # Agent/TCP/Reno/XCP with TCPSink/XCPSink (the others stay ordinary
    # TCPs, so XCP and TCP mix, `tcp_xcp_on_` sometimes on); now and then
    # one or two FullTcp/Newreno/XCP connections too, as ns-2's xcp suite
    # runs them.
    def build_xcp(self):
        if not self.xcp:
            return
        y = self.mode_rng(0x243F6A8885A308D3)
        stmts = self.plain_stmts()
        stmt_of = {id(l): ls for _, ls in stmts for l in ls}
        xcp_stmts = []          # statements made XCP, in the order of self.link_stmts when emitted

        def make_xcp(ls):
            if not any(ls is x for x in xcp_stmts):
                xcp_stmts.append(ls)

        # An XCP sender's request is unbounded (1e24 bytes/s) until an XCP
        # queue lowers it: on a path without one its window overflows and
        # ns-2 dies of a floating-point exception (int(cwnd_) in window()).
        # So a flow becomes XCP only if a link on every one of its cheapest
        # paths gets an XCP queue (the slowest such plain DropTail link).
        share = y.choice([30, 50, 80, 100])
        cands = [f for f in self.flows if y.chance(share)] or [y.choice(self.flows)]
        must = {f["i"]: self.paths(f["src"], f["dst"], 1000, set())[4] for f in self.flows}

        def is_xcp(ls):
            return any(ls is x for x in xcp_stmts)

        def guarded(f):
            return any(id(l) in stmt_of and is_xcp(stmt_of[id(l)]) for l in must[f["i"]])

        for f in cands:
            if not guarded(f):
                plain = [l for l in must[f["i"]] if id(l) in stmt_of]
                if plain:
                    make_xcp(stmt_of[id(min(plain, key=lambda l: l["bw"]))])
        if stmts and y.chance(40):
            make_xcp(y.choice(stmts)[1])
        # The candidates that every path takes through an XCP queue become
        # XCP flows; every other flow stays what it was and may cross XCP
        # queues (ns-2 queues its TCP packets and its other packets in the
        # XCP queue's two RED virtual queues).
        xflows = {f["i"] for f in cands if guarded(f)}
        chosen = [f for f in self.flows if f["i"] in xflows]
        self.xcp_kinds.append("xcp_flows=%d/%d" % (len(chosen), len(self.flows)) if chosen else "no_xcp_flow")
        for kind, ls in self.link_stmts:
            if not any(ls is x for x in xcp_stmts):
                continue
            for l in ls:
                l["qtype"] = "XCP"
                a, b = self.nref(l["src"]), self.nref(l["dst"])
                ref = "[[$ns link %s %s] queue]" % (a, b)
                how = y.weighted([("number", 45), ("link", 45), ("other", 10)])
                if how == "number":
                    cap = str(int(l["bw"]))
                elif how == "link":
                    cap = "[[[$ns link %s %s] set link_] set bandwidth_]" % (a, b)
                else:
                    cap = str(int(l["bw"] * y.choice([25, 50, 80]) // 100))
                self.mode_link_lines.append("%s set-link-capacity %s" % (ref, cap))
                self.xcp_kinds.append("cap:" + how)
                if y.chance(15):
                    self.mode_link_lines.append("%s queue-limit %d" % (ref, y.randint(2, 200)))
                    self.xcp_kinds.append("xcp-queue-limit")
        if y.chance(30):
            self.class_settings.append((y.choice(["pre", "post"]), "Queue/XCP", "tcp_xcp_on_", y.choice(["1", "true"])))
            self.xcp_kinds.append("tcp_xcp_on_")
        for f in chosen:
            f["flavour"] = "TCP/Reno/XCP"
            if y.chance(85):
                f["sink"] = "TCPSink/XCPSink"
                f["interval"] = None
            self.xcp_kinds.append(f["sink"])
            if y.chance(20):
                f["settings"].append(("timestamps_", y.choice(["false", "0", "true"])))
        if y.chance(15):
            self.class_settings.append(("post", "Agent/TCP/Reno/XCP", "packetSize_", y.choice(["1000", "512", "1460"])))
        for f in chosen:
            if y.chance(60):
                self.mode_finish.append('    puts "xcp %d: ack_ [$tcp(%d) set ack_] cwnd_ [$tcp(%d) set cwnd_]'
                                        ' nrexmitpack_ [$tcp(%d) set nrexmitpack_] ndatapack_ [$tcp(%d) set ndatapack_]"'
                                        % (f["i"], f["i"], f["i"], f["i"], f["i"]))
        if chosen and y.chance(35):
            L = self.mode_lines
            for i in range(y.randint(1, 2)):
                f = y.choice(chosen)
                a, b = f["src"], f["dst"]
                L.append("set xf(%d) [new Agent/TCP/FullTcp/Newreno/XCP]" % i)
                L.append("set xfs(%d) [new Agent/TCP/FullTcp/Newreno/XCP]" % i)
                size = y.choice([536, 1000, 1460])
                for e in ("xf", "xfs"):
                    L.append("$%s(%d) set segsize_ %d" % (e, i, size))
                    L.append("$%s(%d) set packetSize_ %d" % (e, i, size))
                if y.chance(50):
                    L.append("$xf(%d) set window_ %d" % (i, y.choice([8, 20, 64])))
                L.append("$xf(%d) set class_ %d" % (i, y.randint(0, 15)))
                L.append("$ns attach-agent %s $xf(%d)" % (self.nref(a), i))
                L.append("$ns attach-agent %s $xfs(%d)" % (self.nref(b), i))
                L.append("$ns connect $xf(%d) $xfs(%d)" % (i, i))
                L.append("$xfs(%d) listen" % i)
                L.append("set xa(%d) [new Application/FTP]" % i)
                L.append("$xa(%d) attach-agent $xf(%d)" % (i, i))
                t0 = self.mode_t_us(y, 0, self.end_us // 2)
                if y.chance(50):
                    L.append('$ns at %s "$xa(%d) start"' % (fmt_us(t0), i))
                    L.append('$ns at %s "$xa(%d) stop"' % (fmt_us(self.mode_t_us(y, t0)), i))
                else:
                    L.append('$ns at %s "$xa(%d) produce %d"' % (fmt_us(t0), i, y.randint(1, 400)))
                self.mode_finish.append('    puts "xfull %d: [$xf(%d) set ndatapack_] [$xf(%d) set ack_] [$xfs(%d) set nackpack_]"'
                                        % (i, i, i, i))
                self.mode_globals.update(["xf", "xfs"])
                self.xcp_kinds.append("FullTcp/Newreno/XCP")
        # Cross traffic through an XCP queue's RED virtual queues: ordinary
        # TCP flows and a CBR stream from one end of an XCP link to the
        # other, now and then with Queue/RED's class defaults changed before
        # the queues are made (they are read when each Queue/XCP is made).
        xlinks = [l for _, ls in self.link_stmts if any(ls is x for x in xcp_stmts) for l in ls]
        if xlinks and y.chance(60):
            L = self.mode_lines
            if y.chance(40):
                for var, vals in y.sample([("thresh_", ["2", "5", "10"]), ("maxthresh_", ["8", "15", "30"]),
                                           ("q_weight_", ["0.002", "0.02", "0.1"]), ("linterm_", ["2", "10"]),
                                           ("gentle_", ["false", "true"]), ("wait_", ["false"]),
                                           ("drop_tail_", ["false"]), ("queue_in_bytes_", ["true"])], y.randint(1, 3)):
                    self.class_settings.append(("pre", "Queue/RED", var, y.choice(vals)))
                    self.xcp_kinds.append("red:" + var)
            for i in range(y.randint(1, 3)):
                l = y.choice(xlinks)
                a, b = self.nref(l["src"]), self.nref(l["dst"])
                fl = y.choice(["Reno", "Newreno", "Sack1", ""])
                L.append("set xc(%d) [new Agent/TCP%s]" % (i, "/" + fl if fl else ""))
                L.append("set xcs(%d) [new Agent/%s]" % (i, "TCPSink/Sack1" if fl == "Sack1" else "TCPSink"))
                L.append("$xc(%d) set window_ %d" % (i, y.choice([20, 50, 100])))
                L.append("$xc(%d) set fid_ %d" % (i, 40 + i))
                L.append("$ns attach-agent %s $xc(%d)" % (a, i))
                L.append("$ns attach-agent %s $xcs(%d)" % (b, i))
                L.append("$ns connect $xc(%d) $xcs(%d)" % (i, i))
                L.append("set xca(%d) [new Application/FTP]" % i)
                L.append("$xca(%d) attach-agent $xc(%d)" % (i, i))
                t0 = self.mode_t_us(y, 0, self.end_us // 2)
                L.append('$ns at %s "$xca(%d) start"' % (fmt_us(t0), i))
                self.mode_finish.append('    puts "xcross %d: [$xc(%d) set ack_] [$xc(%d) set nrexmitpack_]"' % (i, i, i))
                self.xcp_kinds.append("cross-tcp")
            if y.chance(50):
                l = y.choice(xlinks)
                a, b = self.nref(l["src"]), self.nref(l["dst"])
                L.append("set xu [new Agent/UDP]")
                L.append("set xn [new Agent/Null]")
                L.append("$ns attach-agent %s $xu" % a)
                L.append("$ns attach-agent %s $xn" % b)
                L.append("$ns connect $xu $xn")
                L.append("set xcbr [new Application/Traffic/CBR]")
                L.append("$xcbr attach-agent $xu")
                L.append("$xcbr set packetSize_ %d" % y.choice([200, 500, 1000]))
                L.append("$xcbr set rate_ %d" % int(l["bw"] * y.choice([20, 50, 90, 120]) // 100))
                t0 = self.mode_t_us(y, 0, self.end_us // 2)
                L.append('$ns at %s "$xcbr start"' % fmt_us(t0))
                self.mode_globals.update(["xu"])
                self.xcp_kinds.append("cross-cbr")
            self.mode_globals.update(["xc", "xcs"])
        # An XCP queue's own trace file (attach), now and then its sampling
        # period and its mice/elephants split; the finish proc reads its
        # drop count.
        if xlinks and y.chance(35):
            l = y.choice(xlinks)
            ref = "[[$ns link %s %s] queue]" % (self.nref(l["src"]), self.nref(l["dst"]))
            L = self.mode_link_lines
            L.append("set xq %s" % ref)
            L.append("set xqf [open xcpq.tr w]")
            L.append("$xq attach $xqf")
            if y.chance(50):
                L.append("$xq num-mice %d" % y.randint(1, 4))
            if y.chance(50):
                L.append('$ns at %s "$xq queue-sample-everyrtt %s"'
                         % (fmt_us(self.mode_t_us(y, 0, self.end_us // 2)), y.choice(["0.02", "0.05", "0.2"])))
            self.mode_finish.append('    puts "xcp queue drops [$xq queue-read-drops]"')
            self.mode_globals.update(["xq", "xqf"])
            self.xcp_kinds.append("xcp-qtrace")

    # RBP (--rbp): some flows (at least one) become Agent/TCP/Vegas/RBP or
    # Agent/TCP/Reno/RBP, with random `rbp_scale_`, Vegas/RBP's
    # `rbp_rate_algorithm_` (1: Vegas's rate, 2: cwnd/srtt), slow-start
    # restart on or off, `restart_bugfix_`, Vegas's alpha/beta; extra
    # `producemore` calls after idle times (RBP paces the restart of an
    # idle connection); the finish proc prints the pacing counters.
    def build_rbp(self):
        if not self.rbp:
            return
        y = self.mode_rng(0x13198A2E03707344)
        share = y.choice([30, 50, 80, 100])
        chosen = [f for f in self.flows if y.chance(share)] or [y.choice(self.flows)]
        for f in chosen:
            f["flavour"] = y.choice(["TCP/Vegas/RBP", "TCP/Reno/RBP"])
            self.rbp_kinds.append(f["flavour"])
        scales = ["0.75", "0.5", "1", "1.25", "0.3", "2"]
        for cls in ("Agent/TCP/Vegas/RBP", "Agent/TCP/Reno/RBP"):
            if y.chance(20):
                self.class_settings.append((y.choice(["pre", "post"]), cls, "rbp_scale_", y.choice(scales)))
        if y.chance(20):
            self.class_settings.append((y.choice(["pre", "post"]), "Agent/TCP/Vegas/RBP", "rbp_rate_algorithm_", y.choice(["1", "2"])))
        for f in chosen:
            vegas = f["flavour"] == "TCP/Vegas/RBP"
            if y.chance(50):
                f["settings"].append(("rbp_scale_", y.choice(scales)))
            if vegas and y.chance(50):
                alg = y.choice(["1", "2"])
                f["settings"].append(("rbp_rate_algorithm_", alg))
                self.rbp_kinds.append("alg" + alg)
            if y.chance(40):
                v = y.choice(["true", "false", "1", "0"])
                f["settings"].append(("slow_start_restart_", v))
                self.rbp_kinds.append("ssr=" + v)
            if y.chance(40):
                f["settings"].append(("restart_bugfix_", y.choice(["1", "0", "true"])))
            if vegas and y.chance(25):
                f["settings"].append(("v_alpha_", str(y.randint(0, 4))))
                f["settings"].append(("v_beta_", str(y.randint(2, 8))))
            # bursts after idle times: what RBP paces
            for _ in range(y.weighted([(0, 30), (1, 30), (2, 25), (4, 15)])):
                self.mode_lines.append('$ns at %s "$ftp(%d) producemore %d"'
                                       % (fmt_us(self.mode_t_us(y)), f["i"], y.randint(1, 60)))
                self.rbp_kinds.append("producemore")
            extra = " v_rtt_ [$tcp(%d) set v_rtt_]" % f["i"] if vegas else " srtt_ [$tcp(%d) set srtt_]" % f["i"]
            self.mode_finish.append('    puts "rbp %d: paced [$tcp(%d) set rbp_segs_actually_paced_] delay'
                                    ' [$tcp(%d) set rbp_inter_pace_delay_] scale [$tcp(%d) set rbp_scale_]'
                                    ' cwnd_ [$tcp(%d) set cwnd_]%s"' % (f["i"], f["i"], f["i"], f["i"], f["i"], extra))

    # DelayBox (--delaybox): one to three nodes, routers on the flows'
    # paths where there are some, are made by `$ns DelayBox`; each gets
    # rules (`add-rule SRC DST DELAY ?LOSS? ?SPEED?`) for some flows' node
    # pairs (either way round) with random RandomVariables (Uniform,
    # Constant, Exponential delays in ms, loss rates, speeds in Mb/s; on
    # RNGs of their own or the default one), sometimes `set-asymmetric`.
    def build_delaybox(self):
        if not self.delaybox:
            return
        y = self.mode_rng(0xA4093822299F31D0)
        ends = {f["src"] for f in self.flows} | {f["dst"] for f in self.flows}
        on_path = set()
        used = self.used_links()
        for l in self.links:
            if id(l) in used:
                on_path |= {l["src"], l["dst"]}
        routers = sorted(on_path - ends)
        pool = routers if routers and y.chance(85) else sorted(on_path or range(self.n))
        boxes = y.sample(pool, min(len(pool), y.weighted([(1, 55), (2, 35), (3, 10)])))
        self.dbox_nodes = set(boxes)
        self.dbox_kinds.append("router" if set(boxes) <= set(routers) else "endpoint")
        L = self.mode_link_lines
        nrv = 0

        def rv(kind):
            nonlocal nrv
            k = nrv
            nrv += 1
            v = "dbrv(%d)" % k
            if kind == "delay":
                dist = y.weighted([("Uniform", 50), ("Constant", 30), ("Exponential", 20)])
            elif kind == "loss":
                dist = y.weighted([("Uniform", 60), ("Constant", 40)])
            else:
                dist = y.weighted([("Uniform", 50), ("Constant", 50)])
            L.append("set %s [new RandomVariable/%s]" % (v, dist))
            self.dbox_kinds.append("%s:%s" % (kind, dist))
            if kind == "delay":
                lo = y.randint(0, 40)
                vals = {"Uniform": [("min_", lo), ("max_", lo + y.randint(1, 80))],
                        "Constant": [("val_", y.randint(1, 100))], "Exponential": [("avg_", y.randint(2, 50))]}[dist]
            elif kind == "loss":
                vals = {"Uniform": [("min_", "0"), ("max_", y.choice(["0.01", "0.02", "0.05", "0.1"]))],
                        "Constant": [("val_", y.choice(["0", "0.01", "0.03"]))]}[dist]
            else:
                lo = y.choice([1, 2, 5, 10])
                vals = {"Uniform": [("min_", lo), ("max_", lo + y.randint(1, 50))],
                        "Constant": [("val_", y.choice(["0.5", "1", "2", "10", "100"]))]}[dist]
            for var, val in vals:
                L.append("$%s set %s %s" % (v, var, val))
            if y.chance(60):
                L.append("set dbrng(%d) [new RNG]" % k)
                if y.chance(70):
                    L.append("$dbrng(%d) seed %d" % (k, y.randint(1, 100000)))
                L.append("$%s use-rng $dbrng(%d)" % (v, k))
            return "$" + v

        for b in boxes:
            pairs = []
            for f in y.sample(self.flows, min(len(self.flows), y.randint(1, 4))):
                pair = (f["src"], f["dst"]) if y.chance(80) else (f["dst"], f["src"])
                if pair not in pairs:
                    pairs.append(pair)
            if y.chance(20):
                pairs.append(tuple(y.sample(range(self.n), 2)))
            shared = {}
            for s, d in pairs:
                nargs = y.weighted([(1, 35), (2, 25), (3, 40)])
                args = []
                for kind in ("delay", "loss", "speed")[:nargs]:
                    if kind in shared and y.chance(50):
                        args.append(shared[kind])
                    else:
                        shared[kind] = rv(kind)
                        args.append(shared[kind])
                self.dbox_kinds.append("args%d" % nargs)
                L.append("$n(%d) add-rule [$n(%d) id] [$n(%d) id] %s" % (b, s, d, " ".join(args)))
            if y.chance(35):
                L.append("$n(%d) set-asymmetric" % b)
                self.dbox_kinds.append("asymmetric")

    # Bay two-way TCP (--bay): one to three Agent/TCP/BayFullTcp
    # connections between random nodes, most fetching files (an
    # Agent/BayTcpApp/FtpClient on the active side, an FtpServer of random
    # `file_size` on the listening one), some sending `advance N`; random
    # window, segment size, ACK frequency, delayed-ACK interval, Nagle, ISS,
    # recovery settings; client stops; their counters printed.
    def build_bay(self):
        if not self.bay:
            return
        y = self.mode_rng(0x082EFA98EC4E6C89)
        L = self.mode_lines
        T = self.end_us
        for i in range(y.randint(1, 3)):
            a, b = y.sample(range(self.n), 2)
            L.append("set bt(%d) [new Agent/TCP/BayFullTcp]" % i)
            L.append("set bts(%d) [new Agent/TCP/BayFullTcp]" % i)
            size = 536
            if y.chance(50):
                size = y.choice([1460, 1000, 512, 200])
                for e in ("bt", "bts"):
                    L.append("$%s(%d) set segsize_ %d" % (e, i, size))
                if y.chance(50):
                    L.append("$bt(%d) set packetSize_ %d" % (i, size + 40))
            for e in ("bt", "bts"):
                for var, vals in (("window_", ["4", "5", "8", "20", "64"]), ("segsperack_", ["1", "2", "3"]),
                                  ("interval_", ["0.1", "0.4", "200ms", "0.05"]), ("tcprexmtthresh_", ["2", "3", "4"]),
                                  ("iss_", ["0", "100", "5000"]), ("nodelay_", ["true", "false"]),
                                  ("dupseg_fix_", ["false"]), ("dupack_reset_", ["true"]),
                                  ("maxburst_", ["2", "4"]), ("windowInit_", ["1", "2", "4"]), ("tcpTick_", ["0.1", "0.5", "0.01"])):
                    if y.chance(12):
                        L.append("$%s(%d) set %s %s" % (e, i, var, y.choice(vals)))
                        self.bay_kinds.append(var)
            fid = y.randint(0, 15)
            mode = y.weighted([("fetch", 75), ("advance", 25)])
            self.bay_kinds.append(mode)
            if mode == "fetch":
                L.append("set bc(%d) [new Agent/BayTcpApp/FtpClient]" % i)
                L.append("$bt(%d) attach-application $bc(%d)" % (i, i))
                L.append("$bc(%d) tcp $bt(%d)" % (i, i))
                L.append("set bs(%d) [new Agent/BayTcpApp/FtpServer]" % i)
                bw = self.paths(a, b, size + 40, set())[0]
                cap = max(2000, int(bw / 8 * y.choice([0.05, 0.2, 1, 3])))
                L.append("$bs(%d) file_size %d" % (i, y.randint(100, min(cap, 300000))))
                L.append("$bts(%d) attach-application $bs(%d)" % (i, i))
            L.append("$ns attach-agent %s $bt(%d)" % (self.nref(a), i))
            L.append("$ns attach-agent %s $bts(%d)" % (self.nref(b), i))
            L.append("$bt(%d) set fid_ %d" % (i, fid))
            if y.chance(70):
                L.append("$bts(%d) set fid_ %d" % (i, fid))
            L.append("$ns connect $bt(%d) $bts(%d)" % (i, i))
            L.append("$bts(%d) listen" % i)
            t0 = self.mode_t_us(y, 0, T // 2)
            if mode == "fetch":
                L.append('$ns at %s "$bc(%d) start"' % (fmt_us(t0), i))
                if y.chance(20):
                    L.append('$ns at %s "$bc(%d) stop"' % (fmt_us(self.mode_t_us(y, t0)), i))
                    self.bay_kinds.append("stop")
            else:
                # (never `close`: ns-2 2.35's BayFullTcp then spins forever
                # without simulated time passing -- seen for closes 0.16 s
                # and 5.7 s after `advance`, see check.py --bay seeds 12, 14, 28
                # before this rule)
                L.append('$ns at %s "$bt(%d) advance %d"' % (fmt_us(t0), i, y.randint(1, 300)))
            counters = "ndatapack_ ndatabytes_ nackpack_ nrexmitpack_ cwnd_ ssthresh_ ack_".split()
            if y.chance(50):
                e = y.choice(["bt", "bts"])
                L.append('$ns at %s {puts "bay%d %s t=[$ns now]%s"}'
                         % (fmt_us(self.mode_t_us(y)), i, e, "".join(" [$%s(%d) set %s]" % (e, i, v) for v in counters)))
            self.mode_finish.append('    puts "bay%d end:%s"' % (i, "".join(" [$%s(%d) set %s]" % (e, i, v)
                                                                           for e in ("bt", "bts") for v in counters[:4])))
            self.mode_globals.update(["bt", "bts"])

    # JoBS (--jobs): a network of its own beside the scenario's (so that
    # every packet entering it is marked with a class): two or three core
    # nodes joined by Queue/JoBS links (both ways; random relative delay and
    # loss, absolute loss, delay and rate constraints per class, shared
    # buffers, drop-front, ADC resolution, sampling period, a trace file
    # or none), two to four source/sink pairs hanging off its ends by
    # Queue/Marker links (class 1-4, deterministic) in and Queue/Demarker
    # links out; CBR sources into LossMonitors, or TCPs, per pair.
    def build_jobs(self):
        if not self.jobs:
            return
        y = self.mode_rng(0x452821E638D01377)
        L = self.mode_link_lines
        T = self.end_us
        hops = y.randint(2, 3)
        nsrc = y.randint(2, 4)
        # ns-default.tcl gives these classes no defaults: unset, ns-2 warns
        # and runs with whatever its C++ members hold (mean_pkt_size_ 0
        # divides by zero in `initialize`); its jobs suite sets them all
        # first, and so does every script here.
        for var, vals in (("drop_front_", ["false", "true"]), ("trace_hop_", ["false", "true"]),
                          ("adc_resolution_type_", ["0", "1"]), ("shared_buffer_", ["0", "1"]),
                          ("mean_pkt_size_", ["4000", "500", "1000"])):
            val = vals[0]
            if y.chance(40):
                val = y.choice(vals)
                self.jobs_kinds.append(var)
            L.append("Queue/JoBS set %s %s" % (var, val))
        for cls, pre in (("Demarker", "demarker"), ("Marker", "marker")):
            for k in range(1, 5):
                L.append("Queue/%s set %s_arrvs%d_ 0" % (cls, pre, k))
        pkt = y.choice([500, 1000, 200])
        bw = y.choice([1000000, 2000000, 5000000, 10000000])
        delay = y.choice(["1ms", "0.001", "5ms", "10ms"])
        buf = y.weighted([(y.randint(5, 40), 40), (y.randint(41, 800), 60)])
        for k in range(1, hops + 1):
            L.append("set jc(%d) [$ns node]" % k)
        for k in range(1, nsrc + 1):
            L.append("set js(%d) [$ns node]" % k)
            L.append("set jk(%d) [$ns node]" % k)

        # Every queue keeps a relative delay constraint on all four classes:
        # ns-2's rate controller (adjustRatesRDC) divides by the input rate
        # of the classes with one, and dies of a floating-point exception
        # when that is 0 while the link has rate to hand out (no such class,
        # or none of them has sent since the queue was last idle).
        def cons():
            kind = y.weighted([("rate", 35), ("lossdel", 35), ("mixed", 30)])
            self.jobs_kinds.append(kind)
            rd = [y.choice(["1", "2", "4", "3"]) for _ in range(4)]
            if kind == "rate":
                rates = sorted((bw * y.randint(5, 45) // 100 for _ in range(4)), reverse=True)
                return [rd, ["-1"] * 4, ["-1"] * 4, ["-1"] * 4, [str(r) if y.chance(60) else "-1" for r in rates]]
            rl = ["-1"] + [y.choice(["-1", "2", "3"]) for _ in range(3)]
            al = [y.choice(["-1", "0.01", "0.05"])] + ["-1"] * 3
            ad = [y.choice(["-1", "0.005", "0.02"])] + ["-1"] * 3
            ar = ["-1"] * 4
            if kind == "mixed":
                ar = [y.choice(["-1", str(bw // 4)])] + ["-1"] * 3
            return [rd, rl, al, ad, ar]

        qid = 0
        for k in range(1, hops):
            L.append("$ns duplex-link $jc(%d) $jc(%d) %d %s JoBS" % (k, k + 1, bw, delay))
            for a, b in ((k, k + 1), (k + 1, k)):
                L.append("$ns queue-limit $jc(%d) $jc(%d) %d" % (a, b, buf))
                qid += 1
                q = "jq(%d)" % qid
                L.append("set %s [[$ns link $jc(%d) $jc(%d)] queue]" % (q, a, b))
                c = cons()
                for name, vals in zip(("rdcs", "rlcs", "alcs", "adcs", "arcs"), c):
                    L.append("$%s init-%s %s" % (q, name, " ".join(vals)))
                L.append("$%s link [[$ns link $jc(%d) $jc(%d)] link]" % (q, a, b))
                if y.chance(25):
                    L.append("$%s trace-file jobs%d.tr" % (q, qid))
                    self.jobs_kinds.append("trace")
                else:
                    L.append("$%s trace-file null" % q)
                L.append("$%s sampling-period %d" % (q, y.choice([1, 1, 2, 5])))
                L.append("$%s id %d" % (q, qid))
                L.append("$%s initialize" % q)
        classes = [y.randint(1, 4) for _ in range(nsrc)]
        if y.chance(60):
            classes = [(k % 4) + 1 for k in range(nsrc)]
        for k in range(1, nsrc + 1):
            c = classes[k - 1]
            for edge, core in (("js", 1), ("jk", hops)):
                L.append("$ns simplex-link $%s(%d) $jc(%d) %d %s Marker" % (edge, k, core, bw, delay))
                L.append("$ns simplex-link $jc(%d) $%s(%d) %d %s Demarker" % (core, edge, k, bw, delay))
                L.append("$ns queue-limit $%s(%d) $jc(%d) %d" % (edge, k, core, buf))
                L.append("$ns queue-limit $jc(%d) $%s(%d) %d" % (core, edge, k, buf))
                L.append("[[$ns link $%s(%d) $jc(%d)] queue] marker_type 1" % (edge, k, core))
                L.append("[[$ns link $%s(%d) $jc(%d)] queue] marker_class %d" % (edge, k, core, c))
                L.append("[[$ns link $jc(%d) $%s(%d)] queue] trace-file null" % (core, edge, k))
        M = self.mode_lines
        for k in range(1, nsrc + 1):
            kind = y.weighted([("cbr", 60), ("tcp", 40)])
            self.jobs_kinds.append(kind)
            if kind == "cbr":
                M.append("set ju(%d) [new Agent/UDP]" % k)
                M.append("set jl(%d) [new Agent/LossMonitor]" % k)
                M.append("$ns attach-agent $js(%d) $ju(%d)" % (k, k))
                M.append("$ns attach-agent $jk(%d) $jl(%d)" % (k, k))
                M.append("$ns connect $ju(%d) $jl(%d)" % (k, k))
                M.append("$ju(%d) set packetSize_ %d" % (k, pkt))
                M.append("set jcbr(%d) [new Application/Traffic/CBR]" % k)
                M.append("$jcbr(%d) set packetSize_ %d" % (k, pkt))
                # a share of the core's rate, at most about 3000 packets
                rate = bw * y.randint(10, 60) // 100
                rate = min(rate, 3000 * pkt * 8 * 1000000 // max(1, T))
                M.append("$jcbr(%d) set rate_ %d" % (k, max(8000, rate)))
                M.append("$jcbr(%d) attach-agent $ju(%d)" % (k, k))
                t0 = self.mode_t_us(y, 0, T // 3)
                M.append('$ns at %s "$jcbr(%d) start"' % (fmt_us(t0), k))
                if y.chance(30):
                    M.append('$ns at %s "$jcbr(%d) stop"' % (fmt_us(self.mode_t_us(y, t0)), k))
                self.mode_finish.append('    puts "jobs %d: [$jl(%d) set npkts_] [$jl(%d) set nlost_] [$jl(%d) set bytes_]"'
                                        % (k, k, k, k))
                self.mode_globals.add("jl")
            else:
                M.append("set jt(%d) [new Agent/TCP/%s]" % (k, y.choice(["Reno", "Newreno"])))
                M.append("set jts(%d) [new Agent/TCPSink]" % k)
                M.append("$jt(%d) set packetSize_ %d" % (k, pkt))
                if y.chance(50):
                    M.append("$jt(%d) set window_ %d" % (k, y.choice([8, 20, 50])))
                M.append("$ns attach-agent $js(%d) $jt(%d)" % (k, k))
                M.append("$ns attach-agent $jk(%d) $jts(%d)" % (k, k))
                M.append("$ns connect $jt(%d) $jts(%d)" % (k, k))
                M.append("set jf(%d) [$jt(%d) attach-app FTP]" % (k, k))
                t0 = self.mode_t_us(y, 0, T // 3)
                M.append('$ns at %s "$jf(%d) produce %d"' % (fmt_us(t0), k, y.randint(10, 2000)))
                if y.chance(40):
                    M.append('$ns at %s "$jf(%d) producemore %d"' % (fmt_us(self.mode_t_us(y, t0)), k, y.randint(1, 500)))
                self.mode_finish.append('    puts "jobs %d: [$jt(%d) set ack_] [$jt(%d) set nrexmitpack_] [$jts(%d) set bytes_]"'
                                        % (k, k, k, k))
                self.mode_globals.update(["jt", "jts"])

    def flow_ecn(self, f):
        """Is flow f ECN-capable (ecn_ from its class default or its own setting)?"""
        on = False
        for cls, v, val in self.ecn_class:
            if v == "ecn_" and cls in ("Agent/TCP", "Agent/" + f["flavour"]):
                on = val in ("1", "true")
        for v, val in f.get("ecn", []):
            if v == "ecn_":
                on = val in ("1", "true")
        return on

    def ext_link_lines(self):
        """Per-queue RED settings and RED traces (after the links)."""
        L = []
        for q in self.redqs:
            l = q["link"]
            qref = "[[$ns link %s %s] queue]" % (self.nref(l["src"]), self.nref(l["dst"]))
            if q["k"] is not None:
                L.append("set redq(%d) %s" % (q["k"], qref))
                ref = "$redq(%d)" % q["k"]
            else:
                ref = qref
            for v, val in q["settings"]:
                L.append("%s set %s %s" % (ref, v, val))
        return L

    def red_trace_lines(self, fvar):
        L = []
        for q, fname, vs, attach_first in self.red_traces:
            ref = "$redq(%d)" % q["k"]
            att = "%s attach $%s" % (ref, fvar[fname])
            if attach_first:
                L.append(att)
            L += ["%s trace %s" % (ref, v) for v in vs]
            if not attach_first:
                L.append(att)
        return L

    def ext_meta(self):
        red_vars = sorted({v for _, v, _ in self.red_class} | {v for q in self.redqs for v, _ in q["settings"]})
        return {
            "ext": self.ext,
            "red": len(self.redqs),
            "red_knobs": red_vars,
            "red_class": bool(self.red_class),
            "red_trace": bool(self.red_traces),
            "ecn": sum(1 for f in self.flows if self.flow_ecn(f)),
            "errmodels": sorted(set(self.err_kinds)),
            "ext_changes": sorted({k for k, _, _ in self.ext_changes}),
            "ext_callbacks": bool(self.ext_cb),
        }


    # -- ns-2's PI, FQ, SRR and PriQueue (--sched) --------------------------------------
    #
    # Only in --sched mode, from a stream of its own, after everything else:
    # the slowest DropTail link statement on the flows' paths and up to two
    # others become Queue/PI (random gains a_/b_, sampling rate w_, qref_,
    # marking, bytes, a qref_ change mid-run), FQ links (ns-2's FQLink: a
    # per-flow DropTail, RED, SFQ, DRR, PI, REM, Vq, GK, SRR, RIO or PriQueue
    # queue made at each flow's first
    # packet; the per-flow queue's class limit, RED thresholds, SFQ's room
    # and buckets or DRR's byte limit, quantum, buckets and mask set after
    # the links, so only those queues get them, and sometimes the per-flow
    # kind changed mid-run, which only flows that start later see), Queue/SRR (every flow
    # id of the scenario mapped to one of its queues, every queue used given
    # a rate inside srr.cc's bounds: 1 kb/s to 100 Mb/s, at most 2^15
    # granularities; sometimes a rate changed mid-run) or
    # Queue/DropTail/PriQueue (a DropTail on a wired link, with or without
    # routing packets preferred).  The other draws are untouched.
    def build_sched(self):
        if not self.schedq:
            return
        y = self.mode_rng(0x7C9E4A1B2D3F5E61)
        found = self.on_path(self.plain_stmts(), self.used_links())
        if found is None:
            return
        on_path, slowest = found
        chosen = [slowest] + [st for st in y.sample(on_path, y.randint(0, min(2, len(on_path)))) if st is not slowest]
        kinds = y.weighted([("PI", 35), ("FQ", 25), ("SRR", 25), ("PriQueue", 5), ("mixed", 10)])
        fids = sorted({f["fid"] if (f["conn"] != "connect" or f["set_fid"]) else 0 for f in self.flows}) or [0]
        L = self.mode_link_lines
        fq_class = False
        queued = {id(l) for l, _ in self.tq_links}
        for si, (kind, ls) in enumerate(self.link_stmts):
            if (kind, ls) not in chosen:
                continue
            q = kinds if kinds != "mixed" else y.choice(["PI", "FQ", "SRR", "PriQueue"])
            # ns-2's FQLink gives each new flow queue the link's drop trace
            # (`$q drop-target $drpT_`), which only a traced link has: on an
            # untraced one ns-2 stops at the first packet (can't read
            # "drpT_"; Dumbbell runs on, docs/ns2-layer.md), so FQ goes on
            # traced links only
            traced = all(id(l) in queued for l in ls) or (self.trace_mode == "all" and si >= self.traceall_at)
            if q == "FQ" and not traced:
                q = y.choice(["PI", "SRR"])
            for l in ls:
                l["qtype"] = {"PriQueue": "DropTail/PriQueue"}.get(q, q)
            self.schedq_kinds.append(q)
            for l in ls:
                ref = "[[$ns link %s %s] queue]" % (self.nref(l["src"]), self.nref(l["dst"]))
                if q == "PI":
                    a, b = y.choice([("0.00001822", "0.00001816"), ("0.0001", "0.00009"),
                                     ("0.00005", "0.000048"), ("0.001", "0.0009")])
                    if y.chance(60):
                        L.append("%s set a_ %s" % (ref, a))
                        L.append("%s set b_ %s" % (ref, b))
                    inbytes = y.chance(20)
                    if inbytes:
                        L.append("%s set queue_in_bytes_ true" % ref)
                        L.append("%s set qref_ %d" % (ref, y.choice([3000, 10000, 25000])))
                    elif y.chance(60):
                        L.append("%s set qref_ %d" % (ref, y.choice([2, 5, 10, 20, 50])))
                    for var, val in (("w_", y.choice(["170", "100", "500", "50"])),
                                     ("mean_pktsize_", y.choice(["500", "1000", "1500"])),
                                     ("setbit_", y.choice(["true", "false"])),
                                     ("bytes_", y.choice(["true", "false"]))):
                        if y.chance(40):
                            L.append("%s set %s %s" % (ref, var, val))
                    if y.chance(30):
                        t = fmt_us(self.mode_t_us(y, 1))
                        val = y.choice([3000, 12000]) if inbytes else y.choice([3, 8, 30])
                        L.append('$ns at %s "%s set qref_ %d"' % (t, ref, val))
                elif q == "SRR":
                    nq = y.choice([2, 3, 4, 8])
                    gran = y.choice([1000, 5000, 10000, 20000])
                    if y.chance(40):
                        L.append("%s maxqueuenumber %d" % (ref, y.choice([16, 32, 99])))
                    if y.chance(50):
                        L.append("%s mtu %d" % (ref, y.choice([250, 500, 1000, 1500])))
                    L.append("%s granularity %d" % (ref, gran))
                    if y.chance(30):
                        L.append("%s set blimit_ %d" % (ref, y.choice([5000, 25000, 100000])))
                    queues = set()
                    for fid in fids:
                        qi = y.randint(0, nq - 1)
                        queues.add(qi)
                        if qi or y.chance(50):
                            L.append("%s setqueue %d %d" % (ref, fid, qi))
                    queues.add(0)
                    for qi in sorted(queues):
                        L.append("%s setrate %d %d" % (ref, qi, gran * y.choice([1, 2, 3, 8, 20, 64])))
                    if y.chance(25):
                        t = fmt_us(self.mode_t_us(y, 1))
                        L.append('$ns at %s "%s setrate %d %d"' % (t, ref, y.choice(sorted(queues)),
                                                                  gran * y.choice([1, 4, 16])))
                elif q == "PriQueue":
                    if y.chance(50):
                        L.append("%s set Prefer_Routing_Protocols %d" % (ref, y.choice([0, 1])))
                else:
                    fq_class = True
        if fq_class:
            # the per-flow queues FQLink makes at each flow's first packet
            # (ns-queue.tcl's new-flow): created after every link, so these
            # class settings reach only them
            kind = y.weighted([("DropTail", 40), ("RED", 30), ("SFQ", 15), ("DRR", 15), ("PI", 8), ("REM", 6),
                               ("Vq", 5), ("GK", 5), ("SRR", 4), ("RED/RIO", 5), ("DropTail/PriQueue", 2)])
            if kind != "DropTail":
                L.append("FQLink set queueManagement_ %s" % kind)
            # PI's, REM's, Vq's, GK's and RIO's class variables, for the kind
            # drawn (a flow queue is given no link: REM, Vq and GK measure
            # its rate as 0; PI's and REM's timers start at the flow's first
            # packet); RIO, never reset either, needs a weight as RED does
            if kind == "RED/RIO":
                L.append("Queue/RED/RIO set q_weight_ %s" % y.choice(["0.002", "0.01", "0.05"]))
            for var, vals, pct in (("Queue/PI set qref_", ["2", "5", "20"], 60),
                                   ("Queue/PI set a_", ["0.0001", "0.001"], 40), ("Queue/PI set setbit_", ["true"], 30),
                                   ("Queue/PI set w_", ["100", "500"], 30),
                                   ("Queue/REM set pbo_", ["2", "5", "20"], 50), ("Queue/REM set gamma_", ["0.01", "0.001"], 40),
                                   ("Queue/REM set markpkts_", ["true"], 30), ("Queue/REM set pupdtime_", ["0.001", "0.01"], 30),
                                   ("Queue/Vq set markpkts_", ["true"], 40), ("Queue/Vq set queue_in_bytes_", ["false"], 40),
                                   ("Queue/GK set ecnlim_", ["0.3", "0.8"], 50),
                                   ("Queue/RED/RIO set thresh_", ["2", "5"], 40), ("Queue/RED/RIO set out_maxthresh_", ["4", "10"], 40)):
                if var.startswith("Queue/%s set" % kind) and y.chance(pct):
                    L.append("%s %s" % (var, y.choice(vals)))
            if kind in ("PI", "REM", "Vq", "GK", "SRR", "RED/RIO") and y.chance(40):
                L.append("Queue set limit_ %d" % y.choice([3, 10, 25]))
            if kind == "RED":
                # a weight: a flow queue is never reset, so Queue/RED's
                # default -1 would double its average at each arrival until
                # it overflows, where ns-2 dies of SIGFPE (seeds 7217, 7328)
                L.append("Queue/RED set q_weight_ %s" % y.choice(["0.002", "0.01", "0.05"]))
            if kind == "RED" and y.chance(50):
                lo = y.randint(1, 5)
                L.append("Queue/RED set thresh_ %d" % lo)
                L.append("Queue/RED set maxthresh_ %d" % (lo + y.randint(1, 10)))
            # SFQ's room and buckets, DRR's byte limit (small enough to
            # overflow, several small packets at once for a large one),
            # quantum, buckets and source mask, for the kind drawn: set
            # now, they reach the flow queues of that kind made later
            for var, vals, pct in (("Queue/SFQ set maxqueue_", [4, 8, 16, 40], 50),
                                   ("Queue/SFQ set buckets_", [1, 2, 3, 16], 40),
                                   ("Queue/DRR set blimit_", [1500, 3000, 6000, 25000], 60),
                                   ("Queue/DRR set quantum_", [100, 250, 700, 1500], 50),
                                   ("Queue/DRR set buckets_", [1, 3, 10], 30),
                                   ("Queue/DRR set mask_", [1], 15)):
                if kind in var and y.chance(pct):
                    L.append("%s %d" % (var, y.choice(vals)))
            if y.chance(50):
                L.append("Queue/DropTail set limit_ %d" % y.choice([2, 5, 10, 20, 100]))
            if y.chance(20):
                t = fmt_us(self.mode_t_us(y, 1))
                L.append('$ns at %s "FQLink set queueManagement_ %s"' % (t, y.choice(["RED", "DropTail", "SFQ", "DRR", "PI", "REM",
                                                                                   "GK", "SRR"])))


    # -- ns-2's RED-PD (--redpd) ----------------------------------------------------------
    #
    # Only in --redpd mode, from a stream of its own, after everything else:
    # the slowest DropTail link statement on the flows' paths (and now and
    # then one more) becomes Queue/RED/PD, each of its queues with the flow
    # monitor ns-2's `makeflowmon` builds (Classifier/Hash/SrcDestFid or
    # /Fid, QueueMonitor/ED/Flow/RedPD per flow, the early-drop snoop),
    # random RED and RED-PD parameters (automatic identification with a
    # target bandwidth or a global target, P_testFRp_, noidle_), and
    # mid-run calls on the flows the monitor has seen: monitor-flow with
    # and without a probability, unmonitor-flow, unresponsive-flow,
    # responsive-flow, a new unresponsive_penalty_.  The finish prints every
    # monitored flow's counters in the monitor's order.
    def build_redpd(self):
        if not self.redpd:
            return
        y = self.mode_rng(0x2B7E151628AED2A6)
        found = self.on_path(self.plain_stmts(), self.used_links())
        if found is None:
            return
        on_path, slowest = found
        chosen = [slowest]
        if len(on_path) > 1 and y.chance(30):
            chosen.append(y.choice([st for st in on_path if st is not slowest]))
        fids = sorted({f["fid"] if (f["conn"] != "connect" or f["set_fid"]) else 0 for f in self.flows}) or [0]
        L = self.mode_link_lines
        T = self.end_us
        self.mode_globals.add("pdfm")
        k = 0
        for kind, ls in self.link_stmts:
            if (kind, ls) not in chosen:
                continue
            for l in ls:
                l["qtype"] = "RED/PD"
            for l in ls:
                ln = "[$ns link %s %s]" % (self.nref(l["src"]), self.nref(l["dst"]))
                ref = "[%s queue]" % ln
                cl = y.weighted([("", 60), ("SrcDestFid", 20), ("Fid", 20)])
                L.append("set pdfm(%d) [%s makeflowmon %s%s]" % (k, ref, ln, (" " + cl) if cl else ""))
                self.redpd_kinds.append(cl or "SrcDestFid")
                for var, val in (("thresh_", y.choice(["2", "5", "10"])),
                                 ("maxthresh_", y.choice(["15", "20", "40"])),
                                 ("q_weight_", y.choice(["0.002", "0.02", "0.2"])),
                                 ("gentle_", y.choice(["true", "false"])),
                                 ("linterm_", y.choice(["3", "10", "50"])),
                                 ("noidle_", y.choice(["true", "false"])),
                                 ("P_testFRp_", y.choice(["-1", "0.01", "0.05"])),
                                 ("unresponsive_penalty_", y.choice(["1", "2", "3.0"]))):
                    if y.chance(35):
                        L.append("%s set %s %s" % (ref, var, val))
                if y.chance(40):
                    self.redpd_kinds.append("auto")
                    L.append("%s set auto_ true" % ref)
                    if y.chance(50):
                        L.append("%s set global_target_ true" % ref)
                    else:
                        L.append("%s set targetBW_ %s" % (ref, y.choice(["20Kb", "100Kb", "0.5Mb", "2Mb"])))
                # calls in an order that makes sense (monitor, then declare
                # unresponsive, responsive again, unmonitor), each caught:
                # a flow not seen yet, or not monitored when its turn comes,
                # gives RED-PD's own error, printed
                for _ in range(y.weighted([(0, 20), (1, 35), (2, 30), (3, 15)])):
                    fid = y.choice(fids)
                    t = y.randint(1, max(1, T - 1))
                    acts = [y.weighted([("monitor-flow $f %s" % y.choice(["0.01", "0.1", "0.5"]), 70),
                                        ("monitor-flow $f %s %s" % (y.choice(["10000", "50000"]),
                                                                    y.choice(["100000", "400000"])), 30)])]
                    if y.chance(50):
                        acts.append("unresponsive-flow $f")
                        if y.chance(40):
                            acts.append("responsive-flow $f")
                    if y.chance(35):
                        acts.append("unmonitor-flow $f")
                    if y.chance(10):
                        acts = acts[1:] or acts     # out of order: RED-PD's error
                    for act in acts:
                        self.redpd_kinds.append(act.split()[0])
                        L.append('$ns at %s {foreach f [$pdfm(%d) flows] { if {[$f set flowid_] == %d} '
                                 '{ if {[catch {%s %s} e]} { puts "redpd %d at [$ns now]: $e" } } }}'
                                 % (fmt_us(t), k, fid, ref, act, k))
                        t = min(T - 1, t + y.randint(1, max(1, T // 4)))
                if y.chance(20):
                    self.redpd_kinds.append("penalty")
                    L.append('$ns at %s "%s set unresponsive_penalty_ %s"' % (fmt_us(y.randint(1, max(1, T - 1))), ref,
                                                                             y.choice(["2", "4"])))
                self.mode_finish.append('    foreach f [$pdfm(%d) flows] { puts "redpd %d: [$f set src_] [$f set dst_] '
                                        '[$f set flowid_] [$f set parrivals_] [$f set pdepartures_] [$f set pdrops_] '
                                        '[$f set barrivals_] [$f set bdrops_] [$f set epdrops_]" }' % (k, k))
                k += 1

    # -- emit -----------------------------------------------------------------------------

    def nref(self, k):
        return "$n(%d)" % k

    def emit(self):
        r = self.r
        L = []
        L.append("# Generated by tests/random/gen.py, seed %d (attempt %d)." % (self.seed, self.attempt))
        L.append("# %s, %d nodes, %d links, %d flows, end %s s, trace %s; estimate %.0f packet-hops, %.0f trace bytes"
                 % (self.kind, self.n, len(self.links), len(self.flows), fmt_us(self.end_us),
                    self.trace_mode, self.est[0], self.est[1]))
        if self.ext:
            L.append("# extras: RED on %d links%s, %d ECN flows, error models: %s%s"
                     % (len(self.redqs), " (traced)" if self.red_traces else "", self.ext_meta()["ecn"],
                        " ".join(sorted(set(self.err_kinds))) or "none", " (stress)" if self.stress else ""))
        pre = [c for c in self.class_settings if c[0] == "pre"]
        post = [c for c in self.class_settings if c[0] == "post"]
        for _, cls, var, val in pre:
            L.append("%s set %s %s" % (cls, var, val))
        L += ["Queue/RED set %s %s" % (v, val) for w, v, val in self.red_class if w == "pre"]
        L.append("set ns [new Simulator]")
        for _, cls, var, val in post:
            L.append("%s set %s %s" % (cls, var, val))
        for cls, var, val in self.class_knobs:
            L.append("%s set %s %s" % (cls, var, val))
        L += ["Queue/RED set %s %s" % (v, val) for w, v, val in self.red_class if w == "post"]
        L += ["%s set %s %s" % c for c in self.ecn_class]
        for l, var, val in self.qknobs:
            if l is None:
                L.append("Queue/DropTail set %s %s" % (var, val))
        if self.show_tcphdr:
            L.append("Trace set show_tcphdr_ 1")
        if self.delack_class:
            L.append("Agent/TCPSink/DelAck set interval_ %s" % self.delack_class)
        if r.chance(8):
            L.append("Queue set limit_ %d" % self.qlimit())
        L += self.qs_head
        files = []      # (var, name)
        if self.trace_mode == "all":
            files.append(("tf", "out.tr"))
        for l, fname in self.tq_links:
            if fname not in [f[1] for f in files]:
                files.append(("qf(%s)" % fname.split(".")[0], fname))
        for f, fname, _, _, _ in self.vtraces:
            if fname not in [x[1] for x in files]:
                files.append(("vf(%s)" % fname.split(".")[0], fname))
        if self.mq:
            files.append(("mqf", "qsample.tr"))
        files += [x for x in self.cb_files]
        files += self.ext_files
        self.files = files
        fvar = {name: var for var, name in files}
        for var, name in files:
            L.append("set %s [open %s w]" % (var, name))
        if self.trace_mode == "all" and self.traceall_at == 0:
            L.append("$ns trace-all $tf")

        # nodes and links
        created = set()
        up_front = r.chance(60)
        if up_front:
            if r.chance(50):
                L.append("for {set i 0} {$i < %d} {incr i} {" % self.n)
                if self.dbox_nodes:
                    L.append("    if {%s} {" % " || ".join("$i == %d" % k for k in sorted(self.dbox_nodes)))
                    L.append("        set n($i) [$ns DelayBox]")
                    L.append("    } else {")
                    L.append("        set n($i) [$ns node]")
                    L.append("    }")
                else:
                    L.append("    set n($i) [$ns node]")
                L.append("}")
            else:
                for k in range(self.n):
                    L.append("set n(%d) %s" % (k, self.node_ctor(k)))
            created = set(range(self.n))
        for si, (kind, ls) in enumerate(self.link_stmts):
            if self.trace_mode == "all" and self.traceall_at == si and si > 0:
                L.append("$ns trace-all $tf")
            ends = []
            for l in ls:
                ends += [l["src"], l["dst"]]
            for k in ends:
                if k not in created:
                    L.append("set n(%d) %s" % (k, self.node_ctor(k)))
                    created.add(k)
            if kind == "duplex":
                l = ls[0]
                L.append("$ns duplex-link %s %s %s %s %s" % (self.nref(l["src"]), self.nref(l["dst"]), l["bws"], l["ds"],
                                                               l.get("qtype", "DropTail")))
            else:
                for l in ls:
                    L.append("$ns simplex-link %s %s %s %s %s" % (self.nref(l["src"]), self.nref(l["dst"]), l["bws"],
                                                                  l["ds"], l.get("qtype", "DropTail")))
        if self.trace_mode == "all" and self.traceall_at == len(self.link_stmts):
            L.append("$ns trace-all $tf")       # after every link: nothing traced
        for k in range(self.n):
            if k not in created:
                L.append("set n(%d) %s" % (k, self.node_ctor(k)))
        ql = [l for l in self.links if l["q"] is not None]
        r.shuffle(ql)
        for l in ql:
            L.append("$ns queue-limit %s %s %d" % (self.nref(l["src"]), self.nref(l["dst"]), l["q"]))
        for l, c in self.costs:
            L.append("$ns cost %s %s %d" % (self.nref(l["src"]), self.nref(l["dst"]), c))
        for l, var, val in self.qknobs:
            if l is not None:
                L.append("[[$ns link %s %s] queue] set %s %s" % (self.nref(l["src"]), self.nref(l["dst"]), var, val))
        L += ["Queue/RED set %s %s" % (v, val) for w, v, val in self.red_class if w == "late"]
        L += self.ext_link_lines()
        L += self.queue_lines
        L += self.lan_lines
        L += self.mode_link_lines
        L += self.red_trace_lines(fvar)
        for where, el in self.err_lines:
            if where == "early":
                L += el
        blocks = []     # trace-queue and monitors, spliced into links in random order
        for l, fname in self.tq_links:
            blocks.append(["$ns trace-queue %s %s $%s" % (self.nref(l["src"]), self.nref(l["dst"]), fvar[fname])])
        for l, name in self.qmons:
            blocks.append(["set qm(%s) [new QueueMonitor]" % name,
                           "[$ns link %s %s] attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qm(%s)"
                           % (self.nref(l["src"]), self.nref(l["dst"]), name)])
        if self.mq:
            l, iv, sample, st = self.mq
            blocks.append(["set mq [$ns monitor-queue %s %s $mqf %s]" % (self.nref(l["src"]), self.nref(l["dst"]), iv)])
        if r.chance(40):
            r.shuffle(blocks)
        for b in blocks:
            L += b
        for where, el in self.err_lines:
            if where == "late":
                L += el

        # flows
        vt_by_flow = {}
        for vt in self.vtraces:
            vt_by_flow.setdefault(vt[0]["i"], []).append(vt)
        for f in self.flows:
            i = f["i"]
            for k, cls, var, val in self.mid_class:
                if k == i:
                    L.append("%s set %s %s" % (cls, var, val))
            src, dst = self.nref(f["src"]), self.nref(f["dst"])
            settings = ["$tcp(%d) set %s %s" % (i, v, val) for v, val in f["settings"]]
            settings += ["$tcp(%d) set %s %s" % (i, v, val) for v, val, on in f["knobs"] if on == "tcp"]
            settings += ["$tcp(%d) set %s %s" % (i, v, val) for v, val in f.get("ecn", [])]
            sink_settings = ["$sink(%d) set %s %s" % (i, v, val) for v, val, on in f["knobs"] if on == "sink"]
            if f["conn"] == "connect":
                L.append("set tcp(%d) [new Agent/%s]" % (i, f["flavour"]))
                if f["set_fid"]:
                    L.append("$tcp(%d) set %s %d" % (i, f["fidvar"], f["fid"]))
                if f["settings_when"] == "early":
                    L += settings
                for vt in vt_by_flow.get(i, []):
                    if vt[4] == "early":
                        L += self.vtrace_lines(vt, fvar)
                L.append("$ns attach-agent %s $tcp(%d)" % (src, i))
                L.append("set sink(%d) [new Agent/%s]" % (i, f["sink"]))
                if f["interval"]:
                    L.append("$sink(%d) set interval_ %s" % (i, f["interval"]))
                L += sink_settings
                L.append("$ns attach-agent %s $sink(%d)" % (dst, i))
                L.append("$ns connect $tcp(%d) $sink(%d)" % (i, i))
                if f["settings_when"] == "late":
                    L += settings
            elif f["conn"] == "cc":
                L.append("set tcp(%d) [$ns create-connection %s %s %s %s %d]" % (i, f["flavour"], src, f["sink"], dst, f["fid"]))
                L.append("set sink(%d) [%s agent [$tcp(%d) set dst_port_]]" % (i, dst, i))
                L += settings
                if f["interval"]:
                    L.append("$sink(%d) set interval_ %s" % (i, f["interval"]))
                L += sink_settings
            else:
                L.append("set conn [$ns create-connection-list %s %s %s %s %d]" % (f["flavour"], src, f["sink"], dst, f["fid"]))
                L.append("set tcp(%d) [lindex $conn 0]" % i)
                L.append("set sink(%d) [lindex $conn 1]" % i)
                L += settings
                if f["interval"]:
                    L.append("$sink(%d) set interval_ %s" % (i, f["interval"]))
                L += sink_settings
            if f["app"] == "new":
                L.append("set ftp(%d) [new Application/FTP]" % i)
                L.append("$ftp(%d) attach-agent $tcp(%d)" % (i, i))
            else:
                L.append("set ftp(%d) [$tcp(%d) attach-app FTP]" % (i, i))
            for vt in vt_by_flow.get(i, []):
                if vt[4] == "late":
                    L += self.vtrace_lines(vt, fvar)
            L += f.get("linux_cmds", [])

        L += self.sched
        if self.mq:
            l, iv, sample, st = self.mq
            if sample:
                L.append('$ns at %s "[$ns link %s %s] queue-sample-timeout"'
                         % (fmt_us(self.time_us(0, self.end_us)), self.nref(l["src"]), self.nref(l["dst"])))
            if st:
                L.append("[$ns link %s %s] start-tracing" % (self.nref(l["src"]), self.nref(l["dst"])))
        L += self.cb_lines
        L += self.ext_sched + self.ext_cb
        L += self.dyn_lines
        L += self.traffic_lines
        L += self.tfrc_lines
        L += self.full_lines
        L += self.qs_lines
        L += self.mode_lines

        # finish
        self.halt = r.chance(10)
        fin = self.finish_body(fvar)
        if self.halt:
            L.append('$ns at %s "$ns halt"' % fmt_us(self.end_us))
            L.append("$ns run")
            L += [x[4:] for x in fin]
        else:
            glob = "ns tcp sink" + (" qm" if self.qmons else "") + (" mq" if self.mq else "") + \
                (" redq" if self.ext_finish_redq else "") + (" ft fts" if self.full_finish else "") + \
                "".join(" " + v for v in sorted(self.mode_globals))
            glob += "".join(" " + v.split("(")[0] for v, _ in files if "(" not in v) + \
                "".join(" " + v for v in sorted({v.split("(")[0] for v, _ in files if "(" in v}))
            L.append("proc finish {} {")
            L.append("    global %s" % glob)
            L += fin
            L.append("}")
            L.append('$ns at %s "finish"' % fmt_us(self.end_us))
            L.append("$ns run")
        return "\n".join(L) + "\n"

    def node_ctor(self, k):
        return "[$ns DelayBox]" if k in self.dbox_nodes else "[$ns node]"

    def vtrace_lines(self, vt, fvar):
        f, fname, vs, method, _ = vt
        out = ["$tcp(%d) attach $%s" % (f["i"], fvar[fname])]
        for v in vs:
            out.append("$tcp(%d) %s %s" % (f["i"], method, v))
        return out

    def finish_body(self, fvar):
        r = self.r
        B = []
        style = r.choice(["format", "plain"])
        extra = r.sample(EXTRA_VARS, r.randint(0, 3))
        for f in self.flows:
            i = f["i"]
            vs = FINISH_VARS + extra
            if style == "format":
                fmt = " ".join("%s=%%s" % v for v in vs) + " bytes_=%%d"
                args = " ".join("[$tcp(%d) set %s]" % (i, v) for v in vs)
                B.append('    puts [format "flow %d %s: %s" %s [$sink(%d) set bytes_]]'
                         % (i, f["flavour"], fmt.replace("%%", "%"), args, i))
            else:
                body = " ".join("%s [$tcp(%d) set %s]" % (v, i, v) for v in vs)
                B.append('    puts "flow %d: %s bytes_ [$sink(%d) set bytes_]"' % (i, body, i))
        for f in self.flows:
            if f["sink"].endswith("DelAck") and r.chance(30):
                B.append('    puts "sink %d interval_ [$sink(%d) set interval_]"' % (f["i"], f["i"]))
        if self.qmons:
            for _, name in self.qmons:
                B.append('    puts "%s:%s"' % (name, "".join(" %s=[$qm(%s) set %s]" % (v, name, v) for v in QM_VARS)))
        if self.mq:
            B.append('    puts "mq:%s"' % "".join(" %s=[$mq set %s]" % (v, v) for v in QM_VARS))
        B += self.ext_finish
        B += self.vegas_finish
        B += self.fack_finish
        B += self.linux_finish
        B += self.full_finish
        B += self.mode_finish
        if r.chance(30):
            B.append('    puts "end [$ns now]"')
        if (self.trace_mode != "none" or self.tq_links) and r.chance(85):
            B.append("    $ns flush-trace")
        for var, _ in self.files:
            B.append("    close $%s" % var)
        B.append("    exit 0")
        return B

    def meta(self):
        feats = {
            "seed": self.seed, "attempt": self.attempt, "topology": self.kind, "nodes": self.n,
            "links": len(self.links), "flows": len(self.flows),
            "flavours": sorted({f["flavour"] for f in self.flows}),
            "sinks": sorted({f["sink"] for f in self.flows}),
            "conn": sorted({f["conn"] for f in self.flows}),
            "appmodes": sorted({f["appmode"] for f in self.flows}),
            "simplex": any(l["via"] == "simplex" for l in self.links),
            "one_way_ring": self.one_way_ring,
            "costs": bool(self.costs), "trace": self.trace_mode,
            "late_traceall": self.traceall_at > 0, "trace_queue": bool(self.tq_links),
            "vartrace": bool(self.vtraces), "qmon": bool(self.qmons), "monitor_queue": bool(self.mq),
            "callbacks": sorted(set(self.cb_forms)), "overhead": self.overhead_on and
            (any(v == "overhead_" for f in self.flows for v, _ in f["settings"]) or
             any(c[2] == "overhead_" for c in self.class_settings)),
            "class_settings": bool(self.class_settings), "mid_class": bool(self.mid_class),
            "subclass_settings": any(c[1] != "Agent/TCP" for c in self.class_settings),
            "midwin": any(f["midwin"] for f in self.flows), "halt": self.halt,
            "changes": sorted({k for k, _, _ in self.changes}),
            "delack_interval": bool(self.delack_class) or any(f["interval"] for f in self.flows),
            "knobs": sorted(set(self.knobs)), "show_tcphdr": self.show_tcphdr,
            "queue_knobs": sorted({v for _, v, _ in self.qknobs}),
            "granularity": self.gran_name, "end": fmt_us(self.end_us),
            "est_events": int(self.est[0]), "est_trace_bytes": int(self.est[1]),
            "outputs": [name for _, name in self.files],
        }
        feats.update(self.ext_meta())
        if self.dynamics:
            feats["dynamics"] = sorted(set(self.dyn_kinds))
        if self.traffic:
            feats["traffic"] = sorted(set(self.traffic_kinds))
        if self.vegas:
            feats["vegas"] = sum(f["flavour"] == "TCP/Vegas" for f in self.flows)
        if self.linux:
            feats["linux"] = sum(f["flavour"] == "TCP/Linux" for f in self.flows)
        if self.tfrc:
            feats["tfrc"] = sorted(set(self.tfrc_kinds))
        if self.queues:
            feats["queues"] = sorted(set(self.queue_kinds))
        if self.aqm:
            feats["aqm"] = sorted(set(self.aqm_kinds))
        if self.diffserv:
            feats["diffserv"] = sorted(set(self.ds_kinds))
        if self.lan:
            feats["lan"] = sorted(set(self.lan_kinds))
        if self.full:
            feats["full"] = sorted(set(self.full_kinds))
        if self.qs:
            feats["qs"] = sorted(set(self.qs_kinds))
        if self.fack:
            feats["fack"] = sorted(set(self.fack_kinds))
        for name in ("xcp", "rbp", "delaybox", "bay", "jobs", "sched", "redpd"):
            attr = {"sched": "schedq"}.get(name, name)
            if getattr(self, attr):
                feats[name] = sorted(set(getattr(self, {"delaybox": "dbox"}.get(attr, attr) + "_kinds")))
        return feats


def build(seed: int, stress: bool = False, dynamics: bool = False, traffic: bool = False, vegas: bool = False,
          tfrc: bool = False, queues: bool = False, linux: bool = False, full: bool = False, qs: bool = False, aqm: bool = False,
          diffserv: bool = False, lan: bool = False, fack: bool = False, xcp: bool = False, rbp: bool = False,
          delaybox: bool = False, bay: bool = False, jobs: bool = False, sched: bool = False,
          redpd: bool = False):
    """(script, features) of a seed.  stress: every seed gets RED/ECN/error
    models, with more per-queue settings, RED traces, mid-run changes and
    callbacks (check.py --stress; not used by the fixtures).  dynamics: links
    go down and up (route models, `$link dynamic` during the run; check.py
    --dynamics; not used by the fixtures).  vegas: some flows are TCP Vegas
    (check.py --vegas; not used by the fixtures).  tfrc: TFRC connections
    beside the TCP flows (check.py --tfrc).  queues: DRR, SFQ, Vq, GK and
    CBQ queues on some links (check.py --queues).  linux: some flows are
    Agent/TCP/Linux with random congestion controls (check.py --linux).  full: two-way TCP connections
    beside them (check.py --full).  qs: Quick-Start routers on every node, Quick-Start requests on the
    TCP flows (check.py --qs).  aqm: ns-2's RIO and REM queues on some
    links, RIO sometimes behind a token-bucket tagger (check.py --aqm).  diffserv:
    ns-2's DiffServ edge and core queues on some links (check.py --diffserv).  lan: one or two
    wired LANs (802.3, plain MAC or abstract) over some of the nodes (check.py --lan).  fack:
    some flows are Agent/TCP/Fack, most with SACK sinks (check.py --fack).  xcp: XCP queues
    and flows (--xcp); rbp: rate-based pacing flows (--rbp); delaybox: DelayBox nodes (--delaybox);
    bay: Bay two-way TCP with FTP client/server (--bay); jobs: a JoBS network beside (--jobs);
    sched: ns-2's PI, FQ, SRR and PriQueue queues on some links (--sched); redpd: RED-PD
    queues with their flow monitors (--redpd)."""
    for attempt in range(200):
        g = Gen(seed, attempt, stress, dynamics, traffic, vegas, tfrc, queues, linux, full, qs, aqm, diffserv, lan, fack,
                xcp, rbp, delaybox, bay, jobs, sched, redpd)
        g.build_topology()
        g.build_links()
        g.build_flows()
        g.build_vegas()
        g.build_fack()
        g.build_linux()
        g.build_changes()
        g.build_traces()
        g.build_ext()
        if not g.choose_end():
            continue
        g.build_schedule()
        g.build_ext_schedule()
        g.build_dyn()
        g.build_traffic()
        g.build_tfrc()
        g.build_queues()
        g.build_cbq()
        g.build_aqm()
        g.build_diffserv()
        g.build_lan()
        g.build_full()
        g.build_qs()
        g.build_xcp()
        g.build_rbp()
        g.build_delaybox()
        g.build_bay()
        g.build_jobs()
        g.build_sched()
        g.build_redpd()
        text = g.emit()
        return text, g.meta()
    raise RuntimeError("seed %d: no scenario within budget" % seed)


def parse_entry(entry) -> tuple[int, bool, bool, bool]:
    """A seed as seeds.txt lists it: "N", with letters before it for the
    modes of its script: "d" --dynamics, "t" --traffic, "v" --vegas, "f"
    --tfrc, "q" --queues, "l" --linux, "w" --full, "a" --aqm, "s" --diffserv, "e" --lan, "c" --fack ("dN", "tN", "vN", "fN", "qN", "aN", "sN", "eN", "cN", "dtN", ...).  (seed,
    dynamics, traffic, vegas); `tfrc_entry`, `queues_entry`, `linux_entry`
    `full_entry` and `aqm_entry` tell the "f", "q", "l", "w" and "a"."""
    text = str(entry).strip()
    head = text.rstrip("0123456789")
    if not text[len(head):] or set(head) - set("dtvfqlwkasec" + NEW_MODE_LETTERS) or len(set(head)) != len(head):
        raise ValueError("not a seed entry: %r" % entry)
    return int(text[len(head):]), "d" in head, "t" in head, "v" in head


# The modes of the remaining ns-2 transports: seeds.txt letter -> build()'s keyword.
NEW_MODES = {"x": "xcp", "p": "rbp", "b": "delaybox", "y": "bay", "j": "jobs", "o": "sched", "r": "redpd"}
NEW_MODE_LETTERS = "".join(NEW_MODES)
# their options in gen.py and check.py (check.py's -j/--jobs is its parallelism)
NEW_MODE_FLAGS = {"xcp": "--xcp", "rbp": "--rbp", "delaybox": "--delaybox", "bay": "--bay", "jobs": "--jobs-queues",
                  "sched": "--sched", "redpd": "--redpd"}


def new_modes(entry) -> dict:
    """build()'s keywords for the letters of NEW_MODES that this seeds.txt entry carries."""
    return {kw: _mode_letter(entry, letter) for letter, kw in NEW_MODES.items()}


def vegas_entry(entry) -> bool:
    """Is this seeds.txt entry a --vegas script ("vN")?"""
    return parse_entry(entry)[3]


def _mode_letter(entry, letter: str) -> bool:
    """Does this seeds.txt entry (checked by parse_entry) carry mode
    `letter` in its prefix?"""
    parse_entry(entry)
    return letter in str(entry).strip().rstrip("0123456789")


def tfrc_entry(entry) -> bool:
    """Is this seeds.txt entry a --tfrc script ("fN")?"""
    return _mode_letter(entry, "f")


def queues_entry(entry) -> bool:
    """Is this seeds.txt entry a --queues script ("qN")?"""
    return _mode_letter(entry, "q")


def linux_entry(entry) -> bool:
    """Is this seeds.txt entry a --linux script ("lN")?"""
    return _mode_letter(entry, "l")


def full_entry(entry) -> bool:
    """Is this seeds.txt entry a --full script ("wN")?"""
    return _mode_letter(entry, "w")


def qs_entry(entry) -> bool:
    """Is this seeds.txt entry a --qs script ("kN")?"""
    return _mode_letter(entry, "k")


def aqm_entry(entry) -> bool:
    """Is this seeds.txt entry a --aqm script ("aN")?"""
    return _mode_letter(entry, "a")


def diffserv_entry(entry) -> bool:
    """Is this seeds.txt entry a --diffserv script ("sN")?"""
    return _mode_letter(entry, "s")


def lan_entry(entry) -> bool:
    """Is this seeds.txt entry a --lan script ("eN")?"""
    return _mode_letter(entry, "e")


def fack_entry(entry) -> bool:
    """Is this seeds.txt entry a --fack script ("cN")?"""
    return _mode_letter(entry, "c")


def entry_build(entry):
    """(script, features) of a seeds.txt entry (see parse_entry)."""
    seed, dyn, traffic, vegas = parse_entry(entry)
    return build(seed, False, dyn, traffic, vegas, tfrc_entry(entry), queues_entry(entry), linux_entry(entry),
                 full_entry(entry), qs_entry(entry), aqm_entry(entry), diffserv_entry(entry),
                 lan_entry(entry), fack_entry(entry), **new_modes(entry))


def generate(seed: int, stress: bool = False) -> str:
    """The ns-2 script for this seed."""
    return build(seed, stress)[0]


def meta(seed: int, stress: bool = False) -> dict:
    """The features of this seed's scenario (topology, flows, traces, ...)."""
    return build(seed, stress)[1]


NEW_MODE_HELP = {
    "xcp": "XCP queues (Queue/XCP) on some links, some flows Agent/TCP/Reno/XCP (letter x)",
    "rbp": "some flows rate-based paced: Agent/TCP/Vegas/RBP, Agent/TCP/Reno/RBP (letter p)",
    "delaybox": "some nodes are DelayBoxes with per-flow delay, loss and speed rules (letter b)",
    "bay": "Bay two-way TCP (Agent/TCP/BayFullTcp) with FTP client and server (letter y)",
    "jobs": "a JoBS network beside (Queue/JoBS core, Marker/Demarker edges) (letter j)",
    "sched": "ns-2's PI, FQ (FQLink), SRR and PriQueue queues on some links, with mid-run changes (letter o)",
    "redpd": "RED-PD queues with their flow monitors (makeflowmon), mid-run monitor/unresponsive calls (letter r)",
}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("seed", type=int)
    p.add_argument("-o", "--output", help="write the script here instead of stdout")
    p.add_argument("--meta", action="store_true", help="print the scenario's features as JSON")
    p.add_argument("--stress", action="store_true",
                   help="RED/ECN/error models in every seed, with more settings, traces and changes")
    p.add_argument("--dynamics", action="store_true",
                   help="links going down and up: route models, links made dynamic during the run")
    p.add_argument("--traffic", action="store_true",
                   help="UDP sources too: CBR, Exponential and Pareto on/off, into LossMonitors")
    p.add_argument("--vegas", action="store_true", help="some flows are TCP Vegas (Agent/TCP/Vegas)")
    p.add_argument("--tfrc", action="store_true", help="TFRC connections too (Agent/TFRC, Agent/TFRCSink)")
    p.add_argument("--queues", action="store_true", help="DRR, SFQ, Vq, GK and CBQ queues on some links")
    p.add_argument("--linux", action="store_true", help="some flows are Agent/TCP/Linux with random congestion controls")
    p.add_argument("--full", action="store_true", help="two-way TCP connections too (Agent/TCP/FullTcp and variants)")
    p.add_argument("--qs", action="store_true", help="Quick-Start routers and requests (node-config -QS ON)")
    p.add_argument("--fack", action="store_true", help="some flows are TCP FACK (Agent/TCP/Fack), most with SACK sinks")
    p.add_argument("--aqm", action="store_true", help="ns-2's RIO and REM queues on some links (RIO sometimes behind a tagger)")
    p.add_argument("--lan", action="store_true", help="one or two wired LANs (802.3, plain MAC or abstract) over some nodes")
    p.add_argument("--diffserv", action="store_true", help="ns-2's DiffServ edge and core queues (dsRED) on some links")
    for kw in NEW_MODES.values():
        p.add_argument(NEW_MODE_FLAGS[kw], dest="mode_" + kw, action="store_true", help=NEW_MODE_HELP[kw])
    a = p.parse_args(argv)
    text, m = build(a.seed, a.stress, a.dynamics, a.traffic, a.vegas, a.tfrc, a.queues, a.linux, a.full, a.qs, a.aqm,
                    a.diffserv, a.lan, a.fack, **{kw: getattr(a, "mode_" + kw) for kw in NEW_MODES.values()})
    if a.meta:
        print(json.dumps(m, indent=1, sort_keys=True))
        return 0
    if a.output:
        with open(a.output, "w", newline="\n") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
