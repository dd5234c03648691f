"""The game model: players in their seats, rounds, totals, dealer, undo and redo, edits.

Pure code on frozen values: every operation returns a new `Game` or raises `GameError` with a
one-sentence message for the person at the table. The store persists what these operations
decide; the screen and the CLI only ask.

A round keeps what was entered (who went out and each player's cards or counted points), not
the points it gave: points are derived from the rules, so editing a round or renaming a player
never leaves stale totals behind.

What a round records, who deals next, when the game is over and how the standings are
ordered are the scoring method's to say (`companion.scoring`): the model asks `rules.method`
and never branches on which method it is.

Seating: `players` is in seating order, each next player sitting to the left of the previous.
The first dealer is the first player unless the table chose another (`first_dealer`, by the
highest-card draw or by hand); by default the deal passes left and play starts left of the
dealer (the method may say otherwise). Every deal starts clockwise; a Reverse during the
deal in play turns the direction (`reverse`, kept only for the round in play).

Beside the scoring rules a game keeps the house rules the table chose (`house_rules`,
checked by `companion.table.house_rules`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from types import MappingProxyType

from companion.deck.cards import Card, CardError, format_cards, parse_card
from companion.deck.editions import BLANK, BLANK_VALUE, Edition, get_edition
from companion.scoring import (
    Entrant,
    Entry,
    RoundScore,
    Rules,
    RulesError,
    ScoringMethod,
    Verdict,
    hand_value,
    score_round,
)
from companion.scoring import options as scoring_options

# `check_name` stays importable from here: the one check of names lives in companion.table.names.
from companion.table.names import check_name, check_seat, check_unique, name_key
from companion.table.turns import Direction, Seating
from showdown.contract.errors import GameError
from showdown.contract.i18n import _
from showdown.contract.record import field, record, replace

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:  # fractions only in annotations: a Pi pays for every import at start
    from fractions import Fraction
    from typing import Any, TypeVar, overload

    T = TypeVar("T")
else:
    T = object  # any item: only type checkers tell items apart

MAX_PLAYERS = 10
#: The most points one hand can be counted as: a whole classic deck is worth 1,360, so a
#: number above this is a typing slip (and would not fit the games file as an integer).
MAX_HAND_POINTS = 9999
#: The card whose deck has showdown cards (the symbol on coloured cards is not in the notation).
WILD_SHOWDOWN = parse_card("showdown")


class _AsGameError:
    """A rule the method refuses is, to the table, an operation the game does not allow.
    A class, not a `contextlib.contextmanager`: a `game` command would import contextlib
    for it alone (`companion.store.games_file` says what that costs)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: object) -> None:
        if isinstance(exc, RulesError):
            raise GameError(str(exc)) from None


@record
class Hand:
    """What one player had left: the cards, or only their counted value (tables that count)."""

    cards: tuple[Card, ...] | None = None
    counted: int | None = None

    @property
    def is_empty(self) -> bool:
        if self.cards is not None:
            return not self.cards
        return self.counted == 0

    @property
    def text(self) -> str:
        return format_cards(self.cards) if self.cards is not None else str(self.counted)


EMPTY_HAND = Hand(cards=())


@record
class Round:
    """One round as entered: who went out, and what the method records besides.

    `hands`: every player's hand, for methods that count hands (empty otherwise). `order`:
    the finishing order, first out first, for methods that record one. `out_on`: the card
    the winner went out on, where an option makes it count (H2O). `showdown_out`: the winner
    went out on a showdown card and won its duel (UNO Showdown: they had to, for the round
    to stand).
    """

    winner: str
    hands: Mapping[str, Hand]
    played_at: str = ""  # wall-clock ISO time, stamped by the edge that saves it
    order: tuple[str, ...] = ()
    out_on: Card | None = None
    showdown_out: bool = False


@record
class Player:
    name: str
    joined_round: int = 0  # rounds already played when they sat down
    team: int | None = None  # team number for the teams method


@record
class Standing:
    """One line of the standings, in rank order.

    `name` is a player, or a team ("Ann & Cid") under the teams method. `total` is what the
    method's rounds added up to (points; wins where it keeps no totals; hands emptied under
    seven-round UNO); `result` is a result beside it where the method keeps one (the
    championship's points ÷ rounds played), else None. The method says how they read.
    `progress` runs 0..1 toward the target (0 without one). `status` is "winner", "loser"
    or "" once the game is over.
    """

    name: str
    members: tuple[str, ...]
    total: int
    rank: int
    is_leader: bool
    is_dealer: bool
    progress: float
    rounds_played: int
    wins: int
    losses: int
    result: Fraction | None = None
    status: str = ""


