"""Lateness cannot be bent: a table offline when time is called, whose round slots were undone,
redone or edited, still has only the deal in progress counted after the time, judged on the
director's clock; and a table whose clock is off is measured and corrected.

Each test is the finding as a tournament director tried it: rounds at a table, its agent
killed, `event end`, rounds entered there, the agent started again."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from championship.broker.embedded import EmbeddedBroker
from championship.desk.operations import Championship
from championship.store.table_file import TableFile
from companion.app import CompanionApp
from companion.store.games import Store
from companion.store.wallclock import wall_clock_us
from tests.championship.tables.conftest import Cluster, eventually

S = 1_000_000


def _games_at_table_1(cluster: Cluster) -> set[int]:
    with cluster.tables_seating() as seating:
        at_one = seating[1]
    games = {ln.number: ln.games for ln in cluster.director_lines()}
    return {games[n] for n in at_one}


def _offline_then_time_called(cluster: Cluster, before: int,
                              offline: Callable[[int], None]) -> None:
    """Table 1 plays `before` deals in time and is heard; its agent is killed; `offline(now)`
    runs at the table while the director calls time at `now`; the agent comes back."""
    cluster.start_director()
    cluster.start_table(1)
    cluster.seated(1)
    now = wall_clock_us()
    for i in range(before):  # the rounds' times are kept to the second: deals 2 s apart
        cluster.deal(1, at_us=now - (before - i) * 2 * S)
    eventually(lambda: _games_at_table_1(cluster) == {before}, 30, "the table heard")
    cluster.stop_table(1)
    with Championship.open(cluster.director_db, cluster.event_id, clock=lambda: now) as champ:
        champ.end()
    offline(now)
    cluster.start_table(1)
    with Store(cluster.tables[1].db) as store:
        file = TableFile(store, cluster.event_id, 1)
        eventually(lambda: file.pending() == 0, 30, "the table's outbox emptied")


def _app(cluster: Cluster, at_us: int) -> CompanionApp:
    return cluster.tables[1].app("flight-1", at_us)


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_an_undone_slot_does_not_make_a_deal_after_time_count(cluster: Cluster) -> None:
    def offline(now: int) -> None:
        with _app(cluster, now - S) as app:
            assert app.undo()  # round 2 taken back before time was called
        cluster.deal(1, at_us=now + 2 * S)  # the deal in progress: round 2's slot again
        cluster.deal(1, at_us=now + 4 * S)  # one more: it must not count

    _offline_then_time_called(cluster, 2, offline)
    eventually(lambda: _games_at_table_1(cluster) == {2}, 30,
               "round 1 and the deal in progress count, the next one does not")

    def told() -> bool:  # by the acknowledgement, which may follow the standings a little
        with Store(cluster.tables[1].db) as store:
            return any("after the time was up" in r
                       for r in TableFile(store, cluster.event_id, 1).refused())

    eventually(told, 30, "the table told the deal did not count")


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_a_redone_round_keeps_its_own_time(cluster: Cluster) -> None:
    def offline(now: int) -> None:
        with _app(cluster, now - S) as app:
            assert app.undo()
        with _app(cluster, now + S) as app:
            assert app.redo()  # played in time: it counts as in time
        cluster.deal(1, at_us=now + 2 * S)  # the deal in progress
        cluster.deal(1, at_us=now + 4 * S)  # refused

    _offline_then_time_called(cluster, 2, offline)
    eventually(lambda: _games_at_table_1(cluster) == {3}, 30,
               "both rounds in time and the deal in progress count")


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_an_edited_round_after_time_stays_after_time(cluster: Cluster) -> None:
    def offline(now: int) -> None:
        cluster.deal(1, at_us=now + 2 * S)  # the deal in progress (round 2)
        cluster.deal(1, at_us=now + 4 * S)  # round 3: refused
        with _app(cluster, now + 6 * S) as app:
            game = app.game
            assert game is not None
            names = list(game.names)
            for number in (2, 3):  # corrections keep when each was played
                app.edit_round(number, names[0], points={n: 7 for n in names[1:]})

    _offline_then_time_called(cluster, 1, offline)
    eventually(lambda: _games_at_table_1(cluster) == {2}, 30,
               "round 1 and the deal in progress count, corrected or not")
    assert not any(ln.points == 7 * 3 for ln in cluster.director_lines())


def ten_minutes_behind(out: str, pattern: str) -> bool:
    """Whether `out` says, in `pattern`'s words, that a clock is ten minutes behind (within
    half a second)."""
    found = re.search(pattern, out)
    assert found, f"{pattern!r} not in {out!r}"
    return abs(float(found.group(1)) + 600) < 0.5


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_a_table_ten_minutes_behind_counts_down_and_is_judged_on_the_directors_clock(
        cluster: Cluster, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A Pi without a real-time clock and without internet: its wall clock is ten minutes
    behind. Its screen counts down to the director's deadline all the same, its deals are
    judged on the director's time, and both sides say its clock is off."""
    from companion.store import wallclock
    from tests.championship.conftest import run

    behind = 600 * S
    director = cluster.start_director()  # on the real clock (it took it when it opened)
    real = wallclock.now
    monkeypatch.setattr(wallclock, "now", lambda: real() - behind)  # the table's machine
    cluster.start_table(1)
    cluster.seated(1)
    with Championship.open(cluster.director_db, cluster.event_id, clock=real) as champ:
        ends = champ.snapshot().stage_tables("flight-1")[0].box.ends_at_us
    assert ends is not None

    def local_ends() -> int | None:
        with Store(cluster.tables[1].db) as store:
            file = TableFile(store, cluster.event_id, 1)
            return store.boxes.load(file.stages()["flight-1"][0]).box.ends_at_us

    eventually(lambda: abs((local_ends() or 0) - (ends - behind)) < S // 2, 30,
               "the table's box moved onto its own clock")
    eventually(lambda: 1 in director.heard and director.heard[1].offset_us < -behind + S, 20)
    status, out, _err = run(capsys, "table", "status", "--db", cluster.tables[1].db)
    assert status == 0
    # The offset is measured over the broker, so a busy machine may read it a tenth off.
    assert ten_minutes_behind(out, r"This computer's clock: (-\d+\.\d) s against the "
                              r"director's \(off:")
    assert "Table 1: game 1, playing, 59:" in out or "Table 1: game 1, playing, 1:00:" in out
    _status, out, _err = run(capsys, "event", "show", "--db", cluster.director_db)
    assert ten_minutes_behind(out, r"Table 1: playing, clock (-\d+\.\d) s "
                              r"\(off: check its clock\)")
    cluster.deal(1)  # stamped on the table's clock, ten minutes "earlier"
    eventually(lambda: _games_at_table_1(cluster) == {1}, 30, "the deal counts in time")


