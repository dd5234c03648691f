"""The standings kept deal by deal in the games file equal the standings worked out from
every deal, after any sequence of what happens at a championship: deals at the tables,
corrections, undos and redos, deals reported from other machines (and their corrections and
take-backs, and those held for the director), the director's voids and restores, the release
of a file's held deals once the table announced it, withdrawals, the next flight, the final.
And at every step, what a reader keeps from one reading to the next (the ranking moved by the
sums that changed, the tables' statuses) equals what a reader that keeps nothing works out;
`event standings --json`, which walks the order the file keeps, prints the same lines.

A few dozen sequences in every run; HYPOTHESIS_PROFILE=deep plays a thousand."""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from championship.core.clock import FINAL
from championship.core.presence import HELD_SOURCE
from championship.core.settings import make
from championship.core.snapshot import Snapshot, game_deals
from championship.core.standings import (
    FINAL as FINAL_KIND,
)
from championship.core.standings import (
    QUALIFYING,
    Deal,
    Entrant,
    ranked,
    standings,
)
from championship.desk.operations import Championship, deal_list
from companion.app import CompanionApp
from companion.store.games import Store
from showdown.contract.errors import CompanionError
from tests.championship.conftest import SimClock, run
from uno_showdown.commands.cli import main
from uno_showdown.commands.event import line_json

# one name that JSON escapes, and one it keeps as it is
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo \"J\\\\ J\" Ø", "Kim"]
DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"

table_no = st.integers(1, 2)
op = st.one_of(
    st.tuples(st.just("deal"), table_no, st.integers(0, 6), st.integers(0, 60)),
    st.tuples(st.just("edit"), table_no, st.integers(1, 4), st.integers(0, 60)),
    st.tuples(st.just("undo"), table_no),
    st.tuples(st.just("redo"), table_no),
    # a deal reported from a table's own machine: its next revision (a correction, or a
    # take-back without points), or its last one again (a message that came twice)
    st.tuples(st.just("remote"), table_no, st.integers(1, 3),
              st.one_of(st.none(), st.integers(0, 60)), st.booleans()),
    # the same, held for the director (a plausibility check failed): it does not count
    st.tuples(st.just("held"), table_no, st.integers(1, 3), st.integers(0, 60)),
    # the director's word: void a deal that counts, restore a void or held one (by position)
    st.tuples(st.just("void"), table_no, st.integers(0, 20)),
    st.tuples(st.just("restore"), table_no, st.integers(0, 20)),
    # the table announced its file: its deals held for that reason count
    st.tuples(st.just("announce"), table_no),
    st.tuples(st.just("withdraw"), st.integers(1, len(NAMES))),
    st.tuples(st.just("next")),
    st.tuples(st.just("tick"), st.integers(1, 50)),
)


def recounted(champ: Championship) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """The qualifying and final lines worked out the old way: every deal of every game at
    every table, and every reported deal (a held one has no points), fed to `standings`;
    without the deals whose last word in the director's audit is a void."""
    reading = champ.read()
    data = reading.data
    deals: list[Deal] = []
    with champ.events.reading() as conn:
        last = {a.deal_id: a.action for a in champ.events.audit(conn, data.event.id)}
        for t in data.tables:
            kind = FINAL_KIND if t.stage == FINAL else QUALIFYING
            for gid in champ.store.boxes.load(t.box_id).game_ids:
                deals += game_deals(champ.store.games.load(gid), data, kind)
        for reported in champ.events.remote_deals(conn, data.event.id).values():
            deals += reported
    deals = [d for d in deals if last.get(d.deal_id) != "void"]
    entrants = [Entrant(p.number, p.name, p.lot, p.withdrawn) for p in data.players]
    tie_break = data.event.settings.tie_break
    final_seats = {n for t in data.tables if t.stage == FINAL for n in t.seats}
    qualifying = standings(entrants, deals, QUALIFYING, tie_break)
    final = standings([e for e in entrants if e.number in final_seats], deals, FINAL_KIND,
                      tie_break) if final_seats else []
    return [_key(x) for x in qualifying], [_key(x) for x in final]