@record
class HistoryRow:
    """One round for the history table: entrant points and player hand values."""

    number: int  # 1-based
    winner: str
    loser: str | None
    dealer: str
    points: Mapping[str, int]
    hand_values: Mapping[str, int]
    hands: Mapping[str, str]  # the hands in card notation (or counted points)
    played_at: str
    #: Each entrant's cell as the method shows it (points, or a place in the finishing order).
    cells: Mapping[str, str] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    out_on: str | None = None
    showdown_out: bool = False


@record
class Tally:
    """What the standings, the dealer and the game's end need of the rounds played.

    Carried from round to round (O(entrants) per round, whatever the game's length), and
    kept by the store beside the game, so a game can be opened and a round added without
    reading every round ever played. Always the same as a count over the rounds.
    """

    rounds: int
    totals: Mapping[str, int]
    wins: Mapping[str, int]
    losses: Mapping[str, int]
    dealer: str  # who deals the next round
    last_score: RoundScore | None = None  # the newest round's

    def after(self, entrant_of_winner: str, score: RoundScore, loser_entrant: str | None,
              dealer: str) -> Tally:
        """The tally with one more round: its winner's entrant, its score, the next dealer."""
        totals = dict(self.totals)
        for name, pts in score.points.items():
            totals[name] = totals.get(name, 0) + pts
        wins = dict(self.wins)
        wins[entrant_of_winner] = wins.get(entrant_of_winner, 0) + 1
        losses = dict(self.losses)
        if loser_entrant is not None:
            losses[loser_entrant] = losses.get(loser_entrant, 0) + 1
        return Tally(self.rounds + 1, MappingProxyType(totals), MappingProxyType(wins),
                     MappingProxyType(losses), dealer, score)


class LazyRounds(Sequence[Round]):
    """A game's rounds read from the file only when someone looks before the newest ones.

    `count` rounds are in the file (read by `load` on first need); `tail` holds rounds
    added since, in memory. Its length and its newest rounds cost nothing, so a round can
    be added to a long game without reading the game's history.
    """

    def __init__(self, count: int, load: Callable[[], Sequence[Round]],
                 tail: tuple[Round, ...] = (), cache: list[tuple[Round, ...]] | None = None,
                 *, last: Round | None = None):
        """`last`: the newest round in the file, read beforehand (who went out last)."""
        self._count = count
        self._load = load
        self._tail = tail
        self._cache = cache if cache is not None else []  # shared with what it grows into
        self._last = last

    def _stored(self) -> tuple[Round, ...]:
        if not self._cache:
            rounds = tuple(self._load())
            if len(rounds) != self._count:
                raise GameError(_("the game changed in the file while it was read: "
                                  "try again"))
            self._cache.append(rounds)
        return self._cache[0]

    def __len__(self) -> int:
        return self._count + len(self._tail)

    if TYPE_CHECKING:  # overloads tell type checkers only
        @overload
        def __getitem__(self, index: int) -> Round: ...

        @overload
        def __getitem__(self, index: slice) -> tuple[Round, ...]: ...

    def __getitem__(self, index: int | slice) -> Round | tuple[Round, ...]:
        if isinstance(index, int):
            size = len(self)
            i = index + size if index < 0 else index
            if not 0 <= i < size:
                raise IndexError(index)
            if i >= self._count:
                return self._tail[i - self._count]
            if i == self._count - 1 and self._last is not None and not self._cache:
                return self._last
        return (self._stored() + self._tail)[index]

    def __iter__(self) -> Iterator[Round]:
        return iter(self._stored() + self._tail)

    def appended(self, rnd: Round) -> LazyRounds:
        """These rounds and one more (still without reading the file)."""
        return LazyRounds(self._count, self._load, (*self._tail, rnd), self._cache,
                          last=self._last)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyRounds | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"LazyRounds({len(self)} rounds, {len(self._tail)} in memory)"


def _appended(items: Sequence[T], item: T) -> Sequence[T]:
    """`items` and one more: rounds without reading those still in the file, and what is
    being added round after round (`_Growing`) without copying all of it each time."""
    if isinstance(items, LazyRounds | _Growing):
        return items.appended(item)
    return (*items, item)


class _Growing(Sequence[T]):
    """Rounds (and their scores and dealers) being added one after another by
    `Game.add_rounds`: each step shares one list and appends to it, where a tuple would be
    copied whole every time (an import of 20,000 rounds copied 200 million references).
    A view is the first `len` items of the list."""

    def __init__(self, items: Iterable[T], shared: list[T] | None = None,
                 length: int | None = None) -> None:
        self._list = shared if shared is not None else list(items)
        self._len = len(self._list) if length is None else length

    def __len__(self) -> int:
        return self._len

    if TYPE_CHECKING:  # overloads tell type checkers only
        @overload
        def __getitem__(self, index: int) -> T: ...

        @overload
        def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._list[i] for i in range(*index.indices(self._len)))
        i = index + self._len if index < 0 else index
        if not 0 <= i < self._len:
            raise IndexError(index)
        return self._list[i]

    def appended(self, item: T) -> _Growing[T]:
        if len(self._list) != self._len:  # an older view grows: it gets a list of its own
            return _Growing([*self._list[: self._len], item])
        self._list.append(item)
        return _Growing((), self._list, self._len + 1)


