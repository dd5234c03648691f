"""Replaying a duel log: the verdicts its inputs lead to, judged again from the stamps.

The engine is rebuilt from the log: its settings from each duel's `config` line (the
go-report mode included), its inputs from the input lines, and its clock from the
arrival times and the verdict lines. That is everything the table's engine was given,
so a log the service wrote replays to the verdicts the table gave, always:

* Lines carrying `arrived_us` (the service writes them) reach the engine at their
  arrival times. Where the log holds the instant the table committed a verdict (the
  `t_us` of its `verdict` line), the replay commits there too: every input the table
  read by then is counted, and none after; that is the service's rule for an input
  near the deadline (it reads what the unit delivered, then tells the engine the time).
* Lines without `arrived_us` (a hand-written log) are all taken as arrived before
  the verdict. A log older than the verdict instants replays by the arrival times
  alone: an input that arrived at the deadline counts, one that arrived later does not.

Judging options given to the replay (`--settle-us`, ...) ask "what if": the engine then
decides by its own deadlines, not the table's.

A duel the service logged but never gave a (final) verdict for (the table stopped, or was
killed, mid-countdown) is not judged past the verdicts the table gave: the replay would
only invent the verdict the table never gave. It is reported as unfinished
(`ReplayedVerdict.unfinished`), which `--check` never counts as agreeing. The service
logs an `abort` ("the table stopped") for a duel it stops with, so only a killed table
leaves one.
"""


from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from showdown.contract.events import DuelResult, GoShown, TiePolicy
from showdown.contract.i18n import _
from showdown.duel.engine import (
    Contest,
    Duel,
    DuelConfig,
    DuelError,
    DuelInput,
    Load,
    Start,
    run_to_verdict,
)
from showdown.duel.log_format import LogError, LogRecord, decode_line, encode_input
from showdown.duel.log_lines import MAX_LOG_LINE_CHARS, LogLineTooLong, log_lines

#: The longest line read (the contract's reader holds every duel-log reader to it).
MAX_LINE_CHARS = MAX_LOG_LINE_CHARS
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
    try:
        yield from log_lines(stream)
    except LogLineTooLong as exc:
        raise ReplayError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class _Input:
    line: int
    event: DuelInput
    arrived_us: int | None


@dataclass(frozen=True, slots=True)
class _Decided:
    """The table committed to a verdict at `t_us` (None: the log does not say when)."""

    t_us: int | None


@dataclass
class _DuelRecord:
    first_line: int
    config: DuelConfig
    await_go_report: bool
    steps: list[_Input | _Decided] = field(default_factory=list)
    recorded: list[dict[str, Any]] = field(default_factory=list)
    contested: dict[str, Any] | None = None

    @property
    def inputs(self) -> list[_Input]:
        return [s for s in self.steps if isinstance(s, _Input)]

    @property
    def service_written(self) -> bool:
        """The service wrote these lines (they carry arrival times), so its verdict lines
        are every verdict the table gave."""
        return any(isinstance(s, _Input) and s.arrived_us is not None for s in self.steps)

    @property
    def finished_by_table(self) -> bool:
        """The log holds the table's final verdict (a rematched tie, with no launch, is not
        final: the duel went on)."""
        if not self.recorded:
            return False
        last = self.recorded[-1]
        return not (last.get("outcome") == "tie" and not last.get("launch"))

    @property
    def knows_decisions(self) -> bool:
        """The log says when the table committed each verdict (logs since contests)."""
        decided = [s.t_us for s in self.steps if isinstance(s, _Decided)]
        return bool(decided) and all(t is not None for t in decided)


@dataclass(frozen=True, slots=True)
class ReplayedVerdict:
    line: int  # where the duel's load is
    #: The replayed verdict; None for an unfinished duel (the table gave none to replay).
    result: DuelResult | None
    recorded: dict[str, Any] | None  # the verdict the log says was given, if any
    #: For a duel's final verdict: the late press that would have changed it, if any.
    contest: Contest | None = None
    #: Whether the log marks this duel contested (None: not the final verdict).
    recorded_contested: bool | None = None

    @property
    def unfinished(self) -> bool:
        """The service logged this duel but the table gave it no (final) verdict."""
        return self.result is None

    @property
    def matches(self) -> bool | None:
        """Whether the table gave the same verdict (reaction times aside: the table's
        verdict line is written before the slower player's time is known), and marked
        it contested exactly when the replay finds it contested. None when there is no
        verdict to compare (a hand-written log, an unfinished duel)."""
        if self.recorded is None or self.result is None:
            return None
        replayed = self.result.to_json()
        same = all(self.recorded.get(k) == v for k, v in replayed.items() if k != "reaction_us")
        if self.recorded_contested is not None:
            same = same and self.recorded_contested == (self.contest is not None)
        return same

    def to_json(self) -> dict[str, Any]:
        """What `uno-showdown replay` prints: the verdict, and any contest of it; for an
        unfinished duel, `{"outcome": null, "unfinished": true}`."""
        if self.result is None:
            return {"outcome": None, "unfinished": True}
        out = self.result.to_json()
        if self.contest is not None:
            c = self.contest
            out["contested"] = {
                "side": c.side.value, "t_us": c.t_us, "would_be": c.would_be.value,
                "would_win": c.would_win.value if c.would_win is not None else None,
            }
        return out


