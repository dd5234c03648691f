"""The one loop that owns time: unit inputs in, duel engine in the middle, unit actions out.

The service reads the unit's clock, feeds the engine, performs the engine's
actions on the unit and tells listeners (the companion, the CLI) what
happened. Other threads talk to it only through `load`, `start`, `abort` and
`stop`, which queue a command and wake the loop; everything else runs on the
loop's own thread, so neither the engine nor the unit needs a lock.

The loop never runs a listener: an event is only appended to each listener's queue
(`showdown.service.dispatch`), and each listener hears it on a thread of its own. A listener that
blocks, is slow or raises cannot delay go, a verdict or a launch, nor stop the service.

It is also the second guard of the launcher: a duel id is launched at most
once even if the engine were to ask twice, and any exception while acting on
the unit stops the motor before it propagates.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from showdown.contract.events import (
    Beep,
    CountdownStarted,
    DuelLoaded,
    DuelResult,
    EarlyPressSeen,
    GoShown,
    LaunchFailed,
    LaunchFinished,
    Listener,
    Outcome,
    PaddlePressed,
    ReactionsTimed,
    ServiceEvent,
    Side,
    TimerPressed,
    UnitFault,
    UnitInput,
    VerdictContested,
    VerdictGiven,
)
from showdown.contract.i18n import _
from showdown.contract.unit import ShowdownUnit
from showdown.duel.engine import (
    Abort,
    Action,
    Announce,
    Contest,
    Duel,
    DuelConfig,
    DuelError,
    DuelInput,
    FreezeCountdown,
    LaunchCards,
    Load,
    Phase,
    PointArrow,
    ShowGo,
    ShowLoaded,
    Start,
    StartCountdown,
)
from showdown.service.dispatch import Dispatcher, EventFeed
from showdown.service.duel_log import DuelLog

log = logging.getLogger(__name__)

#: How often the countdown lights are refreshed while counting.
COUNTDOWN_REFRESH_S = 0.02
#: The longest the loop sleeps with nothing due (commands also wake it).
IDLE_WAIT_S = 0.25
#: How many recent verdicts `results` keeps: a service runs for months.
RESULTS_KEPT = 1_000
#: How long `close()` waits for listeners to take what is still queued for them.
FLUSH_TIMEOUT_S = 3.0
#: Why a duel loaded or under way ends when the service stops: its abort line says so.
STOPPED_REASON = "the table stopped"

_NO_PLAYERS: Mapping[Side, str] = MappingProxyType({})


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


@dataclass(frozen=True, slots=True)
class _Launched:
    """The verdict whose launch the unit has not yet confirmed by finishing it."""

    duel_id: int
    result: DuelResult
    load: Load
    players: Mapping[Side, str]


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
        self._events = Dispatcher()
        for listener in listeners:
            self._events.add(listener)
        self._commands: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._stopped = threading.Event()
        self.duel: Duel | None = None
        self.duel_id = 0
        self._players: Mapping[Side, str] = _NO_PLAYERS
        # Duel ids only grow, so the newest one launched is all the launch guard needs.
        self._last_launched_id = 0
        self._launching_id: int | None = None
        self._launched: _Launched | None = None
        self._timing_pending = False
        #: The latest verdicts as (duel id, result), newest last; at most `RESULTS_KEPT`.
        self.results: deque[tuple[int, DuelResult]] = deque(maxlen=RESULTS_KEPT)
        if not (unit.stamps_edges or unit.software_stamps_expected):
            log.warning(
                "%s does not stamp paddle edges in hardware: close duels are judged less fairly",
                unit.name,
            )

    @property
    def duel_log(self) -> DuelLog | None:
        """Where every duel is written (on the log's own thread), if anywhere."""
        return self._log

    # -- listeners --

    def add_listener(self, listener: Listener) -> None:
        """Tell `listener` every event from now on, on a thread of its own (never this loop's)."""
        self._events.add(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._events.remove(listener)

    def subscribe(self, name: str = "subscriber") -> EventFeed:
        """A queue of every event from now on, for a consumer that drains it itself."""
        return self._events.subscribe(name)

    def unsubscribe(self, feed: EventFeed) -> None:
        self._events.unsubscribe(feed)

    def flush_listeners(self, timeout_s: float = FLUSH_TIMEOUT_S) -> list[str]:
        """Wait (at most `timeout_s`) until listeners have handled every event so far;
        returns a description of each one still busy."""
        return self._events.flush(timeout_s)

    def _emit(self, event: ServiceEvent) -> None:
        self._events.emit(event)

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
            raise DuelError(_("the {unit} unit launches at most {most} cards at once, "
                              "not {cards}").format(unit=self.unit.name, most=most, cards=cards))
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
    def stopping(self) -> bool:
        """`stop()` was called: the loop's owner should stop stepping."""
        return self._stopped.is_set()

    @property
    def phase(self) -> Phase:
        return self.duel.phase if self.duel is not None else Phase.IDLE

    @property
    def under_way(self) -> bool:
        """A duel has started and is not finished: counting, judging or timing presses.
        A duel loaded with `replace_started=False` waits for it (any thread may ask)."""
        return self.phase.running or self._timing_pending

    def run(self) -> None:
        """Run until `stop()`; always leaves the launcher stopped."""
        try:
            while not self.stopping:
                self.step()
        finally:
            self.unit.stop_launcher()
            self._stop_duel()

    def step(self, max_wait_s: float = IDLE_WAIT_S) -> None:
        """One turn of the loop: commands, then inputs (waiting up to what is due), then time.

        The rule for an input near the verdict's deadline, the same live and in replay:
        every input the unit has delivered when the loop reads it is fed to the engine
        before the engine is told the time, so whatever was read by the instant the
        verdict is committed counts. The verdict line in the duel log carries that
        instant, and replay commits there too.
        """
        try:
            self._apply_commands()
            inputs = self.unit.read_inputs(self._wait_s(max_wait_s))
            if inputs:
                now = self.unit.now_us()
                for item in inputs:
                    self._on_input(item, now)
            self._apply_commands()
            self._tick()
        except BaseException:
            self.unit.stop_launcher()
            raise

    def _wait_s(self, max_wait_s: float) -> float:
        wait = max_wait_s
        duel = self.duel
        if duel is not None and duel.phase.running:
            deadline = duel.next_deadline_us
            if deadline is not None:
                wait = min(wait, max(0.0, (deadline - self.unit.now_us()) / 1_000_000))
            if duel.counting:
                wait = min(wait, COUNTDOWN_REFRESH_S)
        return max(0.0, wait)

    def _tick(self) -> None:
        duel = self.duel
        if duel is None:
            return
        now = self.unit.now_us()
        actions = duel.advance(now)
        self._perform(actions)
        if any(isinstance(a, ShowGo) for a in actions):
            # Go is on, and the engine knows when it was shown: judge against that go.
            now = self.unit.now_us()
            self._perform(duel.advance(now))
        if self._timing_pending and duel.reactions_complete(now):
            self._report_reactions()
        if duel.counting and duel.go_at_us is not None and duel.countdown_us is not None:
            self.unit.show_countdown(max(0, duel.go_at_us - now), duel.countdown_us)

    def _feed(self, event: DuelInput, arrived_us: int) -> None:
        assert self.duel is not None
        if self._log is not None:
            self._log.input(event, arrived_us, self.duel_id)
        self._perform(self.duel.handle(event), arrived_us)

    def _apply_commands(self) -> None:
        while True:
            try:
                cmd = self._commands.get_nowait()
            except queue.Empty:
                return
            now = self.unit.now_us()
            if isinstance(cmd, _LoadCmd):
                if cmd.replace_started or not self.under_way:
                    self._new_duel(cmd, now)
            elif isinstance(cmd, _StartCmd):
                self._start(now, cmd.countdown_us)
            elif isinstance(cmd, _AbortCmd):
                self._abort(now, cmd.reason)
            elif isinstance(cmd, _StopCmd):
                self._stop_duel()


    def _report_reactions(self) -> None:
        assert self.duel is not None
        self._timing_pending = False
        reaction_us = self.duel.reaction_us()
        if self._log is not None:
            self._log.reactions(reaction_us, self.duel_id)
        self._emit(ReactionsTimed(self.duel_id, reaction_us, self._players))

    def _new_duel(self, cmd: _LoadCmd, now: int) -> None:
        if self.phase.running:
            self._abort(now, "a new duel was loaded")
        if self._timing_pending:
            self._report_reactions()
        self.duel_id += 1
        await_go = self.unit.runs_own_countdown
        self.duel = Duel(self.config, self._rng, await_go_report=await_go)
        self._players = cmd.players
        self.unit.set_arrow(None)
        if self._log is not None:
            self._log.config(self.config, self.duel_id, await_go_report=await_go)
        load = Load(cmd.challenger, cmd.opponent, cmd.cards, now)
        if self._log is not None:
            self._log.input(load, now, self.duel_id, cmd.players)
        self._perform(self.duel.handle(load), now)
        self._emit(DuelLoaded(self.duel_id, cmd.challenger, cmd.opponent, cmd.cards, cmd.players))

    def _start(self, t_us: int, countdown_us: int | None) -> None:
        duel = self.duel
        if duel is not None and duel.phase is Phase.DONE and self._timing_pending:
            log.warning("%s", _("the timer button does nothing yet: duel {duel} is still timing "
                                "the other player's reaction; the next duel can start in "
                                "{seconds} s").format(duel=self.duel_id,
                                                      seconds=self._next_duel_in_s()))
            return
        if duel is None or duel.phase is not Phase.LOADED:
            return  # the timer button does nothing without loaded cards
        if countdown_us is None:  # draw here, so the log replays exactly
            cfg = self.config
            countdown_us = self._rng.randint(cfg.countdown_min_us, cfg.countdown_max_us)
        self.unit.set_arrow(None)
        self._feed(Start(t_us, countdown_us), self.unit.now_us())

    def _abort(self, t_us: int, reason: str) -> None:
        self.unit.stop_launcher()
        if self.duel is not None and (self.duel.phase is Phase.LOADED or self.duel.phase.running):
            self._feed(Abort(t_us, reason), self.unit.now_us())

    def _stop_duel(self) -> None:
        """The table stops with a duel loaded or under way: it ends aborted ("the table
        stopped"), told everywhere a verdict goes, so the duel log never holds a duel that
        replay would have to finish by inventing a verdict. Never raises: it runs on the
        way out, where the unit may be what failed."""
        duel = self.duel
        if duel is None or not (duel.phase is Phase.LOADED or duel.phase.running):
            return
        try:
            self._abort(self.unit.now_us(), STOPPED_REASON)
        except Exception:
            log.exception("duel %d: could not end it as aborted while stopping", self.duel_id)

    def _on_input(self, item: UnitInput, arrived_us: int) -> None:
        duel = self.duel
        if isinstance(item, PaddlePressed):
            if duel is not None and (duel.phase is not Phase.IDLE):
                # After the verdict a press only times the slower player (or contests it).
                self._feed(item, arrived_us)
        elif isinstance(item, TimerPressed):
            self._start(item.t_us, None)
        elif isinstance(item, GoShown):
            if duel is not None and duel.phase.running:
                self._feed(GoShown(item.t_us), arrived_us)
                self._emit(GoShown(item.t_us, self.duel_id))
                self.unit.beep(Beep.GO)
        elif isinstance(item, LaunchFinished):
            self._launched = None  # the unit ran it: whatever it counted, it was launched
            self._emit(replace(item, duel_id=self._launching_id))
            if item.jammed:
                self.unit.beep(Beep.ERROR)
        elif isinstance(item, UnitFault):
            log.warning("unit fault: %s", item.reason)
            self._emit(item)
            if item.launch_failed:
                self._launch_failed(item.t_us, item.reason)
            if item.abort_duel:
                self._abort(item.t_us, item.reason)

    def _perform(self, actions: list[Action], arrived_us: int | None = None) -> None:
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
                        self._emit(GoShown(stamp, self.duel_id))
            elif isinstance(action, FreezeCountdown):
                unit.freeze_countdown()
                unit.beep(Beep.EARLY)
                self._emit(EarlyPressSeen(self.duel_id, action.side, action.at_us))
            elif isinstance(action, PointArrow):
                unit.set_arrow(action.side)
            elif isinstance(action, LaunchCards):
                if self.duel_id <= self._last_launched_id:
                    log.error("duel %d asked to launch twice; refused", self.duel_id)
                    continue
                self._last_launched_id = self.duel_id
                self._launching_id = self.duel_id
                unit.launch(action.parts)
                unit.beep(Beep.LAUNCH)
            elif isinstance(action, Announce):
                self._announce(action.result)
            elif isinstance(action, Contest):
                self._contested(action, unit.now_us() if arrived_us is None else arrived_us)

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
        if self._timing_pending and result.outcome is Outcome.EARLY_PRESS:
            # the other player's reaction is timed up to the response timeout after the go
            # the countdown would have shown: say how long the next duel waits for that
            log.info("%s", _("duel {duel}: early press; the next duel can start in {seconds} "
                                "s, once the other player's time to react is up").format(
                                    duel=self.duel_id, seconds=self._next_duel_in_s()))
        if result.launch and self._launching_id == self.duel_id:
            self._launched = _Launched(self.duel_id, result, load, self._players)
        self._emit(
            VerdictGiven(self.duel_id, result, load.challenger, load.opponent, load.cards,
                         self._players)
        )

    def _next_duel_in_s(self) -> str:
        """How long until the duel in hand has timed its reactions (the next one can start),
        in seconds with one decimal, by the unit's clock."""
        duel = self.duel
        if duel is None or duel.result is None or duel.result.go_us is None:
            return "0.0"
        cfg = duel.config
        left = duel.result.go_us + cfg.response_timeout_us + cfg.settle_us - self.unit.now_us()
        return f"{max(0, left) / 1_000_000:.1f}"

    def _launch_failed(self, t_us: int, reason: str) -> None:
        """The unit did not confirm the launch a verdict called for: that duel ends as
        launch failed, told everywhere its verdict went (the duel log, the listeners)."""
        launched, self._launched = self._launched, None
        if launched is None:  # no verdict waits on a launch: a stop's, or one already done
            log.info("the unit confirmed no launch, and none was waiting: %s", reason)
            return
        result = launched.result.with_launch_failed(reason, t_us)
        log.warning("duel %d: the launch was not confirmed (%s): the duel ends as launch "
                    "failed, and nobody takes its cards", launched.duel_id, reason)
        self.results.append((launched.duel_id, result))
        if self._log is not None:
            self._log.launch_failed(reason, t_us, launched.duel_id)
        self.unit.beep(Beep.ERROR)
        load = launched.load
        self._emit(LaunchFailed(launched.duel_id, reason, result, load.challenger, load.opponent,
                                load.cards, launched.players))

    def _contested(self, contest: Contest, arrived_us: int) -> None:
        """A late press would have changed the verdict: say so, everywhere it is kept."""
        log.warning(
            "duel %d: a %s press stamped %d us arrived at %d us, after the verdict (%s); "
            "counted in time it would have been %s: the verdict is contested",
            self.duel_id, contest.side, contest.t_us, arrived_us, contest.given,
            contest.would_be)
        if self._log is not None:
            self._log.contested(contest, arrived_us, self.duel_id)
        self._emit(VerdictContested(
            self.duel_id, contest.side, contest.t_us, arrived_us, contest.given,
            contest.would_be, contest.would_win, self._players))

    def close(self, flush_timeout_s: float = FLUSH_TIMEOUT_S) -> None:
        """Stop the launcher, release the unit, and let listeners finish (bounded).

        Whatever a listener has still not taken after `flush_timeout_s` is named in one
        logged line; the duel log holds every duel regardless.
        """
        try:
            self.unit.stop_launcher()
            self._stop_duel()  # the loop has ended: a duel left in hand ends aborted
        finally:
            try:
                self.unit.close()
            finally:
                if self._log is not None:
                    self._log.close()
                self.close_listeners(flush_timeout_s)

    def close_listeners(self, flush_timeout_s: float = FLUSH_TIMEOUT_S) -> list[str]:
        """Let listeners take what is queued for them (at most `flush_timeout_s`), then stop
        their threads. What is still untaken is named in one logged line, and returned.

        For a command that closes the unit and the duel log itself; `close()` calls it too.
        Called once the loop has ended: a duel still loaded or under way then ends aborted
        first ("the table stopped"), so listeners and the duel log hear of it.
        """
        self._stop_duel()
        busy = self._events.close(flush_timeout_s)
        if busy:
            log.warning("listeners still busy after %.1f s at shutdown: %s",
                        flush_timeout_s, "; ".join(busy))
        return busy
