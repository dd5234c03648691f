"""Replaying a duel log: the verdicts its inputs lead to, judged again from the stamps.

Lines carrying `arrived_us` (the service writes them) are replayed at their
arrival times, so the replay sees exactly what the service saw; lines without
it are all taken as arrived before the verdict, which is how a hand-written
log is meant.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from showdown.duel import (
    Duel,
    DuelConfig,
    DuelError,
    DuelInput,
    DuelResult,
    GoShown,
    Load,
    Start,
    TiePolicy,
    run_to_verdict,
)
from showdown.duel_log import LogError, LogRecord, decode_line

#: The longest line read: a table's lines are about 150 characters. Past this the input is
#: not a duel log (a binary file, /dev/zero), and reading on would only fill the memory.
MAX_LINE_CHARS = 64 * 1024
#: The most inputs one duel may have: a table logs a dozen or two (a bouncing switch a few
#: more). Past this the log is not a table's, and one duel's inputs are held in memory.
MAX_INPUTS_PER_DUEL = 10_000


class ReplayError(ValueError):
    """A log that cannot be replayed; the message names the line."""


def bounded_lines(stream: TextIO) -> Iterator[str]:
    """The lines of `stream`, read one at a time, none longer than `MAX_LINE_CHARS`.

    A log of any length is replayed in little memory: a duel is judged, and printed, as
    soon as its lines are in.
    """
    number = 0
    while True:
        line = stream.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_CHARS:
            raise ReplayError(f"line {number} is longer than {MAX_LINE_CHARS:,} characters: "
                              "this is not a duel log")
        yield line


@dataclass
class _DuelRecord:
    first_line: int
    config: DuelConfig
    inputs: list[tuple[int, DuelInput, int | None]] = field(default_factory=list)
    recorded: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ReplayedVerdict:
    line: int  # where the duel's load is
    result: DuelResult
    recorded: dict[str, Any] | None  # the verdict the log says was given, if any

    @property
    def matches(self) -> bool | None:
        """Whether the table gave the same verdict (reaction times aside: the table's
        verdict line is written before the slower player's time is known)."""
        if self.recorded is None:
            return None
        replayed = self.result.to_json()
        return all(self.recorded.get(k) == v for k, v in replayed.items() if k != "reaction_us")


def _records(lines: Iterable[str]) -> Iterator[tuple[int, LogRecord]]:
    for number, text in enumerate(lines, start=1):
        try:
            record = decode_line(text)
        except LogError as exc:
            raise ReplayError(f"line {number}: {exc}") from exc
        if record is not None:
            yield number, record


def _group(
    lines: Iterable[str], base: DuelConfig, overrides: dict[str, Any]
) -> Iterator[_DuelRecord]:
    config = replace(base, **overrides)
    current: _DuelRecord | None = None
    for number, record in _records(lines):
        if record.kind == "config":
            assert record.config is not None
            try:
                config = replace(base, **(record.config | overrides))
            except (DuelError, TypeError, ValueError) as exc:
                raise ReplayError(f"line {number}: bad config: {exc}") from exc
            continue
        if record.kind == "verdict":
            if current is not None and record.verdict is not None:
                current.recorded.append(record.verdict)
            continue
        assert record.event is not None
        if isinstance(record.event, Load):
            if current is not None:
                yield current
            current = _DuelRecord(number, config)
        elif current is None:
            raise ReplayError(f'line {number}: a "{_kind(record.event)}" before any "load"')
        if len(current.inputs) >= MAX_INPUTS_PER_DUEL:
            raise ReplayError(
                f"line {number}: the duel loaded at line {current.first_line} has more than "
                f"{MAX_INPUTS_PER_DUEL:,} inputs, far more than a table logs: check the file")
        current.inputs.append((number, record.event, record.arrived_us))
    if current is not None:
        yield current


def _kind(event: DuelInput) -> str:
    return type(event).__name__.lower()


def _fill_countdowns(duel: _DuelRecord) -> None:
    """A start without `countdown_us` takes it from the next `go` line: replay needs "go"."""
    for i, (number, event, arrived) in enumerate(duel.inputs):
        if isinstance(event, Start) and event.countdown_us is None:
            go = next((e for _, e, _ in duel.inputs[i + 1 :] if isinstance(e, GoShown)), None)
            if go is None or go.t_us <= event.t_us:
                raise ReplayError(
                    f'line {number}: "start" has no "countdown_us" and no later "go" line, '
                    "so the replay cannot know when go was"
                )
            duel.inputs[i] = (number, Start(event.t_us, go.t_us - event.t_us), arrived)


def replay_duel(duel: _DuelRecord) -> list[DuelResult]:
    _fill_countdowns(duel)
    engine = Duel(duel.config)
    for _, event, arrived in duel.inputs:
        if arrived is not None:
            engine.advance(arrived)
        engine.handle(event)
    run_to_verdict(engine, [])
    results = list(engine.results)
    if results and engine.result is not None:
        # The final verdict shows both players' times, as the table's statistics do.
        results[-1] = replace(results[-1], reaction_us=engine.reaction_us())
    return results


def replay(
    lines: Iterable[str],
    config: DuelConfig | None = None,
    *,
    tie_window_us: int | None = None,
    tie_policy: TiePolicy | str | None = None,
    response_timeout_us: int | None = None,
    settle_us: int | None = None,
) -> list[ReplayedVerdict]:
    """Every verdict the log leads to, in order (a rematched tie gives two).

    Options given here win over `config` lines in the log.
    """
    return list(iter_replay(lines, config, tie_window_us=tie_window_us, tie_policy=tie_policy,
                            response_timeout_us=response_timeout_us, settle_us=settle_us))


def iter_replay(
    lines: Iterable[str],
    config: DuelConfig | None = None,
    *,
    tie_window_us: int | None = None,
    tie_policy: TiePolicy | str | None = None,
    response_timeout_us: int | None = None,
    settle_us: int | None = None,
) -> Iterator[ReplayedVerdict]:
    """`replay`, one verdict at a time as the lines come in (for a log of any length)."""
    overrides: dict[str, Any] = {
        k: v
        for k, v in {
            "tie_window_us": tie_window_us,
            "tie_policy": TiePolicy(tie_policy) if tie_policy is not None else None,
            "response_timeout_us": response_timeout_us,
            "settle_us": settle_us,
        }.items()
        if v is not None
    }
    try:
        replace(config or DuelConfig(), **overrides)
    except DuelError as exc:
        raise ReplayError(str(exc)) from exc
    for duel in _group(lines, config or DuelConfig(), overrides):
        results = replay_duel(duel)
        for i, result in enumerate(results):
            recorded = duel.recorded[i] if i < len(duel.recorded) else None
            yield ReplayedVerdict(duel.first_line, result, recorded)

