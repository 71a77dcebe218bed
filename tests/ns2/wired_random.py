"""Compare random wired-cum-wireless networks with the real ns-2.

    python3 tests/ns2/wired_random.py FIRST LAST [--ns /usr/bin/ns]

Runs `wireless-wired.tcl random-SEED FORMAT MACTRACE` (tests/ns2/scripts/
wireless-wired.tcl: one to three wired nodes in a random tree, one or two
base stations each linked to one of them, one to four DSDV mobile nodes
per base station at random places, one to four CBR or TCP flows between
random wired and mobile nodes, random moves; the old trace format with the
MAC trace for even seeds, use-newtrace's without it for odd ones) for each
seed under the real ns-2 and under `dumbbell run`, and compares exit
status, stdout, trace and nam file byte for byte.  Prints each differing
seed and a count; exit status 1 if any differs.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import side_by_side  # noqa: E402

SCRIPT = side_by_side.ROOT / "tests" / "ns2" / "scripts" / "wireless-wired.tcl"


def main() -> int:
    return side_by_side.main(__doc__, SCRIPT, lambda seed: [f"random-{seed}", *(["old", "ON"] if seed % 2 == 0 else ["new", "OFF"])], ("ww.tr", "ww.nam"), "wired-", 300)


if __name__ == "__main__":
    sys.exit(main())
