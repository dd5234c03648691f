"""The tables as the director hears them: their heartbeats, their clocks, and whether a deal
they report is plausible. Pure: every time is passed in.

The director's clock is the event's clock. A table's clock may be off (a Raspberry Pi has no
real-time clock, and a bar may have no internet for NTP), so every heartbeat says the
table's time when it was sent; the director notes `sent − arrived` for each, which is the
table's offset minus the trip through the broker. The largest of the recent ones is the
best guess of the offset (the trip only ever makes a sample smaller), and a deal's time on
the director's clock is its stamp minus that offset, but never later than its arrival: a
deal cannot have been played after the director heard of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from championship.core.i18n import _
from companion.deck.editions import card_value, get_edition

#: How often a table's agent says it is there (seconds), while it has the broker.
HEARTBEAT_S = 5.0
#: A table not heard for this long is offline.
OFFLINE_AFTER_US = 3 * int(HEARTBEAT_S * 1_000_000)
#: A table whose clock is off by more than this is flagged on the director's screen.
CLOCK_BOUND_US = 2_000_000
#: A deal stamped (on the director's clock) further than this before its stage started, or
#: after it arrived, is held for the director: wider than the flag, as a table's first deals
#: may come before its first heartbeat has measured its clock.
STAGE_SLACK_US = 60_000_000
#: How many recent heartbeats the offset is taken from.
SAMPLES = 8

#: Why a reported deal is held for the director (stored with it).
HELD_NOBODY_OUT = "nobody-out"
HELD_PLAYERS = "players"
HELD_POINTS = "points"
HELD_TIME = "time"
HELD_SOURCE = "source"
HELD_REASONS = (HELD_NOBODY_OUT, HELD_PLAYERS, HELD_POINTS, HELD_TIME, HELD_SOURCE)

#: A table's state as the director's screen, `event show` and the page say it.
PLAYING = "playing"
IDLE = "idle"
OFFLINE = "offline"
UNHEARD = "unheard"


def offset_of(samples: Iterable[int]) -> int:
    """The table's clock minus the director's, from recent `sent − arrived` samples (µs)."""
    return max(samples, default=0)


def clock_off(offset_us: int) -> bool:
    """Is the table's clock off by more than the bound (flagged for the director)?"""
    return abs(offset_us) > CLOCK_BOUND_US


@dataclass(frozen=True, slots=True)
class Heard:
    """A table's last heartbeat: when (director's clock), its offset, its outbox."""

    heard_us: int
    offset_us: int
    waiting: int
    linked: bool = True


def table_state(heard: Heard | None, now_us: int, open_box: bool) -> str:
    """PLAYING (heard, its stage open), IDLE (heard, nothing to play now), OFFLINE (not heard
    for a while) or UNHEARD (never)."""
    if heard is None:
        return UNHEARD
    if now_us - heard.heard_us > OFFLINE_AFTER_US:
        return OFFLINE
    return PLAYING if open_box else IDLE


def state_text(state: str) -> str:
    return {PLAYING: _("playing"), IDLE: _("idle"), OFFLINE: _("offline"),
            UNHEARD: _("not heard yet")}[state]


def max_hand(edition: str) -> int:
    """The most points one hand of the edition can hold: its whole deck."""
    deck = get_edition(edition)
    return sum(card_value(card) * n for card, n in deck.counts.items())


def implausible(points: Mapping[int, int], at_us: int, arrived_us: int,
                stage_started_us: int | None, edition: str, source_known: bool) -> str | None:
    """Why a reported deal cannot be what it says (one of HELD_REASONS), or None.

    `at_us` is its time on the director's clock before it was capped at its arrival; the
    seats are checked by the caller (a deal with a stranger is refused outright)."""
    if len(points) < 2:
        return HELD_PLAYERS
    if min(points.values()) != 0:
        return HELD_NOBODY_OUT
    if sum(points.values()) > max_hand(edition):
        return HELD_POINTS
    if at_us > arrived_us + STAGE_SLACK_US or (
            stage_started_us is not None and at_us < stage_started_us - STAGE_SLACK_US):
        return HELD_TIME
    if not source_known:
        return HELD_SOURCE
    return None


def held_text(reason: str) -> str:
    """Why a deal is held, as the director reads it."""
    return {
        HELD_NOBODY_OUT: _("nobody went out"),
        HELD_PLAYERS: _("fewer than two players are scored"),
        HELD_POINTS: _("more points than the deck holds"),
        HELD_TIME: _("its time is outside the stage"),
        HELD_SOURCE: _("it comes from a games file the table never announced"),
    }.get(reason, reason)


def offset_text(offset_us: int) -> str:
    """A clock offset as people read it: +1.2 s (the table is ahead), −3.0 s."""
    tenths = round(offset_us / 100_000)
    return f"{'-' if tenths < 0 else '+'}{abs(tenths) // 10}.{abs(tenths) % 10} s"
