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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType

from companion.cards import Card, CardError, format_cards
from companion.editions import Edition, get_edition
from companion.errors import GameError  # defined there, raised and caught as companion.game's
from companion.i18n import _

# `check_name` stays importable from here: the one check of names lives in companion.names.
from companion.names import check_name, check_seat, check_unique, name_key
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
    _check_count(len(players))
    check_unique(p.name for p in players)
    return players


def _check_count(n: int) -> None:
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise GameError(
            _("a game needs 2 to 10 players, not {n}: check the list of players").format(n=n)
        )


def check_roster(method: Method, players: Sequence[Player], rounds: int) -> tuple[Player, ...]:
    """Players as a game of `rounds` rounds (undone ones too) may hold them; names made clean.

    For a game that did not start at this table (an imported file): every rule a live game
    keeps for its players is checked here, as `seat_players` and `add_player` check them
    one at a time. Names pass `check_name` and are unique; 2 to 10 players, at least two of
    whom sat down at the start; a late joiner joined after a round that was played; the
    teams method has teams of exactly two partners sitting opposite and no late joiners, and
    no other method has teams.
    """
    clean = tuple(replace(p, name=check_name(p.name)) for p in players)
    _check_count(len(clean))
    check_unique(p.name for p in clean)
    if sum(p.joined_round == 0 for p in clean) < MIN_PLAYERS:
        raise GameError(_("a game starts with at least two players: check when each joined"))
    for p in clean:
        if not 0 <= p.joined_round <= rounds:
            raise GameError(
                _("{name} joined after round {n}, but the game has {count} rounds: check "
                  "when they joined").format(name=p.name, n=p.joined_round, count=rounds)
            )
    if method is not Method.TEAMS:
        teamed = next((p for p in clean if p.team is not None), None)
        if teamed is not None:
            raise GameError(
                _("{name} is in a team, but only the teams method has teams: leave the team "
                  "out").format(name=teamed.name)
            )
        return clean
    half = len(clean) // 2
    partners = [(clean[i], clean[i + half]) for i in range(half)]
    late = next((p for p in clean if p.joined_round), None)
    if late is not None:
        raise GameError(_("a teams game cannot take a late joiner: start a new game "
                          "with the new team"))
    if (len(clean) % 2 or len(clean) < 4 or any(p.team is None for p in clean)
            or any(a.team != b.team for a, b in partners)
            or len({a.team for a, _b in partners}) != half):
        raise GameError(
            _("the teams method needs teams of exactly two partners sitting opposite each "
              "other: check the players' teams and seats")
        )
    return clean


