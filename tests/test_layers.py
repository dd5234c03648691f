"""The layers hold, read and run.

Read (tests/import_graph.py on `layers.toml`): every module has a place in the table, no
import crosses between parts against the arrows or goes up a layer, no two packages or
modules import each other, each library stays in its home, and nothing below the
composition loads a module by a name the checker cannot read. The checker bites: one
planted violation per rule, and the eleven back-arrows of the issue, each in a scratch copy
of the tree.

Run (one fresh interpreter per layer): importing every module of a layer loads nothing of
ours from a layer it does not stand on, and nothing the checker did not see coming.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests import import_graph as graph

ROOT = Path(__file__).resolve().parents[1]
TABLE = graph.Table(ROOT / "layers.toml")
ARROW, LAYER, CONTRACT, PURE, FIRMWARE, COMMAND_LINE, LIBRARY, SIGNAL = (
    rule.name for rule in graph.RULES)
UNLISTED, DYNAMIC, CYCLE, MODULE_CYCLE, TABLE_RULE = (rule[0] for rule in graph.OTHER_RULES)
REASONS = {rule.name: rule.reason for rule in graph.RULES} | dict(graph.OTHER_RULES)

#: Files to plant, by path: a text starting with "+" is added at the end of the file (its
#: lines keep their numbers, so what the tree already reports reads the same), any other
#: text replaces (or makes) the file.
Plant = dict[str, str]


def test_every_module_keeps_every_rule() -> None:
    """The tree as it is: each failing line says where, what to fix, and why."""
    broken = graph.check(ROOT)
    assert not broken, "\n".join(broken)


def test_the_table_is_consistent_and_names_the_parts() -> None:
    """The table alone (also part of `check`): what the rules read must mean something."""
    names = [name for name, _ in graph.modules(ROOT, TABLE.tops)]
    assert TABLE.problems(names) == []
    assert TABLE.tops == graph.PARTS  # `python -m tests.import_graph` shows these by default
    assert next(iter(TABLE.layers)) == graph.CONTRACT


def test_the_graph_is_read_whole() -> None:
    """Sanity: the checker sees the imports the rules are about, however they are written."""
    found = {(i.importer, i.target) for i in graph.imports(ROOT)}
    assert ("showdown.duel.engine", "showdown.contract.events") in found
    assert ("hardware.gpio", "showdown.contract.unit") in found
    assert ("firmware_host.firmware.fw_core", graph.CODEC) in found  # `protocol` on the board
    assert ("firmware_host.firmware.main", "firmware_host.firmware.fw_core") in found  # flat
    # inside a function: `run` imports the window only when there is a display
    assert ("uno_showdown.commands.run", "uno_showdown.window.window") in found
    # by name: `cli` imports each command's module only when it runs
    assert ("uno_showdown.commands.cli", "uno_showdown.commands.game") in found


# --- planted violations -------------------------------------------------------------------


@pytest.fixture(scope="session")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the parts and the table for every plant: the tree may change while the
    tests run (an editor saving), and a plant must be compared with the tree it was planted
    in."""
    root = tmp_path_factory.mktemp("snapshot")
    copy_tree(ROOT, root)
    return root


@pytest.fixture(scope="session")
def baseline(snapshot: Path) -> frozenset[str]:
    """What the unplanted copy reports: a plant is caught only by lines beyond these."""
    return frozenset(graph.check(snapshot))


def copy_tree(source: Path, root: Path) -> None:
    for part in TABLE.tops:
        shutil.copytree(source / part, root / part,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "locale"))
    shutil.copy(source / "layers.toml", root / "layers.toml")


def plant(source: Path, root: Path, files: Plant) -> None:
    """A scratch copy of `source` with `files` planted in it (see `Plant`)."""
    copy_tree(source, root)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if text.startswith("+"):
            text = path.read_text(encoding="utf-8") + textwrap.dedent(text[1:])
        path.write_text(text, encoding="utf-8")


