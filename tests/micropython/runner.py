"""MicroPython itself, driven from CPython: the board code on MicroPython's WebAssembly port.

`MicroPython()` starts one Node process running MicroPython 1.27
(`@micropython/micropython-webassembly-pyscript`, pinned by package-lock.json
and installed by `npm ci`), loads the board's files into its file system
compiled by mpy-cross exactly as `firmware install` copies them, and runs
Python there on request (`run`, `call`). The wasm32 build has the Pico's
32-bit object layout and 31-bit small ints, so what it measures with `gc` is
what a Pico would spend.

`BoardDriver` drives a `bare_board.Board` through its one door
(`bare_board.call`) on either interpreter: `BoardDriver.cpython()` in this
process, `BoardDriver.micropython(mp)` inside MicroPython. A scenario written
against a `BoardDriver` runs unchanged on both.
"""

from __future__ import annotations

import base64
import json
import os
import selectors
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_host.host import board_files

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "@micropython/micropython-webassembly-pyscript"
RUNNER = Path(__file__).resolve().with_name("runner.mjs")
BOARD_DIR = "/board"
#: the board's modules the level loads (the Pico-only fw_pico and main.py need `machine`)
LEVEL_FILES = (
    ("protocol.mpy", board_files.PACKAGE / "wire" / "codec.py"),
    ("fw_core.mpy", board_files.FIRMWARE / "fw_core.py"),
    ("bare_board.mpy", Path(__file__).resolve().with_name("bare_board.py")),
)


class MicroPythonUnavailable(RuntimeError):
    """Node or the MicroPython package is missing; the message says how to get it."""


class MicroPythonError(RuntimeError):
    """Python raised inside MicroPython; the message is its traceback."""


def port_module() -> Path:
    """The WebAssembly port's JavaScript module, as `npm ci` installs it beside package.json."""
    module = ROOT / "node_modules" / PACKAGE / "micropython.mjs"
    if not module.is_file():
        raise MicroPythonUnavailable(
            f"{PACKAGE} is not installed: run `npm ci` in the project folder (make test does)")
    return module


def node() -> str:
    found = shutil.which("node")
    if found is None:
        raise MicroPythonUnavailable("Node.js is not installed: the MicroPython level needs "
                                     "Node 20 or later (apt-get install nodejs npm)")
    return found


