"""`make bench` runs every program in benchmarks/ for minutes; a module renamed under one of
them (or under the child program a benchmark starts from a string) used to be found only
there, after the others had run. These checks take a second."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = sorted((ROOT / "benchmarks").glob("*.py"))
#: an import statement at the start of a line, in the code or in a child program's text
IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.MULTILINE)


@pytest.mark.parametrize("bench", BENCHMARKS, ids=lambda p: p.stem)
def test_every_module_a_benchmark_imports_exists(bench: Path) -> None:
    paths = [str(ROOT), str(ROOT / "benchmarks")]  # a benchmark may import its neighbour
    sys.path[:0] = paths
    try:
        for match in IMPORT.finditer(bench.read_text("utf-8")):
            name = match.group(1) or match.group(2)
            if name.startswith("."):
                continue
            assert importlib.util.find_spec(name) is not None, f"{bench.name}: no module {name}"
    finally:
        for path in paths:
            sys.path.remove(path)


def test_every_benchmark_says_what_it_takes() -> None:
    for bench in BENCHMARKS:
        done = subprocess.run([sys.executable, str(bench), "--help"], cwd=ROOT,
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0 and "usage:" in done.stdout, (bench.name, done.stderr)


def test_the_championship_benchmark_runs_to_its_table() -> None:
    """It builds its events through the store and the game model, which change most: run it
    at its smallest size to the end (it once stopped before its first table when the game
    became a record that `dataclasses.replace` refuses)."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "championship.py"),
                           "--samples", "2", "--no-large"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "`event standings --json`" in done.stdout
