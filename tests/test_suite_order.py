"""The suite's order of files (tests/conftest.py `LONGEST`) names files that exist: a file
renamed or removed would silently drop out of it, and run at the end again."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import LONGEST

ROOT = Path(__file__).resolve().parents[1]


def test_every_file_named_longest_is_a_test_file_of_the_suite() -> None:
    missing = [path for path in LONGEST if not (ROOT / path).is_file()]
    assert not missing, f"tests/conftest.py LONGEST names files that are not there: {missing}"
    assert len(set(LONGEST)) == len(LONGEST)
    assert all(Path(path).name.startswith("test_") for path in LONGEST)
