"""The championship's standings kept as running sums beside the event, in the games file.

Every deal changes a few players' points and games, so the standings are kept as sums
(`championship_sums`: per event, per kind of stage, per player) and each deal, correction,
undo or reported deal moves them by its own difference, in the transaction that writes the
deal: O(players at the table), however many deals the event holds. What each source added
is kept with it, so a change takes back exactly that: a game of the file keeps its sums in
`championship_game_sums`, a deal reported by a table elsewhere its points in
`championship_remote_deals`. `championship_table_deals` counts each table's deals.

Beside each player's sums, what reading the standings needs so that it walks the sums' own
index (`championship_sums_in_order`) instead of joining the players: the result (the
order's key), the player's lot and withdrawal (the tie-break and who is ranked, which the
file's triggers copy from the players whichever program writes), and the player's entry as
`event standings --json` prints it after the rank (`championship.core.standings_json`),
written with the sums: a deal renders only the entries of the players it moved. Every
player has qualifying sums from registration, at nothing until they play.

`championship_events.sums_version` moves on with every change (NULL: not summed yet, e.g.
a file that came from an older uno-showdown; the event is then summed once from its deals,
`ChampionshipStore.rebuild_sums`). A reader in one read transaction sees the sums and their
version of one moment; a reader that keeps a copy reads again only when the version moved.

Both stores write here (the games' changes come through `Store._save_tally`, which calls
`game_changed` as the watcher `championship.store.keep_standings` registers with
`companion.store.game_watchers`), so this module imports neither: the schema is the
championship store's (`MIGRATIONS` there).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from championship.core.clock import FINAL as FINAL_KEY
from championship.core.settings import TieKey
from championship.core.standings import (
    FINAL,
    QUALIFYING,
    Sums,
    add_sums,
    game_deals,
    last_deal_points,
    sums_of,
)
from championship.core.standings_json import entry_body
from companion.table.game import Game

#: The version of the championship's tables whose sums this module writes: the last step of
#: `championship.store.event_store.MIGRATIONS` (which refuses to load otherwise), so a new
#: step moves it too, after checking that what is written here still fits.
LAYOUT = 7

#: The table that says a file keeps sums (schema 4 of the championship's tables).
SUMS_TABLE = "championship_game_sums"


@dataclass(frozen=True, slots=True)
class KeptSums:
    """The sums as the file holds them at one moment."""

    version: int
    by_kind: dict[str, Sums]  # QUALIFYING / FINAL -> number -> (points, games)
    table_deals: dict[tuple[str, int], int]  # (stage, table) -> deals


#: The event's sums' version now, in a statement whose first parameter is the event (0 for an
#: event not summed yet: `rebuild_sums` stamps every row when it sums it).
_NOW = "COALESCE((SELECT sums_version FROM championship_events WHERE id = ?1), 0)"


def kind_of(stage: str) -> str:
    """The standings a stage's deals count in: the final's own, or the qualifying's."""
    return FINAL if stage == FINAL_KEY else QUALIFYING


def laid_out(conn: sqlite3.Connection) -> bool:
    """Whether the file's championship tables are at the version this module writes
    (`LAYOUT`). A table's screen writes deals without opening the championship (so without
    bringing its tables up to date): on a file another version laid out, it lets go of the
    sums instead of writing rows that version does not know."""
    try:
        row = conn.execute("SELECT version FROM schema_parts WHERE part = 'championship'"
                           ).fetchone()
    except sqlite3.OperationalError:  # a file from before `schema_parts`
        return False
    return row is not None and int(row[0]) == LAYOUT


def has_sums(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                        (SUMS_TABLE,)).fetchone() is not None


def sums_text(sums: Mapping[int, tuple[int, int]]) -> str:
    return json.dumps({str(n): [p, g] for n, (p, g) in sorted(sums.items()) if g or p},
                      separators=(",", ":"))


def sums_from_text(text: str) -> Sums:
    return {int(n): (int(p), int(g)) for n, (p, g) in json.loads(text).items()}


