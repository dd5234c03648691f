"""The duel bar: who duels whom with how many cards, what happened last, and its buttons.

`DuelChooser` is the pure part (which two players, 1-3 cards, as a Wild
Showdown allows; the status line made from service events). `DuelBar` draws
it into a strip of the window and maps clicks to commands. Neither talks to
the service: the window turns the bar's commands into `service.load/abort`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import pygame

from companion.table.pairing import SEATS, Pairing, keep_seated, seat_next
from companion.table.turns import MAX_DUEL_CARDS
from showdown.contract.events import (
    CountdownStarted,
    DuelLoaded,
    EarlyPressSeen,
    GoShown,
    LaunchFailed,
    LaunchFinished,
    Outcome,
    ServiceEvent,
    Side,
    UnitFault,
    VerdictContested,
    VerdictGiven,
)
from showdown.duel.text import cards_text, contest_text
from uno_showdown.window.unit_view import TextCache

BAR = (28, 30, 36)
BUTTON = (62, 66, 78)
BUTTON_ON = (250, 200, 40)
BUTTON_TEXT = (240, 240, 240)
BUTTON_TEXT_ON = (20, 20, 24)
STATUS = (245, 245, 245)


@dataclass
class DuelChooser:
    """Which players sit at which paddle and how many cards are loaded next.

    The seating rules are `companion.table.pairing`'s, shared with the headless `duel` command.
    """

    names: list[str] = field(default_factory=list)
    pairing: Pairing = SEATS
    cards: int = 1
    status: str = "Pick the players and the cards, then load the duel (F10)."
    busy: bool = False  # a duel is loaded or running: the bar offers abort, not load

    def set_names(self, names: Sequence[str]) -> None:
        """New player list (a game was opened or changed): whoever is still playing keeps
        their paddle, an empty paddle gets the first player not seated."""
        self.names = list(names)
        self.pairing = keep_seated(self.names, self.pairing)

    def name(self, side: Side) -> str:
        """The player at `side`, or "Left"/"Right" when there is no game."""
        return self.pairing.name(side)

    def players(self) -> dict[Side, str]:
        """What `service.load(players=...)` gets: empty without a game's players."""
        return self.pairing.players()

    def next_player(self, side: Side) -> None:
        """Seat the next player at `side`, skipping whoever sits at the other paddle."""
        self.pairing = seat_next(self.names, self.pairing, side)

    def take(self, challenger: str, opponent: str, cards: int, wild: bool = False) -> bool:
        """Seat a duel the companion's table helper proposed (a showdown card's player at the
        left paddle, the opponent the rules give them at the right), with its cards; False
        when a name is not among the players."""
        if challenger not in self.names or opponent not in self.names or challenger == opponent:
            return False
        self.pairing = Pairing(challenger, opponent)
        self.set_cards(cards)
        what = "Wild Showdown" if wild else "Showdown card"
        self.status = (f"{what}: {challenger} vs {opponent}, {cards_text(self.cards)}: "
                       "load the duel (F10).")
        return True

    def set_cards(self, cards: int) -> None:
        self.cards = min(MAX_DUEL_CARDS, max(1, cards))

    def next_cards(self) -> None:
        self.cards = self.cards % MAX_DUEL_CARDS + 1

    def hear(self, event: ServiceEvent, keys: Mapping[Side | str, str]) -> bool:
        """Update the status line from a service event; True when it changed."""
        before = (self.status, self.busy)
        players = getattr(event, "players", None) or {}

        def who(side: Side) -> str:
            return players.get(side) or self.name(side)

        if isinstance(event, DuelLoaded):
            self.busy = True
            self.status = (f"{who(Side.LEFT)} vs {who(Side.RIGHT)}, {cards_text(event.cards)} "
                           f"loaded: press {keys.get('timer', 'the timer')} to start")
        elif isinstance(event, CountdownStarted):
            self.status = "Hands on the paddles..."
        elif isinstance(event, GoShown):
            self.status = "GO!"
        elif isinstance(event, EarlyPressSeen):
            self.status = f"{who(event.side)} pressed too early!"
        elif isinstance(event, VerdictGiven):
            self.busy = event.result.rematch
            self.status = verdict_text(event, who)
        elif isinstance(event, VerdictContested):
            self.status = contest_text(event, who) + "."
        elif isinstance(event, LaunchFailed):
            self.busy = False
            self.status = (f"Launch failed ({event.reason}): nobody takes the cards. "
                           "Load the duel again.")
        elif isinstance(event, UnitFault):
            self.status = f"Unit problem: {event.reason}"
        elif isinstance(event, LaunchFinished) and event.jammed:
            self.status = "The launcher jammed: clear it before the next duel."
        return (self.status, self.busy) != before


