"""The game model: players in their seats, rounds, totals, dealer, undo and redo, edits.

Pure code on frozen values: every operation returns a new `Game` or raises `GameError` with a
one-sentence message for the person at the table. The store persists what these operations
decide; the screen and the CLI only ask.

A round keeps what was entered (who went out and each player's cards or counted points), not
the points it gave: points are derived from the rules, so editing a round or renaming a player
never leaves stale totals behind.

Seating: `players` is in seating order, each next player sitting to the left of the previous.
The first dealer is the first player. The deal passes left, except in the championship (the
winner of the last round deals) and the lazy method (the loser deals, the winner starts).
Play starts left of the dealer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, overload

from companion.cards import Card, CardError, format_cards
from companion.editions import Edition, get_edition
from companion.errors import CompanionError
from companion.i18n import _
from companion.scoring import (
    Entrant,
    Method,
    RoundScore,
    Rules,
    Verdict,
    championship_result,
    game_verdict,
    hand_value,
    score_round,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 10
#: The most points one hand can be counted as: a whole classic deck is worth 1,360, so a
#: number above this is a typing slip (and would not fit the games file as an integer).
MAX_HAND_POINTS = 9999
_FORBIDDEN_IN_NAMES = ":,+"


class GameError(CompanionError):
    """An operation the rules or the table's state do not allow; the message says what to do."""


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class Round:
    """One round as entered: who went out, and the hand of every player who took part."""

    winner: str
    hands: Mapping[str, Hand]
    played_at: str = ""  # wall-clock ISO time, stamped by the edge that saves it


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    joined_round: int = 0  # rounds already played when they sat down
    team: int | None = None  # team number for the teams method


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings, in rank order.

    `name` is a player, or a team ("Ann & Cid") under the teams method. `total` is points
    (wins under the lazy method); `result` is the championship's points ÷ rounds played.
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
    result: float | None = None
    status: str = ""


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
    last_winner: str | None = None
    last_score: RoundScore | None = None

    def after(self, entrant_of_winner: str, score: RoundScore, loser_entrant: str | None,
              winner: str, dealer: str) -> Tally:
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
                     MappingProxyType(losses), dealer, winner, score)

    def to_json(self) -> dict[str, object]:
        score = self.last_score
        return {
            "rounds": self.rounds, "totals": dict(self.totals), "wins": dict(self.wins),
            "losses": dict(self.losses), "dealer": self.dealer, "last_winner": self.last_winner,
            "last_score": None if score is None else {
                "points": dict(score.points), "loser": score.loser,
                "hand_values": dict(score.hand_values)},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        score = data.get("last_score")
        return cls(
            int(data["rounds"]), MappingProxyType(dict(data["totals"])),
            MappingProxyType(dict(data["wins"])), MappingProxyType(dict(data["losses"])),
            str(data["dealer"]), data.get("last_winner"),
            None if score is None else RoundScore(
                MappingProxyType(dict(score["points"])), score.get("loser"),
                MappingProxyType(dict(score.get("hand_values") or {}))),
        )


class LazyRounds(Sequence[Round]):
    """A game's rounds read from the file only when someone looks before the newest ones.

    `count` rounds are in the file (read by `load` on first need); `tail` holds rounds
    added since, in memory. Its length and its newest rounds cost nothing, so a round can
    be added to a long game without reading the game's history.
    """

    def __init__(self, count: int, load: Callable[[], Sequence[Round]],
                 tail: tuple[Round, ...] = (), cache: list[tuple[Round, ...]] | None = None):
        self._count = count
        self._load = load
        self._tail = tail
        self._cache = cache if cache is not None else []  # shared with what it grows into

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
        return (self._stored() + self._tail)[index]

    def __iter__(self) -> Iterator[Round]:
        return iter(self._stored() + self._tail)

    def appended(self, rnd: Round) -> LazyRounds:
        """These rounds and one more (still without reading the file)."""
        return LazyRounds(self._count, self._load, (*self._tail, rnd), self._cache)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyRounds | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"LazyRounds({len(self)} rounds, {len(self._tail)} in memory)"


def check_name(name: str) -> str:
    clean = " ".join(name.split())
    if not clean:
        raise GameError(_("a player's name cannot be empty"))
    if any(ch in clean for ch in _FORBIDDEN_IN_NAMES):
        raise GameError(
            _("{name!r} cannot be a player's name: leave out the characters : , +").format(
                name=clean
            )
        )
    return clean


def _appended(rounds: Sequence[Round], rnd: Round) -> Sequence[Round]:
    """`rounds` and one more, without reading rounds that are still in the file."""
    if isinstance(rounds, LazyRounds):
        return rounds.appended(rnd)
    return (*rounds, rnd)


def seat_players(method: Method, names: Sequence[str]) -> tuple[Player, ...]:
    """Seat the players of a new game; for teams, pair partners opposite each other.

    Teams are written `Ann+Cid,Bob+Dan` (seated Ann, Bob, Cid, Dan), or as a plain seating
    list where each player's partner sits opposite (`Ann,Bob,Cid,Dan`: Ann with Cid).
    """
    if method is Method.TEAMS:
        if any("+" in n for n in names):
            pairs = [tuple(check_name(p) for p in n.split("+")) for n in names]
            if any(len(p) != 2 for p in pairs):
                raise GameError(_("write each team as two names joined by +, e.g. Ann+Cid"))
            seated = [p[0] for p in pairs] + [p[1] for p in pairs]
        else:
            seated = [check_name(n) for n in names]
        if len(seated) % 2 or len(seated) < 4:
            raise GameError(
                _("the teams method needs two or more teams of two: give 4, 6, 8 or 10 players")
            )
        half = len(seated) // 2
        players = tuple(Player(n, 0, i % half) for i, n in enumerate(seated))
    else:
        players = tuple(Player(check_name(n)) for n in names)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise GameError(
            _("a game needs 2 to 10 players, not {n}: check the list of players").format(
                n=len(players)
            )
        )
    seen: set[str] = set()
    for p in players:
        if p.name.casefold() in seen:
            raise GameError(
                _("{name} is in the list twice: give each player a different name").format(
                    name=p.name
                )
            )
        seen.add(p.name.casefold())
    return players


@dataclass(frozen=True)
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

    @classmethod
    def new(
        cls,
        edition: str,
        rules: Rules,
        names: Sequence[str],
        *,
        created_at: str = "",
    ) -> Game:
        ed = get_edition(edition)
        return cls(ed.key, rules, seat_players(rules.method, names), created_at=created_at)

    # -- who plays --

    @cached_property
    def edition(self) -> Edition:
        return get_edition(self.edition_key)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def player(self, name: str) -> Player:
        """Find a player by name, ignoring case; GameError names the players if there is none."""
        key = " ".join(name.split()).casefold()
        for p in self.players:
            if p.name.casefold() == key:
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
        if self.rules.method is not Method.TEAMS:
            return tuple(Entrant(p.name, (p.name,)) for p in self.players)
        teams: dict[int, list[str]] = {}
        for p in self.players:
            teams.setdefault(p.team or 0, []).append(p.name)
        return tuple(Entrant(" & ".join(m), tuple(m)) for _, m in sorted(teams.items()))

    def entrant_of(self, player: str) -> Entrant:
        return next(e for e in self.entrants if player in e.members)

    # -- rounds --

    def value_of(self, hand: Hand) -> int:
        if hand.cards is None:
            return hand.counted or 0
        return hand_value(hand.cards, self.rules)

    def make_round(
        self, index: int, winner: str, hands: Mapping[str, Hand], played_at: str = ""
    ) -> Round:
        """Check a round entered for position `index` (0-based) and return it in canonical form."""
        seated = self.seated_in(index)
        win = self.player(winner).name
        if win not in seated:
            raise GameError(
                _("{name} had not joined yet in round {n}: choose a player who took part").format(
                    name=win, n=index + 1
                )
            )
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
        winners_side = self.entrant_of(win).members if self.rules.method is Method.TEAMS else (win,)
        for name in winners_side:
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
        edition = self.edition
        everything: list[Card] = []
        for name in seated:
            cards = given[name].cards
            if cards is not None:
                edition.check(cards, name)
                everything.extend(cards)
        try:
            edition.check(everything, _("this round"))
        except CardError as exc:
            raise GameError(str(exc)) from None
        ordered = {name: given[name] for name in seated}
        return Round(win, MappingProxyType(ordered), played_at)

    def _check_single_winner(self, win: str, given: Mapping[str, Hand]) -> None:
        winning = self.entrant_of(win)
        for e in self.entrants:
            if e is winning:
                continue
            hands = [given[m] for m in e.members if m in given]
            if hands and all(h.cards is not None and h.is_empty for h in hands):
                if self.rules.method is Method.TEAMS:
                    msg = _("{other} and {winner} cannot both have gone out: only one team "
                            "wins a round, so give the other team's cards")
                    raise GameError(msg.format(other=e.name, winner=winning.name))
                msg = _("{other} and {winner} cannot both have gone out: only one player "
                        "wins a round, so give {other}'s cards")
                raise GameError(msg.format(other=e.name, winner=win))

    def add_round(self, winner: str, hands: Mapping[str, Hand], played_at: str = "") -> Game:
        """Record the next round; this clears the redo stack."""
        if self.verdict.over:
            raise GameError(_("this game is over: start a new game to play on"))
        rnd = self.make_round(len(self.rounds), winner, hands, played_at)
        index = len(self.rounds)
        new = replace(self, rounds=_appended(self.rounds, rnd), undone=(),
                      revision=self.revision + 1)
        # Carry what is derived over: O(entrants) per round, not O(rounds).
        score = new._score(index)
        if "scores" in self.__dict__:
            new.__dict__["scores"] = (*self.scores, score)
        if "dealers" in self.__dict__:
            new.__dict__["dealers"] = (*self.dealers, new._dealer_after(index, self.dealer,
                                                                        score))
        new.__dict__["tally"] = self.tally.after(
            self.entrant_of(rnd.winner).name, score,
            self.entrant_of(score.loser).name if score.loser is not None else None,
            rnd.winner, new._dealer_after(index, self.dealer, score))
        return new

    def edit_round(
        self, number: int, winner: str, hands: Mapping[str, Hand]
    ) -> Game:
        """Replace round `number` (1-based) with corrected input, keeping when it was played."""
        if not 1 <= number <= len(self.rounds):
            raise GameError(
                _("there is no round {n}: this game has {count} rounds").format(
                    n=number, count=len(self.rounds)
                )
            )
        old = self.rounds[number - 1]
        rnd = self.make_round(number - 1, winner, hands, old.played_at)
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
        if name.casefold() != was.casefold() and any(
            p.name.casefold() == name.casefold() for p in self.players
        ):
            raise GameError(
                _("{name} is already playing: choose another name").format(name=name)
            )

        def fix(rnd: Round) -> Round:
            hands = {(name if k == was else k): v for k, v in rnd.hands.items()}
            return Round(name if rnd.winner == was else rnd.winner,
                         MappingProxyType(hands), rnd.played_at)

        players = tuple(replace(p, name=name) if p.name == was else p for p in self.players)
        return replace(
            self,
            players=players,
            rounds=tuple(fix(r) for r in self.rounds),
            undone=tuple(fix(r) for r in self.undone),
            revision=self.revision + 1,
        )

    def add_player(self, name: str, seat: int | None = None) -> Game:
        """A late joiner: plays from the next round, starting from 0, seated at `seat`.

        `seat` is a position in the seating order (0 = first); the default is the last seat.
        The redo stack is cleared, because undone rounds were played without them.
        """
        if self.rules.method is Method.TEAMS:
            raise GameError(_("a teams game cannot take a late joiner: start a new game "
                              "with the new team"))
        clean = check_name(name)
        if any(p.name.casefold() == clean.casefold() for p in self.players):
            raise GameError(_("{name} is already playing: choose another name").format(name=clean))
        if len(self.players) >= MAX_PLAYERS:
            raise GameError(_("a game takes at most 10 players"))
        if self.verdict.over:
            raise GameError(_("this game is over: start a new game to play on"))
        position = len(self.players) if seat is None else max(0, min(seat, len(self.players)))
        players = list(self.players)
        players.insert(position, Player(clean, len(self.rounds)))
        return replace(self, players=tuple(players), undone=(), revision=self.revision + 1)

    # -- derived --

    def _score(self, index: int) -> RoundScore:
        rnd = self.rounds[index]
        values = {name: self.value_of(h) for name, h in rnd.hands.items()}
        return score_round(self.rules, self.entrants, rnd.winner, values, self.seated_in(index))

    @cached_property
    def scores(self) -> tuple[RoundScore, ...]:
        """Each round's points, derived from what was entered."""
        return tuple(self._score(i) for i in range(len(self.rounds)))

    @cached_property
    def dealers(self) -> tuple[str, ...]:
        """The dealer of every round played, and of the next round (one more than rounds)."""
        dealers = [self._first_dealer()]
        for i in range(len(self.rounds)):
            dealers.append(self._dealer_after(i, dealers[-1], self.scores[i]))
        return tuple(dealers)

    def _first_dealer(self) -> str:
        return self.seated_in(0)[0] if self.players else ""

    def _dealer_after(self, i: int, dealer: str, score: RoundScore) -> str:
        """Who deals after round `i` (0-based), which `dealer` dealt and `score` scored."""
        rnd = self.rounds[i]
        method = self.rules.method
        if method is Method.CHAMPIONSHIP:
            return rnd.winner
        if method is Method.LAZY and score.loser is not None:
            return score.loser or ""
        return self._left_of(dealer, i + 1)

    @cached_property
    def tally(self) -> Tally:
        """The running sums of all rounds (see `Tally`); carried over by `add_round`."""
        zero = {e.name: 0 for e in self.entrants}
        tally = Tally(0, MappingProxyType(zero), MappingProxyType(zero),
                      MappingProxyType(zero), self._first_dealer())
        for i, (rnd, score) in enumerate(zip(self.rounds, self.scores, strict=True)):
            tally = tally.after(
                self.entrant_of(rnd.winner).name, score,
                self.entrant_of(score.loser).name if score.loser is not None else None,
                rnd.winner, self._dealer_after(i, tally.dealer, score))
        return tally

    def _left_of(self, name: str, index: int) -> str:
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
        if self.rules.method is Method.LAZY and self.tally.last_winner is not None:
            return self.tally.last_winner
        return self._left_of(self.dealer, len(self.rounds))

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
    def results(self) -> dict[str, float | None]:
        return {
            n: championship_result(t, self.rounds_played[n]) for n, t in self.totals.items()
        }

    @cached_property
    def verdict(self) -> Verdict:
        return game_verdict(self.rules, self.totals, self.results)

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
        totals, played = self.totals, self.rounds_played
        wins = {e.name: self.tally.wins.get(e.name, 0) for e in self.entrants}
        losses = {e.name: self.tally.losses.get(e.name, 0) for e in self.entrants}
        method = self.rules.method

        def key(e: Entrant) -> tuple[float, ...]:
            if method is Method.CHAMPIONSHIP:
                r = self.results[e.name]
                return (r is None, r if r is not None else 0.0)
            if method is Method.OWN:
                return (float(totals[e.name]),)
            if method is Method.LAZY:
                return (-wins[e.name], losses[e.name])
            return (-float(totals[e.name]),)

        ordered = sorted(self.entrants, key=key)
        verdict = self.verdict
        dealer = self.dealer
        target = self.rules.target
        out: list[Standing] = []
        rank = 0
        previous: tuple[float, ...] | None = None
        for i, e in enumerate(ordered):
            k = key(e)
            if k != previous:
                rank, previous = i + 1, k
            status = ""
            if e.name in verdict.winners:
                status = "winner"
            elif e.name in verdict.losers:
                status = "loser"
            total = wins[e.name] if method is Method.LAZY else totals[e.name]
            out.append(
                Standing(
                    name=e.name,
                    members=e.members,
                    total=total,
                    rank=rank,
                    is_leader=rank == 1 and bool(self.rounds),
                    is_dealer=dealer in e.members,
                    progress=min(1.0, totals[e.name] / target) if target else 0.0,
                    rounds_played=played[e.name],
                    wins=wins[e.name],
                    losses=losses[e.name],
                    result=self.results[e.name] if method is Method.CHAMPIONSHIP else None,
                    status=status,
                )
            )
        return out

    def history(self) -> list[HistoryRow]:
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
                )
            )
        return rows
