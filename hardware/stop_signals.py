"""The stop signals (SIGTERM, SIGINT, SIGHUP) of a process that drives a launcher.

One place owns them: the command that runs the table (`run`, `emulator`, `selftest`)
installs `owned_stop_signals` around its work, with the actions a stop needs in the order
they must happen: the motor first, then the service and the window. Adapters install no
handler; they offer `close()` (and `stop_launcher()`), which the command's own cleanup
calls on the way out.

Each handler runs the actions, then chains to the handler that was there before when that
was a Python function (a test harness, an embedding program). The actions run on a thread
of their own, which the handler waits for (briefly): a signal can arrive while the main
thread is inside a lock the actions need (a `threading.Event`'s, as the loop waits on one),
and a handler that took that lock on the main thread itself would wait forever. The
operating system's default action is not chained: it would end the process before the
launcher, the games file and the duel log are closed. SIGHUP (a closed terminal,
`systemctl reload`) stops the motor and the table like SIGTERM does.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

log = logging.getLogger(__name__)

#: How long a handler waits for its actions before it goes on (chains, or ends the block).
ACTIONS_WAIT_S = 0.5

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    s for s in (getattr(signal, n, None) for n in ("SIGTERM", "SIGINT", "SIGHUP")) if s is not None
)


class StopRequest:
    """Which stop signal arrived (None: none yet)."""

    def __init__(self) -> None:
        self.signal: signal.Signals | None = None

    @property
    def received(self) -> bool:
        return self.signal is not None


@contextlib.contextmanager
def owned_stop_signals(
    *actions: Callable[[], None], interrupt: bool = False
) -> Iterator[StopRequest]:
    """Run `actions` (in order) on SIGTERM, SIGINT or SIGHUP while the block runs.

    With `interrupt`, the handler then ends the block the way Python ends a program:
    `KeyboardInterrupt` for SIGINT, `SystemExit(128 + signal)` for the others, so the
    `finally` blocks run (for work that has no `stop()` to ask). Off the main thread
    (where Python cannot install handlers) nothing is installed. The previous handlers
    are put back afterwards.
    """
    request = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield request
        return
    previous = {s: signal.getsignal(s) for s in STOP_SIGNALS}

    def run_actions(received: signal.Signals) -> None:
        for action in actions:
            try:
                action()
            except Exception:  # the next action (the service's stop) must still run
                log.exception("stopping on %s", received.name)

    def handler(signum: int, frame: FrameType | None) -> None:
        request.signal = signal.Signals(signum)
        worker = threading.Thread(target=run_actions, args=(request.signal,),
                                  name=f"stop on {request.signal.name}", daemon=True)
        worker.start()
        worker.join(ACTIONS_WAIT_S)  # the motor first, unless the main thread holds its lock
        before = previous.get(request.signal)
        if callable(before) and before is not signal.default_int_handler:
            before(signum, frame)
        if interrupt:
            if request.signal == signal.SIGINT:
                raise KeyboardInterrupt
            raise SystemExit(128 + signum)

    for s in STOP_SIGNALS:
        signal.signal(s, handler)
    try:
        yield request
    finally:
        for s, h in previous.items():
            if signal.getsignal(s) is handler:
                signal.signal(s, h if h is not None else signal.SIG_DFL)
