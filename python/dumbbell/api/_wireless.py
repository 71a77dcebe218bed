"""Wireless scenarios in Python: ns-2's mobile nodes (802.11 over a
two-ray-ground radio, AODV, DSDV, DSR or DumbAgent routing), their positions
and movements, CBR and TCP flows between them; results as frames.

    import dumbbell as db

    w = db.WirelessSimulation(1000, 400, routing="AODV", seed=1)
    a, b, c = w.node(100, 200), w.node(300, 200), w.node(500, 200)
    c.move(at=5.0, x=900, y=200, speed=20)
    w.cbr(a, c, rate="64kb", start=1.0)
    w.tcp(c, a, variant="newreno", start=2.0)
    res = w.run(until=30)
    res.flows           # per flow: sent, received, delivery ratio, goodput, delay
    res.routing         # per node: routing packets and bytes sent
    res.trace           # the wireless trace (use-newtrace's format) as a frame
    db.plot.plot_wireless(res, "net.png", at=[5, 15, 25])

Exactness.  A `WirelessSimulation` is a description whose ns-2 script is
`to_tcl()` (an export: for ns-2 or ``dumbbell run``).  `run()` builds the
scenario in this process through the engine's typed builder
(crates/engine/src/ns2/build_wireless.rs), with no Tcl interpreter and no
child process: the builder makes the objects the script's ns-2 library
would, in the same order, and puts each node on the radio through the same
engine command as the ns-2 layer's `$ns node` (checked byte for byte
against ns-2 2.35), so the trace, nam file and stdout are those of the
script, and so the real ns-2's (tests/api/test_wireless_builder.py).
"""

from __future__ import annotations

import math
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from ._values import _is_number, _run_lines, _run_number, _num_str, _parse_bandwidth, _parse_time

__all__ = ["WirelessSimulation", "MobileNode", "WirelessFlow", "WirelessResult", "ROUTING", "radio_threshold"]

#: The ad hoc routing protocols a wireless scenario can use.
ROUTING = ("AODV", "DSDV", "DSR", "DumbAgent")

#: TCP senders over wireless nodes and their ns-2 classes.
WIRELESS_TCP = {"tahoe": "Agent/TCP", "reno": "Agent/TCP/Reno", "newreno": "Agent/TCP/Newreno",
                "sack": "Agent/TCP/Sack1", "vegas": "Agent/TCP/Vegas", "fack": "Agent/TCP/Fack"}
#: Their sinks.
WIRELESS_SINKS = {"ack-every": "Agent/TCPSink", "delack": "Agent/TCPSink/DelAck", "sack": "Agent/TCPSink/Sack1",
                  "sack-delack": "Agent/TCPSink/Sack1/DelAck"}

# ns-2 2.35's radio defaults (ns-default.tcl, propagation.cc, wireless-phy.cc)
_PT = 0.28183815          # Phy/WirelessPhy Pt_ (W)
_FREQ = 914e6             # freq_ (Hz)
_CS_THRESH = 1.559e-11    # CSThresh_ (W): 550 m
_ANT_Z = 1.5              # Antenna/OmniAntenna Z_ (m)
_PI = 3.1415926535897     # ns-2's PI
_C = 3e8                  # ns-2's SPEED_OF_LIGHT


def radio_threshold(distance: float, tx_power: float = _PT, freq: float = _FREQ, height: float = _ANT_Z) -> float:
    """The received power (W) at `distance` metres under ns-2's two-ray
    ground model (Friis below the crossover distance), with unit gains and
    no system loss: the receive threshold that makes `distance` the radio
    range (ns-2's `threshold` tool computes the same)."""
    lam = _C / freq
    crossover = 4 * _PI * height * height / lam
    if distance < crossover:
        m = lam / (4 * _PI * distance)
        return tx_power * m * m
    return tx_power * height ** 4 / distance ** 4


def _real(v, what: str, lo: float | None = 0.0, strict: bool = False) -> float:
    if not _is_number(v) or not math.isfinite(float(v)):
        raise ValueError(f"{what} must be a number, got {v!r}")
    x = float(v)
    if lo is not None and (x <= lo if strict else x < lo):
        raise ValueError(f"{what} must be {'above' if strict else 'at least'} {lo:g}, got {v!r}")
    return x


