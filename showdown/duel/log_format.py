"""The duel log's lines: every input of every duel as JSON, so a verdict can be replayed.

One line per input, in arrival order:

    {"t_us": 0, "input": "load", "challenger": "left", "opponent": "right", "cards": 2}
    {"t_us": 1000, "input": "start", "countdown_us": 3000000}
    {"t_us": 3150000, "input": "press", "side": "right"}

`t_us` is the unit's stamp. The service adds `arrived_us` (when the input
reached it) and `duel` (a number). Before each duel it writes a `config` line with
every setting the engine used, `await_go_report` included (whether the verdict waited
for the unit's own report of go); "go" itself is an input line (`"input": "go"`, the
instant the unit showed it). After each verdict it writes a `verdict` line whose
`t_us` is the instant the engine committed to it, which replay commits at too and
checks against (with `at`, the wall-clock time), and once the slower press is in, a
`reactions` line with both players' times. The load line names the players
(`"players": {"left": "Ann", "right": "Bob"}`) when the table knew them: with those lines
`uno-showdown game duels --recover-from` takes back a duel the games file missed. A press
that arrived after the verdict with a stamp that would have changed it gets a
`contested` line:

    {"input": "contested", "duel": 7, "side": "left", "t_us": 3149000,
     "arrived_us": 3190000, "given": "faster", "would_be": "faster", "would_win": "left"}

A launch the unit never confirmed (not sent, not acknowledged, refused) gets a
`launch_failed` line: the duel ends as launch failed and nobody takes its cards. Replay
still judges the presses (the verdict line stays what the table judged); whether the cards
flew is the unit's news, not an input.

    {"input": "launch_failed", "duel": 7, "t_us": 3290000,
     "reason": "lost the board: the board did not acknowledge command LA #12"}

This module is the format, both ways, and pure: the service writes the lines
(`showdown.service.duel_log`), the replay judges them again (`showdown.duel.replay`) and the score
keeper
takes duels back from them (`companion.store.recover`). A line is read with `log_lines.log_lines`
and decoded with `decode_line`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from showdown.contract.events import DuelResult, GoShown, PaddlePressed, Side, TiePolicy
from showdown.contract.i18n import _
from showdown.duel.engine import (
    MAX_CARDS,
    MAX_COUNTDOWN_US,
    Abort,
    Contest,
    DuelConfig,
    DuelError,
    DuelInput,
    Load,
    Start,
)
from showdown.duel.log_lines import LogLineError, parse_log_line

CONFIG_FIELDS = (
    "countdown_min_us",
    "countdown_max_us",
    "tie_window_us",
    "tie_policy",
    "response_timeout_us",
    "settle_us",
)


#: A line that is not a duel-log record; the message says what is wrong with it.
LogError = LogLineError


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One decoded line: an input (or a config or a recorded verdict) and when it arrived."""

    kind: str  # "input", "config", "verdict", "reactions", "contested" or "launch_failed"
    event: DuelInput | None = None
    arrived_us: int | None = None
    config: dict[str, Any] | None = None
    verdict: dict[str, Any] | None = None
    duel: int | None = None
    #: config: whether the engine waited for the unit's go report (None: not recorded).
    await_go_report: bool | None = None
    #: verdict: the instant the engine committed to it (None in logs older than that).
    decided_at_us: int | None = None
    #: contested: the line as written.
    contest: dict[str, Any] | None = None
    #: load: who sat at each side, when the table knew (side -> name).
    players: dict[Side, str] | None = None
    #: verdict: the wall-clock time it was given (ISO 8601), when the log says.
    at: str | None = None


def encode_input(
    event: DuelInput, arrived_us: int | None = None, duel: int | None = None,
    players: Mapping[Side, str] | None = None,
) -> dict[str, Any]:
    line: dict[str, Any] = {"t_us": event.t_us}
    if isinstance(event, Load):
        line |= {
            "input": "load",
            "challenger": event.challenger.value,
            "opponent": event.opponent.value,
            "cards": event.cards,
        }
        if players:  # who sat where: what taking the duel back into a game needs
            line["players"] = {side.value: name for side, name in players.items()}
    elif isinstance(event, Start):
        line["input"] = "start"
        if event.countdown_us is not None:
            line["countdown_us"] = event.countdown_us
    elif isinstance(event, PaddlePressed):
        line |= {"input": "press", "side": event.side.value}
    elif isinstance(event, GoShown):
        line["input"] = "go"
    elif isinstance(event, Abort):
        line |= {"input": "abort", "reason": event.reason}
    else:  # pragma: no cover - the union is closed
        raise TypeError(f"not a duel input: {event!r}")
    if arrived_us is not None:
        line["arrived_us"] = arrived_us
    if duel is not None:
        line["duel"] = duel
    return line


def encode_config(
    config: DuelConfig, duel: int | None = None, *, await_go_report: bool | None = None
) -> dict[str, Any]:
    line: dict[str, Any] = {"input": "config"}
    for name in CONFIG_FIELDS:
        value = getattr(config, name)
        line[name] = value.value if isinstance(value, TiePolicy) else value
    if await_go_report is not None:
        line["await_go_report"] = await_go_report
    if duel is not None:
        line["duel"] = duel
    return line


