"""An emulated Raspberry Pi Pico on a pseudo-terminal: the real MicroPython image on rp2040js.

`EmulatedPico(fixtures)` starts `runner.mjs` in Node (rp2040js, pinned by
package-lock.json) with the RP2040 boot ROM and MicroPython's UF2 image, makes a
pseudo-terminal pair and relays bytes between its master and the Node process's
stdin/stdout, so `port` is opened by the host exactly like a Pico's /dev/ttyACM0
(pyserial, mpremote, `uno-showdown firmware install`). While no program holds
the port the board's output is dropped, as a Pico's USB serial drops it while
no host has the port open, so a host never reads a previous session's frames.

The pins are driven and read through a control channel (a socket pair, JSON
lines): `drive`, `press_after` (a press a chosen delay after an output reaches
a level, e.g. the go LED), `outputs` and the log of output changes, `hang` (the
CPU stops, time goes on: a hung loop), `jam`, `power_cycle`. While the motor
turns, a card passes the break-beam sensor every 100 ms after a 120 ms spin-up.
Every time is emulated microseconds since the current boot, which is the board's
`ticks_us`.

The fixtures are looked for in $UNO_SHOWDOWN_RP2, then `../shared/rp2/` beside
the repository (see docs/pico.md, "The emulated Pico").
"""

from __future__ import annotations

import ast
import contextlib
import errno
import itertools
import json
import os
import select
import shutil
import socket
import subprocess
import tempfile
import threading
import tty
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).resolve().with_name("runner.mjs")
LIBRARY = ROOT / "node_modules" / "rp2040js" / "dist" / "esm" / "index.js"
ENV_VAR = "UNO_SHOWDOWN_RP2"
IMAGE = "micropython-v1.28.0-rpi-pico.uf2"
BOOT_ROM = "rp2040-bootrom-b1.bin"
HOW_TO_GET = ("set UNO_SHOWDOWN_RP2 to a folder with the MicroPython rp2 image and the RP2040 "
              "boot ROM, or put them in ../shared/rp2/ (docs/pico.md, 'The emulated Pico')")


class PicoUnavailable(RuntimeError):
    """Node, rp2040js or the fixtures are missing; the message says how to get them."""


@dataclass(frozen=True)
class Fixtures:
    image: Path
    boot_rom: Path


def find_fixtures() -> Fixtures:
    """The image and the boot ROM: $UNO_SHOWDOWN_RP2, else ../shared/rp2 beside the clone."""
    named = os.environ.get(ENV_VAR)
    folder = Path(named) if named else ROOT.parent / "shared" / "rp2"
    image, rom = folder / IMAGE, folder / BOOT_ROM
    if not (image.is_file() and rom.is_file()):
        raise PicoUnavailable(f"no {IMAGE} and {BOOT_ROM} in {folder}: {HOW_TO_GET}")
    if shutil.which("node") is None:
        raise PicoUnavailable("Node.js is not installed: the emulated Pico needs Node 20 or "
                              "later (apt-get install nodejs npm, then npm ci)")
    if not LIBRARY.is_file():
        raise PicoUnavailable("rp2040js is not installed: run `npm ci` in the project folder "
                              "(make test does)")
    return Fixtures(image, rom)


def _pico_pins() -> dict[str, int]:
    """The Pico's pins as fw_pico.py wires them, read from its constants (one place for the
    pin map; docs/wiring.md shows it): fw_pico imports `machine`, so it is parsed, not run."""
    source = (ROOT / "firmware_host" / "firmware" / "fw_pico.py").read_text()
    found: dict[str, object] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            with contextlib.suppress(ValueError):
                found[node.targets[0].id] = ast.literal_eval(node.value)
    leds = found["COUNTDOWN_LEDS"]
    assert isinstance(leds, tuple)
    names = {"paddle_left": "PADDLE_LEFT", "paddle_right": "PADDLE_RIGHT",
             "timer_button": "TIMER_BUTTON", "card_sensor": "CARD_SENSOR",
             "arrow_left": "ARROW_LEFT", "arrow_right": "ARROW_RIGHT", "go_led": "GO_LED",
             "motor_a": "MOTOR_IN1", "motor_b": "MOTOR_IN2", "buzzer": "BUZZER"}
    pins = {name: int(found[const]) for name, const in names.items()}  # type: ignore[call-overload]
    pins.update({f"countdown_{i + 1}": int(pin) for i, pin in enumerate(leds)})
    pins["board_led"] = 25  # the Pico's own LED: the firmware leaves it alone, probes use it
    return pins