def _key(line: object) -> tuple[object, ...]:
    return (line.rank, line.number, line.points, line.games, line.result,  # type: ignore[attr-defined]
            line.withdrawn)  # type: ignore[attr-defined]


class Play:
    """One championship in a scratch file, driven by the operations drawn."""

    def __init__(self, db: str, clock: SimClock,
                 tie_break: tuple[str, ...] = ("points", "games", "lot")) -> None:
        self.db, self.clock = db, clock
        self.champ = Championship.open(db, clock=clock, lang="en")
        self.champ.new_event("Cup", make(tables=2, table_size=3, flight_minutes=60,
                                         finalists=3, tie_break=tie_break))
        self.champ.register(NAMES)
        self.champ.draw(seed=5)
        self.champ.start()
        self.revisions: dict[str, int] = {}

    def stage_table(self, table: int) -> tuple[str, int, int] | None:
        snap = self.champ.snapshot()
        stage = snap.clock.stage
        found = [t for t in snap.tables if t.stage == stage and t.table == table]
        if not found:
            return None
        t = found[0]
        return t.stage, t.game_id, len(t.players)

    def apply(self, step: tuple[object, ...]) -> None:
        # refused (a closed box, a game over, a player gone): nothing was written
        with contextlib.suppress(CompanionError):
            getattr(self, f"_{step[0]}")(*step[1:])

    def _app_do(self, table: int, what: str, *args: object) -> None:
        found = self.stage_table(table)
        if found is None:
            return
        with CompanionApp.open(self.db, found[1], clock=self.clock) as app:
            game = app.game
            assert game is not None
            names = game.names
            if what == "deal":
                winner, base = names[int(args[0]) % len(names)], int(args[1])  # type: ignore[call-overload]
                app.record_round(winner, points={n: base + i for i, n in enumerate(names)
                                                 if n != winner})
            elif what == "edit":
                number, base = int(args[0]), int(args[1])  # type: ignore[call-overload]
                if number <= len(game.rounds):
                    winner = names[base % len(names)]
                    app.edit_round(number, winner, points={n: base for n in names
                                                           if n != winner})
            elif what == "undo":
                app.undo()
            else:
                app.redo()

    def _deal(self, table: int, winner: int, base: int) -> None:
        self._app_do(table, "deal", winner, base)

    def _edit(self, table: int, number: int, base: int) -> None:
        self._app_do(table, "edit", number, base)

    def _undo(self, table: int) -> None:
        self._app_do(table, "undo")

    def _redo(self, table: int) -> None:
        self._app_do(table, "redo")

    def _remote(self, table: int, deal: int, base: int | None, again: bool,
                held: str | None = None) -> None:
        snap = self.champ.snapshot()
        stage = snap.clock.stage
        t = next((t for t in snap.tables if t.stage == stage and t.table == table), None)
        if t is None or not t.players:
            return
        points = None if base is None else {n: base + i for i, n in enumerate(t.players)}
        deal_id = f"t{table}/{t.stage}/file/{deal}"
        revision = self.revisions.get(deal_id, 0) + (not again)
        self.revisions[deal_id] = revision
        with self.champ.store.transaction() as conn:
            self.champ.events.put_remote_deal(conn, snap.event.id, t.stage, table, deal_id,
                                              revision, points, held=held)

    def _held(self, table: int, deal: int, base: int) -> None:
        self._remote(table, deal, base, False, HELD_SOURCE)

    def _word(self, table: int, pick: int, states: tuple[str, ...], action: str) -> None:
        items = [d for d in deal_list(self.champ.deal_book(table), table) if d.state in states]
        if not items:
            return
        item = items[pick % len(items)]
        if action == "void":
            self.champ.void_deal(table, item.deal_id, "a miscount", "director")
        else:
            self.champ.restore_deal(table, item.deal_id, "counted after all", "director")

    def _void(self, table: int, pick: int) -> None:
        self._word(table, pick, ("counts", "held"), "void")

    def _restore(self, table: int, pick: int) -> None:
        self._word(table, pick, ("void", "held"), "restore")

    def _announce(self, table: int) -> None:
        with self.champ.store.transaction() as conn:
            self.champ.events.release_source(conn, self.champ.event_id or 0, table, "file",
                                             HELD_SOURCE)

    def _withdraw(self, number: int) -> None:
        self.champ.withdraw(number)

    def _tick(self, minutes: int) -> None:
        self.clock.advance(minutes)

    def _next(self) -> None:
        snap = self.champ.snapshot()
        stage = snap.clock.stage
        if stage is None or snap.over:
            return
        if snap.clock.status.value != "time_up":
            self.champ.end()
        for t in self.champ.snapshot().stage_tables(stage):
            if not t.done:
                self.champ.done(t.table)
        if stage != FINAL and self.champ.snapshot().qualifying_done:
            self.champ.seat_final()
        self.champ.start()