def planted(snapshot: Path, baseline: frozenset[str], root: Path, files: Plant) -> list[str]:
    """The lines the plant adds to what the tree reports."""
    plant(snapshot, root, files)
    return [line for line in graph.check(root) if line not in baseline]


def caught(lines: list[str], rule: str, target: str = "") -> list[str]:
    hits = [line for line in lines if f"breaks '{rule}'" in line and target in line]
    assert hits, f"the checker missed a broken '{rule}' ({target}); it said:\n" + "\n".join(lines)
    return hits


RULE_VIOLATIONS: list[tuple[str, Plant]] = [
    (ARROW, {"companion/store/games.py": "+\nfrom hardware import fake\n"}),
    (LAYER, {"companion/store/duels.py": "+\nfrom companion.app import CompanionApp\n"}),
    (CONTRACT, {"showdown/contract/events.py": "+\nimport gpiozero\n"}),
    (PURE, {"showdown/duel/engine.py": "+\nimport time\n"}),
    (FIRMWARE, {"firmware_host/firmware/fw_core.py": "+\nimport dataclasses\n"}),
    (COMMAND_LINE,
     {"uno_showdown/window/window.py": "+\nfrom uno_showdown.commands import cli\n"}),
    (LIBRARY, {"companion/app.py": "+\nimport pygame\n"}),
    (SIGNAL, {"hardware/gpio.py": "+\nimport signal\n"}),
    (DYNAMIC, {"companion/store/games.py": """+
        import importlib


        def load(name):
            return importlib.import_module(name)
        """}),
    (UNLISTED, {"companion/helpers.py": "X = 1\n"}),
    (CYCLE, {"companion/deck/cards.py": """+
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from companion.scoring.base import ScoringMethod
        """}),
    (MODULE_CYCLE, {"hardware/pinmap.py": """+
        def display():
            from hardware import gpio_display
        """}),
    (TABLE_RULE, {"layers.toml": """+
        [[layer]]
        name = "showdown.extra"
        why = "a layer of the showdown standing on the score keeper"
        modules = ["showdown.extra"]
        imports = ["companion.app"]
        """}),
]


def test_every_rule_has_a_planted_violation() -> None:
    assert sorted(name for name, _ in RULE_VIOLATIONS) == sorted(REASONS)


@pytest.mark.parametrize(("rule", "files"), RULE_VIOLATIONS, ids=[v[0] for v in RULE_VIOLATIONS])
def test_the_checker_fails_on_a_planted_violation(snapshot: Path, baseline: frozenset[str],
                                                  tmp_path: Path, rule: str,
                                                  files: Plant) -> None:
    hits = caught(planted(snapshot, baseline, tmp_path, files), rule)
    # each failure says what to fix and why the rule exists
    assert all(f"because {REASONS[rule]}" in line and f"breaks '{rule}': " in line
               for line in hits)


