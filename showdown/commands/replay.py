"""The `uno-showdown replay` command."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `replay` to `uno-showdown`."""
