"""Type stubs of the public Python API (dumbbell.api)."""

import os
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from ..models.fluid_scenario import FluidRun
from ..results import Result

Number = int | float
BandwidthLike = Number | str     # bits/s, or "10Mb", "800Kb", "1.5Mbps"
TimeLike = Number | str          # seconds, or "10ms", "5us"
LinkLike = Link | tuple[Node, Node]

VARIANTS: dict[str, str]
CONGESTION_CONTROLS: tuple[str, ...]
SINKS: dict[str, str]
TRAFFIC: dict[str, str]
UDP_SINKS: dict[str, str]
CODEL_DEFAULTS: dict[str, Any]
PIE_DEFAULTS: dict[str, Any]
FQ_CODEL_DEFAULTS: dict[str, Any]

class SimulationError(RuntimeError): ...

def _parse_bandwidth(value: Any, what: str = ...) -> tuple[str, float]: ...
def _parse_time(value: Any, what: str = ...) -> tuple[str, float]: ...

class Node:
    sim: Simulation
    id: int
    name: str | None

class Link:
    sim: Simulation
    src: Node
    dst: Node
    bandwidth: float
    delay: float
    queue: str
    queue_limit: int
    queue_params: Mapping[str, str]
    reverse: Link | None
    codel: tuple[float, float, int, bool, float | None] | None
    pie: dict[str, Any] | None
    fq_codel: dict[str, Any] | None
    scfq: dict[str, Any] | None
    redpd: Literal["SrcDestFid", "Fid", "SrcDest", "Dest"] | None
    fq_flow_limit: int | None
    jobs: list[list[str]] | None

class Flow:
    sim: Simulation
    id: int
    src: Node
    dst: Node
    variant: str
    sink: str
    start: float
    stop: float | None
    fid: int
    params: dict[str, str]
    sink_params: dict[str, str]
    trace_vars: tuple[str, ...]
    app: Literal["ftp", "telnet", "bulk"]
    app_params: dict[str, str]
    cc: str | None
    stack: Literal["ns2", "full"]
    engine_params: list[tuple[str, float]] | None
    @property
    def tcp_class(self) -> str: ...
    @property
    def sink_class(self) -> str: ...

class Source:
    sim: Simulation
    id: int
    src: Node
    dst: Node
    traffic: Literal["cbr", "exponential", "pareto", "voip"]
    sink: Literal["loss-monitor", "null"]
    start: float
    stop: float | None
    fid: int
    params: dict[str, str]
    agent_params: dict[str, str]
    @property
    def traffic_class(self) -> str: ...
    @property
    def sink_class(self) -> str: ...

class RateFlow:
    sim: Simulation
    id: int
    src: Node
    dst: Node
    start: float
    stop: float | None
    fid: int
    params: dict[str, str]
    sink_params: dict[str, str]

class ErrorModel:
    sim: Simulation
    id: int
    link: Link
    kind: Literal["uniform", "periodic", "list"]
    unit: Literal["pkt", "byte"]
    where: Literal["link", "queue"]
    mark_ecn: bool
    rate: float | None
    period: float | None
    offset: float | None
    burstlen: float | None
    drops: list[int]
    @property
    def ns2_class(self) -> str: ...

