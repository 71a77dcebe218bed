"""`dumbbell.metrics` is `dumbbell.analysis.metrics` (metrics of a run or a trace): the public
path stays, the module lives with the rest of the analysis layer."""

import sys

from .analysis import metrics as _module

sys.modules[__name__] = _module
