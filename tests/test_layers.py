"""The layers hold: every module has a place in `layers.toml`, no import goes up a layer, no
two packages or modules import each other, and each library stays in its home; and the
checker bites: one planted violation per rule, the reviewer's five back-arrows among them."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests import import_graph as graph

ROOT = Path(__file__).resolve().parents[1]
U = "uno_showdown"


def test_every_module_keeps_every_rule() -> None:
    broken = graph.check(ROOT)
    assert not broken, "\n".join(broken)


def test_the_graph_is_read_whole() -> None:
    """Sanity: the checker sees the imports the rules are about, function-level ones too."""
    found = {(i.importer, i.target) for i in graph.imports(ROOT)}
    assert (f"{U}.core.duel.engine", f"{U}.contract.events") in found
    assert (f"{U}.adapters.units.gpio", f"{U}.contract.unit") in found
    assert (f"{U}.firmware.fw_core", graph.CODEC) in found  # `import protocol` on the board
    assert (f"{U}.firmware.main", f"{U}.firmware.fw_core") in found
    # inside a function: `run` imports the window only when there is a display
    assert (f"{U}.apps.commands.run", f"{U}.apps.window.window") in found
    # by name: `cli` imports each command's module only when it runs
    assert (f"{U}.apps.commands.cli", f"{U}.apps.commands.game") in found


def test_the_table_names_every_layer_the_architecture_page_shows() -> None:
    table = graph.Table(ROOT / "layers.toml")
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert table.order == ["contract", "core", "firmware", "service", "adapters", "apps"]
    assert all(f"**{name}**" in page for name in table.order)


def plant(root: Path, files: dict[str, str]) -> None:
    """A scratch copy of the package with `files` written into it: a text starting with "+"
    is added at the end of the module, any other replaces (or makes) it."""
    shutil.copytree(ROOT / U, root / U, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "layers.toml", root / "layers.toml")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if text.startswith("+"):
            text = path.read_text(encoding="utf-8") + textwrap.dedent(text[1:])
        path.write_text(text, encoding="utf-8")


RULE_VIOLATIONS = [
    ("a layer imports only the layers the table lets it",
     {f"{U}/core/duel/engine.py": f"+\ndef f():\n    from {U}.service import loop\n"}),
    ("the contract imports only the standard library",
     {f"{U}/contract/events.py": "+\nimport gpiozero\n"}),
    ("the core reads no clock and does no I/O",
     {f"{U}/core/duel/engine.py": "+\nimport time\n"}),
    ("the firmware imports only the codec and what MicroPython has",
     {f"{U}/firmware/fw_core.py": "+\nimport dataclasses\n"}),
    ("a library is imported only where the table gives it a home",
     {f"{U}/apps/scorekeeper/app.py": "+\nimport pygame\n"}),
    ("an adapter does not lean on another",
     {f"{U}/adapters/broker/link.py": f"+\nfrom {U}.adapters.store import games\n"}),
    ("only the command line imports the command line",
     {f"{U}/apps/window/window.py": f"+\nfrom {U}.apps.commands import cli\n"}),
    ("only the applications install signal handlers",
     {f"{U}/adapters/units/gpio.py": "+\nimport signal\n"}),
    (graph.UNLISTED[0], {f"{U}/helpers.py": "X = 1\n"}),
    (graph.CYCLE[0], {f"{U}/core/deck/cards.py": f"+\nfrom {U}.core.scoring import base\n"}),
    (graph.MODULE_CYCLE[0],
     {f"{U}/core/table/names.py": f"+\ndef f():\n    from {U}.core.table import game\n"}),
]
#: The five back-arrows a reviewer planted in the old layout, in the new one's names.
REVIEWERS_FIVE = [
    ("board link to the games file", "an adapter does not lean on another",
     {f"{U}/adapters/board/link.py": f"+\nfrom {U}.adapters.store.games import Store\n"}),
    ("fake unit to the director", "a layer imports only the layers the table lets it",
     {f"{U}/adapters/units/fake.py":
      f"+\nfrom {U}.apps.championship.operations import Championship\n"}),
    ("duel log to the score keeper", "a layer imports only the layers the table lets it",
     {f"{U}/service/duel_log.py": f"+\nfrom {U}.apps.scorekeeper.app import CompanionApp\n"}),
    ("dispatch to the loop that imports it", graph.MODULE_CYCLE[0],
     {f"{U}/service/dispatch.py": f"+\nfrom {U}.service.loop import ShowdownService\n"}),
    ("board clock to the championship's store", "a layer imports only the layers the table lets it",
     {f"{U}/core/board/clock.py":
      f"+\nfrom {U}.adapters.store.championship import ChampionshipStore\n"}),
]
REASONS = {r.name: r.reason for r in graph.RULES} | dict(
    [graph.UNLISTED, graph.CYCLE, graph.MODULE_CYCLE])


def test_every_rule_has_a_planted_violation() -> None:
    assert sorted(name for name, _ in RULE_VIOLATIONS) == sorted(REASONS)


def caught(root: Path, rule: str, files: dict[str, str]) -> list[str]:
    plant(root, files)
    broken = graph.check(root)
    hits = [line for line in broken if f"breaks '{rule}'" in line]
    assert hits, f"the checker missed a broken '{rule}': {broken}"
    return hits


@pytest.mark.parametrize(("rule", "files"), RULE_VIOLATIONS, ids=[v[0] for v in RULE_VIOLATIONS])
def test_the_checker_fails_on_a_planted_violation(tmp_path: Path, rule: str, files) -> None:
    hits = caught(tmp_path, rule, files)
    assert all(REASONS[rule] in line for line in hits)  # each failure says why the rule exists


@pytest.mark.parametrize(("what", "rule", "files"), REVIEWERS_FIVE,
                         ids=[v[0] for v in REVIEWERS_FIVE])
def test_the_checker_catches_the_reviewers_back_arrows(tmp_path: Path, what: str, rule: str,
                                                      files) -> None:
    caught(tmp_path, rule, files)


def test_a_type_checker_only_import_is_no_module_cycle(tmp_path: Path) -> None:
    """Two modules may name each other's types; loading one must not need the other."""
    plant(tmp_path, {f"{U}/service/dispatch.py": "+\nfrom typing import TYPE_CHECKING\n"
                     f"if TYPE_CHECKING:\n    from {U}.service.loop import ShowdownService\n"})
    assert graph.check(tmp_path) == []


