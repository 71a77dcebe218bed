#!/usr/bin/env python3
"""Compare random hierarchical topologies with the real ns-2.

    python3 tests/ns2/hier_random.py FIRST LAST [--ns /usr/bin/ns]

Runs `hier.tcl random SEED` (tests/ns2/scripts/hier.tcl: a random hierarchy
of domains, clusters and nodes, random links and costs, every node's route
to every other on stdout, CBR flows along the routes that arrive) for each
seed under the real ns-2 and under `dumbbell run`, and compares exit
status, stdout, trace and nam file byte for byte.  Prints each differing
seed and a count; exit status 1 if any differs.  Four seeds are corpus
cases (tests/ns2/cases.json, hier_random_*).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import side_by_side  # noqa: E402

SCRIPT = side_by_side.ROOT / "tests" / "ns2" / "scripts" / "hier.tcl"


def main() -> int:
    return side_by_side.main(__doc__, SCRIPT, lambda seed: ["random", str(seed)], ("hier.tr", "hier.nam"), "hier-", 120)


if __name__ == "__main__":
    sys.exit(main())
