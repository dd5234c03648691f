"""Headless duels are credited only to the players the table named with `uno-showdown duel`.

The headless table (`uno_showdown.headless.table`) is driven turn by turn on a fake unit's virtual
clock, so every duel is reproducible; then the whole path is run for real: the service on
its own thread, its Unix socket, and the `duel` command in the same process.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import pytest

from companion.app import CompanionApp
from hardware.fake import FakeUnit
from showdown.contract.events import (
    Outcome,
    PaddlePressed,
    ReactionsTimed,
    ServiceEvent,
    Side,
    TimerPressed,
    UnitInput,
    VerdictGiven,
)
from showdown.duel.engine import DuelConfig
from showdown.service.loop import ShowdownService
from uno_showdown.commands.cli import main
from uno_showdown.commands.run import run_headless
from uno_showdown.headless import duel_socket
from uno_showdown.headless.table import HeadlessTable

COUNTDOWN_US = 1_000_000


class Table:
    """A headless table on a fake unit, with a game of Ann, Bob and Cid in its games file."""

    def __init__(self, tmp_path: Path, *, game: bool = True, cards: int = 1,
                 follows_newest: bool = False, max_cards: int | None = 3,
                 most_cards: int = 3) -> None:
        self.unit = FakeUnit()
        self.unit.max_cards = max_cards
        config = DuelConfig(countdown_min_us=COUNTDOWN_US, countdown_max_us=COUNTDOWN_US)
        self.service = ShowdownService(self.unit, config)
        self.db = tmp_path / "games.db"
        self.app = CompanionApp.open(self.db, lang="en")
        if game:
            self.app.new_game("showdown", "winner", ["Ann", "Bob", "Cid"])
        self.app.follows_newest_game = follows_newest  # as `run` sets it
        self.service.add_listener(self.app.on_service_event)
        self.heard: list[ServiceEvent] = []
        self.feed = self.service.subscribe("the test's table")
        self.said: list[str] = []
        self.headless = HeadlessTable(self.service, cards, self.app, say=self.said.append,
                                      most_cards=most_cards)
        self.service.add_listener(self.headless.tell)
        self.headless.start()
        self.step(0)

    def step(self, wait_s: float = 0.0) -> None:
        """One turn of the loop, then the table's own control, as `run_headless` does."""
        self.service.step(wait_s)
        for event in self.feed.drain():
            self.headless.control(event)
            self.heard.append(event)

    def settle(self) -> None:
        """Let the listeners (the printed lines, the recorder) catch up with the table."""
        assert not self.service.flush_listeners(5.0) and self.app.flush_duels(5.0)

    def ask(self, **duel: object) -> dict[str, str]:
        reply = self.headless.request({"duel": duel})
        self.step(0)
        return reply

    def play(self, faster: Side = Side.LEFT) -> VerdictGiven:
        """Start the loaded duel with the timer button; `faster` presses first after go."""
        start = self.unit.now_us() + 1_000
        go = start + COUNTDOWN_US
        self.unit.deliver(TimerPressed(start))
        self.unit.deliver(PaddlePressed(faster, go + 200_000))
        self.unit.deliver(PaddlePressed(faster.other, go + 260_000))
        return self.until_timed()

    def until_timed(self) -> VerdictGiven:
        count = sum(isinstance(e, ReactionsTimed) for e in self.heard)
        for _ in range(10_000):
            self.step(0.05)
            if sum(isinstance(e, ReactionsTimed) for e in self.heard) > count:
                break
        self.step(0)  # the next duel, loaded at ReactionsTimed
        self.settle()
        return [e for e in self.heard if isinstance(e, VerdictGiven)][-1]

    def close(self) -> None:
        self.service.close()
        self.app.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.close()


def test_nobody_named_the_duel_is_for_the_seats_and_nobody_is_credited(table: Table) -> None:
    verdict = table.play(Side.RIGHT)
    assert verdict.players == {} and verdict.result.winner is Side.RIGHT
    assert table.app.duels() == []  # Ann and Bob, the first two players, get nothing
    assert "duel 1: right was faster; left takes 1" in table.said


