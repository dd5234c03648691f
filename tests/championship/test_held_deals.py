"""No deal held for the director outlives its stage: the final is not seated while a deal of
qualifying is held (each named with the commands that decide it, which run as printed), a
held deal of the final keeps the awards provisional, and once a stage is closed nothing
offers the director's word on its deals."""

from __future__ import annotations

import re
import shlex

import pytest

from championship.core.page_state import page_state
from championship.core.presence import HELD_NOBODY_OUT
from championship.desk.operations import Championship, deal_list
from tests.championship.conftest import SimClock, run
from tests.championship.test_cli import make_state

SOURCE = "ab" * 8


def hold(db: str, stage: str, table: int, deal: str, points: dict[int, int]) -> None:
    """A deal reported by a table's agent and held for the director (nobody went out), as
    the director's sync keeps it."""
    with Championship.open(db) as champ, champ.store.transaction() as conn:
        assert champ.event_id is not None
        champ.events.put_remote_deal(conn, champ.event_id, stage, table,
                                     f"t{table}/{stage}/{SOURCE}/{deal}", 1, points,
                                     held=HELD_NOBODY_OUT)


def commands_in(text: str) -> list[list[str]]:
    """Every command a message names between backticks, as a shell would split it."""
    return [shlex.split(c) for c in re.findall(r"`(uno-showdown [^`]*)`", text)]


def test_the_final_is_not_seated_while_a_qualifying_deal_is_held(
        db: str, clock: SimClock, capsys: pytest.CaptureFixture[str]) -> None:
    make_state(db, clock, "qualified")
    hold(db, "flight-1", 1, "g1:9", {1: 40, 2: 30})
    hold(db, "flight-2", 1, "g2:7", {3: 10, 4: 20})

    status, out, err = run(capsys, "event", "final", "--db", db)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert "2 deals of qualifying are held for the director" in err
    for deal in ("g1:9", "g2:7"):
        assert f"deal {deal} (nobody went out)" in err
        for verb in ("restore", "void"):
            assert (f"`uno-showdown event {verb} --table 1 --deal {deal} --why \"…\" --db "
                    f"{db}`") in err
    assert "--force" not in err
    with Championship.open(db) as champ:
        assert not champ.snapshot().final_seated

    # Each command runs as printed: one counts a deal, the other leaves one out.
    restore, void = commands_in(err)[:2], commands_in(err)[2:]
    assert run(capsys, *restore[0][1:])[0] == 0
    assert run(capsys, *void[1][1:])[0] == 0
    status, out, err = run(capsys, "event", "final", "--db", db)
    assert status == 0 and out.startswith("The final is seated"), err
    status, out, _err = run(capsys, "event", "show", "--db", db)
    assert status == 0 and "Held" not in out


def test_a_held_deal_of_the_final_keeps_the_awards_provisional(
        db: str, clock: SimClock, capsys: pytest.CaptureFixture[str]) -> None:
    make_state(db, clock, "over")
    with Championship.open(db) as champ:
        finalists = champ.snapshot().stage_tables("final")[0].players
    hold(db, "final", 1, "g9:2", {finalists[0]: 50})

    status, out, _err = run(capsys, "event", "results", "--db", db)
    assert status == 0
    said = out.splitlines()[0]
    assert said.startswith("Provisional: 1 deal of the final is held for the director, and "
                           "the awards wait for it: table 1, deal g9:2 (nobody went out)")
    assert run(capsys, "event", "results", "--db", db, "--json")[1].count(
        '"complete": false') == 1
    with Championship.open(db) as champ:
        assert page_state(snap := champ.snapshot(), snap.now_us)["awards"]["final_over"] is False

    void = commands_in(said)[1]
    assert void[:3] == ["uno-showdown", "event", "void"]
    assert run(capsys, *void[1:])[0] == 0
    status, out, _err = run(capsys, "event", "results", "--db", db)
    assert status == 0 and not out.startswith("Provisional")
    assert '"complete": true' in run(capsys, "event", "results", "--db", db, "--json")[1]


def test_once_qualifying_is_closed_nothing_offers_its_deals(
        db: str, clock: SimClock, capsys: pytest.CaptureFixture[str]) -> None:
    """A deal of qualifying still held in a file an older version seated the final over: it
    is said as not counted, and neither a command nor a screen offers to decide it."""
    make_state(db, clock, "final_seated")
    hold(db, "flight-1", 1, "g1:9", {1: 40, 2: 30})

    status, out, _err = run(capsys, "event", "show", "--db", db)
    assert status == 0
    assert ("Held and not counted: table 1, deal g1:9: nobody went out (the qualifying "
            "results are closed).") in out
    assert "event restore" not in out and "event void" not in out
    with Championship.open(db) as champ:
        snap = champ.snapshot()
        assert page_state(snap, snap.now_us)["held"] == 0
        items = deal_list(champ.deal_book())
    assert items and all(d.closed for d in items if d.stage != "final")


def test_the_deals_tab_offers_no_word_on_a_closed_stage(db: str, clock: SimClock) -> None:
    import pygame

    from tests.championship.test_screen import Driver

    make_state(db, clock, "over")
    with Championship.open(db, clock=clock) as champ:
        driver = Driver(champ)
        driver.key(pygame.K_F6)
        assert driver.screen.current.name == "deals"
        keys = [b.key for b in driver.screen.buttons() if b.key.startswith("deal:")]
        items = {d.deal_id: d for d in deal_list(champ.deal_book())}
        closed = [k for k in keys if items[k.removeprefix("deal:")].closed]
        open_ = [k for k in keys if not items[k.removeprefix("deal:")].closed]
        assert closed and open_  # a deal of qualifying and one of the final
        driver.tap(closed[0])
        assert not {"why", "decide"} & {b.key for b in driver.screen.buttons()}
        driver.tap(closed[0])
        driver.tap(open_[0])
        assert driver.button("decide").label == "Void it"


def test_a_held_deal_restored_counts_now_and_deals_name_their_players(
        db: str, clock: SimClock, capsys: pytest.CaptureFixture[str]) -> None:
    make_state(db, clock, "time_up")
    hold(db, "flight-1", 1, "g1:9", {1: 0, 2: 30})
    status, out, _err = run(capsys, "event", "deals", "--db", db, "--table", "1")
    assert status == 0
    with Championship.open(db) as champ:
        snap = champ.snapshot()
        ann, bob = snap.name_of(1), snap.name_of(2)
    assert f"g1:9  held (nobody went out)  1 {ann}: 0, 2 {bob}: 30" in out, out
    status, out, _err = run(capsys, "event", "restore", "--db", db, "--table", "1",
                            "--deal", "g1:9", "--why", "checked")
    assert (status, out) == (0, "Deal g1:9 of table 1 (Flight 1) counts now.\n")
    run(capsys, "event", "void", "--db", db, "--table", "1", "--deal", "g1:9", "--why", "no")
    status, out, _err = run(capsys, "event", "restore", "--db", db, "--table", "1",
                            "--deal", "g1:9", "--why", "yes after all")
    assert (status, out) == (0, "Deal g1:9 of table 1 (Flight 1) counts again.\n")
