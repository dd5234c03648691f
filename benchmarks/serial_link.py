"""The microcontroller link: round trip, decode rate, recovery, and fairness on board stamps.

1. Command round trip: the host link sends a command to the virtual board over
   a pseudo-terminal and times the acknowledgement (p50, p99).
2. Paddle event delivery: from the board's stamp of a press to the host link
   handing the event on, on the board's clock (p50, p99.9, worst); again with
   the first frame of every event corrupted on the line, so each arrives only
   by the board's retry. SerialUnit.settle_us must cover the second.
3. Decode throughput: frames per second through the shared codec on the host.
4. Recovery: unplug and replug the virtual board; time until the link is ready.
5. The caller's wait: how long `command()` and `now_us()` keep the service's
   loop (the calling thread) on a healthy board, and on a board that takes no
   bytes (the port's output suspended, so every write blocks until its write
   timeout); the healthy board is the baseline. The writer thread writes, so
   the loop never waits on the port.
6. Fairness with microcontroller stamps: for each gap between the two true
   presses, duels whose edges are stamped by the board (true time plus a
   5-25 µs IRQ entry latency, wrapped at 2^30 like `ticks_us`), encoded,
   decoded and unwrapped by the host exactly as the link does, then judged by
   the duel engine; against a naive arbiter that trusts arrival order (USB
   polls every 1 ms, then 0-5 ms of host scheduling delay).

    python benchmarks/serial_link.py [--duels 500] [--round-trips 1000] [--presses 1000]
        [--seed 1]
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_host.host.link import WRITE_TIMEOUT_S, BoardLink, BoardReport, LinkReport
from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.wire import codec
from firmware_host.wire.board_clock import BoardClock
from showdown.contract.events import Outcome, PaddlePressed, Side
from showdown.duel.engine import Duel, DuelConfig, Load, Start

GAPS_MS = (0.05, 0.1, 0.5, 1, 2, 5, 10)
COUNTDOWN_US = 3_000_000


def _pct(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1000


def round_trips(port: str, count: int) -> tuple[list[int], BoardLink]:
    acked = threading.Condition()
    link = BoardLink(port, lambda e: None).start()
    if not link.wait_ready(3):
        raise SystemExit("the virtual board did not answer")
    for i in range(count):
        link.command(codec.ARROW, (i % 2,))
        with acked:
            deadline = time.monotonic() + 1
            while link.pending() and time.monotonic() < deadline:
                acked.wait(0.0002)
    return list(link.round_trips_us), link


def event_delays(tmp: Path, presses: int, lose_first: bool) -> list[int]:
    """Stamp-to-delivery delay of `presses` paddle events, each first frame lost if asked."""
    mcu = VirtualMCU(tmp / ("board-lossy" if lose_first else "board-clean")).start()
    got = threading.Condition()
    delays: list[int] = []

    def hear(event: LinkReport) -> None:
        if isinstance(event, BoardReport) and event.kind == codec.PADDLE:
            with got:
                delays.append(link.now_us() - event.t_us)
                got.notify_all()

    link = BoardLink(mcu.port, hear).start()
    try:
        if not link.wait_ready(3):
            raise SystemExit("the virtual board did not answer")
        pause = threading.Event()
        for i in range(presses):
            side = i % 2
            if lose_first:
                mcu.garble(b" PD %d " % side, to_board=False)
            mcu.press(side)
            with got:
                if not got.wait_for(lambda n=i + 1: len(delays) >= n, timeout=2):
                    raise SystemExit("a paddle event never arrived")
            pause.wait(0.003)  # the same paddle again only after its 5 ms debounce
        if lose_first and len(mcu.garbled) != presses:
            raise SystemExit(f"{len(mcu.garbled)} frames garbled, not {presses}")
    finally:
        link.close()
        mcu.stop()
    return delays


def caller_waits(tmp: Path, stalled: bool) -> list[int]:
    """Microseconds each `now_us()` + `command()` pair held the calling thread, at a loop's
    pace (one pair every 5 ms) for two write timeouts; with `stalled`, from the moment the
    board stops taking bytes (the link gives the port up and opens it again meanwhile)."""
    mcu = VirtualMCU(tmp / ("board-stalled" if stalled else "board-healthy")).start()
    link = BoardLink(mcu.port, lambda e: None).start()
    held = os.open(mcu.port, os.O_RDWR | os.O_NOCTTY)
    waits: list[int] = []
    try:
        if not link.wait_ready(3):
            raise SystemExit("the virtual board did not answer")
        if stalled:
            termios.tcflow(held, termios.TCOOFF)
        end = time.monotonic() + 2 * WRITE_TIMEOUT_S
        while time.monotonic() < end:
            began = time.perf_counter_ns()
            link.now_us()
            link.command(codec.BEEP, (0,))
            waits.append((time.perf_counter_ns() - began) // 1000)
            time.sleep(0.005)  # the pace of the loop's turns
    finally:
        termios.tcflow(held, termios.TCOON)
        os.close(held)
        link.close()
        mcu.stop()
    return waits


def decode_rate(frames: int) -> float:
    rng = random.Random(2)
    stream = b"".join(
        codec.encode(i % codec.SEQ_MOD or 1, codec.PADDLE,
                     (rng.randint(0, 1), rng.randrange(codec.TICKS_PERIOD)))
        for i in range(frames)
    )
    dec = codec.Decoder()
    t0 = time.perf_counter()
    n = 0
    for i in range(0, len(stream), 4096):
        n += len(dec.feed(stream[i : i + 4096]))
    assert n == frames
    return frames / (time.perf_counter() - t0)


def recovery(tmp: Path, trials: int) -> list[float]:
    mcu = VirtualMCU(tmp / "board").start()
    ready = threading.Event()

    def hear(event: LinkReport) -> None:
        if type(event).__name__ == "Connected":
            ready.set()

    link = BoardLink(mcu.port, hear, retry_open_s=0.05).start()
    assert ready.wait(3)
    times = []
    try:
        for _ in range(trials):
            ready.clear()
            t0 = time.monotonic()
            mcu.unplug()
            mcu.replug()
            if not ready.wait(5):
                raise SystemExit("the link did not come back")
            times.append(time.monotonic() - t0)
    finally:
        link.close()
        mcu.stop()
    return times


def one_duel(rng: random.Random, gap_us: int, config: DuelConfig) -> tuple[str, bool]:
    """(engine verdict 'right'|'wrong'|'tie', naive arbiter right?) for one duel."""
    fast = rng.choice((Side.LEFT, Side.RIGHT))
    boot_raw = rng.randrange(codec.TICKS_PERIOD)  # the board's counter, anywhere in its cycle
    host = BoardClock()
    base = host.start_session(boot_raw, 0)
    go_true = 1_000 + COUNTDOWN_US
    first = go_true + rng.randint(150_000, 400_000)
    true_t = {fast: first, fast.other: first + gap_us}
    frames = b""
    arrivals = {}
    for side, t in true_t.items():
        stamp = codec.ticks_add(boot_raw, t + rng.randint(5, 25))  # hard IRQ entry, then ticks_us
        frames += codec.encode(1 if side is Side.LEFT else 2, codec.PADDLE,
                               (codec.LEFT if side is Side.LEFT else codec.RIGHT, stamp))
        usb_poll = (t // 1000 + 1) * 1000  # full-speed USB: the host polls every 1 ms
        arrivals[side] = usb_poll + rng.randint(0, 5_000)
    decoded = codec.Decoder().feed(frames)
    duel = Duel(config)
    duel.handle(Load(Side.LEFT, Side.RIGHT, 1))
    duel.handle(Start(base, COUNTDOWN_US))
    duel.advance(base + go_true)
    order = sorted(decoded,
                   key=lambda f: arrivals[Side.LEFT if f[2][0] == codec.LEFT else Side.RIGHT])
    for _seq, _kind, args in order:
        side = Side.LEFT if args[0] == codec.LEFT else Side.RIGHT
        duel.advance(base + arrivals[side])
        duel.handle(PaddlePressed(side, host.unwrap(args[1])))
    while not duel.results:
        deadline = duel.next_deadline_us
        assert deadline is not None
        duel.advance(deadline)
    result = duel.results[0]
    engine = ("tie" if result.outcome is Outcome.TIE
              else "right" if result.winner is fast else "wrong")
    naive = min(arrivals, key=lambda s: (arrivals[s], rng.random()))
    return engine, naive is fast


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--duels", type=int, default=500, help="duels per gap")
    parser.add_argument("--round-trips", type=int, default=1000)
    parser.add_argument("--presses", type=int, default=1000, help="paddle events to time")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the unplugs are on purpose

    with tempfile.TemporaryDirectory() as tmp:
        mcu = VirtualMCU(Path(tmp) / "board").start()
        trips, link = round_trips(mcu.port, args.round_trips)
        link.close()
        mcu.stop()
        recover = recovery(Path(tmp), 10)
        plain = event_delays(Path(tmp), args.presses, lose_first=False)
        retried = event_delays(Path(tmp), args.presses, lose_first=True)
        healthy = caller_waits(Path(tmp), stalled=False)
        stuck = caller_waits(Path(tmp), stalled=True)
    rate = decode_rate(100_000)

    print("serial link over a pseudo-terminal (virtual board)")
    print("| measure | value |")
    print("| --- | --- |")
    print(f"| command round trip p50 | {_pct(trips, 0.50):.2f} ms |")
    print(f"| command round trip p99 | {_pct(trips, 0.99):.2f} ms |")
    for label, delays in (("paddle event delivery", plain),
                          ("paddle event delivery, first frame lost", retried)):
        print(f"| {label} p50 | {_pct(delays, 0.50):.2f} ms |")
        print(f"| {label} p99.9 | {_pct(delays, 0.999):.2f} ms |")
        print(f"| {label} worst | {max(delays) / 1000:.2f} ms |")
    print(f"| decode throughput | {rate:,.0f} frames/s |")
    print(f"| recovery after unplug (median of {len(recover)}) | "
          f"{statistics.median(recover) * 1000:.0f} ms |")
    print(f"| recovery after unplug (worst) | {max(recover) * 1000:.0f} ms |")
    print()

    print("the caller's wait: now_us() + command() on the service loop's thread, one pair "
          f"every 5 ms for {2 * WRITE_TIMEOUT_S:g} s (write timeout {WRITE_TIMEOUT_S:g} s)")
    print("| board | calls | p50 | p99 | worst | worst vs healthy |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, waits in (("healthy (baseline)", healthy), ("takes no bytes", stuck)):
        print(f"| {label} | {len(waits)} | {_pct(waits, 0.50):.3f} ms | "
              f"{_pct(waits, 0.99):.3f} ms | {max(waits) / 1000:.3f} ms | "
              f"{max(waits) / max(1, max(healthy)):.1f}x |")
    print()

    config = DuelConfig()
    rng = random.Random(args.seed)
    print(f"fairness on board stamps: {args.duels} duels per gap; IRQ latency 5-25 us; "
          f"delivery 1 ms USB poll + 0-5 ms; tie window {config.tie_window_us} us")
    print("| gap (ms) | engine right % | engine tie % | engine wrong % | naive right % |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for gap_ms in GAPS_MS:
        gap_us = round(gap_ms * 1000)
        tally = {"right": 0, "tie": 0, "wrong": 0}
        naive = 0
        for _ in range(args.duels):
            engine, naive_right = one_duel(rng, gap_us, config)
            tally[engine] += 1
            naive += naive_right
        n = args.duels
        print(f"| {gap_ms:g} | {100 * tally['right'] / n:.1f} | {100 * tally['tie'] / n:.1f} "
              f"| {100 * tally['wrong'] / n:.1f} | {100 * naive / n:.1f} |")


if __name__ == "__main__":
    main()
