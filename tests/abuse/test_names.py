"""Names and seats: one check for every way a name comes in (the CLI, the screen, an import).

What a hostile tester tried, each refused or made the one stored spelling: `ann` beside `Ann`,
an empty name, `a:b,c+d`, NUL, an ANSI escape that repaints the terminal, control and
zero-width characters, a direction override, `Å` written two ways, a name of a megabyte, and
seats 0, -5 and 999 (refused, never moved to the nearest seat that exists).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app import CompanionApp
from companion.scoring import Rules
from companion.table.game import Game, GameError, check_name
from companion.table.names import MAX_NAME_LENGTH, name_key
from showdown.contract.errors import CompanionError
from tests.abuse.helpers import cli, dump, refused

A_RING_COMPOSED = "\u00c5sa"  # Åsa, Å as one code point
A_RING_DECOMPOSED = "A\u030asa"  # Åsa, A and a combining ring

HOSTILE = [
    ("", "cannot be empty"),
    ("   ", "cannot be empty"),
    ("a:b", "leave out the characters"),
    ("Ann,Bob", "leave out the characters"),
    ("Ann+Cid", "leave out the characters"),
    ("Nu\x00l", "U+0000"),
    ("\x1b[31mRed", "U+001B"),
    ("Tab\there", "U+0009"),
    ("Zero\u200bwidth", "U+200B"),
    ("Join\u200dme", "U+200D"),
    ("evil\u202egnp.exe", "U+202E"),
    ("Line\u2028break", "U+2028"),
    ("Private\ue000", "U+E000"),
    ("x" * (MAX_NAME_LENGTH + 1), f"longer than {MAX_NAME_LENGTH}"),
    ("y" * 1_000_000, f"longer than {MAX_NAME_LENGTH}"),
]


@pytest.mark.parametrize(("name", "why"), HOSTILE)
def test_a_hostile_name_is_refused_with_a_sentence(name: str, why: str) -> None:
    with pytest.raises(GameError, match=why.replace("+", r"\+")) as refusal:
        check_name(name)
    assert "\n" not in str(refusal.value)


def test_a_name_is_stored_composed_trimmed_and_with_single_spaces() -> None:
    assert check_name(A_RING_DECOMPOSED) == A_RING_COMPOSED
    assert check_name("  Mary   Ann \n") == "Mary Ann"
    assert check_name("Ануш") == "Ануш" and check_name("Անի") == "Անի"
    assert check_name("x" * MAX_NAME_LENGTH) == "x" * MAX_NAME_LENGTH


def test_case_and_composition_do_not_make_two_players() -> None:
    rules = Rules.make("winner")
    for pair in (["Ann", "ann"], ["STRASSE", "straße"], [A_RING_COMPOSED, A_RING_DECOMPOSED]):
        with pytest.raises(GameError, match="twice"):
            Game.new("classic", rules, pair)
    game = Game.new("classic", rules, [A_RING_COMPOSED, "Bob"])
    assert game.player(A_RING_DECOMPOSED.lower()).name == A_RING_COMPOSED
    with pytest.raises(GameError, match="already playing"):
        game.add_player(A_RING_DECOMPOSED)
    with pytest.raises(GameError, match="already playing"):
        game.rename("Bob", "åSA")


@settings(max_examples=200)
@given(st.text(max_size=60))
def test_any_text_is_refused_or_becomes_a_clean_name_that_stays_itself(text: str) -> None:
    try:
        clean = check_name(text)
    except CompanionError as exc:
        assert "\n" not in str(exc)
        return
    assert check_name(clean) == clean  # stored names pass again, unchanged
    assert clean == unicodedata.normalize("NFC", clean) == " ".join(clean.split())
    assert 1 <= len(clean) <= MAX_NAME_LENGTH
    assert not set(clean) & set(":,+")
    assert all(unicodedata.category(ch)[0] != "C" for ch in clean)
    assert name_key(clean) == name_key(clean.upper().lower()) or clean.upper() != clean


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "games.db"
    with CompanionApp.open(path, lang="en") as app:
        app.new_game("classic", "winner", ["Ann", "Bob"])
    return path


@pytest.mark.parametrize(("name", "why"), [(n, w) for n, w in HOSTILE if len(n) < 1000])
def test_the_cli_refuses_hostile_names_everywhere_and_writes_nothing(
        capsys: pytest.CaptureFixture[str], db: Path, name: str, why: str) -> None:
    before = dump(db)
    calls = [["game", "join", name], ["game", "rename", "Bob", name]]
    if "," not in name:  # a comma separates the players of --players: that is its job
        calls.append(["game", "new", "--edition", "classic", "--method", "winner",
                      "--players", f"Cid,{name}"])
    for argv in calls:
        result = cli(capsys, *argv[:2], "--db", str(db), "--lang", "en", *argv[2:])
        refused(result)
    assert dump(db) == before


def test_the_cli_finds_a_player_however_the_name_is_composed(
        capsys: pytest.CaptureFixture[str], db: Path) -> None:
    assert cli(capsys, "game", "join", "--db", str(db), A_RING_DECOMPOSED)[0] == 0
    refused(cli(capsys, "game", "join", "--db", str(db), A_RING_COMPOSED.upper()),
            "already playing")
    status, out, _ = cli(capsys, "game", "round", "--db", str(db), "--winner", "ann",
                         "--points", f"{A_RING_COMPOSED.lower()}: 5", "--points", "BOB: 7")
    assert status == 0 and f"Hands: Bob 7, {A_RING_COMPOSED} 5." in out


@pytest.mark.parametrize(("seat", "shown"), [("0", "seat 0"), ("-5", "seat -5"),
                                             ("999", "seat 999"), ("4", "seat 4")])
def test_a_seat_that_does_not_exist_is_refused_not_clamped(
        capsys: pytest.CaptureFixture[str], db: Path, seat: str, shown: str) -> None:
    before = dump(db)
    refused(cli(capsys, "game", "join", "--db", str(db), "Cid", "--seat", seat),
            shown, "from 1 to 3")
    assert dump(db) == before
    status, out, _ = cli(capsys, "game", "join", "--db", str(db), "Cid", "--seat", "3")
    assert status == 0 and "seating: Ann, Bob, Cid." in out


def test_the_screen_keyboard_uses_the_same_check(db: Path) -> None:
    from tests.companion.screen.conftest import Driver

    with CompanionApp.open(db, lang="en") as app:
        driver = Driver(app)
        view = driver.screen.views["new_game"]
        driver.screen.go("new_game")
        view.start_edit(0)
        view._type("Zoe\u200b:1")  # what a pasted name could hold
        view._finish_edit()
        assert view.names[0] != "Zoe\u200b:1" and "U+200B" in view.error
        view.start_edit(0)
        view._type("z" * 500)
        assert len(view.draft) == MAX_NAME_LENGTH
        view._finish_edit()
        assert view.names[0] == "z" * MAX_NAME_LENGTH
        view.start_edit(1)
        view._type(A_RING_DECOMPOSED)
        view._finish_edit()
        assert view.names[1] == A_RING_COMPOSED
