"""The companion's controller: what the screen, the CLI and the emulator ask of the score keeper.

No pygame here. `CompanionApp` holds the store and the current game; every change goes through
the pure game model first (which raises `CompanionError` with a one-sentence message on bad
input, before anything is written) and then to the store, whose transaction is committed
before the method returns. So when `record_round` returns, the round is on disk.

The game may be changed by another writer while it is held here (`uno-showdown game round` in
a terminal while the screen is open). Then the store refuses the change with
`GameChangedError` (a `CompanionError`), this app reloads the game from the file, and the
message asks the person to check it and enter the change again; nothing saved elsewhere is lost.

Return types are small frozen dataclasses:

* `RoundSummary` (from `record_round`): the round's number, winner, loser (where the method
  names one), the points each entrant got, each player's hand value, the standings after
  it, whether the game is over and who won or lost, who deals and who starts next, the
  finishing order (playing to the last player) and the card the winner went out on (H2O).
* `Standing` (from `standings`, rank order): name (a player, or "Ann & Cid" for a team),
  members, total, rank, is_leader, is_dealer, progress 0..1 to the target, rounds_played,
  wins, losses, result (championship points ÷ rounds), status ("winner"/"loser"/"").
* `HistoryRow` (from `history`): number, winner, loser, dealer, points per entrant, hand
  value and hand text per player, played_at.
* `ReactionStats` (from `duel_stats`): name, duels, wins, best_ms, median_ms.
* `DuelRow` (from `last_duel`, `duels`): the players, cards, outcome, winner, loser and
  reaction_us per player name.

A game may sit in a time box (`companion.table.timebox`): a table playing against a clock that
another program runs (a championship's director). Then every change asks the box, inside
the store's transaction, whether the table may record now; a refusal is a `CompanionError`
naming the box. With `follow` (the screens) the app moves on by itself to the game the
table plays now: the next game when one ended at the target, the table's next box (its next
stage) once that one has started.
"""

from __future__ import annotations

import _thread  # threading's locks, without threading.py's import at every command's start
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime

from companion.deck.cards import Card, parse_card
from companion.scoring import Rules
from companion.store import wallclock
from companion.store.errors import GameChangedError
from companion.store.games import Store
from companion.table.game import Game, GameError, Hand, HistoryRow, Standing
from companion.table.records import BoxedGame, DuelRow, GameInfo, Recorded
from companion.table.turns import (
    Direction,
    DuelProposal,
    LastCardDuel,
    Seating,
    by_hand,
    last_card_duel,
    showdown_card,
    wild_showdown,
)
from showdown.contract.errors import CompanionError
from showdown.contract.i18n import _, set_language
from showdown.contract.record import record, replace

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from os import PathLike
    from typing import TypeVar

    T = TypeVar("T")

__all__ = [
    "CompanionApp",
    "CompanionError",
    "DuelRow",
    "GameInfo",
    "HistoryRow",
    "ReactionStats",
    "RoundSummary",
    "Standing",
]

#: How long the last-card rule waits for a verdict just heard to reach the games file.
LAST_CARD_WAIT_S = 2.0

if TYPE_CHECKING:  # imported where used: a command pays for no log reading, no stats unasked
    import logging

    from companion.deck.editions import Edition
    from companion.store.duel_stats import ReactionStats
    from companion.store.duels import DuelRecorder
    from companion.store.recover import LogReading
    from companion.table.deal import Opening


def __getattr__(name: str) -> object:
    """`ReactionStats` (in `__all__`) is `duel_stats`'s, imported when first asked for: a
    command that asks for no duel statistics (`game round`) loads none of their code."""
    if name == "ReactionStats":
        from companion.store.duel_stats import ReactionStats

        return ReactionStats
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _log() -> logging.Logger:
    """This module's logger, looked up when there is something to log: importing logging
    costs every command that opens the games file and logs nothing (a Pi pays per import)."""
    import logging

    return logging.getLogger(__name__)


