"""Small read-only questions the views ask of the companion's game, phrased for the screen.

Everything here only reads the core's model (`companion.table.game.Game` through
`CompanionApp`) and turns it into short display text, so the views stay
about drawing and the wording lives in one place.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.deck.cards import Card, parse_card
from companion.scoring import OPTIONS, ScoringMethod
from companion.table.timebox import Phase
from companion.touch import theme
from companion.touch.i18n import N_, _
from showdown.contract.i18n import _ as core_

if TYPE_CHECKING:
    from companion.app import CompanionApp

#: How a card face is written on its button (round entry) and wherever a card is named.
FACE_LABELS = {"skip": "⊘", "rev": "⇄", "+2": "+2"}
WILD_LABELS = {
    "wild": N_("Wild"),
    "wild+4": N_("Wild +4"),
    "showdown": N_("Showdown"),
    "itembox": N_("Item Box"),
    "team+4": N_("Team +4"),
    "teamplay": N_("Team Play"),
    "wild+1": N_("Wild +1"),
    "wild+2": N_("Wild +2"),
    "blank": N_("Blank +10"),
}


def card_label(card: Card) -> str:
    if card.colour is None:
        return _(WILD_LABELS.get(card.face, card.face))
    return FACE_LABELS.get(card.face, card.face)


def method(app: CompanionApp) -> ScoringMethod | None:
    return app.game.rules.method if app.game is not None else None


def lower_is_better(app: CompanionApp) -> bool:
    return app.game is not None and app.game.rules.lower_is_better


def target(app: CompanionApp) -> int | None:
    return app.game.rules.target if app.game is not None else None


def game_over(app: CompanionApp) -> bool:
    return app.game is not None and app.game.verdict.over


def may_record(app: CompanionApp) -> bool:
    """False while the game's time box takes no round (not started yet, or the table is done)."""
    boxed = app.time_box()
    if boxed is None:
        return True
    return boxed.box.phase(app.clock()) not in (Phase.WAITING, Phase.DONE)


def game_line(app: CompanionApp) -> str:
    """One line under the tabs: edition, method, target, options and the round about to be
    played."""
    game = app.game
    if game is None:
        return ""
    rules = game.rules
    # The method's name, before its colon: ":" or Armenian's "՝" ("թիմեր՝ …" is "teams: …").
    parts = [game.edition.title, re.split("[:՝]", core_(rules.method.title))[0]]
    if rules.target is not None and rules.method.takes_target:
        parts.append(_("to {points}").format(points=rules.target))
    parts += [core_(OPTIONS[key].label) for key in rules.modifiers]
    parts.append(_("round {n}").format(n=len(game.rounds) + 1))
    return " · ".join(parts)


def game_line_lines(app: CompanionApp, size: int, width: int, *, small: int = 14,
                    shrink_to: int | None = None, max_lines: int = 2) -> tuple[list[str], int]:
    """The game line in `width`: one line at `size` (shrunk no smaller than `shrink_to`,
    default `small`) where it fits, else two (up to `max_lines`) at `small`, broken at the
    " · " that evens them (Armenian's or Russian's longer words, the emulator's panel):
    drawn whole, not cut."""
    line = game_line(app)
    shown, fitted = theme.fit(line, size, width, min_size=shrink_to or small)
    if shown == line:
        return [line], fitted
    parts = line.split(" · ")
    best: list[str] = [line]
    # at `small`, then (a part too long for any line at it) a pixel smaller at a time
    for px in range(small, min(small, theme.MIN_TEXT_PX) - 1, -1):
        font = theme.font(px)
        for count in range(2, min(max_lines, len(parts)) + 1):
            # the parts in `count` lines, cut where the widest line is the narrowest
            splits = [[" · ".join(parts[a:b]) for a, b in zip((0, *cuts), (*cuts, len(parts)),
                                                              strict=True)]
                      for cuts in itertools.combinations(range(1, len(parts)), count - 1)]
            best = min(splits, key=lambda lines: max(font.size(x)[0] for x in lines))
            if max(font.size(x)[0] for x in best) <= width:
                return best, px
    return best, min(small, theme.MIN_TEXT_PX)


