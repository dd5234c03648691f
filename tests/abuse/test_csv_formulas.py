"""CSV files a spreadsheet opens safely, and names that keep their text.

Players registered as `=cmd|' /C calc'!A0`, `@SUM(1)` and `=HYPERLINK(…)` were written as
they are by `event standings --csv`, `event results --csv` and `game export --format csv`,
so a spreadsheet opening the file ran them. Now every text cell that starts with `=`, `+`,
`-`, `@`, a tab or a carriage return (OWASP's rule) is written with a `'` before it, the
screens still show the names as typed, `game import` gives them back as they were, and a
name starting with `-` (which `--winner -2-3` could never name) is refused at registration
in one line.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app import CompanionApp
from companion.store import wallclock
from companion.store.transfer import import_game
from companion.table import spreadsheet
from tests.abuse.helpers import cli, dump, refused
from tests.championship import test_cli as event_cli
from tests.championship.conftest import SimClock

FORMULAS = ["=cmd|' /C calc'!A0", "@SUM(1)", '=HYPERLINK("evil.example")', "=1-1",
            "'=already quoted"]
STARTS = ("=", "+", "-", "@", "\t", "\r")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> SimClock:
    """The championship tests' simulated wall clock, read by every command run here."""
    sim = SimClock()
    monkeypatch.setattr(wallclock, "now", sim)
    return sim


def _cells(text: str) -> list[str]:
    return [c for r in csv.reader(io.StringIO(text)) for c in r]


def _safe(text: str) -> None:
    """No cell of the CSV starts a formula."""
    for c in _cells(text):
        assert not c.startswith(STARTS), f"a formula cell {c!r}"


def test_the_events_csv_files_neutralise_formulas_and_the_screens_keep_the_names(
        tmp_path: Path, clock: SimClock, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    players = [*FORMULAS, "Ann", "Bob", "Cid", "Dan"]
    monkeypatch.setattr(event_cli, "PLAYERS", players)
    db = str(tmp_path / "cup.db")
    event_cli.make_state(db, clock, "over")
    capsys.readouterr()
    standings, results = tmp_path / "standings.csv", tmp_path / "results.csv"
    status, shown, _err = cli(capsys, "event", "standings", "--db", db, "--csv", str(standings))
    assert status == 0
    status, results_shown, _err = cli(capsys, "event", "results", "--db", db, "--csv",
                                      str(results))
    assert status == 0
    for path in (standings, results):
        text = path.read_text(encoding="utf-8")
        _safe(text)
        names = {r["name"] for r in csv.DictReader(io.StringIO(text))}
        for name in FORMULAS:
            assert spreadsheet.cell(name) in names  # the ' before it, the text kept
            assert spreadsheet.text_of(str(spreadsheet.cell(name))) == name
    for name in FORMULAS:  # the terminal shows them as typed
        assert name in shown and name in results_shown
        assert "'" + name not in shown


def test_game_export_csv_neutralises_formulas_and_import_gives_the_names_back(
        tmp_path: Path) -> None:
    names = ["=1-1", "@SUM(1)", "'@x", "Ann"]
    with CompanionApp.open(tmp_path / "g.db", lang="en") as app:
        app.new_game("classic", "winner", names)
        app.record_round("=1-1", points={"@SUM(1)": 5, "'@x": 7, "Ann": 0})
        text = app.export("csv")
    _safe(text)
    game, _duels = import_game(text, "csv")
    assert list(game.names) == names


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12))
def test_any_text_round_trips_and_never_starts_a_formula(text: str) -> None:
    written = spreadsheet.cell(text)
    assert isinstance(written, str)
    assert not written.startswith(STARTS)
    assert spreadsheet.text_of(written) == text


def test_numbers_stay_numbers() -> None:
    assert spreadsheet.row([1, -5, 2.5, None]) == [1, -5, 2.5, None]


@pytest.mark.parametrize("name", ["-2-3", "-Ann", " -x"])
def test_a_name_starting_with_a_dash_is_refused_at_registration_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    db = str(tmp_path / "cup.db")
    assert cli(capsys, "event", "new", "Cup", "--db", db, "--tables", "1")[0] == 0
    before = dump(Path(db))
    refused(cli(capsys, "event", "register", "--db", db, "--lang", "en", "--", "Ann", name),
            "cannot start with -")
    assert dump(Path(db)) == before
    game_db = str(tmp_path / "g.db")
    refused(cli(capsys, "game", "new", "--db", game_db, "--lang", "en", "--edition", "classic",
                "--method", "winner", "--players", f"Ann,{name}"), "cannot start with -")
