"""`game import` checks every rule a live game checks, and refuses a file whole.

What was tried: late joiners that skipped the name checks and the player limit (`ann` beside
`Ann`, an empty name, sixteen players), team numbers nobody checked (all four in one team, a
team of one, `team: null`), names with separators, NUL, escapes and zero-width characters,
`Å` written two ways, a CSV field over 128 KB, a file that never ends, bytes that are not
UTF-8, and a 20,000-round game whose import took almost a minute (quadratic).
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from companion.app import CompanionApp
from companion.store.transfer import MAX_FILE_BYTES, TransferError, import_game
from tests.abuse.helpers import cli, dump, refused

GAME: dict[str, Any] = {
    "format": "uno-showdown-game", "version": 1, "edition": "classic", "method": "winner",
    "target": 500, "options": [], "created_at": "2026-11-29T12:00:00+00:00",
    "players": [{"name": "Ann", "joined_round": 0, "team": None},
                {"name": "Bob", "joined_round": 0, "team": None},
                {"name": "Cid", "joined_round": 1, "team": None}],
    "rounds": [{"winner": "Ann", "played_at": "x", "hands": {"Ann": "-", "Bob": 10}},
               {"winner": "Cid", "played_at": "y", "hands": {"Ann": 3, "Bob": 4, "Cid": "-"}}],
    "undone": [], "duels": [],
}
TEAMS: dict[str, Any] = {
    **GAME, "method": "teams", "edition": "teams",
    "players": [{"name": n, "joined_round": 0, "team": t}
                for n, t in (("Ann", 0), ("Bob", 1), ("Cid", 0), ("Dan", 1))],
    "rounds": [{"winner": "Ann", "played_at": "x",
                "hands": {"Ann": "-", "Cid": "-", "Bob": 10, "Dan": 5}}],
}


def player(name: str, joined: int = 1, team: int | None = None) -> dict[str, Any]:
    return {"name": name, "joined_round": joined, "team": team}


def with_players(base: dict[str, Any], players: list[dict[str, Any]]) -> dict[str, Any]:
    data = copy.deepcopy(base)
    data["players"] = players
    return data


def teams(*numbers: int | None) -> dict[str, Any]:
    data = copy.deepcopy(TEAMS)
    for p, team in zip(data["players"], numbers, strict=True):
        p["team"] = team
    return data


def with_duel(**fields: Any) -> dict[str, Any]:
    """GAME with one duel between Ann and Bob after round 1, changed by `fields`."""
    data = copy.deepcopy(GAME)
    data["duels"] = [{"after_round": 1, "challenger": "Ann", "opponent": "Bob", "cards": 2,
                      "outcome": "faster", "winner": "Ann", "loser": "Bob",
                      "reaction_us": {"Ann": 200_000, "Bob": 250_000},
                      "recorded_at": "2026-11-29T12:05:00+00:00"} | fields]
    return data


REFUSED = [
    ("a late joiner beside a founder, by case",
     with_players(GAME, [*GAME["players"], player("ann")]), "twice"),
    ("a late joiner with an empty name",
     with_players(GAME, [*GAME["players"], player("")]), "cannot be empty"),
    ("sixteen players, most of them late",
     with_players(GAME, [*GAME["players"], *(player(f"P{i}") for i in range(13))]), "2 to 10"),
    ("Å written two ways",
     with_players(GAME, [*GAME["players"], player("\u00c5sa"), player("A\u030asa")]), "twice"),
    ("a name with the CLI's separators",
     with_players(GAME, [*GAME["players"], player("a:b,c+d")]), "leave out the characters"),
    ("a NUL in a name", with_players(GAME, [*GAME["players"], player("Nu\x00l")]), "U+0000"),
    ("an escape sequence in a name",
     with_players(GAME, [*GAME["players"], player("\x1b[2JX")]), "U+001B"),
    ("a zero-width space in a name",
     with_players(GAME, [*GAME["players"], player("Zo\u200be")]), "U+200B"),
    ("only one founder",
     with_players(GAME, [player("Ann", 0), player("Bob", 1)]), "2 to 10 players, not 1"),
    ("a joiner after a round never played",
     with_players(GAME, [*GAME["players"][:2], player("Cid", 3)]), "joined_round"),
    ("a team in a game without teams",
     with_players(GAME, [player("Ann", 0, 1), *GAME["players"][1:]]), "only the teams method"),
    ("all four in one team", teams(0, 0, 0, 0), "teams of exactly two"),
    ("a team of one", teams(0, 1, 0, 2), "teams of exactly two"),
    ("team null", teams(0, None, 0, 1), "teams of exactly two"),
    ("partners side by side", teams(0, 0, 1, 1), "teams of exactly two"),
    ("a late joiner in teams",
     with_players(TEAMS, [*TEAMS["players"][:3], {**TEAMS["players"][3], "joined_round": 1}]),
     "late joiner"),
    ("a timeout Ann won and lost", with_duel(outcome="timeout", winner="Ann", loser="Ann"),
     "duels[0].winner in the file is 'Ann', but it must be null: nobody wins or loses a duel "
     "that ended in timeout"),
    ("a tie with a loser", with_duel(outcome="tie", winner=None, loser="Bob"),
     "duels[0].loser in the file is 'Bob'"),
    ("a launch failed with a winner", with_duel(outcome="launch_failed", loser=None),
     "nobody wins or loses a duel that ended in launch_failed"),
    ("an aborted duel with a winner", with_duel(outcome="aborted", loser=None), "aborted"),
    ("a faster duel Ann won and lost", with_duel(loser="Ann"),
     "duels[0].loser in the file is 'Ann', but it must be one of Bob"),
    ("a faster duel with no loser", with_duel(loser=None), "duels[0].loser"),
    ("an early press with no winner", with_duel(outcome="early_press", winner=None),
     "duels[0].winner in the file is None, but it must be one of Ann, Bob"),
    ("a winner who did not duel", with_duel(winner="Cid", loser="Bob"), "duels[0].winner"),
    ("contested is not a yes or no", with_duel(contested="maybe"), "duels[0].contested"),
]


@pytest.mark.parametrize(("what", "data", "why"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_file_a_live_game_could_not_have_made_is_refused_whole(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, what: str,
        data: dict[str, Any], why: str) -> None:
    db = tmp_path / "games.db"
    with CompanionApp.open(db, lang="en") as app:
        app.new_game("classic", "winner", ["Zed", "Yan"])
    before = dump(db)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    refused(cli(capsys, "game", "import", "--db", str(db), "--lang", "en", str(path)), why)
    assert dump(db) == before


def test_the_files_a_live_game_writes_import_back_equal(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    """The checks refuse nothing a table can make: a late joiner, a team game, both formats."""
    db = tmp_path / "games.db"
    for data in (GAME, TEAMS):
        text = json.dumps(data)
        game, _duels = import_game(text)
        with CompanionApp.open(db, lang="en") as app:
            app.import_game(text)
            for fmt in ("json", "csv"):
                again, _ = import_game(app.export(fmt), fmt)
                assert again.players == game.players and again.rounds == game.rounds


def test_names_in_a_file_are_stored_composed_and_found_however_written(tmp_path: Path) -> None:
    data = with_players(GAME, [player("A\u030asa", 0), *GAME["players"][1:]])
    data["rounds"][0] = {"winner": "\u00c5SA", "played_at": "x",
                         "hands": {"\u00e5sa": "-", "Bob": 10}}
    data["rounds"][1]["hands"] = {"A\u030asa": 3, "Bob": 4, "Cid": "-"}
    game, _ = import_game(json.dumps(data))
    assert game.names == ["\u00c5sa", "Bob", "Cid"]
    assert [r.winner for r in game.rounds] == ["\u00c5sa", "Cid"]


def csv_text(rows: list[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def test_hostile_csv_is_one_sentence(tmp_path: Path) -> None:
    with CompanionApp.open(tmp_path / "games.db", lang="en") as app:
        app.new_game("classic", "winner", ["Ann", "Bob"])
        app.record_round("Ann", points={"Bob": 5})
        rows = list(csv.DictReader(io.StringIO(app.export("csv"))))
    huge = [dict(r) for r in rows]
    huge[0]["player"] = "x" * 200_000  # past csv's 128 KB field limit
    nul = csv_text(rows).replace("Bob", "B\x00b")
    joiner = [*rows, {**rows[0], "seat": "2", "player": "ann", "joined_round": "1"}]
    for text, why in ((csv_text(huge), "not a game exported"), (nul, "U+0000"),
                      (csv_text(joiner), "twice")):
        with pytest.raises(TransferError, match=re.escape(why)) as refusal:
            import_game(text, "csv")
        assert "\n" not in str(refusal.value)


def test_a_file_that_never_ends_or_is_not_text_is_refused_on_reading(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    refused(cli(capsys, "game", "import", "--db", str(db), "/dev/zero"), "is not a file")
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as stream:  # sparse: costs no disk
        stream.truncate(MAX_FILE_BYTES + 1)
    refused(cli(capsys, "game", "import", "--db", str(db), str(huge)),
            f"larger than {MAX_FILE_BYTES // 2**20} MiB")
    binary = tmp_path / "photo.json"
    binary.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)))
    refused(cli(capsys, "game", "import", "--db", str(db), str(binary)), "not UTF-8")
    deep = tmp_path / "deep.json"
    deep.write_text("{" + '"a":[' * 100_000, encoding="utf-8")
    refused(cli(capsys, "game", "import", "--db", str(db), str(deep)), "not a game exported")


def lazy_game(rounds: int) -> str:
    names = ["Ann", "Bob", "Cid", "Dan"]
    played = [{"winner": names[n % 4], "played_at": "x",
               "hands": {p: ("-" if p == names[n % 4] else f"r{i + 1} b{(n + i) % 9 + 1}")
                         for i, p in enumerate(names)}}
              for n in range(rounds)]
    return json.dumps({**GAME, "method": "lazy", "target": None,
                       "players": [player(n, 0) for n in names], "rounds": played})


def test_import_is_linear_in_the_rounds() -> None:
    """Four times the rounds take about four times as long, not sixteen (benchmarks/
    import_game.py has the full table: 20,000 rounds in about 2 s, not 85)."""

    def best_of_three(text: str) -> float:
        # CPU time, not wall time: other work on a busy machine cannot stretch it
        times = []
        for _ in range(3):
            started = time.process_time()
            import_game(text)
            times.append(time.process_time() - started)
        return min(times)

    small, large = best_of_three(lazy_game(1000)), best_of_three(lazy_game(4000))
    assert large / small < 8, (small, large)  # linear is about 4; quadratic was over 15


def test_a_contested_duel_keeps_its_mark_through_export_and_import(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(with_duel(contested=True)), encoding="utf-8")
    db = tmp_path / "games.db"
    status, _out, _err = cli(capsys, "game", "import", "--db", str(db), str(path))
    assert status == 0
    with CompanionApp.open(db, lang="en") as app:
        [duel] = app.duels()
        assert duel.contested and (duel.winner, duel.loser) == ("Ann", "Bob")
        exported = json.loads(app.export("json"))
    assert exported["duels"][0]["contested"] is True
    again = tmp_path / "again.db"
    path.write_text(json.dumps(exported), encoding="utf-8")
    assert cli(capsys, "game", "import", "--db", str(again), str(path))[0] == 0
    with CompanionApp.open(again, lang="en") as app:
        assert [d.contested for d in app.duels()] == [True]
