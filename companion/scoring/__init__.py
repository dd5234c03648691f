"""Scoring: one module per method, the options of seed 001, and a game's rules.

* `base.py`: what a method is (`ScoringMethod`) and the values it works with.
* one module per method: `winner`, `own`, `championship`, `lazy`, `teams`, `last` (play to
  the last player), `seven` (seven-round UNO); `registry.py` lists them, and loads one
  when it is asked for.
* `options.py`: the house rules that change the score (a lone 0 worth 50, H2O deductions).
* `rules.py`: `Rules`, a game's method, target and options, checked when made.

`score_round` is the one entry point that scores a round: the method's own count, then the
options that act on it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import ModuleType

#: typing.TYPE_CHECKING without importing typing, which `game list` would pay for at start
#: (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from companion.deck.cards import Card
    from companion.scoring.base import (
        Column,
        Entrant,
        Entry,
        RoundInput,
        RoundScore,
        RulesError,
        ScoringMethod,
        Verdict,
    )
    from companion.scoring.championship import points_per_game
    from companion.scoring.options import (
        H2O_DEDUCTIONS,
        OPTIONS,
        Option,
        card_total,
        hand_value,
        parse_option,
    )
    from companion.scoring.registry import METHODS
    from companion.scoring.rules import MAX_TARGET, Rules, parse_method

#: The keys of the scoring methods (`registry.LINES`), for a reader that only asks whether a
#: stored key names one (`game list`, which imports nothing of the game model's scoring); a
#: test holds the two equal.
METHOD_KEYS = ("winner", "own", "championship", "lazy", "teams", "last", "seven")

# Where each name of the package lives, each module imported by a function of its own (by
# its own name, so the import is seen like any other). A name is imported when first asked
# for, so `uno-showdown points`, which reads only the options, loads none of the methods' code.
def _base() -> ModuleType:
    from companion.scoring import base

    return base


def _championship() -> ModuleType:
    from companion.scoring import championship

    return championship


def _options() -> ModuleType:
    from companion.scoring import options

    return options


def _registry() -> ModuleType:
    from companion.scoring import registry

    return registry


def _rules() -> ModuleType:
    from companion.scoring import rules

    return rules


_HOME: dict[str, Callable[[], ModuleType]] = {
    **dict.fromkeys(("Column", "Entrant", "Entry", "RoundInput", "RoundScore", "RulesError",
                     "ScoringMethod", "Verdict"), _base),
    "points_per_game": _championship,
    **dict.fromkeys(("H2O_DEDUCTIONS", "OPTIONS", "Option", "card_total", "hand_value",
                     "parse_option"), _options),
    "METHODS": _registry,
    **dict.fromkeys(("MAX_TARGET", "Rules", "parse_method"), _rules),
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(home(), name)
    globals()[name] = value  # asked once
    return value


__all__ = [
    "H2O_DEDUCTIONS",
    "MAX_TARGET",
    "METHODS",
    "OPTIONS",
    "Column",
    "Entrant",
    "Entry",
    "Option",
    "RoundInput",
    "RoundScore",
    "Rules",
    "RulesError",
    "ScoringMethod",
    "Verdict",
    "card_total",
    "entrant_of",
    "get_method",
    "hand_value",
    "parse_method",
    "parse_option",
    "points_per_game",
    "score_round",
]


def get_method(key: str) -> ScoringMethod:
    """The method stored under `key` (or typed as one of its names)."""
    from companion.scoring.rules import parse_method

    return parse_method(key)


def entrant_of(entrants: Sequence[Entrant], player: str) -> Entrant:
    for e in entrants:
        if player in e.members:
            return e
    raise KeyError(player)


def score_round(
    rules: Rules,
    entrants: Sequence[Entrant],
    winner: str,
    hand_values: Mapping[str, int] | None = None,
    seating: Sequence[str] = (),
    *,
    order: tuple[str, ...] = (),
    out_on: Card | None = None,
) -> RoundScore:
    """Score one round: the method's count, then the options (H2O) that act on it.

    `hand_values` holds what each player taking part has left in hand (the winner 0).
    `seating` (the round's players in seating order) breaks a tie for the lazy loser.
    """
    from companion.scoring.base import RoundInput
    from companion.scoring.options import apply

    entry = RoundInput(winner, dict(hand_values or {}), tuple(seating), tuple(order), out_on)
    return apply(rules, entrants, entry, rules.method.score(entrants, entry))
