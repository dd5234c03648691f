"""Sentences about a duel that both the emulator's duel bar and the headless table say, kept
here (no pygame) so the two never word the same thing differently. They are translated when
said, in the language chosen for the process (`showdown.contract.i18n`)."""

from __future__ import annotations

from collections.abc import Callable

from showdown.contract.events import Outcome, Side, VerdictContested
from showdown.contract.i18n import _, ngettext


def cards_text(n: int) -> str:
    """"1 card", "2 cards"."""
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def contest_text(event: VerdictContested, name: Callable[[Side], str]) -> str:
    """A verdict a late press would have changed, without a closing full stop: never silent
    (see docs/fairness.md)."""
    late_ms = f"{(event.arrived_us - event.t_us) / 1000:.0f}"
    if event.would_win is not None:
        would = _("{name} would have won").format(name=name(event.would_win))
    elif event.would_be is Outcome.TIE:
        would = _("it would have been a tie")
    else:
        would = _("nobody would have won")
    return _("CONTESTED! {name}'s press came {ms} ms late: {would}").format(
        name=name(event.side), ms=late_ms, would=would)
