"""What a scoring method is: the one object the rest of the companion asks about scoring.

A method knows everything that differs between the ways a table keeps score: what a round
records (hands, a finishing order, or only who went out), what a round gives each entrant,
who deals and who starts next, when the game is over and who won, how the standings are
ordered, and the few facts the CLI and the screen show (its title, whether lower is better,
how a total reads). The game model, the store, the transfer formats, the commands and the
views ask the method object; none of them branches on which method it is.

So a new method is one module with a subclass of `ScoringMethod` and a singleton, its line
in `companion/scoring/registry.py`, and its strings in the catalogs.

Pure code: no I/O, no clock. The hooks that need a whole game take it as a `GameSoFar`,
what a method reads of the game model's `Game`: the game model imports scoring, and scoring
needs nothing of the model but these few facts. Likewise a game's rules are `RulesFacts`
here: `Rules` (`rules.py`) finds a method by name through the registry, which imports the
methods, so the methods do not name it and the imports run one way (rules, registry, the
methods, base).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from enum import StrEnum

from companion.deck.cards import Card
from showdown.contract.errors import RulesError
from showdown.contract.i18n import N_, _
from showdown.contract.record import field, record

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:  # fractions only in annotations: a Pi pays for every import at start
    from fractions import Fraction
    from typing import Any, ClassVar, Protocol
else:
    Protocol = object  # the protocols only describe: nothing checks them at run time


class Entry(StrEnum):
    """What a round of a method records, and so what the CLI and the screen ask for."""

    #: Who went out, and what every other player had left (cards or counted points).
    HANDS = "hands"
    #: The order in which the players went out, first to last (no hands are counted).
    ORDER = "order"
    #: Only who went out (no hands are counted).
    WINNER = "winner"


@record
class Entrant:
    """Who scores: a player, or a team of two for the teams method."""

    name: str
    members: tuple[str, ...]


@record
class RoundInput:
    """One round as the method needs it: plain values taken from what was entered.

    `hand_values` holds what each player taking part had left in hand (the winner 0; empty
    for methods that count no hands). `seating` is the round's players in seating order.
    `order` is the finishing order (first out first) for methods that record one. `out_on`
    is the card the winner went out on, where an option makes it count (H2O).
    """

    winner: str
    hand_values: Mapping[str, int] = field(default_factory=dict)
    seating: Sequence[str] = ()
    order: tuple[str, ...] = ()
    out_on: Card | None = None


@record
class RoundScore:
    """What one round gave each entrant, and the round's loser where the method names one."""

    points: Mapping[str, int]
    loser: str | None = None
    hand_values: Mapping[str, int] = field(default_factory=dict)


@record
class Verdict:
    """Whether a game is over and who won or lost it. `reached`: who reached the target
    where reaching it ends the game but wins nothing (the championship: rule 2.1 ends the
    game to 500, and its results are points per deal over a stage, never a game's winner)."""

    over: bool
    winners: tuple[str, ...] = ()
    losers: tuple[str, ...] = ()
    reached: tuple[str, ...] = ()


class Seated(Protocol):
    """What a method reads of a seated player (the game model's `Player`)."""

    @property
    def name(self) -> str: ...

    @property
    def team(self) -> int | None: ...


class PlayedRound(Protocol):
    """What a method reads of a round played (the game model's `Round`)."""

    @property
    def winner(self) -> str: ...

    @property
    def order(self) -> tuple[str, ...]: ...


class GameSoFar(Protocol):
    """What a method reads of a game (the game model's `Game`)."""

    @property
    def rounds(self) -> Sequence[PlayedRound]: ...

    @property
    def scores(self) -> Sequence[RoundScore]: ...

    @property
    def dealer(self) -> str: ...

    @property
    def starter(self) -> str: ...

    def score_of(self, index: int) -> RoundScore: ...

    def left_of(self, name: str, index: int) -> str: ...


class StandingFacts(Protocol):
    """What a method reads of a line of the standings (the game model's `Standing`)."""

    @property
    def total(self) -> int: ...

    @property
    def wins(self) -> int: ...

    @property
    def losses(self) -> int: ...

    @property
    def rounds_played(self) -> int: ...

    @property
    def result(self) -> Fraction | None: ...


class RulesFacts(Protocol):
    """What a method and the options read of a game's rules (`companion.scoring.rules.Rules`,
    which imports the methods through the registry: see the top of this module)."""

    @property
    def target(self) -> int | None: ...

    @property
    def options(self) -> Collection[str]: ...

    @property
    def h2o(self) -> bool: ...


@record
class Column:
    """A column of the standings table the CLI prints: its header (marked for the catalog)
    and how a standing's cell reads."""

    header: str
    cell: Callable[[Any], object]


def _points_column() -> Column:
    return Column(N_("points"), lambda s: s.total)