def test_named_players_are_credited_for_the_next_duel_only(table: Table) -> None:
    reply = table.ask(players=["ann", "CID"], cards=2)
    assert reply == {"ok": "next duel: Ann (left paddle) and Cid (right paddle), 2 cards: "
                           "press the timer button to start it"}
    verdict = table.play(Side.RIGHT)
    assert dict(verdict.players) == {Side.LEFT: "Ann", Side.RIGHT: "Cid"}
    [row] = table.app.duels()
    assert (row.challenger, row.opponent, row.winner, row.loser, row.cards) == (
        "Ann", "Cid", "Cid", "Ann", 2)
    assert row.reaction_us == {"Cid": 200_000, "Ann": 260_000}
    # Numbered as played: the duel the naming replaced before it started is no duel.
    assert "duel 1: Cid was faster; Ann takes 2" in table.said
    # the pairing was used up: the next duel is the seats' again, with the default cards
    assert table.headless.status().startswith(
        "next duel: the seats (left and right paddle, nobody credited), 1 card; "
        "game 1: Ann, Bob, Cid")
    table.play()
    assert len(table.app.duels()) == 1
    assert "duel 2: left was faster; right takes 1" in table.said


def test_naming_players_during_a_duel_waits_for_the_next_one(table: Table) -> None:
    table.unit.deliver(TimerPressed(table.unit.now_us() + 1_000))
    table.step(0.01)
    assert table.service.phase.running
    reply = table.ask(players=["Bob", "Ann"])
    assert reply["ok"].endswith("after the duel under way")
    assert table.service.phase.running  # the running duel was not cut short
    go = [c.at_us for c in table.unit.calls if c.name == "show_go"]
    table.unit.deliver(PaddlePressed(Side.LEFT, table.unit.now_us() + COUNTDOWN_US))
    table.unit.deliver(PaddlePressed(Side.RIGHT, table.unit.now_us() + COUNTDOWN_US + 50_000))
    first = table.until_timed()
    assert first.result.outcome is Outcome.FASTER and first.players == {}
    assert go == []  # (no go had shown when the players were named)
    second = table.play()
    assert dict(second.players) == {Side.LEFT: "Bob", Side.RIGHT: "Ann"}
    assert [(d.winner, d.loser) for d in table.app.duels()] == [("Bob", "Ann")]


def test_an_aborted_duel_is_played_again_by_the_same_players(table: Table) -> None:
    table.ask(players=["Ann", "Bob"])
    table.service.abort("the board was unplugged")
    table.step(0)
    table.step(0)
    assert table.headless.next_duel.pairing.named
    verdict = table.play()
    assert dict(verdict.players) == {Side.LEFT: "Ann", Side.RIGHT: "Bob"}


def test_cards_alone_keep_the_players_and_seats_forget_them(table: Table) -> None:
    table.ask(players=["Ann", "Bob"])
    assert table.ask(cards=3)["ok"].startswith(
        "next duel: Ann (left paddle) and Bob (right paddle), 3 cards")
    assert table.ask(seats=True)["ok"].startswith("next duel: the seats")
    assert table.headless.next_duel.cards == 1


def test_new_cards_for_a_showdown_card_keep_its_rule(tmp_path: Path) -> None:
    """`duel --played-by Bob --cards 2`, then `duel --cards N`: still Bob's showdown card,
    so still 1 to 3 cards, even where the table agreed on more for duels named by hand (a
    GPIO unit has no limit of its own to catch 20)."""
    table = Table(tmp_path, max_cards=None, most_cards=20)
    try:
        _showdown_card_keeps_its_rule(table)
    finally:
        table.close()


def _showdown_card_keeps_its_rule(table: Table) -> None:
    table.ask(played_by="Bob", cards=2)
    assert table.ask(cards=3)["ok"].startswith(
        "next duel: Bob (left paddle) and Cid (right paddle), 3 cards (Bob's showdown card")
    before = table.headless.next_duel
    assert table.ask(cards=20) == {"error": "a showdown puts 1 to 3 cards in the unit, not 20: "
                                            "use the number the card shows"}
    assert table.headless.next_duel == before
    table.ask(players=["Ann", "Bob"])
    assert table.ask(cards=20)["ok"].startswith("next duel: Ann (left paddle) and Bob (right "
                                                "paddle), 20 cards: ")


def test_a_duel_named_by_hand_loads_one_to_three_cards_unless_the_table_agrees(
        table: Table) -> None:
    """`duel Ann Dan --cards 7`: the Showdown sheet says 1 to 3, so it is refused in one
    sentence and the next duel stays as it was; `run --most-duel-cards 7` allows it."""
    table.unit.max_cards = None
    before = table.headless.next_duel
    reply = table.ask(players=["Ann", "Cid"], cards=7)
    assert reply == {"error": "a duel loads 1 to 3 cards, not 7 (the Showdown sheet says 1 to "
                              "3): name fewer, or start the table with --most-duel-cards N if "
                              "it agrees on more"}
    assert table.headless.next_duel == before
    assert table.ask(seats=True, cards=4) == {"error": reply["error"].replace("7", "4")}


