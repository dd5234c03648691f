"""Sentences about a duel that both the emulator's duel bar and the headless table say, kept
here (no pygame) so the two never word the same thing differently."""

from __future__ import annotations

from collections.abc import Callable

from showdown.contract.events import Outcome, Side, VerdictContested


def cards_text(n: int) -> str:
    """"1 card", "2 cards"."""
    return f"{n} card" + ("" if n == 1 else "s")


def contest_text(event: VerdictContested, name: Callable[[Side], str]) -> str:
    """A verdict a late press would have changed, without a closing full stop: never silent
    (see docs/fairness.md)."""
    late_ms = (event.arrived_us - event.t_us) / 1000
    if event.would_win is not None:
        would = f"{name(event.would_win)} would have won"
    elif event.would_be is Outcome.TIE:
        would = "it would have been a tie"
    else:
        would = "nobody would have won"
    return f"CONTESTED! {name(event.side)}'s press came {late_ms:.0f} ms late: {would}"
