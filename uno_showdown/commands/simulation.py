"""Simulated duels: two people at a fake unit, judged by the real service and engine.

The players react to what the unit shows, not to a script: each press is
scheduled when the unit shows "go" (or, for a player who anticipates, when the
countdown starts), stamped at the true press time, and delivered after a
random delay, the way a busy Pi delivers edges. Everything runs on the fake
unit's virtual clock, so thousands of duels take a moment and a seed makes a
run reproducible.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass, field

from hardware.fake import FakeUnit
from showdown.contract.events import (
    DuelResult,
    Outcome,
    PaddlePressed,
    ReactionsTimed,
    Side,
    TimerPressed,
    VerdictContested,
    VerdictGiven,
)
from showdown.contract.i18n import N_, _
from showdown.duel.engine import DuelConfig
from showdown.service.duel_log import DuelLog
from showdown.service.loop import IDLE_WAIT_S, ShowdownService

MAX_REMATCHES = 50


@dataclass(frozen=True, slots=True)
class PlayerModel:
    """How a simulated person presses. Reaction times are log-normal, as human ones are."""

    median_reaction_us: int = 260_000
    spread: float = 0.2  # sigma of the log-normal
    min_reaction_us: int = 110_000
    early_rate: float = 0.05  # chance of anticipating "go"
    absent_rate: float = 0.01  # chance of not pressing at all

    def reaction_us(self, rng: random.Random) -> int:
        value = int(rng.lognormvariate(0.0, self.spread) * self.median_reaction_us)
        return max(self.min_reaction_us, value)


@dataclass
class SimulatedTable(FakeUnit):
    """A fake unit with two simulated players sitting at it."""

    rng: random.Random = field(default_factory=random.Random)
    players: dict[Side, PlayerModel] = field(default_factory=dict)
    max_jitter_us: int = 5_000
    countdown_max_us: int = 6_000_000
    #: The true press times of the duel in progress, for judging the judges.
    true_presses: dict[Side, int] = field(default_factory=dict)
    arrivals: dict[Side, int] = field(default_factory=dict)
    _planned: dict[Side, str] = field(default_factory=dict, repr=False)

    def _press(self, side: Side, t_us: int) -> None:
        arrive = t_us + self.rng.randint(0, self.max_jitter_us)
        self.true_presses[side] = t_us
        self.arrivals[side] = arrive
        self.deliver(PaddlePressed(side, t_us), arrive_us=arrive)

    def start_countdown(self, countdown_us: int) -> None:
        super().start_countdown(countdown_us)
        self.true_presses.clear()
        self.arrivals.clear()
        self._planned.clear()
        for side in Side:
            model = self.players.get(side, PlayerModel())
            roll = self.rng.random()
            if roll < model.absent_rate:
                self._planned[side] = "absent"
            elif roll < model.absent_rate + model.early_rate:
                # Anticipation: a guess somewhere in the countdown's possible span.
                guess = self.rng.randint(countdown_us // 3, self.countdown_max_us)
                self._planned[side] = "early"
                self._press(side, self._now + guess)
            else:
                self._planned[side] = "react"

    def show_go(self) -> int:
        stamp = super().show_go()
        for side in Side:
            if self._planned.get(side) == "react" and side not in self.true_presses:
                model = self.players.get(side, PlayerModel())
                self._press(side, stamp + model.reaction_us(self.rng))
        return stamp


def naive_verdict(arrivals: dict[Side, int], go_us: int) -> Side | None:
    """Who an arrival-order arbiter would name the winner: whoever's event came first.

    That arbiter (the classic GPIO reaction-game recipe) calls a press early if
    it arrives before go, which is what it sees.
    """
    if not arrivals:
        return None
    side, arrived = min(arrivals.items(), key=lambda kv: kv[1])
    return side.other if arrived < go_us else side


@dataclass
class SimulationReport:
    duels: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    wins: Counter[str] = field(default_factory=Counter)
    reactions: dict[Side, list[int]] = field(
        default_factory=lambda: {Side.LEFT: [], Side.RIGHT: []}
    )
    launches: int = 0
    most_launches_in_one_duel: int = 0
    naive_disagreements: int = 0
    #: Verdicts a press arriving after them would have changed (marked in the duel log).
    contested: int = 0
    results: list[DuelResult] = field(default_factory=list)


def simulate(
    duels: int,
    seed: int = 0,
    *,
    config: DuelConfig | None = None,
    max_jitter_us: int = 5_000,
    players: dict[Side, PlayerModel] | None = None,
    duel_log: DuelLog | None = None,
    cards: int = 1,
) -> SimulationReport:
    """Run `duels` duels through the real service on a simulated table."""
    config = config or DuelConfig()
    rng = random.Random(seed)
    table = SimulatedTable(
        rng=random.Random(rng.getrandbits(64)),
        players=players or {},
        max_jitter_us=max_jitter_us,
        countdown_max_us=config.countdown_max_us,
    )
    report = SimulationReport()
    verdicts: list[VerdictGiven] = []
    timed: list[ReactionsTimed] = []
    service = ShowdownService(
        table, config, rng=random.Random(rng.getrandbits(64)), duel_log=duel_log,
    )
    feed = service.subscribe("simulation")

    def step(max_wait_s: float = IDLE_WAIT_S) -> None:
        service.step(max_wait_s)
        for event in feed.drain():  # heard on this thread, after the loop's turn
            if isinstance(event, VerdictGiven):
                verdicts.append(event)
            elif isinstance(event, ReactionsTimed):
                timed.append(event)
            elif isinstance(event, VerdictContested):
                report.contested += 1

    for n in range(duels):
        challenger = Side.LEFT if n % 2 == 0 else Side.RIGHT
        service.load(challenger, challenger.other, cards)
        step(0)
        launches_before = len(table.launches)
        final: DuelResult | None = None
        rematches = 0
        while final is None:
            table.deliver(TimerPressed(table.now_us() + 500_000))
            while True:
                step()
                if verdicts:
                    event = verdicts.pop()
                    rematches += event.result.rematch
                    if not event.result.rematch or rematches >= MAX_REMATCHES:
                        final = event.result  # a table gives up on a pair that always ties
                    report.outcomes[event.result.outcome.value] += 1
                    _judge_the_judges(report, table, event.result)
                    break
        # Let the launch finish and late presses drain before the next duel. The clock
        # steps from one pending arrival to the next (the fake unit's read jumps to it), so
        # a late press is read, and logged, at the instant it arrives, not at the end.
        drained_us = table.now_us() + config.response_timeout_us + 1_000_000
        while table.now_us() < drained_us:
            step(min(IDLE_WAIT_S, (drained_us - table.now_us()) / 1_000_000))
        report.duels += 1
        report.results.append(final)
        fired = len(table.launches) - launches_before
        report.launches += fired
        report.most_launches_in_one_duel = max(report.most_launches_in_one_duel, fired)
        if final.winner is not None:
            report.wins[final.winner.value] += 1
        # Both players' times, the slower one's included (it may come after the verdict).
        reactions = timed.pop().reaction_us if timed else final.reaction_us
        timed.clear()
        for side in Side:
            value = reactions.get(side)
            if value is not None and value >= 0:
                report.reactions[side].append(value)
    service.unsubscribe(feed)
    return report


def _judge_the_judges(report: SimulationReport, table: SimulatedTable, result: DuelResult) -> None:
    if result.outcome not in (Outcome.FASTER, Outcome.EARLY_PRESS) or result.go_us is None:
        return
    if naive_verdict(table.arrivals, result.go_us) != result.winner:
        report.naive_disagreements += 1


#: Each outcome's row in the summary, translated when printed.
_OUTCOME_LABELS = {
    Outcome.FASTER: N_("faster"),
    Outcome.EARLY_PRESS: N_("early press"),
    Outcome.TIE: N_("tie"),
    Outcome.TIMEOUT: N_("timeout"),
    Outcome.ABORTED: N_("aborted"),
    Outcome.LAUNCH_FAILED: N_("launch failed"),
}


def format_report(report: SimulationReport) -> str:
    """The summary table `uno-showdown simulate` prints: a label, then its numbers, each
    column wide enough for the longest label of the language it is printed in."""
    verdicts = sum(report.outcomes.values())
    rows: list[tuple[str, str]] = [(_("duels"), f"{report.duels:>10}"),
                                   (_("verdicts (a rematch adds one)"), f"{verdicts:>10}")]
    for outcome in Outcome:
        count = report.outcomes.get(outcome.value, 0)
        if outcome is Outcome.ABORTED and not count:
            continue
        share = 100 * count / max(1, sum(report.outcomes.values()))
        label = _(_OUTCOME_LABELS[outcome]) if outcome in _OUTCOME_LABELS else outcome.value
        rows.append(("  " + label, f"{count:>10}{share:>9.1f}%"))
    wins = {Side.LEFT: _("wins left"), Side.RIGHT: _("wins right")}
    for side in Side:
        rows.append((wins[side], f"{report.wins.get(side.value, 0):>10}"))
    reaction = {Side.LEFT: _("reaction left (median/best)"),
                Side.RIGHT: _("reaction right (median/best)")}
    for side in Side:
        values = report.reactions[side]
        ms = _("{ms} ms")
        median = ms.format(ms=f"{statistics.median(values) / 1000:.0f}") if values else "-"
        best = ms.format(ms=f"{min(values) / 1000:.0f}") if values else "-"
        rows.append((reaction[side], f"{median:>10}{best:>10}"))
    rows.append((_("launches"), f"{report.launches:>10}"))
    rows.append((_("most launches in one duel"), f"{report.most_launches_in_one_duel:>10}"))
    rows.append((_("contested (a late press)"), f"{report.contested:>10}"))
    rows.append((_("verdicts arrival order gets wrong"), f"{report.naive_disagreements:>10}"))
    width = max(34, *(len(label) + 2 for label, _numbers in rows))
    return "\n".join(f"{label:<{width}}{numbers}" for label, numbers in rows)
