"""The games list (`uno-showdown game list`, `CompanionApp.games`): what the file keeps of
every game, read without reading any game whole, so listing a file costs a few index
look-ups a game and loads neither the game model nor a scoring method.

Whether a game is over is read from what is stored, as `game show` says it:

* its time box (`companion.store.time_boxes`): a game whose table's box is done (the time
  is up and the deal in progress recorded, or the table was called done or its results
  taken: its stage of a championship is over), or whose table has moved on to another
  game, is over;
* else its own end, as its scoring method judged it (a target reached) when the game was
  last written: kept in the game's tally (`tallies`, key "over", written by
  `companion.store.games.Games._save_tally`) and trusted, like the sums beside it, only at
  the revision they are of.

A game last written by an older uno-showdown has no judgement kept at its revision, and a
game whose edition or method is one no uno-showdown knows (a file edited by hand, or
damaged) is not judged from its tally: its `over` is None, and a caller that must know reads
the game (`Games.load`), which says it is damaged where it is.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from companion.deck.editions import EDITIONS
from companion.scoring import METHOD_KEYS
from companion.store import wallclock
from companion.store.time_boxes import TimeBoxes
from companion.table.records import GameInfo
from companion.table.timebox import Phase

if TYPE_CHECKING:
    from companion.store.games_file import GamesFile
    from companion.table.records import BoxedGame


def infos(file: GamesFile, now_us: int | None = None) -> list[GameInfo]:
    """Every game of the file, oldest first, over or not at `now_us` (default: now), in
    one read transaction."""
    now = wallclock.now() if now_us is None else now_us
    out = []
    with file.reading() as conn:
        games = conn.execute(
            "SELECT g.id, g.edition, g.method, g.created_at, t.state FROM games g "
            "LEFT JOIN tallies t ON t.game_id = g.id AND t.revision = g.revision "
            "ORDER BY g.id").fetchall()
        box_of = {int(g): int(b) for g, b in conn.execute(
            "SELECT game_id, box_id FROM time_box_games")}
        boxes = TimeBoxes(file).load_many(list(box_of.values())) if box_of else {}
        for gid, edition, method, created, state in games:
            names = tuple(
                r[0] for r in conn.execute(
                    "SELECT name FROM players WHERE game_id = ? ORDER BY seat", (gid,)
                )
            )
            count, last = conn.execute(
                "SELECT COUNT(*), MAX(played_at) FROM rounds WHERE game_id = ? "
                "AND undone = 0", (gid,),
            ).fetchone()
            box_id = box_of.get(gid)
            known = edition in EDITIONS and method in METHOD_KEYS
            over = _over(gid, state if known else None,
                         boxes[box_id] if box_id is not None else None, now) if known else None
            out.append(GameInfo(gid, edition, method, names, count, created,
                                last or created, over))
    return out


def _over(game_id: int, state: str | None, boxed: BoxedGame | None,
          now_us: int) -> bool | None:
    """Whether the game is over: by its box, else as judged when it was last written
    (`state`: its tally at its revision); None if nothing stored says."""
    if boxed is not None and (boxed.current_game_id != game_id
                              or boxed.box.phase(now_us) is Phase.DONE):
        return True
    if state is None:
        return None
    try:
        judged = json.loads(state)
    except ValueError:
        return None
    over = judged.get("over") if isinstance(judged, dict) else None
    return over if isinstance(over, bool) else None
