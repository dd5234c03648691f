"""How a round is scored and when a game ends, one rule per scoring method.

Pure functions over plain values: the game model hands in who went out and what each
player's hand is worth; these functions say who scores what, and read no clock and no file.

Methods (see the rules digest):

* `winner`: winner collects the value of every other hand; first to 500 wins.
* `own`: own hand, loser at 200: each player is charged their own hand, the one who went
  out scores 0; whoever reaches 200 loses, everyone else wins. Lower is better.
* `championship`: as `own`, until someone reaches 500; a player's result is points ÷ rounds
  played, lower is better.
* `lazy`: no totals; each round has a winner (went out, starts next round) and a loser (most
  points in hand, deals next round). Standings count wins.
* `teams`: pairs; the team whose players both went out collects every card left with the
  other teams; first team to 500 wins.

Modifier (seed 001): `lone_zero_50`, a single 0 left alone in a hand is worth 50. The H2O
modifiers need +1 / Wild +2 cards, which none of the supported editions has.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from companion.cards import Card
from companion.editions import card_value
from companion.errors import CompanionError
from companion.i18n import N_, _


class RulesError(CompanionError):
    """A method, target or modifier that does not exist or does not fit."""


class Method(StrEnum):
    WINNER = "winner"
    OWN = "own"
    CHAMPIONSHIP = "championship"
    LAZY = "lazy"
    TEAMS = "teams"


METHOD_TITLES: Mapping[Method, str] = {
    Method.WINNER: N_("winner collects"),
    Method.OWN: N_("own hand, loser at the target"),
    Method.CHAMPIONSHIP: N_("championship: points per round, lower is better"),
    Method.LAZY: N_("lazy: winner and loser per round, no totals"),
    Method.TEAMS: N_("teams: the team that went out collects"),
}

DEFAULT_TARGETS: Mapping[Method, int | None] = {
    Method.WINNER: 500,
    Method.OWN: 200,
    Method.CHAMPIONSHIP: 500,
    Method.LAZY: None,
    Method.TEAMS: 500,
}

_METHOD_ALIASES = {
    "winner": Method.WINNER,
    "winnercollects": Method.WINNER,
    "collect": Method.WINNER,
    "own": Method.OWN,
    "ownhand": Method.OWN,
    "loser200": Method.OWN,
    "loser": Method.OWN,
    "championship": Method.CHAMPIONSHIP,
    "champ": Method.CHAMPIONSHIP,
    "lazy": Method.LAZY,
    "teams": Method.TEAMS,
    "team": Method.TEAMS,
}

MODIFIERS = ("lone_zero_50",)
#: The highest target a game takes; more would be a typing slip, and must fit the games file.
MAX_TARGET = 1_000_000


def parse_method(name: str) -> Method:
    key = "".join(ch for ch in name.strip().lower() if ch.isalnum())
    try:
        return _METHOD_ALIASES[key]
    except KeyError:
        raise RulesError(
            _("unknown scoring method {name!r}: choose one of {choices}").format(
                name=name, choices=", ".join(m.value for m in Method)
            )
        ) from None


@dataclass(frozen=True, slots=True)
class Rules:
    """A game's scoring method, target and modifiers."""

    method: Method
    target: int | None = None
    lone_zero_50: bool = False

    @classmethod
    def make(
        cls, method: Method | str, target: int | None = None, modifiers: Iterable[str] = ()
    ) -> Rules:
        method = method if isinstance(method, Method) else parse_method(method)
        if method is Method.LAZY:
            if target is not None:
                raise RulesError(_("the lazy method keeps no totals, so it takes no target"))
        elif target is None:
            target = DEFAULT_TARGETS[method]
        elif not isinstance(target, int) or isinstance(target, bool) or target <= 0:
            raise RulesError(_("the target must be a positive number of points"))
        elif target > MAX_TARGET:
            raise RulesError(
                _("the target cannot be more than {max} points").format(max=MAX_TARGET)
            )
        mods = set()
        for m in modifiers:
            key = m.strip().lower().replace("-", "_")
            if key not in MODIFIERS:
                raise RulesError(
                    _("unknown option {name!r}: choose from {choices}").format(
                        name=m, choices=", ".join(MODIFIERS)
                    )
                )
            mods.add(key)
        return cls(method, target, "lone_zero_50" in mods)

    @property
    def modifiers(self) -> tuple[str, ...]:
        return ("lone_zero_50",) if self.lone_zero_50 else ()

    @property
    def lower_is_better(self) -> bool:
        return self.method in (Method.OWN, Method.CHAMPIONSHIP)

    @property
    def keeps_totals(self) -> bool:
        return self.method is not Method.LAZY


