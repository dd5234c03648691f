"""The table without a screen: a duel always loaded, and who plays it told from a terminal.

`HeadlessTable` is what `uno-showdown run --headless` (and the systemd service) runs. It
keeps a duel loaded on the service, so the unit's timer button can start one at any time,
and prints each verdict. Who sits at the paddles comes from `uno-showdown duel` through the
duel socket (`uno_showdown.headless.duel_socket`), in the table helper's two ways:
`duel --played-by ANN
--cards 2` (a showdown card: Ann against the next player in the game's direction of play)
and `duel ANN BOB --cards 2` (a Wild Showdown's choice, or any duel named by hand). Who faces
whom is the companion's rule (`companion.table.turns`, asked through the `CompanionApp` this table
keeps score with), the same the screen's Table view and the emulator's duel bar follow; the
newest game in the file is picked up when the command comes, so a game started from a
terminal while the service runs is the one credited.

A pairing belongs to the game its players were named from, and the table moves to a newer
game only between duels: never while a named duel is under way, whose verdict is credited
in its own game. When the table moves on while a pairing waits, the pairing is dropped
(its players may not even be in the new game): the next duel is for the seats, and the
service's output says so.

With nobody named the duel is for the seats: the verdict says "left" and "right", goes to
the duel log, and is credited to no player. A pairing (and its card count) holds for the
next duel only, however long it waits: once that duel has a verdict (a tie's rematch and
an aborted duel do not count), the seats and the default card count come back.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.table.pairing import SEATS, Pairing, PairingError
from companion.table.turns import MAX_DUEL_CARDS
from showdown.contract.events import (
    DuelLoaded,
    LaunchFailed,
    Outcome,
    ReactionsTimed,
    ServiceEvent,
    Side,
    VerdictContested,
    VerdictGiven,
)
from showdown.contract.i18n import N_, _
from showdown.duel.engine import DuelError, Load
from showdown.duel.text import cards_text, contest_text

if TYPE_CHECKING:
    from showdown.service.loop import ShowdownService

log = logging.getLogger(__name__)

#: How long a request waits, at most, for the listeners to hear the last verdict before the
#: table moves to a newer game (they take microseconds; a stuck one must not hold `duel`).
FOLLOW_FLUSH_S = 1.0

#: What a seat is called in a verdict when nobody sits at it, translated when said.
SEAT_NAMES = {Side.LEFT: N_("left"), Side.RIGHT: N_("right")}


def _names(players: Mapping[Side, str]) -> dict[Side, str]:
    """Who sat at each paddle: the player named, else the seat, in the table's language."""
    return {side: players.get(side) or _(SEAT_NAMES[side]) for side in Side}


@dataclass(frozen=True, slots=True)
class NextDuel:
    """Who plays the next duel, with how many cards, and why (a showdown card's rule)."""

    pairing: Pairing
    cards: int
    why: str = ""
    #: The game the players were named from (None for the seats).
    game_id: int | None = None
    #: Who played the showdown card this duel is for (None: named by hand, or the seats).
    played_by: str | None = None

    def describe(self) -> str:
        if self.why:
            return _("{players}, {cards} ({why})").format(
                players=self.pairing.describe(), cards=cards_text(self.cards), why=self.why)
        return _("{players}, {cards}").format(players=self.pairing.describe(),
                                             cards=cards_text(self.cards))


