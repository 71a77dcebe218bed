"""`dumbbell.plot` is `dumbbell.analysis.plot` (one-call plots): the public
path stays, the module lives with the rest of the analysis layer."""

import sys

from .analysis import plot as _module

sys.modules[__name__] = _module
