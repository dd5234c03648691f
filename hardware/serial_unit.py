"""`--device serial`: a Showdown Unit on a microcontroller, over the board link.

The board stamps every edge with its own microsecond timer and runs the
countdown itself, so this unit `runs_own_countdown` and reports the board's
"go" instant as `GoShown`. The board counts from the very instant the duel
engine started the countdown (`start_countdown_at`, which the service calls
with the engine's start): the board's go then falls at or just after the
engine's planned go, and a press is early on the board exactly when it is
early for the engine. Its clock is the board's, unwrapped and kept
monotonic by the link (firmware_host/wire/board_clock.py). When the link drops or the
board restarts it reports `UnitFault(abort_duel=True)`, so a duel in progress
ends without a launch, and the link reconnects by itself. A launch the board did
not confirm (it could not be sent, was never acknowledged before the link gave
up, or was refused) is reported with `launch_failed=True`: the duel that called
for it ends as launch failed, and nobody is credited its cards.
"""

from __future__ import annotations

import argparse
import logging
import threading
from typing import Any

from firmware_host.host.link import (
    BoardLink,
    BoardReport,
    Connected,
    LinkReport,
    Lost,
    Refused,
    VersionMismatch,
    find_board,
    nak_text,
    version_text,
)
from firmware_host.host.ports import check_port
from firmware_host.wire import codec
from showdown.contract.events import (
    Beep,
    ConfigError,
    GoShown,
    LaunchFinished,
    LaunchPart,
    PaddlePressed,
    Side,
    TimerPressed,
    UnitFault,
    UnitInput,
)
from showdown.contract.unit import ShowdownUnit

log = logging.getLogger(__name__)

#: How long `run` waits at the start for the board's hello before going on without it
#: (a board that runs the firmware answers at once; one not plugged in yet is waited for
#: by the link, as before).
HELLO_WAIT_S = 2.0

_FAULT_TEXT = {
    codec.FAULT_HOST_SILENT: "the board stopped the launcher because the host fell silent",
    codec.FAULT_MAX_ON_TIME: "the launcher hit its maximum on-time and was stopped",
    codec.FAULT_WATCHDOG: "the board's watchdog restarted it",
    codec.FAULT_EVENT_OVERFLOW: "the board dropped paddle edges (too many at once)",
    codec.FAULT_FRAME_FAILED: "the board failed on a command from this host and skipped it; if it "
    "repeats, reinstall the firmware (uno-showdown firmware install)",
}
_COMMAND_TEXT = {
    codec.COUNTDOWN: "the countdown", codec.LAUNCH: "the launch", codec.GO: "go",
    codec.FREEZE: "the freeze", codec.ARROW: "the arrow", codec.STOP: "the stop",
    codec.BEEP: "the beep", codec.RESET: "the reset",
}