def _count(v, what: str, lo: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise ValueError(f"{what} must be a whole number of {lo} or more, got {v!r}")
    return v


class MobileNode:
    """A mobile node of a `WirelessSimulation` (ns-2 ``$ns node`` after
    ``node-config -adhocRouting ...``): `id` is its number in traces and
    frames, `x`, `y` its position at time 0."""

    __slots__ = ("sim", "id", "x", "y", "name")

    def __init__(self, sim, id, x, y, name):
        self.sim, self.id, self.x, self.y, self.name = sim, id, x, y, name

    def move(self, at, x, y, speed) -> MobileNode:
        """ns-2's ``$ns at AT "$node setdest X Y SPEED"``."""
        self.sim.setdest(self, at, x, y, speed)
        return self

    def __repr__(self) -> str:
        return f"MobileNode({self.id}{', ' + repr(self.name) if self.name else ''}, x={self.x:g}, y={self.y:g})"


class WirelessFlow:
    """A CBR/UDP or FTP/TCP flow between two mobile nodes; `id` is its flow
    id (`fid_`, the trace's ``-If``)."""

    __slots__ = ("id", "kind", "src", "dst", "start", "stop", "packet_size", "rate", "variant", "sink", "window")

    def __init__(self, id, kind, src, dst, start, stop, packet_size, rate=None, variant=None, sink=None, window=None):
        self.id, self.kind, self.src, self.dst = id, kind, src, dst
        self.start, self.stop, self.packet_size = start, stop, packet_size
        self.rate, self.variant, self.sink, self.window = rate, variant, sink, window

    def __repr__(self) -> str:
        what = f"rate={self.rate[0]}" if self.kind == "cbr" else f"variant={self.variant!r}"
        return f"WirelessFlow({self.id}, {self.kind}, {self.src.id} -> {self.dst.id}, {what})"


class WirelessSimulation:
    """A wireless scenario: mobile nodes on a flat `width` x `height` m
    topography (whole metres), one channel, the radio stack ns-2's wireless examples use
    (LL with ARP, Queue/DropTail/PriQueue, Mac/802_11, Phy/WirelessPhy,
    Antenna/OmniAntenna, Propagation/TwoRayGround) and `routing` (AODV, DSDV,
    DSR or DumbAgent; a DSR node's interface queue is a CMUPriQueue, as
    ns-2's DSR needs).  A parameter left at None keeps ns-2's default:

    * `data_rate`, `basic_rate` (Mac/802_11 ``dataRate_``, ``basicRate_``:
      1Mb), `rts_threshold` (bytes; 0: RTS/CTS before every unicast frame),
      `short_retry_limit` (7), `long_retry_limit` (4);
    * the radio: `range` (m; sets the receive threshold ``RXThresh_`` so
      that a frame is received up to that distance, 250 m by default) or
      `rx_threshold` (W), `carrier_sense_range` (m; 550 by default, raised
      to `range` when that is longer) or `cs_threshold` (W), `tx_power`
      (``Pt_``, W);
    * `ifq_len`: the interface queue's limit (packets, 50; DSR's
      CMUPriQueue always holds 50 a band, so it must stay 50 with DSR);
    * `mac_trace`: trace the MAC's frames too (off);
    * `mac`: ``"802.11"`` (the default) or ``"tdma"``, ns-2's preamble TDMA
      MAC (`Mac/Tdma`: a preamble slot and one slot per node, each node
      sending at most one frame per frame of slots), with `slot_bytes`
      (``slot_packet_len_``, 1500: the slot's length at 2 Mb/s); the
      802.11 parameters above do not apply to it;
    * `run`: the replication of `seed`, as `Simulation(run=...)`: the
      default RNG's substream `run` (0, the default: the seed's stream).
      `random_waypoint(seed=...)` draws apart from it (Python's generator).
    """

    def __init__(self, width, height, routing: str = "AODV", seed: int | None = None, *, data_rate=None,
                 basic_rate=None, rts_threshold=None, short_retry_limit=None, long_retry_limit=None, range=None,
                 rx_threshold=None, carrier_sense_range=None, cs_threshold=None, tx_power=None, ifq_len: int = 50,
                 mac_trace: bool = False, mac: str = "802.11", slot_bytes=None, run: int = 0):
        # (ns-2's load_flatgrid reads whole metres)
        self.width = float(_count(width, "WirelessSimulation(): width (metres)", 1))
        self.height = float(_count(height, "WirelessSimulation(): height (metres)", 1))
        if routing not in ROUTING:
            raise ValueError(f"WirelessSimulation(): routing must be one of {', '.join(ROUTING)}, got {routing!r}")
        self.routing = routing
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 < seed < 2**31):
            raise ValueError(f"WirelessSimulation(): seed must be an integer in 1..2147483647, got {seed!r} "
                             "(ns-2's seed 0 means 'from the clock', which would not be repeatable)")
        self.seed = seed
        self.run_number = _run_number(run, "WirelessSimulation()")
        mac_vars: dict[str, str] = {}
        for name, var, v in (("data_rate", "dataRate_", data_rate), ("basic_rate", "basicRate_", basic_rate)):
            if v is not None:
                mac_vars[var] = _parse_bandwidth(v, f"WirelessSimulation(): {name}")[0]
        for name, var, v, lo in (("rts_threshold", "RTSThreshold_", rts_threshold, 0),
                                 ("short_retry_limit", "ShortRetryLimit_", short_retry_limit, 1),
                                 ("long_retry_limit", "LongRetryLimit_", long_retry_limit, 1)):
            if v is not None:
                mac_vars[var] = str(_count(v, f"WirelessSimulation(): {name}", lo))
        if mac not in ("802.11", "tdma"):
            raise ValueError(f"WirelessSimulation(): mac must be '802.11' or 'tdma', got {mac!r}")
        self.mac_type = mac
        if mac == "tdma":
            given = [n for n, v in (("data_rate", data_rate), ("basic_rate", basic_rate),
                                    ("rts_threshold", rts_threshold), ("short_retry_limit", short_retry_limit),
                                    ("long_retry_limit", long_retry_limit)) if v is not None]
            if given:
                raise ValueError(f"WirelessSimulation(): {', '.join(given)} set 802.11's MAC, not mac='tdma'")
        elif slot_bytes is not None:
            raise ValueError("WirelessSimulation(): slot_bytes is the TDMA MAC's (mac='tdma')")
        self.slot_bytes = None if slot_bytes is None else _count(slot_bytes, "WirelessSimulation(): slot_bytes", 1)
        self.mac = mac_vars
        phy: dict[str, str] = {}
        pt = _PT
        if tx_power is not None:
            pt = _real(tx_power, "WirelessSimulation(): tx_power", 0.0, strict=True)
            phy["Pt_"] = _num_str(tx_power)
        if range is not None and rx_threshold is not None:
            raise ValueError("WirelessSimulation(): give range or rx_threshold, not both")
        if carrier_sense_range is not None and cs_threshold is not None:
            raise ValueError("WirelessSimulation(): give carrier_sense_range or cs_threshold, not both")
        rx = None
        if range is not None:
            r = _real(range, "WirelessSimulation(): range", 0.0, strict=True)
            rx = radio_threshold(r, pt)
            phy["RXThresh_"] = repr(rx)
        elif rx_threshold is not None:
            rx = _real(rx_threshold, "WirelessSimulation(): rx_threshold", 0.0, strict=True)
            phy["RXThresh_"] = _num_str(rx_threshold)
        cs = None
        if carrier_sense_range is not None:
            cs = radio_threshold(_real(carrier_sense_range, "WirelessSimulation(): carrier_sense_range", 0.0,
                                       strict=True), pt)
            phy["CSThresh_"] = repr(cs)
        elif cs_threshold is not None:
            cs = _real(cs_threshold, "WirelessSimulation(): cs_threshold", 0.0, strict=True)
            phy["CSThresh_"] = _num_str(cs_threshold)
        elif rx is not None and rx < _CS_THRESH:
            # a range beyond the default carrier-sense range: sense as far
            cs = rx
            phy["CSThresh_"] = repr(rx)
        if rx is not None and cs is not None and cs > rx:
            raise ValueError(f"WirelessSimulation(): the carrier-sense threshold ({cs:.4g} W) is above the receive "
                             f"threshold ({rx:.4g} W): a frame could be received but not sensed; make the "
                             f"carrier-sense range at least the radio range")
        self.phy = phy
        self.ifq_len = _count(ifq_len, "WirelessSimulation(): ifq_len", 1)
        if routing == "DSR" and self.ifq_len != 50:
            raise ValueError(f"WirelessSimulation(): ifq_len {ifq_len!r} has no effect with routing='DSR' (its "
                             f"CMUPriQueue holds 50 packets a band whatever -ifqLen says); leave it at 50")
        if not isinstance(mac_trace, bool):
            raise ValueError(f"WirelessSimulation(): mac_trace must be True or False, got {mac_trace!r}")
        self.mac_trace = mac_trace
        self._nodes: list[MobileNode] = []
        self._moves: list[tuple[float, str, int, float, float, float]] = []  # (t, text, node, x, y, speed)
        self._flows: list[WirelessFlow] = []

    def __repr__(self) -> str:
        return (f"WirelessSimulation({self.width:g} x {self.height:g} m, {self.routing}, {len(self._nodes)} nodes, "
                f"{len(self._moves)} moves, {len(self._flows)} flows)")

    @property
    def nodes(self) -> list[MobileNode]:
        return list(self._nodes)

    @property
    def flows(self) -> list[WirelessFlow]:
        return list(self._flows)

    @property
    def moves(self) -> list[tuple[float, int, float, float, float]]:
        """The movements, (time, node, x, y, speed), in the order given."""
        return [(t, n, x, y, s) for t, _, n, x, y, s in self._moves]

    # ---- building ----------------------------------------------------------------

    def node(self, x, y, name: str | None = None) -> MobileNode:
        """A mobile node at (`x`, `y`) (metres, on the topography)."""
        k = len(self._nodes)
        fx = _real(x, f"node {k}: x", None)
        fy = _real(y, f"node {k}: y", None)
        if not (0 <= fx <= self.width and 0 <= fy <= self.height):
            raise ValueError(f"node {k}: position ({x!r}, {y!r}) is outside the topography "
                             f"(0..{self.width:g}, 0..{self.height:g})")
        n = MobileNode(self, k, fx, fy, name)
        self._nodes.append(n)
        return n

    def _check_node(self, node, what: str) -> MobileNode:
        if not isinstance(node, MobileNode) or node.sim is not self:
            raise ValueError(f"{what}: expected a node of this WirelessSimulation, got {node!r}")
        return node

    def setdest(self, node, at, x, y, speed) -> None:
        """At time `at`, `node` heads for (`x`, `y`) at `speed` m/s in a
        straight line, from wherever it is then (ns-2's ``setdest``)."""
        n = self._check_node(node, "setdest()")
        what = f"setdest(node {n.id})"
        t_text, t = _parse_time(at, f"{what}: at")
        fx, fy = _real(x, f"{what}: x", None), _real(y, f"{what}: y", None)
        if not (0 < fx < self.width and 0 < fy < self.height):
            raise ValueError(f"{what}: destination ({x!r}, {y!r}) must lie inside the topography, off its edges "
                             f"(0 < x < {self.width:g}, 0 < y < {self.height:g}), as ns-2 requires")
        s = _real(speed, f"{what}: speed")
        text = _num_str(at) if _is_number(at) else repr(t)
        self._moves.append((t, text, n.id, fx, fy, s))

    def random_waypoint(self, until, nodes=None, speed=(1.0, 10.0), pause=0.0, start=0.0, seed: int = 0) -> int:
        """Random waypoint mobility, as ns-2's setdest tool writes it: each
        node (all by default) picks a point uniformly inside the topography
        and a speed uniformly in `speed` (min, max) m/s, goes there, pauses
        `pause` s, and again, from `start` until `until`.  The moves are
        drawn here with Python's `random.Random(seed)` and become
        ``setdest`` lines of the script.  Returns the number of moves."""
        t_end = _parse_time(until, "random_waypoint(): until")[1]
        t0 = _parse_time(start, "random_waypoint(): start")[1]
        pz = _parse_time(pause, "random_waypoint(): pause")[1]
        if not (isinstance(speed, (tuple, list)) and len(speed) == 2):
            raise ValueError(f"random_waypoint(): speed must be (min, max) m/s, got {speed!r}")
        lo = _real(speed[0], "random_waypoint(): speed min", 0.0, strict=True)
        hi = _real(speed[1], "random_waypoint(): speed max", 0.0, strict=True)
        if hi < lo:
            raise ValueError(f"random_waypoint(): speed (min, max) has max below min, got {speed!r}")
        _count(seed, "random_waypoint(): seed")
        if nodes is not None and not isinstance(nodes, (list, tuple)):
            raise ValueError(f"random_waypoint(): nodes must be a list of this simulation's nodes, got {nodes!r}")
        chosen = self._nodes if nodes is None else [self._check_node(n, "random_waypoint(): nodes") for n in nodes]
        rng = random.Random(seed)
        made = 0
        for n in chosen:
            x, y = self.position(n, t0)
            t = t0
            while t < t_end:
                dx = round(rng.uniform(0.01, 0.99) * self.width, 2)
                dy = round(rng.uniform(0.01, 0.99) * self.height, 2)
                v = round(rng.uniform(lo, hi), 2)
                self._moves.append((t, repr(round(t, 6)), n.id, dx, dy, v))
                made += 1
                t = round(t + math.hypot(dx - x, dy - y) / v + pz, 6)
                x, y = dx, dy
        return made

    def _times(self, what: str, start, stop) -> tuple[tuple[str, float], tuple[str, float] | None]:
        s = _parse_time(start, f"{what}: start")
        e = None
        if stop is not None:
            e = _parse_time(stop, f"{what}: stop")
            if e[1] <= s[1]:
                raise ValueError(f"{what}: stop ({stop!r}) must come after start ({start!r})")
        return s, e

    def _ends(self, what: str, src, dst) -> tuple[MobileNode, MobileNode]:
        a, b = self._check_node(src, f"{what}: src"), self._check_node(dst, f"{what}: dst")
        if a is b:
            raise ValueError(f"{what}: src and dst are the same node ({a.id})")
        return a, b

    def cbr(self, src, dst, rate="64kb", packet_size: int = 512, start=0.0, stop=None) -> WirelessFlow:
        """Constant bit rate over UDP from `src` to `dst` (ns-2's
        Application/Traffic/CBR over Agent/UDP to an Agent/Null)."""
        what = f"cbr(flow {len(self._flows)})"
        a, b = self._ends(what, src, dst)
        r = _parse_bandwidth(rate, f"{what}: rate")
        size = _count(packet_size, f"{what}: packet_size", 1)
        s, e = self._times(what, start, stop)
        f = WirelessFlow(len(self._flows), "cbr", a, b, s, e, size, rate=r)
        self._flows.append(f)
        return f

    def tcp(self, src, dst, variant: str = "reno", sink: str = "ack-every", window: int = 20,
            packet_size: int = 1000, start=0.0, stop=None) -> WirelessFlow:
        """A bulk TCP transfer (FTP) from `src` to `dst`: `variant` one of
        WIRELESS_TCP, `sink` one of WIRELESS_SINKS, `window` (``window_``,
        packets), `packet_size` (``packetSize_``, bytes)."""
        what = f"tcp(flow {len(self._flows)})"
        a, b = self._ends(what, src, dst)
        if variant not in WIRELESS_TCP:
            raise ValueError(f"{what}: variant must be one of {', '.join(WIRELESS_TCP)}, got {variant!r}")
        if sink not in WIRELESS_SINKS:
            raise ValueError(f"{what}: sink must be one of {', '.join(WIRELESS_SINKS)}, got {sink!r}")
        win = _count(window, f"{what}: window", 1)
        size = _count(packet_size, f"{what}: packet_size", 1)
        s, e = self._times(what, start, stop)
        f = WirelessFlow(len(self._flows), "tcp", a, b, s, e, size, variant=variant, sink=sink, window=win)
        self._flows.append(f)
        return f

    # ---- positions ---------------------------------------------------------------

    def position(self, node, t: float) -> tuple[float, float]:
        """Where `node` is at time `t` (straight lines at constant speed,
        stopping at each destination, as ns-2 moves it)."""
        n = self._check_node(node, "position()")
        if isinstance(t, bool) or not isinstance(t, (int, float)):
            raise ValueError(f"position(): t must be a time in seconds, got {t!r}")
        x, y = n.x, n.y
        mv = sorted((m for m in self._moves if m[2] == n.id), key=lambda m: m[0])
        for k, (t0, _, _, dx, dy, v) in enumerate(mv):
            if t0 > t:
                break
            t1 = min(t, mv[k + 1][0]) if k + 1 < len(mv) and mv[k + 1][0] <= t else t
            d = math.hypot(dx - x, dy - y)
            go = v * (t1 - t0)
            if d == 0 or go >= d:
                x, y = (dx, dy) if v > 0 or d == 0 else (x, y)
            else:
                x, y = x + (dx - x) * go / d, y + (dy - y) * go / d
        return x, y

    # ---- the script --------------------------------------------------------------

    def _check(self):
        if not self._nodes:
            raise ValueError("WirelessSimulation: no nodes (add them with node(x, y))")

    def _script(self, until_text: str, trace_file: str, nam_file: str | None) -> list[str]:
        self._check()
        n = len(self._nodes)
        L = ["# Generated by dumbbell.api: the ns-2 script equivalent to the wireless scenario."]
        for var, text in self.mac.items():
            L.append(f"Mac/802_11 set {var} {text}")
        if self.mac_type == "tdma":
            if self.slot_bytes is not None:
                L.append(f"Mac/Tdma set slot_packet_len_ {self.slot_bytes}")
            if n > 64:
                # (ns-2's default of 64 stations would end the run)
                L.append(f"Mac/Tdma set max_node_num_ {n}")
        for var, text in self.phy.items():
            L.append(f"Phy/WirelessPhy set {var} {text}")
        L += ["set ns [new Simulator]"]
        if self.seed is not None:
            L.append(f"$defaultRNG seed {self.seed}")
        L += _run_lines(self.run_number)
        L += ["$ns use-newtrace", f"set tf [open {{{trace_file}}} w]", "$ns trace-all $tf"]
        if nam_file is not None:
            L += [f"set nf [open {{{nam_file}}} w]",
                  f"$ns namtrace-all-wireless $nf {int(self.width)} {int(self.height)}"]
        L += ["set topo [new Topography]",
              f"$topo load_flatgrid {int(self.width)} {int(self.height)}",
              f"create-god {n}",
              "set chan [new Channel/WirelessChannel]",
              f"$ns node-config -adhocRouting {self.routing} -llType LL "
              f"-macType {'Mac/Tdma' if self.mac_type == 'tdma' else 'Mac/802_11'} "
              f"-ifqType {'CMUPriQueue' if self.routing == 'DSR' else 'Queue/DropTail/PriQueue'} "
              f"-ifqLen {self.ifq_len} -antType Antenna/OmniAntenna "
              f"-propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan -topoInstance $topo "
              f"-agentTrace ON -routerTrace ON -macTrace {'ON' if self.mac_trace else 'OFF'}"]
        for nd in self._nodes:
            L += [f"set n({nd.id}) [$ns node]", f"$n({nd.id}) set X_ {_num_str(nd.x)}",
                  f"$n({nd.id}) set Y_ {_num_str(nd.y)}", f"$n({nd.id}) set Z_ 0"]
        for t, text, k, x, y, s in self._moves:
            L.append(f'$ns at {text} "$n({k}) setdest {_num_str(x)} {_num_str(y)} {_num_str(s)}"')
        for f in self._flows:
            i = f.id
            if f.kind == "cbr":
                L += ["set a [new Agent/UDP]", f"$a set fid_ {i}", f"$ns attach-agent $n({f.src.id}) $a",
                      "set z [new Agent/Null]", f"$ns attach-agent $n({f.dst.id}) $z", "$ns connect $a $z",
                      f"set app({i}) [new Application/Traffic/CBR]", f"$app({i}) set packetSize_ {f.packet_size}",
                      f"$app({i}) set rate_ {f.rate[0]}", f"$app({i}) attach-agent $a"]
            else:
                L += [f"set tcp({i}) [new {WIRELESS_TCP[f.variant]}]", f"$tcp({i}) set fid_ {i}",
                      f"$tcp({i}) set window_ {f.window}", f"$tcp({i}) set packetSize_ {f.packet_size}",
                      f"$ns attach-agent $n({f.src.id}) $tcp({i})",
                      f"set sink({i}) [new {WIRELESS_SINKS[f.sink]}]", f"$ns attach-agent $n({f.dst.id}) $sink({i})",
                      f"$ns connect $tcp({i}) $sink({i})", f"set app({i}) [new Application/FTP]",
                      f"$app({i}) attach-agent $tcp({i})"]
            L.append(f'$ns at {_at(f.start)} "$app({i}) start"')
            if f.stop is not None:
                L.append(f'$ns at {_at(f.stop)} "$app({i}) stop"')
        L += [f'$ns at {until_text} "$ns halt"', "$ns run", "$ns flush-trace", "close $tf"]
        if nam_file is not None:
            L.append("close $nf")
        for f in self._flows:
            if f.kind == "tcp":
                L.append(f'puts "tcp {f.id} ' + " ".join(f"{v} [$tcp({f.id}) set {v}]" for v in _TCP_VARS)
                         + f' bytes_ [$sink({f.id}) set bytes_]"')
        return L

    def _until(self, until) -> tuple[str, float]:
        text, t = _parse_time(until, "run(): until")
        if t <= 0:
            raise ValueError(f"run(): until must be a positive time, got {until!r}")
        return (_num_str(until) if _is_number(until) else repr(t)), t

    def to_tcl(self, until, trace_file: str = "out.tr", nam_file: str | None = None) -> str:
        """The ns-2 script of the scenario (for ``dumbbell run`` or ns-2):
        the trace in use-newtrace's format to `trace_file` (agent and
        routing layers, the MAC's with `mac_trace`), nam's to `nam_file`
        if given; after the run one line per TCP flow, ``tcp <i> ack_ <n>
        maxseq_ <n> nrexmit_ <n> cwnd_ <x> bytes_ <n>``."""
        for what, name in (("trace_file", trace_file), ("nam_file", nam_file)):
            if name is not None and re.search(r'[{}\\\n]', os.fspath(name)):
                raise ValueError(f"to_tcl(): {what} must not contain braces, backslashes or newlines, got {name!r}")
        until_text, _ = self._until(until)
        return "\n".join(self._script(until_text, os.fspath(trace_file),
                                      None if nam_file is None else os.fspath(nam_file))) + "\n"

    def run(self, until, trace_file: str | os.PathLike | None = None, nam_file: str | os.PathLike | None = None,
            timeout: float | None = None) -> WirelessResult:
        """Run the scenario until `until` s; returns a `WirelessResult`.
        `trace_file`, `nam_file`: also keep the trace (and nam's file)
        there.  `timeout`: stop a run that takes longer than that many
        seconds of wall-clock time (SimulationError).

        The scenario is built in this process through the engine's typed
        builder (no Tcl, no child process); what it gives is byte for byte
        what its `to_tcl()` script gives under ``dumbbell run``."""
        until_text, until_s = self._until(until)
        if timeout is not None:
            _real(timeout, "run(): timeout", 0.0, strict=True)
        data, nam, stdout = self._run_built(until_text, nam_file is not None, timeout)
        if trace_file is not None:
            Path(trace_file).write_bytes(data)
        if nam_file is not None:
            Path(nam_file).write_bytes(nam)
        from ..analysis.wtrace import parse_wireless_trace

        frames = parse_wireless_trace(data.decode())
        return WirelessResult(self, until_s, frames, stdout.decode())

    def _run_built(self, until_text: str, with_nam: bool, timeout: float | None) -> tuple[bytes, bytes, bytes]:
        """Build the scenario through the engine's builder (the same
        objects, in the same order, as `to_tcl()`'s script makes: see
        crates/engine/src/ns2/build_wireless.rs) and run it: the trace's
        bytes, nam's and the stdout the script would print."""
        from .._engine import Builder
        from ._sim import SimulationError, _defaults_text

        self._check()
        n = len(self._nodes)
        mac, phy = self.mac, self.phy

        def count(var):
            return int(mac[var]) if var in mac else None

        def watts(var):
            return float(phy[var]) if var in phy else None

        files: dict[str, list[bytes]] = {_TRACE: [], _NAM: []}
        try:
            b = Builder(_defaults_text())
            if self.seed is not None:
                b.seed(self.seed)
            if self.run_number:
                b.next_substream(self.run_number)
            b.wireless(int(self.width), int(self.height), n, self.routing, mac=self.mac_type,
                       data_rate=mac.get("dataRate_"), basic_rate=mac.get("basicRate_"),
                       rts_threshold=count("RTSThreshold_"), short_retry_limit=count("ShortRetryLimit_"),
                       long_retry_limit=count("LongRetryLimit_"), slot_bytes=self.slot_bytes,
                       max_nodes=n if self.mac_type == "tdma" and n > 64 else None, tx_power=watts("Pt_"),
                       rx_threshold=watts("RXThresh_"), cs_threshold=watts("CSThresh_"), ifq_len=self.ifq_len,
                       mac_trace=self.mac_trace, trace=_TRACE, nam=_NAM if with_nam else None)
            for nd in self._nodes:
                b.mobile_node(nd.x, nd.y)
            for _, text, k, x, y, sp in self._moves:
                b.setdest(k, float(text), x, y, sp)
            tcps = {}
            for f in self._flows:
                if f.kind == "cbr":
                    a = b.agent("Agent/UDP", [("fid_", str(f.id))])
                    b.attach(f.src.id, a)
                    z = b.agent("Agent/Null", [])
                    b.attach(f.dst.id, z)
                    b.connect(a, z)
                    app = b.app("cbr", a, [("packetSize_", str(f.packet_size)), ("rate_", f.rate[0])])
                else:
                    t = b.agent(WIRELESS_TCP[f.variant], [("fid_", str(f.id)), ("window_", str(f.window)),
                                                          ("packetSize_", str(f.packet_size))])
                    b.attach(f.src.id, t)
                    k = b.agent(WIRELESS_SINKS[f.sink], [])
                    b.attach(f.dst.id, k)
                    b.connect(t, k)
                    app = b.app("ftp", t, [])
                    tcps[f.id] = (t, k)
                b.at(float(_at(f.start)), "start", app)
                if f.stop is not None:
                    b.at(float(_at(f.stop)), "stop", app)
            b.at(float(until_text), "halt")
            if timeout is not None:
                b.set_limits(max_wall=float(timeout))
            while True:
                why = b.run()
                for chan, data in b.drain():
                    files[chan].append(data)
                if why != "output":
                    break
            lines = []
            for i, (t, k) in tcps.items():
                got = b.get_vars([t, k], list(_TCP_VARS) + ["bytes_"])
                lines.append(f"tcp {i} " + " ".join(f"{v} {got[0][j]}" for j, v in enumerate(_TCP_VARS))
                             + f" bytes_ {got[1][len(_TCP_VARS)]}\n")
            # (ns-2 prints the script's lines first: C's stdio is flushed at exit)
            stdout = "".join(lines).encode() + b.take_stdout()
        except ValueError as err:
            raise SimulationError(f"the engine refused the wireless scenario: {err}") from None
        except BaseException as err:
            name = type(err).__name__
            if name == "RunLimitExceeded":
                raise SimulationError(f"the wireless scenario ran longer than timeout={timeout!r} s and was "
                                      f"stopped") from None
            if name == "PanicException":
                raise SimulationError(f"internal error in the engine (a bug in Dumbbell): {err}") from None
            raise
        return b"".join(files[_TRACE]), b"".join(files[_NAM]), stdout

    def _run_script(self, until, nam: bool = False, timeout: float | None = None) -> tuple[bytes, bytes, bytes]:
        """Run `to_tcl()`'s script under ``dumbbell run`` in a child process
        (the way `run` worked before the builder had wireless nodes; kept
        to check the two give the same bytes): the trace, nam's file and
        stdout."""
        from ._sim import SimulationError

        with tempfile.TemporaryDirectory(prefix="dumbbell-wl-") as d:
            tr = Path(d, "wireless.tr")
            nf = Path(d, "wireless.nam") if nam else None
            script = self.to_tcl(until, trace_file=str(tr), nam_file=None if nf is None else str(nf))
            Path(d, "scenario.tcl").write_text(script)
            env = dict(os.environ)
            pkg = str(Path(__file__).resolve().parents[2])
            env["PYTHONPATH"] = pkg + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
            try:
                r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "scenario.tcl"], cwd=d, env=env,
                                   capture_output=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                raise SimulationError(f"the wireless scenario ran longer than timeout={timeout!r} s and was "
                                      f"stopped") from None
            if r.returncode != 0:
                raise SimulationError(f"the wireless scenario failed (exit {r.returncode}): "
                                      f"{r.stderr.decode(errors='replace').strip()}")
            return tr.read_bytes(), (nf.read_bytes() if nf is not None else b""), r.stdout


