"""The standings as `event standings --json` prints them, written entry by entry.

The text is what `json.dumps([...], ensure_ascii=False, indent=2)` makes of the lines (rank,
number, name, points, games, result), written here without the pure-Python encoder that
indented JSON runs on, because the games file keeps each player's entry ready beside the
sums (`championship.store.standings_sums`): a deal renders the entries of the few players it
moved, and a reader only puts the ranks in front of the entries, in the order the file
keeps. One place says how an entry reads, so what the file keeps and what a reader renders
for a player with no sums yet are the same text; the property test holds both to
`json.dumps`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from json.encoder import encode_basestring

from championship.core.text import fraction_text


def entry_body(number: int, name: str, points: int, games: int) -> str:
    """A player's entry after its rank: the part that changes only when their sums do."""
    exact = fraction_text(Fraction(points, games)) if games else None
    result = "null" if exact is None else f'"{exact}"'
    return (f'    "number": {number},\n    "name": {encode_basestring(name)},\n'
            f'    "points": {points},\n    "games": {games},\n    "result": {result}\n  }}')


def document(ranked: Sequence[str], unranked: Sequence[str]) -> str:
    """The whole list: the ranked entries' bodies in order (rank 1 first), then the
    unranked's (withdrawn, or no game yet), whose rank is null."""
    out = [f'  {{\n    "rank": {rank},\n{body}' for rank, body in enumerate(ranked, 1)]
    out += [f'  {{\n    "rank": null,\n{body}' for body in unranked]
    return "[\n" + ",\n".join(out) + "\n]" if out else "[]"
