"""The companion screen: a view router with a tab bar, global keys and notices, and its own loop.

`CompanionScreen` draws into whatever surface it is given (a whole window, or
one side of the emulator's window) and takes events with positions relative
to its own top-left, so it can be embedded. `run_companion` is the
stand-alone loop: it sleeps in `pygame.event.wait` while nothing happens and
redraws only when the screen says it is dirty.

When the game sits in a time box (a table playing against a clock, e.g. a championship
stage), a banner under the tabs names the box and shows its clock: the time left, paused,
the last deal once the time is up, or done; it is redrawn when the shown second changes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol

import pygame

from companion.screen.views.chart import ChartView
from companion.screen.views.duels import DuelsView
from companion.screen.views.game_over import GameOverView
from companion.screen.views.history import HistoryView
from companion.screen.views.new_game import NewGameView
from companion.screen.views.round_entry import RoundEntryView
from companion.screen.views.rules import RulesView
from companion.screen.views.standings import StandingsView
from companion.screen.views.table import TableView
from companion.table.timebox import Phase, clock_text
from companion.touch import theme
from companion.touch.i18n import N_, _, ngettext
from companion.touch.shell import Shell, run_loop, screen_window
from companion.touch.view import View
from companion.touch.widgets import Button, row_weighted
from showdown.contract.errors import CompanionError

if TYPE_CHECKING:
    from companion.app import CompanionApp

log = logging.getLogger(__name__)

#: Tabs along the top: view name, label (translated when drawn), function key (the window
#: around the screen keeps F6-F11 for the duel bar, so the table's helpers have none).
TABS: tuple[tuple[str, str, int | None], ...] = (
    ("standings", N_("Standings"), pygame.K_F1),
    ("history", N_("History"), pygame.K_F2),
    ("chart", N_("Chart"), pygame.K_F3),
    ("duels", N_("Duels"), pygame.K_F4),
    ("table", N_("Table"), None),
    ("rules", N_("Rules"), None),
    ("new_game", N_("New game"), pygame.K_F5),
)
#: The tabs' type, and the room around a label.
TAB_PX, TAB_PAD_PX = 18, 16
#: The least room around a tab's label: a button keeps 4 px each side of its words.
TAB_PAD_MIN_PX = 9
#: How often the screen looks for changes made elsewhere (a duel verdict from the unit).
POLL_MS = 250
#: The notice's type size, the room around its words, how it keeps off the edges, and
#: the most lines a long one (an error naming a file) is wrapped to.
NOTICE_PX = 20
NOTICE_PAD_X, NOTICE_PAD_Y = 16, 10
NOTICE_TIGHT_PAD_Y = 3
NOTICE_MARGIN = 8
NOTICE_LINES = 3
#: How finely the notice looks for a free place, and the narrowest it gets.
NOTICE_STEP_PX = 4
NOTICE_MIN_W = 160
#: Height of the time box's banner under the tabs.
BANNER_PX = 32
#: The banner turns yellow when this little time is left (microseconds).
HURRY_US = 5 * 60 * 1_000_000



def _tab_width(label: str, size: int, hyphens: bool = False) -> int:
    """How wide a tab's label is at `size`: on one line, or broken at the space (or with
    `hyphens`, the soft hyphen a translator put in a long word) that leaves the narrower two
    lines (a button draws a label that does not fit on two)."""
    font = theme.font(size, True)
    widths = [font.size(theme.unhyphenated(label))[0]]
    breaks = (" ", theme.SOFT_HYPHEN) if hyphens else (" ",)
    for i, ch in enumerate(label):
        if ch in breaks:
            first = label[:i] + ("-" if ch == theme.SOFT_HYPHEN else "")
            widths.append(max(font.size(theme.unhyphenated(first).strip())[0],
                              font.size(theme.unhyphenated(label[i + 1:]).strip())[0]))
    return min(widths)


class TableLink(Protocol):
    """What the banner shows of a championship table's link to the director, as the table's
    agent last noted it: whether the director hears the table, since when (µs), how many
    messages wait to be sent, and the director's word on the table's deals (held, voided,
    restored: one line each, in the table's language, newest last; `held` of them hold a
    deal now)."""

    @property
    def linked(self) -> bool: ...

    @property
    def since_us(self) -> int: ...

    @property
    def waiting(self) -> int: ...

    @property
    def words(self) -> tuple[str, ...]: ...

    @property
    def held(self) -> int: ...


class CompanionScreen(Shell[View]):
    """The whole companion screen; see the module docstring."""

    tabs = TABS
    poll_ms = POLL_MS

    def __init__(self, app: CompanionApp, size: tuple[int, int],
                 link_state: Callable[[], TableLink | None] | None = None) -> None:
        """`link_state` reads the table's link to the director on every poll (None where
        the games file never joined a championship); whoever composes the screen at a
        championship table gives it."""
        super().__init__(size)
        self.app = app
        self._link_state = link_state
        self.views = {
            view.name: view
            for view in (
                StandingsView(self),
                RoundEntryView(self),
                HistoryView(self),
                ChartView(self),
                DuelsView(self),
                TableView(self),
                RulesView(self),
                GameOverView(self),
                NewGameView(self),
            )
        }
        self._signature: tuple[object, ...] = ()
        self._notice_cache: tuple[object, tuple[pygame.Rect, list[str]]] | None = None
        self._banner_shown: tuple[str, str, Phase] | None = None
        self._link: TableLink | None = None  # a championship table's link to the director
        self._start("standings")

    # -- the contract with whoever embeds the screen (the rest is the shell's) --

    def update(self, now_ms: int) -> None:
        super().update(now_ms)
        if self.current.update(now_ms):
            self._dirty = True
        if self.banner() != self._banner_shown:  # the clock moved on a second
            self._dirty = True

    def _refresh_failed(self, exc: Exception) -> None:
        """Say in one line why the game could not be read; the next poll simply tries again."""
        if isinstance(exc, CompanionError):
            message = str(exc)
        else:
            log.exception("reading the games file failed")
            message = _("The games file could not be read ({reason}); trying again").format(
                reason=type(exc).__name__)
        if message != self._notice:  # one notice for a failure that repeats every poll
            self.notify(message)

    def banner(self) -> tuple[str, str, Phase] | None:
        """The time box's banner as drawn now: its label, its clock or state, and the phase;
        None when the game plays without a clock."""
        boxed = self.app.time_box()
        if boxed is None:
            return None
        box, now_us = boxed.box, self.app.clock()
        phase = box.phase(now_us)
        left = box.left(now_us)
        shown = "" if left is None else clock_text(left)
        if phase is Phase.WAITING:
            status = _("Starts with the clock ({time})").format(time=shown) if shown else _(
                "Starts with the clock")
        elif phase is Phase.PAUSED:
            status = _("Paused · {time}").format(time=shown)
        elif phase is Phase.LAST_DEAL:
            status = _("Time! Finish and enter this deal")
        elif phase is Phase.DONE:
            status = _("Time is up · table done")
        else:
            status = shown
        link = self._link
        if link is not None and not link.linked:  # the director does not hear this table
            status += " · " + _("no link to the director since {time} · {n} to send").format(
                time=_hhmm(link.since_us), n=link.waiting)
        if link is not None and link.held:  # the director holds a deal of this table
            status += " · " + ngettext("{n} deal held by the director",
                                       "{n} deals held by the director", link.held).format(
                n=link.held)
        return box.label, status, phase

    # -- what views may ask (base.Navigator; `go` and `notify` are the shell's) --

    def invalidate(self) -> None:
        self._signature = self._app_signature()
        self.current.enter()
        self._dirty = True

    def _history_step(self, step: Callable[[], bool]) -> bool | None:
        """Run an undo or redo; None when it was refused (shown as a notice)."""
        try:
            return self.app.game is not None and step()
        except CompanionError as exc:  # the game changed elsewhere: it was reloaded
            self.notify(str(exc))
            self.invalidate()
            return None

    def undo(self) -> None:
        done = self._history_step(self.app.undo)
        if done is None:
            return
        if done:
            self.notify(_("Last round undone"))
            self.go("standings") if self.current.name == "game_over" else self.invalidate()
        else:
            self.notify(_("Nothing to undo"))

    def redo(self) -> None:
        done = self._history_step(self.app.redo)
        if done is None:
            return
        if done:
            self.notify(_("Round restored"))
            self.invalidate()
            if game_is_over(self.app):
                self.go("game_over")
        else:
            self.notify(_("Nothing to redo"))

    def reverse(self) -> None:
        """A Reverse was played: turn the direction of play (Ctrl+R anywhere)."""
        table = self.views["table"]
        assert isinstance(table, TableView)
        if self.app.game is not None:
            table.reverse(tell=self.current is not table)
            self.invalidate()

    def edit_round(self, number: int) -> None:
        """Open round `number` (1-based) in round entry, as it was entered, to correct it."""
        entry = self.views["round_entry"]
        assert isinstance(entry, RoundEntryView)
        entry.edit(number)
        self.go("round_entry")

    # -- inside --

    def _poll(self) -> None:
        try:
            self.app.refresh()  # a round entered from the command line shows up here too
            link = None if self._link_state is None else self._link_state()
            self._tell_words(link)
            self._link = link
        except Exception as exc:  # the table's window must outlive any bad read
            self._refresh_failed(exc)
        signature = self._app_signature()
        if len(signature) != len(self._signature) or any(
                a is not b for a, b in zip(signature, self._signature, strict=True)):
            self._signature = signature
            self.current.enter()
            self._dirty = True

    def _tell_words(self, link: TableLink | None) -> None:
        """A word of the director on this table's deals that came since the last poll is
        shown as a notice (the banner keeps saying how many deals are held)."""
        before = self._link.words if self._link is not None else None
        if link is None or before is None:
            return
        new = [w for w in link.words if w not in before]
        if new:
            self.notify(new[-1])

    def _app_signature(self) -> tuple[object, ...]:
        """What changes when someone else (the CLI, the showdown unit) changes the app's state.

        The game and the duel rows are immutable values the core replaces on every change,
        so comparing them by identity is exact and costs nothing while idle.
        """
        return (self.app.game, self.app.last_duel())

    def _band_px(self) -> int:
        """The time box's banner, under the tabs while the game plays against a clock."""
        return BANNER_PX if self.app.time_box() is not None else 0

    def _draw_band(self, surface: pygame.Surface) -> None:
        shown = self.banner()
        self._banner_shown = shown
        if shown is None:
            return
        label, status, phase = shown
        boxed = self.app.time_box()
        left = boxed.box.left(self.app.clock()) if boxed is not None else None
        strip = pygame.Rect(0, theme.TAB_BAR_PX, self.size[0], BANNER_PX)
        fill, ink = theme.PANEL_HI, theme.TEXT
        if phase is Phase.LAST_DEAL:
            fill, ink = theme.DANGER, theme.TEXT
        elif phase is Phase.OPEN and left is not None and left <= HURRY_US:
            fill, ink = theme.ACCENT, theme.BACKGROUND
        elif phase in (Phase.DONE, Phase.WAITING, Phase.PAUSED):
            fill, ink = theme.PANEL, theme.TEXT_DIM
        pygame.draw.rect(surface, fill, strip)
        mid = strip.centery
        status_rect = theme.text(surface, status, (strip.right - 12, mid), 20, ink, bold=True,
                                 anchor="midright", max_width=strip.width // 2)
        theme.text(surface, label, (strip.x + 12, mid), 18, ink, anchor="midleft",
                   max_width=status_rect.x - strip.x - 28)

    def _tab_buttons(self) -> list[Button]:
        """The tabs, each as wide as its label wants (in whatever language), so a long label
        gets the room a short one leaves, and the type shrinks only when all are too wide."""
        bar = pygame.Rect(4, 4, self.size[0] - 8, theme.TAB_BAR_PX - 8)
        labels = [_(label) for _name, label, _key in TABS]
        size, gap = TAB_PX, 4
        weights = [theme.font(size, True).size(theme.unhyphenated(label))[0] + TAB_PAD_PX
                   for label in labels]
        if sum(weights) + gap * (len(TABS) - 1) > bar.width:
            # Too wide (the emulator's panel at 800x480): the type shrinks, the same for every
            # tab, and a label of two words takes two lines, until every label fits whole.
            # Still too wide at the smallest type (Armenian beside the unit): a long word
            # breaks where its translator put a soft hyphen.
            gap = 2
            for size, hyphens in [*((px, False) for px in range(TAB_PX - 1,
                                                              theme.MIN_TEXT_PX - 1, -1)),
                                  *((px, True) for px in range(TAB_PX - 1,
                                                             theme.MIN_TEXT_PX - 1, -1))]:
                weights = [_tab_width(label, size, hyphens) + TAB_PAD_MIN_PX
                           for label in labels]
                if sum(weights) + gap * (len(TABS) - 1) <= bar.width:
                    break
        return [
            Button(f"tab:{name}", cell, label, partial(self.go, name),
                   selected=self.current.name == name, font_px=size)
            for (name, _label, _key), label, cell in zip(
                TABS, labels, row_weighted(bar, weights, gap, minimum=theme.TOUCH_PX),
                strict=True)
        ]

    def notice_rect(self) -> pygame.Rect | None:
        """Where the notice is drawn now (None when there is none): never over a button.

        A notice comes right before the next tap ("New game started", then "Enter
        round"), so it must not hide what the finger goes for. The first place that
        covers no button wins, looking from the bottom of the screen (where notices are
        expected) upwards, centred, then against the left or right edge; where no
        place is free the box narrows (the words wrap to more lines, up to three, and
        are cut past that) and the search starts again.
        """
        return self._notice_layout()[0] if self._notice else None

    def _notice_layout(self) -> tuple[pygame.Rect, list[str]]:
        """The notice's box and its lines as they fit (see `notice_rect`)."""
        w, h = self.size
        key = (self._notice, self.size, tuple(tuple(b.rect) for b in self.buttons()))
        if self._notice_cache is not None and self._notice_cache[0] == key:
            return self._notice_cache[1]
        buttons = [b.rect for b in self.buttons()]
        f = theme.font(NOTICE_PX, True)
        natural = min(f.size(self._notice)[0] + 2 * NOTICE_PAD_X, w - 2 * NOTICE_MARGIN)
        found: tuple[pygame.Rect, list[str]] | None = None
        # All the words on up to three lines first (an error must be read in full); where
        # that fits nowhere, fewer lines with the words cut, as on a crowded page; last, one
        # line in a tight box, which fits between two rows of buttons.
        tries = [(most, NOTICE_PAD_Y) for most in range(NOTICE_LINES, 0, -1)]
        for most, pad_y in [*tries, (1, NOTICE_TIGHT_PAD_Y)]:
            width = natural
            while found is None:
                lines = notice_lines(self._notice, width - 2 * NOTICE_PAD_X, most)
                found = self._free_place(width, len(lines) * f.get_linesize() + 2 * pad_y,
                                         lines, buttons)
                if width <= NOTICE_MIN_W:
                    break
                width = max(NOTICE_MIN_W, width * 4 // 5)
            if found is not None:
                break
        if found is None:  # the screen is all buttons: at the bottom, every word shown
            lines = notice_lines(self._notice, natural - 2 * NOTICE_PAD_X, NOTICE_LINES)
            box = pygame.Rect(0, 0, natural, len(lines) * f.get_linesize() + 2 * NOTICE_PAD_Y)
            box.midbottom = (w // 2, h - NOTICE_MARGIN)
            found = (box, lines)
        self._notice_cache = (key, found)
        return found

    def _free_place(self, width: int, height: int, lines: list[str],
                    buttons: list[pygame.Rect]) -> tuple[pygame.Rect, list[str]] | None:
        """The first box of that size that covers no button, from the bottom up, centred
        or against an edge; None when there is none."""
        w, h = self.size
        for y in range(h - NOTICE_MARGIN - height, NOTICE_MARGIN - 1, -NOTICE_STEP_PX):
            for x in ((w - width) // 2, NOTICE_MARGIN, w - NOTICE_MARGIN - width):
                box = pygame.Rect(x, y, width, height)
                if box.collidelist(buttons) < 0:
                    return box, lines
        return None

    def _draw_notice(self, surface: pygame.Surface) -> None:
        """The notice where it covers no button (see `notice_rect`)."""
        box, lines = self._notice_layout()
        f = theme.font(NOTICE_PX, True)
        images = [f.render(line, True, theme.BACKGROUND) for line in lines]
        pygame.draw.rect(surface, theme.ACCENT, box, border_radius=10)
        y = box.centery - len(images) * f.get_linesize() // 2
        for image in images:
            surface.blit(image, image.get_rect(midtop=(box.centerx, y)))
            y += f.get_linesize()

    def _global_key(self, event: pygame.event.Event) -> bool:
        ctrl = bool(event.mod & pygame.KMOD_CTRL)
        if ctrl and event.key == pygame.K_z:
            self.redo() if event.mod & pygame.KMOD_SHIFT else self.undo()
            return True
        if ctrl and event.key == pygame.K_y:
            self.redo()
            return True
        if ctrl and event.key == pygame.K_r:
            self.reverse()
            return True
        if super()._global_key(event):  # a tab's function key
            return True
        if event.key == pygame.K_ESCAPE and self.current.name != "standings":
            self.go("standings")
            return True
        return False


def notice_lines(message: str, width: int, most: int = 3) -> list[str]:
    """`message` broken at spaces into at most `most` lines of `width` pixels (the last one
    cut with … if even that is not enough)."""
    f = theme.font(NOTICE_PX, True)
    lines: list[str] = []
    words = message.split(" ")
    while words and len(lines) < most - 1:
        line = words.pop(0)
        while words and f.size(f"{line} {words[0]}")[0] <= width:
            line += " " + words.pop(0)
        lines.append(line)
    if words:
        lines.append(theme.fit(" ".join(words), NOTICE_PX, width, bold=True,
                               min_size=NOTICE_PX)[0])
    return [theme.fit(line, NOTICE_PX, width, bold=True, min_size=NOTICE_PX)[0]
            for line in lines] or [""]


def game_is_over(app: CompanionApp) -> bool:
    """Whether the current game has ended (the core's model decides)."""
    game = app.game
    return game is not None and game.verdict.over



def run_companion(app: CompanionApp, *, fullscreen: bool = False,
                  size: tuple[int, int] = (800, 480),
                  link_state: Callable[[], TableLink | None] | None = None) -> int:
    """Open a window (or the whole display) and run the screen until it is closed; exit status.
    `link_state` is the screen's (see `CompanionScreen`)."""
    pygame.display.set_caption(_("UNO Showdown companion"))  # before the window appears
    with screen_window(fullscreen, size, quiet_probe=True) as window:
        screen = CompanionScreen(app, window.get_size(), link_state)
        run_loop(screen, window, wait_ms=POLL_MS, fps=60)
    return 0


def _hhmm(at_us: int) -> str:
    """A moment as this table's clock shows it, to the minute: the one time format for
    people (`wallclock.local_time`)."""
    from companion.store.wallclock import local_time

    return local_time(at_us)