def test_run_refuses_more_default_cards_than_a_duel_may_load() -> None:
    assert main(["run", "--device", "emulator", "--cards", "5"]) == 2


def test_a_showdown_card_without_cards_takes_at_most_three(tmp_path: Path) -> None:
    """A service started with `run --cards 4`: `duel --played-by Ann` gave no number, so it
    takes the service's cards up to a showdown's most, 3."""
    table = Table(tmp_path, cards=4, max_cards=None, most_cards=4)
    try:
        assert table.ask(played_by="Ann")["ok"].startswith(
            "next duel: Ann (left paddle) and Bob (right paddle), 3 cards (Ann's showdown card")
    finally:
        table.close()


@pytest.mark.parametrize(("duel", "error"), [
    ({"players": ["Ann", "Zed"]}, "there is no player 'Zed' at this table: the players are "
                                  "Ann, Bob, Cid"),
    ({"players": ["Bob", "bob"]}, "Bob cannot duel themselves: name two different players"),
    ({"played_by": "Zed"}, "there is no player 'Zed' at this table"),
    ({"played_by": "Ann", "cards": 4}, "a showdown puts 1 to 3 cards in the unit, not 4"),
    ({"played_by": "Ann", "players": ["Bob", "Cid"]}, "a showdown card names the one player"),
    ({"players": ["Ann"]}, "name two players (the left paddle's first), or nobody"),
    ({"players": ["Ann", "Bob"], "cards": 4}, "the fake unit launches at most 3 cards at "
                                              "once: name fewer"),
    ({"cards": 0}, "a duel needs at least one card, not 0"),
])
def test_what_cannot_be_a_duel_is_one_sentence_and_changes_nothing(
        table: Table, duel: dict[str, object], error: str) -> None:
    before = table.headless.next_duel
    reply = table.ask(**duel)
    assert set(reply) == {"error"} and error in reply["error"]
    assert table.headless.next_duel == before


