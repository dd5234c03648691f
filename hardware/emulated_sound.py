"""The emulated unit's buzzer: short tones synthesised in code, so no audio files ship.

Each `Beep` maps to a few (frequency, duration) notes rendered once into 16-bit
signed PCM with `array` and handed to `pygame.mixer.Sound(buffer=...)`. A
machine without a sound device still runs the emulator, silently: sound is a
courtesy, never a reason to refuse a duel.

Quietly, too: with no sound card, SDL falls back to ALSA, and alsa-lib prints
a dozen "ALSA lib ... cannot find card '0'" lines straight to file descriptor
2 while SDL looks for a device. Neither SDL nor pygame has a hint or variable
that stops them (SDL_AUDIODRIVER=dummy would, but would also mute machines
that do have sound), so the mixer is opened with descriptor 2 pointed at
/dev/null for that moment (`showdown.contract.native_stderr`); SDL's own error
still reaches the log.
"""

from __future__ import annotations

import logging
import math
from array import array
from dataclasses import dataclass

import pygame

from showdown.contract.events import Beep
from showdown.contract.native_stderr import native_stderr_silenced

log = logging.getLogger(__name__)

SAMPLE_RATE = 44_100
VOLUME = 0.35


@dataclass(frozen=True, slots=True)
class Note:
    """One tone; frequency 0 is a rest."""

    hz: float
    ms: int


#: What each sound is made of: a countdown tick is short and high, "go" long and higher.
TUNES: dict[Beep, tuple[Note, ...]] = {
    Beep.TICK: (Note(880, 60),),
    Beep.GO: (Note(1320, 320),),
    Beep.EARLY: (Note(220, 180), Note(0, 40), Note(180, 260)),
    Beep.LAUNCH: (Note(300, 60), Note(420, 60), Note(560, 60), Note(740, 120)),
    Beep.TIE: (Note(660, 120), Note(0, 60), Note(660, 120)),
    Beep.TIMEOUT: (Note(440, 150), Note(330, 250)),
    Beep.ERROR: (Note(150, 400),),
}


def render_pcm(notes: tuple[Note, ...], channels: int, rate: int = SAMPLE_RATE) -> bytes:
    """Interleaved signed 16-bit samples for `notes`, with 5 ms fades so nothing clicks."""
    samples = array("h")
    fade = max(1, rate // 200)
    peak = int(32767 * VOLUME)
    for note in notes:
        count = rate * note.ms // 1000
        for i in range(count):
            if note.hz <= 0:
                value = 0
            else:
                envelope = min(1.0, i / fade, (count - 1 - i) / fade)
                value = int(peak * envelope * math.sin(2 * math.pi * note.hz * i / rate))
            samples.extend([value] * channels)
    return samples.tobytes()


class ToneBank:
    """Plays the unit's beeps; `muted` silences it; without a mixer it stays silent."""

    def __init__(self, muted: bool = False) -> None:
        self.muted = muted
        self._sounds: dict[Beep, pygame.mixer.Sound] = {}
        try:
            if not pygame.mixer.get_init():
                with native_stderr_silenced():  # alsa-lib's noise without a card
                    pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, buffer=512)
            init = pygame.mixer.get_init()
        except pygame.error as exc:
            log.info("no sound device (%s): the emulator runs silently", exc)
            return
        if not init:
            return
        rate, size, channels = init
        if size != -16:
            log.info("mixer is not 16-bit signed (%s): the emulator runs silently", size)
            return
        for beep, notes in TUNES.items():
            self._sounds[beep] = pygame.mixer.Sound(buffer=render_pcm(notes, channels, rate))

    @property
    def available(self) -> bool:
        return bool(self._sounds)

    def toggle_mute(self) -> bool:
        """Flip mute; returns the new state."""
        self.muted = not self.muted
        if self.muted and self._sounds:
            pygame.mixer.stop()
        return self.muted

    def play(self, beep: Beep) -> bool:
        """Play `beep` unless muted; True when a sound actually started."""
        sound = self._sounds.get(beep)
        if self.muted or sound is None:
            return False
        sound.play()
        return True