def total_text(app: CompanionApp, standing: Any) -> str:
    """A standing's score as the method counts it: points, wins, points per round, hands."""
    m = method(app)
    return m.total_text(standing) if m is not None else str(standing.total)


def total_note(app: CompanionApp, standing: Any) -> str:
    """What the method says beside a total (seven-round UNO: the hand in play), or ""."""
    m = method(app)
    return m.total_note(standing) if m is not None else ""


def player_order(app: CompanionApp) -> list[str]:
    """The names the score columns are kept under (teams under the teams method), seated order."""
    game = app.game
    return [e.name for e in game.entrants] if game is not None else []


def round_number(row: Any) -> int:
    return int(row.number)


def round_winner(row: Any) -> str:
    """Who went out, and on which card where that counts (H2O, a showdown card won)."""
    out_on = getattr(row, "out_on", None)
    if out_on:
        return f"{row.winner} · {card_label(parse_card(out_on))}"
    if getattr(row, "showdown_out", False):
        return f"{row.winner} · {card_label(parse_card('showdown'))}"
    return str(row.winner)


def round_points(row: Any) -> Mapping[str, int]:
    return dict(row.points)


def round_cells(row: Any) -> Mapping[str, str]:
    """Each entrant's cell in a history row, as the method shows it (points, or a place)."""
    cells = getattr(row, "cells", None)
    if cells:
        return dict(cells)
    return {name: str(value) for name, value in row.points.items()}


def ms(value_us: int | None) -> str:
    """A reaction time for people: milliseconds, no decimals."""
    return "–" if value_us is None else ms_text(value_us / 1000)


def ms_text(value_ms: float | None) -> str:
    return "–" if value_ms is None else _("{ms} ms").format(ms=round(value_ms))


def duel_lines(duel: Any) -> list[tuple[str, theme.Color]]:
    """The last duel in a few short lines: who faced whom, who won, how fast each was."""
    if duel is None:
        return []
    lines: list[tuple[str, theme.Color]] = []
    first = getattr(duel, "challenger", None) or "?"
    second = getattr(duel, "opponent", None) or "?"
    lines.append((_("{a} vs {b}").format(a=first, b=second), theme.TEXT))
    outcome = str(getattr(duel, "outcome", ""))
    winner = getattr(duel, "winner", None)
    loser = getattr(duel, "loser", None)
    cards = getattr(duel, "cards", None)
    if outcome == "early_press" and loser:
        lines.append((_("{name} pressed too early").format(name=loser), theme.DANGER))
    elif outcome == "tie":
        lines.append((_("A tie"), theme.TEXT_DIM))
    elif outcome == "timeout":
        lines.append((_("Nobody pressed"), theme.TEXT_DIM))
    elif outcome == "aborted":
        lines.append((_("Cancelled"), theme.TEXT_DIM))
    elif outcome == "launch_failed":  # judged, but the cards never flew: nobody takes them
        lines.append((_("Launch failed: no cards"), theme.DANGER))
    elif winner:
        lines.append((_("{name} won").format(name=winner), theme.ACCENT))
    if loser and cards and outcome != "aborted":
        lines.append((_("{name} takes {n}").format(name=loser, n=cards), theme.TEXT_DIM))
    reactions = getattr(duel, "reaction_us", None) or {}
    for name, value in dict(reactions).items():
        shown = _("early") if value is not None and value < 0 else ms(value)
        lines.append((f"{name}: {shown}", theme.TEXT))
    if getattr(duel, "contested", False):
        # A press came too late to count and would have changed the verdict: say so.
        lines.append((_("Contested"), theme.DANGER))
        lines.append((_("a press came too late"), theme.DANGER))
    return lines
