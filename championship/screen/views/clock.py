"""The clock: the running stage and its time, big enough to read across the bar, the break
after it, and the organiser's buttons (start the next stage, pause, resume, call time).

Under it, every table of the stage: playing, finishing the deal in progress, or done, with
its deals so far; once the time is up a table still finishing gets a Done button for when
it has no deal in progress after all. Calling time asks for a second tap.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pygame

from championship.core import presence
from championship.core.clock import FINAL, Status
from championship.core.i18n import _, ngettext
from championship.core.snapshot import Snapshot, TableStatus
from championship.screen.views.base import DirectorView
from companion.table.timebox import Phase, clock_text
from companion.touch import theme
from companion.touch.widgets import Button, row

SIDE_W = 240
BUTTON_H = 56
CHIP_H = 64
#: The strip of the line of the deals held for the director, above the tables' cards.
HELD_LINE_H = 24
#: A table's card lower than this draws its two lines smaller (15 tables at 800×480).
COMPACT_CHIP_H = 52
#: The clock turns yellow when this little time is left (microseconds).
HURRY_US = 5 * 60 * 1_000_000

def phase_text(phase: Phase) -> str:
    return {
        Phase.WAITING: _("waiting"),
        Phase.OPEN: _("playing"),
        Phase.PAUSED: _("paused"),
        Phase.LAST_DEAL: _("last deal"),
        Phase.DONE: _("done"),
    }[phase]


class ClockView(DirectorView):
    name = "clock"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.confirm_end = False

    def leave(self) -> None:
        self.confirm_end = False

    # -- what can be done now --

    def next_action(self) -> tuple[str, str, bool]:
        """The main button: its key, its label, whether it is enabled."""
        snap = self.snap
        if snap is None or not snap.flights:
            return "start", _("Draw the seats first"), False
        view = snap.clock
        if view.status in (Status.RUNNING, Status.PAUSED):
            assert view.stage is not None
            return "start", _("{stage} is on").format(stage=snap.stage_title(view.stage)), False
        stage = view.next_stage
        if stage is None:
            return "start", _("The championship is over"), False
        if view.stage is not None and not snap.stage_done(view.stage):
            return "start", _("Tables are finishing"), False
        if stage == FINAL and not snap.final_seated:
            return "seat_final", _("Seat the final"), True
        return "start", _("Start {stage}").format(stage=snap.stage_title(stage)), True

    def start(self) -> None:
        self.director.act(self.director.champ.start)

    def seat_final(self) -> None:
        self.director.act(self.director.champ.seat_final, _("The final is seated"))

    def pause_or_resume(self) -> None:
        snap = self.snap
        if snap is not None and snap.clock.status is Status.PAUSED:
            self.director.act(self.director.champ.resume)
        else:
            self.director.act(self.director.champ.pause)

    def end(self) -> None:
        if not self.confirm_end:
            self.confirm_end = True
            return
        self.confirm_end = False
        self.director.act(self.director.champ.end, _("Time is up"))

    def table_done(self, table: int) -> None:
        self.director.act(lambda: self.director.champ.done(table))

    # -- geometry --

    def side_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.right - 8 - SIDE_W, r.y + 8, SIDE_W, 3 * BUTTON_H + 16)

    def chips_rect(self) -> pygame.Rect:
        """The tables' cards, below the clock and the buttons, and below the line of the
        deals held for the director when there is one (it has its own strip: above the
        cards it lay over the clock's last line)."""
        r = self.rect
        top = max(self.side_rect().bottom + 16, r.y + 200)
        if self.snap is not None and self.snap.undecided:
            top += HELD_LINE_H
        return pygame.Rect(r.x + 8, top, r.width - 16, r.bottom - 8 - top)

    def chip_rects(self, count: int) -> list[pygame.Rect]:
        area = self.chips_rect()
        if count == 0:
            return []
        columns = max(1, min(count, area.width // 180))
        rows = -(-count // columns)
        h = min(CHIP_H, (area.height - 6 * (rows - 1)) // max(1, rows))
        out = []
        for i in range(count):
            line = pygame.Rect(area.x, area.y + (i // columns) * (h + 6), area.width, h)
            out.append(row(line, columns, 6)[i % columns])
        return out

    def stage_tables(self, snap: Snapshot) -> tuple[TableStatus, ...]:
        stage = snap.clock.stage
        return snap.stage_tables(stage) if stage is not None else ()

    def buttons(self) -> list[Button]:
        snap = self.snap
        if snap is None:
            return []
        side = self.side_rect()
        key, label, enabled = self.next_action()
        action = self.seat_final if key == "seat_final" else self.start
        out = [Button(key, pygame.Rect(side.x, side.y, side.width, BUTTON_H), label, action,
                      primary=True, enabled=enabled, font_px=20)]
        status = snap.clock.status if snap is not None else Status.NOT_STARTED
        running = status in (Status.RUNNING, Status.PAUSED)
        paused = status is Status.PAUSED
        out.append(Button("pause", pygame.Rect(side.x, side.y + BUTTON_H + 8, side.width,
                                               BUTTON_H),
                          _("Resume") if paused else _("Pause"), self.pause_or_resume,
                          enabled=running, font_px=20))
        out.append(Button("end", pygame.Rect(side.x, side.y + 2 * (BUTTON_H + 8), side.width,
                                             BUTTON_H),
                          _("Tap again to call time") if self.confirm_end else _("Call time"),
                          self.end, enabled=running, font_px=18,
                          fill=theme.DANGER if self.confirm_end else None))
        if snap is not None and snap.clock.status is Status.TIME_UP:
            tables = self.stage_tables(snap)
            for t, chip in zip(tables, self.chip_rects(len(tables)), strict=True):
                if t.phase is Phase.LAST_DEAL:
                    done = pygame.Rect(chip.right - 84, chip.y + 6, 78, chip.height - 12)
                    out.append(Button(f"done:{t.table}", done, _("Done"),
                                      partial(self.table_done, t.table), font_px=16))
        return out

    # -- drawing --

    def draw_content(self, surface: pygame.Surface) -> None:
        r = self.rect
        snap = self.snap
        if snap is None:
            self.no_event(surface)
            return
        left = pygame.Rect(r.x + 16, r.y + 8, self.side_rect().x - r.x - 32, 190)
        view = snap.clock
        if view.stage is None:
            title = _("Not started")
            big, color = "", theme.TEXT_DIM
            if view.next_stage is not None and snap.flights:
                plan = next(p for p in snap.plan if p.key == view.next_stage)
                big = clock_text(plan.duration_us)
                line = _("{stage} is next").format(stage=snap.stage_title(view.next_stage))
            else:
                line = _("Draw the seats, then start the first flight.")
        else:
            title = snap.stage_title(view.stage)
            if view.status is Status.RUNNING:
                left_us = view.left_us or 0
                big = clock_text(left_us)
                color = theme.ACCENT if left_us <= HURRY_US else theme.TEXT
                line = _("Time is up at {at}").format(at=_local(view.time_up_at_us))
            elif view.status is Status.PAUSED:
                big, color = clock_text(view.left_us or 0), theme.TEXT_DIM
                line = _("Paused")
            elif snap.over:
                big, color = _("Over"), theme.ACCENT
                line = _("The championship is over: see the Final tab")
            elif not snap.stage_done(view.stage):
                big, color = _("Time is up"), theme.DANGER
                line = _("Tables are finishing the deal in progress")
            elif view.break_left_us:
                title = _("Break after {stage}").format(stage=title)
                big, color = clock_text(view.break_left_us), theme.GOOD
                line = (_("{stage} is next").format(stage=snap.stage_title(view.next_stage))
                        if view.next_stage is not None else "")
            else:
                title = _("{stage} is over").format(stage=title)
                big, color = "", theme.TEXT_DIM
                line = (_("Start {stage} when everyone is ready").format(
                    stage=snap.stage_title(view.next_stage))
                    if view.next_stage is not None else "")
        theme.text(surface, title, (left.x, left.y + 4), 28, theme.TEXT_DIM, bold=True,
                   max_width=left.width)
        if big:
            theme.text(surface, big, (left.x, left.centery + 8), 96, color, bold=True,
                       anchor="midleft", max_width=left.width, min_size=32)
        theme.text(surface, line, (left.x, left.bottom - 6), 20, theme.TEXT_DIM,
                   anchor="bottomleft", max_width=left.width)
        self._draw_chips(surface, snap)

    def _draw_chips(self, surface: pygame.Surface, snap: Snapshot) -> None:
        tables = self.stage_tables(snap)
        for t, chip in zip(tables, self.chip_rects(len(tables)), strict=True):
            fill = theme.PANEL
            if t.phase is Phase.LAST_DEAL:
                fill = theme.PANEL_HI
            pygame.draw.rect(surface, fill, chip, border_radius=8)
            if t.phase is Phase.LAST_DEAL:
                pygame.draw.rect(surface, theme.DANGER, chip, width=2, border_radius=8)
            room = chip.width - (100 if t.phase is Phase.LAST_DEAL else 20)
            # Many tables make short cards: their two lines smaller, closer to the edges,
            # so that they do not run into each other.
            compact = chip.height < COMPACT_CHIP_H
            pad, big, small = (2, 15, 13) if compact else (6, 18, 15)
            title = theme.text(surface, _("Table {n}").format(n=t.table),
                               (chip.x + 10, chip.y + pad), big, bold=True, max_width=room)
            seated = ngettext("{n} player", "{n} players", len(t.players)).format(
                n=len(t.players))
            game = _("game {id}").format(id=t.game_id)
            width = max(0, chip.x + room - title.right - 12)
            # Many tables make narrow cards: the game's number stays whole, the players'
            # count goes first.
            said = f"{seated} · {game}"
            if theme.fit(said, small, width)[0] != said:
                said = game
            theme.text(surface, said, (title.right + 12, title.centery), small,
                       theme.TEXT_DIM, anchor="midleft", max_width=width)
            deals = ngettext("{n} deal", "{n} deals", t.deals).format(n=t.deals)
            color = theme.GOOD if t.phase is Phase.DONE else theme.TEXT_DIM
            line = f"{phase_text(t.phase)} · {deals}"
            heard = presence_note(snap, t.table)
            if heard is not None:
                line += f" · {heard[0]}"
                color = theme.DANGER if heard[1] else color
            theme.text(surface, line, (chip.x + 10, chip.bottom - pad), small, color,
                       anchor="bottomleft", max_width=room)
        if snap.undecided:
            area = self.chips_rect()
            n = len(snap.undecided)
            theme.text(surface, ngettext("{n} deal held for the director: see the Deals tab",
                                         "{n} deals held for the director: see the Deals tab",
                                         n).format(n=n), (area.x, area.y - 6), 16, theme.DANGER,
                       anchor="bottomleft", max_width=area.width)


def presence_note(snap: Snapshot, table: int) -> tuple[str, bool] | None:
    """How the director hears a table, short, and whether it needs a look (offline, or its
    clock off); None when no table was ever heard (one games file, no `event serve`)."""
    if not snap.presence:
        return None
    state = snap.table_presence(table)
    heard = snap.presence.get(table)
    if heard is None:
        return presence.state_text(state), True
    if state == presence.OFFLINE:
        return _("offline since {time}").format(time=_local(heard.heard_us)), True
    if presence.clock_off(heard.offset_us):
        return _("clock off by {offset}").format(
            offset=presence.offset_text(heard.offset_us)), True
    return presence.state_text(state), False


def _local(at_us: int | None) -> str:
    """The one time format for people (`wallclock.local_time`)."""
    from companion.store.wallclock import local_time

    return "–" if at_us is None else local_time(at_us)
