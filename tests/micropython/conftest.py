"""The MicroPython level: one Node process with MicroPython 1.27 for the whole session.

Without Node or without `npm ci` having run, every test here skips with one line
saying which (CI installs both, so there it always runs).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.micropython.runner import BoardDriver, MicroPython, MicroPythonUnavailable

INTERPRETERS = ("cpython", "micropython")


@pytest.fixture(scope="session")
def micropython() -> Iterator[MicroPython]:
    try:
        mp = MicroPython()
    except MicroPythonUnavailable as exc:
        pytest.skip(f"MicroPython level skipped: {exc}")
    try:
        yield mp
    finally:
        mp.close()


@pytest.fixture
def boards(micropython: MicroPython) -> Iterator[Callable[..., dict[str, BoardDriver]]]:
    """`boards(**options)`: the same bare board on each interpreter, by name."""
    made: list[BoardDriver] = []

    def make(**options: Any) -> dict[str, BoardDriver]:
        pair = {"cpython": BoardDriver.cpython(**options),
                "micropython": BoardDriver.micropython(micropython, **options)}
        made.extend(pair.values())
        return pair

    try:
        yield make
    finally:
        for board in made:
            board.close()
