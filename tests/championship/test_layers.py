"""The layers, as an import graph: the companion never imports the championship; the
championship's pure cores (draw, clock, standings, results) import no I/O, no clock, no
screen, and only what is pure of the companion."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE_CORES = ("draw", "clock", "standings", "results", "settings")
#: What a pure core may import: the standard library's pure parts, its own package's pure
#: modules, and the companion's errors, catalogs and edition/scoring rules.
PURE_ALLOWED = {"__future__", "collections", "dataclasses", "enum", "fractions", "functools",
                "json", "math", "random", "types", "typing", "championship.draw",
                "championship.clock", "championship.standings", "championship.errors",
                "championship.i18n", "championship.settings", "companion.editions",
                "companion.errors", "companion.scoring", "companion.i18n"}


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_companion_never_imports_the_championship() -> None:
    offenders = {str(p.relative_to(ROOT)): sorted(m for m in imports(p)
                                                  if m.split(".")[0] == "championship")
                 for p in (ROOT / "companion").rglob("*.py")}
    assert {k: v for k, v in offenders.items() if v} == {}


@pytest.mark.parametrize("core", PURE_CORES)
def test_a_pure_core_imports_nothing_that_does_io(core: str) -> None:
    found = imports(ROOT / "championship" / f"{core}.py")
    roots = {m if m.startswith(("championship.", "companion.")) else m.split(".")[0]
             for m in found}
    assert roots - PURE_ALLOWED == set()
    assert not {"time", "datetime", "sqlite3", "os", "pygame", "pathlib"} & roots