def _records(lines: Iterable[str]) -> Iterator[tuple[int, LogRecord]]:
    for number, text in enumerate(lines, start=1):
        try:
            record = decode_line(text)
        except LogError as exc:
            raise ReplayError(_("line {line}: {problem}").format(line=number, problem=exc)) \
                from exc
        if record is not None:
            yield number, record


def _group(
    lines: Iterable[str], base: DuelConfig, overrides: dict[str, Any]
) -> Iterator[_DuelRecord]:
    config = replace(base, **overrides)
    await_go = False
    current: _DuelRecord | None = None
    for number, record in _records(lines):
        if record.kind == "config":
            assert record.config is not None
            try:
                config = replace(base, **(record.config | overrides))
            except (DuelError, TypeError, ValueError) as exc:
                raise ReplayError(_("line {line}: bad config: {problem}").format(
                    line=number, problem=exc)) from exc
            await_go = bool(record.await_go_report)
            continue
        if record.kind == "verdict":
            if current is not None and record.verdict is not None:
                current.recorded.append(record.verdict)
                current.steps.append(_Decided(record.decided_at_us))
            continue
        if record.kind in ("reactions", "launch_failed"):
            continue  # the replay times the players itself; whether cards flew is no press
        if record.kind == "contested":
            if current is not None and current.contested is None:
                current.contested = record.contest
            continue
        assert record.event is not None
        if isinstance(record.event, Load):
            if current is not None:
                yield current
            current = _DuelRecord(number, config, await_go)
        elif current is None:
            raise ReplayError(_('line {line}: a "{input}" before any "load"').format(
                line=number, input=_kind(record.event)))
        if len(current.steps) >= MAX_INPUTS_PER_DUEL:
            raise ReplayError(
                _("line {line}: the duel loaded at line {first} has more than {most} inputs, "
                  "far more than a table logs: check the file").format(
                      line=number, first=current.first_line, most=f"{MAX_INPUTS_PER_DUEL:,}"))
        current.steps.append(_Input(number, record.event, record.arrived_us))
    if current is not None:
        yield current


def _kind(event: DuelInput) -> str:
    """The log's own word for an input ("press", "go", ...)."""
    return str(encode_input(event)["input"])


def _fill_countdowns(duel: _DuelRecord) -> None:
    """A start without `countdown_us` takes it from the next `go` line: replay needs "go"."""
    for i, step in enumerate(duel.steps):
        if not isinstance(step, _Input):
            continue
        event = step.event
        if isinstance(event, Start) and event.countdown_us is None:
            go = next((s.event for s in duel.steps[i + 1:]
                       if isinstance(s, _Input) and isinstance(s.event, GoShown)), None)
            if go is None or go.t_us <= event.t_us:
                raise ReplayError(
                    _('line {line}: "start" has no "countdown_us" and no later "go" line, '
                      "so the replay cannot know when go was").format(line=step.line)
                )
            duel.steps[i] = replace(step, event=Start(event.t_us, go.t_us - event.t_us))


def replay_duel(duel: _DuelRecord, *, table_clock: bool = True) -> tuple[list[DuelResult],
                                                                          Contest | None]:
    """The verdicts of one duel, and the contest of its final verdict if there is one.

    With `table_clock`, the engine commits at the instants the table committed (where the
    log says); otherwise it keeps its own deadlines, told the time by the arrivals.
    """
    _fill_countdowns(duel)
    engine = Duel(duel.config, await_go_report=duel.await_go_report)
    follow_table = table_clock and duel.knows_decisions
    decisions_left = sum(isinstance(s, _Decided) for s in duel.steps)
    for step in duel.steps:
        if isinstance(step, _Decided):
            decisions_left -= 1
            if follow_table and step.t_us is not None:
                engine.advance(step.t_us)
            continue
        arrived = step.arrived_us
        if arrived is not None and not (follow_table and decisions_left):
            # The engine's own deadlines: whatever fell due before this input arrived.
            engine.advance(arrived - 1)
        engine.handle(step.event)
    run_to_verdict(engine, [])
    results = list(engine.results)
    if results and engine.result is not None:
        # The final verdict shows both players' times, as the table's statistics do.
        results[-1] = replace(results[-1], reaction_us=engine.reaction_us())
    return results, engine.contest


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
        results, contest = replay_duel(duel, table_clock=not overrides)
        # The replay finds a verdict the table never gave: judge only what the table judged.
        unfinished = (duel.service_written and not duel.finished_by_table
                      and len(results) > len(duel.recorded))
        if unfinished:
            results, contest = results[:len(duel.recorded)], None
        for i, result in enumerate(results):
            recorded = duel.recorded[i] if i < len(duel.recorded) else None
            final = i == len(results) - 1 and not result.rematch
            logged_contest = None
            if final and recorded is not None and duel.knows_decisions:
                logged_contest = duel.contested is not None
            yield ReplayedVerdict(
                duel.first_line, result, recorded, contest if final else None, logged_contest)
        if unfinished:
            yield ReplayedVerdict(duel.first_line, None, None)
