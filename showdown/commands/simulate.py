"""The `uno-showdown simulate` command."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `simulate` to `uno-showdown`."""
