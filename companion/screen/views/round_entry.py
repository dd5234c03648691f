"""Entering a round by touch: tap who went out, then tap each other player's cards from the deck.

The grid holds every card of the game's edition, coloured like the cards on
the table, so counting a hand is copying it: tap what you see. A card the
deck has run out of (across everyone's hands this round) greys out, a tapped
card can be taken back by tapping it in the hand strip, and the running totals
are always on screen. Nothing is saved until Confirm, and Confirm returns only
after the core has committed the round to SQLite.

Tables that count by hand switch a player to "Points" and type the hand's
value on a number pad instead; cards and points can be mixed in one round
(the core takes `hands=` and `points=` side by side). A player's tapped cards
are kept while they are on points, so switching back loses nothing.

The same view corrects a past round (`edit`): it opens with that round's
winner, cards and points, and Confirm replaces the round instead of adding one.

What a round asks for is the scoring method's (`rules.method.entry`):

* hands (most methods): who went out, then every other hand, as above. Under the H2O
  option the bar has one more button, the card the winner went out on (another card, a
  Wild +1 or a Wild +2), which takes 20 or 40 off their total.
* a finishing order (playing to the last player): tap the players in the order they went
  out; the last one left is placed by itself. Tapping a placed player takes them (and
  those after) back out of the order.
* only who went out (seven-round UNO): tap the player, see the hand they draw next, and
  confirm.

With the UNO Showdown deck the bar has the card the winner went out on too: another card,
or a showdown card, whose duel they must win for the round to stand (the rules). The duel
the unit just recorded decides ("won vs Bob" or "lost vs Bob"); without one, a tap says
won or lost. A lost duel records nothing: the button that confirms says that play goes on.

Keys: 1-9 pick who went out (or the next in the finishing order); then r/y/g/b choose a
colour, 0-9 add a number, s skip, v reverse, d draw two, w wild, f wild draw four, x the
edition's special wild; Backspace takes the last card back; p switches the player
between cards and points (on points, 0-9 and Backspace type the number); o changes the card
the winner went out on (H2O, UNO Showdown); Tab/arrows move between players; Enter confirms;
Esc cancels.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

import pygame

from companion.deck.cards import Card, Colour, parse_card
from companion.scoring import H2O_DEDUCTIONS, Entry, hand_value
from companion.screen.views import facts
from companion.screen.views.facts import card_label
from companion.screen.views.table import COLOUR_NAMES
from companion.table.last_draw import last_draw_applies, next_player
from companion.table.turns import LastCardDuel
from companion.touch import theme
from companion.touch.i18n import _
from companion.touch.view import View
from companion.touch.widgets import Button, grid, number_pad, row
from showdown.contract.errors import CompanionError

BAR_H = 56
#: The narrowest a key of the hands' bar may be before the bar takes two rows.
BAR_KEY_MIN_W = 80
STRIP_H = 52
#: The most digits a typed hand may have (a whole deck is worth well under 10,000).
MAX_DIGITS = 4
#: The number pad is no wider than this, so its keys stay key-shaped on a wide screen.
PAD_MAX_W = 420

COLOUR_FILL = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
#: Keys that add a card (with the current colour for coloured faces).
FACE_KEYS = {pygame.K_s: "skip", pygame.K_v: "rev", pygame.K_d: "+2"}
WILD_KEYS = {pygame.K_w: "wild", pygame.K_f: "wild+4"}
COLOUR_KEYS = {pygame.K_r: "r", pygame.K_y: "y", pygame.K_g: "g", pygame.K_b: "b"}
DIGIT_KEYS = {getattr(pygame, f"K_{n}"): n for n in range(10)} | {
    getattr(pygame, f"K_KP{n}"): n for n in range(10)
}


def type_digit(typed: str, digit: int) -> str:
    """`typed` with `digit` appended, leading zeros dropped; unchanged if it would grow too long."""
    new = str(int(typed + str(digit)))
    return new if len(new) <= MAX_DIGITS else typed


def card_fill(card: Card) -> theme.Color:
    return theme.CARD_COLORS[COLOUR_FILL[card.colour.value] if card.colour else "wild"]


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
        #: Players whose hand is typed as points rather than tapped as cards.
        self.counting: set[str] = set()
        #: The digits typed for each player on points ("" before any).
        self.typed: dict[str, str] = {}
        #: The round being corrected (1-based), or None while entering a new round.
        self.editing: int | None = None
        #: The finishing order tapped so far (methods that record one), first out first.
        self.order: list[str] = []
        #: The card the winner went out on, where it counts (H2O); None: another card.
        self.out_on: Card | None = None
        #: UNO Showdown: the winner went out on a showdown card; and what the table said of
        #: its duel (True won, False lost) when the unit recorded none (None: the record).
        self.showdown = False
        self.showdown_said: bool | None = None
        self._verdict_key: tuple[object, ...] = ()
        self._verdict: LastCardDuel | None = None

    # -- state --

    def enter(self) -> None:
        """Start a fresh round (re-entering the view after a save or cancel)."""
        if self.app.game is None:
            return
        players = self.players()
        if (self.winner is not None and self.winner in players) or (
                self.order and all(p in players for p in self.order)):
            return  # coming back from a notice or a poll: keep what was tapped
        self.reset()

    def reset(self) -> None:
        self.winner, self.current, self.error, self.editing = None, None, "", None
        self.hands = {name: [] for name in self.players()}
        self.counting, self.typed = set(), {}
        self.order, self.out_on = [], None
        self.showdown, self.showdown_said = False, None
        self._verdict_key = ()  # a new round asks the duels afresh

    def entry(self) -> Entry:
        """What the game's method asks a round for."""
        game = self.app.game
        return game.rules.method.entry if game is not None else Entry.HANDS

    def leave(self) -> None:
        """A correction left by another way than Confirm or Cancel (a function key) is dropped,
        so the next "Enter round" starts a new round rather than resuming the correction."""
        if self.editing is not None:
            self.reset()

    def edit(self, number: int) -> None:
        """Load round `number` (1-based) as it was entered, to be corrected and confirmed again."""
        game = self.app.game
        if game is None or not 1 <= number <= len(game.rounds):
            return
        rnd = game.rounds[number - 1]
        self.reset()
        self.editing = number
        self.hands = {name: [] for name in self.players()}
        for name, hand in rnd.hands.items():
            if hand.cards is not None:
                self.hands[name] = list(hand.cards)
            else:
                self.counting.add(name)
                self.typed[name] = str(hand.counted)
        self.out_on = rnd.out_on
        self.showdown = rnd.showdown_out
        if rnd.order:
            self.order = list(rnd.order)
            return
        self.choose_winner(rnd.winner)

    def players(self) -> list[str]:
        """Who takes part in the round being entered (or corrected), in seating order."""
        game = self.app.game
        if game is None:
            return []
        index = self.editing - 1 if self.editing is not None else len(game.rounds)
        return game.seated_in(index)

    def out_players(self) -> list[str]:
        """Who has no cards: the winner, and under the teams method their partner too."""
        game = self.app.game
        if self.winner is None or game is None:
            return []
        return list(game.entrant_of(self.winner).members)

    def counted_players(self) -> list[str]:
        """Whose cards are entered: everyone seated who did not go out, in seating order."""
        out = self.out_players()
        return [p for p in self.players() if p not in out]

    def choose_winner(self, name: str) -> None:
        if name != self.winner and self.editing is None:
            self.showdown, self.showdown_said = False, None
        self.winner = name
        for p in self.out_players():
            self.hands[p] = []
            self.counting.discard(p)
        counted = self.counted_players()
        self.current = counted[0] if counted else None
        self.error = ""

    def on_points(self, name: str | None) -> bool:
        """Whether `name`'s hand is typed as points (rather than tapped as cards)."""
        return name in self.counting

    def hand_total(self, name: str) -> int:
        game = self.app.game
        assert game is not None
        if name in self.counting:
            return int(self.typed.get(name) or 0)
        return hand_value(self.hands.get(name, []), game.rules, game.blank_value)

    def round_total(self) -> int:
        return sum(self.hand_total(p) for p in self.counted_players())

    def remaining(self, card: Card) -> int:
        """Copies of `card` not yet placed in any hand this round."""
        game = self.app.game
        assert game is not None
        used = sum(Counter(h)[card] for name, h in self.hands.items()
                   if name not in self.counting)
        if card == self.out_on:  # the winner's last card is on the table, not in a hand
            used += 1
        return game.edition.copies(card) - used

    def add(self, card: Card) -> None:
        if self.current is None or self.on_points(self.current) or self.remaining(card) <= 0:
            return
        self.hands[self.current].append(card)
        self.error = ""

    def take_back(self, index: int | None = None) -> None:
        """Take back the current hand's last card (or the one at `index`), or its last digit."""
        if self.current is None:
            return
        if self.on_points(self.current):
            self.typed[self.current] = self.typed.get(self.current, "")[:-1]
            return
        if not self.hands[self.current]:
            return
        hand = self.hands[self.current]
        hand.pop(len(hand) - 1 if index is None else index)

    def toggle_points(self) -> None:
        """Switch the current player between tapping cards and typing points."""
        name = self.current
        if name is None:
            return
        if name in self.counting:
            self.counting.discard(name)
        else:
            self.counting.add(name)
        self.error = ""

    def type_digit(self, digit: int) -> None:
        if self.current is None or not self.on_points(self.current):
            return
        self.typed[self.current] = type_digit(self.typed.get(self.current, ""), digit)
        self.error = ""

    def clear_points(self) -> None:
        if self.current is not None:
            self.typed[self.current] = ""

    def out_on_choices(self) -> list[Card | None]:
        """The cards a winner can go out on that count (H2O's), and None for any other."""
        game = self.app.game
        if game is None or not game.rules.h2o:
            return []
        return [None, *(c for c in H2O_DEDUCTIONS if game.edition.holds(c))]

    def cycle_out_on(self) -> None:
        choices = self.out_on_choices()
        if choices:
            at = choices.index(self.out_on) if self.out_on in choices else 0
            self.out_on = choices[(at + 1) % len(choices)]
            self.error = ""

    # -- a showdown card last --

    def showdown_deck(self) -> bool:
        """Whether the game's deck has showdown cards to go out on."""
        game = self.app.game
        return game is not None and game.edition.holds(parse_card("showdown"))

    def showdown_verdict(self) -> LastCardDuel | None:
        """How the duel on the winner's last card went (None: not a showdown card, a past
        round being corrected, or no duel recorded and nothing said yet)."""
        if not self.showdown or self.editing is not None or self.winner is None:
            return None
        game = self.app.game
        # asked on every frame: read the duels again only when something they depend on moved
        key = (self.winner, self.showdown_said, game, self.app.last_duel())
        if key != self._verdict_key:
            try:
                verdict: LastCardDuel | None = self.app.last_card(self.winner,
                                                                  self.showdown_said)
            except CompanionError:
                verdict = None
            self._verdict_key, self._verdict = key, verdict
        return self._verdict

    def cycle_showdown(self) -> None:
        """Another card → a showdown card (the recorded duel decides; without one: won →
        lost) → another card. Correcting a past round only marks it on or off."""
        self.error = ""
        if self.editing is not None:
            self.showdown = not self.showdown
        elif not self.showdown:
            self.showdown, self.showdown_said = True, None
            self._verdict_key = ()  # the duel just played may be newer than the last look
            if self.showdown_verdict() is None:  # the unit recorded no duel: the table says
                self.showdown_said = True
        elif self.showdown_said is True:
            self.showdown_said = False
        else:
            self.showdown, self.showdown_said = False, None

    def lost_showdown(self) -> bool:
        verdict = self.showdown_verdict()
        return verdict is not None and not verdict.won

    # -- a finishing order --

    def place(self, name: str) -> None:
        """Put `name` next in the finishing order, or take them (and those after) back out."""
        if name in self.order:
            del self.order[self.order.index(name):]
        else:
            self.order.append(name)
        self.error = ""

    def full_order(self) -> list[str]:
        """The order as it will be saved: with one player left, they are last by themselves."""
        left = [p for p in self.players() if p not in self.order]
        return self.order + left if len(left) == 1 else list(self.order)

    def order_complete(self) -> bool:
        return len(self.full_order()) == len(self.players())

    def move(self, step: int) -> None:
        counted = self.counted_players()
        if self.current in counted:
            self.current = counted[(counted.index(self.current) + step) % len(counted)]

    def entered(self) -> tuple[dict[str, list[str]], dict[str, int]]:
        """The round as the core takes it: card codes per player, and points per player.

        A player on points with nothing typed is left out of both, so the core says
        whose hand is missing.
        """
        players = self.players()
        hands = {p: [c.code for c in self.hands[p]] for p in players if p not in self.counting}
        points = {p: int(self.typed[p]) for p in players
                  if p in self.counting and self.typed.get(p)}
        return hands, points

    def confirm(self) -> None:
        game = self.app.game
        if game is None:
            return
        if self.lost_showdown():  # the rules: no round; the winner takes the cards, play on
            self.reset()
            self.nav.notify(_("No round: play goes on"))
            self.nav.go("standings")
            return
        summary = None
        entry = self.entry()
        order: list[str] = []
        hands: dict[str, list[str]] = {}
        points: dict[str, int] = {}
        if entry is Entry.ORDER:
            if not self.order:
                return
            order = self.full_order()
            winner: str | None = order[0]
        else:
            if self.winner is None:
                return
            winner = self.winner
            if entry is Entry.HANDS:
                hands, points = self.entered()
        editing = self.editing
        try:
            if editing is not None:
                self.app.edit_round(editing, winner if not order else None, hands=hands,
                                    points=points, order=order, out_on=self.out_on,
                                    showdown=self.showdown)
            else:
                summary = self.app.record_round(winner if not order else None, hands=hands,
                                                points=points, order=order,
                                                out_on=self.out_on, showdown=self.showdown,
                                                showdown_said=self.showdown_said)
        except CompanionError as exc:  # GameError and CardError: the message says what to fix
            self.error = str(exc)
            return
        self.reset()
        self.nav.invalidate()
        if editing is not None:
            self.nav.notify(_("Round {n} corrected").format(n=editing))
            self.nav.go("history")
            return
        number = len(game.rounds) + 1
        if summary is not None and summary.continued_in is not None:
            # the game ended inside the table's time box: the table plays on in a new game
            dealer = self.app.game.dealer if self.app.game is not None else ""
            if summary.winners:
                self.nav.notify(_("Game over: {names} won. A new game starts, {dealer} "
                                  "deals").format(names=", ".join(summary.winners),
                                                  dealer=dealer))
            else:  # the championship: reaching 500 wins nothing
                self.nav.notify(_("The game to {points} is over, with no winner. A new game "
                                  "starts, {dealer} deals").format(
                                      points=game.rules.target, dealer=dealer))
            self.nav.go("standings")
            return
        self.nav.notify(_("Round {n} saved: {name} went out").format(n=number, name=winner))
        self.nav.go("game_over" if facts.game_over(self.app) else "standings")

    def cancel(self) -> None:
        """Leave without saving: back to the history when correcting a round, else standings."""
        back = "history" if self.editing is not None else "standings"
        self.reset()
        self.nav.go(back)

    # -- geometry --

    def bar_rows(self) -> int:
        """The hands' bar of six or seven keys takes two rows where one row's keys would be
        too narrow for their words (the emulator's panel at 800x480); else one."""
        hands = self.app.game is not None and self.winner is not None and \
            self.entry() is Entry.HANDS
        return 2 if hands and (self.rect.width - 16 - 6 * 6) // 7 < BAR_KEY_MIN_W else 1

    def bar_rect(self) -> pygame.Rect:
        r = self.rect
        height = BAR_H * self.bar_rows() + 6 * (self.bar_rows() - 1)
        return pygame.Rect(r.x + 8, r.bottom - height - 8, r.width - 16, height)

    def _bar_cells(self, count: int) -> list[pygame.Rect]:
        """`count` keys along the bar: in one row, or the first half over the rest."""
        bar = self.bar_rect()
        if self.bar_rows() == 1:
            return row(bar, count)
        first = -(-count // 2)
        top = pygame.Rect(bar.x, bar.y, bar.width, BAR_H)
        return row(top, first) + row(top.move(0, BAR_H + 6), count - first)

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
        entry = self.entry()
        if entry is Entry.ORDER:
            return self._order_buttons()
        if entry is Entry.WINNER or self.winner is None:
            return self._winner_buttons()
        return self._hand_buttons()

    def _player_cells(self) -> list[tuple[str, pygame.Rect]]:
        """A big button's place for every player of the round, in seating order."""
        r = self.rect
        players = self.players()
        columns = 2 if len(players) <= 6 else 3
        area = pygame.Rect(r.x + 24, r.y + 64, r.width - 48, self.bar_rect().y - r.y - 72)
        rows = -(-len(players) // columns)
        cell_h = min(72, (area.height - 8 * (rows - 1)) // rows)
        return list(zip(players, grid(area, len(players), columns, cell_h), strict=True))

    def _winner_buttons(self) -> list[Button]:
        """Who went out: a tap goes on to the hands, or (only who went out) selects them."""
        only_winner = self.entry() is Entry.WINNER
        standing = {s.name: s for s in self.app.standings()} if only_winner else {}
        out = []
        for i, (name, cell) in enumerate(self._player_cells()):
            key = str(i + 1) if i < 9 else ""
            note = key
            if name in standing:  # seven-round UNO: where they are in the deal schedule
                line = standing[name]
                note = " · ".join(t for t in (facts.total_text(self.app, line),
                                              facts.total_note(self.app, line), key) if t)
            out.append(Button(f"winner:{name}", cell, name, partial(self.choose_winner, name),
                              font_px=24, sublabel=note, selected=only_winner
                              and name == self.winner))
        cells = row(self.bar_rect(), 4)
        out.append(Button("cancel", cells[0], _("Cancel"), self.cancel, sublabel="Esc"))
        if only_winner:
            if self.showdown_deck() and self.winner is not None:
                out.append(self._showdown_button(cells[2]))
            out.append(self._confirm_button(cells[3], enabled=self.winner is not None))
        return out

    def _confirm_button(self, cell: pygame.Rect, enabled: bool = True) -> Button:
        if self.lost_showdown():
            return Button("confirm", cell, _("Play goes on"), self.confirm, primary=True,
                          sublabel=_("no round"), font_px=17)
        return Button("confirm", cell, _("Confirm"), self.confirm, primary=True,
                      enabled=enabled, sublabel=self._confirm_note())

    def _showdown_button(self, cell: pygame.Rect) -> Button:
        """UNO Showdown: did the winner go out on a showdown card, and how did its duel go."""
        if not self.showdown:
            return Button("showdown", cell, _("other card"), self.cycle_showdown,
                          sublabel=_("went out on · O"), font_px=17)
        verdict = self.showdown_verdict()
        if self.editing is not None or verdict is None:
            note = _("went out on · O")
        else:
            duel = verdict.duel
            other = "" if duel is None else (duel.opponent if duel.challenger == verdict.player
                                             else duel.challenger)
            if other and verdict.replay:
                note = _("again vs {name}").format(name=other)
            elif other:
                note = (_("won vs {name}") if verdict.won else _("lost vs {name}")).format(
                    name=other)
            else:
                note = _("won") if verdict.won else _("lost")
        return Button("showdown", cell, _("Showdown"), self.cycle_showdown, sublabel=note,
                      selected=True, font_px=17, fill=theme.CARD_COLORS["wild"])

    def _order_buttons(self) -> list[Button]:
        """Every player as a button showing their place; taps build the finishing order."""
        full = self.full_order()
        out = []
        for i, (name, cell) in enumerate(self._player_cells()):
            if name in full:
                place = full.index(name) + 1
                note = (_("last") if place == len(self.players()) and self.order_complete()
                        else _("place {n}").format(n=place))
            else:
                note = str(i + 1) if i < 9 else ""
            out.append(Button(f"place:{name}", cell, name, partial(self.place, name),
                              font_px=24, sublabel=note, selected=name in self.order))
        cells = row(self.bar_rect(), 4)
        out += [
            Button("cancel", cells[0], _("Cancel"), self.cancel, sublabel="Esc"),
            Button("take_back", cells[1], "⌫", self.take_back_place, sublabel=_("last place"),
                   enabled=bool(self.order)),
            Button("confirm", cells[3], _("Confirm"), self.confirm, primary=True,
                   enabled=self.order_complete(), sublabel=self._confirm_note()),
        ]
        return out

    def _confirm_note(self) -> str:
        return "Enter" if self.editing is None else _("round {n}").format(n=self.editing)

    def take_back_place(self) -> None:
        if self.order:
            self.order.pop()
            self.error = ""

    def _hand_buttons(self) -> list[Button]:
        out: list[Button] = []
        counted = self.counted_players()
        header = pygame.Rect(self.rect.x + 8, self.rect.y + 4, self.rect.width - 16, BAR_H - 4)
        count = max(1, len(counted))
        # Nine hands in the emulator's narrow panel stay a finger wide with narrower gaps.
        gap = 6 if (header.width - 6 * (count - 1)) // count >= theme.TOUCH_PX else 2
        for name, cell in zip(counted, row(header, count, gap), strict=False):
            out.append(Button(f"player:{name}", cell, name,
                              partial(self._select, name), selected=name == self.current,
                              sublabel=str(self.hand_total(name)), font_px=18))
        if self.on_points(self.current):
            out += self._pad_buttons()
        else:
            out += self._card_buttons()
        h2o = bool(self.out_on_choices())
        showdown = self.showdown_deck()
        extra = h2o or showdown
        bar = self._bar_cells(7 if extra else 6)
        on_points = self.on_points(self.current)
        out += [
            Button("cancel", bar[0], _("Cancel"), self.cancel, sublabel="Esc"),
            Button("change_winner", bar[1], "★ " + (self.winner or ""), self._unpick_winner,
                   sublabel=_("went out"), font_px=18),
        ]
        if h2o:
            out.append(self._out_on_button(bar[2]))
        elif showdown:
            out.append(self._showdown_button(bar[2]))
        bar = bar[1:] if extra else bar
        out += [
            Button("points", bar[2], _("Points"), self.toggle_points, selected=on_points,
                   sublabel="P", enabled=self.current is not None, font_px=18),
            Button("take_back", bar[3], "⌫",
                   self.take_back, sublabel=_("last digit") if on_points else _("last card"),
                   enabled=bool(self.current and (self.typed.get(self.current) if on_points
                                                  else self.hands[self.current]))),
            Button("next", bar[4], _("Next"), lambda: self.move(1), sublabel="Tab",
                   enabled=len(counted) > 1),
            self._confirm_button(bar[5]),
        ]
        return out

    def _out_on_button(self, cell: pygame.Rect) -> Button:
        """H2O: the card the winner went out on, changed by a tap (another card, +1, +2)."""
        card = self.out_on
        if card is None:
            label, note = _("other card"), _("went out on · O")
        else:
            label = card_label(card)
            note = _("{points} off · O").format(points=H2O_DEDUCTIONS[card])
        return Button("out_on", cell, label, self.cycle_out_on, sublabel=note,
                      selected=card is not None, font_px=17,
                      fill=None if card is None else theme.CARD_COLORS["wild"])

    def _pad_buttons(self) -> list[Button]:
        """The number pad, centred where the card grid is, for a hand counted as points."""
        area = self.grid_rect()
        pad = pygame.Rect(0, area.y, min(area.width, PAD_MAX_W), area.height)
        pad.centerx = area.centerx
        return number_pad(pad, self.type_digit, self.take_back, self.clear_points, _("Clear"))

    def _card_buttons(self) -> list[Button]:
        """The edition's cards as a grid, and the current hand's cards in the strip."""
        game = self.app.game
        assert game is not None
        out: list[Button] = []
        cards = game.hand_cards()
        coloured = [c for c in cards if c.colour is not None]
        wild = [c for c in cards if c.colour is None]
        area = self.grid_rect()
        columns = -(-len(coloured) // len(Colour))  # a colour's cards to a line
        if (area.width - 6 * (columns - 1)) // columns < theme.TOUCH_PX:
            # Too narrow for every colour at a finger's width (the emulator's panel beside
            # the unit): one colour's cards at a time, under a row of the four colours.
            out += self._colour_buttons(area)
            area = pygame.Rect(area.x, area.y + self._colour_row_h(area) + 6, area.width,
                               area.bottom - area.y - self._colour_row_h(area) - 6)
            coloured = [c for c in coloured if c.colour == self.colour]
            fit = max(1, (area.width + 6) // (theme.TOUCH_PX + 6))
            columns = -(-len(coloured) // -(-len(coloured) // fit))
        lines = -(-len(coloured) // columns) + (1 if wild else 0)
        cell_h = (area.height - 6 * (lines - 1)) // lines
        cells = grid(area, len(coloured), columns, cell_h, 6)
        wild_row = pygame.Rect(area.x, area.bottom - cell_h, area.width, cell_h)
        cells += row(wild_row, len(wild), 6)
        for card, cell in zip([*coloured, *wild], cells, strict=True):
            left = self.remaining(card)
            used = Counter(self.hands.get(self.current or "", []))[card]
            out.append(Button(f"card:{card.code}", cell, card_label(card),
                              partial(self.add, card), enabled=left > 0,
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
                              else card_label(card), partial(self.take_back, i),
                              fill=card_fill(card), text_color=card_text_color(card),
                              font_px=16))
        return out

    def _colour_row_h(self, area: pygame.Rect) -> int:
        """The colours' row over one colour's cards: a line of the grid's four."""
        return max(theme.TOUCH_PX, (area.height - 6 * 3) // 4)

    def _colour_buttons(self, area: pygame.Rect) -> list[Button]:
        """The four colours (also the R, Y, G, B keys): a tap shows that colour's cards,
        each marked with how many of its cards the hand holds."""
        line = pygame.Rect(area.x, area.y, area.width, self._colour_row_h(area))
        held = Counter(c.colour for c in self.hands.get(self.current or "", []))
        out = []
        for colour, cell in zip(Colour, row(line, len(Colour), 6), strict=True):
            out.append(Button(f"colour:{colour.value}", cell, _(COLOUR_NAMES[colour]),
                              partial(self._show_colour, colour.value),
                              selected=colour.value == self.colour,
                              fill=card_fill(parse_card(f"{colour.value}0")),
                              text_color=card_text_color(parse_card(f"{colour.value}0")),
                              font_px=16, sublabel=f"×{held[colour]}" if held[colour] else ""))
        return out

    def _show_colour(self, colour: str) -> None:
        self.colour = colour

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
        entry = self.entry()
        if entry is Entry.HANDS and self.winner is not None:
            return self._hand_key(event)
        players = self.players()
        digit = DIGIT_KEYS.get(key)
        if digit is not None and 1 <= digit <= len(players):
            if entry is Entry.ORDER:
                self.place(players[digit - 1])
            else:
                self.choose_winner(players[digit - 1])
            return True
        if entry is Entry.ORDER and key == pygame.K_BACKSPACE:
            self.take_back_place()
            return True
        if entry is not Entry.HANDS and key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.confirm()
            return True
        if entry is Entry.WINNER and key == pygame.K_o and self.showdown_deck() and self.winner:
            self.cycle_showdown()
            return True
        return False

    def _hand_key(self, event: pygame.event.Event) -> bool:
        key = event.key
        game = self.app.game
        assert game is not None
        if key == pygame.K_p:
            self.toggle_points()
        elif key == pygame.K_o and self.out_on_choices():
            self.cycle_out_on()
        elif key == pygame.K_o and self.showdown_deck():
            self.cycle_showdown()
        elif self.on_points(self.current) and key in DIGIT_KEYS:
            self.type_digit(DIGIT_KEYS[key])
        elif self.on_points(self.current) and key == pygame.K_DELETE:
            self.clear_points()
        elif self.on_points(self.current) and (key in COLOUR_KEYS or key in FACE_KEYS
                                               or key in WILD_KEYS or key == pygame.K_x):
            pass  # card keys mean nothing while typing points; swallow them all the same
        elif key in COLOUR_KEYS:
            self.colour = COLOUR_KEYS[key]
        elif key in DIGIT_KEYS:
            self.add(parse_card(f"{self.colour}{DIGIT_KEYS[key]}"))
        elif key in FACE_KEYS:
            self.add(parse_card(f"{self.colour}{FACE_KEYS[key]}"))
        elif key in WILD_KEYS or key == pygame.K_x:
            wilds = [c for c in game.hand_cards() if c.colour is None]
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
        entry = self.entry()
        if entry is Entry.ORDER:
            title = (_("Tap the players in the order they went out") if self.editing is None
                     else _("Round {n}: the order they went out").format(n=self.editing))
            drawn = theme.text(surface, title, (r.x + 24, r.y + 16), 24, bold=True,
                               max_width=r.width * 2 // 3 - 24)
            self._draw_game_line(surface, min(r.width // 3, r.right - 24 - drawn.right - 16))
            theme.text(surface, _("the last one left is placed by itself"),
                       (r.x + 24, self.bar_rect().y - 4), 16, theme.TEXT_DIM,
                       anchor="bottomleft", max_width=r.width - 48)
        elif self.winner is None or entry is Entry.WINNER:
            title = (_("Who went out?") if self.editing is None else
                     _("Round {n}: who went out?").format(n=self.editing))
            title_w = r.width // 2 - 24
            if r.width >= 600:
                drawn = theme.text(surface, title, (r.x + 24, r.y + 16), 26, bold=True,
                                   max_width=title_w)
                self._draw_game_line(surface, min(r.width // 2, r.right - 24 - drawn.right - 16))
                return
            # beside the unit: the question on one line or two, the game line on up to three
            lines = theme.wrap(title, 22, title_w, bold=True, max_lines=2)
            drawn = pygame.Rect(r.x + 24, r.y + 8, 0, 0)
            for k, line in enumerate(lines):
                drawn.union_ip(theme.text(surface, line, (r.x + 24, r.y + (
                    18 if len(lines) == 1 else 8 + 22 * k)), 18, bold=True, max_width=title_w))
            self._draw_game_line(surface, min(r.width // 2, r.right - 24 - drawn.right - 16),
                                 narrow=True)
        else:
            self._draw_strip(surface)

    def _draw_game_line(self, surface: pygame.Surface, width: int, narrow: bool = False) -> None:
        """The game line right of the title; too long for one line (Armenian's "UNO Showdown
        · հաղթողը հավաքում է · …" at 800×480), it breaks at a " · " into two smaller ones,
        which still end above the players' buttons."""
        r = self.rect
        lines, size = facts.game_line_lines(self.app, 16, width, shrink_to=theme.MIN_TEXT_PX,
                                             small=13 if narrow else 14,
                                             max_lines=3 if narrow else 2)
        if len(lines) == 1:
            theme.text(surface, lines[0], (r.right - 24, r.y + 22), 16, theme.TEXT_DIM,
                       anchor="topright", max_width=width)
            return
        step = 16 if len(lines) > 2 else 18  # three lines beside the unit, above the buttons
        for i, half in enumerate(lines):
            theme.text(surface, half, (r.right - 24, r.y + (8 if len(lines) > 2 else 14)
                                       + i * step), size, theme.TEXT_DIM,
                       anchor="topright", max_width=width)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        verdict = self.showdown_verdict()
        message, fill = self.error, theme.DANGER
        if not message and verdict is not None and not verdict.won:
            message, fill = verdict.message(), theme.PANEL_HI
        if message:  # on top of the hand strip (or the title), until the next tap
            box = self.strip_rect() if self.winner is not None and self.entry() is Entry.HANDS \
                else pygame.Rect(self.rect.x + 8, self.rect.y + 4, self.rect.width - 16, BAR_H)
            pygame.draw.rect(surface, fill, box, border_radius=8)
            lines = theme.wrap(message, 15, box.width - 16)
            if len(lines) > 2 or fill is theme.DANGER:
                lines = [message]
            for i, line in enumerate(lines):
                y = box.centery + (i - (len(lines) - 1) / 2) * 19
                theme.text(surface, line, (box.centerx, round(y)), 15 if len(lines) > 1
                           else 17, theme.TEXT, anchor="center", max_width=box.width - 16)

    def draws_for_last_card(self, name: str) -> bool:
        """Whether `name` is the player a last +2 or +4 of the winner's made draw (UNO Mario
        Kart, seed 004): their hand is asked for with the cards drawn, which count."""
        game = self.app.game
        if game is None or self.winner is None or not last_draw_applies(game):
            return False
        try:
            return next_player(game, self.winner) == name
        except CompanionError:
            return False

    def _draw_strip(self, surface: pygame.Surface) -> None:
        strip = self.strip_rect()
        pygame.draw.rect(surface, theme.PANEL, strip, border_radius=8)
        if self.current is None:
            return
        name = theme.text(surface, self.current, (strip.x + 12, strip.centery), 20, bold=True,
                          anchor="midleft", max_width=130)
        hint_x, hint_w = strip.x + 150, strip.width - 150 - 150
        total = _("round {points}").format(points=self.round_total())
        if self.editing is not None:
            total = _("round {n}: {points}").format(n=self.editing, points=self.round_total())
        if strip.width < 600:  # beside the unit: the hint takes what the name and Σ leave
            shown, px = theme.fit(total, 14, 140)
            right = max(theme.font(22, True).size("Σ " + str(self.hand_total(self.current)))[0],
                        theme.font(px).size(shown)[0])
            hint_x = name.right + 14
            hint_w = strip.right - 12 - min(140, right) - 12 - hint_x
        if self.on_points(self.current):
            typed = self.typed.get(self.current, "")
            if typed:
                theme.text(surface, typed, (hint_x, strip.centery), 30, theme.TEXT,
                           bold=True, anchor="midleft", max_width=hint_w)
            else:
                theme.line_or_two(surface, _("type the points of this hand"), hint_x,
                                  strip.centery, hint_w, 17, theme.TEXT_DIM, small=13)
        elif not self.hands[self.current]:
            hint = (_("tap the cards left, and those a last +2 or +4 made them draw")
                    if self.draws_for_last_card(self.current)
                    else _("tap the cards left in this hand"))
            theme.line_or_two(surface, hint, hint_x, strip.centery, hint_w, 17, theme.TEXT_DIM,
                              small=13)
        theme.text(surface, "Σ " + str(self.hand_total(self.current)),
                   (strip.right - 12, strip.y + 4), 22, theme.ACCENT, bold=True,
                   anchor="topright")
        theme.text(surface, total, (strip.right - 12, strip.bottom - 4), 14, theme.TEXT_DIM,
                   anchor="bottomright", max_width=140)