class MicroPython:
    """One MicroPython interpreter in a Node process; see the module docstring."""

    def __init__(self, *, heap_bytes: int = 1 << 20, timeout_s: float = 60.0,
                 load_board: bool = True) -> None:
        self.timeout_s = timeout_s
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the process
        self._proc = subprocess.Popen(
            [node(), str(RUNNER), str(port_module()), str(heap_bytes)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
        )
        self._buf = b""
        self._sel = selectors.DefaultSelector()
        assert self._proc.stdout is not None
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._sel.register(self._proc.stdout, selectors.EVENT_READ)
        self._answer()  # "ready"
        if load_board:
            self.load(LEVEL_FILES)
            self.run("import bare_board")

    # -- requests --

    def load(self, files: tuple[tuple[str, Path], ...]) -> None:
        """Put `files` in the board folder (compiled to .mpy where the name says so)."""
        with tempfile.TemporaryDirectory() as tmp:
            built = board_files.build(Path(tmp), files)
            payload = {f"{BOARD_DIR}/{p.name}": base64.b64encode(p.read_bytes()).decode()
                       for p in built}
        self._request({"files": payload})
        self.run(f"import sys\nif {BOARD_DIR!r} not in sys.path: sys.path.insert(0, "
                 f"{BOARD_DIR!r})")

    def run(self, code: str) -> str:
        """Run `code` in MicroPython's __main__; what it printed."""
        return self._request({"code": code})

    def call(self, expression: str) -> Any:
        """The value of a MicroPython expression that json.dumps can write."""
        out = self.run(f"import json\nprint(json.dumps({expression}))")
        return json.loads(out.strip().splitlines()[-1])

    def _request(self, request: dict[str, Any]) -> str:
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(request).encode() + b"\n")
            self._proc.stdin.flush()
        except BrokenPipeError as exc:
            raise MicroPythonError(f"MicroPython's Node process ended: {self._tail()}") from exc
        reply = self._answer()
        if not reply.get("ok"):
            raise MicroPythonError(str(reply.get("error")))
        return str(reply.get("out", ""))

    def _answer(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout_s
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                raise MicroPythonError(f"MicroPython gave no answer in {self.timeout_s:.0f} s")
            if not self._sel.select(left):
                continue
            assert self._proc.stdout is not None
            chunk = self._proc.stdout.read()
            if chunk == b"":
                raise MicroPythonError(f"MicroPython's Node process ended: {self._tail()}")
            self._buf += chunk or b""
        line, self._buf = self._buf.split(b"\n", 1)
        reply: dict[str, Any] = json.loads(line)
        return reply

    def _tail(self) -> str:
        self._stderr.seek(0)
        text = self._stderr.read().decode(errors="replace").strip()
        return text.splitlines()[-1] if text else f"exit status {self._proc.poll()}"

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait(timeout=10)
        self._sel.close()
        for pipe in (self._proc.stdin, self._proc.stdout):
            if pipe is not None:
                pipe.close()
        self._stderr.close()

    def __enter__(self) -> MicroPython:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: measured in a fresh interpreter, one step per request so nothing a step left on the
#: C stack is still held when the next one reads the heap: the base, the firmware's
#: modules, the simulator's module (not on a Pico, so left out), a booted board
_BOOT_HEAP = (
    "import gc\n_base = _modules = _sim = _boot = 0\n_heap_board = None",
    "gc.collect()\n_base = gc.mem_alloc()",
    "import protocol, fw_core",
    "gc.collect()\n_modules = gc.mem_alloc() - _base",
    "import bare_board",
    "gc.collect()\n_sim = gc.mem_alloc() - _base - _modules",
    "_heap_board = bare_board.Board()",
    "gc.collect()\n_boot = gc.mem_alloc() - _base - _sim",
    "_heap_board = None",
)


def boot_heap(mp: MicroPython) -> dict[str, int]:
    """The firmware's heap at boot, in bytes, on a MicroPython started with `load_board=False`.

    `modules`: protocol and fw_core loaded (from .mpy, as on a Pico); `boot`: those
    plus a booted Firmware and the pins and PWMs it holds; `base` and `sim` are
    what the interpreter and the simulator's own module use, to subtract from a
    later reading (see `BoardDriver.peak_alloc`).
    """
    mp.load(LEVEL_FILES)
    for step in _BOOT_HEAP:
        mp.run(step)
    figures: dict[str, int] = mp.call(
        '{"base": _base, "modules": _modules, "sim": _sim, "boot": _boot}')
    return figures


class BoardDriver:
    """A `bare_board.Board` on one interpreter, behind `bare_board.call`; bytes as bytes."""

    _count = 0

    def __init__(self, interpreter: str, mp: MicroPython | None, **options: Any) -> None:
        self.interpreter = interpreter
        self._mp = mp
        if mp is None:
            from tests.micropython import bare_board

            self._module = bare_board
            self._board = bare_board.Board(**options)
        else:
            BoardDriver._count += 1
            self._name = f"_board{BoardDriver._count}"
            args = ", ".join(f"{k}={v!r}" for k, v in options.items())
            mp.run(f"import bare_board\n{self._name} = bare_board.Board({args})")

    @classmethod
    def cpython(cls, **options: Any) -> BoardDriver:
        return cls("cpython", None, **options)

    @classmethod
    def micropython(cls, mp: MicroPython, **options: Any) -> BoardDriver:
        return cls("micropython", mp, **options)

    def _call(self, method: str, *args: Any) -> Any:
        if self._mp is None:  # the same JSON round trip as MicroPython's answers take
            return json.loads(json.dumps(self._module.call(self._board, method, list(args))))
        return self._mp.call(f"bare_board.call({self._name}, {method!r}, {json.dumps(list(args))})")

    def send(self, data: bytes) -> None:
        self._call("send", data.hex())

    def run(self, us: int) -> bytes:
        return bytes.fromhex(self._call("run", us))

    def press(self, side: int, at_ticks: int = -1) -> None:
        self._call("press", side, at_ticks)

    def press_both(self, at_ticks: int = -1) -> None:
        """Both paddles at one interrupt (the second handler runs 80 µs later)."""
        self._call("press_both", at_ticks)

    def irq(self, pin: str, at_ticks: int = -1) -> None:
        """Fire the hard IRQ of the pin named `pin` (e.g. "card_sensor"), stamped at a tick."""
        self._call("irq", pin, at_ticks)

    def press_button(self, at_ticks: int = -1) -> None:
        self._call("press_button", at_ticks)

    def jam(self, jammed: bool = True) -> None:
        self._call("jam", 1 if jammed else 0)

    def measure(self, on: bool = True) -> None:
        """Collect and read the heap after every loop turn from now on (MicroPython's gc)."""
        self._call("measure", 1 if on else 0)

    def peak_alloc(self) -> int:
        """The most heap in use after any loop turn since `measure()`, in bytes."""
        peak: int = self._call("peak")
        return peak

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self._call("state")
        return state

    def close(self) -> None:
        if self._mp is not None:
            self._mp.run(f"del {self._name}")
