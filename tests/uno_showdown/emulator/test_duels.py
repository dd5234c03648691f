"""Whole duels played on the emulator through the service: the verdict and what is drawn."""

from __future__ import annotations

import dataclasses

import pygame

from hardware.emulated import Display
from showdown.contract.events import (
    GoShown,
    LaunchFinished,
    LaunchPart,
    Outcome,
    Side,
    TiePolicy,
    VerdictContested,
)
from showdown.duel.engine import DuelConfig
from tests.uno_showdown.emulator.conftest import COUNTDOWN_US, Table, make_table
from uno_showdown.window import unit_view as view


def centroid(points: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    return (sum(p[0] for p in points) // 3, sum(p[1] for p in points) // 3)


def arrow_colour(table: Table, side: Side) -> tuple[int, int, int]:
    layout = table.window.unit_layout
    assert layout is not None
    return table.pixel(centroid(layout.arrows[side]))


def light_colours(table: Table) -> list[tuple[int, int, int]]:
    layout = table.window.unit_layout
    assert layout is not None
    return [table.pixel(centre) for centre, _radius in layout.lights]


def load_and_start(table: Table) -> int:
    """Enter loads the duel, the timer key starts it; returns the planned go instant."""
    table.key(pygame.K_RETURN)
    table.turn(20_000)
    table.key(pygame.K_SPACE)
    table.turn(20_000)  # the timer press is stamped with this turn's clock reading
    return table.clock.now + COUNTDOWN_US


def test_fast_duel_right_wins_and_cards_fly_at_the_left(table: Table) -> None:
    table.key(pygame.K_2)
    go_at = load_and_start(table)
    assert table.unit.state.display is Display.COUNTING
    table.run_for(go_at - table.clock.now)
    go = [e for e in table.heard if isinstance(e, GoShown)]
    assert len(go) == 1 and go[0].t_us == go_at
    assert light_colours(table) == [view.LIGHT_GO] * view.LIGHTS

    table.clock.now = go_at + 180_000
    table.key(pygame.K_l)
    table.turn()
    table.run_for(200_000)
    (verdict,) = table.verdicts()
    result = verdict.result
    assert (result.outcome, result.winner, result.loser) == (Outcome.FASTER, Side.RIGHT, Side.LEFT)
    assert result.reaction_us[Side.RIGHT] == 180_000
    # The arrow is for early presses only; a fair loss just gets the cards.
    assert arrow_colour(table, Side.LEFT) == arrow_colour(table, Side.RIGHT) == view.ARROW_OFF
    assert table.unit.state.launch and table.unit.state.launch[0].side is Side.LEFT

    table.run_for(2_000_000)
    assert any(isinstance(e, LaunchFinished) and e.cards_counted == 2 for e in table.heard)
    layout = table.window.unit_layout
    assert layout is not None
    state = table.unit.state
    landed = view.card_positions(layout, state.launch, state.launch_start_us,
                                 state.launch_end_us, table.clock.now)
    assert len(landed) == 2
    for x, y, _n in landed:  # both cards lie on the loser's (left) paddle, drawn in colour
        assert layout.paddles[Side.LEFT].collidepoint(x, y)
        assert table.pixel((x, y)) != view.PADDLE
    # ...and the paddle's key letter (A) shows over them, every stroke of it.
    def ink(launch: tuple) -> set[tuple[int, int]]:
        surface = pygame.Surface(table.surface.get_size())
        view.draw_unit(surface, layout, dataclasses.replace(state, launch=launch),
                       table.clock.now, view.UnitLabels(table.window.labels, {}),
                       view.TextCache())
        whole = layout.paddles[Side.LEFT]
        paddle = whole.inflate(-whole.w * 2 // 3, -whole.h // 3)  # the key, not the rim
        return {(x, y) for x in range(paddle.left, paddle.right)
                for y in range(paddle.top, paddle.bottom)
                if surface.get_at((x, y))[:3] == view.PADDLE_EDGE}

    letter = ink(())
    one_card = (LaunchPart(Side.LEFT, 1),)  # lands in the middle of the paddle, on its key
    assert letter and len(letter & ink(one_card)) >= 0.8 * len(letter)
    assert "Right wins in 180 ms" in table.window.chooser.status


def test_cards_are_drawn_in_flight_toward_the_loser(table: Table) -> None:
    go_at = load_and_start(table)
    table.run_for(go_at - table.clock.now)
    table.key(pygame.K_a)
    table.turn(150_000)
    table.run_for(60_000)
    state = table.unit.state
    assert state.launching_at(table.clock.now)
    layout = table.window.unit_layout
    drawn_at = table.window._last_frame_us
    assert layout is not None and drawn_at is not None
    (card,) = view.card_positions(layout, state.launch, state.launch_start_us,
                                  state.launch_end_us, drawn_at)
    x, y, colour = card
    assert layout.paddles[Side.RIGHT].centerx > x > layout.body.centerx  # on its way right
    _w, h = view.card_size(layout)
    assert table.pixel((x, y - h * 38 // 100)) == view.CARD_COLOURS[colour]  # above the oval


def test_early_press_freezes_the_countdown_and_lights_the_arrow(table: Table) -> None:
    go_at = load_and_start(table)
    table.run_for(COUNTDOWN_US // 2)
    lit_before = sum(c == view.LIGHT_COUNTING for c in light_colours(table))
    assert 0 < lit_before < view.LIGHTS
    table.key(pygame.K_a)
    table.turn()
    assert table.unit.state.display is Display.FROZEN
    table.run_for(100_000)
    (verdict,) = table.verdicts()
    assert verdict.result.outcome is Outcome.EARLY_PRESS
    assert verdict.result.loser is Side.LEFT
    assert arrow_colour(table, Side.LEFT) == view.ARROW_ON
    assert arrow_colour(table, Side.RIGHT) == view.ARROW_OFF
    colours = light_colours(table)
    assert colours.count(view.LIGHT_FROZEN) == lit_before  # stopped where it was
    assert view.LIGHT_GO not in colours
    table.run_for(go_at - table.clock.now + 500_000)
    assert not [e for e in table.heard if isinstance(e, GoShown)]  # go never came
    assert "Left pressed before go" in table.window.chooser.status


def test_countdown_lights_go_out_one_by_one(table: Table) -> None:
    load_and_start(table)
    seen = []
    for _ in range(view.LIGHTS):
        seen.append(sum(c == view.LIGHT_COUNTING for c in light_colours(table)))
        table.run_for(COUNTDOWN_US // view.LIGHTS)
    assert seen == [5, 4, 3, 2, 1]
    assert light_colours(table) == [view.LIGHT_GO] * view.LIGHTS


def test_a_tie_in_one_batch_is_a_rematch(table: Table) -> None:
    go_at = load_and_start(table)
    table.run_for(go_at - table.clock.now)
    table.clock.now += 200_000
    table.key(pygame.K_a)
    table.key(pygame.K_l)
    table.turn()
    table.run_for(100_000)
    (verdict,) = table.verdicts()
    assert verdict.result.outcome is Outcome.TIE and verdict.result.rematch
    assert not verdict.result.launch
    assert table.unit.state.display is Display.LOADED  # same duel, ready again
    assert arrow_colour(table, Side.LEFT) == arrow_colour(table, Side.RIGHT) == view.ARROW_OFF
    assert table.window.chooser.busy


def test_a_split_tie_launches_at_both_sides() -> None:
    config = DuelConfig(countdown_min_us=COUNTDOWN_US, countdown_max_us=COUNTDOWN_US,
                        tie_policy=TiePolicy.SPLIT)
    table = make_table(config)
    try:
        table.key(pygame.K_3)
        go_at = load_and_start(table)
        table.run_for(go_at - table.clock.now + 100_000)
        table.key(pygame.K_a)
        table.key(pygame.K_l)
        table.turn()
        table.run_for(100_000)
        (verdict,) = table.verdicts()
        assert verdict.result.outcome is Outcome.TIE
        assert {p.side for p in table.unit.state.launch} == {Side.LEFT, Side.RIGHT}
        assert sum(p.cards for p in table.unit.state.launch) == 3
    finally:
        table.window.close()
        pygame.display.quit()


def test_nobody_presses_a_timeout(table: Table) -> None:
    go_at = load_and_start(table)
    config = table.service.config
    table.run_for(go_at - table.clock.now + config.response_timeout_us + config.settle_us
                  + 50_000, step_us=50_000)
    (verdict,) = table.verdicts()
    assert verdict.result.outcome is Outcome.TIMEOUT
    assert not table.unit.state.launch
    assert "Nobody pressed" in table.window.chooser.status


def test_a_player_who_saw_go_is_never_early(table: Table) -> None:
    """Go is stamped before its frame: a press right after that frame counts as after go."""
    go_at = load_and_start(table)
    table.run_for(go_at - table.clock.now - 10_000)
    assert table.unit.state.display is Display.COUNTING
    table.clock.now = go_at
    table.turn()  # this turn shows go and draws it
    assert light_colours(table) == [view.LIGHT_GO] * view.LIGHTS
    table.key(pygame.K_l)  # pressed the instant the green frame appeared
    table.turn()
    table.run_for(100_000)
    (verdict,) = table.verdicts()
    assert verdict.result.outcome is Outcome.FASTER
    assert verdict.result.winner is Side.RIGHT


def test_a_held_key_shows_the_paddle_pressed(table: Table) -> None:
    layout = table.window.unit_layout
    assert layout is not None
    paddle = layout.paddles[Side.RIGHT]
    probe = (paddle.centerx - paddle.w // 3, paddle.centery)
    assert table.pixel(probe) == view.PADDLE
    table.key(pygame.K_l, up=False)
    table.turn(20_000)
    assert table.pixel(probe) == view.PADDLE_HELD
    table.post(pygame.KEYUP, key=pygame.K_l, mod=0, unicode="", scancode=0)
    table.turn(20_000)
    assert table.pixel(probe) == view.PADDLE


def test_a_press_delivered_after_the_verdict_that_would_have_won_shows_contested(
        table: Table) -> None:
    """The duel bar says so at once; the verdict on the unit stands."""
    go_at = load_and_start(table)
    table.run_for(go_at - table.clock.now + 200_000)
    table.key(pygame.K_a)  # left, 200 ms after go
    table.turn()
    table.run_for(100_000)
    (verdict,) = table.verdicts()
    assert verdict.result.winner is Side.LEFT
    # Right's edge, made 150 ms after go, reaches the unit only now (a driver stalled).
    table.unit.press_paddle(Side.RIGHT, go_at + 150_000)
    table.turn()
    (contest,) = [e for e in table.heard if isinstance(e, VerdictContested)]
    assert contest.side is Side.RIGHT and contest.would_win is Side.RIGHT
    assert table.window.chooser.status.startswith("CONTESTED! Right's press came ")
    assert table.window.chooser.status.endswith(" ms late: Right would have won.")
    assert table.verdicts() == [verdict]  # the verdict stands
