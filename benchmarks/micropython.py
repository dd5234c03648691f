"""The codec and the firmware on MicroPython (its WebAssembly port) against CPython.

1. Codec throughput: the same benchmark source, run by CPython and by MicroPython
   1.27 (wasm32 under Node, one process): frames encoded per second (paddle
   events with board ticks), and frames decoded per second from one stream fed
   in 64-byte reads as a USB line delivers them. Ratio: MicroPython / CPython.
   The wasm build runs on this machine's CPU, far faster than a Pico's 133 MHz
   Cortex-M0+; the ratio says what the interpreter costs, not the board.
2. Firmware heap, measured with `gc` on MicroPython: the firmware's modules
   loaded from .mpy, a booted board, and the peak after any loop turn during a
   fast duel, a 20-card split tie and an early press; against the budget the
   MicroPython tests assert and a Pico's ~190 KB heap. Without `fw_pico` (the
   Pico's hardware layer: machine pins, PWM, its 256-byte read buffer): the
   WebAssembly port has no `machine` to run it on, so fw_core runs on the bare
   board's simulated hardware (see docs/pico.md, "Memory").

3. The emulated Pico (MicroPython 1.28's real rp2 image on rp2040js, tests/pico):
   boot to the REPL, `firmware install`, duels per minute through the service
   and the serial unit (against the virtual board's, measured in the same run),
   the emulated core's speed (emulated µs per wall µs), and the free heap at the
   hello and after N duels. Skipped, saying why, without Node, rp2040js or the
   fixtures (docs/pico.md, "The emulated Pico").
4. The board's loop turn on the emulated Pico, timed on the board in emulated µs
   (tests/pico/loop_probe.py): an idle turn, a turn that reads a heartbeat and
   one that reads a command, and the bytes each allocates; with duels per
   minute and the free heap, for the installed firmware and for the firmware of
   an older commit (`--before`, the loop before it was made lean) copied beside
   it on the same board, so the table gives both and their ratio.

    python benchmarks/micropython.py [--frames 20000] [--repeat 3] [--duels 10]
        [--before REV] [--turns 30]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_host.wire import codec
from tests.hil.conftest import FAST, open_table
from tests.micropython.runner import BoardDriver, MicroPython, MicroPythonUnavailable, boot_heap
from tests.micropython.test_duels import play
from tests.micropython.test_heap import BOOT_BUDGET, PEAK_BUDGET, PICO_HEAP
from tests.pico.emulated_pico import EmulatedPico, PicoUnavailable, find_fixtures

#: the emulated Pico's duels and their baseline's: short, one card, a long response time
HEAP_DUEL = replace(FAST, response_timeout_us=2_000_000)

# Run as it is by both interpreters: `protocol` is the codec module, `clock()` gives µs.
CODEC_BENCH = """
def codec_bench(frames):
    ticks = [(i * 7919) % TICKS for i in range(frames)]
    t0 = clock()
    out = []
    for i in range(frames):
        out.append(protocol.encode(i % 65535 + 1, "PD", (i & 1, ticks[i])))
    t1 = clock()
    stream = b"".join(out)
    dec = protocol.Decoder()
    got = 0
    t2 = clock()
    for i in range(0, len(stream), 64):
        got += len(dec.feed(stream[i:i + 64]))
    t3 = clock()
    assert got == frames
    return [t1 - t0, t3 - t2]
