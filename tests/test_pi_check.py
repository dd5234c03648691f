"""`make pi-check` follows the Raspberry Pi guide's own commands: the blocks it follows are
found in docs/raspberry-pi.md as the guide has them, and a guide that loses one is refused
at once, before a root is made, rather than at its step minutes into the check. A check
stopped by a signal goes through its cleanup, once."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

import tools.pi_check as pi_check
from tools.pi_check import GUIDE, Root, StepFailed, guide_blocks, main, steps


def test_every_block_the_check_follows_is_in_the_guide(tmp_path: Path) -> None:
    blocks = guide_blocks(GUIDE.read_text(encoding="utf-8"))
    names = [name for name, _step in steps(Root(tmp_path, proot=False), blocks)]
    assert names[0] == "prepare the root" and names[-1] == "guide: remove"
    assert "start-up under emulation" in names
    assert list(tmp_path.iterdir()) == []  # nothing run: the steps are only made


@pytest.mark.parametrize("block", ["install", "duel", "lgpio-from-source", "remove"])
def test_a_guide_without_a_block_is_refused_by_name(block: str, tmp_path: Path) -> None:
    blocks = guide_blocks(GUIDE.read_text(encoding="utf-8"))
    del blocks[block]
    with pytest.raises(StepFailed, match=re.escape(f"<!-- pi-check: {block} -->")):
        steps(Root(tmp_path, proot=False), blocks)


def test_the_check_refuses_a_guide_without_a_block_before_it_makes_anything(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    guide = tmp_path / "raspberry-pi.md"
    guide.write_text(GUIDE.read_text(encoding="utf-8").replace(
        "<!-- pi-check: packages -->", "<!-- packages -->"), encoding="utf-8")
    monkeypatch.setattr(pi_check, "GUIDE", guide)
    cache = tmp_path / "cache"
    assert main(["--suite", "bookworm", "--cache", str(cache)]) == 2
    assert "has no block marked <!-- pi-check: packages -->" in capsys.readouterr().err
    assert not cache.exists()


def test_an_unknown_step_to_start_at_is_refused_with_the_steps_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--cache", str(tmp_path), "--start-at", "guide: nothing"]) == 2
    err = capsys.readouterr().err
    assert "no step 'guide: nothing'" in err and "guide: install" in err
    assert list(tmp_path.iterdir()) == []


def test_a_block_is_the_commands_as_the_guide_writes_them() -> None:
    text = ("Install it:\n\n<!-- pi-check: install -->\n```bash\nsudo apt install x\n"
            "uno-showdown --version\n```\n\nNot followed:\n\n```bash\nrm -rf /\n```\n")
    assert guide_blocks(text) == {"install": "sudo apt install x\nuno-showdown --version"}


def test_a_user_without_root_is_told_to_be_root(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    assert main(["--suite", "bookworm"]) == 2
    assert "run it as root" in capsys.readouterr().err


def test_a_stop_signal_ends_the_check_through_its_cleanup_and_a_second_cannot_cut_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    before = signal.getsignal(signal.SIGTERM)
    cleaned_up_ignoring = []
    with pytest.raises(SystemExit) as ended, pi_check._stops_cleanly():
        try:
            signal.raise_signal(signal.SIGTERM)  # its handler runs before this returns
            pytest.fail("SIGTERM did not stop the check")
        finally:  # as `_check`'s cleanup: a second stop signal is ignored while it runs
            cleaned_up_ignoring.append(signal.getsignal(signal.SIGHUP) is signal.SIG_IGN)
    assert ended.value.code == 128 + signal.SIGTERM
    assert cleaned_up_ignoring == [True]
    assert "stopped by SIGTERM" in capsys.readouterr().err
    assert signal.getsignal(signal.SIGTERM) is before  # the test run's own handler again