@dataclass(frozen=True)
class Game:
    """A game at one table; see the module docstring. Derived values are cached per value."""

    edition_key: str
    rules: Rules
    players: tuple[Player, ...]
    rounds: tuple[Round, ...] = ()
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
        return self.add_rounds([(winner, hands, played_at)])

    def add_rounds(self, entries: Iterable[tuple[str, Mapping[str, Hand], str]]) -> Game:
        """Record rounds in order (winner, hands, played_at), each checked as a live round is.

        Linear in the rounds: the scores and totals are carried from one round to the next
        instead of being derived again, and the rounds are copied once, not once per round
        (an import replays thousands).
        """
        rounds, scores, totals = list(self.rounds), list(self.scores), dict(self.totals)
        for winner, hands, played_at in entries:
            if self._verdict_after(len(rounds), totals).over:
                raise GameError(_("this game is over: start a new game to play on"))
            rnd = self.make_round(len(rounds), winner, hands, played_at)
            score = self._score_of(len(rounds), rnd)
            for name, pts in score.points.items():
                totals[name] += pts
            rounds.append(rnd)
            scores.append(score)
        added = len(rounds) - len(self.rounds)
        new = replace(self, rounds=tuple(rounds), undone=() if added else self.undone,
                      revision=self.revision + added)
        new.__dict__["scores"] = tuple(scores)
        new.__dict__["totals"] = totals
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
        if name_key(name) != name_key(was) and any(
            name_key(p.name) == name_key(name) for p in self.players
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
        if any(name_key(p.name) == name_key(clean) for p in self.players):
            raise GameError(_("{name} is already playing: choose another name").format(name=clean))
        if len(self.players) >= MAX_PLAYERS:
            raise GameError(_("a game takes at most 10 players"))
        if self.verdict.over:
            raise GameError(_("this game is over: start a new game to play on"))
        position = len(self.players) if seat is None else check_seat(seat, len(self.players))
        players = list(self.players)
        players.insert(position, Player(clean, len(self.rounds)))
        return replace(self, players=tuple(players), undone=(), revision=self.revision + 1)

    # -- derived --

    def _score_of(self, index: int, rnd: Round) -> RoundScore:
        """The points of `rnd` played as round `index` (0-based) of this game."""
        values = {name: self.value_of(h) for name, h in rnd.hands.items()}
        return score_round(self.rules, self.entrants, rnd.winner, values, self.seated_in(index))

    @cached_property
    def scores(self) -> tuple[RoundScore, ...]:
        """Each round's points, derived from what was entered."""
        return tuple(self._score_of(i, rnd) for i, rnd in enumerate(self.rounds))

    @cached_property
    def dealers(self) -> tuple[str, ...]:
        """The dealer of every round played, and of the next round (one more than rounds)."""
        first = self.seated_in(0)[0] if self.players else ""
        dealers = [first]
        for i, rnd in enumerate(self.rounds):
            method = self.rules.method
            if method is Method.CHAMPIONSHIP:
                nxt = rnd.winner
            elif method is Method.LAZY and self.scores[i].loser is not None:
                nxt = self.scores[i].loser or ""
            else:
                nxt = self._left_of(dealers[-1], i + 1)
            dealers.append(nxt)
        return tuple(dealers)

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
        return self.dealers[-1]

    @property
    def starter(self) -> str:
        """Who plays first in the next round."""
        if self.rules.method is Method.LAZY and self.rounds:
            return self.rounds[-1].winner
        return self._left_of(self.dealer, len(self.rounds))

    @cached_property
    def totals(self) -> dict[str, int]:
        totals = {e.name: 0 for e in self.entrants}
        for score in self.scores:
            for name, pts in score.points.items():
                totals[name] += pts
        return totals

    @cached_property
    def _first_rounds(self) -> dict[str, int]:
        """Each entrant's first round (0-based): when its earliest member sat down."""
        joined = {p.name: p.joined_round for p in self.players}
        return {e.name: min(joined[m] for m in e.members) for e in self.entrants}

    def _played_after(self, rounds: int) -> dict[str, int]:
        return {name: max(0, rounds - first) for name, first in self._first_rounds.items()}

    def _results_of(self, totals: Mapping[str, int], played: Mapping[str, int]
                    ) -> dict[str, float | None]:
        return {n: championship_result(t, played[n]) for n, t in totals.items()}

    def _verdict_after(self, rounds: int, totals: Mapping[str, int]) -> Verdict:
        """Whether the game is over once `rounds` rounds have given these totals."""
        return game_verdict(self.rules, totals,
                            self._results_of(totals, self._played_after(rounds)))

    @cached_property
    def rounds_played(self) -> dict[str, int]:
        return self._played_after(len(self.rounds))

    @cached_property
    def results(self) -> dict[str, float | None]:
        return self._results_of(self.totals, self.rounds_played)

    @cached_property
    def verdict(self) -> Verdict:
        return self._verdict_after(len(self.rounds), self.totals)

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
        wins = {e.name: 0 for e in self.entrants}
        losses = {e.name: 0 for e in self.entrants}
        for rnd, score in zip(self.rounds, self.scores, strict=True):
            wins[self.entrant_of(rnd.winner).name] += 1
            if score.loser is not None:
                losses[self.entrant_of(score.loser).name] += 1
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
