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

    python benchmarks/micropython.py [--frames 20000] [--repeat 3] [--duels 10]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

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
    args = parser.parse_args()
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
    emulated_pico(args.duels)


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


def emulated_pico(duels: int) -> None:
    """The emulated Pico's rows (section 3 of the module docstring)."""
    from tests.pico.conftest import LINK_OPTIONS, boot_to_firmware, boot_to_repl, cli, mpremote
    from tests.pico.test_heap import HERE, _play

    try:
        find_fixtures()
    except PicoUnavailable as exc:
        print(f"emulated Pico skipped: {exc}")
        return
    boot_s, pico = _boot_to_repl_s()
    try:
        began = time.monotonic()
        done = cli("firmware", "install", "--port", pico.port)
        install_s = time.monotonic() - began
        if done.returncode != 0:
            print(f"emulated Pico: firmware install failed: {done.stdout}{done.stderr}")
            return
        boot_to_repl(pico)
        source = (HERE / "heap_probe.py").read_text().replace("DUELS = 10", f"DUELS = {duels}")
        mpremote(pico, "exec", "--no-follow", source)
        pico.request("stats")
        with open_table(pico.port, HEAP_DUEL, link_options=LINK_OPTIONS,
                        settle_us=100_000) as table:
            began = time.monotonic()
            _play(table, pico, duels)
            per_minute = 60 * duels / (time.monotonic() - began)
            pico.wait_for(lambda p: any(c.pin == "board_led" and c.level == 1
                                        for c in p.changes), 60)
        stats = pico.request("stats")
        boot_to_repl(pico)
        free = [int(x) for x in mpremote(pico, "exec", "print(open('heap.txt').read())").split()]
        boot_to_firmware(pico)
    finally:
        pico.close()
    baseline = _virtual_duels_per_minute(duels)
    speed = (stats["busyNs"] + stats["idleNs"]) / stats["wallNs"]
    print(f"emulated Pico: MicroPython 1.28 rp2 image on rp2040js, {duels} duels "
          "(wall times on this machine, its load included)")
    print("| measure | emulated Pico | virtual board | emulated / virtual |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| boot to the REPL prompt (s) | {boot_s:.2f} | | |")
    print(f"| firmware install, mpy-cross and mpremote (s) | {install_s:.1f} | | |")
    print(f"| duels per minute (200 ms countdown, 1 card) | {per_minute:.1f} | {baseline:.1f} | "
          f"{per_minute / baseline:.2f} |")
    print(f"| emulated time per wall time during the duels | {speed:.2f} | | |")
    print()
    print("| free heap on the real port (gc.mem_free after gc.collect) | bytes | share of "
          "the heap at the hello |")
    print("| --- | ---: | ---: |")
    print(f"| at the first hello | {free[0]:,} | 100.0 % |")
    print(f"| after duel 1 | {free[1]:,} | {100 * free[1] / free[0]:.1f} % |")
    print(f"| after duel {duels} | {free[-1]:,} | {100 * free[-1] / free[0]:.1f} % |")


if __name__ == "__main__":
    main()
