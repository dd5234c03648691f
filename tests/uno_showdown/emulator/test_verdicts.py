"""After the verdict the unit shows it, not "GO!": pixels of every outcome, and its end."""

from __future__ import annotations

import pygame
import pytest

from hardware.emulated import Verdict
from showdown.contract.events import Outcome, Side
from tests.uno_showdown.emulator.conftest import Table
from tests.uno_showdown.emulator.test_duels import (
    arrow_colour,
    centroid,
    light_colours,
    load_and_start,
)
from uno_showdown.window import unit_view as view

PADDLE_KEYS = {Side.LEFT: pygame.K_a, Side.RIGHT: pygame.K_l}


def digit_pixels(table: Table, colour: tuple[int, int, int], half: Side | None = None) -> int:
    """How many pixels of the digits' box are exactly `colour` (in one half, if given)."""
    layout = table.window.unit_layout
    assert layout is not None
    box = layout.digits
    if half is Side.LEFT:
        box = pygame.Rect(box.x, box.y, box.w // 2, box.h)
    elif half is Side.RIGHT:
        box = pygame.Rect(box.centerx, box.y, box.w - box.w // 2, box.h)
    return sum(
        1 for x in range(box.x, box.right, 2) for y in range(box.y, box.bottom, 2)
        if table.pixel((x, y)) == colour
    )


def paddle_face(table: Table, side: Side) -> tuple[int, int, int]:
    """The paddle's colour near its outer end (cards land in its middle)."""
    layout = table.window.unit_layout
    assert layout is not None
    rect = layout.paddles[side]
    x = rect.x + rect.w // 10 if side is Side.LEFT else rect.right - rect.w // 10
    return table.pixel((x, rect.centery))


def play_to_go(table: Table) -> None:
    go_at = load_and_start(table)
    table.run_for(go_at - table.clock.now)


@pytest.mark.parametrize("winner", [Side.LEFT, Side.RIGHT])
def test_the_winner_lights_up_and_go_goes_out(table: Table, winner: Side) -> None:
    play_to_go(table)
    assert digit_pixels(table, view.LIGHT_GO) > 0  # "GO!" in green
    table.clock.now += 200_000
    table.key(PADDLE_KEYS[winner])
    table.turn()
    table.run_for(60_000)
    (verdict,) = table.verdicts()
    assert verdict.result.winner is winner
    assert view.digits_text(table.unit.state, table.clock.now) == "WIN"

    assert light_colours(table) == [view.LIGHT_OFF] * view.LIGHTS  # no more green lights
    assert paddle_face(table, winner) == view.PADDLE_WIN
    assert paddle_face(table, winner.other) == view.PADDLE
    layout = table.window.unit_layout
    assert layout is not None
    ring = layout.paddles[winner]
    assert table.pixel((ring.centerx, ring.y - 2)) == view.WIN_GLOW  # the ring around it
    assert table.pixel(centroid(view.win_pointer(layout, winner))) == view.WIN_GLOW
    # "WIN" sits toward the winner: most of its green is in the winner's half.
    assert digit_pixels(table, view.WIN_GLOW, winner) > 2 * digit_pixels(
        table, view.WIN_GLOW, winner.other)
    assert arrow_colour(table, Side.LEFT) == arrow_colour(table, Side.RIGHT) == view.ARROW_OFF

    table.run_for(2_000_000)  # the cards land on the loser; the winner stays lit
    assert paddle_face(table, winner) == view.PADDLE_WIN


def test_an_early_press_shows_early_in_red(table: Table) -> None:
    load_and_start(table)
    table.run_for(1_000_000)
    table.key(pygame.K_l)
    table.turn()
    table.run_for(100_000)
    (verdict,) = table.verdicts()
    assert verdict.result.outcome is Outcome.EARLY_PRESS
    assert view.digits_text(table.unit.state, table.clock.now) == "EARLY"
    assert digit_pixels(table, view.LIGHT_FROZEN) > 0
    assert digit_pixels(table, view.LIGHT_GO) == 0
    assert arrow_colour(table, Side.RIGHT) == view.ARROW_ON
    assert arrow_colour(table, Side.LEFT) == view.ARROW_OFF
    assert view.LIGHT_FROZEN in light_colours(table)  # where the countdown stopped
    assert paddle_face(table, Side.LEFT) == view.PADDLE  # nobody "wins" a paddle light


def test_a_tie_shows_tie_until_the_rematch_starts(table: Table) -> None:
    play_to_go(table)
    table.clock.now += 200_000
    table.key(pygame.K_a)
    table.key(pygame.K_l)
    table.turn()
    table.run_for(100_000)
    (verdict,) = table.verdicts()
    assert verdict.result.outcome is Outcome.TIE
    assert view.digits_text(table.unit.state, table.clock.now) == "TIE"
    assert digit_pixels(table, view.LIGHT_COUNTING) > 0
    assert digit_pixels(table, view.LIGHT_GO) == 0
    assert light_colours(table) == [view.LIGHT_OFF] * view.LIGHTS
    assert {paddle_face(table, s) for s in Side} == {view.PADDLE}

    table.key(pygame.K_SPACE)  # the rematch: the countdown replaces "TIE"
    table.turn(20_000)
    assert table.unit.state.verdict is None
    assert light_colours(table) == [view.LIGHT_COUNTING] * view.LIGHTS


def test_nobody_pressing_shows_time(table: Table) -> None:
    play_to_go(table)
    config = table.service.config
    table.run_for(config.response_timeout_us + config.settle_us + 50_000, step_us=50_000)
    (verdict,) = table.verdicts()
    assert verdict.result.outcome is Outcome.TIMEOUT
    assert view.digits_text(table.unit.state, table.clock.now) == "TIME"
    assert digit_pixels(table, view.LIGHT_COUNTING) > 0
    assert light_colours(table) == [view.LIGHT_OFF] * view.LIGHTS
    assert digit_pixels(table, view.LIGHT_GO) == 0


def test_an_aborted_countdown_turns_the_lights_off_and_stops_drawing(table: Table) -> None:
    load_and_start(table)
    table.run_for(1_000_000)
    assert view.LIGHT_COUNTING in light_colours(table)
    table.key(pygame.K_ESCAPE)
    table.turn(20_000)
    (verdict,) = table.verdicts()
    assert verdict.result.outcome is Outcome.ABORTED
    assert table.unit.state.verdict is Verdict.OFF
    assert light_colours(table) == [view.LIGHT_OFF] * view.LIGHTS
    assert digit_pixels(table, view.LIGHT_COUNTING) == 0
    layout = table.window.unit_layout
    assert layout is not None
    assert view.CARD_COLOURS[0] not in {  # the loaded card is no longer shown
        table.pixel((x, layout.cards.centery)) for x in range(layout.cards.x, layout.cards.right)
    }
    frames = table.window.frames
    table.run_for(3_000_000, step_us=100_000)  # the dead countdown does not keep drawing
    assert table.window.frames == frames


def test_loading_the_next_duel_takes_the_verdict_down(table: Table) -> None:
    play_to_go(table)
    table.clock.now += 150_000
    table.key(pygame.K_a)
    table.turn()
    table.run_for(2_000_000)
    assert paddle_face(table, Side.LEFT) == view.PADDLE_WIN
    table.key(pygame.K_RETURN)
    table.turn(20_000)
    assert table.unit.state.verdict is None
    assert view.digits_text(table.unit.state, table.clock.now) == "READY"
    assert paddle_face(table, Side.LEFT) == view.PADDLE


def test_the_duel_bar_says_a_verdict_is_contested() -> None:
    from showdown.contract.events import VerdictContested
    from uno_showdown.window.duel_bar import DuelChooser

    chooser = DuelChooser()
    chooser.set_names(["Ann", "Bob"])
    event = VerdictContested(3, Side.RIGHT, 1_000_000, 1_042_000, Outcome.FASTER,
                             Outcome.FASTER, Side.RIGHT, {Side.LEFT: "Ann", Side.RIGHT: "Bob"})
    assert chooser.hear(event, {})
    assert chooser.status == "CONTESTED! Bob's press came 42 ms late: Bob would have won."