def hand_value(cards: Sequence[Card], rules: Rules) -> int:
    """The worth of a hand under the rules' modifiers."""
    return _hand_value(tuple(cards), rules.lone_zero_50)


@lru_cache(maxsize=8192)
def _hand_value(cards: tuple[Card, ...], lone_zero_50: bool) -> int:
    if lone_zero_50 and len(cards) == 1 and cards[0].face == "0":
        return 50
    return sum(card_value(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Entrant:
    """Who scores: a player, or a team of two for the teams method."""

    name: str
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundScore:
    """What one round gave each entrant, and the round's loser (lazy method)."""

    points: Mapping[str, int]
    loser: str | None = None
    hand_values: Mapping[str, int] = field(default_factory=dict)


def entrant_of(entrants: Sequence[Entrant], player: str) -> Entrant:
    for e in entrants:
        if player in e.members:
            return e
    raise KeyError(player)


def score_round(
    rules: Rules,
    entrants: Sequence[Entrant],
    winner: str,
    hand_values: Mapping[str, int],
    seating: Sequence[str] = (),
) -> RoundScore:
    """Score one round.

    `hand_values` holds what each player taking part has left in hand (the winner 0).
    `seating` (the round's players in seating order) breaks a tie for the lazy loser: the
    first tied player to the winner's left loses.
    """
    winning = entrant_of(entrants, winner)
    method = rules.method
    points: dict[str, int] = {e.name: 0 for e in entrants}
    loser: str | None = None
    if method in (Method.WINNER, Method.TEAMS):
        points[winning.name] = sum(
            v for p, v in hand_values.items() if p not in winning.members
        )
    elif method in (Method.OWN, Method.CHAMPIONSHIP):
        for e in entrants:
            points[e.name] = sum(hand_values.get(p, 0) for p in e.members)
    else:  # lazy: a win for the winner, a loss for the one with most in hand
        order = list(seating) or list(hand_values)
        if winner in order:
            i = order.index(winner)
            order = order[i + 1:] + order[:i]
        candidates = [p for p in order if p != winner and p in hand_values]
        if candidates:
            most = max(hand_values[p] for p in candidates)
            loser = next(p for p in candidates if hand_values[p] == most)
        points[winning.name] = 1
    return RoundScore(points, loser, dict(hand_values))


def championship_result(total: int, rounds_played: int) -> float | None:
    """A championship player's result: points ÷ rounds played (lower is better)."""
    return total / rounds_played if rounds_played else None


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a game is over and who won or lost it."""

    over: bool
    winners: tuple[str, ...] = ()
    losers: tuple[str, ...] = ()


def game_verdict(
    rules: Rules, totals: Mapping[str, int], results: Mapping[str, float | None] | None = None
) -> Verdict:
    """Decide from the totals (and championship results) whether the game is over."""
    if rules.target is None or not totals:
        return Verdict(False)
    reached = [name for name, t in totals.items() if t >= rules.target]
    if not reached:
        return Verdict(False)
    if rules.method is Method.OWN:
        return Verdict(True, tuple(n for n in totals if n not in reached), tuple(reached))
    if rules.method is Method.CHAMPIONSHIP:
        scored = {n: r for n, r in (results or {}).items() if r is not None}
        if not scored:
            return Verdict(True)
        best = min(scored.values())
        return Verdict(True, tuple(n for n, r in scored.items() if r == best))
    best_total = max(totals.values())
    return Verdict(True, tuple(n for n, t in totals.items() if t == best_total))