class HeadlessTable:
    """Keeps a duel loaded on the service and answers the duel socket's requests.

    `app` is the companion (or None when the table keeps no score); `follow_games` makes
    the newest game in its file the current one whenever players are named (off when
    `run --game` chose one); `say` prints a line for whoever watches.
    """

    def __init__(self, service: ShowdownService, cards: int, app: Any | None, *,
                 follow_games: bool = True, say: Callable[[str], None] = print,
                 most_cards: int = MAX_DUEL_CARDS) -> None:
        self.service = service
        self.default_cards = cards
        #: The most cards a duel may load: the unit's sheet says 1 to 3 (`run
        #: --most-duel-cards` for a table that agrees on more).
        self.most_cards = most_cards
        self.app = app
        self.follow_games = follow_games
        if app is not None:
            # The table follows newer games itself, between duels (`_follow`); the app must
            # not switch on its own (`refresh`) while a named duel waits for its verdict.
            app.follows_newest_game = False
        self.say = say
        self._lock = threading.Lock()
        self._next = NextDuel(SEATS, cards)
        self._generation = 0  # one more for every change asked for
        self._loaded_generation: int | None = None  # the change the loaded duel carries
        self._loaded_named = False  # the loaded duel names players (its verdict credits them)
        #: The number each duel is shown with: duels played here counted from 1. The service's
        #: id also counts duels loaded and replaced unplayed (each `duel` that names players
        #: loads one), so the printed numbers would skip.
        self._numbers: dict[int, int] = {}
        self._played = 0

    @property
    def next_duel(self) -> NextDuel:
        with self._lock:
            return self._next

    def start(self) -> None:
        """Load the first duel. Then feed `control` every event, on the loop's thread,
        between its turns (`run_headless` does), and add `tell` as a listener."""
        self._load()

    def _load(self, *, replace_started: bool = True) -> None:
        nxt = self.next_duel
        self.service.load(Side.LEFT, Side.RIGHT, nxt.cards, nxt.pairing.players(),
                          replace_started=replace_started)

    # -- the service's side --

    def control(self, event: ServiceEvent) -> None:
        """The table's own control: keep a duel loaded, and use a pairing up once played."""
        if isinstance(event, DuelLoaded):
            with self._lock:
                carried = (dict(event.players), event.cards) == (self._next.pairing.players(),
                                                                 self._next.cards)
                self._loaded_generation = self._generation if carried else None
                self._loaded_named = bool(event.players)
        elif isinstance(event, VerdictGiven):
            result = event.result
            if result.outcome is Outcome.ABORTED:
                self._load()  # the duel was not played: the same players play it again
            elif not result.rematch:
                with self._lock:
                    if self._loaded_generation == self._generation:
                        self._next = NextDuel(SEATS, self.default_cards)  # it was played
        elif isinstance(event, ReactionsTimed):
            self._load()

    def tell(self, event: ServiceEvent) -> None:
        """A listener: a line for whoever watches, for each verdict and its times."""
        if isinstance(event, VerdictGiven):
            self.say(describe_verdict(event, self._number(event.duel_id)))
            result, config = event.result, self.service.config
            if (result.outcome is Outcome.EARLY_PRESS and result.go_us is not None
                    and result.decided_at_us is not None):
                # the other player's reaction is timed up to the response timeout after the
                # go the countdown would have shown: the next duel loads only then
                left = (result.go_us + config.response_timeout_us + config.settle_us
                        - result.decided_at_us)
                self.say("  " + _("the next duel can start in {seconds} s, once the other "
                                  "player's time to react is up").format(
                                      seconds=f"{max(0, left) / 1_000_000:.1f}"))
        elif isinstance(event, VerdictContested):
            who = _names(event.players)
            self.say("  " + contest_text(event, who.__getitem__))
        elif isinstance(event, LaunchFailed):
            self.say(describe_failed(event, self._number(event.duel_id)))
        elif isinstance(event, ReactionsTimed):
            who = _names(event.players)
            times = ", ".join(_("{name} {ms} ms").format(name=who[side], ms=f"{us / 1000:.1f}")
                              for side, us in event.reaction_us.items() if us is not None)
            self.say("  " + _("reactions: {times}").format(times=times or _("nobody pressed")))

    def _number(self, duel_id: int) -> int:
        """The number duel `duel_id` is shown with (a tie's rematch keeps its duel's)."""
        if duel_id not in self._numbers:
            self._played += 1
            self._numbers[duel_id] = self._played
            if len(self._numbers) > 16:  # only the last few duels are ever spoken of again
                del self._numbers[min(self._numbers)]
        return self._numbers[duel_id]

    # -- the duel socket's side --

    def request(self, request: dict[str, Any]) -> dict[str, str]:
        """Answer one request from `uno-showdown duel` (see `uno_showdown.headless.duel_socket`)."""
        try:
            if "status" in request:
                return {"ok": self.status()}
            body = request.get("duel")
            if not isinstance(body, dict):
                return {"error": _("the request names no duel: use `uno-showdown duel`")}
            return {"ok": self._change(body)}
        except (PairingError, DuelError, ValueError) as exc:
            return {"error": str(exc)}

    def status(self) -> str:
        text = (_("next duel (after the duel under way): {duel}; {game}")
                if self.service.under_way else _("next duel: {duel}; {game}"))
        return text.format(duel=self.next_duel.describe(), game=self._game_line())

    def _change(self, body: dict[str, Any]) -> str:
        players = body.get("players") or []
        cards = body.get("cards")
        played_by = body.get("played_by")
        if (not isinstance(players, list) or len(players) not in (0, 2)
                or not all(isinstance(p, str) for p in players)):
            raise ValueError(_("name two players (the left paddle's first), or nobody"))
        if cards is not None and (not isinstance(cards, int) or isinstance(cards, bool)):
            raise ValueError(_("the number of cards must be a whole number"))
        if played_by is not None and (not isinstance(played_by, str) or players
                                      or body.get("seats")):
            raise ValueError(_("a showdown card names the one player who played it, nobody "
                               "else"))
        current = self.next_duel
        if played_by is None and cards is not None and not players and not body.get("seats"):
            played_by = current.played_by  # new cards for a showdown card: its rule again
        if played_by is not None:
            if cards is None:  # the service's cards, as many as a showdown may put in
                cards = min(self.default_cards, MAX_DUEL_CARDS)
            chosen = self._showdown_card(played_by, cards)
        else:
            game_id = current.game_id
            if players:
                pairing, game_id = self._pair(players[0], players[1])
            elif body.get("seats"):
                pairing, game_id = SEATS, None
            else:
                pairing = current.pairing
            if cards is None:  # a change of players starts from the default cards
                cards = self.default_cards if players or body.get("seats") else current.cards
            chosen = NextDuel(pairing, cards, "" if players or body.get("seats")
                              else current.why, game_id)
        self._check_cards(chosen.cards)
        with self._lock:
            self._generation += 1
            self._next = chosen
        under_way = self.service.under_way
        self._load(replace_started=False)  # never cuts a started duel short
        text = (_("next duel: {duel}: after the duel under way") if under_way
                else _("next duel: {duel}: press the timer button to start it"))
        return text.format(duel=chosen.describe())

    def _game_app(self) -> Any:
        """The companion, caught up with the file (a game started, a player renamed or a
        Reverse played from a terminal or a screen since), with a game to name players from."""
        app = self.app
        if app is None:
            raise PairingError(_("this table keeps no score (its games file could not be "
                                 "opened), so it cannot name players: name nobody to duel for "
                                 "the seats"))
        self._follow(app)
        app.refresh()
        self._check_game(app)
        if app.game is None:
            raise PairingError(_("there is no game to name players from: start one with "
                                 "`uno-showdown game new`, or name nobody to duel for the "
                                 "seats"))
        return app

    def _pair(self, left: str, right: str) -> tuple[Pairing, int]:
        """A duel named by hand: the rules' check of two players (`companion.table.turns`), and
        the game they were named in."""
        app = self._game_app()
        return Pairing(*app.duel_by_hand(left, right)), app.game.id

    def _showdown_card(self, played_by: str, cards: int) -> NextDuel:
        """A showdown card played by `played_by`: they face the next player in the game's
        direction of play, with the cards the symbol shows (`companion.table.turns`)."""
        app = self._game_app()
        proposal = app.propose_showdown(played_by, cards)
        direction = app.game.direction.label
        return NextDuel(Pairing(proposal.challenger, proposal.opponent), proposal.cards,
                        _("{name}'s showdown card, play going {direction}").format(
                            name=proposal.challenger, direction=direction),
                        app.game.id, proposal.challenger)

    def _follow(self, app: Any) -> None:
        """Move to the newest game in the file, unless a named duel is under way (its
        verdict belongs to the game it was named in; the next request moves on)."""
        if not self.follow_games:
            return
        with self._lock:
            named_under_way = self._loaded_named
        if named_under_way and self.service.under_way:
            return
        # A verdict just given is credited with the game current when the score keeper
        # hears it (its listener): let it hear what was said so far before moving on.
        self.service.flush_listeners(FOLLOW_FLUSH_S)
        if app.follow_newest_game():
            log.info("following the newest game, %s", app.game.id)

    def _check_game(self, app: Any) -> None:
        """Drop a waiting pairing named in another game than the table's: the seats."""
        game_id = app.game.id if app.game is not None else None
        with self._lock:
            old = self._next
            if not old.pairing.named or old.game_id == game_id:
                return
            self._generation += 1
            self._next = NextDuel(SEATS, old.cards)
        if game_id is not None:
            text = _("the table keeps score in game {game} now: the next duel is for the "
                     "seats, not {left} against {right} of game {old}; name its players again "
                     "with `uno-showdown duel`")
        else:
            text = _("the table keeps score in no game now: the next duel is for the seats, "
                     "not {left} against {right} of game {old}; name its players again with "
                     "`uno-showdown duel`")
        self.say(text.format(game=game_id, left=old.pairing.left, right=old.pairing.right,
                             old=old.game_id))
        self._load(replace_started=False)

    def _check_cards(self, cards: int) -> None:
        Load(Side.LEFT, Side.RIGHT, cards)  # one rule for what a duel may load
        most = self.service.unit.max_cards
        if most is not None and cards > most:
            raise DuelError(_("the {unit} unit launches at most {most} cards at once: name "
                              "fewer").format(unit=self.service.unit.name, most=most))
        if cards > self.most_cards:
            raise DuelError(_("a duel loads 1 to {most} cards, not {cards} (the Showdown sheet "
                              "says 1 to 3): name fewer, or start the table with "
                              "--most-duel-cards N if it agrees on more").format(
                most=self.most_cards, cards=cards))

    def _game_line(self) -> str:
        app = self.app
        if app is None:
            return _("no score is kept (the games file could not be opened)")
        self._follow(app)
        self._check_game(app)
        game = app.game
        if game is None:
            return _("no game yet: start one with `uno-showdown game new` to name players")
        return _("game {game}: {players}; play goes {direction}").format(
            game=game.id, players=", ".join(app.player_names()), direction=game.direction.label)


