"""The table's window: the emulated unit and/or the companion screen, with the duel bar.

One window, one main thread (SDL wants its events pumped there). The loop
sleeps in `pygame.event.wait` until something happens or is due, so an idle
window costs next to no CPU; it draws at most 60 frames a second while
something moves, and only the panels that changed.

Two ways to drive the service, chosen by the unit:

* the emulator (`EmulatorUnit`): *inline*. Each turn of the loop takes SDL's
  pending events and stamps them all with one reading of the unit's clock (the
  instant they were taken from the queue: nothing finer is known about them),
  hands paddle and timer presses to the unit, calls `service.step(0)` (which
  may call `show_go()`, stamping "go") and only then draws. So "go" is always
  stamped before the frame that shows it, and one thread does everything.
* real hardware (gpio, serial): *threaded*. `service.run()` runs on its own
  thread, blocking in the unit's `read_inputs`; the window only sends
  `load`/`abort` and hears events, which are queued and picked up on the main
  thread (a custom SDL event wakes the loop).

Keys that never clash with the companion screen (it owns F1-F5 and typing):
F6/F7 next player at the left/right paddle, F8 card count, F9 mute, F10 load
the duel (Enter too, when the companion does not want it), Esc abort it, F11
full screen, Ctrl+Q quit.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pygame

from companion.touch import theme
from hardware.emulated import EmulatorUnit, UnitState, Verdict, perf_clock_us
from hardware.emulated_sound import ToneBank
from showdown.contract.events import (
    CountdownStarted,
    DuelLoaded,
    DuelResult,
    LaunchFailed,
    Outcome,
    ServiceEvent,
    Side,
    VerdictGiven,
)
from showdown.contract.i18n import N_, _
from showdown.contract.native_stderr import native_stderr_silenced
from showdown.duel.engine import Phase
from showdown.service.loop import ShowdownService
from uno_showdown.window.duel_bar import DuelBar, DuelChooser
from uno_showdown.window.duel_door import WindowDuelDoor
from uno_showdown.window.unit_view import (
    TEXT_DIM,
    TextCache,
    UnitLabels,
    UnitLayout,
    draw_unit,
)

log = logging.getLogger(__name__)

FRAME_US = 1_000_000 // 60
#: The longest the loop sleeps with nothing due (the companion polls its store this often).
IDLE_WAIT_MS = 250
#: How often the loop looks for events while no duel runs (see `TableWindow.wait_event`).
COARSE_POLL_S = 0.02
#: Posted from other threads so the loop wakes up for them.
WAKE = pygame.event.custom_type()
#: What the duel bar says when the timer button is pressed with no duel loaded (short
#: enough for the bar of an 800x480 window; translated when said).
NOTHING_LOADED = N_("Nothing loaded: press Load (F10) first.")
#: ... and when F6/F7 have nobody to seat.
NO_PLAYERS = N_("Start a game (F5) to seat its players.")
NO_COMPANION = N_("No score keeper: the paddles stay Left and Right.")
#: Over the unit while the sound is off.
SOUND_OFF = N_("sound off (F9)")
#: Why a duel the table called off (Esc, the bar's Abort) ended: kept in English in the
#: duel log, shown translated in the bar (`duel_bar.ABORT_REASONS`).
CANCELLED = N_("cancelled at the table")


def verdict_lights(result: DuelResult) -> tuple[Verdict, Side | None]:
    """What the unit shows for a verdict, and whose paddle lights up.

    The unit interface carries no verdict (a real unit only points its arrow
    and launches), so the window, which hears `VerdictGiven`, decides this.
    """
    outcome = result.outcome
    if outcome is Outcome.FASTER and result.winner is not None:
        return Verdict.WIN, result.winner
    if outcome is Outcome.EARLY_PRESS:
        return Verdict.EARLY, None
    if outcome is Outcome.TIE:
        return Verdict.TIE, None
    if outcome is Outcome.TIMEOUT:
        return Verdict.TIME, None
    return Verdict.OFF, None


class NoDisplayError(RuntimeError):
    """SDL could not open a window here."""


class Companion(Protocol):
    """What the window needs of `companion.app.CompanionApp`."""

    def player_names(self) -> list[str]: ...

    def proposed_duel(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class KeyMap:
    """The keys of the left paddle, the right paddle and the timer button."""

    left: int = pygame.K_a
    right: int = pygame.K_l
    timer: int = pygame.K_SPACE

    @classmethod
    def parse(cls, spec: str) -> KeyMap:
        """`"A,L,SPACE"` (left, right, timer; pygame key names, any case)."""
        names = [n.strip() for n in spec.split(",")]
        if len(names) != 3 or not all(names):
            raise ValueError(_(
                "--keys needs three key names separated by commas (left, right, timer), "
                "like A,L,SPACE, not {spec!r}").format(spec=spec))
        codes = []
        for name in names:
            try:
                with warnings.catch_warnings():  # key names need no display to look up
                    warnings.simplefilter("ignore")
                    codes.append(pygame.key.key_code(name.lower()))
            except ValueError:
                raise ValueError(_(
                    "--keys: {name!r} is not a key name pygame knows; try letters, SPACE, "
                    "RETURN, LEFT, RIGHT").format(name=name)) from None
        if len(set(codes)) != 3:
            raise ValueError(_("--keys must name three different keys, not {spec!r}").format(
                spec=spec))
        return cls(*codes)

    def control(self, key: int) -> Side | str | None:
        return {self.left: Side.LEFT, self.right: Side.RIGHT, self.timer: "timer"}.get(key)

    def labels(self) -> dict[Side | str, str]:
        return {
            Side.LEFT: pygame.key.name(self.left).upper(),
            Side.RIGHT: pygame.key.name(self.right).upper(),
            "timer": pygame.key.name(self.timer).upper(),
        }


def fit_screen(size: tuple[int, int]) -> tuple[int, int]:
    """`size`, made no larger than the screen: `make run` on a Pi's 800x480 touch display
    (or any small screen) opens a window that fits, laid out for that size, instead of one
    whose tabs and buttons lie off the screen's edges."""
    desktops = pygame.display.get_desktop_sizes()
    if not desktops:
        return size
    width, height = desktops[0]
    return (min(size[0], width), min(size[1], height)) if width > 0 and height > 0 else size