def seat_players(method: ScoringMethod, names: Sequence[str]) -> tuple[Player, ...]:
    """Seat the players of a new game as the method seats them (teams pair partners
    opposite each other), and check the table's size against the method's limits."""
    with _AsGameError():
        players = tuple(Player(n, 0, team) for n, team in method.seat(names, check_name))
        method.check_players(len(players))
    check_unique(p.name for p in players)
    return players


def check_roster(method: ScoringMethod, players: Sequence[Player], rounds: int
                 ) -> tuple[Player, ...]:
    """Players as a game of `rounds` rounds (undone ones too) may hold them; names made clean.

    For a game that did not start at this table (an imported file): every rule a live game
    keeps for its players is checked here, as `seat_players` and `add_player` check them one
    at a time. Names pass `check_name` and are unique; the players who sat down at the start
    are a table the method takes, seated as the method seats them (under the teams method,
    teams of two partners sitting opposite; under any other, no teams); late joiners joined
    after a round that was played, each one a player the method lets join.
    """
    clean = tuple(replace(p, name=check_name(p.name)) for p in players)
    check_unique(p.name for p in clean)
    founders = [p for p in clean if p.joined_round == 0]
    with _AsGameError():
        if len(founders) < len(clean):
            method.check_late_joiner()
        method.check_players(len(founders))
        method.check_players(len(clean))
        expected = method.seat([p.name for p in founders], check_name)
    for p in clean:
        if not 0 <= p.joined_round <= rounds:
            raise GameError(
                _("{name} joined after round {n}, but the game has {count} rounds: check "
                  "when they joined").format(name=p.name, n=p.joined_round, count=rounds)
            )
    if all(team is None for _name, team in expected):
        teamed = next((p for p in clean if p.team is not None), None)
        if teamed is not None:
            raise GameError(
                _("{name} is in a team, but only the teams method has teams: leave the team "
                  "out").format(name=teamed.name)
            )
    elif _teams_of(founders) != _teams_of(Player(n, 0, t) for n, t in expected):
        raise GameError(
            _("the teams method needs teams of exactly two partners sitting opposite each "
              "other: check the players' teams and seats")
        )
    return clean


def _teams_of(players: Iterable[Player]) -> set[frozenset[str]] | None:
    """Who plays with whom, whatever the teams are numbered; None if someone has no team."""
    teams: dict[int, set[str]] = {}
    for p in players:
        if p.team is None:
            return None
        teams.setdefault(p.team, set()).add(p.name)
    return {frozenset(members) for members in teams.values()}


@record
class RoundEntry:
    """A round as typed or read from a file, before the model checks it (`Game.add_rounds`)."""

    winner: str | None
    hands: Mapping[str, Hand]
    played_at: str = ""
    order: tuple[str, ...] = ()
    out_on: Card | None = None
    showdown_out: bool = False