#: The issue's eleven back-arrows: six the old checker caught, five it missed (a name built
#: with + or an f-string, resolve_name, exec, an attribute chain off a package), each with
#: the rules it must break and the module the failing line must name.
ELEVEN: list[tuple[str, tuple[str, ...], str, Plant]] = [
    ("board link to the games file", (ARROW,), "companion.store.games",
     {"firmware_host/host/link.py": "+\nfrom companion.store.games import Store\n"}),
    ("fake unit to the director", (ARROW,), "championship.desk.operations",
     {"hardware/fake.py": "+\nfrom championship.desk.operations import Championship\n"}),
    ("duel log to the score keeper", (ARROW,), "companion.app",
     {"showdown/service/duel_log.py": "+\nfrom companion.app import CompanionApp\n"}),
    ("dispatch to the loop that imports it", (MODULE_CYCLE,), "showdown.service.dispatch",
     {"showdown/service/dispatch.py": "+\nfrom showdown.service.loop import ShowdownService\n"}),
    ("board clock to the championship's store", (ARROW,), "championship.store.event_store",
     {"firmware_host/wire/board_clock.py":
      "+\nfrom championship.store.event_store import EventStore\n"}),
    ("engine up to the service, in a function", (LAYER,), "showdown.service.loop",
     {"showdown/duel/engine.py": "+\ndef later():\n    from showdown.service import loop\n"}),
    ("a module name built with +", (ARROW, DYNAMIC), "uno_showdown.window.",
     {"hardware/emulated.py": """+
        import importlib


        def window(part):
            return importlib.import_module("uno_showdown.window." + part)
        """}),
    ("a module name in an f-string", (ARROW, DYNAMIC), "championship.desk.",
     {"companion/app.py": """+
        import importlib


        def desk(name):
            return importlib.import_module(f"championship.desk.{name}")
        """}),
    ("pkgutil.resolve_name", (ARROW, DYNAMIC), "hardware.gpio",
     {"showdown/service/loop.py":
      "+\nimport pkgutil\n\nUNIT = pkgutil.resolve_name('hardware.gpio:GpioUnit')\n"}),
    ("exec of an import", (ARROW, DYNAMIC), "companion.app",
     {"hardware/fake.py": "+\nexec('from companion.app import CompanionApp')\n"}),
    ("an attribute chain off a package", (LAYER,), "companion.store.games",
     {"championship/core/standings.py": """+
        import companion


        def store():
            return companion.store.games.Store
        """}),
]


@pytest.mark.parametrize(("what", "rules", "target", "files"), ELEVEN,
                         ids=[v[0] for v in ELEVEN])
def test_the_checker_catches_the_issues_eleven(snapshot: Path, baseline: frozenset[str],
                                               tmp_path: Path, what: str, rules: tuple[str, ...],
                                               target: str, files: Plant) -> None:
    lines = planted(snapshot, baseline, tmp_path, files)
    for rule in rules:
        caught(lines, rule, "" if rule == DYNAMIC else target)


def test_a_type_checker_only_import_is_no_module_cycle(snapshot: Path, baseline: frozenset[str],
                                                       tmp_path: Path) -> None:
    """Two modules may name each other's types; loading one must not need the other."""
    assert planted(snapshot, baseline, tmp_path, {"showdown/service/dispatch.py": """+
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from showdown.service.loop import ShowdownService
        """}) == []


def test_the_composition_may_load_by_name(snapshot: Path, baseline: frozenset[str],
                                          tmp_path: Path) -> None:
    """The command line's table of commands is the composition's to keep."""
    assert planted(snapshot, baseline, tmp_path, {"uno_showdown/commands/common.py": """+
        import importlib


        def command(name):
            return importlib.import_module("uno_showdown.commands." + name)
        """}) == []


@pytest.mark.parametrize("call", ["eval('1')", "__import__('companion')",
                                  "importlib.import_module(NAME)"])
def test_the_record_may_compile_its_own_code_and_load_nothing(snapshot: Path,
                                                              baseline: frozenset[str],
                                                              tmp_path: Path, call: str) -> None:
    """The record module writes its classes' __init__ and execs it, as dataclasses does;
    that leave covers `exec` there alone, never another way to load a module."""
    lines = planted(snapshot, baseline, tmp_path, {"showdown/contract/record.py":
                    f"+\nimport importlib\n\nNAME = 'x'\n\n\ndef f():\n    return {call}\n"})
    caught(lines, DYNAMIC, "")


def test_an_exec_outside_the_record_module_is_refused(snapshot: Path, baseline: frozenset[str],
                                                      tmp_path: Path) -> None:
    lines = planted(snapshot, baseline, tmp_path, {"showdown/contract/worker.py":
                    "+\n\ndef f(source):\n    exec(source, {})\n"})
    caught(lines, DYNAMIC, "")


