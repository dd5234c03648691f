"""Shared pieces of the championship tests: a simulated wall clock, the CLI run in-process
on that clock, and a classic deck to deal hands from."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.store import wallclock
from showdown.contract.i18n import set_language
from uno_showdown.commands.cli import main

#: 12 January 2017, 18:30 UTC: the seed's registration opens.
START_US = 1_484_245_800_000_000
MINUTE_US = 60_000_000


class SimClock:
    """Wall-clock microseconds that move only when the test says so."""

    def __init__(self, start_us: int = START_US) -> None:
        self.now_us = start_us

    def __call__(self) -> int:
        return self.now_us

    def advance(self, minutes: float) -> None:
        self.now_us += round(minutes * MINUTE_US)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> SimClock:
    """The simulated clock, also what every command run in-process reads."""
    sim = SimClock()
    monkeypatch.setattr(wallclock, "now", sim)
    return sim


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.db")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`uno-showdown ARGV` in this process: exit status, stdout, stderr."""
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


COLOURS = "rygb"


def classic_deck() -> list[str]:
    cards = []
    for c in COLOURS:
        cards.append(f"{c}0")
        for face in [*(str(n) for n in range(1, 10)), "skip", "rev", "+2"]:
            cards += [f"{c}{face}"] * 2
    return cards + ["wild"] * 4 + ["wild+4"] * 4


def card_value(code: str) -> int:
    """The seed's card values, written out again here so the tests check the code's."""
    if code in ("wild", "wild+4"):
        return 50
    face = code[1:]
    return int(face) if face.isdigit() else 20


def deal_hands(rng: random.Random, players: list[str], winner: str) -> dict[str, list[str]]:
    """What everyone but the winner holds when the winner goes out, from one real deck."""
    deck = classic_deck()
    rng.shuffle(deck)
    hands: dict[str, list[str]] = {}
    for name in players:
        if name != winner:
            size = rng.choice([2, 3, 4, 5, 6, 7, 8, 10])
            hands[name], deck = deck[:size], deck[size:]
    return hands
