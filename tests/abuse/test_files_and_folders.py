"""Issue 26, findings 6 and 8: a damaged event table crashed every `event` command; `game
import` of a FIFO hung; `table status`, `event new` and `simulate --log` made missing parent
folders (a run on /nonexistent/... made /nonexistent); imports took team "0" as a string,
a duel's `cards: "2"`, a negative reaction time for a player who did not press early, and
CSV rows whose edition, target or hand value disagreed with the rest."""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.app import CompanionApp
from companion.store.transfer import TransferError, import_game
from tests.abuse.helpers import cli, dump, refused
from tests.abuse.test_import import GAME, TEAMS
from tests.championship.tables.conftest import make_event


@pytest.mark.parametrize("argv", [["show"], ["standings"], ["register", "Zed"], ["pause"],
                                  ["list"]])
def test_a_damaged_event_table_is_named_in_one_line(tmp_path: Path, argv: list[str],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cup.db"
    make_event(str(db), 6, 2)
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE championship_events")
    before = dump(db)
    refused(cli(capsys, "event", *argv, "--db", str(db), "--lang", "en"),
            "championship_events", "damaged", "restore the file from a copy")
    assert dump(db) == before


def test_no_command_makes_folders_it_was_not_asked_to(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    missing = tmp_path / "nonexistent"
    refused(cli(capsys, "table", "status", "--db", str(missing / "t.db"), "--lang", "en"))
    refused(cli(capsys, "event", "new", "Cup", "--tables", "2", "--db",
                str(missing / "cup.db"), "--lang", "en"), "there is no folder")
    refused(cli(capsys, "simulate", "--duels", "2", "--log", str(missing / "duels.jsonl")),
            "duels.jsonl")
    refused(cli(capsys, "table", "status", "--db", str(tmp_path / "t.db"), "--lang", "en"),
            "there is no games file")
    assert list(tmp_path.iterdir()) == []


def test_the_users_own_data_folder_is_made_when_nothing_else_is_given(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other side of the rule: with no --duel-log, the duel log goes to the user's data
    folder, which is the program's to make (a first run on a new machine has none)."""
    from uno_showdown.commands.options import default_duel_log, open_duel_log

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    log = open_duel_log(None)
    try:
        assert default_duel_log().parent.is_dir()
        assert default_duel_log().parent.is_relative_to(tmp_path)
    finally:
        log.close()


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_import_refuses_what_is_not_a_file(tmp_path: Path, kind: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    if kind == "fifo":
        path = tmp_path / "game.json"
        os.mkfifo(path)
    elif kind == "device":
        path = Path("/dev/zero")
    else:
        path = tmp_path
    db = tmp_path / "games.db" if kind != "folder" else tmp_path.parent / f"{tmp_path.name}.db"
    result: list[tuple[int, str, str]] = []
    worker = threading.Thread(target=lambda: result.append(
        cli(capsys, "game", "import", str(path), "--db", str(db), "--lang", "en")), daemon=True)
    worker.start()
    worker.join(20)
    if worker.is_alive():  # let the hung reader go, then fail
        if kind == "fifo":
            with open(path, "wb"):
                pass
        worker.join(5)
        raise AssertionError(f"`game import` of a {kind} did not return")
    refused(result[0], "is not a file")


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data)


def _refused(text: str, *words: str, fmt: str | None = None) -> None:
    with pytest.raises(TransferError) as err:
        import_game(text, fmt)
    for word in words:
        assert word in str(err.value), str(err.value)


def test_json_numbers_are_numbers() -> None:
    data = copy.deepcopy(TEAMS)
    data["players"][0]["team"] = "0"
    _refused(_json(data), "players[0].team")
    data = copy.deepcopy(GAME)
    data["duels"] = [{"after_round": 1, "challenger": "Ann", "opponent": "Bob", "cards": "2",
                      "outcome": "faster", "winner": "Ann", "loser": "Bob"}]
    _refused(_json(data), "duels[0].cards")
    data["duels"][0]["cards"] = 2
    import_game(_json(data))  # the same duel with a number is taken


def test_a_negative_reaction_is_only_an_early_press() -> None:
    data = copy.deepcopy(GAME)
    duel = {"after_round": 1, "challenger": "Ann", "opponent": "Bob", "cards": 2,
            "outcome": "faster", "winner": "Ann", "loser": "Bob",
            "reaction_us": {"Ann": -5000, "Bob": 300000}}
    data["duels"] = [duel]
    _refused(_json(data), "reaction_us.Ann")
    duel |= {"outcome": "early_press", "winner": "Ann", "loser": "Bob",
             "reaction_us": {"Ann": 250000, "Bob": -5000}}
    import_game(_json(data))  # Bob pressed before "go": his time is negative


def _csv_rows() -> list[dict[str, str]]:
    with CompanionApp.open(":memory:", lang="en") as app:
        app.new_game("classic", "lazy", ["Ann", "Bob", "Cid"])
        app.record_round("Ann", hands={"Ann": "-", "Bob": "r5 b+2", "Cid": "wild"})
        app.record_round("Bob", hands={"Ann": "g9", "Bob": "-", "Cid": "y1 y2"})
        text = app.export("csv")
    return list(csv.DictReader(io.StringIO(text)))


def _csv(rows: list[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def test_csv_rows_must_agree() -> None:
    rows = _csv_rows()
    import_game(_csv(rows), "csv")  # as exported: taken
    for column, value in (("edition", "showdown"), ("target", "200")):
        changed = copy.deepcopy(rows)
        changed[-1][column] = value
        _refused(_csv(changed), column, f"line {len(rows) + 1}", fmt="csv")
    changed = copy.deepcopy(rows)
    scored = next(i for i, r in enumerate(changed) if r["round"] == "1" and r["hand"]
                  and r["winner"] == "0")
    changed[scored]["hand_value"] = str(int(changed[scored]["hand_value"]) + 1)
    _refused(_csv(changed), "hand_value", f"line {scored + 2}", fmt="csv")