"""


def cpython_codec(frames: int) -> list[int]:
    import time

    space = {"protocol": codec, "TICKS": codec.TICKS_PERIOD,
             "clock": lambda: time.perf_counter_ns() // 1000}
    exec(CODEC_BENCH, space)
    result: list[int] = space["codec_bench"](frames)
    return result


def micropython_codec(mp: MicroPython, frames: int) -> list[int]:
    mp.run(f"import protocol, time\nTICKS = {codec.TICKS_PERIOD}\nclock = time.ticks_us\n"
           + CODEC_BENCH)
    result: list[int] = mp.call(f"codec_bench({frames})")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--duels", type=int, default=10, help="duels on the emulated Pico")
    parser.add_argument("--before", default=BEFORE, help="the commit whose firmware the loop "
                        "table compares against ('' for none)")
    parser.add_argument("--turns", type=int, default=30,
                        help="heartbeat and command turns timed on the emulated Pico")
    parser.add_argument("--pico-only", action="store_true",
                        help="only the emulated Pico's tables (sections 3 and 4)")
    args = parser.parse_args()
    if args.pico_only:
        emulated_pico(args.duels, args.before, args.turns)
        return
    try:
        mp = MicroPython()
        fresh = MicroPython(load_board=False)
    except MicroPythonUnavailable as exc:  # `make bench` goes on with the other benchmarks
        print(f"benchmarks/micropython.py skipped: {exc}")
        return
    try:
        cp = [cpython_codec(args.frames) for _ in range(args.repeat)]
        mpy = [micropython_codec(mp, args.frames) for _ in range(args.repeat)]
        heap = boot_heap(fresh)
        peaks = []
        for presses, options in [
            ([(codec.RIGHT, 150_000), (codec.LEFT, 220_000)], {}),
            ([(codec.LEFT, 120_000), (codec.RIGHT, 120_000)], {"cards": 20, "tie": True}),
            ([(codec.LEFT, -100_000)], {}),
        ]:
            board = BoardDriver.micropython(fresh)
            board.measure()
            play(board, presses, **options)  # type: ignore[arg-type]
            peaks.append(board.peak_alloc() - heap["base"] - heap["sim"])
            board.close()
    finally:
        mp.close()
        fresh.close()

    def rate(runs: list[list[int]], i: int) -> float:
        return args.frames / (min(r[i] for r in runs) / 1e6)

    print(f"codec on MicroPython 1.27 (wasm32 under Node) vs CPython {sys.version.split()[0]}: "
          f"{args.frames:,} paddle-event frames, best of {args.repeat}")
    print("| measure | CPython | MicroPython | MicroPython / CPython |")
    print("| --- | ---: | ---: | ---: |")
    for label, i in (("frames encoded per second", 0), ("frames decoded per second", 1)):
        c, m = rate(cp, i), rate(mpy, i)
        print(f"| {label} | {c:,.0f} | {m:,.0f} | {m / c:.2f} |")
    print()
    print("firmware heap on MicroPython (gc.mem_alloc after gc.collect; board files from .mpy; "
          "without fw_pico, the Pico's hardware layer: the bare board's simulated pins instead)")
    print("| measure | bytes | budget | share of a Pico's ~190 KB |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| modules loaded (protocol, fw_core) | {heap['modules']:,} | | "
          f"{100 * heap['modules'] / PICO_HEAP:.1f} % |")
    print(f"| after boot | {heap['boot']:,} | {BOOT_BUDGET:,} | "
          f"{100 * heap['boot'] / PICO_HEAP:.1f} % |")
    print(f"| peak in a duel (worst of 3 duels, every loop turn) | {max(peaks):,} | "
          f"{PEAK_BUDGET:,} | {100 * max(peaks) / PICO_HEAP:.1f} % |")
    print()
    emulated_pico(args.duels, args.before, args.turns)


def _virtual_duels_per_minute(duels: int) -> float:
    """The baseline: the same duels on the virtual board (fw_core under CPython)."""
    import tempfile

    from firmware_host.virtual.mcu import VirtualMCU
    from tests.hil.conftest import open_table
    from tests.hil.test_duels import _launch_done, _play

    with tempfile.TemporaryDirectory() as tmp, VirtualMCU(Path(tmp) / "board") as mcu, \
            open_table(mcu.port, HEAP_DUEL) as table:
        began = time.monotonic()
        for n in range(duels):
            _play(table, mcu, [(codec.LEFT, 10_000)], countdown_us=200_000)
            _launch_done(table, n + 1)
        return 60 * duels / (time.monotonic() - began)


def _boot_to_repl_s() -> tuple[float, EmulatedPico]:
    """A fresh emulated Pico, and the wall time until its REPL answers."""
    import serial

    began = time.monotonic()
    pico = EmulatedPico()
    port = serial.Serial(pico.port, 115_200, timeout=0.05)
    seen = b""
    while b">>> " not in seen and time.monotonic() - began < 60:
        port.write(b"\r\n")
        seen += port.read(4096)
    port.close()
    return time.monotonic() - began, pico


#: The commit whose firmware the loop table compares against: the board's loop as it was
#: before it read the host's bytes into preallocated buffers and gave the board its own
#: encoder and decoder (docs/pico.md, "The board's loop").
BEFORE = "1c444abfb41fdde32dda29becffc8610de01f400"
#: where that firmware goes on the board, beside the installed one
BEFORE_DIR = "/before"


@dataclass
class Run:
    """One firmware's figures on the emulated Pico."""

    turns: dict[str, tuple[int, int, int, int]]  # kind: samples, median µs, p90 µs, bytes
    per_minute: float
    speed: float
    free: list[int]