#: Stamps and durations fit the device clock: a signed 64-bit count of microseconds.
_MAX_US = 2**63 - 1
def encode_verdict(
    result: DuelResult, duel: int | None = None, at: str | None = None
) -> dict[str, Any]:
    line: dict[str, Any] = {"input": "verdict"}
    if duel is not None:
        line["duel"] = duel
    if result.decided_at_us is not None:
        line["t_us"] = result.decided_at_us
    if at is not None:
        line["at"] = at  # wall-clock time, for the record of when it was played
    line["result"] = result.to_json()
    return line


def encode_contest(contest: Contest, arrived_us: int, duel: int | None = None) -> dict[str, Any]:
    line: dict[str, Any] = {"input": "contested"}
    if duel is not None:
        line["duel"] = duel
    line |= {
        "side": contest.side.value,
        "t_us": contest.t_us,
        "arrived_us": arrived_us,
        "given": contest.given.value,
        "would_be": contest.would_be.value,
        "would_win": contest.would_win.value if contest.would_win is not None else None,
    }
    return line


def _int(obj: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise LogError(_('missing "{key}"').format(key=key))
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not -_MAX_US <= value <= _MAX_US:
        shown = f"{value!r}"[:40]
        raise LogError(_('"{key}" must be an integer number of microseconds (64-bit), '
                         "not {value}").format(key=key, value=shown))
    return value


def _side(obj: dict[str, Any], key: str) -> Side:
    value = obj.get(key)
    if not isinstance(value, str):
        raise LogError(_('"{key}" must be "left" or "right", not {value}').format(
            key=key, value=repr(value)))
    try:
        return Side.parse(value)
    except ValueError as exc:
        raise LogError(_('"{key}" must be "left" or "right", not {value}').format(
            key=key, value=repr(value))) from exc


def decode_line(text: str) -> LogRecord | None:
    """Decode one line; None for a blank line. Raises LogError when malformed."""
    obj = parse_log_line(text)
    if obj is None:
        return None
    kind = obj.get("input")
    duel = obj.get("duel") if isinstance(obj.get("duel"), int) else None
    if kind == "config":
        # A hand-edited log may say 25000.0: a whole number is a whole number.
        config = {
            k: int(v) if isinstance(v, float) and v.is_integer() else v
            for k, v in obj.items() if k in CONFIG_FIELDS
        }
        bad = [k for k, v in config.items()
               if k != "tie_policy" and (isinstance(v, bool) or not isinstance(v, int))]
        if bad:
            raise LogError(_('bad config: "{field}" must be a whole number of microseconds')
                           .format(field=bad[0]))
        await_go = obj.get("await_go_report")
        if await_go is not None and not isinstance(await_go, bool):
            raise LogError(_('bad config: "await_go_report" must be true or false, not {value}')
                           .format(value=repr(await_go)))
        # Values out of bounds are reported where the config is used, after the replay's
        # own options (which may correct them) are applied.
        return LogRecord("config", config=config, duel=duel, await_go_report=await_go)
    if kind == "verdict":
        result = obj.get("result")
        if not isinstance(result, dict):
            raise LogError(_('a "verdict" line needs a "result" object'))
        at = obj.get("at")
        return LogRecord("verdict", verdict=result, duel=duel,
                         decided_at_us=_int(obj, "t_us", required=False),
                         at=at if isinstance(at, str) else None)
    if kind == "contested":
        return LogRecord("contested", contest=obj, duel=duel)
    if kind == "launch_failed":  # the unit's news, not an input: replay judges presses
        return LogRecord("launch_failed", duel=duel)
    if kind == "reactions":
        return LogRecord("reactions", duel=duel)
    t_us = _int(obj, "t_us")
    assert t_us is not None
    arrived = _int(obj, "arrived_us", required=False)
    try:
        event: DuelInput
        if kind == "load":
            cards = obj.get("cards", 1)
            if isinstance(cards, bool) or not isinstance(cards, int) or not (
                    1 <= cards <= MAX_CARDS):
                raise LogError(_('"cards" must be a whole number from 1 to {most}, '
                                 "not {value}").format(most=MAX_CARDS,
                                                       value=f"{cards!r}"[:40]))
            event = Load(_side(obj, "challenger"), _side(obj, "opponent"), cards, t_us)
        elif kind == "start":
            countdown = _int(obj, "countdown_us", required=False)
            if countdown is not None and not 1 <= countdown <= MAX_COUNTDOWN_US:
                raise LogError(_('"countdown_us" must be from 1 to {most} microseconds, as '
                                 "in a config line, not {value}").format(
                                     most=MAX_COUNTDOWN_US, value=countdown))
            event = Start(t_us, countdown)
        elif kind == "press":
            event = PaddlePressed(_side(obj, "side"), t_us)
        elif kind == "go":
            event = GoShown(t_us)
        elif kind == "abort":
            event = Abort(t_us, str(obj.get("reason", "aborted")))
        else:
            raise LogError(
                _('unknown "input" {kind}: expected load, start, press, go, abort, config, '
                  "verdict, reactions, contested or launch_failed").format(kind=repr(kind))
            )
    except DuelError as exc:
        raise LogError(str(exc)) from exc
    return LogRecord("input", event=event, arrived_us=arrived, duel=duel,
                     players=_players(obj) if kind == "load" else None)


def _players(obj: dict[str, Any]) -> dict[Side, str] | None:
    """A load line's `players` (side -> name), or None when it has none or they are unclear."""
    given = obj.get("players")
    if not isinstance(given, dict):
        return None
    out: dict[Side, str] = {}
    for key, name in given.items():
        try:
            side = Side.parse(str(key))
        except ValueError:
            return None
        if not isinstance(name, str) or not name.strip():
            return None
        out[side] = name
    return out