@record(slots=False)
class Game:
    """A game at one table; see the module docstring. Derived values are cached per value."""

    edition_key: str
    rules: Rules
    players: tuple[Player, ...]
    #: The rounds played: a tuple, or `LazyRounds` when opened from the file for one change.
    rounds: Sequence[Round] = ()
    undone: tuple[Round, ...] = ()  # the redo stack: the most recently undone round last
    id: int | None = None
    created_at: str = ""
    extra: Mapping[str, str] = field(default_factory=dict)
    #: How many changes the game has had. Every operation below returns the next revision;
    #: the store writes a change only over the revision it came from, so a change made from
    #: a stale copy (another screen, the CLI) is refused instead of overwriting that work.
    revision: int = field(default=0, compare=False)
    #: The house rules in force (keys of `companion.table.house_rules.HOUSE_RULES`).
    house_rules: frozenset[str] = frozenset()
    #: Who dealt the first round, when the table chose (None: the first player).
    first_dealer: str | None = None
    #: The round (0-based) whose play goes counter-clockwise after a Reverse; any other
    #: round goes clockwise. Table state of the deal in play, so not compared or exported.
    reversed_round: int | None = field(default=None, compare=False)
    #: The rounds (1-based numbers) held out of the game's end: a championship's director
    #: holds or voids them, and until a round counts again it does not take anyone to the
    #: target (rule 2.1) nor toward it (the standings' progress), though it stays in the
    #: rounds and the totals as entered.
    held: frozenset[int] = field(default=frozenset(), compare=False)

    @classmethod
    def new(
        cls,
        edition: str,
        rules: Rules,
        names: Sequence[str],
        *,
        created_at: str = "",
        house_rules: Iterable[str] = (),
        first_dealer: str | None = None,
    ) -> Game:
        # The house rules' tables: checked here, for a new game only (a game read back
        # from the file was checked when it was made).
        from companion.table import house_rules as house

        ed = get_edition(edition)
        with _AsGameError():
            scoring_options.check_edition(rules, ed)
            house.check_deck(ed.key, rules.method.key)
            chosen = house.check(ed.key, rules.method.key, house_rules)
        game = cls(ed.key, rules, seat_players(rules.method, names), created_at=created_at,
                   house_rules=chosen)
        if first_dealer is not None and first_dealer.strip():
            game = replace(game, first_dealer=game.player(first_dealer).name)
        return game

    # -- who plays --

    @cached_property
    def edition(self) -> Edition:
        return get_edition(self.edition_key)

    def hand_cards(self) -> tuple[Card, ...]:
        """The cards a hand in this game can hold: the deck's, and its blank cards only
        under the blank_plus_ten house rule (otherwise they stay in the box)."""
        return tuple(c for c in self.edition.cards()
                     if c != BLANK or "blank_plus_ten" in self.house_rules)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def player(self, name: str) -> Player:
        """Find a player by name, ignoring case; GameError names the players if there is none."""
        key = name_key(name)
        for p in self.players:
            if name_key(p.name) == key:
                return p
        raise GameError(
            _("there is no player {name!r} in this game: the players are {names}").format(
                name=name.strip(), names=", ".join(self.names)
            )
        )

    def seated_in(self, index: int) -> list[str]:
        """The players taking part in round `index` (0-based), in seating order."""
        return [p.name for p in self.players if p.joined_round <= index]

    @cached_property
    def entrants(self) -> tuple[Entrant, ...]:
        return self.rules.method.entrants(self.players)

    def entrant_of(self, player: str) -> Entrant:
        return next(e for e in self.entrants if player in e.members)

    # -- rounds --

    @property
    def blank_value(self) -> int:
        """What a blank card left in a hand is worth here (the `blank_worth` setting)."""
        if not self.house_rules:  # most games: no need to load the house rules' tables
            return BLANK_VALUE
        from companion.table.house_rules import blank_worth

        return blank_worth(self.house_rules)

    def value_of(self, hand: Hand) -> int:
        if hand.cards is None:
            return hand.counted or 0
        return hand_value(hand.cards, self.rules, self.blank_value)

    def make_round(
        self, index: int, winner: str | None, hands: Mapping[str, Hand], played_at: str = "",
        *, order: Sequence[str] = (), out_on: Card | None = None, showdown_out: bool = False,
    ) -> Round:
        """Check a round entered for position `index` (0-based) and return it in canonical form.

        What a round needs is the method's `entry`: who went out and every other hand, a
        finishing order (`order`, first out first; the last player may be left out), or only
        who went out. `out_on` is the card the winner went out on (H2O option only);
        `showdown_out` says they went out on a showdown card and won its duel.
        """
        seated = self.seated_in(index)
        entry = self.rules.method.entry
        if showdown_out and not self.edition.holds(WILD_SHOWDOWN):
            raise GameError(
                _("only the UNO Showdown deck has showdown cards to go out on: leave the "
                  "showdown out")
            )
        if entry is Entry.ORDER:
            if hands:
                raise GameError(self._no_hands_message())
            if out_on is not None:
                with _AsGameError():
                    scoring_options.check_out_on(self.rules, out_on)
            ranked = self._check_order(index, seated, winner, order)
            return Round(ranked[0], MappingProxyType({}), played_at, ranked,
                         showdown_out=showdown_out)
        if order:
            raise GameError(
                _("«{method}» records who went out, not a finishing order: leave the order "
                  "out").format(method=_(self.rules.method.label))
            )
        if winner is None or not winner.strip():
            raise GameError(_("say who went out: choose the player who emptied their hand"))
        win = self._took_part(index, winner, seated)
        with _AsGameError():
            scoring_options.check_out_on(self.rules, out_on)
        if entry is Entry.WINNER:
            if hands:
                raise GameError(self._no_hands_message())
            return Round(win, MappingProxyType({}), played_at, showdown_out=showdown_out)
        given = self._check_hands(index, win, hands, seated)
        everything: list[Card] = [out_on] if out_on is not None else []
        edition = self.edition
        for name in seated:
            cards = given[name].cards
            if cards is not None:
                edition.check(cards, name)
                everything.extend(cards)
        try:
            edition.check(everything, whole_round=True)
        except CardError as exc:
            raise GameError(str(exc)) from None
        if BLANK in everything and "blank_plus_ten" not in self.house_rules:
            raise GameError(
                _("the blank cards are played only under the blank_plus_ten house rule, which "
                  "this game does not have: check the hands")
            )
        ordered = {name: given[name] for name in seated}
        return Round(win, MappingProxyType(ordered), played_at, (), out_on, showdown_out)

    def _no_hands_message(self) -> str:
        return _("«{method}» counts no hands: leave the cards and points out").format(
            method=_(self.rules.method.label))

    def _took_part(self, index: int, name: str, seated: Sequence[str]) -> str:
        """The player's name as seated, if they took part in round `index`."""
        found = self.player(name).name
        if found not in seated:
            raise GameError(
                _("{name} had not joined yet in round {n}: choose a player who took part").format(
                    name=found, n=index + 1
                )
            )
        return found

    def _check_order(self, index: int, seated: Sequence[str], winner: str | None,
                     order: Sequence[str]) -> tuple[str, ...]:
        """A finishing order naming every player of the round once, first out first.

        The last player may be left out: whoever is left holding cards is last.
        """
        ranked: list[str] = []
        for raw in order:
            name = self._took_part(index, raw, seated)
            if name in ranked:
                raise GameError(
                    _("{name} is in the finishing order twice: give each player once").format(
                        name=name)
                )
            ranked.append(name)
        missing = [n for n in seated if n not in ranked]
        if len(missing) == 1:
            ranked += missing
        elif missing:
            raise GameError(
                _("the finishing order leaves out {names}: give the order in which every "
                  "player went out").format(names=", ".join(missing))
            )
        if winner is not None and winner.strip() and self.player(winner).name != ranked[0]:
            raise GameError(
                _("{name} went out first in the finishing order, not {winner}: give the "
                  "order again").format(name=ranked[0], winner=self.player(winner).name)
            )
        return tuple(ranked)

    def _check_hands(self, index: int, win: str, hands: Mapping[str, Hand],
                     seated: Sequence[str]) -> dict[str, Hand]:
        """Every hand of the round, each player's once, the winner's side empty."""
        given: dict[str, Hand] = {}
        for raw, hand in hands.items():
            name = self.player(raw).name
            if name in given:
                raise GameError(
                    _("{name}'s hand is given twice: give each player's hand once").format(
                        name=name
                    )
                )
            if name not in seated:
                raise GameError(
                    _("{name} had not joined yet in round {n}: leave their hand out").format(
                        name=name, n=index + 1
                    )
                )
            if hand.counted is not None and hand.counted < 0:
                raise GameError(
                    _("{name}'s points cannot be negative: give what the cards are worth").format(
                        name=name
                    )
                )
            if hand.counted is not None and hand.counted > MAX_HAND_POINTS:
                raise GameError(
                    _("{name}'s points cannot be more than {max}: give what the cards are "
                      "worth").format(name=name, max=MAX_HAND_POINTS)
                )
            given[name] = hand
        for name in self.entrant_of(win).members:
            hand = given.get(name, EMPTY_HAND)
            if not hand.is_empty:
                if name == win:
                    msg = _("{name} went out but still has cards: empty their hand "
                            "or choose the player who went out")
                else:
                    msg = _("{name} still has cards, and a team wins only when both partners "
                            "are out: empty their hand or choose the right winner")
                raise GameError(msg.format(name=name))
            given[name] = EMPTY_HAND if name not in given else hand
        for name in seated:
            if name not in given:
                raise GameError(
                    _("no cards or points given for {name}: say what {name} has left").format(
                        name=name
                    )
                )
        self._check_single_winner(win, given)
        return given

    def _check_single_winner(self, win: str, given: Mapping[str, Hand]) -> None:
        winning = self.entrant_of(win)
        for e in self.entrants:
            if e is winning:
                continue
            hands = [given[m] for m in e.members if m in given]
            if hands and all(h.cards is not None and h.is_empty for h in hands):
                if len(e.members) > 1:
                    msg = _("{other} and {winner} cannot both have gone out: only one team "
                            "wins a round, so give the other team's cards")
                    raise GameError(msg.format(other=e.name, winner=winning.name))
                msg = _("{other} and {winner} cannot both have gone out: only one player "
                        "wins a round, so give {other}'s cards")
                raise GameError(msg.format(other=e.name, winner=win))

    def add_round(
        self, winner: str | None, hands: Mapping[str, Hand] | None = None, played_at: str = "",
        *, order: Sequence[str] = (), out_on: Card | None = None, showdown_out: bool = False,
    ) -> Game:
        """Record the next round; this clears the redo stack."""
        if self.verdict.over:
            raise GameError(_("this game is over: start a new game to play on"))
        index = len(self.rounds)
        rnd = self.make_round(index, winner, hands or {}, played_at, order=order, out_on=out_on,
                              showdown_out=showdown_out)
        new = replace(self, rounds=_appended(self.rounds, rnd), undone=(),
                      revision=self.revision + 1)
        # Carry what is derived over: O(entrants) per round, not O(rounds).
        score = new._score(index)
        if "scores" in self.__dict__:
            new.__dict__["scores"] = _appended(self.scores, score)
        new.__dict__["last_score"] = score
        dealer = self.rules.method.next_dealer(new, index, self.dealer)
        if "dealers" in self.__dict__:
            new.__dict__["dealers"] = _appended(self.dealers, dealer)
        new.__dict__["tally"] = self.tally.after(
            self.entrant_of(rnd.winner).name, score,
            self.entrant_of(score.loser).name if score.loser is not None else None,
            dealer)
        return new

    def add_rounds(self, entries: Iterable[RoundEntry]) -> Game:
        """Record rounds in order, each checked as a live round is (`add_round`); what an
        import replays. The rounds are gathered in a list and become the game's once, so
        thousands of them cost each the same."""
        game = replace(self, rounds=_Growing(self.rounds))
        for name in ("scores", "dealers"):  # derived once, then grown the same way
            game.__dict__[name] = _Growing(getattr(game, name))
        for e in entries:
            game = game.add_round(e.winner, e.hands, e.played_at, order=e.order,
                                  out_on=e.out_on, showdown_out=e.showdown_out)
        final = replace(game, rounds=tuple(game.rounds))
        for name, value in game.__dict__.items():
            if name in ("scores", "dealers"):
                final.__dict__[name] = tuple(value)
            elif name in ("last_score", "tally"):
                final.__dict__[name] = value
        return final

    def edit_round(
        self, number: int, winner: str | None, hands: Mapping[str, Hand] | None = None,
        *, order: Sequence[str] = (), out_on: Card | None = None, showdown_out: bool = False,
    ) -> Game:
        """Replace round `number` (1-based) with corrected input, keeping when it was played."""
        if not 1 <= number <= len(self.rounds):
            raise GameError(
                _("there is no round {n}: this game has {count} rounds").format(
                    n=number, count=len(self.rounds)
                )
            )
        old = self.rounds[number - 1]
        rnd = self.make_round(number - 1, winner, hands or {}, old.played_at,
                              order=order, out_on=out_on, showdown_out=showdown_out)
        rounds = list(self.rounds)
        rounds[number - 1] = rnd
        return replace(self, rounds=tuple(rounds), revision=self.revision + 1)

    def undo(self) -> Game:
        if not self.rounds:
            raise GameError(_("there is no round to undo"))
        return replace(self, rounds=self.rounds[:-1], undone=(*self.undone, self.rounds[-1]),
                       revision=self.revision + 1)

    def redo(self) -> Game:
        if not self.undone:
            raise GameError(_("there is no undone round to redo"))
        return replace(self, rounds=(*self.rounds, self.undone[-1]), undone=self.undone[:-1],
                       revision=self.revision + 1)

    # -- players --

    def rename(self, old: str, new: str) -> Game:
        was = self.player(old).name
        name = check_name(new)
        if name_key(name) != name_key(was) and any(
            name_key(p.name) == name_key(name) for p in self.players
        ):
            raise GameError(
                _("{name} is already playing: choose another name").format(name=name)
            )

        def fix(rnd: Round) -> Round:
            hands = {(name if k == was else k): v for k, v in rnd.hands.items()}
            return Round(name if rnd.winner == was else rnd.winner,
                         MappingProxyType(hands), rnd.played_at,
                         tuple(name if k == was else k for k in rnd.order), rnd.out_on,
                         rnd.showdown_out)

        players = tuple(replace(p, name=name) if p.name == was else p for p in self.players)
        return replace(
            self,
            players=players,
            rounds=tuple(fix(r) for r in self.rounds),
            undone=tuple(fix(r) for r in self.undone),
            revision=self.revision + 1,
            first_dealer=name if self.first_dealer == was else self.first_dealer,
        )

    def add_player(self, name: str, seat: int | None = None) -> Game:
        """A late joiner: plays from the next round, starting from 0, seated at `seat`.

        `seat` is a position in the seating order (0 = first); the default is the last seat.
        The redo stack is cleared, because undone rounds were played without them.
        """
        with _AsGameError():
            self.rules.method.check_late_joiner()
        clean = check_name(name)
        if any(name_key(p.name) == name_key(clean) for p in self.players):
            raise GameError(_("{name} is already playing: choose another name").format(name=clean))
        with _AsGameError():
            self.rules.method.check_players(len(self.players) + 1)
        if self.verdict.over:
            raise GameError(_("this game is over: start a new game to play on"))
        position = len(self.players) if seat is None else check_seat(seat, len(self.players))
        players = list(self.players)
        players.insert(position, Player(clean, len(self.rounds)))
        return replace(self, players=tuple(players), undone=(), revision=self.revision + 1)

    # -- derived --

    def _score(self, index: int) -> RoundScore:
        rnd = self.rounds[index]
        values = {name: self.value_of(h) for name, h in rnd.hands.items()}
        return score_round(self.rules, self.entrants, rnd.winner, values, self.seated_in(index),
                           order=rnd.order, out_on=rnd.out_on)

    @cached_property
    def scores(self) -> tuple[RoundScore, ...]:
        """Each round's points, derived from what was entered."""
        return tuple(self._score(i) for i in range(len(self.rounds)))

    @cached_property
    def dealers(self) -> tuple[str, ...]:
        """The dealer of every round played, and of the next round (one more than rounds)."""
        dealers = [self._first_dealer()]
        method = self.rules.method
        for i in range(len(self.rounds)):
            dealers.append(method.next_dealer(self, i, dealers[-1]))
        return tuple(dealers)

    def _first_dealer(self) -> str:
        """Who dealt the first round: the one the table chose, else the first player."""
        return self.first_dealer or (self.seated_in(0)[0] if self.players else "")

    def score_of(self, index: int) -> RoundScore:
        """Round `index`'s score (0-based), without scoring every round for the newest one
        (the scoring methods ask this for the round just added)."""
        if "scores" not in self.__dict__ and index == len(self.rounds) - 1:
            last = self.__dict__.get("last_score")
            if last is None and "tally" in self.__dict__:
                last = self.tally.last_score
            if last is not None:
                score: RoundScore = last
                return score
        return self.scores[index]

    @cached_property
    def tally(self) -> Tally:
        """The running sums of all rounds (see `Tally`); carried over by `add_round`."""
        zero = {e.name: 0 for e in self.entrants}
        tally = Tally(0, MappingProxyType(zero), MappingProxyType(zero),
                      MappingProxyType(zero), self._first_dealer())
        for rnd, score, dealer in zip(self.rounds, self.scores, self.dealers[1:], strict=True):
            tally = tally.after(
                self.entrant_of(rnd.winner).name, score,
                self.entrant_of(score.loser).name if score.loser is not None else None,
                dealer)
        return tally

    def left_of(self, name: str, index: int) -> str:
        """The next player to `name`'s left who takes part in round `index` (0-based)."""
        seated = self.seated_in(index)
        order = [p.name for p in self.players]
        i = order.index(name) if name in order else -1
        for step in range(1, len(order) + 1):
            candidate = order[(i + step) % len(order)]
            if candidate in seated:
                return candidate
        return seated[0]

    @property
    def dealer(self) -> str:
        """Who deals the next round."""
        return self.tally.dealer

    @property
    def starter(self) -> str:
        """Who plays first in the next round."""
        return self.rules.method.starter(self)

    # -- the deal in play --

    @property
    def direction(self) -> Direction:
        """Which way play goes in the round in play: clockwise unless a Reverse turned it."""
        if self.reversed_round is not None and self.reversed_round == len(self.rounds):
            return Direction.COUNTERCLOCKWISE
        return Direction.CLOCKWISE

    def set_direction(self, direction: Direction) -> Game:
        """The game with play in the round in play going `direction`."""
        if direction is self.direction:
            return self
        reversed_round = (len(self.rounds) if direction is Direction.COUNTERCLOCKWISE
                          else None)
        return self._with_table(reversed_round=reversed_round)

    def reverse(self) -> Game:
        """A Reverse was played: the direction of the round in play turns."""
        return self.set_direction(self.direction.reversed())

    @property
    def seating(self) -> Seating:
        """The players of the round in play, clockwise, and the way play goes now."""
        return Seating(tuple(self.seated_in(len(self.rounds))), self.direction)

    def set_first_dealer(self, name: str) -> Game:
        """Say who dealt the first round (before it is played)."""
        if self.rounds:
            raise GameError(
                _("the first round has been played, so its dealer is known: undo the rounds "
                  "to choose another")
            )
        return replace(self, first_dealer=self.player(name).name, revision=self.revision + 1)

    def _with_table(self, **changes: Any) -> Game:
        """The game with the table's state changed: the rounds, scores and tally stay as they
        are (carried over, so a long game need not be read again for a Reverse)."""
        new = replace(self, revision=self.revision + 1, **changes)
        for derived in ("scores", "last_score", "dealers", "tally"):
            if derived in self.__dict__:
                new.__dict__[derived] = self.__dict__[derived]
        return new

    @cached_property
    def totals(self) -> dict[str, int]:
        return {e.name: self.tally.totals.get(e.name, 0) for e in self.entrants}

    @cached_property
    def rounds_played(self) -> dict[str, int]:
        played = {e.name: 0 for e in self.entrants}
        for e in self.entrants:
            first = min(self.player(m).joined_round for m in e.members)
            played[e.name] = max(0, len(self.rounds) - first)
        return played

    @cached_property
    def results(self) -> dict[str, Fraction | None]:
        """Each entrant's result beside the total, where the method keeps one (else None)."""
        method = self.rules.method
        return {n: method.result(t, self.rounds_played[n]) for n, t in self.totals.items()}

    @cached_property
    def verdict(self) -> Verdict:
        """Whether the game is over (and who won) by its method, over the rounds that count:
        a held round (`held`) takes nobody to the target."""
        return self.rules.method.verdict(self.rules, self.counted_totals, self.results)

    @property
    def counted_totals(self) -> dict[str, int]:
        """Each entrant's total without the held rounds' points: what ends the game."""
        totals = self.totals
        if not self.held:
            return totals
        totals = dict(totals)
        for number in self.held:
            if 1 <= number <= len(self.rounds):
                for name, points in self.score_of(number - 1).points.items():
                    totals[name] = totals.get(name, 0) - points
        return totals

    def next_game(self, created_at: str = "") -> Game:
        """The table's next game once this one ended inside a time box: the same edition,
        rules, house rules and players in the same seats, turned so that the player the rules
        name to deal next deals first (the one who went out, under the championship's
        rules)."""
        names = self.names
        first = names.index(self.dealer) if self.dealer in names else 0
        return Game.new(self.edition_key, self.rules, names[first:] + names[:first],
                        created_at=created_at, house_rules=self.house_rules)

    def series(self) -> dict[str, list[int]]:
        """Each entrant's cumulative total after every round, for a chart."""
        running = {e.name: 0 for e in self.entrants}
        out: dict[str, list[int]] = {e.name: [] for e in self.entrants}
        for score in self.scores:
            for name in running:
                running[name] += score.points.get(name, 0)
                out[name].append(running[name])
        return out

    def standings(self) -> list[Standing]:
        """One line per entrant, in the method's rank order; equal keys share a rank."""
        totals, played, results = self.totals, self.rounds_played, self.results
        wins = {e.name: self.tally.wins.get(e.name, 0) for e in self.entrants}
        losses = {e.name: self.tally.losses.get(e.name, 0) for e in self.entrants}
        method = self.rules.method
        verdict = self.verdict
        # the dealer's mark only where someone deals the next round
        dealer = self.dealer if method.deals_every_round or not self.rounds else None
        target = self.rules.target
        counted = self.counted_totals  # a held round takes nobody toward the target
        lines = [
            Standing(
                name=e.name,
                members=e.members,
                total=totals[e.name],
                rank=0,
                is_leader=False,
                is_dealer=dealer in e.members,
                progress=max(0.0, min(1.0, counted[e.name] / target)) if target else 0.0,
                rounds_played=played[e.name],
                wins=wins[e.name],
                losses=losses[e.name],
                result=results[e.name],
                status=("winner" if e.name in verdict.winners
                        else "loser" if e.name in verdict.losers else ""),
            )
            for e in self.entrants
        ]
        lines.sort(key=method.rank_key)
        out: list[Standing] = []
        rank = 0
        previous: tuple[float | Fraction, ...] | None = None
        for i, line in enumerate(lines):
            k = method.rank_key(line)
            if k != previous:
                rank, previous = i + 1, k
            out.append(replace(line, rank=rank, is_leader=rank == 1 and bool(self.rounds)))
        return out

    def history(self) -> list[HistoryRow]:
        method = self.rules.method
        rows = []
        for i, (rnd, score) in enumerate(zip(self.rounds, self.scores, strict=True)):
            rows.append(
                HistoryRow(
                    number=i + 1,
                    winner=rnd.winner,
                    loser=score.loser,
                    dealer=self.dealers[i],
                    points=MappingProxyType(dict(score.points)),
                    hand_values=MappingProxyType(dict(score.hand_values)),
                    hands=MappingProxyType({n: h.text for n, h in rnd.hands.items()}),
                    played_at=rnd.played_at,
                    cells=MappingProxyType({e.name: method.round_cell(self, i, e.name)
                                            for e in self.entrants}),
                    order=rnd.order,
                    out_on=rnd.out_on.code if rnd.out_on is not None else None,
                    showdown_out=rnd.showdown_out,
                )
            )
        return rows