def test_the_tables_screen_says_when_the_director_does_not_hear_it(
        amqtt_cluster: Cluster) -> None:
    """The companion's banner at a championship table: the clock, and once its agent lost
    the broker (here: the broker is gone), since when and how many messages wait."""
    import pygame

    from championship.store.table_file import link_state
    from companion.screen.screen import CompanionScreen

    c = amqtt_cluster
    table = c.tables[1]

    def linked(store: Store) -> bool | None:
        state = link_state(store)
        return None if state is None else state.linked

    with Store(table.db) as store:
        eventually(lambda: linked(store) is True, 20, "the agent noted the broker")
        assert isinstance(c.broker, EmbeddedBroker)
        c.broker.close()
        eventually(lambda: linked(store) is False, 30, "the agent noted it is gone")
    c.deal(1)  # recorded all the same, waiting to be sent
    pygame.font.init()
    with table.app() as app:
        screen = CompanionScreen(app, (800, 480), link_state=lambda: link_state(app.store))

        def said() -> bool:
            screen.update(screen._now_ms + 1000)
            banner = screen.banner()
            return banner is not None and "no link to the director since" in banner[1] and (
                "· 1 to send" in banner[1] or "· 2 to send" in banner[1])

        eventually(said, 20, "the banner says the table is not heard")
