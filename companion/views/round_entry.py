"""Entering a round by touch: tap who went out, then tap each other player's cards from the deck.

The grid holds every card of the game's edition, coloured like the cards on
the table, so counting a hand is copying it: tap what you see. A card the
deck has run out of (across everyone's hands this round) greys out, a tapped
card can be taken back by tapping it in the hand strip, and the running totals
are always on screen. Nothing is saved until Confirm, and Confirm returns only
after the core has committed the round to SQLite.

Keys: 1-9 pick who went out; then r/y/g/b choose a colour, 0-9 add a number,
s skip, v reverse, d draw two, w wild, f wild draw four, x the edition's
special wild; Backspace takes the last card back; Tab/arrows move between
players; Enter confirms; Esc cancels.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pygame

from companion import theme
from companion.cards import Card, parse_card
from companion.errors import CompanionError
from companion.scoring import Method, hand_value
from companion.views import facts
from companion.views.base import View
from companion.views.i18n import N_, _
from companion.widgets import Button, grid, row

BAR_H = 56
STRIP_H = 52

#: How a card face is written on its button.
FACE_LABELS = {"skip": "⊘", "rev": "⇄", "+2": "+2"}
WILD_LABELS = {
    "wild": N_("Wild"),
    "wild+4": N_("Wild +4"),
    "showdown": N_("Showdown"),
    "itembox": N_("Item Box"),
    "team+4": N_("Team +4"),
    "teamplay": N_("Team Play"),
}
COLOUR_FILL = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
#: Keys that add a card (with the current colour for coloured faces).
FACE_KEYS = {pygame.K_s: "skip", pygame.K_v: "rev", pygame.K_d: "+2"}
WILD_KEYS = {pygame.K_w: "wild", pygame.K_f: "wild+4"}
COLOUR_KEYS = {pygame.K_r: "r", pygame.K_y: "y", pygame.K_g: "g", pygame.K_b: "b"}
DIGIT_KEYS = {getattr(pygame, f"K_{n}"): n for n in range(10)} | {
    getattr(pygame, f"K_KP{n}"): n for n in range(10)
}


def card_fill(card: Card) -> theme.Color:
    return theme.CARD_COLORS[COLOUR_FILL[card.colour.value] if card.colour else "wild"]


def card_label(card: Card) -> str:
    if card.colour is None:
        return _(WILD_LABELS.get(card.face, card.face))
    return FACE_LABELS.get(card.face, card.face)


def card_text_color(card: Card) -> theme.Color:
    return (20, 20, 20) if card.colour is not None and card.colour.value == "y" else theme.TEXT


class RoundEntryView(View):
    name = "round_entry"
    full_screen = True

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.winner: str | None = None
        self.hands: dict[str, list[Card]] = {}
        self.current: str | None = None
        self.colour = "r"
        self.error = ""

    # -- state --

    def enter(self) -> None:
        """Start a fresh round (re-entering the view after a save or cancel)."""
        if self.app.game is None:
            return
        if self.winner is not None and self.winner in self.players():
            return  # coming back from a notice or a poll: keep what was tapped
        self.reset()

    def reset(self) -> None:
        self.winner, self.current, self.error = None, None, ""
        self.hands = {name: [] for name in self.players()}

    def players(self) -> list[str]:
        game = self.app.game
        return game.seated_in(len(game.rounds)) if game is not None else []

    def out_players(self) -> list[str]:
        """Who has no cards: the winner, and under the teams method their partner too."""
        game = self.app.game
        if self.winner is None or game is None:
            return []
        if game.rules.method is Method.TEAMS:
            return list(game.entrant_of(self.winner).members)
        return [self.winner]

    def counted_players(self) -> list[str]:
        """Whose cards are entered: everyone seated who did not go out, in seating order."""
        out = self.out_players()
        return [p for p in self.players() if p not in out]

    def choose_winner(self, name: str) -> None:
        self.winner = name
        for p in self.out_players():
            self.hands[p] = []
        counted = self.counted_players()
        self.current = counted[0] if counted else None
        self.error = ""

    def hand_total(self, name: str) -> int:
        game = self.app.game
        assert game is not None
        return hand_value(self.hands.get(name, []), game.rules)

    def round_total(self) -> int:
        return sum(self.hand_total(p) for p in self.counted_players())

    def remaining(self, card: Card) -> int:
        """Copies of `card` not yet placed in any hand this round."""
        game = self.app.game
        assert game is not None
        used = sum(Counter(h)[card] for h in self.hands.values())
        return game.edition.counts.get(card, 0) - used

    def add(self, card: Card) -> None:
        if self.current is None or self.remaining(card) <= 0:
            return
        self.hands[self.current].append(card)
        self.error = ""

    def take_back(self, index: int | None = None) -> None:
        if self.current is None or not self.hands[self.current]:
            return
        hand = self.hands[self.current]
        hand.pop(len(hand) - 1 if index is None else index)

    def move(self, step: int) -> None:
        counted = self.counted_players()
        if self.current in counted:
            self.current = counted[(counted.index(self.current) + step) % len(counted)]

    def confirm(self) -> None:
        game = self.app.game
        if game is None or self.winner is None:
            return
        hands = {p: [c.code for c in self.hands[p]] for p in self.players()}
        try:
            self.app.record_round(self.winner, hands=hands)
        except CompanionError as exc:  # GameError and CardError: the message says what to fix
            self.error = str(exc)
            return
        winner, number = self.winner, len(game.rounds) + 1
        self.reset()
        self.nav.notify(_("Round {n} saved: {name} went out").format(n=number, name=winner))
        self.nav.invalidate()
        self.nav.go("game_over" if facts.game_over(self.app) else "standings")

    def cancel(self) -> None:
        self.reset()
        self.nav.go("standings")

    # -- geometry --

    def bar_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.bottom - BAR_H - 8, r.width - 16, BAR_H)

    def grid_rect(self) -> pygame.Rect:
        r = self.rect
        top = r.y + BAR_H + 8 + STRIP_H + 8
        return pygame.Rect(r.x + 8, top, r.width - 16, self.bar_rect().y - 8 - top)

    def strip_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.y + BAR_H + 8, r.width - 16, STRIP_H)

    # -- buttons --

    def buttons(self) -> list[Button]:
        if self.app.game is None:
            return []
        return self._winner_buttons() if self.winner is None else self._hand_buttons()

    def _winner_buttons(self) -> list[Button]:
        r = self.rect
        players = self.players()
        columns = 2 if len(players) <= 6 else 3
        area = pygame.Rect(r.x + 24, r.y + 64, r.width - 48, self.bar_rect().y - r.y - 72)
        rows = -(-len(players) // columns)
        cell_h = min(72, (area.height - 8 * (rows - 1)) // rows)
        out = [
            Button(f"winner:{name}", cell, name, lambda n=name: self.choose_winner(n),
                   font_px=24, sublabel=str(i + 1) if i < 9 else "")
            for i, (name, cell) in enumerate(
                zip(players, grid(area, len(players), columns, cell_h), strict=True))
        ]
        cells = row(self.bar_rect(), 4)
        out.append(Button("cancel", cells[0], _("Cancel"), self.cancel, sublabel="Esc"))
        return out

    def _hand_buttons(self) -> list[Button]:
        game = self.app.game
        assert game is not None
        out: list[Button] = []
        counted = self.counted_players()
        header = pygame.Rect(self.rect.x + 8, self.rect.y + 4, self.rect.width - 16, BAR_H - 4)
        for name, cell in zip(counted, row(header, max(1, len(counted)), 6), strict=False):
            out.append(Button(f"player:{name}", cell, name,
                              lambda n=name: self._select(n), selected=name == self.current,
                              sublabel=str(self.hand_total(name)), font_px=18))
        cards = game.edition.cards()
        coloured = [c for c in cards if c.colour is not None]
        wild = [c for c in cards if c.colour is None]
        columns = 13
        lines = -(-len(coloured) // columns) + (1 if wild else 0)
        area = self.grid_rect()
        cell_h = (area.height - 6 * (lines - 1)) // lines
        cells = grid(area, len(coloured), columns, cell_h, 6)
        wild_row = pygame.Rect(area.x, area.bottom - cell_h, area.width, cell_h)
        cells += row(wild_row, len(wild), 6)
        for card, cell in zip([*coloured, *wild], cells, strict=True):
            left = self.remaining(card)
            used = Counter(self.hands.get(self.current or "", []))[card]
            out.append(Button(f"card:{card.code}", cell, card_label(card),
                              lambda c=card: self.add(c), enabled=left > 0,
                              fill=card_fill(card), text_color=card_text_color(card),
                              outline=None if card.colour else theme.TEXT_DIM,
                              font_px=22 if card.colour else 18,
                              sublabel=f"×{used}" if used else ""))
        strip = self.strip_rect()
        x = strip.x + 150
        for i, card in enumerate(self.hands.get(self.current or "", [])):
            tile = pygame.Rect(x + i * 50, strip.y + 2, 46, strip.height - 4)
            if tile.right > strip.right - 150:
                break
            out.append(Button(f"hand:{i}", tile, card_label(card)[:2] if card.colour is None
                              else card_label(card), lambda i=i: self.take_back(i),
                              fill=card_fill(card), text_color=card_text_color(card),
                              font_px=16))
        bar = row(self.bar_rect(), 5)
        out += [
            Button("cancel", bar[0], _("Cancel"), self.cancel, sublabel="Esc"),
            Button("change_winner", bar[1], "★ " + (self.winner or ""), self._unpick_winner,
                   sublabel=_("went out"), font_px=18),
            Button("take_back", bar[2], "⌫", self.take_back, sublabel=_("last card"),
                   enabled=bool(self.current and self.hands[self.current])),
            Button("next", bar[3], _("Next"), lambda: self.move(1), sublabel="Tab",
                   enabled=len(counted) > 1),
            Button("confirm", bar[4], _("Confirm"), self.confirm, primary=True,
                   sublabel="Enter"),
        ]
        return out

    def _select(self, name: str) -> None:
        self.current, self.error = name, ""

    def _unpick_winner(self) -> None:
        self.winner, self.current = None, None
        self.error = ""

    # -- keys --

    def handle_key(self, event: pygame.event.Event) -> bool:
        key = event.key
        if event.mod & pygame.KMOD_CTRL:
            return False
        if key == pygame.K_ESCAPE:
            self.cancel()
            return True
        if self.winner is None:
            digit = DIGIT_KEYS.get(key)
            players = self.players()
            if digit is not None and 1 <= digit <= len(players):
                self.choose_winner(players[digit - 1])
                return True
            return False
        return self._hand_key(event)

    def _hand_key(self, event: pygame.event.Event) -> bool:
        key = event.key
        game = self.app.game
        assert game is not None
        if key in COLOUR_KEYS:
            self.colour = COLOUR_KEYS[key]
        elif key in DIGIT_KEYS:
            self.add(parse_card(f"{self.colour}{DIGIT_KEYS[key]}"))
        elif key in FACE_KEYS:
            self.add(parse_card(f"{self.colour}{FACE_KEYS[key]}"))
        elif key in WILD_KEYS or key == pygame.K_x:
            wilds = [c for c in game.edition.cards() if c.colour is None]
            face = WILD_KEYS.get(key)
            special = [c for c in wilds if c.face not in ("wild", "wild+4")]
            choice = [c for c in wilds if c.face == face] if face else special[:1]
            if choice:
                self.add(choice[0])
        elif key == pygame.K_BACKSPACE:
            self.take_back()
        elif key in (pygame.K_TAB, pygame.K_RIGHT, pygame.K_LEFT):
            back = key == pygame.K_LEFT or bool(event.mod & pygame.KMOD_SHIFT)
            self.move(-1 if back else 1)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.confirm()
        else:
            return False
        return True

    # -- drawing --

    def draw_content(self, surface: pygame.Surface) -> None:
        r = self.rect
        if self.app.game is None:
            return
        if self.winner is None:
            theme.text(surface, _("Who went out?"), (r.x + 24, r.y + 16), 26, bold=True)
            theme.text(surface, facts.game_line(self.app), (r.right - 24, r.y + 22), 16,
                       theme.TEXT_DIM, anchor="topright", max_width=r.width // 2)
        else:
            self._draw_strip(surface)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.error:  # on top of the hand strip, until the next tap
            box = self.strip_rect()
            pygame.draw.rect(surface, theme.DANGER, box, border_radius=8)
            theme.text(surface, self.error, box.center, 17, theme.TEXT, anchor="center",
                       max_width=box.width - 16)

    def _draw_strip(self, surface: pygame.Surface) -> None:
        strip = self.strip_rect()
        pygame.draw.rect(surface, theme.PANEL, strip, border_radius=8)
        if self.current is None:
            return
        theme.text(surface, self.current, (strip.x + 12, strip.centery), 20, bold=True,
                   anchor="midleft", max_width=130)
        if not self.hands[self.current]:
            theme.text(surface, _("tap the cards left in this hand"), (strip.x + 150,
                       strip.centery), 17, theme.TEXT_DIM, anchor="midleft")
        theme.text(surface, "Σ " + str(self.hand_total(self.current)),
                   (strip.right - 12, strip.y + 4), 22, theme.ACCENT, bold=True,
                   anchor="topright")
        theme.text(surface, _("round {points}").format(points=self.round_total()),
                   (strip.right - 12, strip.bottom - 4), 14, theme.TEXT_DIM,
                   anchor="bottomright")