def verdict_text(event: VerdictGiven, name: Callable[[Side], str]) -> str:
    """One line a table reads aloud: who won, how fast, who takes the cards."""
    r = event.result
    cards = cards_text(event.cards)
    if r.outcome is Outcome.FASTER and r.winner is not None and r.loser is not None:
        ms = (r.reaction_us.get(r.winner) or 0) / 1000
        return f"{name(r.winner)} wins in {ms:.0f} ms: {name(r.loser)} takes {cards}."
    if r.outcome is Outcome.EARLY_PRESS and r.loser is not None:
        return f"{name(r.loser)} pressed before go and takes {cards}."
    if r.outcome is Outcome.TIE:
        if r.rematch:
            return "A tie! Same duel again: press the timer button."
        return "A tie: the cards are split."
    if r.outcome is Outcome.TIMEOUT:
        return "Nobody pressed in time: no winner."
    return f"Duel cancelled ({r.reason or 'aborted'})."


@dataclass(frozen=True, slots=True)
class BarButton:
    key: str  # "left", "right", "cards:1".."cards:3", "load", "abort"
    rect: pygame.Rect
    label: str
    on: bool = False


class DuelBar:
    """The strip with the chooser's buttons above a status line."""

    def __init__(self, chooser: DuelChooser) -> None:
        self.chooser = chooser
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.dirty = True
        self._text = TextCache()

    def place(self, rect: pygame.Rect) -> None:
        self.rect = pygame.Rect(rect)
        self.dirty = True

    def buttons(self, keys: Mapping[Side | str, str]) -> list[BarButton]:
        r = self.rect
        pad = max(3, r.h // 14)
        h = r.h // 2 - pad
        y = r.y + pad
        c = self.chooser
        widths = [0.25, 0.25, 0.08, 0.08, 0.08, 0.26]
        x = r.x + pad
        rects = []
        for frac in widths:
            w = int((r.w - pad * (len(widths) + 1)) * frac)
            rects.append(pygame.Rect(x, y, w, h))
            x += w + pad
        out = [
            BarButton("left", rects[0], f"L: {c.name(Side.LEFT)}"),
            BarButton("right", rects[1], f"R: {c.name(Side.RIGHT)}"),
        ]
        for n in range(1, MAX_DUEL_CARDS + 1):
            out.append(BarButton(f"cards:{n}", rects[1 + n], str(n), on=c.cards == n))
        if c.busy:
            out.append(BarButton("abort", rects[5], "Abort (Esc)"))
        else:
            out.append(BarButton("load", rects[5], "Load (F10)"))
        return out

    def hit(self, pos: tuple[int, int], keys: Mapping[Side | str, str]) -> str | None:
        for button in self.buttons(keys):
            if button.rect.collidepoint(pos):
                return button.key
        return None

    def draw(self, surface: pygame.Surface, keys: Mapping[Side | str, str]) -> None:
        r = self.rect
        surface.fill(BAR, r)
        size = max(12, r.h // 4)
        for b in self.buttons(keys):
            pygame.draw.rect(surface, BUTTON_ON if b.on else BUTTON, b.rect,
                             border_radius=max(3, b.rect.h // 5))
            label = self._fit(b.label, size, b.rect.w - 8)
            self._text.blit_centred(surface, label, size,
                                    BUTTON_TEXT_ON if b.on else BUTTON_TEXT, b.rect.center)
        status = self._fit(self.chooser.status, size, r.w - 12)
        surf = self._text.render(status, size, STATUS)
        surface.blit(surf, surf.get_rect(midleft=(r.x + 8, r.y + r.h * 3 // 4)))
        self.dirty = False

    def _fit(self, text: str, size: int, width: int) -> str:
        font = self._text.font(size)
        while text and font.size(text)[0] > width:
            text = text[:-2] + "…" if len(text) > 2 else ""
        return text