def _when(text: str | None) -> datetime | None:
    """A stored wall-clock time (ISO 8601) as an aware datetime; None if absent or unclear."""
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _lifetime(game: Game, now_us: int) -> tuple[datetime | None, datetime]:
    """When `game` was being played: from its creation (None: not recorded) to now, or to
    its last round once it is over."""
    ends = _when(wallclock.iso(now_us))
    assert ends is not None
    if game.verdict.over and game.rounds:
        ends = _when(game.rounds[-1].played_at) or ends
    return _when(game.created_at), ends


@record
class Recovery:
    """What taking duels back from the duel log did."""

    taken: int  # duels stored now
    already: int  # duels the game had already
    other_players: tuple[str, ...]  # where the log has duels of players not in the game
    without_players: int  # verdicts whose players the log does not name (older logs)
    #: verdicts given before the game began or after it ended (another session's)
    outside: int = 0


@record
class RoundSummary:
    """What recording a round did; see the module docstring."""

    number: int
    winner: str
    loser: str | None
    points: Mapping[str, int]
    hand_values: Mapping[str, int]
    standings: tuple[Standing, ...]
    game_over: bool
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    dealer: str
    starter: str
    order: tuple[str, ...] = ()
    out_on: str | None = None
    late: bool = False  # entered after the table's time was up (its last deal)
    continued_in: int | None = None  # the game ended; the table plays on in this game


def _card(card: str | Card | None) -> Card | None:
    if card is None or isinstance(card, Card):
        return card
    return parse_card(card) if card.strip() else None


def play_on_game(game: Game, created_at: str = "") -> Game:
    """The table's next game when `game` ended inside a time box: the same edition, rules,
    house rules and players in the same seats, turned so that the player the rules name to
    deal next deals first (the one who went out, under the championship's rules)."""
    names = game.names
    first = names.index(game.dealer) if game.dealer in names else 0
    return Game.new(game.edition_key, game.rules, names[first:] + names[:first],
                    created_at=created_at, house_rules=game.house_rules)


def build_hands(
    hands: Mapping[str, Iterable[str | Card] | str] | None,
    points: Mapping[str, int] | None,
) -> dict[str, Hand]:
    """Turn typed hands (card codes) and counted points into model hands."""
    out: dict[str, Hand] = {}
    for name, cards in (hands or {}).items():
        items = cards.split() if isinstance(cards, str) else list(cards)
        out[name] = Hand(cards=tuple(
            c if isinstance(c, Card) else parse_card(c) for c in items if c != "-"
        ))
    for name, value in (points or {}).items():
        if any(k.casefold() == name.casefold() for k in out):
            raise GameError(
                _("{name} has both cards and points: give one or the other").format(name=name)
            )
        out[name] = Hand(counted=int(value))
    return out