def afresh(champ: Championship) -> Snapshot:
    """The snapshot of a reader that keeps nothing (a new `Championship` on the same file):
    every player ranked from the sums the file keeps, every table's status built."""
    return Championship(champ.store, champ.event_id, clock=champ.clock).snapshot()


def entries_missing(db: str) -> int:
    with Store(db) as store:
        return int(store.conn.execute("SELECT COUNT(*) FROM championship_sums WHERE entry IS "
                                      "NULL").fetchone()[0])


def printed_json(db: str) -> str:
    """What `uno-showdown event standings --json` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["event", "standings", "--db", db, "--json"]) == 0
    return out.getvalue()


@settings(max_examples=1000 if DEEP else 50, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(steps=st.lists(op, min_size=4, max_size=40),
       tie_break=st.permutations(["points", "games", "lot"]))
def test_kept_standings_equal_a_count_of_every_deal(steps: list[tuple[object, ...]],
                                                    tie_break: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        play = Play(str(Path(tmp) / "cup.db"), SimClock(), tuple(tie_break))
        try:
            for step in steps:
                play.apply(step)
                kept, fresh = play.champ.snapshot(), afresh(play.champ)
                assert (kept.qualifying, kept.final, kept.awards, kept.tables) == (
                    fresh.qualifying, fresh.final, fresh.awards, fresh.tables)
            snap = play.champ.snapshot()
            assert play.champ.check_sums()[0]
            assert play.champ.ordered_standings() is not None  # read from the kept order
            assert entries_missing(play.db) == 0  # ... and the kept entries
            assert ([_key(x) for x in snap.qualifying], [_key(x) for x in snap.final]
                    ) == recounted(play.champ)
            assert printed_json(play.db) == json.dumps(
                [line_json(ln) for ln in snap.qualifying], ensure_ascii=False, indent=2) + "\n"
        finally:
            play.champ.close()


def test_a_kept_reading_sees_what_another_program_changed(tmp_path: Path,
                                                          clock: SimClock) -> None:
    """A reader that keeps the standings and the tables (the director's) and another program
    on the same file (a table's screen, a terminal): after each of the other's changes (a
    deal, a correction, a withdrawal, a new game at a table, the clock), the reader's next
    snapshot is what a reader that keeps nothing sees."""
    db = str(tmp_path / "cup.db")
    play = Play(db, clock)
    keeper = Championship.open(db, clock=clock, lang="en")
    try:
        keeper.snapshot()
        for step in [("deal", 1, 0, 5), ("deal", 2, 1, 40), ("edit", 1, 1, 12),
                     ("withdraw", 4), ("deal", 1, 2, 60), ("deal", 1, 0, 60),
                     ("deal", 1, 1, 60), ("undo", 2), ("tick", 70), ("next",),
                     ("deal", 1, 0, 9)]:
            play.apply(step)
            kept, fresh = keeper.snapshot(), afresh(play.champ)
            assert (kept.qualifying, kept.final, kept.awards, kept.tables, kept.clock) == (
                fresh.qualifying, fresh.final, fresh.awards, fresh.tables, fresh.clock)
        assert sum(t.deals for t in keeper.snapshot().tables) == 6
    finally:
        keeper.close()
        play.champ.close()


def test_check_says_in_one_line_and_puts_kept_sums_right(
        tmp_path: Path, clock: SimClock, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cup.db")
    play = Play(db, clock)
    for step in [("deal", 1, 0, 5), ("deal", 2, 1, 7), ("remote", 1, 1, 3, False)]:
        play.apply(step)
    play.champ.close()
    status, out, _err = run(capsys, "event", "standings", "--db", db, "--check")
    assert (status, out) == (0, "The standings kept deal by deal equal a count of all 3 "
                                "deals.\n")
    with Store(db) as store:  # a program that does not keep the sums changed the file
        store.conn.execute("UPDATE championship_sums SET points = points + 1")
    status, out, _err = run(capsys, "event", "standings", "--db", db, "--check")
    assert status == 1 and out.count("\n") == 1 and "summed again" in out
    status, out, _err = run(capsys, "event", "standings", "--db", db, "--check")
    assert status == 0
    _status, right, _err = run(capsys, "event", "standings", "--db", db, "--json")
    with Store(db) as store:  # ... or the order kept with them: every result made the same
        store.conn.execute("UPDATE championship_sums SET result = 1.0")
    _status, astray, _err = run(capsys, "event", "standings", "--db", db, "--json")
    assert astray != right  # printed in the order the file keeps, until it is put right
    status, out, _err = run(capsys, "event", "standings", "--db", db, "--check")
    assert status == 1 and "summed again" in out
    _status, again, _err = run(capsys, "event", "standings", "--db", db, "--json")
    assert again == right
    for astray_by in ("entry = replace(entry, '\"points\": ', '\"points\": 1')",
                      "lot = 99", "withdrawn = 1"):  # ... or what is kept beside them
        with Store(db) as store:
            store.conn.execute(f"UPDATE championship_sums SET {astray_by}")
        status, out, _err = run(capsys, "event", "standings", "--db", db, "--check")
        assert status == 1 and "summed again" in out, astray_by
        _status, again, _err = run(capsys, "event", "standings", "--db", db, "--json")
        assert again == right, astray_by


def test_a_table_on_a_file_laid_out_by_another_version_lets_go_of_the_sums(
        tmp_path: Path, clock: SimClock) -> None:
    """A table's screen records deals without bringing the championship's tables up to
    date: on a file another version laid out it writes no sums in a shape that version
    does not know, and the next reading of the event sums it again from its deals."""
    db = str(tmp_path / "cup.db")
    play = Play(db, clock)
    play.apply(("deal", 1, 0, 5))
    with Store(db) as store:  # as if another uno-showdown had laid out the file
        store.conn.execute("UPDATE schema_parts SET version = version + 1 WHERE part = "
                           "'championship'")
    play.apply(("deal", 1, 1, 7))
    with Store(db) as store:
        assert store.conn.execute("SELECT sums_version FROM championship_events").fetchone() \
            == (None,)
        store.conn.execute("UPDATE schema_parts SET version = version - 1 WHERE part = "
                           "'championship'")
    snap = play.champ.snapshot()
    assert sum(t.deals for t in snap.tables) == 2
    assert play.champ.check_sums() == (True, 2)
    assert printed_json(db) == json.dumps([line_json(ln) for ln in snap.qualifying],
                                          ensure_ascii=False, indent=2) + "\n"
    play.champ.close()


def test_an_event_written_before_the_sums_is_summed_once(tmp_path: Path,
                                                          clock: SimClock) -> None:
    db = str(tmp_path / "cup.db")
    play = Play(db, clock)
    play.apply(("deal", 1, 0, 5))
    before = [_key(x) for x in play.champ.snapshot().qualifying]
    play.champ.close()
    with Store(db) as store:  # as an older uno-showdown left it: no sums kept
        store.conn.execute("UPDATE championship_events SET sums_version = NULL")
        store.conn.execute("DELETE FROM championship_sums")
    with Championship.open(db, clock=clock) as champ:
        assert [_key(x) for x in champ.snapshot().qualifying] == before
        assert champ.check_sums() == (True, 1)


def test_a_program_that_does_not_keep_the_entries_cannot_make_them_lie(
        tmp_path: Path, clock: SimClock) -> None:
    """An uno-showdown that knows nothing of the kept entries, lots and withdrawals (one from
    before them, or a hand edit) changes the sums or the players: what `event standings
    --json` prints follows the sums and the players, never a line kept from before."""
    db = str(tmp_path / "cup.db")
    play = Play(db, clock)
    for step in [("deal", 1, 0, 5), ("deal", 2, 1, 7), ("deal", 1, 2, 9)]:
        play.apply(step)
    with Store(db) as store:
        # as an older uno-showdown's deal moves them: points, games and result, no entry
        store.conn.execute("UPDATE championship_sums SET points = points + 100, games = games "
                           "+ 1, result = CAST(points + 100 AS REAL) / (games + 1) WHERE "
                           "number = (SELECT MIN(number) FROM championship_sums WHERE games "
                           "> 0)")
        store.conn.execute("UPDATE championship_players SET withdrawn_at = 'then' WHERE "
                           "number = (SELECT MAX(number) FROM championship_sums WHERE "
                           "games > 0)")
        store.conn.execute("UPDATE championship_players SET lot = 100 - lot")
        # as an older uno-showdown sums the event again: no sums for who has not played
        store.conn.execute("DELETE FROM championship_sums WHERE games = 0")
        rows = store.conn.execute(
            "SELECT p.number, p.name, COALESCE(s.points, 0), COALESCE(s.games, 0), "
            "p.withdrawn_at IS NOT NULL, p.lot FROM championship_players p LEFT JOIN "
            "championship_sums s ON s.number = p.number AND s.kind = 'qualifying'").fetchall()
    entrants = [Entrant(n, name, lot, bool(out)) for n, name, _p, _g, out, lot in rows]
    expected = [line_json(ln) for ln in ranked(
        entrants, {n: (p, g) for n, _name, p, g, _o, _l in rows},
        play.champ.read().data.event.settings.tie_break)]
    assert json.loads(printed_json(db)) == expected
    play.champ.close()


def test_a_file_from_before_the_entries_prints_the_same_and_keeps_them(
        tmp_path: Path, clock: SimClock) -> None:
    """A file whose sums an uno-showdown before step 7 kept (no entries, no copied lots and
    withdrawals, no sums for players who have not played) is brought up to date when the
    event is next opened, without counting its deals again: the same standings, every
    entry written, and `--check` content."""
    db = str(tmp_path / "cup.db")
    play = Play(db, clock)
    for step in [("deal", 1, 0, 5), ("deal", 2, 1, 7), ("withdraw", 2), ("deal", 1, 2, 9)]:
        play.apply(step)
    before = printed_json(db)
    play.champ.close()
    with Store(db) as store:  # the championship's tables as step 6 left them
        conn = store.conn
        for trigger in ("championship_sums_inserted", "championship_players_standing",
                        "championship_sums_moved"):
            conn.execute(f"DROP TRIGGER {trigger}")
        conn.execute("DROP INDEX championship_sums_in_order")
        conn.execute("DELETE FROM championship_sums WHERE points = 0 AND games = 0")
        for column in ("entry", "lot", "withdrawn"):
            conn.execute(f"ALTER TABLE championship_sums DROP COLUMN {column}")
        conn.execute("CREATE INDEX championship_sums_by_result ON championship_sums "
                     "(event_id, kind, result, points, games)")
        conn.execute("UPDATE schema_parts SET version = 6 WHERE part = 'championship'")
        version = conn.execute("SELECT sums_version FROM championship_events").fetchone()
    with Championship.open(db, clock=clock) as champ:
        assert champ.ordered_standings() is not None
    assert printed_json(db) == before
    with Store(db) as store:
        assert store.conn.execute("SELECT sums_version FROM championship_events").fetchone() \
            == version  # not counted again
    assert entries_missing(db) == 0
    with Championship.open(db, clock=clock) as champ:
        assert champ.check_sums()[0]