def points_text(points: Mapping[int, int] | None) -> str | None:
    return None if points is None else json.dumps(
        {str(k): v for k, v in sorted(points.items())}, separators=(",", ":"))


def points_from_text(text: str | None) -> dict[int, int] | None:
    return None if text is None else {int(k): int(v) for k, v in json.loads(text).items()}


def move(conn: sqlite3.Connection, event_id: int, stage: str, table: int, delta: Sums,
         deals: int) -> None:
    """Add a difference to the event's sums and to the table's deal count, and move the
    version on: the write every deal, correction, undo, void and restore goes through (a
    whole count replaces them through `replace_all`). Each moved sum keeps its result, its
    printed entry (`_write`) and the version it moved at, so a reader that keeps the
    standings reads only what moved."""
    conn.execute("UPDATE championship_events SET sums_version = sums_version + 1 "
                 "WHERE id = ? AND sums_version IS NOT NULL", (event_id,))
    kind = kind_of(stage)
    moved = {n: d for n, d in delta.items() if d[0] or d[1]}
    if moved:
        marks = ",".join("?" * len(moved))
        totals = {int(n): (int(p), int(g)) for n, p, g in conn.execute(
            "SELECT number, points, games FROM championship_sums WHERE event_id = ? AND "
            f"kind = ? AND number IN ({marks})", (event_id, kind, *moved))}
        for n, (p, g) in moved.items():
            before = totals.get(n, (0, 0))
            totals[n] = (before[0] + p, before[1] + g)
        _write(conn, event_id, kind, totals)
    if deals:
        conn.execute(
            "INSERT INTO championship_table_deals (event_id, stage, table_no, deals, "
            f"at_version) VALUES (?1, ?2, ?3, ?4, {_NOW}) ON CONFLICT "
            "(event_id, stage, table_no) DO UPDATE SET deals = deals + excluded.deals, "
            "at_version = excluded.at_version", (event_id, stage, table, deals))


def _write(conn: sqlite3.Connection, event_id: int, kind: str, totals: Sums) -> None:
    """Write players' sums as they now stand, each with its result (points / games, the
    kept order's key) and the player's entry as `event standings --json` prints it after the
    rank. The player's lot and withdrawal beside them are the file's own work (its triggers,
    `_V7` of the championship's tables), whichever program writes."""
    if not totals:
        return
    names = _names(conn, event_id, totals)
    conn.executemany(
        "INSERT INTO championship_sums (event_id, kind, number, points, games, result, "
        "at_version, entry) VALUES (?1, ?2, ?3, ?4, ?5, CAST(?4 AS REAL) / NULLIF(?5, 0), "
        f"{_NOW}, ?6) ON CONFLICT (event_id, kind, number) DO UPDATE SET points = "
        "excluded.points, games = excluded.games, result = excluded.result, at_version = "
        "excluded.at_version, entry = excluded.entry",
        [(event_id, kind, n, p, g, None if n not in names else entry_body(n, names[n], p, g))
         for n, (p, g) in totals.items()])


def _names(conn: sqlite3.Connection, event_id: int, numbers: Iterable[int]) -> dict[int, str]:
    """The named players' names, by number."""
    wanted = list(numbers)
    out: dict[int, str] = {}
    for start in range(0, len(wanted), 500):  # within SQLite's count of parameters
        chunk = wanted[start:start + 500]
        out.update((int(n), str(name)) for n, name in conn.execute(
            "SELECT number, name FROM championship_players WHERE event_id = ? AND number IN "
            f"({','.join('?' * len(chunk))})", (event_id, *chunk)))
    return out


def player_added(conn: sqlite3.Connection, event_id: int, number: int) -> None:
    """A player registered (in the caller's transaction): their qualifying sums start at
    nothing, kept like any other, so the unranked come from the sums alone."""
    _write(conn, event_id, QUALIFYING, {number: (0, 0)})