class CompanionApp:
    """The score keeper the screen drives; see the module docstring for the return types."""

    def __init__(self, store: Store, game: Game | None, *,
                 clock: Callable[[], int] | None = None, follow: bool = True) -> None:
        self.store = store
        self.game = game
        #: Wall-clock microseconds, what time boxes are kept on (tests pass their own).
        self.clock: Callable[[], int] = clock or wallclock.now
        #: Move on to the game the table plays now (see the module docstring).
        self.follow = follow
        self._lock = _thread.RLock()
        self._seen_version: int | None = None  # the file's data_version last looked at
        # The current game's duels as last read, by id; `_duels_seen` is the game's
        # duel-write counter they are up to date with, so a refresh reads only changes.
        self._duel_rows: dict[int, DuelRow] | None = None  # None: not read yet
        self._duels_seen = 0
        self._duel_list: list[DuelRow] | None = None
        self._duel_stats: dict[str, ReactionStats] | None = None
        self._last_duel: DuelRow | None = None
        #: Made when the first duel is heard or waited for (`_duel_recorder`): a command that
        #: only reads the file (`game show`) imports none of the recorder's code.
        self._recorder: DuelRecorder | None = None
        self._recorder_lock = _thread.allocate_lock()
        self._recorder_closed = False  # `close` ran: a recorder made later is made closed
        self._boxed: BoxedGame | None = None
        #: Switch to a newer game when one appears in the file (see `refresh`).
        self.follows_newest_game = False
        #: The duel the table's helper proposed last (the duel bar takes it up).
        self._proposal: DuelProposal | None = None
        self._attach()
        self._follow()

    @classmethod
    def open(
        cls, db_path: str | PathLike[str] | None = None, game_id: int | None = None,
        lang: str | None = None, *, unfinished_only: bool = True, follow: bool = True,
        clock: Callable[[], int] | None = None, lazy: bool = False,
    ) -> CompanionApp:
        """Open the store (default place when None) and the game: without one, the game a
        table plays now against a running clock (a championship's stage in progress), else
        the latest unfinished one.

        With `unfinished_only=False` the latest game is opened even if it is over; with
        `follow=False` the game asked for is kept even if its table has moved on. With
        `lazy`, the rounds played are read only if asked for (a command that adds one round
        to a long game need not read them all; see `Games.load` in `companion.store.games`).
        """
        set_language(lang)
        store = Store(db_path)
        try:
            if game_id is None:  # the game in play against a clock, else the newest
                game_id = store.boxes.in_play() or store.games.latest_id(
                    unfinished_only=unfinished_only)
            game = store.games.load(game_id, lazy=lazy) if game_id is not None else None
            return cls(store, game, clock=clock, follow=follow)
        except BaseException:
            store.close()
            raise

    def close(self, flush_timeout_s: float = 3.0) -> None:
        """Record what is still pending (waiting at most `flush_timeout_s`), then close.

        Duels that could still not be written are named in one logged line; the duel log
        holds them, and `uno-showdown game duels --recover-from LOG` takes them back.
        """
        try:
            with self._recorder_lock:
                recorder, self._recorder_closed = self._recorder, True
            left = recorder.close(flush_timeout_s) if recorder is not None else []
            if left:
                named = ", ".join(left[:5]) + (f" and {len(left) - 5} more" if len(left) > 5
                                               else "")
                _log().warning(
                    "%d duel(s) not recorded in %s (the file could not be written): %s; take "
                    "them back with `uno-showdown game duels --recover-from` and the duel log",
                    len(left), self.store.path, named)
        finally:
            self.store.close()

    def flush_duels(self, timeout_s: float = 5.0) -> bool:
        """Wait until every verdict heard so far is in the games file (False on timeout)."""
        return self._recorder is None or self._recorder.flush(timeout_s)

    def pending_duels(self) -> list[str]:
        """The duels heard but not yet in the games file, described for a person."""
        return [] if self._recorder is None else self._recorder.pending()

    def __enter__(self) -> CompanionApp:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _current_game(self) -> tuple[int, int] | None:
        """The game a verdict heard now belongs to, and its rounds so far (the recorder's)."""
        game = self.game
        return None if game is None or game.id is None else (game.id, len(game.rounds))

    def _attach(self) -> None:
        """Take the current game's time box, and forget the duels read so far (a game
        opened, switched, or renamed in): they are read afresh when next asked for."""
        game = self.game
        self._boxed = None if game is None or game.id is None else self.store.boxes.of_game(game.id)
        self._duel_rows = None
        self._duels_seen = 0
        self._last_duel = None
        self._duel_list = None
        self._duel_stats = None

    def _known_duels(self) -> dict[int, DuelRow]:
        """The current game's duels as last read, reading them all the first time."""
        if self._duel_rows is None:
            self._duel_rows = {}
            game = self.game
            if game is not None and game.id is not None:
                self._take_duels(self.store.duels.of_game(game.id))
        return self._duel_rows

    def _changed_duels(self, newest: DuelRow) -> None:
        """Forget what was derived from the duels; `newest` is a row just taken (O(1))."""
        self._duel_list = None
        self._duel_stats = None
        if self._last_duel is None or newest.id >= self._last_duel.id:
            self._last_duel = newest

    def _take_duels(self, rows: Iterable[DuelRow]) -> bool:
        """Merge duel rows read from the file; True if any was new or newer."""
        taken = False
        if self._duel_rows is None:
            self._duel_rows = {}
        for row in rows:
            known = self._duel_rows.get(row.id)
            if known is None or row.changed > known.changed:
                self._duel_rows[row.id] = row
                self._changed_duels(row)
                taken = True
            self._duels_seen = max(self._duels_seen, row.changed)
        return taken

    def _duel_recorded(self, row: DuelRow) -> None:
        """The recorder stored a duel (its thread): show it, if it is of the current game."""
        with self._lock:
            game = self.game
            if game is None or game.id is None or row.game_id != game.id:
                return
            if self._duel_rows is None:
                return  # not read yet: it will be, with this one
            known = self._duel_rows.get(row.id)
            if known is None or row.changed > known.changed:
                self._duel_rows[row.id] = row
                self._changed_duels(row)

    def _save(self, write: Callable[[], T]) -> T:
        """Run a store write; if the game changed elsewhere, reload it before passing that on
        (and if its time box refused, read the box again: it is what the screen shows)."""
        try:
            return write()
        except GameChangedError:
            self._reload()
            raise
        except Exception as exc:
            # A TimeBoxError comes only from a box read, which loaded its module: looking it
            # up here keeps a game without a box from loading the boxes' model.
            timebox = sys.modules.get("companion.table.timebox")
            if timebox is not None and isinstance(exc, timebox.TimeBoxError):
                self._reload_box()
            raise

    def _reload_box(self) -> bool:
        """Read the current game's box again; True if it changed. Follows the table on."""
        game = self.game
        if game is None or game.id is None:
            return False
        boxed = self.store.boxes.of_game(game.id)
        changed = boxed != self._boxed
        if changed:
            self._boxed = boxed
        return self._follow() or changed

    def _follow(self) -> bool:
        """With `follow`, switch to the game the table plays now; True if it switched."""
        boxed, game = self._boxed, self.game
        if not self.follow or boxed is None or game is None:
            return False
        from companion.table.timebox import Phase, State  # loaded with `boxed`

        seen = {boxed.box.id}
        while (boxed.box.next_box_id is not None and boxed.box.next_box_id not in seen
               and boxed.box.phase(self.clock()) is Phase.DONE):
            following = self.store.boxes.load(boxed.box.next_box_id)
            if following.box.state is State.WAITING or not following.game_ids:
                break
            seen.add(following.box.id)
            boxed = following
        if boxed.current_game_id in (0, game.id):
            return False
        self.game = self.store.games.load(boxed.current_game_id)
        self._attach()
        return True

    def _reload(self) -> None:
        game = self.game
        if game is None or game.id is None:
            return
        if self.store.games.revision(game.id) is None:  # deleted elsewhere
            # A game of a time box goes when the director holds the deal that ended the
            # game before it (`Games.set_held`): the table is back in the box's game.
            boxed = self._boxed
            current = (self.store.boxes.load(boxed.box.id).current_game_id
                       if boxed is not None and boxed.box.id else 0)
            self.game = self.store.games.load(current) if current else None
            self._attach()
            return
        # Any other error (the file damaged, unreadable for a moment) goes to the caller, and
        # the game held here stays as it was: a screen keeps showing it and tries again.
        self.game = self.store.games.load(game.id)

    def refresh(self) -> bool:
        """Catch up with what another program (the CLI, `run` recording duels, a second
        screen) wrote to the file since; True if anything changed. Costs one small query
        while nothing changes: the screen calls it a few times a second. With
        `follows_newest_game`, a game started elsewhere becomes the current one."""
        with self._lock:
            version = self.store.data_version()
            if version == self._seen_version:
                return False
            switched = self.follows_newest_game and self.follow_newest_game()
            changed = self._catch_up()
            # Only now: a refresh that failed half-way (it raised) is tried again next time.
            self._seen_version = version
            return changed or switched

    def _catch_up(self) -> bool:
        game = self.game
        if game is None or game.id is None:
            return False
        changed = self.store.games.revision(game.id) != game.revision
        if changed:
            names = self.game.names if self.game is not None else []
            self._reload()
            if self.game is not None and self.game.names != names:
                self._attach()  # a rename elsewhere: the duels name the players anew
                return True
        if self._reload_box():
            changed = True
            game = self.game
            if game is None or game.id is None:
                return True
        if self.game is not None and self.game.id is not None:
            self._known_duels()
            # Only the duels written since the last look: O(new), not O(stored).
            changed = self._take_duels(
                self.store.duels.changes(self.game.id, self._duels_seen)) or changed
        return changed

    def reload(self) -> None:
        """Read the current game from the file again (to show what others have changed)."""
        with self._lock:
            self._reload()

    def time_box(self) -> BoxedGame | None:
        """The current game's time box (as last read), or None when it has no clock."""
        return self._boxed

    def _require(self) -> Game:
        if self.game is None:
            raise GameError(_("there is no game yet: start one with `uno-showdown game new`"))
        return self.game

    # -- games --

    def new_game(
        self, edition: str, method: str, players: list[str], target: int | None = None,
        options: Iterable[str] = (), *, house_rules: Iterable[str] = (),
        first_dealer: str | None = None,
    ) -> int:
        """Start and save a new game; it becomes the current game. Returns its id.

        `method` is a method's key or one of its names (`companion.scoring.METHODS`),
        `options` the keys of its scoring options (`companion.scoring.OPTIONS`),
        `house_rules` the keys of the house rules in force (`companion.table.house_rules`), and
        `first_dealer` who deals the first round (default: the first player).
        """
        rules = Rules.make(method, target, options)
        game = Game.new(edition, rules, players, created_at=wallclock.iso(self.clock()),
                        house_rules=house_rules, first_dealer=first_dealer)
        if self._boxed is not None:  # a table in a time box plays the box's games
            self._reload_box()
            if self._boxed is not None:
                self._boxed.box.check_new_game(self.clock())
        with self._lock:
            game_id = self.store.games.create(game)
            self.game = self.store.games.load(game_id)
            self._attach()
        return game_id

    def switch_game(self, game_id: int) -> None:
        with self._lock:
            self.game = self.store.games.load(game_id)
            self._attach()

    def follow_newest_game(self) -> bool:
        """Switch to the newest game in the file when it is newer than the current one.

        A service that runs for days (the headless table) hears of a game started from a
        terminal this way; True when it switched. Never into or out of a championship's
        game: a table there moves on with its time box (`follow`), and the newest game in a
        championship's file may be another table's.
        """
        with self._lock:
            newest = self.store.games.latest_id()
            current = self.game.id if self.game is not None else None
            if newest is None or (current is not None and newest <= current):
                return False
            if self._boxed is not None or self.store.boxes.of_game(newest) is not None:
                return False  # a championship's table follows its time box, not the file
            self.game = self.store.games.load(newest)
            self._attach()
            return True

    def games(self) -> list[GameInfo]:
        return self.store.games.infos()

    def player_names(self) -> list[str]:
        """The players in seating order; [] without a game."""
        return self.game.names if self.game is not None else []

    def edition(self) -> Edition:
        """The current game's deck (cards, values, counts), or classic without a game."""
        from companion.deck.editions import get_edition

        return self.game.edition if self.game is not None else get_edition("classic")

    # -- rounds --

    def record_round(
        self,
        winner: str | None,
        hands: Mapping[str, Iterable[str | Card] | str] | None = None,
        points: Mapping[str, int] | None = None,
        *,
        order: Sequence[str] = (),
        out_on: str | Card | None = None,
        showdown: bool | None = None,
        showdown_said: bool | None = None,
    ) -> RoundSummary:
        """Record the next round; committed to disk before this returns.

        What a round needs is the method's (`game.rules.method.entry`): who went out and the
        other hands; a finishing order (`order`, first out first, `winner` may be None); or
        only who went out. `out_on` is the card the winner went out on (H2O option).

        `showdown`: the winner went out on a showdown card, so the round stands only if they
        won its duel: the duel just recorded decides, or `showdown_said` (True won, False
        lost) where the unit recorded none. A lost duel raises `GameError` saying play goes
        on, and nothing is written (see `last_card`).
        """
        if showdown:  # outside the lock: the duel's recorder may need it to finish
            verdict = self.last_card(order[0] if order else winner, showdown_said)
            if not verdict.won:
                raise GameError(verdict.message())
        with self._lock:
            game = self._require()
            self._box_allows_a_round()
            new = game.add_round(winner, build_hands(hands, points), wallclock.iso(self.clock()),
                                 order=order, out_on=_card(out_on),
                                 showdown_out=bool(showdown))
            successor = play_on_game(new, wallclock.iso(self.clock())) if new.verdict.over else None
            recorded = self._save(lambda: self.store.games.append_round(
                new, now_us=self.clock(), successor=successor))
            self.game = new
            summary = replace(self.summary(), late=recorded.late,
                              continued_in=recorded.continued_in)
            self._moved_on(recorded)
            return summary

    def _box_allows_a_round(self) -> None:
        """Say first when the table's time box takes no round now (rather than, say, that
        the game is over); the store checks again inside its transaction."""
        if self._boxed is not None:
            self._reload_box()
            boxed, game = self._boxed, self.game
            if boxed is None or game is None:
                return
            if boxed.current_game_id != game.id:
                raise boxed.box.moved_on(boxed.current_game_id)
            boxed.box.check_add(self.clock())

    def _moved_on(self, recorded: Recorded) -> None:
        """After a change in a box: go to the table's next game if one started, re-read the box."""
        if recorded.continued_in is not None and self.follow:
            self.game = self.store.games.load(recorded.continued_in)
            self._attach()
        elif self._boxed is not None:
            self._reload_box()

    def summary(self, number: int | None = None) -> RoundSummary:
        """The summary of round `number` (1-based; the last round by default)."""
        game = self._require()
        if not game.rounds:
            raise GameError(_("no round has been played yet"))
        i = (number or len(game.rounds)) - 1
        rnd, score = game.rounds[i], game.score_of(i)
        verdict = game.verdict
        return RoundSummary(
            number=i + 1,
            winner=rnd.winner,
            loser=score.loser,
            points=dict(score.points),
            hand_values=dict(score.hand_values),
            standings=tuple(game.standings()),
            game_over=verdict.over,
            winners=verdict.winners,
            losers=verdict.losers,
            dealer=game.dealer,
            starter=game.starter,
            order=rnd.order,
            out_on=rnd.out_on.code if rnd.out_on is not None else None,
        )

    def edit_round(
        self,
        number: int,
        winner: str | None,
        hands: Mapping[str, Iterable[str | Card] | str] | None = None,
        points: Mapping[str, int] | None = None,
        *,
        order: Sequence[str] = (),
        out_on: str | Card | None = None,
        showdown: bool = False,
    ) -> None:
        """Correct a past round (1-based number), given as `record_round` takes a round.

        `showdown` keeps the mark that the winner went out on a showdown card (and won it).
        """
        with self._lock:
            new = self._require().edit_round(number, winner, build_hands(hands, points),
                                             order=order, out_on=_card(out_on),
                                             showdown_out=showdown)
            self._save(lambda: self.store.games.replace_round(new, number))
            self.game = new

    def undo(self) -> bool:
        """Take back the last round (it can be redone); False if there is none."""
        with self._lock:
            game = self.game
            if game is None or not game.rounds:
                return False
            new = game.undo()
            self._save(lambda: self.store.games.set_round_count(new, len(game.rounds),
                                                          now_us=self.clock()))
            self.game = new
            self._moved_on(Recorded())
            return True

    def redo(self) -> bool:
        """Put back the last undone round; False if there is none."""
        with self._lock:
            game = self.game
            if game is None or not game.undone:
                return False
            self._box_allows_a_round()
            new = game.redo()
            successor = play_on_game(new, wallclock.iso(self.clock())) if new.verdict.over else None
            recorded = self._save(lambda: self.store.games.set_round_count(
                new, len(game.rounds), now_us=self.clock(), successor=successor))
            self.game = new
            self._moved_on(recorded)
            return True

    def last_card(self, winner: str | None, said: bool | None = None) -> LastCardDuel:
        """Whether `winner`, going out on a showdown card in the round in play, won its duel:
        the duel just recorded, or what the table `said` (True won, False lost)."""
        game = self._require()
        if winner is None or not winner.strip():
            raise GameError(_("say who went out: choose the player who emptied their hand"))
        name = game.player(winner).name
        if said is None:  # the duel just played decides: make sure it is read
            # a verdict heard here is written first (never under the lock: the recorder
            # takes it to tell this app what it wrote)
            if self._recorder is not None:  # none made: no verdict heard
                self._recorder.flush(LAST_CARD_WAIT_S)
            with self._lock:
                if game.id is not None:  # and one another program recorded is read
                    self._known_duels()
                    self._take_duels(self.store.duels.changes(game.id, self._duels_seen))
        return last_card_duel(name, self.duels(), len(game.rounds), said)

    # -- the table in play --

    def seating(self) -> Seating:
        """The players of the round in play, clockwise, and the direction of play."""
        return self._require().seating

    def set_direction(self, direction: Direction) -> Direction:
        """Play goes `direction` in the round in play (shared with every screen and command
        through the games file); returns it."""
        with self._lock:
            game = self._require()
            new = game.set_direction(direction)
            if new is not game:
                self._save(lambda: self.store.games.save_table(new))
                self.game = new
            return new.direction

    def reverse(self) -> Direction:
        """A Reverse was played: turn the direction of play; returns the new one."""
        return self.set_direction(self._require().direction.reversed())

    def set_first_dealer(self, name: str) -> None:
        """Say who deals the first round (the highest-card draw's winner, or by hand)."""
        with self._lock:
            new = self._require().set_first_dealer(name)
            self._save(lambda: self.store.games.save_table(new))
            self.game = new

    def opening(self, card: str | Card) -> Opening:
        """What the first card turned up in the round in play means for who starts.

        A Reverse that lets the dealer start also turns the direction of play (saved)."""
        from companion.table.deal import first_card  # only a table that turns one

        with self._lock:
            game = self._require()
            drawn = card if isinstance(card, Card) else parse_card(card)
            opening = first_card(game.edition_key, game.house_rules, drawn, game.dealer,
                                 game.starter, game.seating.players, game.rules.method.key)
            if opening.starter is not None:
                self.set_direction(opening.direction)
            return opening

    def propose_showdown(self, played_by: str, cards: int) -> DuelProposal:
        """A showdown card played by `played_by`: propose them against the next player in the
        direction of play, with the `cards` its symbol shows (the duel bar takes it up)."""
        with self._lock:
            self._proposal = showdown_card(self._require().seating, played_by, cards)
            return self._proposal

    def propose_wild_showdown(self, played_by: str, opponent: str, cards: int) -> DuelProposal:
        """A Wild Showdown: `played_by` chose `opponent` and 1-3 cards."""
        with self._lock:
            self._proposal = wild_showdown(self._require().seating, played_by, opponent, cards)
            return self._proposal

    def duel_by_hand(self, first: str, second: str) -> tuple[str, str]:
        """Two players the table names for a duel itself (`uno-showdown duel ANN BOB`), as
        seated; a name not at the table, or the same player twice, is a TurnError."""
        with self._lock:
            return by_hand(self._require().seating, first, second)

    def proposed_duel(self) -> DuelProposal | None:
        """The duel proposed last, if its players are still at the table."""
        proposal = self._proposal
        game = self.game
        if proposal is None or game is None or not {proposal.challenger,
                                                    proposal.opponent} <= set(game.names):
            return None
        return proposal

    # -- players --

    def rename_player(self, old: str, new: str) -> None:
        with self._lock:
            game = self._require()
            was = game.player(old).name
            updated = game.rename(old, new)
            self._save(lambda: self.store.games.rename_player(updated, was,
                                                              updated.player(new).name))
            self.game = updated
            self._attach()  # the duels name the players anew

    def add_player(self, name: str, seat: int | None = None) -> None:
        """A late joiner, who plays from the next round on."""
        with self._lock:
            updated = self._require().add_player(name, seat)
            self._save(lambda: self.store.games.save_players(updated))
            self.game = updated

    # -- what the screen shows --

    def standings(self) -> list[Standing]:
        return self.game.standings() if self.game is not None else []

    def history(self) -> list[HistoryRow]:
        return self.game.history() if self.game is not None else []

    def series(self) -> dict[str, list[int]]:
        """Cumulative score per entrant after each round, for a chart."""
        return self.game.series() if self.game is not None else {}

    def duels(self) -> list[DuelRow]:
        """The current game's duels, oldest first (as last read: see `refresh`)."""
        with self._lock:
            if self._duel_list is None:
                rows = self._known_duels()
                self._duel_list = [rows[k] for k in sorted(rows)]
            return list(self._duel_list)

    def duel_stats(self) -> dict[str, ReactionStats]:
        """Best and median reaction (ms) per player of the current game."""
        with self._lock:
            game = self.game
            if game is None:
                return {}
            if self._duel_stats is None:
                from companion.store.duel_stats import reaction_stats  # `game round` never asks

                self._duel_stats = reaction_stats(self.duels(), game.names)
            return dict(self._duel_stats)

    def last_duel(self) -> DuelRow | None:
        with self._lock:
            self._known_duels()
            return self._last_duel

    def on_service_event(self, event: object) -> None:
        """Pass to `ShowdownService.add_listener`: records each verdict with the current game.

        Returns at once: the recorder writes on a thread and connection of its own, so a
        games file locked by another program holds up neither the caller nor the screen.
        """
        self._duel_recorder()(event)

    def _duel_recorder(self) -> DuelRecorder:
        """The recorder of the duels heard, made on the first (on the service's thread)."""
        with self._recorder_lock:
            if self._recorder is None:
                from companion.store.duels import DuelRecorder

                self._recorder = DuelRecorder(self.store.path, self._current_game,
                                              on_recorded=self._duel_recorded)
                if self._recorder_closed:  # as a recorder closed with the app: hears nothing
                    self._recorder.close(0.0)
            return self._recorder

    # -- the duel log --

    def recover_duels(self, reading: LogReading) -> Recovery:
        """Store the duels of a duel log that the current game lacks; idempotent.

        A duel is the game's when both its players are and its verdict was given while the
        game was being played: from its creation until now, or until its last round once it
        is over (a log holds every session's duels, of every game). Others are left out,
        and counted. Each is stored after the rounds played before its verdict (the rounds'
        own times), where the live recorder would have put it; one already stored (by its
        name in the log) is not stored again.
        """
        with self._lock:
            game = self._require()
            assert game.id is not None
            self._known_duels()
            begins, ends = _lifetime(game, self.clock())
            played = [_when(r.played_at) for r in game.rounds]
            taken = already = outside = 0
            others: list[str] = []
            for d in reading.duels:
                try:
                    names = {side: game.player(name).name for side, name in d.players.items()}
                except GameError:
                    others.append(_("line {n}").format(n=d.line))
                    continue
                at = _when(d.at)
                if at is None or (begins is not None and at < begins) or at > ends:
                    outside += 1
                    continue
                if self.store.duels.with_key(game.id, d.log_key) is not None:
                    already += 1
                    continue
                # A round saved in the verdict's own second came after it: the duel is
                # played before the round it decides is recorded.
                after_round = sum(1 for t in played if t is not None and t < at)
                self.store.duels.add(
                    game.id, after_round, names[d.challenger], names[d.opponent], d.cards,
                    d.outcome.value, names.get(d.winner) if d.winner else None,
                    names.get(d.loser) if d.loser else None,
                    d.reaction_us.get(d.challenger), d.reaction_us.get(d.opponent),
                    d.at or wallclock.iso(self.clock()), contested=d.contested, log_key=d.log_key,
                )
                taken += 1
            self._take_duels(self.store.duels.changes(game.id, self._duels_seen))
            return Recovery(taken, already, tuple(others), reading.without_players, outside)

    # -- export and import --

    def export(self, fmt: str = "json", game_id: int | None = None) -> str:
        game = self._require() if game_id is None else self.store.games.load(game_id)
        duels = self.store.duels.of_game(game.id) if game.id is not None else []
        from companion.store import transfer  # only export and import need it

        return transfer.export_game(game, duels, fmt)

    def import_game(self, text: str, fmt: str | None = None) -> int:
        """Import an exported game as a new game (it becomes the current game).

        The file is checked whole before anything is written (`transfer` refuses it with one
        sentence), and the game with its rounds and duels is written in one transaction.
        """
        from companion.store import transfer

        game, duels = transfer.import_game(text, fmt)
        with self._lock:
            game_id = self.store.games.create(game, duels)
            self.game = self.store.games.load(game_id)
            self._attach()
        return game_id
