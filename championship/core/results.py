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

from championship.core.settings import LuckyBy
from championship.core.standings import Line

PLACES = 3


@dataclass(frozen=True, slots=True)
class Awards:
    places: tuple[Line, ...]  # 1st, 2nd, 3rd (fewer when fewer played the final)
    luckiest: Line | None
    final_over: bool  # False: the places are the final's standings so far
    luckiest_by: LuckyBy = LuckyBy.POINTS


def luckiest(qualifying: Sequence[Line], by: LuckyBy = LuckyBy.POINTS,
             leaders: Sequence[Line] | None = None) -> Line | None:
    """The luckiest of the qualifying ranking: the most points (the seed's words) or the
    highest result; a tie goes to the one ranked lower. `leaders`, when given, are the
    ranked lines with the most points (kept by `ranking.Ranking`), so the most points are
    not looked for among every player."""
    if by is LuckyBy.RESULT:
        return next((ln for ln in reversed(qualifying) if ln.rank is not None), None)
    if leaders is None:
        ranked = [ln for ln in qualifying if ln.rank is not None]
        most = max((ln.points for ln in ranked), default=0)
        leaders = [ln for ln in ranked if ln.points == most]
    return max(leaders, key=lambda ln: ln.rank or 0) if leaders else None


def awards(qualifying: Sequence[Line], final: Sequence[Line], final_over: bool,
           luckiest_by: LuckyBy = LuckyBy.POINTS, leaders: Sequence[Line] | None = None
           ) -> Awards:
    places = tuple(ln for ln in final[:PLACES] if ln.rank is not None)
    return Awards(places, luckiest(qualifying, luckiest_by, leaders), final_over, luckiest_by)
