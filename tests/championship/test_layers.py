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


NETWORK = {"paho", "amqtt", "starlette", "uvicorn", "socket", "ssl", "http", "urllib",
           "segno", "websockets"}
EDGES = ("sync", "web")


def test_the_companion_never_imports_the_network() -> None:
    offenders = {str(p.relative_to(ROOT)): sorted(m for m in imports(p)
                                                  if m.split(".")[0] in NETWORK)
                 for p in (ROOT / "companion").rglob("*.py")}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_only_the_edges_of_the_championship_touch_the_network() -> None:
    """Networking lives in championship/sync and championship/web; the rest of the
    championship imports neither them nor a network library."""
    offenders = {}
    for p in (ROOT / "championship").rglob("*.py"):
        rel = p.relative_to(ROOT / "championship")
        if rel.parts[0] in EDGES or rel.name == "commands.py":
            continue
        bad = sorted(m for m in imports(p) if m.split(".")[0] in NETWORK
                     or m.startswith(("championship.sync", "championship.web")))
        if bad:
            offenders[str(rel)] = bad
    assert offenders == {}


@pytest.mark.parametrize("module", ["sync/wire.py", "web/state.py"])
def test_the_wire_and_the_pages_state_are_pure(module: str) -> None:
    found = {m.split(".")[0] for m in imports(ROOT / "championship" / module)}
    assert not (NETWORK | {"time", "datetime", "sqlite3", "os", "pathlib", "threading",
                           "asyncio", "pygame"}) & found


def test_the_web_page_never_imports_the_broker() -> None:
    for p in (ROOT / "championship" / "web").rglob("*.py"):
        assert not {m for m in imports(p) if m.split(".")[0] in {"paho", "amqtt"}
                    or m.startswith("championship.sync")}, p
