"""The duel log: every input of every duel as JSON lines, so a verdict can be replayed.

One line per input, in arrival order:

    {"t_us": 0, "input": "load", "challenger": "left", "opponent": "right", "cards": 2}
    {"t_us": 1000, "input": "start", "countdown_us": 3000000}
    {"t_us": 3150000, "input": "press", "side": "right"}

`t_us` is the unit's stamp. The service adds `arrived_us` (when the input
reached it) and `duel` (a number); it also writes a `config` line before each
duel and a `verdict` line after it, which replay reads and checks against.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from showdown.duel import (
    Abort,
    DuelConfig,
    DuelError,
    DuelInput,
    DuelResult,
    GoShown,
    Load,
    Press,
    Start,
    TiePolicy,
)
from showdown.sides import Side

log = logging.getLogger(__name__)

CONFIG_FIELDS = (
    "countdown_min_us",
    "countdown_max_us",
    "tie_window_us",
    "tie_policy",
    "response_timeout_us",
    "settle_us",
)


class LogError(ValueError):
    """A line that is not a duel-log record; the message says what is wrong with it."""


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One decoded line: an input (or a config or a recorded verdict) and when it arrived."""

    kind: str  # "input", "config" or "verdict"
    event: DuelInput | None = None
    arrived_us: int | None = None
    config: dict[str, Any] | None = None
    verdict: dict[str, Any] | None = None
    duel: int | None = None


def encode_input(
    event: DuelInput, arrived_us: int | None = None, duel: int | None = None
) -> dict[str, Any]:
    line: dict[str, Any] = {"t_us": event.t_us}
    if isinstance(event, Load):
        line |= {
            "input": "load",
            "challenger": event.challenger.value,
            "opponent": event.opponent.value,
            "cards": event.cards,
        }
    elif isinstance(event, Start):
        line["input"] = "start"
        if event.countdown_us is not None:
            line["countdown_us"] = event.countdown_us
    elif isinstance(event, Press):
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


def encode_config(config: DuelConfig, duel: int | None = None) -> dict[str, Any]:
    line: dict[str, Any] = {"input": "config"}
    for name in CONFIG_FIELDS:
        value = getattr(config, name)
        line[name] = value.value if isinstance(value, TiePolicy) else value
    if duel is not None:
        line["duel"] = duel
    return line


#: Stamps and durations fit the device clock: a signed 64-bit count of microseconds.
_MAX_US = 2**63 - 1


def _int(obj: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise LogError(f'missing "{key}"')
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not -_MAX_US <= value <= _MAX_US:
        shown = f"{value!r}"[:40]
        raise LogError(f'"{key}" must be an integer number of microseconds (64-bit), '
                       f"not {shown}")
    return value


def _side(obj: dict[str, Any], key: str) -> Side:
    value = obj.get(key)
    if not isinstance(value, str):
        raise LogError(f'"{key}" must be "left" or "right", not {value!r}')
    try:
        return Side.parse(value)
    except ValueError as exc:
        raise LogError(f'"{key}" must be "left" or "right", not {value!r}') from exc


def decode_line(text: str) -> LogRecord | None:
    """Decode one line; None for a blank line. Raises LogError when malformed."""
    if not text.strip():
        return None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(f"not JSON ({exc.msg})") from exc
    except RecursionError:
        raise LogError("not a duel-log record (nested too deeply)") from None
    except ValueError:  # the only other refusal: a number of more than 4,300 digits
        raise LogError("not a duel-log record (a number with too many digits)") from None
    if not isinstance(obj, dict):
        raise LogError("expected a JSON object")
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
            raise LogError(f'bad config: "{bad[0]}" must be a whole number of microseconds')
        # Values out of bounds are reported where the config is used, after the replay's
        # own options (which may correct them) are applied.
        return LogRecord("config", config=config, duel=duel)
    if kind == "verdict":
        result = obj.get("result")
        if result is not None and not isinstance(result, dict):
            raise LogError(f'"result" must be a JSON object (a verdict), not {result!r}'[:120])
        return LogRecord("verdict", verdict=result, duel=duel)
    t_us = _int(obj, "t_us")
    assert t_us is not None
    arrived = _int(obj, "arrived_us", required=False)
    try:
        event: DuelInput
        if kind == "load":
            cards = obj.get("cards", 1)
            if isinstance(cards, bool) or not isinstance(cards, int):
                raise LogError(f'"cards" must be a whole number, not {cards!r}')
            event = Load(_side(obj, "challenger"), _side(obj, "opponent"), cards, t_us)
        elif kind == "start":
            event = Start(t_us, _int(obj, "countdown_us", required=False))
        elif kind == "press":
            event = Press(t_us, _side(obj, "side"))
        elif kind == "go":
            event = GoShown(t_us)
        elif kind == "abort":
            event = Abort(t_us, str(obj.get("reason", "aborted")))
        else:
            raise LogError(
                f'unknown "input" {kind!r}: expected load, start, press, go, abort or config'
            )
    except DuelError as exc:
        raise LogError(str(exc)) from exc
    return LogRecord("input", event=event, arrived_us=arrived, duel=duel)


class DuelLog:
    """Appends duel records to a JSON-lines file, flushed line by line.

    Each verdict line is fsynced: a duel someone may dispute survives a power cut.

    A write that fails (the disk full, the device gone) never reaches the caller: the table
    goes on judging, which matters more than its log. The first failure is logged as a
    warning and kept in `failed`, and nothing more is written, so the file never holds a
    duel with lines missing in the middle; a command whose output *is* the log (`simulate
    --log`) reads `failed` and says so.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, stream: IO[str] | None = None,
                 *, warn: bool = True):
        """`warn=False`: the owner reports `failed` itself, so no warning is logged."""
        if (path is None) == (stream is None):
            raise ValueError("give a path or a stream")
        self.path = Path(path) if path is not None else None
        self.failed: OSError | None = None
        self._warn = warn
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._stream: IO[str] = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
            self._owned = True
        else:
            assert stream is not None
            self._stream = stream
            self._owned = False

    def write(self, line: dict[str, Any], *, sync: bool = False) -> None:
        if self.failed is not None:
            return
        try:
            self._stream.write(json.dumps(line, separators=(", ", ": ")) + "\n")
            self._stream.flush()
            if sync and self._owned:
                os.fsync(self._stream.fileno())
        except OSError as exc:
            self.failed = exc
            if self._warn:
                log.warning("cannot write the duel log %s (%s): duels are no longer logged",
                            self.path or "stream", exc.strerror or exc)

    def input(self, event: DuelInput, arrived_us: int | None, duel: int) -> None:
        self.write(encode_input(event, arrived_us, duel))

    def config(self, config: DuelConfig, duel: int) -> None:
        self.write(encode_config(config, duel))

    def verdict(self, result: DuelResult, duel: int) -> None:
        self.write({"input": "verdict", "duel": duel, "result": result.to_json()}, sync=True)

    def close(self) -> None:
        if self._owned:
            try:
                self._stream.close()
            except OSError as exc:  # the last flush failed: already the first failure?
                self.failed = self.failed or exc
