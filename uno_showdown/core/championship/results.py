"""The awards: a pure function of the qualifying and final standings.

Seed 000: 1st, 2nd and 3rd places go to the lowest results of the final; the "luckiest"
award to the player with the highest qualifying result. Where results tie, the event's
tie-break decides, as in the standings: the places are the top of the final's ranking and
the luckiest is the bottom of the qualifying ranking. A player who withdrew takes no award.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from uno_showdown.core.championship.standings import Line

PLACES = 3


@dataclass(frozen=True, slots=True)
class Awards:
    places: tuple[Line, ...]  # 1st, 2nd, 3rd (fewer when fewer played the final)
    luckiest: Line | None
    final_over: bool  # False: the places are the final's standings so far


def awards(qualifying: Sequence[Line], final: Sequence[Line], final_over: bool) -> Awards:
    places = tuple(ln for ln in final if ln.rank is not None)[:PLACES]
    ranked = [ln for ln in qualifying if ln.rank is not None]
    return Awards(places, ranked[-1] if ranked else None, final_over)