class ScoringMethod:
    """One way of keeping score. Subclasses set the class attributes and override the hooks
    that differ; each module makes one instance, which is the method everybody uses.

    The defaults describe the plainest method: a round records hands, the deal passes
    left, play starts left of the dealer, higher totals are better.
    """

    #: The name stored in the games file and typed after `--method`.
    key: ClassVar[str]
    #: Other spellings people type (compared without case, spaces or punctuation);
    #: `registry.LINES` repeats them, and finding a method by name reads that copy (a test
    #: holds the two equal).
    aliases: ClassVar[tuple[str, ...]] = ()
    #: A line saying how the method scores (the CLI; marked for the core catalog).
    title: ClassVar[str]
    #: A button's worth of words (the screen's new-game view; core catalog).
    label: ClassVar[str]
    #: One line telling a table that does not know the method how it plays (the screen).
    summary: ClassVar[str]
    #: The target a new game gets; None: the method keeps no target.
    default_target: ClassVar[int | None] = None
    #: The target is part of the method (seven-round UNO: 7 hands) and cannot be changed.
    fixed_target: ClassVar[bool] = False
    lower_is_better: ClassVar[bool] = False
    #: Whether totals mean points (False: only wins and losses are counted).
    keeps_totals: ClassVar[bool] = True
    entry: ClassVar[Entry] = Entry.HANDS
    #: The options (house rules) this method takes, by key (see `options.py`).
    options: ClassVar[tuple[str, ...]] = ("lone_zero_50",)
    #: The method's regulation fixes the rules and allows no other (the championship, seed
    #: 000 rule 2.4.8): no option and no house rule (`check_regulation`).
    regulated: ClassVar[bool] = False
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    #: Players are added and removed this many at a time (teams: a pair).
    players_step: ClassVar[int] = 1
    #: Whether a game deals again after every round (seven-round UNO plays one deal on).
    deals_every_round: ClassVar[bool] = True
    #: The deck this method is made for (UNO Teams): choosing that deck on the screen
    #: chooses the method too.
    edition: ClassVar[str | None] = None

    def __repr__(self) -> str:
        return f"<scoring method {self.key}>"

    def __str__(self) -> str:
        return self.key

    @property
    def takes_target(self) -> bool:
        return self.default_target is not None and not self.fixed_target

    # -- the table --

    def seat(self, names: Sequence[str], check_name: Callable[[str], str]) -> list[
            tuple[str, int | None]]:
        """The seating of a new game from the names typed, in order: (name, team or None)."""
        return [(check_name(n), None) for n in names]

    def entrants(self, players: Sequence[Seated]) -> tuple[Entrant, ...]:
        """Who scores: by default each player for themselves."""
        return tuple(Entrant(p.name, (p.name,)) for p in players)

    def check_players(self, count: int) -> None:
        """The one place a table's size is checked: new games and late joiners alike."""
        if not self.min_players <= count <= self.max_players:
            raise RulesError(
                _("a game scored by «{method}» takes {low} to {high} players, not {n}: "
                  "check the list of players").format(
                    method=_(self.label), low=self.min_players, high=self.max_players, n=count)
            )

    def check_late_joiner(self) -> None:
        """Raise RulesError if a player cannot join a game of this method after it started."""

    # -- a round --

    def score(self, entrants: Sequence[Entrant], entry: RoundInput) -> RoundScore:
        """What the round gives each entrant (options such as H2O are applied afterwards)."""
        raise NotImplementedError

    # -- the deal --

    def next_dealer(self, game: GameSoFar, index: int, dealer: str) -> str:
        """Who deals after round `index` (0-based) that `dealer` dealt: the deal passes left."""
        if not self.deals_every_round:
            return dealer
        return game.left_of(dealer, index + 1)

    def starter(self, game: GameSoFar) -> str:
        """Who plays first in the next round: the player left of the dealer."""
        return game.left_of(game.dealer, len(game.rounds))

    # -- totals and the end of the game --

    def result(self, total: int, rounds_played: int) -> Fraction | None:
        """A per-entrant result beside the total (the championship's points per round)."""
        return None

    def verdict(self, rules: RulesFacts, totals: Mapping[str, int],
                results: Mapping[str, Fraction | None]) -> Verdict:
        """Over once someone reaches the target: the highest total wins."""
        if rules.target is None or not totals:
            return Verdict(False)
        if not any(t >= rules.target for t in totals.values()):
            return Verdict(False)
        best = max(totals.values())
        return Verdict(True, tuple(n for n, t in totals.items() if t == best))

    def rank_key(self, standing: StandingFacts) -> tuple[float | Fraction, ...]:
        """How the standings are ordered (smallest first); equal keys share a rank."""
        total = float(standing.total)
        return (total,) if self.lower_is_better else (-total,)

    # -- what the CLI and the screen show --

    def total_text(self, standing: StandingFacts) -> str:
        """A standing's score as the method counts it, in a few characters."""
        return str(standing.total)

    def total_note(self, standing: StandingFacts) -> str:
        """A few words beside the total where the method has more to say ("" for none)."""
        return ""

    def columns(self) -> tuple[Column, ...]:
        """The columns of the CLI's standings table between the name and the target."""
        return (_points_column(),)

    def round_line(self, game: GameSoFar, index: int) -> str:
        """One line saying what round `index` (0-based) gave, printed after it is saved."""
        score = game.score_of(index)
        scored = {n: p for n, p in score.points.items() if p}
        return _("Points this round: {points}.").format(
            points=", ".join(f"{n} {p}" for n, p in scored.items()) or "0")

    def next_line(self, game: GameSoFar) -> str:
        """What happens next, while the game is on."""
        return _("Next round: {dealer} deals, {starter} starts.").format(
            dealer=game.dealer, starter=game.starter)

    def round_cell(self, game: GameSoFar, index: int, entrant: str) -> str:
        """An entrant's cell in a row of the history (CLI and screen): points by default."""
        return str(game.scores[index].points.get(entrant, 0))


def check_regulation(method: ScoringMethod, chosen: Sequence[str]) -> None:
    """The one place of rule 2.4.8: a regulated method takes no option and no house rule
    (`Rules.make` asks it for the options, `house_rules.check` for the house rules)."""
    if method.regulated and chosen:
        raise RulesError(
            _("the championship's regulation fixes its rules and allows no other (rule "
              "2.4.8): leave out {keys}").format(keys=", ".join(chosen))
        )
