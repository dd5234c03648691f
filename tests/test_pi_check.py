"""`make pi-check` follows the Raspberry Pi guide's own commands: the blocks it follows are
found in docs/raspberry-pi.md as the guide has them, and a guide that loses one is refused
at once, before a root is made, rather than at its step minutes into the check."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.pi_check import GUIDE, Root, StepFailed, guide_blocks, main, steps


@pytest.mark.parametrize("suite", ["bookworm", "trixie"])
def test_every_block_the_check_follows_is_in_the_guide(suite: str, tmp_path: Path) -> None:
    blocks = guide_blocks(GUIDE.read_text(encoding="utf-8"))
    names = [name for name, _step in steps(Root(tmp_path, proot=False), blocks, suite)]
    assert names[0] == "prepare the root" and names[-1] == "guide: remove"
    assert "start-up under emulation" in names
    assert list(tmp_path.iterdir()) == []  # nothing run: the steps are only made


def test_a_guide_without_a_block_is_refused_by_name(tmp_path: Path) -> None:
    blocks = guide_blocks(GUIDE.read_text(encoding="utf-8"))
    del blocks["duel"]
    with pytest.raises(StepFailed, match=re.escape("<!-- pi-check: duel -->")):
        steps(Root(tmp_path, proot=False), blocks, "bookworm")


def test_a_block_is_the_commands_as_the_guide_writes_them() -> None:
    text = ("Install it:\n\n<!-- pi-check: install -->\n```bash\nsudo apt install x\n"
            "uno-showdown --version\n```\n\nNot followed:\n\n```bash\nrm -rf /\n```\n")
    assert guide_blocks(text) == {"install": "sudo apt install x\nuno-showdown --version"}


def test_a_user_without_root_is_told_to_be_root(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    monkeypatch.delenv("QEMU_CPU", raising=False)  # main sets it for the check's programs
    assert main(["--suite", "bookworm"]) == 2
    assert "run it as root" in capsys.readouterr().err
