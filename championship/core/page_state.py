"""What the live page shows, as JSON: a pure function of a snapshot (no I/O, no clock: the
moment is passed in). The page's script draws it; the same document goes to the tables as
the broadcast standings.

Every text a person reads is made here, in the event's language, so the page's script only
places text and counts the clock down.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from championship.core import presence
from championship.core.clock import FINAL, Status
from championship.core.i18n import _, ngettext
from championship.core.snapshot import Snapshot
from championship.core.standings import Line
from championship.core.text import (
    decimal_text,
    deck_line,
    fraction_text,
    points_in_games,
)
from companion.table.timebox import Phase


def _line(line: Line) -> dict[str, Any]:
    result, shown = _result_texts(line.result)
    return {"rank": line.rank, "number": line.number, "name": line.name,
            "points": line.points, "games": line.games, "result": result,
            "shown": shown, "withdrawn": line.withdrawn}


@functools.lru_cache(maxsize=4096)
def _result_texts(result: Fraction | None) -> tuple[str | None, str]:
    """A result as the page writes it, exactly and rounded: worked out once per result, as
    the page is made again after every deal and most players' results did not move."""
    return fraction_text(result), decimal_text(result)


PHASES = {Phase.WAITING: "waiting", Phase.OPEN: "playing", Phase.PAUSED: "paused",
          Phase.LAST_DEAL: "last deal", Phase.DONE: "done"}


def _phase_text(phase: Phase) -> str:
    return {Phase.WAITING: _("waiting for the start"), Phase.OPEN: _("playing"),
            Phase.PAUSED: _("paused"), Phase.LAST_DEAL: _("finishing the last deal"),
            Phase.DONE: _("done")}[phase]


def _clock(snap: Snapshot) -> dict[str, Any]:
    view = snap.clock
    if view.stage is None:
        title = (_("Not drawn yet") if view.next_stage is None else
                 _("{stage} starts soon").format(stage=snap.stage_title(view.next_stage)))
        return {"title": title, "status": "not_started", "left_us": None, "break_left_us": None,
                "ends_at_us": None, "break_ends_at_us": None}
    title = snap.stage_title(view.stage)
    if snap.over:
        return {"title": _("The championship is over"), "status": "over", "left_us": None,
                "break_left_us": None, "ends_at_us": None, "break_ends_at_us": None}
    status = {Status.RUNNING: "running", Status.PAUSED: "paused",
              Status.TIME_UP: "time_up"}.get(view.status, "not_started")
    note = {"running": "", "paused": _("paused"), "time_up": _("time is up")}.get(status, "")
    # Absolute deadlines on the director's clock: a page counts down to them with its own
    # offset to the server, so a document built a while ago shows the same time as a fresh
    # one. `left_us` stays for a paused clock (it does not run).
    ends_at = view.time_up_at_us if status == "running" else None
    break_ends_at = None
    if status == "time_up" and view.break_left_us:
        break_ends_at = snap.now_us + view.break_left_us
    return {"title": title, "note": note, "status": status, "left_us": view.left_us,
            "ends_at_us": ends_at, "break_left_us": view.break_left_us,
            "break_ends_at_us": break_ends_at,
            "break_title": _("Break") if view.break_left_us else ""}


def page_state(snap: Snapshot, now_us: int) -> dict[str, Any]:
    """The page's document; `now_us` stamps it so the page can count the clock down."""
    stages = []
    for stage in (*snap.qualifying_stages, *((FINAL,) if snap.final_seated else ())):
        tables = [{"table": t.table, "deals": t.deals, "phase": PHASES[t.phase],
                   "phase_text": _phase_text(t.phase), **_presence(snap, t.table),
                   "deals_text": ngettext("{n} deal", "{n} deals", t.deals).format(n=t.deals),
                   "players": [[n, snap.name_of(n)] for n in t.players]}
                  for t in snap.stage_tables(stage)]
        stages.append({"stage": stage, "title": snap.stage_title(stage), "tables": tables})
    awards = snap.awards
    places = [{"place": i, **_line(ln)} for i, ln in enumerate(awards.places, 1)]
    luckiest = _line(awards.luckiest) if awards.luckiest is not None else None
    if luckiest is not None and awards.luckiest is not None:
        points, _games = points_in_games(awards.luckiest.points, awards.luckiest.games)
        luckiest["shown"] = f"{points} · {luckiest['shown']}"
    deals = {f"{t.stage}/{t.table}": t.deals for t in snap.tables}
    return {
        "event": snap.event.name,
        "at_us": now_us,
        "clock": _clock(snap),
        "stages": stages,
        "finalists": snap.settings.finalists,
        "qualifying": [_line(ln) for ln in snap.qualifying],
        "final": [_line(ln) for ln in snap.final] if snap.final_seated else [],
        "awards": {"places": places, "luckiest": luckiest, "final_over": awards.final_over,
                   "luckiest_by": snap.settings.luckiest_text()},
        "deck": deck_line(snap.settings),
        "deals": deals,
        "total_deals": sum(deals.values()),
        "held": len(snap.undecided),
        "broker": _broker(snap),
        "words": words(),
    }


