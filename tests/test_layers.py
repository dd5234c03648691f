"""The layers hold: the import graph of every package keeps the rules, and the checker bites."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests import import_graph as graph

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_keeps_every_layering_rule() -> None:
    broken = graph.check(ROOT)
    assert not broken, "\n".join(broken)


def test_the_graph_is_read_whole() -> None:
    """Sanity: the checker sees the imports the rules are about, function-level ones too."""
    found = {(i.importer, i.target) for i in graph.imports(ROOT)}
    assert ("showdown.duel", "showdown.events") in found
    assert ("hardware.base", "showdown.events") in found
    assert ("companion.duels", "showdown.events") in found
    assert ("firmware_host.firmware.fw_core", graph.CODEC) in found  # `import protocol`
    assert ("firmware_host.firmware.main", "firmware_host.firmware.fw_core") in found
    # inside a function: `run` imports the window only when there is a display
    assert ("showdown.commands.run", "showdown.window") in found


def plant(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    for package in graph.PACKAGES:  # every folder a package
        for folder in [root / package, *(p for p in (root / package).rglob("*") if p.is_dir())]:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "__init__.py").touch()


# One planted violation per rule: (rule name, files).
VIOLATIONS = [
    ("the contract imports only the standard library",
     {"showdown/events.py": "import gpiozero\n"}),
    ("the duel engine imports only the standard library and the contract",
     {"showdown/duel.py": "def f():\n    from hardware.base import ShowdownUnit\n"}),
    ("pure cores read no clock and do no I/O",
     {"showdown/duel.py": "import time\n"}),
    ("hardware imports from showdown only the contract",
     {"hardware/gpio.py": "from showdown.cli import main\n"}),
    ("companion imports neither hardware nor firmware_host",
     {"companion/app.py": "from ..hardware import base\n"}),
    ("companion imports from showdown only the contract",
     {"companion/duels.py": "import importlib\nimportlib.import_module('showdown.service')\n"}),
    ("companion does not import championship",
     {"companion/app.py": "from championship import event\n", "championship/event.py": ""}),
    ("championship imports neither hardware nor firmware_host, and from showdown only the "
     "contract",
     {"championship/event.py": "from showdown.duel import Duel\n"}),
    ("the firmware imports only the codec",
     {"firmware_host/firmware/fw_core.py": "import protocol\nimport serial\n"}),
    ("the service sees a unit only through its interface",
     {"showdown/service.py": "from hardware import gpio\n", "hardware/gpio.py": ""}),
    ("only the command line imports the command line",
     {"showdown/duel_log.py": "from showdown import cli\n", "showdown/cli.py": ""}),
    ("only the commands install signal handlers",
     {"hardware/gpio.py": "import signal\n"}),
]


def test_every_rule_has_a_planted_violation() -> None:
    assert sorted(name for name, _ in VIOLATIONS) == sorted(r.name for r in graph.RULES)


@pytest.mark.parametrize(("rule", "files"), VIOLATIONS, ids=[v[0] for v in VIOLATIONS])
def test_the_checker_fails_on_a_planted_violation(tmp_path: Path, rule: str, files) -> None:
    plant(tmp_path, files)
    broken = graph.check(tmp_path)
    hits = [line for line in broken if f"breaks '{rule}'" in line]
    assert hits, f"the checker missed a broken '{rule}': {broken}"
    reason = next(r.reason for r in graph.RULES if r.name == rule)
    assert all(reason in line for line in hits)  # each failure says why the rule exists


@pytest.mark.parametrize("module", ["dataclasses", "typing", "enum", "functools"])
def test_the_firmware_may_not_import_what_only_cpython_has(tmp_path: Path, module: str) -> None:
    """CPython's standard library would pass an import check here and fail on the board."""
    plant(tmp_path, {"firmware_host/firmware/fw_core.py": f"import protocol\nimport {module}\n",
                     "firmware_host/protocol.py": ""})
    assert any("breaks 'the firmware imports only the codec'" in line
               for line in graph.check(tmp_path))


def test_a_clean_planted_tree_passes(tmp_path: Path) -> None:
    plant(tmp_path, {
        "showdown/events.py": "from __future__ import annotations\nimport enum\n",
        "showdown/duel.py": "import random\nfrom showdown.events import Side\n",
        "hardware/gpio.py": "from showdown.events import ConfigError\n",
        "companion/duels.py": "from .store import Store\nfrom showdown import events\n",
        "companion/store.py": "import sqlite3\n",
        "firmware_host/protocol.py": "",
        "firmware_host/firmware/fw_core.py": "try:\n    import protocol\nexcept ImportError:\n"
                                             "    from firmware_host import protocol\n",
        "firmware_host/firmware/main.py": "import fw_core\nimport machine\n",
    })
    assert graph.check(tmp_path) == []


def test_loading_the_companion_loads_no_unit_and_no_engine() -> None:
    """What the rules are for: the score keeper runs without the table's machinery."""
    code = ("import sys, companion.app, companion.commands, companion.duels; "
            "print(' '.join(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('showdown', 'hardware', 'firmware_host'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["showdown", "showdown.events"]


def test_the_lazy_scoring_package_shows_the_checker_every_module_it_loads() -> None:
    """`companion.scoring` loads a name's module when first asked for, by a name the import
    checker cannot read; each such module is also imported for type checking, which the
    checker does read, so no layering rule is dodged by making a package lazy."""
    import companion.scoring as scoring

    found = {i.target for i in graph.imports(ROOT) if i.importer == "companion.scoring"}
    assert set(scoring._HOME.values()) <= found
    for name in scoring.__all__:  # and every name it offers is there
        assert getattr(scoring, name) is not None, name