def _progress(what: str) -> None:
    """Say on stderr what the run is doing: the emulated Pico's part takes minutes."""
    print(f"[{time.strftime('%H:%M:%S')}] {what}", file=sys.stderr, flush=True)


def _old_firmware(rev: str) -> list[Path] | str:
    """The board's modules of commit `rev`, compiled; or why they cannot be had."""
    import subprocess
    import tempfile

    from firmware_host.host import board_files

    root = Path(__file__).resolve().parents[1]
    folder = Path(tempfile.mkdtemp(prefix="uno-before-"))
    files = []
    for name, source in board_files.BOARD_FILES:
        if not name.endswith(".mpy"):
            continue
        rel = source.relative_to(root).as_posix()
        done = subprocess.run(["git", "-C", str(root), "show", f"{rev}:{rel}"],
                              capture_output=True, check=False)
        if done.returncode != 0:
            return f"no {rel} at {rev} ({done.stderr.decode(errors='replace').strip()})"
        (folder / "src").mkdir(exist_ok=True)
        (folder / "src" / source.name).write_bytes(done.stdout)
        files.append((name, folder / "src" / source.name))
    return board_files.build(folder / "board", tuple(files))


def _put_old_firmware(pico: EmulatedPico, files: list[Path]) -> None:
    from tests.pico.conftest import mpremote

    cmd = ["exec", f"import os\ntry:\n os.mkdir('{BEFORE_DIR}')\nexcept OSError:\n pass"]
    for path in files:
        cmd += ["+", "fs", "cp", str(path), f":{BEFORE_DIR}/{path.name}"]
    mpremote(pico, *cmd)


