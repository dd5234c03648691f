"""How hard the suite hunts: `make test` proves each point quickly, `make test-deep` at length.

`HYPOTHESIS_PROFILE=deep` (what `make test-deep` sets) gives every property test thousands of
examples (tests/conftest.py) and every long run below its full length; `make test` keeps to
its five-minute budget on two cores.
"""

from __future__ import annotations

import os

DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"


def scale(quick: int, deep: int) -> int:
    """`deep` in the deep profile, else `quick`: how many runs a test makes."""
    return deep if DEEP else quick
