"""The games list (`uno-showdown game list`, `CompanionApp.games`): what the file keeps of
every game, read without reading any game whole, so listing a file costs a few index
look-ups a game and loads neither the game model nor a scoring method.

Whether a game is over is read from what is stored, as `game show` says it:

* its time box (`companion.store.time_boxes`): a game whose table's box is done (the time
  is up and the deal in progress recorded, or the table was called done or its results
  taken: its stage of a championship is over), or whose table has moved on to another
  game, is over;
* else its own end, as its scoring method judged it (a target reached) when the game was
  last written: kept with the game's tally (`companion.store.tally_rows`, written by
  `companion.store.games.Games._save_tally`) and trusted, like the sums beside it, only at
  the revision they are of; for a game an older uno-showdown wrote last, its JSON text's
  key "over" (`tallies`), read by SQLite's JSON functions. The listing imports neither
  `json` nor anything that builds a deck or a scoring method.

A game last written by an uno-showdown older than the key "over" has no judgement kept at
its revision, and a game whose edition or method is one no uno-showdown knows (a file
edited by hand, or damaged) is not judged from its tally: its `over` is None, and a caller
that must know reads the game (`Games.load`), which says it is damaged where it is.
"""

from __future__ import annotations

from companion.deck import EDITION_KEYS
from companion.scoring import METHOD_KEYS
from companion.store import schema, wallclock
from companion.table.records import GameInfo

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from companion.store.games_file import GamesFile
    from companion.table.records import BoxedGame


def infos(file: GamesFile, now_us: int | None = None) -> list[GameInfo]:
    """Every game of the file, oldest first, over or not at `now_us` (default: now), in
    one read transaction."""
    now = wallclock.now() if now_us is None else now_us
    out = []
    with file.reading() as conn:
        # The tally's "over" at the game's revision, as JSON types it ('true', 'false';
        # NULL: no tally at the game's revision, no such key, or not JSON at all): from its
        # rows (`companion.store.tally_rows`), else from the JSON text an older program kept.
        over_sql = "CASE WHEN json_valid(t.state) THEN json_type(t.state, '$.over') END"
        joins_sql = "LEFT JOIN tallies t ON t.game_id = g.id AND t.revision = g.revision"
        if schema.has_table(conn, "tally_sums"):  # made by the first tally written
            over_sql = f"CASE s.over WHEN 1 THEN 'true' WHEN 0 THEN 'false' ELSE {over_sql} END"
            joins_sql = ("LEFT JOIN tally_sums s ON s.game_id = g.id "
                         "AND s.revision = g.revision " + joins_sql)
        games = conn.execute(f"SELECT g.id, g.edition, g.method, g.created_at, {over_sql} "
                             f"FROM games g {joins_sql} ORDER BY g.id").fetchall()
        box_of = {int(g): int(b) for g, b in conn.execute(
            "SELECT game_id, box_id FROM time_box_games")}
        boxes = _boxes(file, list(box_of.values())) if box_of else {}
        for gid, edition, method, created, judged in games:
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
            known = edition in EDITION_KEYS and method in METHOD_KEYS
            over = _over(gid, judged, boxes[box_id] if box_id is not None else None,
                         now) if known else None
            out.append(GameInfo(gid, edition, method, names, count, created,
                                last or created, over))
    return out


def _boxes(file: GamesFile, box_ids: list[int]) -> dict[int, BoxedGame]:
    """The time boxes of the file's boxed games."""
    # Imported here: a file without time boxes (a table's own) never needs their code.
    from companion.store.time_boxes import TimeBoxes

    return TimeBoxes(file).load_many(box_ids)


def _over(game_id: int, judged: str | None, boxed: BoxedGame | None,
          now_us: int) -> bool | None:
    """Whether the game is over: by its box, else as judged when it was last written
    (`judged`: the JSON type of "over" in its tally at its revision, 'true' or 'false');
    None if nothing stored says."""
    if boxed is not None:
        from companion.table.timebox import Phase  # boxed games only: see `_boxes`

        if boxed.current_game_id != game_id or boxed.box.phase(now_us) is Phase.DONE:
            return True
    return {"true": True, "false": False}.get(judged) if judged is not None else None