@pytest.mark.parametrize("module", ["dataclasses", "typing", "enum", "functools"])
def test_the_firmware_may_not_import_what_only_cpython_has(tmp_path: Path, module: str) -> None:
    """CPython's standard library would pass an import check here and fail on the board."""
    caught(tmp_path, "the firmware imports only the codec and what MicroPython has",
           {f"{U}/firmware/fw_core.py": f"+\nimport {module}\n"})


def test_the_unplanted_copy_passes(tmp_path: Path) -> None:
    plant(tmp_path, {})
    assert graph.check(tmp_path) == []


def test_loading_the_score_keeper_loads_no_unit_no_engine_and_no_screen() -> None:
    """What the rules are for: the score keeper runs without the table's machinery."""
    code = (f"import sys, {U}.apps.scorekeeper.app, {U}.apps.commands.game, "
            f"{U}.adapters.store.duels; print(' '.join(sorted(m for m in sys.modules "
            f"if m.startswith(('{U}.service', '{U}.adapters.units', '{U}.adapters.board', "
            f"'{U}.core.duel.engine', 'pygame')))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == []


def test_the_lazy_scoring_package_shows_the_checker_every_module_it_loads() -> None:
    """`companion.scoring` loads a name's module when first asked for, by a name the import
    checker cannot read; each such module is also imported for type checking, which the
    checker does read, so no layering rule is dodged by making a package lazy."""
    import companion.scoring as scoring

    found = {i.target for i in graph.imports(ROOT) if i.importer == f"{U}.core.scoring"}
    assert set(scoring._HOME.values()) <= found
    for name in scoring.__all__:  # and every name it offers is there
        assert getattr(scoring, name) is not None, name
