"""The scoring methods as objects: the registry, the one place each rule lives, and what adding a
method takes (its module and one registry line: nothing else in the companion names a method)."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType

import pytest

from companion.app import CompanionApp
from companion.deck.cards import parse_cards
from companion.scoring import (
    METHOD_KEYS,
    METHODS,
    OPTIONS,
    Entrant,
    RoundInput,
    RoundScore,
    Rules,
    RulesError,
    ScoringMethod,
    parse_method,
    registry,
)
from companion.scoring.winner import WinnerCollects
from companion.store.transfer import export_game, import_game
from companion.table.game import Game, Hand
from showdown.contract.i18n import N_

COMPANION = Path(__file__).resolve().parents[2] / "companion"


def test_every_method_is_one_registered_object_found_by_its_names():
    assert list(METHODS) == ["winner", "own", "championship", "lazy", "teams", "last", "seven"]
    assert list(METHODS) == list(METHOD_KEYS)  # the list `game list` reads without them
    for key, method in METHODS.items():
        assert isinstance(method, ScoringMethod) and method.key == key
        assert parse_method(key.upper()) is method
        for alias in method.aliases:
            assert parse_method(alias) is method
        assert set(method.options) <= set(OPTIONS)
        assert method.min_players <= method.max_players
    assert parse_method("Winner-Collects") is METHODS["winner"]
    with pytest.raises(RulesError, match="choose one of winner, own, championship"):
        parse_method("golf")


def test_the_registry_lines_name_each_method_as_its_module_does():
    """A line repeats its method's aliases so that a name finds the method without loading
    the others: the line and the module agree, and every name is one method's."""
    names: dict[str, str] = {}
    for key, (load, aliases) in registry.LINES.items():
        method = load()
        assert method.key == key and method.aliases == aliases
        for name in (key, *aliases):
            assert names.setdefault(registry.squash(name), key) == key, name


def test_a_method_found_by_name_loads_that_method_alone():
    code = ("import sys; from companion.scoring import parse_method; "
            "assert parse_method('Own hand').key == 'own'; "
            "print(sorted(m for m in sys.modules if m.startswith('companion.scoring.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=COMPANION.parent).stdout
    loaded = set(ast.literal_eval(out))
    assert "companion.scoring.own" in loaded
    assert not loaded & {f"companion.scoring.{k}" for k in METHOD_KEYS if k != "own"}
    assert "companion.scoring.lazy" in subprocess.run(  # iterating loads them all
        [sys.executable, "-c", "import sys; from companion.scoring import METHODS; "
         "list(METHODS.values()); print(sorted(sys.modules))"],
        capture_output=True, text=True, check=True, cwd=COMPANION.parent).stdout


def test_display_facts_come_from_the_method():
    assert [m.key for m in METHODS.values() if m.lower_is_better] == ["own", "championship"]
    assert [m.key for m in METHODS.values() if not m.keeps_totals] == ["lazy", "last"]
    assert [m.key for m in METHODS.values() if not m.takes_target] == ["lazy", "last", "seven"]
    assert Rules.make("own").lower_is_better and not Rules.make("lazy").keeps_totals


def _names_a_method(node: ast.AST, keys: set[str]) -> str | None:
    """What in `node` picks out one scoring method, if anything."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            node.value.id == "Method":
        return f"Method.{node.attr}"
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
            node.value.id == "METHODS" and isinstance(node.slice, ast.Constant):
        return f"METHODS[{node.slice.value!r}]"
    if isinstance(node, ast.Compare):
        sides = [node.left, *node.comparators]
        about_method = any("method" in ast.unparse(side) for side in sides)
        named = [s.value for s in sides if isinstance(s, ast.Constant) and s.value in keys]
        if about_method and named:
            return ast.unparse(node)
    return None


def test_nothing_outside_the_scoring_package_branches_on_which_method_it_is():
    """The game model, store, transfer, commands and views ask the method object; a new
    method then needs only its module, a registry line and its strings."""
    keys = set(METHODS)
    for branch in ('game.rules.method.key == "lazy"', "Method.TEAMS", 'METHODS["own"]',
                   'method is not METHODS["teams"]'):  # what the scan catches
        assert any(_names_a_method(n, keys) for n in ast.walk(ast.parse(branch)))
    assert not _names_a_method(ast.parse('s.status == "winner"').body[0], keys)
    found = []
    for path in sorted(COMPANION.rglob("*.py")):
        if "scoring" in path.relative_to(COMPANION).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            what = _names_a_method(node, keys)
            if what:
                found.append(f"{path.relative_to(COMPANION)}:{node.lineno}: {what}")
    assert found == []


class Doubles(WinnerCollects):
    """A house method made up for this test: the winner collects twice the hands."""

    key = "doubles"
    aliases = ()
    title = N_("winner collects")
    label = N_("Winner collects")
    summary = N_("the one who went out scores every other hand; first to the target wins")
    default_target = 1000

    def score(self, entrants: Sequence[Entrant], entry: RoundInput) -> RoundScore:
        base = super().score(entrants, entry)
        return RoundScore({n: 2 * p for n, p in base.points.items()}, None, base.hand_values)


DOUBLES = Doubles()


def test_a_new_method_is_its_object_and_a_registry_line(monkeypatch, tmp_path):
    monkeypatch.setattr(registry, "LINES", MappingProxyType({**registry.LINES,
                                                             "doubles": (lambda: DOUBLES, ())}))
    assert list(METHODS)[-1] == "doubles" and METHODS["doubles"] is DOUBLES
    with CompanionApp.open(tmp_path / "g.db", lang="en") as app:
        app.new_game("classic", "doubles", ["Ann", "Bob", "Cid"])
        summary = app.record_round("Ann", hands={"Bob": "r5", "Cid": "wild"})
        assert summary.points == {"Ann": 110, "Bob": 0, "Cid": 0}
        assert app.game is not None and app.game.rules.target == 1000
        text = app.export("csv")
    back, _ = import_game(text)
    assert back.rules.method.key == "doubles" and back.totals["Ann"] == 110
    with CompanionApp.open(tmp_path / "g.db", lang="en") as again:  # stored by its key
        assert again.game is not None and again.game.totals["Ann"] == 110


def test_the_rules_of_the_screen_and_the_cli_are_the_game_models():
    game = Game.new("classic", Rules.make("lazy"), ["Ann", "Bob", "Cid"])
    game = game.add_round("Ann", {"Bob": Hand(cards=parse_cards("r5")), "Cid": Hand(counted=9)})
    method = game.rules.method
    assert method.round_line(game, 0) == "Ann went out; Cid had the most left."
    assert method.next_line(game) == "Next round: Cid deals, Ann starts."
    assert [method.total_text(s) for s in game.standings()] == ["1 win", "0 wins", "0 wins"]
    assert "lazy" in export_game(game)