class SerialUnit(ShowdownUnit):
    """A microcontroller Showdown Unit; see the module docstring."""

    name = "serial"
    stamps_edges = True
    runs_own_countdown = True
    # The board refuses more cards than this in one launch part (fw_core._launch).
    max_cards = 20
    # How late a press may reach the engine: the board reports an edge within one
    # turn of its loop (IDLE_WAIT_MS, 2 ms) and resends an unacknowledged event after
    # EVENT_RETRY_US (10 ms). benchmarks/serial_link.py on the virtual board (a
    # CPython thread on a pty, 2 shared cores): delivery p99.9 2.4-4.1 ms, and with
    # every first frame lost p99.9 13-17 ms (p50 12 ms). Full-speed USB adds up
    # to 1 ms of polling and a busy Pi a few ms before the reader runs, so 25 ms
    # covers one lost frame with room to spare (the Pico's own part is at most 13 ms).
    settle_us = 25_000

    def __init__(self, port: str | None = None, **link_options: Any) -> None:
        super().__init__()
        self._answered = threading.Event()  # the board's first hello: ours, or a mismatch
        self._mismatch: VersionMismatch | None = None
        self.link = BoardLink(port, self._on_link_report, **link_options).start()

    def refuse_other_firmware(self, timeout_s: float = HELLO_WAIT_S) -> None:
        """Raise ConfigError if the board answers the first hello with another protocol.

        `run` calls it before the table starts: a board it can never play on is refused in
        one line (exit 2), nothing sent to it but the hello. A board that does not answer
        within `timeout_s` (not plugged in yet, still booting) is waited for by the link,
        and a mismatch found later is a fault that ends every duel, as before.
        """
        if self._answered.wait(timeout_s) and self._mismatch is not None:
            found = self._mismatch
            raise ConfigError(version_text(found.port, found.board_version))

    # -- what the link says --

    def _on_link_report(self, event: LinkReport) -> None:
        item: UnitInput | None = None
        if isinstance(event, BoardReport):
            item = self._board_input(event)
        elif isinstance(event, Lost):
            # a launch the board had not acknowledged may never have run: its duel's cards
            # cannot be counted as flown
            item = UnitFault(event.t_us, f"lost the board: {event.reason}", abort_duel=True,
                             launch_failed=codec.LAUNCH in event.unconfirmed)
        elif isinstance(event, VersionMismatch):
            self._mismatch = event
            self._answered.set()
            item = UnitFault(event.t_us, version_text(event.port, event.board_version),
                             abort_duel=True)
        elif isinstance(event, Refused):
            # a duel cannot go on without the board's countdown (nobody would see go): it
            # ends. A refused launch means the cards never flew, but its duel already has
            # its verdict: that launch fails, and only that. The duel in hand by now may be
            # the next one (a headless table loads it at the verdict): it is left alone.
            item = UnitFault(
                event.t_us, f"the board refused {_COMMAND_TEXT.get(event.kind, event.kind)}: "
                f"{nak_text(event.reason)}",
                abort_duel=event.kind == codec.COUNTDOWN,
                launch_failed=event.kind == codec.LAUNCH,
            )
        elif isinstance(event, Connected):
            self._answered.set()
            log.info("board %08x ready on %s", event.boot_id, event.port)
        if item is not None:
            self._report(item)

    def _board_input(self, event: BoardReport) -> UnitInput | None:
        args, t = event.args, event.t_us
        if event.kind == codec.PADDLE:
            return PaddlePressed(Side.LEFT if args[0] == codec.LEFT else Side.RIGHT, t)
        if event.kind == codec.BUTTON:
            return TimerPressed(t)
        if event.kind == codec.GO_SHOWN:
            return GoShown(t)
        if event.kind == codec.LAUNCH_DONE:
            return _launch_finished(args, t)
        if event.kind == codec.FAULT and args[0] == codec.FAULT_STOPPED:
            return _stopped_input(args, t)
        if event.kind == codec.FAULT:
            code = args[0]
            text = _FAULT_TEXT.get(code, f"board fault {code}")
            abort = code in (codec.FAULT_WATCHDOG, codec.FAULT_HOST_SILENT)
            return UnitFault(t, text, abort_duel=abort)
        return None

    # -- clock and inputs --

    def now_us(self) -> int:
        return self.link.now_us()

    # -- display, sound, launcher --

    def _command(self, kind: str, args: tuple[int, ...] = ()) -> bool:
        return self.link.command(kind, args) is not None

    def start_countdown(self, countdown_us: int) -> None:
        """A countdown from now (for a caller that has no start instant of its own)."""
        self.start_countdown_at(self.now_us(), countdown_us)

    def start_countdown_at(self, start_us: int, countdown_us: int) -> None:
        """Count down on the board from `start_us` (device time, usually just past).

        The board lights go at `start_us + countdown_us` on its own clock, freezes on
        a paddle edge stamped from `start_us` on (even one that came before this
        command), and reports the instant it lit go. If the command cannot be sent,
        the duel is aborted: without the board's countdown nobody would see go.
        """
        sent = self.link.ready and self._command(
            codec.COUNTDOWN, (countdown_us, self.link.to_raw(start_us)))
        if not sent:
            self._report(UnitFault(self.now_us(), "the countdown was not sent: the board is not "
                                   "connected; start the duel again once it is", abort_duel=True))

    def show_go(self) -> None:
        self._command(codec.GO)
        return None

    def freeze_countdown(self) -> None:
        self._command(codec.FREEZE)

    def set_arrow(self, side: Side | None) -> None:
        code = -1 if side is None else (codec.LEFT if side is Side.LEFT else codec.RIGHT)
        self._command(codec.ARROW, (code,))

    def beep(self, kind: Beep) -> None:
        names = codec.BEEPS
        if kind.value in names:
            self._command(codec.BEEP, (names.index(kind.value),))

    def launch(self, parts: tuple[LaunchPart, ...]) -> None:
        args: list[int] = []
        for part in parts:
            args += [codec.LEFT if part.side is Side.LEFT else codec.RIGHT, part.cards]
        if not self._command(codec.LAUNCH, tuple(args)):
            self._report(UnitFault(self.now_us(), "the launch was not sent: the board is not "
                                   "connected", abort_duel=False, launch_failed=True))

    def _report(self, item: UnitInput) -> None:
        """Hand the service an input, the board's or the unit's own making."""
        self.inputs.put(item)

    def stop_launcher(self) -> None:
        self._command(codec.STOP)

    def close(self) -> None:
        try:
            self.stop_launcher()
        finally:
            self.link.close()


