"""The table view: the seating and the direction of play, and the helpers the rules call for.

A strip along the top says which way play goes in the round in play, with one Reverse
button (also the R key here, and Ctrl+R anywhere on the screen); the direction is kept in
the games file, so every screen and `uno-showdown game direction` agree. Below it, one page
at a time (the buttons beside Reverse switch them):

* Seats: the players round the table, the dealer marked, arrows the way play goes.
* Showdown (UNO Showdown): one row per player, "Ann → Bob", with 1, 2 and 3: a tap on the
  number the symbol shows proposes that player against the next one in the direction of
  play. Wild opens the Wild Showdown: any opponent, 1-3 cards. The duel proposed goes to
  the duel bar of the window the screen sits in (load it there with F10), and is named at
  the bottom.
* Item Box (UNO Mario Kart): tap who played the Wild Item Box and the colour of the card
  turned over: the item, what it does and whom it hits, named from the seating. A row of
  the players says who played directly before (the banana peel hits them): the seat before,
  marked by the turn helper, until the table taps another (whoever laid a Skip, a Draw Two
  or a Wild Draw Four, or jumped in).
* First card: tap the kind of card turned up to start the deal: who starts and which way
  (a Reverse turns the direction, as the rules say).

The rules themselves are the pure modules' (`companion.table.turns`, `companion.table.items`,
`companion.table.deal`); this view only asks and draws.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import pygame

from companion.deck.cards import Colour, parse_card
from companion.screen.views.standings import draw_dealer
from companion.table.deal import Opening, describe_opening
from companion.table.items import (
    ITEM_OF_COLOUR,
    ONLY_THE_ITEM,
    ItemEffect,
    colour_to_follow,
    describe,
    reveal,
    seat_guess,
)
from companion.table.miss_turn import faces_in, names
from companion.table.turns import MAX_DUEL_CARDS, Direction
from companion.touch import theme
from companion.touch.i18n import N_, _
from companion.touch.view import View
from companion.touch.widgets import Button, grid, row
from showdown.contract.errors import CompanionError
from showdown.contract.i18n import _ as core_

TOP_H = 56
#: The direction in the top strip's box, short enough for one line at 800x480.
DIRECTION_SHORT = {
    Direction.CLOCKWISE: N_("clockwise"),
    Direction.COUNTERCLOCKWISE: N_("counter-clockwise"),
}
#: The strip narrower than this takes two rows (see `TableView.two_rows`).
TWO_ROWS_BELOW = 560
#: The Reverse button's width on the first of two rows.
REVERSE_W = 120
ROW_H = 52
#: The width of a card-count button in a showdown row.
COUNT_W = 52
FOOT_H = 44
#: The line of words over the Item Box page's row of who played before.
BEFORE_LABEL_H = 20
#: The width of the ▲ ▼ buttons that turn the showdown rows' pages.
PAGE_W = 52

PAGES = {
    "seats": N_("Seats"),
    "showdown": N_("Showdown"),
    "items": N_("Item Box"),
    "first_card": N_("First card"),
}
COLOUR_NAMES = {
    Colour.RED: N_("Red"),
    Colour.YELLOW: N_("Yellow"),
    Colour.GREEN: N_("Green"),
    Colour.BLUE: N_("Blue"),
    None: N_("Wild"),
}
COLOUR_FILLS = {Colour.RED: "red", Colour.YELLOW: "yellow", Colour.GREEN: "green",
                Colour.BLUE: "blue", None: "wild"}
#: The kinds of card the first-card page offers (a number stands for every number).
FIRST_CARDS = (("r5", N_("Number")), ("rskip", N_("Skip")), ("rrev", N_("Reverse")),
               ("r+2", N_("Draw Two")), ("wild", N_("Wild")), ("wild+4", N_("Wild Draw Four")),
               ("itembox", N_("Item Box")), ("showdown", N_("Wild Showdown")))


class TableView(View):
    name = "table"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.page = "seats"
        self._game_id: int | None = None
        #: Wild Showdown: whose it is (the opponent and cards are tapped next), else None.
        self.wild_by: str | None = None
        #: Showdown page: the first player's row shown, when the rows take more than a page.
        self.first_row = 0
        #: Item Box: who played it, and the effect of the colour tapped last.
        self.item_by: str | None = None
        self.effect: ItemEffect | None = None
        #: Item Box: who played directly before it, as the table tapped it (whoever laid a
        #: card that made the next player miss their turn, or jumped in); None: the seat
        #: before, the turn helper's own answer.
        self.item_before: str | None = None
        self.item_colour: Colour | None = None
        #: First card: the opening tapped last.
        self.opening: Opening | None = None
        self.error = ""

    # -- state --

    def pages(self) -> list[str]:
        """The pages this game's deck has."""
        game = self.app.game
        if game is None:
            return []
        out = ["seats"]
        if game.edition.holds(parse_card("showdown")):
            out.append("showdown")
        if game.edition.holds(parse_card("itembox")):
            out.append("items")
        return [*out, "first_card"]

    def enter(self) -> None:
        """Open on the deck's own helper the first time a game is shown."""
        game = self.app.game
        game_id = game.id if game is not None else None
        if game_id != self._game_id:
            self._game_id = game_id
            pages = self.pages()
            self.page = next((p for p in ("showdown", "items") if p in pages), "seats")
            self.wild_by = self.item_by = self.item_before = None
            self.first_row = 0
            self.effect = self.opening = None
            self.error = ""
        if self.page not in self.pages():
            self.page = "seats"
        players = self.players()
        if self.item_by not in players:
            self.item_by, self.effect = None, None
        if self.item_before not in players:
            self.item_before = None
        if self.wild_by not in players:
            self.wild_by = None

    def players(self) -> list[str]:
        game = self.app.game
        return list(game.seating.players) if game is not None else []

    def show(self, page: str) -> None:
        self.page, self.wild_by, self.error, self.first_row = page, None, "", 0

    def reverse(self, *, tell: bool = False) -> None:
        """Turn the direction of play; `tell` says so in a notice (when this view, which
        shows the direction at the top, is not on screen)."""
        self._act(self.app.reverse)
        if tell and self.app.game is not None:
            self.nav.notify(_("Play goes {direction}").format(
                direction=self.app.game.direction.label))
        self.effect = None  # who it hits may have changed

    def _act(self, action: Any, *args: Any) -> Any:
        """Run an app action; a refusal is shown in one line instead of raised."""
        try:
            result = action(*args)
        except CompanionError as exc:
            self.error = str(exc)
            self.nav.invalidate()
            return None
        self.error = ""
        return result

    def propose(self, played_by: str, cards: int) -> None:
        proposal = self._act(self.app.propose_showdown, played_by, cards)
        if proposal is not None:
            self.nav.invalidate()

    def start_wild(self, played_by: str) -> None:
        self.wild_by, self.error, self.first_row = played_by, "", 0

    def propose_wild(self, opponent: str, cards: int) -> None:
        if self.wild_by is None:
            return
        proposal = self._act(self.app.propose_wild_showdown, self.wild_by, opponent, cards)
        if proposal is not None:
            self.wild_by, self.first_row = None, 0
            self.nav.invalidate()

    def choose_item_player(self, name: str) -> None:
        self.item_by, self.effect, self.error = name, None, ""
        self.item_before = None

    def played_before(self) -> str | None:
        """Who played directly before the Item Box: as tapped, else the seat before its
        player in the direction of play (None until its player is tapped)."""
        game = self.app.game
        if game is None or self.item_by is None:
            return None
        return self.item_before or game.seating.before(self.item_by)

    def choose_before(self, name: str) -> None:
        """The table says who played directly before the Item Box; an item already shown
        is worked out again."""
        self.item_before = name
        if self.effect is not None:
            self.reveal(self.item_colour)

    def reveal(self, colour: Colour | None) -> None:
        game = self.app.game
        if game is None or self.item_by is None:
            self.error = _("First tap who played the Wild Item Box.")
            return
        self.item_colour = colour
        self.effect = self._act(partial(reveal, before=self.item_before),
                                game.seating, self.item_by, colour)

    def first_card(self, code: str) -> None:
        self.opening = self._act(self.app.opening, parse_card(code))

    # -- geometry --

    def two_rows(self) -> bool:
        """The top strip in two rows (the direction and Reverse over the page buttons): in
        the emulator's narrow panel one row leaves each page button too narrow for its word
        ("Showdown") and the direction's box for "counter-clockwise"."""
        return self.rect.width - 16 < TWO_ROWS_BELOW

    def top_rect(self) -> pygame.Rect:
        r = self.rect
        height = TOP_H + 6 + theme.TOUCH_PX if self.two_rows() else TOP_H
        return pygame.Rect(r.x + 8, r.y + 8, r.width - 16, height)

    def direction_w(self) -> int:
        """The direction's box: a third of the strip, at least room for a word or two (on
        two rows: the first row but for the Reverse button)."""
        if self.two_rows():
            return self.top_rect().width - REVERSE_W - 8
        return max(150, min(260, self.top_rect().width // 3))

    def body_rect(self) -> pygame.Rect:
        r = self.rect
        top = r.y + 8 + self.top_rect().height + 8
        return pygame.Rect(r.x + 8, top, r.width - 16, r.bottom - 8 - top)

    def foot_rect(self) -> pygame.Rect:
        body = self.body_rect()
        return pygame.Rect(body.x, body.bottom - FOOT_H, body.width, FOOT_H)

    # -- buttons --

    def buttons(self) -> list[Button]:
        if self.app.game is None:
            return []
        top = self.top_rect()
        pages = self.pages()
        direction_w = self.direction_w()
        if self.two_rows():
            cells = [pygame.Rect(top.x + direction_w + 8, top.y, REVERSE_W, TOP_H), *row(
                pygame.Rect(top.x, top.y + TOP_H + 6, top.width, theme.TOUCH_PX), len(pages),
                6)]
        else:
            cells = row(pygame.Rect(top.x + direction_w + 8, top.y, top.width - direction_w - 8,
                                    top.height), 1 + len(pages), 6)
        out = [Button("reverse", cells[0], "⇄ " + _("Reverse"), self.reverse, sublabel="R",
                      font_px=18)]
        for page, cell in zip(pages, cells[1:], strict=True):
            out.append(Button(f"page:{page}", cell, _(PAGES[page]), partial(self.show, page),
                              selected=page == self.page, font_px=16))
        if self.page == "showdown":
            out += self._wild_buttons() if self.wild_by else self._showdown_buttons()
        elif self.page == "items":
            out += self._item_buttons()
        elif self.page == "first_card":
            out += self._first_card_buttons()
        return out

    def row_names(self) -> list[str]:
        """Whose rows the showdown page has: everyone, or a Wild Showdown's opponents."""
        return [p for p in self.players() if p != self.wild_by]

    def _extra(self) -> int:
        """The buttons a row has besides 1-3: Wild, unless a Wild Showdown is being set."""
        return 0 if self.wild_by else 1

    def _rows_area(self) -> pygame.Rect:
        body = self.body_rect()
        return pygame.Rect(body.x, body.y, body.width, body.height - FOOT_H - 8)

    def _columns(self, count: int, extra: int) -> int:
        """One column up to 5 players, else two while their count buttons stay a finger
        wide beside the names (the emulator's narrow panel keeps one, a page at a time)."""
        if count <= 5:
            return 1
        half = pygame.Rect(0, 0, (self._rows_area().width - 8) // 2, ROW_H)
        return 2 if min(c.width for c in self._counts(half, "", extra)[1]) >= \
            theme.TOUCH_PX else 1

    def _rows_per_page(self, count: int, extra: int) -> int:
        columns = self._columns(count, extra)
        fit = max(1, (self._rows_area().height + 6) // (theme.TOUCH_PX + 6))
        return columns * fit

    def paged(self) -> bool:
        """The showdown rows take more than one page (then ▲ ▼ turn the pages)."""
        names = self.row_names()
        return self._rows_per_page(len(names), self._extra()) < len(names)

    def _row_cells(self, names: list[str], extra: int) -> list[tuple[str, pygame.Rect]]:
        """One row per player above the foot (those of the page shown), with its cell."""
        area = self._rows_area()
        columns = self._columns(len(names), extra)
        shown = names[self.first_row:self.first_row + self._rows_per_page(len(names), extra)]
        rows = -(-len(shown) // columns)
        h = max(theme.TOUCH_PX, min(ROW_H, (area.height - 6 * (rows - 1)) // max(1, rows)))
        return list(zip(shown, grid(area, len(shown), columns, h, 8), strict=True))

    def _page_buttons(self) -> list[Button]:
        """▲ ▼ at the foot's right when the rows take more than a page."""
        if not self.paged():
            return []
        foot = self.foot_rect()
        right = foot.right - (self.cancel_w() + 6 if self.wild_by else 0)
        cells = row(pygame.Rect(right - 2 * PAGE_W - 6, foot.y, 2 * PAGE_W + 6, foot.height), 2,
                    6)
        last = len(self.row_names()) - self._rows_per_page(len(self.row_names()),
                                                            self._extra())
        return [Button("rows:up", cells[0], "▲", lambda: self.scroll_rows(-1),
                       enabled=self.first_row > 0),
                Button("rows:down", cells[1], "▼", lambda: self.scroll_rows(1),
                       enabled=self.first_row < last)]

    def cancel_w(self) -> int:
        """The Wild Showdown's Cancel button: narrower beside the unit, where the foot's
        words need the room."""
        return 100 if self.two_rows() else 140

    def _foot_text_width(self) -> int:
        """The room the foot's line has beside the buttons at its right."""
        width = self.foot_rect().width - 8
        if self.wild_by:
            width -= self.cancel_w() + 12
        return width - (2 * PAGE_W + 12 if self.paged() else 0)

    def _counts(self, cell: pygame.Rect, key: str, extra: int) -> tuple[pygame.Rect,
                                                                     list[pygame.Rect]]:
        """A row's label area and its `MAX_DUEL_CARDS + extra` buttons on the right."""
        n = MAX_DUEL_CARDS + extra
        width = min(COUNT_W * n + 6 * (n - 1), cell.width * 3 // 5)
        buttons = pygame.Rect(cell.right - width, cell.y, width, cell.height)
        return pygame.Rect(cell.x, cell.y, cell.width - width - 8, cell.height), row(
            buttons, n, 6)

    def _showdown_buttons(self) -> list[Button]:
        out: list[Button] = []
        players = self.players()
        proposal = self.app.proposed_duel()
        for name, cell in self._row_cells(players, 1):
            _label, counts = self._counts(cell, name, 1)
            mine = proposal is not None and proposal.challenger == name
            for n, c in enumerate(counts[:MAX_DUEL_CARDS], 1):
                out.append(Button(f"showdown:{name}:{n}", c, str(n),
                                  partial(self.propose, name, n), font_px=22,
                                  selected=mine and proposal is not None and not proposal.wild
                                  and proposal.cards == n))
            out.append(Button(f"wild:{name}", counts[-1], _("Wild"),
                              partial(self.start_wild, name), font_px=15,
                              fill=theme.CARD_COLORS["wild"], outline=theme.TEXT_DIM,
                              selected=mine and proposal is not None and proposal.wild))
        return out + self._page_buttons()

    def _wild_buttons(self) -> list[Button]:
        assert self.wild_by is not None
        out: list[Button] = []
        for name, cell in self._row_cells(self.row_names(), 0):
            _label, counts = self._counts(cell, name, 0)
            for n, c in enumerate(counts, 1):
                out.append(Button(f"wild:{self.wild_by}:{name}:{n}", c, str(n),
                                  partial(self.propose_wild, name, n), font_px=22))
        foot = self.foot_rect()
        out.append(Button("wild:cancel", pygame.Rect(foot.right - self.cancel_w(), foot.y,
                                                     self.cancel_w(), foot.height),
                          _("Cancel"), self.cancel_wild, sublabel="Esc"))
        return out + self._page_buttons()

    def cancel_wild(self) -> None:
        self.wild_by, self.first_row = None, 0

    def scroll_rows(self, step: int) -> None:
        """Show the next (1) or the previous (-1) page of the showdown rows."""
        names = self.row_names()
        per_page = self._rows_per_page(len(names), self._extra())
        last = max(0, len(names) - per_page)
        self.first_row = max(0, min(last, self.first_row + step * per_page))

    def _item_buttons(self) -> list[Button]:
        out: list[Button] = []
        players = self.players()
        left, tiles, skip = self._item_layout()
        columns = 1 if len(players) <= 6 else 2
        rows = -(-len(players) // columns)
        h = max(theme.TOUCH_PX, min(ROW_H, (left.height - 6 * (rows - 1)) // rows))
        for name, cell in zip(players, grid(left, len(players), columns, h, 6), strict=True):
            out.append(Button(f"item_by:{name}", cell, name,
                              partial(self.choose_item_player, name),
                              selected=name == self.item_by, font_px=18))
        for colour, cell in zip(ITEM_OF_COLOUR, row(tiles, len(ITEM_OF_COLOUR), 6),
                                strict=True):
            card = COLOUR_FILLS[colour]
            out.append(Button(f"colour:{card}", cell, _(COLOUR_NAMES[colour]),
                              partial(self.reveal, colour), font_px=16,
                              sublabel=ITEM_OF_COLOUR[colour].label,
                              fill=theme.CARD_COLORS[card],
                              text_color=(20, 20, 20) if colour is Colour.YELLOW else None,
                              outline=theme.TEXT_DIM if colour is None else None,
                              selected=self.effect is not None and self.effect.item is
                              ITEM_OF_COLOUR[colour]))
        before = self.played_before()
        if before is not None:
            cells = row(pygame.Rect(skip.x, skip.y + BEFORE_LABEL_H, skip.width,
                                    skip.height - BEFORE_LABEL_H), len(players), 4)
            for name, cell in zip(players, cells, strict=True):
                out.append(Button(f"item_before:{name}", cell, name,
                                  partial(self.choose_before, name), selected=name == before,
                                  font_px=15))
        return out


    def _item_layout(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        """The Item Box page: the players' column, the colour tiles, the row that says who
        played before (the words go under it). Beside the unit the tiles take the whole
        width over the rest, so each colour's name and item read whole."""
        body = self.body_rect()
        left_w = min(220, body.width // 3)
        if self.two_rows():
            tiles = pygame.Rect(body.x, body.y, body.width, 60)
            left = pygame.Rect(body.x, tiles.bottom + 6, left_w, body.bottom - tiles.bottom - 6)
            skip = pygame.Rect(left.right + 12, left.y, body.right - left.right - 12,
                               BEFORE_LABEL_H + theme.TOUCH_PX)
            return left, tiles, skip
        left = pygame.Rect(body.x, body.y, left_w, body.height)
        tiles = pygame.Rect(left.right + 12, body.y, body.right - left.right - 12, 60)
        return left, tiles, pygame.Rect(tiles.x, tiles.bottom + 6, tiles.width,
                                        BEFORE_LABEL_H + theme.TOUCH_PX)

    def first_card_choices(self) -> list[tuple[str, str]]:
        game = self.app.game
        if game is None:
            return []
        return [(code, label) for code, label in FIRST_CARDS
                if game.edition.holds(parse_card(code))]

    def _first_card_buttons(self) -> list[Button]:
        body = self.body_rect()
        choices = self.first_card_choices()
        columns = 4
        cells = grid(pygame.Rect(body.x, body.y + 36, body.width, body.height), len(choices),
                     columns, 56, 8)
        out = []
        for (code, label), cell in zip(choices, cells, strict=True):
            card = parse_card(code)
            out.append(Button(f"first:{card.face}", cell, _(label), partial(self.first_card, code),
                              font_px=17, fill=theme.CARD_COLORS["wild" if card.is_wild
                                                                 else "red"],
                              outline=theme.TEXT_DIM if card.is_wild else None,
                              selected=self.opening is not None
                              and self.opening.card.face == card.face))
        return out

    # -- keys --

    def handle_key(self, event: pygame.event.Event) -> bool:
        if event.mod & pygame.KMOD_CTRL:
            return False
        if event.key == pygame.K_r:
            self.reverse()
            return True
        if event.key == pygame.K_ESCAPE and self.wild_by is not None:
            self.cancel_wild()
            return True
        return False

    # -- drawing --

    def draw_content(self, surface: pygame.Surface) -> None:
        r = self.rect
        game = self.app.game
        if game is None:
            theme.text(surface, _("No game yet"), (r.centerx, r.centery - 20), 28, bold=True,
                       anchor="center")
            theme.text(surface, _("Start one to see the table here."), (r.centerx,
                       r.centery + 20), 18, theme.TEXT_DIM, anchor="center")
            return
        top = self.top_rect()
        box = pygame.Rect(top.x, top.y, self.direction_w(), TOP_H)
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=8)
        arrow = "↻" if game.direction is Direction.CLOCKWISE else "↺"
        theme.text(surface, arrow, (box.x + 26, box.centery), 34, theme.ACCENT, bold=True,
                   anchor="center")
        width = box.width - 56
        # The round on top, the direction below it on one line: the box's own short words
        # (the arrow shows the way round; the full words are in the notice when it turns),
        # shrunk to fit where a language's words are long.
        theme.text(surface, _("Round {n}").format(n=len(game.rounds) + 1),
                   (box.x + 50, box.y + 6), 14, theme.TEXT_DIM, max_width=width)
        theme.text(surface, _(DIRECTION_SHORT[game.direction]), (box.x + 50, box.bottom - 8),
                   15, bold=True, anchor="bottomleft", max_width=width)
        if self.page == "seats":
            self._draw_seats(surface)
        elif self.page == "showdown":
            self._draw_showdown(surface)
        elif self.page == "items":
            self._draw_items(surface)
        else:
            self._draw_first_card(surface)
        if self.error:
            foot = self.foot_rect()
            pygame.draw.rect(surface, theme.DANGER, foot, border_radius=8)
            theme.text(surface, self.error, foot.center, 15, anchor="center",
                       max_width=foot.width - 16)

    def seat_positions(self) -> list[tuple[str, tuple[int, int]]]:
        """Where each player's name sits on the ring: the first seat at the bottom, the
        next ones clockwise (as seen from above, play to the left goes clockwise)."""
        body = self.body_rect()
        players = self.players()
        radius_x = body.width // 2 - 90
        radius_y = body.height // 2 - 30
        out = []
        for i, name in enumerate(players):
            angle = math.pi / 2 + 2 * math.pi * i / max(1, len(players))
            out.append((name, (round(body.centerx + radius_x * math.cos(angle)),
                               round(body.centery + radius_y * math.sin(angle)))))
        return out

    def _draw_seats(self, surface: pygame.Surface) -> None:
        game = self.app.game
        assert game is not None
        body = self.body_rect()
        seats = self.seat_positions()
        ring = body.inflate(-200, -70)
        pygame.draw.ellipse(surface, theme.LINE, ring, width=2)
        step = game.direction.step
        n = len(seats)
        for i in range(n):  # an arrow head between each seat and the next in play
            a = math.pi / 2 + 2 * math.pi * (i + 0.5 * step) / n
            x = body.centerx + (ring.width / 2) * math.cos(a)
            y = body.centery + (ring.height / 2) * math.sin(a)
            tangent = a + step * math.pi / 2
            tip = (x + 9 * math.cos(tangent), y + 9 * math.sin(tangent))
            back = [(x - 7 * math.cos(tangent) + 6 * math.cos(tangent + s * math.pi / 2),
                     y - 7 * math.sin(tangent) + 6 * math.sin(tangent + s * math.pi / 2))
                    for s in (1, -1)]
            pygame.draw.polygon(surface, theme.ACCENT, [tip, *back])
        dealer = game.dealer
        for name, (x, y) in seats:
            label = theme.font(20, True).size(name)[0]
            box = pygame.Rect(0, 0, min(170, label + 28), 40)
            box.center = (x, y)
            pygame.draw.rect(surface, theme.PANEL_HI, box, border_radius=8)
            theme.text(surface, name, box.center, 20, bold=True, anchor="center",
                       max_width=box.width - 12)
            if name == dealer:
                draw_dealer(surface, (box.right + 4, box.y + 4), 11)
        line = _("{dealer} deals · {starter} starts").format(dealer=dealer,
                                                              starter=game.starter)
        width = ring.width - 40
        parts = [line]
        if theme.fit(line, 16, width)[0] != line:  # the narrow ring: who deals over who starts
            parts = line.split(" · ", 1)
        for k, part in enumerate(parts):
            theme.text(surface, part, (body.centerx, body.centery + (2 * k - len(parts) + 1)
                                       * 10), 16, theme.TEXT_DIM, anchor="center",
                       max_width=width)

    def _draw_showdown(self, surface: pygame.Surface) -> None:
        game = self.app.game
        assert game is not None
        seating = game.seating
        if self.wild_by is not None:
            for name, cell in self._row_cells(self.row_names(), 0):
                label, _counts = self._counts(cell, name, 0)
                theme.text(surface, f"{self.wild_by} → {name}", (label.x + 8, label.centery),
                           18, bold=True, anchor="midleft", max_width=label.width - 8)
            line = _("Wild Showdown by {name}: tap the opponent's number of cards").format(
                name=self.wild_by)
            if not theme.fits_in_two(line, 14, self._foot_text_width()):
                line = _("Tap the opponent's number of cards")  # each row names them both
            self._foot_line(surface, line, theme.ACCENT)
            return
        for name, cell in self._row_cells(self.row_names(), 1):
            label, _counts = self._counts(cell, name, 1)
            pygame.draw.rect(surface, theme.PANEL, label, border_radius=8)
            theme.text(surface, f"{name} → {seating.after(name)}", (label.x + 10,
                       label.centery), 18, bold=True, anchor="midleft",
                       max_width=label.width - 14)
        proposal = self.app.proposed_duel()
        if proposal is None:
            line = _("A showdown card: tap its player's row at the number it shows.")
            color = theme.TEXT_DIM
        else:
            line = _("Next duel: {a} vs {b}, cards: {n}. Load it on the unit (F10).").format(
                a=proposal.challenger, b=proposal.opponent, n=proposal.cards)
            color = theme.ACCENT
        self._foot_line(surface, line, color)

    def _foot_line(self, surface: pygame.Surface, line: str, color: theme.Color) -> None:
        """The foot's words beside its buttons: one line, or two where one would be cut."""
        foot = self.foot_rect()
        theme.line_or_two(surface, line, foot.x + 4, foot.centery, self._foot_text_width(), 16,
                          color)

    def _draw_items(self, surface: pygame.Surface) -> None:
        game = self.app.game
        assert game is not None
        left, _tiles, skip = self._item_layout()
        area = pygame.Rect(skip.x, skip.bottom + 6, skip.width, left.bottom - skip.bottom - 6)
        pygame.draw.rect(surface, theme.PANEL, area, border_radius=8)
        x, width = area.x + 14, area.width - 28
        cards = names(faces_in(game.edition.cards()))
        if self.item_by is not None:
            theme.text(surface, _("Played just before {name}:").format(name=self.item_by),
                       (skip.x + 4, skip.y), 14, theme.TEXT_DIM, bold=True,
                       max_width=skip.width - 8)
        hint = None
        if self.item_by is None:
            hint = _("Who played the Wild Item Box? Tap them on the left, then the colour of "
                     "the card turned over.")
        elif self.effect is None:
            hint = " ".join((
                _("{name} played the Wild Item Box: tap the colour of the card turned "
                  "over.").format(name=self.item_by),
                _("The seat before {name} is marked above, unless a card made someone miss "
                  "their turn ({cards}): then tap whoever laid it.").format(name=self.item_by,
                                                                cards=cards)))
        if hint is not None or self.effect is None:  # on as many lines as the box needs
            y = area.y + 14
            for line in theme.wrap(hint or "", 16, width):
                y = theme.text(surface, line, (x, y), 16, theme.TEXT_DIM,
                               max_width=width).bottom + 2
            return
        y = theme.text(surface, self.effect.item.label, (x, area.y + 10), 26, theme.ACCENT,
                       bold=True, max_width=width).bottom + 8
        for sentence in describe(self.effect):
            for line in theme.wrap(sentence, 19, width):
                y = theme.text(surface, line, (x, y), 19, max_width=width).bottom + 2
            y += 6
        guess = seat_guess(self.effect, faces_in(game.edition.cards()))
        notes = [guess + " " + _("Tap them in the row above.")] if guess else []
        for line in [*(ln for note in notes for ln in theme.wrap(note, 14, width)),
                     *theme.wrap(colour_to_follow(self.effect), 14, width),
                     *theme.wrap(core_(ONLY_THE_ITEM), 14, width)]:
            if y + 18 > area.bottom:
                break
            y = theme.text(surface, line, (x, y), 14, theme.TEXT_DIM, max_width=width).bottom

    def _draw_first_card(self, surface: pygame.Surface) -> None:
        game = self.app.game
        assert game is not None
        body = self.body_rect()
        theme.text(surface, _("The first card turned up is a…"), (body.x + 4, body.y + 4), 18,
                   bold=True, max_width=body.width // 2)
        theme.text(surface, _("{dealer} deals").format(dealer=game.dealer),
                   (body.right - 4, body.y + 6), 16, theme.TEXT_DIM, anchor="topright",
                   max_width=body.width // 2 - 12)
        choices = self.first_card_choices()
        rows = -(-len(choices) // 4)
        top = body.y + 36 + rows * 64 + 4
        area = pygame.Rect(body.x, top, body.width, body.bottom - top)
        if self.opening is None or area.height < 30:
            return
        pygame.draw.rect(surface, theme.PANEL, area, border_radius=8)
        y = area.y + 10
        for sentence in describe_opening(self.opening):
            for line in theme.wrap(sentence, 20, area.width - 28, bold=True):
                if y + 24 > area.bottom:
                    return
                y = theme.text(surface, line, (area.x + 14, y), 20, bold=True,
                               max_width=area.width - 28).bottom + 4
        if self.opening.source is not None:  # whose rule: the sheet's, so both agree
            for line in theme.wrap(self.opening.source.label(), 14, area.width - 28):
                if y + 18 > area.bottom:
                    return
                y = theme.text(surface, line, (area.x + 14, y + 2), 14, theme.TEXT_DIM,
                               max_width=area.width - 28).bottom