@pytest.mark.parametrize("module", ["dataclasses", "typing", "enum", "functools"])
def test_the_firmware_may_not_import_what_only_cpython_has(snapshot: Path,
                                                           baseline: frozenset[str],
                                                           tmp_path: Path, module: str) -> None:
    """CPython's standard library would pass an import check here and fail on the board."""
    lines = planted(snapshot, baseline, tmp_path,
                    {"firmware_host/firmware/fw_core.py": f"+\nimport {module}\n"})
    caught(lines, FIRMWARE, module)


def test_an_unplanted_copy_reports_what_the_tree_does(tmp_path: Path) -> None:
    """`plant` copies faithfully, so a plant's new lines are the plant's doing."""
    copy_tree(ROOT, tmp_path)
    assert graph.check(tmp_path) == graph.check(ROOT)


# --- the graph printed --------------------------------------------------------------------


def test_the_graph_is_printed_for_the_parts(capsys: pytest.CaptureFixture[str]) -> None:
    assert graph.main(["--largest", "0"]) == 0
    out = capsys.readouterr().out
    assert all(f"\n{part} (" in out for part in graph.PARTS)
    assert "groups: 6;" in out


def test_the_graph_is_printed_for_an_old_layout(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """`--depth 2 uno_showdown` shows the one-package layout before the parts, its cycles
    with the imports that make them."""
    files = {"__init__.py": "", "core/__init__.py": "", "apps/__init__.py": "",
             "core/a.py": "from uno_showdown.apps import b\n",
             "apps/b.py": "import uno_showdown.core.a\n"}
    for name, text in files.items():
        (tmp_path / "uno_showdown" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "uno_showdown" / name).write_text(text, encoding="utf-8")
    graph.main(["--root", str(tmp_path), "--depth", "2", "uno_showdown"])
    out = capsys.readouterr().out
    assert "uno_showdown.apps (1 lines)\n  -> uno_showdown.core: 1" in out
    assert "cycle: uno_showdown.apps <-> uno_showdown.core" in out


# --- run: what loading a layer loads ------------------------------------------------------

PROBE = r"""
import importlib, json, sys

tops = tuple(sys.argv[1].split(","))
skipped, failed = {}, {}
for name in sys.argv[2:]:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        (failed if not missing or missing in tops else skipped)[name] = repr(exc)
        continue
    except Exception as exc:
        failed[name] = repr(exc)
        continue
    for attr in getattr(module, "__all__", ()):  # a lazy package loads what it offers
        try:
            getattr(module, attr)
        except Exception as exc:
            failed[name + "." + attr] = repr(exc)
print(json.dumps({"loaded": sorted(m for m in sys.modules if m.split(".")[0] in tops),
                  "skipped": skipped, "failed": failed}))
"""
#: Not imported by the probe: modules that run when imported (`-m` entry points too) or need
#: MicroPython (the board's main and its hardware, which mypy leaves out the same way).
PROBE_SKIP = (f"{graph.FIRMWARE}.main", f"{graph.FIRMWARE}.fw_pico")


def _layer_modules(root: Path, layer: str) -> list[str]:
    return [name for name, _ in graph.modules(root, TABLE.tops)
            if TABLE.layer_of(name) == layer and name not in PROBE_SKIP
            and not name.endswith(".__main__")]


def probe(layer: str, root: Path = ROOT) -> dict[str, Any]:
    """Import every module of `layer` in a fresh interpreter run in `root` (its packages
    come first on the path): what of ours is loaded then, what could not be imported for a
    library this machine lacks, and what failed otherwise."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    done = subprocess.run([sys.executable, "-c", PROBE, ",".join(TABLE.tops),
                           *_layer_modules(root, layer)],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        return {"loaded": [], "skipped": {}, "failed": {layer: done.stderr[-2000:]}}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run_time_edges(root: Path) -> dict[str, set[str]]:
    """The checker's arrows that can run (every import but the type checker's)."""
    known = {name for name, _ in graph.modules(root, TABLE.tops)}
    edges: dict[str, set[str]] = {}
    for imp in graph.imports(root, TABLE.tops):
        target = graph.resolve(imp.target, known)
        if target is not None and not imp.typing_only:
            edges.setdefault(imp.importer, set()).add(target)
    return edges


def _reach(start: list[str], edges: dict[str, set[str]]) -> set[str]:
    """What loading `start` can load, as the checker reads it: every run-time arrow, and
    each module's packages (Python runs a package's __init__ before its modules)."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        parts = module.split(".")
        todo.extend(".".join(parts[:n]) for n in range(1, len(parts)))
        todo.extend(edges.get(module, ()))
    return seen


