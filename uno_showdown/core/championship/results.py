"""The awards: a pure function of the qualifying and final standings.

Seed 000: 1st, 2nd and 3rd places go to the lowest results of the final; the "luckiest"
award to "the participant who collected the most points in the qualifying round": by
default the most qualifying points (`LuckyBy.POINTS`), or, where the event chooses it, the
highest qualifying result (`LuckyBy.RESULT`, points ÷ games). Where results tie, the event's
tie-break decides, as in the standings: the places are the top of the final's ranking, and
of the players with the most points (or the highest result) the luckiest is the one ranked
lowest in qualifying (our inference: the seed says nothing of a tie). A player who withdrew
takes no award.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from uno_showdown.core.championship.settings import LuckyBy
from uno_showdown.core.championship.standings import Line

PLACES = 3


@dataclass(frozen=True, slots=True)
class Awards:
    places: tuple[Line, ...]  # 1st, 2nd, 3rd (fewer when fewer played the final)
    luckiest: Line | None
    final_over: bool  # False: the places are the final's standings so far
    luckiest_by: LuckyBy = LuckyBy.POINTS


def luckiest(qualifying: Sequence[Line], by: LuckyBy = LuckyBy.POINTS) -> Line | None:
    """The luckiest of the qualifying ranking: the most points (the seed's words) or the
    highest result; a tie goes to the one ranked lower."""
    ranked = [ln for ln in qualifying if ln.rank is not None]
    if not ranked:
        return None
    if by is LuckyBy.RESULT:
        return ranked[-1]
    most = max(ln.points for ln in ranked)
    return [ln for ln in ranked if ln.points == most][-1]


def awards(qualifying: Sequence[Line], final: Sequence[Line], final_over: bool,
           luckiest_by: LuckyBy = LuckyBy.POINTS) -> Awards:
    places = tuple(ln for ln in final if ln.rank is not None)[:PLACES]
    return Awards(places, luckiest(qualifying, luckiest_by), final_over, luckiest_by)
