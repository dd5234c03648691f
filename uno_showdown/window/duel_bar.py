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
from companion.touch import theme
from companion.touch.widgets import two_lines
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
from showdown.contract.i18n import N_, _
from showdown.duel.text import cards_text, contest_text

BAR = (28, 30, 36)
BUTTON = (62, 66, 78)
BUTTON_ON = (250, 200, 40)
BUTTON_TEXT = (240, 240, 240)
BUTTON_TEXT_ON = (20, 20, 24)
STATUS = (245, 245, 245)

#: The status line before anything happened (translated when the chooser is made: the
#: language is chosen after this module is imported).
FIRST_STATUS = N_("Pick the players and the cards, then load the duel (F10).")
#: Why a duel was called off, as the service words it: kept in English in the duel log,
#: shown in the table's language.
ABORT_REASONS = (N_("cancelled at the table"), N_("a new duel was loaded"),
                 N_("the table stopped"), N_("aborted"))


@dataclass
class DuelChooser:
    """Which players sit at which paddle and how many cards are loaded next.

    The seating rules are `companion.table.pairing`'s, shared with the headless `duel` command.
    """

    names: list[str] = field(default_factory=list)
    pairing: Pairing = SEATS
    cards: int = 1
    status: str = field(default_factory=lambda: _(FIRST_STATUS))
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
        what = _("Wild Showdown") if wild else _("Showdown card")
        self.status = _("{what}: {a} vs {b}, {cards}: load the duel (F10).").format(
            what=what, a=challenger, b=opponent, cards=cards_text(self.cards))
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
            self.status = _("{a} vs {b}, {cards} loaded: press {key} to start").format(
                a=who(Side.LEFT), b=who(Side.RIGHT), cards=cards_text(event.cards),
                key=keys.get("timer") or _("the timer button"))
        elif isinstance(event, CountdownStarted):
            self.status = _("Hands on the paddles...")
        elif isinstance(event, GoShown):
            self.status = _("GO!")
        elif isinstance(event, EarlyPressSeen):
            self.status = _("{name} pressed too early!").format(name=who(event.side))
        elif isinstance(event, VerdictGiven):
            self.busy = event.result.rematch
            self.status = verdict_text(event, who)
        elif isinstance(event, VerdictContested):
            self.status = _("{contest}.").format(contest=contest_text(event, who))
        elif isinstance(event, LaunchFailed):
            self.busy = False
            self.status = _("Launch failed ({reason}): nobody takes the cards. "
                            "Load the duel again.").format(reason=event.reason)
        elif isinstance(event, UnitFault):
            self.status = _("Unit problem: {reason}").format(reason=event.reason)
        elif isinstance(event, LaunchFinished) and event.jammed:
            self.status = _("The launcher jammed: clear it before the next duel.")
        return (self.status, self.busy) != before


