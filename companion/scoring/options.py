"""The optional house rules of seed 001 that change the score, one place per rule.

* `lone_zero_50` ("Скинь нуль"): a single 0 left alone in a hand is worth 50, not 0.
* `h2o` (for UNO H2O decks, with `+1` and Wild +2 cards): going out on a `+1` takes 20 off
  the player's total, on a Wild +2 takes 40. The seed says the rule follows the game 101,
  where the lowest total is best, so it fits the methods where lower is better; it needs a
  deck that holds both cards (the `h2o` edition).

A method lists the options it takes; `Rules.make` refuses the others.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from companion.deck.cards import Card, parse_card
from companion.deck.editions import BLANK_VALUE, Edition, card_value
from showdown.contract.errors import RulesError
from showdown.contract.i18n import N_, _
from showdown.contract.record import record

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:  # `uno-showdown points` reads options, and needs none of these
    from companion.scoring.base import Entrant, RoundInput, RoundScore, RulesFacts


@record
class Option:
    """A house rule: its key (stored, typed after `--option`), a line saying what it does,
    a button label, and the cards a deck must hold for it to mean anything."""

    key: str
    title: str
    label: str
    needs_cards: tuple[Card, ...] = ()


LONE_ZERO = Option("lone_zero_50", N_("a lone 0 is worth 50"), N_("Lone 0 = 50"))
H2O = Option("h2o", N_("H2O: going out on +1 takes 20 off, on Wild +2 takes 40"),
             N_("H2O: +1 −20, Wild +2 −40"), (parse_card("wild+1"), parse_card("wild+2")))

OPTIONS: Mapping[str, Option] = MappingProxyType({o.key: o for o in (LONE_ZERO, H2O)})

#: What going out on each H2O card takes off the player's total (seed 001).
H2O_DEDUCTIONS: Mapping[Card, int] = MappingProxyType({
    parse_card("wild+1"): 20,
    parse_card("wild+2"): 40,
})


def parse_option(name: str) -> str:
    """The key of an option as a person typed it (any case, `-` for `_`)."""
    key = name.strip().lower().replace("-", "_")
    if key not in OPTIONS:
        raise RulesError(
            _("unknown option {name!r}: choose from {choices}").format(
                name=name, choices=", ".join(OPTIONS))
        )
    return key


def check_edition(rules: RulesFacts, edition: Edition) -> None:
    """Refuse an option whose cards the deck does not hold (H2O with a classic deck)."""
    for key in rules.options:
        option = OPTIONS[key]
        missing = [c for c in option.needs_cards if not edition.holds(c)]
        if missing:
            raise RulesError(
                _("the {option} option needs a deck with {cards}: choose the h2o edition "
                  "or leave the option out").format(
                    option=key, cards=", ".join(c.code for c in option.needs_cards))
            )


def check_out_on(rules: RulesFacts, card: Card | None) -> None:
    """The card a winner went out on is recorded only where it counts (H2O's two cards)."""
    if card is None:
        return
    if not rules.h2o:
        raise RulesError(
            _("the card a player went out on counts only under the h2o option: "
              "leave it out")
        )
    if card not in H2O_DEDUCTIONS:
        raise RulesError(
            _("going out on {card} takes nothing off: give the card only for {cards}").format(
                card=card.code, cards=", ".join(c.code for c in H2O_DEDUCTIONS))
        )


def hand_value(cards: Sequence[Card], rules: RulesFacts, blank_value: int = BLANK_VALUE) -> int:
    """The worth of a hand under the rules' options (a blank card worth `blank_value`, the
    game's `blank_worth` setting)."""
    return card_total(cards, rules.options, blank_value)


def card_total(cards: Sequence[Card], options: Collection[str] = (),
               blank_value: int = BLANK_VALUE) -> int:
    """The worth of cards left in a hand, with the options (by key) that change it."""
    return _hand_value(tuple(cards), LONE_ZERO.key in options, blank_value)


@lru_cache(maxsize=8192)
def _hand_value(cards: tuple[Card, ...], lone_zero_50: bool, blank_value: int) -> int:
    if lone_zero_50 and len(cards) == 1 and cards[0].face == "0":
        return 50
    return sum(card_value(c, blank_value) for c in cards)


def apply(rules: RulesFacts, entrants: Sequence[Entrant], entry: RoundInput,
          score: RoundScore) -> RoundScore:
    """The round's score with the options that act on it: H2O's deduction for the winner."""
    from companion.scoring.base import RoundScore

    if not rules.h2o or entry.out_on is None:
        return score
    winning = next(e for e in entrants if entry.winner in e.members)
    points = dict(score.points)
    points[winning.name] -= H2O_DEDUCTIONS[entry.out_on]
    return RoundScore(points, score.loser, score.hand_values)
