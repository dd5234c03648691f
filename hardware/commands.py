"""Subcommands contributed by the `hardware` package."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add this package's subcommands to `uno-showdown`."""