def verdict_text(event: VerdictGiven, name: Callable[[Side], str]) -> str:
    """One line a table reads aloud: who won, how fast, who takes the cards."""
    r = event.result
    cards = cards_text(event.cards)
    if r.outcome is Outcome.FASTER and r.winner is not None and r.loser is not None:
        ms = f"{(r.reaction_us.get(r.winner) or 0) / 1000:.0f}"
        return _("{winner} wins in {ms} ms: {loser} takes {cards}.").format(
            winner=name(r.winner), ms=ms, loser=name(r.loser), cards=cards)
    if r.outcome is Outcome.EARLY_PRESS and r.loser is not None:
        return _("{name} pressed before go and takes {cards}.").format(
            name=name(r.loser), cards=cards)
    if r.outcome is Outcome.TIE:
        if r.rematch:
            return _("A tie! Same duel again: press the timer button.")
        return _("A tie: the cards are split.")
    if r.outcome is Outcome.TIMEOUT:
        return _("Nobody pressed in time: no winner.")
    return _("Duel cancelled ({reason}).").format(reason=_(r.reason or ABORT_REASONS[-1]))


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

    def place(self, rect: pygame.Rect) -> None:
        self.rect = pygame.Rect(rect)
        self.dirty = True

    def buttons(self, keys: Mapping[Side | str, str]) -> list[BarButton]:
        r = self.rect
        pad = max(3, r.h // 14)
        h = r.h // 2 - pad
        y = r.y + pad
        c = self.chooser
        # "Load" gets the most room: a long language's word for it ("Завантажити") reads
        # whole over its key at 800x480
        widths = [0.24, 0.24, 0.07, 0.07, 0.07, 0.31]
        x = r.x + pad
        rects = []
        for frac in widths:
            w = int((r.w - pad * (len(widths) + 1)) * frac)
            rects.append(pygame.Rect(x, y, w, h))
            x += w + pad
        out = [
            BarButton("left", rects[0], _("L: {name}").format(name=c.name(Side.LEFT))),
            BarButton("right", rects[1], _("R: {name}").format(name=c.name(Side.RIGHT))),
        ]
        for n in range(1, MAX_DUEL_CARDS + 1):
            out.append(BarButton(f"cards:{n}", rects[1 + n], str(n), on=c.cards == n))
        if c.busy:
            out.append(BarButton("abort", rects[5], _("Abort (Esc)")))
        else:
            out.append(BarButton("load", rects[5], _("Load (F10)")))
        return out

    def hit(self, pos: tuple[int, int], keys: Mapping[Side | str, str]) -> str | None:
        for button in self.buttons(keys):
            if button.rect.collidepoint(pos):
                return button.key
        return None

    def text_size(self) -> int:
        """The type of the buttons and the status line: as large as the bar allows, never
        below the smallest the screens draw (`theme.MIN_TEXT_PX`)."""
        return max(theme.MIN_TEXT_PX, self.rect.h * 11 // 64)

    def draw(self, surface: pygame.Surface, keys: Mapping[Side | str, str]) -> None:
        """The buttons, each label whole (on two lines where one is too narrow, as for a
        long language's "Load" or its word for the right paddle), and the status line under
        them (on two lines too when it needs them; only what is still too long is cut,
        ending in "…")."""
        r = self.rect
        surface.fill(BAR, r)
        size = self.text_size()
        for b in self.buttons(keys):
            pygame.draw.rect(surface, BUTTON_ON if b.on else BUTTON, b.rect,
                             border_radius=max(3, b.rect.h // 5))
            button_label(surface, b.label, b.rect, size,
                         BUTTON_TEXT_ON if b.on else BUTTON_TEXT,
                         two=b.key in ("load", "abort", "left", "right"))
        theme.line_or_two(surface, self.chooser.status, r.x + 8, r.y + r.h * 3 // 4,
                          r.w - 16, size, STATUS, small=max(theme.MIN_TEXT_PX, size - 2))
        self.dirty = False


def button_label(surface: pygame.Surface, label: str, rect: pygame.Rect, size: int,
                 colour: tuple[int, int, int], *, two: bool = False) -> None:
    """`label` centred on a bar button: on one line where it fits, else (with `two`) split
    in two at a space ("Загрузить" over "(F10)", "П:" over "Правый"), else cut with "…" (a
    player's name too long for its line keeps its start)."""
    width = rect.w - 8
    split = two_lines(label, size, width) if two else None
    if split is None or theme.fit(label, size, width, bold=True)[0] == label:
        theme.text(surface, label, rect.center, size, colour, bold=True, anchor="center",
                   max_width=width)
        return
    small = max(theme.MIN_TEXT_PX, min(size, rect.h * 9 // 20))
    step = theme.font(small, True).get_linesize() // 2
    for i, part in enumerate(split):
        theme.text(surface, part, (rect.centerx, rect.centery + (2 * i - 1) * step), small,
                   colour, bold=True, anchor="center", max_width=width)
