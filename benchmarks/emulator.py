"""How smooth and how light the desktop emulator is.

Frame times: one turn of the window's loop (take events, step the service,
draw, update the display) with the unit beside a companion screen that has a
game open, at 800x480 and 1280x720, during a countdown and during a card
launch, against a full redraw of everything measured in the same run. The
clock is moved by hand one 60 Hz frame per turn, so every turn draws a frame.

The command itself (`uno-showdown emulator`, run as a child process): time
from starting it to its first frame on screen, the CPU it uses while idle
(its own loop sleeping in `pygame.event.wait`, measured over 3 s), and its
peak memory.

    python benchmarks/emulator.py [--frames 300] [--idle-s 3]

Without a display it re-runs itself under xvfb-run when that is installed;
otherwise it measures frames on SDL's dummy driver and skips the command.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SIZES = ((800, 480), (1280, 720))

#: Run in the child: the real command, reporting its first frame, idle CPU and peak memory.
CHILD = r"""
import json, os, resource, sys, threading, time
t0 = float(sys.argv[1]); idle_s = float(sys.argv[2])
import pygame
from uno_showdown.window import window
from uno_showdown.commands.cli import main
original = window.TableWindow.render
report = {}
def render(self, now_us):
    drew = original(self, now_us)
    if drew and "first_frame_s" not in report:
        report["first_frame_s"] = time.time() - t0
        def measure():
            time.sleep(0.5)  # let start-up settle
            cpu0, wall0 = time.process_time(), time.perf_counter()
            frames0 = self.frames
            time.sleep(idle_s)
            report["idle_cpu"] = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
            report["idle_frames"] = self.frames - frames0
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        threading.Thread(target=measure, daemon=True).start()
    return drew
window.TableWindow.render = render
status = main(["emulator", "--mute", "--size", "800x480", "--db", sys.argv[3]])
report["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
report["status"] = status
print("REPORT " + json.dumps(report), flush=True)
"""


def frame_times(size: tuple[int, int], frames: int, tmp: Path) -> dict[str, list[float]]:
    """Milliseconds per loop turn for each scenario at one window size."""
    import pygame

    from companion.app import CompanionApp
    from tests.uno_showdown.emulator.conftest import make_table

    app = CompanionApp.open(db_path=tmp / f"bench-{size[0]}.db")
    app.new_game("classic", "winner", ["Ann", "Bob", "Cy"])
    table = make_table(size=size, app=app)
    table.service.add_listener(app.on_service_event)
    frame_us = 1_000_000 // 60 + 1
    out: dict[str, list[float]] = {"full redraw": [], "countdown": [], "launch": []}

    def timed(name: str, n: int, before: object = None) -> None:
        for _ in range(n):
            if before is not None:
                before()  # type: ignore[operator]
            table.clock.now += frame_us
            t = time.perf_counter()
            table.window.turn(0)
            out[name].append((time.perf_counter() - t) * 1000)

    try:
        for _ in range(10):
            table.turn(frame_us)
        timed("full redraw", frames, lambda: setattr(table.window, "_full_redraw", True))
        table.key(pygame.K_3)
        table.key(pygame.K_F10)
        table.turn(frame_us)
        table.key(pygame.K_SPACE)
        table.turn(frame_us)
        timed("countdown", min(frames, 3_000_000 // frame_us - 5))
        table.run_for(4_000_000, step_us=frame_us)  # reach go
        launches = 0
        while len(out["launch"]) < frames:
            table.key(pygame.K_a)  # left is faster: three cards fly right
            table.turn(200_000)
            table.turn(frame_us * 2)
            while table.unit.state.launching_at(table.clock.now) and len(out["launch"]) < frames:
                timed("launch", 1)
            table.run_for(1_000_000, step_us=100_000)
            launches += 1
            table.key(pygame.K_F10)
            table.turn(frame_us)
            table.key(pygame.K_SPACE)
            table.turn(frame_us)
            table.run_for(3_100_000, step_us=100_000)
    finally:
        table.window.close()
        pygame.display.quit()
        app.close()
    return out


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def run_command(idle_s: float, tmp: Path) -> dict[str, float] | None:
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
               HOME=str(tmp), XDG_DATA_HOME=str(tmp))
    env.pop("SDL_VIDEODRIVER", None)
    t0 = time.time()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(t0), str(idle_s), str(tmp / "cmd.db")],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=60 + idle_s,
    )
    for line in done.stdout.splitlines():
        if line.startswith("REPORT "):
            report: dict[str, float] = json.loads(line[len("REPORT "):])
            return report
    print(done.stderr.strip()[-2000:], file=sys.stderr)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300, help="frames per scenario")
    parser.add_argument("--idle-s", type=float, default=3.0, help="idle CPU measured this long")
    args = parser.parse_args()

    display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if not display and shutil.which("xvfb-run") and not os.environ.get("UNO_BENCH_NESTED"):
        env = dict(os.environ, UNO_BENCH_NESTED="1")
        return subprocess.call(["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", sys.executable,
                                __file__, *sys.argv[1:]], env=env)
    if not display:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import logging

    logging.disable(logging.WARNING)  # the software-stamp warning, once per window
    import pygame

    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        pygame.display.init()
        driver = pygame.display.get_driver()
        pygame.display.quit()
        print(f"emulator benchmark: SDL video driver {driver}, {os.cpu_count()} cores, "
              f"{args.frames} frames per row")
        print(f"{'size':<10}{'scenario':<14}{'frames':>7}{'mean ms':>10}{'p99 ms':>9}"
              f"{'mean vs full':>14}")
        for size in SIZES:
            times = frame_times(size, args.frames, tmp)
            base = statistics.fmean(times["full redraw"])
            for scenario, values in times.items():
                mean = statistics.fmean(values)
                label = f"{size[0]}x{size[1]}"
                print(f"{label:<10}{scenario:<14}{len(values):>7}{mean:>10.2f}"
                      f"{p99(values):>9.2f}{mean / base:>13.2f}x")
        if not display:
            print("the command: skipped (no display and no xvfb-run)")
            return 0
        report = run_command(args.idle_s, tmp)
        if report is None:
            print("the command: failed to report (see above)")
            return 1
        print(f"command start to first frame: {report['first_frame_s']:.2f} s")
        print(f"idle CPU over {args.idle_s:.0f} s: {report['idle_cpu'] * 100:.2f} % of one core "
              f"({report['idle_frames']:.0f} frames drawn)")
        print(f"peak memory of the command: {report['peak_rss_mb']:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
