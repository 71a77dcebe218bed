"""`dumbbell.metrics_cli` is `dumbbell.analysis.metrics_cli` (`dumbbell metrics` and `dumbbell plot`): the public
path stays, the module lives with the rest of the analysis layer."""

import sys

from .analysis import metrics_cli as _module

sys.modules[__name__] = _module