class Simulation:
    seed: int | None
    run_number: int
    def __init__(self, seed: int | None = None, run: int = 0) -> None: ...
    @property
    def node_list(self) -> list[Node]: ...
    @property
    def links(self) -> list[Link]: ...
    @property
    def flows(self) -> list[Flow]: ...
    @property
    def sources(self) -> list[Source]: ...
    @property
    def error_models(self) -> list[ErrorModel]: ...
    @property
    def rate_flows(self) -> list[RateFlow]: ...
    def node(self, name: str | None = None) -> Node: ...
    def nodes(self, n: int) -> list[Node]: ...
    def quickstart(self, algorithm: int = 3, alloc_rate: float = 0.85, threshold: float = 0.85,
                   state_delay: float = 0.2, rate_encoding: Literal["exponential", "linear"] = "exponential",
                   max_rate: int = 256) -> None: ...
    def link(self, a: Node, b: Node, bandwidth: BandwidthLike = "10Mb", delay: TimeLike = "10ms",
             queue: str = "DropTail", queue_limit: int | None = None, duplex: bool = True,
             queue_params: dict[str, Any] | None = None) -> Link: ...
    def queue_limit(self, a: Node, b: Node, limit: int, at: TimeLike | None = None) -> Link: ...
    def set_queue(self, a: Node, b: Node, at: TimeLike, params: dict[str, Any], reset: bool = False) -> Link: ...
    def set_bandwidth(self, a: Node, b: Node, at: TimeLike, bandwidth: BandwidthLike) -> Link: ...
    def redpd_flow(self, a: Node, b: Node, at: TimeLike, flow_id: int,
                   action: Literal["monitor", "unmonitor", "unresponsive"] = "monitor", prob: Number | None = None,
                   target: Number | None = None, current: Number | None = None,
                   penalty: Number | None = None) -> Link: ...
    def tcp(self, src: Node, dst: Node, variant: str = "reno", sink: str | None = None, start: TimeLike = 0.0,
            stop: TimeLike | None = None, packet_size: int | None = None, window: Number | None = None,
            flow_id: int | None = None, trace_vars: Iterable[str] | str = (), sink_params: dict[str, Any] | None = None,
            app: Literal["ftp", "telnet"] = "ftp", app_params: dict[str, Any] | None = None, cc: str | None = None,
            stack: Literal["ns2", "full"] = "ns2", quickstart: bool = False, **params: Any) -> Flow: ...
    def udp(self, src: Node, dst: Node, traffic: Literal["cbr", "exponential", "pareto"] = "cbr",
            sink: Literal["loss-monitor", "null"] = "loss-monitor", start: TimeLike = 0.0,
            stop: TimeLike | None = None, rate: BandwidthLike | None = None, packet_size: int | None = None,
            flow_id: int | None = None, agent_params: dict[str, Any] | None = None, **params: Any) -> Source: ...
    def voip_calls(self, src: Node, dst: Node, lam: Number = 2.0, mean_holding: TimeLike = 100.0,
                   burst_time: TimeLike = 1.008, idle_time: TimeLike = 1.587, packet_size: int = 120,
                   interval: TimeLike = 0.01, stationary_start: bool = True, max_calls: int = 100_000,
                   start: TimeLike = 0.0, stop: TimeLike | None = None, flow_id: int | None = None,
                   sink: Literal["loss-monitor", "null"] = "loss-monitor") -> Source: ...
    def tfrc(self, src: Node, dst: Node, start: TimeLike = 0.0, stop: TimeLike | None = None,
             packet_size: int | None = None, flow_id: int | None = None,
             sink_params: dict[str, Any] | None = None, **params: Any) -> RateFlow: ...
    def error_model(self, a: Node, b: Node, rate: Number | None = None,
                    kind: Literal["uniform", "periodic", "list"] = "uniform", unit: Literal["pkt", "byte"] = "pkt",
                    where: Literal["link", "queue"] = "link", mark_ecn: bool = False, period: Number | None = None,
                    offset: Number = 0.0, burstlen: Number = 0.0, drops: Iterable[int] | None = None) -> ErrorModel: ...
    def to_tcl(self, until: TimeLike, trace_packets: bool | LinkLike | Iterable[LinkLike] = False,
               trace_file: str = "out.tr", monitor_queues: bool | LinkLike | Iterable[LinkLike] = False) -> str: ...
    def run(self, until: TimeLike, trace_packets: bool | LinkLike | Iterable[LinkLike] = False,
            monitor_queues: bool | LinkLike | Iterable[LinkLike] = True,
            trace_file: str | os.PathLike[str] | None = None,
            mode: Literal["packet", "fluid"] = "packet", *, max_events: int | None = None,
            max_wall: float | None = None, pcap: str | os.PathLike[str] | None = None,
            pcap_snaplen: int = 65535) -> Result | FluidRun: ...

# ---- wireless (_wireless.py) ----

ROUTING: tuple[str, ...]
WIRELESS_TCP: dict[str, str]
WIRELESS_SINKS: dict[str, str]

def radio_threshold(distance: float, tx_power: float = ..., freq: float = ..., height: float = ...) -> float: ...

