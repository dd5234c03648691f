"""The GPIO unit's buzzer: short tunes played in the background.

Why a thread of its own: a beep lasts up to half a second and the service
loop must never wait for one, so `Beeper.beep()` only hands a tune over. A new
beep cuts the one playing short, so the sound always matches the newest event.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

from showdown.contract.events import Beep

#: A note: a frequency in Hz (None: silence) and how long, in milliseconds.
Note = tuple[float | None, int]

#: Every tune stays within A3..A5, the range of gpiozero's default TonalBuzzer.
TUNES: dict[Beep, tuple[Note, ...]] = {
    Beep.TICK: ((440.0, 60),),
    Beep.GO: ((880.0, 300),),
    Beep.EARLY: ((220.0, 150), (None, 50), (220.0, 150)),
    Beep.LAUNCH: ((660.0, 80), (880.0, 80)),
    Beep.TIE: ((440.0, 100), (None, 60), (440.0, 100)),
    Beep.TIMEOUT: ((330.0, 400),),
    Beep.ERROR: ((220.0, 120), (None, 60), (220.0, 120), (None, 60), (220.0, 120)),
}


class Beeper:
    """Plays `TUNES` through `sound(frequency_hz | None)`, which switches the buzzer."""

    def __init__(self, sound: Callable[[float | None], None]) -> None:
        self._sound = sound
        self._tunes: queue.SimpleQueue[tuple[Note, ...] | None] = queue.SimpleQueue()
        self._cut = threading.Event()
        self._thread = threading.Thread(target=self._play, name="beeper", daemon=True)
        self._thread.start()
        #: How many tunes have finished or been cut short (for tests and the selftest).
        self.played = 0
        self.idle = threading.Event()
        self.idle.set()

    def beep(self, kind: Beep) -> None:
        self.idle.clear()
        self._cut.set()
        self._tunes.put(TUNES[kind])

    def close(self) -> None:
        self._cut.set()
        self._tunes.put(None)
        self._thread.join(timeout=1.0)

    def _play(self) -> None:
        while True:
            tune = self._tunes.get()
            while tune is not None and not self._tunes.empty():
                self.played += 1  # cut short before it began: the newest wins
                tune = self._tunes.get()
            if tune is None:
                self._sound(None)
                return
            self._cut.clear()
            for frequency, ms in tune:
                self._sound(frequency)
                if self._cut.wait(ms / 1000):
                    break
            self._sound(None)
            self.played += 1
            if self._tunes.empty():
                self.idle.set()