# The builder's output channels (names of its own, not files).
_TRACE, _NAM = "wireless-trace", "wireless-nam"


_TCP_VARS = ("ack_", "maxseq_", "nrexmit_", "cwnd_")


def _at(t: tuple[str, float]) -> str:
    """`$ns at` reads a plain number of seconds (C atof), never units."""
    try:
        float(t[0])
        return t[0]
    except ValueError:
        return repr(t[1])


class WirelessResult:
    """What a wireless run gives: `trace` (every packet event of the
    wireless trace, one row each), `movements` (the trace's ``M`` lines),
    `flows` (one row per flow), `routing` (one row per node), `drops`
    (counts by layer and reason); `route(flow, at)` and `positions(at)`."""

    def __init__(self, sim: WirelessSimulation, until: float, frames, stdout: str):
        import polars as pl

        self.sim, self.until, self.stdout = sim, until, stdout
        self.trace, self.movements = frames
        self.tcp_vars = {}
        for line in stdout.splitlines():
            w = line.split()
            if len(w) >= 2 and w[0] == "tcp" and w[1].isdigit():
                self.tcp_vars[int(w[1])] = {w[k]: float(w[k + 1]) for k in range(2, len(w) - 1, 2)}
        self.flows = self._flows(pl)
        self.routing = self._routing(pl)
        t = self.trace
        self.drops = (t.filter(pl.col("event") == "d").group_by(["layer", "reason"]).agg(pl.len().alias("drops"))
                      .sort(["layer", "reason"]))

    def __repr__(self) -> str:
        return f"WirelessResult({len(self.trace)} trace events, {len(self.flows)} flows, until={self.until:g})"

    def _flows(self, pl):
        t = self.trace
        agt = t.filter(pl.col("layer") == "AGT")
        rows = []
        for f in self.sim._flows:
            data = "cbr" if f.kind == "cbr" else "tcp"
            mine = agt.filter((pl.col("flow") == f.id) & (pl.col("ptype") == data))
            sent = mine.filter((pl.col("event") == "s") & (pl.col("node") == f.src.id))
            got = mine.filter((pl.col("event") == "r") & (pl.col("node") == f.dst.id))
            first = got.group_by("uid").agg(pl.col("time").min().alias("rt"))
            d = sent.select("uid", pl.col("time").alias("st")).join(first, on="uid", how="inner")
            delays = (d["rt"] - d["st"])
            n_sent, n_got = len(sent), len(first)
            t0 = f.start[1]
            t1 = min(f.stop[1], self.until) if f.stop is not None else self.until
            span = max(t1 - t0, 0.0)
            if f.kind == "cbr":
                payload = n_got * f.packet_size
            else:
                payload = got["seqno"].n_unique() * f.packet_size
            tv = self.tcp_vars.get(f.id, {})
            rows.append({"flow": f.id, "kind": f.kind, "src": f.src.id, "dst": f.dst.id, "start": t0, "stop": t1,
                         "sent": n_sent, "received": n_got,
                         "delivery_ratio": n_got / n_sent if n_sent else None,
                         "goodput_bps": payload * 8 / span if span > 0 else None,
                         "delay_mean": float(delays.mean()) if len(delays) else None,
                         "delay_max": float(delays.max()) if len(delays) else None,
                         "retransmits": int(tv["nrexmit_"]) if "nrexmit_" in tv else None})
        schema = {"flow": pl.Int64, "kind": pl.Utf8, "src": pl.Int64, "dst": pl.Int64, "start": pl.Float64,
                  "stop": pl.Float64, "sent": pl.Int64, "received": pl.Int64, "delivery_ratio": pl.Float64,
                  "goodput_bps": pl.Float64, "delay_mean": pl.Float64, "delay_max": pl.Float64,
                  "retransmits": pl.Int64}
        return pl.DataFrame(rows, schema=schema)

    def _routing(self, pl):
        """Per node: the routing protocol's packets it sent or forwarded
        (AODV's messages, DSDV's updates, DSR's requests, replies and
        errors: the routing layer's ``s`` and ``f`` lines of those packet
        types), their bytes, and the data packets it forwarded.  (DSR's
        source route in each data packet's header is not counted here:
        it is in the data packets' sizes.)"""
        t = self.trace
        rtr = t.filter((pl.col("layer") == "RTR") & pl.col("event").is_in(["s", "f"]))
        ctrl = rtr.filter(pl.col("ptype").is_in(["AODV", "message", "DSR"]))
        fwd = rtr.filter((pl.col("event") == "f") & pl.col("ptype").is_in(["cbr", "tcp", "ack"]))
        nodes = pl.DataFrame({"node": [n.id for n in self.sim._nodes]}, schema={"node": pl.Int64})
        a = ctrl.group_by("node").agg(pl.len().alias("routing_packets"), pl.col("size").sum().alias("routing_bytes"))
        b = fwd.group_by("node").agg(pl.len().alias("data_forwarded"))
        return (nodes.join(a, on="node", how="left").join(b, on="node", how="left")
                .with_columns(pl.col("routing_packets", "routing_bytes", "data_forwarded").fill_null(0)
                              .cast(pl.Int64)).sort("node"))

    @property
    def routing_load(self) -> float | None:
        """Routing packets sent per data packet delivered (the normalised
        routing load of the ad hoc routing literature)."""
        got = int(self.flows["received"].sum())
        return int(self.routing["routing_packets"].sum()) / got if got else None

    def route(self, flow, at: float, within: float | None = None) -> list[int] | None:
        """The nodes the last packet of `flow` delivered by time `at`
        crossed, source to destination (from the routing layer's lines of
        that packet: the hops it was actually sent and forwarded over);
        None when none had arrived (in the `within` seconds before `at`,
        when given).  With DSR this is the source route the packet
        followed (a node that salvaged it on another route included), not
        what a node's route cache held at `at`."""
        import polars as pl

        flows = self.sim._flows
        if isinstance(flow, WirelessFlow) and flow in flows:
            f = flow
        elif isinstance(flow, int) and not isinstance(flow, bool) and 0 <= flow < len(flows):
            f = flows[flow]
        else:
            raise ValueError(f"route(): flow must be a flow of this simulation or its id (0 to {len(flows) - 1}), "
                             f"got {flow!r}")
        if isinstance(at, bool) or not isinstance(at, (int, float)):
            raise ValueError(f"route(): at must be a time in seconds, got {at!r}")
        if within is not None and (isinstance(within, bool) or not isinstance(within, (int, float)) or within <= 0):
            raise ValueError(f"route(): within must be a time above 0 s, got {within!r}")
        data = "cbr" if f.kind == "cbr" else "tcp"
        t = self.trace
        got = t.filter((pl.col("layer") == "AGT") & (pl.col("event") == "r") & (pl.col("flow") == f.id)
                       & (pl.col("ptype") == data) & (pl.col("node") == f.dst.id) & (pl.col("time") <= at)
                       & (pl.col("time") > (at - within if within is not None else -math.inf)))
        if got.is_empty():
            return None
        uid = got["uid"][-1]
        hops = t.filter((pl.col("uid") == uid) & (pl.col("layer") == "RTR") & pl.col("event").is_in(["s", "f"])
                        & (pl.col("ptype") == data)).sort("time", maintain_order=True)["node"].to_list()
        path = [f.src.id] + [h for h in hops if h != f.src.id] + [f.dst.id]
        out: list[int] = []
        for h in path:
            if not out or out[-1] != h:
                out.append(h)
        return out

    def positions(self, at: float):
        """Every node's position at time `at` (node, x, y)."""
        import polars as pl

        if isinstance(at, bool) or not isinstance(at, (int, float)):
            raise ValueError(f"positions(): at must be a time in seconds, got {at!r}")
        xy = [self.sim.position(n, at) for n in self.sim._nodes]
        return pl.DataFrame({"node": [n.id for n in self.sim._nodes], "x": [p[0] for p in xy],
                             "y": [p[1] for p in xy]})

    def plot(self, path=None, at=None, **kw):
        """`dumbbell.plot.plot_wireless(self, path, at, ...)`."""
        from ..analysis.plot import plot_wireless

        return plot_wireless(self, path, at=at, **kw)


def _range_of(sim: WirelessSimulation) -> float | None:
    """The distance at which the scenario's receive threshold is met (the
    radio range), by bisection over `radio_threshold`."""
    pt = float(sim.phy.get("Pt_", _PT))
    rx = float(sim.phy.get("RXThresh_", 3.652e-10))
    lo, hi = 1e-3, 1e7
    if radio_threshold(hi, pt) >= rx:
        return None
    for _ in range(200):
        mid = (lo + hi) / 2
        if radio_threshold(mid, pt) >= rx:
            lo = mid
        else:
            hi = mid
    return lo