def fill_entries(conn: sqlite3.Connection) -> None:
    """Write the entries the sums lack, once, after the file is brought past step 7 of the
    championship's tables (`ChampionshipStore.migrate`). An entry missing later (an older
    uno-showdown moved the sums, and the file's trigger took the entry back) is rendered by
    the reader until the player's sums next move or are summed again: slower, never
    wrong."""
    rows = conn.execute(
        "SELECT s.event_id, s.kind, s.number, p.name, s.points, s.games FROM championship_sums "
        "s JOIN championship_players p ON p.event_id = s.event_id AND p.number = s.number "
        "WHERE s.entry IS NULL").fetchall()
    conn.executemany(
        "UPDATE championship_sums SET entry = ? WHERE event_id = ? AND kind = ? AND number = ?",
        [(entry_body(n, name, p, g), e, k, n) for e, k, n, name, p, g in rows])


def remote_changed(conn: sqlite3.Connection, event_id: int, stage: str, table: int,
                   old: Mapping[int, int] | None, new: Mapping[int, int] | None) -> None:
    """A reported deal went from `old` points to `new` (None: not counted)."""
    delta: Sums = {}
    if old is not None:
        add_sums(delta, sums_of([old]), -1)
    if new is not None:
        add_sums(delta, sums_of([new]))
    move(conn, event_id, stage, table, delta, (new is not None) - (old is not None))