def _loop_turns(pico: EmulatedPico, path: str, samples: int) -> dict[str, tuple[int, ...]]:
    """Time the loop's turns on the board (tests/pico/loop_probe.py): the host says hello,
    then sends `samples` heartbeats and `samples` arrow commands, each after the last one's
    answer, and reads the probe's line."""
    import serial

    from tests.pico.conftest import WAIT_S, boot_to_repl, mpremote
    from tests.pico.test_heap import HERE

    boot_to_repl(pico)
    source = (HERE / "loop_probe.py").read_text()
    for old, new in (('PATH = ""', f'PATH = "{path}"'),
                     ("HEARTBEATS = 30", f"HEARTBEATS = {samples}"),
                     ("COMMANDS = 30", f"COMMANDS = {samples}")):
        assert old in source, old
        source = source.replace(old, new)
    mpremote(pico, "exec", "--no-follow", source)
    port = serial.Serial(pico.port, 115_200, timeout=0.05)
    dec = codec.Decoder()
    seen = bytearray()
    deadline = time.monotonic() + 10 * WAIT_S

    def answer(pred: Any) -> None:
        while time.monotonic() < deadline:
            data = port.read(max(1, port.in_waiting))
            seen.extend(data)
            if any(pred(f) for f in dec.feed(data)):
                return
        raise TimeoutError(f"the loop probe did not answer: {bytes(seen[-300:])!r}")

    try:
        port.write(codec.encode(0, codec.HELLO, (codec.VERSION,)))
        answer(lambda f: f[1] == codec.HELLO)
        for _ in range(samples):
            port.write(codec.encode(0, codec.HB))
            answer(lambda f: f[1] == codec.HB)
        for n in range(1, samples + 1):
            port.write(codec.encode(n, codec.ARROW, (n % 2,)))
            answer(lambda f, n=n: f[1] == codec.ACK and f[2][:1] == (n,))
        while b"LOOP" not in seen or b"\n" not in seen[seen.index(b"LOOP"):]:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no LOOP line from the probe: {bytes(seen[-300:])!r}")
            seen.extend(port.read(max(1, port.in_waiting)))
    finally:
        port.close()
    line = seen[seen.index(b"LOOP"):].split(b"\n")[0].decode().strip()
    _progress(f"the probe said: {line}")
    turns = {}
    for part in line.split(" | ")[1:]:
        kind, *numbers = part.split()
        turns[kind] = tuple(int(x) for x in numbers)
    return turns


def _duels(pico: EmulatedPico, duels: int, path: str) -> tuple[float, float, list[int]]:
    """Duels a minute, the core's speed during them and the free heap (heap_probe.py), for
    the firmware on `path` of the board (the installed one when empty)."""
    from tests.pico.conftest import LINK_OPTIONS, boot_to_repl, mpremote
    from tests.pico.test_heap import HERE, _play

    boot_to_repl(pico)
    mpremote(pico, "exec", "import os\ntry:\n os.remove('heap.txt')\nexcept OSError:\n pass")
    source = (HERE / "heap_probe.py").read_text().replace("DUELS = 10", f"DUELS = {duels}")
    if path:
        source = f"import sys\nsys.path.insert(0, {path!r})\n" + source
    mpremote(pico, "exec", "--no-follow", source)
    pico.request("stats")
    changes = len(pico.changes)
    with open_table(pico.port, HEAP_DUEL, link_options=LINK_OPTIONS,
                    settle_us=100_000) as table:
        began = time.monotonic()
        _play(table, pico, duels)
        per_minute = 60 * duels / (time.monotonic() - began)
        pico.wait_for(lambda p: any(c.pin == "board_led" and c.level == 1
                                    for c in p.changes[changes:]), 60)
    stats = pico.request("stats")
    speed = (stats["busyNs"] + stats["idleNs"]) / stats["wallNs"]
    boot_to_repl(pico)
    free = [int(x) for x in mpremote(pico, "exec", "print(open('heap.txt').read())").split()]
    return per_minute, speed, free