def describe_failed(event: LaunchFailed, number: int) -> str:
    """A verdict whose cards never flew: said as plainly as the verdict was."""
    return _("duel {number}: launch failed ({reason}): nobody takes the cards; load the duel "
             "again").format(number=number, reason=event.reason)


def describe_verdict(event: VerdictGiven, number: int) -> str:
    """One line a table reads at a glance: who won and why, named or by seat; `number`
    counts the duels played at the table."""
    r = event.result
    name = _names(event.players)
    if r.outcome is Outcome.FASTER and r.winner is not None:
        what = _("{name} was faster").format(name=name[r.winner])
    elif r.outcome is Outcome.EARLY_PRESS and r.loser is not None:
        what = _("{name} pressed early").format(name=name[r.loser])
    elif r.outcome is Outcome.TIE:
        what = _("a tie: start it again") if r.rematch else _("a tie, cards split")
    elif r.outcome is Outcome.TIMEOUT:
        what = _("nobody pressed in time")
    else:
        what = _("aborted ({reason})").format(reason=r.reason) if r.reason else _("aborted")
    cards = sum(p.cards for p in r.launch)
    if not cards:
        return _("duel {number}: {what}").format(number=number, what=what)
    taken = ", ".join(_("{name} takes {n}").format(name=name[p.side], n=p.cards)
                      for p in r.launch)
    return _("duel {number}: {what}; {taken}").format(number=number, what=what, taken=taken)
