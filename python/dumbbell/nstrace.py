"""`dumbbell.nstrace` is `dumbbell.analysis.nstrace` (Dordal's nstrace interface): the public
path stays, the module lives with the rest of the analysis layer."""

import sys

from .analysis import nstrace as _module

sys.modules[__name__] = _module
