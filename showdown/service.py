"""The one loop that owns time: unit inputs in, duel engine in the middle, unit actions out.

The service reads the unit's clock, feeds the engine, performs the engine's
actions on the unit and tells listeners (the companion, the CLI) what
happened. Other threads talk to it only through `load`, `start`, `abort` and
`stop`, which queue a command and wake the loop; everything else runs on the
loop's own thread, so neither the engine nor the unit needs a lock.

It is also the second guard of the launcher: a duel id is launched at most
once even if the engine were to ask twice, and any exception while acting on
the unit stops the motor before it propagates.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from hardware.base import (
    Beep,
    LaunchFinished,
    PaddlePressed,
    ShowdownUnit,
    TimerPressed,
    UnitFault,
    UnitInput,
)
from hardware.base import (
    GoShown as UnitGoShown,
)
from showdown.duel import (
    Abort,
    Action,
    Announce,
    Duel,
    DuelConfig,
    DuelError,
    DuelInput,
    DuelResult,
    FreezeCountdown,
    GoShown,
    LaunchCards,
    Load,
    Outcome,
    Phase,
    PointArrow,
    Press,
    ShowGo,
    ShowLoaded,
    Start,
    StartCountdown,
)
from showdown.duel_log import DuelLog
from showdown.sides import Side

log = logging.getLogger(__name__)

#: How often the countdown lights are refreshed while counting.
COUNTDOWN_REFRESH_S = 0.02
#: The longest the loop sleeps with nothing due (commands also wake it).
IDLE_WAIT_S = 0.25


# --- what listeners hear -----------------------------------------------------

_NO_PLAYERS: Mapping[Side, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class DuelLoaded:
    duel_id: int
    challenger: Side
    opponent: Side
    cards: int
    players: Mapping[Side, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CountdownStarted:
    duel_id: int
    countdown_us: int
    t_us: int


@dataclass(frozen=True, slots=True)
class GoSignalled:
    duel_id: int
    t_us: int


@dataclass(frozen=True, slots=True)
class EarlyPressSeen:
    duel_id: int
    side: Side
    t_us: int


@dataclass(frozen=True, slots=True)
class VerdictGiven:
    """A verdict, with what the companion needs to record it against players."""

    duel_id: int
    result: DuelResult
    challenger: Side
    opponent: Side
    cards: int
    players: Mapping[Side, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ReactionsTimed:
    """Both players' reaction times for a finished duel, once no press can change them.

    Comes after `VerdictGiven` (which never waits for the slower press), so the
    statistics can include the player who lost.
    """

    duel_id: int
    reaction_us: Mapping[Side, int | None]
    players: Mapping[Side, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LaunchDone:
    duel_id: int | None
    cards_counted: int | None
    jammed: bool


@dataclass(frozen=True, slots=True)
class UnitProblem:
    reason: str
    t_us: int


ServiceEvent = (
    DuelLoaded | CountdownStarted | GoSignalled | EarlyPressSeen | VerdictGiven | ReactionsTimed
    | LaunchDone | UnitProblem
)
Listener = Callable[[ServiceEvent], None]


# --- commands from other threads --------------------------------------------


@dataclass(frozen=True, slots=True)
class _LoadCmd:
    challenger: Side
    opponent: Side
    cards: int
    players: Mapping[Side, str]
    replace_started: bool = True


@dataclass(frozen=True, slots=True)
class _StartCmd:
    countdown_us: int | None


@dataclass(frozen=True, slots=True)
class _AbortCmd:
    reason: str


@dataclass(frozen=True, slots=True)
class _StopCmd:
    pass


class ShowdownService:
    """Runs duels on a Showdown Unit; see the module docstring for the threading rules."""

    def __init__(
        self,
        unit: ShowdownUnit,
        config: DuelConfig | None = None,
        *,
        rng: random.Random | None = None,
        duel_log: DuelLog | None = None,
        listeners: tuple[Listener, ...] = (),
    ) -> None:
        self.unit = unit
        self.config = config or DuelConfig()
        self._rng = rng or random.Random()
        self._log = duel_log
        self._listeners: list[Listener] = list(listeners)
        self._commands: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._stopped = threading.Event()
        self.duel: Duel | None = None
        self.duel_id = 0
        self._players: Mapping[Side, str] = _NO_PLAYERS
        self._launched_ids: set[int] = set()
        self._launching_id: int | None = None
        self._timing_pending = False
        self.results: list[tuple[int, DuelResult]] = []
        if not unit.stamps_edges:
            log.warning(
                "%s does not stamp paddle edges in hardware: close duels are judged less fairly",
                unit.name,
            )

    # -- listeners --

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def _emit(self, event: ServiceEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken listener must not stop the unit
                log.exception("listener %r failed on %r", listener, event)

    # -- commands (any thread) --

    def load(
        self,
        challenger: Side = Side.LEFT,
        opponent: Side | None = None,
        cards: int = 1,
        players: Mapping[Side, str] | None = None,
        *,
        replace_started: bool = True,
    ) -> None:
        """Load cards for a new duel (replacing one that has not started).

        By default a duel under way is aborted for the new one. With
        `replace_started=False` the load is dropped instead when the loop takes it
        while a duel is counting down, being judged or timing the slower press: telling
        the table who duels next must never cut the running duel short.
        """
        challenger = Side(challenger)
        opponent = challenger.other if opponent is None else Side(opponent)
        Load(challenger, opponent, cards)  # validate now, in the caller's thread
        most = self.unit.max_cards
        if most is not None and cards > most:
            raise DuelError(f"the {self.unit.name} unit launches at most {most} cards at once, "
                            f"not {cards}")
        self._send(_LoadCmd(challenger, opponent, cards, MappingProxyType(dict(players or {})),
                            replace_started))

    def start(self, countdown_us: int | None = None) -> None:
        """Press the timer button from software."""
        self._send(_StartCmd(countdown_us))

    def abort(self, reason: str = "cancelled at the table") -> None:
        self._send(_AbortCmd(reason))

    def stop(self) -> None:
        """End `run()`; the launcher is stopped on the way out."""
        self._stopped.set()
        self._send(_StopCmd())

    def _send(self, cmd: object) -> None:
        self._commands.put(cmd)
        self.unit.wake()

    # -- the loop --

    @property
    def phase(self) -> Phase:
        return self.duel.phase if self.duel is not None else Phase.IDLE

    def run(self) -> None:
        """Run until `stop()`; always leaves the launcher stopped."""
        try:
            while not self._stopped.is_set():
                self.step()
        finally:
            self.unit.stop_launcher()

    def step(self, max_wait_s: float = IDLE_WAIT_S) -> None:
        """One turn of the loop: commands, then inputs (waiting up to what is due), then time."""
        try:
            self._apply_commands()
            inputs = self.unit.read_inputs(self._wait_s(max_wait_s))
            for item in inputs:
                self._on_input(item, self.unit.now_us())
            self._apply_commands()
            self._tick()
        except BaseException:
            self.unit.stop_launcher()
            raise

    def _wait_s(self, max_wait_s: float) -> float:
        wait = max_wait_s
        duel = self.duel
        if duel is not None and duel.phase is Phase.RUNNING:
            deadline = duel.next_deadline_us
            if deadline is not None:
                wait = min(wait, max(0.0, (deadline - self.unit.now_us()) / 1_000_000))
            if self._counting():
                wait = min(wait, COUNTDOWN_REFRESH_S)
        return max(0.0, wait)

    def _counting(self) -> bool:
        return self.duel is not None and self.duel.counting

    def _tick(self) -> None:
        duel = self.duel
        if duel is None:
            return
        now = self.unit.now_us()
        self._perform(duel.advance(now))
        if self._timing_pending and duel.reactions_complete(now):
            self._report_reactions()
        if self._counting() and duel.go_at_us is not None and duel.countdown_us is not None:
            self.unit.show_countdown(max(0, duel.go_at_us - now), duel.countdown_us)

    def _feed(self, event: DuelInput, arrived_us: int) -> None:
        assert self.duel is not None
        if self._log is not None:
            self._log.input(event, arrived_us, self.duel_id)
        self._perform(self.duel.handle(event))

    def _apply_commands(self) -> None:
        while True:
            try:
                cmd = self._commands.get_nowait()
            except queue.Empty:
                return
            now = self.unit.now_us()
            if isinstance(cmd, _LoadCmd):
                if cmd.replace_started or not self._under_way():
                    self._new_duel(cmd, now)
            elif isinstance(cmd, _StartCmd):
                self._start(now, cmd.countdown_us)
            elif isinstance(cmd, _AbortCmd):
                self._abort(now, cmd.reason)

    def _under_way(self) -> bool:
        """A duel has started and is not finished: counting, judging or timing presses."""
        return self.phase is Phase.RUNNING or self._timing_pending

    def _report_reactions(self) -> None:
        assert self.duel is not None
        self._timing_pending = False
        self._emit(ReactionsTimed(self.duel_id, self.duel.reaction_us(), self._players))

    def _new_duel(self, cmd: _LoadCmd, now: int) -> None:
        if self.phase is Phase.RUNNING:
            self._abort(now, "a new duel was loaded")
        if self._timing_pending:
            self._report_reactions()
        self.duel_id += 1
        self.duel = Duel(self.config, self._rng, await_go_report=self.unit.runs_own_countdown)
        self._players = cmd.players
        self.unit.set_arrow(None)
        if self._log is not None:
            self._log.config(self.config, self.duel_id)
        self._feed(Load(cmd.challenger, cmd.opponent, cmd.cards, now), now)
        self._emit(DuelLoaded(self.duel_id, cmd.challenger, cmd.opponent, cmd.cards, cmd.players))

    def _start(self, t_us: int, countdown_us: int | None) -> None:
        duel = self.duel
        if duel is None or duel.phase is not Phase.LOADED:
            return  # the timer button does nothing without loaded cards
        if countdown_us is None:  # draw here, so the log replays exactly
            cfg = self.config
            countdown_us = self._rng.randint(cfg.countdown_min_us, cfg.countdown_max_us)
        self.unit.set_arrow(None)
        self._feed(Start(t_us, countdown_us), self.unit.now_us())

    def _abort(self, t_us: int, reason: str) -> None:
        self.unit.stop_launcher()
        if self.duel is not None and self.duel.phase in (Phase.LOADED, Phase.RUNNING):
            self._feed(Abort(t_us, reason), self.unit.now_us())

    def _on_input(self, item: UnitInput, arrived_us: int) -> None:
        duel = self.duel
        if isinstance(item, PaddlePressed):
            if duel is not None and (duel.phase is not Phase.IDLE):
                # After the verdict a press only times the slower player.
                self._feed(Press(item.t_us, item.side), arrived_us)
        elif isinstance(item, TimerPressed):
            self._start(item.t_us, None)
        elif isinstance(item, UnitGoShown):
            if duel is not None and duel.phase is Phase.RUNNING:
                self._feed(GoShown(item.t_us), arrived_us)
                self._emit(GoSignalled(self.duel_id, item.t_us))
                self.unit.beep(Beep.GO)
        elif isinstance(item, LaunchFinished):
            self._emit(LaunchDone(self._launching_id, item.cards_counted, item.jammed))
            if item.jammed:
                self.unit.beep(Beep.ERROR)
        elif isinstance(item, UnitFault):
            log.warning("unit fault: %s", item.reason)
            self._emit(UnitProblem(item.reason, item.t_us))
            if item.abort_duel:
                self._abort(item.t_us, item.reason)

    def _perform(self, actions: list[Action]) -> None:
        unit = self.unit
        for action in actions:
            if isinstance(action, ShowLoaded):
                unit.show_loaded(action.cards)
            elif isinstance(action, StartCountdown):
                unit.start_countdown_at(action.start_us, action.countdown_us)
                self._emit(CountdownStarted(self.duel_id, action.countdown_us, action.start_us))
            elif isinstance(action, ShowGo):
                if not unit.runs_own_countdown:
                    stamp = unit.show_go()
                    unit.beep(Beep.GO)
                    if stamp is not None:
                        self._feed(GoShown(stamp), unit.now_us())
                        self._emit(GoSignalled(self.duel_id, stamp))
            elif isinstance(action, FreezeCountdown):
                unit.freeze_countdown()
                unit.beep(Beep.EARLY)
                self._emit(EarlyPressSeen(self.duel_id, action.side, action.at_us))
            elif isinstance(action, PointArrow):
                unit.set_arrow(action.side)
            elif isinstance(action, LaunchCards):
                if self.duel_id in self._launched_ids:
                    log.error("duel %d asked to launch twice; refused", self.duel_id)
                    continue
                self._launched_ids.add(self.duel_id)
                self._launching_id = self.duel_id
                unit.launch(action.parts)
                unit.beep(Beep.LAUNCH)
            elif isinstance(action, Announce):
                self._announce(action.result)

    def _announce(self, result: DuelResult) -> None:
        assert self.duel is not None and self.duel.load is not None
        load = self.duel.load
        self.results.append((self.duel_id, result))
        if self._log is not None:
            self._log.verdict(result, self.duel_id)
        if result.outcome is Outcome.TIE:
            self.unit.beep(Beep.TIE)
        elif result.outcome is Outcome.TIMEOUT:
            self.unit.beep(Beep.TIMEOUT)
        elif result.outcome is Outcome.ABORTED:
            self.unit.set_arrow(None)
            self.unit.show_idle()
        self._timing_pending = not result.rematch and result.outcome is not Outcome.ABORTED
        self._emit(
            VerdictGiven(self.duel_id, result, load.challenger, load.opponent, load.cards,
                         self._players)
        )

    def close(self) -> None:
        """Stop the launcher and release the unit."""
        try:
            self.unit.stop_launcher()
        finally:
            self.unit.close()
            if self._log is not None:
                self._log.close()
