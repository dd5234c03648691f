"""The firmware's loop turn, timed on the board (MicroPython only; benchmarks/micropython.py).

Run at the REPL of a board started with the timer button held, in place of
main.py: the very firmware (fw_pico's Hardware, fw_core's Firmware) serves the
host, turn after turn, and the probe times each turn with `ticks_us` (the
emulated Pico's µs are the board's own). The loop never waits for the host's
bytes (`_wait_ms` is 0), so a turn's time is its work alone. The host sends a
hello, then HEARTBEATS heartbeats, then COMMANDS arrow commands, each after the
last one's answer, so each of those turns decoded one frame of a known kind;
then it waits quietly, and the next IDLE turns, which read nothing (the session
still live: the host falls silent only after 500 ms), are the idle ones.
`gc.mem_alloc()` before and after a turn, outside its timing, gives the bytes
it allocated; a turn in which the collector ran (less allocated after than
before) is left out.

When it has its samples the probe prints one line, `LOOP` then for each kind
of turn its samples, median µs, 90th centile µs and median bytes allocated,
and returns to the REPL (the watchdog the hello armed then restarts the board).
`PATH` (replaced by the benchmark) is put first on `sys.path`, so an older
firmware copied to a folder of the board can be timed beside the installed one.
"""

import sys

PATH = ""  # replaced by the benchmark: a folder on the board holding other firmware files
HEARTBEATS = 30  # replaced by the benchmark
COMMANDS = 30  # replaced by the benchmark
IDLE = 200  # idle turns timed after the last command
if PATH:
    sys.path.insert(0, PATH)

import gc  # noqa: E402
from array import array  # noqa: E402
from time import ticks_diff, ticks_us  # noqa: E402

import fw_core  # noqa: E402
import fw_pico  # noqa: E402

fw_pico.motor_off()
hw = fw_pico.Hardware()
fw = fw_core.Firmware(hw)
fw._wait_ms = lambda: 0  # no waiting for bytes: a turn's time is its work
kinds = ((IDLE, "idle"), (HEARTBEATS, "heartbeat"), (COMMANDS, "command"))
times = [array("i", [0] * n) for n, _ in kinds]
allocs = [array("i", [0] * n) for n, _ in kinds]
counts = array("i", [0, 0, 0])
dec = fw._dec
frames = 0  # the host's frames decoded so far: the hello, then heartbeats, then commands
gc.collect()
while counts[0] < IDLE:
    before = dec.frames
    a0 = gc.mem_alloc()
    t0 = ticks_us()
    fw.step()
    t1 = ticks_us()
    a1 = gc.mem_alloc()
    got = dec.frames - before
    if got == 0:
        kind = 0 if counts[2] >= COMMANDS else -1
    elif got == 1 and frames >= 1:
        kind = 1 if frames <= HEARTBEATS else 2
    else:
        kind = -1  # the hello, or two frames in one turn: neither kind
    frames += got
    if kind >= 0 and a1 >= a0:
        slot = counts[kind] % len(times[kind])
        times[kind][slot] = ticks_diff(t1, t0)
        allocs[kind][slot] = a1 - a0
        counts[kind] += 1
fw._all_off()


def _stats(values, n):
    got = sorted(values[: min(n, len(values))])
    if not got:
        return "0 0"
    return f"{got[len(got) // 2]} {got[(len(got) * 9) // 10]}"


out = ["LOOP"]
for i in range(3):
    n = min(counts[i], len(times[i]))
    alloc = sorted(allocs[i][:n]) or [0]
    out.append(f"{kinds[i][1]} {n} {_stats(times[i], n)} {alloc[len(alloc) // 2]}")
print(" | ".join(out))
