"""`dumbbell.trace` is `dumbbell.analysis.trace` (ns-2 trace files as data frames): the public
path stays, the module lives with the rest of the analysis layer."""

import sys

from .analysis import trace as _module

sys.modules[__name__] = _module