def open_display(size: tuple[int, int], fullscreen: bool, caption: str) -> pygame.Surface:
    """Open the window (or the whole screen); NoDisplayError when there is nowhere to show it."""
    pygame.display.set_caption(caption)  # before the window exists: it never shows untitled
    try:
        with native_stderr_silenced():  # libwayland's complaint when SDL finds no display
            pygame.display.init()
        driver = pygame.display.get_driver()
        if driver in ("offscreen", "dummy") and os.environ.get("SDL_VIDEODRIVER") != driver:
            # SDL fell back to drawing nowhere: a window nobody can see is no window.
            raise pygame.error(f"SDL found no display and fell back to its {driver} driver")
        flags = pygame.FULLSCREEN if fullscreen else pygame.RESIZABLE
        surface = pygame.display.set_mode((0, 0) if fullscreen else fit_screen(size), flags)
    except pygame.error as exc:
        pygame.display.quit()
        raise NoDisplayError(str(exc)) from exc
    pygame.font.init()
    pygame.key.set_repeat()  # a held paddle is one press, not a stream of them
    return surface


class TableWindow:
    """The window's panels, their input routing and drawing; `run()` is the loop."""

    def __init__(
        self,
        service: ShowdownService,
        app: Companion | None = None,
        *,
        keys: KeyMap | None = None,
        sound: ToneBank | None = None,
        fullscreen: bool = False,
        companion_factory: Callable[[Any, tuple[int, int]], Any] | None = None,
    ) -> None:
        self.service = service
        self.app = app
        self.keys = keys or KeyMap()
        self.labels = self.keys.labels()
        self.sound = sound
        self.fullscreen = fullscreen
        self.unit: EmulatorUnit | None = (
            service.unit if isinstance(service.unit, EmulatorUnit) else None
        )
        self.inline = self.unit is not None
        self.clock_us: Callable[[], int] = self.unit.now_us if self.unit else perf_clock_us
        self.running = True
        self.chooser = DuelChooser()
        self.bar = DuelBar(self.chooser)
        self._text = TextCache()
        # What the service says, drained on this thread after each turn. When the service
        # runs on its own thread, a listener (on a dispatcher thread) wakes this loop.
        self._events = service.subscribe("table window")
        self._main = threading.get_ident()
        self._windowed_size = display_surface().get_size()
        self.companion: Any = None
        if app is not None:
            factory = companion_factory or _companion_screen
            self.companion = factory(app, (1, 1))
        self._refresh_names()
        self.unit_rect = self.bar_rect = self.companion_rect = pygame.Rect(0, 0, 0, 0)
        self.unit_layout: UnitLayout | None = None
        self._held_pointer: dict[object, Side | str] = {}  # mouse / finger id -> control
        self._companion_pointer = False
        self._drawn: UnitState | None = None
        self._drawn_moving = False
        self._drawn_names: dict[Side, str] = {}
        self._full_redraw = True
        self._last_frame_us: int | None = None
        #: The last duel proposal taken from the companion's table helper.
        self._proposal: object = None
        #: Requests of `uno-showdown duel`, when the window serves the duel socket.
        self.door: WindowDuelDoor | None = None
        self.frames = 0
        self.layout(display_surface().get_size())
        if not self.inline:
            service.add_listener(self._on_service_event)
        if self.unit is not None:
            self.unit.on_change = self._on_unit_change

    # -- threads --

    def _on_service_event(self, event: ServiceEvent) -> None:
        """The service said something (heard on a dispatcher thread): take it in soon."""
        self._wake_if_elsewhere()

    def _on_unit_change(self) -> None:
        self._wake_if_elsewhere()

    def wake(self) -> None:
        """Have the loop look again soon (from another thread: the duel socket's)."""
        self._wake_if_elsewhere()

    def took_proposal(self, proposal: object) -> None:
        """`proposal` is seated already (by the duel socket): the bar need not take it."""
        self._proposal = proposal

    def _wake_if_elsewhere(self) -> None:
        if threading.get_ident() != self._main and pygame.display.get_init():
            pygame.event.post(pygame.event.Event(WAKE))

    # -- layout --

    def layout(self, size: tuple[int, int]) -> None:
        """Split the window: unit left (with the bar under it), companion right."""
        w, h = size
        bar_h = max(56, min(96, h * 14 // 100))
        if self.unit is not None and self.companion is not None:
            unit_w = min(w * 45 // 100, h)
            self.unit_rect = pygame.Rect(0, 0, unit_w, h - bar_h)
            self.bar_rect = pygame.Rect(0, h - bar_h, unit_w, bar_h)
            self.companion_rect = pygame.Rect(unit_w, 0, w - unit_w, h)
        elif self.unit is not None:
            self.unit_rect = pygame.Rect(0, 0, w, h - bar_h)
            self.bar_rect = pygame.Rect(0, h - bar_h, w, bar_h)
            self.companion_rect = pygame.Rect(0, 0, 0, 0)
        else:
            self.unit_rect = pygame.Rect(0, 0, 0, 0)
            self.companion_rect = pygame.Rect(0, 0, w, h - bar_h)
            self.bar_rect = pygame.Rect(0, h - bar_h, w, bar_h)
        self.unit_layout = UnitLayout.fit(self.unit_rect) if self.unit is not None else None
        self.bar.place(self.bar_rect)
        if self.companion is not None:
            self.companion.resize(self.companion_rect.size)
        self._full_redraw = True

    def toggle_fullscreen(self) -> None:
        if self.fullscreen:
            pygame.display.set_mode(self._windowed_size, pygame.RESIZABLE)
        else:
            self._windowed_size = display_surface().get_size()
            pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        self.fullscreen = not self.fullscreen
        self.layout(display_surface().get_size())

    # -- input --

    def duel_active(self) -> bool:
        """A duel is loaded, counting or flying: the unit's keys come first."""
        if self.chooser.busy or self.service.phase is Phase.LOADED or self.service.phase.running:
            return True
        return self.unit is not None and self.unit.state.launching_at(self.clock_us())

    def handle(self, event: pygame.event.Event, stamp_us: int) -> None:
        """Route one event; `stamp_us` is when it was taken from SDL's queue."""
        kind = event.type
        if kind == pygame.QUIT:
            self.running = False
        elif kind == pygame.KEYDOWN:
            self._key_down(event, stamp_us)
        elif kind == pygame.KEYUP:
            control = self.keys.control(event.key)
            if control is not None:
                self._release(control)
            elif self.companion is not None:
                self.companion.handle_event(event)
        elif kind == pygame.TEXTINPUT:
            if not self.duel_active() and self.companion is not None:
                self.companion.handle_event(event)
        elif kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self._mouse_button(event, stamp_us)
        elif kind in (pygame.MOUSEMOTION, pygame.MOUSEWHEEL):
            self._to_companion(event, pygame.mouse.get_pos())
        elif kind in (pygame.FINGERDOWN, pygame.FINGERUP):
            self._finger(event, stamp_us)
        elif kind in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self.layout(display_surface().get_size())
        elif kind in (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED):
            self._full_redraw = True

    def _key_down(self, event: pygame.event.Event, stamp_us: int) -> None:
        key, ctrl = event.key, bool(event.mod & pygame.KMOD_CTRL)
        if ctrl and key == pygame.K_q:
            self.running = False
            return
        fixed = {
            pygame.K_F6: lambda: self._command("left"),
            pygame.K_F7: lambda: self._command("right"),
            pygame.K_F8: lambda: self._command("cards:next"),
            pygame.K_F9: self.toggle_mute,
            pygame.K_F10: lambda: self._command("load"),
            pygame.K_F11: self.toggle_fullscreen,
        }
        if key in fixed:
            fixed[key]()
            return
        control = self.keys.control(key)
        active = self.duel_active()
        if control is not None and (active or self.companion is None):
            self._press(control, stamp_us)
            return
        if active and key == pygame.K_ESCAPE:
            self._command("abort")
            return
        if self.companion is not None and self.companion.handle_event(event):
            return
        if control is not None:
            self._press(control, stamp_us)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER) and not active:
            self._command("load")
        elif key in (pygame.K_1, pygame.K_2, pygame.K_3) and not active:
            self._command(f"cards:{key - pygame.K_0}")

    def _press(self, control: Side | str, stamp_us: int) -> None:
        if control == "timer" and not self.duel_active():
            # The timer button starts only a loaded duel: say how to load one, rather than
            # leave a table pressing it after a verdict and wondering why nothing happens.
            self.chooser.status = _(NOTHING_LOADED)
            self.bar.dirty = True
        if self.unit is None:
            if control == "timer":
                self.service.start()
            return
        if control == "timer":
            self.unit.press_timer(stamp_us)
        else:
            assert isinstance(control, Side)
            self.unit.press_paddle(control, stamp_us)

    def _release(self, control: Side | str) -> None:
        if self.unit is None:
            return
        if control == "timer":
            self.unit.release_timer()
        else:
            assert isinstance(control, Side)
            self.unit.release_paddle(control)

    def _mouse_button(self, event: pygame.event.Event, stamp_us: int) -> None:
        pos = event.pos
        touch = bool(getattr(event, "touch", False))  # fingers come as FINGER events too
        down = event.type == pygame.MOUSEBUTTONDOWN
        if event.button != 1:
            self._to_companion(event, pos)
            return
        if down:
            if self.unit_layout is not None and self.unit_rect.collidepoint(pos):
                control = self.unit_layout.hit(pos)
                if control is not None and not touch:
                    self._held_pointer["mouse"] = control
                    self._press(control, stamp_us)
                return
            if self.bar_rect.collidepoint(pos):
                command = self.bar.hit(pos, self.labels)
                if command is not None:
                    self._command(command)
                return
            self._companion_pointer = self._to_companion(event, pos)
            return
        control = self._held_pointer.pop("mouse", None)
        if control is not None:
            self._release(control)
        if self._companion_pointer or self.companion_rect.collidepoint(pos):
            self._companion_pointer = False
            self._to_companion(event, pos)

    def _finger(self, event: pygame.event.Event, stamp_us: int) -> None:
        if self.unit_layout is None:
            return
        w, h = display_surface().get_size()
        pos = (int(event.x * w), int(event.y * h))
        key = ("finger", event.touch_id, event.finger_id)
        if event.type == pygame.FINGERDOWN:
            control = self.unit_layout.hit(pos) if self.unit_rect.collidepoint(pos) else None
            if control is not None:
                self._held_pointer[key] = control
                self._press(control, stamp_us)
        else:
            control = self._held_pointer.pop(key, None)
            if control is not None:
                self._release(control)

    def _to_companion(self, event: pygame.event.Event, pos: tuple[int, int]) -> bool:
        """Hand a pointer event to the companion in its own coordinates."""
        if self.companion is None or not self.companion_rect.collidepoint(pos):
            return False
        attrs = dict(event.dict)
        if "pos" in attrs:
            attrs["pos"] = (pos[0] - self.companion_rect.x, pos[1] - self.companion_rect.y)
        return bool(self.companion.handle_event(pygame.event.Event(event.type, attrs)))

    def _command(self, command: str) -> None:
        """A duel-bar command, from a click or a key."""
        c = self.chooser
        if command in ("left", "right") and not c.busy:
            self._refresh_names()
            if len(c.names) < 2:  # nobody to seat: say why, instead of doing nothing
                c.status = _(NO_COMPANION) if self.app is None else _(NO_PLAYERS)
            c.next_player(Side(command))
        elif command == "cards:next" and not c.busy:
            c.next_cards()
        elif command.startswith("cards:") and not c.busy:
            c.set_cards(int(command.split(":")[1]))
        elif command == "load" and not c.busy:
            self._refresh_names()
            self.service.load(Side.LEFT, Side.RIGHT, c.cards, c.players())
        elif command == "abort" and c.busy:
            self.service.abort(CANCELLED)
        else:
            return
        self.bar.dirty = True

    def toggle_mute(self) -> None:
        if self.sound is not None:
            self.sound.toggle_mute()
            self._full_redraw = True

    def _refresh_names(self) -> None:
        if self.app is None:
            return
        try:
            names = self.app.player_names()
        except Exception:  # the bar must keep working while the store is busy
            log.exception("could not read the players")
            return
        if names != self.chooser.names:
            self.chooser.set_names(names)
            self.bar.dirty = True

    # -- time --

    def tick(self) -> None:
        """Step the service (inline), then take in what it said."""
        if self.inline:
            self.service.step(0)
        if self.door is not None:
            self.door.answer_pending()
        for event in self._events.drain():
            if isinstance(event, VerdictGiven):
                self._refresh_names()
            self._show_on_unit(event)
            if self.chooser.hear(event, self.labels):
                self.bar.dirty = True
        if self.companion is not None:
            self.companion.update(self.clock_us() // 1000)  # get_ticks() is 0 without pygame.init()
            if self.companion.dirty:  # maybe a new game or new players: show them in the bar
                self._refresh_names()
            self._take_proposal()

    def _take_proposal(self) -> None:
        """Seat the duel the table helper just proposed ("showdown card played by Ann"), once;
        never while a duel is loaded or running."""
        if self.app is None or self.chooser.busy:
            return
        try:
            proposal = self.app.proposed_duel()
        except Exception:  # the bar must keep working while the store is busy
            log.exception("could not read the proposed duel")
            return
        if proposal is None or proposal is self._proposal:
            return
        self._proposal = proposal
        if self.chooser.take(proposal.challenger, proposal.opponent, proposal.cards,
                             proposal.wild):
            self.bar.dirty = True

    def _show_on_unit(self, event: ServiceEvent) -> None:
        """Light a verdict on the emulated unit; take it down when the next duel comes.

        Events are taken in order after the service's step, so a verdict heard
        before a newer duel's DuelLoaded or CountdownStarted is taken down again.
        """
        if self.unit is None:
            return
        if isinstance(event, VerdictGiven | LaunchFailed):
            self.unit.show_verdict(*verdict_lights(event.result))
        elif isinstance(event, DuelLoaded | CountdownStarted):
            self.unit.show_verdict(None)

    def wait_ms(self, now_us: int) -> int:
        """How long the loop may sleep: until the next frame, the duel's next deadline, or idle."""
        wait_us = IDLE_WAIT_MS * 1000
        if self._needs_frame(now_us) and self._last_frame_us is not None:
            wait_us = min(wait_us, self._last_frame_us + FRAME_US - now_us)
        elif self._needs_frame(now_us):
            wait_us = 0
        duel = self.service.duel
        if self.inline and duel is not None and duel.phase.running:
            deadline = duel.next_deadline_us
            if deadline is not None:
                wait_us = min(wait_us, deadline - now_us)
        if self.unit is not None and self.unit.state.launching_at(now_us):
            wait_us = min(wait_us, self.unit.state.launch_end_us - now_us)
        return max(0, math.ceil(wait_us / 1000))

    # -- drawing --

    def _seated(self) -> dict[Side, str]:
        """Who the chooser seats at each paddle now: the names drawn over the paddles."""
        return {side: self.chooser.name(side) for side in Side}

    def _unit_changed(self, now_us: int) -> bool:
        """The unit looks different from its last frame (or was moving in it).

        A player seated with F6/F7 (or the bar) counts: the name over the paddle
        follows the chooser at once, not only when the duel is loaded.
        """
        if self.unit is None:
            return False
        state = self.unit.state
        return (state is not self._drawn or self._drawn_moving or state.animating_at(now_us)
                or self._seated() != self._drawn_names)

    def _needs_frame(self, now_us: int) -> bool:
        if self._full_redraw or self.bar.dirty or self._unit_changed(now_us):
            return True
        return self.companion is not None and bool(self.companion.dirty)

    def render(self, now_us: int) -> bool:
        """Draw what changed, at most 60 times a second; True when a frame was drawn.

        A frame that brings "go" or the frozen countdown on screen is drawn at once.
        """
        if not self._needs_frame(now_us):
            return False
        state = self.unit.state if self.unit is not None else None
        urgent = state is not None and (
            self._drawn is None or state.display is not self._drawn.display
            or state.verdict is not self._drawn.verdict
        )
        if (not urgent and self._last_frame_us is not None
                and now_us - self._last_frame_us < FRAME_US):
            return False
        surface = display_surface()
        full = self._full_redraw
        dirty: list[pygame.Rect] = []
        if state is not None and self.unit_layout is not None and (
            full or self._unit_changed(now_us)
        ):
            names = self._seated()
            draw_unit(surface, self.unit_layout, state, now_us, UnitLabels(self.labels, names),
                      self._text)
            self._drawn_names = names
            if self.sound is not None and self.sound.muted:
                # in the unit's top right corner, over no part of it: the body starts lower
                theme.text(surface, _(SOUND_OFF),
                           (self.unit_rect.right - 8, self.unit_rect.y + self.unit_rect.h // 60),
                           max(theme.MIN_TEXT_PX, self.unit_rect.h // 36), TEXT_DIM,
                           anchor="topright", max_width=self.unit_rect.w // 2)
            dirty.append(self.unit_rect)
            self._drawn = state
            self._drawn_moving = state.animating_at(now_us)
        if full or self.bar.dirty:
            self.bar.draw(surface, self.labels)
            dirty.append(self.bar_rect)
        if self.companion is not None and (full or self.companion.dirty):
            self.companion.draw(surface.subsurface(self.companion_rect))
            dirty.append(self.companion_rect)
        if full:
            pygame.display.flip()
        elif dirty:
            pygame.display.update(dirty)
        self._full_redraw = False
        self._last_frame_us = now_us
        self.frames += 1
        return True

    # -- the loop --

    def precise(self) -> bool:
        """Whether presses need the finest stamps now: a countdown or its presses are on."""
        return self.service.phase.running

    def wait_event(self, timeout_ms: int) -> pygame.event.Event:
        """The next event, or NOEVENT after `timeout_ms`.

        pygame's `event.wait` polls SDL every millisecond, which costs a few per
        cent of a core; that is worth it only while a duel runs. Otherwise the
        loop looks every `COARSE_POLL_S` and sleeps in between, which nobody
        notices when clicking a button.
        """
        if timeout_ms <= 0:
            return pygame.event.poll()
        if self.precise():
            return pygame.event.wait(timeout_ms)
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            event = pygame.event.poll()
            left = deadline - time.monotonic()
            if event.type != pygame.NOEVENT or left <= 0:
                return event
            time.sleep(min(left, COARSE_POLL_S))

    def turn(self, timeout_ms: int) -> None:
        """One turn: wait for events (or what is due), stamp and route them, step, draw."""
        first = self.wait_event(timeout_ms)
        stamp = self.clock_us()
        for event in [first, *pygame.event.get()]:
            if event.type != pygame.NOEVENT:
                self.handle(event, stamp)
        self.tick()
        self.render(self.clock_us())

    def run(self) -> int:
        """Run until the window is closed; exit status."""
        self.tick()
        self.render(self.clock_us())
        while self.running:
            self.turn(self.wait_ms(self.clock_us()))
        return 0

    def close(self) -> None:
        if not self.inline:
            with contextlib.suppress(ValueError):
                self.service.remove_listener(self._on_service_event)
        self.service.unsubscribe(self._events)
        if self.unit is not None:
            self.unit.on_change = None


def _companion_screen(app: Any, size: tuple[int, int]) -> Any:
    from championship.store.table_file import link_state
    from companion.screen.screen import CompanionScreen

    # at a championship table the banner says when the director does not hear it
    return CompanionScreen(app, size, link_state=lambda: link_state(app.store))


def display_surface() -> pygame.Surface:
    """The window's surface; the window is open for as long as the table runs."""
    surface = pygame.display.get_surface()
    if surface is None:
        raise NoDisplayError(_("the window was closed"))
    return surface


def request_quit() -> None:
    """Close the window from anywhere (a signal handler, another thread)."""
    if pygame.display.get_init():
        pygame.event.post(pygame.event.Event(pygame.QUIT))


def run_table_window(
    service: ShowdownService,
    app: Companion | None = None,
    *,
    fullscreen: bool = False,
    size: tuple[int, int] | None = None,
    keys: KeyMap | None = None,
    sound: ToneBank | None = None,
    duel_socket: Path | None = None,
    serve_duels: bool = False,
) -> int:
    """Open the table's window and run it until closed; exit status.

    With `serve_duels` the window answers `uno-showdown duel` on the duel socket (at
    `duel_socket`, else where `duel` looks by default): see `uno_showdown.window.duel_door`. A
    socket that cannot be served is a `SocketError`, before any window opens.

    With an `EmulatorUnit` the window shows the unit beside the companion and
    steps the service itself; with any other unit it shows the companion and the
    duel bar and runs `service.run()` on a background thread, stopping it on
    the way out. Raises NoDisplayError when no window can be opened. The command that
    calls it owns the stop signals; `request_quit` is what they do to the window.
    """
    emulated = isinstance(service.unit, EmulatorUnit)
    default = (1280, 720) if emulated else (800, 480)
    server = None
    if serve_duels:
        from uno_showdown.headless.duel_socket import open_server

        doors: list[WindowDuelDoor] = []

        def handler(request: dict[str, Any]) -> dict[str, str]:
            if not doors:
                return {"error": _("the emulator window is still opening: try again")}
            return doors[0].request(request)

        server = open_server(duel_socket, handler)
    window: TableWindow | None = None
    worker: threading.Thread | None = None
    try:
        open_display(size or default, fullscreen,
                     _("UNO Showdown emulator") if emulated else "UNO Showdown")
        if sound is None and emulated:
            sound = ToneBank()
            assert isinstance(service.unit, EmulatorUnit)
            service.unit.sound = sound.play
        window = TableWindow(service, app, keys=keys, sound=sound, fullscreen=fullscreen)
        if server is not None:
            window.door = WindowDuelDoor(window)
            doors.append(window.door)
        if not emulated:
            worker = threading.Thread(target=_run_service, args=(service,), name="showdown",
                                      daemon=True)
            worker.start()
        return window.run()
    finally:
        if worker is not None:
            service.stop()
            worker.join(timeout=5)
        else:
            service.unit.stop_launcher()
        if server is not None:
            server.close()
        if window is not None:
            window.close()
        pygame.display.quit()


def _run_service(service: ShowdownService) -> None:
    try:
        service.run()
    except Exception:
        log.exception("the showdown service stopped")
    finally:
        if pygame.display.get_init():
            pygame.event.post(pygame.event.Event(pygame.QUIT))