def test_a_showdown_card_faces_the_next_player_in_the_games_direction(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    """`duel --played-by`: the rules' opponent, in the direction the games file keeps, which
    a Reverse from a terminal (or the screen's Table view) turns."""
    reply = table.ask(played_by="bob", cards=2)
    assert reply["ok"].startswith("next duel: Bob (left paddle) and Cid (right paddle), 2 cards "
                                  "(Bob's showdown card, play going clockwise (to the left))")
    assert main(["game", "direction", "--db", str(table.db), "reverse"]) == 0
    capsys.readouterr()
    reply = table.ask(played_by="Bob")  # the service's default cards, the stored direction
    assert reply["ok"].startswith("next duel: Bob (left paddle) and Ann (right paddle), 1 card "
                                  "(Bob's showdown card, play going counter-clockwise")
    assert table.headless.status().endswith("play goes counter-clockwise (to the right)")
    verdict = table.play(Side.RIGHT)
    assert dict(verdict.players) == {Side.LEFT: "Bob", Side.RIGHT: "Ann"}
    [row] = table.app.duels()
    assert (row.challenger, row.opponent, row.winner, row.cards) == ("Bob", "Ann", "Ann", 1)
    # the same rule the Table view proposes by, through the same app
    assert table.app.proposed_duel() == table.app.propose_showdown("Bob", 1)


def test_a_name_is_found_by_the_one_name_rule(tmp_path: Path) -> None:
    """Any case, runs of spaces, and either way of writing an accent find the seated player
    (companion.table.names.name_key), by hand and for a showdown card alike."""
    table = Table(tmp_path, game=False)
    try:
        table.app.new_game("showdown", "winner", ["Åsa Berg", "Bob", "Cid"])
        decomposed = "A\u030asa  BERG"  # A + combining ring, two spaces, upper case
        assert table.ask(players=[decomposed, "bob"])["ok"].startswith(
            "next duel: Åsa Berg (left paddle) and Bob (right paddle)")
        assert table.ask(played_by="cid", cards=1)["ok"].startswith(
            "next duel: Cid (left paddle) and Åsa Berg (right paddle)")
    finally:
        table.close()


def test_without_a_game_only_the_seats_can_duel(tmp_path: Path) -> None:
    table = Table(tmp_path, game=False)
    try:
        for duel in ({"players": ["Ann", "Bob"]}, {"played_by": "Ann", "cards": 1}):
            reply = table.ask(**duel)
            assert reply == {"error": "there is no game to name players from: start one with "
                                      "`uno-showdown game new`, or name nobody to duel for "
                                      "the seats"}
        assert "no game yet" in table.headless.status()
    finally:
        table.close()


def test_a_game_started_while_the_service_runs_is_picked_up(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    table = Table(tmp_path, game=False)
    try:
        # from a terminal, on the same games file
        assert main(["game", "new", "--db", str(table.db), "--edition", "classic", "--method",
                     "winner", "--players", "Dee,Eve"]) == 0
        capsys.readouterr()
        assert table.ask(players=["Eve", "Dee"])["ok"].startswith("next duel: Eve (left")
        table.play(Side.LEFT)
        assert main(["game", "show", "--db", str(table.db)]) == 0
        assert table.app.game is not None and table.app.game.names == ["Dee", "Eve"]
        [row] = table.app.duels()
        assert (row.winner, row.loser) == ("Eve", "Dee")
    finally:
        table.close()


def _new_game_from_a_terminal(db: Path, players: str) -> None:
    assert main(["game", "new", "--db", str(db), "--edition", "classic", "--method",
                 "winner", "--players", players]) == 0


def test_a_waiting_pairing_is_dropped_when_the_table_moves_to_a_new_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ann and Bob named in game 1; game 2 (Ann, Bob, Dee) started before they play: the
    duel is for the seats, and credited in neither game."""
    table = Table(tmp_path, follows_newest=True)
    try:
        table.ask(players=["Ann", "Bob"], cards=2)
        _new_game_from_a_terminal(table.db, "Ann,Bob,Dee")
        assert "game 2: Ann, Bob, Dee" in table.headless.status()
        assert table.headless.next_duel.pairing.named is False
        assert ("the table keeps score in game 2 now: the next duel is for the seats, not Ann "
                "against Bob of game 1; name its players again with `uno-showdown duel`"
                ) in table.said
        verdict = table.play()
        assert verdict.players == {} and verdict.cards == 2
        assert table.app.duels() == []
        assert table.app.store.duels.of_game(1) == []
    finally:
        table.close()


def test_a_named_duel_under_way_is_credited_in_its_own_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Game 2 started while Ann and Bob of game 1 play: the table moves on after the verdict."""
    table = Table(tmp_path, follows_newest=True)
    try:
        table.ask(players=["Ann", "Bob"])
        table.unit.deliver(TimerPressed(table.unit.now_us() + 1_000))
        table.step(0.01)
        assert table.service.phase.running
        _new_game_from_a_terminal(table.db, "Ann,Bob,Dee")
        assert "game 1: Ann, Bob, Cid" in table.headless.status()  # not while it is played
        assert table.ask(players=["Dee", "Ann"]) == {
            "error": "there is no player 'Dee' at this table: the players are Ann, Bob, Cid"}
        table.unit.deliver(PaddlePressed(Side.LEFT, table.unit.now_us() + COUNTDOWN_US))
        table.unit.deliver(PaddlePressed(Side.RIGHT, table.unit.now_us() + COUNTDOWN_US + 50_000))
        verdict = table.until_timed()
        assert dict(verdict.players) == {Side.LEFT: "Ann", Side.RIGHT: "Bob"}
        assert [(d.winner, d.loser) for d in table.app.store.duels.of_game(1)] == [("Ann", "Bob")]
        assert table.app.store.duels.of_game(2) == []
        assert "game 2: Ann, Bob, Dee" in table.headless.status()  # and now it moves on
        assert table.ask(players=["Dee", "Ann"])["ok"].startswith("next duel: Dee (left")
    finally:
        table.close()


# -- the whole path: a service on its thread, its socket, the command ----------------------


class PacedUnit(FakeUnit):
    """A fake unit whose idle reads take real time, so a service thread does not spin."""

    def read_inputs(self, timeout_s: float) -> list[UnitInput]:
        if not self._queue:
            self.inputs.wait(min(timeout_s, 0.05))
        return super().read_inputs(timeout_s)


class Greeted:
    """Standard output while a service runs: passes everything on (to capsys) and sets
    `greeted` when the service prints its greeting, which it does once it listens and has
    loaded a duel."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.greeted = threading.Event()

    def write(self, text: str) -> int:
        written = self.out.write(text)
        if "running the fake unit" in text:
            self.greeted.set()
        return written

    def flush(self) -> None:
        self.out.flush()


@pytest.fixture
def served(tmp_path: Path, capsys: pytest.CaptureFixture[str],
           monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, CompanionApp, FakeUnit]]:
    unit = PacedUnit()
    service = ShowdownService(unit, DuelConfig())
    app = CompanionApp.open(tmp_path / "games.db", lang="en")
    app.new_game("showdown", "winner", ["Ann", "Bob", "Cid"])
    service.add_listener(app.on_service_event)
    path = tmp_path / "duel.sock"
    worker = threading.Thread(target=run_headless, args=(service, 1, app),
                              kwargs={"listen": True, "socket_path": path}, daemon=True)
    out = Greeted(sys.stdout)
    monkeypatch.setattr(sys, "stdout", out)
    worker.start()
    try:
        assert out.greeted.wait(10.0), "the service never greeted"
        assert path.exists() and "running the fake unit" in capsys.readouterr().out
        yield path, app, unit
    finally:
        service.stop()
        worker.join(timeout=5)
        service.close()
        app.close()
    assert not path.exists()  # the socket goes with the service


def test_the_duel_command_talks_to_the_running_service(served: tuple[Path, CompanionApp,
                                                                       FakeUnit],
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    path, _app, _unit = served
    assert main(["duel", "Ann", "Bob", "--cards", "2", "--socket", str(path)]) == 0
    assert capsys.readouterr().out == ("next duel: Ann (left paddle) and Bob (right paddle), "
                                       "2 cards: press the timer button to start it\n")
    assert main(["duel", "--socket", str(path)]) == 0
    assert capsys.readouterr().out.startswith(
        "next duel: Ann (left paddle) and Bob (right paddle), 2 cards; game 1: Ann, Bob, Cid")
    assert main(["duel", "Ann", "Zed", "--socket", str(path)]) == 2
    assert capsys.readouterr().err == ("uno-showdown duel: there is no player 'Zed' at this "
                                       "table: the players are Ann, Bob, Cid\n")
    assert main(["duel", "--played-by", "cid", "--cards", "3", "--socket", str(path)]) == 0
    assert capsys.readouterr().out == (
        "next duel: Cid (left paddle) and Ann (right paddle), 3 cards (Cid's showdown card, "
        "play going clockwise (to the left)): press the timer button to start it\n")


def test_the_socket_opens_only_to_the_services_user_and_group(
        served: tuple[Path, CompanionApp, FakeUnit]) -> None:
    path, _app, _unit = served
    info = path.stat()
    assert stat.S_ISSOCK(info.st_mode)
    assert stat.S_IMODE(info.st_mode) == 0o660  # nobody else may connect
    assert (info.st_uid, info.st_gid) == (os.geteuid(), os.getegid())


def test_another_user_cannot_connect_a_member_of_the_group_can() -> None:
    if os.geteuid() != 0:
        pytest.skip("trying the socket as another user needs root (CI runs as root)")
    # a folder everyone may enter, so only the socket's own mode decides
    folder = Path(tempfile.mkdtemp(prefix="uno-showdown-socket-test-", dir="/tmp"))
    folder.chmod(0o755)
    server = duel_socket.DuelSocketServer(folder / "duel.sock", lambda r: {"ok": "hello"})
    server.start()
    connect = ("import socket, sys\ns = socket.socket(socket.AF_UNIX)\n"
               "try:\n    s.connect(sys.argv[1])\nexcept PermissionError:\n    print('refused')\n"
               "else:\n    print('connected')\n")

    def try_as(group: int) -> str:
        """Connect as user nobody in `group`, with an interpreter that user may run."""
        for python in ("/usr/bin/python3", sys.executable):
            try:
                done = subprocess.run([python, "-c", connect, str(server.path)], user=65534,
                                      group=group, extra_groups=[], capture_output=True,
                                      text=True, timeout=30)
            except PermissionError:
                continue
            if done.returncode == 0:
                return done.stdout.strip()
        pytest.skip("no Python here that user nobody may run, to try the socket as them")

    try:
        assert try_as(65534) == "refused"  # neither the service's user nor in its group
        assert try_as(os.getegid()) == "connected"  # in the service's group
    finally:
        server.close()
        folder.rmdir()


def test_a_second_service_on_the_same_socket_is_refused(
        served: tuple[Path, CompanionApp, FakeUnit]) -> None:
    path, _app, _unit = served
    with pytest.raises(duel_socket.SocketError, match="another service already listens"):
        duel_socket.DuelSocketServer(path, lambda request: {"ok": ""}).start()


def test_a_silent_client_does_not_hold_up_the_next(tmp_path: Path) -> None:
    """A member of the group who connects and sends nothing delays nobody else: the next
    request is answered well inside the server's wait for the silent one."""
    import socket

    path = tmp_path / "duel.sock"
    with duel_socket.DuelSocketServer(path, lambda request: {"ok": "heard"}).start(), \
            socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as silent:
        silent.connect(str(path))
        assert duel_socket.ask(path, {"status": {}}, timeout_s=duel_socket.TIMEOUT_S / 3) == {
            "ok": "heard"}


def test_no_service_running_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    # the machine's places (/run/uno-showdown, /tmp) in a folder of the test's own, where
    # no table of the user's can be (tests/test_hermetic.py starts one everywhere else)
    monkeypatch.setenv(duel_socket.ROOT_VARIABLE, str(tmp_path / "root"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.delenv("RUNTIME_DIRECTORY", raising=False)
    assert main(["duel", "Ann", "Bob"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        "uno-showdown duel: no headless service is running here (nothing listens at "
        f"{tmp_path / 'root' / 'run' / 'uno-showdown' / 'duel.sock'} or "
        f"{tmp_path / 'runtime' / 'uno-showdown' / 'duel.sock'} or "
        f"{tmp_path / 'root' / 'tmp' / f'uno-showdown-{os.getuid()}' / 'duel.sock'}): ")
    # the service of each kind of table by its own name
    assert ("`sudo systemctl start uno-showdown` for a GPIO table, `uno-showdown-serial` for "
            "a Pico table") in err
    stale = tmp_path / "stale.sock"
    import socket

    with socket.socket(socket.AF_UNIX) as dead:
        dead.bind(str(stale))  # a socket file whose service has gone
    assert main(["duel", "--socket", str(stale)]) == 2
    assert capsys.readouterr().err == (
        f"uno-showdown duel: no service answers at {stale} (it has stopped): start the "
        "service, or check --socket\n")


@pytest.mark.parametrize(("where", "said"), [
    ("missing/duel.sock", "nothing exists at {path}"),
    ("a-file", "{path} is not a socket"),
    (".", "{path} is not a socket"),
])
def test_a_wrong_socket_path_is_not_called_a_stopped_service(
        tmp_path: Path, where: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a-file").write_text("not a socket\n")
    path = tmp_path / where
    assert main(["duel", "--socket", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == (f"uno-showdown duel: {said.format(path=path)}: start the service, or "
                   "check --socket\n")
    assert "it has stopped" not in err


@pytest.mark.parametrize(("argv", "error"), [
    (["Ann"], "name two players, the left paddle's first"),
    (["Ann", "Bob", "Cid"], "name two players, the left paddle's first"),
    (["Ann", "Bob", "--seats"], "give names or --seats, not both"),
    (["--cards", "0"], "--cards must be at least 1"),
    (["Ann", "Bob", "--played-by", "Cid"], "give --played-by alone, or two names"),
    (["--played-by", "Ann", "--seats"], "give --played-by alone, or two names"),
    (["--played-by", " "], "--played-by needs the name of the player"),
])
def test_the_command_refuses_what_means_nothing_before_asking(
        argv: list[str], error: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", *argv, "--socket", "/nonexistent/duel.sock"]) == 2
    assert error in capsys.readouterr().err


def test_a_user_outside_the_group_is_told_to_join_it(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    class ClosedFolder(type(Path())):  # type: ignore[misc]
        """/run/uno-showdown/duel.sock as seen from outside the group: its folder is closed."""

        def stat(self, *args: object, **kwargs: object) -> os.stat_result:
            raise PermissionError(13, "Permission denied", str(self))

    closed = ClosedFolder("/run/uno-showdown/duel.sock")
    monkeypatch.setattr(duel_socket, "client_socket_paths", lambda: [closed])
    assert main(["duel", "Ann", "Bob"]) == 2
    assert capsys.readouterr().err == (
        "uno-showdown duel: you may not talk to the service at /run/uno-showdown/duel.sock: "
        "join its group (sudo usermod -aG showdown $USER) and log in again\n")
