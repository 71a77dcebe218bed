"""Dumbbell's Python API (`dumbbell.Simulation` and its handles).

`_sim` holds the Simulation and its handles, `_wireless` the
WirelessSimulation (mobile nodes, 802.11, ad hoc routing), `_values` the checking of
bandwidths, times and ns-2 bound variables."""

from ._sim import (CODEL_DEFAULTS, CONGESTION_CONTROLS, FQ_CODEL_DEFAULTS, PIE_DEFAULTS, SINKS, TRAFFIC, UDP_SINKS, VARIANTS, ErrorModel, Flow, Link, Node,
                   RateFlow, Simulation, SimulationError, Source)
from ._wireless import ROUTING, WIRELESS_SINKS, WIRELESS_TCP, MobileNode, WirelessFlow, WirelessResult, WirelessSimulation, radio_threshold
from ._values import _parse_bandwidth, _parse_time  # noqa: F401  (dumbbell.metrics uses them)

__all__ = ["Simulation", "Node", "Link", "Flow", "RateFlow", "Source", "ErrorModel", "SimulationError", "VARIANTS", "CONGESTION_CONTROLS", "SINKS",
           "TRAFFIC", "UDP_SINKS", "CODEL_DEFAULTS", "PIE_DEFAULTS",
           "FQ_CODEL_DEFAULTS", "WirelessSimulation", "MobileNode", "WirelessFlow", "WirelessResult", "ROUTING",
           "WIRELESS_TCP", "WIRELESS_SINKS", "radio_threshold"]