class MobileNode:
    sim: WirelessSimulation
    id: int
    x: float
    y: float
    name: str | None
    def move(self, at: TimeLike, x: Number, y: Number, speed: Number) -> MobileNode: ...

class WirelessFlow:
    id: int
    kind: Literal["cbr", "tcp"]
    src: MobileNode
    dst: MobileNode
    packet_size: int
    variant: str | None
    sink: str | None
    window: int | None

class WirelessResult:
    sim: WirelessSimulation
    until: float
    stdout: str
    trace: Any
    movements: Any
    flows: Any
    routing: Any
    drops: Any
    tcp_vars: dict[int, dict[str, float]]
    @property
    def routing_load(self) -> float | None: ...
    def route(self, flow: WirelessFlow | int, at: Number, within: Number | None = None) -> list[int] | None: ...
    def positions(self, at: Number) -> Any: ...
    def plot(self, path: str | os.PathLike[str] | None = None, at: Number | Iterable[Number] | None = None,
             **kw: Any) -> Any: ...

class WirelessSimulation:
    width: float
    height: float
    routing: str
    seed: int | None
    run_number: int
    def __init__(self, width: int, height: int, routing: Literal["AODV", "DSDV", "DumbAgent"] = "AODV",
                 seed: int | None = None, *, data_rate: BandwidthLike | None = None,
                 basic_rate: BandwidthLike | None = None, rts_threshold: int | None = None,
                 short_retry_limit: int | None = None, long_retry_limit: int | None = None,
                 range: Number | None = None, rx_threshold: Number | None = None,
                 carrier_sense_range: Number | None = None, cs_threshold: Number | None = None,
                 tx_power: Number | None = None, ifq_len: int = 50, mac_trace: bool = False,
                 mac: str = "802.11", slot_bytes: int | None = None, run: int = 0) -> None: ...
    @property
    def nodes(self) -> list[MobileNode]: ...
    @property
    def flows(self) -> list[WirelessFlow]: ...
    @property
    def moves(self) -> list[tuple[float, int, float, float, float]]: ...
    def node(self, x: Number, y: Number, name: str | None = None) -> MobileNode: ...
    def setdest(self, node: MobileNode, at: TimeLike, x: Number, y: Number, speed: Number) -> None: ...
    def random_waypoint(self, until: TimeLike, nodes: Iterable[MobileNode] | None = None,
                        speed: tuple[Number, Number] = (1.0, 10.0), pause: TimeLike = 0.0, start: TimeLike = 0.0,
                        seed: int = 0) -> int: ...
    def cbr(self, src: MobileNode, dst: MobileNode, rate: BandwidthLike = "64kb", packet_size: int = 512,
            start: TimeLike = 0.0, stop: TimeLike | None = None) -> WirelessFlow: ...
    def tcp(self, src: MobileNode, dst: MobileNode,
            variant: Literal["tahoe", "reno", "newreno", "sack", "vegas", "fack"] = "reno",
            sink: Literal["ack-every", "delack", "sack", "sack-delack"] = "ack-every", window: int = 20,
            packet_size: int = 1000, start: TimeLike = 0.0, stop: TimeLike | None = None) -> WirelessFlow: ...
    def position(self, node: MobileNode, t: Number) -> tuple[float, float]: ...
    def to_tcl(self, until: TimeLike, trace_file: str = "out.tr", nam_file: str | None = None) -> str: ...
    def run(self, until: TimeLike, trace_file: str | os.PathLike[str] | None = None,
            nam_file: str | os.PathLike[str] | None = None, timeout: float | None = None) -> WirelessResult: ...

__all__ = ["Simulation", "Node", "Link", "Flow", "RateFlow", "Source", "ErrorModel", "SimulationError", "VARIANTS", "CONGESTION_CONTROLS", "SINKS",
           "TRAFFIC", "UDP_SINKS", "CODEL_DEFAULTS", "PIE_DEFAULTS", "FQ_CODEL_DEFAULTS",
           "WirelessSimulation", "MobileNode", "WirelessFlow", "WirelessResult", "ROUTING", "WIRELESS_TCP",
           "WIRELESS_SINKS", "radio_threshold"]
