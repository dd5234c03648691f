"""The codec and the firmware type-check against MicroPython's own stubs for the Pico.

CPython would accept `time.ticks_us` only at run time on the board; checking
against `micropython-rp2-stubs` (its `machine`, `micropython`, `time`, ...) and
MicroPython's standard-library stubs catches a call the board does not have
before it is flashed.
"""

from __future__ import annotations

import shutil
from importlib import metadata
from pathlib import Path

import pytest

from firmware_host.host import board_files

mypy_api = pytest.importorskip("mypy.api")

#: (name on the board's flash, source): the codec goes there as `protocol.py`.
BOARD_FILES = [(name.replace(".mpy", ".py"), source)
               for name, source in board_files.BOARD_FILES]
# Stub modules with errors of their own (mypy is stricter than the stub generator).
STUB_NOISE = "machine,vfs,_mpy_shed.*,rp2.*"


def _stub_tree(dest: Path) -> Path:
    """Copy the MicroPython stub packages' files out of site-packages, apart from the rest."""
    typeshed = None
    for dist in ("micropython-rp2-stubs", "micropython-stdlib-stubs"):
        try:
            files = metadata.files(dist) or []
        except metadata.PackageNotFoundError:
            pytest.fail(f"{dist} is not installed: `make test` installs it with the test extra")
        for f in files:
            parts = f.parts
            if not parts or parts[0].endswith(".dist-info") or parts[0] == "..":
                continue
            source = Path(f.locate())
            if parts[0] == "stdlib":
                typeshed = source.parents[len(parts) - 1]
                continue
            if parts[0] == "stubs" or not f.name.endswith(".pyi"):
                continue
            target = dest.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    assert typeshed is not None, "micropython-stdlib-stubs has no stdlib folder"
    return typeshed


def test_board_code_type_checks_against_the_pico_stubs(tmp_path):
    stubs = tmp_path / "stubs"
    typeshed = _stub_tree(stubs)
    board = tmp_path / "board"
    board.mkdir()
    for name, source in BOARD_FILES:  # laid out as on the board's flash: all at the top
        shutil.copyfile(source, board / name)
    config = tmp_path / "mypy.ini"
    config.write_text(
        f"[mypy]\nmypy_path = {stubs}\n\n[mypy-{STUB_NOISE}]\nignore_errors = True\n"
    )
    out, err, status = mypy_api.run([
        "--config-file", str(config),
        "--custom-typeshed-dir", str(typeshed),
        "--python-version", "3.11",
        "--no-site-packages",
        "--check-untyped-defs",
        "--ignore-missing-imports",
        "--cache-dir", str(tmp_path / "cache"),
        *[str(board / name) for name, _source in BOARD_FILES],
    ])
    assert status == 0, out + err
