"""The `uno-showdown emulator` command."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `emulator` to `uno-showdown`."""
