"""A table that stops mid-duel: the duel ends aborted ("the table stopped"), in the duel log
too, and replay never invents the verdict the table did not give (`run` stopped by SIGTERM
mid-countdown used to replay to a timeout that `--check` passed). And what replay says of a
log it cannot judge: each message once, never re-wrapped, and input lines held to the
limits of config lines."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hardware.fake import FakeUnit
from showdown.contract.events import Outcome, Side, TimerPressed, VerdictGiven
from showdown.duel.engine import DuelConfig
from showdown.duel.log_format import LogError, decode_line
from showdown.service.duel_log import DuelLog
from showdown.service.loop import STOPPED_REASON, ShowdownService
from uno_showdown.commands.cli import main
from uno_showdown.commands.run import run_headless


class StoppedMidCountdown(FakeUnit):
    """Whoever owns the table stops it (SIGTERM) the moment the countdown starts."""

    service: ShowdownService | None = None

    def start_countdown(self, countdown_us: int) -> None:
        super().start_countdown(countdown_us)
        assert self.service is not None
        self.service.stop()


def headless_table(tmp_path: Path) -> tuple[StoppedMidCountdown, ShowdownService, Path]:
    unit = StoppedMidCountdown()
    log = tmp_path / "duels.jsonl"
    config = DuelConfig(countdown_min_us=3_000_000, countdown_max_us=3_000_000)
    service = ShowdownService(unit, config, rng=random.Random(1), duel_log=DuelLog(log))
    unit.service = service
    return unit, service, log


def lines_of(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_run_stopped_mid_countdown_logs_an_abort_and_replay_agrees(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unit, service, log = headless_table(tmp_path)
    heard: list[object] = []
    service.add_listener(heard.append)
    unit.deliver(TimerPressed(100_000))
    assert run_headless(service, 2, None) == 0  # as `run --headless`, stopped by a signal
    service.close_listeners()  # what `run` does on its way out
    assert service.duel_log is not None and service.duel_log.close() is None
    capsys.readouterr()
    lines = lines_of(log)
    assert {"input": "abort", "reason": STOPPED_REASON} .items() <= lines[-2].items()
    assert lines[-1]["input"] == "verdict"
    assert lines[-1]["result"]["outcome"] == "aborted"  # type: ignore[index]
    [verdict] = [e for e in heard if isinstance(e, VerdictGiven)]
    assert verdict.result.outcome is Outcome.ABORTED and verdict.result.reason == STOPPED_REASON
    assert main(["replay", "--check", str(log)]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["outcome"] == "aborted" and "timeout" not in out


def test_a_table_killed_mid_countdown_leaves_an_unfinished_duel_that_replay_does_not_judge(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kill -9 writes no abort: the log ends after "start". Replay says the duel is
    unfinished; --check says it did not check it, and agrees on the duels before it."""
    unit, service, log = headless_table(tmp_path)
    unit.deliver(TimerPressed(100_000))
    run_headless(service, 2, None)
    service.close_listeners()
    assert service.duel_log is not None
    service.duel_log.close()
    capsys.readouterr()
    killed = [line for line in log.read_text(encoding="utf-8").splitlines()
              if '"abort"' not in line and '"verdict"' not in line]
    log.write_text("\n".join(killed) + "\n", encoding="utf-8")
    assert main(["replay", "--check", str(log)]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line) for line in out.splitlines()] == [
        {"outcome": None, "unfinished": True}]
    assert err == ("replay: the duel loaded at line 2 has no verdict in the log (the table "
                   "stopped before giving one): not judged, not checked\n")


def test_a_hand_written_log_is_still_judged_to_its_end(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    """No arrival times: the lines are a person's question, not a table's record."""
    log = tmp_path / "hand.jsonl"
    log.write_text('{"t_us": 0, "input": "load", "challenger": "left", "opponent": "right"}\n'
                   '{"t_us": 1000, "input": "start", "countdown_us": 3000000}\n',
                   encoding="utf-8")
    assert main(["replay", str(log)]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == "timeout"


def test_a_loaded_duel_ends_aborted_when_the_owner_closes_without_another_step(
        tmp_path: Path) -> None:
    """The window steps the service itself: stop() and no further step, then close."""
    unit = FakeUnit()
    log = tmp_path / "duels.jsonl"
    service = ShowdownService(unit, DuelConfig(), duel_log=DuelLog(log))
    service.load(Side.LEFT, Side.RIGHT, 1)
    service.step(0)
    service.stop()
    service.close()
    kinds = [line["input"] for line in lines_of(log)]
    assert kinds == ["config", "load", "abort", "verdict"]
    service.close()  # twice: nothing more
    assert len(lines_of(log)) == 4


def test_a_finished_duel_gets_no_abort(tmp_path: Path) -> None:
    unit = FakeUnit()
    log = tmp_path / "duels.jsonl"
    service = ShowdownService(unit, DuelConfig(countdown_min_us=1_000_000,
                                               countdown_max_us=1_000_000),
                              duel_log=DuelLog(log))
    service.load(Side.LEFT, Side.RIGHT, 1)
    service.step(0)
    unit.deliver(TimerPressed(10))
    for _ in range(100):
        service.step()
        if service.results:
            break
    assert service.results[-1][1].outcome is Outcome.TIMEOUT
    service.stop()
    service.step(0)
    service.close()
    assert [line["input"] for line in lines_of(log)].count("abort") == 0


@pytest.mark.parametrize(("content", "message"), [
    (b"\xff\xfe not text\n", "{path} is not a duel log: it is not UTF-8 text"),
    (b'{"t_us": 0, "input": "launch"}\n',
     "line 1: unknown \"input\" 'launch': expected load, start, press, go, abort, config, "
     "verdict, reactions, contested or launch_failed"),
    (b'{"t_us": 0, "input": "load", "challenger": "left", "opponent": "right"}\n',
     "no duel in the input reached a verdict (is there a load and a start?)"),
])
def test_replay_says_what_is_wrong_with_the_log_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str) -> None:
    """Each message as the replay words it: not wrapped in "cannot read 'FILE': ..."."""
    log = tmp_path / "duels.jsonl"
    log.write_bytes(content)
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert err == f"uno-showdown replay: {message.format(path=log)}\n"


@pytest.mark.parametrize(("line", "message"), [
    ('{"t_us": 0, "input": "load", "challenger": "left", "opponent": "right", '
     '"cards": 99999999999999999999}',
     '"cards" must be a whole number from 1 to 20, not 99999999999999999999'),
    ('{"t_us": 0, "input": "load", "challenger": "left", "opponent": "right", "cards": 0}',
     '"cards" must be a whole number from 1 to 20, not 0'),
    ('{"t_us": 1000, "input": "start", "countdown_us": 99999999999999}',
     '"countdown_us" must be from 1 to 60000000 microseconds, as in a config line, '
     "not 99999999999999"),
])
def test_input_lines_keep_the_limits_of_config_lines(line: str, message: str) -> None:
    with pytest.raises(LogError) as refused:
        decode_line(line)
    assert str(refused.value) == message
