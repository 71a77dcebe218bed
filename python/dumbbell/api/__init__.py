"""Dumbbell's Python API (`dumbbell.Simulation` and its handles).

`_sim` holds the Simulation and its handles, `_values` the checking of
bandwidths, times and ns-2 bound variables."""

from ._sim import (CODEL_DEFAULTS, CONGESTION_CONTROLS, FQ_CODEL_DEFAULTS, PIE_DEFAULTS, SINKS, TRAFFIC, UDP_SINKS, VARIANTS, ErrorModel, Flow, Link, Node,
                   RateFlow, Simulation, SimulationError, Source)
from ._values import _parse_bandwidth, _parse_time  # noqa: F401  (dumbbell.metrics uses them)

__all__ = ["Simulation", "Node", "Link", "Flow", "RateFlow", "Source", "ErrorModel", "SimulationError", "VARIANTS", "CONGESTION_CONTROLS", "SINKS",
           "TRAFFIC", "UDP_SINKS", "CODEL_DEFAULTS", "PIE_DEFAULTS",
           "FQ_CODEL_DEFAULTS"]