def emulated_pico(duels: int, before: str, samples: int) -> None:
    """The emulated Pico's rows (sections 3 and 4 of the module docstring)."""
    from tests.pico.conftest import boot_to_firmware, boot_to_repl, cli

    try:
        find_fixtures()
    except PicoUnavailable as exc:
        print(f"emulated Pico skipped: {exc}")
        return
    old = _old_firmware(before) if before else "no --before given"
    _progress("booting the emulated Pico")
    boot_s, pico = _boot_to_repl_s()
    runs: dict[str, Run] = {}
    try:
        began = time.monotonic()
        done = cli("firmware", "install", "--port", pico.port)
        install_s = time.monotonic() - began
        if done.returncode != 0:
            print(f"emulated Pico: firmware install failed: {done.stdout}{done.stderr}")
            return
        boot_to_repl(pico)
        if isinstance(old, list):
            _put_old_firmware(pico, old)
        for label, path in (("before", BEFORE_DIR), ("after", "")):
            if label == "before" and not isinstance(old, list):
                continue
            _progress(f"timing the loop's turns ({label})")
            turns = _loop_turns(pico, path, samples)
            _progress(f"{duels} duels ({label})")
            per_minute, speed, free = _duels(pico, duels, path)
            runs[label] = Run(turns, per_minute, speed, free)
        boot_to_firmware(pico)
    finally:
        pico.close()
    _progress(f"{duels} duels on the virtual board")
    baseline = _virtual_duels_per_minute(duels)
    after = runs["after"]
    print(f"emulated Pico: MicroPython 1.28 rp2 image on rp2040js, {duels} duels "
          "(wall times on this machine, its load included)")
    print("| measure | emulated Pico | virtual board | emulated / virtual |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| boot to the REPL prompt (s) | {boot_s:.2f} | | |")
    print(f"| firmware install, mpy-cross and mpremote (s) | {install_s:.1f} | | |")
    print(f"| duels per minute (200 ms countdown, 1 card) | {after.per_minute:.1f} | "
          f"{baseline:.1f} | {after.per_minute / baseline:.2f} |")
    print(f"| emulated time per wall time during the duels | {after.speed:.2f} | | |")
    print()
    free = after.free
    print("| free heap on the real port (gc.mem_free after gc.collect) | bytes | share of "
          "the heap at the hello |")
    print("| --- | ---: | ---: |")
    print(f"| at the first hello | {free[0]:,} | 100.0 % |")
    print(f"| after duel 1 | {free[1]:,} | {100 * free[1] / free[0]:.1f} % |")
    print(f"| after duel {duels} | {free[-1]:,} | {100 * free[-1] / free[0]:.1f} % |")
    print()
    _loop_table(runs, duels, samples, before, old)


def _loop_table(runs: dict[str, Run], duels: int, samples: int, before: str,
                old: list[Path] | str) -> None:
    """The loop-cost table: each kind of turn, before and after, and duels a minute."""
    after = runs["after"]
    prior = runs.get("before")
    if prior is None:
        print(f"loop cost before: not measured ({old})")
    title = (f"board loop turn on the emulated Pico (emulated µs, timed on the board with "
             f"ticks_us; median of {samples} heartbeat and {samples} command turns and of 200 idle "
             f"turns after them, 90th centile in brackets)")
    print(title + (f"; before: the firmware of {before[:10]}" if prior else ""))
    print("| turn | before | after | after / before |")
    print("| --- | ---: | ---: | ---: |")
    names = (("idle", "idle (no byte from the host)"),
             ("heartbeat", "reads a heartbeat (11 bytes) and answers it"),
             ("command", "reads a command (AR, 13-14 bytes) and acknowledges it"))

    def cell(run: Run | None, kind: str) -> str:
        if run is None:
            return ""
        _, median, p90, _ = run.turns[kind]
        return f"{median:,} ({p90:,})"

    def ratio(a: float | None, b: float) -> str:
        return f"{b / a:.2f}" if a else ""

    for kind, label in names:
        print(f"| {label} | {cell(prior, kind)} | {cell(after, kind)} | "
              f"{ratio(prior.turns[kind][1] if prior else None, after.turns[kind][1])} |")
    for kind, label in names:
        b = f"{prior.turns[kind][3]:,}" if prior else ""
        print(f"| bytes allocated, {label.split(' (')[0]} | {b} | {after.turns[kind][3]:,} | |")
    print(f"| duels per minute ({duels} duels, wall clock) | "
          f"{f'{prior.per_minute:.1f}' if prior else ''} | {after.per_minute:.1f} | "
          f"{ratio(prior.per_minute if prior else None, after.per_minute)} |")
    print(f"| emulated time per wall time during those duels | "
          f"{f'{prior.speed:.2f}' if prior else ''} | {after.speed:.2f} | |")
    if prior:
        print(f"| free heap after duel {duels} (bytes) | {prior.free[-1]:,} | "
              f"{after.free[-1]:,} | |")


if __name__ == "__main__":
    main()