PINS = _pico_pins()
INPUTS = ("paddle_left", "paddle_right", "timer_button", "card_sensor")
OUTPUTS = tuple(name for name in PINS if name not in INPUTS)


@dataclass(frozen=True)
class OutputChange:
    """An output pin changed: `level` 0, 1 or "z" (not driven), `duty` its PWM share."""

    pin: str
    level: int | str
    duty: float
    t_us: float
    boot: int


class EmulatedPico:
    """One emulated Pico, its pseudo-terminal and its pins; see the module docstring."""

    def __init__(self, fixtures: Fixtures | None = None, *, link: Path | None = None) -> None:
        found = fixtures or find_fixtures()
        self._master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        os.close(slave)  # the host opens it; until then the board's output is dropped
        self.link = link
        if link is not None:
            with contextlib.suppress(FileNotFoundError):
                link.unlink()
            link.symlink_to(self.port)
        self._ctl, theirs = socket.socketpair()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - as long as the process
        self._proc = subprocess.Popen(
            ["node", str(RUNNER), str(LIBRARY), str(found.boot_rom), str(found.image),
             str(theirs.fileno())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            pass_fds=(theirs.fileno(),),
        )
        theirs.close()
        self._cond = threading.Condition()
        self._replies: dict[int, dict[str, Any]] = {}
        self._ids = itertools.count(1)
        self.changes: list[OutputChange] = []
        self.driven: list[dict[str, Any]] = []
        self.boots: list[dict[str, Any]] = []
        self._closed = threading.Event()
        self._threads = [
            threading.Thread(target=self._relay, name="pico-serial", daemon=True),
            threading.Thread(target=self._listen, name="pico-control", daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        self.request("watch", gpios=[PINS[name] for name in OUTPUTS])
        self.request("launcher", card=PINS["card_sensor"],
                     motors=[PINS["motor_a"], PINS["motor_b"]])

    # -- the serial line --

    def _relay(self) -> None:
        """Copy bytes between the pty's master and Node; drop the board's while no host listens."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        board_out = self._proc.stdout.fileno()
        to_board = self._proc.stdin.fileno()
        os.set_blocking(board_out, False)
        host_there = False
        while not self._closed.is_set():
            ready, _, _ = select.select([self._master, board_out], [], [], 0.05)
            if board_out in ready:
                data = os.read(board_out, 65536)
                if not data:
                    return  # Node ended
                if host_there:
                    with contextlib.suppress(OSError):
                        os.write(self._master, data)
            if self._master in ready:
                try:
                    data = os.read(self._master, 65536)
                    host_there = True
                except OSError as exc:  # EIO: no program holds the port now
                    if exc.errno != errno.EIO:
                        raise
                    host_there = False
                    # the master stays readable (EIO) until a host opens the port: wait
                    # for the board's bytes alone for a moment instead of spinning
                    select.select([board_out], [], [], 0.005)
                    continue
                try:
                    os.write(to_board, data)
                except (BrokenPipeError, OSError):
                    return

    # -- the control channel --

    def _listen(self) -> None:
        buf = b""
        while True:
            try:
                chunk = self._ctl.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._closed.set()
                    self._cond.notify_all()
                return
            buf += chunk
            *lines, buf = buf.split(b"\n")
            with self._cond:
                for line in lines:
                    if line.strip():
                        self._take(json.loads(line))
                self._cond.notify_all()

    def _take(self, message: dict[str, Any]) -> None:
        event = message.get("event")
        if event == "out":
            name = _NAMES[message["gpio"]]
            self.changes.append(OutputChange(name, message["level"], message["duty"],
                                             message["t_us"], message["boot"]))
        elif event == "driven":
            self.driven.append(message)
        elif event == "boot":
            self.boots.append(message)
        elif "id" in message:
            self._replies[message["id"]] = message

    def request(self, op: str, timeout_s: float = 10.0, **args: Any) -> dict[str, Any]:
        """Send one control request and wait for its answer."""
        ident = next(self._ids)
        self._ctl.sendall(json.dumps({"id": ident, "op": op, **args}).encode() + b"\n")
        with self._cond:
            if not self._cond.wait_for(lambda: ident in self._replies or self._closed.is_set(),
                                       timeout=timeout_s):
                raise TimeoutError(f"the emulated Pico did not answer {op}")
            if ident not in self._replies:
                raise PicoUnavailable(f"the emulated Pico ended: {self.stderr_tail()}")
            reply = self._replies.pop(ident)
        if not reply.get("ok"):
            raise RuntimeError(f"emulated Pico: {reply.get('error')}")
        return reply

    def sync(self) -> None:
        """Hear every pin change the board made before now. Changes come over the runner's
        socket and frames over the serial line, so a frame can be read before the change
        the board made ahead of it; one round trip on the socket, which carries changes
        and answers in order, brings them all in."""
        self.request("now")

    def wait_for(self, pred: Callable[[EmulatedPico], bool], timeout_s: float) -> bool:
        """Wait until `pred(self)` holds (checked whenever the runner reports something)."""
        with self._cond:
            return self._cond.wait_for(lambda: pred(self), timeout=timeout_s)

    def wait_output(self, pin: str, level: int | str, since: int, timeout_s: float) -> bool:
        """Wait until output `pin` was reported at `level` in a change after `since` (an
        index into `changes`, taken before the action that should cause it)."""
        return self.wait_for(lambda p: any(c.pin == pin and c.level == level
                                           for c in p.changes[since:]), timeout_s)

    # -- pins --

    def now_us(self) -> float:
        return float(self.request("now")["t_us"])

    @property
    def boot(self) -> int:
        with self._cond:
            return len(self.boots)

    def drive(self, pin: str, level: int | None, tag: str | None = None) -> float:
        """Drive an input low (0) or high (1), or let it go (None: its pull-up's level)."""
        args: dict[str, Any] = {"gpio": PINS[pin], "level": level}
        if tag is not None:
            args["tag"] = tag
        return float(self.request("drive", **args)["t_us"])

    def press_after(self, output: str, level: int, presses: list[tuple[str, int]],
                    width_us: int = 30_000, tag: str = "press") -> None:
        """When `output` reaches `level`, press each (input, delay µs): low, then released.

        The runner fires them on the emulated clock, so the instants are exact whatever
        the host or the machine is doing; `driven` records each edge it drove.
        """
        steps = []
        for pin, delay in presses:
            steps.append({"gpio": PINS[pin], "level": 0, "delay_us": delay, "tag": f"{tag}:{pin}"})
            steps.append({"gpio": PINS[pin], "level": None, "delay_us": delay + width_us})
        self.request("when", gpio=PINS[output], level=level, steps=steps)

    def clear_stimuli(self) -> int:
        """Forget every press still to come (`press_after` triggers, `at` steps): a test's
        presses never fire in a later test. How many were dropped."""
        return int(self.request("clear")["dropped"])

    def speed(self) -> float | None:
        """Emulated time per wall time while the core runs flat out, lately (about 0.2 on
        an idle machine, far less on a loaded one); None before it ran at all."""
        value = self.request("speed")["speed"]
        return None if value is None else float(value)

    def outputs(self) -> dict[str, tuple[int | str, float]]:
        """Every output's (level, duty) now."""
        pins = self.request("read", gpios=[PINS[n] for n in OUTPUTS])["pins"]
        return {name: (pins[str(PINS[name])]["level"], pins[str(PINS[name])]["duty"])
                for name in OUTPUTS}

    def jam(self, jammed: bool = True) -> int:
        """Stop (or let again) cards passing the sensor while the motor turns; cards seen."""
        return int(self.request("jam", jammed=jammed)["cards"])

    def hang(self) -> float:
        """Stop the CPU (time and peripherals go on, as in a hung loop); the emulated µs."""
        return float(self.request("hang")["t_us"])

    def power_cycle(self) -> None:
        self.request("power")

    # -- lifetime --

    def stderr_tail(self) -> str:
        self._stderr.seek(0)
        lines = self._stderr.read().decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"exit status {self._proc.poll()}"

    def close(self) -> None:
        self._closed.set()
        with contextlib.suppress(OSError):
            self._ctl.shutdown(socket.SHUT_RDWR)
        if self._proc.stdin is not None:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(timeout=5)
        for thread in self._threads:
            thread.join(timeout=2)
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        self._ctl.close()
        os.close(self._master)
        self._stderr.close()
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()

    def __enter__(self) -> EmulatedPico:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_NAMES = {gpio: name for name, gpio in PINS.items()}

