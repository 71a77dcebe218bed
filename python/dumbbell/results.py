"""`dumbbell.results` is `dumbbell.analysis.results` (the results of a run as data frames): the public
path stays, the module lives with the rest of the analysis layer."""

import sys

from .analysis import results as _module

sys.modules[__name__] = _module