def probe_problems(layer: str, result: dict[str, Any], edges: dict[str, set[str]],
                   root: Path = ROOT) -> list[str]:
    """What a probe of `layer` shows wrong: a module that does not import alone, one of
    ours loaded from a layer the layer does not stand on (or from none), and one loaded
    that the checker's reading does not reach (a hidden import)."""
    stands_on = {layer} | TABLE.below[layer]
    below = ", ".join(n for n in TABLE.order if n in TABLE.below[layer]) or "nothing"
    problems = [f"{name} does not import alone: {error}"
                for name, error in result["failed"].items()]
    reach = _reach(_layer_modules(root, layer), edges)
    for module in result["loaded"]:
        theirs = TABLE.layer_of(module)
        if theirs is None:
            problems.append(f"importing {layer} alone loads {module}, which no layer claims")
        elif theirs not in stands_on:
            problems.append(
                f"importing {layer} alone loads {module} ({theirs}), but {layer} stands on "
                f"{below} only: find the import that pulls it in (python -X importtime) and "
                f"take it out; because {REASONS[LAYER]}")
        if module not in reach:
            problems.append(
                f"importing {layer} alone loads {module}, which the checker does not see "
                f"it import: load it by an import statement or a literal name; because "
                f"{REASONS[DYNAMIC]}")
    return problems


@pytest.fixture(scope="session")
def probes() -> dict[str, dict[str, Any]]:
    """Every layer imported alone, two interpreters at a time (the machine may have two
    cores, shared)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(TABLE.order, pool.map(probe, TABLE.order), strict=True))


@pytest.mark.parametrize("layer", TABLE.order)
def test_a_layer_imported_alone_loads_only_what_it_stands_on(
        probes: dict[str, dict[str, Any]], layer: str) -> None:
    """What the table says, checked at run time: a fresh interpreter imports every module
    of the layer (and touches the names a lazy package offers), then nothing of ours may be
    loaded that the layer does not stand on. An import hidden from the reading (a name
    built from pieces, a module found on a path) shows here as a module the checker did not
    see coming."""
    problems = probe_problems(layer, probes[layer], _edges(ROOT))
    assert not problems, "\n".join(problems)


@functools.cache
def _edges(root: Path) -> dict[str, set[str]]:
    return run_time_edges(root)


def test_the_probe_catches_an_import_hidden_from_the_reading(snapshot: Path,
                                                             tmp_path: Path) -> None:
    """A name built from pieces no rule reads: the reading misses it, the probe does not."""
    plant(snapshot, tmp_path, {"companion/deck/cards.py": """+
        import importlib as _importer

        _importer.import_module("compan" + "ion.app")
        """})
    problems = probe_problems("companion.deck", probe("companion.deck", tmp_path),
                              run_time_edges(tmp_path), tmp_path)
    assert any("loads companion.app (companion.app), but companion.deck" in p
               for p in problems), problems
    assert any("loads companion.app, which the checker does not see" in p
               for p in problems), problems


def test_loading_the_companion_loads_no_unit_no_engine_and_no_screen() -> None:
    """What the rules are for: the score keeper runs without the table's machinery, without
    anything of the championship (the composition's watcher loads its store only when a
    file that keeps an event's standings is written), and without a screen."""
    code = ("import sys, companion.app, uno_showdown.commands.game, companion.store.duels; "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(("
            "'showdown.service', 'showdown.duel.engine', 'hardware', 'firmware_host', "
            "'championship', 'companion.touch', 'companion.screen', 'pygame')))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == []
