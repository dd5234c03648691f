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

    python benchmarks/micropython.py [--frames 20000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.micropython.runner import BoardDriver, MicroPython, MicroPythonUnavailable, boot_heap
from tests.micropython.test_duels import play
from tests.micropython.test_heap import BOOT_BUDGET, PEAK_BUDGET, PICO_HEAP
from uno_showdown.core.board import codec as P

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

    space = {"protocol": P, "TICKS": P.TICKS_PERIOD,
             "clock": lambda: time.perf_counter_ns() // 1000}
    exec(CODEC_BENCH, space)
    result: list[int] = space["codec_bench"](frames)
    return result


def micropython_codec(mp: MicroPython, frames: int) -> list[int]:
    mp.run(f"import protocol, time\nTICKS = {P.TICKS_PERIOD}\nclock = time.ticks_us\n"
           + CODEC_BENCH)
    result: list[int] = mp.call(f"codec_bench({frames})")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
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
            ([(P.RIGHT, 150_000), (P.LEFT, 220_000)], {}),
            ([(P.LEFT, 120_000), (P.RIGHT, 120_000)], {"cards": 20, "tie": True}),
            ([(P.LEFT, -100_000)], {}),
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


if __name__ == "__main__":
    main()
