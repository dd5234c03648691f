"""The duel socket of a table window: `uno-showdown duel` works against an open emulator.

On a Pi the headless table answers `uno-showdown duel ANN BOB --cards 2` and `duel
--played-by ANN` (`uno_showdown.headless.table`). A desktop has the emulator window instead, so the
window answers the same requests on the same socket: the named duel is seated in the duel
bar and loaded, as F6/F7, 1-3 and F10 would, and the timer button (Space) starts it.

The socket's thread only hands a request over; the window's own thread answers it between
frames (`answer_pending`, from `TableWindow.tick`), so the duel bar, the companion and the
service are touched by one thread, as with a key or a click.
"""

from __future__ import annotations

import queue
from collections.abc import Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any, Protocol

from companion.table.pairing import SEATS, Pairing
from companion.table.turns import MAX_DUEL_CARDS
from showdown.contract.events import Side
from showdown.contract.i18n import _
from showdown.duel.text import cards_text

if TYPE_CHECKING:
    from showdown.service.loop import ShowdownService
    from uno_showdown.window.duel_bar import DuelBar, DuelChooser

#: How long a request waits for the window to answer (it answers within a frame; a window
#: stuck in a dialog of the system must not hold `uno-showdown duel` for ever).
ANSWER_S = 5.0


class DoorWindow(Protocol):
    """What the door reads and asks of the window (`uno_showdown.window.window.TableWindow`,
    which keeps the door: named here, so the two modules do not import each other)."""

    @property
    def service(self) -> ShowdownService: ...

    @property
    def app(self) -> object: ...

    @property
    def chooser(self) -> DuelChooser: ...

    @property
    def bar(self) -> DuelBar: ...

    @property
    def labels(self) -> Mapping[Any, str]: ...

    def wake(self) -> None: ...

    def took_proposal(self, proposal: object) -> None: ...


class WindowDuelDoor:
    """Requests from the duel socket, answered on the window's thread."""

    def __init__(self, window: DoorWindow) -> None:
        self.window = window
        self._waiting: queue.SimpleQueue[tuple[dict[str, Any], Future[dict[str, str]]]] = (
            queue.SimpleQueue())

    def request(self, request: dict[str, Any]) -> dict[str, str]:
        """The socket's handler (on the socket's thread): wait for the window's answer."""
        answer: Future[dict[str, str]] = Future()
        self._waiting.put((request, answer))
        self.window.wake()
        try:
            return answer.result(ANSWER_S)
        except FutureTimeout:
            return {"error": _("the emulator window did not answer: is it still open?")}

    def answer_pending(self) -> None:
        """Answer every request waiting (on the window's thread)."""
        while True:
            try:
                request, answer = self._waiting.get_nowait()
            except queue.Empty:
                return
            try:
                answer.set_result(self._answer(request))
            except ValueError as exc:  # a name not at the table, a card count out of range
                answer.set_result({"error": str(exc)})

    def _answer(self, request: dict[str, Any]) -> dict[str, str]:
        chooser = self.window.chooser
        if "status" in request:
            return {"ok": _("next duel: {pairing}, {cards}").format(
                pairing=chooser.pairing.describe(), cards=cards_text(chooser.cards))}
        body = request.get("duel")
        if not isinstance(body, dict):
            return {"error": _("the request names no duel: use `uno-showdown duel`")}
        if self.window.service.under_way:
            return {"error": _("a duel is under way in the emulator: name the next one when "
                               "its verdict is in")}
        players, cards = body.get("players") or [], body.get("cards")
        played_by = body.get("played_by")
        if cards is not None and (not isinstance(cards, int) or isinstance(cards, bool)
                                  or not 1 <= cards <= MAX_DUEL_CARDS):
            raise ValueError(_("a duel loads 1 to {n} cards").format(n=MAX_DUEL_CARDS))
        if played_by is not None or players:
            app = self._app()
            if played_by is not None:
                proposal = app.propose_showdown(str(played_by), cards or 1)
                self.window.took_proposal(proposal)
                pairing, cards = Pairing(proposal.challenger, proposal.opponent), proposal.cards
                why = " " + _("({name}'s showdown card, play going {direction})").format(
                    name=proposal.challenger, direction=app.game.direction.label)
            else:
                if not isinstance(players, list) or len(players) != 2:
                    raise ValueError(_("name two players (the left paddle's first), or nobody"))
                pairing, why = Pairing(*app.duel_by_hand(str(players[0]), str(players[1]))), ""
        else:
            pairing = SEATS if body.get("seats") else chooser.pairing
            why = ""
        chooser.pairing = pairing
        chooser.set_cards(cards if cards is not None else chooser.cards)
        self.window.service.load(Side.LEFT, Side.RIGHT, chooser.cards, chooser.players(),
                                 replace_started=False)
        self.window.bar.dirty = True
        return {"ok": _("next duel: {pairing}, {cards}{why}: press {key} in the emulator to "
                        "start it").format(
            pairing=pairing.describe(), cards=cards_text(chooser.cards), why=why,
            key=self.window.labels.get("timer") or _("the timer button"))}

    def _app(self) -> Any:
        """The score keeper, caught up with the games file, with a game to name players from."""
        app = self.window.app
        if app is None:
            raise ValueError(_("the emulator keeps no score, so it cannot name players: name "
                               "nobody to duel for the seats"))
        refresh = getattr(app, "refresh", None)
        if refresh is not None:
            refresh()
        if getattr(app, "game", None) is None:
            raise ValueError(_("there is no game to name players from: start one in the "
                               "emulator (New game) or with `uno-showdown game new`"))
        return app