def voided_ids(conn: sqlite3.Connection, event_id: int, like: str = "%") -> frozenset[str]:
    """The deals (ids matching `like`) the director voided: those whose last audit row is a
    void. Empty in a file without the director's audit (schema 5)."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                    "'championship_audit'").fetchone() is None:
        return frozenset()
    return frozenset(r[0] for r in conn.execute(
        "SELECT a.deal_id FROM championship_audit a WHERE a.event_id = ? AND a.deal_id LIKE ? "
        "AND a.action = 'void' AND a.seq = (SELECT MAX(b.seq) FROM championship_audit b "
        "WHERE b.event_id = a.event_id AND b.deal_id = a.deal_id)", (event_id, like)))


def remote_counted(conn: sqlite3.Connection, event_id: int, deal_id: str
                   ) -> tuple[str, int, dict[int, int] | None] | None:
    """A reported deal's stage, table and the points it adds to the standings now (None:
    taken back, held for the director, or voided); None if it never came."""
    row = conn.execute("SELECT stage, table_no, points, held FROM championship_remote_deals "
                       "WHERE event_id = ? AND deal_id = ?", (event_id, deal_id)).fetchone()
    if row is None:
        return None
    last = conn.execute("SELECT action FROM championship_audit WHERE event_id = ? AND "
                        "deal_id = ? ORDER BY seq DESC LIMIT 1", (event_id, deal_id)).fetchone()
    counts = row[3] is None and (last is None or last[0] != "void")
    return str(row[0]), int(row[1]), points_from_text(row[2]) if counts else None


def game_changed(conn: sqlite3.Connection, game: Game, game_id: int, rewrite: bool) -> None:
    """A game of the file changed (in the caller's transaction): if it is played at a table
    of an event whose sums are kept, move them by what the change did. A round added is
    O(players); a change that may rewrite rounds (`rewrite`: an undo or redo, a correction,
    a rename) sums the one game again (its own rounds, never the event's)."""
    row = conn.execute(
        "SELECT t.event_id, t.stage, t.table_no FROM time_box_games g JOIN "
        "championship_tables t ON t.box_id = g.box_id JOIN championship_events e ON "
        "e.id = t.event_id WHERE g.game_id = ? AND e.sums_version IS NOT NULL",
        (game_id,)).fetchone()
    if row is None:
        return
    event_id, stage, table = int(row[0]), str(row[1]), int(row[2])
    if not laid_out(conn):  # let go of them: the next reader sums the event from its deals
        conn.execute("UPDATE championship_events SET sums_version = NULL WHERE id = ?",
                     (event_id,))
        return
    folded = {name.casefold() for name in game.names}
    numbers = {f: int(n) for f, n in conn.execute(
        "SELECT folded, number FROM championship_players WHERE event_id = ? AND folded IN "
        f"({','.join('?' * len(folded))})", (event_id, *folded))} if folded else {}

    def number_of(name: str) -> int | None:
        return numbers.get(name.casefold())

    kept = conn.execute("SELECT sums, deals FROM championship_game_sums WHERE game_id = ?",
                        (game_id,)).fetchone()
    old_sums = sums_from_text(kept[0]) if kept is not None else {}
    old_deals = int(kept[1]) if kept is not None else 0
    count = len(game.rounds)
    out = voided_ids(conn, event_id, f"{game.id if game.id is not None else game_id}:%")
    if out:  # the director voided rounds of this game: they stay out of its sums
        live = [d.points for d in game_deals(game, number_of, kind_of(stage))
                if d.points is not None and d.deal_id not in out]
        new_sums, count = sums_of(live), len(live)
    elif not rewrite and count == old_deals + 1 and game.tally.last_score is not None:
        new_sums = dict(old_sums)  # one round added: the newest round's points, no more
        add_sums(new_sums, sums_of([last_deal_points(game, number_of)]))
    elif not rewrite and count == old_deals and (kept is not None or not count):
        return  # nothing a standing depends on changed (the table's direction, a dealer)
    else:
        new_sums = sums_of(d.points for d in game_deals(game, number_of, kind_of(stage))
                           if d.points is not None)
    conn.execute(
        "INSERT INTO championship_game_sums (game_id, event_id, stage, table_no, sums, deals) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET sums = excluded.sums, "
        "deals = excluded.deals", (game_id, event_id, stage, table, sums_text(new_sums), count))
    delta = dict(new_sums)
    add_sums(delta, old_sums, -1)
    move(conn, event_id, stage, table, delta, count - old_deals)


def read(conn: sqlite3.Connection, event_id: int) -> KeptSums | None:
    """The event's sums, in the caller's read transaction; None if they are not kept yet."""
    if not has_sums(conn):
        return None
    row = conn.execute("SELECT sums_version FROM championship_events WHERE id = ?",
                       (event_id,)).fetchone()
    if row is None or row[0] is None:
        return None
    by_kind: dict[str, Sums] = {QUALIFYING: {}, FINAL: {}}
    for kind, number, points, games in conn.execute(
            "SELECT kind, number, points, games FROM championship_sums WHERE event_id = ?",
            (event_id,)):
        if points or games:
            by_kind.setdefault(kind, {})[int(number)] = (int(points), int(games))
    return KeptSums(int(row[0]), by_kind, table_deals(conn, event_id))


def table_deals(conn: sqlite3.Connection, event_id: int, since: int | None = None
                ) -> dict[tuple[str, int], int]:
    """Each table's deals, by (stage, table): one row a table; with `since`, only those
    that moved after that version of the sums (a reader that keeps the others)."""
    if since is None:
        return {(str(s), int(t)): int(n) for s, t, n in conn.execute(
            "SELECT stage, table_no, deals FROM championship_table_deals WHERE event_id = ?",
            (event_id,))}
    return {(str(s), int(t)): int(n) for s, t, n in conn.execute(
        "SELECT stage, table_no, deals FROM championship_table_deals WHERE event_id = ? AND "
        "at_version > ?", (event_id, since))}


def version(conn: sqlite3.Connection, event_id: int) -> int | None:
    """The sums' version alone: one look-up, for a reader deciding whether to read again."""
    row = conn.execute("SELECT sums_version FROM championship_events WHERE id = ?",
                       (event_id,)).fetchone()
    return None if row is None or row[0] is None else int(row[0])


def reshaped(conn: sqlite3.Connection, event_id: int) -> None:
    """The event itself changed, or its sums were summed again as a whole (in the caller's
    transaction): a reader that keeps the event and its standings reads them afresh."""
    conn.execute("UPDATE championship_events SET shape_version = shape_version + 1 "
                 "WHERE id = ?", (event_id,))


def replace_all(conn: sqlite3.Connection, event_id: int, by_kind: Mapping[str, Sums],
                table_deals: Mapping[tuple[str, int], int],
                games: Mapping[int, tuple[str, int, Sums, int]]) -> None:
    """Write sums worked out from every deal (`ChampionshipStore.rebuild_sums`), replacing
    whatever was kept: `games` is each game's (stage, table, sums, deals). A sum dropped
    here leaves no row a reader could see moved, so the event's shape moves on too."""
    reshaped(conn, event_id)
    conn.execute("DELETE FROM championship_sums WHERE event_id = ?", (event_id,))
    conn.execute("DELETE FROM championship_table_deals WHERE event_id = ?", (event_id,))
    conn.execute("DELETE FROM championship_game_sums WHERE event_id = ?", (event_id,))
    conn.execute("UPDATE championship_events SET sums_version = COALESCE(sums_version, 0) + 1 "
                 "WHERE id = ?", (event_id,))
    numbers = [int(n) for (n,) in conn.execute(
        "SELECT number FROM championship_players WHERE event_id = ?", (event_id,))]
    for kind, kept in {QUALIFYING: {}, **by_kind}.items():
        totals = {n: pg for n, pg in kept.items() if pg[0] or pg[1]}
        if kind == QUALIFYING:  # every player has qualifying sums, at nothing until played
            totals = {n: totals.get(n, (0, 0)) for n in sorted({*numbers, *totals})}
        _write(conn, event_id, kind, totals)
    conn.executemany(
        "INSERT INTO championship_table_deals (event_id, stage, table_no, deals, at_version) "
        f"VALUES (?1, ?2, ?3, ?4, {_NOW})",
        [(event_id, s, t, n) for (s, t), n in table_deals.items() if n])
    conn.executemany(
        "INSERT INTO championship_game_sums (game_id, event_id, stage, table_no, sums, deals) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(gid, event_id, s, t, sums_text(sums), n) for gid, (s, t, sums, n) in games.items()])


def moved_since(conn: sqlite3.Connection, event_id: int, since: int
                ) -> dict[str, dict[int, tuple[int, int]]]:
    """The sums that moved after version `since` (a reader's last look), by kind: what a
    reader that keeps the standings reads instead of every player's (a sum moved back to
    nothing comes as (0, 0))."""
    out: dict[str, dict[int, tuple[int, int]]] = {}
    for kind, number, points, games in conn.execute(
            "SELECT kind, number, points, games FROM championship_sums WHERE event_id = ? "
            "AND at_version > ?", (event_id, since)):
        out.setdefault(kind, {})[int(number)] = (int(points), int(games))
    return out


#: The player of the `championship_sums` row at hand, in a subquery.
_PLAYER = ("FROM championship_players p WHERE p.event_id = championship_sums.event_id AND "
           "p.number = championship_sums.number")


def kept_astray(conn: sqlite3.Connection, event_id: int) -> int:
    """How many kept sums disagree with what is kept beside them (a file changed by hand,
    or by a program that does not keep them): a result that is not points / games, a lot or
    a withdrawal that is not the player's, an entry that does not print the sums (a missing
    entry is not astray: a reader renders it). `event standings --check` counts them."""
    astray = int(conn.execute(
        "SELECT COUNT(*) FROM championship_sums WHERE event_id = ? AND (result IS NOT "
        f"CAST(points AS REAL) / NULLIF(games, 0) OR lot IS NOT (SELECT p.lot {_PLAYER}) OR "
        f"withdrawn IS NOT COALESCE((SELECT p.withdrawn_at IS NOT NULL {_PLAYER}), 0))",
        (event_id,)).fetchone()[0])
    for number, name, points, games, entry in conn.execute(
            "SELECT s.number, p.name, s.points, s.games, s.entry FROM championship_sums s LEFT "
            "JOIN championship_players p ON p.event_id = s.event_id AND p.number = s.number "
            "WHERE s.event_id = ? AND s.entry IS NOT NULL", (event_id,)):
        astray += name is None or entry != entry_body(number, name, points, games)
    return astray


def _order(tie_break: Sequence[TieKey]) -> str:
    """The standings' order over `championship_sums` for the event's tie-break: lowest
    result first, then the tie-break, then the number (the order of
    `championship.core.standings.ranked`). A result is the float of points / games, which
    orders as the exact fraction does while games stay below a million (two results that
    differ then differ by more than 1e-12, far above a double's rounding); the property
    test holds the order to `ranked`. `championship_sums_in_order` holds the default
    tie-break's order whole, so the query walks the index; another tie-break sorts only
    the players whose results are equal."""
    ties = []
    for key in tie_break:
        if key is TieKey.POINTS:
            ties.append("points")
        elif key is TieKey.GAMES:
            ties.append("games DESC")
        else:
            ties.append("lot IS NULL, lot")
    return ", ".join(["result", *ties, "number"])


def ordered_entries(conn: sqlite3.Connection, event_id: int, tie_break: Sequence[TieKey]
                    ) -> tuple[list[str], list[str]]:
    """The qualifying players' entries as `event standings --json` prints them after the
    rank (`championship.core.standings_json`): the ranked (a result, not withdrawn) in the
    standings' order, walked from the index that holds them; then the unranked by number,
    two ranges of the same index. Beside those, one count of the players: a player the
    sums lack (an older uno-showdown gave them none, or summed the event again without
    them) is then looked up among the players; an entry the file lacks is rendered here.
    (The final's sums keep entries too, as every sum does; nothing prints them this way.)"""
    kind = QUALIFYING
    ranked_where = ("FROM championship_sums WHERE event_id = ?1 AND kind = ?2 AND withdrawn = 0 "
                    f"AND result IS NOT NULL ORDER BY {_order(tie_break)}")
    ranked = [e for (e,) in conn.execute(f"SELECT entry {ranked_where}", (event_id, kind))]
    rows: list[tuple[str | None, int, int, int]] = []
    if None in ranked:  # the sums of a program that does not write entries
        rows = conn.execute(f"SELECT entry, number, points, games {ranked_where}",
                            (event_id, kind)).fetchall()
    # two ranges of the index (no result yet; withdrawn), put in order here: an ORDER BY
    # would have SQLite walk every player's sums by number instead
    rest = conn.execute(
        "SELECT entry, number, points, games FROM championship_sums WHERE event_id = ?1 AND "
        "kind = ?2 AND withdrawn = 0 AND result IS NULL UNION ALL SELECT entry, number, "
        "points, games FROM championship_sums WHERE event_id = ?1 AND kind = ?2 AND "
        "withdrawn > 0", (event_id, kind)).fetchall()
    players = conn.execute("SELECT COUNT(*) FROM championship_players WHERE event_id = ?",
                           (event_id,)).fetchone()[0]
    if players != len(ranked) + len(rest):  # not every player once: the players decide
        seen = {r[1] for r in rest} | {n for (n,) in conn.execute(
            f"SELECT number {ranked_where}", (event_id, kind))}
        rest += [r for r in conn.execute(
            "SELECT s.entry, p.number, COALESCE(s.points, 0), COALESCE(s.games, 0) FROM "
            "championship_players p LEFT JOIN championship_sums s ON s.event_id = p.event_id "
            "AND s.kind = ?2 AND s.number = p.number WHERE p.event_id = ?1", (event_id, kind))
            if r[1] not in seen]
    rest.sort(key=lambda r: r[1])
    missing = [r[1] for r in (*rows, *rest) if r[0] is None]
    names = _names(conn, event_id, missing) if missing else {}

    def entries(found: list[tuple[str | None, int, int, int]]) -> list[str]:
        return [e if e is not None else entry_body(n, names.get(n, ""), p, g)
                for e, n, p, g in found]

    return entries(rows) if rows else ranked, entries(rest)