def _presence(snap: Snapshot, table: int) -> dict[str, Any]:
    """A table's presence for the page: its state, since when it is offline, its clock."""
    if not snap.presence:  # no table was ever heard: one games file, no `event serve`
        return {}
    state = snap.table_presence(table)
    heard = snap.presence.get(table)
    out: dict[str, Any] = {"presence": state, "presence_text": presence.state_text(state)}
    # Only what changes the page: a heartbeat that says the same again must not make a new
    # document (it goes to every table as the standings).
    if heard is not None and state == presence.OFFLINE:
        out["heard_us"] = heard.heard_us
    if heard is not None and presence.clock_off(heard.offset_us):
        out |= {"clock_off": True, "offset_us": round(heard.offset_us, -5)}
    return out


def _broker(snap: Snapshot) -> dict[str, Any] | None:
    heard = snap.presence.get(0)
    if heard is None:
        return None
    up = heard.linked and snap.now_us - heard.heard_us <= presence.OFFLINE_AFTER_US
    return {"up": up, "since_us": heard.heard_us}


def words() -> dict[str, str]:
    """The page's fixed words, in the event's language."""
    return {
        "seating": _("Seating"), "standings": _("Standings"), "final": _("Final"),
        "awards": _("Awards"), "table": _("Table"), "player": _("player"),
        "points": _("points"), "games": _("games"), "result": _("result"),
        "cut": _("↑ {n} play the final"), "deals": _("deals"),
        "luckiest": _("The luckiest"), "provisional": _("Provisional: the final is not over"),
        "place1": _("1st place"), "place2": _("2nd place"), "place3": _("3rd place"),
        "nothing": _("Nothing yet: the standings appear with the first deal."),
        "not_drawn": _("The seats have not been drawn yet."),
        "offline": _("Reconnecting…"),
        "offline_since": _("offline since {time}"), "clock_off": _("clock off by {offset}"),
        "broker_lost": _("The broker is lost: tables keep recording and send later."),
        "held": _("{n} deals held for the director"),
        "withdrew": _("withdrew"),
        "find": _("Find my seat and my result"), "find_hint": _("Your name or number"),
        "not_found": _("No player by that name or number."),
        "seat_at": _("{stage}: Table {table}, seat {seat}"),
        "my_line": _("Standings: #{rank}, {points} points in {games} games, result {result}"),
        "final_line": _("Final: #{rank}, result {result}"),
        "no_result": _("No result yet."),
    }


#: The page's lists that change a line at a time: a patch carries only their changed lines.
LINE_LISTS = ("qualifying", "final")


def page_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What turns the page's document `old` into `new`: the top-level entries that changed
    (`set`) and, for the standings, only the lines that changed and the new length
    (`lines`). A deal moves a few players' lines, so the page is sent those, not the whole
    event; the page applies it to the document it holds (`page.html`, `patch`)."""
    changed: dict[str, Any] = {}
    lines: dict[str, Any] = {}
    for key, value in new.items():
        before = old.get(key)
        if before == value:
            continue
        if key in LINE_LISTS and isinstance(before, list) and isinstance(value, list):
            at = {str(i): line for i, line in enumerate(value)
                  if i >= len(before) or before[i] != line}
            lines[key] = {"n": len(value), "at": at}
        else:
            changed[key] = value
    return {"patch": True, "set": changed, "lines": lines}


def apply_patch(doc: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """`doc` with `patch` applied (what the page's script does; the tests check both)."""
    out = dict(doc) | patch["set"]
    for key, change in patch["lines"].items():
        lines = list(out.get(key, []))[:change["n"]]
        lines += [None] * (change["n"] - len(lines))
        for i, line in change["at"].items():
            lines[int(i)] = line
        out[key] = lines
    return out