def _launch_finished(args: tuple[int, ...], t: int) -> LaunchFinished:
    """The end of a launch as the service hears it: a stop is not a jam.

    The board says why the launch ended (`LD counted short ticks why`). A stop
    (this host's abort or close, or a stale retry, which comes as its own fault)
    leaves the launcher fine: the cards counted so far, not jammed, so nobody is
    told to clear rollers that hold nothing. Any other cut (the sensor saw no
    more cards, the maximum on-time, the host silent) is reported jammed, as
    before. A board too old to send `why` is taken at its word.
    """
    counted = args[0] if args[0] >= 0 else None
    stopped = len(args) > 3 and args[3] == codec.END_STOPPED
    return LaunchFinished(t, cards_counted=counted, jammed=bool(args[1]) and not stopped)


def _stopped_input(args: tuple[int, ...], t: int) -> UnitInput | None:
    """What the service hears when a stop ended a countdown or a launch on the board.

    A stop the board could place was this host's own (an abort, a close): the
    launch's end already comes as its LaunchFinished, and nothing else is news.
    A stale one (a retry the board could not place after newer commands) may
    have ended a countdown the duel waits on, or cut the cards short: say so,
    and end the duel if its go will now never come.
    """
    ended = args[2] if len(args) > 2 else 0
    stale = len(args) > 3 and args[3] == 1
    if not stale:
        log.debug("the board stopped %s on request", "the countdown" if ended & 1 else "the launch")
        return None
    what = " and ".join(
        name for bit, name in ((1, "the countdown"), (2, "the launch")) if ended & bit)
    return UnitFault(
        t, f"a stop retried too late for the board to place ended {what or 'nothing'}; "
        "if it repeats, check the cable", abort_duel=bool(ended & 1))


def open_unit(args: argparse.Namespace) -> SerialUnit:
    """`uno-showdown run --device serial [--port P]`: without a port, find the Pico by USB id.

    A port named on the command line must exist now: a typo should fail at once,
    not wait forever. Without one, the link keeps looking for a board and says
    once that it is waiting, so a board plugged in later is found. A board whose
    firmware speaks another protocol is refused (ConfigError) if it says so within
    HELLO_WAIT_S.
    """
    port = getattr(args, "port", None)
    if port is not None:
        check_port(port)
    # With no board plugged in there is no hello to wait for: start at once, and let the
    # link find the board when it comes (its firmware is checked then, as a fault).
    plugged_in = port is not None or find_board() is not None
    unit = SerialUnit(port)
    try:
        if plugged_in:
            unit.refuse_other_firmware()
    except ConfigError:
        unit.close()  # the board was sent nothing but the hello: its motor never ran
        raise
    return unit
