"""`import nstrace` for analysis scripts written for Dordal's ns-2 chapter:
the same module as `dumbbell.nstrace`."""

from dumbbell.analysis.nstrace import NsTrace, getEvent, getVar, isEOF, isEvent, isVar, nsclose, nsopen, skipline  # noqa: F401
